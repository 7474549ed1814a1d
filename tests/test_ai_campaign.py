"""A seeded 24-month campaign of seven computer players (issue 19, "How it will be checked").

In memory through the rules core (``client.duel.play``: the calls every client makes for a computer power, each
slot's dice from the seed): no error, and wars, land and naval battles, sieges and peace; the first six months played again give
the same state hash after every slot.  By files (``client.campaign.Campaign``, eight folders, every file sealed,
delivered and loaded everywhere, hashes compared after every slot) only the first month is played here: a month by
files takes ~40 s on a quiet 2-core machine, so 24 months (~16 min) do not fit a slow test's budget.
"""

from __future__ import annotations

import pytest

from eiapbem.client import duel
from eiapbem.client.campaign import Campaign
from eiapbem.client.session import TEST_SCRYPT_ENV
from eiapbem.rules.model import POWERS, PlayerKind

pytestmark = pytest.mark.slow

SEED = b"issue-19"
KINDS = {"AU": "ai-medium", "FR": "ai-hard", "GB": "ai-hard", "PR": "ai-easy", "RU": "ai-hard", "SP": "ai-easy",
         "TU": "ai-medium"}


@pytest.fixture(scope="module")
def campaign():
    start = duel.start_state("classic-1805", {p: PlayerKind(k) for p, k in KINDS.items()}, SEED)
    return start, duel.play(start, "classic-1805", SEED, 24, hashes=True)


def test_two_years_of_computer_play_make_war_naval_battles_and_peace(campaign):
    _, played = campaign
    assert str(played.state.date) == "1807-01" and played.state.slot is not None
    assert played.declarations >= 1, "no declaration of war in two years"
    assert played.counts["naval.combat"] >= 1, "no naval battle"
    assert played.peaces >= 1, "no peace"


def test_the_same_seed_replays_the_same_states(campaign):
    start, played = campaign
    again = duel.play(start, "classic-1805", SEED, 6, hashes=True)
    assert again.hashes == played.hashes[:len(again.hashes)] and len(again.hashes) > 100


def test_two_years_of_computer_play_have_land_battles_and_sieges(campaign):
    _, played = campaign
    assert played.counts["battle.start"] >= 1 and played.counts["siege.result"] >= 1


def test_the_first_month_by_files_declares_war_with_equal_hashes_everywhere(tmp_path, monkeypatch):
    monkeypatch.setenv(TEST_SCRYPT_ENV, "10,1,1")
    c = Campaign(tmp_path / "c", 19, "classic-1805", "hard", lambda _l: None)
    st = c.run(1, maps=False)  # every folder's hash compared after every slot (IllegalAction if one differs)
    assert str(st.date) == "1805-02" and c.figures.hashes_checked == c.figures.slots
    assert any(st.powers[p].wars for p in POWERS), "the computer declared no war in January 1805"
