"""The first state of a game from each 1805 scenario (5.3.1, 5.3.2)."""


from eiapbem.data import world
from eiapbem.rules.model import GameState, LeaderStatus, MinorStatus, Options, Phase
from eiapbem.rules.scenario import initial_state


def test_classic_forces_go_to_the_unplaced_pools(raw):
    s = initial_state(world.load_scenario("classic-1805"), raw)
    fr = s.powers["FR"]
    assert (fr.unplaced_factors.infantry, fr.unplaced_factors.guard, fr.unplaced_factors.cavalry) == (135, 5, 17)  # 000:350
    assert (fr.unplaced_ships.heavy, fr.treasury) == (49, 45)
    assert s.powers["RU"].unplaced_factors.cossack == 2  # 000:340
    assert s.powers["PR"].manpower == 9  # 000:346
    assert sum(1 for u in s.units if u.startswith("depot:SP:")) == 6  # 000:348
    assert s.slot.phase == Phase.SETUP and s.slot.power == "RU"  # 5.3, 000:332


def test_leaders_follow_the_scenario_lists(raw):
    s = initial_state(world.load_scenario("classic-1805"), raw)
    assert s.leaders["leader:FR:napoleon"].status is LeaderStatus.AVAILABLE
    assert s.leaders["leader:FR:eugene"].status is LeaderStatus.UNAVAILABLE  # 000:350
    assert s.leaders["leader:GB:nelson"].status is LeaderStatus.AVAILABLE
    assert s.leaders["leader:GB:wellington"].status is LeaderStatus.UNAVAILABLE  # 000:352: Nelson only


def test_minors_and_free_states(raw):
    s = initial_state(world.load_scenario("classic-1805"), raw)
    assert s.minors["holland"].status is MinorStatus.FREE_STATE and s.minors["holland"].setup_due
    assert s.minors["norway"].part_of == "denmark" and "norway" in s.minors["denmark"].districts
    assert s.minors["swedish-pomerania"].status is MinorStatus.NEUTRAL  # classic: its own neutral (000:411)
    alt = initial_state(world.load_scenario("alternate-1805"), raw)
    assert alt.minors["swedish-pomerania"].part_of == "sweden"  # alternate: Swedish district (000:511)


def test_feudal_and_insurrection_corps_start_full_off_the_map(raw):
    s = initial_state(world.load_scenario("classic-1805"), raw)
    ins = s.units["corps:AU:Insurrection-I"]
    assert (ins.factors.militia, ins.factors.cavalry) == (15, 3)  # 13.2.4, 000:2494
    assert s.units["corps:TU:Feudal-albania"].factors.feudal_infantry > 0  # 13.2.3
    assert s.units["corps:FR:I"].factors.total == 0


def test_wars_from_the_option_and_from_gap_are_mutual(raw):
    s = initial_state(world.load_scenario("classic-1805"), raw, options=Options(gb_and_fr_start_at_war=True), wars=[("RU", "TU")])
    assert "GB" in s.powers["FR"].wars and "FR" in s.powers["GB"].wars
    assert s.powers["TU"].wars["RU"].declared_by == ("RU",)


def test_initial_state_round_trips(raw):
    s = initial_state(world.load_scenario("alternate-1805"), raw)
    assert GameState.decode(s.encode()) == s
