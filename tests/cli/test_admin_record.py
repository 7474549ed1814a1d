"""The host's read-only admin commands answer from the host's status record (cli/admin_cmd.py, issue 32 item 3).

Not timed (``eiapbem bench cli`` measures): a fresh ``admin status`` / ``admin saves`` whose record is current prints
what the command prints when it opens the game and loads none of the rules; the hours a late player has waited are
written at the moment of asking; a record that is stale or not the host's answers nothing.
"""

import datetime
import shutil

import pytest

from clikit import GAME, cli, new_game
from eiapbem.cli import admin_cmd
from eiapbem.client import statusfile
from eiapbem.host import clock
from test_answers import _fresh

HOST = ("--password", "pw-host")
LINES = (("admin", "status"), ("admin", "status", "--json"), ("admin", "saves"))


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    """A hot-seat game with a lateness ladder and Russia set up; the host's record made by a fresh admin command."""
    home = new_game(tmp_path_factory.mktemp("admin-record"))
    assert cli(home, "admin", "house-rules", "24,48,72,1", *HOST).exit_code == 0
    assert cli(home, "setup", "load", "default", "--power", "RU", "--password", "pw-RU").exit_code == 0
    code, _, err, _ = _fresh(home, "admin", "saves", *HOST)
    assert code == 0, err
    assert statusfile.current(home, GAME, "host") is not None
    return home


def _slow(home, line, monkeypatch):
    with monkeypatch.context() as m:
        m.setattr(statusfile, "current", lambda *a: None)
        r = cli(home, *line, *HOST)
    assert r.exit_code == 0, r.output
    return r.output


def test_a_fresh_admin_status_and_saves_answer_from_the_record_as_the_command_prints(game, monkeypatch):
    for line in LINES:
        code, out, err, heavy = _fresh(game, *line, *HOST)
        assert code == 0 and not err, err
        assert heavy == [], (line, heavy)  # answered from the record: no rules, no session
        assert out == _slow(game, line, monkeypatch), line
    code, out, _, _ = _fresh(game, "admin", "status", *HOST)
    assert "Lateness ladder: reminder after 24 h" in out and "Waiting for" in out


def test_the_hours_waited_are_written_when_asked_from_the_times_kept(monkeypatch):
    rows = ["Lateness ladder: ...", {"before": "  FR (slot): waiting since 2026-01-01 00:00 UTC ",
                                     "since": "2026-01-01 00:00 UTC", "after": "; done: no step yet"}]
    data = {"rows": rows, "json": {"game": "G"}}
    for now, hours in (("2026-01-01 10:00", 10), ("2026-01-03 00:59", 48)):
        monkeypatch.setenv(clock.NOW_ENV, now)
        out, err = admin_cmd._status_answer(data, {"as_json": False})
        assert out.splitlines()[1] == f"  FR (slot): waiting since 2026-01-01 00:00 UTC ({hours} h); done: no step yet"
    assert clock.waited_lines(rows, datetime.datetime(2026, 1, 1, 5, tzinfo=datetime.timezone.utc))[1].endswith(
        "(5 h); done: no step yet")


def test_a_stale_or_foreign_record_gives_no_answer(game, tmp_path, monkeypatch):
    home = tmp_path / "copy"
    shutil.copytree(game, home)  # another folder (other inodes): its record made again by a fresh admin command
    assert _fresh(home, "admin", "saves", *HOST)[0] == 0 and statusfile.current(home, GAME, "host") is not None
    assert _fresh(home, "admin", "saves", *HOST)[3] == []  # answered from it
    for suffix in (".sav", ".sav.dat"):  # a month more in save/ (listed by name, not opened): the record is stale
        (home / "save" / f"{GAME}_monthly_1799-01{suffix}").write_bytes(b"a save")
    code, out, _, heavy = _fresh(home, "admin", "saves", *HOST)
    assert code == 0 and "1799-01" in out and heavy  # opened the game: the new month is listed
    assert out == _slow(home, ("admin", "saves"), monkeypatch)
    # Russia's record put in the host's place: sealed to another role, it opens nothing, and the command opens the game.
    assert cli(home, "status", "--power", "RU", "--password", "pw-RU").exit_code == 0
    shutil.copy(statusfile.record_path(home, GAME, "RU"), statusfile.record_path(home, GAME, "host"))
    code, out, _, heavy = _fresh(home, "admin", "status", "--json", *HOST)
    assert code == 0 and heavy and out == _slow(home, ("admin", "status", "--json"), monkeypatch)
    # A player's command: the host's record answers no more until an admin command has made it again.
    assert cli(home, "end-phase", "--power", "RU", "--password", "pw-RU").exit_code == 0
    code, out, _, heavy = _fresh(home, "admin", "status", *HOST)
    assert code == 0 and heavy and "Waiting for" in out


def test_a_players_record_keeps_no_admin_answer(game):
    from eiapbem.client.session import Session, open_identity

    from test_answers import _lines

    assert not [ln for ln in _lines(game) if ln[0] == "admin"]
    s = Session.open_with(game, GAME, open_identity(game, GAME, "RU", "pw-RU"))
    assert admin_cmd._status_kept(s) is None
