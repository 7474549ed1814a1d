"""The coverage table of the manual's numbered subsections 4-14: where each lives and which test covers it.

Run ``python tools/coverage.py`` to write ``docs/coverage.md``; ``tests/test_coverage.py`` builds the same table and
fails when the file differs, so the table cannot go stale.  For every heading of ``tests/data/manual_sections.tsv``
(the manual's headings with their lines):

- **where**: the modules of ``eiapbem/`` that cite the section number (a comment, a docstring or a message: every
  rule cites its section, docs/architecture.md), most citations first, at most three;
- **tests**: the rules cases whose ``section`` is the number or whose id or title cites it (``tests/cases``, run by
  ``eiapbem rules test``), then the pytest tests whose comments or docstrings cite it, at most three in all;
- **status**: ``playable`` when some code and some test cite it; a heading with subsections whose own text carries no
  rule of its own is ``playable`` when every subsection is; ``moved`` for the two headings the manual moved
  (6.9, 6.14); ``partial`` when ``tests/data/coverage_notes.tsv`` says so (a note beginning ``partial:``, naming what is
  not built); otherwise ``not found``, which the test refuses.  The notes file may add a note to any row (what the CLI
  analogue of a screen is, which decision records a reading...).

The count "playable through the CLI" is over the manual's 233 subsection numbers (236 headings: 9.2.2.1 is used twice,
6.9 and 6.14 are moved): a number is playable when all its headings are.
"""

from __future__ import annotations

import io
import re
import sys
import tokenize
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SECTIONS = ROOT / "tests" / "data" / "manual_sections.tsv"
NOTES = ROOT / "tests" / "data" / "coverage_notes.tsv"
OUT = ROOT / "docs" / "coverage.md"
MOVED = ("6.9", "6.14")
MOST = 3


def sections() -> list[tuple[str, str, int]]:
    """(number, title, manual line) of every heading, in the manual's order."""
    out = []
    for line in SECTIONS.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or not line.strip():
            continue
        num, title, at = line.split("\t")
        out.append((num, title, int(at)))
    return out


def notes() -> dict[str, str]:
    out = {}
    if NOTES.is_file():
        for line in NOTES.read_text(encoding="utf-8").splitlines():
            if line.startswith("#") or not line.strip():
                continue
            num, text = line.split("\t", 1)
            out[num] = text
    return out


def cites(num: str) -> re.Pattern[str]:
    """The section number as a citation: not part of a longer number (6.4 is not 6.4.2 nor 16.4)."""
    return re.compile(r"(?<![\d.])" + re.escape(num) + r"(?![\d])(?!\.\d)")


def _sources() -> dict[str, str]:
    out = {}
    for p in sorted((ROOT / "eiapbem").rglob("*.py")):
        out[str(p.relative_to(ROOT))] = p.read_text(encoding="utf-8")
    return out


def _cases() -> list[tuple[str, set[str]]]:
    """(case id, the sections it checks: its ``section`` and any cited in its id or title) of every rules case."""
    out = []
    for p in sorted((ROOT / "tests" / "cases").rglob("*.toml")):
        raw = tomllib.loads(p.read_text(encoding="utf-8"))
        cited = set(_NUMBER.findall(f"{raw['id']} {raw['title']}"))
        out.append((str(raw["id"]), {str(raw["section"])} | cited))
    return out


_TEST_DEF = re.compile(r"^def (test_\w+)\(", re.M)


def _tests() -> list[tuple[str, str]]:
    """(file::test, its text) of every pytest test function."""
    out = []
    for p in sorted((ROOT / "tests").rglob("test_*.py"), key=lambda p: p.name):
        text = p.read_text(encoding="utf-8")
        starts = [(m.start(), m.group(1)) for m in _TEST_DEF.finditer(text)]
        for i, (at, name) in enumerate(starts):
            end = starts[i + 1][0] if i + 1 < len(starts) else len(text)
            out.append((f"{p.name}::{name}", text[at:end]))
    return out


#: Every section-like number in a text (not part of a longer number): the same reading as ``cites``.
_NUMBER = re.compile(r"(?<![\d.])(\d{1,2}(?:\.\d+)+)(?![\d])(?!\.\d)")


_STATEMENT_START = (tokenize.NEWLINE, tokenize.NL, tokenize.INDENT, tokenize.DEDENT)


