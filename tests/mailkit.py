"""Real mail servers on localhost for the mail tests (issue 22).

``Dovecot`` runs the project's ``tools/mailtest/start-dovecot.sh`` (a
throwaway Debian Dovecot in a temp dir); ``Smtp`` is an aiosmtpd server with
password authentication that delivers every message into each recipient's
Dovecot INBOX by IMAP APPEND, and can be told to drop the connection or
refuse for a while.  A test that cannot start either is skipped with a message.
"""

from __future__ import annotations

import imaplib
import os
import signal
import shutil
import socket
import subprocess
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "tools" / "mailtest" / "start-dovecot.sh"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def password(address: str) -> str:
    return "mailpw-" + address.split("@")[0]


class Dovecot:
    def __init__(self, users: list[str]) -> None:
        if shutil.which("dovecot") is None:
            pytest.skip("Dovecot is not installed (apt-get install -y dovecot-imapd); the IMAP tests are skipped")
        # Its own folder under /tmp, readable by Dovecot's users (pytest's tmp_path is private to root).
        self.folder = folder = Path(tempfile.mkdtemp(prefix="eiapbem-dovecot-"))
        folder.chmod(0o755)
        self.port = free_port()
        self.users = list(users)
        p = subprocess.run(["bash", str(SCRIPT), str(folder), str(self.port), *(f"{u}:{password(u)}" for u in users)],
                           capture_output=True, text=True, timeout=60)
        if p.returncode != 0:
            pytest.skip(f"Dovecot could not be started: {p.stderr.strip()[:300]}")

    def imap(self, user: str) -> imaplib.IMAP4:
        m = imaplib.IMAP4("127.0.0.1", self.port, timeout=30)
        m.login(user, password(user))
        return m

    def append(self, user: str, raw: bytes, box: str = "INBOX") -> None:
        m = self.imap(user)
        try:
            typ, data = m.append(box, None, None, raw)
            assert typ == "OK", data
        finally:
            m.logout()

    def flags(self, user: str, box: str = "INBOX") -> list[str]:
        """Each message's flags, in order."""
        m = self.imap(user)
        try:
            m.select(box, readonly=True)
            typ, data = m.fetch("1:*", "(FLAGS)")
            return [d.decode() for d in data if d] if typ == "OK" and data != [None] else []
        finally:
            m.logout()

    def count(self, user: str, box: str = "INBOX") -> int:
        m = self.imap(user)
        try:
            typ, data = m.select(box, readonly=True)
            return int(data[0])
        finally:
            m.logout()

    def stop(self) -> None:
        try:  # the master's pid: a signal is quicker than 'doveadm stop', which waits for every child
            os.kill(int((self.folder / "run" / "master.pid").read_text().split()[0]), signal.SIGTERM)
        except (OSError, ValueError):
            subprocess.run(["doveadm", "-c", str(self.folder / "dovecot.conf"), "stop"], capture_output=True, timeout=30)
        shutil.rmtree(self.folder, ignore_errors=True)


class Smtp:
    """aiosmtpd on 127.0.0.1 delivering to Dovecot; ``drop``/``refuse`` count down failures to inject."""

    def __init__(self, dovecot: Dovecot | None) -> None:
        try:
            from aiosmtpd.controller import Controller
            from aiosmtpd.smtp import AuthResult
        except ImportError:
            pytest.skip("aiosmtpd is not installed (pip install -e '.[test]'); the SMTP tests are skipped")
        self.dovecot = dovecot
        self.received: list = []
        self.drop = 0
        self.refuse = 0
        self.refuse_text = "451 4.3.0 try again later"
        kit = self

        class Handler:
            async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
                if kit.refuse:
                    kit.refuse -= 1
                    return kit.refuse_text
                envelope.rcpt_tos.append(address)
                return "250 OK"

            async def handle_DATA(self, server, session, envelope):
                if kit.drop:
                    kit.drop -= 1
                    server.transport.close()  # the connection dies mid-send, before the server answers
                    return "250 never seen"
                kit.received.append((envelope.mail_from, list(envelope.rcpt_tos), envelope.content))
                if kit.dovecot is not None:
                    for r in envelope.rcpt_tos:
                        if r in kit.dovecot.users:
                            kit.dovecot.append(r, envelope.content)
                return "250 OK delivered"

        def auth(server, session, envelope, mechanism, data):
            ok = data.login.decode() == data.password.decode().replace("mailpw-", "", 1) + "@example.org" \
                if hasattr(data, "login") else False
            return AuthResult(success=ok, handled=False)  # handled=False: aiosmtpd answers 535 itself

        self.port = free_port()
        self.controller = Controller(Handler(), hostname="127.0.0.1", port=self.port, authenticator=auth,
                                     auth_require_tls=False, auth_exclude_mechanism=["LOGIN"])
        # (smtplib falls back from a refused PLAIN to LOGIN with an initial response, which aiosmtpd
        # does not answer: with PLAIN alone a wrong password gets its 535 at once.)
        self.controller.start()

    def stop(self) -> None:
        self.controller.stop()


def setup_args(address: str, name: str, smtp: Smtp, dovecot: Dovecot | None, move_to: str = "") -> list[str]:
    args = ["mail", "setup", "--address", address, "--name", name, "--smtp-host", "127.0.0.1", "--smtp-port", str(smtp.port),
            "--smtp-tls", "none", "--imap-host", "127.0.0.1", "--imap-port", str(dovecot.port if dovecot else 1),
            "--imap-tls", "none"]
    return args + (["--move-to", move_to] if move_to else [])
