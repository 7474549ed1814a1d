"""The sealed file envelope: layout and clear header (docs/file-format.md sections 2, 3, 8).

This module knows bytes and fields only, no cryptography (STYLE.md 4): it
splits a file into magic, header, body and signature, checks every limit and
the header's schema, and assembles the bytes back.  ``parse(assemble(...))``
gives back the same bytes (the round trip the signature depends on).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from eiapbem.core.errors import BadEncoding
from eiapbem.core import canonical

from .errors import BadFormat, BadHeader

MAGIC = b"EIAPBEM/1\n"
SIG_LEN = 64
MAX_HEADER = 64 * 1024
MAX_FILE = 32 * 1024 * 1024
MAX_SAV = 1024 * 1024
MAX_HEADER_CONTAINER = 64
MIN_FILE = len(MAGIC) + 4 + 1 + 4 + SIG_LEN
TAG_LEN = 16

KINDS = ("gamestart", "turn", "admin", "battle", "save", "backup", "setup", "identity", "bid", "selection")
from eiapbem.core.powers import POWERS as POWERS  # noqa: E402  (re-exported: the roles of a file)
ROLES = POWERS + ("host", "arbitrator")
#: Kinds whose ciphertext is the detached ``.sav.dat`` file.
DETACHED = ("save", "backup")
#: Kinds that do not follow another file.
UNCHAINED = ("gamestart", "identity", "setup", "bid", "selection")
#: Kinds made before a game exists (the GAP, docs/file-format.md section 10): gid all zero.
GAP_KINDS = ("bid", "selection")
#: The author of a bid file: the bidder has no role yet (section 10.2).
BIDDER = "bidder"

MAX_LINK = 2**20
MAX_SEQ = 2**32 - 1
MAX_EPOCH = 65535
SCRYPT_LOGN = (10, 18)
SCRYPT_R = (1, 8)
SCRYPT_P = (1, 4)

GAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]{0,39}\Z")
#: A bidder's name (docs/file-format.md section 3, ``bidder``).
BIDDER_NAME_RE = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9 .'_-]{0,38}[A-Za-z0-9.'_-])?\Z")
#: A bidder's email address: one ``@``, no space, 3-80 characters.
EMAIL_RE = re.compile(r"[^@\s]+@[^@\s]+\Z")
MAX_EMAIL = 80
_SLOT_RE = re.compile(r"[A-Za-z0-9_./-]{1,80}\Z")

_DICE_KINDS = frozenset({"turn", "admin"})


def _u32(n: int) -> bytes:
    return n.to_bytes(4, "big")


# --- field validators: each returns the value or raises BadHeader ----------


class _Fail(Exception):
    """Internal: a field is wrong; carries the reason (turned into BadHeader with the file name)."""


def _is_int(v: Any, lo: int, hi: int, what: str) -> int:
    if not isinstance(v, int) or isinstance(v, bool) or not lo <= v <= hi:
        raise _Fail(f"{what} must be an integer from {lo} to {hi}")
    return v


def _is_bin(v: Any, sizes: tuple[int, ...], what: str) -> bytes:
    if not isinstance(v, bytes) or len(v) not in sizes:
        raise _Fail(f"{what} must be {' or '.join(str(s) for s in sizes)} bytes")
    return v


def _is_str(v: Any, pattern: re.Pattern[str], what: str) -> str:
    if not isinstance(v, str) or not pattern.match(v):
        raise _Fail(f"{what} is not a valid name")
    return v


def _is_role(v: Any, what: str) -> str:
    if v not in ROLES:
        raise _Fail(f"{what} must be one of {' '.join(ROLES)}")
    return str(v)


def _is_map(v: Any, keys: set[str], what: str) -> dict[str, Any]:
    if not isinstance(v, dict) or set(v) != keys:
        raise _Fail(f"{what} must be a map with exactly the keys {', '.join(sorted(keys))}")
    return v


@dataclass(frozen=True)
class RosterEntry:
    """One role's public keys (Ed25519, X25519, dice-chain commitment and length)."""

    sign: bytes
    enc: bytes
    dice: bytes
    n: int

    def to_obj(self) -> dict[str, Any]:
        return {"sign": self.sign, "enc": self.enc, "dice": self.dice, "n": self.n}

    @classmethod
    def from_obj(cls, v: Any, what: str) -> "RosterEntry":
        m = _is_map(v, {"sign", "enc", "dice", "n"}, what)
        return cls(
            _is_bin(m["sign"], (32,), f"{what}.sign"),
            _is_bin(m["enc"], (32,), f"{what}.enc"),
            _is_bin(m["dice"], (32,), f"{what}.dice"),
            _is_int(m["n"], 1, MAX_LINK, f"{what}.n"),
        )


