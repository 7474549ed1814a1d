"""Naval movement and interception (8.4-8.5, 8.8; 000:1056-1126, 000:1164-1176).

``naval.move`` moves one fleet, or with ``--stack`` every fleet the power moves in
the fleet's place that may still move (8.4.3), along a path of places (sea areas,
ports, blockade boxes ``box:x``; ``eiapbem.rules.naval.graph``).  Checked, step by step:

- seven movement points a fleet a phase (8.4, 000:1058), sea areas 1, box and sea 1,
  port and its box 0; a port is entered and left through its box (8.4.1-8.4.2);
- the ice line in winter (8.4.1, 000:1064);
- another power's port only with its permission, or at war to attack fleets in it (8.4.2);
- a blockade box is passed only into or out of its port; a stack stays in a box only at war
  with the port's holder or with an enemy fleet in the box or port (8.8, 000:1168; 8.4.2);
- a stack entering a port whose box holds enemy blockaders stops in the box: lifting the
  blockade is an attack of the combat step (8.8, 000:1176);
- no fleet moves twice (8.4.3, 000:1080), except one that won the interception combat
  that stopped it, with the points it has left (8.5.4, 000:1126), and a stack that ended its
  move where fleets of its power that have not moved wait: it goes on with them as one stack
  (``--stack``), with the points the most used of them has left (8.4.3, 000:1076); fleets on a
  piracy mission are away (8.9).

Interception (8.5): after each sea area the stack enters, every enemy stack with standing
orders to intercept (``naval.orders``) in that sea area (a roll of 3 or less), in an
adjacent sea area, in an unblockaded port or a blockade box touching it (1 or less) tries
once, Nelson taking one from the roll (8.5.3-8.5.4, ``tables.naval.intercepts``), powers in
the order of the seven, stacks by place.  Leaving a port whose box holds enemy fleets is
intercepted there at once (8.5.4, 000:1112; 8.8, 000:1172).  A successful interceptor moves
to the stack and the combat is fought at once (``start_naval_battle(interception=True)``);
the move stops there.  A beaten interceptor tries no more this slot (000:1126).

A power at war with the owner of a corps the stack carries (a loaned corps, 7.6) may intercept
it though not at war with the mover; on success it declares war on the mover first, with no
restriction (8.5.1, 000:1098; 8.6, 000:1132).

When the stack goes on after beating an interception, the beaten power's other stacks with
orders first try again in that sea area (8.5.3, last point; the label's step is ``again``).
"""

from __future__ import annotations

import heapq

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from eiapbem.core.errors import IllegalAction
from eiapbem.rules import candidates, control, engine, relations
from eiapbem.rules.land.movement import Reach, UnitReach
from eiapbem.rules.model import Corps, Fleet, GameState, Location, LocationKind, NavalMove, Record
from eiapbem.rules.model.units import UnitId
from eiapbem.rules.naval import graph
from eiapbem.rules.naval.battle import start_naval_battle
from eiapbem.rules.naval.common import (
    NELSON,
    lose_fleet_depots,
    controller,
    enemy_fleets_at,
    fleets_at,
    hostile,
    in_battle,
    may_enter_port,
    may_stay_in_box,
    on_mission,
    own_fleet,
    powers_in_order,
    record_of,
    warships,
)
from eiapbem.rules.naval.interception import interception_attempt
from eiapbem.rules.engine import RulesContext

SEA, PORT, BOX = LocationKind.SEA, LocationKind.PORT, LocationKind.BLOCKADE


@dataclass(frozen=True, slots=True)
class MoveFleet(Record):
    """Move a fleet, or its whole stack, along a path of sea areas, ports and blockade boxes (8.4)."""

    KIND = "naval.move"
    COMMAND = "move"
    BUTTON = "Select All Units in Stack to Move"

    fleet: UnitId
    #: The places entered, in order, separated by commas: sea areas (north-sea), ports (brest),
    #: blockade boxes (box:brest).  A port is entered and left through its box (8.4.2).
    path: str
    #: Move every fleet of the stack in the fleet's place that may still move (8.4.3).
    stack: bool = False


