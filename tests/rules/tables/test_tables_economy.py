"""Economic charts: purchase/cost (000:2951-2970), Spanish gold (000:2972-2976), victory levels (003)."""

import pytest

from eiapbem.core.errors import BadData, IllegalAction
from eiapbem.core.dice import Dice
from eiapbem.rules.tables import economy as e


def test_purchase_cost_cells():
    c = e.COSTS
    assert (c["artillery"].money, c["artillery"].manpower, c["artillery"].months) == (7, 1, 6)  # 000:2960
    assert (c["cavalry"].money, c["cavalry"].manpower, c["cavalry"].months) == (12, 2, 5)  # 000:2961
    assert (c["infantry"].money, c["infantry"].manpower, c["infantry"].months) == (3, 2, 3)  # 000:2963
    assert (c["militia"].money, c["militia"].manpower, c["militia"].months) == (0, 2, 1)  # 000:2964
    assert (c["heavy"].money, c["heavy"].months) == (9, 12)  # 000:2966
    assert (c["light"].money, c["light"].months) == (6, 9)  # 000:2967
    assert (c["transport"].money, c["transport"].months) == (4, 6)  # 000:2968
    assert c["fleet-maintenance-sea"].money == 5 and c["fleet-maintenance-port"].money == 1  # 000:2956-2957


def test_build_time_example():
    # 12.5.3, 000:2232: infantry bought March 1806 arrives June 1806
    assert e.arrival(1806, 3, "infantry") == (1806, 6)
    assert e.arrival(1806, 12, "heavy") == (1807, 12)
    assert e.arrival(1806, 9, "cavalry") == (1807, 2)


def test_purchase_restrictions():
    # 12.5.3, 000:2230
    with pytest.raises(IllegalAction, match="militia"):
        e.check_purchase("TU", "militia")
    with pytest.raises(IllegalAction, match="guard"):
        e.check_purchase("TU", "guard")
    with pytest.raises(IllegalAction, match="artillery"):
        e.check_purchase("AU", "artillery")
    with pytest.raises(IllegalAction):
        e.check_purchase("bavaria", "militia", minor_free_state=True)
    assert e.check_purchase("RU", "artillery").money == 7
    assert e.check_purchase("AU", "militia").manpower == 2
    with pytest.raises(BadData):
        e.check_purchase("FR", "corps-maintenance")


def test_spanish_gold_cells():
    # 000:2974-2975
    assert e.SPANISH_GOLD[2] == 5 and e.SPANISH_GOLD[7] == 25 and e.SPANISH_GOLD[10] == 35 and e.SPANISH_GOLD[12] == 40


def _dice(a, b):
    return Dice(b"t", forced={"economy/spanish-gold/1": a, "economy/spanish-gold/2": b}, strict=True)


def test_spanish_gold_convoy():
    # 000:2124-2126: September only; GB at war -2; below 2 -> Britain $15, Spain nothing
    r = e.spanish_gold(_dice(4, 5), month=9, gb_at_war_with_spain=False)
    assert (r.roll, r.spain, r.britain) == (9, 30, 0)
    r = e.spanish_gold(_dice(4, 5), month=9, gb_at_war_with_spain=True)
    assert (r.modified, r.spain, r.britain) == (7, 25, 0)
    r = e.spanish_gold(_dice(1, 2), month=9, gb_at_war_with_spain=True)
    assert (r.modified, r.spain, r.britain) == (1, 0, 15)
    # not in October (the chart sheet's month loses), and no roll without a port (000:2128)
    assert e.spanish_gold(_dice(6, 6), month=10, gb_at_war_with_spain=False).roll is None
    assert e.spanish_gold(_dice(6, 6), month=9, gb_at_war_with_spain=False, convoy_possible=False).spain == 0


def test_victory_levels():
    # 003:84 Austria 330, 003:90 France 400, 003:96 GB 370, 003:120 Turkey 315 (1805-1815)
    assert e.victory_level("AU") == 330 and e.victory_level("FR") == 400
    assert e.victory_level("GB") == 370 and e.victory_level("TU") == 315
    # 003:88 France 320, 003:106 Spain 295 (1792-1802)
    assert e.victory_level("FR", "1792-1802") == 320 and e.victory_level("SP", "1792-1802") == 295
