"""The error families of eiapbem.

Every error a user can cause carries one sentence saying what is wrong and what
to do.  Callers tell errors apart by type, never by message text.
"""

from __future__ import annotations

from typing import Any

#: A message quotes at most this many characters of a value from outside (issue 29: a refusal once quoted a
#: 100,000-item list back in 300,105 characters).
QUOTE_MAX = 40


def quoted(value: Any, limit: int = QUOTE_MAX) -> str:
    """A short, printable form of a value for a message: its ``repr`` cut to ``limit`` characters.

    A list or map is named with its size (``a list of 100000 items``) rather than written out; a long
    string or bytes value is cut, saying how long it was.  Never raises."""
    try:
        if isinstance(value, (list, tuple)):
            return f"a list of {len(value)} item{'s' if len(value) != 1 else ''}"
        if isinstance(value, dict):
            return f"a map of {len(value)} entr{'ies' if len(value) != 1 else 'y'}"
        if isinstance(value, (str, bytes, bytearray)) and len(value) > limit:
            unit = "characters" if isinstance(value, str) else "bytes"
            return f"{value[:limit]!r}... ({len(value)} {unit})"
        if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > 4 * limit:
            return f"an integer of {value.bit_length()} bits"
        text = repr(value)
    except Exception:  # noqa: BLE001 - a value from outside whose repr fails is still named
        return f"a value of type {type(value).__name__}"
    return text if len(text) <= limit + 3 else text[:limit] + "..."


#: A refusal from the rules quoted inside a file's refusal is cut to this many characters: the rules name what
#: an action says (an area, a leader), and a member's patched client can make that long.
REASON_MAX = 300


def brief(err: BaseException, limit: int = REASON_MAX) -> str:
    """``str(err)`` cut to ``limit`` characters, for a refusal that quotes another one.  Never raises."""
    try:
        text = str(err)
    except Exception:  # noqa: BLE001 - an error whose text fails is still named
        return type(err).__name__
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


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
