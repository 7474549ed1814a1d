"""Rules-case procedure ``battle.field``: a whole land battle on the packaged map.

It lives beside the data loader because it needs the map and world data; the
battle itself is ``eiapbem.rules.combat.field``.  Case input::

    area = "ulm"                      # the battle's area (its terrain is the map's)
    date = "1805-09"                  # optional
    river_crossing = false            # optional (000:1714)
    options = ["guard_commitment"]    # optional game options switched on
    units = [ { id = "corps:FR:I", side = "attacker", infantry = 10, cavalry = 2,
                leader = "leader:FR:napoleon", area = "ulm" }, ... ]
    [input.answers]                   # optional: "<role>.<question>" = [choices in order]
    "attacker.chit" = ["echelon"]     # unanswered questions take their first option

Results: per-round lists (``attacker_tables``, ``defender_tables``,
``attacker_basis``, ``attacker_modifier``, ``attacker_random_number``,
``attacker_losses``, ``attacker_morale_loss``… one entry per round fought),
``morale`` (``[{day, role, base, final}]``), ``arrivals``, ``winner``,
``pursuit_column``, ``pursuit_random_number``, ``pursuit_percent``, ``pursuit_losses``, ``political_points``, ``factors``
and ``locations`` of every unit at the end, ``events`` (the kinds in order).
"""

from __future__ import annotations

from typing import Any

from eiapbem.core.errors import BadData
from eiapbem.rules import engine
from eiapbem.rulecases.harness import procedure
from eiapbem.rulecases.inputs import need
from eiapbem.rulecases.scene import factors_of
from eiapbem.core.dice import Dice
from eiapbem.rules.model import (
    Corps,
    CorpsType,
    Date,
    Factors,
    GameState,
    Garrison,
    Leader,
    LeaderStatus,
    Location,
    LocationKind,
    Options,
    Phase,
    Slot,
    garrison_id,
)
from eiapbem.rules.model.common import POWERS, FactorType

_FACTOR_KEYS = tuple(k.value.replace("-", "_") for k in FactorType)


def _state(inp: dict) -> tuple[GameState, list[str], list[str]]:
    date = Date.parse(need(inp, "date", str, "1805-09"))
    opts = {o: True for o in need(inp, "options", list, [])}
    try:
        options = Options(**opts)
    except TypeError as err:
        raise BadData(f"the case input 'options' names an unknown game option: {sorted(opts)}") from err
    s = GameState.new("classic-1805", Date(1805, 1), Date(1815, 12))
    s = s.replace(date=date, options=options, slot=Slot(phase=Phase.LAND, step="turn", power="FR", actors=("FR",)))
    sides: dict[str, list[str]] = {"attacker": [], "defender": []}
    powers: dict[str, set[str]] = {"attacker": set(), "defender": set()}
    area = need(inp, "area", str)
    for spec in need(inp, "units", list):
        if not isinstance(spec, dict):
            raise BadData(f"each entry of 'units' is a table, not {spec!r}")
        uid = need(spec, "id", str)
        side = need(spec, "side", str, "")
        factors = Factors(**{k: need(spec, k, int, 0) for k in _FACTOR_KEYS})
        where = Location(LocationKind.AREA, need(spec, "area", str, area))
        nation = uid.split(":")[1]
        if uid.startswith("garrison:"):
            uid = garrison_id(nation, where)
            s = s.with_unit(Garrison(id=uid, nation=nation, location=where, factors=factors))
        else:
            s = s.with_unit(Corps(id=uid, nation=nation, corps_type=CorpsType(need(spec, "corps_type", str, "regular")),
                                  location=where, factors=factors))
        lid = need(spec, "leader", str, "")
        if lid:
            s = s.with_leader(Leader(id=lid, power=lid.split(":")[1], status=LeaderStatus.ON_MAP, attached_to=uid))
        if side:
            sides[side].append(uid)
            if nation in POWERS:
                powers[side].add(nation)
    for a in sorted(powers["attacker"]):
        for d in sorted(powers["defender"]):
            if a != d and d not in s.powers[a].wars:
                s = s.with_war(a, d, date, (a,))
    return s, sides["attacker"], sides["defender"]


@procedure("battle.field")
def _battle_case(inp: dict, dice: Dice) -> dict:
    from eiapbem.data.context import rules_context
    from eiapbem.rules.combat.field import start_field_battle

    base = rules_context(dice)
    ctx = engine.RulesContext(map=base.map, world=base.world, dice=dice)
    state, attacker, defender = _state(inp)
    answers = {k: list(v) for k, v in need(inp, "answers", dict, {}).items()}
    out = start_field_battle(state, need(inp, "area", str), attacker, defender, ctx,
                             river_crossing=need(inp, "river_crossing", bool, False))
    state = out.state
    bid = next(iter(state.battles))
    for _ in range(5000):
        waiting = sorted((d for d in state.pending.values() if d.context.get("battle") == bid), key=lambda d: d.id)
        if not waiting:
            break
        d = waiting[0]
        key = f"{d.context['role']}.{d.kind.split('.', 1)[1]}"
        queue = answers.get(key) or []
        choice = queue.pop(0) if queue else d.options[0]
        if choice not in d.options:
            raise BadData(f"answer {choice!r} to {key} is not one of {', '.join(d.options)}")
        state = engine.apply_action(state, d.power, engine.AnswerDecision(decision=d.id, choice=choice), ctx).state
    battle = state.battles[bid]
    res: dict[str, Any] = {r: [] for r in ("morale", "arrivals", "events")}
    for role in ("attacker", "defender"):
        for key in ("tables", "basis", "modifier", "die", "random_number", "losses", "morale_loss", "percent", "tactical"):
            res[f"{role}_{key}"] = []
    res["pursuit_column"] = 0
    res["pursuit_losses"] = 0
    res["pursuit_random_number"] = 0
    res["pursuit_percent"] = 0
    res["political_points"] = {"gain": 0, "loss": 0}
    for ev in battle.events:
        p = dict(ev.params.items())
        res["events"].append(ev.kind)
        if ev.kind == "battle.round" and "table" in p:
            side = p["role"]
            res[f"{side}_tables"].append(p["table"])
            for key in ("basis", "modifier", "die", "random_number", "losses", "morale_loss", "percent", "tactical"):
                res[f"{side}_{key}"].append(p[key])
        elif ev.kind == "battle.morale":
            res["morale"].append({"day": ev.day, "role": p["role"], "base": p["base"], "final": p["final"]})
        elif ev.kind == "battle.arrival":
            res["arrivals"].append({"day": ev.day, "round": ev.round, "arrived": p["arrived"], "rating": p["rating"]})
        elif ev.kind == "battle.pursuit" and "column" in p:
            res["pursuit_column"] = p["column"]
            res["pursuit_losses"] = p["losses"]
            res["pursuit_random_number"] = p["random_number"]
            res["pursuit_percent"] = p["percent"]
        elif ev.kind == "battle.political-points":
            res["political_points"] = {"gain": p["gain"], "loss": p["loss"]}
    res["winner"] = battle.winner
    res["days"] = battle.day
    res["factors"] = {u: factors_of(state, u) for u in attacker + defender}
    res["locations"] = {u: str(state.units[u].location) for u in attacker + defender if u in state.units}
    return res
