"""``eiapbem show area|unit|power|pool|units|reach``: what the manual's info boxes show (4.1.2, 5.2.1).

Each opens the game as the acting power (``--game/--power/--password``) and
prints text, or one JSON document with ``--json`` (docs/json.md).
"""

from __future__ import annotations

from typing import Any

import click

from .answers import read_only
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
        """A corps, fleet, depot, garrison or leader."""
        from eiapbem.client import documents, show

        s = open_session(game, power, password)
        st = s.current()
        _out(as_json, lambda: documents.unit(s, unit), lambda: show.unit(st, unit, _fog_viewers(s)))

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
    @read_only("which")
    def show_units(which: str | None, kind: str | None, area_id: str | None, as_json: bool, game: str | None,
                   power: str | None, password: str | None) -> None:
        """A power's corps, fleets, garrisons, depots and leaders on the map: where, how strong.

        POWER is FR, AU... (your own by default): 'eiapbem show units FR --kind fleet' finds the
        French fleets.
        """
        from eiapbem.client import documents, show

        area_id = place_name(area_id) if area_id else area_id
        s = open_session(game, viewer(game, power, which), password)
        p = (which or s.power).upper()
        doc = documents.units(s, p, kind, area_id)  # 4.1.1 Fog of War
        if as_json:
            echo_json(doc)
            return
        for line in show.units_lines(doc["units"], p, area_id):
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
    def show_reach(unit: str, forced_march: bool, as_json: bool, game: str | None, power: str | None,
                   password: str | None) -> None:
        """Where a corps or fleet can still go this phase and at what cost (manual: show possible moves, 4.1.2)."""
        from eiapbem.client import documents

        s = open_session(game, power, password)
        doc = documents.reach(s, unit, forced_march)
        if as_json:
            echo_json(doc)
            return
        kind, phase = doc["kind"], doc["phase"]
        group = "naval" if kind == "fleet" else "land"
        if phase != group:
            click.echo(f"(it is the {phase} phase: this is where {unit} could go in a {group} phase from here)")
        click.echo(f"{unit} at {doc['at']}: {doc['allowance'] - doc['spent']} of {doc['allowance']} movement points left"
                   + (" (forced march)" if forced_march else ""))
        areas = doc["areas"]
        if not areas:
            click.echo("  it can enter no area from here")
        for a in areas:
            click.echo(f"  {a['area']:<24} cost {a['cost']}  path {','.join(a['path'])}"
                       + (f"  (must stop: {a['halts']})" if a["halts"] else ""))
        if areas and phase == group:
            opt = "--unit" if kind == "corps" else "--fleet"
            click.echo(f"move with: eiapbem {group} move {opt} {unit} --path {','.join(areas[0]['path'])}")


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


