"""The computer makes war and peace and moves its fleets (issue 19 items 1-2), and the levels' strength measure (item 4).

The state after the classic-1805 default setups (every power the computer) is made once, in memory
(``client.duel.play`` with no month to play); the naval scenes are built by the rules-case harness.
"""

from __future__ import annotations

import pytest

from eiapbem import ai
from eiapbem.ai import grand
from eiapbem.ai.levels import level
from eiapbem.client import duel
from eiapbem.core.dice import Dice
from eiapbem.data.context import rules_context
from eiapbem.rules import engine
from eiapbem.rules.diplomacy.orders import AttemptInformalPeace, DeclareWar, SueForPeace
from eiapbem.rules.model import POWERS, Corps, Date, Factors, LocationKind, Phase, PlayerKind, Slot
from eiapbem.rules.model.slot import ORDERS
from eiapbem.rules.naval.attack import NavalAttack
from eiapbem.rulecases.scene import scene_state

HARD, MEDIUM, EASY = (level(k) for k in ("ai-hard", "ai-medium", "ai-easy"))


def ctx(seed: bytes = b"ai-war"):
    return rules_context(Dice(seed))


@pytest.fixture(scope="module")
def set_up():
    """1805-01, the diplomacy phase, every power set up by the computer (ai-hard)."""
    st = duel.start_state("classic-1805", {p: PlayerKind.AI_HARD for p in POWERS}, b"ai-war")
    st = duel.play(st, "classic-1805", b"ai-war", 0).state
    assert st.slot.phase is Phase.DIPLOMACY and not any(st.powers[p].wars for p in POWERS)
    return st.replace(slot=Slot(Phase.DIPLOMACY, ORDERS, None, POWERS))


def test_great_britain_goes_to_war_with_france_and_the_easy_level_rarely_declares(set_up):
    st = set_up
    # 15.0 natural alliance table: Britain's worst stance is toward France (-10); its fleet outweighs France's (8.0).
    assert grand.hostility("GB", "FR") == 10 and grand.balance(st, ctx(), "GB", "FR", "coalition") >= HARD.sea_war_ratio
    assert grand.war_target(st, ctx(), "GB", HARD) == "FR"
    # 6.2.2: an enforced peace forbids it, and the computer looks elsewhere or stays at peace
    bound = st.with_power("GB", enforced_peace=st.powers["GB"].enforced_peace.set("FR", st.date.plus(18)))
    assert grand.war_target(bound, ctx(), "GB", HARD) != "FR"
    # an ally is never a target; at its limit of wars (hard: one) it declares no other
    assert grand.war_target(st.with_alliance("GB", "FR", st.date), ctx(), "GB", HARD) != "FR"
    at_war = st.with_war("GB", "RU", st.date, ("GB",))
    assert grand.war_target(at_war, ctx(), "GB", HARD) is None
    # the easy level declares on a 1-10 roll of 2 or less: over twenty seeds, some months and not others
    rolls = [grand.war_target(st, ctx(f"seed-{i}".encode()), "GB", EASY) for i in range(20)]
    assert 0 < sum(1 for r in rolls if r is not None) < 20


def test_the_hard_level_declares_no_land_war_that_leaves_it_open_to_a_second_front(set_up):
    # At the start Austria (and Russia) outnumber Turkey two to one, but not Turkey and their strongest other land
    # neighbour together: without ``second_front`` the hard level would march on Turkey and leave its capital
    # open; with it, it declares nothing.  A war at sea (Great Britain on France) is not concerned.
    import dataclasses

    reckless = dataclasses.replace(HARD, second_front=False)
    assert HARD.second_front
    for p in ("AU", "RU"):
        assert grand.war_target(set_up, ctx(), p, reckless) == "TU"
        assert grand.war_target(set_up, ctx(), p, HARD) is None
    assert grand.war_target(set_up, ctx(), "GB", HARD) == "FR"


def test_a_declaration_is_a_legal_order_that_opens_the_war(set_up):
    st = set_up.with_power("GB", controller=PlayerKind.AI_HARD)
    orders = {p: list(ai.orders(st, p, ctx(p.encode()))) for p in POWERS}
    assert DeclareWar("FR") in orders["GB"]
    out = engine.resolve_slot(st, orders, ctx(b"resolve"))
    assert "FR" in out.state.powers["GB"].wars
    assert any("Great Britain declares war on France" in e.text for e in out.events)


