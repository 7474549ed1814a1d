"""Typed file bodies (issue 15 item 2): a validly signed body of a wrong form is refused in one sentence, changing nothing.

Each hostile body of issue 20 is sealed again with the real member's key (a patched client), so the envelope,
the chain and the signature all pass and only the body's form is wrong.
"""

from dataclasses import replace

import pytest

from eiapbem.client import newgame, setups
from eiapbem.client.session import TEST_SCRYPT_ENV, Session, WrongVersion, file_slot, step_for
from eiapbem.core.errors import BadEncoding
from eiapbem.host import admin as hadmin
from eiapbem.pbem import bodies, crypto, dice as pdice, envelope, files, folders, keys
from eiapbem.pbem.chain import Battle
from eiapbem.rules import turn
from eiapbem.rules.model import POWERS
from clikit import files_in

GAME = "Ulm"


pytestmark = pytest.mark.usefixtures("fast_keys")  # small key files (tests/conftest.py)


def _new(home, client=("FR",)):
    players = [newgame.Player(p, f"Player {p}", f"{p.lower()}@example.org",
                              "client" if p in client else ("host" if p == "RU" else "hotseat")) for p in POWERS]
    return newgame.new_game(home, GAME, "classic-1805", players, bids={},
                            options=newgame.options_from_flags(["allow-pbem-host-functions"]),
                            passwords={p: f"pw-{p}" for p in POWERS if p not in client}, host_password="pw-host")


def _ident(home, role, password):
    return keys.open_identity((home / folders.identity_name(GAME, role)).read_bytes(), password)


def _saves(home):
    return files_in(home / "save")


def _one_sentence(err):
    text = str(err)
    assert text and "\n" not in text and text.count(". ") == 0 and "Traceback" not in text, text


@pytest.fixture(scope="module")
def table(tmp_path_factory):
    """The host's folder (Russia's real setup file written) and France's folder, joined, nothing loaded yet."""
    import os

    os.environ[TEST_SCRYPT_ENV] = "10,1,1"
    root = tmp_path_factory.mktemp("bodies")
    host, client = root / "host", root / "fr"
    created = _new(host)
    out = host / "commout"
    newgame.join(client, out / f"{GAME}_gamestart.pbm", "FR", created.one_time["FR"], "pw-FR", "fr@example.org",
                 out / f"{GAME}_FR.key")
    ru = Session.open(host, None, "RU", "pw-RU")
    before = (ru.contents.chain, ru.state)
    setups.load_setup(ru, "default")
    real = ru.end_phase()
    fr = Session.open(client, None, "FR", "pw-FR")
    body = files.load_file(fr.contents.chain, real.read_bytes(), [fr.me], step_for(fr.state), real.name).body
    return {"host": host, "client": client, "before": before, "real": real, "body": body}


def _forge_turn(table, body, *, reloads=0):
    chain, state = table["before"]
    sealed, _ = files.write_turn(chain, _ident(table["host"], "RU", "pw-RU"), step_for(state), file_slot(state, "RU"),
                                 body, reloads=reloads)
    path = table["client"] / "commin" / table["real"].name
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(sealed.data)
    return path


def _refused(home, role, password, path, match):
    saved = _saves(home)
    with pytest.raises(BadEncoding, match=match) as err:
        Session.open(home, None, role, password).load_path(path)
    _one_sentence(err.value)
    assert _saves(home) == saved
    return err.value


@pytest.mark.parametrize("actions", [7, True, None, "place", {"kind": "x"}])
def test_a_turn_whose_actions_are_not_a_list_is_refused(table, actions):
    path = _forge_turn(table, dict(table["body"], actions=actions))
    _refused(table["client"], "FR", "pw-FR", path, r"does not hold a turn in the expected form \(actions: ")


def test_a_turn_whose_reloads_differ_from_the_signed_header_is_refused(table):
    path = _forge_turn(table, dict(table["body"], reloads=2), reloads=0)
    _refused(table["client"], "FR", "pw-FR", path, "counts 2 reload\\(s\\) inside but 0 in its signed header")


@pytest.mark.parametrize("change", [{"dice": [1, 2]}, {"after": 5}, {"after": b"short"}, {"parts": []},
                                    {"events": {"a": 1}}, {"battles": {"b": [[b"x"]]}}, {"reloads": -1}])
