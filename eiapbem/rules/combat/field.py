"""Field combat (11.2) and trivial combat (11.3) as a decision-driven state machine.

``start_field_battle`` records a ``FieldBattle`` in ``GameState.battles`` and
runs it until the first question; every question is a ``PendingDecision`` of
kind ``battle.*`` answered with ``engine.AnswerDecision``; after each answer
the machine runs on to the next question or to the end.  The automatic parts
(chit reveal, withdrawal, morale, rounds, arrival, breaking, political points,
pursuit, retreat, depots, leader casualties, removal of emptied corps) are
steps of the machine.  The battle's ``stage`` names the step to run next.

Questions (kind, who, answers):

- ``battle.commander``: a side's owner, when leaders of equal top seniority
  tie (13.8.6, 000:2692): a leader id;
- ``battle.chit``: each side (11.2.1): an operational possibilities chit;
  outflank only with two non-artillery corps, or a depot garrison and one
  corps (000:1622).  A minor country's corps alone, and the defender under
  PBEM quick combat (4.1.1), take a standing-order chit or a random one
  (000:1648-1650);
- ``battle.outflank``: the outflanker (11.2.2): ``add:<corps>`` one at a time, then ``done``;
- ``battle.guard``: the attacker before each round, once a day, with the
  optional rule (11.2.8): ``none``, ``+1`` or ``+2``;
- ``battle.casualties``: the losing side, one factor at a time (``casualties.py``);
- ``battle.reinforce``: each side after rounds 1 and 2 (11.2.11): ``area:<slug>`` or ``none``;
- ``battle.day-end``: each side after round 3 (11.2.13): ``fight`` or ``withdraw``;
- ``battle.pursue``: the victor (11.2.10): ``pursue`` or ``no-pursuit``.

A side with no major power behind it (a neutral minor's force) answers
everything automatically.  Dice are drawn only from ``ctx.dice`` with labels
``battle/<id>/day<d>/round<r>/<role>`` and the like, so a battle stopped after
any decision and resumed from the encoded state ends the same way.
"""

from __future__ import annotations

from typing import Any, Callable

from eiapbem.core.errors import IllegalAction
from eiapbem.rules import engine
from eiapbem.rules.combat import aftermath, casualties, retreat, trivial
from eiapbem.rules.combat.battle import (
    FIELD,
    ROLES,
    TRIVIAL,
    BattleSide,
    FieldBattle,
    cavalry,
    controlling_power,
    event,
    force_factors,
    intrinsic_ratings,
    is_artillery_corps,
    is_corps,
    is_irregular,
    leader_data,
    leaders_with,
    morale_value,
    other,
    side_powers,
    unit_factors,
    unit_power,
)
from eiapbem.rules.combat.commander import (
    combined_rating,
    commander_candidates,
    commander_nation,
    seniority,
    strategic_rating,
    tactical_rating,
)
from eiapbem.rules.combat.morale import base_morale, chart_morale_modifier, final_morale
from eiapbem.rules.combat.pursuit import pursuit_column
from eiapbem.rules.combat.tables_use import outflank_arrival_rating, percent_of, round_tables
from eiapbem.rules.model.base import FrozenMap
from eiapbem.rules.model.common import POWERS, FactorType
from eiapbem.rules.model.decisions import PendingDecision
from eiapbem.rules.model.units import Corps, CorpsType, Garrison, Location, LocationKind
from eiapbem.rules.tables import land

A, D = land.ATTACKER, land.DEFENDER
#: 11.2.10 (000:1818): at most 3 political points; a corps of more than 20 factors counts twice.
MAX_BATTLE_POLITICAL_POINTS = 3
BIG_CORPS_FACTORS = 20
NAPOLEON = "leader:FR:napoleon"
ROUGH = ("forest", "mountain", "marsh")


class BattleRefused(IllegalAction):
    """A battle cannot start with these forces."""


# ================================================================= start


from eiapbem.rules.combat import external  # noqa: E402  (registers battle.external-result)


