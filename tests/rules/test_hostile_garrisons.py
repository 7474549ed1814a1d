"""13.5.4 (000:2572-2574): garrisons of powers at war in one city, beyond the rules cases' two sides."""

from eiapbem.core.dice import Dice
from eiapbem.data.context import rules_context
from eiapbem.rulecases.procedures.game import build_state
from eiapbem.rules import hostile_garrisons


def _state(ctx, garrisons, wars):
    return build_state({"scenario": "classic-1805", "date": "1805-04", "phase": "diplomacy", "power": "all",
                        "garrisons": garrisons, "wars": wars}, ctx)


def test_a_third_garrison_at_peace_with_both_is_left_alone_and_peace_means_no_fight():
    ctx = rules_context(Dice(b"13.5.4", {"hostile-garrisons/lyon/FR/1": 1, "hostile-garrisons/lyon/AU/1": 6}, strict=True))
    s = _state(ctx, [{"nation": "FR", "city": "lyon", "infantry": 4}, {"nation": "AU", "city": "lyon", "infantry": 1},
                     {"nation": "PR", "city": "lyon", "infantry": 2}], [["FR", "AU"]])
    after, lines = hostile_garrisons.resolve(s, ctx, "1805-04/diplomacy/orders/all")
    # FR 4+1 = 5 against AU 1+6 = 7: Austria wins, takes Lyon and France's 4 factors; Prussia is at war with no one.
    assert "garrison:FR:city:lyon" not in after.units and after.prisoners["AU:FR"].factors.total == 4
    assert after.units["garrison:PR:city:lyon"].factors.total == 2
    assert after.city_control["lyon"].nation == "AU"
    (line,) = lines
    assert line.kind == "diplomacy.hostile-garrisons" and "13.5.4" in line.text and line in after.log
    # Without a war, nothing happens and no die is drawn (the dice are strict: an unforced roll would fail).
    strict = rules_context(Dice(b"calm", {}, strict=True))
    calm = _state(strict, [{"nation": "FR", "city": "lyon", "infantry": 4}, {"nation": "AU", "city": "lyon", "infantry": 1}], [])
    assert hostile_garrisons.resolve(calm, strict, "k") == (calm, [])
