"""How the computer judges a field battle before it marches into it (11.2; the levels' judgement, ``Level.judge``).

A battle in an area is fought by the corps that end their movement there (11.1) and by those of either side in the
areas next to it that join it after a round (11.2.11, 000:1862-1890: a die against the strategic rating of the
leader there, or each corps' intrinsic rating, less one for a forest, mountain or marsh area or a river, after
the first and the second round of the day).  The levels judge it differently, which is what makes one better than
another; none of them is more timid (issue 28 item 3):

- ``"factors"`` (easy): army factors against army factors, the corps in the area only;
- ``"strength"`` (medium): strength (``assess.force_strength``: factors x morale under the commander, 13.8.6-13.8.7)
  and the corps next to the area of both sides, each counted by its chance to join (``join_percent``);
- ``"search"`` (hard): as medium, and a battle whose estimate is neither clearly won nor clearly lost is played
  forward with the rules' own engine ``samples`` times (``simulate``), on dice drawn from a labelled roll of the
  slot's own dice (``ai/<power>/search``), from the state after its moves: the share won and the factors lost on
  each side decide.

A storm through a breach (11.4.1, 000:1972-1990) is judged the same way (``storm_holds``): the besiegers against
what stands inside, by factors (easy) or strength (medium, hard), and the hard level plays an uncertain storm
forward with the rules' engine on the search dice.

Everything is an integer; the state and the slot's dice decide every verdict, so every client reaches the same.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, replace
from typing import Any, Iterable

import eiapbem.ai.assess as assess
from eiapbem.core.dice import Dice
from eiapbem.core.errors import IllegalAction
from eiapbem.rules import relations
from eiapbem.rules.combat.battle import INTRINSIC_RATINGS, OTHER_MINOR_INTRINSIC
from eiapbem.rules.combat.sieges import DEFENDER, factors_of
from eiapbem.rules.land.combat import Attack
from eiapbem.rules.model import Corps, CorpsType, LocationKind

#: 11.2.11 (000:1880): forest, mountain and marsh areas lower the strategic rating by one (as a river does).
ROUGH = ("forest", "mountain", "marsh")
#: Reinforcement checks in the first day of a battle (after rounds 1 and 2).
CHECKS = 2
#: A battle won this rarely (percent) is still fought when it costs the enemy ``WEAR_RATIO`` percent of the share of
#: its army that it costs the power.
WEAR_WINS = 10
WEAR_RATIO = 250
#: A hard estimate at or above this (per hundred) is won without playing it forward; below ``CLEARLY_LOST``, lost.
CLEARLY_WON = 300
CLEARLY_LOST = 70


def join_percent(b: Any, unit_ids: Iterable[str], from_area: str, to_area: str) -> int:
    """The chance (percent) that these units, standing next to a battle, join it in its first day (11.2.11)."""
    ids = sorted(unit_ids)
    m = b.ctx.map
    penalty = 1 if m.area(from_area).terrain in ROUGH or m.is_river(from_area, to_area) else 0
    leaders = assess.leaders_of(b.state, ids)
    if leaders:
        # the rules roll for the leader of the best seniority, then the best strategic rating (field_end)
        rating = max(assess.leader_info(b.ctx, lid)[1] for lid in leaders
                     if assess.leader_info(b.ctx, lid)[3] == min(assess.leader_info(b.ctx, x)[3] for x in leaders))
    else:
        rating = max((INTRINSIC_RATINGS.get(u.nation, OTHER_MINOR_INTRINSIC)[0] for u in (b.state.units[i] for i in ids)
                      if isinstance(u, Corps)), default=0)
    q = max(0, min(6, rating - penalty))
    return 100 - (6 - q) ** CHECKS * 100 // 6 ** CHECKS


def field_units(b: Any, area: str, *, enemy: bool) -> list[str]:
    """Corps and depot garrisons with factors in the rural part of ``area``: the enemy's or the power's own."""
    out = []
    for u in b.state.units.values():
        if u.location.kind is not LocationKind.AREA or u.location.site != area or not getattr(u, "factors", None) \
                or not u.factors.total or (isinstance(u, Corps) and u.corps_type is CorpsType.GUERRILLA):
            continue
        if enemy and assess.hostile(b.state, b.power, u) or not enemy and relations.unit_power(b.state, u) == b.power:
            out.append(u.id)
    return sorted(out)


def neighbours_joining(b: Any, area: str, *, enemy: bool, exclude: Iterable[str] = ()) -> int:
    """Strength expected to join a battle in ``area`` from the areas next to it, of the enemy or the power."""
    skip = set(exclude)
    total = 0
    for nb in sorted(b.ctx.map.land_neighbours(area)):
        ids = [i for i in field_units(b, nb, enemy=enemy) if i not in skip and isinstance(b.state.units[i], Corps)]
        if ids:
            total += assess.force_strength(b.state, b.ctx, ids) * join_percent(b, ids, nb, area) // 100
    return total


def side_strength(state: Any, ctx: Any, lvl: Any, ids: Iterable[str]) -> int:
    """What the level counts of the units ``ids`` fighting together: their factors (``"factors"``) or their strength
    (``assess.force_strength``)."""
    if lvl.judge == "factors":
        return sum(u.factors.total for u in (state.units.get(i) for i in sorted(set(ids))) if u is not None)
    return assess.force_strength(state, ctx, ids)


@dataclass(frozen=True)
class Estimate:
    """Attacker strength per hundred of the defender's, as the level judges it."""

    odds: int
    own: int
    enemy: int


