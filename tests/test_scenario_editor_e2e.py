"""End to end (14.2-14.6): a scenario built by commands only, played by seven folders for a month,
and a client holding a different copy of the scenario refused on joining."""

import re
import shutil

import pytest

from eiapbem.client import setups
from eiapbem.client.session import Session, TEST_SCRYPT_ENV
from eiapbem.rules.model import POWERS
from eiapbem.rules.sequence import SETUP_ORDER

pytestmark = pytest.mark.slow

GAME = "Borodino"
FAST = {TEST_SCRYPT_ENV: "10,1,1"}


def _pw(p):
    return f"secret-{p}"


def _join(run_cli, homes, p, gs, otp, scenario="../s1812.json"):
    return run_cli("join", f"commin/{gs.name}", "--power", p, "--email", f"{p.lower()}@example.org",
                   "--one-time-password", otp, "--password", _pw(p), "--scenario", scenario, home=homes[p],
                   env={**FAST, "PWD": str(homes[p])})


def test_scenario_by_commands_played_a_month_and_a_different_copy_refused(tmp_path, run_cli, monkeypatch):
    monkeypatch.setenv(TEST_SCRYPT_ENV, FAST[TEST_SCRYPT_ENV])
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

    homes = {p: tmp_path / ("host" if p == "RU" else p) for p in POWERS}
    args = ["new", GAME, "--scenario", "../s1812.json", "--host-password", "host-secret", "--password", f"RU={_pw('RU')}"]
    for p in POWERS:
        args += ["--player", f"{p}:Player {p}:{p.lower()}@example.org:{'host' if p == 'RU' else 'client'}"]
    homes["RU"].mkdir()
    code, out, err = run_cli(*args, home=homes["RU"], env=FAST)
    assert code == 0, err
    otp = dict(re.findall(r"  (\w\w): send .* one-time password separately: (\S+)", out))
    gs = homes["RU"] / "commout" / f"{GAME}_gamestart.pbm"
    for p, pw in otp.items():
        (homes[p] / "commin").mkdir(parents=True)
        shutil.copy(gs, homes[p] / "commin" / gs.name)
        shutil.copy(homes["RU"] / "commout" / f"{GAME}_{p}.key", homes[p] / "commin" / f"{GAME}_{p}.key")

    # 14.6: Spain's player holds another version of the scenario (one more victory point for France): refused.
    other = tmp_path / "other" / "s1812.json"
    other.parent.mkdir()
    shutil.copy(tmp_path / "s1812.json", other)
    code, out, err = run_cli("scenario", "power", str(other), "FR", "--vp", "41")
    assert code == 0, err
    code, out, err = _join(run_cli, homes, "SP", gs, otp["SP"], scenario=str(other))
    assert code == 1 and "differs from the host's" in err and "Traceback" not in err
    assert not (homes["SP"] / "save").exists() or not any((homes["SP"] / "save").iterdir())
    # Without the file at all, the client is told to get it.
    code, out, err = run_cli("join", f"commin/{gs.name}", "--power", "SP", "--email", "sp@example.org",
                             "--one-time-password", otp["SP"], "--password", _pw("SP"), home=homes["SP"], env=FAST)
    assert code == 1 and "--scenario FILE" in err

    for p, pw in otp.items():
        code, out, err = _join(run_cli, homes, p, gs, pw, scenario=str(tmp_path / "s1812.json"))
        assert code == 0, (p, err)

    players = {p: Session.open(homes[p], GAME, p, _pw(p)) for p in POWERS}
    st = players["FR"].state
    assert (st.date.year, st.date.month) == (1812, 6)
    assert "AU" in st.powers["FR"].alliances and "PR" in st.powers["FR"].alliances
    assert "TU" in st.powers["RU"].wars
    assert st.powers["FR"].victory_points == 40

    def deliver(author, path):
        for q in POWERS:
            if q != author:
                shutil.copy(path, homes[q] / "commin" / path.name)
        for q in POWERS:
            if q != author:
                rep = players[q].load_all()
                assert not rep.refused, (q, rep.refused)

    for p in SETUP_ORDER:
        setups.load_setup(players[p], "default")  # the default setups of the scenario it was made from (14.5)
        deliver(p, players[p].end_phase())
    start = players["RU"].state.date
    while players["RU"].state.date.index - start.index < 1:
        st = players["RU"].state
        paths = {p: players[p].end_phase() for p in st.slot.actors}
        for p, path in paths.items():
            deliver(p, path)
        hashes = {p: Session.open_with(s.home, GAME, s.me).state.state_hash() for p, s in players.items()}
        assert len(set(hashes.values())) == 1
    assert players["AU"].state.date == start.plus(1)
