"""Every rules case under tests/cases/ (one test per case id), and proof that the
cases depend on the charts: changing one chart cell makes a case fail."""

from __future__ import annotations

import dataclasses

import pytest

from paths import ROOT
from eiapbem.data.context import rules_context
from eiapbem.core.errors import BadData
import eiapbem.gap.arbitrate  # noqa: F401  (registers the gap.arbitrate case procedure)
from eiapbem.rulecases.files import find_cases, load_case
from eiapbem.rulecases.harness import run_case

CASES_DIR = ROOT / "tests" / "cases"
CASE_FILES = find_cases(CASES_DIR)


def _case_id(path) -> str:
    try:
        return load_case(path).id
    except BadData:
        return str(path.relative_to(CASES_DIR))


@pytest.mark.parametrize("path", CASE_FILES, ids=[_case_id(p) for p in CASE_FILES])
def test_rules_case(path):
    res = run_case(load_case(path), rules_context)
    assert res.passed, "\n".join(res.problems)


def test_case_ids_are_unique():
    ids = [load_case(p).id for p in CASE_FILES]
    assert len(ids) == len(set(ids))
    assert len(ids) >= 1


def _run(case_id: str):
    (path,) = [p for p in CASE_FILES if load_case(p).id == case_id]
    return run_case(load_case(path), rules_context)


def test_changing_an_operational_possibilities_cell_fails_the_11_2_6_case(monkeypatch):
    from eiapbem.rules.tables import land

    key = ("echelon", "counter-attack")
    p = land.OPERATIONAL_POSSIBILITIES[key]
    wrong = dataclasses.replace(
        p,
        first=land.TableSet(
            (land.CombatTable(1, 2), land.CombatTable(3, 3), land.CombatTable(2, 4)),  # round 2 "3-4" -> "3-3"
            p.first.defender,
        ),
    )
    assert _run("11.2.6-echelon-vs-counter-attack").passed
    monkeypatch.setitem(land.OPERATIONAL_POSSIBILITIES, key, wrong)
    res = _run("11.2.6-echelon-vs-counter-attack")
    assert not res.passed and any("3-3" in p for p in res.problems)


def test_changing_the_second_set_fails_the_outflanking_case(monkeypatch):
    from eiapbem.rules.tables import land

    key = ("outflank", "counter-attack")
    p = land.OPERATIONAL_POSSIBILITIES[key]
    wrong = dataclasses.replace(
        p, second=land.TableSet((None, land.CombatTable(4, 3), land.CombatTable(4, 4)), p.second.defender)
    )
    monkeypatch.setitem(land.OPERATIONAL_POSSIBILITIES, key, wrong)
    assert not _run("11.2.6-outflanking-factors").passed


def test_changing_a_commander_cell_fails_the_11_2_9_case(monkeypatch):
    from eiapbem.rules.tables import land

    monkeypatch.setitem(land.COMMANDER_CHART, (4, 3), (0, 0))
    assert not _run("11.2.9-commander-chart").passed


def test_changing_a_pursuit_class_cell_fails_the_11_2_10_case(monkeypatch):
    from eiapbem.rules.tables import land_pursuit  # the chart's own module (``land`` re-exports its names)

    rows = list(land_pursuit.PURSUIT_CLASS_ROWS)
    rows[2] = (200, (4, 2, 2))  # 2.0-2.9 after 2 rounds: 3 -> 2
    monkeypatch.setattr(land_pursuit, "PURSUIT_CLASS_ROWS", tuple(rows))
    assert not _run("11.2.10-pursuit-class").passed


def test_cli_runs_every_case(run_cli):
    code, out, err = run_cli("rules", "test", str(CASES_DIR))
    assert code == 0, out + err
    assert f"rules cases: {len(CASE_FILES)} passed, 0 failed" in out


def test_changing_the_naval_combat_table_fails_the_whole_battle_cases(monkeypatch):
    # 15.0 naval combat table (000:2984): 15% on a 3 is what makes the 8 French losses of 9.2.4.
    from eiapbem.rules.tables import naval

    assert _run("9.2.4-naval-battle-whole").passed and _run("9.4.4-naval-battle-aftermath").passed
    monkeypatch.setitem(naval.NAVAL_COMBAT, 3, 10)
    assert not _run("9.2.4-naval-battle-whole").passed
    assert not _run("9.4.4-naval-battle-aftermath").passed  # 54 x 10% = 5 < 6: Britain loses


def test_changing_the_siege_table_fails_the_11_4_cases(monkeypatch):
    from eiapbem.rules.tables import land_siege  # the chart's own module (``land`` re-exports its names)

    assert _run("11.4.1-undergarrisoned-breach-surrender").passed
    monkeypatch.setattr(land_siege, "SIEGE_UNDERGARRISON_MARGIN", 6)  # 9 of 15 would no longer be short
    assert not _run("11.4.1-undergarrisoned-breach-surrender").passed