def start_field_battle(
    state: Any,
    area: str,
    attacker: tuple[str, ...] | list[str],
    defender: tuple[str, ...] | list[str],
    ctx: engine.RulesContext,
    *,
    river_crossing: bool = False,
    attacker_power: str | None = None,
    defender_power: str | None = None,
) -> engine.Outcome:
    """Begin a field (or, where 11.3 says so, trivial) combat in ``area`` and run it to the first question.

    ``attacker`` and ``defender`` are the ids of the corps and depot garrisons
    of each side in the area (11.1: forces inside cities never take part).
    ``river_crossing``: every attacking force entered across a river or
    crossing arrow or from the sea (000:1714).  The powers default to the
    controlling power of each side's first unit.
    """
    if state.slot is None:
        raise BattleRefused("the game is over; no battle can start")
    attacker, defender = tuple(attacker), tuple(defender)
    for role, units in ((A, attacker), (D, defender)):
        if not units:
            raise BattleRefused(f"the {role} has no units; a battle needs forces on both sides")
        for u in units:
            unit = state.units.get(u)
            if not isinstance(unit, (Corps, Garrison)):
                raise BattleRefused(f"{u} is not a corps or depot garrison on the map")
            if unit.location != Location(LocationKind.AREA, area):
                raise BattleRefused(f"{u} is at {unit.location}, not in the field of {area} (11.1)")
        if force_factors(state, units).total == 0:
            raise BattleRefused(f"the {role}'s units have no army factors")
    if set(attacker) & set(defender):
        raise BattleRefused("a unit cannot fight on both sides")
    terrain = ctx.map.area(area).terrain
    prefix = f"battle:{state.date}:{area}:"
    n = sum(1 for k in state.battles if k.startswith(prefix))
    bid = f"{prefix}{n}"
    is_triv, why = trivial.is_trivial(state, attacker, defender)
    sides = {}
    for role, units, power in ((A, attacker, attacker_power), (D, defender, defender_power)):
        p = power if power is not None else unit_power(state, units[0])
        big = tuple(u for u in units if is_corps(state, u) and unit_factors(state, u).total > BIG_CORPS_FACTORS)
        groups = [(unit_factors(state, u).get(k), morale_value(state, ctx.world, u, k)) for u in units for k in FactorType
                  if unit_factors(state, u).get(k) > 0]
        sides[role] = BattleSide(role=role, power=p, units=units, big_corps=big, base_morale=base_morale(groups))
    battle = FieldBattle(
        id=bid,
        kind=TRIVIAL if is_triv else FIELD,
        area=area,
        terrain=terrain,
        river_crossing=river_crossing,
        attacker=sides[A],
        defender=sides[D],
        # 4.1.1 Third Party Combat System: the result comes from outside (``combat.external``).
        stage=external.STAGE if not is_triv and external.applies(state, sides[A].power, sides[D].power) else "commander",
    )
    text = (f"{'Trivial' if is_triv else 'Field'} combat in {area} ({terrain}): "
            f"{force_factors(state, attacker).total} attacking factors against {force_factors(state, defender).total}")
    battle = event(battle, "battle.start", text + (f"; {why}" if why else ""), combat=battle.kind,
                    attacker_base_morale=sides[A].base_morale, defender_base_morale=sides[D].base_morale)
    state = state.replace(battles=state.battles.set(bid, battle))
    out = engine.log(state, "game", "battle.start", text, battle=bid)
    return out.then(run(out.state, bid, ctx))


# ================================================================= the machine


def run(state: Any, bid: str, ctx: engine.RulesContext) -> engine.Outcome:
    """Run automatic steps until a question is pending or the battle is over."""
    guard = 0
    was_finished = state.battles[bid].finished
    while True:
        battle = state.battles[bid]
        if battle.finished or _waiting(state, bid) or battle.stage == external.STAGE:
            break
        guard += 1
        if guard > 10000:  # pragma: no cover - a machine bug, never a player's doing
            raise RuntimeError(f"battle {bid} does not progress at stage {battle.stage}")
        state = _STEPS[battle.stage](state, battle, ctx)
    battle = state.battles[bid]
    if battle.finished and not was_finished:
        return engine.log(state, "game", "battle.end", battle.result, battle=bid, winner=battle.winner)
    return engine.Outcome(state)


def _waiting(state: Any, bid: str) -> bool:
    return any(d.context.get("battle") == bid for d in state.pending.values())


def _put(state: Any, battle: FieldBattle) -> Any:
    return state.replace(battles=state.battles.set(battle.id, battle))


def _label(battle: FieldBattle, what: str) -> str:
    return f"battle/{battle.id}/day{battle.day}/{what}"


def _stage(state: Any, battle: FieldBattle, stage: str) -> Any:
    return _put(state, battle.replace(stage=stage))


# ----------------------------------------------------------------- asking


def _automatic(state: Any, battle: FieldBattle, side: BattleSide, what: str) -> bool:
    if side.power is None:
        return True
    if what == "chit":
        minor_alone = side.role == D and all(state.units[u].nation not in POWERS for u in side.units)
        quick = state.options.pbem_quick_combat and side.role == D
        return minor_alone or quick
    return False


def _ask(state: Any, battle: FieldBattle, role: str, what: str, options: tuple[str, ...],
         ctx: engine.RulesContext, **context: Any) -> Any:
    """Post a question, or answer it at once for an automatic side."""
    side = battle.side(role)
    if _automatic(state, battle, side, what):
        choice = _AUTO[what](state, battle, side, options, ctx)
        return _ANSWER[what](state, battle, role, choice, ctx)
    did = f"{battle.id}/{battle.asked}"
    assert state.slot is not None and side.power is not None
    dec = PendingDecision(
        id=did, power=side.power, kind=f"battle.{what}", options=options, slot=state.slot.key(state.date),
        context=FrozenMap(dict(battle=battle.id, role=role, area=battle.area, day=battle.day, round=battle.round, **context)),
    )
    state = _put(state, battle.replace(asked=battle.asked + 1))
    return state.replace(pending=state.pending.set(did, dec))


