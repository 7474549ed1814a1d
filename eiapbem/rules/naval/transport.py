"""Naval transport of corps and their leaders (8.6; 000:1128-1150) and landing from ships (10.4.5; 000:1448-1452).

``naval.load`` (naval phase) puts a corps aboard a fleet of its power: both in the same port
city, the fleet not yet moved (8.6.1); not guerrillas, Cossacks, Freikorps or insurrection
corps (8.6); within the capacity of 8.6.2, counted in half infantry factors: a heavy ship
carries 2 (or one half cavalry factor), a light ship 1 (infantry types only), a transport
4 (or one cavalry factor); a cavalry factor needs 4 of the heavy ships' and transports'
room.  Leaders with the corps go with it.  The corps then moves with the fleet.

``land.disembark`` (the corps' land phase) lands it from a fleet at sea into an adjacent
land area (one whose coast touches that sea area), from a port or a blockade box into the
port's area (10.4.5).  Landing uses up its whole movement and counts as having crossed a
river for that slot's combats; where one of the areas it could land in holds a besieged friendly
port, it must land there (10.4.5).  A corps still aboard when its power's land slot ends is
destroyed and its leaders leave the map, to come back as reinforcements (8.6.3, 000:1150;
``destroy_aboard``, called by the land phase's end).

``land.fleet-depot`` (land phase) places a depot on a fleet of the power with heavy ships or
transports in a sea area, for $1 like any depot, no other depot on a fleet in that sea area, when a
port of the power's chain can be a sea supply source (10.3.4, 10.5.4; 000:1350, 000:1564-1574).
It supplies corps in the land areas on that sea area at the cost of a depot next to them
(``supply.invasion_depot_for``, used by the supply step); it is never a link of a chain and no
reinforcement is placed by it.  When the fleet moves for any reason the depot is lost
(``lose_fleet_depots``).

Not built: loaned corps carried by the borrower (8.6), and invasion supply of besieged port garrisons
(10.5.4 names them too; besieged units check supply against their city's value, 10.5.5).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from eiapbem.core.errors import IllegalAction
from eiapbem.rules import candidates, control, engine, supply
from eiapbem.rules.forces import STACK_LIMIT, the_corps, the_fleet
from eiapbem.rules.land.common import counters_in_section, may_enter_territory
from eiapbem.rules.land.depots import DEPOT_COST, free_counter
from eiapbem.rules.land.movement import allowance
from eiapbem.rules.model import (
    POOL,
    Corps,
    CorpsType,
    Depot,
    Fleet,
    GameState,
    LandMove,
    LeaderStatus,
    Location,
    LocationKind,
    Record,
)
from eiapbem.rules.model.common import Slug
from eiapbem.rules.model.units import UnitId
from eiapbem.rules.naval.common import controller, lose_fleet_depots, own_fleet  # noqa: F401 - lose_fleet_depots re-exported
from eiapbem.rules.engine import RulesContext

#: 8.6 (000:1128): counters that never go by sea.
NOT_CARRIED = (CorpsType.GUERRILLA, CorpsType.COSSACK, CorpsType.FREIKORPS, CorpsType.INSURRECTION)


@dataclass(frozen=True, slots=True)
class Load(Record):
    """Put a corps (with its leaders) aboard a fleet in the same port city (8.6)."""

    KIND = "naval.load"
    COMMAND = "load"
    BUTTON = "Load Transport Fleet"

    fleet: UnitId
    corps: UnitId


@dataclass(frozen=True, slots=True)
class Disembark(Record):
    """Land a corps carried by a fleet into an adjacent land area (10.4.5)."""

    KIND = "land.disembark"
    COMMAND = "disembark"
    BUTTON = "Unload Unit"

    corps: UnitId
    area: Slug


def aboard(state: GameState, fid: str) -> list[Corps]:
    loc = Location(LocationKind.ABOARD, fid)
    return [u for u in state.units.values() if isinstance(u, Corps) and u.location == loc]


def room(fleet: Fleet) -> tuple[int, int]:
    """(all room, room for cavalry) in half infantry factors (8.6.2)."""
    s = fleet.ships
    return 2 * s.heavy + s.light + 4 * s.transport, 2 * s.heavy + 4 * s.transport


def need(corps: list[Corps]) -> tuple[int, int]:
    """(all room, cavalry room) the corps need, in half infantry factors."""
    cav = sum(c.factors.cavalry for c in corps)
    other = sum(c.factors.total for c in corps) - cav
    return 4 * cav + 2 * other, 4 * cav


def verify_load(state: GameState, power: str, action: Load, ctx: RulesContext) -> None:
    from eiapbem.rules.naval.movement import may_continue

    fleet = own_fleet(state, power, action.fleet, "load")
    corps = state.units.get(action.corps)
    if not isinstance(corps, Corps):
        raise IllegalAction(f"there is no corps {action.corps!r}", hint="corps ids look like corps:FR:III")
    if controller(state, corps) != power:
        raise IllegalAction(f"{corps.id} is not {power}'s to move, so its fleets cannot carry it (8.6)")
    if corps.corps_type in NOT_CARRIED:
        raise IllegalAction(f"{corps.id} is a {corps.corps_type} counter, which never goes by sea (8.6, 000:1128)")
    if fleet.location.kind is not LocationKind.PORT:
        raise IllegalAction(f"{fleet.id} is not in a port; the corps and the fleet must both begin in the same port city (8.6.1)")
    port = fleet.location.site
    if corps.location not in (Location(LocationKind.AREA, port), Location(LocationKind.CITY, port)):
        raise IllegalAction(f"{corps.id} is at {corps.location}, not in {port} where {fleet.id} is (8.6.1, 000:1140)")
    if corps.location.kind is LocationKind.CITY and control.is_besieged(state, ctx.map, port):
        raise IllegalAction(f"{corps.id} is besieged in {port} and cannot reach the fleet")
    why = may_continue(state, fleet)
    if why or fleet.id in state.naval_moves:
        raise IllegalAction(why or f"{fleet.id} has moved this phase; the corps boards before the fleet moves (8.6.1)")
    have, cav_room = room(fleet)
    want, cav_want = need(aboard(state, fleet.id) + [corps])
    if want > have or cav_want > cav_room:
        raise IllegalAction(f"{fleet.id} cannot carry {corps.id} as well (8.6.2, 000:1144): a heavy ship carries 1 infantry "
                            f"or 1/2 cavalry factor, a light ship 1/2 infantry, a transport 2 infantry or 1 cavalry, and "
                            f"it holds {fleet.ships.describe()}; load fewer factors or use a bigger fleet")


def apply_load(state: GameState, power: str, action: Load, ctx: RulesContext) -> engine.Outcome:
    corps = state.units[action.corps]
    state = state.with_unit(corps.replace(location=Location(LocationKind.ABOARD, action.fleet), besieging=False))
    return engine.log(state, power, "naval.load", f"{power}: {corps.id} boards {action.fleet} in {corps.location.site} (8.6)",
                      corps=corps.id, fleet=action.fleet)


def landing_areas(state: GameState, ctx: RulesContext, fleet: Fleet) -> tuple[str, ...]:
    """Where a corps aboard ``fleet`` may land (10.4.5, 000:1450)."""
    m = ctx.map
    loc = fleet.location
    if loc.kind is LocationKind.SEA:
        return tuple(sorted(m.coastal_areas(loc.site)))
    if loc.kind in (LocationKind.PORT, LocationKind.BLOCKADE):
        return (loc.site,)
    return ()


def relief_ports(state: GameState, ctx: RulesContext, areas: tuple[str, ...] | list[str], power: str) -> tuple[str, ...]:
    """The areas of ``areas`` (a coast) whose port city is ``power``'s and besieged: a corps of ``power`` landing on
    that coast must land in one of them (10.4.5, 000:1450)."""
    m = ctx.map
    return tuple(a for a in areas if m.area(a).port is not None and control.city_power(state, m, a) == power
                 and control.is_besieged(state, m, a))


def verify_disembark(state: GameState, power: str, action: Disembark, ctx: RulesContext) -> None:
    corps = state.units.get(action.corps)
    if not isinstance(corps, Corps) or corps.location.kind is not LocationKind.ABOARD:
        raise IllegalAction(f"{action.corps} is not a corps carried by a fleet; only those disembark (10.4.5)")
    if controller(state, corps) != power:
        raise IllegalAction(f"{corps.id} is not {power}'s to move")
    if state.movement_over:
        raise IllegalAction(f"{power} has begun its combats, so its movement is over (11.0); disembark before attacking")
    fleet = the_fleet(state, corps.location.site)
    areas = landing_areas(state, ctx, fleet)
    if action.area not in areas:
        where = f"{fleet.location.kind} {fleet.location.site}"
        raise IllegalAction(f"{fleet.id} is in the {where}, so {corps.id} may land only in {', '.join(areas) or 'no area'} "
                            f"(10.4.5, 000:1450)")
    m = ctx.map
    relief = relief_ports(state, ctx, areas, power)
    if relief and action.area not in relief:
        raise IllegalAction(f"the friendly port of {relief[0]} is besieged on this coast, so {corps.id} must land in its "
                            f"area (10.4.5, 000:1450)")
    why = may_enter_territory(state, m, action.area, power)
    if why:
        raise IllegalAction(why)
    carrier = controller(state, fleet)
    if carrier is not None and carrier != power and may_enter_territory(state, m, action.area, carrier):
        raise IllegalAction(f"{fleet.id} is {carrier}'s, which has no access to {action.area}: a fleet of another power lands "
                            f"troops only where that power may go (7.6.1 NOTE, 000:1012); borrow the fleet instead")
    n = counters_in_section(state, action.area)
    if n + 1 > STACK_LIMIT:
        raise IllegalAction(f"{action.area} already holds {n} counters outside its city; 30 is the limit (10.4.2)")


def apply_disembark(state: GameState, power: str, action: Disembark, ctx: RulesContext) -> engine.Outcome:
    corps = the_corps(state, action.corps)
    fleet = corps.location.site
    state = state.with_unit(corps.replace(location=Location(LocationKind.AREA, action.area)))
    # 10.4.5: the whole movement allowance is used (no unused points when it forages), and it counts as a
    # river crossing for its combats.
    rec = LandMove(start=action.area, passed=(action.area,), spent=allowance(state, ctx, corps), halted=True,
                   across_river=True)
    state = state.with_scratch(land_moves=state.land_moves.set(corps.id, rec))
    return engine.log(state, power, "land.disembark", f"{power}: {corps.id} lands from {fleet} in {action.area} (10.4.5)",
                      corps=corps.id, area=action.area)


def left_aboard(state: GameState, power: str) -> list[Corps]:
    """``power``'s corps still aboard a fleet: destroyed if still there when its land slot ends (8.6.3, 000:1150)."""
    return sorted((u for u in state.units.values() if isinstance(u, Corps) and u.location.kind is LocationKind.ABOARD
                   and controller(state, u) == power), key=lambda u: u.id)


