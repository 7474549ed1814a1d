"""The sequence of play (5.0): slots of the setup phase and of each month."""

from __future__ import annotations

import pytest
from model_strategies import sample_state

from eiapbem.core.errors import BadData
from eiapbem.rules import sequence as seq
from eiapbem.rules.model import (
    POOL,
    POWERS,
    BuildOrder,
    Corps,
    CorpsType,
    Date,
    Factors,
    FrozenMap,
    GameState,
    InvalidValue,
    Leader,
    LeaderStatus,
    MoveOrder,
    Phase,
    SkipMode,
    Slot,
)
from eiapbem.rules.sequence import SequenceChoices


def at(state, date):
    """The state moved to the first slot of month ``date``."""
    return state.replace(date=date, slot=seq.month_slots(date)[0])


def powers_of(slots, phase):
    return [s.power for s in slots if s.phase is phase]


def test_setup_order_is_5_3():
    # 000:332: Russia, Turkey, Austria, Prussia, Spain, France, Great Britain.
    assert [s.power for s in seq.setup_slots()] == ["RU", "TU", "AU", "PR", "SP", "FR", "GB"]
    assert all(s.phase is Phase.SETUP for s in seq.setup_slots())


def test_diplomacy_is_one_simultaneous_slot_for_all_seven():
    # 6.0: simultaneous during PBEM games (000:532).
    slots = seq.month_slots(Date(1805, 4))
    first = slots[0]
    assert first.phase is Phase.DIPLOMACY and first.simultaneous
    assert first.power is None and first.actors == POWERS
    assert first.key(Date(1805, 4)) == "1805-04/diplomacy/orders/all"
    assert sum(1 for s in slots if s.phase is Phase.DIPLOMACY) == 1


def test_reinforcement_order_is_7_0():
    # 000:900: Spain, Great Britain, Prussia, Austria, Turkey, Russia, France (chart 003 differs; seeds README).
    assert powers_of(seq.month_slots(Date(1805, 4)), Phase.REINFORCEMENT) == ["SP", "GB", "PR", "AU", "TU", "RU", "FR"]


def test_naval_order_is_8_2():
    # 000:1052: Great Britain, Russia, Turkey, Austria, Prussia, France, Spain.
    assert powers_of(seq.month_slots(Date(1805, 4)), Phase.NAVAL) == ["GB", "RU", "TU", "AU", "PR", "FR", "SP"]


def test_land_order_is_10_1():
    # 10.1 (000:1296): France, Russia, Turkey, Austria, Prussia, Great Britain, Spain.
    # 000:1296: France, Russia, Turkey, Austria, Prussia, Great Britain, Spain.
    assert powers_of(seq.month_slots(Date(1805, 4)), Phase.LAND) == ["FR", "RU", "TU", "AU", "PR", "GB", "SP"]


def test_phases_come_in_the_order_of_5_0():
    slots = seq.month_slots(Date(1805, 6))
    phases = [s.phase for s in slots]
    firsts = sorted(set(phases), key=phases.index)
    assert firsts == [Phase.DIPLOMACY, Phase.REINFORCEMENT, Phase.NAVAL, Phase.LAND, Phase.ECONOMIC]
    assert phases == sorted(phases, key=firsts.index)  # no phase interleaves another


@pytest.mark.parametrize("month", range(1, 13))
def test_economic_phase_only_in_march_june_september_december(month):
    # 12.0: "occurs only at the end of the March, June, September and December months" (000:2028).
    slots = seq.month_slots(Date(1807, month))
    econ = [s for s in slots if s.phase is Phase.ECONOMIC]
    if month in (3, 6, 9, 12):
        assert len(econ) == 1 and econ[0] is slots[-1] and econ[0].actors == POWERS
    else:
        assert econ == []
    assert len(slots) == 1 + 7 + 7 + 7 + len(econ)


@pytest.mark.parametrize("pos", range(1, 8))
def test_great_britain_chooses_its_naval_position(pos):
    # 7.5: Great Britain may change the order it moves in the next naval phase (000:998).
    order = powers_of(seq.month_slots(Date(1805, 4), SequenceChoices(gb_naval_position=pos)), Phase.NAVAL)
    assert order.index("GB") == pos - 1
    assert [p for p in order if p != "GB"] == ["RU", "TU", "AU", "PR", "FR", "SP"]


