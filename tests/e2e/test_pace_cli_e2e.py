"""Rounds of mail in an ordinary month of seven humans (issue 33, "How it will be checked"), every act a command line.

The standard seven-folder game of classic-1805 (``tests/sevenfolders.py``: made with ``eiapbem new`` and joined with
``eiapbem join``, every power a human in its own folder, the host playing Russia), at the pace a new game has by
default: every power's reinforcement phase skipped while nothing is due (13.9, set at the start; docs/decisions.md
"Pace of play").  Every act of every player is an ``eiapbem`` command run in that player's folder (``setup load
default``, ``skip``, ``naval move``, ``end-phase --seal-diplomacy``, ``load``); each turn file is copied from its
author's ``commout/`` into every other folder's ``commin/`` as mail would, and a player loads what came before he
plays.  The rounds are counted by ``eiapbem audit --json`` in the host's folder (``client/pace.py``).

Players who only end their phases (a new player who uses none of the tools): the diplomacy phase's two rounds
(commit, reveal), no reinforcement round, the five naval slots of the powers with fleets (8.2: Austria and Prussia
have nothing to decide and pass by themselves) and seven land slots: 2 + 5 + 7 = 14 in January and February.

Players who use the tools:

- January: Russia, Turkey and Spain keep their fleets in port and say so among their sealed diplomacy orders (13.9
  ``skip --phase naval --mode once`` in the commit round); every power seals next month's diplomacy orders in its
  land file.  Spain's naval slot, skipped, no longer stands between France's naval and land slots, so France's two
  files go in one mail: 2 + 1 (Great Britain) + 1 (France) + 6 land = 10;
- February: the five powers with fleets (Great Britain, Russia, Turkey, France, Spain) each move one in their naval
  slot (8.2), and every power plays its land slot: 1 diplomacy round + 5 naval + 7 land = 13;
- March (economic phase): Russia, Turkey and Spain set their naval phase to be skipped once in their land files;
- April: Great Britain and France move their fleets back: 1 + 1 (Great Britain) + 1 (France) + 6 land = 9.

Every folder's state hash is the same at the end, and the audit verifies every file and replays every slot passed
without one.  ``docs/decisions.md`` ("Pace of play", which slots travel together) gives the reasoning.
"""

from __future__ import annotations

import json
import re

import pytest

import sevenfolders
from clikit import cli

pytestmark = pytest.mark.slow

#: The fleet each power moves, by month: out of its home port in February, back in April (8.4).
FLEETS = {
    "1805-02": {"GB": ("fleet:GB:1", "box:london,north-sea,box:edinburgh,edinburgh"),
                "RU": ("fleet:RU:1", "box:odessa,black-sea-west,box:sevastopol,sevastopol"),
                "TU": ("fleet:TU:2", "box:athens,aegean-sea,box:salonika,salonika"),
                "FR": ("fleet:FR:1", "box:bordeaux,bay-of-biscay,box:brest,brest"),
                "SP": ("fleet:SP:1", "box:barcelona,balearic-sea,box:valencia,valencia")},
    "1805-04": {"GB": ("fleet:GB:1", "box:edinburgh,north-sea,box:london,london"),
                "FR": ("fleet:FR:1", "box:brest,bay-of-biscay,box:bordeaux,bordeaux")},
}
_FILE = re.compile(r"turn file commout/(\S+\.pbm)")


