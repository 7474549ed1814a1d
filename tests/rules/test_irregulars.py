"""13.2.1 (000:2382): Spain's lost field combat in an unceded Spanish province raises one guerrilla factor there."""

from battlekit import corps, ctx, land_state

from eiapbem.rules.combat.field import start_field_battle
from eiapbem.rules.land import guerrillas
from eiapbem.rules.model import Date

C = ctx()


def _battle(area, ceded=False):
    s = land_state().with_war("FR", "SP", Date(1805, 9), ("FR",))
    if ceded:
        s = s.replace(ceded_provinces=s.ceded_provinces.set(C.map.area(area).province, "FR"))
    s = corps(s, "corps:FR:I", area, infantry=10)
    s = corps(s, "corps:SP:I", area, infantry=4)
    s = start_field_battle(s, area, ["corps:FR:I"], ["corps:SP:I"], C).state
    return s, next(iter(s.battles.values()))


def test_spain_losing_in_spain_raises_one_guerrilla_factor_there():
    s, b = _battle("madrid")
    won = b.replace(winner="attacker")
    s2, b2 = guerrillas.after_battle(s, won, C)
    assert guerrillas.on_map(s2) == 1 and any(g.location.site == "madrid" for g in guerrillas.guerrillas(s2))
    assert b2.events[-1].kind == "battle.guerrilla"
    # Spain winning, or losing in a ceded province, raises none.
    assert guerrillas.on_map(guerrillas.after_battle(s, b.replace(winner="defender"), C)[0]) == 0
    s3, b3 = _battle("madrid", ceded=True)
    assert guerrillas.on_map(guerrillas.after_battle(s3, b3.replace(winner="attacker"), C)[0]) == 0


def test_guerrillas_never_exceed_spains_counter_mix():
    s, _ = _battle("madrid")
    s, n = guerrillas.place(s, C, "madrid", 50)
    assert n == guerrillas.limit(C) == 20 and guerrillas.on_map(s) == 20
    s, n = guerrillas.place(s, C, "toledo", 1)
    assert n == 0
