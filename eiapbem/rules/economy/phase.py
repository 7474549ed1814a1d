"""The economic phase as one simultaneous slot (12.0, 000:2026-2350; 003:54-66).

Every power's choices are actions of ``Phase.ECONOMIC``: each is written on
the order sheet (``GameState.order_sheet``, the one sheet of every simultaneous
phase, cleared by the sequence), so ``engine.check_orders`` sees earlier orders
of the same file; ``resolve`` then runs the steps of 12.0 in the manual's order
for all powers with every power's orders (``orders_of`` reads one power's off
the sheet) and the dice of the resolving file:

A. victory points (12.1)          F. political status adjustment (12.6)
B. money and manpower (12.2)      G. civil disorder (12.2.2)
C. lending (12.3)                 H. ceding (12.7)
D. manipulation (12.4)            I. kingdoms (12.8)
E. expenditure (12.5)             J. levy (12.9)

(Step K of the chart sheet, 003:66, is the board game's unassigned-minor step;
the computer game has none.)  What an order cannot know before the phase is
resolved (the money left after an economic loss roll) is settled then: an
unaffordable purchase is not made and the ledger says so.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Annotated, Any

from eiapbem.core.errors import IllegalAction
from eiapbem.rules import engine, relations, skips
from eiapbem.rules.economy import ceding, collection, expenditure, kingdoms, lending, levy, manipulation, status, victory
from eiapbem.rules.economy.common import EconomicOrders, Work
from eiapbem.rules.relations import at_war
from eiapbem.rules.candidates import amounts
from eiapbem.rules.forces import feudal_province
from eiapbem.rules.model import (POWERS, Corps, CorpsType, FactorType, Fleet, GameState, LeaderStatus, LocationKind, LogEntry,
                                 Phase, Purchase, Record, ShipType)
from eiapbem.rules.model.base import FrozenMap, OneOf
from eiapbem.rules.model.common import NationId, Positive, PowerId, Slug
from eiapbem.rules.model.units import CorpsId, LeaderId, UnitId
from eiapbem.rules.engine import RulesContext

ARMY_ITEMS = (FactorType.INFANTRY.value, FactorType.MILITIA.value, FactorType.CAVALRY.value,
              FactorType.GUARD.value, FactorType.ARTILLERY.value)
SHIP_ITEMS = (ShipType.HEAVY.value, ShipType.LIGHT.value, ShipType.TRANSPORT.value)


# ----------------------------------------------------------------- actions


@dataclass(frozen=True, slots=True)
class BuyArmy(Record):
    """Buy army factors for the power or one of its minor free states (12.5.3)."""

    KIND = "economic.buy-army"
    COMMAND = "buy-army"
    BUTTON = "Build Land Forces"
    item: Annotated[str, OneOf(ARMY_ITEMS)]
    count: Positive
    nation: NationId | None = None


@dataclass(frozen=True, slots=True)
class BuyShips(Record):
    """Buy ships to be built in a chosen port (12.5.3)."""

    KIND = "economic.buy-ships"
    COMMAND = "buy-ships"
    BUTTON = "Build Ships"
    item: Annotated[str, OneOf(SHIP_ITEMS)]
    count: Positive
    port: Slug
    nation: NationId | None = None


@dataclass(frozen=True, slots=True)
class BuyCounter(Record):
    """Buy a corps or fleet counter from the counter pool, to be placed within three months (12.5.4)."""

    KIND = "economic.buy-counter"
    COMMAND = "buy-counter"
    BUTTON = "Counter Pool"
    unit: UnitId


@dataclass(frozen=True, slots=True)
class GiveMoney(Record):
    """Give money to an ally or to one of your minor free states in the lending step (12.3)."""

    KIND = "economic.give-money"
    COMMAND = "give-money"
    BUTTON = "Give Money"
    to: NationId
    amount: Positive


@dataclass(frozen=True, slots=True)
class PayDebt(Record):
    """Pay an informal debt to another power (12.5.2)."""

    KIND = "economic.pay-debt"
    COMMAND = "pay-debt"
    BUTTON = "Pay Debt"
    to: PowerId
    amount: Positive


@dataclass(frozen=True, slots=True)
class DeductVictoryPoints(Record):
    """Great Britain: use up to a third of this quarter's victory points against one enemy (12.1.2)."""

    KIND = "economic.deduct-vp"
    COMMAND = "deduct-vp"
    BUTTON = "Deduct VP"
    target: PowerId
    points: Positive


