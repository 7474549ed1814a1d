"""A breach in a computer-held city's walls is answered as a player would (11.4.1, 000:1972-1990; issue 28 item 5).

On a breach the garrison may surrender (every factor a prisoner, no political points) or the besieger must storm
it: 5-1 against 5-2, at most three rounds; not won, the siege goes on. A storm's morale losses do not depend on the
numbers, so a garrison holds about half the storms up to 3:1: the computer fights a breach unless the storm is
hopeless as its level judges it (``ai.odds.storm_holds``), and either side takes a storm's casualties from its
cheapest factors. Each situation is a seeded position on the packaged map, Prussia's garrison of Berlin besieged by
French corps in France's land slot, both powers computers; the tests assert the behaviour, not the exact move.
"""

from __future__ import annotations

import pytest

from battlekit import corps, ctx, land_state
from eiapbem import ai
from eiapbem.ai import odds
from eiapbem.ai.levels import level
from eiapbem.rules.combat.sieges import start_siege_assault
from eiapbem.rules.model import Date, Factors, Garrison, Location, LocationKind, Phase, PlayerKind, Slot

LEVELS = ("ai-easy", "ai-medium", "ai-hard")


def _asked(kind: str, garrison: int, die: int, question: str, **besiegers):
    """Berlin (siege value 1) held by ``garrison`` Prussian infantry factors, besieged by one French corps of
    ``besiegers``; an assault attempt on ``die``: Prussia is asked ``question``."""
    s = land_state().with_war("FR", "PR", Date(1805, 6), ("FR",))
    s = s.replace(slot=Slot(phase=Phase.LAND, step="turn", power="FR", actors=("FR",)))
    for p in ("FR", "PR"):
        s = s.with_power(p, controller=PlayerKind(kind))
    s = s.with_unit(Garrison(id="garrison:PR:city:berlin", nation="PR", location=Location(LocationKind.CITY, "berlin"),
                             factors=Factors(infantry=garrison)))
    s = corps(s, "corps:FR:I", "berlin", **besiegers)
    s = s.with_unit(s.units["corps:FR:I"].replace(besieging=True))
    c = ctx(question.encode(), forced={"siege/1805-09.berlin.1/attempt": die})
    s = start_siege_assault(s, "berlin", "FR", c).state
    (d,) = [d for d in s.pending.values() if d.kind == question]
    assert d.power == "PR"
    return s, d, c


def _breach(kind: str, garrison: int, **besiegers):
    """A die of 6 breaches the walls: Prussia is asked to surrender or fight."""
    return _asked(kind, garrison, 6, "siege.surrender", **besiegers)


@pytest.mark.parametrize("kind", LEVELS)
def test_a_strong_garrison_fights_a_breach(kind):
    # 12 factors against 20 infantry and 4 cavalry (2:1): the storm is held about half the time
    s, d, c = _breach(kind, 12, infantry=20, cavalry=4)
    assert ai.answer(s, d, c).choice == "fight", kind
    out = ai.settle(s, c).state
    siege = out.sieges["1805-09.berlin.1"]
    assert siege.step == "done" and siege.rounds and siege.outcome in ("captured", "resumed"), kind
    if kind != "ai-easy" and out.units["corps:FR:I"].factors.infantry > 0:
        # the besieger's casualties come from its infantry: its cavalry is kept
        assert out.units["corps:FR:I"].factors.cavalry == 4, kind


@pytest.mark.parametrize("kind", LEVELS)
def test_a_hopeless_garrison_surrenders_a_breach(kind):
    # 2 factors against 40 (20:1): the first round of the storm destroys them; they surrender as prisoners
    s, d, c = _breach(kind, 2, infantry=40)
    assert ai.answer(s, d, c).choice == "surrender", kind
    out = ai.settle(s, c).state
    assert out.sieges["1805-09.berlin.1"].outcome == "surrendered", kind
    assert "garrison:PR:city:berlin" not in out.units and out.city_control["berlin"].nation == "FR"


def test_the_hard_level_plays_an_uncertain_storm_forward():
    # 10 factors against 50 (5:1): neither clearly held nor clearly lost; the storm is played with the rules' engine
    s, d, c = _breach("ai-hard", 10, infantry=50)
    lvl = level(PlayerKind.AI_HARD)
    b = ai.Builder(s, "PR", c)
    est = odds.storm_estimate(s, c, lvl, s.sieges["1805-09.berlin.1"])
    assert odds.STORM_OPEN <= est.odds < odds.STORM_SURE
    played = odds.simulate_storm(b, d, lvl.samples)
    assert played is not None and played.samples == lvl.samples and played.enemy_lost > 0
    assert ai.answer(s, d, c).choice == ("fight" if played.wins * 100 >= odds.HOLDS * played.samples else "surrender")
    assert s.pending[d.id] == d  # judging it changed nothing


def _sortie(kind: str, garrison: int):
    """A die of 1 gives "sortie?" against a French corps of 10: Prussia is asked whether its garrison sorties."""
    return _asked(kind, garrison, 1, "siege.sortie", infantry=10)


@pytest.mark.parametrize("kind", LEVELS)
def test_a_garrison_sorties_unless_it_may_lose_its_last_factor(kind):
    # a sortie costs the besiegers a factor on 1-4 and the garrison one on 5-6: worth it for 3 factors; a single
    # factor lost would leave the city to the besiegers (11.4.1), so it stays inside
    s, d, c = _sortie(kind, 3)
    assert ai.answer(s, d, c).choice == "sortie", kind
    s, d, c = _sortie(kind, 1)
    assert ai.answer(s, d, c).choice == "stay", kind
    out = ai.settle(s, c).state
    assert out.units["garrison:PR:city:berlin"].factors.total == 1, kind
    assert out.sieges["1805-09.berlin.1"].outcome == "nothing" and "berlin" not in out.city_control, kind
