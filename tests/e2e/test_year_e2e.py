"""End to end: a whole year of 1805 played as players play it, through the real ``eiapbem`` command.

A hot-seat game (4.2.1) of classic-1805 with the default setups; every slot of
1805 is ended.  In each economic phase (12.0, 000:2026) France, Russia and
Austria give real orders with ``eiapbem economy …``; ``eiapbem economy
summary --json`` is read before the phase resolves and the treasury after it
must be the summary's closing line.  Purchases arrive in later reinforcement
phases (7.2.2, 000:930) and are placed with ``eiapbem reinforce …`` where
``eiapbem status`` says there is room.  The plain end-phases go through the
session API the commands call (one process per command would take minutes).

A second test plays an email game of three folders up to the end of the
first economic phase: simultaneous orders from different folders are combined
in the fixed order, and every save ends with the same state hash.
"""

import json
import re

import pytest

from eiapbem.client import setups
from eiapbem.client.session import TEST_SCRYPT_ENV, Session
from eiapbem.rules.model import POWERS, Corps, Garrison, Phase
from eiapbem.rules.sequence import SETUP_ORDER
from sevenfolders import FAST, SCRYPT, Folders, hand_out, join_by_command, new_by_command, pw

pytestmark = pytest.mark.slow

GAME = "Ulm"


def _cli_as(run_cli, home, power, *args):
    code, out, err = run_cli(*args, "--power", power, home=home, env={**FAST, "EIAPBEM_PASSWORD": pw(power)})
    assert code == 0, (args, out, err)
    assert "Traceback" not in err
    return out


def _infantry_on_map(state, nation):
    """Infantry factors of ``nation`` in its corps and garrisons on the map."""
    return sum(u.factors.infantry for u in state.units.values()
               if isinstance(u, (Corps, Garrison)) and u.nation == nation)


#: Orders given in every economic phase (12.3, 12.5.3): (power, command words).
ORDERS = {
    "FR": [("buy-army", "--item", "infantry", "--count", "2"), ("give-money", "--to", "holland", "--amount", "3")],
    "RU": [("buy-army", "--item", "infantry", "--count", "2")],
    "AU": [("buy-army", "--item", "cavalry", "--count", "1")],
}
_DUE = re.compile(r"place the (\d+) (\w+) due to (\w+) this month \(room for (?:all|\d+) at (\S+?)( placed in \S+)?"
                  r"(?:, the rest elsewhere)?\)")
_GARRISON = re.compile(r"the garrison at city:(\S+)")


def _place_due(run_cli, home, power):
    """Place what ``status`` says is due, one factor at a time where it says there is room (7.2.2)."""
    placed = 0
    for _ in range(30):
        out = _cli_as(run_cli, home, power, "status")
        todo = next(ln for ln in out.splitlines() if ln.startswith("To do before end-phase:"))
        if todo.endswith("nothing"):
            return placed
        text = todo.replace("the garrison at ", "the-garrison-at-")
        m = _DUE.search(text)
        assert m, todo
        _n, kind, nation, spot, _ = m.groups()
        spot = spot.replace("the-garrison-at-", "the garrison at ")
        if spot.startswith("corps:"):
            _cli_as(run_cli, home, power, "reinforce", "add-factors", "--corps", spot, f"--{kind}", "1")
        else:
            area = _GARRISON.match(spot).group(1)
            _cli_as(run_cli, home, power, "reinforce", "add-garrison", "--area", area, f"--{kind}", "1")
        placed += 1
    raise AssertionError("status kept asking for placements")


def test_a_year_of_hotseat_play(tmp_path, run_cli, monkeypatch):
    monkeypatch.setenv(TEST_SCRYPT_ENV, SCRYPT)
    home = tmp_path / "game"
    new_by_command(run_cli, {p: home for p in POWERS}, game=GAME, extra=("--bid", "FR=2"),
                   types={p: "host" if p == "RU" else "hotseat" for p in POWERS})

    # Setup (5.3, 000:332): France through the command, the others through the session API.
    for p in SETUP_ORDER:
        if p == "FR":
            out = _cli_as(run_cli, home, p, "setup", "load", "default")
            assert "every factor and ship is placed" in out
            _cli_as(run_cli, home, p, "end-phase")
        else:
            s = Session.open(home, GAME, p, pw(p))
            setups.load_setup(s, "default")
            s.end_phase()

    summaries = {}
    infantry_before_june = None
    placed = {}
    while True:
        st = Session.open(home, GAME, "RU", pw("RU")).state
        if st.slot is None or st.date.year > 1805:
            break
        slot = st.slot
        if slot.phase is Phase.ECONOMIC:
            for p, orders in ORDERS.items():
                for words in orders:
                    out = _cli_as(run_cli, home, p, "economy", *words)
                    assert f"{p}: {words[0]} " in out and "accepted" in out
            for p in ORDERS:
                rec = json.loads(_cli_as(run_cli, home, p, "economy", "summary", "--json"))
                assert rec["month"] == str(st.date)
                own = next(f for f in rec["funds"] if f["fund"] == p)
                # 12.0 (000:2030): the closing line is the opening plus every line.
                assert own["closing_money"] == own["opening_money"] + sum(ln["money"] for ln in own["lines"])
                assert any(ln["item"].startswith("buy ") for ln in own["lines"])
                summaries[(str(st.date), p)] = own["closing_money"]
            for p in slot.actors:
                Session.open(home, GAME, p, pw(p)).end_phase()
            after = Session.open(home, GAME, "RU", pw("RU")).state
            assert after.date == st.date.next()
            for p in ORDERS:
                # The treasury after the phase is what the summary said (12.0).
                assert after.powers[p].treasury == summaries[(str(st.date), p)], (st.date, p)
            pool = _cli_as(run_cli, home, "FR", "show", "pool")
            assert "on order: " in pool and f"2 infantry arriving {st.date.plus(3).name}" in pool  # 12.5.3: three months
            log = _cli_as(run_cli, home, "FR", "log", "-n", "10")
            assert "FR: +$" in log and f"treasury ${after.powers['FR'].treasury}" in log
            continue
        if slot.phase is Phase.REINFORCEMENT:
            p = slot.power
            if p == "FR" and st.date.month == 6:
                infantry_before_june = _infantry_on_map(st, "FR")
            n = _place_due(run_cli, home, p) if p in ORDERS else 0
            if n:
                placed[(str(st.date), p)] = n
            if p in ORDERS:
                _cli_as(run_cli, home, p, "end-phase")
            else:
                Session.open(home, GAME, p, pw(p)).end_phase()
            if p == "FR" and st.date.month == 6:
                # 12.5.3 (000:2216): infantry bought in March arrives three months later, in June.
                june = Session.open(home, GAME, "RU", pw("RU")).state
                assert _infantry_on_map(june, "FR") == infantry_before_june + 2
            continue
        for p in slot.actors:
            Session.open(home, GAME, p, pw(p)).end_phase()

    final = Session.open(home, GAME, "RU", pw("RU")).state
    assert str(final.date) == "1806-01"
    assert sorted(m for m, _ in summaries) == ["1805-03"] * 3 + ["1805-06"] * 3 + ["1805-09"] * 3 + ["1805-12"] * 3
    # Infantry bought in March, June and September arrived (June, September, December) and was placed.
    assert placed.get(("1805-06", "FR")) == 2 and placed.get(("1805-09", "FR")) == 2
    assert placed.get(("1805-06", "RU")) == 2
    # Cavalry takes five months (12.5.3): bought in March, it arrives in August.
    assert placed.get(("1805-08", "AU")) == 1
    out = _cli_as(run_cli, home, "FR", "status")
    assert "Date: January 1806" in out
    out = _cli_as(run_cli, home, "FR", "show", "power")
    assert "France (FR)" in out


