"""A game folder's store: keys, the save, monthly saves, the game's journal (4.2.2-4.2.8).

A game folder (``--home``) holds one save per game, ``save/GameName.sav``,
sealed to every role played from the folder (one power for an email client;
the host and its powers, or several hot-seat powers, for the host's folder,
4.2.1).  Each role's secret keys are in ``GameName_<role>.key`` under that
player's password; opening a session needs one of them.

The save's game part (``GameData``, decoded strictly as ``pbem.bodies.SaveBody``)
holds the state at the start of the slot in play, who plays what (``meta``,
with the rules versions the game was started with), the actions each local
power has taken so far in the slot, the orders already in for a simultaneous
slot, the file being sent (``outbox``), the battle-file bookkeeping, and the
game's **journal**: the public log of the whole game, which is not part of the
hashed state (``GameState.log`` holds only the lines made since the journal
last took them; ``Store.save`` moves them here).

Every game folder also keeps a monthly save, ``save/GameName_monthly_1805-03.sav``,
at the start of every month's diplomacy phase (000:216): the host's backups are made
from the host's (``eiapbem/host/admin.py``), and a player's own are the game's history
(``client/history.py``: ``eiapbem view``'s history and chart, ``eiapbem map --save``).
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, TypedDict

from eiapbem import ai
from eiapbem.core import canonical
from eiapbem.core.errors import EiaError, IllegalAction
from eiapbem.pbem import bodies, envelope, files, folders, keys, savegame, segments
from eiapbem.pbem.crypto import Rng
from eiapbem.pbem.files import SaveContents
from eiapbem.pbem.folders import GameFolders
from eiapbem.rules import turn
from eiapbem.rules.model import GameState, LogEntry, Phase

#: Tests (and only tests) may set this to "logn,r,p" for fast key files; real games never do.
TEST_SCRYPT_ENV = "EIAPBEM_TEST_SCRYPT"
PLAYER_TYPES = bodies.PLAYER_TYPES

class NoGame(EiaError):
    """The folder holds no game, or not the one named, or the role is not played here."""


class ScryptParams(TypedDict, total=False):
    """``keys.seal_identity``'s password hashing parameters."""

    logn: int
    r: int
    p: int


def scrypt_params() -> ScryptParams:
    """Strong scrypt parameters, unless the test suite asked for weak ones through ``TEST_SCRYPT_ENV``."""
    raw = os.environ.get(TEST_SCRYPT_ENV)
    if not raw:
        return {}
    logn, r, p = (int(x) for x in raw.split(","))
    return {"logn": logn, "r": r, "p": p}


# ----------------------------------------------------------------- the folder


def game_names(home: Path) -> list[str]:
    save = GameFolders(home).save
    if not save.is_dir():
        return []
    return sorted(p.name[: -len(".sav")] for p in save.iterdir()
                  if p.name.endswith(".sav") and "_backup_" not in p.name and "_monthly_" not in p.name)


def monthly_name(game: str, date_key: str) -> str:
    """The host's automatic save at the start of a month's diplomacy phase (4.2.8, 000:216)."""
    return f"{folders.check_game_name(game)}_monthly_{date_key}.sav"


def utc_now() -> str:
    """The wall clock for the admin status (client layer only; the rules never see it)."""
    import datetime

    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


def file_time(path: Path) -> str:
    import datetime

    try:
        t = path.stat().st_mtime
    except OSError:
        return utc_now()
    return datetime.datetime.fromtimestamp(t, datetime.timezone.utc).strftime("%Y-%m-%d %H:%M UTC")


def find_game(home: Path, game: str | None) -> str:
    names = game_names(home)
    if game:
        if game not in names:
            raise NoGame(f"there is no game {game!r} in {home}", hint="'eiapbem new' creates a game; 'eiapbem join' joins one")
        return game
    if not names:
        raise NoGame(f"there is no game in {home.resolve()}", hint="'eiapbem new' creates a game; 'eiapbem join' joins one; or use --home")
    if len(names) > 1:
        raise NoGame(f"{home} holds several games ({', '.join(names)}); say which with --game")
    return names[0]


def key_path(home: Path, game: str, role: str) -> Path:
    return home / folders.identity_name(game, role)


def local_roles(home: Path, game: str) -> dict[str, envelope.RosterEntry]:
    """The roles played from this folder (their key files are here), with their public keys."""
    out = {}
    for role in envelope.POWERS + ("host",):
        p = key_path(home, game, role)
        if p.is_dir():
            raise NoGame(f"{p.name} in {home} is a folder, not {role}'s key file",
                         hint="put the key file back in its place (keep a copy of it somewhere safe)")
        if p.is_file():
            out[role] = keys.public_of(folders.read_limited(p, keys.MAX_KEY_FILE), p.name)
    return out


