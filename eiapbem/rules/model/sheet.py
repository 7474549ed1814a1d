"""The order sheet of a simultaneous slot (6.0; issue 14 item 3, issue 16 item 1).

One structure in the state for every phase played as one slot that all powers
fill (diplomacy, economic): what each power has committed to and what it has
ordered.  It is generic: an order is kept as the canonical encoding of its
action (``engine.action_to_obj``), so the sheet does not know any phase's
action classes; a phase module decodes its own orders back with
``engine.action_from_obj``.

- ``commitments``: in the commit round of a sealed phase, the SHA-256 digest
  each power sent instead of its orders (``eiapbem.rules.diplomacy.sealing``);
  it survives into the reveal round of the same phase.  Outside the diplomacy
  phase it holds the commitments to next month's diplomacy orders that powers
  sealed ahead in their land file (``sealing.SealAhead``): those powers have no
  commit round to play.
- ``orders``: each power's orders of the slot in play, in the order given.

The sequence clears the orders whenever play moves on, and the commitments
when the diplomacy phase ends (``eiapbem.rules.sequence.advance``).
"""

from __future__ import annotations

from dataclasses import dataclass
from eiapbem.rules.model.base import FrozenMap, InvalidValue, Record
from eiapbem.rules.model.common import PowerId


@dataclass(frozen=True, slots=True)
class OrderSheet(Record):
    """Sealed and open orders of the simultaneous slot in play."""

    commitments: FrozenMap[PowerId, bytes] = FrozenMap()
    orders: FrozenMap[PowerId, tuple[bytes, ...]] = FrozenMap()

    def _check(self) -> None:
        for p, d in self.commitments.items():
            if len(d) != 32:
                raise InvalidValue("a commitment is a 32-byte SHA-256 digest", path=f"commitments.{p}")

    def of(self, power: str) -> tuple[bytes, ...]:
        return self.orders.get(power, ())

    def add(self, power: str, encoded: bytes) -> "OrderSheet":
        return self.replace(orders=self.orders.set(power, self.of(power) + (encoded,)))
