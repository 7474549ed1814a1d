"""Battle files between two human players (4.2.7, 000:168-176; docs/file-format.md 7.2, 7.4).

France plays its land slot in the host folder; Austria is an email client
(and Prussia a second client who only sees the turn file).  The battle is
started at the start of the slot with ``start_field_battle`` on a state both
folders share (the land phase's attack action is built elsewhere); every
step after that goes through the sessions and real battle files.
"""

from __future__ import annotations

import shutil
from dataclasses import replace

import pytest
from battlekit import corps, ctx, leader

from eiapbem.client import battles, newgame
from eiapbem.client.session import TEST_SCRYPT_ENV, Session
from eiapbem.core.errors import EiaError, IllegalAction
from eiapbem.pbem import crypto, files, folders, keys
from eiapbem.pbem.chain import Battle
from eiapbem.pbem.errors import AlreadyLoaded, AuthorNotAllowed, BadFile, OutOfOrder, WrongGame
from eiapbem.rules import engine
from eiapbem.rules.combat.field import start_field_battle
from eiapbem.rules.engine import AnswerDecision
from eiapbem.rules.model import POWERS, Date, GameState, Phase, Slot
from clikit import files_in

GAME = "Ulm"
BID = "battle:1805-09:ulm:0"
NAME = "pbembattle_Ulm_Ulm0-question.battle"  # the attacker's question (000:172 and the file's kind)
REPLY = "pbembattle_Ulm_Ulm0-reply.battle"
CLOSE = "pbembattle_Ulm_Ulm0-close.battle"
CLIENTS = ("AU", "PR")


@pytest.fixture(autouse=True)
def fixed_randomness(monkeypatch):
    """Fast key files, and every random byte from a fixed stream, so that every run fights the same battle."""
    import inspect
    import os

    from eiapbem.pbem import chain as chain_mod, dice as pdice

    monkeypatch.setenv(TEST_SCRYPT_ENV, "10,1,1")
    stream = crypto.KeystreamRng(b"battle-files-test")
    real = os.urandom
    monkeypatch.setattr(os, "urandom", stream)
    for mod in (crypto, files, keys, pdice, chain_mod):
        for fn in vars(mod).values():
            for target in ([fn] + [m for m in vars(fn).values() if inspect.isfunction(getattr(m, "__func__", m))]) if inspect.isclass(fn) else [fn]:
                target = getattr(target, "__func__", target)
                if not inspect.isfunction(target):
                    continue
                if target.__kwdefaults__ and real in target.__kwdefaults__.values():
                    monkeypatch.setattr(target, "__kwdefaults__",
                                        {k: stream if v is real else v for k, v in target.__kwdefaults__.items()})
                if target.__defaults__ and any(v is real for v in target.__defaults__):
                    monkeypatch.setattr(target, "__defaults__", tuple(stream if v is real else v for v in target.__defaults__))


def _battle_state(state: GameState, defenders: int = 2) -> GameState:
    s = state.replace(date=Date(1805, 9), slot=Slot(phase=Phase.LAND, step="turn", power="FR", actors=("FR",)))
    s = s.with_war("FR", "AU", Date(1805, 9), ("FR",))
    s = corps(s, "corps:FR:I", "ulm", infantry=12, cavalry=2)
    s = corps(s, "corps:FR:II", "ulm", infantry=10)
    s = corps(s, "corps:AU:I", "ulm", infantry=12, cavalry=2)
    aus = ["corps:AU:I"]
    if defenders > 1:
        s = corps(s, "corps:AU:II", "ulm", infantry=10)
        aus.append("corps:AU:II")
    if defenders > 1:  # two leaders of equal seniority: Austria chooses its commander first (13.8.6, 000:2692)
        s = leader(leader(s, "leader:AU:charles", "corps:AU:I"), "leader:AU:ferdinand", "corps:AU:II")
    s = start_field_battle(s, "ulm", ["corps:FR:I", "corps:FR:II"], aus, ctx(b"the slot before")).state
    return GameState.decode(s.encode())


