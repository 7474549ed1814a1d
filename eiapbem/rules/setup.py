"""The setup phase (5.1-5.3, 000:306-332): each power puts its forces on the map.

In its setup slot (order RU TU AU PR SP FR GB, 5.3, ``rules.sequence``) a
power takes counters from its pool and puts its scenario's army factors and
ships into them:

- corps and depots go to land areas of its home nation or of a minor country
  it controls (conquered or free state); a controlled free state's forces are
  set up by its controller in the same areas (5.2, 000:312; 5.3.1);
- fleets go in, or into a sea area next to, a port of those lands, or onto the
  blockade box of a port of a major power it is at war with (5.2);
- factors not in a corps may stay as a garrison in a city of those lands
  ("Add Forces To Garrison", 5.2.1, 000:322), up to 5 per supply value (10.4.3);
- available leaders are assigned to the power's corps (5.2.1).

Counter capacities are the counter mix's data (``counters.json`` ``max``).
The slot may end only when every army factor and ship is placed (5.1,
000:308); unused corps, fleets and depots stay in the pool.  Austria's
insurrection corps may not be set up (5.3.1, 000:342); Tyrol (13.2.5),
guerrilla (13.2.1) and freikorps (13.2.2) counters appear only under their
own rules, never at setup.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from eiapbem.core.errors import IllegalAction
from eiapbem.rules import candidates, control, engine, relations
from eiapbem.rules.engine import Outcome, RulesContext
from eiapbem.rules.model import (
    POOL,
    Corps,
    CorpsType,
    Depot,
    Factors,
    FactorType,
    Fleet,
    GameState,
    Garrison,
    LeaderStatus,
    Location,
    LocationKind,
    Phase,
    Record,
    Ships,
    ShipType,
)
from eiapbem.rules.forces import (
    check_garrison_room,
    check_holds,
    corps_capacity,
    fleet_capacity,
    own_nation,
    the_area,
    the_corps,
    the_fleet,
)
from eiapbem.rules.placement import add_to_garrison, attach_leader, check_leader, check_placement, place

#: Corps types that may be set up (5.3.1; 13.2.1, 13.2.2, 13.2.4, 13.2.5 keep the others off the map).
SETUP_CORPS_TYPES = (CorpsType.REGULAR, CorpsType.FEUDAL, CorpsType.COSSACK)
_NOT_AT_SETUP = {
    CorpsType.INSURRECTION: "insurrection corps may not be set up on the map (5.3.1)",
    CorpsType.TYROL: "the Tyrol corps is used only under the conditions of 13.2.5",
    CorpsType.GUERRILLA: "guerrillas appear only when Spain is invaded (13.2.1)",
    CorpsType.FREIKORPS: "freikorps appear only under 13.2.2",
}


# ----------------------------------------------------------------- the actions


@dataclass(frozen=True, slots=True)
class SetupPlaceCorps(Record):
    """Take a corps counter from the pool and put it, empty, in a land area."""

    KIND = "setup.place-corps"
    COMMAND = "place-corps"
    BUTTON = "View Available Counters"
    corps: str
    area: str


@dataclass(frozen=True, slots=True)
class PlaceDepot(Record):
    """Take a depot counter from the pool and put it in a land area."""

    KIND = "setup.place-depot"
    COMMAND = "place-depot"
    BUTTON = "View Available Counters"
    depot: str
    area: str


@dataclass(frozen=True, slots=True)
class SetupPlaceFleet(Record):
    """Take a fleet counter from the pool and put it in a port, a sea area next to one, or an enemy's blockade box."""

    KIND = "setup.place-fleet"
    COMMAND = "place-fleet"
    BUTTON = "View Available Counters"
    fleet: str
    port: str | None = None
    sea: str | None = None
    blockade: str | None = None


@dataclass(frozen=True, slots=True)
class SetupAddFactors(Record):
    """Put army factors not yet placed into a corps on the map (the factor placement screen)."""

    KIND = "setup.add-factors"
    COMMAND = "add-factors"
    BUTTON = "Place Factors"
    corps: str
    factors: Factors = Factors()


