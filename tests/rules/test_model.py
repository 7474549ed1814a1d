"""The game state model: canonical round trips, one canonical key for ==/hash,
no floats, stable hashes across processes, strict decoding that names fields."""

from __future__ import annotations

import dataclasses
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from model_strategies import game_states, sample_state

from eiapbem.core.errors import BadData, BadEncoding, BadFile
from eiapbem.core import canonical
from eiapbem.rules.model import (
    STATE_FORMAT,
    Access,
    AccessKind,
    BuildOrder,
    Corps,
    CorpsType,
    Date,
    Factors,
    Fleet,
    FrozenMap,
    GameState,
    Garrison,
    InvalidValue,
    Leader,
    LeaderStatus,
    Location,
    LocationKind,
    MinorCountry,
    MinorStatus,
    Options,
    PowerState,
    SurrenderSettings,
    first_difference,
)
from paths import TESTS

HEALTH = [HealthCheck.too_slow, HealthCheck.data_too_large]


# ------------------------------------------------------------------ round trip


@given(game_states())
@settings(max_examples=40, deadline=None, suppress_health_check=HEALTH)
def test_round_trip_gives_the_same_state_and_the_same_bytes(s):
    b = s.encode()
    back = GameState.decode(b)
    assert back == s
    assert back.encode() == b
    assert GameState.from_obj(s.to_obj()) == s
    assert back.state_hash() == s.state_hash()


@given(game_states(), st.data())
@settings(max_examples=30, deadline=None, suppress_health_check=HEALTH)
def test_equality_and_hash_follow_the_encoding(a, data):
    # STYLE.md 11: equality and hashing from one canonical key.  The other
    # state is either rebuilt from a's plain form (a new object, equal) or a
    # one-field change of it, or another random state.
    b = data.draw(
        st.one_of(
            st.just(GameState.from_obj(a.to_obj())),
            st.integers(0, 5).map(lambda n: a.with_power("PR", treasury=a.powers["PR"].treasury + n)),
            game_states(),
        )
    )
    assert (a == b) == (a.encode() == b.encode())
    if a == b:
        assert hash(a) == hash(b)
        assert a.state_hash() == b.state_hash()


def test_insertion_order_does_not_matter():
    s = sample_state()
    reordered = s.replace(
        units=FrozenMap(list(reversed(list(s.units.items())))),
        minors=FrozenMap(list(reversed(list(s.minors.items())))),
    )
    assert reordered == s and hash(reordered) == hash(s)
    assert reordered.encode() == s.encode()


def test_set_fields_are_sorted_so_one_set_has_one_form():
    a = PowerState(trade=("RU", "AU", "AU"))
    b = PowerState(trade=("AU", "RU"))
    assert a == b and a.trade == ("AU", "RU")


def test_plain_strings_become_the_enum_and_compare_equal():
    a = MinorCountry(status="influenced", controller="FR")
    assert a.status is MinorStatus.INFLUENCED
    assert a == MinorCountry(status=MinorStatus.INFLUENCED, controller="FR")


# ---------------------------------------------------------------- no floats


def test_a_float_is_refused_when_the_value_is_built():
    s = sample_state()
    with pytest.raises(InvalidValue, match=r"treasury"):
        s.with_power("FR", treasury=4.5)
    with pytest.raises(InvalidValue, match=r"infantry"):
        Factors(infantry=1.0)


def test_a_float_smuggled_into_a_frozen_record_cannot_be_encoded():
    s = sample_state()
    fr = s.powers["FR"]
    object.__setattr__(fr, "treasury", 45.0)  # bypass the constructor's check
    try:
        with pytest.raises(BadEncoding, match="float"):
            s.encode()
    finally:
        object.__setattr__(fr, "treasury", 45)


def _walk(obj, path="$"):
    if isinstance(obj, dict):
        for k, v in obj.items():
            assert type(k) is str, path
            yield from _walk(v, f"{path}.{k}")
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _walk(v, f"{path}[{i}]")
    else:
        yield path, obj


@given(game_states())
@settings(max_examples=25, deadline=None, suppress_health_check=HEALTH)
def test_the_encoded_state_holds_only_allowed_types(s):
    for path, leaf in _walk(canonical.decode(s.encode())):
        assert leaf is None or type(leaf) in (int, str, bytes, bool), (path, type(leaf))


def test_bool_is_not_an_int_and_int_is_not_a_bool():
    with pytest.raises(InvalidValue):
        PowerState(treasury=True)
    with pytest.raises(InvalidValue):
        Options(fog_of_war=1)


