"""The field battle machine (11.2): running steps, asking questions, answering them at once for automatic sides.

Split out of ``combat.field`` (issue 14 item 4).  ``STEPS``, ``ANSWERS`` and
``AUTOS`` map a stage or a question to its rule; ``combat.field`` fills them
when it is imported (it and ``combat.field_end`` hold the rules themselves).
"""

from __future__ import annotations

from typing import Any, Callable

from eiapbem.core.errors import RulesBug
from eiapbem.rules import engine
from eiapbem.rules.combat.battle import BattleSide, FieldBattle
from eiapbem.rules.model.base import FrozenMap
from eiapbem.rules.model.common import POWERS
from eiapbem.rules.model.decisions import PendingDecision
from eiapbem.rules.tables import land

D = land.DEFENDER

#: The step run at each stage of a battle.
STEPS: dict[str, Callable[[Any, FieldBattle, engine.RulesContext], Any]] = {}
#: What an answer to each kind of question does.
ANSWERS: dict[str, Callable[[Any, FieldBattle, str, str, Any], Any]] = {}
#: The answer an automatic side gives to each kind of question.
AUTOS: dict[str, Callable[[Any, FieldBattle, BattleSide, tuple[str, ...], Any], str]] = {}


def run(state: Any, bid: str, ctx: engine.RulesContext) -> engine.Outcome:
    """Run automatic steps until a question is pending or the battle is over."""
    guard = 0
    was_finished = state.battles[bid].finished
    while True:
        battle = state.battles[bid]
        if battle.finished or _waiting(state, bid) or battle.stage == "external":  # 4.1.1 (combat.external)
            break
        guard += 1
        if guard > 10000:  # pragma: no cover - a machine bug, never a player's doing
            raise RulesBug(f"battle {bid} does not progress at stage {battle.stage}")
        state = STEPS[battle.stage](state, battle, ctx)
    battle = state.battles[bid]
    if battle.finished and not was_finished:
        return engine.log(state, "game", "battle.end", battle.result, battle=bid, winner=battle.winner)
    return engine.Outcome(state)


def _waiting(state: Any, bid: str) -> bool:
    return any(d.context.get("battle") == bid for d in state.pending.values())


def _put(state: Any, battle: FieldBattle) -> Any:
    return state.replace(battles=state.battles.set(battle.id, battle))


def _label(battle: FieldBattle, what: str) -> str:
    return f"battle/{battle.id}/day{battle.day}/{what}"


def _stage(state: Any, battle: FieldBattle, stage: str) -> Any:
    return _put(state, battle.replace(stage=stage))


def _automatic(state: Any, battle: FieldBattle, side: BattleSide, what: str) -> bool:
    if side.power is None:
        return True
    if what == "chit":
        minor_alone = side.role == D and all(state.units[u].nation not in POWERS for u in side.units)
        quick = state.options.pbem_quick_combat and side.role == D
        return minor_alone or quick
    return False


def _ask(state: Any, battle: FieldBattle, role: str, what: str, options: tuple[str, ...],
         ctx: engine.RulesContext, **context: Any) -> Any:
    """Post a question, or answer it at once for an automatic side."""
    side = battle.side(role)
    if _automatic(state, battle, side, what):
        choice = AUTOS[what](state, battle, side, options, ctx)
        return ANSWERS[what](state, battle, role, choice, ctx)
    did = f"{battle.id}/{battle.asked}"
    assert state.slot is not None and side.power is not None
    dec = PendingDecision(
        id=did, power=side.power, kind=f"battle.{what}", options=options, slot=state.slot.key(state.date),
        context=FrozenMap(dict(battle=battle.id, role=role, area=battle.area, day=battle.day, round=battle.round, **context)),
    )
    state = _put(state, battle.replace(asked=battle.asked + 1))
    return state.replace(pending=state.pending.set(did, dec))
