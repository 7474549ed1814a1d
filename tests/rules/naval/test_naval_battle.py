"""Naval battles as a state machine (9.0-9.5, 000:1204-1290): decisions, retreats,
port combat, transports, Nelson, suspend/resume and properties."""

from __future__ import annotations

import functools
import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from battlekit import answer_every
from eiapbem.data.context import rules_context
from eiapbem.core.errors import IllegalAction
from eiapbem.rules import engine
from eiapbem.core.dice import Dice
from eiapbem.rules.model.common import Phase
from eiapbem.rules.model.units import POOL, Location, LocationKind, LeaderStatus
from eiapbem.rules.naval.battle import report_record, report_text, start_naval_battle
from eiapbem.rulecases.scene import scene_state

SEA = Location(LocationKind.SEA, "bay-of-biscay")


def ctx(forced=None, seed=b"naval-test"):
    return rules_context(Dice(seed, forced=forced or {}))


ALL_WARS = (("GB", "FR"), ("GB", "SP"), ("RU", "FR"), ("RU", "SP"))


def scene(fleets, *, where=SEA, date="1805-10", phasing="GB", wars=ALL_WARS, **extra):
    inp = {"date": date, "phasing": phasing, "wars": [list(w) for w in wars], "fleets": []}
    for f in fleets:
        f = dict(f)
        f.setdefault("location", str(where))
        inp["fleets"].append(f)
    inp.update(extra)
    return scene_state(inp, phase=Phase.NAVAL)


def sides(fleets):
    return {s: [f["id"] for f in fleets if f["side"] == s] for s in ("attacker", "defender")}


answer = functools.partial(answer_every, seed=b"naval-test")  # battlekit.answer_every: every pending decision


GB3 = [
    {"id": "fleet:GB:1", "side": "attacker", "heavy": 20},
    {"id": "fleet:GB:2", "side": "attacker", "heavy": 20},
    {"id": "fleet:GB:3", "side": "attacker", "heavy": 20},
    {"id": "fleet:FR:1", "side": "defender", "heavy": 11},
    {"id": "fleet:FR:2", "side": "defender", "heavy": 10},
    {"id": "fleet:FR:3", "side": "defender", "heavy": 10},
]


def test_first_question_is_the_defenders_evasion_order():
    # 9.2.1.1 (000:1220): the defender may evade outside interceptions and port combats.
    s = scene(GB3, nelson="fleet:GB:1")
    out = start_naval_battle(s, SEA, sides(GB3), ctx())
    (d,) = out.state.pending.values()
    assert (d.power, d.kind, d.options) == ("FR", "naval.evasion", ("no-evade", "evade-stronger", "evade-all"))


def test_successful_evasion_retreats_the_defender_without_combat():
    # 9.2.1.1: a 1 or 2 evades; the evaders go to the nearest port with a garrison (000:1220).
    s = scene(GB3, garrisons=[{"nation": "FR", "city": "nantes", "infantry": 2}])
    bid = "1805-10.bay-of-biscay.1"
    c = ctx({f"naval/{bid}/evade": 2})
    out = start_naval_battle(s, SEA, sides(GB3), c)
    st_, asked = answer(out.state, c, lambda d: "evade-all")
    b = st_.naval_battles[bid]
    assert (b.outcome, b.victor, dict(b.losses)) == ("evaded", None, {})
    assert {str(st_.units[f].location) for f in ("fleet:FR:1", "fleet:FR:2", "fleet:FR:3")} == {"port:nantes"}
    assert asked == [f"naval:{bid}:evasion"]
    assert st_.log[-1].text.startswith(f"Naval combat {bid} at sea:bay-of-biscay: The defender evades")


def test_evade_stronger_does_not_try_against_a_weaker_attacker():
    fleets = [{"id": "fleet:GB:1", "side": "attacker", "heavy": 5}, {"id": "fleet:FR:1", "side": "defender", "heavy": 10}]
    s = scene(fleets)
    bid = "1805-10.bay-of-biscay.1"
    c = ctx({f"naval/{bid}/wind/attacker": 3, f"naval/{bid}/wind/defender": 3, f"naval/{bid}/fire/attacker": 1,
             f"naval/{bid}/fire/defender": 1})
    st_, _ = answer(start_naval_battle(s, SEA, sides(fleets), c).state, c, lambda d: "evade-stronger" if d.kind == "naval.evasion" else d.options[0])
    assert f"naval/{bid}/evade" not in c.dice.record
    assert st_.naval_battles[bid].outcome == "fought"


