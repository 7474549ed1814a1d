"""The economic phase (12.0-12.9): rules the TOML cases do not cover, refusals,
the engine's simultaneous slot, conservation of money and manpower, the CLI."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eiapbem.core.errors import IllegalAction
from eiapbem.rules import engine
from eiapbem.core.dice import Dice
from eiapbem.rules.economy import collection, kingdoms, levy, manipulation, phase, victory
from eiapbem.rulecases.procedures.economy import build_state, context
from eiapbem.rules.economy.phase import (
    BuyArmy,
    BuyCounter,
    BuyShips,
    Cede,
    CreateKingdom,
    DeductVictoryPoints,
    GiveMoney,
    PayDebt,
    PlaceLevy,
    RemoveLevy,
    SetManipulation,
    StopUsaTrade,
    orders_of,
    run_steps,
    with_orders,
)
from eiapbem.rules.model import POWERS, Corps, Date, Factors, Location, LocationKind, MinorStatus, Phase, PlayerKind, Slot
from eiapbem.rules.model.slot import ORDERS
from eiapbem.rules.tables.economy import COSTS


def ctx_with(forced=None, strict=True):
    return context(Dice(b"economy-tests", forced or {}, strict=strict))


def state_for(**inp):
    return build_state(inp, ctx_with())


def run(inp, orders=None, forced=None):
    ctx = ctx_with(forced)
    state = build_state(inp, ctx)
    return state, run_steps(with_orders(state, orders or {}, ctx), ctx)


def money(w, fund, item):
    return sum(ln.money for ln in w.ledger.lines if ln.fund == fund and ln.item == item)


# ----------------------------------------------------------------- collection


def test_paris_occupied_no_french_taxes_but_free_states_collect():
    # 000:2080: no taxes at all with the national capital occupied, except the free states'.
    _, w = run({"wars": [["FR", "AU"]], "occupy": {"paris": "AU"}})
    assert not any(ln.fund == "FR" and ln.item.startswith("tax ") and ln.money for ln in w.ledger.lines)
    assert money(w, "holland", "tax Holland") == 8  # doubled printed value 4 (12.2.3)


def test_one_russian_capital_stops_taxes_but_not_trade():
    # 000:2080 (either capital stops taxes) vs 000:2096 (both capitals stop trade).
    _, w = run({"wars": [["FR", "RU"]], "occupy": {"moscow": "FR"}, "trade": {"RU": ["GB"], "GB": ["RU"]}})
    assert not any(ln.fund == "RU" and ln.item.startswith("tax ") and ln.money for ln in w.ledger.lines)
    assert money(w, "RU", "trade Odessa") == 2
    assert any(ln.power == "RU" and ln.item == "capital Moscow occupied" and ln.political == -1 for ln in w.ledger.lines)


def test_province_capital_occupied_no_tax_or_manpower_from_it():
    # 000:2080, 000:2162: Vienna's province (austria) gives nothing; other provinces still pay manpower.
    _, w = run({"wars": [["FR", "AU"]], "occupy": {"vienna": "FR"}})
    assert not any(ln.fund == "AU" and ln.item == "manpower Austria" and ln.manpower for ln in w.ledger.lines)
    assert any(ln.fund == "AU" and ln.item.startswith("manpower ") and ln.manpower for ln in w.ledger.lines)


def test_besieged_capital_is_not_occupied():
    # "occupied by unbesieged enemy factors" (000:2080): an Austrian corps besieging Vienna keeps the taxes.
    _, w = run({"wars": [["FR", "AU"]], "occupy": {"vienna": "FR"}, "besiege": {"vienna": "AU"}})
    assert money(w, "AU", "tax Austria") > 0


def test_economic_loss_halves_money_and_manpower_rounding_up():
    # 000:2156: status 6 has loss number 2 (project display); roll 1 -> half, rounded up.
    _, w = run({"status": {"SP": 6}}, forced={"economy/1805-03/SP/eln": 1})
    taxes = sum(ln.money for ln in w.ledger.lines if ln.fund == "SP" and ln.item.startswith("tax "))
    cut = money(w, "SP", "economic loss: half the taxes")
    assert taxes + cut == -(-taxes // 2)
    assert cut < 0


def test_economic_loss_roll_above_number_no_loss():
    _, w = run({"status": {"SP": 6}}, forced={"economy/1805-03/SP/eln": 3})
    assert money(w, "SP", "economic loss: half the taxes") == 0


def test_ai_bonus_hard_is_20_percent_of_collection():
    # 12.0 (000:2038): hard AI +20% on money and manpower, rounded down.
    _, w = run({"controller": {"AU": "ai-hard"}})
    gained = sum(ln.money for ln in w.ledger.lines if ln.fund == "AU" and ln.step.startswith("12.2") and ln.item != "AI bonus on money")
    assert money(w, "AU", "AI bonus on money") == gained * 20 // 100


def test_ai_bonus_halved_under_enforced_peace_with_a_human():
    st0 = state_for(controller={"AU": "ai-medium"})
    st1 = st0.with_power("AU", enforced_peace=st0.powers["AU"].enforced_peace.set("FR", Date(1807, 1)))
    ctx = ctx_with()
    w = run_steps(st1, ctx)
    gained = sum(ln.money for ln in w.ledger.lines if ln.fund == "AU" and ln.step.startswith("12.2") and ln.item != "AI bonus on money")
    assert money(w, "AU", "AI bonus on money") == gained * 15 // 200


def test_neutral_minor_port_gives_britain_first_value_only():
    # 000:2100: Lisbon (Portugal, neutral) pays Great Britain; nobody earns the second value.
    _, w = run({})
    assert money(w, "GB", "trade Lisbon") == 3
    assert not any(ln.item == "trade Lisbon" and ln.fund != "GB" for ln in w.ledger.lines)


def test_free_state_trade_goes_to_the_free_state():
    # 000:2102 / 12.2.3: a French free state's port trades when France trades with Britain.
    _, w = run({"trade": {"FR": ["GB"], "GB": ["FR"]}})
    holland_ports = [ln for ln in w.ledger.lines if ln.fund == "holland" and ln.item.startswith("trade ")]
    assert holland_ports and all(ln.money > 0 for ln in holland_ports)


def test_piracy_capped_by_trade_and_anti_piracy_sinks_the_privateer():
    # 000:2140 and 000:2148: a roll below 7 against defenders costs the privateer 1-3 ships.
    inp = {"options": {"privateers": True},
           "units": {"fleet:FR:1": {"at": "sea:north-atlantic", "light": 4, "mission": "piracy", "target": "GB"},
                     "fleet:GB:1": {"at": "sea:north-atlantic", "light": 5, "mission": "anti-piracy"}}}
    forced = {"economy/1805-03/FR/piracy/fleet:FR:1/1": 1, "economy/1805-03/FR/piracy/fleet:FR:1/2": 2,
              "economy/1805-03/GB/anti-piracy/fleet:FR:1/1": 2, "economy/1805-03/GB/anti-piracy/fleet:FR:1/2": 3,
              "economy/1805-03/FR/piracy/fleet:FR:1/loss": 3}
    _, w = run(inp, forced=forced)
    assert w.state.units["fleet:FR:1"].ships.light == 1
    assert money(w, "GB", "piracy by fleet:FR:1") == 0


def test_spanish_gold_no_convoy_without_a_free_port():
    # 000:2128: no Spanish port free of blockade and enemy: no convoy and no roll.
    st0 = state_for(month="1805-09")
    ctx = ctx_with()
    assert collection.spanish_ports_free(st0, ctx)
    city = st0.city_control
    from eiapbem.rules.model import CityControl

    for area in ctx.map.ports():
        if collection.province_holder(st0, ctx, ctx.map.area(area).province) == "SP":
            city = city.set(area, CityControl(nation="GB", since=st0.date))
    st1 = st0.with_war("GB", "SP", st0.date, ("GB",)).replace(city_control=city)
    assert not collection.spanish_ports_free(st1, ctx)
    w = run_steps(st1, ctx)  # strict dice: a gold roll would raise
    assert any(ln.item == "Spanish gold" and "no convoy" in ln.detail for ln in w.ledger.lines)


def test_civil_disorder_without_home_manpower():
    # 12.2.2 (000:2166): every home province capital occupied -> must sue for peace.
    ctx = ctx_with()
    st0 = state_for(wars=[["FR", "GB"]])
    from eiapbem.rules.model import CityControl

    city = st0.city_control
    for prov in ctx.map.provinces_of("GB"):
        city = city.set(ctx.map.capital_of(prov), CityControl(nation="FR", since=st0.date))
    w = run_steps(st0.replace(city_control=city), ctx)
    assert w.state.powers["GB"].must_sue_for_peace
    assert not w.state.powers["FR"].must_sue_for_peace


def test_status_off_the_bottom_must_sue():
    # 13.7.1 (000:2616): pushed below the display the marker stays at 0 and the power must sue.
    _, w = run({"wars": [["FR", "GB"]], "occupy": {"london": "FR"}, "status": {"GB": 1}},
               forced={"economy/1805-03/GB/eln": 6})
    assert w.state.powers["GB"].political_status == 2  # 1 - 3 -> 0, then the fiasco box's +2
    assert w.state.powers["GB"].must_sue_for_peace


# ----------------------------------------------------------------- victory


def test_victory_level_adds_the_bid_and_co_winners():
    # 12.1.1 (000:2050) and 12.1.3 (000:2064): bids raise the level; simultaneous winners share.
    st0 = state_for(vp={"FR": 394, "GB": 366})
    st0 = st0.with_power("FR", vp_bid=5)
    w = run_steps(st0, ctx_with())
    assert w.state.victors == ("GB",)  # FR 401 < 405; GB 372 >= 370
    st1 = state_for(vp={"FR": 394, "GB": 366})
    assert run_steps(st1, ctx_with()).state.victors == ("FR", "GB")


def test_britain_wins_at_the_end_if_nobody_did():
    st0 = state_for(month="1815-12")
    assert run_steps(st0, ctx_with()).state.victors == ("GB",)


def test_shorter_campaign_and_ai_start_bonus():
    st0 = state_for(vp={"PR": 160, "FR": 100})
    assert victory.shorter_campaign_winners(st0) == ("PR",)  # 50% of 320
    st1 = st0.with_power("RU", controller=PlayerKind.AI_HARD)
    bonus = victory.ai_start_bonus(st1, "RU", Dice(b"x", {"game/ai-bonus/RU": 5}, strict=True))
    assert bonus == 335 * 6 // 100  # 4.2.3: hard 2-6%; die 5 of 5 -> 6%
    assert victory.ai_start_bonus(st0, "RU", Dice(b"x", strict=True)) == 0


def test_deduction_limited_to_a_third():
    st0 = state_for(wars=[["FR", "GB"]])
    ctx = ctx_with()
    with pytest.raises(IllegalAction, match="at most 2"):
        with_orders(st0, {"GB": [DeductVictoryPoints(target="FR", points=3)]}, ctx)
    with pytest.raises(IllegalAction, match="at war"):
        with_orders(st0, {"GB": [DeductVictoryPoints(target="RU", points=1)]}, ctx)


# ----------------------------------------------------------------- refusals


@pytest.mark.parametrize("power,order,match", [
    ("TU", BuyArmy(item="militia", count=1), "Turkey may not build militia"),
    ("TU", BuyArmy(item="guard", count=1), "Turkey may not build guard"),
    ("AU", BuyArmy(item="artillery", count=1), "only France and Russia"),
    ("FR", BuyArmy(item="militia", count=1, nation="holland"), "may not build militia"),
    ("FR", BuyShips(item="heavy", count=1, port="lille"), "not a ship building port|not a port"),
    ("FR", BuyShips(item="heavy", count=1, port="cadiz"), "does not control"),
    ("FR", GiveMoney(to="RU", amount=5), "only to an ally"),
    ("FR", Cede(territory="normandy", to="SP"), "ally|unceded"),
    ("FR", CreateKingdom(kingdom="confederation-of-the-rhine"), "components"),
    ("RU", CreateKingdom(kingdom="confederation-of-the-rhine"), "only Austria, France and Prussia"),
    ("FR", BuyCounter(unit="corps:AU:I"), "not FR's"),
    ("AU", BuyCounter(unit="corps:AU:Insurrection-I"), "never bought"),
    ("AU", PlaceLevy(corps="corps:AU:Freikorps", area="vienna"), "from the March 1809"),
    ("RU", PlaceLevy(corps="corps:RU:Cossack-1", area="moscow"), "Cossack province"),
    ("TU", PlaceLevy(corps="corps:TU:Feudal-albania", area="janina"), "December"),
    ("RU", RemoveLevy(corps="corps:RU:Cossack-1"), "not on the map"),
    ("FR", StopUsaTrade(target="RU"), "only Great Britain"),
    ("FR", SetManipulation(square=1), "optional rule"),
])
def test_orders_refused(power, order, match):
    st0 = state_for(month="1806-03")
    with pytest.raises(IllegalAction, match=match):
        engine.check_orders(st0, power, [order], ctx_with())


def test_one_cession_per_phase():
    # 000:2264: no more than one minor country or ceded province per phase.
    st0 = state_for(alliances=[["FR", "SP"]])
    with pytest.raises(IllegalAction, match="one territory per economic phase"):
        engine.check_orders(st0, "FR", [Cede(territory="hanover", to="SP"), Cede(territory="julich", to="SP")], ctx_with())


def test_economic_orders_are_written_on_the_one_order_sheet():
    """Issue 14: the economic slot keeps its orders on ``GameState.order_sheet`` like diplomacy, not in the powers."""
    from eiapbem.rules.model import Purchase

    st0 = state_for(month="1806-03")
    given = [BuyShips(item="light", count=2, port="toulon"), BuyCounter(unit="fleet:FR:4"), BuyArmy(item="infantry", count=1)]
    scratch = engine.check_orders(st0, "FR", given, ctx_with()).state
    assert engine.given_orders(scratch, "FR") == tuple(given) and not st0.order_sheet.orders
    assert orders_of(scratch, "FR").purchases == (Purchase("FR", "light", 2, "toulon"), Purchase("FR", "infantry", 1))
    assert orders_of(scratch, "FR").counters == ("fleet:FR:4",) and orders_of(scratch, "RU") == orders_of(st0, "RU")
    with pytest.raises(IllegalAction, match="counter fleet:FR:4 is already bought in these orders"):
        engine.check_orders(st0, "FR", given + [BuyCounter(unit="fleet:FR:4")], ctx_with())


def test_unaffordable_purchase_is_not_made():
    _, w = run({"treasury": {"TU": 0}}, {"TU": [BuyArmy(item="cavalry", count=20)]})
    assert not w.state.powers["TU"].builds
    assert any(ln.item == "buy 20 cavalry" and ln.not_bought and ln.detail == f"not bought: {ln.not_bought}" for ln in w.ledger.lines)


def test_ships_built_in_the_chosen_port_and_counter_bought():
    _, w = run({"month": "1806-03"}, {"FR": [BuyShips(item="light", count=2, port="toulon"), BuyCounter(unit="fleet:FR:4")]})
    builds = w.state.powers["FR"].builds
    assert list(builds) == ["1806-12/FR/light/toulon"]  # 9 months (000:2967)
    assert w.state.units["fleet:FR:4"].placeable_until == Date(1806, 6)  # 12.5.4: within three months
    assert money(w, "FR", "buy 2 light") == -12


def test_prussia_keeps_manpower_others_lose_it():
    _, w = run({})
    assert w.state.powers["PR"].manpower > 0
    assert all(w.state.powers[p].manpower == 0 for p in POWERS if p != "PR")


# ----------------------------------------------------------------- kingdoms, ceding, levy


def test_poland_created_from_prussian_provinces():
    # 12.8.2 (000:2298): Masovia and one more "(P)" province; all held ones join.
    st0 = state_for()
    ctx = ctx_with()
    parts = kingdoms.check_creation(st0, ctx, "PR", "poland")
    assert "masovia" in parts and len(parts) >= 2
    w = run_steps(with_orders(st0, {"PR": [CreateKingdom(kingdom="poland")]}, ctx), ctx)
    pol = w.state.minors["poland"]
    assert pol.controller == "PR" and set(pol.provinces) == set(parts)
    assert any(ln.step.startswith("12.8") and ln.political == 1 for ln in w.ledger.lines)


def test_poland_taxed_doubled_the_next_phase_and_ceded_as_a_unit():
    ctx = ctx_with()
    st0 = state_for(alliances=[["PR", "RU"]])
    st1 = kingdoms.create(st0, ctx, "PR", "poland")
    w = run_steps(st1, ctx)
    assert money(w, "poland", "tax Masovia") == 2 * ctx.map.province("masovia").tax
    w2 = run_steps(with_orders(st1, {"PR": [Cede(territory="poland", to="RU")]}, ctx), ctx)
    assert "poland" not in w2.state.minors
    assert w2.state.ceded_provinces["masovia"] == "RU"


def test_cossacks_limited_by_provinces():
    # 13.2.2: one per Russian-held Cossack province (the map's "(C)" marks); two each while an
    # enemy corps is in Russia.
    ctx = ctx_with()
    provs = levy.cossack_provinces(ctx)
    assert provs == ("don", "kiev", "kursk", "new-russia")
    st0 = state_for()
    assert levy.cossack_limit(st0, ctx) == 4
    st1 = st0.with_war("FR", "RU", st0.date, ("FR",)).with_unit(
        st0.units["corps:FR:I"].replace(location=Location(LocationKind.AREA, "smolensk")))
    assert levy.cossack_limit(st1, ctx) == 8
    areas = {p: ctx.map.areas_of_province(p)[0] for p in provs}
    # Russia starts with 2 cossacks unplaced (5.3.1); 6 more counters may be levied, one over the limit.
    orders = [PlaceLevy(corps=f"corps:RU:Cossack-{i}", area=areas[provs[i % 4]]) for i in range(1, 6)]
    w = run_steps(with_orders(st0, {"RU": orders}, ctx), ctx)
    on = [u for u in w.state.units.values() if isinstance(u, Corps) and u.corps_type == "cossack" and u.location.kind != "pool"]
    assert len(on) == 4


def test_december_raises_insurrection_and_feudal_corps():
    # 12.9 (000:2348): the levy check of December raises the feudal and insurrection corps.
    # 13.2.3 (000:2444), 13.2.4 (000:2494).
    ctx = ctx_with()
    st0 = state_for(month="1805-12")
    ins = st0.units["corps:AU:Insurrection-I"].replace(location=Location(LocationKind.AREA, "vienna"), factors=Factors(militia=2))
    feud = st0.units["corps:TU:Feudal-albania"].replace(factors=Factors(feudal_infantry=1))
    st1 = st0.with_unit(ins).with_unit(feud)
    area = ctx.map.areas_of_province("albania")[0]
    w = run_steps(with_orders(st1, {"TU": [PlaceLevy(corps="corps:TU:Feudal-albania", area=area)]}, ctx), ctx)
    assert w.state.units["corps:AU:Insurrection-I"].factors == Factors(militia=15, cavalry=3)
    assert w.state.units["corps:TU:Feudal-albania"].factors == levy.feudal_full(ctx, "corps:TU:Feudal-albania")
    assert w.state.units["corps:TU:Feudal-albania"].location == Location(LocationKind.AREA, area)


def test_freikorps_from_1809():
    ctx = ctx_with()
    st0 = state_for(month="1809-03")
    w = run_steps(with_orders(st0, {"AU": [PlaceLevy(corps="corps:AU:Freikorps", area="vienna")]}, ctx), ctx)
    assert w.state.units["corps:AU:Freikorps"].location == Location(LocationKind.AREA, "vienna")


# ----------------------------------------------------------------- engine: one simultaneous slot


def test_resolve_slot_through_the_engine_and_orders_cleared():
    ctx = ctx_with()
    st0 = state_for(month="1806-03")
    assert st0.slot == Slot(Phase.ECONOMIC, ORDERS, None, POWERS)
    orders = {p: [] for p in POWERS}
    orders["FR"] = [BuyArmy(item="infantry", count=2)]
    engine.check_orders(st0, "FR", orders["FR"], ctx)
    out = engine.resolve_slot(st0, orders, ctx)
    new = out.state
    assert new.date == Date(1806, 4) and new.slot.phase is Phase.DIPLOMACY
    assert new.powers["FR"].builds["1806-06/FR/infantry/-"].count == 2
    assert not new.order_sheet.orders and orders_of(new, "FR").purchases == ()  # the sequence cleared the sheet
    assert [e.kind for e in out.events].count("economy.summary") == 7


def test_victory_ends_the_game():
    ctx = ctx_with()
    st0 = state_for(vp={"FR": 399})
    out = engine.resolve_slot(st0, {p: [] for p in POWERS}, ctx)
    assert out.state.victors == ("FR",) and out.state.slot is None


# ----------------------------------------------------------------- conservation (hypothesis)


def _reconciles(before, w):
    """Every power's and fund's ledger adds up to its new money and manpower."""
    for p in POWERS:
        lines = [ln for ln in w.ledger.lines if ln.fund == p]
        assert before.powers[p].treasury + sum(ln.money for ln in lines) == w.state.powers[p].treasury
        assert before.powers[p].manpower + sum(ln.manpower for ln in lines) == w.state.powers[p].manpower
    for fund in {ln.fund for ln in w.ledger.lines} - set(POWERS):
        m = before.minors.get(fund)
        start = (m.treasury, m.manpower) if m else (0, 0)
        lines = [ln for ln in w.ledger.lines if ln.fund == fund]
        assert start[0] + sum(ln.money for ln in lines) == 0  # 12.5.5: nothing is kept
        assert start[1] + sum(ln.manpower for ln in lines) == 0


_ITEMS = ("infantry", "cavalry", "militia")
_order = st.one_of(
    st.builds(lambda p, to, n: (p, GiveMoney(to=to, amount=n)), st.sampled_from(("FR", "SP")),
              st.sampled_from(("FR", "SP")), st.integers(1, 200)),
    st.builds(lambda p, i, n: (p, BuyArmy(item=i, count=n)), st.sampled_from(("FR", "SP", "AU", "RU")),
              st.sampled_from(_ITEMS), st.integers(1, 12)),
    st.builds(lambda n: ("FR", GiveMoney(to="holland", amount=n)), st.integers(1, 50)),
    st.builds(lambda n: ("FR", BuyArmy(item="infantry", count=n, nation="holland")), st.integers(1, 8)),
    st.builds(lambda p, n: (p, PayDebt(to="GB", amount=n)), st.sampled_from(("AU", "RU")), st.integers(1, 60)),
)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(_order, max_size=8), st.dictionaries(st.sampled_from(POWERS), st.integers(0, 120), max_size=3))
def test_money_and_manpower_conserved_across_lending_and_spending(orders, treasuries):
    """12.3, 12.5: lending moves money and never makes it; spending removes exactly the price."""
    ctx = ctx_with(strict=False)
    st0 = build_state({"alliances": [["FR", "SP"]], "treasury": treasuries, "month": "1806-06"}, ctx)
    by_power: dict[str, list] = {p: [] for p in POWERS}
    for p, o in orders:
        if isinstance(o, GiveMoney) and o.to == p:
            continue
        by_power[p].append(o)
    st1 = with_orders(st0, by_power, ctx)
    w = run_steps(st1, ctx)
    _reconciles(st0, w)
    for step in ("12.3 lending",):
        assert sum(ln.money for ln in w.ledger.lines if ln.step == step) == 0
    assert sum(ln.money for ln in w.ledger.lines if "informal debt" in ln.item) == 0
    assert all(ln.manpower == 0 for ln in w.ledger.lines if ln.step == "12.3 lending")
    for p in POWERS:
        spent = -sum(ln.money for ln in w.ledger.lines if ln.power == p and ln.item.startswith("buy "))
        men = -sum(ln.manpower for ln in w.ledger.lines if ln.power == p and ln.item.startswith("buy "))
        bought = w.state.powers[p].builds.values()
        assert spent == sum(COSTS[b.item].money * b.count for b in bought)
        assert men == sum(COSTS[b.item].manpower * b.count for b in bought)
    for p in POWERS:
        assert w.state.powers[p].treasury >= 0 and w.state.powers[p].manpower >= 0


# ----------------------------------------------------------------- the CLI


def test_cli_summary_text_and_json(run_cli):
    code, out, err = run_cli("economy", "summary", "--power", "GB")
    assert code == 0, err
    assert "colonial trade" in out and "+30 $" in out and "+6 vp" in out
    code, out, err = run_cli("economy", "summary", "--json", "--month", "1805-09", "--power", "SP")
    assert code == 0, err
    data = json.loads(out)
    sp = [f for f in data["funds"] if f["fund"] == "SP"][0]
    assert sp["closing_money"] == sp["opening_money"] + sum(ln["money"] for ln in sp["lines"])
    assert any(ln["item"] == "Spanish gold" for ln in sp["lines"])


def test_cli_summary_refuses_bad_month(run_cli):
    code, out, err = run_cli("economy", "summary", "--month", "1805-04")
    assert code != 0
    assert err.startswith("eiapbem: error: --month 1805-04 has no economic phase")
    assert "Traceback" not in err


# ----------------------------------------------------------------- a year of economic phases


@pytest.mark.slow
def test_a_year_of_economic_phases_on_the_1805_scenario():
    """1805-03 to 1805-12 through the engine: every power's summary reconciles line by line."""
    from eiapbem.cli.economy_cmd import render

    ctx = ctx_with(strict=False)
    state = build_state({"trade": {"FR": ["GB"], "GB": ["FR", "RU", "PR"], "RU": ["GB"], "PR": ["GB"]},
                         "alliances": [["GB", "RU"]]}, ctx)
    plan = {
        3: {"FR": [BuyArmy(item="infantry", count=3), BuyShips(item="heavy", count=1, port="brest")],
            "GB": [GiveMoney(to="RU", amount=20)], "RU": [BuyArmy(item="artillery", count=1)]},
        6: {"AU": [BuyArmy(item="cavalry", count=1)], "PR": [BuyArmy(item="infantry", count=4)]},
        9: {"SP": [BuyArmy(item="infantry", count=2)], "TU": [BuyCounter(unit="corps:TU:Janissary-I")]},
        12: {"FR": [BuyArmy(item="guard", count=1)], "GB": [BuyShips(item="light", count=1, port="portsmouth")]},
    }
    texts = []
    for month in (3, 6, 9, 12):
        state = state.replace(date=Date(1805, month), slot=Slot(Phase.ECONOMIC, ORDERS, None, POWERS))
        orders = {p: plan[month].get(p, []) for p in POWERS}
        for p in POWERS:
            engine.check_orders(state, p, orders[p], ctx)
        w = run_steps(with_orders(state, orders, ctx), ctx)
        _reconciles(state, w)
        out = engine.resolve_slot(state, orders, ctx)
        for p in POWERS:
            assert out.state.powers[p].treasury == w.state.powers[p].treasury
        recs = phase.summary(state, ctx, orders)
        for r in recs:
            if r["fund"] == r["power"]:
                assert r["closing_money"] == out.state.powers[r["power"]].treasury
                assert r["closing_manpower"] == out.state.powers[r["power"]].manpower
        texts.append(render(recs, state, "test"))
        state = out.state
    assert state.powers["FR"].builds["1805-06/FR/infantry/-"].count == 3
    assert state.powers["FR"].builds["1806-03/FR/heavy/brest"].count == 1
    assert any("Spanish gold" in t for t in texts)
    assert all(p in texts[0] for p in POWERS)
    assert state.powers["GB"].victory_points == 4 * 6


