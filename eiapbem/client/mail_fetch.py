"""Fetching the game's files from the player's IMAP folder, in bounded memory (issue 22, issue 32).

Attachments whose clear header (``pbem/envelope.py``) names the game played
here and whose signature is good under the game's roster are saved into
``commin/`` (turn and admin files) and ``battles/`` (battle files); a host's
backup for a power played here into ``save/``.  Every other attachment is named
with the reason and its sender, and its message left as it was (unread).  A
bounce of a file this folder sent is read back (``mail_bounces``).

``mail/fetched.json`` holds, per game and IMAP folder (and its UIDVALIDITY),
the message UIDs already handled, and those whose refusal was already said
(a forged file is looked at again next time, in silence).

Memory stays bounded whatever arrives: a message up to ``WHOLE`` bytes is read
whole; a larger one is read by its structure (``BODYSTRUCTURE``) and only its
attachments that can be game files, each at most ``LARGEST_FILE``, are fetched;
a larger attachment is named and never downloaded.
"""

from __future__ import annotations

import binascii
import email
import email.policy
import hashlib
import imaplib
import quopri
import re
import ssl
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.parser import BytesHeaderParser
from email.utils import parseaddr
from pathlib import Path
from typing import Any, Iterator

from eiapbem.pbem import atomic, crypto, envelope, folders, headers
from eiapbem.pbem.errors import BadFile

from . import mail_bounces
from .mail_config import TIMEOUT, Ledger, MailConfig, MailError, cert_sentence, mail_dir, short_error, tls_context

#: Attachments eiapbem fetches: turn/admin files to commin/, battle files to battles/, backups to save/.
GAME_SUFFIXES = (".pbm", ".battle")
FETCHED_SUFFIXES = GAME_SUFFIXES + (".key", ".sav", ".sav.dat")
#: A message up to this size is read whole; a larger one part by part.
WHOLE = 4 * 1024 * 1024
#: The largest attachment fetched (a turn file is a few KB, a backup's data well under this).
LARGEST_FILE = 8 * 1024 * 1024
_NAME_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9 ._-]{0,150}\Z")


@dataclass
class FetchReport:
    saved: list = field(default_factory=list)  # (folder/name, sentence)
    ignored: list = field(default_factory=list)  # (what, why)
    messages: int = 0
    battles: list = field(default_factory=list)  # paths of battle files saved (to load)
    #: Bounces and delays read back: (label, files, recipient, reason, action) (``mail_bounces``).
    bounces: list = field(default_factory=list)


def imap_connect(cfg: MailConfig, password: str) -> imaplib.IMAP4:
    try:
        if cfg.imap_tls == "ssl":
            imap: imaplib.IMAP4 = imaplib.IMAP4_SSL(cfg.imap_host, cfg.imap_port, ssl_context=tls_context(cfg),
                                                    timeout=TIMEOUT)
        else:
            imap = imaplib.IMAP4(cfg.imap_host, cfg.imap_port, timeout=TIMEOUT)
            if cfg.imap_tls == "starttls":
                imap.starttls(ssl_context=tls_context(cfg))
        imap.login(cfg.user, password)
    except ssl.SSLCertVerificationError as err:
        raise cert_sentence(err, "IMAP", cfg.imap_host, cfg.imap_port, cfg) from err
    except imaplib.IMAP4.error as err:
        raise MailError(f"the IMAP server {cfg.imap_host} refused the login of {cfg.user}: {short_error(err)}") from err
    except OSError as err:
        raise MailError(f"the IMAP server {cfg.imap_host}:{cfg.imap_port} cannot be reached: {short_error(err)}",
                        hint="check 'eiapbem mail setup' and the network; nothing was fetched") from err
    return imap


def _quote(box: str) -> str:
    return '"' + box + '"'


def _check(typ: str, data: Any, what: str) -> Any:
    if typ != "OK":
        first = data[0].decode("utf-8", "replace") if data and isinstance(data[0], bytes) else str(data)
        raise MailError(f"the IMAP server refused {what}: {first.splitlines()[0][:160] if first else typ}")
    return data


# ----------------------------------------------------------------- which attachment goes where


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


# ----------------------------------------------------------------- reading a message in bounded memory


