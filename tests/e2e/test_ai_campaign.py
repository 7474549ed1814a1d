"""A seeded 24-month campaign of seven computer players in memory (issue 19).

Issue 19's check itself, 24 months by files in eight folders with every folder's hash compared after every slot,
is ``tests/client/test_campaign.py`` (its run is shared with issue 18's year).  What this file adds: the powers here are
computer players in the state (``PlayerKind`` ai-*, with their 4.2.3 start bonuses, at three levels mixed), the
path of a game against the computer, ``admin ai-play`` and ``bench ai-strength`` (``client.duel.play``: every
client replays ``ai.play_slot`` and ``ai.settle``; another power's questions answered by standing orders), where
the campaign by files lends human clients' powers to the computer (``ai.plan`` and battle files).  It must have
no error, wars, land and naval battles, sieges and peace, and replay the same state hash after every slot.
When the computer's play changes and an event is missing, try other ``SEED`` values with ``duel.play`` (a 24-month
campaign in memory takes seconds of CPU) and take one that has them all.
"""

from __future__ import annotations

import pytest

from eiapbem.client import duel
from eiapbem.rules.model import PlayerKind

pytestmark = pytest.mark.slow

SEED = b"issue-19-e"
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