class Table:
    """The host folder (France and the hot-seat powers), Austria's and Prussia's folders."""

    def __init__(self, root, flags=(), defenders=2, game=GAME, clients=CLIENTS):
        self.root = root
        self.clients = clients
        self.homes = {"host": root / "host", "AU": root / "au", "PR": root / "pr"}
        players = [newgame.Player(p, f"Player {p}", f"{p.lower()}@example.org",
                                  "host" if p == "FR" else "client" if p in clients else "hotseat") for p in POWERS]
        created = newgame.new_game(self.homes["host"], game, "classic-1805", players, bids={},
                                   options=newgame.options_from_flags(list(flags)),
                                   passwords={p: f"pw-{p}" for p in POWERS if p not in clients}, host_password="pw-host")
        self.game = game
        self.exchange = defenders > 1 and "pbem-quick-combat" not in flags
        out = self.homes["host"] / "commout"
        for p in clients:
            newgame.join(self.homes[p], out / f"{game}_gamestart.pbm", p, created.one_time[p], f"pw-{p}",
                         f"{p.lower()}@example.org", out / f"{game}_{p}.key")
        s0 = _battle_state(self.open("FR").state, defenders)
        for p in ("FR",) + clients:
            s = self.open(p)
            s.data = replace(s.data, state=s0)
            s.save()

    def home(self, p):
        return self.homes["host"] if p not in self.clients else self.homes[p]

    def open(self, p):
        return Session.open(self.home(p), self.game, p, f"pw-{p}")

    def send(self, src, dst, name=None):
        """Copy a battle file from one folder's battles/ to another's (overwriting, 000:174): France's question,
        or Austria's reply."""
        name = name or (NAME if src == "FR" else REPLY)
        target = self.home(dst) / "battles" / name
        target.parent.mkdir(exist_ok=True)
        shutil.copy(self.home(src) / "battles" / name, target)
        return target

    def saves(self, p):
        return files_in(self.home(p) / "save")


def _first(d):
    return d.options[0]


def _own(s, power):
    return sorted((d for d in s.current().pending.values() if d.power == power), key=lambda d: d.id)


def fight(t, choose=_first, stop_after=None):
    """Play the battle to its end: France answers at home, Austria through battle files. Return the files seen."""
    seen = []
    fr, au = t.open("FR"), t.open("AU")
    for _ in range(400):
        mine = _own(fr, "FR")
        if mine:
            if mine[0].kind == "battle.chit" and t.exchange:  # 000:176: no side sees the other's chit first
                assert not fr.current().battles[BID].defender.chit
            fr.act(AnswerDecision(mine[0].id, choose(mine[0])))
            continue
        fights = fr.fights()
        if not fights or not fights[BID].out:
            return seen
        seen.append(("FR", (t.home("FR") / "battles" / NAME).read_bytes()))
        if stop_after is not None and len(seen) >= stop_after:
            return seen
        au.load_path(t.send("FR", "AU"))
        au.last_battle_file = None
        while au.last_battle_file is None:
            q = _own(au, "AU")[0]
            if q.kind == "battle.chit":
                assert not au.current().battles[BID].attacker.chit
            au.act(AnswerDecision(q.id, choose(q)))
        seen.append(("AU", au.last_battle_file.read_bytes()))
        fr.load_path(t.send("AU", "FR"))
    raise AssertionError("the battle does not end")


def _one_sentence(err):
    text = str(err)
    assert "\n" not in text and text.count(". ") == 0, text


# ---------------------------------------------------------------- the exchange


