"""Folders written by earlier releases open in this one, play on, and move to a newer release (issue 29 item 4).

``tests/fixtures/releases/<release>/`` holds real game folders written by that release
(``tools/make_release_fixture.py``: the host's folder, France's, and the host's last file France has not
loaded).  This release must open their saves at the same state, load the waiting file, re-verify every
file the folders hold (``audit``: this release replays the earlier release's files), play on by files
exchanged as email would, and move the game to a newer release with the host's upgrade file.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

import eiapbem
from eiapbem.client import audit, upgrade
from eiapbem.client.session import TEST_SCRYPT_ENV, Session
from eiapbem.host import admin as hadmin
from eiapbem.rules import turn
from paths import TESTS

pytestmark = pytest.mark.slow

FIXTURES = TESTS / "fixtures" / "releases"
SETS = sorted(p for p in FIXTURES.iterdir() if (p / "release.json").is_file()) if FIXTURES.is_dir() else []


def test_there_is_a_set_of_folders_of_a_release():
    assert SETS, f"no release fixtures under {FIXTURES}"


def _send(src: Path, dst: Path) -> list[str]:
    names = []
    for p in sorted((src / "commout").glob("*.pbm")):
        shutil.copy(p, dst / "commin" / p.name)
        p.unlink()
        names.append(p.name)
    return names


def _open(root: Path, game: str, pw: dict, p: str) -> Session:
    return Session.open(root / ("host" if p in ("RU", "host") else p), game, p, pw[p])


def _play_a_slot(root: Path, game: str, pw: dict) -> None:
    """Whoever of Russia and France is due ends its slot; the file goes to the other folder, which loads it."""
    for p, other in (("RU", "FR"), ("FR", "RU")):
        s = _open(root, game, pw, p)
        if s.state.slot is not None and p in [q for q, _ in s.awaited()]:
            s.end_phase()
            dst = root / ("host" if other == "RU" else other)
            assert _send(s.home, dst)
            assert _open(root, game, pw, other).load_all().loaded
            return
    raise AssertionError("neither Russia nor France is due")


def _same(root: Path, game: str, pw: dict) -> bytes:
    a, b = _open(root, game, pw, "RU").state.state_hash(), _open(root, game, pw, "FR").state.state_hash()
    assert a == b
    return a


@pytest.mark.parametrize("fixture", SETS, ids=[p.name for p in SETS])
def test_folders_of_a_release_open_play_on_and_upgrade(fixture, tmp_path, monkeypatch):
    monkeypatch.setenv(TEST_SCRYPT_ENV, "10,1,1")
    info = json.loads((fixture / "release.json").read_text(encoding="utf-8"))
    root = tmp_path / fixture.name
    shutil.copytree(fixture, root)
    game, pw = info["game"], info["passwords"]
    h, f = _open(root, game, pw, "RU"), _open(root, game, pw, "FR")
    # The saves open at the same state: the recorded one, or, when the state has gained fields since that
    # release, the same game with those fields at their defaults (core/record.py reading_older).
    assert h.state.state_hash() == f.state.state_hash()
    if h.state.state_hash().hex() != info["host"]["state_hash"]:
        assert dict(h.meta.versions) != upgrade.mine()  # only a game of other versions is read that way
    for s, who in ((h, "host"), (f, "FR")):
        assert (str(s.state.date), s.state.slot.key(s.state.date)) == (info[who]["date"], info[who]["slot"])
    assert len(h.journal()) > 10 and dict(h.meta.versions) == info["versions"]
    if upgrade.standing(h.data.meta).kind == "same":
        # Folders of this release's versions: re-verified (this code replays their files), then played on.
        assert audit.run(root / "FR", game, f.me).verified
        _play_a_slot(root, game, pw)
        _same(root, game, pw)
        # A newer release: the same code with the rules version one higher.
        monkeypatch.setattr(turn, "RULES_VERSION", turn.RULES_VERSION + 1)
        monkeypatch.setattr(eiapbem, "__version__", info["release"] + "+next")
    # Folders of an older release's versions: they open, and wait for the host's upgrade before playing.
    assert upgrade.standing(_open(root, game, pw, "FR").data.meta).kind == "newer"
    with pytest.raises(upgrade.WrongVersion, match="wait for the host's upgrade file|once the host's upgrade"):
        _open(root, game, pw, "FR").end_phase()
    before = _same(root, game, pw)
    hs = _open(root, game, pw, "host")
    path = hadmin.upgrade(hs)
    shutil.copy(path, root / "FR" / "commin" / path.name)
    f = _open(root, game, pw, "FR")
    assert [n for n, _ in f.load_all().loaded] == [path.name]
    assert dict(f.meta.versions) == upgrade.mine() and f.contents.chain.epoch == hs.contents.chain.epoch
    assert _same(root, game, pw) == before  # the state carries over
    for _ in range(3):  # and the game plays on under the newer release, by files between the folders
        _play_a_slot(root, game, pw)
    _same(root, game, pw)
    res = audit.run(root / "FR", game, _open(root, game, pw, "FR").me)
    assert res.verified and any("not replayed here" in n for n in res.notes)  # from the upgrade on
