"""A seaborne expedition ashore (``eiapbem.ai.amphibious.expedition``): corps its fleets landed overseas keep to the
coast the fleet can reach, take weak targets there, fall back to a port when outmatched, and a second corps is not
stranded on an island its corps are taking already (8.6, 10.4.5).

Each scene is on the packaged map (``scene_state``) and played by the computer through the engine; the tests assert the
behaviour (nearer the sea, a siege, a port reached), not the exact moves.
"""

from __future__ import annotations

from eiapbem import ai
from eiapbem.ai import amphibious
from eiapbem.core.dice import Dice
from eiapbem.data.context import rules_context
from eiapbem.rulecases.scene import scene_state
from eiapbem.rules.model import POWERS, Garrison, Location, LocationKind, Phase, PlayerKind
from eiapbem.rules.model.powers import Access, AccessKind


def ctx(seed: bytes = b"expedition"):
    return rules_context(Dice(seed))


def _scene(corps: list[dict], *, garrisons: list[dict] = (), alliances: list[list[str]] = (), phase: Phase = Phase.LAND):
    s = scene_state({"date": "1805-06", "phasing": "GB", "wars": [["GB", "FR"]] + [["SP", "FR"]] * bool(alliances),
                     "alliances": list(alliances),
                     "fleets": [{"id": "fleet:GB:1", "location": "port:portsmouth", "heavy": 12, "transport": 4}],
                     "corps": corps, "garrisons": list(garrisons)}, phase=phase)
    s = s.with_war("GB", "FR", s.date.plus(-3), ("GB",))
    for p in POWERS:
        s = s.with_power(p, controller=PlayerKind.AI_HARD)
    if alliances:
        s = s.with_power("SP", access=s.powers["SP"].access.set("GB", Access(kind=AccessKind.VOLUNTARY)))
    return s


def _to_sea(area: str) -> int:
    """Movement points from ``area`` to the nearest port area of the map."""
    from eiapbem.ai import assess

    c = ctx()
    near = assess.distances_from(c, area)
    return min(near[p] for p in c.map.ports() if p in near)


def test_an_expedition_on_an_enemy_coast_takes_a_weak_port_instead_of_marching_inland():
    """A British corps landed by Marseille, whose city a small French garrison holds, with the French army far off in
    Germany: it takes the coast (a siege of an enemy-held city near the sea), and none of it marches beyond the reach
    of the fleet."""
    s = _scene([{"id": "corps:GB:1", "location": "area:marseille", "infantry": 12},
                {"id": "corps:FR:1", "location": "area:hamburg", "infantry": 30}],
               garrisons=[{"nation": "FR", "city": "marseille", "infantry": 2},
                          {"nation": "FR", "city": "paris", "infantry": 10}])
    b = ai.Builder(s, "GB", ctx())
    reach = amphibious.Reach(b)
    assert amphibious.overseas(b, reach, s.units["corps:GB:1"])
    turn = ai.play_slot(s, "GB", ctx())
    c = turn.state.units["corps:GB:1"]
    assert _to_sea(c.location.site) <= amphibious.COAST, c.location
    from eiapbem.rules.control import city_holder

    # it besieges the city, or has taken it already (an assault when the odds allow, 11.4)
    took = city_holder(turn.state, ctx().map, "marseille") == "GB"
    assert c.location.site == "marseille" and (c.besieging or took), (c.location, c.besieging, turn.actions)


def test_an_outmatched_expedition_falls_back_to_a_port_its_fleet_can_enter():
    """A British corps at Montpellier, with a French army three times its strength at Lyon next door and Britain's
    Spanish ally at war with France holding Barcelona next door: it falls back to the allied port, where a fleet can
    carry it off, instead of waiting for the blow."""
    s = _scene([{"id": "corps:GB:1", "location": "area:montpellier", "infantry": 8},
                {"id": "corps:FR:1", "location": "area:lyon", "infantry": 30}],
               alliances=[["GB", "SP"]])
    b = ai.Builder(s, "GB", ctx())
    assert not amphibious.holds(b, "montpellier", 8)
    turn = ai.play_slot(s, "GB", ctx())
    c = turn.state.units["corps:GB:1"]
    assert c.location.site != "montpellier", turn.actions
    assert ctx().map.area(c.location.site).port is not None, c.location
    # there it waits for its fleet: the naval slot's pick-up takes it for idle (it could not hold where it stands)
    b2 = ai.Builder(turn.state, "GB", ctx())
    assert amphibious.Reach(b2, ai.level(PlayerKind.AI_HARD)).idle(turn.state.units["corps:GB:1"]) \
        or amphibious.holds(b2, c.location.site, 8)


