"""A fresh ``eiapbem status`` answers from the status record beside the save (client/statusfile.py, issue 32 item 3).

Not timed (``eiapbem bench cli`` measures): these hold what makes it fast (a fresh process imports neither the
file layer nor the rules nor the session) and what keeps it right (a stale, tampered or foreign record is never
shown; without the password the record says nothing the save hides).
"""

import json
import os
import subprocess
import sys

import pytest

import eiapbem
from clikit import GAME, WEAK, cli, new_game
from eiapbem.client import statusfile
from eiapbem.client.session import TEST_SCRYPT_ENV

#: What a fresh status answered from a current record must not import: the file layer beyond the password's key
#: derivation, the session, the rules, the computer players, the other command modules.
HEAVY = ("eiapbem.rules", "eiapbem.ai", "eiapbem.client.session", "eiapbem.client.store",
         "eiapbem.pbem.keys", "eiapbem.pbem.crypto", "eiapbem.pbem.headers", "eiapbem.data", "eiapbem.cli.game_cmd")

_PROBE = """
import contextlib, io, json, sys
from eiapbem.cli import main
out = io.StringIO()
with contextlib.redirect_stdout(out):
    try:
        main.main(sys.argv[1:])
    except SystemExit as e:
        code = e.code
print(json.dumps([code, out.getvalue(), sorted(sys.modules)]))
"""


def _fresh(home, *args):
    """A fresh ``eiapbem --home HOME ARGS`` process (as main.main runs it): exit status, stdout, modules imported."""
    env = dict(os.environ, **{TEST_SCRYPT_ENV: WEAK})
    p = subprocess.run([sys.executable, "-c", _PROBE, "--home", str(home), *args], capture_output=True, text=True,
                       env=env)
    code, out, mods = json.loads(p.stdout)
    return code, out, set(mods)


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    return new_game(tmp_path_factory.mktemp("statusrec"))


def _heavy(mods):
    return sorted(m for m in mods if m.startswith(HEAVY))


def test_a_fresh_status_answers_from_the_record_without_the_rules(game):
    first = cli(game, "status", "--power", "FR", "--password", "pw-FR")
    assert first.exit_code == 0, first.output
    assert statusfile.record_path(game, GAME, "FR").is_file()  # written by the status that opened the game
    code, out, mods = _fresh(game, "status", "--power", "FR", "--password", "pw-FR")
    assert code == 0 and out == first.output
    assert _heavy(mods) == []
    code, out, mods = _fresh(game, "status", "--power", "FR", "--password", "pw-FR", "--json")
    assert code == 0 and json.loads(out) == json.loads(cli(game, "status", "--power", "FR", "--password", "pw-FR",
                                                           "--json").output)
    assert _heavy(mods) == []


def test_a_command_that_changes_the_save_writes_the_record_again(tmp_path):
    home = new_game(tmp_path)
    assert cli(home, "status", "--power", "RU", "--password", "pw-RU").exit_code == 0
    code, _, mods = _fresh(home, "setup", "load", "default", "--power", "RU", "--password", "pw-RU")
    assert code == 0 and "eiapbem.rules.engine" in mods
    code, out, mods = _fresh(home, "status", "--power", "RU", "--password", "pw-RU")
    assert code == 0 and _heavy(mods) == []  # the record the setup command left is current
    assert out == cli(home, "status", "--power", "RU", "--password", "pw-RU").output  # what opening the game says
    assert "place the remaining" not in out


def test_a_stale_record_is_not_used(tmp_path):
    home = new_game(tmp_path)
    before = cli(home, "status", "--power", "RU", "--password", "pw-RU").output
    old = statusfile.record_path(home, GAME, "RU").read_bytes()
    assert cli(home, "setup", "load", "default", "--power", "RU", "--password", "pw-RU").exit_code == 0
    statusfile.record_path(home, GAME, "RU").write_bytes(old)  # the record of before the setup, put back
    code, out, mods = _fresh(home, "status", "--power", "RU", "--password", "pw-RU")
    assert code == 0 and out != before and "eiapbem.client.session" in mods
    assert statusfile.current(home, GAME, "RU") is not None  # and written again


