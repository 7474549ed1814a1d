"""A player's routine between battles (issue 28): a lost corps is rebuilt, and an army at peace goes to the border of
the likely next war and stays there.

- Great Britain, its second corps destroyed (back in the counter pool, 7.2.4), fills the corps it has, then buys the
  counter again in the economic phase (12.5.4, 000:2238) and places it with the factors due in its reinforcement slot
  (7.2.1);
- Austria at peace, its plan naming France as the power that could attack it (``WarPlan.threat``), marches its corps
  from Vienna toward the French border in a few months, keeps one in its capital, and then stays (``ai.deploy``);
- a power whose likely enemy has no city near its borders stages nothing.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from battlekit import corps, ctx, land_state
from eiapbem import ai
from eiapbem.ai import assess, deploy, strategy
from eiapbem.ai.levels import level
from eiapbem.rules import control
from eiapbem.rules.economy.phase import BuyArmy, BuyCounter, BuyShips
from eiapbem.rules.land.movement import MoveUnit
from eiapbem.rules.model import (POOL, POWERS, Corps, CorpsType, Date, Factors, Fleet, Garrison, Location, LocationKind,
                                 Phase, PlayerKind, Ships, Slot)
from eiapbem.rules.model.slot import ORDERS
from eiapbem.rules.reinforcement.army import AddToGarrison, PlaceCorps


def _britain_lost_a_corps(phase: Phase, kind: PlayerKind = PlayerKind.AI_HARD, **pool):
    s = land_state().with_war("GB", "FR", Date(1805, 3), ("GB",))
    s = corps(s, "corps:GB:I", "london", infantry=8)  # three quarters of the 10 its counter takes (``_too_few``)
    s = s.with_unit(Corps(id="corps:GB:II", nation="GB", corps_type=CorpsType.REGULAR, location=POOL, factors=Factors(),
                          **pool))
    if phase is Phase.ECONOMIC:
        s = s.replace(slot=Slot(Phase.ECONOMIC, ORDERS, None, POWERS))
    else:
        s = s.replace(slot=Slot(phase, "turn", "GB", ("GB",)))
    return s.with_power("GB", controller=kind, treasury=200, manpower=30)


def test_britain_fills_its_one_corps_before_it_buys_a_destroyed_corps_again_and_men_before_ships():
    s = _britain_lost_a_corps(Phase.ECONOMIC)
    s = s.with_unit(Fleet(id="fleet:GB:1", nation="GB", location=Location(LocationKind.PORT, "london"), ships=Ships(10, 0, 0)))
    # its one corps holding 5 of the 10 infantry its counter takes, the quarter's men fill it: no second counter
    # shares them out, and none go to ships
    half = corps(s, "corps:GB:I", "london", infantry=5)
    orders = ai.orders(half, "GB", ctx(b"rebuild"))
    assert not any(isinstance(o, (BuyCounter, BuyShips)) for o in orders), orders
    assert any(isinstance(o, BuyArmy) for o in orders), orders
    # filled to three quarters, it buys the lost corps' counter again
    orders = ai.orders(s, "GB", ctx(b"rebuild"))
    assert BuyCounter(unit="corps:GB:II") in orders, orders
    # its few men a quarter go to the factors that fill the corps, not to ships
    assert not any(isinstance(o, BuyShips) for o in orders) and any(isinstance(o, BuyArmy) for o in orders), orders
    s = corps(s, "corps:GB:III", "bristol", infantry=2)
    s = corps(s, "corps:GB:IV", "portsmouth", infantry=2)
    # with its corps, and its ships no more than twice France's, ships again
    s = s.with_unit(Fleet(id="fleet:FR:1", nation="FR", location=Location(LocationKind.PORT, "brest"), ships=Ships(6, 0, 0)))
    assert any(isinstance(o, BuyShips) for o in ai.orders(s, "GB", ctx(b"rebuild")))


def test_ruling_the_sea_britain_puts_its_men_in_the_army_not_in_more_ships():
    s = _britain_lost_a_corps(Phase.ECONOMIC)
    s = s.with_unit(Fleet(id="fleet:GB:1", nation="GB", location=Location(LocationKind.PORT, "london"), ships=Ships(10, 0, 0)))
    for n, area in (("III", "bristol"), ("IV", "portsmouth")):
        s = corps(s, f"corps:GB:{n}", area, infantry=2)
    s = s.with_unit(Fleet(id="fleet:FR:1", nation="FR", location=Location(LocationKind.PORT, "brest"), ships=Ships(4, 0, 0)))
    orders = ai.orders(s, "GB", ctx(b"rebuild"))
    assert not any(isinstance(o, BuyShips) for o in orders), orders  # 10 warships against 4: the sea is its own
    assert sum(o.count for o in orders if isinstance(o, BuyArmy) and o.item == "infantry") >= 3, orders


def test_the_counter_bought_again_is_one_the_infantry_bought_fits():
    """Spain's cavalry and guard counters come first in its pool by name; bought, they would leave the infantry bought
    with nowhere to go (7.2.1): the regular counter that holds the most infantry is bought."""
    s = land_state().with_war("SP", "FR", Date(1805, 3), ("SP",))
    s = corps(s, "corps:SP:II", "madrid", infantry=10)
    for cid in ("corps:SP:Cav-I", "corps:SP:Guard", "corps:SP:I"):
        s = s.with_unit(Corps(id=cid, nation="SP", corps_type=CorpsType.REGULAR, location=POOL, factors=Factors()))
    s = s.replace(slot=Slot(Phase.ECONOMIC, ORDERS, None, POWERS))
    s = s.with_power("SP", controller=PlayerKind.AI_HARD, treasury=100, manpower=20)
    bought = [o.unit for o in ai.orders(s, "SP", ctx(b"rebuild")) if isinstance(o, BuyCounter)]
    assert bought == ["corps:SP:I"], bought


def test_at_peace_a_guard_beside_one_line_corps_is_no_second_corps_a_line_counter_is_bought():
    """Spain after a lost war, at peace with money and men: its guard (a counter that takes no militia nor more than a
    few line infantry, 7.2.1) and one line corps on the map are one corps to hold the factors it buys; it buys a line
    counter again (12.5.4), as it does with the guard gone too."""
    s = land_state().without_war("FR", "AU")
    s = corps(s, "corps:SP:II", "barcelona", infantry=12)
    s = corps(s, "corps:SP:Guard", "barcelona", guard=1)
    for cid in ("corps:SP:Cav-I", "corps:SP:I"):
        s = s.with_unit(Corps(id=cid, nation="SP", corps_type=CorpsType.REGULAR, location=POOL, factors=Factors()))
    s = s.replace(slot=Slot(Phase.ECONOMIC, ORDERS, None, POWERS))
    s = s.with_power("SP", controller=PlayerKind.AI_HARD, treasury=100, manpower=8)
    assert not s.powers["SP"].wars
    bought = [o.unit for o in ai.orders(s, "SP", ctx(b"rebuild")) if isinstance(o, BuyCounter)]
    assert bought == ["corps:SP:I"], bought
    # two line corps on the map: nothing is bought
    s = corps(s, "corps:SP:III", "zaragoza", infantry=6)
    assert not any(isinstance(o, BuyCounter) for o in ai.orders(s, "SP", ctx(b"rebuild")))


def test_a_corps_left_abroad_half_empty_does_not_keep_britain_from_raising_another():
    """Britain's one line corps, two factors left of an expedition in Odessa, gets none of the factors due (7.2.2: home
    nation or a depot chain): the lost counter is bought again for the men at home, as with no corps at all."""
    s = corps(_britain_lost_a_corps(Phase.ECONOMIC), "corps:GB:I", "odessa", infantry=2)
    assert BuyCounter(unit="corps:GB:II") in ai.orders(s, "GB", ctx(b"rebuild"))
    # the same corps at home is filled first (``test_britain_fills_its_one_corps_...``)
    s = corps(s, "corps:GB:I", "london", infantry=2)
    assert not any(isinstance(o, BuyCounter) for o in ai.orders(s, "GB", ctx(b"rebuild")))


def test_britain_places_the_rebuilt_corps_with_the_factors_due():
    s = _britain_lost_a_corps(Phase.REINFORCEMENT, placeable_until=Date(1805, 11))
    s = s.with_power("GB", returned_factors=Factors(infantry=7, cavalry=1))
    turn = ai.play_slot(s, "GB", ctx(b"rebuild"))
    assert any(isinstance(a, PlaceCorps) and a.corps == "corps:GB:II" for a in turn.actions), turn.actions
    back = turn.state.units["corps:GB:II"]
    assert back.location.kind is LocationKind.CITY and back.factors.total >= 3, back


@pytest.mark.parametrize("kind", [PlayerKind.AI_EASY, PlayerKind.AI_MEDIUM, PlayerKind.AI_HARD])
def test_every_level_buys_a_lost_corps_again_and_places_it(kind):
    # issue 28 item 3: the levels differ in how well they play, not in how passive they are: an easy Britain that
    # lost its corps bought none again, and its few men a quarter (its share of them) bought no factor; it never
    # moved a corps again (12.5.4, 12.5.6)
    s = _britain_lost_a_corps(Phase.ECONOMIC, kind).with_power("GB", manpower=6)
    orders = ai.orders(s, "GB", ctx(b"rebuild"))
    assert BuyCounter(unit="corps:GB:II") in orders, orders
    assert sum(o.count for o in orders if isinstance(o, BuyArmy)) >= 1, orders  # the men left are not lost
    s = _britain_lost_a_corps(Phase.REINFORCEMENT, kind, placeable_until=Date(1805, 11))
    turn = ai.play_slot(s.with_power("GB", returned_factors=Factors(militia=8)), "GB", ctx(b"rebuild"))
    assert turn.state.units["corps:GB:II"].location.kind is LocationKind.CITY, turn.actions


def test_with_enough_corps_and_none_lost_no_counter_is_bought():
    s = _britain_lost_a_corps(Phase.ECONOMIC)
    for n, area in (("III", "bristol"), ("IV", "portsmouth")):
        s = corps(s, f"corps:GB:{n}", area, infantry=2)  # three corps on the map, far from full
    assert not any(isinstance(o, BuyCounter) for o in ai.orders(s, "GB", ctx(b"rebuild")))


IDS = ("I", "II", "III", "IV", "V")


def _austria_at_peace(areas):
    s = land_state().without_war("FR", "AU")
    s = s.replace(slot=Slot(phase=Phase.LAND, step="turn", power="AU", actors=("AU",)))
    s = s.with_power("AU", controller=PlayerKind.AI_HARD, treasury=40)
    for n, a in zip(IDS, areas):
        s = corps(s, f"corps:AU:{n}", a, infantry=8)
    return s


def _to_france(s, area: str) -> int:
    m, c = ctx().map, ctx()
    near = assess.distances_from(c, area)
    return min(near[a] for a in m.cities() if control.city_power(s, m, a) == "FR" and a in near)


def test_at_peace_the_army_marches_to_the_likely_enemys_border_and_then_stays():
    s = _austria_at_peace(("vienna",) * 5)
    assert strategy.war_plan(s, "AU", level("ai-hard"), ctx()).threat == "FR"
    ends = ("vienna",) * 5
    moved = []
    for _month in range(6):
        turn = ai.play_slot(_austria_at_peace(ends), "AU", ctx(b"stage"))
        moved.append(sum(isinstance(a, MoveUnit) for a in turn.actions))
        ends = tuple(turn.state.units[f"corps:AU:{n}"].location.site for n in IDS)
    start = _to_france(s, "vienna")
    # one corps stays by the capital; the four others end nearer the French-held cities, where a camp is supplied
    # (foraging there never costs a factor, 10.5.1, with no depot money) ...
    assert ends.count("vienna") == 1, ends
    assert all(_to_france(s, a) < start and deploy.fed_by_forage(_B(s, "AU"), a) for a in ends if a != "vienna"), ends
    # ... camped two to an area (10.5.1), and once there nothing moves (no marching back and forth)
    assert max(ends.count(a) for a in set(ends)) <= deploy.PER_CAMP, ends
    assert moved[0] >= 3 and moved[-2:] == [0, 0], moved


def test_no_border_near_the_likely_enemy_stages_nothing():
    s = _austria_at_peace(("vienna",) * 2)
    assert deploy.camps(_B(s, "SP"), "RU", 3) == ()  # no Russian city within a month's march of Spain


def test_in_winter_the_army_stays_in_quarters():
    s = _austria_at_peace(("vienna",) * 5)
    s = s.replace(date=Date(1806, 1))
    turn = ai.play_slot(s, "AU", ctx(b"stage"))
    assert not any(isinstance(a, MoveUnit) and a.unit in {f"corps:AU:{n}" for n in IDS} for a in turn.actions
                   if turn.state.units[a.unit].location.site not in ctx().map.land_neighbours("vienna")), turn.actions


class _B:
    def __init__(self, state, power):
        self.state, self.ctx, self.power = state, ctx(), power


def test_britain_puts_its_few_men_in_its_corps_not_in_londons_garrison_while_no_enemy_stands_on_its_island():
    """The hard level keeps a standing garrison of 4 in its capital first; London, on an island no land route joins to
    another great power, is guarded by the fleets: Britain's factors due go to its corps.  With a French corps landed
    in England they go to London's garrison first."""
    s = _britain_lost_a_corps(Phase.REINFORCEMENT).with_power("GB", returned_factors=Factors(infantry=2))
    s = corps(s, "corps:GB:I", "london", infantry=3)
    turn = ai.play_slot(s, "GB", ctx(b"rebuild"))
    assert turn.state.units["corps:GB:I"].factors.total == 5, turn.actions
    assert not any(isinstance(a, AddToGarrison) for a in turn.actions), turn.actions
    landed = corps(s, "corps:FR:I", "portsmouth", infantry=6)
    first = ai.play_slot(landed, "GB", ctx(b"rebuild")).actions[0]
    assert isinstance(first, AddToGarrison) and first.area == "london", first


