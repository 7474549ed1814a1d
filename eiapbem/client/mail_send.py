"""Sending the game's files through the player's SMTP server, each once, and again on demand (issue 22, issue 32).

What goes out is what the client already drafted: every ``.eml`` of
``commout/`` and (with a session) the folder's own battle files of
``battles/``.  ``mail/sent.json`` records, per draft or battle file
(``folder/name:hash``), each message sent (its ``Message-ID``, recipients, time
and tries) and the bounces read back for it (``mail_bounces``).

A message is marked sent only after the server's final answer, so a dropped
connection leaves it unsent and the next round sends it again.  When the
server's answer itself was lost, the same file can therefore arrive twice: a
receiver ignores the copy ("already loaded").  Every message gets an RFC 5322
``Date:`` and a fresh ``Message-ID:``; its size is checked against the
server's ``SIZE`` (or ``MAX_MESSAGE``) before it is sent.  A turn file the
chain no longer holds (the host's act took its slot while it waited here) is
withdrawn, said once, and never mailed on.
"""

from __future__ import annotations

import email
import email.policy
import hashlib
import smtplib
import ssl
import time
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.utils import format_datetime, getaddresses, make_msgid
from pathlib import Path
from typing import Any

from eiapbem.pbem import crypto, envelope
from eiapbem.pbem.email import BadAddress, Person, make_draft, subject_for
from eiapbem.pbem.errors import BadFile

from .mail_config import (RETRY_WAIT, TIMEOUT, TRIES, Ledger, MailConfig, MailError, cert_sentence, mail_dir, short_error,
                          temporary, tls_context)

#: The largest message sent when the server names no SIZE (most providers accept 25 MB).
MAX_MESSAGE = 25 * 1000 * 1000


@dataclass
class Outgoing:
    """One message to send: a draft of ``commout/`` or a battle file of ``battles/``."""

    key: str
    label: str
    message: EmailMessage
    recipients: list
    #: Why it cannot be sent at all (an unreadable draft), else "".
    error: str = ""
    #: The game files it carries (name, bytes).
    files: list = field(default_factory=list)


@dataclass
class SendReport:
    sent: list = field(default_factory=list)  # (label, recipients, tries)
    failed: list = field(default_factory=list)  # (label, sentence)
    warnings: list = field(default_factory=list)
    #: Drafts not sent because the chain no longer holds their file (label, sentence), each said once.
    withdrawn: list = field(default_factory=list)
    #: Tries beyond the first, over the round.
    retries: int = 0


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:32]


def _from_draft(path: Path) -> Outgoing:
    data = path.read_bytes()
    msg = email.message_from_bytes(data, _class=EmailMessage, policy=email.policy.SMTP)
    rcpts = [a for _, a in getaddresses(msg.get_all("To", []) + msg.get_all("Cc", [])) if a]
    if not rcpts:
        raise MailError(f"commout/{path.name} names no recipient")
    # The key is what the draft carries (a draft written again after a crash has new MIME boundaries).
    h = hashlib.sha256()
    files: list[tuple[str, Any]] = sorted((p.get_filename() or "", p.get_payload(decode=True) or b"")
                                          for p in msg.iter_attachments())
    for fname, payload in files or [("", (msg.get_body(("plain",)) or msg).get_payload(decode=True) or b"")]:
        h.update(fname.encode() + b"\x00" + hashlib.sha256(payload).digest())
    return Outgoing(f"commout/{path.name}:{h.hexdigest()[:32]}", f"commout/{path.name}", msg, rcpts,
                    files=[(n, d) for n, d in files if n])


def battle_outgoing(path: Path, session: Any, to_roles: list | None = None) -> Outgoing | None:
    """A battle file of this folder's power for the other side (4.2.7), or None when it is not ours to send."""
    data = path.read_bytes()
    try:
        h = envelope.parse(data, path.name).header
    except BadFile:
        return None
    if h.kind != "battle" or h.gid != session.contents.chain.gid or h.author not in session.local:
        return None
    to = [s.role for s in h.to if s.role not in session.local and s.role in session.meta.players]
    people = [session.person(r) for r in to]
    if not people:
        return None
    me = session.person(h.author)
    body = make_draft(me, people, subject_for(session.game, f"battle {path.stem}"), [path],
                      body="A battle file of our game of Empires in Arms is attached. Put it in your battles folder "
                           "and load it (4.2.7); 'eiapbem mail fetch' does both.\n")
    msg = email.message_from_bytes(body, _class=EmailMessage, policy=email.policy.SMTP)
    return Outgoing(f"battles/{path.name}:{_digest(data)}", f"battles/{path.name}", msg, [p.address for p in people],
                    files=[(path.name, data)])


