"""``eiapbem campaign`` (issue 18): seven computer players by real files, reproducible by its seed.

The slow test plays one month of classic-1805 (30 slots, 42 files, ~40 s on a
quiet 2-core machine) twice: every folder's state hash equal after every slot,
and the same final hash from the same seed.  The issue asks for 12 months; at
today's ~40 s a month that does not fit the test's budget (not met yet).
"""

from __future__ import annotations

import pytest

from eiapbem.client.campaign import HOST, Campaign, SeededRng, power_table
from eiapbem.client.session import TEST_SCRYPT_ENV
from eiapbem.core.errors import IllegalAction
from eiapbem.rules.model import POWERS


@pytest.fixture(autouse=True)
def fast_keys(monkeypatch):
    monkeypatch.setenv(TEST_SCRYPT_ENV, "10,1,1")


def test_the_seeded_source_repeats_and_differs_by_seed():
    a, b, c = SeededRng(1), SeededRng(1), SeededRng(2)
    assert a(48) == b(48) and len(a(5)) == 5
    assert SeededRng(1)(32) != c(32)


def test_a_campaign_needs_an_empty_folder_and_a_known_level(tmp_path):
    (tmp_path / "x").write_text("")
    with pytest.raises(IllegalAction, match="not empty"):
        Campaign(tmp_path, 1, "classic-1805", "hard", lambda _l: None)
    with pytest.raises(IllegalAction, match="level"):
        Campaign(tmp_path / "new", 1, "classic-1805", "expert", lambda _l: None)


def test_the_same_seed_makes_the_same_first_state(tmp_path):
    one = Campaign(tmp_path / "a", 5, "classic-1805", "hard", lambda _l: None)
    two = Campaign(tmp_path / "b", 5, "classic-1805", "hard", lambda _l: None)
    other = Campaign(tmp_path / "c", 6, "classic-1805", "hard", lambda _l: None)
    assert one.check_hashes() == two.check_hashes()  # the first state holds no key material
    one.session("RU"), two.session("RU"), other.session("RU")
    # the keys, hence every dice chain, come from the seed: the same for one seed, other for another
    assert one.ids["RU"].dice_secret == two.ids["RU"].dice_secret != other.ids["RU"].dice_secret
    assert sorted(p.name for p in (tmp_path / "a").iterdir()) == sorted((HOST,) + POWERS)


@pytest.mark.slow
def test_a_seeded_month_by_files_is_equal_everywhere_and_repeats(tmp_path):
    lines: list[str] = []
    c = Campaign(tmp_path / "one", 11, "classic-1805", "hard", lines.append)
    st = c.run(1)  # check_hashes after every slot: all eight folders equal, else IllegalAction
    assert str(st.date) == "1805-02" and c.figures.hashes_checked == c.figures.slots >= 20
    assert c.figures.files >= 7 * 4  # setup, diplomacy (two rounds), reinforcement... each power's own files
    assert (tmp_path / "one" / "map-1805-02.svg").read_text().startswith("<")
    assert any(line.startswith("month 1805-01 done in") for line in lines)
    assert len(power_table(st)) == 1 + len(POWERS)
    final = c.check_hashes()
    again = Campaign(tmp_path / "two", 11, "classic-1805", "hard", lambda _l: None)
    again.run(1, check_every_slot=False, maps=False)
    assert again.check_hashes() == final
