"""The peace step (6.4, 000:660-758; VICTORY CONDITIONS CHART 000:2907-2949).

Informal peace (6.4.1), suing for peace with conditional or unconditional
terms (6.4.2), several victors choosing alternately, the effects of every
peace (prisoner exchange, temporary access, enforced peace 18/24/36 months)
and of the chosen terms, and civil disorder's forced suit (6.4.3).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from eiapbem.core.errors import IllegalAction
from eiapbem.rules import captured, engine, irregulars, peace_capitals, relations
from eiapbem.rules.diplomacy import terms
from eiapbem.rules.diplomacy.common import Result, points, record_order, set_mutual
from eiapbem.rules.diplomacy.common import GRACE_MONTHS, name
from eiapbem.rules.diplomacy.orders import AttemptInformalPeace, SueForPeace
from eiapbem.rules.relations import power_of
from eiapbem.rules.model import POWERS, Access, AccessKind, Corps, GameState, LocationKind, PeaceTerm, SurrenderSettings
from eiapbem.rules.tables.diplomacy import PEACE_CHOICES, blocked_by, peace_term_effect, peace_term_title
from eiapbem.rules.diplomacy.sealing import orders_open
from eiapbem.rules.engine import RulesContext

#: 6.4 "Mandatory Enforced Peace Length" and the terms that lengthen it for the loser (B.2, C.2).
ENFORCED_MONTHS = 18
LONGER_PEACE = {"B.2": 24, "C.2": 36}
#: Terms that stay in force on the loser (``PeaceTerm``), with the economic phases they last.
LASTING = {"B.3": 1, "C.3": 1, "C.7": 4}


def victor_forces_inside(state: GameState, ctx: RulesContext, victor: str, loser: str) -> bool:
    home = set(ctx.map.areas_of_nation(loser))
    return any(isinstance(u, Corps) and u.location.kind in (LocationKind.AREA, LocationKind.CITY)
               and u.location.site in home and power_of(state, u.nation) == victor for u in state.units.values())


def check_suit(state: GameState, ctx: RulesContext, power: str, to: str, mine: Iterable[Any] = ()) -> None:
    """A suit for peace by ``power`` to ``to`` (6.4.2); the all-enemies limit is checked at the end of the orders."""
    if to not in state.powers[power].wars:
        raise IllegalAction(f"{name(power)} is not at war with {name(to)}: no peace to sue for (6.4.2)")
    for o in mine:
        if isinstance(o, SueForPeace) and o.to == to or isinstance(o, AttemptInformalPeace) and o.enemy == to:
            raise IllegalAction(f"{name(power)} already offers peace to {name(to)} in these orders (6.4.2)")




def verify_suit(state: GameState, power: str, a: SueForPeace, ctx: RulesContext) -> None:
    check_suit(state, ctx, power, a.to, engine.given_orders(state, power))


def _suit_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[SueForPeace]:
    if orders_open(state, power):
        for enemy in relations.enemies(state, power):
            yield from (SueForPeace(enemy), SueForPeace(enemy, accept_unconditional=True))


#: The suit for peace, registered with its check (the suit itself acts in the peace step of the resolution).
ACTIONS = ((SueForPeace, verify_suit, record_order, _suit_candidates),)

def suit_obligations(state: GameState, ctx: RulesContext, power: str, mine: Iterable[Any]) -> list[str]:
    """6.4.2: a suit to an enemy without forces in the home nation needs a suit to every enemy at once."""
    suits = [o.to for o in mine if isinstance(o, SueForPeace)]
    enemies = set(state.powers[power].wars)
    if not suits or enemies <= set(suits):
        return []
    for v in suits:
        if not victor_forces_inside(state, ctx, v, power):
            left = ", ".join(name(e) for e in sorted(enemies - set(suits)))
            return [f"{name(v)} has no forces inside {name(power)}: {name(power)} may sue it for peace only if it sues "
                    f"every enemy at once (also {left}) (6.4.2): 'eiapbem diplomacy sue-for-peace --to POWER' for each"]
    return []


# ----------------------------------------------------------------- effects of any peace


def _end_war(r: Result, a: str, b: str, *, formal: bool) -> None:
    """6.4 "The Effects of Peace": war ends, prisoners are exchanged, each side's forces leave the other's capital
    cities, three months' temporary access, and (formal peace only) 18 months of enforced peace both ways."""
    r.peaces.append((a, b))
    st = r.state.without_war(a, b)
    until = st.date.plus(GRACE_MONTHS - 1)
    for x, y in ((a, b), (b, a)):
        ps = st.powers[x]
        changes: dict[str, Any] = {"access": ps.access.set(y, Access(AccessKind.TEMPORARY, until=until))}
        if formal:
            changes["enforced_peace"] = ps.enforced_peace.set(y, st.date.plus(ENFORCED_MONTHS))
        st = st.with_power(x, **changes)
    # Prisoner exchange: factors held by either side go home as reinforcements (000:688).
    prisoners = st.prisoners
    for key, pr in st.prisoners.items():
        owner = power_of(st, pr.nation)
        if {pr.captor, owner} == {a, b} and owner in POWERS:
            ps = st.powers[owner]
            st = st.with_power(owner, returned_factors=ps.returned_factors + pr.factors)
            prisoners = prisoners.remove(key)
            r.state = st
            r.say(owner, "diplomacy.prisoners", f"{name(pr.captor)} returns {pr.factors.total} prisoner factors to {name(owner)} (6.4)")
            st = r.state
    r.state = st.replace(prisoners=prisoners)
    # 6.4 "Withdrawal from Capital Cities" (000:736): each side's forces leave the other's capital cities.
    r.state, lines = peace_capitals.withdraw_from_capitals(r.state, r.ctx, a, b)
    for who, text in lines:
        r.say(who, "diplomacy.capital-withdrawal", text)
    r.state, lines = peace_capitals.end_sieges(r.state, r.ctx, a, b)
    for who, text in lines:
        r.say(who, "diplomacy.siege-ends", text)
    # 13.8.2: captured leaders go home at peace, ready the month after.
    r.state, freed = captured.return_at_peace(r.state, a, b)
    for lid in freed:
        lead = r.state.leaders[lid]
        r.say(lead.power, "diplomacy.leader-returned", f"{lid} returns from captivity at the peace (13.8.2)", leader=lid)
    # 13.2.5: peace between Austria and the holder of the ceded Tyrol takes the Tyrol corps off the map.
    before = r.state
    r.state = irregulars.remove_tyrol_at_peace(r.state, a, b)
    if r.state is not before:
        r.say(irregulars.AUSTRIA, "diplomacy.tyrol-removed", f"the Tyrol corps leaves the map at the peace of "
              f"{name(a)} and {name(b)} (13.2.5)", unit=irregulars.TYROL_CORPS)


