"""6.16 requests to a computer ally for land and military action: the refusals the rules cases do not show."""

import pytest

from eiapbem.core.dice import Dice
from eiapbem.core.errors import IllegalAction
from eiapbem.rulecases.procedures.diplomacy import context, diplomacy_state
from eiapbem.rules import engine
from eiapbem.rules.diplomacy import minor_orders
from eiapbem.rules.diplomacy.minor_orders import RequestAction, RequestLand

C = context(Dice(b"requests"))


def verify(state, power, action, ctx, mine):
    """The order's own check, with ``mine`` already on the power's order sheet."""
    for o in mine:
        state = engine.record_order(state, power, o)
    {unit[0]: unit[1] for unit in minor_orders.ACTIONS}[type(action)](state, power, action, ctx)
S = diplomacy_state({"alliances": [["FR", "SP"]], "controller": {"FR": "ai-easy"}}, C)


def _refused(state, action, mine=()):
    with pytest.raises(IllegalAction) as err:
        verify(state, "SP", action, C, list(mine))
    return str(err.value)


def test_one_military_request_per_ally_in_a_month():
    first = RequestAction(ally="FR", area="munich", action="attack")
    verify(S, "SP", first, C, [])
    assert _refused(S, RequestAction(ally="FR", area="vienna", action="defend"), [first]) == (
        "Spain already asks France for a military action in these orders (one per ally, 6.16)")


def test_one_land_request_per_ally_and_none_for_land_already_granted():
    first = RequestLand(ally="FR", territory="hanover")
    verify(S, "SP", first, C, [])
    assert _refused(S, RequestLand(ally="FR", territory="hanover"), [first]) == (
        "Spain already asks France for land in these orders (one per ally, 6.16)")
    granted = S.with_power("FR", land_grants=S.powers["FR"].land_grants.set("hanover", "SP"))
    assert _refused(granted, first) == "France already gives hanover at the next economic phase (6.16)"


def test_land_and_action_go_to_computer_allies_only():
    human = S.with_power("FR", controller=S.powers["SP"].controller)
    assert _refused(human, RequestLand(ally="FR", territory="hanover")).endswith("(12.7) (6.16)")
    assert "played by a human" in _refused(human, RequestAction(ally="FR", area="munich"))
    assert "is not an ally of Spain" in _refused(S, RequestLand(ally="AU", territory="hanover"))
