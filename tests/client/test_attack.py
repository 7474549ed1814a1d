"""The attack of issue 29 through the real commands, at a small size (``tools/fuzz.py attack``, the long run).

Damaged copies of a real game's files of every kind, files with no valid key (hostile clear headers) and
member-signed hostile bodies sealed again with the author's real key go through ``load``, ``files inspect``,
``join``, ``load-backup`` and ``audit``: every one is refused in one sentence or waits, none crashes, none
loads, no folder is blocked (the genuine next file loads after every batch), no line is over-long.
The figures of the long run are in docs/SECURITY.md.
"""

from __future__ import annotations

import argparse
import importlib.util

import pytest
from paths import ROOT

pytestmark = pytest.mark.slow

TOOL = ROOT / "tools" / "fuzz.py"


def test_an_attack_of_every_class_gives_no_finding(capsys, monkeypatch):
    monkeypatch.setenv("EIAPBEM_TEST_SCRYPT", "10,1,1")
    spec = importlib.util.spec_from_file_location("fuzz_tool", TOOL)
    assert spec is not None and spec.loader is not None
    tool = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(tool)
    code = tool.attack(argparse.Namespace(damaged=120, member=60, no_key=60, seed=2929, batch=60))
    out = capsys.readouterr().out
    assert "240 files in" in out, out[-3000:]
    assert "tracebacks 0, wrong acceptances 0, blocked folders 0, over-long messages 0" in out, out[-3000:]
    assert code == 0, out[-3000:]
