"""Situations a computer player must handle as a strong player would (issue 28 item 5, land and naval).

Each test builds a seeded position on the packaged map (``battlekit``), plays the computer's slot with
``ai.play_slot`` (every action through the engine) and asserts the behaviour, not the exact moves:

- a lone enemy corps next to the capital: the answer is proportionate and the capital stays garrisoned;
- a port capital while the enemy has fleets: a garrison stays inside however far the enemy army is by land;
- a corps inside the capital's city marching off against an enemy within reach: it leaves a garrison behind (an enemy
  corps walks into an empty city, 13.5.2);
- an enemy corps in the capital's own area, its city empty: no stream of corps marches there to garrison a city
  none can enter past it; the answer is enough to win, and in winter no more;
- a broken enemy army next to a superior stack: the stack attacks, at every level;
- a lone enemy corps in the capital of an allied minor, beside the power's corps: it is answered (a month there
  conquers the minor, 13.3.1);
- an enemy stack in the home nation next to two corps, with help far off: the answer is led by a corps that reaches
  it this slot (11.2.11: the others of the army may join from next door), not held back by one from afar;
- winter: no stack marches into an area where foraging would cost more than the battle there, and the same march
  in summer, supplied, is made (so the restraint is judgement, not passivity);
- a beaten enemy army: the victor next to the enemy capital besieges it and tries an assault (11.4.1);
- a lone corps besieging a beaten enemy's capital: the army two areas off comes to the siege, storms the city when a
  breach allows it, and takes it within three months;
- a corps with a great leader, alone beyond its own territory: it takes no goal the enemy's army can close on before
  it has done its work, unless friendly forces can reach the goal as soon; with no enemy army in reach it marches;
- an enemy's army within reach of the capital: the army takes no goal from a far enemy, and without that army it does;
- an idle army of a power at war (Spain, its enemy beyond the Pyrenees; Turkey, its enemy beyond the Danube)
  marches toward the enemy with its depots;
- at peace, corps that would lose factors foraging together spread to supplied areas next door, then stay;
- a fleet shuttle ferrying enemy corps across a strait: the ferry is intercepted (its port blockaded, 8.8, so a
  fleet leaving it is intercepted at once, 8.5.4), and a ferry caught at sea with corps aboard is attacked (8.10).
"""

from __future__ import annotations

import dataclasses

import pytest

from battlekit import corps, ctx, land_state, leader
from eiapbem import ai
from eiapbem.ai import armies, assess, operations, strategy
from eiapbem.ai.levels import level
from eiapbem.rules import control, engine
from eiapbem.rulecases.scene import scene_state
from eiapbem.rules.land.movement import MoveUnit
from eiapbem.rules.land.sieging import Assault, Besiege
from eiapbem.rules.model import (POOL, Corps, CorpsType, Date, Depot, Factors, Garrison, Location,
                                 LocationKind, MinorCountry, MinorStatus, Phase, PlayerKind, Ships, Slot)
from eiapbem.rules.naval.attack import NavalAttack
from eiapbem.rules.naval.movement import MoveFleet
from eiapbem.rules.naval.transport import Load

LEVELS = ("ai-easy", "ai-medium", "ai-hard")


def _slot(state, power: str, kind: str, treasury: int = 40):
    s = state.replace(slot=Slot(phase=Phase.LAND, step="turn", power=power, actors=(power,)))
    return s.with_power(power, controller=PlayerKind(kind), treasury=treasury)


def _battles(turn, power: str) -> dict[str, list[str]]:
    """Area -> the attacking units of every battle ``power`` started in the slot."""
    return {b.area: list(b.attacker.units) for b in turn.state.battles.values() if b.attacker.power == power}


def _factors(state, ids) -> int:
    return sum(state.units[i].factors.total for i in ids if i in state.units)


# ----------------------------------------------------------------- a lone corps next to the capital


def _lone_corps_at_rouen(kind: str):
    """France's slot: a British corps has landed at Rouen, next to an empty Paris; Napoleon's army of six corps
    stands in Champagne and Lorraine, two to four movement points away."""
    s = land_state().with_war("GB", "FR", Date(1805, 8), ("GB",))
    s = _slot(s, "FR", kind)
    s = corps(s, "corps:GB:I", "rouen", infantry=10)
    army = (("corps:FR:I", "reims"), ("corps:FR:II", "reims"), ("corps:FR:III", "troyes"), ("corps:FR:IV", "troyes"),
            ("corps:FR:V", "nancy"), ("corps:FR:VI", "nancy"))
    for cid, area in army:
        s = corps(s, cid, area, infantry=10, cavalry=2)
    return leader(s, "leader:FR:napoleon", "corps:FR:I"), [cid for cid, _ in army]


@pytest.mark.parametrize("kind", LEVELS)
def test_a_lone_corps_next_to_the_capital_draws_a_proportionate_answer_and_the_capital_stays_garrisoned(kind):
    s, army = _lone_corps_at_rouen(kind)
    turn = ai.play_slot(s, "FR", ctx(b"lone-corps"))
    # Paris has French factors inside its city: a lone corps cannot walk in and take it (13.5.2)
    assert operations.inside(ai.Builder(turn.state, "FR", ctx()), "paris") >= 1
    # the British corps is answered this slot (France has the odds), and not by the whole army: the French factors
    # that fought at Rouen (those that attacked and any that joined from next door, 11.2.11) are at most half the army
    fought = _battles(turn, "FR")
    assert "rouen" in fought, kind
    assert _factors(s, fought["rouen"]) * 2 <= _factors(s, army), (kind, fought["rouen"])


def _army_inside_vienna(kind: str):
    """Austria's slot at war with Prussia: Charles's corps (14 factors) stands inside Vienna's city, the only Austrian
    force; a Prussian corps of 8 stands at Dresden, within reach of Vienna."""
    s = _slot(land_state().with_war("PR", "AU", Date(1805, 6), ("PR",)), "AU", kind)
    s = s.with_unit(Corps(id="corps:AU:I", nation="AU", corps_type=CorpsType.REGULAR,
                          location=Location(LocationKind.CITY, "vienna"),
                          factors=Factors(infantry=12, cavalry=2)))
    s = leader(s, "leader:AU:charles", "corps:AU:I")
    return corps(s, "corps:PR:I", "dresden", infantry=8)