def _key_file(home: Path, game: str, role: str) -> tuple[bytes, str]:
    p = key_path(home, game, role)
    if not p.is_file():
        raise NoGame(f"{role} is not played from {home}: there is no key file {p.name}")
    return folders.read_limited(p, keys.MAX_KEY_FILE), p.name


def open_identity(home: Path, game: str, role: str, password: str) -> keys.Identity:
    data, name = _key_file(home, game, role)
    return keys.open_identity(data, password, name)


def open_identity_keyed(home: Path, game: str, role: str, password: str) -> tuple[keys.Identity, bytes, Any]:
    """``open_identity``, with the file key the password unwrapped and the key file's scrypt stanza: what seals
    the role's status record to the same password (``client.statusfile.record_key``)."""
    data, name = _key_file(home, game, role)
    return keys.open_identity_keyed(data, password, name)


def write_identity(home: Path, game: str, ident: keys.Identity, password: str, rng: Rng = os.urandom) -> Path:
    if not password:
        raise IllegalAction("a password cannot be empty (4.1.1 PBEM-Hotseat Passwords)")
    data = keys.seal_identity(ident, password, game, rng=rng, **scrypt_params())
    p = key_path(home, game, ident.role)
    GameFolders(home).put(home, p.name, data)
    return p


# ----------------------------------------------------------------- what the save holds


@dataclass(frozen=True)
class GameData:
    """The game part of a save (``SaveContents.game``; its form is ``pbem.bodies.SaveBody``)."""

    state: GameState
    #: Who plays what, the scenario, the rules versions, the host's notes, this folder's sealed orders.
    meta: bodies.SaveMeta
    #: Actions taken so far in the slot in play, by local power (action objects).
    taken: dict = field(default_factory=dict)
    #: Orders already in for the simultaneous slot in play, by power (action objects).
    orders: dict = field(default_factory=dict)
    #: A turn file being written; saved before the file goes to commout/ and cleared after, so a crash in
    #: between cannot lose it (it is written again on opening).
    outbox: bodies.Outbox | None = None
    #: Battles between two humans in the slot in play (4.2.7, ``client/exchange.py``).
    battles: bodies.BattleBook = bodies.BattleBook()
    #: The game's public log so far (``LogEntry.to_obj`` each), kept beside the hashed state.
    journal: tuple = ()
    #: (lines, start, the canonical bytes of each of ``lines[start:]``) for a prefix of ``journal``:
    #: a save encodes only the lines added since (issue 18); checked against ``journal`` before use,
    #: never part of the value.
    journal_enc: tuple = field(default=((), 0, ()), compare=False, repr=False)

    def _journal_encoded(self, start: int = 0) -> canonical.Raw:
        """The canonical bytes of ``journal[start:]``, encoding only the lines not already in ``journal_enc``."""
        done, first, encs = self.journal_enc
        n = len(done)
        if first > start or n < start or (done is not self.journal and (len(self.journal) < n or self.journal[:n] != done)):
            done, first, encs, n = self.journal[:start], start, (), start  # another journal (a backup, a fork)
        if n < len(self.journal) or first < start:
            encs = encs[start - first:] + tuple(canonical.encode(o) for o in self.journal[n:])
            object.__setattr__(self, "journal_enc", (self.journal, start, encs))  # a memo of an immutable value
        else:
            encs = encs[start - first:]
        return canonical.encoded_list(b"".join(encs), len(self.journal) - start)

    def to_obj(self, journal_from: int = 0) -> dict:
        """The game part of a save; ``journal_from`` leaves out the journal's first lines (in segments, issue 18)."""
        return {"state": self.state.encode(), "meta": self.meta.to_obj(), "taken": self.taken, "orders": self.orders,
                "outbox": None if self.outbox is None else self.outbox.to_obj(), "battles": self.battles.to_obj(),
                "journal": self._journal_encoded(journal_from)}

    @classmethod
    def from_obj(cls, o: Any, name: str) -> "GameData":
        if isinstance(o, dict) and type(o.get("journal")) is canonical.Raw:  # a ``to_obj`` still in memory
            o = dict(o, journal=canonical.decode(o["journal"].data))
        b = bodies.decode(bodies.SaveBody, o, name, "a game")
        # A game of older versions (it waits for the host's upgrade file) is read as this release reads it.
        older = dict(b.meta.versions) != turn.versions(ai)
        return cls(GameState.decode_older(b.state) if older else GameState.decode(b.state), b.meta, {p: list(a) for p, a in b.taken.items()},
                   {p: list(a) for p, a in b.orders.items()}, b.outbox, b.battles, tuple(b.journal))

    def absorbed(self) -> "GameData":
        """The state's new log lines moved into the journal (the state keeps none: they are not hashed)."""
        if not self.state.log:
            return self
        lines = tuple(e.to_obj() for e in self.state.log)
        return replace(self, state=self.state.replace(log=()), journal=self.journal + lines)

    def log(self, last: int | None = None) -> list[LogEntry]:
        """The journal (or its ``last`` lines) as log entries, oldest first (``eiapbem log``, ``status``)."""
        lines = self.journal if last is None else self.journal[max(len(self.journal) - last, 0):]
        return [LogEntry.from_obj(o, "the journal") for o in lines]


