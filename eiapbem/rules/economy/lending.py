"""12.3 Lending and receiving money (000:2168-2176; 6.12, 000:866-870).  Step C.

Money given in a diplomacy phase left the giver's treasury then (``PowerState.loans``)
and arrives now; money given in this step (``GiveMoney`` orders on the order sheet) leaves the
giver and reaches the ally or the giver's minor free state in this same step
(docs/decisions.md).  Manpower is never given.
"""

from __future__ import annotations

from eiapbem.core.errors import IllegalAction
from eiapbem.rules.economy.common import Work, fund_of
from eiapbem.rules.relations import allied
from eiapbem.rules.model import POWERS, GameState, MinorStatus
from eiapbem.rules.model.base import FrozenMap

STEP = "12.3 lending"


def check_recipient(state: GameState, giver: str, to: str) -> None:
    """An allied power, or one of the giver's own minor free states (12.3, 12.2.3)."""
    if to in POWERS:
        if to == giver:
            raise IllegalAction(f"{giver} cannot give money to itself")
        if not allied(state, giver, to):
            raise IllegalAction(f"{giver} may give money only to an ally; {to} is not one (12.3)")
        return
    m = state.minors.get(to)
    if m is None or m.status is not MinorStatus.FREE_STATE or m.controller != giver:
        raise IllegalAction(f"{to!r} is neither an allied power nor a minor free state of {giver} (12.3)")


def lend(w: Work) -> None:
    """Deliver the loans of the diplomacy phases, then this step's gifts (in power order)."""
    for p in POWERS:
        loans = w.state.powers[p].loans
        if not loans:
            continue
        for to, amount in loans.items():
            dest = fund_of(w.state, to)
            if dest in POWERS or dest in w.state.minors:
                w.money(dest, amount, STEP, f"money received from {p}", power=dest if dest in POWERS else p,
                        detail="given in a diplomacy phase (6.12)")
            else:
                w.money(p, amount, STEP, f"money for {to} returned", detail="the recipient no longer exists")
        w.state = w.state.with_power(p, loans=FrozenMap())
    for p in POWERS:
        for to, amount in w.orders(p).gifts.items():
            try:
                check_recipient(w.state, p, to)
            except IllegalAction as err:
                w.note(p, STEP, f"gift to {to}", f"not given: {err}")
                continue
            given = -w.money(p, -amount, STEP, f"money given to {to}")
            if given:
                dest = fund_of(w.state, to)
                w.money(dest, given, STEP, f"money received from {p}", power=dest if dest in POWERS else p)

