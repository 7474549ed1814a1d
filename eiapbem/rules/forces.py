"""The phase-neutral forces kernel: units, counters, capacities, ownership and factor transfers.

What setup, reinforcement, land and economy share about forces, written once
(issue 14 item 4; phases never import each other):

- lookups that refuse with one sentence naming the unit (``the_unit``,
  ``the_corps``, ``the_fleet``, ``the_leader``, ``the_area``, ``army_unit``,
  ``garrison_target``);
- the counter mix (``counter_max``, ``corps_capacity``, ``fleet_capacity``,
  ``feudal_province``) and the limits on counters, stacks and garrisons, each
  refused in one sentence (``check_holds``, ``check_room``, ``check_garrison_factors``, ``check_garrison_room``;
  ``STACK_LIMIT``, ``counters_in_section``, ``garrison_capacity``, ``city_garrison_total``,
  ``fits``, ``covers``);
- the battle, naval combat or siege a pending decision belongs to (``decision_subject``);
- ownership (``check_nation``, ``own_unit``, ``own_on_map``, ``on_map``);
- factor transfers between corps and garrisons in one area (7.2.3, 10.4.3:
  ``check_transfer``, ``move_factors``, ``removed_log``, and the candidates ``transfer_candidates``);
- a minor's forces leaving the map, its fleets stored (6.6.1, 13.3.1: ``remove_minor_forces``).

Pure functions of the state, the map and the world data.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from typing import Any

from eiapbem.core.errors import IllegalAction, quoted
from eiapbem.rules import candidates, control, engine, relations, supply
from eiapbem.rules.model import (
    POOL,
    Corps,
    CorpsType,
    Depot,
    FactorType,
    Factors,
    Fleet,
    GameState,
    Garrison,
    Leader,
    LeaderStatus,
    Location,
    LocationKind,
    ShipType,
    Ships,
    garrison_id,
)
from eiapbem.rules.engine import RulesContext


#: Army factor types a build order delivers (12.5.3; 7.2.2, 000:930).
ARMY_ITEMS: tuple[FactorType, ...] = (
    FactorType.INFANTRY, FactorType.MILITIA, FactorType.CAVALRY, FactorType.GUARD, FactorType.ARTILLERY,
)

#: Garrison factors are regular infantry and militia (10.4.3, 000:1424).
GARRISON_ITEMS: tuple[FactorType, ...] = (FactorType.INFANTRY, FactorType.MILITIA)

#: Counters whose factors may not be exchanged (7.2.3, 000:956) and that get no
#: reinforcements in this phase (7.2.2, 000:934).
NO_REINFORCEMENT = (CorpsType.FEUDAL, CorpsType.INSURRECTION)

#: 13.2: Cossacks, Freikorps and guerrillas: not corps for the stop rule (10.4.2, 000:1398); they may not
#: detach or absorb factors (10.4.3, 000:1426).
IRREGULAR = (CorpsType.COSSACK, CorpsType.FREIKORPS, CorpsType.GUERRILLA)

#: 10.4.2 (000:1404), 10.4.3 (000:1410): at most 30 counters in a section of an area or city.
STACK_LIMIT = 30


def outside_home(m: Any, corps: Corps, area: str) -> str | None:
    """Why ``corps`` may not stand in the land area ``area``, or None: a guerrilla never leaves Spain's home nation
    (13.2.1, 000:2402); an insurrection corps stays in its home nation's provinces, ceded ones too (13.2.4, 000:2482)."""
    nation = m.area(area).nation
    if corps.corps_type is CorpsType.GUERRILLA and nation != "SP":
        return f"{corps.id} is a guerrilla and never leaves Spain's home nation (13.2.1, 000:2402); {area} is outside it"
    if corps.corps_type is CorpsType.INSURRECTION and nation != corps.nation:
        return (f"{corps.id} is an insurrection corps and moves only within its home nation's provinces (13.2.4, "
                f"000:2482); {area} is outside them")
    return None


