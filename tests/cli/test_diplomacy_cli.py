"""The diplomacy phase through the real command, as a player meets it (issue 16 items 2, 3 and 5).

One human (Russia, the host, in its own folder) and six computer powers: the
orders' ``--help`` carries the manual's buttons; an order the rules forbid is
one sentence, exit 1, nothing changed; ``end-phase`` twice (the sealed
phase's two rounds) and the war is in the log.
"""

from __future__ import annotations

import pytest

from eiapbem.client import newgame, setups
from eiapbem.client.session import TEST_SCRYPT_ENV, Session
from clikit import files_in

pytestmark = pytest.mark.slow

GAME = "Friedland"
FAST = {TEST_SCRYPT_ENV: "10,1,1", "EIAPBEM_PASSWORD": "pw-RU"}
TYPES = {"RU": "host", "TU": "ai-easy", "AU": "ai-easy", "PR": "ai-medium", "SP": "ai-hard", "FR": "ai-hard", "GB": "ai-medium"}


def _save(home):
    return files_in(home / "save")


def test_a_player_declares_war_by_command_and_refusals_change_nothing(tmp_path, run_cli, monkeypatch):
    monkeypatch.setenv(TEST_SCRYPT_ENV, "10,1,1")
    players = [newgame.Player(p, f"Player {p}", f"{p.lower()}@example.org", t) for p, t in TYPES.items()]
    newgame.new_game(tmp_path, GAME, "classic-1805", players, bids={}, options=newgame.options_from_flags([]),
                     passwords={"RU": "pw-RU"}, host_password="pw-host")
    s = Session.open(tmp_path, GAME, "RU", "pw-RU")
    setups.load_setup(s, "default")
    s.end_phase()

    def cli(*args):
        return run_cli(*args, home=tmp_path, env=FAST)

    code, out, err = cli("diplomacy", "--help")
    assert code == 0 and "Declare War" in out and "Sue For Peace" in out and "Request/Allow Trade to" in out
    code, out, err = cli("status")
    assert "Sealed diplomacy, round 1 of 2" in out, out
    code, out, err = cli("diplomacy", "declare-war", "--target", "TU")
    assert code == 0 and "accepted" in out, err
    before = _save(tmp_path)
    for args, sentence in [
        (("declare-war", "--target", "TU"), "Russia already declares war on Turkey in these orders"),
        (("trade", "--partner", "FR"), "trade is requested with Great Britain only, not with France (6.10)"),
        (("sue-for-peace", "--to", "FR"), "Russia is not at war with France: no peace to sue for (6.4.2)"),
        (("break-alliance", "--partner", "AU"), "Russia is not allied with Austria: no alliance to break (6.7)"),
        (("surrender-terms", "--enemy", "TU", "--term", "C.7"), "C.7 may only be applied against Great Britain"),
        (("surrender-terms", "--enemy", "TU", "--give-conditional", "--term", "C.3"),
         "C.3 is not on list B, which a conditional peace uses (6.4)"),
    ]:
        code, out, err = cli("diplomacy", *args)
        assert code == 1 and sentence in err and "Traceback" not in err, (args, err)
        assert _save(tmp_path) == before
    code, out, err = cli("end-phase")
    assert code == 0, err
    code, out, err = cli("status")
    assert "1805-01/diplomacy/orders" in out and "Sealed diplomacy, round 2 of 2" in out, out
    before = _save(tmp_path)
    code, out, err = cli("diplomacy", "trade", "--partner", "GB")  # 6.0: the reveal round takes no new orders
    assert code == 1 and "the reveal round takes no new orders" in err and "Traceback" not in err, err
    assert _save(tmp_path) == before
    code, out, err = cli("end-phase")
    assert code == 0, err
    code, out, err = cli("log")
    assert "Russia declares war on Turkey (6.2.1): -3 political points" in out
    code, out, err = cli("status")  # 6.0: the results at the start of the reinforcement phase
    assert "Diplomacy results of" in out and "  Russia declares war on Turkey (6.2.1): -3 political points" in out, out
    st = Session.open(tmp_path, GAME, "RU", "pw-RU").state
    # Russia's reinforcement slot, nothing due, is skipped (13.9, a new game's pace): the results stay in its status.
    assert "TU" in st.powers["RU"].wars and st.slot.phase.value in ("reinforcement", "naval")
