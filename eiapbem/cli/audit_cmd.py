"""``eiapbem audit`` and ``eiapbem rebuild``: a whole game replayed from the files a folder holds (issues 20, 29)."""

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
        role = audit.role_for(home, name, power, "the audit")
        if password is None:
            password = ask_password(f"Password for {role}")
        res = audit.open_and_run(home, name, role, password)
        if as_json:
            click.echo(json.dumps(res.to_obj(), sort_keys=True))
        else:
            for line in res.lines():
                click.echo(line)
        return 0 if res.verified else 1

    @cli.command("rebuild")
    @game_options
    def rebuild_cmd(game: str | None, power: str | None, password: str | None) -> None:
        """Make the save again from the files this folder holds: for a save lost, damaged or older than the folder.

        Replays the gamestart and every file kept in commin/done/ and commout/sent/ (the folder's own files
        too, so no slot is played twice) through the checks of 'eiapbem load'; keeps the save it replaces
        as save/GAME.sav.before-rebuild.
        """
        from eiapbem.client import audit, rebuild

        home = _home()
        name = rebuild.game_of(home, game)
        role = audit.role_for(home, name, power, "the rebuild")
        if password is None:
            password = ask_password(f"Password for {role}")
        res = rebuild.open_and_run(home, name, role, password)
        for line in res.lines():
            click.echo(line)
