"""Where a folder keeps the files it received, sent and refused (issue 20 items 2 and 5).

- Every file a player loads is kept as ``commin/done/NAME`` and every file it
  writes as ``commout/sent/NAME``, so the player may clear ``commin/`` and
  ``commout/`` freely and ``eiapbem audit`` can still re-verify the whole game.
- These copies are written atomically but without fsync (issue 18: the save,
  which is durable, is what counts): a crash of the machine within seconds of a
  load may leave a copy missing or cut short; the audit leaves an unreadable
  file out and finds the file in ``commin/`` where it still is, unless cleared.
- A file ``load`` refuses for good (not merely early: a file whose
  predecessors have not arrived waits in ``commin/``) is moved to
  ``commin/refused/NAME`` with ``NAME.reason.txt`` beside it, so it does not
  make every later ``load`` fail.  No file can do more than that (issue 29):
  every file is read within the file layer's limits and parsed once
  (``pbem.files.read_file``); a file whose check stops on an error of
  eiapbem's own (a bug, never a player's doing) is set aside the same way,
  saying so, with nothing changed.
"""

from __future__ import annotations

from collections.abc import Container
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from eiapbem.core.errors import EiaError, quoted
from eiapbem.pbem import atomic, crypto, files
from eiapbem.pbem.errors import AlreadyLoaded, BadFile, LaterEpoch, Missing, NeedsRelease
from eiapbem.pbem.folders import GameFolders

DONE = "done"
REFUSED = "refused"
SENT = "sent"
#: The folder's copies of its save at the last points of the chain (``client/forks.py``), beside ``save/``.
REWIND = "rewind"


def places(f: GameFolders) -> list[Path]:
    """Every place of a folder where a game's files may be (the audit reads them all)."""
    return [f.commin, f.commin / DONE, f.commin / REFUSED, f.commout, f.commout / SENT]


def clean(f: GameFolders, game: str) -> list[Path]:
    """Remove the temporary files a writer killed before its rename left in the folder (``atomic.clean_stale``)."""
    from eiapbem.pbem import segments

    out: list[Path] = []
    for d in places(f) + [f.save, f.battles, f.home / REWIND, segments.folder(f.save, game)]:
        out += atomic.clean_stale(d)
    return out


def _keep(folder: Path, name: str, data: bytes) -> Path | None:
    if "/" in name or "\\" in name or name.startswith("."):
        return None
    p = folder / name
    try:
        if p.is_file() and p.read_bytes() == data:
            return p
        folder.mkdir(parents=True, exist_ok=True)
        if p.exists():  # another file of the same name (a second battle step, a fork): keep both
            stem, n = name, 1
            while (folder / f"{stem}.{n}").exists():
                n += 1
            p = folder / f"{stem}.{n}"
        atomic.write_atomic(p, data, durable=False)  # no fsync (issue 18): see the module's docstring
    except OSError:
        return None  # the copy is for later audits; never let it stop the game
    return p


def keep_received(f: GameFolders, name: str, data: bytes) -> Path | None:
    return _keep(f.commin / DONE, name, data)


def keep_sent(f: GameFolders, name: str, data: bytes) -> Path | None:
    return _keep(f.commout / SENT, name, data)


@dataclass
class Report:
    """What a load did: files accepted (name, slot) and files refused (name, sentence)."""

    loaded: list = field(default_factory=list)
    refused: list = field(default_factory=list)
    #: Files made before the host's last backup, left alone (000:226).
    obsolete: list = field(default_factory=list)


class InternalError(BadFile):
    """Checking a file stopped on an error of eiapbem's own, not on anything the file was refused for."""


def internal(name: str, err: BaseException) -> InternalError:
    """The one sentence for a file whose check stopped on an error of eiapbem's own (a bug)."""
    return InternalError(f"eiapbem could not finish checking {name}: an internal error ({type(err).__name__}: "
                         f"{quoted(str(err), 80)}) stopped it, and nothing was changed",
                         hint="the file was set aside in commin/refused/; please report this with the file")


