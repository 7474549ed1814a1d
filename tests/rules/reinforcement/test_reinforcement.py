"""The reinforcement phase (7.0-7.6): every rule, through ``engine.apply_action``.

States come from the classic 1805 scenario with small edits; each test cites
the manual line it checks.
"""

from __future__ import annotations

from collections import deque

import pytest

from eiapbem.data.context import rules_context
from eiapbem.core.errors import IllegalAction
from eiapbem.rules import control, engine, supply
from eiapbem.core.dice import Dice
from eiapbem.rules.model import (
    CityControl,
    Date,
    Depot,
    Factors,
    GameState,
    Garrison,
    LeaderStatus,
    Location,
    LocationKind,
    MinorStatus,
    Phase,
    Ships,
    Slot,
    garrison_id,
)
from eiapbem.rules.model.powers import BuildOrder
from eiapbem.rules.model.slot import TURN
from eiapbem.rules.reinforcement import army, leaders, minors, naval, orders
from eiapbem.rules.sequence import advance, choices_from_state, phase_order

MARCH = Date(1805, 3)


@pytest.fixture(scope="module")
def ctx():
    return rules_context(Dice(b"reinforcement-tests"))


def slot(state, power, date=MARCH):
    return state.replace(date=date, slot=Slot(Phase.REINFORCEMENT, TURN, power, (power,)))


def at(kind, site):
    return Location(LocationKind(kind), site)


def put(state, uid, where, **changes):
    return state.with_unit(state.units[uid].replace(location=where, **changes))


def build(state, nation, item, count, arrives=MARCH, port=None, owner=None):
    o = BuildOrder(nation=nation, item=item, count=count, arrives=arrives, port=port)
    p = owner or nation
    return state.with_power(p, builds=state.powers[p].builds.set(o.key, o))


def act(state, power, action, ctx):
    return engine.apply_action(state, power, action, ctx).state


def refused(state, power, action, ctx, match):
    with pytest.raises(IllegalAction, match=match):
        engine.apply_action(state, power, action, ctx)


def bought(state, uid, until=Date(1805, 6)):
    return state.with_unit(state.units[uid].replace(placeable_until=until))


def depot(state, power, n, area, kind="area"):
    return state.with_unit(Depot(id=f"depot:{power}:{n}", power=power, location=at(kind, area)))


# ----------------------------------------------------------------- registration


def test_every_action_has_kind_command_button_and_help():
    kinds = engine.action_kinds(Phase.REINFORCEMENT)
    mine = [s for k, s in kinds.items() if k.startswith("reinforcement.")]
    assert len(mine) == 18
    for s in mine:
        assert s.cls.KIND == "reinforcement." + s.cls.KIND.split(".")[1]
        assert s.cls.COMMAND and s.cls.BUTTON and "(7." in s.summary
    buttons = {s.cls.BUTTON for s in mine}
    # The manual's buttons (7.1.3, 7.2.2, 7.2.4, 7.4, 7.5, 7.6; 000:920, 000:938, 000:966, 000:992, 000:1000, 000:1014).
    assert {"Transfer Forces", "Add Forces To Garrison", "Remove Counter from Map", "Assign Leader to Unit",
            "Change Order", "Lend Unit to Ally"} <= buttons
    assert engine.phase_implemented(Phase.REINFORCEMENT)


def test_actions_round_trip_through_their_plain_form():
    a = army.AddFactors(corps="corps:FR:I", infantry=2)
    assert engine.action_from_obj(engine.action_to_obj(a)) == a


# ----------------------------------------------------------------- 7.1 naval


def test_place_fleet_in_home_port_with_new_ships(start, ctx):
    # 7.1.1 (000:908): a purchased empty fleet counter goes to a friendly home port with at least one ship.
    s = bought(slot(start, "FR"), "fleet:FR:1")
    s = build(s, "FR", "heavy", 3, port="brest")
    out = act(s, "FR", naval.PlaceFleet(fleet="fleet:FR:1", port="brest", heavy=2), ctx)
    f = out.units["fleet:FR:1"]
    assert f.location == at("port", "brest") and f.ships == Ships(heavy=2) and f.placeable_until is None
    assert [o.count for o in out.powers["FR"].builds.values()] == [1]


def test_place_fleet_refusals(start, ctx):
    s = slot(start, "FR")
    s = build(s, "FR", "heavy", 3, port="brest")
    refused(s, "FR", naval.PlaceFleet(fleet="fleet:FR:1", port="brest", heavy=1), ctx, r"has not been bought.*12\.5\.4")
    s = bought(s, "fleet:FR:1")
    refused(s, "FR", naval.PlaceFleet(fleet="fleet:FR:1", port="brest"), ctx, r"at least one ship.*7\.1\.1")
    refused(s, "FR", naval.PlaceFleet(fleet="fleet:FR:1", port="cadiz", heavy=1), ctx, r"not controlled by FR")
    refused(s, "FR", naval.PlaceFleet(fleet="fleet:FR:1", port="toulon", heavy=1), ctx, r"has nothing due in toulon")


def test_ships_join_a_fleet_only_in_their_building_port_blockaded_or_not(start, ctx):
    # 7.1.2 (000:912) and 12.5.3 (000:2234).
    s = slot(start, "FR").with_war("FR", "GB", MARCH, ("FR",))
    s = put(s, "fleet:FR:1", at("port", "brest"), ships=Ships(heavy=5))
    s = put(s, "fleet:FR:2", at("port", "toulon"), ships=Ships(heavy=5))
    s = put(s, "fleet:GB:1", at("blockade", "brest"), ships=Ships(heavy=9))
    s = build(s, "FR", "heavy", 3, port="brest")
    refused(s, "FR", naval.AddShips(fleet="fleet:FR:2", heavy=1), ctx, r"nothing due in toulon.*port chosen")
    out = act(s, "FR", naval.AddShips(fleet="fleet:FR:1", heavy=3), ctx)
    assert out.units["fleet:FR:1"].ships == Ships(heavy=8)
    assert not out.powers["FR"].builds


