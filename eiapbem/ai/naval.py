"""The computer's naval slot (8.4-8.5, 8.8, 8.10): fleets that blockade, intercept, fight and run.

1. standing orders: each of its fleets with warships in a port or blockade box is
   ordered to intercept (8.5, "Review/Set Orders");
2. a stack in a blockade box of a port whose holder it is not at war with leaves it
   (8.8, 000:1170);
3. a stack at sea or in a blockade box that is outmatched — fewer warships than the enemy
   fleets in its place, the sea areas next to it and the ports on them — returns to its nearest
   unblockaded friendly port (the ports 9.4.1's retreat would choose);
4. blockades it can hold (levels with a ``blockade_ratio``): a stack in port, or at sea with
   nothing to do, sails into the blockade box of the nearest enemy port within this slot's 7
   movement points (8.4, 000:1058) where its warships are at least ``blockade_ratio`` percent
   of the enemy's in that port, its box and the seas around it (``threat``); one stack per
   port, a blockade already held is kept;
5. attacks (8.10; levels with an ``attack_ratio``): a stack that shares its sea area or
   blockade box with enemy fleets it outnumbers by ``attack_ratio`` percent stays there, and
   after all its movement it attacks them (one combat at a time);
6. every other stack stays where it is.

Each move is tried through the rules (``Builder.try_``); a refused one is shortened to
the sea areas the fleet can reach this slot, or dropped.  Escorting and landing invasions
are not built: the land AI (``ai/land*``) loads no corps yet, so there is nothing to escort.
"""

from __future__ import annotations

from typing import Any

from eiapbem.rules.model import Fleet, Location, LocationKind
from eiapbem.rules.naval import graph
from eiapbem.rules.naval.attack import NavalAttack, SetOrders, attackers, defenders
from eiapbem.rules.naval.battle import retreat_options
from eiapbem.rules.naval.common import controller, enemy_fleets_at, fleets_at, must_leave_box, port_power, warships
from eiapbem.rules.naval.movement import MoveFleet, may_continue

SEA, PORT, BOX = LocationKind.SEA, LocationKind.PORT, LocationKind.BLOCKADE


def _own_fleets(b: Any) -> list[Fleet]:
    return sorted((u for u in b.state.units.values() if isinstance(u, Fleet) and controller(b.state, u) == b.power
                   and u.location.kind in (SEA, PORT, BOX)), key=lambda f: f.id)


def threat(state: Any, m: Any, power: str, loc: Location) -> int:
    """Enemy warships in ``loc``, the sea areas next to it and the ports and boxes on its sea areas."""
    seas = [loc.site] if loc.kind is SEA else list(m.area(loc.site).port.seas) if loc.kind is BOX else []
    places = {loc}
    for s in seas:
        places.add(Location(SEA, s))
        if loc.kind is SEA:
            places.update(Location(SEA, n) for n in m.sea_neighbours(s))
        for p in m.ports_on(s):  # fleets in ports and boxes touching it can sail out or intercept (8.5.3)
            places.update((Location(PORT, p), Location(BOX, p)))
    return sum(warships(f) for p in sorted(places, key=str) for f in enemy_fleets_at(state, p, power))


def _go_home(b: Any, fleet: Fleet) -> None:
    state, m = b.state, b.ctx.map
    options = retreat_options(state, b.ctx, b.power, fleet.location)
    ports = [Location(PORT, o.split(":", 1)[1]) for o in options if o.startswith("port:")]
    for port in ports:
        path = graph.path_to(state, m, fleet.location, port)
        if not path:
            continue
        names = [graph.place_name(p) for p in path if p.kind is not BOX or p == path[-1]]
        # As far as the rules allow: the whole way, else the longest run of sea areas.
        for n in range(len(names), 0, -1):
            if names[n - 1] != graph.place_name(port) and not b.ctx.map.is_sea(names[n - 1]):
                continue
            if b.try_(MoveFleet(fleet=fleet.id, path=",".join(names[:n]), stack=True)):
                return


