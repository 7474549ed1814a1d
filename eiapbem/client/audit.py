"""``eiapbem audit``: re-verify a whole game from the files a folder holds (issue 20 item 2).

An audit starts from the gamestart file, as a new player joining would
(4.2.2), and loads every turn and admin file the folder holds, in chain order,
through the same code a player's ``load`` uses (``Turns.load_bytes``): each
file's signature against the roster, its place in the hash chain, its dice
reveal against the author's committed chain, every recorded roll re-derived
from the file's seed, the battle files it carries with their commit-reveal
nonces, its actions replayed and the state hashes compared.  The computer's
slots are played again as every client plays them.  A host backup the folder
holds starts its new epoch (4.2.8, 000:226) once the replay has passed through
the state it restores.

Nothing is written: the replay keeps its save in memory.  At the end the replay
is compared with the folder's own save (chain head, every slot's file, the
state), and the verdict names the first point where anything disagrees: the
file, its slot and author, and the first differing part of the state (which
names the power, area or unit).

Files are looked for where a folder keeps them: ``commin/`` and its
``done/`` and ``refused/`` parts, ``commout/`` and ``commout/sent/``
(``client/inbox.py`` keeps a copy of every file loaded or sent there), and the
backups in ``save/``.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from eiapbem.client import inbox, pace
from eiapbem.client.session import GameData, NoGame, Session, find_game, local_roles
from eiapbem.client.store import Store
from eiapbem.core.errors import BadEncoding, EiaError
from eiapbem.pbem import atomic, bodies, envelope, files, folders, headers, keys, savegame
from eiapbem.pbem.chain import Chain
from eiapbem.pbem.errors import AlreadyLoaded
from eiapbem.pbem.files import SaveContents
from eiapbem.pbem.folders import GameFolders
from eiapbem.rules.model import GameState, first_difference
from eiapbem.rules.sequence import PASSED


class MemoryStore(Store):
    """A save that is never written: ``contents`` and ``data`` in memory only."""

    def save(self) -> None:
        """Nothing to write, nothing to encode."""
        self.data = self.data.absorbed()  # as a save does: the log lines leave the state for the journal


class Replay(Session):
    """A session that never writes (its save is a ``MemoryStore``) and loads its own files too."""

    def __init__(self, home: Path, game: str, me: keys.Identity, contents: SaveContents, data: GameData,
                 local: dict) -> None:
        super().__init__(MemoryStore(home, game, me, contents, data, local), replays_own=True)


@dataclass
class Point:
    """The first point where the files and the save disagree."""

    file: str
    slot: str
    author: str
    reason: str
    hash: str = ""

    def to_obj(self) -> dict:
        return {"file": self.file, "slot": self.slot, "author": self.author, "hash": self.hash, "reason": self.reason}


@dataclass
class Result:
    game: str
    role: str
    verified: bool = False
    files: int = 0
    slots: int = 0
    epochs: int = 0
    first: Point | None = None
    notes: list = field(default_factory=list)
    seconds: float = 0.0
    state_hash: str = ""
    #: Slots every client ended by itself, the rules leaving nothing to decide, played again by the replay.
    passed: int = 0
    #: Slots left out by their power's own skip setting (13.9).
    skipped: int = 0
    #: Rounds of mail per month of the files replayed (``client/pace.py``).
    pace: pace.Pace = field(default_factory=pace.Pace)

    def to_obj(self) -> dict:
        return {"game": self.game, "role": self.role, "verdict": "verified" if self.verified else "disagrees",
                "files": self.files, "epochs": self.epochs, "state": self.state_hash,
                "first": None if self.first is None else self.first.to_obj(), "notes": list(self.notes),
                "seconds": round(self.seconds, 2), "passed": self.passed, "skipped": self.skipped,
                "pace": self.pace.to_obj()}

    def lines(self) -> list[str]:
        out = []
        if self.verified:
            out.append(f"Game {self.game}: verified. {self.files} files re-verified and replayed from the gamestart "
                       f"(epochs: {self.epochs + 1}); the replay ends in the state of this folder's save "
                       f"({self.state_hash[:16]}).")
        else:
            p = self.first
            assert p is not None
            out.append(f"Game {self.game}: NOT verified. {self.files} files replayed before the first disagreement:")
            out.append(f"  at {p.slot} ({p.author}), file {p.file}{' ' + p.hash[:16] if p.hash else ''}: {p.reason}")
        if self.passed or self.skipped:
            out.append(f"  {self.passed} slot(s) with nothing to decide ended by themselves and {self.skipped} skipped by "
                       "their power's own setting (13.9), played again by the replay; each file after them starts from "
                       "the state they give")
        if self.pace.months or self.pace.setup:
            out.append("  Rounds of mail (a round: a point where a file must travel before anyone can go on):")
            out.extend(f"  {line}" for line in self.pace.lines())
        out.extend(f"  note: {n}" for n in self.notes)
        out.append(f"  ({self.seconds:.1f} s, opened as {self.role})")
        return out


@dataclass
class _File:
    path: Path
    rec: files.Received

    @property
    def data(self) -> bytes:
        return self.rec.data

    @property
    def hash(self) -> bytes:
        return self.rec.hash

    @property
    def h(self) -> envelope.Header:
        return self.rec.header


def _gather(home: Path, game: str, gid: bytes | None) -> tuple[list[_File], list[str]]:
    """Every file of the game under the folder's places, once each (by file hash)."""
    f = GameFolders(home)
    seen: dict[bytes, _File] = {}
    notes = []
    for place in inbox.places(f):
        if not place.is_dir():
            continue
        for p in sorted(place.iterdir()):
            if not p.is_file() or not p.name.endswith(".pbm"):
                continue
            try:
                rec = files.read_file(p)
            except EiaError:
                if p.name.startswith(game + "_"):
                    notes.append(f"{p.relative_to(home)} is not a readable eiapbem file; left out")
                continue
            if rec.header.game != game or (gid is not None and rec.header.gid != gid):
                continue
            seen.setdefault(rec.hash, _File(p, rec))
    return list(seen.values()), notes


