"""The scenario editor's items (14.3, 14.4; 000:2756-2818) applied to the first state.

``initial_state`` (``eiapbem.rules.scenario``) builds the state from the
shipped schema; ``apply`` then honours what a scenario file made with
``eiapbem scenario`` adds.  A pure function of the scenario's data, the world
data and the options.  What the state cannot carry is listed in
docs/decisions.md ("Scenario editor"): the natural alliance stances (item 10)
and a unit's ratings, maxima, movement and home provinces live in the world
data the rules read: ratings, maxima and movement are played through
``GameState.world_edits`` (``rules.world_edits``), the stances and a feudal corps' home province too,
and the counter mix or leader chart entry of a unit created in the editor.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from eiapbem.core.errors import BadData
from eiapbem.rules import world_edits
from eiapbem.rules.model import (
    POOL,
    Corps,
    CorpsType,
    Date,
    Factors,
    Fleet,
    GameState,
    Leader,
    LeaderStatus,
    Ships,
)
from eiapbem.rules.model.base import FrozenMap
from eiapbem.rules.model.common import FactorType
from eiapbem.rules.model.powers import Access, AccessKind
from eiapbem.rules.model.units import Depot, Garrison, Location, LocationKind, garrison_id
from eiapbem.rules.tables.economy import VICTORY_LEVELS

_ACCESS = {"voluntary": AccessKind.VOLUNTARY, "forced": AccessKind.ENFORCED, "temporary": AccessKind.TEMPORARY}
#: 13.4.1 (000:2552): temporary access lasts three land phases.
TEMPORARY_MONTHS = 3
_ATTRIBUTE = {"normal": CorpsType.REGULAR, "feudal": CorpsType.FEUDAL, "cossack": CorpsType.COSSACK,
              "freikorps": CorpsType.FREIKORPS, "insurrection": CorpsType.INSURRECTION, "tyrol": CorpsType.TYROL}
_FACTOR_TYPE = {"infantry": FactorType.INFANTRY, "guard": FactorType.GUARD, "cavalry": FactorType.CAVALRY,
                "cossack": FactorType.COSSACK, "militia": FactorType.MILITIA}


def chart_level(start_year: int, power: str) -> int:
    """The victory level of the chart (003:80-120) for a campaign starting in ``start_year``."""
    for name, levels in VICTORY_LEVELS.items():
        first, last = name.split("-")
        if int(first) <= start_year <= int(last):
            return levels[power]
    return VICTORY_LEVELS["1805-1815"][power]


def _factors(d: Mapping[str, int]) -> Factors:
    return Factors(**{k: v for k, v in d.items() if k in Factors.__dataclass_fields__ and v})


def _ships(d: Mapping[str, int]) -> Ships:
    return Ships(**{k: v for k, v in d.items() if k in Ships.__dataclass_fields__ and v})


def apply(state: GameState, scenario: Mapping[str, Any], options: Any) -> GameState:
    """The first state with the editor's items of ``scenario`` honoured (no-op for the shipped scenarios)."""
    start = state.start
    for p, row in sorted(scenario["powers"].items()):
        changes: dict[str, Any] = {}
        if "vp" in row:
            changes["victory_points"] = row["vp"]
        vic = row.get("victory")
        if vic:
            # 14.3 item 2: the threshold used is the one for the game's economic manipulation option.
            level = vic.get("with_em" if options.economic_manipulation else "without_em")
            if level is not None:
                extra = level - chart_level(start.year, p)
                if extra < 0:
                    raise BadData(f"the scenario's victory threshold {level} for {p} is below the chart's "
                                  f"{chart_level(start.year, p)}; eiapbem cannot lower a victory level yet")
                changes["vp_bid"] = state.powers[p].vp_bid + extra
        for prov, holder in sorted(row.get("conquered", {}).items()):
            state = state.replace(ceded_provinces=FrozenMap(sorted({**state.ceded_provinces, prov: holder}.items())))
        if changes:
            state = state.with_power(p, **changes)
        if row.get("morale"):
            morale = FrozenMap(sorted((_FACTOR_TYPE[k], v) for k, v in row["morale"].items() if k in _FACTOR_TYPE))
            for u in list(state.units.values()):
                if isinstance(u, Corps) and u.nation == p:
                    state = state.with_unit(u.replace(morale=morale))
    state = _relations(state, scenario.get("relations", {}), start)
    for mid, m in sorted(scenario["minors"].items()):
        if "morale" in m:
            morale = FrozenMap(sorted((t, m["morale"]) for t in (FactorType.INFANTRY, FactorType.CAVALRY)))
            for u in list(state.units.values()):
                if isinstance(u, Corps) and u.nation == mid:
                    state = state.with_unit(u.replace(morale=morale))
        for p in m.get("at_war_with", []):
            wars = dict(state.powers[p].minor_wars)
            wars[mid] = start
            state = state.with_power(p, minor_wars=FrozenMap(sorted(wars.items())))
    for u in scenario.get("units", []):
        state = _unit(state, u)
    for g in scenario.get("garrisons", []):
        loc = Location(LocationKind.CITY, g["city"])
        state = state.with_unit(Garrison(id=garrison_id(g["nation"], loc), nation=g["nation"], location=loc,
                                         factors=_factors(g["factors"])))
    if scenario.get("provinces"):
        control = {**state.area_control, **scenario["provinces"]}
        state = state.replace(area_control=FrozenMap(sorted(control.items())))
    edits = world_edits.edits_of(scenario)  # 14.3 "Units": ratings, maxima, movement played
    if edits:
        state = state.replace(world_edits=edits)
    return state


