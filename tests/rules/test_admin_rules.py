"""The host's admin edits at rules level (4.2.8, 000:236-262): pure state edits with a host log line."""

import pytest

from eiapbem.data import world
from eiapbem.core.errors import BadEncoding, IllegalAction
from eiapbem.rules import admin as A
from eiapbem.rules.model import POOL, Factors, Location, LocationKind, MinorStatus, Options, Ships


@pytest.fixture(scope="module")
def state():
    from eiapbem.rules.scenario import initial_state

    return initial_state(world.load_scenario("classic-1805"), world.load_raw(),
                         options=Options(allow_pbem_host_functions=True))


def _one(out):
    assert len(out.events) == 1 and out.events[0].author == "host"  # 000:240: the log reports every change
    assert out.state.log[-1] == out.events[0]
    return out.events[0].text


def test_add_political_points_money_manpower(state):
    # 000:240-244: Add pp / money / manpower to the selected nation.
    fr = state.powers["FR"]
    out = A.apply_admin(state, A.AddPoliticalPoints("FR", 4))
    assert out.state.powers["FR"].political_status == fr.political_status + 4 and "4 political points" in _one(out)
    out = A.apply_admin(state, A.AddMoney("FR", 30))
    assert out.state.powers["FR"].treasury == fr.treasury + 30 and "30 money to FR" in _one(out)
    out = A.apply_admin(state, A.AddManpower("GB", 3))
    assert out.state.powers["GB"].manpower == state.powers["GB"].manpower + 3 and "3 manpower to GB" in _one(out)
    # Taking money away works down to zero; below zero the state cannot hold it.
    assert A.apply_admin(state, A.AddMoney("FR", -fr.treasury)).state.powers["FR"].treasury == 0
    with pytest.raises(IllegalAction, match="less than nothing"):
        A.apply_admin(state, A.AddMoney("FR", -fr.treasury - 1))


def test_diplomacy_with_a_power(state):
    # 000:246: neutral, ally or war between a major power and any nation; mutual for two powers.
    war = A.apply_admin(state, A.SetDiplomacy("FR", "AU", "war")).state
    assert "AU" in war.powers["FR"].wars and "FR" in war.powers["AU"].wars
    ally = A.apply_admin(war, A.SetDiplomacy("FR", "AU", "ally")).state
    assert "AU" not in ally.powers["FR"].wars and "FR" in ally.powers["AU"].alliances
    neutral = A.apply_admin(ally, A.SetDiplomacy("AU", "FR", "neutral"))
    assert not neutral.state.powers["FR"].alliances.get("AU") and "to neutral" in _one(neutral)
    with pytest.raises(IllegalAction, match="itself"):
        A.apply_admin(state, A.SetDiplomacy("FR", "FR", "war"))


def test_diplomacy_with_a_minor(state):
    ally = A.apply_admin(state, A.SetDiplomacy("PR", "saxony", "ally")).state
    assert ally.minors["saxony"].status is MinorStatus.ALLIED and ally.minors["saxony"].controller == "PR"
    war = A.apply_admin(ally, A.SetDiplomacy("PR", "saxony", "war")).state
    assert "saxony" in war.powers["PR"].minor_wars and war.minors["saxony"].controller is None
    neutral = A.apply_admin(war, A.SetDiplomacy("PR", "saxony", "neutral")).state
    assert "saxony" not in neutral.powers["PR"].minor_wars
    with pytest.raises(IllegalAction, match="neither a major power nor a minor"):
        A.apply_admin(state, A.SetDiplomacy("PR", "atlantis", "war"))


def test_remove_place_and_edit_units(state):
    # 000:252-262: off the map to the pool, placed anywhere (no checking), factors edited.
    uid = "corps:FR:I"
    placed = A.apply_admin(state, A.PlaceUnit(uid, Location(LocationKind.AREA, "vienna")))
    assert str(placed.state.units[uid].location) == "area:vienna" and "placed corps:FR:I at area:vienna" in _one(placed)
    off = A.apply_admin(placed.state, A.RemoveUnit(uid))
    assert off.state.units[uid].location == POOL  # its factors stay with the counter (000:254)
    edited = A.apply_admin(off.state, A.EditUnit(uid, factors=Factors(infantry=7, cavalry=1)))
    assert edited.state.units[uid].factors == Factors(infantry=7, cavalry=1)
    fleet = next(u for u in state.units if u.startswith("fleet:GB:"))
    ships = A.apply_admin(state, A.EditUnit(fleet, ships=Ships(heavy=5)))
    assert ships.state.units[fleet].ships == Ships(heavy=5)
    with pytest.raises(IllegalAction, match="fleet is placed at sea"):
        A.apply_admin(state, A.PlaceUnit(fleet, Location(LocationKind.AREA, "london")))
    with pytest.raises(IllegalAction, match="no unit"):
        A.apply_admin(state, A.RemoveUnit("corps:FR:XCIX"))


