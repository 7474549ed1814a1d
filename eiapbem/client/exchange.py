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
from typing import Any, Callable

from eiapbem.core import canonical
from eiapbem.core.dice import DiceError
from eiapbem.core.errors import BadEncoding, IllegalAction, quoted
from eiapbem.data.context import rules_context
from eiapbem.pbem import bodies, crypto, dice as pdice, envelope, files, folders
from eiapbem.pbem.chain import Battle, Chain
from eiapbem.pbem.errors import AuthorNotAllowed, BadDice, BadHeader, NotForYou, OutOfOrder, OutOfSync, OwnFile, WrongKind
from eiapbem.rules import engine
from eiapbem.rules.model import GameState

from . import battles
from .store import Store


def battle_nonce(rng: Callable[[int], bytes] = os.urandom) -> bytes:
    """A fresh 32-byte battle nonce (docs/file-format.md 7.2); never reused, never derived from the game."""
    return rng(32)


class BattleExchange(Store):
    """Battles between two humans (4.2.7): the question and reply files and their bookkeeping in the save."""

    # -------------------------------------------------------------- battles between two humans (4.2.7)

    def fights(self) -> dict:
        return dict(self.data.battles.get("fights", {}))

    def _set_battles(self, **parts: Any) -> None:
        b = dict(self.data.battles)
        b.update(parts)
        self.data = replace(self.data, battles=b)

    def _opened(self) -> dict[str, list[battles.Opened]]:
        out = {}
        for bid, f in sorted(self.fights().items()):
            items = []
            for i, (data, fk) in enumerate(f["files"]):
                env = envelope.parse(data, f"battle file {i + 1} of {bid}")
                items.append(battles.Opened(env, crypto.open_body(env, fk), crypto.file_hash(env)))
            out[bid] = items
        return out

    def _exchanges(self) -> list[battles.Exchange]:
        """The exchanges done so far in the slot, from the acting power's own battle records."""
        fights = self.fights()
        plan = self.data.battles.get("plan", [])
        if not plan:
            return []
        secrets = {bid: f["secret"] for bid, f in fights.items() if f["secret"]}
        return battles.exchanges_of(self._opened(), plan, secrets, {bid: f["defender"] for bid, f in fights.items()},
                                    "your battle files", complete=False)

    def _notice(self, state: GameState) -> None:
        """Mark where a question for the other side of a battle arose (the state its file will show)."""
        fights = self.fights()
        changed = False
        for d in sorted(state.pending.values(), key=lambda d: d.id):
            if not battles.exchange_needed(state, d):
                continue
            bid = str(d.context["battle"])
            f = dict(fights.get(bid) or {"area": battles.fight_area(state, bid), "defender": d.power, "record": None,
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
        if not self.plays_slot():
            return []
        written = []
        state = self._play(self.taken()).state
        self._notice(state)
        own = any(d.power == self.power for d in state.pending.values())
        for bid, f in sorted(self.fights().items()):
            if f["out"] or f["closed"]:
                continue
            if f["ask"] >= 0 and not own:
                written.append(self._write_question(bid, f))
            elif battles.fight_finished(state, bid) and f["files"]:
                written.append(self._write_close(bid, f, battles.fight_result(state, bid)))
        if written:
            self.save()
        return written

    def _battle_file(self, bid: str, f: dict, body: dict, *, commit: bytes | None, nonce: bytes | None,
                     kind: str) -> tuple[dict, Path]:
        chain = self.contents.chain
        st = self.state
        assert st.slot is not None
        record = Battle.from_obj(f["record"]) if f["record"] else Battle.begin(
            chain, battles.place_of(f["area"]), self.power, f["defender"])
        label = battles.slot_label(st.slot.key(st.date), f["area"], bid)
        sealed, record = files.write_battle(chain, record, self.me, label, body, commit=commit, nonce=nonce,
                                            reloads=self.reloads(), rng=self.rng)
        env = envelope.parse(sealed.data, "your battle file")
        fk = crypto.unwrap_key(env, self.power, self.me.decrypter)
        name = battles.file_name(self.game, f["area"], bid, kind)
        f = dict(f, record=record.to_obj(), files=list(f["files"]) + [[sealed.data, fk]], name=name)
        return f, self.folders.battles / name

    def _write_question(self, bid: str, f: dict) -> Path:
        """The attacker's battle file: the battle as it stands at the question, its nonce committed (7.2)."""
        ask = f["ask"]
        taken = self.data.taken.get(self.power, [])
        asked = self._play(self.taken()[:ask]).state
        questions = [d.id for d in battles.questions_for(asked, f["defender"], bid)]
        nonce = battle_nonce(self.rng)
        st = self.state
        assert st.slot is not None
        body = {"battle": bid, "slot": st.slot.key(st.date), "ask": ask, "hidden": battles.hidden_commit(nonce, taken[ask:]),
                "state": asked.encode(), "hash": asked.state_hash(), "questions": questions}
        f, path = self._battle_file(bid, f, body, commit=pdice.commitment(nonce), nonce=f["secret"] or None,
                                   kind="question")
        f.update(secret=nonce, out=True, qask=ask, ask=-1)
        fights = self.fights()
        fights[bid] = f
        self._set_battles(fights=fights)
        self.save()  # the nonce is kept before the file leaves
        self.folders.put(self.folders.battles, path.name, f["files"][-1][0])
        return path

    def _write_close(self, bid: str, f: dict, result: str) -> Path:
        """The attacker's last battle file: the result, and its last nonce revealed."""
        f, path = self._battle_file(bid, f, {"battle": bid, "result": result}, commit=None, nonce=f["secret"],
                                   kind="close")
        f.update(secret=b"", closed=True)
        fights = self.fights()
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
        fights = self.fights()
        answer = self.data.battles.get("answer", {})
        for bid, f in sorted(fights.items()):
            if not f["out"] or f["defender"] not in self.local:
                continue
            e = answer.get(bid)
            if self.plays_slot() and e is not None and e["sent"] and e.get("reply"):
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
            fights = self.fights()
            for bid, f in sorted(fights.items() if self.plays_slot() else ()):
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
        reply = bodies.battle_body(body, name, bodies.BattleReply)
        if reply.battle != bid:
            raise BadEncoding(f"{name} replies in {reply.battle}, not in {bid}")
        env = envelope.parse(data, name)
        fk = crypto.unwrap_key(env, self.power, self.me.decrypter, name)
        f = dict(f, record=record.to_obj(), files=list(f["files"]) + [[data, fk]], out=False)
        fights = self.fights()
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
        step = bodies.battle_body(crypto.open_body(env, fk, name), name, bodies.BattleQuestion, bodies.BattleClose)
        closing = isinstance(step, bodies.BattleClose)
        body = step.to_obj()
        bid = body["battle"]
        entries = dict(self.data.battles.get("answer", {}))
        e = entries.get(bid)
        st = self.state
        if st.slot is None or st.slot.simultaneous or h.author != st.slot.power:
            raise OutOfOrder(f"{name} is a battle of {h.author}'s slot, but the slot in play is "
                             f"{st.slot.key(st.date) if st.slot else 'none'}", hint="load the turn files in commin/ first")
        if e is None:
            if closing:
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
        if closing:
            if h.nonce is None or h.commit is not None:
                raise BadDice(f"{name} does not reveal the attacker's last nonce (docs/file-format.md 7.2)")
            e = dict(e, record=record.to_obj(), over=str(body["result"]), questions=[], answers=[])
            entries[bid] = e
            self._set_battles(answer=entries)
            return f"battle in {e['area']} is over: {body['result']}"
        if h.commit is None or (h.nonce is None) != (e["record"] is None):
            raise BadDice(f"{name} does not carry the commitment and nonce a question needs (docs/file-format.md 7.2)")
        if body["slot"] != st.slot.key(st.date):  # found by the fuzz suite (issue 20): the body's slot was never read
            raise BadEncoding(f"{name} names the slot {quoted(body['slot'])} in its body, not the slot in play {st.slot.key(st.date)}")
        asked = GameState.decode(body["state"])
        if asked.state_hash() != body["hash"] or asked.slot != st.slot or asked.date != st.date:
            raise BadEncoding(f"{name} shows a battle state of another slot")
        qs = body["questions"]
        if not qs or any(
                q not in asked.pending or asked.pending[q].power != self.power or asked.pending[q].context.get("battle") != bid
                for q in qs):
            raise NotForYou(f"{name} asks no question of {self.power}")
        e = dict(e, record=record.to_obj(), state=body["state"], questions=list(qs), answers=[], sent=False, name=name,
                 reply=b"")
        entries[bid] = e
        self._set_battles(answer=entries)
        return f"battle in {e['area']}: {h.author} asks {self.power} {len(qs)} question(s)"

    def answer_entry(self, decision: str) -> tuple[str, dict] | None:
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
        found = self.answer_entry(action.decision)
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
                                            {"battle": bid, "answers": answers}, nonce=battle_nonce(self.rng), rng=self.rng)
        name = battles.file_name(self.game, e["area"], bid, "reply")
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

    def battle_questions(self) -> list[Any]:
        """The questions of another folder's battles that wait for this player's answer (4.2.7), oldest first."""
        out: list[Any] = []
        for bid, e in sorted(self.data.battles.get("answer", {}).items()):
            if e["power"] == self.power and not e["over"] and not e["sent"]:
                out.extend(battles.questions_for(self._view(e), self.power, bid))
        return out

    def battle_lines(self) -> list[str]:
        """What the battles of the slot in play need from this player (for ``eiapbem status``)."""
        from eiapbem.rules.model import POWER_NAMES

        meta = self.data.meta
        out = []

        def who(p: str) -> str:
            row = meta["players"][p]
            return f"{POWER_NAMES[p]} ({row['name']} <{row['email']}>)"

        for bid, f in sorted(self.fights().items()):
            if f["out"] and f["defender"] in self.local:
                out.append(f"Battle in {f['area']} ({bid}): {POWER_NAMES[f['defender']]} plays at this computer and must answer: "
                           f"'eiapbem status --power {f['defender']}' shows its question (4.2.7)")
            elif f["out"]:
                reply = battles.file_name(self.game, f["area"], bid, "reply")
                out.append(f"Battle in {f['area']} ({bid}): send battles/{f['name']} to {who(f['defender'])}; the game waits "
                           f"for {POWER_NAMES[f['defender']]}'s reply: put it in battles/ and run "
                           f"'eiapbem load battles/{reply}' (4.2.7)")
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

