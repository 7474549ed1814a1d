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
from eiapbem.errors import BadEncoding, EiaError, IllegalAction
from eiapbem.pbem import crypto, dice as pdice, envelope, files, folders, keys, savegame
from eiapbem.pbem.chain import Chain, Step
from eiapbem.pbem.email import Person, subject_for, write_draft
from eiapbem.pbem.errors import AlreadyLoaded, BadFile, Obsolete, OutOfSync, OwnFile, WrongKind
from eiapbem.pbem.files import SaveContents
from eiapbem.pbem.folders import GameFolders
from eiapbem.rules import engine
from eiapbem.rules.dice import Dice, DiceError
from eiapbem.rules.model import POWERS, GameState, Phase, first_difference

#: Tests (and only tests) may set this to "logn,r,p" for fast key files; real games never do.
TEST_SCRYPT_ENV = "EIAPBEM_TEST_SCRYPT"
#: The manual's words for a file that does not replay to the same state (4.2.8, 000:212).
OUT_OF_SYNC = "Turn file out of sync \u2013 contact game host"
PLAYER_TYPES = ("host", "client", "hotseat", "ai-easy", "ai-medium", "ai-hard")


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

    def to_obj(self) -> dict:
        return {"state": self.state.encode(), "meta": self.meta, "taken": self.taken, "orders": self.orders,
                "outbox": self.outbox}

    @classmethod
    def from_obj(cls, o: Any, name: str) -> "GameData":
        if not isinstance(o, dict) or set(o) != {"state", "meta", "taken", "orders", "outbox"}:
            raise BadEncoding(f"{name} does not hold a game in the expected form")
        return cls(GameState.decode(o["state"]), o["meta"], dict(o["taken"]), dict(o["orders"]), dict(o["outbox"]))


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
        """The state as this power sees it now: the slot's start with its actions so far replayed."""
        acts = self.taken()
        if not acts:
            return self.state
        return ai.apply_actions(self.state, self.power, acts, rules_context(self.slot_dice())).state

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
        out = ai.apply_actions(state, self.power, actions, rules_context(self.slot_dice()))
        key = file_slot(self.state, self.power)
        if not self.data.taken.get(self.power):
            self.contents, _ = self.contents.start(key)
        taken = dict(self.data.taken)
        taken[self.power] = list(taken.get(self.power, [])) + [engine.action_to_obj(a) for a in actions]
        self.data = replace(self.data, taken=taken)
        self.save()
        return out

    def restart(self) -> int:
        """Throw away the actions taken in this slot; the next start counts as a reload (4.2.7)."""
        taken = dict(self.data.taken)
        n = len(taken.pop(self.power, []))
        self.data = replace(self.data, taken=taken)
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
        ctx = rules_context(d)
        acts = self.taken()
        if slot.simultaneous:
            after = engine.check_orders(state, self.power, acts, ctx).state
        else:
            out = ai.apply_actions(state, self.power, acts, ctx)
            after = engine.end_slot(out.state, self.power, ctx).state
        body = {
            "slot": slot.key(state.date),
            "power": self.power,
            "actions": [engine.action_to_obj(a) for a in acts],
            "dice": d.to_obj(),
            "before": state.state_hash(),
            "after": after.state_hash(),
            "reloads": reloads,
            "state": after.encode(),
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
            self.data = replace(self.data, state=after, taken=taken, outbox=outbox)
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

        return default_actions(self.data.meta["scenario"], power)

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
        want = {"slot", "power", "actions", "dice", "before", "after", "reloads", "state"}
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
        ctx = rules_context(d)
        acts = _actions(body["actions"], f"{name} actions")
        try:
            if state.slot.simultaneous:
                after = engine.check_orders(state, h.author, acts, ctx).state
            else:
                out = ai.apply_actions(state, h.author, acts, ctx)
                after = engine.end_slot(out.state, h.author, ctx).state
        except (IllegalAction, DiceError) as err:
            raise OutOfSync(f"{OUT_OF_SYNC}: {where} does not replay here: {err}") from err
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
            self.data = replace(self.data, state=after)
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
        self.data = replace(self.data, state=after, meta=new_meta, taken=taken)
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
        self.data = replace(self.data, state=out.state, meta=new_meta, taken=taken,
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
