"""12.2 Money and manpower collection (000:2072-2184), with the AI bonus of 12.0
(000:2032-2040), piracy (8.9, 12.2.1 000:2130-2150), Spanish gold (000:2124-2128),
American and colonial trade (000:2108-2122) and the economic loss number
(000:2152-2156).  Step B of the economic phase.
"""

from __future__ import annotations

from dataclasses import dataclass

from eiapbem.rules.control import city_holder, is_besieged, is_blockaded, province_holder
from eiapbem.rules.economy.common import (
    CONTROLLED,
    Work,
    capital_occupied,
    ceil_half,
    fund_of,
    free_state_funds,
    kingdom_of_province,
    national_capitals_occupied,
    occupied_by_enemy,
    status_box,
)
from eiapbem.rules.relations import at_war, minor_record, power_of
from eiapbem.rules.model import POWERS, Fleet, FleetMission, GameState, MinorStatus, PlayerKind, Ships
from eiapbem.rules.tables.economy import spanish_gold
from eiapbem.rules.engine import RulesContext

STEP = "12.2 collection"
COLONIAL_TRADE = 30  # 000:2108
COLONIAL_TRADE_AT_WAR_WITH_USA = 15
USA_WAR_PENALTY = 15  # 000:2120
AI_BONUS = {PlayerKind.AI_EASY: 10, PlayerKind.AI_MEDIUM: 15, PlayerKind.AI_HARD: 20}  # 12.0, 000:2034-2038
DECEMBER = 12


# ----------------------------------------------------------------- territory


def power_provinces(state: GameState, ctx: RulesContext, power: str) -> list[tuple[str, str]]:
    """(province, kind) a power taxes: ``home``, ``ceded`` (ceded to it) or ``conquered``
    (a conquered minor's district), in map order; kingdoms' provinces excluded."""
    out = []
    for prov in ctx.map.provinces.values():
        if kingdom_of_province(state, prov.id) is not None:
            continue
        if prov.nation in POWERS:
            holder = province_holder(state, ctx, prov.id)
            if holder == power:
                out.append((prov.id, "home" if prov.nation == power else "ceded"))
        else:
            m = minor_record(state, prov.nation)
            own = state.minors.get(prov.nation)
            if m is None or own is None or own.kingdom is not None:
                continue
            if m.status is MinorStatus.CONQUERED and m.controller == power:
                out.append((prov.id, "conquered"))
    return out


def fund_provinces(state: GameState, ctx: RulesContext, fund: str) -> list[str]:
    """The provinces and districts whose values a minor free state or kingdom collects (12.2.3, 12.8)."""
    members = {fund}
    for slug, m in state.minors.items():
        if m.kingdom == fund:
            members.add(slug)
    for slug, m in state.minors.items():
        if m.part_of in members:
            members.add(slug)
    own = state.minors[fund].provinces
    return [p.id for p in ctx.map.provinces.values() if p.nation in members or p.id in own]


# ----------------------------------------------------------------- ports


@dataclass(frozen=True)
class PortInfo:
    area: str
    province: str
    fund: str | None  # the power, free state or kingdom earning the second value; None: neutral minor
    power: str | None  # the power behind the fund
    gb_value: int
    owner_value: int
    eligible: bool
    why_not: str


