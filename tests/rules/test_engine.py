"""The rules engine's shared checks: whose turn, phase of an action, encoding, ending slots."""

from dataclasses import dataclass
from typing import Annotated

import pytest

from eiapbem.core.errors import BadEncoding, IllegalAction
from eiapbem.rules import engine
from eiapbem.core.dice import Dice
from eiapbem.rules.model import Date, GameState, PendingDecision, Phase, Record
from eiapbem.rules.model.base import FrozenMap, Range


@dataclass(frozen=True, slots=True)
class AddMoney(Record):
    """Test action: add money to the acting power's treasury."""

    KIND = "test.add-money"
    amount: Annotated[int, Range(1, 100)]


def _verify(state, power, action, ctx):
    if state.powers[power].treasury + action.amount > 50:
        raise IllegalAction(f"{power} would hold more than $50")


def _candidates(state, power, ctx):
    return (AddMoney(1), AddMoney(10), AddMoney(60), AddMoney(1))


def _apply(state, power, action, ctx):
    ps = state.powers[power]
    new = state.with_power(power, treasury=ps.treasury + action.amount)
    return engine.log(new, power, "test.money", f"{power} adds ${action.amount}", amount=action.amount)


@pytest.fixture
def ctx():
    return engine.RulesContext(map=None, world={}, dice=Dice(b"test"))


@pytest.fixture
def state():
    return GameState.new("classic-1805", Date(1805, 1), Date(1815, 12))


def test_the_acting_power_may_act_and_the_log_says_so(state, ctx):
    assert state.slot.power == "RU"  # 5.3: Russia sets up first (000:332)
    out = engine.apply_action(state, "RU", AddMoney(5), ctx)
    assert out.state.powers["RU"].treasury == 5
    assert [e.text for e in out.events] == ["RU adds $5"]
    assert out.state.log[-1].slot == "1805-01/setup/turn/RU"


def test_another_power_is_refused_with_whose_turn_it_is(state, ctx):
    with pytest.raises(IllegalAction, match="not FR's turn: 1805-01/setup/turn/RU belongs to RU"):
        engine.apply_action(state, "FR", AddMoney(5), ctx)


def test_a_refused_action_changes_nothing(state, ctx):
    before = state.state_hash()
    with pytest.raises(IllegalAction, match="more than \\$50"):
        engine.apply_action(state, "RU", AddMoney(51), ctx)
    assert state.state_hash() == before


def test_encoding_round_trip_and_unknown_kind():
    obj = engine.action_to_obj(AddMoney(7))
    assert obj == {"kind": "test.add-money", "amount": 7}
    assert engine.action_from_obj(obj) == AddMoney(7)
    with pytest.raises(BadEncoding, match="unknown action kind 'nope'"):
        engine.action_from_obj({"kind": "nope"})
    with pytest.raises(BadEncoding):
        engine.action_from_obj({"kind": "test.add-money", "amount": 1.5})


def test_replay_equals_live_play(state, ctx):
    actions = [AddMoney(3), AddMoney(4), AddMoney(10)]
    live = state
    for a in actions:
        live = engine.apply_action(live, "RU", a, ctx).state
    replay = engine.apply_actions(state, "RU", [engine.action_from_obj(engine.action_to_obj(a)) for a in actions], ctx)
    assert replay.state.state_hash() == live.state_hash()


def test_end_slot_moves_to_the_next_power_and_a_pending_decision_blocks_it(state, ctx):
    out = engine.end_slot(state, "RU", ctx)
    assert out.state.slot.power == "TU"  # 5.3 order: RU, TU, AU, PR, SP, FR, GB
    d = PendingDecision(id="q1", power="RU", kind="test.question", options=("yes", "no"), slot="1805-01/setup/turn/RU")
    blocked = state.replace(pending=FrozenMap({"q1": d}))
    with pytest.raises(IllegalAction, match="answer the pending decision test.question"):
        engine.end_slot(blocked, "RU", ctx)


def test_simultaneous_slot_needs_every_powers_orders(state, ctx, monkeypatch):
    # The engine's default resolution (orders applied power by power) for a phase without a
    # resolve hook: the diplomacy phase's own hooks (rules/diplomacy/resolve.py) are set aside here.
    engine._load()
    monkeypatch.delitem(engine._PHASES, Phase.DIPLOMACY)
    s = state.replace(options=state.options.replace(one_round_diplomacy=True))
    while s.slot.phase == Phase.SETUP:
        s = engine.end_slot(s, s.slot.power, ctx).state
    assert s.slot.phase == Phase.DIPLOMACY and s.slot.simultaneous
    with pytest.raises(IllegalAction, match="played by all powers at once"):
        engine.end_slot(s, "FR", ctx)
    scratch = engine.check_orders(s, "FR", [AddMoney(2)], ctx)
    assert scratch.state.powers["FR"].treasury == 2 and s.powers["FR"].treasury == 0
    orders = {p: [] for p in s.slot.actors}
    with pytest.raises(IllegalAction, match="missing FR"):
        engine.resolve_slot(s, {p: v for p, v in orders.items() if p != "FR"}, ctx)
    orders["FR"] = [AddMoney(2)]
    out = engine.resolve_slot(s, orders, ctx)
    assert out.state.powers["FR"].treasury == 2
    assert out.state.slot.phase == Phase.REINFORCEMENT


def _verify_q(state, power, decision, choice, ctx):
    if choice == "maybe":
        raise IllegalAction("maybe is never allowed")


