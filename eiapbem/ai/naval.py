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
6. every other stack stays where it is;
7. invasions (levels with ``invasion_corps``, one at a time): before 2-6, up to ``invasion_corps`` corps of a
   port with a fleet of warships (their escort), the port not blockaded, board its fleets, largest first, each
   where room is left (8.6), and the stack sails to a sea area next to a coastal area held by a nation at war
   with the power (or, for corps no land route takes to the war, an island's, next to a coastal area the power
   or an ally fighting its enemies holds, nearest a war aim by land, where they land to join the war) (an enemy major or a minor it acts for; a neutral minor at war with it, 6.15, with
   ``invade_minors``), by sea areas where any enemy fleet that could intercept it (8.5.3, ``threat``) is
   outnumbered by the escort's warships by ``blockade_ratio``; the area has no enemy outside its city and fewer
   enemy field factors within 3 movement points, plus the forces inside its city, than the corps bring, at war
   since before this month; the carrying stack's intercept orders are withdrawn (it seeks no battle); in its land
   slot ``land_invasions`` lands them (10.4.5) together there, else wherever they may, so no corps is left
   aboard for 8.6.3 to destroy; then ``stage`` sends corps no land route leads to any enemy from (an island's)
   to the nearest port with its fleet, and a stack in a port where such corps stand stays there (``_waits``)
   instead of blockading when it could carry them to a target (a war of this month included).

8. ferries struck (``strike_ferries``; levels with a ``blockade_ratio``): an enemy stack at sea carrying corps (they
   land in its land phase) is attacked by the nearest stack that outnumbers it by ``attack_ratio``;
9. ferries stopped at their port (``interdict``): the port an enemy ferries corps from toward the power's coast is
   blockaded by the nearest stack that can hold it, so the ferry is intercepted as it leaves (8.5.4, 8.8);
   both come before the blockades of 4.

Each move is tried through the rules (``Builder.try_``); a refused one is shortened to
the sea areas the fleet can reach this slot, or dropped.
"""

from __future__ import annotations

from typing import Any

from eiapbem.rules import relations, supply
from eiapbem.rules.model import Corps, Fleet, Location, LocationKind
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
    invade(b, lvl)  # 7.
    taken = {f.location.site for f in _own_fleets(b) if f.location.kind is BOX and warships(f)}
    if lvl.blockade_ratio and b.state.powers[b.power].wars:
        strike_ferries(b, lvl)  # 8.
        interdict(b, lvl, taken)  # 9.
    done: set[Location] = set()
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
            if lvl.blockade_ratio and own and b.state.powers[b.power].wars and not shut and not came \
                    and not _waits(b, lvl, f, own):
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


# ----------------------------------------------------------------- enemy ferries (8.5, 8.6, 8.10)


def _stack_at(b: Any, loc: Location) -> tuple[list[Fleet], int]:
    """The power's fleets at ``loc`` that may still move, and their warships."""
    mine = [g for g in fleets_at(b.state, loc) if controller(b.state, g) == b.power and g.id not in b.state.naval_moves
            and may_continue(b.state, g) is None]
    return mine, sum(warships(g) for g in mine)


def _carrying(b: Any, f: Fleet) -> bool:
    """``f`` carries a corps (8.6)."""
    here = Location(LocationKind.ABOARD, f.id)
    return any(isinstance(u, Corps) and u.location == here for u in b.state.units.values())


def _sail_to(b: Any, f: Fleet, goal: Location) -> bool:
    path = graph.path_to(b.state, b.ctx.map, f.location, goal)
    if not path or sum(1 for p in path if p.kind is SEA) > graph.NAVAL_ALLOWANCE:
        return False
    names = [graph.place_name(p) for p in path if p.kind is not BOX or p == path[-1]]
    return b.try_(MoveFleet(fleet=f.id, path=",".join(names), stack=True))


def strike_ferries(b: Any, lvl: Any) -> None:
    """8.10: an enemy stack at sea with corps aboard (they land in its land phase, 10.4.5) is attacked by the power's
    nearest stack within this slot's reach that outnumbers its warships by the level's ``attack_ratio``, one
    combat at a time."""
    st, m = b.state, b.ctx.map
    ferries = sorted({f.location for f in st.units.values() if isinstance(f, Fleet) and f.location.kind is SEA
                      and controller(st, f) != b.power and relations.at_war(st, b.power, controller(st, f))
                      and _carrying(b, f)}, key=str)
    for loc in ferries:
        if b.state.pending:
            return
        enemy = sum(warships(g) for g in enemy_fleets_at(b.state, loc, b.power))
        options = []
        for f in _own_fleets(b):
            mine, own = _stack_at(b, f.location)
            if not mine or own * 100 < max(1, enemy) * lvl.attack_ratio:
                continue
            d = graph.distances(b.state, m, f.location).get(loc)
            if d is not None and d <= graph.NAVAL_ALLOWANCE:
                options.append((d, f.id))
        for _, fid in sorted(options):
            f = b.state.units[fid]
            if f.location == loc or _sail_to(b, f, loc):
                b.try_(NavalAttack(place=graph.place_name(loc)))
                break


def ferry_ports(b: Any) -> list[str]:
    """Ports from which an enemy ferries corps: held by a power at war with this one (or holding its fleets), an enemy
    fleet there with room for a corps (8.6.2) and an enemy corps in the port's area or aboard; nearest the power's
    coast first (the sea distance from the port to a sea area of a coastal area of its territory)."""
    from eiapbem.rules.land.depots import own_territory
    from eiapbem.rules.naval.transport import room

    st, m = b.state, b.ctx.map
    coast = {s for a in m.cities() if m.area(a).port is not None and own_territory(st, m, a, b.power)
             for s in m.area(a).port.seas}
    out = []
    for loc in sorted({f.location for f in st.units.values() if isinstance(f, Fleet) and f.location.kind is PORT}, key=str):
        enemy = [f for f in fleets_at(st, loc) if controller(st, f) != b.power
                 and relations.at_war(st, b.power, controller(st, f))]
        if not enemy or not any(room(f)[0] for f in enemy):
            continue
        corps_here = any(isinstance(u, Corps) and u.factors.total and u.location.site == loc.site
                         and u.location.kind in (LocationKind.AREA, LocationKind.CITY)
                         and relations.at_war(st, b.power, controller(st, u)) for u in st.units.values())
        if not corps_here and not any(_carrying(b, f) for f in enemy):
            continue
        seas = m.area(loc.site).port.seas
        near = min((0 if s in coast else 1 if any(n in coast for n in m.sea_neighbours(s)) else 9 for s in seas),
                   default=9)
        if near <= 1:
            out.append((near, loc.site))
    return [p for _, p in sorted(out)]


def interdict(b: Any, lvl: Any, taken: set[str]) -> None:
    """8.5.4, 8.8: the port an enemy ferries corps from toward the power's coast (``ferry_ports``) is blockaded by the
    power's nearest stack that can reach its box this slot and hold it (its warships ``blockade_ratio`` percent of the
    enemy's in the port, its box and the seas around, ``threat``): a fleet leaving a blockaded port is intercepted
    there at once, so the ferry is stopped or fought."""
    st, m = b.state, b.ctx.map
    for port in ferry_ports(b):
        if port in taken:
            continue
        box = Location(BOX, port)
        enemy = threat(st, m, b.power, box) + sum(warships(f) for f in enemy_fleets_at(st, Location(PORT, port), b.power))
        options = []
        for f in _own_fleets(b):
            if f.location.kind is BOX and f.location.site in taken:
                continue
            mine, own = _stack_at(b, f.location)
            if not mine or own * 100 < max(1, enemy) * lvl.blockade_ratio:
                continue
            d = graph.distances(b.state, m, f.location).get(box)
            if d is not None and d <= graph.NAVAL_ALLOWANCE:
                options.append((d, f.id))
        for _, fid in sorted(options):
            if _sail_to(b, b.state.units[fid], box):
                taken.add(port)
                break


# ----------------------------------------------------------------- invasions (8.6, 10.4.5)


def _aboard_own(b: Any) -> list[Corps]:
    return sorted((u for u in b.state.units.values() if isinstance(u, Corps) and u.location.kind is LocationKind.ABOARD
                   and controller(b.state, u) == b.power), key=lambda c: c.id)


def _war_since(state: Any, power: str, holder: str | None) -> Any:
    """When ``power``'s war with the nation ``holder`` began (6.2 with a major or the minor a major acts for; 6.15
    with a neutral minor, or the minor a joined district is part of), or None when they are not at war."""
    from eiapbem.rules.relations import at_war, power_of

    if not at_war(state, power, holder):
        return None
    q = power_of(state, holder)
    ps = state.powers[power]
    if q is not None:
        return ps.wars[q].since if q in ps.wars else None
    m = state.minors.get(holder)
    key = holder if holder in ps.minor_wars else (m.part_of if m is not None else None)
    return ps.minor_wars.get(key) if key is not None else None


def _escorted(b: Any, lvl: Any, loc: Location, escort: int) -> bool:
    """The enemy warships that could intercept at ``loc`` (``threat``) are none, or the escort's ``escort`` warships
    outnumber them by the level's ``blockade_ratio`` (the odds at which it holds a blockade there too)."""
    t = threat(b.state, b.ctx.map, b.power, loc)
    return not t or escort * 100 >= t * max(1, lvl.blockade_ratio)


def invasion_targets(b: Any, lvl: Any, corps_ids: list[str], start: Location, escort: int = 0, *,
                     fresh: bool = False, friendly: bool = False) -> list[tuple[str, str]]:
    """(sea area, coastal area) within this slot's movement from ``start`` where the corps ``corps_ids`` may land
    together: the area held by a nation at war with the power (an enemy major, a minor it acts for, or, with the
    level's ``invade_minors``, a neutral minor the power is at war with, 6.15), the war older than this month, no
    enemy outside its city, fewer enemy field factors within 3 movement points plus the forces inside its city than
    the corps bring, no enemy fleet in or next to its sea that the ``escort`` warships do not outnumber by the level's
    ``blockade_ratio`` (``threat``); weakest defence first, then nearest.  With ``fresh`` a war of this month counts.
    With ``friendly`` (corps no land route takes to the war, an island's) come after them the coastal areas held by
    the power or an ally at war with its enemies that it may enter (13.4.1), with fewer enemy field factors within 3
    movement points than the corps bring, nearest by land to one of its war aims (``ai.strategy``) first: the corps
    land there to join the war on land.
    """
    import eiapbem.ai.assess as assess
    from eiapbem.rules.control import area_holder
    from eiapbem.rules.land.common import may_enter_territory
    from eiapbem.rules.relations import power_of

    state, m = b.state, b.ctx.map
    strength = assess.force_strength(state, b.ctx, corps_ids)
    out = []
    for loc, d in graph.distances(state, m, start).items():
        if loc.kind is not SEA or d > graph.NAVAL_ALLOWANCE or not _escorted(b, lvl, loc, escort):
            continue
        for area in m.coastal_areas(loc.site):
            holder = area_holder(state, b.ctx, area)
            since = _war_since(state, b.power, holder)
            # a war declared this month is not invaded yet: its first naval slots are for blockades
            if since is None or not (fresh or since < state.date) or may_enter_territory(state, m, area, b.power):
                continue
            if power_of(state, holder) is None and not lvl.invade_minors:
                continue
            f = assess.forces_in(state, b.ctx, area, b.power)
            if f.enemy - f.enemy_city:
                continue
            near = assess.enemy_forces_near(state, b.ctx, area, b.power, within=3) + f.enemy_city
            if near < strength:
                out.append((0, near, d, area, loc.site))
    if friendly:
        out += _friendly_landings(b, lvl, start, escort, strength)
    return [(sea, area) for *_, area, sea in sorted(out)]


def _friendly_landings(b: Any, lvl: Any, start: Location, escort: int, strength: int) -> list[tuple]:
    """(1, land distance to the nearest war aim, sea distance, area, sea) for ``invasion_targets(friendly=True)``."""
    import eiapbem.ai.assess as assess
    import eiapbem.ai.strategy as strategy
    from eiapbem.rules.control import area_holder
    from eiapbem.rules.land.common import may_enter_territory
    from eiapbem.rules.relations import allied, at_war, power_of

    state, m = b.state, b.ctx.map
    aims = [a.area for a in strategy.war_plan(state, b.power, lvl, b.ctx).aims]
    enemies = set(state.powers[b.power].wars)
    war = _war_lands(b)
    out = []
    for loc, d in graph.distances(state, m, start).items():
        if loc.kind is not SEA or d > graph.NAVAL_ALLOWANCE or not _escorted(b, lvl, loc, escort):
            continue
        for area in m.coastal_areas(loc.site):
            holder = power_of(state, area_holder(state, b.ctx, area))
            if holder != b.power and not (holder is not None and allied(state, b.power, holder)
                                          and any(at_war(state, holder, e) for e in enemies)):
                continue
            if area not in war or may_enter_territory(state, m, area, b.power) \
                    or assess.forces_in(state, b.ctx, area, b.power).enemy:
                continue
            if assess.enemy_forces_near(state, b.ctx, area, b.power, within=3) >= strength:
                continue
            far = assess.distances_from(b.ctx, area)
            to_aim = min((far[a] for a in aims if a in far), default=None)
            if to_aim is not None:
                out.append((1, to_aim, d, area, loc.site))
    return out


def _boarding(b: Any, lvl: Any, port: str) -> list[tuple[str, str]]:
    """(fleet, corps) pairs for an invasion from ``port``: the power's corps there (not besieging, not in a
    threatened capital), largest first, each on the first fleet of the port with room left for it (8.6.2), up to
    the level's ``invasion_corps``; the fleets are those that may still move (they sail as one stack)."""
    import eiapbem.ai.assess as assess
    from eiapbem.rules.naval.transport import NOT_CARRIED, need, room

    st = b.state
    fleets = [f for f in fleets_at(st, Location(PORT, port)) if controller(st, f) == b.power
              and f.id not in st.naval_moves and may_continue(st, f) is None]
    threatened = {t.area for t in assess.capital_threats(st, b.ctx, b.power) if t.danger}
    if port in threatened:
        return []
    here = (Location(LocationKind.AREA, port), Location(LocationKind.CITY, port))
    corps = sorted((u for u in st.units.values() if isinstance(u, Corps) and u.location in here
                    and controller(st, u) == b.power and u.factors.total and not u.besieging
                    and u.corps_type not in NOT_CARRIED), key=lambda c: (-c.factors.total, c.id))
    left = {f.id: room(f) for f in sorted(fleets, key=lambda f: f.id)}
    out: list[tuple[str, str]] = []
    for c in corps:
        if len(out) >= lvl.invasion_corps:
            break
        want, cav = need([c])
        for fid, (have, cav_room) in left.items():
            if want <= have and cav <= cav_room:
                left[fid] = (have - want, cav_room - cav)
                out.append((fid, c.id))
                break
    return out


def _waits(b: Any, lvl: Any, f: Fleet, escort: int) -> bool:
    """The stack in port stays there for next month's invasion: corps of the power stand in the port and it could
    carry them to a target but for the war being of this month (or no invasion was started this slot)."""
    if not lvl.invasion_corps:
        return False
    group = _boarding(b, lvl, f.location.site)
    return bool(group) and bool(invasion_targets(b, lvl, [cid for _, cid in group], f.location, escort, fresh=True))


def stage(b: Any, lvl: Any) -> None:
    """The land slot: the power's corps that no land route leads from to any enemy target (``land.targets``; an
    island's corps) march to the nearest port of the power where a fleet with warships lies, to board it in a later
    naval slot (8.6.1 needs corps and fleet in the same port)."""
    import eiapbem.ai.assess as assess
    import eiapbem.ai.land as land
    import eiapbem.ai.moves as moves

    if not lvl.invasion_corps or not (b.state.powers[b.power].wars or b.state.powers[b.power].minor_wars) \
            or b.state.movement_over:
        return
    ports = sorted({f.location.site for f in _own_fleets(b) if f.location.kind is PORT and warships(f)
                    and not enemy_fleets_at(b.state, Location(BOX, f.location.site), b.power)})
    found = [t.area for t in land.targets(b)]
    if not ports or not found:
        return
    seen: list[dict[str, int]] = []  # the land reachable from one corps is that of every corps inside it
    for c in moves.movers(b):
        if c.location.site in ports:
            continue
        far = next((r for r in seen if c.location.site in r), None)
        if far is None:  # over land and the crossing arrows open now (options, enemy fleets), territory allowing
            far = moves.costs_from(b, c, moves.MAX_ROUTE * 2)
            seen.append(far)
        if any(a in far for a in found):
            continue
        near = sorted((assess.distance(b.ctx, c.location.site, p) or 0, p) for p in ports if p in far)
        if near:
            moves.advance(b, b.state.units[c.id], near[0][1])


def _war_lands(b: Any) -> frozenset[str]:
    """The land areas from which some enemy target (``land.targets``) can be reached by land, over the crossing
    arrows open now to the power (the land of the war, as against an island's)."""
    import eiapbem.ai.land as land
    st, m = b.state, b.ctx.map
    seen = {t.area for t in land.targets(b)}
    frontier = sorted(seen)
    while frontier:
        nxt = []
        for a in frontier:
            nbs = set(m.land_neighbours(a))
            for x in m.crossings_at(a):
                if (x.optional is None or getattr(st.options, f"use_{x.optional}_sea_crossing", False)) \
                        and not supply.enemy_fleet_in_sea(st, x.sea, b.power):
                    nbs.add(x.other_end(a))
            for n in sorted(nbs - seen):
                seen.add(n)
                nxt.append(n)
        frontier = nxt
    return frozenset(seen)


def _land_route_to_war(b: Any, area: str) -> bool:
    """Some enemy target can be reached from ``area`` by land (``_war_lands``)."""
    return area in _war_lands(b)


def invade(b: Any, lvl: Any) -> None:
    """8.6: one invasion at a time: up to ``invasion_corps`` corps in a port with a fleet of warships (their escort)
    board its fleets, and the stack sails to a sea area next to a weakly held coastal area of a nation at war with
    the power (``invasion_targets``); ``land_invasions`` lands them together in its land slot."""
    if not lvl.invasion_corps or not (b.state.powers[b.power].wars or b.state.powers[b.power].minor_wars) \
            or _aboard_own(b):
        return
    for f in _own_fleets(b):
        f = b.state.units[f.id]
        if (f.location.kind is not PORT or not warships(f) or f.id in b.state.naval_moves
                or may_continue(b.state, f) is not None
                or enemy_fleets_at(b.state, Location(BOX, f.location.site), b.power)):
            continue
        group = _boarding(b, lvl, f.location.site)
        # the largest part of the group that has a target: the whole group first, then fewer corps
        for n in range(len(group), 0, -1):
            if _sail(b, lvl, f, group[:n]):
                return


def _sail(b: Any, lvl: Any, f: Fleet, group: list[tuple[str, str]]) -> bool:
    """Load ``group`` (fleet, corps) and sail the stack of ``f`` to the first target it reaches unseen; all or nothing."""
    from eiapbem.rules.naval.transport import Load

    escort = sum(warships(g) for g in fleets_at(b.state, f.location) if controller(b.state, g) == b.power
                 and g.id not in b.state.naval_moves and may_continue(b.state, g) is None)
    island = not _land_route_to_war(b, f.location.site)
    for sea, _area in invasion_targets(b, lvl, [cid for _, cid in group], f.location, escort, friendly=island)[:3]:
        path = graph.path_to(b.state, b.ctx.map, f.location, Location(SEA, sea))
        # no enemy fleet the escort does not clearly outnumber can intercept it on the way (8.5.3): a lost battle
        # could sink the corps with its ships
        if not path or any(not _escorted(b, lvl, p, escort) for p in path if p.kind is SEA):
            continue
        names = [graph.place_name(p) for p in path if p.kind is not BOX]
        before = b.state, list(b.actions), b.events
        if all(b.try_(Load(fleet=fid, corps=cid)) for fid, cid in group) \
                and b.try_(MoveFleet(fleet=f.id, path=",".join(names), stack=True)):
            # the carrying stack seeks no battle on its way (8.5.3 interception is optional)
            for g in fleets_at(b.state, b.state.units[f.id].location):
                if controller(b.state, g) == b.power and g.id in b.state.powers[b.power].standing_orders.intercept:
                    b.try_(SetOrders(fleet=g.id, intercept=False))
            return True
        b.state, b.actions, b.events = before  # the fleet cannot go: the corps do not board either
    return False


def land_invasions(b: Any, lvl: Any) -> None:
    """10.4.5: the land slot (then ``stage``s the island's corps for the next invasion) lands every corps of the power still aboard, in the weakest coastal area of a nation at
    war with it that it can reach (the corps of one stack together: the area the first of them landed in comes
    first for the others), else anywhere it may land, so none is left at sea to be destroyed (8.6.3)."""
    import eiapbem.ai.assess as assess
    from eiapbem.rules.control import area_holder
    from eiapbem.rules.naval.transport import Disembark, FleetDepot, landing_areas
    from eiapbem.rules.relations import at_war

    landed: dict[Location, str] = {}
    for c in _aboard_own(b):
        fleet = b.state.units[c.location.site]
        if fleet.location.kind is SEA and fleet.location not in landed:
            # 10.5.4: a depot on the fleet supplies the landed corps (a forage roll there, +1 for each other corps in
            # the area, could cost them dearly); refused (no port of the chain, no money, one there already): none
            b.try_(FleetDepot(fleet=fleet.id))
        areas = landing_areas(b.state, b.ctx, fleet)
        first = landed.get(fleet.location)
        ranked = sorted(areas, key=lambda a: (a != first, not at_war(b.state, b.power, area_holder(b.state, b.ctx, a)),
                                              assess.forces_in(b.state, b.ctx, a, b.power).enemy, a))
        for a in ranked:
            if b.try_(Disembark(corps=c.id, area=a)):
                landed.setdefault(fleet.location, a)
                break
    stage(b, lvl)
