"""Commanders' ratings in combat (11.2.9, 13.8.5-13.8.7)."""

from __future__ import annotations

from eiapbem.errors import IllegalAction
from eiapbem.rules.cases import procedure
from eiapbem.rules.combat._inputs import need, need_ints
from eiapbem.rules.dice import Dice
from eiapbem.rules.tables import land

#: 13.8.7 (000:2706-2716): the reduction steps stop at six times the tactical maximum.
MAX_TACTICAL_REDUCTION = 6


def effective_tactical_rating(rating: int, tactical_maximum: int, corps: int) -> int:
    """The tactical rating of a leader commanding ``corps`` corps (13.8.7, 000:2704-2722).

    Each whole multiple of the tactical maximum that the corps count exceeds
    costs one point, at most six, and the rating never falls below zero.
    Corps of an outflanking force count (000:2720).
    """
    if tactical_maximum < 1:
        raise IllegalAction(f"a tactical maximum rating of {tactical_maximum} is not possible; it is at least 1")
    if corps < 0:
        raise IllegalAction(f"a commander cannot command {corps} corps")
    reduction = min(MAX_TACTICAL_REDUCTION, max(0, corps - 1) // tactical_maximum)
    return max(0, rating - reduction)


def random_number_modifiers(
    attacker_rating: int, defender_rating: int, pairing: land.Pairing | None = None
) -> tuple[int, int]:
    """(attacker's, defender's) commander-chart modifiers; none under note (F) (000:3045)."""
    if pairing is not None and "F" in pairing.notes:
        return 0, 0
    return land.commander_modifiers(attacker_rating, defender_rating)


@procedure("commander.tactical-rating")
def _tactical_rating_case(inp: dict, dice: Dice) -> dict:
    rating = need(inp, "tactical_rating", int)
    tmr = need(inp, "tactical_maximum", int)
    return {"tactical_rating": [effective_tactical_rating(rating, tmr, n) for n in need_ints(inp, "corps")]}


@procedure("commander.modifiers")
def _modifiers_case(inp: dict, dice: Dice) -> dict:
    att, dfn = land.commander_modifiers(need(inp, "attacker_rating", int), need(inp, "defender_rating", int))
    return {"attacker_modifier": att, "defender_modifier": dfn}
