"""The pace of play changes no outcome of the rules (issue 33): where the choices and the dice are the same, a game
played with the pace's shortcuts reaches the same states as the same game played round by round.

- a slot with nothing to decide that ends by itself (``engine.pass_slot``) gives the state its power's empty turn
  gives;
- next month's diplomacy orders sealed ahead in the land files (``sealing.SealAhead``, ``RevealAhead``) resolve to
  the state the two rounds (commit, then reveal) give;
- a battle answered at once by the defender's standing orders (``rules.combat.plans``) ends as the same battle
  answered question by question with the same choices.

Each slot's dice are a fixed stream per slot key, the same in both plays (in a game by files they come from the
chain: docs/file-format.md 7).
"""

from __future__ import annotations

import hashlib

from battlekit import corps, ctx, land_state
from eiapbem import ai
from eiapbem.client import setups
from eiapbem.core import canonical
from eiapbem.core.dice import Dice
from eiapbem.data import world
from eiapbem.data.context import rules_context
from eiapbem.rules import engine, turn
from eiapbem.rules.combat import plans, standing
from eiapbem.rules.combat.field import start_field_battle
from eiapbem.rules.combat.plans import BattlePlan
from eiapbem.rules.diplomacy import sealing
from eiapbem.rules.diplomacy.orders import DeclareWar, RequestAlliance
from eiapbem.rules.engine import AnswerDecision
from eiapbem.rules.model import POWERS, Phase
from eiapbem.rules.model.slot import COMMIT, ORDERS
from eiapbem.rules.scenario import initial_state
from eiapbem.rules.skips import SetSkip

NONCE = bytes(range(32))
#: Each power's diplomacy orders for February 1805.
FEBRUARY = {"FR": [DeclareWar("AU")], "AU": [RequestAlliance("RU")], "RU": [RequestAlliance("AU")]}


def _ctx(state, salt=b""):
    key = state.slot.key(state.date) if state.slot else "over"
    return rules_context(Dice(hashlib.sha256(b"pace-rules/" + salt + key.encode()).digest()))


def _after_setup():
    st = initial_state(world.load_scenario("classic-1805"), world.load_raw())
    while st.slot.phase is Phase.SETUP:
        c = _ctx(st)
        p = st.slot.power
        st = engine.end_slot(engine.apply_actions(st, p, setups.default_actions("classic-1805", p), c).state, p, c).state
    return st


def _enc(orders):
    return tuple(canonical.encode(engine.action_to_obj(a)) for a in orders)


def _diplomacy(st, orders_of):
    """A sealed diplomacy phase: the commit round of the powers still to commit, then every power's reveal (of the
    orders committed in the commit round, or sealed ahead)."""
    now: tuple[str, ...] = ()
    if st.slot.step == COMMIT:
        now = st.slot.actors
        given = {p: [sealing.CommitOrders(sealing.digest(p, sealing.phase_key(st), NONCE, orders_of(p)))] for p in now}
        st = engine.resolve_slot(st, given, _ctx(st)).state
    assert st.slot.step == ORDERS
    reveals = {p: [sealing.RevealOrders(NONCE)] + orders_of(p) if p in now else [sealing.RevealAhead(NONCE, _enc(orders_of(p)))]
               for p in st.slot.actors}
    return engine.resolve_slot(st, reveals, _ctx(st)).state


def _month(st, *, ahead: dict | None, land: dict | None = None, stop=None):
    """Every sequential slot of the month (up to ``stop(state)``): a slot with nothing to decide passes by itself
    (``pass_slot``) or is ended empty; ``ahead``: each power's orders for next month, sealed in its land file;
    ``land``: each power's actions in its land slot."""
    month = st.date
    while st.slot is not None and st.date == month and not (stop is not None and stop(st)):
        if st.slot.simultaneous:
            if st.slot.phase is Phase.DIPLOMACY:
                st = _diplomacy(st, lambda p: [])
            else:
                st = engine.resolve_slot(st, {p: [] for p in st.slot.actors}, _ctx(st)).state
            continue
        p, c = st.slot.power, _ctx(st)
        passed = engine.pass_slot(st, p, c)
        if passed is not None:
            st = passed.state
            continue
        acts = list((land or {}).get(p, [])) if st.slot.phase is Phase.LAND else []
        if ahead is not None and st.slot.phase is Phase.LAND:
            key = sealing.ahead_key(st)
            acts = [sealing.SealAhead(sealing.digest(p, key, NONCE, ahead.get(p, [])))]
        st = engine.end_slot(engine.apply_actions(st, p, acts, c).state, p, c).state
    return st


