"""Mail through a provider's real servers (issue 32): Postfix submission with STARTTLS and AUTH, delivering by LMTP
into Dovecot, read over IMAP with TLS, under a throwaway certificate authority given with ``--ca-file``.

Bounces (a full mailbox: 552 5.2.2) are read back and named, and ``mail resend`` delivers once space is freed;
a certificate that does not verify is said with its fix; the server's size limit is checked before sending; a
40 MB stray attachment is named without being downloaded; IMAP down during a send round and SMTP down and back
lose nothing.  The game is the small one of ``test_mail`` (Russia hosts, France and Great Britain by email).
"""

from __future__ import annotations

import email
import email.policy
import imaplib
import re
import shutil
import subprocess
import sys
from email.message import EmailMessage
from pathlib import Path

import pytest

from eiapbem.client import mail_config, mail_send, setups
from eiapbem.client.session import TEST_SCRYPT_ENV, Session
from mailkit import MailServers, password
from test_mail import FAST, GAME, HOST_PW, HUMANS, _drafts, env_of, pw, run, template  # noqa: F401 (fixture)
from paths import ROOT


@pytest.fixture
def servers():
    s = MailServers(list(HUMANS.values()) + ["stranger@example.org"], quotas={"gb@example.org": "100K"})
    yield s
    s.stop()


@pytest.fixture
def game(template, tmp_path, servers, monkeypatch):  # noqa: F811
    monkeypatch.setenv(TEST_SCRYPT_ENV, FAST[TEST_SCRYPT_ENV])
    homes = {p: tmp_path / p for p in HUMANS}
    for p, h in homes.items():
        shutil.copytree(template / p, h)
        code, out = run(h, *servers.setup_args(HUMANS[p], f"Player {p}"))
        assert code == 0 and "trusting the CA" in out, out
    return homes, servers


def _imaps(servers: MailServers, user: str) -> imaplib.IMAP4:
    import ssl

    m = imaplib.IMAP4_SSL("127.0.0.1", servers.imaps, ssl_context=ssl.create_default_context(cafile=str(servers.ca)))
    m.login(user, password(user))
    return m


def _messages(servers: MailServers, user: str) -> list[EmailMessage]:
    m = _imaps(servers, user)
    try:
        m.select("INBOX", readonly=True)
        typ, data = m.search(None, "ALL")
        out = []
        for n in data[0].split():
            typ, d = m.fetch(n, "(BODY.PEEK[])")
            out.append(email.message_from_bytes(d[0][1], _class=EmailMessage, policy=email.policy.default))
        return out
    finally:
        m.logout()


