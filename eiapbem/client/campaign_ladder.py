"""The computer levels as a ladder, measured in matched pairs (``eiapbem bench ai-strength``).

**Matched pairs.**  For a step of the ladder (a stronger level against a weaker
one), a seed and a power P: campaign A plays P at the stronger level among six
powers at the weaker one, campaign B (the seed's baseline) plays all seven at
the weaker level.  Same scenario, seed, dice labels and opponents; only P's
level differs.  The pair is won by the stronger level when P did better in A
than in B, lost when worse, halved when equal.  Each seed gives seven pairs (one
per power) and costs eight campaigns (the baseline is shared); "hard against
easy" is the test against a fixed opponent: one hard power among six easy ones,
rotated over the powers.

**The score is what a player of the game calls winning** (12.1, 12.1.3): the
victory points a power earned in the campaign, as a percentage of its victory
level (the "Shorter Campaigns" measure), without the 4.2.3 start bonus, which
differs by level and is no play.  Victory points come from the political status
(12.1), which moves by the political point chart (15.0): -3 a declaration of war
(6.2.1), + for battles won (11.2), conquests (10.7), surrenders accepted (6.4.2),
- for battles lost, capitals occupied (12.4), surrenders.  Sitting still earns
nothing of these and loses what the others take; a power that declares wars it
cannot win pays -3 each and loses the rest.  Whether the measure can be won by
sitting still is itself measured: ``NEVER_DECLARES`` is the hard level with its
declarations of war removed, set against the hard level in matched pairs.

**The interval accounts for the repeated line-ups**: the seven pairs of a seed
share their baseline campaign, so they are not independent.  The share's 95%
interval is a cluster bootstrap: seeds are drawn with replacement (each with
all seven of its pairs), ``BOOTSTRAP`` times, from a ``random.Random`` seeded
by the measure's seed (the same figures every run); the 2.5 and 97.5
percentiles of the resampled shares are the interval.

Campaigns are played in memory through the rules core (``duel.play``: the same
``ai.play_slot``, ``ai.orders`` and ``engine.resolve_slot`` every client calls),
on a process pool here or on a Dask cluster (``campaign_cluster``), with the
same seeds and figures.  Floats appear in the report only.
"""

from __future__ import annotations

import random
import statistics
from dataclasses import dataclass
from typing import Any, Callable, Iterable

from eiapbem import ai
from eiapbem.core.errors import IllegalAction
from eiapbem.rules.model import POWERS, PlayerKind

from .campaign_measures import Chronicle, Figures

#: The hard level with its declarations of war (6.2) removed: the passive player the measure must not reward.
NEVER_DECLARES = "ai-hard-never-declares"
KINDS = ("ai-easy", "ai-medium", "ai-hard", NEVER_DECLARES)
#: The steps of the ladder: (stronger, weaker, opponents' level).
STEPS = {
    "hard-medium": ("ai-hard", "ai-medium", "ai-medium"),
    "medium-easy": ("ai-medium", "ai-easy", "ai-easy"),
    "hard-easy": ("ai-hard", "ai-easy", "ai-easy"),
    "hard-never-declares": ("ai-hard", NEVER_DECLARES, "ai-medium"),
}
BOOTSTRAP = 2000


class NeverDeclares:
    """``eiapbem.ai`` (``rules.turn.Computer``) whose powers in ``passive`` give no declaration of war (6.2)."""

    AiStuck = ai.AiStuck
    VERSIONS = ai.VERSIONS

    def __init__(self, passive: Iterable[str]) -> None:
        self.passive = frozenset(passive)

    def settle(self, state: Any, ctx: Any) -> Any:
        return ai.settle(state, ctx)

    def play_slot(self, state: Any, power: str, ctx: Any, *, setup: Any = ()) -> Any:
        return ai.play_slot(state, power, ctx, setup=setup)

    def orders(self, state: Any, power: str, ctx: Any) -> tuple:
        from eiapbem.rules.diplomacy.orders import DeclareWar

        given = ai.orders(state, power, ctx)
        if power not in self.passive:
            return given
        return tuple(a for a in given if not isinstance(a, DeclareWar))


