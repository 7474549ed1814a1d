"""The chain of files (docs/file-format.md 6; manual 4.2.8, 000:226-228): one history, no going back."""

import pytest

from eiapbem.pbem import crypto, files
from eiapbem.pbem.chain import Step
from eiapbem.pbem.errors import (
    AlreadyLoaded,
    AuthorNotAllowed,
    BadDice,
    BadSignature,
    Fork,
    Obsolete,
    OutOfOrder,
    OwnFile,
    WrongGame,
    WrongSlot,
)
from pbem_game import Game

NAVAL_GB = Step.one("1805-05/naval/GB", "GB")
NAVAL_RU = Step.one("1805-05/naval/RU", "RU")


def test_a_turn_file_is_loaded_by_every_other_client_and_heads_agree():
    g = Game()
    t = g.turn("GB", "1805-05/naval/GB", step=NAVAL_GB)
    for r in ("AU", "FR", "PR", "RU", "SP", "TU", "host"):
        loaded = g.load(r, t, NAVAL_GB)
        assert loaded.body == {"slot": "1805-05/naval/GB"}
        assert loaded.header.author == "GB"
    assert len({c.head for c in g.chains.values()}) == 1


def test_already_loaded_file_is_refused_and_says_nothing_changed():
    g = Game()
    t = g.turn("GB", "1805-05/naval/GB", step=NAVAL_GB)
    g.load("FR", t, NAVAL_GB)
    before = g.chains["FR"]
    with pytest.raises(AlreadyLoaded, match="nothing changed"):
        files.load_file(before, t.data, [g.ids["FR"]], NAVAL_GB, "t.pbm")
    assert g.chains["FR"] is before


def test_own_file_is_refused_4_2_8():
    # 000:228: "If you attempt to load your own turn file, the program will disallow it."
    g = Game()
    start = g.chains["GB"]
    t = g.turn("GB", "1805-05/naval/GB", step=NAVAL_GB)
    with pytest.raises(OwnFile, match="your own file"):
        files.load_file(start, t.data, [g.ids["GB"]], NAVAL_GB, "t.pbm")


def test_file_from_another_game_is_refused():
    g, other = Game(), Game(seed=b"other", game="Other", gid=bytes(16))
    t = other.turn("GB", "1805-05/naval/GB", step=NAVAL_GB)
    with pytest.raises(WrongGame, match="belongs to the game 'Other'"):
        files.load_file(g.chains["FR"], t.data, [g.ids["FR"]], NAVAL_GB, "t.pbm")


def test_same_name_same_keys_other_gid_is_another_game():
    g, other = Game(), Game(gid=bytes(16))
    t = other.turn("GB", "1805-05/naval/GB", step=NAVAL_GB)
    with pytest.raises(WrongGame):
        files.load_file(g.chains["FR"], t.data, [g.ids["FR"]], NAVAL_GB, "t.pbm")


def test_file_ahead_of_the_chain_says_files_are_missing():
    g = Game()
    t1 = g.turn("GB", "1805-05/naval/GB", step=NAVAL_GB)
    g.load("RU", t1, NAVAL_GB)
    t2 = g.turn("RU", "1805-05/naval/RU", step=NAVAL_RU)
    with pytest.raises(OutOfOrder, match="files before it are missing"):
        files.load_file(g.chains["FR"], t2.data, [g.ids["FR"]], NAVAL_RU, "t2.pbm")


def test_replayed_old_file_is_refused_as_old():
    # 000:228: one cannot go back and redo a turn.
    g = Game()
    t1 = g.turn("GB", "1805-05/naval/GB", step=NAVAL_GB)
    g.load("RU", t1, NAVAL_GB)
    old_ru = g.chains["RU"]
    t2 = g.turn("RU", "1805-05/naval/RU", step=NAVAL_RU)
    g.load("FR", t1, NAVAL_GB)
    g.load("FR", t2, NAVAL_RU)
    # RU reloads its save from before its turn and writes a different file for the same slot.
    redo, _ = files.write_turn(old_ru, g.ids["RU"], NAVAL_RU, "1805-05/naval/RU", {"other": 1}, rng=g.rng)
    with pytest.raises(Fork) as err:
        files.load_file(g.chains["FR"], redo.data, [g.ids["FR"]], None, "redo.pbm")
    assert err.value.first == t2.hash and err.value.second == redo.hash
    assert t2.hash.hex()[:16] in str(err.value) and redo.hash.hex()[:16] in str(err.value)


