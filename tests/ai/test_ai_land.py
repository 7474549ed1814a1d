"""The computer's land slot (eiapbem/ai/land.py): it marches, weighs odds, falls back, besieges and assaults.

Small situations on the packaged map (``battlekit``): France and Austria at war in
September 1805, France's land slot.  Each test plays the slot with ``ai.play_slot``
(every action through the engine) and looks at what the computer did.
"""

from __future__ import annotations

from battlekit import corps, ctx, land_state
from eiapbem import ai
from eiapbem.ai import assess, land
from eiapbem.ai.levels import level
from eiapbem.rules import engine
from eiapbem.rules.model import Garrison, Location, LocationKind, PlayerKind, Factors


def _state(kind: str, *placed):
    s = land_state().with_power("FR", controller=PlayerKind(kind), treasury=50)
    for cid, area, inf in placed:
        s = corps(s, cid, area, infantry=inf)
    return s


def _kinds(turn):
    return [a.KIND for a in turn.actions]


def _attacks(turn):
    return sorted(b.area for b in turn.state.battles.values() if b.attacker.power == "FR")


def test_at_peace_the_computer_holds():
    s = _state("ai-hard", ("corps:FR:I", "augsburg", 10), ("corps:AU:I", "munich", 3)).without_war("FR", "AU")
    turn = ai.play_slot(s, "FR", ctx(b"peace"))
    assert "land.move" not in _kinds(turn) and turn.state.units["corps:FR:I"].location.site == "augsburg"


def test_easy_marches_alone_on_a_target_it_outmatches():
    s = _state("ai-easy", ("corps:FR:I", "augsburg", 10), ("corps:AU:I", "munich", 3))
    turn = ai.play_slot(s, "FR", ctx(b"easy"))
    assert "land.move" in _kinds(turn)
    assert _attacks(turn) == ["munich"]  # 10 French factors (4000) against 3 Austrian (900): 1:1 is enough


def test_hard_waits_short_of_a_stronger_stack_and_attacks_when_its_corps_arrive_together():
    # 6 French factors (2400) against 10 Austrian (3000): hard wants 1.5:1 (eiapbem/ai/levels.py)
    hard = level("ai-hard")
    alone = _state("ai-hard", ("corps:FR:I", "augsburg", 6), ("corps:AU:I", "munich", 10))
    b = ai.Builder(alone, "FR", ctx(b"hard-alone"))
    land._march(b, hard, "munich", ("corps:FR:I",), None)
    assert b.state.units["corps:FR:I"].location.site != "munich"
    # with a second corps that can reach Munich this slot: 5600 against 3000, both enter and must attack (11.1)
    both = corps(alone, "corps:FR:II", "ulm", infantry=8)
    b = ai.Builder(both, "FR", ctx(b"hard-both"))
    land._march(b, hard, "munich", ("corps:FR:I", "corps:FR:II"), None)
    assert [b.state.units[c].location.site for c in ("corps:FR:I", "corps:FR:II")] == ["munich", "munich"]
    land.fight(b)
    fought = [x for x in b.state.battles.values() if x.attacker.power == "FR"]
    assert len(fought) == 1 and sorted(fought[0].attacker.units) == ["corps:FR:I", "corps:FR:II"]


def test_hard_takes_an_empty_enemy_capital_before_a_stack_it_cannot_beat():
    s = _state("ai-hard", ("corps:FR:I", "augsburg", 6), ("corps:AU:I", "munich", 10))
    turn = ai.play_slot(s, "FR", ctx(b"capital"))
    assert _attacks(turn) == [] and turn.state.units["corps:FR:I"].location.site != "munich"
    assert "land.move" in _kinds(turn)


def test_easy_attacks_where_hard_would_not():
    s = _state("ai-easy", ("corps:FR:I", "augsburg", 8), ("corps:AU:I", "munich", 10))  # 3200 against 3000
    assert _attacks(ai.play_slot(s, "FR", ctx(b"easy-odds"))) == ["munich"]
    s = s.with_power("FR", controller=PlayerKind("ai-hard"))
    assert _attacks(ai.play_slot(s, "FR", ctx(b"easy-odds"))) == []


def test_hard_besieges_and_assaults_a_weakly_held_city():
    s = _state("ai-hard", ("corps:FR:I", "vienna", 15))  # in the rural part of Vienna, whose city 2 factors hold
    s = s.with_unit(Garrison(id="garrison:AU:city:vienna", nation="AU", location=Location(LocationKind.CITY, "vienna"),
                             factors=Factors(infantry=2)))
    turn = ai.play_slot(s, "FR", ctx(b"siege"))
    kinds = _kinds(turn)
    assert kinds.index("land.besiege") < kinds.index("land.assault")  # 6000 against 600: hard assaults at 2:1
    assert any(v.kind == "assault" and v.besieger == "FR" for v in turn.state.sieges.values())


