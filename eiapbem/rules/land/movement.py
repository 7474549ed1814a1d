"""Land movement (10.4; 000:1354-1476).

``land.move`` moves one corps, Cossack, Freikorps or guerrilla counter along a
path of areas the player names.  What is checked, step by step:

- the movement allowance (10.4.1, 000:1362-1370; ``tables.forces.movement_allowance``):
  5 for corps with a cavalry symbol, Freikorps and Cossacks, 4 for French corps and
  the listed French-controlled minors, 3 for the rest, one area for guerrillas;
  forced march +1, not for Cossacks, Freikorps, guerrillas and cavalry (000:1374);
- the cost of each area (000:1378-1388, ``mapgraph.enter_cost``): terrain 1 or 2,
  +1 across a river into an area holding an unbesieged enemy corps, +1 over a
  crossing arrow, which cannot be used while an enemy fleet is in its sea; all
  cumulative.  With the Winter Land Movement option (000:28, 13.1.3) every cost
  in the winter zone is one higher in winter and no crossing arrow of the winter
  zone but the Dardanelles may be used;
- no area may be entered that costs more than the points left (000:1402);
- a corps stops on entering an area with an enemy corps (not only Cossacks,
  Freikorps or guerrillas) or enemy depot garrison outside the city
  (000:1398, 000:1462-1468); Cossacks and Freikorps need not stop (000:1400);
- 30 counters at most in the section where it ends (000:1404);
- a major power's territory only with access or at war (13.4.1, 000:2550);
- an ungarrisoned enemy depot in an area entered is destroyed; with ``--use-depot`` the
  unit ends its move there living off it, supplied as if foraged with no loss (10.4.6, 000:1458);
- moving between a city and its area costs nothing (10.4.4, 000:1446); a unit in
  a besieged city cannot move; a unit enters only a city held by its own side, or an enemy
  city with no one inside, which it takes (13.5.2, ``land.occupation``).

A unit may move in several legs during its slot: the state keeps the points
spent and the areas passed (``GameState.land_moves``).  Once its power has
declared an attack the movement of the slot is over (11.0, 000:1606).
Leaders are attached to their corps and go where it goes.
"""

from __future__ import annotations

import heapq
import re
from collections.abc import Iterator
from dataclasses import dataclass, replace
from typing import Any

from eiapbem.core.errors import IllegalAction, quoted
from eiapbem.rules import candidates, control, engine, mapgraph, relations, supply
from eiapbem.rules.land.revolts import fire_trigger, rise, rises_at, trigger_fires
import eiapbem.rules.land.occupation as occupation
from eiapbem.rules.land.common import (
    NEED_NOT_STOP,
    counters_in_section,
    may_enter_territory,
    must_stop_in,
    unbesieged_enemy_corps,
    ungarrisoned_enemy_depots,
)
from eiapbem.rules.model import POOL, Corps, CorpsType, GameState, LandMove, Location, LocationKind, MinorStatus, Record
from eiapbem.rules.model.units import UnitId
from eiapbem.rules.tables import forces
from eiapbem.rules.forces import IRREGULAR, STACK_LIMIT, counter_entry, outside_home, own_on_map, the_unit
from eiapbem.rules.engine import RulesContext

_PATH_RE = re.compile(r"[a-z0-9]+(?:-[a-z0-9]+)*(?:,[a-z0-9]+(?:-[a-z0-9]+)*)*")
#: Counter kinds of ``counters.json`` with no movement rule of their own move as infantry corps.
_KIND_AS = {"tyrol": "infantry"}
_TYPE_KIND = {CorpsType.COSSACK: "cossack", CorpsType.FREIKORPS: "freikorps", CorpsType.GUERRILLA: "guerilla",
              CorpsType.FEUDAL: "feudal", CorpsType.INSURRECTION: "insurrection"}
CONFEDERATION = "confederation-of-the-rhine"


