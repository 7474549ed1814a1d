"""Orders about minor countries and money in the diplomacy phase.

- 6.1.4 "Attempt to Manipulate" (000:556-598): up to two attempts per power,
  one per minor; the powers' attempts are made in a random order (a 1-10 per
  attempting power, ``diplomacy/manipulate/order/<power>``, highest first,
  ties in the powers' fixed order), each seeing the results before it, so a
  later attempt may meet a rival's fresh influence (the two forms of
  ``minors.manipulate``); the investment leaves the treasury whatever the result;
- 6.1.5 "Downgrade Minor Diplomatic Status" (000:600-612);
- 6.8 "Create Free State" (000:846-850);
- 6.12 "Lend Money to Major Power" (000:866-870): the money leaves now and
  arrives in the next economic phase's lending step (``economy.lending``);
- 6.13 "Settle Peace with America" (000:872-878): -5 political points;
- 6.15 lapse of war with minor countries (000:882-884), automatic;
- 6.16 "Request Money" and "Request Unit" from an allied computer power, with
  the nuisance penalty; a unit granted is loaned to the asker for the rest of
  the month (7.6), so for the next land phase;
- 6.16 "Request an Attack" / "Request Defense": granted on the same roll as a
  unit, the ally's computer land plan (``ai/land.py``) sends its corps to the
  area in this month's land phase (``PowerState.military_requests``);
- 6.16 "Request Land": a minor country or ceded province the computer ally may
  cede (12.7, ``rules/cession.py``), granted on the same roll, held on
  ``PowerState.land_grants`` and ceded at the next economic phase.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Annotated, Any

from eiapbem.core.errors import IllegalAction
from eiapbem.rules.cession import check_cession
from eiapbem.rules.diplomacy import minors
from eiapbem.rules.diplomacy.common import Result, allied_minors_join, points, record_order, territory
from eiapbem.rules.diplomacy.common import name
from eiapbem.rules.politics import status_box
from eiapbem.rules.relations import allied, at_war, power_of
from eiapbem.rules.model import POWERS, Corps, Fleet, GameState, Garrison, LeaderStatus, LocationKind, MinorStatus, Record
from eiapbem.rules.model.base import OneOf
from eiapbem.rules.model.common import NationId, NonNeg, Positive, PowerId, Slug
from eiapbem.rules import engine, relations
from eiapbem.rules.candidates import amounts
from eiapbem.rules.diplomacy.sealing import orders_open
from eiapbem.rules.engine import RulesContext

#: 6.1.4: attempts a power may make in one diplomacy phase.
MAX_ATTEMPTS = 2


@dataclass(frozen=True, slots=True)
class Manipulate(Record):
    """Attempt to move a minor country one level of relations, spending money on it if neutral or yours (6.1.4)."""

    KIND = "diplomacy.manipulate"
    COMMAND = "manipulate"
    BUTTON = "Attempt to Manipulate"
    minor: Slug
    investment: NonNeg = 0


@dataclass(frozen=True, slots=True)
class Downgrade(Record):
    """Downgrade your influenced, allied, conquered or free-state minor country (6.1.5)."""

    KIND = "diplomacy.downgrade"
    COMMAND = "downgrade"
    BUTTON = "Downgrade Minor Diplomatic Status"
    minor: Slug


@dataclass(frozen=True, slots=True)
class CreateFreeState(Record):
    """Make one of your conquered minor countries a minor free state (6.8)."""

    KIND = "diplomacy.free-state"
    COMMAND = "free-state"
    BUTTON = "Create Free State"
    minor: Slug


@dataclass(frozen=True, slots=True)
class LendMoney(Record):
    """Give money to an ally or your free state; it leaves now and arrives at the next economic phase (6.12)."""

    KIND = "diplomacy.lend-money"
    COMMAND = "lend-money"
    BUTTON = "Lend Money to Major Power"
    to: NationId
    amount: Positive


@dataclass(frozen=True, slots=True)
class PeaceWithAmerica(Record):
    """Great Britain settles its war with the United States: -5 political points (6.13)."""

    KIND = "diplomacy.peace-with-america"
    COMMAND = "peace-with-america"
    BUTTON = "Settle Peace with America"


@dataclass(frozen=True, slots=True)
class RequestMoney(Record):
    """Ask an allied computer power for money; it arrives at the next economic phase if granted (6.16)."""

    KIND = "diplomacy.request-money"
    COMMAND = "request-money"
    BUTTON = "Request Money"
    ally: PowerId
    amount: Positive


@dataclass(frozen=True, slots=True)
class RequestUnit(Record):
    """Ask an allied computer power to lend you one of its corps, fleets or leaders for this month (6.16, 7.6)."""

    KIND = "diplomacy.request-unit"
    COMMAND = "request-unit"
    BUTTON = "Request Unit"
    ally: PowerId
    #: A corps, fleet or leader id of the ally, on the map (``eiapbem show units``).
    counter: str


@dataclass(frozen=True, slots=True)
class RequestAction(Record):
    """Ask an allied computer power to attack in or defend an area in this month's land phase (6.16)."""

    KIND = "diplomacy.request-action"
    COMMAND = "request-action"
    BUTTON = "Request an Attack / Request Defense"
    ally: PowerId
    #: A land area of the map (``eiapbem show map``).
    area: Slug
    action: Annotated[str, OneOf(("attack", "defend"))] = "attack"


