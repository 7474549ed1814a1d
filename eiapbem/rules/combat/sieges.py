"""Sieges (11.4) as a state machine driven by pending decisions.

``start_siege_assault`` makes one assault attempt of a besieging power on a
city (11.4.1): a die on the siege table less the city's siege value, +1 when
the garrison is more than 5 factors under capacity (``combat.siege``).  Then:

- "sortie?": ``siege.sortie`` asks the defender; a sortie rolls one die, 5-6
  the defender loses one factor, otherwise the besieger does;
- "nr": nothing happens;
- "breach": ``siege.surrender`` asks the defender: surrender (every factor
  and leader inside becomes a prisoner, the city is the besieger's, no
  political points) or fight the assault combat: the besieger on 5-1, the
  defender on 5-2, at most three rounds, no modifiers; the defender broken or
  eliminated gives the city and every survivor to the besieger, anything else
  resumes the siege (both broken with survivors on both sides: neither wins, as
  in field combat, 000:1858).  With a corps inside or a fortress (siege value 1+), the
  winner of the city gets +1, a defender who holds gets +1 (11.4.1).

``start_garrison_attack`` is the garrison's attack on the besiegers (11.4.2):
the garrison on 5-1, the besiegers on 5-2, three rounds; the besiegers broken
or eliminated retreat by the retreat after combat rules (11.2.10), unpursued, and
the besieged corps may then move out of the city (``siege.move-out``); the
garrison eliminated loses the city; no political points.

Each factor lost in a round is chosen by its owner (``siege.casualty``:
"any type ... at the controlling player's option", 000:1986, 000:2012) unless
only one kind of factor is left.  Dice: ``siege/<id>/attempt``,
``siege/<id>/sortie``, ``siege/<id>/round<n>/besieger`` and ``.../defender``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from eiapbem.core.errors import IllegalAction
from eiapbem.rules import engine
from eiapbem.rules.forces import decision_subject
from eiapbem.rules.combat import morale as morale_rules
from eiapbem.rules.combat.siege import assault_attempt
from eiapbem.rules.combat.tables_use import percent_of
from eiapbem.rules.control import city_holder
from eiapbem.rules.forces import army_unit, retreated, the_army_unit, the_corps
from eiapbem.rules.mapgraph import City
from eiapbem.rules.engine import Outcome, RulesContext
from eiapbem.rules.model import FrozenMap, GameState, PendingDecision
from eiapbem.rules.model.combat import Siege, SiegeRound
from eiapbem.rules.model.common import FactorType
from eiapbem.rules.model.state import CityControl
from eiapbem.rules.combat.aftermath import clear_emptied
from eiapbem.rules.combat.battle import leaders_with, morale_value
from eiapbem.rules.combat.retreat import retreat_path
from eiapbem.rules.control import corps_at
from eiapbem.rules.relations import at_war, enemies as enemies_of, power_of, unit_power
from eiapbem.rules.model.units import (
    POOL,
    Corps,
    Factors,
    Garrison,
    LeaderStatus,
    Location,
    LocationKind,
    Prisoners,
    prisoners_key,
)
from eiapbem.rules.tables import land

BESIEGER, DEFENDER = "besieger", "defender"
#: The tables of each side: (besieger's, defender's) (11.4.1, 11.4.2).
TABLES = {
    "assault": {BESIEGER: land.SIEGE_ASSAULT_BESIEGER_TABLE, DEFENDER: land.SIEGE_ASSAULT_DEFENDER_TABLE},
    "garrison-attack": {BESIEGER: land.GARRISON_ATTACK_BESIEGER_TABLE, DEFENDER: land.GARRISON_ATTACK_GARRISON_TABLE},
}
MAX_ROUNDS = 3


def _units(state: GameState, s: Siege, side: str) -> list[Corps | Garrison]:
    ids = s.besiegers if side == BESIEGER else s.defenders
    return [state.units[u] for u in ids if u in state.units]  # type: ignore[misc]


def factors_of(state: GameState, s: Siege, side: str) -> int:
    return sum(u.factors.total for u in _units(state, s, side) if u.location != POOL)


def final_morale(state: GameState, ctx: RulesContext, s: Siege, side: str) -> int:
    """11.2.5: the factor-weighted morale of the side, first day, no chart modifiers."""
    groups = []
    for u in _units(state, s, side):
        for kind in FactorType:
            n = u.factors.get(kind)
            if n:
                groups.append((n, morale_value(state, ctx.world, u.id, kind)))
    return morale_rules.final_morale(morale_rules.base_morale(groups), 1)


def percentage_loss(firing_factors: int, percent: int, target_factors: int) -> int:
    """Factors the target loses: ``percent`` % of the firing factors (rounded as in field combat), at most all."""
    return min(target_factors, percent_of(percent, firing_factors))


# ------------------------------------------------------------------ starting


def _city(ctx: RulesContext, city: str) -> City:
    """The city of area ``city`` (the caller has checked there is one)."""
    c = ctx.map.area(city).city
    if c is None:
        raise IllegalAction(f"there is no city in {city!r}")
    return c


def _new_id(state: GameState, city: str) -> str:
    prefix = f"{state.date}.{city}."
    return f"{prefix}{1 + sum(1 for k in state.sieges if k.startswith(prefix))}"


def _sides(state: GameState, ctx: RulesContext, city: str, besieger: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    area = ctx.map.area(city) if ctx.map.is_area(city) else None
    if area is None or area.city is None:
        raise IllegalAction(f"there is no city in {city!r} to besiege")
    att = tuple(
        sorted(
            u.id
            for u in state.units.values()
            if isinstance(u, Corps)
            and u.location == Location(LocationKind.AREA, city)
            and u.besieging
            and power_of(state, u.nation) == besieger
            and u.factors.total > 0
        )
    )
    if not att:
        raise IllegalAction(f"{besieger} has no corps besieging the city of {city}")
    inside = Location(LocationKind.CITY, city)
    dfn = tuple(
        sorted(
            u.id
            for u in state.units.values()
            if isinstance(u, (Corps, Garrison))
            and u.location == inside
            and u.factors.total > 0
            and at_war(state, besieger, u.nation)
        )
    )
    if not dfn:
        raise IllegalAction(f"no enemy of {besieger} holds the city of {city}")
    return att, dfn


def _siege(state: GameState, ctx: RulesContext, kind: str, city: str, besieger: str) -> Siege:
    for other in state.sieges.values():
        if other.city == city and other.step != "done":
            raise IllegalAction(f"the siege combat {other.id} at {city} is still waiting for an answer; finish it first")
    att, dfn = _sides(state, ctx, city, besieger)
    holder = city_holder(state, ctx, city)
    nations = [the_army_unit(state, u).nation for u in dfn]
    return Siege(
        id=_new_id(state, city),
        kind=kind,
        city=city,
        besieger=besieger,
        defender=holder if holder in nations else nations[-1],
        besiegers=att,
        defenders=dfn,
        siege_value=_city(ctx, city).siege,
    )


def start_siege_assault(state: GameState, city: str, besieger: str, ctx: RulesContext) -> Outcome:
    """One assault attempt of ``besieger`` on the city of area ``city`` (11.4.1), run to its first question."""
    if state.slot is None:
        raise IllegalAction("the game is over; no siege can be pressed")
    if state.slot.power not in (None, besieger):
        raise IllegalAction(f"{besieger} may launch assault attempts only in its own land phase, not in {state.slot.power}'s")
    s = _siege(state, ctx, "assault", city, besieger)
    capacity = _city(ctx, city).garrison_capacity
    garrison = sum(u.factors.total for u in _units(state, s, DEFENDER) if isinstance(u, Garrison))
    die = ctx.dice.d6(f"siege/{s.id}/attempt")
    rn, result = assault_attempt(die, s.siege_value, garrison, capacity)
    under = land.is_undergarrisoned(garrison, capacity)
    s = _note(
        s.replace(die=die, random_number=rn, result=result),
        f"Assault attempt {s.id} on {city} by {besieger}: die {die}, siege value -{s.siege_value}"
        + (f", undergarrisoned +1 ({garrison} of {capacity})" if under else "")
        + f" = {rn}: {result}.",
    )
    who = power_of(state, s.defender)
    if result == land.SORTIE:
        s = s.replace(step="sortie")
        return _ask(_put(state, s), s, ctx, "sortie", who, "siege.sortie", ("sortie", "stay"))
    if result == land.BREACH:
        s = s.replace(step="surrender")
        return _ask(_put(state, s), s, ctx, "surrender", who, "siege.surrender", ("surrender", "fight"))
    return _finish(_put(state, s.replace(outcome="nothing")), s.id)


def start_garrison_attack(state: GameState, city: str, ctx: RulesContext) -> Outcome:
    """The garrison of ``city`` attacks the corps besieging it (11.4.2)."""
    if state.slot is None:
        raise IllegalAction("the game is over; no siege can be fought")
    holder = power_of(state, city_holder(state, ctx, city))
    besiegers = sorted({
        p for p in (
            power_of(state, u.nation)
            for u in state.units.values()
            if isinstance(u, Corps) and u.besieging and u.location == Location(LocationKind.AREA, city)
        )
        if p is not None
    })
    if not besiegers:
        raise IllegalAction(f"no corps besieges the city of {city}")
    if holder is None or state.slot.power not in (None, holder):
        raise IllegalAction(f"only the power holding {city} may attack its besiegers, in its own land phase (11.4.2)")
    s = _siege(state, ctx, "garrison-attack", city, besiegers[0])
    s = _note(s, f"The garrison of {city} attacks {s.besieger}'s besiegers (11.4.2).")
    return _begin_combat(state, s, ctx)


# ------------------------------------------------------------------ machine


def _note(s: Siege, line: str) -> Siege:
    return s.replace(report=s.report + (line,))


def _worded(s: Siege, line: str) -> str:
    """A report line as a player reads it: the assault attempt's table code ("nr") in words (11.4.1).

    The stored line keeps the code: the report is part of the hashed state, and rewording it there would
    give a game in progress another state for the same files."""
    code = f": {s.result}."
    if s.result and line.startswith("Assault attempt ") and line.endswith(code):
        return f"{line[:-len(code)]}: {land.siege_result_words(s.result)}."
    return line


def _put(state: GameState, s: Siege) -> GameState:
    return state.replace(sieges=state.sieges.set(s.id, s))


#: What a neutral minor, which no player commands, answers (docs/decisions.md).
NEUTRAL_ANSWERS = {"siege.sortie": "stay", "siege.surrender": "fight", "siege.move-out": "stay"}


def standing_answer(decision: PendingDecision) -> str:
    """The standing order of a siege question asked of a power that is not at the table: in PBEM only
    field and trivial combat exchange battle files (4.2.7, 000:170), so the besieged answers a siege
    question in the besieger's slot as a neutral garrison would (stay, fight on), and takes its losses
    in the order offered."""
    return NEUTRAL_ANSWERS.get(decision.kind, decision.options[0])


def _ask(
    state: GameState, s: Siege, ctx: RulesContext, key: str, who: str | None, kind: str, options: Sequence[str], **context: Any
) -> Outcome:
    did = f"siege:{s.id}:{key}"
    assert state.slot is not None  # questions are asked only in a game in play
    if who is None:  # a neutral minor's garrison: no one to ask
        choice = NEUTRAL_ANSWERS.get(kind, options[0])
        d = PendingDecision(id=did, power=s.besieger, kind=kind, options=tuple(options), slot=state.slot.key(state.date),
                            context=FrozenMap(sorted({"siege": s.id, **context}.items())))
        return _apply(state.replace(pending=state.pending.set(did, d)), s.besieger, d, choice, ctx)
    d = PendingDecision(
        id=did,
        power=who,
        kind=kind,
        options=tuple(options),
        slot=state.slot.key(state.date),
        context=FrozenMap(sorted({"siege": s.id, **context}.items())),
    )
    return Outcome(state.replace(pending=state.pending.set(did, d)))


def _side_power(state: GameState, s: Siege, side: str) -> str | None:
    if side == BESIEGER:
        return s.besieger
    return power_of(state, s.defender)


def _begin_combat(state: GameState, s: Siege, ctx: RulesContext) -> Outcome:
    m = {side: final_morale(state, ctx, s, side) for side in (BESIEGER, DEFENDER)}
    s = _note(s.replace(morale=FrozenMap(m)), f"Final morale: besieger {m[BESIEGER]}, defender {m[DEFENDER]} (hundredths, 11.2.5).")
    return _next_round(_put(state, s), s, ctx)


def _next_round(state: GameState, s: Siege, ctx: RulesContext) -> Outcome:
    n = len(s.rounds) + 1
    tables = TABLES[s.kind]
    have = {side: factors_of(state, s, side) for side in (BESIEGER, DEFENDER)}
    dice, losses, mloss = {}, {}, {}
    for side in (BESIEGER, DEFENDER):
        dice[side] = ctx.dice.d6(f"siege/{s.id}/round{n}/{side}")
    for side, enemy in ((BESIEGER, DEFENDER), (DEFENDER, BESIEGER)):
        res = land.combat_result_for(tables[side], dice[side])
        losses[enemy] = percentage_loss(have[side], res.loss_percent, have[enemy])
        mloss[enemy] = res.morale_loss
    rnd = SiegeRound(
        number=n,
        dice=FrozenMap(dice),
        tables=FrozenMap({k: str(v) for k, v in tables.items()}),
        losses=FrozenMap(losses),
        morale_loss=FrozenMap(mloss),
    )
    s = s.replace(rounds=s.rounds + (rnd,), owed=FrozenMap(losses), step="casualties")
    s = _note(
        s,
        f"Round {n}: besieger {dice[BESIEGER]} on {tables[BESIEGER]}, defender {dice[DEFENDER]} on {tables[DEFENDER]}; "
        f"losses besieger {losses[BESIEGER]}, defender {losses[DEFENDER]}; morale loss besieger {mloss[BESIEGER]}, "
        f"defender {mloss[DEFENDER]}.",
    )
    return _casualties(_put(state, s), s.id, ctx)


def _options(state: GameState, s: Siege, side: str) -> tuple[str, ...]:
    out = []
    for u in _units(state, s, side):
        for kind in FactorType:
            if u.factors.get(kind) > 0:
                out.append(f"{u.id}/{kind.value}")
    return tuple(sorted(out))


def _remove_factor(state: GameState, choice: str) -> GameState:
    uid, _, kind = choice.rpartition("/")
    u = the_army_unit(state, uid)
    ft = FactorType(kind)
    return state.with_unit(u.replace(factors=u.factors.with_(ft, u.factors.get(ft) - 1)))


def _casualties(state: GameState, sid: str, ctx: RulesContext) -> Outcome:
    """Take the round's losses one factor at a time, asking the owner when there is a choice."""
    s = state.sieges[sid]
    for side in (BESIEGER, DEFENDER):
        while s.owed.get(side, 0) > 0:
            opts = _options(state, s, side)
            if not opts:
                s = s.replace(owed=s.owed.set(side, 0))
                break
            if len(opts) > 1:
                if s.rounds:
                    k = s.rounds[-1].losses[side] - s.owed[side] + 1
                    key = f"casualty:{side}:{len(s.rounds)}:{k}"
                else:
                    key = f"casualty:{side}:sortie"
                return _ask(_put(state, s), s, ctx, key, _side_power(state, s, side), "siege.casualty", opts, side=side)
            state = _remove_factor(state, opts[0])
            s = _note(s.replace(owed=s.owed.set(side, s.owed[side] - 1)), f"The {side} loses one factor: {opts[0]}.")
    if not s.rounds:  # a sortie's single loss is taken
        if factors_of(state, s, DEFENDER) == 0 and factors_of(state, s, BESIEGER) > 0:
            # the garrison's last factor lost in its sortie: no one is left inside, the city is the besieger's, with
            # no combat fought and so no political point (11.4.1)
            s = _note(s, f"The sortie costs the garrison its last factor: no one is left inside the city of {s.city}.")
            return _capture(state, s, "surrendered")
        state, s = _clear_emptied(state, s)
        return _finish(_put(state, s), sid)
    state = _put(state, s)
    return _after_round(state, s, ctx)


