"""The admin menu between a host folder and one email client (4.2.8, 000:178-264), fast."""

import re
import shutil

import pytest

from eiapbem.client import newgame
from eiapbem.client.session import TEST_SCRYPT_ENV, Session
from eiapbem.pbem import folders
from eiapbem.rules.model import POWERS

FAST = {TEST_SCRYPT_ENV: "10,1,1"}
GAME = "Eylau"


pytestmark = pytest.mark.usefixtures("fast_keys")  # small key files (tests/conftest.py)


def _new(tmp_path, flags=("allow-pbem-host-functions",)):
    host, client = tmp_path / "host", tmp_path / "fr"
    players = [newgame.Player(p, f"Player {p}", f"{p.lower()}@example.org",
                              "client" if p == "FR" else ("host" if p == "RU" else "hotseat")) for p in POWERS]
    created = newgame.new_game(host, GAME, "classic-1805", players, bids={}, options=newgame.options_from_flags(list(flags)),
                               passwords={p: f"pw-{p}" for p in POWERS if p != "FR"}, host_password="pw-host")
    gs = host / "commout" / f"{GAME}_gamestart.pbm"
    newgame.join(client, gs, "FR", created.one_time["FR"], "pw-FR", "fr@example.org", host / "commout" / f"{GAME}_FR.key")
    (client / "commin").mkdir(exist_ok=True)
    return host, client


def _send(path, client):
    shutil.copy(path, client / "commin" / path.name)


def test_admin_needs_the_option_and_the_hosts_own_save(tmp_path, run_cli):
    host, client = _new(tmp_path, flags=())
    # 4.1.1 (000:32): with "Allow PBEM Host Functions" off the edits are refused; the status still reads.
    code, out, err = run_cli("admin", "add-money", "FR", "5", "--password", "pw-host", home=host)
    assert code == 1 and "Allow PBEM Host Functions" in err and "Traceback" not in err
    code, out, err = run_cli("admin", "status", "--password", "pw-host", home=host)
    assert code == 0 and "host functions off" in out, err
    # 4.2.2 step 6 (000:114): only the host's own save has the admin menu.
    code, out, err = run_cli("admin", "status", "--password", "pw-FR", home=client)
    assert code == 1 and "only available in the host's own save" in err


def test_an_edit_reaches_the_client_with_the_host_as_author_and_status_names_the_player(tmp_path, run_cli):
    host, client = _new(tmp_path)
    code, out, err = run_cli("admin", "add-money", "FR", "12", "--password", "pw-host", home=host)
    assert code == 0, err
    name = re.search(r"commout/(\S+\.pbm)", out).group(1)
    assert (host / "commout" / (name + ".eml")).is_file()  # a draft to every player (4.2.5)
    _send(host / "commout" / name, client)
    code, out, err = run_cli("load", "--password", "pw-FR", home=client)
    assert code == 0 and f"loaded {name}" in out, err
    code, out, err = run_cli("log", "--password", "pw-FR", home=client)
    assert "(host) Host: added 12 money to FR" in out
    h = Session.open(host, GAME, "host", "pw-host")
    assert Session.open(client, GAME, "FR", "pw-FR").state.state_hash() == h.state.state_hash()
    code, out, err = run_cli("admin", "status", "--password", "pw-host", home=host)
    assert code == 0, err
    # Who holds the game up: the slot, the player, their address, and since when (000:180).
    assert re.search(r"Waiting for 1805-01/setup/turn/RU: RU played by Player RU <ru@example.org> \(host\), since \d{4}-\d\d-\d\d \d\d:\d\d UTC", out), out
    assert "Reloads reported: none" in out


