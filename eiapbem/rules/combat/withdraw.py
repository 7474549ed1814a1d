"""Lone Cossacks and Freikorps withdrawing before a combat, by standing order (13.2.2, 000:2430).

When an attack is declared (``land.attack``) against an area whose defenders, the units that would
fight there, are all unbesieged Cossack and Freikorps counters (they stand alone in the area), each
of them whose power has given the standing order (``StandingOrders.irregulars_retreat``, set with
``eiapbem land irregular-orders --withdraw``) rolls one die: on 1-4 it withdraws before any combat
into an adjacent land area holding no unbesieged enemy corps; on 5-6, or with nowhere to go, it
stays and is fought as usual (trivial combat, 11.3).  Without the order it always stays.

The manual leaves the area to the player; the program chooses for him, as it does a retreat
(11.2.10, 000:1842): the adjacent area (over a land border, never a crossing arrow, 000:1848) closest
to the nearest depot of the counter's power, or its controlled national capital, ties by area id;
an area of a major power it has no access to (13.4.1) or holding 30 counters outside its city
(10.4.2) is not entered.  Dice: ``irregular-withdrawal/<month>/<area>/<unit>``.
"""

from __future__ import annotations

from typing import Any

from eiapbem.rules import control, engine, relations, supply
from eiapbem.rules.combat.retreat import _distances, retreat_targets
from eiapbem.rules.forces import STACK_LIMIT, counters_in_section
from eiapbem.rules.model import Corps, CorpsType, GameState, Location, LocationKind
from eiapbem.rules.engine import RulesContext

#: 13.2.2 (000:2430): the counter withdraws on this number or less of one die.
WITHDRAW_ON = 4
#: The counters the standing order covers (13.2.2).
RAIDERS = (CorpsType.COSSACK, CorpsType.FREIKORPS)


def alone(state: GameState, defenders: tuple[str, ...] | list[str]) -> bool:
    """Every defender is a Cossack or Freikorps counter (no regular corps or depot garrison with them)."""
    units = [state.units.get(u) for u in defenders]
    return bool(units) and all(isinstance(u, Corps) and u.corps_type in RAIDERS for u in units)


def _blocked(state: GameState, m: Any, area: str, power: str) -> bool:
    """An unbesieged corps at war with ``power`` stands in ``area`` or in its city (13.2.2)."""
    return any(c.factors.total > 0 and relations.at_war(state, power, relations.unit_side(state, c))
               and supply.unit_unbesieged(state, m, c) for c in control.corps_at(state, area))


def destination(state: GameState, m: Any, unit: Corps, power: str) -> str | None:
    """Where ``unit`` withdraws from its area, or None when no adjacent area will take it."""
    here = unit.location.site
    dist = _distances(m, retreat_targets(state, m, (power,)))
    far = len(m.areas) + 1
    options = []
    for a in m.land_neighbours(here):
        owner = control.territory_power(state, m, a)
        if owner is not None and not relations.has_access(state, power, owner) and not relations.at_war(state, power, owner):
            continue
        if _blocked(state, m, a, power) or counters_in_section(state, a) + 1 > STACK_LIMIT:
            continue
        options.append((dist.get(a, far), a))
    return min(options)[1] if options else None


def withdraw_before_combat(state: GameState, ctx: RulesContext, attacker: str, area: str,
                           defenders: tuple[str, ...] | list[str]) -> engine.Outcome:
    """13.2.2: lone Cossacks and Freikorps under the standing order try to slip away before ``attacker`` fights."""
    out = engine.Outcome(state)
    if not alone(state, defenders):
        return out
    for uid in sorted(defenders):
        st = out.state
        unit = st.units[uid]
        assert isinstance(unit, Corps)  # ``alone`` checked it
        power = relations.unit_power(st, unit)
        if power is None or not st.powers[power].standing_orders.irregulars_retreat:
            continue
        die = ctx.dice.d6(f"irregular-withdrawal/{st.date}/{area}/{uid}")
        if die > WITHDRAW_ON:
            out = out.then(engine.log(st, power, "land.irregular-stays",
                                      f"{uid} in {area}, attacked by {attacker}, tries to withdraw: random number {die}, "
                                      f"more than {WITHDRAW_ON}: it stays and fights (13.2.2)", unit=uid, die=die))
            continue
        to = destination(st, ctx.map, unit, power)
        if to is None:
            out = out.then(engine.log(st, power, "land.irregular-stays",
                                      f"{uid} in {area}, attacked by {attacker}: random number {die}, but no adjacent area "
                                      f"free of enemy corps takes it: it stays and fights (13.2.2)", unit=uid, die=die))
            continue
        st = st.with_unit(unit.replace(location=Location(LocationKind.AREA, to)))
        out = out.then(engine.log(st, power, "land.irregular-withdraws",
                                  f"{uid} in {area}, attacked by {attacker}, withdraws to {to} before any combat: random "
                                  f"number {die} (1-{WITHDRAW_ON} withdraws, 13.2.2)", unit=uid, die=die, to=to))
    return out
