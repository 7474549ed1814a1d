"""Spain's guerrillas at the computer's hands, and corps falling back where they are fed (issue 28 items 2 and 5):
situations with the expected behaviour.

- Spain invaded: its guerrillas (13.2.1, 000:2376-2406) move one area a month, inside Spain's home nation only, to
  destroy an ungarrisoned enemy depot (10.4.6), or go inside an empty city of Spain the enemy is near as its
  garrison; they are never compelled to fight where they end;
- a corps before a much stronger enemy falls back to a refuge where it is fed; a Turkish feudal corps with no such
  refuge stands down keeping its factors (13.2.3, 000:2448) rather than forage at a loss (10.5.1, 13.1).
"""

from __future__ import annotations

from battlekit import corps, ctx, land_state, leader
from eiapbem import ai
from eiapbem.ai import logistics, raids
from eiapbem.ai.levels import level
from eiapbem.rules.model import POOL, Date, Depot, Factors, Garrison, Location, LocationKind, Phase, PlayerKind, Slot

AREA = LocationKind.AREA


def _slot(state, power: str, phase: Phase = Phase.LAND, treasury: int = 0):
    s = state.replace(slot=Slot(phase=phase, step="turn", power=power, actors=(power,)))
    return s.with_power(power, controller=PlayerKind("ai-hard"), treasury=treasury)


def _spain_with_guerrillas(depot: str):
    """Spain at war with France since January; a French corps at Madrid (its city garrisoned), a guerrilla factor at
    Burgos, an ungarrisoned French depot at ``depot``."""
    s = land_state().with_war("SP", "FR", Date(1805, 1), ("FR",)).replace(date=Date(1805, 6))
    s = _slot(s, "SP").with_unit(Garrison(id="garrison:SP:city:madrid", nation="SP",
                                          location=Location(LocationKind.CITY, "madrid"), factors=Factors(infantry=4)))
    s = corps(s, "corps:SP:guerrilla-burgos", "burgos", corps_type="guerrilla", guerrilla=1)
    s = corps(s, "corps:FR:I", "madrid", infantry=12)
    return s.with_unit(Depot(id="depot:FR:1", power="FR", location=Location(AREA, depot)))


def test_a_guerrilla_moves_one_area_to_destroy_an_enemy_depot_at_every_level():
    for kind in ("ai-easy", "ai-medium", "ai-hard"):
        s = _spain_with_guerrillas("valladolid").with_power("SP", controller=PlayerKind(kind))
        turn = ai.play_slot(s, "SP", ctx(b"guerrilla"))
        assert turn.state.units["depot:FR:1"].location == POOL, kind  # 10.4.6: destroyed on entering Valladolid
        # one area, into Valladolid (and inside its empty city, the French being near)
        assert turn.state.units["corps:SP:guerrilla-burgos"].location.site == "valladolid", kind


def test_a_guerrilla_never_leaves_spain_and_goes_no_farther_than_one_area():
    # Oporto (Portugal) is next to Valladolid but outside Spain's home nation (000:2402); Zaragoza's depot is one area
    # from Burgos, Barcelona's two
    s = _spain_with_guerrillas("barcelona")
    b = ai.Builder(s, "SP", ctx(b"guerrilla"))
    ends = {end for _, end, _, _ in raids._options(b, level("ai-hard"), s.units["corps:SP:guerrilla-burgos"])}
    assert ends == {"burgos", "madrid", "oviedo", "pamplona", "valladolid", "zaragoza"}, ends
    b = ai.Builder(s.with_unit(s.units["corps:SP:guerrilla-burgos"].replace(location=Location(AREA, "valladolid"))),
                   "SP", ctx(b"guerrilla"))
    assert "oporto" not in {end for _, end, _, _ in raids._options(b, level("ai-hard"),
                                                                      b.state.units["corps:SP:guerrilla-burgos"])}
    # ending among the French at Madrid obliges it to nothing (13.2.1): it may go there
    turn = ai.play_slot(s, "SP", ctx(b"guerrilla"))
    assert not turn.state.battles




