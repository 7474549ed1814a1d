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


# ----------------------------------------------------------------- attacks through the real commands (issue 29)


@dataclass
class Arena:
    """A real game to attack with damaged or crafted files, through the real commands.

    ``victim`` is Turkey's folder before it loaded Russia's setup file ``genuine`` (the one file due there);
    ``pristine`` a copy to restore it from; ``after`` Turkey's state hash once ``genuine`` is loaded.
    ``backup_home`` is Turkey's folder once it loaded ``genuine``, before it loaded its backup ``backup``
    (the host's backup set); ``gamestart`` and ``key`` are what a new Turkish player joins with
    (``one_time`` opens the key).  ``sources`` are every sealed file of the game (and of a battle between two
    humans) to damage."""

    root: Path
    ids: dict
    victim: Path
    pristine: Path
    genuine: Path
    after: str
    backup_home: Path
    backup: Path
    gamestart: Path
    key: Path
    one_time: str
    sources: list
    #: The host's admin file due in ``backup_home`` next, and Turkey's state hash once it is loaded there.
    admin: Path | None = None
    admin_after: str = ""


def build_arena(root: Path) -> Arena:
    import os

    from eiapbem.client.session import TEST_SCRYPT_ENV
    from eiapbem.rules.model import POWERS
    from sevenfolders import new_by_api

    os.environ[TEST_SCRYPT_ENV] = auditkit.FAST
    homes = {p: home_of(root, p) for p in POWERS}
    created = new_by_api(homes, {p: "host" if p == "RU" else "client" for p in POWERS}, game=GAME,
                         flags=["allow-pbem-host-functions"])
    ids = {p: auditkit.identity(root, p) for p in POWERS + ("host",)}
    ru = Session.open_with(home_of(root, "RU"), GAME, ids["RU"])
    setups.load_setup(ru, "default")
    genuine = ru.end_phase()
    pristine = root / "TU-pristine"
    shutil.copytree(home_of(root, "TU"), pristine)
    auditkit.deliver(root, "RU", genuine)
    auditkit.load_everyone(root, ids)
    after = Session.open_with(home_of(root, "TU"), GAME, ids["TU"]).state.state_hash().hex()
    host = Session.open_with(home_of(root, "host"), GAME, ids["host"])
    adm = hadmin.edit(host, [__import__("eiapbem.rules.admin", fromlist=["AddMoney"]).AddMoney("FR", 3)])
    backup_home = root / "TU-backup"
    shutil.copytree(home_of(root, "TU"), backup_home)
    probe = root / "TU-admin-probe"
    shutil.copytree(backup_home, probe)
    s = Session.open_with(probe, GAME, ids["TU"])
    s.load_path(adm)
    admin_after = s.state.state_hash().hex()
    shutil.rmtree(probe)
    hadmin.make_backups(Session.open_with(home_of(root, "host"), GAME, ids["host"]))
    backup = home_of(root, "host") / "save" / f"{GAME}_backup_forplayer_Turkey.sav"
    victim = root / "victim"
    shutil.copytree(pristine, victim)
    battle = build_battle(root / "battle")
    sources = [p for p in root.rglob("*") if p.is_file() and p.suffix in (".pbm", ".battle", ".sav", ".dat", ".key")
               and "victim" not in p.parts and "pristine" not in str(p)]
    return Arena(root, ids, victim, pristine, genuine, after, backup_home, backup,
                 home_of(root, "host") / "commout" / f"{GAME}_gamestart.pbm",
                 home_of(root, "host") / "commout" / f"{GAME}_TU.key", created.one_time["TU"],
                 sorted(sources) + [p for p in (battle.root / "table").rglob("*.battle")], adm, admin_after)


