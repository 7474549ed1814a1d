"""Supply at the end of the phasing power's movement (10.5; 000:1478-1592), then combat (11.0, 000:1606).

``end_movement`` runs once per land slot: at the power's first ``land.attack``,
or when it ends the slot without attacking (the finish hook).  For every corps
the power moves this month (its own, its minors', those loaned to it) that is
not a Cossack, Freikorps or guerrilla (they need no supply when unbesieged,
000:1480):

- a corps that already foraged (``land.forage``, "Attempt to Forage") is done;
- a corps besieged in a city checks besieged supply (10.5.5, 000:1578-1588);
- a corps must forage if it forced marched or is more than three unblocked areas
  from a depot of the power's valid supply chain (000:1488, 000:1530);
- otherwise ("Auto Forage", 000:1488) it forages when no roll could cost it a
  factor (unless its owner elected depot supply with ``land.supply-choice``,
  "may elect", 000:1488), and else takes depot supply while the treasury pays for it: $1/2 in a
  depot's area, $1 per area up to three away, doubled in winter in the winter
  zone, summed and any half rounded up (000:1528-1534); what the money does not
  cover forages (000:1528).

Foraging (10.5.1, 000:1494-1520): one die per corps, labelled
``forage/<month>/<corps>``, plus +1 per other unbesieged corps in its area
(at most +2), -1 per unused movement point (not when besieging), +1 after a
forced march, +2 in winter in the winter zone, -1 when it never left its power's
territory; each point above the lowest forage value of the areas it entered
(its own area if it did not move) costs one army factor.  Losses are taken from
the types the owner named with ``land.supply-choice --loss-order`` first (any
factor may be lost, 000:1514), then militia first, then infantry, feudal infantry, cavalry, feudal cavalry,
artillery and guard; a corps left with no factor leaves the map, and its leaders
join another corps of the power in the area or, with none, leave the map until a
later reinforcement phase (000:1514-1520).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from eiapbem.core.errors import IllegalAction
from eiapbem.rules import control, engine, relations, supply
import eiapbem.rules.land.seasupply as seasupply
from eiapbem.rules.land.depots import own_territory
from eiapbem.rules.land.movement import allowance
from eiapbem.rules.model import (
    POOL,
    Corps,
    FactorType,
    GameState,
    Garrison,
    LandMove,
    LeaderStatus,
    LocationKind,
    Record,
)
from eiapbem.rules.model.units import UnitId
from eiapbem.rules.forces import IRREGULAR, the_army_unit, the_corps, the_unit
from eiapbem.rules.engine import RulesContext

#: 10.5.1 (000:1502): at most +2 for other corps in the area.
MAX_OTHER_CORPS = 2
WINTER_FORAGE = 2  # 000:1508
OWN_TERRITORY_FORAGE = -1  # 000:1510
FORCED_MARCH_FORAGE = 1  # 000:1506
#: 10.5.2 (000:1530): depot supply reaches three areas.
MAX_SUPPLY_DISTANCE = 3
#: 10.5.5 (000:1584): +1 per full 5 factors in a besieged city, at most +2.
BESIEGED_PER = 5
MAX_BESIEGED_MODIFIER = 2
#: The order in which forage losses are taken (the manual lets the owner choose, 000:1514).
LOSS_ORDER = (
    FactorType.MILITIA, FactorType.INFANTRY, FactorType.FEUDAL_INFANTRY, FactorType.CAVALRY, FactorType.FEUDAL_CAVALRY,
    FactorType.ARTILLERY, FactorType.GUARD, FactorType.COSSACK, FactorType.FREIKORPS, FactorType.GUERRILLA,
)


@dataclass(frozen=True, slots=True)
class Forage(Record):
    """Forage for supply now with one corps whose movement is over (10.5.1)."""

    KIND = "land.forage"
    COMMAND = "forage"
    BUTTON = "Attempt to Forage"

    unit: UnitId


@dataclass(frozen=True, slots=True)
class SupplyChoice(Record):
    """Choose a corps' supply at the end of movement: insist on depot supply, and which factors foraging takes first (10.5.1)."""

    KIND = "land.supply-choice"
    COMMAND = "supply-choice"

    unit: UnitId
    #: Use depot supply when it may (a depot within reach, no forced march, money to pay), rather
    #: than foraging where no roll could cost a factor ("Auto Forage").
    depot: bool = False
    #: The factor types lost first to foraging, in this order; the rest by ``LOSS_ORDER``.
    loss_order: tuple[FactorType, ...] = ()


