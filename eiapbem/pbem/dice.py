"""Verifiable dice for files (DESIGN.md 3 and 5.5; docs/file-format.md section 7).

A file's seed is fixed before its author acts: HMAC of the author's next
committed hash-chain link and the predecessor's hash.  It feeds
``eiapbem.rules.dice.Dice``; every client re-derives every recorded roll.  For a
battle between two humans the seed of a round comes from two nonces, one
committed before the other is known (commit, answer, reveal).
"""

from __future__ import annotations

import os
from typing import Mapping

from eiapbem.rules.dice import Dice, DiceError, verify_record

from . import crypto
from .chain import Battle, Chain
from .errors import BadDice
from .keys import Identity


def next_reveal(chain: Chain, identity: Identity) -> tuple[int, bytes]:
    """The link index and link ``identity`` reveals in its next turn or admin file."""
    i = chain.next_link(identity.role)
    if i > identity.dice_n:
        raise BadDice(f"{identity.role}'s dice chain of {identity.dice_n} links is used up; the host must issue new keys")
    return i, identity.link(i)


def seed_for_next(chain: Chain, identity: Identity, kind: str = "turn") -> bytes:
    """The dice seed of the file ``identity`` writes next (known before it acts; same on every reload)."""
    _, reveal = next_reveal(chain, identity)
    return crypto.dice_seed(reveal, chain.head, kind)


def dice_for_next(chain: Chain, identity: Identity, kind: str = "turn") -> Dice:
    return Dice(seed_for_next(chain, identity, kind))


def check_rolls(seed: bytes, record: Mapping[str, list[int] | tuple[int, int]], name: str = "the file") -> None:
    """Re-derive every recorded roll; raise ``BadDice`` naming the first wrong label."""
    try:
        for label, v in record.items():
            if not isinstance(label, str) or len(v) != 2:
                raise BadDice(f"{name} records a roll in an unknown form")
        bad = verify_record(seed, record)
    except (DiceError, TypeError, ValueError) as err:
        raise BadDice(f"{name} records a roll in an unknown form") from err
    if bad is not None:
        raise BadDice(
            f"{name} records the roll {bad!r} as {record[bad][1]}, which its dice seed does not give",
            hint="the file's dice were altered; tell the host",
        )


def new_nonce(rng: crypto.Rng = os.urandom) -> bytes:
    return rng(32)


def commitment(nonce: bytes) -> bytes:
    return crypto.nonce_commit(nonce)


def battle_round_seed(battle: Battle, commit_file_hash: bytes, first: str, second: str) -> bytes:
    """The seed of a battle round once both nonces are revealed (``first`` committed first)."""
    if first not in battle.nonces or second not in battle.nonces or first in battle.commits:
        raise BadDice(f"the battle at {battle.place} has not revealed both nonces yet")
    return crypto.battle_seed(battle.nonces[first], battle.nonces[second], commit_file_hash)
