"""What every step of the economic phase reads: control, occupation, siege,
blockade, the political status display and the ledger (12.0, 000:2026-2350).

Who holds a city or a province, what is besieged or blockaded, and who is
at war come from ``eiapbem.rules.control`` and ``eiapbem.rules.relations``
(one definition each).  Nothing here changes the state except
``adjust_status`` and the ledger helpers.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from eiapbem.rules.control import HOLDING_STATUSES, city_holder, is_besieged, province_holder
from eiapbem.rules.relations import allied, power_of
# Re-exported for branches written against ``economy.common`` before ``relations`` landed (shared_names.md);
# new code imports them from ``eiapbem.rules.relations``.
from eiapbem.rules.model import POWERS, GameState, Purchase
from eiapbem.rules.model.base import FrozenMap
from eiapbem.rules.politics import adjust_status, status_box, status_range  # noqa: F401  (re-exported)
from eiapbem.rules.engine import RulesContext

#: Statuses in which a power holds a minor's territory (13.3.1, 6.8): ``control.HOLDING_STATUSES``.
CONTROLLED = HOLDING_STATUSES


# ----------------------------------------------------------------- the ledger


@dataclass(frozen=True)
class Line:
    """One line of the economic summary: who, which step, what, and how much.

    ``fund`` is the treasury the line changes: a power, or a minor free state
    or kingdom (12.2.3); ``money`` and ``manpower`` are signed changes;
    ``political`` and ``vp`` are changes of political status and victory points.
    """

    power: str
    fund: str
    step: str
    item: str
    money: int = 0
    manpower: int = 0
    political: int = 0
    vp: int = 0
    detail: str = ""
    not_bought: str = ""

    def to_obj(self) -> dict[str, Any]:
        return {
            "power": self.power, "fund": self.fund, "step": self.step, "item": self.item,
            "money": self.money, "manpower": self.manpower, "political": self.political,
            "vp": self.vp, "detail": self.detail, "not_bought": self.not_bought,
        }


@dataclass
class Ledger:
    """The lines of one economic phase, in the order the rules produced them."""

    lines: list[Line] = field(default_factory=list)

    def add(self, power: str, step: str, item: str, *, fund: str | None = None, money: int = 0,
            manpower: int = 0, political: int = 0, vp: int = 0, detail: str = "", not_bought: str = "") -> None:
        self.lines.append(Line(power, fund or power, step, item, money, manpower, political, vp, detail, not_bought))


# ----------------------------------------------------------------- control of territory


def kingdom_of_province(state: GameState, province: str) -> str | None:
    for slug, m in state.minors.items():
        if province in m.provinces:
            return slug
    return None


def occupied_by_enemy(state: GameState, ctx: RulesContext, area: str, owner: str | None) -> bool:
    """The city of ``area`` is held, unbesieged, by a nation that is not ``owner`` nor its ally
    (12.2.1 "occupied by unbesieged enemy factors")."""
    if owner is None:
        return False
    holder = power_of(state, city_holder(state, ctx, area))
    if holder is None or holder == owner or allied(state, owner, holder):
        return False
    return not is_besieged(state, ctx, area)


def capital_occupied(state: GameState, ctx: RulesContext, province: str, owner: str | None = None) -> bool:
    """The capital city of a province or minor district is occupied by unbesieged enemy factors."""
    holder = owner if owner is not None else province_holder(state, ctx, province)
    if holder is None:
        prov = ctx.map.province(province)
        holder = prov.nation
    return occupied_by_enemy(state, ctx, ctx.map.capital_of(province), holder)


def national_capitals_occupied(state: GameState, ctx: RulesContext, power: str) -> tuple[str, ...]:
    """The national capitals of ``power`` occupied by unbesieged enemy factors (12.2.1, 12.4.1)."""
    return tuple(c for c in ctx.map.national_capitals(power) if occupied_by_enemy(state, ctx, c, power))


# ----------------------------------------------------------------- political status display


# The display lives in the phase-neutral ``eiapbem.rules.politics`` (diplomacy moves the marker too).


def free_state_funds(state: GameState, power: str) -> tuple[str, ...]:
    """The treasuries of ``power``'s minor free states: those outside a kingdom, and kingdoms (12.8)."""
    return tuple(s for s in state.free_states(power) if state.minors[s].kingdom is None and state.minors[s].part_of is None)


