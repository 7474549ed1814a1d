"""Slots: the places in the turn sequence where a file is made (DESIGN.md §4).

A slot is a phase, a step and the power who acts.  In a sequential phase the
slot belongs to one power (``power`` set, ``actors == (power,)``); in a
simultaneous phase (diplomacy, 6.0; economic, see docs/decisions.md) one slot
is filled by every power in ``actors`` and ``power`` is ``None``.  A slot is
identified within the game by ``key(date)``: ``1805-03/naval/turn/GB`` or
``1805-03/diplomacy/orders/all``.  ``eiapbem.rules.sequence`` computes them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from eiapbem.rules.model.base import InvalidValue, OneOf, Record
from eiapbem.rules.model.common import Date, Phase, PowerId, PowerSet

#: The step of a power's own turn in a sequential phase.
TURN = "turn"
#: The step of a simultaneous phase, where every power gives its orders.
ORDERS = "orders"
#: The first round of a sealed simultaneous phase: every power sends only a
#: commitment to its orders (docs/decisions.md "Diplomacy (issue 16)").
COMMIT = "commit"
STEPS = (TURN, COMMIT, ORDERS)
#: Shown in place of a power in the key of a simultaneous slot.
ALL = "all"


@dataclass(frozen=True, slots=True)
class Slot(Record):
    phase: Phase
    step: Annotated[str, OneOf(STEPS)]
    power: PowerId | None
    actors: PowerSet

    def _check(self) -> None:
        if self.power is not None and self.actors != (self.power,):
            raise InvalidValue("the actor of a power's own slot is that power", path="actors")
        if (self.power is None) != (self.step in (COMMIT, ORDERS)):
            raise InvalidValue("simultaneous orders have no single power; a power's turn has one", path="step")

    @property
    def simultaneous(self) -> bool:
        return self.power is None

    def key(self, date: Date) -> str:
        """The slot's id in the game, e.g. ``1805-03/naval/turn/GB``."""
        return f"{date}/{self.phase}/{self.step}/{self.power or ALL}"

    def same_place(self, other: Slot) -> bool:
        """Same phase, step and power (the actors of a simultaneous slot may differ)."""
        return (self.phase, self.step, self.power) == (other.phase, other.step, other.power)


#: 5.3 (000:332): the order of the setup phase, the first slots of every game.
SETUP_ORDER: tuple[str, ...] = ("RU", "TU", "AU", "PR", "SP", "FR", "GB")


def first_slot() -> Slot:
    """The first slot of every game: the first power of the setup phase (5.3)."""
    return Slot(Phase.SETUP, TURN, SETUP_ORDER[0], (SETUP_ORDER[0],))