def _prose(text: str, *, strings: bool = True) -> str:
    """The comments and docstrings of Python source (and, with ``strings``, every string: a rule's message cites its
    section too), where a rule or a test cites a section; a number in code, such as a coordinate, is not a citation,
    nor is a number a test's data holds (a morale of 4.2)."""
    parts = []
    prev = tokenize.NEWLINE
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if tok.type == tokenize.COMMENT or (tok.type == tokenize.STRING and (strings or prev in _STATEMENT_START)):
                parts.append(tok.string)
            elif strings and tok.type == getattr(tokenize, "FSTRING_MIDDLE", -1):
                parts.append(tok.string)
            if tok.type not in (tokenize.COMMENT, tokenize.NL):
                prev = tok.type
    except (tokenize.TokenError, SyntaxError):
        return text
    return "\n".join(parts)


def _counts(text: str, *, strings: bool = True) -> dict[str, int]:
    out: dict[str, int] = {}
    for n in _NUMBER.findall(_prose(text, strings=strings)):
        out[n] = out.get(n, 0) + 1
    return out


def table() -> tuple[list[dict], dict[str, int]]:
    """The rows (number, title, line, where, tests, status, note) and the counts."""
    heads = sections()
    cases, extra = _cases(), notes()
    srcs = {path: _counts(text) for path, text in _sources().items()}
    tests = [(name, _counts(text, strings=False)) for name, text in _tests()]
    rows = []
    for num, title, line in heads:
        where = sorted(((n[num], path) for path, n in srcs.items() if num in n), key=lambda x: (-x[0], x[1]))
        covered = [f"case `{cid}`" for cid, secs in cases if num in secs]
        covered += [f"`{name}`" for name, n in tests if num in n]
        rows.append({"num": num, "title": title, "line": line, "where": [p for _, p in where[:MOST]],
                     "tests": covered[:MOST], "note": extra.get(num, "")})
    children = {r["num"]: [c for c in rows if c["num"].startswith(r["num"] + ".")] for r in rows}
    for r in reversed(rows):  # subsections first, so a heading can lean on them
        if r["num"] in MOVED:
            r["status"] = "moved"
        elif r["note"].startswith("partial:"):
            r["status"] = "partial"
        elif r["where"] and r["tests"]:
            r["status"] = "playable"
        elif children[r["num"]] and all(c["status"] == "playable" for c in children[r["num"]]):
            r["status"] = "playable"
            r["note"] = r["note"] or "played by its subsections"
        else:
            r["status"] = "not found"
    numbers: dict[str, list[str]] = {}
    for r in rows:
        if r["num"] not in MOVED:
            numbers.setdefault(r["num"], []).append(r["status"])
    counts = {"headings": len(rows), "numbers": len(numbers),
              "playable": sum(all(s == "playable" for s in v) for v in numbers.values())}
    return rows, counts


def render() -> str:
    rows, counts = table()
    out = [
        "# Coverage of the manual, sections 4-14",
        "",
        "Generated by `python tools/coverage.py` from the code, the rules cases and the tests; `tests/test_coverage.py`",
        "fails when this file differs from what the generator writes, or when a subsection is not found. The",
        "method is in `tools/coverage.py`: *where* lists the modules citing the section (most citations first), *tests*",
        "the rules cases of that section (`eiapbem rules test tests/cases`) and the tests citing it.",
        "",
        f"**{counts['playable']} of {counts['numbers']} numbered subsections playable through the CLI** "
        f"({counts['headings']} headings: 9.2.2.1 is used twice, 6.9 and 6.14 are moved).",
        "",
        "| section | title | manual | status | where | tests | note |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        where = "<br>".join(f"`{p.removeprefix('eiapbem/')}`" for p in r["where"]) or "-"
        tests = "<br>".join(r["tests"]) or "-"
        out.append(f"| {r['num']} | {r['title']} | 000:{r['line']} | {r['status']} | {where} | {tests} | {r['note']} |")
    return "\n".join(out) + "\n"


def main() -> int:
    text = render()
    if "--check" in sys.argv:
        return 0 if OUT.is_file() and OUT.read_text(encoding="utf-8") == text else 1
    OUT.write_text(text, encoding="utf-8")
    rows, counts = table()
    missing = [r["num"] for r in rows if r["status"] == "not found"]
    print(f"wrote {OUT.relative_to(ROOT)}: {counts['playable']} of {counts['numbers']} playable"
          + (f"; not found: {', '.join(missing)}" if missing else ""))
    return 0


if __name__ == "__main__":
    sys.exit(main())
