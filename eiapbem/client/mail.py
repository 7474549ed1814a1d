"""Play by email for real: the player's own SMTP and IMAP account (issue 22; 4.2.2-4.2.7 ``000:106-176``).

The client already writes an ``.eml`` draft beside every file it puts in
``commout/`` (``pbem/email.py``).  This module sends those drafts, and the
battle files of ``battles/``, through the player's SMTP server, and fetches the
game's files from an IMAP folder into ``commin/`` (turn and admin files) and
``battles/`` (battle files), with the standard library's ``smtplib``,
``imaplib`` and ``email`` only.

What is kept in the home folder's ``mail/`` folder, each file written atomically:

``config.json``   servers, ports, TLS modes, user name, the player's address; never a password
``sent.json``     what has gone out: ``folder/name:sha256-prefix`` of each draft or battle file
``fetched.json``  per game and IMAP folder (and its UIDVALIDITY): the message UIDs already handled

A file is marked sent only after the server accepted it, so a dropped
connection leaves it unsent and the next ``mail send`` tries it again; a file
already marked is never sent twice.  Fetching looks only at attachments whose
clear header (``pbem/envelope.py``) names the game played here and whose
signature is good under the game's roster; every other message is left as it
was (unread), and fetching twice saves nothing new.
"""

from __future__ import annotations

import email
import email.policy
import hashlib
import imaplib
import json
import os
import re
import smtplib
import socket
import ssl
import time
from dataclasses import asdict, dataclass, field
from email.message import EmailMessage
from email.utils import getaddresses, make_msgid
from pathlib import Path
from typing import Any, Callable, Iterable

from eiapbem.core.errors import EiaError
from eiapbem.pbem import atomic, crypto, envelope, folders, headers
from eiapbem.pbem.email import BadAddress, Person, make_draft, subject_for
from eiapbem.pbem.errors import BadFile, OutOfOrder

#: The mail password from the environment (tests, unattended hosts); never stored by eiapbem.
PASSWORD_ENV = "EIAPBEM_MAIL_PASSWORD"
KEYRING_SERVICE = "eiapbem-mail"
TLS_MODES = ("ssl", "starttls", "none")
LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1")
#: How often a temporary refusal (4xx, a dropped connection) is tried again, and the wait between.
TRIES = 3
RETRY_WAIT = 5.0
TIMEOUT = 60.0
#: Attachments eiapbem fetches: turn/admin files to commin/, battle files to battles/.
GAME_SUFFIXES = (".pbm", ".battle")
_NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9 ._-]{0,150}\Z")


class MailError(EiaError):
    """The mail set-up is missing or wrong, or a server refused us."""


# ----------------------------------------------------------------- configuration


@dataclass(frozen=True)
class MailConfig:
    """One home folder's mail account (``mail/config.json``); the password is never part of it."""

    address: str
    name: str
    user: str
    smtp_host: str
    smtp_port: int
    smtp_tls: str
    imap_host: str
    imap_port: int
    imap_tls: str
    folder: str = "INBOX"
    move_to: str = ""

    def check(self) -> "MailConfig":
        Person(self.name, self.address).checked()
        for what, host, port, tls in (("SMTP", self.smtp_host, self.smtp_port, self.smtp_tls),
                                      ("IMAP", self.imap_host, self.imap_port, self.imap_tls)):
            if not isinstance(host, str) or not re.fullmatch(r"[A-Za-z0-9.:-]{1,253}", host):
                raise MailError(f"the {what} server {host!r} is not a host name")
            if not isinstance(port, int) or not 0 < port < 65536:
                raise MailError(f"the {what} port {port!r} is not a port number (1-65535)")
            if tls not in TLS_MODES:
                raise MailError(f"the {what} TLS mode {tls!r} is not one of {', '.join(TLS_MODES)}")
            if tls == "none" and host not in LOCAL_HOSTS:
                raise MailError(f"mail without TLS is allowed only to this computer (localhost), not to {host}",
                                hint="use --smtp-tls ssl or starttls (and the same for IMAP)")
        for what, box in (("folder", self.folder), ("move-to folder", self.move_to)):
            if not isinstance(box, str) or re.search(r"[\x00-\x1f\x7f\"\\]", box) or len(box) > 200:
                raise MailError(f"the IMAP {what} {box!r} has a quote, backslash or control character")
        if not self.user or re.search(r"[\x00-\x1f\x7f]", self.user):
            raise MailError("the mail user name is empty or has a control character")
        return self


