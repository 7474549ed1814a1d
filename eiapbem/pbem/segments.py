"""Segments: the parts of a save that only grow, written once in files of their own (issue 18 item 3).

A save is rewritten whole at every change (every loaded file, every End
Current Phase).  Four of its parts grow with the game and never change once
written: the journal (the public log), the chain's ``known`` file hashes, the
chain's ``slots`` and the slot start counts ``starts``.  Once such a part's
unsaved *tail* holds ``CUT`` items, the tail goes into a **segment**,
``save/<Game>.segments/<sha256 of the file>.seg``, written once and durably
before the save that names it; the save then holds only each part's tail and
the list of its segments (part, SHA-256, key, number of items).  So the cost of
a save stays flat over a long game (docs/file-format.md, "Segments").

A segment file is ``MAGIC`` followed by the ChaCha20-Poly1305 ciphertext of
the canonical map ``{"gid", "part", "items"}`` (zero nonce: each key seals one
plaintext only), with ``MAGIC + gid`` as associated data.  Its key is not in
the file: the save names it, and the save is signed and sealed to the
folder's roles, so only who opens the save opens its segments, and the hash
the signed save names is checked before anything is believed.  The key is
derived from the writer's secret and the plaintext (no random draw: a seeded
campaign's byte stream is the same with or without segments, and writing the
same segment again gives the same file).

A segment is never changed or removed once written (the rewind points and the
host's monthly saves of the same folder name the same segments); a segment
that a crash left unnamed is harmless.  A missing, altered or foreign segment
is a ``BadFile`` naming the file, like a damaged ``.sav.dat``.
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Mapping

from cryptography.exceptions import InvalidTag
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

from eiapbem.core import canonical
from eiapbem.core.errors import BadEncoding

from .errors import BadEncryption, BadFormat

MAGIC = b"EIAPBEM-SEGMENT/1\n"
SUFFIX = ".segments"
#: The growing parts, in the order a save lists their segments.
PARTS = ("journal", "known", "slots", "starts")
#: A part's tail goes into a segment once it holds this many items (~20-40 KiB each).
CUT = {"journal": 128, "known": 512, "slots": 256, "starts": 256}
#: A reader refuses a segment file over this size (the largest file eiapbem reads, ``headers.MAX_FILE``, written out
#: so that reading a segment loads no file layer: ``eiapbem log`` reads the journal's from the status record,
#: ``client/statusfile.py``; tests/pbem/test_segments.py holds them equal), or a save naming more segments than this.
MAX_SEGMENT = 32 * 1024 * 1024
MAX_SEGMENTS = 100_000
_NONCE = bytes(12)


def folder(save_folder: Path, game: str) -> Path:
    """Where a game's segments live: ``save/<Game>.segments/``."""
    from . import folders

    return Path(save_folder) / (folders.check_game_name(game) + SUFFIX)


@dataclass(frozen=True)
class Ref:
    """One segment as a save names it."""

    part: str
    sha: bytes
    key: bytes
    n: int

    def to_obj(self) -> list[Any]:
        return [self.part, self.sha, self.key, self.n]

    @classmethod
    def from_obj(cls, o: Any, name: str) -> "Ref":
        if (not isinstance(o, list) or len(o) != 4 or o[0] not in PARTS or not isinstance(o[1], bytes)
                or len(o[1]) != 32 or not isinstance(o[2], bytes) or len(o[2]) != 32
                or type(o[3]) is not int or o[3] < 1):
            raise BadEncoding(f"{name} names a segment in an unknown form")
        return cls(o[0], o[1], o[2], o[3])

    @property
    def file_name(self) -> str:
        return self.sha.hex() + ".seg"


class Segments:
    """The segment files of one game in one folder (``save/<Game>.segments/``)."""

    def __init__(self, save_folder: Path, game: str) -> None:
        self.dir = folder(save_folder, game)
        self.label = f"save/{self.dir.name}"

    def write(self, part: str, items: Any, n: int, gid: bytes, secret: bytes) -> Ref:
        """Write one segment (durably, before the save naming it) and return its reference."""
        from . import atomic

        plain = canonical.encode({"gid": gid, "part": part, "items": items})
        key = hmac.new(secret, b"eiapbem/v1/segment\x00" + gid + hashlib.sha256(plain).digest(),
                       hashlib.sha256).digest()
        data = MAGIC + ChaCha20Poly1305(key).encrypt(_NONCE, plain, MAGIC + gid)
        sha = hashlib.sha256(data).digest()
        ref = Ref(part, sha, key, n)
        path = self.dir / ref.file_name
        if not self._holds(path, sha):
            if not self.dir.is_dir():
                self.dir.mkdir(parents=True, exist_ok=True)
                atomic._fsync_dir(self.dir.parent)
            atomic.write_atomic(path, data)
        return ref

    @staticmethod
    def _holds(path: Path, sha: bytes) -> bool:
        try:
            return hashlib.sha256(path.read_bytes()).digest() == sha
        except OSError:
            return False

    def read(self, ref: Ref, gid: bytes, save_name: str) -> Any:
        """The items of one segment, checked: its hash, its key, its game and its part."""
        from . import folders

        where = f"{self.label}/{ref.file_name}"
        hint = (f"put back the folder {self.label} as it was (a segment is never changed once written); "
                "else use a copy in rewind/ or ask the host for a backup")
        path = self.dir / ref.file_name
        try:
            data = folders.read_limited(path, MAX_SEGMENT)
        except BadFormat as err:
            raise BadFormat(f"{save_name} names the segment file {where}, which is missing or unreadable", hint=hint) from err
        return open_items(data, ref, gid, where, save_name, hint)


