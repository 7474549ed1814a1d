"""The status record beside the save: what ``eiapbem status`` shows, kept so a fresh ``status`` need not open the game.

``status`` in a fresh process would open the save, decode the state and load the rules to say what is to do;
that is most of its time.  So the client keeps, for each role played from the folder, the status it showed or
would show, in ``save/GameName_ROLE.status``:

- **sealed under the role's password**: ChaCha20-Poly1305 under a key derived from the file key of the
  role's key file (``GameName_ROLE.key``), which only the password unwraps.  The record's clear part repeats
  the key file's clear scrypt stanza (salt, cost, wrapped file key), so opening it costs one scrypt, as the
  key file does, and imports none of the file layer.  Without the password it says nothing the save hides:
  its size, its time and the fingerprint below (of file names, sizes and times anyone can list);
- **tied to the folder and the program**: the fingerprint covers everything the status is made from (the save and
  its segment files, the key files, ``commin/``, ``commout/``, ``battles/``, ``mail/``, ``rewind/``, by name,
  size, time and inode; the save itself by its bytes, which name the state's and sign everything in it) and the
  program that made it (``program``: its release and every file of the installed package, so the rules' and
  the computer's versions and the wording; a release number alone stays the same while they change); a record
  whose fingerprint is not the folder's now is not used, and that is checked before the password is asked;
- **what a fresh ``log`` shows, too**: the last ``LOG_KEPT`` lines of the public log as ``eiapbem log --json``
  gives them (4.1.1 Fog of War applied), made at the same opening, so ``log`` asking for no more than these
  answers from the record as ``status`` does; and for a longer log, where the lines before them are (``older``:
  the journal's segments the save names, with their keys, and the state's Fog of War table), so ``log -n N``
  reads those segments and shows their lines as the game does (``older_log``), with no rules and no save;
- **what the read-only commands answer, too**: the answers the CLI makes at the same opening (``cli/answers.py``:
  ``show`` in its forms, ``map --json``, ``battle report``), each under its command's key, and the records
  ``show units``, ``show reach`` and ``economy summary`` answer every argument form from, and the game's picture
  ``map --svg --save`` writes (``data``), so those
  commands answer from the record as ``status`` does; the record is compressed before it is sealed;
- **written only when it is what a fresh status shows**: by ``make``, which opens the game as a fresh
  ``status`` does and writes the record only when the opening changed nothing in the folder; the CLI calls it
  from ``status`` and, at the end of a command that opened a game, when the record is not current
  (``cli/main.py``).

A record that is missing, damaged, stale or not this password's is simply not used: ``status`` opens the game
(a wrong password is then named by the key file).  docs/decisions.md ("A fresh status answers from a sealed
status record") gives the reasons.

``locate``, ``current`` and ``read`` must stay light (no ``eiapbem.pbem`` beyond ``kdf``, no rules);
``make`` loads the rest.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import os
import zlib
from pathlib import Path
from typing import Any, Callable, NamedTuple

from eiapbem import __version__
from eiapbem.core.powers import POWERS

MAGIC = b"eiapbem-status-3\n"
SUFFIX = ".status"
NONCE = 12
MAX_RECORD = 4 * 1024 * 1024
#: The most a record's JSON may take once inflated (it is kept compressed: the answers repeat much).
MAX_PLAIN = 64 * 1024 * 1024
#: The public log's last lines the record keeps for ``eiapbem log`` (its default asks for 40; a month of seven
#: powers writes about 200).
LOG_KEPT = 1000
#: The folders (under the game folder) whose files the status is made from.
WATCHED = ("save", "commin", "commout", "battles", "mail", "rewind")


class RecordKey(NamedTuple):
    """What seals a role's record: its key file's clear scrypt stanza and the file key the password unwraps."""

    salt: bytes
    logn: int
    r: int
    p: int
    wrapped: bytes
    file_key: bytes


def record_key(stanza: Any, file_key: bytes) -> RecordKey:
    """The record key of a key file opened with ``pbem.keys.open_identity_keyed``."""
    return RecordKey(bytes(stanza.salt), int(stanza.logn), int(stanza.r), int(stanza.p), bytes(stanza.key), file_key)


def record_path(home: Path, game: str, role: str) -> Path:
    return Path(home) / "save" / f"{game}_{role}{SUFFIX}"


def locate(home: Path, game: str | None, power: str | None, prefer: str | None = None) -> tuple[str, str] | None:
    """The game and the role a plain ``status`` would open, found from file names alone; None when in any doubt
    (then the CLI finds them the usual way and says what is wrong).  ``prefer``: the role that acts when
    ``power`` is not given and it is played here (a power a command looks at)."""
    save = Path(home) / "save"
    try:
        names = sorted(n[:-4] for n in os.listdir(save)
                       if n.endswith(".sav") and "_backup_" not in n and "_monthly_" not in n)
    except OSError:
        return None
    name = game if game in names else names[0] if game is None and len(names) == 1 else None
    if name is None:
        return None
    if power is None and prefer in POWERS and (Path(home) / f"{name}_{prefer}.key").is_file():
        power = prefer
    if power is None:
        plays = [r for r in POWERS if (Path(home) / f"{name}_{r}.key").is_file()]
        power = plays[0] if len(plays) == 1 else None
    if power is None or not (Path(home) / f"{name}_{power}.key").is_file():
        return None
    return name, power


def _entries(folder: Path, rel: str, out: list, depth: int) -> None:
    try:
        it = list(os.scandir(folder))
    except OSError:
        return
    for e in it:
        name = f"{rel}/{e.name}"
        if rel == "save" and SUFFIX in e.name:
            continue  # the records themselves (and their temporary files)
        try:
            if e.is_dir(follow_symlinks=False):
                if depth > 0:
                    _entries(Path(e.path), name, out, depth - 1)
                continue
            st = e.stat()
        except OSError:
            continue
        out.append((name, st.st_size, st.st_mtime_ns, st.st_ino))


_PROGRAM: list[str] = []


def program() -> str:
    """This eiapbem as what a status record's text depends on: its release and a digest of every file of the
    installed package (name, size, time), the rules' and the computer players' versions among them
    (``RULES_VERSION``, ``ai.levels.VERSIONS``), read without loading them; once a process."""
    if not _PROGRAM:
        rows: list = []
        _package_files(Path(__file__).resolve().parent.parent, "", rows)
        _PROGRAM.append(__version__ + ":" + hashlib.sha256(json.dumps(sorted(rows)).encode("utf-8")).hexdigest())
    return _PROGRAM[0]


def _package_files(folder: Path, rel: str, out: list) -> None:
    try:
        it = list(os.scandir(folder))
    except OSError:
        return
    for e in it:
        try:
            if e.is_dir(follow_symlinks=False):
                if e.name != "__pycache__":
                    _package_files(Path(e.path), f"{rel}{e.name}/", out)
                continue
            st = e.stat()
        except OSError:
            continue
        out.append((rel + e.name, st.st_size, st.st_mtime_ns))


def _save_digest(home: Path, game: str) -> str:
    """The digest of the save's bytes (``save/GameName.sav``, which names its ``.sav.dat`` by its hash and the
    state's): a save put back with the size and time of another is another save."""
    try:
        path = home / "save" / f"{game}.sav"
        if path.stat().st_size > MAX_RECORD:
            return "large"
        return hashlib.sha256(path.read_bytes()).hexdigest()
    except OSError:
        return ""