def test_a_record_made_by_another_build_of_the_same_release_is_not_used(tmp_path, monkeypatch):
    # The record was keyed by the release number alone, which stays the same while the rules' and the computer's
    # versions and the wording change (an upgrade within a release, a fix installed): the folder showed the text of
    # the program before until something in the folder changed.
    home = new_game(tmp_path)
    text = cli(home, "status", "--power", "RU", "--password", "pw-RU").output
    assert statusfile.current(home, GAME, "RU") is not None
    made_by = statusfile.program()
    assert made_by.startswith(eiapbem.__version__ + ":")
    monkeypatch.setattr(statusfile, "_PROGRAM", [eiapbem.__version__ + ":another build"])
    assert statusfile.current(home, GAME, "RU") is None  # stale: made by another program
    assert cli(home, "status", "--power", "RU", "--password", "pw-RU").output == text  # the game opened again
    assert statusfile.current(home, GAME, "RU") is not None  # and the record made again, by this program


def test_a_save_changed_in_place_with_its_size_and_time_kept_is_another_save(tmp_path):
    # The record stood for the save's name, size, time and inode; the save's bytes (which name the state's hash)
    # changed in place, its time put back, left the record of the other save in use: here a damaged save went
    # unseen behind it.
    home = new_game(tmp_path)
    sav = home / "save" / f"{GAME}.sav"
    text = cli(home, "status", "--power", "RU", "--password", "pw-RU").output
    assert statusfile.current(home, GAME, "RU") is not None
    st = sav.stat()
    data = bytearray(sav.read_bytes())
    data[-3] ^= 1
    with open(sav, "r+b") as f:
        f.write(bytes(data))
    os.utime(sav, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert (sav.stat().st_size, sav.stat().st_mtime_ns, sav.stat().st_ino) == (st.st_size, st.st_mtime_ns, st.st_ino)
    assert statusfile.current(home, GAME, "RU") is None
    code, out, mods = _fresh(home, "status", "--power", "RU", "--password", "pw-RU")
    assert code != 0 and out != text and "eiapbem.client.session" in mods  # the save opened, and refused


def test_a_wrong_password_a_tampered_or_another_roles_record_is_never_shown(tmp_path):
    home = new_game(tmp_path)
    good = cli(home, "status", "--power", "AU", "--password", "pw-AU").output
    code, out, _ = _fresh(home, "status", "--power", "AU", "--password", "pw-FR")
    assert code == 1 and out == ""  # the key file names the wrong password, as without a record
    path = statusfile.record_path(home, GAME, "AU")
    data = bytearray(path.read_bytes())
    data[-5] ^= 1
    path.write_bytes(bytes(data))
    assert statusfile.read(home, GAME, "AU", "pw-AU") is None
    code, out, mods = _fresh(home, "status", "--power", "AU", "--password", "pw-AU")
    assert code == 0 and out == good and "eiapbem.client.session" in mods  # the game opened, the record made again
    cli(home, "status", "--power", "FR", "--password", "pw-FR")
    fr = statusfile.record_path(home, GAME, "FR")
    path.write_bytes(fr.read_bytes())  # France's record in Austria's place
    assert statusfile.read(home, GAME, "AU", "pw-FR") is None and statusfile.read(home, GAME, "AU", "pw-AU") is None
    code, out, _ = _fresh(home, "status", "--power", "AU", "--password", "pw-AU")
    assert code == 0 and out == good


def test_the_record_reveals_nothing_without_the_password(tmp_path):
    home = new_game(tmp_path)
    text = cli(home, "status", "--power", "RU", "--password", "pw-RU").output
    data = statusfile.record_path(home, GAME, "RU").read_bytes()
    for word in ("place the remaining", "Waiting for", "infantry", "Russia", GAME):
        assert word in text or word == GAME
        assert word.encode() not in data
    assert len(data) < 256 * 1024  # compressed, with the read-only commands' answers (cli/answers.py)


def test_a_refused_command_writes_no_record(tmp_path):
    home = new_game(tmp_path)
    code, _, _ = _fresh(home, "load", "commin/none.pbm", "--power", "RU", "--password", "pw-RU")
    assert code == 1
    code, _, _ = _fresh(home, "status", "--power", "RU", "--password", "pw-GB")
    assert code == 1
    assert not statusfile.record_path(home, GAME, "RU").exists()


def test_a_fresh_log_answers_from_the_record_as_the_game_would(tmp_path):
    """``eiapbem log`` (text and --json) reads the lines kept with the status; they are what opening the game gives."""
    home = new_game(tmp_path)
    assert cli(home, "setup", "load", "default", "--power", "RU", "--password", "pw-RU").exit_code == 0
    assert cli(home, "end-phase", "--power", "RU", "--password", "pw-RU").exit_code == 0
    opened = {}
    for args in ((), ("--json",), ("-n", "3")):
        statusfile.record_path(home, GAME, "RU").unlink(missing_ok=True)
        code, opened[args], mods = _fresh(home, "log", "--power", "RU", "--password", "pw-RU", *args)
        assert code == 0 and "eiapbem.client.session" in mods  # no record: the game is opened (and the record made)
        code, out, mods = _fresh(home, "log", "--power", "RU", "--password", "pw-RU", *args)
        assert code == 0 and out == opened[args] and _heavy(mods) == []
    assert "RU places corps:RU:" in opened[()] and len(opened[("-n", "3")].splitlines()) == 3
    assert json.loads(opened[("--json",)])[-1]["author"] == "RU"


def test_a_log_asking_for_more_than_the_record_keeps_opens_the_game(tmp_path, monkeypatch):
    home = new_game(tmp_path)
    assert cli(home, "setup", "load", "default", "--power", "RU", "--password", "pw-RU").exit_code == 0
    assert cli(home, "end-phase", "--power", "RU", "--password", "pw-RU").exit_code == 0
    monkeypatch.setattr(statusfile, "LOG_KEPT", 3)
    statusfile.record_path(home, GAME, "RU").unlink(missing_ok=True)
    assert cli(home, "status", "--power", "RU", "--password", "pw-RU").exit_code == 0
    kept = statusfile.read(home, GAME, "RU", "pw-RU")
    assert kept is not None and len(kept["log"]) == 3 and kept["log_all"] is False
    from eiapbem.client import documents

    opened = []
    real = documents.log
    monkeypatch.setattr(documents, "log", lambda *a, **k: opened.append(1) or real(*a, **k))
    few = cli(home, "log", "-n", "2", "--power", "RU", "--password", "pw-RU")
    assert few.exit_code == 0 and len(few.output.splitlines()) == 2 and opened == []  # from the record
    many = cli(home, "log", "-n", "10", "--power", "RU", "--password", "pw-RU")
    assert many.exit_code == 0 and len(many.output.splitlines()) == 10 and opened == [1]  # the game opened
    assert many.output.splitlines()[-2:] == few.output.splitlines()


def test_a_fresh_log_past_the_lines_kept_reads_the_journals_segments_without_the_rules(tmp_path, monkeypatch):
    """The record names the journal's segments (and keeps their keys, sealed): a fresh ``log -n N`` asking for more
    lines than it keeps reads the older ones from them, with no rules and no save, and prints what the game opened
    prints (``-n 0``, every line); when the segments do not hold them all the game is opened."""
    from eiapbem.client import setups
    from eiapbem.client.session import Session, open_identity
    from eiapbem.rules.sequence import SETUP_ORDER

    home = new_game(tmp_path)
    monkeypatch.setenv(TEST_SCRYPT_ENV, WEAK)
    for p in SETUP_ORDER:  # every power set up: a journal of some 200 lines, the first of them in a segment
        s = Session.open_with(home, GAME, open_identity(home, GAME, p, f"pw-{p}"))
        setups.load_setup(s, "default")
        s.end_phase()
    monkeypatch.setattr(statusfile, "LOG_KEPT", 20)
    statusfile.record_path(home, GAME, "RU").unlink(missing_ok=True)
    assert cli(home, "status", "--power", "RU", "--password", "pw-RU").exit_code == 0
    kept = statusfile.read(home, GAME, "RU", "pw-RU")
    assert kept is not None and len(kept["log"]) == 20 and kept["older"]["refs"]
    total, in_segments = kept["older"]["total"], sum(n for _, _, n in kept["older"]["refs"])
    assert total > in_segments >= total - 20 and in_segments > 120
    real = statusfile.current
    with monkeypatch.context() as m:
        m.setattr(statusfile, "current", lambda *a: None)  # the game opened, as without a record
        opened = {args: cli(home, "log", "--power", "RU", "--password", "pw-RU", *args).output
                  for args in (("-n", "120"), ("-n", "120", "--json"), ("-n", str(total + 5)), ("-n", "0"), ("-n", "30"))}
    for args, want in opened.items():
        code, out, mods = _fresh(home, "log", "--power", "RU", "--password", "pw-RU", *args)
        assert code == 0 and _heavy(mods) == [] and out == want, args
    assert len(out.splitlines()) == 30 and len(opened["-n", str(total + 5)].splitlines()) == total
    assert "RU places corps:RU:" in opened["-n", str(total + 5)]
    assert opened["-n", "0"] == opened["-n", str(total + 5)]  # 0: every line
    # Fewer lines kept than the journal's tail after its segments: lines no segment holds, so the game is opened.
    assert statusfile.current is real
    monkeypatch.setattr(statusfile, "LOG_KEPT", total - in_segments - 2)
    statusfile.record_path(home, GAME, "RU").unlink()
    assert cli(home, "status", "--power", "RU", "--password", "pw-RU").exit_code == 0
    code, out, mods = _fresh(home, "log", "--power", "RU", "--password", "pw-RU", "-n", "30")
    assert code == 0 and "eiapbem.client.session" in mods and out == opened["-n", "30"]


def test_a_stale_record_never_answers_log(tmp_path):
    home = new_game(tmp_path)
    assert cli(home, "status", "--power", "RU", "--password", "pw-RU").exit_code == 0
    old = statusfile.record_path(home, GAME, "RU").read_bytes()
    assert cli(home, "setup", "load", "default", "--power", "RU", "--password", "pw-RU").exit_code == 0
    assert cli(home, "end-phase", "--power", "RU", "--password", "pw-RU").exit_code == 0
    statusfile.record_path(home, GAME, "RU").write_bytes(old)  # the record of before the setup, put back
    code, out, mods = _fresh(home, "log", "-n", "1", "--power", "RU", "--password", "pw-RU")
    assert code == 0 and "RU has set up its forces" in out and "eiapbem.client.session" in mods


def test_the_first_status_after_new_or_join_answers_from_a_record(tmp_path):
    """``new`` and ``join`` write the folder's record, so a new folder's first ``status`` does not open the game."""
    host, client = tmp_path / "host", tmp_path / "client"
    players = [f"--player={p}:ai-easy" for p in ("GB", "PR", "RU", "SP", "TU")]
    code, made, _ = _fresh(host, "new", "G", "--scenario", "classic-1805", "--player=FR:Player FR:fr@example.org:host",
                           "--player=AU:Player AU:au@example.org:client", *players, "--host-password", "pw")
    assert code == 0, made
    otp = made.split("one-time password separately: ")[1].split()[0]
    assert statusfile.current(host, "G", "FR") is not None
    code, out, mods = _fresh(host, "status", "--password", "pw")
    assert code == 0 and "this folder plays FR" in out and _heavy(mods) == []
    (client / "commin").mkdir(parents=True)
    for name in ("G_gamestart.pbm", "G_AU.key"):
        (client / "commin" / name).write_bytes((host / "commout" / name).read_bytes())
    code, joined, _ = _fresh(client, "join", "commin/G_gamestart.pbm", "--power", "AU", "--email", "au@example.org",
                             "--one-time-password", otp, "--password", "pw-au")
    assert code == 0, joined
    code, out, mods = _fresh(client, "status", "--password", "pw-au")
    assert code == 0 and "this folder plays AU" in out and _heavy(mods) == []
    statusfile.record_path(client, "G", "AU").unlink()
    assert _fresh(client, "status", "--password", "pw-au")[1] == out  # what opening the game says
