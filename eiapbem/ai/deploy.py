"""Peacetime deployment: the army marches toward the border of the likely next war, and stays there.

A power at peace (with no great power and no minor, ``assess.at_war_anywhere``) keeps its corps where its war plan
(``ai.strategy.war_plan``) will need them: the power it is about to declare war on, else the strongest power that
could attack it (``WarPlan.declare``, ``WarPlan.threat``).  What a player does between wars:

- the **staging area** is the area of a city of its own territory (13.4.1, unbesieged, held by itself) nearest a city
  that power holds, over land (``assess.distances_from``), if it lies within ``BORDER`` movement points of it; else
  the army faces the nearest great power across such a border that is neither its ally nor its natural friend
  (``neighbour``: Spain's likely enemy may be a Prussia it has no border with, France is next door); else (no border
  near, or an island: Great Britain's corps are left to its amphibious play, ``ai.amphibious``) nothing is staged;
- the **camps** are the areas of its own territory within ``CAMP`` movement points of the staging area where a
  camped corps is supplied (within reach of its depots, ``moves.supplied_areas``, or where foraging with another
  corps never costs it a factor, ``fed_by_forage``), nearest the likely enemy first, as many as hold its corps two to
  an area (each other corps in an area makes the forage roll worse, 10.5.1);
- in winter (13.1) nothing marches: the army stays in its quarters;
- each **corps** not already in a camp marches (``moves.advance``) toward the nearest camp with room, stopping in an
  area with fewer than two of its corps where it can (else through a full camp); one corps stays in or by each of its national capitals, the smallest, and
  a corps inside a city with no garrison of the power's or an ally's stays (it is the city's garrison; one beside a
  garrison, ``operations.garrisoned``, joins the camps: after a lost war the corps rebuilt in the capital's city
  march out to the border);
- a corps already nearer the likely enemy than the staging area (beyond its border) stays where it is;
- once in a camp a corps stays: the choice is a function of the state alone (no dice), the same every month while
  the plan names the same power, so the army never marches back and forth.
"""

from __future__ import annotations

from typing import Any, Callable

import eiapbem.ai.assess as assess
import eiapbem.ai.strategy as strategy
from eiapbem.ai.levels import Level
import eiapbem.ai.logistics as logistics
import eiapbem.ai.moves as moves
import eiapbem.ai.operations as operations
from eiapbem.ai.moves import advance, movers
from eiapbem.rules import control
from eiapbem.rules.land.depots import own_territory
from eiapbem.rules.model import POWERS, Corps, LocationKind

#: Movement points around the staging area within which camps are chosen.
CAMP = 3
#: The farthest (movement points) from the likely enemy's nearest city that a staging area may lie: beyond it there
#: is no border to guard (a month of a corps' march on this map).
BORDER = 4
#: Corps of its own per camp.
PER_CAMP = 2
#: Movement points a corps camped for the month is taken to leave unused (each lowers the forage roll, 10.5.1).
STAYING = 3


def likely_enemy(b: Any, lvl: Level) -> str | None:
    """The power its plan declares war on this month, else its most dangerous neighbour (``WarPlan.threat``)."""
    plan = strategy.war_plan(b.state, b.power, lvl, b.ctx)
    foe = plan.declare or plan.threat
    return None if foe == b.power else foe


def to_foe(b: Any, foe: str) -> Callable[[str], int | None]:
    """The movement cost from an area to the nearest city ``foe`` holds (None with no land path)."""
    m = b.ctx.map
    theirs = [a for a in m.cities() if control.city_power(b.state, m, a) == foe]

    def near_foe(a: str) -> int | None:
        near = assess.distances_from(b.ctx, a)
        ds = [near[t] for t in theirs if t in near]
        return min(ds) if ds else None
    return near_foe


def neighbour(b: Any) -> str | None:
    """The great power, neither an ally (6.5) nor a natural friend (15.0: +1 or better), with a city within ``BORDER``
    movement points of one of the power's own, whose staging area lies nearest its capital: the war next door when
    the likely enemy has no border with it (Spain's army between wars faces France, not a Prussia it cannot reach)."""
    from eiapbem.rules.tables.diplomacy import NATURAL_ALLIANCE

    st, power = b.state, b.power
    home = assess.capitals(b.ctx, power)
    if not home:
        return None
    near = assess.distances_from(b.ctx, home[0])
    out = []
    for q in POWERS:
        if q == power or q in st.powers[power].alliances or NATURAL_ALLIANCE[power][q] >= 1:
            continue
        found = camps(b, q, 1)
        if found and found[0] in near:
            out.append((near[found[0]], POWERS.index(q), q))
    return min(out)[2] if out else None


