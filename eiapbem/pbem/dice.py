"""Verifiable dice for files (DESIGN.md 3 and 5.5; docs/file-format.md section 7).

A file's seed is fixed before its author acts: HMAC of the author's next
committed hash-chain link and the predecessor's hash.  It feeds
``eiapbem.core.dice.Dice``; every client re-derives every recorded roll.  For a
battle between two humans the seed of a round comes from two nonces, one
committed before the other is known (commit, answer, reveal).
"""

from __future__ import annotations

import hashlib
import os
from typing import Mapping

from eiapbem.core.dice import Dice, DiceError, verify_record
from eiapbem.core.errors import quoted

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


def ai_seed(chain: Chain, slot: str) -> bytes:
    """The dice seed of an AI power's slot ``slot`` (docs/file-format.md 7.3).

    ``HMAC(key = links, msg = "eiapbem/v1/dice-seed/ai/" slot 0x00 || gid || u32(epoch))`` where
    ``links`` is the SHA-256 of every role's last revealed dice link in role order.  The AI plays as
    soon as the preceding file is accepted, so the links are those the preceding file (or files of a
    simultaneous step) revealed: committed in advance, so nobody can grind them by re-sealing a file,
    and unknown to everyone but the preceding author until that file arrives.
    """
    return _links_seed(chain, "ai/" + slot)


def _links_seed(chain: Chain, label: str) -> bytes:
    links = hashlib.sha256(b"eiapbem/v1/ai-links\x00" + b"".join(
        role.encode("ascii") + b"\x00" + i.to_bytes(4, "big") + link for role, (i, link) in sorted(chain.dicepos.items())
    )).digest()
    return crypto.dice_seed(links, chain.gid + chain.epoch.to_bytes(4, "big"), label)


def ai_dice(chain: Chain, slot: str) -> Dice:
    return Dice(ai_seed(chain, slot))


def pass_seed(chain: Chain, slot: str) -> bytes:
    """The dice seed of a human's slot that every client ends by itself, the rules leaving it nothing to decide
    (docs/file-format.md 7.3): ``ai_seed``'s links and game, under its own label ``pass/<slot>``."""
    return _links_seed(chain, "pass/" + slot)


def pass_dice(chain: Chain, slot: str) -> Dice:
    return Dice(pass_seed(chain, slot))


def gamestart_seed(gid: bytes, roster_dice: Mapping[str, bytes]) -> bytes:
    """The seed of the rolls made when a game is created (the AI start bonus of 4.2.3; file-format 7.3)."""
    commits = b"".join(r.encode("ascii") + b"\x00" + c for r, c in sorted(roster_dice.items()))
    return crypto.dice_seed(gid, hashlib.sha256(commits).digest(), "gamestart")


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
            f"{name} records the roll {quoted(bad)} as {quoted(record[bad][1])}, which its dice seed does not give",
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