@pytest.mark.parametrize("kind", LEVELS)
def test_a_corps_inside_the_capital_leaves_a_garrison_before_it_marches_off(kind):
    s = _army_inside_vienna(kind)
    turn = ai.play_slot(s, "AU", ctx(b"inside-vienna"))
    b = ai.Builder(turn.state, "AU", ctx())
    # the city is held by a garrison, or the corps stayed inside: no enemy corps walks into an empty Vienna
    assert operations.garrisoned(b, "vienna") >= 1 or operations.inside(b, "vienna") >= 1, kind


def _french_corps_at_madrid(kind: str, month: int):
    """Spain's slot, no money: a French corps (9 factors) stands in Madrid's area, its city empty; six Spanish corps
    of 12 factors stand one or two areas away, none with a leader."""
    s = land_state().with_war("FR", "SP", Date(1805, 1), ("FR",)).replace(date=Date(1805, month))
    s = _slot(s, "SP", kind, treasury=0)
    s = corps(s, "corps:FR:VI", "madrid", infantry=8, cavalry=1)
    for cid, area in (("corps:SP:I", "valencia"), ("corps:SP:II", "toledo"), ("corps:SP:III", "burgos"),
                      ("corps:SP:IV", "salamanca"), ("corps:SP:V", "valladolid"), ("corps:SP:Guard", "badajoz")):
        s = corps(s, cid, area, infantry=10, cavalry=2)
    return s


@pytest.mark.parametrize("kind", LEVELS)
@pytest.mark.parametrize("month", (1, 7))
def test_an_enemy_corps_at_the_capital_does_not_draw_every_corps_into_its_area(kind, month):
    # no corps gets inside the capital's city past the enemy in its area: the answer to the incursion is the one
    # sent (enough to win, and in winter no more than that), not a stream of would-be garrisons
    s = _french_corps_at_madrid(kind, month)
    turn = ai.play_slot(s, "SP", ctx(b"madrid"))
    sp = [c for c in s.units if c.startswith("corps:SP")]
    there = [c for c in sp if c in turn.state.units and turn.state.units[c].location.site == "madrid"]
    fought = _battles(turn, "SP").get("madrid", [])
    assert len(set(there) | set(fought)) <= 4, (kind, month, there, fought)
    if month == 7 and kind != "ai-easy":
        assert fought, kind  # in summer the French corps is attacked


def _london(kind: str, *, french_fleet: bool):
    """Britain's land slot at war with France: its corps of 10 stands in London's area, the city empty; France's
    army is in Paris, beyond the Channel (no land route), with or without a fleet at Brest."""
    fleets = [{"id": "fleet:FR:1", "location": "port:brest", "heavy": 8, "transport": 4}] if french_fleet else []
    s = scene_state({"date": "1805-06", "phasing": "GB", "wars": [["GB", "FR"]], "fleets": fleets,
                     "corps": [{"id": "corps:GB:I", "location": "area:london", "infantry": 10},
                               {"id": "corps:FR:I", "location": "area:paris", "infantry": 10}]}, phase=Phase.LAND)
    s = s.with_war("GB", "FR", s.date.plus(-3), ("GB",))
    return _slot(s, "GB", kind)


@pytest.mark.parametrize("kind", LEVELS)
def test_a_port_capital_keeps_a_garrison_while_the_enemy_has_fleets(kind):
    # 13.5.2: an enemy corps landed beside an empty capital walks into its city; a port capital is open to a landing
    # however far the enemy army stands by land (a French corps of 2 factors took an empty London)
    turn = ai.play_slot(_london(kind, french_fleet=True), "GB", ctx(b"london"))
    assert operations.inside(ai.Builder(turn.state, "GB", ctx()), "london") >= 1, kind
    quiet = ai.play_slot(_london(kind, french_fleet=False), "GB", ctx(b"london"))
    assert operations.inside(ai.Builder(quiet.state, "GB", ctx()), "london") == 0, kind  # no way to land: no garrison


# ----------------------------------------------------------------- a broken army next door


def _broken_army_at_linz(kind: str):
    """Austria's slot: a French army that lost its last battle (three corps down to 21 factors) stands at Linz, next
    to Vienna, where the Archduke Charles has four full corps (52 factors)."""
    s = _slot(land_state(), "AU", kind)
    for cid, inf in (("corps:FR:I", 8), ("corps:FR:II", 7), ("corps:FR:III", 6)):
        s = corps(s, cid, "linz", infantry=inf)
    s = leader(s, "leader:FR:davout", "corps:FR:I")
    for cid in ("corps:AU:I", "corps:AU:II", "corps:AU:III", "corps:AU:IV"):
        s = corps(s, cid, "vienna", infantry=11, cavalry=2)
    return leader(s, "leader:AU:charles", "corps:AU:I")


@pytest.mark.parametrize("kind", LEVELS)
def test_a_superior_stack_strikes_the_broken_army_next_door(kind):
    turn = ai.play_slot(_broken_army_at_linz(kind), "AU", ctx(b"broken"))
    assert "linz" in _battles(turn, "AU"), kind


# ----------------------------------------------------------------- an answer led by the corps that can reach

def _raider_at_munich(kind: str):
    """France's slot at war with Prussia: Bavaria is France's ally; four Prussian cavalry stand in Munich, its capital;
    three French corps of 12 stand at Augsburg and Ulm."""
    s = _slot(land_state().with_war("FR", "PR", Date(1805, 6), ("FR",)), "FR", kind)
    s = s.with_minor("bavaria", MinorCountry(status=MinorStatus.ALLIED, controller="FR"))
    s = corps(s, "corps:PR:Cav-I", "munich", cavalry=4)
    for cid, area in (("corps:FR:I", "augsburg"), ("corps:FR:II", "augsburg"), ("corps:FR:III", "ulm")):
        s = corps(s, cid, area, infantry=12)
    return s


@pytest.mark.parametrize("kind", LEVELS)
def test_a_raider_in_an_allied_minors_capital_is_answered(kind):
    s = _raider_at_munich(kind)
    turn = ai.play_slot(s, "FR", ctx(b"raider"))
    fought = _battles(turn, "FR")
    assert "munich" in fought, (kind, fought)
    assert _factors(s, fought["munich"]) <= 24, kind  # an answer, not the whole army