def open_items(data: bytes, ref: Ref, gid: bytes, where: str, save_name: str, hint: str | None = None) -> Any:
    """The items of the segment file ``data`` that ``ref`` names (of the game ``gid``), checked: its hash, its key,
    its game, its part and its count; ``where`` and ``save_name`` name the file and the save in a refusal."""
    if hashlib.sha256(data).digest() != ref.sha or not data.startswith(MAGIC):
        raise BadEncryption(f"the segment file {where} is not the one {save_name} was saved with: it was changed",
                            hint=hint)
    try:
        plain = ChaCha20Poly1305(ref.key).decrypt(_NONCE, data[len(MAGIC):], MAGIC + gid)
    except InvalidTag as err:
        raise BadEncryption(f"the segment file {where} does not open with the key {save_name} names: "
                            "it belongs to another game or was altered", hint=hint) from err
    try:  # the container limit is a sealed body's (``crypto.MAX_BODY_CONTAINER``, the same number)
        o = canonical.decode(plain, max_bytes=MAX_SEGMENT, max_container=canonical.DEFAULT_MAX_CONTAINER)
    except BadEncoding as err:
        raise BadEncoding(f"the segment file {where} is not canonical msgpack ({err})") from err
    if not isinstance(o, dict) or set(o) != {"gid", "part", "items"} or o["gid"] != gid or o["part"] != ref.part:
        raise BadEncoding(f"the segment file {where} is not the {ref.part} segment of this game that {save_name} names")
    items = o["items"]
    kind = list if ref.part in ("journal", "known") else dict
    if not isinstance(items, kind) or len(items) != ref.n:
        raise BadEncoding(f"the segment file {where} does not hold the {ref.n} items {save_name} names")
    return items


# ----------------------------------------------------------------- what is in segments already


_NO = object()


@dataclass(frozen=True)
class Archive:
    """What of each growing part is in segments already: a memo beside a save's value, never part of it.

    ``journal`` is the archived prefix of the journal (a tuple of lines),
    ``known`` a set of hashes, ``slots`` and ``starts`` maps; ``refs`` the
    segments holding them, in order.  Every use checks the memo against the
    values being saved (``tails``): a part whose values no longer extend what
    was archived (a rewind, a backup's new epoch) starts again from nothing.
    """

    refs: tuple[Ref, ...] = ()
    journal: tuple[Any, ...] = ()
    known: frozenset[bytes] = frozenset()
    slots: Mapping[str, Any] = field(default_factory=dict)
    starts: Mapping[str, Any] = field(default_factory=dict)

    def refs_obj(self) -> list[Any]:
        return [r.to_obj() for r in self.refs]

    def _drop(self, part: str) -> "Archive":
        empty: dict[str, Any] = {"journal": (), "known": frozenset(), "slots": {}, "starts": {}}
        return Archive(tuple(r for r in self.refs if r.part != part), **{
            p: (empty[p] if p == part else getattr(self, p)) for p in PARTS})

    def tails(self, journal: tuple[Any, ...], known: frozenset[bytes], slots: Mapping[str, Any],
              starts: Mapping[str, Any]) -> tuple[Archive, dict[str, Any]]:
        """The archive still valid for these values, and each part's tail (what the save must hold itself)."""
        a = self
        n = len(a.journal)
        if n and not (len(journal) >= n and (journal[:n] == a.journal)):
            a, n = a._drop("journal"), 0
        elif n and journal[n - 1] is not a.journal[-1]:
            object.__setattr__(a, "journal", journal[:n])  # equal lines: keep these objects (the next check by identity)
        tail_known = known - a.known if a.known else known
        if len(known) - len(tail_known) != len(a.known):  # not every archived hash is still known
            a, tail_known = a._drop("known"), known
        out: dict[str, Any] = {"journal": journal[n:], "known": tail_known}
        for part, cur in (("slots", slots), ("starts", starts)):
            old = getattr(a, part)
            if not old:
                out[part] = dict(cur)
                continue
            keys = list(cur)
            if part == "slots" and keys[:len(old)] == list(old):
                # The archived slots are the first ones of this chain's, in their order: the chain only adds
                # slots, and never another file for a slot it holds (``Chain._advance``: a fork), so the
                # tail is what follows (issue 18: no set of every slot built at each save).
                out[part] = {k: cur[k] for k in keys[len(old):]}
                continue
            new = cur.keys() - old.keys()
            if len(cur) - len(new) != len(old):
                a = a._drop(part)  # an archived key is gone (a backup's new epoch): start this part again
                out[part] = dict(cur)
            elif old.items() <= cur.items():
                out[part] = {k: cur[k] for k in keys if k in new}  # in the chain's order
            else:
                out[part] = {k: v for k, v in cur.items() if old.get(k, _NO) != v}  # a count that grew: the tail wins
        return a, out

    def cut(self, tails: dict[str, Any], store: Segments, gid: bytes, secret: bytes) -> tuple[Archive, dict[str, Any]]:
        """Write each tail of ``CUT`` items or more into a segment; the archive and tails after."""
        a = self
        tails = dict(tails)
        for part in PARTS:
            t = tails[part]
            if len(t) < CUT[part]:
                continue
            if part == "journal":
                ref = store.write(part, list(t), len(t), gid, secret)
                a = _with(a, ref, journal=a.journal + tuple(t))
                tails[part] = ()
            elif part == "known":
                ref = store.write(part, sorted(t), len(t), gid, secret)
                a = _with(a, ref, known=a.known | t)
                tails[part] = frozenset()
            else:
                ref = store.write(part, dict(t), len(t), gid, secret)
                a = _with(a, ref, **{part: {**getattr(a, part), **t}})
                tails[part] = {}
        return a, tails


