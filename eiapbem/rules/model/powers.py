"""A major power's state: money, men, standing, relations, builds and orders.

Relations are stored on each power keyed by the other power's id.  Wars,
alliances and royal marriages are mutual, so ``GameState`` checks that both
sides agree; enforced peace, access, trade and loans are one-way and belong to
the power that is bound or that grants.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Annotated

from eiapbem.rules.model.base import FrozenMap, InvalidValue, OneOf, Record, SortedSet
from eiapbem.rules.model.common import (
    Date,
    FactorType,
    NationId,
    NonNeg,
    Phase,
    PowerId,
    PowerSet,
    Positive,
    ShipType,
    Slug,
    SlugSet,
)
from eiapbem.rules.model.units import Factors, Ships, UnitId


class PlayerKind(enum.StrEnum):
    """Who plays a power (4.2.3, 000:144-154; the AI bonuses of 12.0 depend on it)."""

    HUMAN = "human"
    AI_EASY = "ai-easy"
    AI_MEDIUM = "ai-medium"
    AI_HARD = "ai-hard"


class AccessKind(enum.StrEnum):
    """Kinds of access to a major power's territory (13.4.1, 000:2548-2556; 14.3 item 11)."""

    VOLUNTARY = "voluntary"  # granted by standing order (6.11)
    TEMPORARY = "temporary"  # three-month grace after peace or cancelled access
    ENFORCED = "enforced"  # peace condition C.5, until the next war


class SkipMode(enum.StrEnum):
    """Phase skipping (13.9, 000:2734): one phase, or every time until switched off."""

    ONCE = "once"
    CONTINUOUS = "continuous"


#: Phases a player may skip (13.9, 000:2734).
SKIPPABLE_PHASES: tuple[Phase, ...] = (Phase.DIPLOMACY, Phase.REINFORCEMENT, Phase.NAVAL)

#: Peace conditions of the victory conditions chart (15.0, 000:2914-2949).
PEACE_CONDITIONS: tuple[str, ...] = (
    "A.1", "A.2", "A.3", "A.4", "A.5",
    "B.1", "B.2", "B.3", "B.4", "B.5", "B.6", "B.7",
    "C.1.a", "C.1.b", "C.1.c", "C.2", "C.3", "C.4", "C.5", "C.6", "C.7",
)
PeaceCode = Annotated[str, OneOf(PEACE_CONDITIONS)]

#: What a build order can deliver (12.5.3): army factors a power buys and ships.
BUILD_ITEMS: tuple[str, ...] = (
    FactorType.INFANTRY.value, FactorType.MILITIA.value, FactorType.CAVALRY.value,
    FactorType.GUARD.value, FactorType.ARTILLERY.value,
    ShipType.HEAVY.value, ShipType.LIGHT.value, ShipType.TRANSPORT.value,
)
SHIP_ITEMS = (ShipType.HEAVY.value, ShipType.LIGHT.value, ShipType.TRANSPORT.value)


@dataclass(frozen=True, slots=True)
class War(Record):
    """A war between two major powers (6.2); both sides hold the same record."""

    since: Date
    #: Who declared it; both when they declared on each other at once (6.3.2, 000:654).
    declared_by: PowerSet
    #: A war the game starts with (the option's or a GAP selection's, 4.2.10): dated to the first month, yet declared
    #: before the game, so no declaration "issued against" its target that month (13.9.1, 000:2738).
    before_game: bool = False


@dataclass(frozen=True, slots=True)
class Access(Record):
    """Access this power grants another (13.4.1)."""

    kind: AccessKind
    #: Last month of a temporary grace period (three land phases, 000:2552).
    until: Date | None = None

    def _check(self) -> None:
        if (self.kind is AccessKind.TEMPORARY) != (self.until is not None):
            raise InvalidValue("temporary access has an end month and only it has one", path="until")


def build_key(arrives: Date, nation: str, item: str, port: str | None) -> str:
    return f"{arrives}/{nation}/{item}/{port or '-'}"


@dataclass(frozen=True, slots=True)
class BuildOrder(Record):
    """Factors or ships bought in an economic phase, due as reinforcements (12.5.3, 000:2232-2234).

    Keyed in ``PowerState.builds`` by ``key`` (month, nation, item, port):
    purchases due the same month for the same nation, item and port add up.
    """

    nation: NationId  # the power itself or one of its minor free states
    item: Annotated[str, OneOf(BUILD_ITEMS)]
    count: Positive
    arrives: Date
    #: Ships appear only in the port chosen when bought (000:2234).
    port: Slug | None = None

    @property
    def key(self) -> str:
        return build_key(self.arrives, self.nation, self.item, self.port)

    def _check(self) -> None:
        if (self.item in SHIP_ITEMS) != (self.port is not None):
            raise InvalidValue("ships are built in a named port and army factors are not", path="port")


