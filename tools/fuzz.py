"""The long fuzz runs: ``python tools/fuzz.py --minutes N`` and ``python tools/fuzz.py attack ...``.

``--minutes N [--seed S]`` (issue 20 item 3) is the structure-aware run below.

``attack --damaged N --member N --no-key N [--seed S] [--batch B]`` (issue 29) attacks a real game through
the real commands (``eiapbem load``, ``files inspect``, ``join``, ``load-backup``, ``audit``, run in-process as
the console script runs them, ``tests/attackkit.py`` ``cli``): N randomly damaged copies of the game's files
(every kind: gamestart, turn, admin, battle, save, backup, key); N bodies of a turn and an admin file changed
at random paths (hostile values: nesting thousands deep, 64-bit edges, huge strings and lists, other types)
and sealed again with their author's real key; N files anyone can make with no key (hostile clear headers
of every kind).  Every file must be refused in one sentence or wait, never crash, never load, never block
the folder (the genuine next file loads after every batch).  Prints the figures and every finding; exit
status 1 if there is one.  Run it under ``nice -n 10``.

Builds a corpus from a real game (``tests/fuzzkit.py``): a turn file, a host
admin file, and a battle's question and reply files (France against two
Austrian corps, ``fuzzkit.build_battle``); then for N minutes mutates the
bodies of those files at random paths (structure
aware: replace a value by another type, drop or add a map key, grow or empty a
list), re-signs each mutant validly with its author's key (a member with a
patched client) and loads it in an in-memory session.  Every outcome must be
a refusal in one sentence that changed nothing, or an acceptance; a crash (any
other exception) is a finding.  Prints the figures (docs/SECURITY.md keeps
those of the last long run) and every distinct finding.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
import paths  # noqa: E402

paths.importable()  # the kits and the test modules they borrow from, wherever they live in tests/

import attackkit  # noqa: E402
import fuzzkit  # noqa: E402


def random_value(rng: random.Random, depth: int = 0):
    r = rng.random()
    if r < 0.6 or depth > 2:
        return rng.choice(fuzzkit.LEAVES)
    if r < 0.8:
        return [random_value(rng, depth + 1) for _ in range(rng.randrange(4))]
    return {rng.choice(["a", "power", "players", "host", "name", "type", "email", "x"]): random_value(rng, depth + 1)
            for _ in range(rng.randrange(4))}


def one(rng: random.Random, corpus: fuzzkit.Corpus, bodies: dict, battle: fuzzkit.BattleCorpus | None = None):
    pool = corpus.files + (battle.files if battle is not None else [])
    item = rng.choice(pool)
    body = bodies[item[0], item[2]]
    path = rng.choice(fuzzkit.paths(body))
    op = rng.random()
    if op < 0.15 and path:
        fn, what = (lambda v: fuzzkit.DELETE), "delete"
    elif op < 0.25:
        fn, what = (lambda v: dict(v, **{"extra": 1}) if isinstance(v, dict) else [v, v]), "grow"
    else:
        new = random_value(rng)
        fn, what = (lambda v: new), f"set {new!r}"[:60]
    if item[0] in ("question", "reply"):
        out = fuzzkit.try_load_battle(battle, item, fuzzkit.mutate_battle(battle, item, path, fn))
    else:
        out = fuzzkit.try_load(corpus, item, fuzzkit.mutate(corpus, item, path, fn))
    if out.kind == "accepted" and fuzzkit.set_at(body, path, fn) == body:
        out = fuzzkit.Outcome("same", "")  # the mutation changed nothing
    elif out.kind == "accepted" and path[:1] in fuzzkit.HARMLESS.get(item[0], ()):
        out = fuzzkit.Outcome("diagnostic", "")  # read only to name a difference
    return item[0], path, what, out


def attack(a: argparse.Namespace) -> int:
    rng = random.Random(a.seed)
    t0 = time.monotonic()
    with tempfile.TemporaryDirectory() as tmp:
        arena = attackkit.build_arena(Path(tmp) / "arena")
        sources = [(p, p.read_bytes()) for p in arena.sources]
        print(f"arena: a real game, {len(sources)} sealed files of every kind, built in {time.monotonic() - t0:.1f} s",
              flush=True)
        tally = attackkit.Tally()
        work = Path(tmp) / "work"
        from eiapbem.pbem import envelope

        gid = envelope.parse(arena.genuine.read_bytes()).header.gid
        admin_home = Path(tmp) / "victim-admin"
        shutil.copytree(arena.backup_home, admin_home)

        def damaged(n: int) -> list[bytes]:
            out = []
            for _ in range(n):
                (_, d), (_, other) = rng.choice(sources), rng.choice(sources)
                out.append(attackkit.damage(rng, d, other))
            return out

        def progress(what: str, done: int, total: int) -> None:
            if done % max(a.batch * 10, 1) < a.batch or done >= total:
                print(f"  {what}: {done}/{total} ({time.monotonic() - t0:.0f} s, findings {tally.findings()})", flush=True)

        plan = [("damaged", a.damaged, damaged), ("no-key", a.no_key, lambda n: [attackkit.crafted(rng, gid)[1] for _ in range(n)])]
        for what, n, make in plan:
            if not n:
                continue
            shares = {"load": 0.7, "inspect": 0.15, "join": 0.05, "load-backup": 0.05, "audit": 0.05} if what == "damaged" \
                else {"load": 0.6, "inspect": 0.25, "join": 0.1, "load-backup": 0.0, "audit": 0.05}
            todo = {k: int(n * v) for k, v in shares.items()}
            todo["load"] += n - sum(todo.values())
            done = 0
            while done < todo["load"]:
                k = min(a.batch, todo["load"] - done)
                attackkit.attack_load(arena, make(k), tally, what.replace("-", ""))
                done += k
                progress(f"{what} files through 'eiapbem load'", done, todo["load"])
            attackkit.attack_inspect(arena, make(todo["inspect"]), tally, work / "inspect")
            print(f"  {what} files through 'eiapbem files inspect': {todo['inspect']}", flush=True)
            gs = arena.gamestart.read_bytes()
            joins = [attackkit.damage(rng, gs, rng.choice(sources)[1]) if what == "damaged" else d
                     for d in make(todo["join"])]
            attackkit.attack_join(arena, joins, tally, work / "join")
            print(f"  {what} gamestarts through 'eiapbem join': {todo['join']}", flush=True)
            sav, dat = arena.backup.read_bytes(), arena.backup.with_name(arena.backup.name + ".dat").read_bytes()
            pairs = []
            for _ in range(todo["load-backup"]):
                if rng.random() < 0.5:
                    pairs.append((attackkit.damage(rng, sav, rng.choice(sources)[1]), dat))
                else:
                    pairs.append((sav, attackkit.damage(rng, dat, rng.choice(sources)[1])))
            attackkit.attack_backup(arena, pairs, tally, work / "backup")
            print(f"  {what} backups through 'eiapbem load-backup': {todo['load-backup']}", flush=True)
            done = 0
            while done < todo["audit"]:
                k = min(a.batch * 5, todo["audit"] - done)
                attackkit.attack_audit(arena, make(k), tally, work / "audit")
                done += k
            print(f"  {what} files among a folder's kept files through 'eiapbem audit': {todo['audit']}", flush=True)
        if a.member:
            done = skipped = 0
            while done < a.member:
                k = min(a.batch, a.member - done)
                admin_turn = rng.random() < 0.3
                src, author = (arena.admin, "host") if admin_turn else (arena.genuine, "RU")
                batch = []
                while len(batch) < k:
                    data, harmless = attackkit.member_mutant(arena, rng, src, author)
                    if harmless:
                        skipped += 1  # a change read only to name a difference: may load (tests/test_fuzz.py)
                        continue
                    batch.append(data)
                if admin_turn:
                    attackkit.attack_load(arena, batch, tally, "memberadmin", home=admin_home, pristine=arena.backup_home,
                                        genuine=arena.admin, after=arena.admin_after)
                else:
                    attackkit.attack_load(arena, batch, tally, "member")
                done += k
                progress("member-signed bodies through 'eiapbem load'", done, a.member)
            print(f"  ({skipped} member mutants changed only a diagnostic field and were left out)", flush=True)
    print(f"{sum(tally.tried.values())} files in {time.monotonic() - t0:.0f} s (seed {a.seed}): "
          + ", ".join(f"{k} {v}" for k, v in sorted(tally.tried.items())))
    print(f"refused {tally.refused}, waiting (not refused for good, not loaded) {tally.waiting}, read as a header "
          f"{tally.harmless}; tracebacks {len(tally.crashes)}, wrong acceptances {len(tally.wrong)}, blocked folders "
          f"{len(tally.blocked)}, over-long messages {len(tally.long)}")
    for why in tally.waits:
        print(f"  a file that waits: {why}")
    for kind, items in (("crash", tally.crashes), ("wrong", tally.wrong), ("blocked", tally.blocked), ("long", tally.long)):
        for item in items[:20]:
            print(f"  {kind}: {item}")
    return 1 if tally.findings() else 0


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1] == "attack":
        ap = argparse.ArgumentParser(prog="tools/fuzz.py attack")
        ap.add_argument("--damaged", type=int, default=0)
        ap.add_argument("--member", type=int, default=0)
        ap.add_argument("--no-key", type=int, default=0)
        ap.add_argument("--seed", type=int, default=29)
        ap.add_argument("--batch", type=int, default=200)
        os.environ.setdefault("EIAPBEM_TEST_SCRYPT", "10,1,1")
        sys.exit(attack(ap.parse_args(sys.argv[2:])))
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--minutes", type=float, default=1.0)
    ap.add_argument("--seed", type=int, default=20)
    a = ap.parse_args()
    os.environ.setdefault("EIAPBEM_TEST_SCRYPT", "10,1,1")
    rng = random.Random(a.seed)
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.monotonic()
        corpus = fuzzkit.build(Path(tmp) / "game")
        battle = fuzzkit.build_battle(Path(tmp) / "battle")
        bodies = {(it[0], it[2]): fuzzkit.body_of(corpus, it) for it in corpus.files}
        bodies.update({(it[0], it[2]): fuzzkit.battle_body_of(battle, it) for it in battle.files})
        print(f"corpus: {len(corpus.files) + len(battle.files)} files from real games (turn, admin, battle question "
              f"and reply), built in {time.monotonic() - t0:.1f} s")
        counts: Counter = Counter()
        findings: dict = {}
        kinds: Counter = Counter()
        end = time.monotonic() + a.minutes * 60
        while time.monotonic() < end:
            kind, path, what, out = one(rng, corpus, bodies, battle)
            counts[out.kind] += 1
            kinds[kind] += 1
            if out.kind not in ("refused", "same", "diagnostic"):
                key = (kind, path[:2], out.kind, out.text.split(":")[0][:80])
                findings.setdefault(key, (path, what, out.text[:200]))
        total = sum(counts.values())
        print("by file kind: " + ", ".join(f"{k} {n}" for k, n in sorted(kinds.items())))
        print(f"{total} validly re-signed mutants in {a.minutes:g} min (seed {a.seed}): "
              f"{counts['refused']} refused, {counts['same']} unchanged by the mutation and accepted, "
              f"{counts['diagnostic']} accepted with a change to a diagnostic field (state parts, place), "
              f"{counts['accepted']} changed and accepted, {counts['crash']} crashes")
        for (kind, _, k, _), (path, what, text) in sorted(findings.items(), key=repr):
            print(f"  {k:8} {kind:5} at {list(path)!r} ({what}): {text}")


if __name__ == "__main__":
    main()
