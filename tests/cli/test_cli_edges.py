"""A new player's rough edges at the command line: orders that would change nothing are refused with why, and every
command a hint names is taken as written (issue 32)."""

from __future__ import annotations

import re
from dataclasses import replace

from clikit import cli, files_in, new_game

from eiapbem.client.session import Session
from eiapbem.rules.model import POWERS, Date, Fleet, Location, LocationKind, Phase, Ships, Slot
from eiapbem.rules.model.slot import COMMIT, ORDERS


def _set_state(home, change):
    s = Session.open(home, "Cli", "FR", "pw-FR")
    s.data = replace(s.data, state=change(s.state))
    s.save()


def _diplomacy_with_a_fleet(state):
    s = state.replace(date=Date(1805, 2), slot=Slot(Phase.DIPLOMACY, COMMIT, None, ("FR",)))  # the others skip it
    return s.with_unit(Fleet(id="fleet:FR:1", nation="FR", location=Location(LocationKind.PORT, "brest"),
                             ships=Ships(heavy=5)))


def _next(home, power):
    r = cli(home, "status", "--power", power, "--password", f"pw-{power}")
    assert r.exit_code == 0, (r.output, r.exception)
    return next(ln for ln in r.output.splitlines() if ln.startswith("Next:"))


def test_a_skip_setting_given_again_is_refused_as_doing_nothing_and_the_tip_that_named_it_goes(tmp_path):
    # 13.9: 'eiapbem skip --phase naval --mode once', as the Next line's tip names it, was taken a second and a
    # third time (three orders counted), and the tip kept naming it after it was given.
    home = new_game(tmp_path)
    _set_state(home, _diplomacy_with_a_fleet)
    fr = ("--power", "FR", "--password", "pw-FR")
    nxt = _next(home, "FR")
    tip = re.search(r"'eiapbem (skip [^']*)' passes your naval slot", nxt)
    assert tip and tip.group(1) == "skip --phase naval --mode once --power FR", nxt
    r = cli(home, *tip.group(1).split(), "--password", "pw-FR")  # as written
    assert r.exit_code == 0 and "accepted (1 order so far" in r.output, (r.output, r.exception)
    assert "skip --phase naval" not in _next(home, "FR")  # given: no longer offered
    before = files_in(home)
    r = cli(home, "skip", "--phase", "naval", "--mode", "once", *fr)
    assert r.exit_code == 1 and files_in(home) == before
    assert str(r.exception) == "this does nothing: FR has given the order to skip the naval phase once (13.9)"
    assert len(Session.open(home, "Cli", "FR", "pw-FR").taken()) == 1
    r = cli(home, "skip", "--phase", "naval", "--mode", "continuous", *fr)  # another setting: an order that counts
    assert r.exit_code == 0 and "accepted (2 orders so far" in r.output, (r.output, r.exception)
    # a setting the power holds already (a new game's reinforcement pace)
    r = cli(home, "skip", "--phase", "reinforcement", "--mode", "continuous", *fr)
    assert r.exit_code == 1 and str(r.exception) == ("this does nothing: FR already skips the reinforcement phase "
                                                     "until the setting is switched off (13.9)")


def test_a_setting_given_again_with_the_same_values_is_refused_as_doing_nothing(tmp_path):
    # 13.2.4: Austria's trigger provinces given twice alike were taken twice, two orders counted; other values count.
    home = new_game(tmp_path)
    _set_state(home, lambda s: s.replace(date=Date(1805, 2), slot=Slot(Phase.DIPLOMACY, COMMIT, None, ("AU",))))
    au = ("--power", "AU", "--password", "pw-AU")
    r = cli(home, "diplomacy", "set-insurrection-triggers", "--provinces", "tyrol", *au)
    assert r.exit_code == 0, (r.output, r.exception)
    before = files_in(home)
    r = cli(home, "diplomacy", "set-insurrection-triggers", "--provinces", "tyrol", *au)
    assert r.exit_code == 1 and files_in(home) == before
    assert str(r.exception) == ("this does nothing: AU has given 'eiapbem diplomacy set-insurrection-triggers' with "
                                "these values already")
    r = cli(home, "diplomacy", "set-insurrection-triggers", "--provinces", "tyrol,bohemia", *au)
    assert r.exit_code == 0, (r.output, r.exception)
    assert len(Session.open(home, "Cli", "AU", "pw-AU").taken()) == 2


