"""The sealed file envelope: layout and clear header (docs/file-format.md sections 2, 3, 8).

This module knows bytes and fields only, no cryptography (STYLE.md 4): it
splits a file into magic, header, body and signature, checks every limit and
the header's schema (the typed header records of ``pbem/headers.py``), and
assembles the bytes back.  ``parse(assemble(...))`` gives back the same bytes
(the round trip the signature depends on).  The lengths and the header's bounds
are checked before anything of the header is built: a file of any bytes is
parsed or refused in one sentence.
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

from eiapbem.core import canonical
from eiapbem.core.errors import BadEncoding, InvalidValue

from . import headers
from .errors import BadFormat, BadHeader

MAGIC = b"EIAPBEM/1\n"
SIG_LEN = 64
MAX_FILE = headers.MAX_FILE
MAX_SAV = 1024 * 1024
MAX_HEADER = headers.MAX_HEADER
MAX_HEADER_CONTAINER = headers.MAX_HEADER_CONTAINER
MAX_HEADER_DEPTH = headers.MAX_HEADER_DEPTH
MIN_FILE = len(MAGIC) + 4 + 1 + 4 + SIG_LEN
TAG_LEN = headers.TAG_LEN

KINDS = headers.KINDS
ROLES = headers.ROLES
POWERS = headers.POWERS
#: Kinds whose ciphertext is the detached ``.sav.dat`` file.
DETACHED = ("save", "backup")
#: Kinds that do not follow another file.
UNCHAINED = tuple(k for k, c in headers.BY_KIND.items() if not c.CHAINED)
#: Kinds made before a game exists (the GAP, docs/file-format.md section 10): gid all zero.
GAP_KINDS = ("bid", "selection")
BIDDER = headers.BIDDER

MAX_LINK = headers.MAX_LINK
MAX_SEQ = headers.MAX_SEQ
MAX_EPOCH = headers.MAX_EPOCH
SCRYPT_LOGN = headers.SCRYPT_LOGN
SCRYPT_R = headers.SCRYPT_R
SCRYPT_P = headers.SCRYPT_P

GAME_RE = re.compile(headers.GAME_PATTERN + r"\Z")
#: A bidder's name (docs/file-format.md section 3, ``bidder``).
BIDDER_NAME_RE = re.compile(headers.BIDDER_NAME_PATTERN + r"\Z")
#: A bidder's email address: one ``@``, no space, 3-80 characters.
EMAIL_RE = re.compile(headers.EMAIL_PATTERN + r"\Z")
MAX_EMAIL = headers.MAX_EMAIL
_SLOT_RE = re.compile(headers.SLOT_PATTERN + r"\Z")

Header = headers.Header
RosterEntry = headers.RosterEntry
Stanza = headers.Stanza
roster_from_obj = headers.roster_from_obj


def _u32(n: int) -> bytes:
    return n.to_bytes(4, "big")


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


def file_hash(envelope: Envelope) -> bytes:
    """SHA-256 of every byte before the signature (the file's identity in the chain)."""
    return hashlib.sha256(envelope.prefix).digest()


def fingerprint(h: bytes) -> str:
    """The short form of a file hash shown to people (first 8 bytes in hex)."""
    return h[:8].hex()


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
        obj = canonical.decode(data, max_bytes=MAX_HEADER, max_container=MAX_HEADER_CONTAINER,
                               max_depth=MAX_HEADER_DEPTH)
    except BadEncoding as err:
        raise BadEncoding(f"{name} has a header that is not canonical msgpack ({err})") from err
    try:
        return headers.header_from_obj(obj)
    except InvalidValue as err:
        where = f"{err.path}: " if err.path else ""
        raise BadHeader(f"{name} has an invalid header ({where}{err.reason})") from err


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
