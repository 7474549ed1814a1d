"""ruff is clean over the package and the tests (issue 30 item 10; the rules chosen are in pyproject.toml)."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from paths import ROOT


def _ruff() -> list[str]:
    here = Path(sys.executable).parent / "ruff"
    if here.exists():
        return [str(here)]
    found = shutil.which("ruff")
    if found is None:
        pytest.skip("ruff is not installed (it is in the test extra: pip install -e '.[test]')")
    return [found]


def test_ruff_check_is_clean():
    p = subprocess.run([*_ruff(), "check", "--no-cache", "eiapbem", "tests"], cwd=ROOT, capture_output=True, text=True)
    assert p.returncode == 0, p.stdout + p.stderr


def test_ruff_reads_the_project_configuration():
    p = subprocess.run([*_ruff(), "check", "--show-settings", "eiapbem"], cwd=ROOT, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert "linter.line_length = 120" in p.stdout
