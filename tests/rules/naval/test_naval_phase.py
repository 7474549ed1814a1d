"""The naval phase played through the engine (8.4-8.10): movement, interception, attacks,
blockades, transport, standing orders, the computer's naval slot, the economic effect of a
blockade.  The manual's examples and one case per subsection are rules cases under
tests/cases/naval/; these tests cover what a case table cannot say well."""

from __future__ import annotations

import pytest

from eiapbem import ai
from eiapbem.core.dice import Dice
from eiapbem.core.errors import IllegalAction
from eiapbem.data.context import rules_context
from eiapbem.rules import engine
from eiapbem.rules.combat import standing
from eiapbem.rules.model import Location, LocationKind, PlayerKind
from eiapbem.rules.model.common import Phase
from eiapbem.rules.naval import graph
from eiapbem.rules.naval.attack import NavalAttack as Attack, SetOrders
from eiapbem.rules.naval.movement import MoveFleet
from eiapbem.rulecases.scene import scene_state


def ctx(seed=b"naval-phase", forced=None):
    return rules_context(Dice(seed, forced=forced or {}))


C = ctx()


def scene(fleets, *, phasing="GB", wars=(("GB", "FR"),), date="1805-10", phase=Phase.NAVAL, **extra):
    inp = {"date": date, "phasing": phasing, "wars": [list(w) for w in wars], "fleets": list(fleets)}
    inp.update(extra)
    return scene_state(inp, phase=phase)


def move(state, fleet, path, power="GB", c=C, **kw):
    return engine.apply_action(state, power, MoveFleet(fleet=fleet, path=path, **kw), c).state


def test_costs_port_box_free_sea_one():
    # 8.4.1-8.4.2 (000:1064-1068): a sea area costs one point, a port one from the box's seas, box and port nothing.
    m = C.map
    s = scene([])
    d = graph.distances(s, m, Location(LocationKind.PORT, "plymouth"))
    assert d[Location(LocationKind.BLOCKADE, "plymouth")] == 0
    assert d[Location(LocationKind.SEA, "english-channel")] == 1
    assert d[Location(LocationKind.PORT, "brest")] == 2  # channel 1, brest's box 1, port 0
    assert d[Location(LocationKind.SEA, "north-atlantic")] == 2


def test_frozen_baltic_in_winter_only():
    m = C.map
    winter = scene([], date="1806-01")
    summer = scene([], date="1806-06")
    start = Location(LocationKind.SEA, "western-baltic")
    assert Location(LocationKind.SEA, "central-baltic") not in graph.distances(winter, m, start)
    assert Location(LocationKind.SEA, "central-baltic") in graph.distances(summer, m, start)


def test_stack_moves_together_but_a_fleet_alone_leaves_the_rest():
    # 8.4.3 (000:1074): a stack moves as one, or a fleet alone.
    s = scene([{"id": "fleet:GB:1", "location": "port:plymouth", "heavy": 5},
               {"id": "fleet:GB:2", "location": "port:plymouth", "heavy": 5},
               {"id": "fleet:GB:3", "location": "port:plymouth", "heavy": 5}])
    s = move(s, "fleet:GB:1", "english-channel")
    assert str(s.units["fleet:GB:2"].location) == "port:plymouth"
    s = move(s, "fleet:GB:2", "english-channel,north-sea", stack=True)  # GB:1 has moved: not part of the stack
    assert str(s.units["fleet:GB:1"].location) == "sea:english-channel"
    assert str(s.units["fleet:GB:2"].location) == str(s.units["fleet:GB:3"].location) == "sea:north-sea"
    with pytest.raises(IllegalAction, match="no fleet moves twice"):
        move(s, "fleet:GB:3", "english-channel")


def test_refusal_leaves_the_state_unchanged_and_names_the_step():
    s = scene([{"id": "fleet:GB:1", "location": "port:plymouth", "heavy": 5}])
    with pytest.raises(IllegalAction, match=r"irish-sea is not next to box:plymouth|not next to"):
        move(s, "fleet:GB:1", "irish-sea")
    with pytest.raises(IllegalAction, match="not a place at sea"):
        move(s, "fleet:GB:1", "English Channel")
    with pytest.raises(IllegalAction, match="FR's, not GB's"):
        move(scene([{"id": "fleet:FR:1", "location": "port:brest", "heavy": 5}]), "fleet:FR:1", "english-channel")


