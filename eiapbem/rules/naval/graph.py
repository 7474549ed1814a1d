"""Where fleets can go: sea areas, ports and blockade boxes as one graph (8.4.1-8.4.2; 000:1062-1070).

A place is a ``Location`` of kind ``sea``, ``port`` or ``blockade``.  The steps and their costs:

- sea area to an adjacent sea area: 1 (8.4.1);
- sea area to a blockade box its port touches, and back: 1 (8.4.2);
- port to its own blockade box, and back: 0; a fleet entering or leaving a port passes
  through the box (8.4.2, 000:1068), so a port costs 1 from any sea area its box touches.

A box entered from a sea area leads only into its port (a fleet may not cut across it from sea to sea, 8.4.2,
as ``movement`` checks): the search (``distances``, ``path_to``) tells a box so entered from one it starts in or
leaves its port by.

In winter (January, February, December; 13.1) no fleet enters or leaves a sea area north of
the ice line (8.4.1, 000:1064), nor a port the map marks as frozen (the project's reading,
docs/decisions.md "Naval phase").  Everything here is a pure function of the map and the date.
"""

from __future__ import annotations

import heapq
import re
from typing import Any

from eiapbem.core.errors import IllegalAction
from eiapbem.rules.model import GameState, Location, LocationKind

#: 8.4 (000:1058): seven movement points per fleet a naval phase.
NAVAL_ALLOWANCE = 7
#: 13.1 (000:2358): the winter months.
WINTER_MONTHS = (1, 2, 12)

SEA, PORT, BOX = LocationKind.SEA, LocationKind.PORT, LocationKind.BLOCKADE
_TOKEN = re.compile(r"(?:(sea|port|box|blockade):)?([a-z0-9]+(?:-[a-z0-9]+)*)")


def winter(state: GameState) -> bool:
    return state.date.month in WINTER_MONTHS


def place_name(loc: Location) -> str:
    """How a player writes a place: ``north-sea``, ``brest`` (the port), ``box:brest``."""
    if loc.kind is BOX:
        return f"box:{loc.site}"
    return loc.site


def parse_place(m: Any, token: str) -> Location:
    """A place from a path token: a sea area, a port (its land area's slug, or ``port:x``) or ``box:x``."""
    match = _TOKEN.fullmatch(token.strip())
    if match is None:
        raise IllegalAction(f"{token!r} is not a place at sea; write a sea area (north-sea), a port (brest) or a "
                            f"blockade box (box:brest)")
    kind, site = match.groups()
    if kind in (None, "sea") and m.is_sea(site):
        return Location(SEA, site)
    if m.is_area(site) and m.area(site).port is not None:
        if kind in ("box", "blockade"):
            return Location(BOX, site)
        if kind in (None, "port"):
            return Location(PORT, site)
    if m.is_area(site):
        raise IllegalAction(f"{site} has no port, so no fleet can go there (8.4.2); name a sea area or a port")
    raise IllegalAction(f"there is no sea area or port {site!r} on the map; check the spelling",
                        hint="'eiapbem show area NAME' shows a sea area's ports")


def parse_path(m: Any, path: str) -> list[Location]:
    tokens = [t for t in path.split(",")]
    if not path or any(not t.strip() for t in tokens):
        raise IllegalAction(f"--path {path!r} is not a list of places separated by commas, like english-channel,box:brest")
    return [parse_place(m, t) for t in tokens]


def neighbours(m: Any, loc: Location) -> list[tuple[Location, int]]:
    """The places one step from ``loc``, with their cost (8.4.1-8.4.2)."""
    if loc.kind is SEA:
        out = [(Location(SEA, n), 1) for n in m.sea_neighbours(loc.site)]
        out += [(Location(BOX, p), 1) for p in m.ports_on(loc.site)]
        return out
    if loc.kind is BOX:
        return [(Location(PORT, loc.site), 0)] + [(Location(SEA, s), 1) for s in m.area(loc.site).port.seas]
    if loc.kind is PORT:
        return [(Location(BOX, loc.site), 0)]
    return []


def frozen(state: GameState, m: Any, loc: Location) -> bool:
    """No fleet enters or leaves this place this month (8.4.1: ice line in winter)."""
    if not winter(state):
        return False
    if loc.kind is SEA:
        return m.sea(loc.site).ice
    return bool(m.area(loc.site).port.ice)


def expand(m: Any, here: Location, path: list[Location]) -> list[Location]:
    """The path with the blockade boxes a fleet passes between a sea area and a port put in (8.4.2, 000:1068)."""
    out: list[Location] = []
    at = here
    for to in path:
        if to.kind is PORT and at.kind is SEA:
            out.append(Location(BOX, to.site))
        elif at.kind is PORT and to.kind is SEA:
            out.append(Location(BOX, at.site))
        out.append(to)
        at = to
    return out


def step_cost(m: Any, at: Location, to: Location) -> int | None:
    """The cost of one step, or ``None`` when ``to`` is not next to ``at``."""
    for n, cost in neighbours(m, at):
        if n == to:
            return cost
    return None


def _search(state: GameState, m: Any, start: Location, passable: Any) -> tuple[dict, dict]:
    """Dijkstra over (place, entered a box from a sea area): such a box leads only into its port (8.4.2)."""
    first = (start, False)
    dist = {first: 0}
    prev: dict[tuple[Location, bool], tuple[Location, bool]] = {}
    heap = [(0, str(start), False, start)]
    while heap:
        d, _, inward, at = heapq.heappop(heap)
        if d > dist.get((at, inward), d):
            continue
        for to, cost in neighbours(m, at):
            if inward and to.kind is SEA:
                continue  # 8.4.2: no cutting across a box from sea to sea
            if cost and (frozen(state, m, at) or frozen(state, m, to)):
                continue  # 8.4.1: neither enter nor leave a frozen sea area or port
            if frozen(state, m, to):
                continue
            if passable is not None and not passable(to):
                continue
            node = (to, at.kind is SEA and to.kind is BOX)
            nd = d + cost
            if nd < dist.get(node, nd + 1):
                dist[node] = nd
                prev[node] = (at, inward)
                heapq.heappush(heap, (nd, str(to), node[1], to))
    return dist, prev


def _best(dist: dict) -> dict[Location, int]:
    """The least cost of each place over the ways it was entered, ordered as the search found them."""
    out: dict[Location, int] = {}
    for (loc, _inward), d in dist.items():
        if d < out.get(loc, d + 1):
            out[loc] = d
    return out


def distances(state: GameState, m: Any, start: Location, *, passable: Any = None) -> dict[Location, int]:
    """Movement points from ``start`` to every place a fleet can reach this month (Dijkstra, ties by name).

    ``passable(loc)`` may forbid entering places (the start is always allowed)."""
    return _best(_search(state, m, start, passable)[0])


def path_to(state: GameState, m: Any, start: Location, goal: Location, *, passable: Any = None) -> list[Location] | None:
    """A cheapest path from ``start`` to ``goal`` (without ``start``), or None."""
    dist, prev = _search(state, m, start, passable)
    # a box goal is entered from the sea rather than through its port at the same cost
    ends = sorted((d, not inward) for (loc, inward), d in dist.items() if loc == goal)
    if not ends:
        return None
    out = [(goal, not ends[0][1])]
    while out[-1] != (start, False):
        out.append(prev[out[-1]])
    out.reverse()
    return [loc for loc, _ in out[1:]]