def test_a_two_corps_defender_answers_through_battle_files_and_every_folder_replays_the_slot(tmp_path):
    # 4.2.7 (000:170): field combat with more than one corps of the defender: the two opponents exchange files.
    t = Table(tmp_path)
    fr = t.open("FR")
    assert [(d.power, d.kind) for d in fr.current().pending.values()] == [("AU", "battle.commander")]
    # France has nothing to answer: the question file is written (000:172 naming) and the slot cannot end.
    assert (t.home("FR") / "battles" / NAME).is_file()
    assert any(f"send battles/{NAME} to Austria (Player AU <au@example.org>); the game waits for "
               f"Austria's reply: put it in battles/ and run 'eiapbem load battles/{REPLY}'" in line
               for line in t.open("FR").battle_lines())  # the reply's own name, not the question's
    with pytest.raises(IllegalAction, match=f"waits for AU's reply to battles/{NAME}") as err:
        t.open("FR").end_phase()
    _one_sentence(err.value)
    t.open("AU").load_path(t.send("FR", "AU"))
    au = t.open("AU")
    assert [d.kind for d in _own(au, "AU")] == ["battle.commander"]
    au.act(AnswerDecision(_own(au, "AU")[0].id, "leader:AU:charles"))
    # The chits come next, for both sides at once: Austria's reply goes before it chooses (000:176).
    assert au.last_battle_file is not None and au.last_battle_file.name == REPLY
    t.open("FR").load_path(t.send("AU", "FR"))
    fr = t.open("FR")
    assert sorted((d.power, d.kind) for d in fr.current().pending.values()) == [("AU", "battle.chit"), ("FR", "battle.chit")]
    fr.act(AnswerDecision(_own(fr, "FR")[0].id, "assault"))
    # Austria sees the battle as it stood when its question arose: France's chit is not in it.
    t.open("AU").load_path(t.send("FR", "AU"))
    au = t.open("AU")
    assert au.current().battles[BID].defender.commander == "leader:AU:charles"
    assert not au.current().battles[BID].attacker.chit and [d.kind for d in _own(au, "AU")] == ["battle.chit"]
    au.act(AnswerDecision(_own(au, "AU")[0].id, "cordon"))
    t.open("FR").load_path(t.send("AU", "FR"))
    assert "attacker chose assault, defender chose cordon" in [e.text for e in t.open("FR").current().battles[BID].events]
    fight(t)
    fr = t.open("FR")
    st = fr.current()
    assert st.battles[BID].finished and not st.pending
    assert fr.fights()[BID].closed
    path = fr.end_phase()
    for p in CLIENTS:
        (t.home(p) / "commin").mkdir(exist_ok=True)
        shutil.copy(path, t.home(p) / "commin" / path.name)
        rep = t.open(p).load_all()
        assert rep.refused == [] and [n for n, _ in rep.loaded] == [path.name]
    hashes = {p: t.open(p).state.state_hash() for p in ("FR",) + CLIENTS}
    assert len(set(hashes.values())) == 1, hashes
    assert t.open("AU").data.battles.to_obj() == {} and t.open("FR").data.battles.to_obj() == {}
    assert "battle.end" in [e.kind for e in t.open("PR").journal()]


def test_each_kind_of_battle_file_has_its_own_name_and_the_older_name_still_loads(tmp_path):
    # The question, reply and close files shared one name, so a folder kept only the latest of them. A file
    # under that older name (a game in progress) loads as before: files are known by what they hold.
    t = Table(tmp_path)
    t.open("FR")  # France's session writes its question
    old = t.home("AU") / "battles" / "pbembattle_Ulm_Ulm0.battle"
    old.parent.mkdir(exist_ok=True)
    shutil.copy(t.home("FR") / "battles" / NAME, old)
    au = t.open("AU")
    au.load_path(old)
    au = t.open("AU")
    while au.last_battle_file is None:
        au.act(AnswerDecision(_own(au, "AU")[0].id, _first(_own(au, "AU")[0])))
    t.open("FR").load_path(t.send("AU", "FR"))
    fight(t)
    assert t.open("FR").current().battles[BID].finished
    assert {NAME, REPLY, CLOSE} <= {p.name for p in (t.home("FR") / "battles").iterdir()}
    assert {NAME, REPLY, old.name} <= {p.name for p in (t.home("AU") / "battles").iterdir()}


