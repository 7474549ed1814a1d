"""Canonical msgpack: the one byte form of every value eiapbem hashes or signs.

A value is canonical when it is built only from ``None``, ``bool``, ``int``
(signed 64-bit range), ``str``, ``bytes``, lists and maps with ``str`` keys,
and its encoding has every map's keys sorted by their UTF-8 bytes.  Floats are
refused outright (the rules core has no floats), so a serialised state can
never hold one.  ``decode`` accepts only bytes that ``encode`` would produce
for the value they hold: anything else (a float, unsorted or duplicate keys, a
non-minimal integer, trailing bytes, an extension type) is a ``BadEncoding``.

Decoding is bounded (docs/file-format.md section 8): before msgpack builds
anything, ``check_bounds`` walks the bytes once without recursion and refuses
a value nested deeper than ``max_depth``, a container of more than
``max_container`` entries, a float, an extension type, a length running past
the end, trailing bytes, or more than ``max_bytes`` in all.  Only then is the
value built, and every recursive walk over it (the canonical check, the typed
records, the rules) sees a value of known depth.
"""

from __future__ import annotations

import hashlib
from typing import Any

import msgpack

from eiapbem.core.errors import BadEncoding, quoted

INT_MIN = -(2**63)
INT_MAX = 2**64 - 1

#: Limits a reader enforces on untrusted input (the file layer may pass tighter ones).
DEFAULT_MAX_BYTES = 64 * 1024 * 1024
DEFAULT_MAX_CONTAINER = 1_000_000
#: How deeply containers may nest in a value read from outside (a state nests about a dozen levels; an
#: action or a log line is a ``Plain`` value of at most 32 levels inside a body).
DEFAULT_MAX_DEPTH = 64


def _normalise(value: Any, path: str) -> Any:
    # bool before int: bool is a subclass of int.
    if value is None or isinstance(value, (bool, str, bytes)):
        return value
    if isinstance(value, int):
        if not INT_MIN <= value <= INT_MAX:
            raise BadEncoding(f"integer out of the 64-bit range at {path or 'top level'}")
        return value
    if isinstance(value, float):
        raise BadEncoding(f"float {quoted(value)} at {path or 'top level'}: eiapbem values hold integers only")
    if isinstance(value, (list, tuple)):
        return [_normalise(v, f"{path}[{i}]") for i, v in enumerate(value)]
    if type(value) is Raw:
        raise _HasRaw
    if isinstance(value, dict):
        items = []
        for k, v in value.items():
            if not isinstance(k, str):
                raise BadEncoding(f"map key {quoted(k)} at {path or 'top level'} is not a string")
            items.append((k.encode("utf-8"), k, _normalise(v, f"{path}.{k}")))
        items.sort(key=lambda t: t[0])
        return _SortedMap((k, v) for _, k, v in items)
    raise BadEncoding(f"value of type {type(value).__name__} at {path or 'top level'} cannot be encoded")


class _SortedMap(dict[str, Any]):
    """A dict whose insertion order is the canonical key order (msgpack keeps it)."""


class _Slow(Exception):
    """Raised by ``_fast`` on anything it does not take: ``_normalise`` then redoes the value."""


class _HasRaw(Exception):
    """Raised by ``_fast``/``_normalise`` on a ``Raw`` piece: ``_assemble`` then writes that value."""


class Raw:
    """The canonical bytes of one value, already encoded: ``encode`` emits them as they are (issue 18).

    A long list that only grows (the game's journal in a save) keeps its
    elements' bytes and is handed to ``encode`` as ``encoded_list(...)``, so a
    save encodes only what is new.  The bytes must be what ``encode`` gives for
    the value they stand for (the caller's promise; a test compares both).
    """

    __slots__ = ("data",)

    def __init__(self, data: bytes) -> None:
        self.data = bytes(data)

    def __eq__(self, other: object) -> bool:
        return type(other) is Raw and other.data == self.data

    def __hash__(self) -> int:
        return hash(self.data)

    def __repr__(self) -> str:
        return f"Raw({len(self.data)} bytes)"


def _header(n: int, small: int, b16: int) -> bytes:
    # msgpack's minimal container headers (the packer's own choice): fix form, 16-bit, 32-bit length.
    if n < 16:
        return bytes((small | n,))
    if n <= 0xFFFF:
        return bytes((b16,)) + n.to_bytes(2, "big")
    return bytes((b16 + 1,)) + n.to_bytes(4, "big")


def encoded_list(elements: bytes, n: int) -> Raw:
    """A list given as its ``n`` elements' canonical bytes, joined: the list's canonical bytes."""
    return Raw(_header(n, 0x90, 0xDC) + elements)


