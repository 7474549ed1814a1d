"""The ``BadFile`` family of the file layer (docs/file-format.md section 6).

Callers tell refusals apart by type, never by message text.  Every message is
one sentence naming the file; a refusal never changes anything.
"""

from __future__ import annotations

from eiapbem.core.errors import BadFile as BadFile  # the family's root, imported from here by the layers above


class BadFormat(BadFile):
    """Not an eiapbem sealed file: wrong magic, wrong lengths, truncated, too big."""


class BadHeader(BadFile):
    """The clear header is canonical msgpack but not a valid header of its kind."""


class WrongKind(BadFile):
    """A valid file of another kind than the one asked for (a save given as a turn file)."""


class WrongGame(BadFile):
    """A file of another game."""


class BadSignature(BadFile):
    """The signature does not verify with the author's key: forged or damaged."""


class BadEncryption(BadFile):
    """The body or the reader's key stanza does not decrypt: damaged or tampered."""


class NotForYou(BadEncryption):
    """The file is not sealed for the reader's role."""


class WrongPassword(BadEncryption):
    """The password does not open the identity file."""


class AlreadyLoaded(BadFile):
    """The file was accepted before; nothing changed."""


class OwnFile(BadFile):
    """The reader made this file itself (4.2.8: a player cannot load his own turn file)."""


class Fork(BadFile):
    """A second, different file for a slot that already has one (out of sync)."""

    def __init__(self, message: str, *, first: bytes, second: bytes, hint: str | None = None) -> None:
        super().__init__(message, hint=hint)
        self.first = first
        self.second = second


class OutOfOrder(BadFile):
    """The file does not follow the reader's last file (missing files between, or an old file)."""


class WrongSlot(OutOfOrder):
    """The file follows the right file but is for a slot that is not due now."""


class Missing(OutOfOrder):
    """The file follows a file the reader has not loaded: the files before it are still to come (it waits)."""


class LaterEpoch(OutOfOrder):
    """The file is of a later epoch: the host's backup or upgrade that starts it is still to be loaded (it waits)."""


class NeedsRelease(BadFile):
    """The file moves the game to versions of the rules or the computer this eiapbem does not play (it waits)."""


class AuthorNotAllowed(BadFile):
    """The author may not write this slot (or this kind of file)."""


class Obsolete(BadFile):
    """The file is from an epoch before the host's last backup."""


class BadDice(BadFile):
    """A dice reveal that does not extend the author's chain, or a recorded roll that is wrong."""


#: The manual's words for a file that does not replay to the same state (4.2.8, 000:212).
OUT_OF_SYNC = "Turn file out of sync \u2013 contact game host"


class OutOfSync(BadFile):
    """Replaying a file's actions gives another state than the file says (4.2.8)."""
