"""What new players met in a seven-folder game, each mended (the status and Next lines, the hints, orders with no
effect): driven through the command line as a player types it."""

from __future__ import annotations

import re
import shutil
from dataclasses import replace
from pathlib import Path

from clikit import cli, files_in, new_game

from eiapbem.cli import prompt
from eiapbem.client.session import Session
from eiapbem.rules.model import Corps, Date, Factors, Fleet, Location, LocationKind, Phase, Ships, Slot
from eiapbem.rules.model.units import CorpsType


def _set_state(home, change):
    s = Session.open(home, "Cli", "FR", "pw-FR")
    s.data = replace(s.data, state=change(s.state))
    s.save()


def _aboard(state):
    s = state.replace(date=Date(1805, 10), slot=Slot(phase=Phase.LAND, step="turn", power="FR", actors=("FR",)))
    return _corps_aboard(s)


def _corps_aboard(s):
    s = s.with_unit(Fleet(id="fleet:FR:1", nation="FR", location=Location(LocationKind.SEA, "english-channel"),
                          ships=Ships(heavy=4, transport=2)))
    return s.with_unit(Corps(id="corps:FR:IV", nation="FR", corps_type=CorpsType.REGULAR,
                             location=Location(LocationKind.ABOARD, "fleet:FR:1"), factors=Factors(infantry=3)))


def test_a_corps_left_at_sea_is_a_to_do_and_end_phase_asks_before_destroying_it(tmp_path):
    # 8.6.3 (000:1150): a corps still aboard when its power's land slot ends is destroyed. Status said "To do
    # before end-phase: nothing" and end-phase destroyed it without a word.
    home = new_game(tmp_path)
    _set_state(home, _aboard)
    r = cli(home, "status", "--power", "FR", "--password", "pw-FR")
    assert r.exit_code == 0, r.output
    todo = [line for line in r.output.splitlines() if line.startswith("To do before end-phase")]
    assert todo and "disembark corps:FR:IV (aboard fleet:FR:1): 'eiapbem land disembark --corps corps:FR:IV " \
        "--area AREA --power FR', or end-phase destroys it (8.6.3)" in todo[0], r.output
    before = files_in(home)
    r = cli(home, "end-phase", "--power", "FR", "--password", "pw-FR", input="n\n")
    assert r.exit_code == 1 and "corps:FR:IV is still aboard and would be destroyed (8.6.3)" in str(r.exception)
    assert "end-phase --yes" in r.exception.hint and files_in(home) == before
    r = cli(home, "end-phase", "--power", "FR", "--password", "pw-FR")  # no terminal to answer: refused alike
    assert r.exit_code == 1 and files_in(home) == before
    r = cli(home, "end-phase", "--power", "FR", "--password", "pw-FR", input="y\n")
    assert r.exit_code == 0, r.output + r.stderr
    assert Session.open(home, "Cli", "FR", "pw-FR").state.units["corps:FR:IV"].location.kind is LocationKind.POOL


def test_skip_in_the_economic_phase_is_one_of_the_orders(tmp_path):
    # 13.9: 'eiapbem skip' in the economic phase was refused (the phase-skip menu is open at any time, 000:2732):
    # it is now an order of the phase, sent with the others and set when the phase resolves.
    from eiapbem.rules.model import POWERS
    from eiapbem.rules.model.slot import ORDERS

    home = new_game(tmp_path)
    _set_state(home, lambda s: s.replace(date=Date(1805, 12), slot=Slot(Phase.ECONOMIC, ORDERS, None, POWERS)))
    r = cli(home, "skip", "--phase", "naval", "--mode", "once", "--power", "FR", "--password", "pw-FR")
    assert r.exit_code == 0, r.output + r.stderr
    s = Session.open(home, "Cli", "FR", "pw-FR")
    assert Phase.NAVAL not in s.state.powers["FR"].skips and len(s.taken()) == 1  # set when every power's orders are in
    r = cli(home, "skip", "--phase", "diplomacy", "--mode", "off", "--power", "FR", "--password", "pw-FR")
    assert r.exit_code == 1 and "FR has no skip setting for the diplomacy phase to switch off" in str(r.exception)


def test_join_in_a_new_folder_says_the_commin_folder_is_missing(tmp_path):
    # A new player ran 'eiapbem join commin/GameName_gamestart.pbm ...' as the README says, in a new folder:
    # "there is no file ... in commin" sent him looking for the file, not for the folder.
    home = tmp_path / "new"
    home.mkdir()
    r = cli(home, "join", "commin/Cli_gamestart.pbm", "--power", "FR", "--email", "fr@example.org",
            "--one-time-password", "x", "--password", "y")
    assert r.exit_code == 1 and list(home.iterdir()) == []
    assert "there is no folder commin/ in" in str(r.exception) and "make the folder commin/" in r.exception.hint