def _stack_at_linz_with_help_far_off(kind: str):
    """Austria's slot: two French corps (20 factors) stand at Linz, in Austria, next to two Austrian corps at Vienna
    (28 factors); two more Austrian corps are in Debrecen, beyond a month's march, and the Archduke Charles is at
    Prague with one corps."""
    s = _slot(land_state().with_war("AU", "FR", Date(1805, 5), ("AU",)), "AU", kind, treasury=60)
    for cid in ("corps:FR:I", "corps:FR:II"):
        s = corps(s, cid, "linz", infantry=10)
    for cid, area in (("corps:AU:II", "vienna"), ("corps:AU:III", "vienna"), ("corps:AU:IV", "debrecen"),
                      ("corps:AU:V", "debrecen"), ("corps:AU:I", "prague")):
        s = corps(s, cid, area, infantry=12, cavalry=2)
    return leader(s, "leader:AU:charles", "corps:AU:I")


@pytest.mark.parametrize("kind", ("ai-easy", "ai-hard"))
def test_an_incursion_is_answered_by_the_corps_next_door_not_held_back_by_one_from_afar(kind):
    # the answer's corps are the nearest first (a corps from Debrecen is added when the two at Vienna are judged too
    # few at the answer's margin); the one leading the march must be one that reaches Linz this slot, else the two
    # at Vienna wait a month with the enemy in their land.  Easy (factors) and hard (the battle played forward)
    # judge the battle worth fighting here; medium's strength estimate does not.
    turn = ai.play_slot(_stack_at_linz_with_help_far_off(kind), "AU", ctx(b"answer"))
    fought = _battles(turn, "AU")
    assert "linz" in fought, kind
    assert {"corps:AU:II", "corps:AU:III"} <= set(fought["linz"]), fought


# ----------------------------------------------------------------- winter foraging


def _winter_scene(kind: str, month: int, *, supplied: bool):
    """Prussia's slot: a stack of five corps at Berlin, and a lone weak French corps in Lausitz next to it, outside
    Prussia's territory (a forest of forage value 2).  Without money every corps that marches there forages (+2 for
    the other corps, +2 in winter: a loss on most rolls, against a battle that would cost the French at most three
    factors); with a depot at Berlin and money it takes depot supply instead."""
    s = land_state().with_war("PR", "FR", Date(1805, 8), ("PR",)).replace(date=Date(1805, month))
    s = _slot(s, "PR", kind, treasury=60 if supplied else 0)
    for cid in ("corps:PR:I", "corps:PR:II", "corps:PR:III", "corps:PR:IV", "corps:PR:V"):
        s = corps(s, cid, "berlin", infantry=10, cavalry=1)
    s = leader(s, "leader:PR:brunswick", "corps:PR:I")
    s = corps(s, "corps:FR:I", "lausitz", infantry=3)
    depot = Location(LocationKind.AREA, "berlin") if supplied else POOL
    return s.with_unit(Depot(id="depot:PR:1", power="PR", location=depot))


@pytest.mark.parametrize("kind", LEVELS)
def test_in_winter_no_stack_marches_where_foraging_costs_more_than_the_battle(kind):
    s = _winter_scene(kind, 1, supplied=False)
    turn = ai.play_slot(s, "PR", ctx(b"winter"))
    pr = [c for c in s.units if c.startswith("corps:PR")]
    assert not any(turn.state.units[c].location.site == "lausitz" for c in pr if c in turn.state.units), kind
    assert "lausitz" not in _battles(turn, "PR")


def test_in_summer_with_a_depot_and_money_the_same_stack_strikes():
    turn = ai.play_slot(_winter_scene("ai-hard", 6, supplied=True), "PR", ctx(b"summer"))
    assert "lausitz" in _battles(turn, "PR")


# ----------------------------------------------------------------- a beaten army next to the capital


def _victors_next_to_vienna(kind: str):
    """France's slot: Napoleon's four corps (51 factors) stand at Linz, next to Vienna, after beating the Austrian
    field army, whose last corps (4 factors) has fled to Pest; Vienna's city holds a garrison of 8 factors."""
    s = _slot(land_state(), "FR", kind, treasury=60)
    for cid, inf in (("corps:FR:I", 12), ("corps:FR:II", 11), ("corps:FR:III", 10), ("corps:FR:IV", 10)):
        s = corps(s, cid, "linz", infantry=inf, cavalry=2)
    s = leader(s, "leader:FR:napoleon", "corps:FR:I")
    s = s.with_unit(Garrison(id="garrison:AU:city:vienna", nation="AU", location=Location(LocationKind.CITY, "vienna"),
                             factors=Factors(infantry=8)))
    return corps(s, "corps:AU:II", "pest", infantry=4)


@pytest.mark.parametrize("kind", LEVELS)
def test_the_victor_next_to_the_enemy_capital_besieges_it(kind):
    turn = ai.play_slot(_victors_next_to_vienna(kind), "FR", ctx(b"capital"))
    besiegers = [u for u in turn.state.units.values() if isinstance(u, Corps) and u.nation == "FR" and u.besieging]
    assert {u.location.site for u in besiegers} == {"vienna"}, kind
    # the besiegers are strong enough to try an assault (11.4.1) at every level's odds
    assert any(isinstance(a, Assault) and a.area == "vienna" for a in turn.actions), kind


def _siege_of_berlin(kind: str):
    """France's slot: Prussia's field army is beaten (its last corps, 4 factors, has fled to Posen); a French cavalry
    corps besieges Berlin (a garrison of 8 factors in a city of capacity 20, siege value 1) and Napoleon's three
    corps (39 factors) stand in Thuringia, two areas away, with no depot near."""
    s = _slot(land_state().with_war("FR", "PR", Date(1805, 6), ("FR",)), "FR", kind, treasury=60)
    s = s.with_unit(Garrison(id="garrison:PR:city:berlin", nation="PR", location=Location(LocationKind.CITY, "berlin"),
                             factors=Factors(infantry=8)))
    s = corps(s, "corps:FR:VIII", "berlin", cavalry=4)
    for cid, inf in (("corps:FR:I", 12), ("corps:FR:II", 11), ("corps:FR:III", 10)):
        s = corps(s, cid, "thuringia", infantry=inf, cavalry=2)
    s = leader(s, "leader:FR:napoleon", "corps:FR:I")
    s = corps(s, "corps:PR:II", "posen", infantry=4)
    return engine.apply_action(s, "FR", Besiege(unit="corps:FR:VIII"), ctx(b"siege")).state


