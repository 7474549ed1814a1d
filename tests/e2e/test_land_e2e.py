"""End to end: a hot-seat game reaches France's land slot, a French corps marches on an Austrian
corps, attacks, the battle's questions are answered with ``eiapbem answer`` and the slot ends
(10.4, 11.0-11.1; 000:1354-1476, 000:1604-1616).

France and Austria start at war (a GAP selection's pre-existing war, 4.2.10); the slots before
the land phase are ended through the session API the commands call, the land phase through the
real ``eiapbem`` command.
"""

import re

import pytest

from eiapbem.client import newgame, setups
from eiapbem.client.session import TEST_SCRYPT_ENV, Session
from eiapbem.rules.combat.orders import InsurrectionOrders
from eiapbem.rules.model import POWERS, Location, LocationKind, Phase
from eiapbem.rules.skips import SetSkip

pytestmark = pytest.mark.slow

GAME = "Ulm"
FAST = {TEST_SCRYPT_ENV: "10,1,1"}
_PENDING = re.compile(r"(\S+) for (\w\w) \(([\w.-]+): ([^)]*)\)")


def _pw(p):
    return f"pw-{p}"


def _cli(run_cli, home, power, *args, ok=True):
    code, out, err = run_cli(*args, "--power", power, home=home, env={**FAST, "EIAPBEM_PASSWORD": _pw(power)})
    assert "Traceback" not in err
    assert (code == 0) == ok, (args, out, err)
    return out + err


def test_a_french_corps_marches_attacks_and_the_battle_is_answered(tmp_path, run_cli, monkeypatch):
    monkeypatch.setenv(TEST_SCRYPT_ENV, FAST[TEST_SCRYPT_ENV])
    home = tmp_path / "game"
    players = [newgame.Player(p, f"Player {p}", f"{p.lower()}@example.org", "host" if p == "RU" else "hotseat") for p in POWERS]
    newgame.new_game(home, GAME, "classic-1805", players, bids={}, options=newgame.options_from_flags(["pbem-quick-combat"]),
                     passwords={p: _pw(p) for p in POWERS}, host_password="pw-host", wars=[("FR", "AU")])
    while True:
        st = Session.open(home, GAME, "RU", _pw("RU")).state
        if st.slot.phase is Phase.LAND:
            break
        for p in st.slot.actors:
            s = Session.open(home, GAME, p, _pw(p))
            if st.slot.phase is Phase.SETUP:
                setups.load_setup(s, "default")
            if st.slot.phase is Phase.SETUP and p == "AU":  # a new game skips the reinforcement phase while nothing
                # is due (13.9), and the war the game starts with is no declaration that cancels it (13.9.1): Austria
                # plays its reinforcement phase to give the order below
                s.act(SetSkip("reinforcement", "off"))
            if st.slot.phase is Phase.REINFORCEMENT and p == "AU":  # 13.2.4: Austria holds its insurrection corps,
                s.act(InsurrectionOrders(hold=True))  # so the battle is the one with the Austrian corps alone
            s.end_phase()
    assert st.slot.power == "FR" and "AU" in st.powers["FR"].wars
    assert st.units["corps:FR:V"].location == Location(LocationKind.AREA, "strasbourg")
    assert st.units["corps:AU:V"].location == Location(LocationKind.AREA, "innsbruck")

    # strasbourg -> freiburg (forest 1) -> swabia (clear 1) -> innsbruck (mountain 2): the 4 points of a
    # French corps (000:1364, 000:1380-1382); it must stop in innsbruck, where the Austrian corps is (000:1398).
    out = _cli(run_cli, home, "FR", "land", "move", "--unit", "corps:FR:V", "--path", "freiburg,swabia,innsbruck,munich", ok=False)
    assert "eiapbem: error: corps:FR:V must cease movement in innsbruck because the enemy corps corps:AU:V is in innsbruck" in out
    out = _cli(run_cli, home, "FR", "land", "move", "--unit", "corps:FR:V", "--path", "freiburg,swabia,innsbruck")
    assert "corps:FR:V moves to innsbruck (strasbourg -> freiburg -> swabia -> innsbruck; 4 of 4 movement points)" in out
    assert "it stops: the enemy corps corps:AU:V is in innsbruck" in out
    assert "still to do: attack the enemy in innsbruck (11.1, 000:1610)" in out
    out = _cli(run_cli, home, "FR", "end-phase", ok=False)
    assert "FR cannot end the phase yet: attack the enemy in innsbruck" in out
    _cli(run_cli, home, "FR", "restart")

    # The battle's questions are answered with 'eiapbem answer' (11.2); with PBEM quick combat the
    # defender's questions are answered by its standing orders (4.1.1), and any other question for
    # Austria is answered at this hot-seat computer (4.2.1).
    assert _fight(run_cli, home, "escalated-assault")
    st = Session.open(home, GAME, "FR", _pw("FR")).current()
    (battle,) = [b for b in st.battles.values() if b.area == "innsbruck"]
    assert battle.finished and not battle.river_crossing  # swabia-innsbruck has no river (000:1714)
    out = _cli(run_cli, home, "FR", "end-phase")
    assert "FR ended its slot" in out
    st = Session.open(home, GAME, "RU", _pw("RU")).state
    assert st.slot.phase is Phase.LAND and st.slot.power == "RU" and st.land_moves == {}


def _fight(run_cli, home, chit):
    """Move, attack and answer every question (France's with ``chit``); True when none is left."""
    _cli(run_cli, home, "FR", "land", "move", "--unit", "corps:FR:V", "--path", "freiburg,swabia,innsbruck")
    # The attack says first what the end of movement does, and asks, since a depot placed first could spare the
    # foraging (10.3, 10.5); --yes answers it.
    out = _cli(run_cli, home, "FR", "land", "attack", "--area", "innsbruck", ok=False)
    assert "  corps:FR:V forages: " in out and "a depot placed first in" in out and "nothing done" in out, out
    out = _cli(run_cli, home, "FR", "land", "attack", "--area", "innsbruck", "--yes")
    assert out.index("  corps:FR:V forages: ") < out.index("FR: corps:FR:V forages: random number")
    # France forages first (10.5.1; supply comes before combat, 11.0): Innsbruck's forage value is 1 in January.
    assert re.search(r"FR: corps:FR:V forages: random number \d .*against forage value 1 \(innsbruck\)", out)
    assert re.search(r"Field combat in innsbruck \(mountain\): \d+ attacking factors against 15", out)
    for _ in range(100):
        status = _cli(run_cli, home, "FR", "status")
        line = next(ln for ln in status.splitlines() if ln.startswith("Pending decisions:"))
        found = _PENDING.findall(line)
        if not found:
            return True
        did, who, kind, options = found[0]
        choice = chit if kind == "battle.chit" and who == "FR" else options.split("/")[0]
        out = _cli(run_cli, home, who, "answer", did, choice)
    raise AssertionError("the battle kept asking")
