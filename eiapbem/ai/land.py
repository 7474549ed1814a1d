"""An AI power's land slot (10.0-11.4): garrisons, armies, supply, battles and sieges (issues 19 and 28).

At war (with a major power or a neutral minor, 6.2, 6.15) and while its movement is not over, in this order:

1. **requests** (6.16): an attack or defence it granted an ally this month draws its nearest corps first
   (``honour_requests``);
2. **operations** (``eiapbem.ai.operations``): sieges reviewed, capitals kept garrisoned while enemies are within
   reach, incursions answered in proportion, a corps facing an enemy ``retreat_odds`` per hundred of its own
   strength nearby falls back to a friendly city's area (``fall_back``), the rest gathered into armies under its best leaders
   (``eiapbem.ai.armies``) that march on their goals with depots behind them (``eiapbem.ai.logistics``) and fight
   where the level judges the battle worth it (``eiapbem.ai.odds``), and the reserve rests where it is supplied;
3. **combat** (11.1): every area where its corps share the rural part with the enemy is attacked, one battle at a
   time (the rules oblige it anyway);
4. **sieges** (10.4.7, 11.4): a corps in the area of an enemy-held city with no enemy outside besieges it when the
   city is worth a siege (a war aim, a city with enemy corps inside, one of its own territory); an assault attempt
   is made when the besiegers' strength is at least ``assault_odds`` per hundred of the forces inside (the hard
   level also sorties with a besieged garrison twice as strong as its besiegers, 11.4.2); an assault ends movement
   (11.0), so any field combat it leaves is fought after it.

Supply is the rules' own "Auto Forage" (10.5, ``rules.land.supplyphase``).  At peace the army camps by the border of
the likely next war (``eiapbem.ai.deploy``), and the other corps move only if they would lose factors foraging where
they stand, to an area next door where they are supplied (``operations.rest``).
"""

from __future__ import annotations

from typing import Any

import eiapbem.ai.amphibious as amphibious
from eiapbem.ai.amphibious import Target, targets  # the enemy's objectives by area, shared with the amphibious play
import eiapbem.ai.assess as assess
import eiapbem.ai.deploy as deploy
import eiapbem.ai.feudal as feudal
import eiapbem.ai.armies as armies
from eiapbem.ai.armies import breachable
import eiapbem.ai.logistics as logistics
import eiapbem.ai.strategy as strategy
import eiapbem.ai.operations as operations
from eiapbem.ai.levels import Level
from eiapbem.ai.moves import LOCAL, advance, costs_from, movers, own_corps_in, reachable, route, stops
from eiapbem.rules import control, relations
from eiapbem.rules.land.combat import Attack, areas_to_attack
from eiapbem.rules.land.depots import own_territory
from eiapbem.rules.land.movement import allowance
from eiapbem.rules.land.sieging import Assault, Besiege, GarrisonAttack
from eiapbem.rules.model import POWERS, Corps, CorpsType, LocationKind

#: A bound on the battles the AI starts in one slot (never reached: one per area).
MAX_BATTLES = len(POWERS) * 100
#: Besiegers' strength per hundred of the forces inside at which an enemy capital is assaulted (the level's
#: ``assault_odds`` halved when that is more).
CAPITAL_ASSAULT = 100


