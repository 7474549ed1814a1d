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


# ----------------------------------------------------------------- hostile values and raw files (issue 29 item 1)
#
# What an attacker can put in a file: bytes msgpack reads but eiapbem never writes (nesting hundreds deep,
# integers at the edges of 64 bits, strings and lists of any length, a value of any type where another is due),
# with no key (a header before any signature is checked) or signed with a member's real key.


class Deep:
    """A list nested ``n`` deep around ``leaf``: written directly as bytes (msgpack's own packer stops at 511)."""

    def __init__(self, n: int, leaf: Any = 1) -> None:
        self.n, self.leaf = n, leaf

    def __repr__(self) -> str:
        return f"Deep({self.n})"


class Many:
    """A list of ``n`` copies of ``item``, written as bytes without building the list."""

    def __init__(self, n: int, item: Any = 0) -> None:
        self.n, self.item = n, item

    def __repr__(self) -> str:
        return f"Many({self.n})"


def raw_pack(v: Any, *, canonical_keys: bool = True) -> bytes:
    """msgpack bytes of ``v`` (``Deep`` and ``Many`` written directly); map keys sorted as eiapbem sorts them."""
    import msgpack

    if isinstance(v, Deep):
        return b"\x91" * v.n + raw_pack(v.leaf)
    if isinstance(v, Many):
        head = b"\xdc" + v.n.to_bytes(2, "big") if v.n <= 0xFFFF else b"\xdd" + v.n.to_bytes(4, "big")
        return head + raw_pack(v.item) * v.n
    if isinstance(v, dict):
        keys = sorted(v, key=lambda k: k.encode("utf-8") if isinstance(k, str) else repr(k).encode())
        if not canonical_keys:
            keys.reverse()
        n = len(keys)
        head = bytes((0x80 | n,)) if n < 16 else (b"\xde" + n.to_bytes(2, "big"))
        return head + b"".join(raw_pack(k) + raw_pack(v[k], canonical_keys=canonical_keys) for k in keys)
    if isinstance(v, (list, tuple)):
        n = len(v)
        head = bytes((0x90 | n,)) if n < 16 else (b"\xdc" + n.to_bytes(2, "big") if n <= 0xFFFF else b"\xdd" + n.to_bytes(4, "big"))
        return head + b"".join(raw_pack(x, canonical_keys=canonical_keys) for x in v)
    return msgpack.packb(v, use_bin_type=True)


#: Hostile leaves: the edges of 64-bit integers, other types, a float.
EDGES: list = [2**32 - 1, 2**32, 2**63 - 1, -(2**63), 2**64 - 1, -1, 0, 2**20 + 1, -(2**31), 1.5, None, True, b"",
               "", {}, [], {"kind": "x"}]


def hostile(rng_or_draw: Any) -> Any:
    """One hostile value, from a ``random.Random`` (the long run) or hypothesis's ``data.draw`` (the suite)."""
    import random

    if isinstance(rng_or_draw, random.Random):
        r = rng_or_draw

        def pick(seq: list) -> Any:
            return r.choice(seq)

        def num(lo: int, hi: int) -> int:
            return r.randint(lo, hi)
    else:
        from hypothesis import strategies as st

        draw = rng_or_draw

        def pick(seq: list) -> Any:
            return draw(st.sampled_from(seq))

        def num(lo: int, hi: int) -> int:
            return draw(st.integers(lo, hi))
    what = pick(["edge", "deep", "deep", "long", "many", "int", "keys", "nested-long"])
    if what == "edge":
        return pick(EDGES)
    if what == "deep":
        return Deep(num(20, 3000), pick([1, "x", {}, Deep(1)]))
    if what == "long":
        n = num(41, 200_000)
        return pick(["x" * n, b"\x00" * n])
    if what == "many":
        return Many(num(17, 120_000), pick([0, "a", [1], {"a": 1}]))
    if what == "int":
        return num(-(2**63), 2**64 - 1)
    if what == "keys":
        return {("k" * num(1, 70_000)): 1, "kind": pick(["x" * num(1, 90_000), 7, None])}
    return [{"a": "y" * num(1000, 100_000)}] * num(1, 20)


