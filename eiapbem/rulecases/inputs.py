"""Reading a rules case's ``input`` table with errors that name the key."""

from __future__ import annotations

from typing import Any

from eiapbem.core.errors import BadData


_KINDS = {int: "a whole number", str: "a string", bool: "true or false", list: "a list", dict: "a table"}


def need(inp: dict, key: str, kind: type, default: Any = ...) -> Any:
    """``inp[key]`` checked to be of ``kind``; ``default`` when absent (required if not given)."""
    if key not in inp:
        if default is ...:
            raise BadData(f"the case input lacks {key!r}", hint="add it to the case's [input] table")
        return default
    value = inp[key]
    ok = isinstance(value, kind) and not (kind is int and isinstance(value, bool))
    if not ok:
        raise BadData(f"the case input {key!r} must be {_KINDS.get(kind, kind.__name__)}, not {value!r}")
    return value


def need_ints(inp: dict, key: str) -> list[int]:
    values = need(inp, key, list)
    if not all(isinstance(v, int) and not isinstance(v, bool) for v in values):
        raise BadData(f"the case input {key!r} must be a list of whole numbers, not {values!r}")
    return values
