"""``show reach``: where a corps can still go in the land phase, asked of the movement rules (4.1.2, 10.4)."""

import pytest

from battlekit import corps, ctx, land_state
from eiapbem.client.reach import corps_reach
from eiapbem.core.errors import IllegalAction
from eiapbem.rules import engine
from eiapbem.rules.land.movement import MoveUnit, plan_move

C = ctx()


def test_every_area_shown_is_a_move_the_rules_accept_at_the_cost_shown():
    s = corps(land_state(), "corps:FR:V", "strasbourg", infantry=10)
    r = corps_reach(s, C, "FR", "corps:FR:V")
    assert r.at == "strasbourg" and r.spent == 0 and r.allowance >= 3 and r.areas
    for a in r.areas:
        plan = plan_move(s, "FR", MoveUnit(unit="corps:FR:V", path=",".join(a.path)), C)
        assert plan.end.site == a.area and plan.record.spent == a.cost <= r.allowance
    assert [a.cost for a in r.areas] == sorted(a.cost for a in r.areas)  # cheapest first
    # Nothing the rules refuse is left out: every next-door area the rules accept is listed.
    for n in C.map.land_neighbours("strasbourg"):
        try:
            plan_move(s, "FR", MoveUnit(unit="corps:FR:V", path=n), C)
        except IllegalAction:
            continue
        assert n in {a.area for a in r.areas}


def test_points_spent_earlier_and_forced_march_change_the_reach():
    s = corps(land_state(), "corps:FR:V", "strasbourg", infantry=10)
    before = corps_reach(s, C, "FR", "corps:FR:V")
    s2 = engine.apply_action(s, "FR", MoveUnit(unit="corps:FR:V", path="nancy"), C).state
    after = corps_reach(s2, C, "FR", "corps:FR:V")
    assert after.at == "nancy" and after.spent == 1
    assert max(a.cost for a in after.areas) <= after.allowance - 1
    forced = corps_reach(s, C, "FR", "corps:FR:V", forced_march=True)
    assert forced.allowance == before.allowance + 1 and len(forced.areas) > len(before.areas)


def test_an_enemy_corps_stops_the_path_and_a_halted_corps_cannot_move():
    s = corps(land_state(), "corps:FR:V", "strasbourg", infantry=10)
    s = corps(s, "corps:AU:I", "nancy", infantry=5)
    r = corps_reach(s, C, "FR", "corps:FR:V")
    nancy = next(a for a in r.areas if a.area == "nancy")
    assert nancy.halts and "corps:AU:I" in nancy.halts
    assert all(a.path[:1] != ("nancy",) or a.area == "nancy" for a in r.areas)  # nothing beyond nancy through it
    halted = engine.apply_action(s, "FR", MoveUnit(unit="corps:FR:V", path="nancy"), C).state
    with pytest.raises(IllegalAction, match="corps:FR:V cannot move now: .*ended its movement in nancy"):
        corps_reach(halted, C, "FR", "corps:FR:V")
    with pytest.raises(IllegalAction, match="not a corps on the map"):
        corps_reach(s, C, "FR", "corps:FR:nope")
