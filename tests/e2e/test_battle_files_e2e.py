"""End to end: a land battle between two humans played by battle files through the real command (4.2.7, 000:168-176).

The host folder plays France (the host's own power) and the hot-seat powers;
Austria and Prussia are email clients in their own folders.  France and
Austria start at war (a GAP pre-existing war, 4.2.10) with two corps each on
the Milan-Verona border (custom setups, 5.2).  The setup, diplomacy,
reinforcement and naval slots are played through the session API (to stay
fast); France's land slot and the battle are played with the ``eiapbem``
command: France moves both corps into Verona and attacks, battle files go
back and forth through ``battles/`` until the battle ends, France ends its land
slot, and every folder loads France's turn file and ends with the same state.
"""

import re
import shutil

import pytest

from eiapbem.client import setups
from eiapbem.client.session import TEST_SCRYPT_ENV, Session
from eiapbem.rules.model import POWERS, Phase
from sevenfolders import FAST, SCRYPT, new_by_api, pw, setup_moved
from clikit import files_in

pytestmark = pytest.mark.slow

GAME = "Verona"
CLIENTS = ("AU", "PR")


def _home(homes, p):
    return homes[p] if p in CLIENTS else homes["host"]


def _open(homes, p):
    return Session.open(_home(homes, p), GAME, p, pw(p))


def _deliver(homes, author, path):
    """The author's turn file to the other folders' commin/, each loading it."""
    for folder, p in (("host", "FR"), ("AU", "AU"), ("PR", "PR")):
        if homes[folder] == _home(homes, author):
            continue
        (homes[folder] / "commin").mkdir(exist_ok=True)
        shutil.copy(path, homes[folder] / "commin" / path.name)
        rep = _open(homes, p).load_all()
        assert not rep.refused, (p, rep.refused)


def _first(kind, options):
    """The first option of a question as the status prints it (a casualty option is corps/factor type)."""
    parts = options.split("/")
    return "/".join(parts[:2]) if kind == "battle.casualties" else parts[0]


@pytest.fixture
def game(tmp_path, monkeypatch):
    monkeypatch.setenv(TEST_SCRYPT_ENV, SCRYPT)
    homes = {"host": tmp_path / "host", "AU": tmp_path / "au", "PR": tmp_path / "pr"}
    types = {p: "host" if p == "FR" else "client" if p in CLIENTS else "hotseat" for p in POWERS}
    new_by_api({**{p: homes["host"] for p in POWERS}, "AU": homes["AU"], "PR": homes["PR"]}, types, game=GAME,
               wars=[("FR", "AU")], passwords={p: pw(p) for p in POWERS if p not in CLIENTS})
    # Play every slot up to France's land slot; France and Austria set up on the Milan-Verona border.
    custom = {"FR": {"corps:FR:I": "milan", "corps:FR:II": "milan"},
              "AU": {"corps:AU:I": "verona", "corps:AU:II": "verona"}}
    for _ in range(100):
        st = _open(homes, "FR").state
        slot = st.slot
        if slot.phase is Phase.LAND and slot.power == "FR":
            return homes
        for p in (slot.actors if slot.simultaneous else (slot.power,)):
            s = _open(homes, p)
            if slot.phase is Phase.SETUP:
                if p in custom:
                    setup_moved(s, custom[p])
                else:
                    setups.load_setup(s, "default")
            path = s.end_phase()
            _deliver(homes, p, path)
    raise AssertionError("France's land slot never came")


def _hashes(homes):
    return {p: _open(homes, p).state.state_hash() for p in ("FR",) + CLIENTS}


def test_france_attacks_two_austrian_corps_and_the_battle_files_travel_until_it_ends(game, run_cli):
    homes = game
    assert len(set(_hashes(homes).values())) == 1

    def cli(p, *args):
        code, out, err = run_cli(*args, "--password", pw(p), *(("--power", p) if p not in CLIENTS else ()),
                                 home=_home(homes, p), env=FAST)
        assert code == 0, (args, out, err)
        return out

    for c in ("corps:FR:I", "corps:FR:II"):
        cli("FR", "land", "move", "--unit", c, "--path", "verona")
    out = cli("FR", "land", "attack", "--area", "verona", "--yes")
    bid = re.search(r"(battle:1805-\d\d:verona:\d)", cli("FR", "battle", "report")).group(1)
    name = f"pbembattle_{GAME}_Verona0-question.battle"  # France's question; Austria's reply has its own name
    reply = f"pbembattle_{GAME}_Verona0-reply.battle"
    exchanges = 0
    for _ in range(60):
        status = cli("FR", "status")
        mine = re.findall(r"(battle:[^\s,]+) for FR \((battle\.[\w-]+): ([^)]*)\)", status)
        if mine:
            cli("FR", "answer", mine[0][0], _first(mine[0][1], mine[0][2]))
            continue
        if f"send battles/{name} to Austria (Player AU <au@example.org>); the game waits for Austria's reply" not in status:
            break
        code, out, err = run_cli("end-phase", "--password", pw("FR"), "--power", "FR", home=homes["host"], env=FAST)
        assert code == 1 and "waits for AU's reply" in err and "Traceback" not in err
        # Austria's player puts the file in battles/ (overwriting the older one, 000:174) and loads it.
        (homes["AU"] / "battles").mkdir(exist_ok=True)
        shutil.copy(homes["host"] / "battles" / name, homes["AU"] / "battles" / name)
        assert "loaded" in cli("AU", "load", f"battles/{name}")
        if exchanges == 0:  # the same file again: one sentence, nothing changed
            saved = files_in(homes["AU"] / "save")
            code, out, err = run_cli("load", f"battles/{name}", "--password", pw("AU"), home=homes["AU"], env=FAST)
            assert code == 1 and err.startswith("eiapbem: error: ") and "already loaded" in err and "Traceback" not in err
            assert files_in(homes["AU"] / "save") == saved
        for _ in range(30):
            status = cli("AU", "status")
            asked = re.findall(r"'eiapbem answer (battle:\S+) CHOICE'", status)
            if not asked:
                break
            # The question loaded from France's file is Austria's pending decision: "Pending decisions: none"
            # stood beside the Next line naming it.
            pending = next(ln for ln in status.splitlines() if ln.startswith("Pending decisions: "))
            assert f"{asked[0]} for AU (" in pending, pending
            assert bid in cli("AU", "battle", "report", bid)
            kind, opts = re.search(r"asks AU (battle\.[\w-]+) \(([^)]*)\): 'eiapbem answer " + re.escape(asked[0]),
                                   status).groups()
            cli("AU", "answer", asked[0], _first(kind, opts))
        assert f"send your reply battles/{reply} to France (Player FR <fr@example.org>)" in status
        shutil.copy(homes["AU"] / "battles" / reply, homes["host"] / "battles" / reply)
        cli("FR", "load", f"battles/{reply}")
        exchanges += 1
    assert exchanges >= 1
    report = cli("FR", "battle", "report", bid)
    assert "Result:" in report
    assert f"Battle in verona ({bid}) is over" in cli("FR", "status")
    out = cli("FR", "end-phase")
    path = homes["host"] / "commout" / re.search(r"turn file commout/(\S+\.pbm)", out).group(1)
    for p in CLIENTS:
        (homes[p] / "commin").mkdir(exist_ok=True)
        shutil.copy(path, homes[p] / "commin" / path.name)
        assert f"loaded {path.name}" in cli(p, "load")
    hashes = _hashes(homes)
    assert len(set(hashes.values())) == 1, hashes
    assert "verona" in cli("PR", "log") and _open(homes, "PR").state.battles[bid].finished
