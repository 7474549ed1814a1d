"""Sieges as a state machine (11.4, 000:1946-2020): garrison attacks, refusals,
reports, properties and suspend/resume."""

from __future__ import annotations

import functools
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from battlekit import answer_every
from eiapbem.data.context import rules_context
from eiapbem.core.errors import IllegalAction
from eiapbem.rules import relations
from eiapbem.rules.combat.retreat import retreat_path
from eiapbem.rules.combat.sieges import report_record, report_text, start_garrison_attack, start_siege_assault
from eiapbem.core.dice import Dice
from eiapbem.rules.model.common import Phase
from eiapbem.rules.model.units import POOL, Leader, LeaderStatus, Location, LocationKind
from eiapbem.rulecases.scene import scene_state

SID = "1806-05.lille.1"


def scene(corps, garrisons, phasing="AU", wars=(("AU", "FR"),)):
    return scene_state(
        {"date": "1806-05", "phasing": phasing, "wars": [list(w) for w in wars], "corps": corps, "garrisons": garrisons},
        phase=Phase.LAND,
    )


def ctx(forced=None, seed=b"siege-test"):
    return rules_context(Dice(seed, forced=forced or {}))


answer = functools.partial(answer_every, seed=b"siege-test")  # battlekit.answer_every: every pending decision


AU_CORPS = [{"id": "corps:AU:I", "location": "area:lille", "infantry": 10, "besieging": True}]


def test_no_result_changes_nothing():
    # 11.4.1 (000:1970): NR, nothing happens.  3 - 3 + 1 (undergarrisoned) = 1? no: 5 - 3 = 2 -> NR.
    s = scene(AU_CORPS, [{"nation": "FR", "city": "lille", "infantry": 15}])
    out = start_siege_assault(s, "lille", "AU", ctx({f"siege/{SID}/attempt": 5}))
    sg = out.state.sieges[SID]
    assert (sg.result, sg.outcome, sg.step) == ("nr", "nothing", "done") and not out.state.pending
    assert out.state.units == s.units


def test_declining_a_sortie_changes_nothing():
    s = scene(AU_CORPS, [{"nation": "FR", "city": "lille", "infantry": 15}])
    c = ctx({f"siege/{SID}/attempt": 2})
    st_, asked = answer(start_siege_assault(s, "lille", "AU", c).state, c, lambda d: "stay")
    assert asked == [f"siege:{SID}:sortie"] and st_.units == s.units
    assert f"siege/{SID}/sortie" not in c.dice.record


def test_sortie_on_5_or_6_costs_the_defender_a_factor():
    # 11.4.1 (000:1968): 5 or 6, the defender loses one army factor.
    s = scene(AU_CORPS, [{"nation": "FR", "city": "lille", "infantry": 15}])
    c = ctx({f"siege/{SID}/attempt": 1, f"siege/{SID}/sortie": 5})
    st_, _ = answer(start_siege_assault(s, "lille", "AU", c).state, c, lambda d: "sortie")
    assert st_.units["garrison:FR:city:lille"].factors.infantry == 14
    assert st_.units["corps:AU:I"].factors.infantry == 10


def test_a_sortie_that_costs_the_last_factor_of_the_garrison_gives_up_the_city():
    # 11.4.1 (000:1968): a garrison of one factor sorties and loses it: no one is left inside, and the city is the
    # besieger's (an emptied garrison kept on the map shut the city to entry and to assault for good)
    s = scene(AU_CORPS, [{"nation": "FR", "city": "lille", "infantry": 1}])
    c = ctx({f"siege/{SID}/attempt": 1, f"siege/{SID}/sortie": 6})
    st_, _ = answer(start_siege_assault(s, "lille", "AU", c).state, c, lambda d: "sortie")
    assert "garrison:FR:city:lille" not in st_.units
    assert st_.city_control["lille"].nation == "AU" and not st_.units["corps:AU:I"].besieging
    assert st_.units["corps:AU:I"].factors.infantry == 10
    assert st_.powers["AU"].political_status == 0  # no combat: no political point (11.4.1)
    assert any("no one is left" in line for line in st_.sieges[SID].report)


