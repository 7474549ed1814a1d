"""Structure-aware mutations of real files' bodies, validly re-signed by a member (issue 20 item 3).

Shared by the bounded fuzz run in the test suite (``tests/pbem/test_fuzz.py``,
hypothesis) and the long run (``tools/fuzz.py --minutes N``, seeded ``random``).
A *corpus* is a folder of a real game at one point and the files that may be
loaded there, with the keys of their authors (a member with a patched client).
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

import auditkit
from auditkit import GAME, home_of
from eiapbem.client import audit, setups
from eiapbem.client.session import Session
from eiapbem.core.errors import EiaError
from eiapbem.host import admin as hadmin


@dataclass
class Corpus:
    root: Path
    ids: dict
    #: (kind, receiver folder, file name, file bytes, author)
    files: list

    def receiver(self, home: Path, power: str) -> audit.Replay:
        """An in-memory session of ``home`` (nothing written), as the folder's save holds it."""
        cache = self.__dict__.setdefault("_cache", {})
        if home not in cache:
            s = Session.open_with(home, GAME, self.ids[power])
            cache[home] = (audit.Replay(s.home, s.game, s.me, s.contents, s.data, s.local), s.contents, s.data)
        rp, contents, data = cache[home]
        rp.contents, rp.data = contents, data
        return rp


def build(root: Path) -> Corpus:
    """RU's setup turn file (for TU, which has not loaded it) and the host's admin file (for TU after it)."""
    ids = auditkit.new(root)
    ru = Session.open_with(home_of(root, "RU"), GAME, ids["RU"])
    setups.load_setup(ru, "default")
    turn = ru.end_phase()
    shutil.copy(turn, home_of(root, "TU") / "commin" / turn.name)
    after = root / "TU-after"
    shutil.copytree(home_of(root, "TU"), after)
    Session.open_with(after, GAME, ids["TU"]).load_all()
    host = Session.open_with(home_of(root, "host"), GAME, ids["host"])
    adm = hadmin.edit(host, [__import__("eiapbem.rules.admin", fromlist=["AddMoney"]).AddMoney("FR", 3)])
    return Corpus(root, ids, [("turn", home_of(root, "TU"), turn.name, turn.read_bytes(), "RU"),
                              ("admin", after, adm.name, adm.read_bytes(), "host")])


LEAVES: list = [0, -1, 1, 2**31, -(2**63), 2**64 - 1, True, False, None, "", "x", "AU", "1805-01/setup/turn/RU",
                b"", b"\x00" * 32, [], {}, [1], {"a": 1}, [[1]], [{}], {"players": []}, 1805]


#: Per file kind, the body fields whose change may be accepted: read only to name a difference (a turn
#: file's state parts and place reached), or a battle question's
#: display, or the commitment to the attacker's hidden answers (``hidden``), which only the turn file that
#: carries the battle files can open and which every reader checks there (``battles.check_hidden``).
HARMLESS: dict = {"turn": {("state",), ("parts",), ("at",)}, "admin": {("state",), ("parts",), ("at",)},
                  "question": {("hidden",)}, "reply": set()}


def paths(obj: Any, prefix: tuple = ()) -> list[tuple]:
    """Every path into a body (map keys and list indexes), the body itself first."""
    out = [prefix]
    if isinstance(obj, dict):
        for k in sorted(obj, key=repr):
            out += paths(obj[k], prefix + (k,))
    elif isinstance(obj, list) and len(obj) <= 64:
        for i, v in enumerate(obj):
            out += paths(v, prefix + (i,))
    return out


def set_at(obj: Any, path: tuple, fn: Callable[[Any], Any]) -> Any:
    """A copy of ``obj`` with the value at ``path`` replaced by ``fn(value)`` (``DELETE`` removes a map key)."""
    if not path:
        return fn(obj)
    k, rest = path[0], path[1:]
    if isinstance(obj, dict):
        new = dict(obj)
        v = set_at(obj[k], rest, fn)
        if v is DELETE:
            del new[k]
        else:
            new[k] = v
        return new
    new = list(obj)
    v = set_at(obj[k], rest, fn)
    if v is DELETE:
        del new[k]
    else:
        new[k] = v
    return new


DELETE = object()


@dataclass
class Outcome:
    kind: str  # "refused", "accepted", "crash"
    text: str


def try_load(corpus: Corpus, item: tuple, data: bytes) -> Outcome:
    kind, home, name, _, _ = item
    rp = corpus.receiver(home, "TU")
    before = (rp.contents, rp.data)
    try:
        rp.turns.load_bytes(data, name)
    except EiaError as err:
        msg = str(err)
        if (rp.contents, rp.data) != before:
            return Outcome("crash", f"refused but changed the session: {msg}")
        if "\n" in msg or "Traceback" in msg or not msg:
            return Outcome("crash", f"not one sentence: {msg!r}")
        return Outcome("refused", msg)
    except Exception as err:  # noqa: BLE001 - this is what the fuzz looks for
        return Outcome("crash", f"{type(err).__name__}: {err}")
    return Outcome("accepted", "")


