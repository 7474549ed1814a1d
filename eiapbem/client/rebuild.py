"""``eiapbem rebuild``: a folder's save made again from the files the folder holds (issue 29 item 2; 4.2.8).

A save can be lost (deleted, a disk gone), damaged (it does not open), or older
than the folder (replaced by a rewind copy or a copy from last week).  Playing
on from an older save is the worst of the three: the folder would play again a
slot whose file it has already sent, and the second, different file is a fork
every other folder refuses.  The folder still holds every file it loaded
(``commin/done/``) and every file it wrote (``commout/sent/``, ``client/inbox.py``),
so the save can be made again from them:

- the replay starts from the gamestart file, as a joining player does, and
  loads the files in chain order through the same code ``eiapbem load`` uses
  (``audit.Replay``: the checks, the replay, the hashes), the folder's **own
  files too**, so no slot it played is played a second time;
- where two held files follow one point (a fork), the one another held file
  follows comes first, then the host's act (it wins, 4.2.8);
- the host's backups it holds start their epochs, as in the audit;
- what only the save knew (the slot's actions not yet sent, sealed diplomacy
  orders and their nonce, the kept reactions, a battle in progress, a file not
  yet written to ``commout/``, the slot start counts) is taken from the newest
  copy of the save that still opens (the save itself, else a rewind point),
  when that copy stands where the replay ends; the start counts and the
  reactions from any copy.

Nothing is thrown away: the save replaced is kept as ``save/<Game>.sav.before-rebuild``
(with its ``.dat``).  The new save is written once, at the end (a crash before leaves
the folder as it was; the rebuild can be run again).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from eiapbem.client import audit, inbox
from eiapbem.client.forks import REWIND
from eiapbem.client.session import GameData, NoGame, Session, local_roles, open_identity
from eiapbem.client.store import Store, file_time, game_names
from eiapbem.core.errors import EiaError
from eiapbem.core.frozenmap import FrozenMap
from eiapbem.pbem import atomic, files, folders, keys, savegame
from eiapbem.pbem.bodies import BattleBook
from eiapbem.pbem.errors import AlreadyLoaded
from eiapbem.pbem.files import SaveContents
from eiapbem.pbem.folders import GameFolders

#: Where the replaced save is kept (beside it in save/; not a ``.sav`` name, so no game is found in it).
KEPT = ".before-rebuild"


@dataclass
class Rebuilt:
    """What a rebuild did."""

    game: str
    role: str
    files: int = 0
    own: int = 0
    epochs: int = 0
    slot: str = ""
    state_hash: str = ""
    kept: str | None = None
    carried: list = field(default_factory=list)
    notes: list = field(default_factory=list)
    seconds: float = 0.0

    def lines(self) -> list[str]:
        out = [f"Rebuilt save/{folders.save_name(self.game)} from the files this folder holds: the gamestart and "
               f"{self.files} turn and admin file(s), {self.own} of them this folder's own (replayed, not played "
               f"again){f', {self.epochs} backup(s)' if self.epochs else ''}.",
               f"It stands at {self.slot} (state {self.state_hash[:16]}: compare it with the others' 'eiapbem status').",
               ]
        if self.carried:
            out.append("Taken from the newest copy of the save that opens: " + "; ".join(self.carried) + ".")
        if self.kept:
            out.append(f"The save it replaces is kept as {self.kept} (and its .dat).")
        out.extend(f"  note: {n}" for n in self.notes)
        out.append("Next: 'eiapbem load' loads what waits in commin/; 'eiapbem status' says what is due.")
        return out


def game_of(home: Path, game: str | None) -> str:
    """The game to rebuild: the one named, else the one whose save or key files are in the folder."""
    home = Path(home)
    names = set(game_names(home))
    for p in home.glob("*_*.key"):
        stem = p.name[: -len(".key")]
        g, _, role = stem.rpartition("_")
        if g and role in folders.POWER_NAMES:
            names.add(g)
    if game:
        if game not in names:
            raise NoGame(f"there is no game {game!r} in {home} (no save and no key file of it)")
        return game
    if not names:
        raise NoGame(f"there is no game in {home.resolve()}: no save and no key file",
                     hint="run the command in the game's folder, or use --home")
    if len(names) > 1:
        raise NoGame(f"{home} holds several games ({', '.join(sorted(names))}); say which with --game")
    return names.pop()


def copies(home: Path, game: str, me: keys.Identity, local: dict) -> list[tuple[str, SaveContents, GameData]]:
    """The copies of the folder's save that open, newest first: the save itself, then the rewind points."""
    f = GameFolders(home)
    out = []
    save = f.save / folders.save_name(game)
    kept = [p for p in f.save.glob(folders.save_name(game) + KEPT + "*") if not p.name.endswith((".dat", ".dat.old"))]
    paths = [save] + sorted(kept, key=lambda p: (p.stat().st_mtime_ns, p.name), reverse=True)
    d = Path(home) / REWIND
    if d.is_dir():
        paths += sorted(d.glob(f"{game}_at_*.sav"), key=lambda p: (p.stat().st_mtime_ns, p.name), reverse=True)
    for p in paths:
        try:
            sav, dat = atomic.read_save_pair(p)
            c = files.open_save(sav, dat, me, p.name, local, savegame.parts(f, game))
            out.append((str(p.relative_to(home)), c, GameData.from_obj(c.game, p.name)))
        except (EiaError, OSError):
            continue
    return out


