"""12.5 Money and manpower expenditure (000:2198-2250).  Step E.

Order for every power: maintenance (12.5.1), formal debts (12.5.2), informal
debts, purchases of factors and ships (12.5.3), new counters (12.5.4), then the
surplus rules (12.5.5, 12.5.6).  Minor free states and kingdoms pay from their
own money; what they cannot pay their controlling power pays (000:2200).
"""

from __future__ import annotations


from eiapbem.core.errors import IllegalAction
from eiapbem.rules.control import province_holder
from eiapbem.rules.economy.common import Work, ceil_half, free_state_funds, fund_of
from eiapbem.rules.relations import power_of
from eiapbem.rules.model import (
    POWERS,
    BuildOrder,
    Corps,
    CorpsType,
    Date,
    Depot,
    Fleet,
    FleetMission,
    GameState,
    LocationKind,
    MinorStatus,
    Purchase,
)
from eiapbem.rules.model.powers import SHIP_ITEMS
from eiapbem.rules.tables.diplomacy import POLITICAL_POINTS
from eiapbem.rules.tables.economy import COSTS, check_purchase
from eiapbem.rules.engine import RulesContext

STEP = "12.5 expenditure"
BANKRUPTCY = POLITICAL_POINTS["bankrupt"].fixed  # -3: 000:2200, 000:3229
#: 12.5.4 (000:2238): counters that are never bought.
FREE_COUNTERS = (CorpsType.FEUDAL, CorpsType.INSURRECTION, CorpsType.TYROL, CorpsType.COSSACK,
                 CorpsType.FREIKORPS, CorpsType.GUERRILLA)


def arrival(date: Date, item: str) -> Date:
    """The reinforcement phase a purchase arrives in (000:2232: infantry of March 1806 -> June 1806)."""
    return date.plus(COSTS[item].months or 0)


def original_tax(ctx: RulesContext, power: str) -> int:
    """The home nation's printed tax value, fixed at the start (B.3/C.3, 000:2927, 2944)."""
    return sum(ctx.map.province(p).tax for p in ctx.map.provinces_of(power))


def reparations_due(ctx: RulesContext, power: str, code: str) -> int:
    full = original_tax(ctx, power)
    return ceil_half(full) if code == "B.3" else full


def maintenance_items(state: GameState, nation: str) -> list[tuple[str, int]]:
    """(item, dollars) for the counters of ``nation`` on the map (12.5.1, 000:2206-2212)."""
    out = []
    for uid, u in state.units.items():
        if u.location.kind is LocationKind.POOL:
            continue
        if isinstance(u, Corps) and u.nation == nation:
            out.append((f"corps {uid}", COSTS["corps-maintenance"].money))
        elif isinstance(u, Fleet) and u.nation == nation:
            if u.mission is FleetMission.PIRACY:
                continue  # privateers pay no maintenance (000:2210, 8.9)
            key = "fleet-maintenance-sea" if u.location.kind is LocationKind.SEA else "fleet-maintenance-port"
            out.append((f"fleet {uid} ({u.location.kind})", COSTS[key].money))
        elif isinstance(u, Depot) and u.power == nation:
            out.append((f"depot {uid}", COSTS["depot-maintenance"].money))
    return out


