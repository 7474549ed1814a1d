"""AI players (eiapbem/ai): legal actions, obligations met, deterministic, and the levels differ as documented.

4.2.1/4.2.3 (000:76-84, 144-154) name the levels; what each does is the project's
(eiapbem/ai/levels.py, docs/decisions.md "AI players").
"""

from __future__ import annotations

import dataclasses
import pytest

from battlekit import corps, land_state
from eiapbem import ai
from eiapbem.ai import decisions, economy
from eiapbem.ai.levels import level
from eiapbem.client.setups import default_actions
from eiapbem.data import world
from eiapbem.data.context import rules_context
from eiapbem.core.errors import IllegalAction
from eiapbem.pbem import dice as pdice
from eiapbem.pbem.chain import Chain
from eiapbem.rules import admin as radmin
from eiapbem.rules import engine
from eiapbem.rules.combat.field import start_field_battle
from eiapbem.core.dice import Dice
from eiapbem.rules.economy import victory
from eiapbem.rules.economy.phase import BuyArmy
from eiapbem.rules.model import POOL, POWERS, Factors, MinorStatus, Options, Phase, PlayerKind
from eiapbem.rules.reinforcement.army import AddFactors, AddToGarrison
from eiapbem.rules.reinforcement.common import due_factors
from eiapbem.rules.scenario import initial_state
from eiapbem.rules.tables import land

LEVELS = ("ai-easy", "ai-medium", "ai-hard")
engine.action_kinds()  # load the rule modules (their phase hooks) before asking for obligations


def _ctx(label: str):
    return rules_context(Dice(b"ai-tests/" + label.encode()))


def _state(kind: str = "ai-medium", humans=()):
    return initial_state(world.load_scenario("classic-1805"), world.load_raw(), options=Options(),
                         players={p: PlayerKind.HUMAN if p in humans else PlayerKind(kind) for p in POWERS})


def _verify_and_apply(state, power, actions, ctx):
    """Every AI action passes engine.verify_action in turn (legal by construction)."""
    for a in actions:
        engine.verify_action(state, power, a, ctx)
        state = ai.apply_actions(state, power, [a], ctx).state
    return state


def _play_until(state, stop):
    """All-AI play until ``stop(state)``; returns the state there."""
    for _ in range(400):
        if stop(state):
            return state
        slot = state.slot
        c = _ctx(slot.key(state.date))
        if slot.simultaneous:
            state = engine.resolve_slot(state, {p: ai.orders(state, p, c) for p in slot.actors}, c).state
        else:
            setup = default_actions("classic-1805", slot.power) if slot.phase is Phase.SETUP else ()
            state = ai.play_slot(state, slot.power, c, setup=setup).state
    raise AssertionError("the stop was never reached")


@pytest.fixture(scope="module")
def after_setup():
    return _play_until(_state("ai-medium"), lambda s: s.slot.phase is Phase.DIPLOMACY)


@pytest.fixture(scope="module")
def at_economic(after_setup):
    return _play_until(after_setup, lambda s: s.slot.phase is Phase.ECONOMIC)


# ----------------------------------------------------------------- setup


@pytest.mark.parametrize("kind", LEVELS)
def test_setup_loads_the_default_setup_legally_and_meets_the_obligations(kind):
    # 5.1 (000:306-332): every factor and ship placed before the slot ends; the AI uses the shipped default (5.2.2).
    state = _state(kind)
    c = _ctx("setup")
    assert engine.unmet_obligations(state, "RU", c)
    turn = ai.play_slot(state, "RU", c, setup=default_actions("classic-1805", "RU"))
    assert [engine.action_to_obj(a) for a in turn.actions] == [engine.action_to_obj(a) for a in default_actions("classic-1805", "RU")]
    _verify_and_apply(state, "RU", turn.actions, c)
    assert turn.state.slot.power == "TU"  # the slot ended (5.3 order RU TU ...)


def test_without_a_setup_the_ai_cannot_end_the_setup_slot():
    with pytest.raises(ai.AiStuck, match="cannot end 1805-01/setup/turn/RU"):
        ai.play_slot(_state(), "RU", _ctx("setup"))


def test_a_human_power_is_not_played_by_the_computer():
    with pytest.raises(IllegalAction, match="played by a human"):
        ai.play_slot(_state(humans=("RU",)), "RU", _ctx("x"))