def retreated(m: Any, corps: Corps, path: tuple[str, ...]) -> Corps:
    """``corps`` at the end of its retreat ``path`` (11.2.10); an insurrection corps compelled to retreat out of its
    home nation's provinces stands down at once instead, keeping its factors (13.2.4, 000:2482)."""
    if corps.corps_type is CorpsType.INSURRECTION and any(outside_home(m, corps, a) for a in path):
        return corps.replace(location=POOL, besieging=False)
    return corps.replace(location=Location(LocationKind.AREA, path[-1]), besieging=False)


# ----------------------------------------------------------------- lookups


def the_unit(state: GameState, unit_id: str) -> Any:
    u = state.units.get(unit_id)
    if u is None:
        raise IllegalAction(f"there is no unit {unit_id!r}", hint="corps ids look like corps:FR:III; 'eiapbem show units' lists them")
    return u


def the_corps(state: GameState, corps_id: str) -> Corps:
    u = state.units.get(corps_id)
    if not isinstance(u, Corps):
        raise IllegalAction(f"there is no corps {corps_id!r}", hint="corps ids look like corps:FR:III")
    return u


def the_fleet(state: GameState, fleet_id: str) -> Fleet:
    u = state.units.get(fleet_id)
    if not isinstance(u, Fleet):
        raise IllegalAction(f"there is no fleet {fleet_id!r}", hint="fleet ids look like fleet:GB:1")
    return u


def the_leader(state: GameState, leader_id: str) -> Leader:
    lead = state.leaders.get(leader_id)
    if lead is None:
        raise IllegalAction(f"there is no leader {leader_id!r}", hint="leader ids look like leader:FR:davout")
    return lead


def the_area(m: Any, area: str) -> Any:
    """The land area ``area`` of the map ``m``, refused in one sentence if there is none."""
    if not isinstance(area, str) or not m.is_area(area):
        raise IllegalAction(f"there is no land area {quoted(area)} on the map",
                            hint="areas are named by slug, like paris; 'eiapbem show area NAME' lists areas")
    return m.area(area)


def decision_subject(records: Mapping[str, Any], decision: Any, key: str, what: str, over: Callable[[Any], bool]) -> Any:
    """The record (a field battle, naval combat or siege) a pending decision's ``context[key]`` names, while
    ``over(record)`` is false, or refuse in one sentence: the one lookup for every battle's answers."""
    rid = decision.context.get(key)
    rec = records.get(rid) if isinstance(rid, str) else None
    if rec is None or over(rec):
        raise IllegalAction(f"decision {decision.id} belongs to no {what} in progress")
    return rec


def army_unit(state: GameState, uid: str) -> Corps | Garrison | None:
    u = state.units.get(uid)
    return u if isinstance(u, (Corps, Garrison)) else None


def the_army_unit(state: GameState, uid: str) -> Corps | Garrison:
    """The corps or garrison ``uid``, refused in one sentence if there is none."""
    u = army_unit(state, uid)
    if u is None:
        raise IllegalAction(f"there is no corps or garrison {uid!r}")
    return u


def the_transfer_target(state: GameState, uid: str) -> Corps | Garrison:
    """The corps or garrison factors go to: an existing one, or a new garrison named by its id."""
    u = army_unit(state, uid) or garrison_target(state, uid)
    if u is None:
        raise IllegalAction(f"there is no corps or garrison {uid!r}", hint="a new garrison is named like garrison:FR:city:paris")
    return u


def garrison_target(state: GameState, uid: str) -> Garrison | None:
    """An existing garrison, or a new one named by its id ``garrison:NATION:city|area:AREA``."""
    u = state.units.get(uid)
    if isinstance(u, Garrison):
        return u
    parts = uid.split(":")
    if len(parts) == 4 and parts[0] == "garrison" and parts[2] in ("city", "area") and uid not in state.units:
        try:
            return Garrison(id=uid, nation=parts[1], location=Location(LocationKind(parts[2]), parts[3]))
        except Exception:  # noqa: BLE001 - a malformed id is refused below
            return None
    return None


# ----------------------------------------------------------------- counters and capacities


def factors_from(obj: Any) -> Factors:
    """The army factors named by an action's ``infantry … artillery`` fields."""
    return Factors(**{t.value: getattr(obj, t.value, 0) for t in ARMY_ITEMS})


def ships_from(obj: Any) -> Ships:
    return Ships(heavy=obj.heavy, light=obj.light, transport=obj.transport)