def damage(rng: Any, data: bytes, other: bytes) -> bytes:
    """``data`` randomly damaged as mail, disks and people damage files (never the same bytes back)."""
    b = bytearray(data)
    n = len(b)
    op = rng.choice(["flip", "flips", "insert", "delete", "truncate", "splice", "header", "length", "zeros", "append"])
    if op == "flip" and n:
        b[rng.randrange(n)] ^= 1 << rng.randrange(8)
    elif op == "flips" and n:
        for _ in range(rng.randint(2, 40)):
            b[rng.randrange(n)] = rng.randrange(256)
    elif op == "insert":
        i = rng.randrange(n + 1)
        b[i:i] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 64)))
    elif op == "delete" and n:
        i = rng.randrange(n)
        del b[i:i + rng.randint(1, 64)]
    elif op == "truncate":
        del b[rng.randrange(n + 1):]
    elif op == "splice":
        i, j = rng.randrange(1, n + 1) if n else 0, rng.randrange(len(other) + 1)
        b = bytearray(data[:i] + other[j:])
        if bytes(b) == other:
            b += b"\x00"
    elif op == "header" and n > 20:
        hlen = int.from_bytes(data[10:14], "big")
        for _ in range(rng.randint(1, 6)):
            b[rng.randrange(14, max(15, min(n, 14 + hlen)))] = rng.randrange(256)
    elif op == "length" and n > 14:
        at = rng.choice([10, 14 + int.from_bytes(data[10:14], "big")]) if n > 20 else 10
        if at + 4 <= n:
            b[at:at + 4] = rng.choice([0, 1, 2**31, 2**32 - 1, rng.randrange(2**32)]).to_bytes(4, "big")
    elif op == "zeros" and n:
        i = rng.randrange(n)
        b[i:i + rng.randint(1, 512)] = bytes(len(b[i:i + 512]))
    else:
        b += bytes(rng.randrange(256) for _ in range(rng.randint(1, 128)))
    out = bytes(b)
    return out if out != data else out + b"\x00"


def crafted(rng: Any, gid: bytes) -> tuple[str, bytes]:
    """A file anyone can make with no key: a hostile clear header of any kind, a body and signature of noise."""
    kinds = header_samples()
    kind = rng.choice(sorted(kinds))
    h = dict(kinds[kind], game=GAME, gid=gid if kind not in ("identity", "bid", "selection") else bytes(16))
    if rng.random() < 0.85:
        path = rng.choice(body_paths(h))
        v = hostile(rng)
        h = set_at(h, path, lambda _: v) if path else v
    raw = raw_pack(h, canonical_keys=rng.random() < 0.9)
    n = rng.choice([0, 16, 64, 4096])
    return kind, envelope_bytes(raw, bytes(rng.randrange(256) for _ in range(n)))


def envelope_bytes(header: bytes, body: bytes) -> bytes:
    from eiapbem.pbem import envelope

    return envelope.MAGIC + len(header).to_bytes(4, "big") + header + len(body).to_bytes(4, "big") + body + bytes(64)


@dataclass
class Ran:
    """One run of the real command: exit status, what it printed, and the exception that escaped it (a traceback)."""

    code: int
    out: str
    crash: str = ""


def cli(*argv: str) -> Ran:
    """``eiapbem ARGV`` in this process (``cli.main.run``, what the console script runs), its output captured."""
    import contextlib
    import io
    import traceback

    from eiapbem.cli.main import run

    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = run(list(argv))
    except BaseException as e:  # noqa: BLE001 - an escaped exception is exactly what is looked for
        return Ran(-1, out.getvalue() + err.getvalue(), "".join(traceback.format_exception_only(type(e), e))[-500:])
    text = out.getvalue() + err.getvalue()
    crash = "Traceback" if "Traceback (most recent call last)" in text else ""
    if "internal error" in text:
        crash = "internal error: " + next(line for line in text.splitlines() if "internal error" in line)[:300]
    return Ran(code, text, crash)


@dataclass
class Tally:
    """What an attack found: files tried by command, refusals, waits, and every finding (each must be none)."""

    tried: Any = None
    refused: int = 0
    waiting: int = 0
    harmless: int = 0
    crashes: list = None  # type: ignore[assignment]
    wrong: list = None  # type: ignore[assignment]
    blocked: list = None  # type: ignore[assignment]
    long: list = None  # type: ignore[assignment]
    waits: list = None  # type: ignore[assignment]

    def __post_init__(self) -> None:
        from collections import Counter

        self.tried = Counter()
        self.crashes, self.wrong, self.blocked, self.long, self.waits = [], [], [], [], []

    def findings(self) -> int:
        return len(self.crashes) + len(self.wrong) + len(self.blocked) + len(self.long)

    def ran(self, what: str, r: Ran, *, note: str = "") -> None:
        if r.crash:
            self.crashes.append(f"{what}: {r.crash} {note}"[:600])
        for line in r.out.splitlines():
            if len(line) > 1000:
                self.long.append(f"{what}: a line of {len(line)} characters: {line[:200]}")


