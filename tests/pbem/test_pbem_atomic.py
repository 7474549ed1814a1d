"""Atomic writes (DESIGN 5): a crash in the middle of writing never loses the previous save."""

import signal
import subprocess
import sys
import time

import pytest

from eiapbem.pbem import atomic, files
from eiapbem.pbem.errors import BadEncryption
from pbem_game import Game
from paths import TESTS

def test_write_atomic_replaces_whole_file(tmp_path):
    p = tmp_path / "x.bin"
    atomic.write_atomic(p, b"one")
    atomic.write_atomic(p, b"two")
    assert p.read_bytes() == b"two"
    assert [f.name for f in tmp_path.iterdir()] == ["x.bin"]  # no temporary left behind


def _save(g, n):
    contents = files.SaveContents(g.chains["FR"], {"month": n, "pad": bytes(256 * 1024)}, {})
    return files.write_save(contents, g.ids["FR"], g.rng)


def test_save_pair_round_trip_and_old_dat_fallback(tmp_path):
    g = Game()
    p = tmp_path / "Test.sav"
    s1, s2 = _save(g, 1), _save(g, 2)
    atomic.write_save_pair(p, s1.data, s1.dat)
    atomic.write_save_pair(p, s2.data, s2.dat)
    sav, dat = atomic.read_save_pair(p)
    assert files.open_save(sav, dat, g.ids["FR"]).game["month"] == 2
    # A crash after the new .dat was renamed but before the new .sav: the old .sav finds .dat.old.
    (tmp_path / "Test.sav").write_bytes(s1.data)
    sav, dat = atomic.read_save_pair(p)
    assert files.open_save(sav, dat, g.ids["FR"]).game["month"] == 1
    (tmp_path / "Test.sav.dat.old").unlink()
    with pytest.raises(BadEncryption, match="not the one it was saved with"):
        atomic.read_save_pair(p)


def test_save_pair_keeps_the_current_dat_as_old_by_renaming(tmp_path):
    """The .dat the current .sav names becomes .old (a rename, the same bytes); after a crash that left the
    current bytes in .old only, that .old stays and the new pair is whole."""
    g = Game()
    p = tmp_path / "Test.sav"
    s1, s2, s3 = _save(g, 1), _save(g, 2), _save(g, 3)
    atomic.write_save_pair(p, s1.data, s1.dat)
    assert not (tmp_path / "Test.sav.dat.old").exists()
    inode = (tmp_path / "Test.sav.dat").stat().st_ino
    atomic.write_save_pair(p, s2.data, s2.dat)
    assert (tmp_path / "Test.sav.dat.old").read_bytes() == s1.dat
    assert (tmp_path / "Test.sav.dat.old").stat().st_ino == inode  # renamed, not written again
    assert (tmp_path / "Test.sav.dat").read_bytes() == s2.dat
    # A crash left a broken .dat: the current .sav's bytes are the .old, which must survive the next save.
    (tmp_path / "Test.sav.dat").write_bytes(b"broken")
    (tmp_path / "Test.sav").write_bytes(s1.data)
    atomic.write_save_pair(p, s3.data, s3.dat)
    assert (tmp_path / "Test.sav.dat.old").read_bytes() == s1.dat
    sav, dat = atomic.read_save_pair(p)
    assert files.open_save(sav, dat, g.ids["FR"]).game["month"] == 3
    assert sorted(f.name for f in tmp_path.iterdir()) == ["Test.sav", "Test.sav.dat", "Test.sav.dat.old"]


WRITER = r"""
import sys
from eiapbem.pbem import atomic, files
sys.path.insert(0, sys.argv[2])
from pbem_game import Game
g = Game()
path = sys.argv[1]
n = 100
while True:
    n += 1
    contents = files.SaveContents(g.chains["FR"], {"month": n, "pad": bytes(4 * 1024 * 1024)}, {})
    s = files.write_save(contents, g.ids["FR"], g.rng)
    print("start", n, flush=True)
    atomic.write_save_pair(path, s.data, s.dat)
    print("done", n, flush=True)
"""


@pytest.mark.parametrize("delay", [0.0, 0.05, 0.15, 0.3])
def test_killed_writer_leaves_a_loadable_save(tmp_path, delay):
    g = Game()
    p = tmp_path / "Test.sav"
    first = _save(g, 1)
    atomic.write_save_pair(p, first.data, first.dat)
    tests_dir = str(TESTS)
    proc = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(p), tests_dir], stdout=subprocess.PIPE, text=True
    )
    try:
        # Wait until the child has begun writing a save, then kill it without warning.
        assert proc.stdout.readline().startswith("start")
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.wait(timeout=30)
    sav, dat = atomic.read_save_pair(p)
    month = files.open_save(sav, dat, g.ids["FR"]).game["month"]
    assert month == 1 or month > 100  # the previous save or a whole newer one, never a broken one