def _relations(state: GameState, rel: Mapping[str, Any], start: Date) -> GameState:
    for a, b in sorted(tuple(r) for r in rel.get("alliances", [])):
        state = state.with_alliance(a, b, start)
    for a, b, months in sorted(tuple(r) for r in rel.get("alliance_restrictions", [])):
        # 6.5.1 keeps a broken alliance from being re-formed for 12 months; a restriction of
        # ``months`` is written as a break dated so that it ends ``months`` after the start.
        powers = state.powers
        for x, y in ((a, b), (b, a)):
            broken = {**powers[x].alliances_broken, y: start.plus(months - 12)}
            powers = powers.set(x, powers[x].replace(alliances_broken=FrozenMap(sorted(broken.items()))))
        state = state.replace(powers=powers)
    for a, b, months in sorted(tuple(r) for r in rel.get("enforced_peace", [])):
        # 14.3 item 9: ``b`` may not declare war on ``a`` for ``months`` months.
        peace = {**state.powers[b].enforced_peace, a: start.plus(months)}
        state = state.with_power(b, enforced_peace=FrozenMap(sorted(peace.items())))
    for grantor, grantee, kind in sorted(tuple(r) for r in rel.get("access", [])):
        access = dict(state.powers[grantor].access)
        if kind == "none":
            access.pop(grantee, None)
        else:
            until = start.plus(TEMPORARY_MONTHS - 1) if kind == "temporary" else None
            access[grantee] = Access(kind=_ACCESS[kind], until=until)
        state = state.with_power(grantor, access=FrozenMap(sorted(access.items())))
    return state


def _unit(state: GameState, u: Mapping[str, Any]) -> GameState:
    uid, owner, kind, place = u["id"], u["owner"], u["type"], u.get("place", "ready")
    if kind == "leader":
        lid = uid if uid.startswith("leader:") else f"leader:{owner}:{uid}"
        status = {"out": LeaderStatus.UNAVAILABLE}.get(place, LeaderStatus.AVAILABLE)
        if place == "map":
            return state.with_leader(Leader(id=lid, power=owner, status=LeaderStatus.ON_MAP, attached_to=u["with"]))
        return state.with_leader(Leader(id=lid, power=owner, status=status))
    if place == "out":
        return state.without_unit(uid) if uid in state.units else state
    on_map = place == "map"
    if kind == "depot":
        loc = Location(LocationKind.AREA, u["area"]) if on_map else POOL
        return state.with_unit(Depot(id=uid, power=owner, location=loc))
    if kind in ("heavy", "light", "transport"):
        old = state.units.get(uid)
        loc = POOL
        if on_map:
            loc = Location(LocationKind.SEA if u.get("at") == "sea" else LocationKind.PORT, u["area"])
        fleet = old if isinstance(old, Fleet) else Fleet(id=uid, nation=owner, location=POOL)
        return state.with_unit(fleet.replace(location=loc, ships=_ships(u.get("factors", {})) if on_map else Ships()))
    old = state.units.get(uid)
    ctype = _ATTRIBUTE[u.get("attribute", "normal")]
    corps = old if isinstance(old, Corps) else Corps(id=uid, nation=owner, corps_type=ctype, location=POOL)
    loc = Location(LocationKind.AREA, u["area"]) if on_map else POOL
    factors = _factors(u.get("factors", {})) if on_map or ctype in (CorpsType.FEUDAL, CorpsType.INSURRECTION) else Factors()
    return state.with_unit(corps.replace(corps_type=ctype, location=loc, factors=factors))


__all__ = ["apply", "chart_level"]
