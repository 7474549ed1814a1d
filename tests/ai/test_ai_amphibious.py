"""Britain's amphibious play (``eiapbem.ai.amphibious``): a corps with no land route to the war is fetched and carried
to where it can fight, a landing keeps to the coast the plan aimed at, and no corps is left at sea (8.6, 8.6.3, 10.4.5).

Each scene is on the packaged map (``scene_state``) and is played by the computer through the engine; the tests assert
the behaviour (fetched, carried, landed, none lost), not the exact moves.
"""

from __future__ import annotations

import pytest

from eiapbem import ai
from eiapbem.client import duel
from eiapbem.client.campaign_measures import Chronicle
from eiapbem.core.dice import Dice
from eiapbem.data.context import rules_context
from eiapbem.rulecases.scene import scene_state
from eiapbem.rules.control import area_holder
from eiapbem.rules.model import POWERS, Location, LocationKind, MinorCountry, MinorStatus, Phase, PlayerKind, Slot
from eiapbem.rules.naval.movement import MoveFleet
from eiapbem.rules.naval.transport import Disembark, Load
from eiapbem.rules.relations import at_war


def ctx(seed: bytes = b"amphibious"):
    return rules_context(Dice(seed))


def _stranded_at_gibraltar(kind: str = "ai-hard", *, fleet: str = "port:portsmouth"):
    """Britain's naval slot, at war with France for two months: a British corps stands at Gibraltar, whose only land
    neighbours are neutral Spain's (13.4.1: no land route to the war), and Britain's fleet lies at ``fleet``."""
    s = scene_state({"date": "1805-06", "phasing": "GB", "wars": [["GB", "FR"]],
                     "fleets": [{"id": "fleet:GB:1", "location": fleet, "heavy": 12, "transport": 4}],
                     "corps": [{"id": "corps:GB:1", "location": "area:gibraltar", "infantry": 6},
                               {"id": "corps:FR:1", "location": "area:lille", "infantry": 4}]}, phase=Phase.NAVAL)
    s = s.with_war("GB", "FR", s.date.plus(-2), ("GB",))
    s = s.with_minor("gibraltar", MinorCountry(status=MinorStatus.CONQUERED, controller="GB"))  # as the scenario has it
    for p in POWERS:
        s = s.with_power(p, controller=PlayerKind(kind))
    return s


@pytest.mark.parametrize("kind", ["ai-hard", "ai-medium"])
def test_a_fleet_sails_to_fetch_a_corps_stranded_in_a_port(kind):
    turn = ai.play_slot(_stranded_at_gibraltar(kind), "GB", ctx())
    # the fleet sails into Gibraltar, where the corps can board it in the next naval slot (8.6.1)
    assert any(isinstance(a, MoveFleet) and a.fleet == "fleet:GB:1" for a in turn.actions)
    assert turn.state.units["fleet:GB:1"].location == Location(LocationKind.PORT, "gibraltar")
    assert not any(isinstance(a, Load) for a in turn.actions)


def test_with_its_fleet_in_the_port_the_stranded_corps_boards_and_is_carried_to_the_war():
    s = _stranded_at_gibraltar(fleet="port:gibraltar")
    turn = ai.play_slot(s, "GB", ctx())
    assert Load(fleet="fleet:GB:1", corps="corps:GB:1") in turn.actions
    assert turn.state.units["fleet:GB:1"].location.kind is LocationKind.SEA


def test_a_stranded_corps_is_re_embarked_within_a_few_months_and_never_lost_at_sea():
    """Played month after month by the computer (every power ``ai-hard``): fetched, boarded, landed on a coast of the
    war, with no corps left aboard at the end of a land phase (8.6.3)."""
    s = _stranded_at_gibraltar()
    chron = Chronicle()  # it keeps the journal
    played = duel.play(s, "classic-1805", b"stranded", 3, chronicle=chron)
    kinds = [(e.kind, (e.params or {}).get("corps")) for e in played.journal if e.author == "GB"]
    assert ("naval.load", "corps:GB:1") in kinds
    assert ("land.disembark", "corps:GB:1") in kinds
    assert not any(e.kind == "naval.lost-aboard" for e in played.journal)
    landed = [e for e in played.journal if e.kind == "land.disembark" and (e.params or {}).get("corps") == "corps:GB:1"]
    area = str(landed[-1].params["area"])
    holder = area_holder(played.state, ctx(), area)
    assert area != "gibraltar" and (holder == "GB" or at_war(played.state, "GB", holder)), area
    # the campaign measures count a landing as a corps moved that month (``land.disembark`` names its corps)
    landings = chron.figures(landed, 3)
    assert landings.months_moving["GB"] == 1 and landings.corps_moved["GB"] == 1


