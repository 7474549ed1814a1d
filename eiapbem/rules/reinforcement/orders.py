"""Changing the move order (7.5, 000:996-1000) and loaning forces to allies (7.6, 7.6.1; 000:1002-1014).

A loan lasts for the rest of the month (000:1002): ``sequence.advance`` gives
every loaned unit and leader back when a new month begins.  7.6.1's returns
during play are functions the naval and land phases call:
``revert_on_entry`` (a power enters an area holding corps loaned by its enemy
to a power it is not at war with), ``revert_fleets_on_attack`` (the same for
fleets, once the attack is set up) and ``repatriate_attacked_corps`` (a
loaned corps attacked by an enemy of its borrower that is not its owner's
enemy goes home).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from eiapbem.core.errors import IllegalAction
from eiapbem.rules import control, engine, mapgraph, relations, supply
from eiapbem.rules.model import POWERS, Corps, Fleet, GameState, LeaderStatus, Location, LocationKind
from eiapbem.rules.model.base import Range, Record

Position = Annotated[int, Range(1, 7)]

#: 7.5: who may choose a position, and in which phase.
MOVABLE = {"GB": "naval", "FR": "land"}


@dataclass(frozen=True, slots=True)
class ChangeOrder(Record):
    """Choose Great Britain's position in the next naval phase or France's in the next land phase (7.5)."""

    KIND = "reinforcement.change-order"
    COMMAND = "change-order"
    BUTTON = "Change Order"

    #: 1 = first, 7 = last of the seven powers.
    position: Position


def _verify_change_order(state: GameState, power: str, a: ChangeOrder, ctx: Any) -> None:
    if power not in MOVABLE:
        raise IllegalAction(
            f"only Great Britain (naval phase) and France (land phase) may change their move order, not {power} (7.5, 000:998)"
        )


def _apply_change_order(state: GameState, power: str, a: ChangeOrder, ctx: Any) -> engine.Outcome:
    field = "gb_naval_position" if power == "GB" else "fr_land_position"
    state = state.replace(move_order=state.move_order.replace(**{field: a.position}))
    return engine.log(state, power, "reinforcement.change-order",
                      f"{power} will move in position {a.position} of this month's {MOVABLE[power]} phase",
                      phase=MOVABLE[power], position=a.position)


# ----------------------------------------------------------------- 7.6 loans


def _lendable(state: GameState, power: str, uid: str) -> Corps | Fleet | Any:
    if uid.startswith("leader:"):
        lead = state.leaders.get(uid)
        if lead is None:
            raise IllegalAction(f"there is no leader {uid!r}")
        if lead.power != power:
            raise IllegalAction(f"{uid} is not {power}'s leader")
        if lead.status is not LeaderStatus.ON_MAP:
            raise IllegalAction(f"{uid} is not on the map; only leaders on the map may be loaned (7.6, 000:1002)")
        return lead
    unit = state.units.get(uid)
    if not isinstance(unit, (Corps, Fleet)):
        raise IllegalAction(f"there is no corps, fleet or leader {uid!r}; corps, leaders and fleets may be loaned (7.6, 000:1002)")
    if unit.nation not in (power,) + state.free_states(power):
        raise IllegalAction(f"{uid} is not {power}'s to lend")
    if unit.location.kind is LocationKind.POOL:
        raise IllegalAction(f"{uid} is not on the map")
    return unit


@dataclass(frozen=True, slots=True)
class LendUnit(Record):
    """Loan a corps, fleet or leader to an ally for the rest of the month (7.6)."""

    KIND = "reinforcement.lend-unit"
    COMMAND = "lend-unit"
    BUTTON = "Lend Unit to Ally"

    #: A corps, fleet or leader id.
    unit: str
    ally: str


def _verify_lend(state: GameState, power: str, a: LendUnit, ctx: Any) -> None:
    if a.ally not in POWERS or a.ally == power:
        raise IllegalAction(f"{a.ally!r} is not another major power")
    if a.ally not in state.powers[power].alliances:
        raise IllegalAction(f"{power} is not allied with {a.ally}; forces are loaned only to allies (7.6, 000:1002)")
    u = _lendable(state, power, a.unit)
    if u.loaned_to is not None:
        raise IllegalAction(f"{a.unit} is already loaned to {u.loaned_to}")


def _apply_lend(state: GameState, power: str, a: LendUnit, ctx: Any) -> engine.Outcome:
    u = _lendable(state, power, a.unit)
    state = state.with_leader(u.replace(loaned_to=a.ally)) if a.unit.startswith("leader:") else state.with_unit(u.replace(loaned_to=a.ally))
    return engine.log(state, power, "reinforcement.lend-unit", f"{power} lends {a.unit} to {a.ally} for the rest of the month",
                      unit=a.unit, ally=a.ally)


@dataclass(frozen=True, slots=True)
class RecallUnit(Record):
    """Take back a corps, fleet or leader loaned to an ally earlier in this phase (7.6)."""

    KIND = "reinforcement.recall-unit"
    COMMAND = "recall-unit"
    BUTTON = "Lend Unit to Ally"

    unit: str


def _verify_recall(state: GameState, power: str, a: RecallUnit, ctx: Any) -> None:
    u = _lendable(state, power, a.unit)
    if u.loaned_to is None:
        raise IllegalAction(f"{a.unit} is not on loan")


def _apply_recall(state: GameState, power: str, a: RecallUnit, ctx: Any) -> engine.Outcome:
    u = _lendable(state, power, a.unit)
    state = state.with_leader(u.replace(loaned_to=None)) if a.unit.startswith("leader:") else state.with_unit(u.replace(loaned_to=None))
    return engine.log(state, power, "reinforcement.recall-unit", f"{power} takes back {a.unit} from {u.loaned_to}", unit=a.unit)


# ----------------------------------------------------------------- 7.6.1 loaned forces in play


def _owner(state: GameState, u: Corps | Fleet) -> str | None:
    return relations.power_of(state, u.nation)


def revert_on_entry(state: GameState, mover: str, area: str) -> tuple[GameState, tuple[str, ...]]:
    """7.6.1 (000:1006): ``mover`` enters ``area``; corps there loaned by a power it is at war with to a
    power it is not at war with go back to their owner (and a battle may follow).  Returns the ids."""
    back: list[str] = []
    for c in control.corps_at(state, area):
        if c.loaned_to is not None and relations.at_war(state, mover, c.nation) and not relations.at_war(state, mover, c.loaned_to):
            state = state.with_unit(c.replace(loaned_to=None))
            back.append(c.id)
    return state, tuple(back)


def revert_fleets_on_attack(state: GameState, attacker: str, fleet_ids: tuple[str, ...]) -> tuple[GameState, tuple[str, ...]]:
    """7.6.1 (000:1006-1008): when ``attacker`` sets up an attack on fleets loaned by its enemy to a power
    it is not at war with, those fleets return to their owner.  Returns the ids."""
    back: list[str] = []
    for fid in sorted(fleet_ids):
        f = state.units.get(fid)
        if isinstance(f, Fleet) and f.loaned_to is not None and relations.at_war(state, attacker, f.nation) \
                and not relations.at_war(state, attacker, f.loaned_to):
            state = state.with_unit(f.replace(loaned_to=None))
            back.append(fid)
    return state, tuple(back)


def _home_city(state: GameState, m: Any, owner: str, start: str) -> str | None:
    """The nearest (by movement cost, then id) unbesieged home city ``owner`` controls, from ``start``."""
    costs = mapgraph.movement_costs(m, start)
    best = sorted(
        (cost, a) for a, cost in costs.items()
        if m.area(a).city is not None and supply.is_home_area(state, m, a, owner)
        and control.city_power(state, m, a) == owner and not control.is_besieged(state, m, a)
    )
    return best[0][1] if best else None


def repatriate_attacked_corps(state: GameState, m: Any, attacker: str, corps_ids: tuple[str, ...]) -> tuple[GameState, tuple[str, ...]]:
    """7.6.1 (000:1006): loaned corps in a group attacked by a power at war with the borrower but not with
    the owner go back to their owner and to the owner's territory (the nearest unbesieged home city it
    holds; a corps already inside its home nation stays).  Returns the ids."""
    back: list[str] = []
    for cid in sorted(corps_ids):
        c = state.units.get(cid)
        if not isinstance(c, Corps) or c.loaned_to is None:
            continue
        owner = _owner(state, c)
        if owner is None or not relations.at_war(state, attacker, c.loaned_to) or relations.at_war(state, attacker, c.nation):
            continue
        where = c.location
        if where.kind in (LocationKind.AREA, LocationKind.CITY) and not supply.is_home_area(state, m, where.site, c.nation):
            home = _home_city(state, m, c.nation, where.site)
            if home is not None:
                where = Location(LocationKind.AREA, home)
        state = state.with_unit(c.replace(loaned_to=None, location=where, besieging=False))
        back.append(cid)
    return state, tuple(back)


ACTIONS = (
    (ChangeOrder, _verify_change_order, _apply_change_order),
    (LendUnit, _verify_lend, _apply_lend),
    (RecallUnit, _verify_recall, _apply_recall),
)
