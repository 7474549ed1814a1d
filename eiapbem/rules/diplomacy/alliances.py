"""6.5 Creating alliances against the AI (000:762; NATURAL ALLIANCE TABLE 000:3169-3181)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from eiapbem.core.dice import Dice
from eiapbem.core.powers import check_power
from eiapbem.rules.tables.diplomacy import natural_alliance_modifier, status_modifier


@dataclass(frozen=True)
class AllianceAttempt:
    attempt_total: int  # 1-10 + status modifier + natural alliance modifier
    accept_roll: int  # the accepting power's unmodified 1-20
    formed: bool


def ai_alliance(attempting: str, accepting: str, zone: str, dice: Dice, *, label: str | None = None,
                world: Any = None) -> AllianceAttempt:
    """An attempt to ally with an AI power: formed if the attempting total is at least the 1-20."""
    check_power(attempting, "attempting power")
    check_power(accepting, "accepting power")
    mod = natural_alliance_modifier(attempting, accepting, world) + status_modifier(zone)
    label = label or f"diplomacy/alliance/{attempting}/{accepting}"
    total = dice.d10(f"{label}/attempt") + mod
    accept = dice.d20(f"{label}/accept")
    return AllianceAttempt(total, accept, total >= accept)


# ----------------------------------------------------------------- the phase's alliance steps (6.5, 6.7)

#: 6.5.1: months after a broken alliance before the two may ally again.
REALLY_AFTER = 12


def alliance_barred(state, a: str, b: str) -> str:
    """Why ``a`` and ``b`` may not ally now ("" if they may) (6.5.1)."""
    from eiapbem.rules.diplomacy.common import name

    pa = state.powers[a]
    if b in pa.alliances:
        return f"{name(a)} and {name(b)} are already allied (6.5.1)"
    if b in pa.wars:
        return f"{name(a)} and {name(b)} are at war and may not ally (6.5.1)"
    broken = pa.alliances_broken.get(b)
    if broken is not None and state.date < broken.plus(REALLY_AFTER):
        return f"{name(a)} and {name(b)} broke an alliance in {broken} and may not ally again before {broken.plus(REALLY_AFTER)} (6.5.1)"
    return ""


def break_alliance(r, power: str, partner: str) -> None:
    """6.7: the alliance ends, -2 political points for the breaker; not a declaration of war."""
    from eiapbem.rules.diplomacy.common import points, set_mutual
    from eiapbem.rules.diplomacy.common import name

    if partner not in r.state.powers[power].alliances:
        return
    r.state = set_mutual(r.state.without_alliance(power, partner), "alliances_broken", power, partner, r.state.date)
    points(r, power, -2, f"{name(power)} breaks its alliance with {name(partner)} (6.7)")


def form_alliances(r) -> None:
    """6.5: two powers that both request an alliance ally, +1 political point each; a human's request to a
    computer power is answered by the 1-10 against 1-20 roll (``ai_alliance``)."""
    from eiapbem.rules.diplomacy.common import points
    from eiapbem.rules.diplomacy.common import name
    from eiapbem.rules.politics import status_box
    from eiapbem.rules.model import POWERS, PlayerKind

    for i, a in enumerate(POWERS):
        for b in POWERS[i + 1:]:
            st = r.state
            wa = b in st.powers[a].standing_orders.request_alliance
            wb = a in st.powers[b].standing_orders.request_alliance
            if not (wa or wb):
                continue
            if alliance_barred(st, a, b):
                if b not in st.powers[a].alliances:  # a request that cannot be met is answered with its reason
                    for asking, asked in ((a, b), (b, a)) if wa and wb else ((a, b),) if wa else ((b, a),):
                        r.say(asking, "diplomacy.alliance", f"{name(asking)}'s request to ally with {name(asked)} "
                              f"is not met: {alliance_barred(st, asking, asked)}", other=asked)
                continue
            ai_a = st.powers[a].controller is not PlayerKind.HUMAN
            ai_b = st.powers[b].controller is not PlayerKind.HUMAN
            formed = wa and wb
            if not formed and ((wa and ai_b) or (wb and ai_a)):
                asking, asked = (a, b) if wa else (b, a)
                zone = status_box(r.ctx, st.powers[asking].political_status)["zone"]
                roll = ai_alliance(asking, asked, zone, r.ctx.dice, world=r.ctx.world)  # 14.3 item 10: edited stances
                r.say(asking, "diplomacy.alliance",
                      f"{name(asking)} asks {name(asked)} (computer) to ally: {roll.attempt_total} against "
                      f"{roll.accept_roll}, {'accepted' if roll.formed else 'refused'} (6.5)")
                formed = roll.formed
                if not formed:
                    n = st.powers[asking].failed_ai_requests
                    r.state = r.state.with_power(asking, failed_ai_requests=n + 1)
            if formed:
                r.state = r.state.with_alliance(a, b, st.date)
                r.say(a, "diplomacy.alliance", f"{name(a)} and {name(b)} form an alliance (6.5)", other=b)
                points(r, a, 1, f"{name(a)} forms an alliance with {name(b)} (6.5)")
                points(r, b, 1, f"{name(b)} forms an alliance with {name(a)} (6.5)")
