"""``eiapbem audit``: re-verify and replay a whole game from a folder's files (issue 20 item 2)."""

from __future__ import annotations

import json

import click

from eiapbem.cli.common import game_options, home as _home
from eiapbem.cli.prompt import ask_password


def register(cli: click.Group) -> None:
    @cli.command("audit")
    @click.option("--json", "as_json", is_flag=True, help="Print the verdict as JSON.")
    @game_options
    def audit_cmd(as_json: bool, game: str | None, power: str | None, password: str | None) -> int:
        """Re-verify every file of the game from the gamestart on and replay it against this folder's save.

        Signatures, the hash chain, every die, admin files, battle files and backups are checked and every
        slot replayed; the verdict names the first point where anything disagrees.  Exit status 1 if it does.
        """
        from eiapbem.client import audit, session

        home = _home()
        name = session.find_game(home, game)
        role = power
        if role is None:
            local = session.local_roles(home, name)
            powers = [r for r in local if r != "host"]
            role = powers[0] if len(powers) == 1 else "host"
        if password is None:
            password = ask_password(f"Password for {role}")
        res = audit.open_and_run(home, name, role, password)
        if as_json:
            click.echo(json.dumps(res.to_obj(), sort_keys=True))
        else:
            for line in res.lines():
                click.echo(line)
        return 0 if res.verified else 1