def mail_dir(home: Path) -> Path:
    return Path(home) / "mail"


def _read_json(path: Path, default: Any) -> Any:
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return default
    except OSError as err:
        raise MailError(f"{path.name} could not be read ({err.strerror})") from err
    try:
        return json.loads(raw)
    except ValueError as err:
        raise MailError(f"mail/{path.name} is not valid JSON; fix or delete it") from err


def _write_json(path: Path, obj: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic.write_atomic(path, json.dumps(obj, indent=1, sort_keys=True).encode())


def save_config(home: Path, cfg: MailConfig) -> Path:
    cfg.check()
    path = mail_dir(home) / "config.json"
    _write_json(path, asdict(cfg))
    return path


def load_config(home: Path) -> MailConfig:
    raw = _read_json(mail_dir(home) / "config.json", None)
    if raw is None:
        raise MailError(f"{Path(home).resolve()} has no mail set-up", hint="run 'eiapbem mail setup' first")
    try:
        return MailConfig(**raw).check()
    except TypeError as err:
        raise MailError("mail/config.json is not a mail set-up of this version; run 'eiapbem mail setup' again") from err


def keyring_module() -> Any:
    try:
        import keyring  # optional: the system keyring when one exists
    except ImportError:
        return None
    return keyring


def keyring_password(cfg: MailConfig) -> str | None:
    kr = keyring_module()
    if kr is None:
        return None
    try:
        return kr.get_password(KEYRING_SERVICE, f"{cfg.user}@{cfg.imap_host}")
    except Exception:  # a keyring backend that cannot answer is the same as none
        return None


def store_in_keyring(cfg: MailConfig, password: str) -> bool:
    kr = keyring_module()
    if kr is None:
        return False
    try:
        kr.set_password(KEYRING_SERVICE, f"{cfg.user}@{cfg.imap_host}", password)
    except Exception:
        return False
    return True


def find_password(cfg: MailConfig, prompt: Callable[[], str] | None = None) -> str:
    """The mail password: ``EIAPBEM_MAIL_PASSWORD``, the system keyring, or ``prompt``."""
    pw = os.environ.get(PASSWORD_ENV) or keyring_password(cfg)
    if pw:
        return pw
    if prompt is None:
        raise MailError(f"no mail password: set {PASSWORD_ENV} or store it in the system keyring ('eiapbem mail setup --keyring')")
    return prompt()


# ----------------------------------------------------------------- ledgers


class Ledger:
    """A small JSON record in ``mail/``, written atomically after every change."""

    def __init__(self, path: Path, default: Any) -> None:
        self.path = path
        self.data = _read_json(path, default)

    def write(self) -> None:
        _write_json(self.path, self.data)


def _short_error(err: BaseException) -> str:
    """A server's error as one sentence: its code and the first line of its text."""
    if isinstance(err, smtplib.SMTPResponseException):
        text = err.smtp_error.decode("utf-8", "replace") if isinstance(err.smtp_error, bytes) else str(err.smtp_error)
        first = text.strip().splitlines()[0] if text.strip() else ""
        return f"the server answered {err.smtp_code} {first[:160]}".rstrip()
    if isinstance(err, smtplib.SMTPRecipientsRefused):
        parts = []
        for rcpt, (code, msg) in sorted(err.recipients.items()):
            line = msg.decode("utf-8", "replace").strip().splitlines()[0] if msg else ""
            parts.append(f"{rcpt}: {code} {line[:100]}".rstrip())
        return "the server refused " + "; ".join(parts)
    text = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
    return f"{type(err).__name__}: {text[:160]}"


def _temporary(err: BaseException) -> bool:
    if isinstance(err, smtplib.SMTPRecipientsRefused):
        return all(400 <= code < 500 for code, _ in err.recipients.values())
    if isinstance(err, smtplib.SMTPResponseException):
        return 400 <= err.smtp_code < 500
    return isinstance(err, (smtplib.SMTPServerDisconnected, ConnectionError, socket.timeout, TimeoutError))


# ----------------------------------------------------------------- sending


@dataclass
class Outgoing:
    """One message to send: a draft of ``commout/`` or a battle file of ``battles/``."""

    key: str
    label: str
    message: EmailMessage
    recipients: list
    #: Why it cannot be sent at all (an unreadable draft), else "".
    error: str = ""


@dataclass
class SendReport:
    sent: list = field(default_factory=list)  # (label, recipients)
    failed: list = field(default_factory=list)  # (label, sentence)
    warnings: list = field(default_factory=list)


def _digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:32]