def fingerprint(home: Path, game: str, role: str) -> bytes:
    """A digest of every file ``status`` is made from (by name, size, time and inode: a file replaced is another
    file; the save by its bytes too) and of this eiapbem (``program``)."""
    home = Path(home)
    rows: list = []
    for top in WATCHED:
        _entries(home / top, top, rows, 2)
    try:
        for e in os.scandir(home):
            if e.name.startswith(f"{game}_") and e.name.endswith(".key"):
                st = e.stat()
                rows.append((e.name, st.st_size, st.st_mtime_ns, st.st_ino))
    except OSError:
        pass
    body = json.dumps([MAGIC.decode(), program(), _save_digest(home, game), game, role, sorted(rows)],
                      separators=(",", ":"))
    return hashlib.sha256(body.encode("utf-8")).digest()


def _clear(fp: bytes, k: RecordKey) -> bytes:
    return (MAGIC + fp + bytes((k.logn, k.r, k.p, len(k.salt))) + k.salt + bytes((len(k.wrapped),)) + k.wrapped)


def _split(data: bytes) -> tuple[bytes, bytes, RecordKey, bytes] | None:
    """(clear part, fingerprint, the key's stanza with no file key, the sealed rest), or None when malformed."""
    at = len(MAGIC)
    if not data.startswith(MAGIC) or len(data) < at + 36:
        return None
    fp = data[at:at + 32]
    logn, r, p, n = data[at + 32:at + 36]
    salt = data[at + 36:at + 36 + n]
    at += 36 + n
    if len(salt) != n or at >= len(data):
        return None
    w = data[at]
    wrapped = data[at + 1:at + 1 + w]
    at += 1 + w
    if len(wrapped) != w or len(data) <= at + NONCE:
        return None
    return data[:at], fp, RecordKey(salt, logn, r, p, wrapped, b""), data[at:]