def _broken(state: GameState, s: Siege, side: str) -> bool:
    lost = sum(r.morale_loss.get(side, 0) for r in s.rounds)
    return factors_of(state, s, side) == 0 or morale_rules.breaks(lost, s.morale[side])


def _clear_emptied(state: GameState, s: Siege) -> tuple[GameState, Siege]:
    """Corps emptied by the combat leave the map (11.5, 000:2024); a leader joins a surviving corps of his power on
    his side, and when every factor of his side is gone he is captured by the other side's power (13.8.2, 000:2642;
    a neutral minor captures nobody).  A garrison wiped out by surviving besiegers is left to ``_capture`` (the city
    falls with everyone inside)."""
    gone = {side: factors_of(state, s, side) == 0 for side in (BESIEGER, DEFENDER)}
    sides = (BESIEGER,) if gone[DEFENDER] and not gone[BESIEGER] else (BESIEGER, DEFENDER)
    for side in sides:
        units = s.besiegers if side == BESIEGER else s.defenders
        captor = power_of(state, s.defender) if side == BESIEGER else s.besieger
        for lid in leaders_with(state, units) if gone[side] and captor is not None else ():
            state = state.with_leader(state.leaders[lid].replace(status=LeaderStatus.CAPTURED, captured_by=captor,
                                                                 attached_to=None, returns=None))
            s = _note(s, f"{lid} is captured by {captor}: every factor of his side is eliminated (13.8.2).")
        state, removed = clear_emptied(state, units, garrisons=side == DEFENDER)
        for uid in removed:
            s = _note(s, f"{uid} is emptied and leaves the map (11.5).")
    return state, s