def destroy_aboard(state: GameState, power: str, ctx: RulesContext) -> engine.Outcome:
    """8.6.3 (000:1150): ``power``'s corps still aboard at the end of its land slot are destroyed; their leaders
    leave the map and may come back at a later reinforcement phase."""
    out = engine.Outcome(state)
    lost = left_aboard(state, power)
    for c in lost:
        state = out.state.with_unit(c.replace(location=POOL))
        for lead in state.leaders.values():
            if lead.attached_to == c.id:
                state = state.with_leader(lead.replace(status=LeaderStatus.AVAILABLE, attached_to=None))
        out = out.then(engine.log(state, power, "naval.lost-aboard", f"{power}: {c.id} did not disembark and is destroyed "
                                  f"(8.6.3)", corps=c.id))
    return out


@dataclass(frozen=True, slots=True)
class FleetDepot(Record):
    """Place a depot on a fleet in a sea area for invasion supply, for $1 (10.3.4, 10.5.4)."""

    KIND = "land.fleet-depot"
    COMMAND = "fleet-depot"
    BUTTON = ""

    fleet: UnitId


def _fleet_depots_in(state: GameState, sea: str) -> list[str]:
    out = []
    for u in state.units.values():
        if isinstance(u, Depot) and u.location.kind is LocationKind.ABOARD:
            f = state.units.get(u.location.site)
            if isinstance(f, Fleet) and f.location == Location(LocationKind.SEA, sea):
                out.append(u.id)
    return sorted(out)


