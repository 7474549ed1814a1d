"""The changes a battle question carries instead of the whole state (``core.delta``, docs/file-format.md 7.4)."""

from __future__ import annotations

import pytest

from eiapbem.core import canonical, delta
from eiapbem.core.errors import BadEncoding

OLD = {"battles": {"b": {"events": [1, 2], "round": 1, "stage": "chits"}}, "pending": {"q1": {"x": 1}, "q2": 2},
       "units": {"c": {"factors": {"infantry": 12}}}, "flag": b"\x00"}
NEW = {"battles": {"b": {"events": [1, 2, 3], "round": 2, "stage": "losses"}}, "pending": {"q3": [4]},
       "units": {"c": {"factors": {"infantry": 9}}}, "flag": b"\x00"}


def test_a_delta_rebuilds_the_new_value_and_names_only_what_changed():
    ops = delta.diff(OLD, NEW)
    assert delta.patch(OLD, ops) == NEW
    assert OLD["pending"] == {"q1": {"x": 1}, "q2": 2} and OLD["battles"]["b"]["events"] == [1, 2]  # not changed
    assert [op[0] for op in ops] == [["battles", "b", "events"], ["battles", "b", "round"], ["battles", "b", "stage"],
                                     ["pending", "q1"], ["pending", "q2"], ["pending", "q3"],
                                     ["units", "c", "factors", "infantry"]]
    assert ops[0] == [["battles", "b", "events"], "+", [3]]  # a log that grew gives its new lines only
    assert delta.diff(OLD, OLD) == [] and delta.patch(OLD, []) == OLD
    assert canonical.decode(canonical.encode(ops)) == ops  # a delta is a canonical value


@pytest.mark.parametrize("ops, why", [
    ("x", "not a list of changes"),
    ([[["pending", "nothing"]]], "removes an entry that is not there"),
    ([[["flag", "deeper"], 1]], "not a map"),
    ([[["pending", "q2"]], [["pending", "q1"]]], "out of order"),
    ([[["pending", "q1"]], [["pending", "q1"]]], "out of order"),
    ([[["units", "c"], "+", [1]]], "not an array"),
    ([[["battles", "b", "events"], "-", [1]]], "not a path and a value"),
    ([[[1], 2]], "not a path and a value"),
    ([[[]]], "whole value"),
])
def test_a_hostile_delta_is_one_sentence(ops, why):
    with pytest.raises(BadEncoding, match=why) as err:
        delta.patch(OLD, ops, "the changes")
    assert "\n" not in str(err.value)


def test_a_questions_changes_rebuild_its_state_or_are_refused_in_one_sentence():
    import zlib

    from battlekit import corps
    from eiapbem.client import battles
    from eiapbem.data import world
    from eiapbem.rules.scenario import initial_state

    base = initial_state(world.load_scenario("classic-1805"), world.load_raw())
    shown = corps(base, "corps:FR:I", "ulm", infantry=12, cavalry=2)
    changes = battles.state_delta(base, shown)
    assert len(changes) < 1024 < len(shown.encode())
    assert battles.rebuild(base, changes, shown.state_hash(), "q").state_hash() == shown.state_hash()
    for bad, why in [(b"not zlib", "cannot be read"), (changes[:-3], "cut short"),
                     (zlib.compress(bytes(40 << 20)), "too large"), (changes + b"x", "followed by other bytes"),
                     (zlib.compress(b"\xc1"), "canonical|msgpack|not")]:
        with pytest.raises(BadEncoding, match=why) as err:
            battles.rebuild(base, bad, shown.state_hash(), "q")
        assert "\n" not in str(err.value)
    with pytest.raises(BadEncoding, match="its hash differs"):
        battles.rebuild(base, changes, base.state_hash(), "q")
