"""Sealed diplomacy orders between two folders (issue 16 item 3; docs/decisions.md "Diplomacy (issue 16)").

Russia plays from the host's folder and Turkey by email from another; the
other five powers are the computer's.  Russia declares war on Turkey in the
commit round: Turkey's folder, reading every file it holds with the game's
keys (a patched client), finds no trace of it before Turkey has sent its own
commitment.  The reveals then carry the orders; a reveal that differs from
its commitment is refused in one sentence and changes nothing.

Russia's diplomatic reactions, set in an earlier month and kept in its own
save (``client/orders.py``), are in no byte Turkey holds before its own
commitment either (neither in the shared state nor in Russia's commitment);
they come out with Russia's reveal, and the resolved state holds them no more.
"""

from __future__ import annotations

import shutil
from dataclasses import replace

import pytest

from eiapbem.client import newgame, setups
from eiapbem.client.session import Session, file_slot, step_for
from eiapbem.client.turns import state_parts, where_is
from eiapbem.core import canonical
from eiapbem.core.errors import BadFile, IllegalAction
from eiapbem.pbem import bodies, files
from eiapbem.rules import engine
from eiapbem.rules.diplomacy import sealing
from eiapbem.rules.diplomacy.orders import AnswerCalls, DeclareWar, SetTrade
from eiapbem.rules.model import Phase
from clikit import files_in

GAME = "Tilsit"
TYPES = {"RU": "host", "TU": "client", "AU": "ai-easy", "PR": "ai-medium", "SP": "ai-hard", "FR": "ai-hard", "GB": "ai-medium"}


pytestmark = pytest.mark.usefixtures("fast_keys")  # small key files (tests/conftest.py)


def _send(src, dst, path):
    (dst / "commin").mkdir(parents=True, exist_ok=True)
    shutil.copy(path, dst / "commin" / path.name)
    return dst / "commin" / path.name


def _ru(home):
    return Session.open(home, GAME, "RU", "pw-RU")


def _tu(home):
    return Session.open(home, GAME, "TU", "pw-TU")


@pytest.fixture
def game(tmp_path):
    host, client = tmp_path / "host", tmp_path / "tu"
    players = [newgame.Player(p, f"Player {p}", f"{p.lower()}@example.org", t) for p, t in TYPES.items()]
    created = newgame.new_game(host, GAME, "classic-1805", players, bids={}, options=newgame.options_from_flags([]),
                               passwords={"RU": "pw-RU"}, host_password="pw-host")
    gs = host / "commout" / f"{GAME}_gamestart.pbm"
    newgame.join(client, gs, "TU", created.one_time["TU"], "pw-TU", "tu@example.org", host / "commout" / f"{GAME}_TU.key")
    ru = _ru(host)
    setups.load_setup(ru, "default")
    _tu(client).load_path(_send(host, client, ru.end_phase()))
    tu = _tu(client)
    setups.load_setup(tu, "default")
    _ru(host).load_path(_send(client, host, tu.end_phase()))
    assert _ru(host).state.slot.key(_ru(host).state.date) == "1805-01/diplomacy/commit/all"
    return host, client


def _everything_tu_holds(client) -> bytes:
    """What a patched Turkish client can read: its decrypted save and every file body it can open."""
    tu = _tu(client)
    out = canonical.encode(tu.data.to_obj())
    for f in sorted((client / "commin").glob("*.pbm")):
        if f.name.endswith("_gamestart.pbm"):
            continue
        try:
            body = files.load_file(tu.contents.chain, f.read_bytes(), [tu.me], step_for(tu.state), f.name).body
        except Exception:  # already loaded: the chain refuses it again; its body is in the save's state
            continue
        out += canonical.encode(body)
    return out