def test_light_ships_only_must_retreat_without_political_points():
    # 9.2.1.2 (000:1224): light only against heavy retreats as if beaten, no PP.
    fleets = [{"id": "fleet:GB:1", "side": "attacker", "heavy": 5}, {"id": "fleet:FR:1", "side": "defender", "light": 8}]
    s = scene(fleets)
    st_, asked = answer(start_naval_battle(s, SEA, sides(fleets), ctx()).state, ctx(), lambda d: d.options[0])
    b = st_.naval_battles["1805-10.bay-of-biscay.1"]
    assert (b.outcome, b.retreating, dict(b.political_points)) == ("forced-retreat", ("defender",), {})
    # 9.4.1 (000:1274): the program retreats the loser to the nearest port; of the equally near French ports it
    # takes a garrisoned one with the strongest harbour defences (Brest), and no one is asked.
    assert st_.units["fleet:FR:1"].location == Location(LocationKind.PORT, "brest")
    assert not any(":retreat:" in a for a in asked)
    assert any("the program takes port:brest (9.4.1)" in line for line in b.report)
    assert st_.powers["GB"].political_status == 0


def test_pursuers_follow_the_beaten_defender_to_its_port():
    # 9.2.2.1 (000:1232): attacking fleets with pursuit orders follow the retreat to the port.
    bid = "1805-10.bay-of-biscay.1"
    forced = {f"naval/{bid}/wind/attacker": 2, f"naval/{bid}/wind/defender": 5,
              f"naval/{bid}/fire/defender": 5, f"naval/{bid}/fire/attacker": 2}
    c = ctx(forced)
    s = scene(GB3, nelson="fleet:GB:1")

    def choose(d):
        if d.kind == "naval.heavy-losses":
            return d.options[0]  # the program's proportional split (9.2.2.1)
        return {"naval.evasion": "no-evade"}.get(d.kind, "pursue" if d.id.endswith("fleet:GB:2") else "stay")

    st_, _ = answer(start_naval_battle(s, SEA, sides(GB3), c).state, c, choose)
    # the French retreat to the program's choice of the equally near French ports (9.4.1), the pursuer to its box
    assert st_.units["fleet:GB:2"].location == Location(LocationKind.BLOCKADE, "brest")
    assert st_.units["fleet:GB:1"].location == SEA
    assert st_.units["fleet:FR:1"].location == Location(LocationKind.PORT, "brest")


def test_port_combat_harbour_defences_fire_first_and_attackers_go_to_the_box():
    # 9.2.3 (000:1242): harbour defences with a garrison fire first, unmodified, as ships;
    # 9.4.2 (000:1278): attackers retreat to the blockade box, defenders stay; no evasion in port.
    port = Location(LocationKind.PORT, "brest")
    fleets = [{"id": "fleet:GB:1", "side": "attacker", "heavy": 40}, {"id": "fleet:FR:1", "side": "defender", "heavy": 20}]
    s = scene(fleets, where=port, garrisons=[{"nation": "FR", "city": "brest", "infantry": 3}])
    bid = "1805-10.brest.1"
    c = ctx({f"naval/{bid}/harbour": 6, f"naval/{bid}/fire/attacker": 6, f"naval/{bid}/fire/defender": 1})
    st_, asked = answer(start_naval_battle(s, port, sides(fleets), c).state, c)
    b = st_.naval_battles[bid]
    assert asked == []  # no evasion, no pursuit in port
    assert (b.harbour_defence, b.harbour_losses, b.wind_gauge) == (3, 0, "attacker")  # 25% of 3 -> 0
    # attacker +1 (British; 1.5x heavy capped at net +1): 7 -> 25% of 40 = 10; defender 1 -> 5% of 10 = 0
    assert dict(b.losses) == {"attacker": 0, "defender": 10}
    assert st_.units["fleet:GB:1"].location == Location(LocationKind.BLOCKADE, "brest")
    assert st_.units["fleet:FR:1"].location == port