def plan(b: Any, lvl: Level) -> None:
    """Play ``b.power``'s land slot on the builder ``b`` (``eiapbem.ai.Builder``)."""
    aims: tuple[strategy.Aim, ...] = ()
    marching: set[str] = set()
    if assess.at_war_anywhere(b.state, b.power) and not b.state.movement_over:
        aims = strategy.war_plan(b.state, b.power, lvl, b.ctx).aims
        budget = logistics.Budget.of(b)
        busy = honour_requests(b, set())
        released = operations.review_sieges(b, lvl, aims)
        free = [c.id for c in movers(b) if c.id not in busy] + released
        busy |= amphibious.expedition(b, lvl, [i for i in free if i not in busy])  # corps landed overseas
        busy |= operations.guard_capitals(b, lvl, free)
        busy |= operations.hold_cities(b, lvl)
        field, reserve = armies.form(b, lvl, [i for i in free if i not in busy])
        heads = {a.head for a in field}
        taken: dict[str, int] = {}
        busy |= operations.answer_incursions(b, lvl, [i for i in free if i not in busy and i not in heads], budget,
                                             taken)
        # the incursions answered, what no answer marches on is the capitals' garrisons' to hold (the armies not
        # yet gone: a corps at a capital leaves its infantry there before it marches off)
        if lvl.defend_capital:
            busy |= operations.guard_capitals(b, lvl, [i for i in free if i not in busy and i not in heads],
                                              set(taken))
        if lvl.retreat_odds:
            busy |= fall_back(b, lvl, busy | heads | {c.id for c in movers(b, engaged=True) if c.id not in free})
        for army in field:
            army.members = [i for i in army.members if i == army.head or i not in busy]
        reserve = [i for i in reserve if i not in busy]
        found = armies.goals(b, lvl, aims)
        for army in field:
            goal = armies.goal(b, lvl, army, found, taken) or armies.join(b, army, [g for g in found if g.area in taken])
            operations.march(b, lvl, army, goal, budget)
            if goal is not None:
                taken[goal.area] = taken.get(goal.area, 0) + armies.army_strength(b, army)
                if goal.area != army.area(b.state):
                    marching.add(army.head)
        operations.rest(b, lvl, reserve, budget)
        feudal.stand_down(b, lvl, budget)
    elif not b.state.movement_over:
        # at peace: corps that would lose factors foraging where they stand go to an area next door where they are
        # supplied (10.5.1: each other corps in the area makes the forage roll worse), and stay there
        staged = deploy.stage(b, lvl)  # toward the border of the likely next war (``ai.deploy``)
        feudal.stand_down(b, lvl, logistics.Budget.of(b))  # 13.2.3: idle feudal corps that would lose factors go home
        operations.rest(b, lvl, [c.id for c in movers(b) if c.id not in staged], logistics.Budget.of(b))
    fight(b)
    besiege(b, aims, marching)
    assault(b, lvl)
    fight(b)  # an assault ends movement (11.0), which can leave an enemy in the field to attack (11.1)


def honour_requests(b: Any, busy: set[str]) -> set[str]:
    """6.16: an attack or a defence this power granted an ally for this month (``military_requests``) draws its
    nearest corps with a route there, before its own plans; an attack does not wait for the odds (ids)."""
    sent: set[str] = set()
    for area, _action in b.state.powers[b.power].military_requests.items():
        near = sorted((d, c.id) for c in movers(b) if c.id not in busy | sent
                      and (d := assess.distance(b.ctx, c.location.site, area)) is not None)
        for _d, cid in near:
            c = b.state.units[cid]
            if c.location.site == area or route(b, c, area) is not None:
                sent.add(cid)
                if c.location.site != area:
                    advance(b, c, area)
                break
    return sent


def fall_back(b: Any, lvl: Level, busy: set[str]) -> set[str]:
    """Corps that fall back before a much stronger enemy (ids): the enemy strength within ``LOCAL`` movement
    points against the power's own there.  The refuge is the area of a friendly unbesieged city it can reach
    this slot, its own territory first, then one where it is supplied as the level accepts with the power's corps
    already there (``logistics.supply_of``: 10.5.1, each other corps makes the roll worse, and in winter +2, 13.1),
    losing least, then with the least enemy strength near it; it stays outside the city, where a siege would starve
    it (10.5.5).  A Turkish feudal corps with no refuge where it is supplied stands down instead, keeping its factors
    (13.2.3, 000:2448): several of them falling back on one poor Balkan city in winter lost half their factors."""
    from eiapbem.rules.land.feudal import StandDown

    ctx, power, m = b.ctx, b.power, b.ctx.map
    gone: set[str] = set()
    for c in movers(b, engaged=True):
        c = b.state.units[c.id]
        if c.id in busy or c.location.kind is LocationKind.CITY:
            continue
        here = c.location.site
        threat = assess.enemy_forces_near(b.state, ctx, here, power, LOCAL)
        if threat * 100 <= assess.own_forces_near(b.state, ctx, here, power, LOCAL) * lvl.retreat_odds:
            continue
        near = costs_from(b, c, allowance(b.state, ctx, c))
        paths = reachable(b, c)
        refuges = []
        for a, d in sorted(near.items()):
            if a == here or a not in paths or m.area(a).city is None or control.city_power(b.state, m, a) != power \
                    or control.is_besieged(b.state, m, a):
                continue
            ok, _, lost = logistics.supply_of(b, lvl, logistics.Budget.of(b), c, a, paths[a], own_corps_in(b, a))
            refuges.append((not own_territory(b.state, m, a, power), not ok, lost if not ok else 0,
                            assess.enemy_forces_near(b.state, ctx, a, power, LOCAL), d, a))
        refuges.sort()
        if c.corps_type is CorpsType.FEUDAL and (not refuges or refuges[0][1]) and b.try_(StandDown(unit=c.id)):
            gone.add(c.id)
            continue
        for *_, a in refuges[:3]:
            if advance(b, c, a, enter_goal=a not in stops(b.state, power)):
                gone.add(c.id)
                break
    return gone