def _counts(x: Factors | Ships) -> dict[str, int]:
    if isinstance(x, Ships):
        return {k.value: x.get(k) for k in ShipType}
    return {k.value: x.get(k) for k in FactorType}


def fits(have: Factors | Ships, cap: Factors | Ships) -> list[str]:
    """The types where ``have`` exceeds ``cap``, as ``infantry 16 > 15``."""
    h, c = _counts(have), _counts(cap)
    return [f"{k} {h[k]} > {c.get(k, 0)}" for k in h if h[k] > c.get(k, 0)]


def covers(a: Factors | Ships, b: Factors | Ships) -> bool:
    """``a`` holds at least ``b`` of every type."""
    ha, hb = _counts(a), _counts(b)
    return all(ha[k] >= hb.get(k, 0) for k in ha)


def counter_entry(world: Mapping[str, Any], unit_id: str) -> Mapping[str, Any]:
    """The counter mix's entry for counter ``unit_id`` (its ``kind``, ``max``...; empty if not in the mix)."""
    owner = unit_id.split(":")[1]
    data = world.get("counters.json", {})
    block = data.get("powers", {}).get(owner) or data.get("minors", {}).get(owner) or {}
    for c in list(block.get("corps", [])) + list(block.get("fleets", [])):
        if c["id"] == unit_id:
            return c
    return {}


def counter_max(world: Mapping[str, Any], unit_id: str) -> Mapping[str, int]:
    """The counter mix's most factors or ships of each type for counter ``unit_id`` (empty if not in the mix)."""
    return counter_entry(world, unit_id).get("max", {})


def corps_capacity(ctx: RulesContext, corps: Corps) -> Factors:
    """The most factors of each type the counter holds (counter mix data; 7.2.2 "full strength")."""
    return Factors(**{k.replace("-", "_"): v for k, v in counter_max(ctx.world, corps.id).items()})


def fleet_capacity(ctx: RulesContext, fleet: Fleet) -> Ships:
    """The most ships of each type the fleet counter holds (7.1.2 "ship capacity")."""
    return Ships(**counter_max(ctx.world, fleet.id))


def feudal_province(ctx: RulesContext, corps_id: str) -> str | None:
    for c in ctx.world["counters.json"]["powers"]["TU"]["corps"]:
        if c["id"] == corps_id:
            return c.get("province")
    return None


def check_holds(ctx: RulesContext, unit: Corps | Fleet, more: Factors | Ships) -> None:
    """Raise unless ``unit`` holds ``more`` within its counter's capacity (the counter mix; 7.1.2, 7.2.2, 7.2.3)."""
    if isinstance(unit, Fleet):
        assert isinstance(more, Ships)
        over = fits(unit.ships + more, fleet_capacity(ctx, unit))
        why = "the fleet counter's ship capacity, 7.1.2, 000:912"
    else:
        assert isinstance(more, Factors)
        over = fits(unit.factors + more, corps_capacity(ctx, unit))
        why = "the corps counter's full strength, 7.2.2, 000:930"
    if over:
        raise IllegalAction(f"{unit.id} cannot hold {more.describe()} more: {', '.join(over)} ({why})")


def counters_in_section(state: GameState, area: str, *, besieging: bool = False) -> int:
    """Counters in the rural ("Rural" or "Besieging Rural") section of ``area`` (10.4.2, 000:1404)."""
    n = 0
    for u in control.units_at(state, area):
        if u.location.kind is not LocationKind.AREA:
            continue
        if isinstance(u, Corps):
            n += 1 if u.besieging == besieging else 0
        elif isinstance(u, (Garrison, Depot)) and not besieging:
            n += 1
    return n


def check_room(state: GameState, where: Location) -> None:
    """Raise unless one more counter fits at ``where``: 30 in a city, 30 in an area's rural section (10.4.2, 10.4.3)."""
    if where.kind is LocationKind.CITY:
        n = sum(1 for u in control.units_at(state, where.site) if u.location == where)
        if n + 1 > STACK_LIMIT:
            raise IllegalAction(f"the city of {where.site} already holds {n} counters; {STACK_LIMIT} is the limit (10.4.3, 000:1410)")
    elif where.kind is LocationKind.AREA:
        n = counters_in_section(state, where.site)
        if n + 1 > STACK_LIMIT:
            raise IllegalAction(f"{where.site} already holds {n} counters outside its city; {STACK_LIMIT} is the limit (10.4.2, 000:1404)")


