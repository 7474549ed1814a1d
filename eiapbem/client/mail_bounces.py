"""Bounces read back: a file the server took but could not deliver is named, never lost in silence (issue 32).

A server that accepted a message may still fail to deliver it (a full
mailbox: 552 5.2.2) and then mails the sender a delivery-status notification
(RFC 3464: ``multipart/report; report-type=delivery-status``), with the
original message's headers.  ``mail fetch`` reads such a notice from the
sender's own mailbox, matches it by the original ``Message-ID`` to the file
recorded in ``mail/sent.json``, and records per recipient what failed.
``mail sync`` says it once, ``status`` says it until the file is sent again to
that recipient (``mail resend``).  A notice about a message eiapbem did not
send is left alone.  A delayed-delivery notice is said once, not kept.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from email.parser import BytesHeaderParser
from pathlib import Path
from typing import Any

from eiapbem.core.errors import EiaError
from eiapbem.pbem.bodies import SaveMeta

#: Enhanced status codes (RFC 3463) in a player's words.
REASONS = {
    "5.1.1": "no such mailbox", "5.1.2": "no such domain", "5.1.10": "no such address", "5.2.1": "mailbox disabled",
    "5.2.2": "mailbox full", "5.2.3": "message too big for the mailbox", "5.3.4": "message too big",
    "5.7.1": "refused by the receiving server's policy", "4.2.2": "mailbox full (still trying)",
}
_MSGID_RE = re.compile(rb"<[^<>\s@]{1,200}@[^<>\s]{1,200}>")


@dataclass(frozen=True)
class Failure:
    """One recipient of a bounced message: its address, the action (failed, delayed), status and server text."""

    recipient: str
    action: str
    status: str
    diagnostic: str

    def reason(self) -> str:
        base = REASONS.get(self.status) or (self.diagnostic[:120] if self.diagnostic else "undeliverable")
        return f"{base} ({self.status})" if self.status else base


def looks_like_bounce(headers: Any) -> bool:
    """A delivery-status notification, or a plain bounce from a mailer daemon."""
    ctype = str(headers.get("Content-Type", "")).lower()
    if "multipart/report" in ctype and "delivery-status" in ctype:
        return True
    sender = str(headers.get("From", "")).lower()
    subject = str(headers.get("Subject", "")).lower()
    return ("mailer-daemon" in sender or "postmaster" in sender) and any(
        w in subject for w in ("undeliver", "returned", "failure", "delivery status", "not delivered"))


def failures(report: bytes) -> list[Failure]:
    """The recipients of a ``message/delivery-status`` body (its blocks after the first, RFC 3464 2.3)."""
    blocks = re.split(rb"\r?\n\s*\r?\n", report.strip())
    out = []
    for block in blocks:
        h = BytesHeaderParser().parsebytes(block + b"\n\n")
        rcpt = str(h.get("Final-Recipient") or h.get("Original-Recipient") or "")
        if not rcpt:
            continue
        addr = rcpt.split(";", 1)[-1].strip().strip("<>")
        diag = " ".join(str(h.get("Diagnostic-Code", "")).split(";", 1)[-1].split())
        out.append(Failure(addr.lower(), str(h.get("Action", "failed")).strip().lower(),
                           str(h.get("Status", "")).strip(), diag))
    return out


def message_ids(returned: bytes) -> list[str]:
    """The original message's ``Message-ID`` from its returned headers, else every one quoted in the text."""
    h = BytesHeaderParser().parsebytes(returned.split(b"\n\n", 1)[0] + b"\n\n") if returned else None
    first = str(h.get("Message-ID", "")).strip() if h is not None else ""
    found = [first] if first else []
    found += [m.decode("ascii", "replace") for m in _MSGID_RE.findall(returned)]
    return list(dict.fromkeys(found))


def _plain_failures(text: bytes) -> list[Failure]:
    """A bounce without a status report: every address with a 5xx or 4xx line near it."""
    out = []
    for m in re.finditer(rb"<?([A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9.-]{1,200})>?[^\n]{0,80}?\b([45]\d\d)[ -]([45]\.\d{1,3}\.\d{1,3})?"
                         rb"([^\n]{0,120})", text):
        addr, code, status, rest = (g.decode("utf-8", "replace") if g else "" for g in m.groups())
        out.append(Failure(addr.lower(), "failed" if code.startswith("5") else "delayed", status,
                           f"{code} {status} {rest}".strip()))
    return out


