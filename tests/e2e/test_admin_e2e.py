"""End to end: the host's admin menu with seven player folders (4.2.8, 000:178-264).

Host (Russia) and six email clients, created and joined with the real command;
slots are played through the session API (as in test_game_loop_e2e), admin
acts and backups through the real ``eiapbem admin`` and ``load-backup``
commands.  Weak scrypt parameters keep key files fast (tests only).
"""

import re
import shutil
from dataclasses import replace

import pytest

from eiapbem.client import setups
from eiapbem.client.session import OUT_OF_SYNC
from eiapbem.core.errors import EiaError
from eiapbem.pbem import crypto, files
from eiapbem.pbem.dice import next_reveal
from eiapbem.rules.model import POWERS
from eiapbem.rules.sequence import SETUP_ORDER
from sevenfolders import GAME, HOST_PW, Folders, pw

pytestmark = pytest.mark.slow

HOST = ["--password", HOST_PW]


def _admin(run_cli, game, *args):
    code, out, err = run_cli("admin", *args, *HOST, home=game.homes["RU"])
    assert code == 0, err
    m = re.search(r"admin file commout/(\S+\.pbm)", out)
    if m:
        game.deliver("RU", game.homes["RU"] / "commout" / m.group(1))
    return out


def _backups_to_everyone(run_cli, homes, skip=()):
    for q in POWERS:
        if q == "RU" or q in skip:
            continue
        name = f"{GAME}_backup_forplayer_{_file_name(q)}.sav"
        for suffix in ("", ".dat"):
            shutil.copy(homes["RU"] / "save" / (name + suffix), homes[q] / "save" / (name + suffix))
        code, out, err = run_cli("load-backup", f"save/{name}", "--password", pw(q), home=homes[q])
        assert code == 0, err


def _file_name(p):
    from eiapbem.pbem.folders import POWER_NAMES

    return POWER_NAMES[p]