def fight(b: Any) -> None:
    """11.1 (000:1610): attack every area where its forces share the rural part with the enemy, one
    battle at a time, each fought out (the answers settled) before the next."""
    for _ in range(MAX_BATTLES):
        todo = areas_to_attack(b.state, b.power)
        if not todo or b.state.pending or not b.try_(Attack(todo[0])):
            return


def besiege(b: Any, aims: tuple[strategy.Aim, ...] = (), marching: set[str] | frozenset[str] = frozenset()) -> None:
    """Every corps in an area whose city the enemy holds, with no enemy outside it, besieges it when the city is
    worth a siege: a war aim of its plan (``ai.strategy``), an enemy great power's national capital, a city with
    enemy corps inside, one of its own territory (without ``aims``, every such city); not the head of an army
    ``marching`` on a goal beyond it (its army would stop with it)."""
    worth = {a.area: a.worth for a in aims}
    st, m, power = b.state, b.ctx.map, b.power
    if aims:
        worth.update({a: 1 for a in assess.enemy_capitals(st, b.ctx, power)})
    for c in assess.army_units(st, power):
        c = b.state.units[c.id]
        if not isinstance(c, Corps) or c.besieging or c.location.kind is not LocationKind.AREA \
                or c.corps_type in (CorpsType.GUERRILLA, CorpsType.COSSACK, CorpsType.FREIKORPS) or c.id in marching:
            continue
        a = c.location.site
        if m.area(a).city is None or not relations.at_war(b.state, power, control.city_holder(b.state, m, a)):
            continue
        if aims and a not in worth and not own_territory(b.state, m, a, power) \
                and not any(isinstance(u, Corps) and u.location.kind is LocationKind.CITY and assess.hostile(b.state, power, u)
                            for u in control.units_at(b.state, a)):
            continue
        if b.state.pending:
            return
        b.try_(Besiege(unit=c.id))


def assault(b: Any, lvl: Level) -> None:
    """An assault where the besiegers are strong enough; hard sorties from its own besieged cities.  An enemy great
    power's national capital is assaulted at ``CAPITAL_ASSAULT`` per hundred (half the level's ``assault_odds`` if
    more) whenever a die can breach its walls: the breach, not the besiegers' numbers, decides an attempt (11.4.1),
    and a capital taken ends the war (12.4.1, 6.4)."""
    if not lvl.assault_odds or b.state.pending:
        return
    m, power = b.ctx.map, b.power
    capitals = set(assess.enemy_capitals(b.state, b.ctx, power))
    areas = sorted({c.location.site for c in assess.army_units(b.state, power) if c.besieging})
    for a in areas:
        if b.state.pending:
            return
        ids = [c.id for c in control.corps_at(b.state, a) if c.besieging and relations.unit_power(b.state, c) == power]
        inside = assess.forces_in(b.state, b.ctx, a, power).enemy_city
        odds_needed = lvl.assault_odds
        if a in capitals:
            if not breachable(b, a):
                continue  # no die breaches its walls (11.4.1): the siege starves it (10.5.5)
            odds_needed = max(CAPITAL_ASSAULT, lvl.assault_odds // 2)
        if ids and assess.odds(assess.force_strength(b.state, b.ctx, ids), inside) >= odds_needed:
            b.try_(Assault(area=a))
    if not lvl.sortie:
        return
    for a in m.cities():
        if b.state.pending:
            return
        if control.city_power(b.state, m, a) != power or not control.is_besieged(b.state, m, a):
            continue
        f = assess.forces_in(b.state, b.ctx, a, power)
        mine = [u.id for _, u in sorted(b.state.units.items()) if u.location.kind is LocationKind.CITY
                and u.location.site == a and assess.friendly(b.state, power, u) and hasattr(u, "factors")]
        if assess.odds(assess.force_strength(b.state, b.ctx, mine), f.enemy - f.enemy_city) >= 200:
            b.try_(GarrisonAttack(area=a))


__all__ = ["CAPITAL_ASSAULT", "LOCAL", "Target", "advance", "assault", "besiege", "breachable", "costs_from", "fall_back", "fight", "honour_requests",
           "plan", "route", "stops", "targets"]
