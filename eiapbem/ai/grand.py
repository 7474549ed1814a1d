"""Measures of the state for the computer's war and peace, and its wars on neutral minors (issues 19, 28; 6.2, 6.6).

The war plan itself (whom to fight, whom to ally with, when to make peace) is ``eiapbem.ai.strategy``, judged by
``eiapbem.ai.judge``.  What is here, all whole numbers (no float), read the same at every client:

- ``might``: the strength of a power's field corps (``ai.assess.power_strength``: army factors times morale, its own,
  its minors' and loans to it); ``sea_power``: its warships;
- ``side``: a power's might with its allies' (the ``coalition`` and ``allies`` judgments) or alone (``own``);
  ``balance``: one side as a percentage of the other, by land, or by warships when the war is fought at sea (one side
  Great Britain); ``clearly_ahead``: a balance of ``AHEAD`` with enemy home areas held;
- ``home_lost``: areas of a power's home nation held by an enemy, enemy corps standing unbesieged in it (6.2.2) and
  two for each national capital an enemy holds (12.2.1);
- ``minor_war_target``: at medium and hard, when no major is declared on, a war on one neutral minor it can enter
  this month that its own forces outnumber 300%, while at peace or clearly winning its one war; with
  ``accepts_control`` and ``runners`` (6.6: who would run an attacked minor).

Every choice is a function of the state, the power, its level and the slot's dice: no clock, float or set order.
"""

from __future__ import annotations

from typing import Any

import eiapbem.ai.judge as judge
from eiapbem.ai.assess import minor_might, power_strength
from eiapbem.ai.judge import hostility, natural_friends, ratio, sea_power
from eiapbem.core.errors import IllegalAction
from eiapbem.rules.diplomacy import war
from eiapbem.rules.diplomacy.minor_control import runner_pool
from eiapbem.rules.model import POWERS, GameState, MinorStatus, PlayerKind
from eiapbem.rules.control import area_holder, city_power
from eiapbem.rules.economy.common import national_capitals_occupied
from eiapbem.rules.politics import status_box
from eiapbem.rules.relations import power_of
from eiapbem.rules.tables.diplomacy import minor as minor_chart

#: A side this far ahead (percent) is "clearly winning": it offers no informal peace.
AHEAD = 150


def might(state: GameState, ctx: Any, power: str) -> int:
    """The strength of ``power``'s field corps by ``ai.assess`` (army factors x morale, hundredths)."""
    return power_strength(state, ctx, power)


def at_sea(a: str, b: str) -> bool:
    """A war between ``a`` and ``b`` is fought at sea: one of them is Great Britain (an island, 000:3169)."""
    return "GB" in (a, b)


def balance(state: GameState, ctx: Any, power: str, enemy: str, judgment: str) -> int:
    """``power``'s side as a percentage of ``enemy``'s: by land (``side``), or by warships in a war at sea."""
    if at_sea(power, enemy):
        if judgment == "own":
            return ratio(sea_power(state, power), sea_power(state, enemy))
        mine = sea_power(state, power) + sum(sea_power(state, a) for a in sorted(state.powers[power].alliances) if a != enemy)
        theirs = sea_power(state, enemy) + sum(sea_power(state, a) for a in sorted(state.powers[enemy].alliances)
                                               if a != power)
        return ratio(mine, theirs)
    return ratio(side(state, ctx, power, judgment, against=enemy), side(state, ctx, enemy, judgment, against=power))


def side(state: GameState, ctx: Any, power: str, judgment: str, *, against: str | None = None) -> int:
    """``power``'s might with its allies' but ``against``'s (``coalition``), or alone (``own``)."""
    total = might(state, ctx, power)
    if judgment == "own":
        return total
    for a in sorted(state.powers[power].alliances):
        if a != against:
            total += might(state, ctx, a)
    return total


def home_lost(state: GameState, ctx: Any, power: str) -> int:
    """Home areas of ``power`` held by an enemy, plus enemy corps unbesieged in its home nation (6.2.2), plus two
    for each of its national capitals an enemy holds unbesieged (12.2.1, 000:2084: no taxes at all while it is;
    a peace gives it back, 6.4, 000:736), so that a power without its capital counts as losing (``_losing``)."""
    enemies = state.powers[power].wars
    held = sum(1 for a in ctx.map.areas_of_nation(power) if area_holder(state, ctx, a) in enemies)
    capitals = sum(2 for c in national_capitals_occupied(state, ctx, power) if city_power(state, ctx, c) in enemies)
    return held + len(war.enemy_corps_at_home(state, ctx, power)) + capitals


