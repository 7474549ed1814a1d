"""``show reach``: where a corps can still go in the land phase, asked of the movement rules (4.1.2, 10.4)."""

import pytest

from battlekit import corps, ctx, land_state
from eiapbem.client.reach import corps_reach
from eiapbem.core.errors import IllegalAction
from eiapbem.rules import engine
from eiapbem.rules.land.movement import MoveUnit, plan_move
from eiapbem.rules.model import POWERS

C = ctx()


def test_every_area_shown_is_a_move_the_rules_accept_at_the_cost_shown():
    s = corps(land_state(), "corps:FR:V", "strasbourg", infantry=10)
    r = corps_reach(s, C, "FR", "corps:FR:V")
    assert r.at == "strasbourg" and r.spent == 0 and r.allowance >= 3 and r.areas
    for a in r.areas:
        plan = plan_move(s, "FR", MoveUnit(unit="corps:FR:V", path=",".join(a.path)), C)
        assert plan.end.site == a.area and plan.record.spent == a.cost <= r.allowance
    assert [a.cost for a in r.areas] == sorted(a.cost for a in r.areas)  # cheapest first
    # Nothing the rules refuse is left out: every next-door area the rules accept is listed.
    for n in C.map.land_neighbours("strasbourg"):
        try:
            plan_move(s, "FR", MoveUnit(unit="corps:FR:V", path=n), C)
        except IllegalAction:
            continue
        assert n in {a.area for a in r.areas}


def test_points_spent_earlier_and_forced_march_change_the_reach():
    s = corps(land_state(), "corps:FR:V", "strasbourg", infantry=10)
    before = corps_reach(s, C, "FR", "corps:FR:V")
    s2 = engine.apply_action(s, "FR", MoveUnit(unit="corps:FR:V", path="nancy"), C).state
    after = corps_reach(s2, C, "FR", "corps:FR:V")
    assert after.at == "nancy" and after.spent == 1
    assert max(a.cost for a in after.areas) <= after.allowance - 1
    forced = corps_reach(s, C, "FR", "corps:FR:V", forced_march=True)
    assert forced.allowance == before.allowance + 1 and len(forced.areas) > len(before.areas)


def test_an_enemy_corps_stops_the_path_and_a_halted_corps_cannot_move():
    s = corps(land_state(), "corps:FR:V", "strasbourg", infantry=10)
    s = corps(s, "corps:AU:I", "nancy", infantry=5)
    r = corps_reach(s, C, "FR", "corps:FR:V")
    nancy = next(a for a in r.areas if a.area == "nancy")
    assert nancy.halts and "corps:AU:I" in nancy.halts
    assert all(a.path[:1] != ("nancy",) or a.area == "nancy" for a in r.areas)  # nothing beyond nancy through it
    halted = engine.apply_action(s, "FR", MoveUnit(unit="corps:FR:V", path="nancy"), C).state
    with pytest.raises(IllegalAction, match="corps:FR:V cannot move now: .*ended its movement in nancy"):
        corps_reach(halted, C, "FR", "corps:FR:V")
    with pytest.raises(IllegalAction, match="not a corps on the map"):
        corps_reach(s, C, "FR", "corps:FR:nope")


# ----------------------------------------------------------------- the search against the rules asked path by path


