"""Rules-case procedure ``naval.phase``: a naval (or land) slot played from movement through the engine
(``tests/cases/naval/``; issue 17).

Input: the scene (``eiapbem.rulecases.scene``), and the keys listed in ``_phase_case``.
"""

from __future__ import annotations

import re

from eiapbem.rulecases.harness import procedure
from eiapbem.rulecases.inputs import need
from eiapbem.rulecases.scene import answer_all, location, powers_changed, scene_state, waiting_for
from eiapbem.rules.model.common import Date, Phase


@procedure("naval.phase", context=True)
def _phase_case(inp: dict, ctx) -> dict:
    """A naval slot played from movement: the scene, standing orders, then ``actions`` in order.

    Extra input: ``intercept`` (fleets with standing orders to intercept), ``evasion``
    ({fleet: order}), ``access`` ([[owner, grantee], ...]), ``city_control`` ({area: nation taken this month, or
    {nation, since}}),
    ``actions`` (tables with ``kind`` and the action's fields, and ``power`` if not the
    phasing power's), ``answers`` ({decision id without "naval:": choice}), ``end_slot``.
    A refused action is reported under ``refused`` by its index and play goes on.
    """
    from eiapbem.core.errors import IllegalAction
    from eiapbem.rules import engine
    from eiapbem.rules.model import Access, AccessKind, CityControl, FrozenMap
    from eiapbem.rules.model.units import Corps, Depot, Fleet

    state = scene_state(inp, phase=Phase(need(inp, "phase", str, "naval")))
    phasing = need(inp, "phasing", str)
    for power in state.powers:
        mine = [f for f in need(inp, "intercept", list, []) if f.split(":")[1] == power]
        ev = {f: o for f, o in need(inp, "evasion", dict, {}).items() if f.split(":")[1] == power}
        if mine or ev:
            ps = state.powers[power]
            so = ps.standing_orders.replace(intercept=tuple(sorted(mine)), evasion=FrozenMap(sorted(ev.items())))
            state = state.replace(powers=state.powers.set(power, ps.replace(standing_orders=so)))
    for owner, grantee in need(inp, "access", list, []):
        ps = state.powers[owner]
        state = state.replace(powers=state.powers.set(owner, ps.replace(access=ps.access.set(grantee, Access(AccessKind.VOLUNTARY)))))
    for raw in need(inp, "depots", list, []):
        did = need(raw, "id", str)
        state = state.with_unit(Depot(id=did, power=did.split(":")[1], location=location(need(raw, "location", str), "depots.location")))
    for uid, borrower in need(inp, "loans", dict, {}).items():
        state = state.with_unit(state.units[uid].replace(loaned_to=borrower))
    for power, money in need(inp, "treasury", dict, {}).items():
        state = state.with_power(power, treasury=money)
    opts = need(inp, "options", dict, {})
    if opts:
        state = state.replace(options=state.options.replace(**opts))
    for area, held in need(inp, "city_control", dict, {}).items():  # "FR" (taken this month) or {nation, since}
        nation, since = (held, state.date) if isinstance(held, str) else (held["nation"], Date.parse(held["since"]))
        state = state.replace(city_control=state.city_control.set(area, CityControl(nation, since)))
    before = state
    refused: dict[str, str] = {}
    messages: dict[str, str] = {}
    asked: list[str] = []
    answers = need(inp, "answers", dict, {})
    for i, raw in enumerate(need(inp, "actions", list, [])):
        raw = dict(raw)
        power = raw.pop("power", phasing)
        action = engine.action_kinds()[raw.pop("kind")].cls(**raw)
        try:
            state = engine.apply_action(state, power, action, ctx).state
        except IllegalAction as err:
            cited = re.search(r"\((\d+(?:\.\d+)*)", str(err))
            refused[str(i)] = cited.group(1) if cited else str(err)
            messages[str(i)] = str(err)
        state = answer_all(state, "naval:", answers, ctx, asked)
    obligations: list[str] = []
    if need(inp, "end_slot", bool, False):
        try:
            state = engine.end_slot(state, phasing, ctx).state
        except IllegalAction as err:
            obligations.append(str(err))
    else:
        obligations = list(engine.unmet_obligations(state, phasing, ctx))
    fleets = {u.id: u for u in state.units.values() if isinstance(u, Fleet)}
    return {
        "fleets_at": {f: str(u.location) for f, u in fleets.items()},
        "ships_left": {f: u.ships.heavy + u.ships.light for f, u in fleets.items()},
        "corps_at": {u.id: str(u.location) for u in state.units.values() if isinstance(u, Corps)},
        "depots_at": {u.id: str(u.location) for u in state.units.values() if isinstance(u, Depot)},
        "treasury": {p: ps.treasury for p, ps in state.powers.items()},
        "wars": sorted(f"{p}-{q}" for p, ps in state.powers.items() for q in ps.wars if p < q),
        "spent": {f: r.spent for f, r in state.naval_moves.items()},
        "refused": refused,
        "messages": messages,
        "battles": {bid: {"victor": b.victor or "none", "outcome": b.outcome, "interception": b.interception,
                          "attackers": list(b.attackers), "defenders": list(b.defenders),
                          "losses": dict(b.losses), "step": b.step, "retreating": list(b.retreating),
                          "harbour_losses": b.harbour_losses, "wind_gauge": b.wind_gauge or "none"}
                    for bid, b in state.naval_battles.items()},
        "political_status": powers_changed(before, state),
        "decisions": asked,
        "waiting_for": waiting_for(state, "naval:"),
        "obligations": obligations,
        "log": [e.text for e in state.log],
    }
