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
  make every later ``load`` fail.
"""

from __future__ import annotations

from collections.abc import Container
from pathlib import Path

from eiapbem.pbem import atomic
from eiapbem.pbem.errors import AlreadyLoaded, Fork, Obsolete, OutOfOrder
from eiapbem.pbem.folders import GameFolders

DONE = "done"
REFUSED = "refused"
SENT = "sent"


def places(f: GameFolders) -> list[Path]:
    """Every place of a folder where a game's files may be (the audit reads them all)."""
    return [f.commin, f.commin / DONE, f.commin / REFUSED, f.commout, f.commout / SENT]


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


def for_good(err: Exception) -> bool:
    """Is a refusal final (move the file aside) rather than 'not yet' (its predecessors are still to come)?"""
    if isinstance(err, (AlreadyLoaded, Fork, Obsolete)):
        return True
    if isinstance(err, OutOfOrder):
        msg = str(err)
        return not ("have not loaded" in msg or "from backup epoch" in msg)
    return True


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
            if h.game in games:
                continue  # a renamed file of a game played here: 'eiapbem load commin/NAME' loads it
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