def test_a_file_following_an_old_point_is_refused_as_old():
    g = Game()
    t1 = g.turn("GB", "1805-05/naval/GB", step=NAVAL_GB)
    start_host = g.chains["host"]
    g.load("host", t1, NAVAL_GB)
    # An admin file made by a host who had not loaded t1 follows the gamestart, an old point.
    stale, _ = files.write_admin(start_host, g.ids["host"], {"act": "x"}, rng=g.rng)
    g.load("FR", t1, NAVAL_GB)
    with pytest.raises(OutOfOrder, match="old or replayed"):
        files.load_file(g.chains["FR"], stale.data, [g.ids["FR"]], None, "a.pbm")


def test_author_not_allowed_in_slot():
    g = Game()
    t = g.turn("FR", "1805-05/naval/GB", step=Step.one("1805-05/naval/GB", "FR"))
    with pytest.raises(AuthorNotAllowed, match="signed by FR, who may not write that slot"):
        files.load_file(g.chains["RU"], t.data, [g.ids["RU"]], NAVAL_GB, "t.pbm")


def test_the_preceding_human_may_write_an_ai_slot_4_2_8():
    # 000:206: the human preceding an AI power sends the AI's turn file.
    g = Game()
    step = Step.one("1805-05/naval/RU", "RU", "GB")
    t = g.turn("GB", "1805-05/naval/RU", step=step)
    assert g.load("FR", t, step).header.author == "GB"


def test_wrong_slot_is_refused():
    g = Game()
    t = g.turn("RU", "1805-05/naval/RU", step=NAVAL_RU)
    with pytest.raises(WrongSlot, match="the slot due now is 1805-05/naval/GB"):
        files.load_file(g.chains["FR"], t.data, [g.ids["FR"]], NAVAL_GB, "t.pbm")


def test_forged_author_is_refused_by_signature():
    g = Game()
    # FR signs a file claiming to be GB's: it builds it with its own key but GB's name.
    forged = crypto.seal(
        kind="turn", game="Test", gid=g.chains["FR"].gid, slot="1805-05/naval/GB", author="GB",
        signer=g.ids["FR"].signer, to=files.game_recipients(g.roster), body={}, seq=1, epoch=0,
        prev=g.chains["FR"].head, reveal=g.ids["GB"].link(1), link=1, reloads=0, rng=g.rng,
    )
    with pytest.raises(BadSignature, match="not signed by GB's key"):
        files.load_file(g.chains["RU"], forged.data, [g.ids["RU"]], NAVAL_GB, "f.pbm")


def test_diplomacy_files_combine_in_fixed_order_whatever_the_arrival_order():
    # 6.0 (DESIGN 4): simultaneous diplomacy, resolved in a fixed order when the last arrives.
    g = Game()
    powers = ["AU", "FR", "GB", "PR", "RU", "SP", "TU"]
    step = Step.together((f"1805-05/diplomacy/{p}", [p]) for p in powers)
    made = {p: g.turn(p, f"1805-05/diplomacy/{p}", step=step) for p in powers}
    base = g.chains["host"].head
    c1 = g.chains["host"]
    for p in powers:
        c1 = files.load_file(c1, made[p].data, [g.ids["host"]], step, p).chain
    c2 = g.chains["host"]
    for p in reversed(powers):
        c2 = files.load_file(c2, made[p].data, [g.ids["host"]], step, p).chain
        if p != "AU":
            assert c2.head == base  # the head moves only when the last file arrives
    assert c1.head == c2.head == crypto.join_hash([made[p].hash for p in powers])
    # Every author's own chain reaches the same head once it has the others' files.
    fr = g.chains["FR"]
    for p in powers:
        if p != "FR":
            fr = files.load_file(fr, made[p].data, [g.ids["FR"]], step, p).chain
    assert fr.head == c1.head


