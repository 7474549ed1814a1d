"""Segments: a save's growing parts in files written once (issue 18 item 3, ``pbem/segments.py``)."""

from __future__ import annotations

import os
import random
import shutil

import pytest

import auditkit
from auditkit import GAME, home_of
from eiapbem.client import forks, setups
from eiapbem.client.session import TEST_SCRYPT_ENV, NoGame, Session
from eiapbem.core.errors import BadFile
from eiapbem.pbem import atomic, files, savegame, segments
from eiapbem.pbem.errors import BadEncryption, BadFormat
from paths import TESTS

GID = bytes(range(16))
SECRET = b"s" * 32


# ----------------------------------------------------------------- one segment file


def test_a_segment_reads_back_and_is_written_once(tmp_path):
    store = segments.Segments(tmp_path, "G")
    lines = [{"text": f"line {i}"} for i in range(5)]
    ref = store.write("journal", lines, 5, GID, SECRET)
    assert store.read(ref, GID, "G.sav") == lines
    again = store.write("journal", lines, 5, GID, SECRET)  # the same plaintext: the same file, not a second one
    assert again == ref and [p.name for p in store.dir.iterdir()] == [ref.file_name]
    other = segments.Segments(tmp_path, "G").write("known", [bytes(32)], 1, GID, SECRET)
    assert other.sha != ref.sha and store.read(other, GID, "G.sav") == [bytes(32)]


def test_a_missing_altered_or_foreign_segment_is_one_sentence(tmp_path):
    store = segments.Segments(tmp_path, "G")
    ref = store.write("slots", {"1805-01/land/turn/FR": bytes(32)}, 1, GID, SECRET)
    path = store.dir / ref.file_name
    data = path.read_bytes()
    # from another game: its key and game id do not open it
    with pytest.raises(BadEncryption, match="another game or was altered"):
        store.read(ref, bytes(16), "G.sav")
    # altered: one byte changed
    path.write_bytes(data[:-1] + bytes([data[-1] ^ 1]))
    with pytest.raises(BadEncryption, match="it was changed") as err:
        store.read(ref, GID, "G.sav")
    assert "save/G.segments/" in str(err.value) and err.value.hint
    # another segment put in its place under its name
    other = store.write("slots", {"x": bytes(32)}, 1, GID, SECRET)
    shutil.copy(store.dir / other.file_name, path)
    with pytest.raises(BadEncryption, match="it was changed"):
        store.read(ref, GID, "G.sav")
    path.unlink()
    with pytest.raises(BadFormat, match="which is missing"):
        store.read(ref, GID, "G.sav")
    # a save naming segments, opened with no folder to find them in
    body = {"chain": {}, "game": {}, "starts": {}, "segments": [ref.to_obj()]}
    with pytest.raises(BadFormat, match="opens only there"):
        segments.join(body, None, "G.sav")


# ----------------------------------------------------------------- the archive: tails, cuts, joins


def _body(chain_obj, journal, starts, archive, tails):
    return segments.body(dict(chain_obj, known=sorted(tails["known"]), slots=tails["slots"]),
                         {"journal": list(tails["journal"])}, tails, archive)


def test_tails_and_joins_give_back_every_value_through_rewinds_backups_and_grown_counts(tmp_path, monkeypatch):
    monkeypatch.setattr(segments, "CUT", {"journal": 7, "known": 5, "slots": 4, "starts": 3})
    store = segments.Segments(tmp_path, "G")
    rnd = random.Random(5)
    journal: tuple = ()
    known: frozenset = frozenset()
    slots: dict = {}
    starts: dict = {}
    archive = segments.Archive()
    history = []
    for step in range(120):
        journal = journal + tuple({"i": len(journal) + k} for k in range(rnd.randrange(4)))
        h = rnd.randbytes(32)
        known = known | {h}
        slots = {**slots, f"s{step}": h}
        key = f"t{step // 3}"
        starts = {**starts, key: starts.get(key, 0) + 1}  # a slot started again: its count grows
        if step % 29 == 28:  # a rewind: back to an earlier point of the same lineage
            journal, known, slots, starts = history[step - 9]
        if step == 60:  # a backup's new epoch: the slots start again
            slots = {}
        if step % 11 == 10:  # the same slots in another order (a save read back): the archive still holds
            slots = dict(sorted(slots.items(), reverse=True))
        history.append((journal, known, slots, starts))
        archive, tails = archive.tails(journal, known, slots, starts)
        archive, tails = archive.cut(tails, store, GID, SECRET)
        body = _body({"gid": GID}, journal, starts, archive, tails)
        full, back = segments.join(body, store, "G.sav")
        assert full["game"]["journal"] == list(journal)
        assert full["chain"]["known"] == sorted(known)
        assert full["chain"]["slots"] == slots and full["starts"] == starts
        assert back is not None and back.refs == archive.refs
        assert len(tails["journal"]) < 7 and len(tails["known"]) < 5
    assert len(list(store.dir.iterdir())) > 20 and archive.refs


