"""The land phase's movement and the duty to attack (10.4, 11.0-11.1; 000:1354-1476, 000:1604-1610).

Scenes on the packaged map: France at war with Austria in September 1805,
France's land slot (``battlekit.land_state``).
"""

import pytest

from battlekit import corps, ctx, land_state, leader, play
from eiapbem.core.errors import IllegalAction
from eiapbem.rules import engine
from eiapbem.rules.land import movement
from eiapbem.rules.land.combat import Attack
from eiapbem.rules.land.movement import MoveUnit
from eiapbem.rules.model import (
    POOL,
    Access,
    AccessKind,
    CityControl,
    Corps,
    Date,
    Depot,
    Fleet,
    GameState,
    Garrison,
    Location,
    LocationKind,
    MinorCountry,
    MinorStatus,
    Phase,
    Ships,
    Slot,
    garrison_id,
)

C = ctx()


def _move(state, unit, path, power="FR", **kw):
    return engine.apply_action(state, power, MoveUnit(unit=unit, path=path, **kw), C).state


def _refused(state, unit, path, match, power="FR", **kw):
    with pytest.raises(IllegalAction, match=match):
        engine.apply_action(state, power, MoveUnit(unit=unit, path=path, **kw), C)


def _as(state, power):
    return state.replace(slot=Slot(phase=Phase.LAND, step="turn", power=power, actors=(power,)))


# ----------------------------------------------------------------- allowances (10.4.1, 000:1362-1370)


def test_movement_allowances_by_counter():
    s = land_state()
    s = corps(s, "corps:FR:III", "nancy", infantry=10)
    s = corps(s, "corps:FR:Cav-I", "nancy", cavalry=5)
    s = corps(s, "corps:AU:I", "vienna", infantry=10)
    s = corps(s, "corps:AU:Light-I", "vienna", cavalry=5)
    s = corps(s, "corps:RU:Cossack-1", "moscow", cossack=2, corps_type="cossack")
    s = corps(s, "corps:SP:Guerrilla-1", "madrid", guerrilla=1, corps_type="guerrilla")
    s = corps(s, "corps:holland:1", "amsterdam", infantry=5)
    a = lambda cid, **kw: movement.allowance(s, C, s.units[cid], **kw)  # noqa: E731
    assert a("corps:FR:III") == 4  # French corps (000:1364)
    assert a("corps:FR:Cav-I") == 5  # cavalry symbol
    assert a("corps:AU:Light-I") == 5  # Austrian light infantry (000:1364)
    assert a("corps:AU:I") == 3  # all others
    assert a("corps:RU:Cossack-1") == 5
    assert a("corps:SP:Guerrilla-1") == 1  # one area
    assert a("corps:FR:III", forced_march=True) == 5  # forced march +1 (000:1372)
    assert a("corps:holland:1") == 3  # a neutral Holland: "all other corps"
    s = s.with_minor("holland", MinorCountry(status=MinorStatus.FREE_STATE, controller="FR"))
    assert movement.allowance(s, C, s.units["corps:holland:1"]) == 4  # a French free state (000:1368)


# ----------------------------------------------------------------- costs (10.4.1, 000:1378-1388)


def test_terrain_costs_one_for_clear_and_two_for_mountain():
    s = corps(land_state(), "corps:FR:V", "strasbourg", infantry=10)
    after = _move(s, "corps:FR:V", "nancy,metz")  # clear, clear (000:1380)
    assert after.units["corps:FR:V"].location == Location(LocationKind.AREA, "metz")
    assert after.land_moves["corps:FR:V"].spent == 2
    assert after.land_moves["corps:FR:V"].passed == ("metz", "nancy")
    after = _move(s, "corps:FR:V", "bern")  # mountain (000:1382)
    assert after.land_moves["corps:FR:V"].spent == 2


