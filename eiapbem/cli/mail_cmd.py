"""``eiapbem mail``: setup, send, resend, fetch, sync through the player's own mail account (issue 22).

The game's password comes from ``--password`` / ``EIAPBEM_PASSWORD`` (for the
host's folder, which acts as the host: ``EIAPBEM_HOST_PASSWORD``), the mail
password from ``EIAPBEM_MAIL_PASSWORD``, the system keyring or a prompt.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import click

from eiapbem.client import mail, mail_bounces, mail_config, mail_fetch, mail_send, session
from eiapbem.pbem import envelope
from eiapbem.pbem.bodies import SaveMeta
from eiapbem.client.session import NoGame, Session


def _home() -> Path:
    from eiapbem.cli.common import home

    return home()


def _game_opts(f: Any) -> Any:
    f = click.option("--password", help="The game password of the role that acts (else EIAPBEM_PASSWORD, "
                     "or EIAPBEM_HOST_PASSWORD in the host's folder; asked for when missing).")(f)
    f = click.option("--power", type=click.Choice(list(envelope.POWERS) + ["host"]),
                     help="The role that acts (default: the host in the host's folder, else the one power played here).")(f)
    f = click.option("--game", help="The game's name, when this folder holds several.")(f)
    return f


def _identity(game: str | None, power: str | None, password: str | None) -> tuple[str, Any]:
    """The game and the unlocked identity of the acting role (kept for every round of a sync)."""
    import os

    home = _home()
    name = session.find_game(home, game)
    local = session.local_roles(home, name)
    if power is None:
        if "host" in local:
            power = "host"
        else:
            powers = [r for r in local if r != "host"]
            if len(powers) != 1:
                raise NoGame(f"this folder plays {', '.join(powers) or 'no role'}; say which acts with --power")
            power = powers[0]
    if password is None:
        password = os.environ.get("EIAPBEM_HOST_PASSWORD" if power == "host" else "EIAPBEM_PASSWORD")
    if password is None:
        password = click.prompt(f"Game password for {power}", hide_input=True)
    return name, session.open_identity(home, name, power, password)


def _mail_password(cfg: mail_config.MailConfig) -> str:
    return mail_config.find_password(cfg, lambda: click.prompt(f"Mail password for {cfg.user}", hide_input=True))


def _echo_fetch(rep: mail_fetch.FetchReport, meta: SaveMeta | None = None) -> None:
    for name, subject in rep.saved:
        click.echo(f"fetched {name} (from {subject!r})")
    for what, why in rep.ignored:
        click.echo(f"ignored {what}: {why}")
    who = mail_bounces.names_by_address(meta)
    for item in rep.bounces:
        click.echo(f"eiapbem: {mail_bounces.sentence(item, who)}", err=True)


def _echo_load(r: mail.LoadReport) -> None:
    for name, slot in r.loaded:
        click.echo(f"loaded {name} ({slot})")
    for name, why in r.notes:
        click.echo(f"ignored {name}: {why}")
    for name, why in r.waiting:
        click.echo(f"waiting {name}: {why}")
    for name, _, _, why in r.late:
        click.echo(f"too late {name}: {why}")
    for name, why in r.refused:
        click.echo(f"eiapbem: refused {name}: {why}", err=True)


def _tries(n: int, first: str) -> str:
    return f" (on try {n}; the first failed: {first})" if n > 1 else ""


def _echo_send(rep: mail_send.SendReport, verb: str = "sent") -> None:
    for label, to, n, first in rep.sent:
        click.echo(f"{verb} {label} to {', '.join(to)}{_tries(n, first)}")
    for label, why in rep.withdrawn:
        click.echo(f"withdrawn {label}: {why}")
    for label, why in rep.failed:
        click.echo(f"eiapbem: {label} {why}", err=True)
    for w in rep.warnings:
        click.echo(f"eiapbem: warning: {w}", err=True)
    if rep.retries:
        click.echo(f"{rep.retries} retr{'y' if rep.retries == 1 else 'ies'} after a dropped connection or a 'try later' answer")


def _round_echo(n: int, r: Any, meta: SaveMeta) -> None:
    """One round's report, one line per file or server."""
    if r.fetch_error:
        click.echo(f"eiapbem: round {n}: nothing fetched: {r.fetch_error}; the round goes on with what is here", err=True)
    _echo_fetch(r.fetch, meta)
    _echo_load(r.load)
    for line in r.told:
        click.echo(f"late: {line}")
    if r.ladder_held:
        click.echo("late: the lateness ladder waits for a round that can fetch (a late player's file may be in the mailbox)")
    for line in r.late:
        click.echo(f"late: {line}")
    if r.send_error:
        click.echo(f"eiapbem: round {n}: nothing sent: {r.send_error}", err=True)
    _echo_send(r.send)
    if r.empty():
        click.echo(f"round {n}: nothing new")