def test_ships_beyond_fleet_capacity_are_refused(start, ctx):
    s = slot(start, "FR")
    s = put(s, "fleet:FR:1", at("port", "brest"), ships=Ships(heavy=19))
    s = build(s, "FR", "heavy", 3, port="brest")
    refused(s, "FR", naval.AddShips(fleet="fleet:FR:1", heavy=2), ctx, r"heavy 21 > 20.*7\.1\.2")


def test_ships_may_wait_for_a_later_month(start, ctx):
    # 7.1.2 (000:912): ships due can be postponed; ending the slot keeps them.
    s = slot(start, "FR")
    s = build(s, "FR", "heavy", 3, port="brest")
    out = engine.end_slot(s, "FR", ctx)
    assert sum(o.count for o in out.state.powers["FR"].builds.values()) == 3


def test_transfer_ships_between_fleets_in_one_place(start, ctx):
    # 7.1.3 (000:918): same sea area, blockade box or port; same nation; an emptied fleet leaves the map.
    s = slot(start, "GB")
    s = put(s, "fleet:GB:1", at("sea", "english-channel"), ships=Ships(heavy=5))
    s = put(s, "fleet:GB:2", at("sea", "english-channel"), ships=Ships(heavy=3))
    s = put(s, "fleet:GB:3", at("sea", "north-sea"), ships=Ships(heavy=3))
    refused(s, "GB", naval.TransferShips(source="fleet:GB:1", target="fleet:GB:3", heavy=1), ctx, r"same sea area")
    out = engine.apply_action(s, "GB", naval.TransferShips(source="fleet:GB:2", target="fleet:GB:1", heavy=3), ctx)
    assert out.state.units["fleet:GB:1"].ships == Ships(heavy=8)
    assert out.state.units["fleet:GB:2"].location.kind is LocationKind.POOL
    assert out.state.units["fleet:GB:2"].placeable_until is None
    assert out.events[-1].kind == "reinforcement.removed"


def test_fleets_of_different_nations_do_not_transfer(start, ctx):
    s = slot(start, "FR")
    s = put(s, "fleet:FR:1", at("port", "amsterdam"), ships=Ships(heavy=5))
    s = put(s, "fleet:holland:1", at("port", "amsterdam"), ships=Ships(heavy=5))
    refused(s, "FR", naval.TransferShips(source="fleet:holland:1", target="fleet:FR:1", heavy=1), ctx,
            r"different nations.*7\.1\.3")


# ----------------------------------------------------------------- 7.2.2 in the home nation


def test_factors_join_a_corps_in_the_home_nation(start, ctx):
    # 7.2.2 (000:932): any unbesieged corps of the nation with room, inside its home nation.
    s = slot(start, "FR")
    s = put(s, "corps:FR:I", at("area", "lyon"), factors=Factors(infantry=10))
    s = build(s, "FR", "infantry", 4)
    s = build(s, "FR", "infantry", 2, arrives=Date(1805, 2))
    out = act(s, "FR", army.AddFactors(corps="corps:FR:I", infantry=5), ctx)
    assert out.units["corps:FR:I"].factors.infantry == 15
    # Oldest orders first: February's 2, then 3 of March's 4.
    assert [(str(o.arrives), o.count) for o in out.powers["FR"].builds.values()] == [("1805-03", 1)]


def test_more_than_is_due_or_fits_is_refused(start, ctx):
    s = slot(start, "FR")
    s = put(s, "corps:FR:I", at("area", "lyon"), factors=Factors(infantry=10, cavalry=4))
    s = build(s, "FR", "cavalry", 4)
    refused(s, "FR", army.AddFactors(corps="corps:FR:I", infantry=1), ctx, r"has 4 cavalry due.*not 1 infantry")
    refused(s, "FR", army.AddFactors(corps="corps:FR:I", cavalry=2), ctx, r"cavalry 6 > 5.*full strength")


def test_ceded_home_provinces_do_not_count_as_home(start, ctx):
    # 7.2.2 (000:932): "this excludes ceded provinces".
    s = slot(start, "FR").replace(ceded_provinces=start.ceded_provinces.set("lyonnais", "AU"))
    s = put(s, "corps:FR:I", at("area", "lyon"), factors=Factors(infantry=10))
    s = build(s, "FR", "infantry", 1)
    refused(s, "FR", army.AddFactors(corps="corps:FR:I", infantry=1), ctx, r"outside FR's home nation.*supply chain")


def test_feudal_and_besieged_corps_get_no_reinforcements(start, ctx):
    # 7.2.2 (000:932-934).
    s = slot(start, "TU")
    s = put(s, "corps:TU:Feudal-albania", at("area", "constantinople"), factors=Factors(feudal_infantry=3))
    s = build(s, "TU", "infantry", 2)
    refused(s, "TU", army.AddFactors(corps="corps:TU:Feudal-albania", infantry=1), ctx, r"feudal.*000:934")
    s = slot(start, "FR").with_war("FR", "AU", MARCH, ("AU",))
    s = put(s, "corps:FR:I", at("city", "strasbourg"), factors=Factors(infantry=5))
    s = put(s, "corps:AU:I", at("area", "strasbourg"), factors=Factors(infantry=9), besieging=True)
    s = build(s, "FR", "infantry", 2)
    refused(s, "FR", army.AddFactors(corps="corps:FR:I", infantry=1), ctx, r"besieged in strasbourg")


def test_free_state_factors_only_inside_its_borders(start, ctx):
    # 7.2.2 (000:932): minor free state factors inside that minor's borders.
    s = slot(start, "FR")
    s = put(s, "corps:holland:1", at("area", "amsterdam"), factors=Factors(infantry=2))
    s = build(s, "holland", "infantry", 2, owner="FR")
    out = act(s, "FR", army.AddFactors(corps="corps:holland:1", infantry=2), ctx)
    assert out.units["corps:holland:1"].factors.infantry == 4
    s = put(s, "corps:holland:1", at("area", "lille"))
    refused(s, "FR", army.AddFactors(corps="corps:holland:1", infantry=1), ctx, r"outside holland's borders")