# ----------------------------------------------------------------- reinforcement


def _reinforcing(after_setup, kind, power="PR"):
    """``power``'s reinforcement slot of the first month, at peace (the month's declarations undone: the levels'
    placement at peace is what is compared), with factors due."""
    s = _play_until(after_setup, lambda s: s.slot.phase is Phase.REINFORCEMENT and s.slot.power == power)
    for a in POWERS:
        for b in list(s.powers[a].wars):
            s = s.without_war(a, b)
    s = s.with_power(power, controller=PlayerKind(kind), returned_factors=Factors(infantry=7, cavalry=1))
    return s


@pytest.mark.parametrize("kind", LEVELS)
def test_reinforcement_places_every_factor_due(after_setup, kind):
    # 7.2.2 (000:930): factors due may not be delayed; the AI meets that obligation with legal actions.
    s = _reinforcing(after_setup, kind)
    c = _ctx("reinforce")
    assert engine.unmet_obligations(s, "PR", c)
    b = ai.plan(s, "PR", c)
    after = _verify_and_apply(s, "PR", b.actions, c)
    assert due_factors(after, "PR").total == 0
    assert engine.unmet_obligations(after, "PR", c) == ()
    assert ai.play_slot(s, "PR", c).state.slot.power != "PR"


def test_the_hard_level_garrisons_each_national_capital(after_setup):
    # Russia has two national capitals (12.2.1): the hard level's standing garrison goes to each (an empty St.
    # Petersburg fell to four cavalry while Moscow's garrison was full)
    s = _reinforcing(after_setup, "ai-hard", "RU")
    for uid, u in sorted(s.units.items()):
        if uid in ("garrison:RU:city:moscow", "garrison:RU:city:st-petersburg"):
            s = s.without_unit(uid)
    garrisons = {a.area: a.infantry for a in ai.plan(s, "RU", _ctx("reinforce")).actions if isinstance(a, AddToGarrison)}
    assert garrisons.get("moscow", 0) >= 1 and garrisons.get("st-petersburg", 0) >= 1, garrisons


def test_reinforcement_levels_differ_as_documented(after_setup):
    c = _ctx("reinforce")
    plans = {k: ai.plan(_reinforcing(after_setup, k), "PR", c).actions for k in LEVELS}
    # hard: infantry first to the capital's garrison (Berlin), up to 4 factors
    first = plans["ai-hard"][0]
    assert isinstance(first, AddToGarrison) and first.area == "berlin" and first.infantry == 4
    # easy: the first corps by id; medium: the smallest corps first
    s = _reinforcing(after_setup, "ai-easy")
    own = list(u for u in s.units.values() if getattr(u, "nation", None) == "PR" and u.KIND == "corps"
                 and u.location.kind.value in ("area", "city"))
    easy = [a for a in plans["ai-easy"] if isinstance(a, AddFactors)]
    medium = [a for a in plans["ai-medium"] if isinstance(a, AddFactors)]
    assert easy[0].corps == min(u.id for u in own if engine.can_act(s, "PR", AddFactors(corps=u.id, infantry=1), c))
    smallest = min((u.factors.total, u.id) for u in own if engine.can_act(s, "PR", AddFactors(corps=u.id, infantry=1), c))
    assert medium[0].corps == smallest[1]
    assert plans["ai-easy"] != plans["ai-medium"]


def test_same_state_and_dice_give_the_same_actions(after_setup):
    s = _reinforcing(after_setup, "ai-hard")
    one = [engine.action_to_obj(a) for a in ai.plan(s, "PR", _ctx("same")).actions]
    two = [engine.action_to_obj(a) for a in ai.plan(s, "PR", _ctx("same")).actions]
    assert one == two and one


# ----------------------------------------------------------------- economic


@pytest.mark.parametrize("kind", LEVELS)
def test_economic_orders_are_valid_orders(at_economic, kind):
    # 12.5.3 (000:2230): purchases are orders of the simultaneous economic slot; check_orders accepts them.
    s = at_economic.with_power("AU", controller=PlayerKind(kind), treasury=200, manpower=40)
    c = _ctx("economy")
    orders = ai.orders(s, "AU", c)
    engine.check_orders(s, "AU", list(orders), c)
    # purchases, and (hard, with an ally made by the computer's diplomacy) loans and the manipulation display
    assert any(isinstance(o, BuyArmy) for o in orders)