def test_the_river_costs_only_into_an_unbesieged_enemy_corps_and_costs_add_up():
    # 10.4.1's example (000:1388): across a river into a mountain area holding an enemy corps: 1 + 2 = 3.
    s = corps(land_state(), "corps:FR:I", "lyon", infantry=10)  # lyon-grenoble is a river border
    assert C.map.is_river("lyon", "grenoble") and C.map.area("grenoble").terrain == "mountain"
    assert _move(s, "corps:FR:I", "grenoble").land_moves["corps:FR:I"].spent == 2  # no enemy: no river cost (000:1384)
    s2 = corps(s, "corps:AU:I", "grenoble", infantry=5)
    after = _move(s2, "corps:FR:I", "grenoble")
    assert after.land_moves["corps:FR:I"].spent == 3
    assert after.land_moves["corps:FR:I"].halted and after.land_moves["corps:FR:I"].across_river
    # An Austrian corps besieged in the city does not make the river cost more (000:1384 "unbesieged").
    s3 = s.with_unit(Corps(id="corps:AU:I", nation="AU", corps_type=s2.units["corps:AU:I"].corps_type,
                           location=Location(LocationKind.CITY, "grenoble"), factors=s2.units["corps:AU:I"].factors))
    s3 = s3.replace(city_control=s3.city_control.set("grenoble", CityControl(nation="AU", since=Date(1805, 8))))
    s3 = corps(s3, "corps:FR:II", "grenoble", infantry=5)
    s3 = s3.with_unit(s3.units["corps:FR:II"].replace(besieging=True))
    assert _move(s3, "corps:FR:I", "grenoble").land_moves["corps:FR:I"].spent == 2


def test_a_crossing_arrow_costs_one_more_and_is_closed_by_an_enemy_fleet():
    s = corps(land_state(), "corps:FR:II", "calabria", infantry=5)
    after = _move(s, "corps:FR:II", "messina")  # strait-of-messina: mountain 2 + arrow 1 (000:1386)
    assert after.land_moves["corps:FR:II"].spent == 3 and after.land_moves["corps:FR:II"].across_river
    s = s.with_war("FR", "GB", Date(1805, 9), ("GB",))
    s = s.with_unit(Fleet(id="fleet:GB:1", nation="GB", location=Location(LocationKind.SEA, "tyrrhenian-sea"), ships=Ships(heavy=5)))
    _refused(s, "corps:FR:II", "messina", r"an enemy fleet is in tyrrhenian-sea, so corps:FR:II cannot use the crossing arrow")


def test_no_area_may_be_entered_that_costs_more_than_the_points_left():
    s = corps(land_state(), "corps:AU:I", "vienna", infantry=5)
    s = _as(s, "AU")
    path = ",".join(("vienna",) + _path_of_cost(s, "vienna", 4))
    _refused(s, "corps:AU:I", path, r"corps:AU:I has \d movement points? left at \S+ but entering \S+ costs \d \(10\.4\.2, 000:1402\)",
             power="AU")


def _path_of_cost(s, start, n):
    """A path out of ``start`` of clear areas with total cost ``n`` (no enemies, own territory)."""
    m = C.map
    path, here = [], start
    while len(path) < n:
        nxt = next(b.to for b in m.area(here).neighbours if m.area(b.to).terrain == "clear" and b.to not in path
                   and b.to != start and m.area(b.to).nation == m.area(start).nation)
        path.append(nxt)
        here = nxt
    return tuple(path)


def test_forced_march_adds_one_point_but_not_for_cavalry():
    s = corps(land_state(), "corps:FR:V", "strasbourg", infantry=10)
    s = corps(s, "corps:FR:Cav-I", "strasbourg", cavalry=5)
    # nancy, metz, reims, troyes, dijon: five clear areas, one point each (000:1380).
    path = "nancy,metz,reims,troyes,dijon"
    _refused(s, "corps:FR:V", path, r"corps:FR:V has 0 movement points left at troyes but entering dijon costs 1 .*or forced march")
    rec = _move(s, "corps:FR:V", path, forced_march=True).land_moves["corps:FR:V"]
    assert rec.forced_march and rec.spent == 5
    _refused(s, "corps:FR:Cav-I", "nancy", r"cavalry counter, which may not forced march \(10\.4\.1, 000:1374\)", forced_march=True)


# ----------------------------------------------------------------- stopping (10.4.2, 000:1398-1404)


