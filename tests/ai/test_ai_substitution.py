"""Substitution works (issue 19 item 5; 4.2.8, 000:204-206): a human replaced by the computer in the middle of a
by-email game goes on playing — orders, fleet movement — in every folder alike.

Two folders play by files: the host (France) and Great Britain's player.  The other five powers are the computer
(ai-medium).  After two months with the humans giving no orders, the host runs the real ``eiapbem admin replace GB
--type ai-hard``; both folders then play Great Britain's turns themselves for three months, and only France's files
travel.  Hashes are compared in both folders after every file.
"""

from __future__ import annotations

import re

import pytest

from eiapbem.client import setups
from eiapbem.client.session import TEST_SCRYPT_ENV
from eiapbem.pbem.email import Person
from eiapbem.rules.model import Phase, PlayerKind
from sevenfolders import HOST_PW, SCRYPT, Folders, new_by_api

pytestmark = pytest.mark.slow

GAME = "Trafalgar"


@pytest.fixture
def folders(tmp_path, monkeypatch):
    monkeypatch.setenv(TEST_SCRYPT_ENV, SCRYPT)
    types = {"FR": "host", "GB": "client", "AU": "ai-medium", "PR": "ai-medium", "RU": "ai-medium", "SP": "ai-medium",
             "TU": "ai-medium"}
    game = Folders({"FR": tmp_path / "host", "GB": tmp_path / "gb"}, GAME)
    new_by_api(game.homes, types, game=GAME, flags=["allow-pbem-host-functions"], host=Person("Host", "fr@example.org"))
    return game


def _send(game, author, path):
    """``author``'s file to the other folder, loaded there."""
    other = "GB" if author == "FR" else "FR"
    game.deliver(author, path, to=(other,))
    game.load_everyone({other: game.open(other)})


def _play_until(game, months_after_start):
    """Every human due ends its phase (the setup: the default one); files go to the other folder."""
    while True:
        st = game.open("FR").state
        if st.date.index - st.start.index >= months_after_start:
            return
        due = [p for p in ("FR", "GB") if p in st.slot.actors and st.powers[p].controller is PlayerKind.HUMAN]
        assert due, st.slot
        paths = {}
        for p in due:
            s = game.open(p)
            if st.slot.phase is Phase.SETUP:
                setups.load_setup(s, "default")
            paths[p] = s.end_phase()
        for p, path in paths.items():
            _send(game, p, path)
        assert game.open("FR").state.state_hash() == game.open("GB").state.state_hash(), st.slot.key(st.date)


def test_a_human_replaced_by_the_computer_goes_on_fighting(folders, run_cli):
    game = folders
    homes = game.homes
    _play_until(game, 2)
    code, out, err = run_cli("admin", "replace", "GB", "--type", "ai-hard", "--password", HOST_PW, home=homes["FR"],
                             env={TEST_SCRYPT_ENV: SCRYPT})
    assert code == 0 and "played by the computer (ai-hard) from now on" in out, err
    admin = re.search(r"admin file commout/(\S+\.pbm)", out)
    path = homes["FR"] / "commout" / admin.group(1) if admin else sorted((homes["FR"] / "commout").glob(f"{GAME}_admin_*.pbm"))[-1]
    _send(game, "FR", path)
    assert game.open("GB").state.powers["GB"].controller is PlayerKind.AI_HARD
    n_before = len(game.open("GB").journal())
    _play_until(game, 5)
    after = game.open("GB").journal()[n_before:]
    texts = [e.text for e in after]
    # Its orders: Great Britain, now the computer, declares war on France (the natural enemy, 15.0) ...
    assert any("Great Britain declares war on France" in t for t in texts), texts[:40]
    # ... and its fleets sail (blockades of French ports, 8.8): movement by Great Britain after the replacement.
    gb_moves = [e for e in after if e.kind == "naval.move" and e.author == "GB"]
    assert gb_moves, [e.kind for e in after][:80]
    # Its corps go to war too: marched (10.4) or carried by its fleets and landed (8.6, 10.4.5), as the campaign
    # measures count a corps moved.
    assert any(e.author == "GB" and e.kind in ("land.move", "land.disembark") for e in after), \
        sorted({e.kind for e in after if e.author == "GB"})
    assert game.open("FR").state.state_hash() == game.open("GB").state.state_hash()
