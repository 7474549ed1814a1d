"""What a new user reads (session 2026-12-02c, task "wording"): each test pins a sentence that used a code
or did not name the command that does the thing.
"""

from __future__ import annotations

import re
import shlex

import pytest
from click.testing import CliRunner

from eiapbem.cli import main
from eiapbem.core.dice import Dice
from eiapbem.data.context import rules_context
from eiapbem.rules import engine
from eiapbem.rules.model import POWERS, BuildOrder, Date, Factors, Location, LocationKind, Phase, Slot
from eiapbem.rules.model.slot import TURN
from eiapbem.rules.reinforcement import army, hooks
from eiapbem.rules.scenario import initial_state

MARCH = Date(1805, 3)
_COMMAND = re.compile(r"'(eiapbem [^']+)'")


@pytest.fixture(scope="module")
def ctx():
    return rules_context(Dice(b"wording-tests"))


def _due(state, power, item, count):
    o = BuildOrder(nation=power, item=item, count=count, arrives=MARCH, port=None)
    return state.with_power(power, builds=state.powers[power].builds.set(o.key, o))


def _reinforcing(state, power):
    return state.replace(date=MARCH, slot=Slot(Phase.REINFORCEMENT, TURN, power, (power,)))


def _runs(command: str) -> None:
    """The named command exists and takes the options it is given (click parses them before --help)."""
    words = shlex.split(command)
    assert words[0] == "eiapbem"
    args = ["x" if w.isupper() and w.isalpha() else w for w in words[1:]]  # CHOICE, POWER...: placeholders
    r = CliRunner().invoke(main.cli, [*args, "--help"])
    assert r.exit_code == 0, (command, r.output)


def test_the_reinforcement_to_do_line_names_the_command_that_places_the_factors(start, ctx):
    # It read "place the 2 infantry due to FR this month (room for one at least at corps:FR:I); reinforcements
    # may not be delayed (7.2.2, 000:930)": which command places them was left to the reader.
    s = _reinforcing(start, "FR")
    s = s.with_unit(s.units["corps:FR:I"].replace(location=Location(LocationKind.AREA, "lyon"),
                                                   factors=Factors(infantry=14)))
    s = _due(s, "FR", "infantry", 2)
    (line,) = engine.unmet_obligations(s, "FR", ctx)
    # The corps holds one more only: the hint names the count it takes, so the command is accepted as written
    # (it named all that was due, "--infantry 2", which add-factors then refused: 7.2.2, 000:932).
    assert ("(room for 1 at corps:FR:I, the rest elsewhere): 'eiapbem reinforce add-factors --corps corps:FR:I "
            "--infantry 1'") in line, line
    roomy = s.with_unit(s.units["corps:FR:I"].replace(factors=Factors(infantry=10)))
    (line2,) = engine.unmet_obligations(roomy, "FR", ctx)
    assert "(room for all at corps:FR:I): 'eiapbem reinforce add-factors --corps corps:FR:I --infantry 2'" in line2
    engine.verify_action(roomy, "FR", army.AddFactors(corps="corps:FR:I", infantry=2), ctx)
    # The corps full, the garrison of a home city is named with its own command.
    s = engine.apply_action(s, "FR", army.AddFactors(corps="corps:FR:I", infantry=1), ctx).state
    (line,) = engine.unmet_obligations(s, "FR", ctx)
    assert "'eiapbem reinforce add-garrison --area" in line and "--at city --infantry 1'" in line, line
    for command in _COMMAND.findall(line):
        _runs(command)


def test_the_reinforcement_hint_sends_line_infantry_to_a_line_corps_not_the_guard(start, ctx):
    # 7.2.2: the hint named corps:FR:Guard (first by id) for line infantry beside a line corps with room; the Guard
    # counter holds only a few line factors besides its guard (the counter mix), so it comes after a line corps, a
    # garrison and a bought counter; guard factors still go to it.
    paris = Location(LocationKind.AREA, "paris")
    s = _reinforcing(start, "FR")
    s = s.with_unit(s.units["corps:FR:Guard"].replace(location=paris, factors=Factors(guard=5)))
    s = s.with_unit(s.units["corps:FR:I"].replace(location=paris, factors=Factors(infantry=13)))
    (line,) = engine.unmet_obligations(_due(s, "FR", "infantry", 3), "FR", ctx)
    assert "(room for 2 at corps:FR:I, the rest elsewhere): 'eiapbem reinforce add-factors --corps corps:FR:I " \
        "--infantry 2'" in line, line
    full = s.with_unit(s.units["corps:FR:I"].replace(factors=Factors(infantry=15)))
    (line,) = engine.unmet_obligations(_due(full, "FR", "infantry", 3), "FR", ctx)
    assert "corps:FR:Guard" not in line and "'eiapbem reinforce add-garrison --area paris --at city --infantry 3'" in line, line
    (line,) = engine.unmet_obligations(_due(full, "FR", "guard", 2), "FR", ctx)
    assert "'eiapbem reinforce add-factors --corps corps:FR:Guard --guard 2'" in line, line


