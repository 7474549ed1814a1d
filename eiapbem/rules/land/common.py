"""What the land phase's rules share: who is an enemy, what stands in an area, who may go where.

Hostility and control come from ``eiapbem.rules.relations`` and
``eiapbem.rules.control``; this module adds the questions movement
and combat ask of an area (10.4.1-10.4.2, 10.4.7, 11.1).  Every function is
a pure function of the state and the map; every list is ordered by id.
"""

from __future__ import annotations

from typing import Any

from eiapbem.rules import control, relations, supply
from eiapbem.rules.model import Corps, CorpsType, Depot, GameState, Garrison, LocationKind, garrison_id
from eiapbem.rules.forces import IRREGULAR, counters_in_section  # noqa: F401  (the stack count lives in the forces kernel)

#: 10.4.2 (000:1400): Cossacks and Freikorps need not stop among enemies.
NEED_NOT_STOP = (CorpsType.COSSACK, CorpsType.FREIKORPS)


def is_enemy(state: GameState, power: str, unit: Any) -> bool:
    """``unit`` belongs to a nation at war with ``power`` (a power, a controlled minor, or a neutral minor at war)."""
    return relations.at_war(state, power, relations.unit_side(state, unit))


def field_units(state: GameState, area: str) -> list[Any]:
    """Corps and depot garrisons in ``area`` outside its city (the rural sections, 10.4.1 000:1360), by id."""
    return [
        u for u in control.units_at(state, area)
        if isinstance(u, (Corps, Garrison)) and u.location.kind is LocationKind.AREA
    ]


def enemy_field_corps(state: GameState, area: str, power: str, *, irregulars: bool = False) -> list[Corps]:
    """Enemy corps outside the city of ``area`` (Cossacks, Freikorps and guerrillas only if asked)."""
    return [
        u for u in field_units(state, area)
        if isinstance(u, Corps) and (irregulars or u.corps_type not in IRREGULAR) and is_enemy(state, power, u)
    ]


def enemy_depot_garrisons(state: GameState, area: str, power: str) -> list[Garrison]:
    """Enemy depot garrisons in ``area`` (garrisons at a depot stand in the area, 10.4.3)."""
    return [u for u in field_units(state, area) if isinstance(u, Garrison) and u.factors.total > 0 and is_enemy(state, power, u)]


def ungarrisoned_enemy_depots(state: GameState, area: str, power: str) -> list[str]:
    """Enemy depots in ``area`` (not in its city) with no garrison of their power there (10.4.6, 000:1456), by id."""
    out = []
    for u in control.units_at(state, area):
        if isinstance(u, Depot) and u.location.kind is LocationKind.AREA and relations.at_war(state, power, u.power):
            g = state.units.get(garrison_id(u.power, u.location))
            if not (isinstance(g, Garrison) and g.factors.total > 0):
                out.append(u.id)
    return sorted(out)


def unbesieged_enemy_corps(state: GameState, m: Any, area: str, power: str) -> list[Corps]:
    """Enemy corps (not Cossacks, Freikorps, guerrillas) in ``area`` that are not besieged: outside its
    city, or inside a city no one besieges (the river cost of 10.4.1, 000:1384)."""
    return [
        c for c in control.corps_at(state, area)
        if c.corps_type not in IRREGULAR and is_enemy(state, power, c) and supply.unit_unbesieged(state, m, c)
    ]


def must_stop_in(state: GameState, area: str, power: str) -> str | None:
    """Why a corps entering ``area`` must cease movement there (10.4.2, 000:1398; 10.4.7, 000:1462-1468), or None.

    Enemy corps inside the city do not stop it (10.4.7 "City Garrison in Area", 000:1472).
    """
    corps = enemy_field_corps(state, area, power)
    if corps:
        return f"the enemy corps {corps[0].id} is in {area}"
    garrisons = enemy_depot_garrisons(state, area, power)
    if garrisons:
        return f"the enemy depot garrison {garrisons[0].id} is in {area}"
    return None


def may_enter_territory(state: GameState, m: Any, area: str, power: str) -> str | None:
    """Why ``power``'s forces may not enter ``area`` (13.4.1, 000:2544-2556), or None.

    A major power's territory is open to itself, to powers at war with it, and to
    powers it grants access (voluntary, temporary until its last month, enforced);
    minor countries are open to all (000:2546).
    """
    owner = control.territory_power(state, m, area)
    if owner is None or relations.has_access(state, power, owner) or relations.at_war(state, power, owner):
        return None
    return (f"{area} is {owner}'s territory and {power} has neither access there nor a war with {owner} "
            f"(13.4.1, 000:2550); move around it or obtain access in the diplomacy phase")