def test_loans_from_diplomacy_arrive_and_gifts_move_in_the_step():
    # 6.12 (000:868): money given in a diplomacy phase arrives at the economic phase; 12.3 (000:2172).
    st0, w = run({"alliances": [["GB", "RU"]], "loans": {"GB": {"RU": 12}}},
                 {"RU": [GiveMoney(to="GB", amount=5)]})
    assert money(w, "RU", "money received from GB") == 12
    assert money(w, "RU", "money given to GB") == -5
    assert money(w, "GB", "money received from RU") == 5
    assert w.state.powers["GB"].loans == {}


def test_ceded_province_pays_tax_but_no_manpower():
    # 12.2.1 (000:2080) taxes ceded provinces; 12.2.2 (000:2162) not their manpower.
    _, w = run({"ceded": {"tyrol": "FR"}})
    assert money(w, "FR", "tax Tyrol") > 0
    assert not any(ln.fund == "FR" and ln.item == "manpower Tyrol" for ln in w.ledger.lines)
    assert not any(ln.fund == "AU" and ln.item == "tax Tyrol" for ln in w.ledger.lines)


def test_free_state_collects_printed_values_under_economic_loss():
    # 000:2156: under an economic loss a free state collects its printed, not doubled, values.
    _, w = run({"status": {"FR": 6}}, forced={"economy/1805-03/FR/eln": 1})
    assert money(w, "holland", "tax Holland") == 4


