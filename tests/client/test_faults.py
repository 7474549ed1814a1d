"""Faults while writing (issue 20 item 6): a failure injected at every write point, deterministically.

Every write of the client goes through ``eiapbem.pbem.atomic`` (a temporary
file, fsync, rename; a save is a pair).  For each operation (``end-phase``,
``load``, an admin file, ``backup``, a save after an action) the test makes the
N-th write step fail, for N = 1, 2, ... until the operation runs through
without reaching N, each time on a fresh copy of the folder, and checks that
the folder then opens with the old or the new state, never a lost or
half-written save, and that the operation can be done again.
"""

import shutil

import pytest

from auditkit import GAME, home_of
from eiapbem.client import setups
from eiapbem.client.session import Session
from eiapbem.host import admin as hadmin
from eiapbem.core import canonical
from eiapbem.pbem import atomic

pytestmark = pytest.mark.slow


class Injected(OSError):
    pass


class FailingOs:
    """``os`` as ``atomic`` sees it, with its N-th write step (a temporary file written, a rename) failing."""

    def __init__(self, real, n):
        self._real, self.n, self.count = real, n, 0

    def _step(self):
        self.count += 1
        if self.count == self.n:
            raise Injected(28, "No space left on device (injected)")

    def replace(self, *a, **k):
        self._step()
        return self._real.replace(*a, **k)

    def fdopen(self, *a, **k):
        self._step()
        return self._real.fdopen(*a, **k)

    def __getattr__(self, name):
        return getattr(self._real, name)


@pytest.fixture(scope="module")
def base(ru_sent, tmp_path_factory):
    """RU (the host's folder) has set up; its file waits in TU's commin/; a copy of TU has loaded it."""
    sent, ids, _ = ru_sent  # tests/client/conftest.py
    root = tmp_path_factory.mktemp("base")
    shutil.copytree(sent, root, dirs_exist_ok=True)
    loaded = root / "TU-loaded"
    shutil.copytree(home_of(root, "TU"), loaded)
    assert Session.open_with(loaded, GAME, ids["TU"]).load_all().loaded
    ready = root / "TU-ready"
    shutil.copytree(loaded, ready)
    setups.load_setup(Session.open_with(ready, GAME, ids["TU"]), "default")
    return root, ids


def _snap(home, ident):
    """What must be either old or new: the state, the actions kept, the chain's place and epoch."""
    s = Session.open_with(home, GAME, ident)
    ch = s.contents.chain
    return s.state.state_hash(), canonical.encode(s.data.taken), ch.seq, ch.epoch, len(ch.collected)


def every_write_point(src, ident, tmp_path, monkeypatch, op, check=None):
    """Run ``op`` on fresh copies of ``src`` with the N-th write step failing, N = 1, 2, ..."""
    seen, n = [], 1
    while True:
        home = tmp_path / f"try{n}"
        shutil.copytree(src, home)
        old = _snap(home, ident)
        fos = FailingOs(atomic.os, n)
        monkeypatch.setattr(atomic, "os", fos)
        try:
            op(Session.open_with(home, GAME, ident))
        except Injected:
            pass
        finally:
            monkeypatch.setattr(atomic, "os", fos._real)
        if fos.count < n:  # the N-th write was never reached: a run without a fault
            new = _snap(home, ident)
            break
        seen.append((home, _snap(home, ident)))  # the folder reopens after the fault (or went on past it)
        n += 1
    assert old != new and len(seen) >= 3, (len(seen), old == new)
    for home, after in seen:
        assert after in (old, new), (home.name, after)
        if after == old:
            op(Session.open_with(home, GAME, ident))  # tried again, the operation goes through
            assert _snap(home, ident) == new, home.name
        if check:
            check(home)
    return len(seen)


def test_a_fault_at_every_write_of_load(base, tmp_path, monkeypatch):
    root, ids = base
    n = every_write_point(home_of(root, "TU"), ids["TU"], tmp_path, monkeypatch, lambda s: s.load_all())
    assert n >= 4