@dataclass(frozen=True)
class Plan:
    fleets: tuple[Fleet, ...]
    start: Location
    steps: tuple[tuple[Location, int], ...]
    records: dict[str, NavalMove]


def may_continue(state: GameState, fleet: Fleet) -> str | None:
    """Why ``fleet`` may not move (again) this slot, or None."""
    rec = state.naval_moves.get(fleet.id)
    if on_mission(fleet):
        return f"{fleet.id} is away on a {fleet.mission} mission (8.9); end the mission first ('eiapbem naval end-mission')"
    if in_battle(state, fleet.id):
        return f"{fleet.id} is in a naval combat that is not over; answer its questions first"
    if rec is None:
        return None
    if rec.battle is not None:
        b = state.naval_battles.get(rec.battle)
        if b is None or b.step != "done":
            return f"{fleet.id} was intercepted and its combat is not over; answer its questions first"
        if b.victor == "attacker" and fleet.location == b.location and fleet.ships.total > 0:
            return None  # 8.5.4 (000:1126): the phasing stack won; it goes on with the points left
        return f"{fleet.id} was stopped by an interception it did not win, so its movement is over (8.5.4, 000:1124)"
    if rec.halted:
        return f"{fleet.id} has already moved this phase; no fleet moves twice (8.4.3, 000:1080)"
    return None  # it ended where unmoved fleets of its power wait: it may go on with them (8.4.3)


def _carries_corps(state: GameState, fleets: list[Fleet]) -> bool:
    """A corps is aboard one of ``fleets`` (a transport, 8.6)."""
    aboard = {Location(LocationKind.ABOARD, f.id) for f in fleets}
    return any(isinstance(u, Corps) and u.location in aboard for u in state.units.values())


def _moving(state: GameState, power: str, fid: str, stack: bool) -> list[Fleet]:
    """The fleets a move of ``fid`` takes (with ``stack``, every fleet of the power that may go on with it, 8.4.3),
    the lead first; raise ``IllegalAction`` when they may not move now."""
    lead = own_fleet(state, power, fid, "move")
    if state.movement_over:
        raise IllegalAction(f"{power} has begun its naval combats, so its movement is over (8.10, 000:1184); "
                            f"move before declaring attacks")
    why = may_continue(state, lead)
    if why:
        raise IllegalAction(why)
    fleets = [lead]
    if stack:
        fleets = [f for f in fleets_at(state, lead.location) if controller(state, f) == power and may_continue(state, f) is None]
    gathered = [f for f in fleets if (r := state.naval_moves.get(f.id)) is not None and r.legs and r.battle is None]
    if gathered and (not stack or len(gathered) == len(fleets)):
        raise IllegalAction(f"{gathered[0].id} has already moved this phase; it goes on only as part of the stack it came "
                            f"to pick up, with --stack (8.4.3, 000:1076-1080)")
    return fleets


def plan_move(state: GameState, power: str, action: MoveFleet, ctx: RulesContext) -> Plan:
    m = ctx.map
    fleets = _moving(state, power, action.fleet, action.stack)
    here = fleets[0].location
    path = graph.parse_path(m, action.path)
    if path and path[0] == here:
        path = path[1:]
    if not path:
        raise IllegalAction(f"{action.fleet} is already at {graph.place_name(here)}; name the places to enter in --path (8.4)")
    steps: list[tuple[Location, int]] = []
    at = here
    spent = max(record_of(state, f).spent for f in fleets)
    full = graph.expand(m, here, path)
    carrying = _carries_corps(state, fleets)
    for i, to in enumerate(full):
        before = full[i - 2] if i >= 2 else (here if i == 1 else None)
        cost = _step(state, ctx, power, action.fleet, here, before, at, to, spent, carrying)
        spent += cost
        steps.append((to, cost))
        at = to
    _may_end(state, ctx, power, at)
    total = sum(c for _, c in steps)
    for f in fleets:
        rec = record_of(state, f)
        if rec.spent + total > graph.NAVAL_ALLOWANCE:
            raise IllegalAction(f"{f.id} of the stack has only {graph.NAVAL_ALLOWANCE - rec.spent} movement points left; move "
                                f"it on its own or shorten the path (8.4.3)")
    records = {f.id: record_of(state, f) for f in fleets}
    return Plan(tuple(fleets), here, tuple(steps), records)


