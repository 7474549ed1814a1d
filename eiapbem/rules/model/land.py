"""What the land phase remembers about the phasing power's movement (10.4, 10.5.1).

The rules are in ``eiapbem.rules.land``; this is the record only.  A unit's
``LandMove`` lives in ``GameState.land_moves`` (the slot's scratch, ``model.scratch``)
under its id from its first move in a land slot until that slot ends.
"""

from __future__ import annotations

from dataclasses import dataclass

from eiapbem.rules.model.base import Record
from eiapbem.rules.model.common import FactorType, NonNeg, Slug, SlugSet


@dataclass(frozen=True, slots=True)
class LandMove(Record):
    """One unit's movement in the current land slot (10.4.1-10.4.2, 000:1358-1406).

    ``start`` is the area it began the slot in; ``passed`` every area it
    entered since (10.5.1 forages on the lowest forage value of these,
    000:1496, and asks whether it left its own territory, 000:1510);
    ``spent`` the movement points used; ``forced_march`` whether it forced
    marched (+1 point, 000:1372-1374; +1 to its forage number, 000:1506);
    ``halted`` that it had to cease movement (10.4.2, 000:1398);
    ``across_river`` that it entered its present area across a river or a
    crossing arrow (the river crossing of 11.2.7, 000:1714); ``foraged`` that it
    has foraged for supply (10.5.1, 000:1486-1496): its movement is over;
    ``placed_back`` that it is a feudal corps put back on the map this month: it
    neither moves nor needs supply (13.2.3, 000:2456).
    """

    start: Slug
    passed: SlugSet = ()
    spent: NonNeg = 0
    forced_march: bool = False
    halted: bool = False
    across_river: bool = False
    foraged: bool = False
    placed_back: bool = False
    #: The owner elected depot supply for this corps at the end of movement (10.5.1 "may elect", 000:1488).
    depot_supply: bool = False
    #: The factor types the owner loses first to foraging, in order (10.5.1 "may be any", 000:1514).
    loss_order: tuple[FactorType, ...] = ()

    @property
    def supply_choice_only(self) -> bool:
        """Only the owner's supply choices are recorded: the unit has neither moved nor foraged."""
        return self.replace(depot_supply=False, loss_order=()) == LandMove(start=self.start)


@dataclass(frozen=True, slots=True)
class NavalMove(Record):
    """One fleet's movement in the current naval slot (8.4, 8.5; ``eiapbem.rules.naval.movement``).

    ``start`` is where it began the slot (``sea:x``, ``port:x``, ``blockade:x``);
    ``spent`` the movement points used (seven at most, 8.4); ``legs`` how many
    moves it made (a second only after winning an interception, 8.5.4);
    ``halted`` that its movement is over; ``battle`` the interception combat
    that stopped it, if any; ``intercepted`` the interception combats it fought
    as an interceptor (a beaten interceptor tries no more this slot, 8.5.4).
    """

    start: str
    spent: NonNeg = 0
    legs: NonNeg = 0
    halted: bool = False
    battle: str | None = None
    intercepted: tuple[str, ...] = ()
