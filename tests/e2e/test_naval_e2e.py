"""End to end: the naval phase of January 1805 in seven folders exchanging real files, then on to the
March economic phase (8.4-8.10, 10.4.5, 12.2.1).

France hosts; each of the six other powers plays in its own folder as an email client.  Great
Britain and France start at war (a pre-existing war of the game's creation, 4.2.10).  France
sets up its fleet:FR:3 with a single ship on the blockade of London (5.2), its fleet:FR:1
(20 heavy) in Nantes beside the corps IV (15 infantry), and the Dutch fleet:holland:1 (15 heavy)
at sea in the North Sea.  The slots before the naval phase are played through the session API (to stay fast); the
naval and land slots of Great Britain and France with the ``eiapbem`` command:

- Great Britain's fleet:GB:1 leaves London: the French blockaders intercept it in the box at
  once (8.5.4, 8.8), Britain wins (France's one ship is sunk: no question for France), and fleet:GB:1 sails on with its points left into Lille's blockade box (8.5.4, 000:1126);
- France loads the corps IV (with Marmont) on fleet:FR:1 in Nantes and sails into the Bay of
  Biscay (8.6); in its land slot the corps lands at La Rochelle (10.4.5);
- France's fleet:FR:4 attacks fleet:GB:2 in the Channel: Britain's questions (its evasion order at
  least) go to Britain's folder as battle files and its replies come back, as for land battles
  (4.2.7; ``rules/naval/files.py``); France's turn file then carries the battle to every folder;
- France gives the Dutch fleet standing orders to intercept (``naval orders``, 8.5); in February a
  British fleet from Edinburgh, Belfast or Dublin sails into (or past) the North Sea and the Dutch
  intercept it by a roll (8.5.4: 1-3 in the same sea area, 1 from an adjacent one).  The dice of
  Britain's file are fixed before it acts (4.2.7), so the test looks at them first (the same replay
  as the command's) and sends a move whose roll succeeds; the battle is fought at once;
- every folder loads every turn file and ends each slot with the same state hash;
- the game is played on to the March economic phase (12.0) with Lille still blockaded: France's
  economic summary of that phase shows Lille's trade lost to the blockade (12.2.1), and the phase
  played by files leaves France's treasury at the summary's closing figure.
"""

import json
import re
import shutil

import pytest

from eiapbem.client import setups
from eiapbem.client.session import TEST_SCRYPT_ENV, Session
from eiapbem.rules.model import POWERS, Phase, Ships
from eiapbem.rules.naval.movement import MoveFleet
from sevenfolders import FAST, SCRYPT, new_by_api, pw

pytestmark = pytest.mark.slow

GAME = "Trafalgar"
HOST = "FR"
NAMES = {"GB": "Great Britain", "FR": "France"}
#: British moves into or past the North Sea (different fleets and steps: different dice labels, 8.5.4).
ROLL_CANDIDATES = [
    ("fleet:GB:11", ["north-sea"]),
    ("fleet:GB:11", ["north-sea", "skagerrak"]),
    ("fleet:GB:11", ["north-sea", "norwegian-sea", "north-sea"]),
    ("fleet:GB:11", ["north-sea", "north-atlantic", "north-sea"]),
    ("fleet:GB:12", ["irish-sea", "north-atlantic", "north-sea"]),
    ("fleet:GB:12", ["irish-sea", "english-channel", "north-sea"]),
    ("fleet:GB:10", ["irish-sea", "north-atlantic", "north-sea"]),
    ("fleet:GB:10", ["irish-sea", "english-channel", "north-sea"]),
    ("fleet:GB:10", ["irish-sea", "north-atlantic", "norwegian-sea", "north-sea"]),
    ("fleet:GB:12", ["irish-sea", "north-atlantic", "norwegian-sea", "north-sea"]),
]


def _open(homes, p):
    return Session.open(homes[p], GAME, p, pw(p))


