"""An AI power's answers to pending decisions (battle chits, losses, withdraw...).

The answer is always one of ``PendingDecision.options``.  Battle chits follow
the operational possibilities chart (11.2.3, 000:3002-3030): medium plays the
best chit against the enemy's likeliest, hard the best answer to an enemy whose
chit can be foreseen (``foreseen``: a medium computer, whose rule is fixed, or
one that picks at random: an easy computer, a neutral minor's force, a
quick-combat defender, 11.2.1), otherwise the best worst case, and against a
human a chit drawn from the chart's equilibrium (``mixture``): "echelon" in
every attack and "defend" in every defence are read by a human after a few
battles and answered ("cordon", "echelon").  In a battle the search plays
forward (``odds.SearchDice``) it takes its best worst case: the search judges
the battle, not one draw of the chit.  Who plays each power,
and at what level, is known to every player of the game; the enemy's chit itself
is never read before the reveal.  A breach in a
siege's walls (``siege.surrender``, 11.4.1, 000:1972-1990) is fought unless the
storm is hopeless as the level judges it (``odds.storm_holds``), at every level; a garrison sorties when
asked unless the factor it may lose is its last (``odds.sortie_pays``).
A storm's casualties (``siege.casualty``, "any type ... at the controlling
player's option", 000:1986) are taken, by either side, from the cheapest factors
first (``CHEAPEST``): the storm's morale is fixed before it, so they change
only what survives.  Other questions take the first option offered (the rules
list the usual answer first) or, at the easy level, one option at random.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import eiapbem.ai.odds as odds
from eiapbem.ai.levels import Level
from eiapbem.rules.combat.commander import strategic_rating
from eiapbem.rules.combat.field import chit_options
from eiapbem.rules.combat.tables_use import outflank_arrival_rating
from eiapbem.rules.engine import AnswerDecision, RulesContext
from eiapbem.rules.model import POWERS, PendingDecision, PlayerKind
from eiapbem.rules.tables import land

#: The enemy chit a medium AI expects: the chart's plain choices (11.2.3).
LIKELIEST = {land.ATTACKER: "defend", land.DEFENDER: "assault"}
#: Rounds of fictitious play (each side's best answer to the other's picks so far) that give the hard level's mixture
#: of chits (``mixture``); the shares it gives are within a few percent of the chart's equilibrium.
ROUNDS = 400
#: The factor types a storm's casualties are taken from, cheapest first (militia and irregulars, then the line,
#: cavalry, artillery and guard last); a type not named comes after them.
CHEAPEST = ("militia", "feudal-infantry", "freikorps", "cossack", "guerrilla", "infantry", "feudal-cavalry",
            "cavalry", "artillery", "guard")


def _table_value(t: land.CombatTable | None) -> int:
    return 0 if t is None else t.casualty + t.morale


def chit_score(own: str, enemy: str, role: str) -> int:
    """How good ``own`` is for ``role`` against ``enemy``: the sum over the three rounds of the
    own table's levels minus the enemy's (higher tables inflict more, 11.2.6); 0 where the
    defender withdraws without a fight."""
    att, dfn = (own, enemy) if role == land.ATTACKER else (enemy, own)
    pairing = land.operational_possibility(att, dfn)
    if pairing.first is None:
        return 0
    mine = pairing.first.side(role)
    theirs = pairing.first.side(land.DEFENDER if role == land.ATTACKER else land.ATTACKER)
    return sum(_table_value(a) - _table_value(b) for a, b in zip(mine, theirs))


def choose_chit(options: tuple[str, ...], role: str, how: str) -> str:
    """The chit a medium ("likeliest") or hard ("maximin") AI picks among ``options``."""
    enemy_chits = land.DEFENDER_CHITS if role == land.ATTACKER else land.ATTACKER_CHITS
    if how == "likeliest":
        return max(options, key=lambda c: (chit_score(c, LIKELIEST[role], role), -options.index(c)))
    return max(options, key=lambda c: (min(chit_score(c, e, role) for e in enemy_chits), -options.index(c)))


def chit_value(own: str, enemy: str, role: str, ratings: tuple[int, int], terrain: str | None = None) -> int:
    """``chit_score`` in 36ths with the outflanking force weighed (11.2.12, note (I)): from the round after it
    arrives the pairing's second tables are fought, and it arrives on a die at most its side's strategic rating
    (``ratings``: the attacker's and the defender's; +1 for the attacker under note (E), -1 in rough terrain, +2
    after round 2); under note (D) a defender whose outflankers have not arrived after round 1 is gone (0).  An
    outflank is worth what its leader makes of it: "defend" against a human's outflank under a good leader loses."""
    att, dfn = (own, enemy) if role == land.ATTACKER else (enemy, own)
    pairing = land.operational_possibility(att, dfn)
    if pairing.first is None:
        return 0
    other = land.DEFENDER if role == land.ATTACKER else land.ATTACKER

    def rounds(ts: land.TableSet, fallback: list[int] | None = None) -> list[int]:
        mine, theirs = ts.side(role), ts.side(other)
        return [fallback[r] if fallback is not None and mine[r] is None
                else _table_value(mine[r]) - _table_value(theirs[r]) for r in range(3)]

    first = rounds(pairing.first)
    if pairing.outflanker is None or pairing.second is None:
        return 36 * sum(first)
    second = rounds(pairing.second, first)
    rating = ratings[0 if pairing.outflanker == land.ATTACKER else 1]
    if "E" in pairing.notes and pairing.outflanker == land.ATTACKER:
        rating += land.NOTE_STRATEGIC_BONUS
    p1, p2 = (max(0, min(6, outflank_arrival_rating(rating, after_round=r, terrain=terrain))) for r in (1, 2))
    if "D" in pairing.notes:  # not arrived after round 1: the defender withdraws unpursued
        return 36 * first[0] + 6 * p1 * (second[1] + second[2])
    by3 = 6 * p1 + (6 - p1) * p2  # 36ths: arrived by round 3
    return 36 * first[0] + 6 * p1 * second[1] + (36 - 6 * p1) * first[1] + by3 * second[2] + (36 - by3) * first[2]