def _at_innsbruck(state):
    # France's land slot: corps:FR:V marched to innsbruck, where an Austrian corps stands; France's depots: Paris's
    # (its capital, a supply source) and one in Munich linked to nothing.
    from eiapbem.rules.model import Corps, Depot, Factors, LandMove
    from eiapbem.rules.model.units import CorpsType

    s = state.replace(date=Date(1805, 9), slot=Slot(phase=Phase.LAND, step="turn", power="FR", actors=("FR",)))
    s = s.with_war("FR", "AU", Date(1805, 9), ("FR",)).with_power("FR", treasury=10)
    s = s.with_unit(Depot(id="depot:FR:1", power="FR", location=Location(LocationKind.AREA, "paris")))
    s = s.with_unit(Depot(id="depot:FR:2", power="FR", location=Location(LocationKind.AREA, "munich")))
    for cid, n in (("corps:FR:V", 12), ("corps:AU:I", 8)):
        s = s.with_unit(Corps(id=cid, nation=cid.split(":")[1], corps_type=CorpsType.REGULAR,
                              location=Location(LocationKind.AREA, "innsbruck"), factors=Factors(infantry=n)))
    return s.with_scratch(land_moves=s.land_moves.set("corps:FR:V", LandMove(start="swabia", passed=("innsbruck",),
                                                                                   spent=2)))


def test_a_corps_far_from_depots_is_told_how_far_and_that_a_loose_depot_supplies_nothing(tmp_path):
    # 10.5.2 (000:1530): "no depot of FR's supply chain within 3 areas" beside France's depot in Munich, next door,
    # read as wrong; it is true because that depot is linked to no supply source (10.3.3). Say how far the chain's
    # nearest depot is, and why the near one does not count.
    home = new_game(tmp_path)
    _set_state(home, _at_innsbruck)
    r = cli(home, "land", "attack", "--area", "innsbruck", "--power", "FR", "--password", "pw-FR", input="n\n")
    assert r.exit_code == 1, r.output
    line = next(ln for ln in r.output.splitlines() if ln.startswith("  corps:FR:V forages"))
    assert re.search(r"forages: the nearest depot of FR's supply chain is \d+ areas away, beyond the 3 that depot "
                     r"supply reaches \(10\.5\.2, 000:1530\); depot:FR:2 in munich is in no valid supply chain \(not "
                     r"linked to a supply source, 10\.3\.3\), so it supplies nothing; a roll of 6 costs it", line), line
    # A supply choice given again alike changes nothing: refused, nothing taken (it was taken and counted again).
    fr = ("--power", "FR", "--password", "pw-FR")
    r = cli(home, "land", "supply-choice", "--unit", "corps:FR:V", "--depot", *fr)
    assert r.exit_code == 0, (r.output, r.exception)
    before = files_in(home)
    r = cli(home, "land", "supply-choice", "--unit", "corps:FR:V", "--depot", *fr)
    assert r.exit_code == 1 and files_in(home) == before
    assert str(r.exception) == "this does nothing: FR has given 'eiapbem land supply-choice' with these values already"


def test_a_skip_once_setting_spent_before_the_power_may_change_it_names_no_command(tmp_path):
    # 13.9, 6.0: France sealed February's diplomacy in its January land file and set its naval phase to skip once;
    # status said "('eiapbem skip --phase naval --mode off' in your next slot ends it)", but its next slot is the
    # reveal round, which takes no new order, and the naval slot is passed before its land slot.
    from eiapbem.client.status import skip_settings
    from eiapbem.rules.model import OrderSheet, SkipMode

    home = new_game(tmp_path)
    s = Session.open(home, "Cli", "FR", "pw-FR").state
    s = s.replace(date=Date(1805, 2), slot=Slot(Phase.DIPLOMACY, COMMIT, None, ("AU", "GB", "PR", "RU", "SP", "TU")),
                  order_sheet=OrderSheet(commitments=s.order_sheet.commitments.set("FR", bytes(32))))
    s = s.replace(minors=type(s.minors)((k, m.replace(setup_due=False)) for k, m in s.minors.items()))  # none due
    s = s.with_power("FR", skips=s.powers["FR"].skips.set(Phase.NAVAL, SkipMode.ONCE)
                     .set(Phase.REINFORCEMENT, SkipMode.CONTINUOUS))
    naval, reinforcement = sorted(skip_settings(s, "FR"), key=lambda x: x["phase"])
    assert naval["off"] is None and naval["text"] == ("naval phase skipped once, passing FR's naval slot of February "
                                                      "1805 before FR can change it"), naval
    assert reinforcement["off"] == "eiapbem skip --phase reinforcement --mode off" and reinforcement["when"] == "land"
    # in the reveal round itself, which refuses a new order, the command is for the land slot still
    reveal = s.replace(slot=Slot(Phase.DIPLOMACY, ORDERS, None, POWERS))
    assert [x["when"] for x in skip_settings(reveal, "FR")] == ["land", "land"]
    s = s.replace(order_sheet=OrderSheet())  # not sealed: the reveal round takes the setting
    assert all(x["off"] and x["when"] == "diplomacy" for x in skip_settings(s, "FR"))


