"""Declarations of war (6.2, 000:614-636) and calls to allies (6.3, 000:638-658).

``check_declaration`` is 6.2.2's list of limits, each refusal one sentence
naming the rule; ``declare_all`` makes the phase's declarations at once (two
powers declaring on each other are both aggressors, 6.3.2) with the political
points of 6.2.1; ``call_allies`` then runs 6.3.2's calling order.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from eiapbem.core.errors import IllegalAction
from eiapbem.rules.diplomacy.common import Result, allied_minors_join, enforced_until, points, record_order, set_mutual, territory
from eiapbem.rules.diplomacy.common import name
from eiapbem.rules.diplomacy.orders import DeclareWar
from eiapbem.rules import engine, mapgraph
from eiapbem.rules.relations import minor_record as minor_status, power_of
from eiapbem.rules.model import POWERS, Corps, Fleet, GameState, Garrison, LocationKind, MinorStatus
from eiapbem.rules.tables import forces as force_tables
from eiapbem.rules.diplomacy.sealing import orders_open
from eiapbem.rules.engine import RulesContext

#: Minor statuses on which war may be declared: neutral, with or without relations (6.2; 6.1.1-6.1.3).
DECLARABLE = (MinorStatus.NEUTRAL, MinorStatus.INFLUENCED, MinorStatus.ALLIED)


def forces_inside(state: GameState, ctx: RulesContext, power: str, target: str) -> tuple[str, ...]:
    """Ids of ``power``'s corps and garrisons (its own or its controlled minors') inside ``target``'s territory."""
    areas = set(territory(state, ctx, target))
    out = []
    for uid, u in state.units.items():
        loc = getattr(u, "location", None)
        if loc is None or loc.kind not in (LocationKind.AREA, LocationKind.CITY) or loc.site not in areas:
            continue
        if not isinstance(u, (Corps, Garrison)):
            continue
        if power_of(state, u.nation) == power:
            out.append(uid)
    return tuple(sorted(out))


def enemy_corps_at_home(state: GameState, ctx: RulesContext, power: str) -> tuple[str, ...]:
    """Unbesieged enemy corps inside ``power``'s home nation (6.2.2): in the open areas, not shut in a city."""
    home = set(ctx.map.areas_of_nation(power))
    out = []
    for uid, u in state.units.items():
        if not isinstance(u, Corps) or u.location.kind is not LocationKind.AREA or u.location.site not in home:
            continue
        owner = power_of(state, u.nation)
        if owner is not None and owner in state.powers[power].wars:
            out.append(uid)
    return tuple(sorted(out))


#: 6.2.2 "physically impossible to enter" (000:632): the most movement points any corps has in one land phase
#: (10.4.1: cavalry, light infantry, Cossacks and Freikorps 5; French corps 4 +1 by forced march).  Every corps
#: is given this most, so a refusal is never wrong (docs/decisions.md).
MOST_MOVEMENT = max(force_tables.MA_FAST, force_tables.MA_FRENCH + force_tables.FORCED_MARCH_BONUS,
                    force_tables.MA_OTHER + force_tables.FORCED_MARCH_BONUS)
ON_LAND = (LocationKind.AREA, LocationKind.CITY)
AFLOAT = (LocationKind.SEA, LocationKind.PORT, LocationKind.BLOCKADE)