def _verify_answer(state: Any, power: str, decision: PendingDecision, choice: str, ctx: engine.RulesContext) -> None:
    bid = decision.context.get("battle")
    battle = state.battles.get(bid) if isinstance(bid, str) else None
    if battle is None or battle.finished:
        raise IllegalAction(f"decision {decision.id} belongs to no battle in progress")
    if decision.kind == "battle.casualties":
        side = battle.side(str(decision.context["role"]))
        if choice not in casualties.loss_options(state, battle, side):
            raise IllegalAction(f"{choice!r} is not a loss {side.role} may take now")


def _apply_answer(state: Any, power: str, decision: PendingDecision, choice: str, ctx: engine.RulesContext) -> engine.Outcome:
    state = state.replace(pending=state.pending.remove(decision.id))
    bid = str(decision.context["battle"])
    what = decision.kind.split(".", 1)[1]
    state = _ANSWER[what](state, state.battles[bid], str(decision.context["role"]), choice, ctx)
    return run(state, bid, ctx)


engine.register_decision("battle", verify=_verify_answer, apply=_apply_answer)


# ----------------------------------------------------------------- commanders (13.8.5-13.8.7)


def _step_commander(state: Any, battle: FieldBattle, ctx: engine.RulesContext) -> Any:
    for role in ROLES:
        side = battle.side(role)
        if side.commander_chosen:
            continue
        cands = commander_candidates(state, side, ctx.world)
        if len(cands) > 1:
            return _ask(state, battle, role, "commander", cands, ctx)
        return _answer_commander(state, battle, role, cands[0] if cands else "", ctx)
    return _stage(state, battle, "chits" if battle.kind == FIELD else "day-start")


def _answer_commander(state: Any, battle: FieldBattle, role: str, choice: str, ctx: Any) -> Any:
    side = battle.side(role).replace(commander=choice or None, commander_chosen=True)
    battle = battle.with_side(side)
    who = choice or "intrinsic ratings (no leader)"
    return _put(state, event(battle, "battle.commander", f"{role} commanded by {who}", role=role, leader=choice or None))


# ----------------------------------------------------------------- chits (11.2.1-11.2.3)


def _regular_corps(state: Any, units: tuple[str, ...]) -> list[str]:
    return [u for u in units if is_corps(state, u) and not is_irregular(state, u) and not is_artillery_corps(state, u)
            and unit_factors(state, u).total > 0]


def may_outflank(state: Any, side: BattleSide) -> bool:
    """Two non-artillery corps, or a depot garrison and one corps (000:1622)."""
    regular = _regular_corps(state, side.units)
    garrison = any(isinstance(state.units[u], Garrison) and unit_factors(state, u).total > 0 for u in side.units)
    return len(regular) >= 2 or (garrison and len(regular) >= 1)


def chit_options(state: Any, side: BattleSide) -> tuple[str, ...]:
    chits = land.ATTACKER_CHITS if side.role == A else land.DEFENDER_CHITS
    return tuple(c for c in chits if c != "outflank" or may_outflank(state, side))


def _step_chits(state: Any, battle: FieldBattle, ctx: engine.RulesContext) -> Any:
    for role in ROLES:
        side = battle.side(role)
        if not side.chit:
            state = _ask(state, battle, role, "chit", chit_options(state, side), ctx)
            battle = state.battles[battle.id]
    if battle.attacker.chit and battle.defender.chit:
        pairing = land.operational_possibility(battle.attacker.chit, battle.defender.chit)
        return _stage(state, battle, "outflank-split" if pairing.outflanker else "reveal")
    return state


def _auto_chit(state: Any, battle: FieldBattle, side: BattleSide, options: tuple[str, ...], ctx: Any) -> str:
    if side.power is not None:
        orders = state.powers[side.power].standing_orders.battle_chits
        for u in side.units:
            if orders.get(u) in options:
                return orders[u]
    return options[ctx.dice.roll(_label(battle, f"chit/{side.role}"), len(options)) - 1]


def _answer_chit(state: Any, battle: FieldBattle, role: str, choice: str, ctx: Any) -> Any:
    return _put(state, battle.with_side(battle.side(role).replace(chit=choice)))


# ----------------------------------------------------------------- outflank split (11.2.2)


def _split_options(state: Any, side: BattleSide) -> tuple[str, ...]:
    pinning_regular = [u for u in _regular_corps(state, side.units) if u not in side.outflanking]
    garrison = any(isinstance(state.units[u], Garrison) and unit_factors(state, u).total > 0 for u in side.units)
    out = []
    if len(pinning_regular) >= 2 or (garrison and pinning_regular):
        out.extend(f"add:{u}" for u in pinning_regular)
    if any(u in side.outflanking and not is_irregular(state, u) for u in side.units) or not out:
        out.append("done")
    return tuple(out)


