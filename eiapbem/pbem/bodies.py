"""The bodies of the game's files as typed records (docs/file-format.md; issue 15 item 2, issue 20 item 1).

A body is decoded with the same strict validator as the game state
(``eiapbem.core.record``): every field's type and range, no unknown or missing
key; a body of a wrong form, even in a validly signed file from a member of the
game, is refused with one ``BadEncoding`` sentence naming the file and the
field, before anything of it is used.  What a higher layer decodes again
strictly itself (an action or admin act, a log entry) is a ``Plain`` value
here.

- ``TurnBody``: a turn file, and a power's orders in a simultaneous slot
  (the same form);
- ``AdminBody``: a host admin file (4.2.8);
- ``BattleAsk`` / ``BattleReply`` / ``BattleClose``: the three battle
  file roles (docs/file-format.md 7.4; ``BattleQuestion``, the question of
  battle format 1, is still read);
- ``GamestartBody``, ``SetupBody``: the gamestart file, a saved setup;
- ``SaveBody``: the game part of a player's own save; ``BackupBody`` a host backup's;
- ``UpgradeBody``: the host's move of the game to a newer eiapbem (a new epoch, issue 29).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, TypeVar

from eiapbem.core.errors import BadEncoding
from eiapbem.core.powers import POWERS
from eiapbem.core.errors import InvalidValue
from eiapbem.core.frozenmap import FrozenMap
from eiapbem.core.record import Record
from eiapbem.core.spec import OneOf, Pattern, Plain, Range

#: The kinds of player a game's roster names (4.2.1).
PLAYER_TYPES = ("host", "client", "hotseat", "ai-easy", "ai-medium", "ai-hard")
MAX_COUNT = 1 << 20

Power = Annotated[str, OneOf(POWERS)]
Count = Annotated[int, Range(0, MAX_COUNT)]
Release = Annotated[str, Pattern(r"[0-9A-Za-z.+-]{0,40}", "release")]

R = TypeVar("R", bound=Record)


#: The body format of turn, admin and save bodies: 2 since the state left the files and the log left the state.
BODY_FORMAT = 2


def decode(cls: type[R], obj: Any, name: str, what: str) -> R:
    """``cls`` from a body, or one sentence: ``NAME does not hold WHAT in the expected form (FIELD: why)``."""
    if cls in (TurnBody, AdminBody) and isinstance(obj, dict) and "state" in obj and "parts" not in obj:
        raise BadEncoding(f"{name} is a file of body format 1 (it carries the whole state); this eiapbem reads "
                          f"format {BODY_FORMAT}", hint="no game of format 1 can go on; start it again, or use the "
                          "eiapbem version that wrote the file")
    if cls is SaveBody and isinstance(obj, dict) and "journal" not in obj:
        raise BadEncoding(f"{name} is a save of format 1 (its game log is inside the state); this eiapbem reads "
                          f"format {BODY_FORMAT}", hint="no game of format 1 can go on; start it again, or use the "
                          "eiapbem version that wrote the save")
    obj = _later_fields(cls, obj)
    try:
        return cls._from_obj(obj, "")
    except InvalidValue as err:
        raise BadEncoding(f"{name} does not hold {what} in the expected form ({err.path or 'top level'}: {err.reason})",
                          hint="ask its sender to send it again; a file from another version of eiapbem cannot be read") from err


def _later_fields(cls: type, obj: Any) -> Any:
    """Fields added to a body after files were written without them, filled in with their empty value:
    the scenario's hash and ``based_on`` of an edited scenario (14.5, 14.6; docs/file-format.md 11), the save's
    diplomatic reactions (issue 16), its orders for next month and whether sealed orders were sealed ahead (issue 33),
    the release a game plays (issue 29)."""
    if not isinstance(obj, dict):
        return obj
    if cls in (BackupBody, UpgradeBody) and isinstance(obj.get("game"), dict):
        return dict(obj, game=_later_fields(SaveBody, obj["game"]))
    if cls not in (GamestartBody, SaveBody):
        return obj
    obj = dict(obj)
    if cls is GamestartBody:
        obj.setdefault("scenario_hash", "")
    if isinstance(obj.get("meta"), dict):
        later: dict[str, Any] = {"reactions": {}, "ahead": {}} if cls is SaveBody else {}
        obj["meta"] = {"based_on": "", "release": "", **later, **obj["meta"]}
        sealed = obj["meta"].get("sealed")
        if cls is SaveBody and isinstance(sealed, dict):  # a power's sealed orders before issue 33: not sealed ahead
            obj["meta"]["sealed"] = {p: {"ahead": False, **v} if isinstance(v, dict) else v for p, v in sealed.items()}
    return obj


def _hash(value: bytes, path: str) -> None:
    if len(value) != 32:
        raise InvalidValue(f"a state hash has 32 bytes, not {len(value)}", path=path)


# ----------------------------------------------------------------- turn and orders


@dataclass(frozen=True, slots=True)
class TurnBody(Record):
    """A turn file's body (docs/file-format.md 5): what the acting power did in its slot."""

    #: The game's slot key (``1805-03/naval/turn/GB``).
    slot: str
    power: Power
    #: The actions, as ``engine.action_to_obj`` (each decoded strictly by the rules).
    actions: tuple[Plain, ...]
    #: The record of rolls: label -> [sides, value].
    dice: FrozenMap[str, tuple[int, ...]]
    #: The state hashes at the start of the slot and after it (after the power's own orders in a simultaneous one).
    before: bytes
    after: bytes
    #: Where the state after is: its slot key, or "game over" (the point ``admin sync-check`` compares at).
    at: str
    reloads: Count
    #: The public log lines the slot made (``LogEntry.to_obj``), for every reader's journal.
    events: tuple[Plain, ...]
    #: A digest of each part of the state after (``client.turns.state_parts``): names the first differing part.
    parts: FrozenMap[str, bytes]
    #: {battle id: [[battle file, file key], ...]}: battle files exchanged with a human defender (4.2.7).
    battles: FrozenMap[str, tuple[tuple[bytes, ...], ...]]
    #: [[battle id, ask, at], ...]: where the defender's replies come among the actions.
    exchanges: tuple[tuple[Plain, ...], ...]

    def _check(self) -> None:
        _hash(self.before, "before")
        _hash(self.after, "after")
        for k, v in self.dice.items():
            if len(v) != 2:
                raise InvalidValue("a roll is [sides, value]", path=f"dice.{k}")
        for k, fl in self.battles.items():
            if any(len(item) != 2 for item in fl):
                raise InvalidValue("a battle file is [file, key]", path=f"battles.{k}")

    def agree(self, author: str, reloads: int | None, name: str) -> None:
        """The body and the signed header say the same (issue 20): author and reloads."""
        if self.power != author:
            raise BadEncoding(f"{name} is signed by {author} but its body says it is {self.power}'s turn")
        if self.reloads != (reloads or 0):
            raise BadEncoding(f"{name} counts {self.reloads} reload(s) inside but {reloads or 0} in its signed header")


