"""Field and trivial combat as a decision-driven battle (11.2, 11.3, 11.5, 13.8).

Whole-battle worked examples are rules cases (tests/cases/battle/); these tests
check the questions asked, the automatic answers and the aftermath rules.
"""

from __future__ import annotations

import json

import pytest
from battlekit import answer, corps, ctx, land_state, leader, pending_of, play

from eiapbem.core.errors import IllegalAction
from eiapbem.rules import engine
from eiapbem.rules.combat.field import BattleRefused, start_field_battle
from eiapbem.rules.combat.tables_use import percent_of
from eiapbem.rules.combat.report import report_records, report_text
from eiapbem.rules.model import (
    Date,
    Depot,
    Factors,
    Garrison,
    LeaderStatus,
    Location,
    LocationKind,
    MinorCountry,
    MinorStatus,
    POOL,
    garrison_id,
)

BID = "battle:1805-09:ulm:0"


def _day1(what: str) -> str:
    return f"battle/{BID}/day1/{what}"


def _two_on_one(**options):
    s = land_state(**options)
    s = corps(s, "corps:FR:I", "ulm", infantry=10, cavalry=2)
    s = corps(s, "corps:FR:II", "ulm", infantry=10)
    s = corps(s, "corps:AU:I", "ulm", infantry=12, cavalry=2)
    return s


def _start(s, att, dfn, c=None, **kw):
    c = c or ctx()
    return start_field_battle(s, "ulm", att, dfn, c, **kw).state, c


def _decision(s, kind, role=None):
    found = [d for d in pending_of(s, BID) if d.kind == kind and (role is None or d.context["role"] == role)]
    assert found, f"no pending {kind} for {role}: {[d.kind for d in pending_of(s, BID)]}"
    return found[0]


# ---------------------------------------------------------------- chits (11.2.1)


def test_outflank_needs_two_non_artillery_corps_000_1622():
    s = _two_on_one()
    s = corps(s, "corps:AU:art", "ulm", artillery=3)
    s, _ = _start(s, ["corps:FR:I", "corps:FR:II"], ["corps:AU:I", "corps:AU:art"])
    assert "outflank" in _decision(s, "battle.chit", "attacker").options
    # one corps and an artillery corps: no outflank for the defender
    assert "outflank" not in _decision(s, "battle.chit", "defender").options
    assert _decision(s, "battle.chit", "defender").power == "AU"


def test_a_depot_garrison_and_one_corps_may_outflank_000_1622():
    s = _two_on_one()
    g = Garrison(id=garrison_id("AU", Location(LocationKind.AREA, "ulm")), nation="AU",
                 location=Location(LocationKind.AREA, "ulm"), factors=Factors(infantry=2))
    s = s.with_unit(g)
    s, _ = _start(s, ["corps:FR:I", "corps:FR:II"], ["corps:AU:I", g.id])
    assert "outflank" in _decision(s, "battle.chit", "defender").options


def test_a_controlled_minors_corps_alone_takes_its_standing_order_chit_000_1648():
    s = _two_on_one()
    s = s.with_minor("bavaria", MinorCountry(status=MinorStatus.ALLIED, controller="AU"))
    s = corps(s, "corps:bavaria:1", "ulm", infantry=6)
    so = s.powers["AU"].standing_orders
    s = s.with_power("AU", standing_orders=so.replace(battle_chits=so.battle_chits.set("corps:bavaria:1", "cordon")))
    s, _ = _start(s, ["corps:FR:I", "corps:FR:II"], ["corps:bavaria:1"])
    assert [d.context["role"] for d in pending_of(s, BID)] == ["attacker"]
    assert s.battles[BID].defender.chit == "cordon"
    assert s.battles[BID].defender.power == "AU"


