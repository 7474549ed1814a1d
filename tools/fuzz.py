"""The long fuzz run (issue 20 item 3): ``python tools/fuzz.py --minutes N [--seed S]``.

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
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))
import paths  # noqa: E402

paths.importable()  # the kits and the test modules they borrow from, wherever they live in tests/

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


def main() -> None:
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
