"""The diplomacy phase's orders (6.0-6.16), as actions of ``Phase.DIPLOMACY``.

Two kinds, both named with the manual's buttons and screens (``BUTTON``):

- **standing orders** of the DIPLOMATIC REACTIONS SCREEN and the VICTORY
  CONDITIONS SCREEN (calls to allies, alliance requests, trade, access,
  surrender settings): they change the power's ``StandingOrders`` (or its
  trade and access records).  Trade and access persist in the state from
  month to month; the reactions (``REACTION_FIELDS``: calls, alliance
  requests, minors, surrender settings) are cleared from the state when the
  month's diplomacy is resolved (``clear_reactions``) and the power's own
  program sends them again, sealed, each month (``reaction_actions``;
  ``eiapbem.client.orders``), so that no other power reads them before its
  own commitment (issue 16, docs/decisions.md);
- **one-off orders** (Declare War, Break an Alliance, Sue For Peace, Attempt
  Informal Peace): they act only when the phase is resolved
  (``eiapbem.rules.diplomacy.resolve``), in a fixed order, all powers at once.

Every order of a power is also written on the order sheet (``model.sheet``)
in the order given, so a later order of the same file sees the earlier ones
and a sealed commitment can be checked against them
(``eiapbem.rules.diplomacy.sealing``).  ``verify`` refuses in one sentence
naming the rule; nothing changes on a refusal.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Annotated, Any

from eiapbem.core.errors import IllegalAction
from eiapbem.rules import engine, relations
from eiapbem.rules.diplomacy.common import GRACE_MONTHS, name, record_order
from eiapbem.rules.diplomacy.terms import CESSIONS, verify_cessions
from eiapbem.rules.model import POWERS, Access, AccessKind, GameState, Record, SurrenderSettings
from eiapbem.rules.model.powers import StandingOrders
from eiapbem.rules.model.base import OneOf
from eiapbem.rules.model.common import NationId, PowerId, Slug
from eiapbem.rules.model.powers import PEACE_CONDITIONS
from eiapbem.rules.tables.diplomacy import PEACE_CHOICES, minor, peace_condition
from eiapbem.rules.diplomacy.sealing import orders_open
from eiapbem.rules.engine import RulesContext




# ----------------------------------------------------------------- one-off orders


@dataclass(frozen=True, slots=True)
class DeclareWar(Record):
    """Declare war on a major power or a neutral minor country (6.2)."""

    KIND = "diplomacy.declare-war"
    COMMAND = "declare-war"
    BUTTON = "Declare War"
    target: NationId


@dataclass(frozen=True, slots=True)
class BreakAlliance(Record):
    """Break an alliance with another major power, -2 political points; not a declaration of war (6.7)."""

    KIND = "diplomacy.break-alliance"
    COMMAND = "break-alliance"
    BUTTON = "Break an Alliance"
    partner: PowerId


@dataclass(frozen=True, slots=True)
class SueForPeace(Record):
    """Sue an enemy for peace; its Victory Conditions Screen decides conditional or unconditional terms (6.4.2)."""

    KIND = "diplomacy.sue-for-peace"
    COMMAND = "sue-for-peace"
    BUTTON = "Sue For Peace"
    to: PowerId
    #: Accept unconditional terms if they are offered (conditional terms must always be accepted).
    accept_unconditional: bool = False


@dataclass(frozen=True, slots=True)
class AttemptInformalPeace(Record):
    """Offer an informal peace: no terms, no political points, no enforced peace (6.4.1)."""

    KIND = "diplomacy.informal-peace"
    COMMAND = "informal-peace"
    BUTTON = "Attempt Informal Peace"
    enemy: PowerId


ONE_OFF = (DeclareWar, BreakAlliance, SueForPeace, AttemptInformalPeace)


# ----------------------------------------------------------------- standing orders


@dataclass(frozen=True, slots=True)
class SetTrade(Record):
    """Request trade with Great Britain, or (Great Britain) allow a power to trade; --stop ends it (6.10)."""

    KIND = "diplomacy.trade"
    COMMAND = "trade"
    BUTTON = "Request/Allow Trade to"
    partner: PowerId
    stop: bool = False


@dataclass(frozen=True, slots=True)
class CallAllies(Record):
    """Allies to call if at war with ENEMY (standing order; no --ally clears the list) (6.3.1)."""

    KIND = "diplomacy.call-allies"
    COMMAND = "call-allies"
    BUTTON = "Allies to call"
    enemy: PowerId
    ally: tuple[PowerId, ...] = ()


@dataclass(frozen=True, slots=True)
class AnswerCalls(Record):
    """Allies whose call to answer when their enemy is ENEMY (standing order) (6.3.1)."""

    KIND = "diplomacy.answer-calls"
    COMMAND = "answer-calls"
    BUTTON = "Allies to answer call from"
    enemy: PowerId
    ally: tuple[PowerId, ...] = ()


@dataclass(frozen=True, slots=True)
class RequestAlliance(Record):
    """Request or accept an alliance (standing order; both must ask); --withdraw takes it back (6.5)."""

    KIND = "diplomacy.request-alliance"
    COMMAND = "request-alliance"
    BUTTON = "Request/accept alliance"
    partner: PowerId
    withdraw: bool = False


@dataclass(frozen=True, slots=True)
class GrantAccess(Record):
    """Grant an ally access to your territory; --cancel rescinds it with three months' grace (6.11, 13.4.1)."""

    KIND = "diplomacy.grant-access"
    COMMAND = "grant-access"
    BUTTON = "Grant Access to"
    to: PowerId
    cancel: bool = False