@dataclass(frozen=True, slots=True)
class AddGarrison(Record):
    """Put army factors not yet placed into the garrison of a city."""

    KIND = "setup.add-garrison"
    COMMAND = "add-garrison"
    BUTTON = "Add Forces To Garrison"
    area: str
    factors: Factors = Factors()
    #: A controlled free state whose factors these are; empty for the power's own.
    nation: str | None = None


@dataclass(frozen=True, slots=True)
class SetupAddShips(Record):
    """Put ships not yet placed into a fleet on the map."""

    KIND = "setup.add-ships"
    COMMAND = "add-ships"
    BUTTON = "Place Ships"
    fleet: str
    ships: Ships = Ships()


@dataclass(frozen=True, slots=True)
class SetupAssignLeader(Record):
    """Assign an available leader to a corps (or fleet) on the map."""

    KIND = "setup.assign-leader"
    COMMAND = "assign-leader"
    BUTTON = "Assign Leader to Unit"
    leader: str
    unit: str


@dataclass(frozen=True, slots=True)
class RemoveCounter(Record):
    """Take a counter or garrison back off the map; its factors, ships and leaders become unplaced again."""

    KIND = "setup.remove-counter"
    COMMAND = "remove-counter"
    BUTTON = "Remove Counter from Map"
    unit: str


# ----------------------------------------------------------------- where things may go


def may_set_up_in(state: GameState, ctx: RulesContext, power: str, area_id: str) -> bool:
    """5.2: the area is in ``power``'s home nation or in a minor country it controls: ``power`` holds it."""
    return control.area_holder(state, ctx, area_id) == power

def _check_land(state: GameState, power: str, area_id: str, ctx: RulesContext, what: str) -> Any:
    area = the_area(ctx.map, area_id)
    if not may_set_up_in(state, ctx, power, area.id):
        raise IllegalAction(
            f"{what} cannot be set up in {area.name}: it is not in {power}'s home nation or a minor country {power} controls (5.2)"
        )
    return area


def _placed_unit(state: GameState, power: str, unit_id: str, cls: type[Any], what: str) -> Any:
    """A corps or fleet ``power`` has set up on the map, to put factors or ships into."""
    unit: Any = state.units.get(unit_id)
    if not isinstance(unit, cls):
        raise IllegalAction(f"there is no {what} {unit_id!r}", hint="'eiapbem show pool' lists your counters")
    if not own_nation(state, power, unit.nation):
        raise IllegalAction(f"{unit_id} is {unit.nation}'s; {power} places only its own counters and those of its "
                            f"minor free states (5.2, 000:312; 7.2, 000:930-936)")
    if unit.location == POOL:
        raise IllegalAction(f"{unit_id} is still in the pool; place it first with place-{what}")
    return unit


def _unplaced(state: GameState, nation: str) -> tuple[Factors, Ships]:
    if nation in state.powers:
        ps = state.powers[nation]
        return ps.unplaced_factors, ps.unplaced_ships
    m = state.minors[nation]
    return m.stored_factors, m.stored_ships


def _set_unplaced(state: GameState, nation: str, factors: Factors, ships: Ships) -> GameState:
    if nation in state.powers:
        return state.with_power(nation, unplaced_factors=factors, unplaced_ships=ships)
    return state.with_minor(nation, state.minors[nation].replace(stored_factors=factors, stored_ships=ships))


def _check_take(state: GameState, nation: str, factors: Factors, what: str) -> None:
    if factors.total == 0:
        raise IllegalAction(f"{what} names no factors; give at least one, e.g. --infantry 5")
    have, _ = _unplaced(state, nation)
    for k in FactorType:
        if factors.get(k) > have.get(k):
            raise IllegalAction(f"{nation} has only {have.get(k)} {k.value} factors left to place, not {factors.get(k)}")


# ----------------------------------------------------------------- verify / apply


def _verify_place_corps(state: GameState, power: str, a: SetupPlaceCorps, ctx: RulesContext) -> None:
    corps = check_placement(state, ctx, power, a.corps, Corps, Location(LocationKind.AREA, a.area))
    if corps.corps_type not in SETUP_CORPS_TYPES:
        raise IllegalAction(f"{a.corps} cannot be placed: {_NOT_AT_SETUP[corps.corps_type]}")
    _check_land(state, power, a.area, ctx, a.corps)


