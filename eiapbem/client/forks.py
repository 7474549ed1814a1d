"""Forks of the chain: two files following the same point (issue 20 item 4; 4.2.8).

A fork is a file that follows a point of the chain this folder has already
passed with another file: typically the host's admin act (a skip, an AI play)
made while the skipped player's turn file was on its way.  It is named as such
(both files, both hashes, the point), never as an "old or replayed" file.

One fixed rule decides every fork the same way on every computer: **the host's
act wins** (4.2.8 makes the host the authority).  A folder that took the
other side (it loaded the player's turn file first, or it is that player's own
folder) rewinds by itself to the fork point and loads the host's file; the
turn file is then set aside.  For that, a folder keeps a copy of its save as
it was at each of the last ``KEEP`` points of the chain (``rewind/`` beside
``save/``), taken when it loads or writes the file that follows the point, and
no more than ``MAX_BYTES`` of them in all, though always the newest ``MIN_KEEP``
(issue 20: without the byte bound ``rewind/`` grew with the save, ~2.5 MiB a
month; a fork point is a few slots back, the host's act against a file made
while it was on its way).  A point is the save's own two files, hard-linked
into ``rewind/`` before the new save is renamed over them (issue 18: no byte
written, no fsync; where links fail, a copy written without fsync).  It is a
convenience: every reader checks it (the ``.dat`` against the hash the ``.sav``
names, the signature); a linked point cannot be cut short by a crash (its
bytes were fsynced as the save), a point a crash left missing is kept the next
time the folder stands at it.  A fork
between two turn files or two admin files is not decided here: it is named and
the host repairs it with backups.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

from eiapbem.client import inbox
from eiapbem.core.errors import EiaError
from eiapbem.pbem import atomic, envelope, files, folders, savegame
from eiapbem.pbem.chain import Chain
from eiapbem.pbem.errors import Fork
from eiapbem.pbem.folders import GameFolders

if TYPE_CHECKING:
    from eiapbem.client.store import Store

#: How many points of the chain a folder can rewind to, at most.
KEEP = 40
#: ``rewind/`` holds at most this many bytes, oldest points dropped first ...
MAX_BYTES = 3 * 1024 * 1024
#: ... but never fewer than the newest MIN_KEEP points (a fork is a few slots back at most).
MIN_KEEP = 6
REWIND = inbox.REWIND


class Folder(Protocol):
    """What the forks need of a game folder: its save (``Store``) or an open session."""

    @property
    def home(self) -> Path: ...

    @property
    def folders(self) -> GameFolders: ...

    @property
    def game(self) -> str: ...

    @property
    def chain(self) -> Chain: ...


@dataclass(frozen=True)
class Kept:
    path: Path
    header: envelope.Header
    hash: bytes


def _rewind_dir(s: Folder) -> Path:
    return s.home / REWIND


def _point_name(game: str, head: bytes) -> str:
    return f"{folders.check_game_name(game)}_at_{head.hex()[:24]}.sav"


class Point(tuple):
    """``(head, sav, dat)``: a save as ``point_before`` read it, and (``files``) the files it read them from."""

    files: atomic.SaveFiles | None = None


def point_before(s: Folder) -> tuple[bytes, bytes, bytes] | None:
    """The save as it is on disk now and the chain head it stands at (kept by ``keep`` once the load succeeded)."""
    src = s.folders.save / folders.save_name(s.game)
    try:
        pair = atomic.read_save_files(src)
        head = envelope.parse(pair.sav, src.name, max_size=envelope.MAX_SAV).header.prev
    except (OSError, EiaError):
        return None
    if (_rewind_dir(s) / _point_name(s.game, head)).is_file():
        return None  # the first save at a point is the one to come back to (a simultaneous step's files share it)
    point = Point((head, pair.sav, pair.dat))
    point.files = pair
    return point


def keep(s: Folder, point: tuple[bytes, bytes, bytes] | None) -> Path | None:
    """Keep the save taken by ``point_before`` under its chain head (``rewind/``), the newest ``KEEP`` only."""
    if point is None:
        return None
    head, sav, dat = point
    d = _rewind_dir(s)
    target = d / _point_name(s.game, head)
    try:
        d.mkdir(parents=True, exist_ok=True)
        files = getattr(point, "files", None)
        if files is not None:
            atomic.keep_save_pair(target, files)  # hard links to the save's files as read: no byte written
        else:
            atomic.write_save_pair(target, sav, dat, durable=False)  # a convenience: no fsync (issue 18)
        prune(d, s.game)
    except (OSError, EiaError):
        return None  # a rewind copy is a convenience; never let it stop the game
    return target


def _pair(p: Path) -> tuple[Path, ...]:
    return (p, p.with_name(p.name + ".dat"), p.with_name(p.name + ".dat.old"))


def prune(d: Path, game: str) -> None:
    """Drop the oldest rewind points beyond ``KEEP`` or beyond ``MAX_BYTES`` (never the newest ``MIN_KEEP``)."""
    points = sorted(d.glob(f"{game}_at_*.sav"), key=lambda p: (p.stat().st_mtime_ns, p.name), reverse=True)
    total = 0
    for i, p in enumerate(points):
        size = sum(q.stat().st_size for q in _pair(p) if q.is_file())
        total += size
        if i >= KEEP or (i >= MIN_KEEP and total > MAX_BYTES):
            for q in _pair(p):
                q.unlink(missing_ok=True)


def kept_files(s: Folder) -> list[Kept]:
    out = []
    for place in inbox.places(s.folders):
        if not place.is_dir():
            continue
        for p in sorted(place.iterdir()):
            if not (p.is_file() and p.name.startswith(s.game + "_") and p.name.endswith(".pbm")):
                continue
            try:
                rec = files.read_file(p)
            except EiaError:
                continue
            if rec.header.gid == s.chain.gid:
                out.append(Kept(p, rec.header, rec.hash))
    return out


def accepted_after(s: Folder, point: bytes, epoch: int) -> Kept | None:
    """The file this folder accepted (loaded or wrote) right after ``point``."""
    known = s.chain.known
    for k in kept_files(s):
        if k.header.prev == point and k.header.epoch == epoch and k.hash in known and k.header.kind in ("turn", "admin"):
            return k
    return None


def _describe(name: str, h: envelope.Header, fh: bytes) -> str:
    who = "the host's admin file" if h.kind == "admin" else f"{h.author}'s turn file"
    return f"{who} {name} ({h.slot}, {fh.hex()[:16]})"


def check(s: Store, rec: files.Received) -> None:
    """Before a file is loaded: if it forks the chain, name the fork and apply the rule (the host's act wins).

    Raises ``Fork`` when the file loses; rewinds the session (in memory) to the
    fork point when the file is the host's act and this folder took the other side.
    """
    env, name = rec.env, rec.name
    h = env.header
    ch = s.chain
    fh = rec.hash
    if (h.kind not in ("turn", "admin") or h.gid != ch.gid or h.epoch != ch.epoch or fh in ch.known
            or h.prev == ch.head or h.prev not in ch.known or ch.step is not None):
        return
    other = accepted_after(s, h.prev, h.epoch)
    if other is None:
        return  # nothing of ours follows that point: an old or replayed file, refused by the chain as such
    if other.header.kind == h.kind == "turn" and other.header.slot == h.slot:
        return  # a second file for a slot: the chain names that fork itself
    try:
        ch.verify(env, name)  # a fork is named only between files their authors really signed
    except EiaError:
        return
    both = (f"{_describe(name, h, fh)} and {_describe(other.path.name, other.header, other.hash)} both follow the same "
            f"point of the chain ({h.prev.hex()[:16]}, file {h.seq} of epoch {h.epoch})")
    if h.kind == "admin" and other.header.kind == "turn":
        if not rewind(s, h.prev):
            raise Fork(f"fork: {both}; the host's act wins (4.2.8), but this folder keeps no copy of its save at that point",
                       first=other.hash, second=fh, hint="ask the host for a backup (eiapbem admin backup)")
        return  # rewound: the host's file now follows the head and loads as usual
    if h.kind == "turn" and other.header.kind == "admin":
        raise Fork(f"fork: {both}; the host's act wins (4.2.8), so {name} is set aside",
                   first=other.hash, second=fh, hint=f"{h.author} plays again from the host's act, if its slot is still due")
    raise Fork(f"fork: {both}; the host must decide which counts and send backups (4.2.8)", first=other.hash, second=fh,
               hint="the host runs 'eiapbem admin sync-check' with both files, then 'eiapbem admin backup'")


def rewind(s: Store, point: bytes) -> bool:
    """Put the session (in memory) back to its save at ``point``; the caller's next save makes it last."""
    from eiapbem.client.store import GameData

    p = _rewind_dir(s) / _point_name(s.game, point)
    if not p.is_file():
        return False
    try:
        sav, dat = atomic.read_save_pair(p)
        contents = files.open_save(sav, dat, s.me, p.name, s.local, savegame.parts(s.folders, s.game))
        data = GameData.from_obj(contents.game, p.name)
    except EiaError:
        return False
    if contents.chain.head != point:
        return False
    # Slot start counts only grow (4.2.7): a rewind must not hide a reload.
    starts = dict(contents.starts)
    for k, v in s.contents.starts.items():
        starts[k] = max(v, starts.get(k, 0))
    s.contents = replace(contents, starts=starts)
    s.data = replace(data, outbox=None)
    return True


def status_lines(s: Folder) -> list[str]:
    """Forks this folder set aside (for ``eiapbem status``)."""
    out: list[str] = []
    d = s.folders.commin / inbox.REFUSED
    if not d.is_dir():
        return out
    for r in sorted(d.glob(f"{s.game}_*.reason.txt")):
        try:
            text = r.read_text("utf-8").strip()
        except OSError:
            continue
        if text.startswith("fork:"):
            out.append(f"Fork: commin/refused/{r.name[:-len('.reason.txt')]}: {text[len('fork: '):]}")
    return out


def one_step(slots: list[str]) -> bool:
    """Are these the slots of the powers' files of one simultaneous step (``1805-03/diplomacy/commit/FR``, ...)?

    A simultaneous step's file slot is the step's key and the power (``client.turns.file_slot``); a sequential
    slot's step is ``turn``, and two files of one point there are a fork."""
    steps = {x.rsplit("/", 1)[0] for x in slots}
    if len(steps) != 1:
        return False
    step = steps.pop()
    return step.count("/") == 2 and step.rsplit("/", 1)[1] != "turn"


def forks_among(headers: list[tuple[str, envelope.Header, bytes]]) -> list[str]:
    """Pairs of turn or admin files that follow the same point but are not one simultaneous step."""
    by_point: dict[tuple[int, bytes], list[tuple[str, envelope.Header, bytes]]] = {}
    for item in headers:
        name, h, fh = item
        if h.kind in ("turn", "admin"):
            by_point.setdefault((h.epoch, h.prev), []).append(item)
    out = []
    for (_, prev), items in sorted(by_point.items(), key=lambda kv: (kv[0][0], kv[1][0][1].seq)):
        uniq = {fh: (n, h) for n, h, fh in items}
        if len(uniq) < 2:
            continue
        kinds = {h.kind for _, h in uniq.values()}
        slots = [h.slot for _, h in uniq.values()]
        if kinds == {"turn"} and len(set(slots)) == len(slots) and one_step(slots):
            continue  # the files of one simultaneous step all follow the same point
        desc = "; ".join(_describe(n, h, fh) for fh, (n, h) in sorted(uniq.items(), key=lambda kv: kv[1][0]))
        out.append(f"Fork at {prev.hex()[:16]}: {desc} follow the same point of the chain"
                   + ("; the host's act wins (4.2.8)" if "admin" in kinds and "turn" in kinds else ""))
    return out


__all__ = ["KEEP", "MAX_BYTES", "MIN_KEEP", "Point", "prune", "accepted_after", "check", "damaged_save", "forks_among", "keep", "point_before", "rewind", "status_lines"]


def damaged_save(home: Path, game: str, me, local, err: EiaError) -> EiaError:
    """The sentence for a save that does not open: what is wrong, and the one command that makes it again.

    Never a rewind copy to put back by hand: the newest one is the save from before the folder's own last
    file, and playing on from it would send a second file for that slot (issue 29).  ``eiapbem rebuild``
    replays the files the folder holds, its own included (``client/rebuild.py``)."""
    from eiapbem.client.store import NoGame

    save = f"save/{folders.save_name(game)}"
    wrong = str(err).split(";")[0]  # what is wrong, without a file-from-outside's "ask its sender" advice
    return NoGame(f"your save {save} does not open ({wrong})",
                  hint="run 'eiapbem rebuild': it makes the save again from the files this folder holds "
                       "(commin/done/, commout/sent/), your own files included; if the folder holds too few, "
                       "ask the host for a backup ('eiapbem load-backup')")
