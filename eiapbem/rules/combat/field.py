"""Field combat (11.2) and trivial combat (11.3) as a decision-driven state machine.

``start_field_battle`` records a ``FieldBattle`` in ``GameState.battles`` and
runs it until the first question; every question is a ``PendingDecision`` of
kind ``battle.*`` answered with ``engine.AnswerDecision``; after each answer
the machine runs on to the next question or to the end.  The automatic parts
(chit reveal, withdrawal, morale, rounds, arrival, breaking, political points,
pursuit, retreat, depots, leader casualties, removal of emptied corps) are
steps of the machine.  The battle's ``stage`` names the step to run next.

The machine itself (running steps, asking) is ``combat.field_machine``; the
end of rounds, days and battles (11.2.10-11.2.13) is ``combat.field_end``.

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
- ``battle.casualties``: the losing side, one factor at a time or several in one answer
  (``unit/type=N,...``, 11.2.9; ``casualties.py``);
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
from eiapbem.rules.engine import RulesContext
from eiapbem.rules.forces import decision_subject
from eiapbem.rules.combat import casualties, trivial
from eiapbem.rules.combat.battle import (
    FIELD,
    ROLES,
    TRIVIAL,
    BattleSide,
    FieldBattle,
    cavalry,
    event,
    force_factors,
    is_artillery_corps,
    is_corps,
    is_irregular,
    morale_value,
    other,
    unit_factors,
    power_of_unit_id,
)
from eiapbem.rules.combat.commander import (
    commander_candidates,
    commander_nation,
    strategic_rating,
    tactical_rating,
)
from eiapbem.rules.combat.morale import base_morale, chart_morale_modifier, final_morale
from eiapbem.rules.combat.tables_use import percent_of, round_tables
from eiapbem.rules.model.common import FactorType
from eiapbem.rules.model.decisions import PendingDecision
from eiapbem.rules.model.units import Corps, CorpsType, Garrison, Location, LocationKind
from eiapbem.rules.combat.field_machine import ANSWERS, AUTOS, STEPS, _ask, _label, _put, _stage, run
from eiapbem.rules.combat.field_end import (
    BIG_CORPS_FACTORS,
    _answer_day_end,
    _answer_pursue,
    _answer_reinforce,
    _auto_day_end,
    _auto_pursue,
    _auto_reinforce,
    _step_after,
    _step_after_pursuit,
    _step_arrival,
    _step_day_end,
    _step_pursuit,
    _step_reinforce,
    _step_retreat,
    _step_round_end,
    fighting_units,
)
from eiapbem.rules.tables import land

A, D = land.ATTACKER, land.DEFENDER


class BattleRefused(IllegalAction):
    """A battle cannot start with these forces."""


# ================================================================= start


from eiapbem.rules.combat import external  # noqa: E402


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
        p = power if power is not None else power_of_unit_id(state, units[0])
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


# ================================================================= answers (the machine: combat.field_machine)


def _verify_answer(state: Any, power: str, decision: PendingDecision, choice: str, ctx: engine.RulesContext) -> None:
    battle = decision_subject(state.battles, decision, "battle", "battle", lambda b: b.finished)
    if decision.kind == "battle.casualties":
        side = battle.side(str(decision.context["role"]))
        if choice not in casualties.loss_options(state, battle, side):
            casualties.allocation(state, battle, side, choice)  # several at once (11.2.9): raises if not allowed


def _apply_answer(state: Any, power: str, decision: PendingDecision, choice: str, ctx: engine.RulesContext) -> engine.Outcome:
    state = state.replace(pending=state.pending.remove(decision.id))
    bid = str(decision.context["battle"])
    what = decision.kind.split(".", 1)[1]
    state = _ANSWER[what](state, state.battles[bid], str(decision.context["role"]), choice, ctx)
    return run(state, bid, ctx)


#: Field battles' questions, answered in any phase (registered by ``eiapbem/rules/phases.py``).
RULES = engine.PhaseRules("field battles", decisions=(("battle", _verify_answer, _apply_answer),),
                          composite=("battle.casualties",))


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


def _answer_commander(state: Any, battle: FieldBattle, role: str, choice: str, ctx: RulesContext) -> Any:
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


def _auto_chit(state: Any, battle: FieldBattle, side: BattleSide, options: tuple[str, ...], ctx: RulesContext) -> str:
    if side.power is not None:
        orders = state.powers[side.power].standing_orders.battle_chits
        for u in side.units:
            if orders.get(u) in options:
                return orders[u]
    return options[ctx.dice.roll(_label(battle, f"chit/{side.role}"), len(options)) - 1]


def _answer_chit(state: Any, battle: FieldBattle, role: str, choice: str, ctx: RulesContext) -> Any:
    return _put(state, battle.with_side(battle.side(role).replace(chit=choice)))


# ----------------------------------------------------------------- outflank split (11.2.2)


def _split_options(state: Any, side: BattleSide) -> tuple[str, ...]:
    pinning_regular = [u for u in _regular_corps(state, side.units) if u not in side.outflanking]
    garrison = any(isinstance(state.units[u], Garrison) and unit_factors(state, u).total > 0 for u in side.units)
    out: list[str] = []
    if len(pinning_regular) >= 2 or (garrison and pinning_regular):
        out.extend(f"add:{u}" for u in pinning_regular)
    if any(u in side.outflanking and not is_irregular(state, u) for u in side.units) or not out:
        out.append("done")
    return tuple(out)


def _step_outflank_split(state: Any, battle: FieldBattle, ctx: engine.RulesContext) -> Any:
    pairing = land.operational_possibility(battle.attacker.chit, battle.defender.chit)
    assert pairing.outflanker is not None  # the step of a pairing with an outflanking side
    side = battle.side(pairing.outflanker)
    irregular = tuple(u for u in side.units
                      if is_corps(state, u) and state.units[u].corps_type in (CorpsType.COSSACK, CorpsType.FREIKORPS))
    if not set(irregular) <= set(side.outflanking):
        side = side.replace(outflanking=tuple(side.outflanking) + irregular)
        battle = battle.with_side(side)
        state = _put(state, battle)
    return _ask(state, battle, side.role, "outflank", _split_options(state, side), ctx)


def _auto_split(state: Any, battle: FieldBattle, side: BattleSide, options: tuple[str, ...], ctx: RulesContext) -> str:
    if any(u in side.outflanking and not is_irregular(state, u) for u in side.units) or options == ("done",):
        return "done"
    return [o for o in options if o.startswith("add:")][-1]


def _answer_split(state: Any, battle: FieldBattle, role: str, choice: str, ctx: RulesContext) -> Any:
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


def _answer_guard(state: Any, battle: FieldBattle, role: str, choice: str, ctx: RulesContext) -> Any:
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


def _auto_loss(state: Any, battle: FieldBattle, side: BattleSide, options: tuple[str, ...], ctx: RulesContext) -> str:
    return casualties.default_loss(state, battle, side)


def _lossevent(battle: FieldBattle, side: BattleSide, choice: str) -> FieldBattle:
    unit, kind = choice.rsplit("/", 1)
    return event(battle, "battle.loss", f"{side.role} loses 1 {kind} factor of {unit} ({side.loss_mode})",
                  role=side.role, unit=unit, type=kind, mode=side.loss_mode)


def _answer_loss(state: Any, battle: FieldBattle, role: str, choice: str, ctx: RulesContext) -> Any:
    side = battle.side(role)
    picks = [choice] if choice in casualties.loss_options(state, battle, side) else casualties.allocation(state, battle, side, choice)
    for pick in picks:  # a whole allocation is taken as its factors one by one (casualties.allocation)
        battle = _lossevent(battle, side, pick)
        state, side = casualties.take_loss(state, battle, side, pick)
    return _put(state, battle.with_side(side))


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

# The machine (``combat.field_machine``) runs these tables.
STEPS.update(_STEPS)
ANSWERS.update(_ANSWER)
AUTOS.update(_AUTO)
