"""What the manual's info boxes show, as lines of text (the Status Panel, the counter pool, 5.2-5.2.1).

- an area: its name, nation and province, terrain, city (supply, siege,
  garrison room), port, who controls it and every unit there;
- a unit: owner, kind, place, factors or ships, leaders with it; a leader's ratings;
- a power: treasury, manpower, political status, victory points, wars,
  alliances, trade, royal marriages, enforced peace and peace terms, forces still to place;
- the pool ("View Available Counters", 5.2.1): counters off the map, leaders
  available, factors and ships not yet placed (and those of free states).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from eiapbem.core.errors import IllegalAction
from eiapbem.core.powers import UNIT_KINDS
from eiapbem.client import fog
from eiapbem.client.showtext import units_lines  # noqa: F401  (re-exported: show units as text)
from eiapbem.rules import control, relations
from eiapbem.rules.model import POOL, POWER_NAMES, Corps, Depot, Fleet, GameState, Garrison, LeaderStatus


def _unit_line(u: Any, state: GameState, viewers: Iterable[str] = ()) -> str:
    leaders = [lid for lid, lead in state.leaders.items() if lead.attached_to == u.id]
    with_ = f" with {', '.join(leaders)}" if leaders else ""
    if isinstance(u, (Corps, Garrison, Fleet)) and fog.hides_strength(state, u, viewers):
        return f"{u.id}: {fog.HIDDEN}{with_}"
    if isinstance(u, (Corps, Garrison)):
        aboard = f" aboard {u.location.site}" if u.location.kind.value == "aboard" else ""
        if isinstance(u, Corps) and u.location.kind.value == "city":
            aboard = " inside the city"
        elif isinstance(u, Corps) and getattr(u, "besieging", False):
            aboard = " besieging the city"
        return f"{u.id}: {u.factors.describe()}{aboard}{with_}"
    if isinstance(u, Fleet):
        return f"{u.id}: {u.ships.describe()} ({u.location.kind}){with_}"
    return f"{u.id}"


def sea(state: GameState, m: Any, sea_id: str) -> list[str]:
    """A sea area (8.4.1): its neighbours, ports, and the fleets in it and in its ports' blockade boxes."""
    s = m.seas[sea_id]
    out = [f"{s.name} ({s.id}), sea area" + (" north of the ice line (closed in winter, 8.4.1)" if s.ice else "")]
    out.append(f"  next to: {', '.join(m.sea_neighbours(s.id))}")
    out.append(f"  ports (their blockade boxes touch it): {', '.join(m.ports_on(s.id)) or 'none'}")
    here = sorted((u for u in state.units.values() if isinstance(u, Fleet) and u.location.kind.value == "sea"
                   and u.location.site == s.id), key=lambda u: u.id)
    out.append("  fleets: none" if not here else "  fleets:")
    for f in here:
        out.append(f"    {_unit_line(f, state)}")
        out.extend(f"      {_unit_line(c, state)}" for c in sorted(state.units.values(), key=lambda u: u.id)
                   if c.location.kind.value == "aboard" and c.location.site == f.id)  # 8.6: carried corps
    for p in m.ports_on(s.id):
        boxed = sorted((u for u in state.units.values() if isinstance(u, Fleet) and u.location.kind.value == "blockade"
                        and u.location.site == p), key=lambda u: u.id)
        if boxed:
            out.append(f"  blockade box of {p}:")
            out.extend(f"    {_unit_line(u, state)}" for u in boxed)
    return out


def box(state: GameState, m: Any, port: str) -> list[str]:
    """A port's blockade box (8.4.2, 8.8): the fleets in it."""
    if port not in m.areas or m.areas[port].port is None:
        raise IllegalAction(f"there is no port {port!r} on the map, so no blockade box box:{port}")
    here = sorted((u for u in state.units.values() if isinstance(u, Fleet) and u.location.kind.value == "blockade"
                   and u.location.site == port), key=lambda u: u.id)
    out = [f"Blockade box of {m.areas[port].name} (box:{port}), touching {', '.join(m.areas[port].port.seas)}"]
    out.append("  fleets: none" if not here else "  fleets:")
    out.extend(f"    {_unit_line(u, state)}" for u in here)
    return out


