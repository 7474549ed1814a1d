"""End to end: forces go home when a grace of temporary access ends (6.4 000:738; 13.4.1 000:2552-2554; 6.11).

Seven folders, real sealed files copied between them, every folder loading every file:

- January 1805: France declares war on Austria and offers conditional terms; Austria and Russia ally; in the land
  phase a French corps marches from Milan into Trent, in Austria's Tyrol;
- February: Austria grants Russia access; a Russian corps marches from Lutsk into Tarnopol, in Austrian Galicia;
- March: Austria sues France for peace (conditional, B.3) and cancels Russia's access: both guests have three land
  phases of grace, March, April and May;
- the French and Russian corps stay where they are through May's land phase; at its end the program sends them
  home, and from June neither stands in Austria and no access record is left.
"""

from __future__ import annotations

import pytest

from eiapbem.core.dice import Dice
from eiapbem.data.context import rules_context
from eiapbem.rules import control
from eiapbem.rules.combat.orders import InsurrectionOrders
from eiapbem.rules.diplomacy.orders import DeclareWar, GrantAccess, RequestAlliance, SetSurrenderTerms, SueForPeace
from eiapbem.rules.land.movement import MoveUnit
from eiapbem.rules.model import LocationKind, Phase

pytestmark = pytest.mark.slow

MOVES = {"FR": {"corps:FR:I": "milan"}, "RU": {"corps:RU:I": "lutsk"}}


def test_the_guests_go_home_after_three_land_phases_of_grace(seven_folders):
    folders = seven_folders
    players = folders.sessions()
    C = "commit"
    orders = {
        ("1805-01", Phase.DIPLOMACY, C, "FR"): [DeclareWar("AU"), SetSurrenderTerms("AU", give_conditional=True,
                                                                                    term=("B.3",))],
        ("1805-01", Phase.DIPLOMACY, C, "AU"): [RequestAlliance("RU")],
        ("1805-01", Phase.DIPLOMACY, C, "RU"): [RequestAlliance("AU")],
        # Austria holds its insurrection corps (13.2.4): the French corps walks into Trent without a battle.
        ("1805-01", Phase.REINFORCEMENT, "turn", "AU"): [InsurrectionOrders(hold=True)],
        ("1805-01", Phase.LAND, "turn", "FR"): [MoveUnit("corps:FR:I", "trent")],
        ("1805-02", Phase.DIPLOMACY, C, "AU"): [GrantAccess("RU")],
        ("1805-02", Phase.LAND, "turn", "RU"): [MoveUnit("corps:RU:I", "tarnopol")],
        ("1805-03", Phase.DIPLOMACY, C, "AU"): [SueForPeace("FR"), GrantAccess("RU", cancel=True)],
    }
    st = folders.play_until(players, lambda s: str(s.date) == "1805-03" and s.slot.phase is Phase.REINFORCEMENT,
                            orders, MOVES)
    assert "AU" not in st.powers["FR"].wars
    assert {q: f"{a.kind}:{a.until}" for q, a in st.powers["AU"].access.items()} == {
        "FR": "temporary:1805-05", "RU": "temporary:1805-05"}
    assert str(st.units["corps:FR:I"].location) == "area:trent"
    assert str(st.units["corps:RU:I"].location) == "area:tarnopol"
    # April and May: still within the grace, the guests stay.
    st = folders.play_until(players, lambda s: str(s.date) == "1805-05" and s.slot.phase is Phase.LAND
                            and s.slot.power == "SP", orders)
    assert str(st.units["corps:FR:I"].location) == "area:trent"
    assert str(st.units["corps:RU:I"].location) == "area:tarnopol"
    # After May's land phase, the third of the grace: both go home.
    st = folders.play_until(players, lambda s: str(s.date) == "1805-06", orders)
    assert not orders, orders
    m = rules_context(Dice(b"map")).map
    for cid in ("corps:FR:I", "corps:RU:I"):
        where = st.units[cid].location
        assert where.kind is LocationKind.AREA and control.territory_power(st, m, where.site) != "AU", (cid, where)
    assert "FR" not in st.powers["AU"].access and "RU" not in st.powers["AU"].access
    assert "AU" not in st.powers["FR"].access
    texts = [e.text for e in players["AU"].journal() if e.kind == "diplomacy.repatriation"]
    assert any(t.startswith("FR's temporary access to AU's territory has ended after three land phases: corps:FR:I "
                            "is sent home to ") for t in texts), texts
    assert any(t.startswith("RU's temporary access to AU's territory has ended after three land phases: corps:RU:I "
                            "is sent home to ") for t in texts), texts
    assert set(folders.hashes(players).values()) == {st.state_hash()}
