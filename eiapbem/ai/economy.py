"""An AI power's economic orders (12.5.3): army factors within a share of its projected money.

The projection is the quarter's economic summary of the power with no orders
(``rules.economy.phase.summary``, 12.0 "economic summary"), resolved on a copy
with dice of its own (the AI's dice are not spent on it).  The level's share
of the closing money and manpower buys infantry (3 dollars and 2 manpower a
factor, 000:2963) and, at the hard level, one cavalry factor (12 dollars, 2
manpower, 000:2961) for every four infantry.  An order the resolution finds
unaffordable is simply not made (12.5, the ledger says so), as for a human.
At the medium and hard levels the manpower left buys militia, which costs no
money (000:2964), since unused manpower is lost (12.5.6).
"""

from __future__ import annotations

from dataclasses import replace

from eiapbem.ai.levels import Level
from eiapbem.core.dice import Dice
from eiapbem.rules.economy.phase import BuyArmy, summary
from eiapbem.rules.model import GameState
from eiapbem.rules.tables.economy import COSTS


def projection(state: GameState, ctx, power: str) -> tuple[int, int]:
    """(money, manpower) the power would have to spend if it ordered nothing: the closing money, and the
    manpower before the expenditure step (what is not spent there is lost, 12.5.6)."""
    pctx = replace(ctx, dice=Dice(b"eiapbem/v1/ai-projection/" + power.encode("ascii")))
    rows = summary(state, pctx, {}, power)
    own = next(r for r in rows if r["fund"] == power)
    men = own["opening_manpower"] + sum(ln["manpower"] for ln in own["lines"] if not ln["step"].startswith("12.5"))
    return own["closing_money"], men


def purchases(money: int, manpower: int, lvl: Level) -> list[BuyArmy]:
    """The factors ``lvl`` buys with ``money`` and ``manpower`` (already its share)."""
    inf, cav = COSTS["infantry"], COSTS["cavalry"]
    out: list[BuyArmy] = []
    n_cav = 0
    if lvl.infantry_per_cavalry:
        # k cavalry and 4k infantry cost k * (12 + 4 * 3) dollars and k * (2 + 4 * 2) manpower.
        per_money = cav.money + lvl.infantry_per_cavalry * inf.money
        per_men = cav.manpower + lvl.infantry_per_cavalry * inf.manpower
        n_cav = max(0, min(money // per_money, manpower // per_men))
        money -= n_cav * cav.money
        manpower -= n_cav * cav.manpower
    n_inf = max(0, min(money // inf.money, manpower // inf.manpower))
    if n_inf:
        out.append(BuyArmy(item="infantry", count=n_inf))
    if n_cav:
        out.append(BuyArmy(item="cavalry", count=n_cav))
    return out


def militia(manpower: int, lvl: Level) -> list[BuyArmy]:
    """Militia (no money, 2 manpower, 000:2964) with the manpower left, which would be lost (12.5.6)."""
    n = manpower // COSTS["militia"].manpower if lvl.militia else 0
    return [BuyArmy(item="militia", count=n)] if n > 0 else []


def plan(b, lvl: Level) -> None:
    money, men = projection(b.state, b.ctx, b.power)
    men = max(0, men)
    orders = purchases(max(0, money) * lvl.spend_share // 100, men * lvl.spend_share // 100, lvl)
    used = sum(o.count * COSTS[o.item].manpower for o in orders)
    for order in orders + militia(men - used, lvl):
        b.try_(order)  # Turkey may build no militia (12.5.3): the rules refuse it and it is left out


__all__ = ["plan", "projection", "purchases"]