def test_a_slot_with_nothing_to_decide_ends_as_its_empty_turn_would():
    st = _after_setup()
    while not (st.slot.phase is Phase.NAVAL and st.slot.power == "AU"):
        if st.slot.simultaneous:
            st = _diplomacy(st, lambda p: [])
            continue
        st = engine.end_slot(st, st.slot.power, _ctx(st)).state
    c = _ctx(st)
    why = engine.nothing_to_decide(st, "AU", c)
    assert why == "no fleet that can move, load, unload or attack"  # Austria has no fleet in 1805
    passed = engine.pass_slot(st, "AU", c)
    assert passed is not None and passed.state.state_hash() == engine.end_slot(st, "AU", c).state.state_hash()
    assert [e.kind for e in passed.events][:1] == ["slot.passed"]
    # Great Britain's naval slot has a choice: it needs its file.
    gb = st.replace(slot=st.slot.replace(power="GB", actors=("GB",)))
    assert engine.nothing_to_decide(gb, "GB", c) is None and engine.pass_slot(gb, "GB", c) is None
    # Not another's slot, nor while a question waits.
    assert engine.nothing_to_decide(st, "PR", c) is None


def test_orders_sealed_ahead_resolve_as_the_two_rounds_do():
    start = _after_setup()
    a = _month(start, ahead=FEBRUARY)  # January, the orders for February sealed in the land files
    assert sorted(a.order_sheet.commitments) == list(POWERS) and a.slot.step == COMMIT and a.slot.actors == ()
    b = _month(start, ahead=None)  # January, round by round
    assert a.state_hash() != b.state_hash()  # the commitments wait on the sheet
    a = _diplomacy(a, lambda p: FEBRUARY.get(p, []))
    b = _diplomacy(b, lambda p: FEBRUARY.get(p, []))
    assert a.slot.phase is Phase.REINFORCEMENT and "AU" in a.powers["FR"].wars
    assert a.state_hash() == b.state_hash(), a.first_difference(b)


def test_fleets_kept_in_port_by_a_skip_end_the_naval_phase_as_the_empty_naval_turns_would():
    """Russia, Turkey and Spain keep their fleets in port in February: by 13.9's skip set once in their January land
    files (their naval slots are left out, so France's naval and land files travel together), or round by round,
    ending their naval slots without a move.  The state at France's land slot is the same."""
    start = _after_setup()
    skip = {p: [SetSkip("naval", "once")] for p in ("RU", "TU", "SP")}
    at_france = lambda st: st.slot.phase is Phase.LAND and st.slot.power == "FR"  # noqa: E731
    played: dict[str, list] = {"skip": [], "rounds": []}

    def february(st, name):
        st = _diplomacy(st, lambda p: [])
        while not at_france(st):
            if st.slot.phase is Phase.NAVAL:
                played[name].append(st.slot.power)
            st = _month(st, ahead=None, stop=lambda s: at_france(s) or s.slot.phase is Phase.NAVAL
                        and s.slot.power not in played[name])
        return st

    a = february(_month(start, ahead=None, land=skip), "skip")
    b = february(_month(start, ahead=None), "rounds")
    # (Austria's and Prussia's naval slots, without a fleet, pass by themselves in both.)
    assert played["skip"] == ["GB", "AU", "PR", "FR"], played
    assert played["rounds"] == ["GB", "RU", "TU", "AU", "PR", "FR", "SP"], played
    assert not a.powers["RU"].skips  # the setting was used up
    assert a.state_hash() == b.state_hash(), a.first_difference(b)