def informal(r: Result, a: str, b: str) -> None:
    _end_war(r, a, b, formal=False)
    # 6.4.1: nothing binds the two after it, so its month is kept (``PowerState.informal_peace``) for whoever weighs
    # a new war between them
    r.state = set_mutual(r.state, "informal_peace", a, b, r.state.date)
    r.say(a, "diplomacy.peace", f"{name(a)} and {name(b)} make an informal peace: no terms, no enforced peace (6.4.1)",
          other=b)


# ----------------------------------------------------------------- formal peace


def settings(state: GameState, power: str, enemy: str) -> SurrenderSettings:
    return state.powers[power].standing_orders.surrender.get(enemy, SurrenderSettings())


def choose_terms(r: Result, loser: str, victors: list[str], kinds: dict[str, str]) -> dict[str, list[str]]:
    """The victors' terms, chosen alternately from their preference lists, highest political status first
    (ties by a 1-10 roll, ``diplomacy/peace/<loser>/order/<power>``); no term twice (6.4.2, 000:686)."""
    st = r.state
    tie = {v: r.ctx.dice.d10(f"diplomacy/peace/{loser}/order/{v}") if sum(
        1 for w in victors if st.powers[w].political_status == st.powers[v].political_status) > 1 else 0 for v in victors}
    order = sorted(victors, key=lambda v: (-st.powers[v].political_status, -tie[v], POWERS.index(v)))
    chosen: dict[str, list[str]] = {v: [] for v in order}
    every: list[str] = []
    prefs = {v: list(settings(st, v, loser).terms) for v in order}
    progress = True
    while progress:
        progress = False
        for v in order:
            count, lists = PEACE_CHOICES[kinds[v]]
            if len(chosen[v]) >= count:
                continue
            claim = settings(st, loser, v).if_conditional_offered if kinds[v] == "conditional" else None
            while prefs[v]:
                cid = prefs[v].pop(0)
                from eiapbem.rules.tables.diplomacy import peace_condition

                if peace_condition(cid).list not in lists:
                    continue
                if blocked_by(cid, every + chosen[v] + ([claim] if claim else []), loser) is None:
                    chosen[v].append(cid)
                    every.append(cid)
                    progress = True
                    break
    return chosen


