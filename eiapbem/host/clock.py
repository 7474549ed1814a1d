"""The host's clock (the lateness ladder's, ``host/lateness.py``): the wall clock to the minute, or ``EIAPBEM_NOW``
(``YYYY-MM-DD HH:MM``, UTC) for tests; and the one clock-dependent part of ``eiapbem admin status``, the hours each
late player has waited, written at the moment it is shown from the time the wait began.  Kept apart from the ladder so
that an answer kept in the host's status record (``cli/admin_cmd.py``) is completed without loading the game."""

from __future__ import annotations

import datetime
import os

from eiapbem.core.errors import EiaError

NOW_ENV = "EIAPBEM_NOW"
_FMT = "%Y-%m-%d %H:%M"


class BadClock(EiaError):
    """An injected clock that is not a time."""


def parse_time(text: str) -> datetime.datetime:
    try:
        t = datetime.datetime.strptime(text.strip().removesuffix(" UTC").replace("T", " "), _FMT)
    except ValueError as err:
        raise BadClock(f"{text!r} is not a time; write it as YYYY-MM-DD HH:MM (UTC)") from err
    return t.replace(tzinfo=datetime.timezone.utc)


def now(override: str | None = None) -> datetime.datetime:
    """The host's clock: ``override``, else ``EIAPBEM_NOW``, else the wall clock (UTC, to the minute)."""
    text = override or os.environ.get(NOW_ENV)
    if text:
        return parse_time(text)
    return datetime.datetime.now(datetime.timezone.utc).replace(second=0, microsecond=0)


def show(t: datetime.datetime) -> str:
    return t.strftime(_FMT) + " UTC"


def hours_since(since: str, clock: datetime.datetime) -> int:
    """Whole hours from ``since`` (a ``show`` time) to ``clock``."""
    return int((clock - parse_time(since)).total_seconds() // 3600)


def waited_lines(rows: list, clock: datetime.datetime) -> list[str]:
    """The lines of ``rows`` at ``clock``: a row is a line, or ``{"before", "since", "after"}`` for a wait, whose hours
    so far (since ``since``, a ``show`` time) stand between the two parts."""
    out = []
    for row in rows:
        if isinstance(row, str):
            out.append(row)
            continue
        out.append(f"{row['before']}({hours_since(row['since'], clock)} h){row['after']}")
    return out
