"""The computer choosing a folder's diplomacy orders sends each reaction once a month, as a player's folder does.

The reactions (DIPLOMATIC REACTIONS SCREEN, 6.3, 6.4, 6.5) are cleared from the shared state once a month is
resolved, so the folder seals its kept copy again with every month's orders (``client/orders.py``): that part
must travel each month.  A player gives only what changes.  The computer choosing for a folder (``eiapbem
campaign``) chooses from the cleared state, so from the second month every reaction goes twice (the kept copy,
and the computer's same orders again).  From ``orders.as_kept`` (the state with the folder's kept reactions) it
gives only the changes; `eiapbem campaign` chooses from it (`client/campaign.py`).
"""

from __future__ import annotations

from collections import Counter

import pytest

from eiapbem.client import duel
from eiapbem.client import orders as sealed_orders
from eiapbem.core.dice import Dice
from eiapbem.data import world
from eiapbem.data.context import rules_context
from eiapbem.rules import engine
from eiapbem.rules.diplomacy.orders import REACTIONS, CallAllies, reactions_after
from eiapbem.rules.model import POWERS, Phase, PlayerKind, Slot
from eiapbem.rules.model.slot import COMMIT
from eiapbem.rules.scenario import initial_state
from model_strategies import sample_meta as _meta


@pytest.fixture(scope="module")
def commit():
    st = initial_state(world.load_scenario("classic-1805"), world.load_raw())
    st = st.with_alliance("AU", "RU", st.date).with_alliance("GB", "RU", st.date)
    return st.replace(slot=Slot(Phase.DIPLOMACY, COMMIT, None, POWERS))


def _sealed(meta, state, power, acts):
    """What the folder seals this month: the actions inside its commitment, and the meta it keeps."""
    _, meta = sealed_orders.file_actions(meta, state, power, acts, rules_context(Dice(b"reactions")))
    return [engine.action_from_obj(o, "t") for o in meta.sealed[power].actions], meta


def _key(a):
    """What one reaction order sets: its kind and the enemy, partner or minor it is about."""
    return type(a).__name__, next(getattr(a, f) for f in ("enemy", "aggressor", "partner", "minor") if hasattr(a, f))


@pytest.mark.parametrize("power", ["RU", "AU", "GB"])
def test_the_second_month_seals_each_reaction_once_with_the_same_result(commit, power):
    ctx = rules_context(Dice(b"computer"))
    lent = commit.with_power(power, controller=PlayerKind.AI_HARD)
    first, meta = _sealed(_meta(), commit, power, list(duel.to_commit(lent, power, ctx)))
    assert any(isinstance(a, CallAllies) for a in first)  # allied powers do set reactions
    kept = _meta(reactions=meta.reactions)
    # Month two (the shared state cleared of reactions again): the computer as it chose before ...
    old, _ = _sealed(kept, commit, power, list(duel.to_commit(lent, power, ctx)))
    assert max(Counter(_key(a) for a in old if isinstance(a, REACTIONS)).values()) == 2  # every reaction twice
    # ... and from the folder's kept reactions, as a player sees them.
    view = sealed_orders.as_kept(kept, commit, power)
    assert reactions_after(commit, power, first) == view.powers[power].standing_orders
    new, _ = _sealed(kept, commit, power, list(duel.to_commit(view.with_power(power, controller=PlayerKind.AI_HARD),
                                                               power, ctx)))
    reactions = [a for a in new if isinstance(a, REACTIONS)]
    assert reactions and max(Counter(_key(a) for a in reactions).values()) == 1
    assert len(new) < len(old)
    # The same orders in effect: the same reactions and the same other orders.
    assert reactions_after(commit, power, new) == reactions_after(commit, power, old)
    assert [a for a in new if not isinstance(a, REACTIONS)] == [a for a in old if not isinstance(a, REACTIONS)]


def test_outside_diplomacy_or_without_a_kept_copy_the_state_is_left_alone(commit):
    kept = _meta(reactions={"RU": [engine.action_to_obj(CallAllies("FR", ("AU",)))]})
    assert sealed_orders.as_kept(_meta(), commit, "RU") is commit
    assert sealed_orders.as_kept(kept, commit, "AU") is commit
    land = commit.replace(slot=Slot(Phase.LAND, "turn", "RU", ("RU",)))
    assert sealed_orders.as_kept(kept, land, "RU") is land
    assert sealed_orders.as_kept(kept, commit, "RU").powers["RU"].standing_orders.call_allies["FR"] == ("AU",)