# ----------------------------------------------------------------- 7.2.2 along a supply chain


def _step_path(m, a, b):
    prev = {a: None}
    q = deque([a])
    while q:
        x = q.popleft()
        for y in sorted(set(m.land_neighbours(x)) | {c.other_end(x) for c in m.crossings_at(x)}):
            if y not in prev:
                prev[y] = x
                q.append(y)
    p = [b]
    while prev[p[-1]]:
        p.append(prev[p[-1]])
    return p[::-1]


@pytest.fixture(scope="module")
def chain(start, ctx):
    """FR depots on every second area from Strasbourg to Smolensk; Switzerland and Lombardy made neutral."""
    path = _step_path(ctx.map, "strasbourg", "moscow")
    s = slot(start, "FR")
    for slug in ("switzerland", "lombardy"):
        s = s.with_minor(slug, s.minors[slug].replace(status=MinorStatus.NEUTRAL, controller=None))
    for i, area in enumerate(path[0:13:2]):
        s = depot(s, "FR", i + 1, area)
    return s, path


def test_chain_length_counts_depots_with_one_area_between(chain, ctx):
    # 10.3.3 (000:1330): at most one intervening area between linked depots.
    s, path = chain
    got = supply.supply_chain(s, ctx.map, "FR")
    assert [got[a] for a in path[0:13:2]] == [1, 2, 3, 4, 5, 6, 7]


def test_six_depots_for_regulars_three_for_militia(chain, ctx):
    # 7.2.2 (000:942-944).
    s, path = chain
    s = build(build(s, "FR", "infantry", 3), "FR", "militia", 3)
    s = put(s, "corps:FR:I", at("area", path[11]), factors=Factors(infantry=1))  # next to the 6th depot
    s = put(s, "corps:FR:II", at("area", path[12]), factors=Factors(infantry=1))  # on the 7th
    s = put(s, "corps:FR:III", at("area", path[5]), factors=Factors(infantry=1))  # next to the 3rd
    s = put(s, "corps:FR:IV", at("area", path[7]), factors=Factors(infantry=1))  # next to the 4th, not the 3rd
    assert act(s, "FR", army.AddFactors(corps="corps:FR:I", infantry=1), ctx).units["corps:FR:I"].factors.infantry == 2
    refused(s, "FR", army.AddFactors(corps="corps:FR:II", infantry=1), ctx, r"at most 6 depots.*000:940-948")
    refused(s, "FR", army.AddFactors(corps="corps:FR:I", militia=1), ctx, r"at most 3 depots \(militia\)")
    assert act(s, "FR", army.AddFactors(corps="corps:FR:III", militia=1), ctx).units["corps:FR:III"].factors.militia == 1
    refused(s, "FR", army.AddFactors(corps="corps:FR:IV", militia=1), ctx, r"at most 3 depots")


def test_an_enemy_corps_breaks_the_chain_unless_a_friend_is_there(chain, ctx):
    # 10.3.3 (000:1334).
    s, path = chain
    s = s.with_war("FR", "AU", MARCH, ("AU",))
    s = put(s, "corps:AU:I", at("area", path[5]), factors=Factors(infantry=5))
    got = supply.supply_chain(s, ctx.map, "FR")
    assert max(got.values()) == 3 and path[6] not in got
    s = put(s, "corps:FR:V", at("area", path[5]), factors=Factors(infantry=2))
    assert supply.supply_chain(s, ctx.map, "FR")[path[12]] == 7


def test_another_powers_depots_are_no_use(chain, ctx):
    # 7.2.2 (000:940): "Another Major Power's depot or supply chain may not be used".
    s, path = chain
    s = s.replace(units=s.units.remove("depot:FR:5"))
    s = depot(s, "AU", 1, path[8])
    s = put(s, "corps:FR:I", at("area", path[9]), factors=Factors(infantry=1))
    s = build(s, "FR", "infantry", 1)
    assert path[8] not in supply.supply_chain(s, ctx.map, "FR")
    refused(s, "FR", army.AddFactors(corps="corps:FR:I", infantry=1), ctx, r"supply chain")


@pytest.fixture(scope="module")
def sea(start, ctx):
    """Great Britain holds Lisbon; depots in London and Lisbon; a fleet in London; a corps at Lisbon."""
    s = slot(start, "GB")
    s = s.replace(city_control=s.city_control.set("lisbon", CityControl(nation="GB", since=MARCH)))
    s = depot(depot(s, "GB", 1, "london"), "GB", 2, "lisbon")
    s = put(s, "fleet:GB:1", at("port", "london"), ships=Ships(heavy=3))
    s = put(s, "corps:GB:I", at("area", "lisbon"), factors=Factors(infantry=2))
    return build(s, "GB", "infantry", 3)


def test_sea_supply_links_two_ports_with_a_fleet_on_the_source_side(sea, ctx):
    # 10.5.3 (000:1540) and 7.2.2 (000:948).
    assert supply.supply_chain(sea, ctx.map, "GB")["lisbon"] == 2
    out = act(sea, "GB", army.AddFactors(corps="corps:GB:I", infantry=3), ctx)
    assert out.units["corps:GB:I"].factors.infantry == 5
    no_fleet = put(sea, "fleet:GB:1", at("sea", "north-sea"))
    refused(no_fleet, "GB", army.AddFactors(corps="corps:GB:I", infantry=1), ctx, r"supply chain")


def test_a_blockaded_port_breaks_sea_supply(sea, ctx):
    # 10.5.3 (000:1540): neither port may be blockaded.
    s = sea.with_war("GB", "FR", MARCH, ("FR",))
    s = put(s, "fleet:FR:1", at("blockade", "lisbon"), ships=Ships(heavy=3))
    refused(s, "GB", army.AddFactors(corps="corps:GB:I", infantry=1), ctx, r"supply chain")


