"""Army reinforcement (7.2; 000:922-966).

- 7.2.1 placing a purchased empty corps counter, which must receive a factor at once;
- 7.2.2 placing the factors due this month in corps (inside the home nation,
  or on or next to a depot of a valid supply chain: six depots, three for
  militia; sea supply counts, invasion supply does not) and in garrisons;
  converting guard or cavalry due to infantry;
- 7.2.3 exchanging factors between corps and garrisons in one area, and moving
  unbesieged corps between a city and its rural area;
- 7.2.4 demobilising garrison factors.

Factors that cannot be placed are lost when the power ends its slot
(``hooks.finish``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Annotated, Any

from eiapbem.core.errors import IllegalAction
from eiapbem.rules import candidates, control, engine, relations, supply
from eiapbem.rules.model import (
    Depot,
    Corps,
    FactorType,
    Factors,
    GameState,
    Garrison,
    Location,
    LocationKind,
)
from eiapbem.rules.model.common import NonNeg
from eiapbem.rules.model.base import OneOf, Record
from eiapbem.rules.model.powers import BuildOrder, build_key
from eiapbem.rules.reinforcement.common import check_due, due_factors, purchased, take_factors
from eiapbem.rules.forces import (
    NO_REINFORCEMENT,
    STACK_LIMIT,
    the_transfer_target,
    check_garrison_factors,
    check_garrison_room,
    check_holds,
    check_nation,
    check_transfer,
    corps_capacity,
    factors_from,
    move_factors,
    own_unit,
    removed_log,
    the_area,
    the_corps,
    transfer_candidates,
)
from eiapbem.rules.placement import add_to_garrison, check_placement, place, pool_counter
from eiapbem.rules.engine import RulesContext

# ----------------------------------------------------------------- where factors may go


def check_corps_takes(state: GameState, ctx: RulesContext, power: str, corps: Corps, factors: Factors, *, at: Location | None = None) -> None:
    """Raise unless the reinforcement ``factors`` may be added to ``corps`` (7.2.2, 000:932-948).

    ``at`` is where a corps being placed will stand (it is still in the pool).
    """
    m = ctx.map
    where = at or corps.location
    if where.kind not in (LocationKind.AREA, LocationKind.CITY):
        raise IllegalAction(f"{corps.id} is not on a land area of the map, so it cannot receive reinforcements (7.2.2)")
    area = where.site
    if corps.corps_type in NO_REINFORCEMENT:
        raise IllegalAction(
            f"{corps.id} is a {corps.corps_type} corps: feudal and insurrection corps get no reinforcements in this phase (7.2.2, 000:934)"
        )
    if where.kind is LocationKind.CITY and control.is_besieged(state, m, area):
        raise IllegalAction(f"{corps.id} is besieged in {area}; only unbesieged corps receive factors (7.2.2, 000:932)")
    check_holds(ctx, corps, factors)
    if supply.is_home_area(state, m, area, corps.nation):
        return
    limit = supply.MAX_CHAIN_MILITIA if factors.militia else supply.MAX_CHAIN
    if supply.supply_depot_for(state, m, power, area, max_length=limit) is None:
        home = "home nation" if corps.nation == power else "borders"
        raise IllegalAction(
            f"{corps.id} in {area} is outside {corps.nation}'s {home} and not on or next to a depot of {power}'s valid "
            f"supply chain of at most {limit} depots{' (militia)' if factors.militia else ''} (7.2.2, 000:940-948)"
        )


def check_garrison_takes(state: GameState, ctx: RulesContext, power: str, nation: str, where: Location, factors: Factors) -> None:
    """Raise unless reinforcement ``factors`` may form or join ``nation``'s garrison at ``where`` (7.2.2, 000:936-948)."""
    m = ctx.map
    area = where.site
    the_area(m, area)
    check_garrison_factors(factors)
    if where.kind is LocationKind.CITY:
        if m.area(area).city is None:
            raise IllegalAction(f"{area} has no city to garrison")
        if not supply.is_home_area(state, m, area, nation):
            raise IllegalAction(
                f"{area} is not in {nation}'s {'home nation' if nation == power else 'borders'}: reinforcements garrison "
                f"only home cities, or depots of the supply chain (7.2.2, 000:936)"
            )
        if control.city_power(state, m, area) != power:
            raise IllegalAction(f"the city of {area} is not controlled by {power} (7.2.2, 000:936)")
        if control.is_besieged(state, m, area):
            raise IllegalAction(f"the city of {area} is besieged; reinforcements go only to unbesieged cities (7.2.2, 000:936)")
        check_garrison_room(state, m, area, factors)
        return
    # A depot's garrison (7.2.2 "Corps or Depots in Supply", 000:940).
    if nation != power:
        raise IllegalAction(f"{nation} is a minor country: its forces may not garrison depots (10.4.3, 000:1420)")
    if not any(
        isinstance(u, Depot) and u.power == power and u.location == where for u in state.units.values()
    ):
        raise IllegalAction(f"{power} has no depot in {area} to garrison")
    limit = supply.MAX_CHAIN_MILITIA if factors.militia else supply.MAX_CHAIN
    chain = supply.supply_chain(state, m, power)
    if chain.get(area, limit + 1) > limit:
        raise IllegalAction(
            f"the depot in {area} is not part of {power}'s valid supply chain of at most {limit} depots (7.2.2, 000:940-948)"
        )