@dataclass(frozen=True, slots=True)
class RequestLand(Record):
    """Ask an allied computer power for a minor country or ceded province of its, given at the next economic phase (6.16)."""

    KIND = "diplomacy.request-land"
    COMMAND = "request-land"
    BUTTON = "Request Land"
    ally: PowerId
    #: A minor country the ally controls or a province ceded to it.
    territory: Slug


#: 6.16 (the project's own numbers, docs/decisions.md): the share of its treasury an AI ally gives at most,
#: by level (percent).
AI_GIVES = {"ai-easy": 50, "ai-medium": 25, "ai-hard": 10}
#: 6.16 (the project's own numbers): a computer ally lends a unit asked for on a 1-10 at or under this, by level.
AI_LENDS = {"ai-easy": 5, "ai-medium": 3, "ai-hard": 1}

def _minor(state: GameState, slug: str):
    m = state.minors.get(slug)
    if m is None:
        raise IllegalAction(f"{slug!r} is not a minor country of this game (6.1)")
    if m.part_of is not None:
        raise IllegalAction(f"{name(slug)} is joined to {name(m.part_of)}; act on {name(m.part_of)} (13.6)")
    return m


def _enemy_forces_inside(state: GameState, ctx: RulesContext, power: str, slug: str) -> bool:
    areas = set(territory(state, ctx, slug))
    for u in state.units.values():
        if not isinstance(u, (Corps, Garrison)):  # forces are corps and garrisons; a depot has no nation
            continue
        loc = u.location
        if loc.kind not in (LocationKind.AREA, LocationKind.CITY) or loc.site not in areas:
            continue
        owner = power_of(state, u.nation)
        if owner is not None and owner != power and at_war(state, owner, power):
            return True
    return False


def can_have_corps(ctx: RulesContext, slug: str) -> bool:
    """A minor whose counter mix has corps (6.8: only those become free states)."""
    row = ctx.world.get("counters.json", {}).get("minors", {}).get(slug, {})
    return bool(row.get("corps"))


def _given(state: GameState, power: str) -> tuple[Any, ...]:
    return engine.given_orders(state, power)


def verify_manipulate(state: GameState, power: str, a: Manipulate, ctx: RulesContext) -> None:
    ps, mine = state.powers[power], _given(state, power)
    m = _minor(state, a.minor)
    tries = [o for o in mine if isinstance(o, Manipulate)]
    if len(tries) >= MAX_ATTEMPTS:
        raise IllegalAction(f"{name(power)} may attempt at most {MAX_ATTEMPTS} manipulations per diplomacy phase (6.1.4)")
    if any(o.minor == a.minor for o in tries):
        raise IllegalAction(f"{name(power)} already attempts a manipulation of {name(a.minor)} (one per minor, 6.1.4)")
    if m.status.value not in minors.MANIPULABLE:
        raise IllegalAction(f"{name(a.minor)} is {minors.describe_status(m.status.value)}; only neutral, influenced or allied minor countries "
                            f"can be manipulated (6.1.4)")
    if m.controller is not None and m.controller != power and allied(state, power, m.controller):
        raise IllegalAction(f"{name(a.minor)} has relations with {name(m.controller)}, an ally of {name(power)} (6.1.4)")
    if a.investment and m.controller not in (None, power):
        raise IllegalAction(f"money spent counts only on neutral minors or one's own influenced minors (6.1.4); "
                            f"spend nothing on {name(a.minor)}")
    spent = sum(o.investment for o in tries) + sum(o.amount for o in mine if isinstance(o, LendMoney))
    if a.investment + spent > ps.treasury:
        raise IllegalAction(f"{name(power)} has ${ps.treasury - spent} left, not ${a.investment} to invest (6.1.4)")


