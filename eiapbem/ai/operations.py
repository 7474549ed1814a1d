"""The computer's land operations: garrisons, answers to incursions, armies on the march, the reserve, sieges.

Called by ``eiapbem.ai.land.plan`` in this order (each corps is used once a slot):

1. **sieges reviewed** (``review_sieges``): a siege of a city worth keeping (a war aim of its plan, ``ai.strategy``,
   an enemy great power's national capital, a city with enemy corps inside, a city of its own territory) keeps the fewest besiegers whose strength
   reaches the level's ``assault_odds`` over the forces inside (an enemy capital: ``armies.STORM`` at least); the others, and all those of a siege worth nothing,
   are free again;
2. **capitals kept garrisoned** (``guard_capitals``): while enemy field forces stand within ``REACH`` movement
   points of one of its national capitals, the power keeps ``Level.garrison`` factors inside its city (10.4.3: a
   corps in the area detaches infantry or militia, else the nearest corps with no leader marches there and does,
   or stays inside the city itself; one that cannot get inside stands by the capital, and none is sent while an
   enemy stack stands in the capital's area), so that a lone enemy corps never walks into an empty capital (13.5.2):
   a corps inside the city leaves a factor as its garrison before it marches off;
   with an enemy army within a month's march that its own corps there could not beat, at a capital whose walls
   a full garrison shuts (Vienna, St. Petersburg: 11.4.1), the levels that defend a threatened capital bring the garrison proper up to ``THREAT_SHARE`` percent of it, at most what keeps the city
   from being undergarrisoned (11.4.1), the corps inside the city leaving their infantry and militia first, then
   the nearest corps that can; judged again once the incursions are answered (step 4), before the armies march:
   an army a month away that no answer marches on is the garrison's to hold, however many corps stood near;
3. **armies formed** (``eiapbem.ai.armies``) under its best leaders;
4. **incursions answered** (``answer_incursions``): each enemy stack in the field within the power's home nation,
   a month's march (half ``REACH``, over the crossing arrows open now) of a capital, or in the capital of a minor
   allied to it or run by it, nearest the capital first, is answered by the nearest free corps (not an army's head)
   that the level judges enough to beat it and the enemy next to it, a quarter over, and no more (one corps never
   pulls the whole army), led by one that reaches the stack this slot (not held back by one from afar); in a winter
   area (13.1) no corps beyond the level's odds is added when it would worsen the stack's forage roll, and a stack
   away from the capitals whose answer would lose more factors foraging than the enemy has there is left to the
   armies (``forage_toll``); if the free corps within two months' march are not enough, none is sent; the corps
   sent leave their armies;
5. **armies on the march**: each marches on its goal (``march``); in winter (13.1) an army with no goal of its own
   stays in winter quarters instead of gathering on its head: its corps rest where they are fed (``winter_quarters``);
   Turkey's feudal corps never gather on a head with no goal: they stay, to stand down when idle (``feudal``);
6. **the reserve** rests where it is supplied (``rest``).

**A march** (``march``) goes along the route of the army's head corps toward its goal, to the farthest area of the
route the head reaches this slot that passes three tests, else one area less, down to staying put:

- a battle there (enemy corps outside the city) is worth fighting by the level's judgement (``eiapbem.ai.odds``) with
  the army's corps that arrive this slot, and those that reach an area next to it count as supporters
  (11.2.11) and go there;
- without a battle, the corps that arrive are supplied there (``logistics.group_supply``: depot supply within the
  month's budget, or a forage whose expected loss the level accepts; when no end of the way is, those in its own
  territory are judged again with the depot that ``logistics.follow`` places ahead of the army, at the levels that
  place depots), which in winter (13.1: +2 to the forage
  roll) keeps armies on their depots;
- beyond its own territory, at least ``CONCENTRATED`` percent of the army's strength ends there or next to it (the
  army advances together), unless the corps that arrive beat the enemy field forces within ``moves.LOCAL`` of it at
  the level's ``attack_odds`` (nothing near could strike the van).

On the way to an enemy capital within the level's horizon (``capital_toll``) an end is taken when its corps lose
foraging no more than ``CAPITAL_TOLL`` percent of the army's factors beyond what they would lose where they stand, and
an army supplied nowhere on its way never falls back farther from the capital than it stands.

A depot goes ahead of it (``logistics.follow``) and the corps that do not arrive close up behind.  A hard level
whose judgement of a battle is neither clear way plays it forward (``odds.simulate``) after the moves and takes
them back when it is not worth fighting.
"""

from __future__ import annotations

from dataclasses import dataclass
from collections.abc import Collection
from typing import Any

import eiapbem.ai.assess as assess
import eiapbem.ai.logistics as logistics
import eiapbem.ai.moves as moves
import eiapbem.ai.odds as odds
from eiapbem.ai.armies import STORM, Army, Goal, army_strength
from eiapbem.ai.strategy import Aim, minor_capitals
from eiapbem.rules import control, relations
from eiapbem.rules.land.depots import own_territory
from eiapbem.rules.land.garrisons import TransferGarrison
from eiapbem.rules.land.movement import allowance
from eiapbem.rules.model import Corps, CorpsType, FactorType, Fleet, Garrison, LocationKind, MinorStatus
from eiapbem.rules.tables import land_siege
from eiapbem.rules.tables.land_siege import SIEGE_UNDERGARRISON_MARGIN