def test_a_standing_outflank_with_one_corps_is_replaced_by_a_random_chit_000_1650():
    s = _two_on_one()
    s = s.with_minor("bavaria", MinorCountry(status=MinorStatus.ALLIED, controller="AU"))
    s = corps(s, "corps:bavaria:1", "ulm", infantry=6)
    so = s.powers["AU"].standing_orders
    s = s.with_power("AU", standing_orders=so.replace(battle_chits=so.battle_chits.set("corps:bavaria:1", "outflank")))
    c = ctx(forced={_day1("chit/defender"): 4})
    s, _ = _start(s, ["corps:FR:I", "corps:FR:II"], ["corps:bavaria:1"], c)
    # without outflank the options are counter-attack, escalated-counter-attack, cordon, withdrawal, defend
    assert s.battles[BID].defender.chit == "withdrawal"


def test_pbem_quick_combat_draws_the_defenders_chit_4_1_1():
    s = _two_on_one(pbem_quick_combat=True)
    c = ctx(forced={_day1("chit/defender"): 1})
    s, _ = _start(s, ["corps:FR:I", "corps:FR:II"], ["corps:AU:I"], c)
    assert s.battles[BID].defender.chit == "counter-attack"  # outflank not allowed with one corps
    assert [d.kind for d in pending_of(s, BID)] == ["battle.chit"]


def test_a_neutral_minors_force_answers_everything_itself():
    s = land_state()
    s = corps(s, "corps:FR:I", "ulm", infantry=10)
    s = s.with_minor("bavaria", MinorCountry(status=MinorStatus.NEUTRAL))
    s = corps(s, "corps:bavaria:1", "ulm", infantry=6)
    s, c = _start(s, ["corps:FR:I"], ["corps:bavaria:1"])
    assert s.battles[BID].defender.power is None
    s = play(s, BID, c)
    assert s.battles[BID].finished
    assert all(d.power == "FR" for d in s.pending.values()) or not s.pending


def test_a_chit_answer_outside_the_options_is_refused():
    s, c = _start(_two_on_one(), ["corps:FR:I", "corps:FR:II"], ["corps:AU:I"])
    d = _decision(s, "battle.chit", "defender")
    with pytest.raises(IllegalAction):
        engine.apply_action(s, "AU", engine.AnswerDecision(decision=d.id, choice="outflank"), c)
    with pytest.raises(IllegalAction):
        engine.apply_action(s, "FR", engine.AnswerDecision(decision=d.id, choice="cordon"), c)


def test_refusals_name_the_unit():
    s = _two_on_one()
    s = corps(s, "corps:AU:II", "munich", infantry=3)
    with pytest.raises(BattleRefused, match="corps:AU:II"):
        _start(s, ["corps:FR:I"], ["corps:AU:II"])
    with pytest.raises(BattleRefused, match="both sides"):
        _start(s, ["corps:FR:I"], ["corps:FR:I"])


# ---------------------------------------------------------------- outflanking (11.2.2, 11.2.12)


def test_the_outflank_split_keeps_a_pinning_corps_and_adds_cossacks_000_1658():
    s = land_state()
    s = s.with_war("RU", "FR", Date(1805, 9), ("RU",))
    s = corps(s, "corps:RU:I", "ulm", infantry=10)
    s = corps(s, "corps:RU:II", "ulm", infantry=10)
    s = corps(s, "corps:RU:cossack", "ulm", cossack=2, corps_type="cossack")
    s = corps(s, "corps:FR:I", "ulm", infantry=15)
    s, c = _start(s, ["corps:RU:I", "corps:RU:II", "corps:RU:cossack"], ["corps:FR:I"], attacker_power="RU")
    s = answer(s, _decision(s, "battle.chit", "attacker"), "outflank", c)
    s = answer(s, _decision(s, "battle.chit", "defender"), "defend", c)
    d = _decision(s, "battle.outflank")
    assert d.options == ("add:corps:RU:I", "add:corps:RU:II")  # not done before a corps is in it
    assert s.battles[BID].attacker.outflanking == ("corps:RU:cossack",)
    s = answer(s, d, "add:corps:RU:II", c)
    assert _decision(s, "battle.outflank").options == ("done",)  # RU:I must stay to pin


