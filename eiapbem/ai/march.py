"""Forced marches of the computer (10.4.1, 000:1372-1374; 10.5.1, 000:1488 and 000:1506; issue 19 item 1).

A corps may forced march: one movement point more (not Cossacks, Freikorps, guerrillas, cavalry corps or a
corps landing from ships), and it must then forage with +1 to the die, whatever depots it has.  The computer
(levels with ``forced_march``, medium and hard) forced marches only where the one point decides something this
slot, before its land plan (``eiapbem.ai.land``) moves the rest:

1. **its capital in time**: a national capital the enemy can reach in its next land slot (enemy field strength
   within ``moves.LOCAL`` movement points more than the power's and its allies' forces standing there): corps
   that cannot reach it this slot at their normal allowance but can with the extra point march into it (into
   the city if no one holds it), nearest first, until the forces there balance the threat;
2. **a battle at the odds**: an enemy stack outside a city (in winter only in the power's own territory, as
   the land plan) that the power's corps arriving this slot at their normal allowance do not beat by the
   level's ``attack_odds``, but do with the corps that arrive only by forced march: all of them march in (the
   land plan then attacks it, 11.1); one such battle a slot, the best odds first.

**The attrition roll** (10.5.1): after the moves, for every forced-marching corps the forage loss is reckoned
over the six faces of the die with the rules' own modifiers (``supplyphase.forage_modifiers``: other corps in
the area, unused points, the forced march, winter, own territory) against the lowest forage value it passed.
The marches are kept only if no corps could lose every factor (a 6) and each corps' expected loss (the losses
of the six faces summed, over six) is at most the level's ``forced_march`` percent of its factors; else they
are undone, action and state.  Every move goes through ``Builder.try_`` (the engine's checks).
"""

from __future__ import annotations

from typing import Any

import eiapbem.ai.assess as assess
import eiapbem.ai.moves as moves
from eiapbem.rules import supply
from eiapbem.rules.land.depots import own_territory
from eiapbem.rules.land.movement import MoveUnit, allowance, counter_kind
from eiapbem.rules.land.supplyphase import forage_modifiers
from eiapbem.rules.model import Corps, LandMove, LocationKind
from eiapbem.rules.tables import forces

#: The faces of the forage die (10.5.1: a random number between 1 and 6).
FACES = range(1, 7)


def may_force(b: Any, corps: Corps) -> bool:
    """The rules let ``corps`` forced march now (10.4.1: not its kind, not halted or landed)."""
    rec = b.state.land_moves.get(corps.id)
    return forces.may_force_march(counter_kind(b.ctx, corps)) and (rec is None or not (rec.halted or rec.foraged))


def forage_sixths(b: Any, corps_id: str) -> tuple[int, int]:
    """(the losses of the six faces of the forage die summed, the loss of a 6) for the corps where it stands now."""
    st, m = b.state, b.ctx.map
    c = st.units[corps_id]
    rec = st.land_moves.get(corps_id) or LandMove(start=c.location.site)
    fv = min(m.area(a).forage for a in (rec.passed or (c.location.site,)))
    mods = sum(v for _, v in forage_modifiers(st, b.ctx, b.power, c))
    return sum(max(0, r + mods - fv) for r in FACES), max(0, 6 + mods - fv)


def _bearable(b: Any, lvl: Any, forced: list[str]) -> bool:
    for cid in forced:
        c = b.state.units.get(cid)
        if not isinstance(c, Corps) or c.location.kind not in (LocationKind.AREA, LocationKind.CITY):
            return False
        total, worst = forage_sixths(b, cid)
        if total * 100 > lvl.forced_march * 6 * c.factors.total or worst >= c.factors.total:
            return False
    return True


def _go(b: Any, lvl: Any, moves: list[tuple[Corps, list[str], bool, bool]]) -> bool:
    """Make ``moves`` (corps, areas, forced, into the city); all or nothing, and only if the attrition is bearable."""
    before = b.state, list(b.actions), b.events
    for c, legs, forced, city in moves:
        if not b.try_(MoveUnit(unit=c.id, path=",".join(legs), forced_march=forced, city=city)):
            b.state, b.actions, b.events = before
            return False
    if _bearable(b, lvl, [c.id for c, _, forced, _ in moves if forced]):
        return True
    b.state, b.actions, b.events = before
    return False


