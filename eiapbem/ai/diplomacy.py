"""An AI power's diplomacy orders (6.0-6.16; issues 16, 19 and 28): legal every month, never blocking.

The orders are made from the power's war plan (``eiapbem.ai.strategy.war_plan``), so that declarations,
alliances, calls, subsidies and suits agree with what its armies are told; each is tried through the rules
(``Builder.try_``), in this order:

- trade (6.10): every power not at war with Great Britain requests trade with
  it; Great Britain allows every power it is not at war with (the hard level:
  not a power at war with one of its allies);
- calls to allies (6.3.1): it answers the calls of its ``friends`` against any enemy but a natural friend of its own
  (15.0); it calls, against a power it declares war on (as the aggressor, a refused call costs it -2, 6.3.2), the
  computer allies that may declare war on it and would gain by joining (``judge.judge_war``), and against any other
  power (as a defender) all its allies but the computers that would refuse (``_would_answer``: a refusal costs the
  caller no points but the alliance, 6.3.2: a small power's war on Austria broke Austria's alliances with Britain
  and Russia, both friends of that power);
- the VICTORY CONDITIONS SCREEN (6.4) toward each enemy: the easy level gives
  conditional terms B.2 then B.3 (the longer peace and reparations: no
  political points); the others give conditional terms B.4 first (a royal marriage is +2 political points for
  the victor, 000:3205), then B.6 (a province, the richest the rules let it take, B.6 000:2930), B.3, B.1, or
  unconditional B.4, C.4, C.3, C.1.a (C.7 after B.4 against Great Britain) to an enemy whose side is under 40% of
  its own (the hard level, ``sure_terms``, gives conditional terms even then: an unconditional surrender the loser
  refuses earns nothing), and every level gives those unconditional terms to an enemy whose capital its army presses
  on (``WarPlan.pressing``: the war goes on to the capital); it accepts an informal peace when the plan says the
  war is worth nothing more to it (``WarPlan.accept_informal``); as loser it claims A.5 (cede no land) against a victor that would take land, else
  A.1 (remove no forces) when its army is the smaller, else A.2 (pay no reparations);
- a declaration of war (6.2) on ``WarPlan.declare``, else on a neutral minor (``grand.minor_war_target``);
- suits for peace (6.4.2) and informal peace (6.4.1): ``WarPlan.sue`` and ``WarPlan.informal``;
- alliance requests (6.5), ``WarPlan.alliances`` (standing: a request no longer wanted is withdrawn), and access
  (6.11) granted to an ally at war with one of its enemies;
- money to allies (6.12): ``WarPlan.subsidies``;
- "Accept control of" (6.6, 6.6.4, 6.6.5), at the levels with ``accept_control``: every neutral minor it could
  run (``grand.accepts_control``) but the one it declares war on this month;
- manipulation of minor countries (6.1.4): up to the level's attempts on the
  neutral minors (or its own influenced ones) with its best national modifier
  (ties in name order), investing the level's share of its money.

Suing for peace in civil disorder is done by the rules (6.4.3).
"""

from __future__ import annotations

import eiapbem.ai.grand as grand
import eiapbem.ai.judge as judge
import eiapbem.ai.strategy as strategy
from eiapbem.ai.levels import Level
from eiapbem.rules.diplomacy.minor_orders import MAX_ATTEMPTS, LendMoney, Manipulate
from eiapbem.rules.diplomacy.orders import (AcceptControl, AnswerCalls, AttemptInformalPeace, CallAllies, DeclareWar,
                                            GrantAccess, RequestAlliance, SetSurrenderTerms, SetTrade, SueForPeace)
from eiapbem.rules.diplomacy.terms import cession_candidates
from eiapbem.rules.model import POWERS, MinorStatus, PlayerKind, SurrenderSettings
from eiapbem.rules.model.slot import COMMIT
from eiapbem.rules.tables.diplomacy import NATURAL_ALLIANCE, minor

#: An enemy whose side is under this percentage of the victor's gets unconditional terms (medium, hard).
CRUSHED = 40


def _cessions(b, enemy: str, count: int) -> tuple[str, ...]:
    """The home provinces and minors of ``enemy`` the rules would let the power take (B.6, C.4: next to its territory
    or holding its corps, not the capital's), the richest first."""
    m = b.ctx.map
    provinces = set(m.provinces_of(enemy))
    options = sorted((-m.province(x).tax if x in provinces else -1, x)
                     for x in cession_candidates(b.state, b.ctx, b.power, enemy))
    return tuple(x for _, x in options[:count])


