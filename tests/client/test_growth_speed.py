"""The speed changes of issue 18 items 2-3 give the same answers as the plain definitions they replace."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from model_strategies import factors, game_states

from eiapbem.core.dice import Dice
from eiapbem.data.context import rules_context
from eiapbem.rules import control, forces, supply
from eiapbem.rules.land import common as land_common
from eiapbem.client.bench import set_up_state
from eiapbem.rules.model import POOL, Corps, Depot, Fleet, Garrison, LocationKind
from eiapbem.rules.model.common import FactorType
from eiapbem.rules.naval import common as naval_common


@given(factors)
def test_factor_total_and_get_are_the_sums_by_type(f):
    assert f.total == sum(getattr(f, k.value.replace("-", "_")) for k in FactorType)
    for k in FactorType:
        assert f.get(k) == getattr(f, k.value.replace("-", "_"))


@settings(max_examples=30, suppress_health_check=[HealthCheck.too_slow])
@given(game_states())
def test_units_by_site_are_the_scan_of_every_unit(s):
    sites = {u.location.site for u in s.units.values()} | {"nowhere"}
    for site in sorted(sites):
        scan = [u for u in s.units.values() if u.location.site == site]
        assert list(control.units_at(s, site)) == scan
        assert control.corps_at(s, site) == [
            u for u in scan if isinstance(u, Corps) and u.location.kind in (LocationKind.AREA, LocationKind.CITY)]
        assert supply.garrisons_at(s, site) == [u for u in scan if isinstance(u, Garrison)]
        assert land_common.field_units(s, site) == [
            u for u in scan if isinstance(u, (Corps, Garrison)) and u.location.kind is LocationKind.AREA]
        for besieging in (False, True):
            assert forces.counters_in_section(s, site, besieging=besieging) == sum(
                1 for u in scan if u.location.kind is LocationKind.AREA and (
                    (isinstance(u, Corps) and u.besieging == besieging)
                    or (isinstance(u, (Garrison, Depot)) and not besieging)))
        for u in scan:
            if isinstance(u, Fleet):
                assert naval_common.fleets_at(s, u.location) == [
                    v for v in s.units.values() if isinstance(v, Fleet) and v.location == u.location]


def test_units_by_site_follow_a_changed_state():
    s, _n = set_up_state()
    corps = next(u for u in s.units.values() if isinstance(u, Corps) and u.location.kind is LocationKind.AREA)
    here = corps.location.site
    assert corps in control.units_at(s, here)
    moved = s.replace(units=s.units.set(corps.id, corps.replace(location=POOL)))
    assert corps.id not in [u.id for u in control.units_at(moved, here)]
    assert corps in control.units_at(s, here)  # the first state's answer is unchanged


def test_a_remembered_supply_chain_is_the_computed_one_and_a_new_dict():
    s, _n = set_up_state()
    m = rules_context(Dice(b"t")).map
    for p in ("FR", "AU", "RU"):
        first = supply.supply_chain(s, m, p)
        assert first and first == supply._supply_chain(s, m, p)
        first["nowhere"] = 99
        assert "nowhere" not in supply.supply_chain(s, m, p)
