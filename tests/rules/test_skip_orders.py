"""13.9's phase skip settings given in the simultaneous phases (the manual's phase-skip menu is open at any time,
000:2732-2734): in the diplomacy and economic slots a setting is one of the power's orders, sealed with them, and set
only when the phase resolves, so no power learns another's setting before its own orders are in."""

from __future__ import annotations

import hashlib

import pytest

from eiapbem.client import setups
from eiapbem.core.dice import Dice
from eiapbem.core.errors import IllegalAction
from eiapbem.data import world
from eiapbem.data.context import rules_context
from eiapbem.rules import engine, sequence
from eiapbem.rules.diplomacy import sealing
from eiapbem.rules.model import POWERS, Date, Phase, SkipMode
from eiapbem.rules.model.slot import COMMIT, ORDERS, Slot
from eiapbem.rules.scenario import initial_state
from eiapbem.rules.skips import SetSkip

NONCE = bytes(range(32))


def _ctx(state):
    key = state.slot.key(state.date) if state.slot else "over"
    return rules_context(Dice(hashlib.sha256(b"skip-orders/" + key.encode()).digest()))


@pytest.fixture(scope="module")
def january():
    """Classic-1805 after the setup: the sealed diplomacy phase of January, its commit round."""
    st = initial_state(world.load_scenario("classic-1805"), world.load_raw())
    while st.slot.phase is Phase.SETUP:
        c, p = _ctx(st), st.slot.power
        st = engine.apply_actions(st, p, setups.default_actions("classic-1805", p), c).state
        st = engine.end_slot(st, p, c).state
    assert st.slot.phase is Phase.DIPLOMACY and st.slot.step == COMMIT
    return st


def test_a_setting_among_the_sealed_diplomacy_orders_is_set_when_the_phase_resolves(january):
    orders = {"RU": [SetSkip("naval", "once"), SetSkip("reinforcement", "continuous")], "SP": [SetSkip("diplomacy", "once")]}
    st = january
    # The player's own orders are checked against the common start; his state is not the game's.
    mine = engine.apply_actions(st, "RU", orders["RU"], _ctx(st)).state
    assert not mine.powers["RU"].skips and not st.powers["RU"].skips
    assert engine.given_orders(mine, "RU") == tuple(orders["RU"])  # on the sheet, sealed with the other orders
    commits = {p: [sealing.CommitOrders(sealing.digest(p, sealing.phase_key(st), NONCE, orders.get(p, [])))]
               for p in st.slot.actors}
    st = engine.resolve_slot(st, commits, _ctx(st)).state
    assert st.slot.step == ORDERS and not any(ps.skips for ps in st.powers.values())  # only digests travelled
    reveals = {p: [sealing.RevealOrders(NONCE)] + orders.get(p, []) for p in st.slot.actors}
    st = engine.resolve_slot(st, reveals, _ctx(st)).state
    assert st.powers["RU"].skips == {Phase.NAVAL: SkipMode.ONCE, Phase.REINFORCEMENT: SkipMode.CONTINUOUS}
    # Spain's diplomacy setting counts from next month's phase: not spent by the one it was given in.
    assert st.powers["SP"].skips == {Phase.DIPLOMACY: SkipMode.ONCE}
    assert any(e.kind == "skip.set" and "RU skips the naval phase once" in e.text for e in st.log)
    # This month's slots already follow them: Russia's reinforcement (nothing due) and naval slots are left out.
    left = [(s.phase, s.power) for s in sequence.month_slots(st.date, st)]
    assert (Phase.NAVAL, "RU") not in left and (Phase.REINFORCEMENT, "RU") not in left
    assert (Phase.NAVAL, "GB") in left and (Phase.REINFORCEMENT, "SP") in left
    assert st.slot.phase is Phase.REINFORCEMENT


def test_a_setting_added_after_the_commitment_is_refused_at_the_reveal(january):
    st = january
    commits = {p: [sealing.CommitOrders(sealing.digest(p, sealing.phase_key(st), NONCE, []))] for p in st.slot.actors}
    st = engine.resolve_slot(st, commits, _ctx(st)).state
    with pytest.raises(IllegalAction, match="sealed already"):  # the player's own folder refuses it at once
        engine.apply_action(st, "FR", SetSkip("naval", "once"), _ctx(st))
    assert SetSkip("naval", "once") not in engine.legal_actions(st, "FR", _ctx(st))
    reveals = {p: [sealing.RevealOrders(NONCE)] for p in st.slot.actors}
    reveals["FR"].append(SetSkip("naval", "once"))
    with pytest.raises(IllegalAction, match="do not match its commitment"):
        engine.resolve_slot(st, reveals, _ctx(st))


