"""The SIEGE TABLE of section 15.0 (000:3160-3167, 003:2238-2267; 11.4.1).

Split from ``eiapbem.rules.tables.land``, which re-exports every name here:
read them as ``land.SIEGE_TABLE``, ``land.siege_result`` and so on.
"""

from __future__ import annotations

from eiapbem.rules.tables import Table, register
from eiapbem.rules.tables.land_common import DEFENDER, NotOnChart

# --------------------------------------------------------------------------
# Siege table (11.4.1, 000:3160-3167; 003:2238-2267)
# --------------------------------------------------------------------------

SORTIE = "sortie?"
NO_RESULT = "nr"
BREACH = "breach"
#: (lowest, highest) modified random number for each result (000:3163-3165).
SIEGE_TABLE: tuple[tuple[int, int, str], ...] = (
    (-1, 1, SORTIE),
    (2, 3, NO_RESULT),
    (4, 7, BREACH),
)
#: Each result in a player's words (11.4.1, 000:1966-1976): what happened and what comes next.
SIEGE_RESULT_WORDS: dict[str, str] = {
    SORTIE: "sortie? - the defender may sortie against the besiegers (a die: 5-6 costs the defender one factor, "
            "1-4 the besieger) or stay inside, and then nothing happens (11.4.1)",
    NO_RESULT: "no result - the walls hold, nothing happens and the siege goes on (11.4.1)",
    BREACH: "breach - the walls are breached: the defender surrenders (all inside become prisoners) or the "
            "besieger storms the city in an assault combat (11.4.1)",
}
SIEGE_UNDERGARRISONED_MODIFIER = 1
#: 11.4.1 (000:1960): undergarrisoned means more than 5 factors short of the garrison capacity.
SIEGE_UNDERGARRISON_MARGIN = 5
#: Sortie (000:1968, 000:3167): on a defender's random number of 5 or 6 the defender loses one factor,
#: otherwise the besieger loses one.
SORTIE_DEFENDER_LOSES_FROM = 5


def is_undergarrisoned(garrison_factors: int, garrison_capacity: int) -> bool:
    return garrison_factors < garrison_capacity - SIEGE_UNDERGARRISON_MARGIN


def siege_random_number(die: int, siege_value: int, undergarrisoned: bool) -> int:
    """An assault attempt's random number: the die minus the city's siege value, +1 if undergarrisoned."""
    if not (isinstance(die, int) and 1 <= die <= 6):
        raise NotOnChart(f"an assault attempt's random number is drawn from 1 to 6, not {die!r} (11.4.1)")
    if not (isinstance(siege_value, int) and siege_value >= 0):
        raise NotOnChart(f"a city's siege value is a whole number of forts, at least 0, not {siege_value!r}")
    return die - siege_value + (SIEGE_UNDERGARRISONED_MODIFIER if undergarrisoned else 0)


def siege_result(random_number: int) -> str:
    """The siege table for a modified random number: "sortie?", "nr" or "breach".

    The chart starts at -1; a lower number (a city of siege value 3) is read
    as "sortie?" too (docs/decisions.md, "Land combat charts").
    """
    if not isinstance(random_number, int) or random_number > SIEGE_TABLE[-1][1]:
        raise NotOnChart(f"the siege table has no random number {random_number!r}; the highest is +7")
    for low, high, result in SIEGE_TABLE:
        if random_number <= high:
            return result
    raise AssertionError("unreachable")  # pragma: no cover


def siege_result_words(result: str) -> str:
    """A siege table result ("sortie?", "nr", "breach") as a player reads it; an unknown code as it is."""
    return SIEGE_RESULT_WORDS.get(result, result)


def sortie_loser(random_number: int) -> str:
    """Which side loses one factor in a sortie: "defender" on 5-6, else "besieger"."""
    if not (isinstance(random_number, int) and 1 <= random_number <= 6):
        raise NotOnChart(f"a sortie's random number is drawn from 1 to 6, not {random_number!r}")
    return DEFENDER if random_number >= SORTIE_DEFENDER_LOSES_FROM else "besieger"


@register("siege")
def _siege_table() -> Table:
    labels = {SORTIE: "Sortie?", NO_RESULT: "NR", BREACH: "Breach"}
    return Table(
        name="siege",
        title="Siege Table",
        section="11.4.1",
        source="000:3160-3167, 003:2238-2267",
        columns=("random number", "result"),
        rows=tuple((f"{lo:+d} to {hi:+d}", labels[r]) for lo, hi, r in SIEGE_TABLE),
        notes=(
            "Modifiers: minus the city's siege value; +1 if the garrison is more than 5 factors under capacity.",
            "Sortie: the defender's random number 1-4: the besieger loses 1 factor; 5-6: the defender loses 1.",
            "Breach: the garrison may surrender, otherwise the besieger assaults (5-1 against 5-2).",
            "NR: no result; nothing happens and the siege goes on.",
        ),
    )
