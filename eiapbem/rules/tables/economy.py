"""Economic charts: the PURCHASE/COST CHART with build times (15.0,
000:2951-2970; 12.5), the SPANISH GOLD CONVOY TABLE (000:2972-2976; 12.2,
000:2124-2128) and the victory levels (chart sheet 003:71-120; 12.1.3 000:2068).
"""

from __future__ import annotations

from dataclasses import dataclass

from eiapbem.core.errors import BadData, IllegalAction
from eiapbem.core.dice import Dice
from eiapbem.core.powers import POWER_NAMES, POWERS, check_power
from eiapbem.rules.tables import Table, register

# ---------------------------------------------------------------------------
# Purchase/cost chart (000:2951-2970)
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Cost:
    """One line of the PURCHASE/COST CHART: dollars and manpower per item, and
    the months from purchase to arrival as a reinforcement (``None``: no delay)."""

    id: str
    kind: str  # "maintenance" (each economic phase) or "purchase"
    title: str
    money: int
    manpower: int
    months: int | None
    line: int


COSTS: dict[str, Cost] = {
    c.id: c
    for c in (
        Cost("corps-maintenance", "maintenance", "Corps maintenance", 1, 0, None, 2954),
        Cost("fleet-maintenance-port", "maintenance", "Fleet maintenance, in port or blockade box", 1, 0, None, 2956),
        Cost("fleet-maintenance-sea", "maintenance", "Fleet maintenance, at sea", 5, 0, None, 2957),
        Cost("depot-maintenance", "maintenance", "Depot maintenance", 1, 0, None, 2958),
        Cost("artillery", "purchase", "Artillery factor", 7, 1, 6, 2960),
        Cost("cavalry", "purchase", "Cavalry factor", 12, 2, 5, 2961),
        Cost("guard", "purchase", "Guard factor", 7, 2, 6, 2962),
        Cost("infantry", "purchase", "Infantry factor", 3, 2, 3, 2963),
        Cost("militia", "purchase", "Militia factor", 0, 2, 1, 2964),
        Cost("heavy", "purchase", "Heavy ship", 9, 1, 12, 2966),
        Cost("light", "purchase", "Light ship", 6, 1, 9, 2967),
        Cost("transport", "purchase", "Transport", 4, 1, 6, 2968),
        Cost("counter", "purchase", "New corps or fleet counter", 1, 0, None, 2969),
        Cost("depot", "purchase", "New depot", 1, 0, None, 2970),
    )
}

#: Factor purchases only France and Russia may make (12.5.3, 000:2230).
ARTILLERY_BUILDERS = ("FR", "RU")


def cost(item: str) -> Cost:
    try:
        return COSTS[item]
    except KeyError:
        raise BadData(
            f"{item!r} is not on the purchase/cost chart; use one of {', '.join(COSTS)}"
        ) from None


def check_purchase(buyer: str, item: str, *, minor_free_state: bool = False) -> Cost:
    """The cost of ``item`` for ``buyer`` (a power id, or a minor slug with
    ``minor_free_state``); ``IllegalAction`` where 12.5.3 forbids the purchase:
    no militia for Turkey or any minor Free State, no guard for Turkey,
    artillery only for France and Russia."""
    c = cost(item)
    if c.kind != "purchase":
        raise BadData(f"{c.title} is maintenance, not something to buy")
    if not minor_free_state:
        check_power(buyer, "buyer")
    who = buyer if minor_free_state else POWER_NAMES[buyer]
    if item == "militia" and (minor_free_state or buyer == "TU"):
        raise IllegalAction(f"{who} may not build militia factors (12.5.3)")
    if item == "guard" and not minor_free_state and buyer == "TU":
        raise IllegalAction("Turkey may not build guard factors (12.5.3)")
    if item == "artillery" and (minor_free_state or buyer not in ARTILLERY_BUILDERS):
        raise IllegalAction(f"{who} may not build artillery factors; only France and Russia may (12.5.3)")
    return c


def arrival(year: int, month: int, item: str) -> tuple[int, int]:
    """(year, month) of the reinforcement phase in which ``item`` bought in
    ``month`` of ``year`` arrives: ``months`` later (12.5.3 example: infantry
    bought March 1806 arrives June 1806)."""
    c = cost(item)
    if not 1 <= month <= 12:
        raise BadData(f"month {month} must be 1..12")
    index = year * 12 + (month - 1) + (c.months or 0)
    return index // 12, index % 12 + 1


