"""``eiapbem campaign``: seven computer players play a scenario by files (``client/campaign.py``, issue 18)."""

from __future__ import annotations

import tempfile
from pathlib import Path

import click

from eiapbem.rules.model import POWERS

_JOBS = click.option("--jobs", type=click.IntRange(1, 2), default=2, show_default=True,
                     help="Processes: 2 splits the folders between two processes (same files, same hashes).")


def _powers(value: str) -> tuple[str, ...]:
    """``--by-files``: powers separated by commas, ``all`` or ``none``."""
    v = value.strip().upper()
    if v in ("", "NONE"):
        return ()
    if v == "ALL":
        return POWERS
    names = tuple(x.strip() for x in v.split(",") if x.strip())
    bad = [x for x in names if x not in POWERS]
    if bad:
        raise click.BadParameter(f"{', '.join(bad)} is not a major power; name powers among {', '.join(POWERS)}, "
                                 "separated by commas, or all, or none")
    return names


_BY_FILES = click.option(
    "--by-files", "by_files", default="none", show_default=True, metavar="POWERS",
    help="Powers played as email clients whose choices the computer makes (e.g. AU,FR; all; none): their turn files "
         "and their battle files go between the folders. The other powers are computer players, as in a real game: "
         "no file, every folder plays their slots itself.")


def register(cli: click.Group) -> None:
    @cli.command("campaign")
    @click.option("--out", "out", type=click.Path(file_okay=False, path_type=Path), required=True,
                  help="A new or empty folder: one folder per power and one for the host are made in it.")
    @click.option("--months", type=click.IntRange(1, 400), default=1, show_default=True, help="Months to play.")
    @click.option("--seed", type=int, default=0, show_default=True, help="Same seed, same keys, dice and final state hash.")
    @click.option("--scenario", default="classic-1805", show_default=True, help="The scenario played from its start.")
    @click.option("--level", type=click.Choice(["easy", "medium", "hard"]), default="hard", show_default=True,
                  help="The computer's level for all seven powers.")
    @_BY_FILES
    @_JOBS
    def campaign(out: Path, months: int, seed: int, scenario: str, level: str, by_files: str, jobs: int) -> None:
        """Seven computer players play a scenario in eight game folders (the host's and one per power).

        The powers are computer players, as in a real game (with the 4.2.3 start bonus): their slots send no
        file, every folder plays them itself, and the eight folders' state hashes are compared after every file
        and every month. Powers named by --by-files are email clients instead, whose computer sends sealed turn
        files and battle files, copied into the other folders' commin/ or battles/ and loaded there as a human's
        client does.

        At the end: the victory result, a table per power, and what the campaign had (wars between great powers,
        alliances, subsidies, battles of armies, capitals taken, peaces and their terms, corps moved, factors lost
        to foraging and in battle, provinces that changed hands, the slowest computer slot).

        Opening a campaign folder: each folder's password is campaign-ROLE-SEED, ROLE being the folder's name
        (host, AU, FR, ...) and SEED the --seed; for example 'eiapbem --home OUT/FR status --password
        campaign-FR-0' or 'eiapbem --home OUT/host log --password campaign-host-0'. A client opened there plays
        on as any client does: loading files there plays the computer players' slots as far as they go."""
        from eiapbem.client.campaign import HOST, Campaign
        from eiapbem.client.campaign_report import event_line, power_table, victory_lines

        from .data_cmd import unit_labels

        c = Campaign(out, seed, scenario, level, click.echo, jobs=jobs, by_files=_powers(by_files))
        c.unit_labels = unit_labels
        st = c.run(months)
        click.echo("")
        for line in victory_lines(st) + power_table(st):
            click.echo(line)
        click.echo(event_line(st, c.session(HOST).journal()))
        for line in c.measures().lines():
            click.echo(line)
        click.echo(f"Battle files carried between two folders (questions and replies, 4.2.7): {c.figures.battle_files}")
        click.echo(f"Final state hash: {c.check_hashes()} (equal in all {len(POWERS) + 1} folders)")


def register_bench(bench_group: click.Group) -> None:
    @bench_group.command("campaign")
    @click.option("--months", type=click.IntRange(1, 400), default=1, show_default=True, help="Months to play.")
    @click.option("--seed", type=int, default=0, show_default=True)
    @click.option("--out", "out", type=click.Path(file_okay=False, path_type=Path),
                  help="Where the folders go (default: a new temporary folder).")
    @click.option("--progress/--no-progress", default=True, show_default=True, help="A line per month as it ends.")
    @_BY_FILES
    @_JOBS
    def bench_campaign(months: int, seed: int, out: Path | None, progress: bool, by_files: str, jobs: int) -> None:
        """A campaign by files, timed: per month, per file, per folder and total (weak test scrypt for the keys)."""
        import os
        import time

        from eiapbem.client.campaign import Campaign, fast_keys_for_bench

        fast_keys_for_bench()
        where = out or Path(tempfile.mkdtemp(prefix="eiapbem-campaign-"))
        t0 = time.perf_counter()
        say = (lambda line: click.echo(line) if line.startswith("[") else None) if progress else (lambda _l: None)
        c = Campaign(where, seed, "classic-1805", "hard", say, jobs=jobs, by_files=_powers(by_files))
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
        click.echo(f"the slots by files (thinking, actions, end-phase): {f.play_seconds:.1f} s over {f.slots} slots, "
                   f"of which the computer's thinking {f.ai_seconds:.1f} s; the folders playing the computer players' "
                   f"slots: {f.computer_seconds:.1f} s (wall clock, both processes)")
        for line in c.measures().lines():
            click.echo(line)
        for r, b in f.folder_bytes.items():
            click.echo(f"folder {r}: {b // 1024} KiB")
        click.echo(f"all {len(f.folder_bytes)} folders: {sum(f.folder_bytes.values()) // (1024 * 1024)} MiB")
        click.echo(f"total: {total:.1f} s for {len(f.months)} month(s); {total / max(len(f.months), 1):.1f} s per month; "
                   f"{sum(f.month_cpu):.1f} s CPU in the months played")