def test_minor_fleets_move_with_their_controller():
    from eiapbem.rules.model import MinorCountry, MinorStatus

    s = scene([{"id": "fleet:holland:1", "location": "port:amsterdam", "heavy": 5}], phasing="FR")
    s = s.replace(minors=s.minors.set("holland", MinorCountry(status=MinorStatus.FREE_STATE, controller="FR")))
    s = move(s, "fleet:holland:1", "north-sea", power="FR")
    assert str(s.units["fleet:holland:1"].location) == "sea:north-sea"


def test_no_interception_without_standing_orders_and_none_from_a_blockaded_port():
    fleets = [{"id": "fleet:GB:1", "location": "port:plymouth", "heavy": 5},
              {"id": "fleet:FR:1", "location": "port:brest", "heavy": 5}]
    s = scene(fleets)
    strict = rules_context(Dice(b"x", forced={}, strict=True))
    after = move(s, "fleet:GB:1", "english-channel,bay-of-biscay", c=strict)  # no roll at all: no orders given
    assert str(after.units["fleet:GB:1"].location) == "sea:bay-of-biscay"
    s = engine.apply_action(s.replace(slot=s.slot.replace(power="FR", actors=("FR",))), "FR",
                            SetOrders(fleet="fleet:FR:1", intercept=True), C).state
    assert s.powers["FR"].standing_orders.intercept == ("fleet:FR:1",)
    s = s.replace(slot=s.slot.replace(power="GB", actors=("GB",)))
    blockaded = s.with_unit(s.units["fleet:GB:1"].replace(location=Location(LocationKind.BLOCKADE, "brest")))
    blockaded = blockaded.with_unit(blockaded.units["fleet:FR:1"])
    from eiapbem.rules.model import Fleet, Ships
    blockaded = blockaded.with_unit(Fleet(id="fleet:GB:2", nation="GB", location=Location(LocationKind.PORT, "plymouth"),
                                          ships=Ships(heavy=3)))
    after = move(blockaded, "fleet:GB:2", "english-channel", c=strict)  # Brest is blockaded: no attempt (8.5.3)
    assert str(after.units["fleet:GB:2"].location) == "sea:english-channel"


def test_interception_roll_needs_one_from_adjacent():
    fleets = [{"id": "fleet:GB:1", "location": "port:plymouth", "heavy": 5},
              {"id": "fleet:FR:1", "location": "port:brest", "heavy": 5}]
    s = scene(fleets, intercept=None)
    ps = s.powers["FR"]
    s = s.replace(powers=s.powers.set("FR", ps.replace(standing_orders=ps.standing_orders.replace(intercept=("fleet:FR:1",)))))
    label = "naval/1805-10/GB/intercept/fleet:GB:1.0/1/FR/port:brest"
    after = move(s, "fleet:GB:1", "english-channel", c=ctx(forced={label: 2}))
    assert not after.naval_battles and str(after.units["fleet:FR:1"].location) == "port:brest"
    assert any("fail to intercept" in e.text for e in after.log)
    # The die and what it needed are in the line every player reads (8.5.4: adjacent needs 1 or less).
    assert any("fail to intercept" in e.text and "(adjacent sea area: d6 2, needs 1 or less, 8.5.4)" in e.text
               for e in after.log), [e.text for e in after.log]
    won = move(s, "fleet:GB:1", "english-channel", c=ctx(forced={label: 1}))
    assert any("intercept in english-channel (adjacent sea area: d6 1, needs 1 or less, 8.5.4)" in e.text
               for e in won.log), [e.text for e in won.log]


