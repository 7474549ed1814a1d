"""The reinforcement phase (7.0-7.6; 000:898-1014), one slot per power in the order
SP GB PR AU TU RU FR (``sequence.REINFORCEMENT_ORDER``).

One module per part of section 7:

- ``naval``: 7.1 fleets and ships (place-fleet, add-ships, transfer-ships);
- ``army``: 7.2 corps, factors and garrisons (place-corps, add-factors,
  add-garrison, convert-to-infantry, transfer-factors, move-city, demobilise);
- ``minors``: 7.3 minor country forces (minor-corps, minor-garrison, minor-fleet);
- ``leaders``: 7.4 (assign-leader, retire-leader);
- ``orders``: 7.5 change-order and 7.6 loans (lend-unit, recall-unit) with
  7.6.1's returns during play;
- ``hooks``: what must be done before the slot ends and what is lost then;
- ``common``: capacities and the reinforcements due.

Supply chains (10.3.3, 10.5.3) are ``eiapbem.rules.supply``.  ``RULES`` is the
phase's description, listed in ``eiapbem/rules/phases.py``.
"""

from __future__ import annotations

from eiapbem.rules import engine
from eiapbem.rules.model import Phase
from eiapbem.rules.reinforcement import army, hooks, leaders, minors, naval, orders

#: The reinforcement phase's rules (registered by ``eiapbem/rules/phases.py``).
RULES = engine.PhaseRules(
    "reinforcement",
    phases=(Phase.REINFORCEMENT,),
    actions=tuple(a for mod in (naval, army, minors, leaders, orders) for a in mod.ACTIONS),
    obligations=hooks.obligations,
    finish=hooks.finish,
)
ACTION_CLASSES = RULES.action_classes

__all__ = ["ACTION_CLASSES", "RULES"]
