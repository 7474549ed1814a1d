"""Taking losses in a land combat (11.2.8-11.2.10, 11.3; 000:1756, 000:1788-1792, 000:1838).

Losses are taken one factor at a time: each choice names a unit and a factor
type (``corps:FR:III/infantry``).  The rules of what may be chosen:

- while a side's outflanking force is away, losses fall on the pinning force,
  and only when it is gone on the outflanking force (000:1718, 000:1816);
- militia may not be chosen, where anything else is left, from the round in
  which the side's cumulative morale loss reaches 2.0 (000:1790; bombardment
  000:1756);
- in the round a side breaks, its first loss is cavalry if it has any (000:1792);
- trivial combat: any factor, at the owner's option (000:1940);
- pursuit (000:1838): losses are counted in sixths of a cavalry factor, so a
  cavalry factor pays 6, a non-militia factor 2 and a militia factor 1
  (1 cavalry = 3 non-militia = 6 militia); the last factor may overpay.

One answer may also allocate several losses at once (11.2.9, 000:1788: losses "may be taken in any
fashion" within those limits): ``corps:FR:III/infantry=3,corps:FR:IV/cavalry`` (``=N`` for N
factors, 1 without it).  ``allocation`` orders it so that each factor is a loss the rules allow at
its turn (a cavalry factor first in the round the side breaks, then the player's order, each time
the first item allowed), exactly as if it were answered one factor at a time; an allocation that
no order makes legal, or that names more factors than the losses due, is refused.  Fewer factors
than due is a part answer: the question comes again for the rest.
"""

from __future__ import annotations

from typing import Any

from eiapbem.core.errors import IllegalAction
from eiapbem.rules.combat.battle import CAVALRY_TYPES, TRIVIAL, BattleSide, FieldBattle, unit_factors
from eiapbem.rules.model.common import FactorType
from eiapbem.rules.model.units import Corps, Garrison

#: 11.2.9 (000:1790): militia are spared from a cumulative morale loss of 2.0.
MILITIA_MORALE_LIMIT = 200
#: Pursuit cost of one factor in sixths of a pursuit loss (000:1838, 000:3158).
PURSUIT_COST = {"cavalry": 6, "non-militia": 2, "militia": 1}


def pursuit_cost(kind: FactorType) -> int:
    if kind in CAVALRY_TYPES:
        return PURSUIT_COST["cavalry"]
    if kind is FactorType.MILITIA:
        return PURSUIT_COST["militia"]
    return PURSUIT_COST["non-militia"]


def losing_units(state: Any, side: BattleSide) -> tuple[str, ...]:
    """The units that take this side's losses now (pinning force first, 000:1816)."""
    alive = tuple(u for u in side.units if unit_factors(state, u).total > 0)
    if side.outflanking and not side.arrived and side.loss_mode != "pursuit":
        pinning = tuple(u for u in alive if u not in side.outflanking)
        if pinning:
            return pinning
    return alive


def _pairs(state: Any, units: tuple[str, ...]) -> list[tuple[str, FactorType, int]]:
    out = []
    for u in units:
        f = unit_factors(state, u)
        for kind in FactorType:
            n = f.get(kind)
            if n > 0:
                out.append((u, kind, n))
    return out


def loss_options(state: Any, battle: FieldBattle, side: BattleSide) -> tuple[str, ...]:
    """The allowed next loss of ``side``, as ``unit/type`` strings; empty when nothing is left."""
    pairs = _pairs(state, losing_units(state, side))
    if side.loss_mode != "pursuit" and battle.kind != TRIVIAL:
        if side.cavalry_due and any(k in CAVALRY_TYPES for _, k, _ in pairs):
            pairs = [p for p in pairs if p[1] in CAVALRY_TYPES]
        if side.morale_loss >= MILITIA_MORALE_LIMIT and any(k is not FactorType.MILITIA for _, k, _ in pairs):
            pairs = [p for p in pairs if p[1] is not FactorType.MILITIA]
    return tuple(f"{u}/{k.value}" for u, k, _ in pairs)


def default_loss(state: Any, battle: FieldBattle, side: BattleSide) -> str:
    """The automatic choice: the largest group of one type in one unit (first in order on ties)."""
    opts = loss_options(state, battle, side)
    best = opts[0]
    best_n = -1
    for o in opts:
        u, k = o.rsplit("/", 1)
        n = unit_factors(state, u).get(FactorType(k))
        if n > best_n:
            best, best_n = o, n
    return best


