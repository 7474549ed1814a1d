"""A small hot-seat game for the in-process CLI tests (weak key hash), and a runner for the real click group."""

from __future__ import annotations

import os
from pathlib import Path

from click.testing import CliRunner

from eiapbem.cli import main
from eiapbem.client import newgame
from eiapbem.client.session import TEST_SCRYPT_ENV
from eiapbem.core.powers import POWERS

WEAK = "10,1,1"
GAME = "Cli"


def new_game(home: Path) -> Path:
    """A hot-seat game of the seven powers in ``home`` (RU hosts; every password pw-<POWER>, the host's pw-host)."""
    old = os.environ.get(TEST_SCRYPT_ENV)
    os.environ[TEST_SCRYPT_ENV] = WEAK
    try:
        players = [newgame.Player(p, f"Player {p}", f"{p.lower()}@example.org", "host" if p == "RU" else "hotseat")
                   for p in POWERS]
        newgame.new_game(home, GAME, "classic-1805", players, bids={},
                         options=newgame.options_from_flags(["allow-pbem-host-functions"]),
                         passwords={p: f"pw-{p}" for p in POWERS}, host_password="pw-host")
    finally:
        if old is None:
            os.environ.pop(TEST_SCRYPT_ENV, None)
        else:
            os.environ[TEST_SCRYPT_ENV] = old
    return home


def cli(home: Path, *args: str, input: str | None = None):
    """Run ``eiapbem --home HOME ARGS`` in this process; the result has exit_code, output (stdout) and stderr."""
    r = CliRunner()
    return r.invoke(main.cli, ["--home", str(home), *args], input=input, env={TEST_SCRYPT_ENV: WEAK},
                    catch_exceptions=True, terminal_width=80)


def files_in(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` (its sub-folders too, e.g. ``save/<Game>.segments/``) by relative path: a
    snapshot for "nothing changed" checks."""
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(Path(folder).rglob("*")) if p.is_file()}