def area(state: GameState, m: Any, area_id: str, viewers: Iterable[str] = ()) -> list[str]:
    if area_id.startswith("box:"):
        return box(state, m, area_id[4:])
    if area_id not in m.areas and area_id in m.seas:
        return sea(state, m, area_id)
    if area_id not in m.areas:
        close = [a for a in m.areas if a.startswith(area_id[:3])][:8]
        raise IllegalAction(f"there is no land area {area_id!r} on the map", hint=f"areas like it: {', '.join(close)}" if close else None)
    a = m.areas[area_id]
    out = [f"{a.name} ({a.id})", f"  nation {a.nation}, province {a.province}, terrain {a.terrain}, forage {a.forage}"]
    if a.city:
        out.append(f"  city {a.city.name}: supply {a.city.supply}, siege {a.city.siege}, garrison room {a.city.garrison_capacity}"
                   + (f", {a.city.capital} capital" if a.city.capital else ""))
    if a.port:
        out.append(f"  port on {', '.join(a.port.seas)}" + (" (ice)" if a.port.ice else ""))
    holder = control.area_holder(state, m, a.id)
    city_holder = control.city_holder(state, m, a.id) if a.city else holder
    out.append(f"  controlled by {holder}" + (f"; its city held by {city_holder} (13.5.2)" if city_holder != holder else ""))
    # the cheap test first; an emptied garrison (its city fallen or given up) is no unit a player sees
    here = [u for u in state.units.values() if u.location.site == a.id and u.location != POOL
            and not (isinstance(u, Garrison) and not u.factors.total)]
    aboard = [u for f in here if isinstance(f, Fleet) for u in state.units.values()
              if u.location.kind.value == "aboard" and u.location.site == f.id]
    here = here + aboard
    out.append("  units: none" if not here else "  units:")
    out.extend(f"    {_unit_line(u, state, viewers)}" for u in here)
    out.append(f"  next to: {', '.join(m.land_neighbours(a.id))}")
    return out


def leader_ratings(world: Any, leader_id: str) -> dict:
    """A leader's ratings from the world data (13.8): strategic, tactical, tactical maximum, seniority, cavalry."""
    from eiapbem.rules.combat.battle import leader_data

    d = leader_data(world, leader_id)
    return {"strategic": int(d.get("strategic", 0)), "tactical": int(d.get("tactical", 0)),
            "tactical_max": int(d.get("tactical_max", 1)), "seniority": str(d.get("seniority", "D")),
            "cavalry": bool(d.get("cavalry", False))}


def ratings_text(world: Any, leader_id: str) -> str:
    """``leader_ratings`` as a player reads them: 'strategic 4, tactical 4 (-1 over 3 corps), seniority B'."""
    r = leader_ratings(world, leader_id)
    return (f"strategic {r['strategic']}, tactical {r['tactical']} (-1 over {r['tactical_max']} corps, 13.8.7), "
            f"seniority {r['seniority']}" + (", cavalry leader" if r["cavalry"] else ""))


def unit(state: GameState, unit_id: str, viewers: Iterable[str] = (), world: Any = None) -> list[str]:
    """A unit's lines; a leader's with his ratings when ``world`` (the rules data) is given."""
    u = state.units.get(unit_id)
    if u is None:
        lead = state.leaders.get(unit_id)
        if lead is None:
            raise IllegalAction(f"there is no unit or leader {unit_id!r}", hint="'eiapbem show pool' lists your counters")
        out = [f"{lead.id}: {lead.power}, {lead.status}" + (f", with {lead.attached_to}" if lead.attached_to else "")]
        return out + ([f"  ratings: {ratings_text(world, lead.id)}"] if world is not None else [])
    owner = getattr(u, "nation", None) or getattr(u, "power")
    out = [f"{u.id} ({type(u).__name__.lower()} of {owner})", f"  at {u.location}"]
    if isinstance(u, (Corps, Garrison, Fleet)) and fog.hides_strength(state, u, viewers):
        out.append(f"  {fog.HIDDEN}")
    elif isinstance(u, (Corps, Garrison)):
        out.append(f"  factors: {u.factors.describe()} ({u.factors.total})")
    elif isinstance(u, Fleet):
        out.append(f"  ships: {u.ships.describe()}")
    leaders = [lid for lid, lead in state.leaders.items() if lead.attached_to == u.id]
    if leaders:
        out.append(f"  leaders: {', '.join(leaders)}")
    return out


