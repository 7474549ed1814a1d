"""Playing a game: new, join, load, status, log, end-phase, restart, show, answer, setup save/load, demo.

Every command that opens a game takes ``--game`` (when the folder holds
several), ``--power`` (when it plays several, hot-seat 4.2.1) and
``--password`` (or the ``EIAPBEM_PASSWORD`` environment variable; asked for
when missing).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Callable

import click

from eiapbem.client import fog, newgame, session, setups, show
from eiapbem.client.session import NoGame, Session
from eiapbem.core.errors import IllegalAction
from eiapbem.pbem.email import Person
from eiapbem.rules import engine
from eiapbem.rules.engine import AnswerDecision
from eiapbem.rules.model import POWER_NAMES, POWERS, Options, Phase


def _home() -> Path:
    return click.get_current_context().find_root().obj.home


def _opts() -> list[click.Option]:
    return [
        click.Option(["--game"], help="The game's name, when this folder holds several."),
        click.Option(["--power"], type=click.Choice(list(POWERS) + ["host"]),
                     help="Who acts, when this folder plays several powers (hot-seat)."),
        click.Option(["--password"], envvar="EIAPBEM_PASSWORD", help="The acting power's password (asked for when missing)."),
    ]


def game_options(f: Any) -> Any:
    """Add --game, --power and --password to a command (a function or a click.Command)."""
    if isinstance(f, click.Command):
        f.params.extend(_opts())
        return f
    params = getattr(f, "__click_params__", [])
    params.extend(reversed(_opts()))
    f.__click_params__ = params
    return f


def open_session(game: str | None, power: str | None, password: str | None) -> Session:
    home = _home()
    name = session.find_game(home, game)
    local = [r for r in session.local_roles(home, name) if r != "host"]
    if power is None:
        if len(local) == 1:
            power = local[0]
        elif not local:
            power = "host"
        else:
            raise NoGame(f"this folder plays {', '.join(local)}; say which power acts with --power")
    if password is None:
        password = click.prompt(f"Password for {power}", hide_input=True)
    return Session.open(home, name, power, password)


def _viewer(game: str | None, power: str | None, which: str | None) -> str | None:
    """Who opens the game to look at ``which``: --power if given, else ``which`` itself when it is played here."""
    if power is not None or not which:
        return power
    home = _home()
    name = session.find_game(home, game)
    return which.upper() if which.upper() in session.local_roles(home, name) else None


def open_save(save_file: Path, power: str | None, password: str | None) -> Session:
    """Open the game of a save file ``…/save/GameName.sav`` (its folder is the game folder)."""
    from eiapbem.core.errors import BadData

    save_file = _in_home(save_file)
    if save_file.suffix != ".sav" or save_file.parent.name != "save" or not save_file.is_file():
        raise BadData(f"{save_file} is not a game's save; give save/GameName.sav inside a game folder")
    click.get_current_context().find_root().obj.home = save_file.parent.parent
    return open_session(save_file.stem, power, password)


def _status_lines(s: Session) -> list[str]:
    st = s.state
    meta = s.data.meta
    out = [f"Game {s.game} ({meta['scenario']}); this folder plays {', '.join(r for r in s.local if r != 'host') or 'no power'}"
           + (" and hosts it" if "host" in s.local else "")]
    slot = st.slot
    if slot is None:
        out.append(f"The game is over ({st.date.name}).")
        return out
    out.append(f"Date: {st.date.name}   (state {st.state_hash().hex()[:16]}: equal on every player's computer when in sync)")
    impl = engine.phase_implemented(slot.phase)
    out.append(f"Phase: {slot.phase}" + ("" if impl else " (not implemented yet: only end-phase is accepted)"))
    if slot.simultaneous:
        out.append(f"Turn: every power gives its orders at once ({slot.key(st.date)})")
    else:
        out.append(f"Turn: {POWER_NAMES[slot.power]} ({slot.key(st.date)})")
    computer = [f"{p} ({st.powers[p].controller})" for p in POWERS if st.powers[p].controller != "human"]
    if computer:
        out.append("Played by the computer (every client plays their turns itself): " + ", ".join(computer))
    waiting = s.awaited()
    if waiting:
        parts = []
        for p, _ in waiting:
            row = meta["players"][p]
            if p in s.local:
                where = "at this computer"
            elif row["type"].startswith("ai-"):
                where = "the computer cannot end this turn; the host can skip it: 'eiapbem admin skip'"
            elif row["type"] == "hotseat":
                where = f"file from the host's computer, {meta['host']['name']} <{meta['host']['email']}>"
            else:
                where = f"file from {row['name']} <{row['email']}>"
            parts.append(f"{p} ({where})")
        out.append("Waiting for: " + ", ".join(parts))
    sent = slot.simultaneous and session.file_slot(st, s.power) in s.contents.chain.collected
    if s.power in slot.actors and sent:
        n = len(s.data.orders.get(s.power, []))
        out.append(f"{s.power}: orders sent ({n} order{'s' if n != 1 else ''}); the phase resolves when every power's are in")
    elif s.power in slot.actors:
        n = len(s.data.taken.get(s.power, []))
        out.append(f"{s.power}: {n} action{'s' if n != 1 else ''} taken in this slot so far"
                   + (f", {s.reloads()} reload(s)" if s.reloads() else ""))
        try:
            unmet = engine.unmet_obligations(s.current(), s.power, _ctx(s))
        except IllegalAction:
            unmet = ()
        out.append("To do before end-phase: " + ("; ".join(unmet) if unmet else "nothing"))
    group = {Phase.SETUP: "setup", Phase.DIPLOMACY: "diplomacy", Phase.REINFORCEMENT: "reinforce",
             Phase.NAVAL: "naval", Phase.LAND: "land", Phase.ECONOMIC: "economy"}[slot.phase]
    mine = [p for p, _ in waiting if p in s.local]
    if mine:
        what = f"'eiapbem {group} --help' lists the commands of this phase, then " if impl else ""
        who = "" if len([r for r in s.local if r != "host"]) == 1 else (f" --power {mine[0]}" if len(mine) == 1 else " --power POWER")
        out.append(f"Next: {', '.join(mine)} to play: {what}'eiapbem end-phase{who}'")
    elif waiting:
        out.append("Next: when their files arrive, put them in commin/ and run 'eiapbem load'")
    out.extend(s.battle_lines())
    # The questions of the slot so far (a battle started by this power's actions waits in them).
    try:
        pend = list((s.current() if s.power in slot.actors else st).pending.values())
    except IllegalAction:
        pend = list(st.pending.values())
    out.append("Pending decisions: " + (", ".join(f"{d.id} for {d.power} ({d.kind}: {'/'.join(d.options)})" for d in pend) or "none"))
    missing = [str(p) for p in Phase if not engine.phase_implemented(p)]
    if missing:
        out.append("Not implemented yet: " + ", ".join(missing) + " (these phases accept only end-phase)")
    partly = [f"{p} (not yet: {engine.phase_gaps(p)})" for p in Phase if engine.phase_implemented(p) and engine.phase_gaps(p)]
    if partly:
        out.append("Partly built: " + "; ".join(partly))
    last = s.journal(5)
    if last:
        out.append("Last log lines:")
        out.extend(f"  [{e.slot}] {fog.log_text(st, e, viewers(s))}" for e in last)
    return out


def viewers(s: Session) -> set[str]:
    """The powers whose eyes this folder's display uses (Fog of War, 4.1.1): the acting power, or the
    host's folder's own powers."""
    if s.power in POWERS:
        return {s.power}
    return {r for r in s.local if r in POWERS}


def _in_home(path: Path) -> Path:
    """A relative path that is not found here is looked for in the --home folder."""
    if path.is_absolute() or path.exists():
        return path
    return _home() / path


def _ctx(s: Session) -> Any:
    from eiapbem.data.context import rules_context

    return rules_context(s.slot_dice())


def _parse_player(text: str) -> newgame.Player:
    parts = text.split(":")
    if len(parts) == 2 and parts[1].strip().lower().startswith("ai-"):
        kind = parts[1].strip().lower()  # POWER:ai-hard: the computer needs no name or address (4.2.3)
        return newgame.Player(parts[0].strip().upper(), f"Computer ({kind})", "", kind)
    if len(parts) != 4:
        raise click.BadParameter(f"{text!r}: write POWER:NAME:EMAIL:TYPE, e.g. FR:Anna:anna@example.org:client, "
                                 "or POWER:ai-easy|ai-medium|ai-hard for a computer player")
    return newgame.Player(parts[0].strip().upper(), parts[1].strip(), parts[2].strip(), parts[3].strip().lower())


def _pairs(items: tuple[str, ...], what: str, conv: Callable[[str], Any] = str) -> dict[str, Any]:
    out = {}
    for it in items:
        if "=" not in it:
            raise click.BadParameter(f"{it!r}: write {what} as POWER=VALUE")
        k, v = it.split("=", 1)
        try:
            out[k.strip().upper()] = conv(v)
        except ValueError as err:
            raise click.BadParameter(f"{it!r}: the value is not a whole number") from err
    return out


def register(cli: click.Group) -> None:
    @cli.command("new")
    @click.argument("game")
    @click.option("--scenario", required=True, metavar="NAME|FILE",
                  help="The scenario: classic-1805 or alternate-1805 (5.3.1, 5.3.2), or a scenario file made with "
                       "'eiapbem scenario' (14.5).")
    @click.option("--player", "players", multiple=True, metavar="POWER:NAME:EMAIL:TYPE",
                  help="One per power. TYPE: host (your own power), client (plays by email), hotseat (plays at this computer), "
                       "ai-easy, ai-medium or ai-hard (the computer; write just POWER:ai-hard). "
                       "With --import-bids: POWER:TYPE (name and address come from the selection; a power not named is a client).")
    @click.option("--host", "host", metavar="NAME:EMAIL", help="The host's name and address, when the host plays no power.")
    @click.option("--bid", "bids", multiple=True, metavar="POWER=N", help="Victory point bid of a power (4.2.2, 12.1.1).")
    @click.option("--option", "flags", multiple=True, type=click.Choice(sorted(f.replace("_", "-") for f in Options.__dataclass_fields__)),
                  help="A game option of 4.1.1 to turn on (may be repeated).")
    @click.option("--password", "passwords", multiple=True, metavar="POWER=PASSWORD",
                  help="Password of a power played at this computer (with the option pbem-hotseat-passwords asked for when missing, "
                       "else the host's password is used; with --import-bids, "
                       "default: the game password of that power's bid).")
    @click.option("--host-password", envvar="EIAPBEM_HOST_PASSWORD", help="Password of the host's key (asked for when missing).")
    @click.option("--import-bids", "sel_file", type=click.Path(path_type=Path, dir_okay=False),
                  help="A GAP selection GameName.sel (4.2.11): players, bids, pre-existing wars and the GB-FR option.")
    @click.option("--arbitrator-key", "arb_key", type=click.Path(path_type=Path, dir_okay=False),
                  help="With --import-bids: the arbitrator's private key file the selection is sealed to.")
    @click.option("--arbitrator-password-file", "arb_pw_file", type=click.Path(path_type=Path, dir_okay=False),
                  help="With --import-bids: read the arbitrator key's password from this file (one line); "
                       "else EIAPBEM_ARBITRATOR_PASSWORD, else it is asked for.")
    def new(game: str, scenario: str, players: tuple[str, ...], host: str | None, bids: tuple[str, ...],
            flags: tuple[str, ...], passwords: tuple[str, ...], host_password: str | None, sel_file: Path | None,
            arb_key: Path | None, arb_pw_file: Path | None) -> None:
        """Create a new game as its host (manual: New Game, Host email game)."""
        pw = _pairs(passwords, "a password")
        wars: list = []
        if sel_file is not None:
            plist, bid_map, wars, flags, sel_pw = _import_bids(game, _in_home(sel_file), arb_key, arb_pw_file, players, bids, flags)
            for p in plist:
                if p.type in ("host", "hotseat") and p.power not in pw:
                    pw[p.power] = sel_pw[p.power]
        else:
            if not players:
                raise click.UsageError("give one --player per power, or --import-bids GameName.sel")
            plist = [_parse_player(p) for p in players]
            bid_map = _pairs(bids, "a bid", int)
        for p in plist:
            # Without 4.1.1 PBEM-Hotseat Passwords a power at this computer may use the host's password.
            if p.type in ("host", "hotseat") and p.power not in pw and "pbem-hotseat-passwords" in flags:
                pw[p.power] = click.prompt(f"Password for {p.power} ({p.name})", hide_input=True, confirmation_prompt=True)
        if host_password is None:
            host_password = click.prompt("Password for the host's key", hide_input=True, confirmation_prompt=True)
        hp = None
        if host:
            if ":" not in host:
                raise click.BadParameter("write --host as NAME:EMAIL")
            hp = Person(*host.split(":", 1))
        from eiapbem.data import scenario_file

        if scenario_file.is_file_ref(scenario):
            scenario = str(_in_home(Path(scenario)))
        created = newgame.new_game(_home(), game, scenario, plist, bids=bid_map,
                                   options=newgame.options_from_flags(list(flags)), passwords=pw,
                                   host_password=host_password, host=hp, wars=wars)
        click.echo(f"Created {game} ({scenario}); your save is save/{game}.sav.")
        click.echo(f"Gamestart file: commout/{created.gamestart.name}")
        if sel_file is not None:
            click.echo("From the GAP selection: " + ", ".join(f"{p.power} {p.name} <{p.email}> bid {bid_map[p.power]}" for p in plist))
            if wars:
                click.echo("Pre-existing wars (4.2.10): " + ", ".join(f"{a} on {t}" for a, t in wars))
        for p, otp in created.one_time.items():
            click.echo(f"  {p}: send commout/{game}_gamestart_for_{p_name(p)}.eml (gamestart + key file); "
                       f"tell the one-time password separately: {otp}")
        if created.session_roles:
            click.echo(f"Played at this computer: {', '.join(created.session_roles)}. "
                       "Russia sets up first (5.3): 'eiapbem status' says who is due.")

    def _import_bids(game: str, sel_file: Path, arb_key: Path | None, arb_pw_file: Path | None, players: tuple[str, ...],
                     bids: tuple[str, ...], flags: tuple[str, ...]) -> tuple:
        import os

        from eiapbem.cli.gap_cmd import _password
        from eiapbem.gap import files as gapfiles

        if arb_key is None:
            raise click.UsageError("--import-bids needs --arbitrator-key (the selection is sealed to the arbitrator)")
        if bids:
            raise click.UsageError("with --import-bids the bids come from the selection; leave out --bid")
        types = {}
        for text in players:
            parts = text.split(":")
            if len(parts) != 2:
                raise click.BadParameter(f"{text!r}: with --import-bids write --player POWER:TYPE, e.g. RU:host")
            types[parts[0].strip().upper()] = parts[1].strip().lower()
        if arb_pw_file is None and os.environ.get("EIAPBEM_ARBITRATOR_PASSWORD"):
            password = os.environ["EIAPBEM_ARBITRATOR_PASSWORD"]
        else:
            password = _password(_in_home(arb_pw_file) if arb_pw_file else None, "Password of the arbitrator key", confirm=False)
        me = gapfiles.load_arbitrator_key(_in_home(arb_key), password)
        sel = gapfiles.read_selection(sel_file, me, game=game)
        plist, bid_map, wars = newgame.players_from_selection(sel, types)
        flags = tuple(flags)
        if sel.gb_fr_war and "gb-and-fr-start-at-war" not in flags:
            flags += ("gb-and-fr-start-at-war",)
        return plist, bid_map, wars, flags, {row.power: row.password for row in sel.powers}

    def p_name(p: str) -> str:
        from eiapbem.pbem.folders import POWER_NAMES as FILE_NAMES

        return FILE_NAMES[p]

    @cli.command("join")
    @click.argument("gamestart", type=click.Path(path_type=Path, dir_okay=False))
    @click.option("--power", type=click.Choice(list(POWERS)), required=True, help="The power you play.")
    @click.option("--email", required=True, help="Your email address, as the host registered it (4.2.2 client step 3).")
    @click.option("--key", "key_file", type=click.Path(path_type=Path, dir_okay=False),
                  help="Your key file from the host (default: GameName_<POWER>.key beside the gamestart).")
    @click.option("--one-time-password", envvar="EIAPBEM_ONE_TIME_PASSWORD", help="The one-time password the host told you.")
    @click.option("--password", envvar="EIAPBEM_PASSWORD", help="Your own new password (asked for when missing).")
    @click.option("--scenario", "scenario_path", type=click.Path(path_type=Path, dir_okay=False),
                  help="Your copy of the game's scenario file, when it is not a shipped one (14.6); its hash must be the host's.")
    def join_cmd(gamestart: Path, power: str, email: str, key_file: Path | None, one_time_password: str | None,
                 password: str | None, scenario_path: Path | None) -> None:
        """Join a game from its gamestart file (manual: Load email game)."""
        if one_time_password is None:
            one_time_password = click.prompt("One-time password from the host", hide_input=True)
        if password is None:
            password = click.prompt(f"Your new password for {power}", hide_input=True, confirmation_prompt=True)
        s = newgame.join(_home(), _in_home(gamestart), power, one_time_password, password, email,
                         _in_home(key_file) if key_file else None,
                         _in_home(scenario_path) if scenario_path else None)
        click.echo(f"Joined {s.game} as {POWER_NAMES[power]}; your save is save/{s.game}.sav and your key {s.game}_{power}.key.")
        click.echo("Put the files the others send you into commin/ and run 'eiapbem load'; 'eiapbem status' says what is due.")

    @cli.command("load")
    @click.argument("file", required=False, type=click.Path(path_type=Path, dir_okay=False))
    @game_options
    def load(file: Path | None, game: str | None, power: str | None, password: str | None) -> int:
        """Load the turn files waiting in commin/ in order, or only FILE: a turn file, a battle file battles/NAME (4.2.7) or a backup (manual: Load Email Turn File)."""
        if file is not None and file.name.endswith(".sav") and "_backup_forplayer_" in file.name:
            from eiapbem.host import admin

            if password is None:
                password = click.prompt("Your password", hide_input=True)
            b = admin.load_backup(_home(), _in_home(file), password, role=power)
            click.echo(f"loaded the backup {file.name}: backup epoch {b.contents.chain.epoch}; files made before it are obsolete")
            return 0
        s = open_session(game, power, password)
        if file is not None:
            file = _in_home(file)
            slot = s.load_path(file)
            click.echo(f"loaded {file.name} ({slot})")
            return 0
        rep = s.load_all()
        for name, slot in rep.loaded:
            click.echo(f"loaded {name} ({slot})")
        if rep.obsolete:
            click.echo(f"ignored {len(rep.obsolete)} obsolete file(s) made before the host's last backup (4.2.8)")
        for name, why in rep.refused:
            click.echo(f"eiapbem: refused {name}: {why}", err=True)
        if not rep.loaded and not rep.refused and not rep.obsolete:
            click.echo("no new files in commin/")
        return 1 if rep.refused and not rep.loaded else 0

    @cli.command("status")
    @game_options
    def status(game: str | None, power: str | None, password: str | None) -> None:
        """Date, phase, whose turn, files awaited, pending decisions and the last log lines."""
        for line in _status_lines(open_session(game, power, password)):
            click.echo(line)

    @cli.command("log")
    @click.option("-n", "count", type=click.IntRange(1), default=40, show_default=True, help="How many lines.")
    @game_options
    def log(count: int, game: str | None, power: str | None, password: str | None) -> None:
        """The public game log (every player sees the same lines)."""
        s = open_session(game, power, password)
        for e in s.journal(count):
            text = fog.log_text(s.state, e, viewers(s))  # 4.1.1 Fog of War hides others' battles
            click.echo(f"[{e.slot}] {text}" if e.author != "host" else f"[{e.slot}] (host) {text}")

    @cli.command("end-phase")
    @game_options
    def end_phase(game: str | None, power: str | None, password: str | None) -> None:
        """End your slot, write the turn file and its email draft, save (manual: End Current Phase)."""
        s = open_session(game, power, password)
        path = s.end_phase()
        click.echo(f"{s.power} ended its slot; turn file commout/{path.name}"
                   + (" (+ .eml draft to send)" if path.with_name(path.name + ".eml").exists() else ""))
        for line in _status_lines(s)[1:4]:
            click.echo(line)

    @cli.command("restart")
    @game_options
    def restart(game: str | None, power: str | None, password: str | None) -> None:
        """Take back every action of your slot; the restart is counted and shown to all (4.2.7)."""
        s = open_session(game, power, password)
        n = s.restart()
        click.echo(f"took back {n} action(s); the next action counts as a reload of this slot")

    @cli.command("answer")
    @click.argument("decision")
    @click.argument("choice")
    @game_options
    def answer(decision: str, choice: str, game: str | None, power: str | None, password: str | None) -> None:
        """Answer a pending decision ('eiapbem status' lists them)."""
        s = open_session(game, power, password)
        for e in s.act(AnswerDecision(decision, choice)).events:
            click.echo(e.text)
        if s.last_battle_file is not None and not any(e["attacker"] in s.local for e in s.data.battles.get("answer", {}).values()):
            click.echo(f"your reply is battles/{s.last_battle_file.name}: send it to your opponent (4.2.7)")
        for line in s.battle_lines():
            click.echo(line)

    @cli.group("show")
    def show_group() -> None:
        """What the manual's info boxes show: an area, a unit, a power, the counter pool."""

    @show_group.command("area")
    @click.argument("area")
    @game_options
    def show_area(area: str, game: str | None, power: str | None, password: str | None) -> None:
        """The Status Panel of a land area: terrain, city, port, control, units."""
        s = open_session(game, power, password)
        for line in show.area(s.current(), _ctx(s).map, area, viewers(s)):
            click.echo(line)

    @show_group.command("unit")
    @click.argument("unit")
    @game_options
    def show_unit(unit: str, game: str | None, power: str | None, password: str | None) -> None:
        """A corps, fleet, depot, garrison or leader."""
        s = open_session(game, power, password)
        for line in show.unit(s.current(), unit, viewers(s)):
            click.echo(line)

    @show_group.command("power")
    @click.argument("which", required=False)
    @game_options
    def show_power(which: str | None, game: str | None, power: str | None, password: str | None) -> None:
        """A major power: money, manpower, status, wars, alliances, forces."""
        s = open_session(game, _viewer(game, power, which), password)
        for line in show.power(s.current(), (which or s.power).upper()):
            click.echo(line)

    @show_group.command("pool")
    @click.argument("which", required=False)
    @game_options
    def show_pool(which: str | None, game: str | None, power: str | None, password: str | None) -> None:
        """The counter pool: counters, leaders, factors and ships not yet placed (manual: View Available Counters)."""
        s = open_session(game, _viewer(game, power, which), password)
        for line in show.pool(s.current(), (which or s.power).upper()):
            click.echo(line)

    from .actions_cmd import phase_group

    setup_group = phase_group(cli, Phase.SETUP)

    @setup_group.command("save")
    @click.argument("name")
    @game_options
    def setup_save(name: str, game: str | None, power: str | None, password: str | None) -> None:
        """Save the forces placed so far as a setup file (manual: Save Current Forces Setup)."""
        s = open_session(game, power, password)
        path = setups.save_setup(s, name)
        click.echo(f"saved setups/{path.name}")

    @setup_group.command("load")
    @click.argument("which")
    @game_options
    def setup_load(which: str, game: str | None, power: str | None, password: str | None) -> None:
        """Place forces from a setup FILE, or from the shipped 'default' setup (manual: Load A Saved Setup)."""
        s = open_session(game, power, password)
        n = setups.load_setup(s, which)
        click.echo(f"{s.power}: {n} setup actions applied")
        unmet = engine.unmet_obligations(s.current(), s.power, _ctx(s))
        click.echo("still to do: " + unmet[0] if unmet else "every factor and ship is placed; 'eiapbem end-phase' ends your setup")

    @cli.command("demo")
    @click.option("--folder", type=click.Path(path_type=Path, file_okay=False), help="Keep the game in this folder (default: a temporary one).")
    def demo(folder: Path | None) -> None:
        """Play a short hot-seat game: seven powers set up with the defaults and play one month."""
        from eiapbem.client.demo import run_demo

        run_demo(folder, click.echo)