@pytest.mark.parametrize("kind", LEVELS)
def test_the_army_comes_to_the_siege_of_a_beaten_enemys_capital_and_takes_it(kind):
    s = _siege_of_berlin(kind)
    # the siege under way is the army's goal, needing what storms a breach (``armies.STORM``)
    b = ai.Builder(s, "FR", ctx())
    goals = {g.area: g for g in armies.goals(b, level(PlayerKind(kind)), ())}
    assert goals["berlin"].storm and goals["berlin"].need >= 8 * armies.STORM
    turn = ai.play_slot(s, "FR", ctx(b"capital-0-0"))
    # Napoleon's corps ends its march in Berlin's area although foraging there is poor (forage value 2), besieges
    # and tries an assault the same month (11.4.1); the others close up
    head = turn.state.units["corps:FR:I"]
    assert head.location.site == "berlin" and head.besieging, kind
    assert control.city_power(turn.state, turn_map(), "berlin") == "PR"
    assert any(isinstance(a, Assault) and a.area == "berlin" for a in turn.actions), kind
    # month after month the siege goes on with an assault attempt each month: with these dice Berlin falls in the
    # second month (each attempt breaches the undergarrisoned walls on a 4 or more, and the storm must be won)
    for month in range(1, 3):
        if control.city_power(turn.state, turn_map(), "berlin") == "FR":
            break
        s = turn.state.replace(date=Date(1805, 9 + month),
                               slot=Slot(phase=Phase.LAND, step="turn", power="FR", actors=("FR",)))
        turn = ai.play_slot(s, "FR", ctx(b"capital-0-%d" % month))
    assert control.city_power(turn.state, turn_map(), "berlin") == "FR", kind


def turn_map():
    return ctx().map


# ----------------------------------------------------------------- an idle army with a war


def _spain_at_war_with_france(kind: str):
    """Spain's slot: at war with France, three Spanish corps (36 factors, Cuesta with the first) stand in Madrid, and the nearest French force
    is one corps at Toulouse, two areas beyond the Pyrenees; Spain has depot counters in its pool and $40."""
    s = _slot(land_state().with_war("SP", "FR", Date(1805, 8), ("SP",)), "SP", kind)
    for cid in ("corps:SP:I", "corps:SP:II", "corps:SP:III"):
        s = corps(s, cid, "madrid", infantry=10, cavalry=2)
    s = leader(s, "leader:SP:cuesta", "corps:SP:I")
    s = corps(s, "corps:FR:I", "toulouse", infantry=12)
    for i in (1, 2, 3):
        s = s.with_unit(Depot(id=f"depot:SP:{i}", power="SP", location=POOL))
    return s


@pytest.mark.parametrize("kind", LEVELS)
def test_an_idle_army_at_war_marches_toward_the_enemy(kind):
    # the army's head has no goal of its own worth its strength (the corps answering the French corps took the
    # stack): it joins their march instead of standing in Madrid, with a depot going ahead of it in its own land
    s = _spain_at_war_with_france(kind)
    turn = ai.play_slot(s, "SP", ctx(b"idle"))
    far = assess.distances_from(ctx(), "toulouse")
    ends = {c: turn.state.units[c].location.site for c in ("corps:SP:I", "corps:SP:II", "corps:SP:III")}
    # each corps is on its way (the cheapest route may lead by Valencia and the coast: no farther in areas)
    assert all(a != "madrid" and far[a] <= far["madrid"] for a in ends.values()), (kind, ends)
    assert any(far[a] < far["madrid"] for a in ends.values()), (kind, ends)


def _turkey_at_war_with_russia(kind: str):
    """Turkey's slot: at war with Russia, two Janissary corps (30 factors) stand at Adrianople, and a Russian corps at
    Odessa, beyond the Danube; Turkey has depot counters in its pool and $40."""
    s = _slot(land_state().with_war("TU", "RU", Date(1805, 8), ("TU",)), "TU", kind)
    for cid in ("corps:TU:Janissary-I", "corps:TU:Janissary-II"):
        s = corps(s, cid, "adrianople", infantry=12, cavalry=3)
    s = corps(s, "corps:RU:I", "odessa", infantry=12)
    for i in (1, 2, 3):
        s = s.with_unit(Depot(id=f"depot:TU:{i}", power="TU", location=POOL))
    return s


@pytest.mark.parametrize("kind", LEVELS)
def test_an_idle_turkish_army_at_war_marches_toward_the_enemy(kind):
    # one corps keeps Constantinople garrisoned (an enemy within reach); the other does not stand at Adrianople
    # but marches toward the Russians, its depot ahead of it in its own land
    turn = ai.play_slot(_turkey_at_war_with_russia(kind), "TU", ctx(b"tu"))
    far = assess.distances_from(ctx(), "odessa")
    ends = {c: turn.state.units[c].location.site for c in ("corps:TU:Janissary-I", "corps:TU:Janissary-II")}
    assert any(far[a] < far["adrianople"] for a in ends.values()), (kind, ends)


# ----------------------------------------------------------------- at peace


def _spain_at_peace(areas: tuple[str, ...], *, france_allied: bool = True):
    """Spain's land slot at peace; allied with France (its neighbour) unless ``france_allied`` is False."""
    s = land_state().replace(slot=Slot(phase=Phase.LAND, step="turn", power="SP", actors=("SP",)))
    if france_allied:
        s = s.with_alliance("SP", "FR", Date(1805, 1))
    s = s.with_power("SP", controller=PlayerKind("ai-hard"), treasury=2)
    for n, area in zip(("I", "II", "III", "IV"), areas):
        s = corps(s, f"corps:SP:{n}", area, infantry=8)
    return s


