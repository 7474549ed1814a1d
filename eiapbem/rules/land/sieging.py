"""Besieging cities and declaring siege combat in the land phase (10.4.7, 11.1.1, 11.4; 000:1470-1472,
000:1614, 000:1946-2016).

- ``land.besiege --unit C``: a corps (not a Cossack, Freikorps or guerrilla) of the
  phasing power in the rural part of an area whose city enemy forces hold stops and
  besieges it ("Besieging Rural", 10.4.1).  No enemy corps or depot garrison may
  stand outside the city (they are fought first, 11.1).  During movement it ends the
  unit's movement; after a won field combat it is allowed only to a corps that did
  not use unused movement points to lower its forage number (11.4, 000:1948).
  A besieging corps that moves away lifts its part of the siege.
- ``land.assault --area X``: one assault attempt of the power's besiegers on the city
  of X per land slot (11.4.1), once every field and trivial combat of the slot is
  fought (11.1.1, 000:1614); ``combat.sieges.start_siege_assault`` runs it.
- ``land.garrison-attack --area X``: the holder's besieged forces attack the
  besiegers (11.4.2), once per city per slot; ``combat.sieges.start_garrison_attack``.

Either ends the power's movement and settles its supply first (11.0).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from eiapbem.core.errors import IllegalAction
from eiapbem.rules import candidates, control, engine, relations
from eiapbem.rules.combat.sieges import start_garrison_attack, start_siege_assault
from eiapbem.rules.land.combat import areas_to_attack, battles_of
from eiapbem.rules.land.common import counters_in_section, is_enemy, must_stop_in
from eiapbem.rules.land.movement import allowance
from eiapbem.rules.land.supplyphase import end_movement
from eiapbem.rules.model import Corps, GameState, Garrison, LandMove, LocationKind, Record
from eiapbem.rules.model.common import Slug
from eiapbem.rules.model.units import UnitId
from eiapbem.rules.forces import IRREGULAR, STACK_LIMIT, own_on_map, the_unit
from eiapbem.rules.engine import RulesContext


@dataclass(frozen=True, slots=True)
class Besiege(Record):
    """Stop and besiege the enemy-held city of the corps' area (10.4.7, 11.4)."""

    KIND = "land.besiege"
    COMMAND = "besiege"
    BUTTON = ""  # the manual names no button; "Besieging Rural" is the section of the area (10.4.1)

    unit: UnitId


@dataclass(frozen=True, slots=True)
class Assault(Record):
    """Launch an assault attempt on a city your corps besiege (11.4.1)."""

    KIND = "land.assault"
    COMMAND = "assault"
    BUTTON = ""  # the manual names no button

    area: Slug


@dataclass(frozen=True, slots=True)
class GarrisonAttack(Record):
    """Attack the corps besieging one of your cities with its garrison (11.4.2)."""

    KIND = "land.garrison-attack"
    COMMAND = "garrison-attack"
    BUTTON = ""  # the manual names no button

    area: Slug


def enemy_inside(state: GameState, area: str, power: str) -> list[str]:
    """Enemy corps and garrisons with factors inside the city of ``area``, by id."""
    return sorted(u.id for u in state.units.values()
                  if isinstance(u, (Corps, Garrison)) and u.location.kind is LocationKind.CITY and u.location.site == area
                  and u.factors.total > 0 and is_enemy(state, power, u))


