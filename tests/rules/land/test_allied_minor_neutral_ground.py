"""6.1.1, 6.1.3 (000:538-546): a minor allied to a power is treated as influenced, and so as neutral: no major
power places a depot or a garrison there, its ally included (the ally acts for it, ``relations.power_of``, but does
not hold it, ``control.city_held_by``)."""

from __future__ import annotations

import pytest

from battlekit import corps, ctx, land_state
from eiapbem.core.errors import IllegalAction
from eiapbem.rules import control, engine
from eiapbem.rules.land.depots import CreateDepot
from eiapbem.rules.land.garrisons import TransferGarrison
from eiapbem.rules.model import POOL, Depot, Location, LocationKind, MinorCountry, MinorStatus

C = ctx()


def _baden(status):
    s = land_state().with_power("FR", treasury=10).with_unit(Depot(id="depot:FR:1", power="FR", location=POOL))
    s = s.with_minor("baden", MinorCountry(status=status, controller="FR"))
    return corps(s, "corps:FR:II", "karlsruhe", infantry=10)


def test_the_ally_acts_for_karlsruhe_but_does_not_hold_it():
    s = _baden(MinorStatus.ALLIED)
    assert control.city_power(s, C.map, "karlsruhe") == "FR"
    assert control.city_held_by(s, C.map, "karlsruhe") is None
    assert control.city_held_by(_baden(MinorStatus.FREE_STATE), C.map, "karlsruhe") == "FR"
    assert control.city_held_by(s, C.map, "paris") == "FR"


def test_no_depot_of_its_ally_in_an_allied_minors_city():
    s = _baden(MinorStatus.ALLIED)
    with pytest.raises(IllegalAction, match=r"karlsruhe has no unbesieged city of FR in its territory \(10\.3\.1\)"):
        engine.apply_action(s, "FR", CreateDepot(area="karlsruhe"), C)
    # With a chain depot next door (10.3.3), the minor itself refuses it.
    s = s.with_unit(Depot(id="depot:FR:9", power="FR", location=Location(LocationKind.AREA, "strasbourg")))
    with pytest.raises(IllegalAction, match=r"karlsruhe is in baden, a minor allied \(FR\) that FR neither controls nor is "
                                            r"at war with: it is treated as neutral \(6\.1\.1-6\.1\.3"):
        engine.apply_action(s, "FR", CreateDepot(area="karlsruhe"), C)
    # The same city of a free state France runs takes the depot (10.3.1).
    out = engine.apply_action(_baden(MinorStatus.FREE_STATE), "FR", CreateDepot(area="karlsruhe"), C)
    assert out.state.units["depot:FR:1"].location.site == "karlsruhe" and "(10.3.1)" in out.events[-1].text


def test_no_garrison_of_its_ally_in_an_allied_minors_city():
    s = _baden(MinorStatus.ALLIED)
    with pytest.raises(IllegalAction, match=r"a minor allied to FR, not controlled by it; an allied minor is treated as "
                                            r"neutral and takes no garrison of a major power \(6\.1\.1, 6\.1\.3\)"):
        engine.apply_action(s, "FR", TransferGarrison(source="corps:FR:II", target="garrison:FR:city:karlsruhe",
                                                      infantry=1), C)
    out = engine.apply_action(_baden(MinorStatus.CONQUERED), "FR",
                              TransferGarrison(source="corps:FR:II", target="garrison:FR:city:karlsruhe", infantry=1), C)
    assert out.state.units["garrison:FR:city:karlsruhe"].factors.infantry == 1
