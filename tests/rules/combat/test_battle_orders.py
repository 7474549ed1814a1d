"""Standing orders for land combat and the gaps around them (session 2026-12-02c, ``rulesgaps``).

- 13.2.2 (000:2430): lone Cossacks and Freikorps under the standing order withdraw on 1-4 before combat;
- 11.2.1 (000:1648): a human's corps takes its standing-order chit where nobody is asked (4.2.7, 000:170);
- 11.2.9 (000:1788): a whole loss allocation in one answer;
- 13.5.1-13.5.2 (000:2562-2566): a city a raider took and left is its area's again.

France at war with Austria (and Russia), September 1805 (``battlekit.land_state``).
"""

from __future__ import annotations

import pytest
from battlekit import answer, corps, ctx, land_state, pending_of

from eiapbem import ai
from eiapbem.core.errors import IllegalAction
from eiapbem.rules import engine, turn
from eiapbem.rules.combat.field import start_field_battle
from eiapbem.rules.combat.orders import BattleOrders, IrregularOrders
from eiapbem.rules.land.combat import Attack
from eiapbem.rules.land.movement import MoveUnit
from eiapbem.rules.land.occupation import release_unheld
from eiapbem.rules.model import CityControl, Date, Location, LocationKind, Phase, Slot

COSSACK = "corps:RU:Cossack-1"
LABEL = f"irregular-withdrawal/1805-09/munich/{COSSACK}"


def _slot(s, power):
    return s.replace(slot=Slot(phase=Phase.LAND, step="turn", power=power, actors=(power,)))


def _raid(*, order: bool, **extra):
    """A French corps meets a Russian Cossack alone in Munich; Russia gave the withdrawal order or not."""
    s = land_state().with_war("FR", "RU", Date(1805, 9), ("FR",))
    s = corps(s, "corps:FR:V", "munich", infantry=10)
    s = corps(s, COSSACK, "munich", cavalry=1, corps_type="cossack")
    for cid, area, f in extra.get("more", ()):
        s = corps(s, cid, area, **f)
    if order:
        s = engine.apply_action(_slot(s, "RU"), "RU", IrregularOrders(withdraw=True), ctx()).state
    return _slot(s, "FR")


# ---------------------------------------------------------------- 13.2.2 lone Cossacks and Freikorps


@pytest.mark.parametrize("die", [1, 4])
def test_a_lone_cossack_with_the_order_withdraws_on_1_to_4_13_2_2(die):
    s = _raid(order=True)
    assert s.powers["RU"].standing_orders.irregulars_retreat
    out = engine.apply_action(s, "FR", Attack(area="munich"), ctx(forced={LABEL: die}))
    went = out.state.units[COSSACK].location
    assert went.kind is LocationKind.AREA and went.site in ctx().map.land_neighbours("munich")
    assert not out.state.battles  # no combat at all
    assert any("withdraws" in e.text and "13.2.2" in e.text for e in out.events)
    assert not engine.unmet_obligations(out.state, "FR", ctx())  # nothing left to attack in Munich


def test_a_lone_cossack_stays_and_fights_on_5_13_2_2():
    s = _raid(order=True)
    out = engine.apply_action(s, "FR", Attack(area="munich"), ctx(forced={LABEL: 5}))
    assert out.state.battles  # the trivial combat was fought
    assert any("stays and fights" in e.text for e in out.events)


def test_without_the_order_no_die_is_rolled_and_the_cossack_fights():
    s = _raid(order=False)
    c = ctx()
    out = engine.apply_action(s, "FR", Attack(area="munich"), c)
    assert LABEL not in c.dice.record
    assert out.state.battles


def test_a_cossack_with_a_regular_corps_is_not_alone_and_fights():
    s = _raid(order=True, more=[("corps:RU:I", "munich", {"infantry": 5})])
    c = ctx(forced={LABEL: 1})
    out = engine.apply_action(s, "FR", Attack(area="munich"), c)
    assert out.state.units[COSSACK].location.site == "munich"
    assert LABEL not in c.dice.record


def test_with_enemy_corps_all_around_the_cossack_stays():
    more = [(f"corps:FR:X{i}", a, {"infantry": 2}) for i, a in enumerate(ctx().map.land_neighbours("munich"))]
    s = _raid(order=True, more=more)
    out = engine.apply_action(s, "FR", Attack(area="munich"), ctx(forced={LABEL: 2}))
    assert any("no adjacent area" in e.text for e in out.events)
    assert out.state.battles  # it stayed and was fought


