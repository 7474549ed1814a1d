"""The land-combat charts of section 15.0 (000:2990-3167) as data and lookups.

Each chart is typed data the rules look up directly, plus a printable ``Table``
registered with ``eiapbem.rules.tables.register``:

- the OPERATIONAL POSSIBILITIES CHART with its notes (A)-(I) and terrain
  modifiers (000:3002-3061; 11.2.1-11.2.7);
- the COMBAT RESOLUTION CHART (000:3063-3107; 11.2.9);
- the COMMANDER CHART (000:3109-3128, 003:2148-2236; 11.2.9, 13.8.7);
- the GUARD COMMITMENT TABLE (000:3130-3140; 11.2.8);
- the PURSUIT CLASS and PURSUIT tables (000:3142-3158, 003:1976-2146; 11.2.10), in ``land_pursuit``;
- the SIEGE TABLE (000:3160-3167; 11.4.1), in ``land_siege``.

The last two are modules of their own; this module re-exports their names, so every
``land.<name>`` reads as before.

Units (see ``eiapbem.rules.tables``): morale losses in hundredths (a chart
entry "-0.4" is a loss of 40), percentages as whole numbers.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from eiapbem.rules.tables import Table, register
from eiapbem.rules.tables.land_common import ATTACKER, DEFENDER, NotOnChart

# The pursuit and siege charts live in their own modules (this one was over 800 lines); every name is
# read through this module as before (``land.pursuit_class``, ``land.SIEGE_TABLE``...).
from eiapbem.rules.tables.land_pursuit import (  # noqa: F401  (re-exported)
    PURSUIT_CAVALRY_LEADER_MODIFIER,
    PURSUIT_CLASS_ROWS,
    PURSUIT_CLASS_VS_WITHDRAWAL,
    PURSUIT_CLASSES,
    PURSUIT_LOSS_EQUIVALENT,
    PURSUIT_LOSSES,
    PURSUIT_TERRAIN_SHIFTS,
    modified_pursuit_class,
    pursuit_class,
    pursuit_loss_percent,
)
from eiapbem.rules.tables.land_siege import (  # noqa: F401  (re-exported)
    BREACH,
    NO_RESULT,
    SIEGE_TABLE,
    SIEGE_UNDERGARRISON_MARGIN,
    SIEGE_UNDERGARRISONED_MODIFIER,
    SORTIE,
    SIEGE_RESULT_WORDS,
    SORTIE_DEFENDER_LOSES_FROM,
    is_undergarrisoned,
    siege_random_number,
    siege_result,
    siege_result_words,
    sortie_loser,
)

#: The attacker's operational possibilities chits, in the chart's column order (000:3003).
ATTACKER_CHITS = ("outflank", "assault", "escalated-assault", "echelon", "probe")
#: The defender's chits, in the chart's row order (000:3005-3029).
DEFENDER_CHITS = ("outflank", "counter-attack", "escalated-counter-attack", "cordon", "withdrawal", "defend")

_CHIT_TITLES = {
    "outflank": "Outflank",
    "assault": "Assault",
    "escalated-assault": "Escalated Assault",
    "echelon": "Echelon",
    "probe": "Probe",
    "counter-attack": "Counter Attack",
    "escalated-counter-attack": "Escalated Counter Attack",
    "cordon": "Cordon",
    "withdrawal": "Withdrawal",
    "defend": "Defend",
}

#: Casualty and morale levels of the combat resolution chart (000:3065-3066).
LEVEL_MIN = 1
LEVEL_MAX = 5
#: Modified combat random numbers the chart lists (000:3068-3075).
RANDOM_NUMBER_MIN = 0
RANDOM_NUMBER_MAX = 7
#: 11.2.9 (000:1772): the cumulative random-number modifier never exceeds +1.
RANDOM_NUMBER_MAX_MODIFIER = 1


# --------------------------------------------------------------------------
# Combat tables ("casualty level - morale level", 11.2.6)
# --------------------------------------------------------------------------


@dataclass(frozen=True, order=True)
class CombatTable:
    """One combat table of the combat resolution chart, e.g. "2-3" (11.2.6, 000:1710)."""

    casualty: int
    morale: int

    def __post_init__(self) -> None:
        for what, v in (("casualty", self.casualty), ("morale", self.morale)):
            if not (isinstance(v, int) and LEVEL_MIN <= v <= LEVEL_MAX):
                raise NotOnChart(f"combat table {what} level {v!r} is not between {LEVEL_MIN} and {LEVEL_MAX}")

    @classmethod
    def parse(cls, text: str) -> "CombatTable":
        parts = text.split("-")
        if len(parts) != 2 or not all(p.isdigit() for p in parts):
            raise NotOnChart(f"{text!r} is not a combat table; write casualty-morale, e.g. '2-3'")
        return cls(int(parts[0]), int(parts[1]))

    def __str__(self) -> str:
        return f"{self.casualty}-{self.morale}"


def _clamp(v: int) -> int:
    return max(LEVEL_MIN, min(LEVEL_MAX, v))


def modify_table(table: CombatTable, casualty_shift: int = 0, morale_shift: int = 0) -> CombatTable:
    """``table`` shifted and kept within the chart's levels 1-5.

    11.2.7 (000:1722) bounds the modified levels; the chart only has levels 1-5
    (000:3065-3066), so a level shifted past either end uses the end table
    (see docs/decisions.md, "Land combat charts").
    """
    return CombatTable(_clamp(table.casualty + casualty_shift), _clamp(table.morale + morale_shift))


Rounds = tuple["CombatTable | None", "CombatTable | None", "CombatTable | None"]


def _rounds(text: str) -> Rounds:
    cells = text.split()
    if len(cells) != 3:
        raise ValueError(f"three rounds expected in {text!r}")
    return tuple(None if c == "--" else CombatTable.parse(c) for c in cells)  # type: ignore[return-value]


@dataclass(frozen=True)
class TableSet:
    """The attacker's ("A") and defender's ("D") tables for rounds 1-3; None is "--"."""

    attacker: Rounds
    defender: Rounds

    def side(self, side: str) -> Rounds:
        if side == ATTACKER:
            return self.attacker
        if side == DEFENDER:
            return self.defender
        raise NotOnChart(f"side {side!r} is neither {ATTACKER!r} nor {DEFENDER!r}")

    def text(self, side: str) -> str:
        return " ".join("--" if t is None else str(t) for t in self.side(side))


def _set(a: str, d: str) -> TableSet:
    return TableSet(_rounds(a), _rounds(d))


# --------------------------------------------------------------------------
# Operational possibilities chart (000:3002-3030)
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Withdrawal:
    """How a withdrawal chit fares against one attacker chit (11.2.4, 000:3025).

    ``automatic``: it always succeeds (against probe). Otherwise it succeeds
    when the random number is at most the strategic rating plus ``rating_modifier``.
    """

    automatic: bool
    rating_modifier: int = 0


@dataclass(frozen=True)
class Pairing:
    """One cell of the operational possibilities chart.

    ``first`` holds the normal tables; where a side outflanks (``outflanker``)
    they are the "1st" set used until the outflanking force arrives and
    ``second`` is the "2nd" set used once it has (11.2.6, 000:1718).  ``river``
    replaces ``first`` on the first day when every attacker crossed a river
    or a crossing arrow or disembarked (000:1714).  ``first`` is None only
    where the withdrawal is automatic.
    """

    attacker_chit: str
    defender_chit: str
    source: str
    first: TableSet | None
    second: TableSet | None = None
    river: TableSet | None = None
    outflanker: str | None = None
    withdrawal: Withdrawal | None = None
    notes: tuple[str, ...] = ()


def _p(
    att: str,
    dfn: str,
    line: int,
    a: str | None,
    d: str | None,
    *,
    a2: str | None = None,
    d2: str | None = None,
    ra: str | None = None,
    rd: str | None = None,
    outflanker: str | None = None,
    withdrawal: Withdrawal | None = None,
    notes: str = "",
) -> Pairing:
    return Pairing(
        attacker_chit=att,
        defender_chit=dfn,
        source=f"000:{line}",
        first=_set(a, d) if a is not None and d is not None else None,
        second=_set(a2, d2) if a2 is not None and d2 is not None else None,
        river=_set(ra, rd) if ra is not None and rd is not None else None,
        outflanker=outflanker,
        withdrawal=withdrawal,
        notes=tuple(notes.split()),
    )


_RATING = Withdrawal(automatic=False, rating_modifier=0)
_RATING_PLUS_1 = Withdrawal(automatic=False, rating_modifier=1)
_AUTOMATIC = Withdrawal(automatic=True)

_PAIRINGS_LIST = (
    # Defender outflank (000:3005).  Against an outflanking attacker neither
    # army is split (note A); otherwise the defender outflanks (note I).
    _p("outflank", "outflank", 3005, "1-2 1-4 2-4", "1-2 1-4 2-4", notes="A"),
    _p("assault", "outflank", 3005, "2-3 3-3 3-3", "2-1 2-1 2-2",
       a2="-- 3-1 3-1", d2="-- 4-4 4-4", outflanker=DEFENDER, notes="I"),
    _p("escalated-assault", "outflank", 3005, "3-3 4-3 3-3", "3-1 3-1 3-2",
       a2="-- 4-1 4-1", d2="-- 5-4 5-4", outflanker=DEFENDER, notes="I"),
    _p("echelon", "outflank", 3005, "2-1 3-1 3-2", "2-1 2-1 2-1",
       a2="-- 2-1 1-1", d2="-- 3-3 3-4", outflanker=DEFENDER, notes="I"),
    _p("probe", "outflank", 3005, "2-1 4-2 4-3", "2-1 2-1 1-1",
       a2="-- 4-2 4-2", d2="-- 2-3 2-2", outflanker=DEFENDER, notes="I"),
    # Counter attack (000:3010).
    _p("outflank", "counter-attack", 3010, "2-1 2-1 2-2", "2-3 3-3 3-3",
       a2="-- 4-4 4-4", d2="-- 3-1 3-1", outflanker=ATTACKER, notes="I"),
    _p("assault", "counter-attack", 3010, "3-1 4-2 3-2", "3-1 4-2 3-2", notes="B"),
    _p("escalated-assault", "counter-attack", 3010, "4-1 5-2 4-2", "4-1 5-2 4-2", notes="B"),
    _p("echelon", "counter-attack", 3010, "1-2 3-4 2-4", "3-1 4-1 2-1"),
    _p("probe", "counter-attack", 3010, "1-1 1-3 2-2", "3-2 3-2 4-2"),
    # Escalated counter attack (000:3015).
    _p("outflank", "escalated-counter-attack", 3015, "3-1 3-1 3-2", "3-3 4-3 4-3",
       a2="-- 5-4 5-4", d2="-- 4-1 4-1", outflanker=ATTACKER, notes="I"),
    _p("assault", "escalated-counter-attack", 3015, "4-1 5-2 4-2", "4-1 5-2 4-2", notes="B"),
    _p("escalated-assault", "escalated-counter-attack", 3015, "4-1 5-2 4-2", "4-1 5-2 4-2", notes="B"),
    _p("echelon", "escalated-counter-attack", 3015, "2-2 4-4 3-4", "3-1 4-1 2-1"),
    _p("probe", "escalated-counter-attack", 3015, "2-1 2-3 3-2", "4-2 4-2 5-2"),
    # Cordon (000:3020): the only row with river sections (11.2.6, 000:1714).
    # Escalated assault, river, attacker: the manual's 5-1 5-2 5-1 (chart 003:1852
    # has 5-2 5-2 5-1; seeds/README.md: use the manual).
    _p("outflank", "cordon", 3020, "2-1 3-1 2-1", "3-2 4-2 4-3", notes="A"),
    _p("assault", "cordon", 3020, "4-1 4-3 4-1", "2-1 2-1 3-1",
       ra="4-1 4-2 4-1", rd="2-1 3-1 4-1"),
    _p("escalated-assault", "cordon", 3020, "5-1 5-3 5-1", "3-1 3-1 4-1",
       ra="5-1 5-2 5-1", rd="3-1 4-1 5-1"),
    _p("echelon", "cordon", 3020, "2-1 3-1 4-1", "3-1 4-2 4-3",
       ra="2-1 3-1 3-1", rd="4-1 4-2 4-3", notes="C"),
    _p("probe", "cordon", 3020, "1-1 4-2 4-2", "1-2 2-1 3-1",
       ra="1-1 4-1 4-1", rd="1-2 3-1 3-1"),
    # Withdrawal (000:3025): the tables are those fought if the withdrawal fails.
    _p("outflank", "withdrawal", 3025, "2-2 -- --", "1-1 -- --",
       a2="-- 3-4 3-4", d2="-- 1-1 1-1", outflanker=ATTACKER,
       withdrawal=_RATING_PLUS_1, notes="D H I"),
    _p("assault", "withdrawal", 3025, "4-2 4-2 4-3", "1-1 1-1 1-1",
       withdrawal=_RATING, notes="H"),
    _p("escalated-assault", "withdrawal", 3025, "5-2 5-2 5-3", "2-1 2-1 2-1",
       withdrawal=_RATING, notes="H"),
    _p("echelon", "withdrawal", 3025, "3-1 3-2 3-3", "1-1 1-1 2-1",
       withdrawal=_RATING_PLUS_1, notes="H"),
    _p("probe", "withdrawal", 3025, None, None, withdrawal=_AUTOMATIC),
    # Defend (000:3029).
    _p("outflank", "defend", 3029, "2-1 3-1 3-1", "3-1 4-1 4-2",
       a2="-- 2-4 4-4", d2="-- 1-1 1-1", outflanker=ATTACKER, notes="E I"),
    _p("assault", "defend", 3029, "3-1 3-1 2-1", "4-1 4-2 4-3", notes="F G"),
    _p("escalated-assault", "defend", 3029, "3-1 3-1 2-1", "5-1 5-2 5-3", notes="F G"),
    _p("echelon", "defend", 3029, "1-3 2-3 2-4", "4-1 3-1 2-1"),
    _p("probe", "defend", 3029, "1-1 3-1 3-3", "3-2 3-1 2-1", notes="G"),
)

#: (attacker chit, defender chit) -> Pairing, every pairing of the chart.
OPERATIONAL_POSSIBILITIES: dict[tuple[str, str], Pairing] = {
    (p.attacker_chit, p.defender_chit): p for p in _PAIRINGS_LIST
}

#: The notes (A)-(I) of the chart (000:3035-3051), in the project's words.
OPERATIONAL_NOTES: dict[str, str] = {
    "A": "Neither army splits into a pinning and an outflanking force.",
    "B": "A side commanded by a Turkish leader adds +1 to its final morale level.",
    "C": "An Austrian commander adds +1 to the combat resolution random number (the net modifier stays at most +1).",
    "D": "If the outflanking force has not arrived after round 1, the defender withdraws before round 2 and cannot be pursued.",
    "E": "The attacking commander's strategic rating is +1.",
    "F": "Tactical ratings do not modify the random numbers (the commander chart is not used).",
    "G": "A defender commanded by a Russian leader adds +1 to its final morale level.",
    "H": "A defender of only cavalry, Cossacks and/or Freikorps has strategic rating +1.",
    "I": "The outflanking force arrives on a random number at most the modified strategic rating: -1 in forest, mountain or marsh, +2 at the end of round 2.",
}

#: Final-morale bonus of notes (B) and (G), in hundredths (000:3037, 000:3047).
NOTE_MORALE_BONUS = 100
#: Strategic-rating bonus of notes (E) and (H) (000:3043, 000:3049).
NOTE_STRATEGIC_BONUS = 1
#: Note (I) (000:3051; 11.2.12, 000:1902-1904): arrival modifiers.
OUTFLANK_ROUGH_TERRAIN = ("forest", "mountain", "marsh")
OUTFLANK_ROUGH_TERRAIN_MODIFIER = -1
OUTFLANK_SECOND_ROUND_MODIFIER = 2


def _check_chits(attacker_chit: str, defender_chit: str) -> None:
    if attacker_chit not in ATTACKER_CHITS:
        raise NotOnChart(
            f"{attacker_chit!r} is not an attacker's chit",
            hint="the attacker chooses one of " + ", ".join(ATTACKER_CHITS),
        )
    if defender_chit not in DEFENDER_CHITS:
        raise NotOnChart(
            f"{defender_chit!r} is not a defender's chit",
            hint="the defender chooses one of " + ", ".join(DEFENDER_CHITS),
        )


def operational_possibility(attacker_chit: str, defender_chit: str) -> Pairing:
    """The chart's cell for two chits (11.2.3)."""
    _check_chits(attacker_chit, defender_chit)
    return OPERATIONAL_POSSIBILITIES[(attacker_chit, defender_chit)]


