"""End to end: war and peace by email between seven folders (issue 16, "How it will be checked").

The host (Russia) and six clients each in their own folder, real sealed files
copied between them, the sealed diplomacy phase's two rounds every month:

- January 1805: Austria and Russia both request an alliance (6.5); Prussia
  requests trade with Great Britain and Britain allows it (6.10);
- February: France declares war on Austria (6.2); Austria calls Russia,
  which answers (6.3); in the land phase France attacks the two Austrian corps
  in Verona and the battle is fought by battle files between the French and
  the Austrian folders (4.2.7): France's question files go to Austria's
  ``battles/``, Austria answers and its replies come back, until the battle
  ends; France's turn file then carries the whole battle to every folder;
- March: Austria sues France for peace, France gives conditional terms B.3
  and B.4, Austria claims A.1 (6.4.2): peace, royal marriage, reparations and
  18 months of enforced peace; in the March economic phase Austria pays the
  reparations and Prussia collects its domestic trade.

After every slot all seven saves hold the same state hash.
"""

from __future__ import annotations

import shutil

import pytest

from eiapbem.core.dice import Dice
from eiapbem.data.context import rules_context
from eiapbem.rules.diplomacy.orders import AnswerCalls, CallAllies, DeclareWar, RequestAlliance, SetSurrenderTerms, \
    SetTrade, SueForPeace
from eiapbem.rules.engine import AnswerDecision
from eiapbem.rules.land.combat import Attack
from eiapbem.rules.land.movement import MoveUnit
from eiapbem.rules.model import Phase

pytestmark = pytest.mark.slow

CUSTOM = {"FR": {"corps:FR:I": "milan", "corps:FR:II": "milan"},
          "AU": {"corps:AU:I": "verona", "corps:AU:II": "verona"}}


class Players(dict):
    """One open session per folder (a player keeps the program open between slots)."""

    def __init__(self, folders):
        super().__init__(folders.sessions())
        self.folders = folders
        self.homes = folders.homes
        self.exchanges = 0


def _battle_by_files(players):
    """France's attack is fought by battle files between the French and Austrian folders (4.2.7, 000:168-176).

    France answers its own questions (the first option); each question file for Austria is copied from
    France's ``battles/`` to Austria's, loaded there and answered (the first option), and Austria's reply goes
    back to France's ``battles/`` and is loaded, until France's record of the fight is closed."""
    fr, au = players["FR"], players["AU"]
    fr_dir, au_dir = players.homes["FR"] / "battles", players.homes["AU"] / "battles"
    exchanges = 0
    for _ in range(200):
        mine = [d for d in fr.current().pending.values() if d.power == "FR"]
        if mine:
            fr.act(AnswerDecision(mine[0].id, mine[0].options[0]))
            continue
        waiting = [f for f in fr.fights().values() if f.out and not f.closed]
        if not waiting:
            break
        name = waiting[0].name
        au_dir.mkdir(exist_ok=True)
        shutil.copy(fr_dir / name, au_dir / name)
        au.load_path(au_dir / name)
        for _ in range(50):  # Austria answers until its reply is written (then it waits for France's next file)
            open_ = [e for e in au.data.battles.answer.values() if not e.sent]
            asked = [d for d in au.current().pending.values() if d.power == "AU"]
            if not open_ or not asked:
                break
            au.act(AnswerDecision(asked[0].id, asked[0].options[0]))
        reply = name.replace("-question.battle", "-reply.battle")  # each kind of battle file has its own name
        assert au.last_battle_file is not None and au.last_battle_file.name == reply
        shutil.copy(au_dir / reply, fr_dir / reply)
        fr.load_path(fr_dir / reply)
        exchanges += 1
    else:
        raise AssertionError("the battle did not end")
    fights = fr.fights()
    assert exchanges >= 1 and fights and all(f.closed for f in fights.values()), (exchanges, fights)
    return exchanges


#: The first slot after the month's diplomacy: a reinforcement slot, or a naval one when every reinforcement slot is
#: skipped (nothing due: 13.9, the setting a new game gives every human power).
AFTER_DIPLOMACY = (Phase.REINFORCEMENT, Phase.NAVAL)


def _play_until(players, stop, orders):
    """Play slots until ``stop(state)``; ``orders[(month, phase, step, power)]`` are the actions given in a slot, a
    French attack fought by battle files at once."""
    def after(a):
        if isinstance(a, Attack):
            players.exchanges += _battle_by_files(players)

    return players.folders.play_until(players, stop, orders, CUSTOM, after)


