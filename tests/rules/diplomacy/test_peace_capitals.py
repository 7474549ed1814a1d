"""6.4 "The Effects of Peace": each side's forces leave the other's capital cities (000:736), so a capital taken in
the war is its owner's again at the peace (13.5.2, 000:2566) and its taxes come back (12.2.1, 000:2084)."""

from __future__ import annotations

import pytest

from eiapbem.client import duel
from eiapbem.core.dice import Dice
from eiapbem.data.context import rules_context
from eiapbem.rules import control, engine, peace_capitals
from eiapbem.rules.diplomacy.orders import AttemptInformalPeace
from eiapbem.rules.economy.common import national_capitals_occupied
from eiapbem.rules.model import (POWERS, CityControl, Corps, CorpsType, Factors, Garrison, Location, LocationKind, Phase,
                                 PlayerKind, Slot)
from eiapbem.rules.model.slot import ORDERS

VIENNA = Location(LocationKind.CITY, "vienna")


def ctx(seed: bytes = b"peace-capitals"):
    return rules_context(Dice(seed))


@pytest.fixture(scope="module")
def vienna_taken():
    """1805-01's diplomacy phase, every power human; Prussia at war with Austria holds Vienna's city with a
    garrison and a corps inside (Austria's garrison gone)."""
    st = duel.start_state("classic-1805", {p: PlayerKind.AI_HARD for p in POWERS}, b"peace-capitals")
    st = duel.play(st, "classic-1805", b"peace-capitals", 0).state  # the computer sets every power up
    for p in POWERS:
        st = st.with_power(p, controller=PlayerKind.HUMAN)
    st = st.replace(slot=Slot(Phase.DIPLOMACY, ORDERS, None, POWERS))
    for uid, u in sorted(st.units.items()):
        if u.location == VIENNA:
            st = st.without_unit(uid)
    corps = next(u for _, u in sorted(st.units.items()) if isinstance(u, Corps) and u.nation == "PR"
                 and u.location.kind is LocationKind.AREA)
    st = st.with_unit(corps.replace(location=VIENNA))
    st = st.with_unit(Garrison(id="garrison:PR:city:vienna", nation="PR", location=VIENNA, factors=Factors(infantry=3)))
    st = st.replace(city_control=st.city_control.set("vienna", CityControl(nation="PR", since=st.date)))
    st = st.with_war("PR", "AU", st.date.plus(-3), ("PR",))
    assert national_capitals_occupied(st, ctx(), "AU") == ("vienna",)
    return st, corps.id


def test_the_other_sides_forces_leave_a_capital_and_the_city_is_its_owners_again(vienna_taken):
    st, corps = vienna_taken
    after, lines = peace_capitals.withdraw_from_capitals(st.without_war("PR", "AU"), ctx(), "PR", "AU")
    assert after.units[corps].location == Location(LocationKind.AREA, "vienna")  # out into the rural area
    assert "garrison:PR:city:vienna" not in after.units
    home = [u for u in after.units.values() if isinstance(u, Garrison) and u.nation == "PR"
            and u.location.kind is LocationKind.CITY and ctx().map.area(u.location.site).nation == "PR"]
    total = sum(u.factors.total for u in home)
    before = sum(u.factors.total for u in st.units.values() if isinstance(u, Garrison) and u.nation == "PR"
                 and u.location.kind is LocationKind.CITY and ctx().map.area(u.location.site).nation == "PR")
    assert total == before + 3  # the three factors joined a Prussian home garrison
    assert "vienna" not in after.city_control and control.city_holder(after, ctx(), "vienna") == "AU"
    assert national_capitals_occupied(after, ctx(), "AU") == ()
    assert any("vienna" in text for _, text in lines)
    # a third power's forces are not touched by a peace it is not part of
    third, _ = peace_capitals.withdraw_from_capitals(st, ctx(), "FR", "AU")
    assert third.city_control.get("vienna") == CityControl(nation="PR", since=st.date)


def test_an_informal_peace_in_the_diplomacy_phase_gives_vienna_back(vienna_taken):
    st, corps = vienna_taken
    orders = {p: [] for p in POWERS}
    orders["PR"], orders["AU"] = [AttemptInformalPeace("AU")], [AttemptInformalPeace("PR")]
    out = engine.resolve_slot(st, orders, ctx(b"resolve"))
    assert "AU" not in out.state.powers["PR"].wars
    assert out.state.units[corps].location.kind is LocationKind.AREA
    assert national_capitals_occupied(out.state, ctx(), "AU") == ()
    assert any(e.kind == "diplomacy.capital-withdrawal" for e in out.events)


def test_a_ceded_province_is_the_victors_at_once_its_garrison_leaves_and_the_siege_ends():
    # 12.7 (000:2258): land ceded at a peace is ceded at the moment peace is declared. A peace that ceded Tyrol left
    # Austria's garrison in Innsbruck, France's corps besieging it for months, and the map drawing Tyrol as Austrian.
    from eiapbem.rulecases.procedures.diplomacy import _orders, diplomacy_state

    c = ctx()
    assert c.map.province("tyrol").capital == "innsbruck"
    inp = {"wars": [["FR", "AU"]], "orders": [
        {"power": "AU", "kind": "diplomacy.sue-for-peace", "to": "FR", "accept_unconditional": True},
        {"power": "FR", "kind": "diplomacy.surrender-terms", "enemy": "AU", "term": ["B.6"], "cede": ["tyrol"]}]}
    st = diplomacy_state(inp, c)
    inside = Location(LocationKind.CITY, "innsbruck")
    st = st.with_unit(Garrison(id="garrison:AU:city:innsbruck", nation="AU", location=inside, factors=Factors(infantry=4)))
    st = st.with_unit(Corps(id="corps:FR:V", nation="FR", corps_type=CorpsType.REGULAR,
                            location=Location(LocationKind.AREA, "innsbruck"),
                            factors=Factors(infantry=10), besieging=True))
    st = st.replace(area_control=st.area_control.set("innsbruck", "AU"))  # an area Austria took back in the war
    assert control.is_besieged(st, c, "innsbruck") and control.area_holder(st, c, "innsbruck") == "AU"
    orders = _orders(inp)
    out = engine.resolve_slot(st, orders, c)
    after = out.state
    assert after.ceded_provinces.get("tyrol") == "FR"
    assert all(control.area_holder(after, c, a) == "FR" for a in c.map.areas_of_province("tyrol"))
    assert "garrison:AU:city:innsbruck" not in after.units and control.city_power(after, c, "innsbruck") == "FR"
    assert not after.units["corps:FR:V"].besieging and not control.is_besieged(after, c, "innsbruck")
    texts = [e.text for e in out.events]
    assert any("garrison factors of AU leave innsbruck" in t and "tyrol is ceded to France (12.7)" in t for t in texts), texts
    assert any("corps:FR:V ends its siege of innsbruck" in t for t in texts), texts