def test_harbour_defences_need_a_garrison():
    # 13.5.3 (000:2570): a port without a garrison has no harbour defences.
    port = Location(LocationKind.PORT, "brest")
    fleets = [{"id": "fleet:GB:1", "side": "attacker", "heavy": 40}, {"id": "fleet:FR:1", "side": "defender", "heavy": 20}]
    bid = "1805-10.brest.1"
    c = ctx({f"naval/{bid}/fire/attacker": 6, f"naval/{bid}/fire/defender": 1})
    st_, _ = answer(start_naval_battle(scene(fleets, where=port), port, sides(fleets), c).state, c)
    assert st_.naval_battles[bid].harbour_defence == 0
    assert f"naval/{bid}/harbour" not in c.dice.record


def test_transports_and_passengers_are_captured_when_the_escort_is_sunk_and_nelson_taken():
    # 8.1.3 (000:1046): transports are captured with their passengers when no warship is left;
    # 9.5 (000:1290): empty fleets are removed; Nelson with a stack wiped out is a prisoner.
    fleets = [
        {"id": "fleet:FR:1", "side": "attacker", "heavy": 40},
        {"id": "fleet:GB:1", "side": "defender", "heavy": 2, "transport": 3},
    ]
    s = scene(fleets, phasing="FR", nelson="fleet:GB:1",
              corps=[{"id": "corps:GB:I", "location": "aboard:fleet:GB:1", "infantry": 5}])
    bid = "1805-10.bay-of-biscay.1"
    c = ctx({f"naval/{bid}/wind/attacker": 6, f"naval/{bid}/wind/defender": 1,
             f"naval/{bid}/fire/attacker": 6, f"naval/{bid}/fire/defender": 6})
    st_, _ = answer(start_naval_battle(s, SEA, sides(fleets), c).state, c)
    b = st_.naval_battles[bid]
    assert dict(b.losses) == {"attacker": 0, "defender": 2}
    assert st_.units["fleet:GB:1"].location == POOL and st_.units["fleet:GB:1"].ships.total == 0
    assert b.removed == ("fleet:GB:1",) and b.captured == ("corps:GB:I",)
    assert st_.units["corps:GB:I"].location == POOL
    assert st_.prisoners["FR:GB"].factors.infantry == 5
    nelson = st_.leaders["leader:GB:nelson"]
    assert (nelson.status, nelson.captured_by, b.nelson_captured_by) == (LeaderStatus.CAPTURED, "FR", "FR")


def test_losses_are_split_between_the_fleets_of_several_powers_and_all_gain_points():
    # 9.2.2.1 (000:1238) proportional losses; 9.3.2 (000:1262): victors gain, losers lose.
    fleets = [
        {"id": "fleet:GB:1", "side": "attacker", "heavy": 30},
        {"id": "fleet:RU:1", "side": "attacker", "heavy": 10, "light": 10},
        {"id": "fleet:FR:1", "side": "defender", "heavy": 10, "light": 5},
        {"id": "fleet:SP:1", "side": "defender", "heavy": 15},
    ]
    s = scene(fleets, wars=[("GB", "FR"), ("GB", "SP"), ("RU", "FR"), ("RU", "SP")])
    bid = "1805-10.bay-of-biscay.1"
    c = ctx({f"naval/{bid}/wind/attacker": 3, f"naval/{bid}/wind/defender": 4,
             f"naval/{bid}/fire/attacker": 5, f"naval/{bid}/fire/defender": 2})
    st_, _ = answer(start_naval_battle(s, SEA, sides(fleets), c).state, c,
                    lambda d: "no-evade" if d.kind == "naval.evasion" else d.options[0])
    b = st_.naval_battles[bid]
    # wind 3+1 British = 4 against 4: no gauge, simultaneous fire (9.2.1);
    # attacker 5 +1 (British and 1.5x heavy, net +1) = 6 -> 25% of 50 = 12; defender 2 -> 10% of 30 = 3
    assert b.wind_gauge is None
    assert dict(b.losses) == {"attacker": 3, "defender": 12}
    total = {f: b.fleet_losses[f].heavy + b.fleet_losses[f].light for f in b.fleet_losses}
    assert total["fleet:FR:1"] + total["fleet:SP:1"] == b.losses["defender"]
    assert total["fleet:GB:1"] + total["fleet:RU:1"] == b.losses["attacker"]
    assert dict(b.political_points) == {"GB": 2, "RU": 2, "FR": -2, "SP": -2}


