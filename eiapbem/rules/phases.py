"""The one registry of the rules: every phase's description, in the order of the turn (issue 14 item 3).

Each entry is an ``engine.PhaseRules`` a module declares as ``RULES`` (its
actions with verify/apply, decisions, obligations, finish, resolve and gaps).
The engine registers them the first time it is used; nothing registers itself
at import time.  Adding a phase (or a part of the rules that spans phases,
like phase skipping) is one line here (``docs/adding-an-action.md``).
"""

from __future__ import annotations

from eiapbem.rules import admin, captured, engine, land, reinforcement, repatriation, setup, skips
from eiapbem.rules.combat import external, field, orders as battle_orders, sieges
from eiapbem.rules.diplomacy import resolve as diplomacy
from eiapbem.rules.economy import phase as economy
from eiapbem.rules.engine import PhaseRules
from eiapbem.rules.land import revolts
from eiapbem.rules.naval import battle as naval
from eiapbem.rules.naval import phase as naval_phase

RULES: tuple[PhaseRules, ...] = (
    engine.RULES,
    setup.RULES,
    diplomacy.RULES,
    reinforcement.RULES,
    revolts.INSURRECTION_RULES,
    revolts.TRIGGER_RULES,
    naval_phase.RULES,
    naval_phase.ORDER_RULES,
    naval_phase.LANDING_RULES,
    land.RULES,
    external.RULES,
    economy.RULES,
    field.RULES,
    battle_orders.RULES,
    naval.RULES,
    sieges.RULES,
    skips.RULES,
    captured.RULES,
    repatriation.RULES,
    admin.RULES,
)
