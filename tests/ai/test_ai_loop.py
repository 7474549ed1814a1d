"""AI powers in the game loop: every client plays them itself (docs/decisions.md "AI players").

A host folder (France) and one email client (Great Britain) with five AI
powers, through the real ``eiapbem`` command: setup and three months (March
has an economic phase), every file copied to the other folder, equal state
hashes in both folders after every exchanged file; the host's "Quick play turn
with AI" and replacing a player by the computer (4.2.8, 000:202-206).  And a
hot-seat game with AI powers (4.2.1, 000:76-84).
"""

from __future__ import annotations

import re
import shutil

import pytest

from eiapbem.client import newgame, setups
from eiapbem.core.errors import IllegalAction
from eiapbem.host import admin
from eiapbem.client.session import TEST_SCRYPT_ENV, Session, step_for
from eiapbem.client.autoplay import AutoPlay
from eiapbem.rules.model import POWERS, Phase, PlayerKind
from eiapbem.rules.economy.victory import victory_level

GAME = "Eylau"
FAST = {TEST_SCRYPT_ENV: "10,1,1"}
TYPES = {"RU": "ai-easy", "TU": "ai-medium", "AU": "ai-hard", "PR": "ai-hard", "SP": "ai-medium", "FR": "host", "GB": "client"}


pytestmark = pytest.mark.usefixtures("fast_keys")  # small key files (tests/conftest.py)


def _pw(p):
    return f"secret-{p}"


def _hash(home, p):
    return Session.open(home, GAME, p, _pw(p)).state.state_hash()


@pytest.mark.slow
def test_host_and_one_client_with_five_ai_powers_play_three_months(tmp_path, run_cli):
    host, client = tmp_path / "host", tmp_path / "gb"
    args = ["new", GAME, "--scenario", "classic-1805", "--host-password", "host-secret", "--password", f"FR={_pw('FR')}",
            "--option", "allow-pbem-host-functions"]
    for p, t in TYPES.items():
        args += ["--player", f"{p}:{t}" if t.startswith("ai-") else f"{p}:Player {p}:{p.lower()}@example.org:{t}"]
    code, out, err = run_cli(*args, home=host, env=FAST)
    assert code == 0, err
    # 4.2.3: no key or gamestart mail for the computer's powers, only for the email client
    otp = dict(re.findall(r"  (\w\w): send .* one-time password separately: (\S+)", out))
    assert list(otp) == ["GB"]
    gs = host / "commout" / f"{GAME}_gamestart.pbm"
    (client / "commin").mkdir(parents=True)
    shutil.copy(gs, client / "commin" / gs.name)
    shutil.copy(host / "commout" / f"{GAME}_GB.key", client / "commin" / f"{GAME}_GB.key")
    code, out, err = run_cli("join", f"commin/{gs.name}", "--power", "GB", "--email", "gb@example.org",
                             "--one-time-password", otp["GB"], "--password", _pw("GB"), home=client, env=FAST)
    assert code == 0, err
    # RU TU AU PR SP set up by the computer at creation, the same in both folders (5.3 order, 000:332)
    assert _hash(host, "FR") == _hash(client, "GB")
    fr = Session.open(host, GAME, "FR", _pw("FR"))
    assert fr.state.slot.key(fr.state.date) == "1805-01/setup/turn/FR"
    # 4.2.3 (000:148-154): the start bonus of the AI powers, rolled with the game creation's dice
    st = fr.state
    for p, t in TYPES.items():
        lo, hi = {"ai-easy": (0, 0), "ai-medium": (1, 3), "ai-hard": (2, 6), "host": (0, 0), "client": (0, 0)}[t]
        assert victory_level(st, p) * lo // 100 <= st.powers[p].victory_points <= victory_level(st, p) * hi // 100
    code, out, err = run_cli("status", "--password", _pw("GB"), home=client)
    assert code == 0, err
    assert "Played by the computer (every client plays their turns itself): AU (ai-hard), PR (ai-hard), RU (ai-easy), " \
           "SP (ai-medium), TU (ai-medium)" in out
    code, out, err = run_cli("show", "power", "AU", "--password", _pw("GB"), home=client)
    assert code == 0 and "Austria (AU), played by the computer (ai-hard)" in out, err

    homes = {"FR": host, "GB": client}
    pw = {"FR": _pw("FR"), "GB": _pw("GB")}
    exchanged = 0
    quick_played = False
    economic = False
    while True:
        s = Session.open(host, GAME, "FR", _pw("FR"))
        st = s.state
        if st.date.index - st.start.index >= 3:
            break
        slot = st.slot
        economic |= slot.phase is Phase.ECONOMIC
        due = [p for p in ("FR", "GB") if p in slot.actors]
        assert due, slot  # an AI slot is never waited for: it was played when the slot before it ended
        if not quick_played and slot.phase is Phase.NAVAL and slot.power == "GB":
            # 4.2.8 (000:202): the host has the computer play the turn of the client holding the game up
            code, out, err = run_cli("admin", "ai-play", "--level", "ai-hard", "--password", "host-secret", home=host,
                                     env={**FAST, "EIAPBEM_PASSWORD": "host-secret"})
            assert code == 0, err
            admin_files = sorted((host / "commout").glob(f"{GAME}_admin_*.pbm"))
            shutil.copy(admin_files[-1], client / "commin" / admin_files[-1].name)
            code, out, err = run_cli("load", "--password", _pw("GB"), home=client)
            assert code == 0 and "loaded" in out, err
            assert _hash(host, "FR") == _hash(client, "GB")
            log = Session.open(client, GAME, "GB", _pw("GB")).journal()
            assert any("the computer (ai-hard) played GB's turn 1805-01/naval/turn/GB" in e.text for e in log)
            quick_played = True
            continue
        files = {}
        for p in due:
            if slot.phase is Phase.SETUP:
                code, out, err = run_cli("setup", "load", "default", "--password", pw[p], home=homes[p])
                assert code == 0, err
            code, out, err = run_cli("end-phase", "--yes", "--password", pw[p], home=homes[p])  # --yes: a land slot's
            assert code == 0, err  # end asks when a depot could spare a foraging corps (10.5)
            files[p] = re.search(r"turn file commout/(\S+\.pbm)", out).group(1)
        for p, name in files.items():
            other = "GB" if p == "FR" else "FR"
            shutil.copy(homes[p] / "commout" / name, homes[other] / "commin" / name)
            code, out, err = run_cli("load", "--password", pw[other], home=homes[other])
            assert code == 0, (out, err)
            exchanged += 1
        assert _hash(host, "FR") == _hash(client, "GB"), slot.key(st.date)
    assert quick_played and economic and exchanged >= 20
    ended = Session.open(client, GAME, "GB", _pw("GB"))
    end = ended.state
    assert str(end.date) == "1805-04" and end.slot.phase is Phase.DIPLOMACY
    assert [e for e in ended.journal() if e.kind == "economy.summary"]  # 12.0 resolved with the AI powers' orders

    # 4.2.8 (000:206): Great Britain's player replaced by the computer; both folders play it from now on
    code, out, err = run_cli("admin", "replace", "GB", "--type", "ai-easy", "--password", "host-secret", home=host)
    assert code == 0 and "played by the computer (ai-easy) from now on" in out, err
    admin_files = sorted((host / "commout").glob(f"{GAME}_admin_*.pbm"))
    shutil.copy(admin_files[-1], client / "commin" / admin_files[-1].name)
    code, out, err = run_cli("load", "--password", _pw("GB"), home=client)
    assert code == 0, err
    for _ in ("commit", "orders"):  # diplomacy (sealed, two rounds): only France's files are due
        code, out, err = run_cli("end-phase", "--password", _pw("FR"), home=host)
        assert code == 0, err
        name = re.search(r"turn file commout/(\S+\.pbm)", out).group(1)
        shutil.copy(host / "commout" / name, client / "commin" / name)
        code, out, err = run_cli("load", "--password", _pw("GB"), home=client)
        assert code == 0, err
    s = Session.open(client, GAME, "GB", _pw("GB"))
    assert s.state.powers["GB"].controller is PlayerKind.AI_EASY
    assert s.state.slot.key(s.state.date) == "1805-04/reinforcement/turn/FR"  # SP GB PR AU TU RU played by the computer
    assert _hash(host, "FR") == _hash(client, "GB")


