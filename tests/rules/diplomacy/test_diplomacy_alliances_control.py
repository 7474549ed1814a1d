"""6.5 AI alliances (000:762, 000:3169-3181) and 6.6.4 minor control (000:816-828)."""

from eiapbem.core.dice import Dice
from eiapbem.rules.diplomacy.alliances import ai_alliance
from eiapbem.rules.diplomacy.minor_control import select_controller


def test_ai_alliance_uses_table_and_status():
    # GB -> AU +3 (000:3176), dominant +1: 6 + 4 = 10 >= 10 forms; against 11 it does not
    d = Dice(b"t", forced={"a/attempt": 6, "a/accept": 10}, strict=True)
    r = ai_alliance("GB", "AU", "dominant", d, label="a")
    assert (r.attempt_total, r.formed) == (10, True)
    d = Dice(b"t", forced={"a/attempt": 6, "a/accept": 11}, strict=True)
    assert ai_alliance("GB", "AU", "dominant", d, label="a").formed is False
    # FR -> GB -10 (000:3175): even a 10 in the dominant zone cannot beat a 2
    d = Dice(b"t", forced={"a/attempt": 10, "a/accept": 2}, strict=True)
    assert ai_alliance("FR", "GB", "dominant", d, label="a").formed is False


def test_minor_control_selection_and_ties():
    # Portugal: GB +3, SP +1 (000:2889); 1-12 + national + status (+2 at war, 000:828)
    cands = {"GB": {"zone": "neutral"}, "SP": {"zone": "dominant", "at_war": True}}
    d = Dice(b"t", forced={"m/GB": 5, "m/SP": 5}, strict=True)
    winner, totals = select_controller("portugal", cands, d, label="m")
    assert totals == {"GB": 8, "SP": 9} and winner == "SP"
    d = Dice(b"t", forced={"m/GB": 5, "m/SP": 4, "m/tie1/GB": 3, "m/tie1/SP": 3, "m/tie2/GB": 2, "m/tie2/SP": 6},
             strict=True)
    winner, totals = select_controller("portugal", cands, d, label="m")
    assert totals == {"GB": 8, "SP": 8} and winner == "SP"
