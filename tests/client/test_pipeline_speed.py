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


def _full_check(state, units, leaders):
    """The verdict of a whole check: the same state with maps built afresh (no base to start from)."""
    from eiapbem.core.record import FrozenMap, InvalidValue, field_specs

    fields = {n: getattr(state, n) for n in field_specs(GameState)}
    fields.update(units=FrozenMap(units.items()), leaders=FrozenMap(leaders.items()), log=())
    try:
        GameState(**fields)
    except InvalidValue as err:
        return str(err)
    return None


_ops = st.lists(st.tuples(st.sampled_from(["aboard", "ashore", "remove", "misfile", "attach", "detach",
                                           "remove-leader", "misfile-leader", "remove-carrier", "remove-attached"]),
                          st.integers(0, 40), st.integers(0, 40)), min_size=1, max_size=12)


@settings(max_examples=40, deadline=None)
@given(_ops)
def test_invariants_checked_by_changes_give_the_verdict_of_a_whole_check(ops):
    """Units and leaders derived from checked maps are checked at their changes only (issue 18): same verdicts."""
    from dataclasses import replace as dc_replace

    from eiapbem.core.record import FrozenMap, InvalidValue, field_specs
    from eiapbem.rules.model.units import Corps, Fleet, Location, LocationKind

    st0, _ = _set_up()
    fields = {n: getattr(st0, n) for n in field_specs(GameState)}
    units = dict(st0.units)
    fleets = [k for k, u in units.items() if isinstance(u, Fleet)]
    corps = [k for k, u in units.items() if isinstance(u, Corps)]
    for c, f in zip(corps[:8], fleets):  # some corps aboard from the start: a fleet removed later strands them
        units[c] = dc_replace(units[c], location=Location(LocationKind.ABOARD, f))
    fields.update(units=FrozenMap(units.items()), leaders=FrozenMap(st0.leaders.items()), log=())
    cur = GameState(**fields)  # maps built whole, checked whole: every change below is checked by its keys
    for op, i, j in ops:
        units, leaders = cur.units, cur.leaders
        keys, lkeys = list(units), list(leaders)
        fleets = [k for k in keys if isinstance(units[k], Fleet)]
        k, lk = keys[i % len(keys)], lkeys[i % len(lkeys)]
        target = (fleets + keys + ["fleet:FR:nowhere"])[j % (len(fleets) + len(keys) + 1)]
        u = units[k]
        try:
            units, leaders = _change(op, units, leaders, k, lk, u, target)
        except InvalidValue:
            continue  # a record its own checks refuse: not a change of the maps
        want = _full_check(cur, units, leaders)
        try:
            nxt = cur.replace(units=units, leaders=leaders)
        except InvalidValue as err:
            assert str(err) == want
            continue
        assert want is None
        cur = nxt


def _change(op, units, leaders, k, lk, u, target):
    from dataclasses import replace as dc_replace

    from eiapbem.rules.model.units import Corps, Location, LocationKind

    if op == "aboard" and isinstance(u, Corps) and target.startswith("fleet:"):
        units = units.set(k, dc_replace(u, location=Location(LocationKind.ABOARD, target)))
    elif op == "ashore" and u.location.kind is LocationKind.ABOARD:
        units = units.set(k, dc_replace(u, location=Location(LocationKind.AREA, "paris")))
    elif op == "remove":
        units = units.remove(k)
    elif op == "misfile":
        units = units.set(k + "x", u)
    elif op == "attach":
        leaders = leaders.set(lk, dc_replace(leaders[lk], attached_to=target))
    elif op == "detach":
        leaders = leaders.set(lk, dc_replace(leaders[lk], attached_to=None))
    elif op == "remove-leader":
        leaders = leaders.remove(lk)
    elif op == "misfile-leader":
        leaders = leaders.set(lk + "x", leaders[lk])
    elif op == "remove-carrier" and u.location.kind is LocationKind.ABOARD and u.location.site in units:
        units = units.remove(u.location.site)
    elif op == "remove-attached" and leaders[lk].attached_to in units:
        units = units.remove(leaders[lk].attached_to)
    return units, leaders


_SET_UP: list = []


def _set_up():
    from eiapbem.client import bench

    if not _SET_UP:
        _SET_UP.append(bench.set_up_state())
    return _SET_UP[0]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text(max_size=4).filter(lambda k: k.encode("utf-8", "ignore").decode("utf-8") == k), max_size=8),
       st.lists(st.tuples(st.booleans(), st.text(max_size=4)), max_size=8))
def test_frozen_map_updates_keep_the_canonical_order(keys, ops):
    """``set`` inserts a new key in place (str order is UTF-8 byte order); ``remove`` keeps the rest in order."""
    from eiapbem.core.record import FrozenMap

    m = FrozenMap((k, i) for i, k in enumerate(dict.fromkeys(keys)))
    root = m
    for add, k in ops:
        if k.encode("utf-8", "ignore").decode("utf-8") != k:
            continue
        m = m.set(k, len(k)) if add or k not in m else m.remove(k)
        plain = FrozenMap(dict(m.items()))
        assert list(m.items()) == list(plain.items())
        assert m._base is root or m._base is None  # derived from the first map of the run
        assert {k for k in root if root.get(k) is not m.get(k) or (k in root) != (k in m)} | \
            {k for k in m if k not in root} <= set(m._changed)
