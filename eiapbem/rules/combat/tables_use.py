"""Which combat table each side uses in a round (11.2.6-11.2.8, 11.2.12).

The operational possibilities chart gives the tables for the two chits; the
river sections replace them on the first day of a river crossing; the "2nd"
set replaces them once an outflanking force has arrived; terrain and a guard
commitment then shift the levels.  While a side's outflanking force is away
its percentage losses inflicted count the pinning force only; once it has
arrived each outflanking factor counts twice (000:1718).
"""

from __future__ import annotations

from eiapbem.core.errors import IllegalAction
from eiapbem.rules.tables import land


def round_tables(
    attacker_chit: str,
    defender_chit: str,
    round_no: int,
    *,
    day: int = 1,
    river_crossing: bool = False,
    outflank_arrived: bool = False,
    terrain: str | None = None,
    attacker_guard_shift: int = 0,
    defender_guard_shift: int = 0,
) -> tuple[land.CombatTable, land.CombatTable]:
    """(attacker's, defender's) effective tables for one round.

    ``river_crossing``: every attacking force crossed a river or crossing
    arrow or disembarked; it counts on the first day only (000:1714).
    """
    att, dfn = land.combat_tables(
        attacker_chit,
        defender_chit,
        round_no,
        outflank_arrived=outflank_arrived,
        river=river_crossing and day == 1,
    )
    return (
        land.effective_table(att, land.ATTACKER, terrain=terrain, guard_shift=attacker_guard_shift),
        land.effective_table(dfn, land.DEFENDER, terrain=terrain, guard_shift=defender_guard_shift),
    )


def loss_basis_factors(pinning_factors: int, outflanking_factors: int, arrived: bool) -> int:
    """Army factors that set the percentage losses an outflanking side inflicts (000:1718)."""
    if pinning_factors < 0 or outflanking_factors < 0:
        raise IllegalAction("a force cannot have fewer than 0 factors")
    return pinning_factors + (2 * outflanking_factors if arrived else 0)


def outflank_arrival_rating(strategic_rating: int, *, after_round: int, terrain: str | None = None) -> int:
    """The strategic rating an arrival check is made against (11.2.12, note (I), 000:1898-1904).

    The check follows round 1 or round 2; after round 2 the rating is +2; in
    forest, mountain or marsh it is -1.
    """
    if after_round not in (1, 2):
        raise IllegalAction(f"outflanking forces are checked after round 1 or 2, not after round {after_round}")
    rating = strategic_rating
    if terrain in land.OUTFLANK_ROUGH_TERRAIN:
        rating += land.OUTFLANK_ROUGH_TERRAIN_MODIFIER
    if after_round == 2:
        rating += land.OUTFLANK_SECOND_ROUND_MODIFIER
    return rating


def outflank_arrives(random_number: int, strategic_rating: int, *, after_round: int, terrain: str | None = None) -> bool:
    """The outflanking force arrives on a random number at most the modified rating (000:1900)."""
    return random_number <= outflank_arrival_rating(strategic_rating, after_round=after_round, terrain=terrain)


def percent_of(percent: int, factors: int) -> int:
    """``percent`` % of ``factors`` rounded to the nearest factor, halves up: the one rounding of land
    combat losses, field and siege alike (docs/decisions.md, "Field combat")."""
    return (2 * percent * factors + 100) // 200