def roster_from_obj(v: Any, what: str = "roster") -> dict[str, RosterEntry]:
    if not isinstance(v, dict) or not v:
        raise _Fail(f"{what} must be a non-empty map of roles")
    return {_is_role(r, f"{what} role {r!r}"): RosterEntry.from_obj(e, f"{what}.{r}") for r, e in v.items()}


@dataclass(frozen=True)
class Stanza:
    """The file key wrapped for one recipient (x25519) or under a password (scrypt)."""

    role: str
    type: str
    key: bytes
    epk: bytes = b""
    salt: bytes = b""
    logn: int = 0
    r: int = 0
    p: int = 0

    def to_obj(self) -> dict[str, Any]:
        if self.type == "x25519":
            return {"role": self.role, "type": "x25519", "epk": self.epk, "key": self.key}
        return {
            "role": self.role,
            "type": "scrypt",
            "salt": self.salt,
            "logn": self.logn,
            "r": self.r,
            "p": self.p,
            "key": self.key,
        }

    @classmethod
    def from_obj(cls, v: Any, what: str) -> "Stanza":
        if not isinstance(v, dict) or v.get("type") not in ("x25519", "scrypt"):
            raise _Fail(f"{what} must be a stanza of type x25519 or scrypt")
        if v["type"] == "x25519":
            m = _is_map(v, {"role", "type", "epk", "key"}, what)
            return cls(
                _is_role(m["role"], f"{what}.role"),
                "x25519",
                _is_bin(m["key"], (48,), f"{what}.key"),
                epk=_is_bin(m["epk"], (32,), f"{what}.epk"),
            )
        m = _is_map(v, {"role", "type", "salt", "logn", "r", "p", "key"}, what)
        return cls(
            _is_role(m["role"], f"{what}.role"),
            "scrypt",
            _is_bin(m["key"], (48,), f"{what}.key"),
            salt=_is_bin(m["salt"], (16,), f"{what}.salt"),
            logn=_is_int(m["logn"], *SCRYPT_LOGN, f"{what}.logn"),
            r=_is_int(m["r"], *SCRYPT_R, f"{what}.r"),
            p=_is_int(m["p"], *SCRYPT_P, f"{what}.p"),
        )