def test_economic_levels_spend_a_larger_share(at_economic):
    c = _ctx("economy")
    bought, spent = {}, {}
    for k in LEVELS:
        s = at_economic.with_power("AU", controller=PlayerKind(k), treasury=200, manpower=40)
        money, men = economy.projection(s, c, "AU")
        orders = [o for o in ai.orders(s, "AU", c) if isinstance(o, BuyArmy)]  # loans (hard, to an ally) aside
        bought[k] = {o.item: o.count for o in orders}
        spent[k] = sum(o.count * {"infantry": 3, "cavalry": 12, "militia": 0}[o.item] for o in orders)  # 000:2961-2964
        assert spent[k] <= money * level(k).spend_share // 100
        assert sum(o.count * 2 for o in orders) <= men  # every factor takes 2 manpower
    assert spent["ai-easy"] < spent["ai-medium"] < spent["ai-hard"]
    assert "cavalry" not in bought["ai-medium"] and bought["ai-hard"]["cavalry"] >= 1
    # 12.5.6: unused manpower is lost; every level turns what is left into militia (a power whose share of its
    # manpower buys no line factor would otherwise build nothing, and put no corps it lost back on the map)
    assert bought["ai-easy"]["militia"] >= 1 and bought["ai-medium"]["militia"] >= 1


def test_economic_orders_are_the_same_for_the_same_state_and_dice(at_economic):
    s = at_economic.with_power("RU", controller=PlayerKind.AI_HARD, treasury=90, manpower=30)
    one = [engine.action_to_obj(a) for a in ai.orders(s, "RU", _ctx("same"))]
    assert one == [engine.action_to_obj(a) for a in ai.orders(s, "RU", _ctx("same"))] and one


def test_purchases_follow_the_price_chart():
    # 000:2961 (cavalry $12, 2 manpower), 000:2963 (infantry $3, 2 manpower)
    assert economy.purchases(30, 100, level("ai-easy")) == [BuyArmy(item="infantry", count=10)]
    assert economy.purchases(30, 8, level("ai-easy")) == [BuyArmy(item="infantry", count=4)]
    # hard: k cavalry with 4k infantry cost 24k dollars: 48 buys 2 cavalry and 8 infantry
    assert economy.purchases(48, 100, level("ai-hard")) == [BuyArmy(item="infantry", count=8), BuyArmy(item="cavalry", count=2)]
    assert economy.purchases(0, 100, level("ai-hard")) == []
    assert economy.militia(5, level("ai-medium")) == [BuyArmy(item="militia", count=2)]  # 000:2964: 2 manpower each
    assert economy.militia(5, level("ai-easy")) == [BuyArmy(item="militia", count=2)]


# ----------------------------------------------------------------- decisions


def test_chits_by_level():
    # 11.2.3, operational possibilities chart (000:3002-3030)
    opts = land.DEFENDER_CHITS
    medium = decisions.choose_chit(opts, land.DEFENDER, "likeliest")
    assert all(decisions.chit_score(medium, "assault", land.DEFENDER) >= decisions.chit_score(c, "assault", land.DEFENDER)
               for c in opts)
    hard = decisions.choose_chit(opts, land.DEFENDER, "maximin")
    worst = {c: min(decisions.chit_score(c, e, land.DEFENDER) for e in land.ATTACKER_CHITS) for c in opts}
    assert worst[hard] == max(worst.values())
    # the chart's assault-defend cell (000:3029): attacker 3-1 3-1 2-1, defender 4-1 4-2 4-3
    assert decisions.chit_score("defend", "assault", land.DEFENDER) == (5 + 6 + 7) - (4 + 4 + 3)


def _battle(kind_fr, kind_au, seed=b"ai-battle"):
    s = land_state()
    s = corps(s, "corps:FR:I", "ulm", infantry=10, cavalry=2)
    s = corps(s, "corps:AU:I", "ulm", infantry=12, cavalry=2)
    s = s.with_power("FR", controller=PlayerKind(kind_fr)).with_power("AU", controller=PlayerKind(kind_au))
    c = rules_context(Dice(seed))
    return start_field_battle(s, "ulm", ["corps:FR:I"], ["corps:AU:I"], c).state, c


