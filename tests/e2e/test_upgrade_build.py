"""A game moves to a real second build of eiapbem in the middle of a war, and plays on by email (issue 29 item 4).

The second build is this source tree copied, with ``RULES_VERSION`` one higher and another release number:
what a release that changed the rules ships.  Every command is the real ``eiapbem`` in a process of its own,
run by the build each player has installed; files travel between the folders as email would (copied from one
``commout/`` to the other's ``commin/``).  Russia hosts, France plays by email, the computer plays the other
five powers; Great Britain and France start at war (4.1.1 option), and the game moves to the new build while
that war goes on.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from paths import ROOT

import eiapbem
from eiapbem.rules import turn

pytestmark = pytest.mark.slow

GAME = "Vittoria"
HOST_PW, FR_PW = "host-secret", "secret-FR"
#: Runs ``python -m eiapbem`` from the build in ``EIAPBEM_BUILD``, whatever eiapbem the venv has installed.
BOOT = r"""
import os, runpy, sys
sys.meta_path[:] = [f for f in sys.meta_path if "editable" not in repr(f).lower()]
sys.path.insert(0, os.environ["EIAPBEM_BUILD"])
sys.argv = ["eiapbem"] + sys.argv[1:]
runpy.run_module("eiapbem", run_name="__main__", alter_sys=True)
"""


@pytest.fixture(scope="module")
def builds(tmp_path_factory):
    """The two builds: this one and a copy with the rules version bumped."""
    base = tmp_path_factory.mktemp("builds")
    old, new = base / "old", base / "new"
    for b in (old, new):
        shutil.copytree(ROOT / "eiapbem", b / "eiapbem", ignore=shutil.ignore_patterns("__pycache__"))
    t = new / "eiapbem" / "rules" / "turn.py"
    text = t.read_text(encoding="utf-8")
    t.write_text(re.sub(r"^RULES_VERSION = \d+", f"RULES_VERSION = {turn.RULES_VERSION + 1}", text, count=1,
                        flags=re.M), encoding="utf-8")
    init = new / "eiapbem" / "__init__.py"
    init.write_text(init.read_text(encoding="utf-8").replace(f'__version__ = "{eiapbem.__version__}"',
                                                             f'__version__ = "{eiapbem.__version__}.post1"'),
                    encoding="utf-8")
    boot = base / "boot.py"
    boot.write_text(BOOT, encoding="utf-8")
    return {"old": old, "new": new, "boot": boot}


def _run(builds, which: str, home: Path, *args: str) -> tuple[int, str]:
    env = dict(os.environ, EIAPBEM_BUILD=str(builds[which]), EIAPBEM_TEST_SCRYPT="10,1,1", PYTHONDONTWRITEBYTECODE="1")
    p = subprocess.run([sys.executable, str(builds["boot"]), "--home", str(home), *args], capture_output=True,
                       text=True, env=env, cwd=str(home), timeout=600)
    return p.returncode, p.stdout + p.stderr


def _ok(builds, which, home, *args) -> str:
    code, out = _run(builds, which, home, *args)
    assert code == 0, (args, out[-3000:])
    return out


def _mail(src: Path, dst: Path) -> list[str]:
    """What the email carries: the files ``src`` wrote, into ``dst``'s commin/ (commout/ then cleared)."""
    sent = []
    for p in sorted((src / "commout").iterdir()):
        if p.is_file() and p.suffix == ".pbm":
            shutil.copy(p, dst / "commin" / p.name)
            sent.append(p.name)
        if p.is_file() and not p.name.endswith(".key"):
            p.unlink()
    return sent


def _status(builds, which, home, *pw) -> dict:
    return json.loads(_ok(builds, which, home, "status", "--json", *pw))


def _play(builds, which, host, fr, until, *, max_files: int = 40) -> None:
    """Play by email until ``until(host status)`` holds: whoever is due ends the phase, the other loads the file."""
    hp, fp = ("--power", "RU", "--password", HOST_PW), ("--password", FR_PW)
    for _ in range(max_files):
        st = _status(builds, which, host, *hp)
        if until(st):
            return
        moved = False
        for home, pw, other, opw, me in ((host, hp, fr, fp, "RU"), (fr, fp, host, hp, "FR")):
            mine = _status(builds, which, home, *pw)
            if me in [w["power"] for w in mine["waiting"] if w["here"]]:
                if mine["phase"] == "setup":
                    _ok(builds, which, home, "setup", "load", "default", *pw)
                _ok(builds, which, home, "end-phase", "--yes", *pw)
                if _mail(home, other):
                    _ok(builds, which, other, "load", *opw)
                moved = True
        assert moved, f"nobody here moves at {st['slot']}"
    raise AssertionError("the game did not get there")


