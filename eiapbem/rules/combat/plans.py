"""A battle answered at once by standing orders for the rest of it (issue 33 item 3; 4.2.7, 000:168-176; 4.1.1, 000:48).

Where a battle's questions travel by battle files (``rules.turn.exchange_needed``), the defender asked by a
question file may answer the whole battle in one reply: a ``BattlePlan`` (``eiapbem land plan``, ``eiapbem naval
plan``) with a chit for each day (the last one for every later day), when to withdraw ("defend while morale holds,
then withdraw": at the end of a day whose morale left is below a level, or after a given day), the units to take
losses from first, and whether to pursue; for a naval combat the evasion, the port to retreat to, and whether to
pursue or enter the port.  From that reply on, every question of the battle is answered without files, in the
attacker's folder and in every replay alike (``answer``), so the battle ends with the attacker's next battle file.
Answering round by round stays the default.

The attacker's own later questions are answered the same way: by its own plan if it gave one while the question
was out to the defender (``eiapbem land plan`` before its last answer of the round: the plan then travels sealed
in the question file's commitment, 7.4), otherwise by its standing orders (``rules.combat.standing``).  It could
not be asked: once the defender's reply is in, the attacker knows every die of the battle (its seed is the two
sides' nonces, docs/file-format.md 7.2), and a choice made knowing them would bias the battle.

A plan changes nothing in the state: it is part of what a turn file's replay reads (its actions and its battle
files' replies), and ``rules.turn.play`` keeps it while it replays the slot.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Annotated, Any

from eiapbem.core.errors import IllegalAction
from eiapbem.rules import engine
from eiapbem.rules.context import RulesContext
from eiapbem.rules.model import GameState, Phase, Record
from eiapbem.rules.model.base import OneOf
from eiapbem.rules.model.common import NonNeg
from eiapbem.rules.tables.land import ATTACKER_CHITS, DEFENDER_CHITS

KIND = "battle.plan"
EVASIONS = ("no-evade", "evade-stronger", "evade-all")


@dataclass(frozen=True, slots=True)
class BattlePlan(Record):
    """Answer the rest of a battle at once: a chit per day, when to withdraw, the loss order, pursuit (4.2.7)."""

    KIND = KIND
    COMMAND = "plan"
    #: Answers a battle's questions: allowed while a question waits for the other side (``engine.verify_action``).
    ANSWER = True
    BUTTON = ""  # the manual's battle files are answered round by round; this is the project's one-reply answer

    #: The battle: its id as 'eiapbem status' names it (battle:1805-09:ulm:0, or a naval one 1805-10.english-channel.1).
    battle: str
    #: A chit for each day of a field battle, in order; the last one for every later day (none: your standing orders).
    chit: tuple[str, ...] = ()
    #: Withdraw at the end of a day when the side's morale left is below this, in hundredths (250 = 2.50; 0: never).
    withdraw_below: NonNeg = 0
    #: Withdraw at the end of this day (1-3...; 0: fight on until the battle is decided).
    withdraw_after: NonNeg = 0
    #: Units to take losses from first, in order (corps or garrison ids); the rest as the program takes them.
    losses: tuple[str, ...] = ()
    #: Do not pursue a beaten enemy (land and naval; the default pursues).
    no_pursuit: bool = False
    #: Naval: the evasion when attacked (9.2.1.1); none: your fleet's standing order.
    evasion: Annotated[str, OneOf(("",) + EVASIONS)] = ""
    #: Naval: the port to retreat to when the rules leave the choice (9.4.1); none: the program's first.
    retreat: str = ""
    #: Naval: stay out of the port after winning in its blockade box (9.4.3).
    stay_out: bool = False


def _battle_questions(state: GameState, battle: str) -> list[Any]:
    return [d for d in state.pending.values() if d.context.get("battle") == battle]


def verify_plan(state: GameState, power: str, a: BattlePlan, ctx: RulesContext) -> None:
    slot = state.slot
    if slot is None or slot.simultaneous or slot.power is None:
        raise IllegalAction("standing orders for a battle are given in the slot where it is fought")
    # A question of the other side still waiting when a player acts is one that travels by battle files: the others
    # are answered at once by standing orders or the computer (``rules.turn.auto_answer``).
    waiting = [d for d in _battle_questions(state, a.battle) if d.power != slot.power]
    if not waiting:
        raise IllegalAction(f"no question of the battle {a.battle!r} travels by battle files now: standing orders for a "
                            "whole battle answer a question file (4.2.7)",
                            hint="'eiapbem status' names the battles and their questions")
    if power not in (slot.power, waiting[0].power):
        raise IllegalAction(f"{power} is not a side of the battle {a.battle}")
    field = state.battles.get(a.battle)
    if field is None:
        if a.chit or a.withdraw_below or a.withdraw_after or a.losses:
            raise IllegalAction(f"{a.battle} is a naval combat: chits, withdrawals and loss orders are for field battles")
        return
    if a.evasion or a.retreat or a.stay_out:
        raise IllegalAction(f"{a.battle} is a field battle: evasion, retreat ports and ports are for naval combats")
    role = "attacker" if field.attacker.power == power else "defender"
    allowed = ATTACKER_CHITS if role == "attacker" else DEFENDER_CHITS
    bad = [c for c in a.chit if c not in allowed]
    if bad:
        raise IllegalAction(f"{bad[0]!r} is not a chit of the {role} (11.2.1); choose among {', '.join(allowed)}")
    side = field.side(role)
    units = set(side.units)
    stray = [u for u in a.losses if u not in units]
    if stray:
        raise IllegalAction(f"{stray[0]} is not in {power}'s force in this battle; its units are {', '.join(side.units)}")


def apply_plan(state: GameState, power: str, a: BattlePlan, ctx: RulesContext) -> engine.Outcome:
    """Nothing changes in the state: the replay keeps the plan and answers the battle's questions with it."""
    return engine.Outcome(state)