def test_a_guerrilla_garrisons_its_empty_capital_with_the_enemy_near():
    """Madrid's city is empty and a French corps stands at Zaragoza: the guerrilla in Madrid's area goes inside as its
    garrison (000:2396), so that no corps takes the capital by walking in (13.5.2), and stays there."""
    s = land_state().with_war("SP", "FR", Date(1805, 1), ("FR",)).replace(date=Date(1805, 6))
    s = _slot(s, "SP")
    s = corps(s, "corps:SP:guerrilla-madrid", "madrid", corps_type="guerrilla", guerrilla=1)
    s = corps(s, "corps:FR:I", "zaragoza", infantry=12)
    turn = ai.play_slot(s, "SP", ctx(b"guerrilla"))
    inside = Location(LocationKind.CITY, "madrid")
    assert turn.state.units["corps:SP:guerrilla-madrid"].location == inside
    assert not raids._unguarded(ai.Builder(turn.state, "SP", ctx(b"again")), "madrid")  # held: no walk-in now

def _feudal_before_russia(month: int):
    """Turkey at war with Russia: a Russian army of 30 factors at Bucharest, next to Turkey's Bulgarian feudal corps
    at Varna (forage 2); the refuges within its reach (Ruschuk, Adrianople: forage 3) are no better fed after a
    march; no money for depot supply; Constantinople garrisoned, the Janissaries under Ali Pasha there."""
    s = land_state().with_war("TU", "RU", Date(1805, 8), ("TU",)).replace(date=Date(1806, month))
    s = _slot(s, "TU").with_unit(Garrison(id="garrison:TU:city:constantinople", nation="TU",
                                          location=Location(LocationKind.CITY, "constantinople"),
                                          factors=Factors(infantry=6)))
    s = corps(s, "corps:TU:Janissary-I", "constantinople", infantry=6)
    s = leader(s, "leader:TU:ali-pasha", "corps:TU:Janissary-I")  # the army's head, far from the Russians
    s = corps(s, "corps:TU:Feudal-bulgaria", "varna", infantry=4, cavalry=2, corps_type="feudal")
    return corps(s, "corps:RU:I", "bucharest", infantry=30)


def test_a_feudal_corps_before_a_much_stronger_enemy_stands_down_rather_than_starve_in_a_refuge():
    """13.2.3 (000:2448): in January the feudal corps leaves the map keeping its factors instead of falling back on a
    city where it would forage at a loss with its movement spent (10.5.1, 13.1: +2 in winter); in June, when a refuge
    feeds it, it keeps its factors too."""
    for month in (1, 6):
        s = _feudal_before_russia(month)
        turn = ai.play_slot(s, "TU", ctx(b"fall-back"))
        u = turn.state.units["corps:TU:Feudal-bulgaria"]
        assert u.factors == s.units["corps:TU:Feudal-bulgaria"].factors, (month, u)
        assert month != 1 or u.location == POOL, u.location
        assert not [e for e in turn.events if e.kind == "land.forage" and (e.params or {}).get("lost")]


def test_a_corps_falls_back_to_a_refuge_where_it_is_fed():
    """The Janissaries in the same place fall back (no stand-down for them): to the refuge where the level accepts
    their supply, Adrianople with Turkey's depot, not Ruschuk beside the Russian army, nor Constantinople."""
    from eiapbem.ai import land

    s = _feudal_before_russia(1).without_unit("corps:TU:Feudal-bulgaria")
    s = corps(s, "corps:TU:Janissary-II", "varna", infantry=6)
    s = _slot(s, "TU", treasury=30).with_unit(Depot(id="depot:TU:1", power="TU", location=Location(AREA, "adrianople")))
    b = ai.Builder(s, "TU", ctx(b"fall-back"))
    lvl = level("ai-hard")
    assert land.fall_back(b, lvl, {"corps:TU:Janissary-I"}) == {"corps:TU:Janissary-II"}
    c = b.state.units["corps:TU:Janissary-II"]
    assert c.location == Location(AREA, "adrianople"), c.location
    assert logistics.supply_of(b, lvl, logistics.Budget.of(b), c, "adrianople", (0, ()), 0)[0]
