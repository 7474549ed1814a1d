"""The README's test command is exactly what CI runs."""

from paths import ROOT


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
    assert "source .venv/bin/activate" in readme and "PATH" in readme.split("## Where to read on")[0]


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


GUIDES = ("README.md", "docs/player-guide.md", "docs/host-guide.md", "docs/scenario-editor.md")


def _commands_named(text: str, names: set[str]) -> list[str]:
    """Every ``eiapbem ...`` the text names: in backticks (also as typed in the shell, without the
    ``eiapbem``: a span starting with a command's name), or on a line of a code block."""
    import re

    found = []
    for m in re.finditer(r"`([a-z][^`]*)`", re.sub(r"\|\s+", "|", text)):
        span = " ".join(m.group(1).split())
        if span.startswith("eiapbem "):
            found.append(span)
        elif span.split()[0] in names and " " in span:
            found.append("eiapbem " + span)
    for block in re.findall(r"```[a-z]*\n(.*?)```", text, re.S):
        for line in block.replace("\\\n", " ").splitlines():
            for part in re.split(r"&&|;", line.split("#")[0]):
                part = part.strip()
                if part.startswith("eiapbem "):
                    found.append(part)
    return found


def test_every_command_the_guides_name_exists_with_its_options():
    """A word after ``eiapbem`` is a command (``a|b`` alternatives each), a ``--option`` one of its options."""
    import click

    from eiapbem.cli import main

    top = main.build()
    common = {"--help", "-h", "--home", "--json", "--version"}
    bad = []
    for name in GUIDES:
        for cmd in _commands_named((ROOT / name).read_text(), set(top.commands)):
            words = cmd.replace("…", " ").split()[1:]
            groups: list[click.Command] = [top]
            for w in words:
                if w.startswith("-") or w.isupper() or not isinstance(groups[0], click.Group):
                    break
                subs = [g.commands.get(alt) for g in groups for alt in w.split("|")]
                if not all(subs):
                    bad.append(f"{name}: {cmd!r}: no command {w!r}")
                    groups = []
                    break
                groups = subs
            for g in groups:
                opts = {o for p in g.params for o in (*p.opts, *p.secondary_opts)} | common
                for w in words:
                    flag = w.split("=", 1)[0].strip("[]()`,.")
                    if flag.startswith("--") and len(flag) > 2 and flag.split("|")[0] not in opts:
                        bad.append(f"{name}: {cmd!r}: {g.name} has no {flag}")
    assert bad == [], "\n".join(bad)


def test_the_readme_points_to_guides_that_exist():
    import re

    readme = (ROOT / "README.md").read_text()
    named = set(re.findall(r"`(docs/[a-z-]+\.md)`", readme))
    assert {"docs/player-guide.md", "docs/host-guide.md", "docs/scenario-editor.md", "docs/json.md",
            "docs/performance.md", "docs/architecture.md"} <= named
    assert [n for n in sorted(named) if not (ROOT / n).exists()] == []
    assert len(readme.splitlines()) <= 200
    host = (ROOT / "docs" / "host-guide.md").read_text()
    assert "## Upgrading a game" in host and "eiapbem admin upgrade" in host.split("## Upgrading a game", 1)[1]
