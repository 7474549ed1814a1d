"""Labelled dice (DESIGN.md §3).

Dice are drawn by *label*, a string naming the purpose of the roll
(``"battle/Ulm/day1/round2/attacker"``), never by position, so the order in
which a player resolves things cannot change which number lands where.  The
value of a label is a pure function of the file's seed bytes and the label:
HMAC-SHA256 keyed by the seed, with rejection sampling so that every face is
equally likely (no modulo bias).  Every roll is recorded (label -> sides and
value) so any client can re-derive and check it; ``forced`` values replace
the derivation for tests and for results imported from a third-party combat
system (4.1.1).

A label is drawn once: asking again for the same label with the same number of
sides returns the recorded value; with another number of sides it is an error
(two rules would otherwise share one random number without knowing it).
"""

from __future__ import annotations

import hashlib
import hmac
from typing import Mapping

from eiapbem.core.errors import EiaError, quoted

#: Seed of the economic summary's preview dice (the phase itself rolls its own).
PREVIEW_SEED = "preview"

_DOMAIN = b"eiapbem/dice/v1\x00"
_SPAN = 2**64
#: The most sides a die may have: the derivation writes ``sides`` in four bytes (docs/file-format.md 7.1).
MAX_SIDES = 2**32 - 1
#: The longest label a roll may have (a label names a purpose, ``battle/<id>/day1/round2/attacker``).
MAX_LABEL = 256


class DiceError(EiaError):
    """A wrong use of dice (reused label, missing forced value); one of the ``EiaError`` family (issue 30 item 9)."""


def derive(seed: bytes, label: str, sides: int) -> int:
    """The value 1..sides that ``seed`` gives ``label``; uniform, deterministic.

    ``DiceError`` for sides outside 1..``MAX_SIDES`` or a label of more than ``MAX_LABEL`` characters: such a
    roll can come only from a file, never from the rules, and is refused before anything is computed."""
    if type(sides) is not int or not 1 <= sides <= MAX_SIDES:
        raise DiceError(f"a die has 1 to {MAX_SIDES} sides, not {quoted(sides)}")
    if not isinstance(label, str) or len(label) > MAX_LABEL:
        raise DiceError(f"a dice label is a string of at most {MAX_LABEL} characters, not {quoted(label)}")
    limit = _SPAN - (_SPAN % sides)
    lab = label.encode("utf-8")
    counter = 0
    while True:
        msg = _DOMAIN + len(lab).to_bytes(4, "big") + lab + sides.to_bytes(4, "big") + counter.to_bytes(4, "big")
        x = int.from_bytes(hmac.new(seed, msg, hashlib.sha256).digest()[:8], "big")
        if x < limit:
            return x % sides + 1
        counter += 1  # rejection sampling; happens with probability < sides / 2**64


class Dice:
    """The dice of one file: a seed, optional forced values, and the record of rolls."""

    def __init__(
        self,
        seed: bytes,
        forced: Mapping[str, int] | None = None,
        *,
        strict: bool = False,
    ) -> None:
        if not isinstance(seed, (bytes, bytearray)) or len(seed) == 0:
            raise DiceError("dice need a non-empty seed of bytes")
        self._seed = bytes(seed)
        self._forced = dict(forced or {})
        self._strict = strict
        self._record: dict[str, tuple[int, int]] = {}

    @property
    def record(self) -> dict[str, tuple[int, int]]:
        """label -> (sides, value) for every roll so far (a copy)."""
        return dict(self._record)

    def to_obj(self) -> dict[str, list[int]]:
        """The record in canonical form: label -> [sides, value]."""
        return {label: [s, v] for label, (s, v) in sorted(self._record.items())}

    def roll(self, label: str, sides: int) -> int:
        """A number from 1 to ``sides`` for ``label``."""
        if not isinstance(label, str) or not label:
            raise DiceError("a roll needs a non-empty label")
        if label in self._record:
            s, v = self._record[label]
            if s != sides:
                raise DiceError(f"label {quoted(label)} was rolled as a d{s}, now asked as a d{sides}")
            return v
        if label in self._forced:
            value = self._forced[label]
            if not (isinstance(value, int) and not isinstance(value, bool) and 1 <= value <= sides):
                raise DiceError(f"forced value {quoted(value)} for {quoted(label)} is not between 1 and {sides}")
        elif self._strict:
            raise DiceError(f"no forced value for dice label {quoted(label)}")
        else:
            value = derive(self._seed, label, sides)
        self._record[label] = (sides, value)
        return value

    def d6(self, label: str) -> int:
        return self.roll(label, 6)

    def d10(self, label: str) -> int:
        return self.roll(label, 10)

    def d12(self, label: str) -> int:
        return self.roll(label, 12)

    def d20(self, label: str) -> int:
        return self.roll(label, 20)

    def one_to(self, n: int, label: str) -> int:
        """"1 through N" (e.g. the medium AI's 1-3% bonus, 4.2.1)."""
        return self.roll(label, n)

    def two_d6(self, label: str) -> int:
        """The sum of two six-sided dice, drawn as ``label/1`` and ``label/2``."""
        return self.roll(label + "/1", 6) + self.roll(label + "/2", 6)


def verify_record(seed: bytes, record: Mapping[str, tuple[int, int] | list[int]]) -> str | None:
    """Re-derive every recorded roll; return the first label that does not match, or None.

    A record of another form (a roll that is not ``[sides, value]``, sides out of range) is a ``DiceError``."""
    for label in sorted(record):
        roll = record[label]
        if not isinstance(roll, (list, tuple)) or len(roll) != 2:
            raise DiceError(f"the roll {quoted(label)} is not [sides, value]")
        sides, value = roll
        if derive(seed, label, sides) != value:
            return label
    return None
