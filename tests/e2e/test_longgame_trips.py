"""What two new players tripped on in a long game by email (docs/decisions.md, "A long game as new players play it").

Each test failed before its fix.  The game itself was played by the CLI only, from a script under /tmp
(`/tmp/lg/do.py`, see the decisions section), with France hosting and Austria in a second folder.
"""

from __future__ import annotations

import email
import email.policy

import pytest
from click.testing import CliRunner
from test_battle_files import BID, NAME, REPLY, Table, _own, fixed_randomness  # noqa: F401 (the autouse fixture)

from eiapbem.cli import main
from eiapbem.cli.actions_cmd import _describe
from eiapbem.client import newgame
from eiapbem.client.status import status_lines, status_record
from eiapbem.pbem import folders
from eiapbem.pbem.email import Person
from eiapbem.rules.diplomacy.orders import SetSurrenderTerms
from eiapbem.rules.engine import AnswerDecision


def test_an_order_with_a_repeated_option_is_confirmed_as_typed():
    # It read "surrender-terms --enemy AU --give-conditional --term ('B.3', 'B.4') accepted": a Python tuple.
    order = SetSurrenderTerms(enemy="AU", give_conditional=True, term=("B.3", "B.4"), cede=("tyrol",))
    assert _describe(order) == "--enemy AU --give-conditional --term B.3 --term B.4 --cede tyrol"


def test_the_gamestart_mail_gives_the_whole_join_command(tmp_path):
    # The mail said "eiapbem join commin/Lg_gamestart.pbm --power AU", which click refuses: --email is required.
    f = folders.GameFolders(tmp_path)
    f.commout.mkdir()
    gs, key = tmp_path / "Lg_gamestart.pbm", tmp_path / "Lg_AU.key"
    gs.write_bytes(b"gamestart")
    key.write_bytes(b"key")
    path = newgame._gamestart_draft(f, "Lg", gs, key, Person("Fran", "fran@example.org"),
                                    Person("Cem", "cem@example.org"), "AU")
    msg = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
    body = msg.get_body(("plain",)).get_content()
    assert "eiapbem join commin/Lg_gamestart.pbm --power AU --email cem@example.org" in body


def test_status_never_offers_a_naval_skip_the_naval_phase_refuses(tmp_path):
    # "no fleet to move: 'eiapbem skip --phase naval --mode continuous' ...": the naval slot itself refuses it (13.9).
    from dataclasses import replace

    from eiapbem.core.errors import IllegalAction
    from eiapbem.rules.model import Phase, Slot
    from eiapbem.rules.skips import SetSkip  # noqa: F401 (the command the hint names)

    t = Table(tmp_path)
    au = t.open("AU")
    st = au.state
    naval = st.replace(slot=Slot(phase=Phase.NAVAL, step="turn", power="AU", actors=("AU",)), pending=type(st.pending)())
    au.data = replace(au.data, state=naval)
    nxt = status_record(au)["next"]
    assert "skip --phase naval" in nxt and "in your next file outside the naval phase" in nxt, nxt
    with pytest.raises(IllegalAction, match="cannot be set to skip while in the naval phase"):
        au.act(SetSkip(phase="naval", mode="continuous"))