def test_invasion_supply_places_no_reinforcements(sea, ctx):
    # 10.5.4 (000:1570) and 7.2.2 (000:948).
    s = sea.replace(units=sea.units.remove("depot:GB:2"))
    s = put(s, "fleet:GB:2", at("sea", "cape-st-vincent"), ships=Ships(heavy=3))
    s = s.with_unit(Depot(id="depot:GB:3", power="GB", location=at("aboard", "fleet:GB:2")))
    refused(s, "GB", army.AddFactors(corps="corps:GB:I", infantry=1), ctx, r"supply chain")


def test_no_sea_supply_past_the_ice_line_in_winter(start, ctx):
    # 10.5.3 (000:1550): ports north of the ice line are cut off in winter months (13.1, 000:2358).
    m = ctx.map
    icy = sorted(a for a in m.ports() if any(m.sea(x).ice for x in m.area(a).port.seas) and m.area(a).nation != "GB")[0]
    s = slot(start, "GB", Date(1805, 1))
    s = s.replace(city_control=s.city_control.set(icy, CityControl(nation="GB", since=MARCH)))
    s = depot(depot(s, "GB", 1, "london"), "GB", 2, icy)
    s = put(s, "fleet:GB:1", at("port", "london"), ships=Ships(heavy=3))
    assert icy not in supply.supply_chain(s, m, "GB")
    assert supply.supply_chain(s.replace(date=Date(1805, 5)), m, "GB")[icy] == 2


# ----------------------------------------------------------------- garrisons, conversion, new corps


def test_garrisons_in_home_cities_up_to_five_times_supply(start, ctx):
    # 7.2.2 (000:936) and 10.4.3's capacity (5 x supply).
    s = slot(start, "FR")
    s = build(build(s, "FR", "infantry", 30), "FR", "cavalry", 1)
    out = act(s, "FR", army.AddToGarrison(area="paris", infantry=25), ctx)
    assert out.units[garrison_id("FR", at("city", "paris"))].factors.infantry == 25
    refused(out, "FR", army.AddToGarrison(area="paris", infantry=1), ctx, r"at most 25 garrison factors")
    refused(s, "FR", army.AddToGarrison(area="brussels", infantry=1), ctx, r"not in FR's home nation")
    s2 = s.replace(city_control=s.city_control.set("lyon", CityControl(nation="AU", since=MARCH)))
    refused(s2, "FR", army.AddToGarrison(area="lyon", infantry=1), ctx, r"not controlled by FR")


def test_depot_garrisons_in_the_chain_for_major_powers_only(chain, ctx):
    s, path = chain
    s = build(s, "FR", "infantry", 2)
    out = act(s, "FR", army.AddToGarrison(area=path[4], at="depot", infantry=2), ctx)
    assert out.units[garrison_id("FR", at("area", path[4]))].factors.infantry == 2
    refused(s, "FR", army.AddToGarrison(area=path[1], at="depot", infantry=1), ctx, r"no depot in")
    s = build(s, "holland", "infantry", 1, owner="FR")
    refused(s, "FR", army.AddToGarrison(area=path[4], nation="holland", at="depot", infantry=1), ctx, r"may not garrison depots")


def test_guard_and_cavalry_convert_to_infantry(start, ctx):
    # 7.2.2 (000:930).
    s = slot(start, "FR")
    s = build(build(s, "FR", "guard", 2), "FR", "cavalry", 3)
    out = act(s, "FR", army.ConvertToInfantry(guard=2, cavalry=1), ctx)
    from eiapbem.rules.reinforcement.common import due_factors

    assert due_factors(out, "FR") == Factors(infantry=3, cavalry=2)
    refused(out, "FR", army.ConvertToInfantry(guard=1), ctx, r"has 3 infantry, 2 cavalry due")


def test_place_a_bought_corps_in_a_home_city_or_with_a_corps(start, ctx):
    # 7.2.1 (000:924).
    s = slot(start, "FR")
    s = build(s, "FR", "infantry", 6)
    refused(s, "FR", army.PlaceCorps(corps="corps:FR:II", area="paris", infantry=1), ctx, r"not been bought")
    s = bought(bought(s, "corps:FR:II"), "corps:FR:III")
    refused(s, "FR", army.PlaceCorps(corps="corps:FR:II", area="paris"), ctx, r"at least one factor")
    refused(s, "FR", army.PlaceCorps(corps="corps:FR:II", area="brussels", infantry=1), ctx, r"not a city of FR's home nation")
    out = act(s, "FR", army.PlaceCorps(corps="corps:FR:II", area="paris", infantry=3), ctx)
    assert out.units["corps:FR:II"].location == at("city", "paris") and out.units["corps:FR:II"].factors.infantry == 3
    out = act(out, "FR", army.PlaceCorps(corps="corps:FR:III", with_corps="corps:FR:II", source="corps:FR:II", infantry=1), ctx)
    assert out.units["corps:FR:III"].factors.infantry == 1 and out.units["corps:FR:II"].factors.infantry == 2


# ----------------------------------------------------------------- 7.2.3 transfers, 7.2.4 demobilising


@pytest.fixture
def paris(start):
    s = slot(start, "FR")
    s = put(s, "corps:FR:I", at("area", "paris"), factors=Factors(infantry=5, cavalry=2))
    s = put(s, "corps:FR:Art", at("area", "paris"), factors=Factors(artillery=2))
    s = put(s, "corps:FR:II", at("city", "paris"), factors=Factors(infantry=14))
    s = put(s, "corps:FR:III", at("area", "orleans"), factors=Factors(infantry=3))
    return s


