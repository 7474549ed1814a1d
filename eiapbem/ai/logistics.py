"""The computer's supply: what ending a march somewhere costs, and depots that follow its armies (10.3, 10.5, 13.1).

Foraging is the rules' own (``rules.land.supplyphase``, "Auto Forage"): at the end of the power's movement a corps
forages when no roll can cost it a factor, else takes depot supply while the treasury pays, else forages.  A march
is judged before it is made by what the corps would pay or lose where it ends:

- **depot supply** (10.5.2, 000:1528-1534): $1/2 in a depot's area, $1 per area up to three areas from the valid
  supply chain, doubled in winter in the winter zone (13.1.2), asked of the rules for the area
  (``supplyphase.depot_cost_halves``);
- **foraging** (10.5.1, 000:1494-1512): a die plus one per other corps in the area (at most two), minus one per
  movement point left (not when besieging), plus two in winter in the winter zone, minus one when it never left
  its power's territory, against the lowest forage value it passed; the loss is reckoned over the six faces.

**The budget**: the money the treasury can give to supply each month until the next economic phase (12.0: March,
June, September, December) brings more: the treasury divided by the months left, this one included.  A march
whose corps would forage with an expected loss above the level's ``forage_risk`` (in hundredths of a factor per
corps), or pay more than the budget left, ends earlier.

**Depots that follow** (10.3; ``follow``): before an army moves, a depot goes where it will end when that is in
its own territory (10.3.1 a city area, 10.3.3 within two areas of the chain), else where it stands now (10.3.3
outside its territory needs a corps that has not moved, 000:1344), so the chain grows behind the army by two
areas a month.  With no counter left in the pool (the counter mix, 10.3), the depot farthest from every corps of
the power whose removal leaves the depots near its corps in the chain is taken back first (``land.remove-depot``).

Everything is an integer; no dice are rolled here.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterable

from eiapbem.core.errors import IllegalAction
from eiapbem.rules import control, supply
from eiapbem.rules.land.depots import CreateDepot, RemoveDepot, check_place, depots_in, free_counter, own_territory
from eiapbem.rules.land.supplyphase import MAX_OTHER_CORPS, OWN_TERRITORY_FORAGE, WINTER_FORAGE, depot_cost_halves
from eiapbem.rules.model import POOL, Corps, Depot, Location, LocationKind
from eiapbem.rules.model.common import ECONOMIC_MONTHS

#: The faces of the forage die (10.5.1).
FACES = range(1, 7)
#: Areas from its nearest corps beyond which a depot is spare (depot supply reaches three areas, 10.5.2).
SPARE_BEYOND = 4


def winter(state: Any) -> bool:
    return state.date.month in supply.WINTER_MONTHS


def months_to_income(state: Any) -> int:
    """Months of supply the treasury must last, this one included, until the next economic phase (12.0)."""
    m = state.date.month
    n = 1
    while m not in ECONOMIC_MONTHS:
        m = m % 12 + 1
        n += 1
    return n


def cost_halves(b: Any, corps: Corps, area: str) -> int | None:
    """Depot supply of ``corps`` were it to end in ``area`` now, in half-dollars; None beyond depot reach."""
    moved = corps.replace(location=Location(LocationKind.AREA, area))
    return depot_cost_halves(b.state, b.ctx, b.power, moved)


def forage_sixths(b: Any, area: str, *, others: int, unused: int, lowest: int, home: bool,
                  besieging: bool = False) -> tuple[int, int]:
    """(the losses of the six faces of the forage die summed, the loss of a 6) of a corps ending in ``area`` with
    ``others`` other corps there, ``unused`` movement points left, ``lowest`` the lowest forage value it passed."""
    mod = min(others, MAX_OTHER_CORPS) - (0 if besieging else unused)
    if winter(b.state) and b.ctx.map.area(area).winter:
        mod += WINTER_FORAGE
    if home:
        mod += OWN_TERRITORY_FORAGE
    return sum(max(0, r + mod - lowest) for r in FACES), max(0, 6 + mod - lowest)


def lowest_forage(b: Any, areas: Iterable[str]) -> int:
    return min(b.ctx.map.area(a).forage for a in areas)


def home_march(b: Any, areas: Iterable[str]) -> bool:
    """Every area of the march is in the power's territory (10.5.1's -1)."""
    return all(own_territory(b.state, b.ctx.map, a, b.power) for a in areas)


@dataclass
class Budget:
    """The money the power can give to depot supply this month (half-dollars) and what its plan has used."""

    halves: int
    used: int = 0

    @classmethod
    def of(cls, b: Any) -> "Budget":
        return cls(2 * b.state.powers[b.power].treasury // months_to_income(b.state))

    def left(self) -> int:
        return self.halves - self.used

    def take(self, halves: int) -> None:
        self.used += halves

    def trial(self) -> "Budget":
        return Budget(self.halves, self.used)


def supply_of(b: Any, lvl: Any, budget: Budget, c: Corps, area: str, move: tuple[int, tuple[str, ...]], others: int,
              *, besieging: bool = False) -> tuple[bool, int, int]:
    """How ``c`` would be supplied ending in ``area`` by ``move`` (its cost in movement points and the areas entered;
    ``(0, ())`` if it stays) with ``others`` other corps there: (acceptable, half-dollars of depot supply it takes
    from the budget, expected forage loss in sixths of a factor).  "Auto Forage" first (no roll can cost a factor),
    then depot supply within the budget left, else a forage the level accepts (``forage_risk``, and a 6 never
    destroys it)."""
    cost_mp, path = move
    rec = b.state.land_moves.get(c.id)
    unused = max(0, _allowance(b, c) - cost_mp - (rec.spent if rec is not None else 0))
    passed = (*(rec.passed if rec is not None else ()), *path)
    total, worst = forage_sixths(b, area, others=others, unused=unused, lowest=lowest_forage(b, passed or (area,)),
                                 home=home_march(b, (*passed, area)), besieging=besieging)
    if worst == 0:
        return True, 0, 0
    cost = cost_halves(b, c, area)
    if cost is not None and cost <= budget.left():
        return True, cost, 0
    return worst < c.factors.total and total * 100 <= lvl.forage_risk * 6, 0, total


def group_supply(b: Any, lvl: Any, budget: Budget, area: str, group: list[tuple[Corps, tuple[int, tuple[str, ...]]]],
                 *, besieging: bool = False) -> tuple[bool, int, int]:
    """``supply_of`` for every corps of ``group`` (each with its move) ending together in ``area``, where the power's
    corps already standing there stay: (all acceptable, half-dollars taken from ``budget``, expected forage loss in
    sixths of a factor).  Each corps counts the others of the group (10.5.1: at most +2)."""
    ids = {c.id for c, _ in group}
    here = sum(1 for c in control.corps_at(b.state, area) if c.factors.total and c.id not in ids
               and c.location.kind is LocationKind.AREA)
    ok, halves, lost = True, 0, 0
    for c, move in group:
        fine, cost, sixths = supply_of(b, lvl, budget, c, area, move, here + len(group) - 1, besieging=besieging)
        ok = ok and fine
        budget.take(cost)
        halves += cost
        lost += sixths
    return ok, halves, lost


def _allowance(b: Any, c: Corps) -> int:
    from eiapbem.rules.land.movement import allowance

    return allowance(b.state, b.ctx, c)


# ----------------------------------------------------------------- depots


def _spare(b: Any, keep: frozenset[str]) -> Depot | None:
    """A depot of the power on the map that no corps needs: farthest from its corps, and its removal leaves every
    depot within depot reach of a corps in the valid chain (10.3.3)."""
    import eiapbem.ai.assess as assess

    st, m, power = b.state, b.ctx.map, b.power
    mine = sorted((u for u in st.units.values() if isinstance(u, Depot) and u.power == power
                   and u.location.kind in (LocationKind.AREA, LocationKind.CITY)), key=lambda d: d.id)
    corps_areas = sorted({c.location.site for c in assess.army_units(st, power)})
    near: dict[str, int] = {}
    for d in mine:
        dist = assess.distances_from(b.ctx, d.location.site)
        near[d.id] = min((dist.get(a, 1 << 20) for a in corps_areas), default=1 << 20)
    chain = supply.supply_chain(st, m, power)
    needed = {d.location.site for d in mine if near[d.id] < SPARE_BEYOND and d.location.site in chain} | set(keep)
    for d in sorted(mine, key=lambda d: (-near[d.id], d.id)):
        if d.location.site in needed or near[d.id] < SPARE_BEYOND:
            continue
        after = supply.supply_chain(st.with_unit(d.replace(location=POOL)), m, power)
        if all(a in after for a in needed if a in chain):
            return d
    return None


def place(b: Any, area: str, keep: frozenset[str] = frozenset()) -> bool:
    """A depot in ``area`` if the rules allow one there now (a spare depot taken back first when the pool is
    empty, ``_spare``); True if placed."""
    st, power = b.state, b.power
    if depots_in(st, area) or st.powers[power].treasury < 1:
        return False
    try:
        check_place(st, b.ctx, power, area)
    except IllegalAction:
        return False
    if free_counter(st, power) is None:
        spare = _spare(b, keep | {area})
        if spare is None or not b.try_(RemoveDepot(depot=spare.id)):
            return False
    return b.try_(CreateDepot(area=area))


def with_depot(b: Any, area: str) -> Any:
    """A trial builder (a copy of ``b``) with a depot placed in ``area`` as ``follow`` would place it ahead of an army
    ending there, to judge the army's supply with it; None when ``follow`` would place none there (a depot within an
    area of it already, or the rules or the treasury refuse one)."""
    if supply.depot_distance(b.state, b.ctx.map, b.power, area, limit=1) is not None:
        return None
    trial = type(b)(b.state, b.power, b.ctx)
    return trial if place(trial, area) else None


def follow(b: Any, here: str, path: tuple[str, ...], end: str, stands: tuple[str, ...] = ()) -> None:
    """10.3: a depot for an army going from ``here`` by ``path`` to ``end``, before it moves: at ``end`` when that is
    its own territory and allowed, else the farthest area of the path in its territory that is allowed, else where
    it stands, or where another of its corps ``stands``, nearest the end first (outside its territory only an unmoved
    corps lets a depot be placed, 000:1344); none when the end is already in a depot's area or next to one."""
    st, m, power = b.state, b.ctx.map, b.power
    dist = supply.depot_distance(st, m, power, end, limit=1)
    if dist is not None:
        return
    keep = frozenset((here, end))
    for a in reversed((*path,)):
        if own_territory(st, m, a, power) and place(b, a, keep):
            return
    far = _distances(b, end)
    for a in sorted({here, *stands}, key=lambda a: (far.get(a, 1 << 20), a != here, a)):
        if supply.depot_distance(st, m, power, a, limit=0) is None and place(b, a, keep):
            return


def _distances(b: Any, area: str) -> dict[str, int]:
    import eiapbem.ai.assess as assess

    return assess.distances_from(b.ctx, area)


__all__ = ["Budget", "cost_halves", "follow", "forage_sixths", "months_to_income", "place",
           "group_supply", "supply_of", "winter", "with_depot"]
