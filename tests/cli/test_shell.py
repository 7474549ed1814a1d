"""``eiapbem shell``: a turn played in one sitting with one password (issue 15 item 5)."""

import json

import pytest

from clikit import cli, new_game
from eiapbem.cli import shell_cmd
from eiapbem.pbem import keys


@pytest.fixture
def unlocks(monkeypatch):
    """Count the key files unlocked (each is one scrypt of the password)."""
    count = []
    real = keys.open_identity

    def counted(*a, **k):
        count.append(a[-1] if len(a) > 2 else "")
        return real(*a, **k)

    monkeypatch.setattr(keys, "open_identity", counted)
    return count


def test_a_setup_turn_in_one_sitting_with_one_password(tmp_path, unlocks):
    home = new_game(tmp_path)
    lines = ["status", "show units --kind corps --json", "setup load default", "show units --kind corps",
             "show reach corps:RU:I", "bogus-command", "end-phase", "status --json", "quit"]
    r = cli(home, "shell", "--power", "RU", input="pw-RU\n" + "\n".join(lines) + "\n")
    assert r.exit_code == 0, (r.output, r.exception)
    assert len(unlocks) == 1  # the password was used once, for the whole sitting
    out = r.stdout
    assert "Turn: Russia (1805-01/setup/turn/RU)" in out and "RU: 34 setup actions applied" in out
    assert "corps:RU:I" in out and "zhitomir" in out
    assert "RU ended its slot; turn file commout/" in out
    assert "No such command 'bogus-command'" in r.output  # one sentence, and the sitting goes on
    status = json.loads(out[out.rindex("{\n  \"actions_taken\""):out.rindex("}") + 1])
    assert status["turn_of"] == "TU" and status["power"] == "RU"
    assert [p.name for p in (home / "commout").iterdir() if "setup" in p.name and p.suffix == ".pbm"]


def test_a_wrong_password_ends_the_shell_before_it_starts(tmp_path, unlocks):
    home = new_game(tmp_path)
    r = cli(home, "shell", "--power", "RU", input="wrong\nstatus\n")
    from eiapbem.core.errors import EiaError

    assert r.exit_code != 0 and isinstance(r.exception, EiaError) and "Turn:" not in r.stdout


def test_completion_knows_commands_options_areas_and_ids():
    words = ["kiev", "kursk", "corps:RU:I", "corps:RU:II", "leader:RU:kutusov"]
    assert "units" in shell_cmd.complete("show ", "un", words)
    assert "move" in shell_cmd.complete("land ", "mo", words)
    assert "--kind" in shell_cmd.complete("show units ", "--k", words)
    assert shell_cmd.complete("show units --kind corps ", "--ar", words) == ["--area"]
    assert shell_cmd.complete("show area ", "ki", words) == ["kiev"]
    assert shell_cmd.complete("land move --unit ", "corps:RU:I", words) == ["corps:RU:I", "corps:RU:II"]
    sitting = shell_cmd.Sitting(None, "Cli", "RU")
    assert "status " in sitting.completenames("sta") and "quit " in sitting.completenames("q")


def test_the_host_sits_once_for_the_admin_menu(tmp_path, unlocks):
    home = new_game(tmp_path)
    r = cli(home, "shell", "--power", "host", input="pw-host\nadmin status --json\nadmin status\nquit\n")
    assert r.exit_code == 0, (r.output, r.exception)
    assert len(unlocks) == 1 and '"host_functions": true' in r.stdout and "Waiting for 1805-01/setup/turn/RU" in r.stdout