# ----------------------------------------------------------------- in a game folder


SMALL = {"journal": 8, "known": 4, "slots": 4, "starts": 2}


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    """A new game whose first slot is played and loaded everywhere, cutting segments of a few items."""
    old = os.environ.get(TEST_SCRYPT_ENV)
    root = tmp_path_factory.mktemp("seg")
    cut = segments.CUT
    segments.CUT = SMALL
    try:
        ids = auditkit.new(root)
        auditkit.play_slot(root, ids)
    finally:
        segments.CUT = cut
        if old is None:
            os.environ.pop(TEST_SCRYPT_ENV, None)
        else:
            os.environ[TEST_SCRYPT_ENV] = old
    return root, ids


@pytest.fixture(autouse=True)
def small_cuts(request, monkeypatch):
    if "game" in request.fixturenames:
        monkeypatch.setattr(segments, "CUT", SMALL)


def _copy(game, tmp_path, power="TU"):
    root, ids = game
    home = tmp_path / power
    shutil.copytree(home_of(root, power), home)
    return home, ids[power]


def test_a_folder_keeps_its_journal_in_segments_and_reads_it_back(game, tmp_path):
    home, ident = _copy(game, tmp_path)
    s = Session.open_with(home, GAME, ident)
    arch = s.contents.archive
    assert arch is not None and arch.refs and len(arch.journal) >= segments.CUT["journal"]
    assert len(s.data.journal) > len(arch.journal) - 1
    seg_dir = home / "save" / f"{GAME}.segments"
    assert sorted(p.name for p in seg_dir.iterdir()) == sorted({r.file_name for r in arch.refs})
    # the save itself holds only the tails
    sav, dat = atomic.read_save_pair(home / "save" / f"{GAME}.sav")
    env_body_names = files.open_save(sav, dat, ident, "x", s.local, savegame.parts(s.folders, GAME))
    assert env_body_names.chain == s.contents.chain and env_body_names.starts == s.contents.starts
    s.save()
    again = Session.open_with(home, GAME, ident)
    assert again.data.journal == s.data.journal and again.contents.chain == s.contents.chain
    assert again.state.state_hash() == s.state.state_hash()
    assert [e.text for e in again.journal(3)] == [e.text for e in s.journal(3)]


@pytest.mark.parametrize("damage", ["missing", "altered"])
def test_a_damaged_segment_is_a_sentence_with_the_way_back(game, tmp_path, damage):
    home, ident = _copy(game, tmp_path)
    seg = sorted((home / "save" / f"{GAME}.segments").iterdir())[0]
    if damage == "missing":
        seg.unlink()
    else:
        seg.write_bytes(seg.read_bytes()[:-3] + b"xyz")
    with pytest.raises(NoGame) as err:
        Session.open_with(home, GAME, ident)
    text = str(err.value)
    assert "segment file save/Audit.segments/" in text and "does not open" in text
    assert "Traceback" not in text and err.value.hint


def test_a_crash_between_a_segment_and_the_save_leaves_the_old_save(game, tmp_path, monkeypatch):
    home, ident = _copy(game, tmp_path)
    s = Session.open_with(home, GAME, ident)
    before = atomic.read_save_pair(home / "save" / f"{GAME}.sav")
    seg_dir = home / "save" / f"{GAME}.segments"
    n_before = len(list(seg_dir.iterdir()))
    monkeypatch.setattr(segments, "CUT", {"journal": 1, "known": 1, "slots": 1, "starts": 1})

    def killed(*a, **k):
        raise KeyboardInterrupt("killed after the segment, before the save")

    monkeypatch.setattr(atomic, "write_save_pair", killed)
    # nothing else changes: the tails are cut into segments, then the save is "killed"
    with pytest.raises(KeyboardInterrupt):
        s.save()
    monkeypatch.undo()
    assert len(list(seg_dir.iterdir())) > n_before  # the new segments are on disk, named by no save
    assert atomic.read_save_pair(home / "save" / f"{GAME}.sav") == before
    again = Session.open_with(home, GAME, ident)
    assert again.data.journal == s.data.journal and again.contents.chain == s.contents.chain
    again.save()
    assert Session.open_with(home, GAME, ident).contents.chain == s.contents.chain


