"""Rules-case procedures (moved out of the rules core, issue 14 item 6)."""

from __future__ import annotations

from typing import Any

from eiapbem.rulecases.harness import procedure
from eiapbem.core.dice import Dice
from eiapbem.core.errors import BadData, IllegalAction
from eiapbem.rules.diplomacy.minors import manipulate
from eiapbem.rulecases.procedures.economy import build_state, context
from eiapbem.rules.model import POWERS, Date, Factors, GameState, Phase, Prisoners, Slot, prisoners_key
from eiapbem.rules.model.slot import ORDERS


# from eiapbem.rules.diplomacy.minors

@procedure("diplomacy.manipulate-minor")
def _case_manipulate(inp: dict, dice: Dice) -> dict:
    try:
        r = manipulate(
            inp["minor"],
            inp["power"],
            inp["status"],
            inp.get("holder"),
            dice,
            zones=dict(inp["zones"]),
            investment=inp.get("investment", 0),
            allies=tuple(inp.get("allies", ())),
        )
    except KeyError as err:
        raise BadData(f"case input lacks {err.args[0]!r} (minor, power, status, zones)") from None
    except IllegalAction as err:
        return {"refused": str(err)}
    return {
        "kind": r.kind,
        "attempt_modifier": r.attempt_modifier,
        "attempt_total": r.attempt_total,
        "resist_modifier": r.resist_modifier,
        "resist_total": r.resist_total,
        "difference": r.difference,
        "required": r.required,
        "success": r.success,
        "status": r.status,
        "holder": r.holder or "none",
    }


# ----------------------------------------------------------------- the diplomacy phase (issue 16)

# Rules-case procedure of the diplomacy phase (``tests/cases/diplomacy/*.toml``, procedure ``diplomacy.phase``).
#
# The state is a scenario's first state at a diplomacy month, with the facts a
# case names (the keys of ``economy.phase``: wars, alliances, trade, status,
# peace terms, minors, units…, plus ``enforced`` {power: {other: "YYYY-MM"}},
# ``marriages`` [[a, b]], ``civil_disorder`` [powers], ``failed_ai_requests`` {power: n}, ``minor_wars`` {power: {minor: "YYYY-MM"}}, ``prisoners``
# [[captor, nation, infantry]]).  The case's ``orders`` (``{power, kind,
# fields…}``) are given as in a one-round game and the phase is resolved.
# Keys to expect: ``refused`` (the one sentence of an order the rules refuse),
# ``status.<P>``, ``pp.<P>`` (the marker's move), ``wars.<P>``,
# ``alliances.<P>``, ``trade.<P>``, ``enforced.<P>.<Q>``, ``informal.<P>.<Q>`` (the month of the last informal peace, 6.4.1), ``terms.<P>``,
# ``marriages.<P>``, ``access.<P>.<Q>``, ``returned.<P>``, ``minor_wars.<P>``, ``ceded.<province>``, ``minor.<slug>``, ``leader.<id>``, ``unit.<id>``,
# ``stored_ships.<minor>`` and ``setup_due.<minor>`` (a changed minor's stored ships, its forces due to be set up), ``grants.<P>`` and ``requests.<P>`` (6.16 land granted, attacks/defences granted: ``territory:asker``, ``area:action``)
# (what changed), ``log`` (every line, in order).



def _orders(inp: dict) -> dict[str, list]:
    from eiapbem.rules import engine

    out: dict[str, list] = {p: [] for p in POWERS}
    for o in inp.get("orders", []):
        o = {k: tuple(v) if isinstance(v, list) else v for k, v in o.items()}
        power = o.pop("power")
        kind = o.pop("kind")
        out[power].append(engine.action_kinds()[kind].cls(**o))
    return out