def _gamestart(found: list[_File], home: Path, game: str) -> _File:
    starts = [x for x in found if x.h.kind == "gamestart"]
    if not starts:
        raise NoGame(f"{home} holds no gamestart file of {game} ({folders.gamestart_name(game)}); an audit starts from it",
                     hint="put the gamestart file the host sent in commin/done/")
    return starts[0]


def _first_state(body: Any, chain, name: str) -> GameData:
    from eiapbem.client.newgame import start_data

    return start_data(body, chain, name)


def start(found: list[_File], home: Path, game: str, me: keys.Identity, local: dict) -> tuple[Replay, str | None]:
    """Where a replay of the folder's files starts (the audit, ``eiapbem rebuild``), and a note when not at the start.

    At the gamestart, when this eiapbem plays the versions it records.  A game that moved to this eiapbem
    later (issue 29) was played before under other versions, which this release does not replay: the
    replay starts at the newest upgrade file the folder holds that moved the game to this release's
    versions, from the game it carries, once its signature and its link to the file before it are checked."""
    from eiapbem.client import upgrade

    gs = _gamestart(found, home, game)
    chain, body = files.open_gamestart(gs.data, [me], gs.path.name)
    meta = body.get("meta") if isinstance(body, dict) else None
    versions = meta.get("versions") if isinstance(meta, dict) else None
    if upgrade.standing({"versions": versions}).kind == "same":
        rp = Replay(home, game, me, SaveContents(chain, None, {}), _first_state(body, chain, gs.path.name), local)
        rp.auto.settle()
        rp.save()
        return rp, None
    now = upgrade.mine()
    ups = sorted((x for x in found if x.h.kind == "upgrade" and x.h.gid == chain.gid
                  and dict(getattr(x.h, "versions", {})) == now), key=lambda x: -x.h.epoch)
    if not ups:
        _first_state(body, chain, gs.path.name)  # refused as the gamestart's versions are: one sentence
    up = ups[0]
    h = up.h
    assert isinstance(h, headers.UpgradeHeader)
    at = Chain.from_upgrade(h, up.hash)
    ub = bodies.decode(bodies.UpgradeBody, files.open_file(up.rec, at, [me]), up.path.name, "an upgrade")
    data = GameData.from_obj(ub.game.to_obj(), up.path.name)
    if data.state.state_hash() != h.state or ub.after != h.state:
        raise BadEncoding(f"{up.path.name} holds another state than its header names")
    before = [x for x in found if x.hash == h.prev and x.h.kind in ("turn", "admin")]
    link = "the file before it is not in the folder"
    if before:
        x = before[0]
        try:
            raw = files.open_file(x.rec, at, [me], any_epoch=True)  # signed by a key of the roster the upgrade names
            ends = raw.get("after") if isinstance(raw, dict) else None
            link = f"it follows {x.path.name}, " + ("from the state that file ends in" if ends == ub.before
                                                     else "but NOT from the state that file ends in")
        except EiaError as err:
            link = f"the file before it, {x.path.name}, does not open: {err}"
    rp = Replay(home, game, me, SaveContents(at, None, {}), data, local)
    rp.auto.settle()
    rp.save()
    skipped = sum(1 for x in found if x.h.epoch < h.epoch and x.h.kind in ("turn", "admin", "upgrade"))
    return rp, (f"the game moved to this eiapbem's versions at {up.path.name} (epoch {h.epoch}; {link}); the "
                f"{skipped} file(s) before it were played under {upgrade.describe(versions if isinstance(versions, dict) else {})} and "
                "are not replayed here (the eiapbem release of those versions replays them)")


