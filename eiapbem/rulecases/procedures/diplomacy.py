"""Rules-case procedures (moved out of the rules core, issue 14 item 6)."""

from __future__ import annotations

from eiapbem.rulecases.harness import procedure
from eiapbem.core.dice import Dice
from eiapbem.core.errors import BadData, IllegalAction
from eiapbem.rules.diplomacy.minors import manipulate


# from eiapbem.rules.diplomacy.minors

@procedure("diplomacy.manipulate-minor")
def _case_manipulate(inp: dict, dice: Dice) -> dict:
    try:
        r = manipulate(
            inp["minor"],
            inp["power"],
            inp["status"],
            inp.get("holder"),
            dice,
            zones=dict(inp["zones"]),
            investment=inp.get("investment", 0),
            allies=tuple(inp.get("allies", ())),
        )
    except KeyError as err:
        raise BadData(f"case input lacks {err.args[0]!r} (minor, power, status, zones)") from None
    except IllegalAction as err:
        return {"refused": str(err)}
    return {
        "kind": r.kind,
        "attempt_modifier": r.attempt_modifier,
        "attempt_total": r.attempt_total,
        "resist_modifier": r.resist_modifier,
        "resist_total": r.resist_total,
        "difference": r.difference,
        "required": r.required,
        "success": r.success,
        "status": r.status,
        "holder": r.holder or "none",
    }
