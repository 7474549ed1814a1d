"""The game options of 4.1.1 (000:26-52) that no other test module covers: each changes what it says.

docs/decisions.md ("Game options") lists all thirteen with where each acts and the test of each."""

import pytest
from battlekit import corps, ctx, land_state, play

from eiapbem.client import fog, newgame, show
from eiapbem.client.session import Session
from eiapbem.core.errors import IllegalAction
from eiapbem.rules import engine
from eiapbem.rules.combat.field import start_field_battle
from eiapbem.rules.land.movement import MoveUnit, winter_movement
from eiapbem.rules.model import POWERS, Date, Options

C = ctx()


def _battle(**options):
    s = land_state(**options)
    s = corps(s, "corps:FR:I", "ulm", infantry=10, cavalry=2)
    s = corps(s, "corps:AU:I", "ulm", infantry=8)
    out = start_field_battle(s, "ulm", ["corps:FR:I"], ["corps:AU:I"], C)
    bid = next(iter(out.state.battles))
    return play(out.state, bid, C), bid


def test_fog_of_war_hides_others_battles_from_the_log_the_report_and_show():
    for on in (False, True):
        s, bid = _battle(fog_of_war=on)
        lines = {e.kind: e for e in s.log if e.kind in ("battle.start", "battle.end")}
        start, end = lines["battle.start"], lines["battle.end"]
        # The two sides always read the whole line.
        assert fog.log_text(s, end, {"FR"}) == end.text and fog.log_text(s, start, {"AU"}) == start.text
        fog.check_report(s, bid, {"AU"})
        seen = fog.log_text(s, end, {"GB"})
        area = show.area(s, C.map, "ulm", {"GB"})
        if on:
            assert seen == "the battle in ulm is over" and fog.log_text(s, start, {"RU"}) == "a battle is fought in ulm"
            with pytest.raises(IllegalAction, match="Fog of War"):
                fog.check_report(s, bid, {"GB"})
            assert any("strength hidden" in line for line in area)
            assert not any("strength hidden" in line for line in show.area(s, C.map, "ulm", {"FR"}) if "corps:FR:I" in line)
        else:
            assert seen == end.text
            fog.check_report(s, bid, {"GB"})
            assert not any("strength hidden" in line for line in area)


def test_the_log_of_the_journal_and_the_fog_table_is_the_log_of_the_state():
    """``showtext.log_json`` (a fresh ``log`` making the lines before those the status record keeps, from the
    journal's segments, with no rules) gives every line as ``fog.log_record`` does, from ``fog.battle_table``: the
    battle seen or not, fought by nobody watching, and gone from the state."""
    from dataclasses import replace

    from eiapbem.client import showtext

    for on in (False, True):
        s, bid = _battle(fog_of_war=on)
        gone = s.replace(battles=s.battles.remove(bid))  # a battle the state no longer holds
        lines = list(s.log) + [replace(e, params=e.params.set("battle", "battle:none")) for e in s.log
                               if e.kind == "battle.end"]
        for st in (s, gone):
            for vs in ({"FR"}, {"AU"}, {"GB"}, {"GB", "RU"}):
                for e in lines:
                    assert showtext.log_json(e.to_obj(), fog.battle_table(st, vs)) == fog.log_record(st, e, vs)
        assert (fog.battle_table(s, {"GB"}) is None) is not on


def test_lille_sea_crossing_is_used_only_with_its_option():
    for on in (False, True):
        s = land_state(use_lille_sea_crossing=on).with_war("FR", "GB", Date(1805, 9), ("FR",))
        s = corps(s, "corps:FR:I", "lille", infantry=5)
        move = MoveUnit(unit="corps:FR:I", path="london")
        if on:
            assert _why(s, move) == ""  # the crossing arrow London-Lille may be used (000:50)
        else:
            assert "lille sea crossing option" in _why(s, move)


def _why(s, action):
    try:
        engine.verify_action(s, "FR", action, C)
    except IllegalAction as err:
        return str(err)
    return ""


def test_winter_land_movement_applies_only_with_its_option_and_in_winter():
    # 13.1.3 (000:2370), 4.1.1: the optional winter land movement.
    assert winter_movement(land_state(winter_land_movement=True).replace(date=Date(1806, 1)))
    assert not winter_movement(land_state(winter_land_movement=False).replace(date=Date(1806, 1)))
    assert not winter_movement(land_state(winter_land_movement=True))  # September


def _players():
    return [newgame.Player(p, f"Player {p}", f"{p.lower()}@example.org", "host" if p == "RU" else "hotseat")
            for p in POWERS]


@pytest.fixture
def fast(monkeypatch):
    from eiapbem.client.session import TEST_SCRYPT_ENV

    monkeypatch.setenv(TEST_SCRYPT_ENV, "10,1,1")


def test_hotseat_passwords_off_lets_a_power_at_the_host_use_the_host_password(tmp_path, fast):
    newgame.new_game(tmp_path, "Off", "classic-1805", _players(), bids={}, options=Options(),
                     passwords={"RU": "pw-RU"}, host_password="pw-host")
    assert Session.open(tmp_path, "Off", "TU", "pw-host").power == "TU"
    assert Session.open(tmp_path, "Off", "RU", "pw-RU").power == "RU"