@dataclass(frozen=True)
class Header:
    """The clear header of a sealed file (docs/file-format.md section 3)."""

    kind: str
    game: str
    gid: bytes
    slot: str
    author: str
    seq: int
    epoch: int
    prev: bytes
    to: tuple[Stanza, ...]
    reveal: bytes | None = None
    link: int | None = None
    reloads: int | None = None
    roster: dict[str, RosterEntry] | None = None
    dicepos: dict[str, tuple[int, bytes]] | None = None
    state: bytes | None = None
    power: str | None = None
    dat: tuple[int, bytes] | None = None
    commit: bytes | None = None
    nonce: bytes | None = None
    bidder: tuple[str, str] | None = None  # (name, email) of a bid file
    bidkey: bytes | None = None
    arbfp: bytes | None = None

    def to_obj(self) -> dict[str, Any]:
        o: dict[str, Any] = {
            "kind": self.kind,
            "game": self.game,
            "gid": self.gid,
            "slot": self.slot,
            "author": self.author,
            "seq": self.seq,
            "epoch": self.epoch,
            "prev": self.prev,
            "to": [s.to_obj() for s in self.to],
        }
        for name in ("reveal", "link", "reloads", "state", "power", "commit", "nonce", "bidkey", "arbfp"):
            v = getattr(self, name)
            if v is not None:
                o[name] = v
        if self.roster is not None:
            o["roster"] = {r: e.to_obj() for r, e in self.roster.items()}
        if self.dicepos is not None:
            o["dicepos"] = {r: [i, link] for r, (i, link) in self.dicepos.items()}
        if self.dat is not None:
            o["dat"] = {"len": self.dat[0], "sha256": self.dat[1]}
        if self.bidder is not None:
            o["bidder"] = {"name": self.bidder[0], "email": self.bidder[1]}
        return o

    def encode(self) -> bytes:
        data = canonical.encode(self.to_obj())
        if len(data) > MAX_HEADER:
            raise BadHeader(f"the header would be {len(data)} bytes, over the limit of {MAX_HEADER}")
        return data

    def stanza_for(self, role: str) -> Stanza | None:
        for s in self.to:
            if s.role == role:
                return s
        return None

    @classmethod
    def from_obj(cls, obj: Any) -> "Header":
        """Validate a decoded header map; raise ``_Fail`` with the reason."""
        if not isinstance(obj, dict):
            raise _Fail("the header is not a map")
        kind = obj.get("kind")
        if kind not in KINDS:
            raise _Fail(f"kind must be one of {' '.join(KINDS)}")
        allowed = set(_COMMON) | {k for k, kinds in _OPTIONAL.items() if kind in kinds}
        required = set(_COMMON) | {k for k, kinds in _REQUIRED.items() if kind in kinds}
        unknown = sorted(set(obj) - allowed)
        if unknown:
            article = "an" if kind[0] in "aeiou" else "a"
            raise _Fail(f"field {unknown[0]!r} is not allowed in {article} {kind} file")
        missing = sorted(required - set(obj))
        if missing:
            raise _Fail(f"field {missing[0]!r} is missing")
        game = _is_str(obj["game"], GAME_RE, "game")
        gid = _is_bin(obj["gid"], (16,), "gid")
        if kind in ("identity",) + GAP_KINDS and gid != bytes(16):
            raise _Fail(f"gid of a {kind} file must be all zero")
        slot = _is_str(obj["slot"], _SLOT_RE, "slot")
        if kind == "bid":
            if obj["author"] != BIDDER:
                raise _Fail(f"the author of a bid file must be {BIDDER}")
            author = BIDDER
        else:
            author = _is_role(obj["author"], "author")
        if kind == "selection" and author != "arbitrator":
            raise _Fail("the author of a selection file must be arbitrator")
        seq = _is_int(obj["seq"], 0, MAX_SEQ, "seq")
        epoch = _is_int(obj["epoch"], 0, MAX_EPOCH, "epoch")
        prev = _is_bin(obj["prev"], (0,) if kind in UNCHAINED else (32,), "prev")
        to_raw = obj["to"]
        if not isinstance(to_raw, list) or not 1 <= len(to_raw) <= 16:
            raise _Fail("to must list 1 to 16 stanzas")
        to = tuple(Stanza.from_obj(s, f"to[{i}]") for i, s in enumerate(to_raw))
        if len({s.role for s in to}) != len(to):
            raise _Fail("to names one role twice")
        if kind in GAP_KINDS and [s.role for s in to] != ["arbitrator"]:
            raise _Fail(f"a {kind} file must be sealed for the arbitrator only")
        if any((s.type == "scrypt") != (kind == "identity") for s in to):
            raise _Fail("an identity file is sealed under a password and only an identity file is")
        h: dict[str, Any] = {}
        if "reveal" in obj:
            h["reveal"] = _is_bin(obj["reveal"], (32,), "reveal")
            h["link"] = _is_int(obj["link"], 1, MAX_LINK, "link")
        if "reloads" in obj:
            h["reloads"] = _is_int(obj["reloads"], 0, MAX_SEQ, "reloads")
        if "roster" in obj:
            h["roster"] = roster_from_obj(obj["roster"])
            if kind == "identity" and list(h["roster"]) != [author]:
                raise _Fail("an identity file's roster must hold exactly its author")
        if "dicepos" in obj:
            dp = obj["dicepos"]
            if not isinstance(dp, dict) or not dp:
                raise _Fail("dicepos must be a non-empty map of roles")
            h["dicepos"] = {}
            for r, v in dp.items():
                _is_role(r, f"dicepos role {r!r}")
                if not isinstance(v, list) or len(v) != 2:
                    raise _Fail(f"dicepos.{r} must be [index, link]")
                h["dicepos"][r] = (_is_int(v[0], 0, MAX_LINK, f"dicepos.{r} index"), _is_bin(v[1], (32,), f"dicepos.{r} link"))
        if "state" in obj:
            h["state"] = _is_bin(obj["state"], (32,), "state")
        if "power" in obj:
            if obj["power"] not in POWERS + ("host",):
                raise _Fail("power must be one of " + " ".join(POWERS) + " host")
            h["power"] = obj["power"]
        if "dat" in obj:
            m = _is_map(obj["dat"], {"len", "sha256"}, "dat")
            h["dat"] = (_is_int(m["len"], TAG_LEN, MAX_FILE, "dat.len"), _is_bin(m["sha256"], (32,), "dat.sha256"))
        if "commit" in obj:
            h["commit"] = _is_bin(obj["commit"], (32,), "commit")
        if "nonce" in obj:
            h["nonce"] = _is_bin(obj["nonce"], (32,), "nonce")
        if "bidder" in obj:
            m = _is_map(obj["bidder"], {"name", "email"}, "bidder")
            if not isinstance(m["name"], str) or not BIDDER_NAME_RE.match(m["name"]):
                raise _Fail("bidder.name is not a valid player name")
            if not isinstance(m["email"], str) or not 3 <= len(m["email"]) <= MAX_EMAIL or not EMAIL_RE.match(m["email"]):
                raise _Fail("bidder.email is not a valid email address")
            h["bidder"] = (m["name"], m["email"])
        if "bidkey" in obj:
            h["bidkey"] = _is_bin(obj["bidkey"], (32,), "bidkey")
        if "arbfp" in obj:
            h["arbfp"] = _is_bin(obj["arbfp"], (32,), "arbfp")
        return cls(kind, game, gid, slot, author, seq, epoch, prev, to, **h)


