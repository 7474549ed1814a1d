"""Phase skipping (13.9, 000:2732-2738): the player's setting and its nullifications.

A power sets a skip for the diplomacy, reinforcement or naval phase, once or
continuously, or switches it off (``skip.set``), in any slot it writes a file
in (13.9: the phase-skip menu is open at any time).  In its own sequential
slots (setup, reinforcement, naval, land) the setting takes effect as given;
in the simultaneous diplomacy and economic slots it is one of the power's
orders: written on the order sheet, sealed with the other diplomacy orders
(``rules.diplomacy.sealing``), and set when the phase resolves (``settle``),
so no power learns another's setting before its own orders are in.
``eiapbem.rules.sequence`` passes the skipped slots by and clears a ``once``
setting when it is used.

13.9.1 cancels settings: a declaration of war on the power cancels all of them;
reinforcements ready to be placed cancel the reinforcement setting for that
month's reinforcement phase (a ``once`` setting is then spent, a continuous one
holds for the months after).  ``sequence.nullify_skips`` applies both whenever
play moves on (``sequence.advance``).

The pace of a new game (docs/decisions.md "Pace of play"): unless the host
chooses the full pace (game option ``full_pace``), every power a human plays
starts with the continuous reinforcement setting (``pace_defaults``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Annotated

from eiapbem.core.errors import IllegalAction
from eiapbem.rules import engine
from eiapbem.rules.model import POWERS, GameState, Phase, PlayerKind, Record
from eiapbem.rules.model.base import OneOf
from eiapbem.rules.model.powers import SKIPPABLE_PHASES, SkipMode

#: The slots in which a power may change its settings: every slot it writes a file in.
SKIP_SETTING_PHASES = (Phase.SETUP, Phase.DIPLOMACY, Phase.REINFORCEMENT, Phase.NAVAL, Phase.LAND, Phase.ECONOMIC)


@dataclass(frozen=True, slots=True)
class SetSkip(Record):
    """Skip the diplomacy, reinforcement or naval phase once or continuously, or stop skipping it (13.9)."""

    KIND = "skip.set"
    COMMAND = "skip"
    BUTTON = "Show Phase Skip Menu"
    #: Set in any slot the power plays; not an action of one phase's rules.
    ANY_PHASE = True

    phase: Annotated[str, OneOf(("diplomacy", "reinforcement", "naval"))]
    mode: Annotated[str, OneOf(("once", "continuous", "off"))]


def _verify(state: GameState, power: str, action: SetSkip, ctx: engine.RulesContext) -> None:
    phase = Phase(action.phase)
    if phase not in SKIPPABLE_PHASES:  # pragma: no cover - the record's choices already say so
        raise IllegalAction(f"the {phase} phase cannot be skipped; only diplomacy, reinforcement and naval (13.9)")
    assert state.slot is not None
    if engine.sealed_already(state, power):
        raise IllegalAction(f"{power}'s diplomacy orders of {state.date.name} are sealed already and cannot change now "
                            "(6.0): give the setting in your next file")
    if action.mode != "off" and phase is Phase.NAVAL and state.slot.phase is Phase.NAVAL:
        raise IllegalAction("the naval phase cannot be set to skip while in the naval phase (13.9); "
                            "set it in a file written before the naval phase: your diplomacy orders, your reinforcement or "
                            "land slot, or your economic orders")
    current = setting(state, power, phase)
    if action.mode == "off" and current is None:
        raise IllegalAction(f"{power} has no skip setting for the {phase} phase to switch off")


def setting(state: GameState, power: str, phase: Phase) -> str | None:
    """``power``'s setting for ``phase`` as its orders so far leave it (in a simultaneous slot the orders given are
    on the sheet, set only when the phase resolves)."""
    ps = state.powers[power]
    mode = ps.skips[phase].value if phase in ps.skips else None
    if state.slot is not None and state.slot.simultaneous:
        for o in engine.given_orders(state, power):
            if isinstance(o, SetSkip) and Phase(o.phase) is phase:
                mode = None if o.mode == "off" else o.mode
    return mode


def _apply(state: GameState, power: str, action: SetSkip, ctx: engine.RulesContext) -> engine.Outcome:
    if state.slot is not None and state.slot.simultaneous:  # an order of the phase, set when it resolves (``settle``)
        return engine.Outcome(engine.record_order(state, power, action))
    return _set(state, power, action)


def _set(state: GameState, power: str, action: SetSkip) -> engine.Outcome:
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
    if engine.sealed_already(state, power):
        return
    for phase in SKIPPABLE_PHASES:
        yield from (SetSkip(str(phase), mode) for mode in ("once", "continuous", "off"))


def settle(state: GameState) -> engine.Outcome:
    """The settings given as orders of a simultaneous phase, set as it resolves: each power's in the order given,
    the powers in their fixed order (called by the diplomacy and economic ``resolve`` hooks once the sheet holds
    every power's orders)."""
    out = engine.Outcome(state)
    for p in POWERS:
        for o in engine.given_orders(state, p):
            if isinstance(o, SetSkip):
                if o.mode == "off" and Phase(o.phase) not in out.state.powers[p].skips:
                    continue  # switched off by another order of the same file: nothing left to switch off
                out = out.then(_set(out.state, p, o))
    return out


def pace_defaults(state: GameState) -> GameState:
    """A new game's settings at the fast pace (the default; ``Options.full_pace`` off): every power a human plays
    starts with its reinforcement phase skipped while nothing is due (13.9 continuous, cancelled for the month by
    reinforcements ready, 13.9.1).  The computer's powers choose in their own slots and start with none."""
    if state.options.full_pace:
        return state
    for p, ps in state.powers.items():
        if ps.controller is PlayerKind.HUMAN and Phase.REINFORCEMENT not in ps.skips:
            state = state.with_power(p, skips=ps.skips.set(Phase.REINFORCEMENT, SkipMode.CONTINUOUS))
    return state


#: Phase skipping's one action (registered by ``eiapbem/rules/phases.py``).
RULES = engine.PhaseRules("phase skipping", phases=SKIP_SETTING_PHASES, actions=((SetSkip, _verify, _apply, _candidates),))

__all__ = ["RULES", "SKIP_SETTING_PHASES", "SetSkip", "pace_defaults", "settle"]
