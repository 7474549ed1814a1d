"""Depots (10.3, 000:1302-1348), foraging (10.5.1, 000:1486-1520), depot supply (10.5.2, 000:1522-1534)
and besieged supply (10.5.5, 000:1578-1588) in the land phase."""

import pytest

from battlekit import corps, ctx, land_state, leader
from eiapbem.core.errors import IllegalAction
from eiapbem.rules import engine
from eiapbem.rules.land import supplyphase
from eiapbem.rules.land.combat import Attack
from eiapbem.rules.land.depots import CreateDepot, RemoveDepot
from eiapbem.rules.land.movement import MoveUnit
from eiapbem.rules.land.supplyphase import Forage
from eiapbem.rules.model import (
    POOL,
    CityControl,
    Corps,
    CorpsType,
    Date,
    Depot,
    Factors,
    Garrison,
    LandMove,
    LeaderStatus,
    Location,
    LocationKind,
    Phase,
    Slot,
    garrison_id,
)

C = ctx()
M = C.map


def _state(money=10, depots=3, **options):
    s = land_state(**options).with_power("FR", treasury=money)
    for i in range(1, depots + 1):
        s = s.with_unit(Depot(id=f"depot:FR:{i}", power="FR", location=POOL))
    return s


def _depot(s, did, area):
    return s.with_unit(Depot(id=did, power="FR", location=Location(LocationKind.AREA, area)))


def _do(s, action, power="FR", c=C):
    return engine.apply_action(s, power, action, c)


def _refused(s, action, match, power="FR"):
    with pytest.raises(IllegalAction, match=match):
        engine.apply_action(s, power, action, C)


# ----------------------------------------------------------------- depots (10.3)


def test_a_depot_in_an_own_city_costs_a_dollar_and_comes_from_the_counter_mix():
    s = _state(money=2, depots=1)
    out = _do(s, CreateDepot(area="paris"))  # 10.3.1 (000:1312)
    s = out.state
    assert s.units["depot:FR:1"].location == Location(LocationKind.AREA, "paris")
    assert s.powers["FR"].treasury == 1  # $1 each (000:1304)
    assert "FR places depot:FR:1 in paris for $1 (10.3.1)" in out.events[-1].text
    _refused(s, CreateDepot(area="paris"), r"paris already has the depot depot:FR:1; one depot per area")
    _refused(s, CreateDepot(area="nancy"), r"every depot counter of FR is on the map \(the counter mix")
    s = _do(s, RemoveDepot(depot="depot:FR:1")).state  # removed for nothing, and placed again for $1 (000:1304)
    assert s.units["depot:FR:1"].location == POOL and s.powers["FR"].treasury == 1
    s = _do(s, CreateDepot(area="nancy")).state
    assert s.powers["FR"].treasury == 0
    s = _do(s, RemoveDepot(depot="depot:FR:1")).state
    _refused(s, CreateDepot(area="nancy"), r"FR has \$0; a depot costs \$1")


def test_no_depot_among_unbesieged_enemies_unless_own_corps_are_there():
    s = corps(_state(), "corps:AU:I", "nancy", infantry=3)
    _refused(s, CreateDepot(area="nancy"), r"the enemy corps:AU:I is in nancy and no unbesieged corps of FR is")
    s = corps(s, "corps:FR:V", "nancy", infantry=3)
    assert _do(s, CreateDepot(area="nancy")).state.units["depot:FR:1"].location.site == "nancy"  # 000:1306


