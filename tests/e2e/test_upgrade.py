"""A running game moves to a newer eiapbem (issue 29 item 4): the host's upgrade file, one file every player loads.

Seven real folders (``tests/auditkit.py``).  "A newer eiapbem" is this code with
``RULES_VERSION`` one higher (the number a release bumps when what a file
produces changes); "the older one" is this code as it is.  The end-to-end run
with a real second build in its own folder is ``tests/e2e/test_upgrade_build.py``.
"""

from __future__ import annotations

import shutil

import pytest

import auditkit
import eiapbem
from auditkit import GAME, home_of
from eiapbem.client import audit, upgrade
from eiapbem.client.session import Session, WrongVersion
from eiapbem.core.errors import IllegalAction
from eiapbem.host import admin as hadmin
from eiapbem.pbem.errors import NeedsRelease, Obsolete
from eiapbem.rules import turn
from eiapbem.rules.model import POWERS

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    root = tmp_path_factory.mktemp("upgrade")
    ids = auditkit.play(root, slots=1, admin=False)  # the setup and the diplomacy phase's first round
    return root, ids


def _copy(base, tmp_path):
    root, ids = base
    dest = tmp_path / "game"
    shutil.copytree(root, dest, symlinks=True)
    return dest, ids


def _newer(monkeypatch):
    monkeypatch.setattr(turn, "RULES_VERSION", turn.RULES_VERSION + 1)
    monkeypatch.setattr(eiapbem, "__version__", eiapbem.__version__ + "+next")


def test_the_host_moves_the_game_on_and_every_folder_follows_with_one_file(base, tmp_path, monkeypatch):
    root, ids = _copy(base, tmp_path)
    before = auditkit.hashes(root, ids)
    old_rules = turn.RULES_VERSION
    _newer(monkeypatch)
    fr = Session.open_with(home_of(root, "FR"), GAME, ids["FR"])  # a player who installed the new release first
    with pytest.raises(WrongVersion, match=f"still plays rules {old_rules}"):
        fr.end_phase()
    h = Session.open_with(home_of(root, "host"), GAME, ids["host"])
    path = hadmin.upgrade(h)
    assert path.name == f"{GAME}_upgrade_0001.pbm" and h.contents.chain.epoch == 1
    assert h.meta.versions["rules"] == old_rules + 1 and h.meta.release == eiapbem.__version__
    assert "moved the game to eiapbem" in h.journal(1)[-1].text
    auditkit.deliver(root, "host", path)
    auditkit.load_everyone(root, ids)
    after = auditkit.hashes(root, ids)
    assert len(set(after.values())) == 1 and after == before  # the state carries over
    for p in POWERS:
        s = Session.open_with(home_of(root, p), GAME, ids[p])
        assert s.meta.versions["rules"] == old_rules + 1 and s.contents.chain.epoch == 1
        assert len(s.journal()) == len(h.journal())  # and the whole history
    auditkit.play_slot(root, ids)  # the game plays on under the new release
    auditkit.play_slot(root, ids)
    assert len(set(auditkit.hashes(root, ids).values())) == 1
    res = audit.run(home_of(root, "TU"), GAME, ids["TU"])
    assert res.verified, (res.first, res.notes)


def test_an_older_release_is_told_what_to_install_and_the_file_waits(base, tmp_path, monkeypatch):
    root, ids = _copy(base, tmp_path)
    with monkeypatch.context() as m:
        _newer(m)
        path = hadmin.upgrade(Session.open_with(home_of(root, "host"), GAME, ids["host"]))
        release = eiapbem.__version__
    auditkit.deliver(root, "host", path)
    tu = Session.open_with(home_of(root, "TU"), GAME, ids["TU"])
    rep = tu.load_all()
    assert not rep.loaded and rep.refused and f"install eiapbem {release}, then run" in rep.refused[0][1]
    assert "eiapbem " + release in rep.refused[0][1]
    assert (home_of(root, "TU") / "commin" / path.name).is_file()  # it waits for the new release
    with pytest.raises(NeedsRelease):
        tu.load_path(home_of(root, "TU") / "commin" / path.name)
    # Opening the host's save (now of the newer release) with the older one: told what to install.
    with pytest.raises(WrongVersion) as err:
        Session.open_with(home_of(root, "host"), GAME, ids["host"])
    assert f"install eiapbem {release}" in err.value.hint


def test_an_upgrade_waits_for_a_slot_boundary_and_a_file_made_before_it_is_obsolete(base, tmp_path, monkeypatch):
    root, ids = _copy(base, tmp_path)
    st = Session.open_with(home_of(root, "RU"), GAME, ids["RU"]).state
    actor = sorted(p for p in st.slot.actors if p != "RU")[0]
    late = Session.open_with(home_of(root, actor), GAME, ids[actor]).end_phase()  # made under the older release
    _newer(monkeypatch)
    h = Session.open_with(home_of(root, "host"), GAME, ids["host"])
    if st.slot.simultaneous:
        shutil.copy(late, home_of(root, "host") / "commin" / late.name)  # one power's orders arrived: mid-step
        with pytest.raises(IllegalAction, match="waits in commin/: the game's files are loaded by the release it plays"):
            hadmin.upgrade(h)
        assert (home_of(root, "host") / "commin" / late.name).is_file()  # not set aside: the older release loads it
        return
    path = hadmin.upgrade(h)
    auditkit.deliver(root, "host", path)
    s = Session.open_with(home_of(root, "GB"), GAME, ids["GB"])
    assert s.load_all().loaded
    with pytest.raises(Obsolete):
        s.load_path(late)
    assert upgrade.standing(s.data.meta).kind == "same"
