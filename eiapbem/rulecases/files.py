"""Reading rules case files from disk (``eiapbem.rulecases.harness`` parses them)."""

from __future__ import annotations

from pathlib import Path

from eiapbem.core.errors import BadData
from eiapbem.rulecases.harness import Case, parse_case


def load_case(path: str | Path) -> Case:
    """Read and parse one case file; ``BadData`` names the file on any problem."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        raise BadData(f"{p}: cannot read the case file ({err})") from err
    return parse_case(text, str(p))


def find_cases(path: str | Path) -> list[Path]:
    """The case file ``path``, or every ``*.toml`` below the folder ``path``, sorted."""
    p = Path(path)
    if p.is_file():
        return [p]
    if p.is_dir():
        return sorted(p.rglob("*.toml"))
    raise BadData(f"{p}: no such case file or folder")
