"""6.6.4 Selecting the major power that runs an attacked neutral minor (000:816-828)."""

from __future__ import annotations

from eiapbem.core.errors import BadData
from eiapbem.core.dice import Dice
from eiapbem.core.powers import check_power
from eiapbem.rules.tables.diplomacy import minor, status_modifier

AT_WAR_BONUS = 2  # already at war with a power that declared war on the minor (000:828)
_MAX_TIE_ROUNDS = 64


def select_controller(
    minor_id: str,
    candidates: dict[str, dict],
    dice: Dice,
    *,
    label: str | None = None,
) -> tuple[str, dict[str, int]]:
    """The power chosen to run ``minor_id`` and every candidate's modified number.

    ``candidates``: power -> {"zone": status zone, "at_war": bool (at war with
    one of the aggressors)}.  Each rolls 1-12 + national modifier + status
    modifier (+2 at war); ties among the highest are broken by further
    unmodified 1-12 rolls (``<label>/tie<n>/<power>``).
    """
    m = minor(minor_id)
    if not candidates:
        raise BadData(f"no power is willing to run {m.name}; pass at least one candidate")
    label = label or f"diplomacy/minor-control/{minor_id}"
    totals: dict[str, int] = {}
    for power in sorted(candidates):
        check_power(power, "candidate")
        info = candidates[power]
        nat = m.modifier(power)
        if nat is None:
            raise BadData(f"{m.name} has no national modifier for {power} (NA, 000:{m.line})")
        totals[power] = (
            dice.d12(f"{label}/{power}")
            + nat
            + status_modifier(info["zone"])
            + (AT_WAR_BONUS if info.get("at_war") else 0)
        )
    best = max(totals.values())
    tied = sorted(p for p, v in totals.items() if v == best)
    rnd = 0
    while len(tied) > 1:
        rnd += 1
        if rnd > _MAX_TIE_ROUNDS:
            raise BadData(f"the tie for {m.name} did not break in {_MAX_TIE_ROUNDS} rounds of forced dice")
        rolls = {p: dice.d12(f"{label}/tie{rnd}/{p}") for p in tied}
        top = max(rolls.values())
        tied = sorted(p for p, v in rolls.items() if v == top)
    return tied[0], totals
