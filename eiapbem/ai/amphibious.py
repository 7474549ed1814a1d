"""The computer's amphibious play: corps carried by its fleets to where the war plan wants them (8.6, 000:1142-1160),
landed there (10.4.5, 000:1448-1452), and carried off again when no land route leads from where they stand to the war.

The naval slot (``invade`` and ``collect``, called by ``naval.plan`` before its blockades; levels with
``invasion_corps``):

1. invasions, one at a time: up to ``invasion_corps`` corps of a port where the power's fleets lie, the port not
   blockaded, board its fleets, largest first, each where room is left (8.6.2), and the stack sails to a sea area
   next to an enemy's coast they may invade and could hold until a fleet could fetch them, the weakest first
   (``invasion_targets``, ``holds``: against every enemy corps within two months' march), by sea areas where any
   enemy fleet that could intercept it (8.5.3, ``fleets.threat``) is outnumbered by the escort's warships by
   ``blockade_ratio``.  Idle corps (``Reach.idle``: stranded, far from the war, or in a port where they could not
   hold) may also be carried to a friendly coast in the land of the war, nearest a war aim (reinforcing an ally's
   theatre).  The carrying stack's intercept orders are withdrawn (it seeks no battle);
2. pick-up (``collect``): an idle corps that stands in, or reaches this month by land, the port it musters at
   (``muster_port``) is fetched: the power's nearest stack with room for it (8.6.2) that reaches the port this slot
   through seas its warships hold (``escorted``) and could carry the corps on sails in, so that the corps boards it
   in the next naval slot (8.6.1).  A stack in a port where corps of the power wait for it stays there (``waits``).

A corps ``marooned`` on an island it took (stranded outside its home nation) is fetched even when no target is in reach
of its port, and carried to the nearest open port off the island (``_carry_off``).  While enemy corps stand in the
field in its home nation (``home_invaded``) no invasion sails but with idle corps: the others are needed at home.  In
winter (13.1) a stranded corps marches only to a port a fleet of the power lies in.  At peace a corps ``overseas``
outside the power's own territory (an island or another nation's coast a war left it on) is fetched, carried home
(``_bring_home``) and rejoins the army between wars.

The land slot, first of all its moves: ``land_invasions`` lands every corps of the power still aboard (10.4.5),
the corps of one stack together, in the coastal area the naval slot aimed at (``_landing_rank``), else anywhere it
may land, so none is left at sea to be destroyed (8.6.3); then ``stage`` marches the stranded and far corps to
their muster port.  Before the land plan forms its armies, ``expedition`` moves the corps ashore overseas:
weak targets by the sea taken, a port reached when outmatched or idle (its notes say when they are left to the armies).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import eiapbem.ai.assess as assess
import eiapbem.ai.moves as moves
from eiapbem.ai.fleets import carrying, coast, nearest, own_fleets, threat
from eiapbem.rules import supply
from eiapbem.rules.control import area_holder
from eiapbem.rules.land.common import may_enter_territory
from eiapbem.rules.land.movement import allowance
from eiapbem.rules.model import Corps, Fleet, Location, LocationKind
from eiapbem.rules.naval import graph
from eiapbem.rules.naval.attack import SetOrders
from eiapbem.rules.naval.common import controller, enemy_fleets_at, fleets_at, may_enter_port, warships
from eiapbem.rules.naval.movement import MoveFleet, may_continue
from eiapbem.rules.relations import allied, at_war, power_of

SEA, PORT, BOX = LocationKind.SEA, LocationKind.PORT, LocationKind.BLOCKADE
#: Objectives' values for ``targets`` (where the land plan's and the fleets' corps go): an enemy
#: capital, one of its own home cities in enemy hands, another enemy city, an enemy corps outside a city, an enemy
#: corps in its home nation.
VALUE_CAPITAL, VALUE_HOME, VALUE_CITY, VALUE_CORPS, VALUE_INVADER = 6, 5, 3, 4, 6
#: Movement points around a landing within which the enemy's field strength must be less than the landed corps' and
#: their friends' nearby (``holds``): what the enemy can bring against them before a fleet could carry them off.
HOLD = 6
#: Months of the enemy's march a landing is judged against (``holds``): landed corps can be carried off at the
#: earliest in a later month's naval slot.
LANDING_MONTHS = 2
#: Movement points within which friendly corps count beside a landing (``holds``): those that join its battle.
BESIDE = 1
#: Movement points by land beyond which an expeditionary corps is far from every enemy target (``Reach.far``): three
#: months of a corps' march (3 movement points a month), where a fleet carries it in one.
FAR = 9


@dataclass(frozen=True)
class Target:
    area: str
    value: int
    #: Enemy strength outside the city (a field battle) and inside it (a siege).
    field: int
    inside: int


NOBODY = assess.AreaForces()


def targets(b: Any) -> list[Target]:
    """Enemy corps outside cities, enemy-held cities and capitals, by area."""
    st, ctx, power = b.state, b.ctx, b.power
    caps = set(assess.enemy_capitals(st, ctx, power))
    cities = set(assess.enemy_cities(st, ctx, power))
    areas = {c.location.site for c in assess.enemy_field_corps(st, power)} | cities
    forces = assess.forces_by_area(st, ctx, power)
    out = []
    for a in sorted(areas):
        f = forces.get(a, NOBODY)
        value = VALUE_CAPITAL if a in caps else VALUE_CITY if a in cities else 0
        if a in cities and ctx.map.area(a).nation == power:
            value = VALUE_HOME  # its own city in enemy hands
        if f.enemy - f.enemy_city:
            value = max(value, VALUE_INVADER if ctx.map.area(a).nation == power else VALUE_CORPS)
        out.append(Target(a, value, f.enemy - f.enemy_city, f.enemy_city))
    return out



def _aboard_own(b: Any) -> list[Corps]:
    return sorted((u for u in b.state.units.values() if isinstance(u, Corps) and u.location.kind is LocationKind.ABOARD
                   and controller(b.state, u) == b.power), key=lambda c: c.id)


def _war_since(state: Any, power: str, holder: str | None) -> Any:
    """When ``power``'s war with the nation ``holder`` began (6.2 with a major or the minor a major acts for; 6.15
    with a neutral minor, or the minor a joined district is part of), or None when they are not at war."""
    if not at_war(state, power, holder):
        return None
    q = power_of(state, holder)
    ps = state.powers[power]
    if q is not None:
        return ps.wars[q].since if q in ps.wars else None
    m = state.minors.get(holder)
    key = holder if holder in ps.minor_wars else (m.part_of if m is not None else None)
    return ps.minor_wars.get(key) if key is not None else None


def escorted(b: Any, lvl: Any, loc: Location, escort: int) -> bool:
    """The enemy warships that could intercept at ``loc`` (``threat``) are none, or the escort's ``escort`` warships
    outnumber them by the level's ``blockade_ratio`` (the odds at which it holds a blockade there too)."""
    t = threat(b.state, b.ctx.map, b.power, loc)
    return not t or escort * 100 >= t * max(1, lvl.blockade_ratio)


