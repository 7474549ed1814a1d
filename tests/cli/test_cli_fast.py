"""A command line that answers at once (issue 15 items 3-4): lazy commands, help from the index, one way imports."""

import ast
import json
import subprocess
import sys

from paths import ROOT
from eiapbem.cli import main


# In a fresh interpreter: the test modules register test actions of their own (tests/rules/test_engine.py), which
# would show in the live help of this process.
_CHECK = """
import json, sys
from click.testing import CliRunner
from eiapbem.cli import index, main
bad = []
if main.INDEX_FILE.read_text(encoding="utf-8") != index.text():
    bad.append("index.json is not what the code makes: run python -m eiapbem.cli.index")
idx = main.index()
if idx is None or len(idx["help"]) < 100:
    bad.append("the index is not used")
else:
    runner = CliRunner()
    for path, text in idx["help"].items():
        r = runner.invoke(main.cli, [*path.split(), "--help"], prog_name="eiapbem", terminal_width=80)
        if r.exit_code != 0 or r.stdout != text + "\\n" or main.fast_help([*path.split(), "-h"]) != text:
            bad.append(path)
print(json.dumps(bad))
"""


def test_the_index_is_current_and_its_help_is_what_click_prints():
    # After changing a command or main.COMMAND_MODULES: python -m eiapbem.cli.index
    import json

    p = subprocess.run([sys.executable, "-c", _CHECK], capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout) == []
    idx = main.index()
    assert main.fast_help(["--home", "x", "status", "--help"]) == idx["help"]["status"]
    assert main.fast_help(["status", "--power", "RU", "--help"]) is None  # options before --help: click answers


_PROBE = """
import contextlib, io, json, sys
from eiapbem.cli import main
with contextlib.redirect_stdout(io.StringIO()):
    try:
        main.main(sys.argv[1:])
    except SystemExit as e:
        code = e.code
print(json.dumps([code, sorted(sys.modules)]))
"""


def _imported(*args):
    """The modules a fresh ``eiapbem ARGS`` process has imported when it ends."""
    import json

    p = subprocess.run([sys.executable, "-c", _PROBE, *args], capture_output=True, text=True)
    code, mods = json.loads(p.stdout)
    assert code == 0, p.stderr
    return set(mods)


def test_help_imports_no_command_module_and_a_command_only_its_own():
    for args in (["--help"], ["show", "units", "--help"], ["land", "--help"]):
        mods = _imported(*args)
        assert not [m for m in mods if m.startswith(("eiapbem.rules", "eiapbem.client", "eiapbem.cli.game_cmd"))], args
    mods = _imported("tables", "list")
    assert "eiapbem.cli.tables_cmd" in mods
    assert not [m for m in mods if m.startswith(("eiapbem.client", "eiapbem.host", "eiapbem.gap", "eiapbem.cli.game_cmd"))]


def test_a_stale_index_is_slower_never_wrong(monkeypatch):
    monkeypatch.setattr(main, "COMMAND_MODULES", main.COMMAND_MODULES[:-1])
    monkeypatch.setattr(main, "_INDEX", [])
    assert main.index() is None and main.fast_help(["--help"]) is None
    g = main.LazyGroup("eiapbem")
    assert "status" in g.list_commands(None) and g.get_command(None, "tables") is not None
    monkeypatch.undo()
    # A command added before the index is written again: looked for in every module, found.
    idx = json.loads(main.INDEX_FILE.read_text(encoding="utf-8"))
    del idx["commands"]["shell"]
    idx["key"] = main.index_key(idx["commands"], idx["help"], idx.get("subcommands"))
    monkeypatch.setattr(main, "_INDEX", [idx])
    assert main.LazyGroup("eiapbem").get_command(None, "shell") is not None
    # A damaged index (its key is not its content's) is not used.
    monkeypatch.setattr(main, "_INDEX", [])
    monkeypatch.setattr(main, "index_key", lambda *content: "another content")
    assert main.index() is None and main.fast_help(["show", "--help"]) is None
    assert "shell" in main.LazyGroup("eiapbem").list_commands(None)


def test_the_index_is_keyed_on_what_it_describes_not_on_the_sources(tmp_path):
    # Issue 30 item 6: a comment appended to a source (a command module, a rules module) leaves the index current.
    import shutil

    pkg = tmp_path / "eiapbem"
    shutil.copytree(ROOT / "eiapbem", pkg, ignore=shutil.ignore_patterns("__pycache__"))
    for rel in ("cli/game_cmd.py", "rules/engine.py", "core/errors.py"):
        with (pkg / rel).open("a", encoding="utf-8") as f:
            f.write("# a comment appended\n")
    code = "import json; from eiapbem.cli import index, main; print(json.dumps([main.index() is not None, main.INDEX_FILE.read_text(encoding='utf-8') == index.text()]))"
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout) == [True, True]


def test_no_cli_or_client_module_imports_a_private_name_of_another():
    found = []
    for folder in ("cli", "client"):
        for path in sorted((ROOT / "eiapbem" / folder).glob("*.py")):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.ImportFrom) and (node.level or (node.module or "").startswith("eiapbem")):
                    found += [f"{path.name}: {a.name}" for a in node.names if a.name.startswith("_") and not a.name.endswith("__")]
    assert found == []


def test_the_demo_and_the_client_no_longer_import_the_cli():
    for path in sorted((ROOT / "eiapbem" / "client").glob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                assert (node.module or "").split(".")[:2] != ["eiapbem", "cli"], path.name


def test_shell_completion_as_the_readme_says():
    import os

    env = dict(os.environ, _EIAPBEM_COMPLETE="bash_complete", COMP_WORDS="eiapbem show un", COMP_CWORD="2")
    p = subprocess.run([sys.executable, "-m", "eiapbem"], capture_output=True, text=True, env=env)
    assert p.stdout.split() == ["plain,unit", "plain,units"]
    readme = (ROOT / "docs" / "player-guide.md").read_text()
    assert "_EIAPBEM_COMPLETE=bash_source eiapbem" in readme


def test_a_group_alone_prints_its_help_not_an_error(capsys):
    idx = main.index()
    assert main.fast_help([]) == idx["help"][""] and main.fast_help(["--home", "x"]) == idx["help"][""]
    assert main.run(["show"]) == 0
    out, err = capsys.readouterr()
    assert out.startswith("Usage: eiapbem show") and err == ""
