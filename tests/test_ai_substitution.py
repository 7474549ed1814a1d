"""Substitution works (issue 19 item 5; 4.2.8, 000:204-206): a human replaced by the computer in the middle of a
by-email game goes on playing — orders, fleet movement — in every folder alike.

Two folders play by files: the host (France) and Great Britain's player.  The other five powers are the computer
(ai-medium).  After two months with the humans giving no orders, the host runs the real ``eiapbem admin replace GB
--type ai-hard``; both folders then play Great Britain's turns themselves for three months, and only France's files
travel.  Hashes are compared in both folders after every file.
"""

from __future__ import annotations

import re
import shutil

import pytest

from eiapbem.client import newgame, setups
from eiapbem.client.session import TEST_SCRYPT_ENV, Session
from eiapbem.pbem.email import Person
from eiapbem.rules.model import Phase, PlayerKind

pytestmark = pytest.mark.slow

GAME = "Trafalgar"
FAST = {TEST_SCRYPT_ENV: "10,1,1"}


def _pw(p):
    return f"secret-{p}"


@pytest.fixture
def folders(tmp_path, monkeypatch):
    monkeypatch.setenv(TEST_SCRYPT_ENV, FAST[TEST_SCRYPT_ENV])
    host, gb = tmp_path / "host", tmp_path / "gb"
    types = {"FR": "host", "GB": "client", "AU": "ai-medium", "PR": "ai-medium", "RU": "ai-medium", "SP": "ai-medium",
             "TU": "ai-medium"}
    players = [newgame.Player(p, f"Player {p}", f"{p.lower()}@example.org", t) for p, t in types.items()]
    created = newgame.new_game(host, GAME, "classic-1805", players, bids={},
                               options=newgame.options_from_flags(["allow-pbem-host-functions"]),
                               passwords={"FR": _pw("FR")}, host_password="host-secret",
                               host=Person("Host", "fr@example.org"))
    (gb / "commin").mkdir(parents=True)
    gs = created.gamestart
    shutil.copy(gs, gb / "commin" / gs.name)
    key = host / "commout" / f"{GAME}_GB.key"
    shutil.copy(key, gb / "commin" / key.name)
    newgame.join(gb, gb / "commin" / gs.name, "GB", created.one_time["GB"], _pw("GB"), "gb@example.org",
                 gb / "commin" / key.name)
    return {"FR": host, "GB": gb}


def _session(homes, p):
    return Session.open(homes[p], GAME, p, _pw(p))


def _send(src, dst, path):
    shutil.copy(path, dst / "commin" / path.name)
    rep = Session.open(dst, GAME, "GB" if "gb" in dst.name else "FR", _pw("GB" if "gb" in dst.name else "FR")).load_all()
    assert not rep.refused, rep.refused


def _play_until(homes, months_after_start):
    """Every human due ends its phase (the setup: the default one); files go to the other folder."""
    while True:
        st = _session(homes, "FR").state
        if st.date.index - st.start.index >= months_after_start:
            return
        due = [p for p in ("FR", "GB") if p in st.slot.actors and st.powers[p].controller is PlayerKind.HUMAN]
        assert due, st.slot
        paths = {}
        for p in due:
            s = _session(homes, p)
            if st.slot.phase is Phase.SETUP:
                setups.load_setup(s, "default")
            paths[p] = s.end_phase()
        for p, path in paths.items():
            _send(homes[p], homes["GB" if p == "FR" else "FR"], path)
        assert _session(homes, "FR").state.state_hash() == _session(homes, "GB").state.state_hash(), st.slot.key(st.date)


def test_a_human_replaced_by_the_computer_goes_on_fighting(folders, run_cli):
    homes = folders
    _play_until(homes, 2)
    code, out, err = run_cli("admin", "replace", "GB", "--type", "ai-hard", "--password", "host-secret", home=homes["FR"],
                             env=FAST)
    assert code == 0 and "played by the computer (ai-hard) from now on" in out, err
    admin = re.search(r"admin file commout/(\S+\.pbm)", out)
    path = homes["FR"] / "commout" / admin.group(1) if admin else sorted((homes["FR"] / "commout").glob(f"{GAME}_admin_*.pbm"))[-1]
    _send(homes["FR"], homes["GB"], path)
    assert _session(homes, "GB").state.powers["GB"].controller is PlayerKind.AI_HARD
    n_before = len(_session(homes, "GB").journal())
    _play_until(homes, 5)
    after = _session(homes, "GB").journal()[n_before:]
    texts = [e.text for e in after]
    # Its orders: Great Britain, now the computer, declares war on France (the natural enemy, 15.0) ...
    assert any("Great Britain declares war on France" in t for t in texts), texts[:40]
    # ... and its fleets sail (blockades of French ports, 8.8): movement by Great Britain after the replacement.
    gb_moves = [e for e in after if e.kind == "naval.move" and e.author == "GB"]
    assert gb_moves, [e.kind for e in after][:80]
    # Its corps march too (10.4, the computer's land play).
    assert any(e.author == "GB" and e.kind == "land.move" for e in after), sorted({e.kind for e in after if e.author == "GB"})
    assert _session(homes, "FR").state.state_hash() == _session(homes, "GB").state.state_hash()
