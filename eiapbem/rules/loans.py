"""7.6.1 loaned corps and fleets in play (000:1002-1008).

Phase-neutral (issue 14 item 4): the loans are made in the reinforcement phase
(``rules/reinforcement/orders.py``); these rules act in the land phase (a move entering an area, an
attack) and the naval phase (an attack on fleets).
"""

from __future__ import annotations

from typing import Any, Callable

from eiapbem.rules import control, mapgraph, relations, supply
from eiapbem.rules.model import Corps, Fleet, GameState, Location, LocationKind


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
    return _fleets_home(state, fleet_ids, lambda f: relations.at_war(state, attacker, f.nation)
                        and not relations.at_war(state, attacker, f.loaned_to))


def release_attacked_fleets(state: GameState, attacker: str, fleet_ids: tuple[str, ...]) -> tuple[GameState, tuple[str, ...]]:
    """7.6.1 (000:1006, fleets "in a similar manner"): fleets loaned to a power at war with ``attacker`` by an
    owner that is not go back to their owner when ``attacker`` attacks their stack, and stay out of the
    combat.  They stay where they are (a fleet has no "territory" to be sent to; docs/decisions.md).
    Returns the ids."""
    return _fleets_home(state, fleet_ids, lambda f: relations.at_war(state, attacker, f.loaned_to)
                        and not relations.at_war(state, attacker, f.nation))


def _fleets_home(state: GameState, fleet_ids: tuple[str, ...], goes_home: Callable[[Fleet], bool]
                 ) -> tuple[GameState, tuple[str, ...]]:
    """The loaned fleets among ``fleet_ids`` for which ``goes_home`` holds are their owner's again (7.6.1)."""
    back: list[str] = []
    for fid in sorted(fleet_ids):
        f = state.units.get(fid)
        if isinstance(f, Fleet) and f.loaned_to is not None and goes_home(f):
            state = state.with_unit(f.replace(loaned_to=None))
            back.append(fid)
    return state, tuple(back)


def home_city(state: GameState, m: Any, owner: str, start: str) -> str | None:
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
            home = home_city(state, m, c.nation, where.site)
            if home is not None:
                where = Location(LocationKind.AREA, home)
        state = state.with_unit(c.replace(loaned_to=None, location=where, besieging=False))
        back.append(cid)
    return state, tuple(back)