@dataclass(frozen=True, slots=True)
class PeaceTerm(Record):
    """A peace condition still in force against this power (the loser) (6.4, 15.0).

    One-off conditions (remove corps, cede land) change the state at once and
    leave no term; lasting ones (reparations due, royal marriage, no trading,
    enforced access, half trade) stay here until they end.
    """

    victor: PowerId
    code: PeaceCode
    since: Date
    until: Date | None = None
    #: Economic phases still to pay (C.7: four, 000:2949).
    remaining: NonNeg | None = None
    #: B.5: trade with ``GB`` or ``america`` is barred, at the victor's choice (000:2929).
    target: Annotated[str, OneOf(("GB", "america"))] | None = None

    @property
    def key(self) -> str:
        return f"{self.victor}:{self.code}"


@dataclass(frozen=True, slots=True)
class SurrenderSettings(Record):
    """Victory Conditions Screen settings toward one enemy (6.4, 000:662-690)."""

    #: Offer conditional terms if the enemy sues (else unconditional).
    give_conditional: bool = False
    #: Terms to take as victor, in order of preference (lists B and C).
    terms: tuple[PeaceCode, ...] = ()
    accept_informal: bool = False
    allow_separate_peace: bool = False
    #: The list-A condition to claim when surrendering conditionally.
    if_conditional_offered: PeaceCode | None = None
    #: The victor's choice of the loser's corps, fleets or leader to remove (B.1, B.7, C.1, C.6), in order.
    remove: tuple[str, ...] = ()
    #: The victor's choice of provinces or minor countries to take (B.6, C.4), in order.
    cede: tuple[Slug, ...] = ()

    def _check(self) -> None:
        if any(t.startswith("A.") for t in self.terms):
            raise InvalidValue("a victor chooses terms from lists B and C only", path="terms")
        if self.if_conditional_offered is not None and not self.if_conditional_offered.startswith("A."):
            raise InvalidValue("the conditional claim is from list A", path="if_conditional_offered")


#: The defender's operational possibilities chits (11.2.1; the chart's rows, 000:3005-3029).
DefenderChit = Annotated[
    str, OneOf(("outflank", "counter-attack", "escalated-counter-attack", "cordon", "withdrawal", "defend"))
]


@dataclass(frozen=True, slots=True)
class StandingOrders(Record):
    """Pre-set reactions (6.0 "standing orders"; Diplomatic Reactions Screen, 000:532)."""

    #: 6.3.1: allies to call when at war with the key power.
    call_allies: FrozenMap[PowerId, PowerSet] = FrozenMap()
    #: 6.3.1: allies whose call to answer when their enemy is the key power.
    answer_calls: FrozenMap[PowerId, PowerSet] = FrozenMap()
    #: 6.5: request or accept an alliance.
    request_alliance: PowerSet = ()
    #: 6.6: minors this power accepts to run.
    accept_control: SlugSet = ()
    #: 6.6.2: back down from a declaration on these minors if the key power also declared.
    withdraw_dow: FrozenMap[PowerId, SlugSet] = FrozenMap()
    #: 6.6.6: declare war in support of these controlled minors if the key power attacks them.
    support_minor: FrozenMap[PowerId, SlugSet] = FrozenMap()
    #: 6.4: surrender settings toward each enemy.
    surrender: FrozenMap[PowerId, SurrenderSettings] = FrozenMap()
    #: 6.4 "Separate Peace and Allies": allies to be told to break off after a separate peace.
    demand_break: PowerSet = ()
    #: 13.2.2: lone cossacks and freikorps try to retreat when attacked.
    irregulars_retreat: bool = False
    #: 13.2.1 (000:2392): the power "may mount" anti-guerrilla operations; mounted unless it declines them here.
    decline_anti_guerrilla: bool = False
    #: 13.2.4 (000:2476-2480): Austria's insurrection corps rise when an enemy enters Austria unless it holds them.
    hold_insurrection: bool = False
    #: 11.2.1 "Standing Orders Option" (000:1648): the defensive chit a corps uses
    #: when its chit is chosen automatically (a minor's corps alone, PBEM quick combat).
    battle_chits: FrozenMap[UnitId, DefenderChit] = FrozenMap()
    #: 13.2.4: Austria's insurrection trigger provinces (up to three).
    insurrection_triggers: Annotated[tuple[Slug, ...], SortedSet()] = ()
    #: 8.5 "Review/Set Orders": fleets that attempt to intercept enemy stacks on their own.
    intercept: Annotated[tuple[UnitId, ...], SortedSet()] = ()
    #: 9.2.1.1: each fleet's evasion order when it defends outside an interception or port combat.
    evasion: FrozenMap[UnitId, Annotated[str, OneOf(("no-evade", "evade-stronger", "evade-all"))]] = FrozenMap()

    def _check(self) -> None:
        if len(self.insurrection_triggers) > 3:
            raise InvalidValue("at most three insurrection trigger provinces (13.2.4)", path="insurrection_triggers")