def test_blockade_box_victor_may_enter_a_friendly_port():
    # 9.4.3 (000:1282): the blockade box victor may move into the port if it may use it;
    # the loser that came out of the port goes back into it.
    box = Location(LocationKind.BLOCKADE, "brest")
    fleets = [{"id": "fleet:FR:1", "side": "attacker", "heavy": 30}, {"id": "fleet:GB:1", "side": "defender", "heavy": 10}]
    s = scene(fleets, where=box, phasing="FR")
    bid = "1805-10.brest.1"
    c = ctx({f"naval/{bid}/fire/attacker": 6, f"naval/{bid}/fire/defender": 1})
    out = start_naval_battle(s, box, sides(fleets), c, wind_gauge_to="defender", interception=True)
    st_, asked = answer(out.state, c, lambda d: {"naval.enter-port": "enter"}.get(d.kind, d.options[0]))
    # the beaten blockaders did not come out of Brest: sea retreat rules; of several ports equally near the
    # program takes one (9.4.1), so the victor alone is asked
    assert asked == [f"naval:{bid}:enter-port"]
    assert st_.units["fleet:FR:1"].location == Location(LocationKind.PORT, "brest")
    assert st_.units["fleet:GB:1"].location == Location(LocationKind.PORT, "london")


def test_blockade_box_loser_that_came_out_of_the_port_goes_back_into_it():
    # 9.4.3 (000:1282): the loser retreats into the port it came out of.
    box = Location(LocationKind.BLOCKADE, "brest")
    fleets = [{"id": "fleet:FR:1", "side": "attacker", "heavy": 10}, {"id": "fleet:GB:1", "side": "defender", "heavy": 30}]
    bid = "1805-10.brest.1"
    c = ctx({f"naval/{bid}/fire/attacker": 1, f"naval/{bid}/fire/defender": 6})
    out = start_naval_battle(scene(fleets, where=box, phasing="FR"), box, sides(fleets), c,
                             wind_gauge_to="defender", interception=True, from_port="attacker")
    st_, asked = answer(out.state, c)
    assert asked == []
    assert st_.units["fleet:FR:1"].location == Location(LocationKind.PORT, "brest")
    assert st_.units["fleet:GB:1"].location == box


def test_refusals_are_one_sentence():
    s = scene(GB3, wars=())
    with pytest.raises(IllegalAction) as e:
        start_naval_battle(s, SEA, sides(GB3), ctx())
    assert "are not at war" in str(e.value) and str(e.value).count(". ") == 0
    s = scene(GB3)
    with pytest.raises(IllegalAction, match="not at sea:english-channel"):
        start_naval_battle(s, Location(LocationKind.SEA, "english-channel"), sides(GB3), ctx())
    out = start_naval_battle(s, SEA, sides(GB3), ctx())
    (d,) = out.state.pending.values()
    with pytest.raises(IllegalAction, match="choose one of"):
        engine.apply_action(out.state, "FR", engine.AnswerDecision(decision=d.id, choice="flee"), ctx())
    with pytest.raises(IllegalAction, match="for FR to answer"):
        engine.apply_action(out.state, "GB", engine.AnswerDecision(decision=d.id, choice="no-evade"), ctx())


