"""Supply sources and supply chains (10.3.3, 10.5.3; 000:1322-1348, 000:1536-1560).

What the reinforcement phase needs of section 10: which of a power's depots
form a valid supply chain back to a supply source, and how many depots long
the chain is at each of them (7.2.2, 000:942-948: six depots, three for
militia).  Foraging and the cost of depot supply (10.5.1, 10.5.2) are not here.

Also what supply, reinforcement and movement share about an area: home
areas, blocked areas, enemy corps and fleets.  Who controls a nation, a city
or a unit, who is at war with whom, whether a city is besieged or a port
blockaded: ``eiapbem.rules.relations`` and ``eiapbem.rules.control``.

Every function is a pure function of the state and the map; results are
ordered by id.
"""

from __future__ import annotations


from eiapbem.rules.control import ceded_to, city_power, corps_at, is_besieged, is_blockaded, newly_taken, units_at
from eiapbem.rules.model import (
    POWERS,
    Corps,
    Depot,
    Fleet,
    GameState,
    Garrison,
    LocationKind,
    Phase,
)
from eiapbem.rules.relations import allied, at_war, power_of, unit_power

#: 13.1 (000:2358): January, February and December are winter months.
WINTER_MONTHS = (1, 2, 12)

#: 7.2.2 (000:944-946): the longest supply chain, in depots, for placing factors.
MAX_CHAIN = 6
MAX_CHAIN_MILITIA = 3


# ----------------------------------------------------------------- control and hostility


def is_home_area(state: GameState, m, area: str, nation: str) -> bool:
    """Inside ``nation``'s home nation (a power) or borders (a minor with its joined districts), excluding
    home provinces ceded to another power (7.2.2, 000:932)."""
    a = m.area(area)
    if nation in POWERS:
        return a.nation == nation and ceded_to(state, a.province) is None
    minor = state.minors.get(nation)
    districts = (nation,) + (minor.districts if minor is not None else ())
    return a.nation in districts


def garrisons_at(state: GameState, area: str) -> list[Garrison]:
    return [u for u in units_at(state, area) if isinstance(u, Garrison)]


def unit_unbesieged(state: GameState, m, unit: Corps | Garrison) -> bool:
    """A unit is besieged only inside a besieged city (10.4.3)."""
    if unit.location.kind is LocationKind.CITY:
        return not is_besieged(state, m, unit.location.site)
    return unit.location.kind is LocationKind.AREA


def enemy_fleet_in_sea(state: GameState, sea: str, power: str) -> bool:
    return any(
        isinstance(u, Fleet) and u.location.kind is LocationKind.SEA and u.location.site == sea
        and at_war(state, power, u.loaned_to or u.nation)
        for u in state.units.values()
    )


def blocked_for(state: GameState, m, area: str, power: str) -> bool:
    """10.3.3 (000:1334): an unbesieged enemy corps (any kind) or garrison is in ``area`` and no
    unbesieged friendly or allied corps or garrison is."""
    units: list[Corps | Garrison] = [*corps_at(state, area), *garrisons_at(state, area)]
    enemy = friend = False
    for u in units:
        if not unit_unbesieged(state, m, u):
            continue
        ctl = unit_power(state, u)
        if allied(state, power, ctl):
            friend = True
        elif at_war(state, power, u.nation if ctl is None else ctl):
            enemy = True
    return enemy and not friend


def enemy_corps_in(state: GameState, area: str, power: str, *, outside_city: bool = False) -> bool:
    """Whether a corps at war with ``power`` is in ``area`` (outside its city only, if asked)."""
    for c in corps_at(state, area):
        if outside_city and c.location.kind is not LocationKind.AREA:
            continue
        ctl = unit_power(state, c)
        if at_war(state, power, c.nation if ctl is None else ctl):
            return True
    return False


# ----------------------------------------------------------------- supply chains


def _friendly_controlled_city(state: GameState, m, area: str, power: str) -> bool:
    return m.area(area).city is not None and city_power(state, m, area) == power


def is_supply_source(state: GameState, m, area: str, power: str) -> bool:
    """10.3.3 (000:1326): an unbesieged city controlled by ``power`` in its home nation, a province ceded
    to it, or a minor it controls (the depot in the area is checked by the caller)."""
    a = m.area(area)
    if not _friendly_controlled_city(state, m, area, power) or is_besieged(state, m, area):
        return False
    if a.nation == power:
        return ceded_to(state, a.province) is None
    if ceded_to(state, a.province) == power:
        return True
    return a.is_minor and power_of(state, a.nation) == power