def _fast(value: Any) -> Any:
    """``_normalise`` without paths, for the exact built-in types (issue 18: the encoder's hot loop).

    Same result as ``_normalise`` on the values it accepts; on anything else
    (a subclass, a float, a bad key, an integer out of range) it raises
    ``_Slow`` and ``encode`` runs ``_normalise``, which names the path in its
    error.  Keys are sorted as ``str``: code-point order is UTF-8 byte order.
    """
    t = type(value)
    if t is str or t is int and INT_MIN <= value <= INT_MAX or t is bool or value is None or t is bytes:
        return value
    if t is dict:
        out = _SortedMap()
        try:
            keys = sorted(value)
        except TypeError:
            raise _Slow from None
        for k in keys:
            if type(k) is not str:
                raise _Slow
            out[k] = _fast(value[k])
        return out
    if t is list or t is tuple:
        return [_fast(v) for v in value]
    if t is Raw:
        raise _HasRaw
    raise _Slow


def _pack(plain: Any) -> bytes:
    packed: bytes = msgpack.packb(plain, use_bin_type=True, strict_types=False)
    return packed


def encode(value: Any) -> bytes:
    """Return the canonical msgpack bytes of ``value`` (raises ``BadEncoding``)."""
    try:
        return _pack(_fast(value))
    except _HasRaw:
        return _assemble(value, "")
    except (_Slow, RecursionError):
        pass
    try:
        return _pack(_normalise(value, ""))
    except _HasRaw:
        return _assemble(value, "")


def _assemble(value: Any, path: str) -> bytes:
    """``encode`` of a value holding ``Raw`` pieces: the containers above them are written here."""
    if type(value) is Raw:
        return value.data
    try:
        return _pack(_fast(value))
    except _HasRaw:
        pass
    except (_Slow, RecursionError):
        try:
            return _pack(_normalise(value, path))
        except _HasRaw:
            pass
    if isinstance(value, dict):
        for k in value:
            if not isinstance(k, str):
                raise BadEncoding(f"map key {quoted(k)} at {path or 'top level'} is not a string")
        keys = sorted(value, key=lambda k: k.encode("utf-8"))
        parts = [_header(len(keys), 0x80, 0xDE)]
        for k in keys:
            parts.append(_pack(str(k)))
            parts.append(_assemble(value[k], f"{path}.{k}"))
        return b"".join(parts)
    assert isinstance(value, (list, tuple))  # only containers hold a Raw piece
    parts = [_header(len(value), 0x90, 0xDC)]
    parts += [_assemble(v, f"{path}[{i}]") for i, v in enumerate(value)]
    return b"".join(parts)


