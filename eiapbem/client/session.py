"""A player's open game: a thin ``Session`` composing the client layer's pieces (4.2.2-4.2.8).

- ``store``: the game folder, keys, the save, monthly saves, the journal (``Store``);
- ``turns``: the slot in play, the turn file out and the others' files in, on
  ``rules.turn.play_turn`` (``Turns``);
- ``exchange``: the battle-file exchange between two humans (``BattleExchange``);
- ``autoplay``: the computer's slots and the resolution of simultaneous slots
  (``AutoPlay``);
- ``outbox``: files going out and their email drafts (``Outbox``).

Each piece is a class over the same save (``Store``); ``Session`` joins them
and opens or creates the save.  A newcomer reads the piece named for what it
does; docs/file-format.md gives the bodies (``pbem.bodies``).  The secret
orders exchange (``client/orders.py``) and the mail transport
(``client/mail*.py``) plug in here in a few lines.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any

from eiapbem import ai
from eiapbem.core.errors import EiaError
from eiapbem.pbem import envelope, folders, keys, savegame
from eiapbem.pbem.chain import Chain
from eiapbem.pbem.crypto import Rng
from eiapbem.pbem.files import SaveContents
from eiapbem.pbem.folders import GameFolders
from eiapbem.core.dice import Dice
from eiapbem.rules import engine, turn
from eiapbem.rules.model import POWERS, GameState, LogEntry

from . import forks
from eiapbem.pbem.errors import BadFile, NotForYou
from .exchange import battle_nonce
from .store import (PLAYER_TYPES, TEST_SCRYPT_ENV, GameData, NoGame, file_time, find_game, game_names, key_path,
                    local_roles, monthly_name, open_identity, scrypt_params, utc_now, write_identity)
from .autoplay import AutoPlay, resolve_dice
from .exchange import BattleExchange
from .outbox import Outbox
from .slot import SlotPlay, file_slot
from .store import Store
from .turns import OUT_OF_SYNC, Report, Turns, state_parts, step_for

if TYPE_CHECKING:  # the email modules are loaded only when a draft is written (``client/outbox.py``)
    from eiapbem.pbem.email import Person

__all__ = ["OUT_OF_SYNC", "PLAYER_TYPES", "TEST_SCRYPT_ENV", "GameData", "NoGame", "Report", "Session", "WrongVersion",
           "check_versions",
           "battle_nonce", "file_slot", "file_time", "find_game", "game_names", "key_path", "local_roles",
           "monthly_name", "open_identity", "resolve_dice", "scrypt_params", "state_parts", "step_for", "utc_now",
           "write_identity"]


class WrongVersion(EiaError):
    """The game was started with other rules (or computer) versions than this eiapbem plays."""


def check_versions(recorded: object, what: str) -> None:
    """Refuse, in one sentence, a game whose rules versions are not this eiapbem's (they would fork)."""
    wrong = turn.version_mismatch(recorded, ai)
    if wrong:
        raise WrongVersion(f"{what}: {wrong}, so the same files would give other states here",
                           hint="use the eiapbem version the game was started with")


