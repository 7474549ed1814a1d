"""Every rules case under tests/cases/ (any depth) runs and passes."""

from pathlib import Path

import pytest

from eiapbem.rules.cases import find_cases, load_case, run_case

CASES_DIR = Path(__file__).resolve().parent / "cases"
CASE_FILES = find_cases(CASES_DIR) if CASES_DIR.is_dir() else []


def _case_id(path: Path) -> str:
    return load_case(path).id


def test_case_ids_are_unique():
    ids = [load_case(p).id for p in CASE_FILES]
    assert len(ids) == len(set(ids)), sorted(i for i in ids if ids.count(i) > 1)


@pytest.mark.parametrize("path", CASE_FILES, ids=[_case_id(p) for p in CASE_FILES])
def test_rules_case(path):
    result = run_case(load_case(path))
    assert result.passed, "\n".join(result.problems)
