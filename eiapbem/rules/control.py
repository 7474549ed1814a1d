"""Who holds a province, an area, a city, a port; what is besieged or blockaded: one definition each.

Every phase asks these questions here (issue 14 item 2; the rules are written
in ``docs/decisions.md``, "One definition per rule question").  Holders are
*nations* (a power or a minor slug); ``relations.power_of`` turns one into the
power acting for it.

- ``minor_holder``: a minor's territory is held by the power that conquered it
  (13.3.1) or runs it as a free state (6.8); a joined secondary district
  follows its major district (13.6.3); neutral, influenced and allied minors'
  territory is held by no power (6.1.1-6.1.3).
- ``province_holder``: a home province by its power unless ceded to another
  (13.3.2, ``ceded_to``); a minor district by ``minor_holder``.  ``capital_owner``
  (6.4) differs for a minor's district on purpose: the power acting for it.
- ``area_holder``: the state's record of the area (``area_control``, a
  conquest or cession of that one area), else its province's holder, else the
  nation on the map.
- ``city_holder`` / ``port_holder``: the state's record of the city
  (``city_control``: a garrison or a friendly corps took it), else the holder
  of the area it stands in (13.5.1 minor capitals, 13.5.2 major capitals,
  13.5.3 ports).
- ``is_besieged``: a corps at war with the city's holder besieges it (10.4.3).
- ``is_blockaded``: a fleet with ships, at war with ``power`` (by default the
  port's holder), is in the port's blockade box (8.8).

``ctx`` is a ``RulesContext``, or the map itself for the supply-chain code
that carries only the map.  Pure functions of the state and the map.
"""

from __future__ import annotations

import bisect

from typing import Any

from eiapbem.rules.model import POWERS, Corps, Fleet, GameState, LocationKind, MinorStatus
from eiapbem.rules.relations import at_war, minor_record, power_of, unit_side
from eiapbem.rules.engine import RulesContext
from eiapbem.rules.mapgraph import Map

#: Minor statuses whose territory a major power holds (13.3.1, 6.8).
HOLDING_STATUSES = (MinorStatus.CONQUERED, MinorStatus.FREE_STATE)


#: Where the answers read the map: a ``RulesContext``, or the ``Map`` itself.
Where = RulesContext | Map


def _map(ctx: Where) -> Map:
    """The map of a ``RulesContext``, or ``ctx`` itself when the caller passed the map."""
    return ctx if isinstance(ctx, Map) else ctx.map


def minor_holder(state: GameState, nation: str) -> str | None:
    """The power holding a minor's territory (conquered or free state), or None."""
    m = minor_record(state, nation)
    if m is None or m.status not in HOLDING_STATUSES:
        return None
    return m.controller


def province_holder(state: GameState, ctx: Where, province: str) -> str | None:
    """The power holding a home province (unless ceded, its home power) or a minor district, or None."""
    prov = _map(ctx).province(province)
    if prov.nation in POWERS:
        return state.ceded_provinces.get(province, prov.nation)
    return minor_holder(state, province)


def ceded_to(state: GameState, province: str) -> str | None:
    """The power a home province was ceded to (13.3.2), or None while it is its home power's."""
    return state.ceded_provinces.get(province)


def capital_owner(state: GameState, ctx: Where, province: str) -> str | None:
    """The power a province's capital city belongs to for the effects of peace (6.4, 000:736).

    A home province: ``province_holder``.  A minor's district differs from ``province_holder`` on purpose: it
    belongs to the power *acting* for the minor (``relations.power_of``: allied and influenced minors too, not
    only conquered ones and free states), because a peace ends the occupation of an ally's capitals as well.
    """
    ceded = ceded_to(state, province)
    if ceded is not None:
        return ceded
    return power_of(state, _map(ctx).province(province).nation)


def territory_power(state: GameState, ctx: Where, area: str) -> str | None:
    """The major power whose territory ``area`` is (its home nation, or a province ceded to another), or
    None for a minor's area (13.4.1: access is asked of major powers only)."""
    a = _map(ctx).area(area)
    if a.nation not in POWERS:
        return None
    return state.ceded_provinces.get(a.province, a.nation)


def area_holder(state: GameState, ctx: Where, area: str) -> str:
    """The nation holding the land area ``area`` (see the module text)."""
    if area in state.area_control:
        return state.area_control[area]
    a = _map(ctx).area(area)
    if a.nation in POWERS:
        return state.ceded_provinces.get(a.province, a.nation)
    return minor_holder(state, a.nation) or a.nation


def city_holder(state: GameState, ctx: Where, area: str) -> str:
    """The nation holding the city of ``area``: ``city_control``, else the area's holder (13.5.1, 13.5.2)."""
    cc = state.city_control.get(area)
    if cc is not None:
        return cc.nation
    return area_holder(state, ctx, area)


def newly_taken(state: GameState, area: str) -> bool:
    """The city of ``area`` was taken this month (its ``city_control`` record began this month; 10.5.3, 13.3.1)."""
    cc = state.city_control.get(area)
    return cc is not None and cc.since == state.date