def _seal_key(file_key: bytes, game: str, role: str) -> bytes:
    return hmac.new(file_key, b"eiapbem status record\0" + f"{game}\0{role}".encode(), hashlib.sha256).digest()


def current(home: Path, game: str, role: str) -> bytes | None:
    """The role's record when its fingerprint is the folder's now (nothing opened, no password), else None."""
    try:
        path = record_path(home, game, role)
        if path.stat().st_size > MAX_RECORD:
            return None
        data = path.read_bytes()
    except OSError:
        return None
    parts = _split(data)
    if parts is None or not hmac.compare_digest(parts[1], fingerprint(home, game, role)):
        return None
    return data


def read(home: Path, game: str, role: str, password: str, data: bytes | None = None) -> dict | None:
    """The record ``{"record": ..., "lines": [...], "log": [...], "log_all": bool, "older": {...} | None,
    "answers": {key: [out, err]}, "data": {command: records}}``
    of ``role`` when it is current and ``password`` opens it, else None.  ``data``: the record ``current``
    returned."""
    from cryptography.exceptions import InvalidTag
    from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

    from eiapbem.pbem import kdf

    data = current(home, game, role) if data is None else data
    parts = _split(data) if data else None
    if parts is None or not password:
        return None
    clear, _, k, sealed = parts
    if not kdf.in_bounds(k.logn, k.r, k.p):
        return None
    try:
        fk = kdf.unwrap(kdf.derive(password, k.salt, k.logn, k.r, k.p), k.wrapped)
        plain = ChaCha20Poly1305(_seal_key(fk, game, role)).decrypt(sealed[:NONCE], sealed[NONCE:],
                                                                      clear + f"\0{game}\0{role}".encode())
        kept = json.loads(_inflate(plain).decode("utf-8"))
    except (InvalidTag, ValueError, MemoryError, zlib.error):
        return None
    if not isinstance(kept, dict) or not isinstance(kept.get("record"), dict) or not isinstance(kept.get("lines"), list):
        return None
    log = kept.get("log")
    log = [x for x in log if isinstance(x, dict)] if isinstance(log, list) else []
    answers = kept.get("answers")
    answers = {k: v for k, v in answers.items() if isinstance(v, list) and len(v) == 2
               and all(isinstance(x, str) for x in v)} if isinstance(answers, dict) else {}
    data = kept.get("data")
    return {"record": kept["record"], "lines": [str(x) for x in kept["lines"]], "log": log,
            "log_all": kept.get("log_all") is True, "older": kept.get("older"), "answers": answers,
            "data": data if isinstance(data, dict) else {}}


def _inflate(data: bytes) -> bytes:
    """The record's JSON from its compressed form, refused past ``MAX_PLAIN`` (a record is made here, but a folder
    is not to be trusted)."""
    z = zlib.decompressobj()
    plain = z.decompress(data, MAX_PLAIN)
    if z.unconsumed_tail:
        raise ValueError("the record is larger than a record is")
    return plain


def _older(s: Any, game: str) -> dict | None:
    """Where a fresh ``log`` finds the lines before those kept: the journal's segments the save names (the game's
    id, each segment's hash, key and count, in order: ``pbem/segments.py``), the journal's length, and what 4.1.1
    Fog of War needs of the state to show any line (``fog.battle_table``); None when the segments are not the
    journal's first lines (then the game is opened)."""
    from eiapbem.client import fog

    journal = s.store.data.absorbed().journal
    archive = s.store.contents.archive
    if archive is None:
        return None
    refs = [r for r in archive.refs if r.part == "journal"]
    n = len(archive.journal)
    if sum(r.n for r in refs) != n or journal[:n] != archive.journal:
        return None
    return {"game": game, "gid": s.store.contents.chain.gid.hex(), "total": len(journal),
            "refs": [[r.sha.hex(), r.key.hex(), r.n] for r in refs],
            "fog": fog.battle_table(s.state, fog.viewers(s))}