def check_purchase_order(state: GameState, ctx: RulesContext, power: str, order: Purchase) -> None:
    """What can be checked before the phase is resolved: the buyer, the item, the port."""
    buyer = order.nation
    if buyer != power:
        m = state.minors.get(buyer)
        if m is None or m.status is not MinorStatus.FREE_STATE or m.controller != power:
            raise IllegalAction(f"{buyer!r} is not {power} nor one of its minor free states (12.5.3)")
        if m.provinces:
            raise IllegalAction(f"{buyer} is a kingdom: buy for one of its component minors (12.8)")
    try:
        check_purchase(buyer, order.item, minor_free_state=buyer != power)
    except IllegalAction:
        raise
    if order.item in SHIP_ITEMS:
        assert order.port is not None
        if not ctx.map.is_area(order.port) or ctx.map.area(order.port).port is None:
            raise IllegalAction(f"{order.port!r} is not a port on the map")
        a = ctx.map.area(order.port)
        assert a.port is not None  # checked just above
        if not a.port.shipbuilding:
            own = sorted(x for x in ctx.map.areas_of_nation(buyer)
                         if (port := ctx.map.area(x).port) is not None and port.shipbuilding)
            raise IllegalAction(f"{a.name} is not a ship building port (12.5.3)",
                                hint=f"{buyer}'s own ship building ports: {', '.join(own)}" if own else None)
        home = a.nation == buyer or (buyer in state.minors and a.nation in (buyer, *state.minors[buyer].districts))
        if not home and not (buyer == power and province_holder(state, ctx, a.province) == power):
            raise IllegalAction(f"{buyer} does not control the ship building port of {a.name}")


def check_counter(state: GameState, power: str, uid: str) -> None:
    u = state.units.get(uid)
    if not isinstance(u, (Corps, Fleet)):
        raise IllegalAction(f"there is no corps or fleet counter {uid!r}")
    if power_of(state, u.nation) != power:
        raise IllegalAction(f"counter {uid} is not {power}'s nor one of its free states'")
    if u.nation != power and state.minors[u.nation].status is not MinorStatus.FREE_STATE:
        raise IllegalAction(f"{u.nation} is not a minor free state; its counters cannot be bought (12.5.4)")
    if u.location.kind is not LocationKind.POOL:
        raise IllegalAction(f"counter {uid} is on the map; only counters in the pool can be bought (12.5.4)")
    if isinstance(u, Corps) and u.corps_type in FREE_COUNTERS:
        raise IllegalAction(f"{uid} is a {u.corps_type} corps and is never bought (12.5.4, 13.2)")
    if u.placeable_until is not None and u.placeable_until >= state.date:
        raise IllegalAction(f"counter {uid} is already bought and may be placed until {u.placeable_until}")


def spend(w: Work) -> None:
    bankrupt: set[str] = set()
    for p in POWERS:
        _maintenance(w, p, bankrupt)
    for p in POWERS:
        _formal_debts(w, p, bankrupt)
    for p in POWERS:
        for to, amount in w.orders(p).debts_paid.items():
            paid = -w.money(p, -amount, STEP, f"informal debt paid to {to}")
            if paid:
                w.money(to, paid, STEP, f"informal debt received from {p}")
    for p in POWERS:
        if p in bankrupt:
            w.political(p, BANKRUPTCY, STEP, "bankrupt", detail="12.5")
    for p in POWERS:
        _purchases(w, p)
        _counters(w, p)
    for p in POWERS:
        _surplus(w, p)


def _maintenance(w: Work, p: str, bankrupt: set[str]) -> None:
    for fund in free_state_funds(w.state, p):
        members = [fund] + [s for s, m in w.state.minors.items() if m.kingdom == fund]
        items = [it for n in members for it in maintenance_items(w.state, n)]
        due = sum(c for _, c in items)
        if not due:
            continue
        paid = -w.money(fund, -due, STEP, "maintenance", power=p, detail=f"{len(items)} counter(s)")
        if paid < due:
            short = -w.money(p, -(due - paid), STEP, f"maintenance of {fund}", detail="the free state cannot pay")
            if short < due - paid:
                bankrupt.add(p)
    items = maintenance_items(w.state, p)
    due = sum(c for _, c in items)
    have = w.treasury(p)
    for item, c in items:
        w.money(p, -c, STEP, f"maintenance {item}")
    if due > have:
        bankrupt.add(p)
        w.note(p, STEP, "maintenance", f"${due} due, ${have} available: bankrupt")