def can_enter_this_month(state: GameState, ctx: RulesContext, power: str, minor: str) -> bool:
    """6.2.2 (000:632): whether ``power`` could possibly enter the minor's territory in this month's land phase.

    Yes when one of its corps on the map (its own or its controlled minors') stands within ``MOST_MOVEMENT``
    movement points of an area of the minor over land borders and crossing arrows (``mapgraph``), or when the
    minor has a coast and the power has a fleet at sea or in port and a corps on the map or aboard (a landing
    from the sea, 8.6).  Enemy corps, access and supply are not counted against it: the limit refuses only a
    declaration that no move could make good."""
    m = ctx.map
    target = set(territory(state, ctx, minor))
    if not target:
        return False
    corps_at: list[str] = []
    fleet = aboard = False
    for u in state.units.values():
        if not isinstance(u, (Corps, Fleet)) or power_of(state, u.nation) != power:
            continue
        loc = u.location
        if isinstance(u, Corps):
            if loc.kind in ON_LAND:
                corps_at.append(loc.site)
            elif loc.kind is LocationKind.ABOARD:
                aboard = True
        elif isinstance(u, Fleet) and loc.kind in AFLOAT:
            fleet = True
    for start in sorted(set(corps_at)):
        if start in target:
            return True
        costs = mapgraph.movement_costs(m, start, max_cost=MOST_MOVEMENT)
        if any(a in target for a in costs):
            return True
    coastal = any(m.area(a).coast for a in target)
    return coastal and fleet and (aboard or bool(corps_at))


def defied_no_trade(state: GameState, power: str, target: str) -> bool:
    """6.2.2 exception / B.5: ``target`` surrendered "No Trading" to ``power`` and trades with Great Britain anyway."""
    t = state.powers[target].peace_terms.get(f"{power}:B.5")
    if t is None or t.target != "GB":
        return False
    return "GB" in state.powers[target].trade and target in state.powers["GB"].trade


def check_major(state: GameState, ctx: RulesContext, power: str, target: str, *, enforced: bool = True) -> None:
    """6.2.2's limits on a declaration of war by ``power`` on the major power ``target``."""
    ps = state.powers[power]
    if target in ps.wars:
        raise IllegalAction(f"{name(power)} is already at war with {name(target)} (6.2)")
    until = enforced_until(state, power, target)
    if enforced and until is not None and not defied_no_trade(state, power, target):
        raise IllegalAction(
            f"{name(power)} is bound by an enforced peace with {name(target)} until {until}: "
            f"no declaration of war on {name(target)} (6.2.2)")
    inside = forces_inside(state, ctx, power, target)
    if inside:
        raise IllegalAction(f"{name(power)} has corps inside {name(target)} ({inside[0]}): "
                            f"no declaration of war on {name(target)} (6.2.2)")
    if ps.wars:
        at_home = enemy_corps_at_home(state, ctx, power)
        if at_home:
            raise IllegalAction(f"{name(power)} is at war with enemy corps unbesieged inside its home nation ({at_home[0]}): "
                                f"no declaration of war on another major power (6.2.2)")


def check_declaration(state: GameState, ctx: RulesContext, power: str, target: str, mine: Iterable[Any] = ()) -> None:
    """Raise ``IllegalAction`` unless ``power`` may declare war on ``target`` this phase (6.2, 6.2.2)."""
    if target == power:
        raise IllegalAction(f"{name(power)} cannot declare war on itself (6.2)")
    if any(isinstance(o, DeclareWar) and o.target == target for o in mine):
        raise IllegalAction(f"{name(power)} already declares war on {name(target)} in these orders (6.2)")
    if target in POWERS:
        check_major(state, ctx, power, target)
        return
    m = state.minors.get(target)
    if m is None:
        raise IllegalAction(f"{target!r} is neither a major power nor a minor country of this game (6.2)")
    if m.part_of is not None:
        raise IllegalAction(f"{name(target)} is joined to {name(m.part_of)}: declare war on {name(m.part_of)} (13.6)")
    eff = minor_status(state, target)
    if eff is None or eff.status not in DECLARABLE:
        owner = eff.controller if eff is not None else None
        raise IllegalAction(f"{name(target)} is controlled by {name(owner or '?')}: controlled minor countries have war "
                            f"declared on them only through their major power (6.2)")
    if target in state.powers[power].minor_wars:
        raise IllegalAction(f"{name(power)} is already at war with {name(target)} (6.2)")
    inside = forces_inside(state, ctx, power, target)
    if inside:
        raise IllegalAction(f"{name(power)} has corps inside {name(target)} ({inside[0]}): "
                            f"no declaration of war on {name(target)} (6.2.2)")
    if not can_enter_this_month(state, ctx, power, target):
        raise IllegalAction(f"no corps of {name(power)} can enter {name(target)} in this month's land phase, by land "
                            f"within {MOST_MOVEMENT} movement points or from a fleet: no declaration of war on "
                            f"{name(target)} (6.2.2)")




