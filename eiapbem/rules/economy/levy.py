"""12.9 The levy check (000:2340-2350; 13.2.2-13.2.4, 000:2410-2498).  Step J.

Cossacks and freikorps are placed (from the pool) or removed at the owner's
order; December raises Turkish feudal corps (placed at the owner's order in
their province of origin) and Austrian insurrection corps (automatically).
"""

from __future__ import annotations


from eiapbem.core.errors import IllegalAction
from eiapbem.rules.control import is_besieged, province_holder
from eiapbem.rules.economy.common import Work
from eiapbem.rules.relations import at_war, power_of
from eiapbem.rules.model import POOL, Corps, CorpsType, Date, Factors, GameState, Location, LocationKind
from eiapbem.rules.forces import feudal_province, the_corps
from eiapbem.rules.engine import RulesContext

STEP = "12.9 levy"


def cossack_provinces(ctx: RulesContext) -> tuple[str, ...]:
    """Russia's "(C)" Cossack provinces (13.2.2, 000:2416), as the map marks them."""
    return tuple(sorted(p.id for p in ctx.map.provinces.values() if p.cossack))

#: 13.2.2 (000:2418): first economic phase each freikorps may be placed, and where.
FREIKORPS = {"AU": (Date(1809, 3), "vienna"), "PR": (Date(1813, 3), "berlin")}
#: 13.2.4 (000:2494): an insurrection corps' full strength.
INSURRECTION_FULL = Factors(militia=15, cavalry=3)


def _on_map(u: Corps) -> bool:
    return u.location.kind is not LocationKind.POOL


def enemy_corps_in(state: GameState, ctx: RulesContext, power: str, areas: set[str]) -> bool:
    for u in state.units.values():
        if isinstance(u, Corps) and _on_map(u) and u.location.site in areas \
                and at_war(state, power, power_of(state, u.nation)):
            return True
    return False


def cossack_limit(state: GameState, ctx: RulesContext) -> int:
    """Cossacks allowed on the map: one per Russian-held Cossack province, two while an
    enemy corps is inside Russia (13.2.2)."""
    held = sum(1 for p in cossack_provinces(ctx) if province_holder(state, ctx, p) == "RU")
    russia = set(ctx.map.areas_of_nation("RU"))
    return held * (2 if enemy_corps_in(state, ctx, "RU", russia) else 1)


def feudal_full(ctx: RulesContext, corps_id: str) -> Factors:
    for c in ctx.world["counters.json"]["powers"]["TU"]["corps"]:
        if c["id"] == corps_id:
            return Factors(**{k: v for k, v in c.get("full", c["max"]).items()})
    return Factors()


def check_place(state: GameState, ctx: RulesContext, power: str, corps_id: str, area: str) -> None:
    """One levy placement (13.2.2, 13.2.3)."""
    u = state.units.get(corps_id)
    if not isinstance(u, Corps) or u.nation != power:
        raise IllegalAction(f"{corps_id!r} is not a corps of {power}")
    if not ctx.map.is_area(area):
        raise IllegalAction(f"{area!r} is not a land area")
    prov = ctx.map.area(area).province
    if u.corps_type is CorpsType.COSSACK:
        if _on_map(u):
            raise IllegalAction(f"{corps_id} is already on the map")
        if prov not in cossack_provinces(ctx) or province_holder(state, ctx, prov) != "RU":
            raise IllegalAction(f"cossacks are placed in a Russian-held Cossack province ({', '.join(cossack_provinces(ctx))}), not in {area} (13.2.2)")
    elif u.corps_type is CorpsType.FREIKORPS:
        first, where = FREIKORPS[power]
        if _on_map(u):
            raise IllegalAction(f"{corps_id} is already on the map")
        if state.date < first:
            raise IllegalAction(f"the {power} freikorps is available from the {first.name} economic phase (13.2.2)")
        if area != where:
            raise IllegalAction(f"the {power} freikorps is placed in the {where} area (13.2.2)")
        if province_holder(state, ctx, prov) != power or is_besieged(state, ctx, where):
            raise IllegalAction(f"{where} must be under {power}'s control with its city unbesieged (13.2.2)")
    elif u.corps_type is CorpsType.FEUDAL:
        if state.date.month != 12:
            raise IllegalAction("feudal corps are raised only in the December economic phase (13.2.3)")
        origin = feudal_province(ctx, corps_id)
        if prov != origin:
            raise IllegalAction(f"{corps_id} is raised in its province of origin, {origin} (13.2.3)")
        if province_holder(state, ctx, prov) != "TU":
            raise IllegalAction(f"{origin} is not under Turkish control (13.2.3)")
        if enemy_corps_in(state, ctx, "TU", set(ctx.map.areas_of_province(prov))):
            raise IllegalAction(f"{origin} holds an enemy corps (13.2.3)")
        if _on_map(u) and is_besieged(state, ctx, u.location.site) and u.location.kind is LocationKind.CITY:
            raise IllegalAction(f"{corps_id} is besieged (13.2.3)")
    else:
        raise IllegalAction(f"{corps_id} is not a cossack, freikorps or feudal corps (12.9)")