def test_load_writes_the_save_once_per_file(base, tmp_path, monkeypatch):
    """Issue 18: one durable save per loaded file (the replay and the note saved together)."""
    root, ids = base
    home = tmp_path / "once"
    shutil.copytree(home_of(root, "TU"), home)
    s = Session.open_with(home, GAME, ids["TU"])
    save = s.folders.save / f"{GAME}.sav"
    assert save.is_file()
    writes = []
    real = atomic.write_save_pair
    monkeypatch.setattr(atomic, "write_save_pair", lambda path, *a, **k: (writes.append(path), real(path, *a, **k))[1])
    assert len(s.load_all().loaded) == 1
    assert [p for p in writes if p == save] == [save]


def test_a_fault_at_every_write_of_a_save_after_an_action(base, tmp_path, monkeypatch):
    from eiapbem.client.setups import default_actions

    root, ids = base
    acts = default_actions("classic-1805", "TU")[:3]
    every_write_point(root / "TU-loaded", ids["TU"], tmp_path, monkeypatch, lambda s: s.act_many(acts))


def test_a_fault_at_every_write_of_end_phase(base, tmp_path, monkeypatch):
    root, ids = base

    def op(s):
        s.end_phase()

    def sent(home):
        s = Session.open_with(home, GAME, ids["TU"])  # opening re-makes a turn file the save holds
        if s.state.slot.power != "TU":
            files = list((home / "commout").glob("*_setup_turn_TU.pbm"))
            assert files and files[0].with_name(files[0].name + ".eml").is_file(), home.name

    n = every_write_point(root / "TU-ready", ids["TU"], tmp_path, monkeypatch, op, sent)
    assert n >= 6


def test_a_fault_at_every_write_of_an_admin_file(base, tmp_path, monkeypatch):
    root, ids = base
    every_write_point(home_of(root, "host"), ids["host"], tmp_path, monkeypatch, lambda s: hadmin.skip(s))


def test_a_fault_at_every_write_of_a_backup(base, tmp_path, monkeypatch):
    root, ids = base
    monkeypatch.setattr(hadmin, "utc_now", lambda: "1805-01-01 00:00 UTC")  # the backup's log line names the time
    every_write_point(home_of(root, "host"), ids["host"], tmp_path, monkeypatch, lambda s: hadmin.make_backups(s))


# ----------------------------------------------------------------- the commands of issue 29: rebuild, upgrade


def test_a_fault_at_every_write_of_a_rebuild(played, tmp_path, monkeypatch):
    from eiapbem.client import rebuild

    root, ids = played
    n = every_write_point(root / "FR-behind", ids["FR"], tmp_path, monkeypatch,
                          lambda s: rebuild.run(s.home, GAME, ids["FR"]))
    assert n >= 4


def _newer(monkeypatch):
    import eiapbem
    from eiapbem.rules import turn

    monkeypatch.setattr(turn, "RULES_VERSION", turn.RULES_VERSION + 1)
    monkeypatch.setattr(eiapbem, "__version__", eiapbem.__version__ + "+next")


def test_a_fault_at_every_write_of_an_upgrade_and_of_loading_it(played, tmp_path, monkeypatch):
    root, ids = played
    _newer(monkeypatch)
    n = every_write_point(home_of(root, "host"), ids["host"], tmp_path / "write", monkeypatch, lambda s: hadmin.upgrade(s))
    assert n >= 4
    src = tmp_path / "upgraded"
    shutil.copytree(root, src)
    path = hadmin.upgrade(Session.open_with(home_of(src, "host"), GAME, ids["host"]))
    shutil.copy(path, home_of(src, "TU") / "commin" / path.name)
    (tmp_path / "load").mkdir()
    n = every_write_point(home_of(src, "TU"), ids["TU"], tmp_path / "load", monkeypatch, lambda s: s.load_all())
    assert n >= 3