def test_a_corps_outmatched_falls_back_toward_a_friendly_city():
    s = _state("ai-hard", ("corps:FR:I", "freiburg", 3), ("corps:AU:I", "stuttgart", 15))
    b = ai.Builder(s, "FR", ctx(b"fall-back"))
    gone = land.fall_back(b, level("ai-hard"), set())
    assert gone == {"corps:FR:I"}
    here = b.state.units["corps:FR:I"].location.site
    assert here != "freiburg" and ctx().map.area(here).city is not None and b.state.units["corps:FR:I"].location.kind is LocationKind.AREA


def test_the_same_state_and_dice_give_the_same_land_slot():
    s = _state("ai-hard", ("corps:FR:I", "augsburg", 6), ("corps:FR:II", "ulm", 8), ("corps:AU:I", "munich", 10))
    one = [engine.action_to_obj(a) for a in ai.play_slot(s, "FR", ctx(b"same")).actions]
    two = [engine.action_to_obj(a) for a in ai.play_slot(s, "FR", ctx(b"same")).actions]
    assert one == two and one


def test_targets_value_capitals_above_corps_above_cities():
    s = _state("ai-hard", ("corps:FR:I", "augsburg", 6), ("corps:AU:I", "munich", 10))
    b = ai.Builder(s, "FR", ctx())
    t = {x.area: x for x in land.targets(b)}
    assert t["vienna"].value == land.VALUE_CAPITAL and t["munich"].value == land.VALUE_CORPS
    assert t["munich"].field == assess.force_strength(s, ctx(), ["corps:AU:I"])
    assert all(x.value == land.VALUE_CITY for a, x in t.items() if a not in ("vienna", "munich") and not x.field)


def test_a_threatened_capital_draws_the_nearest_corps():
    # Austria's slot: a French stack near Vienna outweighs what stands there; the nearest Austrian corps marches home
    from eiapbem.rules.model import Slot, Phase

    s = land_state().replace(slot=Slot(phase=Phase.LAND, step="turn", power="AU", actors=("AU",)))
    s = s.with_power("AU", controller=PlayerKind("ai-hard"))
    s = corps(s, "corps:FR:I", "linz", infantry=15)
    s = corps(s, "corps:AU:I", "brunn", infantry=8)
    s = corps(s, "corps:AU:II", "cracow", infantry=8)
    b = ai.Builder(s, "AU", ctx(b"capital"))
    assert [t.danger for t in assess.capital_threats(s, ctx(), "AU")] == [True]
    before = assess.distance(ctx(), "brunn", "vienna")
    sent = land.defend_capitals(b)
    assert "corps:AU:I" in sent
    assert assess.distance(ctx(), b.state.units["corps:AU:I"].location.site, "vienna") < before


def test_a_depot_is_placed_where_a_corps_stands_beyond_the_supply_chain():
    # 10.3.1: a depot may go in a city of its own; medium and hard place one where a corps has none within two areas
    from eiapbem.rules.model import POOL, Depot

    s = _state("ai-hard", ("corps:FR:I", "strasbourg", 10))
    s = s.with_unit(Depot(id="depot:FR:1", power="FR", location=POOL)).with_unit(Depot(id="depot:FR:2", power="FR", location=POOL))
    b = ai.Builder(s, "FR", ctx(b"depot"))
    land.place_depots(b)
    assert [a.KIND for a in b.actions] == ["land.create-depot"] and b.actions[0].area == "strasbourg"
    assert "strasbourg" in land.supplied_areas(b)
    land.place_depots(b)  # now within reach of the chain: no second depot
    assert len(b.actions) == 1


def test_a_granted_request_sends_the_nearest_corps_to_the_area_first():
    # 6.16: without the request the corps attacks Munich (test above); with a defence of Ulm granted to an ally
    # it goes to Ulm this month, and the request ends with the month (sequence.advance).
    s = _state("ai-easy", ("corps:FR:I", "augsburg", 10), ("corps:AU:I", "munich", 3))
    asked = s.with_power("FR", military_requests=s.powers["FR"].military_requests.set("ulm", "defend"))
    turn = ai.play_slot(asked, "FR", ctx(b"request"))
    assert turn.state.units["corps:FR:I"].location.site == "ulm" and _attacks(turn) == []
    assert _attacks(ai.play_slot(s, "FR", ctx(b"request"))) == ["munich"]


def test_a_granted_attack_is_made_even_where_the_odds_would_not_do():
    # hard waits short of 10 Austrian factors with 6 (test above); an attack it granted an ally is made (6.16)
    s = _state("ai-hard", ("corps:FR:I", "augsburg", 6), ("corps:AU:I", "munich", 10))
    s = s.with_power("FR", military_requests=s.powers["FR"].military_requests.set("munich", "attack"))
    assert _attacks(ai.play_slot(s, "FR", ctx(b"capital"))) == ["munich"]