@lru_cache(maxsize=256)
def mixture(options: tuple[str, ...], enemy_options: tuple[str, ...], role: str,
            ratings: tuple[int, int] | None = None, terrain: str | None = None) -> tuple[tuple[str, int], ...]:
    """The chits of ``options`` with their weights in the zero-sum game of chit values (``chit_score``, or with the
    sides' strategic ``ratings`` ``chit_value``) against an enemy choosing among ``enemy_options``: how often each is
    the best answer over ``ROUNDS`` rounds of fictitious play, in which each side answers the other's picks so far
    (the enemy's first its best worst case; ties to the first offered).  Chits never picked are left out."""
    other = land.DEFENDER if role == land.ATTACKER else land.ATTACKER

    def value(c: str, e: str, side: str) -> int:
        return chit_score(c, e, side) if ratings is None else chit_value(c, e, side, ratings, terrain)

    mine = {c: {e: value(c, e, role) for e in enemy_options} for c in options}
    theirs = {e: {c: value(e, c, other) for c in options} for e in enemy_options}
    own_count = dict.fromkeys(options, 0)
    enemy_count = dict.fromkeys(enemy_options, 0)
    enemy_count[max(enemy_options, key=lambda e: (min(theirs[e].values()), -enemy_options.index(e)))] = 1
    for _ in range(ROUNDS):
        pick = max(options, key=lambda c: (sum(mine[c][e] * n for e, n in enemy_count.items()), -options.index(c)))
        answer = max(enemy_options, key=lambda e: (sum(theirs[e][c] * n for c, n in own_count.items()),
                                                   -enemy_options.index(e)))
        own_count[pick] += 1
        enemy_count[answer] += 1
    return tuple((c, n) for c, n in own_count.items() if n)


def drawn(weights: tuple[tuple[str, int], ...], roll: int) -> str:
    """The chit of ``weights`` that a roll of 1 through their total picks."""
    for c, n in weights:
        if roll <= n:
            return c
        roll -= n
    raise ValueError("the roll exceeds the weights' total")


def _battle(b: Any, d: PendingDecision) -> Any:
    """The field battle the question ``d`` is about, or None (no state at hand, another kind of question)."""
    battle = b.state.battles.get(d.context.get("battle")) if b is not None and hasattr(d.context, "get") else None
    return battle if battle is not None and hasattr(battle, "side") else None


def foreseen(b: Any, d: PendingDecision, role: str) -> tuple[str, tuple[str, ...]] | None:
    """How the enemy side of the battle ``d`` asks a chit for picks it, when its rule does not depend on the power's
    own pick: ("likeliest", ...) for a medium computer, ("random", its options) for an easy computer or a side that
    answers by the dice (a neutral minor, a minor's force alone in defence, a quick-combat defender: 11.2.1); None
    for a human, a hard computer or a side under standing orders."""
    battle = _battle(b, d)
    if battle is None:
        return None
    other = land.DEFENDER if role == land.ATTACKER else land.ATTACKER
    side = battle.side(other)
    options = chit_options(b.state, side)
    if side.power is None:
        return "random", options
    ps = b.state.powers[side.power]
    automatic = other == land.DEFENDER and (b.state.options.pbem_quick_combat
                                            or all(b.state.units[u].nation not in POWERS for u in side.units))
    if automatic:
        if any(ps.standing_orders.battle_chits.get(u) in options for u in side.units):
            return None
        return "random", options
    if ps.controller is PlayerKind.AI_MEDIUM:
        return "likeliest", options
    if ps.controller is PlayerKind.AI_EASY:
        return "random", options
    return None


