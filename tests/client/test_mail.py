"""Play by email through real servers on localhost (issue 22): aiosmtpd for SMTP, Dovecot for IMAP.

The game tests use a small game made once per module with the real commands:
Russia hosts, France and Great Britain play by email, the other powers are the
computer's; each test gets its own copy of the three folders and its own servers.
"""

from __future__ import annotations

import email
import email.policy
import functools
import re
import shutil
from pathlib import Path

import pytest
from click.testing import CliRunner

from eiapbem.cli.main import main
from eiapbem.client import mail_config, mail_send
from eiapbem.client.session import TEST_SCRYPT_ENV, Session
from eiapbem.pbem.email import Person, make_draft
from eiapbem.rules.model import POWERS
from mailkit import Dovecot, Smtp, password, setup_args
from sevenfolders import FAST, HOST_PW, command, hand_out, join_by_command, new_by_command, pw
from clikit import files_in

GAME = "Jena"
HUMANS = {"RU": "ru@example.org", "FR": "fr@example.org", "GB": "gb@example.org"}


def run(home: Path, *args: str, env: dict | None = None, input: str | None = None) -> tuple[int, str]:
    """The real command in this process (faster than a subprocess); (exit code, stdout + stderr)."""
    runner = CliRunner()
    code = 0
    with runner.isolation(input=input, env={**FAST, **(env or {})}) as outs:
        try:
            main(["--home", str(home), *args])
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else 1
    text = outs[0].getvalue().decode()
    text += outs[1].getvalue().decode() if outs[1] is not None else ""
    return code, text


def make_game(root: Path, run_cli, *, join: bool = True) -> dict:
    """Create the game in root/RU (host); with ``join`` FR and GB join by copying the gamestart (set-up only)."""
    homes = {p: root / p for p in HUMANS}
    types = {p: ("host" if p == "RU" else "client") if p in HUMANS else "ai-medium" for p in POWERS}
    otp = new_by_command(run_cli, homes, game=GAME, extra=("--option", "allow-pbem-host-functions"), types=types)
    assert sorted(otp) == ["FR", "GB"]
    if join:
        for p in ("FR", "GB"):
            hand_out(homes["RU"], homes[p], p, GAME)
            code, out, err = join_by_command(run_cli, homes[p], p, otp[p], game=GAME)
            assert code == 0, err
    return {"homes": homes, "otp": otp}


@pytest.fixture(scope="module")
def template(tmp_path_factory):
    root = tmp_path_factory.mktemp("template")
    make_game(root, functools.partial(command, root))
    return root


@pytest.fixture
def servers(tmp_path):
    dove = Dovecot(list(HUMANS.values()) + ["stranger@example.org"])
    smtp = Smtp(dove)
    yield dove, smtp
    smtp.stop()
    dove.stop()


@pytest.fixture
def game(template, tmp_path, servers, monkeypatch):
    """Copies of the three folders, each with its mail set up, and the servers."""
    monkeypatch.setenv(TEST_SCRYPT_ENV, FAST[TEST_SCRYPT_ENV])
    dove, smtp = servers
    homes = {p: tmp_path / p for p in HUMANS}
    for p, h in homes.items():
        shutil.copytree(template / p, h)
        code, out = run(h, *setup_args(HUMANS[p], f"Player {p}", smtp, dove))
        assert code == 0, out
    return homes, dove, smtp


def env_of(p: str) -> dict:
    e = {mail_config.PASSWORD_ENV: password(HUMANS[p]), "EIAPBEM_PASSWORD": pw(p)}
    if p == "RU":
        e["EIAPBEM_HOST_PASSWORD"] = HOST_PW
    return e


# ----------------------------------------------------------------- set-up