def test_the_host_role_moves_to_a_client(tmp_path, run_cli):
    # 000:208: the host appoints a new host; every client learns it from the host-signed file.
    host, client = _new(tmp_path)
    code, out, err = run_cli("admin", "replace-host", "--name", "Player FR", "--email", "fr@example.org", "--power", "FR",
                             "--password", "pw-host", home=host)
    assert code == 0, err
    otp = re.search(r"one-time password separately: (\S+)", out).group(1)
    name = re.search(r"admin file commout/(\S+\.pbm)", out).group(1)
    _send(host / "commout" / name, client)
    shutil.copy(host / "commout" / folders.identity_name(GAME, "host"), client / "commin" / "hostkey.key")
    code, out, err = run_cli("load", "--password", "pw-FR", home=client)
    assert code == 0, err
    code, out, err = run_cli("admin", "take-host", "commin/hostkey.key", "--password", "pw-FR", "--one-time-password", otp,
                             "--host-password", "pw-newhost", home=client)
    assert code == 0 and "you are now the host" in out, err
    code, out, err = run_cli("admin", "add-pp", "GB", "2", "--password", "pw-newhost", home=client)
    assert code == 0, err
    # The old host's key is no longer the game's: its admin menu is closed; its powers still play.
    code, out, err = run_cli("admin", "status", "--password", "pw-host", home=host)
    assert code == 1 and "handed on" in err
    new = Session.open(client, GAME, "host", "pw-newhost")
    assert new.meta.host.email == "fr@example.org" and new.meta.players["FR"].type == "host"
    assert any("handed the host role from" in e.text for e in new.journal())
    ru = Session.open(host, GAME, "RU", "pw-RU")
    # The new host's admin file reaches the old host's folder, which loads it as a client.
    _send(sorted((client / "commout").glob("*_admin_*.pbm"))[-1], host)
    rep = ru.load_all()
    assert not rep.refused and ru.state.state_hash() == new.state.state_hash()


def test_sync_check_names_the_player_and_the_first_difference(tmp_path, run_cli):
    from dataclasses import replace

    from eiapbem.client import setups

    host, client = _new(tmp_path)
    # Russia's save is damaged before it ends its setup; the host checks the file it made against
    # an undamaged save (000:212-214): the player and the first differing path are named.
    ru = Session.open(host, GAME, "RU", "pw-RU")
    good = ru.state
    setups.load_setup(ru, "default")
    ru.data = replace(ru.data, state=ru.state.with_power("RU", treasury=ru.state.powers["RU"].treasury + 3))
    ru.save()
    path = ru.end_phase()
    moved = tmp_path / path.name
    shutil.copy(path, moved)
    # Put the host's save back to the undamaged start (as if the damage were elsewhere).
    ru = Session.open(host, GAME, "RU", "pw-RU")
    ru.data = replace(ru.data, state=good)
    ru.contents = replace(ru.contents, chain=Session.open(client, GAME, "FR", "pw-FR").contents.chain)
    ru.save()
    code, out, err = run_cli("admin", "sync-check", str(moved), "--password", "pw-host", home=host)
    assert code == 1, out + err
    assert out.startswith("Out of sync: RU") and "powers.RU" in out and "backup set" in out


def test_status_lists_the_reloads_reported(tmp_path, run_cli):
    # 4.2.7 (000:176): restarts of a slot are reported to all; the host's status lists them.
    from eiapbem.client import setups
    from eiapbem.rules.setup import SetupPlaceCorps

    host, client = _new(tmp_path)
    ru = Session.open(host, GAME, "RU", "pw-RU")
    ru.act(SetupPlaceCorps("corps:RU:I", "moscow"))
    ru.restart()
    setups.load_setup(ru, "default")
    path = ru.end_phase()
    _send(path, client)
    fr = Session.open(client, GAME, "FR", "pw-FR")
    assert fr.load_all().loaded and fr.meta.to_obj()["reloads"] == {"RU": [["1805-01/setup/turn/RU", 1]]}
    code, out, err = run_cli("admin", "status", "--password", "pw-host", home=host)
    assert code == 0, err
    assert "Reloads reported by RU: 1 (1805-01/setup/turn/RU x1)" in out
    assert "Waiting for 1805-01/setup/turn/TU: TU played by Player TU <tu@example.org> (hotseat)" in out


