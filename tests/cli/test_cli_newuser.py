"""Rough edges a new user met playing from the README (issue 19, "tried as a new user would").

Each test pins one mend: a help text that said the wrong thing or nothing, a status line that did not
say which command comes next, a refusal without the way out, an info box that hid who holds a city.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from click.testing import CliRunner

from battlekit import corps, ctx, land_state
from clikit import WEAK, cli, new_game
from eiapbem.cli import main
from eiapbem.cli.actions_cmd import _describe
from eiapbem.client.actionforms import field_comments as _field_comments
from eiapbem.client import show
from eiapbem.client.session import TEST_SCRYPT_ENV
from eiapbem.client.status import answer_hint, render
from eiapbem.core.errors import IllegalAction
from eiapbem.rules import engine
from eiapbem.rules.diplomacy.orders import SueForPeace
from eiapbem.rules.land.movement import MoveUnit
from eiapbem.rules.land.sieging import Besiege
from eiapbem.rules.model import Factors, Garrison, Leader, LeaderStatus, Location, LocationKind, garrison_id

C = ctx()


def _help(*words: str) -> str:
    r = CliRunner().invoke(main.cli, [*words, "--help"], terminal_width=200)
    assert r.exit_code == 0, r.output
    return " ".join(r.output.split())


def test_declare_war_target_is_not_described_as_a_piracy_target():
    # It read "the power whose trade the privateers prey on (8.9)" (the piracy order's text).
    text = _help("diplomacy", "declare-war")
    assert "privateers" not in text and "to declare war on" in text
    assert "privateers prey on (8.9)" in _help("naval", "piracy")
    assert "victory points are reduced" in _help("economy", "deduct-vp")
    assert "privateers" not in _help("reinforce", "transfer-factors")


def test_every_option_of_the_surrender_terms_and_the_peace_orders_says_what_it_is():
    text = _help("diplomacy", "surrender-terms")
    for words in ("the enemy these settings are toward", "offer conditional terms", "victory-conditions",
                  "accept an informal peace", "list-A condition", "(B.1, B.7, C.1, C.6); may be given several times",
                  "(B.6, C.4); may be given several times", "separate peace with this enemy (6.4); may be given"):
        assert words in text, words
    assert "the enemy power you sue for peace" in _help("diplomacy", "sue-for-peace")
    assert "purchase-cost" in _help("economy", "buy-army") and "show pool" in _help("economy", "buy-counter")
    assert "end its 'naval move' path in the port" in _help("naval", "attack")


def test_a_record_fields_documentation_comment_becomes_its_help():
    notes = _field_comments("eiapbem.rules.diplomacy.orders", "SueForPeace")
    assert notes == {"accept_unconditional": "Accept unconditional terms if they are offered (conditional terms must always be accepted)."}
    assert _field_comments("eiapbem.rules.diplomacy.orders", "NoSuchClass") == {}


def test_an_order_with_a_flag_is_confirmed_as_typed():
    # It read "sue-for-peace --to AU --accept-unconditional True accepted".
    assert _describe(SueForPeace(to="AU", accept_unconditional=True)) == "--to AU --accept-unconditional"
    assert _describe(SueForPeace(to="AU")) == "--to AU"


def test_answer_help_explains_the_battle_chits():
    text = _help("answer")
    assert "eiapbem answer battle:1805-01:cracow:0/0 assault" in text
    assert "defend (saves casualties)" in text and "tables show operational-possibilities" in text


def test_a_pending_question_makes_the_next_step_the_answer_command():
    chit = SimpleNamespace(id="battle:1805-01:cracow:0/0", power="PR", kind="battle.chit", options=("assault", "probe"))
    loss = SimpleNamespace(id="battle:1805-01:cracow:0/2", power="PR", kind="battle.casualties",
                           options=("corps:PR:I/infantry", "corps:PR:I/cavalry"))
    assert answer_hint([chit], ["AU"]) is None
    hint = answer_hint([chit], ["PR"])
    assert hint.startswith("PR to answer battle.chit battle:1805-01:cracow:0/0: 'eiapbem answer battle:1805-01:cracow:0/0 CHOICE'")
    assert "one of assault, probe" in hint and "'eiapbem battle report battle:1805-01:cracow:0'" in hint
    assert "the chits" in hint and "the chits" not in answer_hint([loss], ["PR"])
    # The choices of a casualty question hold slashes: 'Next:' lists them with commas (the "Pending decisions" line
    # keeps its slashes, which programs and the end-to-end tests read).
    rec = {"game": "G", "scenario": "classic-1805", "plays": ["PR"], "hosts": False, "over": False, "date_name": "January 1805",
           "state_hash": "0" * 64, "phase": "land", "phase_implemented": True, "simultaneous": False, "slot": "x",
           "turn_of": "PR", "computer": [], "waiting": [], "power": "PR", "orders_sent": None, "actions_taken": None,
           "next": hint, "battles": [], "not_implemented": [], "partly_built": [], "log": [],
           "pending": [{"id": loss.id, "power": "PR", "kind": loss.kind, "options": list(loss.options)}]}
    out = render(rec)
    assert f"Next: {hint}" in out
    assert "Pending decisions: battle:1805-01:cracow:0/2 for PR (battle.casualties: corps:PR:I/infantry/corps:PR:I/cavalry)" in out
    assert "CHOICE one of corps:PR:I/infantry, corps:PR:I/cavalry" in answer_hint([loss], ["PR"])


def test_besieging_an_empty_city_names_the_way_to_take_it():
    s = corps(land_state(), "corps:FR:V", "innsbruck", infantry=10)
    with pytest.raises(IllegalAction) as e:
        engine.apply_action(s, "FR", Besiege(unit="corps:FR:V"), C)
    assert "nothing for corps:FR:V to besiege" in str(e.value)
    assert e.value.hint == ("an ungarrisoned enemy city is taken by moving into it (13.5.2): "
                            "'eiapbem land move --unit corps:FR:V --path innsbruck --city'")
    # ... and the hint's command does it.
    s = engine.apply_action(s, "FR", MoveUnit(unit="corps:FR:V", path="innsbruck", city=True), C).state
    box = show.area(s, C.map, "innsbruck")
    assert "  controlled by AU; its city held by FR (13.5.2)" in box
    assert "    corps:FR:V: 10 infantry inside the city" in box


def test_the_area_box_shows_who_besieges():
    loc = Location(LocationKind.CITY, "innsbruck")
    s = corps(land_state(), "corps:FR:V", "innsbruck", infantry=10)
    s = s.with_unit(Garrison(id=garrison_id("AU", loc), nation="AU", location=loc, factors=Factors(infantry=2)))
    s = engine.apply_action(s, "FR", Besiege(unit="corps:FR:V"), C).state
    box = show.area(s, C.map, "innsbruck")
    assert "    corps:FR:V: 10 infantry besieging the city" in box
    assert any(line.startswith("  controlled by ") and "its city held by" not in line for line in box)


def test_an_empty_free_state_pool_row_says_nothing_once():
    from eiapbem.data import world
    from eiapbem.rules.scenario import initial_state

    s = initial_state(world.load_scenario("classic-1805"), world.load_raw())  # Prussia runs Saxony, a free state
    s = s.replace(minors=s.minors.set("saxony", s.minors["saxony"].replace(stored_factors=Factors())))
    rows = [line for line in show.pool(s, "PR") if line.startswith("  saxony (free state)")]
    assert rows == ["  saxony (free state) to place: nothing"], rows


def test_setup_status_names_the_shipped_setup(tmp_path):
    home = new_game(tmp_path)
    r = cli(home, "status", "--power", "RU", "--password", "pw-RU")
    assert r.exit_code == 0, r.output
    assert "Next: RU to play: 'eiapbem setup load default --power RU' places the shipped setup" in r.output


def test_places_typed_as_people_write_them_are_found(tmp_path):
    from eiapbem.cli.common import place_name

    assert place_name("Cracow") == "cracow" and place_name("St Petersburg") == "st-petersburg"
    assert place_name("Glogau, Posen ,Breslau") == "glogau,posen,breslau" and place_name("box:brest") == "box:brest"
    home = new_game(tmp_path)
    r = cli(home, "show", "area", "St Petersburg", "--power", "RU", "--password", "pw-RU")
    assert r.exit_code == 0 and r.output.startswith("St. Petersburg (st-petersburg)"), r.output


def test_an_order_of_another_phase_says_which_phase_it_is_now(tmp_path, run_cli):
    # It read "naval.move is an action of the naval phase, not of the setup phase".
    home = new_game(tmp_path)
    code, out, err = run_cli("naval", "move", "--fleet", "fleet:RU:1", "--path", "baltic-sea", "--power", "RU",
                             "--password", "pw-RU", home=home, env={TEST_SCRYPT_ENV: WEAK})
    assert code == 1 and "Traceback" not in err, err
    assert "'eiapbem naval move' is an order of the naval phase; the game is in the setup phase of January 1805" in err
    assert "hint: 'eiapbem setup --help' lists what you can do now" in err


def test_the_shell_takes_a_command_typed_with_eiapbem_in_front(tmp_path):
    # The README writes 'eiapbem status'; typed so in a sitting it read "No such command 'eiapbem'".
    home = new_game(tmp_path)
    r = cli(home, "shell", "--power", "RU", input="pw-RU\neiapbem status\nquit\n")
    assert r.exit_code == 0, (r.output, r.exception)
    assert "Turn: Russia (1805-01/setup/turn/RU)" in r.stdout and "No such command" not in r.output


def test_an_unknown_command_points_to_the_list_of_commands(tmp_path, run_cli):
    code, out, err = run_cli("bogus")
    assert code == 2 and "No such command 'bogus'" in err
    assert "hint: 'eiapbem --help' lists the commands" in err
    code, out, err = run_cli("land", "mvoe")
    assert code == 2 and "Did you mean 'move'?" in err and "hint: 'eiapbem land --help' lists the commands" in err


def _russia_hosts(home, monkeypatch, game: str, **types: str) -> None:
    """A game made in ``home``: Russia plays there with the host, the others are ai-easy unless ``types`` says."""
    from eiapbem.client import newgame

    monkeypatch.setenv(TEST_SCRYPT_ENV, WEAK)
    kinds = {p: "ai-easy" for p in ("TU", "AU", "PR", "SP", "FR", "GB")} | {"RU": "host"} | types
    players = [newgame.Player(p, f"Player {p}", f"{p.lower()}@example.org", t) for p, t in kinds.items()]
    newgame.new_game(home, game, "classic-1805", players, bids={}, options=newgame.options_from_flags([]),
                     passwords={"RU": "pw-RU"}, host_password="pw-host")


def test_a_power_not_played_here_is_refused_before_the_password_is_asked(tmp_path, run_cli, monkeypatch):
    _russia_hosts(tmp_path, monkeypatch, "Solo")
    # No password on the command line and none in the environment: a prompt would read the empty input.
    code, out, err = run_cli("status", "--power", "PR", env={TEST_SCRYPT_ENV: WEAK, "EIAPBEM_PASSWORD": ""}, input="")
    assert code == 1 and "Password for" not in out + err, (out, err)
    assert "PR is not played from this folder (it plays RU, host)" in err
    assert "hint: --power takes one of RU, host; 'eiapbem show power PR' or 'eiapbem show units PR'" in err


def test_load_says_why_files_left_in_commin_are_not_new(tmp_path):
    # Files copied by hand stay in commin/ after loading; 'no new files' alone left the user wondering.
    import shutil

    home = new_game(tmp_path)
    assert cli(home, "setup", "load", "default", "--power", "RU", "--password", "pw-RU").exit_code == 0
    assert cli(home, "end-phase", "--power", "RU", "--password", "pw-RU").exit_code == 0
    sent = next(p for p in (home / "commout").glob("*_setup_turn_RU.pbm"))
    (home / "commin" / "done").mkdir(parents=True, exist_ok=True)
    shutil.copy(sent, home / "commin" / sent.name)
    r = cli(home, "load", "--power", "TU", "--password", "pw-TU")
    assert r.exit_code == 0 and r.stdout.strip().endswith("\nno new files in commin/"), r.output
    assert f"left alone: commin/{sent.name} is a file of RU, played in this folder" in r.stdout  # its own file
    shutil.copy(sent, home / "commin" / "done" / sent.name)
    r = cli(home, "load", "--power", "TU", "--password", "pw-TU")
    assert "no new files in commin/ (1 file(s) there were loaded before: their copies are in commin/done/" in r.stdout


def test_the_battle_list_marks_naval_combats_and_sieges_finished_and_names_the_siege_city():
    # A naval combat that had ended was listed "in progress", a siege "siege battle in ?".
    from eiapbem.client.documents import battle_place as _where, finished

    assert finished(SimpleNamespace(step="done")) and not finished(SimpleNamespace(step="pursuit"))
    assert finished(SimpleNamespace(finished=True)) and not finished(SimpleNamespace(finished=False))
    assert _where("siege", SimpleNamespace(city="glogau")) == "glogau"


def test_end_phase_while_another_players_file_is_due_says_what_to_wait_for(tmp_path, run_cli, monkeypatch):
    # It read only "FR has already sent its orders for …" (or that it is not the power's turn).
    _russia_hosts(tmp_path, monkeypatch, "Duo", FR="client")
    env = {TEST_SCRYPT_ENV: WEAK, "EIAPBEM_PASSWORD": "pw-RU"}
    assert run_cli("setup", "load", "default", env=env)[0] == 0
    code, out, err = run_cli("end-phase", env=env)
    assert code == 0 and "Turn: France" in out, (out, err)
    code, out, err = run_cli("end-phase", env=env)
    assert code == 1 and "Traceback" not in err
    assert "hint: the game waits for FR: when their files arrive, put them in commin/ and run 'eiapbem load'" in err, err


def test_the_bare_map_in_a_game_folder_says_how_to_draw_the_game(tmp_path):
    home = new_game(tmp_path)
    r = cli(home, "map", "--svg", str(tmp_path / "m.svg"))
    assert r.exit_code == 0, r.output
    assert f"'eiapbem map --svg {tmp_path / 'm.svg'} --save save/Cli.sav' draws its units" in r.stdout
    r = cli(tmp_path / "commin", "map", "--svg", str(tmp_path / "m.svg"))  # not a game folder: the map alone
    assert r.exit_code == 0 and "bare map" not in r.stdout


def test_new_names_the_missing_powers_before_asking_any_password(tmp_path, run_cli):
    code, out, err = run_cli("new", "Trafalgar", "--scenario", "classic-1805", "--player", "RU:Anna:anna@example.org:host",
                             "--player", "FR:Bob:bob@example.org:client", input="", env={"EIAPBEM_HOST_PASSWORD": ""})
    assert code == 1 and "Password" not in out + err, (out, err)
    assert "every power needs a player; missing: AU GB PR SP TU" in err
    assert "hint: add --player AU:ai-medium for a computer player" in err
    assert not (tmp_path / "save").exists()


def test_the_counts_flags_and_land_orders_say_what_they_take():
    add = _help("reinforce", "add-factors")
    assert "--infantry INTEGER how many infantry factors" in add and "show units --kind corps" in add
    assert "the corps to move" in _help("land", "move") and "whose movement is over" in _help("land", "forage")
    assert "--withdraw take the request back" in _help("diplomacy", "request-alliance")
    assert "--stop end the trade" in _help("diplomacy", "trade")
    # A field comment's reST literal is quoted as the CLI quotes, and no help names a command that does not exist.
    assert "'reinforcements' (factors due this month)" in _help("reinforce", "place-corps")
    assert "show map" not in _help("diplomacy", "request-action")


def test_a_power_without_fleets_is_told_it_may_skip_the_naval_phase():
    # Prussia's naval slot every month had nothing to do, and 'status' only pointed to 'eiapbem naval --help'.
    from battlekit import ctx
    from eiapbem.client.status import possible
    from eiapbem.rules.model import POOL, Fleet, Phase, Ships, Slot

    s = land_state().replace(slot=Slot(Phase.NAVAL, "turn", "FR", ("FR",)))
    assert possible(s, "FR", ctx()) == []  # status then says: nothing to move, end the phase
    at_brest = Fleet(id="fleet:FR:1", nation="FR", location=Location(LocationKind.PORT, "brest"), ships=Ships(heavy=3))
    assert {"kind": "naval.move", "command": "eiapbem naval move"} in possible(s.with_unit(at_brest), "FR", ctx())
    assert possible(s.with_unit(at_brest.replace(location=POOL)), "FR", ctx()) == []


def test_answer_confirms_a_silent_answer_and_names_the_next_question(monkeypatch):
    # A chit or casualty answer logs nothing until the battle ends: 'answer' printed nothing at all.
    from eiapbem.cli import game_cmd

    nxt = SimpleNamespace(id="battle:1805-01:cracow:0/2", power="PR", kind="battle.casualties",
                          options=("corps:PR:I/infantry", "corps:PR:I/cavalry"))
    fake = SimpleNamespace(power="PR", local=["PR"], defends=lambda battle: False, reply_to_send=lambda: None,
                           act=lambda action: SimpleNamespace(events=[]), battle_lines=lambda: [],
                           current=lambda: SimpleNamespace(pending={nxt.id: nxt}))
    monkeypatch.setattr(game_cmd, "open_session", lambda *a, **k: fake)
    r = CliRunner().invoke(main.cli, ["answer", "battle:1805-01:cracow:0/0", "assault"], terminal_width=200)
    assert r.exit_code == 0, (r.output, r.exception)
    assert "PR answered battle:1805-01:cracow:0/0: assault" in r.output
    assert "next: PR to answer battle.casualties battle:1805-01:cracow:0/2: 'eiapbem answer battle:1805-01:cracow:0/2 CHOICE'" in r.output


def test_the_land_status_names_the_command_that_sets_the_chits_of_corps_defending_unasked():
    # 11.2.1, 000:1648: a corps attacked in another power's slot takes a random chit unless an order was set
    rec = {"game": "G", "scenario": "classic-1805", "plays": ["AU"], "hosts": False, "over": False,
           "date_name": "March 1805", "state_hash": "0" * 64, "phase": "land", "phase_implemented": True,
           "simultaneous": False, "slot": "x", "turn_of": "FR", "computer": [], "waiting": [], "power": "AU",
           "orders_sent": None, "actions_taken": None, "next": None, "battles": [], "not_implemented": [],
           "partly_built": [], "log": [], "pending": [],
           "standing_orders": "chits of corps defending unasked (11.2.1): none (a random chit, 000:1648)"}
    line = next(x for x in render(rec) if x.startswith("Your battle standing orders"))
    assert "'eiapbem land battle-orders'" in line and "a random chit" in line


def test_the_reveal_round_of_a_sealed_diplomacy_counts_no_orders_given():
    # 6.0: round 2 only opens the orders committed to in round 1; "0 orders given" read as if they were lost
    rec = {"game": "G", "scenario": "classic-1805", "plays": ["AU"], "hosts": False, "over": False,
           "date_name": "March 1805", "state_hash": "0" * 64, "phase": "diplomacy", "phase_implemented": True,
           "simultaneous": True, "slot": "x", "turn_of": None, "computer": [], "waiting": [], "power": "AU",
           "orders_sent": None, "actions_taken": 0, "reloads": 0, "to_do": [], "next": None, "battles": [],
           "not_implemented": [], "partly_built": [], "log": [], "pending": [], "reveal_round": True}
    text = "\n".join(render(rec))
    assert "0 orders given" not in text and "committed to in round 1" in text
    assert "0 orders given" in "\n".join(render({**rec, "reveal_round": False}))



def test_a_leader_shows_his_ratings_and_a_commander_choice_lists_them():
    # 13.8: strategic, tactical, tactical maximum (13.8.7: -1 over that many corps) and seniority (13.8.6).
    from eiapbem.data.context import world_data

    s = land_state().with_leader(Leader(id="leader:FR:napoleon", power="FR", status=LeaderStatus.AVAILABLE))
    lines = show.unit(s, "leader:FR:napoleon", world=world_data())
    assert lines[1] == "  ratings: strategic 5, tactical 5 (-1 over 6 corps, 13.8.7), seniority A"
    rec = show.unit_or_leader_record(s, "leader:FR:napoleon", world_data())
    assert rec["ratings"] == {"strategic": 5, "tactical": 5, "tactical_max": 6, "seniority": "A", "cavalry": False}
    pick = SimpleNamespace(id="battle:1805-09:ulm:0/0", power="FR", kind="battle.commander",
                           options=("leader:FR:davout", "leader:FR:lannes"))
    hint = answer_hint([pick], ["FR"])
    assert "; ratings: leader:FR:davout strategic 4, tactical 4 (-1 over 3 corps, 13.8.7), seniority B; leader:FR:lannes " in hint