def combat_tables(
    attacker_chit: str,
    defender_chit: str,
    round_no: int,
    *,
    outflank_arrived: bool = False,
    river: bool = False,
) -> tuple[CombatTable, CombatTable]:
    """(attacker's table, defender's table) for one round before terrain and guard.

    ``river``: every attacking force crossed a river or crossing arrow or
    disembarked, and this is the first day (000:1714).  ``outflank_arrived``:
    the outflanking force of the pairing's outflanker has arrived (000:1718).
    """
    pairing = operational_possibility(attacker_chit, defender_chit)
    if round_no not in (1, 2, 3):
        raise NotOnChart(f"combat round {round_no!r} is not 1, 2 or 3; a day has three rounds (11.2.6)")
    if pairing.first is None:
        raise NotOnChart(f"{attacker_chit} against {defender_chit} is an automatic withdrawal; there is no combat")
    chosen = pairing.first
    name = "tables"
    if outflank_arrived:
        if pairing.second is None:
            raise NotOnChart(f"{attacker_chit} against {defender_chit} has no outflanking force to arrive")
        chosen, name = pairing.second, "2nd-set tables"
    elif river and pairing.river is not None:
        chosen, name = pairing.river, "river tables"
    a = chosen.attacker[round_no - 1]
    d = chosen.defender[round_no - 1]
    if a is None or d is None:
        raise NotOnChart(f"{attacker_chit} against {defender_chit} has no round {round_no} in its {name} ({pairing.source})")
    return a, d