def _apply_q(state, power, decision, choice, ctx):
    s = state.replace(pending=state.pending.remove(decision.id))
    return engine.log(s, power, "test.answered", f"{power} answered {choice}")


@pytest.fixture(autouse=True)
def _test_rules(monkeypatch):
    """The test action and decisions, registered the one way (``register_rules``) for each test only."""
    engine._load()
    for name in ("_ACTIONS", "_DECISIONS"):
        monkeypatch.setattr(engine, name, dict(getattr(engine, name)))
    engine.register_rules(engine.PhaseRules("test", phases=(Phase.SETUP, Phase.DIPLOMACY),
                                            actions=((AddMoney, _verify, _apply, _candidates),),
                                            decisions=(("test.ask", _verify_q, _apply_q),)))


def test_a_defender_answers_a_decision_in_the_attackers_slot(state, ctx):
    # RU's slot; FR must answer (like a defender's chit, 11.2.1) before RU can go on.
    d = PendingDecision(id="q1", power="FR", kind="test.ask.chit", options=("yes", "no", "maybe"), slot="1805-01/setup/turn/RU")
    s = state.replace(pending=FrozenMap({"q1": d}))
    with pytest.raises(IllegalAction, match="waits for FR"):
        engine.apply_action(s, "RU", AddMoney(1), ctx)
    with pytest.raises(IllegalAction, match="not an answer"):
        engine.apply_action(s, "FR", engine.AnswerDecision("q1", "perhaps"), ctx)
    with pytest.raises(IllegalAction, match="never allowed"):
        engine.apply_action(s, "FR", engine.AnswerDecision("q1", "maybe"), ctx)
    with pytest.raises(IllegalAction, match="for FR to answer"):
        engine.apply_action(s, "RU", engine.AnswerDecision("q1", "yes"), ctx)
    out = engine.apply_action(s, "FR", engine.AnswerDecision("q1", "yes"), ctx)
    assert not out.state.pending and out.events[0].text == "FR answered yes"
    assert engine.apply_action(out.state, "RU", AddMoney(1), ctx).state.powers["RU"].treasury == 1


def test_a_slot_cannot_end_while_another_power_must_answer(state, ctx):
    d = PendingDecision(id="q2", power="FR", kind="test.ask.evade", options=("yes", "no"), slot="1805-01/setup/turn/RU")
    s = state.replace(pending=FrozenMap({"q2": d}))
    with pytest.raises(IllegalAction, match="wait for FR to answer test.ask.evade"):
        engine.end_slot(s, "RU", ctx)


@pytest.fixture
def only_test_rules(monkeypatch):
    """The engine's answers and the test action only: the real phases need a map."""
    keep = {k: v for k, v in engine._ACTIONS.items() if k in ("decision.answer", "test.add-money")}
    monkeypatch.setattr(engine, "_ACTIONS", keep)


def test_legal_actions_are_the_candidates_verify_accepts_once_each(state, ctx, only_test_rules):
    assert engine.legal_actions(state, "RU", ctx) == (AddMoney(1), AddMoney(10))  # $60 is refused; no repeats
    assert engine.legal_actions(state, "FR", ctx) == ()  # not FR's slot
    assert engine.has_choice(state, "RU", ctx) and not engine.has_choice(state, "FR", ctx)
    rich = state.with_power("RU", treasury=50)
    assert engine.legal_actions(rich, "RU", ctx) == () and not engine.has_choice(rich, "RU", ctx)
    for a in engine.legal_actions(state, "RU", ctx):
        assert engine.can_act(state, "RU", a, ctx)


def test_legal_actions_answer_questions_first_and_only_answers_while_another_power_must_answer(state, ctx, only_test_rules):
    mine = PendingDecision(id="q1", power="RU", kind="test.ask.chit", options=("yes", "maybe"), slot="1805-01/setup/turn/RU")
    s = state.replace(pending=FrozenMap({"q1": mine}))
    assert engine.legal_actions(s, "RU", ctx) == (engine.AnswerDecision("q1", "yes"), AddMoney(1), AddMoney(10))
    theirs = PendingDecision(id="q2", power="FR", kind="test.ask.chit", options=("yes", "no"), slot="1805-01/setup/turn/RU")
    s = state.replace(pending=FrozenMap({"q2": theirs}))
    assert engine.legal_actions(s, "RU", ctx) == ()  # the game waits for FR
    assert engine.legal_actions(s, "FR", ctx) == (engine.AnswerDecision("q2", "yes"), engine.AnswerDecision("q2", "no"))
    assert engine.has_choice(s, "FR", ctx) and not engine.has_choice(s, "RU", ctx)


def test_settings_are_legal_but_no_choice_of_the_slot(state, ctx, monkeypatch, only_test_rules):
    @dataclass(frozen=True, slots=True)
    class Standing(Record):
        """Test setting."""

        KIND = "test.standing"
        SETTING = True

    engine._register_action(Standing, lambda *a: None, lambda s, p, a, c: engine.Outcome(s), lambda s, p, c: (Standing(),),
                            phases=(Phase.SETUP,))
    rich = state.with_power("RU", treasury=50)
    assert engine.legal_actions(rich, "RU", ctx) == (Standing(),)
    assert engine.legal_actions(rich, "RU", ctx, settings=False) == ()
    assert not engine.has_choice(rich, "RU", ctx)