def test_admin_ai_play_prints_its_own_log_line_not_the_next_computer_slots(tmp_path):
    # 'admin ai-play' printed the last line of the log: with a computer power next, that power's own turn, tagged
    # with its slot, as if the host's act had played it.
    import os

    from clikit import WEAK
    from eiapbem.client import newgame
    from eiapbem.client.session import TEST_SCRYPT_ENV
    from eiapbem.rules.model import POWERS

    os.environ[TEST_SCRYPT_ENV] = WEAK
    try:
        kinds = {"RU": "host", "TU": "ai-easy"}
        players = [newgame.Player(p, f"Player {p}", f"{p.lower()}@example.org", kinds.get(p, "hotseat")) for p in POWERS]
        newgame.new_game(tmp_path, "Cli", "classic-1805", players, bids={},
                         options=newgame.options_from_flags(["allow-pbem-host-functions"]),
                         passwords={p: f"pw-{p}" for p in POWERS if p != "TU"}, host_password="pw-host")
    finally:
        os.environ.pop(TEST_SCRYPT_ENV, None)
    r = cli(tmp_path, "admin", "ai-play", "--password", "pw-host")
    assert r.exit_code == 0, (r.output, r.exception)
    s = Session.open(tmp_path, "Cli", "RU", "pw-RU")
    assert s.state.slot.power == "AU"  # Turkey, a computer power, played its setup after Russia's
    host = [e for e in s.journal() if e.author == "host"][-1]
    assert f"log: [1805-01/setup/turn/RU] (host) {host.text}" in r.output, r.output
    assert host.slot == "1805-01/setup/turn/RU"  # the game log tags the line with the slot played, too
    assert "played RU's turn" in host.text and "TU" not in r.output.split("log: ")[1], r.output


def test_a_call_to_allies_for_an_older_war_says_it_does_nothing_for_that_war(tmp_path):
    # 6.3 (000:640): allies are called into a war declared in this diplomacy phase. A call for France's war with
    # Austria of an earlier month was "accepted" and then did nothing.
    from eiapbem.rules.model import POWERS
    from eiapbem.rules.model.slot import ORDERS

    home = new_game(tmp_path)
    _set_state(home, lambda s: s.replace(date=Date(1805, 10), slot=Slot(Phase.DIPLOMACY, ORDERS, None, POWERS))
               .with_war("FR", "AU", Date(1805, 9), ("FR",)).with_war("SP", "AU", Date(1805, 9), ("SP",)))
    r = cli(home, "diplomacy", "call-allies", "--enemy", "AU", "--ally", "SP", "--ally", "PR", "--power", "FR",
            "--password", "pw-FR")
    assert r.exit_code == 0, (r.output, r.exception)
    assert "this does nothing for the war of France with Austria, which began in September 1805" in r.output, r.output
    assert "Spain is already at war with Austria" in r.output and "Prussia is already" not in r.output
    r = cli(home, "diplomacy", "call-allies", "--enemy", "GB", "--ally", "PR", "--power", "FR", "--password", "pw-FR")
    assert r.exit_code == 0 and "does nothing" not in r.output, r.output  # a standing order for a later war
    # a call reaches only a power allied when the war comes (6.3): Prussia is not France's ally, and is told so
    assert "Prussia is not France's ally now: it is called only if an alliance stands when the war comes" in r.output
    r = cli(home, "diplomacy", "answer-calls", "--enemy", "AU", "--ally", "SP", "--power", "PR", "--password", "pw-PR")
    assert r.exit_code == 0 and "this does nothing for the war of Spain with Austria" in r.output, r.output


def test_naval_attack_says_it_ends_the_fleet_movement():
    # A naval attack ends the phase's fleet movement (8.10); corps already loaded were stuck, and nothing said so.
    r = cli(Path("."), "naval", "attack", "--help")
    assert r.exit_code == 0 and "the first attack ends your fleet movement and loading this phase" in " ".join(
        r.output.split()), r.output


def test_files_put_in_commin_by_mistake_are_named_with_where_they_belong(tmp_path):
    # "no new files in commin/" was all a new player saw for a battle file, a key file or his own turn file there.
    home = new_game(tmp_path)
    r = cli(home, "setup", "load", "default", "--power", "RU", "--password", "pw-RU")
    assert r.exit_code == 0, (r.output, r.exception)
    r = cli(home, "end-phase", "--power", "RU", "--password", "pw-RU")
    assert r.exit_code == 0, (r.output, r.exception)
    own = next(p for p in (home / "commout").iterdir() if p.suffix == ".pbm" and "_RU" in p.name)
    (home / "commin").mkdir(exist_ok=True)
    (home / "commin" / own.name).write_bytes(own.read_bytes())
    (home / "commin" / "Cli_FR.key").write_bytes(b"key")
    (home / "commin" / "pbembattle_Cli_Ulm0-question.battle").write_bytes(own.read_bytes())  # a file of this game
    r = cli(home, "load", "--power", "TU", "--password", "pw-TU")
    assert r.exit_code == 0, (r.output, r.exception)
    assert ("left alone: commin/pbembattle_Cli_Ulm0-question.battle is a battle file: battle files go in battles/; "
            "move it there and run 'eiapbem load battles/pbembattle_Cli_Ulm0-question.battle' (4.2.7)") in r.output
    assert "left alone: commin/Cli_FR.key is a key file" in r.output
    assert f"left alone: commin/{own.name} is a file of RU, played in this folder: it goes to the other players" \
        in r.output
    assert "no new files in commin/" in r.output


