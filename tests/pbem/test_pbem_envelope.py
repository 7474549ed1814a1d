"""The envelope (docs/file-format.md 2-5, 8): strict parsing, byte-exact round trip, every damage refused."""

import os

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eiapbem.core.errors import BadEncoding, BadFile
from eiapbem.pbem import atomic, envelope, files, keys
from eiapbem.pbem.chain import Step
from eiapbem.pbem.errors import (
    BadEncryption,
    BadFormat,
    BadHeader,
    BadSignature,
    WrongGame,
)
from eiapbem.core import canonical
from pbem_game import Game

STEP = Step.one("1805-05/naval/GB", "GB")


@pytest.fixture(scope="module")
def game_and_turn():
    g = Game()
    t = g.turn("GB", "1805-05/naval/GB", {"orders": ["a", "b"], "n": 7}, step=STEP)
    return g, t


def load(g, data):
    return files.load_file(g.chains["FR"], data, [g.ids["FR"]], STEP, "t.pbm")


def regions(data):
    env = envelope.parse(data)
    hlen, blen = len(env.header_bytes), len(env.body)
    m = len(envelope.MAGIC)
    return {
        "magic": range(0, m),
        "hlen": range(m, m + 4),
        "header": range(m + 4, m + 4 + hlen),
        "blen": range(m + 4 + hlen, m + 8 + hlen),
        "body": range(m + 8 + hlen, m + 8 + hlen + blen),
        "signature": range(len(data) - 64, len(data)),
    }


#: What a flipped byte in each region must be refused as.
EXPECT = {
    "magic": (BadFormat,),
    "hlen": (BadFormat, BadEncoding, BadHeader),
    "header": (BadEncoding, BadHeader, BadSignature, WrongGame),
    "blen": (BadFormat,),
    "body": (BadSignature,),
    "signature": (BadSignature,),
}


def test_parse_and_assemble_round_trip_byte_for_byte(game_and_turn):
    _, t = game_and_turn
    env = envelope.parse(t.data)
    assert env.to_bytes() == t.data
    assert envelope.assemble(env.header_bytes, env.body, env.signature) == t.data
    assert env.header.encode() == env.header_bytes  # re-marshalling the parsed header gives the same bytes
    assert canonical.encode(env.header.to_obj()) == env.header_bytes


@pytest.mark.parametrize("region", list(EXPECT))
def test_a_flipped_byte_in_each_region_is_refused_with_the_right_error(game_and_turn, region):
    g, t = game_and_turn
    before = g.chains["FR"]
    positions = list(regions(t.data)[region])
    if region == "body":
        positions = positions[:: max(1, len(positions) // 40)]
    for pos in positions:
        for bit in (0x01, 0x80):
            data = bytearray(t.data)
            data[pos] ^= bit
            with pytest.raises(EXPECT[region]):
                load(g, bytes(data))
    assert g.chains["FR"] is before  # nothing changed


def test_flips_in_identity_and_save_files_are_refused(tmp_path):
    g = Game()
    ident = keys.seal_identity(g.ids["FR"], "pw", "Test", logn=10, r=1, p=1)
    for pos in range(0, len(ident), 7):
        data = bytearray(ident)
        data[pos] ^= 0x04
        with pytest.raises(BadFile):
            keys.open_identity(bytes(data), "pw")
    s = files.write_save(files.SaveContents(g.chains["FR"], {"x": 1}, {}), g.ids["FR"], g.rng)
    for pos in range(0, len(s.data), 5):
        data = bytearray(s.data)
        data[pos] ^= 0x04
        with pytest.raises(BadFile):
            files.open_save(bytes(data), s.dat, g.ids["FR"])
    for pos in range(0, len(s.dat), 3):
        dat = bytearray(s.dat)
        dat[pos] ^= 0x04
        with pytest.raises(BadEncryption):
            files.open_save(s.data, bytes(dat), g.ids["FR"])


@pytest.mark.parametrize(
    "data, message",
    [
        (b"", "is empty"),
        (b"EIAPBEM/1\n", "truncated"),
        (b"EIAPBEM/2\n" + bytes(100), "another format version"),
        (b"PK\x03\x04 a zip file", "not an eiapbem file"),
        (os.urandom(3000), "not an eiapbem file"),
    ],
)
def test_empty_truncated_foreign_and_random_files_are_refused_in_one_sentence(game_and_turn, data, message):
    g, _ = game_and_turn
    with pytest.raises(BadFormat, match=message) as err:
        load(g, data)
    assert "\n" not in str(err.value) and str(err.value).startswith("t.pbm ")


def test_every_truncation_is_refused(game_and_turn):
    g, t = game_and_turn
    for n in list(range(0, 200)) + list(range(len(t.data) - 200, len(t.data))):
        with pytest.raises(BadFile):
            load(g, t.data[:n])


def test_trailing_bytes_are_refused(game_and_turn):
    g, t = game_and_turn
    with pytest.raises(BadFormat, match="after its signature"):
        load(g, t.data + b"\x00")


def test_huge_file_is_refused_before_reading_it_all(game_and_turn):
    g, _ = game_and_turn
    huge = envelope.MAGIC + bytes(envelope.MAX_FILE)
    with pytest.raises(BadFormat, match="over the limit"):
        load(g, huge)


def test_huge_declared_header_is_refused(game_and_turn):
    g, _ = game_and_turn
    data = envelope.MAGIC + (envelope.MAX_HEADER + 1).to_bytes(4, "big") + bytes(200)
    with pytest.raises(BadFormat, match="declares a header"):
        load(g, data)


def _rebuild_with_header(t, change):
    env = envelope.parse(t.data)
    obj = env.header.to_obj()
    change(obj)
    hb = canonical.encode(obj)
    return envelope.assemble(hb, env.body, env.signature)


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda o: o.update(extra=1), "unknown key 'extra' in a turn file's header"),
        (lambda o: o.pop("seq"), "missing key 'seq' of a turn file's header"),
        (lambda o: o.update(seq=-1), r"seq: -1 is outside the allowed range 0\.\.4294967295"),
        (lambda o: o.update(author="XX"), "author: 'XX' is not one of AU FR"[:24]),
        (lambda o: o.update(game="bad name"), "game: 'bad name' is not a valid game name"),
        (lambda o: o.update(roster={}), "unknown key 'roster' in a turn file's header"),
        (lambda o: o.update(to=o["to"] + o["to"][:1]), "to names one role twice"),
        (lambda o: o.update(prev=b"short"), "prev must be 32 bytes in a turn file"),
        (lambda o: o.update(kind="nonsense"), "unknown kind 'nonsense'"),
        (lambda o: o.update(reloads=None), "reloads: expected int, got NoneType None"),
        (lambda o: o.update(slot="x" * 60_000), r"slot: 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx'\.\.\. \(60000 characters\)"),
    ],
)
def test_header_schema_is_strict(game_and_turn, change, message):
    g, t = game_and_turn
    with pytest.raises(BadHeader, match=message):
        load(g, _rebuild_with_header(t, change))


