"""13.2.4 (000:2482): Austria's insurrection corps stay within Austria's home provinces: they move only there,
``show reach`` offers nothing outside, they join no battle outside, and retreating out of them they stand down."""

from __future__ import annotations

import pytest

from battlekit import answer, corps, ctx, land_state, leader, pending_of
from eiapbem.client.reach import corps_reach
from eiapbem.core.errors import IllegalAction
from eiapbem.rules.combat.field import start_field_battle
from eiapbem.rules.forces import retreated
from eiapbem.rules.land.movement import MoveUnit, plan_move
from eiapbem.rules.model import POOL, Depot, Location, LocationKind

C = ctx()
INS = "corps:AU:Insurrection-I"


def _au_turn(s):
    return s.replace(slot=s.slot.replace(power="AU", actors=("AU",)))


def _insurrection_at(area, s=None):
    s = _au_turn(s or land_state())
    return corps(s, INS, area, militia=15, cavalry=3, corps_type="insurrection")


def test_an_insurrection_corps_moves_only_within_austria():
    s = _insurrection_at("linz")
    with pytest.raises(IllegalAction, match=r"insurrection corps and moves only within its home nation's provinces \(13\.2\.4"):
        plan_move(s, "AU", MoveUnit(unit=INS, path="munich"), C)
    assert plan_move(s, "AU", MoveUnit(unit=INS, path="vienna"), C).end.site == "vienna"
    # A regular Austrian corps in the same place may go to Munich: the refusal is the insurrection's.
    s = corps(s, "corps:AU:I", "linz", infantry=5)
    assert plan_move(s, "AU", MoveUnit(unit="corps:AU:I", path="munich"), C).end.site == "munich"


def test_show_reach_offers_no_area_outside_austria():
    s = _insurrection_at("linz")
    reached = {a.area for a in corps_reach(s, C, "AU", INS).areas}
    assert reached and all(C.map.area(a).nation == "AU" for a in reached)
    assert "munich" not in reached and "vienna" in reached


def test_a_ceded_province_is_still_its_home():
    s = _insurrection_at("linz")
    tyrol = C.map.area("innsbruck").province
    s = s.replace(ceded_provinces=s.ceded_provinces.set(tyrol, "FR"))
    assert plan_move(s, "AU", MoveUnit(unit=INS, path="innsbruck"), C).end.site == "innsbruck"


def test_retreating_out_of_austria_it_stands_down_keeping_its_factors():
    s = _insurrection_at("linz")
    u = s.units[INS]
    gone = retreated(C.map, u, ("munich",))
    assert gone.location == POOL and gone.factors == u.factors
    assert retreated(C.map, u, ("vienna",)).location == Location(LocationKind.AREA, "vienna")


def test_a_beaten_insurrection_corps_retreating_into_bavaria_stands_down():
    # Its only depot is in Munich, so the retreat goes out of Austria (11.2.10, 000:1842).
    s = _insurrection_at("linz")
    s = s.replace(slot=s.slot.replace(power="FR", actors=("FR",)))
    s = corps(s, "corps:FR:I", "linz", infantry=20)
    s = s.with_unit(Depot(id="depot:AU:1", power="AU", location=Location(LocationKind.AREA, "munich")))
    s = start_field_battle(s, "linz", ["corps:FR:I"], [INS], C).state
    bid = next(iter(s.battles))
    for role, chit in (("attacker", "probe"), ("defender", "withdrawal")):
        d = next(d for d in pending_of(s, bid) if d.kind == "battle.chit" and d.context["role"] == role)
        s = answer(s, d, chit, C)
    assert s.units[INS].location == POOL and s.units[INS].factors.total > 0
    assert any(e.kind == "battle.stand-down" and "13.2.4" in e.text for e in s.battles[bid].events)


def test_it_joins_no_battle_outside_austria():
    from eiapbem.rules.combat import field_end

    s = _insurrection_at("linz")
    s = corps(s, "corps:AU:I", "munich", infantry=5)
    s = corps(s, "corps:FR:I", "munich", infantry=10)
    s = corps(s, "corps:AU:II", "linz", infantry=5)
    s = leader(s, "leader:AU:charles", "corps:AU:II")  # across the river intrinsic 1 - 1 could never reinforce (000:1882)
    s = start_field_battle(s, "munich", ["corps:FR:I"], ["corps:AU:I"], C).state
    b = next(iter(s.battles.values()))
    friends = field_end._adjacent_friends(s, b, "defender", C)
    assert "corps:AU:II" in friends["linz"] and INS not in friends["linz"]
