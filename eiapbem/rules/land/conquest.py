"""Occupying minor capitals and conquering minor countries (10.7, 000:1598-1602; 13.3.1, 000:2524-2532;
13.5.1, 000:2562).

At the end of every land slot (the finish hook):

- an occupation that no longer holds is forgotten: the capital's ``city_control``
  record of a major power is removed when no unbesieged corps of that power stands
  in the capital's area, or another nation's garrison or an enemy corps is there;
- the phasing power occupies the capital of every minor country it is at war with
  where its unbesieged corps (not a Cossack, Freikorps or guerrilla) stands, no
  garrison holds the city and no enemy corps is in the area (13.5.1: a minor
  capital needs no garrison, a friendly corps in its area controls it); the
  record's ``since`` is the month the occupation began.

At the end of the last land slot of the month the conquest check runs (000:1600):
a minor whose capital a power has held since an earlier month (occupied during
the previous month and held through this one, 000:1602) is conquered by it:
status conquered, controlled by it; the minor's land forces leave the map, its
fleets go to the pool keeping their ships; +1 political point per district to the
conqueror, -1 per district to the power it was taken from (000:2530); the power's
war with the neutral minor ends.  A joined secondary district (Norway, Finland, Sicily)
whose own capital is held is conquered alone and separated from its major district
for good (13.6.3, 000:2602).

Ceded provinces (13.3.2, 000:2532-2536) are conquered the same way, by a power
at war with their holder that occupies the province's capital: the province
passes to the conqueror, or, taken back by its original owner, is unceded
again; no political points change hands.
"""

from __future__ import annotations

from typing import Any

from eiapbem.rules import control, engine, relations, supply
from eiapbem.rules.cession import POLAND, POLAND_CAPITAL, transfer
from eiapbem.rules.land.common import is_enemy
from eiapbem.rules.model import (
    POWERS,
    CityControl,
    GameState,
    Garrison,
    LocationKind,
    MinorStatus,
)
from eiapbem.rules.forces import IRREGULAR, remove_minor_forces
from eiapbem.rules.sequence import is_last_land_slot
from eiapbem.rules.engine import RulesContext

#: 13.3.1 (000:2530): political points per district conquered.
CONQUEST_POINTS = 1


def capitals(state: GameState, m: Any) -> dict[str, str]:
    """Minor country or district -> the area of its capital, by minor.  A joined secondary district's
    capital is listed too, first: holding it conquers that district alone (13.6.3, 000:2602), before a conquest
    of its major district in the same check would carry it along."""
    out = {}
    for slug, minor in sorted(state.minors.items(), key=lambda kv: (kv[1].part_of is None, kv[0])):
        if slug not in m.provinces:
            continue
        out[slug] = m.province(slug).capital
    poland = state.minors[POLAND].provinces if POLAND in state.minors else ()
    for prov in sorted(state.ceded_provinces):  # 13.3.2: conquered as if a minor country
        if prov in m.provinces and prov not in poland:  # 12.8.2: Polish provinces are not conquered one by one
            out[prov] = m.province(prov).capital
    if poland:  # 12.8.2 (000:2314): Poland is conquered by a month's unbesieged occupation of Warsaw
        out[POLAND] = m.province(POLAND_CAPITAL).capital
    return out


def _enemy_of(state: GameState, slug: str) -> str:
    """Whom a power must be at war with to take ``slug``: a ceded province's holder, else the minor itself."""
    return state.ceded_provinces.get(slug, slug)


def conquer_ceded(state: GameState, ctx: RulesContext, prov: str, power: str) -> engine.Outcome:
    """13.3.2 (000:2534): a ceded province conquered passes to ``power``; its original owner unceded it again."""
    home = ctx.map.province(prov).nation
    holder = state.ceded_provinces[prov]
    ceded = state.ceded_provinces.remove(prov) if power == home else state.ceded_provinces.set(prov, power)
    ac = state.area_control
    for a in ctx.map.areas_of_province(prov):
        ac = (ac.remove(a) if a in ac else ac) if power == home else ac.set(a, power)
    state = state.replace(ceded_provinces=ceded, area_control=ac)
    text = (f"{power} retakes its ceded province {prov} from {holder}: it is no longer ceded" if power == home
            else f"{power} conquers the ceded province {prov} from {holder}") + " (13.3.2; no political points)"
    return engine.log(state, "game", "land.conquest", text, minor=prov, power=power, points=0)


