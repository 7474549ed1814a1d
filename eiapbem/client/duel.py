"""The computer against the computer, in memory: seeded all-computer campaigns and the levels' strength (issue 19 item 4).

``play`` runs a campaign through the rules core alone — the same calls every
client makes for a computer power (``ai.play_slot`` for a sequential slot,
``ai.orders`` then ``engine.resolve_slot`` for a simultaneous one) — with each
slot's dice drawn from ``SHA-256(seed / slot key)``.  No file is written: the
file layer (sealing, chains, delivery, loading in eight folders) is checked
by ``eiapbem campaign`` and its tests, not here; a campaign in memory gives
the same states as by files only in the rules, not in the dice (a game by
files draws its dice from the files' chain).

``strength`` plays ``games`` such campaigns with ``hard`` powers at one level
(the strong one) and the others at another (the weak one), rotated over the
powers (game ``i`` gives the strong level to the powers ``i, i+1, ...`` in the
powers' order), spread over worker processes (``multiprocessing``, one per
core by default), and counts:

- **wins**: the campaign's winner by 12.1.3 (``GameState.victors``), or, when
  nobody has won when the months run out, the largest percentage of its
  victory level (12.1.3 "Shorter Campaigns"; ties share the win); a campaign
  counts for the strong level by the share of its winners that are strong;
- **ahead**: the strong powers' mean percentage of their victory levels is above
  the weak powers'; also with the 4.2.3 start bonus taken out (``ahead_play``),
  so that what is measured is the play and not the bonus.

Each share comes with a 95% Wilson score interval.  Floats are used for the
report only: the games themselves are the rules core's integers.
"""

from __future__ import annotations

import hashlib
import math
import os
from collections import Counter
from dataclasses import dataclass, field
from typing import Callable, Iterable

from eiapbem import ai
from eiapbem.core.dice import Dice
from eiapbem.core.errors import IllegalAction
from eiapbem.rules import engine
from eiapbem.rules.diplomacy.common import name
from eiapbem.rules.model import POWERS, GameState, LogEntry, Phase, PlayerKind
from eiapbem.rules.tables.diplomacy import NATURAL_ALLIANCE

#: Event kinds counted by ``play`` (what a campaign "had").
COUNTED = ("battle.start", "naval.combat", "siege.result", "diplomacy.war")


def start_state(scenario: str, kinds: dict[str, PlayerKind], seed: bytes) -> GameState:
    """The scenario's first state with the given computer levels (and their 4.2.3 start bonuses)."""
    from eiapbem.data import world
    from eiapbem.rules.economy.victory import with_ai_start_bonuses
    from eiapbem.rules.scenario import initial_state

    st = initial_state(world.load_scenario(scenario), world.load_raw(), players=dict(kinds))
    return with_ai_start_bonuses(st, Dice(hashlib.sha256(seed + b"/gamestart").digest()))


@dataclass
class Played:
    state: GameState
    slots: int = 0
    #: Event kind (prefix, ``COUNTED``) -> how many; and the declarations of war (6.2) made.
    counts: Counter = field(default_factory=Counter)
    declarations: int = 0
    #: Peaces made (a surrender or an informal peace, 6.4.1-6.4.2).
    peaces: int = 0
    #: The slowest computer slot (seconds, the wall clock: a figure, not a result).
    slowest: tuple[float, str] = (0.0, "")
    hashes: list[str] = field(default_factory=list)
    #: Per power: political points won (+) or lost (-) in each phase ("land", "economic"...: the political status
    #: display's marker before and after each slot), and counts of what it did ("wars declared", "surrenders").
    points: dict[str, Counter] = field(default_factory=lambda: {p: Counter() for p in POWERS})
    did: dict[str, Counter] = field(default_factory=lambda: {p: Counter() for p in POWERS})


#: The political points of the diplomacy phase by what earned them (``rules.diplomacy.common.points``' sentences).
_DIPLOMACY_POINTS = (("declare war on each other", "declarations of war"), ("declares war", "declarations of war"),
                     ("declared war", "declarations of war"), ("surrenders", "surrenders"),
                     ("accepts the", "surrenders accepted"), ("royal marriage", "royal marriages"),
                     ("alliance", "alliances"), ("refuse", "alliances"), ("selected to run", "minors"),
                     ("control of", "minors"), ("conquers", "minors"))