def test_a_second_corps_is_not_sent_to_an_island_its_corps_take_already():
    """Corsica (one area, no land route anywhere) held by its minor, at war with Britain: with a British corps ashore
    there already, another corps is not aimed at it, while it would be without the first."""
    from eiapbem.rules.model import MinorCountry, MinorStatus

    base = _scene([{"id": "corps:GB:2", "location": "area:portsmouth", "infantry": 6},
                   {"id": "corps:FR:1", "location": "area:lille", "infantry": 30}], phase=Phase.NAVAL)
    base = base.with_minor("corsica", MinorCountry(status=MinorStatus.CONQUERED, controller="FR"))
    base = base.with_unit(Garrison(id="garrison:FR:city:ajaccio", nation="FR",
                                   location=Location(LocationKind.CITY, "ajaccio"), factors=base.units["corps:GB:2"].factors.replace(infantry=1)))
    lvl = ai.level(PlayerKind.AI_HARD)
    start = Location(LocationKind.SEA, "gulf-of-lion")

    def aimed(s):
        b = ai.Builder(s, "GB", ctx())
        return [a for _sea, a in amphibious.invasion_targets(b, lvl, ["corps:GB:2"], start, 12)]

    assert "ajaccio" in aimed(base)
    first = base.with_unit(base.units["corps:GB:2"].replace(id="corps:GB:1", location=Location(LocationKind.AREA, "ajaccio")))
    assert "ajaccio" not in aimed(first)


def test_a_corps_left_on_an_island_it_took_is_carried_off_though_no_target_is_in_reach():
    """Britain's naval slot: its corps stands on Corsica, which Britain took (a one-area island: no land route
    anywhere), its fleet in Ajaccio's port, and a French army at Marseille makes every French coast in reach too
    strong to land on: the corps boards and the stack sails for an open port off the island, instead of leaving the
    corps to forage there for the rest of the war."""
    from eiapbem.rules.model import MinorCountry, MinorStatus
    from eiapbem.rules.naval.transport import Load

    s = scene_state({"date": "1805-06", "phasing": "GB", "wars": [["GB", "FR"]],
                     "fleets": [{"id": "fleet:GB:1", "location": "port:ajaccio", "heavy": 12, "transport": 4}],
                     "corps": [{"id": "corps:GB:1", "location": "area:ajaccio", "infantry": 6},
                               {"id": "corps:FR:1", "location": "area:marseille", "infantry": 40}]}, phase=Phase.NAVAL)
    s = s.with_war("GB", "FR", s.date.plus(-3), ("GB",))
    for minor in ("corsica", "gibraltar"):
        s = s.with_minor(minor, MinorCountry(status=MinorStatus.CONQUERED, controller="GB"))
    for p in POWERS:
        s = s.with_power(p, controller=PlayerKind.AI_HARD)
    b = ai.Builder(s, "GB", ctx())
    reach = amphibious.Reach(b, ai.level(PlayerKind.AI_HARD))
    assert reach.marooned(s.units["corps:GB:1"])
    lvl = ai.level(PlayerKind.AI_HARD)
    assert not amphibious.invasion_targets(b, lvl, ["corps:GB:1"], Location(LocationKind.PORT, "ajaccio"), 12,
                                           fresh=True, friendly=True)
    turn = ai.play_slot(s, "GB", ctx())
    assert Load(fleet="fleet:GB:1", corps="corps:GB:1") in turn.actions, turn.actions
    fleet = turn.state.units["fleet:GB:1"]
    assert fleet.location.kind is LocationKind.PORT and fleet.location.site != "ajaccio", fleet.location


def test_an_expedition_beside_an_allied_army_in_france_keeps_to_weak_targets_and_loses_nothing():
    """A British corps of 12 and an Austrian army of 30 at Reims, Austria allied with Britain and at war with France,
    Paris held by 12 French factors: the expedition does not follow the allied army into a siege of Paris it could
    not carry alone (a storm of 12 against 12 loses it a third of its factors); it takes the weak French city where
    it stands, near the sea, and keeps every factor."""
    s = _scene([{"id": "corps:GB:1", "location": "area:reims", "infantry": 12},
                {"id": "corps:AU:1", "location": "area:reims", "infantry": 30},
                {"id": "corps:FR:1", "location": "area:munich", "infantry": 20}],
               garrisons=[{"nation": "FR", "city": "paris", "infantry": 12}], alliances=[["GB", "AU"]])
    s = s.with_war("AU", "FR", s.date.plus(-3), ("AU",))
    b = ai.Builder(s, "GB", ctx())
    assert amphibious.overseas(b, amphibious.Reach(b), s.units["corps:GB:1"])
    turn = ai.play_slot(s, "GB", ctx())
    c = turn.state.units["corps:GB:1"]
    assert not (c.location.site == "paris" and c.besieging), (c.location, turn.actions)
    on_map = (LocationKind.AREA, LocationKind.CITY)
    british = sum(u.factors.total for u in turn.state.units.values() if getattr(u, "nation", None) == "GB"
                  and getattr(u, "location", None) is not None and u.location.kind in on_map)
    assert british == 12, turn.actions
    assert _to_sea(c.location.site) <= amphibious.COAST