def _depot_areas(state: GameState, power: str) -> list[str]:
    return sorted({
        u.location.site for u in state.units.values()
        if isinstance(u, Depot) and u.power == power and u.location.kind in (LocationKind.AREA, LocationKind.CITY)
    })


def _land_steps(state: GameState, m, area: str, power: str) -> list[str]:
    """Areas one step away over land borders and crossing arrows whose sea holds no enemy fleet (10.3.3)."""
    out = list(m.land_neighbours(area))
    for c in m.crossings_at(area):
        if c.optional is not None and not getattr(state.options, f"use_{c.optional}_sea_crossing", False):
            continue
        if not enemy_fleet_in_sea(state, c.sea, power):
            out.append(c.other_end(area))
    return sorted(set(out))


def _sea_link_port(state: GameState, m, area: str, power: str) -> bool:
    """A depot's area that can be an end of sea supply (10.5.3, 000:1540-1552)."""
    a = m.area(area)
    if a.port is None or city_power(state, m, area) != power or is_blockaded(state, m, area, power):
        return False
    if state.slot is not None and state.slot.phase is Phase.LAND and newly_taken(state, area):
        return False  # 000:1544 (13.3.1, 000:2524): not a sea link until after the phase its city was taken in
    winter = state.date.month in WINTER_MONTHS
    if winter and (a.port.ice or all(m.sea(s).ice for s in a.port.seas)):
        return False  # 000:1550: no sea supply into or out of an area north of the ice line in winter
    return True


def _has_fleet_in_port(state: GameState, area: str, power: str) -> bool:
    return any(
        isinstance(u, Fleet) and u.location.kind is LocationKind.PORT and u.location.site == area
        and u.ships.total > 0 and unit_power(state, u) == power and power_of(state, u.nation) == power
        for u in state.units.values()
    )


#: The last few chains computed: (state, map, power, chain), looked up by identity (states are immutable),
#: so asking again for the same state (``depot_distance`` for each corps) costs nothing and changes nothing.
_CHAINS: list[tuple[GameState, object, str, dict[str, int]]] = []
_CHAINS_KEEP = 16


def supply_chain(state: GameState, m, power: str) -> dict[str, int]:
    """The areas of ``power``'s depots in a valid supply chain, each with the chain's length in depots
    (``_supply_chain``; remembered for the last few states asked, a new dict each call)."""
    for held, hm, hp, chain in _CHAINS:
        if held is state and hm is m and hp == power:
            return dict(chain)
    chain = _supply_chain(state, m, power)
    _CHAINS.insert(0, (state, m, power, chain))
    del _CHAINS[_CHAINS_KEEP:]
    return dict(chain)


def _supply_chain(state: GameState, m, power: str) -> dict[str, int]:
    """The areas of ``power``'s depots in a valid supply chain, each with the chain's length in depots.

    A depot in a supply source's area has length 1; a depot linked to one of
    length n has n + 1 (the least over all links).  Two depots are linked over
    land when at most one area lies between them (10.3.3, 000:1330), no area
    on the way being blocked (000:1334); by sea when both stand in unblockaded
    ports held by ``power`` and the source side has a fleet of ``power`` in
    port (10.5.3, 000:1540).  Depots on fleets give invasion supply only and
    are never links (10.5.4, 000:1570).  Other powers' depots never combine
    (000:1348).
    """
    depots = _depot_areas(state, power)
    open_areas = {a: not blocked_for(state, m, a, power) for a in depots}
    length: dict[str, int] = {}
    frontier = [a for a in depots if open_areas[a] and is_supply_source(state, m, a, power)]
    for a in frontier:
        length[a] = 1
    ports = [a for a in depots if open_areas[a] and _sea_link_port(state, m, a, power)]
    n = 1
    while frontier:
        nxt: set[str] = set()
        for here in frontier:
            near: set[str] = set()
            for step in _land_steps(state, m, here, power):
                if blocked_for(state, m, step, power):
                    continue
                near.add(step)
                near.update(_land_steps(state, m, step, power))
            if here in ports and _has_fleet_in_port(state, here, power):
                near.update(ports)
            for d in depots:
                if d in near and d not in length and open_areas[d]:
                    nxt.add(d)
        n += 1
        for d in sorted(nxt):
            length[d] = n
        frontier = sorted(nxt)
    return dict(sorted(length.items()))