_COMMON = ("kind", "game", "gid", "slot", "author", "seq", "epoch", "prev", "to")
_OPTIONAL: dict[str, frozenset[str]] = {
    "reveal": _DICE_KINDS,
    "link": _DICE_KINDS,
    "reloads": frozenset({"turn", "battle"}),
    "roster": frozenset({"gamestart", "admin", "backup", "identity"}),
    "dicepos": frozenset({"backup"}),
    "state": frozenset({"backup"}),
    "power": frozenset({"backup"}),
    "dat": frozenset(DETACHED),
    "commit": frozenset({"battle"}),
    "nonce": frozenset({"battle"}),
    "bidder": frozenset({"bid"}),
    "bidkey": frozenset({"bid"}),
    "arbfp": frozenset(GAP_KINDS),
}
_REQUIRED: dict[str, frozenset[str]] = {
    "reveal": _DICE_KINDS,
    "link": _DICE_KINDS,
    "reloads": frozenset({"turn", "battle"}),
    "roster": frozenset({"gamestart", "backup", "identity"}),
    "dicepos": frozenset({"backup"}),
    "state": frozenset({"backup"}),
    "power": frozenset({"backup"}),
    "dat": frozenset(DETACHED),
    "bidder": frozenset({"bid"}),
    "bidkey": frozenset({"bid"}),
    "arbfp": frozenset(GAP_KINDS),
}


@dataclass(frozen=True)
class Envelope:
    """A parsed file: its header, the exact header bytes, the body and the signature."""

    header: Header
    header_bytes: bytes
    body: bytes
    signature: bytes

    @property
    def prefix(self) -> bytes:
        """Every byte of the file before the signature (what is signed and hashed)."""
        return MAGIC + _u32(len(self.header_bytes)) + self.header_bytes + _u32(len(self.body)) + self.body

    def to_bytes(self) -> bytes:
        return self.prefix + self.signature


