"""13.8.2: captured leaders go home at peace — the diplomacy peace step calls rules/captured.py."""

from eiapbem.core.dice import Dice
from eiapbem.data import world
from eiapbem.data.context import rules_context
from eiapbem.rules.diplomacy import peace
from eiapbem.rules.diplomacy.common import Result
from eiapbem.rules.model import LeaderStatus
from eiapbem.rules.scenario import initial_state

START = initial_state(world.load_scenario("classic-1805"), world.load_raw())


def _at_war_with_a_captive(state):
    lid = next(k for k, lead in sorted(state.leaders.items()) if lead.power == "AU")
    lead = state.leaders[lid]
    state = state.with_leader(lead.replace(status=LeaderStatus.CAPTURED, captured_by="FR", attached_to=None))
    state = state.with_war("FR", "AU", state.date, ("FR",))
    return state, lid


def test_informal_peace_returns_captured_leaders():
    state, lid = _at_war_with_a_captive(START)
    r = Result(state=state, ctx=rules_context(Dice(bytes(32))), slot="1805-01/diplomacy/turn/all")
    peace.informal(r, "FR", "AU")
    lead = r.state.leaders[lid]
    assert lead.status is LeaderStatus.INACTIVE and lead.captured_by is None
    assert lead.returns == state.date.next()
    assert any(e.kind == "diplomacy.leader-returned" and lid in e.text for e in r.events)


def test_peace_between_others_keeps_the_captive():
    state, lid = _at_war_with_a_captive(START)
    state = state.with_war("FR", "RU", state.date, ("FR",))
    r = Result(state=state, ctx=rules_context(Dice(bytes(32))), slot="1805-01/diplomacy/turn/all")
    peace.informal(r, "FR", "RU")
    assert r.state.leaders[lid].status is LeaderStatus.CAPTURED
