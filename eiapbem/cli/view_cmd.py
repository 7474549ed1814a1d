"""``eiapbem view``: the game in a browser on this computer (``eiapbem/view/``).

The password is asked once, as by ``eiapbem shell``; the key stays in this process's memory only
while the view runs.
"""

from __future__ import annotations

import click

from .common import acting_power, home


def register(cli: click.Group) -> None:
    @cli.command("view")
    @click.option("--game", help="The game's name, when this folder holds several.")
    @click.option("--power", help="The power to view, when this folder plays several.")
    @click.option("--password", envvar="EIAPBEM_PASSWORD", help="The power's password (asked for once when missing).")
    @click.option("--port", type=click.IntRange(0, 65535), default=0, show_default=True,
                  help="The port on 127.0.0.1 (0: a free one).")
    @click.option("--no-browser", is_flag=True, help="Only print the address; open no browser.")
    def view(game: str | None, power: str | None, password: str | None, port: int, no_browser: bool) -> None:
        """The game in your browser: the map with its counters, the panels, orders by clicking (127.0.0.1 only)."""
        from eiapbem.client import session
        from eiapbem.view import app, server

        h = home()
        name = session.find_game(h, game)
        power = acting_power(h, name, power, "is viewed")
        power = power if power == "host" else power.upper()
        if power == "host":
            raise session.NoGame("the view shows a power's game; this folder only hosts it",
                                 hint="'eiapbem admin status' is the host's view")
        local = session.local_roles(h, name)
        if power not in local:
            raise session.NoGame(f"{power} is not played from this folder (it plays {', '.join(local) or 'no power'})")
        if password is None:
            password = click.prompt(f"Password for {power}", hide_input=True)
        ident = session.open_identity(h, name, power, password)
        v = app.View(h, name, ident)
        v.session()  # the save opens with this key: refused here, not in the page
        server.serve(v, port, open_browser=not no_browser, echo=click.echo)
