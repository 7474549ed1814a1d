"""No input crashes a client (issue 29 item 1): a structured fuzz of every file kind's header and body, in the fast suite.

Hypothesis puts hostile values (``fuzzkit.hostile``: nesting up to 3,000 deep,
the edges of 64-bit integers, strings, bytes and lists of up to 200,000 items,
another type than the one due) at every path of a real header of every file
kind (no key needed: the header is read before any signature) and of a real
body of every kind a member signs (what a patched client can seal with its own
key).  Each must be refused by a ``BadFile``/``EiaError`` in one short sentence,
or read as a value the schema allows; never another exception, never a message
that quotes the hostile value whole.  The long run, through the real commands
and with re-signed files, is ``tools/fuzz.py``; the seven-folder end of it is
``tests/test_fuzz.py`` (slow).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import fuzzkit
from eiapbem.core import canonical
from eiapbem.core.errors import EiaError
from eiapbem.pbem import envelope, inspect as pinspect

#: A refusal names the file and what is wrong in one sentence; it quotes at most a short prefix of a value.
MAX_MESSAGE = 600

HEADERS = fuzzkit.header_samples()
FUZZ = settings(max_examples=120, deadline=None, suppress_health_check=list(HealthCheck), database=None)


@pytest.fixture(scope="module")
def bodies_() -> dict:
    return fuzzkit.body_samples()


def _refused_well(err: BaseException, what: str) -> None:
    assert isinstance(err, EiaError), f"{what}: {type(err).__name__}: {str(err)[:300]}"
    msg = str(err)
    assert msg and "\n" not in msg and len(msg) <= MAX_MESSAGE, (what, len(msg), msg[:300])
    assert len(err.hint or "") <= MAX_MESSAGE, (what, err.hint)


def _set(obj, path, value):
    return fuzzkit.set_at(obj, path, lambda _: value)


def test_every_header_sample_reads_back():
    for kind, h in HEADERS.items():
        assert envelope.parse(fuzzkit.with_header(canonical.encode(h), kind=kind)).header.kind == kind


def test_a_header_nested_thousands_deep_is_refused_before_it_is_read():
    """The attack of issue 29: a 2.6 KB file with a header nested ~1,000 deep crashed every client's load."""
    for depth in (65, 500, 1000, 2600, 60_000):
        data = fuzzkit.with_header(b"\x91" * depth + b"\x01")
        with pytest.raises(EiaError) as err:
            envelope.parse(data, "deep.pbm")
        _refused_well(err.value, f"depth {depth}")
        assert "nested deeper than" in str(err.value) or "declares a header" in str(err.value)


@FUZZ
@given(data=st.data())
def test_hostile_values_anywhere_in_any_kinds_clear_header(data):
    kind = data.draw(st.sampled_from(sorted(HEADERS)))
    h = HEADERS[kind]
    path = data.draw(st.sampled_from(fuzzkit.body_paths(h)))
    value = fuzzkit.hostile(data.draw)
    mutated = _set(h, path, value) if path else value
    raw = fuzzkit.raw_pack(mutated, canonical_keys=data.draw(st.booleans()))
    file_bytes = fuzzkit.with_header(raw, kind=kind)
    try:
        envelope.parse(file_bytes, "hostile.pbm")
    except Exception as err:  # noqa: BLE001 - what the test looks at
        _refused_well(err, f"{kind} header at {path}: {value!r}")
    with tempfile.TemporaryDirectory() as d:  # 'eiapbem files inspect' reads it the same way
        p = Path(d) / "hostile.pbm"
        p.write_bytes(file_bytes)
        try:
            pinspect.describe(p)
        except Exception as err:  # noqa: BLE001
            _refused_well(err, f"inspect: {kind} header at {path}")


@FUZZ
@given(data=st.data())
def test_hostile_values_anywhere_in_a_body_a_member_signs(bodies_, data):
    """Past the signature: the plaintext a member with a patched client sealed with its own key."""
    kind = data.draw(st.sampled_from(sorted(bodies_)))
    body = bodies_[kind]
    path = data.draw(st.sampled_from(fuzzkit.body_paths(body)))
    value = fuzzkit.hostile(data.draw)
    mutated = _set(body, path, value) if path else value
    plaintext = fuzzkit.raw_pack(mutated)
    try:
        fuzzkit.decode_as_client(kind, plaintext, "hostile.pbm")
    except Exception as err:  # noqa: BLE001 - what the test looks at
        _refused_well(err, f"{kind} body at {path}: {value!r}")


def test_every_body_sample_reads_back(bodies_):
    for kind, body in bodies_.items():
        fuzzkit.decode_as_client(kind, canonical.encode(body))


@pytest.mark.parametrize("sides", [2**32, 2**40, 2**63, 2**64 - 1, 0, -1])
def test_a_recorded_roll_of_absurd_sides_is_refused_not_overflowing(bodies_, sides):
    """Issue 29: a dice entry with sides of 2^32 or more raised ``OverflowError`` in core/dice.py."""
    body = _set(bodies_["turn"], ("dice", "a/b"), [sides, 1])
    with pytest.raises(EiaError) as err:
        fuzzkit.decode_as_client("turn", fuzzkit.raw_pack(body))
    _refused_well(err.value, f"sides {sides}")


def test_a_refusal_quotes_a_short_prefix_of_a_hundred_thousand_item_list(bodies_):
    """Issue 29: a 100,000-item list was quoted back in 300,105 characters."""
    for path in (("slot",), ("power",), ("actions", 0), ("actions", 0, "kind"), ("events", 0, "text")):
        body = _set(bodies_["turn"], path, fuzzkit.Many(100_000, 1))
        with pytest.raises(EiaError) as err:
            fuzzkit.decode_as_client("turn", fuzzkit.raw_pack(body))
        _refused_well(err.value, f"turn body at {path}")


def test_a_body_nested_a_thousand_deep_is_refused_by_the_canonical_reader(bodies_):
    body = _set(bodies_["turn"], ("actions",), fuzzkit.Deep(1000))
    with pytest.raises(EiaError, match="nested deeper than 64 levels"):
        fuzzkit.decode_as_client("turn", fuzzkit.raw_pack(body))
