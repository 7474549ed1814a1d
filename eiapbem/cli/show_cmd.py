"""``eiapbem show area|unit|power|pool|units|reach``: what the manual's info boxes show (4.1.2, 5.2.1).

Each opens the game as the acting power (``--game/--power/--password``) and
prints text, or one JSON document with ``--json`` (docs/json.md).
"""

from __future__ import annotations

from typing import Any

import click

from .common import echo_json, game_options, json_option, open_session, place_name, rules_ctx, viewer


def _out(as_json: bool, record: Any, lines: Any) -> None:
    if as_json:
        echo_json(record())
        return
    for line in lines():
        click.echo(line)


def register(cli: click.Group) -> None:
    from eiapbem.client import show

    @cli.group("show")
    def show_group() -> None:
        """What the manual's info boxes show: an area, a unit, a power, the counter pool, your forces, a unit's reach."""

    @show_group.command("area")
    @click.argument("area")
    @json_option
    @game_options
    def show_area(area: str, as_json: bool, game: str | None, power: str | None, password: str | None) -> None:
        """The Status Panel of a land area: terrain, city, port, control, units."""
        area = place_name(area)  # 'Cracow', 'St Petersburg' as typed
        s = open_session(game, power, password)
        st, m = s.current(), rules_ctx(s).map
        _out(as_json, lambda: _fog_area(st, show.area_record(st, m, area), s), lambda: show.area(st, m, area, _fog_viewers(s)))

    @show_group.command("unit")
    @click.argument("unit")
    @json_option
    @game_options
    def show_unit(unit: str, as_json: bool, game: str | None, power: str | None, password: str | None) -> None:
        """A corps, fleet, depot, garrison or leader."""
        s = open_session(game, power, password)
        st = s.current()
        _out(as_json, lambda: _fog(s).filter_record(st, show.unit_or_leader_record(st, unit), _fog_viewers(s)), lambda: show.unit(st, unit, _fog_viewers(s)))

    @show_group.command("power")
    @click.argument("which", required=False)
    @json_option
    @game_options
    def show_power(which: str | None, as_json: bool, game: str | None, power: str | None, password: str | None) -> None:
        """A major power: money, manpower, status, wars, alliances, forces on the map, factors still to place."""
        s = open_session(game, viewer(game, power, which), password)
        p, st = (which or s.power).upper(), s.current()
        _out(as_json, lambda: _fog(s).power_record(st, show.power_record(st, p), _fog_viewers(s)),
             lambda: show.power(st, p, _fog_viewers(s)))

    @show_group.command("pool")
    @click.argument("which", required=False)
    @json_option
    @game_options
    def show_pool(which: str | None, as_json: bool, game: str | None, power: str | None, password: str | None) -> None:
        """The counter pool: counters, leaders, factors and ships not yet placed, purchases on order (manual: View Available Counters)."""
        s = open_session(game, viewer(game, power, which), password)
        p, st = (which or s.power).upper(), s.current()
        _out(as_json, lambda: show.pool_record(st, p), lambda: show.pool(st, p))

    @show_group.command("units")
    @click.argument("which", required=False, metavar="[POWER]")
    @click.option("--kind", type=click.Choice(show.UNIT_KINDS), help="Only corps, fleets, garrisons, depots or leaders.")
    @click.option("--area", "area_id", metavar="AREA", help="Only what is in this land area (its city included) or sea area.")
    @json_option
    @game_options
    def show_units(which: str | None, kind: str | None, area_id: str | None, as_json: bool, game: str | None,
                   power: str | None, password: str | None) -> None:
        """A power's corps, fleets, garrisons, depots and leaders on the map: where, how strong.

        POWER is FR, AU... (your own by default): 'eiapbem show units FR --kind fleet' finds the
        French fleets.
        """
        area_id = place_name(area_id) if area_id else area_id
        s = open_session(game, viewer(game, power, which), password)
        p, st = (which or s.power).upper(), s.current()
        recs = _fog(s).filter_records(st, show.units(st, p, kind, area_id), _fog_viewers(s))  # 4.1.1 Fog of War
        if as_json:
            echo_json({"power": p, "kind": kind, "area": area_id, "units": recs})
            return
        for line in show.units_lines(recs, p, area_id):
            click.echo(line)

    @show_group.command("reach")
    @click.argument("unit")
    @click.option("--forced-march", is_flag=True, help="A corps with one movement point more (10.4.1).")
    @json_option
    @game_options
    def show_reach(unit: str, forced_march: bool, as_json: bool, game: str | None, power: str | None,
                   password: str | None) -> None:
        """Where a corps or fleet can still go this phase and at what cost (manual: show possible moves, 4.1.2)."""
        from eiapbem.client import reach
        from eiapbem.core.errors import IllegalAction
        from eiapbem.rules.model import Fleet

        s = open_session(game, power, password)
        st, ctx = s.current(), rules_ctx(s)
        u = st.units.get(unit)
        if u is None:
            raise IllegalAction(f"there is no unit {unit!r}", hint="'eiapbem show units' lists your forces on the map")
        if isinstance(u, Fleet):
            r = reach.fleet_reach(st, ctx, s.power, unit)
            kind, group = "fleet", "naval"
        else:
            r = reach.corps_reach(st, ctx, s.power, unit, forced_march=forced_march)
            kind, group = "corps", "land"
        phase = str(st.slot.phase) if st.slot else None
        if as_json:
            echo_json({**r.to_obj(), "kind": kind, "phase": phase})
            return
        if phase != group:
            click.echo(f"(it is the {phase} phase: this is where {unit} could go in a {group} phase from here)")
        click.echo(f"{unit} at {r.at}: {r.allowance - r.spent} of {r.allowance} movement points left"
                   + (" (forced march)" if forced_march else ""))
        if not r.areas:
            click.echo("  it can enter no area from here")
        for a in r.areas:
            click.echo(f"  {a.area:<24} cost {a.cost}  path {','.join(a.path)}" + (f"  (must stop: {a.halts})" if a.halts else ""))
        if r.areas and phase == group:
            opt = "--unit" if kind == "corps" else "--fleet"
            click.echo(f"move with: eiapbem {group} move {opt} {unit} --path {','.join(r.areas[0].path)}")


def _fog(s: Any) -> Any:
    from eiapbem.client import fog

    return fog


def _fog_area(st: Any, rec: dict, s: Any) -> dict:
    """``show area --json`` with the units' sizes Fog of War hides blanked (``client.fog``)."""
    return {**rec, "units": _fog(s).filter_records(st, rec["units"], _fog_viewers(s))}


def _fog_viewers(s: Any) -> set[str]:
    """4.1.1 Fog of War: whose eyes ``show`` (text and ``--json``) uses (``client.fog``)."""
    from eiapbem.client import fog

    return fog.viewers(s)

