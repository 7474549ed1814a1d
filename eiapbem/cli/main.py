"""The ``eiapbem`` command: a thin click layer that loads each command when it is used.

Each command parses its arguments, calls one function of the layers below and
prints.  No rule lives here.  Every error a user can cause ends as
``eiapbem: error: <sentence>`` (and maybe ``eiapbem: hint: <sentence>``) on
stderr with a non-zero exit status; never a traceback.

Speed (issue 15 item 4): ``COMMAND_MODULES`` below is the one list of command
modules.  ``cli/index.json`` (written by ``python -m eiapbem.cli.index``, checked
current by ``tests/cli/test_cli_fast.py``) says which modules make each top-level
command and holds the rendered ``--help`` of every command; so ``eiapbem``
imports only the module(s) of the command being run, and ``eiapbem [X [Y]] --help``
prints from the index without importing any of them.  The index is keyed on
what it describes (issue 30 item 6): its ``key`` is the hash of its own command
map and help texts, so only a changed command, option or help text makes it
stale, never a comment or a change elsewhere in the code.  A command the index
does not name is looked for in every command module, so a command added before
the index is written again is slower to start, never missing.
"""

from __future__ import annotations

import importlib
import json
import os
import sys
from pathlib import Path

import click

from eiapbem import __version__
from eiapbem.core.errors import EiaError

from .common import Context

#: Modules that add commands to the group (each defines ``register(cli)``).  New groups: add one line here.
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
    "eiapbem.cli.status_cmd",
    "eiapbem.cli.show_cmd",
    "eiapbem.cli.actions_cmd",
    "eiapbem.cli.admin_cmd",
    "eiapbem.cli.admin_acts_cmd",
    "eiapbem.cli.scenario_cmd",
    "eiapbem.cli.shell_cmd",
    "eiapbem.cli.view_cmd",
    "eiapbem.cli.audit_cmd",
    "eiapbem.cli.mail_cmd",
    "eiapbem.cli.campaign_cmd",
)

INDEX_FILE = Path(__file__).with_name("index.json")
_INDEX: list = []


def index_key(commands: dict, helps: dict, subcommands: dict | None = None) -> str:
    """SHA-256 of the index's content (its command maps and help texts): what the index describes, not the sources."""
    import hashlib

    body = json.dumps({"commands": commands, "help": helps, **({"subcommands": subcommands} if subcommands else {})},
                      sort_keys=True, ensure_ascii=False)
    return hashlib.sha256(body.encode("utf-8")).hexdigest()


