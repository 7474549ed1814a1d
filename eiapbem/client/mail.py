"""Play by email for real: the player's own SMTP and IMAP account (issue 22, issue 32; 4.2.2-4.2.7 ``000:106-176``).

The client already writes an ``.eml`` draft beside every file it puts in
``commout/`` (``pbem/email.py``).  The mail modules send those drafts and the
battle files of ``battles/`` through the player's SMTP server, and fetch the
game's files from an IMAP folder, with the standard library only:

``mail_config``   the account: set-up, password, TLS trust (``--ca-file``), servers' failures in one sentence
``mail_send``     sending each file once, the size limit, retries, ``mail resend``, withdrawn late files
``mail_fetch``    fetching in bounded memory, which attachment goes where, forged mail said once
``mail_bounces``  bounces and delay notices read back and matched to the file they carry

This module loads what a fetch saved (battle files around the turn files),
tells a file that is only early ("waiting") from one refused, and names a
player's file that came after the host's act took its slot; and it writes the
plain notices the host's ladder mails.
"""

from __future__ import annotations

import email
import email.policy
import re
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from pathlib import Path
from typing import Any

from eiapbem.core.errors import EiaError
from eiapbem.pbem import atomic, crypto, envelope
from eiapbem.pbem.email import BadAddress, Person
from eiapbem.pbem.errors import BadFile, OutOfOrder

from .mail_fetch import FetchReport


@dataclass
class LoadReport:
    """What loading the fetched files did."""

    loaded: list = field(default_factory=list)  # (name, slot)
    refused: list = field(default_factory=list)  # (name, sentence)
    #: Files whose predecessors have not arrived yet: kept in commin/ and loaded when they come (name, sentence).
    waiting: list = field(default_factory=list)
    #: Players' files that came after the host's act took their slot (name, author, slot, sentence).
    late: list = field(default_factory=list)
    #: Notes on battle files (name, sentence), not refusals.
    notes: list = field(default_factory=list)


def _battle_role(session: Any, p: Path) -> str:
    """Why this session cannot load the battle file ``p`` ("" when it can)."""
    try:
        sealed_for = [st.role for st in envelope.parse(p.read_bytes(), p.name).header.to]
    except (BadFile, OSError) as err:
        return str(err)
    if session.power in sealed_for:
        return ""
    role = next((r for r in sealed_for if r in session.local), sealed_for[0] if sealed_for else "?")
    return (f"it is a battle file for {role}: load it as {role} with 'eiapbem load battles/{p.name} --power {role}' "
            f"(or run 'eiapbem mail sync --power {role}')")


def _early(session: Any, name: str) -> str:
    """Why a file still in commin/ is only early ("" when it is not): what it follows has not arrived."""
    p = session.folders.commin / name
    try:
        h = envelope.parse(p.read_bytes(), name).header
    except (BadFile, OSError):
        return ""
    chain = session.contents.chain
    if h.gid != chain.gid or h.epoch < chain.epoch or h.prev in chain.known:
        return ""
    return "a file it follows has not arrived yet; it stays in commin/ and loads when that file comes"


def _late(session: Any, name: str) -> tuple[str, str, str] | None:
    """(author, slot, sentence) when ``name`` is a player's turn file whose slot the host's act took first."""
    from eiapbem.client import forks

    for p in (session.folders.commin / name, session.folders.commin / "refused" / name,
              session.folders.commin / "done" / name):
        if not p.is_file():
            continue
        try:
            env = envelope.parse(p.read_bytes(), name)
        except (BadFile, OSError):
            return None
        h = env.header
        known = session.contents.chain.known
        if h.kind != "turn" or h.author in session.local or h.prev not in known or crypto.file_hash(env) in known:
            return None
        other = forks.accepted_after(session, h.prev, h.epoch)
        if other is None or other.header.kind != "admin":
            return None
        return h.author, h.slot, (f"{h.author}'s file for {h.slot} came after the host's admin file {other.path.name} "
                                  "took that slot (4.2.8: the host's act wins); it is not used, and nothing is to do")
    return None


def load_fetched(session: Any, rep: FetchReport) -> LoadReport:
    """The battle files just fetched (4.2.7) and the same load as ``eiapbem load`` (commin/).

    A battle file of the slot in play must come before the turn file that ends
    the slot, and one of the next slot after it: battle files are tried before
    and again after the turn files.  One still out of order then belongs to a
    slot already over, whose turn file carries the whole battle: it is noted,
    not refused.
    """
    out = LoadReport()
    later = []
    for p in rep.battles:
        why = _battle_role(session, p)
        if why:
            out.refused.append((p.name, why))
            continue
        later.append(p)
    r = None
    for round_ in (0, 1):
        waiting, later = later, []
        for p in waiting:
            before = session.save_snapshot()
            try:
                out.loaded.append((p.name, session.load_path(p)))
            except OutOfOrder as err:
                session.restore_snapshot(before)
                if round_ == 0:
                    later.append(p)
                else:
                    out.notes.append((p.name, f"not loaded: its slot is over and the turn file that ended it carries "
                                              f"the battle ({err})"))
            except EiaError as err:
                session.restore_snapshot(before)
                out.refused.append((p.name, str(err)))
        if r is None:
            r = session.load_all()
            for n, s in r.loaded:  # a player's file the host's act, loaded after it in this round, took back
                late = _late(session, n)
                if late:
                    out.late.append((n, *late))
                else:
                    out.loaded.append((n, s))
            for n, why in r.refused:
                late = _late(session, n)
                early = "" if late else _early(session, n)
                if late:
                    out.late.append((n, *late))
                elif early:
                    out.waiting.append((n, early))
                else:
                    out.refused.append((n, why))
    return out


def notice_draft(home: Path, game: str, name: str, sender: Person, to: list, subject: str, body: str) -> Path:
    """A draft with no attachment in ``commout/`` (a lateness reminder), sent by the next ``mail send``."""
    if re.search(r"[\x00-\x1f\x7f]", subject):
        raise BadAddress("a subject cannot hold a line break")
    msg = EmailMessage(policy=email.policy.SMTP)
    msg["From"] = sender.checked()
    msg["To"] = [p.checked() for p in to]
    msg["Subject"] = subject
    msg["Date"] = format_datetime(_utcnow())
    msg["Message-ID"] = make_msgid(domain=sender.address.split("@")[-1])
    msg.set_content(body)
    path = Path(home) / "commout" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic.write_atomic(path, msg.as_bytes())
    return path


def _utcnow() -> Any:
    import datetime

    return datetime.datetime.now(datetime.timezone.utc)


def set_draft_body(path: Path, text: str) -> None:
    """Put ``text`` in a draft's message body (the announcement of a lateness step)."""
    msg = email.message_from_bytes(path.read_bytes(), _class=EmailMessage, policy=email.policy.SMTP)
    body = msg.get_body(("plain",))
    if body is None:
        return
    body.set_content(text)
    atomic.write_atomic(path, msg.as_bytes())