def _after_round(state: GameState, s: Siege, ctx: RulesContext) -> Outcome:
    b_out, d_out = _broken(state, s, BESIEGER), _broken(state, s, DEFENDER)
    for side, out in ((BESIEGER, b_out), (DEFENDER, d_out)):
        if out:
            lost = sum(r.morale_loss.get(side, 0) for r in s.rounds)
            why = "is eliminated" if factors_of(state, s, side) == 0 else f"breaks (morale loss {lost} >= {s.morale[side]})"
            s = _note(s, f"The {side} {why}.")
    state, s = _clear_emptied(state, s)
    # Both broken with survivors on both sides: neither wins, as in field combat (11.2.10 "Both Break", 000:1858), which
    # assault and garrison attack combats are resolved like (000:1980, 000:2006): the siege goes on, no points.
    both = b_out and d_out and factors_of(state, s, BESIEGER) > 0 and factors_of(state, s, DEFENDER) > 0
    if both:
        s = _note(s, "Both sides break: neither wins (11.2.10, 000:1858); the siege goes on (11.4).")
        return _finish(_put(state, s.replace(outcome="resumed")), s.id)
    # besiegers eliminated take nothing: a side with no survivors cannot win (as in field combat, 11.2.10)
    b_gone = factors_of(state, s, BESIEGER) == 0
    if s.kind == "assault":
        if d_out and not b_gone:  # 11.4.1: the defender broken or eliminated: the city falls
            return _capture(state, s, "captured")
        if b_out or len(s.rounds) == MAX_ROUNDS:
            s = _note(s, "The assault fails; " + ("the besiegers are eliminated and leave the map (11.4.1, 11.5)." if b_gone
                                                  else "the siege goes on (11.4.1)."))
            return _finish(_put(state, _award(state, s, DEFENDER)), s.id)
    else:
        if factors_of(state, s, DEFENDER) == 0 and not b_gone:  # 11.4.2: the garrison wiped out: the city falls
            return _capture(state, s, "captured")
        if b_out:
            return _besiegers_beaten(state, _note(s, "The besiegers break and must retreat (11.4.2)."), ctx)
        if d_out or len(s.rounds) == MAX_ROUNDS:
            s = _note(s, "The garrison attack ends; the siege goes on (11.4.2).")
            return _finish(_put(state, s.replace(outcome="resumed")), s.id)
    return _next_round(_put(state, s), s, ctx)


