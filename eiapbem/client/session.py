"""A player's game: the save, the slot in play, turn files out and in (4.2.2-4.2.8).

A game folder (``--home``) holds one save per game, ``save/GameName.sav``,
sealed to every role played from the folder (one power for an email client;
the host and its powers, or several hot-seat powers, for the host's folder,
4.2.1).  Each role's secret keys are in ``GameName_<role>.key`` under that
player's password; opening a ``Session`` needs one of them.

The save holds the chain record (``pbem.chain``), the state at the start of
the slot in play, the actions each local power has taken so far in it (so a
player can stop and resume; the first action of a slot counts a start, and
``restart`` throws the actions away, counting a reload, 4.2.7), and for a
simultaneous slot the orders already in.  The state during the slot is always
the start state with the actions replayed under the slot's dice, which are
fixed before the player acts (``pbem.dice``), so stopping and resuming
changes nothing.

Every turn file's body is a map::

    slot     the game's slot key (1805-03/naval/turn/GB)
    power    the acting power
    actions  the actions, as engine.action_to_obj
    dice     the record of rolls (label -> [sides, value])
    before   the state hash at the start of the slot
    after    the state hash after the slot (after the end of a sequential
             slot; after the power's own orders in a simultaneous one)
    reloads  how often the author restarted the slot (also in the header)
    state    the encoded state after (for the first differing path when a
             replay disagrees)
    battles  {battle id: [[battle file, file key], ...]}: the battle files
             exchanged with a human defender in the slot (4.2.7)
    exchanges [[battle id, ask, at], ...]: where the defender's replies
             come among the actions

A loaded file is replayed with its own dice (each roll re-derived first),
and its hashes compared; any refusal leaves the save untouched.

AI powers (``PowerState.controller`` ai-easy/medium/hard) write no files:
every client plays their slots itself, deterministically, in one place,
``Session._settle``, which runs whenever the state or chain moved (end-phase,
a loaded turn or admin file, a new game, join, backup).  A sequential AI slot
is played with ``pbem.dice.ai_dice`` as soon as the slot before it ends; a
simultaneous slot resolves when every human actor's orders are in, the AI's
orders made from its starting state (``_resolve``).  Decisions addressed to an
AI power in a human's slot are answered during the replay
(``eiapbem.ai.apply_actions``) with the file's dice.

Battles between two humans (4.2.7, ``client/battles.py``, docs/file-format.md
7.3): when a battle question of the acting power's slot is for a human power
of another folder, the acting power's session writes a question file to
``battles/`` once it has nothing left to answer; the defender's session loads
it (``load_battle``), shows the battle as of the question (``current``) and
writes the reply when its answers are complete (``answer_battle``); the
acting power loads the reply and goes on.  The slot's state is always
``battles.play`` of the start state, the actions and the replies so far.

Host admin files (4.2.8) are loaded in the same chain: their body is::

    acts     the admin acts, as rules.admin.admin_to_obj
    before   the state hash before them
    after    the state hash after them
    meta     who plays what after them (a replaced player's name and address)
    state    the encoded state after

They are refused unless signed by the game's host key (the chain checks the
signature against the roster) and unless the game option "Allow PBEM Host
Functions" is on.  A host's folder also keeps a monthly save,
``save/GameName_monthly_1805-03.sav``, at the start of every month's
diplomacy phase (000:216); ``eiapbem/host/admin.py`` makes backups from them.
"""

from __future__ import annotations

import hashlib
import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Iterable

from eiapbem import ai
from eiapbem.data.context import rules_context
from eiapbem.core.errors import BadEncoding, EiaError, IllegalAction
from eiapbem.client import battles
from eiapbem.pbem import crypto, dice as pdice, envelope, files, folders, keys, savegame
from eiapbem.pbem.chain import Battle, Chain, Step
from eiapbem.pbem.email import Person, subject_for, write_draft
from eiapbem.pbem.errors import (AlreadyLoaded, AuthorNotAllowed, BadDice, BadFile, BadHeader, NotForYou, Obsolete,
                                 OutOfOrder, OutOfSync, OwnFile, WrongKind)
from eiapbem.pbem.files import SaveContents
from eiapbem.pbem.folders import GameFolders
from eiapbem.core import canonical
from eiapbem.rules import engine
from eiapbem.core.dice import Dice, DiceError
from eiapbem.rules.model import POWERS, GameState, Phase, first_difference

#: Tests (and only tests) may set this to "logn,r,p" for fast key files; real games never do.
TEST_SCRYPT_ENV = "EIAPBEM_TEST_SCRYPT"
#: The manual's words for a file that does not replay to the same state (4.2.8, 000:212).
OUT_OF_SYNC = "Turn file out of sync \u2013 contact game host"
PLAYER_TYPES = ("host", "client", "hotseat", "ai-easy", "ai-medium", "ai-hard")


def battle_nonce() -> bytes:
    """A fresh 32-byte battle nonce (docs/file-format.md 7.2); never reused, never derived from the game."""
    return os.urandom(32)


class NoGame(EiaError):
    """The folder holds no game, or not the one named, or the role is not played here."""


def scrypt_params() -> dict[str, int]:
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
        if p.is_file():
            out[role] = keys.public_of(folders.read_limited(p, keys.MAX_KEY_FILE), p.name)
    return out


def open_identity(home: Path, game: str, role: str, password: str) -> keys.Identity:
    p = key_path(home, game, role)
    if not p.is_file():
        raise NoGame(f"{role} is not played from {home}: there is no key file {p.name}")
    return keys.open_identity(folders.read_limited(p, keys.MAX_KEY_FILE), password, p.name)


def write_identity(home: Path, game: str, ident: keys.Identity, password: str) -> Path:
    if not password:
        raise IllegalAction("a password cannot be empty (4.1.1 PBEM-Hotseat Passwords)")
    data = keys.seal_identity(ident, password, game, **scrypt_params())
    p = key_path(home, game, ident.role)
    GameFolders(home).put(home, p.name, data)
    return p


# ----------------------------------------------------------------- what the save holds