def test_hot_seat_game_with_ai_powers(tmp_path):
    # 4.2.1 (000:76-84): humans at one computer, the other powers played by the computer
    types = {"RU": "host", "TU": "hotseat", "AU": "ai-easy", "PR": "ai-medium", "SP": "ai-hard", "FR": "ai-hard", "GB": "ai-medium"}
    players = [newgame.Player(p, f"Player {p}", f"{p.lower()}@example.org", t) for p, t in types.items()]
    # the full pace: every reinforcement slot is played (the humans' are otherwise skipped while nothing is due, 13.9)
    newgame.new_game(tmp_path, GAME, "classic-1805", players, bids={},
                     options=newgame.options_from_flags(["allow-pbem-host-functions", "full-pace"]),
                     passwords={"RU": "pw-RU", "TU": "pw-TU"}, host_password="pw-host")
    # nobody plays by email, and no key of an AI power is kept anywhere: nobody can sign a file as the computer
    assert not list((tmp_path / "commout").glob("*.key"))
    assert sorted(p.name for p in tmp_path.glob("*.key")) == [f"{GAME}_RU.key", f"{GAME}_TU.key", f"{GAME}_host.key"]
    for p in ("RU", "TU"):
        s = Session.open(tmp_path, None, p, f"pw-{p}")
        assert s.state.slot.power == p
        setups.load_setup(s, "default")
        s.end_phase()
    s = Session.open(tmp_path, None, "RU", "pw-RU")
    # AU PR SP FR GB set up by the computer; diplomacy waits for the two humans only
    assert s.state.slot.phase is Phase.DIPLOMACY and [p for p, _ in s.awaited()] == ["RU", "TU"]
    # the sealed diplomacy phase (issue 16): first the commitments, then the orders
    assert [sl for sl, _ in step_for(s.state).slots] == ["1805-01/diplomacy/commit/RU", "1805-01/diplomacy/commit/TU"]
    host = Session.open(tmp_path, None, "host", "pw-host")
    with pytest.raises(IllegalAction, match="played by every power at once; the computer plays only a player's own turn"):
        admin.ai_play(host)
    s.end_phase()
    Session.open(tmp_path, None, "TU", "pw-TU").end_phase()
    s = Session.open(tmp_path, None, "RU", "pw-RU")
    assert [sl for sl, _ in step_for(s.state).slots] == ["1805-01/diplomacy/orders/RU", "1805-01/diplomacy/orders/TU"]
    s.end_phase()
    Session.open(tmp_path, None, "TU", "pw-TU").end_phase()
    s = Session.open(tmp_path, None, "RU", "pw-RU")
    # 7.0 order SP GB PR AU TU RU FR: the computer's SP GB PR AU played, TU's turn now
    assert s.state.slot.key(s.state.date) == "1805-01/reinforcement/turn/TU"
    assert s.awaited() == [("TU", "1805-01/reinforcement/turn/TU")]
    # 4.2.8 (000:202): "Quick play turn with AI" for TU, who stays a human player
    admin.ai_play(Session.open(tmp_path, None, "host", "pw-host"), "ai-easy")
    s = Session.open(tmp_path, None, "RU", "pw-RU")
    assert s.state.slot.key(s.state.date) == "1805-01/reinforcement/turn/RU"
    assert s.state.powers["TU"].controller is PlayerKind.HUMAN
    assert "the computer (ai-easy) played TU's turn 1805-01/reinforcement/turn/TU" in s.journal(1)[-1].text