def _besiegers_beaten(state: GameState, s: Siege, ctx: RulesContext) -> Outcome:
    """11.4.2 (000:2016): the beaten besiegers retreat "in accordance with the retreat after combat rules" (11.2.10,
    ``combat.retreat``: toward their nearest depot or capital, through no unbesieged enemy), unpursued; with no route
    they surrender to the city's holder (000:1852).  Then the besieged corps may move out of the city into its area:
    ``siege.move-out``, asked of the holder (the phasing power of a garrison attack); its standing answer is to stay."""
    corps = [u.id for uid in s.besiegers if isinstance(u := state.units.get(uid), Corps) and u.factors.total > 0
             and u.location != POOL]
    holder = power_of(state, s.defender)
    if not corps:
        taken = ", ".join(_captured_leaders(s))
        s = _note(s, f"{s.besieger}'s besiegers are eliminated and leave the map; none is left to retreat (11.4.2)"
                     f"{f'; {taken} captured by {holder} (13.8.2)' if taken else ''}.")
        return _move_out(state, s.replace(outcome="besieger-retreats", step="retreat"), ctx, holder)
    powers = tuple(sorted({p for u in corps if (p := unit_power(state, state.units[u])) is not None}))
    enemies = tuple(sorted({q for p in powers for q in enemies_of(state, p)}))
    path = retreat_path(state, ctx.map, s.city, powers, enemies, lambda u: unit_power(state, u))
    if path is None:
        for uid in corps:
            u = the_army_unit(state, uid)
            if holder is not None:
                key = prisoners_key(holder, u.nation)
                held = state.prisoners.get(key) or Prisoners(captor=holder, nation=u.nation)
                state = state.replace(prisoners=state.prisoners.set(key, held.replace(factors=held.factors + u.factors)))
            state = state.with_unit(u.replace(location=POOL, factors=Factors(), besieging=False))
            for lid in sorted(state.leaders):
                if state.leaders[lid].attached_to == uid and holder is not None:
                    state = state.with_leader(state.leaders[lid].replace(status=LeaderStatus.CAPTURED, captured_by=holder,
                                                                         attached_to=None, returns=None))
        s = _note(s, f"{s.besieger}'s besiegers have no retreat route and surrender (11.4.2, 11.2.10).")
    else:
        for uid in corps:
            state = state.with_unit(retreated(ctx.map, the_corps(state, uid), path))
        s = _note(s, f"{s.besieger}'s besiegers retreat {' -> '.join((s.city,) + path)} (11.4.2, 11.2.10); no pursuit.")
        for uid in corps:
            if state.units[uid].location == POOL:
                s = _note(s, f"{uid} is compelled to retreat out of its home nation's provinces and stands down, "
                             "keeping its factors (13.2.4).")
    return _move_out(state, s.replace(outcome="besieger-retreats", step="retreat"), ctx, holder)