def _deliver(homes, author, path):
    """The author's turn file to every other folder's commin/, each loading it; then all states agree."""
    for p in POWERS:
        if p == author:
            continue
        (homes[p] / "commin").mkdir(exist_ok=True)
        shutil.copy(path, homes[p] / "commin" / path.name)
        rep = _open(homes, p).load_all()
        assert not rep.refused, (p, rep.refused)
    hashes = {p: _open(homes, p).state.state_hash() for p in POWERS}
    assert len(set(hashes.values())) == 1, (path.name, hashes)


def _french_setup(s):
    acts = []
    for a in setups.default_actions("classic-1805", "FR"):
        if a.KIND == "setup.place-fleet" and a.fleet == "fleet:FR:1":
            a = type(a)(fleet=a.fleet, port="nantes", sea=None, blockade=None)
        elif a.KIND == "setup.place-fleet" and a.fleet == "fleet:holland:1":
            a = type(a)(fleet=a.fleet, port=None, sea="north-sea", blockade=None)
        elif a.KIND == "setup.place-fleet" and a.fleet == "fleet:FR:3":
            a = type(a)(fleet=a.fleet, port=None, sea=None, blockade="london")
        elif a.KIND == "setup.add-ships" and a.fleet == "fleet:FR:3":
            acts.append(type(a)(fleet=a.fleet, ships=Ships(heavy=1)))
            place = next(x for x in setups.default_actions("classic-1805", "FR") if x.KIND == "setup.place-fleet")
            acts.append(type(place)(fleet="fleet:FR:4", port="nantes", sea=None, blockade=None))
            a = type(a)(fleet="fleet:FR:4", ships=Ships(heavy=8))
        acts.append(a)
    s.act_many(acts)


def _play_until(homes, stop):
    for _ in range(200):
        st = _open(homes, HOST).state
        if stop(st):
            return st
        slot = st.slot
        for p in (slot.actors if slot.simultaneous else (slot.power,)):
            s = _open(homes, p)
            if slot.phase is Phase.SETUP:
                _french_setup(s) if p == "FR" else setups.load_setup(s, "default")
            _deliver(homes, p, s.end_phase())
    raise AssertionError("the slot never came")


@pytest.fixture
def game(tmp_path, monkeypatch):
    monkeypatch.setenv(TEST_SCRYPT_ENV, SCRYPT)
    homes = {p: tmp_path / p.lower() for p in POWERS}
    new_by_api(homes, {p: "host" if p == HOST else "client" for p in POWERS}, game=GAME, wars=[("GB", "FR")])
    _play_until(homes, lambda st: st.slot.phase is Phase.NAVAL)
    return homes