def _count(p: Played, events: Iterable[LogEntry], before: GameState | None = None) -> None:
    for e in events:
        if e.kind in COUNTED:
            p.counts[e.kind] += 1
        who = e.params.get("power") if e.params else None
        if e.kind == "diplomacy.points" and "declare" in e.text and "war on" in e.text:
            p.declarations += 1
            if who in p.did:
                p.did[who]["wars declared"] += 1
        if e.kind == "diplomacy.peace" and (" surrenders " in e.text or "make an informal peace" in e.text):
            p.peaces += 1
            if who in p.did and " surrenders " in e.text:
                p.did[who]["surrenders"] += 1
        if e.kind == "diplomacy.points" and who in p.did and "forced declarations of war over" in e.text:
            p.did[who]["forced wars over one minor (6.6.3)"] += 1
        if e.kind == "diplomacy.points" and who in p.did:
            bucket = next((b for k, b in _DIPLOMACY_POINTS if k in e.text), "other")
            p.did[who][f"political points for {bucket}"] += int(e.params.get("points", 0))
        if e.kind in ("land.conquest", "diplomacy.auto-conquest") and who in p.did and "conquer" in e.text:
            p.did[who]["minors conquered"] += 1
        if e.kind == "diplomacy.war" and who in p.did and e.params.get("target") not in (None, *POWERS):
            p.did[who]["wars on minors declared"] += 1
        if e.kind == "diplomacy.points" and who in p.did and " declares war on " in e.text:
            for q in POWERS:
                if q != who and f" declares war on {name(q)} (" in e.text and \
                        (NATURAL_ALLIANCE[who][q] >= 1 or NATURAL_ALLIANCE[q][who] >= 1):
                    # the exception: the friend was at war with one of the declarer's allies
                    ally_hit = before is not None and any(a in before.powers[q].wars for a in before.powers[who].alliances)
                    p.did[who]["wars on natural friends declared" + (" (at war with an ally)" if ally_hit else "")] += 1
        if e.kind == "siege.result" and e.params.get("outcome") == "captured":
            for q in POWERS:
                if f" taken by {q}" in e.text:
                    p.did[q]["cities taken by siege"] += 1


def counted(state: GameState, events: Iterable[LogEntry]) -> Played:
    """``events`` counted as ``play`` counts a slot's: a campaign by files reads them from a folder's journal."""
    out = Played(state)
    _count(out, events)
    return out


def play(state: GameState, scenario: str, seed: bytes, months: int, *, hashes: bool = False,
         clock: Callable[[], float] | None = None) -> Played:
    """Play every slot with the computer from ``state`` until ``months`` months after the setup (or the end)."""
    from eiapbem.client import setups
    from eiapbem.data.context import rules_context

    out = Played(state)
    first = None
    st = state
    while st.slot is not None:
        slot = st.slot
        if first is None and slot.phase is not Phase.SETUP:
            first = st.date
        if first is not None and st.date.index - first.index >= months:
            break
        key = slot.key(st.date)
        before = {p: st.powers[p].political_status for p in POWERS}
        before_state = st
        ctx = rules_context(Dice(hashlib.sha256(seed + b"/" + key.encode()).digest()))
        t0 = clock() if clock else 0.0
        if slot.simultaneous:
            orders = {p: list(ai.orders(st, p, ctx)) for p in slot.actors}
            res = engine.resolve_slot(st, orders, ctx)
            st, events = res.state, res.events
        else:
            power = str(slot.power)
            setup = setups.default_actions(scenario, power) if slot.phase is Phase.SETUP else []
            try:
                turn = ai.play_slot(st, power, ctx, setup=setup)
                st, events = turn.state, turn.events
            except ai.AiStuck as err:
                raise IllegalAction(f"the computer could not end {key}: {err}") from err
        if clock:
            dt = clock() - t0
            if dt > out.slowest[0]:
                out.slowest = (dt, key)
        _count(out, events, before_state)
        for p in POWERS:
            moved = st.powers[p].political_status - before[p]
            if moved:
                out.points[p][slot.phase.value] += moved
        out.slots += 1
        if hashes:
            out.hashes.append(f"{key} {st.state_hash().hex()}")
    out.state = st
    return out


def to_commit(state: GameState, power: str, ctx) -> tuple:
    """The orders a human's folder that lets the computer choose for it (``eiapbem campaign``) seals in the
    diplomacy commit round: those the computer would give from the same state in the orders round.  (A power
    played by the computer itself commits nothing: every client computes its orders at the reveal.)"""
    from eiapbem.rules.model.slot import COMMIT, ORDERS

    slot = state.slot
    if slot is None or slot.phase is not Phase.DIPLOMACY or slot.step != COMMIT:
        raise IllegalAction("there is no diplomacy commit round in play")
    return ai.orders(state.replace(slot=slot.replace(step=ORDERS)), power, ctx)