def _step(state: GameState, ctx: RulesContext, power: str, fid: str, here: Location, before: Location | None,
          at: Location, to: Location, spent: int, carrying: bool) -> int:
    """The cost of a move's step from ``at`` into ``to`` (``before``: the place before ``at``, None at the move's
    start), ``spent`` points spent so far; raise ``IllegalAction`` when the step is not allowed (8.4)."""
    m = ctx.map
    cost = graph.step_cost(m, at, to)
    if cost is None:
        raise IllegalAction(f"{graph.place_name(to)} is not next to {graph.place_name(at)} (8.4.1-8.4.2); name every sea "
                            f"area of the path in order")
    if cost and (graph.frozen(state, m, at) or graph.frozen(state, m, to)):
        ice = at if graph.frozen(state, m, at) else to
        raise IllegalAction(f"it is winter and {graph.place_name(ice)} is north of the ice line: no fleet enters or leaves "
                            f"it (8.4.1, 000:1064)")
    if at.kind is BOX and to.kind is SEA and before is not None and before != Location(PORT, at.site):
        raise IllegalAction(f"box:{at.site} is passed only into or out of {at.site}; a fleet cannot cut across it from sea "
                            f"to sea (8.4.2)")
    if to.kind is PORT:
        why = may_enter_port(state, ctx, power, to.site, carrying=carrying)
        if why:
            raise IllegalAction(why)
        if at.kind is BOX and enemy_fleets_at(state, at, power) and here != at:
            raise IllegalAction(f"enemy fleets blockade {to.site}: the stack stops in box:{to.site} and lifts the blockade "
                                f"by attacking them in the combat step (8.8, 000:1176); end the path at box:{to.site}")
    if spent + cost > graph.NAVAL_ALLOWANCE:
        left = graph.NAVAL_ALLOWANCE - spent
        raise IllegalAction(f"{fid} has {left} movement point{'s' if left != 1 else ''} left at "
                            f"{graph.place_name(at)} but {graph.place_name(to)} costs {cost} (8.4, 000:1058); stop earlier")
    return cost


def _may_end(state: GameState, ctx: RulesContext, power: str, at: Location) -> None:
    """Refuse a move ending in a blockade box the stack may not stay in (8.8)."""
    if at.kind is BOX:
        why = may_stay_in_box(state, ctx, power, at.site)
        if why:
            raise IllegalAction(why)


def verify_move(state: GameState, power: str, action: MoveFleet, ctx: RulesContext) -> None:
    plan_move(state, power, action, ctx)


# ----------------------------------------------------------------- interception


def _relation(m: Any, loc: Location, sea: str) -> str | None:
    """How a stack at ``loc`` stands to a stack entering ``sea`` (8.5.3): "same", "adjacent" or None."""
    if loc.kind is SEA:
        if loc.site == sea:
            return "same"
        return "adjacent" if sea in m.sea_neighbours(loc.site) else None
    if sea in m.area(loc.site).port.seas:
        return "adjacent"
    return None


def _beaten(state: GameState, fid: str) -> bool:
    rec = state.naval_moves.get(fid)
    if rec is None:
        return False
    return any(state.naval_battles[b].victor == "attacker" for b in rec.intercepted if b in state.naval_battles)