def test_a_chain_depot_lies_within_two_areas_of_an_older_depot_and_obeys_the_restrictions():
    # 10.3.3 (000:1324-1346): Palatinate (a neutral minor) next to Strasbourg's depot.
    s = _state()
    _refused(s, CreateDepot(area="palatinate"), r"no depot of FR's valid supply chain placed before this phase lies within two")
    s1 = _do(s, CreateDepot(area="strasbourg")).state  # placed this slot: no base yet ("before this turn")
    _refused(s1, CreateDepot(area="palatinate"), r"no depot of FR's valid supply chain placed before this phase")
    s = _depot(s, "depot:FR:9", "strasbourg")
    _refused(s, CreateDepot(area="palatinate"), r"palatinate is in the neutral minor palatinate; a depot goes there only at war")
    s = s.with_power("FR", minor_wars=s.powers["FR"].minor_wars.set("palatinate", Date(1805, 9)))
    _refused(s, CreateDepot(area="palatinate"), r"needs an unbesieged corps of FR \(not a Cossack, Freikorps or guerrilla\) "
             r"that has not moved or foraged")
    moved = corps(s, "corps:FR:V", "strasbourg", infantry=3)
    moved = _do(moved, MoveUnit(unit="corps:FR:V", path="palatinate")).state
    _refused(moved, CreateDepot(area="palatinate"), r"that has not moved or foraged this phase \(10\.3\.3, 000:1344\)")
    ok = corps(s, "corps:FR:V", "palatinate", infantry=3)
    out = _do(ok, CreateDepot(area="palatinate"))
    assert "(10.3.3)" in out.events[-1].text
    # Two areas away, with an unblocked area between (000:1332): Karlsruhe -> Stuttgart from Strasbourg.
    far = corps(s.with_power("FR", minor_wars=s.powers["FR"].minor_wars.set("wurttemberg", Date(1805, 9))),
                "corps:FR:V", "stuttgart", infantry=3)
    assert _do(far, CreateDepot(area="stuttgart")).state.units["depot:FR:1"].location.site == "stuttgart"
    # Three areas away is too far (000:1324): Ulm lies beyond Stuttgart.
    ulm = corps(far.without_unit("corps:FR:V"), "corps:FR:V", "ulm", infantry=3)
    _refused(ulm, CreateDepot(area="ulm"), r"no depot of FR's valid supply chain placed before this phase lies within two")


def test_a_garrisoned_depot_is_not_removed():
    s = _depot(_state(), "depot:FR:9", "nancy")
    loc = Location(LocationKind.AREA, "nancy")
    s = s.with_unit(Garrison(id=garrison_id("FR", loc), nation="FR", location=loc, factors=Factors(infantry=2)))
    _refused(s, RemoveDepot(depot="depot:FR:9"), r"depot:FR:9 has a garrison of 2 factors")
    _refused(s, RemoveDepot(depot="depot:FR:1"), r"depot:FR:1 is in the pool, not on the map")


# ----------------------------------------------------------------- foraging (10.5.1)


def _forced(label_value):
    return ctx(b"supply", label_value)


def test_foraging_uses_the_lowest_forage_value_passed_and_the_modifiers():
    # strasbourg -> nancy -> metz: 2 of 4 points (unused 2: -2), own territory (-1); September, no winter.
    s = corps(_state(), "corps:FR:V", "strasbourg", infantry=10)
    s = _do(s, MoveUnit(unit="corps:FR:V", path="nancy,metz")).state
    c = _forced({"forage/1805-09/corps:FR:V": 6})
    out = _do(s, Forage(unit="corps:FR:V"), c=c)
    fv = min(M.area("nancy").forage, M.area("metz").forage)  # not the start area (000:1496)
    loss = max(0, 6 - 2 - 1 - fv)
    assert out.state.units["corps:FR:V"].factors.infantry == 10 - loss
    assert f"random number 6 -2 unused movement points -1 own territory = 3 against forage value {fv}" in out.events[-1].text
    # nancy and metz have the same value: the report names the area the corps stands in, not one it only passed
    assert (M.area("nancy").forage, M.area("metz").forage) == (3, 3) and "forage value 3 (metz): " in out.events[-1].text
    s = corps(_state(), "corps:FR:V", "metz", infantry=10)
    s = _do(s, MoveUnit(unit="corps:FR:V", path="nancy,strasbourg")).state
    text = _do(s, Forage(unit="corps:FR:V"), c=c).events[-1].text
    assert M.area("strasbourg").forage == 4 and "forage value 3 (nancy, passed on its way): " in text
    _refused(out.state, MoveUnit(unit="corps:FR:V", path="reims"), r"corps:FR:V has foraged, so its movement is over")
    _refused(out.state, Forage(unit="corps:FR:V"), r"already foraged")