def _at_war(b: Any) -> bool:
    return bool(b.state.powers[b.power].wars or b.state.powers[b.power].minor_wars)


# ----------------------------------------------------------------- where the corps may go


def invasion_targets(b: Any, lvl: Any, corps_ids: list[str], start: Location, escort: int = 0, *,
                     fresh: bool = False, friendly: bool = False) -> list[tuple[str, str]]:
    """(sea area, coastal area) within this slot's movement from ``start`` where the corps ``corps_ids`` may land
    together: held by a nation at war with the power (an enemy major, a minor it acts for, or, with the level's
    ``invade_minors``, a neutral minor at war with it, 6.15), the war older than this month (``fresh``: or of this
    month), no enemy outside its city, fewer enemy field factors within 3 movement points plus the forces inside its
    city than the corps bring, no enemy fleet in or next to its sea that the ``escort`` warships do not outnumber by
    the level's ``blockade_ratio`` (``threat``), and the corps could stay there until a fleet could carry them off
    (``holds`` over ``LANDING_MONTHS``); the mainland before a one-area island (none its corps stand on already), then
    the least enemy strength that can reach it in that time (``assess.enemy_in_reach``) plus the forces in its city,
    then nearest.  With ``friendly`` (corps its fleets should carry off, ``Reach.idle``) come after them the coastal
    areas held by the power or an ally at war with its enemies that it may enter (13.4.1), from which a land route
    leads to the war (``_war_lands``), that the corps could hold, nearest by land to a war aim (``ai.strategy``)
    first.  Never the port's own area or its neighbours (a march, not a voyage)."""
    state, m = b.state, b.ctx.map
    strength = assess.force_strength(state, b.ctx, corps_ids)
    near_port = {start.site, *m.land_neighbours(start.site)} if start.kind is PORT else set()
    out = []
    for loc, d in graph.distances(state, m, start).items():
        if loc.kind is not SEA or d > graph.NAVAL_ALLOWANCE or not escorted(b, lvl, loc, escort):
            continue
        for area in coast(b, loc.site):
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
            island = not m.land_neighbours(area)
            if island and _ashore(b, area):
                continue  # its corps there take it already: another would only be stranded with them
            if near < strength and holds(b, area, strength, LANDING_MONTHS):
                coming = assess.enemy_in_reach(state, b.ctx, area, b.power, LANDING_MONTHS) + f.enemy_city
                out.append((0, island, coming, d, area, loc.site))
    if friendly:
        out += _friendly_landings(b, lvl, start, escort, strength)
    return [(sea, area) for *_, area, sea in sorted(out) if area not in near_port]


def holds(b: Any, area: str, strength: int, months: int = 1) -> bool:
    """Corps of ``strength`` set down in ``area`` can stay there: the enemy field strength within ``HOLD`` movement
    points and that which reaches ``area`` within ``months`` months (``assess.enemy_in_reach``, before they could
    sail away) is less than theirs and the power's and its allies' within ``BESIDE`` movement points."""
    near = assess.distances_from(b.ctx, area)
    friends = sum(assess.force_strength(b.state, b.ctx, [u.id]) for _, u in sorted(b.state.units.items())
                  if isinstance(u, Corps) and u.factors.total and near.get(u.location.site, FAR) <= BESIDE
                  and u.location.kind in (LocationKind.AREA, LocationKind.CITY)
                  and assess.friendly(b.state, b.power, u))
    enemy = max(assess.enemy_forces_near(b.state, b.ctx, area, b.power, within=HOLD),
                assess.enemy_in_reach(b.state, b.ctx, area, b.power, months))
    return enemy < strength + friends