def interceptors(state: GameState, ctx: RulesContext, power: str, moving: tuple[Fleet, ...], sea: str) -> list[tuple[str, Location, list[Fleet], str]]:  # noqa: E501
    """The stacks that try to intercept ``moving`` entering ``sea``: (power, place, fleets, "same"/"adjacent"), in order."""

    m = ctx.map
    moving_ids = {f.id for f in moving}
    stacks: dict[tuple[str, Location], list[Fleet]] = {}
    for u in state.units.values():
        if not isinstance(u, Fleet) or u.id in moving_ids or warships(u) == 0 or on_mission(u):
            continue
        if u.location.kind not in (SEA, PORT, BOX):
            continue
        q = controller(state, u)
        if q is None or q == power or u.id not in state.powers[q].standing_orders.intercept:
            continue
        if not any(hostile(state, q, f) for f in moving) and not _carries_enemy(state, q, power, moving):
            continue
        if in_battle(state, u.id) or _beaten(state, u.id):
            continue
        if u.location.kind is PORT and control.is_blockaded(state, ctx, u.location.site, q):
            continue  # 8.5.3: a fleet in port intercepts only when not blockaded
        if _relation(m, u.location, sea) is None:
            continue
        stacks.setdefault((q, u.location), []).append(u)
    out = []
    for q in powers_in_order({k[0] for k in stacks}):
        for (qq, loc) in sorted((k for k in stacks if k[0] == q), key=lambda k: str(k[1])):
            out.append((q, loc, sorted(stacks[(qq, loc)], key=lambda f: f.id), _relation(m, loc, sea) or "adjacent"))
    return out


def _carries_enemy(state: GameState, q: str, power: str, moving: tuple[Fleet, ...]) -> bool:
    """8.5.1 exception (000:1098): ``q``, not allied with the mover, is at war with the owner of a corps the stack carries."""
    from eiapbem.rules.model import Corps

    if q in state.powers[power].alliances:
        return False
    ids = {f.id for f in moving}
    return any(isinstance(u, Corps) and u.location.kind is LocationKind.ABOARD and u.location.site in ids
               and relations.at_war(state, q, u.nation) for u in state.units.values())


def _beaten_power(state: GameState, plan: Plan) -> str | None:
    """The power whose interception the stack has just beaten in the sea area it goes on from (8.5.3), if any."""
    bid = plan.records[plan.fleets[0].id].battle
    b = state.naval_battles.get(bid) if bid else None
    if b is None or b.victor != "attacker" or plan.start.kind is not SEA or b.location != plan.start:
        return None
    from eiapbem.rules.naval.battle import lead_power

    return lead_power(state, b, "defender")


def _nelson_in(state: GameState, fleets: list[Fleet]) -> bool:
    lead = state.leaders.get(NELSON)
    return lead is not None and lead.attached_to in {f.id for f in fleets}


# ----------------------------------------------------------------- applying


def _place(state: GameState, fleets: tuple[Fleet, ...] | list[Fleet], loc: Location) -> GameState:
    for f in fleets:
        state = state.with_unit(state.units[f.id].replace(location=loc))
    return state


