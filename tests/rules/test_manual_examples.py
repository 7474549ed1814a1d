"""Worked examples of the manual that no rules case under tests/cases/ holds (docs/examples.md lists them all).

Each test is built from the example's facts and numbers and cites its line of 000.
"""

from __future__ import annotations

import pytest

from battlekit import corps, ctx, land_state
from eiapbem.core.errors import IllegalAction
from eiapbem.rules import engine, relations, supply
from eiapbem.rules.diplomacy.common import districts
from eiapbem.rules.economy.collection import fund_provinces
from eiapbem.rules.forces import check_garrison_room, garrison_capacity
from eiapbem.rules.land import conquest, supplyphase
from eiapbem.rules.land.common import may_enter_territory
from eiapbem.rules.land.movement import MoveUnit
from eiapbem.rules.model import Access, AccessKind, Depot, Factors, Location, LocationKind, MinorStatus
from eiapbem.rules.politics import adjust_status, status_box
from eiapbem.rulecases.procedures.game import build_state

C = ctx()
M = C.map


def _scenario():
    """classic-1805's first state in September's land phase (Spain's slot, the month's last)."""
    return build_state({"scenario": "classic-1805", "date": "1805-09", "phase": "land", "power": "SP"}, C)


# ----------------------------------------------------------------- 10.4.3 city garrison capacity


def test_a_city_of_supply_value_4_holds_up_to_20_garrison_factors_000_1434():
    s = land_state()
    assert M.area("amsterdam").city.supply == 4
    assert garrison_capacity(s, M, "amsterdam") == 20
    check_garrison_room(s, M, "amsterdam", Factors(infantry=20))
    with pytest.raises(IllegalAction, match="at most 20 garrison factors"):
        check_garrison_room(s, M, "amsterdam", Factors(infantry=20, militia=1))


# ----------------------------------------------------------------- 10.5.2 depot supply by distance


def test_a_corps_three_areas_from_a_depot_pays_3_dollars_000_1530():
    s = land_state().with_power("FR", treasury=10)
    s = s.with_unit(Depot(id="depot:FR:1", power="FR", location=Location(LocationKind.AREA, "strasbourg")))
    for cid, area in (("corps:FR:A", "strasbourg"), ("corps:FR:B", "nancy"), ("corps:FR:C", "reims"), ("corps:FR:D", "paris")):
        s = corps(s, cid, area, infantry=5)
    assert supply.depot_distance(s, M, "FR", "paris") == 3
    halves = {cid: supplyphase.depot_cost_halves(s, C, "FR", s.units[cid]) for cid in ("corps:FR:A", "corps:FR:B", "corps:FR:C", "corps:FR:D")}
    # $1/2 on the depot, then $1 per area: 1, 2 and (the example) 3 areas away pays $3.
    assert halves == {"corps:FR:A": 1, "corps:FR:B": 2, "corps:FR:C": 4, "corps:FR:D": 6}


# ----------------------------------------------------------------- 13.7.1 the display's zones join


def test_zone_lines_join_a_plus_one_from_the_neutral_end_enters_the_dominant_zone_000_2616():
    s = land_state().with_power("FR", political_status=19)
    assert status_box(C, 19)["zone"] == "neutral" and status_box(C, 20)["zone"] == "dominant"
    up = adjust_status(s, C, "FR", 1)
    assert up.powers["FR"].political_status == 20  # one space, across the zone line
    assert adjust_status(up, C, "FR", -1).powers["FR"].political_status == 19
    # Off either end the marker stays at the end; forced off the lower end the power must sue for peace.
    low = adjust_status(s.with_power("FR", political_status=1), C, "FR", -3)
    assert low.powers["FR"].political_status == 0 and low.powers["FR"].must_sue_for_peace
    high = adjust_status(s.with_power("FR", political_status=29), C, "FR", 3)
    assert high.powers["FR"].political_status == 30 and not high.powers["FR"].must_sue_for_peace


# ----------------------------------------------------------------- 6.4.2 enforced access


def test_enforced_access_lets_france_through_austria_to_russia_000_678():
    s = land_state().without_war("FR", "AU")
    s = s.with_war("FR", "RU", s.date, ("FR",))
    s = corps(s, "corps:FR:I", "munich", infantry=5)
    assert may_enter_territory(s, M, "linz", "FR") is not None  # at peace with Austria, no access
    with pytest.raises(IllegalAction, match="13.4.1"):
        engine.apply_action(s, "FR", MoveUnit(unit="corps:FR:I", path="linz"), C)
    au = s.powers["AU"]
    s = s.with_power("AU", access=au.access.set("FR", Access(AccessKind.ENFORCED)))  # peace term C.5
    assert relations.has_access(s, "FR", "AU") and not relations.at_war(s, "FR", "AU")
    moved = engine.apply_action(s, "FR", MoveUnit(unit="corps:FR:I", path="linz,vienna"), C).state
    assert str(moved.units["corps:FR:I"].location) == "area:vienna"


# ----------------------------------------------------------------- 13.6 minors of two districts


def test_denmark_is_two_districts_until_norway_is_conquered_apart_000_2590_2594_2602():
    s = _scenario()
    assert s.minors["norway"].part_of == "denmark" and M.province("norway").capital == "christiania"
    assert M.province("denmark").capital == "copenhagen"
    assert districts(s, "denmark") == 2  # a declaration on Denmark costs -1 per district: -2 (13.6.2)
    at_war_with_denmark = s.with_power("FR", minor_wars=s.powers["FR"].minor_wars.set("denmark", s.date))
    assert relations.at_war(at_war_with_denmark, "FR", "norway")  # war on Denmark is war on Norway (13.6.2)
    # Russia conquers Norway by holding Christiania (13.6.3): Norway leaves Denmark for good.
    s = conquest.conquer(s, "norway", "RU").state
    assert s.minors["norway"].status is MinorStatus.CONQUERED and s.minors["norway"].controller == "RU"
    assert s.minors["norway"].part_of is None and s.minors["denmark"].districts == ()
    assert districts(s, "denmark") == 1  # "unless Norway has already been conquered": -1 only
    later = s.with_power("FR", minor_wars=s.powers["FR"].minor_wars.set("denmark", s.date))
    assert not relations.at_war(later, "FR", "norway")


def test_norways_values_go_to_a_danish_free_state_only_while_joined_000_2606():
    s = _scenario()
    assert "norway" in fund_provinces(s, C, "denmark")  # 13.6.4: Norway's money and manpower buy Danish forces
    s = conquest.conquer(s, "norway", "RU").state
    assert "norway" not in fund_provinces(s, C, "denmark")
