"""Real mail servers on localhost for the mail tests (issue 22, issue 32).

``MailServers`` is a provider's set-up in a temp dir, from the project's own
scripts in ``tools/mailtest/``: a throwaway certificate authority
(``make-ca.sh``), Postfix for submission with STARTTLS and SMTP AUTH
(``start-postfix.sh``) delivering by LMTP into Dovecot, and Dovecot serving
IMAP over TLS (``start-dovecot.sh``), each user's mailbox with an optional
quota.  The clients reach IMAP through a ``Gate`` the test can close, as a
network outage would.  ``Dovecot`` alone and ``Smtp`` (an aiosmtpd server that
delivers by IMAP APPEND and can be told to drop the connection after the data
or refuse for a while: faults a real MTA does not produce on demand) serve the
tests of those faults.  A test that cannot start a server is skipped with the
reason (the packages are installed by ``.ci/run``).
"""

from __future__ import annotations

import imaplib
import os
import signal
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TOOLS = ROOT / "tools" / "mailtest"
SCRIPT = TOOLS / "start-dovecot.sh"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def password(address: str) -> str:
    return "mailpw-" + address.split("@")[0]


class Dovecot:
    def __init__(self, users: list[str], *, quotas: dict | None = None, env: dict | None = None,
                 folder: Path | None = None) -> None:
        if shutil.which("dovecot") is None:
            pytest.skip("Dovecot is not installed (apt-get install -y dovecot-imapd dovecot-lmtpd); the IMAP tests are skipped")
        # Its own folder under /tmp, readable by Dovecot's users (pytest's tmp_path is private to root).
        self.folder = folder or Path(tempfile.mkdtemp(prefix="eiapbem-dovecot-"))
        self.folder.mkdir(parents=True, exist_ok=True)
        self.folder.chmod(0o755)
        self.port = free_port()
        self.users = list(users)
        quotas = quotas or {}
        specs = [f"{u}:{password(u)}" + (f":{quotas[u]}" if u in quotas else "") for u in users]
        p = subprocess.run(["bash", str(SCRIPT), str(self.folder), str(self.port), *specs],
                           capture_output=True, text=True, timeout=60, env={**os.environ, **(env or {})})
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


class Gate:
    """A TCP relay on 127.0.0.1 in front of a server: ``down()`` cuts every connection and refuses new ones."""

    def __init__(self, target: int) -> None:
        import threading

        self.target = target
        self.port = free_port()
        self._threading = threading
        self._socks: list = []
        self._listener = None
        self.up()

    def up(self) -> None:
        ls = socket.socket()
        ls.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        ls.bind(("127.0.0.1", self.port))
        ls.listen(16)
        self._listener = ls
        self._threading.Thread(target=self._accept, args=(ls,), daemon=True).start()

    def _accept(self, ls) -> None:
        while True:
            try:
                c, _ = ls.accept()
            except OSError:
                return
            try:
                s = socket.create_connection(("127.0.0.1", self.target), timeout=10)
            except OSError:
                c.close()
                continue
            self._socks += [c, s]
            for a, b in ((c, s), (s, c)):
                self._threading.Thread(target=self._pump, args=(a, b), daemon=True).start()

    @staticmethod
    def _pump(a, b) -> None:
        try:
            while True:
                data = a.recv(65536)
                if not data:
                    break
                b.sendall(data)
        except OSError:
            pass
        for x in (a, b):
            try:
                x.shutdown(socket.SHUT_RDWR)
            except OSError:
                pass

    def down(self) -> None:
        if self._listener is not None:
            try:
                self._listener.shutdown(socket.SHUT_RDWR)  # wakes the accepting thread (close alone would not)
            except OSError:
                pass
            self._listener.close()
            self._listener = None
        for x in self._socks:
            try:
                x.close()
            except OSError:
                pass
        self._socks = []