def test_a_corps_stops_among_enemy_corps_but_cossacks_need_not():
    s = corps(land_state(), "corps:FR:V", "strasbourg", infantry=10)
    s = corps(s, "corps:AU:I", "nancy", infantry=5)
    _refused(s, "corps:FR:V", "nancy,metz", r"corps:FR:V must cease movement in nancy because the enemy corps corps:AU:I is in nancy")
    after = _move(s, "corps:FR:V", "nancy")
    assert after.land_moves["corps:FR:V"].halted
    _refused(after, "corps:FR:V", "metz", r"corps:FR:V has ended its movement in nancy \(it stopped among enemy forces")
    # A Russian Cossack (Russia at war with France) rides through (000:1400).
    r = s.with_war("FR", "RU", Date(1805, 9), ("RU",)).without_unit("corps:AU:I")
    r = corps(r, "corps:FR:III", "metz", infantry=5)
    r = corps(r, "corps:RU:Cossack-1", "nancy", cossack=2, corps_type="cossack")
    r = _as(r, "RU")
    after = _move(r, "corps:RU:Cossack-1", "metz,luxembourg", power="RU")
    assert after.units["corps:RU:Cossack-1"].location.site == "luxembourg"


def test_only_cossacks_or_a_depot_garrison_decide_whether_a_corps_stops():
    s = corps(land_state(), "corps:FR:V", "strasbourg", infantry=10)
    s = corps(s, "corps:AU:Freikorps", "nancy", freikorps=2, corps_type="freikorps")
    assert _move(s, "corps:FR:V", "nancy,metz").units["corps:FR:V"].location.site == "metz"  # 000:1398, 000:1476
    loc = Location(LocationKind.AREA, "nancy")
    g = s.with_unit(Depot(id="depot:AU:1", power="AU", location=loc))
    g = g.with_unit(Garrison(id=garrison_id("AU", loc), nation="AU", location=loc, factors=corps(s, "corps:AU:X", "metz", infantry=2).units["corps:AU:X"].factors))
    _refused(g, "corps:FR:V", "nancy,metz", r"because the enemy depot garrison garrison:AU:area:nancy is in nancy")


def test_thirty_counters_at_most_in_an_area():
    s = corps(land_state(), "corps:FR:V", "strasbourg", infantry=10)
    for i in range(30):
        s = corps(s, f"corps:FR:X{i}", "nancy", infantry=1)
    _refused(s, "corps:FR:V", "nancy", r"nancy already holds 30 counters outside its city; 30 is the limit \(10\.4\.2, 000:1404\)")
    assert _move(s, "corps:FR:V", "nancy,metz").units["corps:FR:V"].location.site == "metz"  # passing through is fine


def test_a_unit_moves_in_legs_within_its_allowance():
    s = corps(land_state(), "corps:FR:V", "strasbourg", infantry=10)
    s = _move(s, "corps:FR:V", "nancy")
    s = _move(s, "corps:FR:V", "metz,reims")
    assert s.land_moves["corps:FR:V"].spent == 3 and s.land_moves["corps:FR:V"].start == "strasbourg"
    _refused(s, "corps:FR:V", "troyes,dijon", r"has 0 movement points left at troyes but entering dijon costs 1")


def test_guerrillas_move_one_area_whatever_the_terrain():
    s = _as(land_state(), "SP").with_war("SP", "FR", Date(1805, 9), ("SP",))
    s = corps(s, "corps:SP:Guerrilla-1", "madrid", guerrilla=1, corps_type="guerrilla")
    first = C.map.land_neighbours("madrid")[0]
    after = _move(s, "corps:SP:Guerrilla-1", first, power="SP")
    assert after.units["corps:SP:Guerrilla-1"].location.site == first
    _refused(after, "corps:SP:Guerrilla-1", "madrid", r"guerrilla: it moves one area a phase", power="SP")


def test_major_power_territory_needs_access_or_war():
    s = corps(land_state(), "corps:FR:V", "strasbourg", infantry=10)
    # Palatinate is a minor (open, 000:2546); Prussia is neither at war with France nor grants access (000:2550).
    s = corps(s, "corps:FR:X", "hanover", infantry=5)
    pr = next(b.to for b in C.map.area("hanover").neighbours if C.map.area(b.to).nation == "PR")
    _refused(s, "corps:FR:X", pr, rf"{pr} is PR's territory and FR has neither access there nor a war with PR \(13\.4\.1, 000:2550\)")
    ok = s.with_power("PR", access=s.powers["PR"].access.set("FR", Access(kind=AccessKind.VOLUNTARY)))
    assert _move(ok, "corps:FR:X", pr).units["corps:FR:X"].location.site == pr