class Store:
    """The save of a game folder: the state, the chain, what is in play; saved atomically after every change.

    One ``Store`` is held by a session (``client/session.py``) and given to each of its parts; it is the
    only holder of the save's two mutable parts, ``contents`` (the chain, the slot start counts) and
    ``data`` (``GameData``), which its parts replace (never mutate) and write with ``save``.
    """

    def __init__(self, home: Path, game: str, me: keys.Identity, contents: SaveContents, data: GameData,
                 local: dict[str, envelope.RosterEntry], rng: Rng = os.urandom) -> None:
        self.home = Path(home)
        self.folders = GameFolders(self.home)
        self.game = game
        #: The role's unlocked keys (signing, decrypting, the dice chain).
        self.me = me
        self.contents = contents
        self.data = data
        #: The roles played from this folder whose keys are the game's, with their public keys.
        self.local = local
        #: Where every random byte this folder writes comes from: ``os.urandom``, except in ``eiapbem campaign``.
        self.rng = rng

    def save(self) -> None:
        """Write the save (atomically, durably); its parts that only grow go to segment files (issue 18)."""
        self.data = self.data.absorbed()
        body = self._body()
        savegame.store(self.folders, self.game, self.contents, self.me, rng=self.rng, also=self.local, body=body)
        self._monthly(body)

    def _body(self) -> dict:
        """The save's body: the state and the other small parts whole, each growing part's tail, its segments.

        A tail of ``segments.CUT`` items is written into a segment first (once,
        durably), so a save's size and cost stay flat over a long game.
        """
        ch = self.contents.chain
        archive = self.contents.archive or segments.Archive()
        archive, tails = archive.tails(self.data.journal, ch.known, ch.slots, self.contents.starts)
        archive, tails = archive.cut(tails, savegame.parts(self.folders, self.game), ch.gid, self.me.enc_secret)
        self.contents = replace(self.contents, archive=archive)
        return segments.body(ch.to_obj(known=tails["known"], slots=tails["slots"]),
                             self.data.to_obj(journal_from=len(archive.journal)), tails, archive)

    def _monthly(self, body: dict) -> Path | None:
        """Every folder keeps a save at the start of each month's diplomacy phase (000:216 for the host's)."""
        st = self.state
        if st.slot is None or st.slot.phase is not Phase.DIPLOMACY:
            return None
        if self.data.orders or self.data.taken or self.contents.chain.step is not None:
            return None
        path = self.folders.save / monthly_name(self.game, str(st.date))
        if path.exists():
            return None
        from eiapbem.pbem import atomic

        sealed = files.write_save(self.contents, self.me, rng=self.rng, also=self.local, body=body)
        assert sealed.dat is not None
        atomic.write_save_pair(path, sealed.data, sealed.dat)
        return path

    @property
    def state(self) -> GameState:
        return self.data.state

    @property
    def power(self) -> str:
        return self.me.role

    @property
    def chain(self) -> Any:
        """The game's chain as this folder has it (``pbem.chain.Chain``, a value: replaced, never changed)."""
        return self.contents.chain

    def restart_from(self, chain: Any, data: GameData, starts: dict | None = None) -> None:
        """Go on from another chain and game (a backup's new epoch, 4.2.8), and save."""
        self.contents = SaveContents(chain, data.to_obj(), dict(self.contents.starts if starts is None else starts))
        self.data = data
        self.save()

    def refresh_roles(self) -> None:
        """The roles played here again, after the chain's roster changed (a replaced player or host, 4.2.8)."""
        self.local = {r: e for r, e in local_roles(self.home, self.game).items() if self.contents.chain.roster.get(r) == e}

    def journal(self, last: int | None = None) -> list[LogEntry]:
        """The game's public log so far (or its ``last`` lines), with the lines of the state in memory not yet saved."""
        return self.data.absorbed().log(last)

    def open_save(self, sav: bytes, dat: bytes, name: str) -> GameData:
        """The game part of another save of this game sealed to a role played here (a monthly save, a rewind point)."""
        contents = files.open_save(sav, dat, self.me, name, self.local, savegame.parts(self.folders, self.game))
        return GameData.from_obj(contents.game, name)

    def save_snapshot(self) -> tuple[SaveContents, GameData]:
        return self.contents, self.data

    def restore_snapshot(self, snap: tuple[SaveContents, GameData]) -> None:
        self.contents, self.data = snap

