"""What a load writes, and how (issue 18 item 2: one turn file in 15 ms).

One durable save per loaded file, and nothing else fsynced: the rewind point is
the previous save's own files hard-linked into ``rewind/`` and the copy in
``commin/done`` is written without fsync (docs/decisions.md "One turn file in
15 ms").  The save pair keeps the ``.sav.dat`` the current ``.sav`` names as
``.sav.dat.old`` by renaming it.
"""

from __future__ import annotations

import os
import shutil

import pytest

import auditkit
from auditkit import GAME, home_of
from eiapbem.client import forks, setups
from eiapbem.client.session import TEST_SCRYPT_ENV, Session
from eiapbem.pbem import atomic, files
from pbem_game import Game


@pytest.fixture(scope="module")
def waiting(tmp_path_factory):
    """RU (the host's folder) has set up; its file waits in TU's ``commin/``."""
    old = os.environ.get(TEST_SCRYPT_ENV)
    root = tmp_path_factory.mktemp("load")
    try:
        ids = auditkit.new(root)
    finally:
        if old is None:
            os.environ.pop(TEST_SCRYPT_ENV, None)
        else:
            os.environ[TEST_SCRYPT_ENV] = old
    ru = Session.open_with(home_of(root, "RU"), GAME, ids["RU"])
    setups.load_setup(ru, "default")
    path = ru.end_phase()
    shutil.copy(path, home_of(root, "TU") / "commin" / path.name)
    return home_of(root, "TU"), ids["TU"], path.name


class CountingOs:
    """``os`` as ``atomic`` sees it, counting fsyncs."""

    def __init__(self, real):
        self._real, self.fsyncs = real, 0

    def fsync(self, fd):
        self.fsyncs += 1
        return self._real.fsync(fd)

    def __getattr__(self, name):
        return getattr(self._real, name)


def _ident(p):
    st = os.stat(p)
    return st.st_dev, st.st_ino


def test_a_load_fsyncs_the_save_only(waiting, tmp_path, monkeypatch):
    src, ident, name = waiting
    home = tmp_path / "TU"
    shutil.copytree(src, home)
    s = Session.open_with(home, GAME, ident)
    save = s.folders.save / f"{GAME}.sav"
    before = atomic.read_save_pair(save)
    dat_before = _ident(save.with_name(save.name + ".dat"))
    counting = CountingOs(atomic.os)
    monkeypatch.setattr(atomic, "os", counting)
    rep = s.load_all()
    monkeypatch.setattr(atomic, "os", counting._real)
    assert [n for n, _ in rep.loaded] == [name] and not rep.refused
    # The save: its .dat and .sav written and fsynced, three renames each made durable (2 + 3).
    assert counting.fsyncs == 5
    # The loaded file is kept in commin/done (and stays in commin/, so loading it again says "already loaded").
    assert (home / "commin" / "done" / name).read_bytes() == (home / "commin" / name).read_bytes()
    # The previous save is the rewind point, by links: the very files, no byte written again.
    points = sorted((home / forks.REWIND).glob(f"{GAME}_at_*.sav"))
    assert len(points) == 1
    assert atomic.read_save_pair(points[0]) == before
    kept_dat = points[0].with_name(points[0].name + ".dat")
    assert _ident(kept_dat) == dat_before == _ident(save.with_name(save.name + ".dat.old"))
    # The point brings the folder back to where it was before the load.
    again = Session.open_with(home, GAME, ident)
    state_after = again.state.state_hash()
    assert forks.rewind(again, again.contents.chain.head) is False  # no point at the new head
    head_before = files.open_save(*before, ident, "x").chain.head
    assert forks.rewind(again, head_before)
    assert again.contents.chain.head == head_before and again.state.state_hash() != state_after


def _pair(g, n):
    contents = files.SaveContents(g.chains["FR"], {"month": n}, {})
    return files.write_save(contents, g.ids["FR"], g.rng)


def test_the_current_dat_is_renamed_to_old_never_rewritten(tmp_path):
    g = Game()
    p = tmp_path / "T.sav"
    s1, s2, s3 = _pair(g, 1), _pair(g, 2), _pair(g, 3)
    atomic.write_save_pair(p, s1.data, s1.dat)
    first = _ident(tmp_path / "T.sav.dat")
    atomic.write_save_pair(p, s2.data, s2.dat)
    assert _ident(tmp_path / "T.sav.dat.old") == first
    assert atomic.read_save_pair(p) == (s2.data, s2.dat)
    # A crash between the two renames: no .dat, the current one is .old; the next save keeps it there.
    (tmp_path / "T.sav.dat").rename(tmp_path / "T.sav.dat.old")
    assert atomic.read_save_pair(p) == (s2.data, s2.dat)
    atomic.write_save_pair(p, s3.data, s3.dat)
    assert atomic.read_save_pair(p) == (s3.data, s3.dat)
    assert (tmp_path / "T.sav.dat.old").read_bytes() == s2.dat
    assert sorted(f.name for f in tmp_path.iterdir()) == ["T.sav", "T.sav.dat", "T.sav.dat.old"]


def test_a_kept_pair_is_the_one_read_even_if_the_save_moved_on(tmp_path):
    g = Game()
    p = tmp_path / "T.sav"
    s1, s2 = _pair(g, 1), _pair(g, 2)
    atomic.write_save_pair(p, s1.data, s1.dat)
    read = atomic.read_save_files(p)
    (tmp_path / "r").mkdir()
    atomic.keep_save_pair(tmp_path / "r" / "A.sav", read)  # unchanged: linked
    assert _ident(tmp_path / "r" / "A.sav.dat") == _ident(tmp_path / "T.sav.dat")
    atomic.write_save_pair(p, s2.data, s2.dat)  # the save moves on: T.sav is another file now
    atomic.keep_save_pair(tmp_path / "r" / "B.sav", read)
    assert atomic.read_save_pair(tmp_path / "r" / "B.sav") == (s1.data, s1.dat)
    assert _ident(tmp_path / "r" / "B.sav") != _ident(p)
    assert atomic.read_save_pair(p) == (s2.data, s2.dat)
    assert not [f for f in (tmp_path / "r").iterdir() if f.name.endswith(".tmp")]
