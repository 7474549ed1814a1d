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
from typing import Any, Callable, Mapping

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


# ----------------------------------------------------------------- every outcome of a pure function of dice


class _Branching(DiceError):
    """A run of ``outcomes`` that read its dice in a way the tree cannot hold (a die of a ``two_d6`` read alone)."""


class _Chosen(Dice):
    """Dice whose reads, in the order they come, take the values ``path`` chooses (the first value past it), and
    which keep each new read as ``(label, sides, summed, value)``.  A ``two_d6`` is one read of its sum (2-12): the
    function sees only the sum, so the two dice of one sum are one outcome."""

    def __init__(self, path: list[int]) -> None:
        super().__init__(b"outcomes")
        self._path = path
        self.reads: list[tuple[str, int, bool, int]] = []
        self._sums: dict[str, int] = {}

    def _next(self, first: int) -> int:
        k = len(self.reads)
        return self._path[k] if k < len(self._path) else first

    def roll(self, label: str, sides: int) -> int:
        if label.endswith(("/1", "/2")) and label[:-2] in self._sums:
            raise _Branching(f"{label} is one die of a sum read before")
        if label not in self._record:
            value = self._next(1)
            self._forced[label] = value
            self.reads.append((label, sides, False, value))
        return super().roll(label, sides)

    def two_d6(self, label: str) -> int:
        if label in self._sums:
            return self._sums[label]
        if label + "/1" in self._record or label + "/2" in self._record:
            raise _Branching(f"{label} is summed after one of its dice was read alone")
        total = self._next(2)
        self._sums[label] = total
        self.reads.append((label, 6, True, total))
        return total


def outcomes(fn: Callable[[Dice], Any], most: int) -> tuple[Any, list[Any]] | None:
    """Every result ``fn(dice)`` can give, ``fn`` being a pure function of its dice (it reads nothing else that
    varies): ``(tree, results)``, or None when it takes more than ``most`` runs, or reads a die of a ``two_d6`` alone.

    The runs go through the values of each read in turn (depth first): a run reads the dice in an order its earlier
    values decide, so the tree follows the reads: a node is ``[label, sides, summed, branches]`` (``branches``: one
    node per value, 1..sides, or 2..12 for a ``two_d6`` sum) and a leaf the index of its run's result.  ``pick``
    walks it for a seed; a seed's result is then that of ``fn(Dice(seed))``, read for read."""
    tree: Any = None
    results: list[Any] = []
    path: list[int] = []
    while True:
        if len(results) == most:
            return None
        dice = _Chosen(path)
        try:
            results.append(fn(dice))
        except _Branching:
            return None
        tree = _graft(tree, dice.reads, len(results) - 1)
        # the next run: the deepest read with a value left takes its next value; the reads after it, their first
        k = len(dice.reads) - 1
        while k >= 0 and dice.reads[k][3] == (12 if dice.reads[k][2] else dice.reads[k][1]):
            k -= 1
        if k < 0:
            return tree, results
        path = [r[3] for r in dice.reads[:k]] + [dice.reads[k][3] + 1]


def _graft(tree: Any, reads: list[tuple[str, int, bool, int]], leaf: int) -> Any:
    """``tree`` with a run's reads leading to its result ``leaf``."""
    if not reads:
        return leaf
    label, sides, summed, value = reads[0]
    if tree is None:
        tree = [label, sides, summed, [None] * (11 if summed else sides)]
    tree[3][value - (2 if summed else 1)] = _graft(tree[3][value - (2 if summed else 1)], reads[1:], leaf)
    return tree


def pick(tree: Any, seed: bytes) -> int:
    """The index of the result ``outcomes`` found for the dice of ``seed`` (``Dice(seed)``'s values, read as the
    function read them)."""
    if not seed:
        raise DiceError("dice need a non-empty seed of bytes")
    while not isinstance(tree, int):
        label, sides, summed, branches = tree
        if summed:
            tree = branches[derive(seed, label + "/1", 6) + derive(seed, label + "/2", 6) - 2]
        else:
            tree = branches[derive(seed, label, sides) - 1]
    return tree