def test_failed_assault_gives_the_fortress_defender_a_point():
    # 11.4.1 (000:1988, 000:1994): not won in three rounds, the siege goes on; defender +1 (fortress).
    s = scene([{"id": "corps:AU:I", "location": "area:lille", "infantry": 20, "besieging": True}],
              [{"nation": "FR", "city": "lille", "infantry": 9}])
    forced = {f"siege/{SID}/attempt": 6}  # 6 - 3 + 1 (9 of 15) = 4: breach
    for r in (1, 2, 3):
        forced[f"siege/{SID}/round{r}/besieger"] = 1
        forced[f"siege/{SID}/round{r}/defender"] = 1
    c = ctx(forced)
    st_, _ = answer(start_siege_assault(s, "lille", "AU", c).state, c, lambda d: "fight" if d.kind == "siege.surrender" else d.options[0])
    sg = st_.sieges[SID]
    # besieger 1 on 5-1: 5% of 20 = 1 a round, morale 0.3; defender 1 on 5-2: 10% of 9 = 0.9 -> 1, morale 0.8
    # (losses round to the nearest factor, halves up, as in field combat)
    assert (len(sg.rounds), sg.outcome) == (3, "resumed")
    assert st_.units["garrison:FR:city:lille"].factors.infantry == 6
    assert st_.powers["FR"].political_status == 1 and st_.powers["AU"].political_status == 0
    assert "lille" not in st_.city_control
    # the log's result line says what the storm cost each side and where its report is
    besiegers, defenders = (sum(r.losses[side] for r in sg.rounds) for side in ("besieger", "defender"))
    assert st_.log[-1].text.startswith(f"Assault attempt {SID} on lille by AU: die 6")  # how it began,
    assert "The assault fails; the siege goes on" in st_.log[-1].text  # how it ended
    assert (f"In 3 rounds of the assault at lille the besiegers lost {besiegers} factors and the defenders {defenders} "
            f"('eiapbem battle report {SID}').") in st_.log[-1].text


def test_garrison_attack_breaks_the_besiegers_who_retreat():
    # 11.4.2 (000:2008, 000:2016): garrison on 5-1, besiegers on 5-2; the besiegers broken retreat "in accordance
    # with the retreat after combat rules" (11.2.10: the program's, toward their depot or capital), no pursuit, no PP;
    # then the besieged corps may move out of the city, the holder's choice.
    s = scene([{"id": "corps:AU:I", "location": "area:lille", "militia": 4, "besieging": True},
               {"id": "corps:FR:I", "location": "city:lille", "infantry": 2}],
              [{"nation": "FR", "city": "lille", "infantry": 12}], phasing="FR")
    forced = {f"siege/{SID}/round1/besieger": 1, f"siege/{SID}/round1/defender": 6}
    c = ctx(forced)
    out = start_garrison_attack(s, "lille", c)
    sg = out.state.sieges[SID]
    # garrison 6 on 5-1: 15% of 14 = 2.1 -> 2, morale loss 2.2 >= militia's 2.0: broken after round 1
    assert (sg.rounds[0].losses["besieger"], sg.rounds[0].morale_loss["besieger"]) == (2, 220)
    path = retreat_path(out.state, c.map, "lille", ("AU",), ("FR",), lambda u: relations.unit_power(out.state, u))
    corps = out.state.units["corps:AU:I"]
    assert path and corps.location == Location(LocationKind.AREA, path[-1]) and not corps.besieging
    assert corps.factors.militia == 2
    (d,) = out.state.pending.values()
    assert (d.id, d.power, d.options) == (f"siege:{SID}:move-out", "FR", ("stay", "move-out"))
    st_, asked = answer(out.state, c, lambda d: "move-out")
    assert asked == [f"siege:{SID}:move-out"]
    assert st_.units["corps:FR:I"].location == Location(LocationKind.AREA, "lille")
    assert st_.sieges[SID].step == "done" and st_.sieges[SID].outcome == "besieger-retreats"
    assert all(p.political_status == 0 for p in st_.powers.values())


def test_a_garrison_attack_that_eliminates_the_besiegers_takes_them_off_the_map():
    # 11.5 (000:2024): emptied corps leave the map; 13.8.2 (000:2642): with every factor of their side eliminated,
    # their leaders are the holder's prisoners; nothing is left to retreat (11.4.2), and the report says so.
    s = scene([{"id": "corps:AU:I", "location": "area:lille", "militia": 1, "besieging": True},
               {"id": "corps:AU:II", "location": "area:lille", "militia": 1, "besieging": True}],
              [{"nation": "FR", "city": "lille", "infantry": 15}], phasing="FR")
    s = s.with_leader(Leader(id="leader:AU:charles", power="AU", status=LeaderStatus.ON_MAP, attached_to="corps:AU:I"))
    c = ctx({f"siege/{SID}/round1/besieger": 1, f"siege/{SID}/round1/defender": 6})
    st_, _ = answer(start_garrison_attack(s, "lille", c).state, c, lambda d: d.options[0])
    sg = st_.sieges[SID]
    assert sg.outcome == "besieger-retreats" and sg.step == "done"
    for uid in ("corps:AU:I", "corps:AU:II"):
        assert st_.units[uid].location == POOL and not st_.units[uid].besieging
    charles = st_.leaders["leader:AU:charles"]
    assert (charles.status, charles.captured_by, charles.attached_to) == (LeaderStatus.CAPTURED, "FR", None)
    assert not any("retreat lille ->" in line for line in sg.report)
    assert sg.report[-1] == ("AU's besiegers are eliminated and leave the map; none is left to retreat (11.4.2); "
                             "leader:AU:charles captured by FR (13.8.2).")
    assert st_.log[-1].text.startswith("The garrison of lille attacks AU's besiegers (11.4.2). AU's besiegers are eliminated")


