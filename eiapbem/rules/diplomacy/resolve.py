"""The diplomacy phase as one simultaneous slot (6.0, 000:530-534): resolution and registration.

Every power's orders (``eiapbem.rules.diplomacy.orders``) are written on the
order sheet; when all are in, ``resolve`` carries them out for all powers at
once, in this fixed order (docs/decisions.md "Diplomacy (issue 16)"):

1. standing orders take effect as they are recorded (trade 6.10, access
   6.11, calls 6.3.1, alliance requests 6.5, surrender settings 6.4), and
   phase skip settings given among the orders are set (13.9, ``skips.settle``);
2. wars on minors lapse (6.15); control changes in the instability and fiasco zones (6.6.1);
3. manipulation of minors (6.1.4), the powers in a random order;
4. downgrades (6.1.5) and free states (6.8);
5. alliances broken (6.7);
6. declarations of war (6.2), each checked again against the state so far;
7. calls to allies (6.3.2), defender first;
8. the peace step (6.4): civil disorder's forced suits, informal peace,
   suits for peace;
9. new alliances (6.5);
10. money to allies (6.12), requests to computer allies for money, units, land, attack and defence (6.16) and
    peace with America (6.13);
11. garrisons of powers now at war in one city fight it out (13.5.4, ``rules/hostile_garrisons.py``).

Results go to the game log (shown at the start of the reinforcement phase,
``eiapbem log``) with the political points moved.  In a sealed game the
commit round comes first (``eiapbem.rules.diplomacy.sealing``).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from eiapbem.core.errors import IllegalAction
from eiapbem.rules import engine, hostile_garrisons, skips
from eiapbem.rules.diplomacy import alliances, minor_control, minor_orders, orders, peace, sealing, war
from eiapbem.rules.diplomacy.common import Result
from eiapbem.rules.model import POWERS, GameState, Phase
from eiapbem.rules.model.slot import COMMIT
from eiapbem.rules.engine import RulesContext


#: Every order of the phase with its own verify, apply and candidates, one unit per class, in the order of registration.
ACTIONS = orders.ACTIONS + war.ACTIONS + peace.ACTIONS + minor_orders.ACTIONS + sealing.ACTIONS
_BY_CLASS = {unit[0]: unit for unit in ACTIONS}


def obligations(state: GameState, power: str, ctx: RulesContext) -> list[str]:
    mine = orders.given(state, power)
    found = sealing.obligations(state, power, mine)
    plain = [o for o in mine if not isinstance(o, sealing.SEALS)]
    found.extend(peace.suit_obligations(state, ctx, power, plain))
    return found


def with_orders(state: GameState, given: Mapping[str, Sequence[Any]], ctx: RulesContext) -> GameState:
    """Every power's orders recorded (each verified), in the fixed order of the powers."""
    for p in POWERS:
        for a in given.get(p, ()):
            unit = _BY_CLASS.get(type(a))
            if unit is None:  # another module's order of this phase (13.2.4's triggers)
                state = engine.apply_action(state, p, a, ctx).state
                continue
            unit[1](state, p, a, ctx)
            state = unit[2](state, p, a, ctx).state
    return state


def _manipulations(r: Result) -> None:
    minor_orders.manipulations(r, r.sheet)


def _downgrades(r: Result) -> None:
    minor_orders.downgrades(r, r.sheet)


def _broken_alliances(r: Result) -> None:
    for p in POWERS:
        for o in r.sheet[p]:
            if isinstance(o, orders.BreakAlliance):
                alliances.break_alliance(r, p, o.partner)


def _declarations(r: Result) -> None:
    declarations: dict[str, list[str]] = {}
    for p in POWERS:
        for o in r.sheet[p]:
            if not isinstance(o, orders.DeclareWar):
                continue
            try:  # checked against the state as the earlier steps left it (an alliance broken above stays broken)
                war.check_declaration(r.state, r.ctx, p, o.target)
            except IllegalAction as err:
                r.say(p, "diplomacy.refused", f"{err} — the declaration is not made")
                continue
            declarations.setdefault(p, []).append(o.target)
    new_wars, on_minors = war.declare_all(r, declarations)
    r.new_wars = list(new_wars)
    minor_control.control_attacked_minors(r, minor_control.several_aggressors(r, on_minors))


def _calls(r: Result) -> None:
    war.call_allies(r, r.new_wars)


def _peace(r: Result) -> None:
    informal = {p: [o.enemy for o in r.sheet[p] if isinstance(o, orders.AttemptInformalPeace)] for p in POWERS}
    suits = {p: {o.to: o.accept_unconditional for o in r.sheet[p] if isinstance(o, orders.SueForPeace)} for p in POWERS}
    peace.peace_step(r, informal, suits)


def _money(r: Result) -> None:
    minor_orders.money(r, r.sheet)


def _hostile_garrisons(r: Result) -> None:
    r.state, clashes = hostile_garrisons.resolve(r.state, r.ctx, r.slot)  # 13.5.4: at the end of the phase
    r.events.extend(clashes)


#: Steps 2-11 of the module text in their fixed order: each carries out, for every power at once, one kind of order
#: on the result so far.
STEPS: tuple[Callable[[Result], None], ...] = (
    minor_orders.lapse, minor_control.unstable_control, _manipulations, _downgrades, _broken_alliances,
    _declarations, _calls, _peace, alliances.form_alliances, _money, _hostile_garrisons,
)


def run(state: GameState, ctx: RulesContext) -> Result:
    """The steps over a state whose order sheet holds every power's orders."""
    key = state.slot.key(state.date) if state.slot is not None else f"{state.date}/diplomacy/orders/all"
    r = Result(state, ctx, key, forced=frozenset(p for p in POWERS if state.powers[p].must_sue_for_peace))
    r.sheet = {p: [o for o in orders.given(state, p) if not isinstance(o, sealing.SEALS)] for p in POWERS}
    for step in STEPS:
        step(r)
    return r


def resolve(state: GameState, given: Mapping[str, Sequence[Any]], ctx: RulesContext) -> engine.Outcome:
    """The ``resolve`` hook of the diplomacy slots (commit round, or orders)."""
    if state.slot is not None and state.slot.step == COMMIT:
        return engine.Outcome(sealing.commitments(state, dict(given)))
    state = with_orders(state, given, ctx)
    for p in POWERS:
        unmet = obligations(state, p, ctx) if p in given else []
        if unmet:
            raise IllegalAction(f"{p}'s diplomacy orders cannot be carried out: {unmet[0]}")
    settled = skips.settle(state)  # 13.9 settings given among the orders, revealed with them
    r = run(settled.state, ctx)
    out = r.state
    for p in POWERS:  # the reactions were used this month; each program sends its own again next month (issue 16)
        so = out.powers[p].standing_orders
        if orders.clear_reactions(so) != so:
            out = out.with_power(p, standing_orders=orders.clear_reactions(so))
    return engine.Outcome(out, tuple(settled.events) + tuple(r.events))


#: The diplomacy phase's rules (registered by ``eiapbem/rules/phases.py``).
RULES = engine.PhaseRules(
    "diplomacy",
    phases=(Phase.DIPLOMACY,),
    actions=ACTIONS,
    obligations=obligations,
    resolve=resolve,
)
