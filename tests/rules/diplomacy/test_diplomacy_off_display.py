"""A marker pushed off the political status display's lower end (13.7.1, 000:2616): the power must sue every enemy
at the *next* diplomacy phase, and has to accept only a conditional surrender; civil disorder (6.4.3, 000:756)
accepts any. A player whose declaration of war pushed its marker off was made to surrender unconditionally, with no
terms, in the very phase it declared."""

from __future__ import annotations

from eiapbem.core.dice import Dice
from eiapbem.rulecases.procedures.diplomacy import diplomacy_state
from eiapbem.rules import engine
from eiapbem.rulecases.procedures.economy import context
from eiapbem.rules.diplomacy.orders import DeclareWar, SetSurrenderTerms
from eiapbem.rules.model import POWERS, Phase, Slot
from eiapbem.rules.model.slot import ORDERS
from eiapbem.rules.politics import status_range


def _resolve(state, ctx, **given):
    orders = {p: list(given.get(p, ())) for p in POWERS}
    return engine.resolve_slot(state, orders, ctx).state


def test_a_declaration_that_pushes_the_marker_off_the_display_binds_a_suit_at_the_next_phase():
    ctx = context(Dice(b"off-display"))
    state = diplomacy_state({}, ctx)
    lo, _ = status_range(ctx)
    state = state.with_power("PR", political_status=lo + 1)
    after = _resolve(state, ctx, PR=[DeclareWar("AU")])
    pr = after.powers["PR"]
    assert "AU" in pr.wars  # no surrender in the phase it declared (13.7.1: "the next Diplomacy Phase")
    assert pr.political_status == lo and pr.must_sue_for_peace and pr.sue_off_display
    assert any("pushed off the display" in e.text and "next diplomacy phase (13.7.1)" in e.text for e in after.log)
    # the next month's phase: Austria would give unconditional terms, which Prussia need not accept (it did not
    # order it to), so the war goes on; conditional terms it accepts
    nxt = after.replace(date=after.date.next(), slot=Slot(Phase.DIPLOMACY, ORDERS, None, POWERS))
    harsh = _resolve(nxt, ctx, AU=[SetSurrenderTerms("PR", give_conditional=False, term=("B.2", "B.3", "C.3"))])
    assert "AU" in harsh.powers["PR"].wars and not harsh.powers["PR"].must_sue_for_peace
    assert any("must sue every enemy for peace and accept a conditional surrender (13.7.1)" in e.text for e in harsh.log)
    mild = _resolve(nxt, ctx, AU=[SetSurrenderTerms("PR", give_conditional=True, term=("B.2", "B.3"))])
    assert "AU" not in mild.powers["PR"].wars


def test_civil_disorder_accepts_any_surrender():
    ctx = context(Dice(b"disorder"))
    state = diplomacy_state({"wars": [["AU", "PR"]], "civil_disorder": ["PR"]}, ctx)
    after = _resolve(state, ctx, AU=[SetSurrenderTerms("PR", give_conditional=False, term=("B.2", "B.3", "C.3"))])
    assert "AU" not in after.powers["PR"].wars
    assert any("civil disorder" in e.text and "(6.4.3)" in e.text for e in after.log)
