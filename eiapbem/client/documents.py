"""The ``--json`` documents (docs/json.md): what ``eiapbem ... --json`` prints and what ``eiapbem view`` shows.

One function per document, over an open session (``client.session.Session``: only its public operations).
The CLI prints a document with ``--json`` (and its text form from the same record where it has one); the view
(``eiapbem/view/``) sends the same document to its page.  So the two never compute a thing twice and never
disagree.  Every document is as the session's power may see it: 4.1.1 Fog of War (``client/fog.py``).

- ``status`` (``eiapbem status --json``), ``log`` (``eiapbem log --json``);
- ``area``, ``unit``, ``power``, ``pool``, ``units``, ``reach`` (``eiapbem show ... --json``);
- ``battles`` and ``battle`` (``eiapbem battle report [ID] --json``);
- ``economy`` (``eiapbem economy summary --json``, with ``economy_state`` and ``economy_records``);
- ``map_record`` (``eiapbem map --json``): control, units, depots, sieges, blockades and battles of every place;
- ``history`` (``eiapbem show history --json``): political status and victory points at each monthly save.
"""

from __future__ import annotations

import re
from typing import Any

from eiapbem.core.dice import PREVIEW_SEED
from eiapbem.core.errors import BadData, EiaError, IllegalAction

from . import fog, show


def _ctx(s: Any) -> Any:
    from eiapbem.data.context import rules_context

    return rules_context(s.slot_dice())


def _viewers(s: Any) -> set[str]:
    return fog.viewers(s)


# ----------------------------------------------------------------- playing a game


def status(s: Any) -> dict:
    """``eiapbem status --json``."""
    from .status import status_record

    return status_record(s)


def log(s: Any, count: int | None = None) -> list[dict]:
    """``eiapbem log --json``: the last ``count`` lines (all when None), oldest first; 4.1.1 Fog of War hides
    others' battles."""
    vs = _viewers(s)
    return [fog.log_record(s.state, e, vs) for e in s.journal(count)]


# ----------------------------------------------------------------- show


def area(s: Any, area_id: str) -> dict:
    """``eiapbem show area NAME --json``: a land area (the Status Panel), or a sea area or blockade box."""
    st, m = s.current(), _ctx(s).map
    if area_id.startswith("box:") or (area_id not in m.areas and area_id in m.seas):
        return sea_record(st, m, area_id, _viewers(s))
    rec = show.area_record(st, m, area_id)
    return {**rec, "units": fog.filter_records(st, rec["units"], _viewers(s))}


def sea_record(st: Any, m: Any, place: str, viewers: set[str]) -> dict:
    """A sea area or a port's blockade box (8.4.1, 8.8) as ``show area --json`` gives it: its fleets and
    the corps they carry."""
    show.area(st, m, place)  # the same refusal for a place not on the map
    if place.startswith("box:"):
        port = place[4:]
        fleets = [u for u in st.units.values() if u.location.kind.value == "blockade" and u.location.site == port]
        rec: dict = {"id": place, "name": f"blockade box of {m.areas[port].name}", "kind": "blockade-box",
                     "seas": list(m.areas[port].port.seas), "ports": [port], "neighbours": [], "ice": False}
    else:
        sea = m.seas[place]
        fleets = [u for u in st.units.values() if u.location.kind.value == "sea" and u.location.site == place]
        rec = {"id": place, "name": sea.name, "kind": "sea", "seas": [], "ports": list(m.ports_on(place)),
               "neighbours": list(m.sea_neighbours(place)), "ice": bool(sea.ice)}
    ids = {f.id for f in fleets}
    aboard = [u for u in st.units.values() if u.location.kind.value == "aboard" and u.location.site in ids]
    units = [show.unit_record(st, u) for u in sorted(fleets + aboard, key=lambda u: u.id)]
    return {**rec, "units": fog.filter_records(st, units, viewers)}


def unit(s: Any, unit_id: str) -> dict:
    """``eiapbem show unit ID --json``."""
    st = s.current()
    return fog.filter_record(st, show.unit_or_leader_record(st, unit_id, _ctx(s).world), _viewers(s))


def power(s: Any, p: str) -> dict:
    """``eiapbem show power P --json``."""
    st = s.current()
    return fog.power_record(st, show.power_record(st, p), _viewers(s))


def pool(s: Any, p: str) -> dict:
    """``eiapbem show pool P --json``."""
    return show.pool_record(s.current(), p)


def units(s: Any, p: str, kind: str | None = None, area_id: str | None = None) -> dict:
    """``eiapbem show units P --json``: the power's and its free states' forces on the map."""
    st = s.current()
    recs = fog.filter_records(st, show.units(st, p, kind, area_id), _viewers(s))
    return {"power": p, "kind": kind, "area": area_id, "units": recs}


