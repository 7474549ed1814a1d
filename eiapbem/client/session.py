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
from typing import Any

from eiapbem import ai
from eiapbem.pbem import envelope, folders, keys, savegame
from eiapbem.pbem.chain import Chain
from eiapbem.pbem.crypto import Rng
from eiapbem.pbem.files import SaveContents
from eiapbem.pbem.folders import GameFolders
from eiapbem.rules.model import POWERS

from . import forks, inbox, upgrade
from .upgrade import WrongVersion, check_versions
from eiapbem.pbem.errors import BadFile, NotForYou
from .exchange import battle_nonce
from .store import (PLAYER_TYPES, TEST_SCRYPT_ENV, GameData, NoGame, file_time, find_game, game_names, key_path,
                    local_roles, monthly_name, open_identity, scrypt_params, utc_now, write_identity)
from .autoplay import resolve_dice
from .turns import OUT_OF_SYNC, Report, Turns, file_slot, state_parts, step_for

__all__ = ["OUT_OF_SYNC", "PLAYER_TYPES", "TEST_SCRYPT_ENV", "GameData", "NoGame", "Report", "Session", "WrongVersion",
           "check_versions",
           "battle_nonce", "file_slot", "file_time", "find_game", "game_names", "key_path", "local_roles",
           "monthly_name", "open_identity", "resolve_dice", "scrypt_params", "state_parts", "step_for", "utc_now",
           "write_identity"]


class Session(Turns):
    """One player's open game (a role's identity and the save)."""

    def __init__(self, home: Path, game: str, me: keys.Identity, contents: SaveContents, data: GameData,
                 local: dict[str, envelope.RosterEntry], rng: Rng = os.urandom) -> None:
        self.home = Path(home)
        #: Where every random byte this folder writes comes from: ``os.urandom``, except in ``eiapbem campaign``.
        self.rng = rng
        self.folders = GameFolders(self.home)
        self.game = game
        self.me = me
        self.contents = contents
        self.data = data
        self.local = local
        #: The battle reply written by the last ``answer_battle`` (for the CLI's message).
        self.last_battle_file: Path | None = None
        self._played: dict = {}
        self._views: dict = {}

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
        s = cls(home, game, me, contents, data, local, rng)
        inbox.clean(s.folders, game)  # the temporary files of a writer killed before its rename (issue 29)
        if computer is not None:
            s.computer = computer
        try:
            s.flush_outbox()
        except BadFile:
            pass  # commout/ cannot take it now (a plain file there): the save keeps it until it can (issue 20)
        if versions.kind == "same":  # a game of an older release waits for its upgrade: nothing is played here
            s._sync_battles()  # a battle question due since the last action, or a crash before its file (4.2.7)
            s._hand_over()
        return s

    @classmethod
    def create(cls, home: Path, game: str, me: keys.Identity, chain: Chain, data: GameData, *,
               rng: Rng = os.urandom, computer: Any = None) -> "Session":
        home = Path(home)
        GameFolders(home).ensure()
        s = cls(home, game, me, SaveContents(chain, data.to_obj(), {}), data, local_roles(home, game), rng)
        if computer is not None:
            s.computer = computer  # the campaign's paced computer (``AutoPlay.computer``)
        s._settle()  # a game may begin (or a backup resume) at an AI power's slot
        s.save()
        return s


    # -------------------------------------------------------------- what is due

    def awaited(self) -> list[tuple[str, str]]:
        """(power, slot) pairs whose files are still due for the slot in play."""
        state = self.state
        slot = state.slot
        if slot is None:
            return []
        if slot.simultaneous:
            got = set(self.contents.chain.collected)
            return [(p, file_slot(state, p)) for p in POWERS
                    if p in slot.actors and file_slot(state, p) not in got and not ai.is_ai(state, p)]
        return [(slot.power, slot.key(state.date))]