def test_note_d_the_defender_withdraws_if_the_outflankers_are_late_000_3041():
    s = _two_on_one()
    c = ctx(forced={_day1("withdrawal"): 6, _day1("round1/attacker"): 1, _day1("round1/defender"): 1,
                    _day1("round1/outflank/attacker"): 6})
    s, _ = _start(s, ["corps:FR:I", "corps:FR:II"], ["corps:AU:I"], c)
    s = answer(s, _decision(s, "battle.chit", "attacker"), "outflank", c)
    s = answer(s, _decision(s, "battle.chit", "defender"), "withdrawal", c)
    s = answer(s, _decision(s, "battle.outflank"), "add:corps:FR:II", c)
    s = answer(s, _decision(s, "battle.outflank"), "done", c)
    s = play(s, BID, c)
    b = s.battles[BID]
    assert b.finished and b.winner == "none" and b.rounds_fought == 1
    assert not any(e.kind == "battle.pursuit" for e in b.events)
    assert s.units["corps:AU:I"].location.site != "ulm"


# ---------------------------------------------------------------- withdrawal (11.2.4)


def test_withdrawal_against_probe_is_automatic_and_unpursued_000_1680():
    s, c = _start(_two_on_one(), ["corps:FR:I", "corps:FR:II"], ["corps:AU:I"])
    s = answer(s, _decision(s, "battle.chit", "attacker"), "probe", c)
    s = answer(s, _decision(s, "battle.chit", "defender"), "withdrawal", c)
    b = s.battles[BID]
    assert b.finished and b.rounds_fought == 0 and b.winner == "none"
    assert s.units["corps:AU:I"].location.site == "ansbach"
    assert s.powers["FR"].political_status == 0


def test_a_cavalry_corps_withdraws_on_its_rating_plus_one_000_1688():
    s = _two_on_one()
    s = corps(s, "corps:AU:cav", "ulm", cavalry=4)
    c = ctx(forced={_day1("withdrawal"): 2})
    s, _ = _start(s, ["corps:FR:I", "corps:FR:II"], ["corps:AU:cav"], c)
    s = answer(s, _decision(s, "battle.chit", "attacker"), "assault", c)
    s = answer(s, _decision(s, "battle.chit", "defender"), "withdrawal", c)
    ev = [e for e in s.battles[BID].events if e.kind == "battle.withdrawal"][0]
    assert ev.params["rating"] == 2 and ev.params["success"] is True  # Austria's intrinsic 1, +1 all cavalry


# ---------------------------------------------------------------- guard and artillery (11.2.8)


def test_guard_commitment_is_offered_to_the_attacker_and_costs_guard_factors_000_1744():
    s = land_state(guard_commitment=True)
    s = corps(s, "corps:FR:G", "ulm", infantry=8, guard=3)
    s = corps(s, "corps:AU:I", "ulm", infantry=12)
    c = ctx(forced={_day1("round1/guard/attacker"): 6})
    s, _ = _start(s, ["corps:FR:G"], ["corps:AU:I"], c)
    s = answer(s, _decision(s, "battle.chit", "attacker"), "assault", c)
    s = answer(s, _decision(s, "battle.chit", "defender"), "cordon", c)
    d = _decision(s, "battle.guard")
    assert d.options == ("none", "+1", "+2")
    s = answer(s, d, "+2", c)
    b = s.battles[BID]
    ev = [e for e in b.events if e.kind == "battle.guard"][0]
    assert ev.params["lost"] == 3 and ev.params["broke"] is True  # 6 on the +2 column: 4 lost, only 3 there
    assert s.units["corps:FR:G"].factors.guard == 0
    # the attacker broke without fighting that round; the defender still fought
    rounds = [e for e in b.events if e.kind == "battle.round" and e.round == 1]
    assert [e.params["role"] for e in rounds if "table" in e.params] == ["defender"]
    assert b.winner == "defender" and b.attacker.broken


