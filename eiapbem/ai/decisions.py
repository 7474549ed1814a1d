"""An AI power's answers to pending decisions (battle chits, losses, withdraw...).

The answer is always one of ``PendingDecision.options``.  Battle chits follow
the operational possibilities chart (11.2.3, 000:3002-3030); other questions
take the first option offered (the rules list the usual answer first) or, at
the easy level, one option at random.
"""

from __future__ import annotations

from eiapbem.ai.levels import Level
from eiapbem.rules.engine import AnswerDecision, RulesContext
from eiapbem.rules.model import PendingDecision
from eiapbem.rules.tables import land

#: The enemy chit a medium AI expects: the chart's plain choices (11.2.3).
LIKELIEST = {land.ATTACKER: "defend", land.DEFENDER: "assault"}


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


def answer(d: PendingDecision, lvl: Level, ctx: RulesContext) -> AnswerDecision:
    """The AI's answer to ``d`` (a labelled roll under ``ai/<power>/decision/<id>`` when at random)."""
    role = d.context.get("role") if hasattr(d.context, "get") else None
    if d.kind == "battle.chit" and role in (land.ATTACKER, land.DEFENDER) and lvl.chits != "random":
        return AnswerDecision(d.id, choose_chit(d.options, role, lvl.chits))
    random = lvl.chits == "random" if d.kind == "battle.chit" else lvl.decisions == "random"
    if random and len(d.options) > 1:
        i = ctx.dice.one_to(len(d.options), f"ai/{d.power}/decision/{d.id}") - 1
        return AnswerDecision(d.id, d.options[i])
    return AnswerDecision(d.id, d.options[0])


__all__ = ["LIKELIEST", "answer", "choose_chit", "chit_score"]
