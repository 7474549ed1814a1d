"""The one registry of the rules: every phase's description, in the order of the turn (issue 14 item 3).

Each entry is an ``engine.PhaseRules`` a phase module declares as ``RULES``
(its actions with verify/apply, decisions, obligations, finish, resolve and
gaps).  The engine registers them the first time it is used; adding a phase
is one line here (``docs/adding-an-action.md``).
"""

from __future__ import annotations

from eiapbem.rules import land, reinforcement, setup
from eiapbem.rules.combat import field, sieges
from eiapbem.rules.economy import phase as economy
from eiapbem.rules.engine import PhaseRules
from eiapbem.rules.naval import battle as naval
from eiapbem.rules.naval import phase as naval_phase

RULES: tuple[PhaseRules, ...] = (
    setup.RULES,
    reinforcement.RULES,
    land.RULES,
    economy.RULES,
    field.RULES,
    naval.RULES,
    sieges.RULES,
    naval_phase.RULES,
    naval_phase.ORDER_RULES,
    naval_phase.LANDING_RULES,
)
