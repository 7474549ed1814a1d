"""Battles between two human players of a PBEM game (4.2.7, ``000:168-176``).

A field or trivial combat started in a power's land slot asks both sides
questions (``rules/combat/field.py``).  The acting power answers its own at its
computer.  The other side's questions are answered:

- by the rules' standing orders (``rules.combat.standing``) when no file exchange is
  needed: one corps of the defender engaged, or the option "PBEM Quick
  Combat" (4.1.1, ``000:48``);
- through battle files otherwise (``exchange_needed``): the attacker's
  computer writes a question file, the defender's computer a reply, until
  the battle ends; the attacker's turn file then carries every battle file
  so that each player replays the slot and checks the defender's signature.

Dice (``000:176``; docs/file-format.md 7.2, 7.4): ``BattleDice`` gives the
rules every ``battle/<id>/...`` roll of a battle that has exchanged files from
the seed of its last exchange (the attacker's committed nonce and the
defender's nonce), every other roll from the slot's seed.  The attacker's own
answers given while a question was out to the defender are committed with
the nonce (``hidden_commit``), so neither side can change its choices of a
round once the other's are known.

``play`` is the one way a slot's state is computed from its start: the
acting power's actions and the defender's answers in their recorded order,
automatic answers after each.  The attacker's computer, the defender's and
every third party use it, so all get the same state.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from eiapbem import ai
from eiapbem.client import naval_files
from eiapbem.core.errors import BadEncoding
from eiapbem.pbem import crypto, envelope, folders
from eiapbem.pbem.chain import Battle, Chain
from eiapbem.pbem.errors import AuthorNotAllowed, BadDice, BadHeader
from eiapbem.core import canonical
from eiapbem.rules import engine
from eiapbem.core.dice import Dice, DiceError
from eiapbem.rules.engine import AnswerDecision
from eiapbem.rules.model import GameState

HIDDEN_LABEL = b"eiapbem/v1/battle-hidden\x00"
#: Bodies of the three battle file roles (docs/file-format.md 7.4).
QUESTION_KEYS = frozenset({"battle", "slot", "ask", "hidden", "state", "hash", "questions"})
REPLY_KEYS = frozenset({"battle", "answers"})
CLOSE_KEYS = frozenset({"battle", "result"})


def battle_id_of_label(label: str) -> str | None:
    """The battle id of a ``battle/<id>/...`` or naval ``naval/<id>/...`` dice label."""
    if not label.startswith(("battle/", "naval/")):
        return None
    parts = label.split("/")
    return parts[1] if len(parts) > 2 else None


class BattleDice(Dice):
    """The rules' dice in a slot: battle labels of exchanged battles from their seed, the rest from the slot's.

    ``to_obj`` and ``record`` are the slot dice's (what the turn file records
    and every client re-derives from the slot seed); battle rolls are derived
    again by every client from the nonces of the battle files.
    """

    def __init__(self, slot: Dice) -> None:  # noqa: D107 - no seed of its own
        self.slot = slot
        self._battle: dict[str, Dice] = {}
        self._rolled: dict[str, tuple[int, int]] = {}

    def use(self, battle: str, seed: bytes) -> None:
        """From now on, ``battle``'s labels come from ``seed`` (the seed of its latest exchange)."""
        self._battle[battle] = Dice(seed)

    @property
    def record(self) -> dict[str, tuple[int, int]]:
        return self.slot.record

    def to_obj(self) -> dict[str, list[int]]:
        return self.slot.to_obj()

    def roll(self, label: str, sides: int) -> int:
        if label in self._rolled:
            s, v = self._rolled[label]
            if s != sides:
                raise DiceError(f"label {label!r} was rolled as a d{s}, now asked as a d{sides}")
            return v
        bid = battle_id_of_label(label)
        source = self._battle.get(bid) if bid is not None else None
        value = (source or self.slot).roll(label, sides)
        self._rolled[label] = (sides, value)
        return value


class NoRoll(Exception):
    """The rules wanted a die: the defender's computer cannot know it (the attacker's nonce is secret)."""


class NoRollDice(Dice):
    """Dice for the defender's look ahead: any roll stops it."""

    def __init__(self) -> None:  # noqa: D107
        pass

    def roll(self, label: str, sides: int) -> int:
        raise NoRoll(label)

    def to_obj(self) -> dict[str, list[int]]:
        return {}


# ----------------------------------------------------------------- who answers