def test_a_turn_with_any_other_field_of_a_wrong_type_is_refused(table, change):
    path = _forge_turn(table, dict(table["body"], **change))
    _refused(table["client"], "FR", "pw-FR", path, "does not hold a turn in the expected form")


def test_a_turn_with_a_missing_or_unknown_key_is_refused(table):
    body = dict(table["body"])
    del body["dice"]
    _refused(table["client"], "FR", "pw-FR", _forge_turn(table, body), "missing key 'dice'")
    _refused(table["client"], "FR", "pw-FR", _forge_turn(table, dict(table["body"], state=b"")), "unknown key 'state'")


def test_old_format_files_and_saves_are_refused_naming_the_format(table):
    old = {k: v for k, v in table["body"].items() if k not in ("events", "parts", "at")}
    old["state"] = b"\x80"
    _refused(table["client"], "FR", "pw-FR", _forge_turn(table, old), "is a file of body format 1 .*reads format 2")
    with pytest.raises(BadEncoding, match="is a save of format 1"):
        bodies.decode(bodies.SaveBody, {"state": b"", "meta": {}, "taken": {}, "orders": {}, "outbox": {}}, "x.sav", "a game")


def test_the_real_file_still_loads_after_the_refusals(table):
    path = table["client"] / "commin" / table["real"].name
    path.write_bytes(table["real"].read_bytes())
    fr = Session.open(table["client"], None, "FR", "pw-FR")
    assert fr.load_path(path) == "1805-01/setup/turn/RU"
    assert any(e.kind == "setup.place" for e in fr.journal())  # the slot's log lines, from the replay


# ---------------------------------------------------------------- admin files


@pytest.fixture(scope="module")
def admin_table(tmp_path_factory):
    import os

    os.environ[TEST_SCRYPT_ENV] = "10,1,1"
    root = tmp_path_factory.mktemp("admin-bodies")
    host, client = root / "host", root / "fr"
    created = _new(host)
    out = host / "commout"
    newgame.join(client, out / f"{GAME}_gamestart.pbm", "FR", created.one_time["FR"], "pw-FR", "fr@example.org",
                 out / f"{GAME}_FR.key")
    h = Session.open(host, None, "host", "pw-host")
    chain = h.contents.chain
    real = hadmin.skip(h)
    fr = Session.open(client, None, "FR", "pw-FR")
    body = files.load_file(fr.contents.chain, real.read_bytes(), [fr.me], step_for(fr.state), real.name).body
    return {"host": host, "client": client, "chain": chain, "real": real, "body": body}


def _forge_admin(t, body):
    sealed, _ = files.write_admin(t["chain"], _ident(t["host"], "host", "pw-host"), body)
    path = t["client"] / "commin" / t["real"].name
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(sealed.data)
    return path


@pytest.mark.parametrize("acts", [3, None, "skip", {"kind": "host.skip"}])
def test_an_admin_file_whose_acts_are_not_a_list_is_refused(admin_table, acts):
    path = _forge_admin(admin_table, dict(admin_table["body"], acts=acts))
    _refused(admin_table["client"], "FR", "pw-FR", path, r"does not hold admin acts in the expected form \(acts: ")


@pytest.mark.parametrize("players", [[1, 2], "everyone", None, 7])
def test_an_admin_file_whose_players_are_not_a_map_is_refused(admin_table, players):
    meta = dict(admin_table["body"]["meta"], players=players)
    path = _forge_admin(admin_table, dict(admin_table["body"], meta=meta))
    _refused(admin_table["client"], "FR", "pw-FR", path, r"\(meta.players: ")


@pytest.mark.parametrize("row", [["Player AU", "au@example.org"], {"name": ["x"], "email": "a@b", "type": "client"},
                                 {"name": "A", "email": {"x": 1}, "type": "client"}, {"name": "A", "email": "a@b", "type": "god"}])
def test_an_admin_file_whose_players_hold_lists_or_maps_is_refused(admin_table, row):
    players = dict(admin_table["body"]["meta"]["players"], AU=row)
    meta = dict(admin_table["body"]["meta"], players=players)
    path = _forge_admin(admin_table, dict(admin_table["body"], meta=meta))
    _refused(admin_table["client"], "FR", "pw-FR", path, r"\(meta.players.AU")


