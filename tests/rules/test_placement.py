"""Placement is one function shared by setup and reinforcement (issue 14 item 4; ``eiapbem.rules.placement``).

Placing a counter (ownership, the pool, room where it goes, its counter's capacity), a garrison's room and a
leader's unit are refused with the same sentence whichever phase places them.
"""

from __future__ import annotations

import ast

import pytest

from eiapbem.core.dice import Dice
from eiapbem.core.errors import IllegalAction
from eiapbem.data.context import rules_context
from eiapbem.rules import engine, placement, setup
from eiapbem.rules.model import Date, Depot, Factors, Location, LocationKind, Phase, Ships, Slot
from eiapbem.rules.model.powers import BuildOrder
from eiapbem.rules.model.slot import TURN
from eiapbem.rules.reinforcement import army, leaders, naval
from eiapbem.rules.sequence import setup_slots
from paths import PACKAGE

RULES = PACKAGE / "rules"
MARCH = Date(1805, 3)


@pytest.fixture(scope="module")
def ctx():
    return rules_context(Dice(b"placement-tests"))


def at_setup(state, power):
    return state.replace(slot=next(s for s in setup_slots() if s.power == power))


def at_reinforcement(state, power):
    return state.replace(date=MARCH, slot=Slot(Phase.REINFORCEMENT, TURN, power, (power,)))


def refusal(state, power, action, ctx) -> str:
    with pytest.raises(IllegalAction) as err:
        engine.verify_action(state, power, action, ctx)
    return str(err.value)


def due(state, nation, item, count, port=None):
    o = BuildOrder(nation=nation, item=item, count=count, arrives=MARCH, port=port)
    return state.with_power(nation, builds=state.powers[nation].builds.set(o.key, o))


def test_another_powers_counter_is_refused_in_one_sentence_in_both_phases(start, ctx):
    s = at_setup(start, "RU")
    r = at_reinforcement(start, "RU").with_unit(start.units["corps:FR:II"].replace(placeable_until=Date(1805, 6)))
    in_setup = refusal(s, "RU", setup.SetupPlaceCorps("corps:FR:II", "moscow"), ctx)
    in_reinforcement = refusal(r, "RU", army.PlaceCorps(corps="corps:FR:II", area="moscow", infantry=1), ctx)
    sentence = ("corps:FR:II is FR's; RU places only its own counters and those of its minor free states "
                "(5.2, 000:312; 7.2, 000:930-936)")
    assert in_setup == in_reinforcement == sentence


def test_a_counter_on_the_map_and_a_counter_not_bought(start, ctx):
    s = engine.apply_action(at_setup(start, "RU"), "RU", setup.SetupPlaceCorps("corps:RU:I", "moscow"), ctx).state
    assert refusal(s, "RU", setup.SetupPlaceCorps("corps:RU:I", "moscow"), ctx) == "corps:RU:I is already on the map at area:moscow"
    r = at_reinforcement(start, "FR")
    assert "has not been bought" in refusal(r, "FR", army.PlaceCorps(corps="corps:FR:II", area="paris", infantry=1), ctx)
    assert "has not been bought" in refusal(r, "FR", naval.PlaceFleet(fleet="fleet:FR:1", port="brest", heavy=1), ctx)


def test_a_counters_capacity_is_one_sentence_in_both_phases(start, ctx):
    s = engine.apply_action(at_setup(start, "RU"), "RU", setup.SetupPlaceCorps("corps:RU:I", "moscow"), ctx).state
    in_setup = refusal(s, "RU", setup.SetupAddFactors("corps:RU:I", Factors(infantry=16)), ctx)
    r = at_reinforcement(start, "RU").with_unit(start.units["corps:RU:I"].replace(
        location=Location(LocationKind.AREA, "moscow"), factors=Factors(infantry=15)))
    r = due(r, "RU", "infantry", 1)
    in_reinforcement = refusal(r, "RU", army.AddFactors(corps="corps:RU:I", infantry=1), ctx)
    assert in_setup.endswith("infantry 16 > 15 (the corps counter's full strength, 7.2.2, 000:930)")
    assert in_reinforcement.endswith("infantry 16 > 15 (the corps counter's full strength, 7.2.2, 000:930)")