def _captured_leaders(s: Siege) -> list[str]:
    """The leaders this combat's report says were captured (``_clear_emptied``)."""
    return [line.split(" ")[0] for line in s.report if " is captured by " in line and line.endswith("(13.8.2).")]


def _move_out(state: GameState, s: Siege, ctx: RulesContext, holder: str | None) -> Outcome:
    """11.4.2: after the besiegers are beaten, the holder may move the besieged corps out into the area."""
    inside = [c.id for c in corps_at(state, s.city) if c.location.kind is LocationKind.CITY and c.factors.total > 0
              and unit_power(state, c) == holder]
    if holder is None or not inside:
        return _finish(_put(state, s), s.id)
    return _ask(_put(state, s), s, ctx, "move-out", holder, "siege.move-out", ("stay", "move-out"), corps=" ".join(inside))


def _pp_applies(state: GameState, s: Siege) -> bool:
    """11.4.1: political points only for a city with a corps inside or a fortress."""
    return s.siege_value > 0 or any(isinstance(state.units.get(u), Corps) for u in s.defenders)


def _award(state: GameState, s: Siege, winner: str) -> Siege:
    s = s.replace(outcome="resumed" if winner == DEFENDER else "captured")
    if s.kind != "assault" or not _pp_applies(state, s):
        return s
    p = _side_power(state, s, winner) if winner == BESIEGER else power_of(state, s.defender)
    if p is None:
        return s
    return _note(s.replace(political_points=FrozenMap({p: 1})), f"{p} gains 1 political point (11.4.1).")