# --------------------------------------------------------------------------
# Terrain modifiers (11.2.7, 000:1722-1730 and 000:3055-3061)
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class TerrainShift:
    """Level shifts of one terrain: (casualty, morale) for the attacker and the defender."""

    attacker_casualty: int
    attacker_morale: int
    defender_casualty: int
    defender_morale: int

    def for_side(self, side: str) -> tuple[int, int]:
        if side == ATTACKER:
            return self.attacker_casualty, self.attacker_morale
        if side == DEFENDER:
            return self.defender_casualty, self.defender_morale
        raise NotOnChart(f"side {side!r} is neither {ATTACKER!r} nor {DEFENDER!r}")


#: Terrains that shift the combat tables; every other terrain shifts nothing.
TERRAIN_SHIFTS: dict[str, TerrainShift] = {
    "forest": TerrainShift(-1, 0, -1, 0),  # 000:1724, 000:3055
    "mountain": TerrainShift(-1, 0, 0, 0),  # 000:1726, 000:3057
    "marsh": TerrainShift(-1, 1, -1, 1),  # 000:1728, 000:3059
    "desert": TerrainShift(0, 1, 0, 1),  # 000:1730, 000:3061
}
_NO_SHIFT = TerrainShift(0, 0, 0, 0)


def terrain_shift(terrain: str | None) -> TerrainShift:
    return TERRAIN_SHIFTS.get(terrain or "", _NO_SHIFT)