def test_artillery_bombards_on_5_5_but_not_in_marsh_000_1760():
    def run(area):
        s = land_state()
        s = corps(s, "corps:FR:art", area, artillery=10)
        s = corps(s, "corps:FR:I", area, infantry=10)
        s = corps(s, "corps:AU:I", area, infantry=20)
        c = ctx()
        s = start_field_battle(s, area, ["corps:FR:art", "corps:FR:I"], ["corps:AU:I"], c).state
        bid = next(iter(s.battles))
        s = play(s, bid, c)
        return [e for e in s.battles[bid].events if e.kind == "battle.bombard"]

    bombard = run("ulm")
    assert bombard and all(e.params["artillery"] <= 10 for e in bombard)
    assert run("oldenburg") == []  # marsh


# ---------------------------------------------------------------- casualties (11.2.9)


def test_militia_are_spared_from_a_morale_loss_of_2_and_the_breaking_round_takes_cavalry_000_1790():
    from eiapbem.rules.combat import casualties

    s = land_state()
    s = corps(s, "corps:FR:I", "ulm", infantry=10)
    s = corps(s, "corps:AU:I", "ulm", infantry=3, militia=5, cavalry=1)
    s, c = _start(s, ["corps:FR:I"], ["corps:AU:I"])
    b = s.battles[BID]
    side = b.defender.replace(pending_loss=2, loss_mode="combat", morale_loss=150, final_morale=300)
    assert set(casualties.loss_options(s, b, side)) == {"corps:AU:I/infantry", "corps:AU:I/militia", "corps:AU:I/cavalry"}
    side = side.replace(morale_loss=200)
    assert "corps:AU:I/militia" not in casualties.loss_options(s, b, side)
    side = side.replace(cavalry_due=True)
    assert casualties.loss_options(s, b, side) == ("corps:AU:I/cavalry",)
    # pursuit: 1 cavalry = 3 non-militia = 6 militia (000:1838)
    side = side.replace(loss_mode="pursuit", pending_loss=6)
    s2, side2 = casualties.take_loss(s, b, side, "corps:AU:I/militia")
    assert side2.pending_loss == 5
    s2, side2 = casualties.take_loss(s2, b, side2, "corps:AU:I/infantry")
    assert side2.pending_loss == 3


def test_percentage_losses_round_to_the_nearest_factor():
    assert [percent_of(5, 10), percent_of(5, 9), percent_of(20, 31), percent_of(20, 36), percent_of(15, 6)] == [1, 0, 6, 7, 1]


# ---------------------------------------------------------------- reinforcement (11.2.11)


def _until_reinforcing(s, c):
    """Two French corps probe Austria's one in Ulm, which defends; play on until a side is asked to reinforce."""
    s, _ = _start(s, ["corps:FR:I", "corps:FR:II"], ["corps:AU:I"], c)
    s = answer(s, _decision(s, "battle.chit", "attacker"), "probe", c)
    s = answer(s, _decision(s, "battle.chit", "defender"), "defend", c)
    while not any(d.kind == "battle.reinforce" for d in pending_of(s, BID)):
        d = sorted(pending_of(s, BID), key=lambda d: d.id)[0]
        s = answer(s, d, d.options[0], c)
    return s


def test_reinforcements_from_an_adjacent_area_join_the_battle_000_1878():
    s = _two_on_one()
    s = corps(s, "corps:AU:II", "augsburg", infantry=8)
    c = ctx(forced={_day1("round1/reinforce/defender/augsburg/corps:AU:II"): 1})
    s = _until_reinforcing(s, c)
    d = _decision(s, "battle.reinforce", "defender")
    assert d.options == ("area:augsburg", "none")
    s = answer(s, d, "area:augsburg", c)
    assert s.units["corps:AU:II"].location.site == "ulm"
    assert "corps:AU:II" in s.battles[BID].defender.units


