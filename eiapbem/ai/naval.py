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
7. corps carried by sea (``eiapbem.ai.amphibious``): before 2-6, an invasion or a stranded corps carried to a
   friendly coast (``amphibious.invade``), and a stack sent to fetch a stranded corps from its port
   (``amphibious.collect``); a stack in a port where such corps wait stays there (``amphibious.waits``).

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

from eiapbem.rules import relations
from eiapbem.rules.model import Corps, Fleet, Location, LocationKind
from eiapbem.rules.naval import graph
from eiapbem.rules import engine
from eiapbem.rules.naval.attack import NavalAttack, SetOrders, attackers, defenders
from eiapbem.rules.naval.battle import retreat_options
from eiapbem.rules.naval.common import controller, enemy_fleets_at, fleets_at, must_leave_box, port_power, warships
from eiapbem.rules.naval.movement import MoveFleet, may_continue
import eiapbem.ai.amphibious as amphibious
from eiapbem.ai.fleets import carrying, nearest, own_fleets, threat

SEA, PORT, BOX = LocationKind.SEA, LocationKind.PORT, LocationKind.BLOCKADE


def _go_home(b: Any, fleet: Fleet) -> None:
    state, m = b.state, b.ctx.map
    options = retreat_options(state, b.ctx, b.power, fleet.location)
    ports = [Location(PORT, o.split(":", 1)[1]) for o in options if o.startswith("port:")]
    # never into a port where enemy fleets lie: it would have to attack them there (8.4.4), which the port's holder
    # may not allow (8.10: only a power at war with it attacks in its port), and the slot could not end
    for port in [p for p in ports if not enemy_fleets_at(state, p, b.power)]:
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
        before = (b.state, b.events, len(b.actions))
        if b.try_(MoveFleet(fleet=f.id, path=",".join(names), stack=True)):
            if _stuck(b):  # an attack it must make there and may not (8.4.4 against 8.10): the move is taken back
                b.state, b.events, b.actions[:] = before[0], before[1], b.actions[:before[2]]
                continue
            taken.add(box.site)
            return True
    return False


def _stuck(b: Any) -> bool:
    """An obligation of the slot (``engine.unmet_obligations``) and no naval attack on the rules' list of what is
    possible to meet it."""
    unmet = engine.unmet_obligations(b.state, b.power, b.ctx)
    return bool(unmet) and not any(isinstance(a, NavalAttack)
                                   for a in engine.legal_actions(b.state, b.power, b.ctx, settings=False))


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


def _leave_boxes(b: Any) -> None:
    """2. (8.8): each stack in a box it must leave sails to its nearest port (``_go_home``), else to any open sea
    next to the port: first of all its moves, since a combat declared (a ferry struck, 8.10) ends its movement."""
    for f in own_fleets(b):
        f = b.state.units[f.id]
        if f.id in b.state.naval_moves or may_continue(b.state, f) is not None \
                or not must_leave_box(b.state, b.ctx, b.power, f):
            continue
        _go_home(b, f)
        if b.state.units[f.id].location == f.location:  # no port within reach
            for s in b.ctx.map.area(f.location.site).port.seas:
                if b.try_(MoveFleet(fleet=f.id, path=s, stack=True)):
                    break


def _attack(b: Any, lvl: Any) -> None:
    """8.10: attack where ``_beatable``, one combat at a time (each fought out before the next)."""
    for loc in sorted({f.location for f in own_fleets(b)}, key=str):
        if b.state.pending:
            return
        if _beatable(b, lvl, loc):
            b.try_(NavalAttack(place=graph.place_name(loc)))


def plan(b: Any, lvl: Any) -> None:
    m = b.ctx.map
    orders = b.state.powers[b.power].standing_orders.intercept
    for f in own_fleets(b):
        if f.location.kind in (PORT, BOX) and warships(f) and f.id not in orders:
            b.try_(SetOrders(fleet=f.id, intercept=True))
    _leave_boxes(b)  # 2., before any combat is declared (8.10: then no fleet of the power moves)
    amphibious.invade(b, lvl)  # 7.
    amphibious.collect(b, lvl)
    taken = {f.location.site for f in own_fleets(b) if f.location.kind is BOX and warships(f)}
    if lvl.blockade_ratio and b.state.powers[b.power].wars:
        strike_ferries(b, lvl)  # 8.
        interdict(b, lvl, taken)  # 9.
    done: set[Location] = set()
    for f in own_fleets(b):
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
                    and not amphibious.waits(b, lvl, f, own):
                _blockade(b, lvl, f, own, taken)
            continue
        if _beatable(b, lvl, f.location):
            continue  # it stays to attack them (5.)
        if threat(b.state, m, b.power, f.location) > own:
            _go_home(b, f)
        elif f.location.kind is SEA and lvl.blockade_ratio and own and b.state.powers[b.power].wars:
            _blockade(b, lvl, f, own, taken)
    if lvl.attack_ratio:
        _attack(b, lvl)


# ----------------------------------------------------------------- enemy ferries (8.5, 8.6, 8.10)


def _stack_at(b: Any, loc: Location) -> tuple[list[Fleet], int]:
    """The power's fleets at ``loc`` that may still move, and their warships."""
    mine = [g for g in fleets_at(b.state, loc) if controller(b.state, g) == b.power and g.id not in b.state.naval_moves
            and may_continue(b.state, g) is None]
    return mine, sum(warships(g) for g in mine)


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
    st = b.state
    ferries = sorted({f.location for f in st.units.values() if isinstance(f, Fleet) and f.location.kind is SEA
                      and controller(st, f) != b.power and relations.at_war(st, b.power, controller(st, f))
                      and carrying(b, f)}, key=str)
    for loc in ferries:
        if b.state.pending:
            return
        enemy = sum(warships(g) for g in enemy_fleets_at(b.state, loc, b.power))
        strong = []
        for f in own_fleets(b):
            mine, own = _stack_at(b, f.location)
            if mine and own * 100 >= max(1, enemy) * lvl.attack_ratio:
                strong.append(f)
        for fid in nearest(b, strong, loc):
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
        if not corps_here and not any(carrying(b, f) for f in enemy):
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
        for f in own_fleets(b):
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
