"""The battle-file exchange between two humans (4.2.7, ``client/battles.py``, docs/file-format.md 7.3).

When a battle question of the acting power's slot is for a human power of
another folder (``rules.turn.exchange_needed``), the acting power's session
writes a question file to ``battles/`` once it has nothing left to answer; the
defender's session loads it (``load_battle``), shows the battle as of the
question (``current``) and writes the reply when its answers are complete
(``answer_battle``); the acting power loads the reply and goes on.  The
slot's state is always ``rules.turn.play`` of the start state, the actions and
the replies so far.  Battle bodies are ``pbem.bodies`` records, decoded
strictly.
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path
from typing import Any, Callable, Mapping

from eiapbem.core import canonical
from eiapbem.core.dice import DiceError
from eiapbem.core.errors import BadEncoding, IllegalAction, brief, quoted
from eiapbem.data.context import rules_context
from eiapbem.pbem import bodies, crypto, dice as pdice, envelope, files, folders, headers
from eiapbem.pbem.bodies import Answer, BattleBook, Fight
from eiapbem.pbem.chain import Battle, Chain
from eiapbem.pbem.errors import AuthorNotAllowed, BadDice, BadHeader, NotForYou, OutOfOrder, OutOfSync, OwnFile, WrongKind
from eiapbem.rules import engine, turn
from eiapbem.rules.model import GameState

from . import battles
from .slot import SlotPlay
from .store import Store


def battle_nonce(rng: Callable[[int], bytes] = os.urandom) -> bytes:
    """A fresh 32-byte battle nonce (docs/file-format.md 7.2); never reused, never derived from the game."""
    return rng(32)


def question_state(base: GameState, asked: GameState) -> dict[str, Any]:
    """What a question carries of the state it shows (battle format 2, docs/file-format.md 7.4): the hash of the
    state the defender already holds and the changes from it, not the whole state."""
    return {"base": base.state_hash(), "delta": battles.state_delta(base, asked)}


class BattleExchange:
    """Battles between two humans (4.2.7): the question and reply files and their bookkeeping in the save.

    It is given the save (``Store``) and the slot in play (``SlotPlay``: the
    replay it writes questions from and checks replies against).
    """

    def __init__(self, store: Store, slot: SlotPlay) -> None:
        self.store = store
        self.slot = slot
        #: The battle reply written by the last ``answer_battle`` (for the CLI's message).
        self.last_file: Path | None = None
        #: The defender's views of a battle, by the question's state and the answers so far (``_view``).
        self._views: dict = {}

    @property
    def book(self) -> BattleBook:
        """The save's battle book: the exchanges done, the acting power's fights, this power's answers."""
        return self.store.data.battles

    def fights(self) -> Mapping[str, Fight]:
        """The acting power's battles with a defender elsewhere, by battle id."""
        return self.book.fights

    def _set_fight(self, bid: str, f: Fight, **book: Any) -> None:
        self._set_book(fights=self.book.fights.set(bid, f), **book)

    def _set_answer(self, bid: str, e: Answer) -> None:
        self._set_book(answer=self.book.answer.set(bid, e))

    def _set_book(self, **parts: Any) -> None:
        self.store.data = replace(self.store.data, battles=self.book.replace(**parts))

    def notice(self, state: GameState) -> None:
        """Mark where a question for the other side of a battle arose (the state its file will show)."""
        fights = self.book.fights
        for d in sorted(state.pending.values(), key=lambda d: d.id):
            if not battles.exchange_needed(state, d):
                continue
            bid = str(d.context["battle"])
            f = fights.get(bid) or Fight(area=battles.fight_area(state, bid), defender=d.power, record=None, files=(),
                                         secret=b"", out=False, ask=-1, qask=-1, closed=False, name="")
            if not f.out and f.ask < 0:
                fights = fights.set(bid, f.replace(ask=len(self.store.data.taken.get(self.store.power, []))))
        if fights is not self.book.fights:
            self._set_book(fights=fights)

    def sync(self) -> list[Path]:
        """Write the battle files now due: a question once the acting power has nothing left to answer, an end."""
        if not self.slot.plays():
            return []
        written = []
        state = self.slot.play(self.slot.taken()).state
        self.notice(state)
        own = any(d.power == self.store.power for d in state.pending.values())
        for bid, f in self.fights().items():
            if f.out or f.closed:
                continue
            if f.ask >= 0 and not own:
                written.append(self._write_question(bid, f))
            elif battles.fight_finished(state, bid) and f.files:
                written.append(self._write_close(bid, f, battles.fight_result(state, bid)))
        if written:
            self.store.save()
        return written

    def _battle_file(self, bid: str, f: Fight, body: dict, *, commit: bytes | None, nonce: bytes | None,
                     kind: str) -> tuple[Fight, Path]:
        chain = self.store.contents.chain
        st = self.store.state
        assert st.slot is not None
        record = Battle.from_obj(f.record) if f.record else Battle.begin(
            chain, battles.place_of(f.area), self.store.power, f.defender)
        label = battles.slot_label(st.slot.key(st.date), f.area, bid)
        sealed, record = files.write_battle(chain, record, self.store.me, label, body, commit=commit, nonce=nonce,
                                            reloads=self.slot.reloads(), rng=self.store.rng)
        env = envelope.parse(sealed.data, "your battle file")
        fk = crypto.unwrap_key(env, self.store.power, self.store.me.decrypter)
        name = battles.file_name(self.store.game, f.area, bid, kind)
        f = f.replace(record=record.to_obj(), files=f.files + ((sealed.data, fk),), name=name)
        return f, self.store.folders.battles / name

    def _write_question(self, bid: str, f: Fight) -> Path:
        """The attacker's battle file: the battle as it stands at the question, its nonce committed (7.2)."""
        ask = f.ask
        taken = self.store.data.taken.get(self.store.power, [])
        asked = self.slot.play(self.slot.taken()[:ask]).state
        questions = [d.id for d in battles.questions_for(asked, f.defender, bid)]
        nonce = battle_nonce(self.store.rng)
        st = self.store.state
        assert st.slot is not None
        base = self._last_asked(f)
        body = {"battle": bid, "slot": st.slot.key(st.date), "ask": ask, "hidden": battles.hidden_commit(nonce, taken[ask:]),
                "hash": asked.state_hash(), "questions": questions, **question_state(base, asked)}
        f, path = self._battle_file(bid, f, body, commit=pdice.commitment(nonce), nonce=f.secret or None,
                                   kind="question")
        f = f.replace(secret=nonce, out=True, qask=ask, ask=-1)
        self._set_fight(bid, f)
        self.store.save()  # the nonce is kept before the file leaves
        self.store.folders.put(self.store.folders.battles, path.name, f.files[-1][0])
        return path

    def _last_asked(self, f: Fight) -> GameState:
        """The state the battle's last question showed the defender (the slot's start before the first): a
        question's changes start from it, as the defender holds it (docs/file-format.md 7.4)."""
        state = self.store.state
        for i, (data, fk) in enumerate(f.files):
            if i % 2 == 0:
                env = envelope.parse(data, f"your battle file {i + 1}")
                step = bodies.battle_body(crypto.open_body(env, fk), f.name, bodies.BattleAsk, bodies.BattleQuestion)
                state = battles.rebuild(state, step.delta, step.hash, f.name) if isinstance(step, bodies.BattleAsk) \
                    else GameState.decode(step.state)
        return state

    def _write_close(self, bid: str, f: Fight, result: str) -> Path:
        """The attacker's last battle file: the result, and its last nonce revealed."""
        f, path = self._battle_file(bid, f, {"battle": bid, "result": result}, commit=None, nonce=f.secret,
                                   kind="close")
        f = f.replace(secret=b"", closed=True)
        self._set_fight(bid, f)
        self.store.save()
        self.store.folders.put(self.store.folders.battles, path.name, f.files[-1][0])
        return path

    def hand_over(self) -> None:
        """Hot-seat (4.2.1): the two sides of a battle play at this computer; their files need not travel.

        The defender's session takes the attacker's question from the save, the
        attacker's session the defender's reply; the files are the same signed
        files a remote opponent would send (docs/file-format.md 7.4).
        """
        answer = self.book.answer
        for bid, f in self.fights().items():
            if not f.out or f.defender not in self.store.local:
                continue
            e = answer.get(bid)
            if self.slot.plays() and e is not None and e.sent and e.reply:
                if crypto.file_hash(envelope.parse(e.reply)) not in Battle.from_obj(f.record).known:
                    self._load_reply(bid, f, e.reply, f.name)
                    self.store.save()
            elif self.store.power == f.defender:
                q = f.files[-1][0]
                if e is None or crypto.file_hash(envelope.parse(q)) not in Battle.from_obj(e.record).known:
                    self._load_question(envelope.parse(q, f.name), q, f.name)
                    self.store.save()

    def load_battle(self, path: Path) -> str:
        """Load a battle file from the other side (4.2.7); any refusal leaves the save as it was."""
        data = folders.read_limited(path)
        name = path.name
        env = envelope.parse(data, name)
        h = env.header
        if h.kind != "battle":
            raise WrongKind(f"{name} is a {h.kind} file, not a battle file")
        chain = self.store.contents.chain
        chain.check_game(h, name)
        if h.author == self.store.power:
            raise OwnFile(f"{name} is your own battle file; send it to your opponent and load the reply that comes back")
        snap = self.store.save_snapshot()
        try:
            st = self.store.state
            for bid, f in (self.fights().items() if self.slot.plays() else ()):
                if st.slot is not None and h.slot == battles.slot_label(st.slot.key(st.date), f.area, bid):
                    what = self._load_reply(bid, f, data, name)
                    break
            else:
                what = self._load_question(env, data, name)
        except BaseException:
            self.store.restore_snapshot(snap)
            raise
        self.store.save()
        return what

    def _load_reply(self, bid: str, f: Fight, data: bytes, name: str) -> str:
        record = Battle.from_obj(f.record)
        record, h, body = files.load_battle(self.store.contents.chain, record, data, [self.store.me], name)
        if h.author != f.defender:
            raise AuthorNotAllowed(f"{name} is signed by {h.author}, but the reply must come from {f.defender}")
        if h.nonce is None or h.commit is not None:
            raise BadDice(f"{name} does not carry the reply's nonce (docs/file-format.md 7.2)")
        reply = bodies.battle_body(body, name, bodies.BattleReply)
        if reply.battle != bid:
            raise BadEncoding(f"{name} replies in {reply.battle}, not in {bid}")
        env = envelope.parse(data, name)
        fk = crypto.unwrap_key(env, self.store.power, self.store.me.decrypter, name)
        f = f.replace(record=record.to_obj(), files=f.files + ((data, fk),), out=False)
        at = len(self.store.data.taken.get(self.store.power, []))
        self._set_fight(bid, f, plan=self.book.plan + ((bid, f.qask, at),))  # the replies' order among the actions
        try:
            self.slot.play(self.slot.taken())
        except (IllegalAction, DiceError) as err:
            raise OutOfSync(f"{name} answers the battle in {f.area} in a way the rules refuse here: {brief(err)}") from err
        self.sync()
        return f"battle in {f.area}: {f.defender}'s reply"

    def _load_question(self, env: envelope.Envelope, data: bytes, name: str) -> str:
        chain = self.store.contents.chain
        h = env.header
        if not isinstance(h, headers.BattleHeader):
            raise WrongKind(f"{name} is a {h.kind} file, not a battle file")
        chain.verify(env, name)
        fk = crypto.unwrap_key(env, self.store.power, self.store.me.decrypter, name)
        step = bodies.battle_body(crypto.open_body(env, fk, name), name, bodies.BattleAsk, bodies.BattleQuestion,
                                  bodies.BattleClose)
        bid = step.battle
        e = self.book.answer.get(bid)
        st = self.store.state
        if st.slot is None or st.slot.simultaneous or h.author != st.slot.power:
            raise OutOfOrder(f"{name} is a battle of {h.author}'s slot, but the slot in play is "
                             f"{st.slot.key(st.date) if st.slot else 'none'}", hint="load the turn files in commin/ first")
        if e is None:
            if isinstance(step, bodies.BattleClose):
                raise OutOfOrder(f"{name} ends a battle whose earlier files you have not loaded")
            if h.prev != chain.head:
                raise OutOfOrder(f"{name} starts from a game file you have not loaded", hint="load the files in commin/ first")
            area = battles.area_of(bid)
            record = Battle.begin(chain, battles.place_of(area), h.author, self.store.power)
            e = Answer(power=self.store.power, attacker=h.author, area=area, record=None, state=b"", questions=(),
                       answers=(), sent=False, over="", name=name, reply=b"")
        else:
            record = Battle.from_obj(e.record)
        record = record.accept(chain, env, name, me=[self.store.power])
        if h.slot != battles.slot_label(st.slot.key(st.date), e.area, bid):
            raise BadHeader(f"{name} is for {h.slot}, which is not a battle of the slot in play")
        if isinstance(step, bodies.BattleClose):
            if h.nonce is None or h.commit is not None:
                raise BadDice(f"{name} does not reveal the attacker's last nonce (docs/file-format.md 7.2)")
            e = e.replace(record=record.to_obj(), over=step.result, questions=(), answers=())
            self._set_answer(bid, e)
            return f"battle in {e.area} is over: {step.result}"
        if h.commit is None or (h.nonce is None) != (e.record is None):
            raise BadDice(f"{name} does not carry the commitment and nonce a question needs (docs/file-format.md 7.2)")
        if step.slot != st.slot.key(st.date):  # found by the fuzz suite (issue 20): the body's slot was never read
            raise BadEncoding(f"{name} names the slot {quoted(step.slot)} in its body, not the slot in play {st.slot.key(st.date)}")
        if isinstance(step, bodies.BattleAsk):
            base = GameState.decode(e.state) if e.state else st
            if step.base != base.state_hash():
                raise OutOfOrder(f"{name} shows the battle as a change of a game state you do not hold",
                                 hint="load the files in commin/ first, then load it again")
            asked = battles.rebuild(base, step.delta, step.hash, name)
        else:
            asked = GameState.decode(step.state)
        if asked.state_hash() != step.hash or asked.slot != st.slot or asked.date != st.date:
            raise BadEncoding(f"{name} shows a battle state of another slot")
        qs = step.questions
        if not qs or any(
                q not in asked.pending or asked.pending[q].power != self.store.power or asked.pending[q].context.get("battle") != bid
                for q in qs):
            raise NotForYou(f"{name} asks no question of {self.store.power}")
        e = e.replace(record=record.to_obj(), state=asked.encode(), questions=qs, answers=(), sent=False, name=name, reply=b"")
        self._set_answer(bid, e)
        return f"battle in {e.area}: {h.author} asks {self.store.power} {len(qs)} question(s)"

    def answer_entry(self, decision: str) -> tuple[str, Answer] | None:
        """The battle of another folder whose open question ``decision`` is, with this power's answer entry."""
        for bid, e in self.book.answer.items():
            if e.power == self.store.power and not e.sent and not e.over:
                view = self._view(e)
                if decision in view.pending:
                    return bid, e
        return None

    def defends(self, battle: str) -> bool:
        """Is ``battle`` one of another power's slot that this folder's power answers (4.2.7)?"""
        return battle in self.book.answer

    def reply_to_send(self) -> Path | None:
        """The reply the last answer wrote, when it must travel: the attacker plays in another folder (4.2.7)."""
        if self.last_file is None or any(e.attacker in self.store.local for e in self.book.answer.values()):
            return None
        return self.last_file

    def _view(self, e: Answer) -> GameState:
        """The battle as the defender sees it: the attacker's state with its own answers so far."""
        key = canonical.encode([e.state, list(e.answers)])
        if key in self._views:
            return self._views[key]
        state = GameState.decode(e.state)
        ctx = rules_context(battles.NoRollDice())
        for o in e.answers:
            try:
                state = engine.apply_action(state, self.store.power, engine.action_from_obj(o), ctx).state
                state = battles.auto_answer(state, ctx)
            except battles.NoRoll:
                break
        self._views[key] = state
        return state

    def answer_view(self) -> GameState | None:
        """The battle this power answers as the question shows it (``Turns.current``), if one is open."""
        for _, e in self.book.answer.items():
            if e.power == self.store.power and not e.over and e.state:
                return self._view(e)
        return None

    def plan_entry(self, battle: str) -> tuple[str, Answer] | None:
        """The open question file of ``battle`` this power answers, if any (a ``BattlePlan`` answers it whole)."""
        e = self.book.answer.get(battle)
        if e is not None and e.power == self.store.power and not e.sent and not e.over \
                and battles.questions_for(self._view(e), self.store.power, battle):
            return battle, e
        return None

    def answer_battle(self, action: Any) -> engine.Outcome:
        """The defender answers a question of a battle file; once the rules need dice, the reply file is written.

        Standing orders for the whole battle (``rules.combat.plans.BattlePlan``, issue 33) end the reply at once: the
        battle then needs no more files."""
        plan = getattr(action, "KIND", "") == turn.PLAN
        found = self.plan_entry(action.battle) if plan else self.answer_entry(action.decision)
        assert found is not None
        bid, e = found
        view = self._view(e)
        ctx = rules_context(battles.NoRollDice())
        engine.verify_action(view, self.store.power, action, ctx)
        answers = e.answers + (engine.action_to_obj(action),)
        try:
            after = engine.apply_action(view, self.store.power, action, ctx).state
            after = battles.auto_answer(after, ctx)
            # Go on answering only while the battle asks this power alone and needs no die: a question
            # for the attacker too (the chits) waits until the attacker has answered it (000:176).
            done = plan or any(d.power != self.store.power for d in after.pending.values() if d.context.get("battle") == bid) \
                or not battles.questions_for(after, self.store.power, bid)
        except battles.NoRoll:
            after, done = view, True
        if not done:
            self._set_answer(bid, e.replace(answers=answers))
            self.store.save()
            return engine.Outcome(after)
        st = self.store.state
        assert st.slot is not None
        record = Battle.from_obj(e.record)
        label = battles.slot_label(st.slot.key(st.date), e.area, bid)
        sealed, record = files.write_battle(self.store.contents.chain, record, self.store.me, label,
                                            {"battle": bid, "answers": list(answers)}, nonce=battle_nonce(self.store.rng),
                                            rng=self.store.rng)
        name = battles.file_name(self.store.game, e.area, bid, "reply")
        self._set_answer(bid, e.replace(record=record.to_obj(), answers=answers, sent=True, name=name, reply=sealed.data))
        self.store.save()
        self.store.folders.put(self.store.folders.battles, name, sealed.data)
        self.last_file = self.store.folders.battles / name
        return engine.Outcome(after)

    def check_turn_files(self, chain: Chain, body: dict, author: str, acts: list, name: str) -> tuple:
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

    def battle_questions(self) -> list[Any]:
        """The questions of another folder's battles that wait for this player's answer (4.2.7), oldest first."""
        out: list[Any] = []
        for bid, e in self.book.answer.items():
            if e.power == self.store.power and not e.over and not e.sent:
                out.extend(battles.questions_for(self._view(e), self.store.power, bid))
        return out

    def battle_lines(self) -> list[str]:
        """What the battles of the slot in play need from this player (for ``eiapbem status``)."""
        from eiapbem.rules.model import POWER_NAMES

        meta = self.store.data.meta
        out = []

        def who(p: str) -> str:
            row = meta.players[p]
            return f"{POWER_NAMES[p]} ({row.name} <{row.email}>)"

        for bid, f in self.fights().items():
            if f.out and f.defender in self.store.local:
                out.append(f"Battle in {f.area} ({bid}): {POWER_NAMES[f.defender]} plays at this computer and must answer: "
                           f"'eiapbem status --power {f.defender}' shows its question (4.2.7)")
            elif f.out:
                reply = battles.file_name(self.store.game, f.area, bid, "reply")
                out.append(f"Battle in {f.area} ({bid}): send battles/{f.name} to {who(f.defender)}; the game waits "
                           f"for {POWER_NAMES[f.defender]}'s reply: put it in battles/ and run "
                           f"'eiapbem load battles/{reply}' (4.2.7)")
            elif f.closed:
                out.append(f"Battle in {f.area} ({bid}) is over; battles/{f.name} tells {POWER_NAMES[f.defender]} the "
                           "result (send it if you like); your turn file carries the whole battle to every player")
        for bid, e in self.book.answer.items():
            if e.power != self.store.power:
                continue
            if e.over:
                out.append(f"Battle in {e.area} ({bid}) is over: {e.over}; wait for {POWER_NAMES[e.attacker]}'s turn file")
            elif e.sent and e.attacker in self.store.local:
                out.append(f"Battle in {e.area} ({bid}): your reply is in; {POWER_NAMES[e.attacker]} plays at this "
                           f"computer and goes on: 'eiapbem status --power {e.attacker}'")
            elif e.sent:
                out.append(f"Battle in {e.area} ({bid}): send your reply battles/{e.name} to {who(e.attacker)}; "
                           f"then wait for {POWER_NAMES[e.attacker]}'s next battle file")
            else:
                view = self._view(e)
                for d in battles.questions_for(view, self.store.power, bid):
                    out.append(f"Battle in {e.area} ({bid}): {POWER_NAMES[e.attacker]} asks {self.store.power} {d.kind} "
                               f"({'/'.join(d.options)}): 'eiapbem answer {d.id} CHOICE'; "
                               f"'eiapbem battle report {bid}' shows the battle")
        return out

