"""Sea and invasion supply of besieged port cities (10.3.2, 10.5.3 "Port City Supply", 10.5.4; 000:1316,
000:1554-1574).

- A depot may be placed *inside* a besieged port city the power holds, unblockaded, when sea supply can
  be traced to it from a port of its chain with a fleet of its own (``besieged_port_depot``; the only
  depot that stands inside a city, 000:1560).  ``land.create-depot`` puts it there.
- At the supply step the power's besieged units in such a city live off sea supply instead of the
  besieged supply roll (10.5.5): each pays the cost of a depot in its own area (1 half-dollar); a depot
  on a fleet in a sea area its port touches (invasion supply, 10.5.4) supplies them at the cost of an
  adjacent depot (2 half-dollars).  Without the money they roll as before.
- A depot inside a port city is removed as soon as no unblockaded sea supply source reaches it
  (000:1562), and moves out to the area at the end of the power's movement once the city is no longer
  besieged and no enemy corps stands in the area, destroying an enemy depot there (000:1560).
"""

from __future__ import annotations

from typing import Any

from eiapbem.rules import control, engine, relations, supply
from eiapbem.rules.model import POOL, Depot, GameState, Location, LocationKind
from eiapbem.rules.engine import RulesContext


def besieged_port_depot(state: GameState, m: Any, area: str, power: str) -> bool:
    """10.3.2 / 10.5.3: ``power`` may place a depot inside the besieged port city of ``area``."""
    a = m.area(area)
    return (a.port is not None and a.city is not None and control.is_besieged(state, m, area)
            and control.city_power(state, m, area) == power and supply.sea_link_port(state, m, area, power)
            and supply.sea_source_for(state, m, power, area) is not None)


def city_depot(state: GameState, area: str, power: str) -> Depot | None:
    loc = Location(LocationKind.CITY, area)
    for u in sorted(state.units.values(), key=lambda u: u.id):
        if isinstance(u, Depot) and u.power == power and u.location == loc:
            return u
    return None


def sea_cost_halves(state: GameState, m: Any, area: str, power: str) -> int | None:
    """Half-dollars a besieged unit of ``power`` in the port city of ``area`` pays to live off sea supply, or None."""
    if m.area(area).port is None:
        return None
    if city_depot(state, area, power) is not None and supply.sea_link_port(state, m, area, power) \
            and supply.sea_source_for(state, m, power, area) is not None:
        return 1  # a depot in its own place (10.5.2's cost, 10.5.3)
    if supply.invasion_depot_for(state, m, power, area) is not None:
        return 2  # a depot on a fleet next to it (10.5.4, 000:1566)
    return None


def tidy_city_depots(state: GameState, ctx: RulesContext, power: str) -> engine.Outcome:
    """000:1560-1562: city depots with no sea supply source are removed; freed ones move out to the area."""
    m = ctx.map
    out = engine.Outcome(state)
    for d in sorted((u for u in state.units.values() if isinstance(u, Depot) and u.power == power
                     and u.location.kind is LocationKind.CITY), key=lambda u: u.id):
        area = d.location.site
        st = out.state
        if not control.is_besieged(st, m, area):
            if supply.enemy_corps_in(st, area, power, outside_city=True):
                continue
            for e in sorted((u for u in st.units.values() if isinstance(u, Depot) and u.location == Location(LocationKind.AREA, area)),
                            key=lambda u: u.id):
                if relations.at_war(st, power, e.power):
                    st = st.with_unit(e.replace(location=POOL))
                elif e.power == power:
                    break
            else:
                st = st.with_unit(d.replace(location=Location(LocationKind.AREA, area)))
                out = out.then(engine.log(st, power, "land.depot-out", f"{power}: {d.id} leaves the city of {area} for its "
                                          f"area: the siege is over (10.5.3)", depot=d.id))
            continue
        if not (supply.sea_link_port(st, m, area, power) and supply.sea_source_for(st, m, power, area)):
            st = st.with_unit(d.replace(location=POOL))
            out = out.then(engine.log(st, power, "land.depot-lost", f"{power}: {d.id} in the besieged city of {area} is "
                                      f"removed: no unblockaded sea supply reaches it (10.5.3)", depot=d.id))
    return out