def test_at_peace_corps_that_would_starve_together_spread_and_then_stay():
    # four corps in Madrid with no money forage at +2 for the others there (10.5.1): the ones that would lose
    # factors go next door, where each is supplied; spread out, nothing moves (no marching back and forth); allied
    # with France, Spain has no border of a likely war to camp by
    turn = ai.play_slot(_spain_at_peace(("madrid",) * 4), "SP", ctx(b"peace"))
    ends = [turn.state.units[f"corps:SP:{n}"].location.site for n in ("I", "II", "III", "IV")]
    assert len(set(ends)) >= 3 and all(a == "madrid" or a in ctx().map.land_neighbours("madrid") for a in ends), ends
    again = ai.play_slot(_spain_at_peace(tuple(ends)), "SP", ctx(b"peace"))
    assert not [a for a in again.actions if isinstance(a, MoveUnit)], again.actions


def test_at_peace_spain_faces_its_neighbour_france_when_its_likely_enemy_is_out_of_reach():
    # its plan's likely enemy is no neighbour of Spain's: its army camps on the French border instead (``ai.deploy``),
    # one corps staying by Madrid, and once there it stays
    from eiapbem.ai import deploy

    s = _spain_at_peace(("madrid",) * 4, france_allied=False)
    b = ai.Builder(s, "SP", ctx(b"peace"))
    assert deploy.neighbour(b) == "FR"
    to_france = deploy.to_foe(b, "FR")
    ends: tuple[str, ...] = ("madrid",) * 4
    for _ in range(3):  # a few months' march
        turn = ai.play_slot(_spain_at_peace(ends, france_allied=False), "SP", ctx(b"peace"))
        ends = tuple(turn.state.units[f"corps:SP:{n}"].location.site for n in ("I", "II", "III", "IV"))
    found = deploy.camps(b, "FR", 2)  # three corps to camp, two to a camp
    assert found and (to_france(found[0]) or 0) < (to_france("madrid") or 99), found
    assert ends.count("madrid") == 1 and all(a in found for a in ends if a != "madrid"), (found, ends)
    again = ai.play_slot(_spain_at_peace(tuple(ends), france_allied=False), "SP", ctx(b"peace"))
    assert not [a for a in again.actions if isinstance(a, MoveUnit)], (ends, again.actions)


# ----------------------------------------------------------------- a ferry across the Channel


def _ferry_scene(kind: str, *, at_sea: bool = False):
    """France's naval slot: Britain ferries corps from Portsmouth across the English Channel with a weak escort (two
    heavy ships and four transports); France has eight heavy ships at Brest.  With ``at_sea`` the ferry is already
    in the Channel with a corps aboard (it lands in Britain's land phase)."""
    ferry = "sea:english-channel" if at_sea else "port:portsmouth"
    s = scene_state({"date": "1805-06", "phasing": "FR", "wars": [["GB", "FR"]],
                     "fleets": [{"id": "fleet:GB:1", "location": ferry, "heavy": 2, "transport": 4},
                                {"id": "fleet:FR:1", "location": "port:brest", "heavy": 8}],
                     "corps": [{"id": "corps:GB:1", "location": "area:portsmouth", "infantry": 6},
                               {"id": "corps:GB:2", "location": "area:portsmouth", "infantry": 5}]}, phase=Phase.NAVAL)
    s = s.with_war("GB", "FR", s.date.plus(-3), ("GB",))
    if at_sea:
        s = s.with_unit(s.units["corps:GB:1"].replace(location=Location(LocationKind.ABOARD, "fleet:GB:1")))
    return s.with_power("FR", controller=PlayerKind(kind)).with_power("GB", controller=PlayerKind.AI_HARD)


@pytest.mark.parametrize("kind", LEVELS)
def test_a_ferry_of_enemy_corps_across_the_channel_is_intercepted(kind):
    turn = ai.play_slot(_ferry_scene(kind), "FR", ctx(b"ferry"))
    # France's fleet holds the box of the ferry's port (8.8) ...
    assert turn.state.units["fleet:FR:1"].location == Location(LocationKind.BLOCKADE, "portsmouth"), kind
    # ... so when Britain next loads a corps and sails, its stack is intercepted leaving the port (8.5.4)
    gb = turn.state.without_scratch().replace(slot=Slot(phase=Phase.NAVAL, step="turn", power="GB", actors=("GB",)))
    gb = gb.with_power("GB", controller=PlayerKind.HUMAN)
    out = ai.apply_actions(gb, "GB", [Load(fleet="fleet:GB:1", corps="corps:GB:2")], ctx(b"gb"))
    try:
        ai.apply_actions(out.state, "GB", [MoveFleet(fleet="fleet:GB:1", path="english-channel")], ctx(b"gb"))
        moved = None
    except Exception as err:  # noqa: BLE001 - a refusal names why
        moved = err
    after = out.state if moved else ai.apply_actions(out.state, "GB", [MoveFleet(fleet="fleet:GB:1", path="english-channel")],
                                                      ctx(b"gb")).state
    fought = [x for x in after.naval_battles.values() if x.interception]
    assert fought and after.units["fleet:GB:1"].location.kind is not LocationKind.SEA, kind


@pytest.mark.parametrize("kind", LEVELS)
def test_a_ferry_caught_at_sea_with_corps_aboard_is_attacked(kind):
    turn = ai.plan(_ferry_scene(kind, at_sea=True), "FR", ctx(b"ferry-at-sea"))
    assert NavalAttack(place="english-channel") in turn.actions, kind


def test_a_stack_that_must_leave_a_box_sails_before_a_ferry_is_struck():
    """France's hard computer strikes the ferry in the Channel (8.10) while another French stack lies in the box of
    Lisbon, a port whose holder France is not at war with, which it must leave (8.8): it sails first, since no fleet
    of the power moves once a combat is declared, and the slot ends with both done."""
    s = _ferry_scene("ai-hard", at_sea=True)
    s = s.with_unit(s.units["fleet:FR:1"].replace(id="fleet:FR:2", location=Location(LocationKind.BLOCKADE, "lisbon"),
                                                  ships=Ships(heavy=4)))
    turn = ai.play_slot(s, "FR", ctx(b"ferry-at-sea"))
    acts = list(turn.actions)
    strike = acts.index(NavalAttack(place="english-channel"))
    assert any(isinstance(a, MoveFleet) and a.fleet == "fleet:FR:2" for a in acts[:strike]), acts
    assert turn.state.units["fleet:FR:2"].location != Location(LocationKind.BLOCKADE, "lisbon"), acts