@pytest.mark.parametrize("host", [5, "the host", None, ["a", "b"], {"name": 1, "email": "h@x"}, {"name": "H"}])
def test_an_admin_file_whose_host_has_any_other_form_is_refused(admin_table, host):
    meta = dict(admin_table["body"]["meta"], host=host)
    path = _forge_admin(admin_table, dict(admin_table["body"], meta=meta))
    _refused(admin_table["client"], "FR", "pw-FR", path, r"\(meta.host")


def test_the_real_admin_file_still_loads(admin_table):
    path = admin_table["client"] / "commin" / admin_table["real"].name
    path.write_bytes(admin_table["real"].read_bytes())
    fr = Session.open(admin_table["client"], None, "FR", "pw-FR")
    fr.load_path(path)
    assert fr.meta.host.to_obj() == {"name": "Player RU", "email": "ru@example.org"}
    assert any("skipped RU's turn" in e.text for e in fr.journal())


# ---------------------------------------------------------------- battle files


@pytest.fixture(scope="module")
def battle_table(tmp_path_factory):
    """France attacks two Austrian corps at Ulm; its first battle question is out to Austria (not loaded)."""
    import os

    from test_battle_files import Table, fight

    os.environ[TEST_SCRYPT_ENV] = "10,1,1"
    t = Table(tmp_path_factory.mktemp("battle-bodies"))
    fight(t, stop_after=1)
    return t


def _question(t, body_change):
    """France's first battle question re-sealed by France's real key with a changed body, in Austria's battles/."""
    from test_battle_files import BID, NAME

    fr = t.open("FR")
    q = (t.home("FR") / "battles" / NAME).read_bytes()
    env = envelope.parse(q)
    body = crypto.open_body(env, crypto.unwrap_key(env, "FR", fr.me.decrypter))
    assert body["battle"] == BID
    body = dict(body, **body_change)
    record = Battle.begin(fr.contents.chain, "Ulm", "FR", "AU")
    sealed, _ = files.write_battle(fr.contents.chain, record, fr.me, env.header.slot, body,
                                   commit=pdice.commitment(bytes(32)), nonce=None)
    path = t.home("AU") / "battles" / NAME
    path.parent.mkdir(exist_ok=True)
    path.write_bytes(sealed.data)
    return path


@pytest.mark.parametrize("change", [{"questions": [["q"]]}, {"questions": [{"id": "q"}]}, {"questions": "q"},
                                    {"ask": "0"}, {"ask": None}, {"ask": [0]}, {"ask": True}, {"ask": -1}])
def test_a_battle_question_of_a_wrong_form_is_refused(battle_table, change):
    t = battle_table
    path = _question(t, change)
    saved = t.saves("AU")
    with pytest.raises(BadEncoding, match="does not hold a battle step in the expected form") as err:
        t.open("AU").load_path(path)
    _one_sentence(err.value)
    assert t.saves("AU") == saved


def test_the_real_battle_question_still_loads(battle_table):
    t = battle_table
    assert "asks AU" in t.open("AU").load_path(t.send("FR", "AU"))


def test_battle_bodies_are_typed_records():
    good = {"battle": "battle:1805-09:ulm:0", "answers": [{"kind": "answer", "decision": "d", "choice": "c"}]}
    assert isinstance(bodies.battle_body(good, "f", bodies.BattleReply), bodies.BattleReply)
    with pytest.raises(BadEncoding, match="battle step"):
        bodies.battle_body(good, "f", bodies.BattleQuestion)  # a reply where a question is due
    for bad in (None, [], {"battle": 1, "answers": []}, {"battle": "b", "answers": 5}, {1: 2}):
        with pytest.raises(BadEncoding):
            bodies.battle_body(bad, "f", bodies.BattleReply, bodies.BattleQuestion, bodies.BattleClose)


# ---------------------------------------------------------------- rules versions


def test_a_save_of_a_newer_release_is_refused_in_one_sentence_naming_what_to_install(tmp_path, monkeypatch):
    import eiapbem

    _new(tmp_path, client=())
    Session.open(tmp_path, None, "RU", "pw-RU")
    v = turn.RULES_VERSION
    monkeypatch.setattr(turn, "RULES_VERSION", v - 1)  # this program is older than the game
    with pytest.raises(WrongVersion, match=f"plays rules {v}, .* \\(eiapbem {eiapbem.__version__}\\), which this "
                                           f"eiapbem .* \\(rules {v - 1}, .*\\) does not play") as err:
        Session.open(tmp_path, None, "RU", "pw-RU")
    _one_sentence(err.value)
    assert f"install eiapbem {eiapbem.__version__}" in err.value.hint


