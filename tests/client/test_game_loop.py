"""The game loop on one computer and between two folders: hot-seat, reloads, sync checks, the CLI's words."""

import shutil

import pytest

from eiapbem.client import newgame, setups
from eiapbem.client.session import OUT_OF_SYNC, TEST_SCRYPT_ENV, Session, file_slot, state_parts, step_for
from eiapbem.core.errors import IllegalAction
from eiapbem.pbem import envelope, files, folders, keys
from eiapbem.pbem.errors import OutOfSync
from eiapbem.rules.model import POWERS, Phase
from eiapbem.rules.setup import SetupPlaceCorps
from clikit import files_in

FAST = {TEST_SCRYPT_ENV: "10,1,1"}
GAME = "Ulm"


pytestmark = pytest.mark.usefixtures("fast_keys")  # small key files (tests/conftest.py)


def _players(client=()):
    return [newgame.Player(p, f"Player {p}", f"{p.lower()}@example.org",
                           "client" if p in client else ("host" if p == "RU" else "hotseat")) for p in POWERS]


def _new(home, client=()):
    return newgame.new_game(home, GAME, "classic-1805", _players(client), bids={"FR": 3},
                            options=newgame.options_from_flags(["gb-and-fr-start-at-war"]),
                            passwords={p: f"pw-{p}" for p in POWERS if p not in client}, host_password="pw-host")


def test_hot_seat_powers_each_need_their_own_password(tmp_path):
    # 4.2.1: one folder, several human powers, each protected by its own password (4.1.1, 000:38).
    _new(tmp_path)
    s = Session.open(tmp_path, None, "RU", "pw-RU")
    assert s.state.slot.power == "RU" and s.state.powers["FR"].vp_bid == 3
    assert "GB" in s.state.powers["FR"].wars  # 4.1.1 option chosen at creation (000:42)
    with pytest.raises(Exception, match="password"):
        Session.open(tmp_path, None, "TU", "pw-RU")
    with pytest.raises(IllegalAction, match="not TU's turn: 1805-01/setup/turn/RU belongs to RU"):
        Session.open(tmp_path, None, "TU", "pw-TU").act(SetupPlaceCorps("corps:TU:Janissary-I", "constantinople"))


def test_the_slot_advances_without_files_travelling_and_reloads_are_counted(tmp_path):
    _new(tmp_path)
    ru = Session.open(tmp_path, None, "RU", "pw-RU")
    ru.act(SetupPlaceCorps("corps:RU:I", "moscow"))
    assert ru.restart() == 1
    setups.load_setup(ru, "default")
    # Stop and resume: the actions are kept in the save.
    ru = Session.open(tmp_path, None, "RU", "pw-RU")
    assert len(ru.data.taken["RU"]) > 10
    path = ru.end_phase()
    header = envelope.parse(path.read_bytes()).header
    assert header.reloads == 1  # 4.2.7 (000:176): the restart is written into the file for all to see
    tu = Session.open(tmp_path, None, "TU", "pw-TU")
    assert tu.state.slot.power == "TU" and tu.state.state_hash() == ru.state.state_hash()


@pytest.mark.slow
def test_an_unimplemented_phase_accepts_only_end_phase(tmp_path):
    _new(tmp_path)
    for p in ("RU", "TU", "AU", "PR", "SP", "FR", "GB"):
        s = Session.open(tmp_path, None, p, f"pw-{p}")
        setups.load_setup(s, "default")
        s.end_phase()
    s = Session.open(tmp_path, None, "AU", "pw-AU")
    assert s.state.slot.phase is Phase.DIPLOMACY
    with pytest.raises(IllegalAction, match="setup.place-corps is an action of the setup phase, not of the diplomacy phase"):
        s.act(SetupPlaceCorps("corps:AU:I", "vienna"))
    path = s.end_phase()
    assert path.name == "Ulm_1805-01_diplomacy_commit_AU.pbm"  # the sealed diplomacy phase's first round
    with pytest.raises(IllegalAction, match="already sent its orders"):
        s.end_phase()