def _inside(s, cid: str, area: str):
    u = s.units[cid]
    return s.with_unit(replace(u, location=Location(LocationKind.CITY, area)))


def test_at_peace_a_corps_inside_a_garrisoned_city_joins_the_camps_one_in_an_empty_city_holds_it():
    # after a lost war the corps rebuilt in the capital's city (Lemberg stands for any other city): with the city's
    # garrison proper inside, the corps marches out to the border the next war comes from
    s = _austria_at_peace(("vienna", "vienna", "lemberg"))
    s = _inside(_inside(s, f"corps:AU:{IDS[1]}", "vienna"), f"corps:AU:{IDS[2]}", "lemberg")
    held = s.with_unit(Garrison(id="garrison:AU:city:vienna", nation="AU", location=Location(LocationKind.CITY, "vienna"),
                                factors=Factors(infantry=4)))
    turn = ai.play_slot(held, "AU", ctx(b"stage"))
    out = turn.state.units[f"corps:AU:{IDS[1]}"].location
    assert out.kind is LocationKind.AREA and _to_france(s, out.site) < _to_france(s, "vienna")
    # with no garrison of its own inside, a corps in a city is the city's garrison and stays
    assert turn.state.units[f"corps:AU:{IDS[2]}"].location == Location(LocationKind.CITY, "lemberg")
    turn = ai.play_slot(s, "AU", ctx(b"stage"))
    assert turn.state.units[f"corps:AU:{IDS[1]}"].location == Location(LocationKind.CITY, "vienna")