def _apply_place_corps(state: GameState, power: str, a: SetupPlaceCorps, ctx: RulesContext) -> Outcome:
    new = place(state, state.units[a.corps], Location(LocationKind.AREA, a.area))
    return engine.log(new, power, "setup.place", f"{power} places {a.corps} in {ctx.map.areas[a.area].name}", unit=a.corps, area=a.area)


def _verify_place_depot(state: GameState, power: str, a: PlaceDepot, ctx: RulesContext) -> None:
    check_placement(state, ctx, power, a.depot, Depot, Location(LocationKind.AREA, a.area))
    _check_land(state, power, a.area, ctx, a.depot)


def _apply_place_depot(state: GameState, power: str, a: PlaceDepot, ctx: RulesContext) -> Outcome:
    new = place(state, state.units[a.depot], Location(LocationKind.AREA, a.area))
    return engine.log(new, power, "setup.place", f"{power} places {a.depot} in {ctx.map.areas[a.area].name}", unit=a.depot, area=a.area)


def _fleet_location(a: SetupPlaceFleet) -> Location:
    given = [(k, v) for k, v in (("port", a.port), ("sea", a.sea), ("blockade", a.blockade)) if v]
    if len(given) != 1:
        raise IllegalAction(f"place {a.fleet} with exactly one of --port, --sea or --blockade")
    kind, site = given[0]
    return Location(LocationKind(kind), site)


def _home_ports(state: GameState, power: str, ctx: RulesContext) -> list[Any]:
    return [ar for ar in ctx.map.areas.values() if ar.port is not None and may_set_up_in(state, ctx, power, ar.id)]


def _verify_place_fleet(state: GameState, power: str, a: SetupPlaceFleet, ctx: RulesContext) -> None:
    loc = _fleet_location(a)
    check_placement(state, ctx, power, a.fleet, Fleet, loc)
    if loc.kind is LocationKind.SEA:
        if loc.site not in ctx.map.seas:
            raise IllegalAction(f"there is no sea area {loc.site!r} on the map")
        if not any(loc.site in p.port.seas for p in _home_ports(state, power, ctx)):
            raise IllegalAction(
                f"{a.fleet} cannot start in {ctx.map.seas[loc.site].name}: no port of {power}'s home nation or controlled minors lies on it (5.2)"
            )
        return
    area = the_area(ctx.map, loc.site)
    if area.port is None:
        raise IllegalAction(f"{area.name} has no port")
    if loc.kind is LocationKind.PORT:
        if not may_set_up_in(state, ctx, power, area.id):
            raise IllegalAction(f"{a.fleet} cannot start in {area.name}: it is not a port of {power}'s home nation or a minor country {power} controls (5.2)")
        return
    enemy = control.port_holder(state, ctx, area.id)
    if enemy not in state.powers or not relations.at_war(state, power, enemy):
        raise IllegalAction(f"{a.fleet} may blockade only a port of a major power {power} is at war with (5.2); {area.name} is {enemy}'s")


def _apply_place_fleet(state: GameState, power: str, a: SetupPlaceFleet, ctx: RulesContext) -> Outcome:
    loc = _fleet_location(a)
    new = place(state, state.units[a.fleet], loc)
    if loc.kind is LocationKind.SEA:
        where = f"in the {ctx.map.seas[loc.site].name}"
    elif loc.kind is LocationKind.PORT:
        where = f"in the port of {ctx.map.areas[loc.site].name}"
    else:
        where = f"on the blockade of {ctx.map.areas[loc.site].name}"
    return engine.log(new, power, "setup.place", f"{power} places {a.fleet} {where}", unit=a.fleet, at=str(loc))


def _verify_add_factors(state: GameState, power: str, a: SetupAddFactors, ctx: RulesContext) -> None:
    corps = _placed_unit(state, power, a.corps, Corps, "corps")
    _check_take(state, corps.nation, a.factors, f"adding factors to {a.corps}")
    check_holds(ctx, corps, a.factors)


def _apply_add_factors(state: GameState, power: str, a: SetupAddFactors, ctx: RulesContext) -> Outcome:
    corps = the_corps(state, a.corps)
    have, ships = _unplaced(state, corps.nation)
    new = _set_unplaced(state, corps.nation, (have - a.factors), ships)
    new = new.with_unit(corps.replace(factors=corps.factors + a.factors))
    return engine.log(new, power, "setup.factors", f"{power} puts {a.factors.describe()} into {a.corps}", unit=a.corps)