def test_backup_of_the_current_state_through_load(tmp_path, run_cli):
    # 000:218 option 2: backups start where the host left off; the client loads its own through "load".
    host, client = _new(tmp_path)
    code, out, err = run_cli("admin", "backup", "--password", "pw-host", home=host)
    assert code == 0 and "backup set 1 from the current state (1805-01/setup/turn/RU)" in out, err
    name = f"{GAME}_backup_forplayer_France.sav"
    assert (host / "commout" / f"{name}.eml").is_file()  # one email per player, never a group list (000:220)
    for suffix in ("", ".dat"):
        shutil.copy(host / "save" / (name + suffix), client / "save" / (name + suffix))
    code, out, err = run_cli("load", f"save/{name}", "--password", "pw-FR", home=client)
    assert code == 0 and "backup epoch 1" in out, err
    code, out, err = run_cli("load", f"save/{name}", "--password", "pw-FR", home=client)
    assert code == 1 and "already loaded" in err
    fr = Session.open(client, GAME, "FR", "pw-FR")
    h = Session.open(host, GAME, "host", "pw-host")
    assert fr.state.state_hash() == h.state.state_hash() and fr.contents.chain.epoch == h.contents.chain.epoch == 1
    assert "made backup set 1" in fr.journal(1)[-1].text and fr.journal(1)[-1].author == "host"


def test_sync_check_reads_saves_this_folder_opens_and_says_which_it_cannot(tmp_path, run_cli):
    host, client = _new(tmp_path)
    shutil.copy(client / "save" / f"{GAME}.sav", tmp_path / "fr.sav")
    shutil.copy(client / "save" / f"{GAME}.sav.dat", tmp_path / "fr.sav.dat")
    code, out, err = run_cli("admin", "sync-check", f"save/{GAME}.sav", str(tmp_path / "fr.sav"), "--password", "pw-host",
                             home=host)
    assert code == 0 and out.startswith("Nothing differs, but fr.sav could not be compared"), out + err
    assert "cannot read fr.sav: fr.sav is FR's save file, sealed to FR only" in out
    assert "1805-01/setup/turn/RU: host" in out and " agree (" in out


def test_the_host_role_moves_to_someone_outside_the_playgroup(tmp_path, run_cli):
    # 000:208: the new host may be someone new, who plays no power and has no save yet.
    host, client = _new(tmp_path)
    outsider = tmp_path / "outsider"
    code, out, err = run_cli("admin", "replace-host", "--name", "Ney Outsider", "--email", "ney@example.org",
                             "--password", "pw-host", home=host)
    assert code == 0, err
    otp = re.search(r"one-time password separately: (\S+)", out).group(1)
    name = re.search(r"admin file commout/(\S+\.pbm)", out).group(1)
    hand = host / "commout" / folders.handover_name(GAME)
    assert hand.is_file() and hand.with_name(hand.name + ".dat").is_file()
    outsider.mkdir()
    for f in (hand, hand.with_name(hand.name + ".dat"), host / "commout" / folders.identity_name(GAME, "host")):
        shutil.copy(f, outsider / f.name)
    # The handover opens only with the new host key: the wrong one-time password is refused, nothing is written.
    code, out, err = run_cli("admin", "take-host", folders.identity_name(GAME, "host"), "--handover", hand.name,
                             "--one-time-password", "wrong", "--host-password", "pw-ney", home=outsider)
    assert code == 1 and "Traceback" not in err and not (outsider / "save").exists()
    code, out, err = run_cli("admin", "take-host", folders.identity_name(GAME, "host"), "--handover", hand.name,
                             "--one-time-password", otp, "--host-password", "pw-ney", home=outsider)
    assert code == 0 and "you are now the host" in out, err
    # Taking it twice would overwrite a save: refused.
    code, out, err = run_cli("admin", "take-host", folders.identity_name(GAME, "host"), "--handover", hand.name,
                             "--one-time-password", otp, "--host-password", "pw-ney", home=outsider)
    assert code == 1 and "already holds a save" in err
    code, out, err = run_cli("status", "--power", "host", "--password", "pw-ney", home=outsider)
    assert code == 0 and "no power" in out, err
    code, out, err = run_cli("admin", "add-pp", "GB", "1", "--password", "pw-ney", home=outsider)
    assert code == 0, err
    edit = re.search(r"admin file commout/(\S+\.pbm)", out).group(1)
    # Every player learns the new host from the old host's file, then accepts the new host's edit.
    _send(host / "commout" / name, client)
    _send(outsider / "commout" / edit, client)
    _send(outsider / "commout" / edit, host)
    fr = Session.open(client, GAME, "FR", "pw-FR")
    assert not fr.load_all().refused
    ru = Session.open(host, GAME, "RU", "pw-RU")
    assert not ru.load_all().refused
    new = Session.open(outsider, GAME, "host", "pw-ney")
    assert fr.state.state_hash() == ru.state.state_hash() == new.state.state_hash()
    assert fr.meta.host.email == "ney@example.org"
    # The old host's powers now play by email; its admin menu is closed.
    assert {fr.meta.players[p].type for p in POWERS} == {"client"}
    code, out, err = run_cli("admin", "status", "--password", "pw-host", home=host)
    assert code == 1 and "handed on" in err


