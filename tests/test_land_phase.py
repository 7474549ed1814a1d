"""The land phase's movement and the duty to attack (10.4, 11.0-11.1; 000:1354-1476, 000:1604-1610).

Scenes on the packaged map: France at war with Austria in September 1805,
France's land slot (``battlekit.land_state``).
"""

import pytest

from battlekit import corps, ctx, land_state, leader, play
from eiapbem.errors import IllegalAction
from eiapbem.rules import engine
from eiapbem.rules.land import movement
from eiapbem.rules.land.combat import Attack
from eiapbem.rules.land.movement import MoveUnit
from eiapbem.rules.model import (
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
    _refused(after, "corps:FR:V", "metz", r"had to stop in nancy among enemy forces")
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