def test_report_is_text_and_json():
    bid = "1805-10.bay-of-biscay.1"
    c = ctx({f"naval/{bid}/wind/attacker": 2, f"naval/{bid}/wind/defender": 5,
             f"naval/{bid}/fire/defender": 5, f"naval/{bid}/fire/attacker": 2})
    st_, _ = answer(start_naval_battle(scene(GB3, nelson="fleet:GB:1"), SEA, sides(GB3), c).state, c,
                    lambda d: "port:brest" if "port:brest" in d.options else d.options[0])
    b = st_.naval_battles[bid]
    text = report_text(b)
    # 9.2.4 (000:1246): 20% of 31 is 6; 60 - 6 = 54, 15% of 54 is 8
    assert "20% of 31 ships; the attacker loses 6 ships" in text
    assert "15% of 54 ships; the defender loses 8 ships" in text
    rec = json.loads(json.dumps(report_record(b)))
    assert rec["losses"] == {"attacker": 6, "defender": 8} and rec["political_points"] == {"FR": -3, "GB": 4}
    assert st_.log[-1].kind == "naval.combat"


# ------------------------------------------------------------------ properties

fleet_sizes = st.tuples(st.integers(0, 25), st.integers(0, 12), st.integers(0, 4))


@st.composite
def battles(draw):
    n_att = draw(st.integers(1, 3))
    n_def = draw(st.integers(1, 3))
    fleets = []
    for side, power, n in (("attacker", "GB", n_att), ("defender", "FR", n_def)):
        for i in range(n):
            h, l, t = draw(fleet_sizes)
            if h + l == 0:
                h = 1
            fleets.append({"id": f"fleet:{power}:{i + 1}", "side": side, "heavy": h, "light": l, "transport": t})
    # sometimes an ally on each side (9.1: several powers per side)
    for side, power in (("attacker", "RU"), ("defender", "SP")):
        if draw(st.booleans()):
            h, l, t = draw(fleet_sizes)
            fleets.append({"id": f"fleet:{power}:1", "side": side, "heavy": h, "light": l + (h + l == 0), "transport": t})
    nelson = draw(st.sampled_from([None, "fleet:GB:1"]))
    seed = draw(st.binary(min_size=1, max_size=8))
    pick = draw(st.integers(0, 5))
    return fleets, nelson, seed, pick


def _play(fleets, nelson, seed, pick, suspend):
    extra = {"nelson": nelson} if nelson else {}
    s = scene(fleets, **extra)
    c = rules_context(Dice(seed))
    out = start_naval_battle(s, SEA, sides(fleets), c)
    st_, _ = answer(out.state, c, lambda d: d.options[(pick + len(d.id)) % len(d.options)], suspend=suspend, seed=seed)
    return s, st_


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(battles())
def test_properties_of_naval_battles(case):
    fleets, nelson, seed, pick = case
    before, after = _play(fleets, nelson, seed, pick, suspend=False)
    (b,) = after.naval_battles.values()
    assert b.step == "done"
    for f in fleets:
        start = before.units[f["id"]].ships
        now = after.units[f["id"]].ships
        lost = b.fleet_losses.get(f["id"])
        assert min(now.heavy, now.light, now.transport) >= 0
        assert now.heavy <= start.heavy and now.light <= start.light and now.transport <= start.transport
        if lost is not None:
            assert lost.heavy + now.heavy == start.heavy and lost.light + now.light == start.light
    for side in ("attacker", "defender"):
        force = sum(f["heavy"] + f["light"] for f in fleets if f["side"] == side)
        assert b.losses.get(side, 0) <= force
    # the same dice and decisions give the same result; so does stopping at every decision
    _, again = _play(fleets, nelson, seed, pick, suspend=False)
    _, resumed = _play(fleets, nelson, seed, pick, suspend=True)
    assert again.state_hash() == after.state_hash() == resumed.state_hash()


