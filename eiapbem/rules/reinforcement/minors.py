"""Setting up minor country forces (7.3, 000:968-978).

The power that runs a minor whose forces are due to be set up
(``MinorCountry.setup_due``) places some, all or none of them: corps and
garrisons in any land area within the minor's borders, fleets in one of its
ports or a sea area next to one.  The forces come from the minor's stored
forces (the scenario's, or what was left after its last war, prisoners not
included); what is not set up stays stored.  The duty ends with the
controller's slot (``hooks.finish``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from eiapbem.core.errors import IllegalAction
from eiapbem.rules import candidates, engine, supply
from eiapbem.rules.model import Corps, Factors, Fleet, GameState, Location, LocationKind, MinorCountry, POOL, Ships
from eiapbem.rules.model.base import Record
from eiapbem.rules.model.common import NonNeg
from eiapbem.rules.forces import (
    check_garrison_room,
    corps_capacity,
    covers,
    factors_from,
    fleet_capacity,
    ships_from,
    the_area,
)
from eiapbem.rules.placement import add_to_garrison, check_placement, place, pool_counter
from eiapbem.rules.engine import RulesContext


def the_minor(state: GameState, power: str, slug: str) -> MinorCountry:
    minor = state.minors.get(slug)
    if minor is None:
        raise IllegalAction(f"there is no minor country {slug!r}", hint="minors are named by slug, like holland")
    if minor.controller != power:
        raise IllegalAction(f"{slug} is not run by {power}; only the power selected to run a minor sets up its forces (7.3, 000:970)")
    if not minor.setup_due:
        raise IllegalAction(f"{slug}'s forces are not waiting to be set up this month (7.3, 000:970)")
    return minor


def _in_borders(state: GameState, ctx: RulesContext, slug: str, area: str) -> None:
    the_area(ctx.map, area)
    if not supply.is_home_area(state, ctx.map, area, slug):
        raise IllegalAction(f"{area} is not within {slug}'s borders; its forces set up only there (7.3, 000:972)")


def _check_stored(slug: str, minor: MinorCountry, f: Factors | Ships) -> None:
    have = minor.stored_ships if isinstance(f, Ships) else minor.stored_factors
    if not covers(have, f):
        raise IllegalAction(f"{slug} has {have.describe()} to set up, not {f.describe()} (7.3, 000:974)")


@dataclass(frozen=True, slots=True)
class SetUpMinorCorps(Record):
    """Set up a corps of a minor country run by the power, within its borders (7.3)."""

    KIND = "reinforcement.minor-corps"
    COMMAND = "minor-corps"
    BUTTON = "View Available Counters"

    minor: str
    corps: str
    area: str
    #: Stand in the area's city rather than its rural part.
    in_city: bool = False
    infantry: NonNeg = 0
    militia: NonNeg = 0
    cavalry: NonNeg = 0
    guard: NonNeg = 0
    artillery: NonNeg = 0


def _verify_minor_corps(state: GameState, power: str, a: SetUpMinorCorps, ctx: RulesContext) -> None:
    minor = the_minor(state, power, a.minor)
    corps = pool_counter(state, power, a.corps, Corps, nation=a.minor)
    _in_borders(state, ctx, a.minor, a.area)
    if a.in_city and ctx.map.area(a.area).city is None:
        raise IllegalAction(f"{a.area} has no city")
    f = factors_from(a)
    if f.total == 0:
        raise IllegalAction(f"{corps.id} needs at least one factor to be set up")
    _check_stored(a.minor, minor, f)
    check_placement(state, ctx, power, a.corps, Corps, _corps_place(a), more=f, nation=a.minor)


def _corps_place(a: SetUpMinorCorps) -> Location:
    return Location(LocationKind.CITY if a.in_city else LocationKind.AREA, a.area)


def _apply_minor_corps(state: GameState, power: str, a: SetUpMinorCorps, ctx: RulesContext) -> engine.Outcome:
    minor = state.minors[a.minor]
    corps = state.units[a.corps]
    f = factors_from(a)
    where = _corps_place(a)
    state = state.with_minor(a.minor, minor.replace(stored_factors=(minor.stored_factors - f)))
    state = place(state, corps, where, factors=f)
    return engine.log(state, power, "reinforcement.minor-corps", f"{power} sets up {corps.id} at {where} with {f.describe()}",
                      minor=a.minor, corps=corps.id)


@dataclass(frozen=True, slots=True)
class SetUpMinorGarrison(Record):
    """Set up infantry or militia of a minor country run by the power as a city garrison in its borders (7.3)."""

    KIND = "reinforcement.minor-garrison"
    COMMAND = "minor-garrison"
    BUTTON = "Add Forces To Garrison"

    minor: str
    area: str
    infantry: NonNeg = 0
    militia: NonNeg = 0


def _verify_minor_garrison(state: GameState, power: str, a: SetUpMinorGarrison, ctx: RulesContext) -> None:
    minor = the_minor(state, power, a.minor)
    _in_borders(state, ctx, a.minor, a.area)
    if ctx.map.area(a.area).city is None:
        raise IllegalAction(f"{a.area} has no city to garrison")
    f = Factors(infantry=a.infantry, militia=a.militia)
    if f.total == 0:
        raise IllegalAction("name at least one infantry or militia factor")
    _check_stored(a.minor, minor, f)
    check_garrison_room(state, ctx.map, a.area, f)


def _apply_minor_garrison(state: GameState, power: str, a: SetUpMinorGarrison, ctx: RulesContext) -> engine.Outcome:
    minor = state.minors[a.minor]
    f = Factors(infantry=a.infantry, militia=a.militia)
    state = state.with_minor(a.minor, minor.replace(stored_factors=(minor.stored_factors - f)))
    state, gid = add_to_garrison(state, a.minor, Location(LocationKind.CITY, a.area), f)
    return engine.log(state, power, "reinforcement.minor-garrison", f"{power} sets up {f.describe()} of {a.minor} in {gid}",
                      minor=a.minor, garrison=gid)


@dataclass(frozen=True, slots=True)
class SetUpMinorFleet(Record):
    """Set up a fleet of a minor country run by the power in one of its ports or a sea area next to one (7.3)."""

    KIND = "reinforcement.minor-fleet"
    COMMAND = "minor-fleet"
    BUTTON = "View Available Counters"

    minor: str
    fleet: str
    port: str
    #: A sea area next to the port to start in, instead of the port itself.
    sea: str = ""
    heavy: NonNeg = 0
    light: NonNeg = 0
    transport: NonNeg = 0


def _verify_minor_fleet(state: GameState, power: str, a: SetUpMinorFleet, ctx: RulesContext) -> None:
    minor = the_minor(state, power, a.minor)
    fleet = pool_counter(state, power, a.fleet, Fleet, nation=a.minor)
    _in_borders(state, ctx, a.minor, a.port)
    port = ctx.map.area(a.port).port
    if port is None:
        raise IllegalAction(f"{a.port} has no port")
    if a.sea and a.sea not in port.seas:
        raise IllegalAction(f"{a.sea} is not a sea area next to the port of {a.port} ({', '.join(port.seas)}) (7.3, 000:972)")
    ships = ships_from(a)
    if ships.total == 0:
        raise IllegalAction(f"{fleet.id} needs at least one ship to be set up")
    _check_stored(a.minor, minor, ships)
    check_placement(state, ctx, power, a.fleet, Fleet, _fleet_place(a), more=ships, nation=a.minor)


def _fleet_place(a: SetUpMinorFleet) -> Location:
    return Location(LocationKind.SEA, a.sea) if a.sea else Location(LocationKind.PORT, a.port)


def _apply_minor_fleet(state: GameState, power: str, a: SetUpMinorFleet, ctx: RulesContext) -> engine.Outcome:
    minor = state.minors[a.minor]
    fleet = state.units[a.fleet]
    ships = ships_from(a)
    where = _fleet_place(a)
    left = Ships(heavy=minor.stored_ships.heavy - ships.heavy, light=minor.stored_ships.light - ships.light,
                 transport=minor.stored_ships.transport - ships.transport)
    state = state.with_minor(a.minor, minor.replace(stored_ships=left))
    state = place(state, fleet, where, ships=ships)
    return engine.log(state, power, "reinforcement.minor-fleet", f"{power} sets up {fleet.id} at {where} with {ships.describe()}",
                      minor=a.minor, fleet=fleet.id)


def finish_minor_setup(state: GameState, power: str) -> GameState:
    """The set-up duty of ``power``'s minors ends with its slot; unplaced forces stay stored (7.3)."""
    for slug, minor in state.minors.items():
        if minor.setup_due and minor.controller == power:
            state = state.with_minor(slug, minor.replace(setup_due=False))
    return state


