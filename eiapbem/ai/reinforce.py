"""An AI power's reinforcement slot (7.0-7.6): the obligatory placements of 7.2.2.

The AI places every army factor due to it and to its minor free states
(7.2.2, 000:930: reinforcements may not be delayed) through the registered
actions ``reinforcement.add-factors``, ``reinforcement.add-garrison`` and
``reinforcement.place-corps``; each is tried with ``engine.can_act`` first, so
what it does is legal by construction.  Ships due wait in port (7.1.2 lets
them wait); the stored forces of a minor whose set-up falls to it (7.3) go on
the map (``set_up_minors``); no conversions or transfers are made.

Leaders (7.4, ``place_leaders``): a leader with a spent corps (``SPENT``
factors or fewer) moves to the power's largest corps in his area without a
leader, or, with none there, leaves the map while the power is at war (he
comes back at a later reinforcement phase, 000:984) rather than be captured
with it; then every leader ready to come on (available, or back from a wound
or a month off the map), the best first, joins the largest corps on the map
without a leader, where the rules let him (an unbesieged corps, no enemy in
its area).  Armies form under the leaders (``ai.armies``), so the power's
best leaders command its largest corps instead of waiting off the map.

Where the factors go (issue 19 item 3; the levels' ``placement``): easy fills
its corps in id order; medium the smallest (most depleted) corps first; hard
the corps nearest the enemy first (the least movement cost to an enemy corps
or enemy-held city, ``eiapbem.ai.assess``), the smallest first among equals,
so the front is fed, and first puts one factor in each of its empty home
cities an enemy corps could reach within 6 movement points (an empty city is
taken by walking in, 13.5.2).  At medium and hard, while a national capital is
threatened (``assess.capital_threats``), garrison factors go to the capital's
city first, up to its capacity (10.4.3).  At every level a corps counter
bought in the economic phase (a lost corps rebuilt, ``ai.economy``) is placed
with the factors due, in the capital first, before the corps on the map are
filled (7.2.1; unplaced within three months it must be bought again, 12.5.4).
The hard level's standing garrison (``capital_garrison``) of each national
capital is filled before the corps only where an enemy corps outside a city
can reach the capital by land: an island's capital (London) is guarded by the
fleets, and its few men a quarter go to the corps first.
"""

from __future__ import annotations

from typing import Callable

import eiapbem.ai.assess as assess
from eiapbem.ai.levels import Level
from eiapbem.ai.setup import SHIPS, fitting
from eiapbem.rules import relations, supply
from eiapbem.rules.model import (POOL, POWERS, Corps, Depot, FactorType, Factors, Fleet, GameState, LeaderStatus,
                                 LocationKind, Ships)
from eiapbem.rules.reinforcement.army import AddFactors, AddToGarrison, PlaceCorps
from eiapbem.rules.reinforcement.common import due_factors, purchased
from eiapbem.rules.reinforcement.leaders import AssignLeader, RetireLeader, ready
from eiapbem.rules.forces import ARMY_ITEMS, GARRISON_ITEMS, corps_capacity, fleet_capacity
from eiapbem.rules.reinforcement.minors import SetUpMinorCorps, SetUpMinorFleet, SetUpMinorGarrison

def _field(kind: FactorType) -> str:
    return kind.value.replace("-", "_")


def _home_cities(state: GameState, ctx, nation: str) -> list[str]:
    m = ctx.map
    return sorted(a for a in m.areas if m.area(a).city is not None and supply.is_home_area(state, m, a, nation))


def _capitals(ctx, nation: str) -> tuple[str, ...]:
    try:
        return tuple(ctx.map.national_capitals(nation))
    except KeyError:
        return ()


def _capital(ctx, nation: str) -> str | None:
    return next(iter(_capitals(ctx, nation)), None)


def _garrison_size(state: GameState, nation: str, area: str) -> int:
    g = state.units.get(f"garrison:{nation}:city:{area}")
    return 0 if g is None else g.factors.total


#: A corps with no enemy within reach sorts after every corps that has one.
FAR = 1 << 20


def _front_areas(state: GameState, ctx, power: str) -> tuple[str, ...]:
    """Areas of enemy corps outside cities and of enemy-held cities (the front), by id."""
    return tuple(sorted({c.location.site for c in assess.enemy_field_corps(state, power)}
                        | set(assess.enemy_cities(state, ctx, power))))


def _front_distance(ctx, area: str, fronts: tuple[str, ...]) -> int:
    near = assess.distances_from(ctx, area)
    return min((near[a] for a in fronts if a in near), default=FAR)


def _threatened_empty_cities(state: GameState, ctx, power: str, homes: list[str]) -> list[str]:
    """Its home cities with no garrison that an enemy corps outside a city could reach within ``assess.NEAR``
    movement points (a corps walks into an empty enemy city and takes it, 13.5.2), nearest the enemy first."""
    enemy = sorted({c.location.site for c in assess.enemy_field_corps(state, power)})
    if not enemy:
        return []
    out = []
    for a in homes:
        if _garrison_size(state, power, a) or any(isinstance(u, Corps) and u.location.kind is LocationKind.CITY
                                                   and u.location.site == a for u in state.units.values()):
            continue
        d = _front_distance(ctx, a, tuple(enemy))
        if d <= assess.NEAR:
            out.append((d, a))
    return [a for _, a in sorted(out)]


