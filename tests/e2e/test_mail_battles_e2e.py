"""End to end: a battle between two humans whose battle files travel by mail (issue 22 item 2, 4.2.7 000:168-176),
through Postfix (STARTTLS, AUTH) and Dovecot (IMAP over TLS).

The game of ``test_battle_files_e2e`` (France, the host's power, attacks two
Austrian corps at Verona); this time no battle file is copied by hand: each side
runs 'eiapbem mail sync', which sends its battle file to the other side and
fetches and loads the other side's.
"""

from __future__ import annotations

import re

import pytest

from eiapbem.client import mail_config
from mailkit import MailServers, password
from sevenfolders import pw
from test_battle_files_e2e import CLIENTS, FAST, GAME, _first, _hashes, _home, game  # noqa: F401 (fixture)
from test_mail import run

pytestmark = pytest.mark.slow

ADDRESS = {"FR": "fr@example.org", "AU": "au@example.org", "PR": "pr@example.org"}


def test_battle_files_go_back_and_forth_by_mail(game, tmp_path):  # noqa: F811
    homes = game
    servers = MailServers(list(ADDRESS.values()))
    try:
        def cli(p, *args):
            env = {mail_config.PASSWORD_ENV: password(ADDRESS[p]), **FAST}
            code, out = run(_home(homes, p), *args, "--password", pw(p), *(("--power", p) if p not in CLIENTS else ()),
                            env=env)
            assert code == 0, (args, out)
            if args[:2] == ("mail", "sync"):
                servers.delivered()
            return out

        for p in ("FR", "AU", "PR"):
            code, out = run(_home(homes, p), *servers.setup_args(ADDRESS[p], f"Player {p}"))
            assert code == 0, out
            assert "marked" in cli(p, "mail", "send", "--mark-sent")  # the drafts so far went by hand
        for c in ("corps:FR:I", "corps:FR:II"):
            cli("FR", "land", "move", "--unit", c, "--path", "verona")
        cli("FR", "land", "attack", "--area", "verona", "--yes")
        name = f"pbembattle_{GAME}_Verona0-question.battle"  # France's question; Austria's reply has its own name
        reply = f"pbembattle_{GAME}_Verona0-reply.battle"
        exchanges = 0
        for _ in range(60):
            status = cli("FR", "status")
            mine = re.findall(r"(battle:[^\s,]+) for FR \((battle\.[\w-]+): ([^)]*)\)", status)
            if mine:
                cli("FR", "answer", mine[0][0], _first(mine[0][1], mine[0][2]))
                continue
            if "the game waits for Austria's reply" not in status:
                break
            out = cli("FR", "mail", "sync", "--once", "--retry-wait", "0")
            assert f"sent battles/{name} to au@example.org" in out or exchanges, out
            out = cli("AU", "mail", "sync", "--once", "--retry-wait", "0")
            assert f"fetched battles/{name}" in out and f"loaded {name}" in out, out
            for _ in range(30):
                status = cli("AU", "status")
                asked = re.findall(r"'eiapbem answer (battle:\S+) CHOICE'", status)
                if not asked:
                    break
                kind, opts = re.search(r"asks AU (battle\.[\w-]+) \(([^)]*)\): 'eiapbem answer " + re.escape(asked[0]),
                                       status).groups()
                cli("AU", "answer", asked[0], _first(kind, opts))
            out = cli("AU", "mail", "sync", "--once", "--retry-wait", "0")
            assert f"sent battles/{reply} to fr@example.org" in out, out
            out = cli("FR", "mail", "sync", "--once", "--retry-wait", "0")
            assert f"fetched battles/{reply}" in out and f"loaded {reply}" in out, out
            exchanges += 1
        assert exchanges >= 1
        assert "is over" in cli("FR", "status")
        cli("FR", "end-phase")
        cli("FR", "mail", "sync", "--once", "--retry-wait", "0")
        for p in CLIENTS:
            out = cli(p, "mail", "sync", "--once", "--retry-wait", "0")
            assert "loaded" in out and "land_turn_FR" in out, out
        hashes = _hashes(homes)
        assert len(set(hashes.values())) == 1, hashes
    finally:
        servers.stop()