def test_a_save_of_an_older_release_opens_but_plays_only_after_the_hosts_upgrade(tmp_path, monkeypatch):
    _new(tmp_path, client=())
    v = turn.RULES_VERSION
    monkeypatch.setattr(turn, "RULES_VERSION", v + 1)  # this program is newer than the game
    s = Session.open(tmp_path, None, "RU", "pw-RU")
    with pytest.raises(WrongVersion, match=f"still plays rules {v}, .*this eiapbem .* plays rules {v + 1}") as err:
        s.end_phase()
    _one_sentence(err.value)
    assert "'eiapbem admin upgrade'" in err.value.hint  # the host's folder: the host moves the game on


def test_a_gamestart_of_another_computer_version_is_refused_at_join(tmp_path, monkeypatch):
    from eiapbem import ai

    host, client = tmp_path / "host", tmp_path / "fr"
    created = _new(host)
    v = ai.VERSIONS["ai-hard"]
    monkeypatch.setitem(ai.VERSIONS, "ai-hard", v + 1)
    out = host / "commout"
    with pytest.raises(WrongVersion, match=f"computer level ai-hard version {v}, but this eiapbem plays version {v + 1}"):
        newgame.join(client, out / f"{GAME}_gamestart.pbm", "FR", created.one_time["FR"], "pw-FR", "fr@example.org",
                     out / f"{GAME}_FR.key")
    assert not (client / "save").exists() or not any((client / "save").iterdir())


def test_the_versions_are_in_the_gamestart(tmp_path):
    from eiapbem import ai

    _new(tmp_path, client=())
    s = Session.open(tmp_path, None, "RU", "pw-RU")
    assert dict(s.meta.versions) == turn.versions(ai) == {"rules": turn.RULES_VERSION, **ai.VERSIONS}


def test_a_save_of_an_old_state_format_is_refused_naming_it(tmp_path):
    _new(tmp_path, client=())
    s = Session.open(tmp_path, None, "RU", "pw-RU")
    obj = s.state.to_obj()
    obj["format"] = 1
    obj["log"] = []
    from eiapbem.core import canonical

    s.contents = replace(s.contents, game=dict(s.data.to_obj(), state=canonical.encode(obj)))
    from eiapbem.pbem import savegame

    savegame.store(s.folders, s.game, s.contents, s.me, also=s.local)
    from eiapbem.rules.model import STATE_FORMAT

    with pytest.raises(BadEncoding, match=f"state format 1 is not {STATE_FORMAT}, the one this eiapbem reads"):
        Session.open(tmp_path, None, "RU", "pw-RU")


def test_gamestart_and_setup_bodies_are_typed_records():
    row = {"name": "A", "email": "a@example.org", "type": "client"}
    meta = {"versions": {"rules": 1}, "scenario": "classic-1805", "host": {"name": "H", "email": "h@example.org"},
            "players": {p: row for p in POWERS}}
    good = {"meta": meta, "options": {}, "bids": {"FR": 3}, "state_hash": bytes(32), "wars": [["FR", "GB"]]}
    assert bodies.decode(bodies.GamestartBody, good, "g", "a gamestart").wars == (("FR", "GB"),)
    for bad in (dict(good, wars=[["FR"]]), dict(good, bids={"FR": "3"}), dict(good, meta=dict(meta, players={})),
                dict(good, meta=dict(meta, host=[1])), dict(good, state_hash=b"x"), [good]):
        with pytest.raises(BadEncoding, match="does not hold a gamestart in the expected form"):
            bodies.decode(bodies.GamestartBody, bad, "g", "a gamestart")
    assert bodies.decode(bodies.SetupBody, {"scenario": "s", "power": "FR", "actions": []}, "f", "a setup").power == "FR"
    with pytest.raises(BadEncoding, match=r"\(power: "):
        bodies.decode(bodies.SetupBody, {"scenario": "s", "power": "XX", "actions": []}, "f", "a setup")