def test_besiegers_eliminated_in_an_assault_take_no_city_though_the_defender_breaks():
    # 11.4.1 with 11.2.10 (000:1858): a side with no survivors wins nothing; 13.8.2: its leader is the holder's.
    s = scene([{"id": "corps:AU:I", "location": "area:lille", "militia": 1, "besieging": True}],
              [{"nation": "FR", "city": "lille", "militia": 5}])
    s = s.with_leader(Leader(id="leader:AU:charles", power="AU", status=LeaderStatus.ON_MAP, attached_to="corps:AU:I"))
    c = ctx({f"siege/{SID}/attempt": 6, f"siege/{SID}/round1/besieger": 6, f"siege/{SID}/round1/defender": 6})
    st_, _ = answer(start_siege_assault(s, "lille", "AU", c).state, c, lambda d: "fight" if d.kind == "siege.surrender" else d.options[0])
    sg = st_.sieges[SID]
    # defender 6 on 5-2: 20% of 5 = 1, the besieger's last factor; besieger 6 on 5-1: morale loss 2.2 >= 2.0
    assert "The defender breaks (morale loss 220 >= 200)." in sg.report and "lille" not in st_.city_control
    assert st_.units["garrison:FR:city:lille"].factors.militia == 5 and st_.units["corps:AU:I"].location == POOL
    assert st_.leaders["leader:AU:charles"].captured_by == "FR"
    assert "The assault fails; the besiegers are eliminated and leave the map (11.4.1, 11.5)." in sg.report


def test_a_corps_emptied_in_a_siege_combat_leaves_its_leader_with_a_survivor():
    # 11.5 (000:2024): the emptied corps leaves the map; its leader joins a surviving corps of his power.
    s = scene([{"id": "corps:AU:I", "location": "area:lille", "militia": 1, "besieging": True},
               {"id": "corps:AU:II", "location": "area:lille", "infantry": 30, "besieging": True}],
              [{"nation": "FR", "city": "lille", "infantry": 15}], phasing="FR")
    s = s.with_leader(Leader(id="leader:AU:charles", power="AU", status=LeaderStatus.ON_MAP, attached_to="corps:AU:I"))
    forced = {f"siege/{SID}/round{r}/{side}": 1 for r in (1, 2, 3) for side in ("besieger", "defender")}
    c = ctx(forced)
    st_, _ = answer(start_garrison_attack(s, "lille", c).state, c, lambda d: "corps:AU:I/militia" if "corps:AU:I/militia"
                    in d.options else d.options[0])
    assert st_.units["corps:AU:I"].location == POOL
    charles = st_.leaders["leader:AU:charles"]
    assert (charles.status, charles.attached_to) == (LeaderStatus.ON_MAP, "corps:AU:II")
    assert "corps:AU:I is emptied and leaves the map (11.5)." in st_.sieges[SID].report


def test_garrison_attack_only_by_the_holder_of_the_city():
    s = scene(AU_CORPS, [{"nation": "FR", "city": "lille", "infantry": 12}], phasing="AU")
    with pytest.raises(IllegalAction, match="only the power holding lille"):
        start_garrison_attack(s, "lille", ctx())


def test_refusals_are_one_sentence():
    with pytest.raises(IllegalAction, match="no corps besieging"):
        start_siege_assault(scene([], [{"nation": "FR", "city": "lille", "infantry": 5}]), "lille", "AU", ctx())
    with pytest.raises(IllegalAction, match="no enemy of AU holds"):
        start_siege_assault(scene(AU_CORPS, [{"nation": "FR", "city": "lille", "infantry": 5}], wars=()), "lille", "AU", ctx())
    with pytest.raises(IllegalAction, match="no city in 'atlantis'"):
        start_siege_assault(scene(AU_CORPS, []), "atlantis", "AU", ctx())