def test_battle_files_carry_the_changes_not_the_state_and_stay_a_few_kilobytes(tmp_path):
    # Battle format 2 (the file format's battle files section): a question carries the changes from the state the defender holds
    # (the slot's start, then the last question's), so a battle file stays near a kilobyte or two whatever the
    # size of the game, and the attacker's turn file, which carries them all, stays small too.
    t = Table(tmp_path)
    seen = fight(t)
    assert len(seen) >= 6 and seen[0][0] == "FR"
    close = t.home("FR") / "battles" / CLOSE
    sizes = [len(data) for _, data in seen] + [close.stat().st_size]
    assert max(sizes) <= 8 * 1024, sizes
    fr = t.open("FR")
    for i, (data, fk) in enumerate(fr.fights()[BID].files[:-1:2]):
        body = crypto.open_body(files.envelope.parse(data), fk)
        assert "state" not in body and {"base", "delta", "hash"} <= set(body), i
    path = fr.end_phase()
    assert path.stat().st_size <= 16 * 1024, path.stat().st_size
    shutil.copy(path, t.home("PR") / "commin" / path.name)
    assert t.open("PR").load_all().refused == []
    assert t.open("PR").state.state_hash() == t.open("FR").state.state_hash()


def test_a_question_of_battle_format_1_with_the_whole_state_still_loads(tmp_path, monkeypatch):
    from eiapbem.client import exchange

    monkeypatch.setattr(exchange, "question_state", lambda base, asked: {"state": asked.encode()})
    t = Table(tmp_path)
    t.open("FR")
    t.open("AU").load_path(t.send("FR", "AU"))
    monkeypatch.undo()
    au = t.open("AU")
    assert [d.kind for d in _own(au, "AU")] == ["battle.commander"]
    au.act(AnswerDecision(_own(au, "AU")[0].id, "leader:AU:charles"))
    t.open("FR").load_path(t.send("AU", "FR"))
    fight(t)  # the next questions are of format 2, built on the state the first one showed
    fr = t.open("FR")
    assert fr.current().battles[BID].finished
    path = fr.end_phase()
    shutil.copy(path, t.home("PR") / "commin" / path.name)
    assert t.open("PR").load_all().refused == []


def test_a_question_built_on_a_state_the_defender_does_not_hold_is_refused(tmp_path):
    t = Table(tmp_path)
    t.open("FR")
    au = t.open("AU")
    au.data = replace(au.data, state=au.state.with_power("AU", treasury=au.state.powers["AU"].treasury + 1))
    au.save()
    before = t.saves("AU")
    with pytest.raises(OutOfOrder, match="change of a game state you do not hold") as err:
        t.open("AU").load_path(t.send("FR", "AU"))
    _one_sentence(err.value)
    assert t.saves("AU") == before


def test_without_an_exchange_the_defender_answers_by_standing_orders(tmp_path):
    # 4.2.7 (000:170): one corps of the defender: no battle files; the rules' standing orders answer (11.2.1).
    t = Table(tmp_path, defenders=1)
    fr = t.open("FR")
    assert [d.power for d in fr.current().pending.values()] == ["FR"]
    assert fight(t) == []
    assert t.open("FR").current().battles[BID].finished
    assert not (t.home("FR") / "battles" / NAME).exists()
    path = t.open("FR").end_phase()
    shutil.copy(path, t.home("AU") / "commin" / path.name)
    assert t.open("AU").load_path(t.home("AU") / "commin" / path.name) == "1805-09/land/turn/FR"
    assert t.open("AU").state.state_hash() == t.open("FR").state.state_hash()


def test_quick_combat_needs_no_exchange(tmp_path):
    # 4.1.1 (000:48): PBEM Quick Combat: no file exchanges.
    t = Table(tmp_path, flags=["pbem-quick-combat"])
    assert fight(t) == []
    assert t.open("FR").current().battles[BID].finished


