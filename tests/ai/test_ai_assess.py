"""The computer's shared evaluation (eiapbem/ai/assess.py): strength, odds, distances, threats, wars."""

from __future__ import annotations

from battlekit import corps, ctx, land_state, leader
from eiapbem.ai import assess
from eiapbem.rules.model import Date


def _two_armies():
    s = land_state()
    s = corps(s, "corps:FR:1", "strasbourg", infantry=6, cavalry=2)
    s = corps(s, "corps:AU:1", "vienna", infantry=5)
    s = corps(s, "corps:AU:2", "munich", infantry=3)
    return s


def test_strength_is_factors_times_morale_and_a_leader_adds_a_tenth_per_tactical_point():
    s, c = _two_armies(), ctx()
    # French infantry and cavalry morale 4.0 (000:3183-3196): 8 factors x 400
    assert assess.factor_strength(s, c, s.units["corps:FR:1"]) == 8 * 400
    assert assess.force_strength(s, c, ["corps:FR:1"]) == 3200
    s2 = leader(s, "leader:FR:napoleon", "corps:FR:1")  # tactical 5: +50%
    assert assess.force_strength(s2, c, ["corps:FR:1"]) == 3200 * 150 // 100
    assert assess.best_leader(s2, c, ["corps:FR:1"]) == "leader:FR:napoleon"
    # Austrian infantry 3.0
    assert assess.power_strength(s, c, "AU") == 8 * 300


def test_forces_in_an_area_and_odds():
    s, c = _two_armies(), ctx()
    f = assess.forces_in(s, c, "vienna", "FR")
    assert (f.own, f.enemy, f.enemy_ids) == (0, 1500, ("corps:AU:1",))
    g = assess.forces_in(s, c, "vienna", "AU")
    assert (g.own, g.enemy, g.own_ids) == (1500, 0, ("corps:AU:1",))
    assert assess.odds(3000, 1500) == 200
    assert assess.odds(1, 0) == 1000


def test_distances_follow_terrain_costs_and_are_symmetric_on_clear_ground():
    c = ctx()
    d = assess.distances_from(c, "paris")
    assert d["paris"] == 0
    assert list(d) == sorted(d)
    near = [a for a, v in d.items() if v == 1]
    assert near and all(assess.distance(c, a, "paris") is not None for a in near)
    assert assess.distance(c, "paris", "vienna") > assess.distance(c, "paris", "strasbourg")


def test_wars_and_threats_to_the_capital():
    s, c = _two_armies(), ctx()
    assert assess.enemies(s, "FR") == ("AU",)
    assert assess.war_pairs(s) == (("AU", "FR"),)
    assert assess.enemy_capitals(s, c, "FR") == ("vienna",)
    t = {x.area: x for x in assess.capital_threats(s, c, "AU", within=20)}["vienna"]
    assert t.enemy == 3200 and t.friendly == 2400 and t.danger
    s = s.without_war("FR", "AU")
    assert assess.enemies(s, "FR") == () and not assess.capital_threats(s, c, "AU", within=20)[0].danger
    assert [x.id for x in assess.enemy_field_corps(s, "FR")] == []
    assert s.date == Date(1805, 9)