class Session:
    """One player's open game (a role's identity and the save), made of the client's parts (module docstring)."""

    def __init__(self, store: Store, *, replays_own: bool = False) -> None:
        #: The save and the folder; the only holder of the save's mutable parts.
        self.store = store
        self.outbox = Outbox(store)
        self.auto = AutoPlay(store)
        self.slot = SlotPlay(store)
        self.exchange = BattleExchange(store, self.slot)
        self.turns = Turns(store, self.slot, self.exchange, self.auto, self.outbox, replays_own=replays_own)

    # -------------------------------------------------------------- opening, saving

    @classmethod
    def open(cls, home: Path, game: str | None, role: str, password: str, *, rng: Rng = os.urandom) -> "Session":
        home = Path(home)
        game = find_game(home, game)
        local = local_roles(home, game)
        if role not in local:
            plays = ", ".join(r for r in local) or "no role"
            raise NoGame(f"{role} is not played from this folder (it plays {plays})", hint="use --power to choose")
        return cls.open_with(home, game, open_identity(home, game, role, password), rng=rng)

    @classmethod
    def open_with(cls, home: Path, game: str, me: keys.Identity, *, rng: Rng = os.urandom) -> "Session":
        """Open the save with an identity already unlocked (the demo keeps them open between slots)."""
        home = Path(home)
        local = local_roles(home, game)
        try:
            contents = savegame.load(GameFolders(home), game, me, local)
        except NotForYou:
            raise  # not damaged: the save is not this role's (a handed-on role, 4.2.8)
        except BadFile as err:
            raise forks.damaged_save(home, game, me, local, err) from err  # issue 20: say how to come back
        # A role whose key the chain no longer holds (a replaced host, 000:208) is not played here any more.
        local = {r: e for r, e in local.items() if contents.chain.roster.get(r) == e}
        if me.role not in local:
            raise NoGame(f"{me.role}'s key in this folder is no longer the game's key for {me.role}: that role has been handed on (4.2.8)")
        data = GameData.from_obj(contents.game, folders.save_name(game))
        check_versions(data.meta.get("versions"), f"the game {game}")
        s = cls(Store(home, game, me, contents, data, local, rng))
        try:
            s.outbox.flush()
        except BadFile:
            pass  # commout/ cannot take it now (a plain file there): the save keeps it until it can (issue 20)
        s.exchange.sync()  # a battle question due since the last action, or a crash before its file (4.2.7)
        s.exchange.hand_over()
        return s

    @classmethod
    def create(cls, home: Path, game: str, me: keys.Identity, chain: Chain, data: GameData, *,
               rng: Rng = os.urandom) -> "Session":
        home = Path(home)
        GameFolders(home).ensure()
        s = cls(Store(home, game, me, SaveContents(chain, data.to_obj(), {}), data, local_roles(home, game), rng))
        s.auto.settle()  # a game may begin (or a backup resume) at an AI power's slot
        s.save()
        return s

    # -------------------------------------------------------------- what the folder is

    @property
    def home(self) -> Path:
        return self.store.home

    @property
    def folders(self) -> GameFolders:
        return self.store.folders

    @property
    def game(self) -> str:
        return self.store.game

    @property
    def me(self) -> keys.Identity:
        """The role's unlocked keys."""
        return self.store.me

    @property
    def power(self) -> str:
        """The role this session plays: a power, or "host"."""
        return self.store.power

    @property
    def local(self) -> dict[str, envelope.RosterEntry]:
        """The roles played from this folder."""
        return self.store.local

    @property
    def data(self) -> GameData:
        """The save's game part (for the client's own modules and tests; the CLI, host and view read the
        operations below)."""
        return self.store.data

    @data.setter
    def data(self, value: GameData) -> None:
        self.store.data = value

    @property
    def contents(self) -> SaveContents:
        """The save's chain and slot start counts (for the client's own modules and tests)."""
        return self.store.contents

    @contents.setter
    def contents(self, value: SaveContents) -> None:
        self.store.contents = value

    # -------------------------------------------------------------- reading the game

    @property
    def state(self) -> GameState:
        """The state at the start of the slot in play (``current`` has this power's actions so far)."""
        return self.store.state

    @property
    def chain(self) -> Chain:
        """The game's chain as this folder has it: roster, epoch, head, the files accepted."""
        return self.store.contents.chain

    def current(self) -> GameState:
        return self.turns.current()

    def journal(self, last: int | None = None) -> list[LogEntry]:
        return self.store.journal(last)

    def awaited(self) -> list[tuple[str, str]]:
        """(power, slot) pairs whose files are still due for the slot in play."""
        state = self.state
        slot = state.slot
        if slot is None:
            return []
        if slot.simultaneous:
            got = set(self.chain.collected)
            return [(p, file_slot(state, p)) for p in POWERS
                    if p in slot.actors and file_slot(state, p) not in got and not ai.is_ai(state, p)]
        return [(slot.power, slot.key(state.date))]

    def taken(self, power: str | None = None) -> list:
        return self.slot.taken(power)

    def reloads(self) -> int:
        return self.slot.reloads()

    def slot_dice(self) -> Dice:
        return self.slot.dice()

    def plays_slot(self) -> bool:
        return self.slot.plays()

    def person(self, power: str) -> Person:
        return self.outbox.person(power)

    # -------------------------------------------------------------- the battles between two humans (4.2.7)

    def fights(self) -> dict:
        return self.exchange.fights()

    def answer_entry(self, decision: str) -> tuple[str, dict] | None:
        return self.exchange.answer_entry(decision)

    def battle_questions(self) -> list[Any]:
        return self.exchange.battle_questions()

    def battle_lines(self) -> list[str]:
        return self.exchange.battle_lines()

    @property
    def last_battle_file(self) -> Path | None:
        """The battle reply written by the last answer (for the CLI's message)."""
        return self.exchange.last_file

    @last_battle_file.setter
    def last_battle_file(self, value: Path | None) -> None:
        self.exchange.last_file = value

    # -------------------------------------------------------------- acting

    def act(self, action: Any) -> engine.Outcome:
        return self.turns.act(action)

    def act_many(self, actions: list) -> engine.Outcome:
        return self.turns.act_many(actions)

    def restart(self) -> int:
        return self.turns.restart()

    def end_phase(self) -> Path:
        return self.turns.end_phase()

    def load_path(self, path: Path) -> str:
        return self.turns.load_path(path)

    def load_all(self) -> Report:
        return self.turns.load_all()

    def load_battle(self, path: Path) -> str:
        return self.exchange.load_battle(path)

    def write_admin(self, acts: list, *, roster: dict | None = None, meta: dict | None = None) -> Path:
        return self.turns.write_admin(acts, roster=roster, meta=meta)

    # -------------------------------------------------------------- the save

    def save(self) -> None:
        self.store.save()

    def save_snapshot(self) -> tuple[SaveContents, GameData]:
        return self.store.save_snapshot()

    def restore_snapshot(self, snap: tuple[SaveContents, GameData]) -> None:
        self.store.restore_snapshot(snap)

    def restart_from(self, chain: Chain, data: GameData, starts: dict | None = None) -> None:
        self.store.restart_from(chain, data, starts)

    def refresh_roles(self) -> None:
        self.store.refresh_roles()
