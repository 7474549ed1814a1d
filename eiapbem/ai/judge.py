"""How the computer judges a war: the board of forces, the sides of a war and what a war is worth (issue 28 item 1).

The strategic layer (``eiapbem.ai.strategy``) asks these questions of the state, answered here with whole numbers
only (no float), the same at every client (docs/decisions.md "War and peace" gives every number's reason):

- **the board** (``board``): each power's land might (``assess.power_strength``: army factors times morale, its own
  and its minors'), its warships (``sea_power``), wars, alliances and level, read once per state;
- **distances** (``gaps``, static per map): movement points between home nations over the ways an army may take
  (neutral minors, 6.1.1; an ally's access or an enemy's land, 13.4); ``prox`` turns them into the share of an army
  brought to a front, ``in_reach`` into the wars it may wage; ``menace`` and ``rival``: who threatens a power most;
  ``partners``: two powers facing the same rival (no war between them: the balance of power);
- **the sides of a war** (``sides``, ``strength``): each power with its allies at war with the other, and for a new
  war the defender's allies (6.3.2); a power's army shared among its fronts (``brought``), a defender keeping
  ``HOME`` percent at home, Britain's counting as an island's (``ISLAND``).  What a level sees is its ``judgment``:
  ``own`` (the two powers' whole armies, no distance, no delay), ``allies`` (the above) or ``coalition`` (also a
  second front, ``second_front``, ``WATCH``, and the powers already at war with the enemy, allied or not: a
  coalition may be joined, the balance of power);
- **what a war is worth** (``judge_war``, ``worth``): the chances that the enemy sues and that the power must sue
  (``WIN`` by the ratio of the sides; a war with Britain is won at sea too; a new war's moved by the field
  battles of the last ``MEMORY`` months between the two, ``recent_battles``), and what each outcome does to its
  political status (6.2.1: -3 to declare; 6.4.2: +3 for a conditional surrender accepted, +2 for a royal marriage
  B.4, ``SPOILS``, -5 for surrendering; ``BATTLES`` and ``NAVAL`` for the battles, 000:3215-3222), held over the
  level's horizon (``Level.plan_months``) in point-quarters (12.1: each economic phase's victory points follow the
  political status), the outcome arriving once the armies have marched and besieged (``months_to_decide``); what
  the leader of the race loses (or wins with one's help), for its rivals (``race_leader``, ``CONTAIN``, 12.1.3); and
  the natural alliance table's stance (15.0, ``HOSTILE``) as a standing aim;
- **the month's declarations** (``declarations``) of every computer, computed alike by each of them (the orders are
  simultaneous, 6.0): coalitions of allies first, then each power's best single war, joining its allies'; a human's
  declaration cannot be foreseen and is not assumed;
- **how a war stands** (``war_state``): capitals and home areas held by each side (12.4.1, 12.2.1) and the political
  points of the field battles fought in it (the battles the state keeps), for the peace decision.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from typing import Any

import eiapbem.ai.assess as assess
from eiapbem.ai.levels import Level, level
from eiapbem.core.errors import IllegalAction
from eiapbem.rules import mapgraph
from eiapbem.rules.control import area_holder, city_holder, is_besieged
from eiapbem.rules.diplomacy import war
from eiapbem.rules.economy.manipulation import CAPITAL_LOSS
from eiapbem.rules.model import POWERS, Fleet, GameState, LocationKind, Phase, PlayerKind
from eiapbem.rules.politics import status_box
from eiapbem.rules.relations import power_of
from eiapbem.rules.tables.diplomacy import NATURAL_ALLIANCE, POLITICAL_POINTS

AT_SEA = (LocationKind.SEA, LocationKind.PORT, LocationKind.BLOCKADE)

# ----------------------------------------------------------------- the project's numbers (docs/decisions.md)

#: Share (percent) of its land army a power brings against an enemy whose home nation is this many movement points
#: from its capitals (a 3-point corps covers about 3 a month); beyond the last, ``FAR``.
PROXIMITY = ((9, 100), (13, 75), (17, 50))
FAR = 30
#: A land war farther than this (movement points between the home nations) is out of reach (Great Britain: by sea).
REACH = 17
#: Great Britain's army, an island's, counts for this percentage on land (and an enemy's front against it as much).
ISLAND = 50
#: Percent of its army a power defends its home nation with at least, whatever its other fronts.
HOME = 50
#: The hard level's second front: the strongest hostile power left out of a war weighs this percentage of a front.
WATCH = 35
#: Percent chance that the enemy side gives in (sues) within a war, by the ratio of the sides (percent).
WIN = ((40, 1), (60, 4), (80, 10), (100, 20), (125, 35), (150, 50), (200, 68), (300, 82), (500, 92))
#: Political points (hundredths) of a war's events, from the POLITICAL POINT CHART (000:3198-3235).
_PP = POLITICAL_POINTS
DECLARE = -100 * int(_PP["declare-war-major"].points or 0)
ROYAL = -100 * int(_PP["royal-marriage-war"].points or 0)
ACCEPT = 100 * int(_PP["accept-conditional"].points or 0)
MARRIAGE = 100 * int(_PP["royal-marriage"].points or 0)
SURRENDER = -100 * int(_PP["surrender-conditional"].points or 0)
#: 6.4.1: an informal peace binds nothing, but a computer declares no war on a power it made one with within this
#: many months (``PowerState.informal_peace``, ``lately_at_peace``): a peace undone a month later gains nothing.
INFORMAL_RESPITE = 6
#: Months of a war with no field battle between the two before its months count as fought (``war_state``): a war
#: wearies once the armies have met, or after this long when they never do.
UNFOUGHT = 8
#: What else a victor takes (hundredths of political points, held over a horizon): a province ceded (B.6) or half a
#: year's taxes in reparations (B.3), which buy factors, and the loser's minors conquered on the way (+1 a district,
#: 000:3224).
SPOILS = 300
#: Political points (hundredths) the battles of a war bring to the side that wins them all (a field battle is 1/2
#: per corps of the loser, at most 3, 000:3219-3220; two or three battles of armies a war), by the chances.
BATTLES = 600
#: Political points (hundredths) of the naval battles of a war at sea to the side whose fleets are the stronger
#: (+1 per enemy fleet beaten, at most 3, and Nelson's +1, 000:3215-3217; two or three battles a war).
NAVAL = 400
#: Political points (hundredths) a minor district conquered brings (+1, 000:3224; its corps beaten, +1/2 each,
#: 000:3219-3220; its taxes and manpower, 12.2-12.5, for the rest of the horizon), in a far war fought for them.
MINOR_SPOILS = 200
#: Warships of a navy whose defeat brings ``NAVAL`` in full (the fewer, the fewer fleets to beat).
NAVY = 60
#: Percent of the leader's expected loss its enemies count as their own gain (12.1.3: victory is a race; Great
#: Britain wins when nobody reaches its level, so it counts it whole).
CONTAIN = 50
CONTAIN_GB = 100
#: Months of siege before a capital falls (11.4), after the march.
SIEGE_MONTHS = 2
#: Political points (hundredths, each quarter of the horizon) per point of the natural alliance table's hostility
#: (15.0): the standing aims of the powers (Great Britain against France is -10).
HOSTILE = 20
#: Each net political point of the field battles between two powers moves the chances of their war this many
#: percent: the battles of the war being fought (``ai.strategy.chances``), and for a new war those of the last
#: ``MEMORY`` months (the battles the state keeps): a power beaten in the field does not declare the same war again
#: as if nothing had happened (each declaration is -3, 6.2.1).
MOMENTUM = 5
MEMORY = 12
#: A coalition of allies declares together when it gains as a whole and none of its members loses more than this
#: fraction (1/STAND_BY) of a declaration's cost over its horizon: allies stand by each other (a far ally that gains
#: little makes the war worth it for those next to the enemy).
STAND_BY = 4


def _table(points: tuple[tuple[int, int], ...], x: int) -> int:
    """Linear interpolation in a table of (x, y) whole numbers, flat beyond its ends."""
    if x <= points[0][0]:
        return points[0][1]
    for (x0, y0), (x1, y1) in zip(points, points[1:]):
        if x <= x1:
            return y0 + (y1 - y0) * (x - x0) // (x1 - x0)
    return points[-1][1]


def chance(r: int) -> int:
    """Percent chance that a side ``r`` percent as strong as the other makes it sue (``WIN``)."""
    return _table(WIN, r)


def shifted(win: int, lose: int, shift: int) -> tuple[int, int]:
    """(win %, lose %) moved by ``shift`` percent toward the winner, within 0-100 and summing to 100 at most."""
    win, lose = max(0, min(100, win + shift)), max(0, min(100, lose - shift))
    if win + lose > 100:
        win, lose = win * 100 // (win + lose), lose * 100 // (win + lose)
    return win, lose


def ratio(mine: int, theirs: int) -> int:
    """``mine`` as a whole percentage of ``theirs`` (1000 when they have nothing)."""
    return 1000 if theirs <= 0 else min(1000, mine * 100 // theirs)


def hostility(a: str, b: str) -> int:
    """How inclined ``a`` is to fight ``b``: minus the natural alliance table's value of ``a`` toward ``b`` (15.0)."""
    return -NATURAL_ALLIANCE[a][b]


