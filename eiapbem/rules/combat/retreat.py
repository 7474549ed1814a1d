"""Retreat after losing (or withdrawing from) a land combat (11.2.10, 000:1840-1852).

The loser moves one area at a time into the adjacent land area closest to the
nearest depot of a nation in the force, or, with no such depot on the map, to
the force's nearest controlled national capital.  Closeness is counted in
land borders (crossing arrows are never used, 000:1848); ties go to the first
area id.  An area holding an unbesieged enemy corps, Cossack, Freikorps or
depot garrison is passed through (the force goes one area further); no area
is entered twice (the battle area counts as entered); with nowhere to go the
force surrenders (000:1852).
"""

from __future__ import annotations

from collections import deque
from typing import Any, Iterable

from eiapbem.rules import control
from eiapbem.rules.model.units import Corps, Depot, Garrison, LocationKind


def _distances(m: Any, targets: Iterable[str]) -> dict[str, int]:
    dist: dict[str, int] = {}
    queue: deque[str] = deque()
    for t in sorted(set(targets)):
        dist[t] = 0
        queue.append(t)
    while queue:
        here = queue.popleft()
        for nb in m.land_neighbours(here):
            if nb not in dist:
                dist[nb] = dist[here] + 1
                queue.append(nb)
    return dist


def retreat_targets(state: Any, m: Any, powers: tuple[str, ...]) -> tuple[str, ...]:
    """Areas with a depot of these powers; else their controlled national capital cities (000:1842: the
    capital *city*, so its holder is ``control.city_holder``, not the record of the area around it)."""
    depots = sorted(
        u.location.site for u in state.units.values()
        if isinstance(u, Depot) and u.power in powers and u.location.kind in (LocationKind.AREA, LocationKind.CITY)
    )
    if depots:
        return tuple(depots)
    caps = []
    for p in powers:
        for cap in m.national_capitals(p):
            if control.city_holder(state, m, cap) == p:
                caps.append(cap)
    return tuple(sorted(caps))


def blocked_by_enemy(state: Any, area: str, enemies: tuple[str, ...], power_of: Any) -> bool:
    """An unbesieged enemy corps (Cossack, Freikorps) or depot garrison stands in ``area`` (000:1846)."""
    for u in state.units.values():
        if isinstance(u, Corps) and u.location.kind is LocationKind.AREA and u.location.site == area:
            if power_of(u) in enemies and u.factors.total > 0:
                return True
        if isinstance(u, Garrison) and u.location.kind is LocationKind.AREA and u.location.site == area:
            if power_of(u) in enemies and u.factors.total > 0:
                return True
    return False


def retreat_path(
    state: Any, m: Any, start: str, powers: tuple[str, ...], enemies: tuple[str, ...], power_of: Any
) -> tuple[str, ...] | None:
    """The areas entered, in order (the last is where the force stops), or None: it must surrender."""
    dist = _distances(m, retreat_targets(state, m, powers))
    far = len(m.areas) + 1
    visited = {start}
    path: list[str] = []
    here = start
    while True:
        options = [a for a in m.land_neighbours(here) if a not in visited]
        if not options:
            return None
        nxt = min(options, key=lambda a: (dist.get(a, far), a))
        path.append(nxt)
        visited.add(nxt)
        if not blocked_by_enemy(state, nxt, enemies, power_of):
            return tuple(path)
        here = nxt
