"""Cossack and Freikorps raids of the computer (13.2.2, 000:2410-2434; 10.4.2, 000:1398-1400; issue 19 item 1).

What the rules give these one-factor irregular cavalry counters, and the computer uses: 5 movement points; they
move through enemy forces without stopping (10.4.2); an ungarrisoned enemy depot in an area they enter is
destroyed (10.4.6, 000:1458); unbesieged, they need no supply, yet they block the enemy's supply chain in the
area they stand in (10.3.3, 000:1334: ``supply.blocked_for`` counts any enemy corps); they may walk into an
empty enemy city and take it (13.5.2); they may not go by sea (8.6).  Ending a move among enemy field forces
obliges them to attack (13.2.2, 000:2428), which a lone factor loses, so a raid never ends there.

The land slot, at war, before the land plan (``eiapbem.ai.land`` leaves these counters to this module), each
raider in id order, by the level's ``raids``:

- ``"depots"`` (easy): the move within its allowance that destroys the most enemy depots, then takes an empty
  enemy city;
- ``"supply"`` (medium): also where it ends, the enemy depots it cuts off from their valid supply chains
  (``supply.supply_chain`` of each enemy with the raider there, its destroyed depots gone), counted twice;
- ``"safe"`` (hard): as medium, and it avoids ending where an enemy corps outside a city stands within 4
  movement points (it would be attacked: the 13.2.2 standing order to withdraw is not in the rules core yet).

Spain's guerrillas (13.2.1, 000:2376-2406) raid by the same scores within their own rules: one adjacent area a month,
never out of Spain's home nation, ending among the enemy at will (they are never compelled to fight and cannot be
attacked in the field), and they go inside an empty city of Spain that enemy field forces are within ``DANGER`` of as
its garrison (``GARRISON``, its national capital ``CAPITAL``), so that no corps takes it by walking in (13.5.2).

A raider that took a city stays in it as its garrison (13.5.2: an occupation is maintained), so one raider takes
one city.  A move with nothing to gain (staying put where it already cuts a chain counts as a gain) goes toward the
nearest enemy depot, still never ending among enemy field forces.  Each move is ``Builder.try_`` (the engine's
checks); one that ends anywhere but where it was planned (a trigger province halts it, 13.2.4) is undone.

``levy`` (the economic phase, 12.9): Russia places its Cossacks from the pool in its Cossack provinces up to
the 13.2.2 limit (``economy.levy.cossack_limit``), in the area nearest an enemy corps; Austria and Prussia
place their Freikorps once the rules allow (``economy.levy.check_place``).  Removal is never ordered.
"""

from __future__ import annotations

from typing import Any

import eiapbem.ai.assess as assess
from eiapbem.core.errors import IllegalAction
from eiapbem.rules import control, mapgraph, supply
from eiapbem.rules.land.common import may_enter_territory, ungarrisoned_enemy_depots
from eiapbem.rules.land.movement import MoveUnit, allowance, step, winter_movement
from eiapbem.rules.land.occupation import may_enter_empty_city
from eiapbem.rules.model import POOL, Corps, CorpsType, Depot, Location, LocationKind

RAIDERS = (CorpsType.COSSACK, CorpsType.FREIKORPS)
#: Scores: an enemy depot destroyed, a depot cut off from its chain, an empty enemy city taken.
DESTROY, CUT, CITY = 3, 2, 1
#: A guerrilla's scores for garrisoning an empty city of Spain that enemy field forces are within ``DANGER`` movement
#: points of, and its national capital: a city with a garrison is not taken by walking in (13.5.2).
GARRISON, CAPITAL = 2, 8
#: Enemy corps within this many movement points can attack the raider where it ends (hard avoids it).
DANGER = 4


def raiders(b: Any) -> list[Corps]:
    """The power's Cossacks, Freikorps and guerrillas that may still move: on the map, not in a besieged city, not
    halted (``moves.movers``; among enemy forces too: they need not stop there, 10.4.2), not besieging."""
    import eiapbem.ai.moves as moves

    return sorted(moves.movers(b, engaged=True, raiders=True) + guerrillas(b), key=lambda c: c.id)


def guerrillas(b: Any) -> list[Corps]:
    """Spain's guerrillas that may still move this slot (13.2.1, 000:2376-2406): with factors, on the map, not besieging
    or besieged in a city, not moved yet (one area a month, 000:1364)."""
    import eiapbem.ai.moves as moves

    st, m = b.state, b.ctx.map
    out = []
    for c in assess.army_units(st, b.power):
        if c.corps_type is not CorpsType.GUERRILLA or c.besieging or not c.factors.total:
            continue
        if moves.free_to_move(st, m, c, "passed"):
            out.append(c)
    return out