def _backups(home: Path, game: str, role: str) -> list[tuple[int, Path]]:
    out = []
    f = GameFolders(home)
    for place in (f.save, f.commin, f.commin / "done"):
        p = place / folders.backup_name(game, role) if role in folders.POWER_NAMES else None
        if p is None or not p.is_file():
            continue
        try:
            sav, _ = atomic.read_save_pair(p)
            out.append((envelope.parse(sav, p.name, max_size=envelope.MAX_SAV).header.epoch, p))
        except EiaError:
            continue
    return sorted(set(out))


def run(home: Path, game: str | None, me: keys.Identity, *, clock=time.monotonic) -> Result:
    """Audit the game ``game`` of the folder ``home`` as ``me`` (any role of the game whose key is here)."""
    t0 = clock()
    home = Path(home)
    game = find_game(home, game)
    local = local_roles(home, game)
    saved = savegame.load(GameFolders(home), game, me, local)
    saved_data = GameData.from_obj(saved.game, folders.save_name(game))
    from eiapbem.client import upgrade

    upgrade.check_open(saved_data.meta, game)  # a game of a newer release: install it first (issue 29)
    res = Result(game, me.role)
    found, res.notes = _gather(home, game, saved.chain.gid)
    rp, start_note = start(found, home, game, me, {})
    if start_note:
        res.notes.append(start_note)
    passed = {rp.state.state_hash()}
    pending = sorted((x for x in found if x.h.kind in ("turn", "admin", "upgrade")),
                     key=lambda x: (x.h.epoch, x.h.seq, x.path.name))
    backups = _backups(home, game, me.role)
    errors: dict[bytes, str] = {}
    points: list[GameState] = [rp.state]  # states a backup may restore: monthly points, the state at a backup
    steps: list[tuple[tuple[int, int], pace.Step]] = []

    def known_to_save(x: _File) -> bool:
        return x.hash in saved.chain.known

    while True:
        progress = False
        for x in list(pending):
            if x.h.epoch != rp.contents.chain.epoch and not (x.h.kind == "upgrade"
                                                             and x.h.epoch == rp.contents.chain.epoch + 1):
                continue
            # Only the files the save accepted make its history: a swapped file, the losing side of a fork
            # or a file still waiting to be loaded is not one of them (named below).
            if x.hash not in saved.chain.known:
                continue
            try:
                if try_load(rp, x, errors) is None:
                    continue
            except AlreadyLoaded:
                pending.remove(x)
                continue
            pending.remove(x)
            errors.pop(x.hash, None)
            res.files += 1
            steps.append(pace.step_of(x.rec.env, me, x.path.name))
            if _monthly_point(rp):  # a state a monthly save or a backup may hold (a hash costs; not after every file)
                passed.add(rp.state.state_hash())
                points.append(rp.state)
            progress = True
        if progress:
            continue
        nxt = [(e, p) for e, p in backups if e == rp.contents.chain.epoch + 1]
        if not nxt:
            break
        passed.add(rp.state.state_hash())  # a backup "from the current state" holds this one
        points.append(rp.state)
        point = _new_epoch(rp, nxt[0][1], me, points)
        if point is not None:
            res.first = point
            break
        res.epochs += 1
        passed.add(rp.state.state_hash())
    if res.first is None:
        res.first = _first_bad(rp, saved, saved_data, pending, errors)
    if res.first is None:
        res.first = _monthly(home, game, me, local, passed)
    if res.first is None:
        res.first = _older_save(home, game, saved, local)
    for x in pending:
        if x.h.epoch < rp.contents.chain.epoch and start_note:
            continue  # before the upgrade the replay started at: said once, above
        if x.h.epoch < rp.contents.chain.epoch:
            res.notes.append(f"{x.path.name} was made before the backup of epoch {rp.contents.chain.epoch} (obsolete)")
        elif not known_to_save(x) and res.first is None:
            old = saved.chain.slots.get(x.h.slot)
            if old is not None and old != x.hash:
                res.notes.append(f"{x.path.name} is a second file for {x.h.slot} ({x.hash.hex()[:16]}; the one "
                                 f"accepted is {old.hex()[:16]}): a fork, left out")
            elif x.h.prev in saved.chain.known and x.h.prev != saved.chain.head and saved.chain.step is None:
                res.notes.append(f"{x.path.name} ({x.h.slot}, {x.hash.hex()[:16]}) follows a point this folder passed "
                                 "with another file: the losing side of a fork, left out")
            else:
                res.notes.append(f"{x.path.name} ({x.h.slot}) is not loaded in this folder yet; left out")
    res.verified = res.first is None
    res.slots = len(rp.contents.chain.slots)
    res.pace = pace.count(pace.join(steps))
    for e in rp.journal():
        if e.kind == PASSED:
            if e.params.get("reason") == "no-choice":
                res.passed += 1
            else:
                res.skipped += 1
    res.state_hash = rp.state.state_hash().hex()
    res.seconds = clock() - t0
    return res