def apply_move(state: GameState, power: str, action: MoveFleet, ctx: RulesContext) -> engine.Outcome:
    plan = plan_move(state, power, action, ctx)
    fleets = plan.fleets
    ids = ", ".join(f.id for f in fleets)
    lost = lose_fleet_depots(state, [f.id for f in fleets], "moves")  # 10.5.4 (000:1572)
    state = lost.state
    at = plan.start
    spent = 0
    route = [graph.place_name(at)]
    leg = max(r.legs for r in plan.records.values())
    lead = fleets[0].id
    out = engine.Outcome(state, lost.events)
    steps: list[tuple[int, Location, int]] = list((i, to, cost) for i, (to, cost) in enumerate(plan.steps))
    again = _beaten_power(state, plan)
    if again is not None:  # 8.5.3: the beaten power's other stacks may try again where the stack won
        steps.insert(0, (-1, plan.start, 0))
    for i, to, cost in steps:
        if i >= 0:
            spent += cost
            route.append(graph.place_name(to))
            state = _place(out.state, fleets, to)
            out = engine.Outcome(state, out.events)
        battle: tuple[Location, list[Fleet], dict] | None = None
        if at.kind is PORT and to.kind is BOX:
            blockaders = enemy_fleets_at(state, to, power)
            if blockaders:  # 8.5.4 / 8.8: running the blockade, intercepted at once
                battle = (to, blockaders, dict(wind_gauge_to="defender", from_port="attacker"))
                note = f"running the blockade of {to.site}, it is intercepted in box:{to.site} (8.5.4, 8.8)"
        if battle is None and to.kind is SEA:
            for q, loc, stack, where in interceptors(state, ctx, power, fleets, to.site):
                if i < 0 and q != again:
                    continue
                label = f"naval/{state.date}/{power}/intercept/{lead}.{leg}/{i if i >= 0 else 'again'}/{q}/{loc}"
                ok, die = interception_attempt(ctx.dice, label, where, nelson=_nelson_in(state, stack))
                if ok:
                    if power not in state.powers[q].wars:  # 8.5.1, 8.6: the forced declaration, no restrictions
                        state = state.with_war(q, power, state.date, (q,))
                        out = engine.Outcome(state, out.events).then(engine.log(
                            state, q, "naval.declare-war", f"{q} declares war on {power} to attack its transport of "
                            f"an enemy's corps (8.5.1, 8.6)", against=power))
                        state = out.state
                    state = _place(state, stack, to)
                    out = engine.Outcome(state, out.events)
                    battle = (to, stack, {})  # 8.5.2 (000:1098): the first success ends the attempts here
                    note = (f"{q}'s {', '.join(f.id for f in stack)} from {graph.place_name(loc)} intercept in {to.site} "
                            f"({where} sea area: {die}, 8.5.4)")
                    break
                out = out.then(engine.log(state, q, "naval.intercept", f"{q}: {', '.join(f.id for f in stack)} from "
                                          f"{graph.place_name(loc)} fail to intercept {ids} in {to.site} ({where} sea area: {die}, 8.5.4)"))
                state = out.state
        if battle is not None:
            place, stack, kw = battle
            records = out.state.naval_moves
            for f in fleets:
                r = plan.records[f.id]
                records = records.set(f.id, r.replace(spent=r.spent + spent, legs=r.legs + 1, halted=True))
            state = out.state.with_scratch(naval_moves=records)
            out = engine.Outcome(state, out.events).then(engine.log(
                state, power, "naval.move", f"{power}: {ids} move {' -> '.join(route)}; {note}", fleets=" ".join(f.id for f in fleets),
                to=str(place), spent=spent))
            started = start_naval_battle(out.state, place, {"attacker": [f.id for f in fleets], "defender": [f.id for f in stack]},
                                         ctx, interception=True, power=power, **kw)
            bids = sorted(set(started.state.naval_battles) - set(out.state.naval_battles))
            state = started.state
            records = state.naval_moves
            for f in fleets:
                records = records.set(f.id, records[f.id].replace(battle=bids[0]))
            for f in stack:
                r = records.get(f.id) or NavalMove(start=str(f.location), halted=True)
                records = records.set(f.id, r.replace(intercepted=r.intercepted + (bids[0],)))
            return out.then(engine.Outcome(state.with_scratch(naval_moves=records), started.events))
        at = to
    records = out.state.naval_moves
    # 8.4.3 (000:1076): fleets of the power that have not moved wait here: the stack may go on with them.
    waiting = [g for g in fleets_at(out.state, at) if controller(out.state, g) == power and g.id not in records
               and g.id not in plan.records and may_continue(out.state, g) is None and at != plan.start]
    for f in fleets:
        r = plan.records[f.id]
        records = records.set(f.id, r.replace(spent=r.spent + spent, legs=r.legs + 1, halted=not waiting, battle=None))
    state = out.state.with_scratch(naval_moves=records)
    text = f"{power}: {ids} move {' -> '.join(route)} ({plan.records[lead].spent + spent} of {graph.NAVAL_ALLOWANCE} points)"
    return out.then(engine.log(state, power, "naval.move", text, fleets=" ".join(f.id for f in fleets), to=str(at), spent=spent))