@dataclass(frozen=True, slots=True)
class SetSurrenderTerms(Record):
    """Victory Conditions Screen toward one enemy: conditional or not, your terms, informal and separate peace, your list-A claim (6.4)."""

    KIND = "diplomacy.surrender-terms"
    COMMAND = "surrender-terms"
    BUTTON = "Show Current Surrender Settings"
    enemy: PowerId
    give_conditional: bool = False
    term: tuple[Annotated[str, OneOf(PEACE_CONDITIONS)], ...] = ()
    accept_informal: bool = False
    allow_separate_peace: bool = False
    if_conditional_offered: Annotated[str, OneOf(PEACE_CONDITIONS)] | None = None
    #: Corps, fleets or the leader to take away, in order (B.1, B.7, C.1, C.6).
    remove: tuple[str, ...] = ()
    #: Provinces or minor countries to take, in order (B.6, C.4).
    cede: tuple[Slug, ...] = ()
    #: Allies to tell to break off with you after a separate peace with this enemy (6.4).
    demand_break: tuple[PowerId, ...] = ()


@dataclass(frozen=True, slots=True)
class AcceptControl(Record):
    """Be a candidate to run this minor country if war is declared on it (standing order); --withdraw clears it (6.6)."""

    KIND = "diplomacy.accept-control"
    COMMAND = "accept-control"
    BUTTON = "Accept control of"
    minor: Slug
    withdraw: bool = False


@dataclass(frozen=True, slots=True)
class SupportMinor(Record):
    """Declare war on AGGRESSOR if it attacks these minors and you are chosen to run them (standing order) (6.6.6)."""

    KIND = "diplomacy.support-minor"
    COMMAND = "support-minor"
    BUTTON = "Minor to Support"
    aggressor: PowerId
    minor: tuple[Slug, ...] = ()


@dataclass(frozen=True, slots=True)
class WithdrawAgainstMinor(Record):
    """Back down from a declaration on these minors if AGGRESSOR declares war on them too (standing order) (6.6.2)."""

    KIND = "diplomacy.withdraw-dow"
    COMMAND = "withdraw-dow"
    BUTTON = "Withdraw DoW against Minor"
    aggressor: PowerId
    minor: tuple[Slug, ...] = ()


STANDING = (SetTrade, CallAllies, AnswerCalls, RequestAlliance, GrantAccess, SetSurrenderTerms, AcceptControl,
            SupportMinor, WithdrawAgainstMinor)


# ----------------------------------------------------------------- the sheet


def given(state: GameState, power: str) -> list:
    """The orders ``power`` has given so far in the slot in play, in order (the engine's one order sheet)."""
    return list(engine.given_orders(state, power))


def record(state: GameState, power: str, action: Any) -> GameState:
    return engine.record_order(state, power, action)


