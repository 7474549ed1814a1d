"""Computer players: the AI levels easy, medium and hard (4.2.1, 4.2.3; 000:76-84, 144-154).

An AI player is a deterministic function of the game state, the power, its
level (``PowerState.controller``) and a ``RulesContext`` whose dice are the
slot's dice.  It obeys the rules core's discipline (no I/O, clock, ``random``
module, float, or set and hash order) and never edits the state itself: it
only proposes registered engine actions, each tried with
``engine.apply_action`` (which verifies it), so every AI move is legal by
construction and replays like a human's.  Random choices are labelled rolls of
``ctx.dice`` under ``ai/<power>/...``.

- ``play_slot``: a sequential slot of an AI power: its actions, then the end of
  the slot (``engine.end_slot``).
- ``orders``: an AI power's orders for a simultaneous slot (diplomacy,
  economic), from the common starting state.
- ``answer`` / ``settle`` / ``apply_actions``: pending decisions addressed to
  an AI power are answered at once, whoever's slot it is.

What it plays, by phase: setup, the shipped default setup (given by the
caller, ``setup=``; the data layer reads it); reinforcement, every factor due
is placed (``eiapbem/ai/reinforce.py``); economic, factors bought within a
share of the projected money (``eiapbem/ai/economy.py``); land, movement,
supply, battles and sieges (``eiapbem/ai/land.py``); its naval slot is ``ai.naval``; diplomacy, the orders of its
war plan (``eiapbem/ai/diplomacy.py``, ``eiapbem/ai/strategy.py``); any phase whose actions it does not know just ends.  The levels' differences are listed in ``eiapbem/ai/levels.py``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable, Sequence

from eiapbem.ai.levels import LEVELS, VERSIONS, Level, level
from eiapbem.core.errors import IllegalAction
from eiapbem.rules import engine
from eiapbem.rules.combat import standing
from eiapbem.rules.engine import AnswerDecision, Outcome, RulesContext
from eiapbem.rules.model import POWERS, GameState, LogEntry, PendingDecision, Phase, PlayerKind

AI_KINDS: tuple[str, ...] = tuple(k.value for k in LEVELS)
#: Decisions answered in a row before the AI gives up (a bound against a rules loop).
MAX_ANSWERS = 1000
#: Actions from the rules' list the AI tries, at most, to meet the obligations its plans left open.
MAX_FALLBACK = 200


class AiStuck(IllegalAction):
    """The AI cannot end its slot: an obligation it does not know how to meet."""


def is_ai(state: GameState, power: str) -> bool:
    return state.powers[power].controller is not PlayerKind.HUMAN


def ai_powers(state: GameState) -> tuple[str, ...]:
    return tuple(p for p in POWERS if is_ai(state, p))


def level_of(state: GameState, power: str) -> Level:
    if not is_ai(state, power):
        raise IllegalAction(f"{power} is played by a human, not by the computer")
    return level(state.powers[power].controller)


# ----------------------------------------------------------------- pending decisions


def answer(state: GameState, decision: PendingDecision, ctx: RulesContext) -> AnswerDecision:
    """The answer of the AI power ``decision.power`` to ``decision`` (one of its options)."""
    from eiapbem.ai import decisions  # the levels' play is loaded when the computer plays (a fresh read-only command needs none)

    return decisions.answer(decision, level_of(state, decision.power), ctx, Builder(state, decision.power, ctx))


def _standing_order(state: GameState, d: PendingDecision) -> bool:
    """A human's battle question in the computer's own slot: nobody carries battle files for a slot no
    human plays, so the human's standing orders answer it (as under PBEM quick combat, 4.1.1)."""
    slot = state.slot
    return (slot is not None and not slot.simultaneous and slot.power is not None and is_ai(state, slot.power)
            and not is_ai(state, d.power)
            and ((d.kind.startswith("battle.") and d.context.get("battle") in state.battles)
                 or (d.kind.startswith("siege.") and d.context.get("siege") in state.sieges)
                 or (d.kind.startswith("naval.") and d.context.get("battle") in state.naval_battles)))


