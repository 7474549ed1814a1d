"""Creating and removing depots in the land phase (10.3; 000:1302-1348).

``land.create-depot --area X`` takes a depot counter of the power from the pool
(the counter mix is the limit, 000:1304) and pays $1; ``land.remove-depot
--depot D`` puts one back in the pool for nothing.  Both may be done at any time
of the power's land slot, as often as the money and the counters allow.

A depot may go where (000:1306-1346):

- the area holds no depot yet and no unbesieged enemy corps, Cossack, Freikorps
  or guerrilla, unless an unbesieged corps of the power is there too;
- 10.3.1: the area's city is held by the power, unbesieged, in its territory; or
- 10.3.2: the area's port is held by the power, not blockaded, and sea supply can
  be traced to it from a port of the power's valid supply chain with a fleet of
  the power in it (``supply.sea_source_for``); or
- 10.3.3: within two unblocked areas of a depot of the power's valid supply
  chain that stood before this slot, subject to the chain restrictions: not in a
  neutral minor unless at war with it, another power's territory only with
  access, war or enforced access; outside the power's territory only where an
  unbesieged corps of the power (not a Cossack, Freikorps or guerrilla) stands
  that has not moved or foraged this slot; in an area of the power's territory
  whose city an enemy holds only with a corps of the power there.

A depot inside a besieged port city (10.3.2's exception, 10.5.3) is ``land.seasupply``; depots on fleets
(10.3.4) are ``land.fleet-depot`` (``rules.naval.transport``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from eiapbem.core.errors import IllegalAction
from eiapbem.rules import control, engine, relations, supply
import eiapbem.rules.land.seasupply as seasupply
from eiapbem.rules.land.common import is_enemy, may_enter_territory
from eiapbem.rules.model import (
    POOL,
    POWERS,
    Corps,
    Depot,
    GameState,
    Garrison,
    Location,
    LocationKind,
    MinorStatus,
    Record,
    garrison_id,
)
from eiapbem.rules.model.common import Slug
from eiapbem.rules.model.units import UnitId
from eiapbem.rules.forces import IRREGULAR, the_area, the_unit
from eiapbem.rules.engine import RulesContext

#: 10.3 (000:1304): a depot costs $1 each time it is placed.
DEPOT_COST = 1


@dataclass(frozen=True, slots=True)
class CreateDepot(Record):
    """Place a depot counter from the pool in an area, for $1 (10.3)."""

    KIND = "land.create-depot"
    COMMAND = "create-depot"
    BUTTON = "Create/Remove Depot"

    area: Slug


@dataclass(frozen=True, slots=True)
class RemoveDepot(Record):
    """Take one of your depots off the map, back to the pool (10.3)."""

    KIND = "land.remove-depot"
    COMMAND = "remove-depot"
    BUTTON = "Create/Remove Depot"

    depot: UnitId


def _num(depot_id: str) -> tuple[int, str]:
    tail = depot_id.rsplit(":", 1)[1]
    return (int(tail), "") if tail.isdigit() else (1 << 30, tail)


def free_counter(state: GameState, power: str) -> str | None:
    """The power's first depot counter in the pool (by number), or None."""
    ids = sorted((u.id for u in state.units.values() if isinstance(u, Depot) and u.power == power and u.location == POOL), key=_num)
    return ids[0] if ids else None


def depots_in(state: GameState, area: str) -> list[Depot]:
    return [u for u in state.units.values() if isinstance(u, Depot) and u.location.kind in (LocationKind.AREA, LocationKind.CITY)
            and u.location.site == area]


def own_territory(state: GameState, m: Any, area: str, power: str) -> bool:
    """``area`` is in ``power``'s territory: its home nation less provinces ceded away, provinces
    ceded to it, and minors it controls (the lands of its supply sources, 10.3.3 000:1328)."""
    a = m.area(area)
    if a.nation in POWERS:
        return control.territory_power(state, m, area) == power
    return relations.power_of(state, a.nation) == power


def _unbesieged_corps(state: GameState, m: Any, area: str, power: str, *, regular: bool = False) -> list[Corps]:
    return [c for c in control.corps_at(state, area) if relations.unit_power(state, c) == power
            and supply.unit_unbesieged(state, m, c) and (not regular or c.corps_type not in IRREGULAR)]