def effective_table(table: CombatTable, side: str, *, terrain: str | None = None, guard_shift: int = 0) -> CombatTable:
    """``table`` for ``side`` after the terrain (11.2.7) and a guard commitment (11.2.8), within 1-5."""
    if guard_shift not in GUARD_SHIFTS and guard_shift != 0:
        raise NotOnChart(f"a guard commitment shifts the morale level by +1 or +2, not {guard_shift!r} (11.2.8)")
    cas, mor = terrain_shift(terrain).for_side(side)
    return modify_table(table, cas, mor + guard_shift)


# --------------------------------------------------------------------------
# Combat resolution chart (11.2.9, 000:3063-3107)
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class CombatResult:
    """One entry: the percentage loss ("%LS") the enemy takes, and the morale loss ("MRLS") in hundredths."""

    loss_percent: int
    morale_loss: int


# morale level -> random number 0..7 -> casualty level 1..5 -> (%LS, MRLS in hundredths).
# The chart prints morale losses as negative tenths ("-0.4"); here they are
# positive hundredths (40) to be added to the enemy's accumulated morale loss.
_CRT: dict[int, tuple[tuple[tuple[int, int], ...], ...]] = {
    1: (  # 000:3068-3075
        ((0, 0), (0, 0), (0, 0), (0, 0), (5, 10)),  # 0
        ((0, 0), (0, 0), (0, 0), (5, 20), (5, 30)),  # 1
        ((0, 0), (0, 0), (5, 20), (5, 40), (10, 60)),  # 2
        ((0, 0), (5, 20), (5, 50), (10, 70), (10, 100)),  # 3
        ((0, 20), (5, 50), (10, 80), (10, 100), (15, 140)),  # 4
        ((5, 40), (5, 80), (10, 110), (15, 140), (15, 180)),  # 5
        ((5, 60), (10, 110), (10, 150), (15, 190), (15, 220)),  # 6
        ((5, 80), (10, 140), (15, 190), (15, 240), (20, 260)),  # 7
    ),
    2: (  # 000:3076-3083
        ((0, 0), (0, 0), (0, 10), (0, 40), (5, 50)),  # 0
        ((0, 0), (0, 20), (5, 30), (5, 70), (10, 80)),  # 1
        ((0, 20), (5, 40), (5, 60), (5, 100), (10, 110)),  # 2
        ((0, 50), (5, 70), (5, 100), (10, 130), (10, 140)),  # 3
        ((5, 80), (5, 100), (10, 140), (15, 160), (15, 180)),  # 4
        ((5, 110), (10, 140), (10, 180), (15, 190), (15, 230)),  # 5
        ((5, 150), (10, 190), (15, 220), (15, 230), (20, 280)),  # 6
        ((10, 190), (10, 240), (15, 260), (20, 280), (20, 330)),  # 7
    ),
    3: (  # 000:3084-3091
        ((0, 0), (0, 30), (0, 50), (5, 80), (5, 90)),  # 0
        ((0, 30), (0, 50), (5, 80), (5, 100), (10, 110)),  # 1
        ((0, 60), (5, 80), (5, 110), (10, 130), (10, 140)),  # 2
        ((5, 90), (5, 110), (10, 140), (10, 160), (15, 180)),  # 3
        ((5, 130), (10, 150), (10, 180), (15, 200), (15, 230)),  # 4
        ((5, 180), (10, 200), (15, 230), (15, 250), (20, 290)),  # 5
        ((10, 230), (10, 260), (15, 280), (15, 310), (20, 350)),  # 6
        ((10, 280), (15, 320), (15, 330), (20, 370), (20, 410)),  # 7
    ),
    4: (  # 000:3092-3099
        ((0, 40), (0, 60), (5, 90), (5, 110), (5, 130)),  # 0
        ((0, 60), (5, 90), (5, 110), (10, 140), (10, 160)),  # 1
        ((5, 90), (5, 120), (5, 140), (10, 170), (15, 200)),  # 2
        ((5, 130), (5, 160), (10, 180), (10, 210), (15, 240)),  # 3
        ((5, 180), (10, 210), (10, 230), (15, 260), (15, 290)),  # 4
        ((10, 240), (10, 260), (15, 290), (15, 310), (20, 340)),  # 5
        ((10, 300), (15, 320), (15, 350), (20, 370), (20, 390)),  # 6
        ((10, 360), (15, 380), (20, 410), (20, 430), (25, 450)),  # 7
    ),
    5: (  # 000:3100-3107
        ((0, 90), (5, 110), (5, 140), (5, 160), (5, 180)),  # 0
        ((5, 110), (5, 140), (5, 160), (10, 190), (10, 210)),  # 1
        ((5, 140), (5, 170), (10, 190), (10, 220), (15, 250)),  # 2
        ((5, 180), (10, 210), (10, 230), (15, 260), (15, 290)),  # 3
        ((5, 230), (10, 260), (15, 280), (15, 310), (20, 340)),  # 4
        ((10, 290), (10, 310), (15, 340), (20, 360), (20, 390)),  # 5
        ((10, 350), (15, 370), (15, 400), (20, 420), (25, 440)),  # 6
        ((15, 410), (15, 430), (20, 460), (20, 480), (25, 500)),  # 7
    ),
}