def zone(state: GameState, ctx: Any, power: str) -> str:
    return str(status_box(ctx, state.powers[power].political_status)["zone"])


def months_at_war(state: GameState, a: str, b: str) -> int:
    w = state.powers[a].wars.get(b)
    return 0 if w is None else state.date.index - w.since.index


def may_declare(state: GameState, ctx: Any, power: str, target: str) -> bool:
    try:
        war.check_declaration(state, ctx, power, target, ())
    except IllegalAction:
        return False
    return True


def _minor_options(state: GameState, ctx: Any, power: str, lvl: Any) -> list[str]:
    """The neutral minors ``power`` at level ``lvl`` would declare war on this month, best first, before any dice
    (``minor_war_target``'s rule without its roll and without the other computers' picks)."""
    ps = state.powers[power]
    if not lvl.minor_war_ratio or ps.must_sue_for_peace or ps.minor_wars or zone(state, ctx, power) == "fiasco":
        return []
    if len(ps.wars) > 1:
        return []
    for e in ps.wars:
        if not clearly_ahead(state, ctx, power, e, balance(state, ctx, power, e, lvl.judgment)):
            return []
    mights = {q: might(state, ctx, q) for q in POWERS}
    mine = mights[power]
    keys: list[tuple] = []
    for x in sorted(state.minors):
        m = state.minors[x]
        if m.part_of is not None or m.status is not MinorStatus.NEUTRAL or power_of(state, x) is not None:
            continue
        theirs = minor_might(state, ctx, x)
        if ratio(mine, theirs) < lvl.minor_war_ratio:
            continue
        if lvl.weigh_runners and not _wins_against_runners(state, ctx, power, x, theirs, lvl, mights):
            continue
        if not may_declare(state, ctx, power, x):
            continue
        near = _bordering(ctx, x)
        keys.append((power not in near, len(near - {power}), theirs, x))
    return [str(k[-1]) for k in sorted(keys)]


def accepts_control(state: GameState, ctx: Any, power: str, minor_id: str, lvl: Any,
                    mights: dict[str, int] | None = None, theirs: int | None = None) -> bool:
    """Whether the computer ``power`` at level ``lvl`` stands as a candidate to run the neutral minor ``minor_id``
    if war is declared on it ("Accept control of", 6.6, 6.6.4).

    Who may: a power the minor's chart row gives a national modifier (NA: it may not run it), not at war with the
    minor itself (6.6).  What it brings: +1 political point per district at once (6.6.5), and the aggressor pays
    its -1 per district (6.2.1) instead of auto-conquering the minor (+1 per district, 13.3.1).  What it costs:
    -1 per district when the minor is conquered (13.3.1), which gives the gain back, and -1/2 a corps for the
    minor's battles lost; its own corps stay out of the minor's war unless it is at war with the aggressor
    (6.6.6).  So at the levels with an ``accept_hold`` it declines a minor that a major power bordering it (not
    itself) outnumbers by that percentage (``might`` against ``minor_might``): that minor would be conquered and
    the gain given back with its battles lost.  ``mights``, ``theirs``: the powers' ``might`` and the minor's
    ``minor_might`` when the caller has them."""
    m = state.minors.get(minor_id)
    if not lvl.accept_control or m is None or m.part_of is not None or m.status is not MinorStatus.NEUTRAL:
        return False
    if minor_chart(minor_id).modifier(power) is None or minor_id in state.powers[power].minor_wars:
        return False
    if not lvl.accept_hold:
        return True
    if theirs is None:
        theirs = minor_might(state, ctx, minor_id)
    for q in sorted(_bordering(ctx, minor_id) - {power}):
        got = mights[q] if mights is not None else might(state, ctx, q)
        if ratio(got, theirs) >= lvl.accept_hold:
            return False
    return True


def runners(state: GameState, ctx: Any, power: str, minor_id: str, mights: dict[str, int] | None = None,
            theirs: int | None = None) -> list[str]:
    """The powers that would run ``minor_id`` against ``power`` if it declared war on it alone, in the 6.6 order
    of who is asked (000:774): the willing powers not allied with it, or, when there are none, its willing
    allies.  A computer is willing by ``accepts_control`` at its own level; a human's ticks are sealed (issue 16),
    so a human with a national modifier is taken to be willing (the +1 per district costs it nothing at once)."""
    from eiapbem.ai.levels import level

    def willing_(q: str) -> bool:
        kind = state.powers[q].controller
        if kind is PlayerKind.HUMAN:
            return minor_chart(minor_id).modifier(q) is not None
        return accepts_control(state, ctx, q, minor_id, level(kind), mights, theirs)

    return runner_pool(state, [power], [q for q in POWERS if q != power and willing_(q)])