# ----------------------------------------------------------------- a march on a capital through a hungry land


def _russians_at_strasbourg(kind: str):
    """Russia's slot in February (winter, 13.1): at war with France, Kutusov's four corps (44 factors) stand at
    Freiburg, four movement points from Paris, beyond their own territory; their one depot is at Stuttgart, behind them;
    France's field army is gone and Paris holds a garrison of 4 factors (siege value 1)."""
    s = _slot(land_state().with_war("RU", "FR", Date(1805, 6), ("RU",)), "RU", kind, treasury=10)
    s = s.replace(date=Date(1806, 2))
    for cid, inf in (("corps:RU:I", 12), ("corps:RU:II", 10), ("corps:RU:III", 10), ("corps:RU:IV", 8)):
        s = corps(s, cid, "freiburg", infantry=inf, cavalry=1)
    s = leader(s, "leader:RU:kutusov", "corps:RU:I")
    s = s.with_unit(Depot(id="depot:RU:1", power="RU", location=Location(LocationKind.AREA, "stuttgart")))
    return s.with_unit(Garrison(id="garrison:FR:city:paris", nation="FR", location=Location(LocationKind.CITY, "paris"),
                                factors=Factors(infantry=4)))


@pytest.mark.parametrize("kind", ("ai-medium", "ai-hard"))
def test_an_army_marching_on_a_capital_within_reach_does_not_turn_back_to_eat(kind):
    s = _russians_at_strasbourg(kind)
    start = assess.distance(ctx(), "freiburg", "paris")
    turn = ai.play_slot(s, "RU", ctx(b"hungry-march"))
    head = turn.state.units["corps:RU:I"].location.site
    # foraging on the way costs more than by its depot, but Paris ends the war: the army goes on to the area next to
    # Paris (10.5.1, 12.4.1) instead of staying by the depot behind it
    assert assess.distance(ctx(), head, "paris") <= 1, (kind, head)
    sites = [turn.state.units[c].location.site for c in ("corps:RU:I", "corps:RU:II", "corps:RU:III", "corps:RU:IV")]
    assert all(assess.distance(ctx(), a, "paris") <= start for a in sites), (kind, sites)


def test_a_capitals_walls_weigh_its_worth_as_a_goal():
    # 11.4.1: Paris (siege value 1) is breached by some die; Vienna (3) only once undergarrisoned; Constantinople (4)
    # never -- the armies weigh the capitals they can take
    s = land_state().with_war("RU", "TU", Date(1805, 6), ("RU",))
    s = s.with_unit(Garrison(id="garrison:AU:city:vienna", nation="AU", location=Location(LocationKind.CITY, "vienna"),
                             factors=Factors(infantry=22)))
    b = ai.Builder(s, "FR", ctx())
    assert armies.walls(b, "paris") == armies.OPEN
    assert armies.walls(b, "vienna") == armies.THINNED
    assert armies.walls(b, "constantinople") == armies.SHUT
    thin = s.with_unit(Garrison(id="garrison:AU:city:vienna", nation="AU", location=Location(LocationKind.CITY, "vienna"),
                                factors=Factors(infantry=12)))
    assert armies.walls(ai.Builder(thin, "FR", ctx()), "vienna") == armies.OPEN


# ----------------------------------------------------------------- a lone corps deep in enemy land


