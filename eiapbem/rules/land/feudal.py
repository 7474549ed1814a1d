"""Turkish feudal corps standing down and coming back in Turkey's land phase (13.2.3; 000:2444-2458).

- ``land.stand-down --unit C``: a feudal corps on the map, not besieged, leaves it
  keeping its factors ("Remove Special Unit");
- ``land.return-feudal --unit C --area X``: a feudal corps that stood down comes back
  in a city area of its home province (``counters.json`` names it), when the province
  is under Turkish control and holds no unbesieged enemy corps; it may not move that
  month and needs no supply (``LandMove.placed_back``).

Raising feudal factors in December is the economic phase's levy (``economy.levy``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from eiapbem.core.errors import IllegalAction
from eiapbem.rules import control, engine, relations, supply
from eiapbem.rules.control import province_holder
from eiapbem.rules.land.common import is_enemy
from eiapbem.rules.model import POOL, Corps, CorpsType, GameState, LandMove, Location, LocationKind, Record
from eiapbem.rules.model.common import Slug
from eiapbem.rules.model.units import UnitId
from eiapbem.rules.forces import feudal_province, own_on_map, the_corps, the_unit
from eiapbem.rules.engine import RulesContext


@dataclass(frozen=True, slots=True)
class StandDown(Record):
    """Take a Turkish feudal corps off the map, keeping its factors (13.2.3)."""

    KIND = "land.stand-down"
    COMMAND = "stand-down"
    BUTTON = "Remove Special Unit"

    unit: UnitId


@dataclass(frozen=True, slots=True)
class ReturnFeudal(Record):
    """Put a feudal corps that stood down back in a city area of its home province (13.2.3)."""

    KIND = "land.return-feudal"
    COMMAND = "return-feudal"
    BUTTON = ""  # the manual names no button

    unit: UnitId
    area: Slug


def _feudal(state: GameState, power: str, unit_id: str) -> Corps:
    u = the_unit(state, unit_id)
    if not isinstance(u, Corps) or u.corps_type is not CorpsType.FEUDAL:
        raise IllegalAction(f"{unit_id} is not a feudal corps (13.2.3)")
    if relations.power_of(state, u.nation) != power:
        raise IllegalAction(f"{unit_id} is not {power}'s")
    return u


def verify_stand_down(state: GameState, power: str, a: StandDown, ctx: RulesContext) -> None:
    u = _feudal(state, power, a.unit)
    own_on_map(state, power, u, "stand down")
    if u.location.kind is LocationKind.CITY and control.is_besieged(state, ctx.map, u.location.site):
        raise IllegalAction(f"{a.unit} is besieged and may not stand down (13.2.3, 000:2450)")
    if any(ld.attached_to == u.id for ld in state.leaders.values()):
        raise IllegalAction(f"a leader is with {a.unit}; assign him to another corps first")


def apply_stand_down(state: GameState, power: str, a: StandDown, ctx: RulesContext) -> engine.Outcome:
    u = the_corps(state, a.unit)
    state = state.with_unit(u.replace(location=POOL, besieging=False))
    return engine.log(state, power, "land.stand-down", f"{power}: {a.unit} stands down from {u.location.site} with "
                      f"{u.factors.total} factors (13.2.3)", unit=a.unit)


def verify_return(state: GameState, power: str, a: ReturnFeudal, ctx: RulesContext) -> None:
    m = ctx.map
    u = _feudal(state, power, a.unit)
    if u.location != POOL:
        raise IllegalAction(f"{a.unit} is on the map; only a feudal corps that stood down comes back")
    if u.factors.total == 0:
        raise IllegalAction(f"{a.unit} has no factors; feudal factors are raised in the December levy (13.2.3, 000:2446)")
    origin = feudal_province(ctx, u.id)
    if origin is None or not m.is_area(a.area) or m.area(a.area).province != origin or m.area(a.area).city is None:
        raise IllegalAction(f"{a.unit} comes back only in a city area of its home province {origin} (13.2.3, 000:2454)")
    if province_holder(state, ctx, origin) != power:
        raise IllegalAction(f"{origin} is controlled by another power; {a.unit} cannot come back there (13.2.3, 000:2454)")
    for area in m.areas_of_province(origin):
        for c in control.corps_at(state, area):
            if is_enemy(state, power, c) and supply.unit_unbesieged(state, m, c):
                raise IllegalAction(f"the enemy {c.id} is in {origin}; {a.unit} cannot come back there (13.2.3, 000:2454)")


def apply_return(state: GameState, power: str, a: ReturnFeudal, ctx: RulesContext) -> engine.Outcome:
    u = state.units[a.unit]
    state = state.with_unit(u.replace(location=Location(LocationKind.AREA, a.area)))
    rec = LandMove(start=a.area, halted=True, placed_back=True)  # 000:2456: no move, no supply this month
    state = state.with_scratch(land_moves=state.land_moves.set(u.id, rec))
    return engine.log(state, power, "land.return-feudal", f"{power}: {a.unit} comes back in {a.area} (13.2.3)",
                      unit=a.unit, area=a.area)


# ----------------------------------------------------------------- candidates (engine.legal_actions)


def _feudal_corps(state: GameState, power: str) -> list[Corps]:
    return [u for _, u in sorted(state.units.items()) if isinstance(u, Corps) and u.corps_type is CorpsType.FEUDAL
            and relations.power_of(state, u.nation) == power]


def _stand_down_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[StandDown]:
    yield from (StandDown(u.id) for u in _feudal_corps(state, power) if u.location != POOL)


def _return_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[ReturnFeudal]:
    m = ctx.map
    for u in _feudal_corps(state, power):
        origin = feudal_province(ctx, u.id)
        if u.location == POOL and origin is not None:
            yield from (ReturnFeudal(u.id, a) for a in m.areas_of_province(origin) if m.area(a).city is not None)


ACTIONS = ((StandDown, verify_stand_down, apply_stand_down, _stand_down_candidates),
           (ReturnFeudal, verify_return, apply_return, _return_candidates))
