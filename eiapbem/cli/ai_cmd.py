"""``eiapbem bench ai-strength``: the computer levels as a ladder, in matched pairs (``client/campaign_ladder.py``)."""

from __future__ import annotations

import os
import time

import click


def register_bench(bench_group: click.Group) -> None:
    from eiapbem.client.campaign_ladder import STEPS

    @bench_group.command("ai-strength")
    @click.option("--seeds", type=click.IntRange(1, 10000), default=4, show_default=True,
                  help="Seeds: each gives every step seven matched pairs (one per power).")
    @click.option("--first-seed", type=int, default=1, show_default=True, help="The first seed (then the next ones).")
    @click.option("--months", type=click.IntRange(1, 132), default=48, show_default=True,
                  help="Months per campaign after the setup.")
    @click.option("--step", "steps", type=click.Choice(list(STEPS)), multiple=True,
                  help="A step of the ladder to measure (repeat for several) [default: all].")
    @click.option("--jobs", type=click.IntRange(1, 256), default=None, help="Worker processes [default: every core].")
    @click.option("--cluster", metavar="ADDRESS", default=None,
                  help="Run the campaigns on the Dask distributed cluster whose scheduler is at ADDRESS "
                       "(tcp://host:8786; needs the extra eiapbem[cluster] here and on its workers).")
    @click.option("--scenario", default="classic-1805", show_default=True, help="The scenario played.")
    @click.option("--quiet", is_flag=True, help="No line per campaign as it ends.")
    def ai_strength(seeds: int, first_seed: int, months: int, steps: tuple[str, ...], jobs: int | None,
                    cluster: str | None, scenario: str, quiet: bool) -> None:
        """The levels as a ladder in matched pairs: the same power, seed and opponents with only its level swapped.

        Steps: hard against medium, medium against easy, hard against easy (one hard power among six easy ones,
        rotated: the test against a fixed opponent), and hard against the hard level that never declares war
        (the measure must not reward sitting still). A pair is won by the level whose power earned more victory
        points, as a percentage of its victory level, without the 4.2.3 start bonus (12.1, 12.1.3). Each share
        comes with a 95% interval by a bootstrap over the seeds (a seed's seven pairs share one campaign).
        Then the figures of every campaign (wars, alliances, subsidies, battles of armies, capitals, peaces,
        corps moved, losses, provinces, slowest computer slot), each campaign and in total.

        In memory through the rules core (no files: 'eiapbem campaign' checks the file layer)."""
        from eiapbem.client import campaign_ladder

        chosen = list(steps) or list(STEPS)
        t0 = time.perf_counter()
        results = campaign_ladder.run(chosen, list(range(first_seed, first_seed + seeds)), months, scenario=scenario,
                                      jobs=jobs, cluster=cluster, say=None if quiet else click.echo)
        for line in campaign_ladder.report(chosen, results, first_seed):
            click.echo(line)
        where = f"the cluster at {cluster}" if cluster else f"{jobs or os.cpu_count()} process(es)"
        click.echo(f"{len(results)} campaigns of {months} months in {time.perf_counter() - t0:.0f} s on {where}")
