"""The cases of issue 20 item 5: each gives one sentence, no traceback, and blocks nothing afterwards."""

import shutil

import pytest

import auditkit
from auditkit import GAME, home_of, pw
from battlekit import corps, ctx, land_state
from eiapbem.client import setups
from eiapbem.client.session import Session
from eiapbem.core.errors import IllegalAction
from eiapbem.rules import engine
from eiapbem.rules.land.movement import MoveUnit

FAST = {"EIAPBEM_TEST_SCRYPT": auditkit.FAST}


def test_land_move_into_a_sea_area_says_it_is_a_sea_area():
    s = corps(land_state(), "corps:FR:V", "brest", infantry=10)
    with pytest.raises(IllegalAction, match="bay-of-biscay is a sea area; a corps moves only through land areas"):
        engine.apply_action(s, "FR", MoveUnit(unit="corps:FR:V", path="bay-of-biscay"), ctx())


def test_economy_summary_outside_a_game_folder_says_so(run_cli, tmp_path):
    code, out, err = run_cli("economy", "summary", "--power", "GB", home=tmp_path)
    assert code == 0 and "there is no game in" in out and "not a game's" in out


@pytest.fixture
def tu(ru_sent, tmp_path):
    root, ids, path = ru_sent  # tests/client/conftest.py
    home = tmp_path / "TU"
    shutil.copytree(home_of(root, "TU"), home)
    return home, ids, path


def _cli(run_cli, home, *args, **kw):
    return run_cli(*args, "--password", pw("TU"), home=home, env=FAST, **kw)


pytestmark = []


@pytest.mark.slow
def test_commout_a_plain_file(tu, run_cli):
    home, ids, _ = tu
    assert _cli(run_cli, home, "load")[0] == 0
    setups.load_setup(Session.open_with(home, GAME, ids["TU"]), "default")
    shutil.rmtree(home / "commout")
    (home / "commout").write_text("not a folder")
    before = (home / "save" / f"{GAME}.sav").read_bytes()
    code, out, err = _cli(run_cli, home, "end-phase")
    assert code == 1 and "commout is a file, not a folder" in err and "Traceback" not in err, err
    assert (home / "save" / f"{GAME}.sav").read_bytes() == before  # the save does not say the file was sent
    code, out, err = _cli(run_cli, home, "status")
    assert code == 0 and "Turn: Turkey" in out, err
    (home / "commout").unlink()
    code, out, err = _cli(run_cli, home, "end-phase")
    assert code == 0 and "turn file commout/" in out, err


@pytest.mark.slow
def test_a_refused_file_is_moved_aside_with_its_reason(tu, run_cli):
    home, ids, path = tu
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 1
    (home / "commin" / path.name).write_bytes(bytes(data))
    code, out, err = _cli(run_cli, home, "load")
    assert code == 1 and f"refused {path.name}" in err and "Traceback" not in err
    assert not (home / "commin" / path.name).exists()
    reason = (home / "commin" / "refused" / (path.name + ".reason.txt")).read_text()
    assert reason.strip() and "\n" not in reason.strip()
    code, out, err = _cli(run_cli, home, "load")
    assert code == 0 and "no new files" in out  # nothing blocks the next load
    shutil.copy(path, home / "commin" / path.name)
    code, out, err = _cli(run_cli, home, "load")
    assert code == 0 and f"loaded {path.name}" in out


@pytest.mark.slow
def test_a_file_of_another_game_and_commin_a_plain_file_are_said_so(tu, run_cli):
    from pbem_game import Game

    home, ids, path = tu
    (home / "commin" / "Other_1805-01_setup_turn_RU.pbm").write_bytes(Game().gamestart.data)
    code, out, err = _cli(run_cli, home, "load")
    assert "belongs to the game 'Test', which is not played in this folder" in err and f"loaded {path.name}" in out
    assert (home / "commin" / "refused" / "Other_1805-01_setup_turn_RU.pbm").is_file()
    shutil.rmtree(home / "commin")
    (home / "commin").write_text("x")
    code, out, err = _cli(run_cli, home, "load")
    assert code == 1 and "commin is a file, not a folder" in err and "no new files" not in out


@pytest.mark.slow
def test_the_key_file_a_directory(tu, run_cli):
    home, ids, path = tu
    key = home / f"{GAME}_TU.key"
    key.rename(home / "key.bak")
    key.mkdir()
    code, out, err = _cli(run_cli, home, "status")
    assert code == 1 and f"{GAME}_TU.key in" in err and "is a folder, not TU's key file" in err
    assert "not played from this folder" not in err and "Traceback" not in err


@pytest.mark.slow
def test_an_empty_own_save_names_the_rebuild_that_brings_it_back(tu, run_cli):
    home, ids, path = tu
    assert _cli(run_cli, home, "load")[0] == 0
    sav = home / "save" / f"{GAME}.sav"
    sav.write_bytes(b"")
    code, out, err = _cli(run_cli, home, "status")
    assert code == 1 and "Traceback" not in err and "eiapbem rebuild" in err and "ask its sender" not in err, err
    assert _cli(run_cli, home, "rebuild")[0] == 0  # the files the folder holds make the save again (issue 29 item 2)
    code, out, err = _cli(run_cli, home, "status")
    assert code == 0 and "Turn: Turkey" in out, err


@pytest.mark.slow
def test_the_password_prompt_without_a_terminal(tu, run_cli):
    home, ids, path = tu
    code, out, err = run_cli("status", home=home, env=FAST, input="")
    assert code == 1 and "no terminal to ask for it" in err and "--password" in err
    assert "GetPassWarning" not in err and "may be echoed" not in err
    code, out, err = run_cli("status", home=home, env=FAST, input=pw("TU") + "\n")
    assert code == 0 and "GetPassWarning" not in err and "may be echoed" not in err, err