def port_infos(state: GameState, ctx: RulesContext) -> list[PortInfo]:
    """Every port with who trades through it and whether it may trade (12.2.1, 000:2090-2098)."""
    out = []
    december = state.date.month == DECEMBER
    for area_id in ctx.map.ports():
        a = ctx.map.area(area_id)
        port = a.port
        assert port is not None  # ``Map.ports`` lists the areas with a port
        holder = province_holder(state, ctx, a.province)
        kingdom = kingdom_of_province(state, a.province)
        fund: str | None
        if kingdom is not None:
            fund = kingdom
        elif a.nation in POWERS:
            fund = holder
        else:
            m = minor_record(state, a.nation)
            if m is None or m.status not in CONTROLLED:
                fund = None
            elif m.status is MinorStatus.FREE_STATE:
                fund = fund_of(state, state.minors[a.nation].part_of or a.nation)
            else:
                fund = holder
        power = power_of(state, fund) if fund is not None else None
        why = ""
        if is_blockaded(state, ctx, area_id, power):
            why = "blockaded"
        elif is_besieged(state, ctx, area_id):
            why = "besieged"
        elif power is not None and power_of(state, city_holder(state, ctx, area_id)) not in (power, None):
            why = "occupied by " + str(power_of(state, city_holder(state, ctx, area_id)))
        elif power is None and a.nation in state.minors and city_holder(state, ctx, area_id) != a.nation \
                and power_of(state, city_holder(state, ctx, area_id)) is not None:
            why = "occupied"
        elif december and port.ice:
            why = "north of the ice line in December"
        elif capital_occupied(state, ctx, a.province, power):
            why = "its province's capital is occupied"
        out.append(PortInfo(area_id, a.province, fund, power, port.gb_trade, port.owner_trade, not why, why))
    return out


def trade_allowed(state: GameState, power: str) -> str:
    """Why ``power`` may not trade with Great Britain this phase ("" if it may) (12.2.1, 6.10, B.5)."""
    if at_war(state, power, "GB"):
        return "at war with Great Britain"
    if "GB" not in state.powers[power].trade:
        return "has not requested trade with Great Britain (6.10)"
    if power not in state.powers["GB"].trade:
        return "Great Britain does not allow it to trade (6.10)"
    for t in state.powers[power].peace_terms.values():
        if t.code == "B.5" and t.target == "GB":
            return f"no trading with Great Britain (peace term B.5 of {t.victor})"
    return ""


# ----------------------------------------------------------------- the step


def collect(w: Work) -> None:
    """Step B: taxation, manpower, trade, gold, piracy, loss numbers and AI bonuses, for every power."""
    for p in POWERS:
        w.collected[p] = 0
        w.collected_manpower[p] = 0
        w.trade[p] = 0
    _economic_loss(w)
    for p in POWERS:
        _manipulation(w, p)
        _taxation(w, p)
        _manpower(w, p)
    for p in POWERS:
        for f in free_state_funds(w.state, p):
            _free_state(w, p, f)
    _trade(w)
    _spanish_gold(w)
    if w.state.options.privateers:
        _piracy(w)
    for p in POWERS:
        _ai_bonus(w, p)


def _economic_loss(w: Work) -> None:
    for p in POWERS:
        box = status_box(w.ctx, w.state.powers[p].political_status)
        eln = box.get("economic_loss")
        if eln is None:
            continue
        roll = w.ctx.dice.d6(w.label(p, "eln"))
        hit = roll <= eln
        if hit:
            w.eln_hit.add(p)
        w.note(p, STEP, "economic loss number",
               f"{box['zone']} box {box['position']}, loss number {eln}, roll {roll}: "
               + ("half money and manpower" if hit else "no loss"))


def _manipulation(w: Work, p: str) -> None:
    if not w.state.options.economic_manipulation:
        return
    square = w.state.powers[p].manipulation
    if square == 0:
        return
    if national_capitals_occupied(w.state, w.ctx, p):
        w.note(p, STEP, "economic manipulation", "not carried out: the capital is occupied (12.4.1)")
        return
    sq = manipulation_square(w.ctx, square)
    if sq["money"]:
        moved = w.money(p, sq["money"], STEP, "economic manipulation", detail=f"square {square}")
        w.collected[p] += moved
    if sq["manpower"]:
        moved = w.manpower(p, sq["manpower"], STEP, "economic manipulation", detail=f"square {square}")
        w.collected_manpower[p] += moved


