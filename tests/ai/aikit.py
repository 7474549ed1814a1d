"""What the computer players' tests share: the opening of a game the computer set up, and a rules context."""

from __future__ import annotations

from eiapbem.client import duel
from eiapbem.core.dice import Dice
from eiapbem.data.context import rules_context
from eiapbem.rules.model import POWERS, GameState, Phase, PlayerKind, Slot
from eiapbem.rules.model.slot import ORDERS


def ctx(seed: bytes):
    """A rules context whose dice come from ``seed``."""
    return rules_context(Dice(seed))


def diplomacy_start(seed: bytes) -> GameState:
    """1805-01's diplomacy orders, every power set up by the computer at ai-hard, nobody at war yet, with the
    setup's dice drawn from ``seed``: the state a module's tests of the diplomacy phase begin from."""
    st = duel.start_state("classic-1805", {p: PlayerKind.AI_HARD for p in POWERS}, seed)
    st = duel.play(st, "classic-1805", seed, 0).state
    assert st.slot is not None and st.slot.phase is Phase.DIPLOMACY and not any(st.powers[p].wars for p in POWERS)
    return st.replace(slot=Slot(Phase.DIPLOMACY, ORDERS, None, POWERS))