def diplomacy_state(inp: dict, ctx: Any) -> GameState:
    state = build_state(inp, ctx)
    state = state.replace(slot=Slot(Phase.DIPLOMACY, ORDERS, None, POWERS),
                          options=state.options.replace(one_round_diplomacy=True))
    for p, row in inp.get("enforced", {}).items():
        ps = state.powers[p]
        for q, until in row.items():
            ps = ps.replace(enforced_peace=ps.enforced_peace.set(q, Date.parse(until)))
        state = state.with_power(p, enforced_peace=ps.enforced_peace)
    from eiapbem.rules.diplomacy.common import set_mutual

    for a, b in inp.get("marriages", []):
        state = set_mutual(state, "royal_marriages", a, b, state.date)
    for p, row in inp.get("minor_wars", {}).items():
        ps = state.powers[p]
        for slug, since in row.items():
            ps = ps.replace(minor_wars=ps.minor_wars.set(slug, Date.parse(since)))
        state = state.with_power(p, minor_wars=ps.minor_wars)
    for p, n in inp.get("failed_ai_requests", {}).items():
        state = state.with_power(p, failed_ai_requests=n)
    for p in inp.get("civil_disorder", []):
        state = state.with_power(p, must_sue_for_peace=True)
    for captor, nation, inf in inp.get("prisoners", []):
        pr = Prisoners(captor=captor, nation=nation, factors=Factors(infantry=inf))
        state = state.replace(prisoners=state.prisoners.set(prisoners_key(captor, nation), pr))
    return state


def flatten(before: GameState, after: GameState) -> dict[str, Any]:
    res: dict[str, Any] = {}
    for p in POWERS:
        ps = after.powers[p]
        res[f"status.{p}"] = ps.political_status
        res[f"pp.{p}"] = ps.political_status - before.powers[p].political_status
        res[f"wars.{p}"] = sorted(ps.wars)
        res[f"alliances.{p}"] = sorted(ps.alliances)
        res[f"trade.{p}"] = list(ps.trade)
        res[f"terms.{p}"] = sorted(ps.peace_terms)
        res[f"marriages.{p}"] = sorted(ps.royal_marriages)
        res[f"minor_wars.{p}"] = sorted(ps.minor_wars)
        res[f"returned.{p}"] = ps.returned_factors.total
        res[f"sue.{p}"] = ps.must_sue_for_peace
        res[f"grants.{p}"] = sorted(f"{t}:{q}" for t, q in ps.land_grants.items())
        res[f"requests.{p}"] = sorted(f"{a}:{x}" for a, x in ps.military_requests.items())
        for q, until in ps.enforced_peace.items():
            res[f"enforced.{p}.{q}"] = str(until)
        for q, since in ps.informal_peace.items():
            res[f"informal.{p}.{q}"] = str(since)
        for q, acc in ps.access.items():
            res[f"access.{p}.{q}"] = f"{acc.kind}" + (f":{acc.until}" if acc.until else "")
    for prov, holder in after.ceded_provinces.items():
        res[f"ceded.{prov}"] = holder
    for slug, m in after.minors.items():
        if m != before.minors.get(slug):
            res[f"minor.{slug}"] = f"{m.status}:{m.controller}"
            res[f"stored_ships.{slug}"] = m.stored_ships.total
            res[f"setup_due.{slug}"] = m.setup_due
    for lid, lead in after.leaders.items():
        if lead != before.leaders.get(lid):
            res[f"leader.{lid}"] = str(lead.status)
    for uid, u in after.units.items():
        if u != before.units.get(uid):
            res[f"unit.{uid}"] = f"{u.location.kind}:{u.location.site}" if u.location.site else f"{u.location.kind}"
    for uid in before.units:
        if uid not in after.units:
            res[f"unit.{uid}"] = "gone"
    res["log"] = [e.text for e in after.log[len(before.log):]]
    return res


@procedure("diplomacy.phase")
def phase_case(inp: dict, dice: Dice) -> dict:
    """Resolve one diplomacy phase from a described state; see the module docstring."""
    from eiapbem.rules import engine

    ctx = context(dice)
    state = diplomacy_state(inp, ctx)
    orders = _orders(inp)
    try:
        for p in POWERS:
            engine.check_orders(state, p, orders[p], ctx)
        out = engine.resolve_slot(state, orders, ctx)
    except IllegalAction as err:
        return {"refused": str(err)}
    # resolve_slot moves on to the reinforcement phase; the facts of the phase are what a case checks.
    return flatten(state, out.state)