def test_hotseat_passwords_on_needs_one_password_per_power_and_no_two_alike(tmp_path, fast):
    opts = Options(pbem_hotseat_passwords=True)
    with pytest.raises(IllegalAction, match="needs its own password"):
        newgame.new_game(tmp_path, "On", "classic-1805", _players(), bids={}, options=opts,
                         passwords={"RU": "pw-RU"}, host_password="pw-host")
    same = {p: "pw-RU" if p == "TU" else f"pw-{p}" for p in POWERS}
    with pytest.raises(IllegalAction, match="TU's password is the same as RU's"):
        newgame.new_game(tmp_path, "On", "classic-1805", _players(), bids={}, options=opts, passwords=same,
                         host_password="pw-host")
    newgame.new_game(tmp_path, "On", "classic-1805", _players(), bids={}, options=opts,
                     passwords={p: f"pw-{p}" for p in POWERS}, host_password="pw-host")
    with pytest.raises(Exception, match="password"):
        Session.open(tmp_path, "On", "TU", "pw-host")


# ----------------------------------------------------------------- Third Party Combat System (000:36)


def _external_battle(on=True):
    s = land_state(third_party_combat_system=on)
    s = corps(s, "corps:FR:I", "ulm", infantry=10, cavalry=2)
    s = corps(s, "corps:AU:I", "ulm", infantry=8)
    out = start_field_battle(s, "ulm", ["corps:FR:I"], ["corps:AU:I"], C)
    return out.state, next(iter(out.state.battles))


def test_third_party_combat_waits_for_a_result_signed_by_both_sides(tmp_path):
    from pbem_game import GID, identities

    from eiapbem.client import external
    from eiapbem.pbem.errors import BadSignature
    from eiapbem.rules.combat.external import ExternalResult

    off, _ = _external_battle(on=False)
    assert next(iter(off.battles.values())).stage != "external" and off.pending  # the program asks its questions
    s, bid = _external_battle()
    assert s.battles[bid].stage == "external" and not s.pending
    assert any("third party combat" in o for o in engine.unmet_obligations(s, "FR", C))

    ids = identities()
    roster = {r: i.public() for r, i in ids.items()}
    path = tmp_path / "ulm.result"
    losses = ["corps:AU:I=infantry:3", "corps:FR:I=infantry:1"]
    external.write(path, s, ids["FR"], GID, bid, "attacker", losses)
    with pytest.raises(IllegalAction, match="not signed by AU yet"):
        external.import_action(path, s, GID, roster)
    with pytest.raises(IllegalAction, match="GB did not fight"):
        external.countersign(path, s, ids["GB"], GID, roster)
    external.countersign(path, s, ids["AU"], GID, roster)
    action = external.import_action(path, s, GID, roster)
    external.check_actions([action], GID, roster, "the turn file")
    # A result changed after signing is refused by every client that loads it.
    forged = action.replace(winner="defender")
    with pytest.raises(BadSignature, match="does not match"):
        external.check_actions([forged], GID, roster, "the turn file")
    with pytest.raises(IllegalAction, match="signed by AU and FR"):
        engine.verify_action(s, "FR", action.replace(signatures=action.signatures[:1]), C)

    out = engine.apply_action(s, "FR", action, C).state
    b = out.battles[bid]
    assert b.finished and b.winner == "attacker" and "third party combat system" in b.result
    assert out.units["corps:FR:I"].factors.infantry == 9
    au = out.units["corps:AU:I"]
    assert au.factors.infantry == 5 and au.location.site != "ulm"  # the loser retreated (11.2.13)
    assert not any("third party" in o for o in engine.unmet_obligations(out, "FR", C))
    # The option off: the action is refused.
    with pytest.raises(IllegalAction, match="does not use the Third Party Combat System"):
        engine.verify_action(land_state(), "FR", ExternalResult(battle=bid, winner="none"), C)


def test_fog_of_war_filters_the_json_records_and_show_units_like_the_text():
    for on in (False, True):
        s, bid = _battle(fog_of_war=on)
        recs = show.units(s, "AU")
        au = next(r for r in recs if r["id"] == "corps:AU:I")
        assert au["strength"] > 0 and au["factors"]
        seen = {r["id"]: r for r in fog.filter_records(s, recs, {"GB"})}["corps:AU:I"]
        own = {r["id"]: r for r in fog.filter_records(s, recs, {"AU"})}["corps:AU:I"]
        assert own == au  # the owner always sees its own
        area = fog.filter_records(s, show.area_record(s, C.map, "ulm")["units"], {"GB"})
        lines = show.units_lines(fog.filter_records(s, recs, {"GB"}), "AU")
        power = fog.power_record(s, show.power_record(s, "AU"), {"GB"})
        end = next(e for e in s.log if e.kind == "battle.end")
        logged = fog.log_record(s, end, {"GB"})
        if on:
            assert seen["strength"] is None and seen["hidden"] and "factors" not in seen
            assert all(r["strength"] is None for r in area if r["kind"] == "corps")
            assert any("strength hidden" in line for line in lines if "corps:AU:I" in line)
            assert power["on_map"]["factors"] is None and power["to_place"] is None
            assert any("strength hidden" in line for line in show.power(s, "AU", {"GB"}))
            assert logged["text"] == "the battle in ulm is over" and set(logged["params"]) <= {"battle", "siege"}
            assert fog.log_record(s, end, {"FR"})["params"] == dict(end.params)
        else:
            assert seen == au and not any("hidden" in r for r in area)
            assert power == show.power_record(s, "AU") and logged["text"] == end.text
            assert not any("strength hidden" in line for line in lines)