def test_setup_keeps_no_password_and_refuses_clear_text_to_another_computer(tmp_path):
    code, out = run(tmp_path, "mail", "setup", "--address", "me@example.org", "--name", "Me", "--smtp-host", "mail.example.org",
                    "--smtp-tls", "none", "--imap-host", "mail.example.org")
    assert code == 1 and "only to this computer" in out and not (tmp_path / "mail").exists()
    code, out = run(tmp_path, "mail", "setup", "--address", "me@example.org", "--name", "Me", "--smtp-host", "smtp.example.org",
                    "--imap-host", "imap.example.org", env={mail_config.PASSWORD_ENV: "hunter2-secret"})
    assert code == 0, out
    cfg = mail_config.load_config(tmp_path)
    assert (cfg.smtp_port, cfg.smtp_tls, cfg.imap_port, cfg.imap_tls) == (587, "starttls", 993, "ssl")
    assert b"hunter2" not in (tmp_path / "mail" / "config.json").read_bytes()
    code, out = run(tmp_path, "mail", "setup", "--address", "me@example.org\nBcc: x@y.org", "--name", "Me",
                    "--smtp-host", "smtp.example.org", "--imap-host", "imap.example.org")
    assert code == 1 and "not a plain email address" in out and "Traceback" not in out


def test_the_mail_password_from_the_system_keyring_when_there_is_one(tmp_path, monkeypatch):
    import sys
    import types

    args = ["mail", "setup", "--address", "me@example.org", "--name", "Me", "--smtp-host", "smtp.example.org",
            "--imap-host", "imap.example.org", "--keyring"]
    monkeypatch.setitem(sys.modules, "keyring", None)  # no keyring installed: a clear sentence, nothing stored
    code, out = run(tmp_path, *args, input="pw\npw\n")
    assert code == 1 and "no system keyring" in out and not (tmp_path / "mail").exists()
    store: dict = {}
    fake = types.SimpleNamespace(get_password=lambda svc, user: store.get((svc, user)),
                                 set_password=lambda svc, user, pw: store.__setitem__((svc, user), pw))
    monkeypatch.setitem(sys.modules, "keyring", fake)
    monkeypatch.delenv(mail_config.PASSWORD_ENV, raising=False)
    code, out = run(tmp_path, *args, input="s3cret-mail\ns3cret-mail\n")
    assert code == 0, out
    assert store == {(mail_config.KEYRING_SERVICE, "me@example.org@imap.example.org"): "s3cret-mail"}
    assert b"s3cret" not in (tmp_path / "mail" / "config.json").read_bytes()
    assert mail_config.find_password(mail_config.load_config(tmp_path)) == "s3cret-mail"
    monkeypatch.setenv(mail_config.PASSWORD_ENV, "from-env")  # the environment comes first
    assert mail_config.find_password(mail_config.load_config(tmp_path)) == "from-env"


# ----------------------------------------------------------------- sending (no game needed)


def _drafts(home: Path, n: int) -> list[Path]:
    out = home / "commout"
    out.mkdir(parents=True, exist_ok=True)
    paths = []
    for i in range(n):
        f = out / f"Game_1805-0{i + 1}_naval_FR.pbm"
        f.write_bytes(b"file %d" % i)
        d = f.with_name(f.name + ".eml")
        d.write_bytes(make_draft(Person("Old Name", "old@example.org"), [Person("R", "ru@example.org"), Person("G", "gb@example.org")],
                                 f"EiA Game: {i}", [f]))
        paths.append(d)
    return paths


def _cfg(smtp: Smtp) -> mail_config.MailConfig:
    return mail_config.MailConfig("fr@example.org", "Player FR", "fr@example.org", "127.0.0.1", smtp.port, "none",
                           "127.0.0.1", 1, "none")


def test_send_each_draft_once_from_the_players_own_address(tmp_path):
    smtp = Smtp(None)
    try:
        _drafts(tmp_path, 2)
        rep = mail_send.send_all(tmp_path, _cfg(smtp), password("fr@example.org"), wait=0)
        assert [x[0] for x in rep.sent] == ["commout/Game_1805-01_naval_FR.pbm.eml", "commout/Game_1805-02_naval_FR.pbm.eml"]
        assert not rep.failed and len(smtp.received) == 2
        for frm, rcpts, content in smtp.received:
            msg = email.message_from_bytes(content, policy=email.policy.default)
            assert frm == "fr@example.org" and "fr@example.org" in msg["From"] and "old@example.org" not in msg["From"]
            assert sorted(rcpts) == ["gb@example.org", "ru@example.org"]
        again = mail_send.send_all(tmp_path, _cfg(smtp), password("fr@example.org"), wait=0)
        assert not again.sent and len(smtp.received) == 2  # never twice
        bad = mail_send.send_all(tmp_path, _cfg(smtp), "wrong", wait=0)  # nothing unsent: no login tried
        assert not bad.failed
        _drafts(tmp_path, 3)
        (tmp_path / "commout" / "broken.eml").write_bytes(b"Subject: no recipient\r\n\r\nhello\r\n")
        bad = mail_send.send_all(tmp_path, _cfg(smtp), "wrong", wait=0)
        assert [(lbl, "535" in why or "names no recipient" in why) for lbl, why in bad.failed] == [
            ("commout/Game_1805-03_naval_FR.pbm.eml", True), ("commout/broken.eml", True)], bad.failed
        assert len(smtp.received) == 2
    finally:
        smtp.stop()