def outgoing(home: Path, session: Any | None = None) -> list[Outgoing]:
    """Every draft of ``commout/`` and (with a session) every own battle file of ``battles/``, in name order."""
    home = Path(home)
    out = []
    commout = home / "commout"
    if commout.is_dir():
        for p in sorted(commout.iterdir()):
            if p.is_file() and p.name.endswith(".eml") and not p.name.startswith("."):
                try:
                    out.append(_from_draft(p))
                except (MailError, OSError, ValueError) as err:  # one bad draft stops no other
                    out.append(Outgoing(f"commout/{p.name}:unreadable", f"commout/{p.name}", EmailMessage(), [],
                                        error=f"not sent: the draft cannot be read ({err})"))
    bdir = home / "battles"
    if session is not None and bdir.is_dir():
        for p in sorted(bdir.iterdir()):
            if p.is_file() and p.suffix == ".battle":
                o = battle_outgoing(p, session)
                if o is not None:
                    out.append(o)
    return out


def sent_ledger(home: Path) -> Ledger:
    return Ledger(mail_dir(home) / "sent.json", {"sent": {}})


def unsent(home: Path, session: Any | None = None) -> list[Outgoing]:
    done = sent_ledger(home).data["sent"]
    return [o for o in outgoing(home, session) if o.key not in done]


def overtaken(o: Outgoing, session: Any) -> str:
    """Why a draft must not go out any more ("" when it may): its turn file of this folder is no longer in the chain.

    That is a file made while the host's act took its slot (the computer played it, or the host skipped it):
    the fork rule lets the host's act win (client/forks.py), and mailing the file on would only make every
    other folder name the fork.
    """
    from eiapbem.client import forks

    chain = session.contents.chain
    for name, data in o.files:
        if not name.endswith(".pbm"):
            continue
        try:
            env = envelope.parse(data, name)
        except BadFile:
            continue
        h = env.header
        if h.kind != "turn" or h.author not in session.local or h.gid != chain.gid or h.epoch != chain.epoch:
            continue
        if crypto.file_hash(env) in chain.known or h.prev not in chain.known:
            continue
        other = forks.accepted_after(session, h.prev, h.epoch)
        took = (f"the host's admin file {other.path.name} took {h.slot} first" if other is not None
                and other.header.kind == "admin" else f"the game went on without it from {h.slot}")
        return (f"not sent, and it will not be: {name} came too late, {took} (4.2.8: the host's act wins); "
                "your folder follows the host's file")
    return ""


def smtp_connect(cfg: MailConfig, password: str) -> smtplib.SMTP:
    """A logged-in SMTP connection; a certificate that does not verify raises the sentence that names the fix."""
    try:
        if cfg.smtp_tls == "ssl":
            smtp: smtplib.SMTP = smtplib.SMTP_SSL(cfg.smtp_host, cfg.smtp_port, timeout=TIMEOUT, context=tls_context(cfg))
        else:
            smtp = smtplib.SMTP(cfg.smtp_host, cfg.smtp_port, timeout=TIMEOUT)
            if cfg.smtp_tls == "starttls":
                try:
                    smtp.starttls(context=tls_context(cfg))
                except BaseException:
                    smtp.close()
                    raise
    except ssl.SSLCertVerificationError as err:
        raise cert_sentence(err, "SMTP", cfg.smtp_host, cfg.smtp_port, cfg) from err
    try:
        smtp.ehlo_or_helo_if_needed()
        if smtp.has_extn("auth"):
            smtp.login(cfg.user, password)
    except BaseException:
        smtp.close()
        raise
    return smtp


def _mb(n: int) -> str:
    return f"{n / 1e6:.1f} MB"


class TooBig(MailError):
    """A message over the server's size limit: it is not sent at all."""