#: (casualty level, morale level, random number) -> CombatResult, every cell of the chart.
COMBAT_RESOLUTION: dict[tuple[int, int, int], CombatResult] = {
    (cas, mor, rn): CombatResult(*_CRT[mor][rn][cas - 1])
    for mor in range(LEVEL_MIN, LEVEL_MAX + 1)
    for rn in range(RANDOM_NUMBER_MIN, RANDOM_NUMBER_MAX + 1)
    for cas in range(LEVEL_MIN, LEVEL_MAX + 1)
}


def combat_result(casualty_level: int, morale_level: int, random_number: int) -> CombatResult:
    """The combat resolution chart: table ``casualty_level``-``morale_level``, modified random number 0-7."""
    for what, v, lo, hi in (
        ("casualty level", casualty_level, LEVEL_MIN, LEVEL_MAX),
        ("morale level", morale_level, LEVEL_MIN, LEVEL_MAX),
        ("random number", random_number, RANDOM_NUMBER_MIN, RANDOM_NUMBER_MAX),
    ):
        if not (isinstance(v, int) and lo <= v <= hi):
            raise NotOnChart(f"the combat resolution chart has no {what} {v!r}; it lists {lo} to {hi} (000:3066-3068)")
    return COMBAT_RESOLUTION[(casualty_level, morale_level, random_number)]