def _pairs_hook(pairs: list[tuple[Any, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in pairs:
        if not isinstance(k, str):
            raise BadEncoding("a map key is not a string")
        if k in out:
            raise BadEncoding(f"duplicate map key {quoted(k)}")
        out[k] = v
    return out


def _ext_hook(code: int, data: bytes) -> Any:
    raise BadEncoding(f"msgpack extension type {code} is not allowed")


def decode_map(data: bytes) -> tuple[dict[str, Any], dict[str, bytes], dict[str, dict[str, bytes]]]:
    """``decode`` of a map, with the canonical bytes of each value and of each entry of a map value (issue 18).

    The canonical check is the same: the pieces are encoded one by one and put together as ``encode``
    puts a map together (minimal header, keys in UTF-8 order), and the whole must be the bytes given.
    On anything else (not a map, not canonical, a float...) ``decode`` itself runs, so every error is
    its error, with its message.  A caller keeps the pieces to encode a value built from them without
    encoding it again (``GameState.decode``)."""
    try:
        value = _unpack(data, DEFAULT_MAX_BYTES, DEFAULT_MAX_CONTAINER)
        if type(value) is dict:
            pieces: dict[str, bytes] = {}
            entries: dict[str, dict[str, bytes]] = {}
            for k in sorted(value):
                v = value[k]
                if type(v) is dict:
                    e = entries[k] = {ek: encode(v[ek]) for ek in sorted(v)}
                    pieces[k] = _header(len(e), 0x80, 0xDE) + b"".join(_pack(ek) + eb for ek, eb in e.items())
                else:
                    pieces[k] = encode(v)
            whole = _header(len(pieces), 0x80, 0xDE) + b"".join(_pack(k) + b for k, b in pieces.items())
            if whole == bytes(data):
                return value, pieces, entries
    except (BadEncoding, _Slow, _HasRaw, RecursionError):
        pass
    out = decode(data)  # raises what is wrong, as ``decode`` says it
    return out, {}, {}


def _first_bytes() -> list[tuple[int, int] | None]:
    """For each first byte of a msgpack value: (what, n), ``check_bounds``'s table.

    what 0: a scalar with ``n`` more bytes; 1: a str or bin whose length is in the next ``n`` bytes;
    2 / 3: an array / a map whose count is in the next ``n`` bytes; 4 / 5: a fix array / fix map of ``n``
    entries; None: refused (a float, an extension type, the unused byte 0xc1)."""
    t: list[tuple[int, int] | None] = [None] * 256
    for b in list(range(0x00, 0x80)) + list(range(0xE0, 0x100)) + [0xC0, 0xC2, 0xC3]:
        t[b] = (0, 0)  # fixint, nil, false, true
    for b in range(0x80, 0x90):
        t[b] = (5, b & 0x0F)
    for b in range(0x90, 0xA0):
        t[b] = (4, b & 0x0F)
    for b in range(0xA0, 0xC0):
        t[b] = (0, b & 0x1F)  # fixstr: its bytes follow
    for b, n in ((0xC4, 1), (0xC5, 2), (0xC6, 4), (0xD9, 1), (0xDA, 2), (0xDB, 4)):
        t[b] = (1, n)
    for b, n in ((0xCC, 1), (0xCD, 2), (0xCE, 4), (0xCF, 8), (0xD0, 1), (0xD1, 2), (0xD2, 4), (0xD3, 8)):
        t[b] = (0, n)
    t[0xDC], t[0xDD], t[0xDE], t[0xDF] = (2, 2), (2, 4), (3, 2), (3, 4)
    return t


_FIRST = _first_bytes()
_REFUSED = {0xCA: "a float (eiapbem values hold integers only)", 0xCB: "a float (eiapbem values hold integers only)",
            0xC1: "the byte 0xc1, which msgpack never uses"}


def check_bounds(data: bytes, max_depth: int = DEFAULT_MAX_DEPTH, max_container: int = DEFAULT_MAX_CONTAINER) -> None:
    """Walk the msgpack bytes of one value without building it or recursing; ``BadEncoding`` if it breaks a limit.

    Refused: nesting deeper than ``max_depth`` containers, a container of more than ``max_container``
    entries, a float or an extension type, a length that runs past the end of ``data``, bytes after the
    value.  One pass over the type bytes (the bytes of strings are skipped, not read)."""
    n = len(data)
    pos = 0
    stack: list[int] = []
    left = 1
    first = _FIRST
    while True:
        while left == 0:
            if not stack:
                if pos != n:
                    raise BadEncoding("trailing bytes after the encoded value")
                return
            left = stack.pop()
        left -= 1
        if pos >= n:
            raise BadEncoding("the encoded value is cut short")
        b = data[pos]
        entry = first[b]
        pos += 1
        if entry is None:
            raise BadEncoding(f"the value holds {_REFUSED.get(b, 'a msgpack extension type, which is not allowed')}")
        what, k = entry
        if what == 0:
            pos += k
            continue
        if what == 1:
            pos += k + int.from_bytes(data[pos:pos + k], "big")
            continue
        if what >= 4:
            count = k if what == 4 else 2 * k
        else:
            c = int.from_bytes(data[pos:pos + k], "big")
            pos += k
            if c > max_container:
                kind = "list" if what == 2 else "map"
                raise BadEncoding(f"a {kind} of {c} entries, over the limit of {max_container}")
            count = c if what == 2 else 2 * c
        if count:
            if len(stack) >= max_depth:
                raise BadEncoding(f"the value is nested deeper than {max_depth} levels")
            stack.append(left)
            left = count


def _unpack(data: bytes, max_bytes: int, max_container: int, max_depth: int = DEFAULT_MAX_DEPTH) -> Any:
    """msgpack's value of ``data`` (string keys, no duplicate key, no extension), not yet checked as canonical.

    Its bounds are checked first (``check_bounds``): msgpack builds only a value of known depth and size."""
    if not isinstance(data, (bytes, bytearray)):
        raise BadEncoding("expected bytes to decode")
    if len(data) > max_bytes:
        raise BadEncoding(f"encoded value is {len(data)} bytes, over the limit of {max_bytes}")
    check_bounds(data, max_depth, max_container)
    try:
        return msgpack.unpackb(
            bytes(data),
            raw=False,
            use_list=True,
            strict_map_key=True,
            object_pairs_hook=_pairs_hook,
            ext_hook=_ext_hook,
            max_str_len=max_bytes,
            max_bin_len=max_bytes,
            max_array_len=max_container,
            max_map_len=max_container,
        )
    except BadEncoding:
        raise
    except msgpack.ExtraData as err:
        raise BadEncoding("trailing bytes after the encoded value") from err
    except (ValueError, TypeError, msgpack.UnpackException, RecursionError) as err:
        raise BadEncoding(f"not valid msgpack ({type(err).__name__})") from err


def decode(
    data: bytes,
    *,
    max_bytes: int = DEFAULT_MAX_BYTES,
    max_container: int = DEFAULT_MAX_CONTAINER,
    max_depth: int = DEFAULT_MAX_DEPTH,
) -> Any:
    """Decode canonical msgpack bytes strictly, within the limits given; raise ``BadEncoding`` on anything else."""
    value = _unpack(data, max_bytes, max_container, max_depth)
    # Canonical check: re-encoding must give the same bytes (catches floats,
    # unsorted keys, non-minimal integer or length forms).
    again = encode(value)
    if again != bytes(data):
        raise BadEncoding("msgpack is valid but not in eiapbem's canonical form")
    return value


def digest(value: Any) -> bytes:
    """SHA-256 of the canonical encoding of ``value``."""
    return hashlib.sha256(encode(value)).digest()