def settle(state: GameState, ctx: RulesContext) -> Outcome:
    """Answer, one after the other, every pending decision addressed to an AI power (and, in an AI's
    own slot, a human's battle questions by standing orders)."""
    out = Outcome(state)
    for _ in range(MAX_ANSWERS):
        st = out.state
        todo = [d for _, d in sorted(st.pending.items()) if is_ai(st, d.power) or _standing_order(st, d)]
        if not todo:
            return out
        d = todo[0]
        act = answer(st, d, ctx) if is_ai(st, d.power) else AnswerDecision(d.id, standing.answer(st, d, ctx))
        out = out.then(engine.apply_action(st, d.power, act, ctx))
    raise AiStuck(f"the computer answered {MAX_ANSWERS} decisions in a row without an end; the rules loop",
                  hint="tell the eiapbem developers; the host can skip the slot")


def apply_actions(state: GameState, power: str, actions: Iterable, ctx: RulesContext) -> Outcome:
    """``engine.apply_actions``, with the AI powers' answers to decisions after each action.

    A human's turn file holds only the human's actions; every client derives
    the AI answers in between from the same state and the file's dice, so the
    replay is the same everywhere.
    """
    out = settle(state, ctx)
    for a in actions:
        out = out.then(engine.apply_action(out.state, power, a, ctx))
        out = out.then(settle(out.state, ctx))
    return out


# ----------------------------------------------------------------- playing a slot


class Builder:
    """An AI's slot being built: the state so far and the actions that were accepted."""

    def __init__(self, state: GameState, power: str, ctx: RulesContext) -> None:
        self.state = state
        self.power = power
        self.ctx = ctx
        self.actions: list = []
        self.events: tuple[LogEntry, ...] = ()
        #: The seed of the slot's search dice (``ai.odds``), drawn once from the slot's dice when first needed.
        self.search_seed: bytes | None = None

    def try_(self, action) -> bool:
        """Take ``action`` if the rules accept it (and answer the AI decisions it raises)."""
        try:
            out = apply_actions(self.state, self.power, [action], self.ctx)
        except IllegalAction:
            return False
        self.state = out.state
        self.events += out.events
        self.actions.append(action)
        return True

    def answer_(self, decision_id: str, choice: str) -> bool:
        """Answer the power's pending decision ``decision_id`` with ``choice`` (then the AI decisions that raises)."""
        try:
            out = engine.apply_action(self.state, self.power, AnswerDecision(decision_id, choice), self.ctx)
            out = out.then(settle(out.state, self.ctx))
        except IllegalAction:
            return False
        self.state = out.state
        self.events += out.events
        return True


@dataclass(frozen=True)
class Turn:
    """What an AI did in a slot: its actions, and the state after (after the slot's end when sequential)."""

    actions: tuple
    state: GameState
    events: tuple[LogEntry, ...] = ()


def plan(state: GameState, power: str, ctx: RulesContext, *, setup: Sequence = ()) -> Builder:
    """Take the AI's actions of the slot in play (not its end)."""
    lvl = level_of(state, power)
    slot = state.slot
    if slot is None:
        raise IllegalAction("the game is over; the computer has nothing to play")
    from eiapbem.ai import diplomacy, economy, land, reinforce

    b = Builder(state, power, ctx)
    out = settle(state, ctx)
    b.state, b.events = out.state, out.events
    if slot.phase is Phase.SETUP:
        from eiapbem.ai.setup import choose

        for a in choose(setup, ctx):  # 14.5: one of the scenario's AI…_#.set, or the default setup
            b.try_(a)
        from eiapbem.ai.setup import complete

        complete(b)  # 14.5: what that setup could not place (an edited scenario) is placed from what it has
    elif slot.phase is Phase.REINFORCEMENT:
        reinforce.place_due(b, lvl)
        reinforce.set_up_minors(b)  # 7.3: a minor's forces due to be set up (6.1.3, 6.6.5)
        reinforce.place_leaders(b, lvl)  # 7.4: leaders to the largest corps, off a spent one
    elif slot.phase is Phase.ECONOMIC:
        from eiapbem.ai import feudal, raids

        economy.plan(b, lvl)
        raids.levy(b, lvl)  # 12.9, 13.2.2: Cossacks and Freikorps placed from the pool
        feudal.levy(b, lvl)  # 12.9, 13.2.3: Turkish feudal corps raised in December
    elif slot.phase is Phase.DIPLOMACY:
        diplomacy.plan(b, lvl)
    elif slot.phase is Phase.LAND:
        from eiapbem.ai import amphibious, feudal, march, raids

        feudal.plan(b, lvl)  # 13.2.3: Turkish feudal corps come back on the map while at war
        amphibious.land_invasions(b, lvl)  # 10.4.5: corps carried by its fleets land first (none left to 8.6.3)
        raids.plan(b, lvl)  # 13.2.2: Cossacks and Freikorps raid depots and supply chains
        march.plan(b, lvl)  # 10.4.1: forced marches where the extra point decides something this slot
        land.plan(b, lvl)
    elif slot.phase is Phase.NAVAL:
        from eiapbem.ai import naval

        naval.plan(b, lvl)
    # Land movement and any phase whose actions the AI does not know: nothing, the slot just ends.
    meet_obligations(b)
    return b