def check_garrison_factors(more: Factors) -> None:
    """Raise unless ``more`` are factors a garrison holds: infantry and militia (10.4.3, 000:1424)."""
    extra = [t.value for t in FactorType if more.get(t) and t not in GARRISON_ITEMS]
    if extra:
        raise IllegalAction(f"garrisons hold only infantry and militia, not {', '.join(extra)} (10.4.3, 000:1424)")


def check_garrison_room(state: GameState, m: Any, area: str, more: Factors) -> None:
    """Raise unless ``more`` may join the garrison of the city of ``area``: infantry and militia only, at most
    five factors per supply value of the city (10.4.3, 000:1420-1424)."""
    check_garrison_factors(more)
    cap = garrison_capacity(state, m, area)
    have = city_garrison_total(state, area)
    if have + more.total > cap:
        raise IllegalAction(f"the city of {area} holds at most {cap} garrison factors (5 per supply value, 10.4.3); "
                            f"it has {have}, so {more.total} more do not fit")


def garrison_capacity(state: GameState, m: Any, area: str) -> int:
    """10.4.3: a city holds five garrison factors per supply value."""
    city = m.area(area).city
    return city.garrison_capacity if city is not None else 0


def city_garrison_total(state: GameState, area: str) -> int:
    return sum(
        u.factors.total for u in state.units.values()
        if isinstance(u, Garrison) and u.location.kind is LocationKind.CITY and u.location.site == area
    )


# ----------------------------------------------------------------- ownership


def own_nation(state: GameState, power: str, nation: str) -> bool:
    """``power`` places, sets up and buys ``nation``'s forces: its own, or a minor free state's it runs (5.3.1, 7.2)."""
    return nation == power or nation in state.free_states(power)


def check_nation(state: GameState, power: str, nation: str) -> None:
    """``nation`` is ``power`` itself or one of its minor free states."""
    if not own_nation(state, power, nation):
        raise IllegalAction(
            f"{power} places only its own forces and those of its minor free states, not {nation}'s (7.2, 000:930-936)"
        )


def on_map(unit: Corps | Fleet | Garrison) -> bool:
    return unit.location.kind is not LocationKind.POOL


def own_unit(state: GameState, power: str, unit: Corps | Fleet, what: str) -> None:
    """``unit`` belongs to ``power`` or one of its free states and is not loaned out (7.6)."""
    if relations.power_of(state, unit.nation) != power or unit.nation not in (power,) + state.free_states(power):
        raise IllegalAction(f"{unit.id} is not {power}'s to {what}")
    if unit.loaned_to is not None:
        raise IllegalAction(f"{unit.id} is loaned to {unit.loaned_to} this month (7.6, 000:1002); {power} cannot {what} it")


def own_on_map(state: GameState, power: str, unit: Any, what: str) -> None:
    """``unit`` is moved by ``power`` this month (its own, a free state's, or loaned to it) and is on the map."""
    if relations.unit_power(state, unit) != power:
        owner = relations.unit_power(state, unit) or unit.nation
        raise IllegalAction(f"{unit.id} is {owner}'s, not {power}'s, so {power} cannot {what} it (10.4, 000:1356)")
    if unit.location.kind not in (LocationKind.AREA, LocationKind.CITY):
        raise IllegalAction(f"{unit.id} is at {unit.location}, not on a land area of the map, so it cannot {what}")


# ----------------------------------------------------------------- factor transfers (7.2.3, 10.4.3)


def _area_of(unit: Corps | Garrison) -> str:
    return unit.location.site