def _others(power: str) -> tuple[str, ...]:
    return tuple(p for p in POWERS if p != power)


# ----------------------------------------------------------------- verify, one check per order
# (declarations and suits are checked by ``war`` and ``peace``, which register them)


def verify_break_alliance(state: GameState, power: str, a: BreakAlliance, ctx: RulesContext) -> None:
    if a.partner not in state.powers[power].alliances:
        raise IllegalAction(f"{name(power)} is not allied with {name(a.partner)}: no alliance to break (6.7)")
    if any(isinstance(o, BreakAlliance) and o.partner == a.partner for o in given(state, power)):
        raise IllegalAction(f"{name(power)} already breaks its alliance with {name(a.partner)} in these orders (6.7)")


def verify_informal_peace(state: GameState, power: str, a: AttemptInformalPeace, ctx: RulesContext) -> None:
    if a.enemy not in state.powers[power].wars:
        raise IllegalAction(f"{name(power)} is not at war with {name(a.enemy)}: no peace to offer (6.4.1)")
    if any(isinstance(o, (AttemptInformalPeace, SueForPeace)) and getattr(o, "enemy", getattr(o, "to", None)) == a.enemy
           for o in given(state, power)):
        raise IllegalAction(f"{name(power)} already offers peace to {name(a.enemy)} in these orders (6.4.1)")


def verify_trade(state: GameState, power: str, a: SetTrade, ctx: RulesContext) -> None:
    if a.partner == power:
        raise IllegalAction(f"{name(power)} cannot trade with itself (6.10)")
    if power != "GB" and a.partner != "GB":
        raise IllegalAction(f"trade is requested with Great Britain only, not with {name(a.partner)} (6.10)")


def verify_calls(state: GameState, power: str, a: CallAllies | AnswerCalls, ctx: RulesContext) -> None:
    if a.enemy == power:
        raise IllegalAction(f"{name(power)} cannot be its own enemy (6.3.1)")
    for q in a.ally:
        if q in (power, a.enemy):
            raise IllegalAction(f"{name(q)} cannot be an ally to call against {name(a.enemy)} (6.3.1)")


def verify_request_alliance(state: GameState, power: str, a: RequestAlliance, ctx: RulesContext) -> None:
    if a.partner == power:
        raise IllegalAction(f"{name(power)} cannot ally with itself (6.5)")


def verify_access(state: GameState, power: str, a: GrantAccess, ctx: RulesContext) -> None:
    if a.to == power:
        raise IllegalAction(f"{name(power)} always has access to its own territory (6.11)")
    have = state.powers[power].access.get(a.to)
    if a.cancel:
        if have is None or have.kind is not AccessKind.VOLUNTARY:
            raise IllegalAction(f"{name(power)} has granted {name(a.to)} no access to cancel (6.11)")
    elif a.to not in state.powers[power].alliances:
        raise IllegalAction(f"{name(power)} may grant access only to an ally, and {name(a.to)} is not one (6.11)")


def verify_withdraw_dow(state: GameState, power: str, a: WithdrawAgainstMinor, ctx: RulesContext) -> None:
    if a.aggressor == power:
        raise IllegalAction(f"{name(power)} cannot back down because of itself (6.6.2)")
    for slug in a.minor:
        if slug not in state.minors:
            raise IllegalAction(f"{slug!r} is not a minor country of this game (6.6.2)")


def verify_support_minor(state: GameState, power: str, a: SupportMinor, ctx: RulesContext) -> None:
    if a.aggressor == power:
        raise IllegalAction(f"{name(power)} cannot support a minor against itself (6.6.6)")
    for slug in a.minor:
        if slug not in state.minors:
            raise IllegalAction(f"{slug!r} is not a minor country of this game (6.6.6)")


def verify_accept_control(state: GameState, power: str, a: AcceptControl, ctx: RulesContext) -> None:
    if a.minor not in state.minors:
        raise IllegalAction(f"{a.minor!r} is not a minor country of this game (6.6)")
    if not a.withdraw and minor(a.minor).modifier(power) is None:
        raise IllegalAction(f"{name(power)} has no national modifier for {name(a.minor)} (NA): it cannot run it (6.6.4)")