def _none(state: GameState, power: str, ctx: RulesContext) -> Iterator[BattlePlan]:
    """A plan is made of several choices at once; the rules list its questions' options one by one instead."""
    return iter(())


def answer(state: GameState, decision: Any, plan: BattlePlan | None, ctx: RulesContext) -> str:
    """The choice ``plan`` gives for ``decision``; the side's standing orders where the plan says nothing."""
    from eiapbem.rules.combat import standing

    kind = decision.kind
    options = tuple(decision.options)
    if plan is not None:
        choice = _planned(state, decision, plan, kind, options)
        if choice is not None and (choice in options or kind == "battle.casualties"):
            return choice
    return standing.answer(state, decision, ctx)


def _planned(state: GameState, decision: Any, plan: BattlePlan, kind: str, options: tuple[str, ...]) -> str | None:
    if kind == "battle.chit" and plan.chit:
        day = int(decision.context.get("day", 1) or 1)
        return plan.chit[min(day, len(plan.chit)) - 1]
    if kind == "battle.day-end":
        battle = state.battles[str(decision.context["battle"])]
        side = battle.side(str(decision.context["role"]))
        left = side.final_morale - side.morale_loss
        done = plan.withdraw_after and battle.day >= plan.withdraw_after
        return "withdraw" if done or (plan.withdraw_below and left < plan.withdraw_below) else "fight"
    if kind == "battle.casualties" and plan.losses:
        for u in plan.losses:
            for o in options:
                if o.rsplit("/", 1)[0] == u:
                    return o
        return None
    if kind in ("battle.pursue", "naval.pursuit"):
        return ("no-pursuit" if kind == "battle.pursue" else "stay") if plan.no_pursuit else "pursue"
    if kind == "naval.evasion" and plan.evasion:
        return plan.evasion
    if kind == "naval.retreat" and plan.retreat:
        return plan.retreat
    if kind == "naval.enter-port":
        return "stay" if plan.stay_out else "enter"
    return None


#: A battle's standing orders at once, in the land and naval phases where battles are fought (``eiapbem/rules/phases.py``).
RULES = engine.PhaseRules("battle plans", phases=(Phase.NAVAL, Phase.LAND),
                          actions=((BattlePlan, verify_plan, apply_plan, _none),))