@dataclass
class Sent:
    refused: dict
    message_id: str
    tries: int
    #: The first failure of a message that went through on a later try, else "".
    first_error: str = ""


def send_one(cfg: MailConfig, password: str, o: Outgoing, *, tries: int = TRIES, wait: float = RETRY_WAIT,
             to: list | None = None) -> Sent:
    """Send one message (to ``to``, else its recipients); temporary refusals are tried again; raises on failure."""
    msg = o.message
    rcpts = list(to if to is not None else o.recipients)
    del msg["From"]
    msg["From"] = Person(cfg.name, cfg.address).checked()  # providers refuse any other sender
    del msg["Date"]
    msg["Date"] = format_datetime(_utcnow())
    del msg["Message-ID"]
    msg["Message-ID"] = make_msgid(domain=cfg.address.split("@")[1])  # the same on each try of this message
    if to is not None:
        del msg["To"]
        msg["To"] = ", ".join(rcpts)
    last: BaseException | None = None
    first = ""
    for attempt in range(max(1, tries)):
        if attempt:
            time.sleep(wait)
        try:
            smtp = smtp_connect(cfg, password)
            try:
                size = len(msg.as_bytes())
                limit = int(smtp.esmtp_features.get("size", "0") or 0) if smtp.has_extn("size") else 0
                if size > (limit or MAX_MESSAGE):
                    where = (f"the {_mb(limit)} the SMTP server {cfg.smtp_host} accepts (its SIZE limit)" if limit
                             else f"the {_mb(MAX_MESSAGE)} eiapbem sends when a server names no limit")
                    raise TooBig(f"not sent: it is {_mb(size)}, over {where}",
                                 hint="send the file another way (a file-sharing link), or ask for a smaller file")
                refused = smtp.send_message(msg, from_addr=cfg.address, to_addrs=rcpts)
            finally:
                try:
                    smtp.quit()
                except (smtplib.SMTPException, OSError):
                    smtp.close()
            return Sent(refused, str(msg["Message-ID"]), attempt + 1, first)
        except (smtplib.SMTPException, OSError) as err:
            last = err
            first = first or short_error(err)
            if not temporary(err):
                break
    assert last is not None
    raise last


def _utcnow() -> Any:
    import datetime

    return datetime.datetime.now(datetime.timezone.utc)


def _down(err: BaseException) -> bool:
    """A failure of the server or the account rather than of one message: the round's other messages wait too."""
    if isinstance(err, (MailError, smtplib.SMTPAuthenticationError, smtplib.SMTPConnectError)):
        return not isinstance(err, TooBig)
    return isinstance(err, OSError) and not isinstance(err, smtplib.SMTPResponseException)


def _record(entry: dict, o: Outgoing, s: Sent, rcpts: list, why: str = "") -> None:
    stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    entry.setdefault("to", rcpts)
    entry.setdefault("at", stamp)
    entry["label"] = o.label
    entry["files"] = [n for n, _ in o.files]
    entry.setdefault("sends", []).append({"message_id": s.message_id, "to": rcpts, "at": stamp, "tries": s.tries,
                                          **({"why": why} if why else {})})
    bounced = entry.get("bounced", {})
    for r in rcpts:  # a resend answers that recipient's bounce
        bounced.pop(r, None)
    if "bounced" in entry:
        entry["bounced"] = bounced