def meet_obligations(b: Builder) -> None:
    """What the level's plans left undone that the slot requires (``engine.unmet_obligations``), met with actions
    from the rules' own list of what is possible (``engine.legal_actions``): the first action (the rarer kinds first, ``_rarest_first``) after which
    the obligations read otherwise and are no more, again, until none is left or no action helps.  A new rule with
    an obligation reaches the computer this way without code of its own; when the plans meet every obligation it
    does nothing."""
    unmet = engine.unmet_obligations(b.state, b.power, b.ctx)
    tries = 0
    while unmet and tries < MAX_FALLBACK:
        for a in _rarest_first(engine.legal_actions(b.state, b.power, b.ctx, settings=False)):
            tries += 1
            out = apply_actions(b.state, b.power, [a], b.ctx)
            left = engine.unmet_obligations(out.state, b.power, b.ctx)
            if left != unmet and len(left) <= len(unmet):
                b.state, b.events, unmet = out.state, b.events + out.events, left
                b.actions.append(a)
                break
            if tries >= MAX_FALLBACK:
                return
        else:
            return


def _rarest_first(actions: Sequence) -> list:
    """The actions to try for an obligation, those of the rarer kinds first, in the rules' order within a kind: an
    obligation names one thing to do (an attack, a garrison), while moves come by the hundred and would use up the
    tries before it (``MAX_FALLBACK``).  Questions are left out: they are the level's to answer (``settle``)."""
    kept = [a for a in actions if not isinstance(a, AnswerDecision)]
    counts: dict[str, int] = {}
    for a in kept:
        counts[type(a).__name__] = counts.get(type(a).__name__, 0) + 1
    order = sorted(range(len(kept)), key=lambda i: (counts[type(kept[i]).__name__], i))
    return [kept[i] for i in order]


def play_slot(state: GameState, power: str, ctx: RulesContext, *, setup: Sequence = ()) -> Turn:
    """An AI power's sequential slot: its actions, then its end; ``AiStuck`` if it cannot end."""
    if state.slot is None or state.slot.simultaneous or state.slot.power != power:
        raise IllegalAction(f"the slot in play is not {power}'s own turn")
    b = plan(state, power, ctx, setup=setup)
    unmet = engine.unmet_obligations(b.state, power, ctx)
    if unmet:
        raise AiStuck(f"the computer playing {power} cannot end {state.slot.key(state.date)}: {unmet[0]}",
                      hint="the host can skip the slot ('eiapbem admin skip')")
    end = engine.end_slot(b.state, power, ctx)
    return Turn(tuple(b.actions), end.state, b.events + end.events)


def orders(state: GameState, power: str, ctx: RulesContext) -> tuple:
    """An AI power's orders for the simultaneous slot in play, from its common starting state."""
    if state.slot is None or not state.slot.simultaneous or power not in state.slot.actors:
        raise IllegalAction(f"{power} gives no orders in the slot in play")
    return tuple(plan(state, power, ctx).actions)


__all__ = ["AI_KINDS", "VERSIONS", "AiStuck", "Builder", "Turn", "ai_powers", "answer", "apply_actions", "is_ai", "level_of",
           "meet_obligations", "orders", "plan", "play_slot", "settle"]
