"""Spanish guerrillas (10.6, 000:1594-1596; 13.2.1, 000:2376-2406).

Guerrilla factors stand in guerrilla counters of Spain (``CorpsType.GUERRILLA``,
one counter per area where they appear, ids ``corps:SP:guerrilla-<area>``), at
most as many factors as Spain's counter mix allows (``counters.json``,
``powers.SP.guerrilla``).

- After a field combat: Spain losing a combat that involved a Spanish corps in an
  unceded Spanish home province gets one guerrilla factor in that area
  (``after_battle``, called when a field combat ends).
- The guerrilla operations check (``end_of_slot``) runs at the end of every land
  slot of a power at war with Spain, after its combats (10.6):

  1. guerrilla check: for every unceded Spanish province holding an unbesieged
     corps or garrison of that power, one die (``guerrilla/<month>/<power>/<province>``);
     each point below the province's guerrilla value places one guerrilla factor in
     the province's first area (by id) holding those forces;
  2. anti-guerrilla operation: in every Spanish province with one or more of the
     power's corps that fought no combat this month and neither are besieged nor
     besiege, one die (``anti-guerrilla/<month>/<power>/<province>``), +1 with two or
     more such corps; higher than the guerrilla value removes every unbesieged
     guerrilla factor of the province.  The operation is always mounted (it can
     only help its power; docs/decisions.md).

- Guerrilla removal: when no enemy factor stands in any unceded Spanish home
  province at a check (and at the end of Spain's own land slot), every guerrilla
  factor leaves the map.
"""

from __future__ import annotations

from typing import Any

from eiapbem.rules import control, engine, relations, supply
from eiapbem.rules.combat.battle import event
from eiapbem.rules.model import POOL, Corps, CorpsType, Factors, FactorType, GameState, Garrison, Location, LocationKind
from eiapbem.rules.engine import RulesContext

SPAIN = "SP"
#: The id of every guerrilla counter begins so (one per area, then numbered); guerrillas are factors, not corps (13.2.1).
PREFIX = f"corps:{SPAIN}:guerrilla-"
#: 13.2.1 (000:2394): +1 to the anti-guerrilla number with two or more corps in the province.
TWO_CORPS_BONUS = 1
_G = FactorType.GUERRILLA


def limit(ctx: RulesContext) -> int:
    """Guerrilla factors Spain may have on the map (its counter mix)."""
    return int(ctx.world["counters.json"]["powers"][SPAIN].get("guerrilla", 0))


def guerrillas(state: GameState) -> list[Corps]:
    return sorted((u for u in state.units.values() if isinstance(u, Corps) and u.corps_type is CorpsType.GUERRILLA
                   and u.location != POOL and u.factors.total > 0), key=lambda u: u.id)


def on_map(state: GameState) -> int:
    return sum(u.factors.guerrilla for u in guerrillas(state))


def spanish_provinces(state: GameState, m: Any) -> list[str]:
    """Unceded Spanish home provinces with a guerrilla value (13.2.1)."""
    return sorted(p.id for p in m.provinces.values()
                  if p.nation == SPAIN and not p.is_minor and control.ceded_to(state, p.id) is None)


def place(state: GameState, ctx: RulesContext, area: str, n: int) -> tuple[GameState, int]:
    """Up to ``n`` guerrilla factors placed in ``area`` (within Spain's counter mix); returns how many."""
    n = min(n, limit(ctx) - on_map(state))
    if n <= 0:
        return state, 0
    here = [u for u in guerrillas(state) if u.location.kind is LocationKind.AREA and u.location.site == area]
    if here:
        u = here[0]
        return state.with_unit(u.replace(factors=u.factors.with_(_G, u.factors.guerrilla + n))), n
    base = f"{PREFIX}{area}"
    uid, i = base, 1
    while uid in state.units and state.units[uid].location != POOL:
        i += 1
        uid = f"{base}-{i}"
    corps = Corps(id=uid, nation=SPAIN, corps_type=CorpsType.GUERRILLA, location=Location(LocationKind.AREA, area),
                  factors=Factors(guerrilla=n))
    return state.with_unit(corps), n



def _enemy_forces(state: GameState, m: Any, power: str, prov: str) -> list[str]:
    """Areas of ``prov`` holding an unbesieged corps or a garrison of ``power`` (not guerrillas)."""
    out = []
    for a in m.areas_of_province(prov):
        for u in state.units.values():
            if u.location.site != a or relations.unit_power(state, u) != power:
                continue
            if isinstance(u, Corps) and u.location.kind is LocationKind.AREA and u.factors.total > 0 \
                    and u.corps_type is not CorpsType.GUERRILLA and supply.unit_unbesieged(state, m, u):
                out.append(a)
                break
            if isinstance(u, Garrison) and u.location.kind is LocationKind.CITY and u.factors.total > 0:
                out.append(a)
                break
    return sorted(set(out))


def _any_enemy_in_spain(state: GameState, m: Any) -> bool:
    provs = set(spanish_provinces(state, m))
    for u in state.units.values():
        if not isinstance(u, (Corps, Garrison)) or u.location.kind not in (LocationKind.AREA, LocationKind.CITY):
            continue
        if u.factors.total == 0 or m.area(u.location.site).province not in provs:
            continue
        owner = relations.unit_power(state, u)
        if owner is not None and owner != SPAIN and relations.at_war(state, owner, SPAIN):
            return True
    return False