@dataclass(frozen=True, slots=True)
class StopUsaTrade(Record):
    """Great Britain: stop an enemy's American trade, risking war with the USA (12.2.1)."""

    KIND = "economic.stop-usa-trade"
    COMMAND = "stop-usa-trade"
    BUTTON = "Stop USA Trade"
    target: PowerId


@dataclass(frozen=True, slots=True)
class SetManipulation(Record):
    """Set the economic manipulation display for the next economic phase (optional, 12.4.3)."""

    KIND = "economic.set-manipulation"
    COMMAND = "set-manipulation"
    BUTTON = "Economic Manipulation"
    square: int


@dataclass(frozen=True, slots=True)
class ReturnLeader(Record):
    """Drop political points to bring back a leader removed by peace condition C.6 (12.4.2, 13.8.3)."""

    KIND = "economic.return-leader"
    COMMAND = "return-leader"
    BUTTON = "Return Leader"
    leader: LeaderId


@dataclass(frozen=True, slots=True)
class Cede(Record):
    """Cede one controlled minor country or ceded province to an ally (12.7)."""

    KIND = "economic.cede"
    COMMAND = "cede"
    BUTTON = "Cede Province or Minor Country"
    territory: Slug
    to: PowerId


@dataclass(frozen=True, slots=True)
class CreateKingdom(Record):
    """Create the Confederation of the Rhine, Poland or the Ottoman Empire (12.8)."""

    KIND = "economic.create-kingdom"
    COMMAND = "create-kingdom"
    BUTTON = "Create Kingdom"
    kingdom: Annotated[str, OneOf(kingdoms.KINGDOMS)]


@dataclass(frozen=True, slots=True)
class PlaceLevy(Record):
    """Place a cossack or freikorps, or raise a feudal corps in December (12.9, 13.2)."""

    KIND = "economic.place-levy"
    COMMAND = "place-levy"
    BUTTON = "Raise Feudal Unit"
    corps: CorpsId
    area: Slug


@dataclass(frozen=True, slots=True)
class RemoveLevy(Record):
    """Remove a cossack or freikorps from the map (12.9, 13.2.2)."""

    KIND = "economic.remove-levy"
    COMMAND = "remove-levy"
    BUTTON = "Remove Special Unit"
    corps: CorpsId


def _purchase(power: str, a: BuyArmy | BuyShips) -> Purchase:
    return Purchase(nation=a.nation or power, item=a.item, count=a.count, port=getattr(a, "port", None))


def _gather_purchase(o: EconomicOrders, power: str, a: BuyArmy | BuyShips) -> EconomicOrders:
    return replace(o, purchases=o.purchases + (_purchase(power, a),))


def _gather_counter(o: EconomicOrders, power: str, a: BuyCounter) -> EconomicOrders:
    return replace(o, counters=o.counters + (a.unit,))


def _gather_gift(o: EconomicOrders, power: str, a: GiveMoney) -> EconomicOrders:
    return replace(o, gifts=o.gifts.set(a.to, o.gifts.get(a.to, 0) + a.amount))


def _gather_debt(o: EconomicOrders, power: str, a: PayDebt) -> EconomicOrders:
    return replace(o, debts_paid=o.debts_paid.set(a.to, o.debts_paid.get(a.to, 0) + a.amount))


def _gather_deduction(o: EconomicOrders, power: str, a: DeductVictoryPoints) -> EconomicOrders:
    return replace(o, vp_deduction_target=a.target, vp_deduction=a.points)


def _gather_stop_trade(o: EconomicOrders, power: str, a: StopUsaTrade) -> EconomicOrders:
    return replace(o, stop_usa_trade=tuple(sorted(set(o.stop_usa_trade) | {a.target})))


def _gather_manipulation(o: EconomicOrders, power: str, a: SetManipulation) -> EconomicOrders:
    return replace(o, next_manipulation=a.square)


def _gather_return_leader(o: EconomicOrders, power: str, a: ReturnLeader) -> EconomicOrders:
    return replace(o, return_leaders=tuple(sorted(set(o.return_leaders) | {a.leader})))