def test_the_order_is_taken_back_without_withdraw():
    s = _raid(order=True)
    s = engine.apply_action(_slot(s, "RU"), "RU", IrregularOrders(), ctx()).state
    assert not s.powers["RU"].standing_orders.irregulars_retreat


# ---------------------------------------------------------------- 11.2.1 standing chit of a human's lone corps


def _au_orders(s, chit, corps_id="corps:AU:I"):
    return engine.apply_action(_slot(s, "AU"), "AU", BattleOrders(corps=corps_id, chit=chit), ctx()).state


def _lone_defence(s, c):
    s = corps(s, "corps:FR:I", "ulm", infantry=10, cavalry=2)
    s = corps(s, "corps:FR:II", "ulm", infantry=10)
    s = _slot(s, "FR")
    s = start_field_battle(s, "ulm", ["corps:FR:I", "corps:FR:II"], ["corps:AU:I"], c, attacker_power="FR").state
    return turn.auto_answer(s, c, ai)  # a human's lone corps: its standing orders answer (4.2.7, 000:170)


def test_a_humans_lone_corps_takes_the_chit_its_player_ordered_11_2_1():
    s = corps(land_state(), "corps:AU:I", "ulm", infantry=12, cavalry=2)
    s = _au_orders(s, "defend")
    assert s.powers["AU"].standing_orders.battle_chits["corps:AU:I"] == "defend"
    assert "defend" not in " ".join(e.text for e in s.log[-1:])  # the order stays out of the public log
    c = ctx()
    s = _lone_defence(s, c)
    assert s.battles["battle:1805-09:ulm:0"].defender.chit == "defend"
    assert "battle/battle:1805-09:ulm:0/day1/chit/defender" not in c.dice.record


def test_random_takes_the_chit_order_back_and_the_chit_is_drawn_000_1648():
    s = corps(land_state(), "corps:AU:I", "ulm", infantry=12, cavalry=2)
    s = _au_orders(_au_orders(s, "defend"), "random")
    assert "corps:AU:I" not in s.powers["AU"].standing_orders.battle_chits
    c = ctx(forced={"battle/battle:1805-09:ulm:0/day1/chit/defender": 4})
    s = _lone_defence(s, c)
    assert s.battles["battle:1805-09:ulm:0"].defender.chit == "withdrawal"  # 4th of the chits without outflank


def test_battle_orders_are_refused_for_another_powers_corps_and_for_irregulars():
    s = corps(land_state(), "corps:AU:I", "ulm", infantry=12)
    s = corps(s, "corps:AU:Freikorps", "vienna", cavalry=1, corps_type="freikorps")
    with pytest.raises(IllegalAction, match=r"not FR's corps.*11\.2\.1"):
        engine.apply_action(s, "FR", BattleOrders(corps="corps:AU:I", chit="defend"), ctx())
    with pytest.raises(IllegalAction, match=r"trivial combats.*11\.3"):
        engine.apply_action(_slot(s, "AU"), "AU", BattleOrders(corps="corps:AU:Freikorps", chit="defend"), ctx())
    with pytest.raises(IllegalAction, match="no corps"):
        engine.apply_action(s, "FR", BattleOrders(corps="corps:FR:nope", chit="defend"), ctx())


# ---------------------------------------------------------------- 11.2.9 a whole loss allocation in one answer


def _to_losses(c):
    """A field battle played to its first casualty question with more than one factor due."""
    s = land_state()
    s = corps(s, "corps:FR:I", "ulm", infantry=14, cavalry=3)
    s = corps(s, "corps:FR:II", "ulm", infantry=12, militia=4)
    s = corps(s, "corps:AU:I", "ulm", infantry=20, cavalry=3, militia=6)
    s = corps(s, "corps:AU:II", "ulm", infantry=12)
    s = start_field_battle(s, "ulm", ["corps:FR:I", "corps:FR:II"], ["corps:AU:I", "corps:AU:II"], c).state
    bid = "battle:1805-09:ulm:0"
    for _ in range(50):
        ds = sorted(pending_of(s, bid), key=lambda d: d.id)
        loss = [d for d in ds if d.kind == "battle.casualties" and d.context["remaining"] >= 2]
        if loss:
            return s, loss[0]
        assert ds, "the battle ended before a loss of two factors was asked"
        d = ds[0]
        s = answer(s, d, {"battle.chit": "assault" if d.context["role"] == "attacker" else "counter-attack"}
                   .get(d.kind, d.options[0]), c)
    raise AssertionError("no casualty question")