@register("purchase-cost")
def _purchase_table() -> Table:
    return Table(
        name="purchase-cost",
        title="Purchase/Cost Chart",
        section="15.0, 12.5",
        source="000:2951-2970",
        columns=("id", "expenditure", "money ($)", "manpower", "time (months)"),
        rows=tuple((c.id, c.title, c.money, c.manpower, c.months) for c in COSTS.values()),
        notes=(
            "Maintenance is paid each economic phase for counters on the map (12.5.1).",
            "Turkey and minor Free States build no militia; Turkey no guard; only France and Russia build artillery (12.5.3).",
        ),
    )


# ---------------------------------------------------------------------------
# Spanish gold convoy (000:2972-2976; 12.2 000:2124-2128)
# ---------------------------------------------------------------------------

#: Random number (2d6) -> money points for Spain (000:2974-2975).
SPANISH_GOLD: dict[int, int] = {2: 5, 3: 10, 4: 15, 5: 20, 6: 20, 7: 25, 8: 25, 9: 30, 10: 35, 11: 40, 12: 40}
GOLD_MONTH = 9  # September (manual; the chart sheet's October loses, seeds/README.md)
GOLD_WAR_MODIFIER = -2  # Great Britain at war with Spain
GOLD_CAPTURED = 15  # Britain's prize when the modified number is below 2


@dataclass(frozen=True)
class GoldConvoy:
    roll: int | None  # the unmodified 2d6, None when no number is chosen
    modified: int | None
    spain: int
    britain: int


def spanish_gold(
    dice: Dice,
    *,
    month: int,
    gb_at_war_with_spain: bool,
    convoy_possible: bool = True,
    label: str = "economy/spanish-gold",
) -> GoldConvoy:
    """The year's gold convoy in an economic phase (12.2).

    Only in September.  ``convoy_possible`` is False when every Spanish port is
    blockaded or Spain controls no port free of the enemy: no convoy, no roll.
    """
    if month != GOLD_MONTH or not convoy_possible:
        return GoldConvoy(None, None, 0, 0)
    roll = dice.two_d6(label)
    modified = roll + (GOLD_WAR_MODIFIER if gb_at_war_with_spain else 0)
    if modified < 2:
        return GoldConvoy(roll, modified, 0, GOLD_CAPTURED)
    return GoldConvoy(roll, modified, SPANISH_GOLD[modified], 0)


@register("spanish-gold")
def _gold_table() -> Table:
    return Table(
        name="spanish-gold",
        title="Spanish Gold Convoy Table",
        section="15.0, 12.2",
        source="000:2972-2976",
        columns=("random number",) + tuple(str(k) for k in SPANISH_GOLD),
        rows=(("money",) + tuple(SPANISH_GOLD.values()),),
        notes=(
            "September economic phase only; the random number is 2d6 (decision, see docs/decisions.md).",
            "Great Britain at war with Spain: -2; a modified number below 2 gives Britain $15 and Spain nothing.",
            "No convoy and no roll if every Spanish port is blockaded or none is Spanish and free of the enemy (000:2128).",
        ),
    )


# ---------------------------------------------------------------------------
# Victory levels (003:71-120; 12.2 000:2068-2070)
# ---------------------------------------------------------------------------

#: Campaign -> power -> victory points needed to win (003:80-120).
VICTORY_LEVELS: dict[str, dict[str, int]] = {
    "1805-1815": {"AU": 330, "FR": 400, "GB": 370, "PR": 320, "RU": 335, "SP": 325, "TU": 315},
    "1792-1802": {"AU": 300, "FR": 320, "GB": 340, "PR": 290, "RU": 320, "SP": 295, "TU": 285},
}


def victory_level(power: str, campaign: str = "1805-1815") -> int:
    check_power(power)
    try:
        return VICTORY_LEVELS[campaign][power]
    except KeyError:
        raise BadData(f"campaign {campaign!r} has no victory levels; use one of {', '.join(VICTORY_LEVELS)}") from None


@register("victory-levels")
def _victory_levels_table() -> Table:
    return Table(
        name="victory-levels",
        title="Victory Levels Chart",
        section="12.1.3",
        source="003:71-120",
        columns=("power", "1805-1815", "1792-1802"),
        rows=tuple(
            (POWER_NAMES[p], VICTORY_LEVELS["1805-1815"][p], VICTORY_LEVELS["1792-1802"][p]) for p in POWERS
        ),
        notes=(
            "A power's winning bid is added to its level in a PBEM game (000:2050).",
            "If nobody reaches its level by the end of a campaign, Great Britain wins (000:2068).",
        ),
    )