def test_a_dropped_connection_loses_no_file(tmp_path):
    smtp = Smtp(None)
    try:
        _drafts(tmp_path, 1)
        smtp.drop = 1  # dropped once mid-send: the second try goes through
        rep = mail_send.send_all(tmp_path, _cfg(smtp), password("fr@example.org"), tries=3, wait=0)
        assert len(rep.sent) == 1 and len(smtp.received) == 1
        assert rep.retries == 1 and rep.sent[0][2] == 2 and "SMTPServerDisconnected" in rep.sent[0][3], rep.sent
        _drafts(tmp_path, 2)  # a second file
        smtp.drop = 5  # dropped on every try: left unsent, one sentence
        rep = mail_send.send_all(tmp_path, _cfg(smtp), password("fr@example.org"), tries=3, wait=0)
        assert not rep.sent and len(rep.failed) == 1 and smtp.drop == 2
        label, why = rep.failed[0]
        assert label.endswith("1805-02_naval_FR.pbm.eml") and "left for the next try" in why and "\n" not in why
        smtp.drop = 0
        rep = mail_send.send_all(tmp_path, _cfg(smtp), password("fr@example.org"), tries=3, wait=0)
        assert [x[0] for x in rep.sent] == ["commout/Game_1805-02_naval_FR.pbm.eml"] and len(smtp.received) == 2
    finally:
        smtp.stop()


def test_temporary_and_permanent_refusals(tmp_path):
    smtp = Smtp(None)
    try:
        _drafts(tmp_path, 1)
        smtp.refuse = 2  # 451 for both recipients of the first try, then accepted
        rep = mail_send.send_all(tmp_path, _cfg(smtp), password("fr@example.org"), tries=2, wait=0)
        assert len(rep.sent) == 1 and not rep.failed
        _drafts(tmp_path, 2)
        smtp.refuse, smtp.refuse_text = 10, "550-5.1.1 mailbox unavailable\r\n550 5.1.1 see https://example.org/a/very/long/explanation"
        rep = mail_send.send_all(tmp_path, _cfg(smtp), password("fr@example.org"), tries=3, wait=0)
        assert not rep.sent and smtp.refuse == 8  # permanent: not tried again
        why = rep.failed[0][1]
        assert "550" in why and "mailbox unavailable" in why and "long/explanation" not in why
        code, out = run(tmp_path, "mail", "send", "--mark-sent")  # no game here: a clear sentence
        assert code == 1 and "no mail set-up" in out
    finally:
        smtp.stop()


# ----------------------------------------------------------------- fetching


def test_fetch_before_joining_takes_only_the_games_gamestart_and_key(tmp_path, servers):
    dove, smtp = servers
    code, out = run(tmp_path, *setup_args("fr@example.org", "Player FR", smtp, dove))
    assert code == 0, out
    code, out = run(tmp_path, "mail", "fetch", env={mail_config.PASSWORD_ENV: password("fr@example.org")})
    assert code == 1 and "--join GAME" in out  # no game here yet
    _mail_with(dove, "fr@example.org", {f"{GAME}_gamestart.pbm": b"not a gamestart at all", "holiday.jpg": b"\xff\xd8"})
    _mail_with(dove, "fr@example.org", {"Other_gamestart.pbm": b"x", "../../evil.pbm": b"x"})
    code, out = run(tmp_path, "mail", "fetch", "--join", GAME, env={mail_config.PASSWORD_ENV: password("fr@example.org")})
    assert code == 0 and "fetched" not in out and "no gamestart of Jena has arrived yet" in out, out
    assert out.count("ignored") == 4 and not (tmp_path / "commin").exists()
    assert all("\\Seen" not in f for f in dove.flags("fr@example.org"))  # left unread
    code, out = run(tmp_path, "mail", "fetch", "--join", GAME, env={mail_config.PASSWORD_ENV: "wrong"})
    assert code == 1 and "refused the login" in out and "Traceback" not in out