def peace_term_line(t: Any) -> str:
    """A peace term in force (``PeaceTerm``) as a player reads it: its name, for whom, and how long (6.4, 15.0)."""
    from eiapbem.rules.tables.diplomacy import peace_term_title

    bits = [f"for {POWER_NAMES.get(t.victor, t.victor)}"]
    if t.target is not None:
        bits.append(f"no trading with {'America' if t.target == 'america' else 'Great Britain'}")
    if t.until is not None:
        bits.append(f"until {t.until.name}")
    if t.remaining is not None:
        bits.append(f"{t.remaining} economic phase{'s' if t.remaining != 1 else ''} to go")
    return f"{peace_term_title(t.code)} ({', '.join(bits)})"


def trade_text(state: GameState, p: str) -> str:
    """Trade with Great Britain as it stands (6.10, 12.2.1): who trades now, and why a request or a grant does not
    (a war with Britain, no grant, peace term B.5); the standing requests alone are not trade."""
    from eiapbem.rules.economy.collection import trade_allowed

    ps = state.powers[p]
    if p == "GB":
        trading = [q for q in ps.trade if q != "GB" and not trade_allowed(state, q)]
        idle = [q for q in ps.trade if q != "GB" and q not in trading]
        text = f"with {', '.join(trading)}" if trading else "with nobody"
        return text + (f" (allowed, not trading: {', '.join(idle)})" if idle else "")
    why = trade_allowed(state, p)
    if not why:
        return "with Great Britain"
    if "GB" not in ps.trade and p not in state.powers["GB"].trade:
        return "none"
    return f"none: {why}"


def enforced_peace_text(state: GameState, p: str) -> str:
    """The enforced peaces still binding ``p`` (6.4): with whom, and the first month it may declare war again.

    The state keeps the first month allowed (``PowerState.enforced_peace``); a peace whose month has come binds no
    longer and is not listed."""
    bound = [(q, d) for q, d in sorted(state.powers[p].enforced_peace.items()) if state.date < d]
    if not bound:
        return "none"
    return "; ".join(f"no war on {q} before {d.name} (bound through {d.plus(-1).name})" for q, d in bound)


def _enemy_minors(state: GameState, p: str) -> list[str]:
    """The allied minors and free states of the powers ``p`` is at war with, which fight beside them (6.1.3, 6.8)."""
    foes = set(relations.enemies(state, p))
    return [f"{slug} ({row.controller})" for slug, row in sorted(state.minors.items())
            if row.controller in foes and row.part_of is None and row.status in ("allied", "free-state")]