def test_forage_modifiers_forced_march_winter_other_corps_and_foreign_ground():
    s = corps(_state(), "corps:FR:V", "strasbourg", infantry=10)
    s = s.replace(date=Date(1806, 1))  # winter (13.1, 000:2358): +2 in the winter zone (000:1508)
    s = corps(s, "corps:FR:A", "karlsruhe", infantry=1)
    s = corps(s, "corps:FR:B", "karlsruhe", infantry=1)
    s = corps(s, "corps:FR:D", "karlsruhe", infantry=1)
    s = _do(s, MoveUnit(unit="corps:FR:V", path="nancy,metz,palatinate,karlsruhe", forced_march=True)).state
    mods = dict(supplyphase.forage_modifiers(s, C, "FR", s.units["corps:FR:V"]))
    # +2 for three other corps (at most +2, 000:1502), +1 forced march (000:1506), +2 winter; 4 of 5 points used
    # (-1, 000:1504); it left France, so no -1 for own territory (000:1510).
    assert mods == {"other corps in the area": 2, "unused movement points": -1, "forced march": 1, "winter": 2}
    roll = supplyphase.forage_roll(s, _forced({"forage/1806-01/corps:FR:V": 1}), "FR", s.units["corps:FR:V"])
    assert roll.total == 5 and roll.forage_value == min(M.area(a).forage for a in ("nancy", "metz", "palatinate", "karlsruhe"))


def test_a_corps_foraged_away_leaves_the_map_and_its_leader_too():
    s = corps(_state(), "corps:FR:V", "innsbruck", infantry=1)
    s = leader(s, "leader:FR:lannes", "corps:FR:V")
    c = _forced({"forage/1805-09/corps:FR:V": 6})
    s = _do(s, Forage(unit="corps:FR:V"), c=c).state  # 6 - 4 unused vs forage 1 of innsbruck: loses 1 (000:1496)
    assert s.units["corps:FR:V"].location == POOL
    assert s.leaders["leader:FR:lannes"].status is LeaderStatus.AVAILABLE  # 000:1520: back at a later reinforcement


# ----------------------------------------------------------------- depot supply (10.5.2)


def _end(s, c=C):
    return engine.end_slot(s, "FR", c)


def test_depot_supply_costs_half_a_dollar_on_the_depot_and_a_dollar_per_area_rounded_up():
    s = _depot(_state(money=10), "depot:FR:9", "strasbourg")  # a supply source: French city with a depot (000:1328)
    for cid in ("corps:FR:A", "corps:FR:B"):
        s = corps(s, cid, "strasbourg", infantry=5)
    s = corps(s, "corps:FR:C", "palatinate", infantry=5)  # one area away: $1
    # They used all their movement points (no -1 per unused point, 000:1504), so a 6 could cost them factors.
    moved = {"corps:FR:A": "strasbourg", "corps:FR:B": "strasbourg", "corps:FR:C": "palatinate"}
    for cid, area in moved.items():
        s = s.with_scratch(land_moves=s.land_moves.set(cid, LandMove(start="metz", passed=(area,), spent=4)))
    s = corps(s, "corps:FR:X", "metz", infantry=5)  # idle at home: no roll could cost it a factor
    assert supplyphase.worst_case_loss(s, C, "FR", s.units["corps:FR:X"]) == 0
    # A corps that could lose a factor by foraging takes depot supply; one that could not forages (Auto Forage).
    for cid in ("corps:FR:A", "corps:FR:B", "corps:FR:C"):
        assert supplyphase.worst_case_loss(s, C, "FR", s.units[cid]) > 0, cid
    out = _end(s)
    line = next(e.text for e in out.events if e.kind == "land.depot-supply")
    paid = [u for u in ("corps:FR:A", "corps:FR:B", "corps:FR:C") if u in line]
    assert paid == ["corps:FR:A", "corps:FR:B", "corps:FR:C"] and "corps:FR:X" not in line
    assert any(e.kind == "land.forage" and e.params["unit"] == "corps:FR:X" and e.params["lost"] == 0 for e in out.events)
    assert "FR pays $2 for the depot supply" in line  # 1/2 + 1/2 + 1 = $2 (000:1530)
    assert out.state.powers["FR"].treasury == 8


