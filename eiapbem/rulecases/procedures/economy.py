"""Rules-case procedures of the economic phase (``tests/cases/economy/*.toml``).

``economy.phase`` builds a scenario's first state at an economic month, sets
the facts a case names (wars, trade agreements, occupied cities, blockades,
sieges, political status, money, minors, units), resolves the phase with the
case's orders and forced dice, and flattens the outcome into keys a case can
expect: ``treasury.FR``, ``manpower.PR``, ``status.GB``, ``vp.AU``,
``builds.FR``, ``money.<fund>.<item>``, ``pp.<power>.<item>``, ``victors``,
``sue.<power>``, ``minor.<slug>``, ``unit.<id>``, ``grants.<power>`` (6.16 land still to give; input
``land_grants`` {ally: {territory: asker}}).

It reads the packaged map and world data (``eiapbem.data``), which the rules
core never does; the case harness sits above both.
"""

from __future__ import annotations

from typing import Any

from eiapbem.rulecases.harness import procedure
from eiapbem.core.dice import Dice
from eiapbem.rules.model import (
    POWERS,
    CityControl,
    Corps,
    Date,
    Factors,
    Fleet,
    FleetMission,
    GameState,
    Location,
    LocationKind,
    MinorCountry,
    MinorStatus,
    PeaceTerm,
    Phase,
    PlayerKind,
    Ships,
    Slot,
)
from eiapbem.rules.model.slot import ORDERS


def context(dice: Dice) -> Any:
    from eiapbem.data.context import rules_context

    return rules_context(dice)


def _pool_unit(state: GameState, nation: str, kind: type[Corps] | type[Fleet]) -> str:
    for uid, u in state.units.items():
        if isinstance(u, kind) and u.nation == nation and u.location.kind is LocationKind.POOL \
                and getattr(u, "corps_type", "regular") == "regular":
            return uid
    raise KeyError(f"no {kind.__name__} of {nation} in the pool")


def build_state(inp: dict, ctx: Any) -> GameState:
    """The case's state (see the module docstring)."""
    from eiapbem.rules.scenario import initial_state

    from eiapbem.data import world

    scenario = world.load_scenario(inp.get("scenario", "classic-1805"))
    state = initial_state(scenario, ctx.world)
    date = Date.parse(inp.get("month", "1805-03"))
    state = state.replace(date=date, slot=Slot(Phase.ECONOMIC, ORDERS, None, POWERS))
    opts = inp.get("options", {})
    if opts:
        state = state.replace(options=state.options.replace(**opts))
    for a, b in inp.get("wars", []):
        state = state.with_war(a, b, date, (a,))
    for a, b in inp.get("alliances", []):
        state = state.with_alliance(a, b, date)
    for p, partners in inp.get("trade", {}).items():
        state = state.with_power(p, trade=tuple(sorted(partners)))
    for p, v in inp.get("status", {}).items():
        state = state.with_power(p, political_status=v)
    for p, v in inp.get("treasury", {}).items():
        state = state.with_power(p, treasury=v)
    for p, v in inp.get("manpower", {}).items():
        state = state.with_power(p, manpower=v)
    for p, v in inp.get("vp", {}).items():
        state = state.with_power(p, victory_points=v)
    for p, v in inp.get("controller", {}).items():
        state = state.with_power(p, controller=PlayerKind(v))
    for p, manip in inp.get("manipulation", {}).items():
        state = state.with_power(p, manipulation=manip)
    if inp.get("war_with_america"):
        state = state.with_power("GB", war_with_america=True)
    for p, loans in inp.get("loans", {}).items():
        from eiapbem.rules.model.base import FrozenMap

        state = state.with_power(p, loans=FrozenMap(sorted(loans.items())))
    for p, grants in inp.get("land_grants", {}).items():  # 6.16 "Request Land" granted: {ally: {territory: asker}}
        from eiapbem.rules.model.base import FrozenMap

        state = state.with_power(p, land_grants=FrozenMap(sorted(grants.items())))
    for p, terms in inp.get("peace_terms", {}).items():
        ps = state.powers[p]
        pt = ps.peace_terms
        for t in terms:
            term = PeaceTerm(victor=t["victor"], code=t["code"], since=date, remaining=t.get("remaining"),
                             target=t.get("target"))
            pt = pt.set(term.key, term)
        state = state.with_power(p, peace_terms=pt)
    for slug, row in inp.get("minors", {}).items():
        old = state.minors.get(slug)
        m = MinorCountry(status=MinorStatus(row["status"]), controller=row.get("controller"),
                         districts=old.districts if old else (), part_of=old.part_of if old else None)
        state = state.with_minor(slug, m)
    for prov, holder in inp.get("ceded", {}).items():
        state = state.replace(ceded_provinces=state.ceded_provinces.set(prov, holder))
    for area, nation in inp.get("occupy", {}).items():
        state = state.replace(city_control=state.city_control.set(area, CityControl(nation=nation, since=date)))
    for port, power in inp.get("blockade", {}).items():
        uid = _pool_unit(state, power, Fleet)
        state = state.with_unit(state.units[uid].replace(location=Location(LocationKind.BLOCKADE, port),
                                                         ships=Ships(heavy=1)))
    for area, power in inp.get("besiege", {}).items():
        uid = _pool_unit(state, power, Corps)
        state = state.with_unit(state.units[uid].replace(location=Location(LocationKind.AREA, area), besieging=True))
    for uid, row in inp.get("units", {}).items():
        u = state.units[uid]
        changes: dict[str, Any] = {}
        if "at" in row:
            kind, _, site = row["at"].partition(":")
            changes["location"] = Location(LocationKind(kind), site)
        if "light" in row or "heavy" in row:
            changes["ships"] = Ships(heavy=row.get("heavy", 0), light=row.get("light", 0))
        if "mission" in row:
            changes["mission"] = FleetMission(row["mission"])
            changes["piracy_target"] = row.get("target")
            changes["piracy_months"] = row.get("months", 0)
        state = state.with_unit(u.replace(**changes))
    for row in inp.get("garrisons", []):  # garrisons in cities: {nation, city, infantry}
        from eiapbem.rules.model import Garrison, garrison_id

        where = Location(LocationKind.CITY, row["city"])
        state = state.with_unit(Garrison(id=garrison_id(row["nation"], where), nation=row["nation"], location=where,
                                         factors=Factors(infantry=row["infantry"])))
    for lid, row in inp.get("leaders", {}).items():
        from eiapbem.rules.model import LeaderStatus

        state = state.with_leader(state.leaders[lid].replace(status=LeaderStatus(row["status"])))
    return state


