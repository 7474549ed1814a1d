"""Loose ends wired between the parts (docs/decisions.md "Integration"), each through the real command."""

from __future__ import annotations

import json
import re
import shutil

import pytest

from eiapbem.client import setups
from eiapbem.client.session import TEST_SCRYPT_ENV, Session
from eiapbem.gap import files as gf
from eiapbem.gap.arbitrate import Bid, arbitrate
from eiapbem.pbem import crypto
from eiapbem.rules.model import POWERS

FAST = {TEST_SCRYPT_ENV: "10,1,1"}
GAME = "Borodino"


def _selection_files(tmp_path):
    """An arbitrator key, its password file and a selection of seven bids (4.2.10-4.2.11, 000:266-280)."""
    data, pub = gf.new_arbitrator_key("arb pw", rng=crypto.KeystreamRng(b"arb"), logn=10, r=1, p=1)
    me = gf.open_arbitrator_key(data, "arb pw")
    key = tmp_path / "arbitrator.key"
    key.write_bytes(data)
    pwf = tmp_path / "arb.txt"
    pwf.write_text("arb pw\n")
    wars = {6: {"GB": ["SP"]}}
    bids = [Bid.make(GAME, f"Player {i}", f"p{i}@example.org", dict(zip(POWERS, (i, 2 * i, 3 * i, i, i, i, i))),
                     wars.get(i), f"secret-{i}") for i in range(7)]
    files = [(gf.bid_file_name(b.name, GAME), gf.write_bid(b, pub, rng=crypto.KeystreamRng(b.email.encode())).data) for b in bids]
    opened = gf.open_bids(files, me)
    r = arbitrate([o.bid for o in opened], gb_fr_war=True)
    sel = tmp_path / f"{GAME}.sel"
    sel.write_bytes(gf.write_selection(r, {o.bid.email: o.hash for o in opened}, me, rng=crypto.KeystreamRng(b"sel")).data)
    return key, pwf, gf.read_selection(sel, me)


def test_new_game_imports_a_gap_selection(tmp_path, run_cli):
    """4.2.11 (000:278-280): names, addresses, bids, wars and the GB-FR option come from the .sel; the host sets the types."""
    key, pwf, sel = _selection_files(tmp_path)
    gb = sel.power("GB")
    home = tmp_path / "host"
    code, out, err = run_cli("new", GAME, "--scenario", "classic-1805", "--import-bids", str(tmp_path / f"{GAME}.sel"),
                             "--arbitrator-key", str(key), "--arbitrator-password-file", str(pwf),
                             "--player", "RU:host", "--player", "AU:hotseat", "--host-password", "hpw",
                             home=home, env=FAST)
    assert code == 0, err
    assert f"GB {gb.name} <{gb.email}> bid {gb.vp_bid}" in out
    assert "Pre-existing wars (4.2.10): FR on GB, GB on SP" in out
    # The local powers' passwords default to their bids' game passwords (000:278).
    s = Session.open(home, GAME, "AU", sel.power("AU").password)
    st = s.state
    assert {p: st.powers[p].vp_bid for p in POWERS} == sel.vp_bids and sel.vp_bids["GB"] == 18
    assert st.powers["SP"].wars["GB"].declared_by == ("GB",)
    assert "GB" in st.powers["FR"].wars  # the selection's GB-FR option (4.1.1)
    meta = s.meta.players
    assert meta["GB"].to_obj() == {"name": gb.name, "email": gb.email, "type": "client"}
    assert meta["RU"].type == "host" and meta["AU"].type == "hotseat"
    # A client joining makes the same first state from the gamestart (its wars travel in it).
    otp = dict(re.findall(r"  (\w\w): send .* one-time password separately: (\S+)", out))
    fr = tmp_path / "fr"
    (fr / "commin").mkdir(parents=True)
    for name in (f"{GAME}_gamestart.pbm", f"{GAME}_FR.key"):
        shutil.copy(home / "commout" / name, fr / "commin" / name)
    code, out, err = run_cli("join", f"commin/{GAME}_gamestart.pbm", "--power", "FR", "--email", sel.power("FR").email,
                             "--one-time-password", otp["FR"], "--password", "frpw", home=fr, env=FAST)
    assert code == 0, err
    assert Session.open(fr, GAME, "FR", "frpw").state.state_hash() == st.state_hash()


def test_import_bids_refuses_a_wrong_password_and_bids_given_twice(tmp_path, run_cli):
    key, pwf, _ = _selection_files(tmp_path)
    base = ("new", GAME, "--scenario", "classic-1805", "--import-bids", str(tmp_path / f"{GAME}.sel"),
            "--arbitrator-key", str(key), "--player", "RU:host", "--host-password", "h", "--password", "RU=x")
    code, out, err = run_cli(*base, env={**FAST, "EIAPBEM_ARBITRATOR_PASSWORD": "wrong"})
    assert code != 0 and err.startswith("eiapbem: error:") and "Traceback" not in err
    code, out, err = run_cli(*base, "--bid", "FR=2", env={**FAST, "EIAPBEM_ARBITRATOR_PASSWORD": "arb pw"})
    assert code != 0 and "--bid" in err