def _with(a: Archive, ref: Ref, **parts: Any) -> Archive:
    if len(a.refs) >= MAX_SEGMENTS:
        raise BadFormat(f"a save may name at most {MAX_SEGMENTS} segments")
    kw = {p: getattr(a, p) for p in PARTS}
    kw.update(parts)
    return Archive(a.refs + (ref,), **kw)


def join(body: dict[str, Any], store: Segments | None, name: str) -> tuple[dict[str, Any], Archive | None]:
    """A save's body with its segments read back into it (the plain form), and the archive they make.

    A body naming no segments (an older save, a handed-over one) is returned as it is.
    """
    if not isinstance(body, dict) or "segments" not in body:
        return body, None
    raw = body["segments"]
    if not isinstance(raw, list) or len(raw) > MAX_SEGMENTS:
        raise BadEncoding(f"{name} names its segments in an unknown form")
    refs = [Ref.from_obj(o, name) for o in raw]
    rest = {k: v for k, v in body.items() if k != "segments"}
    if not refs:
        return rest, Archive()
    if store is None:
        raise BadFormat(f"{name} keeps part of the game in segment files of its own game folder (save/*{SUFFIX}); "
                        "it opens only there", hint="open it in the folder that wrote it")
    try:
        chain, game, gid = rest["chain"], rest["game"], rest["chain"]["gid"]
        if not isinstance(chain, dict) or not isinstance(game, dict) or not isinstance(gid, bytes):
            raise TypeError
        tails: dict[str, Any] = {"journal": list(game["journal"]), "known": list(chain["known"]), "slots": dict(chain["slots"]),
                 "starts": dict(rest["starts"])}
    except (KeyError, TypeError) as err:
        raise BadEncoding(f"{name} does not hold a save in the expected form") from err
    journal: list[Any] = []
    known: set[bytes] = set()
    slots: dict[str, Any] = {}
    starts: dict[str, Any] = {}
    for ref in refs:
        items = store.read(ref, gid, name)
        if ref.part == "journal":
            journal += items
        elif ref.part == "known":
            known.update(items)
        elif ref.part == "slots":
            slots.update(items)
        else:
            starts.update(items)
    archive = Archive(tuple(refs), tuple(journal), frozenset(known), dict(slots), dict(starts))
    full_known = known | set(tails["known"])
    out = dict(rest)
    out["chain"] = dict(chain, known=sorted(full_known), slots={**slots, **tails["slots"]})
    out["game"] = dict(game, journal=journal + tails["journal"])
    out["starts"] = {**starts, **tails["starts"]}
    return out, archive


def body(chain_obj: dict[str, Any], game_obj: dict[str, Any], tails: dict[str, Any], archive: Archive) -> dict[str, Any]:
    """The body of a save naming ``archive``'s segments: each growing part holds only its tail."""
    return {"chain": chain_obj, "game": game_obj, "starts": dict(tails["starts"]), "segments": archive.refs_obj()}


__all__ = ["Archive", "CUT", "MAGIC", "PARTS", "Ref", "Segments", "SUFFIX", "body", "folder", "join"]
