"""Austria's secret insurrection trigger provinces (13.2.4, 000:2484): set, fired during the enemy's move, kept secret."""

import pytest
from battlekit import corps, ctx, land_state

from eiapbem.client import show
from eiapbem.core.errors import IllegalAction
from eiapbem.rules import engine
from eiapbem.rules.land.movement import MoveUnit
from eiapbem.rules.land.revolts import PlaceInsurrection, SetInsurrectionTriggers, triggers
from eiapbem.rules.model import POOL, POWERS, CorpsType, Location, LocationKind, Phase, Slot
from eiapbem.rules.model.slot import ORDERS

C = ctx()
INS = "corps:AU:Insurrection-I"


def _reinforcing(s, power="AU"):
    return s.replace(slot=Slot(phase=Phase.REINFORCEMENT, step="turn", power=power, actors=(power,)))


def _diplomacy(s):
    return s.replace(slot=Slot(phase=Phase.DIPLOMACY, step=ORDERS, power=None, actors=POWERS))


def _base():
    s = land_state()
    s = corps(s, "corps:FR:I", "munich", infantry=10)
    s = corps(s, INS, "vienna", militia=15, cavalry=3, corps_type="insurrection")
    s = s.with_unit(s.units[INS].replace(location=POOL))  # off the map at full strength (13.2.4)
    # Austria holds its insurrection corps (000:2480, "need not be placed at the first opportunity"): without the
    # order they would rise at once where the enemy enters (case 13.2.4-insurrection-rises-on-entry).
    au = s.powers["AU"]
    return s.with_power("AU", standing_orders=au.standing_orders.replace(hold_insurrection=True))


def _set(s, provinces, power="AU"):
    s = _diplomacy(s)
    a = SetInsurrectionTriggers(provinces=provinces)
    engine.verify_action(s, power, a, C)
    return engine.apply_action(s, power, a, C)


def _why(s, power, a):
    try:
        engine.verify_action(s, power, a, C)
    except IllegalAction as err:
        return str(err)
    return ""


def test_austria_sets_up_to_three_unceded_home_provinces():
    s = _base()
    out = _set(s, "austria,bohemia, tyrol")
    assert triggers(out.state) == ("austria", "bohemia", "tyrol")
    r = _diplomacy(s)
    assert "at most 3" in _why(r, "AU", SetInsurrectionTriggers(provinces="austria,bohemia,tyrol,moravia"))
    assert "only Austria" in _why(r, "FR", SetInsurrectionTriggers(provinces="austria"))
    assert "not an unceded Austrian home province" in _why(r, "AU", SetInsurrectionTriggers(provinces="bavaria"))
    ceded = r.replace(ceded_provinces=r.ceded_provinces.set("tyrol", "FR"))
    assert "not an unceded Austrian home province" in _why(ceded, "AU", SetInsurrectionTriggers(provinces="tyrol"))
    on_map = r.with_unit(r.units[INS].replace(location=Location(LocationKind.AREA, "vienna")))
    assert "on the map or ready" in _why(on_map, "AU", SetInsurrectionTriggers(provinces="austria"))
    assert triggers(_set(out.state, "").state) == ()  # '' clears them


def test_the_triggers_are_a_diplomacy_order_carried_out_at_the_resolution():
    """13.2.4 (000:2484): set in the diplomacy phase, with the other (sealed) diplomacy orders; not in reinforcement."""
    s = _diplomacy(_base())
    a = SetInsurrectionTriggers(provinces="austria,moravia")
    scratch = engine.check_orders(s, "AU", [a], C)
    assert engine.given_orders(scratch.state, "AU") == (a,)  # on the order sheet: the sealed digest covers it
    assert triggers(s) == ()  # nothing changes before the resolution
    out = engine.resolve_slot(s, {"AU": [a], **{p: [] for p in POWERS if p != "AU"}}, C)
    assert triggers(out.state) == ("austria", "moravia")
    assert "action of the diplomacy phase" in _why(_reinforcing(_base()), "AU", a)


def test_the_public_log_and_other_players_show_name_no_trigger():
    out = _set(_base(), "austria")
    assert [e.text for e in out.events] == ["AU sets its secret insurrection trigger provinces (13.2.4)"]
    assert not any("austria" in str(v) for e in out.events for v in e.params.values())
    assert any("austria" in line for line in show.power(out.state, "AU", {"AU"}) if "trigger" in line)
    assert not any("trigger" in line for line in show.power(out.state, "AU", {"FR"}))


