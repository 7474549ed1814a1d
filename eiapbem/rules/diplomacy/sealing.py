"""Sealed diplomacy orders: commit, then reveal (issue 16 item 3; docs/decisions.md "Diplomacy (issue 16)").

With the diplomacy phase sealed (the default; the game option
``one_round_diplomacy`` turns it off) the month has two diplomacy slots:

1. ``diplomacy/commit``: every human power's file carries only
   ``CommitOrders``: the SHA-256 of its orders and a secret nonce
   (``digest``).  The orders themselves are in no file yet, so a client that
   reads every file it holds learns nothing of anyone's orders before its own
   commitment is sent.  The slot resolves by writing the digests on the
   order sheet (``OrderSheet.commitments``).
2. ``diplomacy/orders``: every power's file begins with ``RevealOrders``
   (the nonce) followed by the orders; the orders are refused unless they
   hash to the commitment.  The phase then resolves as in one-round play.

Computer powers commit nothing: their orders are a pure function of the
slot's common starting state and their dice, which every client computes
alike at the reveal, so there is nothing secret to seal.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from eiapbem.core import canonical
from eiapbem.core.errors import IllegalAction
from eiapbem.rules import engine
from eiapbem.rules.diplomacy.common import record_order
from eiapbem.rules.model import GameState, Record
from eiapbem.rules.model.slot import COMMIT, ORDERS
from eiapbem.rules.engine import RulesContext

NONCE_BYTES = 32


def digest(power: str, slot_key: str, nonce: bytes, orders: list) -> bytes:
    """The commitment to ``orders`` (action objects, ``engine.action_to_obj``): bound to the power and the slot."""
    body = canonical.encode(["eiapbem/v1/orders", power, slot_key, nonce, [engine.action_to_obj(a) for a in orders]])
    return hashlib.sha256(body).digest()


def phase_key(state: GameState) -> str:
    """The diplomacy phase of the month (the same for its commit and reveal slots)."""
    return f"{state.date}/diplomacy"


@dataclass(frozen=True, slots=True)
class CommitOrders(Record):
    """The sealed commitment to this month's diplomacy orders (written by the client at end-phase)."""

    KIND = "diplomacy.commit"
    INTERNAL = True
    digest: bytes


@dataclass(frozen=True, slots=True)
class RevealOrders(Record):
    """The secret of a sealed commitment, first of the revealed orders (written by the client at end-phase)."""

    KIND = "diplomacy.reveal"
    INTERNAL = True
    nonce: bytes


def verify_commit(state: GameState, power: str, a: CommitOrders, ctx: RulesContext) -> None:
    step = state.slot.step if state.slot is not None else None
    if step != COMMIT:
        raise IllegalAction("a commitment belongs to the commit round of a sealed diplomacy phase")
    if len(a.digest) != 32:
        raise IllegalAction("a commitment is a 32-byte SHA-256 digest")
    if any(isinstance(o, CommitOrders) for o in engine.given_orders(state, power)):
        raise IllegalAction(f"{power} has already committed to its orders this month")


def verify_reveal(state: GameState, power: str, a: RevealOrders, ctx: RulesContext) -> None:
    step = state.slot.step if state.slot is not None else None
    if step != ORDERS or power not in state.order_sheet.commitments:
        raise IllegalAction(f"{power} has no sealed commitment to reveal")
    if engine.given_orders(state, power):
        raise IllegalAction("the reveal comes first in a power's orders")
    if len(a.nonce) != NONCE_BYTES:
        raise IllegalAction(f"a reveal's secret is {NONCE_BYTES} bytes")


def none_listed(state: GameState, power: str, ctx: RulesContext) -> tuple[()]:
    """A commitment and its reveal are written by the client at end-phase from the orders given, never chosen."""
    return ()


def orders_open(state: GameState, power: str) -> bool:
    """``power`` may still choose its diplomacy orders: not in the reveal round after committing to them (the
    revealed orders must be the committed ones, so the rules list none there: ``engine.legal_actions``)."""
    slot = state.slot
    return not (slot is not None and slot.step == ORDERS and power in state.order_sheet.commitments)


def obligations(state: GameState, power: str, mine: list) -> list[str]:
    """What a power's file of the sealed phase still lacks: its commitment, or a reveal matching it."""
    step = state.slot.step if state.slot is not None else None
    if step == COMMIT:
        if not any(isinstance(o, CommitOrders) for o in mine):
            return [f"{power}'s file of the commit round must carry its commitment: 'eiapbem end-phase' seals the orders "
                    "and sends only the commitment (the sealed diplomacy phase, first round)"]
        return []
    want = state.order_sheet.commitments.get(power)
    if step != ORDERS or want is None:
        return []
    if not mine or not isinstance(mine[0], RevealOrders):
        return [f"{power} committed to sealed orders and must reveal them: 'eiapbem end-phase' reveals them"]
    if digest(power, phase_key(state), mine[0].nonce, mine[1:]) != want:
        return [f"the orders revealed by {power} do not match its commitment: they were changed after it was sent"]
    return []


def commitments(state: GameState, orders: dict) -> GameState:
    """The commit round's resolution: each power's digest goes on the order sheet."""
    sheet = state.order_sheet
    for p, acts in sorted(orders.items()):
        for a in acts:
            if isinstance(a, CommitOrders):
                sheet = sheet.replace(commitments=sheet.commitments.set(p, a.digest))
    return state.replace(order_sheet=sheet)


#: The two records of the sealing, for ``isinstance``.
SEALS = (CommitOrders, RevealOrders)
ACTIONS = ((CommitOrders, verify_commit, record_order, none_listed), (RevealOrders, verify_reveal, record_order, none_listed))