# ----------------------------------------------------------------- show possible moves (4.1.2)


def reach(state: GameState, ctx: RulesContext, power: str, unit_id: str, *, stack: bool = False) -> UnitReach:
    """Every place at sea (sea area, port, blockade box) ``unit_id`` can end a move in now (8.4), searched as
    ``land.movement.reach`` searches a corps' (cheapest first, ties by place, then by the order found); a path of
    one place is asked of ``plan_move``, a longer one is its path taken one step further by ``_step`` and checked
    at its end by ``_may_end``, as ``plan_move`` walks and ends a path.  A path that may pass a blockade box but not
    stop in it goes on without listing it.  ``allowance`` is the naval allowance.  Raise ``IllegalAction`` when it
    cannot move at all."""
    fleet = state.units.get(unit_id)
    if not isinstance(fleet, Fleet):
        raise IllegalAction(f"{unit_id!r} is not a fleet on the map; 'eiapbem show units' lists yours")
    m = ctx.map
    here = fleet.location
    spent_before = record_of(state, fleet).spent
    best: dict[str, Reach] = {}
    frontier: list[tuple[int, str, int, tuple[Location, ...]]] = [(0, graph.place_name(here), 0, (here,))]
    found = 0
    moving: tuple[int, bool] | None = None  # the stack's points spent before and whether it carries corps
    first_refusal: str | None = None
    while frontier:
        cost, name, _, places = heapq.heappop(frontier)
        if name in best and best[name].cost < cost:
            continue
        for to, step in graph.neighbours(m, places[-1]):
            if to in places:
                continue
            new = places + (to,)
            path = tuple(graph.place_name(p) for p in new[1:])
            try:
                if len(new) == 2:
                    plan = plan_move(state, power, MoveFleet(fleet=unit_id, path=",".join(path), stack=stack), ctx)
                    c = sum(k for _, k in plan.steps)
                else:
                    if moving is None:
                        fleets = _moving(state, power, unit_id, stack)
                        moving = (max(record_of(state, f).spent for f in fleets), _carries_corps(state, fleets))
                    c = cost + _step(state, ctx, power, unit_id, here, new[-3], new[-2], to, moving[0] + cost, moving[1])
                    _may_end(state, ctx, power, to)
            except IllegalAction as err:
                if "may not stay in" in str(err) and cost + step <= graph.NAVAL_ALLOWANCE - spent_before:
                    found += 1
                    heapq.heappush(frontier, (cost + step, graph.place_name(to), found, new))  # passed through, not a place to end in
                elif len(new) == 2 and first_refusal is None:
                    first_refusal = str(err)
                continue
            key = graph.place_name(to)
            old = best.get(key)
            if old is not None and (old.cost, len(old.path)) <= (c, len(path)):
                continue
            best[key] = Reach(key, c, path, None)
            found += 1
            heapq.heappush(frontier, (c, key, found, new))
    if not best and first_refusal is not None:
        raise IllegalAction(f"{unit_id} cannot move now: {first_refusal}")
    areas = tuple(sorted(best.values(), key=lambda r: (r.cost, r.area)))
    return UnitReach(unit_id, graph.place_name(here), graph.NAVAL_ALLOWANCE, spent_before, False, areas)


def _move_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[MoveFleet]:
    """Each fleet's move to each place it can reach, by the cheapest path; and its stack's, when other fleets of
    the power wait in its place."""
    for fleet in candidates.own_fleets(state, power):
        mates = [f for f in fleets_at(state, fleet.location) if f.id != fleet.id and controller(state, f) == power]
        for stack in (False, True) if mates else (False,):
            try:
                found = reach(state, ctx, power, fleet.id, stack=stack)
            except IllegalAction:
                continue
            yield from (MoveFleet(fleet.id, ",".join(r.path), stack) for r in found.areas)


ACTIONS = ((MoveFleet, verify_move, apply_move, _move_candidates),)
