"""One lookup for the battle, naval combat or siege a pending decision belongs to (issue 30 item 3)."""

from __future__ import annotations

import types

import pytest

from eiapbem.core.errors import IllegalAction
from eiapbem.rules.forces import decision_subject


def _d(**context):
    return types.SimpleNamespace(id="d1", context=context)


def test_the_record_named_while_in_progress_else_one_sentence():
    running, done = types.SimpleNamespace(step="fight"), types.SimpleNamespace(step="done")
    recs = {"b1": running, "b2": done}
    over = lambda r: r.step == "done"  # noqa: E731
    assert decision_subject(recs, _d(battle="b1"), "battle", "naval combat", over) is running
    for ctx in ({"battle": "b2"}, {"battle": "nope"}, {"battle": 3}, {}):
        with pytest.raises(IllegalAction, match="^decision d1 belongs to no naval combat in progress$"):
            decision_subject(recs, _d(**ctx), "battle", "naval combat", over)