def _friendly(b: Any, area: str) -> bool:
    """``area`` is held by the power, or by an ally at war with one of its enemies (a theatre it may reinforce)."""
    state = b.state
    holder = power_of(state, area_holder(state, b.ctx, area))
    return holder == b.power or (holder is not None and allied(state, b.power, holder)
                                 and any(at_war(state, holder, e) for e in state.powers[b.power].wars))


def _aims(b: Any, lvl: Any) -> list[str]:
    """The areas of the power's war aims (``ai.strategy``)."""
    import eiapbem.ai.strategy as strategy

    return [a.area for a in strategy.war_plan(b.state, b.power, lvl, b.ctx).aims]


def _aim_distance(b: Any, aims: list[str], area: str) -> int | None:
    """Land distance from ``area`` to the nearest of ``aims``, None if none is reached."""
    far = assess.distances_from(b.ctx, area)
    return min((far[a] for a in aims if a in far), default=None)


def _friendly_landings(b: Any, lvl: Any, start: Location, escort: int, strength: int) -> list[tuple]:
    """(1, land distance to the nearest war aim, sea distance, area, sea) for ``invasion_targets(friendly=True)``."""
    state, m = b.state, b.ctx.map
    war = _war_lands(b)
    aims = _aims(b, lvl)
    out = []
    for loc, d in graph.distances(state, m, start).items():
        if loc.kind is not SEA or d > graph.NAVAL_ALLOWANCE or not escorted(b, lvl, loc, escort):
            continue
        for area in coast(b, loc.site):
            if not _friendly(b, area) or area not in war or may_enter_territory(state, m, area, b.power) \
                    or assess.forces_in(state, b.ctx, area, b.power).enemy:
                continue
            if assess.enemy_forces_near(state, b.ctx, area, b.power, within=3) >= strength \
                    or not holds(b, area, strength, LANDING_MONTHS):
                continue
            to_aim = _aim_distance(b, aims, area)
            if to_aim is not None:
                out.append((1, to_aim, d, area, loc.site))
    return out


def _war_lands(b: Any) -> frozenset[str]:
    """The land areas from which some enemy target (``targets``) can be reached by land, through areas the power
    may enter (13.4.1) and over the crossing arrows open now to it (the land of the war, as against an island's or a
    coast walled off by neutrals)."""
    st, m = b.state, b.ctx.map
    seen = {t.area for t in targets(b)}
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
                if may_enter_territory(st, m, n, b.power) is None:
                    seen.add(n)
                    nxt.append(n)
        frontier = nxt
    return frozenset(seen)


class Reach:
    """Where the power's corps can march by land (``moves.costs_from``: territory and open crossings), computed once
    per connected piece of land: the land reachable from one corps is that of every corps inside it."""

    def __init__(self, b: Any, lvl: Any = None) -> None:
        self.b, self.lvl = b, lvl
        self.found = [t.area for t in targets(b)]
        self.seen: list[dict[str, int]] = []
        self.own: dict[str, dict[str, int]] = {}

    def of(self, c: Corps) -> dict[str, int]:
        far = next((r for r in self.seen if c.location.site in r), None)
        if far is None:
            far = moves.costs_from(self.b, c, moves.MAX_ROUTE * 2)
            self.seen.append(far)
        return far

    def idle(self, c: Corps) -> bool:
        """``stranded``, ``far`` from the war, ``stuck`` on a coast with nothing to take near the sea (with the level
        given), or in a port area where it could not hold (``holds``): a corps its fleets should carry off."""
        if self.stranded(c) or self.far(c) or (self.lvl is not None and stuck(self.b, self.lvl, self, c)):
            return True
        area = c.location.site
        return self.b.ctx.map.area(area).port is not None \
            and not holds(self.b, area, assess.force_strength(self.b.state, self.b.ctx, [c.id]))

    def marooned(self, c: Corps) -> bool:
        """``stranded`` outside its home nation (7.2.2): a corps left on an island it took, which its fleets carry off
        even with no target in reach of its port (``_carry_off``); at home it waits for a voyage to a target."""
        return self.stranded(c) and not supply.is_home_area(self.b.state, self.b.ctx.map, c.location.site, c.nation)

    def far(self, c: Corps) -> bool:
        """An expeditionary corps (outside its home nation, 7.2.2) that no enemy target is within ``FAR`` movement
        points of by land: left on a front the war has moved away from (a landing on an ally's far coast), it is
        carried back to the war by sea sooner than it would march there."""
        st, m = self.b.state, self.b.ctx.map
        if not self.found or supply.is_home_area(st, m, c.location.site, c.nation):
            return False
        near = assess.distances_from(self.b.ctx, c.location.site)
        return min((near[a] for a in self.found if a in near), default=FAR + 1) > FAR

    def costs(self, c: Corps) -> dict[str, int]:
        """Movement costs from ``c`` itself to where it may march (``moves.costs_from``), for its muster port."""
        got = self.own.get(c.location.site)
        if got is None:
            got = self.own[c.location.site] = moves.costs_from(self.b, c, moves.MAX_ROUTE)
        return got

    def stranded(self, c: Corps) -> bool:
        """No enemy target (``targets``) can be reached from ``c`` by land, through the territory it may enter
        (13.4.1) and the crossings open now: an island's corps, or one set down on a coast far from the war."""
        far = self.of(c)
        return not any(a in far for a in self.found)


