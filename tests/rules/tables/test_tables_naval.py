"""Naval charts (000:2978-2988, 8.6.2) and the naval combat procedure (9.2-9.3)."""

import pytest

from eiapbem.core.errors import BadData
from eiapbem.core.dice import Dice
from eiapbem.rules.naval import combat
from eiapbem.rules.naval.combat import NavalStack, resolve
from eiapbem.rules.naval.interception import attempt_interception
from eiapbem.rules.tables import naval as n


def forced(**kw):
    return Dice(b"test", forced={k.replace("__", "/"): v for k, v in kw.items()}, strict=True)


def test_combat_table_cells():
    # 000:2984-2985: 0-1 5%, 2 10%, 3-4 15%, 5 20%, 6-7 25%
    assert [n.combat_percent(r) for r in range(8)] == [5, 5, 10, 15, 15, 20, 25, 25]
    with pytest.raises(BadData):
        n.combat_percent(8)


def test_modifiers_are_capped_at_one():
    # 000:1228: cumulative, net never above +1 nor below -1
    assert n.combat_modifier(british=True, heavy_ratio=True, austrian_or_prussian=False) == 1
    assert n.combat_modifier(british=True, heavy_ratio=False, austrian_or_prussian=True) == 0
    assert n.combat_modifier(british=False, heavy_ratio=False, austrian_or_prussian=True) == -1


def test_heavy_ratio():
    # 8.1.1 (000:1024): 1.5 times more heavy ships than the other side gives +1.
    # 000:1024 "1.5 times more heavy ships"
    assert n.has_heavy_ratio(15, 10) and not n.has_heavy_ratio(14, 10)
    assert n.has_heavy_ratio(1, 0) and not n.has_heavy_ratio(0, 0)


def test_wind_gauge_numbers():
    # 000:1216, 000:2987: +1 British, +1 Nelson, maximum 6; 9.2.4: GB 2 -> 4
    assert n.wind_number(2, british=True, nelson=True) == 4
    assert n.wind_number(5, british=True, nelson=True) == 6
    assert n.wind_number(5, british=False, nelson=False) == 5


def test_interception_numbers():
    # 000:1122-1126, 000:2988: same area 3 or less, adjacent 1 or less, Nelson -1
    assert n.intercepts(3, "same", nelson=False) and not n.intercepts(4, "same", nelson=False)
    assert n.intercepts(4, "same", nelson=True)
    assert n.intercepts(1, "adjacent", nelson=False) and not n.intercepts(2, "adjacent", nelson=False)
    assert n.intercepts(2, "adjacent", nelson=True)
    assert attempt_interception(forced(i=6), "i", "blockade-box") is True  # 000:1116 automatic
    assert attempt_interception(forced(i=2), "i", "adjacent", nelson=True) is True
    assert attempt_interception(forced(i=2), "i", "adjacent") is False


def test_transport_capacity():
    # 8.1.1 (000:1026), 8.1.2, 8.1.3, 8.6.2: what each ship type carries.
    # 000:1154 heavy 1 inf or 1/2 cav; 000:1156 light 1/2 inf; 000:1158 transport 2 inf or 1 cav
    assert n.TRANSPORT_CAPACITY["heavy"].infantry_halves == 2 and n.TRANSPORT_CAPACITY["heavy"].cavalry_halves == 1
    assert n.TRANSPORT_CAPACITY["light"].infantry_halves == 1 and n.TRANSPORT_CAPACITY["light"].cavalry_halves == 0
    assert n.TRANSPORT_CAPACITY["transport"].infantry_halves == 4
    assert n.can_carry({"heavy": 2}, {"cavalry": 1})
    assert not n.can_carry({"heavy": 1}, {"cavalry": 1})
    assert n.can_carry({"light": 4}, {"infantry": 2})
    assert not n.can_carry({"light": 4}, {"artillery": 1})  # light ships carry infantry only (000:1034)
    assert n.can_carry({"transport": 3, "light": 2}, {"cavalry": 2, "infantry": 3})
    assert not n.can_carry({"transport": 3, "light": 1}, {"cavalry": 2, "infantry": 3})
    with pytest.raises(BadData):
        n.can_carry({"heavy": 5}, {"cossack": 1})  # 8.6, 000:1144