@dataclass(frozen=True)
class GameData:
    """The game part of a save (``SaveContents.game``)."""

    state: GameState
    #: Who plays what: {"players": {power: {name, email, type}}, "host": {name, email}, "scenario": id}.
    meta: dict
    #: Actions taken so far in the slot in play, by local power (action objects).
    taken: dict = field(default_factory=dict)
    #: Orders already in for the simultaneous slot in play, by power (action objects).
    orders: dict = field(default_factory=dict)
    #: A turn file being written: {"name", "data", "what"}; saved before the file goes to
    #: commout/ and cleared after, so a crash in between cannot lose it (it is written again on opening).
    outbox: dict = field(default_factory=dict)
    #: Battles between two humans in the slot in play (4.2.7, ``client/battles.py``):
    #: ``plan`` [[battle, ask, at], ...] the exchanges done; ``fights`` {battle: ...} the acting
    #: power's battle files; ``answer`` {battle: ...} the questions this folder's power answers.
    battles: dict = field(default_factory=dict)

    def to_obj(self) -> dict:
        return {"state": self.state.encode(), "meta": self.meta, "taken": self.taken, "orders": self.orders,
                "outbox": self.outbox, "battles": self.battles}

    @classmethod
    def from_obj(cls, o: Any, name: str) -> "GameData":
        keys = {"state", "meta", "taken", "orders", "outbox"}
        if not isinstance(o, dict) or set(o) not in (keys, keys | {"battles"}):
            raise BadEncoding(f"{name} does not hold a game in the expected form")
        return cls(GameState.decode(o["state"]), o["meta"], dict(o["taken"]), dict(o["orders"]), dict(o["outbox"]),
                   dict(o.get("battles", {})))


def file_slot(state: GameState, power: str) -> str:
    """The slot a power's file names: the game's slot key, or one per power in a simultaneous slot."""
    slot = state.slot
    assert slot is not None
    if slot.simultaneous:
        return f"{state.date}/{slot.phase}/{slot.step}/{power}"
    return slot.key(state.date)


def step_for(state: GameState) -> Step | None:
    """What the chain may accept now: the slot's power, or every human actor of a simultaneous slot in fixed order.

    An AI power writes no file (every client plays its slots, ``Session._settle``), so it is never in a step.
    """
    slot = state.slot
    if slot is None:
        return None
    if slot.simultaneous:
        return Step.together((file_slot(state, p), [p]) for p in POWERS if p in slot.actors and not ai.is_ai(state, p))
    return Step.one(slot.key(state.date), slot.power)


def resolve_dice(head: bytes) -> Dice:
    """Dice for resolving a simultaneous slot: from the chain head that joins all its files."""
    return Dice(hashlib.sha256(b"eiapbem/v1/resolve\x00" + head).digest())


def _actions(objs: Iterable[Any], where: str) -> list:
    return [engine.action_from_obj(o, f"{where}[{i}]") for i, o in enumerate(objs)]


@dataclass
class Report:
    """What a load did: files accepted (name, slot) and files refused (name, sentence)."""

    loaded: list = field(default_factory=list)
    refused: list = field(default_factory=list)
    #: Files made before the host's last backup, left alone (000:226).
    obsolete: list = field(default_factory=list)