def _blockade_targets(b: Any, lvl: Any, start: Location, own: int, taken: set[str]) -> list[Location]:
    """Blockade boxes of enemy ports ``own`` warships at ``start`` can reach and hold, nearest first."""
    state, m = b.state, b.ctx.map
    wars = state.powers[b.power].wars
    dist = graph.distances(state, m, start)
    out = []
    for loc, d in dist.items():
        if loc.kind is not BOX or d > graph.NAVAL_ALLOWANCE or loc.site in taken:
            continue
        holder = port_power(state, b.ctx, loc.site)
        if holder is None or holder not in wars:
            continue
        enemy = threat(state, m, b.power, loc) + sum(warships(f) for f in enemy_fleets_at(state, Location(PORT, loc.site), b.power))
        if own * 100 >= enemy * lvl.blockade_ratio:
            out.append((d, loc.site, loc))
    return [loc for _, _, loc in sorted(out)]


def _blockade(b: Any, lvl: Any, f: Fleet, own: int, taken: set[str]) -> bool:
    for box in _blockade_targets(b, lvl, f.location, own, taken)[:3]:
        path = graph.path_to(b.state, b.ctx.map, f.location, box)
        if not path:
            continue
        names = [graph.place_name(p) for p in path if p.kind is not BOX or p == path[-1]]
        if b.try_(MoveFleet(fleet=f.id, path=",".join(names), stack=True)):
            taken.add(box.site)
            return True
    return False


def _beatable(b: Any, lvl: Any, loc: Location) -> bool:
    """Enemy fleets at ``loc`` that its own there outnumber by the level's ``attack_ratio`` (0: never)."""
    if not lvl.attack_ratio:
        return False
    atk, dfn = attackers(b.state, b.power, loc), defenders(b.state, b.power, loc)
    if not atk or not dfn:
        return False
    own = sum(warships(b.state.units[i]) for i in atk)
    enemy = sum(warships(b.state.units[i]) for i in dfn)
    return own * 100 >= max(1, enemy) * lvl.attack_ratio


def _attack(b: Any, lvl: Any) -> None:
    """8.10: attack where ``_beatable``, one combat at a time (each fought out before the next)."""
    for loc in sorted({f.location for f in _own_fleets(b)}, key=str):
        if b.state.pending:
            return
        if _beatable(b, lvl, loc):
            b.try_(NavalAttack(place=graph.place_name(loc)))


def plan(b: Any, lvl: Any) -> None:
    m = b.ctx.map
    orders = b.state.powers[b.power].standing_orders.intercept
    for f in _own_fleets(b):
        if f.location.kind in (PORT, BOX) and warships(f) and f.id not in orders:
            b.try_(SetOrders(fleet=f.id, intercept=True))
    done: set[Location] = set()
    taken = {f.location.site for f in _own_fleets(b) if f.location.kind is BOX and warships(f)}
    for f in _own_fleets(b):
        f = b.state.units[f.id]
        if f.location in done or may_continue(b.state, f) is not None or f.id in b.state.naval_moves:
            continue
        done.add(f.location)
        own = sum(warships(g) for g in fleets_at(b.state, f.location) if controller(b.state, g) == b.power)
        if f.location.kind is PORT:
            shut = enemy_fleets_at(b.state, Location(BOX, f.location.site), b.power)  # blockaded: it stays (8.8)
            # a stack that just came home rests there (a move with --stack would take it along, 8.4.3)
            came = any(g.id in b.state.naval_moves for g in fleets_at(b.state, f.location))
            if lvl.blockade_ratio and own and b.state.powers[b.power].wars and not shut and not came:
                _blockade(b, lvl, f, own, taken)
            continue
        leave = must_leave_box(b.state, b.ctx, b.power, f)
        if not leave and _beatable(b, lvl, f.location):
            continue  # it stays to attack them (5.)
        if leave or threat(b.state, m, b.power, f.location) > own:
            _go_home(b, f)
        elif f.location.kind is SEA and lvl.blockade_ratio and own and b.state.powers[b.power].wars:
            _blockade(b, lvl, f, own, taken)
        if leave and b.state.units[f.id].location == f.location:  # no port within reach: any open sea next to it
            for s in m.area(f.location.site).port.seas:
                if b.try_(MoveFleet(fleet=f.id, path=s, stack=True)):
                    break
    if lvl.attack_ratio:
        _attack(b, lvl)