def test_the_hard_level_answers_the_chit_a_medium_or_random_enemy_will_pick():
    # 11.2.1/11.2.3: who plays each power is known; a medium computer's chit follows a fixed rule and an easy one's
    # the dice, so a hard defender answers them (the enemy's chit itself is not read: it is not chosen yet).
    from eiapbem.ai import Builder

    for enemy_kind, expected in (("ai-medium", "likeliest"), ("ai-easy", "random"), ("ai-hard", None),
                                 ("human", None)):
        s, c = _battle("human", "ai-hard")  # both chits are asked at once (11.2.1)
        [d] = [x for x in s.pending.values() if x.kind == "battle.chit" and x.power == "AU"]
        s = s.with_power("FR", controller=PlayerKind(enemy_kind))
        b = Builder(s, "AU", c)
        got = decisions.foreseen(b, d, land.DEFENDER)
        assert (got[0] if got else None) == expected, enemy_kind
        answer = decisions.answer(d, level("ai-hard"), c, b).choice
        assert answer in d.options
        if enemy_kind == "ai-medium":
            attack = decisions.choose_chit(land.ATTACKER_CHITS, land.ATTACKER, "likeliest")
            assert decisions.chit_score(answer, attack, land.DEFENDER) == max(
                decisions.chit_score(x, attack, land.DEFENDER) for x in d.options)
            # better than the worst-case pick against this enemy
            assert decisions.chit_score(answer, attack, land.DEFENDER) > decisions.chit_score(
                decisions.choose_chit(d.options, land.DEFENDER, "maximin"), attack, land.DEFENDER)
        elif enemy_kind == "ai-easy":
            def total(x: str) -> int:
                return sum(decisions.chit_score(x, e, land.DEFENDER) for e in land.ATTACKER_CHITS)
            assert total(answer) == max(total(x) for x in d.options)
        elif enemy_kind == "human":  # a human learns the computer's habits: a chit of the mixture (``mixture``)
            assert decisions.human_enemy(b, d, land.DEFENDER)
            assert answer in dict(decisions.mixture(tuple(d.options), decisions.enemy_options(b, d, land.DEFENDER),
                                                    land.DEFENDER))
        else:
            assert answer == decisions.choose_chit(d.options, land.DEFENDER, "maximin")


@pytest.mark.parametrize("role", (land.ATTACKER, land.DEFENDER))
def test_the_hard_level_mixes_its_chits_against_an_enemy_it_cannot_foresee(role):
    # 11.2.3: against a human or a hard computer no pure chit is safe ("defend" every time is read and answered);
    # the mixture's worst case over the enemy's chits beats the best pure worst case, and the dice vary the pick.
    own, enemy = ((land.ATTACKER_CHITS, land.DEFENDER_CHITS) if role == land.ATTACKER
                  else (land.DEFENDER_CHITS, land.ATTACKER_CHITS))
    weights = decisions.mixture(own, enemy, role)
    total = sum(n for _, n in weights)
    assert len(weights) >= 2 and all(c in own for c, _ in weights)
    pure = max(min(decisions.chit_score(c, e, role) for e in enemy) for c in own)
    mixed = min(sum(decisions.chit_score(c, e, role) * n for c, n in weights) for e in enemy)
    assert mixed > pure * total
    picks = {decisions.drawn(weights, r) for r in range(1, total + 1)}
    assert picks == {c for c, _ in weights}
    with pytest.raises(ValueError):
        decisions.drawn(weights, total + 1)


def test_an_outflank_is_valued_by_its_leaders_chance_to_arrive():
    # 11.2.12, note (I): the outflanking force arrives on a die at most its side's strategic rating, and from then the
    # pairing's second tables are fought (outflank against defend: the attacker 2-4, 4-4, the defender 1-1, 1-1)
    A, D = land.ATTACKER, land.DEFENDER
    assert decisions.chit_value("echelon", "defend", A, (5, 5)) == 36 * decisions.chit_score("echelon", "defend", A)
    values = [decisions.chit_value("outflank", "defend", A, (r, 0)) for r in range(0, 7)]
    assert values == sorted(values) and values[0] < values[4]  # the better the leader, the more it is worth
    assert decisions.chit_score("outflank", "defend", A) < 0 < values[4]  # the first tables alone undervalue it
    assert decisions.chit_value("defend", "outflank", D, (4, 0)) == -values[4]  # the same battle from the other side
    # against a human attacker under a strategic-4 leader the hard defender seldom stands on "defend"; attacking
    # under one, it outflanks
    defence = dict(decisions.mixture(land.DEFENDER_CHITS, land.ATTACKER_CHITS, D, (4, 3)))
    assert defence.get("defend", 0) * 4 < sum(defence.values())
    attack = dict(decisions.mixture(land.ATTACKER_CHITS, land.DEFENDER_CHITS, A, (4, 3)))
    assert attack.get("outflank", 0) * 4 >= sum(attack.values())