def _aboard_in_the_straits():
    """Britain's land slot: its corps is aboard its fleet in the Straits of Gibraltar, whose coasts are France's ally
    Spain's (neutral here), neutral Morocco's and Britain's Gibraltar."""
    s = _stranded_at_gibraltar(fleet="sea:straits-of-gibraltar")
    s = s.with_unit(s.units["corps:GB:1"].replace(location=Location(LocationKind.ABOARD, "fleet:GB:1")))
    return s.replace(slot=Slot(Phase.LAND, "turn", "GB", ("GB",)))


def test_a_corps_aboard_lands_on_a_friendly_coast_not_a_neutral_one():
    turn = ai.play_slot(_aboard_in_the_straits(), "GB", ctx(b"land"))
    assert Disembark(corps="corps:GB:1", area="gibraltar") in turn.actions  # not Fez or Tangier (neutral Morocco)
    assert not any(e.kind == "naval.lost-aboard" for e in turn.events)


def test_a_corps_aboard_is_never_left_at_sea_at_the_end_of_the_land_phase():
    s = _aboard_in_the_straits()
    # Gibraltar is full (30 counters outside its city, 10.4.2): the corps lands on another coast rather than be lost
    for i in range(30):
        s = s.with_unit(s.units["corps:GB:1"].replace(id=f"corps:GB:x{i}", location=Location(LocationKind.AREA, "gibraltar"),
                                                     factors=s.units["corps:GB:1"].factors))
    turn = ai.play_slot(s, "GB", ctx(b"land"))
    assert turn.state.units["corps:GB:1"].location.kind is LocationKind.AREA
    assert not any(e.kind == "naval.lost-aboard" for e in turn.events)


def _far_in_kiev(phase: Phase = Phase.LAND):
    """Britain, at war with France and allied with Russia, Prussia and Austria, which grant it access (a land route to the war, 13.4.1): a
    British corps landed long ago stands at Kiev, far from any
    French corps or city (``amphibious.FAR``), and Britain's fleet lies at Odessa, a port next door."""
    s = scene_state({"date": "1805-06", "phasing": "GB", "wars": [["GB", "FR"]], "alliances": [["GB", "RU"], ["GB", "AU"], ["GB", "PR"]],
                     "fleets": [{"id": "fleet:GB:1", "location": "port:odessa", "heavy": 12, "transport": 4}],
                     "corps": [{"id": "corps:GB:1", "location": "area:kiev", "infantry": 8},
                               {"id": "corps:FR:1", "location": "area:lille", "infantry": 8}]}, phase=phase)
    s = s.with_war("GB", "FR", s.date.plus(-2), ("GB",))
    return _with_access(s)


def _with_access(s):
    from eiapbem.rules.model.powers import Access, AccessKind

    for p in POWERS:
        s = s.with_power(p, controller=PlayerKind.AI_HARD)
    for host in ("RU", "AU", "PR"):
        s = s.with_power(host, access=s.powers[host].access.set("GB", Access(kind=AccessKind.VOLUNTARY)))
    return s


def test_a_corps_far_from_the_war_marches_to_a_port_and_is_carried_back_to_it():
    from eiapbem.ai import amphibious

    s = _far_in_kiev()
    b = ai.Builder(s, "GB", ctx())
    c = s.units["corps:GB:1"]
    assert amphibious.Reach(b).far(c) and not amphibious.Reach(b).stranded(c)
    turn = ai.play_slot(s, "GB", ctx())
    assert turn.state.units["corps:GB:1"].location.site == "odessa", turn.actions  # its muster port, where its fleet is
    # in the next naval slot it boards the fleet, which sails toward the war
    s = scene_state({"date": "1805-07", "phasing": "GB", "wars": [["GB", "FR"]], "alliances": [["GB", "RU"], ["GB", "AU"], ["GB", "PR"]],
                     "fleets": [{"id": "fleet:GB:1", "location": "port:odessa", "heavy": 12, "transport": 4}],
                     "corps": [{"id": "corps:GB:1", "location": "area:odessa", "infantry": 8},
                               {"id": "corps:FR:1", "location": "area:lille", "infantry": 4}]}, phase=Phase.NAVAL)
    s = _with_access(s.with_war("GB", "FR", s.date.plus(-3), ("GB",)))
    turn = ai.play_slot(s, "GB", ctx())
    assert Load(fleet="fleet:GB:1", corps="corps:GB:1") in turn.actions, turn.actions