def combat_result_for(table: CombatTable, random_number: int) -> CombatResult:
    return combat_result(table.casualty, table.morale, random_number)


def combat_random_number(die: int, modifiers: Iterable[int] = ()) -> int:
    """A 1-6 die plus its cumulative modifiers, capped at +1 in total (11.2.9, 000:1772)."""
    if not (isinstance(die, int) and 1 <= die <= 6):
        raise NotOnChart(f"a combat random number is drawn from 1 to 6, not {die!r} (11.2.9)")
    return die + min(RANDOM_NUMBER_MAX_MODIFIER, sum(modifiers))


#: Fixed tables used outside the operational possibilities chart.
TRIVIAL_COMBAT_TABLE = CombatTable(5, 2)  # 11.3, both sides, every round (000:1938)
ARTILLERY_BOMBARDMENT_TABLE = CombatTable(5, 5)  # 11.2.8 (000:1760)
SIEGE_ASSAULT_BESIEGER_TABLE = CombatTable(5, 1)  # 11.4.1 (000:1982)
SIEGE_ASSAULT_DEFENDER_TABLE = CombatTable(5, 2)  # 11.4.1 (000:1982)
GARRISON_ATTACK_GARRISON_TABLE = CombatTable(5, 1)  # 11.4.2 (000:2008)
GARRISON_ATTACK_BESIEGER_TABLE = CombatTable(5, 2)  # 11.4.2 (000:2008)


# --------------------------------------------------------------------------
# Commander chart (11.2.9, 000:3109-3128; 003:2148-2236)
# --------------------------------------------------------------------------

TACTICAL_RATING_MIN = 0
TACTICAL_RATING_MAX = 5