def _with_neighbours(ru_at_war: bool):
    """Ulm's fight with Russia allied to Austria: a Russian corps in Ansbach and a lone Cossack in Stuttgart."""
    s = _two_on_one().with_alliance("AU", "RU", Date(1805, 1))
    if ru_at_war:
        s = s.with_war("FR", "RU", Date(1805, 9), ("FR",))
    s = corps(s, "corps:RU:I", "ansbach", infantry=8)
    return corps(s, "corps:AU:Cossack", "stuttgart", cavalry=1, corps_type="cossack")


def test_only_allies_at_war_with_the_enemy_and_able_to_succeed_may_reinforce_000_1868():
    # 11.2.11 (000:1868-1882): an ally at peace with the attacker is no candidate; nor is a force whose strategic
    # rating is 0 (a lone Cossack, 13.8.5: intrinsic 0), which could never pass; no die is rolled for either.
    s = corps(_with_neighbours(ru_at_war=False), "corps:AU:II", "augsburg", infantry=8)
    s = _until_reinforcing(s, ctx())
    assert _decision(s, "battle.reinforce", "defender").options == ("area:augsburg", "none")
    s = _until_reinforcing(_with_neighbours(ru_at_war=True), ctx())
    assert _decision(s, "battle.reinforce", "defender").options == ("area:ansbach", "none")


def test_a_reinforcing_leader_of_higher_seniority_takes_command_000_2696():
    s = _two_on_one()
    s = corps(s, "corps:AU:II", "augsburg", infantry=8)
    s = leader(s, "leader:AU:charles", "corps:AU:II")
    c = ctx(forced={_day1("round1/reinforce/defender/augsburg"): 1})
    s = _until_reinforcing(s, c)
    s = answer(s, _decision(s, "battle.reinforce", "defender"), "area:augsburg", c)
    assert s.battles[BID].defender.commander == "leader:AU:charles"


# ---------------------------------------------------------------- commanders (13.8.6)


def test_tied_leaders_of_one_power_are_the_owners_choice_000_2692():
    s = _two_on_one()
    s = leader(s, "leader:FR:davout", "corps:FR:I")
    s = leader(s, "leader:FR:lannes", "corps:FR:II")
    c = ctx()
    data = {r["id"]: r for r in c.world["leaders.json"]["leaders"]}
    if data["davout"]["seniority"] != data["lannes"]["seniority"]:
        pytest.skip("the data gives these leaders different seniority")
    s, _ = _start(s, ["corps:FR:I", "corps:FR:II"], ["corps:AU:I"], c)
    d = _decision(s, "battle.commander", "attacker")
    assert set(d.options) == {"leader:FR:davout", "leader:FR:lannes"}
    s = answer(s, d, "leader:FR:lannes", c)
    assert s.battles[BID].attacker.commander == "leader:FR:lannes"


# ---------------------------------------------------------------- end of the battle


def test_a_boxed_in_loser_surrenders_and_its_leader_is_captured_000_1852():
    s = land_state()
    s = corps(s, "corps:FR:I", "messina", infantry=30)
    s = leader(s, "leader:FR:napoleon", "corps:FR:I")
    s = corps(s, "corps:FR:II", "palermo", infantry=3)
    s = corps(s, "corps:AU:I", "messina", militia=10)
    s = leader(s, "leader:AU:mack", "corps:AU:I")
    # mountain: 5-1 becomes 4-1; 6 + 1 (Napoleon 5 against Mack 2) = 7: 15% of 30 = 5 factors, 2.4 morale
    c = ctx(forced={"battle/battle:1805-09:messina:0/day1/round1/attacker": 6,
                    "battle/battle:1805-09:messina:0/day1/round1/defender": 1})
    s = start_field_battle(s, "messina", ["corps:FR:I"], ["corps:AU:I"], c).state
    bid = "battle:1805-09:messina:0"
    s = play(s, bid, c, lambda st, d: {"battle.chit": "escalated-assault" if d.context["role"] == "attacker" else "cordon"}.get(d.kind, d.options[0]))
    b = s.battles[bid]
    assert b.winner == "attacker"
    # the only way out, Palermo, holds a French corps and leads nowhere else
    assert s.leaders["leader:AU:mack"].status is LeaderStatus.CAPTURED
    assert s.units["corps:AU:I"].factors.total == 0
    surrendered = sum(e.params["factors"] for e in b.events if e.kind == "battle.surrender")
    assert surrendered == 5 and s.prisoners["FR:AU"].factors.militia == 5


