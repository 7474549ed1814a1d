"""The load path's speed-ups of issue 18 item 2 (session 2026-12-02c) give the answers of the plain computations.

Each memo or shortcut is compared with what it replaces: the units by site with a scan of every unit, the
relations and frame checks of a changed state with a whole check of the same state built afresh, a
record's copy with its fields.
"""

from __future__ import annotations

import dataclasses

from hypothesis import given, settings, strategies as st

from eiapbem.core.record import FrozenMap, InvalidValue, field_specs
from eiapbem.rules import control
from eiapbem.rules.model import POWERS, GameState, Location, LocationKind
from eiapbem.rules.model.common import Date
from eiapbem.rules.model.powers import War

_SET_UP: list = []


def _set_up() -> GameState:
    from eiapbem.client import bench

    if not _SET_UP:
        _SET_UP.append(bench.set_up_state()[0])
    return _SET_UP[0]


def _whole(state: GameState, **maps) -> str | None:
    """The verdict of a whole check: ``state`` with ``maps`` built afresh (no base to start from)."""
    fields = {n: getattr(state, n) for n in field_specs(GameState)}
    fields.update({k: FrozenMap(v.items()) for k, v in maps.items()}, log=())
    try:
        GameState(**fields)
    except InvalidValue as err:
        return str(err)
    return None


def _scan(state: GameState, site: str) -> list:
    return [u for u in state.units.values() if u.location.site == site]


_moves = st.lists(st.tuples(st.sampled_from(["move", "remove", "back", "ask"]), st.integers(0, 10_000),
                            st.integers(0, 10_000)), min_size=1, max_size=25)


@settings(max_examples=40, deadline=None)
@given(_moves)
def test_units_by_site_derived_from_an_earlier_map_are_the_scan(moves):
    """``units_at`` builds a changed map's index from an index a map or two back: always the scan."""
    start = _set_up()
    sites = sorted({u.location.site for u in start.units.values()})
    areas = [s for s in sites if s and ":" not in s][:40]
    cur, removed, asked = start, [], [start]
    for op, i, j in moves:
        keys = list(cur.units)
        k = keys[i % len(keys)]
        u = cur.units[k]
        if op == "move" and u.location.kind in (LocationKind.AREA, LocationKind.CITY, LocationKind.POOL):
            try:
                units = cur.units.set(k, u.replace(location=Location(LocationKind.AREA, areas[j % len(areas)])))
            except InvalidValue:
                continue  # a record its own checks refuse (a unit kind that cannot stand there)
        elif op == "remove" and u.location.kind is LocationKind.AREA:
            units = cur.units.remove(k)
            removed.append(u)
        elif op == "back" and removed:
            back = removed.pop(j % len(removed))
            units = cur.units.set(back.id, back)
        else:
            units = cur.units
        try:
            cur = cur.replace(units=units)
        except InvalidValue:
            continue
        if op == "ask" or j % 3 == 0:
            asked.append(cur)
            for site in sites[j % 7::7] + [areas[i % len(areas)], "nowhere"]:
                assert list(control.units_at(cur, site)) == _scan(cur, site)
    for s in asked[-3:] + [cur]:
        for site in sites:
            assert list(control.units_at(s, site)) == _scan(s, site)


def test_a_long_run_of_checked_changes_keeps_a_few_maps_alive():
    """Each checked map starts a new run of changes, and only three versions of a map stay linked."""
    cur = _set_up()
    corps = [u for u in cur.units.values() if u.location.kind is LocationKind.AREA][:30]
    for n, u in enumerate(corps * 3):
        cur = cur.replace(units=cur.units.set(u.id, u.replace(location=Location(LocationKind.AREA, corps[n % 7].location.site))))
        assert len(cur.units._changed) == 1  # the change since the last checked map, not since the run began
    depth, m = 0, cur.units
    while m._base is not None:
        depth, m = depth + 1, m._base
    assert depth <= 3


_relation_ops = st.lists(st.tuples(
    st.sampled_from(["war", "war-one-side", "peace-one-side", "ally", "ally-one-side", "self", "declared-by-other",
                     "america", "marriage-one-side", "access-self", "unally"]),
    st.sampled_from(POWERS), st.sampled_from(POWERS)), min_size=1, max_size=10)


