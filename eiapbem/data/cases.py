"""Reading rules case files from disk (the rules core parses them, ``eiapbem.rules.cases``)."""

from __future__ import annotations

from pathlib import Path

# The data layer's case procedures register when this module is imported (the rules core cannot import them).
import eiapbem.data.battle_cases  # noqa: F401
import eiapbem.data.economy_cases  # noqa: F401
import eiapbem.data.diplomacy_cases  # noqa: F401
from eiapbem.core.errors import BadData
from eiapbem.rules.cases import Case, parse_case


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