def test_create_garrison_then_remove_deletes_it(state):
    # 000:236-238: a garrison of any nation in any city; 000:254: removing a garrison deletes its factors.
    out = A.apply_admin(state, A.CreateGarrison("bavaria", "munich"))
    gid = "garrison:bavaria:city:munich"
    assert gid in out.state.units and "bavaria garrison in munich" in _one(out)
    with pytest.raises(IllegalAction, match="already has a garrison"):
        A.apply_admin(out.state, A.CreateGarrison("bavaria", "munich"))
    s = A.apply_admin(out.state, A.EditUnit(gid, factors=Factors(infantry=3))).state
    assert gid not in A.apply_admin(s, A.RemoveUnit(gid)).state.units


def test_option_changes_need_the_option(state):
    # 000:34: options change during play only with "Allow Option Changes During Game".
    with pytest.raises(IllegalAction, match="Allow Option Changes During Game"):
        A.apply_admin(state, A.ChangeOption("fog_of_war", True))
    s = state.replace(options=state.options.replace(allow_option_changes_during_game=True))
    out = A.apply_admin(s, A.ChangeOption("fog_of_war", True))
    assert out.state.options.fog_of_war and "fog-of-war on" in _one(out)


def test_skip_passes_the_slot_with_no_actions(state):
    # 000:232: Skip current player; the setup slot of Russia passes with nothing placed.
    assert state.slot.power == "RU"
    out = A.apply_admin(state, A.SkipSlot("RU"))
    assert out.state.slot.power != "RU" and out.state.units == state.units
    assert "skipped RU's turn" in out.events[0].text
    with pytest.raises(IllegalAction, match="current player is RU"):
        A.apply_admin(state, A.SkipSlot("FR"))


def test_admin_acts_round_trip_and_refuse_unknown_kinds():
    act = A.PlaceUnit("corps:FR:I", Location(LocationKind.AREA, "paris"))
    assert A.admin_from_obj(A.admin_to_obj(act)) == act
    with pytest.raises(BadEncoding, match="unknown admin act"):
        A.admin_from_obj({"kind": "setup.place-corps"})


def test_admin_acts_are_host_acts_of_the_engine_that_no_player_may_send(state):
    """The admin menu is a part of the engine's registry (``rules/phases.py``): each act a unit of verify, apply
    and candidates, authored by the host; a player's turn file can carry none of them."""
    from eiapbem.rules import engine

    assert set(engine.host_acts()) == set(A.ADMIN_ACTS) == {unit[0].KIND for unit in A.ACTIONS}
    assert not set(engine.action_kinds()) & set(A.ADMIN_ACTS)
    with pytest.raises(BadEncoding, match="unknown action kind 'admin.add-money'"):
        engine.action_from_obj({"kind": "admin.add-money", "power": "FR", "amount": 5})
    with pytest.raises(IllegalAction, match="not an action of this game"):
        engine.verify_action(state, "RU", A.AddMoney("RU", 5), None)
    ctx = engine.HostContext()
    assert engine.apply_host_act(state, A.AddMoney("RU", 5), ctx).events[0].author == engine.HOST
    listed = engine.legal_host_acts(state, ctx)
    assert A.SkipSlot("RU") in listed and A.SkipSlot("FR") not in listed
    assert not any(isinstance(a, A.AiPlay) for a in listed)  # the computer plays only with the admin file's dice
    assert not any(isinstance(a, A.ChangeOption) for a in listed)  # 4.1.1: Allow Option Changes During Game is off


def test_an_admin_act_without_a_command_of_its_own_gets_one_from_its_fields(monkeypatch):
    """A new admin act needs no command written by hand: the admin menu makes one from its fields."""
    from dataclasses import dataclass

    import click

    from eiapbem.cli import admin_acts_cmd
    from eiapbem.rules import engine
    from eiapbem.rules.model import Record
    from eiapbem.rules.model.common import PowerId

    @dataclass(frozen=True, slots=True)
    class Salute(Record):
        """Fire a salute for a major power (a test act)."""

        KIND = "admin.salute"
        power: PowerId
        guns: int = 21

    engine.host_acts()
    monkeypatch.setattr(engine, "_HOST_ACTS", dict(engine._HOST_ACTS))
    engine._register_host_act(Salute, lambda *a: None, lambda s, h, a, c: engine.Outcome(s), lambda s, h, c: ())
    cli = click.Group("eiapbem")
    admin_acts_cmd.register(cli)
    made = cli.commands["admin"].commands["salute"]
    assert made.help == "Fire a salute for a major power (a test act)."
    assert {"--power", "--guns", "--game", "--password"} <= {o for p in made.params for o in p.opts}
    assert "late-notice" not in cli.commands["admin"].commands  # written by the lateness ladder only
