"""The end of the phasing power's movement: supply (10.5), then combat may begin (11.0, 000:1606).

``end_movement`` runs once per land slot: at the power's first ``land.attack``,
or when it ends the slot without attacking (``finish``).
"""

from __future__ import annotations

from typing import Any

from eiapbem.rules import engine
from eiapbem.rules.model import GameState


def end_movement(state: GameState, power: str, ctx: Any) -> engine.Outcome:
    """Close ``power``'s movement for the slot (11.0, 000:1606)."""
    return engine.Outcome(state.replace(movement_over=True))