def remove_all(state: GameState) -> tuple[GameState, int]:
    n = 0
    for u in guerrillas(state):
        n += u.factors.total
        state = state.with_unit(u.replace(location=POOL, factors=Factors(), besieging=False))
    return state, n


def _fought(state: GameState) -> set[str]:
    prefix = f"battle:{state.date}:"
    out: set[str] = set()
    for bid, b in state.battles.items():
        if bid.startswith(prefix):
            out.update(b.attacker.units)
            out.update(b.defender.units)
    return out


def anti_guerrilla(state: GameState, ctx: RulesContext, power: str, prov: str) -> engine.Outcome:
    m = ctx.map
    fought = _fought(state)
    areas = set(m.areas_of_province(prov))
    corps = [c for c in state.units.values() if isinstance(c, Corps) and c.location.kind is LocationKind.AREA
             and c.location.site in areas and relations.unit_power(state, c) == power and c.factors.total > 0
             and c.corps_type is not CorpsType.GUERRILLA and c.id not in fought and not c.besieging
             and supply.unit_unbesieged(state, m, c)]
    present = [g for g in guerrillas(state) if g.location.site in areas and supply.unit_unbesieged(state, m, g)]
    if not corps or not present:
        return engine.Outcome(state)
    value = m.province(prov).guerrilla
    die = ctx.dice.d6(f"anti-guerrilla/{state.date}/{power}/{prov}")
    bonus = TWO_CORPS_BONUS if len(corps) >= 2 else 0
    cleared = die + bonus > value
    lost = 0
    if cleared:
        for g in present:
            lost += g.factors.total
            state = state.with_unit(g.replace(location=POOL, factors=Factors(), besieging=False))
    text = (f"{power}: anti-guerrilla operation in {prov}: random number {die}{f' +{bonus}' if bonus else ''} against "
            f"guerrilla value {value}: " + (f"{lost} guerrilla factors eliminated" if cleared else "no effect") + " (13.2.1)")
    return engine.log(state, power, "land.anti-guerrilla", text, province=prov, die=die, lost=lost)


def guerrilla_check(state: GameState, ctx: RulesContext, power: str, prov: str) -> engine.Outcome:
    m = ctx.map
    areas = _enemy_forces(state, m, power, prov)
    if not areas:
        return engine.Outcome(state)
    value = m.province(prov).guerrilla
    die = ctx.dice.d6(f"guerrilla/{state.date}/{power}/{prov}")
    want = max(0, value - die)
    state, n = place(state, ctx, areas[0], want)
    text = (f"guerrilla check in {prov}: random number {die} against guerrilla value {value}: "
            + (f"{n} guerrilla factor{'s' if n != 1 else ''} appear in {areas[0]}" if n else "no guerrillas")
            + (f" ({want - n} more than Spain's counters allow)" if n < want else "") + " (13.2.1)")
    return engine.log(state, "game", "land.guerrillas", text, province=prov, die=die, placed=n)


def end_of_slot(state: GameState, power: str, ctx: RulesContext) -> engine.Outcome:
    """The guerrilla operations check at the end of ``power``'s land slot (10.6, 13.2.1)."""
    m = ctx.map
    out = engine.Outcome(state)
    if power != SPAIN and relations.at_war(state, power, SPAIN):
        for prov in spanish_provinces(state, m):
            out = out.then(guerrilla_check(out.state, ctx, power, prov))
        if not out.state.powers[power].standing_orders.decline_anti_guerrilla:  # 13.2.1 "may mount" (000:2392)
            for prov in spanish_provinces(state, m):
                out = out.then(anti_guerrilla(out.state, ctx, power, prov))
    if guerrillas(out.state) and not _any_enemy_in_spain(out.state, m):
        st, n = remove_all(out.state)
        out = out.then(engine.log(st, "game", "land.guerrillas-removed",
                                  f"no enemy stands in Spain: {n} guerrilla factors leave the map (13.2.1)", lost=n))
    return out


def after_battle(state: GameState, battle: Any, ctx: RulesContext) -> tuple[GameState, Any]:
    """13.2.1 (000:2382): Spain lost a field combat with a Spanish corps in an unceded Spanish province:
    one guerrilla factor in that area.  Returns the state and the battle (with an event when placed)."""
    if battle.winner not in ("attacker", "defender"):
        return state, battle
    loser = battle.defender if battle.winner == "attacker" else battle.attacker
    a = ctx.map.area(battle.area)
    if a.nation != SPAIN or control.ceded_to(state, a.province) is not None:
        return state, battle
    spanish = [u for u in loser.units if u.startswith(f"corps:{SPAIN}:") and not u.startswith(PREFIX)]
    if not spanish:
        return state, battle
    state, n = place(state, ctx, battle.area, 1)
    if n:
        battle = event(battle, "battle.guerrilla", f"Spain lost in {battle.area}: one guerrilla factor appears there (13.2.1)")
    return state, battle


__all__ = ["PREFIX", "after_battle", "end_of_slot", "guerrilla_check", "anti_guerrilla", "place", "remove_all"]