def test_once_one_power_intercepts_no_other_tries_in_that_area():
    # 8.5.2 (000:1098): once one major power has intercepted the moving stack, no other may try in that sea area.
    fleets = [{"id": "fleet:GB:1", "location": "port:plymouth", "heavy": 5},
              {"id": "fleet:FR:1", "location": "sea:english-channel", "heavy": 5},
              {"id": "fleet:SP:1", "location": "sea:english-channel", "heavy": 5}]
    s = scene(fleets, wars=(("GB", "FR"), ("GB", "SP")), intercept=None)
    for p, fid in (("FR", "fleet:FR:1"), ("SP", "fleet:SP:1")):
        ps = s.powers[p]
        s = s.replace(powers=s.powers.set(p, ps.replace(standing_orders=ps.standing_orders.replace(intercept=(fid,)))))
    fr = "naval/1805-10/GB/intercept/fleet:GB:1.0/1/FR/sea:english-channel"
    sp = "naval/1805-10/GB/intercept/fleet:GB:1.0/1/SP/sea:english-channel"
    first = ctx(forced={fr: 1})
    started = engine.apply_action(s, "GB", MoveFleet(fleet="fleet:GB:1", path="english-channel"), first).state
    (battle,) = started.naval_battles.values()
    assert battle.defenders == ("fleet:FR:1",) and sp not in first.dice.record  # Spain's die is never rolled
    # Had France failed, Spain would have tried in the same area (the attempts go in the powers' order).
    failed = ctx(forced={fr: 6, sp: 1})
    after = engine.apply_action(s, "GB", MoveFleet(fleet="fleet:GB:1", path="english-channel"), failed).state
    (battle,) = after.naval_battles.values()
    assert battle.defenders == ("fleet:SP:1",)


def test_attack_ends_movement_and_needs_enemies():
    s = scene([{"id": "fleet:GB:1", "location": "port:plymouth", "heavy": 5},
               {"id": "fleet:GB:2", "location": "port:plymouth", "heavy": 5},
               {"id": "fleet:FR:1", "location": "sea:english-channel", "heavy": 5}])
    with pytest.raises(IllegalAction, match="no fleet with warships at north-sea"):
        engine.apply_action(s, "GB", Attack(place="north-sea"), C)
    s = move(s, "fleet:GB:1", "english-channel")
    s = engine.apply_action(s, "GB", Attack(place="english-channel"), C).state
    assert s.movement_over and s.naval_battles
    while s.pending:
        d = sorted(s.pending.values(), key=lambda d: d.id)[0]
        s = engine.apply_action(s, d.power, engine.AnswerDecision(d.id, d.options[0]), C).state
    with pytest.raises(IllegalAction, match="movement is over"):
        move(s, "fleet:GB:2", "english-channel")
    s = engine.end_slot(s, "GB", C).state
    assert not s.naval_moves and not s.movement_over


def test_the_non_phasing_side_answers_by_battle_files_or_standing_orders():
    s = scene([{"id": "fleet:GB:1", "location": "sea:english-channel", "heavy": 5},
               {"id": "fleet:FR:1", "location": "sea:english-channel", "heavy": 5}],
              evasion=None)
    ps = s.powers["FR"]
    s = s.replace(powers=s.powers.set("FR", ps.replace(standing_orders=ps.standing_orders.replace(
        evasion=ps.standing_orders.evasion.set("fleet:FR:1", "evade-all")))))
    s = engine.apply_action(s, "GB", Attack(place="english-channel"), C).state
    (d,) = s.pending.values()
    assert d.kind == "naval.evasion" and d.power == "FR"
    assert standing.answer(s, d, C) == "evade-all"
    from eiapbem.client import battles
    assert battles.exchange_needed(s, d) and not battles.automatic(s, d)  # two humans: by battle files
    quick = s.replace(options=s.options.replace(pbem_quick_combat=True))
    assert battles.automatic(quick, d) and not battles.exchange_needed(quick, d)  # 4.1.1: standing orders answer
    assert battles.area_of(d.context["battle"]) == "english-channel" and battles.index_of(d.context["battle"]) == 1
    from eiapbem.rules import turn
    assert turn.battle_id_of_label(f"naval/{d.context['battle']}/wind/attacker") == d.context["battle"]


def test_a_fleet_in_the_box_blockades_the_port():
    from eiapbem.rules import control

    s = scene([{"id": "fleet:GB:1", "location": "port:plymouth", "heavy": 5}])
    assert not control.is_blockaded(s, C, "brest")
    s = move(s, "fleet:GB:1", "english-channel,box:brest")
    assert control.is_blockaded(s, C, "brest") and control.is_blockaded(s, C, "brest", "FR")