@dataclass(frozen=True, slots=True)
class MoveUnit(Record):
    """Move a corps, Cossack, Freikorps or guerrilla along a path of areas (10.4)."""

    KIND = "land.move"
    COMMAND = "move"
    BUTTON = "Move into/out of City; double-click the counter to Forced March"

    unit: UnitId
    #: The areas entered, in order, separated by commas (the unit's own area may lead).
    path: str
    #: Forced march: one movement point more (10.4.1, 000:1372-1374).
    forced_march: bool = False
    #: End the move inside the city of the last area (10.4.3-10.4.4, 000:1410-1446).
    city: bool = False
    #: Live off the ungarrisoned enemy depot destroyed in the last area: movement ends and the
    #: corps counts as having foraged with no loss (10.4.6, 000:1458).
    use_depot: bool = False


# ----------------------------------------------------------------- allowances


def counter_kind(ctx: RulesContext, corps: Corps) -> str:
    """The counter's kind for the movement chart (``tables.forces.CORPS_KINDS``)."""
    if corps.corps_type in _TYPE_KIND:
        return _TYPE_KIND[corps.corps_type]
    c = counter_entry(ctx.world, corps.id)
    if not c:
        return "infantry"
    kind = _KIND_AS.get(c["kind"], c["kind"])
    return kind if kind in forces.CORPS_KINDS else "infantry"


def _edited_movement(ctx: RulesContext, corps: Corps) -> int | None:
    data = ctx.world.get("counters.json", {})
    for group in ("powers", "minors"):
        for c in data.get(group, {}).get(corps.nation, {}).get("corps", []):
            if c["id"] == corps.id and "movement" in c:
                return int(c["movement"])
    return None


def _french_minor(state: GameState, nation: str) -> tuple[bool, bool]:
    """(French-controlled free state, component of a French-controlled Confederation of the Rhine)."""
    minor = state.minors.get(nation)
    if minor is None or relations.power_of(state, nation) != "FR":
        return False, False
    return minor.status is MinorStatus.FREE_STATE, minor.kingdom == CONFEDERATION


def allowance(state: GameState, ctx: RulesContext, corps: Corps, *, forced_march: bool = False) -> int:
    """Movement points (areas, for a guerrilla) of ``corps`` this slot (10.4.1, 000:1362-1374)."""
    kind = counter_kind(ctx, corps)
    free, conf = _french_minor(state, corps.nation)
    ma = forces.movement_allowance(corps.nation, kind, french_free_state=free, french_confederation=conf)
    edited = _edited_movement(ctx, corps)  # 14.3 "Units": an edited scenario's movement points
    if edited is not None and kind != "guerilla":
        ma = edited
    return ma + (forces.FORCED_MARCH_BONUS if forced_march else 0)


def winter_movement(state: GameState) -> bool:
    """The Winter Land Movement option applies this month (4.1.1, 000:28; 13.1, 000:2358)."""
    return state.options.winter_land_movement and state.date.month in supply.WINTER_MONTHS


# ----------------------------------------------------------------- one step


@dataclass(frozen=True)
class Step:
    to: str
    cost: int
    via_crossing: bool
    river: bool


def step(state: GameState, ctx: RulesContext, power: str, corps: Corps, here: str, to: str) -> Step:
    """The cost of moving ``corps`` from ``here`` into the adjacent ``to``; raise if it cannot go there."""
    m = ctx.map
    if not m.is_area(to):
        if m.is_sea(to):  # issue 20: not "does not exist"
            raise IllegalAction(f"{to} is a sea area; a corps moves only through land areas (10.4); crossing the sea "
                                "needs a fleet's naval transport in the naval phase (8.0)")
        raise IllegalAction(f"there is no land area {quoted(to)} on the map; check the path's spelling", hint="areas are slugs like paris")
    via_crossing = False
    if to not in m.land_neighbours(here):
        arrows = [c for c in m.crossings_at(here) if c.other_end(here) == to]
        if not arrows:
            raise IllegalAction(f"{to} is not next to {here} (no border or crossing arrow); give every area of the path in order")
        arrow = arrows[0]
        if arrow.optional is not None and not getattr(state.options, f"use_{arrow.optional}_sea_crossing", False):
            raise IllegalAction(f"the crossing arrow {arrow.id} from {here} to {to} needs the {arrow.optional} sea crossing option (4.1.1), which this game does not use; go around by land")
        if supply.enemy_fleet_in_sea(state, arrow.sea, power):
            raise IllegalAction(f"an enemy fleet is in {arrow.sea}, so {corps.id} cannot use the crossing arrow to {to} (10.4.1, 000:1386); go around by land")
        if winter_movement(state) and not arrow.winter_exempt and (m.area(here).winter or m.area(to).winter):
            raise IllegalAction(f"in winter the Winter Land Movement option closes the crossing arrow {arrow.id} (13.1.3, 000:2370); go around by land")
        via_crossing = True
    why = outside_home(m, corps, to) or may_enter_territory(state, m, to, power)
    if why:
        raise IllegalAction(why)
    river = not via_crossing and m.is_river(here, to)
    cost = mapgraph.enter_cost(m, to, via_crossing=via_crossing, winter=winter_movement(state))
    if river and unbesieged_enemy_corps(state, m, to, power):
        cost += forces.COST_RIVER_INTO_ENEMY  # 000:1384: only into an area holding an unbesieged enemy corps
    return Step(to, cost, via_crossing, river)