def verify_downgrade(state: GameState, power: str, a: Downgrade, ctx: RulesContext) -> None:
    m = _minor(state, a.minor)
    if m.controller != power or m.status is MinorStatus.NEUTRAL:
        raise IllegalAction(f"{name(a.minor)} has no relations with {name(power)} to downgrade (6.1.5)")
    if m.status is MinorStatus.CONQUERED and _enemy_forces_inside(state, ctx, power, a.minor):
        raise IllegalAction(f"enemy forces are inside {name(a.minor)}: no downgrade to neutral (6.1.5)")
    if m.status is MinorStatus.FREE_STATE and _has_corps(state, a.minor) and _enemy_forces_inside(state, ctx, power, a.minor):
        raise IllegalAction(f"enemy forces are inside {name(a.minor)}: a free state with corps goes neutral only "
                            f"without them (6.1.5)")


def verify_free_state(state: GameState, power: str, a: CreateFreeState, ctx: RulesContext) -> None:
    m = _minor(state, a.minor)
    if m.status is not MinorStatus.CONQUERED or m.controller != power:
        raise IllegalAction(f"{name(a.minor)} is not a conquered minor country of {name(power)} (6.8)")
    if not can_have_corps(ctx, a.minor):
        raise IllegalAction(f"{name(a.minor)} can have no corps, so it cannot be a free state (6.8)")


def verify_lend_money(state: GameState, power: str, a: LendMoney, ctx: RulesContext) -> None:
    ps, mine = state.powers[power], _given(state, power)
    if a.to == power:
        raise IllegalAction(f"{name(power)} cannot lend money to itself (6.12)")
    if a.to in POWERS:
        if a.to not in ps.alliances:
            raise IllegalAction(f"{name(power)} may give money only to an ally, and {name(a.to)} is not one (6.12)")
    else:
        m = state.minors.get(a.to)
        if m is None or m.status is not MinorStatus.FREE_STATE or m.controller != power:
            raise IllegalAction(f"{a.to!r} is neither an ally nor a minor free state of {name(power)} (6.12)")
    spent = sum(o.amount for o in mine if isinstance(o, LendMoney)) + sum(
        o.investment for o in mine if isinstance(o, Manipulate))
    if a.amount + spent > ps.treasury:
        raise IllegalAction(f"{name(power)} has ${ps.treasury - spent} left, not ${a.amount} (6.12)")


def verify_request_money(state: GameState, power: str, a: RequestMoney, ctx: RulesContext) -> None:
    _check_ai_ally(state, power, a.ally, human="who may lend money (6.12)")
    if any(isinstance(o, RequestMoney) and o.ally == a.ally for o in _given(state, power)):
        raise IllegalAction(f"{name(power)} already asks {name(a.ally)} for money in these orders (6.16)")


def verify_request_unit(state: GameState, power: str, a: RequestUnit, ctx: RulesContext) -> None:
    _check_ai_ally(state, power, a.ally)
    u = _requested_unit(state, a.ally, a.counter)
    if u is None:
        raise IllegalAction(f"{a.counter!r} is not a corps, fleet or leader of {name(a.ally)} on the map: ask for one "
                            f"'eiapbem show units' lists (6.16)")
    if u.loaned_to is not None:
        raise IllegalAction(f"{a.counter} is already loaned to {name(u.loaned_to)} this month (7.6)")
    if any(isinstance(o, RequestUnit) and o.counter == a.counter for o in _given(state, power)):
        raise IllegalAction(f"{name(power)} already asks for {a.counter} in these orders (6.16)")