@pytest.mark.parametrize("pos", range(1, 8))
def test_france_chooses_its_land_position(pos):
    # 10.1 (000:1296), 7.5: France may choose its place in the land phase.
    # 7.5: France may change the order it moves in the next land phase (000:998).
    order = powers_of(seq.month_slots(Date(1805, 4), SequenceChoices(fr_land_position=pos)), Phase.LAND)
    assert order.index("FR") == pos - 1
    assert [p for p in order if p != "FR"] == ["RU", "TU", "AU", "PR", "GB", "SP"]


def test_move_order_positions_do_not_touch_other_phases():
    c = SequenceChoices(gb_naval_position=7, fr_land_position=4)
    slots = seq.month_slots(Date(1805, 4), c)
    assert powers_of(slots, Phase.REINFORCEMENT) == list(seq.REINFORCEMENT_ORDER)
    with pytest.raises(InvalidValue):
        SequenceChoices(gb_naval_position=8)


def test_state_move_order_is_read_by_the_sequence():
    s = sample_state().replace(move_order=MoveOrder(gb_naval_position=3, fr_land_position=2))
    s = s.with_power("RU", skips=FrozenMap())
    slots = seq.month_slots(s.date, s)
    assert powers_of(slots, Phase.NAVAL)[2] == "GB"
    assert powers_of(slots, Phase.LAND)[1] == "FR"
    # A position counts among all seven powers; a skipped slot does not move it.
    skipping = s.with_power("RU", skips=FrozenMap({Phase.NAVAL: SkipMode.ONCE}))
    plan = [e.slot.power for e in seq.month_plan(s.date, seq.choices_from_state(skipping)) if e.slot.phase is Phase.NAVAL]
    assert plan[2] == "GB" and powers_of(seq.month_slots(s.date, skipping), Phase.NAVAL)[:2] == ["TU", "GB"]


def test_skipping_the_naval_phase_removes_that_slot():
    # 13.9: skip the diplomacy, reinforcement or naval phase (000:2734).
    c = SequenceChoices(skips=FrozenMap({"RU": (Phase.NAVAL,)}))
    naval = powers_of(seq.month_slots(Date(1805, 4), c), Phase.NAVAL)
    assert "RU" not in naval and len(naval) == 6


def test_skipping_diplomacy_leaves_the_power_out_of_the_simultaneous_slot():
    c = SequenceChoices(skips=FrozenMap({"TU": (Phase.DIPLOMACY,), "SP": (Phase.DIPLOMACY,)}))
    dip = seq.month_slots(Date(1805, 4), c)[0]
    assert dip.actors == ("AU", "FR", "GB", "PR", "RU")


def test_diplomacy_slot_remains_when_everyone_skips_it():
    c = SequenceChoices(skips=FrozenMap({p: (Phase.DIPLOMACY,) for p in POWERS}))
    dip = seq.month_slots(Date(1805, 4), c)[0]
    assert dip.phase is Phase.DIPLOMACY and dip.actors == ()


def test_land_and_economic_phases_cannot_be_skipped():
    # 13.9 names diplomacy, reinforcement and naval only (000:2734).
    with pytest.raises(InvalidValue):
        SequenceChoices(skips=FrozenMap({"FR": (Phase.LAND,)}))


def test_reinforcements_ready_cancel_the_reinforcement_skip():
    # 13.9.1: canceled for the reinforcement phase if reinforcements are ready (000:2738).
    skips = FrozenMap({"AU": (Phase.REINFORCEMENT,)})
    idle = seq.month_slots(Date(1805, 4), SequenceChoices(skips=skips))
    assert "AU" not in powers_of(idle, Phase.REINFORCEMENT)
    ready = seq.month_slots(Date(1805, 4), SequenceChoices(skips=skips, reinforcements_ready=("AU",)))
    assert "AU" in powers_of(ready, Phase.REINFORCEMENT)