def test_a_purchase_that_cannot_be_paid_is_refused_and_nothing_is_taken(tmp_path):
    # 12.5: an order the treasury could not pay was "taken" (rc 0), and only a restart of the whole phase took it
    # back. It is refused now, counted after the orders given so far, unless the player expects an ally's loan.
    from eiapbem.rules.model import POWERS
    from eiapbem.rules.model.slot import ORDERS

    home = new_game(tmp_path)
    _set_state(home, lambda s: s.replace(date=Date(1805, 12), slot=Slot(Phase.ECONOMIC, ORDERS, None, POWERS)))
    fr = ("--power", "FR", "--password", "pw-FR")
    r = cli(home, "economy", "buy-army", "--item", "infantry", "--count", "1", *fr)
    assert r.exit_code == 0 and "accepted (1 order so far" in r.output, (r.output, r.exception)
    before = files_in(home)
    r = cli(home, "economy", "buy-army", "--item", "guard", "--count", "400", *fr)
    assert r.exit_code == 1 and files_in(home) == before, r.output
    text = str(r.exception)
    assert text.startswith("FR cannot pay buy-army --item guard --count 400: it needs $") and "nothing was taken" in text
    assert "--even-if-short" in r.exception.hint and "12.3" in r.exception.hint
    assert len(Session.open(home, "Cli", "FR", "pw-FR").taken()) == 1
    r = cli(home, "economy", "buy-army", "--item", "guard", "--count", "400", "--even-if-short", *fr)
    assert r.exit_code == 0 and "is taken but will NOT be carried out as things stand" in r.output, r.output
    assert len(Session.open(home, "Cli", "FR", "pw-FR").taken()) == 2


def _at_nancy(state):
    # France's land slot: corps:FR:V marched strasbourg -> nancy with every point spent, onto an Austrian corps;
    # France has no depot on the map and two in the pool.
    from eiapbem.rules.model import POOL, Depot, LandMove

    s = state.replace(date=Date(1805, 9), slot=Slot(phase=Phase.LAND, step="turn", power="FR", actors=("FR",)))
    s = s.with_war("FR", "AU", Date(1805, 9), ("FR",)).with_power("FR", treasury=10)
    for u in [u for u in s.units.values() if isinstance(u, Depot) and u.power == "FR"]:
        s = s.with_unit(u.replace(location=POOL))
    for cid, area, n in (("corps:FR:V", "nancy", 12), ("corps:AU:I", "nancy", 8)):
        s = s.with_unit(Corps(id=cid, nation=cid.split(":")[1], corps_type=CorpsType.REGULAR,
                              location=Location(LocationKind.AREA, area), factors=Factors(infantry=n)))
    return s.with_scratch(land_moves=s.land_moves.set("corps:FR:V", LandMove(start="strasbourg", passed=("nancy",),
                                                                                   spent=4)))


def test_the_first_attack_says_who_forages_before_any_die_and_offers_a_depot_first(tmp_path):
    # 10.5, 11.0 (000:1606): the first attack ends movement and supplies every corps. France lost 14 of 25 factors
    # to foraging before the first die, without a word, where a depot placed first (10.3) would have supplied them.
    home = new_game(tmp_path)
    _set_state(home, _at_nancy)
    fr = ("--power", "FR", "--password", "pw-FR")
    before = files_in(home)
    r = cli(home, "land", "attack", "--area", "nancy", *fr, input="n\n")
    assert r.exit_code == 1 and files_in(home) == before, r.output
    assert "The first attack or assault ends FR's movement and supplies its corps before any combat (10.5; 11.0, " \
        "000:1606):" in r.output
    line = next(ln for ln in r.output.splitlines() if ln.startswith("  corps:FR:V forages"))
    assert "no depot of FR's supply chain lies within 12 areas (depot supply reaches 3, 10.5.2, 000:1530)" in line \
        and "a roll of 6 costs it" in line
    assert "a depot placed first in nancy" in line and "'eiapbem land create-depot --area nancy' (10.3, $1)" in line
    assert "nothing done" in str(r.exception) and "--yes" in r.exception.hint
    r = cli(home, "land", "attack", "--area", "nancy", *fr)  # no terminal to answer: refused alike
    assert r.exit_code == 1 and files_in(home) == before
    # The depot placed, the corps takes depot supply: nothing to ask, and no forage roll.
    r = cli(home, "land", "create-depot", "--area", "nancy", *fr)
    assert r.exit_code == 0, (r.output, r.exception)
    r = cli(home, "land", "attack", "--area", "nancy", *fr)
    assert r.exit_code == 0, (r.output, r.exception)
    assert "corps:FR:V takes depot supply for $1 (10.5.2)" in r.output and "forages:" not in r.output, r.output
    assert r.output.index("takes depot supply") < r.output.index("Field combat in nancy"), r.output


def _besieging_innsbruck(state):
    # France's land slot: corps:FR:V marched swabia -> innsbruck with every point spent and besieges the city, held by
    # an Austrian garrison; a French corps stands at Nancy, next to Strasbourg's depot.
    from eiapbem.rules.model import Garrison, LandMove

    s = state.replace(date=Date(1805, 9), slot=Slot(phase=Phase.LAND, step="turn", power="FR", actors=("FR",)))
    s = s.with_war("FR", "AU", Date(1805, 9), ("FR",)).with_power("FR", treasury=10)
    s = s.with_unit(Corps(id="corps:FR:V", nation="FR", corps_type=CorpsType.REGULAR, besieging=True,
                          location=Location(LocationKind.AREA, "innsbruck"), factors=Factors(infantry=12)))
    s = s.with_unit(Garrison(id="garrison:AU:city:innsbruck", nation="AU", location=Location(LocationKind.CITY, "innsbruck"),
                             factors=Factors(infantry=2)))
    return s.with_scratch(land_moves=s.land_moves.set("corps:FR:V", LandMove(start="swabia", passed=("innsbruck",),
                                                                                   spent=4)))