@dataclass
class Mail:
    """What fetching needs of one message: who sent it, its subject, its attachments and, for a bounce, its report."""

    sender: str
    subject: str
    #: (name, bytes or None, why it was not read: "" when it was).
    files: list
    #: (delivery-status report, returned headers, notice text) of a bounce, else None.
    bounce: tuple | None = None


def _mb(n: int) -> str:
    return f"{n / 1e6:.1f} MB" if n >= 100_000 else f"{max(1, n // 1000)} KB"


def _too_big(name: str, size: int) -> str:
    return (f"its attachment is about {_mb(size)}, larger than any game file (at most {_mb(LARGEST_FILE)}); "
            "it was not downloaded")


def _wanted(name: str) -> bool:
    return name.endswith(FETCHED_SUFFIXES)


def _from_whole(raw: bytes) -> Mail:
    msg = email.message_from_bytes(raw, _class=EmailMessage, policy=email.policy.default)
    files: list = []
    for part in msg.iter_attachments():
        name = part.get_filename()
        if not name:
            continue
        try:
            payload = part.get_payload(decode=True)
        except Exception:  # the email package's decoders raise assorted errors on damaged parts
            payload = None
        broken = [d for d in part.defects if "Base64" in type(d).__name__]
        if not isinstance(payload, bytes) or broken:
            files.append((name, None, "its attachment cannot be decoded (damaged in transit or by a mail program)"))
        elif len(payload) > LARGEST_FILE:
            files.append((name, None, _too_big(name, len(payload))))
        else:
            files.append((name, payload, ""))
    bounce = None
    if mail_bounces.looks_like_bounce(msg):
        report = returned = b""
        piece: Any
        for piece in msg.walk():
            ctype = piece.get_content_type()
            body: Any = piece.get_payload()
            if ctype == "message/delivery-status" and isinstance(body, list):
                report = b"\n\n".join(p.as_bytes() for p in body)
            elif ctype == "text/rfc822-headers":
                decoded = piece.get_payload(decode=True)
                returned = decoded if isinstance(decoded, bytes) else b""
            elif ctype == "message/rfc822" and isinstance(body, list) and body:
                returned = b"".join(f"{k}: {v}\n".encode("utf-8", "replace") for k, v in body[0].items())
        bounce = (report, returned, raw[:200_000])
    return Mail(parseaddr(str(msg.get("From", "")))[1] or "an unknown sender", str(msg.get("Subject", ""))[:80], files,
                bounce)


# An IMAP response as nested lists: atoms and strings are bytes, NIL is None, literals are bytes.
_TOKEN_RE = re.compile(rb'\s*(?:(\()|(\))|"((?:[^"\\]|\\.)*)"|\{(\d+)\}\s*$|([^\s()"]+))')


def _lex(text: bytes) -> Iterator[Any]:
    pos = 0
    while pos < len(text):
        m = _TOKEN_RE.match(text, pos)
        if m is None or m.end() == pos:
            break
        pos = m.end()
        if m.group(1):
            yield "("
        elif m.group(2):
            yield ")"
        elif m.group(3) is not None:
            yield re.sub(rb"\\(.)", rb"\1", m.group(3))
        elif m.group(4) is not None:
            continue  # a literal's length: the literal itself is the next item of the response
        else:
            atom = m.group(5)
            yield None if atom.upper() == b"NIL" else atom


def parse_response(data: list) -> list:
    """The items of a FETCH response (``imaplib``'s list of bytes and (head, literal) tuples) as nested lists."""
    tokens: list = []
    for item in data:
        if isinstance(item, tuple):
            tokens.extend(_lex(item[0]))
            tokens.append(bytes(item[1]))
        elif isinstance(item, bytes):
            tokens.extend(_lex(item))
    stack: list = [[]]
    for t in tokens:
        if t == "(":
            stack.append([])
        elif t == ")":
            if len(stack) > 1:
                done = stack.pop()
                stack[-1].append(done)
        else:
            stack[-1].append(t)
    return stack[0]


def _text(v: Any) -> str:
    return v.decode("utf-8", "replace") if isinstance(v, bytes) else ""


