"""Field battle (11.2), the end of rounds, days and battles: breaking and victory, political points,
arrival of outflankers, reinforcement, the day's end, pursuit and retreat (11.2.10-11.2.13, 11.5).

Split out of ``combat.field`` (issue 14 item 4); the machine is ``combat.field_machine``.
"""

from __future__ import annotations

from typing import Any

from eiapbem.rules import engine, relations
from eiapbem.rules.combat import aftermath, casualties, retreat
from eiapbem.rules.combat.battle import (
    FIELD,
    ROLES,
    BattleSide,
    FieldBattle,
    cavalry,
    event,
    force_factors,
    intrinsic_ratings,
    is_corps,
    leader_data,
    leaders_with,
    other,
    side_powers,
    unit_factors,
    power_of_unit_id,
)
from eiapbem.rules.combat.commander import (
    combined_rating,
    seniority,
    strategic_rating,
)
from eiapbem.rules.combat.pursuit import pursuit_column
from eiapbem.rules.combat.tables_use import outflank_arrival_rating, percent_of
from eiapbem.rules.combat.field_machine import _ask, _label, _put, _stage
from eiapbem.rules.forces import outside_home, retreated
from eiapbem.rules.model.units import POOL, Corps, Garrison, Location, LocationKind
from eiapbem.rules.tables import land
from eiapbem.rules.engine import RulesContext

A, D = land.ATTACKER, land.DEFENDER
#: 11.2.10 (000:1818): at most 3 political points; a corps of more than 20 factors counts twice.
MAX_BATTLE_POLITICAL_POINTS = 3
BIG_CORPS_FACTORS = 20
NAPOLEON = "leader:FR:napoleon"
ROUGH = ("forest", "mountain", "marsh")


def fighting_units(state: Any, side: BattleSide) -> tuple[str, ...]:
    """Units in combat now: all but an outflanking force still on its way (000:1658)."""
    return tuple(u for u in side.units if (side.arrived or u not in side.outflanking) and unit_factors(state, u).total > 0)


# ----------------------------------------------------------------- end of a round (11.2.10)


def _pinning_gone(state: Any, side: BattleSide) -> bool:
    if not side.outflanking or side.arrived:
        return False
    return force_factors(state, tuple(u for u in side.units if u not in side.outflanking)).total == 0


def _artillery_only(state: Any, side: BattleSide) -> bool:
    f = force_factors(state, tuple(u for u in fighting_units(state, side) if side.arrived or u not in side.outflanking))
    return f.total > 0 and f.artillery == f.total


def _step_round_end(state: Any, battle: FieldBattle, ctx: engine.RulesContext) -> Any:
    elim = {r: force_factors(state, battle.side(r).units).total == 0 for r in ROLES}
    brk = {}
    for r in ROLES:
        s = battle.side(r)
        brk[r] = (s.morale_loss >= s.final_morale or _pinning_gone(state, s) or s.guard_broke
                  or _artillery_only(state, s))
    for r in ROLES:  # a committed guard must break the other side this round (000:1748)
        s = battle.side(r)
        if s.guard_shift and not brk[other(r)] and not elim[other(r)]:
            brk[r] = True
    for r in ROLES:  # a pinning force is joined by its outflankers before it is gone (000:1814): no capture then
        if elim[r]:
            state, battle = aftermath.capture_leaders(state, battle, r, "its force was eliminated")
    if elim[A] and elim[D]:
        return _finish(state, battle, "none", "both forces were eliminated")
    for r in ROLES:
        if elim[other(r)]:
            note = " (it had broken, but the enemy is gone)" if brk[r] else ""
            return _victory(state, battle, r, f"the {other(r)} was eliminated{note}", pursue=False)
    if brk[A] and brk[D]:
        battle = battle.with_side(battle.attacker.replace(retreat=True, broken=True))
        battle = battle.with_side(battle.defender.replace(broken=True))
        return _finish(state, battle, "none", "both sides broke; the attacker retreats", stage="retreat")
    for r in ROLES:
        if brk[r]:
            battle = battle.with_side(battle.side(r).replace(broken=True, retreat=True))
            return _victory(state, battle, other(r), f"the {r} broke", pursue=True)
    if battle.round < 3:
        return _stage(state, battle, "arrival")
    return _stage(state, battle, "day-end")


