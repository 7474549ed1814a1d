"""An AI power's diplomacy orders (6.0-6.16; issues 16 and 19): legal every month, never blocking.

The strategy is ``eiapbem.ai.grand`` (when to declare war and on whom, when to
sue for peace, whom to ask for an alliance); this module turns it into orders,
each tried through the rules (``Builder.try_``), in this order:

- trade (6.10): every power not at war with Great Britain requests trade with
  it; Great Britain allows every power it is not at war with (the hard level:
  not a power at war with one of its allies);
- calls to allies (6.3.1): it answers every ally's call against any enemy,
  and calls its allies against an aggressor;
- the VICTORY CONDITIONS SCREEN (6.4) toward each enemy: the easy level gives
  conditional terms B.2 then B.3 (the longer peace and reparations: no
  political points) and accepts an informal peace; the others give
  conditional terms B.4 first (a royal marriage is +2 political points for
  the victor, 000:3205), then B.3, B.1, B.2 (reparations, three corps
  removed), or unconditional B.4, C.3, C.1.a, C.2 (C.7 after B.4 against
  Great Britain) to an enemy whose side is under 40% of its own (the hard
  level, ``sure_terms``, gives conditional terms even then: an unconditional
  surrender the loser refuses earns nothing); the hard level
  (``informal_first``) accepts an informal peace when it is losing, or in a
  war declared on it by an enemy it is not clearly beating; as loser it claims A.2 (pay no
  reparations), or A.1 (remove no forces) when its army is the smaller;
- a declaration of war (6.2) on ``grand.war_target``, with its allies called;
- suits for peace (6.4.2) and informal peace (6.4.1), ``grand.suits``;
- alliance requests (6.5), ``grand.alliance_wanted`` (standing: a request no
  longer wanted is withdrawn), and access (6.11) granted to an ally at war
  with one of its enemies;
- "Accept control of" (6.6, 6.6.4, 6.6.5), at the levels with ``accept_control``: every neutral minor it could
  run (``grand.accepts_control``) but the one it declares war on this month;
- manipulation of minor countries (6.1.4): up to the level's attempts on the
  neutral minors (or its own influenced ones) with its best national modifier
  (ties in name order), investing the level's share of its money.

Suing for peace in civil disorder is done by the rules (6.4.3).
"""

from __future__ import annotations

import eiapbem.ai.grand as grand
from eiapbem.ai.levels import Level
from eiapbem.rules.diplomacy.minor_orders import MAX_ATTEMPTS, Manipulate
from eiapbem.rules.diplomacy.orders import (AcceptControl, AnswerCalls, AttemptInformalPeace, CallAllies, DeclareWar,
                                            GrantAccess, RequestAlliance, SetSurrenderTerms, SetTrade, SueForPeace)
from eiapbem.rules.model import POWERS, MinorStatus, PlayerKind, SurrenderSettings
from eiapbem.rules.model.slot import COMMIT
from eiapbem.rules.tables.diplomacy import minor

#: An enemy whose side is under this percentage of the victor's gets unconditional terms (medium, hard).
CRUSHED = 40


def _settings(b, lvl: Level, enemy: str) -> SurrenderSettings:
    st, p = b.state, b.power
    easy = lvl.kind is PlayerKind.AI_EASY
    claim = "A.1" if grand.might(st, b.ctx, p) < grand.might(st, b.ctx, enemy) and not easy else "A.2"
    if lvl.terms == "plain":
        return SurrenderSettings(give_conditional=True, terms=("B.2", "B.3"), accept_informal=easy,
                                 if_conditional_offered=claim)
    if grand.balance(st, b.ctx, enemy, p, lvl.judgment) < CRUSHED and not lvl.sure_terms:
        terms = ("B.4",) + (("C.7",) if enemy == "GB" else ()) + ("C.3", "C.1.a", "C.2")
        return SurrenderSettings(give_conditional=False, terms=terms, accept_informal=False, if_conditional_offered=claim)
    # A level that offers an informal peace before it sues also accepts one (6.4.1: no political points change
    # hands) when it is losing, or in a war declared on it by an enemy it is not clearly beating (``grand.AHEAD``);
    # never in a war it declared itself and is not losing: its -3 is paid (6.2.1), a peace for nothing would
    # only lead to a second declaration.
    informal = bool(lvl.informal_first) and grand.accepts_informal(st, b.ctx, p, enemy, lvl)
    return SurrenderSettings(give_conditional=True, terms=("B.4", "B.3", "B.1", "B.2"), accept_informal=informal,
                             if_conditional_offered=claim)


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


def _calls(b) -> None:
    ps = b.state.powers[b.power]
    allies = tuple(sorted(ps.alliances))
    for enemy in POWERS:
        if enemy == b.power:
            continue
        answer = tuple(a for a in allies if a != enemy)
        if ps.standing_orders.answer_calls.get(enemy, ()) != answer and answer:
            b.try_(AnswerCalls(enemy, answer))
        if ps.standing_orders.call_allies.get(enemy, ()) != answer and answer:
            b.try_(CallAllies(enemy, answer))


def _surrender_terms(b, lvl: Level) -> None:
    for enemy in sorted(b.state.powers[b.power].wars):
        want = _settings(b, lvl, enemy)
        if b.state.powers[b.power].standing_orders.surrender.get(enemy) != want:
            b.try_(SetSurrenderTerms(enemy, give_conditional=want.give_conditional, term=want.terms,
                                     accept_informal=want.accept_informal,
                                     if_conditional_offered=want.if_conditional_offered))


def _alliances_and_access(b, lvl: Level) -> None:
    st, p = b.state, b.power
    wanted = grand.alliance_wanted(st, b.ctx, p, lvl)
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
    _trade(b, lvl)
    _calls(b)
    _surrender_terms(b, lvl)
    target = grand.war_target(b.state, b.ctx, b.power, lvl)
    attacked = None
    if target is not None:
        b.try_(DeclareWar(target))
    else:
        attacked = grand.minor_war_target(b.state, b.ctx, b.power, lvl)
        if attacked is not None:
            b.try_(DeclareWar(attacked))
    _accept_control(b, lvl, attacked)
    sue, informal = grand.suits(b.state, b.ctx, b.power, lvl)
    for e, accept in sue.items():
        b.try_(SueForPeace(e, accept_unconditional=accept))
    for e in informal:
        b.try_(AttemptInformalPeace(e))
    _alliances_and_access(b, lvl)
    _manipulate(b, lvl)