def _place_location(kind: str, area: str) -> Location:
    if kind not in ("city", "depot"):
        raise IllegalAction(f"a garrison is in a 'city' or at a 'depot', not {kind!r}")
    return Location(LocationKind.CITY if kind == "city" else LocationKind.AREA, area)


# ----------------------------------------------------------------- 7.2.1 placing empty corps counters


@dataclass(frozen=True, slots=True)
class PlaceCorps(Record):
    """Place a purchased corps counter in a home city or with a corps, with at least one factor (7.2.1)."""

    KIND = "reinforcement.place-corps"
    COMMAND = "place-corps"
    BUTTON = "View Available Counters"

    corps: str
    #: An unbesieged home nation city (the corps stands in the city).
    area: str = ""
    #: Or: an unbesieged corps of the power to stack with.
    with_corps: str = ""
    #: ``reinforcements`` (factors due this month) or the id of a corps or garrison in the same area.
    source: str = "reinforcements"
    infantry: NonNeg = 0
    militia: NonNeg = 0
    cavalry: NonNeg = 0
    guard: NonNeg = 0
    artillery: NonNeg = 0


def _place_corps_where(state: GameState, ctx: RulesContext, power: str, a: PlaceCorps, corps: Corps) -> Location:
    m = ctx.map
    if bool(a.area) == bool(a.with_corps):
        raise IllegalAction("name either a home city (--area) or a corps to stack with (--with-corps), not both or neither (7.2.1)")
    if a.with_corps:
        other = the_corps(state, a.with_corps)
        if other.location.kind not in (LocationKind.AREA, LocationKind.CITY):
            raise IllegalAction(f"{other.id} is not on a land area of the map")
        if relations.unit_power(state, other) != power:
            raise IllegalAction(f"{other.id} is not a corps of {power}; a new counter joins only a friendly corps (7.2.1, 000:924)")
        if not supply.unit_unbesieged(state, m, other):
            raise IllegalAction(f"{other.id} is besieged in {other.location.site}; a new counter joins only an unbesieged corps (7.2.1)")
        return other.location
    area = a.area
    ar = the_area(m, area)
    if ar.city is None or not supply.is_home_area(state, m, area, corps.nation):
        raise IllegalAction(
            f"{area} is not a city of {corps.nation}'s {'home nation' if corps.nation == power else 'borders'}; "
            f"{corps.id} may be placed only there or with a corps (7.2.1, 000:924)"
        )
    if control.city_power(state, m, area) != power:
        raise IllegalAction(f"the city of {area} is not controlled by {power} (7.2.1)")
    if control.is_besieged(state, m, area):
        raise IllegalAction(f"the city of {area} is besieged; {corps.id} may be placed only in an unbesieged city (7.2.1, 000:924)")
    return Location(LocationKind.CITY, area)


