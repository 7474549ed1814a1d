"""Siege assault attempts (11.4.1, 000:1950-1972)."""

from __future__ import annotations

from eiapbem.rules.cases import procedure
from eiapbem.rules.combat._inputs import need
from eiapbem.core.dice import Dice
from eiapbem.rules.tables import land


def assault_attempt(die: int, siege_value: int, garrison_factors: int, garrison_capacity: int) -> tuple[int, str]:
    """(modified random number, siege table result) of one assault attempt."""
    rn = land.siege_random_number(die, siege_value, land.is_undergarrisoned(garrison_factors, garrison_capacity))
    return rn, land.siege_result(rn)


@procedure("siege.assault-attempt")
def _assault_case(inp: dict, dice: Dice) -> dict:
    """Draws ``siege/assault-attempt`` and reads the siege table."""
    factors = need(inp, "garrison_factors", int)
    capacity = need(inp, "garrison_capacity", int)
    rn, result = assault_attempt(dice.d6("siege/assault-attempt"), need(inp, "siege_value", int), factors, capacity)
    return {"undergarrisoned": land.is_undergarrisoned(factors, capacity), "random_number": rn, "result": result}
