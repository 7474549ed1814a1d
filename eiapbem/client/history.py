"""The game as it was: the monthly saves of a game folder, opened read-only (000:216).

Every game folder keeps a save at the start of each month's diplomacy phase,
``save/GameName_monthly_1805-03.sav`` (``client/store.py``): the host's backups are made from the host's
(4.2.8), and a player's own are what ``eiapbem view``'s history slider, its chart of political status and
victory points (``client/documents.py`` ``history``) and ``eiapbem map --svg --save`` of a past month read.

``open_month`` gives a session over one of them that only reads: it never saves, acts, loads or sends, and
opening it writes nothing (no outbox flush, no battle-file sync: those belong to the game in play).
``open_read_only`` opens the game in play the same way, for a reader that must never write (``eiapbem view``
reads the folder while the CLI or ``mail sync`` may be writing it).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from eiapbem.core.errors import IllegalAction

from .session import GameData, Session
from .store import Store, monthly_name

#: ``GameName_monthly_YYYY-MM.sav``: the game's name and the month.
MONTHLY = re.compile(r"^(?P<game>.+)_monthly_(?P<month>\d{4}-\d{2})\.sav$")


class ReadOnly(IllegalAction):
    """Something that would change a game was asked of a monthly save."""


def monthly_saves(s: Any) -> list[tuple[str, Path]]:
    """(month, path) of the game's monthly saves in its folder, oldest first."""
    out = []
    prefix = f"{s.game}_monthly_"
    if s.folders.save.is_dir():
        for p in sorted(s.folders.save.iterdir()):
            found = MONTHLY.match(p.name)
            if found and p.name.startswith(prefix) and found["game"] == s.game:
                out.append((found["month"], p))
    return out


def split_name(path: Path) -> tuple[str, str] | None:
    """(game, month) of a monthly save's file name, or None for any other file."""
    found = MONTHLY.match(path.name)
    return (found["game"], found["month"]) if found else None


def open_month(s: Any, month: str) -> Any:
    """A read-only session of the game as its monthly save of ``month`` holds it (refused when there is none)."""
    path = s.folders.save / monthly_name(s.game, month)
    if not path.is_file():
        have = ", ".join(m for m, _ in monthly_saves(s)) or "none yet"
        raise IllegalAction(f"there is no monthly save for {month!r}; the saves kept are: {have}")
    return _open(s.home, s.game, s.me, dict(s.local), path, month)


def open_read_only(home: Path, game: str, me: Any) -> Any:
    """The game in play as a session that only reads: opening it writes nothing, and it cannot act."""
    from eiapbem.pbem import folders

    from .store import local_roles

    home = Path(home)
    local = local_roles(home, game)
    s = _open(home, game, me, local, folders.GameFolders(home).save / folders.save_name(game), None)
    s.store.local = {r: e for r, e in local.items() if s.chain.roster.get(r) == e}
    return s


def _open(home: Path, game: str, me: Any, local: dict, path: Path, month: str | None) -> Any:
    from eiapbem.pbem import atomic, files, folders, savegame

    from .session import check_versions

    sav, dat = atomic.read_save_pair(path)
    contents = files.open_save(sav, dat, me, path.name, local, savegame.parts(folders.GameFolders(home), game))
    data = GameData.from_obj(contents.game, path.name)
    check_versions(dict(data.meta.versions), f"the game {game}")
    return ReadOnlySession(ReadOnlyStore(Path(home), game, me, contents, data, local), month=month)


def _read_only(*args: Any, **kw: Any) -> Any:
    raise ReadOnly("this is the game as it is read, not played: a monthly save, or a reader that never writes",
                   hint="go back to the game in play to act")


class ReadOnlyStore(Store):
    """A save that is read and never written."""

    save = _read_only


class ReadOnlySession(Session):
    """A save as a session that only reads (the module text)."""

    def __init__(self, store: Store, *, month: str | None) -> None:
        super().__init__(store)
        #: The month of a monthly save ("1805-03"), or None for the game in play.
        self.month = month

    save = _read_only
    act = _read_only
    act_many = _read_only
    restart = _read_only
    end_phase = _read_only
    load_path = _read_only
    load_all = _read_only
    load_battle = _read_only
