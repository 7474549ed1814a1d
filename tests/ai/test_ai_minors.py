"""The computer and minor countries (6.6) and Turkey's feudal corps (13.2.3): session 2026-12-02c.

- every computer stands as a candidate to run attacked neutral minors ("Accept control of", 6.6);
- the hard level weighs who would run a minor before declaring war on it;
- a computer leaves alone the minor a stronger computer picks the same month (6.6.3);
- Turkey's feudal corps come back on the map at war and are raised in December.
"""

from __future__ import annotations

import dataclasses

import pytest

import aikit

from eiapbem import ai
from eiapbem.ai import feudal, grand, judge
from eiapbem.ai.levels import level
from eiapbem.rules import engine
from eiapbem.rules.diplomacy.orders import AcceptControl, DeclareWar
from eiapbem.rules.economy.levy import feudal_full
from eiapbem.rules.forces import feudal_province
from eiapbem.rules.land.feudal import ReturnFeudal
from eiapbem.rules.model import POOL, POWERS, Corps, Date, Factors, MinorStatus, Phase, PlayerKind, Slot
from eiapbem.rules.model.slot import ORDERS
from eiapbem.rules.tables.diplomacy import minor

HARD, MEDIUM, EASY = level("ai-hard"), level("ai-medium"), level("ai-easy")


def ctx(seed: bytes = b"ai-minors"):
    return aikit.ctx(seed)


@pytest.fixture(scope="module")
def set_up():
    """1805-01, the diplomacy phase, every power set up by the computer, all of them ai-hard."""
    return aikit.diplomacy_start(b"ai-minors")


def _kinds(st, **kinds):
    for p, k in kinds.items():
        st = st.with_power(p, controller=PlayerKind(k))
    return st


# ----------------------------------------------------------------- 6.6: accepting control


def test_every_computer_accepts_control_of_the_minors_it_could_run_but_the_one_it_attacks(set_up):
    st = _kinds(set_up, **{p: "ai-easy" for p in POWERS})
    st = _kinds(st, AU="ai-medium")
    for p in ("AU", "FR"):
        acts = ai.orders(st, p, ctx(p.encode()))
        ticked = {a.minor for a in acts if isinstance(a, AcceptControl)}
        attacked = {a.target for a in acts if isinstance(a, DeclareWar)}
        want = {x for x, m in st.minors.items() if m.status is MinorStatus.NEUTRAL and m.part_of is None
                and minor(x).modifier(p) is not None} - attacked
        assert ticked == want and not ticked & attacked
        assert "persia" not in ticked  # NA for every power on the minor country chart
    # a minor it is at war with already is not one it may run (6.6)
    busy = st.with_power("FR", minor_wars=st.powers["FR"].minor_wars.set("bavaria", st.date))
    assert not grand.accepts_control(busy, ctx(), "FR", "bavaria", EASY)
    assert grand.accepts_control(st, ctx(), "FR", "bavaria", EASY)


def test_a_minor_a_computer_attacks_is_run_by_another_computer_not_auto_conquered(set_up):
    """6.6, 6.6.4, 6.6.5: the medium level declares on a weak minor without weighing the runners; an easy
    computer that accepts control is chosen, gains +1 per district, and the aggressor pays its -1s (6.2.1)."""
    st = _kinds(set_up, **{p: "ai-easy" for p in POWERS})
    st = _kinds(st, AU="ai-medium")
    for q in POWERS:  # bound to peace with every major: its war plan declares on none, so a minor is its war
        if q != "AU":
            st = st.with_power("AU", enforced_peace=st.powers["AU"].enforced_peace.set(q, st.date.plus(18)))
    orders = {p: list(ai.orders(st, p, ctx(p.encode()))) for p in POWERS}
    t = next((a.target for a in orders["AU"] if isinstance(a, DeclareWar) and a.target not in POWERS), None)
    assert t is not None
    before = {p: st.powers[p].political_status for p in POWERS}
    out = engine.resolve_slot(st, orders, ctx(b"resolve"))
    m = out.state.minors[t]
    assert m.status is MinorStatus.FREE_STATE and m.controller not in (None, "AU") and m.setup_due
    assert not any(e.kind == "diplomacy.auto-conquest" for e in out.events)
    runner = m.controller
    assert out.state.powers[runner].political_status > before[runner]


def test_runners_follow_the_order_of_who_is_asked_and_a_human_is_taken_to_be_willing(set_up):
    st = _kinds(set_up, **{p: "ai-easy" for p in POWERS})
    rs = grand.runners(st, ctx(), "AU", "bavaria")
    assert "AU" not in rs and set(rs) == {p for p in POWERS if p != "AU" and minor("bavaria").modifier(p) is not None}
    # allies of the aggressor only when no one else is willing (6.6)
    allied = st.with_alliance("AU", "FR", st.date)
    assert "FR" not in grand.runners(allied, ctx(), "AU", "bavaria")
    # a level that does not accept control is no runner; a human is (its ticks are sealed)
    no = dataclasses.replace(EASY, accept_control=False)
    import eiapbem.ai.levels as levels

    saved = levels.LEVELS[PlayerKind.AI_EASY]
    levels.LEVELS[PlayerKind.AI_EASY] = no
    try:
        assert grand.runners(st, ctx(), "AU", "bavaria") == []
        human = st.with_power("PR", controller=PlayerKind.HUMAN)
        assert grand.runners(human, ctx(), "AU", "bavaria") == ["PR"]
    finally:
        levels.LEVELS[PlayerKind.AI_EASY] = saved
    assert grand.runners(st, ctx(), "AU", "persia") == []  # NA for every power: no one may run Persia