def test_an_inline_save_still_opens_and_the_next_save_cuts_its_segments(game, tmp_path):
    home, ident = _copy(game, tmp_path)
    s = Session.open_with(home, GAME, ident)
    shutil.rmtree(home / "save" / f"{GAME}.segments")
    # an older save: everything in its own body (as a handed-over save is written, too)
    full = files.SaveContents(s.contents.chain, s.data.to_obj(), s.contents.starts)
    savegame.store(s.folders, GAME, full, s.me, also=s.local)
    old = Session.open_with(home, GAME, ident)
    assert old.contents.archive is None and old.data.journal == s.data.journal
    old.save()
    new = Session.open_with(home, GAME, ident)
    assert new.contents.archive is not None and new.contents.archive.refs
    assert new.data.journal == s.data.journal and new.contents.chain == s.contents.chain


def test_a_rewind_point_opens_with_the_segments_it_names(game, tmp_path):
    root, ids = game
    st = Session.open_with(home_of(root, "RU"), GAME, ids["RU"]).state
    actor = sorted(st.slot.actors)[0]
    watcher = next(p for p in ("TU", "SP", "GB") if p not in st.slot.actors)
    home, ident = _copy(game, tmp_path, watcher)
    s = Session.open_with(home, GAME, ident)
    head = s.contents.chain.head
    a_home, _ = _copy(game, tmp_path, actor)
    a = Session.open_with(a_home, GAME, ids[actor])
    if st.slot.phase.value == "setup":
        setups.load_setup(a, "default")
    path = a.end_phase()
    shutil.copy(path, home / "commin" / path.name)
    rep = s.load_all()
    assert not rep.refused and s.contents.chain.head != head
    assert forks.rewind(s, head)  # the point in rewind/ names the same segments in save/
    assert s.contents.chain.head == head and s.contents.archive is not None and s.contents.archive.refs


def test_segments_hold_no_state_and_a_save_stays_small(game, tmp_path):
    home, ident = _copy(game, tmp_path)
    s = Session.open_with(home, GAME, ident)
    s.save()
    dat = (home / "save" / f"{GAME}.sav.dat").stat().st_size
    seg = sum(p.stat().st_size for p in (home / "save" / f"{GAME}.segments").iterdir())
    assert seg > 0 and dat < 200_000
    with pytest.raises(BadFile):
        files.open_save(*atomic.read_save_pair(home / "save" / f"{GAME}.sav"), ident, "x", s.local)


KILLED = r"""
import sys
from dataclasses import replace
sys.path.insert(0, sys.argv[3])
import auditkit
from eiapbem.client.session import Session
from eiapbem.pbem import segments
segments.CUT = {"journal": 1, "known": 1, "slots": 1, "starts": 1}
from pathlib import Path
home = Path(sys.argv[1])
ident = auditkit.open_identity(home, auditkit.GAME, sys.argv[2], auditkit.pw(sys.argv[2]))
s = Session.open_with(home, auditkit.GAME, ident)
n = 0
while True:
    n += 1
    s.contents = replace(s.contents, starts={**s.contents.starts, f"x/{n}": n})
    print("start", n, flush=True)
    s.save()
"""


@pytest.mark.parametrize("delay", [0.0, 0.02, 0.1])
def test_a_killed_save_with_segments_leaves_a_save_that_opens(game, tmp_path, delay):
    import signal
    import subprocess
    import sys
    import time

    home, ident = _copy(game, tmp_path)
    proc = subprocess.Popen([sys.executable, "-c", KILLED, str(home), "TU", str(TESTS)],
                            stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().startswith("start")
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
    finally:
        proc.wait(timeout=60)
    s = Session.open_with(home, GAME, ident)  # the last whole save, its segments all there
    got = [int(k[2:]) for k in s.contents.starts if k.startswith("x/")]
    assert sorted(got) == list(range(1, len(got) + 1))
    s.save()


def test_a_segments_limits_are_a_files_though_written_out():
    """``segments`` loads no file layer (a fresh ``log`` reads the journal's segments with it), so it writes out the
    limits of the file it is: the largest file a reader takes and a sealed body's largest container."""
    from eiapbem.core import canonical
    from eiapbem.pbem import crypto, envelope

    assert segments.MAX_SEGMENT == envelope.MAX_FILE
    assert canonical.DEFAULT_MAX_CONTAINER == crypto.MAX_BODY_CONTAINER
