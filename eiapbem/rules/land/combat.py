"""Declaring land combat at the end of movement (11.0-11.1.1; 000:1604-1616).

``land.attack --area X`` starts the field (or trivial, 11.3) combat in the
rural part of X with ``combat.field.start_field_battle``: the attacker is every
corps (not guerrilla) and depot garrison of the phasing power outside the city,
the defender every enemy corps (not guerrilla) and depot garrison there
(11.1, 000:1610: forces inside cities fight only by siege).  The battle then
moves on through pending decisions (``eiapbem answer``).

The phasing power must attack wherever its forces and enemy forces share an
area outside the city (11.1, 000:1610): ``obligations`` names each such area
not yet fought over this month, and the slot cannot end before.  The first
attack ends the power's movement for the slot (11.0, 000:1606), and a combat
must be finished before another begins (11.2, 000:1616).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from eiapbem.core.errors import IllegalAction
from eiapbem.rules import control, engine, relations
from eiapbem.rules.combat.field import start_field_battle
from eiapbem.rules.combat.withdraw import withdraw_before_combat
from eiapbem.rules.forces import the_area
from eiapbem.rules.land.common import field_units, is_enemy
from eiapbem.rules.land.supplyphase import end_movement
from eiapbem.rules.model import Corps, CorpsType, GameState, Garrison, LocationKind, Record
from eiapbem.rules.model.common import Slug
from eiapbem.rules.engine import RulesContext


@dataclass(frozen=True, slots=True)
class Attack(Record):
    """Attack the enemy corps and depot garrisons outside the city of an area (11.1)."""

    KIND = "land.attack"
    COMMAND = "attack"
    BUTTON = ""  # the manual names no button: the program starts each combat itself (11.1)

    area: Slug


def _fights(u: Any) -> bool:
    """Corps (not guerrillas, 000:1610) and depot garrisons with army factors take part in field combat."""
    if isinstance(u, Corps):
        return u.corps_type is not CorpsType.GUERRILLA and u.factors.total > 0
    return isinstance(u, Garrison) and u.factors.total > 0


def attackers(state: GameState, area: str, power: str) -> list[str]:
    return [u.id for u in field_units(state, area) if _fights(u) and relations.unit_power(state, u) == power]


def defenders(state: GameState, area: str, power: str) -> list[str]:
    return [u.id for u in field_units(state, area) if _fights(u) and is_enemy(state, power, u)]


def battles_of(state: GameState, power: str, area: str | None = None) -> list[Any]:
    """The combats ``power`` started in this month's land slot (in ``area``, if given)."""
    prefix = f"battle:{state.date}:" + (f"{area}:" if area else "")
    return [b for k, b in state.battles.items() if k.startswith(prefix) and b.attacker.power == power]


def areas_to_attack(state: GameState, power: str) -> list[str]:
    """Areas where ``power`` must still attack this slot (11.1, 000:1610), by id."""
    areas = sorted({u.location.site for u in state.units.values()
                    if isinstance(u, (Corps, Garrison)) and u.location.kind.value == "area" and _fights(u)
                    and relations.unit_power(state, u) == power})
    return [a for a in areas if defenders(state, a, power) and not battles_of(state, power, a)]


def verify_attack(state: GameState, power: str, action: Attack, ctx: RulesContext) -> None:
    the_area(ctx.map, action.area)
    running = [b for b in battles_of(state, power) if not b.finished]
    if running:
        raise IllegalAction(f"the combat in {running[0].area} is not over; finish it with 'eiapbem answer' before starting "
                            f"another (11.2, 000:1616)")
    if battles_of(state, power, action.area):
        raise IllegalAction(f"{power} has already fought in {action.area} this phase; one combat per area (11.1)")
    if not attackers(state, action.area, power):
        inside = sorted(u.id for u in state.units.values() if isinstance(u, Corps) and _fights(u)
                        and u.location.kind is LocationKind.CITY and u.location.site == action.area
                        and relations.unit_power(state, u) == power)
        if not inside:
            raise IllegalAction(f"{power} has no corps or depot garrison outside the city of {action.area} to attack with "
                                "(11.1, 000:1610)")
        # 11.1 (000:1610): forces inside a city take no part in field combat; the player's corps there was "none".
        if control.is_besieged(state, ctx.map, action.area):
            then = f"its garrison attacks the besiegers with 'eiapbem land garrison-attack --area {action.area}' (11.4.2)"
        elif state.movement_over:
            then = "the combats have begun, so it cannot move out this phase (11.0, 000:1606)"
        else:
            then = (f"move it out to the area first ('eiapbem land move --unit {inside[0]} --path {action.area}': no "
                    "movement points, 10.4.4, 000:1446)")
        raise IllegalAction(f"{', '.join(inside)} {'is' if len(inside) == 1 else 'are'} inside the city of {action.area}, "
                            f"and forces inside a city take no part in field combat (11.1, 000:1610): {then}")
    if not defenders(state, action.area, power):
        raise IllegalAction(f"there are no enemy corps or depot garrisons outside the city of {action.area} to attack "
                            f"(11.1, 000:1610; guerrillas and forces in cities are not attacked in the field)")


def apply_attack(state: GameState, power: str, action: Attack, ctx: RulesContext) -> engine.Outcome:
    from eiapbem.rules.loans import repatriate_attacked_corps

    out = engine.Outcome(state)
    if not state.movement_over:
        # 11.0 (000:1606): combat begins at the end of all movement and supply.
        out = out.then(end_movement(out.state, power, ctx))
        state = out.state
    # 7.6.1 (000:1006): loaned corps attacked by a power not at war with their owner go home first.
    state, back = repatriate_attacked_corps(state, ctx.map, power, tuple(defenders(state, action.area, power)))
    if back:
        out = out.then(engine.log(state, power, "land.loan-ends", f"{', '.join(back)} attacked by {power}, at peace with "
                                  f"their owner: the loan ends and they go home (7.6.1)", units=" ".join(back)))
        state = out.state
    # 13.2.2 (000:2430): lone Cossacks and Freikorps under the standing order may slip away first.
    out = out.then(withdraw_before_combat(state, ctx, power, action.area, defenders(state, action.area, power)))
    state = out.state
    atk = attackers(state, action.area, power)
    dfn = defenders(state, action.area, power)
    if not atk or not dfn:  # supply losses emptied a side, or the irregulars withdrew
        why = "the attackers are gone after supply" if not atk else "the defenders are gone (supply or withdrawal)"
        return out.then(engine.log(state, power, "land.attack", f"{power}: no combat in {action.area}: {why}"))
    moves = [state.land_moves.get(u) for u in atk]
    river = all(m is not None and m.across_river for m in moves)
    return out.then(start_field_battle(state, action.area, atk, dfn, ctx, river_crossing=river, attacker_power=power))


def obligations(state: GameState, power: str, ctx: RulesContext) -> list[str]:
    return [f"attack the enemy in {a} (11.1, 000:1610): 'eiapbem land attack --area {a}'" for a in areas_to_attack(state, power)]


def _attack_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[Attack]:
    yield from (Attack(a) for a in sorted({u.location.site for u in state.units.values()
                                           if isinstance(u, (Corps, Garrison)) and u.location.kind is LocationKind.AREA
                                           and relations.unit_power(state, u) == power}))


ACTIONS = ((Attack, verify_attack, apply_attack, _attack_candidates),)