def test_second_diplomacy_file_from_one_power_is_a_fork():
    g = Game()
    step = Step.together((f"1805-05/diplomacy/{p}", [p]) for p in ("AU", "FR"))
    start = g.chains["AU"]
    a1 = g.turn("AU", "1805-05/diplomacy/AU", step=step)
    a2, _ = files.write_turn(start, g.ids["AU"], step, "1805-05/diplomacy/AU", {"other": 2}, rng=g.rng)
    g.load("FR", a1, step)
    with pytest.raises(Fork):
        files.load_file(g.chains["FR"], a2.data, [g.ids["FR"]], step, "a2")


def test_forged_dice_reveal_is_refused():
    g = Game()
    bad = crypto.seal(
        kind="turn", game="Test", gid=g.chains["GB"].gid, slot="1805-05/naval/GB", author="GB",
        signer=g.ids["GB"].signer, to=files.game_recipients(g.roster), body={}, seq=1, epoch=0,
        prev=g.chains["GB"].head, reveal=g.ids["GB"].link(2), link=1, reloads=0, rng=g.rng,
    )
    with pytest.raises(BadDice, match="does not follow link 0"):
        files.load_file(g.chains["FR"], bad.data, [g.ids["FR"]], NAVAL_GB, "b.pbm")


def test_skipping_a_dice_link_to_choose_other_dice_is_refused():
    g = Game()
    skip = crypto.seal(
        kind="turn", game="Test", gid=g.chains["GB"].gid, slot="1805-05/naval/GB", author="GB",
        signer=g.ids["GB"].signer, to=files.game_recipients(g.roster), body={}, seq=1, epoch=0,
        prev=g.chains["GB"].head, reveal=g.ids["GB"].link(2), link=2, reloads=0, rng=g.rng,
    )
    with pytest.raises(BadDice):
        files.load_file(g.chains["FR"], skip.data, [g.ids["FR"]], NAVAL_GB, "b.pbm")


def test_backup_starts_a_new_epoch_and_older_files_are_obsolete():
    # 000:226: after the backup all previously made turn files are obsolete.
    g = Game()
    t1 = g.turn("GB", "1805-05/naval/GB", step=NAVAL_GB)
    backups = files.write_backups(g.chains["host"], g.ids["host"], bytes(32), {"FR": {"s": 1}, "GB": {"s": 1}}, g.rng)
    fr, body = files.open_backup(backups["FR"].data, backups["FR"].dat, g.ids["FR"], g.chains["FR"])
    gb, _ = files.open_backup(backups["GB"].data, backups["GB"].dat, g.ids["GB"], g.chains["GB"])
    assert body == {"s": 1} and fr.epoch == 1 and fr.head == gb.head
    with pytest.raises(Obsolete, match="obsolete"):
        files.load_file(fr, t1.data, [g.ids["FR"]], NAVAL_GB, "t1.pbm")
    # Play goes on in the new epoch from the common base.
    again, _ = files.write_turn(gb, g.ids["GB"], NAVAL_GB, "1805-05/naval/GB", {"n": 2}, rng=g.rng)
    assert files.load_file(fr, again.data, [g.ids["FR"]], NAVAL_GB, "again").body == {"n": 2}
    with pytest.raises(Obsolete):
        files.open_backup(backups["FR"].data, backups["FR"].dat, g.ids["FR"], fr.__class__.from_obj({**fr.to_obj(), "epoch": 2}))