def test_a_declaration_of_war_cancels_all_skips():
    # 13.9.1: any declaration of war issued against you cancels all skip settings (000:2738).
    skips = FrozenMap({"PR": (Phase.REINFORCEMENT, Phase.NAVAL)})
    c = SequenceChoices(skips=skips, war_declared_on=("PR",))
    slots = seq.month_slots(Date(1805, 4), c)
    assert "PR" in powers_of(slots, Phase.REINFORCEMENT) and "PR" in powers_of(slots, Phase.NAVAL)


def test_choices_from_state():
    s = sample_state()  # FR declared war on GB in 1805-01; RU skips naval
    c = seq.choices_from_state(s)
    assert c.war_declared_on == ("GB",)
    assert c.skips == {"RU": (Phase.NAVAL,)}
    assert c.reinforcements_ready == ()
    later = at(s, Date(1805, 2))
    assert seq.choices_from_state(later).war_declared_on == ()


def test_reinforcements_ready_from_builds_leaders_and_returned_factors():
    s = at(sample_state(), Date(1806, 3))
    order = BuildOrder(nation="FR", item="infantry", count=2, arrives=Date(1806, 3))
    assert seq.reinforcements_ready(s.with_power("FR", builds=FrozenMap({order.key: order})), "FR")
    late = order.replace(arrives=Date(1806, 4))
    assert not seq.reinforcements_ready(s.with_power("FR", builds=FrozenMap({late.key: late})), "FR")
    assert seq.reinforcements_ready(s.with_power("AU", returned_factors=Factors(infantry=3)), "AU")
    back = Leader(id="leader:AU:charles", power="AU", status=LeaderStatus.INACTIVE, returns=Date(1806, 3))
    assert seq.reinforcements_ready(s.with_leader(back), "AU")
    assert not seq.reinforcements_ready(s, "AU")


def test_the_skip_returns_once_the_declaration_is_known():
    # A declaration during diplomacy (6.2) puts the victim's skipped slots back
    # for the rest of the month: next_slot plans the month again.
    s = at(sample_state(), Date(1805, 3))
    s = s.with_power("RU", skips=FrozenMap({Phase.NAVAL: SkipMode.CONTINUOUS}))
    gb_naval = Slot(Phase.NAVAL, "turn", "GB", ("GB",))
    assert seq.next_slot_of(s.replace(slot=gb_naval)) == (Date(1805, 3), Slot(Phase.NAVAL, "turn", "TU", ("TU",)))
    s2 = s.without_alliance("AU", "RU").with_war("AU", "RU", Date(1805, 3), ("AU",)).replace(slot=gb_naval)
    assert seq.next_slot_of(s2) == (Date(1805, 3), Slot(Phase.NAVAL, "turn", "RU", ("RU",)))


def test_setup_leads_into_the_first_month():
    c = SequenceChoices()
    last_setup = seq.setup_slots()[-1]
    d, slot = seq.next_slot(Date(1805, 1), last_setup, c, end=Date(1815, 12))
    assert d == Date(1805, 1) and slot.phase is Phase.DIPLOMACY
    d, slot = seq.next_slot(Date(1805, 1), seq.setup_slots()[0], c, end=Date(1815, 12))
    assert slot.power == "TU"


def test_the_month_rolls_over_and_the_game_ends():
    c = SequenceChoices(gb_naval_position=5)
    last = seq.month_slots(Date(1805, 4), c)[-1]
    assert last.phase is Phase.LAND and last.power == "SP"
    d, slot = seq.next_slot(Date(1805, 4), last, c, end=Date(1815, 12))
    assert d == Date(1805, 5) and slot.phase is Phase.DIPLOMACY
    econ = seq.month_slots(Date(1815, 12))[-1]
    assert seq.next_slot(Date(1815, 12), econ, c, end=Date(1815, 12)) is None
    d, slot = seq.next_slot(Date(1805, 12), econ, c, end=Date(1815, 12))
    assert d == Date(1806, 1)


