"""The battle report: what a player reads after (or during) a land combat.

Pure renderers of a ``FieldBattle``: ``report_records`` gives JSON-able
records (the ``--json`` form), ``report_text`` the same as text, grouped by
day and round like the manual's combat screen: the chits, morale levels and
why, each side's table, random number with every modifier, losses and morale
losses, arrivals, reinforcements, the result, political points, pursuit and
retreat.  Consecutive single-factor losses of one side are summed per unit
and type.
"""

from __future__ import annotations

from typing import Any

from eiapbem.rules.combat.battle import FieldBattle


def _params(ev: Any) -> dict:
    return {k: v for k, v in ev.params.items()}


def report_records(battle: FieldBattle) -> dict[str, Any]:
    """The battle as plain data (ints, strings, bools, None, lists, dicts)."""
    events: list[dict[str, Any]] = []
    for ev in battle.events:
        rec = {"day": ev.day, "round": ev.round, "kind": ev.kind, "text": ev.text, **_params(ev)}
        last = events[-1] if events else None
        if (ev.kind == "battle.loss" and last is not None and last["kind"] == "battle.loss"
                and last["role"] == rec["role"] and last["day"] == ev.day and last["round"] == ev.round
                and last["mode"] == rec["mode"]):
            key = f"{rec['unit']}/{rec['type']}"
            last["losses"][key] = last["losses"].get(key, 0) + 1
            continue
        if ev.kind == "battle.loss":
            rec = {"day": ev.day, "round": ev.round, "kind": ev.kind, "role": rec["role"], "mode": rec["mode"],
                   "losses": {f"{rec['unit']}/{rec['type']}": 1}}
        events.append(rec)
    for rec in events:
        if rec["kind"] == "battle.loss":
            parts = ", ".join(f"{n} {k.rsplit('/', 1)[1]} of {k.rsplit('/', 1)[0]}" for k, n in sorted(rec["losses"].items()))
            rec["text"] = f"{rec['role']} takes {rec['mode']} losses: {parts}"
    sides = {}
    for role in ("attacker", "defender"):
        s = battle.side(role)
        sides[role] = {
            "power": s.power, "units": list(s.units), "commander": s.commander, "chit": s.chit,
            "base_morale": s.base_morale, "final_morale": s.final_morale, "morale_loss": s.morale_loss,
            "factors_lost": s.factors_lost, "broken": s.broken,
        }
    return {
        "id": battle.id, "kind": battle.kind, "area": battle.area, "terrain": battle.terrain,
        "river_crossing": battle.river_crossing, "day": battle.day, "round": battle.round,
        "finished": battle.finished, "winner": battle.winner or None, "result": battle.result,
        "sides": sides, "events": events,
    }


def report_text(battle: FieldBattle) -> str:
    """The battle as lines of text, one heading per day and round."""
    rec = report_records(battle)
    lines = [f"{rec['kind'].capitalize()} combat {rec['id']} in {rec['area']} ({rec['terrain']})"
             + (", attacker across a river" if rec["river_crossing"] else "")]
    for role, s in rec["sides"].items():
        lines.append(f"  {role}: {s['power'] or 'neutral'}, {', '.join(s['units'])}; commander {s['commander'] or 'none'}")
    heading = None
    for ev in rec["events"]:
        h = (ev["day"], ev["round"])
        if h != heading and ev["day"]:
            heading = h
            lines.append(f"Day {ev['day']}" + (f", round {ev['round']}" if ev["round"] else ""))
        lines.append(f"  {ev['text']}")
    lines.append("Result: " + (rec["result"] or "in progress"))
    return "\n".join(lines) + "\n"
