"""An AI power's answers to pending decisions (battle chits, losses, withdraw...).

The answer is always one of ``PendingDecision.options``.  Battle chits follow
the operational possibilities chart (11.2.3, 000:3002-3030).  A breach in a
siege's walls (``siege.surrender``, 11.4.1, 000:1972-1990) is fought unless the
storm is hopeless as the level judges it (``odds.storm_holds``), at every level.
A storm's casualties (``siege.casualty``, "any type ... at the controlling
player's option", 000:1986) are taken, by either side, from the cheapest factors
first (``CHEAPEST``): the storm's morale is fixed before it, so they change
only what survives.  Other questions take the first option offered (the rules
list the usual answer first) or, at the easy level, one option at random.
"""

from __future__ import annotations

from typing import Any

import eiapbem.ai.odds as odds
from eiapbem.ai.levels import Level
from eiapbem.rules.engine import AnswerDecision, RulesContext
from eiapbem.rules.model import PendingDecision
from eiapbem.rules.tables import land

#: The enemy chit a medium AI expects: the chart's plain choices (11.2.3).
LIKELIEST = {land.ATTACKER: "defend", land.DEFENDER: "assault"}
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
        return AnswerDecision(d.id, choose_chit(d.options, role, lvl.chits))
    if d.kind == "siege.surrender" and b is not None and set(d.options) == {"surrender", "fight"}:
        return AnswerDecision(d.id, "fight" if odds.storm_holds(b, lvl, d) else "surrender")
    if d.kind == "siege.casualty" and lvl.decisions != "random" and d.options:
        return AnswerDecision(d.id, cheapest(d.options))
    random = lvl.chits == "random" if d.kind == "battle.chit" else lvl.decisions == "random"
    if random and len(d.options) > 1:
        i = ctx.dice.one_to(len(d.options), f"ai/{d.power}/decision/{d.id}") - 1
        return AnswerDecision(d.id, d.options[i])
    return AnswerDecision(d.id, d.options[0])


__all__ = ["CHEAPEST", "LIKELIEST", "answer", "cheapest", "choose_chit", "chit_score"]