def verify_request_action(state: GameState, power: str, a: RequestAction, ctx: RulesContext) -> None:
    _check_ai_ally(state, power, a.ally, human="who gives its own land orders")
    if a.area not in ctx.map.areas:
        raise IllegalAction(f"{a.area!r} is not a land area of the map: ask for an attack or defence of an area "
                            f"'eiapbem show map' lists (6.16)")
    if any(isinstance(o, RequestAction) and o.ally == a.ally for o in _given(state, power)):
        raise IllegalAction(f"{name(power)} already asks {name(a.ally)} for a military action in these orders "
                            f"(one per ally, 6.16)")


def verify_request_land(state: GameState, power: str, a: RequestLand, ctx: RulesContext) -> None:
    _check_ai_ally(state, power, a.ally, human="who may cede it in the economic phase (12.7)")
    try:
        check_cession(state, ctx, a.ally, a.territory, power)
    except IllegalAction as err:
        raise IllegalAction(f"{name(a.ally)} cannot give {a.territory}: {err} (6.16)") from None
    if a.territory in state.powers[a.ally].land_grants:
        raise IllegalAction(f"{name(a.ally)} already gives {a.territory} at the next economic phase (6.16)")
    if any(isinstance(o, RequestLand) and o.ally == a.ally for o in _given(state, power)):
        raise IllegalAction(f"{name(power)} already asks {name(a.ally)} for land in these orders (one per ally, 6.16)")


def verify_peace_with_america(state: GameState, power: str, a: PeaceWithAmerica, ctx: RulesContext) -> None:
    if power != "GB":
        raise IllegalAction("only Great Britain makes peace with America (6.13)")
    if not state.powers[power].war_with_america:
        raise IllegalAction("Great Britain is not at war with America (6.13)")
    if any(isinstance(o, PeaceWithAmerica) for o in _given(state, power)):
        raise IllegalAction("Great Britain already settles peace with America in these orders (6.13)")


def _check_ai_ally(state: GameState, power: str, ally: str, *, human: str = "who may lend units (7.6)") -> None:
    if ally == power or ally not in state.powers[power].alliances:
        raise IllegalAction(f"{name(ally)} is not an ally of {name(power)}: requests go to allied computer powers (6.16)")
    if state.powers[ally].controller.value not in AI_GIVES:
        raise IllegalAction(f"{name(ally)} is played by a human: ask its player, {human} (6.16)")


def _requested_unit(state: GameState, ally: str, uid: str) -> Any:
    """The ally's own corps, fleet or leader ``uid`` on the map, or None."""
    u: Any = state.leaders.get(uid)
    if u is not None:
        return u if u.power == ally and u.status is LeaderStatus.ON_MAP else None
    u = state.units.get(uid)
    if isinstance(u, (Corps, Fleet)) and u.nation == ally and u.location.kind is not LocationKind.POOL:
        return u
    return None


def _has_corps(state: GameState, slug: str) -> bool:
    return any(isinstance(u, Corps) and u.nation == slug and u.location.kind is not LocationKind.POOL
               for u in state.units.values())


# ----------------------------------------------------------------- candidates (engine.legal_actions)


def _left(state: GameState, power: str) -> int:
    """The treasury less the money this power's orders already spend."""
    mine = _given(state, power)
    spent = sum(o.amount for o in mine if isinstance(o, LendMoney)) + sum(o.investment for o in mine if isinstance(o, Manipulate))
    return state.powers[power].treasury - spent


def _ai_allies(state: GameState, power: str) -> list[str]:
    return [p for p in relations.allies(state, power) if state.powers[p].controller.value in AI_GIVES]


def _manipulate_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[Manipulate]:
    if orders_open(state, power):
        for slug in state.minors:
            yield from (Manipulate(slug, n) for n in (0,) + amounts(_left(state, power)))


def _downgrade_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[Downgrade]:
    if orders_open(state, power):
        yield from (Downgrade(slug) for slug, m in state.minors.items() if m.controller == power)


