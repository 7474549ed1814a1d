"""``eiapbem campaign``: seven computer players play a scenario by files (``client/campaign.py``, issue 18)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import click

from eiapbem.rules.model import POWERS

_JOBS = click.option("--jobs", type=click.IntRange(1, 2), default=2, show_default=True,
                     help="Processes: 2 splits the folders between two processes (same files, same hashes).")


def register(cli: click.Group) -> None:
    @cli.command("campaign")
    @click.option("--out", "out", type=click.Path(file_okay=False, path_type=Path), required=True,
                  help="A new or empty folder: one folder per power and one for the host are made in it.")
    @click.option("--months", type=click.IntRange(1, 400), default=1, show_default=True, help="Months to play.")
    @click.option("--seed", type=int, default=0, show_default=True, help="Same seed, same keys, dice and final state hash.")
    @click.option("--scenario", default="classic-1805", show_default=True, help="The scenario played from its start.")
    @click.option("--level", type=click.Choice(["easy", "medium", "hard"]), default="hard", show_default=True,
                  help="The computer's level for all seven powers.")
    @_JOBS
    def campaign(out: Path, months: int, seed: int, scenario: str, level: str, jobs: int) -> None:
        """Seven computer players play a scenario by files: each power in its own folder, every file sealed,
        copied into the other folders' commin/ and loaded there as a human's client does."""
        from eiapbem.client.campaign import HOST, Campaign
        from eiapbem.client.campaign_report import event_line, power_table, victory_lines

        from .data_cmd import unit_labels

        c = Campaign(out, seed, scenario, level, click.echo, jobs=jobs)
        c.unit_labels = unit_labels
        st = c.run(months)
        click.echo("")
        for line in victory_lines(st) + power_table(st):
            click.echo(line)
        click.echo(event_line(st, c.session(HOST).journal()))
        click.echo(f"Battle files carried between two folders (questions and replies, 4.2.7): {c.figures.battle_files}")
        click.echo(f"Final state hash: {c.check_hashes()} (equal in all {len(POWERS) + 1} folders)")


def register_bench(bench_group: click.Group) -> None:
    @bench_group.command("campaign")
    @click.option("--months", type=click.IntRange(1, 400), default=1, show_default=True, help="Months to play.")
    @click.option("--seed", type=int, default=0, show_default=True)
    @click.option("--out", "out", type=click.Path(file_okay=False, path_type=Path),
                  help="Where the folders go (default: a new temporary folder).")
    @click.option("--progress/--no-progress", default=True, show_default=True, help="A line per month as it ends.")
    @_JOBS
    def bench_campaign(months: int, seed: int, out: Path | None, progress: bool, jobs: int) -> None:
        """A campaign by files, timed: per month, per file, per folder and total (weak test scrypt for the keys)."""
        import os
        import time

        from eiapbem.client.campaign import Campaign, fast_keys_for_bench

        fast_keys_for_bench()
        where = out or Path(tempfile.mkdtemp(prefix="eiapbem-campaign-"))
        t0 = time.perf_counter()
        say = (lambda line: click.echo(line) if line.startswith("[") else None) if progress else (lambda _l: None)
        c = Campaign(where, seed, "classic-1805", "hard", say, jobs=jobs)
        made = time.perf_counter() - t0
        c.run(months, check_every_slot=False, maps=False)
        total = time.perf_counter() - t0
        f = c.figures
        load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
        click.echo(f"folders in {where}; game made and joined in {made:.1f} s; {jobs} process(es); "
                   f"load average at the end {load:.1f}")
        for (date, secs, n), cpu in zip(f.months, f.month_cpu):
            click.echo(f"month {date}: {secs:8.1f} s  ({cpu:7.1f} s CPU)  {n:4d} files")
        if len(f.month_cpu) >= 6:  # issue 18 item 3: does the cost per month stay flat?
            first, last = sum(f.month_cpu[:3]) / 3, sum(f.month_cpu[-3:]) / 3
            click.echo(f"CPU per month, first three {first:.1f} s, last three {last:.1f} s ({last / first:.2f}x)")
        if len(f.month_cpu) >= 120:  # issue 18 item 3 names month 120: months 118-120 against months 1-3
            first, m120 = sum(f.month_cpu[:3]) / 3, sum(f.month_cpu[117:120]) / 3
            click.echo(f"CPU per month, months 118-120 {m120:.1f} s against months 1-3 {first:.1f} s ({m120 / first:.2f}x)")
        n = max(f.files, 1)
        click.echo(f"files: {f.files}, {f.file_bytes // n} bytes each on average; loading in the {len(c.homes) - 1} "
                   f"other folders {1000 * f.load_seconds / n:.0f} ms per file (wall clock, both processes)")
        click.echo(f"the powers' own slots (thinking, actions, end-phase): {f.play_seconds:.1f} s over {f.slots} slots, "
                   f"of which the computer players' thinking {f.ai_seconds:.1f} s")
        for r, b in f.folder_bytes.items():
            click.echo(f"folder {r}: {b // 1024} KiB")
        click.echo(f"all {len(f.folder_bytes)} folders: {sum(f.folder_bytes.values()) // (1024 * 1024)} MiB")
        click.echo(f"total: {total:.1f} s for {len(f.months)} month(s); {total / max(len(f.months), 1):.1f} s per month; "
                   f"{sum(f.month_cpu):.1f} s CPU in the months played")