def _garrison_nation(power: str, a: AddGarrison) -> str:
    return a.nation or power


def _verify_add_garrison(state: GameState, power: str, a: AddGarrison, ctx: RulesContext) -> None:
    nation = _garrison_nation(power, a)
    if not own_nation(state, power, nation):
        raise IllegalAction(f"{power} does not set up {nation}'s forces")
    area = _check_land(state, power, a.area, ctx, "a garrison")
    if area.city is None:
        raise IllegalAction(f"{area.name} has no city to garrison")
    _check_take(state, nation, a.factors, f"the garrison of {area.name}")
    check_garrison_room(state, ctx.map, a.area, a.factors)


def _apply_add_garrison(state: GameState, power: str, a: AddGarrison, ctx: RulesContext) -> Outcome:
    nation = _garrison_nation(power, a)
    have, ships = _unplaced(state, nation)
    new = _set_unplaced(state, nation, (have - a.factors), ships)
    new, gid = add_to_garrison(new, nation, Location(LocationKind.CITY, a.area), a.factors)
    name = ctx.map.areas[a.area].name
    return engine.log(new, power, "setup.garrison", f"{power} garrisons {name} with {a.factors.describe()}", unit=gid)


def _verify_add_ships(state: GameState, power: str, a: SetupAddShips, ctx: RulesContext) -> None:
    fleet = _placed_unit(state, power, a.fleet, Fleet, "fleet")
    if a.ships.total == 0:
        raise IllegalAction(f"adding ships to {a.fleet} names no ships; give at least one, e.g. --heavy 5")
    _, have = _unplaced(state, fleet.nation)
    for k in ShipType:
        if a.ships.get(k) > have.get(k):
            raise IllegalAction(f"{fleet.nation} has only {have.get(k)} {k.value} ships left to place, not {a.ships.get(k)}")
    check_holds(ctx, fleet, a.ships)


def _apply_add_ships(state: GameState, power: str, a: SetupAddShips, ctx: RulesContext) -> Outcome:
    fleet = the_fleet(state, a.fleet)
    factors, have = _unplaced(state, fleet.nation)
    new = _set_unplaced(state, fleet.nation, factors, (have - a.ships))
    new = new.with_unit(fleet.replace(ships=(fleet.ships + a.ships)))
    return engine.log(new, power, "setup.ships", f"{power} puts {a.ships.describe()} into {a.fleet}", unit=a.fleet)


def _verify_assign_leader(state: GameState, power: str, a: SetupAssignLeader, ctx: RulesContext) -> None:
    leader, _ = check_leader(state, ctx, power, a.leader, a.unit)
    if leader.status is not LeaderStatus.AVAILABLE:  # 5.1: the leaders the scenario makes available
        raise IllegalAction(f"{a.leader} is {leader.status}, not available to be placed")


def _apply_assign_leader(state: GameState, power: str, a: SetupAssignLeader, ctx: RulesContext) -> Outcome:
    new = attach_leader(state, state.leaders[a.leader], a.unit)
    return engine.log(new, power, "setup.leader", f"{power} assigns {a.leader} to {a.unit}", leader=a.leader, unit=a.unit)


def _verify_remove(state: GameState, power: str, a: RemoveCounter, ctx: RulesContext) -> None:
    unit = state.units.get(a.unit)
    if unit is None:
        raise IllegalAction(f"there is no counter or garrison {a.unit!r}")
    nation = getattr(unit, "nation", None) or getattr(unit, "power")
    if not own_nation(state, power, nation):
        raise IllegalAction(f"{a.unit} is {nation}'s, not a counter {power} sets up")
    if unit.location == POOL:
        raise IllegalAction(f"{a.unit} is already in the pool")