def test_restart_is_refused_once_battle_files_were_exchanged(tmp_path):
    # 000:176: the choices of a round cannot be taken back once the other side's are known.
    t = Table(tmp_path)
    fight(t, stop_after=1)
    with pytest.raises(IllegalAction, match="cannot be restarted") as err:
        t.open("FR").restart()
    _one_sentence(err.value)


# ---------------------------------------------------------------- the dice


def test_battle_dice_come_from_both_nonces_and_the_rest_from_the_slot():
    from eiapbem.core.dice import Dice

    router = battles.BattleDice(Dice(b"slot seed"))
    before = router.d6(f"battle/{BID}/day1/withdrawal")
    assert before == Dice(b"slot seed").d6(f"battle/{BID}/day1/withdrawal")
    router.use(BID, b"exchanged seed")
    assert router.d6(f"battle/{BID}/day1/round1/attacker") == Dice(b"exchanged seed").d6(f"battle/{BID}/day1/round1/attacker")
    assert router.d6("naval/intercept") == Dice(b"slot seed").d6("naval/intercept")
    # Only the slot's rolls are recorded for the slot seed check.
    assert sorted(router.to_obj()) == [f"battle/{BID}/day1/withdrawal", "naval/intercept"]
    assert router.d6(f"battle/{BID}/day1/withdrawal") == before  # a label is drawn once


def test_the_attackers_hidden_choices_are_bound_to_its_nonce():
    a = bytes(32)
    acts = [engine.action_to_obj(AnswerDecision("x/0", "attack"))]
    assert battles.hidden_commit(a, acts) != battles.hidden_commit(a, [engine.action_to_obj(AnswerDecision("x/0", "withdraw"))])
    assert battles.hidden_commit(a, acts) != battles.hidden_commit(bytes([1]) + bytes(31), acts)


# ---------------------------------------------------------------- refusals


def _refused(t, power, path, exc, match):
    before = t.saves(power)
    with pytest.raises(exc, match=match) as err:
        t.open(power).load_path(path)
    _one_sentence(err.value)
    assert t.saves(power) == before
    return err.value


def test_a_reply_signed_by_a_third_power_is_refused(tmp_path):
    t = Table(tmp_path)
    fight(t, stop_after=1)
    fr = t.open("FR")
    f = fr.fights()[BID]
    pr = keys.open_identity((t.home("PR") / folders.identity_name(GAME, "PR")).read_bytes(), "pw-PR")
    record = replace(Battle.from_obj(f.record), sides=("FR", "PR"))  # sealed so that France can open it
    sealed, _ = files.write_battle(fr.contents.chain, record, pr, battles.slot_label("1805-09/land/turn/FR", "ulm", BID),
                                   {"battle": BID, "answers": []}, nonce=bytes(32))
    bad = t.home("FR") / "battles" / "forged.battle"
    bad.write_bytes(sealed.data)
    _refused(t, "FR", bad, AuthorNotAllowed, "signed by PR, who is not a side of the battle at Ulm")


def test_a_replayed_or_skipped_battle_file_is_refused(tmp_path):
    t = Table(tmp_path)
    seen = fight(t, stop_after=3)  # Q1, R1, Q2
    assert [w for w, _ in seen] == ["FR", "AU", "FR"]
    # Austria's first reply again at France's computer: already loaded.
    old = t.home("FR") / "battles" / "old.battle"
    old.write_bytes(seen[1][1])
    _refused(t, "FR", old, AlreadyLoaded, "already loaded; nothing changed")
    # Austria, one step behind (a copy of its folder before it loaded the second question), gets the third.
    shutil.copytree(t.home("AU"), tmp_path / "au-behind")
    more = fight(t, stop_after=3)  # Q2 again, R2, Q3
    assert [w for w, _ in more] == ["FR", "AU", "FR"]
    t.homes["AU"] = tmp_path / "au-behind"
    _refused(t, "AU", t.send("FR", "AU"), OutOfOrder, "does not follow the last battle file at Ulm")
    # And the first question again: already loaded.
    first = t.home("AU") / "battles" / "first.battle"
    first.write_bytes(seen[0][1])
    _refused(t, "AU", first, AlreadyLoaded, "already loaded")


