"""Turn files: ending the slot in play and loading the others' files, on ``rules.turn.play_turn`` (4.2.2-4.2.8).

The save holds the state at the start of the slot in play and the actions each
local power has taken so far in it (so a player can stop and resume; the first
action of a slot counts a start, and ``restart`` throws the actions away,
counting a reload, 4.2.7).  The state during the slot is always the start
state with the actions replayed under the slot's dice, which are fixed before
the player acts (``pbem.dice``), so stopping and resuming changes nothing.

Every turn file's body is a ``pbem.bodies.TurnBody`` (docs/file-format.md 5):
the slot, the power, its actions, the record of rolls, the state hashes before
and after, the reloads (equal to the signed header's), the public log lines
the slot made (``events``, for every reader's journal), a digest of each part
of the state after (``parts``, to name the first differing part when a
replay disagrees: the file no longer carries the whole state), and the battle
files exchanged with a human defender with where their replies come.  The
writer (``end_phase``) and every reader (``_load_bytes``) compute the state
after with the same function, ``rules.turn.play_turn``, the computer players
passed in.

Host admin files (4.2.8) are loaded in the same chain; their body is a
``pbem.bodies.AdminBody``: the acts, the hashes before and after, who plays
what after them, the log lines and the parts.  They are refused unless signed
by the game's host key (the chain checks the signature against the roster) and
unless the game option "Allow PBEM Host Functions" is on.
"""

from __future__ import annotations

import hashlib
from dataclasses import replace
from pathlib import Path
from typing import Any, Iterable

from eiapbem import ai
from eiapbem.core import canonical
from eiapbem.core.dice import Dice, DiceError
from eiapbem.core.errors import BadEncoding, IllegalAction, quoted
from eiapbem.data.context import rules_context
from eiapbem.pbem import bodies, dice as pdice, files, folders
from eiapbem.pbem.chain import Step
from eiapbem.pbem.errors import OUT_OF_SYNC, OutOfSync, OwnFile, WrongKind  # OUT_OF_SYNC: the manual's words, 000:212
from eiapbem.rules import engine, turn
from eiapbem.rules.model import POWERS, GameState

from . import battles, forks, inbox, upgrade
from .inbox import Report
from . import orders as sealed_orders
from .autoplay import AutoPlay
from .exchange import BattleExchange
from .outbox import Outbox
from .store import file_time, game_names, utc_now

#: The parts of the state a turn or admin file names by digest (``state_parts``): every field, and each power.
_SPLIT = ("powers",)


def state_parts(state: GameState) -> dict[str, bytes]:
    """A short digest of each part of the state: each top-level field, and each power (8 bytes each).

    A reader whose replay gives another hash names the first part whose digest
    differs (``first_part``), without the writer sending its whole state.
    """
    out = {}
    for k, _, data in state.encoded_fields():  # the encodings the state hash is made of (remembered)
        if k in _SPLIT:
            for sub, w in state.encoded_entries(k):
                out[f"{k}.{sub}"] = hashlib.sha256(w).digest()[:8]
        else:
            out[k] = hashlib.sha256(data).digest()[:8]
    return out


def where_is(state: GameState) -> str:
    """The point a state is at: its slot key, or "game over"."""
    return state.slot.key(state.date) if state.slot else "game over"


def first_part(mine: GameState, theirs: Any) -> str:
    """The first part of the state where this replay and the file's digests differ."""
    own = state_parts(mine)
    for k in sorted(set(own) | set(theirs)):
        if own.get(k) != theirs.get(k):
            return k
    return "(no part: the parts agree but the hashes do not)"


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


def _actions(objs: Iterable[Any], where: str) -> list:
    return [engine.action_from_obj(o, f"{where}[{i}]") for i, o in enumerate(objs)]


