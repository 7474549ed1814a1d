"""Email drafts for files going out (4.2.2 ``000:106``, 4.2.5 ``000:162``).

When a file lands in ``commout/`` the client writes an ``.eml`` draft beside
it: addressed to the other players, subject filled in, file attached, with the
``Date:`` and ``Message-ID:`` every message must have (RFC 5322 3.6; ``eiapbem
mail send`` sets both again when it sends).  The
player opens it in any mail program (or sends the file another way).  Names
and addresses come from other people, so each is validated: no line breaks,
no control characters, one plain address each (no header injection).
"""

from __future__ import annotations

import datetime
import re
from dataclasses import dataclass
from email.headerregistry import Address
from email.message import EmailMessage
from email.policy import SMTP
from email.utils import format_datetime, make_msgid
from pathlib import Path
from typing import Sequence

from eiapbem.core.errors import EiaError

from . import atomic

_ADDR_RE = re.compile(r"[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+\Z")
_CTRL_RE = re.compile(r"[\x00-\x1f\x7f]")
MAX_ATTACHMENT = 32 * 1024 * 1024


class BadAddress(EiaError):
    """A player's name or email address that cannot go into an email header."""


@dataclass(frozen=True)
class Person:
    name: str
    address: str

    def checked(self) -> Address:
        if not isinstance(self.name, str) or _CTRL_RE.search(self.name) or len(self.name) > 64:
            raise BadAddress(f"the player name {self.name!r} has a line break or control character, or is too long")
        if not isinstance(self.address, str) or not _ADDR_RE.match(self.address) or len(self.address) > 254:
            raise BadAddress(
                f"{self.address!r} is not a plain email address", hint="write it as name@example.org, without spaces"
            )
        local, domain = self.address.split("@")
        return Address(display_name=self.name, username=local, domain=domain)


def subject_for(game: str, what: str) -> str:
    """``EiA Test: 1805-05 naval GB`` from the game name and a slot or description."""
    text = f"EiA {game}: {what.replace('/', ' ').replace('_', ' ')}"
    if _CTRL_RE.search(text) or len(text) > 200:
        raise BadAddress(f"the subject {text[:60]!r} has a line break or control character, or is too long")
    return text


def make_draft(sender: Person, recipients: Sequence[Person], subject: str, attachments: Sequence[Path], body: str = "") -> bytes:
    """The bytes of an RFC 5322 message with the files attached."""
    if not recipients:
        raise BadAddress("an email needs at least one recipient")
    if _CTRL_RE.search(subject):
        raise BadAddress(f"the subject {subject[:60]!r} has a line break or control character")
    msg = EmailMessage(policy=SMTP)
    msg["From"] = sender.checked()
    msg["To"] = [p.checked() for p in recipients]
    msg["Subject"] = subject
    msg["Date"] = format_datetime(datetime.datetime.now(datetime.timezone.utc))
    msg["Message-ID"] = make_msgid(domain=sender.address.split("@")[-1])
    msg.set_content(body or "Files for our game of Empires in Arms are attached. Put them in your commin folder.\n")
    for path in attachments:
        data = path.read_bytes()
        if len(data) > MAX_ATTACHMENT:
            raise BadAddress(f"{path.name} is too big to attach ({len(data)} bytes)")
        msg.add_attachment(data, maintype="application", subtype="octet-stream", filename=path.name)
    return msg.as_bytes()


def write_draft(
    file_path: Path, sender: Person, recipients: Sequence[Person], subject: str, extra: Sequence[Path] = ()
) -> Path:
    """Write ``<file>.eml`` beside a file in ``commout/``, with the file (and ``extra`` files) attached."""
    draft = make_draft(sender, recipients, subject, [file_path, *extra])
    out = file_path.with_name(file_path.name + ".eml")
    atomic.write_atomic(out, draft)
    return out