def parse_allocation(choice: str) -> list[str]:
    """``unit/type=N,...`` as the list of single-factor picks, in the order written; IllegalAction if malformed."""
    picks: list[str] = []
    for part in choice.split(","):
        item, _, count = part.strip().partition("=")
        unit, slash, kind = item.rpartition("/")
        if not slash or not unit or kind not in {k.value for k in FactorType}:
            raise IllegalAction(f"{part.strip()!r} is not a loss like corps:FR:III/infantry or corps:FR:III/infantry=2",
                                hint="several losses at once: corps:FR:III/infantry=2,corps:FR:IV/cavalry")
        if count and not (count.isdigit() and 0 < int(count) <= 999):
            raise IllegalAction(f"{part.strip()!r}: the count after '=' is a number of factors from 1 up")
        picks.extend([item] * (int(count) if count else 1))
    return picks


def allocation(state: Any, battle: FieldBattle, side: BattleSide, choice: str) -> list[str]:
    """The factors of the allocation ``choice`` in an order the rules allow (see the module text); the side's state
    is only simulated here.  IllegalAction names the first pick that cannot be taken."""
    wanted = parse_allocation(choice)
    order: list[str] = []
    while wanted:
        if side.pending_loss <= 0:
            raise IllegalAction(f"the allocation names {len(order) + len(wanted)} factors but {side.role} owes only "
                                f"{len(order)} (11.2.9{', pursuit 000:1838' if side.loss_mode == 'pursuit' else ''}); "
                                f"name no more than the losses due")
        opts = loss_options(state, battle, side)
        pick = next((w for w in wanted if w in opts), None)
        if pick is None:
            raise IllegalAction(_why_not(state, battle, side, wanted[0], opts))
        wanted.remove(pick)
        order.append(pick)
        state, side = take_loss(state, battle, side, pick)
    return order


def _why_not(state: Any, battle: FieldBattle, side: BattleSide, pick: str, opts: tuple[str, ...]) -> str:
    unit, kind = pick.rsplit("/", 1)
    if unit not in side.units:
        return f"{unit} does not fight on the {side.role}'s side of this battle; allowed now: {', '.join(opts)}"
    if unit_factors(state, unit).get(FactorType(kind)) == 0:
        return f"{pick!r} is not a loss {side.role} can take: {unit} has no {kind} factor left"
    if side.cavalry_due and all(o.rsplit("/", 1)[1] in {k.value for k in CAVALRY_TYPES} for o in opts):
        return f"{side.role} breaks this round, so one of its losses must be cavalry (11.2.9, 000:1792): add one of {', '.join(opts)}"
    if kind == FactorType.MILITIA.value:
        return (f"{side.role}'s morale loss has reached 2.0, so militia are not taken while other factors are left "
                f"(11.2.9, 000:1790); allowed now: {', '.join(opts)}")
    return f"{pick!r} is not a loss {side.role} may take now (the pinning force first, 000:1816); allowed now: {', '.join(opts)}"


def take_loss(state: Any, battle: FieldBattle, side: BattleSide, choice: str) -> tuple[Any, BattleSide]:
    """Remove one factor named by ``choice``; returns the new state and side."""
    if choice not in loss_options(state, battle, side):
        raise IllegalAction(f"{choice!r} is not a loss {side.role} may take now")
    unit_id, k = choice.rsplit("/", 1)
    kind = FactorType(k)
    unit = state.units[unit_id]
    assert isinstance(unit, (Corps, Garrison))
    state = state.with_unit(unit.replace(factors=unit.factors.with_(kind, unit.factors.get(kind) - 1)))
    cost = pursuit_cost(kind) if side.loss_mode == "pursuit" else 1
    side = side.replace(
        pending_loss=max(0, side.pending_loss - cost),
        factors_lost=side.factors_lost + 1,
        cavalry_due=side.cavalry_due and kind not in CAVALRY_TYPES,
    )
    return state, side


def remove_guard(state: Any, units: tuple[str, ...], nation: str, n: int) -> tuple[Any, int]:
    """Remove up to ``n`` guard factors of ``nation`` (largest holdings first, then unit order); returns the count removed."""
    removed = 0
    while removed < n:
        holders = [(unit_factors(state, u).guard, -i, u) for i, u in enumerate(units)
                   if state.units[u].nation == nation and unit_factors(state, u).guard > 0]
        if not holders:
            break
        _, _, u = max(holders)
        unit = state.units[u]
        state = state.with_unit(unit.replace(factors=unit.factors.with_(FactorType.GUARD, unit.factors.guard - 1)))
        removed += 1
    return state, removed