def _capture(state: GameState, s: Siege, outcome: str) -> Outcome:
    """The city falls: every factor and leader inside is a prisoner of the besieger (11.4.1)."""
    captor = s.besieger
    survivors = factors_of(state, s, DEFENDER)
    for uid in s.defenders:
        u = army_unit(state, uid)
        if u is None:
            continue
        if u.factors.total:
            key = prisoners_key(captor, u.nation)
            held = state.prisoners.get(key) or Prisoners(captor=captor, nation=u.nation)
            state = state.replace(prisoners=state.prisoners.set(key, held.replace(factors=held.factors + u.factors)))
        if isinstance(u, Garrison):
            state = state.without_unit(uid)
        else:
            state = state.with_unit(u.replace(location=POOL, factors=Factors()))
        for lid in sorted(state.leaders):
            leader = state.leaders[lid]
            if leader.attached_to == uid:
                state = state.with_leader(
                    leader.replace(status=LeaderStatus.CAPTURED, captured_by=captor, attached_to=None, returns=None)
                )
    for uid in s.besiegers:
        besieger = state.units.get(uid)
        if isinstance(besieger, Corps):
            state = state.with_unit(besieger.replace(besieging=False))
    state = state.replace(city_control=state.city_control.set(s.city, CityControl(nation=captor, since=state.date)))
    if outcome == "surrendered":
        s = _note(s.replace(outcome="surrendered"), f"The city of {s.city} surrenders to {captor}; no political points (11.4.1).")
    else:
        s = _note(_award(state, s, BESIEGER), f"The city of {s.city} is taken by {captor}; "
                  + ("the survivors are prisoners." if survivors else "no defender survives."))
    return _finish(_put(state, s), s.id)


