"""Naval reinforcement (7.1; 000:904-920).

- 7.1.1 placing a purchased empty fleet counter in a friendly home port, with
  at least one ship at once (new ships, or ships of a fleet in that port);
- 7.1.2 placing the ships due in the port chosen when they were bought
  (12.5.3, 000:2234), blockaded or not, within the fleet's capacity; ships may
  wait for a later month;
- 7.1.3 transferring ships between fleets of one nation in the same sea area,
  blockade box or port; an emptied fleet returns to the counter pool (8.3, 000:1056: ships are transferred
  only in the power's own reinforcement phase, the action's only phase).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from eiapbem.core.errors import IllegalAction
from eiapbem.rules import candidates, control, engine, supply
from eiapbem.rules.model import POOL, Fleet, GameState, Location, LocationKind, MinorStatus, Ships
from eiapbem.rules.model.base import Record
from eiapbem.rules.model.common import NonNeg
from eiapbem.rules.reinforcement.common import due_ships, purchased, take_ships
from eiapbem.rules.forces import (
    check_holds,
    covers,
    fleet_capacity,
    own_unit,
    ships_from,
    the_area,
    the_fleet,
)
from eiapbem.rules.placement import place, pool_counter
from eiapbem.rules.engine import RulesContext


def _home_port(state: GameState, ctx: RulesContext, power: str, nation: str, port: str, *, conquered_ok: bool) -> None:
    """Raise unless ``port`` is a port held by ``power`` in ``nation``'s home (or a conquered minor, if allowed)."""
    m = ctx.map
    a = the_area(m, port)
    if a.port is None:
        raise IllegalAction(f"{port} has no port")
    if control.city_power(state, m, port) != power:
        raise IllegalAction(f"the port of {port} is not controlled by {power} (7.1, 000:908)")
    if supply.is_home_area(state, m, port, nation):
        return
    if conquered_ok and nation == power:
        minor = state.minors.get(a.nation)
        if minor is not None and minor.status is MinorStatus.CONQUERED and minor.controller == power:
            return
    raise IllegalAction(
        f"{port} is not a port of {nation}'s {'home nation' if nation == power else 'own country'} (7.1.1, 000:908; 7.1.2, 000:912)"
    )


# ----------------------------------------------------------------- 7.1.1


@dataclass(frozen=True, slots=True)
class PlaceFleet(Record):
    """Place a purchased fleet counter in a friendly home port with at least one ship (7.1.1)."""

    KIND = "reinforcement.place-fleet"
    COMMAND = "place-fleet"
    BUTTON = "View Available Counters"

    fleet: str
    port: str
    #: ``reinforcements`` (ships due in this port) or the id of a fleet in the port.
    source: str = "reinforcements"
    heavy: NonNeg = 0
    light: NonNeg = 0
    transport: NonNeg = 0


def _verify_place_fleet(state: GameState, power: str, a: PlaceFleet, ctx: RulesContext) -> None:
    fleet = pool_counter(state, power, a.fleet, Fleet, bought=True)
    _home_port(state, ctx, power, fleet.nation, a.port, conquered_ok=False)
    ships = ships_from(a)
    if ships.total == 0:
        raise IllegalAction(f"{fleet.id} must receive at least one ship when it is placed (7.1.1, 000:908)")
    here = Location(LocationKind.PORT, a.port)
    if a.source == "reinforcements":
        due = due_ships(state, fleet.nation, a.port)
        if not covers(due, ships):
            raise IllegalAction(f"{fleet.nation} has {due.describe()} due in {a.port}, not {ships.describe()} (7.1.2, 000:912)")
    else:
        _check_ship_transfer(state, power, a.source, fleet.replace(location=here), ships)
    check_holds(ctx, fleet, ships)


def _apply_place_fleet(state: GameState, power: str, a: PlaceFleet, ctx: RulesContext) -> engine.Outcome:
    fleet = the_fleet(state, a.fleet)
    ships = ships_from(a)
    here = Location(LocationKind.PORT, a.port)
    removed = None
    if a.source == "reinforcements":
        state = take_ships(state, fleet.nation, a.port, ships)
        state = place(state, fleet, here, ships=ships)
    else:
        state = place(state, fleet, here)
        state, removed = _move_ships(state, a.source, fleet.id, ships)
    out = engine.log(state, power, "reinforcement.place-fleet", f"{power} places {fleet.id} in {a.port} with {ships.describe()}",
                     fleet=fleet.id, port=a.port)
    return out.then(_removed(out.state, power, removed))