def _from_draft(path: Path, cfg: MailConfig) -> Outgoing:
    data = path.read_bytes()
    msg = email.message_from_bytes(data, _class=EmailMessage, policy=email.policy.SMTP)
    rcpts = [a for _, a in getaddresses(msg.get_all("To", []) + msg.get_all("Cc", [])) if a]
    if not rcpts:
        raise MailError(f"commout/{path.name} names no recipient")
    # The key is what the draft carries (a draft written again after a crash has new MIME boundaries).
    h = hashlib.sha256()
    parts = sorted((p.get_filename() or "", p.get_payload(decode=True) or b"") for p in msg.iter_attachments())
    for fname, payload in parts or [("", (msg.get_body(("plain",)) or msg).get_payload(decode=True) or b"")]:
        h.update(fname.encode() + b"\x00" + hashlib.sha256(payload).digest())
    return Outgoing(f"commout/{path.name}:{h.hexdigest()[:32]}", f"commout/{path.name}", msg, rcpts)


def battle_outgoing(path: Path, session: Any) -> Outgoing | None:
    """A battle file of this folder's power for the other side (4.2.7), or None when it is not ours to send."""
    data = path.read_bytes()
    try:
        h = envelope.parse(data, path.name).header
    except BadFile:
        return None
    if h.kind != "battle" or h.gid != session.contents.chain.gid or h.author not in session.local:
        return None
    to = [s.role for s in h.to if s.role not in session.local and s.role in session.data.meta["players"]]
    people = [session.person(r) for r in to]
    if not people:
        return None
    me = session.person(h.author)
    body = make_draft(me, people, subject_for(session.game, f"battle {path.stem}"), [path],
                      body="A battle file of our game of Empires in Arms is attached. Put it in your battles folder "
                           "and load it (4.2.7); 'eiapbem mail fetch' does both.\n")
    msg = email.message_from_bytes(body, _class=EmailMessage, policy=email.policy.SMTP)
    return Outgoing(f"battles/{path.name}:{_digest(data)}", f"battles/{path.name}", msg, [p.address for p in people])


def outgoing(home: Path, cfg: MailConfig, session: Any | None = None) -> list[Outgoing]:
    """Every draft of ``commout/`` and (with a session) every own battle file of ``battles/``, in name order."""
    home = Path(home)
    out = []
    commout = home / "commout"
    if commout.is_dir():
        for p in sorted(commout.iterdir()):
            if p.is_file() and p.name.endswith(".eml") and not p.name.startswith("."):
                try:
                    out.append(_from_draft(p, cfg))
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


def unsent(home: Path, cfg: MailConfig, session: Any | None = None) -> list[Outgoing]:
    done = sent_ledger(home).data["sent"]
    return [o for o in outgoing(home, cfg, session) if o.key not in done]


