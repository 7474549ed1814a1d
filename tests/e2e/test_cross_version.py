"""Cross-version determinism (issue 20 item 7): one seeded game, every Python 3.11-3.13 here, several hash seeds.

``tests/seeded_game.py`` plays the same seeded game (every power at the
computer; plus two files sealed with a seeded randomness source) and prints a
hash per slot.  It runs under this interpreter and under every other Python
3.11-3.13 that has a venv made by ``tools/make_version_venvs.sh``
(``.venv-versions/<version>/``), each with several ``PYTHONHASHSEED`` values;
every run must print the same lines.  With only one interpreter, the
interpreter part is skipped with a message (the hash seeds are still compared).
"""

import json
import os
import subprocess
import sys

import pytest
from paths import ROOT

SCRIPT = ROOT / "tests" / "seeded_game.py"
HASH_SEEDS = ("0", "1", "4242", "random")
MONTHS = "2"

pytestmark = pytest.mark.slow


def interpreters() -> dict[str, str]:
    found = {f"{sys.version_info[0]}.{sys.version_info[1]}": sys.executable}
    base = ROOT / ".venv-versions"
    if base.is_dir():
        for d in sorted(base.iterdir()):
            py = d / "bin" / "python"
            minor = ".".join(d.name.split(".")[:2])
            if py.is_file() and minor in ("3.11", "3.12", "3.13") and minor not in found:
                found[minor] = str(py)
    return found


def _run(python: str, hash_seed: str) -> list[str]:
    env = dict(os.environ, PYTHONHASHSEED=hash_seed, PYTHONPATH=str(ROOT))
    p = subprocess.run([python, str(SCRIPT), "--months", MONTHS], capture_output=True, text=True, env=env, timeout=900,
                       cwd=str(ROOT))
    assert p.returncode == 0, p.stderr[-2000:]
    return json.loads(p.stdout)["lines"]


def _compare(ref: list[str], got: list[str], what: str) -> None:
    for a, b in zip(ref, got):
        assert a == b, f"{what}: the first differing slot is {b.split()[0]} ({a.split()[1][:16]} against {b.split()[1][:16]})"
    assert len(ref) == len(got), what


def test_the_same_game_under_several_hash_seeds():
    ref = _run(sys.executable, HASH_SEEDS[0])
    assert len(ref) > 40  # the setup and two months, slot by slot
    for seed in HASH_SEEDS[1:]:
        _compare(ref, _run(sys.executable, seed), f"PYTHONHASHSEED={seed}")


def test_the_same_game_under_every_python_3_11_to_3_13_here():
    found = interpreters()
    if len(found) < 2:
        pytest.skip(f"only Python {', '.join(found)} is available here; run tools/make_version_venvs.sh to add "
                    "the others (pyenv versions 3.11-3.13)")
    ref = _run(sys.executable, "0")
    for minor, py in sorted(found.items()):
        for seed in ("1", "random"):
            _compare(ref, _run(py, seed), f"Python {minor}, PYTHONHASHSEED={seed}")