def send_all(home: Path, cfg: MailConfig, password: str, session: Any | None = None, *, tries: int = TRIES,
             wait: float = RETRY_WAIT) -> SendReport:
    """Send every unsent draft and battle file; each is marked sent once the server took it."""
    rep = SendReport()
    ledger = sent_ledger(home)
    down = ""
    for o in outgoing(home, session):
        if o.key in ledger.data["sent"]:
            continue
        if o.error:
            rep.failed.append((o.label, o.error))
            continue
        why = overtaken(o, session) if session is not None else ""
        if why:
            ledger.data["sent"][o.key] = {"to": [], "at": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
                                          "label": o.label, "withdrawn": why}
            ledger.write()
            rep.withdrawn.append((o.label, why))
            continue
        if down:
            rep.failed.append((o.label, f"not sent, left for the next try: {down}"))
            continue
        try:
            s = send_one(cfg, password, o, tries=tries, wait=wait)
        except (smtplib.SMTPException, OSError, MailError) as err:
            text = short_error(err)
            if isinstance(err, TooBig):
                rep.failed.append((o.label, f"{err}; {err.hint}" if err.hint else str(err)))
            elif isinstance(err, MailError) and err.hint:
                rep.failed.append((o.label, f"not sent: {text} ({err.hint})"))
            else:
                rep.failed.append((o.label, f"not sent, left for the next try: {text}"))
            rep.retries += max(0, tries - 1) if temporary(err) else 0
            if _down(err):
                down = text
            continue
        except BadAddress as err:
            rep.failed.append((o.label, f"not sent: {err}"))
            continue
        rep.retries += s.tries - 1
        _record(ledger.data["sent"].setdefault(o.key, {}), o, s, o.recipients)
        ledger.write()
        rep.sent.append((o.label, [r for r in o.recipients if r not in s.refused], s.tries, s.first_error))
        for r, (code, text) in sorted(s.refused.items()):
            line = text.decode("utf-8", "replace").splitlines()[0] if text else ""
            rep.warnings.append(f"{o.label}: {r} was refused ({code} {line[:100]}); send it to them another way")
    return rep


def mark_all_sent(home: Path, session: Any | None = None) -> int:
    """Mark every current draft as sent without sending (files already sent by hand)."""
    ledger = sent_ledger(home)
    n = 0
    for o in outgoing(home, session):
        if o.key not in ledger.data["sent"] and not o.error:
            ledger.data["sent"][o.key] = {"to": o.recipients, "at": "marked by hand", "label": o.label,
                                          "files": [n for n, _ in o.files]}
            n += 1
    ledger.write()
    return n


# ----------------------------------------------------------------- sending again


def _roles_of(session: Any) -> dict:
    """Each player's address -> the roles it plays (the host's address plays ``host`` too)."""
    meta = session.meta
    out: dict = {}
    for p, row in meta.players.items():
        if row.email:
            out.setdefault(row.email.lower(), set()).add(p)
    out.setdefault(meta.host.email.lower(), set()).add("host")
    return out


def address_of(session: Any, who: str) -> str:
    """A power's code, ``host`` or a player's address -> the address to send to; anyone else is refused."""
    meta = session.meta
    if who == "host":
        return meta.host.email
    if who.upper() in meta.players:
        row = meta.players[who.upper()]
        if row.type not in ("client", "host") or not row.email:
            raise MailError(f"{who.upper()} is not played by email in this game")
        return row.email
    if who.lower() in _roles_of(session):
        return who
    raise MailError(f"{who!r} is neither a power of this game nor a player's address",
                    hint="name the power (e.g. AU) or its player's address")


def _latest_by_author(session: Any) -> dict:
    """Each author's newest file loaded here: role -> (epoch, seq)."""
    out: dict = {}
    done = session.folders.commin / "done"
    for p in sorted(done.glob(f"{session.game}_*.pbm")) if done.is_dir() else []:
        try:
            h = envelope.parse(p.read_bytes(), p.name).header
        except (BadFile, OSError):
            continue
        out[h.author] = max(out.get(h.author, (-1, -1)), (h.epoch, h.seq))
    return out


def _kept_file(home: Path, name: str) -> Path | None:
    for d in ("commout", "commout/sent", "battles"):
        p = Path(home) / d / name
        if p.is_file():
            return p
    return None


def _rebuilt(home: Path, cfg: MailConfig, session: Any, key: str, entry: dict) -> Outgoing | None:
    """The message again, from the draft or battle file still here, or from the file kept in commout/sent/."""
    for o in outgoing(home, session):
        if o.key == key:
            return o
    paths = [_kept_file(home, n) for n in entry.get("files", [])]
    if not paths or any(p is None for p in paths):
        return None
    me = Person(cfg.name, cfg.address)
    to = [Person(a.split("@")[0], a) for a in entry.get("to", [])] or [me]
    found = [p for p in paths if p is not None]
    body = make_draft(me, to, subject_for(session.game, f"sent again {found[0].name}"), found,
                      body="Files for our game of Empires in Arms, sent again. If you have them already, "
                           "eiapbem ignores the copy.\n")
    msg = email.message_from_bytes(body, _class=EmailMessage, policy=email.policy.SMTP)
    return Outgoing(key, entry.get("label", key.split(":")[0]), msg, list(entry.get("to", [])),
                    files=[(p.name, p.read_bytes()) for p in found])


