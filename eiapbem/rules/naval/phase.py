"""The naval phase (8.0-9.5; 000:1016-1290), one slot per power in the order GB RU TU AU PR FR SP
(``sequence.NAVAL_ORDER``, 8.2).

- ``movement``: 8.4-8.5 ``naval.move`` with interception;
- ``attack``: 8.10 ``naval.attack`` (the combats are ``eiapbem.rules.naval.battle``, answered with
  ``eiapbem answer``), 8.5 ``naval.orders``, 8.9 piracy missions;
- ``transport``: 8.6 ``naval.load`` (and, in the land phase, 10.4.5 ``land.disembark``).

``RULES``, ``ORDER_RULES`` and ``LANDING_RULES`` are listed in ``eiapbem/rules/phases.py``.
"""

from __future__ import annotations


from eiapbem.rules import engine
from eiapbem.rules.model import Fleet, GameState, Location, LocationKind, PendingDecision, Phase
from eiapbem.rules.naval import attack, evacuation, graph, movement, transport
from eiapbem.rules.naval.common import must_leave_box, record_of
from eiapbem.rules.engine import RulesContext

def _can_leave(state: GameState, ctx: RulesContext, f: Fleet) -> bool:
    """The fleet can sail out of its box this month (not held by the ice, 8.4.1, nor on a mission or in a combat)."""
    from eiapbem.rules.naval.movement import may_continue

    m = ctx.map
    if may_continue(state, f) is not None or graph.frozen(state, m, f.location):
        return False
    port = m.area(f.location.site).port
    assert port is not None  # a fleet in a blockade box stands at a port
    return any(not graph.frozen(state, m, Location(LocationKind.SEA, s)) for s in port.seas)


def obligations(state: GameState, power: str, ctx: RulesContext) -> list[str]:
    out = [f"attack the enemy fleets in {p} (8.4.4, 000:1084): 'eiapbem naval attack --place {p}'"
           for p in attack.ports_to_attack(state, power, ctx)]
    for f in sorted((u for u in state.units.values() if isinstance(u, Fleet)), key=lambda u: u.id):
        if must_leave_box(state, ctx, power, f) and record_of(state, f).legs == 0 and _can_leave(state, ctx, f):
            out.append(f"move {f.id} out of box:{f.location.site}: {power} is not at war with the port's holder "
                       f"(8.8, 000:1170): 'eiapbem naval move --fleet {f.id} --path ...'")
    return out


def finish(state: GameState, power: str, ctx: RulesContext) -> engine.Outcome:
    """End of the slot: depots on fleets that a combat moved this month are lost (10.5.4).  The slot's
    movement is scratch the sequence forgets (``GameState.scratch``)."""
    moved = sorted({f for k, b in state.naval_battles.items() if k.startswith(f"{state.date}.") for f in b.moves})
    return transport.lose_fleet_depots(state, moved, "retreated or moved after a combat")


def _evacuate(state: GameState, power: str, ctx: RulesContext) -> engine.Outcome:
    return evacuation.evacuate(state, ctx)  # 8.7: fleets in ports the enemy now holds


def _lost_shipyards(state: GameState, power: str, ctx: RulesContext) -> engine.Outcome:
    return evacuation.lost_shipyards(state, ctx)  # 13.5.6: ships building there


def standing_answer(state: GameState, decision: PendingDecision) -> str:
    """The standing-order choice for a ``naval.*`` question (``rules.naval.battle``; ``rules.combat.standing``
    asks it through the ``standing.naval`` hook): the defender's evasion order (9.2.1.1), a victor stays."""
    kind = decision.kind.split(".", 1)[1]
    if kind == "evasion":
        battle = state.naval_battles[str(decision.context["battle"])]
        order = attack.evasion_order(state, battle.defenders)
        return order if order in decision.options else decision.options[0]
    if kind in ("pursuit", "enter-port") and "stay" in decision.options:
        return "stay"
    return decision.options[0]


#: The naval effects of a land slot's end, run by the land phase through its ``land.slot-end`` hook point
#: after its own (10.7), so the land package does not import this one.
HOOKS = (
    ("land.slot-end", 10, transport.destroy_aboard),  # 8.6.3: corps not disembarked
    ("land.slot-end", 20, _evacuate),
    ("land.slot-end", 30, _lost_shipyards),
    ("standing.naval", 0, standing_answer),
)

#: What of sections 8-9 is not built yet (``eiapbem status`` shows it).
GAPS = ""

RULES = engine.PhaseRules(
    "naval",
    phases=(Phase.NAVAL,),
    actions=movement.ACTIONS + attack.ACTIONS + transport.NAVAL_ACTIONS,
    obligations=obligations,
    finish=finish,
    gaps=GAPS,
    hooks=HOOKS,
)
#: Standing orders ("Review/Set Orders", 8.5) may be given in the power's reinforcement, naval and land slots.
ORDER_RULES = engine.PhaseRules(
    "naval-orders", phases=(Phase.REINFORCEMENT, Phase.NAVAL, Phase.LAND), actions=attack.ORDER_ACTIONS)
#: Landing from ships and depots on fleets are done in the land phase (10.4.5, 10.3.4).
LANDING_RULES = engine.PhaseRules("landing", phases=(Phase.LAND,), actions=transport.LAND_ACTIONS)