# ----------------------------------------------------------------- distances (static, per map)


_COSTS: "weakref.WeakKeyDictionary[Any, dict[tuple[str, tuple[str, ...] | None], dict[str, int]]]" = \
    weakref.WeakKeyDictionary()
_GAPS: "weakref.WeakKeyDictionary[Any, dict[tuple[str, str, tuple[str, ...] | None], tuple[int, int]]]" = \
    weakref.WeakKeyDictionary()
NO_PATH = 99


def costs_from(ctx: Any, a: str, through: tuple[str, ...] | None = ()) -> dict[str, int]:
    """The least movement points from ``a``'s national capitals to every area (10.4.1 costs, crossing arrows
    included) through ``a``'s home nation, the minor countries and the majors ``through`` (an ally's access, an
    enemy's land, 13.4); ``through=None``: through any land."""
    m = ctx.map
    per = _COSTS.setdefault(m, {})
    got = per.get((a, through))
    if got is None:
        open_ = None if through is None else {a, *through}

        def passable(area: str) -> bool:
            owner = m.area(area).nation
            return open_ is None or owner in open_ or owner not in POWERS

        got = {}
        for c in m.national_capitals(a):
            for k, v in mapgraph.movement_costs(m, c, can_enter=passable).items():
                got[k] = min(v, got.get(k, v))
        per[(a, through)] = got
    return got