def _matches(key: str, entry: dict, name: str) -> bool:
    label = entry.get("label", key.rsplit(":", 1)[0])
    base = label.split("/", 1)[-1]
    return name in (label, base, base.removesuffix(".eml")) or name in entry.get("files", [])


def unanswered(home: Path, session: Any) -> list[tuple[str, list]]:
    """(key, addresses) of each file sent whose recipient the game now waits for and who has not answered it.

    A turn or admin file is answered by a recipient once a file of theirs that comes later in the chain has
    been loaded here; a battle file, once a newer battle file of the same battle has come from them.
    """
    entries = sent_ledger(home).data["sent"]
    awaited = {p for p, _ in session.awaited()}
    roles = _roles_of(session)
    latest = _latest_by_author(session)
    bdir = Path(home) / "battles"
    out = []
    for key, e in entries.items():
        if e.get("withdrawn") or not e.get("sends") or not e.get("files"):
            continue
        name = e["files"][0]
        path = _kept_file(home, name)
        if path is None:
            continue
        try:
            h = envelope.parse(path.read_bytes(), name).header
        except (BadFile, OSError):
            continue
        if h.gid != session.contents.chain.gid or h.author not in session.local:
            continue
        owed = []
        for addr in e["sends"][-1]["to"]:
            who = roles.get(addr.lower(), set())
            if h.kind == "battle":
                stem = name.rsplit("-", 1)[0]
                newer = [p for p in bdir.glob(stem + "-*.battle") if p.stat().st_mtime > path.stat().st_mtime]
                answered = any(_author(p) in who for p in newer)
                if not answered:
                    owed.append(addr)
            elif h.kind in ("turn", "admin") and h.epoch == session.contents.chain.epoch and who & awaited:
                if all(latest.get(r, (-1, -1)) <= (h.epoch, h.seq) for r in who):
                    owed.append(addr)
        if owed:
            out.append((key, owed))
    return out


def _author(p: Path) -> str:
    try:
        return envelope.parse(p.read_bytes(), p.name).header.author
    except (BadFile, OSError):
        return ""


def resend(home: Path, cfg: MailConfig, password: str, session: Any, *, name: str | None = None, to: str | None = None,
           only_unanswered: bool = False, tries: int = TRIES, wait: float = RETRY_WAIT) -> SendReport:
    """Send a file sent before again: one file (``name``), to one recipient (``to``) or to all it went to, or
    every file not yet answered.  Each send is a new message, recorded beside the first."""
    ledger = sent_ledger(home)
    entries = ledger.data["sent"]
    target = address_of(session, to) if to else None
    if name is not None:
        keys = [k for k, e in entries.items() if _matches(k, e, name) and not e.get("withdrawn")]
        if not keys:
            raise MailError(f"no file named {name} was sent from this folder",
                            hint="'eiapbem mail resend --unanswered' sends again every file not yet answered")
        jobs = [(keys[-1], [target] if target else list(entries[keys[-1]].get("to", [])))]
    elif only_unanswered:
        jobs = [(k, [target] if target else owed) for k, owed in unanswered(home, session)
                if target is None or target.lower() in (a.lower() for a in owed)]
    else:
        raise MailError("say which file to send again, or --unanswered for every file not yet answered")
    rep = SendReport()
    for key, rcpts in jobs:
        entry = entries[key]
        o = _rebuilt(home, cfg, session, key, entry)
        label = entry.get("label", key.rsplit(":", 1)[0])
        if o is None:
            rep.failed.append((label, "not sent again: neither its draft nor its file is in this folder any more"))
            continue
        try:
            s = send_one(cfg, password, o, tries=tries, wait=wait, to=rcpts)
        except (smtplib.SMTPException, OSError, MailError) as err:
            rep.failed.append((label, f"not sent again: {short_error(err)}"))
            if _down(err):
                break
            continue
        rep.retries += s.tries - 1
        _record(entry, o, s, rcpts, why="resent")
        ledger.write()
        rep.sent.append((label, [r for r in rcpts if r not in s.refused], s.tries, s.first_error))
    return rep
