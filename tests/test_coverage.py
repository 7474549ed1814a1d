"""The coverage table of the manual's subsections 4-14 (``docs/coverage.md``) cannot go stale.

``tools/coverage.py`` builds it from the code's citations, the rules cases and the tests; this test builds it again and
compares, so a case renamed, a citation dropped or a subsection left without code or test fails here with the command
that brings the file up to date.
"""

from __future__ import annotations

import importlib.util
import os
import re
from pathlib import Path

import pytest

from paths import ROOT, SEEDS

MANUAL_NAME = "000_0db1f2615c737f0c.txt"


def _tool():
    spec = importlib.util.spec_from_file_location("coverage_tool", ROOT / "tools" / "coverage.py")
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


TOOL = _tool()


def test_the_table_in_docs_is_the_one_the_generator_writes():
    assert (ROOT / "docs" / "coverage.md").read_text(encoding="utf-8") == TOOL.render(), \
        "docs/coverage.md is stale: run 'python tools/coverage.py' and commit it"


def test_every_subsection_is_found_in_the_code_and_a_test():
    rows, counts = TOOL.table()
    missing = [f"{r['num']} {r['title']}" for r in rows if r["status"] == "not found"]
    assert missing == [], f"no code or no test cites: {'; '.join(missing)}"
    assert counts["numbers"] == 233 and counts["headings"] == 236
    # Every test it names exists: a case id of tests/cases, or a test function of tests/.
    ids = {cid for cid, _ in TOOL._cases()}
    tests = {name for name, _ in TOOL._tests()}
    for r in rows:
        for t in r["tests"]:
            name = t.split("`")[1]
            assert (name in ids) if t.startswith("case ") else (name in tests), (r["num"], t)
        for path in r["where"]:
            assert (ROOT / path).is_file(), (r["num"], path)


def test_a_citation_is_a_whole_section_number():
    pat = TOOL.cites("6.4")
    assert pat.search("peace (6.4, 000:738)") and pat.search("# 6.4 peace")
    assert not pat.search("6.4.2") and not pat.search("16.4") and not pat.search("6.41")
    assert TOOL._counts("x = 10.6  # 8.5.2 first success\n") == {"8.5.2": 1}  # a number in code is not cited
    assert TOOL._counts('"""12.9 levy"""\nassert f(4.2) == "4.2"\n', strings=False) == {"12.9": 1}


def _manual() -> list[str] | None:
    for folder in (os.environ.get("EIAPBEM_SEEDS"), str(SEEDS), str(ROOT.parent.parent / "shared" / "seeds")):
        if folder and (Path(folder) / MANUAL_NAME).is_file():
            return (Path(folder) / MANUAL_NAME).read_text(encoding="utf-8").split("\n")
    return None


def test_the_list_of_subsections_is_the_manuals():
    lines = _manual()
    if lines is None:
        pytest.skip("the manual is not at hand (set EIAPBEM_SEEDS to its folder)")
    pat = re.compile(r"^\s*((?:4|5|6|7|8|9|10|11|12|13|14)\.\d+(?:\.\d+)*)\.?\s+(.*\S)\s*$")
    found = []
    for i, line in enumerate(lines, 1):
        m = pat.match(line)
        if m and not re.fullmatch(r"\d+\.0", m.group(1)):
            found.append((m.group(1), i))
    assert [(n, at) for n, _, at in TOOL.sections()] == found
