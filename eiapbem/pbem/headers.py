"""The clear header of a sealed file, one typed record per file kind (docs/file-format.md section 3).

Each kind's header is a ``Record`` of the bottom layer's value machinery
(``eiapbem/core/record.py``), decoded by the same strict reader as every file
body and the game state: every field's type, length and range, no missing or
unknown key, a key that may be left out is left out rather than ``null``.  The
kinds form one union told apart by the ``kind`` key (``HEADER``); what one
field cannot say alone (a role named twice among the recipients, an identity
file sealed under anything but a password) is each class's ``_check``.

The header is read before the signature can be checked (the signature names
its author's key), so it is read from bytes already bounded by the envelope
(``MAX_HEADER`` bytes, ``MAX_HEADER_CONTAINER`` entries, ``MAX_HEADER_DEPTH``
levels: ``envelope.decode_header``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, ClassVar

from eiapbem.core import canonical
from eiapbem.core.errors import BadEncoding, InvalidValue
from eiapbem.core.powers import POWERS as POWERS  # re-exported: the roles of a file
from eiapbem.core.record import FrozenMap, Record, absent, spec_for
from eiapbem.core.spec import OneOf, Pattern, Range, Size

from . import kdf

KINDS = ("gamestart", "turn", "admin", "battle", "save", "backup", "setup", "identity", "bid", "selection",
         "upgrade")
ROLES = POWERS + ("host", "arbitrator")
#: The author of a bid file: the bidder has no role yet (section 10.2).
BIDDER = "bidder"

#: A header is at most this many bytes, its containers hold at most this many entries and nest this deep
#: (the deepest header nests three levels: the recipients' list, a stanza, its values).
MAX_HEADER = 64 * 1024
MAX_HEADER_CONTAINER = 64
MAX_HEADER_DEPTH = 4
MAX_LINK = 2**20
MAX_SEQ = 2**32 - 1
MAX_EPOCH = 65535
MAX_FILE = 32 * 1024 * 1024
TAG_LEN = 16
SCRYPT_LOGN = kdf.SCRYPT_LOGN
SCRYPT_R = kdf.SCRYPT_R
SCRYPT_P = kdf.SCRYPT_P
MAX_EMAIL = 80

GAME_PATTERN = r"[A-Za-z0-9][A-Za-z0-9_-]{0,39}"
SLOT_PATTERN = r"[A-Za-z0-9_./-]{1,80}"
#: A bidder's name (section 3, ``bidder``).
BIDDER_NAME_PATTERN = r"[A-Za-z0-9](?:[A-Za-z0-9 .'_-]{0,38}[A-Za-z0-9.'_-])?"
#: A bidder's email address: one ``@``, no space.
EMAIL_PATTERN = r"[^@\s]+@[^@\s]+"

Role = Annotated[str, OneOf(ROLES)]
Author = Annotated[str, OneOf(ROLES + (BIDDER,))]
Hash = Annotated[bytes, Size(32, 32)]
Seq = Annotated[int, Range(0, MAX_SEQ)]


# ----------------------------------------------------------------- the parts


@dataclass(frozen=True, slots=True)
class RosterEntry(Record):
    """One role's public keys (Ed25519, X25519, dice-chain commitment and chain length)."""

    WHAT = "a roster entry"
    sign: Hash
    enc: Hash
    dice: Hash
    n: Annotated[int, Range(1, MAX_LINK)]


@dataclass(frozen=True, slots=True)
class X25519Stanza(Record):
    """The file key wrapped for one recipient's X25519 key (section 5)."""

    KIND = "x25519"
    TAG = "type"
    WHAT = "an x25519 stanza"
    role: Role
    epk: Hash
    key: Annotated[bytes, Size(48, 48)]

    @property
    def type(self) -> str:
        return self.KIND

    def to_obj(self) -> dict[str, Any]:
        return {"role": self.role, "type": self.KIND, "epk": self.epk, "key": self.key}


@dataclass(frozen=True, slots=True)
class ScryptStanza(Record):
    """The file key wrapped under a password (identity files only, section 5)."""

    KIND = "scrypt"
    TAG = "type"
    WHAT = "a scrypt stanza"
    role: Role
    salt: Annotated[bytes, Size(16, 16)]
    logn: Annotated[int, Range(*SCRYPT_LOGN)]
    r: Annotated[int, Range(*SCRYPT_R)]
    p: Annotated[int, Range(*SCRYPT_P)]
    key: Annotated[bytes, Size(48, 48)]

    @property
    def type(self) -> str:
        return self.KIND

    def to_obj(self) -> dict[str, Any]:
        return {"role": self.role, "type": self.KIND, "salt": self.salt, "logn": self.logn, "r": self.r, "p": self.p,
                "key": self.key}