def test_corps_in_one_area_exchange_factors(paris, ctx):
    # 7.2.3 (000:956).
    out = act(paris, "FR", army.TransferFactors(source="corps:FR:I", target="corps:FR:II", infantry=1), ctx)
    assert out.units["corps:FR:II"].factors.infantry == 15
    refused(paris, "FR", army.TransferFactors(source="corps:FR:I", target="corps:FR:II", infantry=2), ctx, r"infantry 16 > 15")
    refused(paris, "FR", army.TransferFactors(source="corps:FR:I", target="corps:FR:III", infantry=1), ctx, r"same area")
    refused(paris, "FR", army.TransferFactors(source="corps:FR:Art", target="corps:FR:II", artillery=1), ctx, r"artillery.*not be exchanged")


def test_an_emptied_corps_leaves_the_map(paris, ctx):
    # 7.2.3 and 7.2.4 (000:956, 000:962).
    s = put(paris, "corps:FR:IV", at("area", "paris"), factors=Factors(cavalry=1))
    out = engine.apply_action(s, "FR", army.TransferFactors(source="corps:FR:IV", target="corps:FR:I", cavalry=1), ctx)
    assert out.state.units["corps:FR:IV"].location.kind is LocationKind.POOL
    assert [e.kind for e in out.events] == ["reinforcement.transfer-factors", "reinforcement.removed"]
    led = s.with_leader(s.leaders["leader:FR:ney"].replace(status=LeaderStatus.ON_MAP, attached_to="corps:FR:IV"))
    refused(led, "FR", army.TransferFactors(source="corps:FR:IV", target="corps:FR:I", cavalry=1), ctx, r"leader:FR:ney leads it")


def test_garrison_exchanges_and_demobilising(paris, ctx):
    # 7.2.3 (000:956), 7.2.4 (000:962), 10.4.3 (000:1414-1424).
    gid = garrison_id("FR", at("city", "paris"))
    out = act(paris, "FR", army.TransferFactors(source="corps:FR:II", target=gid, infantry=4), ctx)
    assert out.units[gid].factors.infantry == 4
    refused(paris, "FR", army.TransferFactors(source="corps:FR:I", target=gid, cavalry=1), ctx, r"only infantry and militia")
    out = act(out, "FR", army.TransferFactors(source=gid, target="corps:FR:I", infantry=1), ctx)
    assert out.units[gid].factors.infantry == 3
    out = act(out, "FR", army.Demobilise(garrison=gid, infantry=2), ctx)
    assert out.units[gid].factors.infantry == 1
    out = act(out, "FR", army.Demobilise(garrison=gid, infantry=1), ctx)
    assert gid not in out.units
    enemy = paris.with_war("FR", "AU", MARCH, ("AU",))
    enemy = put(enemy, "corps:AU:I", at("area", "paris"), factors=Factors(infantry=2))
    refused(enemy, "FR", army.TransferFactors(source="corps:FR:II", target=gid, infantry=1), ctx, r"enemy corps stands outside")


def test_irregular_insurrection_and_foreign_units_do_not_exchange(start, ctx):
    s = slot(start, "AU")
    s = put(s, "corps:AU:Insurrection-I", at("area", "vienna"))
    s = put(s, "corps:AU:I", at("area", "vienna"), factors=Factors(infantry=5))
    refused(s, "AU", army.TransferFactors(source="corps:AU:Insurrection-I", target="corps:AU:I", militia=1), ctx, r"insurrection")
    s = slot(start, "FR")
    s = put(s, "corps:FR:I", at("area", "amsterdam"), factors=Factors(infantry=5))
    s = put(s, "corps:holland:1", at("area", "amsterdam"), factors=Factors(infantry=5))
    refused(s, "FR", army.TransferFactors(source="corps:FR:I", target="corps:holland:1", infantry=1), ctx, r"different nations")


def test_corps_move_between_city_and_rural_area(paris, ctx):
    # 7.2.3 note (000:956).
    out = act(paris, "FR", army.MoveCityRural(corps="corps:FR:I", to="city"), ctx)
    assert out.units["corps:FR:I"].location == at("city", "paris")
    refused(out, "FR", army.MoveCityRural(corps="corps:FR:I", to="city"), ctx, r"already in the city")
    assert act(out, "FR", army.MoveCityRural(corps="corps:FR:I", to="rural"), ctx).units["corps:FR:I"].location == at("area", "paris")


# ----------------------------------------------------------------- hooks: placing is not optional


def test_reinforcements_that_fit_must_be_placed_and_the_rest_are_lost(start, ctx):
    # 7.2.2 (000:930): no delay; what cannot be placed is lost.
    s = slot(start, "FR")
    s = build(build(s, "FR", "infantry", 2), "FR", "artillery", 1)
    s = put(s, "corps:FR:I", at("area", "lyon"), factors=Factors(infantry=14))
    with pytest.raises(IllegalAction, match=r"cannot end the phase yet: place the 2 infantry due to FR"):
        engine.end_slot(s, "FR", ctx)
    s = act(s, "FR", army.AddFactors(corps="corps:FR:I", infantry=1), ctx)
    s = act(s, "FR", army.AddToGarrison(area="lyon", infantry=1), ctx)
    out = engine.end_slot(s, "FR", ctx)
    assert [e.kind for e in out.events] == ["reinforcement.lost"]
    assert "1 artillery due to FR could not be placed and are lost" in out.events[0].text
    assert not out.state.powers["FR"].builds
    assert out.state.slot.phase is Phase.NAVAL


def test_returned_factors_are_placed_like_new_ones(start, ctx):
    s = slot(start, "PR").with_power("PR", returned_factors=Factors(infantry=2))
    s = put(s, "corps:PR:I", at("area", "berlin"), factors=Factors(infantry=3))
    out = act(s, "PR", army.AddFactors(corps="corps:PR:I", infantry=2), ctx)
    assert out.powers["PR"].returned_factors == Factors()


# ----------------------------------------------------------------- 7.3 minor country forces