def verify_fleet_depot(state: GameState, power: str, action: FleetDepot, ctx: RulesContext) -> None:
    f = state.units.get(action.fleet)
    if not isinstance(f, Fleet) or f.nation != power:
        raise IllegalAction(f"{action.fleet} is not a fleet of {power}; a depot goes only on the power's own fleet (10.5.4, 000:1568)")
    if not (f.ships.heavy or f.ships.transport):
        raise IllegalAction(f"{f.id} has no heavy ships or transports; depots go on heavy fleets and transports, not light "
                            f"fleets (10.3.4, 000:1352)")
    if f.location.kind is not LocationKind.SEA:
        raise IllegalAction(f"{f.id} is not in a sea area; invasion supply comes from a fleet at sea (10.5.4, 000:1566)")
    if _fleet_depots_in(state, f.location.site):
        raise IllegalAction(f"a depot for invasion supply is already in {f.location.site}; one per sea area (10.5.4, 000:1574)")
    if state.date.month in supply.WINTER_MONTHS and ctx.map.sea(f.location.site).ice:
        raise IllegalAction(f"{f.location.site} is north of the ice line: no sea supply there in winter (10.5.3, 000:1550)")
    if not supply.invasion_sources(state, ctx.map, power):
        raise IllegalAction(f"{power} has no unblockaded port in its supply chain from which to trace supply to the fleet "
                            f"(10.5.4, 000:1568); place a depot in a port of the chain first")
    if free_counter(state, power) is None:
        raise IllegalAction(f"{power} has no depot counter left in the pool (10.3, 000:1304)")
    if state.powers[power].treasury < DEPOT_COST:
        raise IllegalAction(f"{power} has ${state.powers[power].treasury}; a depot costs ${DEPOT_COST} (10.3, 000:1304)")


