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


def test_the_seeded_source_repeats_and_differs_by_seed_and_folder():
    a, b, c = SeededRng(1, "FR"), SeededRng(1, "FR"), SeededRng(2, "FR")
    assert a(48) == b(48) and len(a(5)) == 5
    assert SeededRng(1, "FR")(32) != c(32)
    assert SeededRng(1, "FR")(32) != SeededRng(1, "GB")(32)  # one stream per folder


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
    # the keys, hence every dice chain, come from the seed: the same for one seed, other for another
    secret = {c: c.session("RU").me.dice_secret for c in (one, two, other)}
    assert secret[one] == secret[two] != secret[other]
    # so do the game id and the gamestart file's bytes (its hash is the chain head the first dice hang on)
    assert one.session(HOST).contents.chain.head == two.session(HOST).contents.chain.head
    assert (tmp_path / "a" / HOST / "commout" / "Campaign_gamestart.pbm").read_bytes() == \
        (tmp_path / "b" / HOST / "commout" / "Campaign_gamestart.pbm").read_bytes()
    assert sorted(p.name for p in (tmp_path / "a").iterdir()) == sorted((HOST,) + POWERS)


@pytest.mark.slow
def test_a_seeded_year_by_files_is_equal_everywhere_and_repeats(tmp_path):
    """Issue 18's check: twelve months by files, every folder's hash equal after every slot; the same seed again.

    The second run is shorter (three months, in one process instead of two):
    two twelve-month runs do not fit the slow suite's budget.  Its hash after
    month 3 must be the first run's after month 3: the same seed gives the same
    state whatever the split of the folders between processes.
    """
    lines: list[str] = []
    c = Campaign(tmp_path / "one", 11, "classic-1805", "hard", lines.append, jobs=2)
    st = c.run(3)  # check_hashes after every slot: all eight folders equal, else IllegalAction
    assert str(st.date) == "1805-04" and c.figures.hashes_checked == c.figures.slots >= 60
    at_three = c.check_hashes()
    st = c.run(9)
    assert str(st.date) == "1806-01" and c.figures.hashes_checked == c.figures.slots + 1
    assert [m for m, _s, _n in c.figures.months] == [f"1805-{m:02d}" for m in range(1, 13)]
    assert all(n >= 7 for _m, _s, n in c.figures.months)  # at least each power's own file every month
    assert (tmp_path / "one" / "map-1806-01.svg").read_text().startswith("<")
    assert sum(1 for line in lines if line.startswith("[")) == 12
    table = power_table(st)
    assert len(table) == 1 + len(POWERS) and "provinces" in table[0]
    final = c.check_hashes()
    assert final != at_three
    again = Campaign(tmp_path / "two", 11, "classic-1805", "hard", lambda _l: None, jobs=1)
    again.run(3, check_every_slot=False, maps=False)
    assert again.check_hashes() == at_three
    # the second run's files are the first run's, byte for byte (the same seeded bytes in every folder)
    sent = sorted(p.name for p in (tmp_path / "two" / "FR" / "commout" / "sent").iterdir())
    assert sent and all((tmp_path / "one" / "FR" / "commout" / "sent" / n).read_bytes() ==
                        (tmp_path / "two" / "FR" / "commout" / "sent" / n).read_bytes() for n in sent)