def _free_state_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[CreateFreeState]:
    if orders_open(state, power):
        yield from (CreateFreeState(slug) for slug, m in state.minors.items()
                    if m.controller == power and m.status is MinorStatus.CONQUERED)


def _lend_money_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[LendMoney]:
    if orders_open(state, power):
        for to in list(relations.allies(state, power)) + list(state.free_states(power)):
            yield from (LendMoney(to, n) for n in amounts(_left(state, power)))


def _peace_with_america_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[PeaceWithAmerica]:
    if orders_open(state, power) and power == "GB":
        yield PeaceWithAmerica()


def _request_money_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[RequestMoney]:
    if orders_open(state, power):
        for ally in _ai_allies(state, power):
            yield from (RequestMoney(ally, n) for n in amounts(max(1, state.powers[ally].treasury)))


def _request_unit_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[RequestUnit]:
    if orders_open(state, power):
        for ally in _ai_allies(state, power):
            units = [uid for uid, u in sorted(state.units.items()) if isinstance(u, (Corps, Fleet)) and u.nation == ally]
            leaders = [lid for lid, lead in sorted(state.leaders.items()) if lead.power == ally]
            yield from (RequestUnit(ally, uid) for uid in units + leaders)


def _request_action_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[RequestAction]:
    if orders_open(state, power):
        for ally in _ai_allies(state, power):
            for area in sorted(ctx.map.areas):
                yield from (RequestAction(ally, area, "attack"), RequestAction(ally, area, "defend"))


def _request_land_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[RequestLand]:
    if orders_open(state, power):
        for ally in _ai_allies(state, power):
            yield from (RequestLand(ally, t) for t in list(state.minors) + sorted(ctx.map.provinces))


#: The minor countries' and money orders with their rules, one unit per class.
ACTIONS = (
    (Manipulate, verify_manipulate, record_order, _manipulate_candidates),
    (Downgrade, verify_downgrade, record_order, _downgrade_candidates),
    (CreateFreeState, verify_free_state, record_order, _free_state_candidates),
    (LendMoney, verify_lend_money, record_order, _lend_money_candidates),
    (PeaceWithAmerica, verify_peace_with_america, record_order, _peace_with_america_candidates),
    (RequestMoney, verify_request_money, record_order, _request_money_candidates),
    (RequestUnit, verify_request_unit, record_order, _request_unit_candidates),
    (RequestAction, verify_request_action, record_order, _request_action_candidates),
    (RequestLand, verify_request_land, record_order, _request_land_candidates),
)


# ----------------------------------------------------------------- resolution


def lapse(r: Result) -> None:
    """6.15: a war on a minor lapses when the declarer has no corps inside it (unless the minor's forces are
    inside the declarer's territory)."""
    for p in POWERS:
        for slug in list(r.state.powers[p].minor_wars):
            if slug not in r.state.minors or r.state.powers[p].minor_wars[slug] == r.state.date:
                continue
            areas = set(territory(r.state, r.ctx, slug))
            mine = any(isinstance(u, Corps) and power_of(r.state, u.nation) == p
                       and u.location.kind in (LocationKind.AREA, LocationKind.CITY) and u.location.site in areas
                       for u in r.state.units.values())
            home = set(territory(r.state, r.ctx, p))
            theirs = any(getattr(u, "nation", None) == slug and getattr(u, "location", None) is not None
                         and u.location.kind in (LocationKind.AREA, LocationKind.CITY) and u.location.site in home
                         for u in r.state.units.values())
            if mine or theirs:
                continue
            ps = r.state.powers[p]
            r.state = r.state.with_power(p, minor_wars=ps.minor_wars.remove(slug))
            r.say(p, "diplomacy.lapse", f"{name(p)} has no corps in {name(slug)}: its war on {name(slug)} lapses (6.15)")


def _lend_money(r: Result, p: str, o: LendMoney) -> None:
    ps = r.state.powers[p]
    amount = min(o.amount, ps.treasury)
    r.state = r.state.with_power(p, treasury=ps.treasury - amount,
                                 loans=ps.loans.set(o.to, ps.loans.get(o.to, 0) + amount))
    r.say(p, "diplomacy.money", f"{name(p)} sends ${amount} to {name(o.to)}, to arrive at the next economic "
          f"phase (6.12)", amount=amount)