def smtp_connect(cfg: MailConfig, password: str) -> smtplib.SMTP:
    if cfg.smtp_tls == "ssl":
        smtp: smtplib.SMTP = smtplib.SMTP_SSL(cfg.smtp_host, cfg.smtp_port, timeout=TIMEOUT,
                                              context=ssl.create_default_context())
    else:
        smtp = smtplib.SMTP(cfg.smtp_host, cfg.smtp_port, timeout=TIMEOUT)
        if cfg.smtp_tls == "starttls":
            smtp.starttls(context=ssl.create_default_context())
    try:
        smtp.ehlo_or_helo_if_needed()
        if smtp.has_extn("auth"):
            smtp.login(cfg.user, password)
    except BaseException:
        smtp.close()
        raise
    return smtp


def send_one(cfg: MailConfig, password: str, o: Outgoing, *, tries: int = TRIES, wait: float = RETRY_WAIT) -> dict:
    """Send one message; temporary refusals are tried again up to ``tries`` times; raises on failure."""
    msg = o.message
    del msg["From"]
    msg["From"] = Person(cfg.name, cfg.address).checked()  # providers refuse any other sender
    if msg["Message-ID"] is None:
        msg["Message-ID"] = make_msgid(domain=cfg.address.split("@")[1])
    last: BaseException | None = None
    for attempt in range(max(1, tries)):
        if attempt:
            time.sleep(wait)
        try:
            smtp = smtp_connect(cfg, password)
            try:
                refused = smtp.send_message(msg, from_addr=cfg.address, to_addrs=o.recipients)
            finally:
                try:
                    smtp.quit()
                except (smtplib.SMTPException, OSError):
                    smtp.close()
            return refused
        except (smtplib.SMTPException, OSError) as err:
            last = err
            if not _temporary(err):
                break
    assert last is not None
    raise last


def send_all(home: Path, cfg: MailConfig, password: str, session: Any | None = None, *, tries: int = TRIES,
             wait: float = RETRY_WAIT) -> SendReport:
    """Send every unsent draft and battle file; each is marked sent once the server took it."""
    rep = SendReport()
    ledger = sent_ledger(home)
    for o in outgoing(home, cfg, session):
        if o.key in ledger.data["sent"]:
            continue
        if o.error:
            rep.failed.append((o.label, o.error))
            continue
        try:
            refused = send_one(cfg, password, o, tries=tries, wait=wait)
        except (smtplib.SMTPException, OSError) as err:
            rep.failed.append((o.label, f"not sent, left for the next try: {_short_error(err)}"))
            continue
        except BadAddress as err:
            rep.failed.append((o.label, f"not sent: {err}"))
            continue
        ledger.data["sent"][o.key] = {"to": o.recipients, "at": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}
        ledger.write()
        rep.sent.append((o.label, [r for r in o.recipients if r not in refused]))
        for r, (code, text) in sorted(refused.items()):
            line = text.decode("utf-8", "replace").splitlines()[0] if text else ""
            rep.warnings.append(f"{o.label}: {r} was refused ({code} {line[:100]}); send it to them another way")
    return rep


def mark_all_sent(home: Path, cfg: MailConfig, session: Any | None = None) -> int:
    """Mark every current draft as sent without sending (files already sent by hand)."""
    ledger = sent_ledger(home)
    n = 0
    for o in outgoing(home, cfg, session):
        if o.key not in ledger.data["sent"] and not o.error:
            ledger.data["sent"][o.key] = {"to": o.recipients, "at": "marked by hand"}
            n += 1
    ledger.write()
    return n


# ----------------------------------------------------------------- fetching


@dataclass
class FetchReport:
    saved: list = field(default_factory=list)  # (folder/name, sentence)
    ignored: list = field(default_factory=list)  # (what, why)
    messages: int = 0
    battles: list = field(default_factory=list)  # paths of battle files saved (to load)