def _apply_remove(state: GameState, power: str, a: RemoveCounter, ctx: RulesContext) -> Outcome:
    unit = state.units[a.unit]
    nation = getattr(unit, "nation", None) or getattr(unit, "power")
    factors, ships = _unplaced(state, nation)
    new = state
    if isinstance(unit, (Corps, Garrison)) and not (isinstance(unit, Corps) and unit.corps_type is CorpsType.FEUDAL):
        factors = factors + unit.factors
    if isinstance(unit, Fleet):
        ships = (ships + unit.ships)
    new = _set_unplaced(new, nation, factors, ships)
    if isinstance(unit, Garrison):
        new = new.without_unit(a.unit)
    elif isinstance(unit, Corps) and unit.corps_type is CorpsType.FEUDAL:
        new = new.with_unit(unit.replace(location=POOL))  # 5.3.1: feudal corps keep their full strength
    elif isinstance(unit, Corps):
        new = new.with_unit(unit.replace(location=POOL, factors=Factors()))
    elif isinstance(unit, Fleet):
        new = new.with_unit(unit.replace(location=POOL, ships=Ships()))
    else:
        new = new.with_unit(unit.replace(location=POOL))
    for lead in state.leaders.values():
        if lead.attached_to == a.unit:
            new = new.with_leader(lead.replace(status=LeaderStatus.AVAILABLE, attached_to=None))
    return engine.log(new, power, "setup.remove", f"{power} takes {a.unit} back off the map", unit=a.unit)


# ----------------------------------------------------------------- candidates (engine.legal_actions)


def _pool(state: GameState, power: str, cls: type[Any]) -> list[Any]:
    return [u for _, u in sorted(state.units.items()) if isinstance(u, cls) and u.location == POOL
            and own_nation(state, power, getattr(u, "nation", None) or getattr(u, "power"))]


def _placed(state: GameState, power: str, cls: type[Any]) -> list[Any]:
    return [u for _, u in sorted(state.units.items()) if isinstance(u, cls) and u.location != POOL
            and own_nation(state, power, getattr(u, "nation", None) or getattr(u, "power"))]


def _setup_areas(state: GameState, power: str, ctx: RulesContext) -> list[str]:
    return [a for a in sorted(ctx.map.areas) if may_set_up_in(state, ctx, power, a)]


def _place_corps_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[SetupPlaceCorps]:
    areas = _setup_areas(state, power, ctx)
    for corps in _pool(state, power, Corps):
        if corps.corps_type in SETUP_CORPS_TYPES:
            yield from (SetupPlaceCorps(corps.id, a) for a in areas)


def _place_depot_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[PlaceDepot]:
    depots = _pool(state, power, Depot)
    if depots:  # depot counters are alike: the first one stands for them all
        yield from (PlaceDepot(depots[0].id, a) for a in _setup_areas(state, power, ctx))


def _place_fleet_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[SetupPlaceFleet]:
    ports = _home_ports(state, power, ctx)
    seas = sorted({sea for p in ports for sea in p.port.seas})
    blockades = [a for a in sorted(ctx.map.areas) if ctx.map.areas[a].port is not None
                 and relations.at_war(state, power, control.port_holder(state, ctx, a))]
    for fleet in _pool(state, power, Fleet):
        yield from (SetupPlaceFleet(fleet.id, port=p.id) for p in ports)
        yield from (SetupPlaceFleet(fleet.id, sea=sea) for sea in seas)
        yield from (SetupPlaceFleet(fleet.id, blockade=a) for a in blockades)


def _add_factors_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[SetupAddFactors]:
    for corps in _placed(state, power, Corps):
        have, _ = _unplaced(state, corps.nation)
        fields = tuple(Factors.__dataclass_fields__)
        for chosen in candidates.counts(have.to_obj(), fields, candidates.room(corps_capacity(ctx, corps), corps.factors)):
            yield SetupAddFactors(corps.id, Factors(**chosen))


def _add_garrison_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[AddGarrison]:
    cities = [a for a in _setup_areas(state, power, ctx) if ctx.map.areas[a].city is not None]
    for nation in (power,) + state.free_states(power):
        have, _ = _unplaced(state, nation)
        for chosen in candidates.counts(have.to_obj(), tuple(Factors.__dataclass_fields__)):
            yield from (AddGarrison(a, Factors(**chosen), None if nation == power else nation) for a in cities)


def _add_ships_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[SetupAddShips]:
    for fleet in _placed(state, power, Fleet):
        _, have = _unplaced(state, fleet.nation)
        for chosen in candidates.counts(have.to_obj(), candidates.SHIP_FIELDS,
                                        candidates.room(fleet_capacity(ctx, fleet), fleet.ships)):
            yield SetupAddShips(fleet.id, Ships(**chosen))


