"""``rewind/`` is bounded (issue 20): at most ``KEEP`` points and ``MAX_BYTES``, never fewer than ``MIN_KEEP``."""

import os

from eiapbem.client import forks

GAME = "Bound"


def _points(d, n, size):
    d.mkdir(exist_ok=True)
    for i in range(n):
        p = d / f"{GAME}_at_{i:024x}.sav"
        p.write_bytes(b"s" * 100)
        p.with_name(p.name + ".dat").write_bytes(b"d" * size)
        for q in (p, p.with_name(p.name + ".dat")):
            os.utime(q, ns=(10**18 + i * 10**9, 10**18 + i * 10**9))


def _left(d):
    return sorted(int(p.name.split("_at_")[1][:-4], 16) for p in d.glob(f"{GAME}_at_*.sav"))


def test_small_saves_keep_the_last_keep_points(tmp_path):
    _points(tmp_path / "r", forks.KEEP + 15, 1000)
    (tmp_path / "r" / "Other_at_00.sav").write_bytes(b"x")  # another game's points are not touched
    forks.prune(tmp_path / "r", GAME)
    assert _left(tmp_path / "r") == list(range(15, forks.KEEP + 15))
    assert (tmp_path / "r" / "Other_at_00.sav").is_file()
    assert not (tmp_path / "r" / f"{GAME}_at_{0:024x}.sav.dat").exists()  # the pair goes together


def test_large_saves_are_bounded_in_bytes_but_the_newest_are_always_kept(tmp_path):
    size = forks.MAX_BYTES // 10  # late in a game a save is larger: about ten fit
    _points(tmp_path / "r", 30, size)
    forks.prune(tmp_path / "r", GAME)
    left = _left(tmp_path / "r")
    assert left == list(range(30 - len(left), 30)) and forks.MIN_KEEP <= len(left) < 10
    assert sum(f.stat().st_size for f in (tmp_path / "r").iterdir()) <= forks.MAX_BYTES
    huge = tmp_path / "h"
    _points(huge, 12, forks.MAX_BYTES)  # each point alone is over the budget: the newest MIN_KEEP stay
    forks.prune(huge, GAME)
    assert _left(huge) == list(range(12 - forks.MIN_KEEP, 12))