def test_moving_into_and_out_of_a_city_costs_nothing_and_leaders_go_with_their_corps():
    s = corps(land_state(), "corps:FR:V", "strasbourg", infantry=10)
    s = leader(s, "leader:FR:lannes", "corps:FR:V")
    s = _move(s, "corps:FR:V", "strasbourg", city=True)  # 10.4.4 (000:1446): no points
    assert s.units["corps:FR:V"].location == Location(LocationKind.CITY, "strasbourg")
    s = _move(s, "corps:FR:V", "strasbourg,nancy", city=True)
    assert s.units["corps:FR:V"].location == Location(LocationKind.CITY, "nancy")
    assert s.land_moves["corps:FR:V"].spent == 1
    assert s.leaders["leader:FR:lannes"].attached_to == "corps:FR:V"  # the leader is where its corps is
    s = corps(s, "corps:FR:IV", "strasbourg", infantry=3)
    _refused(s, "corps:FR:IV", "karlsruhe", r"the city of karlsruhe is not held by FR or an ally", city=True)


def test_another_powers_unit_cannot_be_moved():
    s = corps(land_state(), "corps:AU:I", "vienna", infantry=5)
    _refused(s, "corps:AU:I", "brunn", r"corps:AU:I is AU's, not FR's, so FR cannot move it")
    with pytest.raises(IllegalAction, match="not a list of areas separated by commas"):
        engine.apply_action(corps(s, "corps:FR:V", "strasbourg", infantry=1), "FR", MoveUnit(unit="corps:FR:V", path="Nancy;metz"), C)


# ----------------------------------------------------------------- combat (11.0-11.1, 000:1604-1616)


def _contact():
    s = corps(land_state(), "corps:FR:V", "strasbourg", infantry=12, cavalry=2)
    s = corps(s, "corps:AU:I", "nancy", infantry=8)
    return _move(s, "corps:FR:V", "nancy")


def test_the_phasing_power_must_attack_where_it_shares_an_area_with_enemy_corps():
    s = _contact()
    assert engine.unmet_obligations(s, "FR", C) == ("attack the enemy in nancy (11.1, 000:1610): 'eiapbem land attack --area nancy'",)
    with pytest.raises(IllegalAction, match="FR cannot end the phase yet: attack the enemy in nancy"):
        engine.end_slot(s, "FR", C)


def test_an_attack_starts_the_field_combat_ends_movement_and_the_slot_ends_once_it_is_fought():
    s = _contact()
    s = corps(s, "corps:FR:III", "metz", infantry=5)
    out = engine.apply_action(s, "FR", Attack(area="nancy"), C)
    s = out.state
    (bid,) = [k for k in s.battles if k.startswith("battle:1805-09:nancy:")]
    battle = s.battles[bid]
    assert battle.attacker.units == ("corps:FR:V",) and battle.defender.units == ("corps:AU:I",)
    assert battle.attacker.power == "FR" and not battle.river_crossing
    assert s.movement_over
    with pytest.raises(IllegalAction, match="cannot end the phase yet: answer the pending decision"):
        engine.end_slot(s, "FR", C)
    s = play(s, bid, C)
    assert s.battles[bid].finished
    assert engine.unmet_obligations(s, "FR", C) == ()
    with pytest.raises(IllegalAction, match=r"FR has begun its combats, so its movement is over \(11\.0, 000:1606\)"):
        engine.apply_action(s, "FR", MoveUnit(unit="corps:FR:III", path="nancy"), C)
    with pytest.raises(IllegalAction, match="already fought in nancy this phase"):
        engine.apply_action(s, "FR", Attack(area="nancy"), C)
    after = engine.end_slot(s, "FR", C).state
    assert after.slot.power == "RU" and after.land_moves == {} and not after.movement_over


def test_an_attack_across_a_river_is_a_river_crossing_combat():
    s = corps(land_state(), "corps:FR:I", "lyon", infantry=10)
    s = corps(s, "corps:AU:I", "grenoble", infantry=8)
    s = _move(s, "corps:FR:I", "grenoble")
    s = engine.apply_action(s, "FR", Attack(area="grenoble"), C).state
    assert next(iter(s.battles.values())).river_crossing  # 000:1714


