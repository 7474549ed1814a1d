"""Where a corps or a fleet can still go this phase, and at what cost: the manual's "show possible moves" (4.1.2).

The search is the rules' own (``rules.land.movement.reach`` for a corps, 10.4; ``rules.naval.movement.reach``
for a fleet, 8.4): the same code lists the moves the rules offer a power (``engine.legal_actions``).
"""

from __future__ import annotations

from typing import Any

from eiapbem.rules.land.movement import Reach, UnitReach
from eiapbem.rules.land.movement import reach as _corps_reach
from eiapbem.rules.naval.movement import reach as _fleet_reach

#: One unit's reach (the record ``show reach --json`` prints).
CorpsReach = UnitReach


def corps_reach(state: Any, ctx: Any, power: str, unit_id: str, *, forced_march: bool = False) -> UnitReach:
    """Every area ``unit_id`` can end a move in now; raise ``IllegalAction`` when it cannot move at all."""
    return _corps_reach(state, ctx, power, unit_id, forced_march=forced_march)


def fleet_reach(state: Any, ctx: Any, power: str, unit_id: str) -> UnitReach:
    """Every place at sea ``unit_id`` can end a move in now (8.4)."""
    return _fleet_reach(state, ctx, power, unit_id)


__all__ = ["CorpsReach", "Reach", "UnitReach", "corps_reach", "fleet_reach"]