def _apply_term(r: Result, victor: str, loser: str, cid: str) -> None:
    st = r.state
    ps = st.powers[loser]
    if cid in LONGER_PEACE:
        until = st.date.plus(LONGER_PEACE[cid])
        st = st.with_power(loser, enforced_peace=ps.enforced_peace.set(victor, until))
        term = PeaceTerm(victor=victor, code=cid, since=st.date, until=until)
    elif cid in LASTING:
        term = PeaceTerm(victor=victor, code=cid, since=st.date, remaining=LASTING[cid])
    elif cid == "B.4":
        r.state = set_mutual(st, "royal_marriages", victor, loser, st.date)
        points(r, victor, 2, f"royal marriage between {name(victor)} and {name(loser)} (B.4)")
        st = r.state
        term = None
    elif cid == "B.5":
        # The victor's choice of Great Britain or America: Great Britain, unless the loser is Great Britain.
        term = PeaceTerm(victor=victor, code=cid, since=st.date, target="america" if loser == "GB" else "GB")
    elif cid == "C.5":
        st = st.with_power(loser, access=st.powers[loser].access.set(victor, Access(AccessKind.ENFORCED)))
        term = PeaceTerm(victor=victor, code=cid, since=st.date)
    else:
        term = None
    if term is not None:
        st = st.with_power(loser, peace_terms=st.powers[loser].peace_terms.set(term.key, term))
    r.state = st
    note = ""
    if cid in terms.TAKING:
        own = settings(st, victor, loser)
        note = "; " + terms.take(r, victor, loser, cid, own.remove, own.cede)
    effect = peace_term_effect(cid, name(victor), name(loser))  # the term's name and what it does (15.0)
    r.say(loser, "diplomacy.term", f"peace term {peace_term_title(cid)} of {name(victor)} on {name(loser)}"
          + (f": {effect}" if effect else "") + note, victor=victor, code=cid)


def surrender(r: Result, loser: str, suits: dict[str, bool], *, forced: bool = False) -> None:
    """``loser`` sues the victors in ``suits`` (victor -> accepts unconditional terms) (6.4.2, 6.4.3)."""
    st = r.state
    kinds: dict[str, str] = {}
    for v in sorted(suits, key=POWERS.index):
        if v not in st.powers[loser].wars:
            continue
        kind = "conditional" if settings(st, v, loser).give_conditional else "unconditional"
        if kind == "unconditional" and not (suits[v] or forced):
            r.say(loser, "diplomacy.peace", f"{name(loser)} refuses {name(v)}'s unconditional terms: the war goes on (6.4.2)",
                  other=v)
            continue
        kinds[v] = kind
    if not kinds:
        return
    terms = choose_terms(r, loser, list(kinds), kinds)
    for v in terms:
        _end_war(r, v, loser, formal=True)
        r.say(loser, "diplomacy.peace", f"{name(loser)} surrenders {kinds[v]}ly to {name(v)}"
              + (f", terms {', '.join(terms[v])}" if terms[v] else ", no terms") + " (6.4.2)"
              + (": " + "; ".join(peace_term_title(c) for c in terms[v]) if terms[v] else ""),
              other=v, terms_kind=kinds[v])
        points(r, v, 3 if kinds[v] == "conditional" else 5, f"{name(v)} accepts the {kinds[v]} surrender of {name(loser)} (6.4.2)")
        for cid in terms[v]:
            _apply_term(r, v, loser, cid)
    worst = "unconditional" if "unconditional" in kinds.values() else "conditional"
    points(r, loser, -8 if worst == "unconditional" else -5, f"{name(loser)} surrenders {worst}ly (6.4.2)")


