"""Leader retirement and placement (7.4, 000:982-994; 13.8, 13.8.1 000:2638).

A leader is placed with an unbesieged corps its power controls (Nelson with a
fleet) in an area free of enemy corps; a leader on the map moves only to
another corps in the same area.  A retired leader leaves the map and may come
back at any *later* reinforcement phase: it is stored as inactive, returning
next month.  A leader in a besieged city may not retire, unless the city is a
port that is not blockaded.  Leaders removed by peace condition C.6 come back
only after the economic phase made them eligible again (13.8.3), which is the
economic rules' business: here they cannot be placed.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from eiapbem.core.errors import IllegalAction
from eiapbem.rules import candidates, control, engine, supply
from eiapbem.rules.model import Corps, GameState, Leader, LeaderStatus, LocationKind
from eiapbem.rules.model.base import Record
from eiapbem.rules.forces import the_leader
from eiapbem.rules.placement import attach_leader, check_leader
from eiapbem.rules.engine import RulesContext


def ready(state: GameState, leader: Leader) -> bool:
    """Available, or retired (or wounded, or left unassigned) and back by this month (7.4, 13.8)."""
    if leader.status is LeaderStatus.AVAILABLE:
        return True
    return leader.status is LeaderStatus.INACTIVE and leader.returns is not None and leader.returns <= state.date


def _unit_area(unit: Any) -> str:
    return unit.location.site


@dataclass(frozen=True, slots=True)
class AssignLeader(Record):
    """Place a leader with a corps (Nelson: a fleet), or move him to another corps in his area (7.4)."""

    KIND = "reinforcement.assign-leader"
    COMMAND = "assign-leader"
    BUTTON = "Assign Leader to Unit"

    leader: str
    unit: str


def _verify_assign(state: GameState, power: str, a: AssignLeader, ctx: RulesContext) -> None:
    m = ctx.map
    lead, unit = check_leader(state, ctx, power, a.leader, a.unit)
    area = _unit_area(unit)
    if lead.status is LeaderStatus.ON_MAP:
        here = state.units[lead.attached_to]  # type: ignore[index]
        if _unit_area(here) != area:
            raise IllegalAction(
                f"{lead.id} is in {_unit_area(here)}, not {area}: a leader moves only to a unit in his own area; retire him "
                f"this month and place him next month (7.4, 000:984)"
            )
    elif not ready(state, lead):
        why = {
            LeaderStatus.UNAVAILABLE: "has not entered the game yet",
            LeaderStatus.CAPTURED: f"is held by {lead.captured_by} (13.8.2)",
            LeaderStatus.REMOVED: "was removed by peace condition C.6 and has not been made eligible again (13.8.3, 000:994)",
            LeaderStatus.DEAD: "is dead (13.8.4)",
            LeaderStatus.INACTIVE: f"may come back only from {lead.returns} (7.4, 000:984)",
        }[lead.status]
        raise IllegalAction(f"{lead.id} cannot be placed: he {why}")
    if isinstance(unit, Corps):
        if not supply.unit_unbesieged(state, m, unit):
            raise IllegalAction(f"{unit.id} is besieged in {area}; a leader joins only an unbesieged corps (13.8.1, 000:2638)")
        if supply.enemy_corps_in(state, area, power):
            raise IllegalAction(f"an enemy corps is in {area}; leaders are placed only where no enemy corps is (7.4, 000:986)")


def _apply_assign(state: GameState, power: str, a: AssignLeader, ctx: RulesContext) -> engine.Outcome:
    lead = the_leader(state, a.leader)
    verb = "moves" if lead.status is LeaderStatus.ON_MAP else "places"
    state = attach_leader(state, lead, a.unit)
    return engine.log(state, power, "reinforcement.assign-leader", f"{power} {verb} {lead.id} with {a.unit}", leader=lead.id, unit=a.unit)


@dataclass(frozen=True, slots=True)
class RetireLeader(Record):
    """Retire a leader from the map; he may return at any later reinforcement phase (7.4)."""

    KIND = "reinforcement.retire-leader"
    COMMAND = "retire-leader"
    BUTTON = "Remove Counter from Map"

    leader: str


def _verify_retire(state: GameState, power: str, a: RetireLeader, ctx: RulesContext) -> None:
    m = ctx.map
    lead = the_leader(state, a.leader)
    if lead.power != power or lead.loaned_to is not None:
        raise IllegalAction(f"{lead.id} is not {power}'s to retire" + (f" while loaned to {lead.loaned_to}" if lead.loaned_to else ""))
    if lead.status is not LeaderStatus.ON_MAP:
        raise IllegalAction(f"{lead.id} is not on the map")
    unit = state.units[lead.attached_to]  # type: ignore[index]
    if isinstance(unit, Corps) and unit.location.kind is LocationKind.CITY:
        area = unit.location.site
        if control.is_besieged(state, m, area):
            port = m.area(area).port is not None
            if not port or control.is_blockaded(state, m, area, power):
                raise IllegalAction(
                    f"{lead.id} is in the besieged city of {area}{' and its port is blockaded' if port else ''}; he may not retire (7.4, 000:984)"
                )


def _apply_retire(state: GameState, power: str, a: RetireLeader, ctx: RulesContext) -> engine.Outcome:
    lead = the_leader(state, a.leader)
    back = state.date.next()
    state = state.with_leader(lead.replace(status=LeaderStatus.INACTIVE, attached_to=None, returns=back))
    return engine.log(state, power, "reinforcement.retire-leader", f"{power} retires {lead.id}; he may return from {back}",
                      leader=lead.id, returns=str(back))


# ----------------------------------------------------------------- candidates (engine.legal_actions)


def _assign_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[AssignLeader]:
    units = [u.id for u in candidates.own_corps(state, power) + candidates.own_fleets(state, power)]
    for lid, lead in sorted(state.leaders.items()):
        if lead.power == power or lead.loaned_to == power:
            yield from (AssignLeader(lid, u) for u in units)


def _retire_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[RetireLeader]:
    for lid, lead in sorted(state.leaders.items()):
        if lead.power == power and lead.status is LeaderStatus.ON_MAP:
            yield RetireLeader(lid)


ACTIONS = (
    (AssignLeader, _verify_assign, _apply_assign, _assign_candidates),
    (RetireLeader, _verify_retire, _apply_retire, _retire_candidates),
)
