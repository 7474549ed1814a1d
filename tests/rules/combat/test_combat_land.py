"""Unit tests of eiapbem.rules.combat (section 11) beyond the manual's worked examples."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from eiapbem.core.errors import BadData, IllegalAction
from eiapbem.rulecases.harness import Case, run_case
from eiapbem.rules.combat import commander, morale, pursuit, siege, tables_use
from eiapbem.rules.tables import land


def test_base_morale_rounds_to_the_nearest_hundredth():
    """11.2.5 (000:1696): 193/51 = 3.784 -> 3.78; halves go up (docs/decisions.md)."""
    assert morale.base_morale([(21, 300), (20, 400), (10, 500)]) == 378
    assert morale.base_morale([(1, 300), (1, 301)]) == 301  # 300.5
    assert morale.base_morale([(2, 300), (1, 301)]) == 300  # 300.33
    assert morale.base_morale([(1, 300), (2, 301)]) == 301  # 300.67
    with pytest.raises(IllegalAction, match="without army factors"):
        morale.base_morale([(0, 300)])


@given(st.lists(st.tuples(st.integers(0, 60), st.sampled_from([100, 150, 200, 250, 300, 350, 400, 450, 500])),
                min_size=1, max_size=6).filter(lambda g: sum(f for f, _ in g) > 0))
def test_base_morale_is_the_mean_within_half_a_hundredth(groups):
    total = sum(f for f, _ in groups)
    weighted = sum(f * m for f, m in groups)
    b = morale.base_morale(groups)
    assert -total <= 2 * (b * total - weighted) <= total
    present = [m for f, m in groups if f]
    assert min(present) <= b <= max(present)


def test_final_morale_and_breaking():
    """11.2.5 (000:1702): -0.5 per day after the first; 11.2.10 (000:1810): break at loss >= final."""
    assert [morale.final_morale(378, d) for d in (1, 2, 3)] == [378, 328, 278]
    assert morale.final_morale(320, 2, modifier=100) == 370
    assert morale.breaks(270, 270) and not morale.breaks(260, 270)
    with pytest.raises(IllegalAction):
        morale.final_morale(320, 0)


def test_chart_morale_notes_b_and_g():
    """Notes (B) and (G) (000:3037, 000:3047)."""
    b = land.operational_possibility("assault", "counter-attack")
    g = land.operational_possibility("probe", "defend")
    assert morale.chart_morale_modifier(b, "attacker", "TU") == 100
    assert morale.chart_morale_modifier(b, "defender", "TU") == 100
    assert morale.chart_morale_modifier(b, "defender", "RU") == 0
    assert morale.chart_morale_modifier(g, "defender", "RU") == 100
    assert morale.chart_morale_modifier(g, "attacker", "RU") == 0


def test_tactical_maximum():
    """13.8.7 (000:2704-2718): one point per multiple exceeded, at most 6, never below 0."""
    assert [commander.effective_tactical_rating(5, 6, n) for n in (1, 6, 7, 12, 13, 18, 19)] == [5, 5, 4, 4, 3, 3, 2]
    assert commander.effective_tactical_rating(5, 1, 100) == 0
    assert commander.effective_tactical_rating(9, 1, 100) == 3  # reduction capped at -6
    with pytest.raises(IllegalAction):
        commander.effective_tactical_rating(3, 0, 2)


def test_note_f_ignores_the_commander_chart():
    f = land.operational_possibility("assault", "defend")
    assert commander.random_number_modifiers(5, 0, f) == (0, 0)
    assert commander.random_number_modifiers(5, 0, land.operational_possibility("probe", "defend")) == (1, -1)


def test_round_tables_river_terrain_and_days():
    # river sections on the first day only (000:1714)
    assert tables_use.round_tables("assault", "cordon", 2, river_crossing=True) == (
        land.CombatTable(4, 2), land.CombatTable(3, 1))
    assert tables_use.round_tables("assault", "cordon", 2, river_crossing=True, day=2) == (
        land.CombatTable(4, 3), land.CombatTable(2, 1))
    # mountain: the attacker's casualty level only (000:1726)
    assert tables_use.round_tables("assault", "cordon", 1, terrain="mountain") == (
        land.CombatTable(3, 1), land.CombatTable(2, 1))
    assert tables_use.round_tables("probe", "defend", 3, terrain="marsh", defender_guard_shift=2) == (
        land.CombatTable(2, 4), land.CombatTable(1, 4))  # 3-3 and 2-1 (000:3029), marsh, guard +2


def test_outflank_arrival():
    """11.2.12 and note (I) (000:1898-1904, 000:3051)."""
    assert tables_use.outflank_arrival_rating(3, after_round=1) == 3
    assert tables_use.outflank_arrival_rating(3, after_round=2) == 5
    assert tables_use.outflank_arrival_rating(3, after_round=1, terrain="forest") == 2
    assert tables_use.outflank_arrival_rating(3, after_round=2, terrain="marsh") == 4
    assert tables_use.outflank_arrives(2, 2, after_round=1) and not tables_use.outflank_arrives(3, 2, after_round=1)
    with pytest.raises(IllegalAction):
        tables_use.outflank_arrival_rating(3, after_round=3)
    assert tables_use.loss_basis_factors(16, 10, True) == 36
    assert tables_use.loss_basis_factors(16, 10, False) == 16


def test_pursuit_column_and_random_number():
    assert pursuit.pursuit_column(500, 1, loser_withdrew_unbroken=True) == 1  # 000:1826 exception
    assert pursuit.pursuit_column(500, 1, loser_withdrew_unbroken=True, terrain="forest") is None
    assert pursuit.pursuit_column(400, 2) is None
    assert pursuit.pursuit_random_number(6, True) == 7


def _case(procedure, inp, dice=None, expect=None):
    return Case("t", "t", "0", "t", "000:1", procedure, inp, dice or {}, expect or {})


def test_pursuit_losses_procedure_uses_the_labelled_die():
    res = run_case(_case("pursuit.losses", {"victor_morale_loss": 260, "rounds": 2, "cavalry_leader": True},
                         {"pursuit/random-number": 6}, {"column": 3, "random_number": 7, "loss_percent": 60}))
    assert res.passed, res.problems
    res = run_case(_case("pursuit.losses", {"victor_morale_loss": 260, "rounds": 2},
                         {}, {"loss_percent": 0}))
    assert not res.passed and "pursuit/random-number" in res.problems[0]


def test_siege_assault_attempt():
    assert siege.assault_attempt(1, 3, 20, 20) == (-2, "sortie?")
    assert siege.assault_attempt(5, 1, 10, 15) == (4, "breach")
    assert siege.assault_attempt(5, 1, 9, 15) == (5, "breach")
    assert siege.assault_attempt(3, 0, 10, 15) == (3, "nr")


def test_case_inputs_are_checked():
    with pytest.raises(BadData, match="lacks 'days'"):
        run_case(_case("morale.final", {"base_morale": 320}))
    with pytest.raises(BadData, match="must be a whole number"):
        run_case(_case("morale.final", {"base_morale": "3.2", "days": [1]}))


def test_cli_reports_a_bad_case_input_without_traceback(run_cli, tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text(
        'id = "bad"\nsection = "11.2.5"\ntitle = "t"\nsource = "000:1702"\nprocedure = "morale.final"\n'
        '[input]\nbase_morale = 320\n[expect]\nfinal_morale = [320]\n',
        encoding="utf-8",
    )
    code, out, err = run_cli("rules", "test", str(bad))
    assert code != 0
    # issue 15 item 7: a case that cannot run is one failed case, the others go on
    assert "FAIL  bad" in out and "the case could not run: the case input lacks 'days'" in out
    assert "rules cases: 0 passed, 1 failed" in out
    assert "Traceback" not in err


def test_ottoman_empire_corps_have_the_chart_note_c_morale_better_under_turkey():
    # 12.8.3 (000:2336), minor country chart note (c) (000:428): a part of the Ottoman Empire has infantry 1.0 and
    # cavalry 2.0; with Turkey controlling the Empire, 2.0 and 3.0.  Egypt alone keeps its own chart values.
    from eiapbem.core.dice import Dice
    from eiapbem.data.context import rules_context
    from eiapbem.rules.combat.battle import morale_value
    from eiapbem.rules.model import FactorType, MinorStatus
    from eiapbem.rules.scenario import initial_state

    c = rules_context(Dice(b"ottoman"))
    st = initial_state(c.world["scenarios/classic-1805.json"], c.world)
    own = (morale_value(st, c.world, "corps:egypt:1", FactorType.INFANTRY),
           morale_value(st, c.world, "corps:egypt:1", FactorType.CAVALRY))
    for holder, expected in (("FR", (100, 200)), ("TU", (200, 300))):
        egypt = st.minors["egypt"].replace(status=MinorStatus.FREE_STATE, controller=holder, kingdom="ottoman-empire")
        part = st.with_minor("egypt", egypt)
        assert (morale_value(part, c.world, "corps:egypt:1", FactorType.INFANTRY),
                morale_value(part, c.world, "corps:egypt:1", FactorType.CAVALRY)) == expected
    assert own != (200, 300)