# ------------------------------------------------- hash stable across processes


def test_the_same_state_hashes_identically_with_other_hash_seeds():
    code = (
        "import sys; sys.path.insert(0, %r)\n"
        "from model_strategies import sample_state\n"
        "print(sample_state().state_hash().hex())\n"
    ) % str(TESTS)
    outs = set()
    for seed in ("0", "1", "4242"):
        out = subprocess.run(
            [sys.executable, "-c", code],
            capture_output=True,
            text=True,
            env={"PYTHONHASHSEED": seed, "PATH": ""},
            check=True,
        )
        outs.add(out.stdout.strip())
    assert outs == {sample_state().state_hash().hex()}


# ------------------------------------------------------------- strict decoding


def _bad(obj) -> str:
    with pytest.raises(BadEncoding) as info:
        GameState.decode(canonical.encode(obj))
    assert isinstance(info.value, BadFile)
    assert info.value.hint
    return str(info.value)


def test_decode_names_a_field_of_the_wrong_type():
    obj = sample_state().to_obj()
    obj["powers"]["FR"]["treasury"] = "45"
    assert "powers.FR.treasury" in _bad(obj)


def test_decode_names_a_deep_field_of_the_wrong_type():
    obj = sample_state().to_obj()
    obj["units"]["corps:FR:III"]["factors"]["infantry"] = None
    assert "units.corps:FR:III.factors.infantry" in _bad(obj)


def test_decode_names_an_unknown_key():
    obj = sample_state().to_obj()
    obj["powers"]["FR"]["gold"] = 1
    msg = _bad(obj)
    assert "powers.FR.gold" in msg and "unknown key" in msg


def test_decode_names_a_missing_key():
    obj = sample_state().to_obj()
    del obj["options"]["fog_of_war"]
    msg = _bad(obj)
    assert "options.fog_of_war" in msg and "missing" in msg


def test_decode_names_a_bad_enum_value():
    obj = sample_state().to_obj()
    obj["minors"]["bavaria"]["status"] = "friendly"
    assert "minors.bavaria.status" in _bad(obj)


def test_decode_refuses_an_unknown_power():
    obj = sample_state().to_obj()
    obj["powers"]["XX"] = obj["powers"]["FR"]
    assert "powers.XX" in _bad(obj)


def test_decode_refuses_an_unknown_unit_kind():
    obj = sample_state().to_obj()
    obj["units"]["corps:FR:III"]["kind"] = "regiment"
    assert "units.corps:FR:III.kind" in _bad(obj)


def test_decode_refuses_an_unsorted_set():
    obj = sample_state().to_obj()
    obj["powers"]["FR"]["trade"] = ["RU", "GB"]
    assert "powers.FR.trade" in _bad(obj)


def test_decode_refuses_a_war_only_one_side_knows():
    # 6.2: a war is between two powers; both sides hold it.
    obj = sample_state().to_obj()
    del obj["powers"]["GB"]["wars"]["FR"]
    assert "powers.FR.wars.GB" in _bad(obj)


def test_decode_refuses_a_unit_filed_under_another_id():
    obj = sample_state().to_obj()
    obj["units"]["corps:FR:IV"] = obj["units"].pop("corps:FR:III")
    obj["leaders"]["leader:FR:napoleon"]["attached_to"] = "corps:FR:IV"
    assert "units.corps:FR:IV.id" in _bad(obj)


def test_decode_refuses_another_format_version():
    obj = sample_state().to_obj()
    obj["format"] = STATE_FORMAT + 1
    assert "format" in _bad(obj)
    old = sample_state().to_obj()
    for version in (1, 2):  # 1 carried the game log; 2 the economic orders in each power and a scratch field list
        old["format"] = version
        with pytest.raises(BadEncoding, match=f"state format {version} is not {STATE_FORMAT}, the one this eiapbem reads"):
            GameState.decode(canonical.encode(old))


def test_decode_refuses_non_canonical_bytes_and_rubbish():
    with pytest.raises(BadEncoding):
        GameState.decode(b"\x93\x01\x02")
    with pytest.raises(BadEncoding):
        GameState.decode(sample_state().encode() + b"\x00")


@given(st.binary(max_size=64))
@settings(max_examples=100)
def test_decode_never_crashes_on_random_bytes(data):
    try:
        GameState.decode(data)
    except BadEncoding:
        pass


# ---------------------------------------------------------------- invariants


