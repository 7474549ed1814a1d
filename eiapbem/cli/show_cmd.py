"""``eiapbem show area|unit|power|pool|units|reach``: what the manual's info boxes show (4.1.2, 5.2.1).

Each opens the game as the acting power (``--game/--power/--password``) and
prints text, or one JSON document with ``--json`` (docs/json.md).
"""

from __future__ import annotations

from typing import Any

import click

from .answers import Kept, as_json, read_only
from .common import echo_json, game_options, json_option, open_session, place_name, rules_ctx, viewer


def _out(as_json: bool, record: Any, lines: Any) -> None:
    if as_json:
        echo_json(record())
        return
    for line in lines():
        click.echo(line)


def register(cli: click.Group) -> None:
    from eiapbem.core.powers import UNIT_KINDS

    @cli.group("show")
    def show_group() -> None:
        """What the manual's info boxes show: an area, a unit, a power, the counter pool, your forces, a unit's reach."""

    @show_group.command("area")
    @click.argument("area", callback=lambda ctx, param, value: place_name(value))  # 'Cracow', 'St Petersburg' as typed
    @json_option
    @game_options
    @read_only()
    def show_area(area: str, as_json: bool, game: str | None, power: str | None, password: str | None) -> None:
        """The Status Panel of a land area: terrain, city, port, control, units."""
        from eiapbem.client import documents, show

        s = open_session(game, power, password)
        st, m = s.current(), rules_ctx(s).map
        _out(as_json, lambda: documents.area(s, area), lambda: show.area(st, m, area, _fog_viewers(s)))

    @show_group.command("unit")
    @click.argument("unit")
    @json_option
    @game_options
    @read_only()
    def show_unit(unit: str, as_json: bool, game: str | None, power: str | None, password: str | None) -> None:
        """A corps, fleet, depot, garrison or leader (a leader with his ratings: strategic, tactical, tactical maximum,
        seniority, 13.8)."""
        from eiapbem.client import documents, show

        s = open_session(game, power, password)
        st = s.current()
        _out(as_json, lambda: documents.unit(s, unit), lambda: show.unit(st, unit, _fog_viewers(s), rules_ctx(s).world))

    @show_group.command("power")
    @click.argument("which", required=False)
    @json_option
    @game_options
    @read_only("which")
    def show_power(which: str | None, as_json: bool, game: str | None, power: str | None, password: str | None) -> None:
        """A major power: money, manpower, status, wars, alliances, forces on the map, factors still to place."""
        from eiapbem.client import documents, show

        s = open_session(game, viewer(game, power, which), password)
        p, st = (which or s.power).upper(), s.current()
        _out(as_json, lambda: documents.power(s, p), lambda: show.power(st, p, _fog_viewers(s)))

    @show_group.command("pool")
    @click.argument("which", required=False)
    @json_option
    @game_options
    @read_only("which")
    def show_pool(which: str | None, as_json: bool, game: str | None, power: str | None, password: str | None) -> None:
        """The counter pool: counters, leaders, factors and ships not yet placed, purchases on order (manual: View Available Counters)."""
        from eiapbem.client import documents, show

        s = open_session(game, viewer(game, power, which), password)
        p, st = (which or s.power).upper(), s.current()
        _out(as_json, lambda: documents.pool(s, p), lambda: show.pool(st, p))

    @show_group.command("units")
    @click.argument("which", required=False, metavar="[POWER]")
    @click.option("--kind", type=click.Choice(UNIT_KINDS), help="Only corps, fleets, garrisons, depots or leaders.")
    @click.option("--area", "area_id", metavar="AREA", help="Only what is in this land area (its city included) or sea area.")
    @json_option
    @game_options
    @read_only("which", kept=Kept("show units", _units_kept, _units_answer))
    def show_units(which: str | None, kind: str | None, area_id: str | None, as_json: bool, game: str | None,
                   power: str | None, password: str | None) -> None:
        """A power's corps, fleets, garrisons, depots and leaders on the map: where, how strong.

        POWER is FR, AU... (your own by default): 'eiapbem show units FR --kind fleet' finds the
        French fleets.
        """
        from eiapbem.client import documents, showtext

        area_id = place_name(area_id) if area_id else area_id
        s = open_session(game, viewer(game, power, which), password)
        p = (which or s.power).upper()
        doc = documents.units(s, p, kind, area_id)  # 4.1.1 Fog of War
        if as_json:
            echo_json(doc)
            return
        for line in showtext.units_lines(doc["units"], p, area_id):
            click.echo(line)

    @show_group.command("history")
    @json_option
    @game_options
    @read_only()
    def show_history(as_json: bool, game: str | None, power: str | None, password: str | None) -> None:
        """Each power's political status and victory points at the start of every month kept, and now (from the monthly saves)."""
        from eiapbem.client import documents

        s = open_session(game, power, password)
        doc = documents.history(s)
        _out(as_json, lambda: doc, lambda: _history_lines(doc))

    @show_group.command("reach")
    @click.argument("unit")
    @click.option("--forced-march", is_flag=True, help="A corps with one movement point more (10.4.1).")
    @json_option
    @game_options
    @read_only(kept=Kept("show reach", _reach_kept, _reach_answer))
    def show_reach(unit: str, forced_march: bool, as_json: bool, game: str | None, power: str | None,
                   password: str | None) -> None:
        """Where a corps or fleet can still go this phase and at what cost (manual: show possible moves, 4.1.2)."""
        from eiapbem.client import documents

        s = open_session(game, power, password)
        doc = documents.reach(s, unit, forced_march)
        if as_json:
            echo_json(doc)
            return
        for line in _reach_lines(doc, unit, forced_march):
            click.echo(line)