def camps(b: Any, foe: str, wanted: int) -> tuple[str, ...]:
    """Up to ``wanted`` areas its army camps in against ``foe``, the staging area first (see the module's notes);
    () if none or if the border is farther than ``BORDER``."""
    st, ctx, power, m = b.state, b.ctx, b.power, b.ctx.map
    near_foe = to_foe(b, foe)
    cities = sorted((d, a) for a in m.cities() if own_territory(st, m, a, power)
                    and control.city_power(st, m, a) == power and not control.is_besieged(st, m, a)
                    and (d := near_foe(a)) is not None)
    if not cities or cities[0][0] > BORDER or wanted <= 0:
        return ()
    stage = cities[0][1]
    around = assess.distances_from(ctx, stage)
    fed = moves.supplied_areas(b)
    near = sorted((near_foe(a) or 0, d, a) for a, d in around.items()
                  if d <= CAMP and own_territory(st, m, a, power) and (a in fed or fed_by_forage(b, a)))
    return tuple(a for *_, a in near)[:wanted]


def fed_by_forage(b: Any, area: str) -> bool:
    """A corps camped in ``area`` with another (each other corps makes the forage roll worse, 10.5.1), having used
    none of its ``STAYING`` movement points, never loses a factor foraging there (10.5.1)."""
    return logistics.forage_sixths(b, area, others=PER_CAMP - 1, unused=STAYING,
                                   lowest=b.ctx.map.area(area).forage, home=True)[1] == 0


def stage(b: Any, lvl: Level) -> set[str]:
    """March its corps toward the camps against the likely enemy; the ids of corps that moved or stay in a camp."""
    if logistics.winter(b.state):  # no march in winter (13.1: foraging is worse), the army stays in quarters
        return set()
    foe = likely_enemy(b, lvl)
    if foe is None or b.power == "GB":  # Britain's corps go to war by sea (``ai.amphibious``)
        return set()
    st, ctx, power = b.state, b.ctx, b.power
    if not camps(b, foe, 1):
        foe = neighbour(b) or foe  # no border with it: the neighbour it could fight instead
    corps = [c for c in movers(b) if c.factors.total]
    keep: set[str] = set()
    for cap in assess.capitals(ctx, power):
        near = sorted((c.factors.total, c.id) for c in corps if c.location.site == cap)
        if near:
            keep.add(near[0][1])
    keep |= {c.id for c in corps
             if c.location.kind is LocationKind.CITY and not operations.garrisoned(b, c.location.site)}
    found = camps(b, foe, -(-sum(1 for c in corps if c.id not in keep) // PER_CAMP))
    if not found:
        return set()
    room = {a: PER_CAMP for a in found}
    done: set[str] = set()
    near_foe = to_foe(b, foe)
    line = near_foe(found[0])
    for c in corps:  # those already in a camp, or nearer the enemy than the staging area, stay there
        a = c.location.site
        if c.id in keep:
            continue
        if room.get(a, 0) > 0:
            room[a] -= 1
            done.add(c.id)
        elif a not in room and line is not None and (d := near_foe(a)) is not None and d < line:
            done.add(c.id)
    for c in corps:
        if c.id in keep or c.id in done:
            continue
        here = c.location.site
        dist = assess.distances_from(ctx, here)
        options = sorted((dist[a], a) for a in found if room[a] > 0 and a in dist)
        if not options:
            break
        goal = options[0][1]
        room[goal] -= 1
        done.add(c.id)
        unit = st.units[c.id]
        if isinstance(unit, Corps):
            advance(b, unit, goal, crowd=PER_CAMP) or advance(b, unit, goal)  # through a full camp if need be
    return done


__all__ = ["BORDER", "CAMP", "PER_CAMP", "camps", "likely_enemy", "neighbour", "stage", "to_foe"]