def reach(s: Any, unit_id: str, forced_march: bool = False) -> dict:
    """``eiapbem show reach UNIT --json``: where a corps or fleet can still go this phase, at what cost."""
    from eiapbem.rules.model import Fleet

    from . import reach as reach_

    st, ctx = s.current(), _ctx(s)
    u = st.units.get(unit_id)
    if u is None:
        raise IllegalAction(f"there is no unit {unit_id!r}", hint="'eiapbem show units' lists your forces on the map")
    if not u.location.site:
        raise IllegalAction(f"{unit_id} is not on the map, so it can go nowhere yet",
                            hint="'eiapbem show units' lists your forces on the map")
    if isinstance(u, Fleet):
        r = reach_.fleet_reach(st, ctx, s.power, unit_id)
        kind = "fleet"
    else:
        r = reach_.corps_reach(st, ctx, s.power, unit_id, forced_march=forced_march)
        kind = "corps"
    return {**r.to_obj(), "kind": kind, "phase": str(st.slot.phase) if st.slot else None}


# ----------------------------------------------------------------- battles


def battles_of(state: Any) -> dict[str, tuple[str, Any]]:
    """Every battle of a state by id: (what, record); what is land, naval or siege."""
    out: dict[str, tuple[str, Any]] = {}
    for bid, b in state.battles.items():
        out[bid] = ("land", b)
    for bid, b in state.naval_battles.items():
        out[bid] = ("naval", b)
    for bid, b in state.sieges.items():
        out[bid] = ("siege", b)
    return {k: out[k] for k in sorted(out)}


def finished(b: Any) -> bool:
    """Whether a battle is over: land battles say so, naval combats and sieges reach the step "done"."""
    return bool(getattr(b, "finished", False)) or getattr(b, "step", "") == "done"


def battle_place(what: str, b: Any) -> str:
    """Where a battle is fought: its area, city or sea (a place id)."""
    for name in ("area", "city", "site", "sea", "location"):
        v = getattr(b, name, None)
        if v:
            return str(getattr(v, "site", None) or v)
    return "?"


def battles(s: Any) -> list[dict]:
    """``eiapbem battle report --json``: the battles of the game in play."""
    return [{"id": k, "what": w, "finished": finished(b), "place": battle_place(w, b)}
            for k, (w, b) in battles_of(s.current()).items()]


def find_battle(s: Any, battle_id: str) -> tuple[str, str, Any]:
    """(id, what, record) of a battle by its id or one of its questions' ids; refused under Fog of War
    (4.1.1) to those who did not fight it."""
    st = s.current()
    found = battles_of(st)
    if battle_id not in found:  # the id of one of its questions, as 'status' prints it (naval:ID:retreat:FR, battle:…/3)
        battle_id = next((k for k in found if battle_id.split("/")[0] == k
                          or battle_id.startswith(("naval:" + k + ":", "siege:" + k + ":"))), battle_id)
    if battle_id not in found:
        known = ", ".join(found) or "none"
        raise IllegalAction(f"there is no battle {battle_id!r} in this game (battles now: {known})",
                            hint="'eiapbem battle report' lists them")
    fog.check_report(st, battle_id, _viewers(s))
    what, b = found[battle_id]
    return battle_id, what, b


def battle_record(what: str, b: Any) -> dict:
    """A battle's report record, round by round (``rules/combat/report.py``, ``naval/battle.py``,
    ``combat/sieges.py``)."""
    from eiapbem.rules.combat import report as land_report
    from eiapbem.rules.combat import sieges
    from eiapbem.rules.naval import battle as naval

    if what == "land":
        return land_report.report_records(b)
    return (naval if what == "naval" else sieges).report_record(b)


def battle_text(what: str, b: Any) -> str:
    from eiapbem.rules.combat import report as land_report
    from eiapbem.rules.combat import sieges
    from eiapbem.rules.naval import battle as naval

    if what == "land":
        return land_report.report_text(b)
    return (naval if what == "naval" else sieges).report_text(b)


def battle(s: Any, battle_id: str) -> dict:
    """``eiapbem battle report ID --json``."""
    _, what, b = find_battle(s, battle_id)
    return battle_record(what, b)


# ----------------------------------------------------------------- the economy


def economy_records(state: Any, seed: str, power: str | None, orders: Any = None) -> list[dict[str, Any]]:
    """``economy.phase.summary`` with the packaged data and the preview dice."""
    from eiapbem.core.dice import Dice
    from eiapbem.data.context import rules_context
    from eiapbem.rules.economy.phase import summary

    return summary(state, rules_context(Dice(seed.encode("utf-8"))), orders=orders, power=power)


