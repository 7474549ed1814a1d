"""What the computer players see: the strength of forces, threats, distances, wars (issue 19).

Shared by every AI module (land, reinforcement, economy, diplomacy, naval).  It
asks the rules their own questions (``rules.relations``: who is at war, who is
allied; ``rules.control``: who holds an area or city; ``rules.combat.battle``:
morale values and leader ratings; ``rules.mapgraph``: movement costs) and adds
only the computer's judgement on top:

- **strength** of a force: its army factors times their morale values
  (hundredths, the NATIONAL MORALE VALUES CHART, 000:3183-3196) -- a factor of
  morale 4.0 counts 400 -- raised by a tenth for each tactical point of the
  leader who would command it (13.8.6: seniority first), less a point for each
  whole multiple of his tactical maximum its corps exceed (13.8.7: the
  commander's rating shifts the combat random number, 11.2.6);
- **odds**: attacker strength per hundred of defender strength;
- **distance**: the least movement cost between two land areas over the map
  graph (10.4.1 terrain costs and crossing arrows; no state: rivers, enemy
  fleets and access are the rules' to check when the AI moves);
- **threat**: enemy strength that could reach an area within a number of
  movement points, against the friendly strength there.

Everything is an integer; every list is sorted by id; nothing depends on set or
dict order.  Pure functions of the state and the context: no dice are rolled here.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import Any, Iterable

from eiapbem.rules import control, mapgraph, relations
from eiapbem.rules.combat.battle import SENIORITY, leader_data, morale_value
from eiapbem.rules.combat.commander import effective_tactical_rating
from eiapbem.rules.land.movement import allowance
from eiapbem.rules.model import POWERS, Corps, CorpsType, FactorType, GameState, Garrison, LeaderStatus, LocationKind

#: A strength of 1 army factor of morale 1.0 (morale values are hundredths).
UNIT = 100
#: Each tactical point of the best leader with a force adds this many percent to its strength.
LEADER_PERCENT = 10
#: Movement points a corps of 3 covers in about two months: how far a threat or a target is "near".
NEAR = 6
ON_MAP = (LocationKind.AREA, LocationKind.CITY)


# ----------------------------------------------------------------- wars


def enemies(state: GameState, power: str) -> tuple[str, ...]:
    """The major powers ``power`` is at war with (6.2), by id."""
    return tuple(sorted(q for q in state.powers[power].wars if q in POWERS))


def at_war_anywhere(state: GameState, power: str) -> bool:
    """``power`` is at war with a major power or a neutral minor (6.2, 6.15)."""
    ps = state.powers[power]
    return bool(ps.wars) or bool(ps.minor_wars)


def war_pairs(state: GameState) -> tuple[tuple[str, str], ...]:
    """Every pair of major powers at war, each pair once and sorted."""
    return tuple(sorted((a, b) for a in POWERS for b in state.powers[a].wars if b in POWERS and a < b))


def hostile(state: GameState, power: str, unit: Any) -> bool:
    """``unit`` fights for a nation at war with ``power`` (``relations.at_war``)."""
    return relations.at_war(state, power, relations.unit_side(state, unit))


def friendly(state: GameState, power: str, unit: Any) -> bool:
    """``unit`` fights for ``power`` or a formal ally of it (``relations.allied``)."""
    return relations.allied(state, power, relations.unit_side(state, unit))


# ----------------------------------------------------------------- strength


def factor_strength(state: GameState, ctx: Any, unit: Corps | Garrison) -> int:
    """Army factors x morale values (hundredths) of one corps or garrison."""
    total = 0
    for kind in FactorType:
        n = unit.factors.get(kind)
        if n:
            total += n * morale_value(state, ctx.world, unit.id, kind)
    return total


_LEADERS: "weakref.WeakKeyDictionary[Any, tuple[Any, dict[str, tuple[int, int, int, int]]]]" = weakref.WeakKeyDictionary()


def leader_info(ctx: Any, leader_id: str) -> tuple[int, int, int, int]:
    """(tactical, strategic, tactical maximum, seniority index: 0 for "A") of a leader (13.8.5-13.8.7), read once
    per world from the leaders' data (remembered per map for the world object it came from)."""
    held = _LEADERS.get(ctx.map)
    if held is None or held[0] is not ctx.world:
        held = _LEADERS[ctx.map] = (ctx.world, {})
    per = held[1]
    got = per.get(leader_id)
    if got is None:
        d = leader_data(ctx.world, leader_id)
        s = d.get("seniority", "D")
        got = per[leader_id] = (int(d.get("tactical") or 0), int(d.get("strategic") or 0), max(1, int(d.get("tactical_max") or 1)),
                                SENIORITY.index(s) if s in SENIORITY else len(SENIORITY))
    return got