def test_status_next_follows_the_battle_files(tmp_path, monkeypatch):
    t = Table(tmp_path)
    # The attacker waits for the defender's reply: 'Next' said "then 'eiapbem end-phase'", which is refused.
    nxt = status_record(t.open("FR"))["next"]
    assert nxt.startswith(f"send battles/{NAME} to Austria and wait for the reply"), nxt
    # It named the question to load where the reply is meant: the reply has its own name.
    assert f"'eiapbem load battles/{REPLY}'" in nxt and f"load battles/{NAME}" not in nxt, nxt
    assert "end-phase" not in nxt
    # 'Possible now' said "nothing but 'eiapbem end-phase'", which is refused until the reply is in (4.2.7).
    possible = [x for x in status_lines(t.open("FR")) if x.startswith("Possible now:")]
    assert len(possible) == 1 and "end-phase" not in possible[0] and "Austria's battle reply" in possible[0], possible
    # The defender has a question: 'Next' said "when their files arrive, put them in commin/ and run 'eiapbem load'".
    t.open("AU").load_path(t.send("FR", "AU"))
    au = t.open("AU")
    q = _own(au, "AU")[0]
    assert status_record(au)["next"].startswith(f"AU to answer battle.commander {q.id}: 'eiapbem answer {q.id} CHOICE'")
    assert any(line.startswith("Next: AU to answer battle.commander") for line in status_lines(au))
    # Answering it writes the reply; 'answer' then named the question just answered as the next one.
    from eiapbem.cli import game_cmd

    monkeypatch.setattr(game_cmd, "open_session", lambda *a, **k: t.open("AU"))
    r = CliRunner().invoke(main.cli, ["answer", q.id, "leader:AU:charles"], terminal_width=200)
    assert r.exit_code == 0, (r.output, r.exception)
    assert f"your reply is battles/{REPLY}" in r.output  # the reply has its own name (question, reply, close)
    assert "next:" not in r.output, r.output
    # France loads the reply and answers its own question in its own folder: its 'next' still comes from its slot.
    t.open("FR").load_path(t.send("AU", "FR"))
    fr = t.open("FR")
    mine = _own(fr, "FR")[0]
    assert status_record(fr)["next"].startswith(f"FR to answer {mine.kind} {mine.id}")
    fr.act(AnswerDecision(mine.id, "assault"))
    assert BID in t.open("FR").fights()


def test_after_its_combat_a_unit_may_occupy_the_vacant_enemy_city_of_its_area_11_1_1():
    # 11.1.1 (000:1614): after a combat the phasing player's forces "may immediately occupy ... any friendly-controlled
    # or vacant city in the area".  In the game France beat Austria's field army at Innsbruck; 'land besiege' said the
    # empty city is taken by 'land move --city', which then refused: "after combat a unit enters only a friendly city".
    from battlekit import corps, ctx, land_state, play

    from eiapbem.core.errors import IllegalAction
    from eiapbem.rules import engine
    from eiapbem.rules.land.combat import Attack
    from eiapbem.rules.land.movement import MoveUnit
    from eiapbem.rules.model import Location, LocationKind

    c = ctx()
    s = corps(land_state(), "corps:FR:V", "munich", infantry=14)
    s = corps(s, "corps:AU:I", "innsbruck", infantry=2)
    s = corps(s, "corps:FR:III", "munich", infantry=3)
    s = engine.apply_action(s, "FR", MoveUnit(unit="corps:FR:V", path="innsbruck"), c).state
    s = engine.apply_action(s, "FR", Attack(area="innsbruck"), c).state
    s = play(s, next(iter(s.battles)), c)
    assert next(iter(s.battles.values())).finished and "corps:AU:I" not in {
        u.id for u in s.units.values() if u.location == Location(LocationKind.AREA, "innsbruck")}
    assert s.city_control.get("innsbruck") is None or s.city_control["innsbruck"].nation == "AU"
    s = engine.apply_action(s, "FR", MoveUnit(unit="corps:FR:V", path="innsbruck", city=True), c).state
    assert s.units["corps:FR:V"].location == Location(LocationKind.CITY, "innsbruck")
    assert s.city_control["innsbruck"].nation == "FR"  # taken, as an empty enemy city is (13.5.2)
    # A unit that did not fight there still may not move: the phase's movement is over (11.0).
    with pytest.raises(IllegalAction, match="movement is over"):
        engine.apply_action(s, "FR", MoveUnit(unit="corps:FR:III", path="innsbruck", city=True), c)


