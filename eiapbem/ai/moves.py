"""Moving the computer's corps on land: who may move, routes, how far a corps gets this slot (10.4).

Shared by the land plan (``eiapbem.ai.land``, ``eiapbem.ai.operations``), forced marches (``eiapbem.ai.march``),
raids (``eiapbem.ai.raids``) and the staging of invasions (``eiapbem.ai.naval``).  Every move is an engine action
taken with ``Builder.try_``; these helpers only find what to ask for, with the rules' own costs (10.4.1
``movement.step``, ``movement.allowance``), stops (10.4.2: an enemy corps or depot garrison outside the city) and
territory (13.4.1).
"""

from __future__ import annotations

import heapq
from typing import Any

import eiapbem.ai.assess as assess
from eiapbem.core.errors import IllegalAction
from eiapbem.rules import control, mapgraph, relations, supply
from eiapbem.rules.forces import IRREGULAR
from eiapbem.rules.land.common import may_enter_territory
from eiapbem.rules.land.movement import MoveUnit, allowance, step, winter_movement
from eiapbem.rules.land.supplyphase import MAX_SUPPLY_DISTANCE
from eiapbem.rules.model import Corps, CorpsType, LocationKind

#: The farthest (movement points) a route is searched.
MAX_ROUTE = 30
#: Movement points around a corps that its "local" threat is counted over (an enemy's allowance and one).
LOCAL = 5


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
        if free_to_move(st, m, c, "foraged"):
            out.append(c)
    return out


def besiegers(b: Any) -> list[Corps]:
    """The power's regular besieging corps that may still move this slot (``movers`` leaves them out: a corps that
    marches away lifts its part of the siege, 10.4.7), by id."""
    return [c for c in assess.army_units(b.state, b.power) if c.besieging and c.factors.total
            and c.corps_type is CorpsType.REGULAR and free_to_move(b.state, b.ctx.map, c, "foraged")]


def free_to_move(st: Any, m: Any, c: Corps, done: str) -> bool:
    """``c`` is not shut in a besieged city, and its move record this slot is not halted, placed back, nor ``done``
    (the record's flag that ends its moves for the caller: ``foraged`` for a corps, ``passed`` for a guerrilla, which
    moves one area a month, 000:1364)."""
    if c.location.kind is LocationKind.CITY and control.is_besieged(st, m, c.location.site):
        return False
    rec = st.land_moves.get(c.id)
    return rec is None or not (rec.halted or rec.placed_back or getattr(rec, done))


def _crossing_open(b: Any):
    st, power = b.state, b.power

    def ok(c: Any) -> bool:
        if c.optional is not None and not getattr(st.options, f"use_{c.optional}_sea_crossing", False):
            return False
        return not supply.enemy_fleet_in_sea(st, c.sea, power)
    return ok


def open_costs(b: Any, area: str, within: int, *, for_power: str | None = None) -> dict[str, int]:
    """Movement costs from ``area`` within ``within`` points over the land and the crossing arrows open now to
    ``for_power`` (the game's options, its enemies' fleets, 10.4.1; no territory limits): how far a threat really is."""
    st, power = b.state, for_power or b.power

    def ok(c: Any) -> bool:
        if c.optional is not None and not getattr(st.options, f"use_{c.optional}_sea_crossing", False):
            return False
        return not supply.enemy_fleet_in_sea(st, c.sea, power)
    return mapgraph.movement_costs(b.ctx.map, area, max_cost=within, crossings=ok, winter=winter_movement(st))


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


def field_enemy(b: Any, area: str) -> int:
    """Enemy strength outside the city of ``area`` (what a field battle there would meet)."""
    f = assess.forces_in(b.state, b.ctx, area, b.power)
    return f.enemy - f.enemy_city


Reach = dict[str, tuple[int, tuple[str, ...]]]


def reachable(b: Any, c: Corps) -> Reach:
    """The areas ``c`` can end its move in this slot, each with its cost and the path (the rules' own step costs,
    10.4.1; an area with an enemy stack stops it, 10.4.2), its own area at cost 0."""
    st, ctx, power = b.state, b.ctx, b.power
    rec = st.land_moves.get(c.id)
    if rec is not None and (rec.halted or rec.foraged or rec.placed_back):
        return {c.location.site: (0, ())}
    left = allowance(st, ctx, c) - (rec.spent if rec is not None else 0)
    blocked = stops(st, power)
    start = c.location.site
    best: Reach = {start: (0, ())}
    heap: list[tuple[int, tuple[str, ...], str]] = [(0, (), start)]
    m = ctx.map
    while heap:
        cost, path, here = heapq.heappop(heap)
        if best.get(here, (1 << 20,))[0] < cost or (here in blocked and here != start):
            continue
        nbs = set(m.land_neighbours(here)) | {x.other_end(here) for x in m.crossings_at(here)}
        for to in sorted(nbs):
            try:
                s = step(st, ctx, power, c, here, to)
            except IllegalAction:
                continue
            total = cost + s.cost
            if total > left or (to in best and best[to][0] <= total):
                continue
            best[to] = (total, path + (to,))
            heapq.heappush(heap, (total, path + (to,), to))
    return best


def go(b: Any, c: Corps, path: tuple[str, ...], *, city: bool = False) -> bool:
    """Move ``c`` along ``path`` (into the city at its end if ``city`` and the rules let it); True if it moved."""
    if not path:
        return city and c.location.kind is LocationKind.AREA and b.try_(MoveUnit(unit=c.id, path=c.location.site, city=True))
    if city and b.try_(MoveUnit(unit=c.id, path=",".join(path), city=True)):
        return True
    return b.try_(MoveUnit(unit=c.id, path=",".join(path)))


def empty_enemy_city(b: Any, area: str) -> bool:
    """The city of ``area`` is held by an enemy with no one inside: a corps entering takes it (13.5.2)."""
    m = b.ctx.map
    if m.area(area).city is None or not relations.at_war(b.state, b.power, control.city_holder(b.state, m, area)):
        return False
    f = assess.forces_in(b.state, b.ctx, area, b.power)
    return f.enemy_city == 0 and f.enemy == 0


def own_inside(b: Any, area: str) -> bool:
    """Some of the power's or its allies' forces with factors stand inside the city of ``area``."""
    return any(u.location.kind is LocationKind.CITY and u.location.site == area and getattr(u, "factors", None)
               and u.factors.total and assess.friendly(b.state, b.power, u) for u in control.units_at(b.state, area))


__all__ = ["LOCAL", "MAX_ROUTE", "Reach", "advance", "arrives", "besiegers", "costs_from", "empty_enemy_city", "field_enemy", "free_to_move", "go",
           "movers", "open_costs", "own_corps_in", "own_inside", "reach", "reachable", "route", "stops", "supplied_areas"]