def header_samples() -> dict[str, dict]:
    """A valid clear header of every file kind, as the map a file carries (fixed bytes: no key needed)."""
    from eiapbem.pbem import headers

    b32, b48, b16 = b"\x11" * 32, b"\x22" * 48, b"\x33" * 16
    entry = headers.RosterEntry(b32, b32, b32, 8192)
    x = headers.X25519Stanza("FR", b32, b48)
    common = dict(game="Fuzz", gid=b16, slot="1805-03/naval/turn/FR", author="FR", seq=3, epoch=0, prev=b32, to=(x,))
    roster = {r: entry for r in ("FR", "host")}
    pos = {"FR": (1, b32), "host": (0, b32)}
    dat = headers.DatRef(100, b32)
    arb = dict(common, gid=bytes(16), prev=b"", author="bidder", to=(headers.X25519Stanza("arbitrator", b32, b48),))
    made = {
        "gamestart": headers.make("gamestart", **dict(common, prev=b"", author="host"), roster=roster),
        "turn": headers.make("turn", **common, reveal=b32, link=2, reloads=0),
        "admin": headers.make("admin", **dict(common, author="host"), reveal=b32, link=2, roster=roster),
        "battle": headers.make("battle", **common, reloads=1, commit=b32, nonce=b32),
        "save": headers.make("save", **common, dat=dat),
        "backup": headers.make("backup", **dict(common, author="host"), roster=roster, dicepos=pos, state=b32,
                               power="FR", dat=dat),
        "setup": headers.make("setup", **dict(common, prev=b"")),
        "identity": headers.make("identity", **dict(common, gid=bytes(16), prev=b"", to=(
            headers.ScryptStanza("FR", b16, 10, 1, 1, b48),)), roster={"FR": entry}),
        "bid": headers.make("bid", **arb, bidder=headers.Bidder("Ann", "ann@example.org"), bidkey=b32, arbfp=b32),
        "selection": headers.make("selection", **dict(arb, author="arbitrator"), arbfp=b32),
        "upgrade": headers.make("upgrade", **dict(common, author="host", epoch=1), versions={"rules": 6}, release="0.2.0",
                                state=b32, roster=roster, dicepos=pos),
    }
    return {k: h.to_obj() for k, h in made.items()}


def with_header(header: bytes, body_len: int = 64, kind: str = "turn") -> bytes:
    """A sealed file's bytes around the given header bytes: a random body and signature (no key is needed)."""
    from eiapbem.pbem import envelope

    if kind in envelope.DETACHED:
        body_len = 0
    return envelope.MAGIC + len(header).to_bytes(4, "big") + header + body_len.to_bytes(4, "big") + bytes(body_len) + bytes(64)


def seal_raw(plaintext: bytes, *, kind: str, author: Any, to: dict, header_fields: dict) -> bytes:
    """A file sealed and signed by ``author`` (a member's identity) around any plaintext, as a patched client can.

    ``to`` maps each recipient role to its X25519 public key; ``header_fields`` are the header's other fields
    (game, gid, slot, seq, epoch, prev, and the kind's own)."""
    import hashlib
    import os

    from eiapbem.pbem import crypto, envelope, headers

    fk = os.urandom(32)
    stanzas = tuple(crypto._make_stanza(crypto.ToKey(r, k), fk, os.urandom) for r, k in to.items())
    ct = crypto._aead_seal(crypto.hkdf(fk, b"", b"eiapbem/v1/payload/" + kind.encode()), plaintext,
                           crypto.label(kind) + b"\x00")
    fields = dict(header_fields)
    if kind in envelope.DETACHED:
        fields["dat"] = headers.DatRef(len(ct), hashlib.sha256(ct).digest())
    h = headers.make(kind, author=author.role, to=stanzas, **fields)
    hb = h.encode()
    body = b"" if kind in envelope.DETACHED else ct
    prefix = envelope.prefix_of(hb, body)
    return prefix + author.signer.sign(crypto.signed_message(kind, prefix))


def body_paths(obj: Any, prefix: tuple = ()) -> list[tuple]:
    """Every path into a plain body (``paths`` with a deeper reach into the long lists too)."""
    out = [prefix]
    if isinstance(obj, dict):
        for k in sorted(obj, key=repr):
            out += body_paths(obj[k], prefix + (k,))
    elif isinstance(obj, list):
        for i, v in enumerate(obj[:8]):
            out += body_paths(v, prefix + (i,))
    return out