def gaps(ctx: Any, a: str, b: str, through: tuple[str, ...] | None = ()) -> tuple[int, int]:
    """(to the nation, to a capital): the least movement points from ``a``'s national capitals to ``b``'s home
    nation and to ``b``'s nearest national capital (``costs_from``; ``NO_PATH`` if none), through the two home
    nations, the minor countries and the majors ``through``; ``through=None``: through any land (where a threat
    could come from in time)."""
    m = ctx.map
    per = _GAPS.setdefault(m, {})
    key = (a, b, through)
    got = per.get(key)
    if got is None:
        costs = costs_from(ctx, a, None if through is None else (b, *through))
        to_nation = min([NO_PATH] + [costs[k] for k in m.areas_of_nation(b) if k in costs])
        to_capital = min([NO_PATH] + [costs[k] for k in m.national_capitals(b) if k in costs])
        got = (to_nation, to_capital)
        per[key] = got
    return got


def passage(b: "Board", a: str) -> tuple[str, ...]:
    """The majors whose home nations ``a``'s armies may cross: allies granting it access and enemies (13.4)."""
    st = b.state
    return tuple(x for x in POWERS if x != a and (x in st.powers[a].wars or a in st.powers[x].access))


def _proximity(d: int) -> int:
    return next((p for most, p in PROXIMITY if d <= most), FAR)


def prox(b: "Board", a: str, q: str) -> int:
    """Percent of ``a``'s army it can bring against ``q`` at their distance (``PROXIMITY``) by the ways open to it."""
    return _proximity(gaps(b.ctx, a, q, passage(b, a))[0])


def looming(b: "Board", a: str, q: str) -> int:
    """``prox`` of a threat: the way ``a`` could come at ``q`` through any land, in time (``gaps`` through all)."""
    return _proximity(gaps(b.ctx, a, q, None)[0])


def in_reach(b: "Board", a: str, q: str) -> bool:
    """``a`` can wage war on ``q``: by sea (one of them Great Britain) or by land within ``REACH``."""
    return "GB" in (a, q) or gaps(b.ctx, a, q, passage(b, a))[0] <= REACH


def worth_waging(b: "Board", a: str, q: str, lvl: Level) -> bool:
    """``a`` may find a war on ``q`` worth waging: within reach (``in_reach``), or for ``q``'s minors near it
    (``far_minors``)."""
    return in_reach(b, a, q) or bool(far_minors(b, a, q, lvl))