def test_a_port_that_builds_no_ships_is_answered_with_the_ports_that_do():
    # "Rouen is not a ship building port (12.5.3)" and nothing more: the player had to guess the next port.
    from test_economy import ctx_with, state_for

    from eiapbem.core.errors import IllegalAction
    from eiapbem.rules import engine
    from eiapbem.rules.economy.phase import BuyShips

    with pytest.raises(IllegalAction, match=r"Rouen is not a ship building port \(12\.5\.3\)") as err:
        engine.check_orders(state_for(month="1806-03"), "FR", [BuyShips(item="heavy", count=2, port="rouen")], ctx_with())
    assert err.value.hint == "FR's own ship building ports: brest, caen, la-rochelle, toulon"


@pytest.mark.parametrize("asked", ["naval:1805-10.gulf-of-lion.1:retreat:FR", "1805-10.gulf-of-lion.1",
                                   "battle:1805-02:innsbruck:0/3"])
def test_battle_report_takes_the_id_a_question_names(monkeypatch, asked):
    # 'status' named "naval:1805-10.gulf-of-lion.1:retreat:FR"; 'battle report' of it said "there is no battle".
    from types import SimpleNamespace

    from eiapbem.cli import battle_cmd, common
    from eiapbem.client import documents, fog

    found = {"1805-10.gulf-of-lion.1": ("naval", "N"), "battle:1805-02:innsbruck:0": ("field", "F")}
    monkeypatch.setattr(common, "open_session", lambda *a, **k: SimpleNamespace(current=lambda: None))
    monkeypatch.setattr(documents, "battles_of", lambda state: found)
    monkeypatch.setattr(battle_cmd, "render", lambda what, b, as_json: f"report of {what} {b}")
    monkeypatch.setattr(fog, "check_report", lambda *a: None)
    monkeypatch.setattr(fog, "viewers", lambda s: ())
    import click

    cli = click.Group()
    battle_cmd.register(cli)  # a group of its own: it binds the patched open_session (main's may be built already)
    r = CliRunner().invoke(cli, ["battle", "report", asked], terminal_width=200)
    assert r.exit_code == 0, (r.output, r.exception)
    assert r.output.strip() == ("report of field F" if asked.startswith("battle:") else "report of naval N")
    r = CliRunner().invoke(cli, ["battle", "report", "naval:1805-11.x.1:retreat:FR"], terminal_width=200)
    assert r.exit_code != 0 and "there is no battle" in str(r.exception)


def test_status_offers_the_reinforcement_skip_when_nothing_is_due(tmp_path):
    # A reinforcement slot with nothing due is not passed by the program (transfers, leaders and the move order
    # are choices: docs/decisions.md, "Which slots count as 'no choice'"): status names the 13.9 setting instead.
    from dataclasses import replace

    from eiapbem.rules.model import Date, Phase, Slot
    from eiapbem.rules.sequence import reinforcements_ready
    from eiapbem.rules.skips import SetSkip

    t = Table(tmp_path)
    au = t.open("AU")
    st = au.state
    reinf = st.replace(slot=Slot(phase=Phase.REINFORCEMENT, step="turn", power="AU", actors=("AU",)),
                       pending=type(st.pending)())
    # France's war on Austria began a month before: one declared this month would cancel the setting at the slot's
    # end (13.9.1), and status then does not offer it (tests/cli/test_cli_roughedges.py).
    # Austria holds no skip setting (a new game's pace gives its human one; held, the line names none)
    reinf = reinf.replace(powers=type(reinf.powers)(
        (p, ps.replace(wars=type(ps.wars)((q, w.replace(since=Date(1805, 8))) for q, w in ps.wars.items()),
                       skips=type(ps.skips)() if p == "AU" else ps.skips))
        for p, ps in reinf.powers.items()))
    assert not reinforcements_ready(reinf, "AU")
    au.data = replace(au.data, state=reinf)
    rec = status_record(au)
    assert rec["possible"], "the rules still offer choices in the slot"
    assert "nothing is due this month" in rec["next"] and "skip --phase reinforcement --mode continuous" in rec["next"]
    au.act(SetSkip(phase="reinforcement", mode="continuous"))  # and the setting is accepted in that slot