def test_report_is_text_and_json():
    s = scene(AU_CORPS, [{"nation": "FR", "city": "lille", "infantry": 9}])
    c = ctx({f"siege/{SID}/attempt": 6})
    st_, _ = answer(start_siege_assault(s, "lille", "AU", c).state, c, lambda d: "surrender")
    sg = st_.sieges[SID]
    assert "undergarrisoned +1 (9 of 15) = 4: breach" in report_text(sg)
    assert json.loads(json.dumps(report_record(sg)))["outcome"] == "surrendered"


@st.composite
def sieges(draw):
    corps = [{"id": "corps:AU:I", "location": "area:lille", "besieging": True,
              "infantry": draw(st.integers(0, 20)), "cavalry": draw(st.integers(0, 4)), "militia": draw(st.integers(0, 6))}]
    if sum(v for k, v in corps[0].items() if isinstance(v, int) and not isinstance(v, bool)) == 0:
        corps[0]["infantry"] = 1
    gar = [{"nation": "FR", "city": "lille", "infantry": draw(st.integers(1, 15)), "militia": draw(st.integers(0, 5))}]
    return corps, gar, draw(st.binary(min_size=1, max_size=8)), draw(st.integers(0, 5)), draw(st.booleans())


def _play(corps, gar, seed, pick, garrison_attack, suspend):
    s = scene(corps, gar, phasing="FR" if garrison_attack else "AU")
    c = rules_context(Dice(seed))
    out = start_garrison_attack(s, "lille", c) if garrison_attack else start_siege_assault(s, "lille", "AU", c)
    st_, _ = answer(out.state, c, lambda d: d.options[(pick + len(d.id)) % len(d.options)], suspend=suspend, seed=seed)
    return s, st_


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sieges())
def test_properties_of_sieges(case):
    corps, gar, seed, pick, garrison_attack = case
    before, after = _play(corps, gar, seed, pick, garrison_attack, suspend=False)
    (sg,) = after.sieges.values()
    assert sg.step == "done"
    force = {"besieger": sum(before.units[u].factors.total for u in sg.besiegers),
             "defender": sum(before.units[u].factors.total for u in sg.defenders)}
    for r in sg.rounds:
        for side in ("besieger", "defender"):
            assert 0 <= r.losses[side] <= force[side]
    for u in sg.besiegers + sg.defenders:
        if u in after.units:
            f = after.units[u].factors
            assert min(getattr(f, k) for k in ("infantry", "militia", "cavalry")) >= 0
            assert f.total <= before.units[u].factors.total
    _, again = _play(corps, gar, seed, pick, garrison_attack, suspend=False)
    _, resumed = _play(corps, gar, seed, pick, garrison_attack, suspend=True)
    assert again.state_hash() == after.state_hash() == resumed.state_hash()


def test_a_neutral_minor_fights_on_without_a_player_to_ask():
    # 11.4 (000:1948): a city of a neutral minor at war with the besieger may be besieged; with
    # no player behind it, it never sorties and never surrenders (docs/decisions.md).
    from eiapbem.rules.model.common import Date

    s = scene_state(
        {"date": "1806-05", "phasing": "AU", "corps": [
            {"id": "corps:AU:I", "location": "area:ulm", "infantry": 20, "besieging": True}],
         "garrisons": [{"nation": "wurttemberg", "city": "ulm", "infantry": 4}]},
        phase=Phase.LAND,
    )
    s = s.with_power("AU", minor_wars=s.powers["AU"].minor_wars.set("wurttemberg", Date(1806, 5)))
    sid = "1806-05.ulm.1"
    forced = {f"siege/{sid}/attempt": 6}  # 6 - 3 + 1 (4 of 10) = 4: breach
    for r in (1, 2, 3):
        forced[f"siege/{sid}/round{r}/besieger"] = 6
        forced[f"siege/{sid}/round{r}/defender"] = 1
    out = start_siege_assault(s, "ulm", "AU", ctx(forced))
    sg = out.state.sieges[sid]
    assert not out.state.pending and sg.answer == "fight" and sg.step == "done"
    assert sg.outcome == "captured" and out.state.city_control["ulm"].nation == "AU"
    assert out.state.powers["AU"].political_status == 1  # a fortress (siege value 3)