def verify_surrender_terms(state: GameState, power: str, a: SetSurrenderTerms, ctx: RulesContext) -> None:
    if a.enemy == power:
        raise IllegalAction(f"{name(power)} cannot set surrender terms toward itself (6.4)")
    # The terms are a preference list: the first ones still open are taken at a surrender, up to
    # two (conditional) or three (unconditional); later ones stand in for terms another victor took.
    kind = "conditional" if a.give_conditional else "unconditional"
    _, lists = PEACE_CHOICES[kind]
    for i, cid in enumerate(a.term):
        if peace_condition(cid).list not in lists:
            raise IllegalAction(f"{cid} is not on list {' or '.join(lists)}, which a {kind} peace uses (6.4)")
        if cid in a.term[:i]:
            raise IllegalAction(f"{cid} is listed twice in {name(power)}'s terms for {name(a.enemy)} (6.4)")
        only = peace_condition(cid).only_against
        if only is not None and a.enemy != only:
            raise IllegalAction(f"{cid} may only be applied against {name(only)} (Victory Conditions Chart)")
    if a.if_conditional_offered is not None and not a.if_conditional_offered.startswith("A."):
        raise IllegalAction(f"the claim 'If Conditional Offered' is one condition of list A, not {a.if_conditional_offered} (6.4.2)")
    verify_cessions(state, ctx, power, a.enemy, a.term, a.cede)


# ----------------------------------------------------------------- apply: every order goes on the sheet; a standing
# order also changes the power's standing orders (or its trade and access) now

#: What a standing order changes at once, in the power's own records: ``(state, power, order) -> state``.
Effect = Callable[[GameState, str, Any], GameState]


def _standing(state: GameState, power: str, **changes: Any) -> GameState:
    so = state.powers[power].standing_orders
    return state.with_power(power, standing_orders=so.replace(**changes))


def _trade(state: GameState, power: str, a: SetTrade) -> GameState:
    ps = state.powers[power]
    trade = set(ps.trade) - {a.partner} if a.stop else set(ps.trade) | {a.partner}
    return state.with_power(power, trade=tuple(sorted(trade)))


def _listed(state: GameState, power: str, field: str, key: str, names: tuple[str, ...]) -> GameState:
    """A standing order that lists ``names`` for ``key`` (none: the entry goes)."""
    entries = getattr(state.powers[power].standing_orders, field)
    entries = entries.set(key, tuple(sorted(set(names)))) if names else entries.discard(key)
    return _standing(state, power, **{field: entries})


def _member(state: GameState, power: str, field: str, name: str, out: bool) -> GameState:
    """A standing order that puts ``name`` in (or takes it out of) a sorted list."""
    members = set(getattr(state.powers[power].standing_orders, field))
    return _standing(state, power, **{field: tuple(sorted(members - {name} if out else members | {name}))})


def _call_allies(state: GameState, power: str, a: CallAllies) -> GameState:
    return _listed(state, power, "call_allies", a.enemy, a.ally)


def _answer_calls(state: GameState, power: str, a: AnswerCalls) -> GameState:
    return _listed(state, power, "answer_calls", a.enemy, a.ally)


def _request_alliance(state: GameState, power: str, a: RequestAlliance) -> GameState:
    return _member(state, power, "request_alliance", a.partner, a.withdraw)


def _access(state: GameState, power: str, a: GrantAccess) -> GameState:
    ps = state.powers[power]
    if a.cancel:
        acc = ps.access.set(a.to, Access(AccessKind.TEMPORARY, until=state.date.plus(GRACE_MONTHS - 1)))
    else:
        acc = ps.access.set(a.to, Access(AccessKind.VOLUNTARY))
    return state.with_power(power, access=acc)


def _withdraw_dow(state: GameState, power: str, a: WithdrawAgainstMinor) -> GameState:
    return _listed(state, power, "withdraw_dow", a.aggressor, a.minor)


def _support_minor(state: GameState, power: str, a: SupportMinor) -> GameState:
    return _listed(state, power, "support_minor", a.aggressor, a.minor)


def _accept_control(state: GameState, power: str, a: AcceptControl) -> GameState:
    return _member(state, power, "accept_control", a.minor, a.withdraw)


