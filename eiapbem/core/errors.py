"""The error families of eiapbem.

Every error a user can cause carries one sentence saying what is wrong and what
to do.  Callers tell errors apart by type, never by message text.
"""

from __future__ import annotations


class EiaError(Exception):
    """Base of every error eiapbem raises on purpose.

    ``str(err)`` is the sentence shown to the user; ``hint`` is an optional
    second sentence saying what to do next.
    """

    def __init__(self, message: str, *, hint: str | None = None) -> None:
        super().__init__(message)
        self.hint = hint


class RulesBug(EiaError):
    """The machine broke a promise of its own (a loop that does not end, a step that does not progress).

    Never a player's doing: the sentence names what stuck, so a report can be acted on; nothing was saved.
    """

    def __init__(self, message: str) -> None:
        super().__init__(f"internal error: {message}",
                         hint="nothing was changed; please report this with the game's files")


class IllegalAction(EiaError):
    """An action the rules do not allow now; the state is unchanged."""


class BadData(EiaError):
    """A data file (map, scenario, leaders, tables) is malformed or inconsistent."""


class InvalidValue(BadData):
    """A model value breaks its declared type or an invariant.

    ``path`` names the field (``powers.FR.treasury``); decoding turns this into
    a ``BadEncoding`` carrying the same path.
    """

    def __init__(self, message: str, *, path: str = "", hint: str | None = None) -> None:
        self.path = path
        self.reason = message
        super().__init__(f"{path}: {message}" if path else message, hint=hint)


class BadFile(EiaError):
    """A file from outside (turn, battle, save, bid…) was refused; nothing changed."""


class BadEncoding(BadFile):
    """Bytes that are not canonical eiapbem msgpack (floats, unsorted keys, trailing bytes…)."""
