"""The README's test command is exactly what CI runs."""

from conftest import ROOT


def test_ci_runs_the_readme_test_command():
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    ci_cmd = [line for line in ci.splitlines() if line.startswith("python3 -m venv")]
    assert len(ci_cmd) == 1
    assert ci_cmd[0].replace(" -q", "") in readme.replace(" -q", "")
