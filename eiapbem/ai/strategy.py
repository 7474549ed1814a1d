"""A power's war plan, re-judged each month from the state (issue 28 item 1; DESIGN.md 8).

``war_plan(state, power, lvl, ctx)`` is a pure function of the state, the power, its level and the rules context
(its dice are not used: every slot of the power, diplomacy, naval and land alike, gets the same plan from the same
state).  The diplomacy orders (``ai.diplomacy``) are made from it, and the land and naval play read its aims, so
that declarations, alliances, calls, subsidies, suits and the armies agree.  It answers:

- **whom to fight**: ``declare``, at most one major power a month, from ``judge.declarations`` (the month's
  declarations of every computer, coalitions of allies first): a war is declared when it is worth victory points
  over the level's horizon (``judge.judge_war``); ``enemies`` are the powers at war with it and the one it declares
  on; ``main_enemy`` is the enemy that holds its land, else the one whose aims are worth most to it;
- **whom to ally with**: ``threat`` is the strongest power that could attack it (its most dangerous enemy when at
  war); ``alliances`` are the powers it asks to ally with (6.5): those that face the same threat and are its natural
  friends by the natural alliance table (15.0, +1 both ways; -1 will do for two powers already at war with the
  threat), not friends of the threat, the friendliest first, up to ``Level.seek_alliances``; a power that cannot
  stand against the threat with all the help it could find asks the threat itself (``overawed``), never the power it
  declares war on that month (6.5.1); ``friends`` are
  the allies whose wars it supports (it answers their calls, 6.3); ``subsidies`` are money given to allies fighting
  its enemies (6.12, 12.3), a share of its treasury above ``RESERVE``, never to an ally at war with another of its
  allies or allied with its enemy (Great Britain's coalitions are paid for this way: its money outruns its
  manpower);
- **what to take**: ``aims``, best first: the enemies' national capitals (an occupied capital costs its owner
  political points each economic phase, 12.4.1, and no taxes, 12.2.1, and makes it sue), their home provinces'
  cities (taxes, and what a peace may cede, B.6), the minors they control (+1 per district conquered, 000:3224,
  -1 to them), its own cities they hold, and the neutral minors it is at war with;
- **when to make peace**: for each enemy, what going on is worth over the horizon (``judge.judge_war`` on the
  war as it stands, faded by war-weariness when nothing is decided, plus what the occupation of its capitals and
  the battles lost cost it each quarter) against what a peace costs (a conditional surrender's -5 and the victor's
  terms, 6.4.2; an informal peace costs nothing, 6.4.1). Nothing is sought before the war is decided one way
  (``beaten``: a capital lost, battles lost, home areas held) or the level's ``weary_months`` have been fought: the
  armies must meet first (``judge.war_state`` counts a war's months from the first field battle between the two, or
  from ``judge.UNFOUGHT`` months after its declaration when they never meet). ``sue`` when ``overrun`` (a capital lost; its land held or a rout in the field once it no longer
  ``holds_out`` with its capitals safe and an army left) and a surrender costs less than going on (unconditional
  terms accepted only once a capital has fallen or its army is spent), ``informal`` when the war is worth nothing
  more and the enemy would accept, ``accept_informal`` when the war is worth nothing more to it -- never, for a while, to the side that is
  ``winning``: it goes on while its aims are within reach, and the loser sues for terms; ``peace`` is both;
  ``pressing``: enemies whose capital its army stands within reach of at good odds (``presses``): it offers them
  unconditional terms only, which a loser with its capital and an army refuses, and accepts no informal peace, so
  that the capital falls before the peace.

Victory points are the measure throughout (12.1, via the political status display), so that a war is weighed by
what it may win against the -3 of its declaration (6.2.1), over a horizon of months and not this month alone.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import eiapbem.ai.assess as assess
import eiapbem.ai.judge as judge
from eiapbem.ai.levels import Level, level
from eiapbem.rules.control import city_holder
from eiapbem.rules.diplomacy import peace as peace_rules
from eiapbem.rules.diplomacy.alliances import alliance_barred
from eiapbem.rules.diplomacy.orders import SueForPeace
from eiapbem.rules.diplomacy.terms import cession_refused
from eiapbem.rules.economy.manipulation import CAPITAL_LOSS
from eiapbem.rules.model import POWERS, GameState, MinorStatus, Phase, PlayerKind
from eiapbem.rules.relations import power_of
from eiapbem.rules.tables.diplomacy import NATURAL_ALLIANCE

#: Dollars a power keeps before it gives money to its allies (about a quarter of depot supply and a counter).
RESERVE = 60
#: A power facing a threat this many percent of its own might with its possible helpers' joins it instead (if the
#: natural alliance table lets it: 0 or better both ways).
BANDWAGON = 300
#: The least gift worth making (dollars).
LEAST_GIFT = 5
#: Aims kept in a plan (best first).
AIMS = 16
#: Home areas held on balance by the enemy that make a war lost (``beaten``) or won (``winning``): a province or so,
#: not one corps passing through.
HELD_AREAS = 3
#: Percent of its home areas held by the enemy that make a power surrender (``overrun``).
OVERRUN = 25
#: Net political points lost in the field that make a power surrender with its land still its own (``overrun``).
ROUTED = 9
#: A power winning a war accepts no informal peace for this many times its level's ``weary_months``: it goes on while
#: its aims are within reach, and the loser sues for terms.
WINNER_MONTHS = 2
#: A surrender's political points: unconditional (-8) over conditional (-5) (6.4.2), hundredths.
UNCONDITIONAL = 300
#: ``chances``: an enemy capital held makes its owner sue at least this often (percent); each net political point of
#: the battles moves the chances ``judge.MOMENTUM`` percent, and each home area held ``AREA_MOMENTUM``; war-weariness
#: fades them by ``WEARINESS`` percent a month past the level's ``weary_months``.
HELD_CAPITAL = 60
AREA_MOMENTUM = 2
WEARINESS = 15
#: Movement points from an enemy capital within which an army presses on it (about two months' march), and the
#: factors on the map a power needs to hold out while its capitals are its own ("an army left").
PRESS_REACH = assess.NEAR
ARMY_LEFT = 10
#: Months of forced march within which a power's corps can come back to a national capital the enemy took and retake
#: it (``can_retake``): until they have tried, the capital's loss alone makes no surrender.
RETAKE_MONTHS = 3
#: Terms a surrender costs the loser besides its political points (hundredths of political points, by code).
TERM_COST = {"B.6": 150, "C.4": 400, "B.1": 150, "C.1.a": 150, "C.1.b": 100, "B.3": 50, "C.3": 100, "B.7": 50,
             "C.1.c": 100, "C.6": 100}


@dataclass(frozen=True)
class Aim:
    """An area to take from ``enemy`` (or to take back): a capital, a province's city, a minor's capital."""

    enemy: str
    area: str
    #: Political points it is worth over the plan's horizon (whole points).
    worth: int


@dataclass(frozen=True)
class WarPlan:
    power: str
    #: Major powers at war with it, and the one it declares war on this month.
    enemies: tuple[str, ...]
    main_enemy: str | None
    aims: tuple[Aim, ...]
    #: Allies whose wars it supports (it answers their calls, 6.3).
    friends: tuple[str, ...]
    #: Enemies it seeks peace with now (a suit or an informal peace).
    peace: tuple[str, ...]
    #: The major power it declares war on this month (in the diplomacy phase), or None.
    declare: str | None = None
    #: The strongest power that could attack it (its most dangerous enemy when at war).
    threat: str | None = None
    #: Suits for peace (enemy, whether it accepts unconditional terms) and informal peace offers (6.4.1-6.4.2).
    sue: tuple[tuple[str, bool], ...] = ()
    informal: tuple[str, ...] = ()
    #: Enemies whose informal peace it accepts (Victory Conditions Screen, 6.4).
    accept_informal: tuple[str, ...] = ()
    #: Powers it asks to ally with (6.5) and money it gives allies (6.12), dollars.
    alliances: tuple[str, ...] = ()
    subsidies: tuple[tuple[str, int], ...] = ()
    #: Its judgement of each war it fights or declares, in the powers' order.
    wars: tuple[judge.Judgement, ...] = ()
    #: Enemies whose capital its army presses on (``presses``): it gives them unconditional terms only and accepts
    #: no informal peace from them.
    pressing: tuple[str, ...] = ()


# ----------------------------------------------------------------- the plan


_PLANS: dict[tuple[int, int, str, str], tuple[GameState, WarPlan]] = {}
_KEEP = 16


def war_plan(state: GameState, power: str, lvl: Level, ctx: Any) -> WarPlan:
    """The war plan of ``power`` at level ``lvl`` in ``state`` (see the module's notes)."""
    key = (id(state), id(ctx.map), power, lvl.kind.value)
    hit = _PLANS.get(key)
    if hit is not None and hit[0] is state:
        return hit[1]
    plan = _plan(judge.board(state, ctx), power, lvl)
    while len(_PLANS) >= _KEEP:
        del _PLANS[next(iter(_PLANS))]
    _PLANS[key] = (state, plan)
    return plan


def _plan(b: judge.Board, p: str, lvl: Level) -> WarPlan:
    wars = b.wars(p)
    slot = b.state.slot
    if slot is None or slot.phase is not Phase.DIPLOMACY:
        declare = None  # declarations are made in the diplomacy phase (6.2)
    elif b.level(p) is not None and b.level(p) == lvl:
        declare = judge.declarations(b).get(p)
    else:
        declare = _own_choice(b, p, lvl)
    enemies = judge.in_order(set(wars) | ({declare} if declare else set()))
    judged = tuple(judge.judge_war(b, p, e, lvl) for e in enemies)
    sue, informal, accept = _peace(b, p, lvl, judged)
    aims = _aims(b, p, enemies, lvl)
    return WarPlan(
        power=p, enemies=enemies, main_enemy=_main_enemy(b, p, enemies, aims, judged), aims=aims,
        friends=_friends(b, p), peace=judge.in_order({e for e, _ in sue} | set(informal)), declare=declare,
        threat=threat(b, p), sue=sue, informal=informal, accept_informal=accept,
        alliances=tuple(a for a in _alliances(b, p, lvl) if a != declare and judge.declarations(b).get(a) != p),
        subsidies=_subsidies(b, p, lvl, enemies), wars=judged,
        pressing=tuple(e for e in enemies if e in b.state.powers[p].wars and presses(b, p, e, lvl)))


def _own_choice(b: judge.Board, p: str, lvl: Level) -> str | None:
    """The best war of ``p`` at a level other than its own (a human's power lent to the computer, a test): its own
    single war, without the other computers' coalitions."""
    best: judge.Judgement | None = None
    for q in judge.candidates(b, p, lvl):
        j = judge.judge_war(b, p, q, lvl)
        if j.worth > 0 and (best is None or j.worth > best.worth):
            best = j
    return None if best is None else best.enemy


# ----------------------------------------------------------------- threats, alliances, friends, money


def threat(b: judge.Board, p: str) -> str | None:
    """The strongest power that could attack ``p``: its most dangerous enemy when at war, else its rival
    (``judge.rival``: the strongest power not an ally nor a natural friend, by the distance it would come from and
    by hostility)."""
    wars = b.wars(p)
    if not wars:
        return judge.rival(b, p)
    return max(wars, key=lambda q: (judge.menace(b, q, p), -POWERS.index(q)))


def overawed(b: judge.Board, p: str, t: str) -> bool:
    """``p`` cannot hope to stand against ``t`` even with the allies it could find: what ``t`` brings against it is
    ``BANDWAGON`` percent of its own might with the might its allies and the powers at war with ``t`` can bring.
    Never Great Britain, nor a power facing it: an island is reached by sea, not by an army's weight."""
    if "GB" in (p, t):
        return False
    helpers = sum(b.land[a] * judge.prox(b, a, p) // 100 for a in POWERS
                  if a not in (p, t) and (a in b.state.powers[p].alliances or a in b.state.powers[t].wars))
    return judge.ratio(judge.brought(b, t, (t,), (p,)), b.land[p] + helpers) >= BANDWAGON


def _alliances(b: judge.Board, p: str, lvl: Level) -> tuple[str, ...]:
    """Powers ``p`` asks to ally with (6.5, see the module's notes): those facing the same threat whose natural stance
    toward it and its own toward them are +1 or better (15.0: an alliance drags each into the other's wars, 6.3),
    -1 or better when both are already at war with the threat, not friends of the threat; or, overawed by a threat
    it is not hostile to (``overawed``), the threat; never a power at war with one of its allies or allied with one of
    its enemies (``_divided``: the first call would break one alliance or the other, 6.3)."""
    t = threat(b, p)
    if t is None or not lvl.seek_alliances:
        return ()
    ps = b.state.powers[p]
    if (t not in ps.wars and overawed(b, p, t) and NATURAL_ALLIANCE[p][t] >= 0 and NATURAL_ALLIANCE[t][p] >= 0
            and not alliance_barred(b.state, p, t) and not _divided(b, p, t)):
        return (t,)
    out = []
    for r in POWERS:
        if r in (p, t) or r in ps.alliances or r in ps.wars or alliance_barred(b.state, p, r) or _divided(b, p, r):
            continue  # (an alliance with a power at war with an ally, or allied with an enemy, would be broken at once)
        fighting = t in b.state.powers[r].wars and t in ps.wars
        least = -1 if fighting else 1
        if NATURAL_ALLIANCE[p][r] < least or NATURAL_ALLIANCE[r][p] < least or NATURAL_ALLIANCE[r][t] >= 1:
            continue
        if t in b.state.powers[r].alliances or (threat(b, r) != t and not fighting) or (not fighting and overawed(b, r, t)):
            continue
        out.append((-NATURAL_ALLIANCE[p][r], -b.land[r] * judge.prox(b, r, t) // 100, POWERS.index(r), r))
    return tuple(x[-1] for x in sorted(out)[:lvl.seek_alliances])


def _friends(b: judge.Board, p: str) -> tuple[str, ...]:
    """Allies whose wars ``p`` supports: every ally but one at war with a natural friend of ``p`` (15.0)."""
    return tuple(a for a in b.allies(p)
                 if not any(NATURAL_ALLIANCE[p][e] >= 1 or NATURAL_ALLIANCE[e][p] >= 1
                            for e in b.wars(a) if e != p))


def _subsidies(b: judge.Board, p: str, lvl: Level, enemies: tuple[str, ...]) -> tuple[tuple[str, int], ...]:
    """Money to the allies poorer than ``p`` for the size of their armies (treasury per factor of land might) at war
    with one of its enemies (or declaring on it this month), else to those facing the same threat: the level's share
    of the treasury above ``RESERVE``, shared by their might, each gift at most what leaves the ally no richer per
    factor than the giver (6.12): money goes where it feeds the larger army, and does not come back."""
    pool = (b.state.powers[p].treasury - RESERVE) * lvl.subsidy_share // 100
    if pool < LEAST_GIFT:
        return ()
    joint = judge.declarations(b)
    mine, have = max(1, b.land[p]), b.state.powers[p].treasury
    poorer = [a for a in b.allies(p) if b.state.powers[a].treasury * mine < have * max(1, b.land[a])
              and not _divided(b, p, a)]
    fighting = [a for a in poorer if any(e in b.state.powers[a].wars or joint.get(a) == e for e in enemies)]
    if not fighting:  # at peace with them: the allies that face the same threat, to stand against it
        t = threat(b, p)
        fighting = [a for a in poorer if t is not None and threat(b, a) == t]
    weights = {a: max(1, b.land[a]) for a in fighting}
    total = sum(weights.values())
    out = []
    for a in fighting:
        # never so much that the ally ends richer per factor of its army than the giver (it would give the money
        # back: Britain and Spain sent each other $100-200 a month; Prussia, paid by Britain, paid it back)
        theirs = max(1, b.land[a])
        gift = min(pool * weights[a] // total, (have * theirs - b.state.powers[a].treasury * mine) // (theirs + mine))
        if gift >= LEAST_GIFT:
            out.append((a, gift))
    return tuple(out)


def _divided(b: judge.Board, p: str, a: str) -> bool:
    """``p``'s ally ``a`` is at war with another of ``p``'s allies, or allied with one of ``p``'s enemies: money given
    to it would serve one side of ``p``'s own friends against the other, or its enemy's coalition."""
    st = b.state
    return (any(x != a and x in st.powers[a].wars for x in b.allies(p))
            or any(e in st.powers[a].alliances for e in b.wars(p)))


# ----------------------------------------------------------------- peace


#: The conditional terms a computer victor asks first, by its level's ``terms`` (``ai.diplomacy``); a human's are
#: taken to be a province's (its settings are sealed, issue 16).
VICTOR_TERMS = {"plain": ("B.2", "B.3"), "harsh": ("B.4", "B.6")}
HUMAN_TERMS = ("B.6",)


def victor_terms(state: GameState, e: str) -> tuple[str, ...]:
    """The conditional terms ``e`` would take as victor (the Victory Conditions Screen is each power's own, sealed
    and cleared each month, so a computer's is foreseen by its level, not read)."""
    kind = state.powers[e].controller
    return HUMAN_TERMS if kind is PlayerKind.HUMAN else VICTOR_TERMS[level(kind).terms]


def surrender_cost(b: judge.Board, p: str, e: str) -> int:
    """Political points (hundredths) ``p`` gives up by surrendering conditionally to ``e``: -5 (6.4.2) and the terms
    ``e`` would take (``victor_terms``)."""
    return judge.SURRENDER + sum(TERM_COST.get(t, 0) for t in victor_terms(b.state, e))


def chances(ws: judge.WarState, j: judge.Judgement, lvl: Level) -> tuple[int, int]:
    """(win %, lose %) of a war as it stands: the balance's chances (``j``) moved by what the war has decided so far
    -- an enemy capital held (its owner sues to get it back, 6.4 000:736) and battles won, or the reverse -- and faded
    by war-weariness when it has been fought ``lvl.weary_months`` (``judge.war_state``) with no capital taken."""
    win, lose = j.win, j.lose
    if ws.capitals_held:
        win = max(win, HELD_CAPITAL)
    if ws.capitals_lost:
        lose = max(lose, HELD_CAPITAL)
    win, lose = judge.shifted(win, lose, judge.MOMENTUM * ws.battles + AREA_MOMENTUM * (ws.areas_held - ws.areas_lost))
    if not (ws.capitals_lost or ws.capitals_held) and ws.months > lvl.weary_months:
        fade = max(0, 100 - WEARINESS * (ws.months - lvl.weary_months))
        win, lose = win * fade // 100, lose * fade // 100
    return win, lose


def going_on(b: judge.Board, p: str, e: str, lvl: Level, j: judge.Judgement) -> int:
    """Political points held over the horizon (point-quarters, hundredths) of going on with the war against ``e``:
    its chances as it stands (``chances``), and what it costs each quarter until it ends -- the political points of
    ``p``'s occupied capitals (12.4.1), the taxes of the lost land (a point for an occupied capital and one for every
    three home areas held by the enemy, 12.2.1), the battles lost at the rate they have been lost."""
    ws = judge.war_state(b, p, e)
    win, lose = chances(ws, j, lvl)
    value = judge.worth(b, p, e, lvl, win, lose, new=False, share=j.share, naval=j.naval, allies_in_war=j.mine)
    drift = -100 * ws.capitals_lost - 100 * (1 if ws.capitals_lost else 0) - 100 * (ws.areas_lost // 3)
    drift += 300 * ws.battles // max(3, ws.months) if ws.battles < 0 else 0
    quarters = max(1, lvl.plan_months // 3)
    return value + drift * quarters * (quarters + 1) // 2


def beaten(ws: judge.WarState) -> bool:
    """The war has gone against the power: a national capital held by the enemy (12.4.1), a net loss in the field
    battles (000:3219-3222), or ``HELD_AREAS`` more of its home areas held by the enemy than it holds of the enemy's.
    The balance of forces alone beats nobody: a war is lost in the field and on the map."""
    return ws.capitals_lost > 0 or ws.battles < 0 or ws.areas_lost - ws.areas_held >= HELD_AREAS


def overrun(b: judge.Board, ws: judge.WarState) -> bool:
    """The war is lost beyond the field: a national capital held by the enemy that its corps cannot retake
    (``can_retake``); a quarter of its home areas held by the enemy (``OVERRUN`` percent, ``HELD_AREAS`` at least, net
    of those it holds) while it has not won in the field; or ``ROUTED`` political points lost in the field (three
    battles of armies) -- these two only once its capitals are in danger or its army is spent (``holds_out``).  Only then does a power surrender (6.4.2): battles lost with
    its capitals safe and an army left, or enemy corps at home it beats, and it fights on."""
    held = ws.areas_lost - ws.areas_held
    most = max(HELD_AREAS, len(b.ctx.map.areas_of_nation(ws.power)) * OVERRUN // 100)
    if ws.capitals_lost > 0 and not can_retake(b, ws.power):
        return True
    return ((held >= most and ws.battles <= 0) or ws.battles <= -ROUTED) and not holds_out(b, ws.power)


def can_retake(b: judge.Board, p: str) -> bool:
    """Every national capital of ``p`` the enemy holds can be retaken: ``p``'s corps that can reach it within
    ``RETAKE_MONTHS`` months are at least as strong as the enemy field forces that can reach it as soon and twice what
    holds its city (an assault, 11.4).  Austria, its army of 130 factors intact, surrendered unconditionally when a
    Saxon corps of 11 walked into an empty Vienna; a human marches back and retakes it."""
    st, ctx = b.state, b.ctx
    own = assess.army_units(st, p)
    for cap in assess.capitals(ctx, p):
        if cap in _own_capitals(b, p):
            continue
        enemy = assess.enemy_in_reach(st, ctx, cap, p, RETAKE_MONTHS) + 2 * assess.forces_in(st, ctx, cap, p).enemy_city
        if assess.in_reach(st, ctx, cap, own, RETAKE_MONTHS) < enemy:
            return False
    return True


def army_left(b: judge.Board, p: str) -> bool:
    """``p`` still has an army: ``ARMY_LEFT`` factors of corps on the map."""
    return sum(c.factors.total for c in assess.army_units(b.state, p)) >= ARMY_LEFT


def _own_capitals(b: judge.Board, p: str) -> list[str]:
    st, ctx = b.state, b.ctx
    return [c for c in assess.capitals(ctx, p) if power_of(st, city_holder(st, ctx, c)) == p]


def holds_out(b: judge.Board, p: str) -> bool:
    """``p`` may fight on after battles lost or provinces overrun: it has an army left (``army_left``) and every
    national capital of its own is safe -- the enemy field forces within ``PRESS_REACH`` of it are no stronger than
    its own corps there with the city's garrison (12.4.1: the capital is what a peace is made for)."""
    st, ctx = b.state, b.ctx
    if not army_left(b, p) or len(_own_capitals(b, p)) < len(assess.capitals(ctx, p)):
        return False
    for c in assess.capitals(ctx, p):
        inside = assess.forces_in(st, ctx, c, p)
        own = assess.own_forces_near(st, ctx, c, p, PRESS_REACH) + inside.friends
        if assess.enemy_forces_near(st, ctx, c, p, PRESS_REACH) > own:
            return False
    return True


def presses(b: judge.Board, p: str, e: str, lvl: Level) -> bool:
    """``p``'s army stands within ``PRESS_REACH`` of a national capital of ``e`` still in its side's hands, with an army
    (``ARMY_LEFT`` factors) at the level's ``attack_odds`` against the enemy field forces near it and what stands in
    its city, and the war is younger than ``WINNER_MONTHS`` times the level's ``weary_months``: it presses on to take
    the capital (12.4.1) rather than make peace now (6.4.2: unconditional terms, which the loser may refuse)."""
    st, ctx = b.state, b.ctx
    if e not in st.powers[p].wars or judge.war_state(b, p, e).months >= WINNER_MONTHS * lvl.weary_months:
        return False
    side = {e} | {a for a in b.allies(e) if p in st.powers[a].wars}
    near_all = {c: assess.distances_from(ctx, c) for c in assess.capitals(ctx, e)}
    for c, near in near_all.items():
        if power_of(st, city_holder(st, ctx, c)) not in side:
            continue
        mine = [u for u in assess.army_units(st, p) if near.get(u.location.site, PRESS_REACH + 1) <= PRESS_REACH]
        if sum(u.factors.total for u in mine) < ARMY_LEFT:
            continue
        strength = sum(assess.factor_strength(st, ctx, u) for u in mine)
        theirs = assess.enemy_forces_near(st, ctx, c, p, PRESS_REACH) + assess.forces_in(st, ctx, c, p).enemy_city
        if strength * 100 >= max(1, theirs) * lvl.attack_odds:
            return True
    return False


def winning(ws: judge.WarState) -> bool:
    """The war goes the power's way: it holds an enemy capital, has won in the field (net), or holds ``HELD_AREAS``
    more of the enemy's home areas than it has lost, and has not lost a capital of its own."""
    return not ws.capitals_lost and (ws.capitals_held > 0 or ws.battles > 0 or ws.areas_held - ws.areas_lost >= HELD_AREAS)


def _peace(b: judge.Board, p: str, lvl: Level, judged: tuple[judge.Judgement, ...]
           ) -> tuple[tuple[tuple[str, bool], ...], tuple[str, ...], tuple[str, ...]]:
    """(suits, informal offers, informal peace accepted) of ``p`` this month (see the module's notes)."""
    st = b.state
    ps = st.powers[p]
    if ps.must_sue_for_peace:
        return (), (), ()  # 6.4.3: the rules make the suit of a power in civil disorder themselves
    quarters = max(1, lvl.plan_months // 3)
    sue: dict[str, bool] = {}
    informal: list[str] = []
    accept: list[str] = []
    for j in judged:
        e = j.enemy
        if e not in ps.wars:
            continue  # declared this month
        value = going_on(b, p, e, lvl, j)
        ws = judge.war_state(b, p, e)
        lost = beaten(ws)
        weary = ws.months >= lvl.weary_months
        stays = stands_by(b, p, e)
        if _accepts(ws, lvl, value) and not storming(b, p, e) and not presses(b, p, e, lvl) and not stays:
            accept.append(e)
        cost = surrender_cost(b, p, e)
        conditional = -cost * quarters
        unconditional = -(cost + UNCONDITIONAL) * quarters
        if not lost and not weary:
            continue  # nothing decided yet: the armies have not met (a peace now would end the war unfought)
        human = st.powers[e].controller is PlayerKind.HUMAN
        if value < conditional and overrun(b, ws) and not _would_accept_informal(b, e, p):
            # losing on terms it foresees (``surrender_cost``); unconditional terms only once a capital is lost or its
            # army is spent (a victor pressing on its capital offers no others: it fights on, ``presses``)
            sue[e] = value < unconditional and (ws.capitals_lost > 0 or not army_left(b, p))
        elif value <= 0 and not stays and (_would_accept_informal(b, e, p) or (human and weary)):
            informal.append(e)  # a war worth nothing more to it, which the enemy would end too
    sue = suits_allowed(st, b.ctx, p, sue)
    informal = [e for e in informal if e not in sue]
    return tuple((e, sue[e]) for e in judge.in_order(tuple(sue))), tuple(informal), tuple(accept)


def suits_allowed(st: Any, ctx: Any, p: str, sue: dict[str, bool]) -> dict[str, bool]:
    """The suits of ``sue`` (enemy: unconditional terms accepted) that ``p`` makes under 6.4.2: suing an enemy with no
    forces inside its home nation means suing every enemy at once, which it does only when every war is lost; a war
    it would end by an informal peace is ended so first (suing there would hand a beaten enemy a surrender: Austria
    surrendered to the Turkey whose capital it besieged, to be allowed to sue France), and the suits of the month are
    those to victors inside."""
    if not sue or not peace_rules.suit_obligations(st, ctx, p, [SueForPeace(t) for t in sue]):
        return sue
    wars = st.powers[p].wars
    if all(e in sue for e in wars):
        return {e: sue[e] for e in judge.in_order(tuple(wars))}
    inside = {e: a for e, a in sue.items() if peace_rules.victor_forces_inside(st, ctx, e, p)}
    return {} if peace_rules.suit_obligations(st, ctx, p, [SueForPeace(t) for t in inside]) else inside


def stands_by(b: judge.Board, p: str, e: str) -> bool:
    """``p`` is Great Britain, the coalition's paymaster, and an ally of it still fights ``e`` with its capitals its
    own (not ``overrun``): Britain makes no informal peace with ``e`` then (6.4.1), which would leave the ally alone
    against ``e`` and let it demand the alliance be broken (-2, 6.4 "Separate Peace and Allies"); its own surrender,
    when its war is lost, is another matter (``sue``)."""
    if p != "GB":
        return False
    st = b.state
    return any(e in st.powers[a].wars and not overrun(b, judge.war_state(b, a, e)) for a in b.allies(p))


def _would_accept_informal(b: judge.Board, e: str, p: str) -> bool:
    """``e``, a computer, would accept ``p``'s informal peace this month (its own ``accept_informal``, 6.4.1)."""
    lvl = b.level(e)
    if lvl is None or p not in b.state.powers[e].wars or stands_by(b, e, p):
        return False
    ws = judge.war_state(b, e, p)
    return not storming(b, e, p) and not presses(b, e, p, lvl) and _accepts(ws, lvl, None) and _accepts(ws, lvl, going_on(b, e, p, lvl, judge.judge_war(b, e, p, lvl)))


def storming(b: judge.Board, p: str, e: str) -> bool:
    """``p``'s corps besiege one of ``e``'s national capitals (11.4): while the siege goes on, ``p`` does
    not accept an informal peace with ``e`` (6.4.1: an informal peace needs both; the capital is worth more, 12.4.1,
    and the siege ends with the war)."""
    st, ctx = b.state, b.ctx
    caps = set(ctx.map.national_capitals(e))
    return any(c.besieging and c.location.site in caps for c in assess.army_units(st, p))


def _accepts(ws: judge.WarState, lvl: Level, value: int | None) -> bool:
    """An informal peace is accepted when going on is worth nothing more (``value``, None: not yet reckoned) -- but
    by the winner only once it has gone on ``WINNER_MONTHS`` times the level's ``weary_months``: it goes on while its
    aims are within reach, and the loser sues for terms."""
    if winning(ws) and ws.months < WINNER_MONTHS * lvl.weary_months:
        return False
    return value is None or value <= 0


# ----------------------------------------------------------------- aims


def _aims(b: judge.Board, p: str, enemies: tuple[str, ...], lvl: Level) -> tuple[Aim, ...]:
    """Areas worth taking from ``enemies`` and the neutral minors ``p`` is at war with, best first."""
    st, ctx = b.state, b.ctx
    m = ctx.map
    quarters = max(1, lvl.plan_months // 3)
    home = assess.capitals(ctx, p)
    found: dict[str, tuple[int, str]] = {}

    def add(area: str, enemy: str, value: int) -> None:
        if value > found.get(area, (0, ""))[0]:
            found[area] = (value, enemy)

    sides = {e: {e} | {a for a in b.allies(e) if p in st.powers[a].wars} for e in enemies}
    for e in enemies:
        side = sides[e]
        surrender = (judge.ACCEPT + judge.MARRIAGE) // 100
        for c in m.national_capitals(e):
            if power_of(st, city_holder(st, ctx, c)) in side:
                add(c, e, surrender + -int(CAPITAL_LOSS.get(c) or -1) * quarters)
        for prov in m.provinces_of(e):
            cap = m.capital_of(prov)
            if cap in m.national_capitals(e) or power_of(st, city_holder(st, ctx, cap)) not in side:
                continue
            tax = m.province(prov).tax
            add(cap, e, 1 + tax // 3 + (2 if not cession_refused(st, ctx, p, e, prov) else 0))
        for slug, mn in sorted(st.minors.items()):
            if mn.part_of is not None or mn.controller not in side or mn.status is MinorStatus.NEUTRAL:
                continue
            districts = 1 + len(mn.districts)
            for a in minor_capitals(ctx, slug, mn):
                # 13.3.1: a minor is conquered by a month's occupation of its capital, a corps in its area: the
                # capital taken stays an aim until the minor is ``p``'s
                if power_of(st, city_holder(st, ctx, a)) in side | {p}:
                    add(a, e, 2 * districts)
        for c in assess.capitals(ctx, p):  # its own capitals and cities in the enemy's hands
            if power_of(st, city_holder(st, ctx, c)) in side:
                add(c, e, surrender + -int(CAPITAL_LOSS.get(c) or -1) * quarters)
        for prov in m.provinces_of(p):
            cap = m.capital_of(prov)
            if power_of(st, city_holder(st, ctx, cap)) in side:
                add(cap, e, 2 + m.province(prov).tax // 3)
    for slug in sorted(st.powers[p].minor_wars):
        mn = st.minors.get(slug)
        if mn is None:
            continue
        for a in minor_capitals(ctx, slug, mn):
            if city_holder(st, ctx, a) in (slug,) + tuple(mn.districts):
                add(a, slug, 1 + len(mn.districts))
    far = 10 ** 6

    def dist(a: str) -> int:
        return min((assess.distance(ctx, h, a) or far for h in home), default=far)

    ranked = sorted(found, key=lambda a: (-found[a][0], dist(a), a))
    return tuple(Aim(found[a][1], a, found[a][0]) for a in ranked[:AIMS])


def minor_capitals(ctx: Any, slug: str, mn: Any) -> tuple[str, ...]:
    """The capitals of the provinces of minor ``slug`` and its districts (13.3.1: a month's occupation of one conquers
    the minor)."""
    m = ctx.map
    out = []
    for nation in (slug,) + tuple(mn.districts):
        for prov in m.provinces_of(nation):
            out.append(m.capital_of(prov))
    return tuple(sorted(set(out)))


def _main_enemy(b: judge.Board, p: str, enemies: tuple[str, ...], aims: tuple[Aim, ...],
                judged: tuple[judge.Judgement, ...]) -> str | None:
    """The enemy that holds the most of ``p``'s land, else the one whose aims are worth most to it (a war on land
    before a war at sea)."""
    if not enemies:
        return None
    held = {e: judge.war_state(b, p, e) for e in enemies if e in b.state.powers[p].wars}
    worst = max(enemies, key=lambda e: ((held[e].capitals_lost, held[e].areas_lost) if e in held else (0, 0),
                                        -POWERS.index(e)))
    if worst in held and (held[worst].capitals_lost or held[worst].areas_lost):
        return worst
    chances = {j.enemy: j.win for j in judged}

    def value(e: str) -> tuple[int, int, int]:
        top = sorted((a.worth for a in aims if a.enemy == e), reverse=True)[:3]
        on_land = 0 if "GB" in (p, e) else 1
        return (on_land, sum(top) * (chances.get(e, 0) + 1), -POWERS.index(e))

    return max(enemies, key=value)


__all__ = ["Aim", "RESERVE", "WarPlan", "going_on", "suits_allowed", "surrender_cost", "threat", "victor_terms", "war_plan"]
