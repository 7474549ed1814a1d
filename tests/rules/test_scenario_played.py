"""Edited units are played (14.3 "Units", 000:2794): maxima, movement points and leader ratings made with
``eiapbem scenario unit`` change what the rules allow in a game started from the file (``rules.world_edits``)."""

import pytest
from battlekit import ctx

from eiapbem.core.errors import IllegalAction
from eiapbem.data import scenario_file, world
from eiapbem.rules import engine
from eiapbem.rules.combat.battle import leader_data
from eiapbem.rules.land.movement import MoveUnit
from eiapbem.rules.model import Corps, CorpsType, Date, Factors, Location, LocationKind, Phase, Slot
from eiapbem.rules.scenario import initial_state
from eiapbem.rules.setup import SetupAddFactors, SetupPlaceCorps
from eiapbem.rules.world_edits import for_state

C = ctx()


@pytest.fixture(scope="module")
def games(tmp_path_factory):
    """The same game started from the shipped classic-1805 and from a copy edited by commands only."""
    import os
    import subprocess
    import sys

    d = tmp_path_factory.mktemp("edited")
    path = d / "edited.json"

    def cli(*args):
        p = subprocess.run([sys.executable, "-m", "eiapbem", "--home", str(d), "scenario", *args], capture_output=True,
                           text=True, cwd=str(d), env=dict(os.environ))
        assert p.returncode == 0, p.stderr
        return p.stdout

    cli("new", str(path), "--from", "classic-1805")
    cli("unit", str(path), "corps:FR:I", "--owner", "FR", "--type", "infantry", "--max", "infantry=25", "--movement", "6")
    cli("unit", str(path), "napoleon", "--owner", "FR", "--type", "leader", "--rating", "tactical=2",
        "--rating", "tactical_max=3", "--rating", "strategic=1")
    cli("relation", str(path), "FR", "AU", "--stance", "9")
    cli("unit", str(path), "corps:TU:Feudal-albania", "--owner", "TU", "--type", "infantry", "--attribute", "feudal",
        "--home", "bosnia")
    # 14.3 "Creating and Deleting Units": a corps in the pool, one on the map, a fleet and a leader of France's own
    cli("unit", str(path), "corps:FR:XX", "--create", "infantry", "--owner", "FR", "--max", "infantry=12", "--max", "cavalry=2")
    cli("unit", str(path), "corps:FR:XXI", "--create", "infantry", "--owner", "FR", "--max", "infantry=8",
        "--factor", "infantry=6", "--place", "map", "--area", "paris")
    cli("unit", str(path), "fleet:FR:9", "--create", "heavy", "--owner", "FR", "--max", "heavy=7")
    cli("unit", str(path), "dubois", "--create", "leader", "--owner", "FR", "--rating", "strategic=3", "--rating", "tactical=2")
    assert "valid" in cli("check", str(path))
    edited = initial_state(scenario_file.resolve(str(path)), world.load_raw())
    shipped = initial_state(world.load_scenario("classic-1805"), world.load_raw())
    return shipped, edited


def _why(state, power, action):
    try:
        engine.verify_action(state, power, action, C)
    except IllegalAction as err:
        return str(err)
    return ""


def test_the_edits_are_in_the_first_state_and_only_there(games):
    shipped, edited = games
    assert shipped.world_edits == b"" and edited.world_edits != b""
    back = type(edited).decode(edited.encode())  # saved, sent and replayed with the state; hashed with it
    assert back.world_edits == edited.world_edits and back.state_hash() == edited.state_hash()
    assert edited.replace(world_edits=b"").state_hash() != edited.state_hash()


def test_an_edited_maximum_lets_a_corps_hold_more_factors(games):
    for state, ok in zip(games, (False, True)):
        s = state.replace(slot=Slot(phase=Phase.SETUP, step="turn", power="FR", actors=("FR",)))
        s = engine.apply_action(s, "FR", SetupPlaceCorps(corps="corps:FR:I", area="paris"), C).state
        why = _why(s, "FR", SetupAddFactors(corps="corps:FR:I", factors=Factors(infantry=20)))
        assert (why == "") is ok, why  # the counter mix holds 15 infantry in corps:FR:I; the edit 25


def test_edited_movement_points_carry_a_corps_further(games):
    for state, ok in zip(games, (False, True)):
        s = state.replace(date=Date(1805, 9), slot=Slot(phase=Phase.LAND, step="turn", power="FR", actors=("FR",)))
        s = s.with_unit(Corps(id="corps:FR:I", nation="FR", corps_type=CorpsType.REGULAR,
                              location=Location(LocationKind.AREA, "paris"), factors=Factors(infantry=10)))
        # 6 areas of clear terrain from Paris: more than a French corps' 4 points (10.4.1), within the edited 6.
        path = "reims,metz,nancy,strasbourg"
        assert _why(s, "FR", MoveUnit(unit="corps:FR:I", path=path)) == ""
        far = _why(s, "FR", MoveUnit(unit="corps:FR:I", path=path + ",karlsruhe"))
        assert (far == "") is ok, far