def test_a_landing_is_judged_against_the_whole_army_that_can_reach_it_by_next_month():
    """Brest, empty, from the Channel: with the French army of 40 at Hamburg (more than two months' march away) a
    British corps of 8 may land there; with it at Toulon, seven movement points off (beyond the six counted next door,
    within two months' march), it may not: landed, the corps could not be carried off before that army fell on it."""
    lvl = ai.level(PlayerKind.AI_HARD)
    start = Location(LocationKind.SEA, "english-channel")

    def aimed(where: str) -> list[str]:
        s = _scene([{"id": "corps:GB:1", "location": "area:portsmouth", "infantry": 8},
                    {"id": "corps:FR:1", "location": f"area:{where}", "infantry": 40}], phase=Phase.NAVAL)
        b = ai.Builder(s, "GB", ctx())
        return [a for _sea, a in amphibious.invasion_targets(b, lvl, ["corps:GB:1"], start, 12)]

    assert "brest" in aimed("hamburg")
    assert "brest" not in aimed("toulon")


def test_a_besieging_expedition_lifts_the_siege_when_an_army_it_cannot_hold_against_comes_within_reach():
    """A British corps of 12 besieging Marseille (2 French factors inside) when a French army of 40 stands at Lyon, a
    march away, and Britain's Spanish ally holds Barcelona: it does not wait for the blow in its siege lines; it lifts
    the siege and falls back toward a port its fleet can enter, where a fleet carries it off (10.4.7, 8.6)."""
    s = _scene([{"id": "corps:GB:1", "location": "area:marseille", "infantry": 12},
                {"id": "corps:FR:1", "location": "area:lyon", "infantry": 40}],
               garrisons=[{"nation": "FR", "city": "marseille", "infantry": 2}], alliances=[["GB", "SP"]])
    s = s.with_unit(s.units["corps:GB:1"].replace(besieging=True))
    b = ai.Builder(s, "GB", ctx())
    assert not amphibious.holds(b, "marseille", 12)
    turn = ai.play_slot(s, "GB", ctx())
    c = turn.state.units["corps:GB:1"]
    assert not c.besieging and c.location.site != "marseille", (c.location, turn.actions)
    # and with the French army far off in Germany, the siege goes on (or an assault has taken the city, 11.4)
    from eiapbem.rules.control import city_holder

    far = ai.play_slot(s.with_unit(s.units["corps:FR:1"].replace(location=Location(LocationKind.AREA, "hamburg"))),
                       "GB", ctx()).state
    kept = far.units["corps:GB:1"]
    assert kept.location.site == "marseille" and (kept.besieging or city_holder(far, ctx().map, "marseille") == "GB")


def test_an_expedition_beside_an_allys_army_takes_a_weak_port_by_the_sea_first():
    """A British corps of 12 at Barcelona beside a Spanish army (Spain allied with Britain and at war with France),
    Montpellier's city next door held by one French factor and the French army far off in Germany: the expedition
    itself takes the weak port by the sea (a siege, or the city taken) instead of being left idle to the land plan."""
    s = _scene([{"id": "corps:GB:1", "location": "area:barcelona", "infantry": 12},
                {"id": "corps:SP:1", "location": "area:barcelona", "infantry": 10},
                {"id": "corps:FR:1", "location": "area:hamburg", "infantry": 30}],
               garrisons=[{"nation": "FR", "city": "montpellier", "infantry": 1}], alliances=[["GB", "SP"]])
    b = ai.Builder(s, "GB", ctx())
    assert amphibious._with_allies(b, "barcelona")
    done = amphibious.expedition(b, ai.level(PlayerKind.AI_HARD), ["corps:GB:1"])
    assert done == {"corps:GB:1"}, b.actions
    assert b.state.units["corps:GB:1"].location.site == "montpellier", b.actions
