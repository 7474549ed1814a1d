"""``eiapbem files``: look at sealed files without opening them."""

from __future__ import annotations

from pathlib import Path

import click

from eiapbem.pbem.inspect import describe

from .common import echo_json, json_option


def register(cli: click.Group) -> None:
    @cli.group("files")
    def files_group() -> None:
        """Sealed game files: what their clear headers say."""

    @files_group.command("inspect")
    @click.argument("path", type=click.Path(path_type=Path, dir_okay=False))
    @click.option("--gamestart", type=click.Path(path_type=Path, dir_okay=False),
                  help="The game's gamestart file, to check the file's signature against its keys.")
    @json_option
    def inspect(path: Path, gamestart: Path | None, as_json: bool) -> None:
        """Print the clear header of the sealed file PATH (and check its signature with --gamestart)."""
        lines = describe(path, gamestart)
        if as_json:
            echo_json(dict(lines))
            return
        width = max(len(k) for k, _ in lines)
        for k, v in lines:
            click.echo(f"{k.ljust(width)}  {v}")
