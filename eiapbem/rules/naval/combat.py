"""9.2 Naval combat procedure, 9.3 naval victory and political points.

One combat between two stacks: forced retreat of light-only stacks
(9.2.1.2), evasion (9.2.1.1), wind gauge (9.2.1), harbour defences (9.2.3),
fire and losses (9.2.2, 9.2.2.1), victory (9.3.1) and political points
(9.3.2).  Worked example: 9.2.4 and 9.4.4 (000:1246, 000:1286), kept as
rules cases in ``tests/cases/naval/``.

Rounding: a side's losses are the percentage of the firing side's ships,
rounded down (9.2.4: 20% of 31 -> 6, 15% of 54 -> 8).  Within a stack,
light ship losses are proportional and rounded down, the rest are heavy
ships (9.2.2.1, 000:1238).
"""

from __future__ import annotations

from dataclasses import dataclass

from eiapbem.core.errors import BadData
from eiapbem.core.dice import Dice
from eiapbem.rules.tables import naval as chart
from eiapbem.rules.tables.diplomacy import POLITICAL_POINTS

SIDES = ("attacker", "defender")


@dataclass(frozen=True)
class NavalStack:
    """One side of a naval combat (transports never fight, 8.1.3, so they are not counted)."""

    heavy: int
    light: int
    fleets: int
    british: bool = False  # a British fleet is in the stack
    austrian_or_prussian: bool = False  # an Austrian and/or Prussian fleet is in the stack
    nelson: bool = False

    def __post_init__(self) -> None:
        for name in ("heavy", "light", "fleets"):
            v = getattr(self, name)
            if not isinstance(v, int) or isinstance(v, bool) or v < 0:
                raise BadData(f"a naval stack's {name} must be a whole number of 0 or more, not {v!r}")

    @property
    def ships(self) -> int:
        return self.heavy + self.light


@dataclass(frozen=True)
class NavalCombatResult:
    outcome: str  # "fought", "forced-retreat", "evaded"
    wind_gauge: str | None  # "attacker", "defender" or None (simultaneous)
    wind: dict[str, int]  # modified wind gauge numbers, when rolled
    fire: dict[str, int]  # modified combat random numbers
    percent: dict[str, int]  # % loss each side inflicted
    harbour_losses: int  # attacker ships lost to harbour defences
    losses: dict[str, int]  # ships lost by each side (all causes)
    heavy_losses: dict[str, int]
    light_losses: dict[str, int]
    victor: str | None  # "attacker", "defender", or None for a draw / no combat
    retreats: tuple[str, ...]  # sides whose survivors must retreat (9.4)
    political_points: dict[str, int]