@pytest.mark.parametrize("interception, victor", [(False, "defender"), (True, "attacker")])
def test_equal_losses_initiation_versus_interception(interception, victor):
    # 9.3.1 (000:1254-1256): equal losses, both with ships left: the phasing side loses an
    # initiated combat and wins an interception.
    fleets = [{"id": "fleet:GB:1", "side": "attacker", "heavy": 20}, {"id": "fleet:FR:1", "side": "defender", "heavy": 20}]
    bid = "1805-10.bay-of-biscay.1"
    c = ctx({f"naval/{bid}/wind/attacker": 2, f"naval/{bid}/wind/defender": 3,
             f"naval/{bid}/fire/attacker": 2, f"naval/{bid}/fire/defender": 3})
    out = start_naval_battle(scene(fleets), SEA, sides(fleets), c, interception=interception)
    st_, asked = answer(out.state, c, lambda d: {"naval.evasion": "no-evade", "naval.pursuit": "stay"}.get(d.kind, d.options[0]))
    b = st_.naval_battles[bid]
    # wind 3 (2+1 British) against 3: simultaneous; GB 3 (2+1) -> 15% of 20 = 3; FR 3 -> 15% of 20 = 3
    assert dict(b.losses) == {"attacker": 3, "defender": 3}
    assert b.victor == victor
    assert ("evasion" in " ".join(asked)) is (not interception)  # no evasion from an interception (8.5.4)


def test_lone_transports_are_captured_without_a_fight():
    # 8.1.3 (000:1046): transports do not fight; with no warship beside them they are captured.
    fleets = [{"id": "fleet:FR:1", "side": "attacker", "heavy": 5}, {"id": "fleet:GB:9", "side": "defender", "transport": 4}]
    st_, _ = answer(start_naval_battle(scene(fleets, phasing="FR"), SEA, sides(fleets), ctx()).state, ctx())
    b = st_.naval_battles["1805-10.bay-of-biscay.1"]
    assert (b.outcome, b.victor, b.fleet_losses["fleet:GB:9"].transport) == ("captured", None, 4)
    assert st_.units["fleet:GB:9"].location == POOL
    assert st_.powers["FR"].political_status == 0


def test_without_a_friendly_port_the_loser_chooses_an_adjacent_sea(monkeypatch):
    # 9.4.1 (000:1274): no eligible port: any one adjacent sea area, the loser's choice.
    from eiapbem.rules.naval import battle

    monkeypatch.setattr(battle, "may_use_port", lambda state, ctx_, power, port: False)
    assert battle.retreat_options(scene(GB3), ctx(), "FR", SEA) == (
        "sea:cape-finisterre", "sea:english-channel", "sea:north-atlantic"
    )


def test_the_nearest_friendly_port_wins_and_blockaded_ports_do_not_count():
    # 9.4.1: the nearest unblockaded friendly port; Brest blockaded by a British fleet drops out.
    from eiapbem.rules.naval.battle import retreat_options

    s = scene([{"id": "fleet:GB:9", "side": "attacker", "heavy": 1, "location": "blockade:brest"}])
    opts = retreat_options(s, ctx(), "FR", Location(LocationKind.SEA, "english-channel"))
    assert "port:brest" not in opts and "port:rouen" in opts and "port:caen" in opts
    assert retreat_options(scene([]), ctx(), "FR", Location(LocationKind.SEA, "english-channel")) == (
        "port:brest", "port:caen", "port:lille", "port:rouen"
    )
    # from the North Atlantic (no port of its own) every French port one sea further is as near
    far = retreat_options(scene([]), ctx(), "FR", Location(LocationKind.SEA, "north-atlantic"))
    assert "port:brest" in far and "port:bordeaux" in far and "port:toulon" not in far


@st.composite
def placed_battles(draw):
    fleets, nelson, seed, pick = draw(battles())
    where = draw(st.sampled_from(["sea:bay-of-biscay", "port:brest", "blockade:brest"]))
    garrison = draw(st.booleans())
    interception = draw(st.booleans()) if where != "port:brest" else False
    from_port = draw(st.sampled_from([None, "attacker", "defender"])) if where == "blockade:brest" else None
    gauge = draw(st.sampled_from([None, "attacker", "defender"])) if where == "blockade:brest" else None
    return fleets, nelson, seed, pick, where, garrison, interception, from_port, gauge


