"""6.1.4 minor manipulation: what is refused (the worked examples are rules cases)."""

import pytest

from eiapbem.core.errors import BadData
from eiapbem.rules.diplomacy.minors import ManipulationRefused, manipulate
from eiapbem.core.dice import Dice

ZONES = {p: "neutral" for p in ("AU", "FR", "GB", "PR", "RU", "SP", "TU")}


def dice(attempt, resist):
    return Dice(b"t", forced={"l/attempt": attempt, "l/resist": resist}, strict=True)


def test_persia_and_poland_cannot_be_manipulated():
    # 000:2886, 000:2888 NA
    for slug in ("persia", "poland"):
        with pytest.raises(ManipulationRefused):
            manipulate(slug, "FR", "neutral", None, dice(5, 5), zones=ZONES, label="l")


def test_ally_relations_are_off_limits():
    # 000:558
    with pytest.raises(ManipulationRefused, match="ally"):
        manipulate("portugal", "SP", "influenced", "GB", dice(5, 5), zones=ZONES, allies=("GB",), label="l")


def test_money_only_counts_on_own_or_neutral_minors():
    # 000:574 vs 000:590: no investment modifier against another power's minor
    with pytest.raises(ManipulationRefused):
        manipulate("portugal", "SP", "influenced", "GB", dice(5, 5), zones=ZONES, investment=3, label="l")


def test_rival_ally_drops_to_influenced_using_starred_number():
    # 000:2891, 000:2908: Romagna allied with Spain; Britain needs 5, Austria 2
    r = manipulate("romagna", "GB", "allied", "SP", dice(10, 1), zones=ZONES, label="l")
    # GB 10 + 2*1 = 12; SP 1 + 2*2 = 5; +7 >= 5
    assert (r.difference, r.required, r.success, r.status, r.holder) == (7, 5, True, "influenced", "SP")
    r = manipulate("romagna", "AU", "allied", "SP", dice(1, 2), zones=ZONES, label="l")
    # AU 1 + 6 = 7; SP 2 + 4 = 6; +1 < 2
    assert (r.difference, r.required, r.success, r.status) == (1, 2, False, "allied")


def test_status_must_be_manipulable():
    with pytest.raises(ManipulationRefused):
        manipulate("portugal", "SP", "conquered", "GB", dice(5, 5), zones=ZONES, label="l")
    with pytest.raises(ManipulationRefused):
        manipulate("portugal", "SP", "allied", "SP", dice(5, 5), zones=ZONES, label="l")
    with pytest.raises(BadData):
        manipulate("portugal", "SP", "influenced", None, dice(5, 5), zones=ZONES, label="l")


def test_missing_zone_is_bad_data():
    with pytest.raises(BadData, match="Great Britain"):
        manipulate("portugal", "SP", "influenced", "GB", dice(5, 5), zones={"SP": "neutral"}, label="l")