def power(state: GameState, p: str, viewers: Iterable[str] = ()) -> list[str]:
    if p not in state.powers:
        raise IllegalAction(f"{p!r} is not a major power; use one of {' '.join(state.powers)}")
    ps = state.powers[p]
    out = [
        f"{POWER_NAMES[p]} ({p}), played by " + ("a human" if ps.controller == "human" else f"the computer ({ps.controller})"),
        f"  treasury ${ps.treasury}, manpower {ps.manpower}",
        f"  political status {ps.political_status}, victory points {ps.victory_points} (bid {ps.vp_bid})",
        f"  at war with: {', '.join(relations.enemies(state, p)) or 'nobody'}"
        + (f"; minor countries: {', '.join(relations.minor_enemies(state, p))}" if relations.minor_enemies(state, p) else "")
        + (f"; their minors (6.1.3, 6.8): {', '.join(theirs)}" if (theirs := _enemy_minors(state, p)) else ""),
        f"  allied with: {', '.join(relations.allies(state, p)) or 'nobody'}",
        f"  trade (6.10): {trade_text(state, p)}; royal marriages: {', '.join(ps.royal_marriages) or 'none'}",
        f"  enforced peace (6.4): {enforced_peace_text(state, p)}; "
        f"peace terms on it: {'; '.join(peace_term_line(t) for t in ps.peace_terms.values()) or 'none'}",
        f"  controls: {', '.join(m for m, row in state.minors.items() if row.controller == p and row.status in ('conquered', 'free-state')) or 'no minor country'}",
    ]
    if ps.informal_peace:  # 6.4.1: binds nothing, but says who made peace with whom, and when
        out.insert(-1, "  last informal peace (6.4.1): " + "; ".join(f"with {q} in {d.name}" for q, d in ps.informal_peace.items()))
    secret = state.powers[p].standing_orders.insurrection_triggers
    if secret and p in set(viewers):  # 13.2.4 (000:2484): shown to Austria only
        out.append(f"  insurrection trigger provinces (secret, 13.2.4): {', '.join(secret)}")
    if state.insurrection_activated and p == "AU":
        out.append("  the insurrection is activated: its corps may be placed (13.2.4)")
    if p in set(viewers):  # the power's own standing orders for land combat ('eiapbem land battle-orders')
        from eiapbem.rules.combat.orders import summary

        out.append(f"  battle standing orders: {summary(state, p)}")
    corps = [u for u in state.units.values() if isinstance(u, Corps) and u.nation == p and u.location != POOL]
    fleets = [u for u in state.units.values() if isinstance(u, Fleet) and u.nation == p and u.location != POOL]
    if fog.on(state) and p not in fog.friendly(state, viewers):  # 4.1.1 Fog of War: sizes hidden
        out.append(f"  on the map: {len(corps)} corps, {len(fleets)} fleets; {fog.HIDDEN}")
        return out
    out.append(f"  on the map: {len(corps)} corps ({sum(c.factors.total for c in corps)} factors), "
               f"{len(fleets)} fleets ({sum(f.ships.total for f in fleets)} ships)")
    if ps.unplaced_factors.total or ps.unplaced_ships.total:
        out.append(f"  still to place: {ps.unplaced_factors.describe()}; {ps.unplaced_ships.describe()}")
    return out


def pool(state: GameState, p: str) -> list[str]:
    if p not in state.powers:
        raise IllegalAction(f"{p!r} is not a major power; use one of {' '.join(state.powers)}")
    ps = state.powers[p]
    nations = [p, *state.free_states(p)]
    out = [f"Counter pool of {POWER_NAMES[p]} (View Available Counters)"]
    out.append(f"  factors to place: {ps.unplaced_factors.describe()}")
    out.append(f"  ships to place: {ps.unplaced_ships.describe()}")
    for m in nations[1:]:
        row = state.minors[m]
        stored = [c.describe() for c in (row.stored_factors, row.stored_ships) if c.total]
        out.append(f"  {m} (free state) to place: {'; '.join(stored) or 'nothing'}")
    for n in nations:
        units = [u for u in state.units.values() if u.location == POOL and (getattr(u, "nation", None) or getattr(u, "power")) == n]
        corps = [u.id + (f" ({u.corps_type})" if u.corps_type != "regular" else "") + _bought(state, u)
                 for u in units if isinstance(u, Corps)]
        fleets = [u.id + _bought(state, u) for u in units if isinstance(u, Fleet)]
        depots = [u.id for u in units if isinstance(u, Depot)]
        out.append(f"  {n} corps: {', '.join(corps) or 'none'}")
        if fleets:
            out.append(f"  {n} fleets: {', '.join(fleets)}")
        if depots:
            out.append(f"  {n} depots: {', '.join(depots)}")
    leaders = [lid for lid, lead in state.leaders.items() if lead.power == p and lead.status is LeaderStatus.AVAILABLE]
    out.append(f"  leaders available: {', '.join(leaders) or 'none'}")
    # Purchases of the economic phases (12.5.3, 000:2216), by month of arrival: placed in the
    # reinforcement phase of that month (7.1.2, 7.2.2).
    orders = sorted(ps.builds.values(), key=lambda o: (o.arrives, o.nation, o.item, o.port or ""))
    rows = [f"{o.count} {o.item}" + (f" for {o.nation}" if o.nation != p else "") + (f" at {o.port}" if o.port else "")
            + (" due now" if o.arrives <= state.date else f" arriving {o.arrives.name}") for o in orders]
    out.append(f"  on order: {'; '.join(rows) or 'nothing'}")
    return out