def exchange_needed(state: GameState, decision: Any) -> bool:
    """A battle question for a power other than the slot's, answered through battle files (4.2.7, ``000:170``).

    Field or trivial combat with more than one corps of the defender engaged,
    and the option PBEM Quick Combat off (4.1.1, ``000:48``).
    """
    from eiapbem.rules.combat.battle import is_corps

    slot = state.slot
    if slot is None or slot.simultaneous or decision.power == slot.power:
        return False
    if not decision.kind.startswith(("battle.", "naval.")) or ai.is_ai(state, decision.power) or ai.is_ai(state, slot.power):
        return False  # the computer answers at every client; in its own slot, nobody could carry files
    if decision.kind.startswith("naval."):  # naval_files: the other side's naval questions travel too
        return naval_files.exchange_needed(state, decision)
    battle = state.battles.get(decision.context.get("battle"))
    if battle is None or battle.finished or state.options.pbem_quick_combat:
        return False
    return sum(1 for u in battle.defender.units if is_corps(state, u)) > 1


def automatic(state: GameState, decision: Any) -> bool:
    """A battle question of another power that its standing orders answer in the acting power's slot."""
    slot = state.slot
    if slot is None or slot.simultaneous or decision.power == slot.power:
        return False
    if ai.is_ai(state, decision.power):
        return False  # answered by its level (eiapbem.ai.settle), not by standing orders
    if decision.kind.startswith("siege."):
        return decision.context.get("siege") in state.sieges  # no battle files for sieges (000:170)
    if decision.kind.startswith("naval."):  # standing orders where no file travels (naval_files)
        return naval_files.automatic(state, decision)
    if not decision.kind.startswith("battle."):
        return False
    battle = state.battles.get(decision.context.get("battle"))
    return battle is not None and not battle.finished and not exchange_needed(state, decision)


def auto_answer(state: GameState, ctx: engine.RulesContext) -> GameState:
    """Answer every automatic question with its standing order (``rules.combat.standing``), and every
    question of a computer power with its level's answer (``eiapbem.ai.settle``)."""
    from eiapbem.rules.combat import standing

    for _ in range(100000):
        due = sorted((d for d in state.pending.values() if automatic(state, d)), key=lambda d: d.id)
        if not due:
            if not any(ai.is_ai(state, d.power) for d in state.pending.values()):
                return state
            state = ai.settle(state, ctx).state  # the computer's answers, then look again
            continue
        d = due[0]
        state = engine.apply_action(state, d.power, AnswerDecision(d.id, standing.answer(state, d, ctx)), ctx).state
    raise RuntimeError("automatic battle answers do not end")  # pragma: no cover - a rules bug


def questions_for(state: GameState, power: str, battle: str) -> list[Any]:
    return sorted((d for d in state.pending.values() if d.power == power and d.context.get("battle") == battle),
                  key=lambda d: d.id)


# ----------------------------------------------------------------- the slot's script


@dataclass(frozen=True)
class Exchange:
    """One question and reply: ``ask`` own actions were taken when the question arose, ``at`` when the reply is applied."""

    battle: str
    by: str
    ask: int
    at: int
    answers: tuple
    seed: bytes


@dataclass(frozen=True)
class Played:
    state: GameState
    #: For each exchange, the state hash at its question (what the defender was shown).
    asked: tuple[bytes, ...]
    events: tuple = ()


def play(state: GameState, power: str, actions: Sequence[Any], exchanges: Sequence[Exchange],
         ctx: engine.RulesContext) -> Played:
    """The slot from its start: own actions and exchanges in order, automatic answers after each step.

    ``ctx.dice`` must be a ``BattleDice``; the exchanges switch its battle seeds.
    """
    dice = ctx.dice
    assert isinstance(dice, BattleDice)
    n_log = len(state.log)
    state = auto_answer(state, ctx)
    asked: list[bytes] = []
    k = 0

    def mark(own: int) -> None:
        if k < len(exchanges) and len(asked) == k and exchanges[k].ask == own:
            asked.append(state.state_hash())

    for i in range(len(actions) + 1):
        while k < len(exchanges) and exchanges[k].at == i:
            mark(i)
            ex = exchanges[k]
            dice.use(ex.battle, ex.seed)
            for a in ex.answers:
                state = engine.apply_action(state, ex.by, a, ctx).state
                state = auto_answer(state, ctx)
            k += 1
        mark(i)
        if i < len(actions):
            state = engine.apply_action(state, power, actions[i], ctx).state
            state = auto_answer(state, ctx)
    if k != len(exchanges):
        raise BadEncoding("the battle exchanges of the slot are not in the order of its actions")
    return Played(state, tuple(asked), tuple(state.log[n_log:]))