def _enemy_field(b: Any, area: str) -> bool:
    f = assess.forces_in(b.state, b.ctx, area, b.power)
    return f.enemy - f.enemy_city > 0


def _path(b: Any, c: Corps, goal: str) -> list[str] | None:
    """The areas the raider enters on its cheapest way to ``goal`` within this slot's points (the rules' own step
    costs), through enemy forces (it need not stop, 10.4.2); None if it cannot get there."""
    st, m, power = b.state, b.ctx.map, b.power
    found = mapgraph.shortest_land_path(m, c.location.site, goal, max_cost=allowance(st, b.ctx, c) + 1,
                                        can_enter=lambda a: may_enter_territory(st, m, a, power) is None,
                                        winter=winter_movement(st))
    if found is None:
        return None
    rec = st.land_moves.get(c.id)
    spent, ma, at = (rec.spent if rec else 0), allowance(st, b.ctx, c), c.location.site
    legs = list(found[0][1:])
    for to in legs:
        try:
            spent += step(st, b.ctx, power, c, at, to).cost
        except IllegalAction:
            return None
        at = to
    return legs if spent <= ma else None


def _cut(b: Any, c: Corps, end: str, destroyed: list[str], before: dict[str, int]) -> int:
    """Enemy depots that drop out of their valid supply chains with ``c`` at ``end`` and ``destroyed`` gone."""
    st = b.state.with_unit(c.replace(location=Location(LocationKind.AREA, end)))
    for d in destroyed:
        st = st.with_unit(st.units[d].replace(location=POOL))
    return sum(max(0, before[q] - len(supply.supply_chain(st, b.ctx.map, q))) for q in sorted(before))


def _options(b: Any, lvl: Any, c: Corps) -> list[tuple[int, str, list[str], bool]]:
    """(score, end area, path, into the city) of each move the raider can make this slot (staying: an empty path)."""
    st, m, power = b.state, b.ctx.map, b.power
    chains = lvl.raids in ("supply", "safe")
    enemies = assess.enemies(st, power)
    depots = sorted({u.location.site for u in st.units.values() if isinstance(u, Depot) and u.power in enemies
                     and u.location.kind is LocationKind.AREA})
    before = {q: len(supply.supply_chain(st, m, q)) for q in enemies} if chains and depots else {}
    near_depots = set(depots)
    for d in depots:
        near_depots.update(m.land_neighbours(d))
    danger = {c2.location.site for c2 in assess.enemy_field_corps(st, power) if c2.corps_type not in RAIDERS}
    here = c.location.site
    guerrilla = c.corps_type is CorpsType.GUERRILLA
    if guerrilla:  # one area a month, never out of Spain's home nation (000:1364, 000:2402)
        reach = {a: 1 for a in m.land_neighbours(here) if m.area(a).nation == "SP"} | {here: 0}
    else:
        reach = mapgraph.movement_costs(m, here, max_cost=allowance(st, b.ctx, c),
                                        can_enter=lambda a: may_enter_territory(st, m, a, power) is None,
                                        winter=winter_movement(st))
    out = []
    for end in sorted(reach):
        # a guerrilla is never compelled to attack and cannot be attacked in the field (13.2.1, 000:2396-2398)
        if not guerrilla and _enemy_field(b, end):
            continue  # it would have to attack there (13.2.2)
        if not guerrilla and lvl.raids == "safe" \
                and any((assess.distance(b.ctx, a, end) or DANGER + 1) <= DANGER for a in sorted(danger)):
            continue
        path = [] if end == here else [end] if guerrilla else _path(b, c, end)
        if path is None:
            continue
        destroyed = [d for a in path for d in ungarrisoned_enemy_depots(st, a, power)]
        score = DESTROY * len(destroyed)
        if before and (end in near_depots or destroyed):
            score += CUT * _cut(b, c, end, destroyed, before)
        city = m.area(end).city is not None and may_enter_empty_city(st, m, end, power) \
            and not (end == here and c.location.kind is LocationKind.CITY)
        if city:
            score += CITY
        elif guerrilla and _unguarded(b, end) and not (end == here and c.location.kind is LocationKind.CITY):
            city = True  # it goes inside as the city's garrison (000:2396: guerrillas may garrison cities)
            score += CAPITAL if m.area(end).city.capital == "national" else GARRISON
        out.append((score, end, path, city))
    return out


