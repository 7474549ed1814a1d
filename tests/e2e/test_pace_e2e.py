"""The pace of a game of seven humans by email (issue 33, "How it will be checked").

The standard seven-folder game of classic-1805 (``tests/sevenfolders.py``: made and joined with the real
commands, every power a human in its own folder, the host playing Russia), files copied between the folders as
mail would, every folder's hash compared after every round.  The players use what the rules give them for pace:

- January 1805: every power sets its reinforcement and naval phases to be skipped (13.9, ``eiapbem skip``) among
  its sealed diplomacy orders (the reinforcement one is a new game's default already), and seals next month's
  diplomacy orders in its land file (``eiapbem end-phase --seal-diplomacy``); France gives its
  declaration of war on Austria for February that way (``eiapbem diplomacy declare-war --next-month``);
- February: one diplomacy round (the reveal); the war cancels Austria's skips (13.9.1), so Austria plays its
  reinforcement phase; France attacks the two Austrian corps in Verona and Austria answers the battle's first
  question file with standing orders for the whole battle (``BattlePlan``): one exchange, two rounds of mail;
- March, with its economic phase, and April, an ordinary month: the month's rounds are counted by the audit
  (``client/pace.py``).

The same January is played a second time round by round (two diplomacy rounds, France declaring in February's
commit round): February's diplomacy resolves alike in both games.
"""

from __future__ import annotations

import shutil

import pytest

import sevenfolders
from eiapbem.client import audit, setups
from eiapbem.client.status import status_record
from eiapbem.rules.combat.plans import BattlePlan
from eiapbem.rules.diplomacy.orders import DeclareWar
from eiapbem.rules.land.combat import Attack
from eiapbem.rules.land.movement import MoveUnit
from eiapbem.rules.model import Phase
from eiapbem.rules.skips import SetSkip
from sevenfolders import setup_moved

pytestmark = pytest.mark.slow

CUSTOM = {"FR": {"corps:FR:I": "milan", "corps:FR:II": "milan"},
          "AU": {"corps:AU:I": "verona", "corps:AU:II": "verona"}}
SKIPS = [SetSkip("reinforcement", "continuous"), SetSkip("naval", "continuous")]


class Game:
    """The seven folders, one open session a power, the files of each round copied and loaded everywhere."""

    def __init__(self, folders: sevenfolders.Folders, *, ahead: bool) -> None:
        self.folders = folders
        self.s = folders.sessions()
        self.ahead = ahead

    @property
    def state(self):
        return self.s["RU"].state

    def round(self, orders: dict) -> None:
        """Every power due plays its slot (``orders[(month, phase, step, power)]``), ends it, and the files travel."""
        st = self.state
        slot = st.slot
        paths = {}
        for p in [p for p, _ in self.s["RU"].awaited()]:
            s = self.s[p]
            if slot.phase is Phase.SETUP:
                setup_moved(s, CUSTOM[p]) if p in CUSTOM else setups.load_setup(s, "default")
            for a in orders.pop((str(st.date), slot.phase, slot.step, p), ()):
                if isinstance(a, tuple) and a[0] == "ahead":
                    s.order_ahead(a[1])
                else:
                    s.act(a)
                if isinstance(a, Attack):
                    self.battle(p)
            seal = self.ahead and (slot.phase is Phase.LAND or slot.phase is Phase.ECONOMIC)
            paths[p] = s.end_phase(seal_diplomacy=seal)
        for p, path in paths.items():
            self.folders.deliver(p, path)
        self.folders.load_everyone(self.s)
        hashes = {p: s.state.state_hash() for p, s in self.s.items()}
        assert len(set(hashes.values())) == 1, hashes

    def battle(self, attacker: str) -> None:
        """The attacker's question file to Austria; Austria answers it with standing orders for the whole battle."""
        fr, au = self.s[attacker], self.s["AU"]
        homes = self.folders.homes
        for _ in range(20):
            mine = [d for d in fr.current().pending.values() if d.power == attacker]
            if mine:
                from eiapbem.rules.engine import AnswerDecision

                fr.act(AnswerDecision(mine[0].id, mine[0].options[0]))
                continue
            out = [f for f in fr.fights().values() if f.out]
            if not out:
                return
            name = out[0].name
            (homes["AU"] / "battles").mkdir(exist_ok=True)
            shutil.copy(homes[attacker] / "battles" / name, homes["AU"] / "battles" / name)
            au.load_path(homes["AU"] / "battles" / name)
            bid = next(q.context["battle"] for q in au.battle_questions())
            au.act(BattlePlan(bid, chit=("defend",), withdraw_below=100, no_pursuit=True))
            reply = au.last_battle_file
            shutil.copy(reply, homes[attacker] / "battles" / reply.name)
            fr.load_path(homes[attacker] / "battles" / reply.name)
        raise AssertionError("the battle did not end")

    def play_until(self, stop, orders: dict) -> None:
        for _ in range(200):
            if stop(self.state):
                return
            self.round(orders)
        raise AssertionError("the game did not get there")


