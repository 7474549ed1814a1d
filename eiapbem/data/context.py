"""The rules' read-only data, loaded once: the map and the world (scenarios, leaders, counters, displays)."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from eiapbem.data import mapdata, world
from eiapbem.core.dice import Dice
from eiapbem.rules.engine import RulesContext


@lru_cache(maxsize=1)
def _world() -> dict[str, Any]:
    raw = world.load_raw()
    world.check_world()
    return raw


def world_data() -> dict[str, Any]:
    """The packaged world data (leaders, counters, scenarios), checked, read-only."""
    return _world()


def rules_context(dice: Dice) -> RulesContext:
    """A ``RulesContext`` over the packaged map and world data and the given dice."""
    return RulesContext(map=mapdata.load_map(), world=_world(), dice=dice)
