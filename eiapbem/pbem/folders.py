"""Game folders and file names (4.2.2-4.2.8; docs/file-format.md section 9).

A player's home folder holds ``commin/`` (files received), ``commout/`` (files
to send), ``battles/`` (battle files, 4.2.7) and ``save/`` (saves and
backups).  Names are for people; a reader trusts only the signed header.  Every
name part is validated so a name can never leave its folder.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from eiapbem.core.errors import EiaError

from . import envelope
from .errors import BadFormat

#: The powers' names as the manual writes them in file names (``forplayer_Austria``, ``000:222``).
POWER_NAMES = {
    "AU": "Austria",
    "FR": "France",
    "GB": "GreatBritain",
    "PR": "Prussia",
    "RU": "Russia",
    "SP": "Spain",
    "TU": "Turkey",
    "host": "Host",
}
#: 14.5 (``000:2822``): a setup file starts with the first two letters of the nation's name.
SETUP_PREFIX = {"AU": "Au", "FR": "Fr", "GB": "Gr", "PR": "Pr", "RU": "Ru", "SP": "Sp", "TU": "Tu"}

_PLACE_RE = re.compile(r"[A-Za-z][A-Za-z0-9-]{0,39}\Z")
_FREE_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9 ._-]{0,59}\Z")


class BadName(EiaError):
    """A game, place, scenario or player name that cannot be part of a file name."""


def _check(value: str, pattern: re.Pattern[str], what: str) -> str:
    if not isinstance(value, str) or not pattern.match(value) or ".." in value:
        raise BadName(f"{what} {value!r} cannot be used in a file name; use letters, digits, '-' and '_'")
    return value


def check_game_name(game: str) -> str:
    return _check(game, envelope.GAME_RE, "the game name")


def gamestart_name(game: str) -> str:
    return f"{check_game_name(game)}_gamestart.pbm"


def turn_name(game: str, slot: str) -> str:
    """``GameName_1805-05_naval_GB.pbm`` from the slot ``1805-05/naval/GB``."""
    _check(slot, envelope._SLOT_RE, "the slot")
    return f"{check_game_name(game)}_{slot.replace('/', '_')}.pbm"


def admin_name(game: str, seq: int) -> str:
    return f"{check_game_name(game)}_admin_{seq:04d}.pbm"


def battle_name(game: str, place: str, n: int) -> str:
    """``pbembattle_GameName_Lille0.battle`` (4.2.7, ``000:172``)."""
    _check(place, _PLACE_RE, "the battle place")
    return f"pbembattle_{check_game_name(game)}_{place}{n}.battle"


def save_name(game: str) -> str:
    return f"{check_game_name(game)}.sav"


def backup_name(game: str, role: str) -> str:
    """``GameName_backup_forplayer_Austria.sav`` (``000:222-224``); its ``.sav.dat`` sits beside it."""
    return f"{check_game_name(game)}_backup_forplayer_{POWER_NAMES[role]}.sav"


def handover_name(game: str) -> str:
    """The host's save handed to a new host from outside the playgroup (4.2.8, ``000:208``); ``.dat`` beside it."""
    return f"{check_game_name(game)}_host_handover.sav"


def setup_name(power: str, scenario: str, name: str) -> str:
    """``FrCustom Campaign 1805-_Default.set`` (14.5, ``000:2822-2828``)."""
    _check(scenario, _FREE_RE, "the scenario name")
    _check(name, _FREE_RE, "the setup name")
    return f"{SETUP_PREFIX[power]}{scenario}_{name}.set"


def identity_name(game: str, role: str) -> str:
    return f"{check_game_name(game)}_{role}.key"


def bid_name(player: str, game: str) -> str:
    """``YourName_GameName.bid`` (4.2.10, ``000:272``)."""
    _check(player, envelope.GAME_RE, "the player name")
    return f"{player}_{check_game_name(game)}.bid"


@dataclass(frozen=True)
class GameFolders:
    """The four folders under a player's home folder."""

    home: Path

    @property
    def commin(self) -> Path:
        return self.home / "commin"

    @property
    def commout(self) -> Path:
        return self.home / "commout"

    @property
    def battles(self) -> Path:
        return self.home / "battles"

    @property
    def save(self) -> Path:
        return self.home / "save"

    def ensure(self) -> "GameFolders":
        for p in (self.commin, self.commout, self.battles, self.save):
            p.mkdir(parents=True, exist_ok=True)
        return self

    def put(self, folder: Path, name: str, data: bytes) -> Path:
        """Write ``data`` atomically as ``folder/name`` (a battle file overwrites the older one, ``000:174``)."""
        if "/" in name or "\\" in name or name.startswith("."):
            raise BadName(f"{name!r} is not a plain file name")
        check_folder(folder)
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / name
        from . import atomic  # loaded when a file is written (a read needs none of it)

        atomic.write_atomic(path, data)
        return path

    def incoming(self, game: str) -> list[Path]:
        """The files in ``commin/`` whose names say they belong to ``game``, in name order."""
        check_game_name(game)
        if not self.commin.is_dir():
            return []
        return sorted(p for p in self.commin.iterdir() if p.is_file() and p.name.startswith(game + "_"))


def check_folder(folder: Path) -> None:
    """Refuse, in one sentence, a game folder part that is a plain file (issue 20: not a FileExistsError)."""
    for p in (folder, *folder.parents):
        if p.exists():
            if not p.is_dir():
                raise BadFormat(f"{p} is a file, not a folder; move it away (a game folder holds commin/, commout/, "
                                "battles/ and save/ as folders) and run the command again")
            return


def read_limited(path: Path, limit: int = envelope.MAX_FILE) -> bytes:
    """Read a file from outside, refusing it before reading if it is over ``limit`` bytes."""
    try:
        size = path.stat().st_size
        if size > limit:
            raise BadFormat(f"{path.name} is {size} bytes, over the limit of {limit}; it is not an eiapbem file")
        with path.open("rb") as f:
            data = f.read(limit + 1)
    except FileNotFoundError as err:
        if not path.parent.is_dir():
            raise BadFormat(f"there is no folder {path.parent.name}/ in {path.parent.parent}, so no file {path.name} in it",
                            hint=f"make the folder {path.parent.name}/ and put {path.name} in it (with your key file "
                                 "for a gamestart), or give the file's own path") from err
        raise BadFormat(f"there is no file {path.name} in {path.parent}") from err
    except IsADirectoryError as err:
        raise BadFormat(f"{path.name} is a folder, not a file") from err
    except OSError as err:
        raise BadFormat(f"{path.name} could not be read ({err.strerror})") from err
    if len(data) > limit:
        raise BadFormat(f"{path.name} grew over the limit of {limit} bytes while being read")
    return data