def _verify_place_corps(state: GameState, power: str, a: PlaceCorps, ctx: RulesContext) -> None:
    corps = pool_counter(state, power, a.corps, Corps, bought=True)
    where = _place_corps_where(state, ctx, power, a, corps)
    check_placement(state, ctx, power, a.corps, Corps, where, bought=True)  # room where it goes (10.4.2-10.4.3)
    f = factors_from(a)
    if f.total == 0:
        raise IllegalAction(f"{corps.id} must receive at least one factor when it is placed (7.2.1, 000:924)")
    if a.source == "reinforcements":
        check_due(state, corps.nation, f)
        check_corps_takes(state, ctx, power, corps, f, at=where)
        return
    placed = corps.replace(location=where)
    check_transfer(state, ctx, power, a.source, placed, f)


def _apply_place_corps(state: GameState, power: str, a: PlaceCorps, ctx: RulesContext) -> engine.Outcome:
    corps = the_corps(state, a.corps)
    where = _place_corps_where(state, ctx, power, a, corps)
    f = factors_from(a)
    removed = None
    if a.source == "reinforcements":
        state = take_factors(state, corps.nation, f)
        state = place(state, corps, where, factors=f)
        frm = "reinforcements"
    else:
        state = place(state, corps, where)
        state, removed = move_factors(state, a.source, corps.id, f)
        frm = a.source
    out = engine.log(state, power, "reinforcement.place-corps",
                     f"{power} places {corps.id} at {where} with {f.describe()} from {frm}",
                     corps=corps.id, location=str(where))
    return out.then(removed_log(out.state, power, removed))


# ----------------------------------------------------------------- 7.2.2 placing factors


@dataclass(frozen=True, slots=True)
class AddFactors(Record):
    """Add army factors due this month to a corps in the home nation or next to the supply chain (7.2.2)."""

    KIND = "reinforcement.add-factors"
    COMMAND = "add-factors"
    BUTTON = "Add Forces to Unit"

    corps: str
    infantry: NonNeg = 0
    militia: NonNeg = 0
    cavalry: NonNeg = 0
    guard: NonNeg = 0
    artillery: NonNeg = 0


def _verify_add_factors(state: GameState, power: str, a: AddFactors, ctx: RulesContext) -> None:
    corps = the_corps(state, a.corps)
    if corps.location.kind is LocationKind.POOL:
        raise IllegalAction(f"{corps.id} is in the counter pool; place it with place-corps first (7.2.1)")
    own_unit(state, power, corps, "reinforce")
    f = factors_from(a)
    if f.total == 0:
        raise IllegalAction("name at least one factor to add")
    check_due(state, corps.nation, f)
    check_corps_takes(state, ctx, power, corps, f)


def _apply_add_factors(state: GameState, power: str, a: AddFactors, ctx: RulesContext) -> engine.Outcome:
    corps = the_corps(state, a.corps)
    f = factors_from(a)
    state = take_factors(state, corps.nation, f)
    state = state.with_unit(corps.replace(factors=corps.factors + f))
    return engine.log(state, power, "reinforcement.add-factors", f"{power} adds {f.describe()} to {corps.id} at {corps.location}",
                      corps=corps.id)


@dataclass(frozen=True, slots=True)
class AddToGarrison(Record):
    """Add infantry or militia due this month to a home city's garrison or a supply-chain depot's (7.2.2)."""

    KIND = "reinforcement.add-garrison"
    COMMAND = "add-garrison"
    BUTTON = "Add Forces To Garrison"

    area: str
    #: The power itself or one of its minor free states.
    nation: str = ""
    #: ``city`` (a city garrison) or ``depot`` (the garrison of a depot in the area).
    at: Annotated[str, OneOf(("city", "depot"))] = "city"
    infantry: NonNeg = 0
    militia: NonNeg = 0


def _verify_add_garrison(state: GameState, power: str, a: AddToGarrison, ctx: RulesContext) -> None:
    nation = a.nation or power
    check_nation(state, power, nation)
    where = _place_location(a.at, a.area)
    f = Factors(infantry=a.infantry, militia=a.militia)
    if f.total == 0:
        raise IllegalAction("name at least one infantry or militia factor to add")
    check_due(state, nation, f)
    check_garrison_takes(state, ctx, power, nation, where, f)


