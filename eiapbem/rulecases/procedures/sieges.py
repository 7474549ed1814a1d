"""Rules-case procedures (moved out of the rules core, issue 14 item 6)."""

from __future__ import annotations

from eiapbem.rulecases.harness import procedure
from eiapbem.rulecases.inputs import need
from eiapbem.rules.combat.sieges import start_garrison_attack, start_siege_assault
from eiapbem.rules.engine import RulesContext
from eiapbem.rules.model.common import Phase


# from eiapbem.rules.combat.sieges

@procedure("siege.assault", context=True)
def _assault_case(inp: dict, ctx: RulesContext) -> dict:
    """A whole assault attempt (or, with ``garrison_attack = true``, a garrison attack) through the engine."""
    from eiapbem.rulecases.scene import answer_all, factors_of, powers_changed, scene_state, waiting_for

    state = scene_state(inp, phase=Phase.LAND)
    before = state
    city = need(inp, "city", str)
    if need(inp, "garrison_attack", bool, False):
        out = start_garrison_attack(state, city, ctx)
    else:
        out = start_siege_assault(state, city, need(inp, "besieger", str), ctx)
    (sid,) = out.state.sieges
    asked: list[str] = []
    state = answer_all(out.state, f"siege:{sid}:", need(inp, "answers", dict, {}), ctx, asked)
    s = state.sieges[sid]
    units = {u: factors_of(state, u) if u in state.units else 0 for u in s.besiegers + s.defenders}
    return {
        "siege": sid,
        "step": s.step,
        "random_number": s.random_number,
        "result": s.result,
        "outcome": s.outcome,
        "morale": dict(s.morale),
        "rounds": [{"losses": dict(r.losses), "morale_loss": dict(r.morale_loss)} for r in s.rounds],
        "factors": units,
        "city_controller": state.city_control[city].nation if city in state.city_control else "unchanged",
        "prisoners": {k: p.factors.total for k, p in state.prisoners.items()},
        "political_status": powers_changed(before, state),
        "decisions": asked,
        "waiting_for": waiting_for(state, f"siege:{sid}:"),
        "report": list(s.report),
    }