@pytest.fixture
def set_up_game(tmp_path, run_cli, monkeypatch):
    """A hot-seat game of classic-1805 after every power's default setup (5.2.2), in tmp_path/game."""
    monkeypatch.setenv(TEST_SCRYPT_ENV, FAST[TEST_SCRYPT_ENV])
    home = tmp_path / "game"
    args = ["new", GAME, "--scenario", "classic-1805", "--host-password", "h"]
    for p in POWERS:
        args += ["--player", f"{p}:P {p}:{p.lower()}@example.org:{'host' if p == 'RU' else 'hotseat'}", "--password", f"{p}=pw{p}"]
    code, out, err = run_cli(*args, home=home, env=FAST)
    assert code == 0, err
    from eiapbem.rules.sequence import SETUP_ORDER

    for p in SETUP_ORDER:
        s = Session.open(home, GAME, p, f"pw{p}")
        setups.load_setup(s, "default")
        s.end_phase()
    return home


def test_map_draws_the_units_of_a_saved_game(set_up_game, tmp_path, run_cli):
    home = set_up_game
    out_svg = tmp_path / "game.svg"
    code, out, err = run_cli("map", "--svg", str(out_svg), "--save", str(home / "save" / f"{GAME}.sav"), "--power", "FR",
                             env={**FAST, "EIAPBEM_PASSWORD": "pwFR"})
    assert code == 0, err
    st = Session.open(home, GAME, "FR", "pwFR").state
    corps = next(u for u in st.units.values() if u.id == "corps:FR:I")
    text = out_svg.read_text()
    # The corps placed by France's default setup (5.3.1) is drawn with its strength.
    assert f"FR:I {corps.factors.total}<" in text and '<g id="units"' in text
    assert re.search(r"\d+ units\)", out)
    code, out, err = run_cli("map", "--svg", str(out_svg), "--save", str(home / "save" / f"{GAME}.sav"), "--power", "FR",
                             env={**FAST, "EIAPBEM_PASSWORD": "wrong"})
    assert code != 0 and err.startswith("eiapbem: error:")


def test_economy_summary_of_a_saved_game_counts_the_power_s_own_orders(set_up_game, run_cli):
    """12.0 (000:2030): the summary of the game in play, with the orders given so far (12.5.3)."""
    home = set_up_game
    save = str(home / "save" / f"{GAME}.sav")
    env = {**FAST, "EIAPBEM_PASSWORD": "pwFR"}
    code, out, err = run_cli("economy", "summary", "--save", save, "--power", "FR", "--json", env=env)
    assert code == 0, err
    before = json.loads(out)
    assert before["month"] == "1805-03" and "projection" in before["note"]
    own = next(f for f in before["funds"] if f["fund"] == "FR")
    assert own["opening_money"] == Session.open(home, GAME, "FR", "pwFR").state.powers["FR"].treasury
    assert own["closing_money"] == own["opening_money"] + sum(ln["money"] for ln in own["lines"])


def _three_battles():
    """A finished field battle (11.2), naval battle (9.2) and siege (11.4) from the rules tests' own situations."""
    import test_battle_field as tf
    import test_naval_battle as tn
    import test_sieges as ts
    from battlekit import play

    from eiapbem.rules.naval.battle import start_naval_battle
    from eiapbem.rules.combat.sieges import start_siege_assault

    s, c = tf._start(tf._two_on_one(), ["corps:FR:I", "corps:FR:II"], ["corps:AU:I"])
    land = play(s, tf.BID, c).battles[tf.BID]
    bid = "1805-10.bay-of-biscay.1"
    c = tn.ctx({f"naval/{bid}/wind/attacker": 2, f"naval/{bid}/wind/defender": 5,
                f"naval/{bid}/fire/defender": 5, f"naval/{bid}/fire/attacker": 2})
    st_, _ = tn.answer(start_naval_battle(tn.scene(tn.GB3, nelson="fleet:GB:1"), tn.SEA, tn.sides(tn.GB3), c).state, c,
                       lambda d: "port:brest" if "port:brest" in d.options else d.options[0])
    naval = st_.naval_battles[bid]
    c = ts.ctx({f"siege/{ts.SID}/attempt": 6})
    st_, _ = ts.answer(start_siege_assault(ts.scene(ts.AU_CORPS, [{"nation": "FR", "city": "lille", "infantry": 9}]),
                                           "lille", "AU", c).state, c, lambda d: "surrender")
    return land, naval, st_.sieges[ts.SID]