def _surrender_terms(state: GameState, power: str, a: SetSurrenderTerms) -> GameState:
    so = state.powers[power].standing_orders
    s = SurrenderSettings(give_conditional=a.give_conditional, terms=tuple(a.term), accept_informal=a.accept_informal,
                          allow_separate_peace=a.allow_separate_peace, if_conditional_offered=a.if_conditional_offered,
                          remove=tuple(a.remove), cede=tuple(a.cede))
    demand = tuple(sorted(set(so.demand_break) | set(a.demand_break)))
    return _standing(state, power, surrender=so.surrender.set(a.enemy, s), demand_break=demand)


def _standing_order(effect: Effect) -> engine.Apply:
    """The ``apply`` of a standing order: written on the sheet, and ``effect`` on the power's records now."""
    def apply(state: GameState, power: str, a: Any, ctx: RulesContext) -> engine.Outcome:
        return engine.Outcome(effect(record(state, power, a), power, a))

    return apply


# ----------------------------------------------------------------- candidates (engine.legal_actions)
# In the reveal round of a sealed phase the orders are the committed ones (``sealing.orders_open``): none is listed.


def _break_alliance_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[BreakAlliance]:
    if orders_open(state, power):
        yield from (BreakAlliance(p) for p in relations.allies(state, power))


def _informal_peace_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[AttemptInformalPeace]:
    if orders_open(state, power):
        yield from (AttemptInformalPeace(p) for p in relations.enemies(state, power))


def _trade_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[SetTrade]:
    if orders_open(state, power):
        for p in _others(power) if power == "GB" else ("GB",):
            yield from (SetTrade(p), SetTrade(p, stop=True))


def _call_candidates(cls: type[CallAllies] | type[AnswerCalls]) -> Any:
    def candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[CallAllies | AnswerCalls]:
        """For each enemy: no ally (clears the order), or one ally (a list of several is legal too, and not listed)."""
        if orders_open(state, power):
            for enemy in _others(power):
                yield cls(enemy)
                yield from (cls(enemy, (q,)) for q in _others(power) if q != enemy)

    return candidates


def _request_alliance_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[RequestAlliance]:
    if orders_open(state, power):
        for p in _others(power):
            yield from (RequestAlliance(p), RequestAlliance(p, withdraw=True))


def _access_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[GrantAccess]:
    if orders_open(state, power):
        for p in _others(power):
            yield from (GrantAccess(p), GrantAccess(p, cancel=True))


def _minor_list_candidates(cls: type[SupportMinor] | type[WithdrawAgainstMinor]) -> Any:
    def candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[SupportMinor | WithdrawAgainstMinor]:
        """For each other power: no minor (clears the order), or one minor (several are legal too, and not listed)."""
        if orders_open(state, power):
            for aggressor in _others(power):
                yield cls(aggressor)
                yield from (cls(aggressor, (slug,)) for slug in state.minors)

    return candidates


def _accept_control_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[AcceptControl]:
    if orders_open(state, power):
        for slug in state.minors:
            yield from (AcceptControl(slug), AcceptControl(slug, withdraw=True))


def _surrender_terms_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[SetSurrenderTerms]:
    """Toward each other power, unconditional or conditional with no terms named (terms are legal too, not listed)."""
    if orders_open(state, power):
        for enemy in _others(power):
            yield from (SetSurrenderTerms(enemy), SetSurrenderTerms(enemy, give_conditional=True))