def _mail_with(dove: Dovecot, to: str, files: dict, subject: str = "EiA Jena: files") -> None:
    from email.message import EmailMessage

    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "someone@example.org", to, subject
    msg.set_content("files")
    for name, data in files.items():
        msg.add_attachment(data, maintype="application", subtype="octet-stream", filename=name)
    dove.append(to, msg.as_bytes())


@pytest.mark.slow
def test_fetch_saves_only_good_files_of_this_game_and_leaves_the_rest_unread(game, template, tmp_path, run_cli):
    homes, dove, smtp = game
    s = Session.open(homes["RU"], GAME, "RU", pw("RU"))
    from eiapbem.client import setups

    setups.load_setup(s, "default")
    path = s.end_phase()  # Russia's setup (4.2.2 step 4): a turn file for FR and GB
    good = path.read_bytes()
    forged = bytearray(good)
    forged[-10] ^= 1  # the signature no longer matches
    other = make_game(tmp_path / "other", run_cli, join=False)
    foreign = (other["homes"]["RU"] / "commout" / f"{GAME}_gamestart.pbm").read_bytes()  # same name, another game
    _mail_with(dove, "fr@example.org", {path.name: bytes(forged)}, "forged")
    _mail_with(dove, "fr@example.org", {f"{GAME}_gamestart.pbm": foreign, "notes.txt": b"hello"}, "foreign")
    _mail_with(dove, "fr@example.org", {path.name: good}, "good")
    code, out = run(homes["FR"], "mail", "fetch", env=env_of("FR"))
    assert code == 0, out
    assert f"fetched commin/{path.name}" in out and "forged or damaged" in out and "another game" in out
    assert f"ignored {path.name} (in 'forged' from someone@example.org): forged or damaged" in out, out  # the sender shown
    assert re.search(r"loaded \S+_setup_turn_RU\.pbm", out) or f"loaded {path.name}" in out
    flags = dove.flags("fr@example.org")
    assert len(flags) == 3 and "\\Seen" not in flags[0] and "\\Seen" not in flags[1] and "\\Seen" in flags[2]
    assert sorted(p.name for p in (homes["FR"] / "commin").iterdir() if p.suffix == ".pbm") == sorted(
        [f"{GAME}_gamestart.pbm", path.name])  # the gamestart is FR's own from joining, untouched
    assert (homes["FR"] / "commin" / f"{GAME}_gamestart.pbm").read_bytes() != foreign
    before = files_in(homes["FR"] / "save")
    code, out = run(homes["FR"], "mail", "fetch", env=env_of("FR"))
    assert code == 0 and "fetched" not in out and "loaded" not in out
    assert "forged" not in out, out  # a forged mail is said once (and looked at again in silence)
    assert files_in(homes["FR"] / "save") == before  # idempotent


# ----------------------------------------------------------------- the lateness ladder


