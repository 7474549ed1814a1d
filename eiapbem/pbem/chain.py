"""The chain of files of one game (docs/file-format.md section 6).

A ``Chain`` is an immutable record of what a client has accepted: the roster of
public keys, the epoch, the head hash, every file hash seen, the file of every
slot of the epoch, each role's last dice link and the step in progress.
``accept`` checks one file against it and returns the *new* record; on any
refusal it raises and the caller's record is untouched (nothing changes).

The game loop says what may come next as a ``Step``: the slots due and who may
write each.  A step with several slots is simultaneous (the diplomacy phase,
6.0): every file names the same predecessor and the new head combines them in
the step's fixed slot order.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, Iterable, Mapping

from eiapbem.core.errors import BadEncoding

from . import crypto
from .envelope import Envelope, Header, RosterEntry, roster_from_obj
from .headers import AdminHeader, BackupHeader, BattleHeader, GamestartHeader, TurnHeader, UpgradeHeader
from .errors import (
    AlreadyLoaded,
    AuthorNotAllowed,
    BadDice,
    Fork,
    LaterEpoch,
    Missing,
    Obsolete,
    OutOfOrder,
    OwnFile,
    WrongGame,
    WrongKind,
    WrongSlot,
)

#: Kinds that advance the main chain through ``accept``.
CHAINED_KINDS = ("turn", "admin")


@dataclass(frozen=True)
class Step:
    """The slots due now, in their fixed combining order, each with the roles allowed to write it."""

    slots: tuple[tuple[str, frozenset[str]], ...]

    @classmethod
    def one(cls, slot: str, *authors: str) -> "Step":
        return cls(((slot, frozenset(authors)),))

    @classmethod
    def together(cls, pairs: Iterable[tuple[str, Iterable[str]]]) -> "Step":
        return cls(tuple((s, frozenset(a)) for s, a in pairs))

    def allowed(self, slot: str) -> frozenset[str] | None:
        for s, a in self.slots:
            if s == slot:
                return a
        return None

    def to_obj(self) -> list[Any]:
        return [[s, sorted(a)] for s, a in self.slots]

    @classmethod
    def from_obj(cls, v: Any) -> "Step":
        return cls(tuple((s, frozenset(a)) for s, a in v))


@dataclass(frozen=True)
class Chain:
    """What a client has accepted of one game's files."""

    game: str
    gid: bytes
    roster: Mapping[str, RosterEntry]
    epoch: int
    head: bytes
    seq: int
    known: frozenset[bytes]
    slots: Mapping[str, bytes]
    dicepos: Mapping[str, tuple[int, bytes]]
    step: Step | None = None
    collected: Mapping[str, bytes] = field(default_factory=dict)

    # --- starting points ------------------------------------------------------

    @classmethod
    def from_gamestart(cls, header: Header, file_hash: bytes) -> "Chain":
        assert isinstance(header, GamestartHeader)
        return cls(
            game=header.game,
            gid=header.gid,
            roster=dict(header.roster),
            epoch=0,
            head=file_hash,
            seq=header.seq,
            known=frozenset({file_hash}),
            slots={header.slot: file_hash},
            dicepos={r: (0, e.dice) for r, e in header.roster.items()},
        )

    @classmethod
    def from_backup(cls, header: Header, file_hash: bytes, known: Iterable[bytes] = ()) -> "Chain":
        """The chain after loading a host backup: a new epoch based on the checkpoint state."""
        assert isinstance(header, BackupHeader)
        base = crypto.epoch_base(header.gid, header.epoch, header.state)
        return cls(
            game=header.game,
            gid=header.gid,
            roster=dict(header.roster),
            epoch=header.epoch,
            head=base,
            seq=header.seq,
            known=frozenset(known) | {file_hash, base},
            slots={},
            dicepos=header.positions(),
        )

    @classmethod
    def from_upgrade(cls, header: Header, file_hash: bytes, known: Iterable[bytes] = ()) -> "Chain":
        """The chain right after a host's upgrade file: its epoch, roster and dice positions, the file as head.

        What a client that loaded the file holds (``accept_upgrade``) and what a replay starts from when it
        begins at the upgrade (an audit or a rebuild by a release that does not replay the files before)."""
        assert isinstance(header, UpgradeHeader)
        return cls(
            game=header.game,
            gid=header.gid,
            roster=dict(header.roster),
            epoch=header.epoch,
            head=file_hash,
            seq=header.seq,
            known=frozenset(known) | {file_hash},
            slots={},
            dicepos=header.positions(),
        )

    # --- checks -----------------------------------------------------------------

    def check_game(self, header: Header, name: str, *, any_epoch: bool = False) -> None:
        if header.gid != self.gid or header.game != self.game:
            raise WrongGame(
                f"{name} belongs to the game {header.game!r} ({header.gid.hex()[:16]}), not to {self.game!r} ({self.gid.hex()[:16]})",
                hint="put only this game's files in commin/",
            )
        if header.epoch < self.epoch and not any_epoch:
            raise Obsolete(
                f"{name} was made before the host's backup (epoch {header.epoch}, now {self.epoch}) and is obsolete",
                hint="files made before a backup are never loaded again (4.2.8); ask for the newer file",
            )

    def verify(self, envelope: Envelope, name: str, *, any_epoch: bool = False) -> None:
        """Game, epoch (unless ``any_epoch``), then the author's signature (before anything else is believed)."""
        self.check_game(envelope.header, name, any_epoch=any_epoch)
        crypto.verify_with_roster(envelope, dict(self.roster), name)

    def accept(
        self,
        envelope: Envelope,
        name: str,
        *,
        me: Iterable[str],
        step: Step | None,
        verified: bool = False,
    ) -> "Chain":
        """Check a turn or admin file from another client; return the chain after it."""
        h = envelope.header
        if h.kind not in CHAINED_KINDS:
            raise WrongKind(f"{name} is a {h.kind} file, not a turn or admin file")
        if not verified:
            self.verify(envelope, name)
        fh = crypto.file_hash(envelope)
        if fh in self.known:
            raise AlreadyLoaded(f"{name} was already loaded; nothing changed")
        if h.author in set(me):
            raise OwnFile(
                f"{name} is your own file ({h.author}, {h.slot}); a client never loads the files it made",
                hint="to go back you need a backup from the host (4.2.8)",
            )
        return self._advance(h, fh, name, step)

    def accept_upgrade(self, envelope: Envelope, name: str, *, verified: bool = False) -> "Chain":
        """Check the host's upgrade file (a new epoch that follows the chain's head); return the chain after it."""
        h = envelope.header
        if not isinstance(h, UpgradeHeader):
            raise WrongKind(f"{name} is a {h.kind} file, not an upgrade file")
        if h.gid != self.gid or h.game != self.game:
            self.check_game(h, name)
        if h.epoch <= self.epoch:
            raise Obsolete(f"{name} starts epoch {h.epoch} but you are already in epoch {self.epoch}",
                           hint="files made before a backup or an upgrade are never loaded again (4.2.8)")
        if not verified:
            crypto.verify_with_roster(envelope, dict(self.roster), name)
        fh = crypto.file_hash(envelope)
        if fh in self.known:
            raise AlreadyLoaded(f"{name} was already loaded; nothing changed")
        if h.author != "host":
            raise AuthorNotAllowed(f"{name} is an upgrade signed by {h.author}; only the host moves the game on")
        if h.epoch != self.epoch + 1 or h.prev != self.head or h.seq != self.seq + 1:
            if h.prev in self.known:
                raise OutOfOrder(f"{name} follows a point of the chain you passed with another file",
                                 hint="the host made it before files you loaded; ask the host to make it again")
            raise Missing(f"{name} follows a file you have not loaded ({h.prev.hex()[:16]}); files before it are missing",
                          hint="load the earlier files from commin/ first, in order")
        if self.step is not None:
            raise OutOfOrder(f"{name} was made while {self.step.slots[0][0]} and the other simultaneous files were "
                             "still arriving", hint="the host must wait until the simultaneous step is complete")
        if dict(h.roster) != dict(self.roster) or h.positions() != dict(self.dicepos):
            raise AuthorNotAllowed(f"{name} names other keys or dice positions than the game holds; an upgrade "
                                   "changes neither")
        return Chain.from_upgrade(h, fh, self.known)

    def record_own(self, header: Header, file_hash: bytes, step: Step | None) -> "Chain":
        """Advance past a file this client just wrote (same checks, no signature to verify)."""
        return self._advance(header, file_hash, f"your {header.kind} file {header.slot}", step)

    def _advance(self, h: Header, fh: bytes, name: str, step: Step | None) -> "Chain":
        old = self.slots.get(h.slot)
        if old is not None and old != fh:
            raise Fork(
                f"{name} is a second, different file for {h.slot}: this file is {fh.hex()[:16]}, "
                f"the one loaded is {old.hex()[:16]} (Turn file out of sync - contact game host)",
                first=old,
                second=fh,
                hint="the host must decide which file counts and send backups (4.2.8)",
            )
        if h.epoch > self.epoch:
            raise LaterEpoch(
                f"{name} is from backup epoch {h.epoch} but you are in epoch {self.epoch}",
                hint="load the host's backup or upgrade file first (4.2.8)",
            )
        if h.prev != self.head or h.seq != self.seq + 1:
            if h.prev in self.known:
                raise OutOfOrder(
                    f"{name} follows a point of the chain you passed long ago ({h.prev.hex()[:16]}): an old or "
                    "replayed file, or a fork at that point",
                    hint="you cannot go back (4.2.8); ask for the file that follows your last one",
                )
            raise Missing(
                f"{name} follows a file you have not loaded ({h.prev.hex()[:16]}); files before it are missing",
                hint="load the earlier files from commin/ first, in order",
            )
        if h.kind == "admin":
            return self._admin(h, fh, name)
        cur = self.step if self.step is not None else step
        if cur is None:
            raise WrongSlot(f"{name} is for {h.slot} but no turn is due now")
        if self.step is not None and step is not None and step != self.step:
            raise ValueError("the game loop passed another step than the one in progress")
        allowed = cur.allowed(h.slot)
        if allowed is None:
            due = ", ".join(s for s, _ in cur.slots if s not in self.collected)
            raise WrongSlot(f"{name} is for {h.slot} but the slot due now is {due}", hint="load the files in order")
        if h.author not in allowed:
            raise AuthorNotAllowed(
                f"{name} for {h.slot} is signed by {h.author}, who may not write that slot (only {', '.join(sorted(allowed))})"
            )
        dicepos = self._check_dice(h, name)
        collected = dict(self.collected)
        collected[h.slot] = fh
        slots = dict(self.slots)
        slots[h.slot] = fh
        known = self.known | {fh}
        if len(collected) < len(cur.slots):
            return replace(self, known=known, slots=slots, dicepos=dicepos, step=cur, collected=collected)
        hashes = [collected[s] for s, _ in cur.slots]
        head = hashes[0] if len(hashes) == 1 else crypto.join_hash(hashes)
        return replace(
            self,
            head=head,
            seq=self.seq + 1,
            known=known | {head},
            slots=slots,
            dicepos=dicepos,
            step=None,
            collected={},
        )

    def _admin(self, h: Header, fh: bytes, name: str) -> "Chain":
        if h.author != "host":
            raise AuthorNotAllowed(f"{name} is an admin file signed by {h.author}; only the host signs admin files")
        if self.step is not None:
            raise OutOfOrder(
                f"{name} is an admin file made while {self.step.slots[0][0]} and the other simultaneous files were still arriving",
                hint="the host must wait until the simultaneous step is complete",
            )
        dicepos = self._check_dice(h, name)
        roster = dict(self.roster)
        if isinstance(h, AdminHeader) and h.roster:
            for role, entry in h.roster.items():
                roster[role] = entry
                dicepos[role] = (0, entry.dice)
        slots = dict(self.slots)
        slots[h.slot] = fh
        return replace(self, roster=roster, head=fh, seq=self.seq + 1, known=self.known | {fh}, slots=slots, dicepos=dicepos)

    def _check_dice(self, h: Header, name: str) -> dict[str, tuple[int, bytes]]:
        if not isinstance(h, (TurnHeader, AdminHeader)):
            raise BadDice(f"{name} reveals no dice link")
        found = self.dicepos.get(h.author)
        last_i = found[0] if found is not None else None
        if found is None or h.link != found[0] + 1 or crypto.chain_step(h.reveal) != found[1]:
            raise BadDice(
                f"{name} reveals dice link {h.link} of {h.author}, which does not follow link {last_i} of {h.author}'s committed chain",
                hint="the file's dice were not fixed in advance; tell the host",
            )
        out = dict(self.dicepos)
        out[h.author] = (h.link, h.reveal)
        return out

    # --- for the author -----------------------------------------------------------

    def next_link(self, role: str) -> int:
        """The link index ``role`` reveals in its next file."""
        return self.dicepos[role][0] + 1

    # --- serialisation ------------------------------------------------------------

    def to_obj(self, known: Iterable[bytes] | None = None, slots: Mapping[str, bytes] | None = None) -> dict[str, Any]:
        """The record as a canonical value; ``known`` and ``slots`` replace those parts (a save's tails, issue 18)."""
        return {
            "game": self.game,
            "gid": self.gid,
            "roster": {r: e.to_obj() for r, e in sorted(self.roster.items())},
            "epoch": self.epoch,
            "head": self.head,
            "seq": self.seq,
            "known": sorted(self.known if known is None else known),
            "slots": dict(self.slots if slots is None else slots),
            "dicepos": {r: [i, link] for r, (i, link) in self.dicepos.items()},
            "step": None if self.step is None else self.step.to_obj(),
            "collected": dict(self.collected),
        }

    @classmethod
    def from_obj(cls, o: Any) -> "Chain":
        try:
            return cls(
                game=o["game"],
                gid=o["gid"],
                roster=roster_from_obj(o["roster"]),
                epoch=o["epoch"],
                head=o["head"],
                seq=o["seq"],
                known=frozenset(o["known"]),
                slots=dict(o["slots"]),
                dicepos={r: (v[0], v[1]) for r, v in o["dicepos"].items()},
                step=None if o["step"] is None else Step.from_obj(o["step"]),
                collected=dict(o["collected"]),
            )
        except (KeyError, TypeError, IndexError, BadEncoding) as err:
            raise BadEncoding("the saved chain record is not in the expected form") from err