def decode_as_client(kind: str, plaintext: bytes, name: str = "the file") -> Any:
    """What a client does with a body's plaintext before it replays anything, for every kind of body:
    the bounded canonical decode, the typed body record, and the records inside it that the rules decode
    (actions, admin acts, log lines, the state, the dice record).  Raises only ``EiaError``."""
    from eiapbem.client.store import GameData
    from eiapbem.core import canonical
    from eiapbem.pbem import bodies, crypto, dice as pdice
    from eiapbem.rules import admin, engine
    from eiapbem.rules.model import GameState, LogEntry, Options

    obj = canonical.decode(plaintext, max_bytes=crypto.MAX_PLAINTEXT, max_container=crypto.MAX_BODY_CONTAINER)
    if kind == "turn":
        b = bodies.decode(bodies.TurnBody, obj, name, "a turn")
        b.agree(b.power, b.reloads, name)
        pdice.check_rolls(b"\x01" * 32, b.to_obj()["dice"], name)
        for i, a in enumerate(b.actions):
            engine.action_from_obj(a, f"{name} actions[{i}]")
        for e in b.events:
            LogEntry.from_obj(e, f"{name} events")
        return b
    if kind == "admin":
        b = bodies.decode(bodies.AdminBody, obj, name, "admin acts")
        for i, a in enumerate(b.acts):
            admin.admin_from_obj(a, f"{name} acts[{i}]")
        return b
    if kind == "battle":
        b = bodies.battle_body(obj, name, bodies.BattleQuestion, bodies.BattleReply, bodies.BattleClose)
        if isinstance(b, bodies.BattleReply):
            for a in b.answers:
                engine.action_from_obj(a, name)
        if isinstance(b, bodies.BattleQuestion):
            GameState.decode(b.state)
        return b
    if kind == "gamestart":
        raw = dict(obj) if isinstance(obj, dict) else obj
        if isinstance(raw, dict):
            raw.setdefault("wars", [])
        b = bodies.decode(bodies.GamestartBody, raw, name, "a gamestart")
        Options.from_obj(b.options, "options")
        return b
    if kind in ("save", "backup", "upgrade"):
        if kind == "save":
            return GameData.from_obj(obj, name)
        cls = bodies.BackupBody if kind == "backup" else bodies.UpgradeBody
        b = bodies.decode(cls, obj, name, f"a {kind}")
        if kind == "upgrade":
            admin.admin_from_obj(b.act, name)
        return GameData.from_obj(b.game.to_obj(), name)
    if kind == "setup":
        b = bodies.decode(bodies.SetupBody, obj, name, "a setup")
        for a in b.actions:
            engine.action_from_obj(a, name)
        return b
    raise ValueError(kind)


def body_samples() -> dict[str, dict]:
    """A real body of every kind a game member signs, as plain values (a state of the classic-1805 scenario)."""
    from eiapbem.client.store import GameData
    from eiapbem.core.dice import derive
    from eiapbem.pbem import bodies
    from eiapbem.data import world
    from eiapbem.rules import admin
    from eiapbem.rules.model import Options
    from eiapbem.rules.scenario import initial_state

    st = initial_state(world.load_scenario("classic-1805"), world.load_raw())
    h32 = b"\x44" * 32
    players = {p: {"name": f"P{p}", "email": f"{p.lower()}@example.org", "type": "client"}
               for p in ("AU", "FR", "GB", "PR", "RU", "SP", "TU")}
    host = {"name": "Host", "email": "host@example.org"}
    move = {"kind": "setup.place-corps", "corps": "corps:FR:Cav-I", "area": "paris"}
    line = {"slot": "1805-01/setup/turn/FR", "author": "FR", "kind": "setup.place", "text": "FR places", "params": {}}
    meta = {"scenario": "classic-1805", "players": players, "host": host,
            "versions": {"rules": 5, "ai-easy": 8, "ai-medium": 8, "ai-hard": 8}}
    meta.update(based_on="", release="0.1.0")
    game = GameData(st, bodies.SaveMeta.from_obj(dict(meta, head=None, reloads={}, sealed={}, reactions={}, ahead={})),
                    journal=(line,)).to_obj()
    game["journal"] = [line]
    return {
        "turn": {"slot": "1805-01/setup/turn/FR", "power": "FR", "actions": [move],
                 "dice": {"a/b": [6, derive(b"\x01" * 32, "a/b", 6)]},
                 "before": h32, "after": h32, "at": "1805-01/setup/turn/GB", "reloads": 0, "events": [line],
                 "parts": {"units": b"\x01" * 8}, "battles": {}, "exchanges": []},
        "admin": {"acts": [admin.admin_to_obj(admin.AddMoney("FR", 3))], "before": h32, "after": h32,
                  "at": "1805-01/setup/turn/GB", "meta": {"players": players, "host": host}, "events": [line],
                  "parts": {"units": b"\x01" * 8}},
        "battle": {"battle": "battle:1805-09:ulm:0", "answers": [{"kind": "decision.answer", "decision": "d", "choice": "c"}]},
        "gamestart": {"meta": meta, "options": Options().to_obj(), "bids": {"FR": 3}, "state_hash": h32,
                      "scenario_hash": ""},
        "save": game,
        "backup": {"game": game},
        "setup": {"scenario": "classic-1805", "power": "FR", "actions": [move]},
        "upgrade": {"act": admin.admin_to_obj(admin.Upgrade("0.2.0", "rules 6", "rules 5", "now")), "before": h32,
                    "after": h32, "game": game},
    }
