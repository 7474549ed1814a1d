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

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Annotated

from eiapbem.core.errors import IllegalAction
from eiapbem.rules import engine, relations
from eiapbem.rules.model import POWERS, Corps, Fleet, GameState, Leader, LeaderStatus, LocationKind
from eiapbem.rules.model.base import Range, Record
from eiapbem.rules.loans import repatriate_attacked_corps, revert_fleets_on_attack, revert_on_entry  # noqa: F401  (re-exported)
from eiapbem.rules.engine import RulesContext

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


def _verify_change_order(state: GameState, power: str, a: ChangeOrder, ctx: RulesContext) -> None:
    if power not in MOVABLE:
        raise IllegalAction(
            f"only Great Britain (naval phase) and France (land phase) may change their move order, not {power} (7.5, 000:998)"
        )


def _apply_change_order(state: GameState, power: str, a: ChangeOrder, ctx: RulesContext) -> engine.Outcome:
    field = "gb_naval_position" if power == "GB" else "fr_land_position"
    state = state.replace(move_order=state.move_order.replace(**{field: a.position}))
    return engine.log(state, power, "reinforcement.change-order",
                      f"{power} will move in position {a.position} of this month's {MOVABLE[power]} phase",
                      phase=MOVABLE[power], position=a.position)


# ----------------------------------------------------------------- 7.6 loans


def _lendable(state: GameState, power: str, uid: str) -> Corps | Fleet | Leader:
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


def _verify_lend(state: GameState, power: str, a: LendUnit, ctx: RulesContext) -> None:
    if a.ally not in POWERS or a.ally == power:
        raise IllegalAction(f"{a.ally!r} is not another major power")
    if a.ally not in relations.allies(state, power):
        raise IllegalAction(f"{power} is not allied with {a.ally}; forces are loaned only to allies (7.6, 000:1002)")
    u = _lendable(state, power, a.unit)
    if u.loaned_to is not None:
        raise IllegalAction(f"{a.unit} is already loaned to {u.loaned_to}")


def _apply_lend(state: GameState, power: str, a: LendUnit, ctx: RulesContext) -> engine.Outcome:
    u = _lendable(state, power, a.unit)
    state = state.with_leader(u.replace(loaned_to=a.ally)) if isinstance(u, Leader) else state.with_unit(u.replace(loaned_to=a.ally))
    return engine.log(state, power, "reinforcement.lend-unit", f"{power} lends {a.unit} to {a.ally} for the rest of the month",
                      unit=a.unit, ally=a.ally)


@dataclass(frozen=True, slots=True)
class RecallUnit(Record):
    """Take back a corps, fleet or leader loaned to an ally earlier in this phase (7.6)."""

    KIND = "reinforcement.recall-unit"
    COMMAND = "recall-unit"
    BUTTON = "Lend Unit to Ally"

    unit: str


def _verify_recall(state: GameState, power: str, a: RecallUnit, ctx: RulesContext) -> None:
    u = _lendable(state, power, a.unit)
    if u.loaned_to is None:
        raise IllegalAction(f"{a.unit} is not on loan")


def _apply_recall(state: GameState, power: str, a: RecallUnit, ctx: RulesContext) -> engine.Outcome:
    u = _lendable(state, power, a.unit)
    state = state.with_leader(u.replace(loaned_to=None)) if isinstance(u, Leader) else state.with_unit(u.replace(loaned_to=None))
    return engine.log(state, power, "reinforcement.recall-unit", f"{power} takes back {a.unit} from {u.loaned_to}", unit=a.unit)


# ----------------------------------------------------------------- 7.6.1 loaned forces in play


# The loaned-unit rules of play live in the phase-neutral ``eiapbem.rules.loans`` (land and naval use them too).


# ----------------------------------------------------------------- candidates (engine.legal_actions)


def _change_order_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[ChangeOrder]:
    if power in MOVABLE:
        yield from (ChangeOrder(n) for n in range(1, len(POWERS) + 1))


def _loanable(state: GameState, power: str) -> list[str]:
    units = [uid for uid, u in sorted(state.units.items()) if isinstance(u, (Corps, Fleet))
             and u.nation in (power,) + state.free_states(power) and u.location.kind is not LocationKind.POOL]
    return units + [lid for lid, lead in sorted(state.leaders.items()) if lead.power == power
                    and lead.status is LeaderStatus.ON_MAP]


def _lend_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[LendUnit]:
    allies = relations.allies(state, power)
    if allies:
        for uid in _loanable(state, power):
            yield from (LendUnit(uid, ally) for ally in allies)


def _recall_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[RecallUnit]:
    for uid in _loanable(state, power):
        if _lendable(state, power, uid).loaned_to is not None:
            yield RecallUnit(uid)


ACTIONS = (
    (ChangeOrder, _verify_change_order, _apply_change_order, _change_order_candidates),
    (LendUnit, _verify_lend, _apply_lend, _lend_candidates),
    (RecallUnit, _verify_recall, _apply_recall, _recall_candidates),
)
