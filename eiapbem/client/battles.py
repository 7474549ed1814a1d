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

Who answers which question, the dice of a slot with battle files and the
replay of a slot are rules (``eiapbem.rules.turn``: ``exchange_needed``,
``automatic``, ``BattleDice``, ``play_turn``); this module carries the files.
"""

from __future__ import annotations

import hashlib
import zlib
from dataclasses import dataclass
from typing import Any, Mapping, Sequence

from eiapbem import ai
from eiapbem.core.errors import BadEncoding, quoted
from eiapbem.pbem import bodies, crypto, envelope, folders, headers
from eiapbem.pbem.chain import Battle, Chain
from eiapbem.pbem.errors import AuthorNotAllowed, BadDice, BadHeader
from eiapbem.core import canonical, delta
from eiapbem.rules import engine
from eiapbem.core.dice import Dice
from eiapbem.rules import turn
from eiapbem.rules.engine import AnswerDecision
from eiapbem.rules.model import GameState
from eiapbem.rules.naval import files as naval_files
from eiapbem.rules.turn import BattleDice, Exchange, Played, automatic, exchange_needed  # noqa: F401 - the client's names

HIDDEN_LABEL = b"eiapbem/v1/battle-hidden\x00"


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


def auto_answer(state: GameState, ctx: engine.RulesContext) -> GameState:
    """The rules' automatic answers (``rules.turn.auto_answer``) with this eiapbem's computer players."""
    return turn.auto_answer(state, ctx, ai)


def questions_for(state: GameState, power: str, battle: str) -> list[Any]:
    return sorted((d for d in state.pending.values() if d.power == power and d.context.get("battle") == battle),
                  key=lambda d: d.id)


# ----------------------------------------------------------------- the slot's script


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


#: The three kinds of battle file (docs/file-format.md 7.4): the attacker's question, the defender's reply,
#: the attacker's close.  Each has its own name, so a folder keeps the last file of each kind.
FILE_KINDS = ("question", "reply", "close")


def file_name(game: str, area: str, bid: str, kind: str) -> str:
    """``pbembattle_GameName_Lille0-question.battle``: the manual's name (000:172) and the file's kind.

    Files are recognised by what they hold, not by name: a file under the older name without the kind
    (``pbembattle_GameName_Lille0.battle``, a game in progress) loads as before."""
    if kind not in FILE_KINDS:
        raise ValueError(f"a battle file is a {', '.join(FILE_KINDS)}, not {kind!r}")
    base = folders.battle_name(game, place_of(area), index_of(bid))
    return f"{base.removesuffix('.battle')}-{kind}.battle"


# ----------------------------------------------------------------- the question's state


#: The most a question's changes may inflate to (a state is far smaller; docs/file-format.md 8).
MAX_DELTA = 32 * 1024 * 1024


def state_delta(base: GameState, asked: GameState) -> bytes:
    """What a question carries of the state it shows (docs/file-format.md 7.4): its changes from ``base``, the
    state the defender holds, as canonical msgpack compressed with zlib (a battle's log lines are most of it)."""
    ops = delta.diff(canonical.decode(base.encode()), canonical.decode(asked.encode()))
    return zlib.compress(canonical.encode(ops), 9)


def rebuild(base: GameState, changes: bytes, want: bytes, name: str) -> GameState:
    """The state a question shows, from ``base`` and the question's changes; its hash checked."""
    data = base.encode()
    try:
        inflate = zlib.decompressobj()
        raw = inflate.decompress(changes, MAX_DELTA)
        if inflate.unconsumed_tail or not inflate.eof or inflate.unused_data:
            raise BadEncoding(f"{name} holds battle changes that are cut short, too large or followed by other bytes")
        ops = canonical.decode(raw)
        value = delta.patch(canonical.decode(data), ops, f"the battle changes in {name}")
        rebuilt = canonical.encode(value)
    except zlib.error as err:
        raise BadEncoding(f"{name} holds battle changes that cannot be read (zlib: {err})") from err
    except (TypeError, ValueError, RecursionError) as err:
        raise BadEncoding(f"{name} holds battle changes that do not make a game state") from err
    if hashlib.sha256(rebuilt).digest() != want:
        raise BadEncoding(f"{name} holds battle changes that do not make the state it names (its hash differs)")
    return GameState.decode(rebuilt)


# ----------------------------------------------------------------- checking a battle's files


@dataclass(frozen=True)
class Opened:
    """One battle file, checked: its envelope, header, body and hash."""

    env: envelope.Envelope
    body: Any
    hash: bytes


def _battle_header(o: "Opened") -> headers.BattleHeader:
    """The header of a battle file ``check_files`` opened (its kind checked there)."""
    h = o.env.header
    assert isinstance(h, headers.BattleHeader)
    return h


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
        if not isinstance(h, headers.BattleHeader):
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
        roles = (bodies.BattleClose,) if last else (bodies.BattleAsk, bodies.BattleQuestion) if i % 2 == 0 \
            else (bodies.BattleReply,)
        body = bodies.battle_body(crypto.open_body(env, item[1], what), what, *roles)
        if body.battle != bid:
            raise BadEncoding(f"{what} is a step of {body.battle}, not of {bid}")
        out.append(Opened(env, body.to_obj(), crypto.file_hash(env)))
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
            a = _battle_header(files_[2 * j + 2]).nonce
        else:
            a = secrets.get(bid)
        b = _battle_header(r).nonce
        commit = _battle_header(q).commit
        if a is None or b is None or commit is None or crypto.nonce_commit(a) != commit:
            raise BadDice(f"{name}: the nonces of exchange {j + 1} of {bid} do not match their commitment (7.2)")
        if q.body["ask"] != ask:
            raise BadEncoding(f"{name}: the question of exchange {j + 1} of {bid} was asked at another point of the slot")
        answers = r.body["answers"]
        if not answers:
            raise BadEncoding(f"{name}: the reply of exchange {j + 1} of {bid} holds no answers")
        acts = tuple(engine.action_from_obj(o, f"{name} {bid} reply {j + 1}") for o in answers)
        if not all(isinstance(x, AnswerDecision) or getattr(x, "KIND", "") == turn.PLAN for x in acts):
            raise BadEncoding(f"{name}: a battle reply may only answer questions, or give standing orders for the battle")
        if any(getattr(x, "KIND", "") == turn.PLAN and getattr(x, "battle", None) != bid for x in acts):
            raise BadEncoding(f"{name}: a reply in {bid} gives standing orders for another battle")
        out.append(Exchange(bid, defenders[bid], ask, at, acts, crypto.battle_seed(a, b, q.hash)))
    for bid, files_ in opened.items():
        if complete and len(files_) != 2 * seen.get(bid, 0) + 1:
            raise BadEncoding(f"{name} carries battle files of {bid} that no exchange uses")
    return out


def exchanges_so_far(book: bodies.BattleBook) -> list[Exchange]:
    """The exchanges done so far in the acting power's slot, from its own battle records (the save's battle book)."""
    if not book.plan:
        return []
    secrets = {bid: f.secret for bid, f in book.fights.items() if f.secret}
    opened = {}
    for bid, f in book.fights.items():
        items = []
        for i, (data, fk) in enumerate(f.files):
            env = envelope.parse(data, f"battle file {i + 1} of {bid}")
            items.append(Opened(env, crypto.open_body(env, fk), crypto.file_hash(env)))
        opened[bid] = items
    return exchanges_of(opened, [list(x) for x in book.plan], secrets, {bid: f.defender for bid, f in book.fights.items()},
                        "your battle files", complete=False)


def check_hidden(opened: Mapping[str, Sequence[Opened]], exchanges: Sequence[Exchange], secrets: Mapping[str, bytes],
                 actions: Sequence[dict], name: str) -> None:
    """The attacker's answers between each question and its reply are those it committed to (7.3)."""
    seen: dict[str, int] = {}
    for ex in exchanges:
        j = seen.get(ex.battle, 0)
        seen[ex.battle] = j + 1
        files_ = opened[ex.battle]
        a = _battle_header(files_[2 * j + 2]).nonce if 2 * j + 2 < len(files_) else secrets.get(ex.battle)
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
    """The area of a battle id ``battle:1805-09:ulm:0`` (or of a naval one, ``1805-10.english-channel.1``)."""
    if not bid.startswith("battle:"):
        return naval_files.area_of(bid)
    parts = bid.split(":")
    if len(parts) != 4 or parts[0] != "battle":
        raise BadEncoding(f"{quoted(bid)} is not a battle id")
    return parts[2]


def fight_area(state: GameState, bid: str) -> str:
    """Where a land or naval battle of the slot is fought (the battle file's place)."""
    return naval_files.area(state, bid) if bid in state.naval_battles else state.battles[bid].area


def fight_finished(state: GameState, bid: str) -> bool:
    return naval_files.finished(state, bid) if bid in state.naval_battles else state.battles[bid].finished


def fight_result(state: GameState, bid: str) -> str:
    return naval_files.result(state, bid) if bid in state.naval_battles else state.battles[bid].result


__all__ = ["BattleDice", "Exchange", "NoRoll", "NoRollDice", "Opened", "Played", "area_of", "auto_answer", "automatic",
           "check_asked", "check_files", "check_hidden", "check_plan", "exchange_needed", "exchanges_of", "exchanges_so_far", "fight_area", "fight_finished",
           "fight_result", "file_name",
           "hidden_commit", "index_of", "place_of", "questions_for", "slot_label"]