# ----------------------------------------------------------------- the move


@dataclass(frozen=True)
class Plan:
    corps: Corps
    steps: tuple[Step, ...]
    record: LandMove
    end: Location
    halt_reason: str | None
    allowance: int
    destroyed: tuple[str, ...] = ()
    #: It enters an enemy city with no one inside and takes it (13.5.2).
    takes: bool = False
    #: The Austrian insurrection trigger area that halted it (13.2.4), if any.
    trigger: str | None = None
    #: The Austrian area where its entry raises the insurrection corps at once (13.2.4, 000:2476), if any.
    rising: str | None = None


@dataclass(frozen=True, slots=True)
class Leg:
    """Where a move stands after the areas of its path entered so far (``plan_move``; ``reach`` extends a path by
    one area from the leg of the path it extends)."""

    at: str
    #: Movement points spent in the phase, with this move's.
    spent: int
    steps: tuple[Step, ...] = ()
    #: Why it must cease movement in ``at`` (10.4.2, 13.2.4), or None.
    halt: str | None = None
    trigger: str | None = None
    rising: str | None = None
    destroyed: tuple[str, ...] = ()
    #: An enemy depot was destroyed in ``at`` (10.4.6).
    last_destroyed: bool = False
    #: The insurrection halted it (13.2.4): the rest of the path is dropped.
    stopped: bool = False


def enter(state: GameState, ctx: RulesContext, power: str, corps: Corps, leg: Leg, to: str, ma: int, *,
          forced_note: bool = False) -> Leg:
    """The move of ``leg`` one area further, into ``to``, within ``ma`` points; raise ``IllegalAction`` when it
    cannot go on there.  ``forced_note``: a refusal for the points says a forced march would help."""
    if leg.halt is not None:
        raise IllegalAction(f"{corps.id} must cease movement in {leg.at} because {leg.halt} (10.4.2, 000:1398); end the path at {leg.at}")
    m = ctx.map
    st = step(state, ctx, power, corps, leg.at, to)
    cost = 0 if corps.corps_type is CorpsType.GUERRILLA else st.cost
    if leg.spent + cost > ma:
        left = ma - leg.spent
        raise IllegalAction(f"{corps.id} has {left} movement point{'s' if left != 1 else ''} left at {leg.at} but entering "
                            f"{to} costs {cost} (10.4.2, 000:1402); stop earlier" + (" or forced march" if forced_note else ""))
    found = ungarrisoned_enemy_depots(state, to, power)  # 10.4.6 (000:1458): destroyed on entering
    halt = must_stop_in(state, to, power) if corps.corps_type not in NEED_NOT_STOP else None
    out = Leg(to, leg.spent + cost, leg.steps + (st,), halt, leg.trigger, leg.rising, leg.destroyed + tuple(found), bool(found))
    if leg.rising is None and rises_at(state, m, power, corps, to):
        # 13.2.4 (000:2476-2478): the insurrection corps come on here; a corps ceases its movement
        if halt is None and corps.corps_type not in NEED_NOT_STOP:
            return replace(out, rising=to, halt="Austria's insurrection corps rise in it (13.2.4)", stopped=True)
        return replace(out, rising=to)
    if trigger_fires(state, m, power, corps, to):
        # 13.2.4 (000:2484): entering a secret trigger province halts the move there; the rest of the path is dropped.
        return replace(out, trigger=to, halt="it enters an Austrian insurrection trigger province (13.2.4)", stopped=True)
    return out