def test_nothing_to_attack_is_refused_with_a_reason():
    s = corps(_contact(), "corps:FR:III", "metz", infantry=5)
    with pytest.raises(IllegalAction, match="there are no enemy corps or depot garrisons outside the city of metz"):
        engine.apply_action(s, "FR", Attack(area="metz"), C)
    with pytest.raises(IllegalAction, match="FR has no corps or depot garrison outside the city of vienna"):
        engine.apply_action(corps(s, "corps:AU:II", "vienna", infantry=1), "FR", Attack(area="vienna"), C)


def test_the_land_phase_is_implemented_and_the_state_round_trips():
    assert engine.phase_implemented(Phase.LAND)
    s = _contact()
    assert GameState.decode(s.encode()) == s


# ----------------------------------------------------------------- enemy depots (10.4.6, 000:1454-1462)


def _au_depot(s, area, garrison=0):
    loc = Location(LocationKind.AREA, area)
    s = s.with_unit(Depot(id="depot:AU:1", power="AU", location=loc))
    if garrison:
        s = s.with_unit(Garrison(id=garrison_id("AU", loc), nation="AU", location=loc,
                                 factors=s.units["corps:FR:V"].factors.replace(infantry=garrison)))
    return s


def test_an_ungarrisoned_enemy_depot_is_destroyed_by_a_unit_passing_through():
    s = _au_depot(corps(land_state(), "corps:FR:V", "strasbourg", infantry=10), "nancy")
    out = engine.apply_action(s, "FR", MoveUnit(unit="corps:FR:V", path="nancy,metz"), C)
    assert out.state.units["depot:AU:1"].location.kind is LocationKind.POOL
    assert out.state.units["corps:FR:V"].location.site == "metz"
    assert "it destroys the enemy depot depot:AU:1 (10.4.6)" in out.events[-1].text


def test_living_off_an_enemy_depot_ends_movement_and_counts_as_foraged():
    s = _au_depot(corps(land_state(), "corps:FR:V", "strasbourg", infantry=10), "nancy")
    s = _move(s, "corps:FR:V", "nancy", use_depot=True)
    rec = s.land_moves["corps:FR:V"]
    assert rec.foraged and rec.halted and s.units["depot:AU:1"].location.kind is LocationKind.POOL
    _refused(s, "corps:FR:V", "metz", r"corps:FR:V has foraged, so its movement is over")
    after = engine.end_slot(s, "FR", C)
    assert not any(e.kind == "land.forage" and e.params.get("unit") == "corps:FR:V" for e in after.events)
    s2 = corps(land_state(), "corps:FR:V", "strasbourg", infantry=10)
    _refused(s2, "corps:FR:V", "nancy", r"there is no ungarrisoned enemy depot in nancy for corps:FR:V to live off", use_depot=True)


def test_a_garrisoned_enemy_depot_stops_the_corps_and_must_be_attacked():
    s = _au_depot(corps(land_state(), "corps:FR:V", "strasbourg", infantry=10), "nancy", garrison=2)
    _refused(s, "corps:FR:V", "nancy,metz", r"because the enemy depot garrison garrison:AU:area:nancy is in nancy")
    s = _move(s, "corps:FR:V", "nancy")
    assert s.units["depot:AU:1"].location.site == "nancy"  # 000:1462: halt and fight the garrison
    assert engine.unmet_obligations(s, "FR", C) == ("attack the enemy in nancy (11.1, 000:1610): 'eiapbem land attack --area nancy'",)
    s = engine.apply_action(s, "FR", Attack(area="nancy"), C).state
    battle = next(iter(s.battles.values()))
    assert battle.defender.units == ("garrison:AU:area:nancy",) and battle.kind == "trivial"  # 11.3 (000:1934)


# ----------------------------------------------------------------- garrisons on the move (10.4.3, 000:1408-1442)


def _transfer(s, source, target, power="FR", **f):
    from eiapbem.rules.land.garrisons import TransferGarrison

    return engine.apply_action(s, power, TransferGarrison(source=source, target=target, **f), C)


