"""Loans of 7.6 in land play (7.6.1, 000:1006; issue 16): with alliances possible, loaned corps meet the mover and the attacker."""

from battlekit import corps, ctx, land_state
from eiapbem.rules import engine
from eiapbem.rules.land.combat import Attack
from eiapbem.rules.land.movement import MoveUnit
from eiapbem.rules.model import LocationKind

C = ctx()


def _allied_au_ru(s):
    return s.with_alliance("AU", "RU", s.date)


def test_a_corps_loaned_by_an_enemy_to_a_friend_goes_back_when_the_mover_enters():
    # France (at war with Austria, at peace with Russia) enters Nancy, where Austria's II corps serves Russia.
    s = corps(_allied_au_ru(land_state()), "corps:FR:V", "strasbourg", infantry=12)
    s = corps(s, "corps:AU:II", "nancy", infantry=4)
    s = s.with_unit(s.units["corps:AU:II"].replace(loaned_to="RU"))
    out = engine.apply_action(s, "FR", MoveUnit(unit="corps:FR:V", path="nancy"), C)
    assert out.state.units["corps:AU:II"].loaned_to is None
    assert "the loan of corps:AU:II ends" in out.events[-1].text


def test_a_corps_loaned_by_a_friend_to_an_enemy_goes_home_when_attacked():
    # Russia's I corps serves Austria in Nancy beside Austria's I corps; France, at peace with Russia, attacks.
    s = corps(_allied_au_ru(land_state()), "corps:FR:V", "nancy", infantry=12)
    s = corps(s, "corps:AU:I", "nancy", infantry=8)
    s = corps(s, "corps:RU:I", "nancy", infantry=5)
    s = s.with_unit(s.units["corps:RU:I"].replace(loaned_to="AU"))
    out = engine.apply_action(s, "FR", Attack(area="nancy"), C)
    ru = out.state.units["corps:RU:I"]
    assert ru.loaned_to is None and ru.location.kind is LocationKind.AREA and ru.location.site != "nancy"
    (bid,) = [k for k in out.state.battles if k.startswith("battle:1805-09:nancy:")]
    assert out.state.battles[bid].defender.units == ("corps:AU:I",)
    assert any("the loan ends and they go home (7.6.1)" in e.text for e in out.events)
