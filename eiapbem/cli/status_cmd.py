"""``eiapbem status``: what the game waits for, answered from the status record beside the save when it is current.

A command of its own module so that a fresh ``status`` loads only this, ``cli/common.py`` and
``client/statusfile.py`` (with ``pbem/kdf.py``): the key file, the save, the state and the rules are opened
only when the record is missing, stale or not this password's (``statusfile.make`` writes it again).
"""

from __future__ import annotations

import click

from .common import echo_json, game_options, home, json_option, root, unlock


def register(cli: click.Group) -> None:
    @cli.command("status")
    @json_option
    @game_options
    def status(as_json: bool, game: str | None, power: str | None, password: str | None) -> None:
        """Date, phase, whose turn, files awaited, pending decisions and the last log lines."""
        from eiapbem.client import statusfile

        kept = None
        found = statusfile.locate(home(), game, power) if root().identity is None else None
        data = statusfile.current(home(), *found) if found else None
        if found and data:  # a current record: the password opens it, as it opens the key file
            if password is None:
                password = click.prompt(f"Password for {found[1]}", hide_input=True)
            kept = statusfile.read(home(), *found, password, data)
        if kept is None:
            h, name, me, key = unlock(game, power, password)
            kept = statusfile.make(h, name, me, key)
        if as_json:
            echo_json(kept["record"])
            return
        for line in kept["lines"]:  # with the sealed diplomacy phase's rounds and results (6.0)
            click.echo(line)
