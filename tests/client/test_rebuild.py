"""A damaged or rolled-back save heals without a fork (issue 29 item 2): ``eiapbem rebuild``.

Seven real folders (``tests/auditkit.py``).  France sets up and sends its file;
then France's save is replaced by its newest rewind copy (the save from before
its own file), by an older copy, deleted, or damaged.  The folder says so in
``status``, ``end-phase`` and ``audit`` and names one command; ``eiapbem rebuild``
brings it back to the others' state from the files it holds, its own file
replayed, no second file sent, every folder's hash equal; the game goes on.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

import auditkit
from auditkit import GAME, home_of
from eiapbem.cli.main import run
from eiapbem.client import audit, inbox, rebuild, setups
from eiapbem.client.session import NoGame, Session
from eiapbem.client.status import status_lines
from eiapbem.core.errors import IllegalAction
from eiapbem.rules.model import POWERS
from sevenfolders import pw

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    """The setup played up to France's own file: RU, TU, AU, PR, SP, FR have set up; FR's file is everywhere."""
    root = tmp_path_factory.mktemp("rebuild")
    ids = auditkit.new(root)
    auditkit.play_to_own_file(root, ids, "FR")
    return root, ids


def _copy(base, tmp_path) -> tuple[Path, dict]:
    root, ids = base
    dest = tmp_path / "game"
    shutil.copytree(root, dest, symlinks=True)
    return dest, ids


def _fr_files(home: Path) -> list[str]:
    return sorted(p.name for p in (home / "commout" / "sent").glob(f"{GAME}_*_FR.pbm"))


def _cli(home: Path, *args: str, capsys) -> tuple[int, str]:
    code = run(["--home", str(home), *args])
    out = capsys.readouterr()
    return code, out.out + out.err


def test_a_save_put_back_to_its_newest_rewind_copy_is_rebuilt_without_a_second_file(base, tmp_path, capsys):
    root, ids = _copy(base, tmp_path)
    fr = home_of(root, "FR")
    others = auditkit.hashes(root, ids)
    sent = _fr_files(fr)
    auditkit.put_back(fr, auditkit.rewind_points(fr)[-1])  # the save from before France's own setup file
    s = Session.open_with(fr, GAME, ids["FR"])
    assert s.state.state_hash() != others["FR"] and s.state.slot.power == "FR"  # it would play its slot again
    said = "\n".join(status_lines(s))
    assert "Save: Your save is older than your own file" in said and "eiapbem rebuild" in said
    assert s.data.taken["FR"]  # the copy holds France's setup as it was before its file was written ...
    with pytest.raises(IllegalAction, match="older than your own file .*run 'eiapbem rebuild'"):
        s.end_phase()  # ... and a second file for its slot is refused
    assert _fr_files(fr) == sent  # no second file
    res = audit.run(fr, GAME, ids["FR"])
    assert not res.verified and "its save stands before it" in res.first.reason and res.first.author == "FR"
    code, out = _cli(fr, "rebuild", "--password", pw("FR"), capsys=capsys)
    assert code == 0 and "1 of them this folder's own" in out and "save/Audit.sav.before-rebuild" in out, out
    assert auditkit.hashes(root, ids) == others and _fr_files(fr) == sent
    assert audit.run(fr, GAME, ids["FR"]).verified
    assert not inbox.ahead(Session.open_with(fr, GAME, ids["FR"]))
    auditkit.play_slot(root, ids)  # GB sets up: every folder, France's too, loads it
    assert len(set(auditkit.hashes(root, ids).values())) == 1


def test_a_save_put_back_to_an_older_copy_is_rebuilt(base, tmp_path, capsys):
    root, ids = _copy(base, tmp_path)
    fr = home_of(root, "FR")
    others = auditkit.hashes(root, ids)
    points = auditkit.rewind_points(fr)
    assert len(points) >= 3
    auditkit.put_back(fr, points[-3])
    code, out = _cli(fr, "status", "--password", pw("FR"), capsys=capsys)
    assert "run 'eiapbem rebuild'" in out
    code, out = _cli(fr, "rebuild", "--password", pw("FR"), capsys=capsys)
    assert code == 0, out
    assert auditkit.hashes(root, ids) == others
    assert len(_fr_files(fr)) == 1


def test_a_lost_save_is_rebuilt(base, tmp_path, capsys):
    root, ids = _copy(base, tmp_path)
    fr = home_of(root, "FR")
    others = auditkit.hashes(root, ids)
    for p in (fr / "save").glob(f"{GAME}.sav*"):
        p.unlink()
    code, out = _cli(fr, "status", "--password", pw("FR"), capsys=capsys)
    assert code == 1 and "no game" in out
    code, out = _cli(fr, "rebuild", "--password", pw("FR"), capsys=capsys)
    assert code == 0 and "kept as" not in out, out
    assert auditkit.hashes(root, ids) == others


def test_a_damaged_save_names_the_rebuild_and_is_rebuilt(base, tmp_path, capsys):
    root, ids = _copy(base, tmp_path)
    fr = home_of(root, "FR")
    others = auditkit.hashes(root, ids)
    save = fr / "save" / f"{GAME}.sav"
    for p in (save.with_name(save.name + ".dat"), save.with_name(save.name + ".dat.old")):
        if p.exists():
            p.write_bytes(p.read_bytes()[:-7] + b"damaged")
    with pytest.raises(NoGame) as err:
        Session.open_with(fr, GAME, ids["FR"])
    assert "does not open" in str(err.value) and "'eiapbem rebuild'" in err.value.hint
    assert "rewind/" not in err.value.hint  # never a copy to put back by hand (the newest is before its own file)
    code, out = _cli(fr, "rebuild", "--password", pw("FR"), capsys=capsys)
    assert code == 0, out
    assert auditkit.hashes(root, ids) == others


def test_what_only_the_save_knew_is_taken_from_a_copy_that_opens(base, tmp_path):
    """GB has taken setup actions but not sent its file: a rebuild of a save that still opens keeps them."""
    root, ids = _copy(base, tmp_path)
    gb = home_of(root, "GB")
    s = Session.open_with(gb, GAME, ids["GB"])
    setups.load_setup(s, "default")
    taken = s.data.taken
    assert taken["GB"]
    res = rebuild.run(gb, GAME, ids["GB"])
    assert any("actions of the slot in play" in c for c in res.carried)
    assert Session.open_with(gb, GAME, ids["GB"]).data.taken == taken


def test_stale_temporary_files_are_removed_at_the_next_open(base, tmp_path):
    root, ids = _copy(base, tmp_path)
    tu = home_of(root, "TU")
    dead = 2**22 + 12345  # no such process
    stale = [tu / "save" / f".{GAME}.sav.{dead}.x1y2z3.tmp", tu / "commin" / "done" / f".x.pbm.{dead}.link.tmp"]
    old_style = tu / "save" / f".{GAME}.sav.dat.abcdefgh.tmp"
    alive = tu / "save" / f".{GAME}.sav.1.q9w8e7.tmp"  # process 1 is always there: its file is being written
    for p in stale + [old_style, alive]:
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_bytes(b"x" * 1000)
    os.utime(old_style, (1, 1))
    Session.open_with(tu, GAME, ids["TU"])
    assert not any(p.exists() for p in stale + [old_style]) and alive.exists()


def test_sync_check_says_nothing_is_to_be_done_when_every_folder_agrees(base, tmp_path):
    from eiapbem.host import admin as hadmin

    root, ids = _copy(base, tmp_path)
    auditkit.play_slot(root, ids)  # GB: the setup is over
    auditkit.play_slot(root, ids)  # the diplomacy phase's commit round: seven files of one step
    h = Session.open_with(home_of(root, "host"), GAME, ids["host"])
    last = [sorted((home_of(root, p) / "commout" / "sent").glob("*.pbm"), key=lambda q: q.stat().st_mtime_ns)[-1]
            for p in POWERS if p != "RU"]
    lines = hadmin.sync_check(h, last)
    assert lines[0].startswith("In sync") and "nothing is to be done" in lines[0], lines
    assert not any("backup" in line for line in lines), lines
