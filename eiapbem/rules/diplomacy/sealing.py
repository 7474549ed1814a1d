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

**Sealed ahead** (issue 33 item 2): a power may seal next month's diplomacy
orders in its last file of this month, its land file or, in an economic month,
its economic orders (``SealAhead``: the digest only, the client keeps the
orders and the nonce).  The commitment waits on the order sheet
for that phase, and the power plays no commit round; when every human power has
sealed ahead the commit round needs no file at all and the phase is one round
of mail.  Its reveal (``RevealAhead``) carries the nonce and the orders; as
they were given before the month's last moves and the economic phase, the
rules carry out those still legal at the reveal and drop the others with a
public log line (a dropped order is the rules' doing, never the player's
choice: the orders must still hash to the commitment).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from eiapbem.core import canonical
from eiapbem.core.errors import BadEncoding, IllegalAction
from eiapbem.rules import engine
from eiapbem.rules.diplomacy.common import record_order
from eiapbem.rules.model import GameState, Phase, Record
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
    if mine and isinstance(mine[0], RevealAhead):
        if digest(power, phase_key(state), mine[0].nonce, _ahead_orders(mine[0])) != want:
            return [f"the orders revealed by {power} do not match its commitment: they were changed after it was sent"]
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


# ----------------------------------------------------------------- sealed ahead (issue 33 item 2)


def ahead_key(state: GameState) -> str:
    """The diplomacy phase a commitment sealed ahead in this month's land file is for: next month's."""
    return f"{state.date.next()}/diplomacy"


@dataclass(frozen=True, slots=True)
class SealAhead(Record):
    """The sealed commitment to next month's diplomacy orders, in a land or economic file (written at end-phase)."""

    KIND = "diplomacy.seal-ahead"
    INTERNAL = True
    #: Takes effect as given, also among a simultaneous phase's orders (not when that phase resolves).
    IMMEDIATE = True
    digest: bytes


@dataclass(frozen=True, slots=True)
class RevealAhead(Record):
    """The reveal of diplomacy orders sealed ahead: the secret and the orders, each order's canonical encoding."""

    KIND = "diplomacy.reveal-ahead"
    INTERNAL = True
    nonce: bytes
    orders: tuple[bytes, ...] = ()


def verify_seal_ahead(state: GameState, power: str, a: SealAhead, ctx: RulesContext) -> None:
    slot = state.slot
    if slot is None or not ((slot.phase is Phase.LAND and slot.power == power) or slot.phase is Phase.ECONOMIC):
        raise IllegalAction("next month's diplomacy orders are sealed ahead in the power's last file of the month: its "
                            "land file, or its economic orders")
    if state.options.one_round_diplomacy:
        raise IllegalAction("this game's diplomacy phase is one round of open orders (option one-round-diplomacy): "
                            "there is nothing to seal ahead")
    if state.date >= state.end:
        raise IllegalAction("this is the game's last month: there is no next diplomacy phase to seal orders for")
    if len(a.digest) != 32:
        raise IllegalAction("a commitment is a 32-byte SHA-256 digest")
    if power in state.order_sheet.commitments:
        raise IllegalAction(f"{power} has already sealed its diplomacy orders for {state.date.next().name}")


def apply_seal_ahead(state: GameState, power: str, a: SealAhead, ctx: RulesContext) -> engine.Outcome:
    sheet = state.order_sheet
    state = state.replace(order_sheet=sheet.replace(commitments=sheet.commitments.set(power, a.digest)))
    return engine.log(state, power, "diplomacy.sealed-ahead",
                      f"{power} has sealed its diplomacy orders for {state.date.next().name}: it plays no commit round "
                      "then, and reveals them in that month's diplomacy phase (6.0)", power=power)


def _ahead_orders(a: RevealAhead) -> list:
    out = []
    for i, data in enumerate(a.orders):
        try:
            o = engine.action_from_obj(canonical.decode(data), f"revealed order {i + 1}")
        except BadEncoding as err:
            raise IllegalAction(f"the revealed orders cannot be read: {err}") from err
        if isinstance(o, SEALS):
            raise IllegalAction("a revealed order cannot be another commitment or reveal")
        out.append(o)
    return out


def verify_reveal_ahead(state: GameState, power: str, a: RevealAhead, ctx: RulesContext | None) -> None:
    step = state.slot.step if state.slot is not None else None
    want = state.order_sheet.commitments.get(power)
    if step != ORDERS or want is None:
        raise IllegalAction(f"{power} has no sealed commitment to reveal")
    if engine.given_orders(state, power):
        raise IllegalAction("the reveal comes first in a power's orders")
    if len(a.nonce) != NONCE_BYTES:
        raise IllegalAction(f"a reveal's secret is {NONCE_BYTES} bytes")
    if digest(power, phase_key(state), a.nonce, _ahead_orders(a)) != want:
        raise IllegalAction(f"the orders revealed by {power} do not match its commitment: they were changed after it was sent")


def apply_reveal_ahead(state: GameState, power: str, a: RevealAhead, ctx: RulesContext) -> engine.Outcome:
    """The reveal on the sheet, then each order sealed ahead that the rules still accept; the others are dropped and
    said so (they were given a month before, the state has moved since)."""
    out = record_order(state, power, a, ctx)
    for o in _ahead_orders(a):
        try:
            out = out.then(engine.apply_action(out.state, power, o, ctx))
        except IllegalAction as err:
            out = out.then(engine.log(out.state, power, "diplomacy.dropped",
                                      f"{power}'s order {o.KIND} sealed ahead no longer holds and is dropped: {err}",
                                      power=power, order=o.KIND))
    return out


#: The records of the sealing, for ``isinstance``.
SEALS = (CommitOrders, RevealOrders, SealAhead, RevealAhead)
ACTIONS = ((CommitOrders, verify_commit, record_order, none_listed), (RevealOrders, verify_reveal, record_order, none_listed),
           (RevealAhead, verify_reveal_ahead, apply_reveal_ahead, none_listed))
#: The seal of next month's orders in a land or economic file, registered in those phases (``eiapbem/rules/phases.py``).
AHEAD_RULES = engine.PhaseRules("diplomacy sealed ahead", phases=(Phase.LAND, Phase.ECONOMIC),
                                actions=((SealAhead, verify_seal_ahead, apply_seal_ahead, none_listed),))