def test_battle_report_lists_and_renders_land_naval_and_siege(set_up_game, run_cli):
    """``eiapbem battle report``: the game's battles, each with its own report (11.2.7, 9.2.4, 11.4)."""
    from dataclasses import replace

    home = set_up_game
    env = {**FAST, "EIAPBEM_PASSWORD": "pwFR"}
    code, out, err = run_cli("battle", "report", "--power", "FR", home=home, env=env)
    assert code == 0 and "no battles in this game now" in out, err
    land, naval, siege = _three_battles()
    # Movement, which starts battles in play, is not built: the battles are put into the save directly.
    s = Session.open(home, GAME, "FR", "pwFR")
    st = s.state.replace(battles=s.state.battles.set(land.id, land), naval_battles=s.state.naval_battles.set(naval.id, naval),
                         sieges=s.state.sieges.set(siege.id, siege))
    s.data = replace(s.data, state=st)
    s.save()
    code, out, err = run_cli("battle", "report", "--power", "FR", home=home, env=env)
    assert code == 0, err
    assert f"{land.id}  land battle" in out and f"{naval.id}  naval battle" in out and f"{siege.id}  siege battle" in out
    code, out, err = run_cli("battle", "report", naval.id, "--power", "FR", home=home, env=env)
    assert code == 0 and "20% of 31 ships; the attacker loses 6 ships" in out, err
    code, out, err = run_cli("battle", "report", siege.id, "--power", "FR", home=home, env=env)
    assert code == 0 and "undergarrisoned +1 (9 of 15) = 4: breach" in out, err
    code, out, err = run_cli("battle", "report", land.id, "--json", "--power", "FR", home=home, env=env)
    assert code == 0, err
    rec = json.loads(out)
    assert rec["finished"] and rec["sides"]["attacker"]["units"] == ["corps:FR:I", "corps:FR:II"]
    code, out, err = run_cli("battle", "report", "no-such-battle", "--power", "FR", home=home, env=env)
    assert code != 0 and err.startswith("eiapbem: error: there is no battle 'no-such-battle'")


def test_show_power_in_a_hotseat_folder_opens_as_the_power_shown(set_up_game, run_cli):
    """4.2.1 hot-seat: 'eiapbem show power SP' needs no --power when Spain is played at this computer."""
    code, out, err = run_cli("show", "power", "SP", home=set_up_game, env={**FAST, "EIAPBEM_PASSWORD": "pwSP"})
    assert code == 0, err
    assert out.startswith("Spain (SP)")
    code, out, err = run_cli("show", "pool", "SP", home=set_up_game, env={**FAST, "EIAPBEM_PASSWORD": "pwSP"})
    assert code == 0 and "Counter pool of Spain" in out, err


@pytest.mark.slow
def test_fixed_lists_are_choices_and_orders_are_confirmed(set_up_game, run_cli):
    """12.5.3 (000:2216): the items a power can buy are listed by --help; an order without log lines is confirmed."""
    code, out, err = run_cli("economy", "buy-army", "--help")
    assert code == 0 and "[infantry|militia|cavalry|guard|artillery]" in out
    code, out, err = run_cli("reinforce", "add-garrison", "--help")
    assert code == 0 and "[city|depot]" in out
    code, out, err = run_cli("economy", "buy-army", "--item", "tanks", "--count", "1", "--power", "FR",
                             home=set_up_game, env={**FAST, "EIAPBEM_PASSWORD": "pwFR"})
    assert code == 2 and "tanks" in err and "Traceback" not in err
    # Move the game to March's economic phase, then give one order through the command.
    while True:
        st = Session.open(set_up_game, GAME, "RU", "pwRU").state
        if st.slot.phase.value == "economic":
            break
        for p in st.slot.actors:
            Session.open(set_up_game, GAME, p, f"pw{p}").end_phase()
    code, out, err = run_cli("economy", "buy-army", "--item", "infantry", "--count", "2", "--power", "FR",
                             home=set_up_game, env={**FAST, "EIAPBEM_PASSWORD": "pwFR"})
    assert code == 0, err
    assert out.strip() == ("FR: buy-army --item infantry --count 2 accepted (1 order so far in this phase; "
                           "'eiapbem end-phase' sends them)")
    code, out, err = run_cli("economy", "summary", "--json", "--power", "FR", home=set_up_game,
                             env={**FAST, "EIAPBEM_PASSWORD": "pwFR"})
    lines = next(f for f in json.loads(out)["funds"] if f["fund"] == "FR")["lines"]
    assert any(ln["item"] == "buy 2 infantry" and ln["money"] < 0 for ln in lines)
    # An order the power cannot pay is refused (issue 32), or with --even-if-short taken but not "accepted".
    code, out, err = run_cli("economy", "buy-army", "--item", "guard", "--count", "500", "--power", "FR",
                             home=set_up_game, env={**FAST, "EIAPBEM_PASSWORD": "pwFR"})
    assert code == 1 and "FR cannot pay buy-army --item guard --count 500" in err and "needs $" in err, err
    code, out, err = run_cli("economy", "buy-army", "--item", "guard", "--count", "500", "--even-if-short", "--power",
                             "FR", home=set_up_game, env={**FAST, "EIAPBEM_PASSWORD": "pwFR"})
    assert code == 0, err
    assert "accepted" not in out and "will NOT be carried out" in out and "needs $" in out, out