def port_holder(state: GameState, ctx: Where, port: str) -> str:
    """The nation holding a port city: the holder of the city (13.5.3)."""
    return city_holder(state, ctx, port)


def city_held_by(state: GameState, ctx: Where, area: str) -> str | None:
    """The power *holding* the city of ``area``, or None: the holder itself when a power, else the power holding the
    minor (conquered or a free state, ``minor_holder``).  An allied or influenced minor's city is acted for by its
    ally (``city_power``) but held by nobody: it is treated as neutral, so no power's depot or garrison goes there
    (6.1.1-6.1.3, 000:538-546)."""
    holder = city_holder(state, ctx, area)
    return holder if holder in POWERS else minor_holder(state, holder)


def city_power(state: GameState, ctx: Where, area: str) -> str | None:
    """The power acting for the holder of the city of ``area``, or None (a neutral minor's city)."""
    return power_of(state, city_holder(state, ctx, area))


#: The last few units maps seen and their units by site (``units_at``); a memo of a pure function of the
#: map, looked up by identity (the maps are immutable), so it changes no result and no order.
_SITES: dict[int, tuple[Any, dict[str, tuple[Any, ...]]]] = {}
_SITES_KEEP = 16
#: How many maps back along ``FrozenMap._base`` a units map's index may be derived from.
_CHAIN_WALK = 2


def units_at(state: GameState, site: str) -> tuple[Any, ...]:
    """Every unit whose location's site is ``site`` (an area, city, port, sea or fleet id), by id.

    The same as scanning ``state.units`` for that site, built once per units map: the rules ask it
    thousands of times a turn (corps, garrisons, fleets in a place), and a scan of every unit for each
    question made a turn's cost grow with the number of units times the number of questions."""
    units = state.units
    hit = _SITES.get(id(units))  # the entry holds the map: an id found is this very map's
    if hit is not None and hit[0] is units:
        return hit[1].get(site, ())
    index = _derived_index(units)
    if index is None:
        built: dict[str, list[Any]] = {}
        for u in units.values():
            built.setdefault(u.location.site, []).append(u)
        index = {k: tuple(v) for k, v in built.items()}
    _SITES[id(units)] = (units, index)
    if len(_SITES) > _SITES_KEEP:
        del _SITES[next(iter(_SITES))]  # the oldest
    return index.get(site, ())


def _derived_index(units: Any) -> dict[str, tuple[Any, ...]] | None:
    """The index of a units map derived by a few changes from a map whose index is remembered (issue 18).

    A replay changes a unit or two per action: each changed unit leaves the tuple of its old site and
    joins the tuple of its new one at its place in the map's order (the keys' str order; keys are unit
    ids in a state, its invariant), and every other site's tuple is the remembered one.  None when
    the map was not derived from a remembered one a few maps back."""
    changed = set(getattr(units, "_changed", ()))
    base = getattr(units, "_base", None)
    for _ in range(_CHAIN_WALK):  # the base, or a base of the base (each a few changes back)
        if base is None:
            return None
        hit = _SITES.get(id(base))
        if hit is not None and hit[0] is base:
            old = hit[1]
            break
        changed.update(base._changed)
        base = base._base
    else:
        return None
    index = dict(old)
    work: dict[str, list[Any]] = {}
    for k in sorted(changed):
        was, now = base.get(k), units.get(k)
        if was is not None:
            at = work.get(was.location.site)
            if at is None:
                at = work[was.location.site] = list(index.get(was.location.site, ()))
            del at[bisect.bisect_left(at, k, key=_unit_id)]
        if now is not None:
            at = work.get(now.location.site)
            if at is None:
                at = work[now.location.site] = list(index.get(now.location.site, ()))
            at.insert(bisect.bisect_left(at, k, key=_unit_id), now)
    for site, at in work.items():
        if at:
            index[site] = tuple(at)
        else:
            index.pop(site, None)
    return index


def _unit_id(u: Any) -> str:
    return u.id


def corps_at(state: GameState, area: str) -> list[Corps]:
    """Corps in ``area``, in its city or its rural part, by id."""
    return [
        u for u in units_at(state, area)
        if isinstance(u, Corps) and u.location.kind in (LocationKind.AREA, LocationKind.CITY)
    ]


def is_besieged(state: GameState, ctx: Where, area: str) -> bool:
    """The city of ``area`` is besieged: a corps at war with the city's holder besieges it (10.4.3)."""
    holder = city_holder(state, ctx, area)
    return any(
        c.besieging and c.location.kind is LocationKind.AREA and at_war(state, unit_side(state, c), holder)
        for c in corps_at(state, area)
    )


def is_blockaded(state: GameState, ctx: Where, port: str, power: str | None = None) -> bool:
    """A fleet with ships at war with ``power`` (by default the port's holder) is in ``port``'s blockade box (8.8)."""
    subject = power if power is not None else port_holder(state, ctx, port)
    return any(
        isinstance(u, Fleet) and u.location.kind is LocationKind.BLOCKADE
        and u.ships.total > 0 and at_war(state, subject, unit_side(state, u))
        for u in units_at(state, port)
    )