@pytest.mark.slow
def test_a_patched_client_learns_nothing_before_its_commitment_and_reveals_must_match(game):
    host, client = game
    ru = _ru(host)
    # Russia's reactions as its folder keeps them from an earlier month (set with 'eiapbem diplomacy answer-calls').
    ru.data = replace(ru.data, meta=ru.meta.replace(reactions={"RU": [engine.action_to_obj(AnswerCalls("FR", ("PR",)))]}))
    ru.save()
    ru = _ru(host)
    ru.act(DeclareWar("TU"))
    ru_commit = ru.end_phase()
    assert ru_commit.name == f"{GAME}_1805-01_diplomacy_commit_RU.pbm"
    assert [o["kind"] for o in _ru(host).meta.sealed["RU"].actions][:1] == ["diplomacy.answer-calls"]
    tu = _tu(client)
    tu.load_path(_send(host, client, ru_commit))
    # The patched client: Russia's declaration and reactions are in no byte it can read, only a 32-byte digest.
    held = _everything_tu_holds(client)
    assert b"declare-war" not in held and b"diplomacy.declare" not in held
    assert b"answer-calls" not in held and _tu(client).state.powers["RU"].standing_orders.answer_calls.get("FR") is None
    assert b"diplomacy.commit" in held
    tu = _tu(client)
    assert set(tu.state.order_sheet.commitments) == set()  # not resolved until Turkey commits too
    tu.act(SetTrade("GB"))
    tu_commit = tu.end_phase()
    _ru(host).load_path(_send(client, host, tu_commit))
    for s in (_ru(host), _tu(client)):
        assert s.state.slot.key(s.state.date) == "1805-01/diplomacy/orders/all"
        assert set(s.state.order_sheet.commitments) == {"RU", "TU"}
    assert _ru(host).state.state_hash() == _tu(client).state.state_hash()
    # Orders are sealed: a new order in the reveal round is refused when given (6.0), and changes nothing.
    tu = _tu(client)
    before = tu.state.state_hash()
    with pytest.raises(IllegalAction, match="sealed in the commit round; the reveal round takes no new orders"):
        tu.act(SetTrade("GB"))
    assert _tu(client).state.state_hash() == before and not _tu(client).taken()
    # A patched Russia changes its sealed orders after committing: Turkey refuses the reveal.
    backup = host.parent / "host-backup"
    shutil.copytree(host, backup)
    ru = _ru(host)
    sealed = ru.meta.sealed.set("RU", ru.meta.sealed["RU"].replace(actions=[engine.action_to_obj(SetTrade("GB"))]))
    ru.data = replace(ru.data, meta=ru.meta.replace(sealed=sealed))
    ru.save()
    with pytest.raises(IllegalAction, match="do not match its commitment"):
        _ru(host).end_phase()  # its own folder checks the reveal against the state's commitment too
    forged_ru = Session.open(host, GAME, "RU", "pw-RU")

    # Write the forged reveal by hand as a patched client would (same file machinery, the wrong orders).
    acts = [sealing.RevealOrders(sealed["RU"].nonce), SetTrade("GB")]
    st = forged_ru.state
    d = forged_ru.slot_dice()
    body = bodies.TurnBody(slot=st.slot.key(st.date), power="RU", actions=tuple(engine.action_to_obj(a) for a in acts),
                           dice=d.to_obj(), before=st.state_hash(), after=st.state_hash(), at=where_is(st), reloads=0,
                           events=(), parts=state_parts(st), battles={}, exchanges=()).to_obj()
    sealed_file, _ = files.write_turn(forged_ru.contents.chain, forged_ru.me, step_for(st), file_slot(st, "RU"), body)
    bad = client / "commin" / f"{GAME}_1805-01_diplomacy_orders_RU.pbm"
    bad.write_bytes(sealed_file.data)
    before = files_in(client / "save")
    with pytest.raises(BadFile, match="the diplomacy orders RU reveals do not match the commitment it sent"):
        _tu(client).load_path(bad)
    assert files_in(client / "save") == before
    bad.unlink()
    # The honest Russia (its folder as it was) reveals; both reveals load; the phase resolves the same everywhere.
    shutil.rmtree(host)
    shutil.move(backup, host)
    ru_reveal = _ru(host).end_phase()
    tu_reveal = _tu(client).end_phase()
    _tu(client).load_path(_send(host, client, ru_reveal))
    _ru(host).load_path(_send(client, host, tu_reveal))
    ru, tu = _ru(host), _tu(client)
    assert ru.state.state_hash() == tu.state.state_hash()
    assert ru.state.slot.phase is Phase.REINFORCEMENT
    # The reactions acted at this month's resolution and are in the shared state no more; Russia's folder keeps them.
    assert ru.state.powers["RU"].standing_orders.answer_calls.get("FR") is None
    assert ru.meta.reactions["RU"] == (engine.action_to_obj(AnswerCalls("FR", ("PR",))),)
    assert "RU" not in tu.meta.reactions
    assert "TU" in ru.state.powers["RU"].wars and ru.state.powers["TU"].trade == ("GB",)
    assert ru.state.order_sheet.commitments == {} and not ru.meta.sealed  # spent
    assert any("Russia declares war on Turkey" in e.text for e in ru.journal())