def test_a_bought_corps_counter_is_named_with_place_corps(start, ctx):
    s = _due(_reinforcing(start, "FR"), "FR", "cavalry", 2)
    s = s.with_unit(s.units["corps:FR:Cav-I"].replace(placeable_until=Date(1805, 6)))
    (line,) = hooks.obligations(s, "FR", ctx)
    (command,) = _COMMAND.findall(line)
    assert command.startswith("eiapbem reinforce place-corps --corps corps:FR:Cav-I --area ") and command.endswith(" --cavalry 2")
    _runs(command)


def test_a_bought_counter_waiting_is_in_the_to_do_with_its_month(start, ctx):
    # 12.5.4 (000:2238): placing it is not required, but unplaced by its month it goes back to the pool; the to-do
    # said nothing of it, and the counter lapsed without a word.
    from eiapbem.client.status import to_do

    s = _reinforcing(start, "FR")
    assert not [line for line in to_do(s, "FR", ctx) if "corps:FR:Cav-I" in line]
    later = s.with_unit(s.units["corps:FR:Cav-I"].replace(placeable_until=Date(1805, 5)))
    (line,) = [line for line in to_do(later, "FR", ctx) if "corps:FR:Cav-I" in line]
    assert "place corps:FR:Cav-I" in line and "by 1805-05" in line and "(12.5.4)" in line, line
    assert _COMMAND.findall(line)[0].startswith("eiapbem reinforce place-corps --corps corps:FR:Cav-I --area ")
    last = s.with_unit(s.units["corps:FR:Cav-I"].replace(placeable_until=MARCH))
    (line,) = [line for line in to_do(last, "FR", ctx) if "corps:FR:Cav-I" in line]
    assert "this month, its last" in line, line
    # Not in another power's slot: only the reinforcement phase places it (7.2.1).
    assert not [line for line in to_do(_reinforcing(last, "RU"), "RU", ctx) if "Cav-I" in line]


def test_every_phases_to_do_lines_name_a_command(start, ctx):
    # The setup, a pending question, the naval and land phases' duties: each sentence names what to type.
    setup = start.replace(slot=Slot(Phase.SETUP, TURN, "FR", ("FR",)))
    lines = list(engine.unmet_obligations(setup, "FR", ctx))
    assert lines, "the setup has factors to place"
    asked = _reinforcing(start, "FR")
    from eiapbem.rules.model import PendingDecision

    d = PendingDecision(id="battle:1805-03:lyon:0/0", power="FR", kind="battle.chit", options=("assault", "probe"),
                        slot=asked.slot.key(asked.date))
    asked = asked.replace(pending=asked.pending.set(d.id, d))
    lines += list(engine.unmet_obligations(asked, "FR", ctx))
    for line in lines:
        commands = _COMMAND.findall(line)
        assert commands, f"names no command: {line}"
        for command in commands:
            _runs(command)


# ----------------------------------------------------------------- 1. siege results in words


def test_an_assault_attempt_with_no_result_says_so_in_words():
    # It read "Assault attempt ... on lille by AU: die 5, siege value -3 = 2: nr." (the siege table's code).
    from eiapbem.rules.combat.sieges import report_text, start_siege_assault
    from eiapbem.rulecases.scene import scene_state

    s = scene_state({"date": "1806-05", "phasing": "AU", "wars": [["AU", "FR"]],
                     "corps": [{"id": "corps:AU:I", "location": "area:lille", "infantry": 10, "besieging": True}],
                     "garrisons": [{"nation": "FR", "city": "lille", "infantry": 15}]}, phase=Phase.LAND)
    sid = "1806-05.lille.1"
    out = start_siege_assault(s, "lille", "AU", rules_context(Dice(b"w", forced={f"siege/{sid}/attempt": 5})))
    (event,) = [e for e in out.events if e.kind == "siege.result"]
    assert event.text.endswith("= 2: no result - the walls hold, nothing happens and the siege goes on (11.4.1).")
    assert ": nr." not in event.text and ": nr." not in report_text(out.state.sieges[sid])
    # The hashed state keeps the stored line as it was, so a game in progress replays to the same state.
    assert out.state.sieges[sid].report[0].endswith(": nr.")


