"""GAP files (4.2.10-4.2.12, 000:266-300; docs/file-format.md section 10): bids, selection, results.

Function-level and fast; the same refusals through the real command are in test_gap_cli.py.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from paths import ROOT
from eiapbem.data import world
from eiapbem.core.errors import BadFile
from eiapbem.gap import files as gf
from eiapbem.gap.arbitrate import POWERS, BadBid, Bid, _case_bids, arbitrate
from eiapbem.gap.results import BadResults, render_results, verify_results
from eiapbem.pbem import crypto, envelope, headers
from eiapbem.pbem.errors import BadFormat, BadHeader, BadSignature, WrongGame, WrongPassword
from eiapbem.core import canonical
from eiapbem.rulecases.files import find_cases, load_case
from eiapbem.rulecases.harness import run_case
from eiapbem.rules.model import Options
from eiapbem.rules.scenario import initial_state

FAST = dict(logn=10, r=1, p=1)
GAME = "Austerlitz"


@pytest.fixture(scope="module")
def arb():
    data, pub = gf.new_arbitrator_key("arbitrator pw", rng=crypto.KeystreamRng(b"arb"), **FAST)
    return gf.open_arbitrator_key(data, "arbitrator pw"), pub, data


@pytest.fixture(scope="module")
def other_arb():
    data, pub = gf.new_arbitrator_key("other pw", rng=crypto.KeystreamRng(b"other"), **FAST)
    return gf.open_arbitrator_key(data, "other pw"), pub


def make_bid(i, values=(0,) * 7, wars=None, game=GAME, email=None, name=None):
    return Bid.make(game, name or f"Player {i}", email or f"p{i}@example.org", dict(zip(POWERS, values)), wars, f"secret-{i}")


def seal(bid, pub, seed=b"x"):
    s = gf.write_bid(bid, pub, rng=crypto.KeystreamRng(seed + bid.email.encode()))
    return gf.bid_file_name(bid.name, bid.game), s.data


def seven_files(pub, rows=None):
    rows = rows or [(i,) * 7 for i in range(7)]
    return [seal(make_bid(i, r), pub) for i, r in enumerate(rows)]


# --- the arbitrator's key ----------------------------------------------------------------


def test_public_key_text_round_trips_and_checks_its_fingerprint(arb):
    me, pub, data = arb
    assert gf.ArbitratorKey.from_text(pub.to_text().encode()) == pub == gf.ArbitratorKey.of(me)
    bad = pub.to_text().replace(pub.short, "0" * 16).encode()
    with pytest.raises(BadFormat, match="fingerprint"):
        gf.ArbitratorKey.from_text(bad, "arb.pub")
    with pytest.raises(gf.WrongArbitrator, match="not the arbitrator's public key"):
        gf.ArbitratorKey.from_text(data, "arb.key")  # the private key file given by mistake
    with pytest.raises(WrongPassword, match="password"):
        gf.open_arbitrator_key(data, "wrong pw", "arb.key")


# --- bid files (10.2) ---------------------------------------------------------------------


def test_bid_file_shows_name_and_address_in_clear_and_hides_bids_and_password(arb):
    me, pub, _ = arb
    bid = make_bid(3, (1, 2, 3, 4, 5, 6, 30), wars={"FR": ["AU", "PR"]}, name="Jean-Luc O'Neil")
    name, data = seal(bid, pub)
    assert name == "Jean-Luc_ONeil_Austerlitz.bid"  # 000:272 YourName_GameName.bid
    h = envelope.parse(data).header
    assert (h.kind, h.author, (h.bidder.name, h.bidder.email), h.game) == ("bid", "bidder", ("Jean-Luc O'Neil", "p3@example.org"), GAME)
    assert [s.role for s in h.to] == ["arbitrator"] and h.arbfp == pub.fingerprint
    assert b"secret-3" not in data and b"PR" not in data.split(b"arbfp")[-1]
    opened = gf.open_bid(data, me, name)
    assert opened.bid == bid and opened.bid.password == "secret-3"
    assert opened.fingerprint == crypto.fingerprint(crypto.file_hash(envelope.parse(data)))


@given(
    values=st.lists(st.integers(0, 30), min_size=7, max_size=7),
    wars=st.dictionaries(st.sampled_from(POWERS), st.sets(st.sampled_from(POWERS), min_size=1), max_size=3),
    password=st.text(min_size=1, max_size=40),
)
@settings(max_examples=25, deadline=None)
def test_any_valid_bid_round_trips_through_its_file(arb, values, wars, password):
    me, pub, _ = arb
    wars = {a: sorted(t - {a}) for a, t in wars.items() if t - {a}}
    bid = Bid.make(GAME, "Any Player", "any@example.org", dict(zip(POWERS, values)), wars, password)
    assert gf.open_bid(gf.write_bid(bid, pub).data, me).bid == bid


def test_unknown_powers_are_refused_not_dropped():
    with pytest.raises(BadBid, match="unknown power 'XX'"):
        Bid.make(GAME, "A", "a@example.org", {"XX": 3}, None, "pw")
    with pytest.raises(BadBid, match="unknown power 'XX'"):
        Bid.make(GAME, "A", "a@example.org", {}, {"XX": ["FR"]}, "pw")


def test_every_byte_of_a_bid_is_covered(arb):
    """A changed or truncated bid is refused (000:272: the bid file is the player's sealed bid)."""
    me, pub, _ = arb
    _, data = seal(make_bid(1, (5,) * 7), pub)
    for pos in range(0, len(data), 7):
        changed = bytearray(data)
        changed[pos] ^= 0x20
        with pytest.raises(BadFile):
            gf.open_bid(bytes(changed), me, "p1.bid")
    for cut in (1, 64, len(data) // 2, len(data) - 11):
        with pytest.raises(BadFormat, match="truncated"):
            gf.open_bid(data[:cut] if cut > 20 else data[:-cut], me, "p1.bid")


def test_a_changed_clear_address_breaks_the_signature(arb):
    me, pub, _ = arb
    _, data = seal(make_bid(1), pub)
    forged = data.replace(b"p1@example.org", b"p9@example.org")
    with pytest.raises(BadSignature, match="changed after it was signed"):
        gf.open_bid(forged, me, "p1.bid")


def test_bids_over_30_or_negative_are_refused_on_writing_and_on_reading(arb):
    me, pub, _ = arb
    for bad in (31, -1):
        with pytest.raises(BadBid, match="from 0 to 30"):
            make_bid(0, (0, bad, 0, 0, 0, 0, 0))
    # A bid file made by another program with 31 inside (correctly sealed and signed) is refused too.
    body = make_bid(0, (0, 30, 0, 0, 0, 0, 0)).to_obj()
    body["bids"]["FR"] = 31
    signer = crypto.Ed25519PrivateKey.from_private_bytes(bytes(range(32)))
    forged = crypto.seal(kind="bid", game=GAME, gid=bytes(16), slot="bid", author="bidder", signer=signer,
                         to=[crypto.ToKey("arbitrator", pub.enc)], body=body, bidder=headers.Bidder("Player 0", "p0@example.org"),
                         bidkey=signer.public_key().public_bytes_raw(), arbfp=pub.fingerprint)
    with pytest.raises(BadBid, match="31; bids are whole numbers from 0 to 30"):
        gf.open_bid(forged.data, me, "p0.bid")


def test_a_bid_for_another_arbitrator_is_refused(arb, other_arb):
    me, _, _ = arb
    _, other_pub = other_arb
    _, data = seal(make_bid(1), other_pub)
    with pytest.raises(gf.WrongArbitrator, match=f"sealed for the arbitrator key {other_pub.short}, not for this one"):
        gf.open_bid(data, me, "p1.bid")


def test_the_header_schema_of_gap_kinds(arb):
    _, pub, _ = arb
    _, data = seal(make_bid(1), pub)
    obj = envelope.parse(data).header.to_obj()
    selection = {k: v for k, v in obj.items() if k not in ("bidder", "bidkey")} | {"kind": "selection", "slot": "selection"}
    for header, message in [
        ({**obj, "author": "FR"}, "the author bidder writes bid files, and only bid files"),
        ({**obj, "bidder": {"name": " x", "email": "p1@example.org"}}, "bidder.name"),
        ({**obj, "bidder": {"name": "x", "email": "no-at-sign"}}, "bidder.email"),
        ({**obj, "gid": b"\x01" * 16}, "all zero"),
        ({k: v for k, v in obj.items() if k != "bidkey"}, "missing key 'bidkey'"),
        ({**selection, "author": "host"}, "author of a selection file must be arbitrator"),
        ({**selection, "author": "arbitrator", "bidkey": bytes(32)}, "unknown key 'bidkey' in a selection file's header"),
        ({**obj, "to": obj["to"] + [{**obj["to"][0], "role": "host"}]}, "sealed for the arbitrator only"),
    ]:
        with pytest.raises(BadHeader, match=message):
            envelope.decode_header(canonical.encode(header), "x.bid")
    envelope.decode_header(canonical.encode({**selection, "author": "arbitrator"}))  # the valid selection header


# --- a set of seven bids ------------------------------------------------------------------


def test_exactly_seven_bid_files(arb):
    me, pub, _ = arb
    files = seven_files(pub)
    for n in (6, 8):
        chosen = files[:n] if n < 7 else files + [seal(make_bid(7), pub)]
        with pytest.raises(BadBid, match=f"exactly 7 bid files, one per player; {n} were given"):
            gf.open_bids(chosen, me)


def test_a_bid_for_another_game_is_named(arb):
    me, pub, _ = arb
    files = seven_files(pub)
    files[4] = seal(make_bid(4, game="Jena"), pub)
    with pytest.raises(WrongGame, match="Player_4_Jena.bid is a bid for game Jena, but the other bids are for Austerlitz"):
        gf.open_bids(files, me)
    with pytest.raises(WrongGame, match="you asked for game Borodino"):
        gf.open_bids(seven_files(pub), me, "Borodino")


def test_two_bid_files_from_one_address_are_refused(arb):
    me, pub, _ = arb
    files = seven_files(pub)
    files[6] = seal(make_bid(6, email="P2@Example.org", name="Impostor"), pub)
    with pytest.raises(BadBid, match="Player_2_Austerlitz.bid and Impostor_Austerlitz.bid both come from the address"):
        gf.open_bids(files, me)


CASES = [p for p in find_cases(ROOT / "tests" / "cases" / "gap") if not load_case(p).expect.get("refused")]


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_each_gap_case_through_seven_real_bid_files(arb, path):
    """The rules cases of tests/cases/gap give the same outcome from sealed bid files as from bare bids."""
    me, pub, _ = arb
    case = load_case(path)
    bids, gb_fr = _case_bids(case.input)
    opened = gf.open_bids([seal(b, pub) for b in bids], me)
    r = arbitrate([o.bid for o in opened], gb_fr_war=gb_fr)
    expected = run_case(case).result
    assert {a.power: a.email for a in r.awards} == expected["winners"]
    assert {a.power: a.cost for a in r.awards} == expected["costs"]
    assert r.seed.hex() == expected["seed"]


# --- the results text (10.4) ---------------------------------------------------------------


def _results(arb, rows=None, gb_fr=False):
    me, pub, _ = arb
    opened = gf.open_bids(seven_files(pub, rows), me)
    r = arbitrate([o.bid for o in opened], gb_fr_war=gb_fr)
    return r, render_results(r, {o.bid.email: o.fingerprint for o in opened}), opened


def test_results_text_verifies_and_holds_no_password(arb):
    rows = [(0, 10, 0, 0, 0, 0, 0)] * 3 + [(0,) * 7] * 4  # a three-way tie for France, 000:272
    r, text, opened = _results(arb, rows, gb_fr=True)
    checked = verify_results(text, "Austerlitz.txt")
    assert checked.result.awards == r.awards and checked.result.seed == r.seed
    assert "secret-" not in text
    assert f"  file {opened[0].fingerprint}" in text
    assert "Great Britain and France start at war: yes" in text


@pytest.mark.parametrize(
    "old, new",
    [
        ("  bids AU=0 FR=10 GB=0", "  bids AU=0 FR=11 GB=0"),  # a published bid changed: the seed no longer matches
        ("won by Player 0", "won by Player 1"),
        ("Tie-break seed (SHA-256 of the published bids): ", "Tie-break seed (SHA-256 of the published bids): 00"),
        ("  wars none", "  wars FR:AU"),
    ],
)
def test_an_altered_results_text_is_refused(arb, old, new):
    rows = [(0, 10, 0, 0, 0, 0, 0)] * 3 + [(0,) * 7] * 4
    _, text, _ = _results(arb, rows)
    assert old in text
    with pytest.raises(BadResults):
        verify_results(text.replace(old, new, 1), "Austerlitz.txt")


def test_the_arbitrator_signs_the_results_text(arb, other_arb):
    """The Britain-France option is not part of the draw, so only the signature shows it was not changed."""
    me, pub, _ = arb
    _, text, _ = _results(arb)
    signed = gf.sign_results(text, me)
    assert gf.check_results_signature(signed, pub, "Austerlitz.txt") == text
    assert verify_results(gf.split_results(signed)[0]).result.seed == verify_results(text).result.seed
    flipped = signed.replace("start at war: no", "start at war: yes")
    verify_results(gf.split_results(flipped)[0])  # still consistent: the option does not change the draw...
    with pytest.raises(BadSignature, match="changed after the arbitrator signed it"):
        gf.check_results_signature(flipped, pub, "Austerlitz.txt")  # ...but the signature catches it
    with pytest.raises(gf.WrongArbitrator, match="signed by the arbitrator key"):
        gf.check_results_signature(signed, other_arb[1], "Austerlitz.txt")
    assert gf.split_results(text) == (text, None, None)
    with pytest.raises(BadSignature, match="no arbitrator signature"):
        gf.check_results_signature(text, pub, "Austerlitz.txt")


# --- the selection file (10.3) and its import -------------------------------------------------


def _selection(arb, rows=None, gb_fr=False, wars=None):
    me, pub, _ = arb
    rows = rows or [(i,) * 7 for i in range(7)]
    files = [seal(make_bid(i, row, wars=(wars or {}).get(i)), pub) for i, row in enumerate(rows)]
    opened = gf.open_bids(files, me)
    r = arbitrate([o.bid for o in opened], gb_fr_war=gb_fr)
    return gf.write_selection(r, {o.bid.email: o.hash for o in opened}, me, rng=crypto.KeystreamRng(b"sel")).data


def test_read_selection_gives_each_power_its_player(arb, tmp_path):
    me, _, _ = arb
    # p6 bids highest everywhere: Britain, compared first (000:274); then p5 France, and so on.
    path = tmp_path / "Austerlitz.sel"
    path.write_bytes(_selection(arb, wars={6: {"GB": ["SP"]}, 5: {"FR": ["AU"], "GB": ["RU"]}}, gb_fr=True))
    sel = gf.read_selection(path, me, game=GAME)
    assert sel.game == GAME and sel.gb_fr_war
    gb = sel.power("GB")
    assert (gb.name, gb.email, gb.vp_bid, gb.wars, gb.password) == ("Player 6", "p6@example.org", 6, ("SP",), "secret-6")
    assert [(p.power, p.email) for p in sel.powers] == [
        ("AU", "p3@example.org"), ("FR", "p5@example.org"), ("GB", "p6@example.org"), ("PR", "p2@example.org"),
        ("RU", "p4@example.org"), ("SP", "p1@example.org"), ("TU", "p0@example.org"),
    ]
    assert sel.vp_bids == {"AU": 3, "FR": 5, "GB": 6, "PR": 2, "RU": 4, "SP": 1, "TU": 0}
    assert sel.wars == [("FR", "AU"), ("FR", "GB"), ("GB", "SP")]  # p5's GB:RU is not his power
    assert "secret" not in repr(sel)


def test_selection_feeds_the_first_state_and_the_bids_raise_victory_levels(arb, tmp_path):
    """12.1.1 (000:2050): the GAP bid is added to the power's victory level."""
    me, _, _ = arb
    path = tmp_path / "Austerlitz.sel"
    path.write_bytes(_selection(arb, rows=[(i, 2 * i, 3 * i, i, i, i, i) for i in range(7)], wars={6: {"GB": ["SP"]}}))
    sel = gf.read_selection(path, me)
    s = initial_state(world.load_scenario("classic-1805"), world.load_raw(),
                      options=Options(gb_and_fr_start_at_war=sel.gb_fr_war), vp_bids=sel.vp_bids, wars=sel.wars)
    assert s.powers["GB"].vp_bid == 18  # p6 bid 3 * 6 for Britain
    assert {p: s.powers[p].vp_bid for p in POWERS} == sel.vp_bids
    assert sum(s.powers[p].vp_bid for p in POWERS) > 0
    assert s.powers["SP"].wars["GB"].declared_by == ("GB",)
    plain = initial_state(world.load_scenario("classic-1805"), world.load_raw())
    assert all(plain.powers[p].vp_bid == 0 for p in POWERS)


def test_a_selection_of_another_game_or_altered_or_for_another_key_is_refused(arb, other_arb, tmp_path):
    me, _, _ = arb
    other, _ = other_arb
    data = _selection(arb)
    path = tmp_path / "Austerlitz.sel"
    path.write_bytes(data)
    with pytest.raises(WrongGame, match="Austerlitz.sel is the selection of game Austerlitz, not of game Jena"):
        gf.read_selection(path, me, game="Jena")
    with pytest.raises(gf.WrongArbitrator):
        gf.read_selection(path, other)
    for pos in (40, len(data) // 2, len(data) - 70, len(data) - 1):
        changed = bytearray(data)
        changed[pos] ^= 1
        path.write_bytes(bytes(changed))
        with pytest.raises(BadFile):
            gf.read_selection(path, me)
    path.write_bytes(data[:-5])
    with pytest.raises(BadFormat, match="truncated"):
        gf.read_selection(path, me)


def test_a_signed_selection_that_does_not_follow_from_its_bids_is_refused(arb):
    """Strict: the draw is re-run on reading; a recorded award that differs is refused."""
    me, pub, _ = arb
    opened = gf.open_bids(seven_files(pub), me)
    r = arbitrate([o.bid for o in opened])
    body = gf.selection_body(r, {o.bid.email: o.hash for o in opened})
    body["awards"]["GB"], body["awards"]["TU"] = body["awards"]["TU"], body["awards"]["GB"]
    key = gf.ArbitratorKey.of(me)
    forged = crypto.seal(kind="selection", game=GAME, gid=bytes(16), slot="selection", author="arbitrator",
                         signer=me.signer, to=[crypto.ToKey("arbitrator", key.enc)], body=body, arbfp=key.fingerprint)
    with pytest.raises(gf.BadSelection, match="records another draw"):
        gf.open_selection(forged.data, me, "Austerlitz.sel")