def test_an_assault_says_who_forages_before_its_die_as_an_attack_does(tmp_path):
    # 11.0 (000:1606): an assault attempt begins the combats as an attack does, ending the movement and supplying every
    # corps first (``rules.land.sieging``); it says so before its die, and takes --yes alike
    home = new_game(tmp_path)
    _set_state(home, _besieging_innsbruck)
    r = cli(home, "land", "assault", "--area", "innsbruck", "--yes", "--power", "FR", "--password", "pw-FR")
    assert r.exit_code == 0, (r.output, r.exception)
    said = r.output.index("The first attack or assault ends FR's movement and supplies its corps before any combat")
    rolled = r.output.index("FR: corps:FR:V forages: random number")
    assert said < r.output.index("  corps:FR:V forages: no depot") < rolled, r.output
    log = [e.text for e in Session.open(home, "Cli", "FR", "pw-FR").current().log]
    roll = next(i for i, t in enumerate(log) if t.startswith("FR: corps:FR:V forages: random number"))
    assert log[roll + 1:], log  # the assault's outcome (walls held, sortie or city taken) follows the supply


def test_the_first_attack_with_yes_forages_as_it_said(tmp_path):
    home = new_game(tmp_path)
    _set_state(home, _at_nancy)
    r = cli(home, "land", "attack", "--area", "nancy", "--yes", "--power", "FR", "--password", "pw-FR")
    assert r.exit_code == 0, (r.output, r.exception)
    said = r.output.index("  corps:FR:V forages: no depot")
    assert said < r.output.index("FR: corps:FR:V forages: random number") < r.output.index("Field combat in nancy")


def _quoted(line: str) -> list[list[str]]:
    """The commands a hint quotes ('eiapbem WORDS'), as a player types them (without placeholders or --help)."""
    import re

    out = [t.split()[1:] for t in re.findall(r"'(eiapbem [^']+)'", line)]
    return [w for w in out if "--help" not in w and not any(x in ("ID", "N") or (x.isupper() and len(x) > 2) for x in w)]


def test_the_setup_to_do_names_commands_with_their_options_each_accepted_as_written(tmp_path):
    # The setup's to-do said "'eiapbem setup add-factors' or 'eiapbem setup add-garrison'", both refused as written
    # (--corps and --area are required), and without --power in a folder that plays several powers.
    home = new_game(tmp_path)
    assert cli(home, "setup", "load", "default", "--power", "RU", "--password", "pw-RU").exit_code == 0
    for unit in ("corps:RU:I", "fleet:RU:1"):
        assert cli(home, "setup", "remove-counter", "--unit", unit, "--power", "RU", "--password", "pw-RU").exit_code == 0
    todo = next(ln for ln in cli(home, "status", "--power", "RU", "--password", "pw-RU").output.splitlines()
                if ln.startswith("To do before end-phase: "))
    said = _quoted(todo)
    kinds = {w[1] if w[0] == "setup" else w[0] for w in said}
    assert {"add-factors", "add-garrison", "add-ships", "restart", "load"} <= kinds, todo
    assert all(w[-2:] == ["--power", "RU"] for w in said), todo
    for i, words in enumerate(said):
        if "load" in words or "restart" in words:
            continue  # they undo or place everything: the others are tried first
        here = tmp_path / f"try-{i}"  # each hint is an alternative ("or"), tried on the state that offered it
        shutil.copytree(home, here)
        snap = files_in(here)
        r = cli(here, *words, "--password", "pw-RU")
        assert r.exit_code == 0 and r.output.startswith(("RU puts", "RU garrisons")), (words, r.output, todo)
        assert files_in(here) != snap  # taken: the save holds it
    nxt = next(ln for ln in cli(home, "status", "--power", "RU", "--password", "pw-RU").output.splitlines()
               if ln.startswith("Next: "))
    assert "'eiapbem restart --power RU' takes back what is placed" in nxt, nxt  # load alone is refused now
    assert cli(home, "restart", "--power", "RU", "--password", "pw-RU").exit_code == 0
    r = cli(home, "setup", "load", "default", "--power", "RU", "--password", "pw-RU")
    assert "still to do" not in r.output and "'eiapbem end-phase --power RU' ends your setup" in r.output, r.output


def test_the_setup_to_do_before_any_corps_is_placed_says_to_place_one_first(tmp_path):
    home = new_game(tmp_path)
    todo = next(ln for ln in cli(home, "status", "--power", "RU", "--password", "pw-RU").output.splitlines()
                if ln.startswith("To do before end-phase: "))
    assert "a corps put on the map first ('eiapbem setup place-corps --help')" in todo, todo
    assert "'eiapbem setup add-factors'" not in todo and "'eiapbem setup add-ships'" not in todo
    for words in _quoted(todo):
        assert words[1] in ("add-garrison", "load"), todo
    garrison = next(w for w in _quoted(todo) if w[1] == "add-garrison")
    assert cli(home, *garrison, "--password", "pw-RU").exit_code == 0


def _marched_to_nancy(state):
    # France's land slot, no attack: corps:FR:V marched strasbourg -> nancy; France has no depot on the map.
    return _at_nancy(state).without_unit("corps:AU:I")