def manipulation_square(ctx: RulesContext, square: int) -> dict:
    for sq in ctx.world["displays.json"]["economic_manipulation"]["squares"]:
        if sq["square"] == square:
            return sq
    raise KeyError(square)


def _taxation(w: Work, p: str) -> None:
    occupied = national_capitals_occupied(w.state, w.ctx, p)
    if occupied:
        w.note(p, STEP, "taxation", f"none: national capital {', '.join(occupied)} occupied by the enemy")
        return
    total = 0
    for prov, kind in power_provinces(w.state, w.ctx, p):
        pr = w.ctx.map.province(prov)
        if pr.tax == 0:
            continue
        if capital_occupied(w.state, w.ctx, prov, p):
            w.note(p, STEP, f"tax {pr.name}", f"none: capital {pr.capital} occupied")
            continue
        total += w.money(p, pr.tax, STEP, f"tax {pr.name}", detail=kind)
    if p in w.eln_hit and total:
        total -= -w.money(p, -(total - ceil_half(total)), STEP, "economic loss: half the taxes",
                          detail=f"{total} -> {ceil_half(total)}")
    w.collected[p] += total


def _manpower(w: Work, p: str) -> None:
    total = 0
    home = 0
    for prov, kind in power_provinces(w.state, w.ctx, p):
        if kind == "ceded":
            continue
        pr = w.ctx.map.province(prov)
        if pr.manpower == 0:
            continue
        if capital_occupied(w.state, w.ctx, prov, p):
            w.note(p, STEP, f"manpower {pr.name}", f"none: capital {pr.capital} occupied")
            continue
        total += w.manpower(p, pr.manpower, STEP, f"manpower {pr.name}", detail=kind)
        if kind == "home":
            home += pr.manpower
    if p in w.eln_hit and total:
        total -= -w.manpower(p, -(total - ceil_half(total)), STEP, "economic loss: half the manpower",
                             detail=f"{total} -> {ceil_half(total)}")
    w.collected_manpower[p] += total
    w.home_manpower[p] = home


def _free_state(w: Work, p: str, fund: str) -> None:
    """12.2.3: double the printed values (printed only under an economic loss); nothing from a
    component whose capital is occupied."""
    factor = 1 if p in w.eln_hit else 2
    for prov in fund_provinces(w.state, w.ctx, fund):
        pr = w.ctx.map.province(prov)
        if capital_occupied(w.state, w.ctx, prov, p):
            w.note(p, STEP, f"{pr.name}", f"none: capital {pr.capital} occupied", fund=fund)
            continue
        why = "printed value (economic loss)" if factor == 1 else "doubled"
        if pr.tax:
            w.money(fund, pr.tax * factor, STEP, f"tax {pr.name}", power=p, detail=why)
        if pr.manpower:
            w.manpower(fund, pr.manpower * factor, STEP, f"manpower {pr.name}", power=p, detail=why)


