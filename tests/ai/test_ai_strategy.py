"""The computer's war plan (issue 28 item 1, item 3's diplomacy, item 5's situations): whom to fight, whom to ally
with, what to take, when to make peace; each test asserts the behaviour, not the exact orders.

The state after the classic-1805 default setups (every power the computer, hard) is made once, in memory
(``client.duel.play`` with no month to play); the situations are built from it.
"""

from __future__ import annotations

import dataclasses

import pytest

import aikit

from eiapbem import ai
from eiapbem.ai import judge, strategy
from eiapbem.ai.levels import level
from eiapbem.rules import engine
from eiapbem.rules.diplomacy.minor_orders import LendMoney
from eiapbem.rules.diplomacy.orders import AttemptInformalPeace, DeclareWar
from eiapbem.rules.model import (POWERS, CityControl, Corps, Date, Factors, FrozenMap, LeaderStatus, Location, LocationKind,
                                 MinorStatus, Phase, PlayerKind, Slot)
from eiapbem.rules.model.battles import BattleEvent, BattleSide, FieldBattle
from eiapbem.rules.model.slot import ORDERS

HARD, MEDIUM, EASY = (level(k) for k in ("ai-hard", "ai-medium", "ai-easy"))
#: The narrower judgments of a war (``Level.judgment``) the war plan can be given: the allies called and the
#: distances, not the second front nor a coalition to join; the two armies alone.
ALLIES = dataclasses.replace(HARD, judgment="allies")
OWN = dataclasses.replace(HARD, judgment="own")


def ctx(seed: bytes = b"ai-strategy"):
    return aikit.ctx(seed)


@pytest.fixture(scope="module")
def set_up():
    """1805-01, the diplomacy phase, every power set up by the computer (ai-hard), nobody at war."""
    return aikit.diplomacy_start(b"ai-strategy")


def _kinds(st, kind):
    for p in POWERS:
        st = st.with_power(p, controller=PlayerKind(kind))
    return st


def _resolve(st, **given):
    """The month's orders: the computers' own, and ``given`` for the others (a human's), resolved."""
    orders = {p: list(given[p]) if p in given else list(ai.orders(st, p, ctx(p.encode()))) for p in POWERS}
    return engine.resolve_slot(st, orders, ctx(b"resolve"))


def _battle(st, n, area, winner_power, loser_power, points=3, when=None):
    """A finished field battle of this month (or ``when``) won by ``winner_power`` (its political points as the rules
    log them)."""
    events = (BattleEvent(1, 1, "battle.political-points", "points", FrozenMap({"gain": points, "loss": points})),)
    when = when or st.date
    bid = f"battle:{when.year:04d}-{when.month:02d}:{area}:{n}"
    b = FieldBattle(id=bid, kind="field", area=area, terrain="flat", river_crossing=False,
                    attacker=BattleSide(role="attacker", power=winner_power, units=()),
                    defender=BattleSide(role="defender", power=loser_power, units=()),
                    stage="done", winner="attacker", events=events)
    return st.replace(battles=st.battles.set(bid, b))


def _take(st, city, by):
    """``by`` holds ``city`` (its city and area), a corps of its standing there; the defenders are gone."""
    for uid, u in sorted(st.units.items()):
        if getattr(u, "location", None) is not None and u.location.site == city and u.location.kind in (
                LocationKind.CITY, LocationKind.AREA):
            for lead in sorted(st.leaders.values(), key=lambda x: x.id):
                if lead.attached_to == uid:
                    st = st.with_leader(lead.replace(status=LeaderStatus.AVAILABLE, attached_to=None))
            st = st.without_unit(uid)
    corps = next(u for _, u in sorted(st.units.items()) if isinstance(u, Corps) and u.nation == by
                 and u.location.kind is LocationKind.AREA)
    st = st.with_unit(corps.replace(location=Location(LocationKind.CITY, city)))
    return st.replace(city_control=st.city_control.set(city, CityControl(nation=by, since=st.date)))


# ----------------------------------------------------------------- the plan as a record


def test_the_plan_is_a_pure_function_of_the_state_in_whole_numbers(set_up):
    a = strategy.war_plan(set_up, "FR", HARD, ctx(b"one"))
    b = strategy.war_plan(set_up, "FR", HARD, ctx(b"two"))  # another slot's dice: the same plan
    assert a == b and strategy.war_plan(set_up, "FR", HARD, ctx(b"one")) is a
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.declare = None  # type: ignore[misc]
    assert a.declare is None or a.declare in a.enemies
    for p in POWERS:
        plan = strategy.war_plan(set_up, p, HARD, ctx())
        assert all(isinstance(x.worth, int) and isinstance(x.area, str) for x in plan.aims)
        assert list(plan.aims) == sorted(plan.aims, key=lambda x: -x.worth)
        assert set(plan.peace) <= set(plan.enemies) and set(plan.friends) <= set(set_up.powers[p].alliances)


