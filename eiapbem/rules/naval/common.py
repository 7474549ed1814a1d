"""What the naval phase's rules share: whose a fleet is, who is an enemy, who may use a port or a box.

Hostility comes from ``eiapbem.rules.relations`` (``at_war``, ``unit_power``); port control from
``eiapbem.rules.control`` (``port_holder``, 13.5).  Every list is ordered by id.
"""

from __future__ import annotations

from typing import Any

from eiapbem.core.errors import IllegalAction
from eiapbem.rules import control, engine, relations
from eiapbem.rules.model import POOL, POWERS, Depot, Fleet, FleetMission, GameState, Location, LocationKind, NavalMove
from eiapbem.rules.naval import battle as nb
from eiapbem.rules.engine import RulesContext

NELSON = nb.NELSON


def controller(state: GameState, fleet: Any) -> str | None:
    """The power moving ``fleet`` (or a corps) now: the ally it is loaned to, or its nation's power (8.4: minors with
    their controller)."""
    return relations.unit_power(state, fleet)


def fleets_at(state: GameState, loc: Location) -> list[Fleet]:
    return [u for u in control.units_at(state, loc.site) if isinstance(u, Fleet) and u.location == loc]


def warships(f: Fleet) -> int:
    return f.ships.heavy + f.ships.light


def hostile(state: GameState, power: str, fleet: Fleet) -> bool:
    """``fleet`` belongs to a nation at war with ``power``."""
    return relations.at_war(state, power, fleet.loaned_to or fleet.nation)


def enemy_fleets_at(state: GameState, loc: Location, power: str) -> list[Fleet]:
    return [f for f in fleets_at(state, loc) if f.ships.total > 0 and hostile(state, power, f)]


def in_battle(state: GameState, fid: str) -> bool:
    return any(b.step != "done" and fid in b.attackers + b.defenders for b in state.naval_battles.values())


def port_nation(state: GameState, ctx: RulesContext, port: str) -> str:
    return control.port_holder(state, ctx, port)


def port_power(state: GameState, ctx: RulesContext, port: str) -> str | None:
    """The major power holding ``port`` (13.5), or None for a neutral minor's port."""
    return relations.power_of(state, port_nation(state, ctx, port))


def may_enter_port(state: GameState, ctx: RulesContext, power: str, port: str, *, carrying: bool = False) -> str | None:
    """Why ``power``'s fleets may not enter ``port`` (8.4.2, 000:1070), or None.

    A neutral minor's port (no major power acts for it, 6.1.1-6.1.2) is closed to the major powers' fleets
    (6.1.1, 000:538) except to fleets carrying corps, which 8.6.1 (000:1150) lets enter "neutral minor controlled"
    ports: ``carrying`` says the stack has a corps aboard (docs/decisions.md, 6.1 "Fleets and neutral ports")."""
    owner = port_power(state, ctx, port)
    if owner is None:
        if carrying or relations.at_war(state, power, port_nation(state, ctx, port)):
            return None  # a transport (8.6.1), or a minor at war with it (6.2)
        return (f"{port} is a port of the neutral {port_nation(state, ctx, port)}: the major powers may not enter a "
                f"neutral minor's ports (6.1.1, 000:538) except with corps aboard (8.6.1, 000:1150)")
    if relations.has_access(state, power, owner):  # its own port, or access (8.4.2, 6.11)
        return None
    if relations.at_war(state, power, owner):
        if enemy_fleets_at(state, Location(LocationKind.PORT, port), power):
            return None  # to attack the fleets there (8.4.2)
        return (f"{port} is held by {owner}, with which {power} is at war, and no enemy fleet is in it: a fleet enters an "
                f"enemy port only to attack fleets there (8.4.2, 000:1070); blockade it from box:{port} instead")
    return (f"{port} is held by {owner}, which has not given {power} permission to use its ports (8.4.2, 000:1070); "
            f"ask for access in the diplomacy phase")


def may_stay_in_box(state: GameState, ctx: RulesContext, power: str, port: str) -> str | None:
    """Why ``power``'s stack may not end its movement in ``port``'s blockade box (8.8, 000:1168; 8.4.2), or None."""
    nation = port_nation(state, ctx, port)
    if relations.at_war(state, power, nation):
        return None
    if enemy_fleets_at(state, Location(LocationKind.BLOCKADE, port), power) or \
            enemy_fleets_at(state, Location(LocationKind.PORT, port), power):
        return None
    holder = f"{port} is {power}'s own port" if nation == power else \
        f"{power} is not at war with {nation}, which holds {port}"  # "GB is not at war with GB" read as nonsense
    return (f"{holder}, and no enemy fleet is in its port or blockade box, so the stack may not stay in box:{port} "
            f"(8.8, 000:1168); end the path elsewhere")


def must_leave_box(state: GameState, ctx: RulesContext, power: str, fleet: Fleet) -> bool:
    """8.8 (000:1170): a stack that began the naval phase in a box of a port whose holder it is not at war with leaves it
    (unless enemy fleets are in the box or port, which 8.4.2 lets it blockade)."""
    loc = fleet.location
    if loc.kind is not LocationKind.BLOCKADE or controller(state, fleet) != power:
        return False
    return may_stay_in_box(state, ctx, power, loc.site) is not None  # 8.4.2: unless enemy fleets are there


def record_of(state: GameState, fleet: Fleet) -> NavalMove:
    return state.naval_moves.get(fleet.id) or NavalMove(start=str(fleet.location))


def own_fleet(state: GameState, power: str, fid: str, what: str) -> Fleet:
    """``fid`` is a fleet on the map that ``power`` moves this month."""
    f = state.units.get(fid)
    if not isinstance(f, Fleet):
        raise IllegalAction(f"there is no fleet {fid!r}", hint="fleet ids look like fleet:GB:1; 'eiapbem show units' lists them")
    if controller(state, f) != power:
        raise IllegalAction(f"{fid} is {controller(state, f) or f.nation}'s, not {power}'s, so {power} cannot {what} it (8.4)")
    if f.location.kind not in (LocationKind.SEA, LocationKind.PORT, LocationKind.BLOCKADE):
        raise IllegalAction(f"{fid} is not on the map (it is in the {f.location.kind}), so it cannot {what}")
    return f


def powers_in_order(powers: set[str]) -> list[str]:
    return [p for p in POWERS if p in powers]


def on_mission(f: Fleet) -> bool:
    return f.mission is not FleetMission.NONE


def lose_fleet_depots(state: GameState, fleets: list[str], why: str) -> engine.Outcome:
    """10.5.4 (000:1572): a fleet carrying a depot moves for any reason: the depot is lost (back to the pool)."""
    out = engine.Outcome(state)
    for u in sorted(state.units.values(), key=lambda u: u.id):
        if isinstance(u, Depot) and u.location.kind is LocationKind.ABOARD and u.location.site in fleets:
            st = out.state.with_unit(u.replace(location=POOL))
            out = out.then(engine.log(st, u.power, "naval.depot-lost", f"{u.power}: {u.id} on {u.location.site} is lost: "
                                      f"the fleet {why} (10.5.4)", depot=u.id))
    return out
