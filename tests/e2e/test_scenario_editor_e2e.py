"""End to end (14.2-14.6): a scenario built by commands only, played by seven folders for a month,
and a client holding a different copy of the scenario refused on joining."""

import shutil

import pytest

from eiapbem.client import setups
from eiapbem.client.session import TEST_SCRYPT_ENV
from eiapbem.rules.sequence import SETUP_ORDER
from sevenfolders import SCRYPT, Folders, hand_out, join_by_command, new_by_command, seven_homes

pytestmark = pytest.mark.slow

GAME = "Borodino"


def test_scenario_by_commands_played_a_month_and_a_different_copy_refused(tmp_path, run_cli, monkeypatch):
    # 14.1 (000:2746): the editor is the 'eiapbem scenario' commands; 14.2 (000:2750): a new scenario, named, saved.
    monkeypatch.setenv(TEST_SCRYPT_ENV, SCRYPT)
    # 1812: France allied to Austria and Prussia, Russia at war with Turkey (14.3 items 8-11, start month).
    steps = [
        ("scenario", "new", "s1812.json", "--from", "classic-1805", "--id", "campaign-1812", "--name", "1812"),
        ("scenario", "start", "s1812.json", "--year", "1812", "--month", "6"),
        ("scenario", "relation", "s1812.json", "FR", "AU", "--alliance"),
        ("scenario", "relation", "s1812.json", "FR", "PR", "--alliance"),
        ("scenario", "relation", "s1812.json", "RU", "TU", "--war"),
        ("scenario", "power", "s1812.json", "FR", "--vp", "40", "--money", "60"),
    ]
    for args in steps:
        code, out, err = run_cli(*args)
        assert code == 0, (args, err)
        assert "the scenario is valid" in out
    code, out, err = run_cli("data", "check", "--scenario", "s1812.json")
    assert code == 0 and "valid; hash" in out, err
    # A bad edit is refused with one sentence per problem and leaves the file as it was.
    before = (tmp_path / "s1812.json").read_bytes()
    code, out, err = run_cli("scenario", "relation", "s1812.json", "FR", "AU", "--war")
    assert code == 1 and "cannot be both allied and at war" in err and "Traceback" not in err
    assert (tmp_path / "s1812.json").read_bytes() == before

    game = Folders(seven_homes(tmp_path), GAME)
    homes = game.homes
    homes["RU"].mkdir()
    otp = new_by_command(run_cli, homes, game=GAME, scenario="../s1812.json")
    for p in otp:
        hand_out(homes["RU"], homes[p], p, GAME)

    # 14.6: Spain's player holds another version of the scenario (one more victory point for France): refused.
    other = tmp_path / "other" / "s1812.json"
    other.parent.mkdir()
    shutil.copy(tmp_path / "s1812.json", other)
    code, out, err = run_cli("scenario", "power", str(other), "FR", "--vp", "41")
    assert code == 0, err
    code, out, err = join_by_command(run_cli, homes["SP"], "SP", otp["SP"], "--scenario", str(other), game=GAME)
    assert code == 1 and "differs from the host's" in err and "Traceback" not in err
    assert not (homes["SP"] / "save").exists() or not any((homes["SP"] / "save").iterdir())
    # Without the file at all, the client is told to get it.
    code, out, err = join_by_command(run_cli, homes["SP"], "SP", otp["SP"], game=GAME)
    assert code == 1 and "--scenario FILE" in err

    for p, one_time in otp.items():
        code, out, err = join_by_command(run_cli, homes[p], p, one_time, "--scenario", str(tmp_path / "s1812.json"), game=GAME)
        assert code == 0, (p, err)

    players = game.sessions()
    st = players["FR"].state
    assert (st.date.year, st.date.month) == (1812, 6)
    assert "AU" in st.powers["FR"].alliances and "PR" in st.powers["FR"].alliances
    assert "TU" in st.powers["RU"].wars
    assert st.powers["FR"].victory_points == 40

    def deliver(author, path):
        game.deliver(author, path)
        game.load_everyone(players, skip=(author,))

    for p in SETUP_ORDER:
        setups.load_setup(players[p], "default")  # the default setups of the scenario it was made from (14.5)
        deliver(p, players[p].end_phase())
    start = players["RU"].state.date
    while players["RU"].state.date.index - start.index < 1:
        st = players["RU"].state
        paths = {p: players[p].end_phase() for p in st.slot.actors}
        for p, path in paths.items():
            deliver(p, path)
        hashes = game.hashes(players)
        assert len(set(hashes.values())) == 1
    assert players["AU"].state.date == start.plus(1)