def fund_of(state: GameState, nation: str) -> str:
    """The treasury a free state's money goes to: its kingdom's, if it is a component (12.8)."""
    m = state.minors.get(nation)
    if m is not None and m.kingdom is not None:
        return m.kingdom
    return nation


def ceil_half(n: int) -> int:
    return -(-n // 2)


# ----------------------------------------------------------------- one power's orders


@dataclass(frozen=True)
class EconomicOrders:
    """What one power ordered for the economic phase in play (12.1.2-12.9), read from the order sheet.

    Not part of the state: the orders themselves are on ``GameState.order_sheet`` (the one sheet of every
    simultaneous phase, cleared by the sequence) and ``economy.phase.orders_of`` folds them into this value
    for the steps of 12.0.  The standing setting of 12.4.3 is ``PowerState.manipulation``.
    """

    #: 12.2.1: powers Great Britain stops from trading with America (sorted).
    stop_usa_trade: tuple[str, ...] = ()
    #: 12.1.2: Great Britain's victory point deduction from one enemy.
    vp_deduction_target: str | None = None
    vp_deduction: int = 0
    #: 12.4.2: removed leaders to buy back with political points (sorted).
    return_leaders: tuple[str, ...] = ()
    #: 12.4.3: the new setting chosen this phase, in effect from the next phase.
    next_manipulation: int | None = None
    #: 12.5.3: purchases of factors and ships, paid in this order.
    purchases: tuple[Purchase, ...] = ()
    #: 12.5.4: counters bought from the counter pool ($1 each), in this order.
    counters: tuple[str, ...] = ()
    #: 12.3: money given in the lending step to allies or own minor free states.
    gifts: FrozenMap[str, int] = FrozenMap()
    #: 12.5.2: informal debts paid to other powers.
    debts_paid: FrozenMap[str, int] = FrozenMap()
    #: 12.7: the one minor country or ceded province ceded this phase, and to whom.
    cede_territory: str | None = None
    cede_to: str | None = None
    #: 12.8: kingdoms to create (sorted).
    kingdoms: tuple[str, ...] = ()
    #: 12.9, 13.2: levy counters to place (corps id -> area).
    levy_place: FrozenMap[str, str] = FrozenMap()
    #: 12.9, 13.2.2: cossacks and freikorps to remove from the map (sorted).
    levy_remove: tuple[str, ...] = ()


# ----------------------------------------------------------------- the phase being resolved


@dataclass
class Work:
    """The economic phase while it is resolved: the state so far, the ledger, and the
    minor free states' and kingdoms' money and manpower (12.2.3), which live only
    for the phase (12.5.5) and are written back as zero at its end.
    """

    state: GameState
    ctx: RulesContext
    ledger: Ledger = field(default_factory=Ledger)
    fund_money: dict[str, int] = field(default_factory=dict)
    fund_manpower: dict[str, int] = field(default_factory=dict)
    #: Trade money each power collected this phase (piracy's cap, C.7's half trade).
    trade: dict[str, int] = field(default_factory=dict)
    #: Money and manpower each power collected this phase (the AI bonus of 12.0).
    collected: dict[str, int] = field(default_factory=dict)
    collected_manpower: dict[str, int] = field(default_factory=dict)
    #: Powers whose economic loss number came up this phase (12.2.1).
    eln_hit: set[str] = field(default_factory=set)
    #: Home nation manpower each power collected (civil disorder, 12.2.2).
    home_manpower: dict[str, int] = field(default_factory=dict)
    #: The powers' money and manpower while a step runs (``flush`` writes them to the state).
    cash: dict[str, int] = field(default_factory=dict)
    recruits: dict[str, int] = field(default_factory=dict)
    #: Every power's orders of this phase (``economy.phase.run_steps`` reads them off the order sheet).
    sheet: dict[str, EconomicOrders] = field(default_factory=dict)

    def orders(self, power: str) -> EconomicOrders:
        """What ``power`` ordered for this phase (nothing, if it gave no order)."""
        return self.sheet.get(power) or EconomicOrders()

    @property
    def date(self):
        return self.state.date

    def label(self, who: str, what: str) -> str:
        """The dice label of a roll of this phase, e.g. ``economy/1806-03/FR/eln``."""
        return f"economy/{self.state.date}/{who}/{what}"

    # -- money movements (every change of a treasury goes through these two)

    def money(self, nation: str, amount: int, step: str, item: str, *, power: str | None = None,
              detail: str = "") -> int:
        """Add ``amount`` (negative: take, never below zero) to a power's or a fund's money;
        write the ledger line; return what actually moved."""
        owner = power or power_of(self.state, nation) or nation
        have = self.treasury(nation)
        moved = max(amount, -have)
        if nation in POWERS:
            self.cash[nation] = have + moved
        else:
            self.fund_money[nation] = have + moved
        if moved != amount:
            detail = (detail + "; " if detail else "") + f"only ${-moved} available"
        self.ledger.add(owner, step, item, fund=nation, money=moved, detail=detail)
        return moved

    def manpower(self, nation: str, amount: int, step: str, item: str, *, power: str | None = None,
                 detail: str = "") -> int:
        owner = power or power_of(self.state, nation) or nation
        have = self.men(nation)
        moved = max(amount, -have)
        if nation in POWERS:
            self.recruits[nation] = have + moved
        else:
            self.fund_manpower[nation] = have + moved
        self.ledger.add(owner, step, item, fund=nation, manpower=moved, detail=detail)
        return moved

    def flush(self) -> GameState:
        """Write the powers' money and manpower kept during a step back into the state."""
        powers = self.state.powers
        for p in POWERS:
            ps = powers[p]
            t, m = self.cash.get(p, ps.treasury), self.recruits.get(p, ps.manpower)
            if (t, m) != (ps.treasury, ps.manpower):
                powers = powers.set(p, ps.replace(treasury=t, manpower=m))
        self.cash.clear()
        self.recruits.clear()
        if powers is not self.state.powers:
            self.state = self.state.replace(powers=powers)
        return self.state

    def political(self, power: str, points: int, step: str, item: str, detail: str = "") -> None:
        self.flush()
        before = self.state.powers[power].political_status
        self.state = adjust_status(self.state, self.ctx, power, points)
        after = self.state.powers[power].political_status
        if after - before != points:
            detail = (detail + "; " if detail else "") + f"marker stops at {after}"
        self.ledger.add(power, step, item, political=points, detail=detail)

    def note(self, power: str, step: str, item: str, detail: str = "", fund: str | None = None) -> None:
        self.ledger.add(power, step, item, fund=fund, detail=detail)

    def not_bought(self, power: str, step: str, item: str, reason: str, fund: str | None = None) -> None:
        """A line for an order not carried out, and why (``Line.not_bought``)."""
        self.ledger.add(power, step, item, fund=fund, detail=f"not bought: {reason}", not_bought=reason)

    def treasury(self, nation: str) -> int:
        if nation in POWERS:
            return self.cash.get(nation, self.state.powers[nation].treasury)
        return self.fund_money.get(nation, 0)

    def men(self, nation: str) -> int:
        if nation in POWERS:
            return self.recruits.get(nation, self.state.powers[nation].manpower)
        return self.fund_manpower.get(nation, 0)
