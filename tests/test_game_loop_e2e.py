"""End to end: a host and six clients play the setup and two months by copying real files (4.2.2-4.2.8).

The host folder and six client folders live in a temporary directory.  The
game is created and joined with the real ``eiapbem`` command; the slots are
then played through the same session API the commands call (to stay fast),
every file copied from its author's ``commout/`` to every other ``commin/``.
After every slot all seven saves hold the same state hash.
"""

import re
import shutil

import pytest

from eiapbem.client import setups
from eiapbem.client.session import Session, TEST_SCRYPT_ENV
from eiapbem.rules.model import POWERS, Phase
from eiapbem.rules.sequence import SETUP_ORDER

pytestmark = pytest.mark.slow

GAME = "Austerlitz"
FAST = {TEST_SCRYPT_ENV: "10,1,1"}


def _pw(p):
    return f"secret-{p}"


@pytest.fixture
def game(tmp_path, run_cli, monkeypatch):
    monkeypatch.setenv(TEST_SCRYPT_ENV, FAST[TEST_SCRYPT_ENV])
    homes = {p: tmp_path / ("host" if p == "RU" else p) for p in POWERS}
    args = ["new", GAME, "--scenario", "classic-1805", "--host-password", "host-secret", "--password", f"RU={_pw('RU')}",
            "--bid", "FR=2"]
    for p in POWERS:
        args += ["--player", f"{p}:Player {p}:{p.lower()}@example.org:{'host' if p == 'RU' else 'client'}"]
    code, out, err = run_cli(*args, home=homes["RU"], env=FAST)
    assert code == 0, err
    otp = dict(re.findall(r"  (\w\w): send .* one-time password separately: (\S+)", out))
    assert sorted(otp) == sorted(p for p in POWERS if p != "RU")
    gs = homes["RU"] / "commout" / f"{GAME}_gamestart.pbm"
    for p, pw in otp.items():
        (homes[p] / "commin").mkdir(parents=True)
        shutil.copy(gs, homes[p] / "commin" / gs.name)
        shutil.copy(homes["RU"] / "commout" / f"{GAME}_{p}.key", homes[p] / "commin" / f"{GAME}_{p}.key")
        code, out, err = run_cli("join", f"commin/{gs.name}", "--power", p, "--email", f"{p.lower()}@example.org",
                                 "--one-time-password", pw, "--password", _pw(p), home=homes[p],
                                 env={**FAST, "PWD": str(homes[p])})
        assert code == 0, err
    return homes


class Players(dict):
    """One open session per folder (a player keeps the program open between slots)."""

    def __init__(self, homes):
        super().__init__((p, Session.open(homes[p], GAME, p, _pw(p))) for p in POWERS)


def _open(homes, p):
    return Session.open(homes[p], GAME, p, _pw(p))


def _deliver(homes, author, path):
    for q in POWERS:
        if q != author:
            shutil.copy(path, homes[q] / "commin" / path.name)


def _load_everyone(players, skip=()):
    for q in POWERS:
        if q in skip:
            continue
        rep = players[q].load_all()
        assert not rep.refused, (q, rep.refused)


def _hashes(players):
    """The state hash in each folder's save on disk (opened with the key already unlocked)."""
    return {p: Session.open_with(s.home, GAME, s.me).state.state_hash() for p, s in players.items()}


def _saved_hashes(homes):
    return {p: _open(homes, p).state.state_hash() for p in POWERS}


def _save_bytes(home):
    return {f.name: f.read_bytes() for f in (home / "save").iterdir()}


def test_host_and_six_clients_set_up_and_play_two_months(game, run_cli):
    homes = game
    players = Players(homes)
    # 5.3 (000:332): set up in the order RU TU AU PR SP FR GB with the default setups (5.2.2).
    for p in SETUP_ORDER:
        s = players[p]
        assert s.state.slot.phase is Phase.SETUP and s.state.slot.power == p
        setups.load_setup(s, "default")
        path = s.end_phase()
        assert path.with_name(path.name + ".eml").is_file()
        _deliver(homes, p, path)
        _load_everyone(players, skip=(p,))
        assert len(set(_hashes(players).values())) == 1
    assert _saved_hashes(homes) == _hashes(players)

    code, out, err = run_cli("status", "--password", _pw("FR"), home=homes["FR"])
    assert code == 0, err
    # The status names the phases not implemented yet, and says so of the current one (diplomacy here).
    found = re.search(r"Not implemented yet: ([a-z, ]+) \(these phases accept only end-phase\)", out)
    missing = found.group(1).split(", ") if found else []
    assert not {"naval", "land", "diplomacy"} & set(missing)  # every phase has rules now
    # The land and diplomacy phases list no gaps any more (13.5.4 and 6.16 were their last): status names neither.
    assert not re.search(r"Partly built: .*(land|diplomacy) \(not yet: ", out)
    current = "Phase: diplomacy (not implemented yet: only end-phase is accepted)" in out
    assert current == ("diplomacy" in missing)

    # Two full months of slots; every power may end a phase without orders (still sealed, chained files).
    start = players["RU"].state.date
    played = 0
    while True:
        st = players["RU"].state
        if st.date.index - start.index >= 2:
            break
        paths = {}
        for p in st.slot.actors:
            paths[p] = players[p].end_phase()
        for p, path in paths.items():
            _deliver(homes, p, path)
        _load_everyone(players)
        hashes = _hashes(players)
        assert len(set(hashes.values())) == 1, (st.slot.key(st.date), hashes)
        played += 1
    assert played == 2 * (2 + 7 + 7 + 7)  # diplomacy (sealed: commit and orders), reinforcement, naval, land; no economic in Jan/Feb
    assert _open(homes, "AU").state.date == start.plus(2)
    assert _saved_hashes(homes) == _hashes(players)

    # Refusals change nothing: a file copied twice, a file loaded by its own author, a file with one flipped byte.
    last = sorted((homes["SP"] / "commout").glob("*.pbm"))[-1]
    before = {p: _save_bytes(homes[p]) for p in POWERS}
    code, out, err = run_cli("load", f"commin/{last.name}", "--password", _pw("FR"), home=homes["FR"])
    assert code == 1 and "already loaded" in err
    shutil.copy(last, homes["SP"] / "commin" / last.name)
    code, out, err = run_cli("load", f"commin/{last.name}", "--password", _pw("SP"), home=homes["SP"])
    assert code == 1 and "is your own file" in err
    data = bytearray(last.read_bytes())
    data[len(data) // 2] ^= 0x01
    (homes["GB"] / "commin" / "flipped.pbm").write_bytes(bytes(data))
    code, out, err = run_cli("load", "commin/flipped.pbm", "--password", _pw("GB"), home=homes["GB"])
    assert code == 1 and "eiapbem: error:" in err and "Traceback" not in err
    assert {p: _save_bytes(homes[p]) for p in POWERS} == before
