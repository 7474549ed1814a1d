"""The players of ``eiapbem campaign --pace``: powers by files whose computer plays for pace, as a player who wants
fewer rounds of mail would (issue 33; docs/decisions.md "Pace of play").

Such a player, besides what the computer chooses in each slot:

- keeps its reinforcement phase skipped while nothing is due (13.9, ``continuous``: a new game's default, set again
  should the player's game have the full pace or a declaration of war have cancelled it, 13.9.1);
- seals next month's diplomacy orders in its last file of the month (its land file, or its economic orders):
  the orders the computer would give from the state as it stands, for next month's diplomacy phase (the rules
  drop at the reveal those that no longer hold);
- answers a battle file with standing orders for the whole battle (``BattlePlan``): the chit the computer chooses
  for the first day, for every day, withdrawing once its morale is down to 1.00.

The naval phase is left to the computer, which moves fleets most months: a player who keeps his fleets in port
would skip it too (``tests/e2e/test_pace_e2e.py``).
"""

from __future__ import annotations

from typing import Any

from eiapbem import ai
from eiapbem.rules.combat.plans import BattlePlan
from eiapbem.rules.model import POWERS, GameState, Phase, PlayerKind
from eiapbem.rules.model.slot import ORDERS, Slot
from eiapbem.rules.skips import SetSkip

from . import orders as sealed_orders


def extra_actions(state: GameState, power: str) -> list[Any]:
    """What the pace player adds to its slot's plan: the reinforcement skip, when not set."""
    slot = state.slot
    if slot is not None and slot.phase is Phase.REINFORCEMENT and Phase.REINFORCEMENT not in state.powers[power].skips:
        return [SetSkip("reinforcement", "continuous")]
    return []


def seals(state: GameState) -> bool:
    """The slot is one whose file seals next month's diplomacy orders (the land slot, the economic phase)."""
    slot = state.slot
    return slot is not None and slot.phase in (Phase.LAND, Phase.ECONOMIC)


def order_next_month(s: Any, power: str, kind: PlayerKind, ctx: Any) -> int:
    """Give, for next month, the diplomacy orders the computer would give now (``Session.order_ahead``); their number."""
    st = s.current()
    if not seals(st) or power in st.order_sheet.commitments or st.date >= st.end or st.options.one_round_diplomacy:
        return 0
    ahead = st.replace(date=st.date.next(), slot=Slot(Phase.DIPLOMACY, ORDERS, None, tuple(POWERS)))
    kept = sealed_orders.as_kept(s.meta, ahead, power)
    n = 0
    for o in ai.orders(kept.with_power(power, controller=kind), power, ctx):
        s.order_ahead(o)
        n += 1
    return n


def battle_plan(view: GameState, power: str, decision: Any, kind: PlayerKind, ctx: Any) -> BattlePlan:
    """The pace player's standing orders for the whole battle of ``decision``, the first question it is asked."""
    bid = str(decision.context["battle"])
    chit: tuple[str, ...] = ()
    for d in sorted(view.pending.values(), key=lambda d: d.id):
        if d.power == power and d.kind == "battle.chit" and d.context.get("battle") == bid:
            chit = (ai.answer(view.with_power(power, controller=kind), d, ctx).choice,)
    return BattlePlan(bid, chit=chit, withdraw_below=100) if bid in view.battles else BattlePlan(bid)
