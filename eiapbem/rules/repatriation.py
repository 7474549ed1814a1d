"""Repatriation: forces sent home by the program (6.4 "Temporary Access", 000:738; 13.4.1, 000:2552-2554; 6.11,
000:860; 6.4 "Withdrawal from Capital Cities", 000:736).

After a peace, or after a power cancels an access grant (6.11), the forces of the two powers keep access to each
other's territory for a grace of three land phases (``Access.until``: the grace's last month, the third land phase
counted from the month the grace began).  At the end of the last land slot of that month the program sends home
the forces of the guest still inside the territory of the power that granted the grace, then forgets the record:

- the territory is the host's home nation and the provinces ceded to it (``control.territory_power``; minor
  countries are open to every power, 13.4.1 000:2546), and for fleets every port the host holds, its minors'
  ports among them (8.4.2: a port needs its holder's permission);
- land forces (corps of every kind with their leaders, garrison factors) go to the guest's nearest supply source
  (``destination``): an area holding a depot of its valid supply chain, or an unbesieged city it controls in its
  home nation, a province ceded to it or a minor it controls (10.3.3, 000:1326), the nearest by movement cost over
  land, ties by id.  Corps stand in the area outside the city; garrison factors need a city and join the guest's
  garrison in the nearest such city.  With none reachable over land (Britain's forces on the continent) the
  factors come back as reinforcements (``returned_factors``; a free state's to its stock) and the counters go to
  the pool, as the prisoners of a peace do (000:688);
- a depot of the guest in the host's territory cannot be carried home: it goes back to the pool;
- fleets in the host's ports, with what they carry, go out to the nearest sea area: a sea area their port's
  blockade box touches (all one point away, 8.4.2), an open one first (not north of the ice line in winter,
  8.4.1), then by id.

Forces whose power has access again (a new grant, enforced access C.5) or a war with the host stay: the record is
then no longer a temporary one (``_open_war`` and the grant replace it).  The program decides every placement
(the manual: "the program will repatriate"); ``docs/decisions.md`` (6.4, 13.4.1) records the readings.

Phase-neutral: the land phase runs ``at_land_slot_end`` at its ``land.slot-end`` hook point, and
``peace_capitals`` uses ``destination`` for the garrisons leaving capital cities at a peace.
"""

from __future__ import annotations

from typing import Any

from eiapbem.rules import control, engine, mapgraph, relations, supply
from eiapbem.rules.sequence import is_last_land_slot
from eiapbem.rules.model import (
    POOL,
    Corps,
    Depot,
    Factors,
    Fleet,
    GameState,
    Garrison,
    LeaderStatus,
    Location,
    LocationKind,
    garrison_id,
)
from eiapbem.rules.engine import RulesContext

#: The hook's rank among the land slot's end effects: after the naval ones (corps left aboard, evacuation, 8.6.3,
#: 8.7), so a fleet evacuated or a corps lost aboard is not sent home as well.
RANK = 40
ON_LAND = (LocationKind.AREA, LocationKind.CITY)


def destination(state: GameState, m: Any, power: str, start: str, *, city: bool = False,
                avoid: str | None = None) -> str | None:
    """The area of ``power``'s nearest supply source from the land area ``start`` (10.3.3): a depot of its valid
    supply chain or an unbesieged city it controls at home, in a province ceded to it or in a minor it controls;
    ``city``: only such a city (a garrison needs one).  Nearest by movement cost over land and crossing arrows, then
    id; never in the territory of ``avoid`` (the power the forces leave).  None when no such place is reachable (a
    crossing arrow of an option counts only in a game using it, 4.1.1)."""
    chain = () if city else tuple(supply.supply_chain(state, m, power))
    costs = mapgraph.movement_costs(m, start, crossings=lambda c: c.optional is None or bool(
        getattr(state.options, f"use_{c.optional}_sea_crossing", False)))  # an optional arrow only with its option
    best = sorted(
        (cost, a) for a, cost in costs.items()
        if (a in chain or supply.is_supply_source(state, m, a, power))
        and (avoid is None or control.territory_power(state, m, a) != avoid)
    )
    return best[0][1] if best else None


def _has_right(state: GameState, power: str | None, host: str) -> bool:
    return power is not None and (relations.has_access(state, power, host) or relations.at_war(state, power, host))


def _unit_area(u: Any) -> str | None:
    loc = u.location
    return loc.site if loc.kind in ON_LAND else None


def _home_again(state: GameState, u: Corps | Garrison) -> GameState:
    """``u``'s factors come back as reinforcements (000:688): its power's, or a free state's stock."""
    minor = state.minors.get(u.nation)
    if minor is not None:
        return state.with_minor(u.nation, minor.replace(stored_factors=minor.stored_factors + u.factors))
    owner = relations.power_of(state, u.nation) or u.nation
    return state.with_power(owner, returned_factors=state.powers[owner].returned_factors + u.factors)