def test_a_stuck_computer_holds_the_game_until_the_host_skips_it(tmp_path, monkeypatch):
    # Without its setup the computer cannot end Russia's setup slot (5.1: every factor placed); the game
    # waits there in every folder alike and the host skips the slot (4.2.8, 000:232).
    monkeypatch.setattr(AutoPlay, "ai_setup", lambda self, power: [])
    types = {p: "ai-easy" for p in POWERS}
    types["TU"] = "host"
    players = [newgame.Player(p, f"Player {p}", f"{p.lower()}@example.org", t) for p, t in types.items()]
    newgame.new_game(tmp_path, GAME, "classic-1805", players, bids={},
                     options=newgame.options_from_flags(["allow-pbem-host-functions"]),
                     passwords={"TU": "pw-TU"}, host_password="pw-host")
    host = Session.open(tmp_path, None, "host", "pw-host")
    assert host.state.slot.key(host.state.date) == "1805-01/setup/turn/RU"
    assert host.awaited() == [("RU", "1805-01/setup/turn/RU")]
    from eiapbem.client.status import status_lines

    assert "Waiting for: RU (the computer cannot end this turn; the host can skip it: 'eiapbem admin skip')" \
        in status_lines(Session.open(tmp_path, None, "TU", "pw-TU"))
    admin.skip(host)
    tu = Session.open(tmp_path, None, "TU", "pw-TU")
    assert tu.state.slot.key(tu.state.date) == "1805-01/setup/turn/TU"


def test_the_host_hands_a_computer_power_to_a_human_and_back(tmp_path):
    # 4.2.8 (000:204-206): replace the AI by a human player (new keys, backups), and a player by the AI.
    types = {p: "ai-medium" for p in POWERS}
    types["RU"] = "host"
    players = [newgame.Player(p, f"Player {p}", f"{p.lower()}@example.org", t) for p, t in types.items()]
    newgame.new_game(tmp_path, GAME, "classic-1805", players, bids={},
                     options=newgame.options_from_flags(["allow-pbem-host-functions"]),
                     passwords={"RU": "pw-RU"}, host_password="pw-host")
    host = Session.open(tmp_path, None, "host", "pw-host")
    r = admin.replace_player(host, "TU", "Tina", "tina@example.org")
    assert r.key.is_file() and r.backups is not None
    assert host.state.powers["TU"].controller is PlayerKind.HUMAN and host.meta.players["TU"].type == "client"
    ru = Session.open(tmp_path, None, "RU", "pw-RU")
    setups.load_setup(ru, "default")
    ru.end_phase()
    host = Session.open(tmp_path, None, "host", "pw-host")
    assert host.awaited() == [("TU", "1805-01/setup/turn/TU")]  # Tina's turn now, no longer the computer's
    admin.replace_by_ai(host, "TU", "ai-hard")
    # the computer plays TU at once, then AU PR SP FR GB: the game waits for diplomacy orders
    assert host.state.slot.phase is Phase.DIPLOMACY and host.awaited() == [("RU", "1805-01/diplomacy/commit/RU")]
    assert host.meta.players["TU"].to_obj() == {"name": "Computer (ai-hard)", "email": "", "type": "ai-hard"}
    with pytest.raises(IllegalAction, match="the host's own power"):
        admin.replace_by_ai(host, "RU", "ai-easy")