Stanza = X25519Stanza | ScryptStanza


@dataclass(frozen=True, slots=True)
class DatRef(Record):
    """The detached ``.sav.dat`` a save or backup names: its length and SHA-256."""

    WHAT = "the dat field"
    len: Annotated[int, Range(TAG_LEN, MAX_FILE)]
    sha256: Hash


@dataclass(frozen=True, slots=True)
class Bidder(Record):
    """A bidder's name and address, readable by anyone (``000:272``)."""

    WHAT = "the bidder field"
    name: Annotated[str, Pattern(BIDDER_NAME_PATTERN, "player name")]
    email: Annotated[str, Pattern(EMAIL_PATTERN, "email address"), Size(3, MAX_EMAIL)]


# ----------------------------------------------------------------- the headers


# Every kind's header below has a docstring of its own: a dataclass without one has it made from its signature when
# the module is loaded, which a fresh process reading a header (`files inspect`, `load`) would pay for each kind.
@dataclass(frozen=True, slots=True)
class Header(Record):
    """What every kind's header holds (section 3); a file's header is one of the kinds below."""

    #: Does the file follow another (``prev`` is 32 bytes), or start a history of its own (``prev`` empty)?
    CHAINED: ClassVar[bool] = True
    game: Annotated[str, Pattern(GAME_PATTERN, "game name")]
    gid: Annotated[bytes, Size(16, 16)]
    slot: Annotated[str, Pattern(SLOT_PATTERN, "slot")]
    author: Author
    seq: Seq
    epoch: Annotated[int, Range(0, MAX_EPOCH)]
    prev: Annotated[bytes, Size(0, 32)]
    to: Annotated[tuple[Stanza, ...], Size(1, 16)]

    @property
    def kind(self) -> str:
        return self.KIND

    def to_obj(self) -> dict[str, Any]:
        """The header's map as it is written (with its ``kind``; the canonical encoding sorts the keys)."""
        obj = Record.to_obj(self)
        out = {"kind": self.KIND}
        for k in _ORDER:
            if k in obj:
                out[k] = obj.pop(k)
        out.update(obj)
        return out

    def encode(self) -> bytes:
        """The header's canonical bytes, as the file carries them."""
        data = canonical.encode(self.to_obj())
        if len(data) > MAX_HEADER:
            raise ValueError(f"the header would be {len(data)} bytes, over the limit of {MAX_HEADER}")
        return data

    def stanza_for(self, role: str) -> Stanza | None:
        for s in self.to:
            if s.role == role:
                return s
        return None

    def _check(self) -> None:
        want = 32 if self.CHAINED else 0
        if len(self.prev) != want:
            raise InvalidValue(f"prev must be {want} bytes in a {self.KIND} file, not {len(self.prev)}", path="prev")
        roles = [s.role for s in self.to]
        if len(set(roles)) != len(roles):
            raise InvalidValue("to names one role twice", path="to")
        if any(s.KIND == "scrypt" for s in self.to) != (self.KIND == "identity"):
            raise InvalidValue("an identity file is sealed under a password and only an identity file is", path="to")
        if (self.author == BIDDER) != (self.KIND == "bid"):
            raise InvalidValue(f"the author {BIDDER} writes bid files, and only bid files", path="author")


#: The order ``to_obj`` lists a header's keys in (a map's order means nothing on the wire; test vectors
#: that write a header unsorted on purpose depend on it).
_ORDER = ("game", "gid", "slot", "author", "seq", "epoch", "prev", "to", "reveal", "link", "reloads", "state", "power",
          "commit", "nonce", "bidkey", "arbfp", "roster", "dicepos", "dat", "bidder", "versions", "release")


def _roster(roster: FrozenMap[str, Any], path: str = "roster") -> None:
    if not roster:
        raise InvalidValue("the roster names no role", path=path)