def test_end_phase_with_no_attack_says_who_forages_and_offers_a_depot_first(tmp_path):
    # 10.5 (000:1530): the end of a land slot with no attack supplies every corps; end-phase foraged them without a
    # word, where 'land attack' now says it corps by corps and offers the depot first (10.3, 000:1488).
    home = new_game(tmp_path)
    _set_state(home, _marched_to_nancy)
    fr = ("--power", "FR", "--password", "pw-FR")
    before = files_in(home)
    r = cli(home, "end-phase", *fr, input="n\n")
    assert r.exit_code == 1 and files_in(home) == before, r.output
    assert "Ending the slot ends FR's movement and supplies its corps (10.5):" in r.output
    line = next(ln for ln in r.output.splitlines() if ln.startswith("  corps:FR:V forages"))
    assert "a roll of 6 costs it" in line and "'eiapbem land create-depot --area nancy' (10.3, $1)" in line
    assert "nothing ended" in str(r.exception) and "'eiapbem end-phase --yes --power FR'" in r.exception.hint
    r = cli(home, "end-phase", *fr)  # no terminal to answer: refused alike
    assert r.exit_code == 1 and files_in(home) == before
    r = cli(home, "land", "create-depot", "--area", "nancy", *fr)
    assert r.exit_code == 0, (r.output, r.exception)
    r = cli(home, "end-phase", *fr)  # the depot supplies it: nothing to ask
    assert r.exit_code == 0, (r.output, r.exception)
    assert "corps:FR:V takes depot supply for $1 (10.5.2)" in r.output and "forages:" not in r.output, r.output


def test_end_phase_yes_forages_as_it_said(tmp_path):
    home = new_game(tmp_path)
    _set_state(home, _marched_to_nancy)
    r = cli(home, "end-phase", "--yes", "--power", "FR", "--password", "pw-FR")
    assert r.exit_code == 0, (r.output, r.exception)
    assert "  corps:FR:V forages: no depot" in r.output and "FR ended its slot" in r.output


def _forage_and_aboard(state):
    return _corps_aboard(_marched_to_nancy(state))


def test_end_phase_asks_one_question_naming_both_the_foraging_and_the_corps_aboard(tmp_path):
    # A land slot where a corps forages and another is still aboard: the question and its refusal spoke of foraging
    # only, and its hint ('end-phase --yes') then destroyed the corps aboard unsaid (8.6.3, 000:1162).
    home = new_game(tmp_path)
    _set_state(home, _forage_and_aboard)
    fr = ("--power", "FR", "--password", "pw-FR")
    before = files_in(home)
    r = cli(home, "end-phase", *fr, input="n\n")
    assert r.exit_code == 1 and files_in(home) == before, r.output
    assert "End the slot now, as above, although corps:FR:IV is still aboard and would be destroyed (8.6.3)?" \
        in r.output, r.output
    said = str(r.exception)
    assert "could supply (10.3, 10.5)" in said and "corps:FR:IV is still aboard and would be destroyed" in said
    assert "land create-depot" in r.exception.hint and "land disembark" in r.exception.hint
    r = cli(home, "land", "create-depot", "--area", "nancy", *fr)
    assert r.exit_code == 0, (r.output, r.exception)
    r = cli(home, "end-phase", *fr, input="n\n")  # the depot answers the foraging: the corps aboard is still asked
    assert r.exit_code == 1 and "corps:FR:IV is still aboard and would be destroyed (8.6.3); end the slot anyway?" \
        in r.output, r.output


def test_terms_naming_a_province_that_could_not_be_ceded_say_so_and_why(tmp_path):
    # B.6, C.4 (6.4.3): Austria's terms named Holland, far from Austria; the order was "accepted", and at France's
    # surrender the cession took nothing ("the victor named nothing that qualifies").
    from eiapbem.rules.model import POWERS
    from eiapbem.rules.model.slot import ORDERS

    home = new_game(tmp_path)
    _set_state(home, lambda s: s.replace(date=Date(1805, 10), slot=Slot(Phase.DIPLOMACY, ORDERS, None, POWERS))
               .with_war("FR", "AU", Date(1805, 9), ("FR",)))
    r = cli(home, "diplomacy", "surrender-terms", "--enemy", "AU", "--term", "B.6", "--cede", "bohemia", "--cede",
            "tyrol", "--power", "FR", "--password", "pw-FR")
    assert r.exit_code == 0, (r.output, r.exception)
    assert "as things stand bohemia would not be ceded: bohemia is neither next to France's territory nor holds one " \
        "of its corps (B.6, C.4)" in r.output, r.output
    assert "tyrol would not" not in r.output  # next to France's Italy: it qualifies
    # A term that names nothing that qualifies would take nothing at the peace: refused at the order, with what
    # could be named, and nothing changes.
    before = files_in(home)
    for cede in (("--cede", "holland"), ()):
        r = cli(home, "diplomacy", "surrender-terms", "--enemy", "FR", "--term", "B.3", "--term", "B.6", *cede,
                "--power", "AU", "--password", "pw-AU")
        said = str(r.exception)
        assert r.exit_code == 1 and said.startswith("term B.6 would cede nothing to Austria: "), (r.output, said)
        assert said.endswith("; name one of lombardy, switzerland with --cede, or choose another term (B.6, C.4, 6.4.3)")
        assert ("holland is neither next to Austria's territory nor holds one of its corps;" in said) == bool(cede), said
        assert files_in(home) == before


