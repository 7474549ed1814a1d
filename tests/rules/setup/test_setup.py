"""The setup phase (5.1-5.3, 000:306-332): placement rules, obligations, shipped default setups."""

import json

import pytest

from eiapbem.data import world
from eiapbem.data.context import rules_context
from eiapbem.core.errors import IllegalAction
from eiapbem.rules import engine, setup
from eiapbem.core.dice import Dice
from eiapbem.rules.model import Factors, LeaderStatus, Phase, Ships
from eiapbem.rules.scenario import initial_state
from eiapbem.rules.sequence import SETUP_ORDER
from paths import PACKAGE

SETUPS = PACKAGE / "data" / "setups"


@pytest.fixture(scope="module")
def ctx():
    return rules_context(Dice(b"setup-tests"))


@pytest.fixture(scope="module")
def classic():
    return initial_state(world.load_scenario("classic-1805"), world.load_raw())


def _at(state, power):
    """The state with ``power``'s setup slot current."""
    from eiapbem.rules.sequence import setup_slots

    return state.replace(slot=next(s for s in setup_slots() if s.power == power))


def test_russia_sets_up_first_and_may_use_its_home_nation(classic, ctx):
    # 5.3 (000:332): Russia first; 5.2 (000:312): home nation areas.
    assert classic.slot.power == "RU"
    out = engine.apply_action(classic, "RU", setup.SetupPlaceCorps("corps:RU:I", "moscow"), ctx)
    assert str(out.state.units["corps:RU:I"].location) == "area:moscow"
    out = engine.apply_action(out.state, "RU", setup.SetupAddFactors("corps:RU:I", Factors(infantry=10)), ctx)
    assert out.state.powers["RU"].unplaced_factors.infantry == 65
    assert out.state.units["corps:RU:I"].factors.infantry == 10


def test_an_area_outside_home_and_controlled_minors_is_refused(classic, ctx):
    with pytest.raises(IllegalAction, match="not in RU's home nation or a minor country RU controls"):
        engine.verify_action(classic, "RU", setup.SetupPlaceCorps("corps:RU:I", "vienna"), ctx)
    # A conquered minor counts (5.3.1 Russia: Corfu conquered, 000:338).
    area = ctx.map.areas_of_nation("corfu")[0]
    engine.verify_action(classic, "RU", setup.SetupPlaceCorps("corps:RU:I", area), ctx)


def test_insurrection_corps_may_not_be_set_up(classic, ctx):
    state = _at(classic, "AU")
    with pytest.raises(IllegalAction, match="insurrection corps may not be set up on the map \\(5.3.1\\)"):
        engine.verify_action(state, "AU", setup.SetupPlaceCorps("corps:AU:Insurrection-I", "vienna"), ctx)


def test_counter_capacity_and_unplaced_factors_are_checked(classic, ctx):
    s = engine.apply_action(classic, "RU", setup.SetupPlaceCorps("corps:RU:I", "moscow"), ctx).state
    with pytest.raises(IllegalAction, match=r"cannot hold 16 infantry more: infantry 16 > 15 \(the corps counter's full strength, 7\.2\.2"):
        engine.verify_action(s, "RU", setup.SetupAddFactors("corps:RU:I", Factors(infantry=16)), ctx)
    with pytest.raises(IllegalAction, match="has only 5 guard factors left to place, not 6"):
        engine.verify_action(s, "RU", setup.SetupAddFactors("corps:RU:I", Factors(guard=6)), ctx)
    with pytest.raises(IllegalAction, match="still in the pool"):
        engine.verify_action(s, "RU", setup.SetupAddFactors("corps:RU:II", Factors(infantry=1)), ctx)


def test_garrison_capacity_is_five_per_supply(classic, ctx):
    supply = ctx.map.areas["moscow"].city.supply
    ok = setup.AddGarrison("moscow", Factors(infantry=5 * supply))
    s = engine.apply_action(classic, "RU", ok, ctx).state
    assert s.units["garrison:RU:city:moscow"].factors.infantry == 5 * supply
    with pytest.raises(IllegalAction, match="holds at most"):
        engine.verify_action(s, "RU", setup.AddGarrison("moscow", Factors(infantry=1)), ctx)