@dataclass(frozen=True, slots=True)
class Purchase(Record):
    """Factors or ships ordered in an economic phase (12.5.3), before they are paid for.

    ``nation`` is the power or one of its minor free states (which buys with its
    own money, 12.2.3); ships name the building port chosen at purchase (000:2234).
    """

    nation: NationId
    item: Annotated[str, OneOf(BUILD_ITEMS)]
    count: Positive
    port: Slug | None = None

    def _check(self) -> None:
        if (self.item in SHIP_ITEMS) != (self.port is not None):
            raise InvalidValue("ships are bought for a named port and army factors are not", path="port")


@dataclass(frozen=True, slots=True)
class PowerState(Record):
    """One major power (money in dollars, 12.2; political status as a display position, 13.7)."""

    controller: PlayerKind = PlayerKind.HUMAN
    treasury: NonNeg = 0
    manpower: NonNeg = 0
    #: Position of the marker on the political status display (13.7); the
    #: display (zones, victory points per box) is data.
    political_status: int = 0
    victory_points: int = 0
    #: The GAP bid added to the victory level (12.1.1, 000:2050).
    vp_bid: NonNeg = 0
    wars: FrozenMap[PowerId, War] = FrozenMap()
    #: Neutral minors this power has declared war on, with the month (6.2, 6.15).
    minor_wars: FrozenMap[Slug, Date] = FrozenMap()
    #: Great Britain only: at war with the United States (12.2.1, 6.13).
    war_with_america: bool = False
    alliances: FrozenMap[PowerId, Date] = FrozenMap()
    #: When an alliance with the key power was broken (no new one for 12 months, 6.5.1).
    alliances_broken: FrozenMap[PowerId, Date] = FrozenMap()
    #: Royal marriages (B.4, 000:2928), mutual.
    royal_marriages: FrozenMap[PowerId, Date] = FrozenMap()
    #: This power may not declare war on the key power before this month (6.4, B.2, C.2).
    enforced_peace: FrozenMap[PowerId, Date] = FrozenMap()
    #: The month of the last informal peace with the key power (6.4.1: no terms, no enforced peace), mutual.
    informal_peace: FrozenMap[PowerId, Date] = FrozenMap()
    #: Access this power grants to the key power (6.11, 13.4.1).
    access: FrozenMap[PowerId, Access] = FrozenMap()
    #: Trade requested with (or, for Great Britain, allowed to) these powers (6.10).
    trade: PowerSet = ()
    #: Money given to an ally or free state, received at the next economic phase (6.12, 12.3).
    loans: FrozenMap[NationId, Positive] = FrozenMap()
    #: Purchases on the way (12.5.3), keyed by ``BuildOrder.key``.
    builds: FrozenMap[str, BuildOrder] = FrozenMap()
    #: Factors to place at the next reinforcement phase that no build order
    #: covers, such as exchanged prisoners (6.4 "Prisoner Exchange", 000:688).
    returned_factors: Factors = Factors()
    #: Army factors and ships given by the scenario that are not yet on the map:
    #: all must be placed in the setup phase (5.1, 000:308); the setup rules
    #: move them into corps, garrisons and fleets.
    unplaced_factors: Factors = Factors()
    unplaced_ships: Ships = Ships()
    #: Peace conditions in force against this power, keyed by ``PeaceTerm.key``.
    peace_terms: FrozenMap[str, PeaceTerm] = FrozenMap()
    standing_orders: StandingOrders = StandingOrders()
    #: 12.4.3: position on the economic manipulation display, a standing setting ("0" at the start).
    #: The economic phase's orders (purchases, gifts, cessions...) are on ``GameState.order_sheet``.
    manipulation: int = 0
    #: Phase skip settings (13.9).
    skips: FrozenMap[Phase, SkipMode] = FrozenMap()
    #: Must sue for peace at the next diplomacy phase (civil disorder 6.4.3, 13.7.1).
    must_sue_for_peace: bool = False
    #: The suit is owed for a marker pushed off the display's lower end (13.7.1), which has to accept only a
    #: conditional surrender; civil disorder's (6.4.3) accepts any.
    sue_off_display: bool = False
    #: Failed requests to AI allies so far; each adds to the nuisance toll (6.16, 000:896; 12.3).
    failed_ai_requests: NonNeg = 0
    #: Military actions this computer power granted an ally for this month's land phase, area -> "attack" or
    #: "defend" (6.16 "Request an Attack" / "Request Defense", 000:894-896); cleared when the month ends.
    military_requests: FrozenMap[Slug, Slug] = FrozenMap()
    #: Land this computer power granted an ally, territory (a minor country or ceded province) -> the ally; ceded at
    #: the next economic phase's 12.7 step (6.16 "Request Land", 000:896).
    land_grants: FrozenMap[Slug, PowerId] = FrozenMap()

    def _check(self) -> None:
        for key, order in self.builds.items():
            if key != order.key:
                raise InvalidValue(f"build order key must be {order.key}", path=f"builds.{key}")
        for key, term in self.peace_terms.items():
            if key != term.key:
                raise InvalidValue(f"peace term key must be {term.key}", path=f"peace_terms.{key}")
        for phase in self.skips:
            if phase not in SKIPPABLE_PHASES:
                raise InvalidValue(f"the {phase} phase cannot be skipped (13.9)", path=f"skips.{phase}")