AREA = LocationKind.AREA

#: Movement points within which enemy field forces make the power keep its capitals garrisoned (three months of a
#: French corps' march).
REACH = 12
#: Percentage of the enemy field factors a month's march from a national capital that its garrison is brought up to
#: (at the levels that defend a threatened capital, up to the city's capacity less 11.4.1's margin).
THREAT_SHARE = 40
#: Movement points within which the power's own corps count against that threat (a month's march of most corps).
RELIEF = 3
#: Percentage of an army's strength that must end in or next to its end area beyond its own territory.
CONCENTRATED = 60
#: An answer to an incursion, or the attackers of a battle, bring this percentage of what the level's odds need.
ANSWER_MARGIN = 125
#: Percentage of the enemy's factors a battle is taken to cost it, weighed against what foraging there would cost.
BATTLE_TOLL = 30
#: Percentage of its factors an army marching on an enemy capital within the level's horizon accepts to lose foraging
#: on the way, more than where it stands (10.5.1): the capital ends the war (12.4.1, 6.4), a month's hunger does not.
CAPITAL_TOLL = 10


# ----------------------------------------------------------------- 1. sieges


def review_sieges(b: Any, lvl: Any, aims: tuple[Aim, ...]) -> list[str]:
    """Besieging corps freed from sieges not worth them or with more besiegers than the siege needs (ids)."""
    st, ctx, power, m = b.state, b.ctx, b.power, b.ctx.map
    worth = {a.area: a.worth for a in aims}
    capitals = assess.enemy_capitals(st, ctx, power)
    worth.update({a: 1 for a in capitals})
    out: list[str] = []
    for area in sorted({c.location.site for c in assess.army_units(st, power) if c.besieging}):
        ids = sorted((c for c in control.corps_at(st, area) if c.besieging and relations.unit_power(st, c) == power
                      and c.factors.total), key=lambda c: (-assess.factor_strength(st, ctx, c), c.id))
        f = assess.forces_in(st, ctx, area, power)
        inside_corps = any(isinstance(st.units.get(i), Corps) and st.units[i].location.kind is LocationKind.CITY
                           for i in f.enemy_ids)
        keep = area in worth or inside_corps or own_territory(st, m, area, power)
        # an enemy capital keeps what a storm of a breach needs (``armies.STORM``), another city the level's odds
        need = f.enemy_city * max(STORM if area in capitals else 200, lvl.assault_odds) // 100
        held: list[str] = []
        for c in ids:
            if keep and (not held or assess.force_strength(st, ctx, held) <= need):
                held.append(c.id)
            else:
                out.append(c.id)
    return out


# ----------------------------------------------------------------- 2. capitals


def inside(b: Any, area: str) -> int:
    """The power's and its allies' army factors inside the city of ``area``."""
    return sum(u.factors.total for u in control.units_at(b.state, area)
               if isinstance(u, (Corps, Garrison)) and u.location.kind is LocationKind.CITY and u.factors.total
               and assess.friendly(b.state, b.power, u))


def _detach(b: Any, c: Corps, area: str, want: int) -> bool:
    """10.4.3: ``c`` leaves up to ``want`` infantry or militia factors in the city of ``area`` (never its last)."""
    inf = min(want, c.factors.get(FactorType.INFANTRY), c.factors.total - 1)
    mil = min(want - max(inf, 0), c.factors.get(FactorType.MILITIA), c.factors.total - 1 - max(inf, 0))
    return (inf > 0 or mil > 0) and b.try_(TransferGarrison(source=c.id, target=f"garrison:{c.nation}:city:{area}",
                                                            infantry=max(inf, 0), militia=max(mil, 0)))


def garrisoned(b: Any, area: str) -> int:
    """The power's and its allies' garrison factors in the city of ``area`` (a corps inside does not keep the city
    from being undergarrisoned, 11.4.1, and may march out)."""
    return sum(u.factors.total for u in control.units_at(b.state, area)
               if isinstance(u, Garrison) and u.location.kind is LocationKind.CITY and assess.friendly(b.state, b.power, u))