def muster_port(b: Any, far: dict[str, int]) -> str | None:
    """The port, among the areas ``far`` a stranded corps reaches by land, where it waits for a fleet: one the power's
    fleets may enter (8.4.2; a neutral minor's only with corps aboard, so not to fetch them) and not blockaded by an
    enemy; one where a fleet of the power with warships lies first, then the nearest."""
    st, m = b.state, b.ctx.map
    fleets = {f.location.site for f in own_fleets(b) if f.location.kind is PORT and warships(f)}
    out = []
    for a in sorted(far):
        if m.area(a).port is None or may_enter_port(st, b.ctx, b.power, a) is not None \
                or enemy_fleets_at(st, Location(BOX, a), b.power):
            continue
        out.append((a not in fleets, far[a], a))
    return min(out)[2] if out else None


def _cargo(b: Any) -> list[Corps]:
    """The power's corps that fleets may carry (8.6): on the map with factors, not besieging, not carried already."""
    from eiapbem.rules.naval.transport import NOT_CARRIED

    return [c for c in assess.army_units(b.state, b.power) if c.factors.total and _leaves_siege(b, c)
            and c.corps_type not in NOT_CARRIED and c.location.kind in (LocationKind.AREA, LocationKind.CITY)]


# ----------------------------------------------------------------- the naval slot


