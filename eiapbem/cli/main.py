"""The ``eiapbem`` command: a thin click layer.

Each command parses its arguments, calls one function of the layers below and
prints.  No rule lives here.  Every error a user can cause ends as
``eiapbem: error: <sentence>`` (and maybe ``eiapbem: hint: <sentence>``) on
stderr with a non-zero exit status; never a traceback.
"""

from __future__ import annotations

import importlib
import sys
from pathlib import Path

import click

from eiapbem import __version__
from eiapbem.core.errors import EiaError

#: Modules that add commands to the group (each defines ``register(cli)``).
COMMAND_MODULES = (
    "eiapbem.cli.tables_cmd",
    "eiapbem.cli.rules_cmd",
    "eiapbem.cli.bench_cmd",
    "eiapbem.cli.files_cmd",
    "eiapbem.cli.data_cmd",
    "eiapbem.cli.gap_cmd",
    "eiapbem.cli.economy_cmd",
    "eiapbem.cli.battle_cmd",
    "eiapbem.cli.game_cmd",
    "eiapbem.cli.actions_cmd",
    "eiapbem.cli.admin_cmd",
    "eiapbem.cli.scenario_cmd",
)


class Context:
    """What every command gets: the home folder holding the game folders."""

    def __init__(self, home: Path) -> None:
        self.home = home


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="eiapbem")
@click.option(
    "--home",
    type=click.Path(file_okay=False, path_type=Path),
    default=".",
    show_default=True,
    help="Folder holding this player's game folders (commin/, commout/, battles/, save/).",
)
@click.pass_context
def cli(ctx: click.Context, home: Path) -> None:
    """Empires in Arms by email: play, host and arbitrate a Napoleonic campaign."""
    ctx.obj = Context(home)


for _mod in COMMAND_MODULES:
    importlib.import_module(_mod).register(cli)


def fail(message: str, hint: str | None = None, code: int = 1) -> None:
    click.echo(f"eiapbem: error: {message}", err=True)
    if hint:
        click.echo(f"eiapbem: hint: {hint}", err=True)
    sys.exit(code)


def main(argv: list[str] | None = None) -> None:
    try:
        rv = cli.main(args=argv, prog_name="eiapbem", standalone_mode=False)
    except click.exceptions.Abort:
        fail("aborted")
    except click.ClickException as err:
        fail(err.format_message(), hint="add --help to the command to see what it takes", code=2)
    except EiaError as err:
        fail(str(err), err.hint)
    except KeyboardInterrupt:
        fail("interrupted; nothing was changed by the unfinished command", code=130)
    except BrokenPipeError:
        sys.exit(1)
    if isinstance(rv, int) and rv:
        sys.exit(rv)
    sys.exit(0)
