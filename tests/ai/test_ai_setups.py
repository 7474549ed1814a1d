"""The computer loads one of a scenario's AI setups ``AI<Xx><scenario>_<#>.set`` (14.5, 000:2822-2828)."""

import json

import pytest

from eiapbem import ai
from eiapbem.ai.setup import LABEL, Alternatives, choose
from eiapbem.client.autoplay import ai_setups, default_actions
from eiapbem.core.dice import Dice
from eiapbem.core.errors import BadData
from eiapbem.data import world
from eiapbem.data.context import rules_context
from eiapbem.rules import engine
from eiapbem.rules.model import POWERS, Options, Phase, PlayerKind
from eiapbem.rules.scenario import initial_state


def _ctx(label):
    return rules_context(Dice(b"ai-setups/" + label.encode()))


@pytest.fixture(scope="module")
def at_france():
    """All-computer setup up to France's setup slot (5.3 order: France sets up last)."""
    state = initial_state(world.load_scenario("classic-1805"), world.load_raw(), options=Options(),
                          players={p: PlayerKind.AI_MEDIUM for p in POWERS})
    while state.slot.power != "FR":
        assert state.slot.phase is Phase.SETUP
        state = ai.play_slot(state, state.slot.power, _ctx(state.slot.power),
                             setup=default_actions("classic-1805", state.slot.power)).state
    return state


def test_the_shipped_ai_setups_are_found_by_their_14_5_names():
    alts = ai_setups("classic-1805", "FR")
    assert alts.names == ("AIFrclassic-1805_0.set", "AIFrclassic-1805_1.set")
    # an edited scenario made from classic-1805 uses them too; a power without any gets None (default setup)
    assert ai_setups("my-1812", "FR", based_on="classic-1805").names == alts.names
    assert ai_setups("classic-1805", "AU") is None
    assert ai_setups("classic-1805", "SP").names == ("AISpclassic-1805_0.set", "AISpclassic-1805_1.set")


def test_numbering_starts_at_zero_and_stops_at_the_first_gap(tmp_path):
    d = tmp_path / "demo"
    d.mkdir()
    acts = {"actions": [engine.action_to_obj(a) for a in default_actions("classic-1805", "RU")[:2]]}
    for n in (0, 1, 3):
        (d / f"AIRudemo_{n}.set").write_text(json.dumps(acts))
    assert ai_setups("demo", "RU", root=tmp_path).names == ("AIRudemo_0.set", "AIRudemo_1.set")
    (d / "AIRudemo_0.set").write_text("{not json")
    with pytest.raises(BadData, match="AIRudemo_0.set is not JSON"):
        ai_setups("demo", "RU", root=tmp_path)


def test_the_computer_plays_the_setup_its_die_chooses(at_france):
    alts = ai_setups("classic-1805", "FR")
    where = {0: ("corps:FR:Guard", "paris"), 1: ("corps:FR:I", "strasbourg")}  # what each file changes
    chosen = set()
    for seed in range(8):
        c = _ctx(f"fr-{seed}")
        turn = ai.play_slot(at_france, "FR", c, setup=alts)
        pick = c.dice.roll(LABEL, 2) - 1  # the same label gives the same die
        corps, area = where[pick]
        assert turn.state.units[corps].location.site == area
        assert turn.state.slot.power != "FR"  # every factor placed: the slot ended (5.1)
        assert [engine.action_to_obj(a) for a in turn.actions] == [engine.action_to_obj(a) for a in alts.options[pick]]
        chosen.add(pick)
    assert chosen == {0, 1}  # both files are used


def test_a_plain_setup_is_loaded_as_it_is_and_one_file_needs_no_die():
    acts = default_actions("classic-1805", "FR")
    c = _ctx("plain")
    assert choose(acts, c) is acts and choose(Alternatives((tuple(acts),)), c) == tuple(acts)
    assert LABEL not in c.dice.to_obj()


def test_the_computer_sets_up_from_what_it_has_in_an_edited_scenario():
    # 14.5 (000:2820-2828): Madrid given to France in the editor refuses the corps Spain's default setup puts there;
    # the computer places the factors left over in its other corps, new corps or garrisons, and its slot ends
    # (it used to stall until the host skipped it).
    from eiapbem.data import scenario_edit as ed

    raw = world.load_raw()
    sc = ed.set_province(ed.new_from("classic-1805", "madrid-french", "Madrid French"), "madrid", "FR")
    state = initial_state(sc, raw, options=Options(), players={p: PlayerKind.AI_MEDIUM for p in POWERS})
    while state.slot.power != "SP":
        state = ai.play_slot(state, state.slot.power, _ctx(state.slot.power),
                             setup=default_actions("classic-1805", state.slot.power)).state
    ctx = _ctx("SP")
    setup = default_actions("classic-1805", "SP")
    plain = ai.Builder(state, "SP", ctx)
    for a in setup:
        plain.try_(a)
    assert engine.unmet_obligations(plain.state, "SP", ctx)  # the shipped setup alone leaves factors unplaced
    turn = ai.play_slot(state, "SP", ctx, setup=setup)
    assert turn.state.powers["SP"].unplaced_factors.total == 0 and turn.state.powers["SP"].unplaced_ships.total == 0
    assert turn.state.slot.power != "SP"


def _set_up(spain):
    """Classic-1805 after the setup phase, every power at the computer, Spain loading ``spain`` (the others their
    shipped default setups)."""
    state = initial_state(world.load_scenario("classic-1805"), world.load_raw(), options=Options(),
                          players={p: PlayerKind.AI_HARD for p in POWERS})
    while state.slot.phase is Phase.SETUP:
        p = state.slot.power
        state = ai.play_slot(state, p, _ctx(p), setup=spain if p == "SP" else default_actions("classic-1805", p)).state
    return state


def test_spains_computer_setups_meet_france_at_barcelona_and_keep_the_army_of_andalusia_back():
    # France moves first in the land phase (10.1) and declares war on Spain in its first month: the corps at
    # Barcelona draws its southern army into Catalonia in that month (away from the Rhine when Austria, Prussia and
    # Russia declare war in the next), while the II and III corps stand in Andalusia, out of the way of the French
    # army's march from Barcelona on Madrid and Valladolid; the second setup holds Madrid with the IV corps beside
    # the cavalry against France's first month's cavalry
    from eiapbem.rules.model import Corps

    for n, option in enumerate(ai_setups("classic-1805", "SP").options):
        st = _set_up(option)
        assert st.powers["SP"].unplaced_factors.total == 0
        where = {u.id: (u.location.site, u.factors.total) for u in st.units.values()
                 if isinstance(u, Corps) and u.nation == "SP" and u.location.site}
        assert where["corps:SP:I"] == ("barcelona", 12)
        assert where["corps:SP:II"] == ("seville", 12) and where["corps:SP:III"] == ("cadiz", 12)
        assert sum(f for a, f in where.values() if a == "madrid") == (6, 11)[n]
    default = {a["corps"]: a["area"] for a in (engine.action_to_obj(x) for x in default_actions("classic-1805", "SP"))
               if a["kind"] == "setup.place-corps"}
    assert (default["corps:SP:II"], default["corps:SP:III"], default["corps:SP:IV"]) == ("corunna", "oviedo", "pamplona")