def room_in_area(state: GameState, corps: Corps, at: str) -> None:
    """Refuse a move of ``corps`` ending in the area ``at`` (outside its city) when the section is full (10.4.2)."""
    if corps.location != Location(LocationKind.AREA, at) or corps.besieging:
        n = counters_in_section(state, at)
        if n + 1 > STACK_LIMIT:
            raise IllegalAction(f"{at} already holds {n} counters outside its city; 30 is the limit (10.4.2, 000:1404); end elsewhere")


def _path(action: MoveUnit) -> list[str]:
    if not _PATH_RE.fullmatch(action.path):
        raise IllegalAction(f"--path {action.path!r} is not a list of areas separated by commas, like strasbourg,karlsruhe")
    return action.path.split(",")


def plan_move(state: GameState, power: str, action: MoveUnit, ctx: RulesContext) -> Plan:
    """Check the move and work out where it ends; raise ``IllegalAction`` with the first reason it is illegal."""
    m = ctx.map
    unit = the_unit(state, action.unit)
    if not isinstance(unit, Corps):
        raise IllegalAction(f"{action.unit} is not a corps, Cossack, Freikorps or guerrilla counter; only those move on land (10.4)")
    own_on_map(state, power, unit, "move")
    here = unit.location.site
    if state.movement_over:
        if action.city and _path(action) == [here] and unit.location.kind is LocationKind.AREA and _fought_here(state, power, unit):
            # 11.1.1 (000:1614): after its combat the phasing force may occupy a friendly city in the area.
            return _after_combat_into_city(state, ctx, power, unit)
        raise IllegalAction(f"{power} has begun its combats, so its movement is over (11.0, 000:1606); move before declaring "
                            f"attacks (after a combat a unit that fought may only enter its area's friendly city)")
    if unit.location.kind is LocationKind.CITY and control.is_besieged(state, m, here):
        raise IllegalAction(f"{unit.id} is besieged in the city of {here} and cannot move out (10.4.4, 000:1446); it stays until the siege is lifted")
    prior = state.land_moves.get(unit.id) or LandMove(start=here)
    if prior.placed_back:
        raise IllegalAction(f"{unit.id} came back on the map this month and may not move (13.2.3, 000:2456)")
    if prior.foraged:
        raise IllegalAction(f"{unit.id} has foraged, so its movement is over (10.5.1, 000:1496); it cannot move again this phase")
    if prior.halted:
        raise IllegalAction(f"{unit.id} has ended its movement in {here} (it stopped among enemy forces, 10.4.2 000:1398, "
                            f"besieges the city, 10.4.7, or landed from ships, 10.4.5); it cannot move again this phase")
    kind = counter_kind(ctx, unit)
    forced = prior.forced_march or action.forced_march
    if action.forced_march and not forces.may_force_march(kind):
        raise IllegalAction(f"{unit.id} is a {kind} counter, which may not forced march (10.4.1, 000:1374); move it without --forced-march")
    ma = allowance(state, ctx, unit, forced_march=forced)
    path = _path(action)
    if path[0] == here:
        path = path[1:]
    guerrilla = unit.corps_type is CorpsType.GUERRILLA
    if guerrilla and len(prior.passed) + len(path) > forces.MA_GUERILLA_AREAS:
        raise IllegalAction(f"{unit.id} is a guerrilla: it moves one area a phase, whatever the terrain (10.4.1, 000:1364); name a single adjacent area")
    leg = Leg(here, prior.spent)
    for to in path:
        leg = enter(state, ctx, power, unit, leg, to, ma, forced_note=not forced and forces.may_force_march(kind))
        if leg.stopped:
            break  # the rest of the path is dropped: the mover could not know (a path past a corps it saw is refused)
    at, halt, trigger, rising, steps = leg.at, leg.halt, leg.trigger, leg.rising, leg.steps
    if (trigger is not None or (rising is not None and halt is not None)) and action.city:
        action = action.replace(city=False)  # it stays in the area: the trigger or the rising halted it
    if action.use_depot:
        if not leg.last_destroyed:
            raise IllegalAction(f"there is no ungarrisoned enemy depot in {at} for {unit.id} to live off (10.4.6, 000:1458)")
        if unit.corps_type in IRREGULAR:
            raise IllegalAction(f"{unit.id} is a {unit.corps_type} counter and needs no supply; it may only destroy the depot")
        if action.city:
            raise IllegalAction(f"{unit.id} ends its movement in the area to use the depot; it cannot go on into the city (10.4.6)")
    takes = False
    if action.city:
        city = m.area(at).city
        if city is None:
            raise IllegalAction(f"{at} has no city for {unit.id} to enter; leave out --city")
        if halt is not None:
            raise IllegalAction(f"{unit.id} must cease movement in {at} because {halt} (10.4.2); it cannot go on into the city")
        if not relations.allied(state, power, control.city_power(state, m, at)):
            if not occupation.may_enter_empty_city(state, m, at, power):
                raise IllegalAction(f"the city of {at} is not held by {power} or an ally, nor an enemy city with no one "
                                    f"inside; a unit enters only its own side's cities or takes an empty enemy one "
                                    f"(13.5.2; besieging is 'eiapbem land besiege')")
            takes = True
        if control.is_besieged(state, m, at):
            raise IllegalAction(f"the city of {at} is besieged; {unit.id} cannot enter it, only fight the besiegers")
        end = Location(LocationKind.CITY, at)
        in_city = sum(1 for u in control.units_at(state, at) if u.location == end and u.id != unit.id)
        if in_city + 1 > STACK_LIMIT:
            raise IllegalAction(f"the city of {at} already holds {in_city} counters; 30 is the limit (10.4.3, 000:1410); stay in the area")
    else:
        end = Location(LocationKind.AREA, at)
        room_in_area(state, unit, at)
    if not steps and end == unit.location and not (action.forced_march and not prior.forced_march):
        raise IllegalAction(f"{unit.id} is already at {end}; name the areas to enter in --path")
    across = steps[-1].river or steps[-1].via_crossing if steps else prior.across_river
    record = prior.replace(
        passed=tuple(sorted(set(prior.passed) | {s.to for s in steps})),
        spent=leg.spent,
        forced_march=forced,
        halted=halt is not None or action.use_depot,
        across_river=across,
        foraged=action.use_depot,
    )
    return Plan(unit, steps, record, end, halt, ma, leg.destroyed, takes, trigger, rising)