# ----------------------------------------------------------------- candidates (engine.legal_actions)


def _setting_up(state: GameState, power: str) -> list[str]:
    return [slug for slug, m in state.minors.items() if m.controller == power and m.setup_due]


def _borders(state: GameState, ctx: RulesContext, slug: str) -> list[str]:
    m = ctx.map
    return [a for a in sorted(m.areas) if supply.is_home_area(state, m, a, slug)]


def _pool_of(state: GameState, slug: str, cls: type[Any]) -> list[Any]:
    return [u for _, u in sorted(state.units.items()) if isinstance(u, cls) and u.nation == slug and u.location == POOL]


def _minor_corps_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[SetUpMinorCorps]:
    for slug in _setting_up(state, power):
        stored = state.minors[slug].stored_factors.to_obj()
        areas = _borders(state, ctx, slug)
        for corps in _pool_of(state, slug, Corps):
            fit = candidates.room(corps_capacity(ctx, corps), corps.factors)
            for chosen in candidates.counts(stored, candidates.ARMY_FIELDS, fit):
                for a in areas:
                    yield SetUpMinorCorps(slug, corps.id, a, False, **chosen)
                    if ctx.map.areas[a].city is not None:
                        yield SetUpMinorCorps(slug, corps.id, a, True, **chosen)


