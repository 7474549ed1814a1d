"""An AI power's economic orders (12.4-12.5): ships, counters, army factors, manipulation.

The projection is the quarter's economic summary of the power with no orders
(``rules.economy.phase.summary``, 12.0 "economic summary"), resolved on a copy
with dice of its own (the AI's dice are not spent on it).  The level's share
of the closing money and manpower buys infantry (3 dollars and 2 manpower a
factor, 000:2963) and, at the hard level, one cavalry factor (12 dollars, 2
manpower, 000:2961) for every four infantry.  An order the resolution finds
unaffordable is simply not made (12.5, the ledger says so), as for a human.
At the medium and hard levels the manpower left buys militia, which costs no
money (000:2964), since unused manpower is lost (12.5.6).

Issue 19 adds, before the factors and out of the same share (at the medium
and hard levels at war, the share is of the money left after a quarter of
depot supply for its corps, $1 a corps a month, 10.5.2):

- **ships** (12.5.3; medium, hard) at war: ``ship_share`` per cent of the
  budget (three times as much for Great Britain, whose strength is its fleet)
  buys heavy ships ($9 and 1 manpower each, 000:2966) in the first of its
  ship building ports the rules accept, when it has a fleet on the map and
  does not rule the sea already (its warships twice its enemies' together,
  ``SEA_RULE``): then the manpower builds its army;
- **counters** (12.5.4): one corps counter of the pool ($1, 000:2969) at war
  when the corps on the map are filled to three quarters of their capacity, so
  the factors bought have somewhere to go (medium, hard), and at every level,
  at war or at peace, when fewer than ``MIN_CORPS`` of its line corps (not a guard or cavalry counter) stand on the map
  (a corps emptied returns to the counter pool, 7.2.4; a player buys its
  counter again, 000:2238, and rebuilds it with the factors placed, 7.2.1;
  the regular counter that holds the most infantry, so the factors bought fit
  it) when none is on the map or each there in its home nation holds three
  quarters of its counter's infantry in factors (fewer, fuller corps; one
  abroad gets none of the factors due, 7.2.2), bought before the
  ships; while one is bought or waits to be placed, or fewer than
  ``MIN_CORPS`` stand on the map, no ships are bought, so the manpower buys
  the factors that fill them;
- **manipulation** (12.4.3, optional rule; hard): one square toward political
  points when the projection leaves $30 or the status is in the instability
  or fiasco zone, else 0 (victory points follow the political status; it
  never sells political points for money).

Money for allies is given in the diplomacy phase (6.12, ``ai.strategy`` subsidies), not here.

Every order is tried through the rules (``Builder.try_``); a refused one is left out.
"""

from __future__ import annotations

from dataclasses import replace

from eiapbem.ai.levels import Level
from eiapbem.core.dice import Dice
import eiapbem.ai.assess as assess
from eiapbem.rules.economy.common import status_box
from eiapbem.rules.economy.phase import BuyArmy, BuyCounter, BuyShips, SetManipulation, summary
from eiapbem.rules.forces import corps_capacity
from eiapbem.rules.reinforcement.common import purchased
from eiapbem.rules.supply import is_home_area
from eiapbem.rules.model import Corps, CorpsType, Fleet, GameState, LocationKind
from eiapbem.rules.tables.economy import COSTS