def test_a_game_moves_to_a_build_with_a_bumped_rules_version_in_a_war_and_plays_on_by_email(builds, tmp_path):
    host, fr = tmp_path / "host", tmp_path / "FR"
    for h in (host, fr):
        (h / "commin").mkdir(parents=True)
    out = _ok(builds, "old", host, "new", GAME, "--scenario", "classic-1805", "--host-password", HOST_PW, "--password",
              f"RU={HOST_PW}", "--option", "gb-and-fr-start-at-war",
              "--player", "RU:Anna:anna@example.org:host", "--player", "FR:Bob:bob@example.org:client",
              "--player", "AU:ai-easy", "--player", "PR:ai-medium", "--player", "GB:ai-hard", "--player", "SP:ai-easy",
              "--player", "TU:ai-medium")
    otp = next(line.rsplit(" ", 1)[1] for line in out.splitlines() if "one-time password" in line)
    for name in (f"{GAME}_gamestart.pbm", f"{GAME}_FR.key"):
        shutil.copy(host / "commout" / name, fr / "commin" / name)
    _ok(builds, "old", fr, "join", f"commin/{GAME}_gamestart.pbm", "--power", "FR", "--email", "bob@example.org",
        "--one-time-password", otp, "--password", FR_PW)
    hp, fp = ("--power", "RU", "--password", HOST_PW), ("--password", FR_PW)
    # The old build plays the setup and the first month's diplomacy: Great Britain and France are at war.
    _play(builds, "old", host, fr, lambda st: st["phase"] not in ("setup", "diplomacy"))
    war = _ok(builds, "old", host, "show", "power", "FR", *hp)
    assert re.search(r"at war with: .*GB", war), war[:800]
    before = _status(builds, "old", host, *hp)
    # France installs the new build first: it is told to wait for the host's upgrade file, and plays nothing.
    code, out = _run(builds, "new", fr, "end-phase", *fp)
    assert code != 0 and "still plays rules" in out and "wait for the host's upgrade file" in out, out
    st = _status(builds, "new", fr, *fp)
    assert st["release"] and "upgrade file" in st["release"]
    # The host moves the game to the new build: one file.
    out = _ok(builds, "new", host, "admin", "upgrade", "--password", HOST_PW)
    assert f"moves to eiapbem {eiapbem.__version__}.post1" in out, out
    sent = _mail(host, fr)
    assert sent == [f"{GAME}_upgrade_0001.pbm"]
    # The old build reading the upgrade file is told what to install; the file waits.
    code, out = _run(builds, "old", fr, "load", *fp)
    assert f"install eiapbem {eiapbem.__version__}.post1" in out and (fr / "commin" / sent[0]).is_file(), out
    code, out = _run(builds, "old", host, "status", *hp)
    assert code != 0 and f"install eiapbem {eiapbem.__version__}.post1" in out, out
    # France loads it with the new build; both folders stand at the same state, the war goes on.
    out = _ok(builds, "new", fr, "load", *fp)
    assert f"loaded {sent[0]}" in out, out
    a, b = _status(builds, "new", host, *hp), _status(builds, "new", fr, *fp)
    assert a["state_hash"] == b["state_hash"] == before["state_hash"] and a["slot"] == before["slot"]
    assert "moved the game to eiapbem" in " ".join(e["text"] for e in a["log"])
    # And plays on by email under the new build, into the next month.
    _play(builds, "new", host, fr, lambda st: st["date"] != before["date"] and st["phase"] not in ("diplomacy",),
          max_files=60)
    a, b = _status(builds, "new", host, *hp), _status(builds, "new", fr, *fp)
    assert a["state_hash"] == b["state_hash"]
    war = _ok(builds, "new", host, "show", "power", "GB", *hp)
    assert re.search(r"at war with: .*FR", war), war[:800]
    out = _ok(builds, "new", fr, "audit", *fp)
    assert "verified" in out and "not replayed here" in out, out