def test_a_hot_seat_player_is_replaced_at_the_hosts_computer(tmp_path, run_cli):
    # 000:204-208: replacing a human by a human works for a power at the host's computer too.
    host, client = _new(tmp_path)
    code, out, err = run_cli("admin", "replace", "AU", "--name", "New AU", "--email", "newau@example.org", "--type", "hotseat",
                             "--new-password", "pw-newAU", "--password", "pw-host", home=host)
    assert code == 0 and "at this computer" in out, err
    name = re.search(r"admin file commout/(\S+\.pbm)", out).group(1)
    # The old player's password no longer opens Austria; the new one does.
    code, out, err = run_cli("status", "--power", "AU", "--password", "pw-AU", home=host)
    assert code == 1 and "Traceback" not in err
    au = Session.open(host, GAME, "AU", "pw-newAU")
    assert au.meta.players["AU"].to_obj() == {"name": "New AU", "email": "newau@example.org", "type": "hotseat"}
    _send(host / "commout" / name, client)
    fr = Session.open(client, GAME, "FR", "pw-FR")
    assert not fr.load_all().refused and fr.state.state_hash() == au.state.state_hash()
    assert any("New AU" in e.text for e in fr.journal())
    # The host's own power is not "replaced": it moves with the host role.
    code, out, err = run_cli("admin", "replace", "RU", "--name", "X", "--email", "x@example.org", "--password", "pw-host", home=host)
    assert code == 1 and "replace-host" in err


def test_a_negative_amount_takes_points_money_and_manpower_away(tmp_path, run_cli):
    # The help says a negative number takes them away (000:240-244); "-17" is an amount, not an option.
    host, _ = _new(tmp_path)
    before = Session.open(host, GAME, "host", "pw-host").state.powers["FR"]
    for cmd, amount in (("add-pp", "-17"), ("add-money", "-5")):
        code, out, err = run_cli("admin", cmd, "FR", amount, "--password", "pw-host", home=host)
        assert code == 0 and "No such option" not in err, (cmd, err)
    after = Session.open(host, GAME, "host", "pw-host").state.powers["FR"]
    assert after.political_status == before.political_status - 17 and after.treasury == before.treasury - 5
    code, out, err = run_cli("admin", "add-manpower", "FR", "-1", "--password", "pw-host", home=host)
    assert code == 1 and "taking 1 would leave less than nothing" in err  # read as an amount, refused by the rule
    code, out, err = run_cli("admin", "add-pp", "FR", "-x", "--password", "pw-host", home=host)
    assert code != 0 and "is not a valid integer" in err and "Traceback" not in err
