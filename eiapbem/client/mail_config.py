"""A folder's mail account: its set-up, its password, its TLS trust and the sentences for servers that fail.

What is kept in the home folder's ``mail/`` folder, each file written atomically
(``Ledger``): ``config.json`` (servers, ports, TLS modes, user name, the
player's address, a CA file to trust; never a password), and the records of the
other mail modules (``sent.json``, ``fetched.json``, ``ladder.json``).

A server whose certificate does not verify is named as such, with the fix
(``--ca-file`` for a club's own server), never as a network failure.
"""

from __future__ import annotations

import json
import os
import re
import smtplib
import socket
import ssl
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, Callable

from eiapbem.core.errors import EiaError
from eiapbem.pbem import atomic
from eiapbem.pbem.email import Person

#: The mail password from the environment (tests, unattended hosts); never stored by eiapbem.
PASSWORD_ENV = "EIAPBEM_MAIL_PASSWORD"
KEYRING_SERVICE = "eiapbem-mail"
TLS_MODES = ("ssl", "starttls", "none")
LOCAL_HOSTS = ("localhost", "127.0.0.1", "::1")
#: How often a temporary refusal (4xx, a dropped connection) is tried again, and the wait between.
TRIES = 3
RETRY_WAIT = 5.0
TIMEOUT = 60.0


class MailError(EiaError):
    """The mail set-up is missing or wrong, or a server refused us."""


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
    #: A PEM file of certificate authorities trusted besides the system's (a club's own server), or "".
    ca_file: str = ""

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
        if not isinstance(self.ca_file, str) or re.search(r"[\x00-\x1f\x7f]", self.ca_file):
            raise MailError("the CA file's name has a control character")
        return self


def check_ca_file(path: Path) -> str:
    """The absolute name of a PEM file of certificate authorities, once it has been read as one."""
    p = Path(path).expanduser().resolve()
    try:
        ssl.create_default_context(cafile=str(p))
    except FileNotFoundError as err:
        raise MailError(f"the CA file {p} does not exist") from err
    except (ssl.SSLError, OSError, ValueError) as err:
        raise MailError(f"{p} is not a PEM file of certificates ({_first_line(err)})",
                        hint="ask the server's administrator for its CA certificate (a file beginning "
                             "'-----BEGIN CERTIFICATE-----')") from err
    return str(p)


def tls_context(cfg: MailConfig) -> ssl.SSLContext:
    """The system's trusted authorities, plus the set-up's CA file when there is one."""
    ctx = ssl.create_default_context()
    if cfg.ca_file:
        try:
            ctx.load_verify_locations(cafile=cfg.ca_file)
        except (ssl.SSLError, OSError) as err:
            raise MailError(f"the CA file {cfg.ca_file} of the mail set-up cannot be read ({_first_line(err)})",
                            hint="give the right file with 'eiapbem mail setup ... --ca-file CA.pem'") from err
    return ctx


def cert_sentence(err: ssl.SSLCertVerificationError, what: str, host: str, port: int, cfg: MailConfig) -> MailError:
    """A certificate that does not verify: what the server showed and how to trust it, never 'check the network'."""
    why = (err.verify_message or _first_line(err)).rstrip(".")
    if "mismatch" in why or "doesn't match" in why or "not valid for" in why:
        hint = (f"the certificate is for another name: set the {what} server to the name it was made for "
                "('eiapbem mail setup ...')")
    elif cfg.ca_file:
        hint = (f"the CA file {cfg.ca_file} did not sign it: ask the server's administrator for the right CA certificate "
                "and give it with 'eiapbem mail setup ... --ca-file CA.pem'")
    else:
        hint = ("if it is your club's or family's own server, ask its administrator for its CA certificate and give it "
                "with 'eiapbem mail setup ... --ca-file CA.pem'; a provider's server always verifies, so otherwise "
                "do not send through it")
    return MailError(f"the {what} server {host}:{port} showed a certificate that does not verify ({why}); "
                     "nothing was sent or fetched through it", hint=hint)


def _first_line(err: BaseException) -> str:
    text = str(err).strip()
    return text.splitlines()[0][:160] if text else type(err).__name__


def short_error(err: BaseException) -> str:
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
    if isinstance(err, MailError):
        return str(err)
    return f"{type(err).__name__}: {_first_line(err)}"


def temporary(err: BaseException) -> bool:
    """A refusal worth trying again soon: a 4xx answer, a dropped or refused connection, a timeout."""
    if isinstance(err, smtplib.SMTPRecipientsRefused):
        return all(400 <= code < 500 for code, _ in err.recipients.values())
    if isinstance(err, smtplib.SMTPResponseException):
        return 400 <= err.smtp_code < 500
    if isinstance(err, ssl.SSLCertVerificationError):
        return False
    return isinstance(err, (smtplib.SMTPServerDisconnected, ConnectionError, socket.timeout, TimeoutError))


# ----------------------------------------------------------------- files of mail/


def mail_dir(home: Path) -> Path:
    return Path(home) / "mail"


def read_json(path: Path, default: Any) -> Any:
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


def write_json(path: Path, obj: Any) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic.write_atomic(path, json.dumps(obj, indent=1, sort_keys=True).encode())


class Ledger:
    """A small JSON record in ``mail/``, written atomically after every change."""

    def __init__(self, path: Path, default: Any) -> None:
        self.path = path
        self.data = read_json(path, default)

    def write(self) -> None:
        write_json(self.path, self.data)


def save_config(home: Path, cfg: MailConfig) -> Path:
    cfg.check()
    path = mail_dir(home) / "config.json"
    write_json(path, asdict(cfg))
    return path


def load_config(home: Path) -> MailConfig:
    raw = read_json(mail_dir(home) / "config.json", None)
    if raw is None:
        raise MailError(f"{Path(home).resolve()} has no mail set-up", hint="run 'eiapbem mail setup' first")
    try:
        return MailConfig(**raw).check()
    except TypeError as err:
        raise MailError("mail/config.json is not a mail set-up of this version; run 'eiapbem mail setup' again") from err


# ----------------------------------------------------------------- the password


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
