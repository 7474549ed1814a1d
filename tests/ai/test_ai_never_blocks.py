"""The computer never blocks a game (issue 19 item 2): seeded months of seven computer powers at war.

The classic-1805 campaign is played in memory through the rules (``ai.play_slot`` for
sequential slots, ``ai.orders`` + ``engine.resolve_slot`` for simultaneous ones), every
power at the computer with the three levels mixed, and wars set at the first month
(the diplomacy AI's declarations are another branch's; here the wars are given so that
land, reinforcement and economy play at war from the start).  It fails on

- ``AiStuck`` or any exception from the computer's play or the rules;
- an action the computer kept that the engine refuses on replay: each sequential
  slot's actions are verified (``engine.verify_action``) and applied again, one by
  one from the slot's starting state, and the slot ended; the state must be the one
  the computer produced (nothing it relied on was refused, and its play is a function
  of the state and the dice);
- a computer that never moves, besieges or attacks at war (the test would then
  prove nothing about those actions).

The computer probes (``Builder.try_``: a refused probe is not kept), so refused
probes are counted and bounded, not forbidden.  The short form is in the fast suite;
the long form (two years) is marked slow.
"""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest

from eiapbem import ai
from eiapbem.client import setups
from eiapbem.core.dice import Dice
from eiapbem.core.errors import IllegalAction
from eiapbem.data import world
from eiapbem.data.context import rules_context
from eiapbem.rules import engine
from eiapbem.rules.model import POWERS, GameState, PlayerKind
from eiapbem.rules.scenario import initial_state

#: The levels, mixed so that each plays both sides of the wars.
KINDS = {"FR": "ai-hard", "AU": "ai-medium", "RU": "ai-easy", "PR": "ai-hard", "GB": "ai-medium", "SP": "ai-easy",
         "TU": "ai-medium"}
WARS = (("FR", "AU"), ("FR", "RU"), ("FR", "PR"), ("GB", "FR"), ("GB", "SP"), ("TU", "RU"))


def _ctx(seed: bytes, key: str):
    return rules_context(Dice(hashlib.sha256(seed + b"/" + key.encode()).digest()))


class Record:
    def __init__(self) -> None:
        self.actions: Counter[str] = Counter()
        self.events: Counter[str] = Counter()
        self.probes_refused = 0
        self.probes = 0


def _replay(start: GameState, power: str, actions, end: GameState, ctx) -> None:
    st = start
    for a in actions:
        engine.verify_action(st, power, a, ctx)  # raises: the computer kept a refused action
        st = ai.apply_actions(st, power, [a], ctx).state
    st = engine.end_slot(st, power, ctx).state
    assert st.state_hash() == end.state_hash(), f"{power}'s slot does not replay: {st.first_difference(end)}"


def play(months: int, seed: bytes, monkeypatch, *, replay: bool = True) -> tuple[GameState, Record]:
    rec = Record()
    real_try = ai.Builder.try_

    def counting_try(self, action):
        ok = real_try(self, action)
        rec.probes += 1
        rec.probes_refused += 0 if ok else 1
        return ok

    monkeypatch.setattr(ai.Builder, "try_", counting_try)
    st = initial_state(world.load_scenario("classic-1805"), world.load_raw(),
                       players={p: PlayerKind(KINDS[p]) for p in POWERS})
    first = None
    for _ in range(100000):
        if st.slot is None:
            break
        key = st.slot.key(st.date)
        if first is None and st.slot.phase.value != "setup":
            first = st.date
            for a, b in WARS:
                st = st.with_war(a, b, st.date, (a,))
        if first is not None and st.date.index - first.index >= months:
            break
        ctx = _ctx(seed, key)
        if st.slot.simultaneous:
            orders = {p: list(ai.orders(st, p, ctx)) for p in st.slot.actors}
            st = engine.resolve_slot(st, orders, ctx).state
            rec.actions.update(type(a).__name__ for v in orders.values() for a in v)
            continue
        power = st.slot.power
        setup = setups.default_actions("classic-1805", power) if st.slot.phase.value == "setup" else ()
        turn = ai.play_slot(st, power, ctx, setup=setup)
        if replay and st.slot.phase.value != "setup":
            monkeypatch.setattr(ai.Builder, "try_", real_try)
            _replay(st, power, turn.actions, turn.state, ctx)
            monkeypatch.setattr(ai.Builder, "try_", counting_try)
        rec.actions.update(type(a).__name__ for a in turn.actions)
        rec.events.update(e.kind for e in turn.events)
        st = turn.state
    return st, rec


def test_a_month_at_war_every_computer_action_replays(monkeypatch):
    st, rec = play(1, b"never-blocks/fast", monkeypatch)
    assert st.slot is not None and st.slot.phase.value == "diplomacy"  # the month's every slot ended
    # the land AI plays: it moves at war (no AiStuck, no exception, every kept action replays)
    assert rec.actions["MoveUnit"] > 20, rec.actions
    # probing is bounded: most tries are kept
    assert rec.probes_refused * 2 < rec.probes, (rec.probes_refused, rec.probes)


@pytest.mark.slow
def test_two_years_at_war_never_blocks(monkeypatch):
    # A seed whose two years hold a siege: the computer besieges only the cities its war plan aims at (ai.land).
    st, rec = play(24, b"never-blocks/slow-1", monkeypatch)
    assert st.slot is not None and str(st.date) == "1807-01"  # every slot of the 24 months was played
    assert rec.actions["MoveUnit"] > 100
    assert rec.actions["BuyArmy"] > 0 and rec.actions["AddFactors"] + rec.actions["AddToGarrison"] > 0
    assert rec.events["battle.start"] > 0 and rec.events["land.besiege"] > 0, sorted(rec.events.items())
    assert rec.probes_refused * 2 < rec.probes, (rec.probes_refused, rec.probes)


def test_a_refused_action_is_not_kept(monkeypatch):
    # The replay check would see a kept refusal: an action the rules refuse raises in verify_action.
    st, _ = play(0, b"never-blocks/refused", monkeypatch, replay=False)
    from eiapbem.rules.land.movement import MoveUnit

    with pytest.raises(IllegalAction):
        _replay(st, st.slot.power, [MoveUnit(unit="corps:FR:I", path="london")], st, _ctx(b"x", "y"))


_HASH_SCRIPT = """
import sys
sys.path.insert(0, {tests!r})
import pytest
from test_ai_never_blocks import play
mp = pytest.MonkeyPatch()
st, _ = play(2, b"never-blocks/hashseed", mp, replay=False)
print(st.state_hash().hex())
"""


@pytest.mark.slow
def test_two_months_at_war_give_the_same_state_whatever_the_hash_seed():
    # every client replays the computer's slots: its choices may not depend on set or dict order
    import os
    import subprocess
    import sys
    from pathlib import Path

    script = _HASH_SCRIPT.format(tests=str(Path(__file__).resolve().parent))
    hashes = set()
    for seed in ("0", "4242"):
        env = dict(os.environ, PYTHONHASHSEED=seed)
        out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=600)
        assert out.returncode == 0, out.stderr[-2000:]
        hashes.add(out.stdout.strip().splitlines()[-1])
    assert len(hashes) == 1
