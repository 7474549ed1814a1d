"""The ``game.actions`` rules-case procedure: play actions on a scenario's state.

A case of this procedure (``tests/cases/reinforcement/*.toml``) has an
``input`` table::

    scenario = "classic-1805"        # a packaged scenario (ctx.world)
    date = "1805-03"                  # the month to play
    phase = "reinforcement"           # the phase of the slot
    power = "FR"                      # whose slot it is
    wars = [["GB", "SP"]]             # optional: wars to add
    minor_wars = { RU = ["denmark"] }  # optional: wars on neutral minors, declared earlier (6.2.1)
    skips = { PR = { naval = "continuous" } }   # optional: phase skip settings (13.9)
    ceded = { silesia = "AU" }        # optional: ceded provinces (13.3.2)
    kingdoms = { poland = { controller = "PR", provinces = ["masovia"] } }   # optional: kingdoms made (12.8)
    guerrillas = { madrid = 3 }       # optional: Spanish guerrilla factors on the map (13.2.1)
    city_control = { breslau = { nation = "FR", since = "1805-08" } }   # optional: occupations
    garrisons = [{ nation = "FR", city = "vienna", infantry = 3 }]       # optional: garrisons to place
    irregulars_retreat = ["RU"]       # optional: powers whose lone Cossacks/Freikorps withdraw (13.2.2)
    hold_insurrection = true          # optional: Austria holds its insurrection corps off the map (13.2.4)
    alliances = [["RU", "SP"]]        # optional: alliances to add
    access = { AU = { FR = "temporary:1805-09" } }   # optional: access granted (host = { guest = kind[:until] })
    report = ["fleet:SP:1"]           # units and leaders to report
    report_minors = ["norway"]        # minor countries to report (status, controller, districts, part_of)

    [[input.units]]                   # optional edits of units
    id = "fleet:SP:1"
    location = "sea:bay-of-biscay"    # kind:site, or "pool"
    ships = { heavy = 10 }            # or factors = { infantry = 5 }
    loaned_to = "RU"                  # also: besieging, placeable_until = "1805-05"

    [[input.builds]]                  # optional build orders (12.5.3)
    nation = "FR"; item = "infantry"; count = 2; arrives = "1805-03"   # ships add port = "brest"

    [[input.leaders]]                 # optional: leaders on the map
    id = "leader:FR:davout"; attached_to = "corps:FR:III"

    [[input.steps]]                   # what happens, in order
    action = "reinforcement.add-factors"   # an action kind and its fields,
    corps = "corps:FR:III"                 # played by `power` (or the step's own `by`)
    infantry = 2
    # or a rule the phases call: rule = "loans.revert-fleets-on-attack", attacker = "GB", fleets = [...]
    # or rule = "end-slot" (engine.end_slot: obligations, then the phase's finish)
    # or rule = "advance" (sequence.advance), rule = "declare-war", aggressor = "FR", target = "AU"

A simultaneous slot (``power = "all"``, optional ``actors = [...]``) is played
with ``rule = "orders"``, ``by = "FR"``, ``orders = [{action = ...}, ...]`` (one
power's orders, checked by ``engine.check_orders`` against the common start;
refused orders are reported like a refused step) and then ``rule = "resolve"``
(``engine.resolve_slot`` with every power's orders; ``others = "none"`` gives the
powers that sent none empty orders).

The result holds ``steps`` (``"ok"`` or ``"refused"`` per step), ``errors``
(the refusal sentences), ``returned`` (ids a rule step gave back), ``units``
and ``leaders`` (for the ids in ``report``: location, forces, loan), ``prisoners``
(captor:nation = factors), ``city_control`` (area = nation), ``access`` (host = {guest = kind[:until]}), ``returned_factors`` (power = factors to place as reinforcements), ``naval_battles`` (place =
attackers, defenders), ``wars`` (power = enemies), ``builds`` (power = build order keys), ``log``
(the kinds of the log lines added) and ``move_order``.  TOML has no null, so
an absent value is ``""``.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from eiapbem.core.errors import BadData, EiaError
from eiapbem.rules import engine
from eiapbem.rulecases.harness import procedure
from eiapbem.rules.model import (
    POOL,
    POWERS,
    Date,
    FactorType,
    Factors,
    Fleet,
    GameState,
    Leader,
    LeaderStatus,
    Location,
    LocationKind,
    Phase,
    ShipType,
    Ships,
    Slot,
)
from eiapbem.rules.model.base import FrozenMap
from eiapbem.rules.model.powers import BuildOrder
from eiapbem.rules.model.slot import ALL, ORDERS, TURN


def _location(text: str) -> Location:
    if text == "pool":
        return POOL
    kind, site = text.split(":", 1)
    return Location(LocationKind(kind), site)


def _edit_units(state: GameState, rows: list[dict]) -> GameState:
    for row in rows:
        u = state.units[row["id"]]
        changes: dict[str, Any] = {}
        if "location" in row:
            changes["location"] = _location(row["location"])
        if "factors" in row:
            changes["factors"] = Factors(**{k.replace("-", "_"): v for k, v in row["factors"].items()})
        if "ships" in row:
            changes["ships"] = Ships(**row["ships"])
        if "loaned_to" in row:
            changes["loaned_to"] = row["loaned_to"] or None
        if "besieging" in row:
            changes["besieging"] = row["besieging"]
        if "placeable_until" in row:
            changes["placeable_until"] = Date.parse(row["placeable_until"]) if row["placeable_until"] else None
        state = state.with_unit(u.replace(**changes))
    return state


def build_state(inp: dict, ctx: Any) -> GameState:
    """The scenario's first state, moved to the case's slot and edited."""
    from eiapbem.rules.scenario import initial_state

    state = initial_state(ctx.world[f"scenarios/{inp['scenario']}.json"], ctx.world)
    power = inp.get("power", ALL)
    if power == ALL:  # a simultaneous slot (diplomacy, economic): every power, or the case's actors
        slot = Slot(Phase(inp["phase"]), ORDERS, None, tuple(inp.get("actors", POWERS)))
    else:
        slot = Slot(Phase(inp["phase"]), TURN, power, (power,))
    state = state.replace(date=Date.parse(inp["date"]), slot=slot)
    for a, b in inp.get("wars", []):
        state = state.with_war(a, b, state.date, (a,))
    for a, b in inp.get("alliances", []):
        state = state.with_alliance(a, b, state.date)
    for p, slugs in sorted(inp.get("minor_wars", {}).items()):  # wars on neutral minors declared earlier (6.2.1)
        wars_of = state.powers[p].minor_wars
        for slug in slugs:
            wars_of = wars_of.set(slug, state.date)
        state = state.with_power(p, minor_wars=wars_of)
    for host, row in sorted(inp.get("access", {}).items()):  # access granted earlier (13.4.1): kind or "temporary:YYYY-MM"
        from eiapbem.rules.model import Access, AccessKind

        acc = state.powers[host].access
        for guest, text in sorted(row.items()):
            kind, _, until = text.partition(":")
            acc = acc.set(guest, Access(AccessKind(kind), until=Date.parse(until) if until else None))
        state = state.with_power(host, access=acc)
    state = _edit_units(state, inp.get("units", []))
    for slug, row in sorted(inp.get("kingdoms", {}).items()):  # 12.8: a kingdom made earlier, with its provinces
        from eiapbem.rules.model import MinorCountry, MinorStatus

        state = state.replace(minors=FrozenMap(sorted(state.minors.set(slug, MinorCountry(
            status=MinorStatus.FREE_STATE, controller=row["controller"], provinces=tuple(sorted(row["provinces"])))).items())))
    if inp.get("ceded"):  # 13.3.2: home provinces ceded at the start of the case
        state = state.replace(ceded_provinces=FrozenMap(sorted({**state.ceded_provinces, **inp["ceded"]}.items())))
    for area, row in sorted(inp.get("city_control", {}).items()):  # occupations begun earlier (10.7)
        from eiapbem.rules.model import CityControl

        state = state.replace(city_control=state.city_control.set(
            area, CityControl(nation=row["nation"], since=Date.parse(row["since"]))))
    for row in inp.get("garrisons", []):  # garrisons in cities (10.4.3)
        from eiapbem.rules.model import Garrison, garrison_id

        where = Location(LocationKind.CITY, row["city"])
        fs = Factors(**{k: v for k, v in row.items() if k not in ("nation", "city")})
        state = state.with_unit(Garrison(id=garrison_id(row["nation"], where), nation=row["nation"], location=where, factors=fs))
    for p in inp.get("irregulars_retreat", []):  # 13.2.2: the standing order for lone Cossacks and Freikorps
        state = state.with_power(p, standing_orders=state.powers[p].standing_orders.replace(irregulars_retreat=True))
    if inp.get("hold_insurrection"):  # 13.2.4: Austria's standing order keeping its insurrection corps off the map
        au = state.powers["AU"]
        state = state.with_power("AU", standing_orders=au.standing_orders.replace(hold_insurrection=True))
    if inp.get("insurrection_triggers"):  # 13.2.4: Austria's secret trigger provinces, set earlier
        au = state.powers["AU"]
        state = state.with_power("AU", standing_orders=au.standing_orders.replace(
            insurrection_triggers=tuple(sorted(inp["insurrection_triggers"]))))
    for area, n in sorted(inp.get("guerrillas", {}).items()):  # Spanish guerrilla factors on the map (13.2.1)
        from eiapbem.rules.land.guerrillas import place

        state, _ = place(state, ctx, area, n)
    for p, settings in sorted(inp.get("skips", {}).items()):  # 13.9 settings in force
        from eiapbem.rules.model.powers import SkipMode

        state = state.with_power(p, skips=FrozenMap(sorted((Phase(ph), SkipMode(m)) for ph, m in settings.items())))
    for row in inp.get("builds", []):
        order = BuildOrder(nation=row["nation"], item=row["item"], count=row["count"], arrives=Date.parse(row["arrives"]),
                           port=row.get("port") or None)
        from eiapbem.rules.relations import power_of

        owner = power_of(state, order.nation) or order.nation
        ps = state.powers[owner]
        state = state.with_power(owner, builds=ps.builds.set(order.key, order))
    for row in inp.get("leaders", []):
        lead: Leader = state.leaders[row["id"]]
        if row.get("captured_by"):  # a prisoner (13.8.2)
            state = state.with_leader(lead.replace(status=LeaderStatus.CAPTURED, captured_by=row["captured_by"]))
            continue
        state = state.with_leader(lead.replace(status=LeaderStatus.ON_MAP, attached_to=row["attached_to"],
                                               loaned_to=row.get("loaned_to") or None))
    return state


def _action(step: dict) -> Any:
    fields = {k: v for k, v in step.items() if k not in ("action", "by")}
    return engine.action_from_obj({"kind": step["action"], **_defaults(step["action"]), **fields})


def _slot(state: GameState) -> Slot:
    if state.slot is None:
        raise BadData("the scene's game is over: it has no slot in play")
    return state.slot


def _rule(state: GameState, step: dict, ctx: Any, given: dict[str, list]) -> tuple[engine.Outcome, tuple[str, ...]]:
    from eiapbem.rules import loans as orders

    name = step["rule"]
    if name == "end-slot":
        by: Any = step["by"] if "by" in step else _slot(state).power
        return engine.end_slot(state, by, ctx), ()
    if name == "peace":  # the peace step's return of captured leaders (13.8.2)
        from eiapbem.rules.captured import return_at_peace

        s, ids = return_at_peace(state, step["a"], step["b"])
        return engine.Outcome(s), ids
    if name == "advance":  # the sequence moves on to the next slot (13.9 skips, 13.9.1 nullifications)
        from eiapbem.rules.sequence import advance

        return engine.Outcome(advance(state)), ()
    if name == "declare-war":  # a war declared this month (the diplomacy phase's result)
        return engine.Outcome(state.with_war(step["aggressor"], step["target"], state.date, (step["aggressor"],))), ()
    if name == "orders":  # one power's orders for a simultaneous slot, checked against the common start
        actions = [_action(a) for a in step.get("orders", [])]
        engine.check_orders(state, step["by"], actions, ctx)
        given[step["by"]] = actions
        return engine.Outcome(state), ()
    if name == "resolve":  # every actor's orders are in: the phase's resolution, then the next slot
        missing = [p for p in _slot(state).actors if p not in given]
        return engine.resolve_slot(state, {**given, **{p: [] for p in missing if step.get("others", "") == "none"}}, ctx), ()
    if name == "loans.revert-on-entry":
        s, ids = orders.revert_on_entry(state, step["mover"], step["area"])
    elif name == "loans.revert-fleets-on-attack":
        s, ids = orders.revert_fleets_on_attack(state, step["attacker"], tuple(step["fleets"]))
    elif name == "loans.repatriate-attacked-corps":
        s, ids = orders.repatriate_attacked_corps(state, ctx.map, step["attacker"], tuple(step["corps"]))
    else:
        raise KeyError(f"unknown rule step {name!r}")
    return engine.Outcome(s), ids


def _defaults(kind: str) -> dict:
    """The plain form of an action's default field values (a case names only what it sets)."""
    spec = engine.action_kinds().get(kind)
    if spec is None:
        return {}
    return {
        f.name: (f.default.value if hasattr(f.default, "value") else list(f.default) if isinstance(f.default, tuple) else f.default)
        for f in dataclasses.fields(spec.cls)
        if f.default is not dataclasses.MISSING
    }