def _finish(state: GameState, sid: str) -> Outcome:
    s = state.sieges[sid].replace(step="done", owed=FrozenMap())
    for p, n in s.political_points.items():
        state = state.with_power(p, political_status=state.powers[p].political_status + n)
    state = _put(state, s)
    # how it began (the assault attempt's die, the garrison's attack), the outcome and its point, what it cost
    told = s.report[:1] + (s.report[-2:] if s.political_points else s.report[-1:])
    told = tuple(line for k, line in enumerate(told) if line not in told[:k])
    return engine.log(state, "game", "siege.result", " ".join(_worded(s, line) for line in told) + _losses_told(s),
                      siege=s.id, outcome=s.outcome)


def _losses_told(s: Siege) -> str:
    """What a storm or a garrison attack cost each side, for the result's log line (the report says it round by
    round: ``eiapbem battle report ID``); nothing when no round was fought."""
    if not s.rounds:
        return ""
    lost = {side: sum(r.losses.get(side, 0) for r in s.rounds) for side in (BESIEGER, DEFENDER)}
    n = len(s.rounds)
    what = "the assault" if s.kind == "assault" else "the garrison attack"
    return (f" In {n} round{'s' if n != 1 else ''} of {what} at {s.city} the besiegers lost {lost[BESIEGER]} "
            f"factor{'s' if lost[BESIEGER] != 1 else ''} and the defenders {lost[DEFENDER]} "
            f"('eiapbem battle report {s.id}').")


