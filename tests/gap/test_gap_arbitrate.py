"""GAP arbitration (4.2.10): award order, ties, caps and refusals."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from eiapbem.gap.arbitrate import AWARD_ORDER, POWERS, BadBid, Bid, arbitrate, pre_existing_wars, render_text, seed_of


def bid(n, values, wars=None, game="Austerlitz", password="pw"):
    return Bid.make(game, f"Player{n}", f"p{n}@example.org", dict(zip(POWERS, values)), wars, password)


def seven(rows):
    return [bid(i, r) for i, r in enumerate(rows)]


def test_highest_bidder_for_several_powers_takes_the_first_in_award_order():
    # p0 bids highest everywhere: it wins Great Britain (compared first, 4.2.10) and the rest go on.
    rows = [[30, 30, 30, 30, 30, 30, 30]] + [[i, i, i, i, i, i, i] for i in range(1, 7)]
    r = arbitrate(seven(rows))
    assert r.award("GB").email == "p0@example.org" and r.award("GB").cost == 30
    # Then France goes to the highest remaining (p6 with 6), Russia to p5, and so on down.
    assert [r.award(p).email for p in AWARD_ORDER[1:]] == [f"p{i}@example.org" for i in (6, 5, 4, 3, 2, 1)]
    assert [r.award(p).cost for p in AWARD_ORDER[1:]] == [6, 5, 4, 3, 2, 1]


def test_three_way_tie_is_broken_by_a_drawn_order_that_anyone_can_recheck():
    rows = [[0, 10, 0, 0, 0, 0, 0]] * 3 + [[0, 0, 0, 0, 0, 0, 0]] * 4
    bids = seven(rows)
    r = arbitrate(bids)
    fr = r.award("FR")
    assert fr.cost == 10
    assert sorted(fr.tied) == ["p0@example.org", "p1@example.org", "p2@example.org"]
    assert fr.email == fr.tied[0]
    # The same bids in another order, with other passwords, give the same seed and result.
    again = arbitrate(list(reversed([bid(i, row, password="other") for i, row in enumerate(rows)])))
    assert again.seed == r.seed and again.awards == r.awards


def test_all_zero_bids_give_every_player_one_power_at_no_cost():
    r = arbitrate(seven([[0] * 7] * 7))
    assert sorted(a.email for a in r.awards) == sorted(f"p{i}@example.org" for i in range(7))
    assert all(a.cost == 0 for a in r.awards)
    assert len(r.award("GB").tied) == 7 and len(r.award("TU").tied) == 0  # last power: one player left


def test_cap_of_30():
    assert bid(0, [30] * 7).bid_for("GB") == 30
    with pytest.raises(BadBid, match="from 0 to 30"):
        bid(0, [31, 0, 0, 0, 0, 0, 0])
    with pytest.raises(BadBid, match="from 0 to 30"):
        bid(0, [0, -1, 0, 0, 0, 0, 0])


@pytest.mark.parametrize("count", [6, 8])
def test_exactly_seven_bids(count):
    bids = [bid(i, [0] * 7) for i in range(count)]
    with pytest.raises(BadBid, match="exactly 7 bids"):
        arbitrate(bids)


def test_same_address_twice_is_refused():
    bids = seven([[0] * 7] * 7)
    bids[6] = Bid.make("Austerlitz", "Impostor", "P0@example.org", {}, None, "x")
    with pytest.raises(BadBid, match="same address"):
        arbitrate(bids)


def test_bids_of_another_game_are_refused():
    bids = seven([[0] * 7] * 7)
    bids[3] = bid(3, [0] * 7, game="Jena")
    with pytest.raises(BadBid, match="different games"):
        arbitrate(bids)


def test_wars_and_the_gb_fr_option():
    bids = seven([[0] * 7] * 7)
    bids[0] = bid(0, [0, 0, 30, 0, 0, 0, 0], wars={"GB": ["SP"], "FR": ["AU"]})  # p0 wins GB
    r = arbitrate(bids, gb_fr_war=True)
    assert r.award("GB").wars == ("SP",)
    assert ("GB", "SP") in pre_existing_wars(r) and ("FR", "GB") in pre_existing_wars(r)
    assert ("FR", "AU") not in pre_existing_wars(r)  # p0 did not win France
    with pytest.raises(BadBid, match="cannot declare war"):
        bid(1, [0] * 7, wars={"GB": ["GB"]})


def test_results_text_shows_winner_cost_and_aggressors_vertically():
    bids = seven([[i] * 7 for i in range(7)])
    text = render_text(arbitrate(bids))
    assert "Great Britain  won by Player6 <p6@example.org> for 6 victory points" in text
    assert "rows: the aggressor" in text
    assert "pw" not in text.split("Tie-break")[1]  # no password in the results


bid_values = st.lists(st.lists(st.integers(0, 30), min_size=7, max_size=7), min_size=7, max_size=7)


@given(bid_values)
@settings(max_examples=150)
def test_every_player_gets_one_power_at_the_top_remaining_bid(rows):
    r = arbitrate(seven(rows))
    assert sorted(a.email for a in r.awards) == sorted(f"p{i}@example.org" for i in range(7))
    free = {f"p{i}@example.org": dict(zip(POWERS, row)) for i, row in enumerate(rows)}
    for a in r.awards:
        assert a.cost == max(b[a.power] for b in free.values()) == free[a.email][a.power]
        del free[a.email]


def test_seed_ignores_passwords_but_not_bids():
    a = seven([[1] * 7] * 7)
    b = [bid(i, [1] * 7, password="zzz") for i in range(7)]
    c = seven([[1] * 7] * 6 + [[2] * 7])
    assert seed_of(a) == seed_of(b) != seed_of(c)
