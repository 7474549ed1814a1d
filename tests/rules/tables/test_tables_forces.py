"""Forces charts: morale values (000:3183-3196), movement (10.4.1, 8.4), intrinsic ratings (13.8.5)."""

import pytest

from eiapbem.core.errors import BadData
from eiapbem.rules.tables import forces as f


def test_morale_values():
    mv = f.morale_value
    assert mv("GB", "infantry") == 450  # 000:3193
    assert mv("FR", "infantry") == 400 and mv("FR", "artillery") == 400  # 000:3194
    assert mv("AU", "infantry") == 300 and mv("RU", "artillery") == 300  # 000:3195
    assert mv("SP", "cavalry") == 300 and mv("TU", "cavalry") == 300  # 000:3189
    assert mv("PR", "cavalry") == 400 and mv("GB", "cavalry") == 400  # 000:3190
    assert mv("RU", "guard") == 500  # 000:3192
    assert mv("AU", "militia") == 200  # 000:3191
    assert mv("TU", "feudal-cavalry") == 200  # 000:3188
    assert mv("RU", "cossack") == 100 and mv("SP", "guerilla") == 100  # 000:3187, 000:2394, 000:2412
    with pytest.raises(BadData):
        mv("FR", "feudal-infantry")


def test_ottoman_morale():
    # 000:428 (c), 000:2336
    assert f.ottoman_morale("infantry", turkish_controlled=False) == 100
    assert f.ottoman_morale("cavalry", turkish_controlled=True) == 300


def test_movement_allowances():
    ma = f.movement_allowance
    assert ma("AU", "cavalry") == 5 and ma("AU", "light-infantry") == 5  # 000:1364
    assert ma("RU", "cossack") == 5 and ma("PR", "freikorps") == 5  # 000:1364, 000:2424
    assert ma("FR", "infantry") == 4 and ma("FR", "artillery") == 4  # 000:1364
    assert ma("RU", "infantry") == 3 and ma("bavaria", "infantry") == 3
    assert ma("holland", "infantry", french_free_state=True) == 4  # 000:1368
    assert ma("bavaria", "infantry", french_confederation=True) == 4  # 000:1370
    assert ma("bavaria", "infantry", french_free_state=True) == 3  # not on the 000:1368 list
    assert ma("SP", "guerilla") == 1  # one area
    assert f.MA_FLEET == 7  # 000:1060
    assert f.may_force_march("infantry") and not f.may_force_march("cavalry")  # 000:1374
    assert not f.may_force_march("infantry", disembarking=True)


def test_movement_costs():
    # 000:1380-1388, including the cumulative example: river + mountain + enemy = 3
    assert f.entry_cost(("clear",)) == 1 and f.entry_cost(("forest",)) == 1
    assert f.entry_cost(("marsh",)) == 2
    assert f.entry_cost(("mountain",), river_into_enemy=True) == 3
    assert f.entry_cost(("clear",), crossing_arrow=True) == 2
    assert f.NAVAL_COSTS["port-blockade-box"] == 0 and f.NAVAL_COSTS["sea-area"] == 1  # 000:1064-1068


def test_intrinsic_ratings():
    # 000:2662-2680
    assert f.intrinsic_ratings("FR") == f.Ratings(2, 2)
    assert f.intrinsic_ratings("RU") == f.Ratings(1, 2)
    assert f.intrinsic_ratings("SP") == f.Ratings(1, 1)
    assert f.intrinsic_ratings("sweden") == f.Ratings(2, 1)
    assert f.intrinsic_ratings("naples") == f.Ratings(1, 1)
    assert f.INTRINSIC_NO_CORPS == f.Ratings(0, 0)  # 000:2658
    with pytest.raises(BadData):
        f.intrinsic_ratings("atlantis")
