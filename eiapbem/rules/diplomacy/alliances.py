"""6.5 Creating alliances against the AI (000:762; NATURAL ALLIANCE TABLE 000:3169-3181)."""

from __future__ import annotations

from dataclasses import dataclass

from eiapbem.core.dice import Dice
from eiapbem.core.powers import check_power
from eiapbem.rules.tables.diplomacy import natural_alliance_modifier, status_modifier


@dataclass(frozen=True)
class AllianceAttempt:
    attempt_total: int  # 1-10 + status modifier + natural alliance modifier
    accept_roll: int  # the accepting power's unmodified 1-20
    formed: bool


def ai_alliance(attempting: str, accepting: str, zone: str, dice: Dice, *, label: str | None = None) -> AllianceAttempt:
    """An attempt to ally with an AI power: formed if the attempting total is at least the 1-20."""
    check_power(attempting, "attempting power")
    check_power(accepting, "accepting power")
    mod = natural_alliance_modifier(attempting, accepting) + status_modifier(zone)
    label = label or f"diplomacy/alliance/{attempting}/{accepting}"
    total = dice.d10(f"{label}/attempt") + mod
    accept = dice.d20(f"{label}/accept")
    return AllianceAttempt(total, accept, total >= accept)