def _trade(w: Work) -> None:
    state, ctx = w.state, w.ctx
    gb_blocked = national_capitals_occupied(state, ctx, "GB")
    ports = port_infos(state, ctx)
    # 000:2096: no trade while the national capital is occupied; for Russia both capitals.
    no_trade = {p: _trade_capitals_occupied(state, ctx, p) for p in POWERS}
    allowed = {p: trade_allowed(state, p) for p in POWERS if p != "GB"}
    for pi in ports:
        name = ctx.map.area(pi.area).name
        if not pi.eligible:
            if pi.power is not None and (pi.gb_value or pi.owner_value):
                w.note(pi.power, STEP, f"trade {name}", f"none: {pi.why_not}", fund=pi.fund)
            continue
        if gb_blocked:
            continue
        if pi.fund is None:  # a neutral minor's port: Great Britain alone (000:2100)
            if pi.gb_value:
                w.trade["GB"] += w.money("GB", pi.gb_value, STEP, f"trade {name}", detail="neutral minor port")
            continue
        assert pi.power is not None
        in_free_state = pi.fund not in POWERS
        if pi.power == "GB":
            if in_free_state:
                w.trade["GB"] += w.money("GB", pi.gb_value, STEP, f"trade {name}", detail="free state port")
                w.money(pi.fund, pi.owner_value, STEP, f"trade {name}", power="GB")
            else:
                w.trade["GB"] += w.money("GB", pi.gb_value + pi.owner_value, STEP, f"trade {name}",
                                         detail=f"own port {pi.gb_value}+{pi.owner_value}")
            continue
        if allowed[pi.power]:
            continue
        if no_trade[pi.power] and not in_free_state:
            w.note(pi.power, STEP, f"trade {name}", "none: national capital occupied")
            continue
        w.trade["GB"] += w.money("GB", pi.gb_value, STEP, f"trade {name}", detail=f"with {pi.fund}")
        moved = w.money(pi.fund, pi.owner_value, STEP, f"trade {name}", power=pi.power, detail="with Great Britain")
        if not in_free_state:
            w.trade[pi.power] += moved
    for p in POWERS:
        if p != "GB" and allowed[p]:
            w.note(p, STEP, "domestic trade", f"none: {allowed[p]}")
    _american_trade(w, ports, no_trade)
    _colonial_trade(w, gb_blocked)
    _half_trade(w)
    for p in POWERS:
        w.collected[p] += w.trade[p]


def _trade_capitals_occupied(state: GameState, ctx: RulesContext, p: str) -> tuple[str, ...]:
    occupied = national_capitals_occupied(state, ctx, p)
    return occupied if len(occupied) == len(ctx.map.national_capitals(p)) else ()


def american_value(state: GameState, ctx: RulesContext, power: str, ports: list[PortInfo] | None = None) -> tuple[int, str | None]:
    """Twice the second value of the power's best eligible port, not in a free state (000:2112)."""
    best, where = 0, None
    for pi in ports if ports is not None else port_infos(state, ctx):
        if pi.eligible and pi.fund == power and pi.owner_value * 2 > best:
            best, where = pi.owner_value * 2, pi.area
    return best, where


def _american_trade(w: Work, ports: list[PortInfo], no_trade: dict) -> None:
    gb = w.state.powers["GB"]
    stopped = [p for p in w.orders("GB").stop_usa_trade if at_war(w.state, "GB", p)]
    for p in POWERS:
        if p == "GB":
            continue
        if gb.war_with_america:
            w.note(p, STEP, "American trade", "none: Great Britain is at war with the USA")
            continue
        if any(t.code == "B.5" and t.target == "america" for t in w.state.powers[p].peace_terms.values()):
            w.note(p, STEP, "American trade", "none: peace term B.5 (no trading with America)")
            continue
        if no_trade[p]:
            w.note(p, STEP, "American trade", "none: national capital occupied")
            continue
        value, where = american_value(w.state, w.ctx, p, ports)
        if value == 0 or where is None:
            w.note(p, STEP, "American trade", "none: no eligible port")
            continue
        port = w.ctx.map.area(where).name
        if p in stopped:
            w.note(p, STEP, "American trade", f"stopped by Great Britain (would be ${value} through {port})")
            w.trade["GB"] += w.money("GB", value, STEP, f"American trade of {p} stopped", detail=f"through {port}")
            continue
        w.trade[p] += w.money(p, value, STEP, "American trade", detail=f"2 x {value // 2} through {port}")
    if stopped:
        roll = w.ctx.dice.d6(w.label("GB", "usa-war"))
        war = roll <= len(stopped)
        w.note("GB", STEP, "stopping American trade",
               f"{len(stopped)} power(s) stopped, roll {roll}: " + ("war with the USA" if war else "no war"))
        if war:
            w.state = w.state.with_power("GB", war_with_america=True)
            w.money("GB", -USA_WAR_PENALTY, STEP, "war with the USA begins")


