"""Names every land-combat chart module shares (``land``, ``land_pursuit``, ``land_siege``).

``eiapbem.rules.tables.land`` re-exports them; read them as ``land.NotOnChart``, ``land.DEFENDER``.
"""

from __future__ import annotations

from eiapbem.core.errors import EiaError


class NotOnChart(EiaError):
    """A lookup outside what a chart covers (a level, random number or chit it does not list)."""


ATTACKER = "attacker"
DEFENDER = "defender"
SIDES = (ATTACKER, DEFENDER)