@pytest.mark.slow
def test_a_silent_player_is_reminded_then_the_computer_plays_the_slot(game):
    homes, dove, smtp = game
    code, out = run(homes["RU"], "admin", "house-rules", "24,48,72,1", "--password", HOST_PW)
    assert code == 0 and "house rules for late players" in out, out
    s = Session.open(homes["RU"], GAME, "RU", pw("RU"))
    from eiapbem.client import setups

    setups.load_setup(s, "default")
    s.end_phase()
    ru = env_of("RU")

    def sync(now):
        return run(homes["RU"], "mail", "sync", "--once", "--now", now, "--retry-wait", "0", env=ru)

    code, out = sync("2026-01-01 00:00")
    assert code == 0, out
    awaited = Session.open(homes["RU"], GAME, "RU", pw("RU")).awaited()
    (late, slot), = awaited
    assert late in ("FR", "GB")
    assert "late:" not in out and "sent commout/" in out
    code, out = run(homes["RU"], "admin", "status", "--password", HOST_PW, env={"EIAPBEM_NOW": "2026-01-01 10:00"})
    assert f"{late} ({slot}): waiting since 2026-01-01 00:00 UTC (10 h); done: no step yet; next: reminder at 2026-01-02 00:00" in out
    code, out = sync("2026-01-02 01:00")
    assert code == 0 and f"late: {late} ({slot}), 25 h late: reminder mailed" in out, out
    received = [(rc, email.message_from_bytes(c, policy=email.policy.default)) for _, rc, c in smtp.received]
    reminder = [m for rc, m in received if "reminder" in str(m["Subject"])]
    assert len(reminder) == 1 and reminder[0]["To"].addresses[0].addr_spec == HUMANS[late]
    notice = [(rc, m) for rc, m in received if "late-notice" in str(m["Subject"])]
    assert len(notice) == 1 and sorted(notice[0][0]) == sorted(a for p, a in HUMANS.items() if p != "RU")
    assert "was reminded" in notice[0][1].get_body(("plain",)).get_content()
    code, out = run(homes["RU"], "mail", "sync", "--every", "0.05", "--max-rounds", "2", "--now", "2026-01-02 02:00", env=ru)
    assert code == 0 and "late:" not in out, out  # each step once
    assert "round 1: nothing new" in out and "round 2: nothing new" in out and "round 3" not in out
    code, out = sync("2026-01-03 01:00")
    assert f"late: {late} ({slot}), 49 h late:" in out and "admin file" in out, out
    code, out = sync("2026-01-04 01:00")
    assert f"late: {late} ({slot}), 73 h late: the computer played the slot" in out, out
    host = Session.open(homes["RU"], GAME, "RU", pw("RU"))
    kinds = [(e.kind, dict(e.params).get("step")) for e in host.journal() if e.kind.startswith("admin.")]
    assert kinds[-5:] == [("admin.late-notice", "reminder"), ("admin.late-notice", "reminder-all"),
                          ("admin.late-notice", "ai-play"), ("admin.ai-play", None), ("admin.late-notice", "seat-offered")]
    played = [(rc, email.message_from_bytes(c, policy=email.policy.default)) for _, rc, c in smtp.received]
    played = [(rc, m) for rc, m in played if "ai-play" in str(m["Subject"])]
    assert len(played) == 1 and sorted(played[0][0]) == sorted(a for p, a in HUMANS.items() if p != "RU")
    body = played[0][1].get_body(("plain",)).get_content()
    assert "the computer (ai-medium) played the slot" in body and "offered to a replacement" in body
    code, out = run(homes["RU"], "admin", "status", "--password", HOST_PW, env={"EIAPBEM_NOW": "2026-01-04 02:00"})
    assert code == 0 and "seat offered after 1 missed slot(s)" in out, out
    assert (late, slot) not in host.awaited()
    # The player's folder gets every step in its log by mail alone.
    code, out = run(homes[late], "mail", "fetch", env=env_of(late))
    assert code == 0, out
    mine = Session.open(homes[late], GAME, late, pw(late))
    assert [dict(e.params).get("step") for e in mine.journal() if e.kind == "admin.late-notice"] == [
        "reminder", "reminder-all", "ai-play", "seat-offered"]
    assert mine.state.state_hash() == host.state.state_hash()


@pytest.mark.slow
def test_reminders_by_mail_only_leave_the_late_slot_and_its_dice_alone(game):
    homes, dove, smtp = game
    code, out = run(homes["RU"], "admin", "house-rules", "1,2,0,0", "--password", HOST_PW)
    assert code == 0, out
    s = Session.open(homes["RU"], GAME, "RU", pw("RU"))
    from eiapbem.client import setups

    setups.load_setup(s, "default")
    s.end_phase()
    ru = env_of("RU")
    for now in ("2026-01-01 00:00", "2026-01-01 03:00"):
        code, out = run(homes["RU"], "mail", "sync", "--once", "--reminders-by-mail", "--now", now, "--retry-wait", "0", env=ru)
        assert code == 0, out
    assert "reminder mailed; mailed to all (reminders by mail only" in out and sum(line.startswith("late:") for line in out.splitlines()) == 2, out
    host = Session.open(homes["RU"], GAME, "RU", pw("RU"))
    assert not any(e.kind == "admin.late-notice" for e in host.journal())  # the chain did not move
    subjects = [str(email.message_from_bytes(c, policy=email.policy.default)["Subject"]) for _, _, c in smtp.received]
    assert sum("reminder" in x for x in subjects) == 1 and sum("late player" in x for x in subjects) == 2