def test_a_whole_campaign_has_the_expected_number_of_slots():
    # 1805-1815 (003:78): 132 months of 22 slots, plus 44 economic slots, plus 7 setup slots.
    s = GameState.new("classic-1805", Date(1805, 1), Date(1815, 12))
    count, cur = 0, (s.date, s.slot)
    keys = set()
    while cur is not None:
        d, slot = cur
        keys.add(slot.key(d))
        count += 1
        cur = seq.next_slot(d, slot, SequenceChoices(), end=s.end)
    assert count == 7 + 132 * 22 + 44
    assert len(keys) == count  # every slot key is unique


def test_a_slot_not_in_the_month_is_refused():
    econ = Slot(Phase.ECONOMIC, "orders", None, POWERS)
    with pytest.raises(BadData, match="1805-04/economic/orders/all"):
        seq.next_slot(Date(1805, 4), econ, SequenceChoices(), end=Date(1815, 12))


def test_passed_skips_lists_the_once_settings_to_clear():
    c = SequenceChoices(skips=FrozenMap({"RU": (Phase.NAVAL,), "TU": (Phase.NAVAL, Phase.DIPLOMACY)}))
    gb = Slot(Phase.NAVAL, "turn", "GB", ("GB",))
    assert seq.passed_skips(Date(1805, 4), gb, c) == (("RU", Phase.NAVAL), ("TU", Phase.NAVAL))
    dip = seq.month_slots(Date(1805, 4), c)[0]
    assert seq.passed_skips(Date(1805, 4), dip, c) == (("TU", Phase.DIPLOMACY),)


def test_slot_shapes_are_checked():
    with pytest.raises(InvalidValue):
        Slot(Phase.NAVAL, "turn", "GB", ("GB", "FR"))
    with pytest.raises(InvalidValue):
        Slot(Phase.NAVAL, "orders", "GB", ("GB",))


def test_months_and_economic_months():
    ms = list(seq.months(Date(1805, 11), Date(1806, 2)))
    assert ms == [Date(1805, 11), Date(1805, 12), Date(1806, 1), Date(1806, 2)]
    assert [m for m in range(1, 13) if seq.is_economic_month(Date(1805, m))] == [3, 6, 9, 12]


def test_advance_clears_once_skips_and_resets_move_order():
    # 13.9: "skip just one phase OR skip continuously" (000:2734); 7.5 is for the next phase (000:998).
    s = at(sample_state(), Date(1805, 4)).replace(move_order=MoveOrder(gb_naval_position=2))
    s = s.with_power("RU", skips=FrozenMap({Phase.NAVAL: SkipMode.ONCE}))
    s = s.with_power("TU", skips=FrozenMap({Phase.NAVAL: SkipMode.CONTINUOUS}))
    seen = []
    while s.date == Date(1805, 4):
        seen.append(s.slot.key(s.date))
        s = seq.advance(s)
    assert "1805-04/naval/turn/RU" not in seen and "1805-04/naval/turn/TU" not in seen
    assert seen.index("1805-04/naval/turn/GB") == seen.index("1805-04/naval/turn/AU") - 1  # RU, TU skipped
    assert s.powers["RU"].skips == {} and s.powers["TU"].skips == {Phase.NAVAL: SkipMode.CONTINUOUS}
    assert s.move_order == MoveOrder()  # a new month: May 1805
    may = []
    while s.date == Date(1805, 5):
        may.append(s.slot.power)
        s = seq.advance(s)
    assert may.count("RU") == 3 and may.count("TU") == 2  # RU back in the naval phase; TU still skips it


def test_advance_ends_the_game_after_the_last_month():
    s = GameState.new("classic-1805", Date(1815, 12), Date(1815, 12))
    n = 0
    while s.slot is not None:
        s = seq.advance(s)
        n += 1
    assert n == 7 + 24  # setup, then one December with its economic phase and the sealed diplomacy's commit round
    assert seq.advance(s) is s


def test_a_sealed_diplomacy_phase_has_a_commit_round_first():
    # issue 16 item 3: every power first sends a commitment, then its orders; the once-skips are
    # used only when the orders round is over, so both rounds have the same actors.
    c = seq.SequenceChoices(sealed_diplomacy=True, skips=FrozenMap({"TU": (Phase.DIPLOMACY,)}))
    slots = seq.month_slots(Date(1805, 4), c)
    assert [s.key(Date(1805, 4)) for s in slots[:2]] == ["1805-04/diplomacy/commit/all", "1805-04/diplomacy/orders/all"]
    assert slots[0].actors == slots[1].actors == tuple(p for p in POWERS if p != "TU")
    assert seq.passed_skips(Date(1805, 4), slots[0], c) == ()
    assert seq.passed_skips(Date(1805, 4), slots[1], c) == (("TU", Phase.DIPLOMACY),)
    assert seq.next_slot(Date(1805, 4), slots[0], c, end=Date(1806, 1)) == (Date(1805, 4), slots[1])