def load_waiting(s: Any, games: list[str], load: Any) -> Report:
    """``eiapbem load``: every waiting file of the session's game in ``commin/``, in chain order.

    Each file is read and parsed once (``files.read_file``) and handed on as it is.  A file that loads
    is kept in ``done/``; one refused for good goes to ``refused/`` with its reason; one only early (its
    predecessors have not come) stays.  Whatever a file holds, this returns a report: it never stops on
    one file, and a refused file changes nothing (the save is put back as it was).  ``s`` is the save
    (``client/store.py``), ``load(rec, made)`` loads one ``Received`` file (``Turns.load_received``)."""
    rep = Report()
    rep.refused.extend(strangers(s.folders, games, s.game))
    pending = [p for p in s.folders.incoming(s.game) if p.suffix == ".pbm" and not p.name.endswith("_gamestart.pbm")]
    chain = s.contents.chain
    waiting: list[tuple[Path, files.Received]] = []
    for p in pending:
        try:
            rec = files.read_file(p)
        except BadFile as err:
            rep.refused.append((p.name, str(err)))
            refuse(s.folders, p, str(err))
            continue
        if rec.hash in chain.known:
            continue  # loaded already, or written here (a copy put back in commin/): nothing to do
        if rec.header.author in s.local:
            why = (f"{p.name} is signed as this folder's own file ({rec.header.author}), but this folder did not "
                   "write it, or set it aside (a client never loads the files it made)")
            rep.refused.append((p.name, why))
            refuse(s.folders, p, why)
            continue
        if rec.header.epoch < chain.epoch:
            rep.obsolete.append(p.name)  # made before the host's backup (000:226): never loaded again
            continue
        waiting.append((p, rec))
    progress = True
    errors: dict[str, EiaError] = {}
    while waiting and progress:
        progress = False
        for item in list(waiting):
            p, rec = item
            before = s.save_snapshot()
            try:
                slot = load(rec, _made(p))
            except AlreadyLoaded:
                waiting.remove(item)
                continue
            except EiaError as err:
                s.restore_snapshot(before)
                errors[p.name] = err
                continue
            except OSError:
                s.restore_snapshot(before)
                raise  # the computer's trouble (a full disk), not the file's: the file stays, to be loaded again
            except Exception as err:  # noqa: BLE001 - a bug of eiapbem's must not block the folder (issue 29)
                s.restore_snapshot(before)
                errors[p.name] = internal(p.name, err)
                continue
            rep.loaded.append((p.name, slot))
            waiting.remove(item)
            errors.pop(p.name, None)
            progress = True
    for p, _ in waiting:
        e = errors.get(p.name)
        rep.refused.append((p.name, str(e) if e else "not loaded"))
        if e is not None and for_good(e):
            refuse(s.folders, p, str(e))  # moved aside, so it does not block every later load
    return rep


def load_one(s: Any, path: Path) -> str:
    """``eiapbem load FILE``: load one file; one refused for good from ``commin/`` is moved aside, as ``load`` does."""
    try:
        return str(s.load_path(path))
    except EiaError as err:
        if path.parent == s.folders.commin and for_good(err):
            refuse(s.folders, path, str(err))
        raise


def _made(p: Path) -> str:
    from eiapbem.client.store import file_time

    return file_time(p)


def for_good(err: Exception) -> bool:
    """Is a refusal final (move the file aside) rather than 'not yet'?

    Not yet: its predecessors are still to come, the backup or upgrade that starts its epoch is still to
    be loaded, or this eiapbem is not the release the game or the file plays (it loads once the host's
    upgrade is in, or the right release is installed)."""
    from eiapbem.client.upgrade import WrongVersion

    return not isinstance(err, (Missing, LaterEpoch, NeedsRelease, WrongVersion))


def ahead(s: Any) -> list[tuple[Path, files.Received]]:
    """``ahead_of`` the session's folder and save."""
    return ahead_of(s.folders, s.game, s.contents.chain)


def ahead_of(f: GameFolders, game: str, ch: Any) -> list[tuple[Path, files.Received]]:
    """Files this folder accepted that its save does not hold: the save is older than the folder (issue 29).

    A file kept in ``commin/done/`` or ``commout/sent/`` (or still in ``commout/``) of the game's epoch
    that the save's chain never accepted, and that follows the save's last point or a point the save has
    not reached.  (A file that lost a fork follows a point the save passed with another file: not one.)
    Such a save was replaced by an older copy or rolled back; playing on from it would make a second
    file for a slot this folder already sent.  ``eiapbem rebuild`` brings it forward.  The newest first."""
    out: dict[bytes, tuple[Path, files.Received]] = {}
    for place in (f.commout / SENT, f.commout, f.commin / DONE):
        if not place.is_dir():
            continue
        for p in place.iterdir():
            if not (p.name.startswith(game + "_") and p.name.endswith(".pbm") and p.is_file()):
                continue
            try:
                h = files.read_header(p)  # the first bytes only: most files stand at or before the save
                upgrade = h.kind == "upgrade" and h.epoch == ch.epoch + 1  # a new release the save has not taken
                if h.kind not in ("turn", "admin", "upgrade") or h.gid != ch.gid \
                        or (h.epoch != ch.epoch or h.seq <= ch.seq) and not upgrade:
                    continue
                rec = files.read_file(p)
            except EiaError:
                continue
            h = rec.header
            if rec.hash in ch.known or rec.hash in out:
                continue
            if h.prev == ch.head or h.prev not in ch.known:
                try:
                    crypto.verify_with_roster(rec.env, dict(ch.roster), p.name)  # a file its author really signed
                except EiaError:
                    continue
                out[rec.hash] = (p, rec)
    return sorted(out.values(), key=lambda item: (-item[1].header.seq, item[0].name))