def _apply_add_garrison(state: GameState, power: str, a: AddToGarrison, ctx: RulesContext) -> engine.Outcome:
    nation = a.nation or power
    where = _place_location(a.at, a.area)
    f = Factors(infantry=a.infantry, militia=a.militia)
    state = take_factors(state, nation, f)
    state, gid = add_to_garrison(state, nation, where, f)
    return engine.log(state, power, "reinforcement.add-garrison", f"{power} adds {f.describe()} to {gid}", garrison=gid)


@dataclass(frozen=True, slots=True)
class ConvertToInfantry(Record):
    """Convert guard or cavalry factors due this month to infantry before placing them (7.2.2)."""

    KIND = "reinforcement.convert"
    COMMAND = "convert-to-infantry"
    BUTTON = "Current Reinforcement"

    nation: str = ""
    guard: NonNeg = 0
    cavalry: NonNeg = 0


def _verify_convert(state: GameState, power: str, a: ConvertToInfantry, ctx: RulesContext) -> None:
    nation = a.nation or power
    check_nation(state, power, nation)
    f = Factors(guard=a.guard, cavalry=a.cavalry)
    if f.total == 0:
        raise IllegalAction("name the guard or cavalry factors to convert to infantry")
    check_due(state, nation, f)


def _apply_convert(state: GameState, power: str, a: ConvertToInfantry, ctx: RulesContext) -> engine.Outcome:
    nation = a.nation or power
    f = Factors(guard=a.guard, cavalry=a.cavalry)
    state = take_factors(state, nation, f)
    n = f.total
    # The infantry is due this month like any other reinforcement (and lost if not placed).
    ps = state.powers[power]
    key = build_key(state.date, nation, FactorType.INFANTRY.value, None)
    old = ps.builds.get(key)
    order = BuildOrder(nation=nation, item=FactorType.INFANTRY.value, count=n + (old.count if old else 0), arrives=state.date)
    state = state.with_power(power, builds=ps.builds.set(key, order))
    return engine.log(state, power, "reinforcement.convert", f"{power} converts {f.describe()} due to {nation} into {n} infantry",
                      nation=nation, infantry=n)


# ----------------------------------------------------------------- 7.2.3 transfers


@dataclass(frozen=True, slots=True)
class TransferFactors(Record):
    """Move factors between two corps, or a corps and a garrison, in the same area (7.2.3)."""

    KIND = "reinforcement.transfer-factors"
    COMMAND = "transfer-factors"
    BUTTON = "Transfer Forces"

    source: str
    #: A corps, an existing garrison, or a new garrison's id ``garrison:FR:city:paris``.
    target: str
    infantry: NonNeg = 0
    militia: NonNeg = 0
    cavalry: NonNeg = 0
    guard: NonNeg = 0
    artillery: NonNeg = 0


def _verify_transfer(state: GameState, power: str, a: TransferFactors, ctx: RulesContext) -> None:
    target = the_transfer_target(state, a.target)
    if isinstance(target, Corps) and target.location.kind is LocationKind.POOL:
        raise IllegalAction(f"{target.id} is in the counter pool; place it with place-corps (7.2.1)")
    check_transfer(state, ctx, power, a.source, target, factors_from(a))


def _apply_transfer(state: GameState, power: str, a: TransferFactors, ctx: RulesContext) -> engine.Outcome:
    f = factors_from(a)
    state, removed = move_factors(state, a.source, a.target, f)
    out = engine.log(state, power, "reinforcement.transfer-factors", f"{power} moves {f.describe()} from {a.source} to {a.target}",
                     source=a.source, target=a.target)
    return out.then(removed_log(out.state, power, removed))


@dataclass(frozen=True, slots=True)
class MoveCityRural(Record):
    """Move an unbesieged corps into its area's city or out to the rural area (7.2.3 note)."""

    KIND = "reinforcement.move-city"
    COMMAND = "move-city"
    BUTTON = "Move into/out of City"

    corps: str
    #: ``city`` or ``rural``.
    to: str


