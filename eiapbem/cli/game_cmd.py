"""Playing a game: new, join, load, log, end-phase, restart, answer, setup save/load, demo (status: status_cmd.py, show: show_cmd.py).

Every command that opens a game takes ``--game`` (when the folder holds
several), ``--power`` (when it plays several, hot-seat 4.2.1) and
``--password`` (or the ``EIAPBEM_PASSWORD`` environment variable; asked for
when missing).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable

import click

from eiapbem.rules.model import POWER_NAMES, POWERS, Options

if TYPE_CHECKING:  # imported where used: the commands here need neither the game maker nor the rules engine
    from eiapbem.client import newgame

from .common import confirm_or_refuse, game_options, keep_record, home as _home, in_home as _in_home, open_session, phase_group, rules_ctx as _ctx


def _parse_player(text: str) -> newgame.Player:
    from eiapbem.client import newgame

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
                  help="A game option to turn on (may be repeated): those of 4.1.1 and eiapbem's own one-round-diplomacy "
                       "and full-pace (every reinforcement phase played; without it each human power's is skipped "
                       "while nothing is due, 13.9, until the player ends the setting).")
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
    @click.option("--house-rules", "ladder", metavar="REMIND,REMIND_ALL,AI_PLAY,OFFER_AFTER",
                  help="The lateness ladder 'eiapbem mail sync' applies (hours, hours, hours, missed slots; 0 = off), "
                       "e.g. 24,48,72,2; needs --option allow-pbem-host-functions.")
    def new(game: str, scenario: str, players: tuple[str, ...], host: str | None, bids: tuple[str, ...],
            flags: tuple[str, ...], passwords: tuple[str, ...], host_password: str | None, sel_file: Path | None,
            arb_key: Path | None, arb_pw_file: Path | None, ladder: str | None) -> None:
        """Create a new game as its host (manual: New Game, Host email game)."""
        house = None
        if ladder is not None:
            from eiapbem.host import lateness

            house = lateness.parse_rules(ladder)
            if "allow-pbem-host-functions" not in flags:
                raise click.UsageError("--house-rules is an admin act: add --option allow-pbem-host-functions")
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
        missing = [q for q in POWERS if q not in {p.power for p in plist}]
        if missing:  # said before any password is asked
            from eiapbem.core.errors import IllegalAction

            raise IllegalAction(f"every power needs a player; missing: {' '.join(missing)}",
                                hint=f"add --player {missing[0]}:ai-medium for a computer player (ai-easy, ai-hard), or "
                                     f"--player {missing[0]}:NAME:EMAIL:client for a player by email")
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
            from eiapbem.pbem.email import Person

            hp = Person(*host.split(":", 1))
        from eiapbem.data import scenario_file

        if scenario_file.is_file_ref(scenario):
            scenario = str(_in_home(Path(scenario)))
        from eiapbem.client import newgame

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
        own = [r for r in created.session_roles if r in POWERS]
        if len(own) == 1:  # the power a plain 'eiapbem status' opens here: its record is written now
            keep_record(_home(), game, own[0], pw.get(own[0]) or host_password)
        if house is not None:
            from eiapbem.client.session import Session
            from eiapbem.host import lateness

            s = Session.open(_home(), game, "host", host_password)
            path = lateness.set_house_rules(s, house)
            click.echo(f"House rules: admin file commout/{path.name} (+ .eml draft to every player); log: {s.journal(1)[-1].text}")

    def _import_bids(game: str, sel_file: Path, arb_key: Path | None, arb_pw_file: Path | None, players: tuple[str, ...],
                     bids: tuple[str, ...], flags: tuple[str, ...]) -> tuple:
        import os

        from .common import read_password as _password
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
        from eiapbem.client import newgame

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
        from eiapbem.client import newgame

        s = newgame.join(_home(), _in_home(gamestart), power, one_time_password, password, email,
                         _in_home(key_file) if key_file else None,
                         _in_home(scenario_path) if scenario_path else None)
        click.echo(f"Joined {s.game} as {POWER_NAMES[power]}; your save is save/{s.game}.sav and your key {s.game}_{power}.key.")
        click.echo("Put the files the others send you into commin/ and run 'eiapbem load'; 'eiapbem status' says what is due.")
        keep_record(_home(), s.game, power, password)  # so the first 'eiapbem status' answers at once

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
            click.echo(f"loaded the backup {file.name}: backup epoch {b.chain.epoch}; files made before it are obsolete")
            return 0
        s = open_session(game, power, password)
        if file is not None:
            from eiapbem.client import inbox

            file = _in_home(file)
            slot = inbox.load_one(s, file)
            click.echo(f"loaded {file.name} ({slot})")
            return 0
        rep = s.load_all()
        for name, slot in rep.loaded:
            click.echo(f"loaded {name} ({slot})")
        if rep.obsolete:
            click.echo(f"ignored {len(rep.obsolete)} obsolete file(s) made before the host's last backup (4.2.8)")
        for name, why in rep.refused:
            click.echo(f"eiapbem: refused {name}: {why}", err=True)
        from eiapbem.client import inbox

        for line in inbox.ignored(s.folders, s.game, s.local):
            click.echo(f"left alone: {line}")
        if not rep.loaded and not rep.refused and not rep.obsolete:
            seen = [f for f in s.folders.incoming(s.game) if f.suffix == ".pbm" and (f.parent / "done" / f.name).exists()]
            click.echo("no new files in commin/" + (f" ({len(seen)} file(s) there were loaded before: their copies are in "
                                                    "commin/done/, so commin/ may be cleared)" if seen else ""))
        return 1 if rep.refused and not rep.loaded else 0

    @cli.command("end-phase")
    @click.option("--seal-diplomacy", is_flag=True,
                  help="in your land slot or the economic phase: seal next month's diplomacy orders in this file "
                       "(those given with --next-month, or none), so that next month's diplomacy phase is one round "
                       "for you (6.0); orders given for next month are sealed without it")
    @click.option("--yes", is_flag=True, help="End the slot without asking, even when corps left aboard are destroyed (8.6.3) "
                                              "or a corps forages that a depot placed first could supply (10.3, 10.5).")
    @game_options
    def end_phase(yes: bool, game: str | None, power: str | None, password: str | None, seal_diplomacy: bool) -> None:
        """End your slot, write the turn file and its email draft, save (manual: End Current Phase)."""
        from eiapbem.client.orders import check_seal_slot
        from eiapbem.client.status import lost_at_end, status_lines, supply_before_combat, with_power
        from eiapbem.core.errors import EiaError, IllegalAction

        s = open_session(game, power, password)
        if seal_diplomacy:
            check_seal_slot(s.state, s.power)
        ahead = len(s.meta.ahead.get(s.power, ()))
        try:  # a land slot with no attack: its end supplies every corps (10.5), said first as 'land attack' says it
            from eiapbem.rules import engine

            now, ctx = s.current(), _ctx(s)
            lines, forage = supply_before_combat(now, s.power, ctx, ending=True)
            if lines and engine.unmet_obligations(now, s.power, ctx):
                lines, forage = [], False  # the end is refused for what is still to do: that is said instead
        except EiaError:
            lines, forage = [], False
        for line in lines:
            click.echo(line)
        others = [r for r in s.local if r != "host"]
        lost = [c.id for c in lost_at_end(s.current(), s.power)]
        if (forage or lost) and not yes:  # one question for both: a 'y' to foraging must not destroy a corps unsaid
            aboard = f"{', '.join(lost)} {'is' if len(lost) == 1 else 'are'} still aboard and would be destroyed (8.6.3)"
            why = ["a corps would forage that a depot placed first could supply (10.3, 10.5)"] if forage else []
            fix = ["place the depot ('eiapbem land create-depot --area AREA')"] if forage else []
            if lost:
                why.append(aboard)
                fix.append("disembark with 'eiapbem land disembark --corps ID --area AREA'")
            question = ("End the slot now, as above" + (f", although {aboard}?" if lost else "?") if forage
                        else f"{aboard}; end the slot anyway?")
            confirm_or_refuse(question, f"nothing ended: {'; and '.join(why)}", with_power(
                f"{', or '.join(fix)}, or run 'eiapbem end-phase --yes' to end the slot anyway", s.power, others))
        try:
            path = s.end_phase(seal_diplomacy=seal_diplomacy)
        except IllegalAction as err:
            waited = [p for p, _ in s.awaited()]
            others = [p for p in waited if p not in s.local]
            if others and s.power not in waited:  # nothing to end here: the others' files are due
                err.hint = (f"the game waits for {', '.join(others)}: when their files arrive, put them in commin/ "
                            "and run 'eiapbem load'")
            raise
        click.echo(f"{s.power} ended its slot; turn file commout/{path.name}"
                   + (" (+ .eml draft to send)" if path.with_name(path.name + ".eml").exists() else ""))
        if seal_diplomacy or ahead:
            click.echo(f"{s.power} sealed its diplomacy orders for next month in this file ({ahead} order(s) given for "
                       "it, with its diplomatic reactions): it plays no commit round then, only the reveal (6.0)")
        for line in status_lines(s)[1:4]:
            click.echo(line)

    @cli.command("restart")
    @game_options
    def restart(game: str | None, power: str | None, password: str | None) -> None:
        """Take back every action of your slot; the restart is counted and shown to all (4.2.7)."""
        s = open_session(game, power, password)
        n = s.restart()
        click.echo(f"took back {n} action(s); the next action counts as a reload of this slot")

    from eiapbem.client.actionforms import ANSWER_HELP

    @cli.command("answer", help=ANSWER_HELP)
    @click.argument("decision")
    @click.argument("choice")
    @game_options
    def answer(decision: str, choice: str, game: str | None, power: str | None, password: str | None) -> None:
        s = open_session(game, power, password)
        from eiapbem.core.errors import IllegalAction
        from eiapbem.rules.engine import AnswerDecision

        out = s.act(AnswerDecision(decision, choice))
        for e in out.events:
            click.echo(e.text)
        if not out.events:  # a battle's next step logs nothing until the battle ends: confirm the answer
            click.echo(f"{s.power} answered {decision}: {choice}")
        from eiapbem.client.status import answer_hint

        try:
            # In another folder's battle the next question comes in its next battle file, not from this
            # folder's own view of the slot (which still holds the question just answered).
            defending = s.defends(decision.split("/")[0])
            ask = answer_hint(s.battle_questions() if defending else s.current().pending.values(), list(s.local))
        except IllegalAction:  # the slot moved on (the answer ended it)
            ask = None
        if ask:
            click.echo(f"next: {ask}")
        reply = s.reply_to_send()
        if reply is not None:
            click.echo(f"your reply is battles/{reply.name}: send it to your opponent (4.2.7)")
        for line in s.battle_lines():
            click.echo(line)


    setup_group = phase_group(cli, "setup")

    @setup_group.command("save")
    @click.argument("name")
    @game_options
    def setup_save(name: str, game: str | None, power: str | None, password: str | None) -> None:
        """Save the forces placed so far as a setup file (manual: Save Current Forces Setup)."""
        from eiapbem.client import setups

        s = open_session(game, power, password)
        path = setups.save_setup(s, name)
        click.echo(f"saved setups/{path.name}")

    @setup_group.command("load")
    @click.argument("which")
    @game_options
    def setup_load(which: str, game: str | None, power: str | None, password: str | None) -> None:
        """Place forces from a setup FILE, or from the shipped 'default' setup (manual: Load A Saved Setup)."""
        from eiapbem.client import setups
        from eiapbem.rules import engine

        s = open_session(game, power, password)
        n = setups.load_setup(s, which)
        click.echo(f"{s.power}: {n} setup actions applied")
        from eiapbem.client.status import with_power

        unmet = engine.unmet_obligations(s.current(), s.power, _ctx(s))
        plays = [r for r in s.local if r != "host"]
        who = f" --power {s.power}" if len(plays) > 1 else ""
        click.echo("still to do: " + with_power(unmet[0], s.power, plays) if unmet else
                   f"every factor and ship is placed; 'eiapbem end-phase{who}' ends your setup")

    @cli.command("demo")
    @click.option("--folder", type=click.Path(path_type=Path, file_okay=False), help="Keep the game in this folder (default: a temporary one).")
    def demo(folder: Path | None) -> None:
        """Play a short hot-seat game: seven powers set up with the defaults and play one month."""
        from eiapbem.client.demo import run_demo

        run_demo(folder, click.echo)
