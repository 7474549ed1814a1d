"""``eiapbem admin …``'s acts: the logged edits (4.2.8, 000:236-264), skipping, replacing and handing on players and
the host, backups, sync checks; and ``eiapbem load-backup``.

Each opens the host's own save with the host's password and writes a host-signed admin file and its email draft to
every player in commout/.  The menu's read-only commands (``admin status``, ``admin saves``) are in ``admin_cmd.py``,
so that they load none of the rules.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click

from eiapbem.host import admin
from eiapbem.client.session import find_game
from eiapbem.core.errors import IllegalAction
from eiapbem.rules import admin as radmin
from eiapbem.rules.model import POWERS, Factors, Location, LocationKind, Ships

from .admin_cmd import admin_menu, host_options, open_host
from .common import home as _home, in_home as _in_home


def _location(text: str) -> Location:
    kind, _, site = text.partition(":")
    if kind not in {k.value for k in LocationKind}:
        raise click.BadParameter(f"{text!r}: write a place as KIND:SITE with KIND one of "
                                 f"{', '.join(k.value for k in LocationKind)} (e.g. area:paris, sea:north-sea, pool)")
    try:
        return Location(LocationKind(kind), site)
    except Exception as err:  # InvalidValue: a bad site
        raise click.BadParameter(f"{text!r}: {err}") from err


def _counts(items: tuple[str, ...], cls: Any) -> Any:
    vals = {}
    for it in items:
        k, sep, v = it.partition("=")
        k = k.strip().replace("-", "_")
        if not sep or k not in cls.__dataclass_fields__ or not v.strip().isdigit():
            raise click.BadParameter(f"{it!r}: write NAME=N with NAME one of {', '.join(f.replace('_', '-') for f in cls.__dataclass_fields__)}")
        vals[k] = int(v)
    return cls(**vals)


def _done(s: Any, path: Path, slot: str | None = None) -> None:
    """The admin file written and the act's own log line: the host's last one, not a line of a computer slot
    played after it (an ai-play's next computer power logs its own turn); ``slot`` is the slot the act was
    given in (the log tags an ai-play's line with the slot that follows the turn it played)."""
    own = next((e for e in reversed(s.journal()) if e.author == "host"), None)
    log = f"[{slot or own.slot}] (host) {own.text}" if own is not None else "nothing"
    click.echo(f"admin file commout/{path.name} (+ .eml draft to every player); log: {log}")


def register(cli: click.Group) -> None:
    admin_group = admin_menu(cli)

    def edit_cmd(name: str, help_: str, *, negative: bool = False):
        # negative: the amount may be written -17; click would read it as an unknown option, so unknown options are
        # handed to the arguments (where a stray one fails its type with click's own message).
        settings = {"ignore_unknown_options": True} if negative else {}

        def deco(build):
            @admin_group.command(name, help=help_, context_settings=settings)
            @host_options
            @click.pass_context
            def cmd(ctx: click.Context, game: str | None, password: str | None, **kw: Any) -> None:
                s = open_host(game, password)
                acts = build(**kw)
                _done(s, admin.edit(s, acts))

            for p in getattr(build, "__click_params__", []):
                cmd.params.insert(0, p)
            return cmd

        return deco

    @edit_cmd("add-pp", "Add political points to a major power (Add pp to selected nation); a negative number takes them away.", negative=True)
    @click.argument("power", type=click.Choice(POWERS))
    @click.argument("amount", type=int)
    def _pp(power: str, amount: int) -> list:
        return [radmin.AddPoliticalPoints(power, amount)]

    @edit_cmd("add-money", "Add money to a major power (Add money to selected player); a negative number takes it away.", negative=True)
    @click.argument("power", type=click.Choice(POWERS))
    @click.argument("amount", type=int)
    def _money(power: str, amount: int) -> list:
        return [radmin.AddMoney(power, amount)]

    @edit_cmd("add-manpower", "Add manpower to a major power (Add manpower to selected player); a negative number takes it away.", negative=True)
    @click.argument("power", type=click.Choice(POWERS))
    @click.argument("amount", type=int)
    def _manpower(power: str, amount: int) -> list:
        return [radmin.AddManpower(power, amount)]

    @edit_cmd("diplomacy", "Set the diplomacy between a major power and any nation: neutral, ally or war.")
    @click.argument("power", type=click.Choice(POWERS))
    @click.argument("nation")
    @click.argument("setting", type=click.Choice(radmin.SETTINGS))
    def _dip(power: str, nation: str, setting: str) -> list:
        return [radmin.SetDiplomacy(power, nation, setting)]

    @edit_cmd("remove-unit", "Move a unit off the map to its counter pool; a garrison is deleted.")
    @click.argument("unit")
    def _remove(unit: str) -> list:
        return [radmin.RemoveUnit(unit)]

    @edit_cmd("place-unit", "Place a unit (on the map or in the counter pool) at KIND:SITE, unchecked (000:256).")
    @click.argument("unit")
    @click.argument("location")
    def _place(unit: str, location: str) -> list:
        return [radmin.PlaceUnit(unit, _location(location))]

    @edit_cmd("move", "Free unit moves: UNIT=KIND:SITE ..., any unit anywhere, unchecked (000:258).")
    @click.argument("moves", nargs=-1, required=True)
    def _move(moves: tuple[str, ...]) -> list:
        out = []
        for m in moves:
            unit, sep, loc = m.partition("=")
            if not sep:
                raise click.BadParameter(f"{m!r}: write a move as UNIT=KIND:SITE, e.g. corps:FR:I=area:paris")
            out.append(radmin.PlaceUnit(unit, _location(loc)))
        return out

    @edit_cmd("edit-unit", "Set a unit's factors (infantry=N cavalry=N ...) or a fleet's ships (heavy=N light=N transport=N).")
    @click.argument("unit")
    @click.argument("counts", nargs=-1, required=True)
    def _edit(unit: str, counts: tuple[str, ...]) -> list:
        if unit.startswith("fleet:"):
            return [radmin.EditUnit(unit, ships=_counts(counts, Ships))]
        return [radmin.EditUnit(unit, factors=_counts(counts, Factors))]

    @edit_cmd("create-garrison", "Create a garrison of any NATION in the city of AREA, with optional factors (infantry=N ...).")
    @click.argument("nation")
    @click.argument("area")
    @click.argument("counts", nargs=-1)
    def _garrison(nation: str, area: str, counts: tuple[str, ...]) -> list:
        acts: list = [radmin.CreateGarrison(nation, area)]
        if counts:
            from eiapbem.rules.model.units import garrison_id

            acts.append(radmin.EditUnit(garrison_id(nation, Location(LocationKind.CITY, area)), factors=_counts(counts, Factors)))
        return acts

    @edit_cmd("option", "Turn a game option on or off (needs Allow Option Changes During Game, 4.1.1).")
    @click.argument("name", type=click.Choice([o.replace("_", "-") for o in radmin.OPTION_NAMES]))
    @click.argument("value", type=click.Choice(["on", "off"]))
    def _option(name: str, value: str) -> list:
        return [radmin.ChangeOption(name.replace("-", "_"), value == "on")]

    @admin_group.command("skip")
    @host_options
    def skip(game: str | None, password: str | None) -> None:
        """Skip the current player: the slot passes with no actions (Skip current player, 000:232)."""
        s = open_host(game, password)
        _done(s, admin.skip(s))

    @admin_group.command("ai-play")
    @click.option("--level", type=click.Choice(radmin.AI_LEVELS), default="ai-medium", show_default=True,
                  help="The computer's level for this turn.")
    @host_options
    def ai_play(level: str, game: str | None, password: str | None) -> None:
        """The computer plays the current player's turn (manual: Quick play turn with AI, 000:202)."""
        s = open_host(game, password)
        slot = s.state.slot.key(s.state.date) if s.state.slot is not None else None
        _done(s, admin.ai_play(s, level), slot)

    @admin_group.command("house-rules")
    @click.argument("ladder")
    @host_options
    def house_rules(ladder: str, game: str | None, password: str | None) -> None:
        """Set the lateness ladder REMIND,REMIND_ALL,AI_PLAY,OFFER_AFTER (hours, hours, hours, missed slots; 0 = off), logged for all; 'eiapbem mail sync' applies it."""
        from eiapbem.host import lateness

        r = lateness.parse_rules(ladder)
        s = open_host(game, password)
        _done(s, lateness.set_house_rules(s, r))

    @admin_group.command("backup")
    @click.option("--from", "month", metavar="YYYY-MM", help="Start from this month's automatic save (option 1); default: the current state (option 2).")
    @host_options
    def backup(month: str | None, game: str | None, password: str | None) -> None:
        """Create Backups!: two files per power in save/, each opening only for its own power (000:214-224)."""
        s = open_host(game, password)
        b = admin.make_backups(s, month)
        click.echo(f"backup set {b.epoch} from {b.source}:")
        for m, p in b.paths.items():
            click.echo(f"  {m}: save/{p.name} + save/{p.name}.dat" + (" (loaded here already)" if m in s.local else " (+ .eml draft)"))
        click.echo("Each player puts their two files in save/ and runs 'eiapbem load-backup save/FILE'; "
                   "files made before this set are obsolete.")

    @admin_group.command("upgrade")
    @host_options
    def upgrade(game: str | None, password: str | None) -> None:
        """Move the game to this eiapbem's rules and computer versions: one upgrade file every player loads.

        Run it with the new release installed, once every player has installed it too, at a slot boundary
        (no orders of a simultaneous phase half in). It starts a new epoch: the state and the game's log carry
        over; files made before it are obsolete. Each player runs 'eiapbem load' with the new release.
        """
        from eiapbem.client import upgrade as client_upgrade

        s = open_host(game, password)
        path = admin.upgrade(s)
        st = s.state
        click.echo(f"{s.game} moves to eiapbem {s.meta.release} ({client_upgrade.describe(s.meta.versions)}) "
                   f"at {st.slot.key(st.date) if st.slot else 'its end'}: upgrade file commout/{path.name} "
                   "(+ .eml draft to every player)")
        click.echo("Each player installs the same release and runs 'eiapbem load'; files made before it are obsolete.")

    @admin_group.command("replace")
    @click.argument("power", type=click.Choice(POWERS))
    @click.option("--name", help="The new player's name (a human player).")
    @click.option("--email", help="The new player's address (a human player).")
    @click.option("--type", "kind", type=click.Choice(admin.REPLACEMENT_TYPES + radmin.AI_LEVELS), default="client",
                  show_default=True,
                  help="client: a new human player by email; hotseat: a new human at the host's computer; "
                       "ai-easy|ai-medium|ai-hard: the computer (000:206).")
    @click.option("--new-password", envvar="EIAPBEM_NEW_PASSWORD",
                  help="A hot-seat player's own password (asked when not given).")
    @host_options
    def replace(power: str, name: str | None, email: str | None, kind: str, new_password: str | None, game: str | None,
                password: str | None) -> None:
        """Replace a player by another human (new keys, an admin file, a backup set for an email player) or by the computer (000:204-208)."""
        s = open_host(game, password)
        if kind in radmin.AI_LEVELS:
            if name or email:
                raise IllegalAction("the computer needs no --name or --email; give them only for a human player")
            _done(s, admin.replace_by_ai(s, power, kind))
            click.echo(f"{power} is played by the computer ({kind}) from now on: every player's program plays its turns")
            return
        if not name or not email:
            raise IllegalAction("a new human player needs --name and --email", hint="or --type ai-easy|ai-medium|ai-hard for the computer")
        if kind == "hotseat" and not new_password:
            new_password = click.prompt(f"{name}'s new password for {power}", hide_input=True, confirmation_prompt=True)
        r = admin.replace_player(s, power, name, email, kind, new_password)
        _done(s, r.admin)
        if r.backups is None:
            click.echo(f"{name} now plays {power} at this computer with their own password; the admin file brings every "
                       "other player in sync")
            return
        assert r.key is not None
        click.echo(f"new key file commout/{r.key.name}; tell {name} the one-time password separately: {r.one_time}")
        click.echo(f"backup set {r.backups.epoch}: send every player their own file from save/; {name} runs "
                   f"'eiapbem load-backup save/{r.backups.paths[power].name} --key {r.key.name}'")

    @admin_group.command("replace-host")
    @click.option("--name", required=True, help="The new host's name.")
    @click.option("--email", required=True, help="The new host's address.")
    @click.option("--power", type=click.Choice(POWERS),
                  help="The power the new host plays (an email player of this game); leave out for a host from outside the playgroup.")
    @host_options
    def replace_host(name: str, email: str, power: str | None, game: str | None, password: str | None) -> None:
        """Hand the host role and key to another player, or to someone from outside the playgroup (000:208)."""
        s = open_host(game, password)
        r = admin.replace_host(s, name, email, power)
        _done(s, r.admin)
        assert r.key is not None
        click.echo(f"new host key commout/{r.key.name}; tell {name} the one-time password separately: {r.one_time}")
        if r.handover is not None:
            click.echo(f"send {name} commout/{r.key.name}, commout/{r.handover.name} and commout/{r.handover.name}.dat; "
                       f"in a folder of their own they run 'eiapbem admin take-host {r.key.name} --handover {r.handover.name}'")
            click.echo("every player loads the admin file; this folder's powers now play by email")
        else:
            click.echo(f"{name} loads the admin file, then runs 'eiapbem admin take-host {r.key.name}'")

    @admin_group.command("take-host")
    @click.argument("key_file", type=click.Path(path_type=Path, dir_okay=False))
    @click.option("--handover", type=click.Path(path_type=Path, dir_okay=False),
                  help="The host's save the old host sent (a new host who plays no power).")
    @click.option("--game", help="The game's name, when this folder holds several.")
    @click.option("--power", type=click.Choice(POWERS), help="Your power, when this folder plays several.")
    @click.option("--password", envvar="EIAPBEM_PASSWORD", help="Your power's password (or the EIAPBEM_PASSWORD environment variable).")
    @click.option("--one-time-password", envvar="EIAPBEM_ONE_TIME_PASSWORD", help="The one-time password of the host key.")
    @click.option("--host-password", envvar="EIAPBEM_HOST_PASSWORD", help="Your new password for the host key.")
    def take_host(key_file: Path, handover: Path | None, game: str | None, power: str | None, password: str | None,
                  one_time_password: str | None, host_password: str | None) -> None:
        """Become the host: install the host key the old host sent (after loading the admin file naming you)."""
        from eiapbem.client.session import local_roles

        home = _home()
        name = None
        if handover is None:
            name = find_game(home, game)
            if power is None:
                mine = [r for r in local_roles(home, name) if r != "host"]
                if len(mine) != 1:
                    raise IllegalAction("say which power you play with --power")
                power = mine[0]
            password = password or click.prompt(f"Password for {power}", hide_input=True)
        elif power is not None:
            raise IllegalAction("--handover is for a new host who plays no power; a player of the game leaves it out")
        one_time_password = one_time_password or click.prompt("One-time password of the host key", hide_input=True)
        host_password = host_password or click.prompt("Your new host password", hide_input=True, confirmation_prompt=True)
        s = admin.take_host(home, name, power, password, _in_home(key_file), one_time_password, host_password,
                            _in_home(handover) if handover is not None else None)
        click.echo(f"you are now the host of {s.game}; 'eiapbem admin --help' lists the admin menu")

    @admin_group.command("sync-check")
    @click.argument("files", nargs=-1, required=True, type=click.Path(path_type=Path, dir_okay=False))
    @host_options
    def sync_check(files: tuple[Path, ...], game: str | None, password: str | None) -> int:
        """Compare players' states (their turn files, or saves this folder opens) and name who differs, and where."""
        lines = admin.sync_check(open_host(game, password), [_in_home(f) for f in files])
        for line in lines:
            click.echo(line)
        return 1 if lines and lines[0].startswith("Out of sync") else 0

    # An admin act with no command written above gets one made from its fields (``rules/admin.py``'s ``ACTIONS``).
    from eiapbem.rules import engine

    from .actions_cmd import host_act_command

    def run_act(act: Any, game: str | None, password: str | None) -> None:
        s = open_host(game, password)
        _done(s, admin.edit(s, [act]))

    for spec in engine.host_acts().values():
        made = host_act_command(spec, run_act)
        if not getattr(spec.cls, "INTERNAL", False) and made.name not in admin_group.commands:
            admin_group.add_command(host_options(made))

    @cli.command("load-backup")
    @click.argument("file", type=click.Path(path_type=Path, dir_okay=False))
    @click.option("--power", type=click.Choice(list(POWERS) + ["host"]), help="Your power (default: the one the backup is for).")
    @click.option("--key", "key_file", type=click.Path(path_type=Path, dir_okay=False),
                  help="A new player's key file from the host (with --one-time-password).")
    @click.option("--one-time-password", envvar="EIAPBEM_ONE_TIME_PASSWORD", help="The one-time password of that key file.")
    @click.option("--password", envvar="EIAPBEM_PASSWORD", help="Your password (a new player: your new password; or the EIAPBEM_PASSWORD environment variable).")
    def load_backup(file: Path, power: str | None, key_file: Path | None, one_time_password: str | None,
                    password: str | None) -> None:
        """Load the backup the host sent you (save/GameName_backup_forplayer_X.sav, 4.2.8)."""
        if password is None:
            password = click.prompt("Your password", hide_input=True, confirmation_prompt=key_file is not None)
        s = admin.load_backup(_home(), _in_home(file), password, role=power, key_file=_in_home(key_file) if key_file else None,
                              one_time=one_time_password)
        st = s.state
        click.echo(f"loaded {Path(file).name}: {s.game} is at backup epoch {s.chain.epoch}, "
                   f"{st.slot.key(st.date) if st.slot else 'game over'} (state {st.state_hash().hex()[:16]})")
        click.echo("files made before this backup are obsolete; 'eiapbem status' says who moves next")