def economy_outcomes(state: Any, orders: Any, most: int) -> tuple[Any, list[list[dict[str, Any]]]] | None:
    """Every power's records of ``economy_records`` for every seed, found in at most ``most`` resolutions of the
    phase: the tree of its dice (``core.dice.outcomes``: ``pick`` gives a seed's result) and the records of each
    result; None when the phase takes more (each loss number, convoy, war with the USA and privateer multiplies
    them)."""
    from eiapbem.core.dice import outcomes
    from eiapbem.data.context import rules_context
    from eiapbem.rules.economy.phase import summary

    return outcomes(lambda dice: summary(state, rules_context(dice), orders=orders), most)


def economy_state(s: Any) -> tuple[Any, dict[str, list], str]:
    """A game's state for the summary: the acting power's view, with its own orders so far.

    Outside an economic phase, the state is moved to the next economic month
    (a projection with the forces as they stand).  Other powers' orders are
    secret until the phase resolves, so only the acting power's are counted.
    """
    from eiapbem.rules.model import POWERS, Phase, Slot
    from eiapbem.rules.model.common import ECONOMIC_MONTHS
    from eiapbem.rules.model.slot import ORDERS

    state = s.current()
    note = ""
    slot = state.slot
    if slot is None:
        raise BadData("the game is over; there is no economic phase to summarise")
    if slot.phase is not Phase.ECONOMIC:
        date = state.date
        while date.month not in ECONOMIC_MONTHS:
            date = date.next()
        note = f"projection: the economic phase of {date.name} with the forces as they stand now"
        return state.replace(date=date, slot=Slot(Phase.ECONOMIC, ORDERS, None, POWERS)), {}, note
    # The orders are replayed by the summary itself, from the slot's start: the ones
    # taken so far, or once sent (end-phase), the ones in the turn file.
    mine = s.taken()
    sent = s.orders_sent()
    if sent is not None:
        mine = sent
        note = f"{s.power}'s orders are sent; the phase resolves when every power's are in"
    return s.state, ({s.power: mine} if mine else {}), note


#: The orders that spend money at step E of the economic phase (12.5).
PURCHASES = ("economic.buy-army", "economic.buy-ships", "economic.buy-counter")


def unaffordable(s: Any, action: Any, *, before: bool = False) -> str | None:
    """Why a purchase will not be carried out as things stand, or None: one just taken, or with ``before`` one
    about to be taken (counted after the orders taken so far).

    The phase is resolved in preview (``economy summary``'s projection, with the
    acting power's orders so far and the preview dice); the last ``not bought``
    ledger line of this order's item (its ``not_bought`` field, not its text) is its reason.  Only the money of the
    resolving file's dice, an ally's gift or a cancelled order can change it.
    """
    kind = getattr(action, "KIND", "")
    if kind not in PURCHASES:
        return None
    state, orders, _ = economy_state(s)
    if before:
        orders = {s.power: [*orders.get(s.power, []), action]}
    item = f"counter {action.unit}" if kind == "economic.buy-counter" else f"buy {action.count} {action.item}"
    why = None
    for rec in economy_records(state, PREVIEW_SEED, s.power, orders):
        for ln in rec["lines"]:
            if ln["item"] == item and ln["not_bought"]:
                why = str(ln["not_bought"])
    return why


def refuse_unpaid(s: Any, action: Any, name: str, *, projection: str, anyway: str, fits: Any) -> None:
    """Refuse, nothing taken, a purchase this phase's projection cannot pay (12.5), saying what is short: the money
    (given ``anyway`` when an ally's loan is to pay it, 12.3) or the manpower (which no loan brings). The CLI and the
    view give the same sentence in their own words: ``projection`` is where the player reads the projection,
    ``anyway`` how he gives the order although short, ``fits(n)`` the order of ``n`` items."""
    try:
        why = unaffordable(s, action, before=True)
    except EiaError:
        return  # the order itself is refused: ``Session.act`` says why in the rules' words
    if not why:
        return
    short = _shortage(why, action)
    if short is None:
        raise IllegalAction(f"{s.power} cannot pay {name}: it {why} in this phase's projection ({projection}), and a "
                            "purchase not paid at step E is not bought (12.5); nothing was taken",
                            hint=f"buy less, or {anyway} if an ally's loan this phase will pay it (12.3)")
    what, fit = short
    fitting = f"{fits(fit)} fits" if fit else f"not one {action.item} fits"
    if what == "manpower":  # the projection's money was enough: "cannot pay" would send the player to his $
        raise IllegalAction(f"{s.power} has too little manpower for {name}: it {why} in this phase's projection "
                            f"({projection}: the manpower lines of step 12.2; what is not spent is lost, so its closing "
                            "line shows none), and a purchase short at step E is not bought (12.5); nothing was taken",
                            hint=f"{fitting}; a loan brings money, not manpower (12.3)")
    raise IllegalAction(f"{s.power} cannot pay {name}: it {why} in this phase's projection ({projection}), and a "
                        "purchase not paid at step E is not bought (12.5); nothing was taken",
                        hint=f"{fitting}; or {anyway} if an ally's loan this phase will pay it (12.3)"
                        + (" (the manpower is short too: a loan brings money only)" if what == "both" else ""))