def check_plan(exchanges: Sequence[Exchange], n_actions: int, name: str) -> None:
    last = 0
    for ex in exchanges:
        if not (last <= ex.ask <= ex.at <= n_actions):
            raise BadEncoding(f"{name} places a battle exchange out of the order of its actions")
        last = ex.at


def hidden_commit(nonce: bytes, actions: Sequence[dict]) -> bytes:
    """Binds the attacker's answers given while its question was out (docs/file-format.md 7.4)."""
    return hashlib.sha256(HIDDEN_LABEL + nonce + canonical.encode(list(actions))).digest()


def place_of(area: str) -> str:
    """``Lille`` for the area ``lille`` (the file name's place, ``000:172``)."""
    return "-".join(p[:1].upper() + p[1:] for p in area.split("-"))[:40]


def index_of(bid: str) -> int:
    if not bid.startswith("battle:"):
        return naval_files.index_of(bid)
    return int(bid.rsplit(":", 1)[1])


def slot_label(slot_key: str, area: str, bid: str) -> str:
    """The battle file's header slot: ``1805-09/land/turn/FR/battle/Ulm0``."""
    return f"{slot_key}/battle/{place_of(area)}{index_of(bid)}"


def file_name(game: str, area: str, bid: str) -> str:
    return folders.battle_name(game, place_of(area), index_of(bid))


# ----------------------------------------------------------------- checking a battle's files


@dataclass(frozen=True)
class Opened:
    """One battle file, checked: its envelope, header, body and hash."""

    env: envelope.Envelope
    body: Any
    hash: bytes


def check_files(chain: Chain, bid: str, area: str, attacker: str, defender: str, slot_key: str,
                files_: Sequence[Any], name: str) -> tuple[list[Opened], Battle]:
    """Check the files of one battle as a third party: signatures, order, roles, nonces, bodies.

    ``files_`` is ``[[file bytes, file key], ...]`` from a turn body; the keys
    open the bodies (docs/file-format.md 7.4).  ``chain`` is the chain at the
    start of the slot.  Raises a ``BadFile`` naming the first fault.
    """
    record = Battle.begin(chain, place_of(area), attacker, defender)
    out: list[Opened] = []
    label = slot_label(slot_key, area, bid)
    if not isinstance(files_, list) or len(files_) < 3 or len(files_) % 2 == 0:
        raise BadEncoding(f"{name} carries the battle files of {bid} in an unknown form")
    for i, item in enumerate(files_):
        what = f"battle file {i + 1} of {bid} in {name}"
        if not (isinstance(item, list) and len(item) == 2 and isinstance(item[0], bytes) and isinstance(item[1], bytes)):
            raise BadEncoding(f"{name} carries the battle files of {bid} in an unknown form")
        env = envelope.parse(item[0], what)
        h = env.header
        if h.kind != "battle":
            raise BadHeader(f"{what} is a {h.kind} file, not a battle file")
        want = attacker if i % 2 == 0 else defender
        if h.author != want:
            raise AuthorNotAllowed(f"{what} is signed by {h.author}, but {want} writes it")
        if h.slot != label:
            raise BadHeader(f"{what} is for {h.slot}, not for {label}")
        last = i == len(files_) - 1
        if (h.commit is None) != (i % 2 == 1 or last) or (h.nonce is None) != (i == 0):
            raise BadDice(f"{what} does not carry the nonce and commitment its place in the exchange needs (7.2)")
        record = record.accept(chain, env, what, me=())
        body = crypto.open_body(env, item[1], what)
        keys = CLOSE_KEYS if last else (QUESTION_KEYS if i % 2 == 0 else REPLY_KEYS)
        if not isinstance(body, dict) or set(body) != keys or body["battle"] != bid:
            raise BadEncoding(f"{what} does not hold a battle step in the expected form")
        out.append(Opened(env, body, crypto.file_hash(env)))
    return out, record