def _relation(op: str, powers: FrozenMap, p: str, q: str) -> FrozenMap:
    a, b = powers[p], powers[q]
    when = Date(1805, 1)
    war = War(since=when, declared_by=(p,))
    if op == "war" and p != q:
        powers = powers.set(p, a.replace(wars=a.wars.set(q, war)))
        powers = powers.set(q, powers[q].replace(wars=b.wars.set(p, war)))
    elif op == "war-one-side":
        powers = powers.set(p, a.replace(wars=a.wars.set(q, war)))
    elif op == "peace-one-side":
        powers = powers.set(p, a.replace(wars=a.wars.discard(q)))
    elif op == "ally" and p != q:
        powers = powers.set(p, a.replace(alliances=a.alliances.set(q, when)))
        powers = powers.set(q, powers[q].replace(alliances=b.alliances.set(p, when)))
    elif op == "ally-one-side":
        powers = powers.set(p, a.replace(alliances=a.alliances.set(q, when)))
    elif op == "unally" and p != q:
        powers = powers.set(p, a.replace(alliances=a.alliances.discard(q)))
        powers = powers.set(q, powers[q].replace(alliances=b.alliances.discard(p)))
    elif op == "self":
        powers = powers.set(p, a.replace(alliances_broken=a.alliances_broken.set(p, when)))
    elif op == "declared-by-other" and p != q:
        other = next(x for x in POWERS if x not in (p, q))
        bad = War(since=when, declared_by=(other,))
        powers = powers.set(p, a.replace(wars=a.wars.set(q, bad)))
        powers = powers.set(q, powers[q].replace(wars=b.wars.set(p, bad)))
    elif op == "america":
        powers = powers.set(p, a.replace(war_with_america=True))
    elif op == "marriage-one-side":
        powers = powers.set(p, a.replace(royal_marriages=a.royal_marriages.set(q, when)))
    elif op == "access-self":
        powers = powers.set(p, a.replace(enforced_peace=a.enforced_peace.set(p, when)))
    return powers


@settings(max_examples=80, deadline=None)
@given(_relation_ops)
def test_relations_checked_by_the_powers_changed_give_the_verdict_of_a_whole_check(ops):
    """Powers derived from powers that passed are checked by the powers changed: same verdicts, same messages."""
    cur = _set_up()
    for op, p, q in ops:
        powers = _relation(op, cur.powers, p, q)
        want = _whole(cur, powers=powers)
        try:
            nxt = cur.replace(powers=powers)
        except InvalidValue as err:
            assert str(err) == want
            continue
        assert want is None
        cur = nxt


@settings(max_examples=40, deadline=None)
@given(st.sampled_from(["date", "end", "start", "slot-date"]), st.integers(0, 30))
def test_a_replaced_frame_is_checked_as_a_whole_state(what, n):
    """``replace`` checks only the groups of the fields it changed; a wrong month is still named as a whole check names it."""
    from eiapbem.rules.model.common import Phase
    from eiapbem.rules.model.slot import Slot

    cur = _set_up()
    month = Date(1805, 1).plus(n - 10)
    changes = {"date": {"date": month}, "end": {"end": month}, "start": {"start": month},
               "slot-date": {"date": month, "slot": Slot(Phase.SETUP, "turn", "FR", ("FR",))}}[what]
    fields = {k: getattr(cur, k) for k in field_specs(GameState)}
    fields.update(changes, log=())
    try:
        GameState(**fields)
        want = None
    except InvalidValue as err:
        want = str(err)
    try:
        cur.replace(**changes)
        got = None
    except InvalidValue as err:
        got = str(err)
    assert got == want


def test_a_replaced_record_holds_every_field_of_its_source():
    """``Record.replace`` copies every field, transient ones too, by the per-class copier."""
    s = _set_up()
    entry = s.replace(log=("x",))  # a transient field: not part of the value, still copied
    again = entry.replace(date=entry.date)
    for f in dataclasses.fields(GameState):
        assert getattr(again, f.name) is getattr(entry, f.name)
    ps = s.powers["FR"]
    more = ps.replace(treasury=ps.treasury + 3)
    assert more.treasury == ps.treasury + 3
    assert [getattr(more, f.name) for f in dataclasses.fields(ps) if f.name != "treasury"] == \
        [getattr(ps, f.name) for f in dataclasses.fields(ps) if f.name != "treasury"]