def test_skip_settings_cancelled_by_a_declaration_of_war_are_said_in_status(tmp_path):
    # 13.9.1 (000:2738): France's declaration of war on Austria cancelled Austria's reinforcement skip; the line
    # vanished from Austria's status without a word, and its reinforcement slot came back unexplained.
    from eiapbem.rules.model import SkipMode

    home = new_game(tmp_path)

    def month(s, skips):
        s = s.replace(date=Date(1805, 10), slot=Slot(Phase.REINFORCEMENT, "turn", "AU", ("AU",)))
        s = s.with_war("FR", "AU", Date(1805, 10), ("FR",))
        return s.replace(powers=s.powers.set("AU", s.powers["AU"].replace(skips=skips)))

    _set_state(home, lambda s: month(s, type(s.powers["AU"].skips)()))
    r = cli(home, "status", "--power", "AU", "--password", "pw-AU")
    assert r.exit_code == 0, r.output
    assert "Phase skipping of AU (13.9): none: France's declaration of war this month cancelled every setting of AU " \
        "(13.9.1)" in r.output, r.output
    nxt = next(ln for ln in r.output.splitlines() if ln.startswith("Next:"))
    assert "nothing is due this month" in nxt and "eiapbem skip" not in nxt, nxt  # it would be cancelled again
    # the end of the phase, then its command after a colon (it read "end the phase now 'eiapbem end-phase ...'")
    assert "(transfers, leaders, the move order) and end the phase: 'eiapbem end-phase" in nxt, nxt
    line = next(ln for ln in r.output.splitlines() if ln.startswith("Phase skipping of AU"))
    cmd = re.search(r"'eiapbem ([^']*)'", line).group(1).split()
    r = cli(home, *cmd, "--power", "AU", "--password", "pw-AU")  # accepted as written, and said to wait a month
    assert r.exit_code == 0 and "this does nothing this month: a declaration of war on AU this month cancels" in r.output
    r = cli(home, "status", "--power", "FR", "--password", "pw-FR")  # the declarer's settings are not touched
    assert "cancelled every setting" not in r.output, r.output
    r = cli(home, "end-phase", "--power", "AU", "--password", "pw-AU")
    assert r.exit_code == 0, (r.output, r.exception)
    assert Session.open(home, "Cli", "AU", "pw-AU").state.powers["AU"].skips.get(Phase.REINFORCEMENT) is None
    _set_state(home, lambda s: month(s, s.powers["AU"].skips.set(Phase.REINFORCEMENT, SkipMode.CONTINUOUS))
               .replace(date=Date(1805, 11)))  # a month later, set again: it holds and nothing is said
    r = cli(home, "status", "--power", "AU", "--password", "pw-AU")
    assert "cancelled every setting" not in r.output and "reinforcement phase skipped while nothing is due" in r.output
    r = cli(home, "skip", "--phase", "naval", "--mode", "once", "--power", "AU", "--password", "pw-AU")
    assert r.exit_code == 0 and "does nothing" not in r.output, r.output


def test_the_next_line_names_the_move_that_takes_an_empty_enemy_city(tmp_path):
    # 10.4.3, 13.5.2 (000:1410-1446): France beat the Austrians in Linz and stood beside the empty city; nothing said
    # that a move into it takes it, nor how a corps already in the area moves into its city ('--path linz --city').
    home = new_game(tmp_path)

    def at_linz(state):
        s = state.replace(date=Date(1805, 9), slot=Slot(phase=Phase.LAND, step="turn", power="FR", actors=("FR",)))
        s = s.with_war("FR", "AU", Date(1805, 9), ("FR",))
        return s.with_unit(Corps(id="corps:FR:I", nation="FR", corps_type=CorpsType.REGULAR,
                                 location=Location(LocationKind.AREA, "linz"), factors=Factors(infantry=12)))

    _set_state(home, at_linz)
    fr = ("--power", "FR", "--password", "pw-FR")
    r = cli(home, "status", *fr)
    nxt = next(ln for ln in r.output.splitlines() if ln.startswith("Next:"))
    assert "the city of linz is empty: 'eiapbem land move --unit corps:FR:I --path linz --city --power FR' takes it" \
        in nxt, nxt
    cmd = re.search(r"'eiapbem (land move [^']*)'", nxt).group(1).split()
    r = cli(home, *cmd, "--password", "pw-FR")  # accepted as written
    assert r.exit_code == 0 and "takes it" in r.output, (r.output, r.exception)
    r = cli(home, "status", *fr)
    assert "is empty" not in r.output, r.output  # held now: nothing more to say


def test_the_next_line_names_the_assault_on_a_city_besieged(tmp_path):
    # 11.4.1: after 'land besiege' the Next line said only to end the phase; the assault is an order of its own.
    from eiapbem.rules.model import Garrison

    home = new_game(tmp_path)

    def at_linz(state):
        s = state.replace(date=Date(1805, 9), slot=Slot(phase=Phase.LAND, step="turn", power="FR", actors=("FR",)))
        s = s.with_war("FR", "AU", Date(1805, 9), ("FR",))
        s = s.with_unit(Garrison(id="garrison:AU:city:linz", nation="AU", location=Location(LocationKind.CITY, "linz"),
                                 factors=Factors(infantry=2)))
        return s.with_unit(Corps(id="corps:FR:I", nation="FR", corps_type=CorpsType.REGULAR,
                                 location=Location(LocationKind.AREA, "linz"), factors=Factors(infantry=12)))

    _set_state(home, at_linz)
    fr = ("--power", "FR", "--password", "pw-FR")
    r = cli(home, "status", *fr)
    assert "besiege the city of linz" not in r.output, r.output  # no siege laid yet
    r = cli(home, "land", "besiege", "--unit", "corps:FR:I", *fr)
    assert r.exit_code == 0, (r.output, r.exception)
    r = cli(home, "status", *fr)
    nxt = next(ln for ln in r.output.splitlines() if ln.startswith("Next:"))
    assert "your corps besiege the city of linz: 'eiapbem land assault --area linz --power FR' storms it" in nxt, nxt
    cmd = re.search(r"'eiapbem (land assault [^']*)'", nxt).group(1).split()
    r = cli(home, *cmd, "--yes", "--password", "pw-FR")  # accepted as written
    assert r.exit_code == 0, (r.output, r.exception)
    r = cli(home, "status", *fr)
    assert "land assault --area linz" not in r.output, r.output  # one assault attempt a phase (11.4.1)