def _step_outflank_split(state: Any, battle: FieldBattle, ctx: engine.RulesContext) -> Any:
    pairing = land.operational_possibility(battle.attacker.chit, battle.defender.chit)
    side = battle.side(pairing.outflanker)
    irregular = tuple(u for u in side.units
                      if is_corps(state, u) and state.units[u].corps_type in (CorpsType.COSSACK, CorpsType.FREIKORPS))
    if not set(irregular) <= set(side.outflanking):
        side = side.replace(outflanking=tuple(side.outflanking) + irregular)
        battle = battle.with_side(side)
        state = _put(state, battle)
    return _ask(state, battle, side.role, "outflank", _split_options(state, side), ctx)


def _auto_split(state: Any, battle: FieldBattle, side: BattleSide, options: tuple[str, ...], ctx: Any) -> str:
    if any(u in side.outflanking and not is_irregular(state, u) for u in side.units) or options == ("done",):
        return "done"
    return [o for o in options if o.startswith("add:")][-1]


def _answer_split(state: Any, battle: FieldBattle, role: str, choice: str, ctx: Any) -> Any:
    side = battle.side(role)
    if choice == "done":
        names = ", ".join(side.outflanking) or "none"
        battle = event(battle, "battle.outflank", f"{role} outflanking force: {names}", role=role,
                        factors=force_factors(state, side.outflanking).total)
        return _put(state, battle.replace(stage="reveal"))
    unit = choice.split(":", 1)[1]
    return _put(state, battle.with_side(side.replace(outflanking=tuple(side.outflanking) + (unit,))))


# ----------------------------------------------------------------- reveal, morale, withdrawal (11.2.3-11.2.5)


def _set_final_morale(battle: FieldBattle) -> FieldBattle:
    for role in ROLES:
        side = battle.side(role)
        mod = 0
        if battle.kind == FIELD:
            pairing = land.operational_possibility(battle.attacker.chit, battle.defender.chit)
            mod = chart_morale_modifier(pairing, role, commander_nation(side))
        fm = final_morale(side.base_morale, battle.day, mod)
        battle = battle.with_side(side.replace(final_morale=fm))
        battle = event(battle, "battle.morale", f"{role} base morale {side.base_morale / 100:.2f}, "
                        f"final morale {fm / 100:.2f} on day {battle.day}" + (f" (chart +{mod / 100:.0f})" if mod else ""),
                        role=role, base=side.base_morale, final=fm, modifier=mod)
    return battle


def _step_reveal(state: Any, battle: FieldBattle, ctx: engine.RulesContext) -> Any:
    a, d = battle.attacker.chit, battle.defender.chit
    battle = event(battle, "battle.chits", f"attacker chose {a}, defender chose {d}", attacker=a, defender=d)
    battle = _set_final_morale(battle)
    if d == "withdrawal":
        return _stage(state, battle, "withdrawal")
    return _stage(state, battle, "round-start")


def _step_day_start(state: Any, battle: FieldBattle, ctx: engine.RulesContext) -> Any:
    """Trivial combat: no chits (000:1936)."""
    return _stage(state, _set_final_morale(battle), "round-start")


def _all_cavalry(state: Any, side: BattleSide) -> bool:
    corps = [u for u in side.units if is_corps(state, u) and unit_factors(state, u).total > 0]
    return bool(corps) and all(unit_factors(state, u).total == cavalry(unit_factors(state, u)) for u in corps)


def _step_withdrawal(state: Any, battle: FieldBattle, ctx: engine.RulesContext) -> Any:
    pairing = land.operational_possibility(battle.attacker.chit, battle.defender.chit)
    w = pairing.withdrawal
    assert w is not None
    if w.automatic:
        battle = event(battle, "battle.withdrawal", "the defender withdraws automatically against probe", success=True)
        return _withdraw_before_battle(state, battle)
    side = battle.defender
    rating = strategic_rating(state, side, ctx.world) + w.rating_modifier
    cav = _all_cavalry(state, side)
    if cav:
        rating += land.NOTE_STRATEGIC_BONUS  # note (H) and 11.2.4 "Cavalry Withdrawals", counted once
    die = ctx.dice.d6(_label(battle, "withdrawal"))
    ok = die <= rating
    battle = event(battle, "battle.withdrawal",
                    f"withdrawal: random number {die} against strategic rating {rating}: {'success' if ok else 'failure'}",
                    die=die, rating=rating, success=ok, cavalry=cav)
    if ok:
        return _withdraw_before_battle(state, battle)
    return _stage(state, battle, "round-start")