def test_losses_round_down():
    # 9.2.4, 000:1246: 20% of 31 -> 6, 15% of 54 -> 8
    assert combat.ship_losses(31, 20, 60) == 6
    assert combat.ship_losses(54, 15, 31) == 8
    assert combat.ship_losses(100, 25, 10) == 10  # never more than the target has


def test_proportional_losses_light_round_down():
    # 9.2.2.1, 000:1238
    assert combat.proportional_losses(20, 10, 7) == (5, 2)  # 7*10/30 = 2.33 -> 2 light
    assert combat.proportional_losses(0, 5, 9) == (0, 5)


def test_victory_rules():
    # 9.3.1, 000:1252-1258
    v = combat.naval_victor
    assert v({"attacker": 6, "defender": 8}, {"attacker": 54, "defender": 23}, interception=False) == "attacker"
    assert v({"attacker": 3, "defender": 3}, {"attacker": 5, "defender": 5}, interception=False) == "defender"
    assert v({"attacker": 3, "defender": 3}, {"attacker": 5, "defender": 5}, interception=True) == "attacker"
    # a side sunk with fewer losses than the other: draw (port combats)
    assert v({"attacker": 8, "defender": 4}, {"attacker": 20, "defender": 0}, interception=False) is None


def test_simultaneous_fire_when_wind_is_equal():
    a = NavalStack(heavy=20, light=0, fleets=1)
    d = NavalStack(heavy=20, light=0, fleets=1)
    r = resolve(a, d, forced(naval__wind__attacker=3, naval__wind__defender=3,
                             naval__fire__attacker=6, naval__fire__defender=6))
    assert r.wind_gauge is None
    assert r.losses == {"attacker": 5, "defender": 5}  # both fire with 20 ships: 25% -> 5
    assert r.victor == "defender"  # equal losses by initiation: the phasing side loses (000:1254)
    assert r.political_points == {"defender": 1, "attacker": -1}


def test_port_combat_harbour_fires_first():
    # 9.2.3, 000:1242: harbour value as ships, unmodified number, then attacker, then defender
    a = NavalStack(heavy=40, light=0, fleets=2, british=True)
    d = NavalStack(heavy=10, light=0, fleets=1)
    r = resolve(a, d, forced(naval__harbour=6, naval__fire__attacker=1, naval__fire__defender=6),
                port=True, harbour_defence=8)
    assert r.wind_gauge == "attacker" and r.wind == {}
    assert r.harbour_losses == 2  # 25% of 8
    # attacker 38 ships, 1+1 -> 2 -> 10% -> 3; defender 7 left, 25% of 7 -> 1
    assert r.losses == {"attacker": 3, "defender": 3}
    assert "attacker" in r.retreats  # 9.4.2


def test_light_only_stack_must_retreat():
    # 9.2.1.2, 000:1224: no combat, no political points
    r = resolve(NavalStack(heavy=0, light=10, fleets=1), NavalStack(heavy=1, light=0, fleets=1), forced())
    assert r.outcome == "forced-retreat" and r.retreats == ("attacker",) and r.political_points == {}


def test_evasion():
    # 9.2.1.1, 000:1220: 1 or 2 evades
    a, d = NavalStack(heavy=5, light=0, fleets=1), NavalStack(heavy=5, light=0, fleets=1)
    assert resolve(a, d, forced(naval__evade=2), defender_evades=True).outcome == "evaded"
    r = resolve(a, d, forced(naval__evade=3, naval__wind__attacker=1, naval__wind__defender=2,
                             naval__fire__attacker=1, naval__fire__defender=1), defender_evades=True)
    assert r.outcome == "fought"
    with pytest.raises(BadData):
        resolve(a, d, forced(), defender_evades=True, interception=True)
