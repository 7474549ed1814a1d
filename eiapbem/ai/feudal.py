"""Turkey's feudal corps at the computer's hands (13.2.3, 000:2436-2468; 12.9, 000:2348-2350).

The rules core has every step (``rules.land.feudal``: stand down, come back; ``rules.economy.levy``: raised to full
strength in December); the computer used none of them, so Turkey's feudal corps, which start the 1805 campaign
in the pool at full strength (5.3.1, 000:442), never reached the map.  Every level, by one rule:

- **back on the map** (``plan``, Turkey's land slot, before the land plan): while Turkey is at war (a major or a
  neutral minor, ``assess.at_war_anywhere``), each feudal corps in the pool that still has factors comes back in a
  city area of its home province (``land.return-feudal``; it may not move that month, 000:2456), the area nearest
  an enemy corps first, ties by id; the rules refuse a province an enemy holds or stands in.  In winter it comes
  back only when enemy field forces are within ``operations.REACH`` of its province (+2 to every forage roll there,
  10.5.1, 13.1);
- **stood down when idle** (``stand_down``, after the land plan's moves, before its battles; at peace before the
  reserve rests, and an army with no goal does not gather its feudal corps, ``operations.march``): a feudal corps on the
  map that did not move this slot, with no enemy in its area, that would lose factors foraging where it stands
  (the power's depot supply does not cover it, ``logistics.supply_of``), or pay for depot supply with no enemy
  within ``THREAT`` movement points, leaves the map keeping its factors
  (``land.stand-down``, 000:2448) -- a strong Turkish player's answer to winter and to an empty treasury, and no
  maintenance is due for it (12.5.1, 000:2468);
- **raised in December** (``levy``, the economic orders): every feudal corps below its full strength
  (``economy.levy.feudal_full``) is raised (``economic.place-levy``, 000:2442) -- on the map, in its own area when
  that is in its home province, else where it would come back; from the pool only while Turkey is at war.

Every order is tried through the rules (``Builder.try_``); nothing here edits the state.
"""

from __future__ import annotations

from typing import Any

import eiapbem.ai.assess as assess
from eiapbem.rules import control, supply
from eiapbem.rules.forces import feudal_province
from eiapbem.rules.model import POOL, Corps, CorpsType, LocationKind

TURKEY = "TU"
#: In winter a feudal corps comes back only with enemy field forces within this many movement points of its province
#: (``operations.REACH``: two months' march).
THREAT = 8


def feudal_corps(state: Any, power: str) -> list[Corps]:
    """``power``'s feudal corps (13.2.3), by id."""
    return [u for _, u in sorted(state.units.items())
            if isinstance(u, Corps) and u.corps_type is CorpsType.FEUDAL and u.nation == power]


def _areas(b: Any, corps_id: str, *, cities: bool) -> list[str]:
    """Areas of the corps' home province (city areas only with ``cities``), the nearest to an enemy corps first."""
    m = b.ctx.map
    origin = feudal_province(b.ctx, corps_id)
    if origin is None:
        return []
    areas = [a for a in m.areas_of_province(origin) if not cities or m.area(a).city is not None]
    enemy = sorted({c.location.site for c in assess.enemy_field_corps(b.state, b.power)})

    def nearness(a: str) -> tuple[int, str]:
        far = assess.distances_from(b.ctx, a)
        return min((far[e] for e in enemy if e in far), default=1 << 20), a

    return sorted(areas, key=nearness)


def plan(b: Any, lvl: Any) -> None:
    """Land slot: feudal corps that stood down (or start in the pool) come back while at war (000:2452-2456)."""
    from eiapbem.rules.land.feudal import ReturnFeudal

    if b.power != TURKEY or not assess.at_war_anywhere(b.state, b.power):
        return
    winter = b.state.date.month in supply.WINTER_MONTHS
    for u in feudal_corps(b.state, b.power):
        if u.location != POOL or u.factors.total == 0:
            continue
        areas = _areas(b, u.id, cities=True)
        if winter and not any(assess.enemy_forces_near(b.state, b.ctx, a, b.power, THREAT) for a in areas):
            continue
        for a in areas:
            if b.try_(ReturnFeudal(unit=u.id, area=a)):
                break


def stand_down(b: Any, lvl: Any, budget: Any) -> None:
    """Land slot, after the moves: idle feudal corps that would lose factors foraging where they stand leave the map
    keeping their factors (000:2448)."""
    import eiapbem.ai.logistics as logistics
    from eiapbem.rules.land.feudal import StandDown

    if b.power != TURKEY or b.state.movement_over:
        return
    for u in feudal_corps(b.state, b.power):
        u = b.state.units[u.id]
        rec = b.state.land_moves.get(u.id)
        if u.location.kind is not LocationKind.AREA or u.besieging or u.factors.total == 0 \
                or (rec is not None and (rec.spent or rec.placed_back or rec.foraged)):
            continue
        if assess.forces_in(b.state, b.ctx, u.location.site, b.power).enemy:
            continue
        others = sum(1 for c in control.corps_at(b.state, u.location.site) if c.id != u.id and c.factors.total)
        _, cost, lost = logistics.supply_of(b, lvl, budget.trial(), u, u.location.site, (0, ()), others)
        idle = not assess.enemy_forces_near(b.state, b.ctx, u.location.site, b.power, THREAT)
        if lost or cost and idle:
            b.try_(StandDown(unit=u.id))


def levy(b: Any, lvl: Any) -> None:
    """December's economic orders: every feudal corps below full strength is raised (000:2442)."""
    from eiapbem.rules.economy.levy import feudal_full
    from eiapbem.rules.economy.phase import PlaceLevy

    st = b.state
    if b.power != TURKEY or st.date.month != 12:
        return
    war = assess.at_war_anywhere(st, b.power)
    for u in feudal_corps(st, b.power):
        if u.factors == feudal_full(b.ctx, u.id):
            continue
        on_map = u.location.kind is not LocationKind.POOL
        if not on_map and not war:
            continue
        areas = _areas(b, u.id, cities=False)
        if on_map and u.location.site in areas:
            areas = [u.location.site] + [a for a in areas if a != u.location.site]
        for a in areas:
            if b.try_(PlaceLevy(corps=u.id, area=a)):
                break


__all__ = ["TURKEY", "feudal_corps", "levy", "plan", "stand_down"]
