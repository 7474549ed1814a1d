"""One error family (issue 30 item 9): every error raised on purpose is an ``EiaError``; callers branch on types
and typed fields, never on a message's text."""

from __future__ import annotations

import ast

import pytest

from paths import ROOT
from eiapbem.core import errors
from eiapbem.core.dice import DiceError, derive


def test_dice_errors_are_eia_errors():
    assert issubclass(DiceError, errors.EiaError)
    with pytest.raises(errors.EiaError):
        derive(b"seed", "label", 0)


def test_no_bare_builtin_error_is_raised_by_the_package():
    # A machine bug is a RulesBug (an EiaError with its sentence and hint), never a bare RuntimeError.
    found = []
    for path in sorted((ROOT / "eiapbem").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Raise) and node.exc is not None:
                call = node.exc.func if isinstance(node.exc, ast.Call) else node.exc
                if isinstance(call, ast.Name) and call.id in ("RuntimeError", "Exception"):
                    found.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert found == []
    bug = errors.RulesBug("a loop does not end")
    assert isinstance(bug, errors.EiaError) and str(bug).startswith("internal error: ") and bug.hint


def test_the_cli_tells_an_unaffordable_purchase_by_a_field_not_by_text():
    src = (ROOT / "eiapbem" / "cli" / "economy_cmd.py").read_text(encoding="utf-8")
    assert "not bought" not in src.replace("``not bought``", "")
    from eiapbem.rules.economy.common import Ledger

    led = Ledger()
    led.add("FR", "expenditure", "buy 2 cavalry", detail="not bought: no money left", not_bought="no money left")
    assert led.lines[0].to_obj()["not_bought"] == "no money left"
