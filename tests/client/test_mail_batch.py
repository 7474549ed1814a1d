"""The files of a run in one message (issue 33 item 4): the host's folder mails the files it wrote one after the
other, for the same players, as one message in chain order, and every client loads them in order however they
arrive.

The game: Russia hosts, Turkey plays hot-seat at the host's computer, Austria is an email client, the other powers
are the computer's.  The setup goes RU, TU, AU (5.3): the host's folder writes Russia's and Turkey's files one after
the other, and Austria's turn comes only when both are in.
"""

from __future__ import annotations

import email
import email.policy

from eiapbem.client import audit, mail_config, mail_send, setups
from eiapbem.client.session import Session
from eiapbem.rules.model import POWERS
from mailkit import Smtp, password
from sevenfolders import GAME, new_by_api, pw, seven_homes


def _cfg(smtp: Smtp) -> mail_config.MailConfig:
    return mail_config.MailConfig("ru@example.org", "Player RU", "ru@example.org", "127.0.0.1", smtp.port, "none",
                                  "127.0.0.1", 1, "none")


def test_the_hosts_run_of_files_goes_as_one_message_and_loads_in_chain_order(tmp_path, monkeypatch):
    from eiapbem.client.session import TEST_SCRYPT_ENV

    monkeypatch.setenv(TEST_SCRYPT_ENV, "10,1,1")
    homes = seven_homes(tmp_path)
    types = {p: "host" if p == "RU" else "hotseat" if p == "TU" else "client" if p == "AU" else "ai-medium" for p in POWERS}
    new_by_api(homes, types, passwords={"RU": pw("RU"), "TU": pw("TU")})
    smtp = Smtp(None)
    try:
        host = Session.open(homes["RU"], GAME, "RU", pw("RU"))
        mail_send.mark_all_sent(homes["RU"], host)  # the gamestart and Austria's key went by hand
        for p in ("RU", "TU"):  # the host's folder plays both setups, one after the other
            s = Session.open(homes["RU"], GAME, p, pw(p))
            setups.load_setup(s, "default")
            s.end_phase()
        host = Session.open(homes["RU"], GAME, "RU", pw("RU"))
        rep = mail_send.send_all(homes["RU"], _cfg(smtp), password("ru@example.org"), host, wait=0, batch=True)
        assert not rep.failed and len(rep.sent) == 1 and len(smtp.received) == 1, rep
        again = mail_send.send_all(homes["RU"], _cfg(smtp), password("ru@example.org"), host, wait=0, batch=True)
        assert not again.sent and len(smtp.received) == 1  # each file once
    finally:
        smtp.stop()
    msg = email.message_from_bytes(smtp.received[0][2], policy=email.policy.default)
    names = [p.get_filename() for p in msg.iter_attachments()]
    # in the chain's order (Russia's file carries the gamestart too, for the players who join late)
    assert names == [f"{GAME}_gamestart.pbm", f"{GAME}_1805-01_setup_turn_RU.pbm", f"{GAME}_1805-01_setup_turn_TU.pbm"]
    ledger = mail_send.sent_ledger(homes["RU"]).data["sent"]
    assert sorted(len(e["batch"]) for e in ledger.values() if "batch" in e) == [2, 2]  # both drafts, one message
    # Austria's folder takes them in the wrong order: its load puts them in the chain's.
    au = Session.open(homes["AU"], GAME, "AU", pw("AU"))
    for part in reversed(list(msg.iter_attachments())):
        if "setup" in part.get_filename():
            (homes["AU"] / "commin" / part.get_filename()).write_bytes(part.get_payload(decode=True))
    rep = au.load_all()
    assert rep.refused == [] and [slot for _, slot in rep.loaded] == ["1805-01/setup/turn/RU", "1805-01/setup/turn/TU"]
    assert au.state.state_hash() == Session.open(homes["RU"], GAME, "RU", pw("RU")).state.state_hash()
    assert au.state.slot.power == "AU"
    res = audit.run(homes["AU"], GAME, au.me)  # the audit re-verifies the files that came in one message
    assert res.verified and res.files == 2, res.lines()