# defender's rating -> (attacker's modifier for attacker rating 0..5,
#                       defender's modifier for attacker rating 0..5)
_COMMANDER_ROWS: dict[int, tuple[tuple[int, ...], tuple[int, ...]]] = {
    0: ((-1, 0, 0, 1, 1, 1), (-1, -1, -1, -1, -1, -1)),  # 000:3115-3116
    1: ((-1, -1, 0, 0, 1, 1), (0, -1, -1, -1, -1, -1)),  # 000:3117-3118
    2: ((-1, -1, 0, 0, 1, 1), (0, 0, 0, -1, 0, -1)),  # 000:3119-3120
    3: ((-1, -1, -1, 0, 1, 1), (1, 0, 0, 0, 0, 0)),  # 000:3121-3122
    4: ((-1, -1, 0, 0, 1, 1), (1, 1, 1, 1, 1, 0)),  # 000:3123-3124
    5: ((-1, -1, -1, 0, 0, 1), (1, 1, 1, 1, 1, 1)),  # 000:3125-3126
}

#: (attacker's tactical rating, defender's tactical rating) -> (attacker's modifier, defender's modifier).
COMMANDER_CHART: dict[tuple[int, int], tuple[int, int]] = {
    (att, dfn): (_COMMANDER_ROWS[dfn][0][att], _COMMANDER_ROWS[dfn][1][att])
    for dfn in range(TACTICAL_RATING_MIN, TACTICAL_RATING_MAX + 1)
    for att in range(TACTICAL_RATING_MIN, TACTICAL_RATING_MAX + 1)
}


def commander_modifiers(attacker_rating: int, defender_rating: int) -> tuple[int, int]:
    """(attacker's, defender's) random-number modifiers for the commanders' tactical ratings."""
    for who, v in (("attacking", attacker_rating), ("defending", defender_rating)):
        if not (isinstance(v, int) and TACTICAL_RATING_MIN <= v <= TACTICAL_RATING_MAX):
            raise NotOnChart(
                f"the {who} commander's tactical rating {v!r} is not on the commander chart, which lists 0 to 5"
            )
    return COMMANDER_CHART[(attacker_rating, defender_rating)]


# --------------------------------------------------------------------------
# Guard commitment table (11.2.8, 000:3130-3140)
# --------------------------------------------------------------------------

GUARD_SHIFTS = (1, 2)
# random number 1..6 -> (guard factors lost for a +1 shift, for a +2 shift)
GUARD_COMMITMENT: dict[int, tuple[int, int]] = {
    1: (0, 1),  # 000:3134
    2: (0, 1),  # 000:3135
    3: (1, 2),  # 000:3136
    4: (1, 2),  # 000:3137
    5: (2, 3),  # 000:3138
    6: (2, 4),  # 000:3139
}
#: Who may commit guards for each shift, and the fewest guard factors needed (11.2.8, 000:1742; 000:3140).
GUARD_SHIFT_NATIONS: dict[int, tuple[str, ...]] = {1: ("AU", "FR", "PR", "RU"), 2: ("FR", "RU")}
GUARD_SHIFT_MIN_FACTORS: dict[int, int] = {1: 1, 2: 2}


def guard_losses(random_number: int, shift: int) -> int:
    """Extra guard factors lost when committing the guard for a morale shift of ``shift``."""
    if shift not in GUARD_SHIFTS:
        raise NotOnChart(f"a guard commitment shifts the morale level by +1 or +2, not {shift!r} (11.2.8)")
    if random_number not in GUARD_COMMITMENT:
        raise NotOnChart(f"the guard commitment table lists random numbers 1 to 6, not {random_number!r}")
    return GUARD_COMMITMENT[random_number][shift - 1]


# --------------------------------------------------------------------------
# Printable tables
# --------------------------------------------------------------------------


def _tenths(hundredths: int) -> str:
    """A morale loss as the chart prints it: 40 -> "-0.4", 0 -> "0"."""
    if hundredths == 0:
        return "0"
    return f"-{hundredths // 100}.{hundredths % 100 // 10}"


def _opt(s: TableSet | None, side: str) -> str | None:
    return None if s is None else s.text(side)