def _send_corps(state: GameState, m: Any, c: Corps, guest: str, host: str) -> tuple[GameState, str]:
    to = destination(state, m, guest, c.location.site, avoid=host)
    if to is not None:
        state = state.with_unit(c.replace(location=Location(LocationKind.AREA, to), besieging=False))
        return state, f"{c.id} is sent home to {to}"
    state = _home_again(state, c).with_unit(c.replace(location=POOL, factors=Factors(), besieging=False))
    for lid, lead in sorted(state.leaders.items()):
        if lead.attached_to == c.id:
            state = state.with_leader(lead.replace(status=LeaderStatus.AVAILABLE, attached_to=None))
    return state, f"{c.id} has no way home over land: its {c.factors.total} factors come back as reinforcements"


def send_garrison_home(state: GameState, m: Any, g: Garrison, guest: str, avoid: str | None) -> tuple[GameState, str]:
    """Garrison factors leave their city for ``guest``'s nearest city that is a supply source (joining its garrison
    there), or come back as reinforcements when there is none (6.4, 000:736-738; 6.6.1, 000:794)."""
    state = state.without_unit(g.id)
    where = g.location.site
    to = destination(state, m, guest, where, city=True, avoid=avoid)
    if to is None:
        return _home_again(state, g), f"{g.factors.total} garrison factors of {g.nation} leave {where} and come back as " \
                                      f"reinforcements"
    loc = Location(LocationKind.CITY, to)
    gid = garrison_id(g.nation, loc)
    there = state.units.get(gid)
    factors = there.factors + g.factors if isinstance(there, Garrison) else g.factors
    state = state.with_unit(Garrison(id=gid, nation=g.nation, location=loc, factors=factors))
    return state, f"{g.factors.total} garrison factors of {g.nation} leave {where} for {to}"


def _send_fleet(state: GameState, m: Any, f: Fleet) -> tuple[GameState, str]:
    seas = m.area(f.location.site).port.seas
    winter = state.date.month in supply.WINTER_MONTHS
    sea = sorted(seas, key=lambda s: (winter and m.sea(s).ice, s))[0]
    return state.with_unit(f.replace(location=Location(LocationKind.SEA, sea))), f"{f.id} leaves {f.location.site} for {sea}"


def repatriate(state: GameState, ctx: RulesContext, host: str, guest: str) -> engine.Outcome:
    """Send home ``guest``'s forces still in ``host``'s territory, and end the temporary access (see the module)."""
    m = ctx.map
    said: list[str] = []
    state = relations.without_access(state, host, guest)  # the grace is over
    for uid in sorted(state.units):
        u = state.units.get(uid)
        if u is None:
            continue
        if isinstance(u, Depot):
            area = _unit_area(u)
            if u.power == guest and area is not None and control.territory_power(state, m, area) == host:
                state = state.with_unit(u.replace(location=POOL))
                said.append(f"{uid} in {area} goes back to the pool")
            continue
        mover = relations.unit_power(state, u)
        if mover != guest or _has_right(state, mover, host):
            continue
        if isinstance(u, Fleet):
            if u.location.kind is LocationKind.PORT and relations.power_of(state, control.port_holder(state, m, u.location.site)) == host:
                state, text = _send_fleet(state, m, u)
                said.append(text)
            continue
        area = _unit_area(u)
        if area is None or control.territory_power(state, m, area) != host:
            continue
        if isinstance(u, Corps):
            state, text = _send_corps(state, m, u, guest, host)
        elif isinstance(u, Garrison):
            state, text = send_garrison_home(state, m, u, guest, host)
        else:
            continue
        said.append(text)
    out = engine.Outcome(state)
    if said:
        out = engine.log(state, "game", "diplomacy.repatriation",
                         f"{guest}'s temporary access to {host}'s territory has ended after three land phases: "
                         + "; ".join(said) + " (6.4, 13.4.1)", power=guest, host=host)
    return out


def at_land_slot_end(state: GameState, power: str, ctx: RulesContext) -> engine.Outcome:
    """After the month's last land slot, every grace of temporary access ending this month ends in repatriation."""
    out = engine.Outcome(state)
    if not is_last_land_slot(state):
        return out
    for host, guest in relations.graces_ending(state):
        out = out.then(repatriate(out.state, ctx, host, guest))
    return out


#: Registered by ``eiapbem/rules/phases.py``: the land phase runs it at its ``land.slot-end`` point.
RULES = engine.PhaseRules("repatriation", hooks=(("land.slot-end", RANK, at_land_slot_end),))

__all__ = ["RULES", "at_land_slot_end", "destination", "repatriate", "send_garrison_home"]