def test_a_leader_on_the_map_is_attached_to_a_corps_or_fleet():
    # 13.8: every leader on the map is stacked with a corps (a fleet for Nelson), 000:2632.
    with pytest.raises(InvalidValue, match="attached_to"):
        Leader(id="leader:FR:ney", power="FR", status=LeaderStatus.ON_MAP)
    s = sample_state()
    with pytest.raises(InvalidValue, match="leaders.leader:FR:ney.attached_to"):
        s.with_leader(Leader(id="leader:FR:ney", power="FR", status=LeaderStatus.ON_MAP, attached_to="corps:FR:VI"))


def test_units_aboard_need_a_fleet():
    s = sample_state()
    aboard = Corps(id="corps:FR:IV", nation="FR", corps_type=CorpsType.REGULAR, location=Location(LocationKind.ABOARD, "fleet:FR:1"))
    with pytest.raises(InvalidValue, match="units.corps:FR:IV.location"):
        s.with_unit(aboard)
    ok = s.with_unit(aboard.replace(location=Location(LocationKind.ABOARD, "fleet:GB:1")))
    assert GameState.decode(ok.encode()) == ok


def test_a_unit_id_names_its_owner():
    with pytest.raises(InvalidValue, match="nation"):
        Corps(id="corps:FR:III", nation="AU", corps_type=CorpsType.REGULAR, location=Location(LocationKind.POOL))


def test_fleets_are_not_on_land_and_corps_not_at_sea():
    with pytest.raises(InvalidValue, match="location"):
        Fleet(id="fleet:GB:1", nation="GB", location=Location(LocationKind.AREA, "kent"))
    with pytest.raises(InvalidValue, match="location"):
        Corps(id="corps:GB:I", nation="GB", corps_type=CorpsType.REGULAR, location=Location(LocationKind.SEA, "north-sea"))


def test_garrison_is_keyed_by_nation_and_place():
    loc = Location(LocationKind.CITY, "vienna")
    g = Garrison(id="garrison:AU:city:vienna", nation="AU", location=loc, factors=Factors(infantry=3))
    assert g.id == "garrison:AU:city:vienna"
    with pytest.raises(InvalidValue, match="id"):
        Garrison(id="garrison:FR:city:vienna", nation="AU", location=loc)


def test_ships_are_built_in_a_named_port():
    # 12.5.3: the port where ships will appear is chosen at purchase (000:2234).
    with pytest.raises(InvalidValue, match="port"):
        BuildOrder(nation="FR", item="heavy", count=2, arrives=Date(1806, 3))
    b = BuildOrder(nation="FR", item="heavy", count=2, arrives=Date(1806, 3), port="brest")
    assert b.key == "1806-03/FR/heavy/brest"


def test_only_some_phases_can_be_skipped():
    # 13.9: diplomacy, reinforcement or naval only (000:2734).
    with pytest.raises(InvalidValue, match="land"):
        PowerState(skips=FrozenMap({"land": "once"}))


def test_temporary_access_has_an_end():
    # 13.4.1: three-month grace period (000:2552).
    with pytest.raises(InvalidValue):
        Access(kind=AccessKind.TEMPORARY)
    assert Access(kind=AccessKind.TEMPORARY, until=Date(1806, 4)).until == Date(1806, 4)


def test_victor_terms_come_from_lists_b_and_c():
    # 6.4.2: the victor picks from B (and C if unconditional); the loser from A (000:710-720).
    with pytest.raises(InvalidValue, match="terms"):
        SurrenderSettings(terms=("A.1",))


def test_only_great_britain_fights_america():
    s = sample_state()
    with pytest.raises(InvalidValue, match="war_with_america"):
        s.with_power("FR", war_with_america=True)


def test_at_war_and_allied_at_once_is_refused():
    s = sample_state()
    with pytest.raises(InvalidValue, match="alliances"):
        s.with_alliance("FR", "GB", Date(1805, 1))


def test_secondary_district_links_both_ways():
    # 13.6.1: Denmark with its secondary district Norway (000:2590).
    s = sample_state()
    with pytest.raises(InvalidValue, match="minors.sweden.districts"):
        s.with_minor("sweden", MinorCountry(status=MinorStatus.NEUTRAL, districts=("finland",)))


