"""The measures of the computer's play: a campaign's figures (``campaign_measures``), the ladder in matched pairs
(``campaign_ladder``) and where its campaigns run (``campaign_cluster``: here, a process pool, a Dask cluster)."""

from __future__ import annotations

import pytest

from eiapbem.client import campaign_cluster, campaign_ladder as L
from eiapbem.client.campaign_measures import Chronicle, Figures, total_lines
from eiapbem.rules.model import POWERS

ONE_MONTH = [L.Job("seed 7: all ai-easy", 7, L.lineup(None, "ai-easy", "ai-easy"), 1),
             L.Job("seed 7: FR ai-hard among ai-easy", 7, L.lineup("FR", "ai-hard", "ai-easy"), 1)]


@pytest.fixture(scope="module")
def first_state():
    from eiapbem.client import duel
    from eiapbem.rules.model import PlayerKind

    return duel.start_state("classic-1805", {p: PlayerKind.AI_HARD for p in POWERS}, b"ladder")


def test_the_chronicle_counts_wars_alliances_subsidies_peaces_and_capitals_from_the_states(first_state):
    st = first_state
    c = Chronicle()
    c.observe(st)
    start = st.date
    at_war = st.with_war("FR", "AU", start, ("FR",)).with_alliance("GB", "RU", start)
    lent = at_war.with_power("GB", loans=at_war.powers["GB"].loans.set("RU", 20))
    c.observe(lent)
    c.observe(lent.with_power("GB", loans=lent.powers["GB"].loans.set("RU", 30)))  # ten more: a second subsidy
    taken = lent.replace(date=start.plus(1), slot=None).without_war("FR", "AU")
    from eiapbem.rules.model import CityControl

    c.observe(taken.replace(city_control=taken.city_control.set("vienna", CityControl(nation="FR", since=start))))
    f = c.figures([], 2)
    assert [(w.a, w.b, w.declared_by) for w in f.new_wars] == [("AU", "FR", ("FR",))]
    assert [(a, b) for _m, a, b in f.new_alliances] == [("GB", "RU")]
    assert [(s.giver, s.to, s.amount) for s in f.subsidies] == [("GB", "RU", 20), ("GB", "RU", 10)]
    assert [(p.a, p.b, p.kind) for p in f.peaces] == [("AU", "FR", "informal")]
    assert [(cap, owner, taker) for _m, cap, owner, taker in f.capitals] == [("vienna", "AU", "FR")]
    assert f.france_at_war_with_a_rival() and f.britain_with_a_continental_power()
    lines = f.lines()
    assert lines[0].startswith("wars declared between great powers: 1") and any("vienna (AU) by FR" in x for x in lines)
    assert total_lines([f, Figures(months=2)])[1].startswith("  wars declared between great powers: total 1, median 0.5")


def test_the_chronicle_reads_battles_foraging_and_moves_from_the_journal(first_state):
    from eiapbem.rules.model import LogEntry

    c = Chronicle()
    c.observe(first_state)
    slot = f"{first_state.date}/land/turn/FR"
    journal = [LogEntry(slot=slot, author="FR", kind="land.move", text="", params={"unit": "corps:FR:I"}),
               LogEntry(slot=slot, author="FR", kind="land.move", text="", params={"unit": "corps:FR:I"}),
               LogEntry(slot=slot, author="FR", kind="land.forage", text="", params={"unit": "corps:FR:I", "lost": 3}),
               LogEntry(slot=f"{first_state.date}/land/turn/SP", author="SP", kind="land.move", text="",
                        params={"unit": "corps:SP:guerrilla-madrid"})]
    f = c.figures(journal, 1)
    assert f.corps_moved["FR"] == 1 and f.months_moving["FR"] == 1 and f.months_moving["AU"] == 0  # once a month
    assert f.corps_moved["SP"] == 0 and f.months_moving["SP"] == 0  # guerrilla factors are not corps (13.2.1)
    assert f.forage_lost == {"FR": 3} and f.battles == [] and f.provinces == []


def test_never_declares_drops_the_declarations_of_its_powers_only(monkeypatch):
    from eiapbem.rules.diplomacy.orders import DeclareWar

    given = (DeclareWar(target="AU"), "another order")
    monkeypatch.setattr(L.ai, "orders", lambda state, power, ctx: given)
    c = L.NeverDeclares(["FR"])
    assert c.orders(None, "FR", None) == ("another order",)
    assert c.orders(None, "GB", None) == given