def _colonial_trade(w: Work, gb_blocked: tuple[str, ...]) -> None:
    """British colonial trade (000:2108): $30, $15 while at war with the USA."""
    if gb_blocked:
        w.note("GB", STEP, "trade", "none: London occupied")
        return
    # The war's loss applies from the phase after it began (000:2120).
    at_war_before = w.state.powers["GB"].war_with_america and not any(
        ln.item == "war with the USA begins" for ln in w.ledger.lines)
    value = COLONIAL_TRADE_AT_WAR_WITH_USA if at_war_before else COLONIAL_TRADE
    w.trade["GB"] += w.money("GB", value, STEP, "colonial trade",
                             detail="at war with the USA" if at_war_before else "")


def _half_trade(w: Work) -> None:
    """C.7 (000:2949): half of Great Britain's trade money to the victor for four phases."""
    gb = w.state.powers["GB"]
    for key, term in sorted(gb.peace_terms.items()):
        if term.code != "C.7" or at_war(w.state, "GB", term.victor):
            continue
        half = ceil_half(w.trade["GB"])
        paid = -w.money("GB", -half, STEP, f"half trade to {term.victor}", detail=f"peace term C.7, trade ${w.trade['GB']}")
        w.trade["GB"] -= paid
        w.money(term.victor, paid, STEP, "half of Great Britain's trade", detail="peace term C.7")
        left = (term.remaining or 1) - 1
        terms = gb.peace_terms.remove(key) if left <= 0 else gb.peace_terms.set(key, term.replace(remaining=left))
        w.state = w.state.with_power("GB", peace_terms=terms)
        gb = w.state.powers["GB"]


def spanish_ports_free(state: GameState, ctx: RulesContext) -> bool:
    """A Spanish-controlled port neither blockaded nor held by the enemy (000:2128)."""
    for area_id in ctx.map.ports():
        a = ctx.map.area(area_id)
        if province_holder(state, ctx, a.province) != "SP":
            continue
        if is_blockaded(state, ctx, area_id, "SP") or occupied_by_enemy(state, ctx, area_id, "SP"):
            continue
        return True
    return False


def _spanish_gold(w: Work) -> None:
    if w.date.month != 9:
        return
    possible = spanish_ports_free(w.state, w.ctx)
    war = at_war(w.state, "GB", "SP")
    res = spanish_gold(w.ctx.dice, month=9, gb_at_war_with_spain=war, convoy_possible=possible,
                       label=w.label("SP", "gold"))
    if res.roll is None:
        w.note("SP", STEP, "Spanish gold", "no convoy: every Spanish port is blockaded or held by the enemy")
        return
    detail = f"roll {res.roll}" + (f" -2 (at war with Great Britain) = {res.modified}" if war else "")
    if res.britain:
        w.note("SP", STEP, "Spanish gold", detail + ": captured by Great Britain")
        w.money("GB", res.britain, STEP, "Spanish gold convoy captured", detail=detail)
    else:
        moved = w.money("SP", res.spain, STEP, "Spanish gold", detail=detail)
        w.collected["SP"] += moved