def test_minor_forces_set_up_within_borders(start, ctx):
    # 7.3 (000:970-974): some, all or none; corps and garrisons in the minor, fleets in or next to its ports.
    s = slot(start, "FR")
    assert s.minors["holland"].setup_due
    out = act(s, "FR", minors.SetUpMinorCorps(minor="holland", corps="corps:holland:1", area="groningen", infantry=4, cavalry=1), ctx)
    refused(s, "FR", minors.SetUpMinorCorps(minor="holland", corps="corps:holland:1", area="brussels", infantry=1), ctx, r"not within holland's borders")
    refused(s, "FR", minors.SetUpMinorCorps(minor="holland", corps="corps:holland:1", area="amsterdam", infantry=6), ctx, r"5 infantry, 1 cavalry")
    out = act(out, "FR", minors.SetUpMinorGarrison(minor="holland", area="amsterdam", infantry=1), ctx)
    out = act(out, "FR", minors.SetUpMinorFleet(minor="holland", fleet="fleet:holland:1", port="amsterdam", sea="north-sea", heavy=10), ctx)
    assert out.units["fleet:holland:1"].location == at("sea", "north-sea")
    done = engine.end_slot(out, "FR", ctx).state
    assert not done.minors["holland"].setup_due
    assert done.minors["holland"].stored_ships == Ships(heavy=5)  # not set up: kept


def test_only_the_running_power_sets_up_a_minor(start, ctx):
    s = slot(start, "PR")
    refused(s, "PR", minors.SetUpMinorGarrison(minor="holland", area="amsterdam", infantry=1), ctx, r"not run by PR")
    s = slot(start, "FR").with_minor("holland", start.minors["holland"].replace(setup_due=False))
    refused(s, "FR", minors.SetUpMinorGarrison(minor="holland", area="amsterdam", infantry=1), ctx, r"not waiting to be set up")


# ----------------------------------------------------------------- 7.4 leaders


@pytest.fixture
def led(start):
    s = slot(start, "FR")
    s = put(s, "corps:FR:I", at("area", "paris"), factors=Factors(infantry=5))
    s = put(s, "corps:FR:II", at("city", "paris"), factors=Factors(infantry=5))
    return put(s, "corps:FR:III", at("area", "lyon"), factors=Factors(infantry=5))


def test_leaders_are_placed_and_moved_within_their_area(led, ctx):
    # 7.4 (000:984).
    out = act(led, "FR", leaders.AssignLeader(leader="leader:FR:davout", unit="corps:FR:I"), ctx)
    assert out.leaders["leader:FR:davout"].attached_to == "corps:FR:I"
    out = act(out, "FR", leaders.AssignLeader(leader="leader:FR:davout", unit="corps:FR:II"), ctx)
    assert out.leaders["leader:FR:davout"].attached_to == "corps:FR:II"
    refused(out, "FR", leaders.AssignLeader(leader="leader:FR:davout", unit="corps:FR:III"), ctx, r"retire him this month")
    refused(led, "FR", leaders.AssignLeader(leader="leader:FR:eugene", unit="corps:FR:I"), ctx, r"not entered the game")


def test_no_leader_goes_where_an_enemy_corps_is(led, ctx):
    # 7.4 (000:986).
    s = led.with_war("FR", "AU", MARCH, ("AU",))
    s = put(s, "corps:AU:I", at("area", "lyon"), factors=Factors(infantry=5))
    refused(s, "FR", leaders.AssignLeader(leader="leader:FR:davout", unit="corps:FR:III"), ctx, r"enemy corps is in lyon")


def test_a_retired_leader_returns_only_in_a_later_month(led, ctx):
    # 7.4 (000:984).
    s = act(led, "FR", leaders.AssignLeader(leader="leader:FR:davout", unit="corps:FR:I"), ctx)
    s = act(s, "FR", leaders.RetireLeader(leader="leader:FR:davout"), ctx)
    lead = s.leaders["leader:FR:davout"]
    assert lead.status is LeaderStatus.INACTIVE and lead.returns == Date(1805, 4)
    refused(s, "FR", leaders.AssignLeader(leader="leader:FR:davout", unit="corps:FR:III"), ctx, r"only from 1805-04")
    later = slot(s, "FR", Date(1805, 4))
    assert act(later, "FR", leaders.AssignLeader(leader="leader:FR:davout", unit="corps:FR:III"), ctx).leaders[
        "leader:FR:davout"].attached_to == "corps:FR:III"


def test_no_retirement_from_a_besieged_city_unless_an_open_port(start, ctx):
    # 7.4 (000:984) and 13.8.1 (000:2638).
    s = slot(start, "FR").with_war("FR", "GB", MARCH, ("GB",))
    s = put(s, "corps:FR:I", at("city", "brest"), factors=Factors(infantry=5))
    s = put(s, "corps:GB:I", at("area", "brest"), factors=Factors(infantry=9), besieging=True)
    s = s.with_leader(s.leaders["leader:FR:davout"].replace(status=LeaderStatus.ON_MAP, attached_to="corps:FR:I"))
    assert act(s, "FR", leaders.RetireLeader(leader="leader:FR:davout"), ctx).leaders["leader:FR:davout"].status is LeaderStatus.INACTIVE
    s = put(s, "fleet:GB:1", at("blockade", "brest"), ships=Ships(heavy=5))
    refused(s, "FR", leaders.RetireLeader(leader="leader:FR:davout"), ctx, r"besieged city of brest and its port is blockaded")


def test_nelson_goes_with_fleets_only(start, ctx):
    # 13.8 (000:2632).
    s = slot(start, "GB")
    s = put(s, "fleet:GB:1", at("port", "london"), ships=Ships(heavy=5))
    s = put(s, "corps:GB:I", at("area", "london"), factors=Factors(infantry=5))
    refused(s, "GB", leaders.AssignLeader(leader="leader:GB:nelson", unit="corps:GB:I"), ctx, r"only with a fleet")
    assert act(s, "GB", leaders.AssignLeader(leader="leader:GB:nelson", unit="fleet:GB:1"), ctx).leaders[
        "leader:GB:nelson"].attached_to == "fleet:GB:1"


