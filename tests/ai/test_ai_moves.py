"""The computer's missing moves (issue 19 item 1): invasions of several corps and of minors, forced marches, Cossack raids.

Small scenes on the packaged map (the rules-case harness ``scene_state`` and ``battlekit``); each plays a slot
with ``ai.play_slot`` (every action through the engine's checks) and looks at what the computer did.
"""

from __future__ import annotations

from eiapbem import ai
from eiapbem.core.dice import Dice
from eiapbem.data.context import rules_context
from eiapbem.rulecases.scene import scene_state
from eiapbem.rules.model import POOL, POWERS, Depot, FrozenMap, Location, LocationKind, MinorCountry, MinorStatus, Phase, PlayerKind, Slot
from eiapbem.rules.naval.transport import Disembark, FleetDepot, Load
from test_ai_war import _to_gb_land_slot  # every slot after GB's naval one up to its land slot


def ctx(seed: bytes = b"ai-moves"):
    return rules_context(Dice(seed))


# ----------------------------------------------------------------- invasions


def _invasion_scene(kind, corps, *, wars=(("GB", "FR"),), fleets=None):
    s = scene_state({"date": "1805-06", "phasing": "GB", "wars": [list(w) for w in wars],
                     "fleets": fleets or [{"id": "fleet:GB:1", "location": "port:portsmouth", "heavy": 10, "transport": 4}],
                     "corps": list(corps)}, phase=Phase.NAVAL)
    for a, b in wars:
        s = s.with_war(a, b, s.date.plus(-2), (a,))  # a war of this month is not invaded yet
    s = s.with_unit(Depot(id="depot:GB:1", power="GB", location=Location(LocationKind.AREA, "portsmouth")))
    s = s.with_unit(Depot(id="depot:GB:2", power="GB", location=POOL))
    s = s.with_power("GB", treasury=30)
    for p in POWERS:
        s = s.with_power(p, controller=PlayerKind(kind))
    return s


THREE = ({"id": "corps:GB:1", "location": "area:portsmouth", "infantry": 5},
         {"id": "corps:GB:2", "location": "area:portsmouth", "infantry": 4},
         {"id": "corps:GB:3", "location": "area:portsmouth", "infantry": 3})


def test_hard_carries_several_corps_in_one_invasion_and_lands_them_together_with_invasion_supply():
    s = _invasion_scene("ai-hard", THREE)
    naval = ai.play_slot(s, "GB", ctx())
    loads = [a.corps for a in naval.actions if isinstance(a, Load)]
    assert loads == ["corps:GB:1", "corps:GB:2", "corps:GB:3"]  # largest first, all fit (8.6.2: 20 + 16 half factors)
    assert naval.state.units["fleet:GB:1"].location.kind is LocationKind.SEA
    land = ai.play_slot(_to_gb_land_slot(naval.state), "GB", ctx(b"land"))
    assert FleetDepot(fleet="fleet:GB:1") in land.actions  # 10.5.4: the invaders draw supply from the fleet
    landed = [a for a in land.actions if isinstance(a, Disembark)]
    assert [a.corps for a in landed] == ["corps:GB:1", "corps:GB:2", "corps:GB:3"]
    assert len({a.area for a in landed}) == 1
    assert not any(e.kind == "naval.lost-aboard" for e in land.events)


def test_medium_carries_two_corps_and_the_fleets_room_bounds_an_invasion():
    s = _invasion_scene("ai-medium", THREE)
    loads = [a.corps for a in ai.play_slot(s, "GB", ctx()).actions if isinstance(a, Load)]
    assert loads == ["corps:GB:1", "corps:GB:2"]  # the level's two corps
    # a fleet of 6 heavy ships carries 12 half factors: the 5-factor corps only (10), not the 4 as well
    small = _invasion_scene("ai-hard", THREE, fleets=[{"id": "fleet:GB:1", "location": "port:portsmouth", "heavy": 6}])
    loads = [a.corps for a in ai.play_slot(small, "GB", ctx()).actions if isinstance(a, Load)]
    assert loads == ["corps:GB:1"]


