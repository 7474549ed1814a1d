"""Naval attacks, standing orders and piracy missions of the naval phase (8.4.4, 8.5, 8.9, 8.10, 9.2.1.1).

``naval.attack --place P`` starts the naval combat against the enemy fleets in a sea area,
port or blockade box where the phasing power's fleets are (8.10, 000:1184-1190; only
fleets of powers at war with it are attacked; a port's fleets only at war with the port's
holder): one defending power's stack (9.1, 000:1210: ``--defender``, by default the one
with most warships).  The first attack ends the power's movement: the combats are the naval combat
step (8.10 "All combat takes place during the Naval Combat Phase"); one combat at a time.
Fleets an enemy of the attacker has loaned to a power it is not at war with go back to their owner
when attacked and fight (7.6.1, 000:1006-1008); fleets a power at peace with the attacker has loaned to
its enemy go back to their owner and stay out of the combat (7.6.1, 000:1006, "similar manner"); fleets carrying an enemy's loaned corps are attacked
after a declaration of war on their power (8.6).
An attack in a blockade box by a stack that may use the port is the lifting of the
blockade: the blockaders hold the wind gauge (9.2.1, 8.8).  A stack that ended its
movement in a port with enemy fleets must attack them (8.4.4, 000:1084): the slot cannot
end before.

``naval.orders`` sets a fleet's standing orders ("Review/Set Orders", 8.5): intercept or
not, and its evasion order (9.2.1.1).  ``naval.piracy`` / ``naval.anti-piracy`` /
``naval.end-mission`` assign light fleets to the missions of 8.9 (option Privateers,
4.1.1); the economic phase resolves them (12.2.1).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Annotated, Any

from eiapbem.core.errors import IllegalAction
from eiapbem.rules import candidates, engine, relations
from eiapbem.rules.loans import release_attacked_fleets, revert_fleets_on_attack
from eiapbem.rules.model import POWERS, Corps, Fleet, FleetMission, GameState, Location, LocationKind, Record
from eiapbem.rules.forces import the_fleet
from eiapbem.rules.model.base import OneOf
from eiapbem.rules.model.common import PowerId
from eiapbem.rules.model.units import UnitId
from eiapbem.rules.naval import graph
from eiapbem.rules.naval.battle import start_naval_battle
from eiapbem.rules.naval.common import (
    controller,
    hostile,
    fleets_at,
    in_battle,
    own_fleet,
    port_nation,
    port_power,
    warships,
)
from eiapbem.rules.engine import RulesContext

EVASION_ORDERS = ("no-evade", "evade-stronger", "evade-all")


@dataclass(frozen=True, slots=True)
class NavalAttack(Record):
    """Attack the enemy fleets in a sea area, port or blockade box where your fleets are; the first attack ends your fleet movement and loading this phase, so move and load first (8.10)."""

    KIND = "naval.attack"
    COMMAND = "attack"
    BUTTON = "Attack Enemy"

    #: Where: a sea area (north-sea), a port (brest) or a blockade box (box:brest).
    place: str
    #: Whose stack to attack where several enemy powers' stacks are (9.1: "any one defender's stack"); by default
    #: the one with most warships.
    defender: PowerId | None = None


def attackers(state: GameState, power: str, loc: Location) -> list[str]:
    return [f.id for f in fleets_at(state, loc) if controller(state, f) == power and warships(f) > 0
            and not in_battle(state, f.id)]


def _carries_enemy_corps(state: GameState, power: str, fleet: Fleet) -> bool:
    """8.6 (000:1132): ``fleet``, of a power not allied with ``power``, carries a corps of a power at war with it."""
    q = controller(state, fleet)
    if q is None or q == power or q in state.powers[power].alliances:
        return False
    loc = Location(LocationKind.ABOARD, fleet.id)
    return any(isinstance(u, Corps) and u.location == loc and relations.at_war(state, power, u.nation)
               for u in state.units.values())


def defenders(state: GameState, power: str, loc: Location) -> list[str]:
    """The enemy fleets at ``loc``, and fleets carrying corps of its enemies (a loaned corps, 8.6)."""
    return sorted(f.id for f in fleets_at(state, loc) if f.ships.total > 0 and not in_battle(state, f.id)
                  and (hostile(state, power, f) or _carries_enemy_corps(state, power, f)
                       or (f.loaned_to is not None and relations.at_war(state, power, f.nation))))  # 7.6.1


def defender_stacks(state: GameState, power: str, loc: Location) -> dict[str, list[str]]:
    """The enemy stacks at ``loc``, by the power moving them (9.1: each power's fleets there are one stack), largest in
    warships first (ties in the powers' order)."""
    stacks: dict[str, list[str]] = {}
    for fid in defenders(state, power, loc):
        f = the_fleet(state, fid)
        stacks.setdefault(controller(state, f) or f.nation, []).append(fid)
    size = {q: sum(warships(the_fleet(state, f)) for f in fleets) for q, fleets in stacks.items()}
    order = sorted(stacks, key=lambda q: (-size[q], POWERS.index(q) if q in POWERS else len(POWERS), q))
    return {q: stacks[q] for q in order}


def attacks_of(state: GameState, power: str) -> list[Any]:
    """The naval combats ``power`` began by attack this month (not interceptions)."""
    return [b for k, b in state.naval_battles.items() if k.startswith(f"{state.date}.") and b.power == power
            and not b.interception and not b.evacuation]


def verify_attack(state: GameState, power: str, action: NavalAttack, ctx: RulesContext) -> None:
    loc = graph.parse_place(ctx.map, action.place)
    running = [b for b in state.naval_battles.values() if b.step != "done" and b.power == power]
    if running:
        raise IllegalAction(f"the naval combat {running[0].id} is not over; answer its questions before starting another: one combat at a time (8.10)")
    if any(b.location == loc for b in attacks_of(state, power)):
        raise IllegalAction(f"{power} has already attacked at {action.place} this phase; one combat per place (8.10)")
    if not attackers(state, power, loc):
        raise IllegalAction(f"{power} has no fleet with warships at {action.place} to attack with; move there first (8.4.4)")
    if not defenders(state, power, loc):
        raise IllegalAction(f"there is no fleet of a power at war with {power} at {action.place} to attack (8.10, 000:1186)")
    stacks = defender_stacks(state, power, loc)
    if action.defender is not None and action.defender not in stacks:
        raise IllegalAction(f"{action.defender} has no stack {power} may attack at {action.place}; the enemy stacks there "
                            f"are {', '.join(stacks)} (9.1, 000:1210)")
    if loc.kind is LocationKind.PORT and not relations.at_war(state, power, port_nation(state, ctx, loc.site)):
        raise IllegalAction(f"{power} is not at war with the holder of {loc.site}, so it may not attack fleets in that port "
                            f"(8.10, 000:1188)")


def apply_attack(state: GameState, power: str, action: NavalAttack, ctx: RulesContext) -> engine.Outcome:
    loc = graph.parse_place(ctx.map, action.place)
    kw: dict[str, Any] = {}
    if loc.kind is LocationKind.BLOCKADE:
        owner = port_power(state, ctx, loc.site)
        if owner is None or relations.has_access(state, power, owner):
            kw["wind_gauge_to"] = "defender"  # 9.2.1: blockaders against a stack entering their port
    state = state.with_scratch(movement_over=True)
    stacks = defender_stacks(state, power, loc)  # 9.1 (000:1210): "any one defender's stack", the attacker's choice
    atk, dfn = attackers(state, power, loc), stacks[action.defender or next(iter(stacks))]
    state, back = revert_fleets_on_attack(state, power, tuple(dfn))  # 7.6.1 (000:1006-1008)
    out = engine.Outcome(state)
    if back:
        out = engine.log(state, power, "naval.loan-ends", f"{', '.join(back)}, loaned by an enemy of {power}, go back to "
                         f"their owner as {power} attacks them (7.6.1)")
    st, freed = release_attacked_fleets(out.state, power, tuple(dfn))  # 7.6.1: the owner is not at war with power
    if freed:
        dfn = [f for f in dfn if f not in freed]
        out = out.then(engine.log(st, power, "naval.loan-ends", f"{', '.join(freed)}, loaned to an enemy of {power} by a "
                                  f"power at peace with it, go back to their owner and stay out of the combat (7.6.1)"))
    state = out.state
    if not dfn:
        return out.then(engine.log(state, power, "naval.attack", f"{power} attacks at {action.place}, but no enemy fleet "
                                   f"is left there to fight (7.6.1)", place=str(loc)))
    carriers = {q for f in dfn if (q := controller(state, state.units[f])) is not None}
    for q in sorted(carriers - set(state.powers[power].wars)):
        # 8.6 (000:1132): attacking the transport of an enemy's loaned corps declares war on the carrier, no restrictions.
        st = out.state.with_war(power, q, state.date, (power,))
        out = out.then(engine.log(st, power, "naval.declare-war", f"{power} declares war on {q} to attack its transport "
                                  f"of an enemy's corps (8.6)", against=q))
    out = out.then(engine.log(out.state, power, "naval.attack", f"{power}: {', '.join(atk)} attack {', '.join(dfn)} at "
                              f"{action.place} (8.10)", place=str(loc)))
    return out.then(start_naval_battle(out.state, loc, {"attacker": atk, "defender": dfn}, ctx, power=power, **kw))


def ports_to_attack(state: GameState, power: str, ctx: RulesContext) -> list[str]:
    """Ports where ``power``'s stack ended its movement with enemy fleets it has not attacked (8.4.4, 000:1084).

    Only a port whose holder ``power`` is at war with: in another's port, entered by its leave (8.4.1, 000:1070),
    no attack may be made (8.10, 000:1194), so none is owed there."""
    out = []
    for f in state.units.values():
        if isinstance(f, Fleet) and f.location.kind is LocationKind.PORT and f.id in state.naval_moves \
                and controller(state, f) == power and f.location.site not in out:
            loc = f.location
            if state.naval_moves[f.id].start != str(loc) and defenders(state, power, loc) and attackers(state, power, loc) \
                    and relations.at_war(state, power, port_nation(state, ctx, loc.site)) \
                    and not any(b.location == loc for b in attacks_of(state, power)):
                out.append(loc.site)
    return sorted(out)


# ----------------------------------------------------------------- standing orders


@dataclass(frozen=True, slots=True)
class SetOrders(Record):
    """Set a fleet's standing orders: intercept enemy stacks, and its evasion order (8.5, 9.2.1.1)."""

    KIND = "naval.orders"
    COMMAND = "orders"
    BUTTON = "Review/Set Orders"
    #: A standing order, open in every slot of the power (``engine.is_setting``).
    SETTING = True

    fleet: UnitId
    #: Attempt to intercept enemy stacks passing by (8.5.3).
    intercept: bool = False
    #: When attacked outside an interception or port combat (9.2.1.1).
    evasion: Annotated[str, OneOf(EVASION_ORDERS)] = "no-evade"


def _own_any(state: GameState, power: str, fid: str) -> Fleet:
    f = state.units.get(fid)
    if not isinstance(f, Fleet):
        raise IllegalAction(f"there is no fleet {fid!r}", hint="fleet ids look like fleet:GB:1; 'eiapbem show units' lists them")
    if relations.power_of(state, f.nation) != power:
        raise IllegalAction(f"{fid} is not {power}'s fleet, so {power} cannot give it standing orders (8.5)")
    return f


def verify_orders(state: GameState, power: str, action: SetOrders, ctx: RulesContext) -> None:
    _own_any(state, power, action.fleet)


def apply_orders(state: GameState, power: str, action: SetOrders, ctx: RulesContext) -> engine.Outcome:
    ps = state.powers[power]
    so = ps.standing_orders
    intercept = set(so.intercept) - {action.fleet} | ({action.fleet} if action.intercept else set())
    evasion = so.evasion.remove(action.fleet) if action.fleet in so.evasion else so.evasion
    if action.evasion != "no-evade":
        evasion = evasion.set(action.fleet, action.evasion)
    so = so.replace(intercept=tuple(sorted(intercept)), evasion=evasion)
    state = state.replace(powers=state.powers.set(power, ps.replace(standing_orders=so)))
    text = f"{power} sets standing orders for {action.fleet}"  # the orders themselves stay private
    return engine.log(state, power, "naval.orders", text, fleet=action.fleet)


def evasion_order(state: GameState, fleets: tuple[str, ...]) -> str:
    """The stack's evasion order: one fleet's order covers the stack; the boldest evasion wins (9.2.1.1)."""
    best = "no-evade"
    for fid in fleets:
        f = state.units.get(fid)
        p = relations.power_of(state, f.nation) if isinstance(f, Fleet) else None
        if p is None:
            continue
        o = state.powers[p].standing_orders.evasion.get(fid, "no-evade")
        if EVASION_ORDERS.index(o) > EVASION_ORDERS.index(best):
            best = o
    return best


# ----------------------------------------------------------------- piracy (8.9)


@dataclass(frozen=True, slots=True)
class Piracy(Record):
    """Send a light fleet on a piracy mission against a power's trade (8.9, option Privateers)."""

    KIND = "naval.piracy"
    COMMAND = "piracy"
    BUTTON = "Add Selected Ships to Piracy Mission"

    fleet: UnitId
    target: PowerId


@dataclass(frozen=True, slots=True)
class AntiPiracy(Record):
    """Send a light fleet on an anti-piracy mission defending your trade (8.9, option Privateers)."""

    KIND = "naval.anti-piracy"
    COMMAND = "anti-piracy"
    BUTTON = "Add Selected Ships to Anti-Piracy Mission"

    fleet: UnitId


@dataclass(frozen=True, slots=True)
class EndMission(Record):
    """Call a fleet back from its piracy or anti-piracy mission (8.9)."""

    KIND = "naval.end-mission"
    COMMAND = "end-mission"
    BUTTON = "View Fleets on Piracy Mission"

    fleet: UnitId


def _mission_fleet(state: GameState, power: str, fid: str, ctx: RulesContext) -> Fleet:
    if not state.options.privateers:
        raise IllegalAction("this game does not use the Privateers option (4.1.1), so there are no piracy missions (8.9)")
    f = own_fleet(state, power, fid, "send on a mission")
    if f.ships.heavy or f.ships.transport or not f.ships.light:
        raise IllegalAction(f"{fid} holds {f.ships.describe()}: only fleets of light ships go on piracy missions (8.9, 000:1036)")
    return f


def verify_piracy(state: GameState, power: str, action: Piracy, ctx: RulesContext) -> None:
    f = _mission_fleet(state, power, action.fleet, ctx)
    if action.target == power:
        raise IllegalAction(f"{power} cannot prey on its own trade; choose another power as the target (8.9)")
    if f.id in state.naval_moves and state.naval_moves[f.id].legs:
        raise IllegalAction(f"{f.id} has moved this phase; send it on a mission in a later naval phase (8.9)")


def apply_piracy(state: GameState, power: str, action: Piracy, ctx: RulesContext) -> engine.Outcome:
    f = the_fleet(state, action.fleet)
    state = state.with_unit(f.replace(mission=FleetMission.PIRACY, piracy_target=action.target, piracy_months=0))
    return engine.log(state, power, "naval.piracy", f"{power}: {f.id} goes on piracy against {action.target} (8.9)",
                      fleet=f.id, target=action.target)


def verify_anti(state: GameState, power: str, action: AntiPiracy, ctx: RulesContext) -> None:
    f = _mission_fleet(state, power, action.fleet, ctx)
    if f.id in state.naval_moves and state.naval_moves[f.id].legs:
        raise IllegalAction(f"{f.id} has moved this phase; send it on a mission in a later naval phase (8.9)")


def apply_anti(state: GameState, power: str, action: AntiPiracy, ctx: RulesContext) -> engine.Outcome:
    f = the_fleet(state, action.fleet)
    state = state.with_unit(f.replace(mission=FleetMission.ANTI_PIRACY, piracy_target=None, piracy_months=0))
    return engine.log(state, power, "naval.anti-piracy", f"{power}: {f.id} goes on anti-piracy duty (8.9)", fleet=f.id)


def verify_end(state: GameState, power: str, action: EndMission, ctx: RulesContext) -> None:
    f = own_fleet(state, power, action.fleet, "call back")
    if f.mission is FleetMission.NONE:
        raise IllegalAction(f"{f.id} is on no piracy or anti-piracy mission; nothing to end (8.9)")


def apply_end(state: GameState, power: str, action: EndMission, ctx: RulesContext) -> engine.Outcome:
    f = the_fleet(state, action.fleet)
    state = state.with_unit(f.replace(mission=FleetMission.NONE, piracy_target=None, piracy_months=0))
    return engine.log(state, power, "naval.end-mission", f"{power}: {f.id} comes back from its {f.mission} mission (8.9)",
                      fleet=f.id)


# ----------------------------------------------------------------- candidates (engine.legal_actions)


def _attack_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[NavalAttack]:
    places = {graph.place_name(f.location) for f in candidates.own_fleets(state, power)
              if f.location.kind is not LocationKind.ABOARD}
    yield from (NavalAttack(p) for p in sorted(places))


def _orders_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[SetOrders]:
    for fid, f in sorted(state.units.items()):
        if isinstance(f, Fleet) and f.location.kind is not LocationKind.POOL and relations.power_of(state, f.nation) == power:
            yield from (SetOrders(fid, intercept, evasion) for intercept in (False, True) for evasion in EVASION_ORDERS)


def _piracy_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[Piracy]:
    if state.options.privateers:
        for f in candidates.own_fleets(state, power):
            yield from (Piracy(f.id, target) for target in candidates.other_powers(state, power))


def _anti_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[AntiPiracy]:
    if state.options.privateers:
        yield from (AntiPiracy(f.id) for f in candidates.own_fleets(state, power))


def _end_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[EndMission]:
    yield from (EndMission(f.id) for f in candidates.own_fleets(state, power) if f.mission is not FleetMission.NONE)


ACTIONS = (
    (NavalAttack, verify_attack, apply_attack, _attack_candidates),
    (Piracy, verify_piracy, apply_piracy, _piracy_candidates),
    (AntiPiracy, verify_anti, apply_anti, _anti_candidates),
    (EndMission, verify_end, apply_end, _end_candidates),
)
ORDER_ACTIONS = ((SetOrders, verify_orders, apply_orders, _orders_candidates),)