def index() -> dict | None:
    """The command index, or None when it is missing, damaged or was written for another list of modules."""
    if not _INDEX:
        try:
            idx = json.loads(INDEX_FILE.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            idx = None
        if (not isinstance(idx, dict) or idx.get("modules") != list(COMMAND_MODULES)
                or not isinstance(idx.get("commands"), dict) or not isinstance(idx.get("help"), dict)
                or not isinstance(idx.get("subcommands", {}), dict)
                or idx.get("key") != index_key(idx["commands"], idx["help"], idx.get("subcommands"))):
            idx = None
        _INDEX.append(idx)
    return _INDEX[0]


def build(names: list[str] | None = None) -> click.Group:
    """A group holding the commands made by ``names`` (module names, in ``COMMAND_MODULES`` order; default all)."""
    g = click.Group("eiapbem")
    for mod in COMMAND_MODULES:
        if names is None or mod in names:
            importlib.import_module(mod).register(g)
    return g


class LazyGroup(click.Group):
    """A click group whose commands are made on first use, from the module(s) the index names.

    A group several modules add to (``economy``: its ``summary`` and the phase's orders) is made, for one of its
    commands, from the modules that make that command alone (the index's ``subcommands``), so that
    ``eiapbem economy summary`` does not load the phase's orders."""

    def resolve_command(self, ctx: click.Context, args: list[str]) -> tuple[str | None, click.Command | None, list[str]]:
        idx = index()
        if idx and len(args) > 1 and args[0] not in self.commands:
            mods = idx.get("subcommands", {}).get(f"{args[0]} {args[1]}")
            group = build(mods).commands.get(args[0]) if mods else None
            if group is not None:  # not kept: the group's other commands are in other modules
                return args[0], group, args[1:]
        return super().resolve_command(ctx, args)

    def list_commands(self, ctx: click.Context) -> list[str]:
        idx = index()
        return sorted(idx["commands"]) if idx else sorted(build().commands)

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in self.commands:
            return self.commands[name]
        idx = index()
        mods = idx["commands"].get(name) if idx else None  # None: not in the index, so look in every module
        cmd = build(mods).commands.get(name)
        if cmd is not None:
            self.add_command(cmd)
        return cmd


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
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
    if ctx.obj is None:
        ctx.obj = Context(home)


def fast_help(argv: list[str]) -> str | None:
    """The help text of ``eiapbem [--home DIR] [X [Y]] --help`` from the index, or None."""
    args = list(argv)
    if args and args[0] == "--home" and len(args) > 1:
        args = args[2:]
    elif args and args[0].startswith("--home="):
        args = args[1:]
    if not args:
        args = ["--help"]  # 'eiapbem' alone prints the help
    if args[-1] not in ("--help", "-h") or any(a.startswith("-") for a in args[:-1]):
        return None
    idx = index()
    return idx["help"].get(" ".join(args[:-1])) if idx else None


def report(message: str, hint: str | None = None, code: int = 1) -> int:
    """Print an error (and a hint) on stderr the one way every command does; return the exit status."""
    click.echo(f"eiapbem: error: {message}", err=True)
    if hint:
        click.echo(f"eiapbem: hint: {hint}", err=True)
    return code


def fail(message: str, hint: str | None = None, code: int = 1) -> None:
    sys.exit(report(message, hint, code))


#: click 8.2+ raises this for a group called without a command (8.1 prints the help itself).
_NO_ARGS = getattr(click.exceptions, "NoArgsIsHelpError", ())


def _usage_hint(err: click.ClickException) -> str:
    """Where to look after a command line click refused: the group's command list for an unknown command."""
    ctx = getattr(err, "ctx", None)
    if "No such command" in err.format_message():
        where = ctx.command_path if ctx is not None else "eiapbem"
        return f"'{where} --help' lists the commands" + ("; 'eiapbem status' says which phase the game is in"
                                                          if where == "eiapbem" else "")
    return "add --help to the command to see what it takes"


def run(argv: list[str] | None = None, obj: Context | None = None) -> int:
    """Run one command line; return its exit status (``eiapbem shell`` runs each line it reads through here)."""
    from eiapbem.cli import prompt

    prompt.install()  # no GetPassWarning text when there is no terminal (issue 20)
    try:
        rv = cli.main(args=argv, prog_name="eiapbem", standalone_mode=False, obj=obj)
    except click.exceptions.Abort:
        return report("aborted")
    except _NO_ARGS as err:  # 'eiapbem' or 'eiapbem show' alone: the help, as with --help
        click.echo(err.ctx.get_help() if err.ctx is not None else err.format_message())
        return 0
    except click.ClickException as err:
        return report(err.format_message(), hint=_usage_hint(err), code=2)
    except EiaError as err:
        return report(str(err), err.hint)
    except KeyboardInterrupt:
        return report("interrupted; nothing was changed by the unfinished command", code=130)
    return rv if isinstance(rv, int) else 0


def main(argv: list[str] | None = None) -> None:
    completing = "_EIAPBEM_COMPLETE" in os.environ  # shell completion: click answers (README)
    text = None if completing else fast_help(sys.argv[1:] if argv is None else argv)
    if text is not None:
        click.echo(text)
        sys.exit(0)
    try:
        code = run(argv)
    except BrokenPipeError:
        sys.exit(1)
    if code == 0:  # a refused or interrupted command writes nothing, not even this
        keep_status()
    sys.exit(code)


def keep_status() -> None:
    """Bring the status record of each game the command opened up to date (``client/statusfile.py``), so the
    next fresh ``eiapbem status`` answers without opening the game.  Never fails the command: a record not
    written only makes that ``status`` slower."""
    from .common import OPENED

    if not OPENED:
        return
    from eiapbem.client import statusfile

    from .answers import precompute

    for home, game, me, key in OPENED:
        try:
            statusfile.refresh(home, game, me, key, lambda s: precompute(s, cli))
        except (EiaError, OSError):
            pass
    OPENED.clear()