def test_several_fleets_in_the_port_each_carry_what_fits_and_sail_as_one_stack():
    fleets = [{"id": "fleet:GB:1", "location": "port:portsmouth", "heavy": 6},
              {"id": "fleet:GB:2", "location": "port:portsmouth", "heavy": 5}]
    s = _invasion_scene("ai-hard", THREE, fleets=fleets)
    naval = ai.play_slot(s, "GB", ctx())
    loads = [(a.fleet, a.corps) for a in naval.actions if isinstance(a, Load)]
    assert loads == [("fleet:GB:1", "corps:GB:1"), ("fleet:GB:2", "corps:GB:2")]
    st = naval.state
    assert st.units["fleet:GB:1"].location == st.units["fleet:GB:2"].location
    assert st.units["fleet:GB:1"].location.kind is LocationKind.SEA


def test_a_neutral_minor_at_war_is_invaded_at_medium_and_hard_not_at_easy():
    from eiapbem.rules.control import area_holder

    corps = ({"id": "corps:GB:1", "location": "area:portsmouth", "infantry": 6},)
    for kind, invades in (("ai-hard", True), ("ai-medium", True), ("ai-easy", False)):
        s = _invasion_scene(kind, corps, wars=())
        s = s.with_power("GB", minor_wars=FrozenMap({"holland": s.date.plus(-2)}))  # 6.15: a war on neutral Holland
        naval = ai.play_slot(s, "GB", ctx())
        assert (naval.state.units["corps:GB:1"].location.kind is LocationKind.ABOARD) is invades, kind
        if invades:
            land = ai.play_slot(_to_gb_land_slot(naval.state), "GB", ctx(b"land"))
            where = land.state.units["corps:GB:1"].location
            assert where.kind is LocationKind.AREA and area_holder(land.state, ctx(), where.site) == "holland"


def test_a_minor_of_an_enemy_major_is_a_target_and_a_war_of_this_month_is_not():
    from eiapbem.ai import amphibious
    from eiapbem.ai.levels import level

    corps = ({"id": "corps:GB:1", "location": "area:gibraltar", "infantry": 6},)
    fleets = [{"id": "fleet:GB:1", "location": "port:gibraltar", "heavy": 10}]
    s = _invasion_scene("ai-hard", corps, wars=(("GB", "SP"),), fleets=fleets)
    s = s.with_minor("gibraltar", MinorCountry(status=MinorStatus.CONQUERED, controller="GB"))

    def areas(state):
        b = ai.Builder(state, "GB", ctx())
        return {a for _, a in amphibious.invasion_targets(b, level("ai-hard"), ["corps:GB:1"], Location(LocationKind.PORT, "gibraltar"))}

    neutral = areas(s)
    # Spain's coast (not Cadiz or Malaga next to Gibraltar: a march, not a voyage); neutral Portugal is not at war with GB
    assert "seville" in neutral and not {"cadiz", "malaga"} & neutral and "lisbon" not in neutral
    allied = areas(s.with_minor("portugal", MinorCountry(status=MinorStatus.ALLIED, controller="SP")))
    assert {"seville", "lisbon"} <= allied  # Spain's ally Portugal is at war with GB too (6.1.3)
    assert not areas(s.with_war("GB", "SP", s.date, ("GB",)))  # declared this month: blockades first


# ----------------------------------------------------------------- forced marches


def _land(kind, phasing, *placed):
    import battlekit

    s = battlekit.land_state().replace(slot=Slot(phase=Phase.LAND, step="turn", power=phasing, actors=(phasing,)))
    s = s.with_power(phasing, controller=PlayerKind(kind), treasury=50)
    for cid, area, inf in placed:
        s = battlekit.corps(s, cid, area, infantry=inf)
    return s


def _forced(turn):
    from eiapbem.rules.land.movement import MoveUnit

    return [(a.unit, a.path.split(",")[-1]) for a in turn.actions if isinstance(a, MoveUnit) and a.forced_march]


def test_a_corps_forced_marches_to_its_threatened_capital_at_medium_and_hard_not_at_easy():
    # 20 French factors at Munich, two movement points from Vienna; an Austrian corps 4 points away (3 + 1)
    for kind, forced in (("ai-hard", True), ("ai-medium", True), ("ai-easy", False)):
        s = _land(kind, "AU", ("corps:FR:I", "munich", 20), ("corps:AU:I", "lemberg", 12))
        turn = ai.play_slot(s, "AU", ctx(b"capital"))
        assert (_forced(turn) == [("corps:AU:I", "vienna")]) is forced, (kind, _forced(turn))
        if forced:
            assert turn.state.units["corps:AU:I"].location.site == "vienna"
            assert any(e.kind == "land.forage" and "forced march" in e.text for e in turn.events)  # 10.5.1: +1


