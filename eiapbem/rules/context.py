"""``RulesContext``: what the rules may consult besides the state (the engine hands it to every hook).

Its own module so that a rules module the engine itself calls (``world_edits``) can name it without importing
the engine; everyone else may import it from ``eiapbem.rules.engine``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from eiapbem.core.dice import Dice
from eiapbem.rules.mapgraph import Map


@dataclass(frozen=True)
class RulesContext:
    """What the rules may consult besides the state: read-only data and this file's dice.

    ``map`` is the ``Map``; ``world`` the parsed world data
    (``eiapbem.data.world.load_raw()``: minors, leaders, counters, displays,
    scenarios). Both are loaded by the layers above and never copied into the state.
    """

    map: Map
    world: Mapping[str, Any]
    dice: Dice


__all__ = ["RulesContext"]