class CliGame:
    """The seven folders, each player's acts as ``eiapbem`` command lines in his own folder."""

    def __init__(self, folders: sevenfolders.Folders, *, tools: bool = True) -> None:
        self.folders = folders
        self.homes = folders.homes
        self.tools = tools  # False: the players only end their phases

    def run(self, p: str, *args: str) -> str:
        r = cli(self.homes[p], *args, "--power", p, "--password", sevenfolders.pw(p))
        assert r.exit_code == 0, (p, args, r.output, r.stderr, r.exception)
        return r.output

    def acts(self, month: str, phase: str, p: str, slot: str = "") -> list[tuple[str, ...]]:
        """What ``p`` gives in its slot of ``phase`` in ``month``, before ending it."""
        if phase == "setup":
            return [("setup", "load", "default")]
        if not self.tools:
            return []
        if slot == "1805-01/diplomacy/commit/all" and p in ("RU", "TU", "SP"):
            return [("skip", "--phase", "naval", "--mode", "once")]  # sealed with the orders of the commit round
        if phase == "naval" and p in FLEETS.get(month, {}):
            fleet, path = FLEETS[month][p]
            return [("naval", "move", "--fleet", fleet, "--path", path)]
        if phase == "land" and month == "1805-03" and p in ("RU", "TU", "SP"):
            return [("skip", "--phase", "naval", "--mode", "once")]
        return []

    def slot(self) -> dict:
        """Every power due in the slot in play (the host's folder says who) loads its mail, plays and ends its slot;
        the files travel to every other folder.  The host's status after."""
        st = json.loads(self.run("RU", "status", "--json"))
        due = [w["power"] for w in st["waiting"]]
        assert due, st
        sent = {}
        for p in due:
            if p != "RU":
                self.run(p, "load")
            for args in self.acts(st["date"], st["phase"], p, st["slot"]):
                self.run(p, *args)
            seal = ("--seal-diplomacy",) if st["phase"] == "land" and self.tools else ()
            out = self.run(p, "end-phase", "--yes", *seal)  # a land slot's end may ask about foraging (10.5)
            m = _FILE.search(out)
            assert m, out
            sent[p] = self.homes[p] / "commout" / m.group(1)
        for p, path in sent.items():
            self.folders.deliver(p, path)
        self.run("RU", "load")
        return json.loads(self.run("RU", "status", "--json"))

    def play_until(self, month: str) -> None:
        for _ in range(300):
            st = json.loads(self.run("RU", "status", "--json"))
            if st["date"] == month:
                return
            self.slot()
        raise AssertionError(f"the game did not reach {month}")


def _audit(g: CliGame) -> dict:
    for p in sevenfolders.POWERS:
        if p != "RU":
            g.run(p, "load")
    hashes = {p: json.loads(g.run(p, "status", "--json"))["state_hash"] for p in sevenfolders.POWERS}
    assert len(set(hashes.values())) == 1, hashes
    res = json.loads(g.run("RU", "audit", "--json"))
    assert res["verdict"] == "verified" and res["skipped"] > 0, res
    print("rounds of mail:", res["pace"])  # the figures docs/performance.md quotes (pytest -s)
    return {m["month"]: m["rounds"] for m in res["pace"]["months"]}


def test_an_ordinary_month_of_players_who_only_end_their_phases(seven_folders):
    g = CliGame(seven_folders, tools=False)
    st = json.loads(g.run("FR", "status", "--json"))
    # A new game's pace, said with the command that ends it.
    assert [(x["phase"], x["mode"], x["off"]) for x in st["skips"]] == [
        ("reinforcement", "continuous", "eiapbem skip --phase reinforcement --mode off")], st["skips"]
    st = g.slot()
    while st["phase"] != "land":
        st = g.slot()
    assert {(x["power"], x["phase"], x["reason"]) for x in st["passed"]} >= {
        ("SP", "reinforcement", "skip-continuous"), ("AU", "naval", "no-choice")}, st["passed"]
    # France's land file, the last of its month: the Next line names the seal of next month's diplomacy and the
    # naval skip, besides the plain end-phase.
    g.run("FR", "load")
    nxt = json.loads(g.run("FR", "status", "--json"))["next"]
    assert "'eiapbem end-phase --seal-diplomacy'" in nxt and "'eiapbem skip --phase naval --mode once'" in nxt, nxt
    g.play_until("1805-03")
    rounds = _audit(g)
    # 2 diplomacy + 5 naval (Austria and Prussia pass) + 7 land; 21 with every reinforcement phase played.
    assert rounds["1805-01"] == 14 and rounds["1805-02"] == 14, rounds


def test_a_month_with_fleets_moving_by_command_lines_between_seven_folders(seven_folders):
    g = CliGame(seven_folders)
    g.play_until("1805-05")
    rounds = _audit(g)
    # January: Russia, Turkey and Spain keep their fleets in port, said in their sealed diplomacy orders (13.9).
    assert rounds["1805-01"] == 10, rounds
    # February: every power with a fleet plays its naval slot: the diplomacy round, five naval, seven land.
    assert rounds["1805-02"] == 13, rounds
    # April: Russia, Turkey and Spain keep their fleets in port (13.9, set in March): France's naval and land files
    # travel together; at most 10 (about 23 before issue 33).
    assert rounds["1805-04"] == 9, rounds