# ----------------------------------------------------------------- admin


@dataclass(frozen=True, slots=True)
class Person(Record):
    name: str
    email: str


@dataclass(frozen=True, slots=True)
class PlayerRow(Record):
    name: str
    email: str
    type: Annotated[str, OneOf(PLAYER_TYPES)]


@dataclass(frozen=True, slots=True)
class Roster(Record):
    """Who plays what after an admin file: a player's name, address and kind; the host's name and address."""

    players: FrozenMap[Power, PlayerRow]
    host: Person

    def _check(self) -> None:
        if tuple(self.players) != POWERS:
            raise InvalidValue(f"the players are exactly {' '.join(POWERS)}", path="players")


@dataclass(frozen=True, slots=True)
class AdminBody(Record):
    """A host admin file's body (4.2.8)."""

    #: The admin acts, as ``rules.admin.admin_to_obj`` (each decoded strictly by the rules).
    acts: tuple[Plain, ...]
    before: bytes
    after: bytes
    at: str
    meta: Roster
    events: tuple[Plain, ...]
    parts: FrozenMap[str, bytes]

    def _check(self) -> None:
        _hash(self.before, "before")
        _hash(self.after, "after")
        if not self.acts:
            raise InvalidValue("an admin file holds at least one act", path="acts")


# ----------------------------------------------------------------- battle files (docs/file-format.md 7.4)