def _without_corps(st, power):
    """Every corps of ``power`` on the map down to one infantry factor (a beaten army)."""
    for uid, u in sorted(st.units.items()):
        if isinstance(u, Corps) and u.nation == power and u.location.kind is not LocationKind.POOL:
            st = st.with_unit(u.replace(factors=Factors(infantry=1)))
    return st


def test_the_loser_sues_for_peace_and_the_level_decides_when(set_up):
    # Austria, its corps beaten down, at war with France for three months: the balance alone does not make the
    # hard level give up; with a French corps in Austria (a home area lost) it offers an informal peace (after 2
    # months) and sues 4 months later, the easy level (after 6) fights on; 6.4.2's limit is met (France is Austria's only enemy, with forces inside).
    since = Date(1804, 10)
    st = _without_corps(set_up, "AU").with_war("FR", "AU", since, ("FR",))
    assert grand.balance(st, ctx(), "AU", "FR", "coalition") < HARD.sue_ratio
    assert grand.suits(st, ctx(), "AU", HARD) == ({}, [])
    french = next(u for _, u in sorted(st.units.items()) if isinstance(u, Corps) and u.nation == "FR"
                  and u.location.kind is LocationKind.AREA)
    vienna = ctx().map.national_capitals("AU")[0]
    st = st.with_unit(french.replace(location=french.location.replace(site=vienna)))
    assert grand.home_lost(st, ctx(), "AU") >= 1
    # the hard level first offers an informal peace (no political points, 6.4.1) for informal_first months ...
    assert HARD.informal_first == 4 and grand.suits(st, ctx(), "AU", HARD) == ({}, ["FR"])
    assert grand.suits(st, ctx(), "AU", EASY) == ({}, [])
    # ... and sues (-5 or -8, 6.4.2) when the war still goes on after sue_after + informal_first months
    longer = Date(1804, 13 - HARD.sue_after - HARD.informal_first)  # the state is in January 1805
    st = st.with_war("FR", "AU", longer, ("FR",))
    assert grand.months_at_war(st, "AU", "FR") == HARD.sue_after + HARD.informal_first
    assert grand.suits(st, ctx(), "AU", HARD) == ({"FR": True}, [])
    st = st.with_power("AU", controller=PlayerKind.AI_HARD).with_power("FR", controller=PlayerKind.AI_HARD)
    orders = {p: list(ai.orders(st, p, ctx(p.encode()))) for p in POWERS}
    assert SueForPeace("FR", accept_unconditional=True) in orders["AU"]
    out = engine.resolve_slot(st, orders, ctx(b"resolve"))
    assert "AU" not in out.state.powers["FR"].wars
    # France (hard, sure_terms), the victor with Austria under 40% of its side, still gives conditional terms, the
    # royal marriage first: an unconditional surrender the loser may refuse earns nothing
    assert any("Austria surrenders conditionally to France, terms B.4" in e.text for e in out.events)


def test_the_levels_terms_and_informal_peace_follow_the_political_points(set_up):
    # A victor's royal marriage (B.4) is +2 political points (000:3205): the hard level asks it first; the easy
    # level asks the longer peace and reparations.  The hard level accepts an informal peace (6.4.1, no points)
    # in a war declared on it by an enemy it is not clearly beating (France declared on Austria here).
    from eiapbem.ai import diplomacy

    st = set_up.with_war("FR", "AU", Date(1804, 10), ("FR",))
    for p in POWERS:
        st = st.with_power(p, controller=PlayerKind.AI_HARD)
    b = ai.Builder(st, "AU", ctx())
    hard = diplomacy._settings(b, HARD, "FR")
    assert hard.terms[0] == "B.4" and hard.give_conditional
    r = grand.balance(st, ctx(), "AU", "FR", "coalition")
    assert hard.accept_informal and not grand.clearly_ahead(st, ctx(), "AU", "FR", r)
    beaten = _without_corps(st, "AU")
    b = ai.Builder(beaten, "FR", ctx())
    crushing = diplomacy._settings(b, MEDIUM, "AU")
    assert crushing.terms[0] == "B.4" and not crushing.give_conditional  # Austria under 40%: unconditional
    assert diplomacy._settings(b, HARD, "AU").give_conditional  # the hard level's sure terms
    # the hard level never makes an informal peace in a war it declared and is not losing (no second -3)
    assert not grand.accepts_informal(beaten, ctx(), "FR", "AU", HARD)
    assert not diplomacy._settings(b, HARD, "AU").accept_informal
    easy = diplomacy._settings(ai.Builder(st, "AU", ctx()), EASY, "FR")
    assert easy.terms == ("B.2", "B.3") and easy.accept_informal