def _hostile_present(state: GameState, m: Any, area: str, power: str) -> str | None:
    for c in control.corps_at(state, area):
        if is_enemy(state, power, c) and supply.unit_unbesieged(state, m, c):
            return c.id
    return None


def _by_city(state: GameState, m: Any, area: str, power: str) -> bool:
    """10.3.1 (000:1312): a city held by the power, unbesieged, in its territory."""
    return (m.area(area).city is not None and control.city_held_by(state, m, area) == power
            and not control.is_besieged(state, m, area) and own_territory(state, m, area, power))


def _by_port(state: GameState, m: Any, area: str, power: str) -> bool:
    """10.3.2 (000:1316): an unblockaded port held by the power with sea supply traceable to it."""
    if control.city_held_by(state, m, area) != power or not supply.sea_link_port(state, m, area, power):
        return False
    return supply.sea_source_for(state, m, power, area) is not None


def _chain_depot_near(state: GameState, m: Any, area: str, power: str) -> str | None:
    """10.3.3 (000:1324): a depot of the valid chain, standing before this slot, within two unblocked areas."""
    chain = supply.supply_chain(state, m, power)
    old = [a for a in chain if not any(d.power == power and d.id in state.new_depots for d in depots_in(state, a))]
    near = supply.within_two(state, m, area, power)
    for a in old:
        if a in near:
            return a
    return None


def check_place(state: GameState, ctx: RulesContext, power: str, area: str) -> str:
    """Raise unless ``power`` may place a depot in ``area`` now; return the rule that allows it."""
    m = ctx.map
    the_area(m, area)
    there = depots_in(state, area)
    if there:
        raise IllegalAction(f"{area} already has the depot {there[0].id}; one depot per area (10.3, 000:1306)")
    if seasupply.besieged_port_depot(state, m, area, power):
        return "10.3.2, inside the besieged port city (10.5.3)"
    enemy = _hostile_present(state, m, area, power)
    if enemy and not _unbesieged_corps(state, m, area, power):
        raise IllegalAction(f"the enemy {enemy} is in {area} and no unbesieged corps of {power} is; a depot cannot be placed "
                            f"there (10.3, 000:1306)")
    if _by_city(state, m, area, power):
        return "10.3.1"
    if _by_port(state, m, area, power):
        return "10.3.2"
    near = _chain_depot_near(state, m, area, power)
    if near is None:
        raise IllegalAction(
            f"{area} has no unbesieged city of {power} in its territory (10.3.1), no port reached by {power}'s sea supply "
            f"(10.3.2), and no depot of {power}'s valid supply chain placed before this phase lies within two unblocked areas "
            f"(10.3.3, 000:1324); extend the chain from an existing depot"
        )
    a = m.area(area)
    if a.is_minor and control.minor_holder(state, a.nation) != power and not relations.at_war(state, power, a.nation):
        # 6.1.1-6.1.3 (000:538-546): a neutral, influenced or allied minor takes no major power's depot
        row = relations.minor_record(state, a.nation)
        if row is None or row.status is MinorStatus.NEUTRAL or row.controller is None:
            raise IllegalAction(f"{area} is in the neutral minor {a.nation}; a depot goes there only at war with it (10.3.3, 000:1342)")
        raise IllegalAction(f"{area} is in {a.nation}, a minor {row.status} ({row.controller}) that {power} neither "
                            f"controls nor is at war with: it is treated as neutral (6.1.1-6.1.3, 000:538-546), so a depot "
                            f"goes there only at war with it or once it is conquered or a free state (10.3.3, 000:1342)")
    if not a.is_minor:
        why = may_enter_territory(state, m, area, power)
        if why:
            raise IllegalAction(f"a depot in {area} needs access to or war with {control.territory_power(state, m, area)} "
                                f"(10.3.3, 000:1342)")
    if not own_territory(state, m, area, power):
        fresh = [c for c in _unbesieged_corps(state, m, area, power, regular=True)
                 if c.id not in state.land_moves or state.land_moves[c.id].supply_choice_only]
        if not fresh:
            raise IllegalAction(f"{area} is outside {power}'s territory: a depot there needs an unbesieged corps of {power} "
                                f"(not a Cossack, Freikorps or guerrilla) that has not moved or foraged this phase "
                                f"(10.3.3, 000:1344)")
    elif m.area(area).city is not None and is_enemy_city(state, m, area, power) \
            and not _unbesieged_corps(state, m, area, power, regular=True):
        raise IllegalAction(f"an enemy holds the city of {area}; a depot goes there only with a corps of {power} in the area "
                            f"(10.3.3, 000:1346)")
    return "10.3.3"