def _boarding(b: Any, lvl: Any, port: str) -> list[tuple[str, str]]:
    """(fleet, corps) pairs for an invasion from ``port``: the power's corps there (not besieging, not in a
    threatened capital), largest first, each on the first fleet of the port with room left for it (8.6.2), up to
    the level's ``invasion_corps``; the fleets are those that may still move (they sail as one stack)."""
    from eiapbem.rules.naval.transport import NOT_CARRIED, need, room

    st = b.state
    fleets = [f for f in fleets_at(st, Location(PORT, port)) if controller(st, f) == b.power
              and f.id not in st.naval_moves and may_continue(st, f) is None]
    threatened = {t.area for t in assess.capital_threats(st, b.ctx, b.power) if t.danger}
    if port in threatened:
        return []
    here = (Location(LocationKind.AREA, port), Location(LocationKind.CITY, port))
    corps = sorted((u for u in st.units.values() if isinstance(u, Corps) and u.location in here
                    and controller(st, u) == b.power and u.factors.total and _leaves_siege(b, u)
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


def waits(b: Any, lvl: Any, f: Fleet, escort: int) -> bool:
    """The stack in port stays there: corps of the power stand in the port and it could carry them to a target (for
    idle corps, ``collect`` brought it for them, a friendly coast too) but for the war being of this month, or no
    invasion was started this slot."""
    if not lvl.invasion_corps:
        return False
    group = _boarding(b, lvl, f.location.site)
    if not group:
        return False
    reach = Reach(b, lvl)
    idle = any(reach.idle(b.state.units[cid]) for _, cid in group)
    return bool(invasion_targets(b, lvl, [cid for _, cid in group], f.location, escort, fresh=True, friendly=idle)) \
        or any(reach.marooned(b.state.units[cid]) for _, cid in group)


def invade(b: Any, lvl: Any) -> None:
    """8.6: one invasion at a time: up to ``invasion_corps`` corps in a port with a fleet of warships (their escort)
    board its fleets, and the stack sails to a sea area next to a weakly held coastal area of a nation at war with
    the power, or, for idle corps (``Reach.idle``), a friendly coast near a war aim (``invasion_targets``);
    ``land_invasions`` lands them together in its land slot."""
    if not lvl.invasion_corps or _aboard_own(b):
        return
    if not _at_war(b):
        _bring_home(b, lvl)
        return
    reach = Reach(b, lvl)
    invaded = home_invaded(b)
    for f in own_fleets(b):
        f = b.state.units[f.id]
        if (f.location.kind is not PORT or not warships(f) or f.id in b.state.naval_moves
                or may_continue(b.state, f) is not None
                or enemy_fleets_at(b.state, Location(BOX, f.location.site), b.power)):
            continue
        group = _boarding(b, lvl, f.location.site)
        if not group:
            continue
        first = b.state.units[group[0][1]]
        island = reach.idle(first)
        if invaded and not island:
            continue  # the enemy stands in its home nation: corps that can march on it by land stay to fight it
        # the largest part of the group that has a target: the whole group first, then fewer corps
        for n in range(len(group), 0, -1):
            if _sail(b, lvl, f, group[:n], island):
                return
        if reach.marooned(first) and _carry_off(b, lvl, f, group, reach.of(first)):
            return


def _bring_home(b: Any, lvl: Any) -> None:
    """At peace: a corps ``overseas`` (an island or a coast its fleets left it on) that stands in a port with the
    power's fleets boards them, and the stack sails to the nearest open port off that land, one of its home nation
    first (``_carry_off``): between wars it rejoins the army, which camps by the border of the likely next war
    (``ai.deploy``), instead of idling where no land route leads home."""
    reach = Reach(b, lvl)
    for f in own_fleets(b):
        f = b.state.units[f.id]
        if f.location.kind is not PORT or not warships(f) or f.id in b.state.naval_moves \
                or may_continue(b.state, f) is not None:
            continue
        group = _boarding(b, lvl, f.location.site)
        first = b.state.units[group[0][1]] if group else None
        if first is not None and _abroad(b, reach, first) and _carry_off(b, lvl, f, group, reach.of(first)):
            return


def _abroad(b: Any, reach: "Reach", c: Corps) -> bool:
    """At peace: ``c`` stands ``overseas`` outside the power's own territory (13.4.1: an island or a coast of another
    nation; its conquered minors' garrisons stay)."""
    from eiapbem.rules.land.depots import own_territory

    return overseas(b, reach, c) and not own_territory(b.state, b.ctx.map, c.location.site, b.power)


def home_invaded(b: Any) -> bool:
    """Enemy corps stand in the field in the power's home nation: its corps that can reach them by land are needed
    there, not on a voyage (``invade``)."""
    m = b.ctx.map
    return any(m.area(c.location.site).nation == b.power for c in assess.enemy_field_corps(b.state, b.power))


def _sail(b: Any, lvl: Any, f: Fleet, group: list[tuple[str, str]], island: bool) -> bool:
    """Load ``group`` (fleet, corps) and sail the stack of ``f`` to the first target it reaches unseen; all or nothing."""
    escort = _escort(b, f)
    for sea, _area in invasion_targets(b, lvl, [cid for _, cid in group], f.location, escort, friendly=island)[:3]:
        if _voyage(b, lvl, f, group, Location(SEA, sea), escort):
            return True
    return False


def _escort(b: Any, f: Fleet) -> int:
    """The warships of the power's stack of ``f`` that may still move."""
    return sum(warships(g) for g in fleets_at(b.state, f.location) if controller(b.state, g) == b.power
               and g.id not in b.state.naval_moves and may_continue(b.state, g) is None)


def _voyage(b: Any, lvl: Any, f: Fleet, group: list[tuple[str, str]], goal: Location, escort: int) -> bool:
    """Load ``group`` (fleet, corps) and sail the stack of ``f`` to ``goal`` (a sea area, or a port), by seas where
    no enemy fleet the escort does not clearly outnumber can intercept it (8.5.3: a lost battle could sink the corps
    with its ships); all or nothing."""
    from eiapbem.rules.naval.transport import Load

    path = graph.path_to(b.state, b.ctx.map, f.location, goal)
    if not path or any(not escorted(b, lvl, p, escort) for p in path if p.kind is SEA):
        return False
    names = [graph.place_name(p) for p in path if p.kind is not BOX or (goal.kind is PORT and p == path[-1])]
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


def _carry_off(b: Any, lvl: Any, f: Fleet, group: list[tuple[str, str]], land: dict[str, int]) -> bool:
    """A marooned group (``Reach.marooned``) with no target from its port (an island taken) boards and the stack sails
    to the nearest open port (``_open_ports``) off the land it stands on (``land``), one of the power's home nation
    first, by escorted seas (``_voyage``): it lands there in the land slot, and goes to war from there."""
    st, m = b.state, b.ctx.map
    escort = _escort(b, f)
    ports = _open_ports(b)
    options = sorted((m.area(loc.site).nation != b.power, d, loc.site) for loc, d in graph.distances(st, m, f.location).items()
                     if loc.kind is PORT and loc.site in ports and loc.site not in land and d <= graph.NAVAL_ALLOWANCE)
    return any(_voyage(b, lvl, f, group, Location(PORT, port), escort) for *_, port in options[:3])


def collect(b: Any, lvl: Any) -> None:
    """Pick-up: for each stranded corps (``Reach.stranded``) that stands in its ``muster_port`` (for an idle corps on
    a coast whose port its fleets may not enter, an enemy's, the nearest open one) or reaches it by land this month,
    with no fleet of the power there with room for it, the nearest stack of the power that is not carrying corps, has
    room for it (8.6.2), reaches the port this slot through escorted seas and could carry the corps on from there to a
    target (``invasion_targets``, a friendly coast included) sails into the port, where it
    waits (``waits``) for the corps to board in the next naval slot (8.6.1)."""
    from eiapbem.rules.naval.transport import need, room

    if not lvl.invasion_corps:
        return
    st, m = b.state, b.ctx.map
    reach = Reach(b, lvl)
    war = _at_war(b)
    wanted: dict[str, list[Corps]] = {}
    for c in sorted(_cargo(b), key=lambda c: (-c.factors.total, c.id)):
        if not reach.idle(c) or not war and not _abroad(b, reach, c):
            continue  # at peace only a corps overseas is fetched (``_bring_home``)
        stranded = reach.stranded(c)
        far = reach.of(c) if stranded else reach.costs(c)
        site = c.location.site
        shut = m.area(site).port is None or may_enter_port(st, b.ctx, b.power, site) is not None
        # a corps on a coast where its fleets may not put in (an enemy's port, no port) musters at the nearest open one
        port = muster_port(b, far) if stranded or reach.far(c) or shut else site
        if port is None or far.get(port, 0) > allowance(st, b.ctx, c) \
                or may_enter_port(st, b.ctx, b.power, port) is not None:
            continue
        wanted.setdefault(port, []).append(c)
    for port, group in sorted(wanted.items()):
        want, cav = need(group[:1])  # room for the largest at least
        here = Location(PORT, port)
        if any(controller(b.state, g) == b.power and room(g)[0] >= want and room(g)[1] >= cav
               for g in fleets_at(b.state, here)):
            continue
        free = []
        for g in own_fleets(b):
            g = b.state.units[g.id]
            if g.location == here or g.id in b.state.naval_moves or may_continue(b.state, g) is not None \
                    or carrying(b, g) or not warships(g):
                continue
            have, cav_room = room(g)
            if have >= want and cav_room >= cav:
                free.append(g)
        for gid in nearest(b, free, here):
            g = b.state.units[gid]
            path = graph.path_to(b.state, m, g.location, here)
            escort = sum(warships(x) for x in fleets_at(b.state, g.location) if controller(b.state, x) == b.power)
            if not path or any(not escorted(b, lvl, p, escort) for p in path if p.kind is SEA):
                continue
            if not reach.marooned(group[0]) and not invasion_targets(b, lvl, [group[0].id], here, escort, fresh=True,
                                                                      friendly=True):
                continue  # it could carry the corps nowhere from there: it keeps to its own work (a stranded corps is
                #           carried off to an open port, ``_carry_off``, if marooned)
            names = [graph.place_name(p) for p in path if p.kind is not BOX or p == path[-1]]
            if b.try_(MoveFleet(fleet=g.id, path=",".join(names), stack=True)):
                break


# ----------------------------------------------------------------- the land slot


def stage(b: Any, lvl: Any) -> None:
    """The land slot: the power's stranded corps (``Reach.stranded``) and those far from the war (``Reach.far``) march
    to their ``muster_port``, to board a fleet there in a later naval slot (8.6.1 needs corps and fleet in the same
    port); in winter (13.1) only to a port a fleet of the power lies in.  At peace only a corps ``overseas`` outside its
    own territory goes to its port (``_bring_home``)."""
    if not lvl.invasion_corps or b.state.movement_over:
        return
    reach = Reach(b)
    war = _at_war(b)
    if war and not reach.found:
        return
    winter = b.state.date.month in supply.WINTER_MONTHS
    for c in moves.movers(b):
        if not war:
            if not _abroad(b, reach, c):
                continue  # at peace only a corps overseas goes to its port, to be carried home (``_bring_home``)
            port = muster_port(b, reach.of(c))
        elif reach.stranded(c):
            port = muster_port(b, reach.of(c))
        elif reach.far(c):
            port = muster_port(b, reach.costs(c))
        else:
            continue
        if port is None or port == c.location.site:
            continue
        if winter and not any(f.location == Location(PORT, port) and warships(f) for f in own_fleets(b)):
            continue  # 13.1: it waits in winter quarters rather than starve in a port no fleet of its lies in
        before = b.state, list(b.actions), b.events
        if moves.advance(b, b.state.units[c.id], port) and winter and not _fed(b, lvl, b.state.units[c.id]):
            b.state, b.actions, b.events = before  # 13.1: where the march ends it would starve; it waits in quarters


def _fed(b: Any, lvl: Any, c: Corps) -> bool:
    """``c``, its march made, is supplied where it stands as the level accepts (``logistics.supply_of``), with the
    power's other corps there: in winter (+2 to the forage roll, 13.1) a march of several corps to one poor port,
    their movement spent, would cost each of them factors (10.5.1)."""
    import eiapbem.ai.logistics as logistics

    here = c.location.site
    others = sum(1 for x in b.state.units.values() if isinstance(x, Corps) and x.id != c.id and x.factors.total
                 and x.location == Location(LocationKind.AREA, here))
    return logistics.supply_of(b, lvl, logistics.Budget.of(b), c, here, (0, ()), others)[0]


def _landing_rank(b: Any, area: str, first: str | None, strength: int, war: frozenset[str], aims: list[str]) -> tuple:
    """The order ``land_invasions`` tries the areas a stack's corps may land in: where the stack's first corps landed;
    an enemy's coast the ``strength`` of the stack's corps may invade (``invasion_targets``), weakest first; the
    power's or a fighting ally's coast in the land of the war (``war``), nearest one of the ``aims``; the power's or
    such an ally's other coast; only then a neutral's, a strongly held enemy's or a friendly coast with an enemy stack
    outside its city, the least defended first."""
    holder = area_holder(b.state, b.ctx, area)
    f = assess.forces_in(b.state, b.ctx, area, b.power)
    enemy = f.enemy
    if at_war(b.state, b.power, holder):
        near = assess.enemy_forces_near(b.state, b.ctx, area, b.power, within=3) + f.enemy_city
        # the coast ``invasion_targets`` aimed at: no enemy outside the city, weaker than the corps landing
        kind = 0 if not f.enemy - f.enemy_city and near < strength and holds(b, area, strength, LANDING_MONTHS) \
            else 3
        if kind == 0 and not b.ctx.map.land_neighbours(area) and _ashore(b, area):
            kind = 2  # an island its corps take already: another corps there would only be stranded with them
    elif _friendly(b, area) and not f.enemy - f.enemy_city:
        # a friendly coast with an enemy stack outside its city is a battle on landing: ranked as a strong enemy's
        aim = _aim_distance(b, aims, area) if area in war else None
        kind, near = (1, aim) if aim is not None else (2, enemy)
    else:
        kind, near = 3, enemy
    return area != first, kind, near, area


def land_invasions(b: Any, lvl: Any) -> None:
    """10.4.5: the land slot (then ``stage``s the stranded corps) lands every corps of the power still aboard, in the
    order of ``_landing_rank`` (the corps of one stack together), else anywhere it may land, so none is left at sea to
    be destroyed (8.6.3)."""
    from eiapbem.rules.naval.transport import Disembark, FleetDepot, landing_areas

    landed: dict[Location, str] = {}
    aboard = _aboard_own(b)
    war, aims = (_war_lands(b), _aims(b, lvl)) if aboard else (frozenset(), [])
    for c in aboard:
        fleet = b.state.units[c.location.site]
        if fleet.location.kind is SEA and fleet.location not in landed:
            # 10.5.4: a depot on the fleet supplies the landed corps (a forage roll there, +1 for each other corps in
            # the area, could cost them dearly); refused (no port of the chain, no money, one there already): none
            b.try_(FleetDepot(fleet=fleet.id))
        first = landed.get(fleet.location)
        stack = [u.id for u in _aboard_own(b) if b.state.units[u.location.site].location == fleet.location]
        strength = assess.force_strength(b.state, b.ctx, stack)
        for a in sorted(landing_areas(b.state, b.ctx, fleet), key=lambda a: _landing_rank(b, a, first, strength, war, aims)):
            if b.try_(Disembark(corps=c.id, area=a)):
                landed.setdefault(fleet.location, a)
                break
    stage(b, lvl)


# ----------------------------------------------------------------- the expedition ashore (the land slot)

#: Movement points from a port within which an expeditionary corps seeks its targets: what it takes is within a month
#: of the sea, where a fleet can still carry it off.
COAST = 3


def overseas(b: Any, reach: Reach, c: Corps) -> bool:
    """``c`` stands outside its home nation (7.2.2) and no land route through the territory it may enter leads from it
    to the power's national capital: an expedition only its fleets brought, and only they can bring home."""
    st, m = b.state, b.ctx.map
    if supply.is_home_area(st, m, c.location.site, c.nation):
        return False
    caps = assess.capitals(b.ctx, b.power)
    return bool(caps) and not any(a in reach.of(c) for a in caps)


def _open_ports(b: Any) -> dict[str, bool]:
    """The ports its fleets may enter (8.4.2) and no enemy blockades, each with whether a fleet of the power with
    warships lies there."""
    st, m = b.state, b.ctx.map
    fleets = {f.location.site for f in own_fleets(b) if f.location.kind is PORT and warships(f)}
    return {a: a in fleets for a in m.ports() if may_enter_port(st, b.ctx, b.power, a) is None
            and not enemy_fleets_at(st, Location(BOX, a), b.power)}


def coastal_target(b: Any, lvl: Any, c: Corps, strength: int, costs: dict[str, int], *, safe: bool = True) -> str | None:
    """The area an expedition of ``strength`` with ``c`` takes next (``targets``): one it reaches within two
    months' march, within ``COAST`` movement points of a port (one it takes opens to its fleets), no enemy outside its
    city, weaker than the expedition (the enemy within 3 movement points plus the forces inside its city) and, if
    ``safe``, where it could stay (``holds``); those reached soonest (in months) first, then the most valuable, then
    the nearest."""
    st, ctx = b.state, b.ctx
    pace = max(1, allowance(st, ctx, c))
    out = []
    for t in targets(b):
        if t.area not in costs or costs[t.area] > 2 * pace or t.field:
            continue
        near = assess.distances_from(ctx, t.area)
        if min((near[p] for p in ctx.map.ports() if p in near), default=COAST + 1) > COAST:
            continue
        if assess.enemy_forces_near(st, ctx, t.area, b.power, within=3) + t.inside >= strength \
                or (safe and not holds(b, t.area, strength)):
            continue
        out.append((-(-costs[t.area] // pace), -t.value, costs[t.area], t.area))
    return min(out)[-1] if out else None


def stuck(b: Any, lvl: Any, reach: Reach, c: Corps) -> bool:
    """An expeditionary corps (``overseas``) with no ally's corps near (``_with_allies``) and nothing to take near the
    sea (``coastal_target``): its fleets should carry it to where there is (``Reach.idle``)."""
    if not overseas(b, reach, c) or _with_allies(b, c.location.site):
        return False
    strength = assess.force_strength(b.state, b.ctx, [u.id for u in _ashore(b, c.location.site)])
    return coastal_target(b, lvl, c, strength, reach.costs(c)) is None


def _with_allies(b: Any, area: str) -> bool:
    """Corps of a great power allied with this one (6.5) and at war with one of its enemies stand within 3 movement
    points of ``area``, outside the home nation of a great power at war with this one (7.2.2): a theatre where an
    expedition fights beside a continental ally.  In the enemy's home nation it keeps to the coast, where its fleets
    supply and carry it, rather than march inland with the ally's army and waste away foraging (10.5.1, 13.1)."""
    st = b.state
    if b.ctx.map.area(area).nation in st.powers[b.power].wars:
        return False
    fighting = {q for q in st.powers[b.power].alliances if q != b.power
                and any(at_war(st, q, e) for e in st.powers[b.power].wars)}
    if not fighting:
        return False
    near = assess.distances_from(b.ctx, area)
    return any(isinstance(u, Corps) and u.factors.total and u.location.kind in (LocationKind.AREA, LocationKind.CITY)
               and near.get(u.location.site, 4) <= 3 and controller(st, u) in fighting
               for _, u in sorted(st.units.items()))


def _leaves_siege(b: Any, c: Corps) -> bool:
    """``c`` is not besieging, or could not hold where it besieges (``holds``): a fleet may load it (8.6.1)."""
    return not c.besieging or not holds(b, c.location.site, assess.force_strength(b.state, b.ctx, [
        u.id for u in assess.army_units(b.state, b.power) if u.location.site == c.location.site and u.factors.total]))


def _ashore(b: Any, area: str) -> list[Corps]:
    """The power's corps with factors in ``area`` (outside its city or in it)."""
    return [u for u in _cargo(b) if u.location.site == area]


def expedition(b: Any, lvl: Any, free: list[str]) -> set[str]:
    """The land slot, before the armies are formed: the power's expeditionary corps (``overseas``) among ``free`` act
    with the fleet behind them, as a seaborne army does (the ids of those it moved or kept):

    - outmatched where they stand (``holds`` fails) they fall back to the nearest open port (``_open_ports``: one its
      fleets lie in first), where a fleet carries them off (``collect``, ``Reach.idle``); with none within their reach
      they take the nearest weak port or city by the sea, a base to be carried off from;
    - able to hold, they take the next weak target near the sea (``coastal_target``), entering an empty city and
      besieging a held one, instead of marching inland beyond the fleet's reach;
    - with nothing to take they go to the nearest open port to be carried where there is (``stuck``);
    - with no open port within their reach, or beside an ally's corps (``_with_allies``) able to hold with no weak
      target by the sea, they are left to the land plan (an ally's theatre, ``ai.armies``; ``land.fall_back``);
    - besieging, they lift a siege they could not hold and fall back as above (10.4.7: a besieger that marches away
      lifts its part of the siege); one they can hold is ``operations.review_sieges``'."""
    from eiapbem.rules.land.sieging import Besiege

    if not lvl.invasion_corps or not _at_war(b) or b.state.movement_over:
        return set()
    reach = Reach(b)
    if not reach.found:
        return set()
    st = b.state
    groups: dict[str, list[str]] = {}
    for c in [*moves.movers(b), *moves.besiegers(b)]:
        if (c.id in free or c.besieging) and c.location.kind is LocationKind.AREA and overseas(b, reach, c):
            groups.setdefault(c.location.site, []).append(c.id)
    if not groups:
        return set()
    ports = _open_ports(b)
    done: set[str] = set()
    for area, ids in sorted(groups.items()):
        strength = assess.force_strength(st, b.ctx, ids)
        kept = holds(b, area, strength)
        if kept:  # a siege it can hold goes on (``operations.review_sieges``); the others act on their own
            ids = [i for i in ids if not st.units[i].besieging]
            strength = assess.force_strength(st, b.ctx, ids)
        if not ids:
            continue
        lead = b.state.units[max(ids, key=lambda i: (b.state.units[i].factors.total, i))]
        costs = reach.costs(lead)
        goal = coastal_target(b, lvl, lead, strength, costs) if kept else None
        if goal is None and kept and _with_allies(b, area):
            continue  # nothing weak to take by the sea: it fights beside the ally's army (the land plan)
        if goal is None:
            # to the nearest open port (a fleet's first), or stay in the one it stands in
            options = sorted((not ports[a], costs[a], a) for a in costs if a in ports)
            goal = area if area in ports else options[0][2] if options else None
        if goal is None and not kept:
            goal = coastal_target(b, lvl, lead, strength, costs, safe=False)  # no port to go to: take one
        if goal is None:
            continue
        done |= set(ids)
        for cid in sorted(ids):
            c = b.state.units[cid]
            empty = moves.empty_enemy_city(b, goal)
            if goal != area or empty:
                moves.advance(b, c, goal, city=empty)  # an empty enemy city is taken by walking in (13.5.2)
            c = b.state.units[cid]
            if c.location.kind is LocationKind.AREA and c.location.site == goal and goal in reach.found \
                    and not moves.field_enemy(b, goal) and not b.state.pending:
                b.try_(Besiege(unit=cid))
    return done
