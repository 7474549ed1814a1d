"""The Tyrol corps' removal at peace (13.2.5, 000:2500-2514), in a phase-neutral module.

The land phase places the corps (``rules/land/revolts.py``); the diplomacy
phase's peace step takes it off the map when Austria and the power holding the
ceded Tyrol province make peace.  Phases never import each other
(``tests/test_layers.py``), so both import the removal from here.
"""

from __future__ import annotations

from eiapbem.rules import control
from eiapbem.rules.model import POOL, Factors, GameState

AUSTRIA = "AU"
TYROL_PROVINCE = "tyrol"
TYROL_CORPS = "corps:AU:Tyrol"


def tyrol_holder(state: GameState) -> str | None:
    """The power holding the ceded Tyrol province, if it was ceded (13.2.5)."""
    return control.ceded_to(state, TYROL_PROVINCE)


def remove_tyrol_at_peace(state: GameState, a: str, b: str) -> GameState:
    """13.2.5 (000:2514): peace between Austria and the power that held Tyrol takes the Tyrol corps off the map.

    ``a`` and ``b`` are the two powers making peace; any other pair leaves the state as it was."""
    other = b if a == AUSTRIA else a if b == AUSTRIA else None
    u = state.units.get(TYROL_CORPS)
    if other is None or u is None or u.location == POOL or tyrol_holder(state) not in (other, None):
        return state
    return state.with_unit(u.replace(location=POOL, factors=Factors(), besieging=False))


__all__ = ["AUSTRIA", "TYROL_CORPS", "TYROL_PROVINCE", "remove_tyrol_at_peace", "tyrol_holder"]
