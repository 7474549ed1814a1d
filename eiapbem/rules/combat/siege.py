"""Siege assault attempts (11.4.1, 000:1950-1972)."""

from __future__ import annotations

from eiapbem.rules.tables import land


def assault_attempt(die: int, siege_value: int, garrison_factors: int, garrison_capacity: int) -> tuple[int, str]:
    """(modified random number, siege table result) of one assault attempt."""
    rn = land.siege_random_number(die, siege_value, land.is_undergarrisoned(garrison_factors, garrison_capacity))
    return rn, land.siege_result(rn)