def test_non_canonical_header_is_refused(game_and_turn):
    import msgpack

    g, t = game_and_turn
    env = envelope.parse(t.data)
    obj = env.header.to_obj()
    unsorted = msgpack.packb(dict(reversed(list(obj.items()))), use_bin_type=True)
    with pytest.raises(BadEncoding, match="not canonical"):
        load(g, envelope.assemble(unsorted, env.body, env.signature))


def test_a_signature_for_one_kind_does_not_verify_as_another(game_and_turn):
    # Domain separation: the same bytes relabelled as an admin file fail the signature.
    g, t = game_and_turn
    relabelled = _rebuild_with_header(t, lambda o: (o.update(kind="admin", slot="admin/1"), o.pop("reloads")))
    relabelled_env = envelope.parse(relabelled)
    from eiapbem.pbem import crypto

    with pytest.raises(BadSignature):
        crypto.verify(relabelled_env, g.roster["GB"].sign)


MUTATIONS = st.lists(
    st.one_of(
        st.tuples(st.just("flip"), st.integers(0, 10**6), st.integers(1, 255)),
        st.tuples(st.just("insert"), st.integers(0, 10**6), st.binary(min_size=1, max_size=8)),
        st.tuples(st.just("delete"), st.integers(0, 10**6), st.integers(1, 16)),
        st.tuples(st.just("truncate"), st.integers(0, 10**6), st.just(0)),
    ),
    min_size=1,
    max_size=4,
)


def mutate(data: bytes, muts) -> bytes:
    b = bytearray(data)
    for kind, pos, arg in muts:
        pos = pos % (len(b) + 1)
        if kind == "flip" and pos < len(b):
            b[pos] ^= arg
        elif kind == "insert":
            b[pos:pos] = arg
        elif kind == "delete":
            del b[pos : pos + arg]
        elif kind == "truncate":
            del b[pos:]
    return bytes(b)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(muts=MUTATIONS)
def test_fuzz_mutated_files_never_crash_and_are_never_accepted(game_and_turn, muts):
    g, t = game_and_turn
    data = mutate(t.data, muts)
    if data == t.data:
        return
    with pytest.raises(BadFile):
        load(g, data)


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=400))
def test_fuzz_random_bytes_are_refused(data):
    g = _GAME
    with pytest.raises(BadFile):
        load(g, data)
    with pytest.raises(BadFile):
        envelope.parse(envelope.MAGIC + data)


_GAME = Game()


def test_save_folder_pair_with_garbage_is_refused(tmp_path):
    (tmp_path / "X.sav").write_bytes(b"garbage")
    with pytest.raises(BadFormat):
        atomic.read_save_pair(tmp_path / "X.sav")
    with pytest.raises(BadFormat, match="there is no save"):
        atomic.read_save_pair(tmp_path / "Y.sav")