def sea_link_port(state: GameState, m, area: str, power: str) -> bool:
    """``area``'s port can be an end of ``power``'s sea supply now (10.5.3, 000:1540-1550)."""
    return _sea_link_port(state, m, area, power)


def sea_source_for(state: GameState, m, power: str, port: str) -> str | None:
    """A port of ``power``'s valid supply chain from which sea supply reaches ``port`` (10.3.2, 000:1316;
    10.5.3, 000:1542): an unblockaded port of the chain holding a fleet of ``power``; None if there is none."""
    if not _sea_link_port(state, m, port, power):
        return None
    for a in supply_chain(state, m, power):
        if a != port and _sea_link_port(state, m, a, power) and _has_fleet_in_port(state, a, power):
            return a
    return None


def within_two(state: GameState, m, area: str, power: str) -> tuple[str, ...]:
    """Areas at most two steps from ``area`` with an unblocked area between (10.3.3, 000:1324, 000:1334), by id."""
    out: set[str] = {area}
    for step in _land_steps(state, m, area, power):
        out.add(step)
        if not blocked_for(state, m, step, power):
            out.update(_land_steps(state, m, step, power))
    return tuple(sorted(out))


def depot_distance(state: GameState, m, power: str, area: str, *, limit: int = 3) -> int | None:
    """Areas from ``area`` to the nearest depot of ``power``'s valid supply chain, at most ``limit``
    (0: a depot in the area), through no blocked intervening area (10.5.2, 000:1530); None if farther."""
    chain = supply_chain(state, m, power)
    if area in chain:
        return 0
    seen = {area}
    frontier = [area]
    for n in range(1, limit + 1):
        nxt: list[str] = []
        for here in frontier:
            if here != area and blocked_for(state, m, here, power):
                continue  # 000:1530: the route through the intervening areas may not be blocked
            for step in _land_steps(state, m, here, power):
                if step in chain:
                    return n
                if step not in seen:
                    seen.add(step)
                    nxt.append(step)
        frontier = sorted(nxt)
    return None


def supply_depot_for(state: GameState, m, power: str, area: str, *, max_length: int) -> str | None:
    """The depot area (on ``area`` or next to it) in ``power``'s chain within ``max_length`` depots, if any.

    7.2.2 (000:940): a corps "on or adjacent to" such a depot may receive factors.
    Ties go to the shortest chain, then the first id.
    """
    chain = supply_chain(state, m, power)
    near = [area] + _land_steps(state, m, area, power)
    fits = sorted((chain[a], a) for a in near if a in chain and chain[a] <= max_length)
    return fits[0][1] if fits else None


def invasion_sources(state: GameState, m, power: str) -> tuple[str, ...]:
    """Ports from which ``power`` can trace invasion supply to a fleet (10.5.4, 000:1566): unblockaded
    friendly ports of its valid supply chain that can be an end of sea supply now, by id."""
    return tuple(a for a in supply_chain(state, m, power) if _sea_link_port(state, m, a, power))


def invasion_depot_for(state: GameState, m, power: str, area: str) -> str | None:
    """A depot of ``power`` on a fleet in a sea area touching ``area`` that gives it invasion supply
    (10.3.4, 10.5.4; 000:1350-1352, 000:1564-1574), or None.  The sea area must be open (not north of
    the ice line in winter, 000:1550) and a port of ``power``'s chain must be a sea supply source."""
    coast = set(m.area(area).coast)
    winter = state.date.month in WINTER_MONTHS
    found = []
    for u in state.units.values():
        if not isinstance(u, Depot) or u.power != power or u.location.kind is not LocationKind.ABOARD:
            continue
        fleet = state.units.get(u.location.site)
        if not isinstance(fleet, Fleet) or fleet.location.kind is not LocationKind.SEA or fleet.location.site not in coast:
            continue
        if winter and m.sea(fleet.location.site).ice:
            continue
        found.append(u.id)
    if not found or not invasion_sources(state, m, power):
        return None
    return sorted(found)[0]