def verify_declaration(state: GameState, power: str, a: DeclareWar, ctx: RulesContext) -> None:
    check_declaration(state, ctx, power, a.target, engine.given_orders(state, power))


def _declaration_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[DeclareWar]:
    if orders_open(state, power):
        yield from (DeclareWar(t) for t in [p for p in POWERS if p != power] + list(state.minors))


#: The declaration of war, registered with its check (the order itself acts when the phase resolves).
ACTIONS = ((DeclareWar, verify_declaration, record_order, _declaration_candidates),)


def _break_ties(r: Result, a: str, b: str, why: str, *, both: bool = False) -> None:
    """A declaration between allies or royal in-laws breaks the alliance and the marriage (6.2.1, B.4).

    ``both``: each of the two declares on the other (a mutual declaration, 6.3.2; the forced declarations over one
    minor, 6.6.3 000:814 "the requisite points lost for each"), so each pays for the ties broken.  The points are
    read before either tie is removed: removing them first would leave nothing for the second power to pay."""
    ps = r.state.powers[a]
    payers = (a, b) if both else (a,)
    if b in ps.alliances:
        r.state = set_mutual(r.state.without_alliance(a, b), "alliances_broken", a, b, r.state.date)
        for x, y in ((a, b), (b, a))[:len(payers)]:
            points(r, x, -2, f"{name(x)} breaks its alliance with {name(y)} by {why} (6.2.1)")
    if b in ps.royal_marriages:
        r.state = set_mutual(r.state, "royal_marriages", a, b, None)
        for x, y in ((a, b), (b, a))[:len(payers)]:
            points(r, x, -1, f"{name(x)} declares war on {name(y)}, its partner in a royal marriage (B.4)")


def _open_war(r: Result, a: str, b: str, declared_by: tuple[str, ...]) -> None:
    """``a`` and ``b`` at war from this month; their peace terms and grants toward each other end (C.5, C.7, 6.11)."""
    r.state = r.state.with_war(a, b, r.state.date, tuple(sorted(declared_by)))
    for x, y in ((a, b), (b, a)):
        ps = r.state.powers[x]
        terms = ps.peace_terms
        for key, t in ps.peace_terms.items():
            if t.victor == y:
                terms = terms.remove(key)
        r.state = r.state.with_power(x, peace_terms=terms, access=ps.access.discard(y),
                                     enforced_peace=ps.enforced_peace.discard(y))


def declare_major(r: Result, power: str, target: str, *, mutual: bool = False, why: str = "declaring war") -> None:
    """One declaration of war between majors with its political points (6.2.1)."""
    # 6.1.3: the defender's allied minors go to war with the aggressor; the aggressor's, which its ally acts for
    # (``relations.power_of``), are at war with the defender as well, and so are set up too.
    allied_minors_join(r, target, (power,))
    allied_minors_join(r, power, (target,))
    _break_ties(r, power, target, why, both=mutual)
    if mutual:
        _open_war(r, power, target, (power, target))
        points(r, power, -3, f"{name(power)} and {name(target)} declare war on each other (6.2.1)")
        points(r, target, -3, f"{name(target)} and {name(power)} declare war on each other (6.2.1)")
    else:
        _open_war(r, power, target, (power,))
        points(r, power, -3, f"{name(power)} declares war on {name(target)} (6.2.1)")