@register("operational-possibilities")
def _operational_possibilities_table() -> Table:
    rows = []
    for dfn in DEFENDER_CHITS:
        for att in ATTACKER_CHITS:
            p = OPERATIONAL_POSSIBILITIES[(att, dfn)]
            if p.withdrawal is None:
                wd = None
            elif p.withdrawal.automatic:
                wd = "automatic"
            else:
                wd = "strategic rating" + (f" +{p.withdrawal.rating_modifier}" if p.withdrawal.rating_modifier else "")
            rows.append(
                (
                    _CHIT_TITLES[att],
                    _CHIT_TITLES[dfn],
                    _opt(p.first, ATTACKER),
                    _opt(p.first, DEFENDER),
                    _opt(p.second, ATTACKER),
                    _opt(p.second, DEFENDER),
                    _opt(p.river, ATTACKER),
                    _opt(p.river, DEFENDER),
                    p.outflanker,
                    wd,
                    " ".join(f"({n})" for n in p.notes) or None,
                )
            )
    notes = tuple(f"({k}) {v}" for k, v in OPERATIONAL_NOTES.items()) + (
        "Tables read casualty level - morale level; '--' is a round without that set.",
        "A/D: the attacker's/defender's tables for rounds 1-3 (the '1st' set while an outflanking force is away);",
        "A 2nd/D 2nd: once it has arrived; river: first day when every attacker crossed a river or arrow or disembarked.",
        "Withdrawal: succeeds on a random number at most the strategic rating (plus the modifier shown).",
        "Terrain: see the chart 'combat-terrain'.",
    )
    return Table(
        name="operational-possibilities",
        title="Operational Possibilities Chart",
        section="11.2.3",
        source="000:3002-3051",
        columns=("attacker", "defender", "A", "D", "A 2nd", "D 2nd", "A river", "D river", "outflanker", "withdrawal", "notes"),
        rows=tuple(rows),
        notes=notes,
    )


@register("combat-terrain")
def _terrain_table() -> Table:
    rows = tuple(
        (t, s.attacker_casualty, s.attacker_morale, s.defender_casualty, s.defender_morale)
        for t, s in TERRAIN_SHIFTS.items()
    )
    return Table(
        name="combat-terrain",
        title="Operational Possibilities Chart: terrain modifiers",
        section="11.2.7",
        source="000:1722-1730, 000:3053-3061",
        columns=("terrain", "attacker casualty", "attacker morale", "defender casualty", "defender morale"),
        rows=rows,
        notes=(
            "Shifts add to the combat table's levels; other terrain shifts nothing.",
            f"A shifted level stays within {LEVEL_MIN}-{LEVEL_MAX}, the levels of the combat resolution chart.",
        ),
    )


@register("combat-resolution")
def _combat_resolution_table() -> Table:
    rows = []
    for mor in range(LEVEL_MIN, LEVEL_MAX + 1):
        for rn in range(RANDOM_NUMBER_MIN, RANDOM_NUMBER_MAX + 1):
            row: list[str | int] = [mor, rn]
            for cas in range(LEVEL_MIN, LEVEL_MAX + 1):
                r = COMBAT_RESOLUTION[(cas, mor, rn)]
                row += [f"{r.loss_percent}%" if r.loss_percent else "0", _tenths(r.morale_loss)]
            rows.append(tuple(row))
    columns = ("morale level", "random number") + tuple(
        x for cas in range(LEVEL_MIN, LEVEL_MAX + 1) for x in (f"cas {cas} %LS", f"cas {cas} MRLS")
    )
    return Table(
        name="combat-resolution",
        title="Combat Resolution Chart",
        section="11.2.9",
        source="000:3063-3107",
        columns=columns,
        rows=tuple(rows),
        notes=(
            "Table 'C-M' is casualty level C (columns) and morale level M (row blocks).",
            "%LS: percentage of the side's army factors the enemy loses; MRLS: subtracted from the enemy's final morale.",
            "The random number is 1-6, cumulatively modified by at most +1 (11.2.9).",
        ),
    )


@register("commander")
def _commander_table() -> Table:
    rows = []
    for dfn in range(TACTICAL_RATING_MIN, TACTICAL_RATING_MAX + 1):
        for idx, whose in enumerate(("attacker's modifier", "defender's modifier")):
            rows.append(
                (dfn, whose)
                + tuple(f"{COMMANDER_CHART[(att, dfn)][idx]:+d}" if COMMANDER_CHART[(att, dfn)][idx] else "0"
                        for att in range(TACTICAL_RATING_MIN, TACTICAL_RATING_MAX + 1))
            )
    return Table(
        name="commander",
        title="Commander Chart",
        section="11.2.9",
        source="000:3109-3128, 003:2148-2236",
        columns=("defender's rating", "modifier") + tuple(f"attacker {a}" for a in range(0, 6)),
        rows=tuple(rows),
        notes=("Ratings are the commanders' tactical ratings after the tactical maximum (13.8.7).",),
    )


@register("guard-commitment")
def _guard_table() -> Table:
    return Table(
        name="guard-commitment",
        title="Guard Commitment Table",
        section="11.2.8",
        source="000:3130-3140, 003:2270-2329",
        columns=("random number", "+1 shift", "+2 shift"),
        rows=tuple((rn, a, b) for rn, (a, b) in GUARD_COMMITMENT.items()),
        notes=(
            "Result: extra guard factors lost.",
            "+1: Austrian, French, Prussian or Russian guards (at least 1 factor); +2: French or Russian (at least 2).",
            "British and Spanish guards may not be committed.",
        ),
    )
