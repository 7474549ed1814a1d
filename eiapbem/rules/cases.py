"""Rules test cases: data-driven checks of the rules against the manual.

In the spirit of the Diplomacy Adjudicator Test Cases, each case is a small
TOML file naming a situation, the dice to force, what to do and what must
come out.  A case names a *procedure*: a pure rules function registered here
with ``@procedure("name")`` that takes the case's ``input`` table and the
forced ``Dice`` and returns a dict of results.  The case passes when every
key of its ``expect`` table equals the same key of the result.

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
"""

from __future__ import annotations

import importlib
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from eiapbem.errors import BadData
from eiapbem.rules.dice import Dice, DiceError

Procedure = Callable[[dict, Dice], dict]

_PROCEDURES: dict[str, Procedure] = {}

#: Modules that register procedures; imported before any case runs.
PROCEDURE_MODULES: tuple[str, ...] = (
    "eiapbem.rules.tables",
    "eiapbem.rules.combat.morale",
    "eiapbem.rules.combat.commander",
    "eiapbem.rules.combat.tables_use",
    "eiapbem.rules.combat.pursuit",
    "eiapbem.rules.combat.siege",
    "eiapbem.rules.naval.combat",
    "eiapbem.rules.diplomacy.minors",
    "eiapbem.data.battle_cases",
)

_REQUIRED = ("id", "section", "title", "source", "procedure", "expect")
_ALLOWED = set(_REQUIRED) | {"input", "dice"}


def procedure(name: str) -> Callable[[Procedure], Procedure]:
    def deco(fn: Procedure) -> Procedure:
        if name in _PROCEDURES:
            raise ValueError(f"procedure {name!r} registered twice")
        _PROCEDURES[name] = fn
        return fn

    return deco


def procedures() -> dict[str, Procedure]:
    for mod in PROCEDURE_MODULES:
        importlib.import_module(mod)
    from eiapbem.rules import tables

    tables.all_tables()  # table modules may register procedures too
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


def load_case(path: str | Path) -> Case:
    p = Path(path)
    try:
        raw = tomllib.loads(p.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as err:
        raise BadData(f"{p}: cannot read the case file ({err})") from err
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


def find_cases(path: str | Path) -> list[Path]:
    p = Path(path)
    if p.is_file():
        return [p]
    if p.is_dir():
        return sorted(p.rglob("*.toml"))
    raise BadData(f"{p}: no such case file or folder")


def _diff(expect: Any, got: Any, where: str) -> list[str]:
    if isinstance(expect, dict) and isinstance(got, dict):
        out: list[str] = []
        for k in expect:
            if k not in got:
                out.append(f"{where}.{k}: expected {expect[k]!r}, the result has no such key")
            else:
                out.extend(_diff(expect[k], got[k], f"{where}.{k}"))
        return out
    if isinstance(expect, list) and isinstance(got, (list, tuple)):
        got = list(got)
    if expect != got:
        return [f"{where}: expected {expect!r}, got {got!r}"]
    return []


def run_case(case: Case) -> CaseResult:
    procs = procedures()
    if case.procedure not in procs:
        return CaseResult(case, False, (f"unknown procedure {case.procedure!r}",), None)
    dice = Dice(("case:" + case.id).encode("utf-8"), forced=case.dice, strict=True)
    try:
        result = procs[case.procedure](case.input, dice)
    except DiceError as err:
        return CaseResult(case, False, (f"dice: {err}",), None)
    problems = _diff(case.expect, result, "expect")
    unused = sorted(set(case.dice) - set(dice.record))
    if unused:
        problems.append(f"forced dice never rolled: {', '.join(unused)}")
    return CaseResult(case, not problems, tuple(problems), result)