def leader_rating(ctx: Any, leader_id: str) -> tuple[int, int]:
    """(tactical, strategic) of a leader from the world data (13.8.5)."""
    return leader_info(ctx, leader_id)[:2]


def commander(state: GameState, ctx: Any, unit_ids: Iterable[str]) -> str | None:
    """The leader who would command these units in a battle (13.8.6, 000:2684-2696): the best seniority, then the
    best combined rating, then the first id; None without a leader."""
    leaders = leaders_of(state, unit_ids)
    if not leaders:
        return None

    def key(lid: str) -> tuple[int, int]:
        tac, strat, _, sen = leader_info(ctx, lid)
        return sen, -(tac + strat)
    return min(leaders, key=lambda lid: (key(lid), lid))


def tactical(state: GameState, ctx: Any, unit_ids: Iterable[str]) -> int:
    """The commander's tactical rating over these units, reduced for each whole multiple of his tactical maximum
    their corps exceed (13.8.7, 000:2702-2722, ``combat.commander.effective_tactical_rating``); 0 without a leader."""
    ids = sorted(set(unit_ids))
    lead = commander(state, ctx, ids)
    if lead is None:
        return 0
    tac, _, tmax, _ = leader_info(ctx, lead)
    n = sum(1 for i in ids if isinstance(state.units.get(i), Corps))
    return effective_tactical_rating(tac, tmax, n)


def leaders_of(state: GameState, unit_ids: Iterable[str]) -> tuple[str, ...]:
    """Leaders on the map attached to these units, by id."""
    ids = set(unit_ids)
    return tuple(sorted(lid for lid, ld in state.leaders.items()
                        if ld.status is LeaderStatus.ON_MAP and ld.attached_to in ids))


def best_leader(state: GameState, ctx: Any, unit_ids: Iterable[str]) -> str | None:
    """The leader with these units with the best (tactical, strategic) rating, ties by id; None without one."""
    leaders = leaders_of(state, unit_ids)
    if not leaders:
        return None
    return max(leaders, key=lambda lid: (leader_rating(ctx, lid), _neg_id(lid)))


def _neg_id(s: str) -> tuple[int, ...]:
    """A key that sorts ids backwards, so ``max`` picks the first id among equals."""
    return tuple(-ord(c) for c in s)


def force_strength(state: GameState, ctx: Any, unit_ids: Iterable[str]) -> int:
    """The strength of the corps and garrisons ``unit_ids`` fighting together under their commander (13.8.6-13.8.7)."""
    ids = sorted(set(unit_ids))
    base = sum(factor_strength(state, ctx, u) for u in (state.units.get(i) for i in ids)
               if isinstance(u, (Corps, Garrison)))
    return base * (100 + LEADER_PERCENT * tactical(state, ctx, ids)) // 100


def army_units(state: GameState, power: str) -> list[Corps]:
    """``power``'s corps on the map with army factors (its own nation, its minors, loans to it), by id."""
    return [u for _, u in sorted(state.units.items())
            if isinstance(u, Corps) and u.location.kind in ON_MAP and u.factors.total > 0
            and relations.unit_power(state, u) == power]


#: Morale (hundredths) assumed for a minor's factors with no counter to read it from: the best minor morale.
UNKNOWN_MORALE = 400


def minor_might(state: GameState, ctx: Any, minor: str) -> int:
    """The strength of a minor (and its districts, 13.6): its corps and garrisons on the map
    (``factor_strength``) and the factors it has not set up yet (the power that runs it sets them up
    after a declaration, 6.6.5), at the minor's morale (``rules.combat.battle.morale_value``)."""
    m = state.minors[minor]
    nations = (minor,) + tuple(m.districts)
    total = 0
    for _, u in sorted(state.units.items()):
        if isinstance(u, (Corps, Garrison)) and u.nation in nations and u.location.kind in ON_MAP:
            total += factor_strength(state, ctx, u)
    for n in nations:
        row = state.minors.get(n)
        if row is None:
            continue
        ref = next((uid for uid, u in sorted(state.units.items()) if isinstance(u, Corps) and u.nation == n), None)
        for kind in FactorType:
            k = row.stored_factors.get(kind)
            if k:
                total += k * (morale_value(state, ctx.world, ref, kind) if ref is not None else UNKNOWN_MORALE)
    return total


