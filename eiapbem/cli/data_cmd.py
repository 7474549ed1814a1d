"""``eiapbem data check`` and ``eiapbem map``: check the game data, draw the map."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import click

from eiapbem.core.errors import BadData, EiaError
from eiapbem.core.powers import POWERS


def check_map(path: Path | None) -> dict[str, Any]:
    """Check the map files: ``{"valid", "problems", "counts"}``; counts only when valid."""
    from eiapbem.data import mapdata
    from eiapbem.rules import mapcheck

    try:
        raw = mapdata.read_raw(path)
    except BadData as err:
        return {"valid": False, "problems": [str(err)], "counts": {}}
    found = mapcheck.problems(raw)
    counts = {} if found else mapcheck.build_map(raw).counts()
    return {"valid": not found, "problems": found, "counts": counts}


def check_world(game_map: Any | None) -> dict[str, Any]:
    """Check the world data, and its names against ``game_map`` when the map is valid.

    Returns ``{"present", "valid", "problems", "counts"}``; the counts include the
    corps and fleet counters of each power.
    """
    from eiapbem.data import world

    try:
        counts: dict[str, Any] = world.check_world()
        raw = world.load_raw()
    except EiaError as err:
        return {"present": True, "valid": False, "problems": [str(err)], "counts": {}}
    found = world.map_problems(raw, game_map) if game_map is not None else []
    for power, n in world.counter_counts().items():
        counts[f"counters {power}"] = f"{n['corps']} corps, {n['fleets']} fleets"
    return {"present": True, "valid": not found, "problems": found, "counts": {} if found else counts}


def _n(k: int, word: str) -> str:
    return f"{k} {word}" if k == 1 else f"{k} {word}s"


def _print_counts(counts: dict[str, Any]) -> None:
    width = max((len(k) for k in counts), default=0)
    for k, v in counts.items():
        click.echo(f"  {k.ljust(width)}  {v}")


def unit_labels(state: Any) -> list[tuple[str, str]]:
    """(area or sea area id, label) for every counter on the map, in id order.

    A label is the counter's id without its ``kind:`` prefix and its strength:
    ``FR:I 12`` (factors), ``GB:1 20s`` (ships); a depot says so (``depot GB:1``, where a fleet
    ``GB:1`` may stand too), a garrison by its nation (``AU garrison 4``), a corps besieging its
    area's city is marked ``besieging`` (11.4).  Fleets at sea are drawn on their sea
    area, fleets in a blockade box on the port's area marked ``blockading``, corps carried
    by a fleet where the fleet is, marked ``aboard`` (8.6, 8.8).
    """
    from eiapbem.rules.model import LocationKind

    def where(loc: Any) -> tuple[str, str] | None:
        if loc.kind in (LocationKind.AREA, LocationKind.CITY, LocationKind.PORT, LocationKind.SEA):
            return loc.site, ""
        if loc.kind is LocationKind.BLOCKADE:
            return loc.site, " blockading"
        if loc.kind is LocationKind.ABOARD:
            carrier = state.units.get(loc.site)
            got = where(carrier.location) if carrier is not None else None
            return (got[0], f" aboard {loc.site.split(':', 1)[1]}") if got else None
        return None

    out = []
    for uid in sorted(state.units):
        u = state.units[uid]
        loc = getattr(u, "location", None)
        place = where(loc) if loc is not None else None
        if place is None:
            continue
        name = uid.split(":", 1)[1] if ":" in uid else uid
        kind = getattr(u, "KIND", "")
        if hasattr(u, "ships"):
            label = f"{name} {u.ships.total}s"
        elif kind == "garrison":
            label = f"{u.nation} garrison {u.factors.total}"
        elif hasattr(u, "factors"):
            label = f"{name} {u.factors.total}" + (" besieging" if getattr(u, "besieging", False) else "")
        else:
            label = f"{kind} {name}" if kind else name
        out.append((place[0], label + place[1]))
    return out


def scenario_minor_controllers(scenario: dict) -> dict[str, str | None]:
    """``minor slug -> controlling power or None`` from a scenario of the world data."""
    minors = scenario.get("minors", {})
    if not isinstance(minors, dict):
        raise BadData("the scenario's 'minors' is not an object of minor countries; check the scenario file")
    out: dict[str, str | None] = {}
    for slug, entry in sorted(minors.items()):
        ctl = entry.get("controller") if isinstance(entry, dict) else None
        out[slug] = ctl if ctl in POWERS else None
    return out


def register(cli: click.Group) -> None:
    from .answers import Kept, read_only

    @cli.group()
    def data() -> None:
        """The game's data files: the map, leaders, counters, displays, scenarios."""

    @data.command("check")
    @click.option("--json", "as_json", is_flag=True, help="Print JSON for machines.")
    @click.option(
        "--path",
        type=click.Path(path_type=Path),
        default=None,
        help="Check the map files of this folder instead of the packaged map.",
    )
    @click.option("--scenario", "scenario_path", type=click.Path(path_type=Path, dir_okay=False), default=None,
                  help="Check this scenario file (made with 'eiapbem scenario'), or a shipped scenario by name, with the same validator.")
    def check(as_json: bool, path: Path | None, scenario_path: Path | None) -> int:
        """Validate the map and the world data; print counts, or every problem found."""
        from eiapbem.data import mapdata, world

        if scenario_path is not None:
            from .scenario_cmd import full_problems
            from eiapbem.data import scenario_file

            if not scenario_path.exists() and str(scenario_path) in world.scenario_ids():
                sc = world.load_scenario(str(scenario_path))  # a shipped scenario by its name
            else:
                sc = scenario_file.read(scenario_path)
            found = full_problems(sc, scenario_path.name)
            if as_json:
                click.echo(json.dumps({"scenario": {"path": str(scenario_path), "valid": not found, "problems": found,
                                                    "hash": scenario_file.digest(sc)}}, indent=2))
                return 1 if found else 0
            if found:
                click.echo(f"scenario {scenario_path}: {_n(len(found), 'problem')}")
                for p in found:
                    click.echo(f"  - {p}")
                raise BadData(f"the scenario {scenario_path} has problems (listed above); fix them with 'eiapbem scenario' "
                              "and check again")
            click.echo(f"scenario {scenario_path} ({sc['id']}): valid; hash {scenario_file.digest(sc)}")
            return 0
        m = check_map(path)
        # The world's names are checked against the packaged map; a map from --path may be a sketch.
        w = check_world(mapdata.load_map() if m["valid"] and path is None else None)
        where = str(path) if path is not None else "packaged"
        if as_json:
            click.echo(json.dumps({"map": {"path": where, **m}, "world": w}, indent=2))
            return 0 if m["valid"] and w["valid"] else 1
        if m["valid"]:
            click.echo(f"map data ({where}): valid")
            _print_counts(m["counts"])
        else:
            click.echo(f"map data ({where}): {_n(len(m['problems']), 'problem')}")
            for p in m["problems"]:
                click.echo(f"  - {p}")
        if not w["present"]:
            click.echo("world data: not present")
        elif w["valid"]:
            click.echo("world data: valid")
            _print_counts(w["counts"])
        else:
            click.echo(f"world data: {_n(len(w['problems']), 'problem')}")
            for p in w["problems"]:
                click.echo(f"  - {p}")
        if not (m["valid"] and w["valid"]):
            bad = [n for n, r in (("map", m), ("world", w)) if not r["valid"]]
            raise BadData(
                f"the {' and '.join(bad)} data {'has' if len(bad) == 1 else 'have'} problems (listed above); "
                f"fix the files and run 'eiapbem data check' again",
                hint="docs/map.md describes every field of the map files",
            )
        return 0

    @cli.command("map")
    @click.option(
        "--svg",
        "svg",
        type=click.Path(dir_okay=False, path_type=Path),
        default=None,
        help="Write the map as an SVG picture to this file.",
    )
    @click.option("--json", "as_json", is_flag=True,
                  help="Print a game's map as JSON instead (docs/json.md): control, units, sieges, blockades, battles.")
    @click.option("--scenario", default=None, metavar="NAME|FILE",
                  help="Shade the areas as the scenario starts: a shipped NAME (e.g. classic-1805) or a scenario file.")
    @click.option(
        "--path",
        type=click.Path(path_type=Path),
        default=None,
        help="Draw the map files of this folder instead of the packaged map.",
    )
    @click.option("--save", "save_file", type=click.Path(path_type=Path, dir_okay=False), default=None,
                  help="Draw a game's units and control from its save (save/GameName.sav) or one of its monthly saves "
                       "(save/GameName_monthly_1805-03.sav); opened with --power/--password.")
    @click.option("--power", type=click.Choice(list(POWERS) + ["host"]), help="With --save: who opens it, in a hot-seat folder.")
    @click.option("--password", envvar="EIAPBEM_PASSWORD", help="With --save: that power's password (asked for when missing; or the EIAPBEM_PASSWORD environment variable).")
    @read_only(opens=lambda kw: kw["as_json"] and kw["save_file"] is None,
               kept=Kept(PICTURE, lambda s: game_picture(s), lambda data, kw: None))
    def map_(svg: Path | None, as_json: bool, scenario: str | None, path: Path | None, save_file: Path | None,
             power: str | None, password: str | None) -> None:
        """Draw the map as an SVG picture: political shading, borders, cities, ports and seas (and a game's units)."""
        if (svg is None) == (not as_json):
            raise BadData("give --svg FILE to draw the map, or --json to print a game's map")
        if as_json:
            from eiapbem.client import documents

            from .common import echo_json, open_save, open_session

            if scenario is not None or path is not None:
                raise BadData("--json prints a game's map: give --save save/GameName.sav, or none for this folder's game")
            s = open_save(save_file, power, password) if save_file is not None else open_session(None, power, password)
            echo_json(documents.map_record(s))
            return
        assert svg is not None
        from . import mapcache
        from .common import home

        if save_file is None and scenario is None:  # the bare map: the picture kept from an earlier run when it matches
            text, areas, seas = mapcache.bare(home(), path)
            _write_picture(svg, text, areas, seas, None)
            _bare_map_hint(svg)
            return
        if save_file is not None:
            if scenario is not None:
                raise BadData("give either --save or --scenario, not both")
            from .common import open_save

            pic, password = _kept_picture(save_file, power, password) if path is None else (None, password)
            if pic is None:
                pic = game_picture(open_save(save_file, power, password), path)
            _write_picture(svg, pic["text"], pic["areas"], pic["seas"], pic["units"])
            return
        assert scenario is not None  # neither the bare map nor a game's: a scenario's
        from eiapbem.data import mapdata, scenario_file
        from eiapbem.present import svgmap

        m = mapdata.load_map(path)
        sc = scenario_file.resolve(scenario, game_map=m)
        controllers = svgmap.scenario_controllers(m, scenario_minor_controllers(sc))
        # Areas placed under a nation by the editor (14.4.2).
        for pw in sc.get("powers", {}).values():  # conquered major provinces (14.3 item 7)
            for prov, holder in pw.get("conquered", {}).items():
                controllers.update({a: holder for a in m.areas_of_province(prov)})
        controllers.update({a: n for a, n in sc.get("provinces", {}).items() if a in controllers})
        text = svgmap.render_svg(m, controllers=controllers, units=None, title=str(sc.get("name") or scenario))
        _write_picture(svg, text, len(m.areas), len(m.seas), None)


