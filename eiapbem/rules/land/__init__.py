"""The land phase (10.0-11.1; 000:1292-1612), one slot per power in the order
FR RU TU AU PR GB SP (``sequence.LAND_ORDER``, 10.1).

- ``movement``: 10.4 ``land.move`` (allowances, costs, stopping, stacking, access);
- ``combat``: 11.0-11.1 ``land.attack`` and the duty to attack; the combats
  themselves are ``eiapbem.rules.combat.field`` (answered with ``eiapbem answer``);
- ``garrisons``: 10.4.3 ``land.transfer-factors`` (detach to and absorb from garrisons);
- ``depots``: 10.3 ``land.create-depot`` / ``land.remove-depot``;
- ``supplyphase``: 10.5 ``land.forage`` and the end of movement (foraging, depot and
  besieged supply, then combat, 11.0);
- ``sieging``: 10.4.7/11.4 ``land.besiege``, ``land.assault``, ``land.garrison-attack``
  (the sieges themselves are ``eiapbem.rules.combat.sieges``);
- ``guerrillas``: 10.6, 13.2.1 the guerrilla operations check at the end of each slot;
- ``feudal``: 13.2.3 ``land.stand-down`` and ``land.return-feudal`` (Turkish feudal corps);
- ``revolts``: 13.2.4 Austrian insurrection placement and stand-down, 13.2.5 the Tyrol corps;
- ``conquest``: 10.7 occupation of minor capitals and conquest of minors;
- ``seasupply``: 10.3.2/10.5.3 depots inside besieged port cities, sea and invasion supply of the besieged;
- ``occupation``: 13.5.2 taking an empty enemy city, 13.5.5 neutral forces leaving a besieged city;
- ``common``: hostility and what stands in an area.

Not built yet (the README's status table lists them): see ``docs/decisions.md``
"Land phase".  ``RULES`` is the phase's description, listed in
``eiapbem/rules/phases.py``.
"""

from __future__ import annotations

from eiapbem.rules import engine
from eiapbem.rules.combat import external
from eiapbem.rules.land import (combat, conquest, depots, feudal, garrisons, guerrillas, movement, occupation, revolts,
                                sieging, supplyphase)
from eiapbem.rules.model import GameState, Phase
from eiapbem.rules.engine import RulesContext

_MODULES = (movement, garrisons, depots, supplyphase, combat, sieging, feudal, revolts)


def obligations(state: GameState, power: str, ctx: RulesContext) -> list[str]:
    waiting = [f"enter the third party combat system's result of {bid} (4.1.1): 'eiapbem battle import FILE'"
               for bid in external.pending(state, power)]
    return waiting + combat.obligations(state, power, ctx)


def finish(state: GameState, power: str, ctx: RulesContext) -> engine.Outcome:
    """End of the slot: supply if no combat closed the movement, occupation of minor capitals and, after
    the last land slot, conquest (10.7); then the effects other parts add at ``land.slot-end`` (the naval
    ones: corps left aboard, evacuation, lost shipyards).  The slot's movement is scratch the sequence forgets."""
    out = engine.Outcome(state)
    if not state.movement_over:
        out = out.then(supplyphase.end_movement(state, power, ctx))
    out = out.then(guerrillas.end_of_slot(out.state, power, ctx))  # 10.6: after the slot's combats
    out = out.then(conquest.end_of_slot(out.state, power, ctx))
    out = out.then(occupation.release_unheld(out.state, ctx))  # 13.5.1-13.5.2: a city left behind is the area's
    out = out.then(sieging.lift_ended_sieges(out.state, ctx))  # 11.4: no enemy holds the city any more
    for hook in engine.hooks("land.slot-end"):
        out = out.then(hook(out.state, power, ctx))
    return out


#: What of sections 10-11.1 is not built yet (``eiapbem status`` shows it; README's status table too).
GAPS = ""  # 13.5.4 (garrisons at war in one city) is played at the end of diplomacy: rules/hostile_garrisons.py

#: The land phase's rules (registered by ``eiapbem/rules/phases.py``).
RULES = engine.PhaseRules(
    "land",
    phases=(Phase.LAND,),
    actions=tuple(a for mod in _MODULES for a in mod.ACTIONS),
    obligations=obligations,
    finish=finish,
    gaps=GAPS,
    hooks=(("battle.after", 10, guerrillas.after_battle),),  # 13.2.1: Spain's lost combats raise guerrillas
)
ACTION_CLASSES = RULES.action_classes

__all__ = ["ACTION_CLASSES", "GAPS", "RULES"]