def declare_minor(r: Result, power: str, target: str) -> None:
    """A declaration of war on a neutral minor (6.2); its political points come with the choice of the power
    that runs it (``minor_control.control_attacked_minors``, 6.2.1, 6.6)."""
    m = r.state.minors[target]
    if m.status is MinorStatus.ALLIED and m.controller == power:
        r.state = r.state.with_minor(target, m.replace(status=MinorStatus.NEUTRAL, controller=None))
        points(r, power, -1, f"{name(power)} breaks its alliance with {name(target)} by declaring war on it (6.1.3)")
    elif m.status is MinorStatus.ALLIED and m.controller is not None and m.controller in r.state.powers[power].alliances:
        # 6.1.3 (000:552): war on an ally's allied minor breaks the alliance of the two powers.
        _break_ties(r, power, m.controller, f"declaring war on {name(target)}, allied to {name(m.controller)}")
    ps = r.state.powers[power]
    r.state = r.state.with_power(power, minor_wars=ps.minor_wars.set(target, r.state.date))
    r.say(power, "diplomacy.war", f"{name(power)} declares war on {name(target)} (6.2)", target=target)


def declare_all(r: Result, declarations: dict[str, list[str]]) -> tuple[list[tuple[str, str]], dict[str, list[str]]]:
    """Every declaration of the phase at once; returns the new (aggressor, defender) wars between majors
    where only one side declared (those that may call allies, 6.3.2), and the minors declared on with
    their aggressors (for ``minor_control``, 6.6)."""
    called: list[tuple[str, str]] = []
    done: set[tuple[str, str]] = set()
    on_minors: dict[str, list[str]] = {}
    for p in POWERS:
        for t in declarations.get(p, ()):
            if t not in POWERS:
                declare_minor(r, p, t)
                on_minors.setdefault(t, []).append(p)
                continue
            if (t, p) in done:
                continue
            mutual = p in declarations.get(t, ())
            declare_major(r, p, t, mutual=mutual)
            done.add((p, t))
            if not mutual:
                called.append((p, t))
    return called, on_minors


def _answer(r: Result, ally: str, caller: str, enemy: str, *, caller_is_aggressor: bool) -> None:
    """The called ``ally`` answers ``caller``'s call against ``enemy`` or refuses it (6.3.2)."""
    st = r.state
    if enemy in st.powers[ally].wars:
        return
    if enforced_until(st, ally, enemy) is not None:
        r.say(ally, "diplomacy.call", f"{name(ally)} cannot be called against {name(enemy)}: enforced peace (6.3.2)")
        return
    willing = caller in st.powers[ally].standing_orders.answer_calls.get(enemy, ())
    reason = ""
    if willing:
        try:
            check_major(st, r.ctx, ally, enemy)
        except IllegalAction as err:
            reason = str(err)
    if willing and not reason:
        declare_major(r, ally, enemy, why="answering a call to allies")
        r.say(ally, "diplomacy.call", f"{name(ally)} answers {name(caller)}'s call and declares war on {name(enemy)} (6.3)")
        return
    r.state = set_mutual(r.state.without_alliance(ally, caller), "alliances_broken", ally, caller, r.state.date)
    why = f" ({reason})" if reason else ""
    points(r, ally, -2, f"{name(ally)} refuses {name(caller)}'s call against {name(enemy)}: alliance broken{why} (6.3.2)")
    if caller_is_aggressor:
        points(r, caller, -2, f"{name(caller)}'s ally {name(ally)} refused its call: both break the alliance (6.3.2)")


def call_allies(r: Result, wars: list[tuple[str, str]]) -> None:
    """6.3.2: for each new war, the defender calls its allies first; then the aggressor, if the defender did."""
    for aggressor, defender in wars:
        dcalls = [a for a in r.state.powers[defender].standing_orders.call_allies.get(aggressor, ())
                  if a in r.state.powers[defender].alliances]
        for ally in dcalls:
            _answer(r, ally, defender, aggressor, caller_is_aggressor=False)
        if not dcalls:
            continue
        acalls = [a for a in r.state.powers[aggressor].standing_orders.call_allies.get(defender, ())
                  if a in r.state.powers[aggressor].alliances]
        for ally in acalls:
            _answer(r, ally, aggressor, defender, caller_is_aggressor=True)