def _gather_cede(o: EconomicOrders, power: str, a: Cede) -> EconomicOrders:
    return replace(o, cede_territory=a.territory, cede_to=a.to)


def _gather_kingdom(o: EconomicOrders, power: str, a: CreateKingdom) -> EconomicOrders:
    return replace(o, kingdoms=tuple(sorted(set(o.kingdoms) | {a.kingdom})))


def _gather_place_levy(o: EconomicOrders, power: str, a: PlaceLevy) -> EconomicOrders:
    return replace(o, levy_place=o.levy_place.set(a.corps, a.area))


def _gather_remove_levy(o: EconomicOrders, power: str, a: RemoveLevy) -> EconomicOrders:
    return replace(o, levy_remove=tuple(sorted(set(o.levy_remove) | {a.corps})))


#: How each order adds to a power's ``EconomicOrders`` (one entry per order class).
_GATHER: dict[type, Any] = {
    BuyArmy: _gather_purchase, BuyShips: _gather_purchase, BuyCounter: _gather_counter, GiveMoney: _gather_gift,
    PayDebt: _gather_debt, DeductVictoryPoints: _gather_deduction, StopUsaTrade: _gather_stop_trade,
    SetManipulation: _gather_manipulation, ReturnLeader: _gather_return_leader, Cede: _gather_cede,
    CreateKingdom: _gather_kingdom, PlaceLevy: _gather_place_levy, RemoveLevy: _gather_remove_levy,
}


def orders_of(state: GameState, power: str) -> EconomicOrders:
    """``power``'s economic orders on the order sheet, gathered for the steps of 12.0.

    Purchases and counters keep the order given (they are paid in it, 12.5.3-12.5.4); money to one
    recipient adds up; sets (kingdoms, leaders, levies removed, stopped trade) are sorted.
    """
    o = EconomicOrders()
    for a in engine.given_orders(state, power):
        gather = _GATHER.get(type(a))
        if gather is not None:
            o = gather(o, power, a)
    return o


def _verify_purchase(state: GameState, power: str, a: BuyArmy | BuyShips, ctx: RulesContext) -> None:
    expenditure.check_purchase_order(state, ctx, power, _purchase(power, a))


def _verify_counter(state: GameState, power: str, a: BuyCounter, ctx: RulesContext) -> None:
    if a.unit in orders_of(state, power).counters:
        raise IllegalAction(f"counter {a.unit} is already bought in these orders")
    expenditure.check_counter(state, power, a.unit)


def _verify_gift(state: GameState, power: str, a: GiveMoney, ctx: RulesContext) -> None:
    lending.check_recipient(state, power, a.to)


def _verify_debt(state: GameState, power: str, a: PayDebt, ctx: RulesContext) -> None:
    if a.to == power:
        raise IllegalAction(f"{power} cannot pay a debt to itself")


def _verify_deduction(state: GameState, power: str, a: DeductVictoryPoints, ctx: RulesContext) -> None:
    if power != "GB":
        raise IllegalAction("only Great Britain may deduct victory points (12.1.2)")
    if orders_of(state, power).vp_deduction_target is not None:
        raise IllegalAction("Great Britain deducts victory points from ONE power per quarter (12.1.2)")
    victory.check_deduction(state, ctx, a.target, a.points)


def _verify_stop_trade(state: GameState, power: str, a: StopUsaTrade, ctx: RulesContext) -> None:
    if power != "GB":
        raise IllegalAction("only Great Britain may stop American trade (12.2.1)")
    if not at_war(state, "GB", a.target):
        raise IllegalAction(f"Great Britain may stop the American trade only of a power it is at war with, not {a.target}")
    if state.powers["GB"].war_with_america:
        raise IllegalAction("Great Britain is at war with the USA: nobody trades with America")


def _verify_manipulation(state: GameState, power: str, a: SetManipulation, ctx: RulesContext) -> None:
    manipulation.check_setting(state, ctx, a.square)


def _verify_return_leader(state: GameState, power: str, a: ReturnLeader, ctx: RulesContext) -> None:
    leader = state.leaders.get(a.leader)
    if leader is None or leader.power != power or leader.status is not LeaderStatus.REMOVED:
        raise IllegalAction(f"{a.leader!r} is not a removed leader of {power} (13.8.3)")