def verify_besiege(state: GameState, power: str, a: Besiege, ctx: RulesContext) -> None:
    unit = the_unit(state, a.unit)
    if not isinstance(unit, Corps) or unit.corps_type in IRREGULAR:
        raise IllegalAction(f"{a.unit} is not a corps; only corps besiege cities (11.4, 000:1946)")
    own_on_map(state, power, unit, "besiege with")
    if unit.location.kind is not LocationKind.AREA:
        raise IllegalAction(f"{a.unit} is inside the city of {unit.location.site}; move it out to the area first")
    if unit.besieging:
        raise IllegalAction(f"{a.unit} already besieges the city of {unit.location.site}")
    area = unit.location.site
    if ctx.map.area(area).city is None or not enemy_inside(state, area, power):
        raise IllegalAction(f"no enemy forces hold a city in {area}; there is nothing for {a.unit} to besiege (11.4, 000:1946)",
                            hint=f"an ungarrisoned enemy city is taken by moving into it (13.5.2): 'eiapbem land move "
                                 f"--unit {a.unit} --path {area} --city'" if ctx.map.area(area).city is not None else None)
    why = must_stop_in(state, area, power)
    if why:
        raise IllegalAction(f"{why}: fight the forces outside the city before besieging it (11.1, 000:1610)")
    rec = state.land_moves.get(unit.id) or LandMove(start=area)
    if state.movement_over and rec.foraged and allowance(state, ctx, unit, forced_march=rec.forced_march) > rec.spent:
        raise IllegalAction(f"{a.unit} lowered its forage number with unused movement points, so it may not besiege after "
                            f"combat (11.4, 000:1948)")
    n = counters_in_section(state, area, besieging=True)
    if n + 1 > STACK_LIMIT:
        raise IllegalAction(f"{area} already holds {n} besieging counters; 30 is the limit (10.4.2, 000:1404)")


def apply_besiege(state: GameState, power: str, a: Besiege, ctx: RulesContext) -> engine.Outcome:
    unit = state.units[a.unit]
    area = unit.location.site
    rec = state.land_moves.get(unit.id) or LandMove(start=area)
    state = state.with_unit(unit.replace(besieging=True))
    state = state.with_scratch(land_moves=state.land_moves.set(unit.id, rec.replace(halted=True)))
    first = not any(c.besieging for c in control.corps_at(state, area) if c.id != a.unit)
    out = engine.log(state, power, "land.besiege", f"{power}: {a.unit} besieges the city of {area} "
                     f"({', '.join(enemy_inside(state, area, power))} inside)", unit=a.unit, area=area)
    if first:  # 13.5.5: neutral forces leave as soon as the siege is announced
        from eiapbem.rules.land.occupation import vacate_neutrals

        out = out.then(vacate_neutrals(out.state, ctx, power, area))
    return out


def _sieges_of(state: GameState, power: str, area: str, kind: str) -> list[Any]:
    prefix = f"{state.date}.{area}."
    return [s for k, s in state.sieges.items() if k.startswith(prefix) and s.kind == kind
            and (s.besieger == power if kind == "assault" else True)]


def _combats_done(state: GameState, power: str) -> None:
    running = [b for b in battles_of(state, power) if not b.finished]
    if running:
        raise IllegalAction(f"the combat in {running[0].area} is not over; finish it with 'eiapbem answer' first")
    left = areas_to_attack(state, power)
    if left:
        raise IllegalAction(f"fight the field combat in {left[0]} first: siege combats come after every field and trivial "
                            f"combat (11.1.1, 000:1614)")
    if any(s.step != "done" for s in state.sieges.values()):
        raise IllegalAction("a siege combat is still waiting for an answer; finish it with 'eiapbem answer' first")


def verify_assault(state: GameState, power: str, a: Assault, ctx: RulesContext) -> None:
    if not ctx.map.is_area(a.area) or ctx.map.area(a.area).city is None:
        raise IllegalAction(f"there is no city in {a.area!r} to assault")
    besiegers = [c for c in control.corps_at(state, a.area) if c.besieging and relations.unit_power(state, c) == power]
    if not besiegers:
        raise IllegalAction(f"{power} has no corps besieging the city of {a.area}; besiege it first with 'eiapbem land besiege'")
    if _sieges_of(state, power, a.area, "assault"):
        raise IllegalAction(f"{power} has already made its assault attempt on {a.area} this phase (11.4.1)")
    if not _enemy_inside(state, power, a.area):
        raise IllegalAction(f"no enemy of {power} holds the city of {a.area}: there is nothing to assault (11.4.1)")
    _combats_done(state, power)