def test_a_corps_leaving_its_city_for_the_area_is_said_to_leave_the_city(tmp_path):
    # 10.4.3: a corps in the city of its area moved to the same area was said to "move to linz (linz; 0 of 4)".
    home = new_game(tmp_path)

    def in_city(state):
        s = state.replace(date=Date(1805, 9), slot=Slot(phase=Phase.LAND, step="turn", power="FR", actors=("FR",)))
        return s.with_unit(Corps(id="corps:FR:I", nation="FR", corps_type=CorpsType.REGULAR,
                                 location=Location(LocationKind.CITY, "strasbourg"), factors=Factors(infantry=12)))

    _set_state(home, in_city)
    r = cli(home, "land", "move", "--unit", "corps:FR:I", "--path", "strasbourg", "--power", "FR", "--password", "pw-FR")
    assert r.exit_code == 0, (r.output, r.exception)
    assert "corps:FR:I moves out of the city of strasbourg into its area (no area entered; 0 of" in r.output, r.output


def test_a_missing_password_hint_names_the_variable_that_gives_that_password(tmp_path, run_cli):
    # with no terminal to ask on, each refusal names the option and environment variable the command reads: the
    # host's admin menu reads EIAPBEM_HOST_PASSWORD, a power's command EIAPBEM_PASSWORD
    new_game(tmp_path)
    code, out, err = run_cli("admin", "status", input="")
    assert code == 1 and "hint: give it with --password or the EIAPBEM_HOST_PASSWORD environment variable" in err, err
    code, out, err = run_cli("status", "--power", "FR", input="")
    assert code == 1 and "hint: give it with --password or the EIAPBEM_PASSWORD environment variable" in err, err
    assert "EIAPBEM_ONE_TIME_PASSWORD" in prompt._where("One-time password from the host: ")
    assert "EIAPBEM_MAIL_PASSWORD" in prompt._where("Mail password for fred@example.org: ")
    assert "--host-password or the EIAPBEM_HOST_PASSWORD" in prompt._where("Password for the host's key: ")


def _reinforcement_nothing_due(state):
    s = state.replace(date=Date(1805, 5), slot=Slot(phase=Phase.REINFORCEMENT, step="turn", power="FR", actors=("FR",)))
    s = s.with_power("FR", skips=type(s.powers["FR"].skips)())  # the phase is played: no setting passes it
    return s.with_unit(Fleet(id="fleet:FR:1", nation="FR", location=Location(LocationKind.PORT, "brest"),
                             ships=Ships(heavy=5)))


def test_a_reinforcement_slot_with_nothing_due_says_end_the_phase_then_the_tips_in_one_sentence(tmp_path, monkeypatch):
    # the end of the phase, the round-saving tips, then the command: no stray "now" left between them (this hot-seat
    # game's minors have their set-up still due: taken as placed here)
    from eiapbem.client import status

    home = new_game(tmp_path)
    _set_state(home, _reinforcement_nothing_due)
    monkeypatch.setattr(status, "_due", lambda state, power: False)
    r = cli(home, "status", "--power", "FR", "--password", "pw-FR")
    assert r.exit_code == 0, (r.output, r.exception)
    nxt = next(ln for ln in r.output.splitlines() if ln.startswith("Next:"))
    assert "nothing is due this month" in nxt and "now to save" not in nxt and "13.9); now" not in nxt, nxt
    assert "and end the phase ('eiapbem skip --phase reinforcement --mode continuous --power FR' passes this phase " \
        "while nothing is due, 13.9); to save rounds of mail, if your fleets stay in port" in nxt, nxt
    assert nxt.endswith("; then 'eiapbem end-phase --power FR'"), nxt


def test_the_foraging_line_offers_no_depot_the_treasury_cannot_then_pay_supply_from(tmp_path):
    # 10.3, 10.5.2 (000:1304, 000:1528): with $1, France could place the depot the foraging line offered, and then
    # not pay the depot supply it was offered for: the corps foraged all the same, and end-phase asked for nothing.
    home = new_game(tmp_path)
    _set_state(home, lambda s: _marched_to_nancy(s).with_power("FR", treasury=1))
    r = cli(home, "end-phase", "--power", "FR", "--password", "pw-FR")
    assert r.exit_code == 0, (r.output, r.exception)  # no choice to make: nothing asked
    line = next(ln for ln in r.output.splitlines() if ln.startswith("  corps:FR:V forages"))
    assert "a roll of 6 costs it" in line and "create-depot" not in line, line
    home2 = new_game(tmp_path / "two")
    _set_state(home2, lambda s: _marched_to_nancy(s).with_power("FR", treasury=2))  # $2 pays both: offered
    r = cli(home2, "end-phase", "--power", "FR", "--password", "pw-FR")
    assert r.exit_code == 1 and "'eiapbem land create-depot --area nancy' (10.3, $1)" in r.output, r.output


