"""Morale levels of a force in field combat (11.2.5, 000:1694-1704).

All values are hundredths (morale 3.0 -> 300).  Rounding: the base morale
level is the factor-weighted mean of the morale values, rounded to the
*nearest* hundredth with halves rounded up.  The manual says "rounding up to
the next tenth" (000:1696, 000:3196) but its own worked example keeps
hundredths, 193/51 = 3.784 -> "3.78", and then uses 3.20 and 2.70 (000:1702);
nearest-hundredth reproduces every example (docs/decisions.md).
"""

from __future__ import annotations

from typing import Iterable

from eiapbem.core.errors import IllegalAction
from eiapbem.rules.tables import land

#: 11.2.5 (000:1702): the final morale level falls by 0.5 for each day after the first.
DAY_MORALE_DECREMENT = 50


def base_morale(groups: Iterable[tuple[int, int]]) -> int:
    """Base morale level from (army factors, morale value in hundredths) groups."""
    total = 0
    weighted = 0
    for factors, morale in groups:
        if factors < 0 or morale < 0:
            raise IllegalAction(f"a force cannot have {factors} factors of morale {morale}; both must be at least 0")
        total += factors
        weighted += factors * morale
    if total == 0:
        raise IllegalAction("a force without army factors has no morale level (11.2.5)")
    return (2 * weighted + total) // (2 * total)  # nearest hundredth, halves up


def final_morale(base: int, day: int, modifier: int = 0) -> int:
    """The final morale level on ``day`` (1 = first day) plus the chart's modifiers (11.2.5, 11.2.13)."""
    if day < 1:
        raise IllegalAction(f"combat day {day} does not exist; the first day is 1")
    return base - DAY_MORALE_DECREMENT * (day - 1) + modifier


def chart_morale_modifier(pairing: land.Pairing, side: str, commander_nation: str | None) -> int:
    """Final-morale bonus from notes (B) and (G) of the operational possibilities chart (000:3037, 000:3047)."""
    bonus = 0
    if "B" in pairing.notes and commander_nation == "TU":
        bonus += land.NOTE_MORALE_BONUS
    if "G" in pairing.notes and side == land.DEFENDER and commander_nation == "RU":
        bonus += land.NOTE_MORALE_BONUS
    return bonus


def breaks(total_morale_loss: int, final_morale_level: int) -> bool:
    """A side breaks when its total morale loss reaches its final morale level (11.2.10, 000:1810)."""
    return total_morale_loss >= final_morale_level