def test_a_setting_in_the_economic_orders_counts_from_next_month(january):
    st = january.replace(date=Date(1805, 3), slot=Slot(Phase.ECONOMIC, ORDERS, None, POWERS))
    # France sealed April's diplomacy in its land file: its economic orders are open all the same.
    st = st.replace(order_sheet=st.order_sheet.replace(commitments=st.order_sheet.commitments.set("FR", bytes(32))))
    c = _ctx(st)
    with pytest.raises(IllegalAction, match="no skip setting for the naval phase to switch off"):
        engine.check_orders(st, "FR", [SetSkip("naval", "off")], c)
    # Set, then changed in the same orders: the last one given holds.
    engine.check_orders(st, "FR", [SetSkip("naval", "once"), SetSkip("naval", "off")], c)
    given = {p: [] for p in POWERS}
    given["FR"] = [SetSkip("naval", "continuous")]
    given["GB"] = [SetSkip("reinforcement", "once"), SetSkip("reinforcement", "off")]
    after = engine.resolve_slot(st, given, c).state
    assert after.date == Date(1805, 4) and after.powers["FR"].skips == {Phase.NAVAL: SkipMode.CONTINUOUS}
    assert not after.powers["GB"].skips
    assert (Phase.NAVAL, "FR") not in [(s.phase, s.power) for s in sequence.month_slots(after.date, after)]


def test_the_naval_phase_still_cannot_be_set_to_skip_in_the_naval_phase(january):
    st = january.replace(slot=Slot(Phase.NAVAL, "turn", "GB", ("GB",)))
    with pytest.raises(IllegalAction, match="while in the naval phase"):
        engine.apply_action(st, "GB", SetSkip("naval", "once"), _ctx(st))


def test_a_war_the_game_starts_with_cancels_no_skip_setting_of_its_target():
    # 13.9.1 (000:2738): "any declaration of war issued against you" cancels every setting. A war the game starts
    # with (Britain and France by the option, a GAP war) is dated to the first month, as the computer players count
    # a war's months from it, and so was read as declared in it: the target lost the new game's reinforcement skip
    # in the setup phase. It was declared before the game; a declaration in the first month still cancels them.
    from eiapbem.rules import skips
    from eiapbem.rules.model import Options, PlayerKind

    st = initial_state(world.load_scenario("classic-1805"), world.load_raw(),
                       options=Options(gb_and_fr_start_at_war=True), wars=[("RU", "TU")])
    war = st.powers["TU"].wars["RU"]
    assert war.since == Date(1805, 1) and war.declared_by == ("RU",) and war.before_game
    st = skips.pace_defaults(st)
    assert sequence.choices_from_state(st).war_declared_on == ()
    c = _ctx(st)
    while st.slot.phase is Phase.SETUP:
        p = st.slot.power
        st = engine.apply_actions(st, p, setups.default_actions("classic-1805", p), c).state
        st = engine.end_slot(st, p, c).state
    humans = [p for p in POWERS if st.powers[p].controller is PlayerKind.HUMAN]
    assert humans and all(st.powers[p].skips == {Phase.REINFORCEMENT: SkipMode.CONTINUOUS} for p in humans), \
        {p: dict(st.powers[p].skips) for p in POWERS}
    declared = st.with_war("AU", "PR", st.date, ("AU",))  # a declaration of the first month still counts
    assert sequence.choices_from_state(declared).war_declared_on == ("PR",)
    # cancelled, the settings are gone with a line that says so (a player saw the phase come back unexplained)
    out = sequence.nullify_skips(declared, ("PR",), ())
    assert not out.powers["PR"].skips and out.powers["AU"].skips == declared.powers["AU"].skips
    (line,) = out.log[len(declared.log):]
    assert line.kind == "skip.cancelled" and line.text.startswith(
        "PR's phase skip settings (reinforcement continuous) are cancelled: war was declared on it (13.9.1)")


def test_the_computer_taking_over_a_player_drops_his_skip_settings_and_a_player_back_gets_the_new_game_pace():
    # 13.9: a player's settings spare rounds of mail; the computer that takes his power over (000:206) plays every
    # phase, as the computer's powers of a new game do (it kept a naval skip and so never moved a fleet). A human
    # taking the power back from the computer starts at the new game's human pace.
    from eiapbem.rules import admin as radmin, skips
    from eiapbem.rules.model import PlayerKind

    st = skips.pace_defaults(initial_state(world.load_scenario("classic-1805"), world.load_raw()))
    st = st.with_power("RU", skips=st.powers["RU"].skips.set(Phase.NAVAL, SkipMode.CONTINUOUS))
    out = radmin.apply_admin(st, radmin.ReplaceByAi("RU", "Anna", "ai-hard", "now"))
    assert out.state.powers["RU"].controller is PlayerKind.AI_HARD and not out.state.powers["RU"].skips
    assert "the player's phase skip settings end with him (13.9)" in out.events[-1].text
    assert out.state.powers["FR"].skips == st.powers["FR"].skips  # nobody else's
    back = radmin.apply_admin(out.state, radmin.ReplacePlayer("RU", "Computer", "Bob", "now")).state
    assert back.powers["RU"].skips == {Phase.REINFORCEMENT: SkipMode.CONTINUOUS}
    other = radmin.apply_admin(st, radmin.ReplacePlayer("RU", "Anna", "Bob", "now")).state  # human to human: kept
    assert other.powers["RU"].skips == st.powers["RU"].skips
