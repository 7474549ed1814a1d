"""The PURSUIT CLASS and PURSUIT tables of section 15.0 (000:3142-3158, 003:1976-2146; 11.2.10).

Split from ``eiapbem.rules.tables.land``, which re-exports every name here:
read them as ``land.PURSUIT_LOSSES``, ``land.pursuit_class`` and so on.
"""

from __future__ import annotations

from eiapbem.rules.tables import Table, register
from eiapbem.rules.tables.land_common import NotOnChart

# --------------------------------------------------------------------------
# Pursuit (11.2.10, 000:3142-3158; 003:1976-2146)
# --------------------------------------------------------------------------

#: Rows of the pursuit class table: (lowest victor's morale loss in hundredths,
#: pursuit class after 1, 2, 3+ rounds); None is "None" (000:3149-3153).
PURSUIT_CLASS_ROWS: tuple[tuple[int, tuple[int | None, int | None, int | None]], ...] = (
    (0, (6, 5, 4)),  # 0.0-0.9
    (100, (5, 4, 3)),  # 1.0-1.9
    (200, (4, 3, 2)),  # 2.0-2.9
    (300, (3, 2, None)),  # 3.0-3.9
    (400, (2, None, None)),  # 4.0+
)
#: Against a force withdrawing unbroken after a day's combat (000:1826, 000:3154).
PURSUIT_CLASS_VS_WITHDRAWAL = 1
PURSUIT_CLASSES = (6, 5, 4, 3, 2, 1)

# random number 1..7 -> loss % for pursuit classes 6, 5, 4, 3, 2, 1 (None: "-", no loss).
PURSUIT_LOSSES: dict[int, tuple[int | None, ...]] = {
    1: (15, 10, 10, None, None, None),  # 000:3147, 003:2034-2045
    2: (15, 15, 10, 10, None, None),  # 000:3148, 003:2055-2065
    3: (30, 30, 15, 15, None, None),  # 000:3149, 003:2075-2084
    4: (45, 45, 30, 20, 10, None),  # 000:3150, 003:2094-2102
    5: (60, 60, 45, 30, 15, 10),  # 000:3151, 003:2112-2119
    6: (90, 75, 60, 45, 30, 15),  # 000:3152, 003:2127-2134
    7: (120, 90, 75, 60, 45, 15),  # 000:3153, 003:2135-2142
}
#: +1 to the pursuit random number with a cavalry leader (000:1830, 000:3154).
PURSUIT_CAVALRY_LEADER_MODIFIER = 1
#: Columns shifted "to the right" (to lower classes) by terrain (000:1832-1834, 000:3154).
PURSUIT_TERRAIN_SHIFTS: dict[str, int] = {"forest": -1, "mountain": -1, "desert": -1, "marsh": -2}
#: One pursuit loss is one cavalry factor, or three non-militia, or six militia factors (000:1838, 000:3158).
PURSUIT_LOSS_EQUIVALENT: dict[str, int] = {"cavalry": 1, "non-militia": 3, "militia": 6}


def pursuit_class(victor_morale_loss: int, rounds: int) -> int | None:
    """The pursuit class table: the victor's total morale loss (hundredths) and the rounds fought.

    ``rounds`` counts every round of the combat; 3 or more (any combat into a
    second day) uses the "3+" column (000:1826).  None means no pursuit.
    """
    if not (isinstance(victor_morale_loss, int) and victor_morale_loss >= 0):
        raise NotOnChart(f"a victor's morale loss is a whole number of hundredths, at least 0, not {victor_morale_loss!r}")
    if not (isinstance(rounds, int) and rounds >= 1):
        raise NotOnChart(f"a combat lasts at least one round, not {rounds!r}")
    column = min(rounds, 3) - 1
    row = [classes for low, classes in PURSUIT_CLASS_ROWS if victor_morale_loss >= low][-1]
    return row[column]


def modified_pursuit_class(pursuit_class_number: int | None, terrain: str | None = None) -> int | None:
    """The class after the terrain column shift; None when it falls below class 1 (no pursuit)."""
    if pursuit_class_number is None:
        return None
    if pursuit_class_number not in PURSUIT_CLASSES:
        raise NotOnChart(f"pursuit classes run from 1 to 6, not {pursuit_class_number!r}")
    shifted = pursuit_class_number + PURSUIT_TERRAIN_SHIFTS.get(terrain or "", 0)
    return shifted if shifted >= 1 else None


def pursuit_loss_percent(random_number: int, pursuit_class_number: int) -> int:
    """Percentage of the victor's cavalry factors inflicted as pursuit losses; 0 for "-"."""
    if random_number not in PURSUIT_LOSSES:
        raise NotOnChart(f"the pursuit table lists random numbers 1 to 7, not {random_number!r}")
    if pursuit_class_number not in PURSUIT_CLASSES:
        raise NotOnChart(f"pursuit classes run from 1 to 6, not {pursuit_class_number!r}")
    value = PURSUIT_LOSSES[random_number][PURSUIT_CLASSES.index(pursuit_class_number)]
    return 0 if value is None else value


def _pct(v: int | None) -> str:
    return "-" if v is None else f"{v}%"


@register("pursuit-class")
def _pursuit_class_table() -> Table:
    labels = ("0.0-0.9", "1.0-1.9", "2.0-2.9", "3.0-3.9", "4.0+")
    rows = tuple(
        (label,) + tuple("None" if c is None else c for c in classes)
        for label, (_, classes) in zip(labels, PURSUIT_CLASS_ROWS)
    )
    return Table(
        name="pursuit-class",
        title="Pursuit Class Table",
        section="11.2.10",
        source="000:3145-3154, 003:1979-2122",
        columns=("victor's morale loss", "1 round", "2 rounds", "3+ rounds"),
        rows=rows,
        notes=(
            "Combats of two or more days use the 3+ column.",
            f"Always class {PURSUIT_CLASS_VS_WITHDRAWAL} against forces withdrawing unbroken after a day's combat.",
        ),
    )


@register("pursuit-losses")
def _pursuit_losses_table() -> Table:
    return Table(
        name="pursuit-losses",
        title="Pursuit Table",
        section="11.2.10",
        source="000:3145-3158, 003:2002-2146",
        columns=("random number",) + tuple(f"class {c}" for c in PURSUIT_CLASSES),
        rows=tuple((rn,) + tuple(_pct(v) for v in vals) for rn, vals in PURSUIT_LOSSES.items()),
        notes=(
            "Result: percentage of the victor's cavalry factors taken as losses by the broken force.",
            "+1 to the random number with a pursuing cavalry leader.",
            "Columns shift to the right (lower class): 1 in forest, mountain or desert; 2 in marsh; below class 1 no pursuit.",
            "One loss = 1 cavalry = 3 non-militia = 6 militia factors.",
        ),
    )