def _settings(b, lvl: Level, enemy: str, plan: strategy.WarPlan) -> SurrenderSettings:
    st, p = b.state, b.power
    easy = lvl.kind is PlayerKind.AI_EASY
    takes_land = any(t in ("B.6", "C.4") for t in strategy.victor_terms(st, enemy))
    claim = "A.2"
    if not easy:
        claim = "A.5" if takes_land else "A.1" if grand.might(st, b.ctx, p) < grand.might(st, b.ctx, enemy) else "A.2"
    accept = enemy in plan.accept_informal
    if lvl.terms == "plain" and enemy not in plan.pressing:
        return SurrenderSettings(give_conditional=True, terms=("B.2", "B.3"), accept_informal=accept,
                                 if_conditional_offered=claim)
    # B.6, C.4 cede only the provinces or minors named (6.4.3): with none that qualifies the term would take the
    # place of one that gives something, and is refused (``terms.verify_cessions``)
    if enemy in plan.pressing or (grand.balance(st, b.ctx, enemy, p, lvl.judgment) < CRUSHED and not lvl.sure_terms):
        cede = _cessions(b, enemy, 3)
        terms = ("B.4",) + (("C.7",) if enemy == "GB" else ()) + (("C.4",) if cede else ()) + ("C.3", "C.1.a")
        return SurrenderSettings(give_conditional=False, terms=terms, accept_informal=accept,
                                 if_conditional_offered=claim, cede=cede)
    cede = _cessions(b, enemy, 1)
    return SurrenderSettings(give_conditional=True, terms=("B.4",) + (("B.6",) if cede else ()) + ("B.3", "B.1"),
                             accept_informal=accept, if_conditional_offered=claim, cede=cede)


def _trade(b, lvl: Level) -> None:
    st, p = b.state, b.power
    ps = st.powers[p]
    if p == "GB":
        for q in POWERS:
            if q == p:
                continue
            deny = q in ps.wars or (lvl.deny_trade and any(q in st.powers[a].wars for a in ps.alliances))
            if deny and q in ps.trade:
                b.try_(SetTrade(q, stop=True))
            elif not deny and q not in ps.trade:
                b.try_(SetTrade(q))
    elif "GB" not in ps.wars and "GB" not in ps.trade:
        b.try_(SetTrade("GB"))


def _calls(b, plan: strategy.WarPlan, start) -> None:
    """``start``: the slot's starting state, which the plans are judged on (the builder's state has the orders given
    so far, which change no judgement)."""
    st, p = start, b.power
    ps = b.state.powers[p]
    bd = judge.board(st, b.ctx)
    for enemy in POWERS:
        if enemy == p:
            continue
        answer = () if _friendly(p, enemy) else tuple(a for a in plan.friends if a != enemy)
        if enemy == plan.declare:  # as the aggressor: only allies that will answer and gain by it (6.3.2)
            call = tuple(a for a in sorted(ps.alliances) if a != enemy and bd.level(a) is not None
                         and bd.may_declare(a, enemy) and p in strategy.war_plan(st, a, _level(bd, a), b.ctx).friends
                         and judge.judge_war(bd, a, enemy, _level(bd, a), (p,)).worth > 0)
        else:  # as the defender: every ally but a computer that would refuse (a refusal breaks the alliance, 6.3.2)
            call = tuple(a for a in sorted(ps.alliances) if a != enemy
                         and (bd.level(a) is None or _would_answer(bd, st, b.ctx, a, p, enemy)))
        if ps.standing_orders.answer_calls.get(enemy, ()) != answer and (answer or enemy in ps.standing_orders.answer_calls):
            b.try_(AnswerCalls(enemy, answer))
        if ps.standing_orders.call_allies.get(enemy, ()) != call and (call or enemy in ps.standing_orders.call_allies):
            b.try_(CallAllies(enemy, call))


def _friendly(p: str, enemy: str) -> bool:
    """``p`` and ``enemy`` are natural friends, one way or the other (15.0): ``p`` answers no call against it."""
    return NATURAL_ALLIANCE[p][enemy] >= 1 or NATURAL_ALLIANCE[enemy][p] >= 1


def _would_answer(bd: judge.Board, st, ctx, ally: str, caller: str, enemy: str) -> bool:
    """The computer ``ally`` answers ``caller``'s call against ``enemy`` by its own standing orders (``_calls``): the
    caller one of its friends, the enemy no natural friend of its own, and a declaration on the enemy open to it."""
    if _friendly(ally, enemy):
        return False
    if enemy in st.powers[ally].wars:
        return True
    return caller in strategy.war_plan(st, ally, _level(bd, ally), ctx).friends and bd.may_declare(ally, enemy)


