"""The slot's scratch: what the rules remember during one slot and forget when it ends (issue 14 item 5).

One record, ``GameState.scratch``, that ``rules.sequence.advance`` puts back to
``SlotScratch()`` whenever a slot ends, whatever phase it was: no phase clears
its own scratch, and a phase that needs more adds a field here.  Nothing in it
outlives the slot, so nothing of it may carry a rule's effect into a later slot
(that belongs in the rest of the state).  The game log is not scratch: it is
outside the hashed state altogether (``GameState.log``).  ``GameState`` reads
each field under its own name (``state.land_moves``); ``with_scratch`` changes them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from eiapbem.rules.model.base import FrozenMap, Record, SortedSet
from eiapbem.rules.model.land import LandMove, NavalMove
from eiapbem.rules.model.units import UnitId


@dataclass(frozen=True, slots=True)
class SlotScratch(Record):
    """The slot in play's movement records (8.4-8.5, 10.3.3, 10.4-10.5, 11.0)."""

    #: Units moved in the current land slot, by unit id: points spent, areas passed,
    #: forced march, halted (10.4.1-10.4.2, 10.5.1; ``eiapbem.rules.land``).
    land_moves: FrozenMap[UnitId, LandMove] = FrozenMap()
    #: The phasing power's movement and supply of this land slot are over: its combats
    #: have begun (11.0, 000:1606); in a naval slot, its naval combats have begun.
    movement_over: bool = False
    #: Depots the phasing power placed in this land slot: they are no base for more depots
    #: until the next slot (10.3.3, 000:1324 "already existing (before this turn)").
    new_depots: Annotated[tuple[UnitId, ...], SortedSet()] = ()
    #: Fleets moved (or intercepting) in the current naval slot, by fleet id (8.4-8.5;
    #: ``eiapbem.rules.naval.movement``).
    naval_moves: FrozenMap[UnitId, NavalMove] = FrozenMap()


__all__ = ["SlotScratch"]