def _victory(state: Any, battle: FieldBattle, winner: str, why: str, *, pursue: bool) -> Any:
    battle = battle.replace(winner=winner, result=f"{winner} wins in {battle.area}: {why}")
    battle = event(battle, "battle.victory", battle.result, winner=winner)
    if battle.kind == FIELD:
        state, battle = _political_points(state, battle, winner)
    return _stage(state, battle, "pursuit" if pursue else "retreat")


def _finish(state: Any, battle: FieldBattle, winner: str, why: str, *, stage: str = "after") -> Any:
    battle = battle.replace(winner=winner, result=f"{battle.area}: {why}")
    battle = event(battle, "battle.result", battle.result, winner=winner)
    return _stage(state, battle, stage)


def _political_points(state: Any, battle: FieldBattle, winner: str) -> tuple[Any, FieldBattle]:
    """½ per corps of the loser (a corps of 20+ factors counts twice), rounded up, at most 3; Napoleon ± (000:1818-1822)."""
    loser = battle.side(other(winner))
    victor = battle.side(winner)
    count = sum(2 if u in loser.big_corps else 1 for u in loser.corps_used)
    base = min(MAX_BATTLE_POLITICAL_POINTS, (count + 1) // 2)
    gain = base + (1 if victor.commander == NAPOLEON else 0)
    loss = base + (2 if loser.commander == NAPOLEON else 0)
    if victor.power is not None:
        state = state.with_power(victor.power, political_status=state.powers[victor.power].political_status + gain)
    if loser.power is not None:
        state = state.with_power(loser.power, political_status=state.powers[loser.power].political_status - loss)
    battle = event(battle, "battle.political-points",
                    f"{victor.power or winner} gains {gain} political points, {loser.power or other(winner)} loses {loss} "
                    f"({count} corps counted)", gain=gain, loss=loss, corps=count)
    return state, battle


# ----------------------------------------------------------------- arrival, reinforcement (11.2.11-11.2.12)


def _step_arrival(state: Any, battle: FieldBattle, ctx: engine.RulesContext) -> Any:
    if battle.kind == FIELD:
        pairing = land.operational_possibility(battle.attacker.chit, battle.defender.chit)
        if pairing.outflanker is not None:
            side = battle.side(pairing.outflanker)
            if not side.arrived and side.outflanking:
                rating = strategic_rating(state, side, ctx.world)
                if "E" in pairing.notes and side.role == A:
                    rating += land.NOTE_STRATEGIC_BONUS
                mod = outflank_arrival_rating(rating, after_round=battle.round, terrain=battle.terrain)
                die = ctx.dice.d6(_label(battle, f"round{battle.round}/outflank/{side.role}"))
                ok = die <= mod
                battle = battle.with_side(side.replace(arrived=ok))
                battle = event(battle, "battle.arrival",
                                f"{side.role} outflanking force: random number {die} against rating {mod}: "
                                f"{'arrives' if ok else 'not yet'}", role=side.role, die=die, rating=mod, arrived=ok)
                if not ok and battle.round == 1 and "D" in pairing.notes:
                    dside = battle.defender.replace(retreat=True)
                    battle = battle.with_side(dside)
                    return _finish(state, battle, "none",
                                   "the outflankers did not arrive; the defender withdraws unpursued (note D)",
                                   stage="retreat")
    return _stage(state, battle, "reinforce")


def _adjacent_friends(state: Any, battle: FieldBattle, role: str, ctx: engine.RulesContext) -> dict[str, tuple[str, ...]]:
    """The forces that may attempt to reinforce ``side``, by adjacent area (11.2.11, 000:1868-1882): its power's corps
    and its allies' at war with every power of the other side (no neutral joins a battle), and only those that can
    succeed: a strategic rating of 1 or more after the terrain/river reduction (000:1882)."""
    side = battle.side(role)
    if side.power is None:
        return {}
    friends = {side.power} | set(relations.allies(state, side.power))
    foes = _foes(state, battle.side(other(role)))
    # not in another combat this month, running or fought (000:1872; "will take part" is the caller's to know)
    month = f"battle:{state.date}:"
    busy = {u for b in state.battles.values() if b.id.startswith(month) for r in ROLES for u in b.side(r).units}
    out: dict[str, list[str]] = {}
    for nb in ctx.map.land_neighbours(battle.area):
        if nb in side.reinforce_tried:
            continue
        for uid, u in state.units.items():
            if (isinstance(u, Corps) and u.location == Location(LocationKind.AREA, nb) and u.factors.total > 0
                    and uid not in busy and (p := relations.unit_power(state, u)) in friends
                    and (p == side.power or all(relations.at_war(state, p, f) for f in foes))
                    and outside_home(ctx.map, u, battle.area) is None):  # 13.2.1, 13.2.4: not out of its home
                out.setdefault(nb, []).append(uid)
    able = {}
    for area, units in sorted(out.items()):
        best, ratings = _reinforce_ratings(state, battle, area, tuple(units), ctx)
        if best is not None:
            if ratings[0] > 0:
                able[area] = tuple(units)
        elif any(r > 0 for r in ratings):
            able[area] = tuple(u for u, r in zip(units, ratings) if r > 0)
    return able


def _foes(state: Any, side: BattleSide) -> tuple[str, ...]:
    """Whom a reinforcement fights: the other side's major powers, or its units' nations (a neutral minor, 6.15)."""
    return side_powers(state, side) or tuple(sorted({state.units[u].nation for u in side.units if u in state.units}))


def _reinforce_ratings(state: Any, battle: FieldBattle, area: str, units: tuple[str, ...],
                       ctx: engine.RulesContext) -> tuple[str | None, tuple[int, ...]]:
    """11.2.11 (000:1878-1882): with a leader, the most senior one's strategic rating for the whole group (returned as
    the only rating); without, each corps' intrinsic strategic rating; less 1 from a forest, mountain or marsh area or
    across a river."""
    penalty = -1 if (ctx.map.area(area).terrain in ROUGH or ctx.map.is_river(area, battle.area)) else 0
    leaders = leaders_with(state, units)
    if leaders:
        best = min(leaders, key=lambda lid: (seniority(ctx.world, lid), -int(leader_data(ctx.world, lid).get("strategic", 0))))
        return best, (int(leader_data(ctx.world, best).get("strategic", 0)) + penalty,)
    return None, tuple(intrinsic_ratings(state, (u,))[0] + penalty for u in units)


def _step_reinforce(state: Any, battle: FieldBattle, ctx: engine.RulesContext) -> Any:
    for role in ROLES:
        areas = _adjacent_friends(state, battle, role, ctx)
        if areas:
            return _ask(state, battle, role, "reinforce", tuple(f"area:{a}" for a in areas) + ("none",), ctx)
    return _stage(state, battle, "round-start")


def _answer_reinforce(state: Any, battle: FieldBattle, role: str, choice: str, ctx: RulesContext) -> Any:
    side = battle.side(role)
    areas = _adjacent_friends(state, battle, role, ctx)
    if choice == "none":
        return _put(state, battle.with_side(side.replace(reinforce_tried=tuple(sorted(set(side.reinforce_tried) | set(areas))))))
    area = choice.split(":", 1)[1]
    units = areas[area]
    side = side.replace(reinforce_tried=tuple(sorted(set(side.reinforce_tried) | {area})))
    best, ratings = _reinforce_ratings(state, battle, area, units, ctx)
    joined: list[str] = []
    base = f"round{battle.round}/reinforce/{role}/{area}"
    if best is not None:
        rating = ratings[0]
        die = ctx.dice.d6(_label(battle, base))
        if die <= rating:
            joined = list(units)
        battle = event(battle, "battle.reinforce", f"{role} reinforcement from {area} under {best}: random number {die} "
                        f"against {rating}: {'arrives' if joined else 'fails'}", role=role, area=area, die=die, rating=rating)
    else:
        for u, rating in zip(units, ratings):
            die = ctx.dice.d6(_label(battle, f"{base}/{u}"))
            if die <= rating:
                joined.append(u)
            battle = event(battle, "battle.reinforce", f"{role} reinforcement {u} from {area}: random number {die} "
                            f"against {rating}: {'arrives' if die <= rating else 'fails'}", role=role, area=area, die=die,
                            rating=rating, unit=u)
    for u in joined:
        unit = state.units[u]
        state = state.with_unit(unit.replace(location=Location(LocationKind.AREA, battle.area), besieging=False))
        if unit.besieging:  # it leaves the siege of its area's city to fight here (11.4: besiegers stay in that area)
            battle = event(battle, "battle.siege-left", f"{u} leaves its siege of the city of {area} to join the battle "
                           f"in {battle.area}", role=role, unit=u, area=area)
    if joined:
        big = {u for u in joined if unit_factors(state, u).total > BIG_CORPS_FACTORS}
        side = side.replace(units=tuple(side.units) + tuple(joined), big_corps=tuple(sorted(set(side.big_corps) | big)))
        new_leaders = leaders_with(state, tuple(joined))
        if new_leaders:
            best = min(new_leaders, key=lambda lid: (seniority(ctx.world, lid), -combined_rating(ctx.world, lid)))
            if side.commander is None or seniority(ctx.world, best) < seniority(ctx.world, side.commander):
                side = side.replace(commander=best)
                battle = event(battle, "battle.commander", f"{best} arrives and takes command of the {role}",
                                role=role, leader=best)
    return _put(state, battle.with_side(side))


def _auto_reinforce(state: Any, battle: FieldBattle, side: BattleSide, options: tuple[str, ...], ctx: RulesContext) -> str:
    return "none"


# ----------------------------------------------------------------- end of a day (11.2.13, 11.5)


def _step_day_end(state: Any, battle: FieldBattle, ctx: engine.RulesContext) -> Any:
    for role in ROLES:
        if not battle.side(role).end_choice:
            state = _ask(state, battle, role, "day-end", ("fight", "withdraw"), ctx)
            battle = state.battles[battle.id]
    if not (battle.attacker.end_choice and battle.defender.end_choice):
        return state
    wa, wd = battle.attacker.end_choice == "withdraw", battle.defender.end_choice == "withdraw"
    if wa and wd:
        battle = battle.with_side(battle.attacker.replace(retreat=True)).with_side(battle.defender.replace(retreat=True))
        return _finish(state, battle, "none", "both sides withdraw after the day", stage="retreat")
    if wa or wd:
        loser = A if wa else D
        battle = battle.with_side(battle.side(loser).replace(retreat=True))
        battle = battle.replace(winner="none", result=f"{battle.area}: the {loser} withdraws after day {battle.day}")
        battle = event(battle, "battle.result", battle.result, winner="none")
        return _stage(state, battle, "pursuit")
    state, battle = aftermath.remove_emptied(state, battle, garrisons=False)
    battle = battle.replace(day=battle.day + 1, round=0)
    for role in ROLES:
        battle = battle.with_side(battle.side(role).replace(chit="", outflanking=(), arrived=False, end_choice=""))
    battle = event(battle, "battle.day", f"both sides fight on: day {battle.day}")
    return _stage(state, battle, "chits" if battle.kind == FIELD else "day-start")


def _answer_day_end(state: Any, battle: FieldBattle, role: str, choice: str, ctx: RulesContext) -> Any:
    return _put(state, battle.with_side(battle.side(role).replace(end_choice=choice)))


def _auto_day_end(state: Any, battle: FieldBattle, side: BattleSide, options: tuple[str, ...], ctx: RulesContext) -> str:
    return "fight"


# ----------------------------------------------------------------- pursuit (11.2.10)


def _step_pursuit(state: Any, battle: FieldBattle, ctx: engine.RulesContext) -> Any:
    loser_role = A if battle.attacker.retreat else D
    victor = battle.side(other(loser_role))
    state = _stage(state, battle, "retreat")
    cav = cavalry(force_factors(state, victor.units))
    if cav == 0 or force_factors(state, battle.side(loser_role).units).total == 0:
        return state
    if _pursuit_column(battle, victor, battle.side(loser_role)) is None:
        return _put(state, event(state.battles[battle.id], "battle.pursuit",
                                  "no pursuit is possible (pursuit class below 1)", role=victor.role))
    return _ask(state, state.battles[battle.id], victor.role, "pursue", ("pursue", "no-pursuit"), ctx)


def _answer_pursue(state: Any, battle: FieldBattle, role: str, choice: str, ctx: RulesContext) -> Any:
    if choice != "pursue":
        return _put(state, event(battle, "battle.pursuit", f"the {role} does not pursue", role=role))
    victor, loser = battle.side(role), battle.side(other(role))
    column = _pursuit_column(battle, victor, loser)
    assert column is not None
    cav_factors = force_factors(state, victor.units)
    cav = cavalry(cav_factors)
    leader_bonus = _cavalry_leader(state, victor, ctx.world)
    die = ctx.dice.d6(f"battle/{battle.id}/pursuit")
    rn = die + (land.PURSUIT_CAVALRY_LEADER_MODIFIER if leader_bonus else 0)
    pct = land.pursuit_loss_percent(rn, column)
    points = percent_of(pct, cav)
    battle = event(battle, "battle.pursuit",
                    f"pursuit class {column} with {cav} cavalry: random number {die}"
                    + (f" +1 ({leader_bonus})" if leader_bonus else "") + f" = {rn}: {pct}% = {points} pursuit losses",
                    role=role, column=column, cavalry=cav, die=die, random_number=rn, percent=pct, losses=points)
    loser = loser.replace(pending_loss=points * casualties.PURSUIT_COST["cavalry"], loss_mode="pursuit")
    return _put(state, battle.with_side(loser).replace(stage="pursuit-losses"))


def _pursuit_column(battle: FieldBattle, victor: BattleSide, loser: BattleSide) -> int | None:
    """Class table (victor's morale loss, rounds; "3+" after day 1), class 1 against an unbroken withdrawal, terrain."""
    rounds = 3 if battle.day > 1 else battle.rounds_fought
    return pursuit_column(victor.morale_loss, max(1, rounds), terrain=battle.terrain,
                          loser_withdrew_unbroken=not loser.broken)


def _cavalry_leader(state: Any, side: BattleSide, world: Any) -> str:
    """A cavalry leader on the side whose power has cavalry in the pursuit (000:1830, 13.8.8)."""
    for lid in leaders_with(state, side.units):
        if leader_data(world, lid).get("cavalry"):
            power = lid.split(":")[1]
            if any(cavalry(unit_factors(state, u)) > 0 and power_of_unit_id(state, u) == power for u in side.units):
                return lid
    return ""


def _step_after_pursuit(state: Any, battle: FieldBattle, ctx: engine.RulesContext) -> Any:
    loser_role = A if battle.attacker.retreat else D
    if force_factors(state, battle.side(loser_role).units).total == 0:
        state, battle = aftermath.capture_leaders(state, battle, loser_role, "eliminated by pursuit")
    return _stage(state, battle, "retreat")


def _auto_pursue(state: Any, battle: FieldBattle, side: BattleSide, options: tuple[str, ...], ctx: RulesContext) -> str:
    return "pursue"


# ----------------------------------------------------------------- retreat, capture, surrender


def _step_retreat(state: Any, battle: FieldBattle, ctx: engine.RulesContext) -> Any:
    for role in ROLES:
        side = battle.side(role)
        if not side.retreat:
            continue
        captor = battle.side(other(role)).power
        garrisons = tuple(u for u in side.units if isinstance(state.units[u], Garrison))
        if garrisons:
            state, n = aftermath.surrender(state, battle, garrisons, captor)
            if n:
                battle = event(battle, "battle.surrender", f"{role} depot garrisons cannot retreat: {n} factors surrender",
                                role=role, factors=n)
        corps = tuple(u for u in side.units if is_corps(state, u) and unit_factors(state, u).total > 0)
        if not corps:
            continue
        powers = side_powers(state, side)
        at_war = {q for p in powers for q in relations.enemies(state, p)}
        enemies = tuple(sorted(set(side_powers(state, battle.side(other(role)))) | at_war))
        path = retreat.retreat_path(state, ctx.map, battle.area, powers, enemies,
                                    lambda u: relations.unit_power(state, u))
        if path is None:
            state, n = aftermath.surrender(state, battle, corps, captor)
            state, battle = aftermath.capture_leaders(state, battle, role, "no retreat route; the force surrenders")
            battle = event(battle, "battle.surrender", f"{role} has no retreat route: {n} factors surrender",
                            role=role, factors=n)
            continue
        for u in corps:
            state = state.with_unit(retreated(ctx.map, state.units[u], path))
        battle = event(battle, "battle.retreat", f"{role} retreats {' -> '.join((battle.area,) + path)}",
                        role=role, to=path[-1], path=" ".join(path))
        for u in corps:
            if state.units[u].location == POOL:
                battle = event(battle, "battle.stand-down", f"{u} is compelled to retreat out of its home nation's "
                               "provinces and stands down, keeping its factors (13.2.4)", role=role, unit=u)
    return _stage(state, battle, "after")


def _step_after(state: Any, battle: FieldBattle, ctx: engine.RulesContext) -> Any:
    state, battle = aftermath.leader_casualties(state, battle, ctx)
    state, battle = aftermath.destroy_depots(state, battle)
    state, battle = aftermath.remove_emptied(state, battle)
    for hook in engine.hooks("battle.after"):  # the land phase's: 13.2.1, Spain's lost combats raise guerrillas
        state, battle = hook(state, battle, ctx)
    for role in ROLES:
        battle = battle.with_side(battle.side(role).replace(outflanking=(), arrived=False))
    if not battle.result:
        battle = battle.replace(result=f"{battle.area}: the battle ends", winner="none")
    return _stage(state, battle, "done")
