"""Which setup a computer power loads in the setup phase (5.2.2, 14.5; 000:2820-2828).

14.5 names a scenario's AI setups ``AI<Xx><scenario>_<#>.set`` (``Xx`` the first
two letters of the nation, ``#`` from 0 up): the computer scans them for its
nation and scenario and loads one.  The caller (``client.autoplay``) reads the
files and gives them here as ``Alternatives`` in number order; the computer
picks one with a die of its own slot (``ai/setup``), so every client replays
the same choice and no player knows it before the slot is played.  Given a
plain list of actions (no AI setup exists), that list is the setup.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from eiapbem.rules import forces
from eiapbem.rules.model import POOL, Corps, CorpsType, Factors, Fleet, LocationKind, Ships
from eiapbem.rules.setup import (AddGarrison, SetupAddFactors, SetupAddShips, SetupPlaceCorps, SetupPlaceFleet,
                                 may_set_up_in)

#: The die of the choice (one per setup slot of the power).
LABEL = "ai/setup"


@dataclass(frozen=True)
class Alternatives:
    """A power's AI setups ``AI…_0.set``, ``AI…_1.set``, … (14.5): each a list of setup actions."""

    options: tuple[tuple[Any, ...], ...]
    names: tuple[str, ...] = ()


def choose(setup: Sequence[Any] | Alternatives, ctx: Any) -> Sequence[Any]:
    """The actions the computer loads: one of the AI setups by a die, or the setup given."""
    if not isinstance(setup, Alternatives):
        return setup
    if not setup.options:
        return ()
    if len(setup.options) == 1:
        return setup.options[0]
    return setup.options[ctx.dice.roll(LABEL, len(setup.options)) - 1]


#: What a regular corps and a fleet can hold (``Factors`` and ``Ships`` fields).
_ARMY = ("infantry", "militia", "cavalry", "guard", "artillery")
SHIPS = ("heavy", "light", "transport")


def fitting(have: Any, cap: Any, left: Any, fields: Sequence[str], cls: type) -> Any:
    """What of ``left`` fits beside ``have`` under the counter's capacity ``cap``."""
    return cls(**{f: min(max(0, getattr(cap, f) - getattr(have, f)), getattr(left, f)) for f in fields})


def complete(b: Any) -> None:
    """14.5 (000:2820-2828): the computer sets up "from what it has".  A setup made for the scenario an edited one
    came from may leave factors or ships unplaced (an area given to another power refuses the corps placed there),
    and the slot could then never end.  What is left goes, in order, into the power's corps on the map up to their
    counter's capacity, into new corps from the pool in the areas where its corps stand (else the first area it may
    set up in), into garrisons of its cities; its ships into its fleets, then new fleets in its ports.  Every
    placement goes through the rules (``b.try_``); what they refuse is skipped.  The same for a free state's stock."""
    from eiapbem.rules import control, relations

    st, p, ctx = b.state, b.power, b.ctx
    m = ctx.map
    areas = sorted({u.location.site for u in st.units.values() if isinstance(u, Corps) and u.location.kind is LocationKind.AREA
                    and relations.power_of(st, u.nation) == p})
    areas = areas or [a for a in sorted(m.areas) if may_set_up_in(st, ctx, p, a)]
    cities = [a for a in areas + sorted(m.areas) if m.area(a).city is not None]
    for nation in [p] + [n for n in st.free_states(p) if st.minors[n].setup_due]:
        def left() -> Factors:
            return b.state.powers[p].unplaced_factors if nation == p else b.state.minors[nation].stored_factors

        counters = [u for _, u in sorted(b.state.units.items()) if isinstance(u, Corps) and u.nation == nation
                    and u.corps_type is CorpsType.REGULAR]
        for c in sorted(counters, key=lambda u: u.location == POOL):  # the corps on the map first
            take = fitting(c.factors, forces.corps_capacity(ctx, c), left(), _ARMY, Factors)
            if not take.total:
                continue
            if c.location == POOL and not any(b.try_(SetupPlaceCorps(corps=c.id, area=a)) for a in areas):
                continue
            b.try_(SetupAddFactors(corps=c.id, factors=take))
        for a in cities:
            for f in ("infantry", "militia"):
                n = getattr(left(), f)
                if n and control.city_power(b.state, m, a) == p:
                    while n and not b.try_(AddGarrison(area=a, factors=Factors(**{f: n}),
                                                        nation=None if nation == p else nation)):
                        n -= 1
    ports = [a for a in sorted(m.areas) if m.area(a).port is not None and control.city_power(b.state, m, a) == p]
    fleets = [u for _, u in sorted(b.state.units.items()) if isinstance(u, Fleet) and u.nation == p]
    for fleet in sorted(fleets, key=lambda u: u.location == POOL):
        take = fitting(fleet.ships, forces.fleet_capacity(ctx, fleet), b.state.powers[p].unplaced_ships, SHIPS, Ships)
        if not take.total:
            continue
        if fleet.location == POOL and not any(b.try_(SetupPlaceFleet(fleet=fleet.id, port=a)) for a in ports):
            continue
        b.try_(SetupAddShips(fleet=fleet.id, ships=take))


__all__ = ["Alternatives", "LABEL", "SHIPS", "choose", "complete", "fitting"]
