"""Pre-rolled verifiable dice (DESIGN 5.5; manual 4.2.7, 000:176: dice are pre-rolled, reloads reported)."""

import pytest

from eiapbem.pbem import crypto, dice, files
from eiapbem.pbem.chain import Battle, Step
from eiapbem.pbem.errors import BadDice
from eiapbem.core.dice import Dice
from pbem_game import Game

STEP = Step.one("1805-06/land/FR", "FR")


def play(g, chain, body_extra=None, reloads=0):
    """FR plays its land slot: rolls with the file's seed, records the rolls in the body."""
    d = dice.dice_for_next(chain, g.ids["FR"])
    d.d6("battle/ulm/day1/attacker")
    d.d6("battle/ulm/day1/defender")
    body = {"dice": d.to_obj(), **(body_extra or {})}
    return files.write_turn(chain, g.ids["FR"], STEP, "1805-06/land/FR", body, reloads=reloads, rng=g.rng), d


def test_reloading_a_slot_gives_the_same_dice():
    # 000:176: "All die rolls are pre-rolled ... This should prevent reloading turn files."
    g = Game()
    start = g.chains["FR"]
    (_, _), d1 = play(g, start)
    (_, _), d2 = play(g, start, {"played": "differently"})
    assert d1.to_obj() == d2.to_obj()


def test_every_client_re_derives_every_roll():
    g = Game()
    (t, _), d = play(g, g.chains["FR"])
    loaded = g.load("GB", t, STEP)
    dice.check_rolls(loaded.seed, loaded.body["dice"], "t.pbm")
    assert loaded.seed == crypto.dice_seed(g.ids["FR"].link(1), g.chains["GB"].slots["gamestart"], "turn")


def test_a_modified_dice_value_is_caught():
    g = Game()
    start = g.chains["FR"]
    d = dice.dice_for_next(start, g.ids["FR"])
    v = d.d6("battle/ulm/day1/attacker")
    record = d.to_obj()
    record["battle/ulm/day1/attacker"] = [6, v % 6 + 1]  # the author writes another number
    t, _ = files.write_turn(start, g.ids["FR"], STEP, "1805-06/land/FR", {"dice": record}, rng=g.rng)
    loaded = g.load("GB", t, STEP)
    with pytest.raises(BadDice, match="battle/ulm/day1/attacker"):
        dice.check_rolls(loaded.seed, loaded.body["dice"], "t.pbm")


def test_malformed_dice_record_is_refused_not_crashing():
    with pytest.raises(BadDice):
        dice.check_rolls(b"s", {"x": [6]}, "t.pbm")
    with pytest.raises(BadDice):
        dice.check_rolls(b"s", {"x": [0, 1]}, "t.pbm")


def test_reload_count_is_written_into_the_file_and_readable_by_all():
    # 000:176: "the number of turn loads more than one is being reported to all players".
    g = Game()
    contents = files.SaveContents(g.chains["FR"], {"state": 0}, {})
    for _ in range(3):
        contents, reloads = contents.start("1805-06/land/FR")
    assert reloads == 2
    (t, _), _ = play(g, g.chains["FR"], reloads=reloads)
    assert g.load("AU", t, STEP).header.reloads == 2


def test_the_dice_seed_is_fixed_before_the_author_acts_and_differs_per_file():
    g = Game()
    s_fr = dice.seed_for_next(g.chains["FR"], g.ids["FR"])
    s_gb = dice.seed_for_next(g.chains["GB"], g.ids["GB"])
    assert s_fr != s_gb
    (t, g.chains["FR"]), _ = play(g, g.chains["FR"])
    assert dice.seed_for_next(g.chains["FR"], g.ids["FR"]) != s_fr  # next file: next link, new predecessor


def battle_game():
    g = Game()
    b_fr = Battle.begin(g.chains["FR"], "lille0", "FR", "AU")
    b_au = Battle.begin(g.chains["AU"], "lille0", "FR", "AU")
    return g, b_fr, b_au