@dataclass(frozen=True, slots=True)
class GamestartHeader(Header):
    """A gamestart file's header."""
    KIND = "gamestart"
    WHAT = "a gamestart file's header"
    CHAINED = False
    roster: FrozenMap[Role, RosterEntry]

    def _check(self) -> None:
        Header._check(self)
        _roster(self.roster)


@dataclass(frozen=True, slots=True)
class TurnHeader(Header):
    """A turn file's header."""
    KIND = "turn"
    WHAT = "a turn file's header"
    reveal: Hash
    link: Annotated[int, Range(1, MAX_LINK)]
    reloads: Seq


@dataclass(frozen=True, slots=True)
class AdminHeader(Header):
    """An admin file's header."""
    KIND = "admin"
    WHAT = "an admin file's header"
    reveal: Hash
    link: Annotated[int, Range(1, MAX_LINK)]
    #: The keys of the roles this file gives new keys to (a replaced player or host, 4.2.8), if any.
    roster: FrozenMap[Role, RosterEntry] | None = absent()

    def _check(self) -> None:
        Header._check(self)
        if self.roster is not None:
            _roster(self.roster)


@dataclass(frozen=True, slots=True)
class BattleHeader(Header):
    """A battle file's header."""
    KIND = "battle"
    WHAT = "a battle file's header"
    reloads: Seq
    commit: Hash | None = absent()
    nonce: Hash | None = absent()


@dataclass(frozen=True, slots=True)
class SaveHeader(Header):
    """A save's header."""
    KIND = "save"
    WHAT = "a save's header"
    dat: DatRef


@dataclass(frozen=True, slots=True)
class BackupHeader(Header):
    """A backup's header."""
    KIND = "backup"
    WHAT = "a backup's header"
    roster: FrozenMap[Role, RosterEntry]
    #: Each role's last revealed dice link at the checkpoint: ``[index, link]``.
    dicepos: FrozenMap[Role, tuple[int | bytes, ...]]
    state: Hash
    power: Annotated[str, OneOf(POWERS + ("host",))]
    dat: DatRef

    def _check(self) -> None:
        Header._check(self)
        _roster(self.roster)
        _dicepos(self.dicepos)

    def positions(self) -> dict[str, tuple[int, bytes]]:
        return _positions(self.dicepos)


def _positions(dicepos: FrozenMap[str, Any]) -> dict[str, tuple[int, bytes]]:
    """``dicepos`` as (index, link) by role (its form is checked at construction)."""
    out = {}
    for r, (i, link) in dicepos.items():
        assert isinstance(i, int) and isinstance(link, bytes)
        out[r] = (i, link)
    return out


def _dicepos(dicepos: FrozenMap[str, Any]) -> None:
    if not dicepos:
        raise InvalidValue("dicepos names no role", path="dicepos")
    for r, v in dicepos.items():
        if (len(v) != 2 or type(v[0]) is not int or not 0 <= v[0] <= MAX_LINK or type(v[1]) is not bytes
                or len(v[1]) != 32):
            raise InvalidValue("a dice position is [index from 0 to 2^20, link of 32 bytes]", path=f"dicepos.{r}")


@dataclass(frozen=True, slots=True)
class SetupHeader(Header):
    """A setup file's header."""
    KIND = "setup"
    WHAT = "a setup file's header"
    CHAINED = False


@dataclass(frozen=True, slots=True)
class IdentityHeader(Header):
    """An identity file's header."""
    KIND = "identity"
    WHAT = "an identity file's header"
    CHAINED = False
    roster: FrozenMap[Role, RosterEntry]

    def _check(self) -> None:
        Header._check(self)
        _no_game(self)
        if list(self.roster) != [self.author]:
            raise InvalidValue("an identity file's roster must hold exactly its author", path="roster")


def _no_game(h: Header) -> None:
    if h.gid != bytes(16):
        raise InvalidValue(f"the gid of a {h.KIND} file must be all zero", path="gid")


def _for_arbitrator(h: Header) -> None:
    if [s.role for s in h.to] != ["arbitrator"]:
        raise InvalidValue(f"a {h.KIND} file must be sealed for the arbitrator only", path="to")


@dataclass(frozen=True, slots=True)
class BidHeader(Header):
    """A bid file's header."""
    KIND = "bid"
    WHAT = "a bid file's header"
    CHAINED = False
    bidder: Bidder
    bidkey: Hash
    arbfp: Hash

    def _check(self) -> None:
        Header._check(self)
        _no_game(self)
        _for_arbitrator(self)