def _withdraw_before_battle(state: Any, battle: FieldBattle) -> Any:
    side = battle.defender.replace(retreat=True)
    battle = battle.with_side(side).replace(winner="none", result=f"the defender withdrew from {battle.area}; no combat")
    return _stage(state, battle, "retreat")


# ----------------------------------------------------------------- a round (11.2.6-11.2.9)


def fighting_units(state: Any, side: BattleSide) -> tuple[str, ...]:
    """Units in combat now: all but an outflanking force still on its way (000:1658)."""
    return tuple(u for u in side.units if (side.arrived or u not in side.outflanking) and unit_factors(state, u).total > 0)


def loss_basis(state: Any, side: BattleSide) -> int:
    """Factors that set the losses a side inflicts; arrived outflankers count twice (000:1718)."""
    pinning = force_factors(state, tuple(u for u in side.units if u not in side.outflanking)).total
    out = force_factors(state, tuple(side.outflanking)).total
    return pinning + (2 * out if side.arrived else 0)


def _step_round_start(state: Any, battle: FieldBattle, ctx: engine.RulesContext) -> Any:
    battle = battle.replace(round=battle.round + 1)
    for role in ROLES:  # cavalry superiority is judged at the beginning of the round (000:1780)
        side = battle.side(role)
        cav = cavalry(force_factors(state, fighting_units(state, side)))
        battle = battle.with_side(side.replace(guard_shift=0, guard_broke=False, reinforce_tried=(), round_cavalry=cav))
    state = _put(state, battle.replace(stage="guard"))
    return state


def guard_options(state: Any, battle: FieldBattle, side: BattleSide) -> tuple[str, ...]:
    """``none``, ``+1``, ``+2`` for the phasing (attacking) side's own guard (11.2.8, 000:1738-1742)."""
    if not state.options.guard_commitment or side.role != A or side.guard_day == battle.day or side.power is None:
        return ()
    nation = side.power
    guard = sum(unit_factors(state, u).guard for u in fighting_units(state, side)
                if state.units[u].nation == nation and getattr(state.units[u], "loaned_to", None) is None)
    opts = [f"+{shift}" for shift in land.GUARD_SHIFTS
            if nation in land.GUARD_SHIFT_NATIONS[shift] and guard >= land.GUARD_SHIFT_MIN_FACTORS[shift]]
    return ("none", *opts) if opts else ()


def _step_guard(state: Any, battle: FieldBattle, ctx: engine.RulesContext) -> Any:
    opts = guard_options(state, battle, battle.attacker)
    state = _stage(state, battle, "bombard")
    if opts:
        return _ask(state, state.battles[battle.id], A, "guard", opts, ctx)
    return state


def _answer_guard(state: Any, battle: FieldBattle, role: str, choice: str, ctx: Any) -> Any:
    if choice == "none":
        return state
    side = battle.side(role)
    shift = int(choice[1:])
    nation = side.power
    die = ctx.dice.d6(_label(battle, f"round{battle.round}/guard/{role}"))
    lost = land.guard_losses(die, shift)
    units = tuple(u for u in fighting_units(state, side) if state.units[u].nation == nation)
    state, removed = casualties.remove_guard(state, units, str(nation), lost)
    left = sum(unit_factors(state, u).guard for u in units)
    side = side.replace(guard_day=battle.day, guard_shift=shift, guard_nation=str(nation), guard_broke=left == 0,
                        factors_lost=side.factors_lost + removed)
    battle = battle.with_side(side)
    battle = event(battle, "battle.guard",
                    f"{role} commits the guard (+{shift}): random number {die}, {removed} guard factors lost"
                    + ("; no guard left, the side breaks without fighting" if left == 0 else ""),
                    role=role, shift=shift, die=die, lost=removed, broke=left == 0)
    return _put(state, battle)


def _step_bombard(state: Any, battle: FieldBattle, ctx: engine.RulesContext) -> Any:
    """Artillery fires on 5-5 before the round, casualties only; never in marsh (000:1752-1762)."""
    if battle.terrain != "marsh":
        inflicted = {}
        for role in ROLES:
            side = battle.side(role)
            art = sum(unit_factors(state, u).artillery for u in fighting_units(state, side))
            if art == 0 or side.guard_broke:
                continue
            die = ctx.dice.d6(_label(battle, f"round{battle.round}/bombard/{role}"))
            res = land.combat_result_for(land.ARTILLERY_BOMBARDMENT_TABLE, die)
            loss = percent_of(res.loss_percent, art)
            inflicted[other(role)] = loss
            battle = event(battle, "battle.bombard", f"{role} artillery ({art} factors) bombards on 5-5: random number "
                            f"{die}, {res.loss_percent}% = {loss} factors", role=role, artillery=art, die=die,
                            percent=res.loss_percent, losses=loss)
        for role, loss in inflicted.items():
            side = battle.side(role)
            battle = battle.with_side(side.replace(pending_loss=loss, loss_mode="bombard", cavalry_due=False))
    return _stage(state, battle, "bombard-losses")