# ----------------------------------------------------------------- whom to fight, whom to ally with


def test_britain_fights_france_and_the_continent_allies_against_the_strongest_threat(set_up):
    gb = strategy.war_plan(set_up, "GB", HARD, ctx())
    # 15.0: Britain's worst stance is toward France (-10); its fleets outweigh France's at sea
    assert gb.declare == "FR" and gb.threat == "FR" and gb.main_enemy == "FR"
    assert gb.aims[0].area == "paris" and gb.aims[0].enemy == "FR"
    for p in ("AU", "PR", "RU"):
        assert strategy.war_plan(set_up, p, HARD, ctx()).threat == "FR"
    wants = {p: set(strategy.war_plan(set_up, p, HARD, ctx()).alliances) for p in POWERS}
    assert "AU" in wants["GB"] and "GB" in wants["AU"]  # asked both ways: the alliance is made (6.5)
    assert "RU" in wants["PR"] and "PR" in wants["RU"]
    # Spain, next to France and far from any help, would ask France instead (the table lets it: 0 both ways), but
    # France declares war on it this month, which it foresees
    assert judge.declarations(judge.board(set_up, ctx())).get("FR") == "SP" and wants["SP"] == set()
    out = _resolve(set_up)
    st = out.state
    assert "FR" in st.powers["GB"].wars
    assert "AU" in st.powers["GB"].alliances and "RU" in st.powers["PR"].alliances
    # the next month Britain pays its allies: those fighting France, else those facing the same threat (6.12)
    nxt = st.replace(date=st.date.next(), slot=Slot(Phase.DIPLOMACY, ORDERS, None, POWERS))
    nxt = nxt.with_power("GB", treasury=400)
    plan = strategy.war_plan(nxt, "GB", HARD, ctx())
    b = judge.board(nxt, ctx())
    assert plan.subsidies and all(a in nxt.powers["GB"].alliances for a, _ in plan.subsidies)
    assert sum(x for _, x in plan.subsidies) <= (400 - strategy.RESERVE) * HARD.subsidy_share // 100
    for a, _ in plan.subsidies:
        assert "FR" in nxt.powers[a].wars or judge.declarations(b).get(a) == "FR" or strategy.threat(b, a) == "FR"


def test_an_enforced_peace_lapsed_the_power_joins_its_allies_war_on_its_former_victor(set_up):
    """Spain surrendered to France (6.4.2: 18 months of enforced peace both ways); its allies fight France. While the
    enforced peace holds it declares nothing on France (6.2.2); the month it ends, the war is judged again as any
    other (the allies at war with France on its side, the -3 of the declaration, 6.2.1) and Spain joins it."""
    st = set_up
    for a in ("AU", "PR", "RU", "GB"):
        st = st.with_alliance("SP", a, st.date.plus(-6))
        st = st.with_war(a, "FR", st.date.plus(-4), (a,))
    for until, declared in ((st.date.plus(1), None), (st.date, "FR")):
        t = st.with_power("SP", enforced_peace=st.powers["SP"].enforced_peace.set("FR", until))
        t = t.with_power("FR", enforced_peace=t.powers["FR"].enforced_peace.set("SP", until))
        assert strategy.war_plan(t, "SP", HARD, ctx()).declare == declared, until
    assert DeclareWar("FR") in ai.orders(t, "SP", ctx(b"SP"))


def test_no_war_on_an_ally_a_natural_friend_or_under_an_enforced_peace(set_up):
    bound = set_up.with_power("GB", enforced_peace=set_up.powers["GB"].enforced_peace.set("FR", set_up.date.plus(18)))
    assert strategy.war_plan(bound, "GB", HARD, ctx()).declare != "FR"
    allied = set_up.with_alliance("GB", "FR", set_up.date)
    assert strategy.war_plan(allied, "GB", HARD, ctx()).declare != "FR"
    # 15.0: Prussia and Russia +3 both ways: neither is ever a candidate of the other at any level
    for lvl in (EASY, MEDIUM, HARD):
        b = judge.board(set_up, ctx())
        assert "PR" not in judge.candidates(b, "RU", dataclasses.replace(lvl, plan_candidates=6))
    # ... unless the friend is at war with one of its allies
    st = set_up.with_alliance("RU", "TU", set_up.date).with_war("PR", "TU", set_up.date, ("PR",))
    assert not judge.natural_friends(st, "RU", "PR")


