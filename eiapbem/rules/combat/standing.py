"""Standing orders: the answer a power gives to a battle or siege question when it is not asked.

Used where nobody is at the table for that power: a defender under PBEM quick combat or with one
corps engaged (4.1.1, 4.2.7, 000:48, 000:170), a human's questions in the computer's own slot, and
the besieged's siege questions in the besieger's slot (battle files are for field and trivial
combat only, 000:170), and a non-phasing power's naval combat questions where no battle file
travels (``rules/naval/files.py``: its evasion order is a standing order, 9.2.1.1; its heavy ship
losses fall as the program splits them, 9.2.2.1; where 9.4.1 leaves the sea area to the loser, the
first by id; a victor does not leave its blockade, 9.4.3).
"""

from __future__ import annotations


from eiapbem.rules import engine
from eiapbem.rules.model import GameState, PendingDecision
from eiapbem.rules.engine import RulesContext


def answer(state: GameState, decision: PendingDecision, ctx: RulesContext) -> str:
    """The standing-order choice for ``decision`` (a ``battle.*`` or ``siege.*`` question)."""
    from eiapbem.rules.combat import field, sieges

    if decision.kind.startswith("siege."):
        return sieges.standing_answer(decision)
    if decision.kind.startswith("naval."):
        return naval_answer(state, decision)
    battle = state.battles[str(decision.context["battle"])]
    auto = field._AUTO.get(decision.kind.split(".", 1)[1])
    if auto is None:
        return decision.options[0]
    return auto(state, battle, battle.side(str(decision.context["role"])), decision.options, ctx)


def naval_answer(state: GameState, decision: PendingDecision) -> str:
    """The standing-order choice for a ``naval.*`` question: the naval rules' own (``standing.naval`` hook,
    ``rules.naval.phase.standing_answer``), so this package does not import the naval one."""
    (hook,) = engine.hooks("standing.naval")
    return str(hook(state, decision))