def _order(here: list[audit._File], pool: list[audit._File]) -> list[audit._File]:
    """Files following one point, in the order to try: one another file follows first, then the host's act."""
    follows = {x.h.prev for x in pool}
    return sorted(here, key=lambda x: (x.hash not in follows, x.h.kind != "admin", x.path.name))


def run(home: Path, game: str | None, me: keys.Identity, *, clock: Any = time.monotonic) -> Rebuilt:
    """Rebuild the save of ``game`` in ``home`` as ``me`` (a role played in the folder); write it at the end."""
    t0 = clock()
    home = Path(home)
    game = game_of(home, game)
    f = GameFolders(home)
    local = local_roles(home, game)
    if me.role not in local:
        raise NoGame(f"{me.role} is not played from {home}: there is no key file of it")
    res = Rebuilt(game, me.role)
    saved = copies(home, game, me, local)
    found, res.notes = audit._gather(home, game, None)
    found = [x for x in found if x.path.parent.name != inbox.REFUSED]  # refused files were never accepted
    gs = audit._gamestart(found, home, game)
    gid = gs.h.gid
    found = [x for x in found if x.h.gid == gid]
    held = {x.hash for x in found}
    for name, c, data in saved:  # a file the save was writing when it was last saved (its outbox) is the folder's own
        box = data.outbox
        if box is not None and box.data:
            try:
                rec = files.receive(box.data, box.name)
            except EiaError:
                continue
            if rec.hash not in held and rec.header.gid == gid:
                found.append(audit._File(f.commout / box.name, rec))
                held.add(rec.hash)
    rp, start_note = audit.start(found, home, game, me, {})
    rp.refresh_roles()  # the roles played here that the chain's roster names
    if start_note:
        res.notes.append(start_note)
    pending = [x for x in found if x.h.kind in ("turn", "admin", "upgrade") and x.h.epoch >= rp.contents.chain.epoch]
    backups = audit._backups(home, game, me.role)
    points = [rp.state]
    errors: dict[bytes, str] = {}
    while True:
        ch = rp.contents.chain
        here = [x for x in pending if x.h.prev == ch.head
                and (x.h.epoch == ch.epoch or (x.h.kind == "upgrade" and x.h.epoch == ch.epoch + 1))]
        loaded = None
        for x in _order(here, pending):
            try:
                slot = audit.try_load(rp, x, errors)
            except AlreadyLoaded:
                pending.remove(x)
                continue
            if slot is None:
                continue
            if x.h.kind in ("admin", "upgrade"):
                rp.refresh_roles()  # a replaced player or host: the roles played here follow the roster
            rp.turns._note(x.path.name, slot, x.h.author, file_time(x.path), getattr(x.h, "reloads", 0))
            loaded = x
            break
        if loaded is not None:
            pending.remove(loaded)
            res.files += 1
            res.own += loaded.h.author in rp.local
            if audit._monthly_point(rp):
                points.append(rp.state)
            continue
        nxt = [(e, p) for e, p in backups if e == ch.epoch + 1]
        if not nxt:
            break
        points.append(rp.state)
        bad = audit._new_epoch(rp, nxt[0][1], me, points)
        if bad is not None:
            res.notes.append(f"the backup {bad.file} was not used: {bad.reason}")
            break
        res.epochs += 1
    ch = rp.contents.chain
    for x in sorted(pending, key=lambda x: (x.h.epoch, x.h.seq, x.path.name)):
        if x.h.epoch == ch.epoch and x.h.prev == ch.head and x.hash in errors:
            res.notes.append(f"{x.path.name} ({x.h.slot}) follows the rebuilt save but does not load: {errors[x.hash]}")
    contents, data = _carry(rp, saved, res)
    res.kept = _keep_old(f, game)
    s = Session(Store(home, game, me, contents, data, rp.local))
    s.save()
    s = Session.open_with(home, game, me)  # as the player's next command opens it (and writes a file it still held)
    st = s.state
    res.slot = st.slot.key(st.date) if st.slot else "game over"
    res.state_hash = st.state_hash().hex()
    res.seconds = clock() - t0
    return res