def test_battle_commit_answer_reveal_gives_both_sides_the_same_seed():
    g, b_fr, b_au = battle_game()
    rng = crypto.KeystreamRng(b"battle")
    a, b = dice.new_nonce(rng), dice.new_nonce(rng)
    slot = "1805-06/land/FR/battle/lille0"
    f1, b_fr = files.write_battle(g.chains["FR"], b_fr, g.ids["FR"], slot, {"chit": "sealed"}, commit=dice.commitment(a), rng=g.rng)
    b_au, h1, _ = files.load_battle(g.chains["AU"], b_au, f1.data, [g.ids["AU"]], "f1")
    assert h1.commit == dice.commitment(a)
    f2, b_au = files.write_battle(g.chains["AU"], b_au, g.ids["AU"], slot, {"chit": "x"}, nonce=b, rng=g.rng)
    b_fr, _, _ = files.load_battle(g.chains["FR"], b_fr, f2.data, [g.ids["FR"]], "f2")
    f3, b_fr = files.write_battle(g.chains["FR"], b_fr, g.ids["FR"], slot, {"result": 1}, nonce=a, rng=g.rng)
    b_au, _, _ = files.load_battle(g.chains["AU"], b_au, f3.data, [g.ids["AU"]], "f3")
    s_fr = dice.battle_round_seed(b_fr, f1.hash, "FR", "AU")
    s_au = dice.battle_round_seed(b_au, f1.hash, "FR", "AU")
    assert s_fr == s_au == crypto.battle_seed(a, b, f1.hash)
    assert Dice(s_fr).d6("r1") == Dice(s_au).d6("r1")


def test_battle_seed_is_not_known_before_both_nonces_are_revealed():
    g, b_fr, b_au = battle_game()
    rng = crypto.KeystreamRng(b"battle")
    a = dice.new_nonce(rng)
    f1, b_fr = files.write_battle(g.chains["FR"], b_fr, g.ids["FR"], "s", {}, commit=dice.commitment(a), rng=g.rng)
    b_au, _, _ = files.load_battle(g.chains["AU"], b_au, f1.data, [g.ids["AU"]], "f1")
    with pytest.raises(BadDice, match="not revealed both nonces"):
        dice.battle_round_seed(b_au, f1.hash, "FR", "AU")


def test_revealing_another_nonce_than_committed_is_caught():
    g, b_fr, b_au = battle_game()
    rng = crypto.KeystreamRng(b"battle")
    a, b, a2 = dice.new_nonce(rng), dice.new_nonce(rng), dice.new_nonce(rng)
    f1, b_fr = files.write_battle(g.chains["FR"], b_fr, g.ids["FR"], "s", {}, commit=dice.commitment(a), rng=g.rng)
    b_au, _, _ = files.load_battle(g.chains["AU"], b_au, f1.data, [g.ids["AU"]], "f1")
    f2, b_au = files.write_battle(g.chains["AU"], b_au, g.ids["AU"], "s", {}, nonce=b, rng=g.rng)
    b_fr, _, _ = files.load_battle(g.chains["FR"], b_fr, f2.data, [g.ids["FR"]], "f2")
    # FR saw b and would like other dice: it reveals a different nonce.  Its own client refuses...
    with pytest.raises(BadDice, match="not the one FR committed to"):
        files.write_battle(g.chains["FR"], b_fr, g.ids["FR"], "s", {}, nonce=a2, rng=g.rng)
    # ...and a patched client's file is refused by the opponent.
    cheat = crypto.seal(
        kind="battle", game="Test", gid=g.chains["FR"].gid, slot="s", author="FR", signer=g.ids["FR"].signer,
        to=[crypto.ToKey(r, g.roster[r].enc) for r in ("FR", "AU")], body={}, seq=b_fr.seq + 1, epoch=0,
        prev=b_fr.head, reloads=0, nonce=a2, rng=g.rng,
    )
    with pytest.raises(BadDice):
        files.load_battle(g.chains["AU"], b_au, cheat.data, [g.ids["AU"]], "cheat")


def test_battle_files_go_to_the_two_sides_only_and_refuse_outsiders():
    from eiapbem.pbem.errors import AuthorNotAllowed, NotForYou

    g, b_fr, b_au = battle_game()
    f1, _ = files.write_battle(g.chains["FR"], b_fr, g.ids["FR"], "s", {"chit": 3}, rng=g.rng)
    b_gb = Battle.begin(g.chains["GB"], "lille0", "FR", "AU")
    with pytest.raises(NotForYou):
        files.load_battle(g.chains["GB"], b_gb, f1.data, [g.ids["GB"]], "f1")
    b_other = Battle.begin(g.chains["AU"], "lille0", "RU", "AU")
    with pytest.raises(AuthorNotAllowed):
        files.load_battle(g.chains["AU"], b_other, f1.data, [g.ids["AU"]], "f1")


def test_battle_record_round_trips_through_canonical_form():
    from eiapbem.core import canonical

    g, b_fr, b_au = battle_game()
    rng = crypto.KeystreamRng(b"battle")
    f1, b_fr = files.write_battle(g.chains["FR"], b_fr, g.ids["FR"], "s", {}, commit=dice.commitment(dice.new_nonce(rng)), rng=g.rng)
    assert Battle.from_obj(canonical.decode(canonical.encode(b_fr.to_obj()))) == b_fr