def _verify_cede(state: GameState, power: str, a: Cede, ctx: RulesContext) -> None:
    econ = orders_of(state, power)
    if econ.cede_territory is not None:
        raise IllegalAction(f"{power} already cedes {econ.cede_territory}; one territory per economic phase (12.7)")
    ceding.check_cession(state, ctx, power, a.territory, a.to)


def _verify_kingdom(state: GameState, power: str, a: CreateKingdom, ctx: RulesContext) -> None:
    kingdoms.check_creation(state, ctx, power, a.kingdom)


def _verify_place_levy(state: GameState, power: str, a: PlaceLevy, ctx: RulesContext) -> None:
    econ = orders_of(state, power)
    if a.corps in econ.levy_place:
        raise IllegalAction(f"{a.corps} is already placed in these orders")
    if a.corps in econ.levy_remove:
        raise IllegalAction(f"{a.corps} is removed in these orders and may come back only at a later phase (13.2.2)")
    levy.check_place(state, ctx, power, a.corps, a.area)


def _verify_remove_levy(state: GameState, power: str, a: RemoveLevy, ctx: RulesContext) -> None:
    levy.check_remove(state, power, a.corps)


def _apply(state: GameState, power: str, a: Any, ctx: RulesContext) -> engine.Outcome:
    """An order is written on the sheet; it takes effect when the phase is resolved (``resolve``)."""
    return engine.Outcome(engine.record_order(state, power, a))


# ----------------------------------------------------------------- candidates (engine.legal_actions)
# A purchase is listed with a count of one: any count is a legal order, and what cannot be paid is not made
# when the phase is resolved (12.5.3).


def _buyers(state: GameState, power: str) -> tuple[str | None, ...]:
    return (None,) + state.free_states(power)


def _money_amounts(state: GameState, power: str) -> tuple[int, ...]:
    return amounts(state.powers[power].treasury)


def _buy_army_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[BuyArmy]:
    for nation in _buyers(state, power):
        yield from (BuyArmy(item, 1, nation) for item in ARMY_ITEMS)


def _buy_ships_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[BuyShips]:
    m = ctx.map
    ports = [a for a, ar in sorted(m.areas.items()) if ar.port is not None and ar.port.shipbuilding]
    for nation in _buyers(state, power):
        for item in SHIP_ITEMS:
            yield from (BuyShips(item, 1, port, nation) for port in ports)


def _buy_counter_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[BuyCounter]:
    yield from (BuyCounter(uid) for uid, u in sorted(state.units.items()) if isinstance(u, (Corps, Fleet))
                and u.location.kind is LocationKind.POOL and u.nation in (power,) + state.free_states(power))


def _gift_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[GiveMoney]:
    for to in list(relations.allies(state, power)) + list(state.free_states(power)):
        yield from (GiveMoney(to, n) for n in _money_amounts(state, power))


def _debt_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[PayDebt]:
    for to in (p for p in POWERS if p != power):
        yield from (PayDebt(to, n) for n in _money_amounts(state, power))


def _deduction_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[DeductVictoryPoints]:
    if power == "GB":
        most = victory.max_deduction(victory.tally_points(ctx, state.powers["GB"].political_status))
        for target in (p for p in POWERS if p != power):
            yield from (DeductVictoryPoints(target, n) for n in amounts(most))


def _stop_trade_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[StopUsaTrade]:
    if power == "GB":
        yield from (StopUsaTrade(p) for p in POWERS if p != power)


def _manipulation_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[SetManipulation]:
    if state.options.economic_manipulation:
        yield from (SetManipulation(n) for n in manipulation.squares(ctx))


def _return_leader_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[ReturnLeader]:
    yield from (ReturnLeader(lid) for lid, lead in sorted(state.leaders.items())
                if lead.power == power and lead.status is LeaderStatus.REMOVED)


def _cede_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[Cede]:
    for to in relations.allies(state, power):
        yield from (Cede(t, to) for t in list(state.minors) + sorted(ctx.map.provinces))


def _kingdom_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[CreateKingdom]:
    yield from (CreateKingdom(k) for k in kingdoms.KINGDOMS)