def test_the_plan_plays_each_line_up_once_and_the_pairs_are_matched():
    jobs = L.plan(["hard-medium", "hard-never-declares"], [1, 2], 48)
    # per seed: the baseline (all medium), each power hard among medium, each power never-declaring among medium
    assert len(jobs) == 2 * (1 + 7 + 7) and len({(j.seed, j.lineup) for j in jobs}) == len(jobs)
    assert all(j.months == 48 for j in jobs)

    def result(job: L.Job, earned: dict) -> L.Result:
        return L.Result(job, earned, earned, ("GB",), Figures(months=48))

    res = []
    for j in jobs:
        kinds = j.kinds()
        # hard earns 5, medium 3, never-declares 4 (seed 1) or 6 (seed 2)
        res.append(result(j, {p: {"ai-hard": 5, "ai-medium": 3, L.NEVER_DECLARES: 4 + 2 * (j.seed == 2)}[k]
                              for p, k in kinds.items()}))
    hm = L.pairs("hard-medium", res)
    assert len(hm) == 14 and all(p.points == 1.0 for p in hm)
    nd = L.pairs("hard-never-declares", res)
    assert sum(p.points for p in nd) == 7  # hard ahead on seed 1, behind on seed 2
    lo, hi = L.cluster_interval(nd, 1)
    assert lo == 0.0 and hi == 1.0  # two clusters, one all won, one all lost: the interval spans both
    assert L.cluster_interval(nd, 1) == (lo, hi)  # seeded: the same interval every time
    line = L.step_lines("hard-medium", res, 1)[0]
    assert "14 matched pairs over 2 seed(s): ai-hard ahead in 14" in line and "share 100%" in line


def test_a_campaign_of_the_ladder_repeats_its_figures():
    a, b = L.play_job(ONE_MONTH[1]), L.play_job(ONE_MONTH[1])
    assert a.earned == b.earned and a.winners == b.winners
    fa, fb = a.figures, b.figures
    fa.slowest = fb.slowest = (0.0, "")  # the CPU seconds are the only figure that is not the game's
    assert fa == fb and 0 <= sum(fa.corps_moved.values())


@pytest.mark.slow
def test_a_process_pool_gives_the_campaigns_the_same_figures():
    here = campaign_cluster.run(L.play_job, ONE_MONTH, jobs=1)
    pool = campaign_cluster.run(L.play_job, ONE_MONTH, jobs=2)
    assert [r.job for r in pool] == ONE_MONTH
    assert [(r.earned, r.winners, r.figures.new_wars) for r in pool] == [(r.earned, r.winners, r.figures.new_wars)
                                                                         for r in here]


@pytest.mark.slow
def test_a_dask_cluster_started_here_gives_the_same_figures():
    distributed = pytest.importorskip("distributed", reason="the extra eiapbem[cluster] (Dask distributed) is not "
                                                            "installed; .ci/run installs it")
    here = campaign_cluster.run(L.play_job, ONE_MONTH, jobs=1)
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster:
        on = campaign_cluster.run(L.play_job, ONE_MONTH, address=cluster.scheduler_address)
    assert [r.job for r in on] == ONE_MONTH
    assert [(r.earned, r.winners, r.figures.new_wars, r.figures.corps_moved) for r in on] == \
        [(r.earned, r.winners, r.figures.new_wars, r.figures.corps_moved) for r in here]


def test_no_scheduler_at_the_address_is_one_sentence():
    pytest.importorskip("distributed", reason="the extra eiapbem[cluster] (Dask distributed) is not installed")
    from eiapbem.core.errors import IllegalAction

    with pytest.raises(IllegalAction, match="no Dask scheduler answers at tcp://127.0.0.1:9"):
        campaign_cluster.run(L.play_job, ONE_MONTH[:1], address="tcp://127.0.0.1:9")


def test_the_campaigns_in_memory_load_the_computers_ai_setups_as_a_game_does(first_state, monkeypatch):
    """``duel.play`` sets each computer up as ``AutoPlay.ai_setup`` does in a game (14.5): one of the scenario's AI
    setups where it has some (France's in classic-1805), else the default setup, so the measures in memory open as
    ``eiapbem campaign`` does."""
    from eiapbem.client import autoplay, duel

    asked: list[str] = []
    real = autoplay.ai_setups

    def counting(scenario, power, *rest):
        asked.append(power)
        return real(scenario, power, *rest)

    monkeypatch.setattr(autoplay, "ai_setups", counting)
    set_up = duel.play(first_state, "classic-1805", b"ladder", 0).state
    assert sorted(asked) == sorted(POWERS)
    assert real("classic-1805", "FR") is not None and real("classic-1805", "AU") is None
    assert set_up.slot is not None and set_up.slot.phase.value != "setup"