def _shortage(why: str, action: Any) -> tuple[str, int] | None:
    """What a purchase's ``not bought`` reason ("needs $M and N manpower, FUND has $A and B", 12.5) lacks: "money",
    "manpower" or "both", with the largest count the fund's money and manpower pay. None for another reason."""
    from eiapbem.rules.tables.economy import COSTS

    m = re.fullmatch(r"needs \$(\d+) and (\d+) manpower, \S+ has \$(-?\d+) and (-?\d+)", why)
    cost = COSTS.get(str(getattr(action, "item", "")))
    if m is None or cost is None or not isinstance(getattr(action, "count", None), int):
        return None
    money, men, have, have_men = (int(x) for x in m.groups())
    what = "both" if money > have and men > have_men else "money" if money > have else "manpower"
    fit = min(max(have, 0) // cost.money if cost.money else action.count,
              max(have_men, 0) // cost.manpower if cost.manpower else action.count)
    return what, min(fit, action.count - 1)


def economy(s: Any, only: str | None = None, seed: str = PREVIEW_SEED) -> dict:
    """``eiapbem economy summary --json`` of a game: the quarter's income and spending, line by line (12.0)."""
    state, orders, note = economy_state(s)
    recs = economy_records(state, seed, only or s.power if s.power != "host" else only, orders)
    return {"scenario": state.scenario, "month": str(state.date), "seed": seed, "note": note, "funds": recs}


# ----------------------------------------------------------------- the map


def map_record(s: Any) -> dict:
    """``eiapbem map --json``: what the map shows of the game, as the session's power may see it.

    ``areas``: every land area's holder (the nation, and the power acting for it: 4.1.2 Political Shading),
    its city's holder, and whether the city is besieged (10.4.3) and the port blockaded (8.8), each asked of
    ``rules/control.py``; ``units``: every counter on the map (corps, fleets, garrisons, depots) as ``show unit``
    gives it, Fog of War applied (4.1.1); ``nations``: the power acting for each nation of those units (its
    colour); ``leaders``: the leaders with a unit; ``battles``: the battles of the
    phase (``battle report``), with their place.
    """
    from eiapbem.rules import control, relations
    from eiapbem.rules.model import POOL

    st, ctx = s.current(), _ctx(s)
    m, vs = ctx.map, _viewers(s)
    areas = {}
    for a in sorted(m.areas):
        holder = control.area_holder(st, m, a)
        info = m.areas[a]
        row: dict = {"holder": holder, "power": relations.power_of(st, holder)}
        if info.city is not None:
            ch = control.city_holder(st, m, a)
            row.update(city_holder=ch, city_power=relations.power_of(st, ch), besieged=control.is_besieged(st, m, a))
        if info.port is not None:
            row["blockaded"] = control.is_blockaded(st, m, a)
        areas[a] = row
    recs = [show.unit_record(st, u) for _, u in sorted(st.units.items()) if u.location != POOL]
    nations = sorted({r["nation"] for r in recs})
    leaders = [show.leader_record(st, lead) for _, lead in sorted(st.leaders.items()) if lead.attached_to]
    slot = st.slot
    return {"game": s.game, "power": s.power, "date": str(st.date), "date_name": st.date.name,
            "phase": str(slot.phase) if slot else None, "slot": slot.key(st.date) if slot else None,
            "state_hash": st.state_hash().hex(), "fog_of_war": fog.on(st),
            "areas": areas, "units": fog.filter_records(st, recs, vs),
            "nations": {n: relations.power_of(st, n) for n in nations},
            "leaders": [r for r in leaders if r["site"] is not None], "battles": battles(s)}


# ----------------------------------------------------------------- history


def history(s: Any) -> dict:
    """``eiapbem show history --json``: each power's political status and victory points at the start of every
    month this folder kept a monthly save of (000:216), and now."""
    from eiapbem.core.powers import POWERS

    from . import history as months

    def row(month: str, name: str, st: Any) -> dict:
        return {"month": month, "date_name": name,
                "powers": {p: {"political_status": st.powers[p].political_status,
                               "victory_points": st.powers[p].victory_points} for p in POWERS}}

    out = []
    for month, path in months.monthly_saves(s):
        st = months.open_month(s, month).state
        out.append(row(month, st.date.name, st))
    st = s.current()
    return {"game": s.game, "months": out, "now": row(str(st.date), st.date.name, st)}
