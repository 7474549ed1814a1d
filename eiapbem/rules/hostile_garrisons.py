"""13.5.4 garrisons of powers that find themselves at war in one city (000:2572-2574).

Phase-neutral: the diplomacy phase calls ``resolve`` at its end (after its declarations of war,
calls to allies and the peace step), the one moment at which garrisons of different powers
sharing a city can become enemies (a move never puts an enemy garrison inside a city: that is a
siege).  For each city, in map order, while two sides there are at war (a side is the power acting
for a garrison, 7.6; a neutral minor's garrison is its own side):

- each side draws a die (``hostile-garrisons/<city>/<side>/<round>``, 1-6) and adds the factors of
  its garrisons in the city; the higher total wins (000:2574: a random number modified by the
  factors in garrison);
- on equal totals the side holding the city keeps it; if neither holds it, both draw again
  (at most ten rounds, then the side with more factors, then the first in power order);
- the loser's garrison factors in the city are captured: they become the winner's prisoners
  (6.4, as a surrendered force); if the loser held the city, the winner takes it (13.5.4
  "determine city control").

Corps standing inside the city are not garrisons and are left alone (docs/decisions.md).
"""

from __future__ import annotations


from eiapbem.rules import control, relations
from eiapbem.rules.model import POWERS, GameState, Garrison, LocationKind, LogEntry
from eiapbem.rules.model.base import FrozenMap
from eiapbem.rules.model.state import CityControl
from eiapbem.rules.model.units import Prisoners, prisoners_key
from eiapbem.rules.engine import RulesContext

#: Equal totals with neither side holding the city: draws at most this many rounds.
MAX_ROUNDS = 10


def _side(state: GameState, g: Garrison) -> str:
    return relations.unit_side(state, g)


def _order(side: str) -> tuple[int, str]:
    return (POWERS.index(side), side) if side in POWERS else (len(POWERS), side)


def _garrisons_by_city(state: GameState) -> dict[str, list[Garrison]]:
    out: dict[str, list[Garrison]] = {}
    for u in state.units.values():
        if isinstance(u, Garrison) and u.location.kind is LocationKind.CITY and u.factors.total > 0:
            out.setdefault(u.location.site, []).append(u)
    return out


def _hostile_pair(state: GameState, sides: list[str]) -> tuple[str, str] | None:
    for i, a in enumerate(sides):
        for b in sides[i + 1:]:
            if relations.at_war(state, a, b):
                return a, b
    return None


def _contest(state: GameState, ctx: RulesContext, city: str, a: str, b: str, strength: dict[str, int],
             holder: str | None) -> tuple[str, str]:
    """The winner of ``a`` against ``b`` in ``city`` and the sentence saying how (000:2574)."""
    for rnd in range(1, MAX_ROUNDS + 1):
        ra = ctx.dice.d6(f"hostile-garrisons/{city}/{a}/{rnd}")
        rb = ctx.dice.d6(f"hostile-garrisons/{city}/{b}/{rnd}")
        ta, tb = ra + strength[a], rb + strength[b]
        how = f"{a} {ra}+{strength[a]}={ta} against {b} {rb}+{strength[b]}={tb}"
        if ta != tb:
            return (a if ta > tb else b), how
        if holder in (a, b):
            assert holder is not None
            return holder, f"{how}, a tie kept by the holder of the city"
    winner = a if strength[a] > strength[b] or (strength[a] == strength[b] and _order(a) < _order(b)) else b
    return winner, f"{MAX_ROUNDS} ties; the larger garrison (then the power order) wins"


def resolve(state: GameState, ctx: RulesContext, slot_key: str) -> tuple[GameState, list[LogEntry]]:
    """13.5.4 for every city: hostile garrisons fight it out; returns the state and its log lines."""
    lines: list[LogEntry] = []
    by_city = _garrisons_by_city(state)
    for city in sorted(by_city):
        while True:
            here = [g for g in _garrisons_by_city(state).get(city, [])]
            sides = sorted({_side(state, g) for g in here}, key=_order)
            pair = _hostile_pair(state, sides)
            if pair is None:
                break
            a, b = pair
            strength = {s: sum(g.factors.total for g in here if _side(state, g) == s) for s in (a, b)}
            holder_power = relations.power_of(state, control.city_holder(state, ctx.map, city)) \
                or control.city_holder(state, ctx.map, city)
            winner, how = _contest(state, ctx, city, a, b, strength, holder_power if holder_power in (a, b) else None)
            loser = b if winner == a else a
            taken = [g for g in here if _side(state, g) == loser]
            prisoners = state.prisoners
            for g in sorted(taken, key=lambda g: g.id):
                key = prisoners_key(winner, g.nation)
                held = prisoners.get(key) or Prisoners(captor=winner, nation=g.nation)
                prisoners = prisoners.set(key, held.replace(factors=held.factors + g.factors))
                state = state.replace(units=state.units.remove(g.id))
            state = state.replace(prisoners=prisoners)
            text = (f"{a} and {b} are at war with garrisons in {city}: {how}; {winner} wins and captures "
                    f"{', '.join(g.id for g in taken)} ({sum(g.factors.total for g in taken)} factors; 13.5.4)")
            if holder_power == loser:
                state = state.replace(city_control=state.city_control.set(city, CityControl(nation=winner, since=state.date)))
                text += f"; {winner} now holds {city}"
            entry = LogEntry(slot=slot_key, author="game", kind="diplomacy.hostile-garrisons", text=text,
                             params=FrozenMap(sorted({"city": city, "winner": winner, "loser": loser}.items())))
            state = state.with_log(entry)
            lines.append(entry)
    return state, lines


__all__ = ["MAX_ROUNDS", "resolve"]