def test_a_stalemate_ends_in_informal_peace_offered_by_the_defender(set_up):
    # Prussia declared on Russia a year ago; nobody is clearly ahead, nobody is losing.
    st = set_up.with_war("PR", "RU", Date(1804, 1), ("PR",))
    r = grand.balance(st, ctx(), "RU", "PR", "coalition")
    assert HARD.sue_ratio <= r < grand.AHEAD or r >= grand.AHEAD  # not losing, whatever the balance
    sue, informal = grand.suits(st, ctx(), "RU", HARD)
    if r < grand.AHEAD:
        assert informal == ["PR"] and not sue
    else:
        assert informal == [] and not sue
    # the aggressor offers nothing unless it is losing
    sue, informal = grand.suits(st, ctx(), "PR", HARD)
    assert "PR" not in informal and (not sue or grand.balance(st, ctx(), "PR", "RU", "coalition") < HARD.sue_ratio)
    orders = {p: [] for p in POWERS}
    orders["RU"] = [AttemptInformalPeace("PR")]
    st = st.with_power("PR", controller=PlayerKind.AI_EASY)
    # the easy level accepts an informal peace (its surrender settings, 6.4.1)
    easy_orders = list(ai.orders(st, "PR", ctx(b"PR")))
    out = engine.resolve_slot(st, {**orders, "PR": easy_orders}, ctx(b"resolve"))
    assert "RU" not in out.state.powers["PR"].wars


def test_alliances_are_asked_of_friends_at_war_with_the_same_enemy(set_up):
    st = set_up.with_war("FR", "AU", set_up.date, ("FR",)).with_war("FR", "RU", set_up.date, ("FR",))
    # 15.0: Austria -> Russia +1; both at war with France
    assert grand.alliance_wanted(st, ctx(), "AU", HARD) == ["RU"]
    assert grand.alliance_wanted(st, ctx(), "AU", EASY) == []


# ----------------------------------------------------------------- fleets


def scene(fleets, *, phasing="GB", wars=(("GB", "FR"),)):
    inp = {"date": "1805-06", "phasing": phasing, "wars": [list(w) for w in wars], "fleets": list(fleets)}
    return scene_state(inp, phase=Phase.NAVAL)


@pytest.mark.parametrize("kind,blockades", [("ai-hard", True), ("ai-medium", True), ("ai-easy", False)])
def test_a_strong_fleet_blockades_an_enemy_port(kind, blockades):
    s = scene([{"id": "fleet:GB:1", "location": "port:portsmouth", "heavy": 12},
               {"id": "fleet:FR:1", "location": "port:brest", "heavy": 3}])
    s = s.with_power("GB", controller=PlayerKind(kind))
    turn = ai.play_slot(s, "GB", ctx())
    loc = turn.state.units["fleet:GB:1"].location
    if blockades:
        assert loc.kind is LocationKind.BLOCKADE and grand_port_is_french(turn.state, loc.site)
    else:
        assert loc.kind is LocationKind.PORT and loc.site == "portsmouth"


def grand_port_is_french(state, port):
    from eiapbem.rules.naval.common import port_power

    return port_power(state, ctx(), port) == "FR"


def test_it_attacks_where_it_outnumbers_the_enemy_and_not_where_it_does_not():
    s = scene([{"id": "fleet:GB:1", "location": "sea:bay-of-biscay", "heavy": 12},
               {"id": "fleet:FR:1", "location": "sea:bay-of-biscay", "heavy": 3},
               {"id": "fleet:GB:2", "location": "sea:gulf-of-lion", "heavy": 3},
               {"id": "fleet:FR:2", "location": "sea:gulf-of-lion", "heavy": 3}])
    hard = ai.plan(s.with_power("GB", controller=PlayerKind.AI_HARD), "GB", ctx())
    attacks = [a for a in hard.actions if isinstance(a, NavalAttack)]
    assert attacks == [NavalAttack(place="bay-of-biscay")]  # 12 against 3 (hard: 150%); 3 against 3: no
    assert any(e.kind == "naval.combat" for e in hard.events)
    easy = ai.plan(s.with_power("GB", controller=PlayerKind.AI_EASY), "GB", ctx())
    assert not any(isinstance(a, NavalAttack) for a in easy.actions)