def peace_step(r: Result, informal_offers: dict[str, list[str]], suits: dict[str, dict[str, bool]]) -> None:
    """6.4 in a fixed order: civil disorder's forced suits, informal peace, then suits for peace."""
    st = r.state
    suits = {p: dict(s) for p, s in suits.items()}
    forced = set()
    for p in POWERS:
        ps = st.powers[p]
        if not ps.must_sue_for_peace or p not in r.forced:
            continue  # bound in this phase (13.7.1): at the next diplomacy phase
        if ps.wars:
            own = suits.setdefault(p, {})
            if ps.sue_off_display:  # 13.7.1: only a conditional surrender has to be accepted
                own.update({e: own.get(e, False) for e in ps.wars})
                r.say(p, "diplomacy.peace", f"{name(p)}'s political status marker was pushed off the display: it must "
                      "sue every enemy for peace and accept a conditional surrender (13.7.1)")
            else:
                forced.add(p)
                own.update({e: True for e in ps.wars})
                r.say(p, "diplomacy.peace", f"{name(p)} is in civil disorder and must sue every enemy for peace (6.4.3)")
        r.state = r.state.with_power(p, must_sue_for_peace=False, sue_off_display=False)
    done: set[frozenset[str]] = set()
    for p in POWERS:
        for e in sorted(set(informal_offers.get(p, ())) | set(suits.get(p, {})), key=POWERS.index):
            pair = frozenset((p, e))
            if pair in done or e not in r.state.powers[p].wars:
                continue
            mutual_suit = e in suits.get(p, {}) and p in suits.get(e, {})
            offered = e in informal_offers.get(p, ())
            accepted = p in informal_offers.get(e, ()) or settings(r.state, e, p).accept_informal
            if mutual_suit or (offered and accepted):
                informal(r, p, e)
                done.add(pair)
                suits.get(p, {}).pop(e, None)
                suits.get(e, {}).pop(p, None)
            elif offered:
                r.say(p, "diplomacy.peace", f"{name(e)} does not accept {name(p)}'s informal peace (6.4.1)", other=e)
    for p in POWERS:
        if suits.get(p):
            surrender(r, p, suits[p], forced=p in forced)
    separate_peace(r)


def separate_peace(r: Result) -> None:
    """6.4 "Separate Peace and Allies": a power still at war with the enemy an ally made peace with may demand
    that the ally break their alliance (``demand_break``), unless it allows separate peace with that enemy."""
    from eiapbem.rules.diplomacy.alliances import break_alliance

    for a, b in list(r.peaces):
        for maker, enemy in ((a, b), (b, a)):
            for w in POWERS:
                st = r.state
                if w in (maker, enemy) or enemy not in st.powers[w].wars or maker not in st.powers[w].alliances:
                    continue
                so = st.powers[w].standing_orders
                if maker not in so.demand_break or settings(st, w, enemy).allow_separate_peace:
                    continue
                r.say(w, "diplomacy.separate-peace", f"{name(w)}, still at war with {name(enemy)}, demands that "
                      f"{name(maker)} break their alliance after its peace (6.4)")
                break_alliance(r, maker, w)
