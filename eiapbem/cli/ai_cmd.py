"""``eiapbem bench ai-strength``: the computer levels against each other (issue 19 item 4)."""

from __future__ import annotations

import os
import time

import click


def register_bench(bench_group: click.Group) -> None:
    @bench_group.command("ai-strength")
    @click.option("--games", type=click.IntRange(1, 10000), default=14, show_default=True, help="Campaigns to play.")
    @click.option("--months", type=click.IntRange(1, 132), default=24, show_default=True, help="Months per campaign after the setup.")
    @click.option("--hard", "hard", type=click.IntRange(1, 6), default=3, show_default=True,
                  help="Powers at the stronger level in each campaign (rotated over the powers).")
    @click.option("--strong", type=click.Choice(["ai-easy", "ai-medium", "ai-hard"]), default="ai-hard", show_default=True,
                  help="The stronger level.")
    @click.option("--weak", type=click.Choice(["ai-easy", "ai-medium", "ai-hard"]), default="ai-easy", show_default=True,
                  help="The level of the other powers.")
    @click.option("--seed", type=int, default=1, show_default=True, help="Seed of the campaigns' dice (reproducible).")
    @click.option("--jobs", type=click.IntRange(1, 256), default=None, help="Worker processes [default: every core].")
    @click.option("--scenario", default="classic-1805", show_default=True, help="The scenario played.")
    def ai_strength(games: int, months: int, hard: int, strong: str, weak: str, seed: int, jobs: int | None,
                    scenario: str) -> None:
        """Play seeded all-computer campaigns, one level against another, and report the share each wins.

        In memory through the rules core's turn functions (no files: 'eiapbem campaign' checks the file layer),
        on every core; each share with its 95% confidence interval."""
        from eiapbem.client import duel

        t0 = time.perf_counter()
        report = duel.strength(games, months, hard=hard, strong=strong, weak=weak, scenario=scenario, seed=seed,
                               jobs=jobs, say=click.echo)
        for line in report.lines():
            click.echo(line)
        click.echo(f"{time.perf_counter() - t0:.0f} s on {jobs or os.cpu_count()} processes")
