"""Winter quarters and corps brought home (issue 28 items 2 and 5): situations with the expected behaviour.

- winter (13.1, +2 to every forage roll in the winter zone, 10.5.1): an army with no goal stays in winter quarters
  instead of gathering on its head; with a goal, or in summer, it is not held back;
- Turkey in winter, its enemy over the sea: no corps gathers on the army's head or marches to a port no fleet lies
  in, its feudal corps stay or stand down keeping their factors (13.2.3, 000:2448); in summer the same army marches;
- Turkey at peace: idle feudal corps that would lose factors foraging stand down, keeping them;
- a corps of a power whose home nation the enemy has entered stays to fight at home: its fleets carry it on no
  invasion overseas (8.6);
- at peace, a corps left on an island of another nation is carried home by its fleets (8.6), not left idle there.
"""

from __future__ import annotations

from battlekit import corps, ctx, land_state, leader
from eiapbem import ai
from eiapbem.ai import amphibious, armies, operations
from eiapbem.ai.levels import level
from eiapbem.rules.model import (POOL, Corps, CorpsType, Date, Factors, Fleet, Garrison, Location, LocationKind, Phase,
                                 PlayerKind, Ships, Slot)

AREA = LocationKind.AREA


def _slot(state, power: str, phase: Phase = Phase.LAND, treasury: int = 0):
    s = state.replace(slot=Slot(phase=phase, step="turn", power=power, actors=(power,)))
    return s.with_power(power, controller=PlayerKind("ai-hard"), treasury=treasury)


def _prussia(month: int):
    """Prussia at war with France: Brunswick's corps at Berlin, a French corps at Paris and another at Stettin, in
    Prussia's home nation."""
    s = land_state().with_war("PR", "FR", Date(1805, 8), ("PR",)).replace(date=Date(1806, month))
    s = _slot(s, "PR")
    s = corps(s, "corps:PR:I", "berlin", infantry=8, cavalry=2)
    s = leader(s, "leader:PR:brunswick", "corps:PR:I")
    s = corps(s, "corps:FR:I", "paris", infantry=10)
    return corps(s, "corps:FR:II", "stettin", infantry=3)


def test_winter_quarters_for_an_army_with_no_goal():
    """``operations.winter_quarters``: in winter an army with no goal stays in quarters; one with a goal marches on
    it as the march's own supply judgement allows; in summer an army with no goal is not held back."""
    lvl = level("ai-hard")
    invader = armies.Goal("stettin", 10, 4, 3)
    for month, quarters in ((1, True), (6, False)):
        b = ai.Builder(_prussia(month), "PR", ctx(b"quarters"))
        head = b.state.units["corps:PR:I"]
        assert operations.winter_quarters(b, lvl, head, None) is quarters
        assert operations.winter_quarters(b, lvl, head, invader) is False


def _moved(before, after, prefix: str) -> list[str]:
    return [c for c, u in before.units.items() if c.startswith(prefix) and isinstance(u, Corps)
            and c in after.units and after.units[c].location.kind is not LocationKind.POOL
            and after.units[c].location != u.location]


def _turkey(month: int):
    """Turkey at war with Great Britain, whose only corps stands at London: the Imperial Cavalry under Ali Pasha at
    Adrianople, three feudal corps in areas around it (Sofia, Salonika, Varna: forage 2-3, the winter zone), and a
    garrison in Constantinople."""
    s = land_state().with_war("TU", "GB", Date(1805, 8), ("TU",)).replace(date=Date(1806, month))
    s = _slot(s, "TU")
    s = s.with_unit(Garrison(id="garrison:TU:city:constantinople", nation="TU",
                             location=Location(LocationKind.CITY, "constantinople"), factors=Factors(infantry=4)))
    s = corps(s, "corps:TU:Imperial-Cavalry", "adrianople", cavalry=6)
    s = leader(s, "leader:TU:ali-pasha", "corps:TU:Imperial-Cavalry")
    for cid, area in (("corps:TU:Feudal-bulgaria", "varna"), ("corps:TU:Feudal-macedonia", "salonika")):
        s = corps(s, cid, area, infantry=4, cavalry=2, corps_type="feudal")
    s = corps(s, "corps:TU:Janissary-I", "sofia", infantry=6)
    return corps(s, "corps:GB:I", "london", infantry=10)