def test_file_of_a_newer_epoch_before_its_backup_is_out_of_order():
    g = Game()
    backups = files.write_backups(g.chains["host"], g.ids["host"], bytes(32), {"GB": {}}, g.rng)
    gb, _ = files.open_backup(backups["GB"].data, backups["GB"].dat, g.ids["GB"], g.chains["GB"])
    t, _ = files.write_turn(gb, g.ids["GB"], NAVAL_GB, "1805-05/naval/GB", {}, rng=g.rng)
    with pytest.raises(OutOfOrder, match="load the host's backup"):
        try:
            files.load_file(g.chains["FR"], t.data, [g.ids["FR"]], NAVAL_GB, "t")
        except OutOfOrder as e:
            raise OutOfOrder(str(e) + " " + (e.hint or "")) from e


def test_backup_for_another_power_does_not_open():
    g = Game()
    backups = files.write_backups(g.chains["host"], g.ids["host"], bytes(32), {"AU": {}}, g.rng)
    from eiapbem.pbem.errors import NotForYou

    with pytest.raises(NotForYou, match="backup for AU, not for FR"):
        files.open_backup(backups["AU"].data, backups["AU"].dat, g.ids["FR"], g.chains["FR"])


def test_admin_file_changes_a_players_keys_only_when_host_signed():
    # 000:208: the host replaces one human player by another.
    from eiapbem.pbem import keys

    g = Game()
    new_fr = keys.Identity.generate("FR", crypto.KeystreamRng(b"new FR"), dice_n=8)
    adm, g.chains["host"] = files.write_admin(g.chains["host"], g.ids["host"], {"act": "replace FR"}, roster={"FR": new_fr.public()}, rng=g.rng)
    ru = files.load_file(g.chains["RU"], adm.data, [g.ids["RU"]], None, "adm").chain
    assert ru.roster["FR"] == new_fr.public() and ru.dicepos["FR"] == (0, new_fr.public().dice)
    # The departed player's key no longer opens the game's files...
    from eiapbem.pbem.errors import BadEncryption

    with pytest.raises(BadEncryption):
        files.load_file(g.chains["FR"], adm.data, [g.ids["FR"]], None, "adm")
    # ...and a file signed with the old FR key is refused.
    step = Step.one("1805-05/naval/FR", "FR")
    old_key_file = crypto.seal(
        kind="turn", game="Test", gid=ru.gid, slot="1805-05/naval/FR", author="FR",
        signer=g.ids["FR"].signer, to=files.game_recipients(ru.roster), body={}, seq=ru.seq + 1, epoch=0,
        prev=ru.head, reveal=new_fr.link(1), link=1, reloads=0, rng=g.rng,
    )
    with pytest.raises(BadSignature):
        files.load_file(ru, old_key_file.data, [g.ids["RU"]], step, "old")
    ok, _ = files.write_turn(g.chains["host"], new_fr, step, "1805-05/naval/FR", {"new": 1}, rng=g.rng)
    assert files.load_file(ru, ok.data, [g.ids["RU"]], step, "ok").body == {"new": 1}
    forged = crypto.seal(
        kind="admin", game="Test", gid=g.chains["GB"].gid, slot="admin/1", author="GB",
        signer=g.ids["GB"].signer, to=files.game_recipients(g.roster), body={}, seq=1, epoch=0,
        prev=g.chains["GB"].head, reveal=g.ids["GB"].link(1), link=1, roster={"FR": new_fr.public()}, rng=g.rng,
    )
    with pytest.raises(AuthorNotAllowed, match="only the host signs admin files"):
        files.load_file(g.chains["RU"], forged.data, [g.ids["RU"]], None, "forged")


def test_chain_record_round_trips_through_canonical_form():
    from eiapbem.pbem.chain import Chain
    from eiapbem.core import canonical

    g = Game()
    step = Step.together((f"1805-05/diplomacy/{p}", [p]) for p in ("AU", "FR"))
    a = g.turn("AU", "1805-05/diplomacy/AU", step=step)
    g.load("host", a, step)
    c = g.chains["host"]
    assert Chain.from_obj(canonical.decode(canonical.encode(c.to_obj()))) == c
