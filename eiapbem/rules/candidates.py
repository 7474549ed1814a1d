"""What the phases share to list their candidate actions (``engine.legal_actions``).

A phase's ``candidates(state, power, ctx)`` yields concrete actions of one class; the engine keeps those its
``verify`` accepts.  Lists stay bounded: a unit, a target or a place is named once for each choice the rules
distinguish, and an amount (factors, ships, money) is listed at its least and at its most: one of a kind, all of
a kind that fits, and everything that fits at once.  Legality of an amount only narrows as it grows (what is due,
what a counter holds, what the treasury holds), so the least is legal whenever any amount is.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from eiapbem.rules import relations
from eiapbem.rules.model import Corps, Factors, Fleet, GameState, LocationKind, Ships

#: The army factor fields of the actions that take factors by type (``forces.factors_from``).
ARMY_FIELDS = ("infantry", "militia", "cavalry", "guard", "artillery")
#: The fields of a garrison's reinforcements (7.2.2: infantry and militia).
GARRISON_FIELDS = ("infantry", "militia")
SHIP_FIELDS = ("heavy", "light", "transport")


def amounts(n: int) -> tuple[int, ...]:
    """The least and the most of ``n``: ``(1, n)``, ``(1,)`` or ``()``."""
    return () if n <= 0 else (1,) if n == 1 else (1, n)


def counts(have: Mapping[str, int], fields: tuple[str, ...], room: Mapping[str, int] | None = None) -> Iterator[dict[str, int]]:
    """Choices of how many of each kind to take from ``have`` (at most ``room`` of each, when given).

    One of a kind and all of a kind, for each kind there is; then all of every kind together when there are
    several kinds.
    """
    most = {f: min(have.get(f, 0), room.get(f, 0) if room is not None else have.get(f, 0)) for f in fields}
    for f in fields:
        for n in amounts(most[f]):
            yield {f: n}
    whole = {f: n for f, n in most.items() if n > 0}
    if len(whole) > 1:
        yield whole


def room(cap: Factors | Ships, have: Factors | Ships) -> dict[str, int]:
    """How much more of each kind fits in a counter holding ``have`` with capacity ``cap``."""
    c, h = cap.to_obj(), have.to_obj()
    return {k: max(0, int(c.get(k, 0)) - int(h.get(k, 0))) for k in c}


def own_corps(state: GameState, power: str) -> list[Corps]:
    """The corps ``power`` moves this month (its own, its free states', those loaned to it) on a land area or in
    a city, by id."""
    return [u for _, u in sorted(state.units.items()) if isinstance(u, Corps)
            and u.location.kind in (LocationKind.AREA, LocationKind.CITY) and relations.unit_power(state, u) == power]


def own_fleets(state: GameState, power: str) -> list[Fleet]:
    """The fleets ``power`` moves this month on the map (at sea, in port, on a blockade box), by id."""
    return [u for _, u in sorted(state.units.items()) if isinstance(u, Fleet)
            and u.location.kind is not LocationKind.POOL and relations.unit_power(state, u) == power]


def other_powers(state: GameState, power: str) -> list[str]:
    """The other major powers, in the fixed order of the seven."""
    return [p for p in state.powers if p != power]


__all__ = ["ARMY_FIELDS", "GARRISON_FIELDS", "SHIP_FIELDS", "amounts", "counts", "other_powers", "own_corps",
           "own_fleets", "room"]