@pytest.mark.parametrize("human, hard", (("human", "ai-hard"), ("ai-hard", "human")))
def test_the_hard_level_draws_its_chit_against_a_human_from_the_dice(human, hard):
    # 11.2.3: the hard level's chit against a human, attacking or defending, is drawn (the same for every client from
    # the same dice); in a battle its search plays forward it takes its best worst case
    from eiapbem.ai import Builder
    from eiapbem.ai.odds import SearchDice

    power = "FR" if hard == "ai-hard" else "AU"
    picks = set()
    for seed in (b"mix-1", b"mix-2", b"mix-3", b"mix-4", b"mix-5", b"mix-6", b"mix-7", b"mix-8"):
        s, c = _battle(hard, human, seed)
        [d] = [x for x in s.pending.values() if x.kind == "battle.chit" and x.power == power]
        role = d.context.get("role")
        first = decisions.answer(d, level("ai-hard"), c, Builder(s, power, c)).choice
        assert decisions.answer(d, level("ai-hard"), c, Builder(s, power, c)).choice == first
        picks.add(first)
        search = dataclasses.replace(c, dice=SearchDice(seed))
        assert decisions.answer(d, level("ai-hard"), search, Builder(s, power, search)).choice == \
            decisions.choose_chit(d.options, role, "maximin")
    assert len(picks) >= 2


@pytest.mark.parametrize("kind", LEVELS)
def test_pending_battle_decisions_of_ai_powers_are_answered_to_the_end(kind):
    # 11.2: every question of a field battle between two AI powers is answered among its options.
    s, c = _battle(kind, kind)
    assert s.pending
    out = ai.settle(s, c)
    assert not out.state.pending and [e for e in out.events if e.kind == "battle.end"]  # fought to its end
    random_labels = [k for k in c.dice.record if k.startswith("ai/")]
    assert bool(random_labels) == (kind == "ai-easy")  # only the easy level rolls for its choices


def test_a_human_decision_is_left_alone():
    # In a human's slot the human's questions wait for the human (in the computer's own slot, standing
    # orders answer them: test_a_human_defender_in_the_computers_slot_answers_by_standing_orders).
    from eiapbem.rules.model import Slot

    s, c = _battle("ai-hard", "ai-hard")
    s = s.with_power("AU", controller=PlayerKind.HUMAN)
    s = s.replace(slot=Slot(phase=Phase.LAND, step="turn", power="AU", actors=("AU",)))
    out = ai.settle(s, c)
    assert out.state.pending and all(d.power == "AU" for d in out.state.pending.values())


# ----------------------------------------------------------------- dice, start bonus, admin


def _chain(dicepos, head=b"h" * 32):
    return Chain(game="G", gid=b"g" * 16, roster={}, epoch=0, head=head, seq=1, known=frozenset(), slots={},
                 dicepos=dicepos)


def test_ai_dice_come_from_the_revealed_links_not_the_file_hash():
    # docs/file-format.md 7.3: a re-sealed file (another head) gives the same AI dice; another link other dice.
    a = _chain({"FR": (3, b"a" * 32), "GB": (2, b"b" * 32)})
    resealed = _chain({"FR": (3, b"a" * 32), "GB": (2, b"b" * 32)}, head=b"x" * 32)
    later = _chain({"FR": (4, b"c" * 32), "GB": (2, b"b" * 32)})
    key = "1805-02/naval/turn/RU"
    assert pdice.ai_seed(a, key) == pdice.ai_seed(resealed, key)
    assert pdice.ai_seed(a, key) != pdice.ai_seed(later, key)
    assert pdice.ai_seed(a, key) != pdice.ai_seed(a, "1805-02/naval/turn/TU")


