"""End to end: three players' folders play a month through real mail servers, no file copied by hand (issue 22).

Russia hosts; France and Great Britain play by email; the other powers are the
computer's.  The host mails the gamestarts ('mail send'), the players fetch
them ('mail fetch --join') and join; from then on every file goes out by SMTP
(Postfix, STARTTLS and AUTH) and comes in by IMAP over TLS (Dovecot) through
'eiapbem mail sync' in each folder.  The slots themselves are played through the session API, as in the
other end-to-end tests.
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

pytestmark = pytest.mark.slow


def _hand_files(home):
    """Every file a player could have copied by hand: what sits in commin/ and battles/."""
    return sorted(p.name for d in ("commin", "battles") if (home / d).is_dir() for p in (home / d).iterdir())


def test_three_folders_play_a_month_by_mail(tmp_path, monkeypatch):
    monkeypatch.setenv(TEST_SCRYPT_ENV, FAST[TEST_SCRYPT_ENV])
    servers = MailServers(list(HUMANS.values()))
    dove = servers.dovecot
    try:
        homes = {p: tmp_path / p for p in HUMANS}
        types = {p: ("host" if p == "RU" else "client") if p in HUMANS else "ai-medium" for p in POWERS}
        args = ["new", GAME, "--scenario", "classic-1805", "--host-password", HOST_PW, "--password", f"RU={pw('RU')}",
                "--option", "allow-pbem-host-functions", "--house-rules", "240,480,720,2", *player_args(types)]
        code, out = run(homes["RU"], *args)
        assert code == 0, out
        otp = one_time_passwords(out)
        for p, h in homes.items():
            code, out = run(h, *servers.setup_args(HUMANS[p], f"Player {p}", move_to="Handled"))
            assert code == 0, out

        # The gamestarts go out by mail; the players fetch them and join.
        code, out = run(homes["RU"], "mail", "send", "--retry-wait", "0", env=env_of("RU"))
        assert code == 0 and out.count("sent commout/") == 3, out  # two gamestarts and the house rules' admin file
        servers.delivered()
        for p in ("FR", "GB"):
            code, out = run(homes[p], "mail", "fetch", "--join", GAME, env=env_of(p))
            assert code == 0 and f"fetched commin/{GAME}_gamestart.pbm" in out and f"fetched commin/{GAME}_{p}.key" in out, out
            code, out = run(homes[p], "join", f"commin/{GAME}_gamestart.pbm", "--power", p, "--email", HUMANS[p],
                            "--one-time-password", otp[p], "--password", pw(p))
            assert code == 0, out
            code, out = run(homes[p], "mail", "fetch", "--join", GAME, env=env_of(p))
            assert "fetched" not in out  # fetching twice changes nothing

        def sync_all(first=()):
            outs = {}
            for p in list(first) + [q for q in HUMANS if q not in first]:
                code, out = run(homes[p], "mail", "sync", "--once", "--retry-wait", "0", env=env_of(p))
                assert code == 0, (p, out)
                assert "refused" not in out, (p, out)
                outs[p] = out
                servers.delivered()
            return outs

        def hashes():
            return Folders(homes, GAME).saved_hashes(HUMANS)

        sync_all()
        host = Session.open(homes["RU"], GAME, "RU", pw("RU"))
        start = host.state.date
        slots = 0
        while True:
            host = Session.open(homes["RU"], GAME, "RU", pw("RU"))
            st = host.state
            if st.slot is not None and st.slot.phase is not Phase.SETUP and st.date.index - start.index >= 1:
                break
            due = [p for p, _ in host.awaited()]
            assert due and set(due) <= set(HUMANS), due
            for p in due:
                s = Session.open(homes[p], GAME, p, pw(p))
                if s.state.slot.phase is Phase.SETUP:
                    setups.load_setup(s, "default")
                s.end_phase()
            outs = sync_all(first=due)
            for p in due:
                assert re.search(r"sent commout/\S+\.pbm\.eml to ", outs[p]), outs[p]
            if len(due) > 1:
                sync_all()  # a simultaneous slot: the first to send had not yet received the others' orders
            hs = hashes()
            assert len(set(hs.values())) == 1, (st.slot.key(st.date), hs)
            slots += 1
            assert slots < 40
        assert slots >= 10  # the setup, diplomacy, reinforcement, naval and land slots of three humans
        # Nothing was copied by hand: each file in commin/ came by mail; every handled message was moved away.
        for p in ("FR", "GB"):
            assert f"{GAME}_gamestart.pbm" in _hand_files(homes[p])
            assert dove.count(HUMANS[p]) == 0 and dove.count(HUMANS[p], "Handled") > 0
        for p in ("FR", "GB"):  # the house rules set at creation reached everyone's log by mail
            log = Session.open(homes[p], GAME, p, pw(p)).journal()
            assert any(e.kind == "admin.house-rules" and dict(e.params)["ai_play"] == 720 for e in log)
        # A second round finds nothing new anywhere.
        outs = sync_all()
        assert all("nothing new" in o for o in outs.values()), outs
    finally:
        servers.stop()