def _fill(servers: MailServers, user: str, size: int) -> None:
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "stranger@example.org", user, "holiday photos"
    msg.set_content(("x" * 71 + "\n") * (size // 72))
    m = _imaps(servers, user)
    try:
        assert m.append("INBOX", None, None, msg.as_bytes())[0] == "OK"
    finally:
        m.logout()


def _empty(servers: MailServers, user: str) -> None:
    m = _imaps(servers, user)
    try:
        m.select("INBOX")
        m.store("1:*", "+FLAGS", "(\\Deleted)")
        m.expunge()
    finally:
        m.logout()


# ----------------------------------------------------------------- bounces


def test_a_full_mailbox_bounce_is_named_once_and_resend_delivers_after_space_is_freed(game):
    homes, servers = game
    _fill(servers, "gb@example.org", 98_000)  # Great Britain's mailbox is all but full
    code, out = run(homes["RU"], "mail", "send", "--retry-wait", "0", env=env_of("RU"))
    assert code == 0 and "sent commout/" in out, out  # the server took it: "sent"
    servers.delivered()
    assert "552 5.2.2" in servers.log()  # Dovecot refused the delivery, Postfix bounced it to the sender
    code, out = run(homes["RU"], "mail", "fetch", env=env_of("RU"))
    bounced = [line for line in out.splitlines() if "bounced" in line]
    assert code == 1 and bounced, out
    assert all("to Great Britain (gb@example.org) bounced: mailbox full (5.2.2)" in line for line in bounced), bounced
    assert "'eiapbem mail resend " in bounced[0] and "--to gb@example.org" in bounced[0]
    name = bounced[0].split("your file ")[1].split(" to Great Britain")[0]
    code, out = run(homes["RU"], "mail", "fetch", env=env_of("RU"))
    assert "bounced" not in out, out  # said once
    code, out = run(homes["RU"], "status", "--power", "RU", "--password", pw("RU"))
    assert f"Mail: your file {name} to Great Britain (gb@example.org) bounced: mailbox full (5.2.2)" in out, out
    code, out = run(homes["RU"], "mail", "resend", name, "--to", "GB", "--retry-wait", "0", env=env_of("RU"))
    assert code == 0 and "sent again" in out, out  # still full: accepted by the server, bounced again
    servers.delivered()
    code, out = run(homes["RU"], "mail", "fetch", env=env_of("RU"))
    assert code == 1 and f"your file {name} to Great Britain (gb@example.org) bounced" in out, out
    _empty(servers, "gb@example.org")  # space is freed
    code, out = run(homes["RU"], "mail", "resend", name, "--to", "GB", "--retry-wait", "0", env=env_of("RU"))
    assert code == 0 and "sent again commout/" in out and "gb@example.org" in out, out
    servers.delivered()
    got = _messages(servers, "gb@example.org")
    files = [p.get_filename() for m in got for p in m.iter_attachments()]
    assert name in files, files
    for m in got:  # every message eiapbem writes has the RFC 5322 Date and Message-ID
        assert m["Date"] and m["Message-ID"] and m["Message-ID"].endswith("@example.org>")
    code, out = run(homes["RU"], "mail", "fetch", env=env_of("RU"))
    assert code == 0 and "bounced" not in out, out
    code, out = run(homes["RU"], "status", "--power", "RU", "--password", pw("RU"))
    assert "Mail:" not in out, out
    code, out = run(homes["RU"], "mail", "resend", "no_such_file.pbm", env=env_of("RU"))
    assert code == 1 and "no file named no_such_file.pbm was sent" in out and "Traceback" not in out


# ----------------------------------------------------------------- certificates


def _cfg(servers: MailServers, ca: Path | None) -> mail_config.MailConfig:
    return mail_config.MailConfig("fr@example.org", "Player FR", "fr@example.org", "127.0.0.1", servers.smtp, "starttls",
                                  "127.0.0.1", servers.gate.port, "ssl", ca_file=str(ca) if ca else "")


def test_a_certificate_that_does_not_verify_is_said_with_its_fix(tmp_path):
    servers = MailServers(["fr@example.org", "ru@example.org"])
    try:
        home = tmp_path / "fr"
        code, out = run(home, *servers.setup_args("fr@example.org", "Player FR", ca=None))
        assert code == 0, out
        code, out = run(home, "mail", "fetch", "--join", GAME, env={mail_config.PASSWORD_ENV: password("fr@example.org")})
        assert code == 1 and "Traceback" not in out, out
        assert "showed a certificate that does not verify" in out and "--ca-file CA.pem" in out, out
        assert "network" not in out and "cannot be reached" not in out
        _drafts(home, 1)
        rep = mail_send.send_all(home, _cfg(servers, None), password("fr@example.org"), wait=0)
        assert not rep.sent and "does not verify" in rep.failed[0][1] and "--ca-file" in rep.failed[0][1], rep.failed
        rep = mail_send.send_all(home, _cfg(servers, servers.other_ca), password("fr@example.org"), wait=0)
        assert not rep.sent and f"the CA file {servers.other_ca} did not sign it" in rep.failed[0][1], rep.failed
        rep = mail_send.send_all(home, _cfg(servers, servers.ca), password("fr@example.org"), wait=0)
        assert len(rep.sent) == 1 and not rep.failed, rep.failed
        (tmp_path / "junk.pem").write_text("not a certificate\n")
        code, out = run(home, *servers.setup_args("fr@example.org", "Player FR", ca=tmp_path / "junk.pem"))
        assert code == 1 and "is not a PEM file of certificates" in out and "Traceback" not in out, out
        assert mail_config.load_config(home).ca_file == ""  # the set-up before is kept
        code, out = run(home, *servers.setup_args("fr@example.org", "Player FR", ca=tmp_path / "missing.pem"))
        assert code == 1 and "does not exist" in out, out
    finally:
        servers.stop()


# ----------------------------------------------------------------- sizes and memory


@pytest.mark.slow
def test_the_servers_size_limit_is_checked_before_sending(tmp_path):
    servers = MailServers(["fr@example.org", "ru@example.org", "gb@example.org"])
    try:
        _drafts(tmp_path, 1)
        big = tmp_path / "commout" / "Game_1805-02_naval_FR.pbm"
        big.write_bytes(b"\0" * 11_000_000)
        from eiapbem.pbem.email import Person, make_draft

        big.with_name(big.name + ".eml").write_bytes(make_draft(Person("F", "fr@example.org"), [Person("R", "ru@example.org")],
                                                                 "EiA Game: big", [big]))
        rep = mail_send.send_all(tmp_path, _cfg(servers, servers.ca), password("fr@example.org"), wait=0)
        assert [x[0] for x in rep.sent] == ["commout/Game_1805-01_naval_FR.pbm.eml"], rep
        (label, why), = rep.failed
        assert label == "commout/Game_1805-02_naval_FR.pbm.eml"
        assert re.search(r"not sent: it is 1[45]\.\d MB, over the 10\.2 MB the SMTP server 127\.0\.0\.1 accepts "
                         r"\(its SIZE limit\); send the file another way", why), why
        servers.delivered()
        assert servers.log().count("nrcpt=") == 1  # the big one was refused here, never handed to the server
    finally:
        servers.stop()


def _fetch_rss(home: Path, *args: str) -> tuple[int, str, int]:
    """``eiapbem mail fetch`` in a process of its own: (exit code, output, peak memory in KB)."""
    # VmHWM is this process's own peak (ru_maxrss would carry the test process's peak across the exec).
    code = ("import sys\nfrom eiapbem.cli.main import main\nrc = 0\ntry:\n    main(sys.argv[1:])\n"
            "except SystemExit as e:\n    rc = e.code if isinstance(e.code, int) else 1\n"
            "hwm = [x for x in open('/proc/self/status') if x.startswith('VmHWM')][0].split()[1]\n"
            "print('MAXRSS', hwm)\nsys.exit(rc)\n")
    env = {**FAST, mail_config.PASSWORD_ENV: password("fr@example.org"), "PATH": "/usr/bin:/bin"}
    p = subprocess.run([sys.executable, "-c", code, "--home", str(home), "mail", "fetch", *args], capture_output=True,
                       text=True, timeout=300, env=env, cwd=ROOT)
    rss = int(p.stdout.split("MAXRSS")[-1].split()[0])
    return p.returncode, p.stdout + p.stderr, rss


@pytest.mark.slow
def test_a_40_mb_stray_attachment_is_named_and_never_downloaded(tmp_path):
    servers = MailServers(["fr@example.org"])
    try:
        home = tmp_path / "fr"
        code, out = run(home, *servers.setup_args("fr@example.org", "Player FR"))
        assert code == 0, out
        code, out, small = _fetch_rss(home, "--join", GAME)
        assert code == 0, out
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = "stranger@example.org", "fr@example.org", "EiA Jena: everything"
        msg.set_content("the whole campaign")
        msg.add_attachment(b"\x01" * 40_000_000, maintype="application", subtype="octet-stream",
                           filename=f"{GAME}_gamestart.pbm")
        msg.add_attachment(b"\x02" * 1000, maintype="video", subtype="mp4", filename="holiday.mp4")
        raw = msg.as_bytes()
        broken = EmailMessage()
        broken["From"], broken["To"], broken["Subject"] = "mangler@example.org", "fr@example.org", "EiA Jena: key"
        broken.set_content("key")
        broken.add_attachment(b"k" * 300, maintype="application", subtype="octet-stream", filename=f"{GAME}_FR.key")
        mangled = broken.as_bytes().replace(b"a2tr", b"a2*!", 1)
        m = _imaps(servers, "fr@example.org")
        try:
            assert m.append("INBOX", None, None, raw)[0] == "OK"
            assert m.append("INBOX", None, None, mangled)[0] == "OK"
        finally:
            m.logout()
        del raw, msg
        code, out, big = _fetch_rss(home, "--join", GAME)
        assert code == 0, out
        assert f"ignored {GAME}_gamestart.pbm (in 'EiA Jena: everything' from stranger@example.org): its attachment is about " \
               "40.0 MB, larger than any game file (at most 8.4 MB); it was not downloaded" in out, out
        assert "ignored holiday.mp4 (in 'EiA Jena: everything' from stranger@example.org)" in out, out
        assert f"ignored {GAME}_FR.key (in 'EiA Jena: key' from mangler@example.org): its attachment cannot be decoded" \
               in out, out
        assert big - small < 30_000, (small, big)  # KB: the 54 MB message was never held (it took 536 MB before)
        code, out, _ = _fetch_rss(home, "--join", GAME)
        assert "40.0 MB" not in out  # named once
    finally:
        servers.stop()


# ----------------------------------------------------------------- outages


@pytest.mark.slow
def test_imap_down_during_a_send_round_and_smtp_down_and_back_lose_nothing(game):
    homes, servers = game
    ru = env_of("RU")
    servers.gate.down()  # IMAP cannot be reached: the round still sends
    code, out = run(homes["RU"], "mail", "sync", "--once", "--retry-wait", "0", env=ru)
    assert code == 1 and "nothing fetched: the IMAP server 127.0.0.1" in out and "cannot be reached" in out, out
    assert "sent commout/" in out and "Traceback" not in out, out
    servers.gate.up()
    s = Session.open(homes["RU"], GAME, "RU", pw("RU"))
    setups.load_setup(s, "default")
    path = s.end_phase()  # a new turn file for FR and GB
    servers.smtp_down()  # SMTP cannot be reached: the round still fetches and loads
    code, out = run(homes["RU"], "mail", "sync", "--once", "--retry-wait", "0", "--tries", "2", env=ru)
    assert code == 1 and f"commout/{path.name}.eml not sent, left for the next try" in out, out
    assert "nothing fetched" not in out
    servers.smtp_up()
    code, out = run(homes["RU"], "mail", "sync", "--once", "--retry-wait", "0", env=ru)
    assert code == 0 and f"sent commout/{path.name}.eml to " in out, out
    servers.delivered()
    for p in ("FR", "GB"):
        code, out = run(homes[p], "mail", "sync", "--once", "--retry-wait", "0", env=env_of(p))
        assert code == 0 and f"loaded {path.name}" in out, out
    code, out = run(homes["RU"], "mail", "sync", "--once", "--retry-wait", "0", env=ru)
    assert "sent" not in out.replace("sent again", ""), out  # nothing went twice


# ----------------------------------------------------------------- answered, and too late


@pytest.mark.slow
def test_resend_unanswered_and_a_late_draft_withdrawn_once(game):
    homes, servers = game
    ru = env_of("RU")
    code, out = run(homes["RU"], "mail", "sync", "--once", "--retry-wait", "0", env=ru)
    assert code == 0, out
    s = Session.open(homes["RU"], GAME, "RU", pw("RU"))
    setups.load_setup(s, "default")
    path = s.end_phase()
    code, out = run(homes["RU"], "mail", "sync", "--once", "--retry-wait", "0", env=ru)
    assert code == 0 and f"sent commout/{path.name}.eml" in out, out
    due = [p for p, _ in Session.open(homes["RU"], GAME, "RU", pw("RU")).awaited()]
    assert due and set(due) <= {"FR", "GB"}, due
    late = due[0]
    code, out = run(homes["RU"], "mail", "resend", "--unanswered", "--retry-wait", "0", env=ru)
    assert code == 0 and f"sent again commout/{path.name}.eml to " in out, out  # a player who lost a mail
    assert all(HUMANS[p] in out for p in due) and HUMANS["RU"] not in out
    servers.delivered()
    code, out = run(homes[late], "mail", "sync", "--once", "--retry-wait", "0", env=env_of(late))
    assert code == 0 and out.count(f"loaded {path.name}") == 1, out  # the copy is ignored
    mine = Session.open(homes[late], GAME, late, pw(late))
    setups.load_setup(mine, "default")
    stale = mine.end_phase()  # ended, but not yet sent ...
    code, out = run(homes["RU"], "admin", "ai-play", "--password", HOST_PW)  # ... when the host lets the computer play
    assert code == 0, out
    code, out = run(homes["RU"], "mail", "sync", "--once", "--retry-wait", "0", env=ru)
    assert code == 0 and "sent commout/" in out, out
    servers.delivered()
    code, out = run(homes[late], "mail", "sync", "--once", "--retry-wait", "0", env=env_of(late))
    assert code == 0 and f"withdrawn commout/{stale.name}.eml: not sent, and it will not be" in out, out
    assert "the host's admin file" in out and f"sent commout/{stale.name}" not in out, out
    code, out = run(homes[late], "mail", "sync", "--once", "--retry-wait", "0", env=env_of(late))
    assert "withdrawn" not in out, out  # said once
    others = [p for p in ("FR", "GB") if p != late]
    for p in others:
        code, out = run(homes[p], "mail", "sync", "--once", "--retry-wait", "0", env=env_of(p))
        assert code == 0 and "refused" not in out and stale.name not in out, out  # never mailed on
    hashes = {p: Session.open(homes[p], GAME, p, pw(p)).state.state_hash() for p in HUMANS}
    assert len(set(hashes.values())) == 1, hashes


def test_a_file_that_is_only_early_is_waiting_not_refused(game):
    homes, servers = game
    s = Session.open(homes["RU"], GAME, "RU", pw("RU"))
    setups.load_setup(s, "default")
    first = s.end_phase()
    code, out = run(homes["RU"], "mail", "send", "--retry-wait", "0", env=env_of("RU"))
    assert code == 0, out
    servers.delivered()
    _empty(servers, HUMANS["GB"])  # Great Britain's copy of Russia's file is lost
    code, out = run(homes["FR"], "mail", "sync", "--once", "--retry-wait", "0", env=env_of("FR"))
    assert code == 0 and f"loaded {first.name}" in out, out
    mine = Session.open(homes["FR"], GAME, "FR", pw("FR"))
    setups.load_setup(mine, "default")
    second = mine.end_phase()  # follows Russia's file
    code, out = run(homes["FR"], "mail", "sync", "--once", "--retry-wait", "0", env=env_of("FR"))
    assert code == 0, out
    servers.delivered()
    code, out = run(homes["GB"], "mail", "sync", "--once", "--retry-wait", "0", env=env_of("GB"))
    assert code == 0 and f"waiting {second.name}: a file it follows has not arrived yet" in out, out
    assert "refused" not in out, out
    assert (homes["GB"] / "commin" / second.name).is_file()
    code, out = run(homes["RU"], "mail", "resend", first.name, "--to", "GB", "--retry-wait", "0", env=env_of("RU"))
    assert code == 0 and "sent again" in out, out
    servers.delivered()
    code, out = run(homes["GB"], "mail", "sync", "--once", "--retry-wait", "0", env=env_of("GB"))
    assert code == 0 and f"loaded {first.name}" in out and f"loaded {second.name}" in out, out