def _peace_with_america(r: Result, p: str, o: PeaceWithAmerica) -> None:
    if r.state.powers["GB"].war_with_america:
        r.state = r.state.with_power("GB", war_with_america=False)
        r.say("GB", "diplomacy.america", "Great Britain settles peace with America (6.13)")
        points(r, "GB", -5, "Great Britain settles peace with America (6.13)")


def money(r: Result, sheet: dict[str, list[Any]]) -> None:
    """6.12, 6.13 and 6.16, in the powers' fixed order: each order by its class's step (``_MONEY``)."""
    for p in POWERS:
        for o in sheet[p]:
            step = _MONEY.get(type(o))
            if step is not None:
                step(r, p, o)


def _request_money(r: Result, p: str, o: RequestMoney) -> None:
    """6.16: the computer ally gives up to its level's share of its treasury; each failed request after the first
    adds one to the toll, and a 1-10 at or under the toll costs -1 political point (the nuisance penalty)."""
    ally = r.state.powers[o.ally]
    share = ally.treasury * AI_GIVES.get(ally.controller.value, 0) // 100
    if o.ally in r.state.powers[p].alliances and o.amount <= share:
        r.state = r.state.with_power(o.ally, treasury=ally.treasury - o.amount,
                                     loans=ally.loans.set(p, ally.loans.get(p, 0) + o.amount))
        r.say(p, "diplomacy.request", f"{name(o.ally)} grants {name(p)}'s request for ${o.amount}, to arrive at the next "
              f"economic phase (6.16)")
        return
    r.say(p, "diplomacy.request", f"{name(o.ally)} refuses {name(p)}'s request for ${o.amount} (6.16)")
    _nuisance(r, p)


def _request_unit(r: Result, p: str, o: RequestUnit) -> None:
    """6.16, 7.6: the computer ally lends the unit on a 1-10 at or under its level's ``AI_LENDS``, unless enemy corps
    stand unbesieged in its home nation (it keeps its forces for itself then); a loan lasts the rest of the month."""
    from eiapbem.rules.diplomacy.war import enemy_corps_at_home

    ally = r.state.powers[o.ally]
    u = _requested_unit(r.state, o.ally, o.counter)
    if o.ally in r.state.powers[p].alliances and u is not None and u.loaned_to is None:
        if enemy_corps_at_home(r.state, r.ctx, o.ally):
            why = f"enemy corps stand in {name(o.ally)}"
        else:
            agreed, why = _ally_roll(r, ally, f"diplomacy/request-unit/{p}/{o.counter}")
            if agreed:
                lent = u.replace(loaned_to=p)
                r.state = r.state.with_leader(lent) if o.counter in r.state.leaders else r.state.with_unit(lent)
                r.say(p, "diplomacy.request", f"{name(o.ally)} lends {o.counter} to {name(p)} for the rest of the month "
                      f"({why}) (6.16, 7.6)", unit=o.counter)
                return
    else:
        why = "the unit cannot be lent now"
    r.say(p, "diplomacy.request", f"{name(o.ally)} refuses {name(p)}'s request for {o.counter} ({why}) (6.16)")
    _nuisance(r, p)


def _request_action(r: Result, p: str, o: RequestAction) -> None:
    """6.16: the computer ally grants an attack or a defence of the area on a 1-10 at or under its level's
    ``AI_LENDS`` (the unit's numbers), unless enemy corps stand unbesieged in its home nation; its land plan then
    sends its corps there in this month's land phase."""
    from eiapbem.rules.diplomacy.war import enemy_corps_at_home

    ally = r.state.powers[o.ally]
    what = ("an attack on " if o.action == "attack" else "the defence of ") + r.ctx.map.areas[o.area].name
    if o.ally not in r.state.powers[p].alliances:
        why = f"{name(o.ally)} is no longer an ally"
    elif enemy_corps_at_home(r.state, r.ctx, o.ally):
        why = f"enemy corps stand in {name(o.ally)}"
    else:
        agreed, why = _ally_roll(r, ally, f"diplomacy/request-action/{p}/{o.area}")
        if agreed:
            r.state = r.state.with_power(o.ally, military_requests=ally.military_requests.set(o.area, o.action))
            r.say(p, "diplomacy.request", f"{name(o.ally)} grants {name(p)}'s request for {what} in "
                  f"this month's land phase ({why}) (6.16)", area=o.area)
            return
    r.say(p, "diplomacy.request", f"{name(o.ally)} refuses {name(p)}'s request for {what} ({why}) (6.16)")
    _nuisance(r, p)


