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

from typing import Any

from eiapbem.core.errors import IllegalAction
from eiapbem.rules import relations
from eiapbem.rules.model import (
    POWERS,
    Corps,
    FactorType,
    Factors,
    Fleet,
    GameState,
    LocationKind,
    ShipType,
    Ships,
)
from eiapbem.rules.model.powers import SHIP_ITEMS, BuildOrder
from eiapbem.rules.forces import ARMY_ITEMS, covers


# ----------------------------------------------------------------- counters (world data)


# ----------------------------------------------------------------- nations and units


def purchased(state: GameState, unit: Corps | Fleet) -> bool:
    """A pool counter bought in an economic phase and still placeable (12.5.4, 000:2238)."""
    return unit.location.kind is LocationKind.POOL and unit.placeable_until is not None and state.date <= unit.placeable_until


# ----------------------------------------------------------------- reinforcements due


def _due_orders(state: GameState, nation: str, items: tuple[str, ...], port: str | None = None) -> list[BuildOrder]:
    power = relations.power_of(state, nation)
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
    power = relations.power_of(state, nation)
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
