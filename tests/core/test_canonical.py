"""Canonical msgpack: one value, one byte form; floats and non-canonical bytes refused."""

import subprocess
import sys

import msgpack
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from eiapbem.core.errors import BadEncoding
from eiapbem.core import canonical

values = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**63), max_value=2**64 - 1) | st.text(max_size=20) | st.binary(max_size=20),
    lambda children: st.lists(children, max_size=5) | st.dictionaries(st.text(max_size=8), children, max_size=5),
    max_leaves=30,
)


@given(values)
@settings(max_examples=300)
def test_round_trip_is_byte_identical(v):
    b = canonical.encode(v)
    assert canonical.encode(canonical.decode(b)) == b


@given(st.dictionaries(st.text(max_size=8), st.integers(-(2**63), 2**63 - 1), min_size=2, max_size=8))
def test_key_order_does_not_change_bytes(d):
    reversed_d = dict(reversed(list(d.items())))
    assert canonical.encode(d) == canonical.encode(reversed_d)


@pytest.mark.parametrize("bad", [1.5, {"a": [0.0]}, {1: "x"}, {"a": {1, 2}}, 2**64])
def test_encode_refuses_non_canonical_values(bad):
    with pytest.raises(BadEncoding):
        canonical.encode(bad)


@pytest.mark.parametrize(
    "data",
    [
        msgpack.packb({"b": 1, "a": 2}),  # unsorted keys
        msgpack.packb({"a": 1.0}),  # float
        msgpack.packb([1]) + b"\x00",  # trailing byte
        b"\xcd\x00\x01",  # uint16 holding 1: not the shortest form
        b"\xd4\x01\x00",  # extension type
        b"",
        b"\xc1",  # never-used byte
        b"\x82\xa1a\x01\xa1a\x02",  # duplicate key
    ],
)
def test_decode_refuses_non_canonical_bytes(data):
    with pytest.raises(BadEncoding):
        canonical.decode(data)


@given(st.binary(max_size=64))
def test_decode_never_crashes_on_random_bytes(data):
    try:
        canonical.decode(data)
    except BadEncoding:
        pass


def test_digest_is_the_same_in_processes_with_other_hash_seeds():
    code = "from eiapbem.core import canonical; print(canonical.digest({'z': [1, 'a'], 'a': {'q': None, 'b': b'x'}}).hex())"
    outs = set()
    for seed in ("0", "1", "12345"):
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env={"PYTHONHASHSEED": seed, "PATH": ""}, check=True)
        outs.add(out.stdout.strip())
    assert len(outs) == 1