class Turns(BattleExchange, AutoPlay, Outbox):
    """The slot in play, ending it (the turn file) and loading the others' files, on ``rules.turn.play_turn``."""

    #: ``eiapbem audit`` replays this folder's own files too (``client/audit.py``); a player never does.
    replays_own = False

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
        if self.plays_slot():
            return self._play(self.taken()).state
        acts = self.taken()
        if not acts:
            return self.state
        return ai.apply_actions(self.state, self.power, acts, rules_context(self.slot_dice())).state

    def plays_slot(self) -> bool:
        slot = self.state.slot
        return slot is not None and not slot.simultaneous and slot.power == self.power

    def _play(self, actions: list) -> turn.Played:
        """The slot replayed so far (``rules.turn.play``, not ended); kept while the start state, actions and exchanges are the same."""
        fights = self.fights()
        key = canonical.encode([[engine.action_to_obj(a) for a in actions], self.data.battles.get("plan", []),
                                {b: [len(f["files"]), f["secret"]] for b, f in sorted(fights.items())}])
        cache = self._played
        if cache.get("state") is not self.data.state or cache.get("chain") is not self.contents.chain:
            cache.clear()
            cache.update(state=self.data.state, chain=self.contents.chain)
        if key not in cache:
            ctx = rules_context(battles.BattleDice(self.slot_dice()))
            cache[key] = turn.play(self.state, self.power, actions, self._exchanges(), ctx, ai)
        return cache[key]

    def act(self, action: Any) -> engine.Outcome:
        """Take one action; refused with the rules' sentence, else kept in the save."""
        return self.act_many([action])

    def act_many(self, actions: list) -> engine.Outcome:
        """Take several actions in order (a loaded setup); all are kept, or none if one is refused."""
        upgrade.plays_here(self)
        state = self.current()
        slot = state.slot
        if slot is None:
            raise IllegalAction("the game is over; nothing more can be done")
        if slot.simultaneous and file_slot(self.state, self.power) in self.contents.chain.collected:
            raise IllegalAction(f"{self.power} has already sent its orders for {slot.key(state.date)}")
        if len(actions) == 1 and isinstance(actions[0], engine.AnswerDecision) and self.answer_entry(actions[0].decision):
            return self.answer_battle(actions[0])
        if self.plays_slot():
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
        self.data = replace(self.data, taken=taken, battles={} if self.plays_slot() else self.data.battles)
        self.save()
        return n

    def reloads(self) -> int:
        return max(self.contents.starts.get(file_slot(self.state, self.power), 1) - 1, 0)

    # -------------------------------------------------------------- ending the phase

    def end_phase(self) -> Path:
        """"End Current Phase": check, write the turn file and its email draft, save."""
        upgrade.plays_here(self)
        state = self.state
        slot = state.slot
        if slot is None:
            raise IllegalAction("the game is over; nothing more can be done")
        engine.verify_actor(state, self.power)
        for part in (self.folders.commout, self.folders.save):
            folders.check_folder(part)  # before the save says the file is sent (issue 20)
        behind = inbox.behind_sentence(self)  # a save older than its own file would fork the game (issue 29)
        if behind:
            raise IllegalAction(behind[0].upper() + behind[1:])
        point = forks.point_before(self)
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
        if not slot.simultaneous:
            self._sync_battles()
            fights = self.data.battles.get("fights", {})
            for bid, f in sorted(fights.items()):
                if f["out"]:
                    raise IllegalAction(
                        f"{self.power} cannot end the phase yet: the battle in {f['area']} waits for {f['defender']}'s reply "
                        f"to battles/{f['name']} (4.2.7, 000:174)",
                        hint="'eiapbem status' says whom to send it to; load the reply with 'eiapbem load battles/FILE'")
        meta = self.data.meta
        if slot.simultaneous:  # the sealed diplomacy phase: a commitment, then the reveal (client/orders.py)
            acts, meta = sealed_orders.file_actions(meta, state, self.power, acts, rules_context(d), rng=self.rng)
        played = turn.play_turn(state, self.power, acts, d, rules_context, ai,
                                exchanges=() if slot.simultaneous else self._exchanges())
        after = played.state
        self.data = replace(self.data, meta=meta)
        body = bodies.TurnBody(
            slot=slot.key(state.date),
            power=self.power,
            actions=tuple(engine.action_to_obj(a) for a in acts),
            dice=d.to_obj(),
            before=state.state_hash(),
            after=after.state_hash(),
            at=where_is(after),
            reloads=reloads,
            events=() if slot.simultaneous else tuple(e.to_obj() for e in played.events),
            parts=state_parts(after),
            battles={bid: tuple(tuple(x) for x in f["files"]) for bid, f in sorted(fights.items()) if f["files"]},
            exchanges=tuple(tuple(x) for x in self.data.battles.get("plan", [])),
        ).to_obj()
        sealed, new_chain = files.write_turn(chain, self.me, step_for(state), key, body, reloads=reloads, rng=self.rng)
        name = folders.turn_name(self.game, key)
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
        forks.keep(self, point)
        self.save()  # first the save (it holds the file), then the file: a crash loses neither
        return self.send(name, sealed.data, slot.key(state.date))

    def _note(self, name: str, slot: str, author: str, made: str, reloads: int) -> None:
        """Keep, for the host's status (4.2.8), the last file of the chain and the reloads reported (4.2.7)."""
        meta = dict(self.data.meta)
        meta["head"] = {"file": name, "slot": slot, "author": author, "made": made}
        if reloads:
            rl = dict(meta.get("reloads", {}))
            rl[author] = list(rl.get(author, [])) + [[slot, reloads]]
            meta["reloads"] = rl
        self.data = replace(self.data, meta=meta)


    # -------------------------------------------------------------- loading others' files

    def load_path(self, path: Path) -> str:
        """Load one file; return its slot.  Any refusal raises and leaves the save as it was."""
        if path.suffix == ".battle":
            return self.load_battle(path)
        return self.load_received(files.read_file(path), file_time(path))

    def load_received(self, rec: files.Received, made: str) -> str:
        """Load one file already read and parsed (``files.Received``, parsed once); return its slot.

        ``made`` is when it was made, for the host's status.  Any refusal raises and leaves the save as it was."""
        point = forks.point_before(self)  # the state at this point, should a fork make this folder come back to it
        forks.check(self, rec)  # a fork is named; the host's act wins (issue 20, 4.2.8)
        slot = self._load_bytes(rec, rec.name, save=False)  # one durable save per file, below (issue 18)
        forks.keep(self, point)
        h = rec.header
        self._note(rec.name, slot, h.author, made, getattr(h, "reloads", 0))
        self.save()
        inbox.keep_received(self.folders, rec.name, rec.data)  # for 'eiapbem audit' (issue 20)
        return slot

    def _load_bytes(self, data: bytes | files.Received, name: str, *, save: bool = True) -> str:
        """Check and replay one turn or admin file; saved unless ``save`` is False (the caller saves, once)."""
        state = self.state
        chain = self.contents.chain
        rec = files.receive(data, name)
        author = rec.header.author
        if author in self.local and not self.replays_own:
            raise OwnFile(f"{name} is your own file ({author}); a client never loads the files it made",
                          hint="to go back you need a backup from the host (4.2.8)")
        if rec.header.kind == "upgrade":
            return upgrade.load(self, rec, name, save)  # the game moves to a newer eiapbem (client/upgrade.py)
        upgrade.plays_here(self)
        loaded = files.load_file(chain, rec, [self.me], step_for(state), name, own=self.local,
                                 own_ok=self.replays_own)
        h = loaded.header
        if h.kind == "admin":
            return self._load_admin(loaded, name, save)
        if h.kind != "turn":
            raise WrongKind(f"{name} is a {h.kind} file, not a turn or admin file")
        tb = bodies.decode(bodies.TurnBody, loaded.body, name, "a turn")
        tb.agree(h.author, getattr(h, "reloads", 0), name)
        body = tb.to_obj()
        assert state.slot is not None
        if body["slot"] != state.slot.key(state.date):
            raise BadEncoding(f"{name} names the slot {quoted(body['slot'])} inside but {h.slot} outside")
        where = f"{name} ({body['slot']})"
        if body["before"] != state.state_hash():
            raise OutOfSync(f"{OUT_OF_SYNC}: {where} starts from another state than yours",
                            hint="the host can send backups to bring everyone back in sync (4.2.8)")
        record = body["dice"]
        assert loaded.seed is not None
        pdice.check_rolls(loaded.seed, record, name)
        d = Dice(loaded.seed, {k: v[1] for k, v in record.items()}, strict=True)
        acts = _actions(body["actions"], f"{name} actions")
        from eiapbem.client import external  # 4.1.1 Third Party Combat System: both sides signed the result

        external.check_actions(acts, chain.gid, chain.roster, name)
        if state.slot.simultaneous and (body["battles"] or body["exchanges"]):
            raise BadEncoding(f"{name} carries battle files in a phase of orders")
        exs, opened = self._check_battle_files(chain, body, h.author, acts, name)
        if state.slot.simultaneous:
            sealed_orders.check_file(state, h.author, acts, name)  # a reveal must match its commitment
        try:
            played = turn.play_turn(state, h.author, acts, d, rules_context, ai, exchanges=exs)
        except (IllegalAction, DiceError) as err:
            raise OutOfSync(f"{OUT_OF_SYNC}: {where} does not replay here: {err}") from err
        after = played.state
        if not state.slot.simultaneous:
            battles.check_asked(opened, exs, played.asked, name)
        if d.to_obj() != record:
            raise OutOfSync(f"{OUT_OF_SYNC}: {where} records other dice than its actions roll")
        if after.state_hash() != body["after"]:
            raise OutOfSync(f"{OUT_OF_SYNC}: {where} gives another state here; the first difference is in "
                            f"{first_part(after, body['parts'])}",
                            hint="the host can send backups to bring everyone back in sync (4.2.8)")
        events = [] if state.slot.simultaneous else [e.to_obj() for e in played.events]
        if events != body["events"]:
            raise OutOfSync(f"{OUT_OF_SYNC}: {where} reports other log lines than its replay gives here",
                            hint="the host can send backups to bring everyone back in sync (4.2.8)")
        if state.slot.simultaneous:
            orders = dict(self.data.orders)
            orders[h.author] = body["actions"]
            self.data = replace(self.data, orders=orders)
        else:
            self.data = replace(self.data, state=after, battles={})
        self.contents = replace(self.contents, chain=loaded.chain)
        self._settle()
        if save:
            self.save()
        return body["slot"]

    def _load_admin(self, loaded: files.Loaded, name: str, save: bool = True) -> str:
        """Replay a host admin file (4.2.8): its acts on the state, its player list into the save."""
        from eiapbem.rules import admin

        state = self.state
        if not state.options.allow_pbem_host_functions:
            raise WrongKind(f"{name} is a host admin file, but this game does not allow host functions (4.1.1, 000:32)",
                            hint="the option 'Allow PBEM Host Functions' was off when the game began")
        body = bodies.decode(bodies.AdminBody, loaded.body, name, "admin acts").to_obj()
        where = f"{name} ({loaded.header.slot})"
        if body["before"] != state.state_hash():
            raise OutOfSync(f"{OUT_OF_SYNC}: {where} starts from another state than yours",
                            hint="the host can send backups to bring everyone back in sync (4.2.8)")
        acts = [admin.admin_from_obj(o, f"{name} acts[{i}]") for i, o in enumerate(body["acts"])]
        assert loaded.seed is not None
        n_log = len(state.log)
        try:
            after = admin.apply_all(state, acts, rules_context(Dice(loaded.seed)), setup_for=self.ai_setup,
                                    computer=ai.play_slot).state
        except IllegalAction as err:
            raise OutOfSync(f"{OUT_OF_SYNC}: {where} does not replay here: {err}") from err
        if after.state_hash() != body["after"]:
            raise OutOfSync(f"{OUT_OF_SYNC}: {where} gives another state here; the first difference is in "
                            f"{first_part(after, body['parts'])}")
        if [e.to_obj() for e in after.log[n_log:]] != body["events"]:
            raise OutOfSync(f"{OUT_OF_SYNC}: {where} reports other log lines than its replay gives here")
        meta = body["meta"]
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
        if save:
            self.save()
        return loaded.header.slot

    def write_admin(self, acts: list, *, roster: dict | None = None, meta: dict | None = None) -> Path:
        """The host's admin file (4.2.8): acts applied here, the file and its draft to everyone in commout/."""
        from eiapbem.rules import admin

        upgrade.plays_here(self)
        state = self.state
        chain = self.contents.chain
        if chain.step is not None or self.data.orders:
            raise IllegalAction(
                f"the orders of {state.slot.key(state.date) if state.slot else 'this slot'} are still coming in; "
                "an admin act must wait until every power's orders are in (docs/file-format.md section 6)")
        out = admin.apply_all(state, acts, rules_context(pdice.dice_for_next(chain, self.me, "admin")), setup_for=self.ai_setup,
                              computer=ai.play_slot)
        new_meta = dict(self.data.meta)
        if meta is not None:
            new_meta.update(meta)
        body = bodies.AdminBody(
            acts=tuple(admin.admin_to_obj(a) for a in acts), before=state.state_hash(), after=out.state.state_hash(), at=where_is(out.state),
            meta=bodies.Roster.from_obj({"players": new_meta["players"], "host": new_meta["host"]}),
            events=tuple(e.to_obj() for e in out.state.log[len(state.log):]), parts=state_parts(out.state)).to_obj()
        sealed, new_chain = files.write_admin(chain, self.me, body, roster=roster, rng=self.rng)
        name = folders.admin_name(self.game, new_chain.seq)
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
        return self.send(name, sealed.data, what)

    def load_all(self) -> Report:
        """Load every waiting file of this game in ``commin/``, in chain order (``client/inbox.py``)."""
        return inbox.load_waiting(self, game_names(self.home))