def _pw(role: str) -> str:
    from sevenfolders import HOST_PW, pw

    return HOST_PW if role == "host" else pw(role)


def attack_load(arena: Arena, datas: list[bytes], tally: Tally, what: str, *, home: Path | None = None,
                pristine: Path | None = None, genuine: Path | None = None, after: str | None = None) -> None:
    """A batch of files in the victim's commin/, then ``eiapbem load``; then the one genuine file must still load.

    None may load (a wrong acceptance) or crash; each is refused (moved to commin/refused/) or waits; and
    the genuine next file then loads to the state every other folder has (the folder is not blocked)."""
    from eiapbem.pbem import folders

    home = home or arena.victim
    pristine, genuine, after = pristine or arena.pristine, genuine or arena.genuine, after or arena.after
    commin = home / "commin"
    names = []
    for i, d in enumerate(datas):
        name = (f"{GAME}_{what}{i:05d}.pbm" if i % 10 else f"x{what}{i:05d}.pbm")
        (commin / name).write_bytes(d)
        names.append(name)
    tally.tried["load"] += len(datas)
    r = cli("--home", str(home), "load", "--password", _pw("TU"))
    tally.ran(f"load {what}", r)
    for line in r.out.splitlines():
        if line.startswith("loaded "):
            tally.wrong.append(f"load {what}: {line}")
    for name in names:
        if (commin / name).exists():
            tally.waiting += 1
            why = next((line for line in r.out.splitlines() if f"refused {name}:" in line), "")
            if len(tally.waits) < 8:
                tally.waits.append(why[:300])
        elif (commin / "refused" / name).exists():
            tally.refused += 1
        else:
            tally.wrong.append(f"load {what}: {name} is neither refused nor waiting")
    shutil.copy(genuine, commin / genuine.name)
    r = cli("--home", str(home), "load", "--password", _pw("TU"))
    tally.ran(f"load {what} then the genuine file", r)
    s = Session.open_with(home, GAME, arena.ids["TU"])
    if f"loaded {genuine.name}" not in r.out or s.state.state_hash().hex() != after:
        tally.blocked.append(f"load {what}: the genuine {genuine.name} did not load after the batch: {r.out[-400:]}")
    shutil.rmtree(home)
    shutil.copytree(pristine, home)
    assert folders.read_limited(pristine / "save" / f"{GAME}.sav")


def attack_inspect(arena: Arena, datas: list[bytes], tally: Tally, where: Path) -> None:
    """``eiapbem files inspect`` of each file (every fifth with ``--gamestart``): a header or one sentence."""
    where.mkdir(parents=True, exist_ok=True)
    for i, d in enumerate(datas):
        p = where / f"f{i % 7}.pbm"
        p.write_bytes(d)
        args = ["files", "inspect", str(p)] + (["--gamestart", str(arena.gamestart)] if i % 5 == 0 else [])
        tally.tried["files inspect"] += 1
        r = cli(*args)
        tally.ran("files inspect", r)
        if r.code == 0 and "signature  good" in r.out:
            tally.wrong.append(f"files inspect: a damaged file's signature is called good: {r.out[:300]}")
        elif r.code == 0:
            tally.harmless += 1  # its clear header reads (the signature not asked, or said bad)
        else:
            tally.refused += 1


def attack_join(arena: Arena, datas: list[bytes], tally: Tally, where: Path) -> None:
    """``eiapbem join`` of a damaged gamestart (with the real key file): refused, nothing joined."""
    for i, d in enumerate(datas):
        home = where / f"j{i % 3}"
        (home / "commin").mkdir(parents=True, exist_ok=True)
        (home / "commin" / f"{GAME}_gamestart.pbm").write_bytes(d)
        shutil.copy(arena.key, home / "commin" / f"{GAME}_TU.key")
        tally.tried["join"] += 1
        r = cli("--home", str(home), "join", f"commin/{GAME}_gamestart.pbm", "--power", "TU", "--email",
                "tu@example.org", "--one-time-password", arena.one_time, "--password", _pw("TU"))
        tally.ran("join", r)
        if r.code == 0 or (home / "save").exists() and any((home / "save").iterdir()):
            tally.wrong.append(f"join: a damaged gamestart was joined: {r.out[:300]}")
            shutil.rmtree(home)
        else:
            tally.refused += 1