def test_fleets_start_in_or_next_to_a_home_port_or_on_an_enemy_blockade(classic, ctx):
    engine.verify_action(classic, "RU", setup.SetupPlaceFleet("fleet:RU:1", port="sevastopol"), ctx)
    sea = ctx.map.areas["sevastopol"].port.seas[0]
    engine.verify_action(classic, "RU", setup.SetupPlaceFleet("fleet:RU:1", sea=sea), ctx)
    with pytest.raises(IllegalAction, match="not a port of RU's home nation"):
        engine.verify_action(classic, "RU", setup.SetupPlaceFleet("fleet:RU:1", port="brest"), ctx)
    with pytest.raises(IllegalAction, match="at war with"):
        engine.verify_action(classic, "RU", setup.SetupPlaceFleet("fleet:RU:1", blockade="brest"), ctx)
    at_war = classic.with_war("RU", "FR", classic.start, ("RU",))
    engine.verify_action(at_war, "RU", setup.SetupPlaceFleet("fleet:RU:1", blockade="brest"), ctx)


def test_the_slot_ends_only_when_every_factor_and_ship_is_placed(classic, ctx):
    # 5.1 (000:308): all army factors and ships; counters and depots need not be used.
    unmet = engine.unmet_obligations(classic, "RU", ctx)
    assert unmet[0].startswith("place the remaining 75 infantry")
    with pytest.raises(IllegalAction, match="RU cannot end the phase yet: place the remaining"):
        engine.end_slot(classic, "RU", ctx)


def test_remove_counter_gives_the_factors_and_leader_back(classic, ctx):
    s = classic
    for a in (setup.SetupPlaceCorps("corps:RU:I", "moscow"), setup.SetupAddFactors("corps:RU:I", Factors(infantry=3)),
              setup.SetupAssignLeader("leader:RU:bagration", "corps:RU:I")):
        s = engine.apply_action(s, "RU", a, ctx).state
    s = engine.apply_action(s, "RU", setup.RemoveCounter("corps:RU:I"), ctx).state
    assert s.powers["RU"].unplaced_factors.infantry == 75
    assert s.leaders["leader:RU:bagration"].status is LeaderStatus.AVAILABLE


@pytest.mark.parametrize("scenario", ["classic-1805", "alternate-1805"])
def test_every_default_setup_loads_and_ends_the_phase(scenario, ctx):
    # 5.2.2 (000:328): default setups; 5.3 (000:332): the nation order.
    state = initial_state(world.load_scenario(scenario), world.load_raw())
    for power in SETUP_ORDER:
        doc = json.loads((SETUPS / scenario / f"{power}.json").read_text())
        assert doc["power"] == power and doc["scenario"] == scenario
        acts = [engine.action_from_obj(o) for o in doc["actions"]]
        state = engine.apply_actions(state, power, acts, ctx).state
        assert engine.unmet_obligations(state, power, ctx) == ()
        state = engine.end_slot(state, power, ctx).state
    assert state.slot.phase is Phase.DIPLOMACY
    assert all(ps.unplaced_factors.total == 0 and ps.unplaced_ships == Ships() for ps in state.powers.values())
    assert not any(m.setup_due for m in state.minors.values())


def test_admirals_go_with_fleets_and_generals_with_corps(classic, ctx):
    state = _at(classic, "GB")
    for a in (setup.SetupPlaceFleet("fleet:GB:1", port="portsmouth" if "portsmouth" in ctx.map.areas else "bristol"),
              setup.SetupPlaceCorps("corps:GB:I", "london")):
        state = engine.apply_action(state, "GB", a, ctx).state
    with pytest.raises(IllegalAction, match="leader:GB:nelson is an admiral and goes only with a fleet on the map"):
        engine.verify_action(state, "GB", setup.SetupAssignLeader("leader:GB:nelson", "corps:GB:I"), ctx)
    engine.verify_action(state, "GB", setup.SetupAssignLeader("leader:GB:nelson", "fleet:GB:1"), ctx)


