"""Pre-encoded pieces in the canonical encoder (issue 18: a save's cost flat over a long game)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from eiapbem.core import canonical
from eiapbem.core.errors import BadEncoding

leaves = st.none() | st.booleans() | st.integers(-(2**63), 2**64 - 1) | st.text(max_size=8) | st.binary(max_size=8)
values = st.recursive(leaves, lambda c: st.lists(c, max_size=5) | st.dictionaries(st.text(max_size=4), c, max_size=5),
                      max_leaves=30)


@settings(max_examples=60, deadline=None)
@given(st.lists(values, max_size=40), values)
def test_encoded_list_is_the_list_bytes(items, other):
    joined = b"".join(canonical.encode(v) for v in items)
    raw = canonical.encoded_list(joined, len(items))
    assert canonical.encode(raw) == canonical.encode(items)
    assert canonical.encode({"z": other, "journal": raw, "a": [raw, 1]}) == canonical.encode(
        {"z": other, "journal": items, "a": [items, 1]})


@pytest.mark.parametrize("n", [0, 15, 16, 65535, 65536])
def test_header_sizes(n):
    items = [0] * n
    assert canonical.encode(canonical.encoded_list(b"\x00" * n, n)) == canonical.encode(items)
    assert canonical.encode({"k": canonical.encoded_list(b"\x00" * n, n)}) == canonical.encode({"k": items})


def test_big_maps_and_slow_values_around_a_raw_piece():
    raw = canonical.encoded_list(canonical.encode("x"), 1)
    big = {f"k{i}": i for i in range(70000)}
    assert canonical.encode({**big, "r": raw}) == canonical.encode({**big, "r": ["x"]})

    class S(str):
        pass

    assert canonical.encode({S("é"): raw, "b": S("v")}) == canonical.encode({"é": ["x"], "b": "v"})
    with pytest.raises(BadEncoding, match="float"):
        canonical.encode({"a": raw, "b": [1.5]})
    with pytest.raises(BadEncoding, match="not a string"):
        canonical.encode({"a": raw, 3: 1})


def _plain(data) -> dict:
    o = data.to_obj()
    return dict(o, journal=list(data.journal))


def test_save_bytes_with_a_long_journal_are_the_plain_encoding():
    from eiapbem.client.store import GameData
    from eiapbem.rules.model import LogEntry
    from tests.model_strategies import sample_state

    st0 = sample_state().replace(log=())
    from eiapbem.core.powers import POWERS

    from eiapbem.client.newgame import starting_meta
    from eiapbem.pbem import bodies

    meta = {"scenario": "classic-1805", "host": {"name": "H", "email": "h@x"}, "versions": {}, "based_on": "", "release": "",
            "players": {p: {"name": p, "email": f"{p}@x", "type": "hotseat"} for p in POWERS}}
    data = GameData(st0, starting_meta(bodies.GamestartMeta.from_obj(meta)))
    for month in range(40):
        lines = tuple(LogEntry(slot="1805-01/naval/turn/GB", author="game", kind="test.line",
                               text=f"month {month} line {i} é") for i in range(30))
        data = GameData(data.state.replace(log=lines), data.meta, journal=data.journal,
                        journal_enc=data.journal_enc).absorbed()
        if month % 13 == 0:
            assert canonical.encode(data.to_obj()) == canonical.encode(_plain(data))
    assert len(data.journal) == 1200
    assert canonical.encode(data.to_obj()) == canonical.encode(_plain(data))
    # a memo for another journal (a fork, a backup) is never used for this one
    other = GameData(st0, data.meta, journal=data.journal[:5] + data.journal[6:], journal_enc=data.journal_enc)
    assert canonical.encode(other.to_obj()) == canonical.encode(_plain(other))
    shorter = GameData(st0, data.meta, journal=data.journal[:7], journal_enc=data.journal_enc)
    assert canonical.encode(shorter.to_obj()) == canonical.encode(_plain(shorter))
    # and the save reads back to the same game
    back = GameData.from_obj(canonical.decode(canonical.encode(data.to_obj())), "the save")
    assert back.journal == data.journal and back.state.state_hash() == data.state.state_hash()
    assert GameData.from_obj(data.to_obj(), "the save").journal == data.journal


def test_plain_check_fast_path_keeps_the_answers():
    from eiapbem.core.record import InvalidValue, Plain, PlainSpec

    spec = PlainSpec()
    good = {"a": [1, None, True, "x", b"y", {"b": []}]}
    assert spec.check(good, "journal") is good
    for bad, where in (({"a": [1, 1.5]}, "journal.a.1"), ({"a": {3: 1}}, "journal.a"), ([object()], "journal.0")):
        with pytest.raises(InvalidValue) as err:
            spec.check(bad, "journal")
        assert err.value.path == where
    deep: list = []
    for _ in range(Plain.DEPTH + 1):
        deep = [deep]
    with pytest.raises(InvalidValue, match="nested deeper"):
        spec.check(deep, "journal")
    spec.check(deep[0], "journal")
