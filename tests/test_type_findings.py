"""Bugs the type checker found (issue 14 item 7), each pinned by a test."""

from __future__ import annotations

from eiapbem.data import world
from eiapbem.rules.model import MinorStatus
from eiapbem.rules.scenario import initial_state

START = initial_state(world.load_scenario("classic-1805"), world.load_raw())


def test_conquering_a_minor_with_depots_in_the_game_does_not_crash():
    """Found by the type checker (issue 14 item 7): a depot has no nation, and every game has depots."""
    from eiapbem.rules.land import conquest

    assert any(u.startswith("depot:") for u in START.units)
    s = START.with_power("FR", minor_wars=START.powers["FR"].minor_wars.set("bavaria", START.date))
    out = conquest.conquer(s, "bavaria", "FR")
    assert out.state.minors["bavaria"].status is MinorStatus.CONQUERED
    assert out.state.minors["bavaria"].controller == "FR"
    assert "bavaria" not in out.state.powers["FR"].minor_wars


def test_enemy_forces_in_a_minor_ignore_depots():
    """A depot standing in a minor's territory is no force and has no nation (6.6; the same finding as above)."""
    from eiapbem.core.dice import Dice
    from eiapbem.data.context import rules_context
    from eiapbem.rules.diplomacy.common import territory
    from eiapbem.rules.diplomacy.minor_orders import _enemy_forces_inside
    from eiapbem.rules.model import Location, LocationKind

    ctx = rules_context(Dice(bytes(32)))
    area = sorted(territory(START, ctx, "bavaria"))[0]
    depot = next(k for k in START.units if k.startswith("depot:AU:"))
    s = START.replace(units=START.units.set(depot, START.units[depot].replace(location=Location(LocationKind.AREA, area))))
    assert _enemy_forces_inside(s, ctx, "FR", "bavaria") is False
