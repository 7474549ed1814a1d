"""End to end: a game by mail alone through a provider's real servers, with faults (issue 32).

Postfix (submission, STARTTLS, AUTH) delivers by LMTP into Dovecot (IMAP over TLS), under a throwaway CA given
with ``--ca-file``.  Russia hosts, France and Great Britain play by email, the other powers are the computer's.
On the way: a 40 MB stray attachment, IMAP down during a send round, SMTP down and back, a full mailbox (the
bounce is named and the resend it names delivers once space is freed), and a late file at the computer's
takeover (told to its author once, never a failure elsewhere).  Nothing is lost in silence, and every folder
ends in one state.
"""

from __future__ import annotations

import re

import pytest

from eiapbem.client import setups
from eiapbem.client.session import TEST_SCRYPT_ENV, Session
from eiapbem.rules.model import POWERS, Phase
from mailkit import MailServers
from sevenfolders import Folders, one_time_passwords, player_args
from test_mail import FAST, GAME, HOST_PW, HUMANS, env_of, pw, run
from test_mail_servers import _empty, _fill, _imaps

pytestmark = pytest.mark.slow

CLOCK = "2026-03-01 12:00"


def test_a_game_by_mail_alone_through_real_servers_with_faults(tmp_path, monkeypatch):
    from email.message import EmailMessage

    monkeypatch.setenv(TEST_SCRYPT_ENV, FAST[TEST_SCRYPT_ENV])
    servers = MailServers(list(HUMANS.values()), quotas={"gb@example.org": "100K"})
    clock = [CLOCK]
    try:
        homes = {p: tmp_path / p for p in HUMANS}
        types = {p: ("host" if p == "RU" else "client") if p in HUMANS else "ai-medium" for p in POWERS}
        code, out = run(homes["RU"], "new", GAME, "--scenario", "classic-1805", "--host-password", HOST_PW, "--password",
                        f"RU={pw('RU')}", "--option", "allow-pbem-host-functions", "--house-rules", "0,0,2,0",
                        *player_args(types))
        assert code == 0, out
        otp = one_time_passwords(out)
        for p, h in homes.items():
            code, out = run(h, *servers.setup_args(HUMANS[p], f"Player {p}", move_to="Handled"))
            assert code == 0, out

        def env(p):
            return {**env_of(p), "EIAPBEM_NOW": clock[0]} if p == "RU" else env_of(p)

        def sync(p, *extra):
            code, out = run(homes[p], "mail", "sync", "--once", "--retry-wait", "0", *extra, env=env(p))
            assert "Traceback" not in out, out
            return code, out

        code, out = run(homes["RU"], "mail", "send", "--retry-wait", "0", env=env("RU"))
        assert code == 0 and out.count("sent commout/") == 3, out
        servers.delivered()
        # A stray 40 MB attachment in France's mailbox: named once, never downloaded.
        stray = EmailMessage()
        stray["From"], stray["To"], stray["Subject"] = "stranger@example.org", HUMANS["FR"], f"EiA {GAME}: the film"
        stray.set_content("the whole campaign")
        stray.add_attachment(b"\x01" * 40_000_000, maintype="application", subtype="octet-stream",
                             filename=f"{GAME}_1805-01_film_FR.pbm")
        m = _imaps(servers, HUMANS["FR"])
        try:
            assert m.append("INBOX", None, None, stray.as_bytes())[0] == "OK"
        finally:
            m.logout()
        del stray
        for p in ("FR", "GB"):
            code, out = run(homes[p], "mail", "fetch", "--join", GAME, env=env(p))
            assert code == 0 and f"fetched commin/{GAME}_gamestart.pbm" in out, out
            if p == "FR":
                assert "from stranger@example.org): its attachment is about 40.0 MB" in out, out
            code, out = run(homes[p], "join", f"commin/{GAME}_gamestart.pbm", "--power", p, "--email", HUMANS[p],
                            "--one-time-password", otp[p], "--password", pw(p))
            assert code == 0, out

        def sync_all(first=()):
            outs = {}
            for p in list(first) + [q for q in HUMANS if q not in first]:
                code, out = sync(p)
                assert code == 0, (p, out)
                assert "refused" not in out and "bounced" not in out, (p, out)
                outs[p] = out
            servers.delivered()
            return outs

        def hashes():
            return Folders(homes, GAME).saved_hashes(HUMANS)

        def play(p):
            s = Session.open(homes[p], GAME, p, pw(p))
            if s.state.slot.phase is Phase.SETUP:
                setups.load_setup(s, "default")
            s.end_phase()

        sync_all()  # the game's own first fetch names the stray again (the join has a record of its own) ...
        outs = sync_all()
        assert "40.0 MB" not in outs["FR"]  # ... and then never again
        faults = ["imap", "smtp", "full", "late"]
        seen: list[str] = []
        slots = 0
        while faults:
            host = Session.open(homes["RU"], GAME, "RU", pw("RU"))
            st = host.state
            assert st.slot is not None and slots < 60, (seen, faults)
            due = [p for p, _ in host.awaited()]
            assert due and set(due) <= set(HUMANS), due
            fault = faults[0]
            if fault == "late" and (st.slot.simultaneous or due != ["FR"]):
                fault = ""  # the computer takes only a sequential slot of an email player
            if fault == "imap":  # IMAP down during the send round: each round still sends
                for p in due:
                    play(p)
                servers.gate.down()
                for p in due:
                    code, out = sync(p)
                    assert code == 1 and "nothing fetched" in out and "cannot be reached" in out, out
                    assert re.search(r"sent commout/\S+\.pbm\.eml to ", out), out
                servers.gate.up()
                servers.delivered()
                sync_all(first=due)
            elif fault == "smtp":  # SMTP down: the round still fetches; the next round after it is back sends
                for p in due:
                    play(p)
                servers.smtp_down()
                for p in due:
                    code, out = sync(p, "--tries", "1")
                    assert code == 1 and "not sent, left for the next try" in out and "nothing fetched" not in out, out
                servers.smtp_up()
                for p in due:
                    code, out = sync(p)
                    assert code == 0 and re.search(r"sent commout/\S+\.pbm\.eml to ", out), out
                servers.delivered()
                sync_all(first=due)
            elif fault == "full" and any(p != "GB" for p in due):  # Great Britain's mailbox is full
                _fill(servers, HUMANS["GB"], 98_000)
                for p in due:
                    play(p)
                for p in due:
                    code, out = sync(p)
                    assert code == 0, out  # the server took it: sent
                servers.delivered()
                resends = []
                for p in due:
                    if p == "GB":
                        continue
                    code, out = sync(p)
                    lines = [x for x in out.splitlines() if "to Great Britain (gb@example.org) bounced: mailbox full (5.2.2)" in x]
                    assert code == 1 and lines, out  # named, rc 1
                    resends += [(p, re.search(r"'eiapbem mail resend (\S+) --to (\S+)'", x).groups()) for x in lines]
                    code, out = run(homes[p], "status", "--password", pw(p), *(["--power", p] if p == "RU" else []))
                    assert "Mail: your file" in out and "bounced: mailbox full" in out, out
                code, out = sync("GB")
                assert code == 0 and "refused" not in out, out  # GB may hold an early file: waiting, rc 0
                _empty(servers, HUMANS["GB"])  # space is freed
                for p, (name, to) in resends:
                    code, out = run(homes[p], "mail", "resend", name, "--to", to, "--retry-wait", "0", env=env(p))
                    assert code == 0 and f"to {to}" in out, out
                servers.delivered()
                sync_all(first=["GB"])
                for p, _ in resends:
                    code, out = run(homes[p], "status", "--password", pw(p), *(["--power", p] if p == "RU" else []))
                    assert "Mail:" not in out, out
            elif fault == "late":  # France is late: the computer plays its slot, then France's file arrives
                code, out = sync("RU")  # the host's round sees the wait begin
                assert code == 0, out
                clock[0] = "2026-03-01 15:00"
                code, out = sync("RU")
                assert code == 0 and "late: FR (" in out and "the computer played the slot" in out, out
                servers.delivered()
                play("FR")  # France ends its slot after all, its IMAP down: its round sends but cannot fetch
                servers.gate.down()
                code, out = sync("FR")
                assert code == 1 and "nothing fetched" in out and re.search(r"sent commout/\S+_FR\.pbm\.eml", out), out
                late = re.search(r"sent commout/(\S+_FR\.pbm)\.eml", out).group(1)
                servers.gate.up()
                servers.delivered()
                code, out = sync("RU")
                assert code == 0 and f"too late {late}:" in out and "FR is told by mail" in out, out
                servers.delivered()
                code, out = sync("RU")
                assert "too late" not in out and "told" not in out, out  # once
                code, out = sync("GB")
                assert code == 0 and f"too late {late}" in out and "refused" not in out, out  # no fork failure
                code, out = sync("FR")
                assert code == 0 and "loaded" in out, out  # France follows the host's act
                notices = [str(m["Subject"]) for m in _messages_of(servers, HUMANS["FR"])]
                assert sum("too late" in s for s in notices) == 1, notices
                sync_all()
            else:
                for p in due:
                    play(p)
                sync_all(first=due)
                if len(due) > 1:
                    sync_all()
            if fault:
                seen.append(faults.pop(0))
            hs = hashes()
            assert len(set(hs.values())) == 1, (st.slot.key(st.date), fault, hs)
            slots += 1
        assert seen == ["imap", "smtp", "full", "late"]
        outs = sync_all()
        assert all("nothing new" in o for o in outs.values()), outs
        assert len(set(hashes().values())) == 1
    finally:
        servers.stop()


def _messages_of(servers, user):
    from test_mail_servers import _messages

    out = _messages(servers, user)
    m = _imaps(servers, user)
    try:
        m.select("Handled", readonly=True)
        typ, data = m.search(None, "ALL")
        import email
        import email.policy

        for n in data[0].split():
            typ, d = m.fetch(n, "(BODY.PEEK[HEADER])")
            out.append(email.message_from_bytes(d[0][1], policy=email.policy.default))
    finally:
        m.logout()
    return out