def conquer_poland(state: GameState, ctx: RulesContext, power: str) -> engine.Outcome:
    """12.8.2 (000:2314-2322): Poland conquered: its provinces pass to ``power`` (unceded where they are its own
    home provinces, ceded to it otherwise, ``cession.transfer``), Poland is no more; +1 political point to the
    conqueror, -1 to the power that held it."""
    loser = state.minors[POLAND].controller
    state = transfer(state, ctx, POLAND, loser or power, power)
    state = state.with_power(power, political_status=state.powers[power].political_status + CONQUEST_POINTS)
    text = f"{power} takes Warsaw and conquers Poland: its provinces are {power}'s, +{CONQUEST_POINTS} political point"
    if loser is not None and loser != power:
        state = state.with_power(loser, political_status=state.powers[loser].political_status - CONQUEST_POINTS)
        text += f"; {loser} -{CONQUEST_POINTS}"
    return engine.log(state, "game", "land.conquest", text + " (12.8.2)", minor=POLAND, power=power, points=CONQUEST_POINTS)


def occupies(state: GameState, m: Any, area: str, power: str) -> bool:
    """``power`` holds the minor capital in ``area`` by unbesieged occupation (13.5.1, 000:2562)."""
    corps = [c for c in control.corps_at(state, area)
             if relations.unit_power(state, c) == power and c.corps_type not in IRREGULAR and c.factors.total > 0
             and supply.unit_unbesieged(state, m, c)]
    if not corps:
        return False
    for u in state.units.values():
        if isinstance(u, Garrison) and u.location.kind is LocationKind.CITY and u.location.site == area \
                and u.factors.total > 0 and relations.unit_power(state, u) != power:
            return False
    return not any(is_enemy(state, power, c) for c in control.corps_at(state, area))


def update_occupations(state: GameState, ctx: RulesContext, power: str) -> engine.Outcome:
    m = ctx.map
    out = engine.Outcome(state)
    for slug, area in capitals(state, m).items():
        st = out.state
        held = st.city_control.get(area)
        if held is not None and held.nation in POWERS and not occupies(st, m, area, held.nation):
            st = st.replace(city_control=st.city_control.remove(area))
            out = out.then(engine.log(st, "game", "land.occupation-ends",
                                      f"{held.nation}'s occupation of {area}, capital of {slug}, ends", minor=slug, power=held.nation))
            st = out.state
            held = None
        if held is None and relations.at_war(st, power, _enemy_of(st, slug)) and occupies(st, m, area, power):
            st = st.replace(city_control=st.city_control.set(area, CityControl(nation=power, since=st.date)))
            out = out.then(engine.log(st, power, "land.occupation",
                                      f"{power} occupies {area}, capital of {slug}: conquered at the end of next month's land "
                                      f"phase if held ({'13.3.2' if slug in st.ceded_provinces else '10.7'})",
                                      minor=slug, power=power))
    return out


def conquer(state: GameState, slug: str, power: str) -> engine.Outcome:
    minor = state.minors[slug]
    districts = (slug,) + tuple(minor.districts)
    loser = relations.power_of(state, slug)
    if minor.part_of is not None:  # 13.6.3 (000:2602): a secondary district conquered on its own leaves its
        major_slug = minor.part_of  # major district for good (one district's points, no forces of its own)
        major = state.minors[major_slug]
        minor, districts = minor.replace(status=MinorStatus.CONQUERED, controller=power, part_of=None), (slug,)
        state = state.replace(minors=state.minors.set(slug, minor).set(
            major_slug, major.replace(districts=tuple(d for d in major.districts if d != slug))))
    state = remove_minor_forces(state, districts)  # land forces gone, fleets stored at their strength (13.3.1)
    minor = state.minors[slug]
    state = state.with_minor(slug, minor.replace(status=MinorStatus.CONQUERED, controller=power, setup_due=False))
    gain = CONQUEST_POINTS * len(districts)
    state = state.with_power(power, political_status=state.powers[power].political_status + gain,
                             minor_wars=state.powers[power].minor_wars.discard(slug))
    text = f"{power} conquers {slug} ({len(districts)} district{'s' if len(districts) > 1 else ''}): +{gain} political points"
    if loser is not None and loser != power:
        state = state.with_power(loser, political_status=state.powers[loser].political_status - gain)
        text += f"; {loser} -{gain}"
    return engine.log(state, "game", "land.conquest", text + " (10.7, 13.3.1)", minor=slug, power=power, points=gain)


def end_of_slot(state: GameState, power: str, ctx: RulesContext) -> engine.Outcome:
    out = update_occupations(state, ctx, power)
    if not is_last_land_slot(out.state):
        return out
    m = ctx.map
    for slug, area in capitals(out.state, m).items():
        held = out.state.city_control.get(area)
        if held is None or held.nation not in POWERS or not held.since < out.state.date:
            continue
        if relations.at_war(out.state, held.nation, _enemy_of(out.state, slug)) and occupies(out.state, m, area, held.nation):
            if slug == POLAND:
                out = out.then(conquer_poland(out.state, ctx, held.nation))
            elif slug in out.state.ceded_provinces:
                out = out.then(conquer_ceded(out.state, ctx, slug, held.nation))
            else:
                out = out.then(conquer(out.state, slug, held.nation))
            out = out.then(engine.Outcome(out.state.replace(city_control=out.state.city_control.remove(area))))
    return out