def test_an_enemy_depot_in_a_won_area_is_destroyed_000_1930():
    # 11.2.14 (000:1930): an enemy depot in an area left to the victor's forces is destroyed.
    s = _two_on_one()
    s = s.with_unit(Depot(id="depot:AU:1", power="AU", location=Location(LocationKind.AREA, "ulm")))
    c = ctx()
    s, _ = _start(s, ["corps:FR:I", "corps:FR:II"], ["corps:AU:I"], c)
    s = answer(s, _decision(s, "battle.chit", "attacker"), "probe", c)
    s = answer(s, _decision(s, "battle.chit", "defender"), "withdrawal", c)
    assert s.units["depot:AU:1"].location == POOL
    # the retreat went toward the depot's area first: it was in ulm itself, so any neighbour is 1 away
    assert s.units["corps:AU:I"].location.site in ("ansbach", "augsburg", "stuttgart", "swabia")


def test_leader_casualties_optional_rule_13_8_4():
    # 13.8.4 (000:2654): the optional leader casualties after a combat.
    s = _two_on_one(leader_casualties=True)
    s = leader(s, "leader:AU:mack", "corps:AU:I")
    c = ctx(forced={f"battle/{BID}/leader-casualty/defender": 6, f"battle/{BID}/leader-casualty/defender/severity": 3})
    s, _ = _start(s, ["corps:FR:I", "corps:FR:II"], ["corps:AU:I"], c)
    s = answer(s, _decision(s, "battle.chit", "attacker"), "probe", c)
    s = answer(s, _decision(s, "battle.chit", "defender"), "withdrawal", c)
    mack = s.leaders["leader:AU:mack"]
    # wounded for 3 complete months after September 1805: back in January 1806
    assert mack.status is LeaderStatus.INACTIVE and mack.returns == Date(1806, 1)


def test_political_points_count_big_corps_twice_and_cap_at_three_000_1818():
    s = land_state()
    s = corps(s, "corps:FR:I", "ulm", infantry=40, cavalry=10)
    s = corps(s, "corps:FR:II", "ulm", infantry=30)
    s = corps(s, "corps:AU:I", "ulm", militia=21)
    s = corps(s, "corps:AU:II", "ulm", militia=2)
    c = ctx(forced={_day1("round1/attacker"): 6, _day1("round1/defender"): 1})
    s, _ = _start(s, ["corps:FR:I", "corps:FR:II"], ["corps:AU:I", "corps:AU:II"], c)
    s = play(s, BID, c, lambda st, d: {"battle.chit": "escalated-assault" if d.context["role"] == "attacker" else "cordon",
                                       "battle.pursue": "no-pursuit"}.get(d.kind, d.options[0]))
    pp = [e for e in s.battles[BID].events if e.kind == "battle.political-points"][0]
    assert pp.params["corps"] == 3 and pp.params["gain"] == 2  # 21 factors counts as two corps: 3 halves -> 2
    assert s.powers["FR"].political_status == 2 and s.powers["AU"].political_status == -2


# ---------------------------------------------------------------- report


def test_the_report_has_every_round_as_text_and_json():
    s, c = _start(_two_on_one(), ["corps:FR:I", "corps:FR:II"], ["corps:AU:I"])
    s = play(s, BID, c)
    b = s.battles[BID]
    rec = report_records(b)
    json.dumps(rec)
    assert rec["finished"] and rec["sides"]["attacker"]["units"] == ["corps:FR:I", "corps:FR:II"]
    text = report_text(b)
    assert "round 1" in text and "table" in text and "Result:" in text
    assert text.count("\n") >= len([e for e in b.events if e.kind != "battle.loss"])