# ----------------------------------------------------------------- three folders by email


def test_three_folders_by_email_through_an_economic_phase(tmp_path, run_cli, monkeypatch):
    monkeypatch.setenv(TEST_SCRYPT_ENV, SCRYPT)
    host = tmp_path / "host"
    game = Folders({**{p: host for p in POWERS}, "FR": tmp_path / "fr", "GB": tmp_path / "gb"}, GAME)
    homes = game.homes
    types = {p: "client" if p in ("FR", "GB") else ("host" if p == "RU" else "hotseat") for p in POWERS}
    otp = new_by_command(run_cli, homes, game=GAME, types=types)
    for p in ("FR", "GB"):
        hand_out(host, homes[p], p, GAME)
        code, out, err = join_by_command(run_cli, homes[p], p, otp[p], game=GAME)
        assert code == 0, err

    def everyone_loads():
        game.load_everyone(game.sessions(("RU", "FR", "GB")))

    def hashes():
        return game.saved_hashes(("RU", "FR", "GB"))

    for p in SETUP_ORDER:
        s = game.open(p)
        setups.load_setup(s, "default")
        game.deliver(p, s.end_phase())
        everyone_loads()
    while True:
        st = Session.open(host, GAME, "RU", pw("RU")).state
        if st.slot.phase is Phase.ECONOMIC:
            break
        for p in st.slot.actors:
            game.deliver(p, game.open(p).end_phase())
        everyone_loads()
        assert len(set(hashes().values())) == 1, st.slot.key(st.date)

    # 1805-03 economic phase: orders from the three folders, each through the command.
    _cli_as(run_cli, homes["FR"], "FR", "economy", "buy-army", "--item", "infantry", "--count", "3")
    _cli_as(run_cli, homes["GB"], "GB", "economy", "buy-ships", "--item", "heavy", "--count", "2", "--port", "portsmouth")
    _cli_as(run_cli, host, "AU", "economy", "buy-army", "--item", "infantry", "--count", "2")
    fr = json.loads(_cli_as(run_cli, homes["FR"], "FR", "economy", "summary", "--json"))
    fr_closing = next(f for f in fr["funds"] if f["fund"] == "FR")["closing_money"]
    # The clients send first, the host last: the order of arrival must not matter (6.0 fixed order).
    for p in ("GB", "FR") + tuple(q for q in POWERS if q not in ("FR", "GB")):
        game.deliver(p, game.open(p).end_phase())
        if p == "FR":
            # Sent but not resolved: the summary still counts France's orders, from its turn file.
            sent = json.loads(_cli_as(run_cli, homes["FR"], "FR", "economy", "summary", "--json"))
            assert "orders are sent" in sent["note"]
            assert next(f for f in sent["funds"] if f["fund"] == "FR")["closing_money"] == fr_closing
            status = _cli_as(run_cli, homes["FR"], "FR", "status")
            assert "FR: orders sent (1 order); the phase resolves when every power's are in" in status
            assert "To do before end-phase" not in status
    everyone_loads()
    h = hashes()
    assert len(set(h.values())) == 1, h
    after = game.open("FR").state
    assert after.slot.phase is Phase.DIPLOMACY and str(after.date) == "1805-04"
    assert after.powers["FR"].treasury == fr_closing
    assert any(o.item == "infantry" and o.count == 3 for o in after.powers["FR"].builds.values())
    assert any(o.item == "infantry" and o.count == 2 for o in after.powers["AU"].builds.values())
    # Great Britain's blind order from its own folder is among its builds too (12.5.3, 000:2234).
    assert any(o.item == "heavy" and o.count == 2 and o.port == "portsmouth" for o in after.powers["GB"].builds.values()), \
        after.powers["GB"].builds
