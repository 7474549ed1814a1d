"""``eiapbem status`` and ``eiapbem log``: what the game waits for and its public log, answered from the status record
beside the save when it is current.

Commands of their own module so that a fresh ``status`` or ``log`` loads only this, ``cli/common.py`` and
``client/statusfile.py`` (with ``pbem/kdf.py``): the key file, the save, the state and the rules are opened
only when the record is missing, stale or not this password's (``statusfile.make`` writes it again).
"""

from __future__ import annotations

import sys

import click

from typing import Any

from .answers import kept_record, precompute
from .common import echo_json, game_options, home, json_option, open_session, unlock


def register(cli: click.Group) -> None:
    @cli.command("status")
    @json_option
    @game_options
    def status(as_json: bool, game: str | None, power: str | None, password: str | None) -> None:
        """Date, phase, whose turn, files awaited, pending decisions and the last log lines."""
        from eiapbem.client import statusfile

        kept, password = kept_record(game, power, password)  # the password opens it, as it opens the key file
        if kept is None:
            h, name, me, key = unlock(game, power, password)
            kept = statusfile.make(h, name, me, key, precompute)
        if as_json:
            echo_json(kept["record"])
            return
        for line in kept["lines"]:  # with the sealed diplomacy phase's rounds and results (6.0)
            click.echo(line)

    @cli.command("log")
    @click.option("-n", "count", type=click.IntRange(0), default=40, show_default=True,
                  help="How many lines (the last ones); 0: every line of the game.")
    @json_option
    @game_options
    def log(count: int, as_json: bool, game: str | None, power: str | None, password: str | None) -> None:
        """The public game log (every player sees the same lines)."""
        from eiapbem.client import statusfile

        kept, password = kept_record(game, power, password)
        lines: list[Any] | None = None
        if count == 0:
            count = sys.maxsize
        if kept is not None and (count <= len(kept["log"]) or kept["log_all"]):
            lines = kept["log"][-count:]  # made with the status at the same opening (client/statusfile.py)
        elif kept is not None:
            lines = statusfile.older_log(home(), kept, count)  # the older lines from the journal's segments
        if lines is None:
            from eiapbem.client import documents

            lines = documents.log(open_session(game, power, password), count)  # 4.1.1 Fog of War hides others' battles
        if as_json:
            echo_json(lines)
            return
        for rec in lines:
            click.echo(statusfile.log_line(rec))