def test_a_pinning_force_gone_before_arrival_breaks_the_whole_side_000_1812():
    s = land_state()
    s = corps(s, "corps:FR:I", "ulm", infantry=1)
    s = leader(s, "leader:FR:napoleon", "corps:FR:I")
    s = corps(s, "corps:FR:II", "ulm", infantry=10)
    s = corps(s, "corps:AU:I", "ulm", infantry=20)
    c = ctx(forced={_day1("round1/attacker"): 1, _day1("round1/defender"): 5})  # 5 - 1 = 4 on 2-3: 10% of 20 = 2
    s, _ = _start(s, ["corps:FR:I", "corps:FR:II"], ["corps:AU:I"], c)
    s = answer(s, _decision(s, "battle.chit", "attacker"), "outflank", c)
    s = answer(s, _decision(s, "battle.chit", "defender"), "counter-attack", c)
    s = answer(s, _decision(s, "battle.outflank"), "add:corps:FR:II", c)
    s = answer(s, _decision(s, "battle.outflank"), "done", c)
    s = play(s, BID, c)
    b = s.battles[BID]
    assert b.winner == "defender" and b.attacker.broken and b.rounds_fought == 1
    assert not any(e.kind == "battle.arrival" for e in b.events)  # decided before the arrival check
    # one loss wiped out the pinning corps, the other fell on the outflankers (000:1816)
    assert s.units["corps:FR:II"].factors.infantry == 9
    assert s.units["corps:FR:I"].location == POOL  # emptied corps removed (11.5)
    napoleon = s.leaders["leader:FR:napoleon"]
    assert napoleon.status is LeaderStatus.ON_MAP and napoleon.attached_to == "corps:FR:II"
    assert s.units["corps:FR:II"].location.site == "stuttgart"
    assert s.powers["FR"].political_status == -3  # 1 for two corps, 2 more for a beaten Napoleon


def test_corps_that_already_fought_this_month_do_not_reinforce_000_1872():
    s = _two_on_one()
    s = corps(s, "corps:AU:II", "augsburg", infantry=8)
    s = corps(s, "corps:FR:IX", "augsburg", infantry=2)
    c = ctx()
    s = start_field_battle(s, "augsburg", ["corps:FR:IX"], ["corps:AU:II"], c).state
    s = play(s, "battle:1805-09:augsburg:0", c)
    assert s.units["corps:AU:II"].location.site == "augsburg"  # it won or held there
    s, _ = _start(s, ["corps:FR:I", "corps:FR:II"], ["corps:AU:I"], c)
    s = play(s, BID, c)
    assert not any(e.kind == "battle.reinforce" for e in s.battles[BID].events)
    assert s.battles[BID].defender.units == ("corps:AU:I",)


def test_a_lone_depot_garrison_fights_a_trivial_combat_and_surrenders_when_broken_000_1942():
    s = land_state()
    s = corps(s, "corps:FR:I", "ulm", infantry=5)
    where = Location(LocationKind.AREA, "ulm")
    g = Garrison(id=garrison_id("AU", where), nation="AU", location=where, factors=Factors(infantry=3))
    s = s.with_unit(g).with_unit(Depot(id="depot:AU:1", power="AU", location=where))
    c = ctx(forced={_day1("round1/attacker"): 6, _day1("round1/defender"): 1,
                    _day1("round2/attacker"): 3, _day1("round2/defender"): 1})
    s, _ = _start(s, ["corps:FR:I"], [g.id], c)
    assert not pending_of(s, BID)  # no chits in trivial combat, one choice for every loss
    b = s.battles[BID]
    assert b.kind == "trivial" and b.winner == "attacker" and b.rounds_fought == 2
    # no corps: intrinsic ratings 0 (13.8.5); 6 on 5-2 = 20% of 5 = 1; 3 on 5-2 = 10% of 5 = 0.5 -> 1; 2.8 + 1.4 >= 3.0
    assert [e.params["losses"] for e in b.events if e.kind == "battle.round" and e.params.get("role") == "attacker"] == [1, 1]
    assert s.prisoners["FR:AU"].factors.infantry == 1
    assert g.id not in s.units  # the emptied garrison is gone
    assert s.units["depot:AU:1"].location == POOL
    assert s.powers["FR"].political_status == 0  # no political points in trivial combat (000:1944)


