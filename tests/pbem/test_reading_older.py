"""A state an older release saved is read by this one when the game moves to it (issue 29 item 4).

A field the state gained since (a new standing order, say) is taken at its declared default, which says
what the older rules did; anything else is as strict as ever, and a game of this release's versions is
read strictly.
"""

from __future__ import annotations

import pytest

from eiapbem.core import canonical
from eiapbem.core.errors import BadEncoding
from eiapbem.data import world
from eiapbem.rules.model import GameState
from eiapbem.rules.scenario import initial_state


@pytest.fixture(scope="module")
def encoded():
    st = initial_state(world.load_scenario("classic-1805"), world.load_raw())
    return st, canonical.decode(st.encode())


def _without(obj: dict, power: str, key: str) -> bytes:
    powers = dict(obj["powers"])
    p = dict(powers[power])
    p["standing_orders"] = {k: v for k, v in p["standing_orders"].items() if k != key}
    powers[power] = p
    return canonical.encode(dict(obj, powers=powers))


def test_a_field_gained_since_is_read_at_its_default(encoded):
    st, obj = encoded
    older = _without(obj, "AU", "hold_insurrection")
    with pytest.raises(BadEncoding, match="missing key 'hold_insurrection'"):
        GameState.decode(older)  # strict: a game of this release's versions never lacks it
    read = GameState.decode_older(older)
    assert read.powers["AU"].standing_orders.hold_insurrection is False
    assert read == st and read.state_hash() == st.state_hash()


def test_the_older_reading_is_strict_about_everything_else(encoded):
    _, obj = encoded
    with pytest.raises(BadEncoding, match="unknown key"):
        GameState.decode_older(canonical.encode(dict(obj, retired_field=1)))
    with pytest.raises(BadEncoding, match="missing key 'units'"):  # a field with no default was always there
        GameState.decode_older(canonical.encode({k: v for k, v in obj.items() if k != "units"}))


def _read_without(encoded, field: str):
    """The state of ``encoded`` read from a save of a release before every power's ``field`` joined the state: the
    strict reading refuses it, the older reading gives the field its default, and so the same state."""
    st, obj = encoded
    powers = {p: {k: v for k, v in ps.items() if k != field} for p, ps in obj["powers"].items()}
    older = canonical.encode(dict(obj, powers=powers))
    with pytest.raises(BadEncoding, match=f"missing key '{field}'"):
        GameState.decode(older)
    read = GameState.decode_older(older)
    assert read == st and read.state_hash() == st.state_hash()
    return read


def test_a_save_without_the_off_display_mark_reads_as_civil_disorder_s_suit(encoded):
    # 13.7.1: whether a suit owed is for a marker pushed off the display joined the state; a save of the release
    # before has no key for it, and its suits owed are read as they were played then (any terms accepted).
    assert all(not ps.sue_off_display for ps in _read_without(encoded, "sue_off_display").powers.values())


def test_a_save_without_the_informal_peace_record_reads_as_none_made(encoded):
    # 6.4.1: the month of the last informal peace between two powers joined the state; a save of the release before
    # has no key for it, and no informal peace is known from it (none was kept).
    assert all(not ps.informal_peace for ps in _read_without(encoded, "informal_peace").powers.values())