def threat(b: Any, area: str, answered: Collection[str] = ()) -> tuple[int, int]:
    """Enemy factors in the field that reach ``area`` in a month's march (their movement allowance over the crossing
    arrows open to them now: a strait its fleets hold is closed to them, 10.4.1), those in the areas ``answered``
    left out, and the power's own corps' factors within ``RELIEF`` movement points of it (those back there in a
    month)."""
    st = b.state
    costs: dict[str, dict[str, int]] = {}
    enemy = 0
    for c in assess.enemy_field_corps(st, b.power):
        if c.location.site in answered:
            continue
        side = relations.unit_power(st, c) or c.nation
        if side not in costs:
            costs[side] = moves.open_costs(b, area, REACH // 2, for_power=side)
        if costs[side].get(c.location.site, REACH) <= allowance(st, b.ctx, c):
            enemy += c.factors.total
    near = moves.open_costs(b, area, RELIEF)
    own = sum(c.factors.total for c in assess.army_units(st, b.power) if isinstance(c, Corps) and c.location.site in near)
    return enemy, own


def garrison_wanted(b: Any, lvl: Any, cap: str, answered: Collection[str] | None = None) -> int:
    """The garrison factors a national capital wants while enemies are within ``REACH``: the level's ``garrison``;
    at the levels that defend a threatened capital whose walls a full garrison shuts (``_walls_hold_if_full``), when the enemy field forces within a month's march are more than
    its own corps there could beat at the level's ``attack_odds`` (the answer to the incursion cannot deal with
    them), ``THREAT_SHARE`` percent of them, up to what keeps the city from being undergarrisoned (11.4.1, 000:1960:
    a breach then needs a die the walls deny, so an army next door must starve the city, not storm it).  Once the
    answers to incursions are chosen (``answered``: the areas of the enemy stacks they march on), its own corps
    count for nothing more: what no answer marches on is the garrison's to hold, however many corps stood near
    before the armies marched off to their own goals."""
    city = b.ctx.map.area(cap).city
    want = lvl.garrison
    if lvl.defend_capital and _walls_hold_if_full(city.siege):
        enemy, own = threat(b, cap, answered or ())
        if answered is not None:
            own = 0
        if enemy * lvl.attack_odds > own * 100:
            want = max(want, min(city.garrison_capacity - SIEGE_UNDERGARRISON_MARGIN, enemy * THREAT_SHARE // 100))
    return min(city.garrison_capacity, want)


def _walls_hold_if_full(siege: int) -> bool:
    """Walls of siege value ``siege`` that some die breaches while undergarrisoned and none once garrisoned to within
    the margin (11.4.1, 000:1960: Vienna's, St. Petersburg's): only there does a larger garrison shut the city.  Weaker
    walls fall to a die whatever the garrison, stronger ones to none (the field armies defend those capitals)."""
    def breach(under: bool) -> bool:
        best = min(land_siege.siege_random_number(6, siege, under), land_siege.SIEGE_TABLE[-1][1])
        return land_siege.siege_result(best) == land_siege.BREACH
    return breach(True) and not breach(False)


def guard_capitals(b: Any, lvl: Any, free: list[str], answered: Collection[str] | None = None) -> set[str]:
    """Its national capitals' garrisons while enemy field forces are within ``REACH`` (a port capital's all the war:
    ``open_to_landing``); the corps that stay (ids).
    Called again once the incursions are answered (``answered``, ``garrison_wanted``), before the armies march."""
    ctx, power, m = b.ctx, b.power, b.ctx.map
    sent: set[str] = set()
    for cap in assess.capitals(ctx, power):
        city = m.area(cap).city
        if city is None or control.city_power(b.state, m, cap) != power or control.is_besieged(b.state, m, cap):
            continue
        if not assess.enemy_forces_near(b.state, ctx, cap, power, REACH) and not open_to_landing(b, cap):
            continue
        want = garrison_wanted(b, lvl, cap, answered)
        # an army a month away: the garrison proper is filled, from the corps inside the city first (they would
        # otherwise march out and leave it thin), then from those in its area; else any factors inside will do, one
        # of them a garrison (a corps inside marches off with its army: a Saxon corps of 11 walked into Vienna so)
        threatened = want > lvl.garrison
        held = garrisoned if threatened else inside
        led_here = {ld.attached_to for ld in b.state.leaders.values()}
        at_cap = sorted(control.corps_at(b.state, cap), key=lambda c: (c.location.kind is AREA, c.id in led_here,
                                                                        -c.factors.total, c.id))
        if not threatened and not garrisoned(b, cap):
            for c in at_cap:
                if relations.unit_power(b.state, c) == power and _detach(b, c, cap, 1):
                    break
        for c in at_cap:
            c = b.state.units[c.id]
            short = want - held(b, cap)
            if short <= 0:
                break
            if relations.unit_power(b.state, c) == power and (threatened or c.location.kind is AREA):
                _detach(b, c, cap, short)
        if held(b, cap) >= (want if threatened else min(want, 1)) or moves.field_enemy(b, cap):
            continue  # garrisoned, or an enemy stack stands in its area (no corps gets inside past it: the answer
            # to the incursion deals with it, ``answer_incursions``)
        # the nearest corps with no leader, the smallest first (a leader's corps leads an army), marches to the
        # capital and leaves a garrison there; one that cannot, stays inside the city itself
        # (under an army's threat, those with infantry or militia to leave, until the garrison is full)
        led = {ld.attached_to for ld in b.state.leaders.values()}
        near = sorted((c.id in led, d, c.factors.total, c.id) for c in moves.movers(b) if c.id in free
                      and c.id not in sent and (d := assess.distance(ctx, c.location.site, cap)) is not None
                      and d <= REACH and (not threatened or _detachable(c)))
        for *_, cid in near:
            c = b.state.units[cid]
            path = moves.reachable(b, c).get(cap)
            if path is None or path[1] and not moves.go(b, c, path[1]):
                continue
            c = b.state.units[cid]
            inside_now = c.location.kind is LocationKind.CITY and c.location.site == cap
            if _detach(b, c, cap, want - held(b, cap)) or moves.go(b, c, (), city=True) or path[1] or inside_now:
                sent.add(cid)  # one that marched there and could not get inside stands by the capital; one inside
                # with nothing to leave stays there
                if not threatened or held(b, cap) >= want:
                    break
    return sent


def open_to_landing(b: Any, cap: str) -> bool:
    """A port capital of a power at war with a power that has fleets: enemy corps may land beside it from the sea
    (10.4.5) however far their army stands by land, so it keeps its garrison all the war (13.5.2: an enemy corps
    walks into an empty city; a French corps of 2 factors took an empty London, and Britain surrendered)."""
    st = b.state
    if b.ctx.map.area(cap).port is None:
        return False
    enemies = set(st.powers[b.power].wars)
    return any(isinstance(u, Fleet) and u.location.kind is not LocationKind.POOL
               and relations.unit_power(st, u) in enemies for u in st.units.values())


def _detachable(c: Corps) -> bool:
    """``c`` can leave infantry or militia in a garrison and keep a factor (10.4.3)."""
    return c.factors.get(FactorType.INFANTRY) + c.factors.get(FactorType.MILITIA) > 0 and c.factors.total > 1


def hold_cities(b: Any, lvl: Any) -> set[str]:
    """13.5.2: a city taken from an enemy is held only while occupied.  Where the power holds a city outside its home
    nation with no garrison in it, a corps of the power in the area or the city leaves a garrison of infantry or
    militia (10.4.3: up to the level's ``garrison`` factors in a national capital, one elsewhere) and is free again;
    where none can, a corps inside stays (its id is returned)."""
    st, power, m = b.state, b.power, b.ctx.map
    kept: set[str] = set()
    for area in sorted({c.location.site for c in assess.army_units(st, power)}):
        if m.area(area).city is None or control.city_power(b.state, m, area) != power or m.area(area).nation == power \
                or control.is_besieged(b.state, m, area):
            continue
        if any(isinstance(u, Garrison) and u.location.kind is LocationKind.CITY and u.factors.total
               for u in control.units_at(b.state, area)):
            continue
        city = m.area(area).city
        want = min(lvl.garrison, city.garrison_capacity) if city.capital == "national" else 1
        there = sorted((c for c in control.corps_at(b.state, area) if relations.unit_power(b.state, c) == power
                        and c.factors.total and not c.besieging), key=lambda c: (c.factors.total, c.id))
        done = False
        for c in sorted(there, key=lambda c: (-c.factors.total, c.id)):
            if _detach(b, c, area, want):
                done = True
                break
        inside_corps = [c for c in there if c.location.kind is LocationKind.CITY]
        if not done and inside_corps:
            kept.add(inside_corps[0].id)
    return kept


# ----------------------------------------------------------------- 3. incursions


def answer_incursions(b: Any, lvl: Any, free: list[str], budget: logistics.Budget,
                      taken: dict[str, int] | None = None) -> set[str]:
    """Proportionate answers to enemy stacks in its territory, near its capitals or in the capital of a minor allied to
    it or run by it (``_minor_capitals``); the corps sent (ids).  Each stack answered is noted in ``taken`` with the
    strength sent (the armies leave it to them).  Enemy corps at one of its national capitals that the corps near at
    hand cannot answer leave the stacks beyond its home nation unanswered: their corps stay with the armies, which
    march to relieve the capital (an Austrian insurrection by Vienna drew Prussia's army away from the besieged
    Berlin month after month)."""
    st, ctx, power, m = b.state, b.ctx, b.power, b.ctx.map
    caps = assess.capitals(ctx, power)
    stacks = []
    near_caps = [moves.open_costs(b, cap, REACH) for cap in caps]
    minors = _minor_capitals(b)
    for a in sorted({c.location.site for c in assess.enemy_field_corps(st, power)}):
        to_cap = min((d.get(a, 1 << 20) for d in near_caps), default=1 << 20)
        if m.area(a).nation == power or to_cap <= REACH // 2 or a in minors:
            stacks.append((to_cap, a))
    sent: set[str] = set()
    besieged = False  # enemy corps at one of its national capitals that no answer from near at hand covers
    for _, area in sorted(stacks):
        if besieged and m.area(area).nation != power:
            continue  # the armies relieve the capital (``armies.Goal.relief``) before lesser stacks abroad are chased
        around = moves.open_costs(b, area, 2 * moves.LOCAL)
        pool = sorted((d, cid) for cid in free if cid not in sent and isinstance(b.state.units.get(cid), Corps)
                      and (d := around.get(b.state.units[cid].location.site)) is not None)
        group: list[str] = []
        got = 0
        hungry = logistics.winter(st) and m.area(area).winter  # 13.1: +2 to the forage roll
        for _, cid in pool:
            if moves.route(b, b.state.units[cid], area) is None:
                continue  # it cannot get there (a crossing closed to it, territory)
            if hungry and got >= lvl.attack_odds and forage_toll(b, area, len(group) + 1) > forage_toll(b, area, len(group)):
                break  # enough to win: in winter the margin is not worth the hunger of one more corps there (10.5.1)
            group.append(cid)
            got = odds.estimate(b, lvl, area, group).odds
            if got * 100 >= lvl.attack_odds * ANSWER_MARGIN:
                break
        if not group or got < lvl.attack_odds:
            besieged = besieged or area in caps
            continue  # not enough near: the capital's garrison and the armies see to it
        enemy = sum(b.state.units[i].factors.total for i in assess.forces_in(b.state, ctx, area, power).enemy_ids
                    if b.state.units[i].location.kind is AREA)
        if forage_toll(b, area, len(group)) > 6 * enemy and area not in caps:
            continue  # its own men would starve there faster than the battle kills the enemy's: the armies see to it
        # the head leads the march: a corps that reaches the stack this slot, the best leader's, the largest, the
        # nearest (one from afar would hold the others back a month while the stack stands in its land)
        head = max(group, key=lambda i: (area in moves.reachable(b, b.state.units[i]), assess.tactical(b.state, ctx, [i]),
                                         b.state.units[i].factors.total, -group.index(i)))
        army = Army(head, None, [head] + [i for i in group if i != head], answer=True)
        f = assess.forces_in(b.state, ctx, area, power)
        march(b, lvl, army, Goal(area, 0, 0, f.enemy - f.enemy_city), budget)
        sent.update(group)
        if taken is not None:
            taken[area] = taken.get(area, 0) + assess.force_strength(b.state, ctx, group)
    return sent


def _minor_capitals(b: Any) -> frozenset[str]:
    """The capitals of the minors allied to the power or run by it (6.1.3, 6.8, 13.3.1): an enemy corps standing there
    a month conquers the minor (four Prussian cavalry conquered Bavaria and Ansbach beside a French army so)."""
    held = (MinorStatus.ALLIED, MinorStatus.CONQUERED, MinorStatus.FREE_STATE)
    return frozenset(a for slug, mn in sorted(b.state.minors.items())
                     if mn.controller == b.power and mn.status in held and mn.part_of is None
                     for a in minor_capitals(b.ctx, slug, mn))


def forage_toll(b: Any, area: str, corps: int) -> int:
    """The expected forage loss (sixths of a factor, 10.5.1) of ``corps`` corps ending a march together in ``area``,
    each with its movement spent: the more corps in one area, and in winter (13.1), the worse each one's roll."""
    if corps <= 0:
        return 0
    home = own_territory(b.state, b.ctx.map, area, b.power)
    each, _ = logistics.forage_sixths(b, area, others=corps - 1, unused=0, lowest=b.ctx.map.area(area).forage,
                                      home=home)
    return corps * each


# ----------------------------------------------------------------- 4. armies


def _snapshot(b: Any) -> tuple:
    return b.state, list(b.actions), b.events


def _restore(b: Any, snap: tuple) -> None:
    b.state, b.actions, b.events = snap[0], list(snap[1]), snap[2]


@dataclass
class Plan:
    """Where an army's corps end this slot: ``places`` (corps -> area), around ``end``."""

    end: str
    places: dict[str, str]
    #: The level's verdict on a battle in ``end`` (True: none, or worth it; None: to be played forward first).
    verdict: bool | None
    #: The budget's use with these moves, and the expected forage loss (sixths of a factor) of the corps placed.
    used: int
    lost: int
    #: Every corps placed is supplied as the level accepts.
    supplied: bool


def march(b: Any, lvl: Any, army: Army, goal: Goal | None, budget: logistics.Budget) -> None:
    """The army marches on ``goal`` (or closes up on its head without one); see the module's text."""
    st = b.state
    members = [st.units[i] for i in army.members if isinstance(st.units.get(i), Corps)]
    if not members or army.head not in st.units:
        return
    if goal is None:
        # no goal: Turkey's feudal corps do not gather on the head; idle, they stand down where they would lose factors
        # (``feudal.stand_down``, 000:2448)
        members = [c for c in members if c.corps_type is not CorpsType.FEUDAL or c.id == army.head]
    head = st.units[army.head]
    here = head.location.site
    if winter_quarters(b, lvl, head, goal):
        # 13.1: in winter quarters the corps rest where they are fed; a Turkish feudal corps stays put and, when it
        # would lose factors there, stands down (``feudal.stand_down``, 000:2448)
        rest(b, lvl, [c.id for c in members if c.corps_type is not CorpsType.FEUDAL], budget)
        return
    reach = {c.id: moves.reachable(b, c) for c in members}
    route = moves.route(b, head, goal.area) if goal is not None else None
    steps: list[str] = []
    if route:
        for a in route:
            if a not in reach[head.id] or reach[head.id][a][1] != tuple(route[:len(steps) + 1]):
                break
            steps.append(a)
    total = army_strength(b, army)
    stay = _plan_end(b, lvl, army, members, reach, here, total, budget, concentrate=False)
    toll = capital_toll(b, lvl, goal, here, members)
    # the ends of the way as they are supplied now, then (none taken) those of its own territory with the depot that
    # ``logistics.follow`` places ahead of the army, at the levels that place depots
    for ahead in (False, True) if lvl.depots else (False,):
        for end in reversed(steps):
            if ahead and not own_territory(st, b.ctx.map, end, b.power):
                continue
            plan = _plan_end(b, lvl, army, members, reach, end, total, budget, ahead=ahead,
                             storm=_storm_need(b, lvl, goal, end))
            # an end is taken when its corps are supplied, or lose no more there than where they stand (an army
            # without money goes on rather than starving in place), or when it is an enemy capital the corps that
            # arrive can storm (``storms``)
            if plan is not None and (plan.supplied or stay is None or plan.lost <= stay.lost + toll
                                     or storms(b, lvl, goal, plan)) \
                    and _commit(b, lvl, army, members, here, plan, goal, budget):
                return
    if stay is not None and (stay.supplied or not stay.lost):
        _commit(b, lvl, army, members, here, stay, goal, budget)
        return
    # supplied nowhere on the way: where the head can go, the end where its corps lose least, nearest the goal first
    # (on the way to an enemy capital within reach, never farther from it than it stands)
    far = assess.distances_from(b.ctx, goal.area) if goal is not None else {}
    best: tuple[tuple[int, int, str], Plan] | None = None
    for a in sorted(reach[head.id]):
        if moves.field_enemy(b, a) or toll and far.get(a, 1 << 20) > far.get(here, 0):
            continue
        plan = _plan_end(b, lvl, army, members, reach, a, total, budget, concentrate=False)
        if plan is not None:
            key = (plan.lost, far.get(a, 0), a)
            if best is None or key < best[0]:
                best = (key, plan)
    if best is not None:
        _commit(b, lvl, army, members, here, best[1], goal, budget)


def winter_quarters(b: Any, lvl: Any, head: Corps, goal: Goal | None) -> bool:
    """In winter (13.1: +2 to every forage roll in the winter zone, 10.5.1) an army with no goal of its own stays in
    winter quarters rather than gather on its head: each corps is fed where it stands, or next door."""
    return goal is None and logistics.winter(b.state)


def capital_toll(b: Any, lvl: Any, goal: Goal | None, here: str, members: list[Corps]) -> int:
    """Sixths of a factor (10.5.1) more than where it stands that an army marching on ``goal`` accepts to lose foraging
    where its march ends: ``CAPITAL_TOLL`` percent of its factors when the goal is an enemy capital (``Goal.storm``)
    within the level's ``horizon`` movement points of its head (in ``here``), else none."""
    if goal is None or not goal.storm:
        return 0
    d = assess.distance(b.ctx, here, goal.area)
    if d is None or d > lvl.horizon:
        return 0
    return sum(c.factors.total for c in members) * 6 * CAPITAL_TOLL // 100


def _storm_need(b: Any, lvl: Any, goal: Goal | None, end: str) -> int:
    """The strength the corps that end in ``end`` need to storm it (``storms``), 0 when it is no capital to storm."""
    if goal is None or not goal.storm or end != goal.area or moves.field_enemy(b, end):
        return 0
    inside_city = assess.forces_in(b.state, b.ctx, end, b.power).enemy_city
    return max(1, inside_city * max(STORM, lvl.assault_odds) // 100)


def storms(b: Any, lvl: Any, goal: Goal | None, plan: Plan) -> bool:
    """``plan`` ends the march in the area of an enemy capital it is to storm (``Goal.storm``), with no enemy in the
    field there, and the corps placed in it reach ``armies.STORM`` (at least the level's ``assault_odds``) per hundred
    of the forces inside: they besiege it and try an assault at once (11.4.1), and foraging there is worth its
    cost."""
    if goal is None or not goal.storm or plan.end != goal.area or moves.field_enemy(b, goal.area):
        return False
    there = [i for i, a in plan.places.items() if a == goal.area]
    inside_city = assess.forces_in(b.state, b.ctx, goal.area, b.power).enemy_city
    return bool(there) and assess.odds(assess.force_strength(b.state, b.ctx, there), inside_city) \
        >= max(STORM, lvl.assault_odds)


def _plan_end(b: Any, lvl: Any, army: Army, members: list[Corps], reach: dict[str, moves.Reach], end: str, total: int,
              budget: logistics.Budget, *, concentrate: bool = True, ahead: bool = False, storm: int = 0) -> Plan | None:
    """The army's corps placed around ``end``, or None if it cannot end there (the head cannot reach it, a battle
    there is not worth it, or beyond its territory too little of the army would stand there or next to it); with
    ``storm``, the head and then the strongest corps end in ``end`` itself until their strength reaches it."""
    st, ctx, power, m = b.state, b.ctx, b.power, b.ctx.map
    arriving = [c for c in members if end in reach[c.id]]
    if army.head not in {c.id for c in arriving}:
        return None
    trial = budget.trial()
    if moves.field_enemy(b, end):
        got = _battle(b, lvl, army, members, arriving, reach, end, trial)
        if got is None:
            return None
        places, verdict = got
        return Plan(end, places, verdict, trial.used, 0, True)
    places, lost, supplied = _spread(b, lvl, trial, arriving, reach, end, head=army.head, storm=storm)
    if not supplied and ahead and own_territory(st, m, end, power):
        # in its own territory a depot goes ahead of the army (``logistics.follow``): judged with it
        trial_b = logistics.with_depot(b, end)
        if trial_b is not None:
            second = budget.trial()
            spread = _spread(trial_b, lvl, second, arriving, reach, end, head=army.head, storm=storm)
            if spread[2] or spread[1] < lost:
                (places, lost, supplied), trial = spread, second
    if concentrate and not own_territory(st, m, end, power):
        there = list(places) + [c.id for c in members if c.id not in places
                                and any(a in reach[c.id] for a in (end, *m.land_neighbours(end)))]
        if assess.force_strength(st, ctx, there) * 100 < CONCENTRATED * total and \
                assess.enemy_forces_near(st, ctx, end, power, moves.LOCAL) * lvl.attack_odds \
                > assess.force_strength(st, ctx, list(places)) * 100:
            return None  # strung out where the enemy near could beat the corps that arrive
    return Plan(end, places, True, trial.used, lost, supplied)


def _commit(b: Any, lvl: Any, army: Army, members: list[Corps], here: str, plan: Plan, goal: Goal | None,
            budget: logistics.Budget) -> bool:
    """Make the moves of ``plan`` (a depot ahead first, ``logistics.follow``); a battle a hard level must play
    forward first is played after them, and every move is taken back when it is not worth fighting."""
    snap, used = _snapshot(b), budget.used
    budget.used = plan.used
    end = plan.end
    stands = tuple(sorted({b.state.units[i].location.site for i in plan.places}))
    logistics.follow(b, here, moves.reachable(b, b.state.units[army.head]).get(end, (0, ()))[1], end, stands)
    # an empty enemy city is taken by walking in (13.5.2): by the smallest corps, which a siege would starve least
    take = goal is not None and end == goal.area and moves.empty_enemy_city(b, end)
    taker = min((b.state.units[i].factors.total, i) for i, a in plan.places.items() if a == end)[1] if take else None
    for cid, area in sorted(plan.places.items(), key=lambda x: (x[0] != army.head, x[0])):
        c = b.state.units[cid]
        path = moves.reachable(b, c).get(area)
        if path is not None and (path[1] or cid == taker):
            moves.go(b, c, path[1], city=cid == taker)
    for c in members:
        if c.id not in plan.places:
            _close_up(b, lvl, budget, b.state.units[c.id], end)
    if plan.verdict is None:
        played = odds.simulate(b, end, lvl.samples)
        own = sum(b.state.units[i].factors.total for i in plan.places if plan.places[i] == end)
        enemy = sum(b.state.units[i].factors.total for i in odds.field_units(b, end, enemy=True))
        if played is None or not odds.won_enough(lvl, played, own, enemy):
            _restore(b, snap)
            budget.used = used
            return False
    return True


def _battle(b: Any, lvl: Any, army: Army, members: list[Corps], arriving: list[Corps], reach: dict[str, moves.Reach],
            end: str, trial: logistics.Budget) -> tuple[dict[str, str], bool | None] | None:
    """Where the army's corps go for a battle in ``end``: the attackers (every corps that arrives: losses are a share of
    the factors that fight, 11.2.9; an answer to an incursion brings the head and then the strongest until the level's
    odds are reached a quarter over) and the supporters next to it (11.2.11); with the level's verdict, or
    None when the battle is not worth fighting (the judgement, or foraging there costing more than the battle
    would cost the enemy)."""
    st, m, power = b.state, b.ctx.map, b.power
    order = [c for c in arriving if c.id == army.head] + sorted(
        (c for c in arriving if c.id != army.head), key=lambda c: (-assess.factor_strength(st, b.ctx, c), c.id))
    attackers: list[str] = []
    for c in order:
        attackers.append(c.id)
        if army.answer and odds.estimate(b, lvl, end, attackers).odds * 100 >= lvl.attack_odds * ANSWER_MARGIN:
            break
    blocked = moves.stops(st, power)
    supporters: dict[str, list[str]] = {}
    for c in members:
        if c.id in attackers:
            continue
        spots = sorted((reach[c.id][a][0], a) for a in m.land_neighbours(end) if a in reach[c.id] and a not in blocked)
        for _, a in spots:
            ok, cost, _ = logistics.supply_of(b, lvl, trial, c, a, reach[c.id][a], moves.own_corps_in(b, a)
                                              + sum(len(v) for k, v in supporters.items() if k == a))
            if ok:
                supporters.setdefault(a, []).append(c.id)
                trial.take(cost)
                break
    est = odds.estimate(b, lvl, end, attackers, supporters)
    verdict = odds.worth_fighting(b, lvl, est, end)
    if verdict is False:
        return None
    corps = [st.units[i] for i in attackers]
    _, _, lost = logistics.group_supply(b, lvl, trial, end, [(c, reach[c.id][end]) for c in corps])
    enemy = sum(st.units[i].factors.total for i in odds.field_units(b, end, enemy=True))
    if lost * 100 > enemy * BATTLE_TOLL * 6:
        return None  # foraging there would cost more than the battle costs the enemy (13.1, 10.5.1)
    places = {i: end for i in attackers}
    places.update({i: a for a, ids in supporters.items() for i in ids})
    return places, verdict


def _close_up(b: Any, lvl: Any, budget: logistics.Budget, c: Corps, end: str) -> None:
    """A corps of an army that cannot reach its end this slot marches toward it: to the farthest area of its route
    it reaches where it is supplied as the level accepts, else to the one of them where it loses least."""
    path = moves.route(b, c, end)
    if not path:
        return
    legs = moves.reach(b, c, path)
    if legs and legs[-1] == end and moves.field_enemy(b, end):
        legs.pop()
    reach = moves.reachable(b, c)
    best: tuple[tuple[bool, int, int], str, int] | None = None
    for k, a in enumerate([c.location.site, *legs]):
        move = reach.get(a)
        if move is None:
            continue
        ok, cost, lost = logistics.group_supply(b, lvl, budget.trial(), a, [(c, move)])
        key = (not ok, lost if not ok else 0, -k)
        if best is None or key < best[0]:
            best = (key, a, cost)
    if best is not None and best[1] != c.location.site and moves.go(b, c, reach[best[1]][1]):
        budget.take(best[2])


def _spread(b: Any, lvl: Any, trial: logistics.Budget, corps: list[Corps], reach: dict[str, moves.Reach],
            end: str, *, head: str | None = None, storm: int = 0) -> tuple[dict[str, str], int, bool]:
    """Where each of ``corps`` ends around ``end`` (the ``head`` in ``end`` itself): ``end`` while the corps there are
    supplied, else the area next to it where they are (march divided: a corps next door can still join a battle,
    11.2.11), else where they lose least; with the expected forage loss (sixths) and whether all are supplied.  An
    area is judged with every corps placed there (each one more raises the others' forage roll, 10.5.1)."""
    m = b.ctx.map
    blocked = moves.stops(b.state, b.power)
    spots = [end] + sorted(a for a in m.land_neighbours(end) if a not in blocked)
    groups: dict[str, list[tuple[Corps, tuple[int, tuple[str, ...]]]]] = {a: [] for a in spots}
    judged: dict[str, tuple[bool, int, int]] = {a: (True, 0, 0) for a in spots}
    spent = 0

    def judge(a: str, group: list) -> tuple[bool, int, int]:
        money = logistics.Budget(trial.halves, trial.used + spent - judged[a][1])
        return logistics.group_supply(b, lvl, money, a, group)

    order = sorted(corps, key=lambda c: (c.id != head, c.id))
    if storm:
        order = sorted(corps, key=lambda c: (c.id != head, -assess.factor_strength(b.state, b.ctx, c), c.id))
    for c in order:
        best: tuple[tuple[bool, int, int, int], str, tuple[bool, int, int]] | None = None
        # a storm: until the corps in ``end`` reach its strength, each goes there
        forced = c.id == head or storm > 0 and assess.force_strength(b.state, b.ctx, [x.id for x, _ in groups[end]]) < storm
        for i, a in enumerate(spots):
            if a not in reach[c.id] or (forced and a != end):
                continue
            got = judge(a, groups[a] + [(c, reach[c.id][a])])
            # supplied, losing least, cheapest, ``end`` first
            key = (not got[0], got[2] - judged[a][2], got[1] - judged[a][1] + (1 if i else 0), i)
            if best is None or key < best[0]:
                best = (key, a, got)
        if best is not None:
            a = best[1]
            groups[a].append((c, reach[c.id][a]))
            spent += best[2][1] - judged[a][1]
            judged[a] = best[2]
    trial.take(spent)
    places = {c.id: a for a, group in groups.items() for c, _ in group}
    return places, sum(j[2] for j in judged.values()), all(j[0] for j in judged.values())


# ----------------------------------------------------------------- 5. the reserve


def rest(b: Any, lvl: Any, reserve: list[str], budget: logistics.Budget) -> None:
    """Reserve corps stay where they are supplied, else go to the area next to them where they lose least."""
    for cid in reserve:
        c = b.state.units.get(cid)
        if not isinstance(c, Corps):
            continue
        reach = {cid: moves.reachable(b, c)}
        to = _spread(b, lvl, budget, [c], reach, c.location.site)[0].get(cid)
        if to is not None and to != c.location.site:
            moves.go(b, c, reach[cid][to][1])


__all__ = ["CAPITAL_TOLL", "REACH", "winter_quarters", "answer_incursions", "capital_toll", "storms", "guard_capitals", "hold_cities", "inside", "march", "rest", "review_sieges"]