def _level(bd: judge.Board, p: str) -> Level:
    lvl = bd.level(p)
    assert lvl is not None
    return lvl


def _surrender_terms(b, lvl: Level, plan: strategy.WarPlan) -> None:
    for enemy in plan.enemies:
        want = _settings(b, lvl, enemy, plan)
        if b.state.powers[b.power].standing_orders.surrender.get(enemy) != want:
            b.try_(SetSurrenderTerms(enemy, give_conditional=want.give_conditional, term=want.terms,
                                     accept_informal=want.accept_informal,
                                     if_conditional_offered=want.if_conditional_offered, cede=want.cede))


def _alliances_and_access(b, lvl: Level, plan: strategy.WarPlan) -> None:
    st, p = b.state, b.power
    wanted = plan.alliances
    standing = st.powers[p].standing_orders.request_alliance
    for q in standing:
        if q not in wanted:
            b.try_(RequestAlliance(q, withdraw=True))
    for q in wanted:
        if q not in standing:
            b.try_(RequestAlliance(q))
    if not lvl.seek_alliances:
        return
    ps = b.state.powers[p]
    for q in sorted(ps.alliances):
        shares = any(e in b.state.powers[q].wars for e in ps.wars)
        if shares and q not in ps.access:
            b.try_(GrantAccess(q))


def _accept_control(b, lvl: Level, attacked: str | None) -> None:
    """6.6: stand as a candidate to run each neutral minor ``grand.accepts_control`` allows but the one it attacks
    this month (an aggressor is never chosen).  The ticks are reactions, kept by the power's own program and not in
    the state between months (issue 16): ordered only where the state's set differs."""
    st, p = b.state, b.power
    mights = {q: grand.might(st, b.ctx, q) for q in POWERS} if lvl.accept_hold else None
    want = {slug for slug in sorted(st.minors)
            if slug != attacked and grand.accepts_control(st, b.ctx, p, slug, lvl, mights)}
    have = set(st.powers[p].standing_orders.accept_control)
    for slug in sorted(have - want):
        b.try_(AcceptControl(slug, withdraw=True))
    for slug in sorted(want - have):
        b.try_(AcceptControl(slug))


def _manipulate(b, lvl: Level) -> None:
    st, p = b.state, b.power
    if not lvl.manipulations:
        return
    options = []
    for slug, m in sorted(st.minors.items()):
        if m.part_of is not None or (m.status is not MinorStatus.NEUTRAL
                                     and not (m.status is MinorStatus.INFLUENCED and m.controller == p)):
            continue
        mod = minor(slug).modifier(p)
        if mod is None or mod < 1:
            continue
        options.append((-mod, slug))
    tries = 0
    for _, slug in sorted(options):
        if tries >= min(lvl.manipulations, MAX_ATTEMPTS):
            return
        money = b.state.powers[p].treasury * lvl.invest_share // 100 // min(lvl.manipulations, MAX_ATTEMPTS)
        if b.try_(Manipulate(slug, investment=money)) or b.try_(Manipulate(slug)):
            tries += 1


def plan(b, lvl: Level) -> None:
    """Give the power's diplomacy orders on the builder ``b`` (``eiapbem.ai.Builder``)."""
    st = b.state
    if st.slot is None or st.slot.step == COMMIT:
        return  # the computer commits nothing: its orders are computed by every client at the reveal
    wp = strategy.war_plan(st, b.power, lvl, b.ctx)
    _trade(b, lvl)
    _calls(b, wp, st)
    _surrender_terms(b, lvl, wp)
    attacked = None
    if wp.declare is not None:
        b.try_(DeclareWar(wp.declare))
    else:
        attacked = grand.minor_war_target(st, b.ctx, b.power, lvl)  # judged on the starting state, as the plan
        if attacked is not None:
            b.try_(DeclareWar(attacked))
    _accept_control(b, lvl, attacked)
    for e, accept in wp.sue:
        b.try_(SueForPeace(e, accept_unconditional=accept))
    for e in wp.informal:
        b.try_(AttemptInformalPeace(e))
    _alliances_and_access(b, lvl, wp)
    for ally, amount in wp.subsidies:
        b.try_(LendMoney(to=ally, amount=amount))
    _manipulate(b, lvl)