def check_remove(state: GameState, power: str, corps_id: str) -> None:
    u = state.units.get(corps_id)
    if not isinstance(u, Corps) or u.nation != power or u.corps_type not in (CorpsType.COSSACK, CorpsType.FREIKORPS):
        raise IllegalAction(f"{corps_id!r} is not a cossack or freikorps of {power} (13.2.2)")
    if not _on_map(u):
        raise IllegalAction(f"{corps_id} is not on the map")


def levy(w: Work) -> None:
    for p in ("AU", "PR", "RU", "TU"):
        econ = w.orders(p)
        for cid in econ.levy_remove:
            try:
                check_remove(w.state, p, cid)
            except IllegalAction as err:
                w.note(p, STEP, f"remove {cid}", f"not removed: {err}")
                continue
            w.state = w.state.with_unit(w.state.units[cid].replace(location=POOL, factors=Factors()))
            w.note(p, STEP, f"{cid} removed", "13.2.2")
        for cid, area in econ.levy_place.items():
            try:
                if cid in econ.levy_remove:
                    raise IllegalAction(f"{cid} is removed this phase and may come back only at a later one (13.2.2)")
                check_place(w.state, w.ctx, p, cid, area)
                u = the_corps(w.state, cid)
                if u.corps_type is CorpsType.COSSACK and _count_on_map(w.state, CorpsType.COSSACK) >= cossack_limit(w.state, w.ctx):
                    raise IllegalAction("as many cossacks are on the map as Russia may have (13.2.2)")
            except IllegalAction as err:
                w.note(p, STEP, f"place {cid}", f"not placed: {err}")
                continue
            if u.corps_type is CorpsType.FEUDAL:
                factors = feudal_full(w.ctx, cid)
            elif u.corps_type is CorpsType.COSSACK:
                factors = Factors(cossack=1)
            else:
                factors = Factors(freikorps=1)
            w.state = w.state.with_unit(u.replace(location=Location(LocationKind.AREA, area), factors=factors))
            w.note(p, STEP, f"{cid} placed in {area}", f"{factors.total} factor(s)")
    _excess_cossacks(w)
    if w.date.month == 12:
        _insurrection(w)


def _count_on_map(state: GameState, kind: CorpsType) -> int:
    return sum(1 for u in state.units.values() if isinstance(u, Corps) and u.corps_type is kind and _on_map(u))


def _excess_cossacks(w: Work) -> None:
    """13.2.2: cossacks beyond the limit are removed (the highest ids first)."""
    limit = cossack_limit(w.state, w.ctx)
    on = sorted(u.id for u in w.state.units.values()
                if isinstance(u, Corps) and u.corps_type is CorpsType.COSSACK and _on_map(u))
    for cid in on[limit:][::-1]:
        w.state = w.state.with_unit(w.state.units[cid].replace(location=POOL, factors=Factors()))
        w.note("RU", STEP, f"{cid} removed", f"only {limit} cossack(s) allowed on the map (13.2.2)")


def _insurrection(w: Work) -> None:
    """13.2.4 (000:2494): December raises each insurrection corps to 15 militia and 3 cavalry,
    unless it is besieged or an enemy corps is in its province."""
    for uid, u in sorted(w.state.units.items()):
        if not isinstance(u, Corps) or u.corps_type is not CorpsType.INSURRECTION or u.factors == INSURRECTION_FULL:
            continue
        if _on_map(u):
            prov = w.ctx.map.area(u.location.site).province if w.ctx.map.is_area(u.location.site) else None
            if u.location.kind is LocationKind.CITY and is_besieged(w.state, w.ctx, u.location.site):
                w.note("AU", STEP, f"{uid} not raised", "besieged")
                continue
            if prov and enemy_corps_in(w.state, w.ctx, "AU", set(w.ctx.map.areas_of_province(prov))):
                w.note("AU", STEP, f"{uid} not raised", "an enemy corps is in its province")
                continue
        w.state = w.state.with_unit(u.replace(factors=INSURRECTION_FULL))
        w.note("AU", STEP, f"{uid} raised to full strength", "15 militia, 3 cavalry")