class Session:
    """One player's open game (a role's identity and the save)."""

    def __init__(self, home: Path, game: str, me: keys.Identity, contents: SaveContents, data: GameData,
                 local: dict[str, envelope.RosterEntry]) -> None:
        self.home = Path(home)
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
    def open(cls, home: Path, game: str | None, role: str, password: str) -> "Session":
        home = Path(home)
        game = find_game(home, game)
        local = local_roles(home, game)
        if role not in local:
            plays = ", ".join(r for r in local) or "no role"
            raise NoGame(f"{role} is not played from this folder (it plays {plays})", hint="use --power to choose")
        return cls.open_with(home, game, open_identity(home, game, role, password))

    @classmethod
    def open_with(cls, home: Path, game: str, me: keys.Identity) -> "Session":
        """Open the save with an identity already unlocked (the demo keeps them open between slots)."""
        home = Path(home)
        local = local_roles(home, game)
        contents = savegame.load(GameFolders(home), game, me, local)
        # A role whose key the chain no longer holds (a replaced host, 000:208) is not played here any more.
        local = {r: e for r, e in local.items() if contents.chain.roster.get(r) == e}
        if me.role not in local:
            raise NoGame(f"{me.role}'s key in this folder is no longer the game's key for {me.role}: that role has been handed on (4.2.8)")
        s = cls(home, game, me, contents, GameData.from_obj(contents.game, folders.save_name(game)), local)
        s.flush_outbox()
        s._sync_battles()  # a battle question due since the last action, or a crash before its file (4.2.7)
        s._hand_over()
        return s

    def flush_outbox(self) -> Path | None:
        """Write the last turn file again if the save has it but commout/ does not (a crash in between)."""
        box = self.data.outbox
        if not box:
            return None
        path = self.folders.commout / box["name"]
        if path.exists():
            return None
        self.folders.put(self.folders.commout, box["name"], box["data"])
        self._draft(path, box["what"])
        self.data = replace(self.data, outbox={})
        self.save()
        return path

    @classmethod
    def create(cls, home: Path, game: str, me: keys.Identity, chain: Chain, data: GameData) -> "Session":
        home = Path(home)
        GameFolders(home).ensure()
        s = cls(home, game, me, SaveContents(chain, data.to_obj(), {}), data, local_roles(home, game))
        s._settle()  # a game may begin (or a backup resume) at an AI power's slot
        s.save()
        return s

    def save(self) -> None:
        self.contents = replace(self.contents, game=self.data.to_obj())
        savegame.store(self.folders, self.game, self.contents, self.me, also=self.local)
        self._monthly()

    def _monthly(self) -> Path | None:
        """The host keeps a save at the start of each month's diplomacy phase (000:216)."""
        st = self.state
        if "host" not in self.local or st.slot is None or st.slot.phase is not Phase.DIPLOMACY:
            return None
        if self.data.orders or self.data.taken or self.contents.chain.step is not None:
            return None
        path = self.folders.save / monthly_name(self.game, str(st.date))
        if path.exists():
            return None
        from eiapbem.pbem import atomic

        sealed = files.write_save(self.contents, self.me, also=self.local)
        assert sealed.dat is not None
        atomic.write_save_pair(path, sealed.data, sealed.dat)
        return path

    @property
    def state(self) -> GameState:
        return self.data.state

    @property
    def power(self) -> str:
        return self.me.role

    # -------------------------------------------------------------- the slot in play

    def slot_dice(self) -> Dice:
        """This power's dice for its file of the slot in play (fixed before it acts, 4.2.7)."""
        return pdice.dice_for_next(self.contents.chain, self.me)

    def taken(self, power: str | None = None) -> list:
        return _actions(self.data.taken.get(power or self.power, []), "the saved actions")

    def current(self) -> GameState:
        """The state as this power sees it now: the slot's start with its actions so far replayed.

        For the acting power of a sequential slot, the replay includes the
        defenders' answers received in battle files (``client/battles.py``); for
        a defender with a battle question open, it is the battle as the
        attacker's file shows it.
        """
        view = self._answer_view()
        if view is not None:
            return view
        if self._plays_slot():
            return self._play(self.taken()).state
        acts = self.taken()
        if not acts:
            return self.state
        return ai.apply_actions(self.state, self.power, acts, rules_context(self.slot_dice())).state

    def _plays_slot(self) -> bool:
        slot = self.state.slot
        return slot is not None and not slot.simultaneous and slot.power == self.power

    def _play(self, actions: list) -> battles.Played:
        """The slot replayed (``battles.play``); kept while the start state, actions and exchanges are the same."""
        fights = self._fights()
        key = canonical.encode([[engine.action_to_obj(a) for a in actions], self.data.battles.get("plan", []),
                                {b: [len(f["files"]), f["secret"]] for b, f in sorted(fights.items())}])
        cache = self._played
        if cache.get("state") is not self.data.state or cache.get("chain") is not self.contents.chain:
            cache.clear()
            cache.update(state=self.data.state, chain=self.contents.chain)
        if key not in cache:
            ctx = rules_context(battles.BattleDice(self.slot_dice()))
            cache[key] = battles.play(self.state, self.power, actions, self._exchanges(), ctx)
        return cache[key]

    def act(self, action: Any) -> engine.Outcome:
        """Take one action; refused with the rules' sentence, else kept in the save."""
        return self.act_many([action])

    def act_many(self, actions: list) -> engine.Outcome:
        """Take several actions in order (a loaded setup); all are kept, or none if one is refused."""
        state = self.current()
        slot = state.slot
        if slot is None:
            raise IllegalAction("the game is over; nothing more can be done")
        if slot.simultaneous and file_slot(self.state, self.power) in self.contents.chain.collected:
            raise IllegalAction(f"{self.power} has already sent its orders for {slot.key(state.date)}")
        if len(actions) == 1 and isinstance(actions[0], engine.AnswerDecision) and self._answer_entry(actions[0].decision):
            return self.answer_battle(actions[0])
        if self._plays_slot():
            self._notice(state)
            done = self._play(self.taken() + list(actions))
            out = engine.Outcome(done.state, tuple(done.state.log[len(state.log):]))
        else:
            out = ai.apply_actions(state, self.power, actions, rules_context(self.slot_dice()))
        key = file_slot(self.state, self.power)
        if not self.data.taken.get(self.power):
            self.contents, _ = self.contents.start(key)
        taken = dict(self.data.taken)
        taken[self.power] = list(taken.get(self.power, [])) + [engine.action_to_obj(a) for a in actions]
        self.data = replace(self.data, taken=taken)
        self._sync_battles()
        self.save()
        return out

    def restart(self) -> int:
        """Throw away the actions taken in this slot; the next start counts as a reload (4.2.7)."""
        for bid, f in sorted(self.data.battles.get("fights", {}).items()):
            if f["files"]:
                raise IllegalAction(
                    f"the battle in {f['area']} has exchanged battle files with {f['defender']}: its choices are fixed "
                    "(4.2.7, 000:176), so this slot cannot be restarted")
        taken = dict(self.data.taken)
        n = len(taken.pop(self.power, []))
        self.data = replace(self.data, taken=taken, battles={} if self._plays_slot() else self.data.battles)
        self.save()
        return n

    def reloads(self) -> int:
        return max(self.contents.starts.get(file_slot(self.state, self.power), 1) - 1, 0)

    # -------------------------------------------------------------- ending the phase

    def end_phase(self) -> Path:
        """"End Current Phase": check, write the turn file and its email draft, save."""
        state = self.state
        slot = state.slot
        if slot is None:
            raise IllegalAction("the game is over; nothing more can be done")
        engine.verify_actor(state, self.power)
        key = file_slot(state, self.power)
        chain = self.contents.chain
        if slot.simultaneous and key in chain.collected:
            raise IllegalAction(f"{self.power} has already sent its orders for {slot.key(state.date)}")
        if key not in self.contents.starts:
            self.contents, _ = self.contents.start(key)
        reloads = self.reloads()
        d = self.slot_dice()
        acts = self.taken()
        fights = {}
        if slot.simultaneous:
            ctx = rules_context(d)
            after = engine.check_orders(state, self.power, acts, ctx).state
        else:
            self._sync_battles()
            fights = self.data.battles.get("fights", {})
            for bid, f in sorted(fights.items()):
                if f["out"]:
                    raise IllegalAction(
                        f"{self.power} cannot end the phase yet: the battle in {f['area']} waits for {f['defender']}'s reply "
                        f"to battles/{f['name']} (4.2.7, 000:174)",
                        hint="'eiapbem status' says whom to send it to; load the reply with 'eiapbem load battles/FILE'")
            ctx = rules_context(battles.BattleDice(d))
            played = battles.play(state, self.power, acts, self._exchanges(), ctx)
            after = engine.end_slot(played.state, self.power, ctx).state
        body = {
            "slot": slot.key(state.date),
            "power": self.power,
            "actions": [engine.action_to_obj(a) for a in acts],
            "dice": d.to_obj(),
            "before": state.state_hash(),
            "after": after.state_hash(),
            "reloads": reloads,
            "state": after.encode(),
            "battles": {bid: f["files"] for bid, f in sorted(fights.items()) if f["files"]},
            "exchanges": list(self.data.battles.get("plan", [])),
        }
        sealed, new_chain = files.write_turn(chain, self.me, step_for(state), key, body, reloads=reloads)
        name = folders.turn_name(self.game, key)
        path = self.folders.commout / name
        outbox = {"name": name, "data": sealed.data, "what": slot.key(state.date)}
        taken = dict(self.data.taken)
        taken.pop(self.power, None)
        if slot.simultaneous:
            orders = dict(self.data.orders)
            orders[self.power] = body["actions"]
            self.data = replace(self.data, taken=taken, orders=orders, outbox=outbox)
        else:
            self.data = replace(self.data, state=after, taken=taken, outbox=outbox, battles={})
        self.contents = replace(self.contents, chain=new_chain)
        self._note(name, key, self.power, utc_now(), reloads)
        self._settle()
        self.save()  # first the save (it holds the file), then the file: a crash loses neither
        self.folders.put(self.folders.commout, name, sealed.data)
        self._draft(path, slot.key(state.date))
        self.data = replace(self.data, outbox={})  # written: a player may now clear commout/ freely
        self.save()
        return path

    def _note(self, name: str, slot: str, author: str, made: str, reloads: int) -> None:
        """Keep, for the host's status (4.2.8), the last file of the chain and the reloads reported (4.2.7)."""
        meta = dict(self.data.meta)
        meta["head"] = {"file": name, "slot": slot, "author": author, "made": made}
        if reloads:
            rl = dict(meta.get("reloads", {}))
            rl[author] = list(rl.get(author, [])) + [[slot, reloads]]
            meta["reloads"] = rl
        self.data = replace(self.data, meta=meta)

    def _resolve(self) -> None:
        """Every actor's orders are in: resolve the simultaneous slot in the fixed order (6.0).

        The AI powers' orders are made here, by every client alike, from the slot's common
        starting state and their own dice (``pdice.ai_dice``, fixed by the links the humans'
        files revealed).
        """
        state = self.state
        assert state.slot is not None
        orders = {p: _actions(a, f"the orders of {p}") for p, a in sorted(self.data.orders.items())}
        for p in state.slot.actors:
            if ai.is_ai(state, p):
                orders[p] = list(ai.orders(state, p, rules_context(pdice.ai_dice(self.contents.chain, file_slot(state, p)))))
        out = engine.resolve_slot(state, orders, rules_context(resolve_dice(self.contents.chain.head)))
        self.data = replace(self.data, state=out.state, orders={})

    def _settle(self) -> None:
        """THE place where the game moves on without a file: AI slots are played here.

        Called whenever the state or the chain moved (end-phase, a loaded turn or admin file,
        a new game, a join, a backup).  While the slot in play belongs to an AI power, every
        client plays it itself, deterministically (``eiapbem.ai.play_slot``, dice from
        ``pdice.ai_dice``): no file is written for it and nobody can forge it.  A simultaneous
        slot is resolved once every human actor's orders are in (the AI's orders are made in
        ``_resolve``).  If the computer cannot end a slot (``ai.AiStuck``), the game waits at it
        and the host's admin menu must move it on (skip).
        """
        while True:
            state = self.state
            slot = state.slot
            if slot is None or self.contents.chain.step is not None:
                return
            if slot.simultaneous:
                humans = [p for p in slot.actors if not ai.is_ai(state, p)]
                if any(p not in self.data.orders for p in humans):
                    return
                self._resolve()
                continue
            if not ai.is_ai(state, slot.power):
                return
            try:
                turn = ai.play_slot(state, slot.power, rules_context(pdice.ai_dice(self.contents.chain, slot.key(state.date))),
                                    setup=self.ai_setup(slot.power))
            except ai.AiStuck:
                return
            self.data = replace(self.data, state=turn.state)

    def ai_setup(self, power: str) -> list:
        """The shipped default setup an AI power loads in the setup phase (5.2.2); none in other phases."""
        slot = self.state.slot
        if slot is None or slot.phase is not Phase.SETUP:
            return []
        from eiapbem.client.setups import default_actions

        return default_actions(self.data.meta["scenario"], power, self.data.meta.get("based_on"))

    def _draft(self, path: Path, what: str) -> Path | None:
        """An email draft to every player not at this computer (4.2.5, 000:162)."""
        meta = self.data.meta
        me = Person(meta["host"]["name"], meta["host"]["email"]) if self.power == "host" else self.person(self.power)
        to = [self.person(p) for p in POWERS if p not in self.local and meta["players"][p]["type"] in ("client", "host")]
        if "host" not in self.local:
            host_power = next((p for p in POWERS if meta["players"][p]["type"] == "host"), None)
            if host_power is None and Person(meta["host"]["name"], meta["host"]["email"]) not in to:
                to.append(Person(meta["host"]["name"], meta["host"]["email"]))
        if not to:
            return None
        extra = []
        gs = self.folders.commout / folders.gamestart_name(self.game)
        if "host" in self.local and self.state.slot is not None and what.endswith("/setup/turn/RU") and gs.is_file():
            extra.append(gs)  # 4.2.2 step 4 (000:104): the host's Russian setup goes out with the gamestart
        return write_draft(path, me, to, subject_for(self.game, what), extra)

    def person(self, power: str) -> Person:
        row = self.data.meta["players"][power]
        return Person(row["name"], row["email"])

    # -------------------------------------------------------------- loading others' files

    def load_path(self, path: Path) -> str:
        """Load one file; return its slot.  Any refusal raises and leaves the save as it was."""
        if path.suffix == ".battle":
            return self.load_battle(path)
        data = folders.read_limited(path)
        slot = self._load_bytes(data, path.name)
        h = envelope.parse(data, path.name).header
        self._note(path.name, slot, h.author, file_time(path), h.reloads or 0)
        self.save()
        return slot

    def _load_bytes(self, data: bytes, name: str) -> str:
        state = self.state
        chain = self.contents.chain
        author = envelope.parse(data, name).header.author
        if author in self.local:
            raise OwnFile(f"{name} is your own file ({author}); a client never loads the files it made",
                          hint="to go back you need a backup from the host (4.2.8)")
        loaded = files.load_file(chain, data, [self.me], step_for(state), name, own=self.local)
        h = loaded.header
        if h.kind == "admin":
            return self._load_admin(loaded, name)
        if h.kind != "turn":
            raise WrongKind(f"{name} is a {h.kind} file, not a turn or admin file")
        body = loaded.body
        want = {"slot", "power", "actions", "dice", "before", "after", "reloads", "state", "battles", "exchanges"}
        if not isinstance(body, dict) or set(body) != want or body["power"] != h.author:
            raise BadEncoding(f"{name} does not hold a turn in the expected form")
        assert state.slot is not None
        if body["slot"] != state.slot.key(state.date):
            raise BadEncoding(f"{name} names the slot {body['slot']} inside but {h.slot} outside")
        where = f"{name} ({body['slot']})"
        if body["before"] != state.state_hash():
            raise OutOfSync(f"{OUT_OF_SYNC}: {where} starts from another state than yours",
                            hint="the host can send backups to bring everyone back in sync (4.2.8)")
        record = body["dice"]
        if not isinstance(record, dict):
            raise BadEncoding(f"{name} records its dice in an unknown form")
        assert loaded.seed is not None
        pdice.check_rolls(loaded.seed, record, name)
        d = Dice(loaded.seed, {k: v[1] for k, v in record.items()}, strict=True)
        acts = _actions(body["actions"], f"{name} actions")
        from eiapbem.client import external  # 4.1.1 Third Party Combat System: both sides signed the result

        external.check_actions(acts, chain.gid, chain.roster, name)
        if not isinstance(body["battles"], dict) or not isinstance(body["exchanges"], list):
            raise BadEncoding(f"{name} carries its battles in an unknown form")
        if state.slot.simultaneous and (body["battles"] or body["exchanges"]):
            raise BadEncoding(f"{name} carries battle files in a phase of orders")
        exs, opened = self._check_battle_files(chain, body, h.author, acts, name)
        try:
            if state.slot.simultaneous:
                after = engine.check_orders(state, h.author, acts, rules_context(d)).state
            else:
                ctx = rules_context(battles.BattleDice(d))
                played = battles.play(state, h.author, acts, exs, ctx)
                after = engine.end_slot(played.state, h.author, ctx).state
        except (IllegalAction, DiceError) as err:
            raise OutOfSync(f"{OUT_OF_SYNC}: {where} does not replay here: {err}") from err
        if not state.slot.simultaneous:
            battles.check_asked(opened, exs, played.asked, name)
        if d.to_obj() != {k: list(v) for k, v in record.items()}:
            raise OutOfSync(f"{OUT_OF_SYNC}: {where} records other dice than its actions roll")
        if after.state_hash() != body["after"]:
            try:
                diff = first_difference(after.to_obj(), GameState.decode(body["state"]).to_obj())
            except EiaError:
                diff = "(the file's state could not be read)"
            raise OutOfSync(f"{OUT_OF_SYNC}: {where} gives another state here; the first difference is at {diff}",
                            hint="the host can send backups to bring everyone back in sync (4.2.8)")
        if state.slot.simultaneous:
            orders = dict(self.data.orders)
            orders[h.author] = body["actions"]
            self.data = replace(self.data, orders=orders)
        else:
            self.data = replace(self.data, state=after, battles={})
        self.contents = replace(self.contents, chain=loaded.chain)
        self._settle()
        self.save()
        return body["slot"]

    def _load_admin(self, loaded: files.Loaded, name: str) -> str:
        """Replay a host admin file (4.2.8): its acts on the state, its player list into the save."""
        from eiapbem.rules import admin

        state = self.state
        if not state.options.allow_pbem_host_functions:
            raise WrongKind(f"{name} is a host admin file, but this game does not allow host functions (4.1.1, 000:32)",
                            hint="the option 'Allow PBEM Host Functions' was off when the game began")
        body = loaded.body
        if not isinstance(body, dict) or set(body) != {"acts", "before", "after", "meta", "state"}:
            raise BadEncoding(f"{name} does not hold admin acts in the expected form")
        where = f"{name} ({loaded.header.slot})"
        if body["before"] != state.state_hash():
            raise OutOfSync(f"{OUT_OF_SYNC}: {where} starts from another state than yours",
                            hint="the host can send backups to bring everyone back in sync (4.2.8)")
        acts = [admin.admin_from_obj(o, f"{name} acts[{i}]") for i, o in enumerate(body["acts"])]
        assert loaded.seed is not None
        try:
            after = admin.apply_all(state, acts, rules_context(Dice(loaded.seed)), setup_for=self.ai_setup).state
        except IllegalAction as err:
            raise OutOfSync(f"{OUT_OF_SYNC}: {where} does not replay here: {err}") from err
        if after.state_hash() != body["after"]:
            try:
                diff = first_difference(after.to_obj(), GameState.decode(body["state"]).to_obj())
            except EiaError:
                diff = "(the file's state could not be read)"
            raise OutOfSync(f"{OUT_OF_SYNC}: {where} gives another state here; the first difference is at {diff}")
        meta = body["meta"]
        if not isinstance(meta, dict) or set(meta.get("players", {})) != set(POWERS) or "host" not in meta:
            raise BadEncoding(f"{name} names the players in an unknown form")
        new_meta = dict(self.data.meta)
        new_meta["players"] = meta["players"]
        new_meta["host"] = meta["host"]
        taken = dict(self.data.taken)
        for a in acts:
            if isinstance(a, (admin.SkipSlot, admin.AiPlay, admin.ReplaceByAi)):
                taken.pop(a.power, None)  # the skipped slot is gone; its half-made actions with it
        same = (after.date, after.slot) == (state.date, state.slot)  # a skipped slot takes its battle files along
        self.data = replace(self.data, state=after, meta=new_meta, taken=taken, battles=self.data.battles if same else {})
        self.contents = replace(self.contents, chain=loaded.chain)
        self._settle()
        self.save()
        return loaded.header.slot

    def write_admin(self, acts: list, *, roster: dict | None = None, meta: dict | None = None) -> Path:
        """The host's admin file (4.2.8): acts applied here, the file and its draft to everyone in commout/."""
        from eiapbem.rules import admin

        state = self.state
        chain = self.contents.chain
        if chain.step is not None or self.data.orders:
            raise IllegalAction(
                f"the orders of {state.slot.key(state.date) if state.slot else 'this slot'} are still coming in; "
                "an admin act must wait until every power's orders are in (docs/file-format.md section 6)")
        out = admin.apply_all(state, acts, rules_context(pdice.dice_for_next(chain, self.me, "admin")), setup_for=self.ai_setup)
        new_meta = dict(self.data.meta)
        if meta is not None:
            new_meta.update(meta)
        body = {"acts": [admin.admin_to_obj(a) for a in acts], "before": state.state_hash(),
                "after": out.state.state_hash(), "meta": {"players": new_meta["players"], "host": new_meta["host"]},
                "state": out.state.encode()}
        sealed, new_chain = files.write_admin(chain, self.me, body, roster=roster)
        name = folders.admin_name(self.game, new_chain.seq)
        path = self.folders.commout / name
        what = f"admin {new_chain.seq}: " + ", ".join(a.KIND.split(".", 1)[1] for a in acts)
        taken = dict(self.data.taken)
        for a in acts:
            if isinstance(a, (admin.SkipSlot, admin.AiPlay, admin.ReplaceByAi)):
                taken.pop(a.power, None)
        same = (out.state.date, out.state.slot) == (state.date, state.slot)
        self.data = replace(self.data, state=out.state, meta=new_meta, taken=taken, battles=self.data.battles if same else {},
                            outbox={"name": name, "data": sealed.data, "what": what})
        self.contents = replace(self.contents, chain=new_chain)
        self._note(name, sealed.header.slot, "host", utc_now(), 0)
        self._settle()
        self.save()
        self.folders.put(self.folders.commout, name, sealed.data)
        self._draft(path, what)
        self.data = replace(self.data, outbox={})
        self.save()
        return path

    def load_all(self) -> Report:
        """Load every waiting file of this game in ``commin/``, in chain order."""
        rep = Report()
        pending = [p for p in self.folders.incoming(self.game) if p.suffix == ".pbm" and not p.name.endswith("_gamestart.pbm")]
        known = self.contents.chain.known
        waiting = []
        for p in pending:
            try:
                env = envelope.parse(folders.read_limited(p), p.name)
            except BadFile as err:
                rep.refused.append((p.name, str(err)))
                continue
            if crypto.file_hash(env) in known or env.header.author in self.local:
                continue
            if env.header.epoch < self.contents.chain.epoch:
                rep.obsolete.append(p.name)  # made before the host's backup (000:226): never loaded again
                continue
            waiting.append(p)
        progress = True
        errors: dict[str, str] = {}
        while waiting and progress:
            progress = False
            for p in list(waiting):
                before = self.save_snapshot()
                try:
                    slot = self.load_path(p)
                except AlreadyLoaded:
                    waiting.remove(p)
                    continue
                except EiaError as err:
                    self.restore_snapshot(before)
                    errors[p.name] = str(err)
                    continue
                rep.loaded.append((p.name, slot))
                waiting.remove(p)
                errors.pop(p.name, None)
                progress = True
        rep.refused.extend((p.name, errors.get(p.name, "not loaded")) for p in waiting)
        return rep

    def save_snapshot(self) -> tuple[SaveContents, GameData]:
        return self.contents, self.data

    def restore_snapshot(self, snap: tuple[SaveContents, GameData]) -> None:
        self.contents, self.data = snap

    # -------------------------------------------------------------- battles between two humans (4.2.7)

    def _fights(self) -> dict:
        return dict(self.data.battles.get("fights", {}))

    def _set_battles(self, **parts: Any) -> None:
        b = dict(self.data.battles)
        b.update(parts)
        self.data = replace(self.data, battles=b)

    def _opened(self) -> dict[str, list[battles.Opened]]:
        out = {}
        for bid, f in sorted(self._fights().items()):
            items = []
            for i, (data, fk) in enumerate(f["files"]):
                env = envelope.parse(data, f"battle file {i + 1} of {bid}")
                items.append(battles.Opened(env, crypto.open_body(env, fk), crypto.file_hash(env)))
            out[bid] = items
        return out

    def _exchanges(self) -> list[battles.Exchange]:
        """The exchanges done so far in the slot, from the acting power's own battle records."""
        fights = self._fights()
        plan = self.data.battles.get("plan", [])
        if not plan:
            return []
        secrets = {bid: f["secret"] for bid, f in fights.items() if f["secret"]}
        return battles.exchanges_of(self._opened(), plan, secrets, {bid: f["defender"] for bid, f in fights.items()},
                                    "your battle files", complete=False)

    def _notice(self, state: GameState) -> None:
        """Mark where a question for the other side of a battle arose (the state its file will show)."""
        fights = self._fights()
        changed = False
        for d in sorted(state.pending.values(), key=lambda d: d.id):
            if not battles.exchange_needed(state, d):
                continue
            bid = str(d.context["battle"])
            f = dict(fights.get(bid) or {"area": state.battles[bid].area, "defender": d.power, "record": None,
                                          "files": [], "secret": b"", "out": False, "ask": -1, "qask": -1,
                                          "closed": False, "name": ""})
            if not f["out"] and f["ask"] < 0:
                f["ask"] = len(self.data.taken.get(self.power, []))
                fights[bid] = f
                changed = True
        if changed:
            self._set_battles(fights=fights)

    def _sync_battles(self) -> list[Path]:
        """Write the battle files now due: a question once the acting power has nothing left to answer, an end."""
        if not self._plays_slot():
            return []
        written = []
        state = self._play(self.taken()).state
        self._notice(state)
        own = any(d.power == self.power for d in state.pending.values())
        for bid, f in sorted(self._fights().items()):
            if f["out"] or f["closed"]:
                continue
            if f["ask"] >= 0 and not own:
                written.append(self._write_question(bid, f))
            elif state.battles[bid].finished and f["files"]:
                written.append(self._write_close(bid, f, state.battles[bid].result))
        if written:
            self.save()
        return written

    def _battle_file(self, bid: str, f: dict, body: dict, *, commit: bytes | None, nonce: bytes | None) -> tuple[dict, Path]:
        chain = self.contents.chain
        st = self.state
        assert st.slot is not None
        record = Battle.from_obj(f["record"]) if f["record"] else Battle.begin(
            chain, battles.place_of(f["area"]), self.power, f["defender"])
        label = battles.slot_label(st.slot.key(st.date), f["area"], bid)
        sealed, record = files.write_battle(chain, record, self.me, label, body, commit=commit, nonce=nonce,
                                            reloads=self.reloads())
        env = envelope.parse(sealed.data, "your battle file")
        fk = crypto.unwrap_key(env, self.power, self.me.decrypter)
        name = battles.file_name(self.game, f["area"], bid)
        f = dict(f, record=record.to_obj(), files=list(f["files"]) + [[sealed.data, fk]], name=name)
        return f, self.folders.battles / name

    def _write_question(self, bid: str, f: dict) -> Path:
        """The attacker's battle file: the battle as it stands at the question, its nonce committed (7.2)."""
        ask = f["ask"]
        taken = self.data.taken.get(self.power, [])
        asked = self._play(self.taken()[:ask]).state
        questions = [d.id for d in battles.questions_for(asked, f["defender"], bid)]
        nonce = battle_nonce()
        st = self.state
        assert st.slot is not None
        body = {"battle": bid, "slot": st.slot.key(st.date), "ask": ask, "hidden": battles.hidden_commit(nonce, taken[ask:]),
                "state": asked.encode(), "hash": asked.state_hash(), "questions": questions}
        f, path = self._battle_file(bid, f, body, commit=pdice.commitment(nonce), nonce=f["secret"] or None)
        f.update(secret=nonce, out=True, qask=ask, ask=-1)
        fights = self._fights()
        fights[bid] = f
        self._set_battles(fights=fights)
        self.save()  # the nonce is kept before the file leaves
        self.folders.put(self.folders.battles, path.name, f["files"][-1][0])
        return path

    def _write_close(self, bid: str, f: dict, result: str) -> Path:
        """The attacker's last battle file: the result, and its last nonce revealed."""
        f, path = self._battle_file(bid, f, {"battle": bid, "result": result}, commit=None, nonce=f["secret"])
        f.update(secret=b"", closed=True)
        fights = self._fights()
        fights[bid] = f
        self._set_battles(fights=fights)
        self.save()
        self.folders.put(self.folders.battles, path.name, f["files"][-1][0])
        return path

    def _hand_over(self) -> None:
        """Hot-seat (4.2.1): the two sides of a battle play at this computer; their files need not travel.

        The defender's session takes the attacker's question from the save, the
        attacker's session the defender's reply; the files are the same signed
        files a remote opponent would send (docs/file-format.md 7.4).
        """
        fights = self._fights()
        answer = self.data.battles.get("answer", {})
        for bid, f in sorted(fights.items()):
            if not f["out"] or f["defender"] not in self.local:
                continue
            e = answer.get(bid)
            if self._plays_slot() and e is not None and e["sent"] and e.get("reply"):
                if crypto.file_hash(envelope.parse(e["reply"])) not in Battle.from_obj(f["record"]).known:
                    self._load_reply(bid, f, e["reply"], f["name"])
                    self.save()
            elif self.power == f["defender"]:
                q = f["files"][-1][0]
                if e is None or crypto.file_hash(envelope.parse(q)) not in Battle.from_obj(e["record"]).known:
                    self._load_question(envelope.parse(q, f["name"]), q, f["name"])
                    self.save()

    def load_battle(self, path: Path) -> str:
        """Load a battle file from the other side (4.2.7); any refusal leaves the save as it was."""
        data = folders.read_limited(path)
        name = path.name
        env = envelope.parse(data, name)
        h = env.header
        if h.kind != "battle":
            raise WrongKind(f"{name} is a {h.kind} file, not a battle file")
        chain = self.contents.chain
        chain.check_game(h, name)
        if h.author == self.power:
            raise OwnFile(f"{name} is your own battle file; send it to your opponent and load the reply that comes back")
        snap = self.save_snapshot()
        try:
            st = self.state
            fights = self._fights()
            for bid, f in sorted(fights.items() if self._plays_slot() else ()):
                if st.slot is not None and h.slot == battles.slot_label(st.slot.key(st.date), f["area"], bid):
                    what = self._load_reply(bid, f, data, name)
                    break
            else:
                what = self._load_question(env, data, name)
        except BaseException:
            self.restore_snapshot(snap)
            raise
        self.save()
        return what

    def _load_reply(self, bid: str, f: dict, data: bytes, name: str) -> str:
        record = Battle.from_obj(f["record"])
        record, h, body = files.load_battle(self.contents.chain, record, data, [self.me], name)
        if h.author != f["defender"]:
            raise AuthorNotAllowed(f"{name} is signed by {h.author}, but the reply must come from {f['defender']}")
        if h.nonce is None or h.commit is not None:
            raise BadDice(f"{name} does not carry the reply's nonce (docs/file-format.md 7.2)")
        if not isinstance(body, dict) or set(body) != battles.REPLY_KEYS or body["battle"] != bid:
            raise BadEncoding(f"{name} does not hold a battle reply in the expected form")
        env = envelope.parse(data, name)
        fk = crypto.unwrap_key(env, self.power, self.me.decrypter, name)
        f = dict(f, record=record.to_obj(), files=list(f["files"]) + [[data, fk]], out=False)
        fights = self._fights()
        fights[bid] = f
        plan = list(self.data.battles.get("plan", [])) + [[bid, f["qask"], len(self.data.taken.get(self.power, []))]]
        self._set_battles(fights=fights, plan=plan)
        try:
            self._play(self.taken())
        except (IllegalAction, DiceError) as err:
            raise OutOfSync(f"{name} answers the battle in {f['area']} in a way the rules refuse here: {err}") from err
        self._sync_battles()
        return f"battle in {f['area']}: {f['defender']}'s reply"

    def _load_question(self, env: envelope.Envelope, data: bytes, name: str) -> str:
        chain = self.contents.chain
        h = env.header
        chain.verify(env, name)
        fk = crypto.unwrap_key(env, self.power, self.me.decrypter, name)
        body = crypto.open_body(env, fk, name)
        if not isinstance(body, dict) or set(body) not in (battles.QUESTION_KEYS, battles.CLOSE_KEYS) \
                or not isinstance(body.get("battle"), str):
            raise BadEncoding(f"{name} does not hold a battle step in the expected form")
        bid = body["battle"]
        entries = dict(self.data.battles.get("answer", {}))
        e = entries.get(bid)
        st = self.state
        if st.slot is None or st.slot.simultaneous or h.author != st.slot.power:
            raise OutOfOrder(f"{name} is a battle of {h.author}'s slot, but the slot in play is "
                             f"{st.slot.key(st.date) if st.slot else 'none'}", hint="load the turn files in commin/ first")
        if e is None:
            if set(body) != battles.QUESTION_KEYS:
                raise OutOfOrder(f"{name} ends a battle whose earlier files you have not loaded")
            if h.prev != chain.head:
                raise OutOfOrder(f"{name} starts from a game file you have not loaded", hint="load the files in commin/ first")
            area = battles.area_of(bid)
            record = Battle.begin(chain, battles.place_of(area), h.author, self.power)
            e = {"power": self.power, "attacker": h.author, "area": area, "record": None, "state": b"", "questions": [],
                 "answers": [], "sent": False, "over": "", "name": name, "reply": b""}
        else:
            record = Battle.from_obj(e["record"])
        record = record.accept(chain, env, name, me=[self.power])
        if h.slot != battles.slot_label(st.slot.key(st.date), e["area"], bid):
            raise BadHeader(f"{name} is for {h.slot}, which is not a battle of the slot in play")
        if set(body) == battles.CLOSE_KEYS:
            if h.nonce is None or h.commit is not None:
                raise BadDice(f"{name} does not reveal the attacker's last nonce (docs/file-format.md 7.2)")
            e = dict(e, record=record.to_obj(), over=str(body["result"]), questions=[], answers=[])
            entries[bid] = e
            self._set_battles(answer=entries)
            return f"battle in {e['area']} is over: {body['result']}"
        if h.commit is None or (h.nonce is None) != (e["record"] is None):
            raise BadDice(f"{name} does not carry the commitment and nonce a question needs (docs/file-format.md 7.2)")
        asked = GameState.decode(body["state"])
        if asked.state_hash() != body["hash"] or asked.slot != st.slot or asked.date != st.date:
            raise BadEncoding(f"{name} shows a battle state of another slot")
        qs = body["questions"]
        if not isinstance(qs, list) or not qs or any(
                q not in asked.pending or asked.pending[q].power != self.power or asked.pending[q].context.get("battle") != bid
                for q in qs):
            raise NotForYou(f"{name} asks no question of {self.power}")
        e = dict(e, record=record.to_obj(), state=body["state"], questions=list(qs), answers=[], sent=False, name=name,
                 reply=b"")
        entries[bid] = e
        self._set_battles(answer=entries)
        return f"battle in {e['area']}: {h.author} asks {self.power} {len(qs)} question(s)"

    def _answer_entry(self, decision: str) -> tuple[str, dict] | None:
        for bid, e in sorted(self.data.battles.get("answer", {}).items()):
            if e["power"] == self.power and not e["sent"] and not e["over"]:
                view = self._view(e)
                if decision in view.pending:
                    return bid, e
        return None

    def _view(self, e: dict) -> GameState:
        """The battle as the defender sees it: the attacker's state with its own answers so far."""
        key = canonical.encode([e["state"], e["answers"]])
        if key in self._views:
            return self._views[key]
        state = GameState.decode(e["state"])
        ctx = rules_context(battles.NoRollDice())
        for o in e["answers"]:
            try:
                state = engine.apply_action(state, self.power, engine.action_from_obj(o), ctx).state
                state = battles.auto_answer(state, ctx)
            except battles.NoRoll:
                break
        self._views[key] = state
        return state

    def _answer_view(self) -> GameState | None:
        for _, e in sorted(self.data.battles.get("answer", {}).items()):
            if e["power"] == self.power and not e["over"] and e["state"]:
                return self._view(e)
        return None

    def answer_battle(self, action: engine.AnswerDecision) -> engine.Outcome:
        """The defender answers a question of a battle file; once the rules need dice, the reply file is written."""
        found = self._answer_entry(action.decision)
        assert found is not None
        bid, e = found
        view = self._view(e)
        ctx = rules_context(battles.NoRollDice())
        engine.verify_action(view, self.power, action, ctx)
        answers = list(e["answers"]) + [engine.action_to_obj(action)]
        try:
            after = engine.apply_action(view, self.power, action, ctx).state
            after = battles.auto_answer(after, ctx)
            # Go on answering only while the battle asks this power alone and needs no die: a question
            # for the attacker too (the chits) waits until the attacker has answered it (000:176).
            done = any(d.power != self.power for d in after.pending.values() if d.context.get("battle") == bid) \
                or not battles.questions_for(after, self.power, bid)
        except battles.NoRoll:
            after, done = view, True
        entries = dict(self.data.battles.get("answer", {}))
        if not done:
            entries[bid] = dict(e, answers=answers)
            self._set_battles(answer=entries)
            self.save()
            return engine.Outcome(after)
        st = self.state
        assert st.slot is not None
        record = Battle.from_obj(e["record"])
        label = battles.slot_label(st.slot.key(st.date), e["area"], bid)
        sealed, record = files.write_battle(self.contents.chain, record, self.me, label,
                                            {"battle": bid, "answers": answers}, nonce=battle_nonce())
        name = battles.file_name(self.game, e["area"], bid)
        entries[bid] = dict(e, record=record.to_obj(), answers=answers, sent=True, name=name, reply=sealed.data)
        self._set_battles(answer=entries)
        self.save()
        self.folders.put(self.folders.battles, name, sealed.data)
        self.last_battle_file = self.folders.battles / name
        return engine.Outcome(after)

    def _check_battle_files(self, chain: Chain, body: dict, author: str, acts: list, name: str) -> tuple:
        """Check the battle files a turn carries and derive its exchanges (docs/file-format.md 7.4)."""
        if not body["battles"] and not body["exchanges"]:
            return [], {}
        opened, defenders = {}, {}
        for bid, fl in sorted(body["battles"].items()):
            if not isinstance(bid, str) or not isinstance(fl, list) or len(fl) < 2:
                raise BadEncoding(f"{name} carries its battles in an unknown form")
            try:
                defender = envelope.parse(fl[1][0], f"battle file 2 of {bid}").header.author
            except (TypeError, IndexError, KeyError) as err:
                raise BadEncoding(f"{name} carries its battles in an unknown form") from err
            opened[bid], _ = battles.check_files(chain, bid, battles.area_of(bid), author, defender, body["slot"], fl, name)
            defenders[bid] = defender
        exs = battles.exchanges_of(opened, body["exchanges"], {}, defenders, name)
        battles.check_plan(exs, len(acts), name)
        battles.check_hidden(opened, exs, {}, body["actions"], name)
        return exs, opened

    def battle_lines(self) -> list[str]:
        """What the battles of the slot in play need from this player (for ``eiapbem status``)."""
        from eiapbem.rules.model import POWER_NAMES

        meta = self.data.meta
        out = []

        def who(p: str) -> str:
            row = meta["players"][p]
            return f"{POWER_NAMES[p]} ({row['name']} <{row['email']}>)"

        for bid, f in sorted(self._fights().items()):
            if f["out"] and f["defender"] in self.local:
                out.append(f"Battle in {f['area']} ({bid}): {POWER_NAMES[f['defender']]} plays at this computer and must answer: "
                           f"'eiapbem status --power {f['defender']}' shows its question (4.2.7)")
            elif f["out"]:
                out.append(f"Battle in {f['area']} ({bid}): send battles/{f['name']} to {who(f['defender'])}; the game waits "
                           f"for {POWER_NAMES[f['defender']]}'s reply: put it in battles/ (replacing the old file) and run "
                           f"'eiapbem load battles/{f['name']}' (4.2.7)")
            elif f["closed"]:
                out.append(f"Battle in {f['area']} ({bid}) is over; battles/{f['name']} tells {POWER_NAMES[f['defender']]} the "
                           "result (send it if you like); your turn file carries the whole battle to every player")
        for bid, e in sorted(self.data.battles.get("answer", {}).items()):
            if e["power"] != self.power:
                continue
            if e["over"]:
                out.append(f"Battle in {e['area']} ({bid}) is over: {e['over']}; wait for {POWER_NAMES[e['attacker']]}'s turn file")
            elif e["sent"] and e["attacker"] in self.local:
                out.append(f"Battle in {e['area']} ({bid}): your reply is in; {POWER_NAMES[e['attacker']]} plays at this "
                           f"computer and goes on: 'eiapbem status --power {e['attacker']}'")
            elif e["sent"]:
                out.append(f"Battle in {e['area']} ({bid}): send your reply battles/{e['name']} to {who(e['attacker'])}; "
                           f"then wait for {POWER_NAMES[e['attacker']]}'s next battle file")
            else:
                view = self._view(e)
                for d in battles.questions_for(view, self.power, bid):
                    out.append(f"Battle in {e['area']} ({bid}): {POWER_NAMES[e['attacker']]} asks {self.power} {d.kind} "
                               f"({'/'.join(d.options)}): 'eiapbem answer {d.id} CHOICE'; "
                               f"'eiapbem battle report {bid}' shows the battle")
        return out

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