def test_the_judgments_see_the_sides_of_a_war_differently(set_up):
    # Austria outnumbers Turkey two to one; the coalition judgment sees France, the strongest power next to it, which
    # would find Vienna open: the war is not worth it.  The allies judgment, which does not look behind it, would
    # declare.  (France and Russia humans here: a computer France busy with a war of its own this month would leave
    # Vienna safe, and a computer Russia declaring on Turkey too would leave it half an army.)
    set_up = set_up.with_power("FR", controller=PlayerKind.HUMAN).with_power("RU", controller=PlayerKind.HUMAN)
    b = judge.board(set_up, ctx())
    assert judge.second_front(b, "AU", ("AU",), ("TU",)) == "FR"
    hard, medium = judge.judge_war(b, "AU", "TU", HARD), judge.judge_war(b, "AU", "TU", ALLIES)
    assert hard.worth < 0 < medium.worth and hard.ratio < medium.ratio
    # the own judgment sees the two armies alone: not the ally a defender calls (6.3.2), which the others count
    allied = set_up.with_alliance("AU", "RU", set_up.date)
    ab = judge.board(allied, ctx())
    assert judge.sides(ab, "FR", "AU", OWN) == (("FR",), ("AU",))
    assert judge.sides(ab, "FR", "AU", ALLIES) == (("FR",), ("AU", "RU")) == judge.sides(ab, "FR", "AU", HARD)
    assert judge.judge_war(ab, "FR", "AU", OWN).ratio > judge.judge_war(ab, "FR", "AU", ALLIES).ratio


def test_france_looks_for_the_war_it_can_win_and_no_level_sits_still(set_up):
    for kind in ("ai-easy", "ai-medium", "ai-hard"):
        st = _kinds(set_up, kind)
        lvl = level(kind)
        b = judge.board(st, ctx())
        plan = strategy.war_plan(st, "FR", lvl, ctx())
        worths = {q: judge.judge_war(b, "FR", q, lvl).worth for q in judge.candidates(b, "FR", lvl)}
        assert plan.declare is not None, kind  # no level is passive
        assert worths[plan.declare] == max(worths.values()) > 0
        enemy_capital = ctx().map.national_capitals(plan.declare)[0]
        assert plan.aims[0] == strategy.Aim(plan.declare, enemy_capital, plan.aims[0].worth)
    # the war plan is the same at every level (issue 28 item 3: the levels differ in how they fight, not in how
    # ready they are for war)
    def plan_knobs(lvl):
        return lvl.judgment, lvl.plan_months, lvl.plan_candidates, lvl.weary_months, lvl.minor_war_ratio
    assert plan_knobs(EASY) == plan_knobs(MEDIUM) == plan_knobs(HARD)


def test_allies_declare_together_on_an_enemy_none_would_fight_alone(set_up):
    # Austria, Prussia and Russia allied; France already fighting Britain and Spain.  Alone, each would lose; Austria
    # and Prussia together, next to France, are worth the war; Russia, far away, joins the coalition they make with
    # Britain and Spain (the hard level sees the powers already at war with France on its side, allied or not).
    st = set_up.with_alliance("AU", "PR", set_up.date).with_alliance("AU", "RU", set_up.date)
    st = st.with_alliance("PR", "RU", st.date).with_war("GB", "FR", st.date.plus(-3), ("GB",))
    st = st.with_war("FR", "SP", st.date.plus(-3), ("FR",))
    got = judge.declarations(judge.board(st, ctx()))
    assert got.get("AU") == got.get("PR") == got.get("RU") == "FR"
    alone = judge.before_declarations(judge.board(st, ctx()))
    for p in ("AU", "PR", "RU"):
        others = tuple(x for x in ("AU", "PR", "RU") if x != p)
        assert judge.judge_war(alone, p, "FR", HARD).worth < 0 < judge.judge_war(alone, p, "FR", HARD, others).worth
    out = _resolve(st)
    assert "FR" in out.state.powers["AU"].wars and "FR" in out.state.powers["PR"].wars


def test_no_war_on_a_partner_against_the_same_rival(set_up):
    # Prussia and Austria both face France (their rival, 15.0 and the balance of forces): Austria busy with Turkey is
    # no opening for Prussia; a war of Austria on Prussia's ally would be.
    st = set_up.with_war("AU", "TU", set_up.date.plus(-1), ("AU",))
    b = judge.board(st, ctx())
    assert judge.rival(b, "PR") == judge.rival(b, "AU") == "FR" and judge.partners(b, "PR", "AU")
    assert "AU" not in judge.candidates(b, "PR", HARD)
    st = st.with_alliance("PR", "TU", st.date)
    assert not judge.partners(judge.board(st, ctx()), "PR", "AU")


# ----------------------------------------------------------------- item 5: situations


def test_an_ally_calls_and_the_call_is_answered(set_up):
    """6.3: France (a human) declares war on Austria; Austria, allied with Russia, calls it; Russia answers."""
    st = set_up.with_alliance("AU", "RU", set_up.date).with_power("FR", controller=PlayerKind.HUMAN)
    out = _resolve(st, FR=[DeclareWar("AU")])
    assert "AU" in out.state.powers["FR"].wars
    assert "FR" in out.state.powers["RU"].wars and "AU" in out.state.powers["RU"].alliances
    assert any(e.kind == "diplomacy.call" and "answers" in e.text for e in out.events)