@dataclass(frozen=True, slots=True)
class BattleQuestion(Record):
    """The attacker's question of battle format 1 (the whole state): still read, no longer written (``BattleAsk``)."""

    battle: str
    slot: str
    ask: Count
    hidden: bytes
    state: bytes
    hash: bytes
    questions: tuple[str, ...]

    def _check(self) -> None:
        _hash(self.hash, "hash")
        _hash(self.hidden, "hidden")


@dataclass(frozen=True, slots=True)
class BattleAsk(Record):
    """The attacker's question of battle format 2: what changed since the slot's start, not the whole state.

    ``base`` is the hash of the state at the start of the slot (which the
    defender holds), ``delta`` the changes from it to the state the question
    shows (``core.delta``), ``hash`` that state's hash (docs/file-format.md 7.4).
    """

    battle: str
    slot: str
    ask: Count
    hidden: bytes
    base: bytes
    delta: bytes
    hash: bytes
    questions: tuple[str, ...]

    def _check(self) -> None:
        _hash(self.hash, "hash")
        _hash(self.base, "base")
        _hash(self.hidden, "hidden")


@dataclass(frozen=True, slots=True)
class BattleReply(Record):
    """The defender's answers, as action objects."""

    battle: str
    answers: tuple[Plain, ...]


@dataclass(frozen=True, slots=True)
class BattleClose(Record):
    """The attacker's last file: the result."""

    battle: str
    result: str


BATTLE_ROLES: dict[frozenset[str], type[Record]] = {
    frozenset({"battle", "slot", "ask", "hidden", "state", "hash", "questions"}): BattleQuestion,
    frozenset({"battle", "slot", "ask", "hidden", "base", "delta", "hash", "questions"}): BattleAsk,
    frozenset({"battle", "answers"}): BattleReply,
    frozenset({"battle", "result"}): BattleClose,
}


def battle_body(obj: Any, name: str, *roles: type[Record]) -> Any:
    """A battle file's body as one of ``roles`` (by its keys), or one sentence."""
    cls = BATTLE_ROLES.get(frozenset(obj)) if isinstance(obj, dict) and all(isinstance(k, str) for k in obj) else None
    if cls is None or cls not in roles:
        raise BadEncoding(f"{name} does not hold a battle step in the expected form")
    return decode(cls, obj, name, "a battle step")


# ----------------------------------------------------------------- the player's own save


@dataclass(frozen=True, slots=True)
class FileNote(Record):
    file: str
    slot: str
    author: str
    made: str


@dataclass(frozen=True, slots=True)
class SealedOrders(Record):
    """A power's sealed diplomacy orders between its commitment and its reveal (``client/orders.py``, issue 16)."""

    phase: str
    nonce: bytes
    actions: tuple[Plain, ...]
    #: Sealed ahead in the power's land file of the month before (issue 33): revealed with ``diplomacy.reveal-ahead``.
    ahead: bool = False


@dataclass(frozen=True, slots=True)
class SaveMeta(Record):
    """Who plays what, the scenario, the versions the game was started with, the host's notes (4.2.8)."""

    scenario: str
    players: FrozenMap[Power, PlayerRow]
    host: Person
    #: ``rules.turn.versions`` at the game's start (checked when the save is opened).
    versions: FrozenMap[str, int]
    head: FileNote | None = None
    #: {power: [[slot, reloads], ...]}: the reloads reported (4.2.7).
    reloads: FrozenMap[Power, tuple[tuple[Plain, ...], ...]] = FrozenMap()
    #: The shipped scenario an edited scenario was made from (its default setups, 14.5); "" if none.
    based_on: str = ""
    #: The local powers' sealed diplomacy orders awaiting their reveal (issue 16), never sent to anyone.
    sealed: FrozenMap[Power, SealedOrders] = FrozenMap()
    #: The local powers' diplomatic reactions, as the orders that set them, sent sealed each month (issue 16).
    reactions: FrozenMap[Power, tuple[Plain, ...]] = FrozenMap()
    #: The local powers' diplomacy orders for next month given so far, sealed in their land file (issue 33).
    ahead: FrozenMap[Power, tuple[Plain, ...]] = FrozenMap()
    #: The eiapbem release that plays ``versions`` (``eiapbem.__version__``; "" in games begun before it was kept).
    release: Release = ""