def _massena_at_regensburg(kind: str, *, austrians: int, french_near: int = 0):
    """France's slot: Massena's corps (12 factors) stands alone at Regensburg, next to Pilsen, an Austrian city with
    no garrison and no Austrian corps within six movement points; Austria's army (``austrians`` factors) stands at
    Hermannstadt, seven movement points from Pilsen (two months' forced march); with ``french_near``, a French corps
    of that many factors stands at Munich."""
    s = _slot(land_state(), "FR", kind)
    s = leader(corps(s, "corps:FR:IX", "regensburg", infantry=12), "leader:FR:massena", "corps:FR:IX")
    for k in range(austrians // 12):
        s = corps(s, f"corps:AU:{'I II III IV V'.split()[k]}", "hermannstadt", infantry=12)
    if austrians % 12:
        s = corps(s, "corps:AU:VI", "hermannstadt", infantry=austrians % 12)
    if french_near:
        s = corps(s, "corps:FR:II", "munich", infantry=french_near)
    return s


@pytest.mark.parametrize("kind", LEVELS)
@pytest.mark.parametrize("austrians, french_near, goes", ((48, 0, False), (8, 0, True), (48, 30, True)))
def test_a_lone_corps_takes_no_goal_deep_in_enemy_land_that_the_enemy_army_can_close_on(kind, austrians, french_near,
                                                                                       goes):
    s = _massena_at_regensburg(kind, austrians=austrians, french_near=french_near)
    b = ai.Builder(s, "FR", ctx())
    lvl = level(PlayerKind(kind))
    army = armies.Army("corps:FR:IX", "leader:FR:massena", ["corps:FR:IX"])
    aims = (strategy.Aim("AU", "pilsen", 4),)
    chosen = armies.goal(b, lvl, army, armies.goals(b, lvl, aims), {})
    # Austria's army of 48 can reach Pilsen within the month after Massena's arrival: alone, he does not go; with
    # no army in reach, or with a French corps at Munich able to join him as soon, he does; the easy level does not
    # judge the danger (``Level.exposure`` 0) and goes
    assert (chosen is not None and chosen.area == "pilsen") is (goes or not lvl.exposure), (kind, austrians,
                                                                                             french_near, chosen)
    assert bool(lvl.exposure) is (kind != "ai-easy")


def _prussia_between_two_enemies(kind: str, *, french_army: bool):
    """Prussia's slot at war with France and Austria: Blücher's army (36 factors) at Posen, an Austrian corps of 6 at
    Cracow beyond Prussia's border, and, with ``french_army``, France's army (60 factors) at Kassel, three movement
    points from Berlin."""
    s = land_state().with_war("PR", "FR", Date(1805, 6), ("PR",)).with_war("PR", "AU", Date(1805, 6), ("PR",))
    s = _slot(s, "PR", kind)
    for cid in ("corps:PR:I", "corps:PR:II", "corps:PR:III"):
        s = corps(s, cid, "posen", infantry=12)
    s = leader(s, "leader:PR:blucher", "corps:PR:I")
    s = corps(s, "corps:AU:I", "cracow", infantry=6)
    if french_army:
        for cid in ("corps:FR:I", "corps:FR:II", "corps:FR:III", "corps:FR:IV", "corps:FR:V"):
            s = corps(s, cid, "kassel", infantry=12)
    return s


@pytest.mark.parametrize("kind", LEVELS)
@pytest.mark.parametrize("french_army", (True, False))
def test_with_an_enemy_army_in_reach_of_the_capital_the_army_takes_no_goal_from_a_far_enemy(kind, french_army):
    s = _prussia_between_two_enemies(kind, french_army=french_army)
    b = ai.Builder(s, "PR", ctx())
    lvl = level(PlayerKind(kind))
    assert armies.threats(b) == (frozenset({"FR"}) if french_army else frozenset())
    army = armies.Army("corps:PR:I", "leader:PR:blucher", ["corps:PR:I", "corps:PR:II", "corps:PR:III"])
    chosen = armies.goal(b, lvl, army, armies.goals(b, lvl, ()), {})
    # the Austrian corps beyond the border is the army's goal only while no French army stands within reach of Berlin
    # (the easy level does not see the threat, ``Level.threats``, and goes)
    assert (chosen is not None and chosen.area == "cracow") is (not french_army or not lvl.threats), (kind, chosen)
    assert lvl.threats is (kind != "ai-easy")


# ----------------------------------------------------------------- an army next to the capital, the field army away


def _army_at_linz_vienna_thin(kind: str):
    """Austria's slot: Napoleon's army of five corps (55 factors) stands at Linz, next to Vienna; the Archduke
    Charles's corps (14 infantry) is inside Vienna's city over a garrison of 3 militia, the Grenadiers (7 guard) in
    its area, a corps of 18 factors with no leader next door at Brunn; Austria's field army (two corps, 30 factors)
    is three areas off at Temesvar."""
    s = _slot(land_state(), "AU", kind)
    for cid in ("corps:FR:I", "corps:FR:II", "corps:FR:III", "corps:FR:IV", "corps:FR:V"):
        s = corps(s, cid, "linz", infantry=10, cavalry=1)
    s = leader(s, "leader:FR:napoleon", "corps:FR:I")
    s = corps(s, "corps:AU:I", "vienna", infantry=14)
    s = s.with_unit(dataclasses.replace(s.units["corps:AU:I"], location=Location(LocationKind.CITY, "vienna")))
    s = leader(s, "leader:AU:charles", "corps:AU:I")
    s = corps(s, "corps:AU:Grenadier", "vienna", guard=7)
    s = s.with_unit(Garrison(id="garrison:AU:city:vienna", nation="AU", location=Location(LocationKind.CITY, "vienna"),
                             factors=Factors(militia=3)))
    for cid in ("corps:AU:II", "corps:AU:IV"):
        s = corps(s, cid, "temesvar", infantry=15)
    s = corps(s, "corps:AU:III", "brunn", militia=15, cavalry=3)
    return leader(s, "leader:AU:ferdinand", "corps:AU:II")


@pytest.mark.parametrize("kind", ("ai-medium", "ai-hard"))
def test_an_army_next_to_the_capital_finds_its_city_garrisoned_past_a_breach(kind):
    # 11.4.1 (000:1960): a garrison within 5 factors of Vienna's capacity (25) leaves no die that breaches its walls
    # (siege value 3); the corps inside the city fill the garrison before any marches off, so the army next door must
    # starve the city, not walk into it or storm it
    s = _army_at_linz_vienna_thin(kind)
    turn = ai.play_slot(s, "AU", ctx(b"vienna-thin"))
    b = ai.Builder(turn.state, "AU", ctx())
    assert operations.garrisoned(b, "vienna") >= 3 + 13, kind
    assert operations.garrisoned(b, "vienna") >= operations.garrison_wanted(ai.Builder(s, "AU", ctx()), level(kind), "vienna") - 1
    assert not armies.breachable(ai.Builder(turn.state, "FR", ctx()), "vienna"), kind


def _army_at_linz_corps_near_vienna(kind: str):
    """Austria's slot: France's army of five corps (47 factors, Napoleon's) stands at Linz, next to Vienna, whose
    city holds 4 militia; an insurrection corps (15 militia, 3 cavalry) stands in Vienna's area, a cavalry corps at
    Pressburg, a corps at Pest and two at Temesvar: 70 factors within three movement points, none of them enough
    with its neighbours to attack the French where they stand."""
    s = _slot(land_state(), "AU", kind)
    for cid, n in (("corps:FR:I", 8), ("corps:FR:III", 12), ("corps:FR:V", 8), ("corps:FR:VII", 13),
                   ("corps:FR:VIII", 6)):
        s = corps(s, cid, "linz", infantry=n)
    s = leader(s, "leader:FR:napoleon", "corps:FR:VII")
    s = corps(s, "corps:AU:Insurrection-II", "vienna", militia=15, cavalry=3)
    s = s.with_unit(Garrison(id="garrison:AU:city:vienna", nation="AU", location=Location(LocationKind.CITY, "vienna"),
                             factors=Factors(militia=4)))
    s = corps(s, "corps:AU:Light-I", "pressburg", cavalry=7)
    s = corps(s, "corps:AU:V", "pest", infantry=15)
    for cid in ("corps:AU:II", "corps:AU:IV"):
        s = corps(s, cid, "temesvar", infantry=15)
    return s


@pytest.mark.parametrize("kind", ("ai-medium", "ai-hard"))
def test_corps_near_the_capital_that_march_off_leave_it_garrisoned_against_the_army_next_door(kind):
    # the corps a month away could beat the French, so the first look asks only the level's garrison; but no answer
    # marches on Linz, so once the answers are chosen Vienna's garrison is brought up against the army next door
    # (``THREAT_SHARE`` of the army, 11.4.1) before any corps marches off
    s = _army_at_linz_corps_near_vienna(kind)
    before = operations.garrison_wanted(ai.Builder(s, "AU", ctx()), level(kind), "vienna")
    assert before == level(kind).garrison
    turn = ai.play_slot(s, "AU", ctx(b"vienna-near"))
    b = ai.Builder(turn.state, "AU", ctx())
    fr_battles = [x for x in turn.state.battles.values() if x.area == "linz"]
    if not fr_battles:
        want = operations.garrison_wanted(ai.Builder(s, "AU", ctx()), level(kind), "vienna", answered=set())
        assert want >= 47 * operations.THREAT_SHARE // 100
        assert operations.garrisoned(b, "vienna") >= want - 1, kind


def test_the_capitals_garrison_grows_with_a_threat_its_corps_near_cannot_answer():
    # one corps of 10 factors next door asks the level's 4, an army of 50 the 20 that leave Vienna not
    # undergarrisoned (11.4.1), unless Austria's own corps a month away can beat it (the answer deals with it then);
    # only walls that a full garrison shuts are worth it
    s = _slot(land_state(), "AU", "ai-hard")
    s = corps(s, "corps:FR:I", "linz", infantry=10)
    hard = level("ai-hard")
    assert operations.garrison_wanted(ai.Builder(s, "AU", ctx()), hard, "vienna") == hard.garrison
    s = corps(s, "corps:FR:II", "linz", infantry=40)
    assert operations.garrison_wanted(ai.Builder(s, "AU", ctx()), hard, "vienna") == 20
    assert operations.garrison_wanted(ai.Builder(s, "AU", ctx()), level("ai-easy"), "vienna") == level("ai-easy").garrison
    for cid in ("corps:AU:I", "corps:AU:II", "corps:AU:III", "corps:AU:IV", "corps:AU:V"):
        s = corps(s, cid, "pressburg", infantry=14)
    assert operations.garrison_wanted(ai.Builder(s, "AU", ctx()), hard, "vienna") == hard.garrison
    # Paris's walls (siege value 1) fall to a die whatever its garrison: an army next door asks no more than the level's
    s = corps(land_state(), "corps:AU:VI", "reims", infantry=50)
    assert operations.garrison_wanted(ai.Builder(s, "FR", ctx()), hard, "paris") == hard.garrison


@pytest.mark.parametrize("kind", ("ai-easy", "ai-medium", "ai-hard"))
def test_insurrection_corps_stay_in_austria_when_the_army_marches_on_the_enemy(kind):
    # 13.2.4 (000:2482): at Linz with a line corps, Vienna garrisoned, a French corps (12) at Augsburg in Bavaria: the
    # line corps goes for it, Austria's insurrection corps stay within Austria's home provinces and fight no battle
    # outside them, at every level (the rules refuse the move, ``forces.outside_home``; the computer asks them).
    s = _slot(land_state(), "AU", kind)
    s = s.with_unit(Garrison(id="garrison:AU:city:vienna", nation="AU", location=Location(LocationKind.CITY, "vienna"),
                             factors=Factors(militia=20)))
    s = corps(s, "corps:FR:IV", "augsburg", infantry=12)
    insurrection = ("corps:AU:Insurrection-I", "corps:AU:Insurrection-II")
    for cid in insurrection:
        s = corps(s, cid, "linz", militia=15, cavalry=3, corps_type="insurrection")
    s = corps(s, "corps:AU:I", "linz", infantry=12)
    for i in (1, 2, 3):
        s = s.with_unit(Depot(id=f"depot:AU:{i}", power="AU", location=POOL))
    turn = ai.play_slot(s, "AU", ctx(b"insurrection-home"))
    m = ctx().map
    assert turn.state.units["corps:AU:I"].location.site != "linz", kind  # the army does march
    for cid in insurrection:
        u = turn.state.units[cid]
        assert u.location == POOL or m.area(u.location.site).nation == "AU", (kind, cid, u.location)
        assert not any(cid in b.attacker.units + b.defender.units for b in turn.state.battles.values()), (kind, cid)


# ----------------------------------------------------------------- the capital besieged, a lure elsewhere


def _berlin_besieged(kind: str):
    """Prussia's slot at war with Austria: an Austrian army of 30 factors besieges Berlin (a garrison of 3 inside);
    Prussia's army (Blücher's three corps, 30 factors) stands at Kaschau, beside a lone Austrian corps of 6 militia
    at Pressburg (Austrian land, a short march from it)."""
    s = _slot(land_state().with_war("PR", "AU", Date(1805, 6), ("AU",)), "PR", kind)
    for cid in ("corps:AU:I", "corps:AU:II", "corps:AU:III"):
        s = corps(s, cid, "berlin", infantry=10)
        s = s.with_unit(dataclasses.replace(s.units[cid], besieging=True))
    s = s.with_unit(Garrison(id="garrison:PR:city:berlin", nation="PR", location=Location(LocationKind.CITY, "berlin"),
                             factors=Factors(infantry=3)))
    s = corps(s, "corps:AU:Insurrection-I", "pressburg", militia=6)
    for cid in ("corps:PR:I", "corps:PR:II", "corps:PR:III"):
        s = corps(s, cid, "kaschau", infantry=10)
    return leader(s, "leader:PR:blucher", "corps:PR:I")


@pytest.mark.parametrize("kind", LEVELS)
def test_the_army_marches_to_relieve_its_besieged_capital_not_after_a_lure(kind):
    # 6.4.2: a capital lost is a war lost. The corps near the lone Austrian corps at Pressburg do not chase it while
    # the army besieging Berlin stands unanswered: Prussia's army marches toward Berlin
    s = _berlin_besieged(kind)
    turn = ai.play_slot(s, "PR", ctx(b"berlin-besieged"))
    far = assess.distances_from(ctx(), "berlin")
    ends = [turn.state.units[c].location.site for c in ("corps:PR:I", "corps:PR:II", "corps:PR:III")]
    assert "pressburg" not in ends and "pressburg" not in _battles(turn, "PR"), (kind, ends)
    assert all(far[a] < far["kaschau"] for a in ends), (kind, ends)