def _enemy_inside(state: GameState, power: str, area: str) -> bool:
    """Forces of an enemy of ``power`` stand inside the city of ``area`` (what an assault fights, 11.4.1)."""
    return any(isinstance(u, (Corps, Garrison)) and u.location.kind is LocationKind.CITY and u.location.site == area
               and u.factors.total > 0 and is_enemy(state, power, u) for u in control.units_at(state, area))


def lift_ended_sieges(state: GameState, ctx: RulesContext) -> engine.Outcome:
    """A siege ends when no enemy holds the city any more (taken, starved, or its holder at peace with the
    besiegers): the corps still marked as besieging it stand in the rural area again (10.4.1 "Besieging Rural",
    11.4), so they forage as corps that are not besieging (10.5.1) and are no longer offered an assault."""
    out = engine.Outcome(state)
    for uid, u in sorted(state.units.items()):
        if not isinstance(u, Corps) or not u.besieging or u.location.kind is not LocationKind.AREA:
            continue
        side, area = relations.unit_side(out.state, u), u.location.site
        if relations.at_war(out.state, side, control.city_holder(out.state, ctx, area)) \
                or _enemy_inside(out.state, side, area):
            continue
        st = out.state.with_unit(u.replace(besieging=False))
        out = out.then(engine.log(st, side, "land.siege-ends", f"{uid} no longer besieges the city of {area}: no enemy of "
                                  f"{side} holds it (11.4)", unit=uid, area=area))
    return out


def _close_movement(state: GameState, power: str, ctx: RulesContext) -> engine.Outcome:
    if state.movement_over:
        return engine.Outcome(state)
    return end_movement(state, power, ctx)


def apply_assault(state: GameState, power: str, a: Assault, ctx: RulesContext) -> engine.Outcome:
    out = _close_movement(state, power, ctx)
    try:
        return out.then(start_siege_assault(out.state, a.area, power, ctx))
    except IllegalAction as err:  # supply losses emptied a side
        return out.then(engine.log(out.state, power, "land.assault", f"{power}: no assault on {a.area}: {err}"))


def verify_garrison_attack(state: GameState, power: str, a: GarrisonAttack, ctx: RulesContext) -> None:
    if not ctx.map.is_area(a.area) or ctx.map.area(a.area).city is None:
        raise IllegalAction(f"there is no city in {a.area!r}")
    if control.city_power(state, ctx.map, a.area) != power:
        raise IllegalAction(f"the city of {a.area} is not {power}'s; only its holder attacks the besiegers (11.4.2)")
    if not control.is_besieged(state, ctx.map, a.area):
        raise IllegalAction(f"no enemy corps besieges the city of {a.area}")
    if _sieges_of(state, power, a.area, "garrison-attack"):
        raise IllegalAction(f"the garrison of {a.area} has already attacked this phase (11.4.2)")
    _combats_done(state, power)


def apply_garrison_attack(state: GameState, power: str, a: GarrisonAttack, ctx: RulesContext) -> engine.Outcome:
    out = _close_movement(state, power, ctx)
    try:
        return out.then(start_garrison_attack(out.state, a.area, ctx))
    except IllegalAction as err:
        return out.then(engine.log(out.state, power, "land.garrison-attack", f"{power}: no garrison attack at {a.area}: {err}"))


# ----------------------------------------------------------------- candidates (engine.legal_actions)


def _besiege_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[Besiege]:
    yield from (Besiege(c.id) for c in candidates.own_corps(state, power)
                if c.location.kind is LocationKind.AREA and not c.besieging)


def _assault_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[Assault]:
    yield from (Assault(a) for a in sorted({c.location.site for c in candidates.own_corps(state, power) if c.besieging}))


def _garrison_attack_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[GarrisonAttack]:
    yield from (GarrisonAttack(a) for a in sorted({u.location.site for u in state.units.values()
                                                   if isinstance(u, (Corps, Garrison)) and u.location.kind is LocationKind.CITY
                                                   and relations.unit_power(state, u) == power}))


ACTIONS = (
    (Besiege, verify_besiege, apply_besiege, _besiege_candidates),
    (Assault, verify_assault, apply_assault, _assault_candidates),
    (GarrisonAttack, verify_garrison_attack, apply_garrison_attack, _garrison_attack_candidates),
)