def test_every_siege_table_result_has_words_and_the_printed_table_explains_nr():
    from eiapbem.rules.tables import get_table, land

    for code in (land.SORTIE, land.NO_RESULT, land.BREACH):
        words = land.siege_result_words(code)
        assert words != code and words.endswith("(11.4.1)")
    assert "breach" in land.siege_result_words("breach") and "surrender" in land.siege_result_words("breach")
    assert any(n.startswith("NR: no result") for n in get_table("siege").notes)


# ----------------------------------------------------------------- 2. peace terms by name


def _surrendered():
    """Austria sues France, which gives conditional terms B.3 then B.2 (6.4.2)."""
    from eiapbem.rules.diplomacy import peace
    from eiapbem.rules.diplomacy.common import Result
    from eiapbem.rules.model import SurrenderSettings

    c = rules_context(Dice(bytes(32)))
    st = initial_state(c.world["scenarios/classic-1805.json"], c.world).with_war("FR", "AU", Date(1805, 1), ("FR",))
    fr = st.powers["FR"]
    so = fr.standing_orders.replace(surrender=fr.standing_orders.surrender.set(
        "AU", SurrenderSettings(give_conditional=True, terms=("B.3", "B.2"))))
    st = st.with_power("FR", standing_orders=so)
    r = Result(state=st, ctx=c, slot="1805-01/diplomacy/turn/all")
    peace.surrender(r, "AU", {"FR": False})
    return r


def test_the_surrender_and_each_term_are_logged_with_the_terms_name_and_what_it_does():
    # It read "Austria surrenders conditionally to France, terms B.3, B.2 (6.4.2)" and "peace term B.3 of France
    # on Austria": the names were only in 'eiapbem tables show victory-conditions'.
    r = _surrendered()
    texts = [e.text for e in r.events]
    (line,) = [t for t in texts if " surrenders conditionally to " in t]
    assert line == ("Austria surrenders conditionally to France, terms B.3, B.2 (6.4.2): "
                    "B.3 Reparations 1/2 of home nation tax; B.2 Enforced peace 24 months")
    (b3,) = [t for t in texts if t.startswith("peace term B.3")]
    assert b3 == ("peace term B.3 Reparations 1/2 of home nation tax of France on Austria: Austria pays France half "
                  "its original home nation tax at the next economic phase")
    assert any(t.startswith("peace term B.2 Enforced peace 24 months of France on Austria: Austria may not declare "
                            "war on France for 24 months") for t in texts)


def test_show_power_and_status_name_the_terms_in_force():
    from eiapbem.client import show
    from eiapbem.client.status import peace_terms_in_force, render

    st = _surrendered().state
    text = "\n".join(show.power(st, "AU"))
    assert ("peace terms on it: B.2 Enforced peace 24 months (for France, until January 1807); "
            "B.3 Reparations 1/2 of home nation tax (for France, 1 economic phase to go)") in text
    assert "FR:B.3" not in text
    terms = peace_terms_in_force(st, "AU")
    assert len(terms) == 2 and terms[1].endswith(": Austria pays France half its original home nation tax at the next economic phase")
    assert peace_terms_in_force(st, "FR") == [] and peace_terms_in_force(st, "host") == []
    rec = {"game": "G", "scenario": "classic-1805", "plays": ["AU"], "hosts": False, "over": False, "date_name": "May 1805", "state_hash": "00" * 8,
           "phase": "reinforcement", "phase_implemented": True, "simultaneous": False, "turn_of": "AU", "slot": "s",
           "computer": [], "waiting": [], "power": "AU", "orders_sent": None, "actions_taken": None, "next": None,
           "battles": [], "pending": [], "not_implemented": [], "partly_built": [], "log": [], "peace_terms": terms}
    assert any(ln.startswith("Peace terms in force on Austria (6.4): B.2 Enforced peace 24 months") for ln in render(rec))