# ----------------------------------------------------------------- 7.1.2


@dataclass(frozen=True, slots=True)
class AddShips(Record):
    """Add ships due this month to a fleet in the port where they were built (7.1.2)."""

    KIND = "reinforcement.add-ships"
    COMMAND = "add-ships"
    BUTTON = "Add Ships to Fleet"

    fleet: str
    heavy: NonNeg = 0
    light: NonNeg = 0
    transport: NonNeg = 0


def _verify_add_ships(state: GameState, power: str, a: AddShips, ctx: RulesContext) -> None:
    fleet = the_fleet(state, a.fleet)
    own_unit(state, power, fleet, "reinforce")
    if fleet.location.kind is not LocationKind.PORT:
        raise IllegalAction(f"{fleet.id} is at {fleet.location}, not in port; new ships join a fleet in the port where they were built (7.1.2, 000:912)")
    port = fleet.location.site
    ships = ships_from(a)
    if ships.total == 0:
        raise IllegalAction("name at least one ship to add")
    due = due_ships(state, fleet.nation, port)
    if not covers(due, ships):
        raise IllegalAction(f"{fleet.nation} has {due.describe()} due in {port}, not {ships.describe()}; ships appear only in the port chosen when bought (12.5.3, 000:2234)")
    _home_port(state, ctx, power, fleet.nation, port, conquered_ok=True)
    check_holds(ctx, fleet, ships)


def _apply_add_ships(state: GameState, power: str, a: AddShips, ctx: RulesContext) -> engine.Outcome:
    fleet = the_fleet(state, a.fleet)
    ships = ships_from(a)
    state = take_ships(state, fleet.nation, fleet.location.site, ships)
    state = state.with_unit(fleet.replace(ships=(fleet.ships + ships)))
    return engine.log(state, power, "reinforcement.add-ships", f"{power} adds {ships.describe()} to {fleet.id} in {fleet.location.site}",
                      fleet=fleet.id)


# ----------------------------------------------------------------- 7.1.3


def _check_ship_transfer(state: GameState, power: str, source_id: str, target: Fleet, ships: Ships) -> None:
    source = the_fleet(state, source_id)
    if source.id == target.id:
        raise IllegalAction("a fleet cannot transfer ships to itself")
    own_unit(state, power, source, "transfer ships from")
    own_unit(state, power, target, "transfer ships to")
    if source.nation != target.nation:
        raise IllegalAction(f"{source.id} and {target.id} are of different nations; they may not transfer ships (7.1.3, 000:918)")
    if source.location != target.location or source.location.kind is LocationKind.POOL:
        raise IllegalAction(
            f"{source.id} is at {source.location} and {target.id} at {target.location}; ships move only between fleets in the "
            f"same sea area, blockade box or port (7.1.3, 000:918)"
        )
    if ships.total == 0:
        raise IllegalAction("name at least one ship to transfer")
    if not covers(source.ships, ships):
        raise IllegalAction(f"{source.id} has {source.ships.describe()}, not {ships.describe()}")
    if (source.ships - ships).total == 0:
        if any(lead.attached_to == source.id for lead in state.leaders.values()):
            raise IllegalAction(f"{source.id} would be emptied while a leader is with it; assign or retire the leader first (7.4)")
        if any(u.location.kind is LocationKind.ABOARD and u.location.site == source.id for u in state.units.values()):
            raise IllegalAction(f"{source.id} carries units; it may not be emptied")


def _move_ships(state: GameState, source_id: str, target_id: str, ships: Ships) -> tuple[GameState, str | None]:
    source = state.units[source_id]
    target = state.units[target_id]
    assert isinstance(source, Fleet) and isinstance(target, Fleet)
    left = (source.ships - ships)
    removed = None
    if left.total == 0:
        # 7.1.3 (000:918): the empty counter leaves the map, at no political cost; it must be bought again.
        removed = source.id
        state = state.with_unit(source.replace(location=POOL, ships=Ships(), placeable_until=None))
    else:
        state = state.with_unit(source.replace(ships=left))
    return state.with_unit(target.replace(ships=(target.ships + ships))), removed


