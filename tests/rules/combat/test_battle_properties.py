"""Properties of the battle machine over random forces, dice and decisions (11.2, 11.3).

- no force ever has negative factors, and losses never exceed the force;
- the same dice and decisions always give the same result;
- a battle suspended at every decision (state encoded, decoded, new dice
  object from the same seed) ends in the same state as one run straight through.
"""

from __future__ import annotations

from battlekit import answer, corps, ctx, land_state, leader, pending_of
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from eiapbem.rules.combat.battle import force_factors
from eiapbem.rules.combat.field import start_field_battle
from eiapbem.rules.model import Depot, Factors, GameState, Garrison, Location, LocationKind, garrison_id

AREAS = ("ulm", "messina", "oldenburg", "innsbruck", "augsburg")
LEADERS = {"FR": ("leader:FR:napoleon", "leader:FR:murat"), "AU": ("leader:AU:charles", "leader:AU:liechtenstein")}


@st.composite
def battles(draw):
    area = draw(st.sampled_from(AREAS))
    options = {k: draw(st.booleans()) for k in ("guard_commitment", "leader_casualties", "pbem_quick_combat")}
    s = land_state(**options)
    sides = {}
    for power in ("FR", "AU"):
        ids = []
        for i in range(draw(st.integers(1, 3))):
            cid = f"corps:{power}:{i + 1}"
            f = dict(
                infantry=draw(st.integers(0, 15)), militia=draw(st.integers(0, 5)), cavalry=draw(st.integers(0, 5)),
                guard=draw(st.integers(0, 3)), artillery=draw(st.integers(0, 3)) if power == "FR" else 0,
            )
            if sum(f.values()) == 0:
                f["infantry"] = 1
            s = corps(s, cid, area, **f)
            ids.append(cid)
        if draw(st.booleans()):
            s = leader(s, draw(st.sampled_from(LEADERS[power])), ids[0])
        sides[power] = ids
    if draw(st.booleans()):  # irregulars go with an outflanking force (000:1658)
        s = corps(s, "corps:FR:fk", area, freikorps=draw(st.integers(1, 3)), corps_type="freikorps")
        sides["FR"].append("corps:FR:fk")
    if draw(st.booleans()):  # a depot with its garrison (outflank exception, 11.2.14)
        where = Location(LocationKind.AREA, area)
        g = Garrison(id=garrison_id("AU", where), nation="AU", location=where,
                     factors=Factors(infantry=draw(st.integers(1, 4))))
        s = s.with_unit(g).with_unit(Depot(id="depot:AU:1", power="AU", location=where))
        sides["AU"].append(g.id)
    # friendly corps next door may reinforce
    if draw(st.booleans()) and area == "ulm":
        s = corps(s, "corps:AU:9", "augsburg", infantry=draw(st.integers(1, 8)))
        if draw(st.booleans()):
            s = leader(s, "leader:AU:mack", "corps:AU:9")
    if draw(st.booleans()) and area == "ulm":
        s = corps(s, "corps:FR:9", "stuttgart", infantry=draw(st.integers(1, 8)))
    seed = draw(st.binary(min_size=1, max_size=8))
    picks = draw(st.lists(st.integers(0, 50), min_size=1, max_size=30))
    return s, area, sides["FR"], sides["AU"], seed, picks


def _chooser(picks):
    n = [0]

    def choose(state, d):
        i = picks[n[0] % len(picks)]
        n[0] += 1
        return d.options[i % len(d.options)]

    return choose


def _fight(s, area, att, dfn, seed, picks, *, suspend: bool):
    choose = _chooser(picks)
    s = start_field_battle(s, area, att, dfn, ctx(seed)).state
    bid = next(iter(s.battles))
    steps = 0
    while pending_of(s, bid):
        d = sorted(pending_of(s, bid), key=lambda d: d.id)[0]
        c = ctx(seed)  # a fresh dice object each time: a resumed battle knows nothing of earlier rolls
        if suspend:
            s = GameState.decode(s.encode())
        s = answer(s, d, choose(s, d), c)
        steps += 1
        assert steps < 3000
        _check_forces(s, att + dfn)
    return s, bid


def _check_forces(s, units):
    for u in units:
        if u not in s.units:  # an emptied depot garrison is deleted (11.5)
            continue
        f = s.units[u].factors
        for name in f.__dataclass_fields__:
            assert getattr(f, name) >= 0


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(battles())
def test_losses_never_exceed_the_force_and_the_battle_ends(case):
    s0, area, att, dfn, seed, picks = case
    before = {u: s0.units[u].factors.total for u in att + dfn}
    s, bid = _fight(s0, area, att, dfn, seed, picks, suspend=False)
    b = s.battles[bid]
    assert b.finished
    for role, units in (("attacker", att), ("defender", dfn)):
        side = b.side(role)
        start = sum(before[u] for u in units) + sum(s0.units[u].factors.total for u in side.units if u not in units)
        now = force_factors(s, tuple(side.units)).total
        assert 0 <= now <= start
        assert side.factors_lost <= start
    for u in att + dfn:
        assert u not in s.units or s.units[u].factors.total >= 0


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(battles())
def test_same_dice_and_decisions_same_result_and_suspending_changes_nothing(case):
    s0, area, att, dfn, seed, picks = case
    straight, bid = _fight(s0, area, att, dfn, seed, picks, suspend=False)
    again, _ = _fight(s0, area, att, dfn, seed, picks, suspend=False)
    suspended, _ = _fight(s0, area, att, dfn, seed, picks, suspend=True)
    assert straight.state_hash() == again.state_hash()
    assert straight.first_difference(suspended) is None
    assert straight.state_hash() == suspended.state_hash()


def test_a_depot_garrison_emptied_on_day_one_does_not_break_day_two():
    """11.5 (000:2024): an emptied depot garrison leaves the map at the battle's end, not between days.

    Found by the property above: the garrison was deleted at the end of day 1 and the
    next day's steps looked it up by id (KeyError).
    """
    from eiapbem.rules.model import Depot, Factors, Garrison, Location, LocationKind

    s = land_state()
    s = corps(s, "corps:AU:1", "innsbruck", infantry=1)
    s = corps(s, "corps:FR:1", "innsbruck", cavalry=1, guard=3, artillery=1)
    s = corps(s, "corps:FR:2", "innsbruck", infantry=1)
    here = Location(LocationKind.AREA, "innsbruck")
    s = s.with_unit(Depot(id="depot:AU:1", power="AU", location=here))
    gid = "garrison:AU:area:innsbruck"
    s = s.with_unit(Garrison(id=gid, nation="AU", location=here, factors=Factors(infantry=1)))
    out, bid = _fight(s, "innsbruck", ["corps:FR:1", "corps:FR:2"], ["corps:AU:1", gid], b"\x00", [0, 1, 0], suspend=False)
    b = out.battles[bid]
    assert b.finished
    assert gid not in out.units or out.units[gid].factors.total > 0  # an emptied one is gone once the battle ends
