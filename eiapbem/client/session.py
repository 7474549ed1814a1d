"""A player's open game: ``Session``, made of the client's parts, and its public operations (4.2.2-4.2.8).

The parts, each given what it calls (none inherits another):

- ``store`` (``Store``, ``client/store.py``): the game folder, the role's keys, the save; the only holder
  of the save's mutable parts, ``contents`` (the chain, the slot start counts) and ``data`` (``GameData``:
  the state, who plays what, the slot's actions and orders, and three typed records of
  ``pbem/bodies.py``: ``SaveMeta``, ``Outbox``, the ``BattleBook``);
- ``slot`` (``SlotPlay``, ``client/slot.py``): the slot in play: its dice, the actions taken, its replay;
- ``exchange`` (``BattleExchange``, ``client/exchange.py``): battle files between two humans (4.2.7);
- ``auto`` (``AutoPlay``, ``client/autoplay.py``): the computer's slots, simultaneous slots resolved;
- ``outbox`` (``Outbox``, ``client/outbox.py``): files going out and their email drafts;
- ``turns`` (``Turns``, ``client/turns.py``): acting, "End Current Phase", loading the others' files.

**The public operations** (``PUBLIC``): what the CLI, the host's menu (``host/``) and a view call, and all
they call; ``tests/client/test_client_api.py`` holds ``cli/`` and ``host/`` to them.  Everything else (the parts,
``data``, ``contents``) belongs to the client's own modules and tests.

- opening: ``Session.open`` (home, game, role, password), ``Session.open_with`` (an unlocked identity),
  ``Session.create`` (a new game, a join, a loaded backup);
- the folder: ``home``, ``folders``, ``game``, ``power`` (the role), ``me`` (its unlocked keys), ``local``
  (the roles played here);
- reading the game: ``state`` (at the start of the slot in play), ``current()`` (with this power's actions
  so far, or the battle a question shows), ``meta`` (who plays what), ``chain``, ``starts``,
  ``journal(last)``, ``journal_lines``, ``awaited()``, ``taken()``, ``orders_sent()``, ``reloads()``,
  ``slot_dice()``, ``plays_slot()``, ``person(power)``;
- battles between two humans: ``fights()``, ``battle_questions()``, ``battle_lines()``, ``defends(battle)``,
  ``answer_entry(decision)``, ``reply_to_send()``, ``last_battle_file``;
- acting: ``act(action)``, ``act_many(actions)``, ``restart()``, ``end_phase(seal_diplomacy=)``,
  ``order_ahead(action)`` (a diplomacy order for next month, sealed in the last file of this one), ``load_path(path)`` (a
  turn, admin or battle file), ``load_all()``, ``load_battle(path)``, ``settle()`` (the computer's slots
  played as far as they go without a file, and saved);
- the host (4.2.8): ``write_admin(acts, roster=, players=, host=)``, ``game_data_at(state, meta)``,
  ``open_save(sav, dat, name)``, ``restart_from(chain, data, starts)``, ``refresh_roles()``, ``save()``,
  ``save_snapshot()`` / ``restore_snapshot(snap)`` (a load tried and undone).

docs/file-format.md gives the bodies (``pbem.bodies``).  The secret orders exchange
(``client/orders.py``) and the mail transport (``client/mail*.py``) plug in here in a few lines.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping

from eiapbem import ai
from eiapbem.pbem import bodies, envelope, folders, keys, savegame
from eiapbem.pbem.chain import Chain
from eiapbem.pbem.crypto import Rng
from eiapbem.pbem.files import SaveContents
from eiapbem.pbem.folders import GameFolders
from eiapbem.core.dice import Dice
from eiapbem.rules import engine
from eiapbem.rules.model import POWERS, GameState, LogEntry

from . import forks, inbox, upgrade
from .upgrade import WrongVersion, check_versions
from eiapbem.pbem.errors import BadFile, NotForYou
from .exchange import battle_nonce
from .store import (PLAYER_TYPES, TEST_SCRYPT_ENV, GameData, NoGame, file_time, find_game, game_names, key_path,
                    local_roles, monthly_name, open_identity, open_identity_keyed, scrypt_params, utc_now,
                    write_identity)
from .autoplay import AutoPlay, resolve_dice
from .exchange import BattleExchange
from .outbox import Outbox
from .slot import SlotPlay, actions_of, file_slot
from .store import Store
from .turns import OUT_OF_SYNC, Report, Turns, state_parts, step_for

if TYPE_CHECKING:  # the email modules are loaded only when a draft is written (``client/outbox.py``)
    from eiapbem.pbem.email import Person

__all__ = ["OUT_OF_SYNC", "PLAYER_TYPES", "PUBLIC", "TEST_SCRYPT_ENV", "GameData", "NoGame", "Report", "Session", "WrongVersion",
           "check_versions",
           "battle_nonce", "file_slot", "file_time", "find_game", "game_names", "key_path", "local_roles",
           "monthly_name", "open_identity", "open_identity_keyed", "resolve_dice", "scrypt_params", "state_parts", "step_for", "utc_now",
           "write_identity"]


#: The session's public operations (module docstring): all the CLI, the host's menu and a view may use.
PUBLIC = ("open", "open_with", "create", "home", "folders", "game", "power", "me", "local", "state", "current", "meta",
          "chain", "starts", "journal", "journal_lines", "awaited", "taken", "orders_sent", "reloads", "slot_dice",
          "plays_slot", "person", "fights", "battle_questions", "battle_lines", "defends", "answer_entry",
          "reply_to_send", "last_battle_file", "act", "act_many", "restart", "end_phase", "order_ahead", "load_path",
          "load_all",
          "load_battle", "settle", "write_admin", "game_data_at", "open_save", "restart_from", "refresh_roles", "save",
          "save_snapshot", "restore_snapshot")


class Session:
    """One player's open game (a role's identity and the save), made of the client's parts (module docstring)."""

    def __init__(self, store: Store, *, replays_own: bool = False, computer: Any = None) -> None:
        """``computer``: the computer players the AI powers are played with (``AutoPlay.computer``; ``eiapbem.ai``)."""
        #: The save and the folder; the only holder of the save's mutable parts.
        self.store = store
        self.outbox = Outbox(store)
        self.auto = AutoPlay(store, ai if computer is None else computer)
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
    def open_with(cls, home: Path, game: str, me: keys.Identity, *, rng: Rng = os.urandom,
                  computer: Any = None) -> "Session":
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
        versions = upgrade.check_open(data.meta, game)  # a game of a newer release: install it (issue 29)
        s = cls(Store(home, game, me, contents, data, local, rng), computer=computer)
        inbox.clean(s.folders, game)  # the temporary files of a writer killed before its rename (issue 29)
        try:
            s.outbox.flush()
        except BadFile:
            pass  # commout/ cannot take it now (a plain file there): the save keeps it until it can (issue 20)
        if versions.kind == "same":  # a game of an older release waits for its upgrade: nothing is played here
            s.exchange.sync()  # a battle question due since the last action, or a crash before its file (4.2.7)
            s.exchange.hand_over()
        return s

    @classmethod
    def create(cls, home: Path, game: str, me: keys.Identity, chain: Chain, data: GameData, *,
               starts: Mapping[str, int] | None = None, rng: Rng = os.urandom, computer: Any = None) -> "Session":
        """A new save: a new game, a join, a backup loaded (``starts``: the slot start counts kept, 4.2.7)."""
        home = Path(home)
        GameFolders(home).ensure()
        contents = SaveContents(chain, data.to_obj(), dict(starts or {}))
        s = cls(Store(home, game, me, contents, data, local_roles(home, game), rng), computer=computer)
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

    @property
    def meta(self) -> bodies.SaveMeta:
        """Who plays what (name, address, kind), the host, the scenario, the reloads reported, the last file."""
        return self.store.data.meta

    @property
    def starts(self) -> Mapping[str, int]:
        """How often each slot was started in this folder (reloads, 4.2.7)."""
        return self.store.contents.starts

    def current(self) -> GameState:
        return self.turns.current()

    def journal(self, last: int | None = None) -> list[LogEntry]:
        """The game's public log so far (or its ``last`` lines), oldest first."""
        return self.store.journal(last)

    @property
    def journal_lines(self) -> tuple:
        """The saved journal as it is kept (``LogEntry.to_obj`` each), without the lines not yet saved."""
        return self.store.data.journal

    def awaited(self) -> list[tuple[str, str]]:
        """(power, slot) pairs whose files are still due for the slot in play."""
        state = self.state
        slot = state.slot
        if slot is None:
            return []
        if slot.power is None:  # a simultaneous slot
            got = set(self.chain.collected)
            return [(p, file_slot(state, p)) for p in POWERS
                    if p in slot.actors and file_slot(state, p) not in got and not ai.is_ai(state, p)]
        return [(slot.power, slot.key(state.date))]

    def taken(self, power: str | None = None) -> list:
        return self.slot.taken(power)

    def orders_sent(self) -> list | None:
        """The orders this power sent for the simultaneous slot in play (action objects); None while not sent."""
        st = self.state
        if st.slot is None or not st.slot.simultaneous or file_slot(st, self.power) not in self.chain.collected:
            return None
        return actions_of(self.store.data.orders.get(self.power, []), "the orders sent")

    def reloads(self) -> int:
        return self.slot.reloads()

    def slot_dice(self) -> Dice:
        return self.slot.dice()

    def plays_slot(self) -> bool:
        return self.slot.plays()

    def person(self, power: str) -> Person:
        return self.outbox.person(power)

    # -------------------------------------------------------------- the battles between two humans (4.2.7)

    def fights(self) -> Mapping[str, bodies.Fight]:
        return self.exchange.fights()

    def answer_entry(self, decision: str) -> tuple[str, bodies.Answer] | None:
        return self.exchange.answer_entry(decision)

    def defends(self, battle: str) -> bool:
        return self.exchange.defends(battle)

    def reply_to_send(self) -> Path | None:
        return self.exchange.reply_to_send()

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

    def end_phase(self, *, seal_diplomacy: bool = False) -> Path:
        return self.turns.end_phase(seal_diplomacy=seal_diplomacy)

    def order_ahead(self, action: Any) -> int:
        return self.turns.order_ahead(action)

    def load_path(self, path: Path) -> str:
        return self.turns.load_path(path)

    def load_all(self) -> Report:
        return self.turns.load_all()

    def load_battle(self, path: Path) -> str:
        return self.exchange.load_battle(path)

    def settle(self) -> None:
        """Play the computer's slots as far as they go without a file, and save (``eiapbem campaign`` moves its
        pause on with it; a client does this by itself after every file)."""
        before = self.state
        self.auto.settle()
        if self.state is not before:
            self.save()

    def write_admin(self, acts: list, *, roster: dict | None = None,
                    players: Mapping[str, bodies.PlayerRow] | None = None, host: bodies.Person | None = None) -> Path:
        return self.turns.write_admin(acts, roster=roster, players=players, host=host)

    # -------------------------------------------------------------- the save

    def save(self) -> None:
        self.store.save()

    def save_snapshot(self) -> tuple[SaveContents, GameData]:
        return self.store.save_snapshot()

    def restore_snapshot(self, snap: tuple[SaveContents, GameData]) -> None:
        self.store.restore_snapshot(snap)

    def restart_from(self, chain: Chain, data: GameData, starts: dict | None = None) -> None:
        self.store.restart_from(chain, data, starts)

    def game_data_at(self, state: GameState, meta: bodies.SaveMeta | None = None) -> GameData:
        """The game part of a save at ``state`` with this game's journal, who plays what (``meta``, else this
        save's) and nothing of a slot in play: what a backup or a handed-on host's save holds (4.2.8)."""
        return GameData(state, self.meta if meta is None else meta, journal=self.store.data.journal)

    def open_save(self, sav: bytes, dat: bytes, name: str) -> GameData:
        """The game part of another save of this game sealed to a role played here (a monthly save, 000:216)."""
        return self.store.open_save(sav, dat, name)

    def refresh_roles(self) -> None:
        self.store.refresh_roles()