def test_a_flipped_byte_is_refused(tmp_path):
    t = Table(tmp_path)
    fight(t, stop_after=1)
    path = t.send("FR", "AU")
    data = bytearray(path.read_bytes())
    data[len(data) - 100] ^= 0x01
    path.write_bytes(bytes(data))
    _refused(t, "AU", path, BadFile, "altered")


def test_a_battle_file_of_another_game_is_refused(tmp_path):
    t = Table(tmp_path / "one")
    other = Table(tmp_path / "two")
    fight(other, stop_after=1)
    target = t.home("AU") / "battles" / NAME
    target.parent.mkdir(exist_ok=True)
    shutil.copy(other.home("FR") / "battles" / NAME, target)
    _refused(t, "AU", target, WrongGame, "belongs to the game")


def test_a_battle_file_for_someone_else_is_refused(tmp_path):
    t = Table(tmp_path)
    fight(t, stop_after=1)
    target = t.home("PR") / "battles" / NAME
    target.parent.mkdir(exist_ok=True)
    shutil.copy(t.home("FR") / "battles" / NAME, target)
    _refused(t, "PR", target, EiaError, "not sealed for PR")


def test_a_turn_file_that_changes_the_battle_is_refused_by_every_other_player(tmp_path):
    # The attacker cannot put answers in the defender's mouth (the replies are the defender's signed files),
    # nor change its own choices after the defender's were known (000:176).
    from eiapbem.client.session import step_for

    t = Table(tmp_path)
    fight(t)
    fr = t.open("FR")
    chain0, state0 = fr.contents.chain, fr.state
    real = fr.end_phase()
    pr = t.open("PR")
    body = files.load_file(pr.contents.chain, real.read_bytes(), [pr.me], step_for(pr.state), real.name).body
    fl = body["battles"][BID]
    assert len(fl) == 2 * len(body["exchanges"]) + 1 >= 5  # questions, replies, the end
    chit = engine.action_from_obj(body["actions"][0])
    assert chit.decision == f"{BID}/1"  # France's chit, given while Austria's was asked
    other = "echelon" if chit.choice != "echelon" else "assault"
    forgeries = {
        "swapped replies": (dict(body, battles={BID: [fl[0], fl[3], fl[2], fl[1]] + fl[4:]}), "does not follow"),
        "another chit": (dict(body, actions=[engine.action_to_obj(AnswerDecision(chit.decision, other))] + body["actions"][1:]),
                         "not the ones it committed to"),
        "a reply dropped": (dict(body, exchanges=body["exchanges"][:-1]), "no exchange uses"),
    }
    (t.home("PR") / "commin").mkdir(exist_ok=True)
    for what, (forged, match) in forgeries.items():
        sealed, _ = files.write_turn(chain0, fr.me, step_for(state0), "1805-09/land/turn/FR", forged)
        bad = t.home("PR") / "commin" / real.name
        bad.write_bytes(sealed.data)
        before = t.saves("PR")
        with pytest.raises(EiaError, match=match) as err:
            t.open("PR").load_path(bad)
        _one_sentence(err.value)
        assert t.saves("PR") == before, what
    shutil.copy(real, t.home("PR") / "commin" / real.name)
    assert t.open("PR").load_path(t.home("PR") / "commin" / real.name) == "1805-09/land/turn/FR"