def _older_save(home: Path, game: str, saved: SaveContents, local: dict) -> Point | None:
    """A save older than a file the folder sent or loaded (issue 29): the save was replaced or rolled back."""
    later = inbox.ahead_of(GameFolders(home), game, saved.chain)
    if not later:
        return None
    own = [(p, r) for p, r in later if r.header.author in local]
    p, rec = (own or later)[0]
    what = "sent" if own else "loaded"
    return Point(str(p.relative_to(home)), rec.header.slot, rec.header.author,
                 f"this folder {what} this file but its save stands before it: the save is older than the folder "
                 "(replaced by an earlier copy, or rolled back); 'eiapbem rebuild' brings it up to date",
                 rec.hash.hex())


def _monthly(home: Path, game: str, me: keys.Identity, local: dict, passed: set) -> Point | None:
    """The host's monthly saves (000:216) must hold states the replay passed through."""
    from eiapbem.client import upgrade
    f = GameFolders(home)
    prefix = f"{game}_monthly_"
    for p in sorted(f.save.glob(prefix + "*.sav")) if f.save.is_dir() else []:
        try:
            sav, dat = atomic.read_save_pair(p)
            c = files.open_save(sav, dat, me, p.name, local, savegame.parts(f, game))
            data = GameData.from_obj(c.game, p.name)
            st = data.state
        except EiaError as err:
            return Point(p.name, p.name[len(prefix):-len(".sav")], "host", f"the monthly save does not open: {err}")
        if dict(data.meta.versions) != upgrade.mine():
            continue  # kept before the game moved to this release: its files are not replayed here either
        if st.state_hash() not in passed:
            return Point(p.name, _slot_of(st), "host", "the monthly save holds a state the game's files never reach")
    return None