def test_a_corps_detaches_a_garrison_and_absorbs_it_back_without_movement_points():
    s = _move(corps(land_state(), "corps:FR:V", "strasbourg", infantry=10, cavalry=2), "corps:FR:V", "nancy")
    s = _transfer(s, "corps:FR:V", "garrison:FR:city:nancy", infantry=3).state
    assert s.units["garrison:FR:city:nancy"].factors.infantry == 3 and s.units["corps:FR:V"].factors.infantry == 7
    assert s.land_moves["corps:FR:V"].spent == 1  # no movement cost (000:1410)
    s = _transfer(s, "garrison:FR:city:nancy", "corps:FR:V", infantry=3).state
    assert "garrison:FR:city:nancy" not in s.units and s.units["corps:FR:V"].factors.infantry == 10


def test_detachment_limits_of_10_4_3():
    s = corps(land_state(), "corps:FR:V", "nancy", infantry=2)
    with pytest.raises(IllegalAction, match=r"would empty corps:FR:V; a corps keeps at least one factor \(10\.4\.3, 000:1422\)"):
        _transfer(s, "corps:FR:V", "garrison:FR:city:nancy", infantry=2)
    with pytest.raises(IllegalAction, match=r"garrisons hold only infantry and militia, not cavalry"):
        _transfer(corps(s, "corps:FR:C", "nancy", cavalry=3), "corps:FR:C", "garrison:FR:city:nancy", cavalry=1)
    with pytest.raises(IllegalAction, match=r"corps:FR:Art is an artillery corps"):
        _transfer(corps(s, "corps:FR:Art", "nancy", infantry=3), "corps:FR:Art", "garrison:FR:city:nancy", infantry=1)
    with pytest.raises(IllegalAction, match=r"factors go between a corps and a garrison"):
        _transfer(corps(s, "corps:FR:III", "nancy", infantry=3), "corps:FR:III", "corps:FR:V", infantry=1)
    enemy = corps(corps(s, "corps:FR:III", "nancy", infantry=3), "corps:AU:I", "nancy", infantry=3)
    with pytest.raises(IllegalAction, match=r"an enemy corps stands outside the city in nancy"):
        _transfer(enemy, "corps:FR:III", "garrison:FR:city:nancy", infantry=1)  # 000:1418
    big = corps(land_state(), "corps:FR:V", "nancy", infantry=15).with_unit(Depot(id="depot:FR:1", power="FR",
                                                                                  location=Location(LocationKind.AREA, "nancy")))
    with pytest.raises(IllegalAction, match=r"a depot garrison holds at most 10 factors \(10\.4\.3, 000:1438\)"):
        _transfer(big, "corps:FR:V", "garrison:FR:area:nancy", infantry=11)
    assert _transfer(big, "corps:FR:V", "garrison:FR:area:nancy", infantry=10).state.units["garrison:FR:area:nancy"].factors.infantry == 10
    with pytest.raises(IllegalAction, match=r"the city of karlsruhe is not held by FR"):
        _transfer(corps(land_state(), "corps:FR:V", "karlsruhe", infantry=5), "corps:FR:V", "garrison:FR:city:karlsruhe", infantry=1)


# ----------------------------------------------------------------- conquest of minors (10.7, 000:1598-1602; 13.3.1)


def _bavaria_at_war():
    s = land_state().with_minor("bavaria", MinorCountry(status=MinorStatus.NEUTRAL))
    s = s.with_power("FR", minor_wars=s.powers["FR"].minor_wars.set("bavaria", Date(1805, 8)))
    s = corps(s, "corps:FR:V", "munich", infantry=10)
    return corps(s, "corps:bavaria:1", "ulm", infantry=4)


def test_a_minor_capital_held_through_the_next_land_phase_is_conquered():
    s = _bavaria_at_war()
    assert C.map.province("bavaria").capital == "munich"
    out = engine.end_slot(s, "FR", C)  # 13.5.1 (000:2562): a corps in the area holds the ungarrisoned capital
    s = out.state
    assert s.city_control["munich"] == CityControl(nation="FR", since=Date(1805, 9))
    assert any(e.kind == "land.occupation" for e in out.events)
    last = s.replace(slot=Slot(phase=Phase.LAND, step="turn", power="SP", actors=("SP",)))
    s = engine.end_slot(last, "SP", C).state  # the end of September's land phase: not a month yet
    assert s.minors["bavaria"].status is MinorStatus.NEUTRAL
    october = last.replace(date=Date(1805, 10))
    out = engine.end_slot(october, "SP", C)  # 000:1602: held from FR's September slot to the end of October's phase
    s = out.state
    assert s.minors["bavaria"] == MinorCountry(status=MinorStatus.CONQUERED, controller="FR")
    assert s.powers["FR"].political_status == october.powers["FR"].political_status + 1  # +1 per district (000:2530)
    assert s.units["corps:bavaria:1"].location.kind is LocationKind.POOL  # its forces leave the map (000:2528)
    assert "bavaria" not in s.powers["FR"].minor_wars and "munich" not in s.city_control