def _invasion_scene(kind, corps=({"id": "corps:GB:1", "location": "area:portsmouth", "infantry": 4},)):
    s = scene_state({"date": "1805-06", "phasing": "GB", "wars": [["GB", "FR"]],
                     "fleets": [{"id": "fleet:GB:1", "location": "port:portsmouth", "heavy": 10, "transport": 4}],
                     "corps": list(corps)}, phase=Phase.NAVAL)
    s = s.with_war("GB", "FR", s.date.plus(-2), ("GB",))  # a war of this month is not invaded yet
    for p in POWERS:
        s = s.with_power(p, controller=PlayerKind(kind))
    return s


def _to_gb_land_slot(st):
    """Every slot after GB's naval one played by the computer, up to GB's land slot (14 at most)."""
    for i in range(14):
        if st.slot.phase is Phase.LAND and st.slot.power == "GB":
            return st
        st = ai.play_slot(st, st.slot.power, ctx(f"slot-{i}".encode())).state
    raise AssertionError(f"GB's land slot never came: {st.slot}")


@pytest.mark.parametrize("kind", ["ai-hard", "ai-medium"])
def test_great_britain_carries_a_corps_across_the_channel_and_lands_it_in_france(kind):
    from eiapbem.rules.control import area_holder
    from eiapbem.rules.naval.transport import Disembark, Load

    s = _invasion_scene(kind, corps=({"id": "corps:GB:1", "location": "area:portsmouth", "infantry": 4},
                                     {"id": "corps:GB:2", "location": "area:portsmouth", "infantry": 2}))
    naval = ai.play_slot(s, "GB", ctx())
    # 8.6: both corps board (the bigger first; medium and hard carry several), the warships sail with them to sea
    loads = [a for a in naval.actions if isinstance(a, Load)]
    assert loads == [Load(fleet="fleet:GB:1", corps="corps:GB:1"), Load(fleet="fleet:GB:1", corps="corps:GB:2")]
    st = naval.state
    assert st.units["corps:GB:1"].location.kind is LocationKind.ABOARD
    assert st.units["fleet:GB:1"].location.kind is LocationKind.SEA
    land = ai.play_slot(_to_gb_land_slot(st), "GB", ctx(b"land"))
    landed = [a for a in land.actions if isinstance(a, Disembark)]
    assert [a.corps for a in landed] == ["corps:GB:1", "corps:GB:2"]
    where = land.state.units["corps:GB:1"].location
    assert where.kind is LocationKind.AREA and area_holder(land.state, ctx(), where.site) == "FR"
    assert len({a.area for a in landed}) == 1  # landed together
    assert not any(e.kind == "naval.lost-aboard" for e in land.events)


def test_the_easy_level_makes_no_invasion():
    s = _invasion_scene("ai-easy")
    naval = ai.play_slot(s, "GB", ctx())
    assert naval.state.units["corps:GB:1"].location.kind is LocationKind.AREA


def test_a_corps_left_aboard_in_port_is_landed_rather_than_lost():
    from eiapbem.rules.model import Location

    s = _invasion_scene("ai-hard")
    st = s.with_unit(s.units["corps:GB:1"].replace(location=Location(LocationKind.ABOARD, "fleet:GB:1")))
    st = st.replace(slot=Slot(Phase.LAND, "turn", "GB", ("GB",)))
    land = ai.play_slot(st, "GB", ctx())
    assert land.state.units["corps:GB:1"].location == Location(LocationKind.AREA, "portsmouth")


