"""``eiapbem campaign``: seven computer players play a scenario by real files (``client/campaign.py``, issue 18)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import click

from eiapbem.rules.model import POWERS


def register(cli: click.Group) -> None:
    @cli.command("campaign")
    @click.option("--out", "out", type=click.Path(file_okay=False, path_type=Path), required=True,
                  help="A new or empty folder: one folder per power and one for the host are made in it.")
    @click.option("--months", type=click.IntRange(1, 400), default=1, show_default=True, help="Months to play.")
    @click.option("--seed", type=int, default=0, show_default=True, help="Same seed, same keys, dice and final state hash.")
    @click.option("--scenario", default="classic-1805", show_default=True, help="The scenario played from its start.")
    @click.option("--level", type=click.Choice(["easy", "medium", "hard"]), default="hard", show_default=True,
                  help="The computer's level for all seven powers.")
    def campaign(out: Path, months: int, seed: int, scenario: str, level: str) -> None:
        """Seven computer players play a scenario by files: each power in its own folder, every file sealed,
        copied into the other folders' commin/ and loaded there as a human's client does."""
        from eiapbem.client.campaign import Campaign, power_table

        from .data_cmd import unit_labels

        c = Campaign(out, seed, scenario, level, click.echo)
        c.unit_labels = unit_labels
        st = c.run(months)
        _report(c, st, power_table)

    def _report(c, st, power_table) -> None:
        click.echo("")
        if st.slot is None:
            click.echo(f"The game is over: {' '.join(st.victors) or 'no campaign winner'} (12.1.3).")
        elif st.victors:
            click.echo(f"Campaign winners (12.1.3): {' '.join(st.victors)}")
        else:
            click.echo(f"No victory yet (12.1.3); the game stands at {st.slot.key(st.date)}.")
        for line in power_table(st):
            click.echo(line)
        click.echo("Provinces held per power are not counted yet (not built).")
        click.echo(f"Final state hash: {c.check_hashes()} (equal in all {len(POWERS) + 1} folders)")


def register_bench(bench_group: click.Group) -> None:
    @bench_group.command("campaign")
    @click.option("--months", type=click.IntRange(1, 400), default=1, show_default=True, help="Months to play.")
    @click.option("--seed", type=int, default=0, show_default=True)
    @click.option("--out", "out", type=click.Path(file_okay=False, path_type=Path),
                  help="Where the folders go (default: a new temporary folder).")
    def bench_campaign(months: int, seed: int, out: Path | None) -> None:
        """A campaign by files, timed: per month, per file, per folder and total (weak test scrypt for the keys)."""
        import time

        from eiapbem.client.campaign import Campaign, fast_keys_for_bench

        fast_keys_for_bench()
        where = out or Path(tempfile.mkdtemp(prefix="eiapbem-campaign-"))
        t0 = time.perf_counter()
        c = Campaign(where, seed, "classic-1805", "hard", lambda _line: None)
        made = time.perf_counter() - t0
        c.run(months, check_every_slot=False, maps=False)
        total = time.perf_counter() - t0
        f = c.figures
        click.echo(f"folders in {where}; game made and joined in {made:.1f} s")
        for date, secs, n in f.months:
            click.echo(f"month {date}: {secs:8.1f} s  {n:4d} files")
        n = max(f.files, 1)
        click.echo(f"files: {f.files}, {f.file_bytes // n} bytes each on average; "
                   f"loading in all other folders {1000 * f.load_seconds / n:.0f} ms per file "
                   f"({1000 * f.load_seconds / n / (len(c.homes) - 1):.0f} ms per file per folder)")
        click.echo(f"computer players' thinking: {f.ai_seconds:.1f} s in total over {f.slots} slots")
        for r, b in f.folder_bytes.items():
            click.echo(f"folder {r}: {b // 1024} KiB")
        click.echo(f"total: {total:.1f} s for {len(f.months)} month(s); {total / max(len(f.months), 1):.1f} s per month")