def power_strength(state: GameState, ctx: Any, power: str) -> int:
    """The strength of all ``power``'s field corps, each counted alone (no leaders)."""
    return sum(factor_strength(state, ctx, c) for c in army_units(state, power))


@dataclass(frozen=True)
class AreaForces:
    """Strengths in one area from ``power``'s point of view (corps in the area and its city; garrisons)."""

    own: int = 0
    friends: int = 0
    enemy: int = 0
    #: Of ``enemy``: what stands inside the city (garrisons and corps there).
    enemy_city: int = 0
    own_ids: tuple[str, ...] = ()
    enemy_ids: tuple[str, ...] = ()


def forces_in(state: GameState, ctx: Any, area: str, power: str) -> AreaForces:
    """The own, allied and enemy strengths in ``area`` (rural part and city) for ``power``."""
    units = [(uid, u) for uid, u in sorted(state.units.items()) if u.location.site == area]
    return _area_forces(state, ctx, power, units)


def forces_by_area(state: GameState, ctx: Any, power: str) -> dict[str, AreaForces]:
    """``forces_in`` for every area holding corps or garrisons with factors, in one pass, by area."""
    by: dict[str, list[tuple[str, Any]]] = {}
    for uid, u in sorted(state.units.items()):
        if isinstance(u, (Corps, Garrison)) and u.location.kind in ON_MAP and u.factors.total:
            by.setdefault(u.location.site, []).append((uid, u))
    return {a: _area_forces(state, ctx, power, by[a]) for a in sorted(by)}


def _area_forces(state: GameState, ctx: Any, power: str, units: list[tuple[str, Any]]) -> AreaForces:
    own: list[str] = []
    friends: list[str] = []
    enemy: list[str] = []
    enemy_city: list[str] = []
    for uid, u in units:
        if not isinstance(u, (Corps, Garrison)) or u.location.kind not in ON_MAP or u.factors.total == 0:
            continue
        if isinstance(u, Corps) and relations.unit_power(state, u) == power:
            own.append(uid)
        elif friendly(state, power, u):
            friends.append(uid)
        elif hostile(state, power, u):
            enemy.append(uid)
            if u.location.kind is LocationKind.CITY:
                enemy_city.append(uid)
    return AreaForces(force_strength(state, ctx, own), force_strength(state, ctx, friends),
                      force_strength(state, ctx, enemy), force_strength(state, ctx, enemy_city),
                      tuple(own), tuple(enemy))


def odds(attacker: int, defender: int) -> int:
    """Attacker strength per hundred of defender strength (an unopposed attack: 1000)."""
    if defender <= 0:
        return 1000
    return attacker * 100 // defender


# ----------------------------------------------------------------- distances


_DIST: "weakref.WeakKeyDictionary[Any, dict[str, dict[str, int]]]" = weakref.WeakKeyDictionary()


def distances_from(ctx: Any, area: str) -> dict[str, int]:
    """The least movement cost from ``area`` to every land area reachable (10.4.1 terrain and crossings),
    ordered by id; cached per map (the map never changes).  An optional crossing (the London-Lille arrow, used only
    in a game with its option, 4.1.1) is left out: counted, it set the French army beside London, a threat to the
    capital that kept Britain's corps at home; where the option is on, ``moves.costs_from`` finds the moves over it."""
    m = ctx.map
    per_map = _DIST.setdefault(m, {})
    got = per_map.get(area)
    if got is None:
        got = mapgraph.movement_costs(m, area, crossings=lambda x: x.optional is None)
        per_map[area] = got
    return got


def distance(ctx: Any, a: str, b: str) -> int | None:
    """The least movement cost from ``a`` to ``b``, or None if no land path joins them."""
    return distances_from(ctx, a).get(b)


def capitals(ctx: Any, power: str) -> tuple[str, ...]:
    """``power``'s national capitals (12.2.1)."""
    try:
        return tuple(ctx.map.national_capitals(power))
    except KeyError:
        return ()


def enemy_forces_near(state: GameState, ctx: Any, area: str, power: str, within: int = NEAR) -> int:
    """Enemy field strength (corps outside cities, each with its leader) within ``within`` movement points of ``area``."""
    near = distances_from(ctx, area)
    total = 0
    for c in _corps_outside_cities(state):
        d = near.get(c.location.site)
        if d is not None and d <= within and hostile(state, power, c):
            total += force_strength(state, ctx, [c.id])
    return total