@dataclass(frozen=True)
class Job:
    """One campaign to play: its line-up (a kind per power), seed and length."""

    tag: str
    seed: int
    lineup: tuple[tuple[str, str], ...]
    months: int
    scenario: str = "classic-1805"

    def kinds(self) -> dict[str, str]:
        return dict(self.lineup)


@dataclass(frozen=True)
class Result:
    job: Job
    #: Per power: victory points earned as a % of its victory level (no 4.2.3 bonus), and the % with it.
    earned: dict[str, int]
    percent: dict[str, int]
    #: The campaign's winners (12.1.3: a victory, else the largest % of the level).
    winners: tuple[str, ...]
    figures: Figures


def play_job(job: Job) -> Result:
    """One campaign in memory (a worker process or a cluster's worker runs it)."""
    from eiapbem.rules.economy.victory import shorter_campaign_winners, victory_level

    from . import duel

    kinds = job.kinds()
    passive = [p for p, k in kinds.items() if k == NEVER_DECLARES]
    real = {p: PlayerKind("ai-hard" if k == NEVER_DECLARES else k) for p, k in kinds.items()}
    seed = f"ai-strength/{job.seed}".encode()
    st = duel.start_state(job.scenario, real, seed)
    bonus = {p: st.powers[p].victory_points for p in POWERS}
    chron = Chronicle()
    played = duel.play(st, job.scenario, seed, job.months, chronicle=chron,
                       computer=NeverDeclares(passive) if passive else ai)
    end = played.state
    winners = tuple(end.victors) if end.victors else tuple(shorter_campaign_winners(end))
    earned = {p: (end.powers[p].victory_points - bonus[p]) * 100 // victory_level(end, p) for p in POWERS}
    pct = {p: end.powers[p].victory_points * 100 // victory_level(end, p) for p in POWERS}
    return Result(job, earned, pct, winners, chron.figures(played.journal, job.months))


def lineup(power: str | None, kind: str, others: str) -> tuple[tuple[str, str], ...]:
    return tuple((p, kind if p == power else others) for p in POWERS)


def plan(steps: Iterable[str], seeds: Iterable[int], months: int, scenario: str = "classic-1805") -> list[Job]:
    """Every campaign the steps need, each once (a baseline or a line-up shared by two steps is played once)."""
    jobs: dict[tuple, Job] = {}
    for name in steps:
        if name not in STEPS:
            raise IllegalAction(f"{name!r} is not a step of the ladder; use {', '.join(STEPS)}")
        strong, weak, others = STEPS[name]
        for s in seeds:
            for power, kind in [(None, others)] + [(p, k) for p in POWERS for k in (strong, weak)]:
                lu = lineup(power, kind, others)
                key = (s, lu)
                if key not in jobs:
                    tag = "all " + others if power is None or kind == others else f"{power} {kind} among {others}"
                    jobs[key] = Job(f"seed {s}: {tag}", s, lu, months, scenario)
    return list(jobs.values())


@dataclass(frozen=True)
class Pair:
    seed: int
    power: str
    strong: int
    weak: int

    @property
    def points(self) -> float:
        """1 when the stronger level did better, 0.5 when equal, 0 when worse."""
        return 1.0 if self.strong > self.weak else 0.5 if self.strong == self.weak else 0.0


def pairs(step: str, results: Iterable[Result]) -> list[Pair]:
    """The step's matched pairs from the campaigns played (a pair whose two campaigns are both there)."""
    strong, weak, others = STEPS[step]
    by = {(r.job.seed, r.job.lineup): r for r in results}
    out = []
    for s in sorted({seed for seed, _lu in by}):
        for p in POWERS:
            a, b = by.get((s, lineup(p, strong, others))), by.get((s, lineup(p, weak, others)))
            if a is not None and b is not None:
                out.append(Pair(s, p, a.earned[p], b.earned[p]))
    return out


def cluster_interval(pairs_: list[Pair], seed: int, draws: int = BOOTSTRAP) -> tuple[float, float]:
    """95% interval of the share of pair points: a bootstrap over the seeds (clusters of pairs)."""
    clusters: dict[int, list[float]] = {}
    for p in pairs_:
        clusters.setdefault(p.seed, []).append(p.points)
    keys = sorted(clusters)
    if len(keys) < 2:
        return 0.0, 1.0
    rng = random.Random(seed)
    shares = []
    for _ in range(draws):
        pick = [clusters[keys[rng.randrange(len(keys))]] for _ in keys]
        n = sum(len(c) for c in pick)
        shares.append(sum(sum(c) for c in pick) / n)
    shares.sort()
    return shares[int(0.025 * (draws - 1))], shares[int(0.975 * (draws - 1))]


def step_lines(step: str, results: list[Result], seed: int) -> list[str]:
    strong, weak, others = STEPS[step]
    ps = pairs(step, results)
    if not ps:
        return [f"{step}: no pair played"]
    share = sum(p.points for p in ps) / len(ps)
    lo, hi = cluster_interval(ps, seed)
    diffs = [p.strong - p.weak for p in ps]
    ahead = sum(1 for p in ps if p.strong > p.weak)
    ties = sum(1 for p in ps if p.strong == p.weak)
    seeds = len({p.seed for p in ps})
    out = [f"{strong} against {weak} (the other six {others}), {len(ps)} matched pairs over {seeds} seed(s): "
           f"{strong} ahead in {ahead}, equal in {ties}, behind in {len(ps) - ahead - ties}; share {100 * share:.0f}% "
           f"(95% CI {100 * lo:.0f}-{100 * hi:.0f}%, bootstrap over seeds); victory points earned, % of the level, "
           f"{strong} minus {weak}: mean {statistics.mean(diffs):+.1f}, median {statistics.median(diffs):+g}"]
    by = {(r.job.seed, r.job.lineup): r for r in results}
    if weak != others:
        return out
    solo = [by[(p.seed, lineup(p.power, strong, others))] for p in ps]
    won = sum(sum(1 for w in r.winners if w == lu_power(r, strong)) / max(1, len(r.winners)) for r in solo)
    out.append(f"  one {strong} power among six {others} (rotated): it won {won:g} of {len(solo)} campaigns "
               f"(12.1.3; equal play would win {len(solo) / len(POWERS):.1f})")
    return out


def lu_power(r: Result, kind: str) -> str | None:
    """The one power of ``kind`` in a campaign's line-up."""
    ps = [p for p, k in r.job.lineup if k == kind]
    return ps[0] if len(ps) == 1 else None


def campaign_line(r: Result) -> str:
    f = r.figures
    moving = min(f.months_moving.get(p, 0) for p in POWERS)
    return (f"  {r.job.tag}: winners {' '.join(r.winners)}; wars {len(f.new_wars)}, alliances {len(f.new_alliances)}, "
            f"subsidies {len(f.subsidies)}, battles of armies {len(f.big_battles())}, capitals taken {len(f.capitals)}, "
            f"peaces {len(f.peaces)}, provinces changed {len(f.provinces)}, foraging/battle losses "
            f"{sum(f.forage_lost.values())}/{sum(f.battle_lost.values())}, fewest months moving {moving}/{f.months}, "
            f"slowest slot {f.slowest[0]:.2f} s")


def run(steps: list[str], seeds: list[int], months: int, *, scenario: str = "classic-1805", jobs: int | None = None,
        cluster: str | None = None, say: Callable[[str], None] | None = None) -> list[Result]:
    """Play every campaign the steps need, on a process pool (``jobs``) or the Dask cluster at ``cluster``."""
    from . import campaign_cluster

    work = plan(steps, seeds, months, scenario)
    return campaign_cluster.run(play_job, work, jobs=jobs, address=cluster,
                                say=(lambda r: say(campaign_line(r))) if say else None)


def report(steps: list[str], results: list[Result], seed: int) -> list[str]:
    out = []
    for s in steps:
        out.extend(step_lines(s, results, seed))
    out.append("figures of every campaign played:")
    from .campaign_measures import total_lines

    out.extend(total_lines([r.figures for r in sorted(results, key=lambda r: r.job.tag)]))
    return out


__all__ = ["BOOTSTRAP", "Job", "KINDS", "NEVER_DECLARES", "NeverDeclares", "Pair", "Result", "STEPS", "campaign_line",
           "cluster_interval", "lineup", "pairs", "plan", "play_job", "report", "run", "step_lines"]
