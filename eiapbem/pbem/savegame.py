"""The player's save on disk (``save/GameName.sav`` + ``.sav.dat``, 4.2.4 ``000:158``).

The client keeps one save per game and rewrites it atomically at every End
Current Phase and every loaded file (``000:104``, ``000:226``).  Starting a slot
counts one more start in the save *before* the player sees anything, so a
reload of the same slot is counted and the count goes into the slot's file
(4.2.7, ``000:176``).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from . import atomic, files, segments
from .crypto import Rng
from .files import SaveContents
from .folders import GameFolders, save_name
from .envelope import RosterEntry
from .keys import Identity


def save_path(folders: GameFolders, game: str) -> Path:
    return folders.save / save_name(game)


def parts(folders: GameFolders, game: str) -> segments.Segments:
    """The folder's segment files of ``game`` (the save's parts that only grow, issue 18)."""
    return segments.Segments(folders.save, game)


def store(folders: GameFolders, game: str, contents: SaveContents, me: Identity, rng: Rng = os.urandom,
          also: Mapping[str, RosterEntry] | None = None, body: Any = None) -> Path:
    sealed = files.write_save(contents, me, rng, also, body)
    assert sealed.dat is not None
    folders.save.mkdir(parents=True, exist_ok=True)
    path = save_path(folders, game)
    atomic.write_save_pair(path, sealed.data, sealed.dat)
    return path


def load(folders: GameFolders, game: str, me: Identity, authors: Mapping[str, RosterEntry] | None = None) -> SaveContents:
    path = save_path(folders, game)
    sav, dat = atomic.read_save_pair(path)
    return files.open_save(sav, dat, me, path.name, authors, parts(folders, game))


def begin_slot(folders: GameFolders, game: str, me: Identity, slot: str, rng: Rng = os.urandom) -> tuple[SaveContents, int]:
    """Count a start of ``slot`` on disk first; return the save and the reloads so far."""
    contents, reloads = load(folders, game, me).start(slot)
    store(folders, game, contents, me, rng)
    return contents, reloads