def _verify_move_city(state: GameState, power: str, a: MoveCityRural, ctx: RulesContext) -> None:
    m = ctx.map
    corps = the_corps(state, a.corps)
    own_unit(state, power, corps, "move")
    if a.to not in ("city", "rural"):
        raise IllegalAction(f"a corps moves to the 'city' or the 'rural' area, not {a.to!r}")
    if corps.location.kind not in (LocationKind.AREA, LocationKind.CITY):
        raise IllegalAction(f"{corps.id} is not on a land area of the map")
    area = corps.location.site
    if not supply.unit_unbesieged(state, m, corps) or corps.besieging:
        raise IllegalAction(f"{corps.id} is besieged or besieging at {area}; only unbesieged corps move between city and rural area (7.2.3, 000:956)")
    if a.to == "rural":
        if corps.location.kind is LocationKind.AREA:
            raise IllegalAction(f"{corps.id} is already in the rural area of {area}")
        return
    if corps.location.kind is LocationKind.CITY:
        raise IllegalAction(f"{corps.id} is already in the city of {area}")
    if m.area(area).city is None:
        raise IllegalAction(f"{area} has no city")
    if not relations.allied(state, power, control.city_power(state, m, area)):
        raise IllegalAction(f"the city of {area} is not held by {power} or an ally; {corps.id} may not enter it in this phase (7.2.3)")
    inside = sum(1 for c in control.corps_at(state, area) if c.location.kind is LocationKind.CITY)
    inside += sum(1 for g in supply.garrisons_at(state, area) if g.location.kind is LocationKind.CITY)
    if inside >= STACK_LIMIT:
        raise IllegalAction(f"the city of {area} already holds {inside} counters, the most it may (10.4.3, 000:1410)")


def _apply_move_city(state: GameState, power: str, a: MoveCityRural, ctx: RulesContext) -> engine.Outcome:
    corps = the_corps(state, a.corps)
    kind = LocationKind.CITY if a.to == "city" else LocationKind.AREA
    state = state.with_unit(corps.replace(location=Location(kind, corps.location.site)))
    return engine.log(state, power, "reinforcement.move-city", f"{power} moves {corps.id} to the {a.to} of {corps.location.site}",
                      corps=corps.id)


# ----------------------------------------------------------------- 7.2.4 demobilising


@dataclass(frozen=True, slots=True)
class Demobilise(Record):
    """Remove garrison factors of a city or depot from the map; they are lost, at no political cost (7.2.4)."""

    KIND = "reinforcement.demobilise"
    COMMAND = "demobilise"
    BUTTON = "Remove Counter from Map"

    garrison: str
    infantry: NonNeg = 0
    militia: NonNeg = 0


def _verify_demobilise(state: GameState, power: str, a: Demobilise, ctx: RulesContext) -> None:
    g = state.units.get(a.garrison)
    if not isinstance(g, Garrison):
        raise IllegalAction(f"there is no garrison {a.garrison!r}", hint="garrison ids look like garrison:FR:city:paris")
    check_nation(state, power, g.nation)
    f = Factors(infantry=a.infantry, militia=a.militia)
    if f.total == 0:
        raise IllegalAction("name the infantry or militia factors to remove")
    if g.factors.infantry < f.infantry or g.factors.militia < f.militia:
        raise IllegalAction(f"{g.id} has {g.factors.describe()}, not {f.describe()}")


def _apply_demobilise(state: GameState, power: str, a: Demobilise, ctx: RulesContext) -> engine.Outcome:
    g = state.units[a.garrison]
    assert isinstance(g, Garrison)
    f = Factors(infantry=a.infantry, militia=a.militia)
    left = (g.factors - f)
    state = state.without_unit(g.id) if left.total == 0 else state.with_unit(g.replace(factors=left))
    return engine.log(state, power, "reinforcement.demobilise", f"{power} demobilises {f.describe()} of {g.id}", garrison=g.id)


# ----------------------------------------------------------------- candidates (engine.legal_actions)


def _nations(state: GameState, power: str) -> tuple[str, ...]:
    return (power,) + state.free_states(power)


def _home_cities(state: GameState, ctx: RulesContext, nation: str) -> list[str]:
    m = ctx.map
    return [a for a in sorted(m.areas) if m.areas[a].city is not None and supply.is_home_area(state, m, a, nation)]


