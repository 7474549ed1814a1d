"""The computer's armies: corps gathered under its best leaders, and the goal each marches on (issue 28 item 2).

A power's corps free for the field (after its capitals' garrisons and its answers to incursions,
``eiapbem.ai.operations``) are gathered into at most ``Level.armies`` armies:

- **heads**: the corps its best leaders ride with, best first by tactical plus strategic rating, then seniority
  (13.8.6: the most senior leader commands, so a lesser leader of higher seniority is not made a head while a
  better one is near: heads within ``JOIN`` movement points of a better head join it);
- **members**: every other free corps joins the nearest head within the level's ``horizon`` movement points; the
  rest are the reserve, which rests where it is supplied (``operations.rest``).

Each army then takes the goal it does best (``goal``), weighing at most ``Level.plans`` candidates nearest first:

- an enemy stack in the field: worth 1, and 1 more per ``STACK_FACTORS`` of its factors (each corps of a beaten enemy
  costs it political points, 11.2.10, and its factors are what makes the war), ``INVADER`` more in the power's own
  territory (twice that in its home nation); beyond its own territory only within ``CHASE`` months of the army's
  march (a stack moves: chasing it across the enemy's land is marching back and forth); one in the area of one of
  the power's national capitals is a relief (``Goal.relief``): needed at even odds, weighed with half the cover
  another goal needs and against the months to get there, not their square, and while one is unanswered the army
  takes no goal abroad (a capital lost is a war lost, 6.4.2);
- a war aim of the power's war plan (``ai.strategy.war_plan``): worth the political points it weighs there;
- an enemy great power's national capital its corps besiege: ``BIG`` more, needing ``STORM`` per hundred of what
  stands inside (the army comes to the siege and storms the city when the walls are breached, 11.4.1);
- an enemy capital's worth is weighed by its walls (``walls``, 11.4.1): full when some die breaches them, half when
  only an undergarrisoned garrison's would (Vienna, St. Petersburg), a quarter when none ever does (Constantinople);

scored as worth x (the army's strength against what the goal needs, capped at 1, at least ``COVER`` percent)
squared / (1 + the months to get there) squared (goals within the level's ``horizon`` movement points, and those
worth ``BIG`` within twice that; an enemy capital to storm within the ``horizon``, while no enemy field forces stand in
its own territory within it: worth x cover / (1 + months), the decision of the war sought before the provinces on
its way),
where what it needs is the enemy field strength within ``assess.NEAR`` of it at the level's ``attack_odds`` plus
what stands inside its city at the level's ``assault_odds``.  A goal other armies march on with the strength it
needs counts half.  Beyond its own territory an army weighs no goal where the enemy's field forces that can reach it
by the month after the army's arrival exceed the level's ``exposure`` per hundred of the army and the friendly forces
that can reach it as soon (a lone corps sent deep into enemy land meets the enemy's whole army there), and, while an
enemy's army stands within ``THREAT_MONTHS`` of one of its national capitals (``threats``, where the level sees
them), none taken from another enemy: the war at its door is fought before a far one.  The easy level judges neither.  An army with no goal of its own joins the nearest goal the power's
other forces march on (``join``): idle armies concentrate on the war instead of standing apart.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import eiapbem.ai.assess as assess
import eiapbem.ai.moves as moves
import eiapbem.ai.odds as odds
from eiapbem.ai.strategy import Aim
from eiapbem.rules.land.depots import own_territory
from eiapbem.rules.land.movement import allowance
from eiapbem.rules import control, relations
from eiapbem.rules.model import Corps, Garrison, LeaderStatus, LocationKind
from eiapbem.rules.tables import land_siege as siege_table

#: Movement points within which a lesser head joins a better one.
JOIN = 2
#: An enemy stack is worth one, and one more for each this many of its factors.
STACK_FACTORS = 5
#: An enemy stack in the power's own territory (its ceded provinces, its minors) is worth this much more, twice this
#: in its home nation.
INVADER = 6
#: The least share (percent) of what a goal needs that an army must bring to weigh it.
COVER = 50
#: Goals worth this much (capitals, minors of several districts) are weighed however far they are.
BIG = 6
#: Months of its march within which an army strikes an enemy stack beyond its own territory (``Goal.moving``).
CHASE = 2
#: An army with no goal of its own joins another's goal within this many months of its march.
JOIN_MONTHS = 3
#: Strength per hundred of the forces inside an enemy capital that the armies bring to its siege (at least the
#: level's ``assault_odds``): enough to storm a breach and win (11.4.1).
STORM = 300
#: What an enemy capital's walls leave of its worth as a goal (percent, ``walls``): breached by some die now, only once
#: undergarrisoned, never.
OPEN, THINNED, SHUT = 100, 50, 25
#: An enemy whose field forces can reach one of the power's national capitals within ``THREAT_MONTHS`` months of
#: forced march with at least ``THREAT_SHARE`` percent of the power's own field strength is its first enemy
#: (``threats``): beyond its own territory its armies take no goal from another enemy while it stands there.
THREAT_MONTHS = 2
THREAT_SHARE = 50
#: A capped score's unit (a goal fully within the army's strength, reached this month, scores worth x UNIT).
UNIT = 100


@dataclass
class Army:
    """A head corps (with the army's leader) and the corps that march with it, head first."""

    head: str
    leader: str | None
    members: list[str] = field(default_factory=list)
    #: An answer to an incursion: it brings to a battle only what the level's odds need (``operations._battle``).
    answer: bool = False

    def area(self, state: Any) -> str:
        return str(state.units[self.head].location.site)


def _quality(ctx: Any, lid: str) -> tuple[int, int]:
    tac, strat, _, sen = assess.leader_info(ctx, lid)
    return tac + strat, -sen


def form(b: Any, lvl: Any, free: list[str]) -> tuple[list[Army], list[str]]:
    """The armies of the corps ``free`` (ids), best head first, and the reserve (ids)."""
    st, ctx = b.state, b.ctx
    corps = [st.units[i] for i in sorted(free) if isinstance(st.units.get(i), Corps)]
    if not corps:
        return [], []
    ranked = sorted(((_quality(ctx, lid), lid, ld.attached_to) for lid, ld in st.leaders.items()
                     if ld.attached_to in free and ld.status is LeaderStatus.ON_MAP),
                    key=lambda x: (-x[0][0], -x[0][1], x[1]))
    heads: list[Army] = []
    for _, lid, cid in ranked:
        if len(heads) >= lvl.armies:
            break
        here = st.units[cid].location.site
        if any(h.head == cid or (assess.distance(ctx, here, h.area(st)) or 1 << 20) <= JOIN for h in heads):
            continue
        heads.append(Army(cid, lid, [cid]))
    if not heads:  # no leader: the largest corps leads
        big = max(corps, key=lambda c: (c.factors.total, assess.name_last_first(c.id)))
        heads.append(Army(big.id, None, [big.id]))
    reserve: list[str] = []
    for c in corps:
        if any(c.id == h.head for h in heads):
            continue
        far = assess.distances_from(ctx, c.location.site)
        near = sorted((far.get(h.area(st), 1 << 20), i) for i, h in enumerate(heads))
        d, i = near[0]
        if d <= lvl.horizon:
            heads[i].members.append(c.id)
        else:
            reserve.append(c.id)
    return heads, reserve


@dataclass(frozen=True)
class Goal:
    area: str
    worth: int
    #: Strength the goal needs (the level's odds over its enemy field forces near it and those inside its city).
    need: int
    #: Enemy field strength in the area itself (a battle on arrival).
    field: int
    #: An enemy stack beyond the power's own territory and no war aim: it moves, so an army strikes it only within
    #: ``CHASE`` months of its march (it marches on the war aims, which stay, and meets the enemy there).
    moving: bool = False
    #: An enemy great power's national capital: the army ends its march there to besiege and storm it when the corps
    #: that arrive are strong enough (``operations.march``), whatever foraging there costs (10.5.1: the siege is won
    #: in a few months or the war ends before it).
    storm: bool = False
    #: The sides (``relations.unit_side``) the goal is taken from: the enemy's corps there, a war aim's enemy.
    against: tuple[str, ...] = ()
    #: Enemy corps in the area of one of the power's national capitals (besieging it, or about to): the army marches
    #: to relieve it before lesser goals nearer to hand (``goal``: its score falls with the months to get there, not
    #: their square), needing even odds (``goals``).
    relief: bool = False


def goals(b: Any, lvl: Any, aims: tuple[Aim, ...]) -> list[Goal]:
    """Every goal an army of the power may take: the enemy's stacks in the field and the war aims."""
    st, ctx, power = b.state, b.ctx, b.power
    forces = assess.forces_by_area(st, ctx, power)
    out: dict[str, Goal] = {}
    stacks = sorted({c.location.site for c in assess.enemy_field_corps(st, power)})
    own_capitals = assess.capitals(ctx, power)
    for a in stacks:
        f = forces[a]
        field_enemy = f.enemy - f.enemy_city
        factors = sum(st.units[i].factors.total for i in f.enemy_ids if st.units[i].location.kind is LocationKind.AREA)
        near = assess.enemy_forces_near(st, ctx, a, power, assess.NEAR // 2)
        home = ctx.map.area(a).nation == power
        worth = 1 + factors // STACK_FACTORS + (2 * INVADER if home else INVADER if own_territory(st, ctx.map, a, power) else 0)
        relief = a in own_capitals
        odds_wanted = 100 if relief else lvl.attack_odds  # a capital is relieved at even odds: its loss loses the war
        out[a] = Goal(a, worth, max(near, field_enemy) * odds_wanted // 100
                      + f.enemy_city * lvl.assault_odds // 100, field_enemy,
                      moving=not own_territory(st, ctx.map, a, power),
                      against=tuple(sorted({relations.unit_side(st, st.units[i]) for i in f.enemy_ids})),
                      relief=relief)
    sieges = {c.location.site for c in assess.army_units(st, power) if c.besieging}
    capitals = assess.enemy_capitals(st, ctx, power)
    for aim in aims:
        f = forces.get(aim.area, assess.AreaForces())
        near = assess.enemy_forces_near(st, ctx, aim.area, power, assess.NEAR)
        need = near * lvl.attack_odds // 100 + f.enemy_city * max(100, lvl.assault_odds) // 100
        g = out.get(aim.area)
        worth = aim.worth * walls(b, aim.area) // 100 if aim.area in capitals else aim.worth
        if g is None or g.worth < worth:
            out[aim.area] = Goal(aim.area, worth + (g.worth if g else 0), max(need, g.need if g else 0),
                                 f.enemy - f.enemy_city, storm=aim.area in capitals and walls(b, aim.area) > SHUT,
                                 against=tuple(sorted({aim.enemy, *(g.against if g else ())})))
    # a siege of an enemy great power's national capital under way: the armies come to it with what a storm needs
    # (11.4.1: a breach is stormed with every besieging factor, on the 5-1 table against the 5-2)
    for a in capitals:
        if a not in sieges:
            continue
        f = forces.get(a, assess.AreaForces())
        near = assess.enemy_forces_near(st, ctx, a, power, assess.NEAR)
        need = near * lvl.attack_odds // 100 + f.enemy_city * max(STORM, lvl.assault_odds) // 100
        g = out.get(a)
        owner = control.city_holder(st, ctx, a) or ""
        out[a] = Goal(a, (g.worth if g else 0) + BIG * walls(b, a) // 100, max(need, g.need if g else 0),
                      f.enemy - f.enemy_city, storm=walls(b, a) > SHUT,
                      against=tuple(sorted({owner, *(g.against if g else ())} - {""})))
    return [out[a] for a in sorted(out)]


def breachable(b: Any, area: str, *, if_thinned: bool = False) -> bool:
    """Some die breaches the walls of the city of ``area`` (11.4.1: the die, less its siege value, +1 when it is
    undergarrisoned, reaches the siege table's breach); with ``if_thinned``, once its garrison is undergarrisoned (a
    siege's starving and sorties thin it, 10.5.5)."""
    city = b.ctx.map.area(area).city
    inside = sum(u.factors.total for u in control.units_at(b.state, area)
                 if isinstance(u, Garrison) and u.location.kind is LocationKind.CITY)
    under = if_thinned or siege_table.is_undergarrisoned(inside, city.garrison_capacity)
    best = siege_table.siege_random_number(6, city.siege, under)
    return siege_table.siege_result(min(best, siege_table.SIEGE_TABLE[-1][1])) == siege_table.BREACH


def walls(b: Any, area: str) -> int:
    """What an enemy capital's walls leave of its worth as a goal (percent): ``OPEN`` when some die breaches them now,
    ``THINNED`` when only an undergarrisoned garrison's would (Vienna, St. Petersburg: 11.4.1), ``SHUT`` when none
    ever does (Constantinople: only a long siege starves it, 10.5.5)."""
    return OPEN if breachable(b, area) else THINNED if breachable(b, area, if_thinned=True) else SHUT


def join(b: Any, army: Army, marched: list[Goal]) -> Goal | None:
    """An army with no goal of its own joins the nearest goal other forces of the power march on this slot (the
    armies' and the answers to incursions') that it has a land route to, within ``JOIN_MONTHS`` of its march: the
    goal, or None."""
    st, ctx = b.state, b.ctx
    here = army.area(st)
    far = assess.distances_from(ctx, here)
    head = st.units[army.head]
    pace = max(1, allowance(st, ctx, head))
    best: tuple[int, int, str, Goal] | None = None
    for g in marched:
        d = far.get(g.area)
        if d is None or d > JOIN_MONTHS * pace or g.area == here:
            continue
        if moves.route(b, head, g.area) is None:
            continue
        if best is None or (d, -g.worth, g.area) < best[:3]:
            best = (d, -g.worth, g.area, g)
    return best[3] if best is not None else None


def army_strength(b: Any, army: Army) -> int:
    return assess.force_strength(b.state, b.ctx, army.members)


def threats(b: Any) -> frozenset[str]:
    """The sides (``relations.unit_side``) whose field forces can reach one of the power's national capitals within
    ``THREAT_MONTHS`` months with at least ``THREAT_SHARE`` percent of its own field strength: the armies at its
    door, which its armies face before any other enemy's."""
    st, ctx = b.state, b.ctx
    own = assess.power_strength(st, ctx, b.power)
    by_side: dict[str, list[Corps]] = {}
    for c in assess.enemy_field_corps(st, b.power):
        by_side.setdefault(relations.unit_side(st, c), []).append(c)
    return frozenset(side for side, corps in by_side.items() for cap in assess.capitals(ctx, b.power)
                     if assess.in_reach(st, ctx, cap, corps, THREAT_MONTHS) * 100 >= own * THREAT_SHARE)


def goal(b: Any, lvl: Any, army: Army, found: list[Goal], taken: dict[str, int]) -> Goal | None:
    """The best goal for ``army`` among the ``lvl.plans`` nearest of ``found`` (``taken``: goals other armies chose,
    with the strength they send)."""
    st, ctx = b.state, b.ctx
    here = army.area(st)
    far = assess.distances_from(ctx, here)
    head = st.units[army.head]
    pace = max(1, allowance(st, ctx, head))
    # the nearest goals within the level's horizon, and those worth ``BIG`` or more within twice that
    near = [x for x in sorted((far[g.area], g.area, g) for g in found if g.area in far)
            if x[0] <= lvl.horizon or x[0] <= 2 * lvl.horizon and x[2].worth >= BIG]
    strength = army_strength(b, army)
    # enemy field forces in its own territory within its reach: they are beaten before a capital is sought
    invaded = any(g.field and not g.moving and d <= lvl.horizon for d, _, g in near)
    first = threats(b) if lvl.threats else frozenset()
    # enemy corps at one of its national capitals that no other force marches on yet: no goal abroad meanwhile
    relieving = any(g.relief and taken.get(a, 0) < g.need for _, a, g in near)
    best: tuple[int, str, Goal] | None = None
    weighed = 0
    for d, a, g in near:
        if weighed >= lvl.plans and g.worth < BIG:
            continue
        if a != here and moves.route(b, head, a) is None:
            continue  # no way there by land now (crossing arrows closed, territory)
        weighed += 1
        if g.field and taken.get(a, 0) >= g.need:
            continue  # a stack others are answering already
        if g.moving and d > CHASE * pace:
            continue  # a stack far off in the enemy's land: it will have moved by then
        need = max(1, g.need - taken.get(a, 0))
        if g.field and d <= pace and odds.estimate(b, lvl, a, army.members).odds < lvl.attack_odds:
            continue  # a battle next door it judges it would not win
        months = (d + pace - 1) // pace
        abroad = not own_territory(st, ctx.map, a, b.power)
        if abroad and relieving:
            continue  # the enemy at its capital first: a capital lost is a war lost (6.4.2)
        if abroad and first and g.against and not first & set(g.against):
            continue  # another enemy's army stands within reach of the capital: the army faces it first
        if abroad and lvl.exposure and assess.enemy_in_reach(st, ctx, a, b.power, months + 1) * 100 \
                > (strength + assess.friends_in_reach(st, ctx, a, b.power, months + 1, army.members)) * lvl.exposure:
            continue  # the enemy's army could close on it there before it has done its work
        cover = min(UNIT, strength * UNIT // need)
        if cover < (COVER // 2 if g.relief else COVER):
            continue
        if g.relief or g.storm and d <= lvl.horizon and not invaded:
            # an enemy capital within reach decides the war (12.4.1, 6.4), and so does the enemy at the power's own
            # (6.4.2: a capital lost, the war is lost): weighed against its nearness and what the army brings to it,
            # not their squares
            score = g.worth * cover // (1 + months)
        else:
            score = g.worth * cover * cover // UNIT // (1 + months) // (1 + months)
        if a in taken and taken[a] >= g.need:
            score //= 2  # covered already by the armies marching there
        if best is None or (score, assess.name_last_first(a)) > (best[0], assess.name_last_first(best[1])):
            best = (score, a, g)
    return best[2] if best is not None and best[0] > 0 else None


__all__ = ["Army", "Goal", "army_strength", "breachable", "form", "goal", "goals", "join", "threats"]