def _assign_leader_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[SetupAssignLeader]:
    units = _placed(state, power, Corps) + _placed(state, power, Fleet)
    for lid, lead in sorted(state.leaders.items()):
        if lead.power == power and lead.status is LeaderStatus.AVAILABLE:
            yield from (SetupAssignLeader(lid, u.id) for u in units)


def _remove_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[RemoveCounter]:
    for cls in (Corps, Depot, Fleet, Garrison):
        yield from (RemoveCounter(u.id) for u in _placed(state, power, cls))


# ----------------------------------------------------------------- phase hooks


def _flags(counts: Factors | Ships) -> str:
    return " ".join(f"--{k.replace('_', '-')} {n}" for k, n in counts.to_obj().items() if n)


def command_line(a: SetupAddFactors | AddGarrison | SetupAddShips) -> str:
    """The command a player types for a placement, with every option it needs."""
    if isinstance(a, SetupAddFactors):
        return f"eiapbem setup add-factors --corps {a.corps} {_flags(a.factors)}"
    if isinstance(a, AddGarrison):
        return f"eiapbem setup add-garrison --area {a.area}{f' --nation {a.nation}' if a.nation else ''} {_flags(a.factors)}"
    return f"eiapbem setup add-ships --fleet {a.fleet} {_flags(a.ships)}"


def _capital_first(ctx: RulesContext, nation: str, made: Iterable[AddGarrison]) -> list[AddGarrison]:
    """Garrison placements for a hint: the nation's own cities first, its capital before the others, then the larger
    (the first city by name was Ajaccio for France, and Paris for Holland's factors, where a player looks to Paris
    and to Amsterdam)."""
    rank = {"national": 0, "minor": 0, "province": 1}

    def key(a: AddGarrison) -> tuple[bool, int, int, str]:
        area = ctx.map.areas[a.area]
        city = area.city
        return (area.nation != nation, rank.get(city.capital or "", 2) if city else 3, -(city.supply if city else 0),
                a.area)
    return sorted(made, key=key)


def _example(state: GameState, power: str, ctx: RulesContext, made: Iterable[Any], verify: Any,
             nation: str | None = None) -> str | None:
    """A placement the rules take now, as a command with its options ("e.g. ..."), the most factors or ships into the
    first counter or city that takes any; None when none is taken (the hint then names the command alone)."""
    best: Any = None
    for a in made:
        unit = getattr(a, "corps", None) or getattr(a, "fleet", None) or a.area
        if (nation is not None and (a.nation if isinstance(a, AddGarrison) else getattr(state.units[unit], "nation", None)) != nation) \
                or (best is not None and unit != (getattr(best, "corps", None) or getattr(best, "fleet", None) or best.area)):
            continue
        counts = a.ships if isinstance(a, SetupAddShips) else a.factors
        if best is not None and counts.total <= (best.ships if isinstance(best, SetupAddShips) else best.factors).total:
            continue
        try:
            verify(state, power, a, ctx)
        except IllegalAction:
            continue
        best = a
    return None if best is None else command_line(best)


def _first_kind(counts: Any) -> str:
    """The option naming the first kind of factor or ship ``counts`` holds ("feudal-infantry")."""
    return next(f.name for f in dataclasses.fields(counts) if getattr(counts, f.name)).replace("_", "-")


