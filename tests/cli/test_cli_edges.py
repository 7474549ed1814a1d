"""A new player's rough edges at the command line: orders that would change nothing are refused with why, and every
command a hint names is taken as written (issue 32)."""

from __future__ import annotations

import re
from dataclasses import replace

from clikit import cli, files_in, new_game

from eiapbem.client.session import Session
from eiapbem.rules.model import Date, Fleet, Location, LocationKind, Phase, Ships, Slot
from eiapbem.rules.model.slot import COMMIT


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