def test_an_interrupted_occupation_does_not_conquer():
    s = engine.end_slot(_bavaria_at_war(), "FR", C).state
    s = s.without_unit("corps:FR:V")  # say the corps was beaten in another power's slot
    s = s.replace(slot=Slot(phase=Phase.LAND, step="turn", power="SP", actors=("SP",)), date=Date(1805, 10))
    out = engine.end_slot(s, "SP", C)
    assert "munich" not in out.state.city_control and out.state.minors["bavaria"].status is MinorStatus.NEUTRAL
    assert any(e.kind == "land.occupation-ends" for e in out.events)


def test_a_garrisoned_capital_is_not_occupied_by_a_corps_outside():
    s = _bavaria_at_war()
    loc = Location(LocationKind.CITY, "munich")
    s = s.with_unit(Garrison(id=garrison_id("bavaria", loc), nation="bavaria", location=loc,
                             factors=s.units["corps:FR:V"].factors.replace(infantry=2)))
    assert "munich" not in engine.end_slot(s, "FR", C).state.city_control


# ----------------------------------------------------------------- sieges in play (10.4.7, 11.1.1, 11.4)


def _au_city(s, area="nancy", infantry=3):
    s = s.replace(city_control=s.city_control.set(area, CityControl(nation="AU", since=Date(1805, 8))))
    loc = Location(LocationKind.CITY, area)
    return s.with_unit(Garrison(id=garrison_id("AU", loc), nation="AU", location=loc,
                                factors=corps(s, "corps:AU:Z", "vienna", infantry=infantry).units["corps:AU:Z"].factors))


def test_a_corps_passes_an_enemy_held_city_or_stops_to_besiege_it():
    from eiapbem.rules.land.sieging import Besiege

    s = _au_city(corps(land_state(), "corps:FR:V", "strasbourg", infantry=10))
    assert _move(s, "corps:FR:V", "nancy,metz").units["corps:FR:V"].location.site == "metz"  # 000:1472: may continue
    s = _move(s, "corps:FR:V", "nancy")
    s = engine.apply_action(s, "FR", Besiege(unit="corps:FR:V"), C).state
    assert s.units["corps:FR:V"].besieging and s.land_moves["corps:FR:V"].halted
    from eiapbem.rules import control

    assert control.is_besieged(s, C.map, "nancy")
    with pytest.raises(IllegalAction, match="no enemy forces hold a city in metz"):
        engine.apply_action(corps(s, "corps:FR:III", "metz", infantry=3), "FR", Besiege(unit="corps:FR:III"), C)


def test_an_assault_attempt_comes_after_the_field_combats_and_once_a_phase():
    from eiapbem.rules.land.sieging import Assault, Besiege

    s = _au_city(corps(land_state(), "corps:FR:V", "nancy", infantry=10))
    s = engine.apply_action(s, "FR", Besiege(unit="corps:FR:V"), C).state
    s = corps(s, "corps:FR:III", "metz", infantry=5)
    s = corps(s, "corps:AU:I", "metz", infantry=2)
    with pytest.raises(IllegalAction, match=r"fight the field combat in metz first: siege combats come after .*\(11\.1\.1, 000:1614\)"):
        engine.apply_action(s, "FR", Assault(area="nancy"), C)
    s = s.without_unit("corps:AU:I")
    c = ctx(b"siege", {"siege/1805-09.nancy.1/attempt": 2})
    out = engine.apply_action(s, "FR", Assault(area="nancy"), c)  # 2 - siege value: no result
    s = out.state
    assert s.movement_over and list(s.sieges) == ["1805-09.nancy.1"]
    with pytest.raises(IllegalAction, match=r"already made its assault attempt on nancy this phase"):
        engine.apply_action(s, "FR", Assault(area="nancy"), C)


