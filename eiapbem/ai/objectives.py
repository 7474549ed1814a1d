"""What the computer's armies march on: its war aims (the land and naval plans' one source of objectives).

``aims(state, ctx, power)`` lists the places worth taking from the nations the power is at war with, best first,
as ``Aim(enemy, area, worth)``:

- an enemy great power's national capitals (12.2.1) that it still holds: worth 10 (a capital taken shakes a power:
  its money and manpower come from there, and the 6.4 peace terms follow lost capitals);
- the power's own home cities an enemy holds: worth 8;
- a minor country's capital held by an enemy or a neutral minor at war with it: worth 6 (10.7: holding it a month
  conquers the minor);
- every other enemy-held city: worth 1 plus its supply value (the bigger the city, the more it feeds and pays).

The worth is weighed by the defence and the distance where an army chooses its goal (``eiapbem.ai.armies``).
``main_enemy`` is the enemy great power whose forces within reach of the power's home weigh most, else the one
whose capital is nearest.  This is the one place to take the strategic plan's aims from when a power keeps one.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import eiapbem.ai.assess as assess
from eiapbem.rules import control, relations

WORTH_CAPITAL, WORTH_HOME, WORTH_MINOR_CAPITAL = 10, 8, 6


@dataclass(frozen=True)
class Aim:
    enemy: str
    area: str
    worth: int


def aims(state: Any, ctx: Any, power: str) -> tuple[Aim, ...]:
    """The power's war aims on land, best first (worth, then area)."""
    m = ctx.map
    out: dict[str, Aim] = {}
    capitals = {c: q for q in assess.enemies(state, power) for c in assess.capitals(ctx, q)}
    for a in m.cities():
        holder = control.city_holder(state, m, a)
        if holder is None or not relations.at_war(state, power, holder):
            continue
        nation = m.area(a).nation
        city = m.area(a).city
        if a in capitals and capitals[a] == relations.power_of(state, holder):
            worth = WORTH_CAPITAL
        elif nation == power:
            worth = WORTH_HOME
        elif city is not None and city.capital == "minor":
            worth = WORTH_MINOR_CAPITAL
        else:
            worth = 1 + (city.supply if city is not None else 0)
        enemy = relations.power_of(state, holder) or holder
        out[a] = Aim(enemy, a, worth)
    return tuple(sorted(out.values(), key=lambda x: (-x.worth, x.area)))


def main_enemy(state: Any, ctx: Any, power: str) -> str | None:
    """The enemy great power whose field forces near the power's capitals weigh most, else the nearest one."""
    foes = assess.enemies(state, power)
    if not foes:
        return None
    caps = assess.capitals(ctx, power)

    def weight(q: str) -> tuple[int, int]:
        near = sum(assess.force_strength(state, ctx, [c.id]) for c in assess.army_units(state, q)
                   if any((assess.distance(ctx, c.location.site, cap) or 1 << 20) <= 2 * assess.NEAR for cap in caps))
        far = min(((assess.distance(ctx, cap, x) or 1 << 20) for cap in caps for x in assess.capitals(ctx, q)),
                  default=1 << 20)
        return near, -far
    return max(foes, key=lambda q: (weight(q), assess.name_last_first(q)))


__all__ = ["Aim", "aims", "main_enemy"]