def test_war_and_peace_by_email_between_seven_folders(seven_folders):
    players = Players(seven_folders)
    C = "commit"
    orders = {
        ("1805-01", Phase.DIPLOMACY, C, "AU"): [RequestAlliance("RU")],
        ("1805-01", Phase.DIPLOMACY, C, "RU"): [RequestAlliance("AU")],
        ("1805-01", Phase.DIPLOMACY, C, "PR"): [SetTrade("GB")],
        ("1805-01", Phase.DIPLOMACY, C, "GB"): [SetTrade("PR")],
        ("1805-02", Phase.DIPLOMACY, C, "FR"): [DeclareWar("AU"),
                                                SetSurrenderTerms("AU", give_conditional=True, term=("B.3", "B.4"))],
        ("1805-02", Phase.DIPLOMACY, C, "AU"): [CallAllies("FR", ("RU",)),
                                                SetSurrenderTerms("FR", if_conditional_offered="A.1")],
        ("1805-02", Phase.DIPLOMACY, C, "RU"): [AnswerCalls("FR", ("AU",))],
        ("1805-02", Phase.LAND, "turn", "FR"): [MoveUnit("corps:FR:I", "verona"), MoveUnit("corps:FR:II", "verona"),
                                                Attack("verona")],
        ("1805-03", Phase.DIPLOMACY, C, "AU"): [SueForPeace("FR")],
    }
    # January: the alliance and the trade agreement.
    st = _play_until(players, lambda s: str(s.date) == "1805-01" and s.slot.phase in AFTER_DIPLOMACY, orders)
    assert "RU" in st.powers["AU"].alliances
    assert st.powers["PR"].trade == ("GB",) and "PR" in st.powers["GB"].trade
    # February: France declares war on Austria, Austria calls Russia.
    st = _play_until(players, lambda s: str(s.date) == "1805-02" and s.slot.phase in AFTER_DIPLOMACY, orders)
    assert sorted(st.powers["FR"].wars) == ["AU", "RU"]
    texts = [e.text for e in players["RU"].journal()]
    assert "France declares war on Austria (6.2.1): -3 political points" in texts
    assert "Russia answers Austria's call and declares war on France (6.3)" in texts
    # The battle in Verona, fought in France's land slot by battle files between France and Austria.
    st = _play_until(players, lambda s: str(s.date) == "1805-03", orders)
    assert players.exchanges >= 1
    assert any(b.finished and b.area == "verona" for b in st.battles.values()), st.battles
    # March: Austria sues for peace and accepts the conditional terms; they take effect.
    au_status = st.powers["AU"].political_status
    st = _play_until(players, lambda s: str(s.date) == "1805-03" and s.slot.phase in AFTER_DIPLOMACY, orders)
    assert "AU" not in st.powers["FR"].wars and "FR" in st.powers["RU"].wars
    assert st.powers["AU"].royal_marriages.get("FR") is not None
    assert "FR:B.3" in st.powers["AU"].peace_terms
    assert str(st.powers["AU"].enforced_peace["FR"]) == "1806-09"
    assert st.powers["AU"].political_status == au_status - 5
    # The March economic phase: Prussia's domestic trade, Austria's reparations.
    econ = _play_until(players, lambda s: s.slot.phase is Phase.ECONOMIC, orders)
    from eiapbem.rules.economy.phase import summary

    rows = {r["fund"]: r for r in summary(econ, rules_context(Dice(b"preview")), {})}
    pr_trade = [ln for ln in rows["PR"]["lines"] if ln["item"].startswith("trade ") and ln["money"] > 0]
    assert pr_trade, rows["PR"]["lines"]
    assert any(ln["item"] == "domestic trade" and "has not requested" in ln["detail"] for ln in rows["SP"]["lines"])
    assert any(ln["item"] == "reparations to FR" for ln in rows["AU"]["lines"])
    after = _play_until(players, lambda s: str(s.date) == "1805-04", orders)
    assert "FR:B.3" not in after.powers["AU"].peace_terms  # paid once (B.3, next economic phase)
    assert not orders, orders
    # What is on disk is what the players hold.
    assert set(seven_folders.hashes(players).values()) == {after.state_hash()}