def test_returned_leader_costs_its_ratings():
    # 12.4.2 (000:2186): a leader removed by C.6 comes back for political points.
    # 13.8.3 (000:2648): strategic + tactical political points; back from the next month.
    ctx = ctx_with()
    lid = next(k for k, v in state_for().leaders.items() if v.power == "FR")
    st0 = state_for(leaders={lid: {"status": "removed"}})
    s, t, _ = manipulation.leader_ratings(ctx, lid)
    w = run_steps(with_orders(st0, {"FR": [phase.ReturnLeader(leader=lid)]}, ctx), ctx)
    assert any(ln.item == f"leader {lid} bought back" and ln.political == -(s + t) for ln in w.ledger.lines)
    assert w.state.leaders[lid].returns == Date(1805, 4)


def _rhine_for(power):
    minors = [c for c in kingdoms.RHINE_COMPONENTS if c not in ("magdeburg", "tyrol")]
    return {m: {"status": "conquered", "controller": power} for m in minors[:15]}


def test_confederation_of_the_rhine_created_once_and_ends_without_corps():
    # 12.8.1 (000:2282-2294): 15 components, +2; never while another power's exists; it ends when
    # its controller holds no component minor with corps.
    ctx = ctx_with()
    st0 = state_for(minors=_rhine_for("FR"))
    w = run_steps(with_orders(st0, {"FR": [CreateKingdom(kingdom="confederation-of-the-rhine")]}, ctx), ctx)
    rhine = w.state.minors["confederation-of-the-rhine"]
    assert rhine.controller == "FR"
    assert w.state.minors["bavaria"].kingdom == "confederation-of-the-rhine"
    assert any(ln.item == "confederation-of-the-rhine created" and ln.political == 2 for ln in w.ledger.lines)
    with pytest.raises(IllegalAction, match="already exists"):
        kingdoms.check_creation(w.state, ctx, "AU", "confederation-of-the-rhine")
    # Its parts' money is pooled and doubled in the next phase.
    w2 = run_steps(w.state, ctx)
    assert money(w2, "confederation-of-the-rhine", "tax Bavaria") == 2 * ctx.map.province("bavaria").tax
    # Every part with corps lost to Austria: the confederation ends.
    st3 = w.state
    for slug in ("baden", "bavaria", "hanover", "hesse", "saxony", "wurttemberg"):
        if slug in st3.minors:
            st3 = st3.with_minor(slug, st3.minors[slug].replace(controller="AU", kingdom=None, status=MinorStatus.CONQUERED))
    w3 = run_steps(st3, ctx)
    assert "confederation-of-the-rhine" not in w3.state.minors
    assert all(m.kingdom is None for m in w3.state.minors.values())


