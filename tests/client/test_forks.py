"""Forks (issue 20 item 4): the host's skip and the skipped player's file follow the same point.

The race of issue 20, in seven folders: Great Britain ends its reinforcement
slot; its file reaches five folders while the host, which has not got it yet,
skips Great Britain.  Some folders load GB's file first, some the skip.  The
host's act wins everywhere (4.2.8): every folder that took GB's side rewinds
by itself, and the game ends in one state with no backup.
"""

import shutil

import pytest

import auditkit
from auditkit import GAME, deliver, home_of
from eiapbem.client import audit, forks
from eiapbem.client.session import Session
from eiapbem.core.errors import IllegalAction
from eiapbem.host import admin as hadmin
from eiapbem.rules.model import POWERS
from eiapbem.rules.sequence import SETUP_ORDER

pytestmark = pytest.mark.slow


def _copy(path, home):
    shutil.copy(path, home / "commin" / path.name)


def _to_gb(root, ids):
    """The setup, the diplomacy orders and Spain's reinforcement slot: Great Britain's slot is due."""
    ids = auditkit.new(root)
    for _ in SETUP_ORDER:
        auditkit.play_slot(root, ids)
    auditkit.play_slot(root, ids)  # diplomacy: the commitments, then the reveal (sealed orders, 6.0)
    if Session.open_with(home_of(root, "RU"), GAME, ids["RU"]).state.slot.simultaneous:
        auditkit.play_slot(root, ids)
    auditkit.play_slot(root, ids)  # SP reinforcement
    st = Session.open_with(home_of(root, "RU"), GAME, ids["RU"]).state
    assert st.slot.power == "GB"
    return ids


def test_the_race_of_a_skip_and_the_skipped_players_file_ends_in_one_state(tmp_path):
    root = tmp_path
    ids = _to_gb(root, None)
    gb = Session.open_with(home_of(root, "GB"), GAME, ids["GB"])
    t = gb.end_phase()
    for p in ("AU", "FR", "PR", "SP", "TU"):
        _copy(t, home_of(root, p))
    for p in ("AU", "FR"):  # two folders load GB's file at once
        rep = Session.open_with(home_of(root, p), GAME, ids[p]).load_all()
        assert [n for n, _ in rep.loaded] == [t.name]
    host = Session.open_with(home_of(root, "host"), GAME, ids["host"])
    a = hadmin.skip(host)  # GB's file has not reached the host yet
    deliver(root, "host", a)
    _copy(t, home_of(root, "RU"))  # and now it does
    for p in POWERS:
        s = Session.open_with(home_of(root, p), GAME, ids[p])
        rep = s.load_all()
        assert not rep.loaded or a.name in [n for n, _ in rep.loaded] or p == "RU", (p, rep)
    h = Session.open_with(home_of(root, "host"), GAME, ids["host"])
    h.load_all()
    hashes = auditkit.hashes(root, ids)
    assert len(set(hashes.values())) == 1, hashes
    st = Session.open_with(home_of(root, "PR"), GAME, ids["PR"]).state
    assert st.slot.power == "PR" and not any(list(home_of(root, p).joinpath("save").glob("*_backup_*")) for p in POWERS)
    # GB's file is set aside everywhere, named as a fork with both files and both hashes.
    for p in POWERS:
        s = Session.open_with(home_of(root, p), GAME, ids[p])
        s.load_all()
        assert not (home_of(root, p) / "commin" / t.name).exists(), p
        if p != "GB":
            lines = forks.status_lines(s)
            assert len(lines) == 1 and t.name in lines[0] and a.name in lines[0] and "the host's act wins" in lines[0], (p, lines)
            assert "old or replayed" not in lines[0]
    # The game goes on: Prussia's file loads everywhere, and every folder audits as verified.
    auditkit.play_slot(root, ids)
    assert len(set(auditkit.hashes(root, ids).values())) == 1
    for p in ("AU", "GB", "SP"):
        res = audit.run(home_of(root, p), GAME, ids[p])
        assert res.verified, (p, res.lines())
    # sync-check on the two files names the fork.
    lines = hadmin.sync_check(h, [home_of(root, "FR") / "commin" / "refused" / t.name, a])
    assert lines[0].startswith("Forked") and any(t.name in x and a.name in x for x in lines), lines


def test_a_host_act_first_loads_what_waits_in_commin(tmp_path):
    root = tmp_path
    ids = _to_gb(root, None)
    gb = Session.open_with(home_of(root, "GB"), GAME, ids["GB"])
    t = gb.end_phase()
    deliver(root, "GB", t)
    host = Session.open_with(home_of(root, "host"), GAME, ids["host"])
    with pytest.raises(IllegalAction, match="first loaded the file"):
        hadmin.skip(host)
    assert host.state.slot.power == "PR"
    assert not list((home_of(root, "RU") / "commout").glob("*admin*"))
