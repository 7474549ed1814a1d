"""Rules-case procedures (moved out of the rules core, issue 14 item 6)."""

from __future__ import annotations

from eiapbem.rulecases.harness import procedure
from eiapbem.core.dice import Dice
from eiapbem.rules.naval.combat import _stack, resolve


# from eiapbem.rules.naval.combat

@procedure("naval.combat")
def _case_naval_combat(inp: dict, dice: Dice) -> dict:
    r = resolve(
        _stack(inp.get("attacker"), "attacker"),
        _stack(inp.get("defender"), "defender"),
        dice,
        interception=bool(inp.get("interception", False)),
        port=bool(inp.get("port", False)),
        harbour_defence=int(inp.get("harbour_defence", 0)),
        wind_gauge_to=inp.get("wind_gauge_to"),
        defender_evades=bool(inp.get("defender_evades", False)),
    )
    return {
        "outcome": r.outcome,
        "wind_gauge": r.wind_gauge or "none",
        "wind": r.wind,
        "fire": r.fire,
        "percent": r.percent,
        "harbour_losses": r.harbour_losses,
        "losses": r.losses,
        "heavy_losses": r.heavy_losses,
        "light_losses": r.light_losses,
        "victor": r.victor or "none",
        "retreats": list(r.retreats),
        "political_points": r.political_points,
    }