class MailServers:
    """Postfix (submission, STARTTLS, AUTH) delivering by LMTP into Dovecot (IMAP over TLS), with a throwaway CA."""

    def __init__(self, users: list[str], quotas: dict | None = None) -> None:
        for tool, pkg in (("postfix", "postfix"), ("dovecot", "dovecot-imapd dovecot-lmtpd"), ("openssl", "openssl")):
            if shutil.which(tool) is None:
                pytest.skip(f"{tool} is not installed (apt-get install -y {pkg}); the real mail server tests are skipped")
        if os.getuid() != 0:
            pytest.skip("Postfix starts only as root; the real mail server tests are skipped")
        self.folder = Path(tempfile.mkdtemp(prefix="eiapbem-mailservers-"))
        self.folder.chmod(0o755)
        self.tls = self.folder / "tls"
        p = subprocess.run(["bash", str(TOOLS / "make-ca.sh"), str(self.tls)], capture_output=True, text=True, timeout=60)
        if p.returncode != 0:
            pytest.skip(f"the test CA could not be made: {p.stderr.strip()[:300]}")
        self.ca = self.tls / "ca.pem"
        self.other_ca = self.tls / "other-ca.pem"
        self.imaps, self.lmtp, self.auth, self.smtp = (free_port() for _ in range(4))
        self.dovecot = Dovecot(users, quotas=quotas, folder=self.folder / "dovecot",
                               env={"TLS_DIR": str(self.tls), "IMAPS_PORT": str(self.imaps), "LMTP_PORT": str(self.lmtp),
                                    "AUTH_PORT": str(self.auth)})
        self.postfix = self.folder / "postfix"
        self._postfix_started = False
        p = subprocess.run(["bash", str(TOOLS / "start-postfix.sh"), str(self.postfix), str(self.smtp), str(self.lmtp),
                            str(self.auth), str(self.tls)], capture_output=True, text=True, timeout=60)
        if p.returncode != 0:
            self.dovecot.stop()
            pytest.skip(f"Postfix could not be started: {p.stderr.strip()[:300]}")
        self._postfix_started = True
        self.gate = Gate(self.imaps)

    def setup_args(self, address: str, name: str, *, ca: Path | None | str = "default", move_to: str = "") -> list[str]:
        args = ["mail", "setup", "--address", address, "--name", name, "--smtp-host", "127.0.0.1", "--smtp-port",
                str(self.smtp), "--smtp-tls", "starttls", "--imap-host", "127.0.0.1", "--imap-port", str(self.gate.port),
                "--imap-tls", "ssl"]
        ca_file = self.ca if ca == "default" else ca
        return args + (["--ca-file", str(ca_file)] if ca_file else []) + (["--move-to", move_to] if move_to else [])

    def _postfix(self, *args: str) -> subprocess.CompletedProcess:
        return subprocess.run(["postfix", "-c", str(self.postfix / "etc"), *args], capture_output=True, text=True, timeout=60)

    def smtp_down(self) -> None:
        self._postfix("stop")
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", self.smtp), timeout=1).close()
            except OSError:
                return
            time.sleep(0.1)

    def smtp_up(self) -> None:
        p = self._postfix("start")
        assert p.returncode == 0, p.stderr
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", self.smtp), timeout=1).close()
                return
            except OSError:
                time.sleep(0.1)

    def delivered(self, timeout: float = 30.0) -> None:
        """Wait until Postfix's queue is empty (every message delivered or bounced, and the bounces delivered)."""
        etc = str(self.postfix / "etc")
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            p = subprocess.run(["postqueue", "-c", etc, "-j"], capture_output=True, text=True, timeout=30)
            if p.returncode == 0 and not p.stdout.strip():
                return
            subprocess.run(["postqueue", "-c", etc, "-f"], capture_output=True, timeout=30)
            time.sleep(0.3)
        raise AssertionError(f"Postfix's queue is not empty after {timeout} s: {p.stdout[:500]}")

    def log(self) -> str:
        try:
            return (self.postfix / "maillog").read_text(errors="replace")
        except OSError:
            return ""

    def stop(self) -> None:
        self.gate.down()
        if self._postfix_started:
            self._postfix("stop")
        self.dovecot.stop()
        shutil.rmtree(self.folder, ignore_errors=True)