def _fought_here(state: GameState, power: str, unit: Corps) -> bool:
    prefix = f"battle:{state.date}:{unit.location.site}:"
    return any(k.startswith(prefix) and b.finished and b.attacker.power == power and unit.id in b.attacker.units
               for k, b in state.battles.items())


def _after_combat_into_city(state: GameState, ctx: RulesContext, power: str, unit: Corps) -> Plan:
    m = ctx.map
    at = unit.location.site
    if m.area(at).city is None:
        raise IllegalAction(f"{at} has no city for {unit.id} to enter; leave out --city")
    # 11.1.1 (000:1614): "any friendly-controlled or vacant city in the area"; a vacant enemy city is taken (13.5.2).
    takes = not relations.allied(state, power, control.city_power(state, m, at))
    if (takes and not occupation.may_enter_empty_city(state, m, at, power)) or control.is_besieged(state, m, at):
        raise IllegalAction(f"the city of {at} is neither an unbesieged city of {power} or an ally nor a vacant enemy city; "
                            f"after combat a unit enters only a friendly or vacant city (11.1.1, 000:1614)")
    end = Location(LocationKind.CITY, at)
    rec = (state.land_moves.get(unit.id) or LandMove(start=at)).replace(halted=True)
    return Plan(unit, (), rec, end, None, allowance(state, ctx, unit, forced_march=rec.forced_march), takes=takes)


def verify_move(state: GameState, power: str, action: MoveUnit, ctx: RulesContext) -> None:
    plan_move(state, power, action, ctx)