def test_no_forced_march_when_the_forage_roll_could_wipe_the_corps_out():
    s = _land("ai-hard", "AU", ("corps:FR:I", "munich", 20), ("corps:AU:I", "lemberg", 2))
    assert _forced(ai.play_slot(s, "AU", ctx(b"small"))) == []


def test_hard_forced_marches_a_big_corps_into_a_battle_that_the_others_alone_would_not_fight():
    from eiapbem.ai import march

    # 10 Austrian factors at Munich (3000) against 8 French at Ulm (3200, 107%: short of hard's 150%);
    # 25 more French factors at Metz arrive only with the forced march's fifth point (13200 against 3000); its
    # forage roll there: +1 forced march, +2 other corps, against Freiburg's 2: 27 over the six faces, 4.5 factors
    s = _land("ai-hard", "FR", ("corps:AU:I", "munich", 10), ("corps:FR:I", "ulm", 8), ("corps:FR:II", "metz", 25))
    b = ai.Builder(s, "FR", ctx(b"strike"))
    march.strike(b, ai.level_of(s, "FR"))
    assert _forced(b) == [("corps:FR:II", "munich")]
    assert [b.state.units[c].location.site for c in ("corps:FR:I", "corps:FR:II")] == ["munich", "munich"]
    total, worst = march.forage_sixths(b, "corps:FR:II")
    assert (total, worst) == (27, 7)  # the attrition it accepted (hard: up to 20% of its 25 factors)
    # medium (10%) does not accept that roll: no march at all
    b = ai.Builder(s.with_power("FR", controller=PlayerKind.AI_MEDIUM), "FR", ctx(b"strike"))
    march.strike(b, ai.level_of(b.state, "FR"))
    assert b.actions == [] and b.state.units["corps:FR:II"].location.site == "metz"


# ----------------------------------------------------------------- Cossack raids


def _raid_scene(kind, *, cossack="munich", depots=("ulm",), french=()):
    import battlekit

    s = _land(kind, "RU").with_war("RU", "FR", battlekit.land_state().date.plus(-1), ("RU",))
    s = battlekit.corps(s, "corps:RU:Cossack-1", cossack, corps_type="cossack", cossack=1)
    for i, a in enumerate(depots, 1):
        s = s.with_unit(Depot(id=f"depot:FR:{i}", power="FR", location=Location(LocationKind.AREA, a)))
    for cid, area, inf in french:
        s = battlekit.corps(s, cid, area, infantry=inf)
    return s


def test_a_cossack_rides_through_and_destroys_an_ungarrisoned_enemy_depot_at_every_level():
    for kind in ("ai-easy", "ai-medium", "ai-hard"):
        turn = ai.play_slot(_raid_scene(kind), "RU", ctx(b"raid"))
        assert turn.state.units["depot:FR:1"].location == POOL, kind  # 10.4.6: destroyed on entering Ulm
        assert any(e.kind == "land.move" and "destroys the enemy depot" in e.text for e in turn.events)
        assert not any(b.attacker.power == "RU" for b in turn.state.battles.values())  # it never ends among the enemy


def test_a_raid_never_ends_among_enemy_field_forces_and_hard_keeps_out_of_their_reach():
    from eiapbem.ai import assess, raids
    from eiapbem.ai.levels import level

    def ends(state, kind):
        b = ai.Builder(state, "RU", ctx(b"options"))
        return {end for _, end, _, _ in raids._options(b, level(kind), state.units["corps:RU:Cossack-1"])}

    medium = ends(_raid_scene("ai-medium", french=(("corps:FR:I", "augsburg", 10),)), "ai-medium")
    assert "ulm" in medium and "augsburg" not in medium  # through Augsburg's corps (10.4.2) but never ending there
    s = _raid_scene("ai-hard", french=(("corps:FR:II", "metz", 10),))
    hard, medium = ends(s, "ai-hard"), ends(s, "ai-medium")
    assert hard and hard < medium
    for end in hard:  # no French corps within 4 movement points of where it ends
        assert assess.distance(ctx(), "metz", end) > raids.DANGER, end


