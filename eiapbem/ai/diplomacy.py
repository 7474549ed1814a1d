"""An AI power's diplomacy orders (6.0-6.16; issue 16 item 4): legal every month, never blocking.

Standing orders only, given when they differ from what stands (they persist
month to month, 6.0), in this order:

- trade (6.10): every power not at war with Great Britain requests trade
  with it; Great Britain allows every power it is not at war with;
- calls to allies (6.3.1): the AI answers every ally's call against any
  enemy, and calls its allies against an aggressor;
- the VICTORY CONDITIONS SCREEN (6.4) toward each enemy: conditional terms
  (so a human suing always gets peace), B.3 then B.2 and B.4 as the
  preference list (the easy level: B.4 and B.2, and accepts informal peace);
  as loser it claims A.2 (pay no reparations);
- alliances (6.5) are answered by the 6.5 roll in the rules; the AI asks
  for none.  Suing for peace in civil disorder is done by the rules (6.4.3).

Declarations of war, the strategic choices, come with the AI issue.
"""

from __future__ import annotations

from eiapbem.ai.levels import Level
from eiapbem.rules.diplomacy.orders import AnswerCalls, CallAllies, SetSurrenderTerms, SetTrade
from eiapbem.rules.model import POWERS, PlayerKind, SurrenderSettings
from eiapbem.rules.model.slot import COMMIT


def _terms(lvl: Level) -> tuple[str, ...]:
    return ("B.4", "B.2") if lvl.kind is PlayerKind.AI_EASY else ("B.3", "B.2", "B.4")


def plan(b, lvl: Level) -> None:
    """Give the power's diplomacy orders on the builder ``b`` (``eiapbem.ai.Builder``)."""
    st = b.state
    if st.slot is None or st.slot.step == COMMIT:
        return  # the computer commits nothing: its orders are computed by every client at the reveal
    p = b.power
    ps = st.powers[p]
    if p == "GB":
        for q in POWERS:
            if q != p and q not in ps.wars and q not in ps.trade:
                b.try_(SetTrade(q))
    elif "GB" not in ps.wars and "GB" not in ps.trade:
        b.try_(SetTrade("GB"))
    allies = tuple(sorted(ps.alliances))
    for enemy in POWERS:
        if enemy == p:
            continue
        answer = tuple(a for a in allies if a != enemy)
        if ps.standing_orders.answer_calls.get(enemy, ()) != answer and answer:
            b.try_(AnswerCalls(enemy, answer))
        if ps.standing_orders.call_allies.get(enemy, ()) != answer and answer:
            b.try_(CallAllies(enemy, answer))
    for enemy in sorted(ps.wars):
        want = SurrenderSettings(give_conditional=True, terms=_terms(lvl), accept_informal=lvl.kind is PlayerKind.AI_EASY,
                                 if_conditional_offered="A.2")
        if ps.standing_orders.surrender.get(enemy) != want:
            b.try_(SetSurrenderTerms(enemy, give_conditional=True, term=want.terms, accept_informal=want.accept_informal,
                                     if_conditional_offered="A.2"))