def behind_sentence(s: Any) -> str | None:
    """One sentence when the save is older than a file this folder sent or loaded (``ahead``), else None."""
    later = ahead(s)
    if not later:
        return None
    own = [(p, r) for p, r in later if r.header.author in s.local]
    p, rec = (own or later)[0]
    what = "your own file" if own else "a file this folder loaded"
    return (f"your save is older than {what} {p.name} ({rec.header.slot}), kept in "
            f"{p.parent.relative_to(s.home)}/: playing on from it would send a second file for a slot already "
            "sent; run 'eiapbem rebuild' to bring the save up to date from the files this folder holds")


def refuse(f: GameFolders, path: Path, reason: str) -> Path | None:
    """Move a refused file from ``commin/`` to ``commin/refused/`` with the reason beside it."""
    if path.parent != f.commin or not path.is_file():
        return None
    dest = f.commin / REFUSED
    try:
        dest.mkdir(parents=True, exist_ok=True)
        target = dest / path.name
        n = 1
        while target.exists():
            target = dest / f"{path.name}.{n}"
            n += 1
        atomic.write_atomic(target.with_name(target.name + ".reason.txt"), (reason + "\n").encode("utf-8"))
        path.replace(target)
    except OSError:
        return None
    return target


def strangers(f: GameFolders, games: list[str], game: str) -> list[tuple[str, str]]:
    """Files in ``commin/`` that are of no game of this folder, or a ``commin`` that is no folder, said so."""
    from eiapbem.core.errors import EiaError
    from eiapbem.pbem import envelope, folders

    if f.commin.exists() and not f.commin.is_dir():
        return [("commin", f"{f.commin} is a file, not a folder: the files others send go into a folder commin/; "
                 "move the file away")]
    out: list[tuple[str, str]] = []
    if not f.commin.is_dir():
        return out
    for p in sorted(f.commin.iterdir()):
        if not p.is_file() or not p.name.endswith((".pbm", ".battle")) or any(p.name.startswith(g + "_") for g in games):
            continue
        try:
            h = envelope.parse(folders.read_limited(p), p.name).header
        except EiaError as err:
            why = f"{err}; moved to commin/{REFUSED}/"
        else:
            if h.game in games and p.suffix == ".battle":
                continue  # a battle file of a game played here: 'ignored' says it goes in battles/
            if h.game in games:  # a renamed file of a game played here: left where it is, said so
                out.append((p.name, f"{p.name} is a file of {h.game} under another name than the game's files "
                                    f"have; not loaded (it stays in commin/: 'eiapbem load commin/{p.name}' loads it)"))
                continue
            why = (f"{p.name} belongs to the game {h.game!r}, which is not played in this folder (it plays "
                   f"{', '.join(games)}); moved to commin/{REFUSED}/")
        out.append((p.name, why))
        refuse(f, p, why)
    return out


def ignored(f: GameFolders, game: str, local: Container[str]) -> list[str]:
    """What ``load`` leaves in ``commin/`` on purpose, each with why and where it belongs: a battle file of this
    game (battles/), a key file (read by 'eiapbem join'), a file this folder wrote itself (it goes to the others). A new player put such files there and saw only "no new files"."""
    from eiapbem.core.errors import EiaError
    from eiapbem.pbem import envelope, folders

    out: list[str] = []
    if not f.commin.is_dir():
        return out
    for p in sorted(f.commin.iterdir()):
        if not p.is_file():
            continue
        if p.name.endswith(".battle") and p.name.startswith(f"pbembattle_{game}_"):
            out.append(f"commin/{p.name} is a battle file: battle files go in battles/; move it there and run "
                       f"'eiapbem load battles/{p.name}' (4.2.7)")
        elif p.name.endswith(".key") and p.name.startswith(game + "_"):
            out.append(f"commin/{p.name} is a key file: 'eiapbem join' reads it once; 'eiapbem load' has nothing to "
                       "do with it")
        elif p.name.endswith(".pbm") and p.name.startswith(game + "_") and not p.name.endswith("_gamestart.pbm"):
            try:
                env = envelope.parse(folders.read_limited(p), p.name)
            except EiaError:
                continue  # load names it among the refused files
            if env.header.author in local and not (f.commin / DONE / p.name).exists():
                out.append(f"commin/{p.name} is a file of {env.header.author}, played in this folder: it goes to the "
                           "other players; there is nothing to load")
    return out
