"""Every hint the program prints names a command that exists and does what the hint says (issue 15 item 7)."""

import functools
import re

import pytest
from click.testing import CliRunner

from clikit import cli, new_game
from paths import ROOT
from eiapbem.cli import main

#: 'eiapbem WORDS…' inside a Python string of the program.
HINT = re.compile(r"""'eiapbem ((?:\{group\}|[a-z][a-z-]*)(?: [a-z][a-z-]*)*)""")


def hints() -> list[tuple[str, list[str]]]:
    """(where, command words) of every hint in the program's source (the phase group hint once per group)."""
    out = []
    for path in sorted((ROOT / "eiapbem").rglob("*.py")):
        text = path.read_text()
        for m in HINT.finditer(text):
            words = m.group(1).split()
            where = f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, m.start()) + 1}"
            if words[0] == "{group}":
                out += [(where, [g, *words[1:]]) for g in ("setup", "diplomacy", "reinforce", "naval", "land", "economy")]
            else:
                out.append((where, words))
    return out


@functools.cache
def _tree():
    return main.build()


def command_path(words: list[str]) -> list[str]:
    """The longest prefix of ``words`` that is a command of the real CLI (the rest are its arguments)."""
    group = _tree()
    path: list[str] = []
    cmd = None
    for w in words:
        sub = group.commands.get(w) if hasattr(group, "commands") else None
        if sub is None:
            break
        path.append(w)
        cmd = group = sub
    assert cmd is not None, f"'eiapbem {' '.join(words)}' names no command"
    return path


def test_there_are_hints_to_check():
    named = {" ".join(command_path(w)) for _, w in hints()}
    assert {"status", "show units", "show pool", "load", "answer", "admin skip", "land attack"} <= named


@pytest.mark.parametrize("where,words", hints(), ids=lambda v: v if isinstance(v, str) else " ".join(v))
def test_the_command_a_hint_names_exists_and_answers(where, words):
    path = command_path(words)
    r = CliRunner().invoke(main.cli, [*path, "--help"], prog_name="eiapbem")
    assert r.exit_code == 0, (where, words, r.output)
    assert f"Usage: eiapbem {' '.join(path)}" in r.stdout, where


def test_the_hints_do_what_they_say(tmp_path):
    """'show units' lists a power's corps; 'show pool' lists the purchases on order and those due now."""
    from eiapbem.core.errors import IllegalAction
    from eiapbem.rules.forces import the_unit
    from eiapbem.rules.reinforcement.common import check_due
    from eiapbem.rules.model import Factors

    home = new_game(tmp_path)
    ru = ("--power", "RU", "--password", "pw-RU")
    assert cli(home, "setup", "load", "default", *ru).exit_code == 0
    from eiapbem.client.session import Session

    st = Session.open(home, "Cli", "RU", "pw-RU").current()
    with pytest.raises(IllegalAction) as err:
        the_unit(st, "corps:RU:XIV")
    assert "'eiapbem show units' lists them" in err.value.hint
    out = cli(home, "show", "units", *ru).stdout
    assert "corps:RU:I " in out and "corps:RU:Cossack-1" in out
    with pytest.raises(IllegalAction) as err:
        check_due(st, "RU", Factors(infantry=1))
    assert "'eiapbem show pool' lists the purchases on order and those due now" in err.value.hint
    assert "on order: nothing" in cli(home, "show", "pool", *ru).stdout
