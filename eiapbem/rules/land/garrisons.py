"""Detaching factors to garrisons and absorbing them on the move (10.4.3; 000:1408-1442).

``land.transfer-factors --source U --target V --infantry N …`` moves factors
between a corps and a garrison in the same area: a city garrison, or the
garrison of one of the power's depots.  The checks of 7.2.3's exchange are
shared (``reinforcement.army``: same nation, same area, unbesieged, not loaned,
not feudal or insurrection, no Cossack, Freikorps or guerrilla, infantry and
militia only into garrisons, none of it while an enemy corps stands outside the
city, city capacity 5 x supply, minors' factors never at depots).  10.4.3 adds:

- no artillery corps detaches or absorbs (000:1410);
- a detachment never empties a corps (000:1422);
- a depot garrison holds at most 10 factors (000:1438);
- a city garrison only in a city held by the power (or a minor it controls); taking
  an enemy or neutral city (13.5) is not built.

It costs no movement points and may be done at any time of the slot.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from eiapbem.core.errors import IllegalAction
from eiapbem.rules import control, engine
from eiapbem.rules.land.movement import counter_kind
from eiapbem.rules.model import Corps, GameState, Garrison, LocationKind, Record
from eiapbem.rules.model.common import NonNeg
from eiapbem.rules.forces import (
    the_army_unit,
    the_transfer_target,
    check_transfer,
    factors_from,
    move_factors,
    removed_log,
    transfer_candidates,
)
from eiapbem.rules.engine import RulesContext

#: 10.4.3 (000:1438).
DEPOT_GARRISON_CAPACITY = 10


@dataclass(frozen=True, slots=True)
class TransferGarrison(Record):
    """Detach factors from a corps to a garrison, or absorb them back, in the same area (10.4.3)."""

    KIND = "land.transfer-factors"
    COMMAND = "transfer-factors"
    BUTTON = "Transfer Factors from/to Garrison"

    source: str
    #: A corps, an existing garrison, or a new garrison's id ``garrison:FR:city:nancy`` / ``garrison:FR:area:nancy``.
    target: str
    infantry: NonNeg = 0
    militia: NonNeg = 0
    cavalry: NonNeg = 0
    guard: NonNeg = 0
    artillery: NonNeg = 0


def verify_transfer(state: GameState, power: str, a: TransferGarrison, ctx: RulesContext) -> None:
    source = the_army_unit(state, a.source)
    target = the_transfer_target(state, a.target)
    corps = [u for u in (source, target) if isinstance(u, Corps)]
    garrisons = [u for u in (source, target) if isinstance(u, Garrison)]
    if len(corps) != 1 or len(garrisons) != 1:
        raise IllegalAction("in the land phase factors go between a corps and a garrison (10.4.3, 000:1410); "
                            "exchanges between corps are made in the reinforcement phase (7.2.3)")
    c, g = corps[0], garrisons[0]
    if c.location.kind is LocationKind.POOL:
        raise IllegalAction(f"{c.id} is in the counter pool, not on the map")
    if counter_kind(ctx, c) == "artillery":
        raise IllegalAction(f"{c.id} is an artillery corps: it may not detach or absorb factors (10.4.3, 000:1410)")
    f = factors_from(a)
    check_transfer(state, ctx, power, a.source, target, f)
    if source is c and (c.factors - f).total == 0:
        raise IllegalAction(f"detaching {f.describe()} would empty {c.id}; a corps keeps at least one factor (10.4.3, 000:1422)")
    if target is g:
        if g.location.kind is LocationKind.AREA and g.factors.total + f.total > DEPOT_GARRISON_CAPACITY:
            raise IllegalAction(f"a depot garrison holds at most {DEPOT_GARRISON_CAPACITY} factors (10.4.3, 000:1438); "
                                f"{g.id} has {g.factors.total}")
        if g.location.kind is LocationKind.CITY and control.city_held_by(state, ctx.map, g.location.site) != power:
            site = g.location.site
            if control.city_power(state, ctx.map, site) == power:  # an allied minor's city: acted for, not held
                raise IllegalAction(f"the city of {site} belongs to {control.city_holder(state, ctx.map, site)}, a minor "
                                    f"allied to {power}, not controlled by it; an allied minor is treated as neutral and "
                                    f"takes no garrison of a major power (6.1.1, 6.1.3)")
            raise IllegalAction(f"the city of {site} is not held by {power}; taking a city is not part of this command (13.5)")


def apply_transfer(state: GameState, power: str, a: TransferGarrison, ctx: RulesContext) -> engine.Outcome:
    f = factors_from(a)
    state, removed = move_factors(state, a.source, a.target, f)
    out = engine.log(state, power, "land.transfer-factors", f"{power} moves {f.describe()} from {a.source} to {a.target} (10.4.3)",
                     source=a.source, target=a.target)
    return out.then(removed_log(out.state, power, removed))


def _transfer_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[TransferGarrison]:
    for source, target, chosen in transfer_candidates(state, power, ctx):
        yield TransferGarrison(source, target, **chosen)


ACTIONS = ((TransferGarrison, verify_transfer, apply_transfer, _transfer_candidates),)
