"""Game folders, file names and email drafts (4.2.2-4.2.7, 000:104-174; 14.5, 000:2822-2828)."""

import email
from email import policy

import pytest

from eiapbem.pbem import folders, sync
from eiapbem.pbem.email import BadAddress, Person, make_draft, subject_for, write_draft
from eiapbem.pbem.errors import BadFormat, OutOfSync


def test_file_names_follow_the_manual():
    assert folders.gamestart_name("Ulm") == "Ulm_gamestart.pbm"  # 000:130
    assert folders.turn_name("Ulm", "1805-05/naval/GB") == "Ulm_1805-05_naval_GB.pbm"
    assert folders.battle_name("Ulm", "Lille", 0) == "pbembattle_Ulm_Lille0.battle"  # 000:172
    assert folders.save_name("Ulm") == "Ulm.sav"  # 000:104
    assert folders.backup_name("Ulm", "AU") == "Ulm_backup_forplayer_Austria.sav"  # 000:224
    assert folders.setup_name("FR", "Custom Campaign 1805-", "Default") == "FrCustom Campaign 1805-_Default.set"  # 000:2828
    assert folders.bid_name("Ney", "Ulm") == "Ney_Ulm.bid"  # 000:272


@pytest.mark.parametrize("bad", ["../etc", "a/b", "", "x" * 41, "bad name", "-lead", "a\nb"])
def test_names_that_could_leave_the_folder_are_refused(bad):
    with pytest.raises(folders.BadName):
        folders.gamestart_name(bad)


def test_setup_name_refuses_path_parts():
    with pytest.raises(folders.BadName):
        folders.setup_name("FR", "../x", "Default")


def test_folders_are_made_and_files_put_atomically(tmp_path):
    f = folders.GameFolders(tmp_path).ensure()
    assert all(p.is_dir() for p in (f.commin, f.commout, f.battles, f.save))
    p = f.put(f.battles, "pbembattle_Ulm_Lille0.battle", b"one")
    f.put(f.battles, "pbembattle_Ulm_Lille0.battle", b"two")  # 000:174: overwrite the older battle file
    assert p.read_bytes() == b"two"
    with pytest.raises(folders.BadName):
        f.put(f.commout, "../escape", b"x")
    (f.commin / "Ulm_gamestart.pbm").write_bytes(b"x")
    (f.commin / "Other_gamestart.pbm").write_bytes(b"x")
    assert [q.name for q in f.incoming("Ulm")] == ["Ulm_gamestart.pbm"]


def test_read_limited_refuses_big_and_missing_files(tmp_path):
    big = tmp_path / "big.pbm"
    big.write_bytes(bytes(101))
    with pytest.raises(BadFormat, match="over the limit of 100"):
        folders.read_limited(big, 100)
    with pytest.raises(BadFormat, match="there is no file"):
        folders.read_limited(tmp_path / "none.pbm")
    with pytest.raises(BadFormat, match="is a folder"):
        folders.read_limited(tmp_path)


def test_draft_is_addressed_with_subject_and_attachment(tmp_path):
    # 000:106: a blank email with addresses and subject filled in; the file attached.
    f = tmp_path / "Ulm_1805-05_naval_GB.pbm"
    f.write_bytes(b"\x00\x01sealed")
    eml = write_draft(
        f,
        Person("Pitt", "pitt@example.org"),
        [Person("Napoleon Bonaparte", "nap@example.fr"), Person("Kutuzov", "kutuzov@example.ru")],
        subject_for("Ulm", "1805-05/naval/GB"),
    )
    assert eml.name == "Ulm_1805-05_naval_GB.pbm.eml"
    msg = email.message_from_bytes(eml.read_bytes(), policy=policy.default)
    assert msg["Subject"] == "EiA Ulm: 1805-05 naval GB"
    assert "nap@example.fr" in msg["To"] and "kutuzov@example.ru" in msg["To"]
    atts = list(msg.iter_attachments())
    assert [a.get_filename() for a in atts] == [f.name]
    assert atts[0].get_content() == b"\x00\x01sealed"


@pytest.mark.parametrize(
    "person",
    [
        Person("Evil\r\nBcc: all@example.org", "a@example.org"),
        Person("Ok", "a@example.org\r\nBcc: x@example.org"),
        Person("Ok", "a@example.org, b@example.org"),
        Person("Ok", "not an address"),
        Person("Ok", "a@b"),
    ],
)
def test_header_injection_and_bad_addresses_are_refused(person, tmp_path):
    with pytest.raises(BadAddress):
        make_draft(Person("Me", "me@example.org"), [person], "s", [])


def test_subject_with_line_break_is_refused():
    with pytest.raises(BadAddress):
        subject_for("Ulm", "x\nBcc: a@example.org")


def test_first_difference_names_the_first_differing_path():
    a = {"powers": {"FR": {"money": 30, "manpower": 5}}, "units": [1, 2, 3]}
    b = {"powers": {"FR": {"money": 31, "manpower": 5}}, "units": [1, 2, 3]}
    assert sync.first_difference(a, a) is None
    assert sync.first_difference(a, b) == "powers.FR.money"
    assert sync.first_difference({"u": [1, 2]}, {"u": [1, 2, 3]}) == "u[2]"
    assert sync.first_difference({"x": 1}, {"y": 1}) == "x"
    assert sync.first_difference({"x": 1}, {"x": True}) == "x"


def test_out_of_sync_reports_slot_and_first_difference():
    # 000:212: "Turn file out of sync - contact game host".
    from eiapbem.core import canonical

    mine = {"money": {"FR": 30}}
    theirs = {"money": {"FR": 29}}
    sync.check_sync("t.pbm", "1805-05/naval/GB", canonical.digest(mine), mine)
    with pytest.raises(OutOfSync, match=r"out of sync - contact game host: t.pbm for 1805-05/naval/GB .* money.FR"):
        sync.check_sync("t.pbm", "1805-05/naval/GB", canonical.digest(theirs), mine, theirs)