def test_hard_declares_on_a_minor_someone_would_run_only_when_it_still_wins(set_up):
    """The weighing rule: no runner, or its might at ``runner_ratio`` of the minor's with the strongest runner's
    field forces added when that runner is at war with it (or a human, who may support the minor, 6.6.6)."""
    st = _kinds(set_up, **{p: "ai-easy" for p in POWERS})
    blind = dataclasses.replace(HARD, weigh_runners=False)
    t = grand.minor_war_target(st, ctx(), "AU", blind)
    assert t is not None and grand.runners(st, ctx(), "AU", t)
    mine, theirs = grand.might(st, ctx(), "AU"), grand.minor_might(st, ctx(), t)
    never = dataclasses.replace(HARD, weigh_runners=True, runner_ratio=0)
    assert t not in grand._minor_options(st, ctx(), "AU", never)
    # computers at peace with Austria add nothing: it still wins at the minor's own odds
    odds = dataclasses.replace(HARD, weigh_runners=True, runner_ratio=300)
    assert t in grand._minor_options(st, ctx(), "AU", odds)
    assert grand.ratio(mine, theirs) >= odds.runner_ratio
    # every runner a human: the strongest human's army counts, and Austria does not outnumber it threefold
    humans = _kinds(st, **{p: "human" for p in POWERS if p != "AU"})
    assert t not in grand._minor_options(humans, ctx(), "AU", odds)
    # no runner at all (no computer accepts, no human): declared on as before
    import eiapbem.ai.levels as levels

    saved = levels.LEVELS[PlayerKind.AI_EASY]
    levels.LEVELS[PlayerKind.AI_EASY] = dataclasses.replace(EASY, accept_control=False)
    try:
        assert grand.runners(st, ctx(), "AU", t) == [] and t in grand._minor_options(st, ctx(), "AU", never)
    finally:
        levels.LEVELS[PlayerKind.AI_EASY] = saved


def test_a_computer_with_an_accept_hold_declines_a_minor_a_neighbour_would_conquer(set_up):
    st = _kinds(set_up, **{p: "ai-easy" for p in POWERS})
    t = grand.minor_war_target(st, ctx(), "AU", dataclasses.replace(HARD, weigh_runners=False))
    holds = dataclasses.replace(EASY, accept_hold=300)
    far = [q for q in POWERS if q != "AU" and grand.accepts_control(st, ctx(), q, t, EASY)]
    assert far and not any(grand.accepts_control(st, ctx(), q, t, holds) for q in far)  # Austria borders it


# ----------------------------------------------------------------- 6.6.3: two computers, one minor


def test_a_computer_leaves_alone_the_minor_a_stronger_computer_picks_the_same_month(set_up, monkeypatch):
    st = _kinds(set_up, **{p: "ai-easy" for p in POWERS})
    st = _kinds(st, AU="ai-hard", PR="ai-hard", RU="ai-medium")
    order = sorted(("AU", "PR", "RU"), key=lambda q: (-grand.might(st, ctx(), q), POWERS.index(q)))
    first, second, third = order
    wants = {first: ["saxony", "bavaria"], second: ["saxony", "baden"], third: ["saxony", "baden", "hesse"]}
    monkeypatch.setattr(grand, "_minor_options", lambda state, c, q, lvl: list(wants.get(q, [])) if lvl.minor_war_ratio else [])
    monkeypatch.setattr(grand, "_majors", lambda state, c: {})
    got = {q: grand.minor_war_target(st, ctx(q.encode()), q, HARD) for q in order}
    assert got == {first: "saxony", second: "baden", third: "hesse"}
    # a stronger computer whose war plan declares on a major this month picks no minor
    monkeypatch.setattr(grand, "_majors", lambda state, c: {first: "FR"})
    assert grand.minor_war_target(st, ctx(), second, HARD) == "saxony"
    # an easy computer takes its pick too (every level makes war on minors); a human's is not foreseen
    monkeypatch.setattr(grand, "_majors", lambda state, c: {})
    assert grand.minor_war_target(_kinds(st, **{first: "ai-easy"}), ctx(), second, HARD) == "baden"
    assert grand.minor_war_target(_kinds(st, **{first: "human"}), ctx(), second, HARD) == "saxony"