def _formal_debts(w: Work, p: str, bankrupt: set[str]) -> None:
    ps = w.state.powers[p]
    terms = ps.peace_terms
    for key, term in sorted(ps.peace_terms.items()):
        if term.code not in ("B.3", "C.3"):
            continue
        due = reparations_due(w.ctx, p, term.code)
        paid = -w.money(p, -due, STEP, f"reparations to {term.victor}", detail=f"peace term {term.code}")
        if paid < due:
            bankrupt.add(p)
        if paid:
            w.money(term.victor, paid, STEP, f"reparations from {p}", detail=f"peace term {term.code}")
        left = (term.remaining or 1) - 1
        terms = terms.remove(key) if left <= 0 else terms.set(key, term.replace(remaining=left))
    w.state = w.state.with_power(p, peace_terms=terms)


def _purchases(w: Work, p: str) -> None:
    builds = w.state.powers[p].builds
    for order in w.orders(p).purchases:
        try:
            check_purchase_order(w.state, w.ctx, p, order)
        except IllegalAction as err:
            w.not_bought(p, STEP, f"buy {order.count} {order.item}", str(err))
            continue
        fund = fund_of(w.state, order.nation)
        c = COSTS[order.item]
        money, men = c.money * order.count, c.manpower * order.count
        if w.treasury(fund) < money or w.men(fund) < men:
            w.not_bought(p, STEP, f"buy {order.count} {order.item}",
                         f"needs ${money} and {men} manpower, {fund} has ${w.treasury(fund)} and {w.men(fund)}",
                         fund=fund)
            continue
        when = arrival(w.date, order.item)
        where = f" at {order.port}" if order.port else ""
        item = f"buy {order.count} {order.item}" + (f" for {order.nation}" if order.nation != fund else "")
        w.money(fund, -money, STEP, item, power=p, detail=f"arrives {when}{where}")
        if men:
            w.manpower(fund, -men, STEP, item, power=p)
        b = BuildOrder(nation=order.nation, item=order.item, count=order.count, arrives=when, port=order.port)
        old = builds.get(b.key)
        if old is not None:
            b = b.replace(count=old.count + b.count)
        builds = builds.set(b.key, b)
    w.state = w.state.with_power(p, builds=builds)


def _counters(w: Work, p: str) -> None:
    for uid in w.orders(p).counters:
        try:
            check_counter(w.state, p, uid)
        except IllegalAction as err:
            w.not_bought(p, STEP, f"counter {uid}", str(err))
            continue
        u = w.state.units[uid]
        assert isinstance(u, (Corps, Fleet))  # ``check_counter`` found it one
        fund = fund_of(w.state, u.nation)
        cost = COSTS["counter"].money
        if w.treasury(fund) < cost:
            w.not_bought(p, STEP, f"counter {uid}", "no money left", fund=fund)
            continue
        until = w.date.plus(3)
        w.money(fund, -cost, STEP, f"new counter {uid}", power=p, detail=f"to be placed by {until}")
        w.state = w.state.with_unit(u.replace(placeable_until=until))


def _surplus(w: Work, p: str) -> None:
    """12.5.5, 12.5.6: money is kept; manpower lost except Prussia's; free states lose both."""
    men = w.men(p)
    if men and p != "PR":
        w.manpower(p, -men, STEP, "unused manpower lost", detail="12.5.6")
    for fund in free_state_funds(w.state, p):
        money, fmen = w.fund_money.get(fund, 0), w.fund_manpower.get(fund, 0)
        if fund == "ottoman-empire" and p == "TU" and w.date.month == 12 and money:
            w.money(fund, -money, STEP, "tribute to Turkey", power=p, detail="12.8.3")
            w.money("TU", money, STEP, "Ottoman tribute", detail="12.8.3")
            money = 0
        if money:
            w.money(fund, -money, STEP, "unused money lost", power=p, detail="12.5.5")
        if fmen:
            w.manpower(fund, -fmen, STEP, "unused manpower lost", power=p, detail="12.5.5")
