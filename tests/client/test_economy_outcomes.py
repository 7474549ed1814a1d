"""``economy summary --seed S`` from the records kept (``client.documents.economy_outcomes``, ``core.dice.outcomes``):
every power's records for a seed, picked from the results of the phase's dice, are those of the phase resolved on
that seed's dice, in months with no die, a loss number (12.2), Spanish gold (12.2), a war with the USA (12.2.1),
a privateer (8.9), and several of them at once."""

import pytest

from eiapbem.client.documents import economy_outcomes, economy_records
from eiapbem.core.dice import Dice, pick
from eiapbem.rulecases.procedures.economy import build_state, context
from eiapbem.rules.economy.phase import BuyArmy, StopUsaTrade

PRIVATEER = {"fleet:FR:1": {"at": "sea:north-atlantic", "light": 6, "mission": "piracy", "target": "GB"}}

#: (what, the state's inputs, the orders, how many results the phase has: a privateer's roll of 7 or more takes 1-5)
CASES = [
    ("no die", {}, {}, 1),
    ("a loss number", {"status": {"SP": 6}}, {}, 6),
    ("a loss number, a purchase it may leave unpaid", {"status": {"SP": 6}, "treasury": {"SP": 20}},
     {"SP": [BuyArmy("infantry", 6)]}, 6),
    ("September's convoy", {"month": "1805-09"}, {}, 11),
    ("a war with the USA", {"wars": [["GB", "FR"]]}, {"GB": [StopUsaTrade("FR")]}, 6),
    ("a loss number and the convoy", {"month": "1805-09", "status": {"SP": 6}}, {}, 6 * 11),
    ("a privateer", {"options": {"privateers": True}, "wars": [["GB", "FR"]], "units": PRIVATEER}, {}, 5 + 6 * 5),
]


@pytest.mark.parametrize("what,inp,orders,count", CASES, ids=[c[0] for c in CASES])
def test_the_record_picked_for_a_seed_is_the_phase_resolved_on_it(what, inp, orders, count):
    state = build_state(inp, context(Dice(b"economy-outcomes")))
    tree, results = economy_outcomes(state, orders, count)
    assert len(results) == count
    picked = set()
    for i in range(30):
        seed = f"seed {i}"
        picked.add(pick(tree, seed.encode()))
        assert results[pick(tree, seed.encode())] == economy_records(state, seed, None, orders), seed
    assert results[pick(tree, b"preview")] == economy_records(state, "preview", None, orders)
    assert len(picked) > 1 or len(results) == 1  # the seeds did not all fall on one result


def test_a_phase_of_more_results_than_kept_is_none():
    state = build_state({"month": "1805-09", "status": {"SP": 6}}, context(Dice(b"economy-outcomes")))
    assert economy_outcomes(state, {}, 12) is None
    assert len(economy_outcomes(state, {}, 66)[1]) == 66


def test_the_status_record_answers_each_seed_as_the_phase_resolved_on_it(monkeypatch):
    """The records as the status record keeps them (``answers.plain``: JSON read back), September's convoy and a loss
    number of Spain's: ``economy summary --seed S --json`` of Spain and of Great Britain, and the text."""
    import json
    from types import SimpleNamespace

    from eiapbem.cli import answers, economy_cmd

    state = build_state({"month": "1805-09", "status": {"SP": 6}}, context(Dice(b"economy-outcomes")))
    monkeypatch.setattr(economy_cmd, "game_state", lambda s: (state, {}, ""))
    monkeypatch.setattr(economy_cmd, "OUTCOMES_KEPT", 66)
    data = answers.plain(economy_cmd._kept(SimpleNamespace(power="SP")))
    form = {"month": None, "save_file": None, "scenario_id": None, "only": None, "as_json": True}
    for i in range(12):
        seed = f"seed {i}"
        for who in ("SP", "GB"):
            printed = json.dumps({"scenario": state.scenario, "month": str(state.date), "seed": seed, "note": "",
                                  "funds": economy_records(state, seed, who, {})}, indent=2) + "\n"
            assert economy_cmd._answer(data, {**form, "seed": seed, "only": who}) == (printed, ""), (seed, who)
    text, _ = economy_cmd._answer(data, {**form, "seed": "7", "as_json": False})
    assert text == economy_cmd.render(economy_records(state, "7", "SP", {}), state, "7") + "\n"
    assert economy_cmd._answer(data, {**form, "seed": ""}) is None  # the command says what is wrong