@dataclass(frozen=True, slots=True)
class SelectionHeader(Header):
    """A selection file's header."""
    KIND = "selection"
    WHAT = "a selection file's header"
    CHAINED = False
    arbfp: Hash

    def _check(self) -> None:
        Header._check(self)
        _no_game(self)
        _for_arbitrator(self)
        if self.author != "arbitrator":
            raise InvalidValue("the author of a selection file must be arbitrator", path="author")


@dataclass(frozen=True, slots=True)
class UpgradeHeader(Header):
    """The host's move of a game to a newer eiapbem (4.2.8 host functions; docs/file-format.md 6).

    A new epoch, like a backup, but one file for every member: the versions the game plays from now on,
    the release that plays them, and the state hash the epoch starts from are readable before the file
    is opened, so a client that does not play those versions says which release to install.  Like a
    backup it names the roster and every role's dice position, so a chain can start from it (an audit
    or a rebuild by a release that does not replay the files before it)."""

    KIND = "upgrade"
    WHAT = "an upgrade file's header"
    #: The rules and computer versions the game plays from this file on (``rules.turn.versions``).
    versions: FrozenMap[Annotated[str, Pattern(r"[a-z][a-z0-9-]{0,31}", "version name")],
                        Annotated[int, Range(0, MAX_SEQ)]]
    #: The eiapbem release that plays them (``eiapbem.__version__``): what a player installs.
    release: Annotated[str, Pattern(r"[0-9A-Za-z.+-]{1,40}", "release")]
    state: Hash
    roster: FrozenMap[Role, RosterEntry]
    dicepos: FrozenMap[Role, tuple[int | bytes, ...]]

    def _check(self) -> None:
        Header._check(self)
        if "rules" not in self.versions:
            raise InvalidValue("an upgrade names the rules version", path="versions")
        if self.author != "host":
            raise InvalidValue("only the host writes an upgrade file", path="author")
        _roster(self.roster)
        _dicepos(self.dicepos)

    def positions(self) -> dict[str, tuple[int, bytes]]:
        return _positions(self.dicepos)


HeaderKind = (GamestartHeader | TurnHeader | AdminHeader | BattleHeader | SaveHeader | BackupHeader | SetupHeader
              | IdentityHeader | BidHeader | SelectionHeader | UpgradeHeader)
BY_KIND: dict[str, type[Header]] = {c.KIND: c for c in (
    GamestartHeader, TurnHeader, AdminHeader, BattleHeader, SaveHeader, BackupHeader, SetupHeader, IdentityHeader,
    BidHeader, SelectionHeader, UpgradeHeader)}
assert tuple(BY_KIND) == KINDS
#: The one reader of every header: the kind's record, by the ``kind`` key.
HEADER = spec_for(HeaderKind)


def header_from_obj(obj: Any) -> Header:
    """The header record of a decoded header map; ``InvalidValue`` names the first bad field."""
    if not isinstance(obj, dict):
        raise InvalidValue("the header is not a map")
    h: Header = HEADER.from_obj(obj, "")
    return h


def make(kind: str, **fields: Any) -> Header:
    """A header of ``kind`` from its fields (a writer's), checked as a reader checks it."""
    cls = BY_KIND.get(kind)
    if cls is None:
        raise ValueError(f"no file kind {kind!r}")
    return cls(**fields)


def roster_from_obj(v: Any, what: str = "roster") -> dict[str, RosterEntry]:
    """A roster map read back (a saved chain record); ``BadEncoding`` naming what is wrong."""
    if not isinstance(v, dict) or not v:
        raise BadEncoding(f"{what} must be a non-empty map of roles")
    out = {}
    for r, e in v.items():
        if r not in ROLES:
            raise BadEncoding(f"{what} names an unknown role")
        out[r] = RosterEntry.from_obj(e, f"{what}.{r}")
    return out


__all__ = ["BIDDER", "BY_KIND", "HEADER", "KINDS", "ROLES", "AdminHeader", "BackupHeader", "BattleHeader",
           "BidHeader", "Bidder", "DatRef", "GamestartHeader", "Header", "IdentityHeader", "RosterEntry", "SaveHeader",
           "ScryptStanza", "SelectionHeader", "SetupHeader", "Stanza", "TurnHeader", "UpgradeHeader", "X25519Stanza",
           "header_from_obj", "make", "roster_from_obj"]
