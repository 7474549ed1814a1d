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