def _request_land(r: Result, p: str, o: RequestLand) -> None:
    """6.16: the computer ally grants the territory on a 1-10 at or under its level's ``AI_LENDS``, unless enemy
    corps stand unbesieged in its home nation; the grant is ceded at the next economic phase (12.7 step)."""
    from eiapbem.rules.diplomacy.war import enemy_corps_at_home

    ally = r.state.powers[o.ally]
    try:
        check_cession(r.state, r.ctx, o.ally, o.territory, p)
        why = f"enemy corps stand in {name(o.ally)}" if enemy_corps_at_home(r.state, r.ctx, o.ally) else ""
    except IllegalAction as err:
        why = str(err)
    if not why:
        agreed, why = _ally_roll(r, ally, f"diplomacy/request-land/{p}/{o.territory}")
        if agreed:
            r.state = r.state.with_power(o.ally, land_grants=ally.land_grants.set(o.territory, p))
            r.say(p, "diplomacy.request", f"{name(o.ally)} grants {name(p)}'s request for {o.territory}, to be given at "
                  f"the next economic phase ({why}) (6.16)", territory=o.territory)
            return
    r.say(p, "diplomacy.request", f"{name(o.ally)} refuses {name(p)}'s request for {o.territory} ({why}) (6.16)")
    _nuisance(r, p)


def _ally_roll(r: Result, ally: Any, label: str) -> tuple[bool, str]:
    """6.16: the computer ally's 1-10 (labelled ``label``) against its level's ``AI_LENDS``; whether it agrees, and
    the roll as the log says it ("4, 5 or less needed")."""
    roll = r.ctx.dice.d10(label)
    need = AI_LENDS.get(ally.controller.value, 0)
    return roll <= need, f"{roll}, {need} or less needed"


def _nuisance(r: Result, p: str) -> None:
    """6.16: each failed request after the first adds one to the toll; a 1-10 at or under it costs -1."""
    failed = r.state.powers[p].failed_ai_requests + 1
    r.state = r.state.with_power(p, failed_ai_requests=failed)
    if failed > 1:
        toll = failed - 1
        roll = r.ctx.dice.d10(f"diplomacy/nuisance/{p}/{failed}")
        if roll <= toll:
            points(r, p, -1, f"{name(p)}'s requests to its computer allies are a nuisance ({roll} against a toll of {toll}) (6.16)")


def _downgrade(r: Result, p: str, o: Downgrade) -> None:
    m = r.state.minors[o.minor]
    if m.controller != p:
        return
    if m.status is MinorStatus.INFLUENCED or m.status is MinorStatus.ALLIED:
        r.state = r.state.with_minor(o.minor, m.replace(status=MinorStatus.NEUTRAL, controller=None))
        r.say(p, "diplomacy.downgrade", f"{name(p)} gives up its relations with {name(o.minor)}: neutral (6.1.5)")
    elif m.status is MinorStatus.FREE_STATE and not _has_corps(r.state, o.minor):
        r.state = r.state.with_minor(o.minor, m.replace(status=MinorStatus.CONQUERED))
        r.say(p, "diplomacy.downgrade", f"{name(p)} makes the free state {name(o.minor)} conquered (6.1.5)")
    else:
        r.state = r.state.with_minor(o.minor, m.replace(status=MinorStatus.NEUTRAL, controller=None))
        r.say(p, "diplomacy.downgrade", f"{name(p)} returns {name(o.minor)} to neutral (6.1.5)")
        if m.status is MinorStatus.CONQUERED:
            points(r, p, -2, f"{name(p)} downgrades the conquered {name(o.minor)} to neutral (6.1.5)")


