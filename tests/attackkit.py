"""Attacks through the real commands (issue 29): damaged, crafted and member-signed files fed to ``load``,
``files inspect``, ``join``, ``load-backup`` and ``audit`` in a real game, with a tally of what each did.

Used by the long run (``tools/fuzz.py attack``) and its small run in the suites; the hostile values and the
re-sealing of bodies come from ``tests/fuzzkit.py``.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import auditkit
from auditkit import GAME, home_of
from eiapbem.client import setups
from eiapbem.client.session import Session
from eiapbem.host import admin as hadmin
from fuzzkit import (
    DELETE,
    HARMLESS,
    LEAVES,
    body_paths,
    build_battle,
    header_samples,
    hostile,
    raw_pack,
    seal_raw,
    set_at,
)


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