def test_a_defender_calls_no_computer_ally_that_would_refuse(set_up):
    """6.3.2: a called ally that refuses breaks the alliance. Prussia (a human) declares war on Austria, allied with
    Britain and Russia, Russia allied with Prussia too: Russia cannot declare war on its ally, so Austria does not
    call it and keeps the alliance; an ally that answers is called."""
    st = set_up.with_alliance("AU", "RU", set_up.date).with_alliance("RU", "PR", set_up.date)
    st = st.with_power("PR", controller=PlayerKind.HUMAN)
    out = _resolve(st, PR=[DeclareWar("AU")])
    assert "AU" in out.state.powers["PR"].wars
    assert "RU" in out.state.powers["AU"].alliances and "PR" not in out.state.powers["RU"].wars
    assert not any(e.kind == "diplomacy.call" and "Russia" in e.text and "refuses" in e.text for e in out.events)


def _losing_austria(set_up, months=4):
    """Austria at war with France for ``months``: Vienna taken, two battles lost to the French."""
    st = set_up.with_war("FR", "AU", set_up.date.plus(-months), ("FR",))
    st = _take(st, "vienna", "FR")
    st = _battle(_battle(st, 0, "linz", "FR", "AU"), 1, "brunn", "FR", "AU")
    return st


def test_a_war_is_fought_from_the_first_battle_between_the_two(set_up):
    """A war's months toward weariness (``judge.war_state``) count from the first field battle between the two: a war
    of ten months whose armies first met four months ago has been fought four; one whose armies never met, the months
    past ``judge.UNFOUGHT``."""
    st = set_up.with_war("FR", "AU", set_up.date.plus(-10), ("FR",))
    assert judge.war_state(judge.board(st, ctx()), "AU", "FR").months == 10 - judge.UNFOUGHT
    st = _battle(st, 0, "linz", "FR", "AU", when=st.date.plus(-4))
    st = _battle(st, 1, "ulm", "FR", "RU", when=st.date.plus(-6))  # another power's battle: not this war's
    assert judge.war_state(judge.board(st, ctx()), "AU", "FR").months == 4


def test_a_war_being_lost_ends_in_peace_and_a_war_being_won_does_not(set_up):
    st = _losing_austria(set_up)
    b = judge.board(st, ctx())
    ws = judge.war_state(b, "AU", "FR")
    assert ws.capitals_lost >= 2 and ws.battles < 0 and ws.months == 0  # fought from its first battle, this month
    au = strategy.war_plan(st, "AU", HARD, ctx())
    assert au.peace == ("FR",)
    fr = strategy.war_plan(st, "FR", HARD, ctx())
    assert fr.peace == () and "AU" not in fr.accept_informal  # the winner goes on until the loser sues
    out = _resolve(st)
    assert "FR" not in out.state.powers["AU"].wars  # a surrender: France's terms (B.4 and a province, 6.4.2)
    assert any(e.kind == "diplomacy.peace" and "Austria surrenders" in e.text for e in out.events)
    # the same war the other way round: Austria holds Paris and won the battles; it seeks no peace
    won = set_up.with_war("FR", "AU", set_up.date.plus(-4), ("FR",))
    won = _take(won, "paris", "AU")
    won = _battle(_battle(won, 0, "strasbourg", "AU", "FR"), 1, "nancy", "AU", "FR")
    assert strategy.war_plan(won, "AU", HARD, ctx()).peace == ()
    # France's army, intact and near, retakes Paris before it thinks of peace; spent, France sues
    assert strategy.can_retake(judge.board(won, ctx()), "FR") and strategy.war_plan(won, "FR", HARD, ctx()).peace == ()
    for uid, u in sorted(won.units.items()):
        if isinstance(u, Corps) and u.nation == "FR" and u.location.kind is LocationKind.AREA:
            won = won.with_unit(u.replace(factors=Factors()))
    assert strategy.war_plan(won, "FR", HARD, ctx()).peace == ("AU",)


def test_a_war_nobody_wins_fades_into_an_informal_peace(set_up):
    # Prussia and Russia at war two years, nothing taken, no battle: war-weariness (6.4.1) once the months past
    # judge.UNFOUGHT count as fought
    st = set_up.with_war("PR", "RU", set_up.date.plus(-24), ("PR",))
    pr, ru = strategy.war_plan(st, "PR", HARD, ctx()), strategy.war_plan(st, "RU", HARD, ctx())
    assert "RU" in pr.accept_informal and "PR" in ru.accept_informal
    out = _resolve(st)
    assert "RU" not in out.state.powers["PR"].wars
    assert any("informal peace" in e.text for e in out.events if e.kind == "diplomacy.peace")


