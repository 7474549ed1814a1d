"""Cities taken other than by siege (13.5; 000:2558-2582).

- ``enter_empty_city``: a corps that ends its move inside an enemy city where no enemy force stands
  (no garrison, no corps; the city not besieged) takes it: control of the city passes to the corps'
  nation (13.5.2, 000:2566: a Major Power's capital "must be entered"; the same for every city with
  no garrison to besiege).  ``land.move --city`` calls it (``land.movement``).
- ``vacate_neutrals``: when a siege is announced (``land.besiege``), the garrisons and corps of powers
  at war with none of the besiegers inside a city held by an enemy of the besieger leave it for the
  nearest unbesieged city their power holds in its home nation, a ceded province or a controlled
  minor (13.5.5, 000:2576-2578), by land movement cost over the map, ties by id.  A garrison joins its
  nation's garrison there.  Forces with nowhere to go stay (and are besieged).
- ``release_unheld``: at the end of every land slot, a city a nation took (by walking in, a siege, a
  starved garrison, 13.5.4) and no longer holds goes back to the holder of its area: 13.5.1-13.5.2
  (000:2562-2566) give an ungarrisoned capital to the nation controlling its territory, and the
  project reads every city so (a raider that rides on leaves the city behind it).  A city is held
  while a unit of the taker's power with factors stands inside it (a corps of any kind, Cossacks and
  Freikorps included: they may garrison a city, 000:1428, or a garrison), or an unbesieged regular corps
  of that power stands in its area (13.5.1: a corps in the area holds a minor capital; besiegers that
  took a city stand outside it, 11.1.1).  Minor capitals a power occupies for conquest follow the
  stricter ``conquest.update_occupations`` first.
- 13.5.6 (ships being built in a port the enemy takes) is ``naval.evacuation.lost_shipyards``.

13.5.4 (garrisons of powers that find themselves at war in one city) is resolved at the end of the
diplomacy phase, by the phase-neutral ``eiapbem.rules.hostile_garrisons``.
"""

from __future__ import annotations

from typing import Any

from eiapbem.rules import control, engine, mapgraph, relations, supply
from eiapbem.rules.forces import IRREGULAR
from eiapbem.rules.model import CityControl, Corps, GameState, Garrison, Location, LocationKind, garrison_id
from eiapbem.rules.engine import RulesContext


def enemies_inside(state: GameState, area: str, power: str) -> list[str]:
    return sorted(u.id for u in state.units.values()
                  if isinstance(u, (Corps, Garrison)) and u.location == Location(LocationKind.CITY, area)
                  and u.factors.total > 0 and relations.at_war(state, power, relations.unit_power(state, u) or u.nation))


def may_enter_empty_city(state: GameState, m: Any, area: str, power: str) -> bool:
    """An enemy-held city with no enemy force inside and no siege: a corps may walk in and take it (13.5.2)."""
    holder = control.city_holder(state, m, area)
    return relations.at_war(state, power, holder) and not enemies_inside(state, area, power) \
        and not control.is_besieged(state, m, area)


def enter_empty_city(state: GameState, power: str, corps: Corps, area: str) -> engine.Outcome:
    state = state.replace(city_control=state.city_control.set(area, CityControl(nation=corps.nation, since=state.date)))
    return engine.log(state, power, "land.take-city", f"{power}: {corps.id} enters the city of {area}, where no enemy "
                      f"force stands, and takes it (13.5.2)", area=area, unit=corps.id)


def _home_city(state: GameState, m: Any, area: str, q: str) -> str | None:
    def ours(a: str) -> bool:
        x = m.area(a)
        if x.city is None or a == area or control.city_power(state, m, a) != q or control.is_besieged(state, m, a):
            return False
        if x.nation == q:
            return x.province not in state.ceded_provinces
        return state.ceded_provinces.get(x.province) == q or (x.is_minor and relations.power_of(state, x.nation) == q)

    costs = mapgraph.movement_costs(m, area)
    found = sorted((c, a) for a, c in costs.items() if ours(a))
    return found[0][1] if found else None


def vacate_neutrals(state: GameState, ctx: RulesContext, power: str, area: str) -> engine.Outcome:
    """13.5.5: neutral forces leave a city ``power`` now besieges."""
    m = ctx.map
    holder = control.city_holder(state, m, area)
    if not relations.at_war(state, power, holder):
        return engine.Outcome(state)
    besiegers = {relations.unit_power(state, c) for c in control.corps_at(state, area) if c.besieging} | {power}
    inside = sorted((u for u in state.units.values() if isinstance(u, (Corps, Garrison))
                     and u.location == Location(LocationKind.CITY, area) and u.factors.total > 0), key=lambda u: u.id)
    out = engine.Outcome(state)
    for u in inside:
        q = relations.unit_power(out.state, u)
        if q is None or q in besiegers or any(relations.at_war(out.state, b, u.nation if q is None else q)
                                              for b in besiegers if b):
            continue
        dest = _home_city(out.state, m, area, q)
        if dest is None:
            continue
        to = Location(LocationKind.CITY, dest)
        st = out.state
        if isinstance(u, Corps):
            st = st.with_unit(u.replace(location=to))
        else:
            gid = garrison_id(u.nation, to)
            there = st.units.get(gid)
            factors = u.factors + there.factors if isinstance(there, Garrison) else u.factors
            st = st.replace(units=st.units.remove(u.id)).with_unit(Garrison(id=gid, nation=u.nation, location=to, factors=factors))
        out = out.then(engine.log(st, q, "land.repatriate", f"{q}: {u.id} leaves the besieged city of {area} for {dest} "
                                  f"(13.5.5)", unit=u.id, to=dest))
    return out


def holds_city(state: GameState, m: Any, area: str, power: str | None) -> bool:
    """``power`` still holds the city of ``area`` it took (see ``release_unheld``)."""
    if power is None:
        return False
    for u in control.units_at(state, area):
        if not isinstance(u, (Corps, Garrison)) or u.factors.total == 0 or relations.unit_power(state, u) != power:
            continue
        if u.location.kind is LocationKind.CITY:
            return True
        if u.location.kind is LocationKind.AREA and isinstance(u, Corps) and u.corps_type not in IRREGULAR \
                and supply.unit_unbesieged(state, m, u):
            return True
    return False


def release_unheld(state: GameState, ctx: RulesContext) -> engine.Outcome:
    """13.5.1-13.5.2: every city record whose taker no longer holds the city is dropped; the city is its area's again."""
    m = ctx.map
    out = engine.Outcome(state)
    for area, held in sorted(state.city_control.items()):
        st = out.state
        taker = relations.power_of(st, held.nation)
        if holds_city(st, m, area, taker):
            continue
        st = st.replace(city_control=st.city_control.remove(area))
        back = control.city_holder(st, m, area)
        if back == held.nation:
            out = out.then(engine.Outcome(st))  # the record only repeated what the area says
            continue
        out = out.then(engine.log(st, "game", "land.city-returns",
                                  f"the city of {area} is no longer held by {held.nation}: nothing of "
                                  f"{taker or held.nation}'s is left in it, so it returns to {back}, which holds the area "
                                  f"(13.5.1-13.5.2)", area=area, was=held.nation, holder=back))
    return out
