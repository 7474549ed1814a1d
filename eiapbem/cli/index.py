"""Write ``cli/index.json``: which modules make each command, and every command's ``--help`` text.

Run ``python -m eiapbem.cli.index`` after changing a command, an option, a help text or
``main.COMMAND_MODULES``; ``tests/cli/test_cli_fast.py`` fails while the file on disk differs from what
this makes.  The file is keyed on what it describes (``main.index_key``): a comment or any other
change to the code leaves it as it is.
The help is rendered 80 columns wide, as click renders it on a terminal of 80 columns or more.
"""

from __future__ import annotations

import json

import click

from . import main


def _walk(cmd: click.Command, ctx: click.Context, path: str, out: dict[str, str]) -> None:
    out[path] = cmd.get_help(ctx)
    if isinstance(cmd, click.Group):
        for name in sorted(cmd.list_commands(ctx)):
            sub = cmd.get_command(ctx, name)
            assert sub is not None
            with click.Context(sub, info_name=name, parent=ctx) as sctx:
                _walk(sub, sctx, f"{path} {name}".strip(), out)


def make() -> dict:
    """The index as it should be for the code as it is."""
    commands: dict[str, list[str]] = {}
    subs: dict[str, list[str]] = {}
    for mod in main.COMMAND_MODULES:
        for name, cmd in main.build([mod]).commands.items():
            commands.setdefault(name, []).append(mod)
            for sub in cmd.commands if isinstance(cmd, click.Group) else ():
                subs.setdefault(f"{name} {sub}", []).append(mod)
    # The commands of a group several modules make, each from the modules that make it (main.LazyGroup).
    subcommands = {k: subs[k] for k in sorted(subs) if len(commands[k.split()[0]]) > 1}
    full = main.build()
    root = click.Group("eiapbem", commands=full.commands, params=main.cli.params, help=main.cli.help,
                       context_settings=main.cli.context_settings)
    helps: dict[str, str] = {}
    with click.Context(root, info_name="eiapbem", terminal_width=80, max_content_width=80,
                       help_option_names=["-h", "--help"]) as ctx:
        _walk(root, ctx, "", helps)
    commands = {k: commands[k] for k in sorted(commands)}
    return {"modules": list(main.COMMAND_MODULES), "key": main.index_key(commands, helps, subcommands),
            "commands": commands, "subcommands": subcommands, "help": helps}


def text() -> str:
    return json.dumps(make(), indent=1, sort_keys=True, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    main.INDEX_FILE.write_text(text(), encoding="utf-8")
    print(f"wrote {main.INDEX_FILE}")