def test_every_victory_condition_has_words_for_what_it_does():
    from eiapbem.rules.tables.diplomacy import PEACE_CONDITIONS, PEACE_EFFECTS, peace_term_effect

    assert set(PEACE_EFFECTS) == set(PEACE_CONDITIONS)
    for cid in PEACE_CONDITIONS:
        assert "{" not in peace_term_effect(cid, "France", "Austria"), cid


# ----------------------------------------------------------------- 8. a new user's session


def test_the_sealed_diplomacys_commitment_and_reveal_are_not_listed_as_things_to_do(start, ctx):
    # In the commit round status said "To do before end-phase: SP's file of the commit round must carry its
    # commitment: 'eiapbem end-phase' seals the orders...", and every accepted order added it as "still to do":
    # end-phase writes the commitment (and the reveal) itself, so nothing is left to do.
    from eiapbem.client.status import to_do

    commit = start.replace(slot=Slot(Phase.DIPLOMACY, "commit", None, POWERS))
    assert engine.unmet_obligations(commit, "SP", ctx), "the rules still require the commitment in the file"
    assert to_do(commit, "SP", ctx) == []
    sheet = start.order_sheet.replace(commitments=start.order_sheet.commitments.set("SP", b"\x00" * 32))
    reveal = start.replace(slot=Slot(Phase.DIPLOMACY, "orders", None, POWERS), order_sheet=sheet)
    assert engine.unmet_obligations(reveal, "SP", ctx) and to_do(reveal, "SP", ctx) == []


def test_the_pool_names_the_month_an_order_arrives_and_the_summary_says_it_is_a_projection(start):
    # "on order: 3 infantry arriving 1805-06" and "random numbers from the seed 'preview'" read as codes.
    from eiapbem.cli.economy_cmd import render
    from eiapbem.client import show

    s = _reinforcing(start, "SP")
    o = BuildOrder(nation="SP", item="infantry", count=3, arrives=Date(1805, 6), port=None)
    s = s.with_power("SP", builds=s.powers["SP"].builds.set(o.key, o))
    text = "\n".join(show.pool(s, "SP"))
    assert "on order: 3 infantry arriving June 1805" in text, text
    head = render([], s, "preview").splitlines()[0]
    assert head.startswith("Economic summary, March 1805 (classic-1805): a projection;") and "preview seed 'preview'" in head


def test_show_units_of_an_area_without_ones_own_forces_points_to_show_area():
    # 'show units --area lisbon' said "Spain: no such forces on the map" while French ships lay off Lisbon.
    from eiapbem.client import show

    (line,) = show.units_lines([], "SP", "lisbon")
    assert "none of its forces in lisbon" in line and "'eiapbem show area lisbon'" in line
    assert show.units_lines([], "SP") == ["Spain: no such forces on the map"]


def test_surrender_terms_are_confirmed_with_each_terms_name_and_effect():
    # "surrender-terms --enemy FR --term B.3 --term B.2 accepted": which terms those were was left to the chart.
    from eiapbem.cli.actions_cmd import peace_terms_words
    from eiapbem.rules.diplomacy.orders import SetSurrenderTerms

    lines = peace_terms_words(SetSurrenderTerms(enemy="FR", term=("B.3", "B.2"), if_conditional_offered="A.2"), "SP")
    assert lines == [
        "  if France surrenders to Spain: B.3 Reparations 1/2 of home nation tax - France pays Spain half its original "
        "home nation tax at the next economic phase",
        "  if France surrenders to Spain: B.2 Enforced peace 24 months - France may not declare war on Spain for 24 months",
        "  if Spain surrenders conditionally to France: A.2 Pay no reparations - the victor may not demand B.3: "
        "Spain pays no reparations"]
    assert peace_terms_words(SetSurrenderTerms(enemy="FR", accept_informal=True), "SP") == []
    # The confirmation printed "--term ('B.3', 'B.2')": an option given twice is echoed as typed.
    from eiapbem.cli.actions_cmd import _describe

    assert _describe(SetSurrenderTerms(enemy="FR", term=("B.3", "B.2"))) == "--enemy FR --term B.3 --term B.2"


def test_a_siege_question_names_the_report_of_its_siege():
    from types import SimpleNamespace

    from eiapbem.client.status import answer_hint

    d = SimpleNamespace(id="siege:1806-05.lille.1:casualty:besieger:1:1", power="AU", kind="siege.casualty",
                        options=("corps:AU:I/infantry", "corps:AU:I/cavalry"))
    hint = answer_hint([d], ["AU"])
    assert hint.endswith("('eiapbem battle report 1806-05.lille.1' shows the siege, 11.4)"), hint


