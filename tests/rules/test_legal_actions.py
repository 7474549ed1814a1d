"""What the rules list as a power's possible actions (``engine.legal_actions``), phase by phase.

Each listed action is one ``verify`` accepts and ``apply`` plays; a unit is offered every place ``show reach``
shows; a sealed reveal round offers nothing; and every kind of action the computer or a rules case plays
where it is legal is a kind the list holds there (the slow tests at the end).
"""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest

from battlekit import corps, ctx, land_state
from eiapbem.core.dice import Dice
from eiapbem.data import world
from eiapbem.data.context import rules_context
from eiapbem.rules import engine
from eiapbem.rules.diplomacy import sealing
from eiapbem.rules.diplomacy.orders import DeclareWar
from eiapbem.rules.land.movement import MoveUnit, reach
from eiapbem.rules.model import POWERS, Phase, Slot
from eiapbem.rules.model.slot import COMMIT, ORDERS
from eiapbem.rules.scenario import initial_state

C = ctx()


def _first_of_each_kind(actions):
    seen: dict[str, object] = {}
    for a in actions:
        seen.setdefault(a.KIND, a)
    return list(seen.values())


def _plays(state, power, actions):
    """Each action plays through the engine on ``state`` (verify, then apply)."""
    for a in actions:
        engine.apply_action(state, power, a, C)


def test_a_corps_is_offered_every_area_show_reach_shows_and_each_move_plays():
    s = corps(land_state(), "corps:FR:V", "strasbourg", infantry=10)
    moves = engine.legal_actions(s, "FR", C, kinds={"land.move"})
    mine = [m for m in moves if m.unit == "corps:FR:V"]
    plain = reach(s, C, "FR", "corps:FR:V")
    forced = reach(s, C, "FR", "corps:FR:V", forced_march=True)
    for r in plain.areas:
        assert MoveUnit("corps:FR:V", ",".join(r.path)) in mine
    only_forced = [r for r in forced.areas if r.area not in {p.area for p in plain.areas}]
    assert only_forced  # the forced march reaches further (10.4.1)
    for r in only_forced:
        assert MoveUnit("corps:FR:V", ",".join(r.path), forced_march=True) in mine
    _plays(s, "FR", mine)


def test_the_setup_slot_lists_placements_that_meet_its_obligations():
    state = initial_state(world.load_scenario("classic-1805"), world.load_raw())
    c = rules_context(Dice(b"setup"))
    assert engine.unmet_obligations(state, "RU", c)  # 5.1: every factor must be placed
    listed = engine.legal_actions(state, "RU", c)
    kinds = Counter(a.KIND for a in listed)
    assert kinds["setup.place-corps"] and kinds["setup.add-garrison"]
    assert engine.legal_actions(state, "FR", c) == ()  # not France's slot yet (5.3)
    for a in _first_of_each_kind(listed):
        engine.apply_action(state, "RU", a, c)


def _diplomacy(step: str):
    s = land_state().replace(slot=Slot(Phase.DIPLOMACY, step, None, POWERS))
    return s.replace(options=s.options.replace(one_round_diplomacy=False))


def test_the_commit_round_offers_orders_and_the_reveal_round_none_to_a_power_that_committed():
    commit = _diplomacy(COMMIT)
    orders = engine.legal_actions(commit, "FR", C)
    assert DeclareWar("GB") in orders and engine.has_choice(commit, "FR", C)
    assert not any(isinstance(a, sealing.SEALS) for a in orders)  # written by end-phase, never chosen
    reveal = _diplomacy(ORDERS)
    sheet = reveal.order_sheet
    reveal = reveal.replace(order_sheet=sheet.replace(commitments=sheet.commitments.set("FR", bytes(32))))
    assert engine.legal_actions(reveal, "FR", C) == () and not engine.has_choice(reveal, "FR", C)
    assert engine.has_choice(reveal, "GB", C)  # Great Britain sealed nothing: its orders are open