def test_depot_supply_doubles_in_winter_and_money_short_means_foraging():
    # 13.1.2 (000:2366): supply costs double in winter within the winter zone.
    s = _depot(_state(money=10), "depot:FR:9", "strasbourg").replace(date=Date(1806, 1))
    s = corps(s, "corps:FR:C", "palatinate", infantry=5)
    assert supplyphase.depot_cost_halves(s, C, "FR", s.units["corps:FR:C"]) == 4  # $1 doubled (000:1534)
    poor = s.with_power("FR", treasury=1)
    out = _end(poor, ctx(b"winter"))
    assert not any(e.kind == "land.depot-supply" for e in out.events)
    assert any(e.kind == "land.forage" and "corps:FR:C" in e.text for e in out.events)  # 000:1528
    assert out.state.powers["FR"].treasury == 1


def test_a_forced_march_or_a_corps_far_from_depots_must_forage():
    s = _depot(_state(money=10), "depot:FR:9", "strasbourg")
    s = corps(s, "corps:FR:V", "strasbourg", infantry=5)
    s = _do(s, MoveUnit(unit="corps:FR:V", path="nancy,metz,reims,troyes,dijon", forced_march=True)).state
    s = corps(s, "corps:FR:Far", "vienna", infantry=5).with_unit(Depot(id="depot:FR:8", power="FR", location=POOL))
    assert supplyphase.depot_cost_halves(s, C, "FR", s.units["corps:FR:Far"]) is None  # more than 3 areas (000:1530)
    out = _end(s)
    foraged = [e.params["unit"] for e in out.events if e.kind == "land.forage"]
    assert "corps:FR:V" in foraged and "corps:FR:Far" in foraged  # 000:1488


def test_supply_comes_before_combat():
    # 11.0 (000:1606): the first attack ends movement and supply is settled then, once.
    s = corps(_state(), "corps:FR:V", "strasbourg", infantry=12)
    s = corps(s, "corps:AU:I", "nancy", infantry=8)
    s = _do(s, MoveUnit(unit="corps:FR:V", path="nancy")).state
    out = _do(s, Attack(area="nancy"))
    kinds = [e.kind for e in out.events]
    assert kinds.index("land.forage") < kinds.index("battle.start")
    assert out.state.movement_over


# ----------------------------------------------------------------- besieged supply (10.5.5)


def test_besieged_forces_check_supply_on_the_city_supply_value():
    s = land_state().replace(slot=Slot(phase=Phase.LAND, step="turn", power="AU", actors=("AU",)))
    s = s.replace(city_control=s.city_control.set("nancy", CityControl(nation="AU", since=Date(1805, 8))))
    loc = Location(LocationKind.CITY, "nancy")
    s = s.with_unit(Garrison(id=garrison_id("AU", loc), nation="AU", location=loc, factors=Factors(infantry=4)))
    s = s.with_unit(Corps(id="corps:AU:I", nation="AU", corps_type=CorpsType.REGULAR, location=loc, factors=Factors(infantry=2)))
    s = corps(s, "corps:FR:V", "nancy", infantry=10)
    s = s.with_unit(s.units["corps:FR:V"].replace(besieging=True))
    city = M.area("nancy").city.supply  # 2 spires
    c = ctx(b"siege", {"besieged-supply/1805-09/garrison:AU:city:nancy": 6, "besieged-supply/1805-09/corps:AU:I": 1})
    out = engine.end_slot(s, "AU", c)
    # 6 factors in the city: +1 (000:1584); the garrison loses 6 + 1 - 2 = 5 > 4, the corps 1 + 1 - 2 = 0.
    st = out.state
    assert garrison_id("AU", loc) not in st.units
    assert st.units["corps:AU:I"].factors.infantry == 2
    assert city == 2