def test_trade_minors_and_access_by_level(set_up):
    from eiapbem.rules.diplomacy.minor_orders import Manipulate
    from eiapbem.rules.diplomacy.orders import GrantAccess, SetTrade

    # Britain allied with Austria; Austria and Russia allied, both at war with France.
    st = set_up.with_alliance("GB", "AU", set_up.date).with_war("FR", "AU", set_up.date, ("FR",))
    st = st.with_alliance("AU", "RU", st.date).with_war("FR", "RU", st.date, ("FR",))
    for p in POWERS:
        st = st.with_power(p, controller=PlayerKind.AI_HARD)
    gb = ai.orders(st, "GB", ctx(b"GB"))
    # 6.10: Britain (hard) allows trade to every power but France, at war with its ally Austria
    assert SetTrade("PR") in gb and SetTrade("FR") not in gb
    au = ai.orders(st, "AU", ctx(b"AU"))
    # 6.11: Austria grants access to Russia, its ally in the same war; 6.1.4: two minors manipulated
    assert GrantAccess("RU") in au
    assert sum(1 for o in au if isinstance(o, Manipulate)) == 2
    easy = st.with_power("AU", controller=PlayerKind.AI_EASY)
    assert not any(isinstance(o, (Manipulate, GrantAccess)) for o in ai.orders(easy, "AU", ctx(b"AU")))
    easy_gb = ai.orders(st.with_power("GB", controller=PlayerKind.AI_EASY), "GB", ctx(b"GB"))
    assert SetTrade("FR") in easy_gb  # the easy level trades with anyone it is not at war with


def test_no_war_on_a_natural_friend_unless_it_fights_an_ally(set_up):
    # 15.0: Prussia and Russia +3 both ways, Great Britain toward Prussia +2; Prussia toward Austria -1 both ways.
    import dataclasses

    assert grand.natural_friends(set_up, "PR", "RU") and grand.natural_friends(set_up, "PR", "GB")
    assert grand.natural_friends(set_up, "SP", "GB")  # only Britain's stance is friendly (+1): either way counts
    assert not grand.natural_friends(set_up, "PR", "AU") and not grand.natural_friends(set_up, "GB", "RU")
    # a level that would declare on anyone it can reach: never on a natural friend
    anyone = dataclasses.replace(HARD, min_hostility=-10, war_ratio=1, sea_war_ratio=1, second_front=False)
    for i in range(6):
        assert grand.war_target(set_up, ctx(f"f{i}".encode()), "RU", anyone) not in ("PR", "AU")
    # ... unless the friend is at war with one of its allies
    st = set_up.with_alliance("RU", "TU", set_up.date).with_war("PR", "TU", set_up.date, ("PR",))
    assert not grand.natural_friends(st, "RU", "PR")


def test_medium_and_hard_declare_war_on_a_weak_neutral_minor_and_march_on_its_cities(set_up):
    from eiapbem.ai import land
    from eiapbem.rules import control
    from eiapbem.rules.model import MinorStatus

    import dataclasses

    blind = dataclasses.replace(HARD, weigh_runners=False)  # the hard level also weighs who would run it (test_ai_minors)
    for lvl in (blind, MEDIUM):
        t = grand.minor_war_target(set_up, ctx(), "AU", lvl)
        assert t is not None and set_up.minors[t].status is MinorStatus.NEUTRAL
        assert grand.may_declare(set_up, ctx(), "AU", t)
        assert grand.ratio(grand.might(set_up, ctx(), "AU"), grand.minor_might(set_up, ctx(), t)) >= lvl.minor_war_ratio
    assert grand.minor_war_target(set_up, ctx(), "AU", EASY) is None
    # not while fighting a major it is not clearly beating, nor while at war with another minor
    assert grand.minor_war_target(set_up.with_war("AU", "FR", set_up.date, ("AU",)), ctx(), "AU", blind) is None
    busy = set_up.with_power("AU", minor_wars=set_up.powers["AU"].minor_wars.set("bavaria", set_up.date))
    assert grand.minor_war_target(busy, ctx(), "AU", blind) is None
    # a minor whose forces are not outnumbered 300% is left alone: Bavaria's 14 factors at morale 2-3
    assert grand.minor_might(set_up, ctx(), "bavaria") > 0
    # the declaration is a legal order of the diplomacy phase, and the war makes its cities the land AI's targets
    st = set_up.with_power("AU", controller=PlayerKind.AI_MEDIUM)  # (dice on which the 5-in-10 roll declares)
    out = engine.resolve_slot(st, {p: list(ai.orders(st, p, ctx(b"AU4"))) if p == "AU" else [] for p in POWERS},
                              ctx(b"resolve"))
    declared = [e for e in out.events if e.kind == "diplomacy.war" and e.params.get("power") == "AU"]
    assert declared and declared[0].params["target"] not in POWERS
    bavarian = [a for a in ctx().map.cities() if control.city_holder(busy, ctx(), a) == "bavaria"]
    assert bavarian
    areas = {t.area for t in land.targets(ai.Builder(busy, "AU", ctx()))}
    assert set(bavarian) <= areas