def is_enemy_city(state: GameState, m: Any, area: str, power: str) -> bool:
    return relations.at_war(state, power, control.city_holder(state, m, area))


def verify_create(state: GameState, power: str, action: CreateDepot, ctx: RulesContext) -> None:
    check_place(state, ctx, power, action.area)
    if free_counter(state, power) is None:
        raise IllegalAction(f"every depot counter of {power} is on the map (the counter mix, 10.3 000:1304); remove one first")
    if state.powers[power].treasury < DEPOT_COST:
        raise IllegalAction(f"{power} has ${state.powers[power].treasury}; a depot costs ${DEPOT_COST} (10.3, 000:1304)")


def apply_create(state: GameState, power: str, action: CreateDepot, ctx: RulesContext) -> engine.Outcome:
    why = check_place(state, ctx, power, action.area)
    did = free_counter(state, power)
    assert did is not None
    kind = LocationKind.CITY if seasupply.besieged_port_depot(state, ctx.map, action.area, power) else LocationKind.AREA
    state = state.with_unit(state.units[did].replace(location=Location(kind, action.area)))
    state = state.with_power(power, treasury=state.powers[power].treasury - DEPOT_COST)
    state = state.with_scratch(new_depots=tuple(sorted(set(state.new_depots) | {did})))
    return engine.log(state, power, "land.create-depot", f"{power} places {did} in {action.area} for ${DEPOT_COST} ({why})",
                      depot=did, area=action.area, rule=why)


def verify_remove(state: GameState, power: str, action: RemoveDepot, ctx: RulesContext) -> None:
    d = the_unit(state, action.depot)
    if not isinstance(d, Depot) or d.power != power:
        raise IllegalAction(f"{action.depot} is not one of {power}'s depots", hint="depot ids look like depot:FR:1")
    if d.location == POOL:
        raise IllegalAction(f"{action.depot} is in the pool, not on the map")
    if d.location.kind is not LocationKind.AREA:
        raise IllegalAction(f"{action.depot} is at {d.location}; only depots in an area are removed here")
    g = state.units.get(garrison_id(power, d.location))
    if isinstance(g, Garrison) and g.factors.total > 0:
        raise IllegalAction(f"{action.depot} has a garrison of {g.factors.total} factors; take them into a corps first (10.4.3)")


def apply_remove(state: GameState, power: str, action: RemoveDepot, ctx: RulesContext) -> engine.Outcome:
    d = state.units[action.depot]
    g = state.units.get(garrison_id(power, d.location))
    if isinstance(g, Garrison):
        state = state.without_unit(g.id)
    state = state.with_unit(d.replace(location=POOL))
    return engine.log(state, power, "land.remove-depot", f"{power} removes {d.id} from {d.location.site}", depot=d.id,
                      area=d.location.site)


# ----------------------------------------------------------------- candidates (engine.legal_actions)


def _create_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[CreateDepot]:
    if free_counter(state, power) is not None and state.powers[power].treasury >= DEPOT_COST:
        yield from (CreateDepot(a) for a in sorted(ctx.map.areas))


def _remove_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[RemoveDepot]:
    yield from (RemoveDepot(uid) for uid, u in sorted(state.units.items())
                if isinstance(u, Depot) and u.power == power and u.location.kind is LocationKind.AREA)


ACTIONS = ((CreateDepot, verify_create, apply_create, _create_candidates),
           (RemoveDepot, verify_remove, apply_remove, _remove_candidates))