def _free_state(r: Result, p: str, o: CreateFreeState) -> None:
    m = r.state.minors[o.minor]
    if m.status is MinorStatus.CONQUERED and m.controller == p:
        # 13.6.3 (000:2602): its secondary districts become conquered minors of their own, for good.
        minors = r.state.minors.set(o.minor, m.replace(status=MinorStatus.FREE_STATE, setup_due=True, districts=()))
        for d in m.districts:
            minors = minors.set(d, minors[d].replace(status=MinorStatus.CONQUERED, controller=p, part_of=None))
        r.state = r.state.replace(minors=minors)
        r.say(p, "diplomacy.free-state", f"{name(p)} makes {name(o.minor)} a minor free state; its forces "
              f"are set up in the reinforcement phase (6.8)")
        for d in m.districts:
            r.say(p, "diplomacy.free-state", f"{name(d)} leaves {name(o.minor)}: a conquered minor country of "
                  f"{name(p)} on its own (13.6.3)")


def downgrades(r: Result, sheet: dict[str, list[Any]]) -> None:
    """6.1.5 and 6.8 in the powers' fixed order: each order by its class's step (``_DOWNGRADES``)."""
    for p in POWERS:
        for o in sheet[p]:
            step = _DOWNGRADES.get(type(o))
            if step is not None:
                step(r, p, o)


def manipulations(r: Result, sheet: dict[str, list]) -> None:
    """6.1.4: every attempt, the powers in a random order, each on the state the earlier ones left."""
    trying = [p for p in POWERS if any(isinstance(o, Manipulate) for o in sheet[p])]
    if not trying:
        return
    order_roll = {p: r.ctx.dice.d10(f"diplomacy/manipulate/order/{p}") for p in trying} if len(trying) > 1 else {}
    order = sorted(trying, key=lambda p: (-order_roll.get(p, 0), POWERS.index(p)))
    zones = {p: status_box(r.ctx, r.state.powers[p].political_status)["zone"] for p in POWERS}
    for p in order:
        for o in sheet[p]:
            if not isinstance(o, Manipulate):
                continue
            m = r.state.minors[o.minor]
            ps = r.state.powers[p]
            spend = min(o.investment, ps.treasury)
            r.state = r.state.with_power(p, treasury=ps.treasury - spend)
            try:
                res = minors.manipulate(o.minor, p, m.status.value, m.controller, r.ctx.dice, zones=zones,
                                        investment=spend if m.controller in (None, p) else 0,
                                        allies=tuple(sorted(r.state.powers[p].alliances)))
            except IllegalAction as err:
                r.say(p, "diplomacy.manipulate", f"{name(p)}'s manipulation of {name(o.minor)} is not made: {err}")
                continue
            r.say(p, "diplomacy.manipulate",
                  f"{name(p)} manipulates {name(o.minor)}: {res.attempt_total} against {res.resist_total}, difference "
                  f"{res.difference}, {res.required} needed: {'success' if res.success else 'failure'}, "
                  f"{name(o.minor)} {res.status}" + (f" ({name(res.holder)})" if res.holder else "") + " (6.1.4)",
                  minor=o.minor, success=res.success)
            if res.success:
                status = MinorStatus(res.status)
                r.state = r.state.with_minor(o.minor, m.replace(status=status, controller=res.holder))
                if status is MinorStatus.ALLIED and res.holder is not None:  # 6.1.3: it shares its ally's wars
                    allied_minors_join(r, res.holder, relations.enemies(r.state, res.holder), now_allied=o.minor)


#: The resolution's step for each order of 6.12, 6.13 and 6.16 (``money``), and of 6.1.5 and 6.8 (``downgrades``).
_MONEY: dict[type[Any], Callable[[Result, str, Any], None]] = {
    LendMoney: _lend_money, RequestMoney: _request_money, RequestUnit: _request_unit, RequestAction: _request_action,
    RequestLand: _request_land, PeaceWithAmerica: _peace_with_america,
}
_DOWNGRADES: dict[type[Any], Callable[[Result, str, Any], None]] = {Downgrade: _downgrade, CreateFreeState: _free_state}


__all__ = ["ACTIONS", "CreateFreeState", "Downgrade", "LendMoney", "Manipulate", "PeaceWithAmerica", "RequestAction", "RequestLand", "RequestMoney", "RequestUnit",
           "downgrades", "lapse", "manipulations", "money"]