# ----------------------------------------------------------------- 7.5 and 7.6


def test_change_order_for_britain_and_france_only(start, ctx):
    # 7.5 (000:998).
    s = act(slot(start, "GB"), "GB", orders.ChangeOrder(position=4), ctx)
    assert s.move_order.gb_naval_position == 4
    assert phase_order(Phase.NAVAL, choices_from_state(s))[3] == "GB"
    s = act(slot(s, "FR"), "FR", orders.ChangeOrder(position=7), ctx)
    assert s.move_order.fr_land_position == 7
    refused(slot(start, "PR"), "PR", orders.ChangeOrder(position=2), ctx, r"only Great Britain.*and France")


def test_loans_to_allies_last_the_month(start, ctx):
    # 7.6 (000:1002).
    s = slot(start, "FR", Date(1805, 4))
    s = put(s, "corps:FR:I", at("area", "paris"), factors=Factors(infantry=5))
    refused(s, "FR", orders.LendUnit(unit="corps:FR:I", ally="SP"), ctx, r"not allied with SP")
    s = s.with_alliance("FR", "SP", MARCH)
    s = s.with_leader(s.leaders["leader:FR:ney"].replace(status=LeaderStatus.ON_MAP, attached_to="corps:FR:I"))
    s = act(s, "FR", orders.LendUnit(unit="corps:FR:I", ally="SP"), ctx)
    s = act(s, "FR", orders.LendUnit(unit="leader:FR:ney", ally="SP"), ctx)
    assert s.units["corps:FR:I"].loaned_to == "SP" and s.leaders["leader:FR:ney"].loaned_to == "SP"
    refused(s, "FR", army.AddFactors(corps="corps:FR:I", infantry=1), ctx, r"loaned to SP")
    back = act(s, "FR", orders.RecallUnit(unit="corps:FR:I"), ctx)
    assert back.units["corps:FR:I"].loaned_to is None
    # The month ends after France's land turn; the loans end with it.
    s = s.replace(slot=Slot(Phase.LAND, TURN, "SP", ("SP",)))
    s = advance(s)
    assert s.date == Date(1805, 5)
    assert s.units["corps:FR:I"].loaned_to is None and s.leaders["leader:FR:ney"].loaned_to is None


# ----------------------------------------------------------------- more corners


def test_a_new_fleet_may_take_its_ships_from_a_fleet_in_the_port(start, ctx):
    # 7.1.1 (000:908): "placed in or transferred to them".
    s = bought(slot(start, "GB"), "fleet:GB:2")
    s = put(s, "fleet:GB:1", at("port", "portsmouth"), ships=Ships(heavy=6))
    out = act(s, "GB", naval.PlaceFleet(fleet="fleet:GB:2", port="portsmouth", source="fleet:GB:1", heavy=2), ctx)
    assert out.units["fleet:GB:1"].ships.heavy == 4 and out.units["fleet:GB:2"].ships.heavy == 2
    refused(s, "GB", naval.PlaceFleet(fleet="fleet:GB:2", port="plymouth", source="fleet:GB:1", heavy=2), ctx, r"same sea area, blockade box or port")


def test_a_minor_fleet_starts_only_next_to_its_port(start, ctx):
    # 7.3 (000:972).
    s = slot(start, "FR")
    refused(s, "FR", minors.SetUpMinorFleet(minor="holland", fleet="fleet:holland:1", port="amsterdam", sea="english-channel", heavy=1),
            ctx, r"not a sea area next to the port of amsterdam")


def test_corps_enter_only_friendly_cities(paris, ctx):
    s = paris.replace(city_control=paris.city_control.set("orleans", CityControl(nation="AU", since=MARCH)))
    refused(s, "FR", army.MoveCityRural(corps="corps:FR:III", to="city"), ctx, r"not held by FR or an ally")


def test_the_borrower_may_move_a_loaned_leader_within_the_area(start, ctx):
    # 7.6 (000:1002): a loaned leader is handled by the borrower; 7.4 (000:984) same-area moves.
    s = slot(start, "SP").with_alliance("FR", "SP", MARCH)
    s = put(s, "corps:FR:I", at("area", "bayonne"), factors=Factors(infantry=5))
    s = put(s, "corps:SP:I", at("area", "bayonne"), factors=Factors(infantry=5))
    s = s.with_leader(s.leaders["leader:FR:ney"].replace(status=LeaderStatus.ON_MAP, attached_to="corps:FR:I", loaned_to="SP"))
    out = act(s, "SP", leaders.AssignLeader(leader="leader:FR:ney", unit="corps:SP:I"), ctx)
    assert out.leaders["leader:FR:ney"].attached_to == "corps:SP:I"
    refused(s.replace(slot=Slot(Phase.REINFORCEMENT, TURN, "FR", ("FR",))), "FR",
            leaders.RetireLeader(leader="leader:FR:ney"), ctx, r"while loaned to SP")


def test_a_bought_counter_in_the_pool_makes_placement_possible(start, ctx):
    # 7.2.2 (000:930) with 7.2.1 (000:924): no corps on the map, but a bought counter and a home city.
    from eiapbem.rules.reinforcement import hooks

    s = build(slot(start, "FR"), "FR", "cavalry", 2)
    assert hooks.obligations(s, "FR", ctx) == []
    s = bought(s, "corps:FR:Cav-I")
    (sentence,) = hooks.obligations(s, "FR", ctx)
    assert "2 cavalry due to FR" in sentence and "corps:FR:Cav-I placed in" in sentence


