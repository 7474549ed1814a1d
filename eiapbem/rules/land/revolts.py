"""Austria's insurrection corps (13.2.4, 000:2470-2498) and Tyrolean revolt corps (13.2.5, 000:2500-2514).

Insurrection (the December raising is the economic levy's, ``economy.levy``):

- rising at once (000:2476-2480): when an enemy corps, Cossack or Freikorps
  enters an area of an unceded Austrian home province during its move, the
  program places every insurrection corps off the map with factors in that
  area at their current strength, and an enemy corps (not a Cossack or
  Freikorps) ceases its movement there (``rises_at``, ``rise``; the land
  move); Austria's standing order ``land.insurrection-orders --hold`` keeps
  them off the map instead ("need not be placed at the first opportunity");
- activation: an enemy corps, Cossack or Freikorps standing in an area of an
  unceded Austrian home province makes the insurrection corps placeable;
- ``irregulars.place-insurrection --unit C --area X``: in Austria's
  reinforcement phase, while activated, an insurrection corps off the map comes
  on at its current strength in an area of an unceded Austrian home province;
- ``land.stand-down-insurrection --unit C``: in Austria's land phase an
  unbesieged insurrection corps leaves the map keeping its factors; it comes back
  only when activated again.

- trigger provinces (000:2484): ``eiapbem diplomacy set-insurrection-triggers
  --provinces a,b,c`` (action ``irregulars.set-insurrection-triggers``, one of
  Austria's sealed diplomacy orders, carried out when the phase is resolved)
  sets up to three unceded Austrian home provinces, while
  no insurrection corps is on the map or ready to be placed; an enemy corps,
  Cossack or Freikorps (of a power at war with Austria) entering an area of one
  during its move stops there (the rest of its path is dropped), the
  insurrection is activated (``GameState.insurrection_activated``) and the
  triggers (Austria's ``standing_orders.insurrection_triggers``) are spent.  Secret from the display
  only: no log line, ``show`` or status names them except to Austria; every
  client holds the state, so a patched client can read them (docs/SECURITY.md).

Tyrol (13.2.5): when a power holding the ceded Tyrol province is at war with
Austria, Austria's land phase of the month that war began may place the Tyrol
corps (``land.place-tyrol --area X``) with 8 infantry in a Tyrol area free of
enemy corps; placing it only in that month also keeps a removed corps off the
map for the rest of that war.  ``remove_tyrol_at_peace`` (in the neutral
``rules/irregulars.py``, called by the diplomacy phase's peace step; re-exported
here) takes it off the map when Austria and the holder make peace.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from eiapbem.core.errors import IllegalAction
from eiapbem.rules import control, engine, relations
from eiapbem.rules.forces import the_unit
from eiapbem.rules.irregulars import AUSTRIA, TYROL_CORPS, TYROL_PROVINCE, remove_tyrol_at_peace, tyrol_holder
from eiapbem.rules.land.common import is_enemy
from eiapbem.rules.model import (
    POOL,
    Corps,
    CorpsType,
    Factors,
    GameState,
    Location,
    LocationKind,
    Phase,
    Record,
)
from eiapbem.rules.model.common import Slug
from eiapbem.rules.model.units import UnitId
from eiapbem.rules.engine import RulesContext

#: 13.2.5 (000:2508): the Tyrol corps comes on with eight regular infantry factors.
TYROL_INFANTRY = 8


def _austrian_area(state: GameState, m: Any, area: str) -> bool:
    a = m.area(area)
    return a.nation == AUSTRIA and not a.is_minor and control.ceded_to(state, a.province) is None


#: 13.2.4 (000:2484): up to three trigger provinces.
MAX_TRIGGERS = 3


def _insurrection_ready(state: GameState) -> bool:
    """An insurrection corps is on the map or may be placed (activated): no triggers may be set then (000:2484)."""
    return state.insurrection_activated or any(
        isinstance(u, Corps) and u.corps_type is CorpsType.INSURRECTION and u.location != POOL for u in state.units.values())


def triggers(state: GameState) -> tuple[str, ...]:
    """Austria's secret insurrection trigger provinces (13.2.4): for Austria's eyes and the rules only."""
    return state.powers[AUSTRIA].standing_orders.insurrection_triggers


def _with_triggers(state: GameState, provinces: tuple[str, ...]) -> GameState:
    ps = state.powers[AUSTRIA]
    return state.with_power(AUSTRIA, standing_orders=ps.standing_orders.replace(insurrection_triggers=provinces))


def trigger_fires(state: GameState, m: Any, power: str, unit: Corps, area: str) -> bool:
    """13.2.4 (000:2484): ``unit`` of ``power`` entering ``area`` halts there and activates the insurrection."""
    found = triggers(state)
    if not found or unit.corps_type is CorpsType.GUERRILLA or power == AUSTRIA:
        return False
    if area not in m.areas or not _austrian_area(state, m, area) or m.area(area).province not in found:
        return False
    return is_enemy(state, AUSTRIA, unit)


def fire_trigger(state: GameState) -> GameState:
    """The insurrection is activated and the triggers are spent (000:2484)."""
    return _with_triggers(state.replace(insurrection_activated=True), ())


def _off_map_insurrection(state: GameState) -> list[Corps]:
    """Insurrection corps that can come on: off the map with factors (13.2.4, 000:2476 "at their current strength")."""
    return [u for _, u in sorted(state.units.items()) if isinstance(u, Corps) and u.corps_type is CorpsType.INSURRECTION
            and u.location == POOL and u.factors.total > 0]


def rises_at(state: GameState, m: Any, power: str, unit: Corps, area: str) -> bool:
    """13.2.4 (000:2476): ``unit`` of ``power`` entering ``area`` makes the program place Austria's insurrection corps
    there at once: an enemy corps, Cossack or Freikorps in an area of an unceded Austrian home province, while
    insurrection corps are off the map with factors and Austria does not hold them (``hold_insurrection``)."""
    if power == AUSTRIA or unit.corps_type is CorpsType.GUERRILLA or state.powers[AUSTRIA].standing_orders.hold_insurrection:
        return False
    if area not in m.areas or not _austrian_area(state, m, area) or not is_enemy(state, AUSTRIA, unit):
        return False
    return bool(_off_map_insurrection(state))


def rise(state: GameState, area: str) -> tuple[GameState, list[str]]:
    """Every insurrection corps off the map with factors comes on in ``area`` (13.2.4, 000:2476-2478); the triggers
    are spent and the activation with them (the corps are placed)."""
    placed = []
    for u in _off_map_insurrection(state):
        state = state.with_unit(u.replace(location=Location(LocationKind.AREA, area)))
        placed.append(f"{u.id} ({u.factors.total} factors)")
    return _with_triggers(state.replace(insurrection_activated=False), ()), placed


def insurrection_active(state: GameState, m: Any) -> bool:
    """13.2.4 (000:2476): an enemy corps, Cossack or Freikorps stands in an unceded Austrian home province."""
    for u in state.units.values():
        if not isinstance(u, Corps) or u.location.kind is not LocationKind.AREA or u.factors.total == 0:
            continue
        if u.corps_type is CorpsType.GUERRILLA or not _austrian_area(state, m, u.location.site):
            continue
        if is_enemy(state, AUSTRIA, u):
            return True
    return False


@dataclass(frozen=True, slots=True)
class PlaceInsurrection(Record):
    """Place an Austrian insurrection corps at its current strength once the insurrection is activated (13.2.4)."""

    KIND = "irregulars.place-insurrection"
    COMMAND = "place-insurrection"

    unit: UnitId
    area: Slug


@dataclass(frozen=True, slots=True)
class SetInsurrectionTriggers(Record):
    """Austria sets up to three secret insurrection trigger provinces ('' clears them) (13.2.4)."""

    KIND = "irregulars.set-insurrection-triggers"
    COMMAND = "set-insurrection-triggers"
    BUTTON = "Insurrection Toggle"

    provinces: str


@dataclass(frozen=True, slots=True)
class StandDownInsurrection(Record):
    """Take an unbesieged insurrection corps off the map, keeping its factors (13.2.4)."""

    KIND = "land.stand-down-insurrection"
    COMMAND = "stand-down-insurrection"

    unit: UnitId


@dataclass(frozen=True, slots=True)
class PlaceTyrol(Record):
    """Place the Tyrol corps with 8 infantry in Tyrol when its holder has gone to war with Austria (13.2.5)."""

    KIND = "land.place-tyrol"
    COMMAND = "place-tyrol"

    area: Slug


def _insurrection(state: GameState, power: str, unit_id: str) -> Corps:
    u = the_unit(state, unit_id)
    if not isinstance(u, Corps) or u.corps_type is not CorpsType.INSURRECTION:
        raise IllegalAction(f"{unit_id} is not an insurrection corps (13.2.4)")
    if power != AUSTRIA:
        raise IllegalAction(f"{unit_id} is Austria's; only Austria places it (13.2.4)")
    return u


def _trigger_list(text: str) -> tuple[str, ...]:
    return tuple(sorted({p.strip() for p in text.split(",") if p.strip()}))


def verify_set_triggers(state: GameState, power: str, a: SetInsurrectionTriggers, ctx: RulesContext) -> None:
    if power != AUSTRIA:
        raise IllegalAction("only Austria sets insurrection trigger provinces (13.2.4)")
    if engine.sealed_already(state, power):  # the reveal round: taken, then refused by end-phase, it blocked the slot
        raise IllegalAction(f"{power}'s diplomacy orders of {state.date.name} are sealed already and cannot change now "
                            "(6.0): the trigger provinces are set in a diplomacy phase's orders", hint="give them in "
                            "next month's diplomacy phase, or with --next-month in your land slot")
    provinces = _trigger_list(a.provinces)
    if len(provinces) > MAX_TRIGGERS:
        raise IllegalAction(f"Austria sets at most {MAX_TRIGGERS} insurrection trigger provinces (13.2.4), not {len(provinces)}")
    if _insurrection_ready(state):
        raise IllegalAction("an insurrection corps is on the map or ready to be placed, so no trigger provinces may be set now (13.2.4)")
    m = ctx.map
    for prov in provinces:
        areas = m.areas_of_province(prov) if prov in m.provinces else ()
        if not areas or not _austrian_area(state, m, areas[0]):
            raise IllegalAction(f"{prov!r} is not an unceded Austrian home province; a trigger is one of Austria's own (13.2.4)")


def apply_set_triggers(state: GameState, power: str, a: SetInsurrectionTriggers, ctx: RulesContext) -> engine.Outcome:
    # A sealed diplomacy order: written on the order sheet too, so the reveal's digest covers it (6.0 sealing).
    state = _with_triggers(engine.record_order(state, power, a), _trigger_list(a.provinces))
    # The public line names no province: the triggers are shown to Austria only (000:2484).
    return engine.log(state, power, "irregulars.set-insurrection-triggers",
                      "AU sets its secret insurrection trigger provinces (13.2.4)")


def verify_place_insurrection(state: GameState, power: str, a: PlaceInsurrection, ctx: RulesContext) -> None:
    u = _insurrection(state, power, a.unit)
    if u.location != POOL:
        raise IllegalAction(f"{a.unit} is already on the map")
    if u.factors.total == 0:
        raise IllegalAction(f"{a.unit} has no factors; it is raised again in December (13.2.4)")
    if not state.insurrection_activated and not insurrection_active(state, ctx.map):
        raise IllegalAction("no enemy corps, Cossack or Freikorps stands in an unceded Austrian province, so the "
                            "insurrection is not activated (13.2.4)")
    if a.area not in ctx.map.areas or not _austrian_area(state, ctx.map, a.area):
        raise IllegalAction(f"{a.area} is not an area of an unceded Austrian home province (13.2.4)")


def apply_place_insurrection(state: GameState, power: str, a: PlaceInsurrection, ctx: RulesContext) -> engine.Outcome:
    u = _insurrection(state, power, a.unit)
    state = state.with_unit(u.replace(location=Location(LocationKind.AREA, a.area)))
    if not any(isinstance(c, Corps) and c.corps_type is CorpsType.INSURRECTION and c.location == POOL and c.factors.total
               for c in state.units.values()):
        state = state.replace(insurrection_activated=False)  # every insurrection corps that can come is on the map
    return engine.log(state, power, "irregulars.place-insurrection",
                      f"AU raises {a.unit} ({u.factors.total} factors) in {a.area} against the invader (13.2.4)",
                      unit=a.unit, area=a.area)


def verify_stand_down(state: GameState, power: str, a: StandDownInsurrection, ctx: RulesContext) -> None:
    u = _insurrection(state, power, a.unit)
    if u.location.kind is not LocationKind.AREA:
        raise IllegalAction(f"{a.unit} is not on a land area of the map" + (" (a besieged corps cannot stand down)"
                                                                           if u.location.kind is LocationKind.CITY else ""))


def apply_stand_down(state: GameState, power: str, a: StandDownInsurrection, ctx: RulesContext) -> engine.Outcome:
    u = _insurrection(state, power, a.unit)
    state = state.with_unit(u.replace(location=POOL, besieging=False))
    return engine.log(state, power, "land.stand-down-insurrection",
                      f"AU stands down {a.unit}, keeping its {u.factors.total} factors (13.2.4)", unit=a.unit)


def verify_place_tyrol(state: GameState, power: str, a: PlaceTyrol, ctx: RulesContext) -> None:
    if power != AUSTRIA:
        raise IllegalAction("only Austria places the Tyrol corps (13.2.5)")
    holder = tyrol_holder(state)
    war = relations.war_with(state, AUSTRIA, holder) if holder else None
    if war is None:
        raise IllegalAction("the Tyrol corps comes only when the power holding the ceded Tyrol is at war with Austria (13.2.5)")
    if war.since != state.date:
        raise IllegalAction(f"the Tyrol corps is placed in the Austrian land phase right after the war with {holder} began "
                            f"({war.since}), not later (13.2.5)")
    u = state.units.get(TYROL_CORPS)
    if u is None or u.location != POOL:
        raise IllegalAction("the Tyrol corps is already on the map")
    m = ctx.map
    if a.area not in m.areas or m.area(a.area).province != TYROL_PROVINCE:
        raise IllegalAction(f"{a.area} is not an area of Tyrol ({', '.join(m.areas_of_province(TYROL_PROVINCE))})")
    if any(is_enemy(state, AUSTRIA, c) for c in control.corps_at(state, a.area) if c.factors.total > 0):
        raise IllegalAction(f"an enemy corps stands in {a.area}; the Tyrol corps goes to a Tyrol area without one (13.2.5)")


def apply_place_tyrol(state: GameState, power: str, a: PlaceTyrol, ctx: RulesContext) -> engine.Outcome:
    u = state.units[TYROL_CORPS]
    state = state.with_unit(u.replace(location=Location(LocationKind.AREA, a.area), factors=Factors(infantry=TYROL_INFANTRY)))
    return engine.log(state, power, "land.place-tyrol",
                      f"Tyrol rises: AU places {TYROL_CORPS} with {TYROL_INFANTRY} infantry in {a.area} (13.2.5)", area=a.area)


# ----------------------------------------------------------------- candidates (engine.legal_actions)


def _austrian_areas(state: GameState, m: Any) -> list[str]:
    return [a for a in sorted(m.areas) if _austrian_area(state, m, a)]


def _set_triggers_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[SetInsurrectionTriggers]:
    """No triggers, or one province (a list of two or three is legal too, and not listed)."""
    if power == AUSTRIA and not engine.sealed_already(state, power):
        yield SetInsurrectionTriggers("")
        yield from (SetInsurrectionTriggers(p) for p in sorted({ctx.map.area(a).province for a in _austrian_areas(state, ctx.map)}))


def _place_insurrection_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[PlaceInsurrection]:
    if power == AUSTRIA:
        areas = _austrian_areas(state, ctx.map)
        for uid, u in sorted(state.units.items()):
            if isinstance(u, Corps) and u.corps_type is CorpsType.INSURRECTION and u.location == POOL:
                yield from (PlaceInsurrection(uid, a) for a in areas)


def _stand_down_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[StandDownInsurrection]:
    if power == AUSTRIA:
        yield from (StandDownInsurrection(uid) for uid, u in sorted(state.units.items())
                    if isinstance(u, Corps) and u.corps_type is CorpsType.INSURRECTION and u.location != POOL)


def _place_tyrol_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[PlaceTyrol]:
    if power == AUSTRIA and TYROL_PROVINCE in ctx.map.provinces:
        yield from (PlaceTyrol(a) for a in ctx.map.areas_of_province(TYROL_PROVINCE))


ACTIONS = ((StandDownInsurrection, verify_stand_down, apply_stand_down, _stand_down_candidates),
           (PlaceTyrol, verify_place_tyrol, apply_place_tyrol, _place_tyrol_candidates))
#: 13.2.4's placement is an action of Austria's reinforcement slot, not of the land phase's (registered by
#: ``eiapbem/rules/phases.py``).
INSURRECTION_RULES = engine.PhaseRules("insurrection placement", phases=(Phase.REINFORCEMENT,),
                                       actions=((PlaceInsurrection, verify_place_insurrection, apply_place_insurrection,
                                                 _place_insurrection_candidates),))
#: 13.2.4 (000:2484): the trigger provinces are set in the diplomacy phase, so they are one of Austria's sealed
#: diplomacy orders (``eiapbem diplomacy set-insurrection-triggers``).  The diplomacy resolution carries out an
#: order of another module's through the engine (verify, then this apply), before its own steps 2-6.
TRIGGER_RULES = engine.PhaseRules("insurrection triggers", phases=(Phase.DIPLOMACY,),
                                  actions=((SetInsurrectionTriggers, verify_set_triggers, apply_set_triggers,
                                            _set_triggers_candidates),))

__all__ = ["INSURRECTION_RULES", "PlaceInsurrection", "PlaceTyrol", "SetInsurrectionTriggers", "StandDownInsurrection", "TRIGGER_RULES",
           "fire_trigger", "insurrection_active", "remove_tyrol_at_peace", "rise", "rises_at", "trigger_fires", "triggers"]