def test_a_power_beaten_in_the_field_does_not_declare_the_same_war_again_at_once(set_up):
    # France's war of choice (Spain, the one it can win); had Spain beaten the French twice in the field within the
    # last year (after an informal peace, say), France would not pay -3 (6.2.1) to try again as if nothing had
    # happened; battles older than judge.MEMORY months are forgotten
    target = strategy.war_plan(set_up, "FR", HARD, ctx()).declare
    assert target is not None

    def beaten(months_ago):
        when = set_up.date.plus(-months_ago)
        return _battle(_battle(set_up, 0, "linz", target, "FR", when=when), 1, "brunn", target, "FR", when=when)

    recent = beaten(2)
    assert judge.recent_battles(judge.board(recent, ctx()), "FR", target) < 0
    assert strategy.war_plan(recent, "FR", HARD, ctx()).declare != target
    old = beaten(judge.MEMORY + 1)
    assert judge.recent_battles(judge.board(old, ctx()), "FR", target) == 0
    assert strategy.war_plan(old, "FR", HARD, ctx()).declare == target


def test_no_war_on_a_power_made_informal_peace_with_of_late(set_up):
    # 6.4.1: an informal peace binds nothing, and the state kept no record of it, so France could declare again on
    # the power it had just made peace with; within judge.INFORMAL_RESPITE months it does not, after them it may.
    from eiapbem.rules.diplomacy.common import set_mutual

    target = strategy.war_plan(set_up, "FR", HARD, ctx()).declare
    assert target is not None
    for months_ago, declares in ((1, False), (judge.INFORMAL_RESPITE, False), (judge.INFORMAL_RESPITE + 1, True)):
        st = set_mutual(set_up, "informal_peace", "FR", target, set_up.date.plus(-months_ago))
        assert judge.lately_at_peace(st, "FR", target) is not declares
        assert (target in judge.candidates(judge.board(st, ctx()), "FR", HARD)) is declares, months_ago
        assert (strategy.war_plan(st, "FR", HARD, ctx()).declare == target) is declares, months_ago
        assert (DeclareWar(target) in ai.orders(st, "FR", ctx(b"FR"))) is declares, months_ago


