"""What the reinforcement actions share: counter capacities, the reinforcements due,
and lookups with refusals that name the unit.

Reinforcements due to a nation (a power or one of its minor free states) are
its build orders whose month has come (12.5.3, 000:2232) plus, for a power,
its returned factors (exchanged prisoners, 6.4).  Placing factors or ships
takes them out of those orders, oldest month first; army factors still due
when the power ends its slot are lost (7.2.2, 000:930), ships wait (7.1.2,
000:912).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from eiapbem.core.errors import IllegalAction
from eiapbem.rules import supply
from eiapbem.rules.model import (
    POWERS,
    Corps,
    FactorType,
    Factors,
    Fleet,
    GameState,
    Garrison,
    LocationKind,
    ShipType,
    Ships,
)
from eiapbem.rules.model.powers import SHIP_ITEMS, BuildOrder

#: Army factor types a build order delivers (12.5.3; 7.2.2, 000:930).
ARMY_ITEMS: tuple[FactorType, ...] = (
    FactorType.INFANTRY, FactorType.MILITIA, FactorType.CAVALRY, FactorType.GUARD, FactorType.ARTILLERY,
)
#: Garrison factors are regular infantry and militia (10.4.3, 000:1424).
GARRISON_ITEMS: tuple[FactorType, ...] = (FactorType.INFANTRY, FactorType.MILITIA)


def factors_from(obj: Any) -> Factors:
    """The army factors named by an action's ``infantry … artillery`` fields."""
    return Factors(**{t.value: getattr(obj, t.value, 0) for t in ARMY_ITEMS})


def ships_from(obj: Any) -> Ships:
    return Ships(heavy=obj.heavy, light=obj.light, transport=obj.transport)


def fits(have: Factors | Ships, cap: Factors | Ships) -> list[str]:
    """The types where ``have`` exceeds ``cap``, as ``infantry 16 > 15``."""
    kinds = ShipType if isinstance(have, Ships) else FactorType
    return [f"{k.value} {have.get(k)} > {cap.get(k)}" for k in kinds if have.get(k) > cap.get(k)]


def covers(a: Factors | Ships, b: Factors | Ships) -> bool:
    kinds = ShipType if isinstance(a, Ships) else FactorType
    return all(a.get(k) >= b.get(k) for k in kinds)


# ----------------------------------------------------------------- counters (world data)


def counter_max(world: Mapping[str, Any], unit_id: str) -> Mapping[str, int]:
    """The counter mix's most factors or ships of each type for counter ``unit_id`` (empty if not in the mix)."""
    owner = unit_id.split(":")[1]
    data = world.get("counters.json", {})
    block = data.get("powers", {}).get(owner) or data.get("minors", {}).get(owner) or {}
    for c in list(block.get("corps", [])) + list(block.get("fleets", [])):
        if c["id"] == unit_id:
            return c.get("max", {})
    return {}


def corps_capacity(ctx: Any, corps: Corps) -> Factors:
    """The most factors of each type the counter holds (counter mix data; 7.2.2 "full strength")."""
    return Factors(**{k.replace("-", "_"): v for k, v in counter_max(ctx.world, corps.id).items()})


def fleet_capacity(ctx: Any, fleet: Fleet) -> Ships:
    """The most ships of each type the fleet counter holds (7.1.2 "ship capacity")."""
    return Ships(**counter_max(ctx.world, fleet.id))


def garrison_capacity(state: GameState, m: Any, area: str) -> int:
    """10.4.3: a city holds five garrison factors per supply value."""
    city = m.area(area).city
    return city.garrison_capacity if city is not None else 0


def city_garrison_total(state: GameState, area: str) -> int:
    return sum(
        u.factors.total for u in state.units.values()
        if isinstance(u, Garrison) and u.location.kind is LocationKind.CITY and u.location.site == area
    )


# ----------------------------------------------------------------- nations and units


def check_nation(state: GameState, power: str, nation: str) -> None:
    """``nation`` is ``power`` itself or one of its minor free states."""
    if nation != power and nation not in state.free_states(power):
        raise IllegalAction(
            f"{power} places only its own forces and those of its minor free states, not {nation}'s (7.2, 000:930-936)"
        )


def the_corps(state: GameState, corps_id: str) -> Corps:
    u = state.units.get(corps_id)
    if not isinstance(u, Corps):
        raise IllegalAction(f"there is no corps {corps_id!r}", hint="corps ids look like corps:FR:III")
    return u


def the_fleet(state: GameState, fleet_id: str) -> Fleet:
    u = state.units.get(fleet_id)
    if not isinstance(u, Fleet):
        raise IllegalAction(f"there is no fleet {fleet_id!r}", hint="fleet ids look like fleet:GB:1")
    return u


def the_area(m: Any, area: str) -> Any:
    if not m.is_area(area):
        raise IllegalAction(f"there is no land area {area!r} on the map", hint="areas are named by slug, like paris")
    return m.area(area)