@dataclass(frozen=True)
class Battle:
    """The side chain of one battle's files between two humans (4.2.7, ``000:170-176``).

    It starts at the main chain's head when the battle begins; each battle file
    names the previous one.  Commitments to nonces (docs/file-format.md 7.2)
    are tracked so a revealed nonce must match what its side committed to.
    """

    place: str
    sides: tuple[str, str]
    base: bytes
    head: bytes
    seq: int
    known: frozenset[bytes] = frozenset()
    steps: Mapping[int, bytes] = field(default_factory=dict)
    commits: Mapping[str, bytes] = field(default_factory=dict)
    nonces: Mapping[str, bytes] = field(default_factory=dict)

    @classmethod
    def begin(cls, chain: Chain, place: str, attacker: str, defender: str) -> "Battle":
        return cls(place, (attacker, defender), chain.head, chain.head, chain.seq)

    def accept(self, chain: Chain, envelope: Envelope, name: str, *, me: Iterable[str], verified: bool = False) -> "Battle":
        h = envelope.header
        if h.kind != "battle":
            raise WrongKind(f"{name} is a {h.kind} file, not a battle file")
        if not verified:
            chain.verify(envelope, name)
        fh = crypto.file_hash(envelope)
        if fh in self.known:
            raise AlreadyLoaded(f"{name} was already loaded; nothing changed")
        if h.author in set(me):
            raise OwnFile(f"{name} is your own battle file; load the one your opponent sent")
        return self._advance(h, fh, name)

    def record_own(self, header: Header, file_hash: bytes) -> "Battle":
        return self._advance(header, file_hash, f"your battle file {header.slot}")

    def _advance(self, h: Header, fh: bytes, name: str) -> "Battle":
        if h.author not in self.sides:
            raise AuthorNotAllowed(f"{name} is signed by {h.author}, who is not a side of the battle at {self.place}")
        old = self.steps.get(h.seq)
        if old is not None and old != fh:
            raise Fork(
                f"{name} is a second, different battle file for step {h.seq} at {self.place}: "
                f"{fh.hex()[:16]} against {old.hex()[:16]} already loaded",
                first=old,
                second=fh,
            )
        if h.prev != self.head or h.seq != self.seq + 1:
            raise OutOfOrder(f"{name} does not follow the last battle file at {self.place}; load the newest one only")
        if not isinstance(h, BattleHeader):
            raise WrongKind(f"{name} is a {h.kind} file, not a battle file")
        commits = dict(self.commits)
        nonces = dict(self.nonces)
        if h.nonce is not None:
            if h.author in commits:
                if crypto.nonce_commit(h.nonce) != commits[h.author]:
                    raise BadDice(f"{name} reveals a battle nonce that is not the one {h.author} committed to")
                del commits[h.author]
            nonces[h.author] = h.nonce
        if h.commit is not None:
            if h.author in commits:
                raise BadDice(f"{name} commits {h.author} to a second nonce before revealing the first")
            commits[h.author] = h.commit
        steps = dict(self.steps)
        steps[h.seq] = fh
        return replace(self, head=fh, seq=h.seq, known=self.known | {fh}, steps=steps, commits=commits, nonces=nonces)

    def to_obj(self) -> dict[str, Any]:
        return {
            "place": self.place,
            "sides": list(self.sides),
            "base": self.base,
            "head": self.head,
            "seq": self.seq,
            "known": sorted(self.known),
            "steps": {str(k): v for k, v in sorted(self.steps.items())},
            "commits": dict(self.commits),
            "nonces": dict(self.nonces),
        }

    @classmethod
    def from_obj(cls, o: Any) -> "Battle":
        try:
            return cls(
                place=o["place"],
                sides=(o["sides"][0], o["sides"][1]),
                base=o["base"],
                head=o["head"],
                seq=o["seq"],
                known=frozenset(o["known"]),
                steps={int(k): v for k, v in o["steps"].items()},
                commits=dict(o["commits"]),
                nonces=dict(o["nonces"]),
            )
        except (KeyError, TypeError, IndexError, ValueError) as err:
            raise BadEncoding("the saved battle record is not in the expected form") from err