def _records_in(value, out: dict) -> None:
    """One instance of each record class found in ``value`` (walked through records, maps and tuples)."""
    from eiapbem.core.record import Record

    if isinstance(value, Record):
        out.setdefault(type(value), value)
        for f in dataclasses.fields(value):
            _records_in(getattr(value, f.name), out)
    elif isinstance(value, FrozenMap):
        for v in value.values():
            _records_in(v, out)
    elif isinstance(value, tuple):
        for v in value:
            _records_in(v, out)


def _odd_values() -> list:
    from eiapbem.rules.model import Phase
    from eiapbem.rules.model.units import Factors

    return [None, True, False, 0, 1, -1, 7, 200, 2**40, "", "x", "paris", "FR", "corps:FR:1", "1805-01", "1805-01/setup/turn/FR",
            b"", b"\x01", (), ("FR",), ("GB", "AU"), ("AU", "AU"), FrozenMap(), FrozenMap({"FR": 1}), LocationKind.AREA,
            Phase.SETUP, Date(1805, 1), Factors(), Location(LocationKind.AREA, "paris")]


_FOUND: dict = {}


def _found() -> dict:
    """One record of each class a set-up state and the setup actions hold."""
    if not _FOUND:
        from eiapbem.client import setups

        _records_in(_set_up(), _FOUND)
        _records_in(tuple(setups.default_actions("classic-1805", "FR")) + tuple(setups.default_actions("classic-1805", "GB")),
                    _FOUND)
        _records_in(War(since=Date(1805, 1), declared_by=("FR",)), _FOUND)
    return _FOUND


def _plainly(cls, fields: dict):
    """The record built the plain way: every field's spec in turn, then the invariants (what ``__post_init__`` did)."""
    obj = object.__new__(cls)
    for k, v in fields.items():
        object.__setattr__(obj, k, v)
    obj._checked_fields()
    obj._check()
    return obj


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_records_built_by_their_written_out_check_are_the_plain_check(data):
    """``__post_init__`` (a check written out per class) gives the plain loop's verdict, message and values."""
    found = _found()
    classes = sorted(found, key=lambda c: c.__name__)
    cls = data.draw(st.sampled_from(classes))
    rec = found[cls]
    fields = {f.name: getattr(rec, f.name) for f in dataclasses.fields(rec)}
    names = sorted(field_specs(cls))
    for _ in range(data.draw(st.integers(1, 2))):
        fields[data.draw(st.sampled_from(names))] = data.draw(st.sampled_from(_odd_values()))
    try:
        want = _plainly(cls, dict(fields))
    except InvalidValue as err:
        want = err
    try:
        got = cls(**fields)
    except InvalidValue as err:
        assert isinstance(want, InvalidValue), f"{cls.__name__}: refused {err}, the plain check took it"
        assert (str(err), err.path) == (str(want), want.path)
        return
    assert not isinstance(want, InvalidValue), f"{cls.__name__}: took what the plain check refuses: {want}"
    for f in dataclasses.fields(got):
        assert type(getattr(got, f.name)) is type(getattr(want, f.name))
        assert getattr(got, f.name) == getattr(want, f.name)


_plain = st.recursive(
    st.none() | st.booleans() | st.integers(min_value=-(2**63), max_value=2**64 - 1) | st.text(max_size=4)
    | st.binary(max_size=4) | st.floats(allow_nan=False, max_value=1e6, min_value=-1e6),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=3), inner, max_size=4),
    max_leaves=12)


def _packed(value, sort: bool) -> bytes:
    import msgpack

    def walk(v):
        if isinstance(v, dict):
            items = sorted(v.items()) if sort else list(v.items())[::-1]
            return dict((k, walk(x)) for k, x in items)
        if isinstance(v, list):
            return [walk(x) for x in v]
        return v
    return msgpack.packb(walk(value), use_bin_type=True)