#: Corps on the map filled to this percentage of their capacity call for a new corps counter.
FULL_PERCENT = 75
#: Fewer corps of its own on the map than this make the power buy a counter of the pool again (a lost corps rebuilt).
MIN_CORPS = 2
#: Projected money from which the hard level buys political points on the manipulation display (12.4.3).
MANIPULATE_ABOVE = 30
#: Its warships, per cent of all its enemies' together, at which a power buys no more ships (``_rules_the_sea``).
SEA_RULE = 200
#: Months of depot supply the medium and hard levels keep money for at war (a quarter).
SUPPLY_MONTHS = 3


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
    at_war = bool(assess.enemies(b.state, b.power))
    reserve = _supply_reserve(b) if at_war and lvl.counters else 0
    budget = max(0, money - reserve) * lvl.spend_share // 100
    men_budget = men * lvl.spend_share // 100
    if lvl.manipulation:
        _manipulate(b, money)
    crew = 0
    rebuild = _too_few(b)  # at every level: a power that lost its corps is not left with none to move
    if budget >= COSTS["counter"].money and (lvl.counters and at_war and _corps_full(b) or rebuild):
        budget -= _counter(b)
    if lvl.ship_share and at_war and not _rules_the_sea(b):
        # a corps being rebuilt or filled keeps the manpower for its factors (Great Britain has a few men a quarter)
        crew_budget = 0 if rebuild or _waiting(b) or len(_line_corps(b)) < MIN_CORPS else men_budget
        spent, crew = _ships(b, budget * min(80, lvl.ship_share * (3 if b.power == "GB" else 1)) // 100, crew_budget)
        budget, men_budget = budget - spent, men_budget - crew
    orders = purchases(max(0, budget), max(0, men_budget), lvl)
    used = sum(o.count * COSTS[o.item].manpower for o in orders)
    for order in orders + militia(men - used - crew, lvl):
        b.try_(order)  # Turkey may build no militia (12.5.3): the rules refuse it and it is left out


def _supply_reserve(b) -> int:
    """Money kept for a quarter of depot supply at war: $1 a month for each corps on the map (10.5.2, 000:1532)."""
    n = sum(1 for u in b.state.units.values() if isinstance(u, Corps) and u.nation == b.power
            and u.location.kind in (LocationKind.AREA, LocationKind.CITY) and u.factors.total)
    return n * SUPPLY_MONTHS


def _ships(b, money: int, manpower: int) -> tuple[int, int]:
    """Heavy ships for ``money`` in the first ship building port the rules accept: (dollars, manpower) spent."""
    heavy = COSTS["heavy"]
    n = min(money // heavy.money, manpower // max(1, heavy.manpower))
    has_fleet = any(isinstance(u, Fleet) and u.nation == b.power and u.location.kind is not LocationKind.POOL
                    and u.ships.total for u in b.state.units.values())
    if n <= 0 or not has_fleet:
        return 0, 0
    m = b.ctx.map
    for port in sorted(a for a in m.ports() if m.area(a).nation == b.power and m.area(a).port.shipbuilding):
        if b.try_(BuyShips(item="heavy", count=n, port=port)):
            return n * heavy.money, n * heavy.manpower
    return 0, 0


def _warships(state: GameState, powers: set[str]) -> int:
    """The warships (8.1) of the fleets on the map that ``powers`` control."""
    from eiapbem.rules.naval.common import controller, warships

    return sum(warships(u) for u in state.units.values() if isinstance(u, Fleet)
               and u.location.kind is not LocationKind.POOL and controller(state, u) in powers)


def _rules_the_sea(b) -> bool:
    """Its fleets' warships are ``SEA_RULE`` per cent of all its enemies' together: a ship more adds nothing the war
    needs, and the manpower it would take (000:2966) goes to the army instead."""
    own = _warships(b.state, {b.power})
    return own > 0 and own * 100 >= _warships(b.state, set(assess.enemies(b.state, b.power))) * SEA_RULE


def _corps_full(b) -> bool:
    corps = [u for u in b.state.units.values() if isinstance(u, Corps) and u.nation == b.power
             and u.location.kind in (LocationKind.AREA, LocationKind.CITY)]
    cap = sum(corps_capacity(b.ctx, c).total for c in corps)
    return cap > 0 and sum(c.factors.total for c in corps) * 100 >= cap * FULL_PERCENT


def _mine(b) -> list[Corps]:
    return [u for u in b.state.units.values() if isinstance(u, Corps) and u.nation == b.power and u.loaned_to is None]


def _waiting(b) -> bool:
    """A counter of its pool bought and still placeable (12.5.4)."""
    return any(purchased(b.state, u) for u in _mine(b))


def _too_few(b) -> bool:
    """Fewer than ``MIN_CORPS`` of its line corps (regular corps that take militia: not a guard or cavalry counter,
    which hold no line infantry, 7.2.1) with factors on the map, none of the pool bought and still waiting to be
    placed, and none on the map or each there holding ``FULL_PERCENT`` of its counter's infantry in factors: a lost
    corps is rebuilt, but the factors of a few quarters fill one corps strong enough to act before a second counter
    shares them out (two corps of two factors each are beaten wherever they go).  Only a corps in its home nation
    waits to be filled: one abroad gets factors only on or next to a depot of a valid supply chain (7.2.2), and is
    not waited for even then (an expedition seldom has one), so two factors of a British corps left in Odessa no
    longer keep London from raising another."""
    line = _line_corps(b)
    return not _waiting(b) and len(line) < MIN_CORPS \
        and all(c.factors.total * 100 >= corps_capacity(b.ctx, c).infantry * FULL_PERCENT
                or not is_home_area(b.state, b.ctx.map, c.location.site, c.nation) for c in line)


def _line_corps(b) -> list[Corps]:
    """Its line corps (``_too_few``) with factors on the map."""
    return [u for u in _mine(b) if u.location.kind in (LocationKind.AREA, LocationKind.CITY) and u.factors.total
            and u.corps_type is CorpsType.REGULAR and corps_capacity(b.ctx, u).militia]


def _counter(b) -> int:
    """Buy the corps counter of the pool that holds the most infantry (the factors it buys, 7.2.1: a cavalry or guard
    counter would leave them nowhere to go) that the rules accept, regular corps first; its price, or 0."""
    pool = sorted((u.corps_type is not CorpsType.REGULAR, -corps_capacity(b.ctx, u).infantry, u.id)
                  for u in b.state.units.values() if isinstance(u, Corps) and u.nation == b.power
                  and u.location.kind is LocationKind.POOL and u.placeable_until is None)
    for *_, uid in pool:
        if b.try_(BuyCounter(unit=uid)):
            return COSTS["counter"].money
    return 0


def _manipulate(b, money: int) -> None:
    """Victory points follow the political status (12.1): one square toward political points (+1 a quarter for
    $5, 12.4.3) when the projection leaves ``MANIPULATE_ABOVE`` dollars or the status is in the fiasco or
    instability zone, else none; never toward money (that is political points sold)."""
    ps = b.state.powers[b.power]
    zone = status_box(b.ctx, ps.political_status)["zone"]
    want = -1 if zone in ("fiasco", "instability") or money >= MANIPULATE_ABOVE else 0
    if ps.manipulation != want:
        b.try_(SetManipulation(square=want))  # refused (and left out) in a game without the optional rule


__all__ = ["plan", "projection", "purchases"]