# ----------------------------------------------------------------- who needs supply


def needs_supply(state: GameState, power: str, unit: Any) -> bool:
    """A corps of ``power`` on the map that must be supplied (000:1480)."""
    return (isinstance(unit, Corps) and relations.unit_power(state, unit) == power
            and unit.location.kind in (LocationKind.AREA, LocationKind.CITY)
            and unit.corps_type not in IRREGULAR and unit.factors.total > 0)


def besieged(state: GameState, m: Any, unit: Any) -> bool:
    return unit.location.kind is LocationKind.CITY and control.is_besieged(state, m, unit.location.site)


# ----------------------------------------------------------------- foraging (10.5.1)


@dataclass(frozen=True)
class ForageRoll:
    die: int
    modifiers: tuple[tuple[str, int], ...]
    forage_value: int
    lowest_area: str

    @property
    def total(self) -> int:
        return self.die + sum(v for _, v in self.modifiers)

    @property
    def loss(self) -> int:
        return max(0, self.total - self.forage_value)


def forage_modifiers(state: GameState, ctx: RulesContext, power: str, corps: Corps) -> tuple[tuple[str, int], ...]:
    """The modifiers of 000:1500-1510 for ``corps`` now, as (why, value), zeros left out."""
    m = ctx.map
    here = corps.location.site
    rec = state.land_moves.get(corps.id) or LandMove(start=here)
    mods = []
    others = sum(1 for c in control.corps_at(state, here) if c.id != corps.id and supply.unit_unbesieged(state, m, c))
    mods.append(("other corps in the area", min(others, MAX_OTHER_CORPS)))
    if not corps.besieging:
        unused = max(0, allowance(state, ctx, corps, forced_march=rec.forced_march) - rec.spent)
        mods.append(("unused movement points", -unused))
    mods.append(("forced march", FORCED_MARCH_FORAGE if rec.forced_march else 0))
    winter = state.date.month in supply.WINTER_MONTHS and m.area(here).winter
    mods.append(("winter", WINTER_FORAGE if winter else 0))
    home = all(own_territory(state, m, a, power) for a in (*rec.passed, here))
    mods.append(("own territory", OWN_TERRITORY_FORAGE if home else 0))
    return tuple((k, v) for k, v in mods if v)


def forage_roll(state: GameState, ctx: RulesContext, power: str, corps: Corps) -> ForageRoll:
    m = ctx.map
    here = corps.location.site
    rec = state.land_moves.get(corps.id) or LandMove(start=here)
    areas = rec.passed or (here,)  # 000:1496: not the start area, unless it did not move
    # the lowest value decides; on a tie the area it stopped in is named, the one a reader looks for
    lowest = min(areas, key=lambda a: (m.area(a).forage, a != here, a))
    die = ctx.dice.d6(f"forage/{state.date}/{corps.id}")
    return ForageRoll(die, forage_modifiers(state, ctx, power, corps), m.area(lowest).forage, lowest)


def worst_case_loss(state: GameState, ctx: RulesContext, power: str, corps: Corps) -> int:
    """The loss a 6 would bring (no die drawn)."""
    m = ctx.map
    rec = state.land_moves.get(corps.id) or LandMove(start=corps.location.site)
    areas = rec.passed or (corps.location.site,)
    fv = min(m.area(a).forage for a in areas)
    return max(0, 6 + sum(v for _, v in forage_modifiers(state, ctx, power, corps)) - fv)