def _piracy(w: Work) -> None:
    """8.9, 000:2130-2150: each privateer rolls against its target's trade, then against
    the target's anti-piracy fleets."""
    taken: dict[str, int] = {p: 0 for p in POWERS}
    for uid, fleet in sorted(w.state.units.items()):
        if not isinstance(fleet, Fleet) or fleet.mission is not FleetMission.PIRACY or fleet.ships.light == 0:
            continue
        owner = power_of(w.state, fleet.nation) or fleet.nation
        target = fleet.piracy_target
        assert target is not None  # a piracy mission always names its target (Fleet._check)
        light = fleet.ships.light
        mods = light // 5 + (1 if light >= 5 and fleet.piracy_months >= 3 else 0)
        roll = w.ctx.dice.two_d6(w.label(owner, f"piracy/{uid}"))
        total = roll + mods
        if total > 7:
            amount = w.ctx.dice.one_to(5, w.label(owner, f"piracy/{uid}/take"))
            room = max(0, w.trade.get(target, 0) - taken[target])
            amount = min(amount, room)
            if amount:
                taken[target] += -w.money(target, -amount, STEP, f"piracy by {uid}", detail=f"roll {roll}+{mods}")
            else:
                w.note(target, STEP, f"piracy by {uid}", f"roll {roll}+{mods}: no trade left to take")
        else:
            w.note(target, STEP, f"piracy by {uid}", f"roll {roll}+{mods}: nothing taken")
        defenders = [u for u in sorted(w.state.units.values(), key=lambda u: u.id)
                     if isinstance(u, Fleet) and u.mission is FleetMission.ANTI_PIRACY
                     and power_of(w.state, u.nation) == target and u.ships.total > 0]
        if not defenders:
            continue
        dships = sum(d.ships.total for d in defenders)
        aroll = w.ctx.dice.two_d6(w.label(target, f"anti-piracy/{uid}"))
        atotal = aroll + light // 5 - dships // 5
        if atotal > 7:
            victim = defenders[w.ctx.dice.one_to(len(defenders), w.label(target, f"anti-piracy/{uid}/fleet")) - 1]
            loss = w.ctx.dice.one_to(3, w.label(target, f"anti-piracy/{uid}/loss"))
            _lose_ships(w, victim.id, loss)
            w.note(target, STEP, f"anti-piracy against {uid}", f"roll {aroll}: {victim.id} loses {loss} ship(s)")
        elif atotal < 7:
            loss = w.ctx.dice.one_to(3, w.label(owner, f"piracy/{uid}/loss"))
            _lose_ships(w, uid, loss)
            w.note(owner, STEP, f"anti-piracy against {uid}", f"roll {aroll}: the privateer loses {loss} ship(s)")
        else:
            w.note(target, STEP, f"anti-piracy against {uid}", f"roll {aroll}: no loss")


def _lose_ships(w: Work, fleet_id: str, n: int) -> None:
    f = w.state.units[fleet_id]
    assert isinstance(f, Fleet)
    light = max(0, f.ships.light - n)
    rest = n - (f.ships.light - light)
    heavy = max(0, f.ships.heavy - rest)
    rest -= f.ships.heavy - heavy
    transport = max(0, f.ships.transport - rest)
    w.state = w.state.with_unit(f.replace(ships=Ships(heavy=heavy, light=light, transport=transport)))


def _ai_bonus(w: Work, p: str) -> None:
    """12.0 (000:2032-2040): AI powers get 10/15/20% more money and manpower; half if a
    human player holds their capital under siege or imposes an enforced peace on them."""
    ps = w.state.powers[p]
    pct = AI_BONUS.get(ps.controller)
    if pct is None:
        return
    half = _half_bonus(w.state, w.ctx, p)
    div = 200 if half else 100
    why = f"{pct}%" + (" halved" if half else "")
    money = w.collected[p] * pct // div
    men = w.collected_manpower[p] * pct // div
    if money > 0:
        w.money(p, money, STEP, "AI bonus on money", detail=f"{why} of ${w.collected[p]}")
    if men > 0:
        w.manpower(p, men, STEP, "AI bonus on manpower", detail=f"{why} of {w.collected_manpower[p]}")


def _half_bonus(state: GameState, ctx: RulesContext, p: str) -> bool:
    humans = {q for q in POWERS if state.powers[q].controller is PlayerKind.HUMAN}
    for cap in ctx.map.national_capitals(p):
        holder = power_of(state, city_holder(state, ctx, cap))
        if holder in humans and holder != p:
            return True
        if is_besieged(state, ctx, cap):
            return True
    for q in state.powers[p].enforced_peace:
        if q in humans:
            return True
    return False