def apply_fleet_depot(state: GameState, power: str, action: FleetDepot, ctx: RulesContext) -> engine.Outcome:
    did = free_counter(state, power)
    assert did is not None  # verified
    state = state.with_unit(state.units[did].replace(location=Location(LocationKind.ABOARD, action.fleet)))
    state = state.with_power(power, treasury=state.powers[power].treasury - DEPOT_COST)
    sea = state.units[action.fleet].location.site
    return engine.log(state, power, "land.fleet-depot", f"{power} places {did} on {action.fleet} in {sea} for invasion "
                      f"supply (10.5.4)", depot=did, fleet=action.fleet)


# ----------------------------------------------------------------- candidates (engine.legal_actions)


def _load_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[Load]:
    for fleet in candidates.own_fleets(state, power):
        if fleet.location.kind is LocationKind.PORT:
            port = fleet.location.site
            yield from (Load(fleet.id, c.id) for c in control.corps_at(state, port) if controller(state, c) == power)


def _disembark_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[Disembark]:
    for _, corps in sorted(state.units.items()):
        if isinstance(corps, Corps) and corps.location.kind is LocationKind.ABOARD and controller(state, corps) == power:
            fleet = state.units.get(corps.location.site)
            if isinstance(fleet, Fleet):
                yield from (Disembark(corps.id, a) for a in landing_areas(state, ctx, fleet))


def _fleet_depot_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[FleetDepot]:
    yield from (FleetDepot(f.id) for f in candidates.own_fleets(state, power) if f.location.kind is LocationKind.SEA)


NAVAL_ACTIONS = ((Load, verify_load, apply_load, _load_candidates),)
LAND_ACTIONS = ((Disembark, verify_disembark, apply_disembark, _disembark_candidates),
                (FleetDepot, verify_fleet_depot, apply_fleet_depot, _fleet_depot_candidates))