def test_start_bonus_of_4_2_3():
    # 000:148-154: easy none, medium 1-3%, hard 2-6% of the victory level
    s = _state("ai-hard", humans=("FR",)).with_power("RU", controller=PlayerKind.AI_EASY) \
        .with_power("TU", controller=PlayerKind.AI_MEDIUM)
    out = victory.with_ai_start_bonuses(s, Dice(b"start"))
    levels = {p: victory.victory_level(s, p) for p in POWERS}
    gain = {p: out.powers[p].victory_points - s.powers[p].victory_points for p in POWERS}
    assert gain["FR"] == 0 and gain["RU"] == 0
    assert levels["TU"] * 1 // 100 <= gain["TU"] <= levels["TU"] * 3 // 100
    for p in ("AU", "PR", "SP", "GB"):
        assert levels[p] * 2 // 100 <= gain[p] <= levels[p] * 6 // 100
    assert any(e.kind == "game.ai-bonus" for e in out.log)


def test_admin_ai_play_plays_a_human_turn_and_keeps_it_human():
    # 4.2.8 "Quick play turn with AI" (000:202)
    s = _state("ai-easy", humans=("RU",))
    c = _ctx("admin")
    with pytest.raises(IllegalAction, match="dice of the host's admin file"):
        radmin.apply_admin(s, radmin.AiPlay("RU", "ai-hard"))
    with pytest.raises(IllegalAction, match="current player is RU, not TU"):
        radmin.apply_admin(s, radmin.AiPlay("TU", "ai-hard"), c, setup=[], computer=ai.play_slot)
    with pytest.raises(IllegalAction, match="computer player is given"):
        radmin.apply_admin(s, radmin.AiPlay("RU", "ai-hard"), c, setup=[])
    out = radmin.apply_admin(s, radmin.AiPlay("RU", "ai-hard"), c, setup=default_actions("classic-1805", "RU"),
                             computer=ai.play_slot).state
    assert out.slot.power == "TU" and out.powers["RU"].controller is PlayerKind.HUMAN
    assert "the computer (ai-hard) played RU's turn" in out.log[-1].text
    rep = radmin.apply_admin(s, radmin.ReplaceByAi("RU", "Anna", "ai-hard", "now")).state
    assert rep.powers["RU"].controller is PlayerKind.AI_HARD
    back = radmin.apply_admin(rep, radmin.ReplacePlayer("RU", "Computer", "Bob", "now")).state
    assert back.powers["RU"].controller is PlayerKind.HUMAN


@pytest.mark.parametrize("defender", ["ai-easy", "ai-hard"])
def test_the_ai_makes_the_attacks_11_1_obliges_it_to_and_fights_them_out(defender):
    # 11.1 (000:1610): forces sharing an area with the enemy at the end of the phasing power's movement
    # must attack. The AI keeps a corps engaged there and attacks, and every answer of both AI sides is given.
    from eiapbem.rules.land.combat import areas_to_attack
    from eiapbem.rules.model import Slot

    s = land_state()
    s = s.replace(slot=Slot(phase=Phase.LAND, step="turn", power="AU", actors=("AU",)))
    s = s.with_power("AU", controller=PlayerKind("ai-medium")).with_power("FR", controller=PlayerKind(defender))
    s = corps(s, "corps:AU:I", "innsbruck", infantry=8, cavalry=2)
    s = corps(s, "corps:FR:III", "innsbruck", infantry=6)
    c = _ctx("land-attack/" + defender)
    assert areas_to_attack(s, "AU") == ["innsbruck"]
    with pytest.raises(IllegalAction, match="attack the enemy in innsbruck"):
        engine.end_slot(s, "AU", c)
    turn = ai.play_slot(s, "AU", c)
    assert [a.KIND for a in turn.actions] == ["land.attack"]
    fought = [b for b in turn.state.battles.values() if b.attacker.power == "AU"]
    assert len(fought) == 1 and fought[0].finished
    assert not turn.state.pending and turn.state.slot.power != "AU"