# ------------------------------------------------------------------ answers


def _decision_siege(state: GameState, decision: PendingDecision) -> Siege:
    return decision_subject(state.sieges, decision, "siege", "siege", lambda s: s.step == "done")


def _verify(state: GameState, power: str, decision: PendingDecision, choice: str, ctx: RulesContext) -> None:
    _decision_siege(state, decision)


def _apply(state: GameState, power: str, decision: PendingDecision, choice: str, ctx: RulesContext) -> Outcome:
    s = _decision_siege(state, decision)
    state = state.replace(pending=state.pending.remove(decision.id))
    if decision.kind == "siege.sortie":
        s = s.replace(answer=choice)
        if choice == "stay":
            return _finish(_put(state, _note(s.replace(outcome="nothing"), "The defender does not sortie.")), s.id)
        roll = ctx.dice.d6(f"siege/{s.id}/sortie")
        loser = land.sortie_loser(roll)
        s = _note(s.replace(outcome="sortie", owed=FrozenMap({loser: 1}), step="casualties"),
                  f"The defender sorties: die {roll}; the {loser} loses one factor.")
        return _casualties(_put(state, s), s.id, ctx)
    if decision.kind == "siege.surrender":
        s = s.replace(answer=choice)
        if choice == "surrender":
            return _capture(state, s, "surrendered")
        return _begin_combat(state, _note(s, "The defender refuses to surrender: the besieger assaults (11.4.1)."), ctx)
    if decision.kind == "siege.casualty":
        side = str(decision.context["side"])
        state = _remove_factor(state, choice)
        s = _note(s.replace(owed=s.owed.set(side, s.owed[side] - 1)), f"The {side} loses one factor: {choice} ({power}'s choice).")
        return _casualties(_put(state, s), s.id, ctx)
    if decision.kind == "siege.move-out":  # 11.4.2 (000:2016): the besieged corps may leave the city
        moved = [uid for uid in str(decision.context["corps"]).split() if isinstance(state.units.get(uid), Corps)]
        if choice == "move-out":
            for uid in moved:
                state = state.with_unit(state.units[uid].replace(location=Location(LocationKind.AREA, s.city)))
        s = _note(s, f"{', '.join(moved)} {'move out of the city into' if choice == 'move-out' else 'stay in the city of'} "
                     f"{s.city} (11.4.2).")
        return _finish(_put(state, s), s.id)
    raise IllegalAction(f"no siege rule answers decisions of kind {decision.kind}")


#: Sieges' questions, answered in any phase (registered by ``eiapbem/rules/phases.py``).
RULES = engine.PhaseRules("sieges", decisions=(("siege", _verify, _apply),))


def report_text(siege: Siege) -> str:
    """The siege as a player reads it: one line per event."""
    return "\n".join(_worded(siege, line) for line in siege.report)


def report_record(siege: Siege) -> dict:
    """The siege as plain JSON-able data."""
    return siege.to_obj()