@dataclass(frozen=True, slots=True)
class Outbox(Record):
    """A file being sent: kept in the save until it is in ``commout/`` (a crash in between cannot lose it)."""

    name: str
    data: bytes
    what: str


# ----------------------------------------------------------------- the battle book (4.2.7, docs/file-format.md 7)

Index = Annotated[int, Range(-1, MAX_COUNT)]


@dataclass(frozen=True, slots=True)
class Fight(Record):
    """A battle of the acting power's slot whose defender plays in another folder or seat: its files so far."""

    #: Where it is fought (the files' place, 000:172).
    area: str
    defender: Power
    #: The battle's side chain (``pbem.chain.Battle.to_obj``); None before its first file.
    record: Plain | None
    #: [[battle file, its file key], ...]: the questions written and the replies loaded, in order.
    files: tuple[tuple[bytes, ...], ...]
    #: The attacker's nonce committed in its last question, revealed in its next file (b"" once revealed, 7.2).
    secret: bytes
    #: A question is out: the slot waits for the defender's reply.
    out: bool
    #: The number of actions taken when a question for the defender arose (-1: none waiting to be written).
    ask: Index
    #: The same for the question out (where its reply comes in the plan).
    qask: Index
    #: The close is written: the battle is over.
    closed: bool
    #: The last battle file written for it.
    name: str

    def _check(self) -> None:
        if any(len(item) != 2 for item in self.files):
            raise InvalidValue("a battle file is [file, key]", path="files")


@dataclass(frozen=True, slots=True)
class Answer(Record):
    """A battle of another power's slot that this folder's power answers: the question shown, the answers so far."""

    power: Power
    attacker: Power
    area: str
    #: The battle's side chain (``pbem.chain.Battle.to_obj``); None before the first question is accepted.
    record: Plain | None
    #: The battle as the last question shows it (``GameState.encode``; b"" once the battle is over).
    state: bytes
    #: The decisions the question asks of this power.
    questions: tuple[str, ...]
    #: The answers given so far (``engine.action_to_obj``).
    answers: tuple[Plain, ...]
    #: The reply is written.
    sent: bool
    #: The result the attacker's close gave ("" while the battle goes on).
    over: str
    #: The last battle file loaded or written.
    name: str
    #: The reply written, for an attacker at this computer (b"" before).
    reply: bytes


@dataclass(frozen=True)
class BattleBook(Record):
    """The battle-file exchange of the slot in play, this folder's own (``client/exchange.py``, 4.2.7).

    Written without its empty parts (the form the save has always had); a part absent is empty.
    """

    #: [[battle, ask, at], ...] in reply order: each exchange done, the actions taken when its question was
    #: asked and when its reply came (``client.battles.exchanges_of``; a turn file's ``exchanges``).
    plan: tuple[tuple[Plain, ...], ...] = ()
    #: The acting power's battles with a defender elsewhere, by battle id.
    fights: FrozenMap[str, Fight] = FrozenMap()
    #: The battles this folder's power answers as defender, by battle id.
    answer: FrozenMap[str, Answer] = FrozenMap()

    def _check(self) -> None:
        for i, item in enumerate(self.plan):
            if len(item) != 3 or type(item[0]) is not str or any(type(v) is not int or v < 0 for v in item[1:]):
                raise InvalidValue("an exchange is [battle, ask, at]", path=f"plan[{i}]")

    def to_obj(self) -> dict[str, Any]:
        return {k: v for k, v in super().to_obj().items() if v}

    @classmethod
    def _from_obj(cls, obj: Any, path: str) -> "BattleBook":
        if isinstance(obj, dict):
            obj = {"plan": [], "fights": {}, "answer": {}, **obj}
        return super()._from_obj(obj, path)