def test_show_power_lists_the_wars_on_minor_countries(start):
    # During Spain's war on Portugal 'show power' said "at war with: nobody".
    from eiapbem.client import show

    s = start.with_power("SP", minor_wars=start.powers["SP"].minor_wars.set("portugal", Date(1805, 2)))
    assert "  at war with: nobody; minor countries: portugal" in show.power(s, "SP")
    assert "  at war with: nobody" in show.power(start, "SP")


def test_status_counts_orders_in_a_simultaneous_phase():
    # "SP: 0 actions taken in this slot so far" in the diplomacy and economic phases, where one gives orders.
    from eiapbem.client.status import render

    rec = {"game": "G", "scenario": "classic-1805", "plays": ["SP"], "hosts": False, "over": False,
           "date_name": "March 1805", "state_hash": "00" * 8, "phase": "economic", "phase_implemented": True,
           "simultaneous": True, "turn_of": None, "slot": "1805-03/economic/orders/all", "computer": [], "waiting": [],
           "power": "SP", "orders_sent": None, "actions_taken": 1, "reloads": 0, "to_do": [], "next": None,
           "battles": [], "pending": [], "not_implemented": [], "partly_built": [], "log": []}
    assert "SP: 1 order given in this phase so far ('eiapbem end-phase' sends them)" in render(rec)
    assert "SP: 1 action taken in this slot so far" in render(dict(rec, simultaneous=False, turn_of="SP"))


def test_the_conditional_claim_offers_list_a_only():
    # '--if-conditional-offered [A.1|...|C.7]' offered codes the rules refuse (the claim is one of list A).
    r = CliRunner().invoke(main.cli, ["diplomacy", "surrender-terms", "--help"], terminal_width=200)
    assert r.exit_code == 0 and "[A.1|A.2|A.3|A.4|A.5]" in r.output and "B.3|" not in r.output, r.output


def test_show_power_says_until_when_an_enforced_peace_binds_and_whether_trade_with_britain_runs():
    # "enforced peace (6.4): AU until 1806-08" named the first month allowed and read as still bound then; and
    # trade with Britain was listed during a war with it.
    from eiapbem.client import show

    st = _surrendered().state  # the peace of January 1805: 24 months for Austria (B.2)
    au = "\n".join(show.power(st, "AU"))
    assert "enforced peace (6.4): no war on FR before January 1807 (bound through December 1806)" in au
    later = st.replace(date=Date(1807, 1), slot=None)
    assert "enforced peace (6.4): none" in "\n".join(show.power(later, "AU"))
    traded = st.with_power("FR", trade=("GB",)).with_power("GB", trade=("FR",))
    assert "trade (6.10): with Great Britain;" in "\n".join(show.power(traded, "FR"))
    # 6.4.1: an informal peace binds nothing, but was nowhere to be read: whether the two made one, and when.
    from eiapbem.rules.diplomacy.common import set_mutual

    assert "informal peace" not in "\n".join(show.power(st, "PR"))
    made = set_mutual(st, "informal_peace", "PR", "FR", Date(1805, 1))
    assert "  last informal peace (6.4.1): with FR in January 1805" in show.power(made, "PR")
    assert "trade (6.10): with FR;" in "\n".join(show.power(traded, "GB"))
    at_war = traded.with_war("FR", "GB", traded.date, ("FR",))
    assert "trade (6.10): none: at war with Great Britain;" in "\n".join(show.power(at_war, "FR"))
    assert "trade (6.10): with nobody (allowed, not trading: FR);" in "\n".join(show.power(at_war, "GB"))


def test_show_power_names_the_enemies_allied_minors(start):
    # Bavaria, allied to France, fought Austria while 'show power AU' said only "at war with: FR" (6.1.3).
    from eiapbem.client import show
    from eiapbem.rules.model import MinorStatus

    s = start.with_war("FR", "AU", Date(1805, 1), ("AU",))
    s = s.with_minor("bavaria", s.minors["bavaria"].replace(status=MinorStatus.ALLIED, controller="FR"))
    (line,) = [x for x in show.power(s, "AU") if x.startswith("  at war with:")]
    assert line.startswith("  at war with: FR; their minors (6.1.3, 6.8): bavaria (FR), holland (FR)"), line
    assert "their minors" not in "\n".join(show.power(s, "PR"))