def test_backups_skip_edits_and_replacement(seven_folders, run_cli):
    game = seven_folders
    homes = game.homes
    players = game.sessions()
    for p in SETUP_ORDER:
        setups.load_setup(players[p], "default")
        game.deliver(p, players[p].end_phase())
        game.load_everyone(players)
    month = str(players["RU"].state.date)
    # 000:216: the host's save is kept at the start of every month's diplomacy phase, listed by month.
    code, out, err = run_cli("admin", "saves", *HOST, home=homes["RU"])
    assert code == 0 and month in out, err
    old_files = game.play_slot(players)  # the diplomacy commitments of everyone (6.0, sealed orders)
    old_gb = old_files["GB"].read_bytes()
    if players["RU"].state.slot.simultaneous:  # the reveal round of the sealed diplomacy orders
        game.play_slot(players)
    assert len(set(game.saved_hashes().values())) == 1

    # A client's save is damaged: its state no longer agrees; the next file it loads is out of sync (000:212).
    x = players["RU"].state.slot.power
    victim = next(p for p in POWERS if p not in (x, "RU"))
    v = players[victim]
    v.data = replace(v.data, state=v.state.with_power(victim, treasury=v.state.powers[victim].treasury + 7))
    v.save()
    path = players[x].end_phase()
    game.deliver(x, path)
    code, out, err = run_cli("load", f"commin/{path.name}", "--password", pw(victim), home=homes[victim])
    assert code == 1 and OUT_OF_SYNC in err, err
    # The victim's own next file, checked by the host, names it and the first difference.
    # (Here the host checks the file that everyone else loaded: it agrees with the host.)
    code, out, err = run_cli("admin", "sync-check", f"commin/{path.name}", *HOST, home=homes["RU"])
    assert code == 0 and out.startswith("In sync"), out + err
    assert _admin(run_cli, game, "status").count("Waiting for") == 1

    # Option 1 (000:216): backups from the last monthly save; each player loads their own.  The host first
    # loads what waits in its commin/ (a host act refuses to act while a file of the slot waits there).
    code, out, err = run_cli("load", "--password", pw("RU"), home=homes["RU"])
    assert code == 0, err
    out = _admin(run_cli, game, "backup", "--from", month)
    assert "backup set 1" in out
    au_backup = homes["RU"] / "save" / f"{GAME}_backup_forplayer_Austria.sav"
    shutil.copy(au_backup, homes["FR"] / "save" / au_backup.name)
    shutil.copy(au_backup.with_name(au_backup.name + ".dat"), homes["FR"] / "save" / (au_backup.name + ".dat"))
    code, out, err = run_cli("load-backup", f"save/{au_backup.name}", "--power", "FR", "--password", pw("FR"), home=homes["FR"])
    assert code == 1 and "backup for AU" in err  # each backup opens only for its own power
    _backups_to_everyone(run_cli, homes)
    assert len(set(game.saved_hashes().values())) == 1
    players = game.sessions()
    assert str(players["FR"].state.date) == month and players["FR"].contents.chain.epoch == 1
    game.play_slot(players)  # the game goes on from the diplomacy phase: commitments, then the reveal
    if players["RU"].state.slot.simultaneous:
        game.play_slot(players)
    assert len(set(game.saved_hashes().values())) == 1
    # A turn file made before the backup is obsolete (000:226).
    (homes["SP"] / "commin" / "old_GB.pbm").write_bytes(old_gb)
    code, out, err = run_cli("load", "commin/old_GB.pbm", "--password", pw("SP"), home=homes["SP"])
    assert code == 1 and "obsolete" in err, err

    # Skip the current player (000:232): the slot passes with no actions, under the host's signature.
    late = players["RU"].state.slot.power
    before = players["RU"].state.slot.key(players["RU"].state.date)
    _admin(run_cli, game, "skip")
    players = game.sessions()
    game.load_everyone(players)
    hashes = game.saved_hashes()
    assert len(set(hashes.values())) == 1
    st = players["AU"].state
    assert st.slot.key(st.date) != before
    assert any(e.author == "host" and f"skipped {late}'s turn {before}" in e.text for e in players["AU"].journal())

    # Edits (000:236-262), each logged with the host as author in every player's log.
    money = players["FR"].state.powers["FR"].treasury
    _admin(run_cli, game, "add-money", "FR", "10")
    _admin(run_cli, game, "add-pp", "GB", "3")
    _admin(run_cli, game, "add-manpower", "PR", "2")
    _admin(run_cli, game, "diplomacy", "FR", "bavaria", "war")
    _admin(run_cli, game, "create-garrison", "bavaria", "munich", "infantry=2")
    _admin(run_cli, game, "remove-unit", "corps:FR:I")
    _admin(run_cli, game, "place-unit", "corps:FR:I", "area:paris")
    _admin(run_cli, game, "edit-unit", "corps:FR:I", "infantry=9", "cavalry=2")
    _admin(run_cli, game, "option", "fog-of-war", "on")
    players = game.sessions()
    game.load_everyone(players)
    assert len(set(game.saved_hashes().values())) == 1
    st = players["TU"].state
    assert st.powers["FR"].treasury == money + 10 and st.options.fog_of_war
    assert st.units["corps:FR:I"].factors.infantry == 9 and str(st.units["corps:FR:I"].location) == "area:paris"
    for q, sq in players.items():  # every player's log has each edit, with the host as its author
        host_lines = [e.text for e in sq.journal() if e.author == "host"]
        assert sum("Host: " in t for t in host_lines) >= 11, (q, host_lines)
    code, out, err = run_cli("log", "-n", "12", "--password", pw("TU"), home=homes["TU"])
    assert code == 0, err
    for text in ("added 10 money to FR", "added 3 political points to GB", "added 2 manpower to PR",
                 "diplomacy of FR with bavaria to war", "created a bavaria garrison in munich", "moved corps:FR:I off the map",
                 "placed corps:FR:I at area:paris", "set the factors of corps:FR:I", "turned the option fog-of-war on"):
        assert re.search(r"\(host\) Host: .*" + re.escape(text), out), (text, out)

    # A client refuses an "admin" file signed by anyone but the host.
    fr = players["FR"]
    ch = fr.contents.chain
    link, reveal = next_reveal(ch, fr.me)
    forged = homes["GB"] / "commin" / f"{GAME}_admin_9999.pbm"
    before = players["GB"].state.state_hash()
    for author, match in (("FR", "only the host signs admin files"), ("host", "not signed by host.s key")):
        sealed = crypto.seal(kind="admin", game=GAME, gid=ch.gid, slot=f"admin/{ch.seq + 1}", author=author,
                             signer=fr.me.signer, to=files.game_recipients(ch.roster), body={"acts": []}, seq=ch.seq + 1,
                             epoch=ch.epoch, prev=ch.head, reveal=reveal, link=link)
        forged.write_bytes(sealed.data)
        with pytest.raises(EiaError, match=match):
            players["GB"].load_path(forged)
    forged.unlink()
    assert game.open("GB").state.state_hash() == before

    # A player drops out; a new one with a new identity takes over from backups (000:204-206).
    code, out, err = run_cli("admin", "replace", "AU", "--name", "Newcomer", "--email", "new@example.org", *HOST, home=homes["RU"])
    assert code == 0, err
    otp = re.search(r"one-time password separately: (\S+)", out).group(1)
    new = homes["AU"].parent / "newAU"
    (new / "save").mkdir(parents=True)
    name = f"{GAME}_backup_forplayer_Austria.sav"
    for suffix in ("", ".dat"):
        shutil.copy(homes["RU"] / "save" / (name + suffix), new / "save" / (name + suffix))
    shutil.copy(homes["RU"] / "commout" / f"{GAME}_AU.key", new / "newkey.key")
    code, out, err = run_cli("load-backup", f"save/{name}", "--key", "newkey.key", "--one-time-password", otp,
                             "--password", "new-secret", home=new)
    assert code == 0, err
    game = Folders(dict(homes, AU=new), password=lambda p: "new-secret" if p == "AU" else pw(p))
    _backups_to_everyone(run_cli, game.homes, skip=("AU",))
    players = game.sessions()
    assert len({s.state.state_hash() for s in players.values()}) == 1
    assert players["GB"].meta.players["AU"].name == "Newcomer"
    assert any("replaced AU's player Player AU by Newcomer" in e.text and e.author == "host" for e in players["GB"].journal())
    st = players["RU"].state
    game.play_slot(players)
    assert len(set(game.hashes(players).values())) == 1
