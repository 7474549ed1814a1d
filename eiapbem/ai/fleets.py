"""What the computer's naval slot (``eiapbem.ai.naval``) and its amphibious play (``eiapbem.ai.amphibious``) both ask
of the fleets: the power's own fleets at sea, in port or in a blockade box, and the enemy warships that threaten a place
(8.5.3: those that could intercept there), and the coast a stack carrying corps may have to land on (10.4.5)."""

from __future__ import annotations

from typing import Any

import eiapbem.ai.assess as assess
from eiapbem.rules.control import city_power
from eiapbem.rules.model import Corps, Fleet, Location, LocationKind
from eiapbem.rules.naval import graph
from eiapbem.rules.naval.common import controller, enemy_fleets_at, warships
from eiapbem.rules.naval.transport import relief_ports

SEA, PORT, BOX = LocationKind.SEA, LocationKind.PORT, LocationKind.BLOCKADE


def own_fleets(b: Any) -> list[Fleet]:
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


def carrying(b: Any, f: Fleet) -> bool:
    """``f`` carries a corps (8.6)."""
    here = Location(LocationKind.ABOARD, f.id)
    return any(isinstance(u, Corps) and u.location == here for u in b.state.units.values())


def nearest(b: Any, fleets: list[Fleet], loc: Location) -> list[str]:
    """The ids of ``fleets`` that can sail to ``loc`` within a naval phase's allowance, nearest first (then by id)."""
    m = b.ctx.map
    options = []
    for f in fleets:
        d = graph.distances(b.state, m, f.location).get(loc)
        if d is not None and d <= graph.NAVAL_ALLOWANCE:
            options.append((d, f.id))
    return [i for _, i in sorted(options)]


def coast(b: Any, sea: str) -> tuple[str, ...]:
    """The areas a corps of the power carried to ``sea`` may have to land in: its coast, or only the power's port
    cities on it that are besieged, or that enemy field corps stand beside and may besiege before the land slot: a
    landing on that coast must then relieve them (``transport.relief_ports``, 10.4.5), so a stack never sails where
    the rules would set it down beside the besiegers."""
    st, m = b.state, b.ctx.map
    areas = tuple(m.coastal_areas(sea))
    mine = [a for a in areas if m.area(a).port is not None and city_power(st, m, a) == b.power]
    at_risk = [a for a in mine if assess.forces_in(st, b.ctx, a, b.power).enemy]
    return tuple(sorted(set(relief_ports(st, b.ctx, areas, b.power)) | set(at_risk))) or areas


__all__ = ["carrying", "coast", "nearest", "own_fleets", "threat"]