def test_a_human_defender_in_the_computers_slot_answers_by_standing_orders():
    # Nobody carries battle files for a slot the computer plays (every client plays it), so the human
    # defender's questions there are answered by its standing orders, as under PBEM quick combat (4.1.1).
    from eiapbem.rules.model import Slot

    s = land_state()
    s = s.replace(slot=Slot(phase=Phase.LAND, step="turn", power="AU", actors=("AU",)))
    s = s.with_power("AU", controller=PlayerKind("ai-hard"))
    s = corps(s, "corps:AU:I", "innsbruck", infantry=10, cavalry=2)
    s = corps(s, "corps:FR:III", "innsbruck", infantry=5)
    s = corps(s, "corps:FR:IV", "innsbruck", infantry=5)
    turn = ai.play_slot(s, "AU", _ctx("standing-orders"))
    assert [b.finished for b in turn.state.battles.values()] == [True]
    assert not turn.state.pending
    # In a human's slot the same question is left for the human (battle files or the prompt).
    s2 = s.replace(slot=Slot(phase=Phase.LAND, step="turn", power="FR", actors=("FR",)))
    s2 = s2.with_power("FR", controller=PlayerKind.HUMAN).with_power("AU", controller=PlayerKind.HUMAN)
    from eiapbem.rules.land.combat import Attack

    out = engine.apply_action(s2, "FR", Attack(area="innsbruck"), _ctx("human-slot"))
    assert out.state.pending and not ai.settle(out.state, _ctx("human-slot")).events


def test_at_war_the_economy_buys_ships_and_keeps_money_for_depot_supply(at_economic):
    # issue 19 item 3: at war medium and hard buy heavy ships (12.5.3, 000:2966; Great Britain three times the
    # share) and spend their share of what is left after a quarter of depot supply ($1 a corps a month, 10.5.2)
    from eiapbem.rules.economy.phase import BuyShips

    c = _ctx("economy-war")
    s = at_economic.with_power("GB", controller=PlayerKind.AI_HARD, treasury=300, manpower=60)
    s = s.with_war("GB", "FR", s.date, ("GB",))
    if economy._rules_the_sea(ai.Builder(s, "GB", c)):  # France's ships alone may be under half of Britain's
        s = s.with_war("GB", "TU", s.date, ("GB",))
    assert not economy._rules_the_sea(ai.Builder(s, "GB", c))  # the premise: the enemy's fleets are a match
    orders = ai.orders(s, "GB", c)
    engine.check_orders(s, "GB", list(orders), c)
    ships = [o for o in orders if isinstance(o, BuyShips)]
    assert len(ships) == 1 and ships[0].item == "heavy" and ships[0].count >= 1
    money, _ = economy.projection(s, c, "GB")
    spent = sum(o.count * {"infantry": 3, "cavalry": 12, "militia": 0, "heavy": 9}[o.item] for o in orders
                if hasattr(o, "item"))
    assert spent <= (money - economy._supply_reserve(ai.Builder(s, "GB", c))) * level("ai-hard").spend_share // 100
    assert not [o for o in ai.orders(s.with_power("GB", controller=PlayerKind.AI_EASY), "GB", c) if isinstance(o, BuyShips)]
    # at peace no ships (every war of Britain's undone: the opening month's declarations made some)
    calm = s
    for q in list(s.powers["GB"].wars):
        calm = calm.without_war("GB", q)
    assert not [o for o in ai.orders(calm, "GB", c) if isinstance(o, BuyShips)]


def test_reinforcements_go_to_the_corps_nearest_the_enemy_at_the_hard_level(after_setup):
    # issue 19 item 3: hard feeds the front first (eiapbem/ai/reinforce.py)
    from eiapbem.ai import assess, reinforce

    s = _reinforcing(after_setup, "ai-hard").with_war("PR", "FR", after_setup.date, ("PR",))
    c = _ctx("reinforce-front")
    makers = reinforce.candidates(s, c, "PR", "PR", reinforce.FactorType.INFANTRY, level("ai-hard"))
    firsts = [m(1) for m in makers if isinstance(m(1), AddFactors)]
    fronts = reinforce._front_areas(s, c, "PR")
    dist = [reinforce._front_distance(c, s.units[a.corps].location.site, fronts) for a in firsts]
    assert dist == sorted(dist) and dist[0] < reinforce.FAR
    assert assess.enemies(s, "PR") == ("FR",)