def _beyond_land(state: GameState, ctx, power: str, area: str) -> bool:
    """``area`` is on an island of the power's: no land route (with the crossings, ``assess.distances_from``) leads
    from it to another great power's home nation, and no enemy corps outside a city stands on that land."""
    near = assess.distances_from(ctx, area)
    m = ctx.map
    return not any(m.area(a).nation in POWERS and m.area(a).nation != power for a in near) \
        and not any(c.location.site in near for c in assess.enemy_field_corps(state, power))


def candidates(state: GameState, ctx, power: str, nation: str, kind: FactorType, lvl: Level) -> list[Callable[[int], object]]:
    """Makers of one placement action (given a count), best first for ``lvl``."""
    f = _field(kind)
    corps = [u for u in state.units.values() if isinstance(u, Corps) and u.nation == nation and u.loaned_to is None]
    on_map = [c for c in corps if c.location.kind in (LocationKind.AREA, LocationKind.CITY)]
    if lvl.placement == "front":
        fronts = _front_areas(state, ctx, power)
        on_map.sort(key=lambda c: (_front_distance(ctx, c.location.site, fronts), c.factors.total, c.id))
    elif lvl.placement == "spread":
        on_map.sort(key=lambda c: (c.factors.total, c.id))
    else:
        on_map.sort(key=lambda c: c.id)
    out: list[Callable[..., object]] = []  # (each maker is called with the count alone)
    cap = _capital(ctx, nation) if nation == power else None
    homes = _home_cities(state, ctx, nation)
    if kind in GARRISON_ITEMS and cap is not None and lvl.placement != "first" \
            and any(t.danger for t in assess.capital_threats(state, ctx, power)):
        room = ctx.map.area(cap).city.garrison_capacity - _garrison_size(state, nation, cap) if ctx.map.area(cap).city else 0
        if room > 0:
            out.append(lambda n, a=cap, r=room: AddToGarrison(area=a, nation=nation, at="city", **{f: min(n, r)}))
    guard = []
    for home_cap in _capitals(ctx, nation) if nation == power and kind in GARRISON_ITEMS else ():
        # every national capital (Russia's two: St. Petersburg, empty, fell to four Prussian cavalry)
        room = lvl.capital_garrison - _garrison_size(state, nation, home_cap)
        if room > 0:
            guard.append(lambda n, a=home_cap, r=room: AddToGarrison(area=a, nation=nation, at="city", **{f: min(n, r)}))
    # a capital no enemy corps can reach by land (an island's, while no enemy stands on it) is guarded by the fleets:
    # the few men due go to the corps first (Great Britain's are all it has to rebuild an army)
    guard_first = not guard or cap is None or not _beyond_land(state, ctx, power, cap)
    out += guard if guard_first else []
    if kind in GARRISON_ITEMS and lvl.city_garrisons and nation == power:
        out += [lambda n, a=a: AddToGarrison(area=a, nation=nation, at="city", **{f: min(n, lvl.city_garrisons)})
                for a in _threatened_empty_cities(state, ctx, power, homes)]
    pool = sorted((c for c in corps if c.location.kind is LocationKind.POOL and purchased(state, c)), key=lambda c: c.id)
    if pool:
        # a counter bought again (a lost corps rebuilt, ``ai.economy``) is placed before the corps on the map are
        # filled, in its capital first (12.5.4: unplaced within three months, it must be bought again)
        first = sorted(homes, key=lambda a: (a != cap, a))
        out += [lambda n, c=c, a=a: PlaceCorps(corps=c.id, area=a, **{f: min(n, getattr(corps_capacity(ctx, c), f))})
                for c in pool[:1] for a in first]
    out += [lambda n, c=c.id: AddFactors(corps=c, **{f: n}) for c in on_map]
    out += [] if guard_first else guard
    if kind in GARRISON_ITEMS:
        out += [lambda n, a=a: AddToGarrison(area=a, nation=nation, at="city", **{f: n}) for a in homes]
        if nation == power:
            depots = sorted({u.location.site for u in state.units.values()
                             if isinstance(u, Depot) and u.power == power and u.location.kind is LocationKind.AREA})
            out += [lambda n, a=a: AddToGarrison(area=a, nation=nation, at="depot", **{f: n}) for a in depots]
    out += [lambda n, c=c.id, a=a: PlaceCorps(corps=c, area=a, **{f: n}) for c in pool for a in homes]
    return out