def test_an_order_sealed_ahead_that_no_longer_holds_is_dropped_by_the_rules_and_said_so():
    stale = {"FR": [DeclareWar("AU"), DeclareWar("AU")]}  # a second declaration on the same power is refused
    a = _month(_after_setup(), ahead=stale)
    a = engine.resolve_slot(a, {}, _ctx(a)).state  # the commit round: nobody left to commit
    out = engine.check_orders(a, "FR", [sealing.RevealAhead(NONCE, _enc(stale["FR"]))], _ctx(a))
    assert [e.kind for e in out.events] == ["diplomacy.dropped"]
    assert "no longer holds and is dropped" in out.events[0].text
    # A reveal of other orders than those committed is refused: dropping is the rules' doing, never the player's.
    other = sealing.RevealAhead(NONCE, _enc(stale["FR"][1:]))
    assert not engine.can_act(a, "FR", other, _ctx(a))


def test_a_battle_answered_by_standing_orders_ends_as_the_same_choices_given_one_by_one():
    s = corps(corps(land_state(), "corps:FR:I", "ulm", infantry=14, cavalry=3), "corps:FR:II", "ulm", infantry=10)
    s = corps(corps(s, "corps:AU:I", "ulm", infantry=9, cavalry=2), "corps:AU:II", "ulm", infantry=8)
    c = ctx(b"pace-battle")
    s = start_field_battle(s, "ulm", ["corps:FR:I", "corps:FR:II"], ["corps:AU:I", "corps:AU:II"], c).state
    bid = next(iter(s.battles))
    plan = BattlePlan(bid, chit=("defend", "cordon"), withdraw_below=150, losses=("corps:AU:II",), no_pursuit=True)
    at_once = turn.auto_answer(s, ctx(b"pace-battle"), ai, {bid: {"AU": plan}})
    one_by_one, d6 = s, ctx(b"pace-battle")
    for _ in range(1000):
        due = sorted(one_by_one.pending.values(), key=lambda d: d.id)
        if not due:
            break
        d = due[0]
        choice = plans.answer(one_by_one, d, plan, d6) if d.power == "AU" else standing.answer(one_by_one, d, d6)
        one_by_one = engine.apply_action(one_by_one, d.power, AnswerDecision(d.id, choice), d6).state
    assert at_once.battles[bid].finished and one_by_one.battles[bid].finished
    assert at_once.state_hash() == one_by_one.state_hash()


def test_a_naval_combat_answered_by_standing_orders_ends_as_the_same_choices_given_one_by_one():
    from test_naval_battle import GB3, SEA, scene, sides

    from eiapbem.rules.naval.battle import start_naval_battle

    c = lambda: rules_context(Dice(b"pace-naval"))  # noqa: E731 - a fresh stream of the same dice each time
    s = start_naval_battle(scene(GB3), SEA, sides(GB3), c()).state
    bid = next(iter(s.naval_battles))
    evasion = next(d for d in s.pending.values() if d.kind == "naval.evasion")
    assert evasion.power == "FR" and engine.can_act(s, "FR", BattlePlan(bid, evasion="no-evade"), c())
    assert not engine.can_act(s, "FR", BattlePlan(bid, chit=("defend",)), c())  # chits are for field battles
    plan = BattlePlan(bid, evasion="no-evade", no_pursuit=True, stay_out=True)
    at_once = turn.auto_answer(s, c(), ai, {bid: {"FR": plan}})
    one_by_one, d6 = s, c()
    for _ in range(1000):
        due = sorted(one_by_one.pending.values(), key=lambda d: d.id)
        if not due:
            break
        d = due[0]
        choice = plans.answer(one_by_one, d, plan, d6) if d.power == "FR" else standing.answer(one_by_one, d, d6)
        one_by_one = engine.apply_action(one_by_one, d.power, AnswerDecision(d.id, choice), d6).state
    assert not at_once.pending and at_once.state_hash() == one_by_one.state_hash()
    assert at_once.naval_battles[bid].step == "done"