# ----------------------------------------------------------------- leaders (7.4)


def _leaders_scene(**placed):
    """France's reinforcement slot at war with Austria: corps I (15) at Reims, II (8) and III (1) at Nancy, IV (1)
    alone at Metz; ``placed``: leader -> corps (on the map) or None (ready to come on)."""
    from eiapbem.rules.model import Leader, LeaderStatus

    s = land_state()
    for cid, area, n in (("corps:FR:I", "reims", 15), ("corps:FR:II", "nancy", 8), ("corps:FR:III", "nancy", 1),
                         ("corps:FR:IV", "metz", 1)):
        s = corps(s, cid, area, infantry=n)
    for lid, unit in placed.items():
        status = LeaderStatus.AVAILABLE if unit is None else LeaderStatus.ON_MAP
        s = s.with_leader(Leader(id=f"leader:FR:{lid}", power="FR", status=status, attached_to=unit))
    s = s.replace(slot=Slot(Phase.REINFORCEMENT, "turn", "FR", ("FR",)))
    return s.with_power("FR", controller=PlayerKind.AI_HARD)


def test_leaders_ready_to_come_on_join_the_largest_corps_the_best_first():
    turn = ai.play_slot(_leaders_scene(napoleon=None, davout=None), "FR", ctx(b"leaders"))
    where = {lid: ld.attached_to for lid, ld in turn.state.leaders.items() if ld.power == "FR"}
    assert where == {"leader:FR:napoleon": "corps:FR:I", "leader:FR:davout": "corps:FR:II"}


def test_a_leader_leaves_a_spent_corps_for_a_larger_one_in_his_area_or_the_map_when_alone():
    from eiapbem.rules.model import LeaderStatus

    turn = ai.play_slot(_leaders_scene(murat="corps:FR:III", bessieres="corps:FR:IV"), "FR", ctx(b"leaders"))
    murat, bessieres = turn.state.leaders["leader:FR:murat"], turn.state.leaders["leader:FR:bessieres"]
    assert murat.attached_to == "corps:FR:II"  # 7.4: a leader on the map moves to a corps in his own area
    assert bessieres.status is not LeaderStatus.ON_MAP  # alone with 1 factor beside the war: off the map, not captured
