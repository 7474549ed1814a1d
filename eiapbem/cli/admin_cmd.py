"""``eiapbem admin``: the host's admin menu (4.2.8, 000:178-264), and its read-only commands ``admin status`` and
``admin saves``.  The menu's acts are in ``admin_acts_cmd.py``.

Every admin command opens the host's own save with the host's password (``--password`` or
``EIAPBEM_HOST_PASSWORD``).  A fresh ``admin status`` or ``admin saves`` answers from the host's status record
(``client/statusfile.py``, kept by every admin command; ``cli/answers.py``) when it is current: the hours a late
player has waited are written then from the time the wait began (``host/clock.py``).  This module imports no rules
at its top, so such an answer loads none.
"""

from __future__ import annotations

from typing import Any

import click

from . import answers
from .common import OPENED, echo_json, home as _home, json_option, root

HELP = "The host's admin menu (4.2.8): backups, replacing and skipping players, logged edits, sync checks."


def admin_menu(cli: click.Group) -> click.Group:
    """The ``admin`` group, made on first use (``admin_cmd`` and ``admin_acts_cmd`` add to it)."""
    group = cli.commands.get("admin")
    if group is None:
        group = click.Group("admin", help=HELP)
        cli.add_command(group)
    assert isinstance(group, click.Group)
    return group


def host_options(f: Any) -> Any:
    f = click.option("--password", envvar="EIAPBEM_HOST_PASSWORD", help="The host's password (asked for when missing).")(f)
    f = click.option("--game", help="The game's name, when this folder holds several.")(f)
    return f


def open_host(game: str | None, password: str | None) -> Any:
    """The host's open game (``client.session.Session``); a fresh process keeps the host's status record up to
    date as it ends (``common.OPENED``)."""
    from eiapbem.client.session import Session, find_game, local_roles, open_identity_keyed
    from eiapbem.client.statusfile import record_key
    from eiapbem.host import admin

    home = _home()
    name = find_game(home, game)
    if "host" not in local_roles(home, name):
        raise admin.NotHost("the admin menu is only available in the host's own save (4.2.2 step 6, 000:114); "
                            "this folder holds no host key", hint="run it in the host's folder")
    sitting = root().identity
    if sitting is not None and sitting[:2] == (name, "host"):  # 'eiapbem shell --power host': unlocked once
        return Session.open_with(home, name, sitting[2])
    if password is None:
        password = click.prompt("Password for the host", hide_input=True)
    from eiapbem.pbem.errors import NotForYou

    try:
        me, file_key, stanza = open_identity_keyed(home, name, "host", password)
        s = Session.open_with(home, name, me)
    except NotForYou as err:
        # The save is sealed to the roles the game still knows here: a host key it no longer names was handed on.
        raise admin.NotHost(f"this folder's host key is no longer the game's: the host role has been handed on (4.2.8, 000:208) ({err})",
                            hint="the new host runs the admin menu now") from err
    OPENED.append((home, name, me, record_key(stanza, file_key)))
    return s


def status_record(s: Any) -> dict:
    """``admin status --json`` (docs/json.md): the same facts as ``host.admin.status_lines``."""
    meta = s.meta
    head = meta.head
    return {"game": s.game, "epoch": s.chain.epoch,
            "host_functions": bool(s.state.options.allow_pbem_host_functions),
            "since": head.made if head else None, "head_file": head.file if head else None,
            "waiting": [{"slot": slot, "power": p, "name": meta.players[p].name, "email": meta.players[p].email,
                         "type": meta.players[p].type} for p, slot in s.awaited()],
            "reloads": {p: [{"slot": slot, "count": n} for slot, n in rows] for p, rows in meta.reloads.items()}}


def _status_kept(s: Any) -> dict | None:
    """What ``admin status`` prints, kept in the host's status record: its lines but the hours waited (the ladder's
    rows, ``host/clock.py``) and its ``--json``; None for another role's record."""
    if s.me.role != "host":
        return None
    from eiapbem.host import admin, lateness

    return {"rows": admin.status_lines(s) + lateness.ladder_rows(s), "json": status_record(s)}


def _status_answer(data: Any, kwargs: dict) -> tuple[str, str] | None:
    if not isinstance(data, dict):
        return None
    if kwargs.get("as_json"):
        return answers.as_json(data["json"]), ""
    from eiapbem.host.clock import now, waited_lines

    return "".join(f"{line}\n" for line in waited_lines(data["rows"], now())), ""


STATUS = answers.Kept("admin status", _status_kept, _status_answer)


def register(cli: click.Group) -> None:
    admin_group = admin_menu(cli)

    @admin_group.command("saves")
    @host_options
    @answers.read_only(role="host")
    def saves(game: str | None, password: str | None) -> None:
        """The host's automatic monthly saves (start of each diplomacy phase), by month."""
        from eiapbem.host import admin

        s = open_host(game, password)
        admin.require_host(s, edit=False)
        found = admin.monthly_saves(s)
        for month, path in found:
            click.echo(f"{month}  save/{path.name}")
        if not found:
            click.echo("no monthly saves yet: one is kept at the start of every month's diplomacy phase")

    @admin_group.command("status")
    @json_option
    @host_options
    @answers.read_only(role="host", kept=STATUS)
    def status(as_json: bool, game: str | None, password: str | None) -> None:
        """Who holds the game up: the slot awaited, its player, their address, since when; reloads reported; the lateness ladder."""
        from eiapbem.host import admin, lateness

        s = open_host(game, password)
        lines = admin.status_lines(s) + lateness.status_lines(s)  # refused here when the host functions are off
        if as_json:
            echo_json(status_record(s))
            return
        for line in lines:
            click.echo(line)
