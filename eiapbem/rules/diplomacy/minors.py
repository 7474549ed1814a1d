"""6.1.4 Manipulating diplomatic relations with minor countries (000:556-598).

A manipulation moves a minor country one level: neutral -> influenced ->
allied for the attempting power, or, against another power's relations,
allied -> influenced -> neutral.  Worked examples at 000:584 and 000:598 are
rules cases in ``tests/cases/diplomacy/``.
"""

from __future__ import annotations

from dataclasses import dataclass

from eiapbem.core.errors import BadData, IllegalAction
from eiapbem.core.dice import Dice
from eiapbem.core.powers import POWER_NAMES, check_power
from eiapbem.rules.tables.diplomacy import MinorCountry, minor, status_modifier

#: Diplomatic statuses a manipulation may start from (6.1.4, 000:559-566).
MANIPULABLE = ("neutral", "influenced", "allied")


class ManipulationRefused(IllegalAction):
    """A manipulation the rules do not allow (6.1.4)."""


@dataclass(frozen=True)
class ManipulationResult:
    minor: str
    power: str
    kind: str  # "own" (neutral or own relations) or "rival" (another power's relations)
    attempt_modifier: int
    attempt_total: int
    resist_modifier: int  # 0 for the minor's own 1-20
    resist_total: int
    difference: int
    required: int
    success: bool
    status: str  # the minor's status afterwards
    holder: str | None  # the power with relations afterwards


def _modifier(m: MinorCountry, power: str) -> int:
    v = m.modifier(power)
    if v is None:
        raise ManipulationRefused(
            f"{POWER_NAMES[power]} has no national modifier for {m.name} (NA on the minor country chart, "
            f"000:{m.line}), so it cannot manipulate it"
        )
    return v


def _zone(zones: dict[str, str], power: str) -> int:
    if power not in zones:
        raise BadData(f"the political status zone of {POWER_NAMES[power]} is needed for a manipulation (6.1.4)")
    return status_modifier(zones[power])


def describe_status(status: str) -> str:
    """A minor's status in a sentence: "neutral", "a free state", "a secondary district"..."""
    words = status.replace("-", " ")
    return f"a {words}" if status in ("free-state", "secondary-district") else words


def manipulate(
    minor_id: str,
    power: str,
    status: str,
    holder: str | None,
    dice: Dice,
    *,
    zones: dict[str, str],
    investment: int = 0,
    allies: tuple[str, ...] = (),
    label: str | None = None,
) -> ManipulationResult:
    """One manipulation attempt by ``power`` on ``minor_id``.

    ``status``/``holder``: the minor's relations now ("neutral" with no
    holder, or "influenced"/"allied" with the power holding them).
    ``zones``: political status zone of every power involved (13.7.2).
    ``investment``: dollars spent, +1 each; only for neutral or own minors.
    ``allies``: the powers allied with ``power`` (their minors are off limits).
    Dice: ``<label>/attempt`` (1-10), and ``<label>/resist`` (1-20 for the
    minor, or 1-10 for the holding power).
    """
    check_power(power, "manipulating power")
    m = minor(minor_id)
    if status not in MANIPULABLE:
        raise ManipulationRefused(
            f"{m.name} is {describe_status(status)}; only neutral, influenced or allied minor countries can be manipulated (6.1.4)"
        )
    if (status == "neutral") != (holder is None):
        raise BadData(f"{m.name}: a neutral minor has no holder and an influenced or allied one has one")
    if holder is not None:
        check_power(holder, "holder")
    if not isinstance(investment, int) or isinstance(investment, bool) or investment < 0:
        raise BadData(f"investment {investment!r} must be a whole number of dollars, 0 or more")
    if m.influence is None:
        raise ManipulationRefused(
            f"{m.name} has no manipulation numbers (NA on the minor country chart, 000:{m.line})"
        )
    if holder is not None and holder in allies:
        raise ManipulationRefused(
            f"{m.name} has relations with {POWER_NAMES[holder]}, an ally of {POWER_NAMES[power]} (6.1.4, 000:558)"
        )
    label = label or f"diplomacy/manipulate/{minor_id}/{power}"
    attempt_mod = 2 * _modifier(m, power) + 2 * _zone(zones, power)

    required: int | None
    if holder is None or holder == power:
        # Neutral, or already influenced by the attempting power (000:570-583).
        kind = "own"
        if status == "allied":
            raise ManipulationRefused(f"{m.name} is already allied with {POWER_NAMES[power]}; there is no higher level")
        attempt_mod += investment
        if status == "neutral":
            required, new_status, new_holder = m.influence, "influenced", power
        else:
            required, new_status, new_holder = m.ally_number(power), "allied", power
        resist_mod = 0
        resist_total = dice.roll(f"{label}/resist", 20)
    else:
        # Another power's influenced or allied minor (000:586-596).
        kind = "rival"
        if investment:
            raise ManipulationRefused(
                f"money spent counts only on neutral minors or one's own influenced minors (6.1.4); "
                f"spend nothing on {m.name}"
            )
        if status == "influenced":
            required, new_status, new_holder = m.influence, "neutral", None
        else:
            # The ally number of the attempting power (footnote *, decision: see docs/decisions.md).
            required, new_status, new_holder = m.ally_number(power), "influenced", holder
        resist_mod = 2 * _modifier(m, holder) + 2 * _zone(zones, holder)
        resist_total = dice.d10(f"{label}/resist") + resist_mod
    attempt_total = dice.d10(f"{label}/attempt") + attempt_mod
    diff = attempt_total - resist_total
    if required is None:
        raise ManipulationRefused(f"{m.name} has no ally number for {POWER_NAMES[power]} (NA on the minor country chart, "
                                  f"000:{m.line})")
    success = diff >= required
    return ManipulationResult(
        minor=minor_id,
        power=power,
        kind=kind,
        attempt_modifier=attempt_mod,
        attempt_total=attempt_total,
        resist_modifier=resist_mod,
        resist_total=resist_total,
        difference=diff,
        required=required,
        success=success,
        status=new_status if success else status,
        holder=new_holder if success else holder,
    )