def _unguarded(b: Any, area: str) -> bool:
    """A city of Spain's home nation that Spain holds, unbesieged, with no friendly force inside, and enemy field forces
    within ``DANGER`` movement points: one enemy corps could walk in and take it (13.5.2)."""
    st, m = b.state, b.ctx.map
    if m.area(area).city is None or m.area(area).nation != b.power or control.city_power(st, m, area) != b.power \
            or control.is_besieged(st, m, area):
        return False
    if any(u.location == Location(LocationKind.CITY, area) and getattr(u, "factors", None) and u.factors.total
           and assess.friendly(st, b.power, u) for u in st.units.values()):
        return False
    return assess.enemy_forces_near(st, b.ctx, area, b.power, DANGER) > 0


def plan(b: Any, lvl: Any) -> None:
    """Raids of ``b.power``'s Cossacks, Freikorps and guerrillas (before the land plan)."""
    if not lvl.raids or not assess.at_war_anywhere(b.state, b.power) or b.state.movement_over:
        return
    m = b.ctx.map
    for c in raiders(b):
        c = b.state.units[c.id]
        if c.location.kind is LocationKind.CITY and control.city_power(b.state, m, c.location.site) == b.power \
                and (m.area(c.location.site).nation != b.power or c.corps_type is CorpsType.GUERRILLA):
            continue  # it holds a city it took: it stays as its garrison (13.5.2: occupation is maintained)
        options = _options(b, lvl, c)
        if not options:
            continue
        stay = max((o[0] for o in options if not o[2] and not o[3]), default=0)
        best = max(options, key=lambda o: (o[0], -len(o[2]), assess.name_last_first(o[1])))
        if best[0] <= stay:
            if stay > 0:
                continue  # it already cuts a chain where it stands
            toward = _toward_depots(b, c, options)
            if toward is None:
                continue
            best = toward
        if not best[2] and not best[3]:
            continue
        _, end, path, city = best
        before = b.state, list(b.actions), b.events
        if b.try_(MoveUnit(unit=c.id, path=",".join(path or [end]), city=city)):
            where = b.state.units[c.id].location
            if where.site != end or _enemy_field(b, end) and c.corps_type is not CorpsType.GUERRILLA:
                b.state, b.actions, b.events = before  # halted elsewhere (13.2.4): not the raid it planned


def _toward_depots(b: Any, c: Corps, options: list[tuple[int, str, list[str], bool]]) -> tuple[int, str, list[str], bool] | None:
    """With nothing to gain here: the reachable end nearest an enemy depot (closer than it stands now), if any."""
    enemies = assess.enemies(b.state, b.power)
    depots = sorted({u.location.site for u in b.state.units.values() if isinstance(u, Depot) and u.power in enemies
                     and u.location.kind is LocationKind.AREA})
    if not depots:
        return None

    def gap(area: str) -> int:
        far = assess.distances_from(b.ctx, area)
        return min((far[d] for d in depots if d in far), default=1 << 20)

    now = gap(c.location.site)
    moves = sorted((gap(o[1]), len(o[2]), o[1], o) for o in options if o[2])
    return moves[0][3] if moves and moves[0][0] < now else None


# ----------------------------------------------------------------- the levy check (12.9)


def levy(b: Any, lvl: Any) -> None:
    """Economic orders placing the power's Cossacks and Freikorps from the pool (13.2.2)."""
    if not lvl.raids:
        return
    from eiapbem.rules.economy.levy import cossack_limit, cossack_provinces
    from eiapbem.rules.economy.phase import PlaceLevy

    st, m = b.state, b.ctx.map
    pool = sorted(u.id for u in st.units.values() if isinstance(u, Corps) and u.nation == b.power
                  and u.corps_type in RAIDERS and u.location.kind is LocationKind.POOL)
    if not pool:
        return
    on_map = sum(1 for u in st.units.values() if isinstance(u, Corps) and u.corps_type is CorpsType.COSSACK
                 and u.location.kind is not LocationKind.POOL)
    room = cossack_limit(st, b.ctx) - on_map
    enemy = sorted({c.location.site for c in assess.enemy_field_corps(st, b.power)})
    areas = sorted(a for p in cossack_provinces(b.ctx) for a in m.areas_of_province(p))

    def nearness(a: str) -> tuple[int, str]:
        far = assess.distances_from(b.ctx, a)
        return min((far[e] for e in enemy if e in far), default=1 << 20), a

    for cid in pool:
        u = st.units[cid]
        if u.corps_type is CorpsType.COSSACK:
            if room <= 0:
                continue
            for a in sorted(areas, key=nearness):
                if b.try_(PlaceLevy(corps=cid, area=a)):
                    room -= 1
                    break
        else:
            from eiapbem.rules.economy.levy import FREIKORPS

            if b.power in FREIKORPS:
                b.try_(PlaceLevy(corps=cid, area=FREIKORPS[b.power][1]))


__all__ = ["CAPITAL", "CITY", "CUT", "DESTROY", "GARRISON", "RAIDERS", "guerrillas", "levy", "plan", "raiders"]
