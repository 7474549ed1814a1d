"""12.7 cessions between allies (000:2256-2272), phase-neutral: the economic phase cedes by order (step H,
``economy/ceding.py``) and carries out the land a computer ally granted in the diplomacy phase (6.16 "Request
Land", ``diplomacy/minor_orders.py`` checks a request with ``check_cession``)."""

from __future__ import annotations


from eiapbem.core.errors import IllegalAction
from eiapbem.rules.control import HOLDING_STATUSES as CONTROLLED
from eiapbem.rules.relations import allied, at_war, power_of
from eiapbem.rules.model import POWERS, Corps, Fleet, GameState, LocationKind, MinorStatus
from eiapbem.rules.engine import RulesContext


def territory_areas(state: GameState, ctx: RulesContext, territory: str) -> tuple[str, ...]:
    """The land areas of a minor country (with its joined districts and kingdom parts) or a province."""
    if territory in state.minors:
        m = state.minors[territory]
        nations = {territory, *m.districts}
        provs = set(m.provinces)
        out = [a for n in sorted(nations) for a in ctx.map.areas_of_nation(n)]
        out += [a for p in sorted(provs) for a in ctx.map.areas_of_province(p)]
        return tuple(sorted(set(out)))
    return ctx.map.areas_of_province(territory)


def check_cession(state: GameState, ctx: RulesContext, power: str, territory: str, to: str) -> None:
    """12.7's conditions on one cession; the one-per-phase limit is checked by the action."""
    if to == power or to not in POWERS:
        raise IllegalAction(f"{to!r} is not another major power to cede to")
    if not allied(state, power, to):
        raise IllegalAction(f"{power} may cede territory only to an ally; {to} is not one (12.7)")
    if territory in state.minors:
        m = state.minors[territory]
        if m.part_of is not None:
            raise IllegalAction(f"{territory} is a district of {m.part_of}; cede {m.part_of} itself")
        if m.kingdom is not None:
            raise IllegalAction(f"{territory} is part of the kingdom {m.kingdom}; cede the kingdom or its parts after it ends (12.8)")
        if m.status not in CONTROLLED or m.controller != power:
            raise IllegalAction(f"{power} does not control the minor country {territory}")
    elif territory in ctx.map.provinces:
        prov = ctx.map.province(territory)
        if state.ceded_provinces.get(territory) != power:
            if prov.nation == power:
                raise IllegalAction(f"{prov.name} is an unceded home province; it can only be ceded by a peace settlement (12.7)")
            raise IllegalAction(f"{prov.name} is not a province ceded to {power}")
    else:
        raise IllegalAction(f"{territory!r} is neither a minor country nor a province")
    areas = set(territory_areas(state, ctx, territory))
    for u in state.units.values():
        if not isinstance(u, (Corps, Fleet)) or u.location.kind is LocationKind.POOL:
            continue
        owner = power_of(state, u.nation)
        if u.location.site in areas and owner != to and at_war(state, power, owner):
            raise IllegalAction(f"{territory} holds forces of {owner}, at war with {power}; it cannot be ceded now (12.7)")


#: 12.8.2 (000:2298, 000:2314): Poland, a kingdom whose capital is Masovia's, conquered only by holding it.
POLAND = "poland"
POLAND_CAPITAL = "masovia"


def transfer(state: GameState, ctx: RulesContext, territory: str, giver: str, to: str) -> GameState:
    """Change control of a territory (12.7): a free state becomes a conquered minor of its new
    controller; a ceded province ceded back home becomes unceded; Poland passes as a unit."""
    if territory in state.minors:
        m = state.minors[territory]
        if m.provinces:  # a kingdom (Poland) passes as a unit; its provinces become ceded/unceded
            for prov in m.provinces:
                state = _cede_province(state, ctx, prov, to)
            for slug, part in state.minors.items():
                if part.kingdom == territory:
                    state = state.with_minor(slug, part.replace(kingdom=None, controller=to, status=MinorStatus.CONQUERED))
            return state.replace(minors=state.minors.remove(territory))
        status = MinorStatus.CONQUERED
        state = state.with_minor(territory, m.replace(controller=to, status=status))
        areas = territory_areas(state, ctx, territory)
        ac = state.area_control
        for a in areas:
            if ac.get(a) == giver:
                ac = ac.set(a, to)
        return state.replace(area_control=ac)
    return _cede_province(state, ctx, territory, to)


def _cede_province(state: GameState, ctx: RulesContext, prov: str, to: str) -> GameState:
    home = ctx.map.province(prov).nation
    ceded = state.ceded_provinces.remove(prov) if to == home else state.ceded_provinces.set(prov, to)
    ac = state.area_control
    for a in ctx.map.areas_of_province(prov):
        if a in ac:
            ac = ac.remove(a) if to == home else ac.set(a, to)
    return state.replace(ceded_provinces=ceded, area_control=ac)


__all__ = ["check_cession", "territory_areas", "transfer"]
