"""Commanders' ratings in combat (11.2.9, 13.8.5-13.8.7)."""

from __future__ import annotations

from typing import Any

from eiapbem.core.errors import IllegalAction
from eiapbem.rules.combat.battle import SENIORITY, BattleSide, intrinsic_ratings, is_corps, leader_data, leaders_with, unit_factors
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


# ----------------------------------------------------------------- commanders of a battle (13.8.5-13.8.7)


def seniority(world: Any, lid: str) -> int:
    s = leader_data(world, lid).get("seniority", "D")
    return SENIORITY.index(s) if s in SENIORITY else len(SENIORITY)


def combined_rating(world: Any, lid: str) -> int:
    d = leader_data(world, lid)
    return int(d.get("strategic", 0)) + int(d.get("tactical", 0))


def commander_candidates(state: Any, side: BattleSide, world: Any) -> tuple[str, ...]:
    """The leaders who may command (13.8.6): the best seniority; among allies the best combined rating."""
    leaders = leaders_with(state, side.units)
    if not leaders:
        return ()
    best = min(seniority(world, lid) for lid in leaders)
    top = [lid for lid in leaders if seniority(world, lid) == best]
    if len({lid.split(":")[1] for lid in top}) > 1:
        score = max(combined_rating(world, lid) for lid in top)
        top = [lid for lid in top if combined_rating(world, lid) == score][:1]  # then the first listed (000:2688)
    return tuple(top)


def strategic_rating(state: Any, side: BattleSide, world: Any) -> int:
    if side.commander is not None:
        return int(leader_data(world, side.commander).get("strategic", 0))
    return intrinsic_ratings(state, side.units)[0]


def tactical_rating(state: Any, side: BattleSide, world: Any) -> int:
    """The commander's tactical rating this round, reduced past the tactical maximum (13.8.7)."""
    if side.commander is None:
        return intrinsic_ratings(state, side.units)[1]
    d = leader_data(world, side.commander)
    ncorps = sum(1 for u in side.units if is_corps(state, u) and unit_factors(state, u).total > 0)
    rating = effective_tactical_rating(int(d.get("tactical", 0)), int(d.get("tactical_max", 1)), ncorps)
    return max(land.TACTICAL_RATING_MIN, min(land.TACTICAL_RATING_MAX, rating))


def commander_nation(side: BattleSide) -> str | None:
    return side.commander.split(":")[1] if side.commander else None