def test_a_fleet_may_not_stay_in_its_own_ports_box_and_the_refusal_says_own_port():
    # 8.8 (000:1168): Britain's fleet ending in box:plymouth was refused as "GB is not at war with GB, which holds it".
    s = scene([{"id": "fleet:GB:1", "location": "port:plymouth", "heavy": 5}])
    with pytest.raises(IllegalAction) as err:
        move(s, "fleet:GB:1", "box:plymouth")
    assert str(err.value).startswith("plymouth is GB's own port, and no enemy fleet is in its port or blockade box, so "
                                     "the stack may not stay in box:plymouth (8.8, 000:1168)"), err.value


@pytest.mark.parametrize("kind", ["ai-easy", "ai-medium", "ai-hard"])
def test_the_computer_moves_fleets_legally(kind):
    s = scene([{"id": "fleet:FR:1", "location": "sea:english-channel", "heavy": 3},
               {"id": "fleet:FR:2", "location": "blockade:ferrol", "heavy": 2},
               {"id": "fleet:FR:3", "location": "blockade:newcastle", "heavy": 9},
               {"id": "fleet:FR:4", "location": "port:brest", "heavy": 4},
               {"id": "fleet:GB:1", "location": "port:portsmouth", "heavy": 20}], phasing="FR")
    s = s.with_power("FR", controller=PlayerKind(kind))
    turn = ai.play_slot(s, "FR", C)
    units = turn.state.units
    assert units["fleet:FR:1"].location.kind is LocationKind.PORT  # outmatched at sea: home (9.4.1's ports)
    assert units["fleet:FR:2"].location != Location(LocationKind.BLOCKADE, "ferrol")  # must leave (8.8)
    assert str(units["fleet:FR:3"].location) == "blockade:newcastle"  # no enemy at sea next to it: it keeps the blockade
    assert "fleet:FR:4" in turn.state.powers["FR"].standing_orders.intercept


def test_show_and_svg_map_show_fleets_blockades_and_transported_corps():
    from eiapbem.cli.data_cmd import unit_labels
    from eiapbem.client import show
    from eiapbem.present import svgmap

    s = scene([{"id": "fleet:GB:1", "location": "blockade:brest", "heavy": 12},
               {"id": "fleet:FR:1", "location": "sea:english-channel", "heavy": 4, "transport": 2}],
              corps=[{"id": "corps:FR:III", "location": "aboard:fleet:FR:1", "infantry": 6}])
    sea = "\n".join(show.area(s, C.map, "english-channel"))
    assert "fleet:FR:1: 4 heavy, 2 transport (sea)" in sea and "corps:FR:III: 6 infantry aboard fleet:FR:1" in sea and "blockade box of brest:" in sea and "fleet:GB:1" in sea
    box = "\n".join(show.area(s, C.map, "box:brest"))
    assert "fleet:GB:1: 12 heavy" in box
    labels = unit_labels(s)
    assert ("brest", "GB:1 12s blockading") in labels
    assert ("english-channel", "FR:1 6s") in labels and ("english-channel", "FR:III 6 aboard FR:1") in labels
    svg = svgmap.render_svg(C.map, units=svgmap.units_by_area(labels))
    assert "FR:III 6 aboard FR:1" in svg and "GB:1 12s blockading" in svg


def test_the_map_tells_a_depot_from_a_fleet_and_shows_a_siege():
    # "GB:1" was both Britain's first depot and its first fleet on the map, and a siege did not show.
    from eiapbem.cli.data_cmd import unit_labels
    from eiapbem.rules.model import Corps, CorpsType, Depot, Factors, Garrison, Location, LocationKind

    s = scene([{"id": "fleet:GB:1", "location": "port:portsmouth", "heavy": 5}])
    s = s.with_unit(Depot(id="depot:GB:1", power="GB", location=Location(LocationKind.AREA, "portsmouth")))
    s = s.with_unit(Garrison(id="garrison:AU:city:innsbruck", nation="AU",
                             location=Location(LocationKind.CITY, "innsbruck"), factors=Factors(infantry=4)))
    s = s.with_unit(Corps(id="corps:FR:V", nation="FR", corps_type=CorpsType.REGULAR, besieging=True,
                          location=Location(LocationKind.AREA, "innsbruck"), factors=Factors(infantry=10)))
    labels = unit_labels(s)
    assert ("portsmouth", "depot GB:1") in labels and ("portsmouth", "GB:1 5s") in labels, labels
    assert ("innsbruck", "AU garrison 4") in labels and ("innsbruck", "FR:V 10 besieging") in labels, labels


