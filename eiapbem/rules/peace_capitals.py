"""6.4 "The Effects of Peace", withdrawal from capital cities (000:736), for any peace (formal or informal).

Phase-neutral (the diplomacy phase's peace step calls it, like ``captured`` and ``irregulars``).  When two powers
make peace, for each capital city (the capital of a province, a national capital among them) belonging to one of
them -- a home province not ceded away, a province ceded to it, or the major district of a minor it controls --
the other's forces inside the city leave it:

- its own garrison factors go to its nearest supply-source city: an unbesieged city it controls in its home nation,
  a province ceded to it or a minor it controls (by movement cost, then id: ``repatriation.send_garrison_home``,
  the same rule as at the end of temporary access, 000:738), joining its garrison there; with no such city they
  come back as reinforcements (``PowerState.returned_factors``, as exchanged prisoners, 000:688);
- its corps (Cossacks and Freikorps too) move out into the city's rural area;
- a garrison of one of its minors stays (the rule names the major powers' forces);
- its hold on the city (``GameState.city_control``, a city it took by siege or by entering it) ends: with no
  garrison, a major power's city is held by whoever holds its area (13.5.2, 000:2566), which is the owner's.

The manual says "all garrison factors in capital cities belonging to either side"; the owner's own garrison in
its own capital is not sent away (docs/decisions.md): the rule undoes the other side's occupation.
"""

from __future__ import annotations


from eiapbem.rules import control, relations
from eiapbem.rules.model import Corps, GameState, Garrison, Location, LocationKind
from eiapbem.rules.repatriation import send_garrison_home
from eiapbem.rules.engine import RulesContext


def withdraw_from_capitals(state: GameState, ctx: RulesContext, a: str, b: str) -> tuple[GameState, list[tuple[str, str]]]:
    """``state`` after ``a`` and ``b``'s forces leave each other's capital cities, and (power, sentence) lines."""
    m = ctx.map
    said: list[tuple[str, str]] = []
    for province in sorted(m.provinces):
        owner = control.capital_owner(state, m, province)  # 6.4: a minor's by the power acting for it
        if owner not in (a, b):
            continue
        other = b if owner == a else a
        city = m.province(province).capital
        if city is None or m.area(city).city is None:
            continue
        inside = Location(LocationKind.CITY, city)
        for uid, u in sorted(state.units.items()):
            if not isinstance(u, (Corps, Garrison)) or u.location != inside or relations.unit_power(state, u) != other:
                continue
            if isinstance(u, Corps):
                state = state.with_unit(u.replace(location=Location(LocationKind.AREA, city), besieging=False))
                said.append((other, f"{uid} leaves the city of {city} for its rural area at the peace (6.4)"))
                continue
            if u.nation != other:
                continue  # a garrison of one of its minors stays (and the city with it)
            state, text = send_garrison_home(state, m, u, other, avoid=owner)
            said.append((other, f"{text} at the peace (6.4)"))
        cc = state.city_control.get(city)
        left = any(isinstance(u, Garrison) and u.location == inside and relations.unit_power(state, u) == other
                   for u in state.units.values())
        if cc is not None and relations.power_of(state, cc.nation) == other and not left:
            state = state.replace(city_control=state.city_control.remove(city))
            said.append((owner, f"the city of {city} is {owner}'s again at the peace (6.4, 13.5.2)"))
    return state, said


def end_sieges(state: GameState, ctx: RulesContext, a: str, b: str) -> tuple[GameState, list[tuple[str, str]]]:
    """A corps of ``a`` or ``b`` besieging a city that the other (or itself, after a cession) now holds stops: a
    corps besieges only a city of a power it is at war with (11.4, 000:1948), and the peace ended the war."""
    m = ctx.map
    said: list[tuple[str, str]] = []
    for uid, u in sorted(state.units.items()):
        if not isinstance(u, Corps) or not u.besieging or u.location.kind is not LocationKind.AREA:
            continue
        mine = relations.unit_power(state, u)
        holder = control.city_power(state, m, u.location.site)
        if mine in (a, b) and holder in (a, b) and not relations.at_war(state, mine, holder):
            state = state.with_unit(u.replace(besieging=False))
            said.append((mine, f"{uid} ends its siege of {u.location.site} at the peace (6.4, 11.4)"))
    return state, said


__all__ = ["end_sieges", "withdraw_from_capitals"]