def test_kingdom_purchases_for_a_part_are_lost():
    # 000:2286: purchases made for a free state before it becomes a component are lost.
    ctx = ctx_with()
    minors = _rhine_for("FR")
    minors["bavaria"] = {"status": "free-state", "controller": "FR"}
    st0 = state_for(minors=minors, month="1806-03")
    st1 = run_steps(with_orders(st0, {"FR": [GiveMoney(to="bavaria", amount=10),
                                             BuyArmy(item="infantry", count=1, nation="bavaria")]}, ctx), ctx).state
    assert any(b.nation == "bavaria" for b in st1.powers["FR"].builds.values())
    st2 = kingdoms.create(st1, ctx, "FR", "confederation-of-the-rhine")
    assert not any(b.nation == "bavaria" for b in st2.powers["FR"].builds.values())


def test_removed_cossack_not_placed_again_the_same_phase_and_piracy_months_reset():
    # 13.2.2 (000:2432): removed cossacks come back only at a later economic phase.
    ctx = ctx_with()
    area = ctx.map.areas_of_province("don")[0]
    st0 = state_for(units={"corps:RU:Cossack-1": {"at": f"area:{area}"},
                           "fleet:FR:1": {"at": "sea:north-atlantic", "light": 2, "mission": "piracy",
                                          "target": "GB", "months": 3}})
    with pytest.raises(IllegalAction, match="later phase"):
        engine.check_orders(st0, "RU", [RemoveLevy(corps="corps:RU:Cossack-1"),
                                        PlaceLevy(corps="corps:RU:Cossack-1", area=area)], ctx)
    w = run_steps(with_orders(st0, {"RU": [RemoveLevy(corps="corps:RU:Cossack-1")]}, ctx), ctx)
    assert w.state.units["corps:RU:Cossack-1"].location.kind is LocationKind.POOL
    assert w.state.units["fleet:FR:1"].piracy_months == 0