def enemy_in_reach(state: GameState, ctx: Any, area: str, power: str, months: int) -> int:
    """Enemy field strength (corps outside cities, each with its leader) that can reach ``area`` within ``months``
    months: every enemy corps whose movement cost by land to it is at most ``months`` times its own allowance with a
    forced march (10.4.1), wherever it stands (the whole army a month's march away, not only the corps next door)."""
    return in_reach(state, ctx, area, enemy_field_corps(state, power), months)


def friends_in_reach(state: GameState, ctx: Any, area: str, power: str, months: int, besides: Iterable[str] = ()) -> int:
    """``power``'s and its allies' field strength that can reach ``area`` within ``months`` months, as
    ``enemy_in_reach`` counts the enemy's, the corps ``besides`` left out."""
    left_out = set(besides)
    return in_reach(state, ctx, area, [c for c in _corps_outside_cities(state)
                                        if c.id not in left_out and friendly(state, power, c)], months)


def in_reach(state: GameState, ctx: Any, area: str, corps: Iterable[Corps], months: int) -> int:
    """The strength of those of ``corps`` (each with its leader) that can reach ``area`` within ``months`` months of
    forced march (10.4.1)."""
    near = distances_from(ctx, area)
    return sum(force_strength(state, ctx, [c.id]) for c in corps
               if near.get(c.location.site, -1) >= 0
               and near[c.location.site] <= months * allowance(state, ctx, c, forced_march=True))


def own_forces_near(state: GameState, ctx: Any, area: str, power: str, within: int = NEAR) -> int:
    """``power``'s field strength within ``within`` movement points of ``area`` (its city included)."""
    near = distances_from(ctx, area)
    return sum(factor_strength(state, ctx, c) for c in army_units(state, power)
               if (near.get(c.location.site, within + 1) <= within))


def _corps_outside_cities(state: GameState) -> list[Corps]:
    return [u for _, u in sorted(state.units.items())
            if isinstance(u, Corps) and u.location.kind is LocationKind.AREA and u.factors.total > 0
            and u.corps_type is not CorpsType.GUERRILLA]


@dataclass(frozen=True)
class Threat:
    """Enemy strength near a place against the friendly strength there and near it."""

    area: str
    enemy: int
    friendly: int

    @property
    def danger(self) -> bool:
        return self.enemy > self.friendly


def capital_threats(state: GameState, ctx: Any, power: str, within: int = NEAR) -> tuple[Threat, ...]:
    """For each national capital of ``power``: enemy field strength within reach against its own there and near."""
    out = []
    for cap in capitals(ctx, power):
        garrison = forces_in(state, ctx, cap, power)
        out.append(Threat(cap, enemy_forces_near(state, ctx, cap, power, within),
                          own_forces_near(state, ctx, cap, power, within) + garrison.friends))
    return tuple(out)


# ----------------------------------------------------------------- targets


def enemy_cities(state: GameState, ctx: Any, power: str) -> tuple[str, ...]:
    """Areas whose city is held by a nation at war with ``power`` (``control.city_holder``), by id."""
    return tuple(a for a in ctx.map.cities() if relations.at_war(state, power, control.city_holder(state, ctx, a)))


def enemy_capitals(state: GameState, ctx: Any, power: str) -> tuple[str, ...]:
    """The national capitals of the powers at war with ``power`` that they still hold, by id."""
    out = []
    for q in enemies(state, power):
        out += [c for c in capitals(ctx, q) if relations.at_war(state, power, control.city_holder(state, ctx, c))]
    return tuple(sorted(out))


def enemy_field_corps(state: GameState, power: str) -> tuple[Corps, ...]:
    """Enemy corps with factors outside cities, by id (not guerrillas)."""
    return tuple(c for c in _corps_outside_cities(state) if hostile(state, power, c))


def name_last_first(s: str) -> tuple[int, ...]:
    """A key that orders names backwards: ``max`` over it picks the alphabetically first of equal scores."""
    return tuple(-ord(ch) for ch in s)


__all__ = [
    "AreaForces", "NEAR", "Threat", "UNIT", "army_units", "at_war_anywhere", "best_leader", "capital_threats", "capitals", "commander", "leader_info", "tactical",
    "distance", "distances_from", "enemies", "enemy_capitals", "enemy_cities", "enemy_field_corps", "enemy_forces_near",
    "factor_strength", "force_strength", "forces_by_area", "forces_in", "friendly", "hostile", "leader_rating", "leaders_of",
    "minor_might", "name_last_first", "odds", "own_forces_near", "power_strength", "war_pairs",
]