def imap_connect(cfg: MailConfig, password: str) -> imaplib.IMAP4:
    try:
        if cfg.imap_tls == "ssl":
            imap: imaplib.IMAP4 = imaplib.IMAP4_SSL(cfg.imap_host, cfg.imap_port, ssl_context=ssl.create_default_context(),
                                                    timeout=TIMEOUT)
        else:
            imap = imaplib.IMAP4(cfg.imap_host, cfg.imap_port, timeout=TIMEOUT)
            if cfg.imap_tls == "starttls":
                imap.starttls(ssl_context=ssl.create_default_context())
        imap.login(cfg.user, password)
    except imaplib.IMAP4.error as err:
        raise MailError(f"the IMAP server {cfg.imap_host} refused the login of {cfg.user}: {_short_error(err)}") from err
    except OSError as err:
        raise MailError(f"the IMAP server {cfg.imap_host}:{cfg.imap_port} cannot be reached: {_short_error(err)}",
                        hint="check 'eiapbem mail setup' and the network; nothing was fetched") from err
    return imap


def _quote(box: str) -> str:
    return '"' + box + '"'


def _check(typ: str, data: Any, what: str) -> Any:
    if typ != "OK":
        first = data[0].decode("utf-8", "replace") if data and isinstance(data[0], bytes) else str(data)
        raise MailError(f"the IMAP server refused {what}: {first.splitlines()[0][:160] if first else typ}")
    return data


def classify(name: str, data: bytes, session: Any, join: str | None = None) -> tuple[str, str]:
    """Where an attachment goes: ("commin"|"battles", "") or ("", why it is ignored)."""
    if not _NAME_RE.match(name) or ".." in name:
        return "", "its name is not a plain file name"
    if join is not None and session is None:
        if name in (f"{join}_gamestart.pbm",) or (name.startswith(join + "_") and name.endswith(".key")):
            try:
                h = envelope.parse(data, name).header
            except BadFile as err:
                return "", str(err)
            if h.game == join and h.kind in ("gamestart", "identity"):
                return "commin", ""
        return "", "it is not the gamestart or key file of the game to join"
    if session is None or not name.endswith(GAME_SUFFIXES):
        return "", "it is not a file of a game played here"
    try:
        env = envelope.parse(data, name)
    except BadFile as err:
        return "", str(err)
    h = env.header
    chain = session.contents.chain
    if h.gid != chain.gid:
        return "", f"it belongs to another game ({h.game})"
    if h.kind == "gamestart":
        return ("have", "") if crypto.file_hash(env) in chain.known else ("", "it is not this game's gamestart")
    if h.author in session.local:
        return "", "it is this folder's own file"
    want = "battles" if h.kind == "battle" else "commin" if h.kind in ("turn", "admin") else ""
    if not want or (want == "battles") != name.endswith(".battle"):
        return "", f"a {h.kind} file is not fetched by mail"
    try:
        crypto.verify_with_roster(env, dict(chain.roster), name)
    except BadFile as err:
        return "", f"forged or damaged: {err}"
    return want, ""


def classify_backup(name: str, sav: bytes, dat: bytes | None, session: Any) -> tuple[str, str]:
    """A host's backup for a role played here (4.2.8, 000:220): ("save", "") or ("", why it is ignored)."""
    try:
        env = envelope.parse(sav, name, max_size=envelope.MAX_SAV)
    except BadFile as err:
        return "", str(err)
    h = env.header
    chain = session.contents.chain
    if h.gid != chain.gid:
        return "", f"it belongs to another game ({h.game})"
    if not isinstance(h, headers.BackupHeader) or h.author != "host" or h.power not in session.local:
        return "", "it is not the host's backup for a power played here"
    if name != folders.backup_name(session.game, h.power):
        return "", f"a backup for {h.power} is named {folders.backup_name(session.game, h.power)}"
    try:
        crypto.verify_with_roster(env, dict(chain.roster), name)
    except BadFile as err:
        return "", f"forged or damaged: {err}"
    length, sha = h.dat.len, h.dat.sha256
    if dat is None or len(dat) != length or hashlib.sha256(dat).digest() != sha:
        return "", f"its {name}.dat is missing from the message or is not the one it names"
    return "save", ""