def test_edited_ratings_are_the_ones_combat_reads(games):
    shipped, edited = games
    assert leader_data(for_state(shipped, C).world, "leader:FR:napoleon")["tactical"] == 5
    nap = leader_data(for_state(edited, C).world, "leader:FR:napoleon")
    assert (nap["tactical"], nap["tactical_max"], nap["strategic"]) == (2, 3, 1)
    assert leader_data(C.world, "leader:FR:napoleon")["tactical"] == 5  # the shared world data is untouched


def test_an_edited_natural_alliance_stance_is_the_one_the_alliance_roll_uses(games):
    from eiapbem.core.dice import Dice
    from eiapbem.rules.diplomacy.alliances import ai_alliance
    from eiapbem.rules.tables.diplomacy import NATURAL_ALLIANCE

    shipped, edited = games
    rolls = {}
    for name, state in (("shipped", shipped), ("edited", edited)):
        w = for_state(state, C).world
        rolls[name] = ai_alliance("FR", "AU", "neutral", Dice(b"same dice"), world=w)
    # the same dice: only the modifier differs, the chart's FR->AU cell against the edited stance of 9 (6.5, 14.3 item 10)
    assert rolls["edited"].attempt_total - rolls["shipped"].attempt_total == 9 - NATURAL_ALLIANCE["FR"]["AU"]
    assert rolls["edited"].accept_roll == rolls["shipped"].accept_roll


def test_an_edited_home_province_is_where_a_feudal_corps_comes_back(games):
    from eiapbem.rules.land.feudal import ReturnFeudal

    for state, ok in zip(games, (False, True)):
        s = state.replace(date=Date(1805, 9), slot=Slot(phase=Phase.LAND, step="turn", power="TU", actors=("TU",)))
        u = s.units["corps:TU:Feudal-albania"]
        s = s.with_unit(u.replace(factors=Factors(feudal_infantry=4)))
        home = _why(s, "TU", ReturnFeudal(unit="corps:TU:Feudal-albania", area="janina"))  # Albania (the counter mix)
        moved = _why(s, "TU", ReturnFeudal(unit="corps:TU:Feudal-albania", area="sarajevo"))  # Bosnia (the edit)
        assert (home == "") is not ok and (moved == "") is ok, (home, moved)


def test_units_created_in_the_editor_are_counters_of_their_power(games):
    """A created corps, fleet and leader are in the game with an entry of their own (14.3, 000:2794)."""
    from eiapbem.rules import forces
    from eiapbem.rules.model import POOL, Fleet, LeaderStatus

    shipped, edited = games
    assert "corps:FR:XX" not in shipped.units and "leader:FR:dubois" not in shipped.leaders
    world = for_state(edited, C).world
    assert edited.units["corps:FR:XX"].location == POOL and isinstance(edited.units["fleet:FR:9"], Fleet)
    assert forces.counter_max(world, "corps:FR:XX") == {"cavalry": 2, "infantry": 12}
    assert forces.fleet_capacity(for_state(edited, C), edited.units["fleet:FR:9"]).heavy == 7
    assert edited.leaders["leader:FR:dubois"].status is LeaderStatus.AVAILABLE
    dubois = leader_data(world, "leader:FR:dubois")
    assert (dubois["strategic"], dubois["tactical"], dubois["tactical_max"]) == (3, 2, 2)
    assert forces.counter_max(C.world, "corps:FR:XX") == {}  # the shared world data is untouched


def test_a_created_corps_is_placed_filled_within_its_maximum_and_moved(games):
    _, edited = games
    s = edited.replace(slot=Slot(phase=Phase.SETUP, step="turn", power="FR", actors=("FR",)))
    s = engine.apply_action(s, "FR", SetupPlaceCorps(corps="corps:FR:XX", area="paris"), C).state
    assert "cannot hold" in _why(s, "FR", SetupAddFactors(corps="corps:FR:XX", factors=Factors(infantry=13)))
    s = engine.apply_action(s, "FR", SetupAddFactors(corps="corps:FR:XX", factors=Factors(infantry=12)), C).state
    assert s.units["corps:FR:XX"].factors == Factors(infantry=12)
    land = edited.replace(date=Date(1805, 9), slot=Slot(phase=Phase.LAND, step="turn", power="FR", actors=("FR",)))
    assert land.units["corps:FR:XXI"].location == Location(LocationKind.AREA, "paris")
    assert land.units["corps:FR:XXI"].factors == Factors(infantry=6)
    moved = engine.apply_action(land, "FR", MoveUnit(unit="corps:FR:XXI", path="reims"), C).state
    assert moved.units["corps:FR:XXI"].location == Location(LocationKind.AREA, "reims")
