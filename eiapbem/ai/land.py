"""An AI power's land slot (10.0-11.4): moving corps, supply, field combat, sieges (issue 19 item 2).

Every action goes through ``Builder.try_`` (the engine's own checks, as for a
human's ``eiapbem land ...``); the plan re-reads the state after each one, so a
refused action is simply not taken and nothing later relies on it.  The
evaluation (strength, odds, distances, threats) is ``eiapbem.ai.assess``.

In this order, at war (a war with a major power or a neutral minor, 6.2, 6.15):

1. **depots** (10.3; medium, hard): a depot where a corps stands more than two
   areas from its power's supply chain, before it moves (10.3.3 asks for a corps
   that has not moved), while the treasury holds three times a depot's cost;
2. **the capital** (medium, hard): when enemy field strength within reach of a
   national capital (``assess.capital_threats``) exceeds the friendly strength
   there, the nearest corps march to it until the two balance, the first into
   its city if no one holds it (an empty city is taken by walking in, 13.5.2);
3. **falling back** (medium, hard): a corps facing enemy strength nearby more
   than ``retreat_odds`` per hundred of its own goes to the nearest friendly,
   unbesieged city's area in reach (its own territory first), outside the city;
4. **the offensive**: targets are enemy corps outside cities, enemy-held cities
   and enemy capitals.  *Easy* moves greedily one corps at a time toward the
   nearest target it alone outmatches (``attack_odds``).  *Medium* and *hard*
   pick up to ``objectives`` objectives one after the other (value x odds /
   distance) and send to each the nearest corps within ``horizon`` movement
   points that together are enough for it (its odds, a quarter over); they
   enter an enemy stack's area only when the corps that can arrive this slot
   together reach ``attack_odds``, else they wait one area short.  A move that
   does not end on its objective ends within three areas of the supply chain
   (depot supply, 10.5.2) and where fewer than ``crowd`` of its corps stand
   (each other corps in an area makes foraging worse, 10.5.1); in winter (2
   worse, 10.5.1) only objectives in its own territory are taken.  *Hard*
   moves idle corps toward the corps with its best leader (concentration under
   the best commander); at both levels the corps still idle march toward the
   nearest enemy target out of reach (not in winter), short of enemy stacks;
5. **combat** (11.1): every area where its corps share the rural part with the
   enemy is attacked, one battle at a time (the rules oblige it anyway);
6. **sieges** (10.4.7, 11.4): a corps in the area of an enemy-held city with no
   enemy outside besieges it; an assault is made when the besiegers' strength is at
   least ``assault_odds`` per hundred of the forces inside (hard also sorties
   with a besieged garrison twice as strong as its besiegers, 11.4.2).

Supply is the rules' own "Auto Forage" (10.5, ``rules.land.supplyphase``):
foraging where no roll can cost a factor, else depot supply while the treasury
pays.  At peace the power garrisons and holds: it moves nothing.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import eiapbem.ai.assess as assess
from eiapbem.ai.levels import Level
from eiapbem.core.errors import IllegalAction
from eiapbem.rules import control, mapgraph, relations, supply
from eiapbem.rules.land.combat import Attack, areas_to_attack
from eiapbem.rules.forces import IRREGULAR
from eiapbem.rules.land.common import may_enter_territory
from eiapbem.rules.land.depots import DEPOT_COST, CreateDepot, own_territory
from eiapbem.rules.land.movement import MoveUnit, allowance, step, winter_movement
from eiapbem.rules.land.sieging import Assault, Besiege, GarrisonAttack
from eiapbem.rules.land.supplyphase import MAX_SUPPLY_DISTANCE
from eiapbem.rules.model import POWERS, Corps, CorpsType, LocationKind

#: A bound on the battles the AI starts in one slot (never reached: one per area).
MAX_BATTLES = len(POWERS) * 100
#: Depots placed in one slot at most.
MAX_NEW_DEPOTS = 2
#: Objectives' values: an enemy capital, one of its own home cities in enemy hands, another enemy city, an enemy
#: corps outside a city, an enemy corps in its home nation.
VALUE_CAPITAL, VALUE_HOME, VALUE_CITY, VALUE_CORPS, VALUE_INVADER = 6, 5, 3, 4, 6
#: The farthest (movement points) a route is searched.
MAX_ROUTE = 30
#: Movement points around a corps that its "local" threat is counted over (an enemy's allowance and one).
LOCAL = 5


# ----------------------------------------------------------------- helpers


def movers(b: Any, *, engaged: bool = False, raiders: bool = False) -> list[Corps]:
    """The power's corps that may still move this slot: regular corps with factors, not besieging, not
    besieged in a city, not halted, by id; those sharing their area with enemy corps (they fight there,
    11.1) only if ``engaged``.  Cossacks and Freikorps are left to ``ai.raids``: only they, with ``raiders``."""
    st, m = b.state, b.ctx.map
    out = []
    blocked = stops(st, b.power)
    for c in assess.army_units(st, b.power):
        if c.corps_type is CorpsType.GUERRILLA or c.besieging \
                or (c.corps_type in (CorpsType.COSSACK, CorpsType.FREIKORPS)) is not raiders:
            continue
        if not engaged and c.location.kind is LocationKind.AREA and c.location.site in blocked:
            continue
        if c.location.kind is LocationKind.CITY and control.is_besieged(st, m, c.location.site):
            continue
        rec = st.land_moves.get(c.id)
        if rec is not None and (rec.halted or rec.foraged or rec.placed_back):
            continue
        out.append(c)
    return out


def _crossing_open(b: Any):
    st, power = b.state, b.power

    def ok(c: Any) -> bool:
        if c.optional is not None and not getattr(st.options, f"use_{c.optional}_sea_crossing", False):
            return False
        return not supply.enemy_fleet_in_sea(st, c.sea, power)
    return ok


def stops(state: Any, power: str) -> frozenset[str]:
    """Areas where an enemy corps or depot garrison outside the city would stop a corps (10.4.2): the rules'
    ``must_stop_in`` for every area at once."""
    out = set()
    for u in state.units.values():  # a set of areas: the order does not matter
        if u.location.kind is not LocationKind.AREA or u.location.site in out:
            continue
        if isinstance(u, Corps) and u.corps_type in IRREGULAR or not getattr(u, "factors", None) or not u.factors.total:
            continue
        if assess.hostile(state, power, u):
            out.add(u.location.site)
    return frozenset(out)


def route(b: Any, corps: Corps, goal: str, *, max_cost: int = MAX_ROUTE) -> tuple[str, ...] | None:
    """The areas a corps would enter on its way to ``goal`` (cheapest by the map's movement costs),
    around areas it may not enter (13.4.1) and enemy stacks that would stop it (10.4.2), or None."""
    st, m, power = b.state, b.ctx.map, b.power
    here = corps.location.site
    if here == goal:
        return ()
    blocked = stops(st, power)
    allowed: dict[str, bool] = {}

    def can_enter(a: str) -> bool:
        ok = allowed.get(a)
        if ok is None:
            ok = allowed[a] = (a == goal or a not in blocked) and may_enter_territory(st, m, a, power) is None
        return ok

    found = mapgraph.shortest_land_path(m, here, goal, max_cost=max_cost, crossings=_crossing_open(b),
                                        can_enter=can_enter, winter=winter_movement(st))
    return None if found is None else found[0][1:]


def costs_from(b: Any, corps: Corps, horizon: int) -> dict[str, int]:
    """Movement costs from the corps' area to every area it could march to within ``horizon`` points, with
    the state's limits (13.4.1 territory, crossing arrows closed by enemy fleets or options)."""
    st, m, power = b.state, b.ctx.map, b.power
    return mapgraph.movement_costs(m, corps.location.site, max_cost=horizon, crossings=_crossing_open(b),
                                   can_enter=lambda a: may_enter_territory(st, m, a, power) is None,
                                   winter=winter_movement(st))


def reach(b: Any, corps: Corps, path: tuple[str, ...], *, forced: bool = False) -> list[str]:
    """The longest beginning of ``path`` the corps can move this slot (the rules' own step costs; with the
    forced march's point if ``forced``, 10.4.1)."""
    st, power = b.state, b.power
    ma = allowance(st, b.ctx, corps, forced_march=forced)
    rec = st.land_moves.get(corps.id)
    spent = rec.spent if rec is not None else 0
    at = corps.location.site
    blocked = stops(st, power)
    legs: list[str] = []
    for to in path:
        try:
            s = step(st, b.ctx, power, corps, at, to)
        except IllegalAction:
            break
        if spent + s.cost > ma:
            break
        spent += s.cost
        legs.append(to)
        at = to
        if to in blocked:
            break
    return legs


def own_corps_in(b: Any, area: str) -> int:
    """The power's corps with factors in ``area`` (rural part or city)."""
    return sum(1 for c in control.corps_at(b.state, area) if c.factors.total and relations.unit_power(b.state, c) == b.power)


def advance(b: Any, corps: Corps, goal: str, *, enter_goal: bool = True, city: bool = False,
            leash: frozenset[str] | None = None, crowd: int = 0) -> bool:
    """Move ``corps`` as far toward ``goal`` as the rules allow this slot (stopping short of it unless
    ``enter_goal``); a refused move is shortened area by area.  With a ``leash`` (``supplied_areas``) the
    move ends inside it, and with a ``crowd`` in an area holding fewer of the power's corps (each other corps
    makes foraging worse, 10.5.1), unless it ends in ``goal`` itself to fight or besiege.  True if it moved."""
    path = route(b, corps, goal)
    if path is None:
        return False
    if not path:  # already there: only into the city
        return city and corps.location.kind is LocationKind.AREA and b.try_(
            MoveUnit(unit=corps.id, path=goal, city=True))
    legs = reach(b, corps, path)
    if not enter_goal and legs and legs[-1] == goal:
        legs.pop()
    while legs and legs[-1] != goal and (leash is not None and legs[-1] not in leash
                                         or crowd and own_corps_in(b, legs[-1]) >= crowd):
        legs.pop()
    while legs:
        into_city = city and legs[-1] == goal
        if b.try_(MoveUnit(unit=corps.id, path=",".join(legs), city=into_city)):
            return True
        if into_city and b.try_(MoveUnit(unit=corps.id, path=",".join(legs))):
            return True
        legs.pop()
    return False


def arrives(b: Any, corps: Corps, goal: str) -> bool:
    """``corps`` can end this slot in ``goal``."""
    path = route(b, corps, goal)
    if path is None:
        return False
    return not path or (reach(b, corps, path)[-1:] == [goal])


def supplied_areas(b: Any) -> frozenset[str]:
    """Areas within three areas of the power's valid supply chain (10.5.2, 000:1530: depot supply reaches
    three areas), counted over land borders and open crossings; the AI's estimate of where a corps ends its
    move with depot supply instead of foraging (the rules decide at the end of movement)."""
    st, m, power = b.state, b.ctx.map, b.power
    seen = set(supply.supply_chain(st, m, power))
    frontier = sorted(seen)
    for _ in range(MAX_SUPPLY_DISTANCE):
        nxt = []
        for a in frontier:
            for n in m.land_neighbours(a):
                if n not in seen:
                    seen.add(n)
                    nxt.append(n)
        frontier = sorted(nxt)
    return frozenset(seen)


def own_territory_of(state: Any, m: Any, area: str, power: str) -> bool:
    """``area`` is in ``power``'s home nation (whoever holds it now)."""
    return m.area(area).nation == power


def _empty_enemy_city(b: Any, area: str) -> bool:
    """The city of ``area`` is held by an enemy with no one inside: a corps entering takes it (13.5.2)."""
    m = b.ctx.map
    if m.area(area).city is None or not relations.at_war(b.state, b.power, control.city_holder(b.state, m, area)):
        return False
    f = assess.forces_in(b.state, b.ctx, area, b.power)
    return f.enemy_city == 0 and f.enemy == 0


def field_enemy(b: Any, area: str) -> int:
    """Enemy strength outside the city of ``area`` (what a field battle there would meet)."""
    f = assess.forces_in(b.state, b.ctx, area, b.power)
    return f.enemy - f.enemy_city


# ----------------------------------------------------------------- targets

NOBODY = assess.AreaForces()


@dataclass(frozen=True)
class Target:
    area: str
    value: int
    #: Enemy strength outside the city (a field battle) and inside it (a siege).
    field: int
    inside: int


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
        if a in cities and own_territory_of(st, ctx.map, a, power):
            value = VALUE_HOME  # its own city in enemy hands
        if f.enemy - f.enemy_city:
            value = max(value, VALUE_INVADER if own_territory_of(st, ctx.map, a, power) else VALUE_CORPS)
        out.append(Target(a, value, f.enemy - f.enemy_city, f.enemy_city))
    return out


# ----------------------------------------------------------------- the plan


def plan(b: Any, lvl: Level) -> None:
    """Play ``b.power``'s land slot on the builder ``b`` (``eiapbem.ai.Builder``)."""
    if lvl.land != "hold" and assess.at_war_anywhere(b.state, b.power) and not b.state.movement_over:
        if lvl.depots:
            place_depots(b)
        busy: set[str] = set()
        busy |= honour_requests(b, busy)
        if lvl.defend_capital:
            busy |= defend_capitals(b)
        if lvl.retreat_odds:
            busy |= fall_back(b, lvl, busy)
        if lvl.land == "greedy":
            greedy(b, lvl, busy)
        else:
            concentrate(b, lvl, busy)
        besiege(b)
    fight(b)
    besiege(b)
    assault(b, lvl)
    fight(b)  # an assault ends movement (11.0), which can leave an enemy in the field to attack (11.1)


def place_depots(b: Any) -> None:
    """A depot where a corps stands with no depot of the valid supply chain within two areas (10.3.3 lets a
    new depot be placed up to two areas from the chain), before the corps moves."""
    m, power = b.ctx.map, b.power
    placed = 0
    chain = supply.supply_chain(b.state, m, power)
    for c in movers(b):
        if placed >= MAX_NEW_DEPOTS or b.state.powers[power].treasury < 3 * DEPOT_COST:
            return
        area = c.location.site
        if area in chain or any(a in chain for a in supply.within_two(b.state, m, area, power)):
            continue
        if b.try_(CreateDepot(area=area)):
            placed += 1
            chain = supply.supply_chain(b.state, m, power)


def defend_capitals(b: Any) -> set[str]:
    """Corps sent to a threatened national capital (ids)."""
    sent: set[str] = set()
    for t in assess.capital_threats(b.state, b.ctx, b.power):
        if not t.danger:
            continue
        need = t.enemy - t.friendly
        near = sorted(((assess.distance(b.ctx, c.location.site, t.area), c.id) for c in movers(b)
                       if c.id not in sent), key=lambda x: (x[0] if x[0] is not None else 1 << 20, x[1]))
        for d, cid in near:
            if need <= 0 or d is None:
                break
            c = b.state.units[cid]
            sent.add(cid)
            need -= assess.factor_strength(b.state, b.ctx, c)
            empty = not _own_inside(b, t.area)  # the first corps there goes into an empty capital (13.5.2)
            if c.location.site != t.area or empty and c.location.kind is LocationKind.AREA:
                advance(b, c, t.area, city=empty)
    return sent


def honour_requests(b: Any, busy: set[str]) -> set[str]:
    """6.16: an attack or a defence this power granted an ally for this month (``military_requests``) draws its
    nearest corps with a route there, before its own plans; an attack does not wait for the odds (ids)."""
    sent: set[str] = set()
    for area, _action in b.state.powers[b.power].military_requests.items():
        near = sorted((d, c.id) for c in movers(b) if c.id not in busy | sent
                      and (d := assess.distance(b.ctx, c.location.site, area)) is not None)
        for _d, cid in near:
            c = b.state.units[cid]
            if c.location.site == area or route(b, c, area) is not None:
                sent.add(cid)
                if c.location.site != area:
                    advance(b, c, area)
                break
    return sent


def _own_inside(b: Any, area: str) -> bool:
    """Some of the power's or its allies' forces with factors stand inside the city of ``area``."""
    return any(u.location.kind is LocationKind.CITY and u.location.site == area and getattr(u, "factors", None)
               and u.factors.total and assess.friendly(b.state, b.power, u) for u in b.state.units.values())


def fall_back(b: Any, lvl: Level, busy: set[str]) -> set[str]:
    """Corps that fall back before a much stronger enemy (ids): the enemy strength within ``LOCAL`` movement
    points against the power's own there.  The refuge is the area of a friendly unbesieged city it can reach
    this slot with the least enemy strength near it (its own territory first); it stays outside the city,
    where a siege would starve it (10.5.5)."""
    ctx, power, m = b.ctx, b.power, b.ctx.map
    gone: set[str] = set()
    for c in movers(b, engaged=True):
        c = b.state.units[c.id]
        if c.id in busy or c.location.kind is LocationKind.CITY:
            continue
        here = c.location.site
        threat = assess.enemy_forces_near(b.state, ctx, here, power, LOCAL)
        if threat * 100 <= assess.own_forces_near(b.state, ctx, here, power, LOCAL) * lvl.retreat_odds:
            continue
        near = costs_from(b, c, allowance(b.state, ctx, c))
        refuges = sorted((not own_territory(b.state, m, a, power), assess.enemy_forces_near(b.state, ctx, a, power, LOCAL),
                          d, a) for a, d in near.items()
                         if a != here and m.area(a).city is not None and control.city_power(b.state, m, a) == power
                         and not control.is_besieged(b.state, m, a))
        for *_, a in refuges[:3]:
            if advance(b, c, a, enter_goal=a not in stops(b.state, power)):
                gone.add(c.id)
                break
    return gone


def greedy(b: Any, lvl: Level, busy: set[str]) -> None:
    """Easy: each corps alone toward the nearest target it outmatches (or any enemy city)."""
    held, found = b.state.city_control, targets(b)
    for c in movers(b):
        if c.id in busy:
            continue
        c = b.state.units[c.id]
        own = assess.force_strength(b.state, b.ctx, [c.id])
        near = costs_from(b, c, lvl.horizon)
        best: tuple[int, str] | None = None
        if b.state.city_control is not held:  # a city was taken: the targets changed (enemy corps did not move)
            held, found = b.state.city_control, targets(b)
        for t in found:
            d = near.get(t.area)
            if d is None or (t.field and assess.odds(own, t.field) < lvl.attack_odds):
                continue
            if best is None or (d, t.area) < best:
                best = (d, t.area)
        if best is not None:
            take = _empty_enemy_city(b, best[1])
            if best[1] != c.location.site or take:
                advance(b, c, best[1], city=take)


def concentrate(b: Any, lvl: Level, busy: set[str]) -> None:
    """Medium and hard: objectives one after the other, each with every free corps within the horizon."""
    ctx = b.ctx
    free = [c.id for c in movers(b) if c.id not in busy]
    near = {c.id: costs_from(b, c, lvl.horizon) for c in movers(b) if c.id not in busy}
    leash = supplied_areas(b) if lvl.depots else None
    winter = b.state.date.month in supply.WINTER_MONTHS
    for _ in range(lvl.objectives):
        if not free:
            break
        best: tuple[int, str, tuple[str, ...]] | None = None
        for t in targets(b):
            if winter and lvl.depots and not own_territory(b.state, ctx.map, t.area, b.power):
                continue  # 10.5.1: foraging is 2 worse in winter: no campaign outside its own territory
            group = _enough(b, lvl, t, sorted((near[cid][t.area], cid) for cid in free if t.area in near[cid]))
            if not group:
                continue
            strength = assess.force_strength(b.state, ctx, group)
            if t.field and assess.odds(strength, t.field) < lvl.attack_odds:
                continue
            dist = sum(near[cid][t.area] for cid in group) // len(group)
            odds = min(400, assess.odds(strength, t.field + t.inside))
            score = t.value * odds // (1 + dist)
            if best is None or (score, assess.name_last_first(t.area)) > (best[0], assess.name_last_first(best[1])):
                best = (score, t.area, group)
        if best is None:
            break
        _, goal, group = best
        _march(b, lvl, goal, group, leash)
        free = [cid for cid in free if cid not in group]
    if lvl.gather and free:
        _gather(b, lvl, free, near, leash)
    if not winter:
        _approach(b, lvl, [cid for cid in free if not b.state.land_moves.get(cid)], leash)


def _enough(b: Any, lvl: Level, t: Target, by_distance: list[tuple[int, str]]) -> tuple[str, ...]:
    """The nearest corps whose strength together reaches what ``t`` needs (the level's odds against the
    enemy outside and inside its city, a quarter over; one corps for an empty city); all of them if short."""
    need = max(t.field * lvl.attack_odds, t.inside * max(100, lvl.assault_odds)) // 100 * 5 // 4
    out: list[str] = []
    for _, cid in by_distance:
        out.append(cid)
        if assess.force_strength(b.state, b.ctx, out) > need:
            break
    return tuple(out)


def _march(b: Any, lvl: Level, goal: str, group: tuple[str, ...], leash: frozenset[str] | None) -> None:
    """The group marches on ``goal``; it enters an area held by enemy corps only if those arriving now win
    by the level's odds, else it waits one area short."""
    arriving = [cid for cid in group if arrives(b, b.state.units[cid], goal)]
    fight_now = True
    field = field_enemy(b, goal)
    if field:
        fight_now = assess.odds(assess.force_strength(b.state, b.ctx, arriving), field) >= lvl.attack_odds
    take = _empty_enemy_city(b, goal)
    for cid in group:
        c = b.state.units.get(cid)
        if isinstance(c, Corps) and (c.location.site != goal or take and c.location.kind is LocationKind.AREA):
            advance(b, c, goal, enter_goal=fight_now, city=take, leash=leash, crowd=lvl.crowd)


def _gather(b: Any, lvl: Level, free: list[str], near: dict[str, dict[str, int]], leash: frozenset[str] | None) -> None:
    """Hard: idle corps close up on the corps with the power's best leader (a corps stays with it)."""
    st, ctx = b.state, b.ctx
    own = assess.army_units(st, b.power)
    lead = assess.best_leader(st, ctx, [c.id for c in own])
    if lead is None:
        return
    head = st.units.get(st.leaders[lead].attached_to or "")
    if not isinstance(head, Corps) or head.id in free and len(free) == 1:
        return
    goal = head.location.site
    for cid in free:
        c = b.state.units.get(cid)
        if isinstance(c, Corps) and cid != head.id and c.location.site != goal and goal in near.get(cid, {}):
            advance(b, c, goal, enter_goal=False, leash=leash, crowd=lvl.crowd)


def _approach(b: Any, lvl: Level, idle: list[str], leash: frozenset[str] | None) -> None:
    """Corps with no objective in reach march toward the nearest enemy target farther away (by the map's
    distances; the first of the three nearest a route reaches), one area short of any enemy stack."""
    if not idle:
        return
    found = targets(b)
    for cid in idle:
        c = b.state.units.get(cid)
        if not isinstance(c, Corps):
            continue
        far = assess.distances_from(b.ctx, c.location.site)
        nearest = sorted((far[t.area], t.area) for t in found if t.area in far and t.area != c.location.site)
        for _, goal in nearest[:3]:
            if advance(b, c, goal, enter_goal=False, leash=leash, crowd=lvl.crowd):
                break


def fight(b: Any) -> None:
    """11.1 (000:1610): attack every area where its forces share the rural part with the enemy, one
    battle at a time, each fought out (the answers settled) before the next."""
    for _ in range(MAX_BATTLES):
        todo = areas_to_attack(b.state, b.power)
        if not todo or b.state.pending or not b.try_(Attack(todo[0])):
            return


def besiege(b: Any) -> None:
    """Every corps in an area whose city the enemy holds, with no enemy outside it, besieges it."""
    st, m, power = b.state, b.ctx.map, b.power
    for c in assess.army_units(st, power):
        c = b.state.units[c.id]
        if not isinstance(c, Corps) or c.besieging or c.location.kind is not LocationKind.AREA \
                or c.corps_type in (CorpsType.GUERRILLA, CorpsType.COSSACK, CorpsType.FREIKORPS):
            continue
        a = c.location.site
        if m.area(a).city is None or not relations.at_war(b.state, power, control.city_holder(b.state, m, a)):
            continue
        if b.state.pending:
            return
        b.try_(Besiege(unit=c.id))


def assault(b: Any, lvl: Level) -> None:
    """An assault where the besiegers are strong enough; hard sorties from its own besieged cities."""
    if not lvl.assault_odds or b.state.pending:
        return
    m, power = b.ctx.map, b.power
    areas = sorted({c.location.site for c in assess.army_units(b.state, power) if c.besieging})
    for a in areas:
        if b.state.pending:
            return
        ids = [c.id for c in control.corps_at(b.state, a) if c.besieging and relations.unit_power(b.state, c) == power]
        inside = assess.forces_in(b.state, b.ctx, a, power).enemy_city
        if ids and assess.odds(assess.force_strength(b.state, b.ctx, ids), inside) >= lvl.assault_odds:
            b.try_(Assault(area=a))
    if not lvl.sortie:
        return
    for a in m.cities():
        if b.state.pending:
            return
        if control.city_power(b.state, m, a) != power or not control.is_besieged(b.state, m, a):
            continue
        f = assess.forces_in(b.state, b.ctx, a, power)
        mine = [u.id for _, u in sorted(b.state.units.items()) if u.location.kind is LocationKind.CITY
                and u.location.site == a and assess.friendly(b.state, power, u) and hasattr(u, "factors")]
        if assess.odds(assess.force_strength(b.state, b.ctx, mine), f.enemy - f.enemy_city) >= 200:
            b.try_(GarrisonAttack(area=a))


__all__ = ["Target", "advance", "arrives", "assault", "besiege", "concentrate", "defend_capitals", "fall_back", "fight",
           "greedy", "movers", "place_depots", "plan", "reach", "route", "targets"]