def orders_of(inp: dict) -> dict[str, list]:
    from eiapbem.rules import engine

    out: dict[str, list] = {p: [] for p in POWERS}
    for o in inp.get("orders", []):
        o = dict(o)
        power = o.pop("power")
        kind = o.pop("kind")
        out[power].append(engine.action_kinds()[kind].cls(**o))
    return out


def flatten(before: GameState, after: GameState, lines: list) -> dict[str, Any]:
    res: dict[str, Any] = {"victors": list(after.victors)}
    for p in POWERS:
        ps = after.powers[p]
        res[f"treasury.{p}"] = ps.treasury
        res[f"manpower.{p}"] = ps.manpower
        res[f"status.{p}"] = ps.political_status
        res[f"vp.{p}"] = ps.victory_points
        res[f"sue.{p}"] = ps.must_sue_for_peace
        res[f"builds.{p}"] = sorted(f"{k}x{b.count}" for k, b in ps.builds.items())
        res[f"usa-war.{p}"] = ps.war_with_america
        res[f"manip.{p}"] = ps.manipulation
        res[f"grants.{p}"] = sorted(ps.land_grants)
    for ln in lines:
        if ln.money:
            key = f"money.{ln.fund}.{ln.item}"
            res[key] = res.get(key, 0) + ln.money
        if ln.manpower:
            key = f"men.{ln.fund}.{ln.item}"
            res[key] = res.get(key, 0) + ln.manpower
        if ln.political:
            key = f"pp.{ln.power}.{ln.item}"
            res[key] = res.get(key, 0) + ln.political
        if ln.vp:
            key = f"vpline.{ln.power}.{ln.item}"
            res[key] = res.get(key, 0) + ln.vp
        if ln.detail and not ln.money and not ln.manpower and not ln.political and not ln.vp:
            res[f"note.{ln.power}.{ln.item}"] = ln.detail
    for slug, m in after.minors.items():
        res[f"minor.{slug}"] = f"{m.status}:{m.controller}" + (f":{m.kingdom}" if m.kingdom else "")
    for uid, u in after.units.items():
        if u != before.units.get(uid):
            res[f"unit.{uid}"] = f"{u.location}" + (f":{u.factors.total}" if hasattr(u, "factors") else "") \
                + (f":{u.ships.total}" if isinstance(u, Fleet) else "")
    for prov, holder in after.ceded_provinces.items():
        res[f"ceded.{prov}"] = holder
    return res


@procedure("economy.phase")
def phase_case(inp: dict, dice: Dice) -> dict:
    """Resolve one economic phase from a described state; see the module docstring."""
    from eiapbem.rules.economy.phase import run_steps, with_orders

    ctx = context(dice)
    state = build_state(inp, ctx)
    w = run_steps(with_orders(state, orders_of(inp), ctx), ctx)
    return flatten(state, w.state, w.ledger.lines)
