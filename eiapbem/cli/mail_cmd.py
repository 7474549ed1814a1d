"""``eiapbem mail``: setup, send, fetch, sync through the player's own mail account (issue 22).

The game's password comes from ``--password`` / ``EIAPBEM_PASSWORD`` (for the
host's folder, which acts as the host: ``EIAPBEM_HOST_PASSWORD``), the mail
password from ``EIAPBEM_MAIL_PASSWORD``, the system keyring or a prompt.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import click

from eiapbem.client import mail, session
from eiapbem.pbem import envelope
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


def _mail_password(cfg: mail.MailConfig) -> str:
    return mail.find_password(cfg, lambda: click.prompt(f"Mail password for {cfg.user}", hide_input=True))


def _echo_fetch(rep: mail.FetchReport) -> None:
    for name, subject in rep.saved:
        click.echo(f"fetched {name} (from {subject!r})")
    for what, why in rep.ignored:
        click.echo(f"ignored {what}: {why}")


def _echo_load(loaded: list, refused: list) -> None:
    for name, slot in loaded:
        click.echo(f"loaded {name} ({slot})")
    for name, why in refused:
        click.echo(f"eiapbem: refused {name}: {why}", err=True)


def _echo_send(rep: mail.SendReport) -> None:
    for label, to in rep.sent:
        click.echo(f"sent {label} to {', '.join(to)}")
    for label, why in rep.failed:
        click.echo(f"eiapbem: {label} {why}", err=True)
    for w in rep.warnings:
        click.echo(f"eiapbem: warning: {w}", err=True)


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
    @click.option("--smtp-tls", type=click.Choice(mail.TLS_MODES), default="starttls", show_default=True,
                  help="ssl: implicit TLS; starttls; none: only for a server on this computer (tests).")
    @click.option("--imap-host", required=True, help="The incoming (IMAP) server.")
    @click.option("--imap-port", type=click.IntRange(1, 65535), help="Default: 993 for ssl, 143 otherwise.")
    @click.option("--imap-tls", type=click.Choice(mail.TLS_MODES), default="ssl", show_default=True)
    @click.option("--folder", default="INBOX", show_default=True, help="The IMAP folder the game's mail arrives in.")
    @click.option("--move-to", default="", help="Move handled mail to this IMAP folder (it must exist); default: leave it.")
    @click.option("--keyring", "use_keyring", is_flag=True, help="Ask for the mail password now and keep it in the system keyring.")
    def setup(address: str, name: str, user: str | None, smtp_host: str, smtp_port: int | None, smtp_tls: str,
              imap_host: str, imap_port: int | None, imap_tls: str, folder: str, move_to: str, use_keyring: bool) -> None:
        """Store this folder's mail servers and address in mail/config.json (never the password)."""
        cfg = mail.MailConfig(
            address=address, name=name, user=user or address, smtp_host=smtp_host,
            smtp_port=smtp_port or (465 if smtp_tls == "ssl" else 587 if smtp_tls == "starttls" else 25), smtp_tls=smtp_tls,
            imap_host=imap_host, imap_port=imap_port or (993 if imap_tls == "ssl" else 143), imap_tls=imap_tls,
            folder=folder, move_to=move_to).check()
        if use_keyring:
            if mail.keyring_module() is None:
                raise mail.MailError("there is no system keyring here (the Python package 'keyring' is not installed)",
                                     hint=f"set {mail.PASSWORD_ENV} instead, or type the password when asked")
            pw = click.prompt(f"Mail password for {cfg.user}", hide_input=True, confirmation_prompt=True)
            if not mail.store_in_keyring(cfg, pw):
                raise mail.MailError("the system keyring refused to store the password; nothing was changed")
        path = mail.save_config(_home(), cfg)
        click.echo(f"mail set-up saved in {path.relative_to(_home()) if path.is_relative_to(_home()) else path}: "
                   f"SMTP {cfg.smtp_host}:{cfg.smtp_port} ({cfg.smtp_tls}), IMAP {cfg.imap_host}:{cfg.imap_port} "
                   f"({cfg.imap_tls}) folder {cfg.folder}, as {cfg.user} <{cfg.address}>")
        click.echo(f"The password is not stored here: give it in {mail.PASSWORD_ENV}, the keyring (--keyring) or when asked.")

    @mail_group.command("send")
    @click.option("--mark-sent", is_flag=True, help="Mark every current draft as sent without sending (you sent them by hand).")
    @click.option("--tries", type=click.IntRange(1, 10), default=mail.TRIES, show_default=True,
                  help="Tries per message when the server refuses for now (4xx) or drops the connection.")
    @click.option("--retry-wait", type=click.FloatRange(0, 600), default=mail.RETRY_WAIT, show_default=True,
                  help="Seconds between tries.")
    @_game_opts
    def send(mark_sent: bool, tries: int, retry_wait: float, game: str | None, power: str | None, password: str | None) -> int:
        """Send every unsent draft of commout/ and your battle files of battles/, each once."""
        cfg = mail.load_config(_home())
        name, me = _identity(game, power, password)
        s = Session.open_with(_home(), name, me)
        if mark_sent:
            click.echo(f"marked {mail.mark_all_sent(_home(), cfg, s)} draft(s) as sent")
            return 0
        rep = mail.send_all(_home(), cfg, _mail_password(cfg), s, tries=tries, wait=retry_wait)
        _echo_send(rep)
        if not rep.sent and not rep.failed:
            click.echo("nothing to send")
        return 1 if rep.failed else 0

    @mail_group.command("fetch")
    @click.option("--folder", help="The IMAP folder to read (default: the set-up's).")
    @click.option("--move-to", help="Move handled mail to this IMAP folder (default: the set-up's).")
    @click.option("--join", "join", metavar="GAME", help="Before joining: fetch only GAME's gamestart and key file into commin/.")
    @_game_opts
    def fetch(folder: str | None, move_to: str | None, join: str | None, game: str | None, power: str | None,
              password: str | None) -> int:
        """Save the game's files from your mail into commin/ and battles/, then load them as 'eiapbem load' does."""
        cfg = mail.load_config(_home())
        if join is not None:
            session.folders.check_game_name(join)
            rep = mail.fetch(_home(), cfg, _mail_password(cfg), None, join=join, move_to=move_to, folder=folder)
            _echo_fetch(rep)
            click.echo(f"now join with 'eiapbem join commin/{join}_gamestart.pbm --power POWER --email ADDRESS'"
                       if any(n.endswith("_gamestart.pbm") for n, _ in rep.saved) or (_home() / "commin" / f"{join}_gamestart.pbm").is_file()
                       else f"no gamestart of {join} has arrived yet")
            return 0
        if not session.game_names(_home()):
            raise mail.MailError("this folder plays no game yet; to fetch the gamestart and key file the host mailed you, "
                                 "say which game: 'eiapbem mail fetch --join GAME'")
        name, me = _identity(game, power, password)
        s = Session.open_with(_home(), name, me)
        rep = mail.fetch(_home(), cfg, _mail_password(cfg), s, move_to=move_to, folder=folder)
        _echo_fetch(rep)
        n = len(rep.ignored)
        loaded, refused = mail.load_fetched(s, rep)
        _echo_fetch(mail.FetchReport(ignored=rep.ignored[n:]))
        _echo_load(loaded, refused)
        if not rep.saved and not loaded and not refused:
            click.echo("no new files")
        return 1 if refused and not loaded else 0

    @mail_group.command("sync")
    @click.option("--every", type=click.FloatRange(0.05), metavar="MINUTES", help="Run a round every MINUTES (else one round).")
    @click.option("--once", is_flag=True, help="One round (the default without --every).")
    @click.option("--max-rounds", type=click.IntRange(1), help="With --every: stop after this many rounds (else it runs until stopped).")
    @click.option("--level", type=click.Choice(("ai-easy", "ai-medium", "ai-hard")), default="ai-medium", show_default=True,
                  help="The computer's level when the lateness ladder lets it play a late slot.")
    @click.option("--reminders-by-mail", is_flag=True,
                  help="The ladder's two reminders go by mail only, not into the game log (the late slot keeps its dice).")
    @click.option("--now", "now_text", metavar="'YYYY-MM-DD HH:MM'", help="The host's clock in UTC (tests; else EIAPBEM_NOW or the wall clock).")
    @click.option("--tries", type=click.IntRange(1, 10), default=mail.TRIES, show_default=True,
                  help="Tries per message when the server refuses for now (4xx) or drops the connection.")
    @click.option("--retry-wait", type=click.FloatRange(0, 600), default=mail.RETRY_WAIT, show_default=True,
                  help="Seconds between tries.")
    @_game_opts
    def sync(every: float | None, once: bool, max_rounds: int | None, level: str, reminders_by_mail: bool,
             now_text: str | None, tries: int,
             retry_wait: float, game: str | None, power: str | None, password: str | None) -> int:
        """Fetch, load, apply the host's lateness ladder, send: once, or every N minutes (the host runs it unattended)."""
        from eiapbem.host import lateness

        home = _home()
        cfg = mail.load_config(home)
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
                rep = mail.fetch(home, cfg, mpw, s)
                _echo_fetch(rep)
                len_ignored = len(rep.ignored)
                loaded, refused = mail.load_fetched(s, rep)
                _echo_fetch(mail.FetchReport(ignored=rep.ignored[len_ignored:]))
                _echo_load(loaded, refused)
                late = []
                if me.role == "host":
                    late = lateness.apply(s, lateness.now(now_text), level, log_reminders=not reminders_by_mail)
                    for line in late:
                        click.echo(f"late: {line}")
                srep = mail.send_all(home, cfg, mpw, s, tries=tries, wait=retry_wait)
                _echo_send(srep)
                failed = bool(srep.failed or refused)
                if not (rep.saved or loaded or refused or late or srep.sent or srep.failed):
                    click.echo(f"round {n}: nothing new")
            except mail.MailError as err:
                if rounds == 1:
                    raise
                failed = True
                click.echo(f"eiapbem: round {n}: {err}; trying again next round", err=True)
        return 1 if failed else 0