def test_a_month_at_sea_in_seven_folders(game, run_cli):
    homes = game

    def cli(p, *args, ok=True):
        code, out, err = run_cli(*args, "--password", pw(p), *(("--power", p) if p == HOST else ()), home=homes[p], env=FAST)
        assert (code == 0) == ok and "Traceback" not in err, (args, out, err)
        return out if ok else err

    def end(p):
        out = cli(p, "end-phase", "--yes")  # a land slot's end may ask about a foraging a depot could spare (10.5)
        _deliver(homes, p, homes[p] / "commout" / re.search(r"turn file commout/(\S+\.pbm)", out).group(1))

    def fight_by_files(phasing, other):
        """The phasing power answers its own questions; the other's go by battle files and come back (4.2.7)."""
        exchanges = 0
        for _ in range(40):
            status = cli(phasing, "status")
            mine = re.findall(rf"(naval:\S+) for {phasing} \((naval\.[\w-]+): ([^)]*)\)", status)
            if mine:
                cli(phasing, "answer", mine[0][0], mine[0][2].split("/")[0])
                continue
            sent = re.search(rf"send battles/(\S+) to {NAMES[other]}", status)
            if sent is None:
                break
            name = sent.group(1)
            (homes[other] / "battles").mkdir(exist_ok=True)
            shutil.copy(homes[phasing] / "battles" / name, homes[other] / "battles" / name)
            assert "loaded" in cli(other, "load", f"battles/{name}")
            for _ in range(10):
                status = cli(other, "status")
                asked = re.findall(r"'eiapbem answer (naval:\S+) CHOICE'", status)
                if not asked:
                    break
                opts = re.search(rf"asks {other} naval\.[\w-]+ \(([^)]*)\): 'eiapbem answer " + re.escape(asked[0]),
                                 status).group(1)
                cli(other, "answer", asked[0], opts.split("/")[0])
            reply = name.replace("-question.battle", "-reply.battle")  # each kind of battle file has its own name
            assert f"send your reply battles/{reply} to {NAMES[phasing]}" in status
            shutil.copy(homes[other] / "battles" / reply, homes[phasing] / "battles" / reply)
            cli(phasing, "load", f"battles/{reply}")
            exchanges += 1
        return exchanges

    st = _open(homes, "GB").state
    assert st.slot.power == "GB" and str(st.units["fleet:FR:3"].location) == "blockade:london"

    # Great Britain: an illegal step is refused with its reason, nothing changes.
    err = cli("GB", "naval", "move", "--fleet", "fleet:GB:1", "--path", "irish-sea", ok=False)
    assert "irish-sea is not next to box:london" in err and "(8.4.1-8.4.2)" in err
    # Leaving London: intercepted in the box at once; Britain wins and goes on.
    out = cli("GB", "naval", "move", "--fleet", "fleet:GB:1", "--path", "english-channel,box:lille")
    assert "intercepted in box:london" in out
    # The victor of a box combat may enter the port (9.4.3): Britain stays out and sails on.
    cli("GB", "answer", "naval:1805-01.london.1:enter-port", "stay")
    st = _open(homes, "GB").current()
    (battle,) = st.naval_battles.values()
    assert battle.interception and battle.location.kind.value == "blockade" and battle.step == "done"
    assert battle.victor == "attacker", battle.report
    assert str(st.units["fleet:GB:1"].location) == "blockade:london"
    cli("GB", "naval", "move", "--fleet", "fleet:GB:1", "--path", "english-channel,box:lille")
    assert "fleet:GB:1: 20 heavy (blockade)" in cli("GB", "show", "area", "box:lille")
    cli("GB", "naval", "move", "--fleet", "fleet:GB:2", "--path", "irish-sea,english-channel")

    end("GB")
    _play_until(homes, lambda s: s.slot.phase is Phase.NAVAL and s.slot.power == "FR")

    # France: "Review/Set Orders" (8.5): the Dutch fleet in the North Sea will try to intercept.
    cli("FR", "naval", "orders", "--fleet", "fleet:holland:1", "--intercept")
    # France: the corps IV boards fleet:FR:1 in Nantes and sails into the bay.
    cli("FR", "naval", "load", "--fleet", "fleet:FR:1", "--corps", "corps:FR:IV")
    cli("FR", "naval", "move", "--fleet", "fleet:FR:1", "--path", "bay-of-biscay")
    assert "corps:FR:IV: 15 infantry aboard fleet:FR:1" in cli("FR", "show", "area", "bay-of-biscay")
    # France attacks fleet:GB:2 in the Channel: Britain's questions travel by battle files (naval_files).
    cli("FR", "naval", "move", "--fleet", "fleet:FR:4", "--path", "bay-of-biscay,english-channel")
    cli("FR", "naval", "attack", "--place", "english-channel")
    bid = next(iter(_open(homes, "FR").current().naval_battles.keys() - {"1805-01.london.1"}))
    exchanges = fight_by_files("FR", "GB")
    assert exchanges >= 1  # at least Britain's evasion order (9.2.1.1) went by file
    assert _open(homes, "FR").current().naval_battles[bid].step == "done"
    end("FR")
    assert _open(homes, "AU").state.naval_battles[bid].step == "done"  # every folder replayed the battle's files
    st = _play_until(homes, lambda s: s.slot.phase is Phase.LAND and s.slot.power == "FR")
    assert str(st.units["corps:FR:IV"].location) == "aboard:fleet:FR:1"
    cli("FR", "land", "disembark", "--corps", "corps:FR:IV", "--area", "la-rochelle")
    end("FR")
    st = _open(homes, "PR").state
    assert str(st.units["corps:FR:IV"].location) == "area:la-rochelle"
    assert str(st.units["fleet:GB:1"].location) == "blockade:lille"

    # February: Britain sails into or past the North Sea; the Dutch fleet intercepts by a roll (8.5.4).
    st = _play_until(homes, lambda s: s.slot.phase is Phase.NAVAL and s.slot.power == "GB")
    assert str(st.date) == "1805-02" and "fleet:holland:1" in st.powers["FR"].standing_orders.intercept
    gb = _open(homes, "GB")
    dice, date = gb.slot_dice(), gb.state.date
    chosen, seen = None, []
    for fleet, path in ROLL_CANDIDATES:
        try:  # what the move would do with Britain's dice of this slot (the same replay as the command's)
            after = gb.slot.play([MoveFleet(fleet=fleet, path=",".join(path))]).state
        except Exception as err:  # a candidate the rules refuse is skipped (and named if none is chosen)
            seen.append(f"{fleet} {path}: {err}")
            continue
        fought = [b for k, b in after.naval_battles.items() if k not in gb.state.naval_battles]
        seen.append(f"{fleet} {path}: {[(b.id, b.step) for b in fought]}")
        if fought and fought[0].location.kind.value == "sea" and fought[0].interception:
            chosen = fleet, path, fought[0]
            break
    assert chosen is not None, f"no candidate move is intercepted by its roll (each has at least a 1 in 2 chance): {seen}"
    fleet, path, preview = chosen
    where = preview.location.site
    relation = "same" if where == "north-sea" else "adjacent"
    # The fleet sails from its port: its box is step 0. A path may pass ``where`` twice; the Dutch intercept at
    # the first of those steps whose roll succeeds (8.5.4), so every earlier visit's roll failed.
    steps = [k + 1 for k, area in enumerate(path) if area == where]
    rolls = [dice.d6(f"naval/{date}/GB/intercept/{fleet}.0/{step}/FR/sea:north-sea") for step in steps]
    limit = 3 if relation == "same" else 1
    assert any(r <= limit for r in rolls), rolls  # 8.5.4: the roll that let the Dutch intercept
    out = cli("GB", "naval", "move", "--fleet", fleet, "--path", ",".join(path))
    assert f"intercept in {where} ({relation} sea area: d6 " in out and f"needs {limit} or less, 8.5.4)" in out, out
    fight_by_files("GB", "FR")  # France's part in the battle, if it has one, goes by battle files
    st = _open(homes, "GB").current()
    (rolled,) = [b for k, b in st.naval_battles.items() if k.startswith("1805-02.")]
    assert rolled.interception and rolled.step == "done" and rolled.defenders == ("fleet:holland:1",), rolled
    assert rolled.attackers == (fleet,) and rolled.victor in ("attacker", "defender"), rolled.report
    end("GB")
    assert _open(homes, "RU").state.naval_battles[rolled.id].victor == rolled.victor  # every folder has the battle

    # On to March (12.0): Lille is still blockaded when the quarter's economic phase is played.
    st = _play_until(homes, lambda s: s.slot.phase is Phase.ECONOMIC)
    assert str(st.date) == "1805-03" and str(st.units["fleet:GB:1"].location) == "blockade:lille"
    summary = json.loads(cli("FR", "economy", "summary", "--json", "--only", "FR"))
    (france,) = [f for f in summary["funds"] if f["fund"] == "FR"]
    trade = {ln["item"]: ln for ln in france["lines"] if ln["item"].startswith("trade ")}
    assert trade["trade Lille"]["money"] == 0 and "blockaded" in trade["trade Lille"]["detail"], trade
    assert any(ln["money"] > 0 for ln in france["lines"]), france  # France has income this quarter
    assert not any(ln["item"] == "economic loss number" for ln in france["lines"])  # no dice in France's ledger
    before = st.powers["FR"].treasury
    after = _play_until(homes, lambda s: s.slot.phase is not Phase.ECONOMIC)  # every folder sends its orders
    assert france["opening_money"] == before
    assert after.powers["FR"].treasury == france["closing_money"], (before, after.powers["FR"].treasury, france)
