"""A battle answered at once by the defender's standing orders (issue 33 item 3; 4.2.7, 000:168-176).

The set-up is ``tests/test_battle_files.py``'s: France attacks two Austrian corps in Ulm in its land slot (the host
folder), Austria answers from its own folder by battle files, Prussia only sees the turn file.  Austria answers the
first question file with a ``BattlePlan``: the battle then ends in France's folder with no more files, its dice
still the two sides' committed nonces (docs/file-format.md 7.2, 7.4).
"""

from __future__ import annotations

import shutil

import pytest

from eiapbem.core.errors import IllegalAction
from eiapbem.rules import engine, turn
from eiapbem.rules.combat.plans import BattlePlan
from test_battle_files import BID, CLIENTS, CLOSE, NAME, REPLY, Table, _own, fight, fixed_randomness  # noqa: F401

PLAN = BattlePlan(BID, chit=("cordon", "defend"), withdraw_below=150, losses=("corps:AU:II",), no_pursuit=True)


def _carry(t, path):
    """France's turn file to Austria and Prussia; every folder's state hash."""
    for p in CLIENTS:
        (t.home(p) / "commin").mkdir(exist_ok=True)
        shutil.copy(path, t.home(p) / "commin" / path.name)
        rep = t.open(p).load_all()
        assert rep.refused == [] and [n for n, _ in rep.loaded] == [path.name], rep.refused
    return {p: t.open(p).state.state_hash() for p in ("FR",) + CLIENTS}


def test_the_defender_answers_the_whole_battle_in_one_reply_and_it_ends_without_more_files(tmp_path):
    t = Table(tmp_path)
    t.open("FR")  # France's session writes its question (Austria's commander, 13.8.6)
    au = t.open("AU")
    au.load_path(t.send("FR", "AU"))
    au = t.open("AU")
    assert [d.kind for d in _own(au, "AU")] == ["battle.commander"]
    au.act(PLAN)  # the whole battle at once: the reply is written now, its questions answered by the plan
    assert au.last_battle_file is not None and au.last_battle_file.name == REPLY
    fr = t.open("FR")
    fr.load_path(t.send("AU", "FR"))
    fr = t.open("FR")
    st = fr.current()
    assert st.battles[BID].finished and not st.pending  # France's questions too: by its standing orders
    events = [e.text for e in st.battles[BID].events]
    assert any("defender chose cordon" in e for e in events), events
    assert fight(t) == []  # nothing more travels
    f = fr.fights()[BID]
    assert f.closed and len(f.files) == 3  # question, reply, close: one exchange, two rounds of mail
    assert (t.home("FR") / "battles" / CLOSE).is_file()
    hashes = _carry(t, fr.end_phase())
    assert len(set(hashes.values())) == 1, hashes


def test_a_plan_decides_what_the_defender_would_have_answered_round_by_round():
    """The plan's answers are the answers the defender gives when asked: a chit per day (the last one for later
    days), withdraw below a morale, the loss order, no pursuit; the standing orders where it says nothing."""
    from battlekit import corps, ctx, land_state

    from eiapbem.rules.combat import plans, standing
    from eiapbem.rules.combat.field import start_field_battle

    s = land_state()
    s = corps(corps(s, "corps:FR:I", "ulm", infantry=12), "corps:AU:I", "ulm", infantry=8)
    s = corps(s, "corps:AU:II", "ulm", infantry=8)
    c = ctx(b"plan")
    s = start_field_battle(s, "ulm", ["corps:FR:I"], ["corps:AU:I", "corps:AU:II"], c).state
    bid = next(iter(s.battles))
    chit = next(d for d in s.pending.values() if d.power == "AU" and d.kind == "battle.chit")
    plan = BattlePlan(bid, chit=("cordon", "defend"), withdraw_after=2, no_pursuit=True)
    assert plans.answer(s, chit, plan, c) == "cordon"
    assert plans.answer(s, chit.replace(context=chit.context.set("day", 2)), plan, c) == "defend"
    assert plans.answer(s, chit.replace(context=chit.context.set("day", 5)), plan, c) == "defend"
    # Without a chit in the plan, the standing orders answer (11.2.1, 000:1648).
    assert plans.answer(s, chit, BattlePlan(bid), c) == standing.answer(s, chit, c)
    # Two corps of a human defender: the questions travel by files, and the plan answers them (4.2.7, 000:170).
    assert turn.exchange_needed(s, chit) and engine.can_act(s, "AU", plan, c)
    assert not engine.can_act(s, "AU", BattlePlan(bid, chit=("assault",)), c)  # an attacker's chit
    assert engine.can_act(s, "FR", BattlePlan(bid, chit=("assault",)), c)  # the attacker's own, while AU is asked


def test_a_plan_is_refused_where_it_does_not_belong(tmp_path):
    t = Table(tmp_path)
    t.open("FR")
    au = t.open("AU")
    au.load_path(t.send("FR", "AU"))
    au = t.open("AU")
    with pytest.raises(IllegalAction, match="not a chit of the defender"):
        au.act(BattlePlan(BID, chit=("assault",)))
    with pytest.raises(IllegalAction, match="is not in AU's force"):
        au.act(BattlePlan(BID, losses=("corps:FR:I",)))
    with pytest.raises(IllegalAction, match="naval combats"):
        au.act(BattlePlan(BID, evasion="evade-all"))
    assert au.last_battle_file is None  # nothing was sent
    # Once its question file is out, the attacker's standing orders would come after its commitment: refused.
    with pytest.raises(IllegalAction, match="before your last answer of the round"):
        t.open("FR").act(BattlePlan(BID, chit=("assault",)))
