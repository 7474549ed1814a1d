"""Where a corps can still go this phase, and at what cost: the manual's "show possible moves" (4.1.2).

The search asks the land movement rules themselves (``rules.land.movement.plan_move``)
about every path it tries, so it never shows a move the rules would refuse:
from the corps' area it extends the cheapest known path to each area by one
neighbouring area (a border or a crossing arrow) and keeps the paths the rules
accept, cheapest first (ties broken by area id, so the answer is the same on
every computer).  A path the rules stop (an area among enemy forces, 10.4.2) is
kept but not extended.

Fleets (``fleet_reach``): the same search over sea areas, ports and blockade boxes,
asking ``rules.naval.movement.plan_move`` (8.4).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from eiapbem.core.errors import IllegalAction


@dataclass(frozen=True)
class Reach:
    """One area a corps can end its move in."""

    area: str
    #: Movement points this move spends (on top of those spent earlier in the phase).
    cost: int
    #: The areas entered, in order (``land move --path`` takes them as a comma-separated list).
    path: tuple[str, ...]
    #: The corps must stop there (why, 10.4.2), or None.
    halts: str | None

    def to_obj(self) -> dict:
        return {"area": self.area, "cost": self.cost, "path": list(self.path), "halts": self.halts}


@dataclass(frozen=True)
class CorpsReach:
    unit: str
    at: str
    allowance: int
    spent: int
    forced_march: bool
    areas: tuple[Reach, ...]

    def to_obj(self) -> dict:
        return {"unit": self.unit, "kind": "corps", "at": self.at, "allowance": self.allowance, "spent": self.spent,
                "forced_march": self.forced_march, "built": True, "areas": [r.to_obj() for r in self.areas]}


def _neighbours(m: Any, here: str) -> list[str]:
    out = set(m.land_neighbours(here))
    out.update(c.other_end(here) for c in m.crossings_at(here))
    return sorted(out)


def corps_reach(state: Any, ctx: Any, power: str, unit_id: str, *, forced_march: bool = False) -> CorpsReach:
    """Every area ``unit_id`` can end a move in now; raise ``IllegalAction`` when it cannot move at all."""
    from eiapbem.rules.land.movement import MoveUnit, plan_move
    from eiapbem.rules.model import Corps

    unit = state.units.get(unit_id)
    if not isinstance(unit, Corps):
        raise IllegalAction(f"{unit_id!r} is not a corps on the map; 'eiapbem show units --kind corps' lists yours")
    here = unit.location.site
    m = ctx.map
    allowance = 0
    prior = state.land_moves.get(unit_id)
    spent_before = prior.spent if prior is not None else 0
    best: dict[str, Reach] = {}
    frontier: list[tuple[int, str, tuple[str, ...]]] = [(0, here, ())]
    first_refusal: str | None = None
    while frontier:
        frontier.sort()
        cost, at, path = frontier.pop(0)
        if at in best and best[at].cost <= cost and best[at].path != path:
            continue
        for to in _neighbours(m, at):
            if to == here or to in path:
                continue
            new = path + (to,)
            try:
                plan = plan_move(state, power, MoveUnit(unit=unit_id, path=",".join(new), forced_march=forced_march), ctx)
            except IllegalAction as err:
                if not path and first_refusal is None:
                    first_refusal = str(err)
                continue
            allowance = plan.allowance
            c = plan.record.spent - spent_before
            old = best.get(to)
            if old is not None and (old.cost, old.path) <= (c, new):
                continue
            best[to] = Reach(to, c, new, plan.halt_reason)
            if plan.halt_reason is None:
                frontier.append((c, to, new))
    if not best and first_refusal is not None:
        # Every neighbour refused for the same kind of reason: say the rules' first sentence.
        raise IllegalAction(f"{unit_id} cannot move now: {first_refusal}")
    areas = tuple(sorted(best.values(), key=lambda r: (r.cost, r.area)))
    return CorpsReach(unit_id, here, allowance, spent_before, forced_march, areas)


def fleet_reach(state: Any, ctx: Any, power: str, unit_id: str) -> CorpsReach:
    """Every place at sea (sea area, port, blockade box) ``unit_id`` can end a move in now (8.4), asked of
    ``rules.naval.movement.plan_move`` path by path, as for a corps; ``allowance`` is the naval allowance."""
    from eiapbem.rules.naval import graph
    from eiapbem.rules.naval.common import record_of
    from eiapbem.rules.naval.movement import MoveFleet, plan_move

    fleet = state.units[unit_id]
    m = ctx.map
    here = fleet.location
    spent_before = record_of(state, fleet).spent
    best: dict[str, Reach] = {}
    frontier: list[tuple[int, str, tuple]] = [(0, graph.place_name(here), (here,))]
    first_refusal: str | None = None
    while frontier:
        frontier.sort(key=lambda f: (f[0], f[1]))
        cost, name, places = frontier.pop(0)
        if name in best and best[name].cost < cost:
            continue
        for to, step in graph.neighbours(m, places[-1]):
            if to in places:
                continue
            new = places + (to,)
            path = tuple(graph.place_name(p) for p in new[1:])
            try:
                plan = plan_move(state, power, MoveFleet(fleet=unit_id, path=",".join(path)), ctx)
            except IllegalAction as err:
                if "may not stay in" in str(err) and cost + step <= graph.NAVAL_ALLOWANCE - spent_before:
                    frontier.append((cost + step, graph.place_name(to), new))  # passed through, not a place to end in
                elif len(new) == 2 and first_refusal is None:
                    first_refusal = str(err)
                continue
            c = sum(k for _, k in plan.steps)
            key = graph.place_name(to)
            old = best.get(key)
            if old is not None and (old.cost, len(old.path)) <= (c, len(path)):
                continue
            best[key] = Reach(key, c, path, None)
            frontier.append((c, key, new))
    if not best and first_refusal is not None:
        raise IllegalAction(f"{unit_id} cannot move now: {first_refusal}")
    areas = tuple(sorted(best.values(), key=lambda r: (r.cost, r.area)))
    return CorpsReach(unit_id, graph.place_name(here), graph.NAVAL_ALLOWANCE, spent_before, False, areas)