def _restores(backup: GameState, points: list[GameState]) -> bool:
    """Is ``backup`` one of ``points`` with only the host's "backups made" log line(s) added (000:214-220)?"""
    for st in reversed(points):
        n = len(st.log)
        extra = backup.log[n:]
        if all(getattr(e, "kind", "") == "admin.backups" for e in extra) \
                and backup.replace(log=backup.log[:n]).state_hash() == st.state_hash():
            return True
    return False


def _new_epoch(rp: Replay, path: Path, me: keys.Identity, points: list) -> Point | None:
    sav, dat = atomic.read_save_pair(path)
    h = envelope.parse(sav, path.name, max_size=envelope.MAX_SAV).header
    if not isinstance(h, headers.BackupHeader):
        return Point(path.name, h.slot, h.author, f"{path.name} is a {h.kind} file, not a backup")
    try:
        chain, body = files.open_backup(sav, dat, me, rp.contents.chain, path.name)
        if not isinstance(body, dict) or set(body) != {"game"}:
            raise BadEncoding(f"{path.name} does not hold a backup in the expected form")
        data = GameData.from_obj(body["game"], path.name)
        if data.state.state_hash() != h.state:
            raise BadEncoding(f"{path.name} holds another state than its header names")
    except EiaError as err:
        return Point(path.name, h.slot, h.author, str(err))
    if not _restores(data.state, points):
        return Point(path.name, h.slot, h.author,
                     "the backup restores a state the game's files never passed through (4.2.8: a backup returns to "
                     "an earlier point of the same game)")
    rp.contents = SaveContents(chain, data.to_obj(), rp.contents.starts)
    rp.data = data
    rp.auto.settle()
    rp.save()
    return None