def _own_army(state: GameState, power: str, cls: type[Any]) -> list[Any]:
    return [u for _, u in sorted(state.units.items()) if isinstance(u, cls) and u.nation in _nations(state, power)
            and u.location.kind in (LocationKind.AREA, LocationKind.CITY)]


def _place_corps_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[PlaceCorps]:
    bought = [u for _, u in sorted(state.units.items()) if isinstance(u, Corps) and u.nation in _nations(state, power)
              and purchased(state, u)]
    corps_on_map = _own_army(state, power, Corps)
    for corps in bought:
        due = due_factors(state, corps.nation).to_obj()
        fit = candidates.room(corps_capacity(ctx, corps), corps.factors)
        places = [(PlaceCorps(corps.id, area=a), a) for a in _home_cities(state, ctx, corps.nation)]
        places += [(PlaceCorps(corps.id, with_corps=c.id), c.location.site) for c in corps_on_map]
        for where, area in places:
            for chosen in candidates.counts(due, candidates.ARMY_FIELDS, fit):
                yield where.replace(**chosen)
            for source in control.units_at(state, area):  # 7.2.1: factors of a corps or garrison there
                if isinstance(source, (Corps, Garrison)) and source.nation == corps.nation:
                    for chosen in candidates.counts(source.factors.to_obj(), candidates.ARMY_FIELDS, fit):
                        yield where.replace(source=source.id, **chosen)


def _add_factors_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[AddFactors]:
    for corps in _own_army(state, power, Corps):
        due = due_factors(state, corps.nation).to_obj()
        fit = candidates.room(corps_capacity(ctx, corps), corps.factors)
        for chosen in candidates.counts(due, candidates.ARMY_FIELDS, fit):
            yield AddFactors(corps.id, **chosen)


def _add_garrison_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[AddToGarrison]:
    depots = sorted({u.location.site for u in state.units.values() if isinstance(u, Depot) and u.power == power
                     and u.location.kind is LocationKind.AREA})
    for nation in _nations(state, power):
        due = due_factors(state, nation).to_obj()
        for chosen in candidates.counts(due, candidates.GARRISON_FIELDS):
            name = "" if nation == power else nation
            yield from (AddToGarrison(a, name, "city", **chosen) for a in _home_cities(state, ctx, nation))
            if nation == power:
                yield from (AddToGarrison(a, name, "depot", **chosen) for a in depots)


def _convert_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[ConvertToInfantry]:
    for nation in _nations(state, power):
        for chosen in candidates.counts(due_factors(state, nation).to_obj(), ("guard", "cavalry")):
            yield ConvertToInfantry("" if nation == power else nation, **chosen)


def _transfer_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[TransferFactors]:
    for source, target, chosen in transfer_candidates(state, power, ctx):
        yield TransferFactors(source, target, **chosen)


def _move_city_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[MoveCityRural]:
    for corps in _own_army(state, power, Corps):
        yield MoveCityRural(corps.id, "rural" if corps.location.kind is LocationKind.CITY else "city")


def _demobilise_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[Demobilise]:
    for g in _own_army(state, power, Garrison):
        for chosen in candidates.counts(g.factors.to_obj(), candidates.GARRISON_FIELDS):
            yield Demobilise(g.id, **chosen)


ACTIONS = (
    (PlaceCorps, _verify_place_corps, _apply_place_corps, _place_corps_candidates),
    (AddFactors, _verify_add_factors, _apply_add_factors, _add_factors_candidates),
    (AddToGarrison, _verify_add_garrison, _apply_add_garrison, _add_garrison_candidates),
    (ConvertToInfantry, _verify_convert, _apply_convert, _convert_candidates),
    (TransferFactors, _verify_transfer, _apply_transfer, _transfer_candidates),
    (MoveCityRural, _verify_move_city, _apply_move_city, _move_city_candidates),
    (Demobilise, _verify_demobilise, _apply_demobilise, _demobilise_candidates),
)

__all__ = [unit[0].__name__ for unit in ACTIONS] + ["check_corps_takes", "check_garrison_takes"]
