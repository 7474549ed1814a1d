"""The computer's naval slot (8.4-8.5, 8.8): legal, cautious fleet movement.

Every level plays the same simple plan (the AI issue makes it strong):

1. standing orders: each of its fleets with warships in a port or blockade box is
   ordered to intercept (8.5, "Review/Set Orders");
2. a stack in a blockade box of a port whose holder it is not at war with leaves it
   (8.8, 000:1170);
3. a stack at sea or in a blockade box that is outmatched — fewer warships than the enemy
   fleets in its place, the sea areas next to it and the ports on them — returns to its nearest
   unblockaded friendly port (the ports 9.4.1's retreat would choose);
4. every other stack stays where it is: a blockade it can hold is kept.

Each move is tried through the rules (``Builder.try_``); a refused one is shortened to
the sea areas the fleet can reach this slot, or dropped.
"""

from __future__ import annotations

from typing import Any

from eiapbem.rules.model import Fleet, Location, LocationKind
from eiapbem.rules.naval import graph
from eiapbem.rules.naval.attack import SetOrders
from eiapbem.rules.naval.battle import retreat_options
from eiapbem.rules.naval.common import controller, enemy_fleets_at, fleets_at, must_leave_box, warships
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


def plan(b: Any, lvl: Any) -> None:
    m = b.ctx.map
    orders = b.state.powers[b.power].standing_orders.intercept
    for f in _own_fleets(b):
        if f.location.kind in (PORT, BOX) and warships(f) and f.id not in orders:
            b.try_(SetOrders(fleet=f.id, intercept=True))
    done: set[Location] = set()
    for f in _own_fleets(b):
        f = b.state.units[f.id]
        if f.location in done or may_continue(b.state, f) is not None or f.id in b.state.naval_moves:
            continue
        done.add(f.location)
        if f.location.kind is PORT:
            continue
        own = sum(warships(g) for g in fleets_at(b.state, f.location) if controller(b.state, g) == b.power)
        leave = must_leave_box(b.state, b.ctx, b.power, f)
        if leave or threat(b.state, m, b.power, f.location) > own:
            _go_home(b, f)
        if leave and b.state.units[f.id].location == f.location:  # no port within reach: any open sea next to it
            for s in m.area(f.location.site).port.seas:
                if b.try_(MoveFleet(fleet=f.id, path=s, stack=True)):
                    break