def test_ships_building_in_a_port_the_enemy_holds_are_lost_at_the_end_of_a_land_slot():
    from eiapbem.rules.model import BuildOrder, CityControl, Date, Factors, Garrison, Location, LocationKind, garrison_id

    s = scene([], phase=Phase.LAND)
    lille = BuildOrder(nation="FR", item="heavy", count=3, arrives=Date(1806, 6), port="lille")
    rouen = BuildOrder(nation="FR", item="light", count=2, arrives=Date(1806, 3), port="rouen")
    s = s.with_power("FR", builds=s.powers["FR"].builds.set(lille.key, lille).set(rouen.key, rouen))
    s = s.replace(city_control=s.city_control.set("lille", CityControl("GB", s.date)))
    at = Location(LocationKind.CITY, "lille")  # a British garrison holds it (13.5.2: an occupation is maintained)
    s = s.with_unit(Garrison(id=garrison_id("GB", at), nation="GB", location=at, factors=Factors(infantry=2)))
    after = engine.end_slot(s, "GB", C).state
    assert list(after.powers["FR"].builds) == [rouen.key]  # 13.5.6
    assert any("13.5.6" in e.text and "3 heavy at lille" in e.text for e in after.log)


def test_a_fleet_that_moves_loses_its_depot():
    # 10.3.4 (000:1352), 10.5.4 (000:1566-1572): a depot on a fleet, lost when the fleet moves.
    from eiapbem.rules.model import Depot

    s = scene([{"id": "fleet:FR:1", "location": "sea:english-channel", "heavy": 8}], phasing="FR")
    s = s.with_unit(Depot(id="depot:FR:2", power="FR", location=Location(LocationKind.ABOARD, "fleet:FR:1")))
    out = engine.apply_action(s, "FR", MoveFleet(fleet="fleet:FR:1", path="bay-of-biscay"), C)
    assert out.state.units["depot:FR:2"].location.kind is LocationKind.POOL  # 10.5.4 (000:1572)
    assert any("10.5.4" in e.text for e in out.events)


def test_a_stack_picks_up_unmoved_fleets_on_its_way():
    # 8.4.3 (000:1076-1080): fleets are added to a stack where it passes; no fleet moves twice.
    s = scene([{"id": "fleet:GB:1", "location": "port:plymouth", "heavy": 5},
               {"id": "fleet:GB:2", "location": "sea:english-channel", "heavy": 5}])
    s = move(s, "fleet:GB:1", "english-channel")
    with pytest.raises(IllegalAction, match="only as part of the stack it came to pick up"):
        move(s, "fleet:GB:1", "north-sea")
    s = move(s, "fleet:GB:1", "north-sea,norwegian-sea,north-atlantic,irish-sea,english-channel,bay-of-biscay", stack=True)
    assert str(s.units["fleet:GB:2"].location) == "sea:bay-of-biscay" == str(s.units["fleet:GB:1"].location)
    assert s.naval_moves["fleet:GB:1"].spent == 7 and s.naval_moves["fleet:GB:2"].spent == 6
    with pytest.raises(IllegalAction, match="no fleet moves twice"):
        move(s, "fleet:GB:2", "english-channel")
    t = scene([{"id": "fleet:GB:1", "location": "port:plymouth", "heavy": 5},
               {"id": "fleet:GB:2", "location": "sea:english-channel", "heavy": 5}])
    t = move(t, "fleet:GB:1", "english-channel")
    with pytest.raises(IllegalAction, match="has 0 movement points left"):
        move(t, "fleet:GB:1", "north-sea,norwegian-sea,north-atlantic,irish-sea,english-channel,bay-of-biscay,"
             "cape-finisterre", stack=True)


