"""Loading the map files: ``eiapbem/data/map/seas.json`` and ``areas_*.json``.

The rules core (``eiapbem.rules.mapcheck``, ``eiapbem.rules.mapgraph``) validates and models the map; this
module only reads the files.  ``load_map()`` reads the packaged map once and
keeps it (the ``Map`` is read-only and shared by every game, never copied into
a game state); ``load_map(path)`` reads the map files of another folder, for a
playgroup's own map or for tests.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

from eiapbem.core.errors import BadData
from eiapbem.rules import mapcheck
from eiapbem.rules.mapgraph import Map

#: The map files of a folder: the seas, then one file per region.
SEAS_FILE = "seas.json"
AREAS_GLOB = "areas_*.json"


def _parse(name: str, text: str) -> Any:
    def no_floats(s: str) -> Any:
        raise BadData(
            f"{name}: the number {s} is not an integer; the map holds integers only "
            f"(positions in hundredths of a degree)",
            hint="docs/map.md gives the units of every field",
        )

    def no_duplicate_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for k, v in pairs:
            if k in out:
                raise BadData(f"{name}: the field {k!r} appears twice in one object; keep one")
            out[k] = v
        return out

    try:
        return json.loads(text, parse_float=no_floats, object_pairs_hook=no_duplicate_keys)
    except json.JSONDecodeError as err:
        raise BadData(
            f"{name}: not valid JSON at line {err.lineno} column {err.colno} ({err.msg}); fix the file"
        ) from err


def read_raw(path: str | Path | None = None) -> dict[str, Any]:
    """The parsed map files of the folder ``path`` (default: the packaged map), by file name.

    Raises ``BadData`` if a file is not valid JSON or has no seas file.
    """
    if path is None:
        folder: Any = resources.files("eiapbem.data.map")
    else:
        folder = Path(path)
        if not folder.is_dir():
            raise BadData(f"{path}: there is no map folder here; give the folder holding seas.json and areas_*.json")
    names = sorted(
        p.name
        for p in folder.iterdir()
        if p.name == SEAS_FILE or (p.name.startswith("areas_") and p.name.endswith(".json"))
    )
    if SEAS_FILE not in names:
        raise BadData(f"{path or 'the packaged map'}: {SEAS_FILE} is missing; the map needs its sea areas")
    raw: dict[str, Any] = {}
    for n in names:
        try:
            text = folder.joinpath(n).read_text(encoding="utf-8")
        except UnicodeDecodeError as err:
            raise BadData(f"{n}: not UTF-8 text; save the file as UTF-8") from err
        raw[n] = _parse(n, text)
    return raw


def map_problems(path: str | Path | None = None) -> list[str]:
    """Every problem of the map files (empty when valid); unreadable files raise ``BadData``."""
    return mapcheck.problems(read_raw(path))


@lru_cache(maxsize=8)
def _load(key: str | None) -> Map:
    return mapcheck.build_map(read_raw(key))


def load_map(path: str | Path | None = None) -> Map:
    """The validated, read-only map (cached: each folder is read once per process)."""
    return _load(None if path is None else str(Path(path).resolve()))