def apply_move(state: GameState, power: str, action: MoveUnit, ctx: RulesContext) -> engine.Outcome:
    plan = plan_move(state, power, action, ctx)
    unit = plan.corps
    state = state.with_unit(unit.replace(location=plan.end, besieging=False))  # leaving lifts its part in a siege
    state = state.with_scratch(land_moves=state.land_moves.set(unit.id, plan.record))
    for did in plan.destroyed:
        state = state.with_unit(state.units[did].replace(location=POOL))
    route = " -> ".join([unit.location.site] + [s.to for s in plan.steps])
    where = f"into the city of {plan.end.site}" if plan.end.kind is LocationKind.CITY else f"to {plan.end.site}"
    if not plan.steps and plan.end.kind is LocationKind.AREA and unit.location.kind is LocationKind.CITY:
        where, route = f"out of the city of {plan.end.site} into its area", "no area entered"  # 10.4.3
    text = (f"{power}: {unit.id} moves {where} ({route}; {plan.record.spent} of {plan.allowance} movement points"
            f"{', forced march' if plan.record.forced_march else ''})")
    if plan.destroyed:
        text += f"; it destroys the enemy depot{'s' if len(plan.destroyed) > 1 else ''} {', '.join(plan.destroyed)} (10.4.6)"
    if action.use_depot:
        text += "; it lives off the depot: supplied, movement over (10.4.6)"
    if plan.halt_reason:
        text += f"; it stops: {plan.halt_reason}"
    if plan.trigger is not None:
        state = fire_trigger(state)
        text += "; Austria's insurrection is activated: its corps may be placed in a reinforcement phase (13.2.4)"
    if plan.rising is not None:
        state, placed = rise(state, plan.rising)
        text += f"; Austria's insurrection rises: {', '.join(placed)} come on in {plan.rising} (13.2.4)"
    # 7.6.1 (000:1006): corps loaned by an enemy to a power at peace with the mover go home as it enters.
    from eiapbem.rules.loans import revert_on_entry

    back: tuple[str, ...] = ()
    for step in plan.steps:
        state, ids = revert_on_entry(state, power, step.to)
        back += ids
    if back:
        text += f"; the loan of {', '.join(back)} ends: they are their owner's again (7.6.1)"
    out = engine.log(state, power, "land.move", text, unit=unit.id, to=str(plan.end), spent=plan.record.spent,
                     halted=plan.record.halted)
    if plan.takes:
        out = out.then(occupation.enter_empty_city(out.state, power, unit, plan.end.site))
    return out


# ----------------------------------------------------------------- show possible moves (4.1.2)


@dataclass(frozen=True)
class Reach:
    """One place a unit can end its move in now."""

    area: str
    #: Movement points this move spends (on top of those spent earlier in the phase).
    cost: int
    #: The places entered, in order (``move --path`` takes them as a comma-separated list).
    path: tuple[str, ...]
    #: The unit must stop there (why, 10.4.2), or None.
    halts: str | None

    def to_obj(self) -> dict[str, Any]:
        return {"area": self.area, "cost": self.cost, "path": list(self.path), "halts": self.halts}


@dataclass(frozen=True)
class UnitReach:
    """Where a corps or a fleet can end a move now, cheapest first (the manual's "Show Possible Moves")."""

    unit: str
    at: str
    allowance: int
    spent: int
    forced_march: bool
    areas: tuple[Reach, ...]

    def to_obj(self) -> dict[str, Any]:
        return {"unit": self.unit, "kind": "corps", "at": self.at, "allowance": self.allowance, "spent": self.spent,
                "forced_march": self.forced_march, "built": True, "areas": [r.to_obj() for r in self.areas]}


def _neighbours(m: Any, here: str) -> list[str]:
    out = set(m.land_neighbours(here))
    out.update(c.other_end(here) for c in m.crossings_at(here))
    return sorted(out)


