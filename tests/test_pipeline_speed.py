"""The file pipeline's speed-ups change no byte and no answer (issue 18 item 2).

Each memo or fast path is checked against the plain computation it replaces.
"""

from __future__ import annotations

from hypothesis import given, settings, strategies as st

from eiapbem.core import canonical
from eiapbem.core.errors import BadEncoding
from eiapbem.pbem import crypto, keys
from eiapbem.rules.model import GameState

import re

import msgpack
import pytest

_scalars = st.none() | st.booleans() | st.integers(min_value=canonical.INT_MIN, max_value=canonical.INT_MAX) \
    | st.text(max_size=6) | st.binary(max_size=6)
_values = st.recursive(
    _scalars,
    lambda inner: st.lists(inner, max_size=4) | st.tuples(inner, inner) | st.dictionaries(st.text(max_size=4), inner, max_size=4),
    max_leaves=20,
)


@settings(max_examples=150, deadline=None)
@given(_values)
def test_fast_encoder_gives_the_bytes_of_the_checked_one(value):
    slow = msgpack.packb(canonical._normalise(value, ""), use_bin_type=True, strict_types=False)
    assert canonical.encode(value) == slow
    assert canonical.decode(slow) == canonical.decode(canonical.encode(value))


@pytest.mark.parametrize("bad, where", [
    ({"a": [1, 2.5]}, "a[1]"),
    ({"a": (True, float("nan"))}, "a[1]"),
    ({"a": {"b": 2**64}}, "a.b"),
    ({"a": {1: 2}}, "a"),
    ([object()], "[0]"),
])
def test_fast_encoder_refuses_as_before_naming_the_path(bad, where):
    with pytest.raises(BadEncoding, match=r"at \.?" + re.escape(where)):
        canonical.encode(bad)


def test_dice_links_from_checkpoints_equal_the_chain_from_the_secret():
    me = keys.Identity("FR", b"s" * 32, b"e" * 32, b"d" * 32, 300)

    def naive(i: int) -> bytes:
        x = me.dice_secret
        for _ in range(me.dice_n - i):
            x = crypto.chain_step(x)
        return x

    for i in (0, 1, 2, 43, 44, 64, 236, 237, 299, 300):
        assert me.link(i) == naive(i), i
    assert me.public().dice == naive(0)
    with pytest.raises(ValueError):
        me.link(301)


def test_state_decoded_once_per_bytes_and_encoded_once_per_state():
    from eiapbem.data import world
    from eiapbem.rules.scenario import initial_state

    small_state = initial_state(world.load_scenario("classic-1805"), world.load_raw())
    data = canonical.encode(small_state.to_obj())
    assert small_state.encode() == data
    first = GameState.decode(data)
    assert GameState.decode(bytes(data)) is first
    assert first.encode() == data
    assert first.state_hash() == small_state.state_hash()
    changed = first.replace(format=first.format)
    assert changed is not first and changed.encode() == data
    with pytest.raises(BadEncoding):
        GameState.decode(data[:-1])


def test_state_encoding_from_remembered_parts_is_the_canonical_one():
    from eiapbem.client import bench

    st, _ = bench.set_up_state()
    assert st.encode() == canonical.encode(st.to_obj())
    # a derived state shares unchanged parts; its bytes are still those of its plain form
    fr = st.powers["FR"]
    moved = st.with_power("FR", treasury=fr.treasury + 7).replace(units=st.units.remove(next(iter(st.units))))
    assert moved.encode() == canonical.encode(moved.to_obj())
    assert moved.state_hash() != st.state_hash()
    assert GameState.decode(moved.encode()) == moved


def test_state_parts_are_the_digests_of_the_plain_parts():
    import hashlib

    from eiapbem.client import bench
    from eiapbem.client.turns import state_parts

    st, _ = bench.set_up_state()
    want = {}
    for k, v in st.to_obj().items():
        if k == "powers":
            want.update({f"powers.{p}": hashlib.sha256(canonical.encode(w)).digest()[:8] for p, w in v.items()})
        else:
            want[k] = hashlib.sha256(canonical.encode(v)).digest()[:8]
    assert state_parts(st) == want


def test_invariants_still_checked_when_the_parts_change():
    from eiapbem.core.record import InvalidValue
    from eiapbem.data import world
    from eiapbem.rules.scenario import initial_state

    st = initial_state(world.load_scenario("classic-1805"), world.load_raw())
    again = st.replace(date=st.date)
    assert again == st  # the same parts: checked before, accepted
    uid, unit = next(iter(st.units.items()))
    with pytest.raises(InvalidValue, match="filed under"):
        st.replace(units=st.units.set(uid + "x", unit))
    with pytest.raises(InvalidValue, match="only Great Britain"):
        st.with_power("FR", war_with_america=True)
    assert st.with_power("GB", war_with_america=True).powers["GB"].war_with_america


def test_memos_stay_bounded():
    from eiapbem.rules.model.state import _remember

    memo: dict = {}
    for i in range(2_500):
        _remember(memo, i, i, 1000)
        assert len(memo) <= 1000
    # full: a new generation starts (not one oldest entry dropped per insert, which scans the dict's holes)
    assert sorted(memo) == list(range(2_000, 2_500))