def test_the_placement_hint_names_the_capital_first_and_is_accepted_as_written(start, ctx):
    # 7.2.2 (000:936): with no corps to take them, new infantry go to a home city's garrison. The hint named Amiens,
    # the first French city by name; it names Paris, the national capital, and the command it gives is taken.
    import re

    from eiapbem.rules.reinforcement import hooks

    s = build(slot(start, "FR"), "FR", "infantry", 6)
    s = bought(build(s, "FR", "cavalry", 2), "corps:FR:Cav-I")
    inf, cav = hooks.obligations(s, "FR", ctx)
    assert "'eiapbem reinforce add-garrison --area paris --at city --infantry 6'" in inf, inf
    assert "corps:FR:Cav-I placed in paris" in cav, cav
    for sentence in (inf, cav):
        words = re.search(r"'eiapbem reinforce ([^']*)'", sentence).group(1).split()
        kind, opts = words[0], dict(zip(words[1::2], words[2::2]))
        cls = {"add-garrison": army.AddToGarrison, "place-corps": army.PlaceCorps}[kind]
        fields = {k.removeprefix("--").replace("-", "_"): (int(v) if v.isdigit() else v) for k, v in opts.items()}
        s = act(s, "FR", cls(**fields), ctx)
    assert hooks.obligations(s, "FR", ctx) == []


def test_a_besieging_flag_without_war_besieges_nothing(start, ctx):
    s = put(slot(start, "FR"), "corps:AU:I", at("area", "strasbourg"), factors=Factors(infantry=5), besieging=True)
    assert not control.is_besieged(s, ctx.map, "strasbourg")
    assert control.is_besieged(s.with_war("FR", "AU", MARCH, ("AU",)), ctx.map, "strasbourg")


# ----------------------------------------------------------------- invariants

from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

_UNITS = ("corps:FR:I", "corps:FR:II", "corps:FR:IV", garrison_id("FR", at("city", "paris")))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.tuples(st.sampled_from(_UNITS), st.sampled_from(_UNITS), st.integers(0, 6), st.integers(0, 3)), max_size=8))
def test_exchanges_never_create_or_lose_factors(paris, ctx, moves):
    # 7.2.3 (000:956): exchanges move factors, they never make or destroy any; refusals change nothing.
    s = put(paris, "corps:FR:IV", at("area", "paris"), factors=Factors(infantry=2, cavalry=1))

    def total(state):
        return sum(u.factors.total for u in state.units.values() if hasattr(u, "factors") and u.location.site == "paris")

    start = total(s)
    for src, dst, inf, cav in moves:
        try:
            out = engine.apply_action(s, "FR", army.TransferFactors(source=src, target=dst, infantry=inf, cavalry=cav), ctx)
        except IllegalAction:
            continue
        s = GameState.decode(out.state.encode())
        assert s == out.state
        assert total(s) == start
        assert all(u.factors.total > 0 for u in s.units.values() if isinstance(u, Garrison))
        assert all(u.factors.total > 0 for uid, u in s.units.items() if uid in _UNITS[:3] and u.location.kind is not LocationKind.POOL)


def test_ships_built_in_a_conquered_minor_port_join_a_fleet_there(start, ctx):
    # 7.1.2 (000:912): "or conquered minor country port in which they were built".
    s = slot(start, "FR")
    s = put(s, "fleet:FR:1", at("port", "antwerp"), ships=Ships(heavy=2))
    s = build(s, "FR", "light", 2, port="antwerp")
    assert act(s, "FR", naval.AddShips(fleet="fleet:FR:1", light=2), ctx).units["fleet:FR:1"].ships == Ships(heavy=2, light=2)
    # An empty counter is placed only in a home nation port (7.1.1, 000:908).
    s = bought(s, "fleet:FR:2")
    refused(s, "FR", naval.PlaceFleet(fleet="fleet:FR:2", port="antwerp", light=1), ctx, r"not a port of FR's home nation")


def test_free_state_ships_only_in_its_own_ports(start, ctx):
    # 7.1.2 (000:912): minor free state ships only in ports of that free state.
    s = slot(start, "FR")
    s = put(s, "fleet:holland:1", at("port", "amsterdam"), ships=Ships(heavy=5))
    s = build(s, "holland", "heavy", 2, port="amsterdam", owner="FR")
    assert act(s, "FR", naval.AddShips(fleet="fleet:holland:1", heavy=2), ctx).units["fleet:holland:1"].ships.heavy == 7
    s = s.replace(city_control=s.city_control.set("amsterdam", CityControl(nation="GB", since=MARCH)))
    refused(s, "FR", naval.AddShips(fleet="fleet:holland:1", heavy=2), ctx, r"not controlled by FR")


def test_no_new_corps_in_a_besieged_city(start, ctx):
    # 7.2.1 (000:924): an unbesieged home nation city.
    s = bought(build(slot(start, "FR"), "FR", "infantry", 2), "corps:FR:II").with_war("FR", "AU", MARCH, ("AU",))
    s = put(s, "corps:AU:I", at("area", "lyon"), factors=Factors(infantry=9), besieging=True)
    refused(s, "FR", army.PlaceCorps(corps="corps:FR:II", area="lyon", infantry=1), ctx, r"city of lyon is besieged")
    assert act(s, "FR", army.PlaceCorps(corps="corps:FR:II", area="dijon", infantry=1), ctx).units["corps:FR:II"].location == at("city", "dijon")


def test_available_lists_what_may_be_placed(start, ctx):
    # "View Available Counters" / "Current Reinforcement" (000:910, 000:930).
    from eiapbem.rules.reinforcement.common import available

    s = bought(slot(start, "FR"), "corps:FR:II")
    s = build(build(s, "FR", "infantry", 2), "FR", "heavy", 1, port="brest")
    s = build(s, "FR", "cavalry", 1, arrives=Date(1805, 4))  # not due yet
    got = available(s, "FR")
    assert got["FR"]["factors"] == Factors(infantry=2)
    assert got["FR"]["ships"] == {"brest": Ships(heavy=1)}
    assert got["FR"]["counters"] == ["corps:FR:II"]
    assert "holland" in got and "leader:FR:davout" in got["leaders"] and "leader:FR:eugene" not in got["leaders"]