def test_medium_ends_its_raid_where_it_cuts_the_enemy_supply_chain():
    from eiapbem.rules import supply
    from eiapbem.rules.model import Factors, Garrison

    # a French chain: Strasbourg (a supply source) and Wurzburg, linked only through Karlsruhe (10.3.3); both
    # depots garrisoned, so neither can be destroyed nor ended in
    s = _raid_scene("ai-medium", cossack="munich", depots=("strasbourg", "wurzburg"))
    for a in ("strasbourg", "wurzburg"):
        s = s.with_unit(Garrison(id=f"garrison:FR:area:{a}", nation="FR", location=Location(LocationKind.AREA, a),
                                 factors=Factors(infantry=1)))
    assert supply.supply_chain(s, ctx().map, "FR") == {"strasbourg": 1, "wurzburg": 2}
    turn = ai.play_slot(s, "RU", ctx(b"cut"))
    assert turn.state.units["corps:RU:Cossack-1"].location == Location(LocationKind.AREA, "karlsruhe")
    assert supply.supply_chain(turn.state, ctx().map, "FR") == {"strasbourg": 1}  # Wurzburg is cut off (000:1334)


def test_russia_places_its_cossacks_at_the_levy_check():
    # 12.9 (000:2348), 13.2.2: Cossacks made available at the levy check are placed.
    from eiapbem.rules.economy.phase import PlaceLevy
    from eiapbem.rules.model.slot import ORDERS

    s = _raid_scene("ai-hard")
    s = s.with_unit(s.units["corps:RU:Cossack-1"].replace(location=POOL))
    s = s.replace(slot=Slot(phase=Phase.ECONOMIC, step=ORDERS, power=None, actors=POWERS))
    orders = ai.orders(s, "RU", ctx(b"levy"))
    assert [a.corps for a in orders if isinstance(a, PlaceLevy)] == ["corps:RU:Cossack-1"]


def test_island_corps_march_to_the_fleets_port_and_the_fleet_waits_there_for_them():
    from eiapbem.ai import amphibious
    from eiapbem.rules.land.movement import MoveUnit

    fleets = [{"id": "fleet:GB:1", "location": "port:portsmouth", "heavy": 10}]
    s = _invasion_scene("ai-hard", ({"id": "corps:GB:1", "location": "area:london", "infantry": 5},), fleets=fleets)
    # the land slot: no land route leads from London to France (the Lille crossing is an option not used), so the
    # corps goes to Portsmouth, where its fleet lies (8.6.1: they board in the same port)
    b = ai.Builder(s.replace(slot=Slot(Phase.LAND, "turn", "GB", ("GB",))), "GB", ctx())
    amphibious.stage(b, ai.level_of(s, "GB"))
    assert b.actions == [MoveUnit(unit="corps:GB:1", path="portsmouth")]
    # the naval slot of a war declared this month: no invasion yet (blockades first), but the fleet with corps in
    # its port stays there instead of sailing to blockade, ready for next month
    fresh = s.with_unit(s.units["corps:GB:1"].replace(location=Location(LocationKind.AREA, "portsmouth")))
    fresh = fresh.with_war("GB", "FR", s.date, ("GB",))
    naval_turn = ai.play_slot(fresh, "GB", ctx())
    assert not any(isinstance(a, Load) for a in naval_turn.actions)
    assert naval_turn.state.units["fleet:GB:1"].location == Location(LocationKind.PORT, "portsmouth")
    no_corps = fresh.with_unit(fresh.units["corps:GB:1"].replace(location=Location(LocationKind.AREA, "london")))
    assert ai.play_slot(no_corps, "GB", ctx()).state.units["fleet:GB:1"].location.kind is LocationKind.BLOCKADE


def test_a_raider_that_took_an_empty_enemy_city_holds_it():
    from eiapbem.rules.model import CityControl

    s = _raid_scene("ai-hard", depots=())
    turn = ai.play_slot(s, "RU", ctx(b"take"))
    where = turn.state.units["corps:RU:Cossack-1"].location
    assert where.kind is LocationKind.CITY and any(e.kind == "land.take-city" for e in turn.events)  # 13.5.2
    held = s.with_unit(s.units["corps:RU:Cossack-1"].replace(location=where))
    held = held.replace(city_control=held.city_control.set(where.site, CityControl(nation="RU", since=s.date)))
    assert ai.play_slot(held, "RU", ctx(b"hold")).actions == ()


def test_the_escort_sails_past_enemy_fleets_it_outnumbers_by_the_levels_ratio():
    corps = ({"id": "corps:GB:1", "location": "area:portsmouth", "infantry": 5},)

    def loads(french_heavy):
        fleets = [{"id": "fleet:GB:1", "location": "port:portsmouth", "heavy": 12},
                  {"id": "fleet:FR:1", "location": "sea:english-channel", "heavy": french_heavy}]
        s = _invasion_scene("ai-hard", corps, fleets=fleets)
        return [a.corps for a in ai.play_slot(s, "GB", ctx()).actions if isinstance(a, Load)]

    assert loads(4) == ["corps:GB:1"]  # 12 warships against 4 in the Channel: 300%, over hard's 150%
    assert loads(10) == []  # 120%: it does not risk the corps


