"""``eiapbem scenario``: the scenario editor of section 14 on a plain scenario file.

Every edit reads the file, changes one item, runs the validator of the shipped
data (``eiapbem data check``) plus the editor's checks and a build of the first
state, and writes the file only when no problem is left; otherwise it prints
one sentence per problem and leaves the file as it was.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import click

from eiapbem.core.errors import BadData, EiaError, IllegalAction
from eiapbem.core.powers import POWERS
from eiapbem.data import scenario_edit as ed
from eiapbem.data import scenario_file as sf

FILE = click.argument("file", type=click.Path(path_type=Path, dir_okay=False))
_STATUSES = ("neutral", "influenced", "ally", "conquered", "free-state")


def full_problems(sc: dict[str, Any], name: str) -> list[str]:
    """The validator's problems, then (when there are none) whatever stops the first state being built."""
    from eiapbem.data import mapdata

    found = sf.problems(sc, name=name, game_map=mapdata.load_map())
    if found:
        return found
    from eiapbem.data import world
    from eiapbem.rules.model import Options
    from eiapbem.rules.model.base import InvalidValue
    from eiapbem.rules.scenario import initial_state

    raw = world.load_raw()
    for em in (False, True):
        try:
            initial_state(sc, raw, options=Options(economic_manipulation=em))
        except (EiaError, InvalidValue, KeyError, TypeError, ValueError) as err:
            return [f"{name}: the first state cannot be built: {err}"]
    return []


def _edit(file: Path, change: Callable[[dict[str, Any]], dict[str, Any]], what: str) -> None:
    sc = sf.read(file)
    new = change(sc)
    found = full_problems(new, file.name)
    if found:
        for p in found:
            click.echo(f"  - {p}", err=True)
        raise BadData(f"{file}: not changed: the edit ({what}) leaves {len(found)} problem(s), listed above")
    sf.write(file, new)
    click.echo(f"{file}: {what}; the scenario is valid (hash {sf.digest(new)[:16]})")


def _kv(items: tuple[str, ...], what: str, scale: int = 1) -> dict[str, int]:
    out = {}
    for it in items:
        k, sep, v = it.partition("=")
        if not sep:
            raise click.BadParameter(f"{it!r}: write {what} as NAME=NUMBER")
        try:
            out[k.strip().lower()] = round(float(v) * scale) if scale != 1 else int(v)
        except ValueError as err:
            raise click.BadParameter(f"{it!r}: {v!r} is not a number") from err
    return out


def _power(text: str) -> str:
    p = text.strip().upper()
    if p not in POWERS:
        raise click.BadParameter(f"{text!r} is not a major power; use one of {' '.join(POWERS)}")
    return p