def estimate(b: Any, lvl: Any, area: str, attackers: Iterable[str],
             supporters: dict[str, list[str]] | None = None) -> Estimate:
    """The level's estimate of a battle in ``area`` fought by ``attackers`` (with ``supporters``: the corps that will
    stand in each area next to it, which may join) against the enemy there and, from medium up, the enemy next to
    it."""
    att = sorted(set(attackers))
    defenders = field_units(b, area, enemy=True)
    st, ctx = b.state, b.ctx
    if lvl.judge == "factors":
        own, enemy = side_strength(st, ctx, lvl, att), side_strength(st, ctx, lvl, defenders)
        return Estimate(assess.odds(own, enemy), own, enemy)
    own = side_strength(st, ctx, lvl, att)
    for a, ids in sorted((supporters or {}).items()):
        if ids:
            own += assess.force_strength(st, ctx, ids) * join_percent(b, ids, a, area) // 100
    enemy = assess.force_strength(st, ctx, defenders) + neighbours_joining(b, area, enemy=True)
    return Estimate(assess.odds(own, enemy), own, enemy)


@dataclass(frozen=True)
class Played:
    """What ``samples`` battles played forward gave: wins, and factors lost by each side (all samples together)."""

    samples: int
    wins: int
    own_lost: int
    enemy_lost: int


class SearchDice(Dice):
    """The dice of a battle or storm played forward by the search: the decisions answered on them are the search's
    model of the power's play (``decisions.answer`` takes its best worst case chit there, not a draw)."""


def _seed(b: Any) -> bytes:
    """The seed of the slot's search dice: one labelled roll of the slot's own dice (so no one grinds it)."""
    got = getattr(b, "search_seed", None)
    if got is None:
        n = b.ctx.dice.roll(f"ai/{b.power}/search", 1 << 30)
        got = hashlib.sha256(f"eiapbem/ai-search/{b.power}/{n}".encode()).digest()
        b.search_seed = got
    return got


def simulate(b: Any, area: str, samples: int) -> Played | None:
    """The battle in ``area`` played forward from the builder's state ``samples`` times with the rules' engine
    (every question answered as it would be: the computer's own answers, a human's standing orders), each on dice
    of its own drawn from the search seed; None when it cannot be played (the rules refuse it or it waits)."""
    seed = _seed(b)
    wins = own_lost = enemy_lost = 0
    for k in range(samples):
        dice = SearchDice(hashlib.sha256(seed + f"/{b.state.date}/{area}/{k}".encode()).digest())
        trial = type(b)(b.state, b.power, replace(b.ctx, dice=dice))
        try:
            if not trial.try_(Attack(area)):
                return None
        except IllegalAction:
            return None
        fought = [x for x in trial.state.battles.values() if x.area == area and x.id not in b.state.battles]
        if len(fought) != 1 or not fought[0].finished:
            return None
        x = fought[0]
        mine, theirs = (x.attacker, x.defender) if x.attacker.power == b.power else (x.defender, x.attacker)
        wins += 1 if x.winner and x.side(x.winner) is mine else 0
        own_lost += mine.factors_lost
        enemy_lost += theirs.factors_lost
    return Played(samples, wins, own_lost, enemy_lost)


def worth_fighting(b: Any, lvl: Any, est: Estimate, area: str | None = None) -> bool | None:
    """The level's verdict from its estimate: True, False, or None when a hard level should play it forward (its
    estimate is neither clearly won nor clearly lost and it has the moves made to simulate from)."""
    if lvl.judge == "search" and CLEARLY_LOST <= est.odds < CLEARLY_WON and area is not None:
        return None
    return est.odds >= lvl.attack_odds