def test_loaned_corps_move_in_the_borrowers_slot_and_guerrillas_stay_in_spain():
    # 10.2 (000:1300): allies who loaned corps move them in the borrower's sequence (7.6).
    s = land_state().with_alliance("FR", "SP", Date(1805, 1))
    s = corps(s, "corps:SP:I", "bayonne" if C.map.is_area("bayonne") else "pau", infantry=5)
    s = s.with_unit(s.units["corps:SP:I"].replace(loaned_to="FR"))
    here = s.units["corps:SP:I"].location.site
    step = next(b.to for b in C.map.area(here).neighbours if C.map.area(b.to).nation == "FR")
    assert _move(s, "corps:SP:I", step).units["corps:SP:I"].location.site == step
    g = _as(land_state().with_war("SP", "FR", Date(1805, 9), ("SP",)), "SP")
    border = next(a for a in C.map.areas_of_nation("SP") if any(C.map.area(n).nation == "FR" for n in C.map.land_neighbours(a)))
    g = corps(g, "corps:SP:Guerrilla-1", border, guerrilla=1, corps_type="guerrilla")
    outside = next(n for n in C.map.land_neighbours(border) if C.map.area(n).nation == "FR")
    _refused(g, "corps:SP:Guerrilla-1", outside, r"a guerrilla and never leaves Spain's home nation \(13\.2\.1, 000:2402\)", power="SP")


def test_after_its_combat_a_unit_that_fought_may_enter_the_friendly_city_of_its_area():
    # 11.1.1 (000:1614): "the phasing player's forces may immediately occupy ... any friendly-controlled ... city".
    s = corps(land_state(), "corps:FR:V", "metz", infantry=14)
    s = corps(s, "corps:AU:I", "nancy", infantry=2)
    s = corps(s, "corps:FR:III", "metz", infantry=3)
    s = _move(s, "corps:FR:V", "nancy")
    s = engine.apply_action(s, "FR", Attack(area="nancy"), C).state
    s = play(s, next(iter(s.battles)), C)
    assert next(iter(s.battles.values())).finished
    s = _move(s, "corps:FR:V", "nancy", city=True)
    assert s.units["corps:FR:V"].location == Location(LocationKind.CITY, "nancy")
    _refused(s, "corps:FR:III", "metz", r"FR has begun its combats, so its movement is over", city=True)


# ----------------------------------------------------------------- Turkish feudal corps (13.2.3, 000:2444-2458)


def test_a_feudal_corps_stands_down_and_comes_back_in_its_province_unable_to_move_that_month():
    from eiapbem.rules.land.feudal import ReturnFeudal, StandDown

    s = _as(land_state(), "TU")
    s = corps(s, "corps:TU:Feudal-albania", "janina", feudal_infantry=6, corps_type="feudal")
    s = engine.apply_action(s, "TU", StandDown(unit="corps:TU:Feudal-albania"), C).state
    u = s.units["corps:TU:Feudal-albania"]
    assert u.location.kind is LocationKind.POOL and u.factors.feudal_infantry == 6  # keeps its factors (000:2450)
    with pytest.raises(IllegalAction, match=r"comes back only in a city area of its home province albania"):
        engine.apply_action(s, "TU", ReturnFeudal(unit="corps:TU:Feudal-albania", area="belgrade"), C)
    s = engine.apply_action(s, "TU", ReturnFeudal(unit="corps:TU:Feudal-albania", area="scutari"), C).state
    assert s.units["corps:TU:Feudal-albania"].location == Location(LocationKind.AREA, "scutari")
    _refused(s, "corps:TU:Feudal-albania", "janina", r"came back on the map this month and may not move \(13\.2\.3, 000:2456\)",
             power="TU")
    out = engine.end_slot(s, "TU", C)  # no supply that month (000:2456)
    assert not any(e.params.get("unit") == "corps:TU:Feudal-albania" for e in out.events if e.kind == "land.forage")
    blocked = corps(s.with_war("TU", "RU", Date(1805, 9), ("RU",)), "corps:RU:I", "janina", infantry=5)
    blocked = blocked.with_unit(blocked.units["corps:TU:Feudal-albania"].replace(location=POOL))
    with pytest.raises(IllegalAction, match=r"the enemy corps:RU:I is in albania"):
        engine.apply_action(blocked, "TU", ReturnFeudal(unit="corps:TU:Feudal-albania", area="scutari"), C)
