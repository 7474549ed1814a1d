"""Naval charts: the NAVAL COMBAT TABLE with its modifiers, the wind gauge,
interception and evasion numbers (15.0, 000:2978-2988; 8.5, 9.2) and the
naval transport capacities (8.6.2, 000:1152-1160).

The procedures that use these numbers live in ``eiapbem.rules.naval``.
"""

from __future__ import annotations

from dataclasses import dataclass

from eiapbem.core.errors import BadData
from eiapbem.rules.tables import Table, register

# ---------------------------------------------------------------------------
# Naval combat table (000:2984-2986; 9.2.2 000:1228)
# ---------------------------------------------------------------------------

#: Modified random number -> % of the firing side's ships inflicted as losses on
#: the other side (000:2984-2985).  A d6 with a net modifier of -1..+1 gives 0..7.
NAVAL_COMBAT: dict[int, int] = {0: 5, 1: 5, 2: 10, 3: 15, 4: 15, 5: 20, 6: 25, 7: 25}

#: Random number modifiers (000:2986, 9.2.2 000:1228); cumulative, but the net
#: modifier is kept within -1..+1 (000:1228).
COMBAT_MOD_BRITISH = 1  # a British fleet on the side
COMBAT_MOD_HEAVY_RATIO = 1  # 1.5 times the other side's heavy ships
COMBAT_MOD_AUSTRIAN_PRUSSIAN = -1  # an Austrian and/or Prussian fleet on the side
COMBAT_NET_MOD_MIN = -1
COMBAT_NET_MOD_MAX = 1

#: "1.5 times more heavy ships": at least HEAVY_RATIO_NUM/HEAVY_RATIO_DEN times as many (8.1.1 000:1024).
HEAVY_RATIO_NUM = 3
HEAVY_RATIO_DEN = 2


def combat_percent(modified: int) -> int:
    """% loss for a modified naval combat random number (0..7)."""
    try:
        return NAVAL_COMBAT[modified]
    except KeyError:
        raise BadData(f"naval combat random number {modified} is off the table; it must be 0..7") from None


def has_heavy_ratio(own_heavy: int, other_heavy: int) -> bool:
    """True when a side has at least 1.5 times the other side's heavy ships (and some)."""
    return own_heavy > 0 and own_heavy * HEAVY_RATIO_DEN >= other_heavy * HEAVY_RATIO_NUM


def combat_modifier(*, british: bool, heavy_ratio: bool, austrian_or_prussian: bool) -> int:
    """The net random number modifier of one side, within -1..+1 (9.2.2)."""
    net = (
        (COMBAT_MOD_BRITISH if british else 0)
        + (COMBAT_MOD_HEAVY_RATIO if heavy_ratio else 0)
        + (COMBAT_MOD_AUSTRIAN_PRUSSIAN if austrian_or_prussian else 0)
    )
    return max(COMBAT_NET_MOD_MIN, min(COMBAT_NET_MOD_MAX, net))


# ---------------------------------------------------------------------------
# Wind gauge (000:2987; 9.2.1 000:1216)
# ---------------------------------------------------------------------------

WIND_MOD_BRITISH = 1
WIND_MOD_NELSON = 1
WIND_MAX = 6


def wind_number(roll: int, *, british: bool, nelson: bool) -> int:
    """A side's modified wind gauge number: d6 +1 British +1 Nelson, at most 6."""
    return min(WIND_MAX, roll + (WIND_MOD_BRITISH if british else 0) + (WIND_MOD_NELSON if nelson else 0))


# ---------------------------------------------------------------------------
# Interception (000:2988; 8.5.4 000:1120-1126) and evasion (9.2.1.1 000:1220)
# ---------------------------------------------------------------------------

#: Highest modified d6 that intercepts: same sea area 3, adjacent 1 (ports and
#: blockade boxes into adjacent sea areas count as adjacent).
INTERCEPT_MAX: dict[str, int] = {"same": 3, "adjacent": 1}
INTERCEPT_MOD_NELSON = -1

#: Evasion succeeds on a d6 of 1 or 2 (9.2.1.1).
EVADE_MAX = 2


def intercepts(roll: int, where: str, *, nelson: bool) -> bool:
    """Whether a sea-area interception attempt succeeds (blockade boxes intercept automatically)."""
    if where not in INTERCEPT_MAX:
        raise BadData(f"interception from {where!r} is unknown; use 'same' or 'adjacent'")
    return roll + (INTERCEPT_MOD_NELSON if nelson else 0) <= INTERCEPT_MAX[where]


