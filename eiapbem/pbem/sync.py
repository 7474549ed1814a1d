"""Sync checks (DESIGN 5.4; manual 4.2.8, ``000:212``).

Each turn file carries the state hash after its actions; a client that
replays them and gets another hash reports "Turn file out of sync - contact
game host" with the slot and, when it has the other state (a backup, a debug
dump), the first differing part.  ``first_difference`` is generic over
canonical values (maps, lists, scalars); the rules model may bring its own.
"""

from __future__ import annotations

from typing import Any

from eiapbem.rules import canonical

from .errors import OutOfSync


def first_difference(a: Any, b: Any, path: str = "") -> str | None:
    """The path of the first place two canonical values differ (keys in canonical order), or None."""
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b), key=lambda s: s.encode("utf-8")):
            sub = f"{path}.{k}" if path else k
            if k not in a or k not in b:
                return sub
            d = first_difference(a[k], b[k], sub)
            if d is not None:
                return d
        return None
    if isinstance(a, list) and isinstance(b, list):
        for i, (x, y) in enumerate(zip(a, b)):
            d = first_difference(x, y, f"{path}[{i}]")
            if d is not None:
                return d
        return None if len(a) == len(b) else f"{path}[{min(len(a), len(b))}]"
    if type(a) is not type(b) or a != b:
        return path or "(the whole value)"
    return None


def check_sync(name: str, slot: str, claimed: bytes, state: Any, theirs: Any | None = None) -> None:
    """Raise ``OutOfSync`` if ``state``'s hash is not ``claimed``."""
    mine = canonical.digest(state)
    if mine == claimed:
        return
    where = ""
    if theirs is not None:
        diff = first_difference(state, theirs)
        if diff is not None:
            where = f"; the first difference is at {diff}"
    raise OutOfSync(
        f"Turn file out of sync - contact game host: {name} for {slot} expects state {claimed.hex()[:16]} "
        f"but replaying it gives {mine.hex()[:16]}{where}",
        hint="the host can send backups to bring everyone back in sync (4.2.8)",
    )