def won_enough(lvl: Any, played: Played, own: int, enemy: int) -> bool:
    """A battle played forward is worth fighting when it is won at least ``win_share`` percent of the time, or when
    it wears the enemy down: won at least ``WEAR_WINS`` percent of the time and costing the enemy at least
    ``WEAR_RATIO`` percent of the share of its army (``enemy`` factors) that it costs the power's (``own``) -- the
    morale charts let a smaller army of better morale break a larger one (11.2.10), which is still bled white."""
    if played.wins * 100 >= lvl.win_share * played.samples:
        return played.enemy_lost * 2 >= played.own_lost
    return (played.wins * 100 >= WEAR_WINS * played.samples
            and played.enemy_lost * max(1, own) * 100 >= WEAR_RATIO * played.own_lost * max(1, enemy))


# ----------------------------------------------------------------- a storm through a breach (11.4.1)

#: Besiegers per hundred of the garrison (factors or strength, as the level judges) from which a storm is hopeless
#: for the garrison: the storm's morale losses do not depend on the numbers, only its casualties do, so a garrison of
#: morale 3 holds about half the storms up to 3:1 and a quarter at 4:1, but a tenth at 5:1 and none at 10:1 (the
#: besiegers' casualties then destroy it in a round or two; docs/decisions.md, "Capitals besieged and stormed").
HOPELESS = 500
#: The hard level takes a storm below this for one it may hold without playing it forward, and one at ``SURE`` or
#: more for lost; between, it plays the storm forward and the garrison fights when it holds at least ``HOLDS`` percent.
STORM_OPEN = 300
STORM_SURE = 1000
HOLDS = 10


def storm_estimate(state: Any, ctx: Any, lvl: Any, siege: Any) -> Estimate:
    """The level's estimate of the storm of ``siege``: the besiegers per hundred of what stands inside."""
    own = side_strength(state, ctx, lvl, siege.besiegers)
    enemy = side_strength(state, ctx, lvl, siege.defenders)
    return Estimate(assess.odds(own, enemy), own, enemy)


def storm_holds(b: Any, lvl: Any, decision: Any) -> bool:
    """Whether the garrison asked ``decision`` (``siege.surrender``, 11.4.1) may hold the storm, as the level judges
    it: not when the besiegers reach ``HOPELESS`` per hundred of it; the hard level plays an uncertain storm forward
    ``samples`` times (``simulate_storm``) and fights when the garrison holds ``HOLDS`` percent of them.  A garrison
    that fights and falls is taken all the same (its survivors prisoners) but the storm costs the besiegers
    factors and a fortress's defender who holds gains a political point; one that surrenders keeps its factors as
    prisoners and gives no point (000:1974, 000:1988-1994)."""
    siege = b.state.sieges.get(decision.context.get("siege"))
    if siege is None:
        return True
    est = storm_estimate(b.state, b.ctx, lvl, siege)
    if lvl.judge != "search":
        return est.odds < HOPELESS
    if est.odds < STORM_OPEN or est.odds >= STORM_SURE:
        return est.odds < STORM_OPEN
    played = simulate_storm(b, decision, lvl.samples)
    if played is None:
        return est.odds < HOPELESS
    return played.wins * 100 >= HOLDS * played.samples


def sortie_pays(b: Any, decision: Any) -> bool:
    """Whether the garrison asked ``decision`` (``siege.sortie``, 11.4.1) sorties: a sortie costs the besiegers a
    factor on four faces of the die and the garrison one on two, so it pays, unless that one factor is the garrison's
    last: a garrison emptied by its sortie leaves the city to the besiegers."""
    siege = b.state.sieges.get(decision.context.get("siege"))
    return siege is not None and factors_of(b.state, siege, DEFENDER) > 1


def simulate_storm(b: Any, decision: Any, samples: int) -> Played | None:
    """The storm ``decision`` opens played forward from the builder's state ``samples`` times with the rules' engine,
    as ``simulate`` plays a battle; a win is a storm the garrison holds.  None when one cannot be played to its end
    (a question of a human's waits)."""
    seed = _seed(b)
    wins = own_lost = enemy_lost = 0
    sid = decision.context.get("siege")
    for k in range(samples):
        dice = SearchDice(hashlib.sha256(seed + f"/{b.state.date}/storm/{sid}/{k}".encode()).digest())
        trial = type(b)(b.state, b.power, replace(b.ctx, dice=dice))
        if not trial.answer_(decision.id, "fight"):
            return None
        s = trial.state.sieges.get(sid)
        if s is None or s.step != "done":
            return None
        wins += 1 if s.outcome != "captured" else 0
        own_lost += sum(r.losses.get("defender", 0) for r in s.rounds)
        enemy_lost += sum(r.losses.get("besieger", 0) for r in s.rounds)
    return Played(samples, wins, own_lost, enemy_lost)


__all__ = ["HOPELESS", "Estimate", "Played", "estimate", "field_units", "join_percent", "neighbours_joining",
           "side_strength", "simulate", "simulate_storm", "sortie_pays", "storm_estimate", "storm_holds", "won_enough",
           "worth_fighting"]