# ---------------------------------------------------------------------------
# Naval transport capacity (8.6.2 000:1152-1160; 8.1 000:1026, 1034, 1044)
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class ShipCapacity:
    """What one ship carries, in half factors (1/2 factor -> 1)."""

    ship: str
    infantry_halves: int  # factors of types other than cavalry (only infantry for light ships)
    cavalry_halves: int
    infantry_only: bool  # light ships carry infantry only (000:1034)
    line: int


TRANSPORT_CAPACITY: dict[str, ShipCapacity] = {
    "heavy": ShipCapacity("heavy", 2, 1, False, 1154),
    "light": ShipCapacity("light", 1, 0, True, 1156),
    "transport": ShipCapacity("transport", 4, 2, False, 1158),
}

#: Army factor types a light ship may carry: infantry of any quality (000:1034, decision).
INFANTRY_TYPES = ("infantry", "militia", "guard")
#: Army factor types that may go by sea at all (8.6: not Cossacks, Freikorps, guerrillas, garrisons).
SEA_TYPES = ("infantry", "militia", "guard", "artillery", "cavalry")


def can_carry(ships: dict[str, int], factors: dict[str, int]) -> bool:
    """Whether ``ships`` (heavy/light/transport counts) can carry ``factors`` (type -> count).

    Capacity is counted in "infantry halves": a heavy ship holds 2 (1 infantry
    or 1/2 cavalry), a light ship 1 usable by infantry only, a transport 4
    (2 infantry or 1 cavalry); a cavalry factor needs 4, any other factor 2.
    """
    for t, n in factors.items():
        if t not in SEA_TYPES:
            raise BadData(f"army factor type {t!r} cannot be transported by sea (8.6)")
        if n < 0:
            raise BadData(f"{n} {t} factors is a negative count")
    for s, n in ships.items():
        if s not in TRANSPORT_CAPACITY:
            raise BadData(f"ship type {s!r} is unknown; use heavy, light or transport")
        if n < 0:
            raise BadData(f"{n} {s} ships is a negative count")
    big = ships.get("heavy", 0) * 2 + ships.get("transport", 0) * 4
    light = ships.get("light", 0)
    infantry_need = sum(factors.get(t, 0) for t in INFANTRY_TYPES) * 2
    other_need = factors.get("artillery", 0) * 2 + factors.get("cavalry", 0) * 4
    return other_need <= big and infantry_need + other_need <= big + light


@register("naval-combat")
def _naval_combat_table() -> Table:
    return Table(
        name="naval-combat",
        title="Naval Combat Table",
        section="15.0, 9.2.2, 9.2.3",
        source="000:2978-2986",
        columns=("random number", "0-1", "2", "3-4", "5", "6-7"),
        rows=(("% loss", 5, 10, 15, 20, 25),),
        notes=(
            "Random number 1-6; +1 British fleet on the side; +1 for 1.5 times the other side's heavy ships; "
            "-1 Austrian and/or Prussian fleet on the side; net modifier at most +1 and at least -1 (9.2.2).",
            "The % of the firing side's ships is removed from the other side, fractions rounded down (9.2.4).",
            "Harbour defences fire first in a port combat with an unmodified number, their value counting as ships (9.2.3).",
        ),
    )


@register("naval-wind-interception")
def _wind_table() -> Table:
    return Table(
        name="naval-wind-interception",
        title="Wind Gauge, Interception and Evasion",
        section="9.2.1, 8.5.4, 9.2.1.1",
        source="000:2987-2988, 000:1120-1126, 000:1216, 000:1220",
        columns=("roll", "needed", "modifiers"),
        rows=(
            ("wind gauge", "highest", "+1 British fleet, +1 Nelson, at most 6; port attacker and blockaders always have it"),
            ("intercept, same sea area", f"{INTERCEPT_MAX['same']} or less", "-1 with Nelson"),
            ("intercept, adjacent sea area", f"{INTERCEPT_MAX['adjacent']} or less", "-1 with Nelson"),
            ("intercept from a blockade box", "automatic", None),
            ("evasion", f"{EVADE_MAX} or less", None),
        ),
        notes=("Equal wind gauge numbers: no wind gauge, fire is simultaneous (9.2.1).",),
    )


@register("naval-transport")
def _transport_table() -> Table:
    def half(n: int) -> str:
        return str(n // 2) if n % 2 == 0 else ("1/2" if n == 1 else f"{n // 2} 1/2")

    rows = tuple(
        (c.ship, half(c.infantry_halves), half(c.cavalry_halves)) for c in TRANSPORT_CAPACITY.values()
    )
    return Table(
        name="naval-transport",
        title="Naval Transport Capacity",
        section="8.6.2",
        source="000:1152-1160",
        columns=("ship", "infantry (or other non-cavalry) factors", "cavalry factors"),
        rows=rows,
        notes=("Light ships carry infantry only (8.1.2).",),
    )