@settings(max_examples=200, deadline=None)
@given(_plain, st.booleans())
def test_a_map_decoded_with_its_pieces_is_decode(value, sort):
    """``decode_map`` takes and refuses what ``decode`` does, with the same message; its pieces are the values' bytes."""
    from eiapbem.core import canonical
    from eiapbem.core.errors import BadEncoding

    data = _packed(value, sort)
    try:
        want = canonical.decode(data)
    except BadEncoding as err:
        try:
            canonical.decode_map(data)
        except BadEncoding as err2:
            assert str(err2) == str(err)
            return
        raise AssertionError(f"decode_map took what decode refuses: {err}")
    got, pieces, entries = canonical.decode_map(data)
    assert got == want
    if isinstance(want, dict):
        assert set(pieces) == set(want)
        for k, v in want.items():
            assert pieces[k] == canonical.encode(v)
            if isinstance(v, dict):
                assert entries[k] == {ek: canonical.encode(ev) for ek, ev in v.items()}


@settings(max_examples=25, deadline=None)
@given(st.data())
def test_a_decoded_state_encodes_to_its_bytes_part_by_part(data):
    """The bytes a state was decoded from are its encoding, field by field and entry by entry (``_seed``)."""
    from model_strategies import game_states

    from eiapbem.core import canonical
    from eiapbem.core.spec import MapSpec
    from eiapbem.rules.model import state as model_state

    s = data.draw(game_states())
    raw = s.encode()
    model_state.forget()
    d = GameState.decode(raw)
    for name, spec in field_specs(GameState).items():
        value = getattr(d, name)
        if isinstance(spec, MapSpec):
            for k, v in value.items():
                assert model_state._encoded_value(v, spec.value) == canonical.encode(spec.value.to_obj(v))
        assert model_state._encoded_field(value, spec) == canonical.encode(spec.to_obj(value))
    assert d.encode() == raw == canonical.encode(d.to_obj())
    changed = d.with_power("FR", treasury=d.powers["FR"].treasury + 1)
    assert changed.encode() == canonical.encode(changed.to_obj())
    assert changed.state_hash() == canonical.digest(changed.to_obj())


def test_the_first_hash_of_a_decoded_state_encodes_nothing_again():
    """Decoding a state remembers its bytes: its hash, and a derived state's, encode only what changed."""
    from eiapbem.core import canonical
    from eiapbem.rules.model import state as model_state

    raw = _set_up().encode()
    model_state.forget()
    d = GameState.decode(raw)
    calls = []
    real = canonical.encode
    try:
        canonical.encode = lambda v: calls.append(1) or real(v)
        assert d.encode() == raw
        d.with_power("FR", treasury=d.powers["FR"].treasury + 1).state_hash()
    finally:
        canonical.encode = real
    assert len(calls) == 1  # France's power record, nothing else


def _plain_reference(value, depth: int = 0) -> bool:
    """``PlainSpec``'s rule written plainly: plain scalars, lists, tuples and string-keyed maps, at most ``Plain.DEPTH`` deep."""
    from eiapbem.core.spec import Plain

    if depth > Plain.DEPTH:
        return False
    if value is None or type(value) in (bool, int, str, bytes):
        return True
    if type(value) in (list, tuple):
        return all(_plain_reference(v, depth + 1) for v in value)
    if type(value) is dict:
        return all(type(k) is str and _plain_reference(v, depth + 1) for k, v in value.items())
    return False


def _nest(value, n: int):
    for i in range(n):
        value = [value] if i % 2 else {"k": value}
    return value


@settings(max_examples=200, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=2) | st.binary(max_size=2)
                    | st.floats(allow_nan=False) | st.just(frozenset()),
                    lambda inner: st.lists(inner, max_size=3) | st.tuples(inner) | st.dictionaries(st.text(max_size=2) | st.integers(), inner, max_size=3),
                    max_leaves=8), st.integers(0, 36), st.integers(0, 3))