def _modifiers(state: Any, battle: FieldBattle, ctx: engine.RulesContext) -> dict[str, list[tuple[str, int]]]:
    mods: dict[str, list[tuple[str, int]]] = {A: [], D: []}
    pairing = land.operational_possibility(battle.attacker.chit, battle.defender.chit) if battle.kind == FIELD else None
    ta = tactical_rating(state, battle.attacker, ctx.world)
    td = tactical_rating(state, battle.defender, ctx.world)
    if pairing is None or "F" not in pairing.notes:
        ma, md = land.commander_modifiers(ta, td)
        mods[A].append((f"commander chart {ta} vs {td}", ma))
        mods[D].append((f"commander chart {td} vs {ta}", md))
    cav = {r: battle.side(r).round_cavalry for r in ROLES}
    for r in ROLES:
        mine, theirs = cav[r], cav[other(r)]
        if mine > 0 and mine >= 2 * theirs:
            mods[r].append((f"cavalry superiority {mine} vs {theirs}", 1))
    if pairing is not None and "C" in pairing.notes:
        for r in ROLES:
            side = battle.side(r)
            nation = commander_nation(side) or side.power
            if nation == "AU":
                mods[r].append(("Austrian commander (note C)", 1))
    return mods


def _step_combat(state: Any, battle: FieldBattle, ctx: engine.RulesContext) -> Any:
    if battle.kind == FIELD:
        at, dt = round_tables(battle.attacker.chit, battle.defender.chit, battle.round, day=battle.day,
                              river_crossing=battle.river_crossing, outflank_arrived=_arrived(battle),
                              terrain=battle.terrain, attacker_guard_shift=battle.attacker.guard_shift,
                              defender_guard_shift=battle.defender.guard_shift)
    else:
        at, dt = trivial.trivial_tables(battle.terrain, battle.attacker.guard_shift, battle.defender.guard_shift)
    tables = {A: at, D: dt}
    mods = _modifiers(state, battle, ctx)
    tac = {r: tactical_rating(state, battle.side(r), ctx.world) for r in ROLES}
    inflicted: dict[str, tuple[int, int]] = {}
    for role in ROLES:
        side = battle.side(role)
        corps_now = tuple(u for u in side.units if is_corps(state, u) and unit_factors(state, u).total > 0)
        side = side.replace(corps_used=tuple(sorted(set(side.corps_used) | set(corps_now))))
        battle = battle.with_side(side)
        if side.guard_broke:
            inflicted[other(role)] = (0, 0)
            battle = event(battle, "battle.round", f"{role} does not fight (its committed guard is gone)", role=role)
            continue
        die = ctx.dice.d6(_label(battle, f"round{battle.round}/{role}"))
        total_mod = sum(v for _, v in mods[role])
        rn = land.combat_random_number(die, [v for _, v in mods[role]])
        res = land.combat_result_for(tables[role], rn)
        basis = loss_basis(state, side)
        loss = percent_of(res.loss_percent, basis)
        inflicted[other(role)] = (loss, res.morale_loss)
        why = "; ".join(f"{name} {v:+d}" for name, v in mods[role]) or "no modifiers"
        battle = event(
            battle, "battle.round",
            f"{role}: table {tables[role]}, random number {die} ({why}; net {min(1, total_mod):+d}) = {rn}: "
            f"{res.loss_percent}% of {basis} factors = {loss} losses and {res.morale_loss / 100:.2f} morale loss to the "
            f"{other(role)}",
            role=role, table=str(tables[role]), die=die, tactical=tac[role], modifier=min(land.RANDOM_NUMBER_MAX_MODIFIER, total_mod),
            random_number=rn, percent=res.loss_percent, basis=basis, losses=loss, morale_loss=res.morale_loss,
        )
    for role in ROLES:
        side = battle.side(role)
        loss, morale = inflicted[role]
        loss = min(loss, force_factors(state, side.units).total)
        mloss = side.morale_loss + morale
        side = side.replace(morale_loss=mloss, pending_loss=loss, loss_mode="combat",
                            cavalry_due=mloss >= side.final_morale)
        battle = battle.with_side(side)
        battle = event(battle, "battle.morale-loss", f"{role} morale loss {mloss / 100:.2f} of {side.final_morale / 100:.2f}",
                        role=role, morale_loss=mloss, final=side.final_morale)
    return _stage(state, battle.replace(rounds_fought=battle.rounds_fought + 1), "combat-losses")


def _arrived(battle: FieldBattle) -> bool:
    return any(battle.side(r).arrived for r in ROLES)


# ----------------------------------------------------------------- losses