def _by_whole_paths(state, c, power, unit_id, forced_march=False):
    """A corps' reach as the rules give it path by path: ``plan_move`` asked of each whole path the search tries
    (the search before ``land.movement.enter``), the answer ``land.movement.reach`` must give."""
    from eiapbem.rules.land.movement import Reach, UnitReach, _neighbours

    unit = state.units[unit_id]
    here, ma = unit.location.site, 0
    prior = state.land_moves.get(unit_id)
    spent_before = prior.spent if prior is not None else 0
    best, frontier, first_refusal = {}, [(0, here, ())], None
    while frontier:
        frontier.sort()
        cost, at, path = frontier.pop(0)
        if at in best and best[at].cost <= cost and best[at].path != path:
            continue
        for to in _neighbours(c.map, at):
            if to == here or to in path:
                continue
            new = path + (to,)
            try:
                plan = plan_move(state, power, MoveUnit(unit=unit_id, path=",".join(new), forced_march=forced_march), c)
            except IllegalAction as err:
                if not path and first_refusal is None:
                    first_refusal = str(err)
                continue
            ma, cst = plan.allowance, plan.record.spent - spent_before
            old = best.get(to)
            if old is not None and (old.cost, old.path) <= (cst, new):
                continue
            best[to] = Reach(to, cst, new, plan.halt_reason)
            if plan.halt_reason is None:
                frontier.append((cst, to, new))
    if not best and first_refusal is not None:
        raise IllegalAction(f"{unit_id} cannot move now: {first_refusal}")
    return UnitReach(unit_id, here, ma, spent_before, forced_march, tuple(sorted(best.values(), key=lambda r: (r.cost, r.area))))


def _fleet_by_whole_paths(state, c, power, unit_id, stack=False):
    """A fleet's reach with ``naval.movement.plan_move`` asked of each whole path (the search before ``_step``)."""
    from eiapbem.rules.land.movement import Reach, UnitReach
    from eiapbem.rules.naval import graph
    from eiapbem.rules.naval.common import record_of
    from eiapbem.rules.naval.movement import MoveFleet
    from eiapbem.rules.naval.movement import plan_move as naval_plan

    here = state.units[unit_id].location
    spent_before = record_of(state, state.units[unit_id]).spent
    best, frontier, first_refusal = {}, [(0, graph.place_name(here), (here,))], None
    while frontier:
        frontier.sort(key=lambda f: (f[0], f[1]))
        cost, name, places = frontier.pop(0)
        if name in best and best[name].cost < cost:
            continue
        for to, step in graph.neighbours(c.map, places[-1]):
            if to in places:
                continue
            new = places + (to,)
            path = tuple(graph.place_name(p) for p in new[1:])
            try:
                plan = naval_plan(state, power, MoveFleet(fleet=unit_id, path=",".join(path), stack=stack), c)
            except IllegalAction as err:
                if "may not stay in" in str(err) and cost + step <= graph.NAVAL_ALLOWANCE - spent_before:
                    frontier.append((cost + step, graph.place_name(to), new))
                elif len(new) == 2 and first_refusal is None:
                    first_refusal = str(err)
                continue
            cst, key = sum(k for _, k in plan.steps), graph.place_name(to)
            old = best.get(key)
            if old is not None and (old.cost, len(old.path)) <= (cst, len(path)):
                continue
            best[key] = Reach(key, cst, path, None)
            frontier.append((cst, key, new))
    if not best and first_refusal is not None:
        raise IllegalAction(f"{unit_id} cannot move now: {first_refusal}")
    return UnitReach(unit_id, graph.place_name(here), graph.NAVAL_ALLOWANCE, spent_before, False,
                     tuple(sorted(best.values(), key=lambda r: (r.cost, r.area))))


def _same(fast, slow, *args, **kw):
    """Both searches give the same reach, or refuse with the same sentence."""
    try:
        want = slow(*args, **kw)
    except IllegalAction as err:
        with pytest.raises(IllegalAction) as got:
            fast(*args, **kw)
        assert str(got.value) == str(err)
        return None
    assert fast(*args, **kw) == want
    return want


@pytest.fixture(scope="module")
def set_up():
    """The classic game after every power's default setup, and a rules context."""
    from eiapbem.client.autoplay import default_actions
    from eiapbem.core.dice import Dice
    from eiapbem.data import world
    from eiapbem.data.context import rules_context
    from eiapbem.rules.model import Phase, Slot
    from eiapbem.rules.scenario import initial_state
    from eiapbem.rules.sequence import SETUP_ORDER

    c = rules_context(Dice(b"reach"))
    s = initial_state(world.load_scenario("classic-1805"), world.load_raw())
    for p in SETUP_ORDER:
        s = s.replace(slot=Slot(phase=Phase.SETUP, step="turn", power=p, actors=(p,)))
        for a in default_actions("classic-1805", p, None):
            s = engine.apply_action(s, p, a, c).state
    return s.replace(slot=Slot(phase=Phase.LAND, step="turn", power="FR", actors=("FR",))), c


