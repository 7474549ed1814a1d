"""Phase skipping (13.9, 000:2732-2738): the player's setting and its nullifications.

A power sets a skip for the diplomacy, reinforcement or naval phase, once or
continuously, or switches it off (``skip.set``).  The setting is an action
of the power's own sequential slots (setup, reinforcement, naval, land): the
simultaneous phases resolve only their own orders.  ``eiapbem.rules.sequence``
passes the skipped slots by and clears a ``once`` setting when it is used.

13.9.1 cancels settings: a declaration of war on the power cancels all of them;
reinforcements ready to be placed cancel the reinforcement setting.
``sequence.nullify_skips`` applies both whenever play moves on (``sequence.advance``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Annotated

from eiapbem.core.errors import IllegalAction
from eiapbem.rules import engine
from eiapbem.rules.model import GameState, Phase, Record
from eiapbem.rules.model.base import OneOf
from eiapbem.rules.model.powers import SKIPPABLE_PHASES, SkipMode

#: The slots in which a power may change its settings (its own sequential slots).
SKIP_SETTING_PHASES = (Phase.SETUP, Phase.REINFORCEMENT, Phase.NAVAL, Phase.LAND)


@dataclass(frozen=True, slots=True)
class SetSkip(Record):
    """Skip the diplomacy, reinforcement or naval phase once or continuously, or stop skipping it (13.9)."""

    KIND = "skip.set"
    COMMAND = "skip"
    BUTTON = "Show Phase Skip Menu"
    #: Set in any of the power's own slots; not an action of one phase's rules.
    ANY_PHASE = True

    phase: Annotated[str, OneOf(("diplomacy", "reinforcement", "naval"))]
    mode: Annotated[str, OneOf(("once", "continuous", "off"))]


def _verify(state: GameState, power: str, action: SetSkip, ctx: engine.RulesContext) -> None:
    phase = Phase(action.phase)
    if phase not in SKIPPABLE_PHASES:  # pragma: no cover - the record's choices already say so
        raise IllegalAction(f"the {phase} phase cannot be skipped; only diplomacy, reinforcement and naval (13.9)")
    assert state.slot is not None
    if action.mode != "off" and phase is Phase.NAVAL and state.slot.phase is Phase.NAVAL:
        raise IllegalAction("the naval phase cannot be set to skip while in the naval phase (13.9); "
                            "set it in your reinforcement or land slot")
    current = state.powers[power].skips.get(phase)
    if action.mode == "off" and current is None:
        raise IllegalAction(f"{power} has no skip setting for the {phase} phase to switch off")


def _apply(state: GameState, power: str, action: SetSkip, ctx: engine.RulesContext) -> engine.Outcome:
    phase = Phase(action.phase)
    ps = state.powers[power]
    if action.mode == "off":
        skips = ps.skips.remove(phase)
        text = f"{power} no longer skips the {phase} phase"
    else:
        skips = ps.skips.set(phase, SkipMode(action.mode))
        text = f"{power} skips the {phase} phase " + ("once" if action.mode == "once" else "until the setting is switched off")
    state = state.with_power(power, skips=skips)
    return engine.log(state, power, "skip.set", text, phase=str(phase), mode=action.mode)


def _candidates(state: GameState, power: str, ctx: engine.RulesContext) -> Iterator[SetSkip]:
    for phase in SKIPPABLE_PHASES:
        yield from (SetSkip(str(phase), mode) for mode in ("once", "continuous", "off"))


#: Phase skipping's one action (registered by ``eiapbem/rules/phases.py``).
RULES = engine.PhaseRules("phase skipping", phases=SKIP_SETTING_PHASES, actions=((SetSkip, _verify, _apply, _candidates),))

__all__ = ["RULES", "SKIP_SETTING_PHASES", "SetSkip"]