def register(cli: click.Group) -> None:
    @cli.group("mail")
    def mail_group() -> None:
        """Send and fetch the game's files through your own mail account (SMTP and IMAP)."""

    @mail_group.command("setup")
    @click.option("--address", required=True, help="Your email address (the game's files go out from it).")
    @click.option("--name", required=True, help="Your name as the mails show it.")
    @click.option("--user", help="The mail account's user name (default: the address).")
    @click.option("--smtp-host", required=True, help="The outgoing (SMTP) server.")
    @click.option("--smtp-port", type=click.IntRange(1, 65535), help="Default: 465 for ssl, 587 for starttls.")
    @click.option("--smtp-tls", type=click.Choice(mail_config.TLS_MODES), default="starttls", show_default=True,
                  help="ssl: implicit TLS; starttls; none: only for a server on this computer (tests).")
    @click.option("--imap-host", required=True, help="The incoming (IMAP) server.")
    @click.option("--imap-port", type=click.IntRange(1, 65535), help="Default: 993 for ssl, 143 otherwise.")
    @click.option("--imap-tls", type=click.Choice(mail_config.TLS_MODES), default="ssl", show_default=True)
    @click.option("--ca-file", type=click.Path(path_type=Path, dir_okay=False),
                  help="A PEM file of the certificate authority of your club's or family's own mail server, trusted "
                       "besides the system's (a provider's server needs none).")
    @click.option("--folder", default="INBOX", show_default=True, help="The IMAP folder the game's mail arrives in.")
    @click.option("--move-to", default="", help="Move handled mail to this IMAP folder (it must exist); default: leave it.")
    @click.option("--keyring", "use_keyring", is_flag=True, help="Ask for the mail password now and keep it in the system keyring.")
    def setup(address: str, name: str, user: str | None, smtp_host: str, smtp_port: int | None, smtp_tls: str,
              imap_host: str, imap_port: int | None, imap_tls: str, ca_file: Path | None, folder: str, move_to: str,
              use_keyring: bool) -> None:
        """Store this folder's mail servers and address in mail/config.json (never the password)."""
        ca = mail_config.check_ca_file(ca_file if ca_file.is_absolute() else Path.cwd() / ca_file) if ca_file else ""
        cfg = mail_config.MailConfig(
            address=address, name=name, user=user or address, smtp_host=smtp_host,
            smtp_port=smtp_port or (465 if smtp_tls == "ssl" else 587 if smtp_tls == "starttls" else 25), smtp_tls=smtp_tls,
            imap_host=imap_host, imap_port=imap_port or (993 if imap_tls == "ssl" else 143), imap_tls=imap_tls,
            folder=folder, move_to=move_to, ca_file=ca).check()
        if use_keyring:
            if mail_config.keyring_module() is None:
                raise mail_config.MailError("there is no system keyring here (the Python package 'keyring' is not installed)",
                                            hint=f"set {mail_config.PASSWORD_ENV} instead, or type the password when asked")
            pw = click.prompt(f"Mail password for {cfg.user}", hide_input=True, confirmation_prompt=True)
            if not mail_config.store_in_keyring(cfg, pw):
                raise mail_config.MailError("the system keyring refused to store the password; nothing was changed")
        path = mail_config.save_config(_home(), cfg)
        click.echo(f"mail set-up saved in {path.relative_to(_home()) if path.is_relative_to(_home()) else path}: "
                   f"SMTP {cfg.smtp_host}:{cfg.smtp_port} ({cfg.smtp_tls}), IMAP {cfg.imap_host}:{cfg.imap_port} "
                   f"({cfg.imap_tls}) folder {cfg.folder}, as {cfg.user} <{cfg.address}>"
                   + (f"; trusting the CA of {cfg.ca_file}" if cfg.ca_file else ""))
        click.echo(f"The password is not stored here: give it in {mail_config.PASSWORD_ENV}, the keyring (--keyring) or when asked.")

    def _send_opts(f: Any) -> Any:
        f = click.option("--retry-wait", type=click.FloatRange(0, 600), default=mail_config.RETRY_WAIT, show_default=True,
                         help="Seconds between tries.")(f)
        f = click.option("--tries", type=click.IntRange(1, 10), default=mail_config.TRIES, show_default=True,
                         help="Tries per message when the server refuses for now (4xx) or drops the connection.")(f)
        return f

    @mail_group.command("send")
    @click.option("--mark-sent", is_flag=True, help="Mark every current draft as sent without sending (you sent them by hand).")
    @_send_opts
    @_game_opts
    def send(mark_sent: bool, tries: int, retry_wait: float, game: str | None, power: str | None, password: str | None) -> int:
        """Send every unsent draft of commout/ and your battle files of battles/, each once."""
        cfg = mail_config.load_config(_home())
        name, me = _identity(game, power, password)
        s = Session.open_with(_home(), name, me)
        if mark_sent:
            click.echo(f"marked {mail_send.mark_all_sent(_home(), s)} draft(s) as sent")
            return 0
        rep = mail_send.send_all(_home(), cfg, _mail_password(cfg), s, tries=tries, wait=retry_wait)
        _echo_send(rep)
        if not rep.sent and not rep.failed and not rep.withdrawn:
            click.echo("nothing to send")
        return 1 if rep.failed else 0

    @mail_group.command("resend")
    @click.argument("file", required=False)
    @click.option("--to", "to", metavar="POWER|ADDRESS", help="Only to this recipient (a power of the game or a player's address).")
    @click.option("--unanswered", is_flag=True,
                  help="Every file sent whose recipient the game waits for and who has not answered it.")
    @_send_opts
    @_game_opts
    def resend(file: str | None, to: str | None, unanswered: bool, tries: int, retry_wait: float, game: str | None,
               power: str | None, password: str | None) -> int:
        """Send a file again (after a bounce, or to a player who lost it): FILE, or every file not yet answered.

        \b
        Examples: eiapbem mail resend Jena_1805-05_naval_FR.pbm --to AU
                  eiapbem mail resend --unanswered
        A receiver that has the file already ignores the copy.
        """
        if file is None and not unanswered:
            raise mail_config.MailError("say which file to send again (its name, as 'mail sync' printed it), "
                                        "or --unanswered for every file not yet answered")
        cfg = mail_config.load_config(_home())
        name, me = _identity(game, power, password)
        s = Session.open_with(_home(), name, me)
        rep = mail_send.resend(_home(), cfg, _mail_password(cfg), s, name=file, to=to, only_unanswered=unanswered,
                               tries=tries, wait=retry_wait)
        _echo_send(rep, "sent again")
        if not rep.sent and not rep.failed:
            click.echo("nothing to send again: every file sent has been answered by the players the game waits for")
        return 1 if rep.failed else 0

    @mail_group.command("fetch")
    @click.option("--folder", help="The IMAP folder to read (default: the set-up's).")
    @click.option("--move-to", help="Move handled mail to this IMAP folder (default: the set-up's).")
    @click.option("--join", "join", metavar="GAME", help="Before joining: fetch only GAME's gamestart and key file into commin/.")
    @_game_opts
    def fetch(folder: str | None, move_to: str | None, join: str | None, game: str | None, power: str | None,
              password: str | None) -> int:
        """Save the game's files from your mail into commin/ and battles/, then load them as 'eiapbem load' does."""
        cfg = mail_config.load_config(_home())
        if join is not None:
            session.folders.check_game_name(join)
            rep = mail_fetch.fetch(_home(), cfg, _mail_password(cfg), None, join=join, move_to=move_to, folder=folder)
            _echo_fetch(rep)
            click.echo(f"now join with 'eiapbem join commin/{join}_gamestart.pbm --power POWER --email ADDRESS'"
                       if any(n.endswith("_gamestart.pbm") for n, _ in rep.saved) or (_home() / "commin" / f"{join}_gamestart.pbm").is_file()
                       else f"no gamestart of {join} has arrived yet")
            return 0
        if not session.game_names(_home()):
            raise mail_config.MailError("this folder plays no game yet; to fetch the gamestart and key file the host mailed you, "
                                        "say which game: 'eiapbem mail fetch --join GAME'")
        name, me = _identity(game, power, password)
        s = Session.open_with(_home(), name, me)
        rep = mail_fetch.fetch(_home(), cfg, _mail_password(cfg), s, move_to=move_to, folder=folder)
        _echo_fetch(rep, s.meta)
        r = mail.load_fetched(s, rep)
        _echo_load(r)
        if me.role == "host":
            from eiapbem.host import lateness

            for line in lateness.tell_late(s, r.late):
                click.echo(f"late: {line}")
        if not (rep.saved or rep.bounces or r.loaded or r.refused or r.waiting or r.late):
            click.echo("no new files")
        return 1 if (r.refused and not r.loaded) or any(b[4] == "failed" for b in rep.bounces) else 0

    @mail_group.command("sync")
    @click.option("--every", type=click.FloatRange(0.05), metavar="MINUTES", help="Run a round every MINUTES (else one round).")
    @click.option("--once", is_flag=True, help="One round (the default without --every).")
    @click.option("--max-rounds", type=click.IntRange(1), help="With --every: stop after this many rounds (else it runs until stopped).")
    @click.option("--level", type=click.Choice(("ai-easy", "ai-medium", "ai-hard")), default="ai-medium", show_default=True,
                  help="The computer's level when the lateness ladder lets it play a late slot.")
    @click.option("--reminders-by-mail", is_flag=True,
                  help="The ladder's two reminders go by mail only, not into the game log (the late slot keeps its dice).")
    @click.option("--now", "now_text", metavar="'YYYY-MM-DD HH:MM'", help="The host's clock in UTC (tests; else EIAPBEM_NOW or the wall clock).")
    @_send_opts
    @_game_opts
    def sync(every: float | None, once: bool, max_rounds: int | None, level: str, reminders_by_mail: bool,
             now_text: str | None, tries: int,
             retry_wait: float, game: str | None, power: str | None, password: str | None) -> int:
        """Fetch, load, apply the host's lateness ladder, send: once, or every N minutes (the host runs it unattended).

        A server that cannot be reached stops only its half of the round: the other half goes on.
        """
        from eiapbem.host import lateness, mail_round

        home = _home()
        cfg = mail_config.load_config(home)
        name, me = _identity(game, power, password)
        mpw = _mail_password(cfg)
        rounds = 1 if once or every is None else max_rounds
        n = 0
        failed = False
        while rounds is None or n < rounds:
            if n:
                time.sleep(every * 60 if every else 0)
            n += 1
            try:
                s = Session.open_with(home, name, me)
                r = mail_round.run(home, cfg, mpw, s, clock=lateness.now(now_text), level=level,
                                   log_reminders=not reminders_by_mail, tries=tries, wait=retry_wait)
            except mail_config.MailError as err:
                if rounds == 1:
                    raise
                failed = True
                click.echo(f"eiapbem: round {n}: {err}; trying again next round", err=True)
                continue
            _round_echo(n, r, s.meta)
            failed = r.failed()
        return 1 if failed else 0