def human_enemy(b: Any, d: PendingDecision, role: str) -> bool:
    """Whether a human plays the enemy side of the battle ``d`` (a player who learns the computer's habits)."""
    battle = _battle(b, d)
    if battle is None:
        return False
    side = battle.side(land.DEFENDER if role == land.ATTACKER else land.ATTACKER)
    return side.power is not None and b.state.powers[side.power].controller is PlayerKind.HUMAN


def enemy_options(b: Any, d: PendingDecision, role: str) -> tuple[str, ...]:
    """The chits the enemy side of the battle ``d`` may pick (11.2.3), or every chit of its role when the battle is
    not known."""
    other = land.DEFENDER if role == land.ATTACKER else land.ATTACKER
    battle = _battle(b, d)
    if battle is None:
        return land.DEFENDER_CHITS if other == land.DEFENDER else land.ATTACKER_CHITS
    return chit_options(b.state, battle.side(other))


def best_answer(options: tuple[str, ...], role: str, enemy: tuple[str, tuple[str, ...]]) -> str:
    """The chit among ``options`` that does best against the enemy's foreseen pick: its one chit (a medium
    computer's), or on average over its options (one drawn at random)."""
    how, theirs = enemy
    other = land.DEFENDER if role == land.ATTACKER else land.ATTACKER
    if how == "likeliest":
        e = choose_chit(theirs, other, "likeliest")
        return max(options, key=lambda c: (chit_score(c, e, role), -options.index(c)))
    return max(options, key=lambda c: (sum(chit_score(c, e, role) for e in theirs), -options.index(c)))


def cheapest(options: tuple[str, ...]) -> str:
    """The ``unit/type`` casualty among ``options`` of the cheapest type (``CHEAPEST``), the first offered on a tie."""
    def rank(o: str) -> int:
        kind = o.rpartition("/")[2]
        return CHEAPEST.index(kind) if kind in CHEAPEST else len(CHEAPEST)
    return min(options, key=lambda o: (rank(o), options.index(o)))


def answer(d: PendingDecision, lvl: Level, ctx: RulesContext, b: Any = None) -> AnswerDecision:
    """The AI's answer to ``d`` (a labelled roll under ``ai/<power>/decision/<id>`` when at random); ``b``, a builder
    holding the state, for the questions judged from it (a breach)."""
    role = d.context.get("role") if hasattr(d.context, "get") else None
    if d.kind == "battle.chit" and role in (land.ATTACKER, land.DEFENDER) and lvl.chits != "random":
        enemy = foreseen(b, d, role) if lvl.chits == "mixed" and b is not None else None
        if enemy is not None and enemy[1]:
            return AnswerDecision(d.id, best_answer(d.options, role, enemy))
        if lvl.chits == "mixed" and human_enemy(b, d, role) and not isinstance(ctx.dice, odds.SearchDice):
            battle = _battle(b, d)
            ratings = (strategic_rating(b.state, battle.attacker, b.ctx.world),
                       strategic_rating(b.state, battle.defender, b.ctx.world))
            weights = mixture(tuple(d.options), enemy_options(b, d, role), role, ratings, battle.terrain)
            if len(weights) > 1:
                roll = ctx.dice.one_to(sum(n for _, n in weights), f"ai/{d.power}/decision/{d.id}")
                return AnswerDecision(d.id, drawn(weights, roll))
            return AnswerDecision(d.id, weights[0][0] if weights else d.options[0])
        return AnswerDecision(d.id, choose_chit(d.options, role, "likeliest" if lvl.chits == "likeliest" else "maximin"))
    if d.kind == "siege.surrender" and b is not None and set(d.options) == {"surrender", "fight"}:
        return AnswerDecision(d.id, "fight" if odds.storm_holds(b, lvl, d) else "surrender")
    if d.kind == "siege.sortie" and b is not None and set(d.options) == {"sortie", "stay"}:
        return AnswerDecision(d.id, "sortie" if odds.sortie_pays(b, d) else "stay")
    if d.kind == "siege.casualty" and lvl.decisions != "random" and d.options:
        return AnswerDecision(d.id, cheapest(d.options))
    random = lvl.chits == "random" if d.kind == "battle.chit" else lvl.decisions == "random"
    if random and len(d.options) > 1:
        i = ctx.dice.one_to(len(d.options), f"ai/{d.power}/decision/{d.id}") - 1
        return AnswerDecision(d.id, d.options[i])
    return AnswerDecision(d.id, d.options[0])


__all__ = ["CHEAPEST", "LIKELIEST", "ROUNDS", "answer", "best_answer", "cheapest", "choose_chit", "chit_score", "chit_value", "drawn",
           "enemy_options", "foreseen", "human_enemy", "mixture"]
