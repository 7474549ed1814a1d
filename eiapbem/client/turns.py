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
writer (``end_phase``) and every reader (``load_bytes``) compute the state
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
from typing import Any, Mapping

from eiapbem import ai
from eiapbem.core.dice import Dice, DiceError
from eiapbem.core.errors import BadEncoding, IllegalAction, brief, quoted
from eiapbem.data.context import rules_context
from eiapbem.core.frozenmap import FrozenMap
from eiapbem.pbem import bodies, dice as pdice, files, folders
from eiapbem.pbem.bodies import BattleBook
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
from .slot import SlotPlay, actions_of, file_slot
from .store import Store, file_time, game_names, utc_now

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


def step_for(state: GameState) -> Step | None:
    """What the chain may accept now: the slot's power, or every human actor of a simultaneous slot in fixed order.

    An AI power writes no file (every client plays its slots, ``AutoPlay.settle``), so it is never in a step.
    """
    slot = state.slot
    if slot is None:
        return None
    if slot.power is None:  # a simultaneous slot
        return Step.together((file_slot(state, p), [p]) for p in POWERS if p in slot.actors and not ai.is_ai(state, p))
    return Step.one(slot.key(state.date), slot.power)


class Turns:
    """The slot in play, ending it (the turn file) and loading the others' files, on ``rules.turn.play_turn``.

    It is given what it calls: the save (``Store``), the slot in play (``SlotPlay``), the battle files
    (``BattleExchange``), the computer's slots (``AutoPlay``) and the files going out (``Outbox``).
    """

    def __init__(self, store: Store, slot: SlotPlay, exchange: BattleExchange, auto: AutoPlay, outbox: Outbox, *,
                 replays_own: bool = False) -> None:
        self.store = store
        self.slot = slot
        self.exchange = exchange
        self.auto = auto
        self.outbox = outbox
        #: ``eiapbem audit`` replays this folder's own files too (``client/audit.py``); a player never does.
        self.replays_own = replays_own

    # -------------------------------------------------------------- the slot in play

    def current(self) -> GameState:
        """The state as this power sees it now: the slot's start with its actions so far replayed.

        For the acting power of a sequential slot, the replay includes the
        defenders' answers received in battle files (``client/battles.py``); for
        a defender with a battle question open, it is the battle as the
        attacker's file shows it.
        """
        view = self.exchange.answer_view()
        if view is not None:
            return view
        if self.slot.plays():
            return self.slot.play(self.slot.taken()).state
        acts = self.slot.taken()
        if not acts:
            return self.store.state
        return ai.apply_actions(self.store.state, self.store.power, acts, rules_context(self.slot.dice())).state

    def act(self, action: Any) -> engine.Outcome:
        """Take one action; refused with the rules' sentence, else kept in the save."""
        return self.act_many([action])

    def act_many(self, actions: list) -> engine.Outcome:
        """Take several actions in order (a loaded setup); all are kept, or none if one is refused."""
        upgrade.plays_here(self.store)
        state = self.current()
        slot = state.slot
        if slot is None:
            raise IllegalAction("the game is over; nothing more can be done")
        if slot.simultaneous and file_slot(self.store.state, self.store.power) in self.store.contents.chain.collected:
            raise IllegalAction(f"{self.store.power} has already sent its orders for {slot.key(state.date)}")
        if not all(isinstance(a, engine.AnswerDecision) for a in actions):
            sealed_orders.refuse_in_reveal(state, self.store.power)
        if len(actions) == 1 and isinstance(actions[0], engine.AnswerDecision) and self.exchange.answer_entry(actions[0].decision):
            return self.exchange.answer_battle(actions[0])
        plans = [a for a in actions if getattr(a, "KIND", "") == turn.PLAN]
        if len(actions) == 1 and plans and self.exchange.plan_entry(plans[0].battle):
            return self.exchange.answer_battle(plans[0])  # the defender's standing orders for the whole battle: the reply
        for a in plans:
            f = self.store.data.battles.fights.get(a.battle)
            if f is not None and f.out:
                raise IllegalAction(
                    f"the question file of the battle {a.battle} has gone to {f.defender}: your standing orders for "
                    "the battle are given before your last answer of the round, so that they travel sealed with the "
                    "question (docs/file-format.md 7.4)")
        if self.slot.plays():
            self.exchange.notice(state)
            done = self.slot.play(self.slot.taken() + list(actions))
            out = engine.Outcome(done.state, tuple(done.state.log[len(state.log):]))
        else:
            out = ai.apply_actions(state, self.store.power, actions, rules_context(self.slot.dice()))
        key = file_slot(self.store.state, self.store.power)
        if not self.store.data.taken.get(self.store.power):
            self.store.contents, _ = self.store.contents.start(key)
        taken = dict(self.store.data.taken)
        taken[self.store.power] = list(taken.get(self.store.power, [])) + [engine.action_to_obj(a) for a in actions]
        self.store.data = replace(self.store.data, taken=taken)
        self.exchange.sync()
        self.store.save()
        return out

    def restart(self) -> int:
        """Throw away the actions taken in this slot; the next start counts as a reload (4.2.7)."""
        for bid, f in self.store.data.battles.fights.items():
            if f.files:
                raise IllegalAction(
                    f"the battle in {f.area} has exchanged battle files with {f.defender}: its choices are fixed "
                    "(4.2.7, 000:176), so this slot cannot be restarted")
        taken = dict(self.store.data.taken)
        n = len(taken.pop(self.store.power, []))
        self.store.data = replace(self.store.data, taken=taken, battles=BattleBook() if self.slot.plays() else self.store.data.battles)
        self.store.save()
        return n

    # -------------------------------------------------------------- ending the phase

    def order_ahead(self, action: Any) -> int:
        """Give ``action``, a diplomacy order, for next month: it waits in the save and is sealed in this power's last
        file of this month (issue 33 item 2); the number of orders given for next month so far."""
        st = self.store
        st.data = replace(st.data, meta=sealed_orders.stage_ahead(st.data.meta, st.state, st.power, action))
        st.save()
        return len(st.data.meta.ahead[st.power])

    def end_phase(self, *, seal_diplomacy: bool = False) -> Path:
        """"End Current Phase": check, write the turn file and its email draft, save.

        In the power's land slot or the economic phase, the diplomacy orders given for next month (``order_ahead``)
        are sealed in the file, or none with ``seal_diplomacy`` (the power has nothing to order then): next month it
        plays no commit round."""
        upgrade.plays_here(self.store)
        state = self.store.state
        slot = state.slot
        if slot is None:
            raise IllegalAction("the game is over; nothing more can be done")
        engine.verify_actor(state, self.store.power)
        for part in (self.store.folders.commout, self.store.folders.save):
            folders.check_folder(part)  # before the save says the file is sent (issue 20)
        behind = inbox.behind_sentence(self.store)  # a save older than its own file would fork the game (issue 29)
        if behind:
            raise IllegalAction(behind[0].upper() + behind[1:])
        point = forks.point_before(self.store)
        key = file_slot(state, self.store.power)
        chain = self.store.contents.chain
        if slot.simultaneous and key in chain.collected:
            raise IllegalAction(f"{self.store.power} has already sent its orders for {slot.key(state.date)}")
        if key not in self.store.contents.starts:
            self.store.contents, _ = self.store.contents.start(key)
        reloads = self.slot.reloads()
        d = self.slot.dice()
        acts = self.slot.taken()
        fights: Mapping[str, bodies.Fight] = {}
        if not slot.simultaneous:
            self.exchange.sync()
            fights = self.store.data.battles.fights
            for bid, f in fights.items():
                if f.out:
                    raise IllegalAction(
                        f"{self.store.power} cannot end the phase yet: the battle in {f.area} waits for {f.defender}'s reply "
                        f"to battles/{f.name} (4.2.7, 000:174)",
                        hint="'eiapbem status' says whom to send it to; load the reply with 'eiapbem load battles/FILE'")
        meta = self.store.data.meta
        if slot.simultaneous:  # the sealed diplomacy phase: a commitment, then the reveal (client/orders.py)
            acts, meta = sealed_orders.file_actions(meta, state, self.store.power, acts, rules_context(d), rng=self.store.rng)
        # next month's diplomacy orders sealed in the land or economic file, if the player gave or asked for it
        extra, meta = sealed_orders.seal_ahead(meta, state, self.store.power, want=seal_diplomacy, rng=self.store.rng)
        acts = acts + extra
        played = turn.play_turn(state, self.store.power, acts, d, rules_context, ai,
                                exchanges=() if slot.simultaneous else self.slot.exchanges())
        after = played.state
        self.store.data = replace(self.store.data, meta=meta)
        body = bodies.TurnBody(
            slot=slot.key(state.date),
            power=self.store.power,
            actions=tuple(engine.action_to_obj(a) for a in acts),
            dice=FrozenMap({label: tuple(roll) for label, roll in d.to_obj().items()}),
            before=state.state_hash(),
            after=after.state_hash(),
            at=where_is(after),
            reloads=reloads,
            events=() if slot.simultaneous else tuple(e.to_obj() for e in played.events),
            parts=FrozenMap(state_parts(after)),
            battles=FrozenMap({bid: f.files for bid, f in fights.items() if f.files}),
            exchanges=self.store.data.battles.plan,
        ).to_obj()
        step = step_for(state)
        assert step is not None  # the slot is in play
        sealed, new_chain = files.write_turn(chain, self.store.me, step, key, body, reloads=reloads, rng=self.store.rng)
        name = folders.turn_name(self.store.game, key)
        outbox = bodies.Outbox(name, sealed.data, slot.key(state.date))
        taken = dict(self.store.data.taken)
        taken.pop(self.store.power, None)
        if slot.simultaneous:
            orders = dict(self.store.data.orders)
            orders[self.store.power] = body["actions"]
            self.store.data = replace(self.store.data, taken=taken, orders=orders, outbox=outbox)
        else:
            self.store.data = replace(self.store.data, state=after, taken=taken, outbox=outbox, battles=BattleBook())
        self.store.contents = replace(self.store.contents, chain=new_chain)
        self._note(name, key, self.store.power, utc_now(), reloads)
        self.auto.settle()
        forks.keep(self.store, point)
        self.store.save()  # first the save (it holds the file), then the file: a crash loses neither
        return self.outbox.send(name, sealed.data, slot.key(state.date))

    def _note(self, name: str, slot: str, author: str, made: str, reloads: int) -> None:
        """Keep, for the host's status (4.2.8), the last file of the chain and the reloads reported (4.2.7)."""
        meta = self.store.data.meta.replace(head=bodies.FileNote(name, slot, author, made))
        if reloads:
            meta = meta.replace(reloads=meta.reloads.set(author, meta.reloads.get(author, ()) + ((slot, reloads),)))
        self.store.data = replace(self.store.data, meta=meta)


    # -------------------------------------------------------------- loading others' files

    def load_path(self, path: Path) -> str:
        """Load one file; return its slot.  Any refusal raises and leaves the save as it was."""
        if path.suffix == ".battle":
            return self.exchange.load_battle(path)
        return self.load_received(files.read_file(path), file_time(path))

    def load_received(self, rec: files.Received, made: str) -> str:
        """Load one file already read and parsed (``files.Received``, parsed once); return its slot.

        ``made`` is when it was made, for the host's status.  Any refusal raises and leaves the save as it was."""
        point = forks.point_before(self.store)  # the state at this point, should a fork make this folder come back to it
        forks.check(self.store, rec)  # a fork is named; the host's act wins (issue 20, 4.2.8)
        slot = self.load_bytes(rec, rec.name, save=False)  # one durable save per file, below (issue 18)
        forks.keep(self.store, point)
        h = rec.header
        self._note(rec.name, slot, h.author, made, getattr(h, "reloads", 0))
        self.store.save()
        inbox.keep_received(self.store.folders, rec.name, rec.data)  # for 'eiapbem audit' (issue 20)
        return slot

    def load_bytes(self, data: bytes | files.Received, name: str, *, save: bool = True) -> str:
        """Check and replay one turn, admin or upgrade file; saved unless ``save`` is False (the caller saves, once)."""
        state = self.store.state
        chain = self.store.contents.chain
        rec = files.receive(data, name)
        author = rec.header.author
        if author in self.store.local and not self.replays_own:
            raise OwnFile(f"{name} is your own file ({author}); a client never loads the files it made",
                          hint="to go back you need a backup from the host (4.2.8)")
        if rec.header.kind == "upgrade":
            return upgrade.load(self, rec, name, save)  # the game moves to a newer eiapbem (client/upgrade.py)
        upgrade.plays_here(self.store)
        loaded = files.load_file(chain, rec, [self.store.me], step_for(state), name, own=self.store.local,
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
        acts = actions_of(body["actions"], f"{name} actions")
        from eiapbem.client import external  # 4.1.1 Third Party Combat System: both sides signed the result

        external.check_actions(acts, chain.gid, chain.roster, name)
        if state.slot.simultaneous and (body["battles"] or body["exchanges"]):
            raise BadEncoding(f"{name} carries battle files in a phase of orders")
        exs, opened = self.exchange.check_turn_files(chain, body, h.author, acts, name)
        if state.slot.simultaneous:
            sealed_orders.check_file(state, h.author, acts, name)  # a reveal must match its commitment
        try:
            played = turn.play_turn(state, h.author, acts, d, rules_context, ai, exchanges=exs)
        except (IllegalAction, DiceError) as err:
            raise OutOfSync(f"{OUT_OF_SYNC}: {where} does not replay here: {brief(err)}") from err
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
            orders = dict(self.store.data.orders)
            orders[h.author] = body["actions"]
            self.store.data = replace(self.store.data, orders=orders)
        else:
            self.store.data = replace(self.store.data, state=after, battles=BattleBook())
        self.store.contents = replace(self.store.contents, chain=loaded.chain)
        self.auto.settle()
        if save:
            self.store.save()
        return body["slot"]

    def _load_admin(self, loaded: files.Loaded, name: str, save: bool = True) -> str:
        """Replay a host admin file (4.2.8): its acts on the state, its player list into the save."""
        from eiapbem.rules import admin

        state = self.store.state
        if not state.options.allow_pbem_host_functions:
            raise WrongKind(f"{name} is a host admin file, but this game does not allow host functions (4.1.1, 000:32)",
                            hint="the option 'Allow PBEM Host Functions' was off when the game began")
        ab = bodies.decode(bodies.AdminBody, loaded.body, name, "admin acts")
        body = ab.to_obj()
        where = f"{name} ({loaded.header.slot})"
        if body["before"] != state.state_hash():
            raise OutOfSync(f"{OUT_OF_SYNC}: {where} starts from another state than yours",
                            hint="the host can send backups to bring everyone back in sync (4.2.8)")
        acts = [admin.admin_from_obj(o, f"{name} acts[{i}]") for i, o in enumerate(body["acts"])]
        assert loaded.seed is not None
        n_log = len(state.log)
        try:
            after = admin.apply_all(state, acts, rules_context(Dice(loaded.seed)), setup_for=self.auto.ai_setup,
                                    computer=ai.play_slot).state
        except IllegalAction as err:
            raise OutOfSync(f"{OUT_OF_SYNC}: {where} does not replay here: {brief(err)}") from err
        if after.state_hash() != body["after"]:
            raise OutOfSync(f"{OUT_OF_SYNC}: {where} gives another state here; the first difference is in "
                            f"{first_part(after, body['parts'])}")
        if [e.to_obj() for e in after.log[n_log:]] != body["events"]:
            raise OutOfSync(f"{OUT_OF_SYNC}: {where} reports other log lines than its replay gives here")
        new_meta = self.store.data.meta.replace(players=ab.meta.players, host=ab.meta.host)
        taken = dict(self.store.data.taken)
        for a in acts:
            if isinstance(a, (admin.SkipSlot, admin.AiPlay, admin.ReplaceByAi)):
                taken.pop(a.power, None)  # the skipped slot is gone; its half-made actions with it
        same = (after.date, after.slot) == (state.date, state.slot)  # a skipped slot takes its battle files along
        self.store.data = replace(self.store.data, state=after, meta=new_meta, taken=taken, battles=self.store.data.battles if same else BattleBook())
        self.store.contents = replace(self.store.contents, chain=loaded.chain)
        self.auto.settle()
        if save:
            self.store.save()
        return loaded.header.slot

    def write_admin(self, acts: list, *, roster: dict | None = None,
                    players: Mapping[str, bodies.PlayerRow] | None = None, host: bodies.Person | None = None) -> Path:
        """The host's admin file (4.2.8): acts applied here, the file and its draft to everyone in commout/.

        ``roster``: new public keys by role; ``players``, ``host``: who plays what after the acts."""
        from eiapbem.rules import admin

        upgrade.plays_here(self.store)
        state = self.store.state
        chain = self.store.contents.chain
        if chain.step is not None or self.store.data.orders:
            raise IllegalAction(
                f"the orders of {state.slot.key(state.date) if state.slot else 'this slot'} are still coming in; "
                "an admin act must wait until every power's orders are in (docs/file-format.md section 6)")
        out = admin.apply_all(state, acts, rules_context(pdice.dice_for_next(chain, self.store.me, "admin")), setup_for=self.auto.ai_setup,
                              computer=ai.play_slot)
        new_meta = self.store.data.meta
        if players is not None:
            new_meta = new_meta.replace(players=FrozenMap(players))
        if host is not None:
            new_meta = new_meta.replace(host=host)
        body = bodies.AdminBody(
            acts=tuple(admin.admin_to_obj(a) for a in acts), before=state.state_hash(), after=out.state.state_hash(), at=where_is(out.state),
            meta=bodies.Roster(new_meta.players, new_meta.host),
            events=tuple(e.to_obj() for e in out.state.log[len(state.log):]), parts=FrozenMap(state_parts(out.state))).to_obj()
        sealed, new_chain = files.write_admin(chain, self.store.me, body, roster=roster, rng=self.store.rng)
        name = folders.admin_name(self.store.game, new_chain.seq)
        what = f"admin {new_chain.seq}: " + ", ".join(a.KIND.split(".", 1)[1] for a in acts)
        taken = dict(self.store.data.taken)
        for a in acts:
            if isinstance(a, (admin.SkipSlot, admin.AiPlay, admin.ReplaceByAi)):
                taken.pop(a.power, None)
        same = (out.state.date, out.state.slot) == (state.date, state.slot)
        self.store.data = replace(self.store.data, state=out.state, meta=new_meta, taken=taken, battles=self.store.data.battles if same else BattleBook(),
                            outbox=bodies.Outbox(name, sealed.data, what))
        self.store.contents = replace(self.store.contents, chain=new_chain)
        self._note(name, sealed.header.slot, "host", utc_now(), 0)
        self.auto.settle()
        self.store.save()
        return self.outbox.send(name, sealed.data, what)

    def load_all(self) -> Report:
        """Load every waiting file of this game in ``commin/``, in chain order (4.2.6, 000:166: the files that come
        before this folder's turn; ``client/inbox.py``)."""
        return inbox.load_waiting(self.store, game_names(self.store.home), self.load_received)