def take_losses(state: GameState, power: str, unit: Corps | Garrison, n: int,
                first: tuple[FactorType, ...] = ()) -> tuple[GameState, int, bool]:
    """Remove ``n`` factors (at most all): the owner's ``first`` types in its order, then LOSS_ORDER; a corps
    emptied leaves the map (000:1518-1520).  Returns the state, the factors lost and whether the counter left the map."""
    f = unit.factors
    lost = 0
    for kind in tuple(first) + tuple(k for k in LOSS_ORDER if k not in first):
        while lost < n and f.get(kind) > 0:
            f = f.with_(kind, f.get(kind) - 1)
            lost += 1
    if f.total > 0 or not isinstance(unit, Corps):
        if isinstance(unit, Garrison) and f.total == 0:
            return state.without_unit(unit.id), lost, True
        return state.with_unit(unit.replace(factors=f)), lost, False
    state = state.with_unit(unit.replace(factors=f, location=POOL, besieging=False))
    hosts = [c.id for c in control.corps_at(state, unit.location.site)
             if c.id != unit.id and relations.unit_power(state, c) == power and c.factors.total > 0]
    for lid in sorted(lid for lid, ld in state.leaders.items() if ld.attached_to == unit.id):
        leader = state.leaders[lid]
        if hosts and lid.split(":")[1] == hosts[0].split(":")[1]:
            state = state.with_leader(leader.replace(attached_to=hosts[0]))
        else:
            state = state.with_leader(leader.replace(status=LeaderStatus.AVAILABLE, attached_to=None))
    return state, lost, True


def forage(state: GameState, ctx: RulesContext, power: str, corps_id: str) -> engine.Outcome:
    corps = the_corps(state, corps_id)
    roll = forage_roll(state, ctx, power, corps)
    rec = state.land_moves.get(corps_id) or LandMove(start=corps.location.site)
    state = state.with_scratch(land_moves=state.land_moves.set(corps_id, rec.replace(foraged=True)))
    state, lost, gone = take_losses(state, power, corps, roll.loss, rec.loss_order)
    mods = "".join(f" {v:+d} {k}" for k, v in roll.modifiers)
    text = (f"{power}: {corps_id} forages: random number {roll.die}{mods} = {roll.total} against forage value "
            f"{roll.forage_value} ({roll.lowest_area}{'' if roll.lowest_area == corps.location.site else ', passed on its way'}): "
            + (f"loses {lost} factor{'s' if lost != 1 else ''}" if lost else "no loss")
            + ("; the corps leaves the map" if gone else ""))
    return engine.log(state, power, "land.forage", text, unit=corps_id, die=roll.die, total=roll.total,
                      forage_value=roll.forage_value, lost=lost, removed=gone)


def verify_forage(state: GameState, power: str, action: Forage, ctx: RulesContext) -> None:
    unit = the_unit(state, action.unit)
    if not needs_supply(state, power, unit):
        raise IllegalAction(f"{action.unit} is not a corps of {power} on the map that needs supply (Cossacks, Freikorps and "
                            f"guerrillas need none, 000:1480)")
    if state.movement_over:
        raise IllegalAction(f"{power}'s supply for this phase is done: combat has begun (11.0, 000:1606)")
    if besieged(state, ctx.map, unit):
        raise IllegalAction(f"{action.unit} is besieged: it checks besieged supply at the end of movement (10.5.5, 000:1580)")
    rec = state.land_moves.get(unit.id)
    if rec is not None and rec.foraged:
        raise IllegalAction(f"{action.unit} has already foraged this phase (10.5.1)")


def apply_forage(state: GameState, power: str, action: Forage, ctx: RulesContext) -> engine.Outcome:
    return forage(state, ctx, power, action.unit)


def verify_supply_choice(state: GameState, power: str, action: SupplyChoice, ctx: RulesContext) -> None:
    verify_forage(state, power, Forage(unit=action.unit), ctx)
    if len(set(action.loss_order)) != len(action.loss_order):
        raise IllegalAction("name each factor type once in the order of forage losses")
    if not action.depot and not action.loss_order:
        raise IllegalAction("say what to choose: --depot for depot supply, --loss-order TYPE for the factors lost first")


