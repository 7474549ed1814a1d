"""Pursuit after a field combat (11.2.10, 000:1824-1840)."""

from __future__ import annotations

from eiapbem.core.errors import IllegalAction
from eiapbem.rules.cases import procedure
from eiapbem.rules.combat._inputs import need
from eiapbem.core.dice import Dice
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


@procedure("pursuit.class")
def _class_case(inp: dict, dice: Dice) -> dict:
    loss = need(inp, "victor_morale_loss", int)
    rounds = need(inp, "rounds", int)
    terrain = need(inp, "terrain", str, None)
    pclass = land.pursuit_class(loss, rounds)
    return {
        "pursuit_class": 0 if pclass is None else pclass,
        "column": pursuit_column(loss, rounds, terrain=terrain) or 0,
    }


@procedure("pursuit.losses")
def _losses_case(inp: dict, dice: Dice) -> dict:
    """Draws the pursuit random number (label ``pursuit/random-number``) and reads the pursuit table."""
    column = pursuit_column(
        need(inp, "victor_morale_loss", int, 0),
        need(inp, "rounds", int, 1),
        terrain=need(inp, "terrain", str, None),
        loser_withdrew_unbroken=need(inp, "loser_withdrew_unbroken", bool, False),
    )
    if column is None:
        return {"column": 0, "loss_percent": 0}
    rn = pursuit_random_number(dice.d6("pursuit/random-number"), need(inp, "cavalry_leader", bool, False))
    return {"column": column, "random_number": rn, "loss_percent": land.pursuit_loss_percent(rn, column)}