def test_a_purchase_short_of_manpower_says_manpower_and_the_count_that_fits(tmp_path):
    # 12.5 (000:2963): the projection closed with money to spare, yet 12 infantry were refused as "cannot pay": the
    # manpower was short, which the summary's closing line (unspent manpower is lost) does not show.
    from eiapbem.rules.model import POWERS
    from eiapbem.rules.model.slot import ORDERS

    home = new_game(tmp_path)
    _set_state(home, lambda s: s.replace(date=Date(1805, 12), slot=Slot(Phase.ECONOMIC, ORDERS, None, POWERS))
               .with_power("FR", treasury=40, manpower=5))
    fr = ("--power", "FR", "--password", "pw-FR")
    before = files_in(home)
    r = cli(home, "economy", "buy-army", "--item", "infantry", "--count", "14", *fr)
    assert r.exit_code == 1 and files_in(home) == before, r.output
    text, hint = str(r.exception), r.exception.hint
    assert text.startswith("FR has too little manpower for buy-army --item infantry --count 14: it needs $42 and 28 "
                           "manpower, FR has $") and "cannot pay" not in text, text
    assert "a loan brings money, not manpower" in hint, hint
    fits = re.search(r"'eiapbem (economy buy-army [^']*)' fits", hint)
    assert fits and fits.group(1) == "economy buy-army --item infantry --count 13", hint
    r = cli(home, "economy", "buy-army", "--item", "cavalry", "--count", "10", *fr)  # short of money only: said so
    assert r.exit_code == 1 and str(r.exception).startswith("FR cannot pay buy-army --item cavalry --count 10: it needs $")
    assert re.search(r"'eiapbem economy buy-army --item cavalry --count \d+' fits", r.exception.hint), r.exception.hint
    assert "manpower is short" not in r.exception.hint
    r = cli(home, *fits.group(1).split(), *fr)  # the count the hint names is accepted as written
    assert r.exit_code == 0 and "accepted" in r.output, (r.output, r.exception)


def _inside_nancy(state):
    # France's land slot: corps:FR:V inside the city of Nancy (French), an Austrian corps in the area outside it.
    return _at_nancy(state).with_unit(Corps(id="corps:FR:V", nation="FR", corps_type=CorpsType.REGULAR,
                                            location=Location(LocationKind.CITY, "nancy"), factors=Factors(infantry=12)))


def test_an_attack_from_inside_a_city_says_the_corps_is_inside_and_how_to_fight(tmp_path):
    # 11.1 (000:1610): forces inside a city take no part in field combat. 'land attack --area clermont' was refused
    # with "FR has no corps ... outside the city" where France had a corps there, in the city, not said.
    home = new_game(tmp_path)
    _set_state(home, _inside_nancy)
    fr = ("--power", "FR", "--password", "pw-FR")
    before = files_in(home)
    r = cli(home, "land", "attack", "--area", "nancy", "--yes", *fr)
    assert r.exit_code == 1 and files_in(home) == before, r.output
    text = str(r.exception)
    assert text.startswith("corps:FR:V is inside the city of nancy, and forces inside a city take no part in field "
                           "combat (11.1, 000:1610)"), text
    move = re.search(r"'eiapbem (land move [^']*)'", text)
    assert move and move.group(1) == "land move --unit corps:FR:V --path nancy", text
    r = cli(home, *move.group(1).split(), *fr)  # as written: out of the city at no cost (10.4.4)
    assert r.exit_code == 0, (r.output, r.exception)
    r = cli(home, "land", "attack", "--area", "nancy", "--yes", *fr)
    assert r.exit_code == 0 and "Field combat in nancy" in r.output, (r.output, r.exception)


def test_a_skip_settings_off_command_out_of_the_players_slot_says_it_is_for_the_next_slot(seven_folders):
    # 13.9: every folder's status named 'eiapbem skip --phase reinforcement --mode off' as what "ends it", while Russia
    # set up, and the command was then refused ("it is not AU's turn"): the setting goes in the power's own file.
    from eiapbem.client.status import status_lines

    au = seven_folders.open("AU")
    line = next(x for x in status_lines(au) if x.startswith("Phase skipping of AU"))
    assert "('eiapbem skip --phase reinforcement --mode off' in your next slot ends it)" in line, line
    ru = seven_folders.open("RU")  # Russia's setup slot is in play: the command is taken now
    line = next(x for x in status_lines(ru) if x.startswith("Phase skipping of RU"))
    assert "('eiapbem skip --phase reinforcement --mode off' ends it)" in line, line


def test_a_french_depot_in_zurich_at_peace_is_legal_and_swabias_is_not(tmp_path):
    # 10.3.1 (000:1312): Switzerland is a French conquered minor from the start (000:350, 000:414), so Zurich is a
    # city of France's territory: a French depot there at peace is legal (it was met as "a depot in a neutral's
    # area"). Swabia, a neutral minor's, is refused at peace (10.3.3, 000:1342).
    from eiapbem.rules.model import POOL, Depot

    def peace(s):
        s = s.replace(date=Date(1805, 9), slot=Slot(phase=Phase.LAND, step="turn", power="FR", actors=("FR",)))
        s = s.with_power("FR", treasury=10)
        for u in [u for u in s.units.values() if isinstance(u, Depot) and u.power == "FR"]:
            s = s.with_unit(u.replace(location=POOL))
        s = s.with_unit(Depot(id="depot:FR:9", power="FR", location=Location(LocationKind.AREA, "bern")))  # placed before
        return s.with_unit(Corps(id="corps:FR:V", nation="FR", corps_type=CorpsType.REGULAR,
                                 location=Location(LocationKind.AREA, "swabia"), factors=Factors(infantry=6)))

    home = new_game(tmp_path)
    _set_state(home, peace)
    fr = ("--power", "FR", "--password", "pw-FR")
    r = cli(home, "land", "create-depot", "--area", "swabia", *fr)
    assert r.exit_code == 1 and "swabia is in the neutral minor swabia; a depot goes there only at war" in str(r.exception)
    r = cli(home, "land", "create-depot", "--area", "zurich", *fr)
    assert r.exit_code == 0 and "in zurich for $1 (10.3.1)" in r.output, (r.output, r.exception)