def _params(v: Any) -> dict:
    if not isinstance(v, list):
        return {}
    return {_text(v[i]).lower(): _text(v[i + 1]) for i in range(0, len(v) - 1, 2)}


def leaves(bs: list, section: str = "") -> Iterator[tuple[str, str, str, str, int]]:
    """(section, content type, file name, transfer encoding, size) of each leaf part of a BODYSTRUCTURE."""
    if bs and isinstance(bs[0], list):  # multipart: its parts, then its subtype
        n = 0
        for child in bs:
            if not isinstance(child, list):
                break
            n += 1
            yield from leaves(child, f"{section}.{n}" if section else str(n))
        return
    if len(bs) < 7:
        return
    ctype = f"{_text(bs[0])}/{_text(bs[1])}".lower()
    ext = 8 if ctype.startswith("text/") else 10 if ctype == "message/rfc822" else 7
    disp = bs[ext + 1] if len(bs) > ext + 1 and isinstance(bs[ext + 1], list) else []
    name = (_params(disp[1]).get("filename") if len(disp) > 1 else "") or _params(bs[2]).get("name", "")
    try:
        size = int(bs[6])
    except (TypeError, ValueError):
        size = 0
    yield section or "1", ctype, name, _text(bs[5]).lower(), size


def _decoded_size(size: int, encoding: str) -> int:
    """About how many bytes a part of ``size`` octets holds (base64: 57 bytes a line of 76 characters and CRLF)."""
    return size * 57 // 78 if encoding == "base64" else size


def _decode(data: bytes, encoding: str) -> bytes:
    if encoding == "base64":
        return binascii.a2b_base64(data, strict_mode=False)
    if encoding == "quoted-printable":
        return quopri.decodestring(data)
    return data


def _part(imap: imaplib.IMAP4, uid: str, section: str) -> bytes | None:
    typ, data = imap.uid("FETCH", uid, f"(BODY.PEEK[{section}])")
    _check(typ, data, f"part {section} of message {uid}")
    return next((bytes(d[1]) for d in data if isinstance(d, tuple) and len(d) == 2), None)


def _from_parts(imap: imaplib.IMAP4, uid: str, structure: list) -> Mail:
    """A large message: its headers, and only the attachments that can be game files, one at a time."""
    head = _part(imap, uid, "HEADER") or b""
    h = BytesHeaderParser(policy=email.policy.default).parsebytes(head)
    files: list = []
    bounce = None
    parts = list(leaves(structure))
    for section, ctype, name, enc, size in parts:
        if not name:
            continue
        if not _wanted(name):
            files.append((name, None, f"it is not a file of a game played here ({_mb(size)}; not downloaded)"))
        elif _decoded_size(size, enc) > LARGEST_FILE:
            files.append((name, None, _too_big(name, _decoded_size(size, enc))))
        else:
            raw = _part(imap, uid, section)
            try:
                files.append((name, _decode(raw, enc), "") if raw is not None else
                             (name, None, "its attachment could not be read from the server"))
            except (binascii.Error, ValueError):
                files.append((name, None, "its attachment cannot be decoded (damaged in transit or by a mail program)"))
    if mail_bounces.looks_like_bounce(h):
        report = returned = b""
        for section, ctype, _, _, size in parts:
            if ctype == "message/delivery-status" and size <= WHOLE:
                report = _part(imap, uid, section) or b""
            elif ctype == "text/rfc822-headers" and size <= WHOLE:
                returned = _part(imap, uid, section) or b""
            elif ctype == "message/rfc822":
                returned = _part(imap, uid, section + ".HEADER") or b""
        bounce = (report, returned, head)
    return Mail(parseaddr(str(h.get("From", "")))[1] or "an unknown sender", str(h.get("Subject", ""))[:80], files, bounce)