def _play_placed(case, suspend):
    fleets, nelson, seed, pick, where, garrison, interception, from_port, gauge = case
    loc = Location(LocationKind(where.split(":")[0]), where.split(":")[1])
    extra = {"nelson": nelson} if nelson else {}
    if garrison:
        extra["garrisons"] = [{"nation": "FR", "city": "brest", "infantry": 2}]
    s = scene(fleets, where=loc, **extra)
    c = rules_context(Dice(seed))
    out = start_naval_battle(s, loc, sides(fleets), c, interception=interception, from_port=from_port, wind_gauge_to=gauge)
    st_, _ = answer(out.state, c, lambda d: d.options[(pick + len(d.id)) % len(d.options)], suspend=suspend, seed=seed)
    return s, st_


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(placed_battles())
def test_properties_in_ports_and_blockade_boxes(case):
    before, after = _play_placed(case, suspend=False)
    (b,) = after.naval_battles.values()
    assert b.step == "done" and not after.pending
    for fid in b.attackers + b.defenders:
        assert after.units[fid].ships.total <= before.units[fid].ships.total
        if b.location.kind is LocationKind.PORT and fid in b.defenders and after.units[fid].ships.total:
            assert after.units[fid].location == b.location  # 9.4.2: the port's defenders stay
    _, resumed = _play_placed(case, suspend=True)
    assert resumed.state_hash() == after.state_hash()


def test_light_only_port_defenders_stay_and_attackers_go_to_the_box():
    # 9.2.1.2 with 9.4.2 (000:1278): nothing is fought; the defenders stay in port, the attackers leave it.
    port = Location(LocationKind.PORT, "brest")
    fleets = [{"id": "fleet:GB:1", "side": "attacker", "heavy": 10}, {"id": "fleet:FR:1", "side": "defender", "light": 5}]
    st_, asked = answer(start_naval_battle(scene(fleets, where=port), port, sides(fleets), ctx()).state, ctx())
    assert asked == [] and st_.naval_battles["1805-10.brest.1"].outcome == "forced-retreat"
    assert st_.units["fleet:GB:1"].location == Location(LocationKind.BLOCKADE, "brest")
    assert st_.units["fleet:FR:1"].location == port


def test_no_evasion_in_a_blockade_box_and_no_fleet_in_two_battles():
    box = Location(LocationKind.BLOCKADE, "brest")
    fleets = [{"id": "fleet:GB:1", "side": "attacker", "heavy": 10}, {"id": "fleet:FR:1", "side": "defender", "heavy": 5}]
    s = scene(fleets, where=box)
    bid = "1805-10.brest.1"
    c = ctx({f"naval/{bid}/wind/attacker": 1, f"naval/{bid}/wind/defender": 1,
             f"naval/{bid}/fire/attacker": 1, f"naval/{bid}/fire/defender": 1})
    st_, asked = answer(start_naval_battle(s, box, sides(fleets), c).state, c)
    assert not any("evasion" in a for a in asked)
    # a battle waiting for an answer holds its fleets
    out = start_naval_battle(scene(GB3), SEA, sides(GB3), ctx())
    with pytest.raises(IllegalAction, match="still fighting naval combat 1805-10.bay-of-biscay.1"):
        start_naval_battle(out.state, SEA, sides(GB3), ctx())


def _evacuation(gb_heavy, fr_heavy, forced_fire):
    box = Location(LocationKind.BLOCKADE, "brest")
    fleets = [
        {"id": "fleet:GB:1", "side": "attacker", "heavy": gb_heavy, "transport": 2, "location": "port:brest"},
        {"id": "fleet:FR:1", "side": "defender", "heavy": fr_heavy, "location": "blockade:brest"},
    ]
    s = scene(fleets, where=box, nelson="fleet:GB:1", phasing="FR",
              garrisons=[{"nation": "FR", "city": "brest", "infantry": 3}])
    bid = "1805-10.brest.1"
    c = ctx({f"naval/{bid}/fire/{k}": v for k, v in forced_fire.items()})
    out = start_naval_battle(s, box, sides(fleets), c, evacuation=True)
    return out, out.state.naval_battles[bid], c