def test_no_forced_war_over_one_minor_between_computers_in_the_opening_month(set_up):
    """6.6.3 in play: every power a hard computer, orders resolved together, no two declare on one minor."""
    orders = {p: list(ai.orders(set_up, p, ctx(p.encode()))) for p in POWERS}
    targets = [a.target for p in POWERS for a in orders[p] if isinstance(a, DeclareWar) and a.target not in POWERS]
    assert len(targets) == len(set(targets))
    out = engine.resolve_slot(set_up, orders, ctx(b"resolve"))
    assert not any(e.kind == "diplomacy.war" and "both attack" in e.text for e in out.events)


# ----------------------------------------------------------------- 13.2.3: Turkey's feudal corps


def _tu_land(st):
    return st.replace(slot=Slot(Phase.LAND, "turn", "TU", ("TU",)))


def test_turkey_brings_its_feudal_corps_on_the_map_at_war_and_not_at_peace(set_up):
    corps = feudal.feudal_corps(set_up, "TU")
    pooled = [u for u in corps if u.location == POOL and u.factors.total > 0]
    assert pooled, "the 1805 feudal corps start in the pool at full strength (5.3.1)"
    peace = _tu_land(set_up.replace(date=Date(1805, 2)))
    assert not [a for a in ai.plan(peace, "TU", ctx()).actions if isinstance(a, ReturnFeudal)]
    war = peace.with_war("RU", "TU", peace.date.plus(-1), ("RU",))
    b = ai.plan(war, "TU", ctx())
    back = [a for a in b.actions if isinstance(a, ReturnFeudal)]
    assert back
    m = ctx().map
    for a in back:
        assert m.area(a.area).province == feudal_province(ctx(), a.unit) and m.area(a.area).city is not None
        assert b.state.units[a.unit].location.site == a.area
        assert b.state.land_moves[a.unit].placed_back  # 000:2456: no move this month


def test_turkey_raises_its_feudal_corps_in_december(set_up):
    u = next(c for c in feudal.feudal_corps(set_up, "TU") if c.location == POOL)
    weak = set_up.with_unit(u.replace(factors=Factors()))
    eco = weak.replace(date=Date(1805, 12), slot=Slot(Phase.ECONOMIC, ORDERS, None, POWERS))
    eco = eco.with_war("RU", "TU", Date(1805, 6), ("RU",))
    acts = ai.orders(eco, "TU", ctx())
    placed = {a.corps: a.area for a in acts if type(a).__name__ == "PlaceLevy"}
    assert u.id in placed and ctx().map.area(placed[u.id]).province == feudal_province(ctx(), u.id)
    out = engine.resolve_slot(eco, {p: list(ai.orders(eco, p, ctx(p.encode()))) for p in POWERS}, ctx(b"r"))
    assert out.state.units[u.id].factors == feudal_full(ctx(), u.id)
    # not in another month, and not from the pool at peace
    assert not [a for a in ai.orders(eco.replace(date=Date(1806, 3)), "TU", ctx()) if type(a).__name__ == "PlaceLevy"
                and a.corps.startswith("corps:TU:Feudal")]
    calm = weak.replace(date=Date(1805, 12), slot=Slot(Phase.ECONOMIC, ORDERS, None, POWERS))
    assert u.id not in {a.corps for a in ai.orders(calm, "TU", ctx()) if type(a).__name__ == "PlaceLevy"}


# ----------------------------------------------------------------- a capital lost (12.2.1, 6.4)


def test_a_power_without_its_capital_counts_as_losing_and_seeks_peace(set_up):
    """12.2.1 (000:2084): no taxes at all while the national capital is held by the enemy; a peace gives it back
    (6.4, 000:736, ``rules.peace_capitals``), so the computer counts a lost capital as two home areas lost and its
    war plan seeks peace once its corps cannot retake it (``strategy.can_retake``)."""
    from eiapbem.ai import strategy
    from eiapbem.rules.model import CityControl, Location, LocationKind

    st = set_up
    for uid, u in sorted(st.units.items()):
        if u.location == Location(LocationKind.CITY, "vienna"):
            st = st.without_unit(uid)
    st = st.with_war("PR", "AU", st.date.plus(-3), ("PR",))
    assert grand.home_lost(st, ctx(), "AU") == 0
    taken = st.replace(city_control=st.city_control.set("vienna", CityControl(nation="PR", since=st.date)))
    assert grand.home_lost(taken, ctx(), "AU") == 2
    # its army intact and nothing holding Vienna, Austria marches back to retake it before it thinks of a peace
    assert strategy.can_retake(judge.board(taken, ctx()), "AU")
    assert strategy.war_plan(taken, "AU", HARD, ctx()).peace == ()
    assert "vienna" in {a.area for a in strategy.war_plan(taken, "AU", HARD, ctx()).aims}
    # its army gone, the capital lost makes it seek peace
    spent = taken
    for uid, u in sorted(taken.units.items()):
        if isinstance(u, Corps) and u.nation == "AU":
            spent = spent.with_unit(u.replace(factors=Factors()))
    assert not strategy.can_retake(judge.board(spent, ctx()), "AU")
    assert strategy.war_plan(spent, "AU", HARD, ctx()).peace == ("PR",)
    assert strategy.war_plan(st, "AU", HARD, ctx()).sue == ()  # no surrender while Vienna is its own