def read_message(imap: imaplib.IMAP4, uid: str) -> Mail | None:
    """One message, read whole when small, else part by part; None when it is gone."""
    typ, data = imap.uid("FETCH", uid, "(RFC822.SIZE BODYSTRUCTURE)")
    _check(typ, data, f"message {uid}")
    items = parse_response(data)
    fields = next((x for x in items if isinstance(x, list)), [])
    info = {_text(fields[i]).upper(): fields[i + 1] for i in range(0, len(fields) - 1, 2)}
    try:
        size = int(info.get("RFC822.SIZE") or 0)
    except (TypeError, ValueError):
        size = 0
    structure = info.get("BODYSTRUCTURE")
    if size > WHOLE and isinstance(structure, list):
        return _from_parts(imap, uid, structure)
    typ, data = imap.uid("FETCH", uid, "(BODY.PEEK[])")  # PEEK: the message stays unread
    _check(typ, data, f"message {uid}")
    raw = next((d[1] for d in data if isinstance(d, tuple) and len(d) == 2), None)
    return None if raw is None else _from_whole(raw)


# ----------------------------------------------------------------- the fetch


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
        told = set(rec.get("told", []))
        typ, data = imap.uid("SEARCH", "ALL")
        uids = [u.decode() for u in _check(typ, data, "the search")[0].split()] if data and data[0] else []
        handled = []
        for uid in uids:
            if uid in done:
                continue
            m = read_message(imap, uid)
            if m is None:
                continue
            rep.messages += 1
            took, retry, ignored = _take(home, m, session, join, rep)
            if took:
                handled.append(uid)
            if took or not retry:
                done.add(uid)  # a forged file alone leaves the message to be looked at again, unread
            if uid not in told:
                rep.ignored.extend(ignored)
            if retry and not took:
                told.add(uid)  # said once; looked at again in silence
        for uid in handled:
            imap.uid("STORE", uid, "+FLAGS", "(\\Seen)")
        if handled and move_to:
            typ, data = imap.uid("COPY", ",".join(handled), _quote(move_to))
            _check(typ, data, f"copying the handled mail to {move_to!r}")
            imap.uid("STORE", ",".join(handled), "+FLAGS", "(\\Deleted)")
            imap.expunge()
        rec["done"] = sorted(done, key=int)
        rec["told"] = sorted(told & set(uids) - done, key=int)
        ledger.data[game][box] = rec
        ledger.write()
    except (imaplib.IMAP4.error, OSError) as err:
        raise MailError(f"fetching from {cfg.imap_host} stopped: {short_error(err)}; files already saved stay, "
                        "fetch again later") from err
    finally:
        try:
            imap.logout()
        except (imaplib.IMAP4.error, OSError):
            pass
    return rep


def _take(home: Path, m: Mail, session: Any | None, join: str | None, rep: FetchReport) -> tuple[bool, bool, list]:
    """Save what one message carries: (anything taken, worth another look, what was ignored and why)."""
    took = retry = False
    ignored: list = []
    where_from = f"in {m.subject!r} from {m.sender}"
    if m.bounce is not None and session is not None:
        news = mail_bounces.record(home, *m.bounce)
        if news is not None:  # a bounce of a file sent from here: said once, the notice handled
            rep.bounces.extend(news.items)
            return True, False, []
    files = {n: (d, why) for n, d, why in m.files}
    for name, (payload, why) in files.items():
        if why:
            ignored.append((f"{name} ({where_from})", why))
            continue
        assert payload is not None
        if name.endswith(".sav.dat") and name[:-4] in files:
            continue  # travels with its .sav
        if name.endswith(".sav") and session is not None:
            dat = files.get(name + ".dat", (None, ""))[0]
            where, why = classify_backup(name, payload, dat, session)
            if where and dat is not None:
                for n, data in ((name + ".dat", dat), (name, payload)):  # the .dat first
                    target = home / "save" / n
                    if not (target.is_file() and target.read_bytes() == data):
                        target.parent.mkdir(parents=True, exist_ok=True)
                        atomic.write_atomic(target, data)
                        if n == name:
                            rep.saved.append((f"save/{name} (+ .dat): the host's backup; load it with "
                                              f"'eiapbem load-backup save/{name}'", m.subject))
                took = True
            else:
                ignored.append((f"{name} ({where_from})", why))
                retry = retry or why.startswith("forged")
            continue
        where, why = classify(name, payload, session, join)
        if not where:
            ignored.append((f"{name} ({where_from})", why))
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
        rep.saved.append((f"{where}/{name}", m.subject))
        if where == "battles":
            rep.battles.append(target)
        took = True
    return took, retry, ignored
