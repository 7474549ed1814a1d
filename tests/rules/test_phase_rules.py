"""One way to add a phase (issue 14 item 3): declarative phase descriptions in one registry."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import pytest

from eiapbem.core.errors import IllegalAction
from eiapbem.rules import engine, phases
from eiapbem.rules.model import Phase, Record


def test_every_phase_with_rules_is_described_once_in_the_registry():
    names = [r.name for r in phases.RULES]
    assert len(names) == len(set(names))
    described = {p for r in phases.RULES for p in r.phases}
    assert {Phase.SETUP, Phase.REINFORCEMENT, Phase.LAND, Phase.ECONOMIC} <= described
    for r in phases.RULES:
        for cls in r.action_classes:
            assert engine.action_kinds()[cls.KIND].cls is cls


def test_no_two_action_classes_share_a_name():
    names = Counter(s.cls.__name__ for s in engine.action_kinds().values())
    assert [n for n, k in names.items() if k > 1] == []


def test_hooks_belong_to_exactly_one_phase():
    with pytest.raises(ValueError, match="exactly one phase"):
        engine.register_rules(engine.PhaseRules("two", phases=(Phase.LAND, Phase.NAVAL), finish=lambda s, p, c: engine.Outcome(s)))
    with pytest.raises(ValueError, match="need the phases"):
        engine.register_rules(engine.PhaseRules("none", actions=((Record, None, None, None),)))  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="verify, apply, candidates"):
        engine.register_rules(engine.PhaseRules("three", phases=(Phase.LAND,), actions=((Record, None, None),)))  # type: ignore[arg-type]


@dataclass(frozen=True, slots=True)
class _Wave(Record):
    """Wave the flag (a trivial action added by the checklist)."""

    KIND = "test.wave"
    times: int = 1


def test_a_trivial_action_added_by_the_checklist_is_played_through_the_engine(monkeypatch):
    """docs/adding-an-action.md: the class, verify, apply, and one entry in the phase's ``RULES``."""
    from eiapbem.data.context import rules_context
    from eiapbem.core.dice import Dice
    from eiapbem.data import world
    from eiapbem.rules.scenario import initial_state

    engine.action_kinds()  # the registry is loaded
    monkeypatch.setattr(engine, "_ACTIONS", dict(engine._ACTIONS))

    def verify(state, power, action, ctx):
        if action.times > 3:
            raise IllegalAction("a flag is waved at most three times")

    def apply(state, power, action, ctx):
        return engine.log(state, power, "test.wave", f"{power} waves {action.times} time(s)")

    def candidates(state, power, ctx):
        return (_Wave(1), _Wave(4))

    engine.register_rules(engine.PhaseRules("wave", phases=(Phase.SETUP,), actions=((_Wave, verify, apply, candidates),)))
    ctx = rules_context(Dice(b"wave", {}, strict=False))
    s = initial_state(world.load_scenario("classic-1805"), world.load_raw())
    out = engine.apply_action(s, "RU", engine.action_from_obj({"kind": "test.wave", "times": 2}), ctx)
    assert out.events[-1].text == "RU waves 2 time(s)"
    with pytest.raises(IllegalAction, match="at most three"):
        engine.apply_action(s, "RU", _Wave(times=4), ctx)
    with pytest.raises(IllegalAction, match="not TU's turn|it is not TU's turn"):
        engine.apply_action(s, "TU", _Wave(), ctx)
    # The rules list the action where it is legal, and only there (engine.legal_actions).
    assert _Wave(1) in engine.legal_actions(s, "RU", ctx) and _Wave(4) not in engine.legal_actions(s, "RU", ctx)
    assert engine.legal_actions(s, "TU", ctx) == ()


def test_every_registered_action_and_decision_comes_from_the_registry():
    """One registration way: nothing registers itself at import time (the old ``RULE_MODULES`` is gone)."""
    import importlib
    import pkgutil

    import eiapbem.rules

    for mod in pkgutil.walk_packages(eiapbem.rules.__path__, "eiapbem.rules."):
        importlib.import_module(mod.name)
    assert not hasattr(engine, "RULE_MODULES") and not hasattr(engine, "register_action")
    assert engine.REGISTRY == "eiapbem.rules.phases"
    declared = {cls.KIND for r in phases.RULES for cls in r.action_classes}
    assert set(engine.action_kinds()) == declared
    assert set(engine._DECISIONS) == {prefix for r in phases.RULES for prefix, _, _ in r.decisions}
    hooked = {r.phases[0] for r in phases.RULES if r.obligations or r.finish or r.resolve}
    assert set(engine._PHASES) == hooked and Phase.DIPLOMACY in hooked