def months_to_decide(b: "Board", a: str, q: str) -> int:
    """Months before a war of ``a`` on ``q`` can be decided: a month to gather, the march to the capital (a corps
    covers about 3 movement points a month), then the siege (``SIEGE_MONTHS``); Great Britain's by sea."""
    d = 6 if "GB" in (a, q) else gaps(b.ctx, a, q, passage(b, a))[1]
    return 1 + -(-min(d, 30) // 3) + SIEGE_MONTHS


def land_war(b: "Board", p: str, q: str) -> bool:
    """``p`` and ``q`` fight on land: neither is Great Britain and ``q``'s home nation lies within ``REACH`` of
    ``p``'s capitals by the ways open to ``p``."""
    return "GB" not in (p, q) and gaps(b.ctx, p, q, passage(b, p))[0] <= REACH


def far_minors(b: "Board", p: str, q: str, lvl: Level) -> tuple[tuple[str, int], ...]:
    """(minor, movement points) of the minors that fight for ``q`` in a war with ``p`` -- its allied minors (6.1.3:
    they go to war with an aggressor) and those it controls (6.2: a war on a power is a war on its minors) -- which
    lie within ``lvl.horizon`` movement points of ``p``'s capitals by the ways open to ``p`` (a crossing arrow
    included) and whose forces ``p``'s own outnumber by ``lvl.minor_war_ratio`` (``assess.minor_might``), when
    ``q`` itself lies beyond ``p``'s reach by land, ``p`` fights no land war, and ``q`` is at war with ``p`` or one of
    its allies: what joining its allies' far war wins where its army stands idle (Spain's on Turkey: Morocco and
    Algeria across the straits)."""
    if not lvl.minor_war_ratio or "GB" in (p, q) or land_war(b, p, q) \
            or any(land_war(b, p, e) for e in b.wars(p) if e != q) \
            or not (q in b.wars(p) or any(q in b.state.powers[a].wars for a in b.allies(p))):
        return ()
    key = ("far-minors", p, q, lvl.horizon, lvl.minor_war_ratio)
    got = b._memo.get(key)
    if got is None:
        st, m = b.state, b.ctx.map
        costs = costs_from(b.ctx, p, passage(b, p))
        out = []
        for slug, mn in sorted(st.minors.items()):
            if mn.part_of is not None or mn.controller != q or power_of(st, slug) != q:
                continue
            d = min([NO_PATH] + [costs[a] for n in (slug, *mn.districts) for a in m.areas_of_nation(n) if a in costs])
            if d <= lvl.horizon and ratio(b.land[p], assess.minor_might(st, b.ctx, slug)) >= lvl.minor_war_ratio:
                out.append((slug, d))
        got = tuple(out)
        b._memo[key] = got
    return tuple(got)


def minor_spoils(b: "Board", p: str, q: str, lvl: Level) -> int:
    """Political points held over ``lvl.plan_months`` (point-quarters, hundredths) of ``far_minors``: each district
    conquered (``MINOR_SPOILS``), from the month the army can take it (a month to gather, the march, a siege)."""
    h = lvl.plan_months
    total = 0
    for slug, d in far_minors(b, p, q, lvl):
        t = min(h, 1 + -(-d // 3) + SIEGE_MONTHS)
        total += MINOR_SPOILS * (1 + len(b.state.minors[slug].districts)) * (h - t) // 3
    return total


# ----------------------------------------------------------------- the board


@dataclass(frozen=True)
class Board:
    """What the plan reads of one state: every power's land might, warships, wars, allies and level."""

    state: GameState
    ctx: Any
    land: dict[str, int]
    sea: dict[str, int]
    _memo: dict = field(default_factory=dict, compare=False, repr=False)

    def wars(self, p: str) -> tuple[str, ...]:
        return tuple(q for q in POWERS if q in self.state.powers[p].wars)

    def allies(self, p: str) -> tuple[str, ...]:
        return tuple(q for q in POWERS if q in self.state.powers[p].alliances)

    def level(self, p: str) -> Level | None:
        kind = self.state.powers[p].controller
        return None if kind is PlayerKind.HUMAN else level(kind)

    def status(self, p: str) -> int:
        return self.state.powers[p].political_status

    def may_declare(self, p: str, q: str) -> bool:
        """6.2.2 allows ``p`` to declare war on ``q`` now (the rules' own ``war.check_declaration``)."""
        key = ("declare", p, q)
        got = self._memo.get(key)
        if got is None:
            try:
                war.check_declaration(self.state, self.ctx, p, q, ())
                got = True
            except IllegalAction:
                got = False
            self._memo[key] = got
        return bool(got)


def sea_power(state: GameState, power: str) -> int:
    """Warships (heavy and light) of ``power``'s fleets (its own and its minors') at sea or in port."""
    return sum(u.ships.heavy + u.ships.light for u in state.units.values()
               if isinstance(u, Fleet) and u.location.kind in AT_SEA and power_of(state, u.nation) == power)


_BOARDS: dict[tuple[int, int], tuple[GameState, Board]] = {}
_KEEP = 8


def board(state: GameState, ctx: Any) -> Board:
    """The ``Board`` of ``state`` (kept for the last few states: every slot of a power may ask again)."""
    key = (id(state), id(ctx.map))
    hit = _BOARDS.get(key)
    if hit is not None and hit[0] is state:
        return hit[1]
    land = {p: assess.power_strength(state, ctx, p) for p in POWERS}
    b = Board(state, ctx, land, {p: sea_power(state, p) for p in POWERS})
    while len(_BOARDS) >= _KEEP:
        del _BOARDS[next(iter(_BOARDS))]
    _BOARDS[key] = (state, b)
    return b


def before_declarations(b: Board) -> Board:
    """The board of ``b``'s state judged as before the month's declarations (no one's are among the fronts)."""
    out = Board(b.state, b.ctx, b.land, b.sea)
    out._memo["pending"] = {}
    out._memo["declarations"] = {}
    return out


def natural_friends(state: GameState, p: str, q: str) -> bool:
    """``p`` and ``q`` are natural friends (table value +1 or more either way, 15.0) and ``q`` is at war with none of
    ``p``'s allies: the computer declares no war on such a power."""
    if NATURAL_ALLIANCE[p][q] < 1 and NATURAL_ALLIANCE[q][p] < 1:
        return False
    return not any(a in state.powers[q].wars for a in state.powers[p].alliances)


def menace(b: Board, q: str, p: str) -> int:
    """How much ``q`` threatens ``p``: its might at the distance it could come from (through any land, in time:
    ``looming``), weighed by the hostility of either toward the other (15.0); Britain's by its island's share."""
    w = b.land[q] * looming(b, q, p) // 100 * (100 + 10 * max(0, hostility(q, p), hostility(p, q))) // 100
    return w * ISLAND // 100 if "GB" in (p, q) else w


def rival(b: Board, p: str) -> str | None:
    """``p``'s rival, the strongest threat to it whatever its wars: the power that menaces it most (``menace``) among
    those that are not its allies nor its natural friends."""
    key = ("rival", p)
    if key not in b._memo:
        cands = [q for q in POWERS if q != p and q not in b.state.powers[p].alliances
                 and not natural_friends(b.state, p, q)]
        b._memo[key] = max(cands, key=lambda q: (menace(b, q, p), -POWERS.index(q))) if cands else None
    got = b._memo[key]
    return None if got is None else str(got)


def partners(b: Board, p: str, q: str) -> bool:
    """``p`` and ``q`` stand against the same rival (the balance of power): ``p`` declares no war on ``q``, whose
    defeat would only serve the rival, unless ``q`` is at war with one of ``p``'s allies."""
    r = rival(b, p)
    return (r is not None and r != q and rival(b, q) == r
            and not any(a in b.state.powers[q].wars for a in b.allies(p)))


# ----------------------------------------------------------------- the sides of a war


def _weight(b: Board, x: str, e: str, watch: bool = False) -> int:
    """How much of ``x``'s army its front against ``e`` calls for: ``e``'s might at their distance; for a power
    only watched (``WATCH``), what it could bring against ``x`` besides its own wars."""
    if watch:
        return max(1, brought(b, e, (e,), (x,)) * WATCH // 100)
    w = b.land[e] * prox(b, x, e) // 100
    if "GB" in (x, e):
        w = w * ISLAND // 100
    return max(1, w)


def fronts(b: Board, x: str) -> tuple[str, ...]:
    """The powers ``x`` fights or will fight this month: its wars and the month's declarations of the computers
    between it and another (``declarations``; while they are being made, those made so far)."""
    pending = b._memo.get("pending")
    if pending is None:
        pending = declarations(b)
    return tuple(e for e in POWERS if e in b.state.powers[x].wars or pending.get(x) == e or pending.get(e) == x)


def brought(b: Board, x: str, side: tuple[str, ...], other: tuple[str, ...], watch: str | None = None) -> int:
    """``x``'s land might brought against ``other``: its army shared among its fronts (its wars, this month's, and
    ``other``, and the watched power) by each enemy's weight, then reduced by the distance to the nearest of
    ``other``."""
    fr = fronts(b, x)
    fronts_ = [e for e in POWERS if e != x and e not in side and (e in fr or e in other)]
    total = sum(_weight(b, x, e) for e in fronts_) + (_weight(b, x, watch, True) if watch else 0)
    part = sum(_weight(b, x, e) for e in other)
    got = b.land[x] * part // total if total else b.land[x]
    near = max((prox(b, x, y) for y in other), default=FAR)
    if x == "GB":
        near = near * ISLAND // 100
    return got * near // 100


def strength(b: Board, side: tuple[str, ...], other: tuple[str, ...], *, home: str | None = None,
             watch: dict[str, str] | None = None) -> int:
    """What ``side`` brings against ``other``; ``home`` fights at home, at full strength whatever the distance, and
    with ``HOME`` percent of its army at least, whatever its other fronts (its armies come back to defend it)."""
    total = 0
    for x in side:
        w = (watch or {}).get(x)
        if x == home:
            fr = fronts(b, x)
            fronts_ = [e for e in POWERS if e != x and e not in side and (e in fr or e in other)]
            t = sum(_weight(b, x, e) for e in fronts_) + (_weight(b, x, w, True) if w else 0)
            part = sum(_weight(b, x, e) for e in other)
            total += max(b.land[x] * HOME // 100, b.land[x] * part // t if t else b.land[x])
        else:
            total += brought(b, x, side, other, w)
    return total


def in_order(ps: set[str] | list[str] | tuple[str, ...]) -> tuple[str, ...]:
    """The powers ``ps`` in the powers' fixed order (never a set's order)."""
    return tuple(p for p in POWERS if p in ps)


def sides(b: Board, p: str, q: str, lvl: Level, joining: tuple[str, ...] = ()) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The two sides of a war of ``p`` (with ``joining``, declaring on ``q`` the same month) on ``q``, as the level
    sees them (``Level.judgment``): each power with its allies at war with the other; for a new war the defender's
    allies too, whom it calls (6.3.2: the defender calls first; an aggressor's allies join only if the defender
    calls, and only those that gain by it are called: ``ai.diplomacy``).  The other enemies of each side are its
    fronts (``brought``)."""
    if lvl.judgment == "own":
        return (p,), (q,)
    st = b.state
    mine = {p, *joining} | {a for a in b.allies(p) if q in st.powers[a].wars}
    theirs = {q} | {a for a in b.allies(q) if p in st.powers[a].wars}
    if q not in st.powers[p].wars:
        theirs |= {a for a in b.allies(q) if a not in mine and a not in st.powers[p].alliances}
    if lvl.judgment == "coalition":
        # the balance of power (1806): the powers already at war with ``q`` fight it whether allied with ``p`` or
        # not, so a coalition may be joined against the strongest; not those at war with ``p`` or ``q``'s side
        mine |= {x for x in b.wars(q) if x not in theirs and x not in st.powers[p].wars and not
                 any(y in st.powers[x].wars for y in mine)}
    return in_order(mine), in_order(theirs)


def second_front(b: Board, p: str, mine: tuple[str, ...], theirs: tuple[str, ...]) -> str | None:
    """The strongest power left out of a war that could attack ``p`` while its army is away: within reach, not
    allied with it, not a natural friend, not bound by an enforced peace toward it, and not at war with it."""
    best: tuple[int, str] | None = None
    for t in POWERS:
        if t in mine or t in theirs or t in b.state.powers[p].alliances or not in_reach(b, t, p):
            continue
        if natural_friends(b.state, p, t) or t in b.state.powers[p].enforced_peace:
            continue
        w = _weight(b, p, t)
        if best is None or w > best[0]:
            best = (w, t)
    return None if best is None else best[1]


def sea_ratio(b: Board, mine: tuple[str, ...], theirs: tuple[str, ...]) -> int:
    return ratio(sum(b.sea[x] for x in mine), sum(b.sea[x] for x in theirs))


# ----------------------------------------------------------------- what a war is worth


@dataclass(frozen=True)
class Judgement:
    """A war of ``power`` on ``enemy`` as its level judges it."""

    power: str
    enemy: str
    mine: tuple[str, ...]
    theirs: tuple[str, ...]
    #: ``mine``'s strength as a percentage of ``theirs``' (land; the chances also weigh the sea with Britain).
    ratio: int
    #: Percent chances that the enemy sues and that ``power`` must sue.
    win: int
    lose: int
    #: ``power``'s part (percent) of what its side brings: the battles' points are shared by it, and a surrender's
    #: go to those whose forces fight (6.4.2: a loser sues a victor with forces inside it, or every enemy at once).
    share: int
    #: Political points (hundredths) ``power`` may expect from the naval battles of a war with Great Britain on one
    #: side (000:3215-3218), by the warships of the two sides.
    naval: int
    #: Political points held over the level's horizon (point-quarters, hundredths) the war brings, its declaration
    #: included when new (``worth``).
    worth: int


def outlook(b: Board, p: str, q: str, lvl: Level, mine: tuple[str, ...], theirs: tuple[str, ...]
            ) -> tuple[int, int, int, int, int]:
    """(ratio, win %, lose %, share %, naval points) of ``p``'s side ``mine`` against ``q``'s side ``theirs``."""
    watch = {}
    if lvl.judgment == "coalition":
        t = second_front(b, p, mine, theirs)
        if t is not None:
            watch[p] = t
    own = lvl.judgment == "own"
    a = sum(b.land[x] for x in mine) if own else strength(b, mine, theirs, watch=watch)
    d = sum(b.land[x] for x in theirs) if own else strength(b, theirs, mine, home=q)
    r = ratio(a, d)
    win, lose = chance(r), chance(ratio(d, a))
    naval = 0
    if "GB" in mine or "GB" in theirs:
        sr = sea_ratio(b, mine, theirs)
        ships = min(sum(b.sea[x] for x in mine), sum(b.sea[x] for x in theirs))  # only so many fleets to beat
        naval = (chance(sr) - chance(ratio(sum(b.sea[x] for x in theirs), sum(b.sea[x] for x in mine)))) * NAVAL \
            * min(NAVY, ships) // NAVY // 100
        if q == "GB":
            win = win * chance(sr) // 100  # 8.6: Britain is reached by sea
        if p == "GB":
            lose = lose * chance(ratio(sum(b.sea[x] for x in theirs), sum(b.sea[x] for x in mine))) // 100
        if b.sea[p] == 0:
            naval = 0
    mine_alone = b.land[p] if own else strength(b, (p,), theirs, watch=watch) if len(mine) > 1 else a
    share = 100 if len(mine) == 1 else ratio(mine_alone, a)
    return r, win, lose, share, naval


def worth(b: Board, p: str, q: str, lvl: Level, win: int, lose: int, *, new: bool, share: int = 100,
          naval: int = 0, allies_in_war: tuple[str, ...] = ()) -> int:
    """Political points held over ``lvl.plan_months`` (point-quarters, hundredths) that a war of ``p`` on ``q`` with
    these chances brings: the declaration from now (when ``new``, 6.2.1), from the month the war can be decided
    (``months_to_decide``) the surrender the enemy makes or ``p`` makes (6.4.2), the battles going the way of the
    chances (000:3219-3222) and the naval battles (000:3215-3218); plus the natural alliance table's stance and, in
    a far war, the enemy's minors near ``p`` (``minor_spoils``)."""
    h = lvl.plan_months
    t = 0 if lvl.judgment == "own" else min(h, months_to_decide(b, p, q))  # the easy level expects it at once
    cost = DECLARE + (ROYAL if q in b.state.powers[p].royal_marriages else 0) if new else 0
    # 6.4.2: each victor the loser sues gains its own points (one with forces in its home nation, or all at once):
    # a member bringing under a tenth of its side counts for nothing, from a third or so in full
    part = max(0, min(100, 3 * share - 30))
    surrender = (ACCEPT + (MARRIAGE if lvl.terms == "harsh" else 0) + SPOILS) * part // 100
    outcome = (win * surrender - lose * SURRENDER + (win - lose) * BATTLES * share // 100) // 100 + naval
    leader = race_leader(b, p)
    contain = CONTAIN_GB if p == "GB" else CONTAIN
    if leader == q or (lvl.judgment == "coalition" and q == rival(b, p)):
        # 12.1.3: the first to reach its level wins, else Great Britain: what the leader loses, its rivals gain; the
        # hard level counts its own rival's loss the same way (the balance of power: the strongest threat contained)
        theirs = (lose * (ACCEPT + MARRIAGE) - win * SURRENDER - (win - lose) * BATTLES) // 100 - naval
        outcome -= theirs * contain // 100 * min(100, 2 * share) // 100
    elif leader is not None and leader in allies_in_war and q != rival(b, p):
        # ... and what it wins with p's help, they lose (but against p's rival the threat comes first: a coalition
        # against the strongest is joined whoever leads it)
        ours = (win * (ACCEPT + MARRIAGE + SPOILS) - lose * SURRENDER + (win - lose) * BATTLES) // 100
        outcome -= ours * contain // 100 * share // 100
    return (-cost * h + outcome * (h - t)) // 3 + HOSTILE * max(0, hostility(p, q)) * h // 3 \
        + minor_spoils(b, p, q, lvl)


def race_leader(b: Board, p: str) -> str | None:
    """The power that leads the race for victory ahead of ``p``: the highest political status of the powers but
    ``p`` (the status earns each quarter's victory points, 12.1; ties by the percentage of the level, 12.1.3), if
    above ``p``'s; None if ``p`` leads."""
    from eiapbem.rules.economy.victory import percentages

    pct = percentages(b.state)
    first = max((x for x in POWERS if x != p), key=lambda x: (b.status(x), pct[x], -POWERS.index(x)))
    return first if b.status(first) > b.status(p) else None


def judge_war(b: Board, p: str, q: str, lvl: Level, joining: tuple[str, ...] = ()) -> Judgement:
    """How ``p`` at level ``lvl`` judges a war on ``q`` (declared with ``joining``, or the one it fights)."""
    mine, theirs = sides(b, p, q, lvl, joining)
    r, win, lose, share, naval = outlook(b, p, q, lvl, mine, theirs)
    new = q not in b.state.powers[p].wars
    if new and lvl.judgment != "own":  # the field's recent verdict between the two (``MEMORY``)
        win, lose = shifted(win, lose, MOMENTUM * recent_battles(b, p, q))
    return Judgement(p, q, mine, theirs, r, win, lose, share, naval,
                     worth(b, p, q, lvl, win, lose, new=new, share=share, naval=naval, allies_in_war=mine))


def lately_at_peace(state: GameState, p: str, q: str) -> bool:
    """``p`` made an informal peace with ``q`` within the last ``INFORMAL_RESPITE`` months (6.4.1)."""
    since = state.powers[p].informal_peace.get(q)
    return since is not None and state.date <= since.plus(INFORMAL_RESPITE)


def candidates(b: Board, p: str, lvl: Level) -> tuple[str, ...]:
    """The major powers ``p`` weighs a declaration on this month: within reach or with minors near it
    (``worth_waging``), not allies, not at war with it, not
    natural friends nor partners against its rival (``partners``), not at informal peace with it of late
    (``lately_at_peace``), allowed by 6.2.2; the ``lvl.plan_candidates`` most hostile (then strongest, then by
    order)."""
    ps = b.state.powers[p]
    if ps.must_sue_for_peace or status_box(b.ctx, ps.political_status)["zone"] == "fiasco":
        return ()
    out = [q for q in POWERS if q != p and q not in ps.alliances and q not in ps.wars and worth_waging(b, p, q, lvl)
           and not natural_friends(b.state, p, q) and not partners(b, p, q) and not lately_at_peace(b.state, p, q)
           and b.may_declare(p, q)]
    out.sort(key=lambda q: (-hostility(p, q), -b.land[q], POWERS.index(q)))
    return tuple(out[:lvl.plan_candidates])


def declarations(b: Board) -> dict[str, str]:
    """The month's declarations of war between majors of every computer power, as each of them computes them (in
    the diplomacy phase; none in the other phases of the month)."""
    slot = b.state.slot
    if slot is None or slot.phase is not Phase.DIPLOMACY:
        return {}
    got = b._memo.get("declarations")
    if got is None:
        b._memo.pop("pending", None)
        got = _declarations(b)
        b._memo["declarations"] = got
    return dict(got)


def _declarations(b: Board) -> dict[str, str]:
    computers = [p for p in POWERS if b.level(p) is not None]
    computers.sort(key=lambda p: (-b.land[p], POWERS.index(p)))
    decided: dict[str, str] = {}
    b._memo["pending"] = decided  # the fronts of the declarations made so far (``fronts``)
    # 1. coalitions: powers allied with each other, each better off declaring on the same enemy together -- or the
    # coalition better off as a whole, none of its members losing more than a ``STAND_BY``-th of a declaration
    for q in sorted(POWERS, key=lambda x: (-b.land[x], POWERS.index(x))):
        group = [p for p in computers if p not in decided and q in candidates(b, p, _lvl(b, p))
                 and _lvl(b, p).judgment == "coalition"]
        group = [p for p in group if any(a in group for a in b.allies(p))]
        while len(group) > 1:
            js = {p: judge_war(b, p, q, _lvl(b, p), tuple(x for x in group if x != p)) for p in group}
            worst = min(group, key=lambda p: (js[p].worth, -POWERS.index(p)))
            if js[worst].worth > 0 or (sum(js[p].worth for p in group) > 0
                                       and js[worst].worth > -DECLARE * _lvl(b, worst).plan_months // 3 // STAND_BY):
                for p in group:
                    decided[p] = q
                break
            group.remove(worst)
    # 2. single wars, the strongest power first, each joining its allies' declarations on the same enemy
    for _ in range(2):
        for p in computers:
            if p in decided:
                continue
            lvl = _lvl(b, p)
            best: Judgement | None = None
            for q in candidates(b, p, lvl):
                j = judge_war(b, p, q, lvl, tuple(x for x, t in decided.items() if t == q and x in b.allies(p)))
                if j.worth > 0 and (best is None or j.worth > best.worth):
                    best = j
            if best is not None:
                decided[p] = best.enemy
    out = {p: decided[p] for p in POWERS if p in decided}
    b._memo["pending"] = out
    return out


def _lvl(b: Board, p: str) -> Level:
    got = b.level(p)
    if got is None:
        raise IllegalAction(f"{p} is played by a human; the computer plans no war for it")
    return got


# ----------------------------------------------------------------- how a war stands


@dataclass(frozen=True)
class WarState:
    """How ``power``'s war with ``enemy`` stands, read from the state."""

    power: str
    enemy: str
    #: Months the war has been fought (``war_state``): what makes it weary (``strategy.chances``).
    months: int
    #: Political points lost each economic phase for ``power``'s national capitals the enemy side holds, unbesieged
    #: (12.4.1), and the same for the enemy's capitals ``power``'s side holds.
    capitals_lost: int
    capitals_held: int
    #: Home areas held by the enemy side (and enemy corps unbesieged at home, 6.2.2); the same the other way.
    areas_lost: int
    areas_held: int
    #: Net political points of the field battles between the two sides since the war began (000:3219-3222).
    battles: int


def _held_by(b: Board, nation: str, side: set[str]) -> tuple[int, int]:
    """(capital points, home areas) of ``nation`` held by ``side``."""
    st, ctx = b.state, b.ctx
    caps = 0
    for c in ctx.map.national_capitals(nation):
        if power_of(st, city_holder(st, ctx, c)) in side and not is_besieged(st, ctx, c):
            caps += -int(CAPITAL_LOSS.get(c) or -1)
    areas = sum(1 for a in ctx.map.areas_of_nation(nation) if power_of(st, area_holder(st, ctx, a)) in side)
    areas += sum(1 for uid in war.enemy_corps_at_home(st, ctx, nation)
                 if power_of(st, getattr(st.units[uid], "nation", None)) in side)
    return caps, areas


def battle_points(b: Board, p: str, e: str, since_index: int) -> int:
    """Net political points of ``p`` in the finished field battles against ``e`` since the month ``since_index``."""
    total = 0
    for _, bt in sorted(b.state.battles.items()):
        if not bt.winner or bt.winner == "none":
            continue
        if _battle_month(bt.id) < since_index:
            continue
        powers = {bt.attacker.power, bt.defender.power}
        if powers != {p, e}:
            continue
        ev = next((x for x in bt.events if x.kind == "battle.political-points"), None)
        if ev is None:
            continue
        won = bt.side(bt.winner).power == p
        total += int(ev.params.get("gain", 0)) if won else -int(ev.params.get("loss", 0))
    return total


def recent_battles(b: Board, p: str, e: str) -> int:
    """Net political points of ``p`` in the field battles against ``e`` of the last ``MEMORY`` months."""
    key = ("recent", p, e)
    got = b._memo.get(key)
    if got is None:
        got = battle_points(b, p, e, b.state.date.index - MEMORY)
        b._memo[key] = got
    return int(got)


def first_battle(b: Board, p: str, e: str, since_index: int) -> int | None:
    """The month index of the first field battle between ``p`` and ``e`` since ``since_index``, None before one."""
    key = ("first-battle", p, e, since_index)
    if key not in b._memo:
        months = [_battle_month(bt.id) for _, bt in sorted(b.state.battles.items())
                  if {bt.attacker.power, bt.defender.power} == {p, e}]
        b._memo[key] = min((i for i in months if i >= since_index), default=None)
    got = b._memo[key]
    return None if got is None else int(got)


def _battle_month(battle_id: str) -> int:
    y, m = battle_id.split(":")[1].split("-")
    return int(y) * 12 + int(m) - 1


def war_state(b: Board, p: str, e: str) -> WarState:
    """How the war of ``p`` with ``e`` stands; its ``months`` are those fought: from the first field battle between
    the two, or, before one, those past ``UNFOUGHT`` months of war (the armies must meet before a war wearies)."""
    st = b.state
    w = st.powers[p].wars[e]
    mine = {p} | {a for a in b.allies(p) if e in st.powers[a].wars}
    theirs = {e} | {a for a in b.allies(e) if p in st.powers[a].wars}
    caps_lost, areas_lost = _held_by(b, p, theirs)
    caps_held, areas_held = _held_by(b, e, mine)
    met = first_battle(b, p, e, w.since.index)
    months = st.date.index - met if met is not None else max(0, st.date.index - w.since.index - UNFOUGHT)
    return WarState(p, e, months, caps_lost, caps_held, areas_lost, areas_held, battle_points(b, p, e, w.since.index))


__all__ = ["ACCEPT", "BATTLES", "Board", "DECLARE", "Judgement", "MINOR_SPOILS", "WIN", "WarState", "battle_points",
           "before_declarations", "board", "brought", "candidates", "chance", "costs_from", "declarations",
           "far_minors", "first_battle", "gaps", "hostility", "in_order", "in_reach", "judge_war", "land_war", "looming",
           "menace", "minor_spoils", "months_to_decide", "natural_friends", "outlook", "partners", "passage", "prox",
           "race_leader", "ratio", "recent_battles", "rival", "sea_power", "second_front", "shifted", "sides",
           "strength", "war_state", "worth", "worth_waging"]