def test_a_file_that_replays_to_another_state_is_out_of_sync_and_changes_nothing(tmp_path):
    host, client = tmp_path / "host", tmp_path / "fr"
    created = _new(host, client=("FR",))
    gs = host / "commout" / f"{GAME}_gamestart.pbm"
    fr = newgame.join(client, gs, "FR", created.one_time["FR"], "pw-FR", "fr@example.org", host / "commout" / f"{GAME}_FR.key")
    ru = Session.open(host, None, "RU", "pw-RU")
    setups.load_setup(ru, "default")
    chain_before, state_before = ru.contents.chain, ru.state
    real = ru.end_phase()
    body = files.load_file(fr.contents.chain, real.read_bytes(), [fr.me], step_for(fr.state), real.name).body
    # The same actions and dice, but a claimed state where Russia has one dollar more.
    # (The file carries no state, only its hash and the digest of each part: issue 14 item 5.)
    assert "state" not in body and ru.state.state_hash() == body["after"]
    claimed = ru.state.with_power("RU", treasury=ru.state.powers["RU"].treasury + 1)
    forged = dict(body, parts=state_parts(claimed), after=claimed.state_hash())
    ident = keys.open_identity((host / folders.identity_name(GAME, "RU")).read_bytes(), "pw-RU")
    sealed, _ = files.write_turn(chain_before, ident, step_for(state_before), file_slot(state_before, "RU"), forged)
    (client / "commin").mkdir(exist_ok=True)
    bad = client / "commin" / real.name
    bad.write_bytes(sealed.data)
    saved = files_in(client / "save")
    with pytest.raises(OutOfSync) as err:
        Session.open(client, None, "FR", "pw-FR").load_path(bad)
    assert str(err.value).startswith(OUT_OF_SYNC)  # 4.2.8 (000:212)
    assert "1805-01/setup/turn/RU" in str(err.value) and "powers.RU" in str(err.value)
    assert files_in(client / "save") == saved
    # The real file loads.
    shutil.copy(real, bad)
    fr = Session.open(client, None, "FR", "pw-FR")
    assert fr.load_path(bad) == "1805-01/setup/turn/RU"
    assert fr.state.state_hash() == ru.state.state_hash()


def test_cli_help_has_the_manual_words_and_refuses_unknown_player_types(tmp_path, run_cli):
    # 5.2.1 (000:322): "Add Forces To Garrison"; 4.2.2 (000:96) player types (the AI types: tests/ai/test_ai_loop.py).
    code, out, err = run_cli("setup", "add-garrison", "--help")
    assert "(manual: Add Forces To Garrison)" in out and "--infantry" in out
    args = ["new", GAME, "--scenario", "classic-1805", "--host-password", "x"]
    for p in _players():
        kind = "robot" if p.power == "TU" else p.type
        args += ["--player", f"{p.power}:{p.name}:{p.email}:{kind}", "--password", f"{p.power}=pw"]
    code, out, err = run_cli(*args, env=FAST)
    assert code == 1 and "'robot' is not a player type" in err and not (tmp_path / "save").exists()


@pytest.mark.slow
def test_cli_hot_seat_game_reads_like_the_manual(tmp_path, run_cli):
    args = ["new", GAME, "--scenario", "alternate-1805", "--host-password", "pw-host"]
    for p in _players():
        args += ["--player", f"{p.power}:{p.name}:{p.email}:{p.type}", "--password", f"{p.power}=pw-{p.power}"]
    code, out, err = run_cli(*args, env=FAST)
    assert code == 0, err
    assert "Played at this computer: AU, FR, GB, PR, RU, SP, TU" in out
    code, out, err = run_cli("status", "--password", "pw-RU")
    assert code == 1 and "this folder plays AU, FR, GB, PR, RU, SP, TU; say which power acts with --power" in err
    code, out, err = run_cli("status", "--power", "RU", "--password", "pw-RU")
    assert code == 0, err
    assert "Date: January 1805   (state " in out and "Turn: Russia (1805-01/setup/turn/RU)" in out
    assert "To do before end-phase: place the remaining 75 infantry" in out
    code, out, err = run_cli("setup", "place-corps", "--corps", "corps:RU:I", "--area", "vienna", "--power", "RU", "--password", "pw-RU")
    assert code == 1 and err.startswith("eiapbem: error: corps:RU:I cannot be set up in Vienna: it is not in RU's home nation")
    code, out, err = run_cli("setup", "add-garrison", "--help")
    assert "(manual: Add Forces To Garrison)" in out and "--infantry" in out
    code, out, err = run_cli("setup", "load", "default", "--power", "RU", "--password", "pw-RU")
    assert code == 0 and "every factor and ship is placed" in out, err
    code, out, err = run_cli("setup", "save", "Mine", "--power", "RU", "--password", "pw-RU")
    assert code == 0 and "setups/Rualternate-1805_Mine.set" in out  # 14.5 naming (000:2822)
    code, out, err = run_cli("end-phase", "--power", "RU", "--password", "pw-RU")
    assert code == 0 and "turn file commout/Ulm_1805-01_setup_turn_RU.pbm" in out, err
    code, out, err = run_cli("show", "pool", "TU", "--power", "TU", "--password", "pw-TU")
    assert code == 0 and "View Available Counters" in out and "factors to place: 20 infantry, 2 cavalry" in out
    code, out, err = run_cli("show", "area", "moscow", "--power", "TU", "--password", "pw-TU")
    assert code == 0 and "Moscow" in out and "corps:RU:" in out
    code, out, err = run_cli("log", "--power", "TU", "--password", "pw-TU")
    assert "RU has set up its forces" in out


