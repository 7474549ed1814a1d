"""Kills at every write point of the commands of issue 29: ``rebuild``, the host's ``admin upgrade``, loading it.

Each command runs in a process of its own that is killed (SIGKILL: no ``finally``, no cleanup) at its N-th
write step (a temporary file opened, a rename: every write of the client goes through ``pbem/atomic.py``),
for N = 1, 2, ... until the command runs through.  After each kill the folder must open with the old state
or the new one, with no temporary file left once it is opened again, and the command run again must reach
the new state.  (``tests/test_faults.py`` does the same with a failing write instead of a kill.)
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from paths import TESTS
import fuzzkit
from auditkit import GAME, home_of
from eiapbem.client.session import Session
from eiapbem.core import canonical

pytestmark = pytest.mark.slow


#: The child: run one command on a folder, killing itself at its N-th write step (0: never).
CHILD = r"""
import os, signal, sys
sys.path.insert(0, sys.argv[1])
os.environ["EIAPBEM_TEST_SCRYPT"] = "10,1,1"
home, n, op, newer = sys.argv[2], int(sys.argv[3]), sys.argv[4], sys.argv[5] == "1"
import eiapbem
from eiapbem.pbem import atomic
from eiapbem.rules import turn
if newer:
    turn.RULES_VERSION += 1
    eiapbem.__version__ += "+next"
from auditkit import GAME
from eiapbem.client.session import Session

class Killer:
    def __init__(self, real): self._real, self.count = real, 0
    def _step(self):
        self.count += 1
        if self.count == n:
            os.kill(os.getpid(), signal.SIGKILL)
    def replace(self, *a, **k): self._step(); return self._real.replace(*a, **k)
    def fdopen(self, *a, **k): self._step(); return self._real.fdopen(*a, **k)
    def __getattr__(self, name): return getattr(self._real, name)

role = {"rebuild": "FR", "upgrade": "host", "load": "TU"}[op]
from eiapbem.client.session import open_identity
from sevenfolders import HOST_PW, pw
ident = open_identity(__import__("pathlib").Path(home), GAME, role, HOST_PW if role == "host" else pw(role))
atomic.os = Killer(atomic.os)
if op == "rebuild":
    from eiapbem.client import rebuild
    rebuild.run(home, GAME, ident)
elif op == "upgrade":
    from eiapbem.host import admin
    admin.upgrade(Session.open_with(home, GAME, ident))
else:
    Session.open_with(home, GAME, ident).load_all()
print("done", atomic.os.count)
"""


def _run(home: Path, n: int, op: str, newer: bool) -> tuple[int, str]:
    p = subprocess.run([sys.executable, "-c", CHILD, str(TESTS), str(home), str(n), op, "1" if newer else "0"],
                       capture_output=True, text=True, timeout=600, env=dict(os.environ, PYTHONHASHSEED="0"))
    return p.returncode, p.stdout + p.stderr


def _snap(home: Path, role: str, newer: bool, monkeypatch) -> tuple:
    """What must be either old or new: the state, the actions kept, the chain's place and epoch, the versions."""
    import eiapbem
    from eiapbem.rules import turn

    with monkeypatch.context() as m:
        if newer:
            m.setattr(turn, "RULES_VERSION", turn.RULES_VERSION + 1)
            m.setattr(eiapbem, "__version__", eiapbem.__version__ + "+next")
        s = Session.open_with(home, GAME, _ident(home, role))
        ch = s.contents.chain
        return s.state.state_hash(), canonical.encode(s.data.taken), ch.seq, ch.epoch, s.meta.versions["rules"]


def _ident(home: Path, role: str):
    from eiapbem.client.session import open_identity
    from sevenfolders import HOST_PW, pw

    return open_identity(home, GAME, role, HOST_PW if role == "host" else pw(role))


def every_kill(src: Path, role: str, op: str, tmp_path: Path, monkeypatch, *, newer: bool = False) -> int:
    """Kill ``op`` at its N-th write step on a fresh copy of ``src``, N = 1, 2, ... until it runs through."""
    old = _snap(src, role, newer, monkeypatch)
    homes, n = [], 1
    while True:
        home = tmp_path / f"{op}{n}"
        shutil.copytree(src, home)
        code, out = _run(home, n, op, newer)
        if code == 0:
            assert "done" in out, out
            new = _snap(home, role, newer, monkeypatch)
            break
        assert code == -signal.SIGKILL, (n, code, out[-2000:])
        homes.append(home)
        n += 1
    assert old != new and len(homes) >= 3, (len(homes), old == new)
    for home in homes:
        after = _snap(home, role, newer, monkeypatch)  # it opens, and the open cleans what the kill left
        assert after in (old, new), home.name
        assert not list(home.rglob(".*.tmp")), (home.name, list(home.rglob(".*.tmp")))
        if after == old:
            code, out = _run(home, 0, op, newer)  # run again, it goes through
            assert code == 0, out[-2000:]
        assert _snap(home, role, newer, monkeypatch) == new, home.name
    return len(homes)


def test_kills_at_every_write_of_a_rebuild(played, tmp_path, monkeypatch):
    root, _ = played
    assert every_kill(root / "FR-behind", "FR", "rebuild", tmp_path, monkeypatch) >= 4


def test_kills_at_every_write_of_an_upgrade_and_of_loading_it(played, tmp_path, monkeypatch):
    root, ids = played
    assert every_kill(home_of(root, "host"), "host", "upgrade", tmp_path, monkeypatch, newer=True) >= 4
    src = tmp_path / "game"
    shutil.copytree(root, src)
    code, out = _run(home_of(src, "host"), 0, "upgrade", True)
    assert code == 0, out
    path = next((home_of(src, "host") / "commout").glob(f"{GAME}_upgrade_*.pbm"))
    shutil.copy(path, home_of(src, "TU") / "commin" / path.name)
    # Beside it, a file anyone can make (a header nested 1,000 deep): load moves it aside, a write of its own.
    hostile = f"{GAME}_1805-01_setup_turn_GB.pbm"
    (home_of(src, "TU") / "commin" / hostile).write_bytes(fuzzkit.with_header(b"\x91" * 1000 + b"\x01"))
    assert every_kill(home_of(src, "TU"), "TU", "load", tmp_path, monkeypatch, newer=True) >= 3
    set_aside = 0
    for home in tmp_path.glob("load*"):  # never lost, never loaded: in commin/ or set aside with its reason
        commin = home / "commin"
        aside = commin / "refused" / hostile
        assert (commin / hostile).is_file() != aside.is_file(), home.name
        if aside.is_file():
            assert "nested deeper than" in aside.with_name(hostile + ".reason.txt").read_text()
            set_aside += 1
    assert set_aside >= 3