def test_orders_kingdoms_and_victors_survive_encoding():
    # The model fields (economic orders on the order sheet, MinorCountry.provinces, GameState.victors) round-trip.
    from eiapbem.rules.model import GameState

    ctx = ctx_with()
    st0 = state_for(alliances=[["FR", "SP"]], vp={"FR": 399})
    st1 = with_orders(st0, {"FR": [BuyShips(item="light", count=1, port="toulon"), Cede(territory="hanover", to="SP"),
                                   GiveMoney(to="SP", amount=3)],
                            "PR": [CreateKingdom(kingdom="poland")]}, ctx)
    assert GameState.decode(st1.encode()) == st1
    st2 = run_steps(st1, ctx).state
    assert st2.victors == ("FR",) and "poland" in st2.minors
    assert GameState.decode(st2.encode()) == st2


def test_every_economic_order_registers_its_own_check_as_a_unit():
    # One (class, verify, apply, candidates) unit per order, no isinstance dispatch.
    import inspect

    from eiapbem.rules.economy import phase

    assert len({unit[0] for unit in phase.ACTIONS}) == len(phase.ACTIONS) == 13
    assert "isinstance(a," not in "".join(inspect.getsource(unit[1]) for unit in phase.ACTIONS)
    assert set(phase._GATHER) == {unit[0] for unit in phase.ACTIONS}