@pytest.mark.slow
def test_a_backup_set_travels_by_mail(game):
    homes, dove, smtp = game
    code, out = run(homes["RU"], "admin", "backup", "--password", HOST_PW)
    assert code == 0, out
    code, out = run(homes["RU"], "mail", "send", "--retry-wait", "0", env=env_of("RU"))
    assert code == 0 and "Jena_backup_forplayer_France.sav.eml" in out, out
    name = "Jena_backup_forplayer_France.sav"
    code, out = run(homes["FR"], "mail", "fetch", env=env_of("FR"))
    assert code == 0 and f"fetched save/{name} (+ .dat)" in out and "GreatBritain" not in out, out
    assert (homes["FR"] / "save" / name).read_bytes() == (homes["RU"] / "save" / name).read_bytes()
    code, out = run(homes["FR"], "load-backup", f"save/{name}", "--password", pw("FR"))
    assert code == 0 and "is at backup epoch 1" in out, out
    assert Session.open(homes["FR"], GAME, "FR", pw("FR")).contents.chain.epoch == 1
    code, out = run(homes["FR"], "mail", "fetch", env=env_of("FR"))
    assert "fetched" not in out  # fetching twice changes nothing


# ----------------------------------------------------------------- hostile attachments (issue 29 item 1)


@pytest.mark.slow
def test_fetch_and_sync_of_damaged_crafted_and_member_signed_files_never_crash_or_block(game):
    """Mail brings what anyone can send: damaged copies of a real file, files with no valid key (a header
    nested thousands deep, huge numbers, long strings, other types), and files France's own fellow member
    Russia sealed with its real key around hostile bodies.  'mail fetch' and 'mail sync' refuse or leave each
    in one sentence, never crash, load none, and the real file still loads."""
    import random
    from types import SimpleNamespace

    import attackkit
    from eiapbem.client import setups
    from eiapbem.client.session import open_identity
    from eiapbem.pbem import envelope

    homes, dove, smtp = game
    s = Session.open(homes["RU"], GAME, "RU", pw("RU"))
    setups.load_setup(s, "default")
    path = s.end_phase()
    good = path.read_bytes()
    rng = random.Random(29)
    ids = SimpleNamespace(ids={"RU": open_identity(homes["RU"], GAME, "RU", pw("RU")),
                               "FR": open_identity(homes["FR"], GAME, "FR", pw("FR")),
                               "GB": open_identity(homes["GB"], GAME, "GB", pw("GB")),
                               "host": open_identity(homes["RU"], GAME, "host", HOST_PW)})
    gid = envelope.parse(good).header.gid
    bad = [attackkit.damage(rng, good, good) for _ in range(60)]
    bad += [attackkit.crafted(rng, gid)[1] for _ in range(40)]
    mutants = []
    while len(mutants) < 30:
        data, harmless = attackkit.member_mutant(ids, rng, path, "RU", reader="FR")
        if not harmless:
            mutants.append(data)
    bad += mutants
    for i in range(0, len(bad), 10):
        _mail_with(dove, "fr@example.org", {f"{GAME}_1805-01_setup_turn_RU{i + j}.pbm": d
                                            for j, d in enumerate(bad[i:i + 10])}, f"hostile {i}")
    code, out = run(homes["FR"], "mail", "fetch", env=env_of("FR"))
    assert "Traceback" not in out and "internal error" not in out, out[-3000:]
    assert "loaded " not in out, out[-3000:]
    assert all(len(line) < 1000 for line in out.splitlines())
    code, out = run(homes["FR"], "mail", "sync", "--once", "--retry-wait", "0", env=env_of("FR"))
    assert "Traceback" not in out and "internal error" not in out and "loaded " not in out, out[-3000:]
    before = Session.open(homes["FR"], GAME, "FR", pw("FR")).state.state_hash()
    _mail_with(dove, "fr@example.org", {path.name: good}, "good")
    code, out = run(homes["FR"], "mail", "sync", "--once", "--retry-wait", "0", env=env_of("FR"))
    assert code == 0 and f"loaded {path.name}" in out, out[-3000:]
    after = Session.open(homes["FR"], GAME, "FR", pw("FR")).state.state_hash()
    assert after != before and after == s.state.state_hash()


def test_the_reminder_says_one_hour_in_the_singular():
    from eiapbem.host import lateness

    assert [lateness._hours(n) for n in (1, 2, 25)] == ["1 hour", "2 hours", "25 hours"]