def _wins_against_runners(state: GameState, ctx: Any, power: str, minor_id: str, theirs: int, lvl: Any,
                          mights: dict[str, int]) -> bool:
    """A war on ``minor_id`` still pays for ``power`` when another power would run it (``runners``; the -1 per
    district is then paid, 6.2.1): only when none would, or when its might is at least the level's
    ``runner_ratio`` of the minor's with the strongest runner's field forces added -- those of a runner that is at
    war with it, or a human who may declare war in the minor's support (6.6.6); a computer orders no support."""
    rs = runners(state, ctx, power, minor_id, mights, theirs)
    if not rs:
        return True
    if not lvl.runner_ratio:
        return False
    helpers = [mights[q] for q in rs
               if q in state.powers[power].wars or state.powers[q].controller is PlayerKind.HUMAN]
    return ratio(mights[power], theirs + max(helpers, default=0)) >= lvl.runner_ratio


def _picked_by_stronger(state: GameState, ctx: Any, power: str) -> set[str]:
    """The minors the computers stronger than ``power`` (``might``, ties in the powers' order) would declare war on
    this month by the same rule (``_minor_options``), each taking its best minor not taken by a stronger one: two
    powers declaring on one minor are at war with each other (6.6.3, -3 each), so ``power`` leaves them alone.  A
    computer that declares war on a major this month (``judge.declarations``) picks no minor."""
    from eiapbem.ai.levels import level

    majors = _majors(state, ctx)
    order = sorted((q for q in POWERS if state.powers[q].controller is not PlayerKind.HUMAN),
                   key=lambda q: (-might(state, ctx, q), POWERS.index(q)))
    taken: set[str] = set()
    for q in order:
        if q == power:
            break
        lq = level(state.powers[q].controller)
        if not lq.minor_war_ratio or q in majors:
            continue
        pick = next((x for x in _minor_options(state, ctx, q, lq) if x not in taken), None)
        if pick is not None:
            taken.add(pick)
    return taken


def _majors(state: GameState, ctx: Any) -> dict[str, str]:
    """The month's declarations of war on major powers of every computer (``judge.declarations``)."""
    return judge.declarations(judge.board(state, ctx))


def minor_war_target(state: GameState, ctx: Any, power: str, lvl: Any) -> str | None:
    """The neutral minor country ``power`` declares war on this month (6.2, 6.15), or None: at the levels with a
    ``minor_war_ratio``, at peace with every major or in one war it is clearly winning, at war with no other
    neutral minor, on a minor the 6.2.2 limits allow (``may_declare``: a corps can enter it this month, by land or
    from a fleet) whose forces its own outnumber by ``minor_war_ratio`` percent; at the levels that
    ``weigh_runners``, only on a minor no other power would run against it (``runners``) or that it beats with the
    runner's forces added (``_wins_against_runners``); not one a stronger computer would pick (``_picked_by_stronger``,
    6.6.3).  Preferred: a minor bordering its
    home nation, then one bordering the fewest other majors, then the weakest, then by id."""
    options = _minor_options(state, ctx, power, lvl)
    if not options:
        return None
    taken = _picked_by_stronger(state, ctx, power)
    return next((x for x in options if x not in taken), None)


def _bordering(ctx: Any, minor: str) -> set[str]:
    """The major powers whose home nation borders ``minor`` by land."""
    m = ctx.map
    near = {n for a in m.areas_of_nation(minor) for n in m.land_neighbours(a)}
    return {q for q in POWERS if any(a in near for a in m.areas_of_nation(q))}


def clearly_ahead(state: GameState, ctx: Any, power: str, enemy: str, r: int) -> bool:
    """Clearly winning: a balance of ``AHEAD`` percent with home areas of the enemy held (a war wins land)."""
    return r >= AHEAD and home_lost(state, ctx, enemy) > 0


__all__ = ["AHEAD", "accepts_control", "balance", "clearly_ahead", "home_lost", "hostility", "may_declare", "might",
           "minor_might", "minor_war_target", "months_at_war", "natural_friends", "ratio", "runners", "sea_power", "side",
           "zone"]