def test_generated_options_never_clash_with_the_common_ones():
    # An action whose fields are named like the common options, with two factor fields.
    from dataclasses import dataclass

    from eiapbem.cli.actions_cmd import _make, _params
    from eiapbem.rules.model import Date, Factors, Location, LocationKind, Record

    @dataclass(frozen=True, slots=True)
    class Lend(Record):
        """Test action."""

        KIND = "test.lend"
        power: str
        give: Factors = Factors()
        take: Factors = Factors()
        at: Location | None = None
        until: Date | None = None

    params, build = _params(Lend)
    opts = [o for p in params for o in p.opts]
    assert "--power-id" in opts and "--power" not in opts and "--infantry" in opts and "--take-infantry" in opts
    values = {p.name: (() if p.multiple else 0 if p.type.name == "integer range" else None) for p in params}
    values.update(f_power="FR", f_give_infantry=2, f_take_cavalry=1, f_at="city:vienna", f_until="1806-03")
    assert _make(Lend, build, values) == Lend("FR", Factors(infantry=2), Factors(cavalry=1),
                                              Location(LocationKind.CITY, "vienna"), Date(1806, 3))


def test_load_takes_the_waiting_files_in_chain_order_not_name_order(tmp_path):
    # 4.2.2 client step 7 (000:116): load every turn file that preceded your turn.
    host, client = tmp_path / "host", tmp_path / "pr"
    created = _new(host, client=("PR",))
    pr = newgame.join(client, host / "commout" / f"{GAME}_gamestart.pbm", "PR", created.one_time["PR"], "pw-PR",
                      "pr@example.org", host / "commout" / f"{GAME}_PR.key")
    (client / "commin").mkdir(exist_ok=True)
    for p in ("RU", "TU", "AU"):  # by name the files sort AU, RU, TU
        s = Session.open(host, None, p, f"pw-{p}")
        setups.load_setup(s, "default")
        path = s.end_phase()
        shutil.copy(path, client / "commin" / path.name)
    rep = pr.load_all()
    assert [slot for _, slot in rep.loaded] == ["1805-01/setup/turn/RU", "1805-01/setup/turn/TU", "1805-01/setup/turn/AU"]
    assert rep.refused == [] and pr.state.slot.power == "PR"
    assert pr.load_all().loaded == []  # nothing new; already loaded files are skipped
    # A saved setup (14.5) loads again after a restart and gives the same placement.
    setups.load_setup(pr, "default")
    placed = pr.current().state_hash()
    saved = setups.save_setup(pr, "Mine")
    assert saved.name == "Prclassic-1805_Mine.set"
    with pytest.raises(IllegalAction, match="already placed forces"):
        setups.load_setup(pr, "default")
    pr.restart()
    setups.load_setup(pr, str(saved))
    assert pr.current().state_hash() == placed


def test_a_turn_file_lost_in_a_crash_is_written_again_from_the_save(tmp_path, monkeypatch):
    # DESIGN 5: a crash never loses a save; the turn file is kept in the save before it goes to commout/.
    from eiapbem.pbem.folders import GameFolders

    _new(tmp_path)
    ru = Session.open(tmp_path, None, "RU", "pw-RU")
    setups.load_setup(ru, "default")
    real_put = GameFolders.put
    lost = []

    def crash(self, folder, name, data):
        if name.endswith(".pbm"):
            lost.append(name)
            raise OSError("power cut")
        return real_put(self, folder, name, data)

    monkeypatch.setattr(GameFolders, "put", crash)
    with pytest.raises(OSError):
        ru.end_phase()
    monkeypatch.setattr(GameFolders, "put", real_put)
    path = tmp_path / "commout" / lost[0]
    assert not path.exists()
    Session.open(tmp_path, None, "TU", "pw-TU")  # opening writes the file the save holds
    assert envelope.parse(path.read_bytes()).header.slot == "1805-01/setup/turn/RU"
    # Once written, the player may clear commout/: it does not come back.
    path.unlink()
    Session.open(tmp_path, None, "TU", "pw-TU")
    assert not path.exists()