def test_one_siege_combat_at_a_time_and_only_in_the_besiegers_phase():
    s = scene(AU_CORPS, [{"nation": "FR", "city": "lille", "infantry": 15}])
    out = start_siege_assault(s, "lille", "AU", ctx({f"siege/{SID}/attempt": 1}))
    with pytest.raises(IllegalAction, match="still waiting for an answer"):
        start_siege_assault(out.state, "lille", "AU", ctx())
    with pytest.raises(IllegalAction, match="only in its own land phase"):
        start_siege_assault(scene(AU_CORPS, [{"nation": "FR", "city": "lille", "infantry": 15}], phasing="FR"),
                            "lille", "AU", ctx())


def test_the_besieged_answers_in_the_besiegers_slot_by_standing_orders():
    # PBEM exchanges battle files for field and trivial combat only (4.2.7, 000:170): a siege question of
    # the besieged in the besieger's slot is answered by standing orders (stay, fight on), at every client.
    from eiapbem.client import battles

    s = scene(AU_CORPS, [{"nation": "FR", "city": "lille", "infantry": 15}])
    c = ctx({f"siege/{SID}/attempt": 2})
    asked = start_siege_assault(s, "lille", "AU", c).state
    (d,) = asked.pending.values()
    assert d.power == "FR" and d.kind == "siege.sortie" and battles.automatic(asked, d)
    done = battles.auto_answer(asked, c)
    assert not done.pending and done.sieges[SID].step == "done" and done.units == s.units
    # The standing order is the neutral garrison's (stay in the city; refuse to surrender).
    from eiapbem.rules.combat.sieges import standing_answer

    assert standing_answer(d) == "stay"
    assert standing_answer(d.replace(id="x", kind="siege.surrender", options=("surrender", "fight"))) == "fight"


def test_an_assault_where_both_sides_break_gives_the_city_to_neither():
    # 11.4.1 (000:1988-1990) says the besieger wins when the defender breaks and loses when it breaks itself; both
    # at once is ruled as in field combat, which assault combat is resolved like (000:1980): "Both Break ... neither
    # side wins, gains or loses political points" (11.2.10, 000:1858). The city went to the besieger.
    s = scene([{"id": "corps:AU:I", "location": "area:lille", "militia": 10, "besieging": True}],
              [{"nation": "FR", "city": "lille", "infantry": 8}])
    forced = {f"siege/{SID}/attempt": 6, f"siege/{SID}/round1/besieger": 6, f"siege/{SID}/round1/defender": 1,
              f"siege/{SID}/round2/besieger": 6, f"siege/{SID}/round2/defender": 4}
    c = ctx(forced)
    st_, _ = answer(start_siege_assault(s, "lille", "AU", c).state, c,
                    lambda d: "fight" if d.kind == "siege.surrender" else d.options[0])
    sg = st_.sieges[SID]
    # morale losses: besieger (militia, 2.0) 0.8 then 1.8 = 2.6; defender (FR, 4.0) 2.2 then 2.2 = 4.4: both broken
    assert [dict(r.morale_loss) for r in sg.rounds] == [{"besieger": 80, "defender": 220}, {"besieger": 180, "defender": 220}]
    assert sg.outcome == "resumed" and "lille" not in st_.city_control
    assert st_.units["garrison:FR:city:lille"].factors.infantry == 5 and st_.units["corps:AU:I"].besieging
    assert all(p.political_status == 0 for p in st_.powers.values())
    assert "Both sides break: neither wins (11.2.10, 000:1858)" in report_text(sg)


def test_a_garrison_wiped_out_by_its_own_attack_is_told_in_the_log_with_the_combat():
    # 11.4.2: the city falls when the garrison's every factor is eliminated; five factors attacking nineteen lose
    # them all, and the log's one line says the combat was fought and what it cost, not only
    # that the city was taken
    s = scene([{"id": "corps:AU:I", "location": "area:lille", "infantry": 19, "besieging": True},
               {"id": "corps:FR:V", "location": "city:lille", "infantry": 5}], [], phasing="FR")
    c = ctx({f"siege/{SID}/round1/besieger": 4, f"siege/{SID}/round1/defender": 1})
    st_, _ = answer(start_garrison_attack(s, "lille", c).state, c, lambda d: d.options[0])
    sg = st_.sieges[SID]
    assert sg.outcome == "captured" and st_.units["corps:FR:V"].location == POOL
    line, n = st_.log[-1].text, len(sg.rounds)
    assert line.startswith("The garrison of lille attacks AU's besiegers (11.4.2). The city of lille is taken by AU; "
                           "no defender survives.")
    lost = sum(r.losses["besieger"] for r in sg.rounds)
    assert (f"In {n} round{'s' if n != 1 else ''} of the garrison attack at lille the besiegers lost {lost} factor"
            f"{'s' if lost != 1 else ''} and the defenders 5") in line
