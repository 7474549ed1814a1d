"""8.5.4 Resolution of naval interceptions (000:1112-1126)."""

from __future__ import annotations

from eiapbem.core.errors import BadData
from eiapbem.core.dice import Dice
from eiapbem.rules.tables import naval as chart


def attempt_interception(dice: Dice, label: str, where: str, *, nelson: bool = False) -> bool:
    """One intercepting stack's attempt against a phasing stack.

    ``where``: "blockade-box" (automatic, 8.5.4), "same" sea area (d6 of 3 or
    less) or "adjacent" sea area, also from a port or blockade box (1 or less);
    Nelson with the interceptor subtracts one from the roll.
    """
    if where == "blockade-box":
        return True
    if where not in chart.INTERCEPT_MAX:
        raise BadData(f"interception from {where!r} is unknown; use 'blockade-box', 'same' or 'adjacent'")
    return chart.intercepts(dice.d6(label), where, nelson=nelson)


def interception_attempt(dice: Dice, label: str, where: str, *, nelson: bool = False) -> tuple[bool, str]:
    """``attempt_interception`` and the die as the players read it: "d6 4, needs 3 or less" (8.5.4, 000:1116-1120)."""
    if where == "blockade-box":
        return True, "automatic in a blockade box"
    ok = attempt_interception(dice, label, where, nelson=nelson)
    roll = dice.d6(label)  # the same labelled die: a label is rolled once and read again
    need = chart.INTERCEPT_MAX[where] - (chart.INTERCEPT_MOD_NELSON if nelson else 0)
    return ok, f"d6 {roll}, needs {need} or less" + (" with Nelson" if nelson else "")
