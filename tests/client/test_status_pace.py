"""What ``eiapbem status`` says of the pace of play (docs/decisions.md "Pace of play"): the power's 13.9 settings with
the command that ends each, and the tools that save rounds of mail in the file they apply to."""

from __future__ import annotations

from eiapbem.client.status import round_savers, skip_settings
from eiapbem.data import world
from eiapbem.rules import skips
from eiapbem.rules.model import POWERS, Date, Options, Phase, PlayerKind, SkipMode
from eiapbem.rules.model.slot import COMMIT, ORDERS, TURN, Slot
from eiapbem.rules.scenario import initial_state

from eiapbem.client import setups
from eiapbem.core.dice import Dice
from eiapbem.data.context import rules_context
from eiapbem.rules import engine


def _placed(options=Options()):
    st = initial_state(world.load_scenario("classic-1805"), world.load_raw(), options=options,
                       players={"TU": PlayerKind.AI_HARD})
    c = rules_context(Dice(bytes(32)))
    while st.slot.phase is Phase.SETUP:
        p = st.slot.power
        st = engine.end_slot(engine.apply_actions(st, p, setups.default_actions("classic-1805", p), c).state, p, c).state
    return skips.pace_defaults(st)


def test_a_new_game_starts_every_human_power_with_the_reinforcement_skip_unless_at_the_full_pace():
    st = _placed()
    assert all(st.powers[p].skips == {Phase.REINFORCEMENT: SkipMode.CONTINUOUS} for p in POWERS if p != "TU")
    assert not st.powers["TU"].skips  # the computer's power chooses in its own slots
    assert skip_settings(st, "FR") == [{
        "phase": "reinforcement", "mode": "continuous",
        "text": "reinforcement phase skipped while nothing is due (13.9.1 plays it in a month reinforcements are ready)",
        "off": "eiapbem skip --phase reinforcement --mode off", "when": None}]  # the commit round in play takes it
    full = _placed(Options(full_pace=True))
    assert not any(ps.skips for ps in full.powers.values()) and skip_settings(full, "FR") == []


def test_the_tools_that_save_rounds_are_named_in_the_files_they_apply_to():
    st = _placed()
    assert st.slot == Slot(Phase.DIPLOMACY, COMMIT, None, st.slot.actors)
    # The commit round: a naval skip for this month, sealed with the orders; nothing to seal ahead yet.
    tips = round_savers(st, "GB")
    assert len(tips) == 1 and "naval phase of January 1805" in tips[0] and "'eiapbem skip --phase naval --mode once'" in tips[0]
    assert round_savers(st, "AU") == []  # no fleet of its own on the map in classic-1805: its naval slot passes by itself
    land = st.replace(slot=Slot(Phase.LAND, TURN, "FR", ("FR",)))
    tips = round_savers(land, "FR", " --power FR")
    assert "'eiapbem end-phase --seal-diplomacy --power FR'" in tips[0] and "naval phase of February 1805" in tips[1]
    assert round_savers(land, "RU") == []  # not Russia's file
    # Sealed already, or a naval setting already given: nothing more to say.
    sealed = land.replace(order_sheet=land.order_sheet.replace(commitments=land.order_sheet.commitments.set("FR", bytes(32))))
    kept = sealed.with_power("FR", skips=sealed.powers["FR"].skips.set(Phase.NAVAL, SkipMode.ONCE))
    assert round_savers(kept, "FR") == []
    # The last month has no next diplomacy phase; the naval slot itself takes no naval setting (13.9).
    last = land.replace(date=land.end)
    assert not any("seal" in x for x in round_savers(last, "FR"))
    assert round_savers(st.replace(slot=Slot(Phase.NAVAL, TURN, "FR", ("FR",))), "FR") == []
    econ = st.replace(date=Date(1805, 3), slot=Slot(Phase.ECONOMIC, ORDERS, None, POWERS))
    assert len(round_savers(econ, "SP")) == 2