def _check_side(state: GameState, ctx: RulesContext, power: str, u: Corps | Garrison) -> None:
    m = ctx.map
    if isinstance(u, Corps):
        if u.location.kind not in (LocationKind.AREA, LocationKind.CITY):
            raise IllegalAction(f"{u.id} is not on a land area of the map")
        own_unit(state, power, u, "exchange factors with")
        if u.corps_type in NO_REINFORCEMENT:
            raise IllegalAction(f"{u.id} is a {u.corps_type} corps: its factors may not be exchanged (7.2.3, 000:956)")
        if u.corps_type in IRREGULAR:
            raise IllegalAction(f"{u.id} is a {u.corps_type} counter: it may not detach or absorb factors (10.4.3, 000:1426)")
    else:
        check_nation(state, power, u.nation)
    if not supply.unit_unbesieged(state, m, u):
        raise IllegalAction(f"{u.id} is besieged in {u.location.site}; only unbesieged units exchange factors (7.2.3, 000:956)")


def check_transfer(state: GameState, ctx: RulesContext, power: str, source_id: str, target: Corps | Garrison, f: Factors) -> None:
    """Raise unless ``f`` may move from ``source_id`` to ``target`` (7.2.3, 000:956; 10.4.3)."""
    m = ctx.map
    source = army_unit(state, source_id)
    if source is None:
        raise IllegalAction(f"there is no corps or garrison {source_id!r}")
    if source.id == target.id:
        raise IllegalAction("a unit cannot exchange factors with itself")
    if f.total == 0:
        raise IllegalAction("name at least one factor to transfer")
    _check_side(state, ctx, power, source)
    _check_side(state, ctx, power, target)
    if source.nation != target.nation:
        raise IllegalAction(
            f"{source.id} and {target.id} are of different nations ({source.nation}, {target.nation}); they may not exchange factors (7.2.3, 000:956)"
        )
    if _area_of(source) != _area_of(target):
        raise IllegalAction(f"{source.id} is in {_area_of(source)} and {target.id} in {_area_of(target)}; only units in the same area exchange factors (7.2.3)")
    if f.artillery:
        raise IllegalAction("artillery factors may not be exchanged (7.2.3, 000:956)")
    if not all(source.factors.get(t) >= f.get(t) for t in FactorType):
        raise IllegalAction(f"{source.id} has {source.factors.describe()}, not {f.describe()}")
    garrison = source if isinstance(source, Garrison) else target if isinstance(target, Garrison) else None
    if garrison is not None:
        check_garrison_factors(f)
        if garrison.location.kind is LocationKind.AREA:
            if garrison.nation != power:
                raise IllegalAction(f"{garrison.nation} is a minor country: its forces may not garrison depots (10.4.3, 000:1420)")
            if not any(isinstance(u, Depot) and u.power == power and u.location == garrison.location for u in state.units.values()):
                raise IllegalAction(f"there is no depot of {power} in {garrison.location.site} for a garrison to stand at (10.4.3)")
        elif m.area(garrison.location.site).city is None:
            raise IllegalAction(f"{garrison.location.site} has no city to garrison")
        if supply.enemy_corps_in(state, garrison.location.site, power, outside_city=True):
            raise IllegalAction(
                f"an enemy corps stands outside the city in {garrison.location.site}: infantry and militia may not be detached "
                f"to or absorbed from a garrison there (10.4.3, 000:1414)"
            )
        if target is garrison and garrison.location.kind is LocationKind.CITY:
            check_garrison_room(state, m, garrison.location.site, f)
    if isinstance(target, Corps):
        check_holds(ctx, target, f)
    if isinstance(source, Corps) and (source.factors - f).total == 0:
        led = [lid for lid, lead in state.leaders.items() if lead.attached_to == source.id]
        if led:
            raise IllegalAction(
                f"moving every factor out of {source.id} would remove the counter while {', '.join(led)} leads it; "
                f"assign the leader to another corps or retire him first (7.2.4, 7.4)"
            )
        if any(u.location.kind is LocationKind.ABOARD and u.location.site == source.id for u in state.units.values()):
            raise IllegalAction(f"{source.id} cannot be emptied")


def move_factors(state: GameState, source_id: str, target_id: str, f: Factors) -> tuple[GameState, str | None]:
    """Move ``f`` from one unit to another; an emptied corps goes back to the pool, an emptied garrison is removed."""
    source = army_unit(state, source_id)
    target = army_unit(state, target_id) or garrison_target(state, target_id)
    assert source is not None and target is not None
    left = (source.factors - f)
    removed = None
    if left.total == 0:
        removed = source.id
        if isinstance(source, Corps):
            # 7.2.4 (000:962): an emptied corps leaves the map and must be bought again.
            state = state.with_unit(source.replace(location=POOL, factors=Factors(), besieging=False, placeable_until=None))
        else:
            state = state.without_unit(source.id)
    else:
        state = state.with_unit(source.replace(factors=left))
    state = state.with_unit(target.replace(factors=target.factors + f))
    return state, removed