def exchanges_of(opened: Mapping[str, Sequence[Opened]], plan: Sequence[Any], secrets: Mapping[str, bytes],
                 defenders: Mapping[str, str], name: str, *, complete: bool = True) -> list[Exchange]:
    """The exchanges of a slot from its battles' files and the plan ``[[battle, ask, at], ...]``.

    The attacker's nonce of exchange j is revealed in its next file; ``secrets``
    gives the attacker's own unrevealed nonce (on the attacker's computer only).
    """
    seen: dict[str, int] = {}
    out = []
    if not isinstance(plan, list):
        raise BadEncoding(f"{name} lists its battle exchanges in an unknown form")
    for item in plan:
        if not (isinstance(item, list) and len(item) == 3 and isinstance(item[0], str)
                and all(isinstance(v, int) and not isinstance(v, bool) for v in item[1:])):
            raise BadEncoding(f"{name} lists its battle exchanges in an unknown form")
        bid, ask, at = item
        j = seen.get(bid, 0)
        seen[bid] = j + 1
        files_ = opened.get(bid)
        if files_ is None or 2 * j + 1 >= len(files_):
            raise BadEncoding(f"{name} lists an exchange of {bid} without its battle files")
        q, r = files_[2 * j], files_[2 * j + 1]
        if 2 * j + 2 < len(files_):
            a = files_[2 * j + 2].env.header.nonce
        else:
            a = secrets.get(bid)
        b = r.env.header.nonce
        commit = q.env.header.commit
        if a is None or b is None or commit is None or crypto.nonce_commit(a) != commit:
            raise BadDice(f"{name}: the nonces of exchange {j + 1} of {bid} do not match their commitment (7.2)")
        if q.body["ask"] != ask:
            raise BadEncoding(f"{name}: the question of exchange {j + 1} of {bid} was asked at another point of the slot")
        answers = r.body["answers"]
        if not isinstance(answers, list) or not answers:
            raise BadEncoding(f"{name}: the reply of exchange {j + 1} of {bid} holds no answers")
        acts = tuple(engine.action_from_obj(o, f"{name} {bid} reply {j + 1}") for o in answers)
        if not all(isinstance(x, AnswerDecision) for x in acts):
            raise BadEncoding(f"{name}: a battle reply may only answer questions")
        out.append(Exchange(bid, defenders[bid], ask, at, acts, crypto.battle_seed(a, b, q.hash)))
    for bid, files_ in opened.items():
        if complete and len(files_) != 2 * seen.get(bid, 0) + 1:
            raise BadEncoding(f"{name} carries battle files of {bid} that no exchange uses")
    return out


def check_hidden(opened: Mapping[str, Sequence[Opened]], exchanges: Sequence[Exchange], secrets: Mapping[str, bytes],
                 actions: Sequence[dict], name: str) -> None:
    """The attacker's answers between each question and its reply are those it committed to (7.3)."""
    seen: dict[str, int] = {}
    for ex in exchanges:
        j = seen.get(ex.battle, 0)
        seen[ex.battle] = j + 1
        files_ = opened[ex.battle]
        a = files_[2 * j + 2].env.header.nonce if 2 * j + 2 < len(files_) else secrets.get(ex.battle)
        assert a is not None
        if hidden_commit(a, list(actions[ex.ask:ex.at])) != files_[2 * j].body["hidden"]:
            raise BadDice(f"{name}: the attacker's choices in exchange {j + 1} of {ex.battle} are not the ones it "
                          "committed to before the reply (000:176)")


def check_asked(opened: Mapping[str, Sequence[Opened]], exchanges: Sequence[Exchange], asked: Sequence[bytes],
                name: str) -> None:
    """Each question showed the defender the state the replay has at that point."""
    seen: dict[str, int] = {}
    for k, ex in enumerate(exchanges):
        j = seen.get(ex.battle, 0)
        seen[ex.battle] = j + 1
        q = opened[ex.battle][2 * j].body
        if k >= len(asked) or q["hash"] != asked[k]:
            raise BadDice(f"{name}: question {j + 1} of {ex.battle} showed the defender another state than the slot's replay")


def area_of(bid: str) -> str:
    """The area of a battle id ``battle:1805-09:ulm:0``."""
    if not bid.startswith("battle:"):
        return naval_files.area_of(bid)
    parts = bid.split(":")
    if len(parts) != 4 or parts[0] != "battle":
        raise BadEncoding(f"{bid!r} is not a battle id")
    return parts[2]


def fight_area(state: GameState, bid: str) -> str:
    """Where a land or naval battle of the slot is fought (the battle file's place)."""
    return naval_files.area(state, bid) if bid in state.naval_battles else state.battles[bid].area


def fight_finished(state: GameState, bid: str) -> bool:
    return naval_files.finished(state, bid) if bid in state.naval_battles else state.battles[bid].finished


def fight_result(state: GameState, bid: str) -> str:
    return naval_files.result(state, bid) if bid in state.naval_battles else state.battles[bid].result