def test_no_voyage_to_a_coast_where_the_landing_would_have_to_relieve_a_besieged_port():
    """10.4.5: a corps landing on a coast with its power's besieged port must land in that port's area.  A Spanish
    corps fetched from Seville toward the war is not sailed to the Gulf of Lion or the Balearic Sea while French corps
    stand in Barcelona's area (besieging its city, or about to): the landing would set it down beside them, not on
    the weakly held coast it sailed for (Marseille, Montpellier, Valencia, which it may invade when Barcelona's area
    is clear)."""
    from eiapbem.ai import amphibious, fleets
    from eiapbem.ai.levels import level

    def scene(french):
        corps = [{"id": "corps:SP:1", "location": "area:seville", "infantry": 12}]
        if french:
            corps.append({"id": "corps:FR:1", "location": "area:barcelona", "infantry": 8})
        s = scene_state({"date": "1805-06", "phasing": "SP", "wars": [["FR", "SP"]],
                         "fleets": [{"id": "fleet:SP:1", "location": "port:seville", "heavy": 20}],
                         "corps": corps}, phase=Phase.NAVAL)
        s = s.with_war("FR", "SP", s.date.plus(-2), ("FR",))
        for p in POWERS:
            s = s.with_power(p, controller=PlayerKind.AI_HARD)
        return ai.Builder(s, "SP", ctx())

    def seas(b):
        return {sea for sea, _ in amphibious.invasion_targets(b, level("ai-hard"), ["corps:SP:1"],
                                                              Location(LocationKind.PORT, "seville"), 20, friendly=True)}

    threatened = scene(french=True)
    assert fleets.coast(threatened, "gulf-of-lion") == ("barcelona",)
    assert fleets.coast(threatened, "balearic-sea") == ("barcelona",)
    assert not {"gulf-of-lion", "balearic-sea"} & seas(threatened)
    assert {"bay-of-biscay", "english-channel"} <= seas(threatened)  # France's other coasts stay open
    quiet = scene(french=False)
    assert "barcelona" in fleets.coast(quiet, "gulf-of-lion") and "montpellier" in fleets.coast(quiet, "gulf-of-lion")
    assert "gulf-of-lion" in seas(quiet)


def test_a_stack_landing_on_an_allys_coast_avoids_the_area_an_enemy_stack_holds():
    """Britain's land slot: a corps aboard in the Balearic Sea, beside Spain (its ally, at war with France): France's
    corps of 15 stands in Barcelona's area (its city Spain's, not besieged), Valencia's is free; Spain grants Britain
    access (13.4.1).  The corps lands on Spain's free coast, not into a battle at Barcelona."""
    from eiapbem.rules.model import Corps
    from eiapbem.rules.model.powers import Access, AccessKind

    s = scene_state({"date": "1805-06", "phasing": "GB", "wars": [["GB", "FR"], ["SP", "FR"]],
                     "fleets": [{"id": "fleet:GB:1", "location": "sea:balearic-sea", "heavy": 12}],
                     "corps": [{"id": "corps:GB:II", "location": "area:london", "infantry": 10},
                               {"id": "corps:FR:I", "location": "area:barcelona", "infantry": 15}]}, phase=Phase.LAND)
    s = s.with_war("GB", "FR", s.date.plus(-3), ("GB",)).with_war("SP", "FR", s.date.plus(-3), ("FR",))
    s = s.with_alliance("GB", "SP", s.date.plus(-2))
    s = s.with_power("SP", access=s.powers["SP"].access.set("GB", Access(AccessKind.VOLUNTARY)))  # 6.11, 13.4.1
    s = s.with_unit(s.units["corps:GB:II"].replace(location=Location(LocationKind.ABOARD, "fleet:GB:1")))
    for p in POWERS:
        s = s.with_power(p, controller=PlayerKind.AI_HARD)
    land = ai.play_slot(s, "GB", ctx(b"ally-coast"))
    where = land.state.units["corps:GB:II"].location
    assert isinstance(land.state.units["corps:GB:II"], Corps) and where.kind is LocationKind.AREA
    assert where.site != "barcelona" and where.site in ("valencia", "cartagena", "majorca"), where