def test_attacking_the_transport_of_an_enemys_loaned_corps_declares_war_on_the_carrier():
    s = scene([{"id": "fleet:GB:1", "location": "sea:english-channel", "heavy": 5},
               {"id": "fleet:FR:1", "location": "port:brest", "heavy": 8}],
              phasing="FR", wars=(("FR", "PR"),),
              corps=[{"id": "corps:PR:I", "location": "aboard:fleet:GB:1", "infantry": 4}])
    s = s.with_unit(s.units["corps:PR:I"].replace(loaned_to="GB"))
    s = move(s, "fleet:FR:1", "english-channel", power="FR")
    out = engine.apply_action(s, "FR", Attack(place="english-channel"), C)
    assert "GB" in out.state.powers["FR"].wars  # 8.6 (000:1132): no restrictions
    assert any("declares war on GB" in e.text for e in out.events)
    (b,) = out.state.naval_battles.values()
    assert b.defenders == ("fleet:GB:1",)
    t = s.with_unit(s.units["corps:PR:I"].replace(location=Location(LocationKind.AREA, "london")))
    with pytest.raises(IllegalAction, match="no fleet of a power at war with FR"):
        engine.apply_action(t, "FR", Attack(place="english-channel"), C)


def test_a_depot_inside_a_port_city_is_lost_when_blockaded_and_leaves_when_the_siege_ends():
    # 10.3.2 (000:1316-1320), 10.5.3 "Port City Supply" (000:1556-1562): a depot inside a besieged port city.
    from eiapbem.rules.land import seasupply
    from eiapbem.rules.model import Depot

    s = scene([{"id": "fleet:FR:1", "location": "port:nantes", "heavy": 3}], phasing="FR", phase=Phase.LAND,
              corps=[{"id": "corps:GB:I", "location": "area:brest", "infantry": 8, "besieging": True}],
              garrisons=[{"nation": "FR", "city": "brest", "infantry": 4}])
    s = s.with_unit(Depot(id="depot:FR:1", power="FR", location=Location(LocationKind.AREA, "nantes")))
    s = s.with_unit(Depot(id="depot:FR:2", power="FR", location=Location(LocationKind.CITY, "brest")))
    assert seasupply.sea_cost_halves(s, C.map, "brest", "FR") == 1
    assert seasupply.tidy_city_depots(s, C, "FR").state.units["depot:FR:2"].location.kind is LocationKind.CITY
    from eiapbem.rules.model import Fleet, Ships
    blockaded = s.with_unit(Fleet(id="fleet:GB:1", nation="GB", location=Location(LocationKind.BLOCKADE, "brest"),
                                  ships=Ships(heavy=5)))
    assert seasupply.sea_cost_halves(blockaded, C.map, "brest", "FR") is None
    assert seasupply.tidy_city_depots(blockaded, C, "FR").state.units["depot:FR:2"].location.kind is LocationKind.POOL
    lifted = s.with_unit(s.units["corps:GB:I"].replace(location=Location(LocationKind.AREA, "rennes"), besieging=False))
    assert str(seasupply.tidy_city_depots(lifted, C, "FR").state.units["depot:FR:2"].location) == "area:brest"


def test_a_blockade_sailed_in_the_naval_phase_costs_the_port_its_trade_in_the_economic_phase():
    from eiapbem.rulecases.procedures.economy import build_state, context
    from eiapbem.rules.economy.phase import run_steps
    from eiapbem.rules.model import Slot

    ec = context(Dice(b"economy-after-blockade", {}, strict=False))
    base = build_state({"wars": [["FR", "SP"]], "trade": {"SP": ["GB"], "GB": ["SP"]},
                        "units": {"fleet:FR:1": {"at": "port:bordeaux", "light": 5}}}, ec)
    economic = base.slot
    naval = base.replace(slot=Slot(phase=Phase.NAVAL, step="turn", power="FR", actors=("FR",)))
    blockading = engine.apply_action(naval, "FR", MoveFleet(fleet="fleet:FR:1", path="bay-of-biscay,box:ferrol"), ec).state

    def ferrol(state):
        w = run_steps(state.replace(slot=economic), ec)
        return [ln for ln in w.ledger.lines if ln.item == "trade Ferrol"]

    assert sum(ln.money for ln in ferrol(base) if ln.fund == "SP") > 0  # Ferrol trades for Spain
    lost = ferrol(blockading)
    assert sum(ln.money for ln in lost) == 0, lost  # 12.2.1: a blockaded port does not trade (8.8)
    assert any("blockaded" in ln.detail for ln in lost), lost


