"""``eiapbem tables``: print the manual's charts."""

from __future__ import annotations

import json

import click

from eiapbem.rules.tables import Table, all_tables, get_table


def render(table: Table) -> str:
    """A plain-text rendering with aligned columns."""
    cells = [list(table.columns)] + [["" if c is None else str(c) for c in row] for row in table.rows]
    ncol = max(len(r) for r in cells)
    for r in cells:
        r.extend([""] * (ncol - len(r)))
    widths = [max(len(r[i]) for r in cells) for i in range(ncol)]
    lines = [f"{table.title}  (section {table.section}; source {table.source})", ""]
    for n, r in enumerate(cells):
        lines.append("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    if table.notes:
        lines.append("")
        lines.extend(table.notes)
    return "\n".join(lines)


def register(cli: click.Group) -> None:
    @cli.group()
    def tables() -> None:
        """The manual's charts and tables (section 15.0)."""

    @tables.command("list")
    @click.option("--json", "as_json", is_flag=True, help="Print JSON for machines.")
    def list_(as_json: bool) -> None:
        """List every chart by name."""
        items = [(name, fn()) for name, fn in all_tables().items()]
        if as_json:
            click.echo(json.dumps([{"name": n, "title": t.title, "section": t.section} for n, t in items], indent=2))
            return
        width = max((len(n) for n, _ in items), default=0)
        for n, t in items:
            click.echo(f"{n.ljust(width)}  {t.title} ({t.section})")

    @tables.command("show")
    @click.argument("name", required=False)
    @click.option("--all", "show_all", is_flag=True, help="Print every chart.")
    @click.option("--json", "as_json", is_flag=True, help="Print JSON for machines.")
    def show(name: str | None, show_all: bool, as_json: bool) -> None:
        """Print the chart NAME (see 'eiapbem tables list'), or every chart with --all."""
        if show_all == (name is not None):
            raise click.UsageError("give one chart name, or --all")
        chosen = [fn() for fn in all_tables().values()] if show_all or name is None else [get_table(name)]
        if as_json:
            objs = [t.to_obj() for t in chosen]
            click.echo(json.dumps(objs if show_all else objs[0], indent=2))
        else:
            click.echo("\n\n".join(render(t) for t in chosen))
