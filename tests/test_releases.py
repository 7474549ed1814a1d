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

pytestmark = pytest.mark.slow

FIXTURES = Path(__file__).resolve().parent / "fixtures" / "releases"
SETS = sorted(p for p in FIXTURES.iterdir() if (p / "release.json").is_file()) if FIXTURES.is_dir() else []


def test_there_is_a_set_of_folders_of_a_release():
    assert SETS, f"no release fixtures under {FIXTURES}"


def _send(src: Path, dst: Path) -> list[str]:
    names = []
    for p in sorted((src / "commout").glob("*.pbm")):
        shutil.copy(p, dst / "commin" / p.name)
        names.append(p.name)
    return names


@pytest.mark.parametrize("fixture", SETS, ids=[p.name for p in SETS])
def test_folders_of_a_release_open_play_on_and_upgrade(fixture, tmp_path, monkeypatch):
    monkeypatch.setenv(TEST_SCRYPT_ENV, "10,1,1")
    info = json.loads((fixture / "release.json").read_text(encoding="utf-8"))
    root = tmp_path / fixture.name
    shutil.copytree(fixture, root)
    game, pw = info["game"], info["passwords"]
    host, fr = root / "host", root / "FR"
    h = Session.open(host, game, "RU", pw["RU"])
    f = Session.open(fr, game, "FR", pw["FR"])
    assert h.state.state_hash().hex() == info["host"]["state_hash"]  # the save opens at the same state
    assert f.state.state_hash().hex() == info["FR"]["state_hash"]
    assert audit.run(fr, game, f.me).verified  # this release replays that release's files to the same states
    for name in info["pending"]:
        shutil.copy(root / "pending" / name, fr / "commin" / name)
    assert [n for n, _ in f.load_all().loaded] == info["pending"]
    assert f.state.state_hash() == h.state.state_hash()
    while f.state.slot is not None and f.state.slot.power == "FR":  # France plays on, by file to the host
        f.end_phase()
        _send(fr, host)
        assert Session.open(host, game, "RU", pw["RU"]).load_all().loaded
        f = Session.open(fr, game, "FR", pw["FR"])
    h = Session.open(host, game, "RU", pw["RU"])
    assert h.state.state_hash() == f.state.state_hash()
    for p in (host / "commout").glob("*.pbm"):
        p.unlink()
    # A newer release: the same code with the rules version one higher.
    monkeypatch.setattr(turn, "RULES_VERSION", turn.RULES_VERSION + 1)
    monkeypatch.setattr(eiapbem, "__version__", info["release"] + "+next")
    hs = Session.open(host, game, "host", pw["host"])
    assert upgrade.standing(hs.data.meta).kind == "newer"
    path = hadmin.upgrade(hs)
    shutil.copy(path, fr / "commin" / path.name)
    f = Session.open(fr, game, "FR", pw["FR"])
    assert [n for n, _ in f.load_all().loaded] == [path.name]
    assert f.data.meta["versions"] == upgrade.mine() and f.contents.chain.epoch == hs.contents.chain.epoch
    h = Session.open(host, game, "RU", pw["RU"])
    assert f.state.state_hash() == h.state.state_hash()
    for s, other in ((h, fr), (f, host)):  # whoever is due plays on under the newer release
        if s.state.slot is not None and s.state.slot.power == s.power:
            s.end_phase()
            _send(s.home, other)
            Session.open(other, game, "FR" if other == fr else "RU", pw["FR" if other == fr else "RU"]).load_all()
    assert (Session.open(host, game, "RU", pw["RU"]).state.state_hash()
            == Session.open(fr, game, "FR", pw["FR"]).state.state_hash())
    assert audit.run(fr, game, f.me).verified  # from the upgrade on, replayed by this newer release