def ship_losses(firing_ships: int, percent: int, target_ships: int) -> int:
    """Ships the target loses: ``percent`` % of the firing ships, rounded down (9.2.4), at most all."""
    return min(target_ships, firing_ships * percent // 100)


def proportional_losses(heavy: int, light: int, losses: int) -> tuple[int, int]:
    """(heavy lost, light lost) for ``losses`` ships of a mixed stack: light rounded down (9.2.2.1)."""
    total = heavy + light
    losses = min(losses, total)
    if total == 0:
        return 0, 0
    light_lost = losses * light // total
    return losses - light_lost, light_lost


def naval_victor(lost: dict[str, int], left: dict[str, int], *, interception: bool) -> str | None:
    """9.3.1: the winning side, or None for a draw."""
    a, d = "attacker", "defender"
    if left[a] == 0 and left[d] == 0:
        return None
    for me, other in ((a, d), (d, a)):
        if left[me] > 0 and lost[me] < lost[other]:
            return me
    if left[a] > 0 and left[d] > 0:  # equal losses
        return a if interception else d
    if lost[a] == lost[d]:  # one side sunk with equal losses: the survivor wins (decision)
        return a if left[a] > 0 else d
    return None  # a side sunk but with fewer losses: a draw (9.3.1)


def political_points(victor: str, stacks: dict[str, NavalStack]) -> dict[str, int]:
    """9.3.2: the victor gains, the loser loses, 1 per fleet of the loser (max 3), +/-1 for Nelson."""
    loser = "defender" if victor == "attacker" else "attacker"
    gain = POLITICAL_POINTS["naval-victor"].award(stacks[loser].fleets)
    loss = POLITICAL_POINTS["naval-loser"].award(stacks[loser].fleets)
    if stacks[victor].nelson:
        gain += POLITICAL_POINTS["naval-victor-nelson"].fixed
    if stacks[loser].nelson:
        loss += POLITICAL_POINTS["naval-loser-nelson"].fixed
    return {victor: gain, loser: loss}


def resolve(
    attacker: NavalStack,
    defender: NavalStack,
    dice: Dice,
    *,
    label: str = "naval",
    interception: bool = False,
    port: bool = False,
    harbour_defence: int = 0,
    wind_gauge_to: str | None = None,
    defender_evades: bool = False,
) -> NavalCombatResult:
    """Resolve one naval combat.  ``attacker`` is the phasing side (9.1).

    ``port``: the attacker attacks fleets in a port; it has the wind gauge and
    harbour defences of ``harbour_defence`` fire at it first (9.2.1, 9.2.3).
    ``wind_gauge_to``: a side that has the wind gauge without a roll
    (blockaders fighting fleets leaving or entering their port, 9.2.1).
    ``defender_evades``: the defender has an evasion order (9.2.1.1).
    """
    stacks = {"attacker": attacker, "defender": defender}
    if wind_gauge_to not in (None, "attacker", "defender"):
        raise BadData(f"wind_gauge_to must be 'attacker', 'defender' or empty, not {wind_gauge_to!r}")
    if harbour_defence and not port:
        raise BadData("harbour defences fire only in a port combat; set port or drop harbour_defence")
    zero = {"attacker": 0, "defender": 0}

    def no_fight(outcome: str, retreats: tuple[str, ...], victor: str | None) -> NavalCombatResult:
        return NavalCombatResult(outcome, None, {}, {}, {}, 0, dict(zero), dict(zero), dict(zero), victor, retreats, {})

    # 9.2.1.2: a stack of light ships only must retreat from one with heavy ships; no political points.
    for me, other in (("attacker", "defender"), ("defender", "attacker")):
        if stacks[me].heavy == 0 and stacks[other].heavy > 0:
            return no_fight("forced-retreat", (me,), None)

    # 9.2.1.1: evasion, not from an interception nor in a port combat.
    if defender_evades:
        if interception or port:
            raise BadData("a defender may evade only outside interceptions and port combats (9.2.1.1)")
        if dice.d6(f"{label}/evade") <= chart.EVADE_MAX:
            return no_fight("evaded", ("defender",), None)

    # 9.2.1: wind gauge.
    wind: dict[str, int] = {}
    if port:
        gauge: str | None = "attacker"
    elif wind_gauge_to is not None:
        gauge = wind_gauge_to
    else:
        for side in ("attacker", "defender"):
            s = stacks[side]
            wind[side] = chart.wind_number(dice.d6(f"{label}/wind/{side}"), british=s.british, nelson=s.nelson)
        if wind["attacker"] == wind["defender"]:
            gauge = None
        else:
            gauge = "attacker" if wind["attacker"] > wind["defender"] else "defender"

    left = {side: stacks[side].ships for side in SIDES}
    lost = dict(zero)

    # 9.2.3: harbour defences fire first at the attacker, unmodified, their value counting as ships.
    harbour_losses = 0
    if port and harbour_defence > 0:
        pct = chart.combat_percent(dice.d6(f"{label}/harbour"))
        harbour_losses = ship_losses(harbour_defence, pct, left["attacker"])
        left["attacker"] -= harbour_losses
        lost["attacker"] += harbour_losses

    # 9.2.2: each side's random number and modifiers, set from the stacks as they enter the combat.
    fire: dict[str, int] = {}
    percent: dict[str, int] = {}
    for me, other in (("attacker", "defender"), ("defender", "attacker")):
        s = stacks[me]
        mod = chart.combat_modifier(
            british=s.british,
            heavy_ratio=chart.has_heavy_ratio(s.heavy, stacks[other].heavy),
            austrian_or_prussian=s.austrian_or_prussian,
        )
        fire[me] = dice.d6(f"{label}/fire/{me}") + mod
        percent[me] = chart.combat_percent(fire[me])

    def shoot(me: str, firing: int) -> None:
        other = "defender" if me == "attacker" else "attacker"
        n = ship_losses(firing, percent[me], left[other])
        left[other] -= n
        lost[other] += n

    if gauge is None:  # simultaneous: both fire with the ships they have now
        firing = dict(left)
        shoot("attacker", firing["attacker"])
        shoot("defender", firing["defender"])
    else:  # the wind gauge fires first; the other replies with its survivors
        second = "defender" if gauge == "attacker" else "attacker"
        shoot(gauge, left[gauge])
        shoot(second, left[second])

    heavy_losses, light_losses = {}, {}
    for side in SIDES:
        heavy_losses[side], light_losses[side] = proportional_losses(
            stacks[side].heavy, stacks[side].light, lost[side]
        )

    victor = naval_victor(lost, left, interception=interception)
    if victor is None:
        retreats: tuple[str, ...] = ()
        pp: dict[str, int] = {}
    else:
        loser = "defender" if victor == "attacker" else "attacker"
        retreats = (loser,) if left[loser] > 0 else ()
        pp = political_points(victor, stacks)
    if port and left["attacker"] > 0 and "attacker" not in retreats:
        retreats = retreats + ("attacker",)  # 9.4.2: port attackers always go back to the blockade box
    return NavalCombatResult(
        outcome="fought",
        wind_gauge=gauge,
        wind=wind,
        fire=fire,
        percent=percent,
        harbour_losses=harbour_losses,
        losses=lost,
        heavy_losses=heavy_losses,
        light_losses=light_losses,
        victor=victor,
        retreats=retreats,
        political_points=pp,
    )


def _stack(raw: object, side: str) -> NavalStack:
    if not isinstance(raw, dict):
        raise BadData(f"case input '{side}' must be a table of heavy, light, fleets, british, austrian_or_prussian, nelson")
    allowed = {"heavy", "light", "fleets", "british", "austrian_or_prussian", "nelson", "power"}
    extra = sorted(set(raw) - allowed)
    if extra:
        raise BadData(f"case input '{side}' has unknown keys {', '.join(extra)}")
    return NavalStack(
        heavy=raw.get("heavy", 0),
        light=raw.get("light", 0),
        fleets=raw.get("fleets", 0),
        british=bool(raw.get("british", False)),
        austrian_or_prussian=bool(raw.get("austrian_or_prussian", False)),
        nelson=bool(raw.get("nelson", False)),
    )
