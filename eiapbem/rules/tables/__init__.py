"""Every chart of the manual (section 15.0 and the charts inside the rules) as data.

Each chart lives in one submodule as typed Python data that the rules look up
directly, together with a ``Table`` describing how to print it.  Submodules
register their tables with ``register``; ``all_tables`` lists them by name.

Conventions for every chart (so that no float ever enters the rules core):
- morale and morale losses in hundredths (4.5 -> 450, a loss of 0.2 -> 20);
- percentages as whole numbers (5% -> 5);
- money in whole dollars unless a chart says otherwise.
Each chart names its source: the section and the line of the manual
(``000:LINE``) or of the chart sheet (``003:LINE``).
"""

from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from typing import Callable

Cell = str | int | None


@dataclass(frozen=True)
class Table:
    """A printable view of one chart."""

    name: str  # stable id, e.g. "combat-resolution"
    title: str  # as the manual names it
    section: str  # manual section, e.g. "11.2.9"
    source: str  # where the numbers come from, e.g. "000:3063-3107"
    columns: tuple[str, ...]
    rows: tuple[tuple[Cell, ...], ...]
    notes: tuple[str, ...] = field(default_factory=tuple)

    def to_obj(self) -> dict:
        return {
            "name": self.name,
            "title": self.title,
            "section": self.section,
            "source": self.source,
            "columns": list(self.columns),
            "rows": [list(r) for r in self.rows],
            "notes": list(self.notes),
        }


_REGISTRY: dict[str, Callable[[], Table]] = {}

#: The submodules that hold charts; each registers its tables when imported.
_MODULES = (
    "eiapbem.rules.tables.land",
    "eiapbem.rules.tables.land_pursuit",
    "eiapbem.rules.tables.land_siege",
    "eiapbem.rules.tables.naval",
    "eiapbem.rules.tables.diplomacy",
    "eiapbem.rules.tables.economy",
    "eiapbem.rules.tables.forces",
)


def register(name: str) -> Callable[[Callable[[], Table]], Callable[[], Table]]:
    """Decorator: register a function returning the ``Table`` called ``name``."""

    def deco(fn: Callable[[], Table]) -> Callable[[], Table]:
        if name in _REGISTRY:
            raise ValueError(f"table {name!r} registered twice")
        _REGISTRY[name] = fn
        return fn

    return deco


def _load_all() -> None:
    for mod in _MODULES:
        try:
            importlib.import_module(mod)
        except ModuleNotFoundError as err:
            if err.name != mod:
                raise


def all_tables() -> dict[str, Callable[[], Table]]:
    """name -> table builder, sorted by name."""
    _load_all()
    return dict(sorted(_REGISTRY.items()))


def get_table(name: str) -> Table:
    tables = all_tables()
    if name not in tables:
        from eiapbem.core.errors import EiaError

        raise EiaError(
            f"there is no chart called {name!r}",
            hint="'eiapbem tables list' shows the names of every chart",
        )
    return tables[name]()