def _report_unit(u: Any) -> dict:
    out: dict[str, Any] = {"location": str(u.location), "loaned_to": getattr(u, "loaned_to", None) or ""}
    if isinstance(u, Fleet):
        out["ships"] = {t.value: u.ships.get(t) for t in ShipType if u.ships.get(t)}
    elif hasattr(u, "factors"):
        out["factors"] = {t.value: u.factors.get(t) for t in FactorType if u.factors.get(t)}
    if getattr(u, "besieging", False):
        out["besieging"] = True
    return out


@procedure("game.actions", context=True)
def game_actions(inp: dict, ctx: Any) -> dict:
    try:
        state = build_state(inp, ctx)
    except KeyError as err:  # a unit, leader or power the scenario does not have
        from eiapbem.core.errors import BadData

        raise BadData(f"the case's input names {err}, which the scenario's first state does not have",
                      hint="unit ids look like corps:FR:I, leader ids like leader:FR:davout") from err
    first_log = len(state.log)
    steps: list[str] = []
    errors: list[str] = []
    returned: list[str] = []
    given: dict[str, list] = {}
    for step in inp.get("steps", []):
        try:
            if "rule" in step:
                out, ids = _rule(state, step, ctx, given)
                returned.extend(ids)
            else:
                out = engine.apply_action(state, step.get("by", inp["power"]), _action(step), ctx)
            state = out.state
            steps.append("ok")
        except EiaError as err:
            steps.append("refused")
            errors.append(str(err))
    units: dict[str, Any] = {}
    leaders: dict[str, Any] = {}
    for rid in inp.get("report", []):
        if rid.startswith("leader:"):
            lead = state.leaders[rid]
            leaders[rid] = {"status": str(lead.status), "attached_to": lead.attached_to or "", "loaned_to": lead.loaned_to or "",
                            "returns": str(lead.returns) if lead.returns else ""}
        elif rid in state.units:
            units[rid] = _report_unit(state.units[rid])
        else:
            units[rid] = "absent"
    return {
        "steps": steps,
        "errors": errors,
        "returned": returned,
        "units": units,
        "leaders": leaders,
        "log": [e.kind for e in state.log[first_log:]],
        "move_order": {"gb_naval_position": state.move_order.gb_naval_position,
                       "fr_land_position": state.move_order.fr_land_position},
        "slot": state.slot.key(state.date) if state.slot else "",
        "skips": {p: {str(ph): str(m) for ph, m in ps.skips.items()} for p, ps in state.powers.items() if ps.skips},
        "ceded": dict(state.ceded_provinces),
        "political_status": {p: ps.political_status for p, ps in state.powers.items()},
        "treasury": {p: state.powers[p].treasury for p in POWERS},
        "returned_factors": {p: state.powers[p].returned_factors.total for p in POWERS},
        "prisoners": {k: pr.factors.total for k, pr in state.prisoners.items()},
        "city_control": {a: cc.nation for a, cc in state.city_control.items()},
        "naval_battles": {str(b.location): {"attackers": list(b.attackers), "defenders": list(b.defenders)}
                          for b in state.naval_battles.values()},
        "wars": {p: sorted(state.powers[p].wars) for p in POWERS},
        "access": {p: {q: str(a.kind) + (f":{a.until}" if a.until else "") for q, a in state.powers[p].access.items()}
                   for p in POWERS},
        "builds": {p: sorted(state.powers[p].builds) for p in POWERS},
        "minors": {slug: {"status": str(state.minors[slug].status), "controller": state.minors[slug].controller or "",
                          "districts": list(state.minors[slug].districts), "part_of": state.minors[slug].part_of or ""}
                   for slug in inp.get("report_minors", [])},
        "insurrection": {"triggers": list(state.powers["AU"].standing_orders.insurrection_triggers),
                         "activated": state.insurrection_activated},
    }


__all__ = ["build_state", "game_actions"]