def test_every_kind_listed_in_a_land_slot_plays():
    s = corps(corps(land_state(), "corps:FR:V", "strasbourg", infantry=10), "corps:AU:I", "karlsruhe", infantry=8)
    listed = engine.legal_actions(s, "FR", C)
    assert {"land.move", "land.battle-orders", "skip.set"} <= {a.KIND for a in listed}
    _plays(s, "FR", _first_of_each_kind(listed))
    assert not any(engine.is_setting(type(a)) for a in engine.legal_actions(s, "FR", C, settings=False))


def _seeded(months: int):
    """The slots of the seeded all-computer classic-1805 game (tests/seeded_game.py), with each slot's dice."""
    from eiapbem import ai
    from eiapbem.client import setups
    from eiapbem.rules.model import PlayerKind

    st = initial_state(world.load_scenario("classic-1805"), world.load_raw(),
                       players={p: PlayerKind("ai-hard") for p in POWERS})
    first = None
    while st.slot is not None:
        key = st.slot.key(st.date)
        if first is None and st.slot.phase is not Phase.SETUP:
            first = st.date
        if first is not None and st.date.index - first.index >= months:
            return
        c = rules_context(Dice(hashlib.sha256(b"seeded-game/" + key.encode()).digest()))
        yield st, c
        if st.slot.simultaneous:
            st = engine.resolve_slot(st, {p: list(ai.orders(st, p, c)) for p in st.slot.actors}, c).state
        else:
            setup = setups.default_actions("classic-1805", st.slot.power) if st.slot.phase is Phase.SETUP else []
            st = ai.play_slot(st, st.slot.power, c, setup=setup).state


def _kinds_covered(state, power, c, actions, play):
    """Each of ``actions`` (taken in turn from ``state``) is of a kind the rules list where it is taken."""
    missing = []
    for a in actions:
        if not engine.legal_actions(state, power, c, kinds={a.KIND}):
            missing.append(f"{state.slot.key(state.date)} {power} {a}")
        state = play(state, a)
    return missing


@pytest.mark.slow
def test_every_action_the_computer_takes_in_two_months_is_of_a_kind_listed_where_it_is_taken():
    from eiapbem import ai

    missing, sizes = [], []
    for st, c in _seeded(2):
        if st.slot.phase is Phase.SETUP:
            continue
        for p in st.slot.actors:
            sizes.append(len(engine.legal_actions(st, p, c)))
            taken = ai.plan(st, p, c).actions
            missing += _kinds_covered(ai.settle(st, c).state, p, c, taken,
                                      lambda s, a, p=p, c=c: ai.apply_actions(s, p, [a], c).state)
    assert missing == []
    assert max(sizes) < 5000  # bounded: a few thousand candidates at most in the biggest slot


@pytest.mark.slow
def test_every_action_a_rules_case_plays_is_of_a_kind_listed_where_it_is_played(monkeypatch):
    from paths import ROOT
    import eiapbem.gap.arbitrate  # noqa: F401  (registers the gap.arbitrate case procedure)
    from eiapbem.rulecases.files import find_cases, load_case
    from eiapbem.rulecases.harness import run_case

    played = []
    verify = engine.verify_action

    def spy(state, power, action, c):
        verify(state, power, action, c)
        if not isinstance(action, engine.AnswerDecision):
            played.append((state, power, action, c))

    monkeypatch.setattr(engine, "verify_action", spy)
    for path in find_cases(ROOT / "tests" / "cases"):
        run_case(load_case(path), rules_context)
    monkeypatch.setattr(engine, "verify_action", verify)
    assert len({a.KIND for _, _, a, _ in played}) >= 40
    missing = [f"{s.slot.key(s.date)} {p} {a}" for s, p, a, c in played
               if not engine.legal_actions(s, p, c, kinds={a.KIND})]
    assert missing == []