def _attachments(msg: EmailMessage) -> Iterable[tuple[str, bytes]]:
    for part in msg.iter_attachments():
        name = part.get_filename()
        if not name:
            continue
        payload = part.get_payload(decode=True)
        if isinstance(payload, bytes) and len(payload) <= envelope.MAX_FILE:
            yield name, payload


def fetch(home: Path, cfg: MailConfig, password: str, session: Any | None, *, join: str | None = None,
          move_to: str | None = None, folder: str | None = None) -> FetchReport:
    """Save the game's attachments of new messages in the IMAP folder; leave every other message as it was."""
    home = Path(home)
    box = folder or cfg.folder
    move_to = cfg.move_to if move_to is None else move_to
    game = session.game if session is not None else join
    if game is None:
        raise MailError("this folder plays no game yet; to fetch the gamestart say which game with --join GAME")
    rep = FetchReport()
    ledger = Ledger(mail_dir(home) / "fetched.json", {})
    if session is None:
        # Before joining: a record of its own, and nothing moved, so the game's first fetch still sees
        # the turn files that came with the gamestart (4.2.2 step 4: the host's setup rides along).
        game, move_to = f"{join} (join)", ""
    imap = imap_connect(cfg, password)
    try:
        typ, data = imap.select(_quote(box))
        _check(typ, data, f"the folder {box!r}")
        validity = (imap.response("UIDVALIDITY")[1] or [b"0"])[0]
        validity = validity.decode() if isinstance(validity, bytes) else str(validity)
        rec = ledger.data.setdefault(game, {}).get(box)
        if rec is None or rec.get("validity") != validity:
            rec = {"validity": validity, "done": []}
        done = set(rec["done"])
        typ, data = imap.uid("SEARCH", None, "ALL")
        uids = [u.decode() for u in _check(typ, data, "the search")[0].split()] if data and data[0] else []
        handled = []
        for uid in uids:
            if uid in done:
                continue
            typ, data = imap.uid("FETCH", uid, "(BODY.PEEK[])")  # PEEK: the message stays unread
            _check(typ, data, f"message {uid}")
            raw = next((d[1] for d in data if isinstance(d, tuple) and len(d) == 2), None)
            if raw is None:
                continue
            rep.messages += 1
            msg = email.message_from_bytes(raw, _class=EmailMessage, policy=email.policy.default)
            subject = str(msg.get("Subject", ""))[:80]
            took = retry = False
            files = dict(_attachments(msg))
            for name, payload in files.items():
                if name.endswith(".sav.dat") and name[:-4] in files:
                    continue  # travels with its .sav
                if name.endswith(".sav") and session is not None:
                    where, why = classify_backup(name, payload, files.get(name + ".dat"), session)
                    if where:
                        for n, data in ((name + ".dat", files[name + ".dat"]), (name, payload)):  # the .dat first
                            target = home / "save" / n
                            if not (target.is_file() and target.read_bytes() == data):
                                target.parent.mkdir(parents=True, exist_ok=True)
                                atomic.write_atomic(target, data)
                                if n == name:
                                    rep.saved.append((f"save/{name} (+ .dat): the host's backup; load it with "
                                                      f"'eiapbem load-backup save/{name}'", subject))
                        took = True
                    else:
                        rep.ignored.append((f"{name} (in {subject!r})", why))
                        retry = retry or why.startswith("forged")
                    continue
                where, why = classify(name, payload, session, join)
                if not where:
                    rep.ignored.append((f"{name} (in {subject!r})", why))
                    retry = retry or why.startswith("forged")
                    continue
                if where == "have":  # the game's own gamestart, joined already: the message is handled
                    took = True
                    continue
                target = home / where / name
                if target.is_file() and target.read_bytes() == payload:
                    took = True
                    continue
                target.parent.mkdir(parents=True, exist_ok=True)
                atomic.write_atomic(target, payload)
                rep.saved.append((f"{where}/{name}", subject))
                if where == "battles":
                    rep.battles.append(target)
                took = True
            if took:
                handled.append(uid)
            if took or not retry:
                done.add(uid)  # a forged file alone leaves the message to be looked at again, unread
        for uid in handled:
            imap.uid("STORE", uid, "+FLAGS", "(\\Seen)")
        if handled and move_to:
            typ, data = imap.uid("COPY", ",".join(handled), _quote(move_to))
            _check(typ, data, f"copying the handled mail to {move_to!r}")
            imap.uid("STORE", ",".join(handled), "+FLAGS", "(\\Deleted)")
            imap.expunge()
        rec["done"] = sorted(done, key=int)
        ledger.data[game][box] = rec
        ledger.write()
    except (imaplib.IMAP4.error, OSError) as err:
        raise MailError(f"fetching from {cfg.imap_host} stopped: {_short_error(err)}; files already saved stay, "
                        "fetch again later") from err
    finally:
        try:
            imap.logout()
        except (imaplib.IMAP4.error, OSError):
            pass
    return rep


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