def apply_supply_choice(state: GameState, power: str, action: SupplyChoice, ctx: RulesContext) -> engine.Outcome:
    unit = state.units[action.unit]
    rec = state.land_moves.get(action.unit) or LandMove(start=unit.location.site)
    rec = rec.replace(depot_supply=action.depot or rec.depot_supply, loss_order=action.loss_order or rec.loss_order)
    state = state.with_scratch(land_moves=state.land_moves.set(action.unit, rec))
    said = []
    if rec.depot_supply:
        said.append("takes depot supply if it may")
    if rec.loss_order:
        said.append("loses " + ", ".join(str(k) for k in rec.loss_order) + " first to foraging")
    return engine.log(state, power, "land.supply-choice", f"{power}: {action.unit} " + " and ".join(said) + " (10.5.1)",
                      unit=action.unit)


# ----------------------------------------------------------------- depot supply (10.5.2)


def depot_cost_halves(state: GameState, ctx: RulesContext, power: str, corps: Corps) -> int | None:
    """Depot supply of ``corps`` in half-dollars, or None when no depot is within reach (000:1530-1534)."""
    m = ctx.map
    here = corps.location.site
    dist = supply.depot_distance(state, m, power, here, limit=MAX_SUPPLY_DISTANCE)
    if (dist is None or dist > 1) and supply.invasion_depot_for(state, m, power, here):
        dist = 1  # 10.5.4 (000:1566): a depot on a fleet supplies the adjacent land areas at the normal cost
    if dist is None:
        return None
    halves = 1 if dist == 0 else 2 * dist
    if state.date.month in supply.WINTER_MONTHS and m.area(here).winter:
        halves *= 2  # 000:1534, 13.1.2
    return halves


# ----------------------------------------------------------------- besieged supply (10.5.5)


def _besieged_units(state: GameState, m: Any, area: str) -> list[Any]:
    return [u for u in state.units.values()
            if isinstance(u, (Corps, Garrison)) and u.location.kind is LocationKind.CITY and u.location.site == area
            and u.factors.total > 0]