def test_subsidies_go_to_allies_fighting_its_enemy_and_are_given(set_up):
    st = set_up.with_alliance("GB", "AU", set_up.date).with_war("GB", "FR", set_up.date.plus(-2), ("GB",))
    st = st.with_war("FR", "AU", st.date.plus(-2), ("FR",)).with_power("GB", treasury=400)
    plan = strategy.war_plan(st, "GB", HARD, ctx())
    assert plan.subsidies == (("AU", (400 - strategy.RESERVE) * HARD.subsidy_share // 100),)
    gb = ai.orders(st, "GB", ctx(b"GB"))
    assert LendMoney(to="AU", amount=plan.subsidies[0][1]) in gb
    out = _resolve(st)
    assert out.state.powers["GB"].loans.get("AU") == plan.subsidies[0][1]


def test_a_subsidy_leaves_the_ally_no_richer_per_factor_than_the_giver(set_up):
    # 6.12: Britain and Austria at war with France: the gift leaves Austria no richer per factor of its army than
    # Britain, so Austria never gives the money back (Britain and Spain sent each other $100-200 a month)
    st = set_up.with_alliance("GB", "AU", set_up.date).with_war("GB", "FR", set_up.date.plus(-2), ("GB",))
    st = st.with_war("FR", "AU", st.date.plus(-2), ("FR",)).with_power("GB", treasury=400).with_power("AU", treasury=300)
    b = judge.board(st, ctx())
    gb, au = b.land["GB"], b.land["AU"]
    assert gb < au  # Britain's army is the smaller
    ((to, gift),) = strategy.war_plan(st, "GB", HARD, ctx()).subsidies
    assert to == "AU" and gift == min((400 - strategy.RESERVE) * HARD.subsidy_share // 100, (400 * au - 300 * gb) // (au + gb))
    assert (400 - gift) * au >= (300 + gift) * gb
    # Austria, richer than Britain but with the larger army to pay, gives nothing back
    assert strategy.war_plan(st, "AU", HARD, ctx()).subsidies == ()


def test_a_power_paid_by_its_ally_pays_none_of_it_back(set_up):
    # Prussia, paid by Britain and then holding more money than Britain, keeps it for its army: Britain holds more
    # per factor of its own (Prussia paid Britain back $136 of a $261 subsidy)
    st = set_up.with_alliance("GB", "PR", set_up.date).with_war("GB", "FR", set_up.date.plus(-2), ("GB",))
    st = st.with_war("FR", "PR", st.date.plus(-2), ("FR",)).with_power("GB", treasury=150).with_power("PR", treasury=400)
    b = judge.board(st, ctx())
    assert 150 * b.land["PR"] > 400 * b.land["GB"]
    assert strategy.war_plan(st, "PR", HARD, ctx()).subsidies == ()


def test_a_month_of_the_plan_in_every_slot_costs_little(set_up):
    # every slot of a power may ask: a new state is judged once, then the plan is kept for it
    st = set_up.replace(date=Date(1805, 2))
    first = strategy.war_plan(st, "RU", HARD, ctx())
    assert strategy.war_plan(st, "RU", HARD, ctx(b"land")) is first


def test_a_war_not_yet_fought_is_not_ended_before_the_armies_meet(set_up):
    # Austria declared on France three months ago; no battle, nothing taken: neither side sues nor offers an informal
    # peace (the war would end unfought), whatever the balance says; once beaten in the field, the loser sues
    st = set_up.with_war("AU", "FR", set_up.date.plus(-3), ("AU",))
    for p in ("AU", "FR"):
        ws = judge.war_state(judge.board(st, ctx()), p, "FR" if p == "AU" else "AU")
        assert not strategy.beaten(ws) and not strategy.winning(ws)
        assert strategy.war_plan(st, p, HARD, ctx()).peace == ()
    lost = _battle(_battle(st, 0, "linz", "FR", "AU"), 1, "brunn", "FR", "AU")
    ws = judge.war_state(judge.board(lost, ctx()), "FR", "AU")
    assert strategy.winning(ws) and not strategy.beaten(ws)
    assert "AU" not in strategy.war_plan(lost, "FR", HARD, ctx()).accept_informal  # the winner goes on


def test_a_power_joins_a_coalition_already_at_war_with_its_rival(set_up):
    # 1806: Prussia, allied with nobody, weighs a war on France that Austria and Britain already fight: the coalition
    # judgment (every level's) counts them on its side (the balance of power); the allies judgment sees only its allies
    st = set_up.with_war("AU", "FR", set_up.date.plus(-2), ("AU",)).with_war("GB", "FR", set_up.date.plus(-2), ("GB",))
    b = judge.board(st, ctx())
    hard = judge.judge_war(b, "PR", "FR", HARD)
    assert "AU" in hard.mine and "GB" in hard.mine
    assert judge.judge_war(b, "PR", "FR", ALLIES).mine == ("PR",)
    alone = judge.judge_war(judge.board(set_up, ctx()), "PR", "FR", HARD)
    assert hard.win > alone.win


def test_no_money_to_an_ally_fighting_another_ally(set_up):
    # Spain and Britain at war with Austria; Spain allied with Britain, which it would pay to fight Austria -- but not
    # once it is allied with France too, which Britain fights: money to Britain would serve an ally's enemy
    st = set_up.with_alliance("SP", "GB", set_up.date).with_power("SP", treasury=2000)
    st = st.with_war("SP", "AU", st.date.plus(-2), ("SP",)).with_war("GB", "AU", st.date.plus(-2), ("GB",))
    st = st.with_war("GB", "FR", st.date.plus(-2), ("GB",)).with_power("GB", treasury=100)
    assert [a for a, _ in strategy.war_plan(st, "SP", HARD, ctx()).subsidies] == ["GB"]
    st = st.with_alliance("SP", "FR", st.date)
    assert strategy.war_plan(st, "SP", HARD, ctx()).subsidies == ()


def _march(st, power, area, count):
    """``count`` of ``power``'s corps (the largest first) stand in ``area``'s rural part."""
    mine = sorted((u for _, u in sorted(st.units.items()) if isinstance(u, Corps) and u.nation == power
                   and u.location.kind in (LocationKind.AREA, LocationKind.CITY) and u.factors.total),
                  key=lambda u: (-u.factors.total, u.id))[:count]
    for u in mine:
        st = st.with_unit(u.replace(location=Location(LocationKind.AREA, area)))
    return st


def _routed_austria(set_up):
    """Austria at war with France for four months, routed in the field (three battles of armies lost, 6.4.2)."""
    st = set_up.with_war("FR", "AU", set_up.date.plus(-4), ("FR",))
    for n, area in enumerate(("ulm", "linz", "brunn")):
        st = _battle(st, n, area, "FR", "AU")
    return st


def test_a_routed_power_with_its_capital_safe_and_an_army_left_holds_out(set_up):
    # the French army is at home, far from Vienna, and Austria still has its corps: it fights on
    st = _routed_austria(set_up)
    b = judge.board(st, ctx())
    assert judge.war_state(b, "AU", "FR").battles <= -strategy.ROUTED
    assert strategy.holds_out(b, "AU")
    assert "FR" not in strategy.war_plan(st, "AU", HARD, ctx()).peace
    # the same rout with Napoleon's army at Linz, next to Vienna: its capital in danger, it sues
    near = _march(st, "FR", "linz", 20)
    assert not strategy.holds_out(judge.board(near, ctx()), "AU")
    assert "FR" in strategy.war_plan(near, "AU", HARD, ctx()).peace


@pytest.mark.parametrize("lvl", (EASY, MEDIUM, HARD), ids=lambda x: x.kind.value)
def test_a_victor_within_reach_of_the_enemy_capital_presses_on_and_takes_it_before_the_peace(set_up, lvl):
    st = _march(_kinds(_routed_austria(set_up), lvl.kind.value), "FR", "linz", 20)
    fr = strategy.war_plan(st, "FR", lvl, ctx())
    assert "AU" in fr.pressing and "AU" not in fr.accept_informal and fr.peace == ()
    # the routed loser sues, France offers unconditional terms only, and Austria, its capital still its own and an
    # army left, refuses them (6.4.2): the war goes on
    out = _resolve(st)
    assert "FR" in out.state.powers["AU"].wars
    assert any(e.kind == "diplomacy.peace" and "Austria refuses France's unconditional terms" in e.text
               for e in out.events)
    # once Vienna has fallen, Austria takes the terms
    taken = _take(st, "vienna", "FR")
    assert "AU" not in strategy.war_plan(taken, "FR", lvl, ctx()).pressing
    out = _resolve(taken)
    assert "FR" not in out.state.powers["AU"].wars
    assert any(e.kind == "diplomacy.peace" and "Austria surrenders" in e.text for e in out.events)


def test_no_victor_presses_on_with_a_lone_corps_or_against_a_capital_held_in_strength(set_up):
    st = _march(_routed_austria(set_up), "FR", "linz", 1)
    assert "AU" not in strategy.war_plan(st, "FR", HARD, ctx()).pressing  # one corps is not an army
    st = _march(_march(_routed_austria(set_up), "FR", "linz", 3), "AU", "vienna", 12)
    assert "AU" not in strategy.war_plan(st, "FR", HARD, ctx()).pressing  # Austria's army stands before Vienna


def _spain_bound_by_france(set_up, ally_at_war=True):
    """Spain surrendered to France (6.4.2: an enforced peace both ways); its ally Austria fights Turkey (or not);
    Morocco and Algeria, across the straits from Spain, are Turkey's allied minors (6.1.3: they go to war with an
    aggressor)."""
    st = set_up.with_alliance("SP", "AU", set_up.date.plus(-3))
    if ally_at_war:
        st = st.with_war("AU", "TU", set_up.date.plus(-2), ("AU",))
    until = st.date.plus(12)
    st = st.with_power("SP", enforced_peace=st.powers["SP"].enforced_peace.set("FR", until))
    st = st.with_power("FR", enforced_peace=st.powers["FR"].enforced_peace.set("SP", until))
    for slug in ("morocco", "algeria"):
        st = st.with_minor(slug, st.minors[slug].replace(status=MinorStatus.ALLIED, controller="TU"))
    return st


def test_a_power_at_peace_wages_a_far_war_for_the_enemy_minors_next_to_it(set_up):
    """Spain's army has no war to fight while the enforced peace with France holds.  Turkey, at war with its ally
    Austria, is out of its reach by land (``judge.REACH``), but Turkey's allied minors Morocco and Algeria lie across
    the straits within a few months' march, and Spain's army outnumbers either three to one: joining the war on Turkey
    is worth its -3 for them (each district conquered +1, 000:3224): Spain declares it, their capitals its aims.  With
    those minors neutral, or no ally of Spain at war with Turkey, it does not."""
    st = _spain_bound_by_france(set_up)
    b = judge.board(st, ctx())
    assert not judge.in_reach(b, "SP", "TU") and not judge.land_war(b, "SP", "TU")
    assert {m for m, _ in judge.far_minors(b, "SP", "TU", HARD)} == {"morocco", "algeria"}
    plan = strategy.war_plan(st, "SP", HARD, ctx())
    assert plan.declare == "TU" and judge.judge_war(b, "SP", "TU", HARD).worth > 0
    assert {"fez", "algiers"} <= {a.area for a in plan.aims if a.enemy == "TU"}
    assert DeclareWar("TU") in ai.orders(st, "SP", ctx(b"SP"))
    # at war: Fez, Morocco's capital, taken; the minor is Spain's only after a month's occupation with a corps there
    # (13.3.1), so it stays an aim until then (the army does not march off the month it enters)
    at_war = _take(st.with_war("SP", "TU", st.date, ("SP",)), "fez", "SP")
    assert at_war.minors["morocco"].controller == "TU"
    assert "fez" in {a.area for a in strategy.war_plan(at_war, "SP", HARD, ctx()).aims}
    # the minors neutral: nothing near to take, Turkey out of reach, no war
    neutral = st
    for slug in ("morocco", "algeria"):
        neutral = neutral.with_minor(slug, st.minors[slug].replace(status=MinorStatus.NEUTRAL, controller=None))
    nb = judge.board(neutral, ctx())
    assert judge.far_minors(nb, "SP", "TU", HARD) == () and "TU" not in judge.candidates(nb, "SP", HARD)
    assert strategy.war_plan(neutral, "SP", HARD, ctx()).declare is None
    # a power with a land war of its own keeps its army for it
    busy = st.with_war("FR", "SP", st.date.plus(-1), ("FR",))
    assert judge.far_minors(judge.board(busy, ctx()), "SP", "TU", HARD) == ()
    # no ally of Spain fights Turkey: no war of its own on a far power
    alone = _spain_bound_by_france(set_up, ally_at_war=False)
    assert judge.far_minors(judge.board(alone, ctx()), "SP", "TU", HARD) == ()
    assert strategy.war_plan(alone, "SP", HARD, ctx()).declare is None


def test_britain_makes_no_informal_peace_with_france_while_an_ally_fights_it_on(set_up):
    """Britain at war with France ten months, beaten once in the field and nothing else decided: alone, the war is
    worth nothing more and it accepts an informal peace (6.4.1); with Austria, its ally, at war with France and not
    overrun, it neither offers nor accepts one (the ally would be left alone against France); once Vienna has fallen
    and Austria is overrun, Britain is free to make its peace."""
    alone = _battle(set_up.with_war("GB", "FR", set_up.date.plus(-10), ("GB",)), 0, "amiens", "FR", "GB")
    assert "FR" in strategy.war_plan(alone, "GB", HARD, ctx()).accept_informal
    allied = alone.with_alliance("GB", "AU", alone.date).with_war("AU", "FR", alone.date.plus(-10), ("AU",))
    gb = strategy.war_plan(allied, "GB", HARD, ctx())
    assert "FR" not in gb.accept_informal and "FR" not in gb.informal
    assert strategy.stands_by(judge.board(allied, ctx()), "GB", "FR")
    offered = _resolve(alone.with_power("FR", controller=PlayerKind.HUMAN), FR=[AttemptInformalPeace("GB")])
    assert "FR" not in offered.state.powers["GB"].wars  # alone, Britain takes France's offer
    refused = _resolve(allied.with_power("FR", controller=PlayerKind.HUMAN), FR=[AttemptInformalPeace("GB")])
    assert "FR" in refused.state.powers["GB"].wars and "FR" in refused.state.powers["AU"].wars
    overrun = _take(allied, "vienna", "FR")
    assert "FR" in strategy.war_plan(overrun, "GB", HARD, ctx()).accept_informal


def test_no_alliance_is_asked_of_the_power_war_is_declared_on(set_up, monkeypatch):
    # 6.5.1: powers at war may not ally; a plan that declares war on a power, or foresees its declaration, and asks
    # it for an alliance in the same orders contradicts itself (France asked Turkey for an alliance and declared war on it in one phase). Spain,
    # overawed by France, would ask France for an alliance; were its war of choice France, it asks nothing of it.
    monkeypatch.setattr(judge, "declarations", lambda b: {})
    assert strategy.war_plan(set_up.replace(), "SP", HARD, ctx()).alliances == ("FR",)
    monkeypatch.setattr(judge, "declarations", lambda b: {"SP": "FR"})
    wp = strategy.war_plan(set_up.replace(), "SP", HARD, ctx())  # a new state: the plans are kept per state
    assert wp.declare == "FR" and "FR" not in wp.alliances
    # nor of a computer it foresees declaring war on it this month (Spain asked France, which declared on Spain)
    monkeypatch.setattr(judge, "declarations", lambda b: {"FR": "SP"})
    assert "FR" not in strategy.war_plan(set_up.replace(), "SP", HARD, ctx()).alliances


def test_no_alliance_is_asked_of_a_power_at_war_with_an_ally(set_up):
    # 6.3, 6.5: an alliance with both sides of a war is broken at the first call (Austria, allied with Britain and
    # Russia, allied with France, at war with Britain, and broke it a month later answering Russia's call: -2).
    # Britain asks Austria for an alliance against France; with Austria allied with Turkey, which Britain fights,
    # neither asks the other.
    assert "AU" in strategy.war_plan(set_up, "GB", HARD, ctx()).alliances
    assert "GB" in strategy.war_plan(set_up, "AU", HARD, ctx()).alliances
    st = set_up.with_war("GB", "FR", set_up.date.plus(-2), ("GB",)).with_war("GB", "TU", set_up.date.plus(-2), ("GB",))
    st = st.with_alliance("AU", "TU", st.date)
    assert "AU" not in strategy.war_plan(st, "GB", HARD, ctx()).alliances
    assert "GB" not in strategy.war_plan(st, "AU", HARD, ctx()).alliances


def test_a_war_to_end_informally_is_not_turned_into_a_surrender_to_be_allowed_to_sue_another(set_up):
    # 6.4.2: suing an enemy with no forces inside the home nation means suing every enemy at once. Austria, beaten by
    # France (no French corps inside Austria) and at war with Turkey, which it does not count as lost, sues nobody
    # this month (the Turkish war is ended first, informally); with Turkey's war lost too it sues both; with a French
    # corps inside Austria it sues France alone.
    st = set_up.with_war("FR", "AU", set_up.date.plus(-6), ("FR",)).with_war("AU", "TU", set_up.date.plus(-6), ("AU",))
    assert strategy.suits_allowed(st, ctx(), "AU", {"FR": False}) == {}
    assert strategy.suits_allowed(st, ctx(), "AU", {"FR": False, "TU": True}) == {"FR": False, "TU": True}
    inside = _take(st, "vienna", "FR")
    assert strategy.suits_allowed(inside, ctx(), "AU", {"FR": False}) == {"FR": False}
