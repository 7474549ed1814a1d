"""Read-only commands answer from the status record (cli/answers.py, issue 32 item 3).

Not timed (``eiapbem bench cli`` measures): these hold that an answer kept in the record is what the command
prints when it opens the game, that a fresh process answering from the record loads neither the rules nor the
session, and that a record that is not the folder's now answers nothing.
"""

import json
import os
import subprocess
import sys

import pytest

from clikit import GAME, WEAK, cli, new_game
from eiapbem.cli import answers
from eiapbem.client import statusfile
from eiapbem.client.session import TEST_SCRYPT_ENV

HEAVY = ("eiapbem.rules", "eiapbem.ai", "eiapbem.client.session", "eiapbem.client.store", "eiapbem.client.documents",
         "eiapbem.pbem.keys", "eiapbem.pbem.headers", "eiapbem.data", "eiapbem.cli.actions_cmd")

_PROBE = """
import contextlib, io, json, sys
from eiapbem.cli import main
out, err = io.StringIO(), io.StringIO()
with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
    try:
        main.main(sys.argv[1:])
    except SystemExit as e:
        code = e.code
print(json.dumps([code, out.getvalue(), err.getvalue(), sorted(sys.modules)]))
"""

RU = ("--power", "RU", "--password", "pw-RU")


def _fresh(home, *args):
    env = dict(os.environ, **{TEST_SCRYPT_ENV: WEAK})
    p = subprocess.run([sys.executable, "-c", _PROBE, "--home", str(home), *args], capture_output=True, text=True,
                       env=env)
    code, out, err, mods = json.loads(p.stdout)
    return code, out, err, sorted(m for m in mods if m.startswith(HEAVY))


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    """Russia set up and its phase ended (units on the map, log lines), its record made by a status."""
    home = new_game(tmp_path_factory.mktemp("answers"))
    assert cli(home, "setup", "load", "default", *RU).exit_code == 0
    assert cli(home, "end-phase", *RU).exit_code == 0
    statusfile.record_path(home, GAME, "RU").unlink(missing_ok=True)
    assert cli(home, "status", *RU).exit_code == 0
    return home


def _slow(home, line, monkeypatch):
    """The command opening the game (the record not looked at)."""
    with monkeypatch.context() as m:
        m.setattr(statusfile, "current", lambda *a: None)
        return cli(home, *line, *RU)


def _lines(home):
    from eiapbem.client.session import Session, open_identity

    os.environ.setdefault(TEST_SCRYPT_ENV, WEAK)
    return answers.command_lines(Session.open_with(home, GAME, open_identity(home, GAME, "RU", "pw-RU")))


def test_every_kept_answer_is_what_the_command_prints_when_it_opens_the_game(game, monkeypatch):
    from eiapbem.client.session import Session

    lines = _lines(game)
    # Each kind of line (every form but one area and one unit in ten, for time), text and --json.
    sample = [ln for n, ln in enumerate(lines) if ln[:2] not in (["show", "area"], ["show", "unit"]) or n % 10 == 0]
    assert len(sample) > 80 and {tuple(ln[:2]) for ln in sample} >= {
        ("show", "area"), ("show", "unit"), ("show", "power"), ("show", "pool"), ("show", "units"),
        ("show", "history"), ("economy", "summary"), ("battle", "report"), ("map", "--json")}
    for line in sample:
        slow = _slow(game, line, monkeypatch)
        assert slow.exit_code == 0, (line, slow.output, slow.stderr)
        with monkeypatch.context() as m:  # answered from the record: the game is not opened
            m.setattr(Session, "open_with", classmethod(lambda *a, **k: pytest.fail(f"opened for {line}")))
            fast = cli(game, *line, *RU)
        assert (fast.exit_code, fast.stdout, fast.stderr) == (0, slow.stdout, slow.stderr), line


def test_a_fresh_show_answers_from_the_record_without_the_rules(game, monkeypatch):
    for line in (("show", "area", "St Petersburg"), ("show", "power", "FR", "--json"), ("map", "--json"),
                 ("economy", "summary"), ("battle", "report"), ("show", "units")):
        code, out, err, heavy = _fresh(game, *line, *RU)
        slow = _slow(game, line, monkeypatch)
        assert (code, out, err) == (0, slow.stdout, slow.stderr) and heavy == [], line


def test_a_line_not_made_in_advance_opens_the_game(game):
    code, out, _, heavy = _fresh(game, "show", "units", "--kind", "corps", *RU)
    assert code == 0 and "corps:RU:" in out and "eiapbem.client.session" in heavy


def test_a_stale_record_never_answers_a_show(tmp_path):
    home = new_game(tmp_path)
    assert cli(home, "status", *RU).exit_code == 0
    old = statusfile.record_path(home, GAME, "RU").read_bytes()
    before = cli(home, "show", "units", *RU).output
    assert cli(home, "setup", "load", "default", *RU).exit_code == 0
    statusfile.record_path(home, GAME, "RU").write_bytes(old)  # the record of before the setup, put back
    code, out, _, heavy = _fresh(home, "show", "units", *RU)
    assert code == 0 and out != before and "corps:RU:" in out and "eiapbem.client.session" in heavy


def test_a_command_that_opens_no_game_asks_no_password(game):
    """``map --svg`` and ``economy summary --scenario`` never look at the record, so no password is asked."""
    code, out, _, _ = _fresh(game, "economy", "summary", "--scenario", "classic-1805", "--only", "FR")
    assert code == 0 and "FR" in out


def test_a_sitting_answers_by_opening_the_game(game, monkeypatch):
    """Inside ``eiapbem shell`` the key is open and the modules loaded: commands run as they are."""
    from eiapbem.cli import main
    from eiapbem.cli.common import Context
    from eiapbem.client.session import open_identity

    monkeypatch.setenv(TEST_SCRYPT_ENV, WEAK)
    obj = Context(game)
    obj.identity = (GAME, "RU", open_identity(game, GAME, "RU", "pw-RU"))
    looked = []
    monkeypatch.setattr(statusfile, "current", lambda *a: looked.append(a))
    assert main.run(["show", "power", "RU"], obj=obj) == 0
    assert looked == []