def _losses_step(next_stage: str) -> Callable[[Any, FieldBattle, engine.RulesContext], Any]:
    def step(state: Any, battle: FieldBattle, ctx: engine.RulesContext) -> Any:
        for role in ROLES:
            side = battle.side(role)
            while side.pending_loss > 0:
                opts = casualties.loss_options(state, battle, side)
                if not opts:
                    side = side.replace(pending_loss=0)
                    break
                if len(opts) > 1:
                    battle = battle.with_side(side)
                    return _ask(_put(state, battle), battle, role, "casualties", opts, ctx, remaining=side.pending_loss)
                battle = _lossevent(battle, side, opts[0])
                state, side = casualties.take_loss(state, battle, side, opts[0])
            battle = battle.with_side(side.replace(loss_mode="", cavalry_due=False))
        return _stage(state, battle, next_stage)

    return step


def _auto_loss(state: Any, battle: FieldBattle, side: BattleSide, options: tuple[str, ...], ctx: Any) -> str:
    return casualties.default_loss(state, battle, side)


def _lossevent(battle: FieldBattle, side: BattleSide, choice: str) -> FieldBattle:
    unit, kind = choice.rsplit("/", 1)
    return event(battle, "battle.loss", f"{side.role} loses 1 {kind} factor of {unit} ({side.loss_mode})",
                  role=side.role, unit=unit, type=kind, mode=side.loss_mode)


def _answer_loss(state: Any, battle: FieldBattle, role: str, choice: str, ctx: Any) -> Any:
    battle = _lossevent(battle, battle.side(role), choice)
    state, side = casualties.take_loss(state, battle, battle.side(role), choice)
    return _put(state, battle.with_side(side))


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


def _adjacent_friends(state: Any, battle: FieldBattle, side: BattleSide, ctx: engine.RulesContext) -> dict[str, tuple[str, ...]]:
    if side.power is None:
        return {}
    friends = {side.power} | set(state.powers[side.power].alliances)
    # not in another combat this month, running or fought (000:1872; "will take part" is the caller's to know)
    month = f"battle:{state.date}:"
    busy = {u for b in state.battles.values() if b.id.startswith(month) for r in ROLES for u in b.side(r).units}
    out: dict[str, list[str]] = {}
    for nb in ctx.map.land_neighbours(battle.area):
        if nb in side.reinforce_tried:
            continue
        for uid, u in state.units.items():
            if (isinstance(u, Corps) and u.location == Location(LocationKind.AREA, nb) and u.factors.total > 0
                    and uid not in busy and controlling_power(state, u.nation, u.loaned_to) in friends):
                out.setdefault(nb, []).append(uid)
    return {k: tuple(v) for k, v in sorted(out.items())}


def _step_reinforce(state: Any, battle: FieldBattle, ctx: engine.RulesContext) -> Any:
    for role in ROLES:
        side = battle.side(role)
        areas = _adjacent_friends(state, battle, side, ctx)
        if areas:
            return _ask(state, battle, role, "reinforce", tuple(f"area:{a}" for a in areas) + ("none",), ctx)
    return _stage(state, battle, "round-start")


def _answer_reinforce(state: Any, battle: FieldBattle, role: str, choice: str, ctx: Any) -> Any:
    side = battle.side(role)
    areas = _adjacent_friends(state, battle, side, ctx)
    if choice == "none":
        return _put(state, battle.with_side(side.replace(reinforce_tried=tuple(sorted(set(side.reinforce_tried) | set(areas))))))
    area = choice.split(":", 1)[1]
    units = areas[area]
    side = side.replace(reinforce_tried=tuple(sorted(set(side.reinforce_tried) | {area})))
    penalty = -1 if (ctx.map.area(area).terrain in ROUGH or ctx.map.is_river(area, battle.area)) else 0
    leaders = leaders_with(state, units)
    joined: list[str] = []
    base = f"round{battle.round}/reinforce/{role}/{area}"
    if leaders:
        best = min(leaders, key=lambda lid: (seniority(ctx.world, lid), -int(leader_data(ctx.world, lid).get("strategic", 0))))
        rating = int(leader_data(ctx.world, best).get("strategic", 0)) + penalty
        die = ctx.dice.d6(_label(battle, base))
        if die <= rating:
            joined = list(units)
        battle = event(battle, "battle.reinforce", f"{role} reinforcement from {area} under {best}: random number {die} "
                        f"against {rating}: {'arrives' if joined else 'fails'}", role=role, area=area, die=die, rating=rating)
    else:
        for u in units:
            rating = intrinsic_ratings(state, (u,))[0] + penalty
            die = ctx.dice.d6(_label(battle, f"{base}/{u}"))
            if die <= rating:
                joined.append(u)
            battle = event(battle, "battle.reinforce", f"{role} reinforcement {u} from {area}: random number {die} "
                            f"against {rating}: {'arrives' if die <= rating else 'fails'}", role=role, area=area, die=die,
                            rating=rating, unit=u)
    for u in joined:
        unit = state.units[u]
        state = state.with_unit(unit.replace(location=Location(LocationKind.AREA, battle.area)))
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


