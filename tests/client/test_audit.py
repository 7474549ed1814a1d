"""``eiapbem audit`` (issue 20 item 2): a whole game re-verified from one folder's files.

A real seven-folder game (``tests/auditkit.py``: the setup, a month's
diplomacy and reinforcement slots and one host admin file) is audited in a
client's folder, the host's folder and copies with one past file swapped, one
die altered and one admin file removed.
"""

import json
import shutil

import pytest

import auditkit
from eiapbem.client import audit
from eiapbem.core.dice import derive
from eiapbem.pbem import crypto, envelope

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    root = tmp_path_factory.mktemp("game")
    ids = auditkit.play(root, slots=5, admin=True)
    return root, ids


@pytest.fixture
def fr(played, tmp_path):
    root, ids = played
    home = tmp_path / "FR"
    shutil.copytree(auditkit.home_of(root, "FR"), home)
    return home, ids


def _roster(ids):
    return {r: i.public() for r, i in ids.items()}


def _replace(home, name, data):
    for place in ("commin", "commin/done"):
        p = home / place / name
        if p.exists():
            p.write_bytes(data)


def test_every_folder_of_the_game_is_verified(played, run_cli):
    root, ids = played
    for p in ("FR", "GB", "RU", "host"):
        res = audit.run(auditkit.home_of(root, p), auditkit.GAME, ids[p])
        assert res.verified, (p, res.lines())
        assert res.files == 24 and res.first is None  # 7 setup + 7 commitments + 7 reveals + 1 admin + 2 reinforcement
    code, out, err = run_cli("audit", "--json", "--password", auditkit.pw("GB"), home=auditkit.home_of(root, "GB"),
                             env={"EIAPBEM_TEST_SCRYPT": auditkit.FAST})
    assert code == 0, err
    o = json.loads(out)
    assert o["verdict"] == "verified" and o["files"] == 24 and o["first"] is None
    code, out, err = run_cli("audit", "--password", auditkit.pw("RU"), home=auditkit.home_of(root, "RU"))
    assert code == 0 and "Game Audit: verified" in out, err


def test_the_folder_keeps_every_file_so_commin_and_commout_may_be_cleared(fr):
    home, ids = fr
    for place in ("commin", "commout"):
        for p in (home / place).glob("*.pbm"):
            p.unlink()
    res = audit.run(home, auditkit.GAME, ids["FR"])
    assert res.verified, res.lines()


def test_a_swapped_past_file_is_named(fr):
    home, ids = fr
    name = "Audit_1805-01_setup_turn_SP.pbm"
    data = (home / "commin" / "done" / name).read_bytes()
    other = auditkit.reseal(data, ids["SP"], ids["FR"], _roster(ids), lambda b: b)  # the same turn, sealed again
    assert other != data
    _replace(home, name, other)
    res = audit.run(home, auditkit.GAME, ids["FR"])
    assert not res.verified
    assert res.first.slot == "1805-01/setup/turn/SP" and res.first.file == name
    assert "not the file this folder's save accepted" in res.first.reason
    assert res.first.hash == crypto.file_hash(envelope.parse(other)).hex()


def test_an_altered_die_is_named(fr):
    home, ids = fr
    name = "Audit_1805-01_reinforcement_turn_GB.pbm"
    data = (home / "commin" / "done" / name).read_bytes()
    h = envelope.parse(data).header
    seed = crypto.dice_seed(h.reveal, h.prev, h.kind)
    label = "battle/x/round1/attacker"
    wrong = derive(seed, label, 6) % 6 + 1

    def alter(body):
        return dict(body, dice={label: [6, wrong]})

    _replace(home, name, auditkit.reseal(data, ids["GB"], ids["FR"], _roster(ids), alter))
    res = audit.run(home, auditkit.GAME, ids["FR"])
    assert not res.verified and res.first.slot == "1805-01/reinforcement/turn/GB"
    assert f"records the roll '{label}' as {wrong}, which its dice seed does not give" in res.first.reason


def test_a_removed_admin_file_is_named(fr, run_cli):
    home, ids = fr
    name = sorted(p.name for p in (home / "commin" / "done").glob("Audit_admin_*.pbm"))[0]
    number = int(name.rsplit("_", 1)[1].split(".")[0])  # the admin file's place in the chain
    for place in ("commin", "commin/done"):
        (home / place / name).unlink(missing_ok=True)
    res = audit.run(home, auditkit.GAME, ids["FR"])
    assert not res.verified
    assert res.first.slot == f"admin/{number}" and res.first.file == "(missing)"
    assert "Audit_1805-01_reinforcement_turn_GB.pbm follows it" in res.first.reason
    code, out, err = run_cli("audit", "--password", auditkit.pw("FR"), home=home)
    assert code == 1 and "NOT verified" in out and f"admin/{number}" in out and "Traceback" not in err


def test_a_replayed_state_that_differs_from_the_save_is_named(fr):
    """A save whose state the files do not give (here: the files of a shorter game) is a disagreement."""
    home, ids = fr
    for place in ("commin", "commin/done"):
        (home / place / "Audit_1805-01_reinforcement_turn_PR.pbm").unlink(missing_ok=True)
    res = audit.run(home, auditkit.GAME, ids["FR"])
    assert not res.verified and res.first.slot == "1805-01/reinforcement/turn/PR"


def test_a_game_through_a_host_backup_is_verified_in_its_new_epoch(played, tmp_path):
    """The backup starts a new epoch; the audit checks it restores a state the files passed through."""
    from eiapbem.client.session import Session
    from eiapbem.host import admin as hadmin
    from eiapbem.pbem.folders import backup_name
    from eiapbem.rules.model import POWERS

    src, ids = played
    root = tmp_path / "game"
    shutil.copytree(src, root)
    host = Session.open_with(auditkit.home_of(root, "host"), auditkit.GAME, ids["host"])
    hadmin.make_backups(host)
    for p in POWERS:
        if p == "RU":
            continue
        name = backup_name(auditkit.GAME, p)
        for suffix in ("", ".dat"):
            shutil.copy(auditkit.home_of(root, "host") / "save" / (name + suffix), auditkit.home_of(root, p) / "save" / (name + suffix))
        hadmin.load_backup(auditkit.home_of(root, p), auditkit.home_of(root, p) / "save" / name, auditkit.pw(p))
    auditkit.play_slot(root, ids)
    res = audit.run(auditkit.home_of(root, "FR"), auditkit.GAME, ids["FR"])
    assert res.verified and res.epochs == 1, res.lines()
    # A backup that restores a state the game never passed through is named.
    name = backup_name(auditkit.GAME, "FR")
    home = auditkit.home_of(root, "FR")
    other = tmp_path / "other"
    ids2 = auditkit.new(other)  # another game: its backup is not signed by this game's host
    h2 = Session.open_with(auditkit.home_of(other, "host"), auditkit.GAME, ids2["host"])
    hadmin.make_backups(h2)
    for suffix in ("", ".dat"):
        shutil.copy(auditkit.home_of(other, "host") / "save" / (name + suffix), home / "save" / (name + suffix))
    res = audit.run(home, auditkit.GAME, ids["FR"])
    assert not res.verified and res.first.file == name, res.lines()
