"""One definition per rule question (issue 14 item 2): relations and control.

The rules these functions follow are written in docs/decisions.md ("One
definition per rule question"); the property tests below check them over
random diplomatic situations, and two regression cases pin the disagreements
the issue found (Venice ceded to France; Finland with Sweden conquered).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eiapbem.core.dice import Dice
from eiapbem.data import world
from eiapbem.data.context import rules_context
from eiapbem.rules import control, relations
from eiapbem.rules.combat import sieges
from eiapbem.rules.model import POWERS, Fleet, Location, LocationKind, MinorStatus, Ships
from eiapbem.rules.model.state import CityControl
from eiapbem.rules.naval import battle as naval
from eiapbem.rules.scenario import initial_state

CTX = rules_context(Dice(b"relations", {}, strict=False))
START = initial_state(world.load_scenario("classic-1805"), world.load_raw())
MINORS = tuple(sorted(START.minors))
STATUSES = tuple(MinorStatus)


def _sweden_conquered_by_russia():
    sweden = START.minors["sweden"]
    return START.with_minor("sweden", sweden.replace(status=MinorStatus.CONQUERED, controller="RU"))


# ----------------------------------------------------------------- the two disagreements of issue 14


def test_venice_with_its_area_ceded_to_france_is_held_by_france_everywhere():
    """13.5.1 (000:2562): with no garrison or corps in it, a minor's city is held by whoever holds its area."""
    s = START.replace(area_control=START.area_control.set("venice", "FR"))
    assert control.area_holder(s, CTX, "venice") == "FR"
    assert control.city_holder(s, CTX, "venice") == "FR"
    assert control.port_holder(s, CTX, "venice") == "FR"
    assert control.city_power(s, CTX.map, "venice") == "FR"  # what supply and reinforcement ask
    # naval and siege rules ask the same function now
    assert naval.may_use_port(s, CTX, "FR", "venice")
    assert not naval.may_use_port(s, CTX, "AU", "venice")
    assert sieges.city_holder is control.city_holder
    # Verona, the other area of Venetia, still follows the minor's conqueror (Austria in 1805)
    assert control.city_holder(s, CTX, "verona") == "AU"


def test_finland_follows_sweden_conquered_by_russia():
    """13.6.3 (000:2598), 13.6.4 (000:2606): the controller of the major district controls the joined secondary one."""
    s = _sweden_conquered_by_russia()
    assert START.minors["finland"].part_of == "sweden"
    assert relations.power_of(s, "finland") == "RU"
    assert control.minor_holder(s, "finland") == "RU"
    assert control.city_holder(s, CTX, "helsingfors") == "RU"
    assert naval.may_use_port(s, CTX, "RU", "helsingfors")
    # at war with Russia means at war with Finland
    s = s.with_war("GB", "RU", s.date, ("GB",))
    assert relations.at_war(s, "GB", "finland")
    assert not relations.at_war(s, "FR", "finland")


def test_a_neutral_joined_district_shares_its_major_district_war():
    """13.6.2 (000:2594): war on a neutral Sweden is war on Finland while they are one country."""
    s = START.with_power("FR", minor_wars=START.powers["FR"].minor_wars.set("sweden", START.date))
    assert relations.power_of(s, "finland") is None
    assert relations.at_war(s, "FR", "finland") and relations.at_war(s, "finland", "FR")
    assert not relations.at_war(s, "GB", "finland")


def test_city_control_record_beats_the_area_and_a_ceded_province_goes_to_its_holder():
    s = START.replace(city_control=START.city_control.set("venice", CityControl(nation="GB", since=START.date)))
    assert control.city_holder(s, CTX, "venice") == "GB"
    assert control.area_holder(s, CTX, "venice") == "AU"
    province = CTX.map.area("vienna").province
    s = START.replace(ceded_provinces=START.ceded_provinces.set(province, "FR"))
    assert control.province_holder(s, CTX, province) == "FR"
    assert control.city_holder(s, CTX, "vienna") == "FR"  # 13.5.2 (000:2566)
    assert control.territory_power(s, CTX, "vienna") == "FR"


def test_only_a_fleet_with_ships_at_war_blockades():
    port = "venice"
    fleet = next(u for u in START.units.values() if isinstance(u, Fleet) and u.nation == "GB")
    box = fleet.replace(location=Location(LocationKind.BLOCKADE, port), ships=Ships(heavy=3))
    s = START.with_unit(box)
    assert not control.is_blockaded(s, CTX, port)  # GB and AU at peace
    s = s.with_war("GB", "AU", s.date, ("GB",))
    assert control.is_blockaded(s, CTX, port)  # against the port's holder by default
    assert control.is_blockaded(s, CTX, port, "AU")
    assert not control.is_blockaded(s, CTX, port, "FR")
    assert not control.is_blockaded(s.with_unit(box.replace(ships=Ships())), CTX, port)


# ----------------------------------------------------------------- properties over random situations