def _bought(state: GameState, u: Corps | Fleet) -> str:
    """`` (bought, place by 1805-09)`` for a counter bought in an economic phase (12.5.4, 000:2238)."""
    until = getattr(u, "placeable_until", None)
    if until is None or state.date > until:
        return ""
    return f" (bought, place by {until})"


# ----------------------------------------------------------------- records (--json, docs/json.md) and a power's forces

#: The kinds ``eiapbem show units --kind`` filters on.


def _counts(c: Any) -> dict[str, int]:
    return {k: v for k, v in c.to_obj().items() if v}


def _kind(u: Any) -> str:
    return {Corps: "corps", Fleet: "fleet", Garrison: "garrison", Depot: "depot"}.get(type(u), type(u).__name__.lower())


def _leaders_with(state: GameState, uid: str) -> list[str]:
    return [lid for lid, lead in state.leaders.items() if lead.attached_to == uid]


def unit_record(state: GameState, u: Any) -> dict:
    """One counter: id, kind, owner, where (kind and site), strength and what it holds."""
    rec: dict = {"id": u.id, "kind": _kind(u), "nation": getattr(u, "nation", None) or getattr(u, "power"),
                 "where": str(u.location.kind), "site": u.location.site or None, "strength": 0,
                 "leaders": _leaders_with(state, u.id)}
    if isinstance(u, (Corps, Garrison)):
        rec["strength"] = u.factors.total
        rec["factors"] = _counts(u.factors)
    if isinstance(u, Corps):
        rec["corps_type"] = str(u.corps_type)
    if isinstance(u, Fleet):
        rec["strength"] = u.ships.total
        rec["ships"] = _counts(u.ships)
    return rec


def leader_record(state: GameState, lead: Any) -> dict:
    at = state.units.get(lead.attached_to) if lead.attached_to else None
    return {"id": lead.id, "kind": "leader", "nation": lead.power, "status": str(lead.status), "with": lead.attached_to,
            "where": str(at.location.kind) if at is not None else None, "site": (at.location.site or None) if at is not None else None}


def units(state: GameState, p: str, kind: str | None = None, area_id: str | None = None) -> list[dict]:
    """A power's forces on the map (its own and its free states'), and its leaders: where, how strong.

    ``kind`` is one of ``UNIT_KINDS``; ``area_id`` keeps what is in that land area (its city
    included) or that sea area.  Counters still in the pool are left out ('eiapbem show pool').
    """
    if p not in state.powers:
        raise IllegalAction(f"{p!r} is not a major power; use one of {' '.join(state.powers)}")
    if kind is not None and kind not in UNIT_KINDS:
        raise IllegalAction(f"{kind!r} is not a kind of unit; use one of {', '.join(UNIT_KINDS)}")
    nations = {p, *state.free_states(p)}
    out = []
    if kind != "leader":
        for u in state.units.values():
            owner = getattr(u, "nation", None) or getattr(u, "power")
            if owner not in nations or u.location == POOL or (kind and _kind(u) != kind):
                continue
            if area_id is not None and u.location.site != area_id:
                continue
            out.append(unit_record(state, u))
    if kind in (None, "leader"):
        for lead in state.leaders.values():
            if lead.power not in nations:
                continue
            rec = leader_record(state, lead)
            if area_id is not None and rec["site"] != area_id:
                continue
            if lead.status is LeaderStatus.AVAILABLE or rec["with"] or kind == "leader":
                out.append(rec)
    return sorted(out, key=lambda r: (UNIT_KINDS.index(r["kind"]) if r["kind"] in UNIT_KINDS else 9, r["site"] or "", r["id"]))