@dataclass(frozen=True, slots=True)
class SaveBody(Record):
    """The game part of a save (``pbem.files.SaveContents.game``)."""

    state: bytes
    meta: SaveMeta
    taken: FrozenMap[Power, tuple[Plain, ...]]
    orders: FrozenMap[Power, tuple[Plain, ...]]
    outbox: Outbox | None
    #: The battle-file bookkeeping of the slot in play (``client/exchange.py``), the player's own.
    battles: BattleBook
    #: The game's journal: the public log lines so far (``LogEntry.to_obj``), outside the hashed state.
    journal: tuple[Plain, ...]


@dataclass(frozen=True, slots=True)
class GamestartMeta(Record):
    versions: FrozenMap[str, int]
    scenario: str
    host: Person
    players: FrozenMap[Power, PlayerRow]
    #: The shipped scenario an edited scenario was made from (14.5); "" if none; absent in older files.
    based_on: str = ""
    #: The eiapbem release that plays ``versions`` (issue 29); absent in older files.
    release: Release = ""

    def _check(self) -> None:
        if tuple(self.players) != POWERS:
            raise InvalidValue(f"the players are exactly {' '.join(POWERS)}", path="players")


@dataclass(frozen=True, slots=True)
class GamestartBody(Record):
    """The gamestart file's body (4.2.2): who plays what, the options, the bids, the first state's hash."""

    meta: GamestartMeta
    #: ``Options.to_obj`` (decoded strictly by the rules).
    options: Plain
    bids: FrozenMap[Power, Annotated[int, Range(0, 1000)]]
    state_hash: bytes
    #: A GAP selection's pre-existing wars (4.2.10): pairs of powers; absent from the file when there are none.
    wars: tuple[tuple[Power, ...], ...] = ()
    #: 14.6: SHA-256 (hex) of the scenario's canonical JSON (``data.scenario_file.digest``); every client
    #: compares it with its own copy on joining; absent in older files.
    scenario_hash: str = ""

    def _check(self) -> None:
        _hash(self.state_hash, "state_hash")
        if any(len(w) != 2 for w in self.wars):
            raise InvalidValue("a war is a pair of powers", path="wars")


@dataclass(frozen=True, slots=True)
class SetupBody(Record):
    """A saved setup (5.2.2): the setup actions of one power in one scenario."""

    scenario: str
    power: Power
    actions: tuple[Plain, ...]


@dataclass(frozen=True, slots=True)
class BackupBody(Record):
    """A host backup's body (4.2.8, 000:216-226): the game part of the member's new save."""

    game: SaveBody


@dataclass(frozen=True, slots=True)
class UpgradeBody(Record):
    """The host's upgrade file's body (issue 29): the game moves to the versions its header names.

    ``act`` is the ``admin.upgrade`` act (``rules.admin.Upgrade``, its public log line); ``before`` the
    state hash the game stands at, ``after`` the hash of the state the new release makes of it (the
    header's ``state``); ``game`` the game as the host's save holds it after the upgrade, with its
    whole journal: what an audit or a rebuild by the new release starts from when it does not replay
    the files before (they were played under other versions)."""

    act: Plain
    before: bytes
    after: bytes
    game: SaveBody

    def _check(self) -> None:
        _hash(self.before, "before")
        _hash(self.after, "after")


__all__ = ["PLAYER_TYPES", "AdminBody", "UpgradeBody", "Answer", "BackupBody", "BattleBook", "Fight", "GamestartBody", "GamestartMeta", "SetupBody", "BattleClose", "BattleQuestion", "BattleReply", "FileNote", "Outbox",
           "Person", "PlayerRow", "Roster", "SaveBody", "SaveMeta", "TurnBody", "battle_body", "decode"]