def test_one_answer_allocates_every_loss_due_and_equals_answering_one_by_one():
    s, d = _to_losses(ctx())
    due = d.context["remaining"]
    unit = d.options[0].rsplit("/", 1)[0]
    kind = d.options[0].rsplit("/", 1)[1]
    first = answer(s, d, f"{unit}/{kind}={due}", ctx())
    assert not [x for x in pending_of(first, d.context["battle"]) if x.kind == "battle.casualties"
                and x.context["role"] == d.context["role"] and x.context["round"] == d.context["round"]]
    one = s
    for _ in range(due):
        q = [x for x in pending_of(one, d.context["battle"]) if x.kind == "battle.casualties"][0]
        one = answer(one, q, f"{unit}/{kind}", ctx())
    assert first.units[unit] == one.units[unit]
    assert [e.text for e in first.battles[d.context["battle"]].events] == [e.text for e in one.battles[d.context["battle"]].events]


def test_an_allocation_of_more_than_is_due_or_of_a_factor_not_there_is_refused():
    s, d = _to_losses(ctx())
    due = d.context["remaining"]
    unit = d.options[0].rsplit("/", 1)[0]
    with pytest.raises(IllegalAction, match="owes only"):
        answer(s, d, f"{unit}/infantry={due + 1}", ctx())
    with pytest.raises(IllegalAction, match="guard"):
        answer(s, d, f"{unit}/guard", ctx())
    with pytest.raises(IllegalAction, match="not a loss like"):
        answer(s, d, "three infantry", ctx())


def test_a_part_allocation_leaves_the_rest_to_ask():
    s, d = _to_losses(ctx())
    unit = d.options[0].rsplit("/", 1)[0]
    after = answer(s, d, f"{unit}/infantry", ctx())
    again = [x for x in pending_of(after, d.context["battle"]) if x.kind == "battle.casualties"]
    assert again and again[0].context["remaining"] == d.context["remaining"] - 1


# ---------------------------------------------------------------- 13.5.1-13.5.2 a city left behind


def test_a_city_a_cossack_took_returns_to_its_area_when_it_rides_on_13_5_2():
    s = land_state().with_war("FR", "RU", Date(1805, 9), ("FR",)).with_war("AU", "RU", Date(1805, 9), ("AU",))
    s = corps(s, COSSACK, "linz", cavalry=1, corps_type="cossack")
    s = _slot(s, "RU")
    c = ctx()
    s = engine.apply_action(s, "RU", MoveUnit(unit=COSSACK, path="innsbruck", city=True), c).state
    assert s.city_control["innsbruck"].nation == "RU"
    kept = release_unheld(s, c)
    assert kept.state.city_control["innsbruck"].nation == "RU" and not kept.events  # it is still inside
    s = s.with_unit(s.units[COSSACK].replace(location=Location(LocationKind.AREA, "linz")))
    out = release_unheld(s, c)
    assert "innsbruck" not in out.state.city_control
    assert any("returns to AU" in e.text and "13.5" in e.text for e in out.events)


def test_a_city_taken_by_siege_is_held_by_the_besiegers_outside_it_11_1_1():
    s = corps(land_state(), "corps:FR:V", "innsbruck", infantry=8)
    s = s.replace(city_control=s.city_control.set("innsbruck", CityControl(nation="FR", since=Date(1805, 9))))
    assert release_unheld(s, ctx()).state.city_control["innsbruck"].nation == "FR"
    s = s.with_unit(s.units["corps:FR:V"].replace(location=Location(LocationKind.AREA, "munich")))
    assert "innsbruck" not in release_unheld(s, ctx()).state.city_control


def test_the_land_slot_end_releases_a_city_left_behind():
    s = corps(land_state(), "corps:FR:V", "munich", infantry=8)
    s = s.replace(city_control=s.city_control.set("innsbruck", CityControl(nation="FR", since=Date(1805, 8))))
    out = engine.end_slot(s, "FR", ctx())
    assert "innsbruck" not in out.state.city_control


def test_show_power_lists_the_battle_standing_orders_to_their_power_only():
    from eiapbem.client import show

    s = corps(land_state(), "corps:AU:I", "ulm", infantry=12)
    s = _au_orders(s, "cordon")
    s = engine.apply_action(s, "AU", IrregularOrders(withdraw=True), ctx()).state
    mine = "\n".join(show.power(s, "AU", {"AU"}))
    assert "corps:AU:I cordon" in mine and "withdraw when attacked" in mine
    assert "battle standing orders" not in "\n".join(show.power(s, "AU", {"FR"}))
