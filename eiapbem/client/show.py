"""What the manual's info boxes show, as lines of text (the Status Panel, the counter pool, 5.2-5.2.1).

- an area: its name, nation and province, terrain, city (supply, siege,
  garrison room), port, who controls it and every unit there;
- a unit: owner, kind, place, factors or ships, leaders with it;
- a power: treasury, manpower, political status, victory points, wars,
  alliances, forces still to place;
- the pool ("View Available Counters", 5.2.1): counters off the map, leaders
  available, factors and ships not yet placed (and those of free states).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from eiapbem.core.errors import IllegalAction
from eiapbem.client import fog
from eiapbem.rules.model import POOL, POWER_NAMES, Corps, Depot, Fleet, GameState, Garrison, LeaderStatus


def _unit_line(u: Any, state: GameState, viewers: Iterable[str] = ()) -> str:
    leaders = [lid for lid, lead in state.leaders.items() if lead.attached_to == u.id]
    with_ = f" with {', '.join(leaders)}" if leaders else ""
    if isinstance(u, (Corps, Garrison, Fleet)) and fog.hides_strength(state, u, viewers):
        return f"{u.id}: {fog.HIDDEN}{with_}"
    if isinstance(u, (Corps, Garrison)):
        return f"{u.id}: {u.factors.describe()}{with_}"
    if isinstance(u, Fleet):
        return f"{u.id}: {u.ships.describe()} ({u.location.kind}){with_}"
    return f"{u.id}"


def area(state: GameState, m: Any, area_id: str, viewers: Iterable[str] = ()) -> list[str]:
    if area_id not in m.areas:
        close = [a for a in m.areas if a.startswith(area_id[:3])][:8]
        raise IllegalAction(f"there is no land area {area_id!r} on the map", hint=f"areas like it: {', '.join(close)}" if close else None)
    a = m.areas[area_id]
    out = [f"{a.name} ({a.id})", f"  nation {a.nation}, province {a.province}, terrain {a.terrain}, forage {a.forage}"]
    if a.city:
        out.append(f"  city {a.city.name}: supply {a.city.supply}, siege {a.city.siege}, garrison room {a.city.garrison_capacity}"
                   + (f", {a.city.capital} capital" if a.city.capital else ""))
    if a.port:
        out.append(f"  port on {', '.join(a.port.seas)}" + (" (ice)" if a.port.ice else ""))
    out.append(f"  controlled by {state.area_control.get(a.id, a.nation)}")
    here = [u for u in state.units.values() if u.location != POOL and u.location.site == a.id]
    out.append("  units: none" if not here else "  units:")
    out.extend(f"    {_unit_line(u, state, viewers)}" for u in here)
    out.append(f"  next to: {', '.join(m.land_neighbours(a.id))}")
    return out


def unit(state: GameState, unit_id: str, viewers: Iterable[str] = ()) -> list[str]:
    u = state.units.get(unit_id)
    if u is None:
        lead = state.leaders.get(unit_id)
        if lead is None:
            raise IllegalAction(f"there is no unit or leader {unit_id!r}", hint="'eiapbem show pool' lists your counters")
        return [f"{lead.id}: {lead.power}, {lead.status}" + (f", with {lead.attached_to}" if lead.attached_to else "")]
    owner = getattr(u, "nation", None) or getattr(u, "power")
    out = [f"{u.id} ({type(u).__name__.lower()} of {owner})", f"  at {u.location}"]
    if isinstance(u, (Corps, Garrison, Fleet)) and fog.hides_strength(state, u, viewers):
        out.append(f"  {fog.HIDDEN}")
    elif isinstance(u, (Corps, Garrison)):
        out.append(f"  factors: {u.factors.describe()} ({u.factors.total})")
    elif isinstance(u, Fleet):
        out.append(f"  ships: {u.ships.describe()}")
    leaders = [lid for lid, lead in state.leaders.items() if lead.attached_to == u.id]
    if leaders:
        out.append(f"  leaders: {', '.join(leaders)}")
    return out


def power(state: GameState, p: str) -> list[str]:
    if p not in state.powers:
        raise IllegalAction(f"{p!r} is not a major power; use one of {' '.join(state.powers)}")
    ps = state.powers[p]
    out = [
        f"{POWER_NAMES[p]} ({p}), played by " + ("a human" if ps.controller == "human" else f"the computer ({ps.controller})"),
        f"  treasury ${ps.treasury}, manpower {ps.manpower}",
        f"  political status {ps.political_status}, victory points {ps.victory_points} (bid {ps.vp_bid})",
        f"  at war with: {', '.join(ps.wars) or 'nobody'}",
        f"  allied with: {', '.join(ps.alliances) or 'nobody'}",
        f"  controls: {', '.join(m for m, row in state.minors.items() if row.controller == p and row.status in ('conquered', 'free-state')) or 'no minor country'}",
    ]
    corps = [u for u in state.units.values() if isinstance(u, Corps) and u.nation == p and u.location != POOL]
    fleets = [u for u in state.units.values() if isinstance(u, Fleet) and u.nation == p and u.location != POOL]
    out.append(f"  on the map: {len(corps)} corps ({sum(c.factors.total for c in corps)} factors), "
               f"{len(fleets)} fleets ({sum(f.ships.total for f in fleets)} ships)")
    if ps.unplaced_factors.total or ps.unplaced_ships.total:
        out.append(f"  still to place: {ps.unplaced_factors.describe()}; {ps.unplaced_ships.describe()}")
    return out


def pool(state: GameState, p: str) -> list[str]:
    if p not in state.powers:
        raise IllegalAction(f"{p!r} is not a major power; use one of {' '.join(state.powers)}")
    ps = state.powers[p]
    nations = [p, *state.free_states(p)]
    out = [f"Counter pool of {POWER_NAMES[p]} (View Available Counters)"]
    out.append(f"  factors to place: {ps.unplaced_factors.describe()}")
    out.append(f"  ships to place: {ps.unplaced_ships.describe()}")
    for m in nations[1:]:
        row = state.minors[m]
        out.append(f"  {m} (free state) to place: {row.stored_factors.describe()}; {row.stored_ships.describe()}")
    for n in nations:
        units = [u for u in state.units.values() if u.location == POOL and (getattr(u, "nation", None) or getattr(u, "power")) == n]
        corps = [u.id + (f" ({u.corps_type})" if u.corps_type != "regular" else "") + _bought(state, u)
                 for u in units if isinstance(u, Corps)]
        fleets = [u.id + _bought(state, u) for u in units if isinstance(u, Fleet)]
        depots = [u.id for u in units if isinstance(u, Depot)]
        out.append(f"  {n} corps: {', '.join(corps) or 'none'}")
        if fleets:
            out.append(f"  {n} fleets: {', '.join(fleets)}")
        if depots:
            out.append(f"  {n} depots: {', '.join(depots)}")
    leaders = [lid for lid, lead in state.leaders.items() if lead.power == p and lead.status is LeaderStatus.AVAILABLE]
    out.append(f"  leaders available: {', '.join(leaders) or 'none'}")
    # Purchases of the economic phases (12.5.3, 000:2216), by month of arrival: placed in the
    # reinforcement phase of that month (7.1.2, 7.2.2).
    orders = sorted(ps.builds.values(), key=lambda o: (o.arrives, o.nation, o.item, o.port or ""))
    rows = [f"{o.count} {o.item}" + (f" for {o.nation}" if o.nation != p else "") + (f" at {o.port}" if o.port else "")
            + (" due now" if o.arrives <= state.date else f" arriving {o.arrives}") for o in orders]
    out.append(f"  on order: {'; '.join(rows) or 'nothing'}")
    return out


def _bought(state: GameState, u: Corps | Fleet) -> str:
    """`` (bought, place by 1805-09)`` for a counter bought in an economic phase (12.5.4, 000:2238)."""
    until = getattr(u, "placeable_until", None)
    if until is None or state.date > until:
        return ""
    return f" (bought, place by {until})"