def attack_backup(arena: Arena, datas: list[tuple[bytes, bytes]], tally: Tally, where: Path) -> None:
    """``eiapbem load-backup`` of a damaged backup pair: refused, the folder's epoch and state unchanged."""
    home = where / "backup-victim"
    if not home.exists():
        shutil.copytree(arena.backup_home, home)
    before = Session.open_with(home, GAME, arena.ids["TU"])
    mark = (before.contents.chain.epoch, before.state.state_hash())
    name = arena.backup.name
    for sav, dat in datas:
        (home / "save" / name).write_bytes(sav)
        (home / "save" / (name + ".dat")).write_bytes(dat)
        tally.tried["load-backup"] += 1
        r = cli("--home", str(home), "load-backup", f"save/{name}", "--password", _pw("TU"))
        tally.ran("load-backup", r)
        s = Session.open_with(home, GAME, arena.ids["TU"])
        if r.code == 0 or (s.contents.chain.epoch, s.state.state_hash()) != mark:
            tally.wrong.append(f"load-backup: a damaged backup was loaded: {r.out[:300]}")
            shutil.rmtree(home)
            shutil.copytree(arena.backup_home, home)
        else:
            tally.refused += 1


def attack_audit(arena: Arena, datas: list[bytes], tally: Tally, where: Path) -> None:
    """A batch of files among a folder's kept files (commin/done/), then ``eiapbem audit``: still verified."""
    home = where / "audit-victim"
    if home.exists():
        shutil.rmtree(home)
    shutil.copytree(arena.backup_home, home)
    for i, d in enumerate(datas):
        (home / "commin" / "done" / f"{GAME}_audit{i:05d}.pbm").write_bytes(d)
    tally.tried["audit"] += len(datas)
    r = cli("--home", str(home), "audit", "--password", _pw("TU"))
    tally.ran("audit", r)
    if r.code != 0 or "verified" not in r.out:
        tally.wrong.append(f"audit: files left among the kept ones changed the verdict: {r.out[:400]}")
    else:
        tally.refused += len(datas)


def member_mutant(arena: Arena, rng: Any, source: Path, author: str, reader: str = "TU") -> tuple[bytes, bool]:
    """``source`` with its body changed at a random path (a hostile value, a key dropped or added, another type),
    sealed and signed again with ``author``'s real key, every header field kept: what a member with a patched
    client can send.  Returns the file and whether the body changed where a change may be accepted."""
    import random as _random

    from eiapbem.pbem import crypto, envelope

    env = envelope.parse(source.read_bytes())
    h = env.header
    body = crypto.open_body(env, crypto.unwrap_key(env, reader, arena.ids[reader].decrypter))
    path = rng.choice(body_paths(body))
    op = rng.random()
    if op < 0.1 and path:
        new = set_at(body, path, lambda v: DELETE)
    elif op < 0.2:
        new = set_at(body, path, lambda v: dict(v, extra=1) if isinstance(v, dict) else [v, v])
    else:
        v = hostile(rng) if op < 0.8 else _random.Random(rng.random()).choice(LEAVES)
        new = set_at(body, path, lambda _: v) if path else v
    roster = {r: i.public().enc for r, i in arena.ids.items() if r in {s.role for s in h.to}}
    fields = {k: getattr(h, k) for k in ("game", "gid", "slot", "seq", "epoch", "prev", "reveal", "link", "reloads",
                                         "roster", "commit", "nonce") if getattr(h, k, None) is not None}
    data = seal_raw(raw_pack(new), kind=h.kind, author=arena.ids[author], to=roster, header_fields=fields)
    harmless = path[:1] in HARMLESS.get(h.kind, ()) or new == body or _renames(h.kind, path, new)
    return data, harmless


def _renames(kind: str, path: tuple, body: Any) -> bool:
    """The host's admin file giving a player or the host another name or address: the host's to do (4.2.8)."""
    if kind != "admin" or path[:1] != ("meta",) or path[-1:] not in (("name",), ("email",)):
        return False
    value: Any = body
    for k in path:
        if not isinstance(value, dict) or k not in value:
            return False
        value = value[k]
    return isinstance(value, str)