def _place_levy_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[PlaceLevy]:
    m = ctx.map
    cossack_areas = [a for p in levy.cossack_provinces(ctx) for a in m.areas_of_province(p)]
    for uid, u in sorted(state.units.items()):
        if not isinstance(u, Corps) or u.nation != power:
            continue
        if u.corps_type is CorpsType.COSSACK:
            yield from (PlaceLevy(uid, a) for a in cossack_areas)
        elif u.corps_type is CorpsType.FREIKORPS and power in levy.FREIKORPS:
            yield PlaceLevy(uid, levy.FREIKORPS[power][1])
        elif u.corps_type is CorpsType.FEUDAL:
            origin = feudal_province(ctx, uid)
            if origin is not None:
                yield from (PlaceLevy(uid, a) for a in m.areas_of_province(origin))


def _remove_levy_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[RemoveLevy]:
    yield from (RemoveLevy(uid) for uid, u in sorted(state.units.items()) if isinstance(u, Corps) and u.nation == power
                and u.corps_type in (CorpsType.COSSACK, CorpsType.FREIKORPS) and u.location.kind is not LocationKind.POOL)


# ----------------------------------------------------------------- resolution


#: Each economic order with its own check and candidates, registered as a unit; every order is applied alike,
#: written on the sheet.
ACTIONS = (
    (BuyArmy, _verify_purchase, _apply, _buy_army_candidates),
    (BuyShips, _verify_purchase, _apply, _buy_ships_candidates),
    (BuyCounter, _verify_counter, _apply, _buy_counter_candidates),
    (GiveMoney, _verify_gift, _apply, _gift_candidates),
    (PayDebt, _verify_debt, _apply, _debt_candidates),
    (DeductVictoryPoints, _verify_deduction, _apply, _deduction_candidates),
    (StopUsaTrade, _verify_stop_trade, _apply, _stop_trade_candidates),
    (SetManipulation, _verify_manipulation, _apply, _manipulation_candidates),
    (ReturnLeader, _verify_return_leader, _apply, _return_leader_candidates),
    (Cede, _verify_cede, _apply, _cede_candidates),
    (CreateKingdom, _verify_kingdom, _apply, _kingdom_candidates),
    (PlaceLevy, _verify_place_levy, _apply, _place_levy_candidates),
    (RemoveLevy, _verify_remove_levy, _apply, _remove_levy_candidates),
)
_CHECKS: dict[type, Any] = {unit[0]: unit[1] for unit in ACTIONS}


#: Steps A-J of 12.0 in the manual's order (003:54-66).
STEPS = (victory.tally, collection.collect, lending.lend, manipulation.manipulate, expenditure.spend,
         status.adjust, status.civil_disorder, ceding.cede, kingdoms.combine, levy.levy)


def run_steps(state: GameState, ctx: RulesContext) -> Work:
    """Steps A-J of 12.0 over a state whose order sheet holds the orders; returns the work
    (final state, its sheet still holding the orders the sequence clears, and the ledger)."""
    w = Work(state, ctx, sheet={p: orders_of(state, p) for p in POWERS})
    for slug, m in state.minors.items():
        if m.treasury or m.manpower:
            w.fund_money[slug] = m.treasury
            w.fund_manpower[slug] = m.manpower
    for step in STEPS:
        w.flush()
        step(w)
    w.flush()
    # 8.9 / 12.2.1: the months on piracy are counted per quarter.
    for uid, u in sorted(w.state.units.items()):
        if isinstance(u, Fleet) and u.piracy_months:
            w.state = w.state.with_unit(u.replace(piracy_months=0))
    # 12.5.5: free states keep nothing; the money left in a fund was written off in step E.
    minors = w.state.minors
    for slug, m in minors.items():
        if m.treasury or m.manpower:
            minors = minors.set(slug, m.replace(treasury=0, manpower=0))
    w.state = w.state.replace(minors=minors)
    return w