def test_a_fleets_path_passes_a_port_between_two_seas_only_through_the_port():
    """Rome's box touches the Tyrrhenian and the Adriatic: the cheapest way the search gives from one to the other goes
    into the port and out again, never across the box from sea to sea (8.4.2), and the rules accept it as given for a
    fleet carrying a corps (which may enter the neutral papacy's port, 8.6.1)."""
    from eiapbem.rules import engine
    from eiapbem.rules.naval import graph

    s = scene_state({"date": "1805-06", "phasing": "GB", "wars": [["GB", "FR"]],
                     "fleets": [{"id": "fleet:GB:1", "location": "sea:tyrrhenian-sea", "heavy": 12, "transport": 4}],
                     "corps": [{"id": "corps:GB:1", "location": "area:naples", "infantry": 4},
                               {"id": "corps:FR:1", "location": "area:lille", "infantry": 4}]}, phase=Phase.NAVAL)
    s = s.with_unit(s.units["corps:GB:1"].replace(location=Location(LocationKind.ABOARD, "fleet:GB:1")))
    start, goal = Location(LocationKind.SEA, "tyrrhenian-sea"), Location(LocationKind.SEA, "adriatic-sea")
    path = graph.path_to(s, ctx().map, start, goal)
    assert path is not None and path[-1] == goal
    full = [start, *path]
    for i in range(1, len(full) - 1):
        if full[i].kind is LocationKind.BLOCKADE and full[i - 1].kind is LocationKind.SEA:
            assert full[i + 1] == Location(LocationKind.PORT, full[i].site), path
    assert graph.distances(s, ctx().map, start)[goal] == 2  # into the box (1), the port and out (0), the sea (1)
    names = ",".join(graph.place_name(p) for p in path if p.kind is not LocationKind.BLOCKADE)
    engine.apply_action(s, "GB", MoveFleet(fleet="fleet:GB:1", path=names, stack=True), ctx())
    # a blockade box is reached from the sea, not through its (enemy) port
    box = Location(LocationKind.BLOCKADE, "brest")
    assert graph.path_to(s, ctx().map, Location(LocationKind.PORT, "london"), box) == [
        Location(LocationKind.BLOCKADE, "london"), Location(LocationKind.SEA, "english-channel"), box]


def _corps_in_london(phase: Phase = Phase.NAVAL):
    """Britain, at war with France for two months beside its ally Prussia (at war with France too): its corps and a
    fleet with transports stand at London, and France's army stands at Lille across the Channel, whose crossing arrow
    this game does not use (4.1.1); Corsica, an island no French army reaches, is France's."""
    s = scene_state({"date": "1805-06", "phasing": "GB", "wars": [["GB", "FR"], ["PR", "FR"]], "alliances": [["GB", "PR"]],
                     "fleets": [{"id": "fleet:GB:1", "location": "port:london", "heavy": 12, "transport": 4}],
                     "corps": [{"id": "corps:GB:1", "location": "area:london", "infantry": 8},
                               {"id": "corps:FR:1", "location": "area:lille", "infantry": 40, "cavalry": 8},
                               {"id": "corps:PR:1", "location": "area:berlin", "infantry": 12}]}, phase=phase)
    s = s.with_war("GB", "FR", s.date.plus(-2), ("GB",)).with_war("PR", "FR", s.date.plus(-2), ("PR",))
    # a weak French coast beyond the French army's march: Corsica, France's, an island
    s = s.with_minor("corsica", MinorCountry(status=MinorStatus.CONQUERED, controller="FR"))
    for p in POWERS:
        s = s.with_power(p, controller=PlayerKind.AI_HARD)
    return s


def test_a_french_army_across_the_channel_keeps_no_british_corps_at_home():
    """With no Lille crossing in the game, the French army at Lille is no threat to London: Britain's corps at home
    boards its fleet and sails to the war (an enemy's weak coast or its fighting ally's), instead of standing guard."""
    from eiapbem.ai import assess

    s = _corps_in_london()
    assert not assess.capital_threats(s, ctx(), "GB")[0].enemy
    turn = ai.play_slot(s, "GB", ctx())
    assert Load(fleet="fleet:GB:1", corps="corps:GB:1") in turn.actions
    at = turn.state.units["fleet:GB:1"].location
    assert at.kind is LocationKind.SEA, at
    # where it sails it may land on a coast of the war: France's (or a minor's at war) or its ally Prussia's
    coasts = [a for a in ctx().map.coastal_areas(at.site)
              if (h := area_holder(turn.state, ctx(), a)) is not None and (at_war(turn.state, "GB", h) or h in ("GB", "PR"))]
    assert coasts, at