def _removed(state: GameState, power: str, removed: str | None) -> engine.Outcome:
    if removed is None:
        return engine.Outcome(state)
    return engine.log(state, power, "reinforcement.removed", f"{removed} is empty and returns to the counter pool (7.1.3)", unit=removed)


@dataclass(frozen=True, slots=True)
class TransferShips(Record):
    """Move ships between two fleets of one nation in the same sea area, blockade box or port (7.1.3)."""

    KIND = "reinforcement.transfer-ships"
    COMMAND = "transfer-ships"
    BUTTON = "Transfer Forces"

    source: str
    target: str
    heavy: NonNeg = 0
    light: NonNeg = 0
    transport: NonNeg = 0


def _verify_transfer_ships(state: GameState, power: str, a: TransferShips, ctx: RulesContext) -> None:
    target = the_fleet(state, a.target)
    ships = ships_from(a)
    _check_ship_transfer(state, power, a.source, target, ships)
    check_holds(ctx, target, ships)


def _apply_transfer_ships(state: GameState, power: str, a: TransferShips, ctx: RulesContext) -> engine.Outcome:
    ships = ships_from(a)
    state, removed = _move_ships(state, a.source, a.target, ships)
    out = engine.log(state, power, "reinforcement.transfer-ships", f"{power} moves {ships.describe()} from {a.source} to {a.target}",
                     source=a.source, target=a.target)
    return out.then(_removed(out.state, power, removed))


# ----------------------------------------------------------------- candidates (engine.legal_actions)


def _own_fleets(state: GameState, power: str) -> list[Fleet]:
    return [u for _, u in sorted(state.units.items()) if isinstance(u, Fleet) and u.location.kind is not LocationKind.POOL
            and u.nation in (power,) + state.free_states(power)]


def _place_fleet_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[PlaceFleet]:
    m = ctx.map
    fleets = _own_fleets(state, power)
    for fleet in [u for _, u in sorted(state.units.items()) if isinstance(u, Fleet) and purchased(state, u)
                  and u.nation in (power,) + state.free_states(power)]:
        fit = candidates.room(fleet_capacity(ctx, fleet), fleet.ships)
        for port in sorted(a for a in m.areas if m.areas[a].port is not None and supply.is_home_area(state, m, a, fleet.nation)):
            for chosen in candidates.counts(due_ships(state, fleet.nation, port).to_obj(), candidates.SHIP_FIELDS, fit):
                yield PlaceFleet(fleet.id, port, "reinforcements", **chosen)
            here = Location(LocationKind.PORT, port)
            for source in (f for f in fleets if f.location == here and f.nation == fleet.nation):
                for chosen in candidates.counts(source.ships.to_obj(), candidates.SHIP_FIELDS, fit):
                    yield PlaceFleet(fleet.id, port, source.id, **chosen)


def _add_ships_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[AddShips]:
    for fleet in _own_fleets(state, power):
        if fleet.location.kind is LocationKind.PORT:
            due = due_ships(state, fleet.nation, fleet.location.site).to_obj()
            for chosen in candidates.counts(due, candidates.SHIP_FIELDS, candidates.room(fleet_capacity(ctx, fleet), fleet.ships)):
                yield AddShips(fleet.id, **chosen)


def _transfer_ships_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[TransferShips]:
    fleets = _own_fleets(state, power)
    for source in fleets:
        for target in fleets:
            if target.id != source.id and target.location == source.location and target.nation == source.nation:
                fit = candidates.room(fleet_capacity(ctx, target), target.ships)
                for chosen in candidates.counts(source.ships.to_obj(), candidates.SHIP_FIELDS, fit):
                    yield TransferShips(source.id, target.id, **chosen)


ACTIONS = (
    (PlaceFleet, _verify_place_fleet, _apply_place_fleet, _place_fleet_candidates),
    (AddShips, _verify_add_ships, _apply_add_ships, _add_ships_candidates),
    (TransferShips, _verify_transfer_ships, _apply_transfer_ships, _transfer_ships_candidates),
)

__all__ = ["AddShips", "PlaceFleet", "TransferShips"]