def obligations(state: GameState, power: str, ctx: RulesContext) -> list[str]:
    """5.1 (000:308): every army factor and ship given must be placed; counters and depots need not be.  Each to-do
    names a command the rules take as written (issue 32: a hint is accepted as written)."""
    out = []
    ps = state.powers[power]
    if ps.unplaced_factors.total:
        corps = _example(state, power, ctx, _add_factors_candidates(state, power, ctx), _verify_add_factors, power)
        garrison = _example(state, power, ctx, _capital_first(ctx, power, (a for a in _add_garrison_candidates(state, power, ctx) if a.nation is None)),
                            _verify_add_garrison)
        how = [f"'{x}'" for x in (corps, garrison) if x]
        if corps is None:  # the option of a type still to place: "--infantry N" when only cavalry is left misled
            how.append("a corps put on the map first ('eiapbem setup place-corps --help'), then "
                       f"'eiapbem setup add-factors --corps ID --{_first_kind(ps.unplaced_factors)} N'")
        empty = not any(_placed(state, power, cls) for cls in (Corps, Depot, Fleet, Garrison))
        out.append(f"place the remaining {ps.unplaced_factors.describe()} factors (5.1): {' or '.join(how)}, and so on "
                   + ("('eiapbem setup load default' places the shipped set-up)" if empty else
                      "('eiapbem restart' takes back what is placed, then 'eiapbem setup load default' places the shipped "
                      "set-up)"))
    if ps.unplaced_ships.total:
        ships = _example(state, power, ctx, _add_ships_candidates(state, power, ctx), _verify_add_ships, power)
        out.append(f"place the remaining {ps.unplaced_ships.describe()} ships (5.1): "
                   + (f"'{ships}', and so on" if ships else
                      "a fleet put on the map first ('eiapbem setup place-fleet --help'), then "
                      f"'eiapbem setup add-ships --fleet ID --{_first_kind(ps.unplaced_ships)} N'"))
    for m in state.free_states(power):
        row = state.minors[m]
        if row.setup_due and (row.stored_factors.total or row.stored_ships.total):
            left = ", ".join(x for x in (row.stored_factors.describe() if row.stored_factors.total else "",
                                         row.stored_ships.describe() if row.stored_ships.total else "") if x)
            corps = _example(state, power, ctx, _add_factors_candidates(state, power, ctx), _verify_add_factors, m)
            garrison = _example(state, power, ctx, _capital_first(ctx, m, (a for a in _add_garrison_candidates(state, power, ctx) if a.nation == m)),
                                _verify_add_garrison)
            ships = _example(state, power, ctx, _add_ships_candidates(state, power, ctx), _verify_add_ships, m)
            how = [x for x in (corps, garrison, ships) if x]
            out.append(f"place {m}'s remaining {left} (5.3.1): "
                       + (" or ".join(f"'{x}'" for x in how) + ", and so on" if how else
                          f"'eiapbem setup add-factors --corps CORPS' with a corps of {m}, "
                          f"'eiapbem setup add-garrison --nation {m} --area AREA' or 'eiapbem setup add-ships'"))
    return out


def finish(state: GameState, power: str, ctx: RulesContext) -> Outcome:
    """The free states ``power`` set up need no set-up at the next reinforcement phase (7.3)."""
    new = state
    for m in state.free_states(power):
        row = new.minors[m]
        if row.setup_due:
            new = new.with_minor(m, row.replace(setup_due=False))
    return engine.log(new, power, "setup.done", f"{power} has set up its forces")


#: The setup phase's rules (registered by ``eiapbem/rules/phases.py``).
RULES = engine.PhaseRules(
    "setup",
    phases=(Phase.SETUP,),
    actions=(
        (SetupPlaceCorps, _verify_place_corps, _apply_place_corps, _place_corps_candidates),
        (PlaceDepot, _verify_place_depot, _apply_place_depot, _place_depot_candidates),
        (SetupPlaceFleet, _verify_place_fleet, _apply_place_fleet, _place_fleet_candidates),
        (SetupAddFactors, _verify_add_factors, _apply_add_factors, _add_factors_candidates),
        (AddGarrison, _verify_add_garrison, _apply_add_garrison, _add_garrison_candidates),
        (SetupAddShips, _verify_add_ships, _apply_add_ships, _add_ships_candidates),
        (SetupAssignLeader, _verify_assign_leader, _apply_assign_leader, _assign_leader_candidates),
        (RemoveCounter, _verify_remove, _apply_remove, _remove_candidates),
    ),
    obligations=obligations,
    finish=finish,
)

# Old names, kept while other branches merge (issue 14: no two action classes share a name); use Setup*.
PlaceCorps, PlaceFleet, AddFactors = SetupPlaceCorps, SetupPlaceFleet, SetupAddFactors
AddShips, AssignLeader = SetupAddShips, SetupAssignLeader

__all__ = [
    "SetupAddFactors", "AddGarrison", "SetupAddShips", "SetupAssignLeader", "SetupPlaceCorps", "PlaceDepot", "SetupPlaceFleet",
    "RemoveCounter", "may_set_up_in", "obligations",
]