def _carry(rp: audit.Replay, saved: list, res: Rebuilt) -> tuple[SaveContents, GameData]:
    """The rebuilt contents, with what only the save knew taken from the newest copy that opens."""
    ch = rp.contents.chain
    data = rp.data.absorbed()
    starts: dict[str, int] = {}
    for _, c, _ in saved:
        for k, v in c.starts.items():
            starts[k] = max(v, starts.get(k, 0))  # slot start counts only grow (4.2.7)
    meta = data.meta
    if saved:
        newest = saved[0][2].meta
        if newest.reactions:
            meta = meta.replace(reactions=newest.reactions)
            res.carried.append("the kept diplomatic reactions")
        sealed: dict = {}
        for _, _, d in reversed(saved):
            sealed.update(d.meta.sealed.items())
        if sealed:
            meta = meta.replace(sealed=FrozenMap(sorted(sealed.items())))
    same = next(((n, c, d) for n, c, d in saved
                 if (c.chain.epoch, c.chain.head, dict(c.chain.collected)) == (ch.epoch, ch.head, dict(ch.collected))
                 and d.state.state_hash() == data.state.state_hash()), None)
    if same is not None:
        name, c, d = same
        data = replace(data, taken=d.taken, battles=d.battles, outbox=d.outbox)
        meta = meta.replace(sealed=d.meta.sealed, reactions=d.meta.reactions)
        if d.taken:
            res.carried.append(f"the actions of the slot in play ({name})")
        if d.battles != BattleBook():
            res.carried.append(f"the battle in progress ({name})")
        if d.outbox is not None:
            res.carried.append(f"the file not yet written to commout/, {d.outbox.name} ({name})")
    from eiapbem.client import orders as sealed_orders

    meta = sealed_orders.spent(meta, data.state)
    data = replace(data, meta=meta)
    return SaveContents(ch, data.to_obj(), starts), data


def _keep_old(f: GameFolders, game: str) -> str | None:
    """A copy of the save being replaced (if any) beside it, never over an earlier kept one.

    Copied, not moved, each file written atomically: a crash before the new save is written leaves the
    old save in its place (and maybe its copy), so the rebuild can simply be run again."""
    src = f.save / folders.save_name(game)
    if not src.exists():
        return None
    n, target = 0, src.with_name(src.name + KEPT)
    while target.exists():
        n += 1
        target = src.with_name(f"{src.name}{KEPT}.{n}")
    for suffix in (".dat.old", ".dat", ""):  # the .sav last: a copy is whole when its .sav is there
        p = src.with_name(src.name + suffix)
        try:
            data = p.read_bytes()
        except OSError:
            continue
        atomic.write_atomic(target.with_name(target.name + suffix), data)
    return str(target.relative_to(f.home))


def open_and_run(home: Path, game: str | None, role: str | None, password: str) -> Rebuilt:
    home = Path(home)
    name = game_of(home, game)
    return run(home, name, open_identity(home, name, audit.role_for(home, name, role, "the rebuild"), password))


__all__ = ["KEPT", "Rebuilt", "copies", "game_of", "open_and_run", "run"]