def on_map(unit: Corps | Fleet | Garrison) -> bool:
    return unit.location.kind is not LocationKind.POOL


def own_unit(state: GameState, power: str, unit: Corps | Fleet, what: str) -> None:
    """``unit`` belongs to ``power`` or one of its free states and is not loaned out (7.6)."""
    if supply.power_of(state, unit.nation) != power or unit.nation not in (power,) + state.free_states(power):
        raise IllegalAction(f"{unit.id} is not {power}'s to {what}")
    if unit.loaned_to is not None:
        raise IllegalAction(f"{unit.id} is loaned to {unit.loaned_to} this month (7.6, 000:1002); {power} cannot {what} it")


def purchased(state: GameState, unit: Corps | Fleet) -> bool:
    """A pool counter bought in an economic phase and still placeable (12.5.4, 000:2238)."""
    return unit.location.kind is LocationKind.POOL and unit.placeable_until is not None and state.date <= unit.placeable_until


# ----------------------------------------------------------------- reinforcements due


def _due_orders(state: GameState, nation: str, items: tuple[str, ...], port: str | None = None) -> list[BuildOrder]:
    power = supply.power_of(state, nation)
    if power is None or power not in POWERS:
        return []
    return sorted(
        (o for o in state.powers[power].builds.values()
         if o.nation == nation and o.item in items and o.arrives <= state.date and (port is None or o.port == port)),
        key=lambda o: (o.arrives, o.item, o.port or ""),
    )


def due_factors(state: GameState, nation: str) -> Factors:
    """Army factors due to ``nation`` this month and not yet placed (7.2.2)."""
    total = Factors()
    for o in _due_orders(state, nation, tuple(t.value for t in ARMY_ITEMS)):
        total = total.with_(FactorType(o.item), total.get(FactorType(o.item)) + o.count)
    if nation in POWERS:
        total = total + state.powers[nation].returned_factors
    return total


def due_ships(state: GameState, nation: str, port: str) -> Ships:
    """Ships due (this month or postponed, 7.1.2) to ``nation`` in ``port``."""
    counts = {t: 0 for t in SHIP_ITEMS}
    for o in _due_orders(state, nation, SHIP_ITEMS, port):
        counts[o.item] += o.count
    return Ships(**counts)


def _take(state: GameState, nation: str, item: str, n: int, port: str | None) -> GameState:
    power = supply.power_of(state, nation)
    assert power is not None
    builds = state.powers[power].builds
    for o in _due_orders(state, nation, (item,), port):
        if n == 0:
            break
        used = min(n, o.count)
        n -= used
        builds = builds.remove(o.key) if used == o.count else builds.set(o.key, o.replace(count=o.count - used))
    assert n == 0, "verify checked that enough is due"
    return state.with_power(power, builds=builds)


def take_factors(state: GameState, nation: str, factors: Factors) -> GameState:
    """Take ``factors`` from what is due: returned factors first, then build orders, oldest first."""
    for t in ARMY_ITEMS:
        n = factors.get(t)
        if n == 0:
            continue
        if nation in POWERS:
            back = state.powers[nation].returned_factors
            used = min(n, back.get(t))
            if used:
                state = state.with_power(nation, returned_factors=back.with_(t, back.get(t) - used))
                n -= used
        if n:
            state = _take(state, nation, t.value, n, None)
    return state


def take_ships(state: GameState, nation: str, port: str, ships: Ships) -> GameState:
    for t in ShipType:
        if ships.get(t):
            state = _take(state, nation, t.value, ships.get(t), port)
    return state


def check_due(state: GameState, nation: str, factors: Factors) -> None:
    due = due_factors(state, nation)
    if not covers(due, factors):
        raise IllegalAction(
            f"{nation} has {due.describe()} due as reinforcements this month, not {factors.describe()} (7.2.2, 000:930)",
            hint="'eiapbem show pool' lists the purchases on order and those due now",
        )


def available(state: GameState, power: str) -> dict[str, Any]:
    """What ``power`` may place this month, for display ("View Available Counters", 7.1.1 and 7.2.1 notes;
    "Current Reinforcement", 7.2.2): per nation (the power and its free states) the army factors due, the
    ships due by port, and the bought counters waiting in the pool; and the leaders ready to be placed."""
    out: dict[str, Any] = {}
    for nation in (power,) + state.free_states(power):
        ports = sorted({o.port for o in _due_orders(state, nation, SHIP_ITEMS) if o.port})
        out[nation] = {
            "factors": due_factors(state, nation),
            "ships": {p: due_ships(state, nation, p) for p in ports},
            "counters": [u.id for u in state.units.values() if isinstance(u, (Corps, Fleet)) and u.nation == nation and purchased(state, u)],
        }
    from eiapbem.rules.reinforcement.leaders import ready

    out["leaders"] = [lid for lid, lead in state.leaders.items() if lead.power == power and ready(state, lead)]
    return out