def test_evacuation_loser_is_scuttled_and_nelson_captured_by_the_port_holder():
    # 8.7 (000:1166): no user input; blockaders have the wind gauge; harbour defences never fire at
    # fleets leaving; a blockaded fleet that does not win is scuttled, its naval leader captured.
    out, b, c = _evacuation(10, 20, {"attacker": 1, "defender": 6})
    assert not out.state.pending and b.step == "done"
    assert (b.wind_gauge, b.harbour_defence, b.victor) == ("defender", 0, "defender")
    assert b.scuttled == ("fleet:GB:1",) and b.fleet_losses["fleet:GB:1"].transport == 2
    gb = out.state.units["fleet:GB:1"]
    assert gb.location == POOL and gb.ships.total == 0
    assert out.state.units["fleet:FR:1"].location == Location(LocationKind.BLOCKADE, "brest")  # stays in the box
    nelson = out.state.leaders["leader:GB:nelson"]
    assert (nelson.status, nelson.captured_by) == (LeaderStatus.CAPTURED, "FR")


def test_evacuation_winner_and_beaten_blockaders_both_retreat():
    # 8.7: "they are both retreated in accordance with the naval retreat rules".
    out, b, c = _evacuation(30, 10, {"attacker": 6, "defender": 1})
    assert not out.state.pending and b.victor == "attacker" and b.scuttled == ()
    assert out.state.units["fleet:GB:1"].location.kind is LocationKind.PORT
    assert out.state.units["fleet:GB:1"].location.site != "brest"
    assert out.state.units["fleet:FR:1"].location.kind is LocationKind.PORT
    assert out.state.units["fleet:FR:1"].location.site != "brest"


def test_evacuation_needs_an_enemy_held_port():
    box = Location(LocationKind.BLOCKADE, "brest")
    fleets = [{"id": "fleet:FR:1", "side": "attacker", "heavy": 5, "location": "port:brest"},
              {"id": "fleet:GB:1", "side": "defender", "heavy": 5, "location": "blockade:brest"}]
    with pytest.raises(IllegalAction, match="not held by an enemy"):
        start_naval_battle(scene(fleets, where=box, phasing="FR"), box, sides(fleets), ctx(), evacuation=True)


def test_the_player_allocates_the_heavy_ship_losses_between_its_fleets():
    # 9.2.2.1 (000:1238): light losses are the program's (proportional, rounded down); "the program will prompt the
    # player for heavy ship loss(es)": the side's power says which fleets lose them, the proportional split first.
    bid = "1805-10.bay-of-biscay.1"
    forced = {f"naval/{bid}/wind/attacker": 2, f"naval/{bid}/wind/defender": 5,
              f"naval/{bid}/fire/defender": 5, f"naval/{bid}/fire/attacker": 2}
    c = ctx(forced)
    st = start_naval_battle(scene(GB3, nelson="fleet:GB:1"), SEA, sides(GB3), c).state
    while (d := next(iter(st.pending.values()))).kind != "naval.heavy-losses":  # evasion and pursuit first
        st = engine.apply_action(st, d.power, engine.AnswerDecision(d.id, "no-evade" if d.kind == "naval.evasion"
                                                                     else "stay"), c).state
    assert d.power == "GB" and d.options[0] == "fleet:GB:1=2,fleet:GB:2=2,fleet:GB:3=2"
    for bad, words in (("fleet:GB:1=7", "name each of fleet:GB:1, fleet:GB:2, fleet:GB:3 once"),
                       ("fleet:GB:1=21,fleet:GB:2=0,fleet:GB:3=0", "cannot lose 21"),
                       ("fleet:GB:1=1,fleet:GB:2=1,fleet:GB:3=1", "adding up to 6"), ("all", "not an allocation")):
        with pytest.raises(IllegalAction, match=words):
            engine.verify_action(st, "GB", engine.AnswerDecision(d.id, bad), c)
    st = engine.apply_action(st, "GB", engine.AnswerDecision(d.id, "fleet:GB:1=0,fleet:GB:2=1,fleet:GB:3=5"), c).state
    assert [st.units[f].ships.heavy for f in ("fleet:GB:1", "fleet:GB:2", "fleet:GB:3")] == [20, 19, 15]
    assert st.naval_battles[bid].fleet_losses["fleet:GB:3"].heavy == 5