def test_a_skip_setting_given_in_the_slot_shows_in_status_and_its_tip_goes(tmp_path):
    # 13.9: Austria gave 'eiapbem skip --phase reinforcement --mode continuous' as the Next line named it in its
    # reinforcement slot; status showed no setting until the slot ended and the Next line named the command again.
    home = new_game(tmp_path)

    def nothing_due(s):
        s = s.replace(date=Date(1805, 2), slot=Slot(Phase.REINFORCEMENT, "turn", "AU", ("AU",)))
        s = s.replace(minors=type(s.minors)((k, m.replace(setup_due=False)) for k, m in s.minors.items()))
        return s.with_power("AU", skips=type(s.powers["AU"].skips)())

    _set_state(home, nothing_due)
    au = ("--power", "AU", "--password", "pw-AU")
    tip = re.search(r"\('eiapbem (skip [^']*)' passes this phase while nothing is due", _next(home, "AU"))
    assert tip, _next(home, "AU")
    r = cli(home, *tip.group(1).split(), "--password", "pw-AU")  # as written
    assert r.exit_code == 0, (r.output, r.exception)
    r = cli(home, "status", *au)
    assert "Phase skipping of AU (13.9): reinforcement phase skipped while nothing is due" in r.output, r.output
    nxt = _next(home, "AU")
    assert "eiapbem skip" not in nxt and nxt.endswith("end the phase: 'eiapbem end-phase --power AU'"), nxt


def test_a_power_sealed_ahead_is_not_told_to_give_orders_in_the_commit_round(tmp_path):
    # 6.0: Britain sealed March's diplomacy in its February land file; in the commit round its status said "give your
    # orders, then 'eiapbem end-phase' sends only a commitment", though it plays no commit round.
    from eiapbem.client.status import status_lines
    from eiapbem.rules.model import OrderSheet

    home = new_game(tmp_path)

    def sealed_ahead(s):
        return s.replace(date=Date(1805, 3), slot=Slot(Phase.DIPLOMACY, COMMIT, None, ("AU", "FR")),
                         order_sheet=OrderSheet(commitments=s.order_sheet.commitments.set("GB", bytes(32))))

    _set_state(home, sealed_ahead)
    gb = [ln for ln in status_lines(Session.open(home, "Cli", "GB", "pw-GB")) if ln.startswith("Sealed diplomacy")]
    assert gb == ["Sealed diplomacy, round 1 of 2: GB's orders were sealed ahead in its last file of February 1805, so "
                  "it plays no commit round; round 2 reveals them"], gb
    fr = [ln for ln in status_lines(Session.open(home, "Cli", "FR", "pw-FR")) if ln.startswith("Sealed diplomacy")]
    assert fr and fr[0].startswith("Sealed diplomacy, round 1 of 2: give your orders"), fr


def test_ending_the_land_slot_says_what_a_besieged_corps_risks(tmp_path):
    # 10.5.5: France's corps held Linz's city against an Austrian siege; end-phase listed every corps's supply but
    # this one, which then rolled against the city's supply value without a word before.
    from eiapbem.rules.model import CityControl, Corps, Factors
    from eiapbem.rules.model.units import CorpsType

    def besieged_in_linz(s):
        s = s.replace(date=Date(1805, 4), slot=Slot(Phase.LAND, "turn", "FR", ("FR",)))
        s = s.with_war("FR", "AU", Date(1805, 1), ("FR",))
        s = s.replace(city_control=s.city_control.set("linz", CityControl(nation="FR", since=Date(1805, 2))))
        s = s.with_unit(Corps(id="corps:FR:V", nation="FR", corps_type=CorpsType.REGULAR,
                              location=Location(LocationKind.CITY, "linz"), factors=Factors(infantry=4)))
        return s.with_unit(Corps(id="corps:AU:V", nation="AU", corps_type=CorpsType.REGULAR, besieging=True,
                                 location=Location(LocationKind.AREA, "linz"), factors=Factors(infantry=13)))

    home = new_game(tmp_path)
    _set_state(home, besieged_in_linz)
    r = cli(home, "end-phase", "--power", "FR", "--password", "pw-FR", input="n\n")
    line = next((ln for ln in r.output.splitlines() if "besieged in linz" in ln), None)
    assert line == ("  corps:FR:V besieged in linz: each rolls against the city's supply value 2 (10.5.5); a roll of 6 "
                    "costs each 4 factors"), r.output