def besieged_terms(state: GameState, ctx: RulesContext, power: str, area: str) -> tuple[int, int, int | None]:
    """How ``power``'s besieged units in the city of ``area`` are supplied at the end of its movement (10.5.5): the
    city's supply value, the modifier of the factors inside, and the dollars of sea supply when it pays for them
    instead of rolling (10.5.3-10.5.4), else None."""
    m = ctx.map
    city = m.area(area).city
    assert city is not None
    inside = _besieged_units(state, m, area)
    mod = min(sum(u.factors.total for u in inside) // BESIEGED_PER, MAX_BESIEGED_MODIFIER)
    sea = seasupply.sea_cost_halves(state, m, area, power)
    mine = [u for u in inside if relations.unit_power(state, u) == power]
    dollars = None if sea is None or not mine else (sea * len(mine) + 1) // 2
    return city.supply, mod, dollars if dollars is not None and dollars <= state.powers[power].treasury else None


def besieged_supply(state: GameState, ctx: RulesContext, power: str, area: str) -> engine.Outcome:
    """Every besieged unit of ``power`` in the city of ``area`` checks supply against the city's supply value."""
    m = ctx.map
    inside = _besieged_units(state, m, area)
    supply_value, mod, dollars = besieged_terms(state, ctx, power, area)
    out = engine.Outcome(state)
    mine = [u for u in sorted(inside, key=lambda u: u.id) if relations.unit_power(state, u) == power]
    if dollars is not None:  # 10.5.3-10.5.4: living off sea supply at the depot cost, not rolling
        st = state.with_power(power, treasury=state.powers[power].treasury - dollars)
        return engine.log(st, power, "land.sea-supply", f"{power} pays ${dollars} for the sea supply of "
                          f"{', '.join(u.id for u in mine)} besieged in {area} (10.5.3-10.5.4)", area=area, cost=dollars)
    leaders = sorted(lid for lid, ld in state.leaders.items() if ld.attached_to in {u.id for u in inside})
    for u in sorted(inside, key=lambda u: u.id):
        if relations.unit_power(out.state, u) != power:
            continue
        die = ctx.dice.d6(f"besieged-supply/{state.date}/{u.id}")
        loss = max(0, die + mod - supply_value)
        st, lost, gone = take_losses(out.state, power, the_army_unit(out.state, u.id), loss)
        out = out.then(engine.log(st, power, "land.besieged-supply",
                                  f"{power}: {u.id} besieged in {area}: random number {die} {mod:+d} against city supply "
                                  f"{supply_value}: " + (f"loses {lost}" if lost else "no loss"), unit=u.id, die=die, lost=lost))
    if not _besieged_units(out.state, m, area):
        out = out.then(_fall(out.state, ctx, power, area, leaders))
    return out


def _fall(state: GameState, ctx: RulesContext, power: str, area: str, leaders: list[str]) -> engine.Outcome:
    """000:1588: every besieged factor lost: the leaders inside are captured and the besiegers take the city."""
    from eiapbem.rules.model import CityControl

    besiegers = sorted((c for c in control.corps_at(state, area) if c.besieging and c.location.kind is LocationKind.AREA),
                       key=lambda c: c.id)
    if not besiegers:
        return engine.Outcome(state)
    captor = relations.unit_power(state, besiegers[0])
    for lid in leaders:
        ld = state.leaders[lid]
        if ld.status is LeaderStatus.AVAILABLE and captor is not None:
            state = state.with_leader(ld.replace(status=LeaderStatus.CAPTURED, captured_by=captor))
    state = state.replace(city_control=state.city_control.set(area, CityControl(nation=besiegers[0].nation, since=state.date)))
    return engine.log(state, power, "land.city-falls", f"the city of {area} falls to {captor}: its besieged forces starved "
                      f"(10.5.5, 000:1588)", area=area, captor=captor)


# ----------------------------------------------------------------- the end of movement


@dataclass(frozen=True)
class Supplied:
    """How the end of movement supplies one corps: depot supply paid, or foraging and why (000:1488, 000:1528)."""

    corps: str
    depot: bool
    #: Why it forages ("" for depot supply).
    why: str = ""
    #: The factors a 6 would cost it when it forages (0: no roll can cost it a factor).
    worst: int = 0


def supply_plan(state: GameState, power: str, ctx: RulesContext) -> tuple[list[Supplied], int]:
    """What the end of movement does for each corps of ``power`` still to be supplied (not besieged, not foraged
    yet), and the half-dollars its depot supply costs: the choices ``end_movement`` makes, made here so that a
    command can say them before the movement ends (no die is drawn)."""
    m = ctx.map
    todo = sorted(u.id for u in state.units.values() if needs_supply(state, power, u) and not besieged(state, m, u)
                  and not (state.land_moves.get(u.id) and (state.land_moves[u.id].foraged
                                                           or state.land_moves[u.id].placed_back)))
    treasury = state.powers[power].treasury
    paid_halves = 0
    plan = []
    for cid in todo:
        c = the_corps(state, cid)
        rec = state.land_moves.get(cid)
        cost = depot_cost_halves(state, ctx, power, c)
        worst = worst_case_loss(state, ctx, power, c)
        if cost is None:
            plan.append(Supplied(cid, False, f"no depot of {power}'s supply chain within {MAX_SUPPLY_DISTANCE} areas "
                                             "(10.5.2, 000:1530)", worst))
        elif rec is not None and rec.forced_march:
            plan.append(Supplied(cid, False, "it forced marched (000:1488)", worst))
        elif worst == 0 and not (rec is not None and rec.depot_supply):
            plan.append(Supplied(cid, False, "no roll can cost it a factor (Auto Forage, 000:1488)", 0))
        elif (paid_halves + cost + 1) // 2 <= treasury:
            paid_halves += cost
            plan.append(Supplied(cid, True))
        else:
            plan.append(Supplied(cid, False, f"the treasury (${treasury}) cannot pay its depot supply too (000:1528)",
                                 worst))
    return plan, paid_halves


def supply_preview(state: GameState, power: str, ctx: RulesContext) -> tuple[list[Supplied], int]:
    """``supply_plan`` as ``end_movement`` would make it now (its city depots tidied first; the besieged, who roll,
    are not in it)."""
    tidied = seasupply.tidy_city_depots(state.with_scratch(movement_over=True), ctx, power).state
    return supply_plan(tidied, power, ctx)


def depot_areas_for(state: GameState, power: str, ctx: RulesContext, corps_id: str) -> list[str]:
    """Areas where a depot placed now (10.3) would bring ``corps_id`` within depot supply (10.5.2), nearest
    first: what a power may do before its movement ends instead of foraging (000:1488). Only where the treasury left
    after the depot's $1 still pays that corps's depot supply (000:1528): a depot it cannot use is no choice."""
    from eiapbem.rules.land.depots import CreateDepot, apply_create, verify_create

    m = ctx.map
    c = the_corps(state, corps_id)
    near, frontier = [c.location.site], [c.location.site]
    for _ in range(MAX_SUPPLY_DISTANCE):  # nearest first, each ring by id
        frontier = sorted({b for a in frontier for b in m.land_neighbours(a)} - set(near))
        near += frontier
    out = []
    for area in near:
        try:
            verify_create(state, power, CreateDepot(area), ctx)
        except IllegalAction:
            continue
        after = apply_create(state, power, CreateDepot(area), ctx).state
        if depot_cost_halves(after, ctx, power, the_corps(after, corps_id)) is not None \
                and any(x.corps == corps_id and x.depot for x in supply_preview(after, power, ctx)[0]):
            out.append(area)
    return out


def end_movement(state: GameState, power: str, ctx: RulesContext) -> engine.Outcome:
    """Close ``power``'s movement for the slot and supply its forces (10.5; 11.0, 000:1606)."""
    m = ctx.map
    out = seasupply.tidy_city_depots(state.with_scratch(movement_over=True), ctx, power)  # 10.5.3 (000:1560-1562)
    state = out.state
    cities = sorted({u.location.site for u in state.units.values()
                     if isinstance(u, (Corps, Garrison)) and u.factors.total > 0 and besieged(state, m, u)
                     and relations.unit_power(state, u) == power})
    for area in cities:
        out = out.then(besieged_supply(out.state, ctx, power, area))
    plan, paid_halves = supply_plan(out.state, power, ctx)
    paid = [x.corps for x in plan if x.depot]
    for x in plan:
        if not x.depot:
            out = out.then(forage(out.state, ctx, power, x.corps))
    if paid:
        dollars = (paid_halves + 1) // 2  # 000:1528: any fraction rounded up
        st = out.state.with_power(power, treasury=out.state.powers[power].treasury - dollars)
        out = out.then(engine.log(st, power, "land.depot-supply",
                                  f"{power} pays ${dollars} for the depot supply of {', '.join(paid)} (10.5.2)",
                                  cost=dollars, corps=len(paid)))
    return out


# ----------------------------------------------------------------- candidates (engine.legal_actions)


def _forage_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[Forage]:
    yield from (Forage(uid) for uid, u in sorted(state.units.items()) if needs_supply(state, power, u))


def _supply_choice_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[SupplyChoice]:
    """Depot supply, or one factor type lost first (a longer order of losses is legal too, and not listed)."""
    for uid, u in sorted(state.units.items()):
        if isinstance(u, Corps) and needs_supply(state, power, u):
            yield SupplyChoice(uid, depot=True)
            yield from (SupplyChoice(uid, loss_order=(t,)) for t in FactorType if u.factors.get(t))


ACTIONS = ((Forage, verify_forage, apply_forage, _forage_candidates),
           (SupplyChoice, verify_supply_choice, apply_supply_choice, _supply_choice_candidates))