def test_in_winter_an_army_whose_enemy_is_far_stays_in_quarters():
    """No corps marches to the head or to a port no fleet lies in; the feudal corps stay or stand down keeping their
    factors."""
    s = _turkey(1)
    turn = ai.play_slot(s, "TU", ctx(b"feudal"))
    assert not _moved(s, turn.state, "corps:TU"), _moved(s, turn.state, "corps:TU")
    for cid in ("corps:TU:Feudal-bulgaria", "corps:TU:Feudal-macedonia"):
        u = turn.state.units[cid]
        assert u.corps_type is CorpsType.FEUDAL
        assert u.location == POOL or u.location == s.units[cid].location, (cid, u.location)


def test_in_summer_the_same_army_marches():
    s = _turkey(6)
    turn = ai.play_slot(s, "TU", ctx(b"feudal"))
    assert _moved(s, turn.state, "corps:TU")


def _spain_invaded():
    """Spain at war with France, French corps at Burgos in Spain's home nation; Spain's II corps stands at Corunna
    with a fleet of 20 heavy ships, the French corps a march away by land."""
    s = land_state().with_war("SP", "FR", Date(1805, 1), ("FR",)).replace(date=Date(1805, 5))
    s = _slot(s, "SP", Phase.NAVAL, treasury=40)
    s = corps(s, "corps:SP:II", "corunna", infantry=12)
    s = s.with_unit(Fleet(id="fleet:SP:2", nation="SP", location=Location(LocationKind.PORT, "corunna"),
                          ships=Ships(heavy=20)))
    return corps(s, "corps:FR:I", "burgos", infantry=6)


def test_an_invaded_power_keeps_its_corps_at_home():
    s = _spain_invaded()
    b = ai.Builder(s, "SP", ctx(b"home"))
    amphibious.invade(b, level("ai-hard"))
    assert b.state.units["corps:SP:II"].location == s.units["corps:SP:II"].location
    # with the French gone from Spain the same corps sails on an invasion
    b = ai.Builder(s.without_unit("corps:FR:I"), "SP", ctx(b"home"))
    amphibious.invade(b, level("ai-hard"))
    assert b.state.units["corps:SP:II"].location.kind is LocationKind.ABOARD


def test_at_peace_a_corps_left_on_an_island_is_carried_home():
    """Spain at peace: its III corps stands at Ajaccio (Corsica, France's) with a Spanish fleet in its port."""
    s = land_state().replace(date=Date(1805, 8))
    s = _slot(s, "SP", Phase.NAVAL, treasury=40)
    s = corps(s, "corps:SP:III", "ajaccio", infantry=9)
    s = s.with_unit(Fleet(id="fleet:SP:1", nation="SP", location=Location(LocationKind.PORT, "ajaccio"),
                          ships=Ships(heavy=20)))
    b = ai.Builder(s, "SP", ctx(b"home"))
    amphibious.invade(b, level("ai-hard"))
    aboard = b.state.units["corps:SP:III"].location
    assert aboard.kind is LocationKind.ABOARD, aboard
    fleet = b.state.units["fleet:SP:1"].location
    assert fleet.kind is LocationKind.PORT and b.ctx.map.area(fleet.site).nation == "SP", fleet



def test_at_peace_idle_feudal_corps_that_would_starve_stand_down():
    """Turkey at peace in January: three feudal corps crowded at Salonika (forage 3, +2 for the others, +2 for winter)
    stand down keeping their factors rather than forage there (13.2.3, 000:2448)."""
    s = land_state().replace(date=Date(1806, 1))
    s = _slot(s, "TU")
    ids = ("corps:TU:Feudal-bulgaria", "corps:TU:Feudal-serbia", "corps:TU:Feudal-macedonia")
    for cid in ids:
        s = corps(s, cid, "salonika", infantry=4, cavalry=2, corps_type="feudal")
    turn = ai.play_slot(s, "TU", ctx(b"peace"))
    assert not [e for e in turn.events if e.kind == "land.forage" and (e.params or {}).get("lost")]
    assert any(turn.state.units[c].location == POOL for c in ids)
    assert sum(turn.state.units[c].factors.total for c in ids) == 18