def older_log(home: Path, kept: dict, count: int) -> list[dict] | None:
    """The last ``count`` lines of the public log as ``log --json`` gives them, from the record ``read`` returned:
    those it keeps, after the lines before them read from the journal's segments it names and shown as its Fog of
    War table says (``showtext.log_json``); None when it does not say them all (then the game is opened)."""
    from eiapbem.core.errors import EiaError
    from eiapbem.pbem import segments

    from .showtext import log_json

    older, log = kept.get("older"), kept["log"]
    if not isinstance(older, dict):
        return None
    try:
        end = older["total"] - len(log)
        start, at, lines = max(older["total"] - count, 0), 0, []
        gid, folder = bytes.fromhex(older["gid"]), Path(home) / "save" / f"{older['game']}{segments.SUFFIX}"
        for sha, key, n in older["refs"]:
            if at < end and at + n > start:
                ref = segments.Ref("journal", bytes.fromhex(sha), bytes.fromhex(key), n)
                path = folder / ref.file_name
                if path.stat().st_size > segments.MAX_SEGMENT:
                    return None
                items = segments.open_items(path.read_bytes(), ref, gid, f"save/{folder.name}/{ref.file_name}",
                                            "the status record")
                lines += items[max(start - at, 0):end - at]
            at += n
        if len(lines) != end - start:
            return None
        return json.loads(json.dumps([log_json(o, older["fog"]) for o in lines], default=_plain)) + log
    except (OSError, ValueError, KeyError, TypeError, AttributeError, EiaError):
        return None


def log_line(rec: dict) -> str:
    """A line of ``eiapbem log``, from its ``log --json`` record."""
    return f"[{rec.get('slot')}] {'(host) ' if rec.get('author') == 'host' else ''}{rec.get('text')}"


def write(home: Path, game: str, role: str, key: RecordKey, fp: bytes, out: dict) -> None:
    from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

    from eiapbem.pbem import atomic

    clear = _clear(fp, key)
    nonce = os.urandom(NONCE)
    plain = zlib.compress(json.dumps(out, ensure_ascii=False).encode("utf-8"), 6)
    sealed = ChaCha20Poly1305(_seal_key(key.file_key, game, role)).encrypt(nonce, plain,
                                                                           clear + f"\0{game}\0{role}".encode())
    atomic.write_atomic(record_path(home, game, role), clear + nonce + sealed, durable=False)


def _plain(v: Any) -> Any:
    """A value of the record as ``eiapbem status --json`` prints it (the record is plain data already)."""
    if isinstance(v, bytes):
        return v.hex()
    return getattr(v, "value", str(v))


def make(home: Path, game: str, me: Any, key: RecordKey | None,
         answers: Callable[[Any], dict[str, Any]] | None = None) -> dict:
    """Open the game as a fresh ``status`` does and return its status and log (``read``'s form); keep it as the record
    (when ``key`` is given) if the opening changed nothing in the folder (a file written on opening, a save
    brought forward).  ``answers``: what makes the read-only commands' answers and records from the open session
    (the CLI's ``cli.answers.precompute``: ``{"answers": ..., "data": ...}``), kept in the record too."""
    from eiapbem.client import documents
    from eiapbem.client.session import Session
    from eiapbem.client.status import status_lines, status_record

    before = fingerprint(home, game, me.role)
    s = Session.open_with(home, game, me)
    rec = status_record(s)
    log = documents.log(s, LOG_KEPT + 1)
    out = {"record": json.loads(json.dumps(rec, default=_plain)), "lines": status_lines(s, rec),
           "log": json.loads(json.dumps(log[-LOG_KEPT:], default=_plain)), "log_all": len(log) <= LOG_KEPT,
           "older": _older(s, game) if len(log) > LOG_KEPT else None, "answers": {}, "data": {}}
    if answers is not None and key is not None:
        out.update(answers(s))
    if key is not None and fingerprint(home, game, me.role) == before:
        try:
            write(home, game, me.role, key, before, out)
        except OSError:
            pass  # a folder that cannot take it: status stays right, only slower
    return out


def refresh(home: Path, game: str, me: Any, key: RecordKey,
            answers: Callable[[Any], dict[str, Any]] | None = None) -> None:
    """Bring the role's record up to date after a command (nothing to do when it is current)."""
    if current(home, game, me.role) is None:
        make(home, game, me, key, answers)