@dataclass
class BounceNews:
    """What one notice told: (label, file names, recipient, reason, action), or nothing when it is not ours."""

    items: list


def record(home: Path, report: bytes, returned: bytes, text: bytes) -> BounceNews | None:
    """Match a notice to the file it carries and record its failures in ``mail/sent.json``; None when not ours.

    A notice about an older message than the latest sent to that recipient is handled in silence (the file
    went again since)."""
    from .mail_config import Ledger, mail_dir

    ledger = Ledger(mail_dir(home) / "sent.json", {"sent": {}})
    ids = message_ids(returned) or message_ids(text)
    hit = None
    for key, e in ledger.data["sent"].items():
        for send in e.get("sends", []):
            if send.get("message_id") in ids:
                hit = (key, e, send)
    if hit is None:
        return None
    key, entry, send = hit
    fails = failures(report) if report else []
    fails = fails or _plain_failures(text)
    news = []
    latest = {a.lower(): s.get("message_id") for s in entry.get("sends", []) for a in s.get("to", [])}
    for f in fails:
        if f.action not in ("failed", "delayed") or latest.get(f.recipient) != send.get("message_id"):
            continue
        if f.action == "failed":
            entry.setdefault("bounced", {})[f.recipient] = {"status": f.status, "why": f.reason(),
                                                            "message_id": send.get("message_id")}
        news.append((entry.get("label", key.rsplit(":", 1)[0]), list(entry.get("files", [])), f.recipient, f.reason(),
                     f.action))
    ledger.write()
    return BounceNews(news)


def main_file(label: str, files: list) -> str:
    """The file a message is about: its turn, admin or battle file, else its first attachment, else the draft."""
    game = [f for f in files if f.endswith((".pbm", ".battle"))]
    return (game or files or [label.split("/", 1)[-1]])[0]


def sentence(item: tuple, who: dict) -> str:
    """``your file X to Austria (au@example.org) bounced: mailbox full (5.2.2); ...``."""
    label, files, rcpt, reason, action = item
    name = main_file(label, files)
    whom = who.get(rcpt.lower(), rcpt)
    if action == "delayed":
        return f"your file {name} to {whom} is delayed: {reason}; the servers keep trying"
    return (f"your file {name} to {whom} bounced: {reason}; when that is mended, "
            f"'eiapbem mail resend {name} --to {rcpt}'")


def open_bounces(home: Path) -> list[tuple]:
    """Every recorded bounce not yet answered by a resend to that recipient: (label, files, recipient, reason)."""
    import json

    try:
        data = json.loads((Path(home) / "mail" / "sent.json").read_bytes())
    except FileNotFoundError:
        return []
    except (OSError, ValueError) as err:
        raise EiaError(f"mail/sent.json cannot be read ({err})") from err
    out = []
    for key, e in sorted(data.get("sent", {}).items()):
        for rcpt, b in sorted(e.get("bounced", {}).items()):
            out.append((e.get("label", key.rsplit(":", 1)[0]), list(e.get("files", [])), rcpt, b.get("why", ""), "failed"))
    return out


def names_by_address(meta: SaveMeta | None) -> dict:
    """A player's address -> ``Austria (au@example.org)`` (nothing without the save's meta)."""
    from eiapbem.core.powers import POWER_NAMES

    out: dict = {}
    if meta is None:
        return out
    for p, row in meta.players.items():
        if row.email:
            out[row.email.lower()] = f"{POWER_NAMES.get(p, p)} ({row.email})"
    if meta.host.email:
        out.setdefault(meta.host.email.lower(), f"the host ({meta.host.email})")
    return out


def status_lines(home: Path, meta: SaveMeta) -> list[str]:
    """The bounces for ``eiapbem status``: one line each, until the file is sent again."""
    try:
        items = open_bounces(home)
    except (EiaError, AttributeError, TypeError):  # a damaged ledger is named by the mail commands, not by status
        return []
    who = names_by_address(meta)
    return ["Mail: " + sentence(i, who) for i in items]