def register(cli: click.Group) -> None:
    @cli.group()
    def scenario() -> None:
        """The scenario editor (14.0): make and edit a scenario file; play it with 'eiapbem new --scenario FILE'."""
        # 14.1 (000:2746): the editor's window is this group of commands; 14.2 (000:2750): 'scenario new' makes one.

    @scenario.command("new")
    @FILE
    @click.option("--from", "base", default="classic-1805", show_default=True, help="The shipped scenario to start from.")
    @click.option("--id", "new_id", help="The new scenario's id (lower-case words joined by '-'; default: the file's name).")
    @click.option("--name", help="Its name, shown to the players.")
    @click.option("--description", help="A sentence about it.")
    def new(file: Path, base: str, new_id: str | None, name: str | None, description: str | None) -> None:
        """Create FILE as a copy of a shipped scenario (14.2)."""
        if file.exists():
            raise IllegalAction(f"{file} already exists; a new scenario is never written over another (14.2)")
        sc = ed.new_from(base, new_id or file.stem.lower(), name, description)
        found = full_problems(sc, file.name)
        if found:
            for p in found:
                click.echo(f"  - {p}", err=True)
            raise BadData(f"{file}: not created: {len(found)} problem(s), listed above")
        sf.write(file, sc)
        click.echo(f"{file}: new scenario {sc['id']!r} from {base}; the scenario is valid (hash {sf.digest(sc)[:16]})")

    @scenario.command("check")
    @FILE
    def check(file: Path) -> None:
        """Check FILE with the validator of the shipped data (same as 'eiapbem data check --scenario FILE')."""
        sc = sf.read(file)
        found = full_problems(sc, file.name)
        if found:
            for p in found:
                click.echo(f"  - {p}")
            raise BadData(f"{file}: {len(found)} problem(s), listed above")
        click.echo(f"{file}: scenario {sc['id']!r} is valid; its hash is {sf.digest(sc)}")

    @scenario.command("show")
    @FILE
    def show(file: Path) -> None:
        """Print the scenario's items."""
        sc = sf.read(file)
        click.echo(f"{sc.get('id')}: {sc.get('name')} (from {sc.get('based_on', 'the manual')})")
        s, e = sc["start"], sc["end"]
        click.echo(f"  start {s['year']}-{s['month']:02d}, end {e['year']}-{e['month']:02d}; hash {sf.digest(sc)[:16]}")
        for p, pw in sorted(sc["powers"].items()):
            extra = " ".join(f"{k}={pw[k]}" for k in ("vp", "victory", "morale", "conquered") if k in pw)
            click.echo(f"  {p}: status {pw['status']} money {pw['money']} manpower {pw.get('manpower', 0)} "
                       f"depots {pw['depots']} factors {pw['factors']} ships {pw['ships']} {extra}".rstrip())
        for k, rows in sorted(sc.get("relations", {}).items()):
            click.echo(f"  {k}: " + ", ".join("-".join(str(x) for x in r) for r in rows))
        for mid, m in sorted(sc["minors"].items()):
            if m["status"] != "neutral" or m.get("at_war_with") or "morale" in m:
                click.echo(f"  minor {mid}: {m['status']} {m.get('controller') or ''} "
                           f"{'at war with ' + ' '.join(m['at_war_with']) if m.get('at_war_with') else ''}".rstrip())
        for u in sc.get("units", []):
            click.echo(f"  unit {u['id']} ({u['owner']} {u['type']}): {u.get('place', 'ready')} {u.get('area', '')}".rstrip())
        for g in sc.get("garrisons", []):
            click.echo(f"  garrison {g['nation']} in {g['city']}: {g['factors']}")
        for a, n in sorted(sc.get("provinces", {}).items()):
            click.echo(f"  area {a} placed under {n}")

    @scenario.command("describe")
    @FILE
    @click.option("--name", help="The scenario's name, shown to the players (14.2).")
    @click.option("--description", help="A sentence about it (14.2).")
    @click.option("--id", "new_id", help="Its id (lower-case words joined by '-'; it names the setups, 14.5).")
    def describe(file: Path, name: str | None, description: str | None, new_id: str | None) -> None:
        """Change the scenario's name, description or id (14.2)."""

        def change(sc: dict) -> dict:
            sc = dict(sc)
            for k, v in (("name", name), ("description", description), ("id", new_id)):
                if v is not None:
                    sc[k] = v
            return sc

        _edit(file, change, "name and description set")

    @scenario.command("start")
    @FILE
    @click.option("--year", type=int, help="Start year.")
    @click.option("--month", type=click.IntRange(1, 12), help="Start month.")
    @click.option("--end-year", type=int, help="Last year of the campaign.")
    @click.option("--end-month", type=click.IntRange(1, 12), help="Last month of the campaign.")
    def start(file: Path, year: int | None, month: int | None, end_year: int | None, end_month: int | None) -> None:
        """Set the start year and month (14.3) and the last month."""
        _edit(file, lambda sc: ed.set_start(sc, year, month, end_year, end_month), "start and end set")

    @scenario.command("power")
    @FILE
    @click.argument("power", callback=lambda c, p, v: _power(v))
    @click.option("--vp", type=click.IntRange(0), help="Starting victory points (item 1).")
    @click.option("--victory", "without_em", type=click.IntRange(1), help="Victory threshold without economic manipulation (item 2).")
    @click.option("--victory-em", "with_em", type=click.IntRange(1), help="Victory threshold with economic manipulation (item 2).")
    @click.option("--status", type=int, help="Starting political status, a box of the display (item 3).")
    @click.option("--manpower", type=int, help="Starting manpower (item 4).")
    @click.option("--money", type=int, help="Starting money (item 4).")
    @click.option("--depots", type=int, help="Depot counters.")
    @click.option("--factor", "factors", multiple=True, metavar="TYPE=N",
                  help="Starting factors or ships: infantry, guard, cavalry, cossack, heavy, light, transport (item 5).")
    @click.option("--morale", "morale", multiple=True, metavar="TYPE=M", help="Corps morale, e.g. infantry=4.5 (item 6).")
    @click.option("--conquered", "conquered", multiple=True, metavar="PROVINCE=POWER",
                  help="A home province held by another power at the start; PROVINCE=- gives it back (item 7).")
    def power(file: Path, power: str, vp: int | None, without_em: int | None, with_em: int | None, status: int | None,
              manpower: int | None, money: int | None, depots: int | None, factors: tuple[str, ...],
              morale: tuple[str, ...], conquered: tuple[str, ...]) -> None:
        """Set a major power's items (14.3 items 1-7)."""
        fac = _kv(factors, "a factor")
        for k in fac:
            if k not in ed.FORCES + ed.SHIPS:
                raise click.BadParameter(f"{k!r} is not one of {', '.join(ed.FORCES + ed.SHIPS)}")
        mor = _kv(morale, "a morale", scale=100)

        def change(sc: dict) -> dict:
            sc = ed.set_power(sc, power, vp=vp, without_em=without_em, with_em=with_em, status=status,
                              manpower=manpower, money=money, depots=depots, morale=mor or None, **fac)
            for item in conquered:
                prov, _, holder = item.partition("=")
                sc = ed.set_conquered(sc, power, prov.strip(), None if holder.strip() in ("", "-") else _power(holder))
            return sc

        _edit(file, change, f"{power} changed")

    @scenario.command("relation")
    @FILE
    @click.argument("a", callback=lambda c, p, v: _power(v))
    @click.argument("b", callback=lambda c, p, v: _power(v))
    @click.option("--war", is_flag=True, help="A starts at war with B (A the aggressor).")
    @click.option("--peace", is_flag=True, help="A and B start at peace (removes a war).")
    @click.option("--alliance", is_flag=True, help="A and B start allied.")
    @click.option("--no-alliance", is_flag=True, help="Remove the alliance.")
    @click.option("--restrict-alliance", type=click.IntRange(0, 240), help="A and B may not ally for N months; 0 removes (item 8).")
    @click.option("--enforce-peace", type=click.IntRange(0, 240), help="B may not declare war on A for N months; 0 removes (item 9).")
    @click.option("--stance", type=click.IntRange(-10, 10), help="A's natural alliance stance toward B (item 10).")
    @click.option("--access", type=click.Choice(sf.ACCESS), help="Access A grants B (item 11).")
    def relation(file: Path, a: str, b: str, war: bool, peace: bool, alliance: bool, no_alliance: bool,
                 restrict_alliance: int | None, enforce_peace: int | None, stance: int | None, access: str | None) -> None:
        """Set what stands between two major powers at the start (14.3 items 8-11, wars and alliances)."""
        steps: list[tuple[str, Any]] = []
        if war:
            steps.append(("wars", True))
        if peace:
            steps.append(("wars", None))
        if alliance:
            steps.append(("alliances", True))
        if no_alliance:
            steps.append(("alliances", None))
        if restrict_alliance is not None:
            steps.append(("alliance_restrictions", restrict_alliance or None))
        if enforce_peace is not None:
            steps.append(("enforced_peace", enforce_peace or None))
        if stance is not None:
            steps.append(("stances", stance))
        if access is not None:
            steps.append(("access", access))
        if not steps:
            raise click.UsageError("say what to set: --war, --peace, --alliance, --no-alliance, --restrict-alliance, "
                                   "--enforce-peace, --stance or --access")

        def change(sc: dict) -> dict:
            for kind, value in steps:
                if kind == "wars" and value is None:
                    sc = ed.set_relation(sc, "wars", b, a, None)
                sc = ed.set_relation(sc, kind, a, b, value)
            return sc

        _edit(file, change, f"{a}-{b} set")

    @scenario.command("minor")
    @FILE
    @click.argument("minor")
    @click.option("--status", type=click.Choice(_STATUSES), help="Its status (minor item 1).")
    @click.option("--controller", callback=lambda c, p, v: v and _power(v), help="The major power it is influenced by, allied to, conquered by or a free state of.")
    @click.option("--war-with", callback=lambda c, p, v: v and _power(v), help="It starts at war with this major power.")
    @click.option("--peace-with", callback=lambda c, p, v: v and _power(v), help="Remove such a war.")
    @click.option("--factor", "factors", multiple=True, metavar="TYPE=N", help="Forces: infantry, cavalry, heavy, light (minor item 2).")
    @click.option("--morale", type=float, help="Corps morale, e.g. 3.0 (minor item 3).")
    def minor(file: Path, minor: str, status: str | None, controller: str | None, war_with: str | None,
              peace_with: str | None, factors: tuple[str, ...], morale: float | None) -> None:
        """Set a minor country's items (14.3 minor nations)."""
        fac = _kv(factors, "a factor")
        mor = round(morale * 100) if morale is not None else None
        _edit(file, lambda sc: ed.set_minor(sc, minor, status=status, controller=controller, forces=fac, morale=mor,
                                            war_with=war_with, peace_with=peace_with), f"minor {minor} changed")

    @scenario.command("unit")
    @FILE
    @click.argument("unit_id")
    @click.option("--create", "create", type=click.Choice(sf.UNIT_TYPES), help="Create a new unit of this type.")
    @click.option("--delete", is_flag=True, help="Delete it (a counter of the world data goes out of the game).")
    @click.option("--owner", callback=lambda c, p, v: v and (v.upper() if v.upper() in POWERS else v),
                  help="Its nation (needed the first time a unit is named).")
    @click.option("--type", "kind", type=click.Choice(sf.UNIT_TYPES), help="Its type (needed the first time; changes it after).")
    @click.option("--rename", help="A new id for a created unit; a display name for a counter.")
    @click.option("--factor", "factors", multiple=True, metavar="TYPE=N", help="Current factors or ships.")
    @click.option("--max", "maxima", multiple=True, metavar="TYPE=N", help="Maximum factors or ships.")
    @click.option("--rating", "ratings", multiple=True, metavar="NAME=N", help="tactical, strategic or tactical_max (leaders).")
    @click.option("--movement", type=int, help="Movement points.")
    @click.option("--attribute", type=click.Choice(sf.ATTRIBUTES), help="Normal, feudal, cossack, freikorps, insurrection, tyrol.")
    @click.option("--home", "home", multiple=True, metavar="PROVINCE", help="A home province (repeat for several).")
    @click.option("--place", type=click.Choice(sf.PLACES), help="On the map (with --area), out of the game, ready or reserve.")
    @click.option("--area", help="With --place map: the land area, sea area or port.")
    @click.option("--with", "with_", help="With --place map, for a leader: the corps it stands with.")
    def unit(file: Path, unit_id: str, create: str | None, delete: bool, owner: str | None, kind: str | None,
             rename: str | None, factors: tuple[str, ...], maxima: tuple[str, ...], ratings: tuple[str, ...],
             movement: int | None, attribute: str | None, home: tuple[str, ...], place: str | None, area: str | None,
             with_: str | None) -> None:
        """Create, delete or change a unit (14.3 "Units", 14.4.1: units placed on the map are frozen there)."""
        at = None
        if area is not None:
            from eiapbem.data import mapdata

            at = "sea" if area in mapdata.load_map().seas else "port"
        if area is not None and place is None:
            place = "map"

        def change(sc: dict) -> dict:
            if create:
                if owner is None:
                    raise IllegalAction("a new unit needs its --owner")
                sc = ed.create_unit(sc, unit_id, owner, create)
            if delete:
                return ed.delete_unit(sc, unit_id, owner, kind)
            existing = next((u for u in sc.get("units", []) if u["id"] == unit_id), None)
            return ed.edit_unit(sc, unit_id, owner=owner, kind=kind, rename=rename,
                                new_type=kind if existing is not None and not create else None,
                                factors=_kv(factors, "a factor") or None, max=_kv(maxima, "a maximum") or None,
                                ratings=_kv(ratings, "a rating") or None, movement=movement, attribute=attribute,
                                home=list(home) or None, place=place, area=area,
                                at=at if kind in ("heavy", "light", "transport") or unit_id.startswith("fleet:") else None,
                                **{"with": with_})

        _edit(file, change, f"unit {unit_id} {'deleted' if delete else 'changed'}")

    @scenario.command("garrison")
    @FILE
    @click.argument("nation")
    @click.argument("city")
    @click.option("--factor", "factors", multiple=True, metavar="TYPE=N", help="Its factors; none removes the garrison.")
    def garrison(file: Path, nation: str, city: str, factors: tuple[str, ...]) -> None:
        """Place a garrison frozen in CITY (an area's slug) for the start (14.4.2)."""
        nation = nation.upper() if nation.upper() in POWERS else nation
        fac = _kv(factors, "a factor")
        _edit(file, lambda sc: ed.set_garrison(sc, nation, city, fac or None), f"garrison {nation} in {city} set")

    @scenario.command("province")
    @FILE
    @click.argument("area")
    @click.argument("nation")
    def province(file: Path, area: str, nation: str) -> None:
        """Give AREA to NATION at the start (14.4.2); NATION '-' gives it back to its home owner."""
        holder = None if nation == "-" else (nation.upper() if nation.upper() in POWERS else nation)
        _edit(file, lambda sc: ed.set_province(sc, area, holder), f"area {area} set")
