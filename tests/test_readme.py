"""The README's test command is exactly what CI runs."""

from conftest import ROOT


def test_ci_runs_the_readme_test_command():
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    ci_cmd = [line for line in ci.splitlines() if line.startswith("python3 -m venv")]
    assert len(ci_cmd) == 1
    assert ci_cmd[0].replace(" -q", "") in readme.replace(" -q", "")


def _block_after(readme: str, marker: str) -> list[str]:
    """The shell lines of the first code block after ``marker`` (continuations joined)."""
    rest = readme[readme.index(marker):]
    body = rest[rest.index("```sh") + 5:]
    body = body[:body.index("```")]
    return [" ".join(line.split()) for line in body.replace("\\\n", " ").splitlines() if line.strip()]


def test_the_readme_demo_command_installs_the_command_it_runs():
    import tomllib

    readme = (ROOT / "README.md").read_text()
    lines = _block_after(readme, "Install and run the demonstration")
    assert lines == ["python3 -m venv .venv && .venv/bin/pip install -q -e . && .venv/bin/eiapbem demo"]
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert project["project"]["scripts"]["eiapbem"] == "eiapbem.cli.main:main"
    assert "source .venv/bin/activate" in readme and "PATH" in readme.split("## What a player can do today")[0]


def test_a_newcomer_following_the_readme_gets_a_running_game(tmp_path):
    """The README's first game, typed as written: a new game against the computer, then a shell sitting."""
    import shlex

    from clikit import cli

    readme = (ROOT / "README.md").read_text()
    lines = _block_after(readme, "Your own game")
    assert lines[0].startswith("mkdir ") and lines[-1] == "eiapbem shell"
    for line in lines[1:-1]:
        words = shlex.split(line)
        assert words[0] == "eiapbem"
        r = cli(tmp_path, *words[1:])
        assert r.exit_code == 0, (line, r.output, r.exception)
    said = readme[readme.index("`eiapbem shell` asks"):]
    assert "`setup load default`" in said and "`end-phase`" in said
    pw = [w.split("=", 1)[1] for w in shlex.split(" ".join(lines)) if w.startswith("RU=")][0]
    r = cli(tmp_path, "shell", input=f"{pw}\nstatus\nsetup load default\nshow units\nend-phase\nstatus\nquit\n")
    assert r.exit_code == 0, (r.output, r.exception)
    assert "RU: 34 setup actions applied" in r.stdout and "RU ended its slot" in r.stdout
    assert "Phase: diplomacy" in r.stdout  # the computer's six powers set up in turn after Russia