@st.composite
def situations(draw):
    s = START
    for slug in draw(st.lists(st.sampled_from(MINORS), max_size=8, unique=True)):
        m = s.minors[slug]
        if m.part_of is not None:
            continue
        status = draw(st.sampled_from((MinorStatus.NEUTRAL, MinorStatus.INFLUENCED, MinorStatus.ALLIED,
                                       MinorStatus.CONQUERED, MinorStatus.FREE_STATE)))
        controller = None if status is MinorStatus.NEUTRAL else draw(st.sampled_from(POWERS))
        s = s.with_minor(slug, m.replace(status=status, controller=controller))
    for a, b in draw(st.lists(st.tuples(st.sampled_from(POWERS), st.sampled_from(POWERS)), max_size=6)):
        if a != b and b not in s.powers[a].wars:
            s = s.with_war(a, b, s.date, (a,))
    for a, b in draw(st.lists(st.tuples(st.sampled_from(POWERS), st.sampled_from(POWERS)), max_size=3)):
        if a != b and b not in s.powers[a].wars:
            s = s.with_alliance(a, b, s.date)
    for p, slug in draw(st.lists(st.tuples(st.sampled_from(POWERS), st.sampled_from(MINORS)), max_size=4)):
        if relations.power_of(s, slug) is None:
            s = s.with_power(p, minor_wars=s.powers[p].minor_wars.set(slug, s.date))
    return s


NATIONS = st.sampled_from(POWERS + MINORS)
PROPERTY = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@PROPERTY
@given(situations(), NATIONS)
def test_power_of_follows_the_rule(s, nation):
    got = relations.power_of(s, nation)
    if nation in POWERS:
        assert got == nation
        return
    m = relations.minor_record(s, nation)
    if m.status in (MinorStatus.ALLIED, MinorStatus.CONQUERED, MinorStatus.FREE_STATE):
        assert got == m.controller
    else:
        assert got is None
    if s.minors[nation].part_of is not None:
        assert got == relations.power_of(s, s.minors[nation].part_of)


@PROPERTY
@given(situations(), NATIONS, NATIONS)
def test_at_war_is_symmetric_and_goes_through_the_acting_powers(s, a, b):
    assert relations.at_war(s, a, b) == relations.at_war(s, b, a)
    assert not relations.at_war(s, a, a)
    pa, pb = relations.power_of(s, a), relations.power_of(s, b)
    if pa is not None and pb is not None:
        assert relations.at_war(s, a, b) == (pa != pb and pb in s.powers[pa].wars)
    if pa is None and pb is None:
        assert not relations.at_war(s, a, b)
    if relations.at_war(s, a, b):
        assert not relations.allied(s, a, b)


@PROPERTY
@given(situations(), NATIONS, NATIONS)
def test_allied_is_reflexive_and_symmetric(s, a, b):
    assert relations.allied(s, a, a)
    assert relations.allied(s, a, b) == relations.allied(s, b, a)


@PROPERTY
@given(situations(), st.sampled_from(sorted(a for a in CTX.map.areas if CTX.map.area(a).city is not None)))
def test_city_holder_follows_the_rule(s, area):
    a = CTX.map.area(area)
    holder = control.city_holder(s, CTX, area)
    assert holder == control.area_holder(s, CTX, area)  # no city_control or area_control records here
    if a.nation in POWERS:
        assert holder == a.nation
    else:
        m = relations.minor_record(s, a.nation)
        if m.status in (MinorStatus.CONQUERED, MinorStatus.FREE_STATE):
            assert holder == m.controller
        else:
            assert holder == a.nation
    assert control.port_holder(s, CTX, area) == holder
    assert control.city_power(s, CTX, area) == relations.power_of(s, holder)


def test_the_questions_are_answered_in_one_place_only():
    """Issue 14: searching for a second ``power_of``, ``at_war`` or ``is_blockaded`` finds none."""
    import pathlib
    import re

    root = pathlib.Path(relations.__file__).resolve().parents[1]
    pattern = re.compile(r"^def (power_of|at_war|allied|is_blockaded|blockaded|city_holder|port_holder|area_holder"
                         r"|_city_controller|port_controller|city_nation|unit_controller|controlling_power)\(", re.M)
    found = sorted(
        f"{p.relative_to(root)}:{m.group(1)}" for p in root.rglob("*.py") for m in pattern.finditer(p.read_text())
    )
    assert found == [
        "rules/control.py:area_holder", "rules/control.py:city_holder", "rules/control.py:is_blockaded",
        "rules/control.py:port_holder", "rules/relations.py:allied", "rules/relations.py:at_war",
        "rules/relations.py:power_of",
    ]


@pytest.mark.parametrize("nation", ["FR", "bavaria", "finland"])
def test_nobody_is_never_at_war_or_allied(nation):
    assert not relations.at_war(START, None, nation)
    assert not relations.allied(START, nation, None)
    assert relations.power_of(START, None) is None