def test_turkey_sets_up_syria_and_must_place_its_forces(classic, ctx):
    # 5.3.1 (000:340): Turkey also sets up Syria, a free state, with its corps of 5 infantry and 6 cavalry.
    state = _at(classic, "TU")
    assert any(line.startswith("place syria's remaining 5 infantry, 6 cavalry (5.3.1): 'eiapbem setup")
               for line in engine.unmet_obligations(state, "TU", ctx))
    area = ctx.map.areas_of_nation("syria")[0]
    for a in (setup.SetupPlaceCorps("corps:syria:1", area), setup.SetupAddFactors("corps:syria:1", Factors(infantry=5, cavalry=6))):
        state = engine.apply_action(state, "TU", a, ctx).state
    assert state.minors["syria"].stored_factors.total == 0
    assert not any("syria" in u for u in engine.unmet_obligations(state, "TU", ctx))
    with pytest.raises(IllegalAction, match="corps:syria:1 is syria's; RU places only its own counters and those of its minor free states"):
        engine.verify_action(_at(classic, "RU"), "RU", setup.SetupPlaceCorps("corps:syria:1", area), ctx)


def test_the_info_boxes_show_what_is_placed_and_what_is_left(classic, ctx):
    # 5.2 (000:312) status panel; 5.2.1 (000:316) the counter pool.
    from eiapbem.client import show

    s = classic
    for a in (setup.SetupPlaceCorps("corps:RU:I", "moscow"), setup.SetupAddFactors("corps:RU:I", Factors(infantry=10, cavalry=2)),
              setup.SetupAssignLeader("leader:RU:bagration", "corps:RU:I")):
        s = engine.apply_action(s, "RU", a, ctx).state
    assert show.unit(s, "corps:RU:I") == [
        "corps:RU:I (corps of RU)", "  at area:moscow", "  factors: 10 infantry, 2 cavalry (12)", "  leaders: leader:RU:bagration"]
    pool = show.pool(s, "RU")
    assert "  factors to place: 65 infantry, 8 cavalry, 5 guard, 2 cossack" in pool
    assert "corps:RU:I," not in pool[3] and "leader:RU:bagration" not in pool[-1]
    assert "    corps:RU:I: 10 infantry, 2 cavalry with leader:RU:bagration" in show.area(s, ctx.map, "moscow")
    assert "  still to place: 65 infantry, 8 cavalry, 5 guard, 2 cossack; 49 heavy" in show.power(s, "RU")


def test_the_garrison_hint_names_the_capital_and_a_minors_factors_its_own_capital(classic, ctx):
    # A hint is accepted as written and points where a player looks: the first city by name was Ajaccio for France
    # and Paris for Holland's factors (5.1, 5.3.1).
    lines = engine.unmet_obligations(_at(classic, "FR"), "FR", ctx)
    assert "'eiapbem setup add-garrison --area paris --infantry 1'" in lines[0]
    assert any("'eiapbem setup add-garrison --area amsterdam --nation holland --infantry 5'" in x for x in lines)


def test_the_corps_and_fleet_hints_name_a_kind_still_to_place(classic, ctx):
    # Britain garrisoned London with its 19 infantry: the to-do still said "add-factors --corps ID --infantry N" with
    # only cavalry and guard left to place (5.1); the fleet hint alike names a kind of ship still to place.
    state = _at(classic, "GB").with_power("GB", unplaced_factors=Factors(cavalry=4, guard=1),
                                         unplaced_ships=Ships(light=3))
    lines = engine.unmet_obligations(state, "GB", ctx)
    assert "then 'eiapbem setup add-factors --corps ID --cavalry N'" in lines[0], lines
    assert "then 'eiapbem setup add-ships --fleet ID --light N'" in lines[1], lines