def test_an_enemy_corps_entering_a_trigger_province_halts_there_and_activates_the_insurrection():
    s = _base()
    move = MoveUnit(unit="corps:FR:I", path="linz,vienna")
    free = engine.apply_action(s, "FR", move, C).state  # without triggers it goes on to Vienna
    assert free.units["corps:FR:I"].location.site == "vienna" and not free.insurrection_activated
    armed = _set(s, "austria").state.replace(slot=s.slot)
    out = engine.apply_action(armed, "FR", move, C)
    st = out.state
    assert st.units["corps:FR:I"].location.site == "linz"  # halted in the first area of the province
    assert st.land_moves["corps:FR:I"].halted and st.insurrection_activated and triggers(st) == ()
    assert "insurrection trigger province" in out.events[-1].text and "activated" in out.events[-1].text
    # It cannot move on this phase (10.4.2 halt).
    assert "ended its movement" in _why(st, "FR", MoveUnit(unit="corps:FR:I", path="vienna"))
    # A trigger in another province does not stop it.
    other = _set(s, "bohemia").state.replace(slot=s.slot)
    assert engine.apply_action(other, "FR", move, C).state.units["corps:FR:I"].location.site == "vienna"


def test_once_activated_the_insurrection_is_placed_even_after_the_enemy_left():
    s = _set(_base(), "austria").state.replace(slot=land_state().slot)
    st = engine.apply_action(s, "FR", MoveUnit(unit="corps:FR:I", path="linz"), C).state
    gone = _reinforcing(st.without_unit("corps:FR:I"))  # the French corps left Austria again
    place = PlaceInsurrection(unit=INS, area="vienna")
    assert _why(gone, "AU", place) == ""
    after = engine.apply_action(gone, "AU", place, C).state
    assert after.units[INS].location.site == "vienna" and after.units[INS].corps_type is CorpsType.INSURRECTION
    # Without the trigger (and no enemy in Austria) it may not be placed.
    assert "not activated" in _why(_reinforcing(_base().without_unit("corps:FR:I")), "AU", place)


def test_the_triggers_are_sealed_with_the_diplomacy_orders_and_revealed_to_match():
    """The commit round carries only Austria's digest; the reveal must carry the trigger order it covers."""
    from eiapbem.rules.diplomacy import sealing
    from eiapbem.rules.model.slot import COMMIT

    s = _base().replace(slot=Slot(phase=Phase.DIPLOMACY, step=COMMIT, power=None, actors=POWERS))
    a = SetInsurrectionTriggers(provinces="bohemia")
    nonce = bytes(range(32))
    commit = sealing.CommitOrders(sealing.digest("AU", sealing.phase_key(s), nonce, [a]))
    revealing = engine.resolve_slot(s, {"AU": [commit], **{p: [] for p in POWERS if p != "AU"}}, C).state
    assert triggers(revealing) == ()  # the commit round tells no one anything
    others = {p: [] for p in POWERS if p != "AU"}
    with pytest.raises(IllegalAction):  # a reveal without the order it committed to does not match
        engine.resolve_slot(revealing, {"AU": [sealing.RevealOrders(nonce)], **others}, C)
    out = engine.resolve_slot(revealing, {"AU": [sealing.RevealOrders(nonce), a], **others}, C)
    assert triggers(out.state) == ("bohemia",)


def test_the_trigger_provinces_are_refused_in_the_reveal_round_and_not_offered_there():
    # 6.0: in the reveal round Austria's orders are the ones it committed to. The triggers were taken there, listed
    # under "Possible now", and only end-phase refused them ("sealed in the commit round and cannot change now").
    from eiapbem.rules.model import OrderSheet

    s = _diplomacy(_base())
    revealing = s.replace(order_sheet=OrderSheet(commitments=s.order_sheet.commitments.set("AU", bytes(32))))
    assert "sealed already and cannot change now (6.0)" in _why(revealing, "AU", SetInsurrectionTriggers("tyrol"))
    assert not [a for a in engine.legal_actions(revealing, "AU", C) if isinstance(a, SetInsurrectionTriggers)]
    assert [a for a in engine.legal_actions(s, "AU", C) if isinstance(a, SetInsurrectionTriggers)]
