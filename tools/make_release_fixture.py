"""Folders written by a release of eiapbem, kept as test fixtures (issue 29 item 4).

``python tools/make_release_fixture.py OUT [--python PY] [--pythonpath DIR]`` plays a small email game with
the eiapbem that ``PY`` (default: this interpreter) imports, only through the commands a player types
(``new``, ``join``, ``setup load``, ``end-phase``, ``load``), and leaves in ``OUT``:

- ``host/``: the host's folder (the host plays Russia; Austria, Prussia, Great Britain, Spain and Turkey are
  played by the computer; Great Britain and France start at war), host functions on;
- ``FR/``: France's folder, an email client;
- ``release.json``: the release, its versions, the game's point and state hash in each folder.

The game has played its setup and its first month's diplomacy phase, every file loaded in both folders;
the host is due next.  ``tests/e2e/test_releases.py`` opens every such set under ``tests/fixtures/releases/``
with this release at the same state, and plays on and moves the game to a newer release: when the set is of
this release's versions it plays a slot first, and when it is of older versions the game waits for the
host's upgrade, which it then makes.  Make one set per release (under its release number) and keep them:
they are how a later release shows it still opens them.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

GAME = "Fixture"
HOST_PW = "host-secret"
FR_PW = "secret-FR"
PLAYERS = ["--player", "RU:Anna:anna@example.org:host", "--player", "FR:Bob:bob@example.org:client",
           "--player", "AU:ai-easy", "--player", "PR:ai-medium", "--player", "GB:ai-hard", "--player", "SP:ai-easy",
           "--player", "TU:ai-medium"]


class Runner:
    def __init__(self, python: str, pythonpath: str | None) -> None:
        self.env = dict(os.environ, EIAPBEM_TEST_SCRYPT="10,1,1", PYTHONHASHSEED="0")
        if pythonpath:
            self.env["PYTHONPATH"] = pythonpath
        self.python = python

    def __call__(self, home: Path, *args: str) -> str:
        p = subprocess.run([self.python, "-m", "eiapbem", "--home", str(home), *args], capture_output=True, text=True,
                           env=self.env, cwd=str(home))
        if p.returncode != 0:
            raise SystemExit(f"eiapbem {' '.join(args)} in {home.name} failed: {p.stderr.strip()}")
        return p.stdout

    def py(self, code: str) -> str:
        p = subprocess.run([self.python, "-c", code], capture_output=True, text=True, env=self.env)
        if p.returncode != 0:
            raise SystemExit(p.stderr)
        return p.stdout.strip()


def send(src: Path, dst: Path) -> list[Path]:
    """The files ``src`` wrote (its commout/), copied into ``dst``'s commin/ as email would; then commout/ cleared."""
    out = []
    for p in sorted((src / "commout").glob(f"{GAME}_*.pbm")):
        shutil.copy(p, dst / "commin" / p.name)
        out.append(p)
    for p in (src / "commout").glob("*"):
        if p.is_file() and not p.name.endswith(".key"):
            p.unlink()
    return out


def status(run: Runner, home: Path, *args: str) -> dict:
    return json.loads(run(home, "status", "--json", *args))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("out", type=Path)
    ap.add_argument("--python", default=sys.executable)
    ap.add_argument("--pythonpath")
    a = ap.parse_args()
    run = Runner(a.python, a.pythonpath)
    release = run.py("import eiapbem; print(eiapbem.__version__)")
    versions = json.loads(run.py("import json; from eiapbem import ai; from eiapbem.rules import turn; "
                                 "print(json.dumps(turn.versions(ai)))"))
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        host, fr = root / "host", root / "FR"
        for h in (host, fr):
            (h / "commin").mkdir(parents=True)
        out = run(host, "new", GAME, "--scenario", "classic-1805", "--host-password", HOST_PW, "--password",
                  f"RU={HOST_PW}", "--option", "allow-pbem-host-functions", "--option", "gb-and-fr-start-at-war",
                  *PLAYERS)
        otp = next(line.rsplit(" ", 1)[1] for line in out.splitlines() if "one-time password" in line)
        shutil.copy(host / "commout" / f"{GAME}_gamestart.pbm", fr / "commin")
        shutil.copy(host / "commout" / f"{GAME}_FR.key", fr / "commin")
        run(fr, "join", f"commin/{GAME}_gamestart.pbm", "--power", "FR", "--email", "bob@example.org",
            "--one-time-password", otp, "--password", FR_PW)
        hp, fp = ("--power", "RU", "--password", HOST_PW), ("--password", FR_PW)
        for _ in range(40):  # the setup and the first diplomacy phase, file by file
            st = status(run, host, *hp)
            if st["phase"] not in ("setup", "diplomacy"):
                break
            moved = False
            for home, args, me in ((host, hp, "RU"), (fr, fp, "FR")):
                sm = status(run, home, *args)
                if me in [w["power"] for w in sm["waiting"] if w["here"]]:
                    if sm["phase"] == "setup":
                        run(home, "setup", "load", "default", *args)
                    run(home, "end-phase", *args)
                    send(home, fr if home == host else host)
                    run(fr if home == host else host, "load", *(fp if home == host else hp))
                    moved = True
            if not moved:
                raise SystemExit(f"nobody here moves at {st['slot']}")
        for home in (host, fr):
            for p in (home / "commin").glob(f"{GAME}_*.pbm"):
                p.unlink()  # loaded: the copies are in commin/done/
        info = {"release": release, "versions": versions, "game": GAME,
                "host": status(run, host, *hp), "FR": status(run, fr, *fp),
                "passwords": {"host": HOST_PW, "RU": HOST_PW, "FR": FR_PW}}
        info = {k: ({kk: v[kk] for kk in ("slot", "state_hash", "date")} if k in ("host", "FR") else v)
                for k, v in info.items()}
        a.out.mkdir(parents=True, exist_ok=True)
        for name in ("host", "FR"):
            if (root / name).exists():
                shutil.copytree(root / name, a.out / name, symlinks=False)
        (a.out / "release.json").write_text(json.dumps(info, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    print(f"wrote {a.out}: release {release}, versions {versions}, at {info['host']['slot']}")


if __name__ == "__main__":
    main()
