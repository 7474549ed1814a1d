"""The consensus tripwire (issue 29 item 3): the seeded game of ``tests/consensus_game.py`` against its record.

``tests/golden/consensus.json`` holds, for a seeded two-month game with every
computer level, the rules and computer versions and what every slot produced.
When this code plays the game otherwise while the versions are the ones
recorded, every game in progress would fork: the test fails and says which
number to bump (``RULES_VERSION`` in ``eiapbem/rules/turn.py`` or a level's
number in ``eiapbem/ai/levels.py``) and the one command that writes the record
again.  The other tests check that the message names the right number.
"""

from __future__ import annotations

import copy
import json

import pytest

import consensus_game as cg


@pytest.fixture(scope="module")
def golden() -> dict:
    return json.loads(cg.GOLDEN.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def now() -> dict:
    return cg.play()


def test_the_seeded_game_is_the_recorded_one(golden, now):
    assert now["levels"] == cg.LEVELS and set(cg.LEVELS.values()) == {"ai-easy", "ai-medium", "ai-hard"}
    assert len(now["slots"]) > 40  # the setup and two months, slot by slot
    assert cg.verdict(golden, now) is None, cg.verdict(golden, now)


def _first_orders(rec: dict) -> int:
    return next(i for i, r in enumerate(rec["slots"]) if "orders" in r)


def test_other_states_from_the_same_actions_name_the_rules_version(golden, now):
    changed = copy.deepcopy(now)
    i = _first_orders(changed) + 1
    changed["slots"][i]["state"] = "00" * 32
    msg = cg.verdict(changed, now)
    assert msg is not None and "RULES_VERSION in eiapbem/rules/turn.py" in msg and "VERSIONS[" not in msg
    assert changed["slots"][i]["slot"] in msg and cg.REGENERATE in msg


def test_other_choices_of_the_computer_name_its_level_only(now):
    """The record as an older computer would have made it: one power's orders at the first simultaneous slot
    were none, and the rules of today gave the recorded state from them; today's computer chooses otherwise."""
    from eiapbem.core import canonical

    old = copy.deepcopy(now)
    i, power = next((i, p) for i, r in enumerate(old["slots"]) for p, h in sorted(r.get("orders", {}).items())
                    if canonical.decode(bytes.fromhex(h)))  # the first power that gave orders in a slot of orders
    row = old["slots"][i]
    row["orders"][power] = canonical.encode([]).hex()
    row["state"] = cg.replay(cg._state_before(old, i), row)
    msg = cg.verdict(old, now)
    assert msg is not None and f"VERSIONS[{cg.LEVELS[power]!r}] in eiapbem/ai/levels.py" in msg, msg
    assert "RULES_VERSION" not in msg and "the rules did not change" in msg


def test_a_bumped_version_asks_for_the_record_to_be_written_again(golden, now):
    bumped = copy.deepcopy(now)
    bumped["versions"] = dict(bumped["versions"], rules=bumped["versions"]["rules"] + 1)
    msg = cg.verdict(golden, bumped)
    assert msg is not None and cg.REGENERATE in msg and "versions" in msg