def mutate(corpus: Corpus, item: tuple, path: tuple, fn: Callable[[Any], Any]) -> bytes:
    kind, home, name, data, author = item
    reader = corpus.ids["TU"]
    roster = {r: i.public() for r, i in corpus.ids.items()}
    return auditkit.reseal(data, corpus.ids[author], reader, roster, lambda body: set_at(body, path, fn))


def body_of(corpus: Corpus, item: tuple) -> Any:
    from eiapbem.pbem import crypto, envelope

    env = envelope.parse(item[3])
    return crypto.open_body(env, crypto.unwrap_key(env, "TU", corpus.ids["TU"].decrypter))


# ----------------------------------------------------------------- battle files (issue 20: the question and reply files)


@dataclass
class BattleCorpus:
    """A battle between France (host folder) and Austria (a client): the first question and the first reply.

    ``files`` rows are (kind, receiver folder, file name, file bytes, author) like ``Corpus``; the
    receivers are the folders just before they loaded the file; ``sessions`` opens each of them.
    """

    root: Path
    files: list
    ids: dict
    roster: dict

    def receiver(self, home: Path, power: str) -> audit.Replay:
        """A fresh in-memory session of ``home`` (nothing written), as the folder's save holds it.

        Not reused between loads: an accepted battle file leaves more than ``contents`` and ``data`` behind
        (the session's battle views), so a reused session would judge the next mutant in another position."""
        s = Session.open_with(home, self.game, self.ids[power])
        return audit.Replay(s.home, s.game, s.me, s.contents, s.data, s.local)


def build_battle(root: Path) -> BattleCorpus:
    """France attacks two Austrian corps at Ulm (``tests/client/test_battle_files.py``'s table): the files exchanged."""
    from eiapbem.rules.engine import AnswerDecision
    from test_battle_files import NAME, Table

    t = Table(root / "table")
    fr = t.open("FR")
    question = (t.home("FR") / "battles" / NAME).read_bytes()
    au_before = root / "au-before"
    shutil.copytree(t.home("AU"), au_before)
    fr_before = root / "fr-before"
    t.open("AU").load_path(t.send("FR", "AU"))
    au = t.open("AU")
    mine = sorted((d for d in au.current().pending.values() if d.power == "AU"), key=lambda d: d.id)
    au.act(AnswerDecision(mine[0].id, mine[0].options[0]))
    reply = au.last_battle_file.read_bytes()
    shutil.copytree(t.home("FR"), fr_before)
    c = BattleCorpus(root, [("question", au_before, NAME, question, "FR"), ("reply", fr_before, NAME, reply, "AU")],
                     {"FR": fr.me, "AU": au.me}, {r: e for r, e in fr.contents.chain.roster.items()})
    c.game = t.game
    return c


def try_load_battle(corpus: BattleCorpus, item: tuple, data: bytes) -> Outcome:
    """Load a (mutated) battle file in an in-memory session of its receiver: a refusal must change nothing."""
    kind, home, name, _, _ = item
    rp = corpus.receiver(home, "AU" if kind == "question" else "FR")
    before = (rp.contents, rp.data)
    path = corpus.root / "mutant" / name
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(data)
    try:
        rp.load_battle(path)
    except EiaError as err:
        msg = str(err)
        if (rp.contents, rp.data) != before:
            return Outcome("crash", f"refused but changed the session: {msg}")
        if "\n" in msg or "Traceback" in msg or not msg:
            return Outcome("crash", f"not one sentence: {msg!r}")
        return Outcome("refused", msg)
    except Exception as err:  # noqa: BLE001 - this is what the fuzz looks for
        return Outcome("crash", f"{type(err).__name__}: {err}")
    return Outcome("accepted", "")


def mutate_battle(corpus: BattleCorpus, item: tuple, path: tuple, fn: Callable[[Any], Any]) -> bytes:
    kind, home, name, data, author = item
    reader = corpus.ids["AU" if kind == "question" else "FR"]
    return auditkit.reseal(data, corpus.ids[author], reader, corpus.roster, lambda body: set_at(body, path, fn))


def battle_body_of(corpus: BattleCorpus, item: tuple) -> Any:
    from eiapbem.pbem import crypto, envelope

    reader = "AU" if item[0] == "question" else "FR"
    env = envelope.parse(item[3])
    return crypto.open_body(env, crypto.unwrap_key(env, reader, corpus.ids[reader].decrypter))
