"""Sync checks (DESIGN 5.4; manual 4.2.8, ``000:212``).

Each turn file carries the state hash after its actions; a client that
replays them and gets another hash reports "Turn file out of sync - contact
game host" with the slot and, when it has the other state (a backup, a debug
dump), the first differing part (``eiapbem.rules.model.first_difference``).
"""

from __future__ import annotations

from typing import Any

from eiapbem.core import canonical
from eiapbem.core.record import first_difference

from .errors import OutOfSync


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
