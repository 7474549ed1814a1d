"""Trivial combat (11.3, 000:1932-1944).

A combat is trivial when one side initially consists only of depot garrison
factors, Cossacks, Freikorps and/or guerrillas, or when one side has at least
six times the other's army factors (000:1618, 000:1934).  It runs on the same
battle machine as field combat (``field.py``) with these differences: no
chits, the 5-2 table for both sides in every round (terrain and guard still
shift it), any factor may be a casualty, garrisons cannot retreat and
surrender when their side breaks, and no political points change hands.
"""

from __future__ import annotations

from typing import Any

from eiapbem.rules.combat.battle import force_factors, is_irregular
from eiapbem.rules.model.units import Garrison
from eiapbem.rules.tables import land

#: 000:1618, 000:1934: a 6:1 or better ratio in strength factors.
TRIVIAL_RATIO = 6


def only_light_forces(state: Any, units: tuple[str, ...]) -> bool:
    """Only depot garrisons, Cossacks, Freikorps and guerrillas (000:1934)."""
    return all(isinstance(state.units[u], Garrison) or is_irregular(state, u) for u in units)


def is_trivial(state: Any, attacker: tuple[str, ...], defender: tuple[str, ...]) -> tuple[bool, str]:
    """(trivial?, why) for a combat between two forces."""
    a = force_factors(state, attacker).total
    d = force_factors(state, defender).total
    for name, units in (("attacker", attacker), ("defender", defender)):
        if only_light_forces(state, units):
            return True, f"the {name} has only depot garrisons, Cossacks, Freikorps or guerrillas (11.3)"
    if a >= TRIVIAL_RATIO * d or d >= TRIVIAL_RATIO * a:
        return True, f"{a} against {d} factors is at least 6:1 (11.3)"
    return False, ""


def trivial_tables(terrain: str, attacker_guard_shift: int = 0, defender_guard_shift: int = 0) -> tuple[land.CombatTable, land.CombatTable]:
    """Both sides fight on 5-2 in every round, shifted by terrain and guard (000:1938)."""
    t = land.TRIVIAL_COMBAT_TABLE
    return (
        land.effective_table(t, land.ATTACKER, terrain=terrain, guard_shift=attacker_guard_shift),
        land.effective_table(t, land.DEFENDER, terrain=terrain, guard_shift=defender_guard_shift),
    )