def _variants(s):
    """The set-up game in ways that change a reach: at war (enemy areas, a river into an enemy corps, a corps that
    must stop), enemy corps next to each corps, a full area, winter with its option, guerrillas and Cossacks."""
    from eiapbem.rules.model import Corps, Date, Location, LocationKind, Options

    for a, b in (("FR", "AU"), ("FR", "RU"), ("FR", "GB"), ("FR", "PR"), ("SP", "GB"), ("TU", "RU")):
        if b not in s.powers[a].wars:
            s = s.with_war(a, b, s.date, (a,))
    yield "at war", s
    on_map = sorted((u for u in s.units.values() if isinstance(u, Corps) and u.location.site), key=lambda u: u.id)
    near = s
    for i, u in enumerate(on_map):  # every corps moved next to another nation's corps
        other = on_map[(i * 7 + 3) % len(on_map)]
        ns = sorted(C.map.land_neighbours(other.location.site))
        if other.nation != u.nation and ns:
            near = near.with_unit(u.replace(location=Location(LocationKind.AREA, ns[i % len(ns)])))
    yield "side by side", near
    yield "winter", s.replace(date=Date(1806, 1), options=Options(winter_land_movement=True))
    full = s
    for p in POWERS:  # an area two borders from a corps of each power full (10.4.2): paths end short of it
        u = next(v for v in on_map if v.nation == p)
        one = sorted(C.map.land_neighbours(u.location.site))[0]
        two = next(a for a in sorted(C.map.land_neighbours(one)) if a != u.location.site)
        for k in range(30):
            full = corps(full, f"corps:{p}:x{k}", two, infantry=1)
    yield "full areas", full
    odd = corps(s, "corps:SP:g1", "madrid", infantry=1, corps_type="guerrilla")
    odd = corps(odd, "corps:RU:c1", "vilna", cavalry=2, corps_type="cossack")
    yield "guerrilla and cossack", odd


def test_the_search_gives_what_the_rules_give_path_by_path(set_up):
    """``land.movement.reach`` and ``naval.movement.reach`` extend a path by one step (``enter``, ``_step``) instead of
    asking ``plan_move`` of the whole path: every corps' and fleet's reach of every power, with and without a forced
    march and as a stack, in the set-up game in several states, and after a first move, is the same."""
    from eiapbem.rules.land.movement import reach as corps_search
    from eiapbem.rules.model import Corps, Fleet, Phase, Slot
    from eiapbem.rules.naval.movement import reach as fleet_search

    base, c = set_up
    compared = moved = 0
    for name, s in _variants(base):
        for p in POWERS:
            mine = {p, *s.free_states(p)}
            st = s.replace(slot=Slot(phase=Phase.LAND, step="turn", power=p, actors=(p,)))
            for uid, u in sorted(st.units.items()):
                if not u.location.site or getattr(u, "nation", None) not in mine:
                    continue
                if isinstance(u, Corps):
                    for fm in (False, True):
                        got = _same(corps_search, _by_whole_paths, st, c, p, uid, forced_march=fm)
                        compared += 1
                        if got and got.areas and not fm:  # a first move made: points spent, areas passed
                            first = got.areas[len(got.areas) // 2]
                            if first.halts is None:
                                after = engine.apply_action(st, p, MoveUnit(uid, ",".join(first.path)), c).state
                                _same(corps_search, _by_whole_paths, after, c, p, uid, forced_march=fm)
                                moved += 1
                elif isinstance(u, Fleet) and name in ("at war", "winter"):  # the other states change no fleet's
                    for stack in (False, True):
                        _same(fleet_search, _fleet_by_whole_paths, st, c, p, uid, stack=stack)
                        compared += 1
    assert compared > 500 and moved > 100
