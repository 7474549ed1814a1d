"""Retreat after combat (11.2.10, 000:1840-1852) on the packaged map."""

from __future__ import annotations

from battlekit import corps, ctx, land_state

from eiapbem.rules import relations
from eiapbem.rules.combat.retreat import retreat_path, retreat_targets
from eiapbem.rules.model import CityControl, Depot, Location, LocationKind


def _power_of(state):
    return lambda u: relations.unit_power(state, u)


def test_toward_the_nearest_depot_of_the_force_000_1842():
    s = land_state()
    s = s.with_unit(Depot(id="depot:AU:1", power="AU", location=Location(LocationKind.AREA, "stuttgart")))
    m = ctx().map
    assert retreat_targets(s, m, ("AU",)) == ("stuttgart",)
    assert retreat_path(s, m, "ulm", ("AU",), ("FR",), _power_of(s)) == ("stuttgart",)


def test_without_a_depot_toward_the_controlled_capital_000_1842():
    s = land_state()
    m = ctx().map
    assert retreat_targets(s, m, ("AU",)) == ("vienna",)
    s = s.replace(area_control=s.area_control.set("vienna", "FR"))
    assert retreat_targets(s, m, ("AU",)) == ()


def test_an_enemy_holding_the_capital_city_is_no_target_though_the_area_is_not_his_000_1842():
    # Issue 30 item 1: the capital *city*'s holder decides (a French garrison took Vienna's city), not the
    # record of the area; and a city retaken by its own power is a target again though the area was ceded.
    s = land_state()
    m = ctx().map
    taken = s.replace(city_control=s.city_control.set("vienna", CityControl(nation="FR", since=s.date)))
    assert retreat_targets(taken, m, ("AU",)) == ()
    retaken = s.replace(area_control=s.area_control.set("vienna", "FR"),
                        city_control=s.city_control.set("vienna", CityControl(nation="AU", since=s.date)))
    assert retreat_targets(retaken, m, ("AU",)) == ("vienna",)


def test_an_area_with_an_enemy_corps_is_passed_through_never_twice_000_1846():
    s = land_state()
    s = s.with_unit(Depot(id="depot:AU:1", power="AU", location=Location(LocationKind.AREA, "stuttgart")))
    s = corps(s, "corps:FR:9", "stuttgart", infantry=1)
    path = retreat_path(s, ctx().map, "ulm", ("AU",), ("FR",), _power_of(s))
    assert path[0] == "stuttgart" and len(path) == 2 and path[1] not in ("ulm", "stuttgart")


def test_boxed_in_means_surrender_000_1852():
    s = land_state()
    s = corps(s, "corps:FR:9", "palermo", infantry=1)
    assert retreat_path(s, ctx().map, "messina", ("AU",), ("FR",), _power_of(s)) is None
    # a friendly corps does not block
    assert retreat_path(s, ctx().map, "messina", ("FR",), ("AU",), _power_of(s)) == ("palermo",)