def test_a_hot_seat_defender_answers_at_the_attackers_computer(tmp_path):
    # 4.2.1: Austria plays at the host's computer too; the battle files need not travel, each side's
    # session takes the other's file from the save; Prussia checks the signed files as usual.
    t = Table(tmp_path, clients=("PR",))
    for _ in range(100):
        fr = t.open("FR")
        mine = _own(fr, "FR")
        if mine:
            fr.act(AnswerDecision(mine[0].id, mine[0].options[0]))
            continue
        f = fr.fights().get(BID)
        if not f or not f.out:
            break
        assert any("Austria plays at this computer and must answer" in line for line in fr.battle_lines())
        au = t.open("AU")
        while au.last_battle_file is None:
            q = _own(au, "AU")[0]
            au.act(AnswerDecision(q.id, q.options[0]))
        assert any("France plays at this computer and goes on" in line for line in au.battle_lines())
    fr = t.open("FR")
    assert fr.current().battles[BID].finished and len(fr.data.battles.plan) >= 2
    path = fr.end_phase()
    (t.home("PR") / "commin").mkdir(exist_ok=True)
    shutil.copy(path, t.home("PR") / "commin" / path.name)
    assert t.open("PR").load_path(t.home("PR") / "commin" / path.name) == "1805-09/land/turn/FR"
    assert t.open("PR").state.state_hash() == t.open("FR").state.state_hash() == t.open("AU").state.state_hash()


def test_which_questions_need_battle_files_000_170():
    # 4.2.7 (000:170): more than one corps of the defender engaged; 4.1.1 (000:48): not under PBEM Quick Combat.
    from battlekit import land_state

    def questions(defenders, **options):
        s = land_state(**options)
        s = corps(s, "corps:FR:I", "ulm", infantry=10)
        s = corps(s, "corps:FR:II", "ulm", infantry=10)
        aus = []
        for i in range(defenders):
            s = corps(s, f"corps:AU:{i}", "ulm", infantry=8)
            aus.append(f"corps:AU:{i}")
        s = start_field_battle(s, "ulm", ["corps:FR:I", "corps:FR:II"], aus, ctx()).state
        return s, {d.power: d for d in s.pending.values()}

    s, qs = questions(2)
    assert battles.exchange_needed(s, qs["AU"]) and not battles.exchange_needed(s, qs["FR"])
    assert not battles.automatic(s, qs["AU"])
    s, qs = questions(1)
    assert "AU" in qs and not battles.exchange_needed(s, qs["AU"]) and battles.automatic(s, qs["AU"])
    s, qs = questions(2, pbem_quick_combat=True)
    assert "AU" not in qs  # the rules' standing order already chose the defender's chit (000:1648-1650)
    for d in s.pending.values():
        assert not battles.exchange_needed(s, d)


def test_the_defenders_next_line_after_its_reply_names_the_battle_file_to_load_not_commin(tmp_path):
    # 4.2.7 (000:174): after Austria's reply its 'Next:' said "when their files arrive, put them in commin/", where
    # France's next question is a battle file that goes in battles/.
    from eiapbem.client.status import status_record

    t = Table(tmp_path)
    t.open("FR")  # France's folder writes its question (the battle began with its slot)
    t.open("AU").load_path(t.send("FR", "AU"))
    au = t.open("AU")
    assert "'eiapbem answer " in status_record(au)["next"]
    au.act(AnswerDecision(_own(au, "AU")[0].id, "leader:AU:charles"))
    nxt = status_record(t.open("AU"))["next"]
    assert nxt == (f"send your reply battles/{REPLY} to France; then load what France sends: its next battle file in "
                   f"battles/ ('eiapbem load battles/{NAME}'), or its turn file in commin/ ('eiapbem load')"), nxt
    t.open("FR").load_path(t.send("AU", "FR"))
    fr = t.open("FR")
    fr.act(AnswerDecision(_own(fr, "FR")[0].id, "assault"))
    t.open("AU").load_path(t.send("FR", "AU"))  # France's next question: Austria answers again
    assert "'eiapbem answer " in status_record(t.open("AU"))["next"]