def load_fetched(session: Any, rep: FetchReport) -> tuple[list, list]:
    """The battle files just fetched (4.2.7) and the same load as ``eiapbem load`` (commin/).

    A battle file of the slot in play must come before the turn file that ends
    the slot, and one of the next slot after it: battle files are tried before
    and again after the turn files.  One still out of order then belongs to a
    slot already over, whose turn file carries the whole battle: it is noted,
    not refused.
    """
    loaded, refused, later = [], [], []
    for p in rep.battles:
        why = _battle_role(session, p)
        if why:
            refused.append((p.name, why))
            continue
        later.append(p)
    r = None
    for round_ in (0, 1):
        waiting, later = later, []
        for p in waiting:
            before = session.save_snapshot()
            try:
                loaded.append((p.name, session.load_path(p)))
            except OutOfOrder as err:
                session.restore_snapshot(before)
                if round_ == 0:
                    later.append(p)
                else:
                    rep.ignored.append((p.name, f"not loaded: its slot is over and the turn file that ended it carries "
                                                f"the battle ({err})"))
            except EiaError as err:
                session.restore_snapshot(before)
                refused.append((p.name, str(err)))
        if r is None:
            r = session.load_all()
            loaded.extend((n, s) for n, s in r.loaded)
            refused.extend((n, w) for n, w in r.refused)
    return loaded, refused


def notice_draft(home: Path, game: str, name: str, sender: Person, to: list, subject: str, body: str) -> Path:
    """A draft with no attachment in ``commout/`` (a lateness reminder), sent by the next ``mail send``."""
    if re.search(r"[\x00-\x1f\x7f]", subject):
        raise BadAddress("a subject cannot hold a line break")
    msg = EmailMessage(policy=email.policy.SMTP)
    msg["From"] = sender.checked()
    msg["To"] = [p.checked() for p in to]
    msg["Subject"] = subject
    msg.set_content(body)
    path = Path(home) / "commout" / name
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic.write_atomic(path, msg.as_bytes())
    return path


def set_draft_body(path: Path, text: str) -> None:
    """Put ``text`` in a draft's message body (the announcement of a lateness step)."""
    msg = email.message_from_bytes(path.read_bytes(), _class=EmailMessage, policy=email.policy.SMTP)
    body = msg.get_body(("plain",))
    if body is None:
        return
    body.set_content(text)
    atomic.write_atomic(path, msg.as_bytes())