# ----------------------------------------------------------------- strength of the levels


@dataclass(frozen=True)
class Game:
    index: int
    strong: tuple[str, ...]
    #: Winners and how they were found ("victory" 12.1.3, or "standing" by percentage of the level).
    winners: tuple[str, ...]
    how: str
    #: Percentage of its victory level per power at the end, and the same without its 4.2.3 start bonus.
    percent: dict[str, int]
    percent_play: dict[str, int]
    wars: int
    peaces: int
    #: Per power: political points by phase and counts of what it did (``Played.points``, ``Played.did``).
    points: dict[str, dict[str, int]] = field(default_factory=dict)
    did: dict[str, dict[str, int]] = field(default_factory=dict)


def strong_powers(index: int, hard: int) -> tuple[str, ...]:
    return tuple(POWERS[(index + k) % len(POWERS)] for k in range(hard))


def one_game(args: tuple[int, int, int, str, str, str, int]) -> Game:
    """One seeded campaign of the strength measure (a worker process runs it)."""
    from eiapbem.rules.economy.victory import shorter_campaign_winners, victory_level

    index, months, hard, strong_kind, weak_kind, scenario, base_seed = args
    strong = strong_powers(index, hard)
    kinds = {p: PlayerKind(strong_kind if p in strong else weak_kind) for p in POWERS}
    seed = f"ai-strength/{base_seed}/{index}".encode()
    st = start_state(scenario, kinds, seed)
    bonus = {p: st.powers[p].victory_points for p in POWERS}
    played = play(st, scenario, seed, months)
    end = played.state
    if end.victors:
        winners, how = tuple(end.victors), "victory"
    else:
        winners, how = shorter_campaign_winners(end), "standing"
    pct = {p: end.powers[p].victory_points * 100 // victory_level(end, p) for p in POWERS}
    pct_play = {p: (end.powers[p].victory_points - bonus[p]) * 100 // victory_level(end, p) for p in POWERS}
    return Game(index, strong, winners, how, pct, pct_play, played.declarations, played.peaces,
                {p: dict(sorted(played.points[p].items())) for p in POWERS},
                {p: dict(sorted(played.did[p].items())) for p in POWERS})


def wilson(successes: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a share ``successes / n``."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    d = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / d
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return max(0.0, centre - half), min(1.0, centre + half)


#: Two-sided 95% quantiles of Student's t by degrees of freedom (1-30; beyond, the normal's 1.96 is near enough).
_T95 = (12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131,
        2.120, 2.110, 2.101, 2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042)


def mean_interval(values: list[float]) -> tuple[float, float, float]:
    """The mean of ``values`` and its 95% interval by Student's t (the interval is the whole line for one value)."""
    n = len(values)
    if n == 0:
        return 0.0, -math.inf, math.inf
    mean = sum(values) / n
    if n == 1:
        return mean, -math.inf, math.inf
    sd = math.sqrt(sum((v - mean) ** 2 for v in values) / (n - 1))
    t = _T95[n - 2] if n - 1 <= len(_T95) else 1.96
    half = t * sd / math.sqrt(n)
    return mean, mean - half, mean + half


@dataclass
class Report:
    games: list[Game]
    months: int
    hard: int
    strong_kind: str
    weak_kind: str

    def _mean(self, g: Game, which: dict[str, int], strong: bool) -> float:
        vals = [which[p] for p in POWERS if (p in g.strong) == strong]
        return sum(vals) / len(vals)

    def wins(self) -> float:
        """Campaigns won by the strong level (a shared win counts by the strong share of its winners)."""
        return sum(sum(1 for w in g.winners if w in g.strong) / len(g.winners) for g in self.games)

    def differences(self) -> list[float]:
        """Per campaign: the strong level's mean ``percent_play`` minus the weak level's (percentage points)."""
        return [self._mean(g, g.percent_play, True) - self._mean(g, g.percent_play, False) for g in self.games]

    def breakdown(self, strong: bool) -> dict[str, float]:
        """Per power and campaign at one level: the mean political points won or lost in each phase, and the mean
        count of each thing it did (``Game.points``, ``Game.did``)."""
        total: Counter = Counter()
        n = 0
        for g in self.games:
            for p in POWERS:
                if (p in g.strong) == strong:
                    n += 1
                    total.update({f"political points in the {k} phase": v for k, v in g.points.get(p, {}).items()})
                    total.update(g.did.get(p, {}))
        return {k: v / max(1, n) for k, v in sorted(total.items())}

    def ahead(self, play_only: bool = False) -> int:
        return sum(1 for g in self.games
                   if self._mean(g, g.percent_play if play_only else g.percent, True)
                   > self._mean(g, g.percent_play if play_only else g.percent, False))

    def lines(self) -> list[str]:
        n = len(self.games)
        weak = len(POWERS) - self.hard
        out = [f"{n} campaigns of {self.months} months: {self.strong_kind} on {self.hard} powers, {self.weak_kind} on "
               f"{weak}, rotated over the powers (in memory, through the rules core)"]
        fair = self.hard / len(POWERS)
        for label, k in (("won by the stronger level (victory level 12.1.3, else best % of level)", self.wins()),
                         (f"{self.strong_kind} ahead: its mean % of the victory level above {self.weak_kind}'s",
                          float(self.ahead())),
                         ("the same without the 4.2.3 start bonus (play alone)", float(self.ahead(True)))):
            lo, hi = wilson(k, n)
            out.append(f"  {label}: {k:g} of {n} = {100 * k / max(1, n):.0f}% (95% CI {100 * lo:.0f}-{100 * hi:.0f}%)")
        out.append(f"  (equal levels would win {100 * fair:.0f}% of campaigns: {self.hard} of {len(POWERS)} powers)")
        diffs = self.differences()
        mean, lo, hi = mean_interval(diffs)
        out.append(f"  play alone, {self.strong_kind}'s mean % of its victory level minus {self.weak_kind}'s: "
                   f"{mean:+.2f} points (95% CI {lo:+.2f} to {hi:+.2f})" if n > 1 else
                   f"  play alone, {self.strong_kind}'s mean % of its victory level minus {self.weak_kind}'s: {mean:+.2f} points")
        out.append("    per campaign: " + " ".join(f"{d:+.1f}" for d in diffs))
        strong_b, weak_b = self.breakdown(True), self.breakdown(False)
        out.append(f"  per power and campaign ({self.strong_kind} / {self.weak_kind}):")
        for row in sorted(set(strong_b) | set(weak_b)):
            fmt = "+.2f" if row.startswith("political points") else ".2f"
            out.append(f"    {row}: {strong_b.get(row, 0.0):{fmt}} / {weak_b.get(row, 0.0):{fmt}}")
        how = Counter(g.how for g in self.games)
        out.append(f"  winners found by: {', '.join(f'{k} {v}' for k, v in sorted(how.items()))}; "
                   f"wars declared {sum(g.wars for g in self.games)}, peaces {sum(g.peaces for g in self.games)}")
        return out


def strength(games: int, months: int, *, hard: int = 3, strong: str = "ai-hard", weak: str = "ai-easy",
             scenario: str = "classic-1805", seed: int = 1, jobs: int | None = None,
             say: Callable[[str], None] | None = None) -> Report:
    """Play ``games`` campaigns (see the module's notes) on ``jobs`` processes (default: every core)."""
    if not 1 <= hard < len(POWERS):
        raise IllegalAction(f"--hard is the number of powers at the stronger level, 1 to {len(POWERS) - 1}, not {hard}")
    for k in (strong, weak):
        if k not in ai.AI_KINDS:
            raise IllegalAction(f"{k!r} is not a computer level; use one of {', '.join(ai.AI_KINDS)}")
    jobs = jobs or os.cpu_count() or 1
    work = [(i, months, hard, strong, weak, scenario, seed) for i in range(games)]
    done: list[Game] = []
    if jobs == 1:
        for w in work:
            done.append(one_game(w))
            if say:
                say(_line(done[-1]))
    else:
        import multiprocessing

        with multiprocessing.get_context("spawn").Pool(jobs) as pool:
            for g in pool.imap_unordered(one_game, work):
                done.append(g)
                if say:
                    say(_line(g))
    return Report(sorted(done, key=lambda g: g.index), months, hard, strong, weak)


def _line(g: Game) -> str:
    return (f"  game {g.index}: strong {' '.join(g.strong)}; winner {' '.join(g.winners)} ({g.how}); "
            f"wars {g.wars}, peaces {g.peaces}")


__all__ = ["COUNTED", "Game", "Played", "Report", "mean_interval", "one_game", "play", "start_state", "strength",
           "strong_powers", "to_commit", "wilson"]

