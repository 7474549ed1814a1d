"""Rules test cases: data-driven checks of the rules against the manual.

This testing subpackage (``eiapbem.rulecases``) sits above the rules core:
the rules ship no case harness; ``eiapbem rules test`` and the test suite use
this one.  Procedures live in ``eiapbem.rulecases.procedures`` (one module per
topic, each registering its own with ``@procedure``).

In the spirit of the Diplomacy Adjudicator Test Cases, each case is a small
TOML file naming a situation, the dice to force, what to do and what must
come out.  A case names a *procedure*: a pure rules function registered here
with ``@procedure("name")`` that takes the case's ``input`` table and the
forced ``Dice`` and returns a dict of results.  The case passes when every
key of its ``expect`` table equals the same key of the result; a key ending in ``~`` (``"log~" = ["..."]``) asks
only that each expected text be part of that result (of one of its lines, for a list).

Case file format (``tests/cases/**/*.toml``)::

    id = "11.2.5-base-morale"          # unique, stable
    section = "11.2.5"                 # manual section it checks
    title = "Base morale of a mixed force (193/51)"
    source = "000:1696"                # line of the manual holding the example
    procedure = "morale.base"          # a registered procedure
    [input]                            # whatever the procedure takes
    [dice]                             # optional: label = forced value
    [expect]                           # keys the result must match

Dice are strict in a case: a roll whose label is not forced is an error, so a
case always says every number it depends on.

Procedures that need the game's data (the map, the world data and a scenario)
are registered with ``@procedure("name", context=True)`` and take
``(input, ctx)``: a ``RulesContext`` over the packaged data whose dice are the
case's forced dice.  The rules core reads no files, so the caller of
``run_case`` passes ``context_factory`` (``eiapbem.data.context.rules_context``,
as ``eiapbem rules test`` and the test suite do); without it such a case fails
with a sentence saying so.  ``game.actions`` (``eiapbem.rulecases.procedures.game``) is
such a procedure: it builds a scenario's first state, edits it, plays actions
through the engine and reports units, leaders and log lines.
"""

from __future__ import annotations

import importlib
import pkgutil
import tomllib
from dataclasses import dataclass
from typing import Any, Callable

from eiapbem.core.errors import BadData
from eiapbem.core.dice import Dice, DiceError

#: A procedure takes the case's inputs and its dice (or, registered with ``context=True``, a rules context).
Procedure = Callable[[dict, Any], dict]

_PROCEDURES: dict[str, Procedure] = {}
#: Procedures that take ``(input, ctx)`` instead of ``(input, dice)``.
_NEEDS_CONTEXT: set[str] = set()

#: The one place procedures live: every module of this package registers its own.
PROCEDURE_PACKAGE = "eiapbem.rulecases.procedures"

_REQUIRED = ("id", "section", "title", "source", "procedure", "expect")
_ALLOWED = set(_REQUIRED) | {"input", "dice"}


def procedure(name: str, *, context: bool = False) -> Callable[[Procedure], Procedure]:
    def deco(fn: Procedure) -> Procedure:
        if name in _PROCEDURES:
            raise ValueError(f"procedure {name!r} registered twice")
        _PROCEDURES[name] = fn
        if context:
            _NEEDS_CONTEXT.add(name)
        return fn

    return deco


def procedure_modules() -> tuple[str, ...]:
    """Every module of ``PROCEDURE_PACKAGE``, by name (no list to keep by hand)."""
    package = importlib.import_module(PROCEDURE_PACKAGE)
    return tuple(sorted(f"{PROCEDURE_PACKAGE}.{m.name}" for m in pkgutil.iter_modules(package.__path__)))


def procedures() -> dict[str, Procedure]:
    for mod in procedure_modules():
        importlib.import_module(mod)
    return dict(sorted(_PROCEDURES.items()))


@dataclass(frozen=True)
class Case:
    path: str
    id: str
    section: str
    title: str
    source: str
    procedure: str
    input: dict
    dice: dict
    expect: dict


@dataclass(frozen=True)
class CaseResult:
    case: Case
    passed: bool
    problems: tuple[str, ...]
    result: dict | None


def parse_case(text: str, where: str) -> Case:
    """Parse the TOML text of a case file (``where`` names it in messages); no I/O here."""
    p = where
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise BadData(f"{p}: not valid TOML ({err})") from err
    missing = [k for k in _REQUIRED if k not in raw]
    if missing:
        raise BadData(f"{p}: the case lacks {', '.join(missing)}")
    unknown = sorted(set(raw) - _ALLOWED)
    if unknown:
        raise BadData(f"{p}: unknown keys {', '.join(unknown)}")
    for key in ("input", "dice", "expect"):
        if not isinstance(raw.get(key, {}), dict):
            raise BadData(f"{p}: '{key}' must be a table")
    return Case(
        path=str(p),
        id=str(raw["id"]),
        section=str(raw["section"]),
        title=str(raw["title"]),
        source=str(raw["source"]),
        procedure=str(raw["procedure"]),
        input=dict(raw.get("input", {})),
        dice=dict(raw.get("dice", {})),
        expect=dict(raw["expect"]),
    )


def _contains(expect: Any, got: Any, where: str) -> list[str]:
    """A ``key~`` expectation: each expected text is part of the result's text, or of one of its texts (a log)."""
    texts = [str(x) for x in got] if isinstance(got, (list, tuple)) else [str(got)]
    wanted = expect if isinstance(expect, list) else [expect]
    return [f"{where}~: no line contains {w!r}" for w in wanted if not any(str(w) in t for t in texts)]


def _diff(expect: Any, got: Any, where: str) -> list[str]:
    if isinstance(expect, dict) and isinstance(got, dict):
        out: list[str] = []
        for k in expect:
            if k.endswith("~") and k[:-1] in got:
                out.extend(_contains(expect[k], got[k[:-1]], f"{where}.{k[:-1]}"))
            elif k not in got:
                out.append(f"{where}.{k}: expected {expect[k]!r}, the result has no such key")
            else:
                out.extend(_diff(expect[k], got[k], f"{where}.{k}"))
        return out
    if isinstance(expect, list) and isinstance(got, (list, tuple)):
        got = list(got)
    if expect != got:
        return [f"{where}: expected {expect!r}, got {got!r}"]
    return []


def run_case(case: Case, context_factory: Callable[[Dice], Any] | None = None) -> CaseResult:
    procs = procedures()
    if case.procedure not in procs:
        return CaseResult(case, False, (f"unknown procedure {case.procedure!r}",), None)
    dice = Dice(("case:" + case.id).encode("utf-8"), forced=case.dice, strict=True)
    try:
        if case.procedure in _NEEDS_CONTEXT:
            if context_factory is None:
                return CaseResult(case, False, (f"procedure {case.procedure!r} needs the game data; run it with a context_factory",), None)
            result = procs[case.procedure](case.input, context_factory(dice))
        else:
            result = procs[case.procedure](case.input, dice)
    except DiceError as err:
        return CaseResult(case, False, (f"dice: {err}",), None)
    problems = _diff(case.expect, result, "expect")
    unused = sorted(set(case.dice) - set(dice.record))
    if unused:
        problems.append(f"forced dice never rolled: {', '.join(unused)}")
    return CaseResult(case, not problems, tuple(problems), result)