def game_picture(s: Any, path: Path | None = None) -> dict[str, Any]:
    """``map --svg FILE --save save/GameName.sav``'s picture of the game ``s`` (its units and who holds each area, as
    the rules say, through 'map --json'), its land and sea areas' counts and its units by place: what the command
    writes and says; ``path``: the map files drawn (default: the packaged map).  Kept in the status record too
    (``_kept_picture``), so that drawing the game is a copy."""
    from eiapbem.client import documents
    from eiapbem.data import mapdata
    from eiapbem.present import svgmap

    m = mapdata.load_map(path)
    state = s.current()
    controllers = {a: row["power"] for a, row in documents.map_record(s)["areas"].items()}
    units = svgmap.units_by_area(unit_labels(state))
    text = svgmap.render_svg(m, controllers=controllers, units=units, title=f"{s.game}, {state.date.name}")
    return {"text": text, "areas": len(m.areas), "seas": len(m.seas), "units": {k: list(v) for k, v in units.items()}}


def _kept_picture(save_file: Path, power: str | None, password: str | None) -> tuple[dict | None, str | None]:
    """The game's picture kept in the acting role's status record (``game_picture``), when ``save_file`` is this
    folder's game's save and the record is current (``answers.kept_record``), else None; and the password (asked
    for when the record is there to open)."""
    from .answers import kept_record
    from .common import home, in_home, root

    f = in_home(save_file)
    if root().identity is not None or f.suffix != ".sav" or f.parent.name != "save" \
            or f.parent.parent.resolve() != home().resolve() or not f.is_file():
        return None, password
    record, password = kept_record(f.stem, power, password)
    pic = (record or {}).get("data", {}).get(PICTURE)
    ok = isinstance(pic, dict) and isinstance(pic.get("text"), str) and isinstance(pic.get("units"), dict)
    return (pic if ok else None), password


#: The name the game's picture is kept under in the status record (``answers.Kept``).
PICTURE = "map svg"


def _write_picture(svg: Path, text: str, areas: int, seas: int, units: dict | None) -> None:
    """Write the picture and say what it holds."""
    try:
        svg.write_text(text, encoding="utf-8")
    except OSError as err:
        raise BadData(f"{svg}: cannot write the picture ({err.strerror}); choose another file") from err
    click.echo(f"wrote {svg} ({areas} land areas, {seas} sea areas"
               + (f", {sum(len(v) for v in units.values())} units" if units else "") + ")")


def _bare_map_hint(svg: Path) -> None:
    """After the bare map in a game folder: how to draw the game instead."""
    from .common import home

    saves = sorted(p.name for p in (home() / "save").glob("*.sav") if "_backup_" not in p.name and "_monthly_" not in p.name)
    if saves:  # a game folder: the bare map has no units; say how to draw the game
        click.echo(f"that is the bare map, without this folder's game: 'eiapbem map --svg {svg} --save "
                   f"save/{saves[0]}' draws its units and control")