def plan(b: Any, lvl: Any) -> None:
    """Forced marches of ``b.power``'s land slot (before the land plan)."""
    if not lvl.forced_march or not assess.at_war_anywhere(b.state, b.power) or b.state.movement_over:
        return
    capitals(b, lvl)
    strike(b, lvl)


def capitals(b: Any, lvl: Any) -> None:
    """1. Corps forced march into a capital the enemy can reach in its next slot."""
    ctx, power = b.ctx, b.power
    for cap in assess.capitals(ctx, power):
        if not lvl.defend_capital or b.state.movement_over:
            return
        threat = assess.enemy_forces_near(b.state, ctx, cap, power, moves.LOCAL)
        here = assess.forces_in(b.state, ctx, cap, power)
        if threat <= here.own + here.friends:
            continue
        need = threat - here.own - here.friends
        near = sorted((d, c.id) for c in moves.movers(b) if c.location.site != cap and may_force(b, c)
                      and (d := assess.distance(ctx, c.location.site, cap)) is not None and d <= moves.LOCAL + 1)
        for _, cid in near:
            if need <= 0:
                break
            c = b.state.units[cid]
            path = moves.route(b, c, cap)
            if not path or moves.reach(b, c, path)[-1:] == [cap]:
                continue  # it arrives anyway (the land plan sends it) or cannot get there
            legs = moves.reach(b, c, path, forced=True)
            if legs[-1:] != [cap]:
                continue
            empty = not moves.own_inside(b, cap) and cap not in moves.stops(b.state, power)
            if _go(b, lvl, [(c, legs, True, empty)]):
                need -= assess.factor_strength(b.state, ctx, c)


def strike(b: Any, lvl: Any) -> None:
    """2. One battle a slot that only the forced marchers make worth fighting at the level's odds."""
    st, ctx, power, m = b.state, b.ctx, b.power, b.ctx.map
    winter = st.date.month in supply.WINTER_MONTHS
    best: tuple[int, str, list] | None = None
    movers = moves.movers(b)
    for area in sorted({c.location.site for c in assess.enemy_field_corps(st, power)}):
        if winter and not own_territory(st, m, area, power):
            continue
        field = moves.field_enemy(b, area)
        if not field:
            continue
        plain: list[tuple[Corps, list[str], bool, bool]] = []
        extra: list[tuple[Corps, list[str], bool, bool]] = []
        for c in movers:
            if c.location.site == area:
                continue
            d = assess.distance(ctx, c.location.site, area)
            if d is None or d > allowance(st, ctx, c) + forces.FORCED_MARCH_BONUS + 2:
                continue  # a cheap bound before the route (river and crossing costs come on top)
            path = moves.route(b, c, area)
            if not path:
                continue
            if moves.reach(b, c, path)[-1:] == [area]:
                plain.append((c, list(path), False, False))
            elif may_force(b, c) and (legs := moves.reach(b, c, path, forced=True))[-1:] == [area]:
                extra.append((c, legs, True, False))
        if not extra:
            continue
        there = [c.id for c in assess.army_units(st, power) if c.location.kind is LocationKind.AREA and c.location.site == area]
        ids = there + [c.id for c, *_ in plain]
        if ids and assess.odds(assess.force_strength(st, ctx, ids), field) >= lvl.attack_odds:
            continue  # the land plan wins this one without a forced march
        group = plain + extra
        got = assess.odds(assess.force_strength(st, ctx, ids + [c.id for c, *_ in extra]), field)
        if got >= lvl.attack_odds and (best is None or got > best[0]):
            best = (got, area, group)
    if best is not None:
        _go(b, lvl, best[2])


__all__ = ["FACES", "capitals", "forage_sixths", "may_force", "plan", "strike"]