def place_due(b, lvl: Level) -> None:
    """Place every army factor due to ``b.power`` and its free states that fits anywhere.

    Each pass places the whole count in the first candidate that takes it, else one factor in the first that takes
    one, and the candidates are ranked again. A candidate that refuses one factor is full for the rest of the
    kind's placement (placements only add factors), so it is not tried again; every pass places a factor or
    ends the kind, which bounds the passes by the factors due."""
    power = b.power
    for nation in (power, *b.state.free_states(power)):
        for kind in ARMY_ITEMS:
            full: set[str] = set()  # asked by membership only
            while (n := due_factors(b.state, nation).get(kind)) > 0:
                placed = False
                for make in candidates(b.state, b.ctx, power, nation, kind, lvl):
                    one = make(1)
                    if repr(one) in full:
                        continue
                    if b.try_(make(n)) or (n > 1 and b.try_(one)):
                        placed = True
                        break
                    full.add(repr(one))
                if not placed:
                    break


#: A corps of this many factors or fewer is spent: its leader goes to a larger one, or off the map.
SPENT = 2


def _corps_on_map(b) -> list[Corps]:
    """The power's corps on the map, the largest first (then by id)."""
    return sorted((u for u in b.state.units.values() if isinstance(u, Corps) and u.factors.total
                   and u.location.kind in (LocationKind.AREA, LocationKind.CITY)
                   and relations.unit_power(b.state, u) == b.power),
                  key=lambda c: (-c.factors.total, c.id))


def place_leaders(b, lvl: Level) -> None:
    """7.4: the power's leaders where they serve best (see the module's notes)."""
    st = b.state
    mine = sorted(lid for lid, ld in st.leaders.items() if ld.power == b.power and ld.loaned_to is None)

    def led() -> set[str]:
        return {ld.attached_to for ld in b.state.leaders.values()
                if ld.status is LeaderStatus.ON_MAP and ld.attached_to}

    def best_first(ids: list[str]) -> list[str]:
        return sorted(ids, key=lambda lid: (tuple(-x for x in assess.leader_rating(b.ctx, lid)), lid))

    at_war = assess.at_war_anywhere(st, b.power)
    on_map = [lid for lid in mine if st.leaders[lid].status is LeaderStatus.ON_MAP]
    for lid in best_first(on_map):
        ld = b.state.leaders[lid]
        here = b.state.units.get(ld.attached_to or "")
        if not isinstance(here, Corps) or here.factors.total > SPENT:
            continue
        site = here.location.site
        bigger = [c.id for c in _corps_on_map(b) if c.location.site == site and c.id not in led()
                  and c.factors.total > here.factors.total]
        if not any(b.try_(AssignLeader(leader=lid, unit=cid)) for cid in bigger[:1]) and at_war:
            b.try_(RetireLeader(leader=lid))
    for lid in best_first([lid for lid in mine if ready(b.state, b.state.leaders[lid])]):
        for c in _corps_on_map(b):
            if c.id not in led() and c.factors.total > SPENT and b.try_(AssignLeader(leader=lid, unit=c.id)):
                break


def set_up_minors(b) -> None:
    """7.3 (000:968-978): the stored forces of each minor whose set-up falls to ``b.power`` (a free state it was
    chosen to run, 6.6.5; an allied minor gone to war, 6.1.3) go on the map, the capital's area first: each corps
    counter in the pool filled up to its capacity, the infantry and militia left as the capital city's garrison (as
    much as it holds), the ships into the minor's fleets at its first port.  Every placement goes through the rules
    (``b.try_``); what they refuse stays stored."""
    m = b.ctx.map
    fields = [_field(k) for k in ARMY_ITEMS]
    for slug, row in sorted(b.state.minors.items()):
        if row.controller != b.power or not row.setup_due:
            continue
        capital = m.provinces[slug].capital if slug in m.provinces else None
        areas = sorted((a for a in m.areas if supply.is_home_area(b.state, m, a, slug)), key=lambda a: (a != capital, a))
        pool = [u for _, u in sorted(b.state.units.items()) if isinstance(u, (Corps, Fleet)) and u.nation == slug
                and u.location == POOL]
        for c in (u for u in pool if isinstance(u, Corps)):
            take = fitting(c.factors, corps_capacity(b.ctx, c), b.state.minors[slug].stored_factors, fields, Factors)
            if take.total:
                any(b.try_(SetUpMinorCorps(slug, c.id, a, False, **{f: getattr(take, f) for f in fields}))
                    for a in areas)
        for a in [a for a in areas if m.area(a).city is not None][:1]:
            left = b.state.minors[slug].stored_factors
            n = left.infantry + left.militia
            while n and not b.try_(SetUpMinorGarrison(slug, a, infantry=min(n, left.infantry),
                                                      militia=n - min(n, left.infantry))):
                n -= 1
        ports = [a for a in areas if m.area(a).port is not None]
        for f in (u for u in pool if isinstance(u, Fleet)):
            take = fitting(f.ships, fleet_capacity(b.ctx, f), b.state.minors[slug].stored_ships, SHIPS, Ships)
            if take.total:
                any(b.try_(SetUpMinorFleet(slug, f.id, p, "", **take.to_obj())) for p in ports)


__all__ = ["SPENT", "candidates", "place_due", "place_leaders", "set_up_minors"]
