"""The type checker over the whole package (issue 14 item 7, issue 30 item 5).

Runs mypy as ``pyproject.toml`` configures it (``[tool.mypy]``: ``eiapbem``, with no error code
switched off for any module; ``core`` and ``pbem`` with every flag of ``--strict``), with its cache
in a temporary folder so the run leaves nothing in the worktree.  Skipped, saying so, when mypy is
not installed (it is in the ``test`` extra).
"""

from __future__ import annotations

import importlib.util
import subprocess
import sys

import pytest
from paths import ROOT


@pytest.mark.skipif(importlib.util.find_spec("mypy") is None, reason="mypy is not installed (pip install -e '.[test]')")
def test_mypy_finds_no_type_error(tmp_path_factory):
    cache = tmp_path_factory.getbasetemp() / "mypy-cache"
    p = subprocess.run(
        [sys.executable, "-m", "mypy", "--cache-dir", str(cache), "--no-error-summary", "--hide-error-context"],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )
    assert p.returncode == 0, p.stdout + p.stderr


@pytest.mark.skipif(importlib.util.find_spec("mypy") is None, reason="mypy is not installed (pip install -e '.[test]')")
def test_rules_context_is_typed():
    from typing import get_type_hints

    from eiapbem.core.dice import Dice
    from eiapbem.rules.engine import RulesContext
    from eiapbem.rules.mapgraph import Map

    hints = get_type_hints(RulesContext)
    assert hints["map"] is Map and hints["dice"] is Dice


@pytest.mark.skipif(importlib.util.find_spec("mypy") is None, reason="mypy is not installed (pip install -e '.[test]')")
def test_the_bottom_layer_and_the_file_layer_pass_mypy_strict(tmp_path_factory):
    cache = tmp_path_factory.getbasetemp() / "mypy-strict-cache"
    p = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--cache-dir", str(cache), "--no-error-summary", "--hide-error-context",
         "eiapbem/core", "eiapbem/pbem"],
        cwd=ROOT, capture_output=True, text=True, timeout=600,
    )
    assert p.returncode == 0, p.stdout + p.stderr


def test_no_module_switches_an_error_code_off_and_the_rules_hooks_take_a_rules_context():
    """Issue 30 item 5: the known-debt blocks are gone, and the rules' hooks are typed (``ctx: RulesContext``)."""
    import re

    config = (ROOT / "pyproject.toml").read_text()
    assert "disable_error_code" not in config
    loose = [f"{p.relative_to(ROOT)}:{i}" for p in sorted((ROOT / "eiapbem" / "rules").rglob("*.py"))
             for i, line in enumerate(p.read_text().splitlines(), 1) if re.search(r"\bctx: Any\b", line)]
    assert loose == []