def _auto_reinforce(state: Any, battle: FieldBattle, side: BattleSide, options: tuple[str, ...], ctx: Any) -> str:
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


def _answer_day_end(state: Any, battle: FieldBattle, role: str, choice: str, ctx: Any) -> Any:
    return _put(state, battle.with_side(battle.side(role).replace(end_choice=choice)))


def _auto_day_end(state: Any, battle: FieldBattle, side: BattleSide, options: tuple[str, ...], ctx: Any) -> str:
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


def _answer_pursue(state: Any, battle: FieldBattle, role: str, choice: str, ctx: Any) -> Any:
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
            if any(cavalry(unit_factors(state, u)) > 0 and unit_power(state, u) == power for u in side.units):
                return lid
    return ""


def _step_after_pursuit(state: Any, battle: FieldBattle, ctx: engine.RulesContext) -> Any:
    loser_role = A if battle.attacker.retreat else D
    if force_factors(state, battle.side(loser_role).units).total == 0:
        state, battle = aftermath.capture_leaders(state, battle, loser_role, "eliminated by pursuit")
    return _stage(state, battle, "retreat")


def _auto_pursue(state: Any, battle: FieldBattle, side: BattleSide, options: tuple[str, ...], ctx: Any) -> str:
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
        at_war = {q for p in powers for q in state.powers[p].wars}
        enemies = tuple(sorted(set(side_powers(state, battle.side(other(role)))) | at_war))
        path = retreat.retreat_path(state, ctx.map, battle.area, powers, enemies,
                                    lambda u: controlling_power(state, u.nation, getattr(u, "loaned_to", None)))
        if path is None:
            state, n = aftermath.surrender(state, battle, corps, captor)
            state, battle = aftermath.capture_leaders(state, battle, role, "no retreat route; the force surrenders")
            battle = event(battle, "battle.surrender", f"{role} has no retreat route: {n} factors surrender",
                            role=role, factors=n)
            continue
        for u in corps:
            state = state.with_unit(state.units[u].replace(location=Location(LocationKind.AREA, path[-1])))
        battle = event(battle, "battle.retreat", f"{role} retreats {' -> '.join((battle.area,) + path)}",
                        role=role, to=path[-1], path=" ".join(path))
    return _stage(state, battle, "after")


def _step_after(state: Any, battle: FieldBattle, ctx: engine.RulesContext) -> Any:
    state, battle = aftermath.leader_casualties(state, battle, ctx)
    state, battle = aftermath.destroy_depots(state, battle)
    state, battle = aftermath.remove_emptied(state, battle)
    from eiapbem.rules.land import guerrillas  # 13.2.1: Spain's lost combats raise guerrillas

    state, battle = guerrillas.after_battle(state, battle, ctx)
    for role in ROLES:
        battle = battle.with_side(battle.side(role).replace(outflanking=(), arrived=False))
    if not battle.result:
        battle = battle.replace(result=f"{battle.area}: the battle ends", winner="none")
    return _stage(state, battle, "done")


# ----------------------------------------------------------------- tables of steps and answers

_STEPS: dict[str, Callable[[Any, FieldBattle, engine.RulesContext], Any]] = {
    "commander": _step_commander,
    "chits": _step_chits,
    "outflank-split": _step_outflank_split,
    "reveal": _step_reveal,
    "day-start": _step_day_start,
    "withdrawal": _step_withdrawal,
    "round-start": _step_round_start,
    "guard": _step_guard,
    "bombard": _step_bombard,
    "bombard-losses": _losses_step("combat"),
    "combat": _step_combat,
    "combat-losses": _losses_step("round-end"),
    "round-end": _step_round_end,
    "arrival": _step_arrival,
    "reinforce": _step_reinforce,
    "day-end": _step_day_end,
    "pursuit": _step_pursuit,
    "pursuit-losses": _losses_step("after-pursuit"),
    "after-pursuit": _step_after_pursuit,
    "retreat": _step_retreat,
    "after": _step_after,
}

_ANSWER: dict[str, Callable[[Any, FieldBattle, str, str, Any], Any]] = {
    "commander": _answer_commander,
    "chit": _answer_chit,
    "outflank": _answer_split,
    "guard": _answer_guard,
    "casualties": _answer_loss,
    "reinforce": _answer_reinforce,
    "day-end": _answer_day_end,
    "pursue": _answer_pursue,
}

_AUTO: dict[str, Callable[[Any, FieldBattle, BattleSide, tuple[str, ...], Any], str]] = {
    "commander": lambda state, battle, side, options, ctx: options[0],
    "chit": _auto_chit,
    "outflank": _auto_split,
    "guard": lambda state, battle, side, options, ctx: "none",
    "casualties": _auto_loss,
    "reinforce": _auto_reinforce,
    "day-end": _auto_day_end,
    "pursue": _auto_pursue,
}