def test_attacking_an_enemys_fleets_on_loan_to_a_neutral_returns_them_to_their_owner():
    s = scene([{"id": "fleet:SP:1", "location": "sea:cape-st-vincent", "heavy": 10},
               {"id": "fleet:GB:1", "location": "sea:cape-st-vincent", "heavy": 12}],
              wars=(("GB", "SP"),), alliances=[["RU", "SP"]])
    s = s.with_unit(s.units["fleet:SP:1"].replace(loaned_to="RU"))
    out = engine.apply_action(s, "GB", Attack(place="cape-st-vincent"), C)
    assert out.state.units["fleet:SP:1"].loaned_to is None  # 7.6.1 (000:1008)
    assert "RU" not in out.state.powers["GB"].wars
    (b,) = out.state.naval_battles.values()
    assert b.defenders == ("fleet:SP:1",)


def test_landing_rules_besieged_friendly_port_first_and_a_neutral_carrier_needs_access():
    from eiapbem.rules.naval.transport import Disembark

    s = scene([{"id": "fleet:FR:1", "location": "sea:english-channel", "heavy": 8}], phasing="FR", phase=Phase.LAND,
              corps=[{"id": "corps:FR:III", "location": "aboard:fleet:FR:1", "infantry": 6},
                     {"id": "corps:GB:I", "location": "area:brest", "infantry": 8, "besieging": True}],
              garrisons=[{"nation": "FR", "city": "brest", "infantry": 2}])
    with pytest.raises(IllegalAction, match=r"must land in its area \(10\.4\.5"):
        engine.apply_action(s, "FR", Disembark(corps="corps:FR:III", area="plymouth"), C)
    landed = engine.apply_action(s, "FR", Disembark(corps="corps:FR:III", area="brest"), C).state
    assert str(landed.units["corps:FR:III"].location) == "area:brest"
    # A Spanish fleet (Spain at peace with Britain) carrying a French corps cannot land it in Britain.
    t = scene([{"id": "fleet:SP:1", "location": "sea:english-channel", "heavy": 8}], phasing="FR", phase=Phase.LAND,
              corps=[{"id": "corps:FR:III", "location": "aboard:fleet:SP:1", "infantry": 6}])
    with pytest.raises(IllegalAction, match="7.6.1 NOTE"):
        engine.apply_action(t, "FR", Disembark(corps="corps:FR:III", area="plymouth"), C)


def test_fleets_a_neutral_lent_to_the_enemy_leave_the_loan_and_no_combat_is_left():
    # 7.6.1 (000:1006): FR at war with RU, not SP; the only fleet at the place is Spain's, lent to Russia.
    s = scene([{"id": "fleet:SP:1", "location": "sea:cape-st-vincent", "heavy": 10},
               {"id": "fleet:FR:1", "location": "sea:cape-st-vincent", "heavy": 12}],
              phasing="FR", wars=(("FR", "RU"),), alliances=[["RU", "SP"]])
    s = s.with_unit(s.units["fleet:SP:1"].replace(loaned_to="RU"))
    out = engine.apply_action(s, "FR", Attack(place="cape-st-vincent"), C)
    assert out.state.units["fleet:SP:1"].loaned_to is None
    assert not out.state.naval_battles  # nothing left to fight
    assert "SP" not in out.state.powers["FR"].wars
    assert any("stay out of the combat (7.6.1)" in e.text for e in out.events)
    with pytest.raises(IllegalAction, match="no fleet of a power at war with FR"):  # the loan is over: nothing to attack
        engine.apply_action(out.state.with_scratch(movement_over=False), "FR", Attack(place="cape-st-vincent"), C)
