"""The CLI, the host's menu and the view use only the session's public operations (issue 30 item 2, issue 34).

``client/session.py`` lists them (``PUBLIC``, and its docstring says what each is for).  Read from the
source: every attribute the modules of ``cli/``, ``host/`` and ``view/`` take from a session (a parameter annotated
``Session``, or a name bound to what opens one) is one of them; the session's parts (``store``, ``turns``,
``exchange`` ...) and the save's internals (``data``, ``contents``) are never reached from there.
"""

from __future__ import annotations

import ast
from pathlib import Path

from eiapbem.client import session
from paths import PACKAGE

#: Calls that return an open session.
OPENERS = ("Session.open", "Session.open_with", "Session.create", "open_session", "open_host", "load_backup",
           "take_host", "host_session", "newgame.join")


def _session_names(fn: ast.AST) -> set[str]:
    names = set()
    args = fn.args if isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) else None
    for a in (args.posonlyargs + args.args + args.kwonlyargs) if args else ():
        if a.annotation is not None and "Session" in ast.unparse(a.annotation):
            names.add(a.arg)
    for node in ast.walk(fn):
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call):
            called = ast.unparse(node.value.func)
            if any(called == o or called.endswith("." + o) for o in OPENERS):
                names.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name) and "Session" in ast.unparse(node.annotation):
            names.add(node.target.id)
    return names


def uses(paths: list[Path]) -> list[tuple[str, int, str]]:
    """(file, line, attribute) of every attribute taken from a session in ``paths``."""
    out = []
    for f in paths:
        tree = ast.parse(f.read_text(encoding="utf-8"))
        for fn in ast.walk(tree):
            if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            names = _session_names(fn)
            for node in ast.walk(fn):
                if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in names:
                    out.append((f.name, node.lineno, node.attr))
    return out


def test_every_public_operation_exists():
    assert not [n for n in session.PUBLIC if not hasattr(session.Session, n)]
    assert len(set(session.PUBLIC)) == len(session.PUBLIC)


def test_the_cli_and_the_host_use_only_the_sessions_public_operations():
    files = sorted((PACKAGE / "cli").rglob("*.py")) + sorted((PACKAGE / "host").rglob("*.py")) + sorted((PACKAGE / "view").rglob("*.py"))
    seen = uses(files)
    assert len(seen) > 100  # the scan sees the sessions it checks (admin, status, the actions, the battles)
    bad = [u for u in seen if u[2] not in session.PUBLIC]
    assert not bad, bad


def test_the_scan_sees_an_internal_reached(tmp_path):
    f = tmp_path / "probe.py"  # parsed, never imported
    f.write_text("from eiapbem.client.session import Session\n"
                 "def f(s: Session):\n    return s.data.meta, s.store, s.state\n"
                 "def g(home):\n    x = Session.open(home, None, 'FR', 'pw')\n    return x.contents\n")
    assert sorted(a for _, _, a in uses([f])) == ["contents", "data", "state", "store"]