def _units_kept(s: Any) -> dict:
    """What ``show units`` answers from, per power: its forces and leaders as ``show units P`` lists them, and
    every leader of it (``--kind leader`` lists the captured and the dead too), Fog of War applied."""
    from eiapbem.client import documents
    from eiapbem.core.powers import POWERS

    return {"me": s.power, "powers": {p: {"all": documents.units(s, p)["units"],
                                          "leaders": documents.units(s, p, "leader")["units"]} for p in POWERS}}


def _units_answer(data: dict, kw: dict) -> tuple[str, str] | None:
    """``show units [POWER] [--kind K] [--area A] [--json]`` from ``_units_kept``'s records: ``client.show.units``'s
    filters as selections (a kind, a site), in the order it sorts them."""
    from eiapbem.client import showtext

    kind, area = kw["kind"], place_name(kw["area_id"]) if kw["area_id"] else kw["area_id"]
    p = (kw["which"] or data["me"]).upper()
    if p not in data["powers"] or area == "":
        return None  # refused by the command, which says why
    pool = data["powers"][p]["leaders" if kind == "leader" else "all"]
    recs = [r for r in pool if (kind is None or r["kind"] == kind) and (area is None or r["site"] == area)]
    if kw["as_json"]:
        return as_json({"power": p, "kind": kind, "area": area, "units": recs}), ""
    return "".join(f"{line}\n" for line in showtext.units_lines(recs, p, area)), ""


def _reach_lines(doc: dict, unit: str, forced_march: bool) -> list[str]:
    """``show reach UNIT`` as text, from its ``--json`` record."""
    kind, phase = doc["kind"], doc["phase"]
    group = "naval" if kind == "fleet" else "land"
    out = []
    if phase != group:
        out.append(f"(it is the {phase} phase: this is where {unit} could go in a {group} phase from here)")
    out.append(f"{unit} at {doc['at']}: {doc['allowance'] - doc['spent']} of {doc['allowance']} movement points left"
               + (" (forced march)" if forced_march else ""))
    areas = doc["areas"]
    if not areas:
        out.append("  it can enter no area from here")
    for a in areas:
        out.append(f"  {a['area']:<24} cost {a['cost']}  path {','.join(a['path'])}"
                   + (f"  (must stop: {a['halts']})" if a["halts"] else ""))
    if areas and phase == group:
        opt = "--unit" if kind == "corps" else "--fleet"
        out.append(f"move with: eiapbem {group} move {opt} {unit} --path {','.join(areas[0]['path'])}")
    return out


def _reach_units(s: Any) -> list[str]:
    """The units whose reach the record keeps: each corps and fleet of the acting power on the map (its free
    states' too), in every phase (a reach outside its phase says where the unit could go in it)."""
    from eiapbem.rules.model import Corps, Fleet

    st = s.current()
    nations = {s.power, *st.free_states(s.power)} if s.power in st.powers else set()
    return [uid for uid, u in sorted(st.units.items())
            if isinstance(u, (Corps, Fleet)) and u.location.site
            and (getattr(u, "nation", None) or getattr(u, "power", None)) in nations]


