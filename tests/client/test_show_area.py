"""``show area --json`` names the holder the rules name, as the text form beside it does (issue 30 item 1)."""

from __future__ import annotations

from battlekit import ctx, land_state

from eiapbem.client import show
from eiapbem.rules.model import CityControl

C = ctx()


def _text_holder(state, area):
    line = next(x for x in show.area(state, C.map, area) if x.strip().startswith("controlled by"))
    return line.split("controlled by ", 1)[1].split(";")[0]


def test_a_ceded_province_is_held_by_the_power_it_was_ceded_to_13_3_2():
    s = land_state()
    province = C.map.area("vienna").province
    ceded = s.replace(ceded_provinces=s.ceded_provinces.set(province, "FR"))
    rec = show.area_record(ceded, C.map, "vienna")
    assert rec["controlled_by"] == "FR" == _text_holder(ceded, "vienna")
    assert show.area_record(s, C.map, "vienna")["controlled_by"] == "AU" == _text_holder(s, "vienna")


def test_the_city_record_names_the_city_holder_13_5_2():
    s = land_state()
    taken = s.replace(city_control=s.city_control.set("vienna", CityControl(nation="FR", since=s.date)))
    rec = show.area_record(taken, C.map, "vienna")
    assert rec["controlled_by"] == "AU" and rec["city"]["held_by"] == "FR"


def test_an_emptied_garrison_is_not_listed_among_the_units_of_the_area():
    # a city fallen to the enemy leaves its garrison counter empty: 'show area' lists the units a player sees
    from eiapbem.rules.model import Factors, Garrison, Location, LocationKind

    s = land_state()
    city = Location(LocationKind.CITY, "vienna")
    s = s.with_unit(Garrison(id="garrison:AU:city:vienna", nation="AU", location=city, factors=Factors(infantry=3)))
    s = s.with_unit(Garrison(id="garrison:FR:city:vienna", nation="FR", location=city, factors=Factors()))
    text = "\n".join(show.area(s, C.map, "vienna"))
    assert "garrison:AU:city:vienna" in text and "garrison:FR:city:vienna" not in text