def with_orders(state: GameState, orders: Mapping[str, Sequence[Any]], ctx: RulesContext) -> GameState:
    """Write every power's orders on the order sheet (each order checked), in the fixed order of the powers."""
    for p in POWERS:
        for a in orders.get(p, ()):
            if getattr(type(a), "IMMEDIATE", False):  # takes effect as given (next month's sealed diplomacy orders)
                state = engine.apply_action(state, p, a, ctx).state
                continue
            verify = _CHECKS.get(type(a))
            if verify is not None:  # an order of another kind is checked by its own rules when taken
                verify(state, p, a, ctx)
            state = _apply(state, p, a, ctx).state
    return state


def _summary_params(p: str, income: int, spent: int, ps: Any) -> dict[str, int | str]:
    return {"power": p, "income": income, "spent": spent, "treasury": ps.treasury, "manpower": ps.manpower,
            "status": ps.political_status, "vp": ps.victory_points}


def resolve(state: GameState, orders: Mapping[str, Sequence[Any]], ctx: RulesContext) -> engine.Outcome:
    """The ``resolve`` hook of the economic slot."""
    w = run_steps(with_orders(state, orders, ctx), ctx)
    settled = skips.settle(w.state)  # 13.9 settings given among the orders (for next month's phases)
    new = settled.state  # the orders on the sheet are spent: the sequence clears it as play moves on
    events = list(settled.events)
    key = state.slot.key(state.date) if state.slot is not None else f"{state.date}/economic/orders/all"
    for p in POWERS:
        mine = [ln for ln in w.ledger.lines if ln.power == p and ln.fund == p]
        income = sum(ln.money for ln in mine if ln.money > 0)
        spent = -sum(ln.money for ln in mine if ln.money < 0)
        vp = sum(ln.vp for ln in w.ledger.lines if ln.power == p and ln.fund == p)
        ps = new.powers[p]
        entry = LogEntry(
            slot=key, author="game", kind="economy.summary",
            text=(f"{p}: +${income} -${spent}, treasury ${ps.treasury}, manpower {ps.manpower}, "
                  f"political status {ps.political_status}, victory points {ps.victory_points} ({vp:+d})"),
            params=FrozenMap(sorted(_summary_params(p, income, spent, ps).items())),
        )
        new = new.with_log(entry)
        events.append(entry)
    if new.victors:
        entry = LogEntry(slot=key, author="game", kind="economy.victory",
                         text=f"campaign victory: {', '.join(new.victors)} (12.1.3)",
                         params=FrozenMap((("victors", " ".join(new.victors)),)))
        new = new.with_log(entry)
        events.append(entry)
    return engine.Outcome(new, tuple(events))


def summary(state: GameState, ctx: RulesContext, orders: Mapping[str, Sequence[Any]] | None = None,
            power: str | None = None) -> list[dict[str, Any]]:
    """The quarter's economic summary (12.0 "economic summary", 000:2030), a pure function.

    The phase is resolved on ``state`` with ``orders`` and ``ctx.dice`` without
    changing anything; one record per power and per free state or kingdom of it:
    ``power``, ``fund``, ``opening_money``/``opening_manpower``, ``lines`` (every
    ledger line, in order) and ``closing_money``/``closing_manpower`` (opening plus
    the lines, which is what the state holds after the phase).
    """
    w = run_steps(with_orders(state, orders or {}, ctx), ctx)
    out = []
    for p in POWERS:
        if power is not None and p != power:
            continue
        lines = [ln for ln in w.ledger.lines if ln.power == p]
        for fund in [p] + sorted({ln.fund for ln in lines if ln.fund != p}):
            if fund == p:
                money0, men0 = state.powers[p].treasury, state.powers[p].manpower
            else:
                m = state.minors.get(fund)
                money0, men0 = (m.treasury, m.manpower) if m else (0, 0)
            mine = [ln for ln in lines if ln.fund == fund]
            out.append({"power": p, "fund": fund, "opening_money": money0, "opening_manpower": men0,
                        "lines": [ln.to_obj() for ln in mine],
                        "closing_money": money0 + sum(ln.money for ln in mine),
                        "closing_manpower": men0 + sum(ln.manpower for ln in mine)})
    return out


#: The economic phase's rules (registered by ``eiapbem/rules/phases.py``).
RULES = engine.PhaseRules("economy", phases=(Phase.ECONOMIC,), actions=ACTIONS, resolve=resolve)

__all__ = ["ACTIONS", "STEPS", "orders_of", "resolve", "run_steps", "summary", "with_orders"]
