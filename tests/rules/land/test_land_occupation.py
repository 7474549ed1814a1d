"""Cities taken other than by siege (13.5; 000:2558-2582): walking into an empty enemy city (13.5.2) and neutral
forces leaving a city when a siege is announced (13.5.5).  France at war with Austria, September 1805."""

import pytest

from battlekit import corps, ctx, land_state
from eiapbem.core.errors import IllegalAction
from eiapbem.rules import engine
from eiapbem.rules.land.movement import MoveUnit
from eiapbem.rules.land.sieging import Besiege
from eiapbem.rules.model import Factors, Garrison, Location, LocationKind, garrison_id

C = ctx()


def _garrison(state, nation, area, **f):
    loc = Location(LocationKind.CITY, area)
    return state.with_unit(Garrison(id=garrison_id(nation, loc), nation=nation, location=loc, factors=Factors(**f)))


def test_a_corps_walks_into_an_empty_enemy_city_and_takes_it():
    s = corps(land_state(), "corps:FR:V", "munich", infantry=10)
    s = engine.apply_action(s, "FR", MoveUnit(unit="corps:FR:V", path="innsbruck", city=True), C).state
    assert s.units["corps:FR:V"].location == Location(LocationKind.CITY, "innsbruck")
    assert s.city_control["innsbruck"].nation == "FR"
    assert any("13.5.2" in e.text for e in s.log)


def test_a_city_with_only_a_neutral_garrison_inside_is_taken_and_not_called_ungarrisoned():
    # 13.5.2: only enemy forces keep a corps out; the log does not call a city with someone's garrison "ungarrisoned"
    s = _garrison(corps(land_state(), "corps:FR:V", "munich", infantry=10), "PR", "innsbruck", infantry=1)
    s = engine.apply_action(s, "FR", MoveUnit(unit="corps:FR:V", path="innsbruck", city=True), C).state
    assert s.city_control["innsbruck"].nation == "FR"
    [line] = [e.text for e in s.log if e.kind == "land.take-city"]
    assert "ungarrisoned" not in line and "no enemy force" in line


def test_a_garrisoned_enemy_city_is_not_entered_but_besieged():
    s = _garrison(corps(land_state(), "corps:FR:V", "munich", infantry=10), "AU", "innsbruck", infantry=2)
    with pytest.raises(IllegalAction, match=r"13\.5\.2"):
        engine.apply_action(s, "FR", MoveUnit(unit="corps:FR:V", path="innsbruck", city=True), C)


def test_neutral_forces_leave_a_city_when_the_siege_is_announced():
    s = _garrison(corps(land_state(), "corps:FR:V", "innsbruck", infantry=10), "AU", "innsbruck", infantry=2)
    s = _garrison(s, "PR", "innsbruck", infantry=3)  # Prussia is at war with no one here
    s = corps(s, "corps:PR:II", "innsbruck", infantry=4)
    s = s.with_unit(s.units["corps:PR:II"].replace(location=Location(LocationKind.CITY, "innsbruck")))
    s = engine.apply_action(s, "FR", Besiege(unit="corps:FR:V"), C).state
    moved = s.units["corps:PR:II"].location
    assert moved.kind is LocationKind.CITY and moved.site != "innsbruck"
    assert ctx().map.area(moved.site).nation == "PR"  # 13.5.5: the nearest city of its home nation
    assert "garrison:PR:city:innsbruck" not in s.units
    assert s.units[garrison_id("PR", moved)].factors.infantry == 3
    assert "garrison:AU:city:innsbruck" in s.units  # the enemy stays, besieged