def _first_bad(rp: Replay, saved: SaveContents, saved_data: GameData, pending: list[_File],
               errors: dict[bytes, str]) -> Point | None:
    ch = rp.contents.chain
    sc = saved.chain
    if (ch.epoch, ch.seq, ch.head) == (sc.epoch, sc.seq, sc.head) and dict(ch.collected) == dict(sc.collected):
        a, b = rp.state, saved_data.state
        if a.state_hash() != b.state_hash():
            return Point("(the save)", _slot_of(b), "", "the files replay to another state than the save holds; "
                         f"the first difference is at {first_difference(a.to_obj(), b.to_obj())}")
        if dict(rp.data.orders) != dict(saved_data.orders):
            return Point("(the save)", _slot_of(b), "", "the save holds other orders for the slot in play than its files")
        return None
    # The replay stopped before the save's point: name the file that should come next.
    here = [x for x in pending if x.h.epoch == ch.epoch and x.h.prev == ch.head]
    real = [x for x in here if x.hash in errors and not _missing_before(errors[x.hash])]
    for x in real:
        if x.hash in sc.known or x.h.slot not in sc.slots:
            return Point(x.path.name, x.h.slot, x.h.author, errors[x.hash], x.hash.hex())
    nxt = {s: fh for s, fh in sc.slots.items() if fh not in ch.known}
    later = sorted((x for x in pending if x.h.epoch == ch.epoch), key=lambda x: x.h.seq)
    for s, fh in sorted(nxt.items(), key=lambda kv: _seq_hint(kv[1], pending)):
        others = [x for x in pending if x.h.slot == s and x.hash != fh]
        if others:
            x = others[0]
            snap = rp.save_snapshot()
            try:
                rp.turns.load_bytes(x.rec, x.path.name)
            except EiaError as err:  # why it does not fit says more than "another file"
                return Point(x.path.name, s, x.h.author, str(err), x.hash.hex())
            finally:
                rp.restore_snapshot(snap)
            return Point(x.path.name, s, x.h.author,
                         f"this is not the file this folder's save accepted for {s} ({fh.hex()[:16]}): the file was "
                         "swapped or forked, and the save's own file is missing", x.hash.hex())
        if any(x.hash == fh for x in pending):
            x = next(x for x in pending if x.hash == fh)
            return Point(x.path.name, s, x.h.author, errors.get(fh, "it does not load here"), fh.hex())
        follower = next((x for x in later if x.h.prev == fh), None)
        return Point("(missing)", s, "", f"the file this save accepted for {s} ({fh.hex()[:16]}) is not in the folder"
                     + (f"; {follower.path.name} follows it" if follower else ""), fh.hex())
    if later:
        x = later[0]
        return Point(x.path.name, x.h.slot, x.h.author, errors.get(x.hash, "it does not follow the files before it"),
                     x.hash.hex())
    return Point("(the save)", _slot_of(saved_data.state), "",
                 f"the save has passed {sc.seq - ch.seq} more file(s) than the folder holds (chain head "
                 f"{sc.head.hex()[:16]}, replay stops at {ch.head.hex()[:16]})")


def _missing_before(msg: str) -> bool:
    return "files before it are missing" in msg


def _seq_hint(fh: bytes, pending: list[_File]) -> int:
    for x in pending:
        if x.h.prev == fh:
            return x.h.seq - 1
    for x in pending:
        if x.hash == fh:
            return x.h.seq
    return 1 << 30


def _monthly_point(rp: Replay) -> bool:
    """The start of a month's diplomacy phase, where the host keeps its monthly save (000:216)."""
    st = rp.state
    return (st.slot is not None and st.slot.phase.value == "diplomacy" and not rp.data.orders
            and rp.contents.chain.step is None)


def _slot_of(st: GameState) -> str:
    return st.slot.key(st.date) if st.slot is not None else "game over"


def try_load(rp: Replay, x: _File, errors: dict[bytes, str]) -> str | None:
    """Load ``x`` into the replay: its slot, or None when refused (the replay as it was, the reason in ``errors``).

    ``AlreadyLoaded`` is raised: the caller drops the file."""
    snap = rp.save_snapshot()
    try:
        return rp.turns.load_bytes(x.rec, x.path.name)
    except AlreadyLoaded:
        raise
    except EiaError as err:
        rp.restore_snapshot(snap)
        errors[x.hash] = str(err)
        return None


def role_for(home: Path, game: str, role: str | None, what: str) -> str:
    """Whose key opens ``what`` (the audit, the rebuild): the role given, the one power played here, or the host."""
    if role is not None:
        return role
    local = local_roles(home, game)
    powers = [r for r in local if r != "host"]
    chosen = powers[0] if len(powers) == 1 else ("host" if "host" in local else None)
    if chosen is None:
        raise NoGame(f"this folder plays {', '.join(local)}; say which key opens {what} with --power")
    return chosen


def open_and_run(home: Path, game: str | None, role: str | None, password: str) -> Result:
    from eiapbem.client.session import open_identity

    home = Path(home)
    name = find_game(home, game)
    return run(home, name, open_identity(home, name, role_for(home, name, role, "the audit"), password))
