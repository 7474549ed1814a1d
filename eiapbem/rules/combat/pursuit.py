"""Pursuit after a field combat (11.2.10, 000:1824-1840)."""

from __future__ import annotations

from eiapbem.core.errors import IllegalAction
from eiapbem.rules.tables import land


def pursuit_column(
    victor_morale_loss: int,
    rounds: int,
    *,
    terrain: str | None = None,
    loser_withdrew_unbroken: bool = False,
) -> int | None:
    """The pursuit table column to use, or None when there is no pursuit.

    The class comes from the pursuit class table, or is 1 against a force
    withdrawing unbroken after a day's combat (000:1826); terrain shifts it
    to the right (000:1832-1836).
    """
    base: int | None
    if loser_withdrew_unbroken:
        base = land.PURSUIT_CLASS_VS_WITHDRAWAL
    else:
        base = land.pursuit_class(victor_morale_loss, rounds)
    return land.modified_pursuit_class(base, terrain)


def pursuit_random_number(die: int, cavalry_leader: bool) -> int:
    """A 1-6 die, +1 with a cavalry leader of a pursuing power (000:1830)."""
    if not 1 <= die <= 6:
        raise IllegalAction(f"a pursuit random number is drawn from 1 to 6, not {die}")
    return die + (land.PURSUIT_CAVALRY_LEADER_MODIFIER if cavalry_leader else 0)