#: The orders of this module with their rules, one unit per class (``DeclareWar`` and ``SueForPeace`` are
#: registered by ``war`` and ``peace``, which check them).
ACTIONS = (
    (BreakAlliance, verify_break_alliance, record_order, _break_alliance_candidates),
    (AttemptInformalPeace, verify_informal_peace, record_order, _informal_peace_candidates),
    (SetTrade, verify_trade, _standing_order(_trade), _trade_candidates),
    (CallAllies, verify_calls, _standing_order(_call_allies), _call_candidates(CallAllies)),
    (AnswerCalls, verify_calls, _standing_order(_answer_calls), _call_candidates(AnswerCalls)),
    (RequestAlliance, verify_request_alliance, _standing_order(_request_alliance), _request_alliance_candidates),
    (GrantAccess, verify_access, _standing_order(_access), _access_candidates),
    (SetSurrenderTerms, verify_surrender_terms, _standing_order(_surrender_terms), _surrender_terms_candidates),
    (AcceptControl, verify_accept_control, _standing_order(_accept_control), _accept_control_candidates),
    (SupportMinor, verify_support_minor, _standing_order(_support_minor), _minor_list_candidates(SupportMinor)),
    (WithdrawAgainstMinor, verify_withdraw_dow, _standing_order(_withdraw_dow),
     _minor_list_candidates(WithdrawAgainstMinor)),
)
#: The diplomatic reactions' effects on the power's standing orders (``reactions_after``).
_REACTION_EFFECTS: dict[type[Any], Effect] = {
    CallAllies: _call_allies, AnswerCalls: _answer_calls, RequestAlliance: _request_alliance,
    AcceptControl: _accept_control, SupportMinor: _support_minor, WithdrawAgainstMinor: _withdraw_dow,
    SetSurrenderTerms: _surrender_terms,
}


#: The fields of ``StandingOrders`` set on the DIPLOMATIC REACTIONS SCREEN and the VICTORY CONDITIONS
#: SCREEN: kept by each power's own program, not in the state between months (issue 16).
REACTION_FIELDS = ("call_allies", "answer_calls", "request_alliance", "accept_control", "withdraw_dow",
                   "support_minor", "surrender", "demand_break")
REACTIONS = (CallAllies, AnswerCalls, RequestAlliance, AcceptControl, SupportMinor, WithdrawAgainstMinor,
             SetSurrenderTerms)


def clear_reactions(so: StandingOrders) -> StandingOrders:
    """``so`` without its diplomatic reactions (the other standing orders, naval and battle, stay)."""
    return so.replace(**{f: getattr(StandingOrders(), f) for f in REACTION_FIELDS})


def reaction_actions(so: StandingOrders) -> list:
    """The orders that set ``so``'s diplomatic reactions again on a state without them, in a fixed order."""
    out: list = []
    out += [CallAllies(e, tuple(a)) for e, a in so.call_allies.items()]
    out += [AnswerCalls(e, tuple(a)) for e, a in so.answer_calls.items()]
    out += [RequestAlliance(p) for p in so.request_alliance]
    out += [AcceptControl(m) for m in so.accept_control]
    out += [SupportMinor(e, tuple(m)) for e, m in so.support_minor.items()]
    out += [WithdrawAgainstMinor(e, tuple(m)) for e, m in so.withdraw_dow.items()]
    demand = tuple(so.demand_break)
    for e, s in so.surrender.items():
        out.append(SetSurrenderTerms(e, give_conditional=s.give_conditional, term=tuple(s.terms),
                                     accept_informal=s.accept_informal, allow_separate_peace=s.allow_separate_peace,
                                     if_conditional_offered=s.if_conditional_offered, remove=tuple(s.remove),
                                     cede=tuple(s.cede), demand_break=demand))
        demand = ()  # demand_break is only ever set with a surrender setting, so one carries it
    return out


def kept_reaction(state: GameState, power: str, a: Any, ctx: RulesContext) -> Any:
    """A reaction a folder keeps and sends again each month (``client.orders``), as it may stand now: a surrender
    setting whose cession terms (B.6, C.4) would cede nothing as things stand loses them (given anew, it would be
    refused, ``terms.verify_cessions``; kept, it would have taken nothing at a peace), the rest stands."""
    if not isinstance(a, SetSurrenderTerms):
        return a
    try:
        verify_cessions(state, ctx, power, a.enemy, a.term, a.cede)
    except IllegalAction:
        return a.replace(term=tuple(t for t in a.term if t not in CESSIONS))
    return a


def reactions_after(state: GameState, power: str, acts: list) -> StandingOrders:
    """``power``'s standing orders once ``acts`` (verified already) are recorded on ``state``."""
    for a in acts:
        effect = _REACTION_EFFECTS.get(type(a))
        if effect is not None:
            state = effect(state, power, a)
    return state.powers[power].standing_orders
