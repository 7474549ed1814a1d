"""The diplomatic reactions kept secret (issue 16; docs/decisions.md "Diplomacy's last gaps").

The reactions (DIPLOMATIC REACTIONS SCREEN, surrender settings) are cleared from the shared state when a month's
diplomacy is resolved; each power's program keeps its own in its save and sends them again inside its sealed
orders of every month (``eiapbem.client.orders``).  The two-folder check that a patched client learns nothing of
them before its own commitment is in ``tests/client/test_diplomacy_sealed.py``.
"""

from __future__ import annotations

import pytest

from eiapbem.client import orders as sealed_orders
from eiapbem.core import canonical
from eiapbem.core.dice import Dice
from eiapbem.data import world
from eiapbem.data.context import rules_context
from eiapbem.rules import engine
from eiapbem.rules.diplomacy import sealing
from eiapbem.rules.diplomacy.orders import (AcceptControl, AnswerCalls, CallAllies, DeclareWar, RequestAlliance,
                                            SetSurrenderTerms, SetTrade, SupportMinor, WithdrawAgainstMinor,
                                            clear_reactions, reaction_actions, reactions_after)
from eiapbem.rules.model import POWERS, Phase, Slot
from eiapbem.rules.model.slot import COMMIT, ORDERS
from eiapbem.rules.scenario import initial_state
from model_strategies import sample_meta


@pytest.fixture(scope="module")
def start():
    st = initial_state(world.load_scenario("classic-1805"), world.load_raw())
    return st.replace(slot=Slot(Phase.DIPLOMACY, ORDERS, None, POWERS)).with_alliance("AU", "RU", st.date)


def _ctx():
    return rules_context(Dice(b"reactions"))


def test_the_orders_that_set_the_reactions_again_give_the_same_reactions(start):
    slug = sorted(start.minors)[0]
    acts = [CallAllies("FR", ("AU",)), AnswerCalls("FR", ("AU",)), AnswerCalls("PR", ("AU",)), RequestAlliance("PR"),
            AcceptControl(slug), SupportMinor("FR", (slug,)), WithdrawAgainstMinor("PR", (slug,)),
            SetSurrenderTerms("FR", give_conditional=True, accept_informal=True, demand_break=("AU",)),
            SetSurrenderTerms("TU", allow_separate_peace=True)]
    so = reactions_after(start, "RU", acts)
    assert so.answer_calls["PR"] == ("AU",) and so.demand_break == ("AU",) and so.surrender["TU"].allow_separate_peace
    cleared = start.with_power("RU", standing_orders=clear_reactions(so))
    assert cleared.powers["RU"].standing_orders.surrender.get("FR") is None
    assert reactions_after(cleared, "RU", reaction_actions(so)) == so
    engine.check_orders(cleared, "RU", reaction_actions(so), _ctx())  # the program's orders are legal orders


def test_reactions_sent_this_month_answer_the_call_and_are_not_left_in_the_state(start):
    orders = {p: [] for p in POWERS}
    orders.update(FR=[DeclareWar("AU")], AU=[CallAllies("FR", ("RU",))], RU=[AnswerCalls("FR", ("AU",))])
    out = engine.resolve_slot(start, orders, _ctx()).state
    assert set(out.powers["FR"].wars) >= {"AU", "RU"}  # Russia answered Austria's call (6.3.2)
    assert out.powers["RU"].standing_orders.answer_calls.get("FR") is None  # no longer readable by anyone
    assert out.powers["AU"].standing_orders.call_allies.get("FR") is None
    # Without the reactions in that month's orders, the call goes unanswered.
    orders.update(RU=[])
    out = engine.resolve_slot(start, orders, _ctx()).state
    assert "RU" not in out.powers["FR"].wars


def test_the_folder_seals_its_kept_reactions_with_the_months_orders(start):
    ctx = _ctx()
    commit = start.replace(slot=Slot(Phase.DIPLOMACY, COMMIT, None, POWERS))
    meta = sample_meta(reactions={"RU": [engine.action_to_obj(AnswerCalls("FR", ("AU",)))]})
    acts, meta2 = sealed_orders.file_actions(meta, commit, "RU", [RequestAlliance("PR")], ctx)
    assert len(acts) == 1 and isinstance(acts[0], sealing.CommitOrders)
    assert b"answer-calls" not in canonical.encode(engine.action_to_obj(acts[0]))
    sealed = [engine.action_from_obj(o, "t") for o in meta2.sealed["RU"].actions]
    assert sealed == [AnswerCalls("FR", ("AU",)), RequestAlliance("PR")]
    kept = [engine.action_from_obj(o, "t") for o in meta2.reactions["RU"]]
    assert kept == [AnswerCalls("FR", ("AU",)), RequestAlliance("PR")]
    # A setting cleared by the player leaves the kept copy; one-round diplomacy sends them in the clear.
    acts, meta3 = sealed_orders.file_actions(meta2, start, "RU", [AnswerCalls("FR", ()), SetTrade("GB")], ctx)
    assert acts == [AnswerCalls("FR", ("AU",)), RequestAlliance("PR"), AnswerCalls("FR", ()), SetTrade("GB")]
    assert [engine.action_from_obj(o, "t") for o in meta3.reactions["RU"]] == [RequestAlliance("PR")]
    # No copy kept yet (a game from before): the state's settings are the first copy.
    st = start.with_power("TU", standing_orders=reactions_after(start, "TU", [CallAllies("RU", ("GB",))]))
    acts, meta4 = sealed_orders.file_actions(sample_meta(), st, "TU", [], ctx)
    assert acts == [CallAllies("RU", ("GB",))] and meta4.reactions["TU"] == (engine.action_to_obj(acts[0]),)
    # The economic phase's orders are left alone.
    eco = start.replace(date=start.date.next().next(), slot=Slot(Phase.ECONOMIC, ORDERS, None, POWERS))
    assert sealed_orders.file_actions(meta, eco, "RU", [], ctx) == ([], meta)


def test_a_kept_cession_term_that_would_cede_nothing_now_is_dropped_not_refused(start):
    # B.6 naming Tyrol was taken when Tyrol qualified (next to France's Italy); a kept reaction is sent again each
    # month, and once Tyrol no longer qualifies (already ceded here) it would be refused with the month's orders,
    # whatever the player gives (terms.verify_cessions): it goes without its cession term, the rest stands.
    ctx = _ctx()
    commit = start.replace(slot=Slot(Phase.DIPLOMACY, COMMIT, None, POWERS))
    terms = SetSurrenderTerms("AU", give_conditional=True, term=("B.6", "B.3"), cede=("tyrol",))
    engine.verify_action(commit, "FR", terms, ctx)  # Tyrol qualifies now
    meta = sample_meta(reactions={"FR": [engine.action_to_obj(terms)]})
    ceded = commit.replace(ceded_provinces=commit.ceded_provinces.set("tyrol", "PR"))
    _, meta2 = sealed_orders.file_actions(meta, ceded, "FR", [], ctx)
    sealed = [engine.action_from_obj(o, "t") for o in meta2.sealed["FR"].actions]
    assert sealed == [SetSurrenderTerms("AU", give_conditional=True, term=("B.3",), cede=("tyrol",))]
    _, same = sealed_orders.file_actions(meta, commit, "FR", [], ctx)  # still qualifying: kept as it was
    assert [engine.action_from_obj(o, "t") for o in same.sealed["FR"].actions] == [terms]