def test_the_slot_fits_the_month():
    s = sample_state()  # January 1805, the first month
    from eiapbem.rules.sequence import month_slots

    april = month_slots(Date(1805, 4))
    with pytest.raises(InvalidValue, match="setup"):
        s.replace(date=Date(1805, 4))  # still in a setup slot
    s = s.replace(date=Date(1805, 4), slot=april[0])
    econ = month_slots(Date(1805, 6))[-1]
    with pytest.raises(InvalidValue, match="economic"):
        s.replace(slot=econ)  # 12.0: no economic phase in April (000:2028)
    assert s.replace(date=Date(1805, 6), slot=econ).slot == econ


def test_date_arithmetic():
    d = Date(1805, 11)
    assert d.plus(3) == Date(1806, 2)
    assert d.plus(-11) == Date(1804, 12)
    assert Date(1805, 1).months_until(Date(1815, 12)) == 131
    assert Date.parse("1812-06") == Date(1812, 6) and str(Date(1812, 6)) == "1812-06"
    assert Date(1805, 12) < Date(1806, 1)
    assert Date(1809, 3).name == "March 1809"
    with pytest.raises(InvalidValue):
        Date(1805, 13)
    with pytest.raises(BadData):
        Date.parse("March 1805")


def test_replace_checks_again():
    c = Corps(id="corps:FR:III", nation="FR", corps_type=CorpsType.REGULAR, location=Location(LocationKind.POOL))
    with pytest.raises(InvalidValue):
        c.replace(factors=Factors(infantry=-1))
    assert dataclasses.replace(c, besieging=True).besieging is True


# ---------------------------------------------------------- first difference


def test_first_difference_names_the_field():
    a = sample_state()
    assert a.first_difference(a) is None
    b = a.with_power("FR", treasury=46)
    assert a.first_difference(b) == "powers.FR.treasury"
    c = a.with_unit(a.units["corps:FR:III"].replace(factors=Factors(infantry=11, cavalry=2, guard=1)))
    assert first_difference(a.to_obj(), c.to_obj()) == "units.corps:FR:III.factors.infantry"


def test_first_difference_for_missing_keys_and_lists():
    assert first_difference({"a": 1}, {"a": 1, "b": 2}) == "b"
    assert first_difference({"log": [1, 2]}, {"log": [1, 3]}) == "log[1]"
    assert first_difference({"log": [1]}, {"log": [1, 2]}) == "log[1]"
    assert first_difference(1, True) == "(top level)"
    assert first_difference({"x": {"y": 1}}, {"x": {"y": 1}}) is None


@given(game_states(), game_states())
@settings(max_examples=20, deadline=None, suppress_health_check=HEALTH)
def test_first_difference_is_none_exactly_when_the_bytes_agree(a, b):
    assert (a.first_difference(b) is None) == (a.encode() == b.encode())


# ----------------------------------------------------------------- cheap updates, strict decoding (Integration)


def _set_up_state():
    from eiapbem.data import world
    from eiapbem.rules.scenario import initial_state

    return initial_state(world.load_scenario("classic-1805"), world.load_raw())


def test_an_update_still_checks_what_it_changes():
    """Record.replace checks only the changed fields, but those fully; a map update checks its changed entries."""
    from eiapbem.rules.model.base import InvalidValue

    st = _set_up_state()
    unit = next(iter(st.units.values()))
    with pytest.raises(InvalidValue):
        st.replace(units=st.units.set(unit.id, 5))  # not a unit
    with pytest.raises(InvalidValue):
        st.replace(units=st.units.set("corps:FR:NOT-THIS", unit))  # filed under another id (GameState._check)
    with pytest.raises(InvalidValue):
        st.with_power("FR", treasury=-1)
    with pytest.raises(TypeError):
        st.replace(no_such_field=1)
    # Two updates in a row: the second check still sees the first change's entry if it was never checked.
    m = st.units.set(unit.id, unit)
    with pytest.raises(InvalidValue):
        st.replace(units=m.set("corps:FR:NOT-THIS", unit))


def test_decoding_checks_every_entry_even_of_a_state_made_by_updates():
    """Untrusted bytes are validated whole: an entry changed in the encoded form is refused (docs/file-format.md)."""
    from eiapbem.core import canonical

    st = _set_up_state()
    unit = next(iter(st.units.values()))
    st2 = st.with_unit(unit)
    obj = canonical.decode(st2.encode())
    key = sorted(obj["units"])[-1]
    obj["units"][key]["id"] = "corps:FR:elsewhere"
    with pytest.raises(BadEncoding):
        GameState.decode(canonical.encode(obj))
    assert GameState.decode(st2.encode()) == st2