def _reach_kept(s: Any) -> dict:
    """What ``show reach`` answers from: the reach of each unit of ``_reach_units``, a corps' with and without
    forced march (a refusal is kept as one: its sentence and hint).  The rules' search extends each path by one
    step (``rules.land.movement.reach``), so every reach of a power costs an order a few milliseconds a unit."""
    from eiapbem.client import documents
    from eiapbem.core.errors import EiaError
    from eiapbem.rules.model import Fleet

    def one(uid: str, fm: bool) -> dict:
        try:
            return documents.reach(s, uid, fm)
        except EiaError as err:  # refused (a cavalry corps may not forced march, 10.4.1): refused again
            return {"refused": [str(err), err.hint]}

    st, out = s.current(), {}
    for uid in _reach_units(s):
        if isinstance(st.units[uid], Fleet):
            out[uid] = {"plain": one(uid, False)}
            continue
        forced = one(uid, True)
        out[uid] = {"forced": forced, "plain": plain_reach(s, uid, forced) or one(uid, False)}
    return {"units": out}


def plain_reach(s: Any, uid: str, forced: dict) -> dict | None:
    """``show reach UNIT --json`` of a corps without forced march, from its reach with one (``forced``), or None when
    it cannot be told from it (then it is searched).

    The search (``rules.land.movement.reach``) takes paths cheapest first and keeps, for each area, the cheapest
    path the rules accept (``plan_move``); a forced march changes only the points a path may spend (10.4.1,
    000:1374).  So the paths it finds with a forced march that cost no more than the points without are found, in
    the same order, by the search without, and no other: the reach without is the reach with, cut to those
    points.  Where nothing is left (the search without would say why the corps cannot move) or the forced march
    was refused, it is searched (``tests/cli/test_answers.py`` compares both for every corps of every power)."""
    from eiapbem.rules.land.movement import allowance

    from .common import rules_ctx

    if "refused" in forced:
        return None
    st = s.current()
    prior = st.land_moves.get(uid)
    points = allowance(st, rules_ctx(s), st.units[uid], forced_march=prior is not None and prior.forced_march)
    areas = [a for a in forced["areas"] if a["cost"] <= points - forced["spent"]]
    return {**forced, "allowance": points, "forced_march": False, "areas": areas} if areas else None


def _reach_answer(data: dict, kw: dict) -> tuple[str, str] | None:
    """``show reach UNIT [--forced-march] [--json]`` from ``_reach_kept``'s records (a fleet's reach is the same
    with --forced-march)."""
    from eiapbem.core.errors import IllegalAction

    docs = data["units"].get(kw["unit"])
    plain_doc = docs.get("plain") if docs else None
    fleet = plain_doc is not None and plain_doc.get("kind") == "fleet"
    doc = plain_doc if fleet or not kw["forced_march"] else docs.get("forced") if docs else None
    if doc is None:
        return None
    if "refused" in doc:
        raise IllegalAction(str(doc["refused"][0]), hint=doc["refused"][1])
    if kw["as_json"]:
        return as_json(doc), ""
    return "".join(f"{line}\n" for line in _reach_lines(doc, kw["unit"], kw["forced_march"])), ""


def _history_lines(doc: dict) -> list[str]:
    from eiapbem.core.powers import POWERS

    rows = doc["months"] + [doc["now"]]
    out = [f"Political status / victory points of {doc['game']} at the start of each month kept (monthly saves) and now",
           f"  {'month':<9}" + "".join(f"{p:>9}" for p in POWERS)]
    for n, r in enumerate(rows):
        label = r["month"] + ("*" if n == len(rows) - 1 else "")
        out.append(f"  {label:<9}" + "".join(f"{r['powers'][p]['political_status']:>5}/{r['powers'][p]['victory_points']:<3}"
                                            for p in POWERS))
    out.append("  (* now; the other rows are the folder's monthly saves, save/GAME_monthly_YYYY-MM.sav)")
    return out


def _fog_viewers(s: Any) -> set[str]:
    """4.1.1 Fog of War: whose eyes ``show`` (text and ``--json``) uses (``client.fog``)."""
    from eiapbem.client import fog

    return fog.viewers(s)