def area_record(state: GameState, m: Any, area_id: str) -> dict:
    area(state, m, area_id)  # the same refusal for a name not on the map
    a = m.areas[area_id]
    return {"id": a.id, "name": a.name, "nation": a.nation, "province": a.province, "terrain": str(a.terrain),
            "forage": a.forage,
            "city": None if not a.city else {"name": a.city.name, "supply": a.city.supply, "siege": a.city.siege,
                                             "garrison_room": a.city.garrison_capacity, "capital": a.city.capital or None,
                                             "held_by": control.city_holder(state, m, a.id)},
            "port": None if not a.port else {"seas": list(a.port.seas), "ice": bool(a.port.ice)},
            "controlled_by": control.area_holder(state, m, a.id),  # as the text form (13.3.2 cessions, 13.3.1)
            "units": [unit_record(state, u) for u in state.units.values() if u.location.site == a.id and u.location != POOL],
            "neighbours": list(m.land_neighbours(a.id))}


def unit_or_leader_record(state: GameState, unit_id: str, world: Any = None) -> dict:
    """A unit's record; a leader's with his ``ratings`` when ``world`` (the rules data) is given."""
    unit(state, unit_id)  # the same refusal for an unknown id
    u = state.units.get(unit_id)
    if u is not None:
        return unit_record(state, u)
    rec = leader_record(state, state.leaders[unit_id])
    return rec | {"ratings": leader_ratings(world, unit_id)} if world is not None else rec


def power_record(state: GameState, p: str) -> dict:
    power(state, p)
    ps = state.powers[p]
    corps = [u for u in state.units.values() if isinstance(u, Corps) and u.nation == p and u.location != POOL]
    fleets = [u for u in state.units.values() if isinstance(u, Fleet) and u.nation == p and u.location != POOL]
    return {"power": p, "name": POWER_NAMES[p], "controller": ps.controller, "treasury": ps.treasury,
            "manpower": ps.manpower, "political_status": ps.political_status, "victory_points": ps.victory_points,
            "vp_bid": ps.vp_bid, "wars": list(relations.enemies(state, p)), "alliances": list(relations.allies(state, p)),
            "controls": [m for m, row in state.minors.items() if row.controller == p and row.status in ("conquered", "free-state")],
            "on_map": {"corps": len(corps), "factors": sum(c.factors.total for c in corps), "fleets": len(fleets),
                       "ships": sum(f.ships.total for f in fleets)},
            "to_place": {"factors": _counts(ps.unplaced_factors), "ships": _counts(ps.unplaced_ships)}}


def pool_record(state: GameState, p: str) -> dict:
    pool(state, p)
    ps = state.powers[p]
    nations = [p, *state.free_states(p)]
    counters = {}
    for n in nations:
        us = [u for u in state.units.values() if u.location == POOL and (getattr(u, "nation", None) or getattr(u, "power")) == n]
        counters[n] = {k: [u.id for u in us if _kind(u) == k] for k in ("corps", "fleet", "depot")}
    return {"power": p, "factors_to_place": _counts(ps.unplaced_factors), "ships_to_place": _counts(ps.unplaced_ships),
            "free_states": {m: {"factors": _counts(state.minors[m].stored_factors), "ships": _counts(state.minors[m].stored_ships)}
                            for m in nations[1:]},
            "counters": counters,
            "leaders_available": [lid for lid, lead in state.leaders.items() if lead.power == p and lead.status is LeaderStatus.AVAILABLE],
            "on_order": [{"count": o.count, "item": o.item, "nation": o.nation, "port": o.port, "arrives": str(o.arrives),
                          "due": o.arrives <= state.date} for o in sorted(ps.builds.values(), key=lambda o: (o.arrives, o.nation, o.item, o.port or ""))]}