def test_a_garrisons_room_is_one_sentence_in_both_phases(start, ctx):
    cap = ctx.map.areas["moscow"].city.garrison_capacity
    s = engine.apply_action(at_setup(start, "RU"), "RU", setup.AddGarrison("moscow", Factors(infantry=cap)), ctx).state
    in_setup = refusal(s, "RU", setup.AddGarrison("moscow", Factors(infantry=1)), ctx)
    r = due(at_reinforcement(s, "RU"), "RU", "infantry", 1)
    in_reinforcement = refusal(r, "RU", army.AddToGarrison(area="moscow", infantry=1), ctx)
    assert in_setup == in_reinforcement == (f"the city of moscow holds at most {cap} garrison factors "
                                            f"(5 per supply value, 10.4.3); it has {cap}, so 1 more do not fit")
    assert "garrisons hold only infantry and militia, not cavalry (10.4.3, 000:1424)" == refusal(
        at_setup(start, "RU"), "RU", setup.AddGarrison("moscow", Factors(cavalry=1)), ctx)


def test_thirty_counters_fill_a_section_whichever_phase_places_the_next(start, ctx):
    # 10.4.2 (000:1404): 30 counters of any type in the rural section of an area.
    full = at_setup(start, "RU")
    for n in range(30):
        full = full.with_unit(Depot(id=f"depot:RU:x{n}", power="RU", location=Location(LocationKind.AREA, "moscow")))
    sentence = "moscow already holds 30 counters outside its city; 30 is the limit (10.4.2, 000:1404)"
    assert refusal(full, "RU", setup.SetupPlaceCorps("corps:RU:I", "moscow"), ctx) == sentence
    assert refusal(full, "RU", setup.PlaceDepot("depot:RU:1", "moscow"), ctx) == sentence
    r = at_reinforcement(full.without_unit("depot:RU:x29"), "RU").with_unit(full.units["corps:RU:II"].replace(
        location=Location(LocationKind.AREA, "moscow"), factors=Factors(infantry=2)))  # 29 depots and a corps
    r = due(r.with_unit(r.units["corps:RU:I"].replace(placeable_until=Date(1805, 6))), "RU", "infantry", 1)
    assert refusal(r, "RU", army.PlaceCorps(corps="corps:RU:I", with_corps="corps:RU:II", infantry=1), ctx) == sentence


def test_a_leader_goes_with_the_same_units_in_both_phases(start, ctx):
    s = at_setup(start, "GB")
    s = engine.apply_action(s, "GB", setup.SetupPlaceCorps("corps:GB:I", "london"), ctx).state
    in_setup = refusal(s, "GB", setup.SetupAssignLeader("leader:GB:nelson", "corps:GB:I"), ctx)
    r = at_reinforcement(s, "GB")
    in_reinforcement = refusal(r, "GB", leaders.AssignLeader(leader="leader:GB:nelson", unit="corps:GB:I"), ctx)
    assert in_setup == in_reinforcement == ("leader:GB:nelson is an admiral and goes only with a fleet on the map "
                                            "(13.8, 000:2632); 'corps:GB:I' is not one")
    assert placement.is_naval_leader(ctx, start.leaders["leader:GB:nelson"])
    assert not placement.is_naval_leader(ctx, start.leaders["leader:FR:davout"])


def test_place_puts_the_counter_with_what_it_holds(start, ctx):
    here = Location(LocationKind.PORT, "brest")
    fleet = start.units["fleet:FR:1"].replace(placeable_until=Date(1805, 6))
    s = placement.place(start.with_unit(fleet), fleet, here, ships=Ships(heavy=2))
    assert s.units["fleet:FR:1"].location == here and s.units["fleet:FR:1"].ships == Ships(heavy=2)
    assert s.units["fleet:FR:1"].placeable_until is None


def test_setup_and_reinforcement_place_through_the_one_module():
    """Neither phase writes its own placement: both import ``rules.placement`` and no second leader test exists."""
    for path in [RULES / "setup.py", *sorted((RULES / "reinforcement").glob("*.py"))]:
        tree = ast.parse(path.read_text())
        defined = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
        assert not defined & {"is_naval", "is_naval_leader", "_own_unit", "_garrison_at", "_check_capacity"}, path
    users = [p.name for p in [RULES / "setup.py", *(RULES / "reinforcement").glob("*.py")]
             if "from eiapbem.rules.placement import" in p.read_text()]
    assert sorted(users) == ["army.py", "leaders.py", "minors.py", "naval.py", "setup.py"]