def test_a_games_state_is_sealed_unless_one_round_is_chosen():
    from eiapbem.rules.model import GameState, Options

    st = GameState.new("classic-1805", Date(1805, 1), Date(1805, 12))
    assert seq.choices_from_state(st).sealed_diplomacy
    assert not seq.choices_from_state(st.replace(options=Options(one_round_diplomacy=True))).sealed_diplomacy


def test_a_granted_attack_or_defence_ends_with_the_month_and_granted_land_stays():
    # 6.16: an attack or defence is for this month's land phase; land waits for the next economic phase.
    s = at(GameState.new("classic-1805", Date(1805, 1), Date(1815, 12)), Date(1805, 4))
    au = s.powers["AU"]
    s = s.with_power("AU", military_requests=au.military_requests.set("munich", "attack"),
                     land_grants=au.land_grants.set("hanover", "GB"))
    last = s.replace(slot=seq.month_slots(Date(1805, 4), seq.choices_from_state(s))[-1])
    nxt = seq.advance(last)
    assert nxt.date == Date(1805, 5)
    assert dict(nxt.powers["AU"].military_requests) == {} and dict(nxt.powers["AU"].land_grants) == {"hanover": "GB"}
    same = seq.advance(s)  # within the month it stays
    assert dict(same.powers["AU"].military_requests) == {"munich": "attack"}


def test_a_bought_counter_waiting_to_be_placed_makes_reinforcements_ready():
    # 12.5.4 (000:2238): a counter bought in an economic phase is placed within the next quarter (7.2.1), so the
    # reinforcement phase is not skipped while it waits (13.9.1, 000:2738); a counter whose quarter is over does not count.
    s = at(sample_state(), Date(1805, 7))
    s = s.with_unit(Corps(id="corps:AU:II", nation="AU", corps_type=CorpsType.REGULAR, location=POOL))
    bought = s.with_unit(s.units["corps:AU:II"].replace(placeable_until=Date(1805, 9)))
    assert not seq.reinforcements_ready(s, "AU") and "AU" not in seq.choices_from_state(s).reinforcements_ready
    assert seq.reinforcements_ready(bought, "AU") and "AU" in seq.choices_from_state(bought).reinforcements_ready
    assert not seq.reinforcements_ready(at(bought, Date(1805, 10)), "AU")


def test_a_bought_counter_unplaced_after_its_months_lapses_with_a_log_line():
    # 12.5.4 (000:2238): unplaced by its month, the counter must be bought again; it went back silently.
    s = at(sample_state(), Date(1805, 9))
    s = s.with_unit(Corps(id="corps:AU:II", nation="AU", corps_type=CorpsType.REGULAR, location=POOL,
                          placeable_until=Date(1805, 9)))
    s = s.with_unit(Corps(id="corps:AU:III", nation="AU", corps_type=CorpsType.REGULAR, location=POOL,
                          placeable_until=Date(1805, 11)))
    last = s.replace(slot=seq.month_slots(Date(1805, 9), seq.choices_from_state(s))[-1])
    assert seq.advance(s).units["corps:AU:II"].placeable_until == Date(1805, 9)  # within the month: nothing
    nxt = seq.advance(last)
    assert nxt.date == Date(1805, 10)
    assert nxt.units["corps:AU:II"].placeable_until is None and nxt.units["corps:AU:III"].placeable_until == Date(1805, 11)
    (line,) = [e for e in nxt.log if e.kind == seq.COUNTER_LAPSED]
    assert line.params["unit"] == "corps:AU:II" and "not placed by 1805-09" in line.text and "(12.5.4)" in line.text
    assert line.slot == last.slot.key(Date(1805, 9))