def reach(state: GameState, ctx: RulesContext, power: str, unit_id: str, *, forced_march: bool = False) -> UnitReach:
    """Every area ``unit_id`` can end a move in now; raise ``IllegalAction`` when it cannot move at all.

    The search never shows a move the rules would refuse: from the unit's area it extends the cheapest known path
    to each area by one neighbouring area (a border or a crossing arrow) and keeps the paths the rules accept,
    cheapest first (ties broken by area id, then path, so the answer is the same on every computer).  A path the
    rules stop (an area among enemy forces, 10.4.2) is kept but not extended.  A path of one area is asked of
    ``plan_move`` (its refusal says why the unit cannot move); a longer one is its path's ``Leg`` taken one area
    further by ``enter``, as ``plan_move`` walks a path, and checked at its end as ``plan_move`` checks it, so each
    path costs one step, not its whole length (``tests/rules/test_reach.py`` compares every answer with
    ``plan_move`` asked of each whole path).
    """
    unit = state.units.get(unit_id)
    if not isinstance(unit, Corps):
        raise IllegalAction(f"{unit_id!r} is not a corps on the map; 'eiapbem show units --kind corps' lists yours")
    here = unit.location.site
    m = ctx.map
    ma = 0
    prior = state.land_moves.get(unit_id)
    spent_before = prior.spent if prior is not None else 0
    passed = len(prior.passed) if prior is not None else 0
    guerrilla = unit.corps_type is CorpsType.GUERRILLA
    best: dict[str, Reach] = {}
    legs: dict[tuple[str, ...], Leg] = {}
    frontier: list[tuple[int, str, tuple[str, ...]]] = [(0, here, ())]
    first_refusal: str | None = None
    while frontier:
        cost, at, path = heapq.heappop(frontier)
        if at in best and best[at].cost <= cost and best[at].path != path:
            continue
        for to in _neighbours(m, at):
            if to == here or to in path:
                continue
            new = path + (to,)
            try:
                if not path:
                    plan = plan_move(state, power, MoveUnit(unit=unit_id, path=to, forced_march=forced_march), ctx)
                    ma = plan.allowance
                    leg = Leg(to, plan.record.spent, plan.steps, plan.halt_reason, plan.trigger, plan.rising)
                else:
                    if guerrilla and passed + len(new) > forces.MA_GUERILLA_AREAS:
                        continue  # a guerrilla moves one area a phase (10.4.1)
                    leg = enter(state, ctx, power, unit, legs[path], to, ma)
                    room_in_area(state, unit, to)
            except IllegalAction as err:
                if not path and first_refusal is None:
                    first_refusal = str(err)
                continue
            c = leg.spent - spent_before
            old = best.get(to)
            if old is not None and (old.cost, old.path) <= (c, new):
                continue
            best[to] = Reach(to, c, new, leg.halt)
            if leg.halt is None:
                legs[new] = leg
                heapq.heappush(frontier, (c, to, new))
    if not best and first_refusal is not None:
        # Every neighbour refused for the same kind of reason: say the rules' first sentence.
        raise IllegalAction(f"{unit_id} cannot move now: {first_refusal}")
    areas = tuple(sorted(best.values(), key=lambda r: (r.cost, r.area)))
    return UnitReach(unit_id, here, ma, spent_before, forced_march, areas)


# ----------------------------------------------------------------- candidates (engine.legal_actions)


def _move_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[MoveUnit]:
    """Each unit's move to each area it can reach, by the cheapest path (into the city too, and living off a
    depot destroyed there), with a forced march where only a forced march reaches; into or out of the city of
    its own area.  One search per unit: with the forced march's point when the unit may still take it."""
    m = ctx.map
    for unit in candidates.own_corps(state, power):
        here = unit.location.site
        if m.area(here).city is not None:
            yield MoveUnit(unit.id, here, city=unit.location.kind is LocationKind.AREA)
        prior = state.land_moves.get(unit.id)
        spent = prior.spent if prior is not None else 0
        may_force = forces.may_force_march(counter_kind(ctx, unit)) and not (prior is not None and prior.forced_march)
        try:
            found = reach(state, ctx, power, unit.id, forced_march=may_force)
        except IllegalAction:
            continue
        plain = allowance(state, ctx, unit)
        for r in found.areas:
            path, forced = ",".join(r.path), may_force and spent + r.cost > plain
            yield MoveUnit(unit.id, path, forced_march=forced)
            if r.halts is None and m.area(r.area).city is not None:
                yield MoveUnit(unit.id, path, forced_march=forced, city=True)
            if ungarrisoned_enemy_depots(state, r.area, power):
                yield MoveUnit(unit.id, path, forced_march=forced, use_depot=True)


ACTIONS = ((MoveUnit, verify_move, apply_move, _move_candidates),)