def transfer_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[tuple[str, str, dict[str, int]]]:
    """Candidate exchanges of factors in one area (7.2.3, 10.4.3) as ``(source, target, amounts)``: between the
    power's corps and garrisons of one nation there, and into a new garrison of the area's city or of its depot.
    The phase's ``verify`` keeps the legal ones (``check_transfer`` and the phase's own limits)."""
    groups: dict[tuple[str, str], list[Corps | Garrison]] = {}
    for _, u in sorted(state.units.items()):
        if isinstance(u, (Corps, Garrison)) and own_nation(state, power, u.nation) \
                and u.location.kind in (LocationKind.AREA, LocationKind.CITY):
            groups.setdefault((u.nation, u.location.site), []).append(u)
    fields = tuple(f for f in candidates.ARMY_FIELDS if f != "artillery")  # artillery is never exchanged (7.2.3)
    for (nation, area), units in sorted(groups.items()):
        targets: list[Corps | Garrison] = list(units)
        for kind in (LocationKind.CITY, LocationKind.AREA):
            gid = garrison_id(nation, Location(kind, area))
            if gid not in state.units:
                targets.append(Garrison(id=gid, nation=nation, location=Location(kind, area)))
        for source in units:
            for target in targets:
                if target.id == source.id:
                    continue
                fit = candidates.room(corps_capacity(ctx, target), target.factors) if isinstance(target, Corps) else None
                for chosen in candidates.counts(source.factors.to_obj(), fields, fit):
                    yield source.id, target.id, chosen


def removed_log(state: GameState, power: str, removed: str | None) -> engine.Outcome:
    if removed is None:
        return engine.Outcome(state)
    what = "returns to the counter pool (7.2.4)" if removed.startswith("corps:") else "is removed (7.2.4)"
    return engine.log(state, power, "reinforcement.removed", f"{removed} is empty and {what}", unit=removed)


# ----------------------------------------------------------------- a minor's forces leave the map


def remove_minor_forces(state: GameState, nations: tuple[str, ...] | list[str]) -> GameState:
    """The forces of the minors ``nations`` leave the map when the minor is conquered, changes hands or becomes
    neutral (6.6.1, 000:794; 13.3.1, 000:2528; 6.4 "Status of Ceded Minor Free States", 000:744): land forces are
    eliminated (corps to the pool empty, their leaders available again; garrisons gone); each fleet goes to the pool
    and its ships are stored on its minor (``MinorCountry.stored_ships``), set up again at their strength when the
    minor is next a free state (6.8, 000:848; 7.3).  Depots belong to powers and are not touched."""
    for uid in sorted(state.units):
        u = state.units[uid]
        if isinstance(u, Depot) or u.nation not in nations:
            continue
        if isinstance(u, Garrison):
            state = state.without_unit(uid)
        elif u.location != POOL and isinstance(u, Corps):
            state = state.with_unit(u.replace(location=POOL, factors=Factors(), besieging=False, loaned_to=None))
            for lid, lead in sorted(state.leaders.items()):
                if lead.attached_to == uid:
                    state = state.with_leader(lead.replace(status=LeaderStatus.AVAILABLE, attached_to=None, loaned_to=None))
        elif isinstance(u, Fleet) and (u.location != POOL or u.ships.total):
            minor = state.minors.get(u.nation)
            if minor is not None:
                state = state.with_minor(u.nation, minor.replace(stored_ships=minor.stored_ships + u.ships))
            for uid2, v in sorted(state.units.items()):  # what it carries leaves with it
                if v.location == Location(LocationKind.ABOARD, uid):
                    state = state.with_unit(v.replace(location=POOL, factors=Factors(), besieging=False)
                                            if isinstance(v, Corps) else v.replace(location=POOL))
            state = state.with_unit(u.replace(location=POOL, ships=Ships(), loaned_to=None))
    return state