def _minor_garrison_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[SetUpMinorGarrison]:
    for slug in _setting_up(state, power):
        cities = [a for a in _borders(state, ctx, slug) if ctx.map.areas[a].city is not None]
        for chosen in candidates.counts(state.minors[slug].stored_factors.to_obj(), candidates.GARRISON_FIELDS):
            yield from (SetUpMinorGarrison(slug, a, **chosen) for a in cities)


def _minor_fleet_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[SetUpMinorFleet]:
    for slug in _setting_up(state, power):
        ports = [(a, port) for a in _borders(state, ctx, slug) if (port := ctx.map.areas[a].port) is not None]
        for fleet in _pool_of(state, slug, Fleet):
            fit = candidates.room(fleet_capacity(ctx, fleet), fleet.ships)
            for chosen in candidates.counts(state.minors[slug].stored_ships.to_obj(), candidates.SHIP_FIELDS, fit):
                for p, port in ports:
                    yield SetUpMinorFleet(slug, fleet.id, p, "", **chosen)
                    yield from (SetUpMinorFleet(slug, fleet.id, p, sea, **chosen) for sea in port.seas)


ACTIONS = (
    (SetUpMinorCorps, _verify_minor_corps, _apply_minor_corps, _minor_corps_candidates),
    (SetUpMinorGarrison, _verify_minor_garrison, _apply_minor_garrison, _minor_garrison_candidates),
    (SetUpMinorFleet, _verify_minor_fleet, _apply_minor_fleet, _minor_fleet_candidates),
)