def test_the_plain_check_takes_scalars_in_place_as_the_plain_rule_does(value, n, start):
    """``_plain_ok`` (scalars inside a container taken without a call) gives the plain rule's verdict, at every depth."""
    from eiapbem.core.spec import _plain_ok

    deep = _nest(value, n)
    assert _plain_ok(deep, start) == _plain_reference(deep, start)


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_records_read_by_their_written_out_reader_are_the_plain_reader(data):
    """``_from_obj`` of a map with exactly the fields (written out per class) reads what the plain loop reads."""
    from eiapbem.core.record import Record

    found = _found()
    cls = data.draw(st.sampled_from(sorted(found, key=lambda c: c.__name__)))
    obj = found[cls].to_obj()
    names = sorted(obj)
    for _ in range(data.draw(st.integers(0, 2))):
        odd = data.draw(st.sampled_from(_odd_values() + list(found.values()) + ["area", "setup", "human", [], {}]))
        plain = isinstance(odd, Record) and data.draw(st.booleans())  # a record as its map, or the record itself
        obj[data.draw(st.sampled_from(names))] = odd.to_obj() if plain else odd

    def read(how):
        try:
            return how(dict(obj), "here")
        except InvalidValue as err:
            return ("refused", str(err), err.path)
    got, want = read(cls._from_obj), read(cls._from_obj_plain)
    if isinstance(want, tuple):
        assert got == want
    else:
        assert not isinstance(got, tuple), got
        assert got == want and got.to_obj() == want.to_obj()
        for f in dataclasses.fields(got):
            assert type(getattr(got, f.name)) is type(getattr(want, f.name))


def test_every_field_read_in_memory_or_plain_as_the_plain_reader_reads_it():
    """Each field of each record class holding its own value, its plain form, None or a foreign record: same reading."""
    from eiapbem.core.record import Record

    found = _found()
    others = [found[c] for c in sorted(found, key=lambda c: c.__name__)][:6]
    for cls, rec in sorted(found.items(), key=lambda t: t[0].__name__):
        base = rec.to_obj()
        for name, spec in field_specs(cls).items():
            own = getattr(rec, name)
            for value in [own, spec.to_obj(own), None, *others, "x", 3]:
                obj = dict(base, **{name: value})
                outs = []
                for how in (cls._from_obj, cls._from_obj_plain):
                    try:
                        r = how(dict(obj), "p")
                        outs.append(("took", r.to_obj(), [type(getattr(r, f.name)) for f in dataclasses.fields(r)]))
                    except InvalidValue as err:
                        outs.append(("refused", str(err), err.path))
                assert outs[0] == outs[1], (cls.__name__, name, value if not isinstance(value, Record) else type(value))


@settings(max_examples=40, deadline=None)
@given(st.data())
def test_the_powers_with_reinforcements_ready_are_each_powers_answer(data):
    """The sequence asks once for all powers (``_ready_powers``): the powers ``reinforcements_ready`` names, in order."""
    from model_strategies import game_states

    from eiapbem.rules import sequence

    s = data.draw(game_states())
    assert sequence._ready_powers(s) == tuple(p for p in POWERS if sequence.reinforcements_ready(s, p))


def test_the_powers_with_reinforcements_ready_in_each_case_of_13_9_1():
    """A minor's forces due, a leader back this month (not next), returned factors: each power's own answer."""
    from eiapbem.rules import sequence
    from eiapbem.rules.model.minors import MinorStatus
    from eiapbem.rules.model.units import Factors, LeaderStatus

    s = _set_up()
    minor = next(k for k, m in s.minors.items() if m.controller is None and m.part_of is None)
    free = [k for k, lead in s.leaders.items() if lead.attached_to is None and lead.status is not LeaderStatus.CAPTURED]
    cases = [s, s.with_minor(minor, s.minors[minor].replace(status=MinorStatus.ALLIED, controller="RU", setup_due=True)),
             s.with_power("PR", returned_factors=Factors(infantry=2))]
    for k, when in zip(free, (s.date, s.date.next(), s.date.previous())):
        cases.append(s.with_leader(s.leaders[k].replace(status=LeaderStatus.INACTIVE, returns=when)))
    answers = set()
    for c in cases:
        want = tuple(p for p in POWERS if sequence.reinforcements_ready(c, p))
        assert sequence._ready_powers(c) == want
        answers.add(want)
    assert len(answers) >= 4  # the cases are told apart
