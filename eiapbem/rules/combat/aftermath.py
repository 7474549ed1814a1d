"""After a land combat: captured leaders, surrender, leader casualties, depots, emptied corps.

- leaders are captured when every factor of their side is eliminated (13.8.2, 000:2642);
- a force that cannot retreat surrenders: its factors become prisoners (000:1852);
- leader casualties, optional rule 13.8.4 (000:2654);
- enemy depots in an area left to one side are destroyed (11.2.14, 000:1930);
- corps emptied by losses leave the map (11.5, 000:2024).
"""

from __future__ import annotations

from typing import Any

from eiapbem.rules import engine
from eiapbem.rules.combat.battle import (
    ROLES,
    FieldBattle,
    event,
    is_corps,
    leaders_with,
    other,
    side_powers,
    unit_factors,
    power_of_unit_id,
)
from eiapbem.rules.model.units import POOL, Depot, Factors, Garrison, LeaderStatus, Location, LocationKind, Prisoners, prisoners_key

#: 13.8.4 (000:2654): a 6 means a leader casualty; a second 6 means killed.
LEADER_CASUALTY_NUMBER = 6


def capture_leaders(state: Any, battle: FieldBattle, role: str, why: str) -> tuple[Any, FieldBattle]:
    side = battle.side(role)
    captor = battle.side(other(role)).power
    for lid in leaders_with(state, side.units):
        leader = state.leaders[lid]
        if captor is None:
            state = state.with_leader(leader.replace(status=LeaderStatus.AVAILABLE, attached_to=None))
            continue
        state = state.with_leader(leader.replace(status=LeaderStatus.CAPTURED, attached_to=None, captured_by=captor))
        battle = event(battle, "battle.capture", f"{lid} is captured by {captor}: {why}", leader=lid, captor=captor)
    return state, battle


def surrender(state: Any, battle: FieldBattle, units: tuple[str, ...], captor: str | None) -> tuple[Any, int]:
    """Army factors become prisoners of ``captor`` (000:1852); returns the factors taken."""
    taken = 0
    for u in units:
        unit = state.units[u]
        if unit.factors.total == 0:
            continue
        taken += unit.factors.total
        if captor is not None:
            key = prisoners_key(captor, unit.nation)
            held = state.prisoners.get(key) or Prisoners(captor=captor, nation=unit.nation)
            state = state.replace(prisoners=state.prisoners.set(key, held.replace(factors=held.factors + unit.factors)))
        state = state.with_unit(unit.replace(factors=Factors()))
    return state, taken


def leader_casualties(state: Any, battle: FieldBattle, ctx: engine.RulesContext) -> tuple[Any, FieldBattle]:
    """Optional rule 13.8.4 (000:2654)."""
    if not state.options.leader_casualties:
        return state, battle
    for role in ROLES:
        present = leaders_with(state, battle.side(role).units)
        if not present:
            continue
        base = f"battle/{battle.id}/leader-casualty/{role}"
        if ctx.dice.d6(base) != LEADER_CASUALTY_NUMBER:
            continue
        lid = present[ctx.dice.roll(f"{base}/which", len(present)) - 1] if len(present) > 1 else present[0]
        severity = ctx.dice.d6(f"{base}/severity")
        leader = state.leaders[lid]
        if severity == LEADER_CASUALTY_NUMBER:
            state = state.with_leader(leader.replace(status=LeaderStatus.DEAD, attached_to=None))
            text = f"{lid} is killed"
        else:
            back = state.date.plus(severity + 1)
            state = state.with_leader(leader.replace(status=LeaderStatus.INACTIVE, attached_to=None, returns=back))
            text = f"{lid} is wounded and out for {severity} months (back {back})"
        battle = event(battle, "battle.leader-casualty", text, role=role, leader=lid, severity=severity)
    return state, battle


def destroy_depots(state: Any, battle: FieldBattle) -> tuple[Any, FieldBattle]:
    """Enemy depots in an area held only by one side are destroyed (11.2.14, 000:1930)."""
    here = Location(LocationKind.AREA, battle.area)
    present = {r: any(state.units[u].location == here and unit_factors(state, u).total > 0 for u in battle.side(r).units)
               for r in ROLES}
    for r in ROLES:
        if present[r] and not present[other(r)]:
            enemies = set(side_powers(state, battle.side(other(r))))
            for uid, u in list(state.units.items()):
                if isinstance(u, Depot) and u.location == here and u.power in enemies:
                    state = state.with_unit(u.replace(location=POOL))
                    battle = event(battle, "battle.depot", f"{uid} in {battle.area} is destroyed", depot=uid)
    return state, battle


def remove_emptied(state: Any, battle: FieldBattle, *, garrisons: bool = True) -> tuple[Any, FieldBattle]:
    """Corps emptied by losses leave the map; their leaders join a surviving corps of their power (11.5, 000:2024).

    Emptied depot garrisons are deleted only with ``garrisons`` (at the end of the
    battle): between days they stay, empty, so every step can still look up each
    unit named on a side.
    """
    for role in ROLES:
        state, removed = clear_emptied(state, battle.side(role).units, garrisons=garrisons)
        for u in removed:
            battle = event(battle, "battle.corps-removed", f"{u} is emptied and removed from the map", unit=u)
    return state, battle


def clear_emptied(state: Any, units: tuple[str, ...], *, garrisons: bool = True) -> tuple[Any, tuple[str, ...]]:
    """The corps among ``units`` (one side of a combat) emptied by losses leave the map (11.5, 000:2024); a leader
    with one joins a surviving corps of his power on the side, else he is off the map, available.  Returns the corps
    removed.  Emptied garrisons are deleted with ``garrisons``."""
    removed = []
    for u in units:
        unit = state.units.get(u)
        if unit is None or unit.factors.total > 0:
            continue
        if isinstance(unit, Garrison):
            if garrisons:
                state = state.without_unit(u)
            continue
        if unit.location == POOL:
            continue
        for lid in sorted(lid for lid, l in state.leaders.items() if l.attached_to == u):
            power = lid.split(":")[1]
            hosts = [h for h in units if is_corps(state, h) and unit_factors(state, h).total > 0
                     and state.units[h].location != POOL and power_of_unit_id(state, h) == power]
            leader = state.leaders[lid]
            if hosts:
                state = state.with_leader(leader.replace(attached_to=hosts[0]))
            else:
                state = state.with_leader(leader.replace(status=LeaderStatus.AVAILABLE, attached_to=None))
        state = state.with_unit(unit.replace(location=POOL, besieging=False))
        removed.append(u)
    return state, tuple(removed)