def _month(month: str, phase: Phase):
    return lambda st: str(st.date) == month and st.slot.phase is phase


def test_seven_humans_play_a_month_in_at_most_ten_rounds_of_mail(seven_folders, tmp_path):
    twin = tmp_path / "round-by-round"
    shutil.copytree(seven_folders.homes["RU"].parent, twin)
    g = Game(seven_folders, ahead=True)
    orders = {("1805-01", Phase.DIPLOMACY, "commit", p): list(SKIPS) for p in ("SP", "GB", "PR", "AU", "TU", "RU", "FR")}
    orders[("1805-01", Phase.LAND, "turn", "FR")] = [("ahead", DeclareWar("AU"))]
    orders[("1805-02", Phase.LAND, "turn", "FR")] = [MoveUnit("corps:FR:I", "verona"), MoveUnit("corps:FR:II", "verona"),
                                                    Attack("verona")]
    orders[("1805-03", Phase.REINFORCEMENT, "turn", "AU")] = list(SKIPS)  # the war cancelled them (13.9.1)
    g.play_until(_month("1805-02", Phase.REINFORCEMENT), orders)
    at_february = g.state
    assert "AU" in at_february.powers["FR"].wars
    assert not at_february.order_sheet.commitments
    g.play_until(_month("1805-04", Phase.LAND), orders)
    # The status says which slots no file played this month, and why.
    passed = status_record(g.s["FR"])["passed"]
    assert {(x["power"], x["phase"], x["reason"]) for x in passed} >= {
        ("FR", "naval", "skip-continuous"), ("AU", "reinforcement", "skip-continuous")}, passed
    g.play_until(lambda st: str(st.date) == "1805-05", orders)
    assert not orders, orders

    # The audit re-verifies every file and every slot passed without one, and counts the rounds of mail.
    res = audit.run(seven_folders.homes["RU"], sevenfolders.GAME, g.s["RU"].me)
    assert res.verified, res.lines()
    assert res.skipped > 0
    rounds = res.pace.months
    print("rounds of mail:", rounds)  # the figures docs/performance.md quotes (pytest -s)
    assert rounds["1805-04"] <= 10, res.pace.lines()  # an ordinary month: about 23 before (issue 33)
    assert res.pace.battle_files["1805-02"] == 3  # question, reply, close: one exchange
    # February: the reveal round, Austria's reinforcement, seven land files, the battle's two rounds.
    assert rounds["1805-02"] <= rounds["1805-04"] + 1 + 2, res.pace.lines()
    fr_land = [e for e in g.s["FR"].journal() if e.kind == "battle.end"]
    assert fr_land, "the battle in Verona was fought"

    # The same January round by round: two diplomacy rounds, France's declaration in February's commit round.
    r = Game(sevenfolders.Folders(sevenfolders.seven_homes(twin)), ahead=False)
    orders = {("1805-01", Phase.DIPLOMACY, "commit", p): list(SKIPS) for p in ("SP", "GB", "PR", "AU", "TU", "RU", "FR")}
    orders[("1805-02", Phase.DIPLOMACY, "commit", "FR")] = [DeclareWar("AU")]
    r.play_until(_month("1805-02", Phase.REINFORCEMENT), orders)
    # February's diplomacy resolves alike.  The states are not byte for byte the same: each file's dice come from
    # its predecessor in the chain (docs/file-format.md 7.1), and the pace game has other files (no commit round), so
    # January's later land files rolled other foraging dice; ``tests/test_pace_rules.py`` shows the same states
    # where the dice are the same.
    def diplomacy(game):
        return [e.text for e in game.s["RU"].journal() if e.slot.startswith("1805-02/diplomacy/")
                and e.kind != "diplomacy.sealed-ahead"]

    assert diplomacy(r) == diplomacy(g) and "France declares war on Austria (6.2.1): -3 political points" in diplomacy(g)
    assert r.state.powers["FR"].wars == at_february.powers["FR"].wars
    twin_audit = audit.run(twin / "host", sevenfolders.GAME, r.s["RU"].me)
    assert twin_audit.verified
    assert twin_audit.pace.months["1805-02"] == 2  # so far: both diplomacy rounds (commit, orders)
    assert res.pace.months["1805-01"] == twin_audit.pace.months["1805-01"]  # sealing in the land files costs nothing
