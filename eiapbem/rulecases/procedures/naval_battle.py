"""Rules-case procedure ``naval.battle``: a whole naval combat through the engine.

Input: the scene (``eiapbem.rulecases.scene``: ``date``, ``phasing``, ``wars``,
``fleets`` with ``side``...), ``location`` of the combat, optional
``interception``, ``wind_gauge_to``, ``from_port``, and ``answers`` to the
pending decisions (``evasion``, ``pursuit:<fleet>``, ``retreat:<power>``,
``enter-port``).  Dice labels are ``naval/<battle id>/...``; the battle id is
``<date>.<site>.1``.
"""

from __future__ import annotations

from eiapbem.rulecases.harness import procedure
from eiapbem.rulecases.inputs import need
from eiapbem.rules.model.common import Phase
from eiapbem.rules.naval.battle import start_naval_battle
from eiapbem.rulecases.scene import answer_all, location, powers_changed, scene_state, ships_of, waiting_for


@procedure("naval.battle", context=True)
def _battle_case(inp: dict, ctx) -> dict:
    where = location(need(inp, "location", str), "location")
    fleets = need(inp, "fleets", list)
    for raw in fleets:
        raw.setdefault("location", str(where))
    state = scene_state(inp, phase=Phase.NAVAL)
    sides = {s: [need(f, "id", str) for f in fleets if f.get("side") == s] for s in ("attacker", "defender")}
    before = state
    out = start_naval_battle(
        state,
        where,
        sides,
        ctx,
        interception=need(inp, "interception", bool, False),
        wind_gauge_to=need(inp, "wind_gauge_to", str, None),
        from_port=need(inp, "from_port", str, None),
    )
    (bid,) = out.state.naval_battles
    asked: list[str] = []
    state = answer_all(out.state, f"naval:{bid}:", need(inp, "answers", dict, {}), ctx, asked)
    b = state.naval_battles[bid]
    return {
        "battle": bid,
        "step": b.step,
        "outcome": b.outcome,
        "wind": dict(b.wind),
        "wind_gauge": b.wind_gauge or "none",
        "fire": dict(b.fire),
        "percent": dict(b.percent),
        "harbour_losses": b.harbour_losses,
        "losses": dict(b.losses),
        "fleet_losses": {f: s.heavy + s.light for f, s in b.fleet_losses.items()},
        "victor": b.victor or "none",
        "retreating": list(b.retreating),
        "political_points": dict(b.political_points),
        "political_status": powers_changed(before, state),
        "moves": {f: str(loc) for f, loc in b.moves.items()},
        "fleets_at": {f: str(state.units[f].location) for f in b.attackers + b.defenders},
        "ships_left": {f: ships_of(state, f) for f in b.attackers + b.defenders},
        "removed": list(b.removed),
        "captured": list(b.captured),
        "nelson_captured_by": b.nelson_captured_by or "none",
        "decisions": asked,
        "waiting_for": waiting_for(state, f"naval:{bid}:"),
        "report": list(b.report),
    }