def test_the_hard_level_buys_political_points_on_the_manipulation_display(at_economic):
    # 12.4.3 (optional rule): square -1 is +1 political point a quarter for $5; victory points follow the
    # political status (12.1), so the hard level never sells points for money, at war or not.
    from eiapbem.rules.economy.phase import SetManipulation

    c = _ctx("economy-manipulation")
    s = at_economic.with_power("AU", controller=PlayerKind.AI_HARD, treasury=300)
    s = s.replace(options=s.options.replace(economic_manipulation=True))
    for st in (s, s.with_war("AU", "FR", s.date, ("AU",))):
        orders = ai.orders(st, "AU", c)
        engine.check_orders(st, "AU", list(orders), c)
        assert SetManipulation(square=-1) in orders
    poor = s.with_power("AU", treasury=0)
    money, _ = economy.projection(poor, c, "AU")
    assert (SetManipulation(square=-1) in ai.orders(poor, "AU", c)) == (money >= economy.MANIPULATE_ABOVE)
    assert not any(isinstance(o, SetManipulation) and o.square > 0 for o in ai.orders(poor, "AU", c))
    # without the optional rule the order is refused by the rules and left out
    assert not any(isinstance(o, SetManipulation) for o in ai.orders(at_economic.with_power("AU", controller=PlayerKind.AI_HARD,
                                                                                             treasury=300), "AU", c))


def test_an_obligation_the_plans_leave_open_is_met_from_the_rules_list(monkeypatch):
    """The computer meets what its plans do not know from ``engine.legal_actions`` (``ai.meet_obligations``):
    here its land plans are switched off, and the duty to attack (11.1) is met all the same (the actions of the rarer
    kinds tried first: the attack itself, before the hundreds of moves)."""
    from eiapbem.ai import amphibious, feudal, march, naval, raids
    from eiapbem.ai import land as ai_land
    from eiapbem.rules.land.combat import Attack

    for mod in (ai_land, feudal, march, naval, raids):
        monkeypatch.setattr(mod, "plan", lambda b, lvl: None)
    monkeypatch.setattr(amphibious, "land_invasions", lambda b, lvl: None)
    s = corps(corps(land_state(), "corps:FR:V", "strasbourg", infantry=12), "corps:AU:I", "strasbourg", infantry=2)
    s = s.with_power("FR", controller=PlayerKind.AI_HARD).with_power("AU", controller=PlayerKind.AI_HARD)
    c = _ctx("fallback")
    assert engine.unmet_obligations(s, "FR", c)  # attack the enemy in strasbourg
    turn = ai.play_slot(s, "FR", c)
    assert turn.actions == (Attack(area="strasbourg"),)
    monkeypatch.setattr(ai, "meet_obligations", lambda b: None)
    with pytest.raises(ai.AiStuck, match="attack the enemy in strasbourg"):
        ai.play_slot(s, "FR", c)


def test_reinforcement_places_a_large_levy_when_the_first_places_fill_one_factor_at_a_time(after_setup):
    # 7.2.2: every factor due is placed wherever it fits. 54 infantry due to an easy France ("first": its corps in id
    # order, then its home cities, then its depots) fill the corps with room one factor at a time; the placement must
    # go on to the garrisons until nothing is due, however many places are full before them.
    s = _reinforcing(after_setup, "ai-easy", power="FR")
    s = s.with_power("FR", returned_factors=Factors(infantry=54))
    c = _ctx("reinforce-levy")
    b = ai.plan(s, "FR", c)
    after = _verify_and_apply(s, "FR", b.actions, c)
    assert due_factors(after, "FR").total == 0
    assert sum(getattr(a, "infantry", 0) for a in b.actions) == 54
    assert engine.unmet_obligations(after, "FR", c) == ()


def test_reinforcement_sets_up_a_minor_gone_to_war(after_setup):
    # 7.3 (000:968-978), 6.1.3: an allied minor's forces due to be set up go on the map in its ally's slot.
    s = _reinforcing(after_setup, "ai-hard")
    row = s.minors["bavaria"].replace(status=MinorStatus.ALLIED, controller="PR", setup_due=True)
    s = s.with_minor("bavaria", row)
    assert row.stored_factors.total
    c = _ctx("reinforce")
    after = _verify_and_apply(s, "PR", ai.plan(s, "PR", c).actions, c)
    placed = [u for u in after.units.values() if getattr(u, "nation", None) == "bavaria" and u.location != POOL]
    assert placed and after.minors["bavaria"].stored_factors.total < row.stored_factors.total
    assert all(c.map.area(u.location.site).nation == "bavaria" for u in placed)