def test_a_side_of_artillery_only_breaks_after_the_round_000_1764():
    s = land_state()
    s = corps(s, "corps:FR:art", "ulm", artillery=5)
    s = corps(s, "corps:AU:I", "ulm", infantry=10)
    c = ctx(forced={_day1("round1/bombard/attacker"): 1, _day1("round1/attacker"): 1, _day1("round1/defender"): 1})
    s, _ = _start(s, ["corps:FR:art"], ["corps:AU:I"], c)
    s = play(s, BID, c, lambda st, d: {"battle.chit": "probe" if d.context["role"] == "attacker" else "defend"}.get(d.kind, d.options[0]))
    b = s.battles[BID]
    assert b.rounds_fought == 1 and b.attacker.broken and b.winner == "defender"
    # the bombardment (5-5 at 1: 10% of 5 = 0.5 -> 1, no morale) was taken before the round was fought
    bombard = [e for e in b.events if e.kind == "battle.bombard"][0]
    assert bombard.params["percent"] == 10 and bombard.params["losses"] == 1
    assert [e.kind for e in b.events if e.round == 1][:3] == ["battle.bombard", "battle.loss", "battle.round"]
    assert b.defender.morale_loss == [e for e in b.events if e.kind == "battle.round" and e.params["role"] == "attacker"][0].params["morale_loss"]


def test_note_c_an_austrian_commander_adds_one_capped_at_plus_one_000_3039():
    s = land_state()
    s = corps(s, "corps:AU:I", "ulm", infantry=10, cavalry=4)
    s = corps(s, "corps:FR:I", "ulm", infantry=10)
    c = ctx(forced={_day1("round1/attacker"): 1, _day1("round1/defender"): 1})
    s, _ = _start(s, ["corps:AU:I"], ["corps:FR:I"], c, attacker_power="AU")
    s = answer(s, _decision(s, "battle.chit", "attacker"), "echelon", c)
    s = answer(s, _decision(s, "battle.chit", "defender"), "cordon", c)
    r1 = [e for e in s.battles[BID].events if e.kind == "battle.round" and e.params["role"] == "attacker"][0]
    # commander chart 1 vs 2: -1; cavalry superiority +1; note C +1: net +1 (000:1772)
    assert "note C" in r1.text and r1.params["modifier"] == 1 and r1.params["random_number"] == 2


def test_a_besieger_joining_a_battle_leaves_its_siege_and_says_so():
    # A corps besieging Augsburg's city joins the battle next door: it besieges nothing in Ulm, and the battle's
    # events say the siege of Augsburg was left (before, a later line said it "no longer besieges" Ulm's city).
    s = _two_on_one()
    s = s.with_unit(corps(s, "corps:AU:II", "augsburg", infantry=8).units["corps:AU:II"].replace(besieging=True))
    c = ctx(forced={_day1("round1/reinforce/defender/augsburg/corps:AU:II"): 1})
    s = _until_reinforcing(s, c)
    s = answer(s, _decision(s, "battle.reinforce", "defender"), "area:augsburg", c)
    assert s.units["corps:AU:II"].location.site == "ulm" and not s.units["corps:AU:II"].besieging
    assert any(e.kind == "battle.siege-left" and "leaves its siege of the city of augsburg" in e.text
               for e in s.battles[BID].events)