def prefix_of(header_bytes: bytes, body: bytes) -> bytes:
    return MAGIC + _u32(len(header_bytes)) + header_bytes + _u32(len(body)) + body


def assemble(header_bytes: bytes, body: bytes, signature: bytes) -> bytes:
    if len(signature) != SIG_LEN:
        raise ValueError("an Ed25519 signature is 64 bytes")
    return prefix_of(header_bytes, body) + signature


def decode_header(data: bytes, name: str = "the file") -> Header:
    """Strictly decode and validate header bytes.

    The header of equal bytes, validated once in this process, is handed out
    again (issue 18: a load parses its file several times); a header is frozen
    and nothing changes its roster or dice maps.  Only successes are kept.
    """
    data = bytes(data)
    hit = _HEADERS.get(data)
    if hit is not None:
        return hit
    header = _decode_header(data, name)
    if len(_HEADERS) >= _HEADERS_KEEP:
        _HEADERS.clear()
    _HEADERS[data] = header
    return header


_HEADERS_KEEP = 256
_HEADERS: dict[bytes, Header] = {}


def _decode_header(data: bytes, name: str) -> Header:
    try:
        obj = canonical.decode(data, max_bytes=MAX_HEADER, max_container=MAX_HEADER_CONTAINER)
    except BadEncoding as err:
        raise BadEncoding(f"{name} has a header that is not canonical msgpack ({err})") from err
    try:
        return Header.from_obj(obj)
    except _Fail as err:
        raise BadHeader(f"{name} has an invalid header: {err}") from err


def parse(data: bytes, name: str = "the file", *, max_size: int = MAX_FILE) -> Envelope:
    """Split and check a sealed file; raise a ``BadFile`` subclass on anything wrong."""
    if not isinstance(data, (bytes, bytearray)):
        raise BadFormat(f"{name} could not be read as bytes")
    data = bytes(data)
    if len(data) == 0:
        raise BadFormat(f"{name} is empty; ask its sender to send it again")
    if len(data) > max_size:
        raise BadFormat(f"{name} is {len(data)} bytes, over the limit of {max_size}; it is not an eiapbem file")
    if not data.startswith(MAGIC):
        if data[:8] == MAGIC[:8]:
            raise BadFormat(f"{name} is an eiapbem file of another format version; use a matching eiapbem")
        raise BadFormat(f"{name} is not an eiapbem file (it does not start with {MAGIC[:-1].decode()})")
    if len(data) < MIN_FILE:
        raise BadFormat(f"{name} is truncated ({len(data)} bytes); ask its sender to send it again")
    pos = len(MAGIC)
    hlen = int.from_bytes(data[pos : pos + 4], "big")
    pos += 4
    if not 1 <= hlen <= MAX_HEADER:
        raise BadFormat(f"{name} declares a header of {hlen} bytes, outside 1 to {MAX_HEADER}")
    if pos + hlen + 4 + SIG_LEN > len(data):
        raise BadFormat(f"{name} is truncated inside its header; ask its sender to send it again")
    header_bytes = data[pos : pos + hlen]
    pos += hlen
    blen = int.from_bytes(data[pos : pos + 4], "big")
    pos += 4
    if pos + blen + SIG_LEN != len(data):
        if pos + blen + SIG_LEN > len(data):
            raise BadFormat(f"{name} is truncated inside its body; ask its sender to send it again")
        raise BadFormat(f"{name} has {len(data) - pos - blen - SIG_LEN} bytes after its signature")
    body = data[pos : pos + blen]
    signature = data[pos + blen :]
    header = decode_header(header_bytes, name)
    if header.kind in DETACHED:
        if blen != 0:
            raise BadFormat(f"{name} is a {header.kind} file but carries its body inline")
    elif blen < TAG_LEN:
        raise BadFormat(f"{name} has a body of {blen} bytes, too short to be sealed")
    return Envelope(header, header_bytes, body, signature)
