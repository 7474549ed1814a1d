"""Identifiers, the calendar and the small shared values of the model.

Stable string ids (DESIGN.md §6): the seven major powers are ``AU FR GB PR RU
SP TU``; minor countries, areas, provinces and cities are lower-case ASCII
slugs (``bavaria``, ``swedish-pomerania``); units carry prefixed ids
(``corps:FR:III``, ``fleet:GB:1``, ``leader:FR:napoleon``).  The model never
checks that an area or minor exists: the map is separate read-only data.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Annotated

from eiapbem.rules.model.base import InvalidValue, OneOf, Pattern, Range, Record, SortedSet

#: The seven major powers in canonical (alphabetical) order and their names
#: (one definition, in ``eiapbem.core.powers``).  Orders of play are in
#: ``eiapbem.rules.sequence``.
from eiapbem.core.powers import POWER_NAMES, POWERS  # noqa: E402, F401  (re-exported)

SLUG_RE = r"[a-z0-9]+(?:-[a-z0-9]+)*"
NATION_RE = rf"(?:AU|FR|GB|PR|RU|SP|TU|{SLUG_RE})"
#: The name part of a unit id: letters, digits and ``-`` / ``_`` (``III``, ``1``, ``guard``).
NAME_RE = r"[A-Za-z0-9]+(?:[-_][A-Za-z0-9]+)*"

PowerId = Annotated[str, OneOf(POWERS)]
Slug = Annotated[str, Pattern(SLUG_RE, "slug (lower-case ASCII words joined by '-')")]
#: A major power or a minor country (the owner of units, garrisons and control).
NationId = Annotated[str, Pattern(NATION_RE, "nation id (a major power or a minor country slug)")]
NonNeg = Annotated[int, Range(0, None)]
Positive = Annotated[int, Range(1, None)]
#: Morale in hundredths (4.5 -> 450); see docs/decisions.md "Integers only".
Morale = Annotated[int, Range(0, 1000)]
PowerSet = Annotated[tuple[PowerId, ...], SortedSet()]
SlugSet = Annotated[tuple[Slug, ...], SortedSet()]
NationSet = Annotated[tuple[NationId, ...], SortedSet()]
#: A value a log entry or a pending decision may carry as a parameter.
Param = int | str | bool | None

#: Years a date value may name: the campaigns run 1805-1815 (003:78), but
#: dates derived from them (an enforced peace of 36 months, C.2, 000:2942)
#: run later, and the chart sheet also knows a 1792 campaign (003:76).
FIRST_YEAR = 1792
LAST_YEAR = 1830

MONTH_NAMES = (
    "January", "February", "March", "April", "May", "June",
    "July", "August", "September", "October", "November", "December",
)


def is_power(x: str) -> bool:
    return x in POWERS


@dataclass(frozen=True, slots=True, order=True)
class Date(Record):
    """A month of the game (5.0: one turn is one month, 000:304)."""

    year: Annotated[int, Range(FIRST_YEAR, LAST_YEAR)]
    month: Annotated[int, Range(1, 12)]

    @classmethod
    def parse(cls, text: str) -> Date:
        """``"1805-03"`` -> ``Date(1805, 3)``."""
        try:
            y, m = text.split("-")
            if len(y) != 4 or len(m) != 2:
                raise ValueError(text)
            return cls(int(y), int(m))
        except (ValueError, InvalidValue) as err:
            raise InvalidValue(f"{text!r} is not a game month like 1805-03") from err

    def __str__(self) -> str:
        return f"{self.year:04d}-{self.month:02d}"

    @property
    def index(self) -> int:
        """Months since January of year 0 (for arithmetic only)."""
        return self.year * 12 + self.month - 1

    @classmethod
    def from_index(cls, index: int) -> Date:
        return cls(index // 12, index % 12 + 1)

    def plus(self, months: int) -> Date:
        """The month ``months`` later (earlier if negative)."""
        return Date.from_index(self.index + months)

    def next(self) -> Date:
        return self.plus(1)

    def previous(self) -> Date:
        return self.plus(-1)

    def months_until(self, other: Date) -> int:
        """How many months from this month to ``other`` (negative if earlier)."""
        return other.index - self.index

    @property
    def name(self) -> str:
        """``"March 1805"``."""
        return f"{MONTH_NAMES[self.month - 1]} {self.year}"


#: Months with an economic phase (12.0, 000:2028).
ECONOMIC_MONTHS: tuple[int, ...] = (3, 6, 9, 12)


class Phase(enum.StrEnum):
    """The phases of a month, in order (5.0, 000:302-304; 003:13-53)."""

    SETUP = "setup"  # 5.1, once before the first month
    DIPLOMACY = "diplomacy"  # 6.0
    REINFORCEMENT = "reinforcement"  # 7.0
    NAVAL = "naval"  # 8.0 with naval combat 9.0
    LAND = "land"  # 10.0 with land combat 11.0
    ECONOMIC = "economic"  # 12.0, March/June/September/December only


class FactorType(enum.StrEnum):
    """Army factor types (7.2.2, 13.2; 000:930, 000:2372-2500)."""

    INFANTRY = "infantry"
    MILITIA = "militia"
    CAVALRY = "cavalry"
    GUARD = "guard"  # guard infantry (7.2.2)
    ARTILLERY = "artillery"  # France and Russia only (12.5.3)
    FEUDAL_INFANTRY = "feudal-infantry"  # Turkish feudal corps (13.2.3)
    FEUDAL_CAVALRY = "feudal-cavalry"
    COSSACK = "cossack"  # cavalry for all purposes, morale 1.0 (13.2.2)
    FREIKORPS = "freikorps"
    GUERRILLA = "guerrilla"  # Spanish, morale 1.0 (13.2.1)


class ShipType(enum.StrEnum):
    """Ship types (8.1, 000:1018-1048)."""

    HEAVY = "heavy"
    LIGHT = "light"
    TRANSPORT = "transport"
