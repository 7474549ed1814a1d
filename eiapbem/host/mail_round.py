"""One round of ``eiapbem mail sync``: fetch and load, the host's ladder, send; each half goes on without the other.

A round fetches and loads the others' files, applies the host's lateness
ladder (in the host's folder) and sends what is due.  When the IMAP server
cannot be reached the round still loads what ``commin/`` holds and sends; when
the SMTP server cannot, what was fetched is still loaded and the unsent files
wait for the next round.  The ladder is not applied in a round that could not
fetch: a player's file may be waiting in the mailbox, and an outage of the
host's mail is no reason to play that player's slot.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from eiapbem.client import mail, mail_fetch, mail_send
from eiapbem.client.mail_config import MailConfig, MailError


@dataclass
class Round:
    fetch: mail_fetch.FetchReport = field(default_factory=mail_fetch.FetchReport)
    #: Why nothing could be fetched ("" when the fetch ran).
    fetch_error: str = ""
    load: mail.LoadReport = field(default_factory=mail.LoadReport)
    late: list = field(default_factory=list)
    told: list = field(default_factory=list)
    send: mail_send.SendReport = field(default_factory=mail_send.SendReport)
    #: Why nothing could be sent ("" when sending ran).
    send_error: str = ""
    #: The ladder was not applied this round (the fetch failed).
    ladder_held: bool = False

    def failed(self) -> bool:
        """Something is not done that the player must know of: rc 1 (a file only early is not a failure)."""
        return bool(self.fetch_error or self.send_error or self.send.failed or self.load.refused
                    or any(b[4] == "failed" for b in self.fetch.bounces))

    def empty(self) -> bool:
        return not (self.fetch.saved or self.fetch.bounces or self.fetch.ignored or self.load.loaded or self.load.refused
                    or self.load.waiting or self.load.late or self.late or self.told or self.send.sent
                    or self.send.failed or self.send.withdrawn or self.fetch_error or self.send_error)


def run(home: Path, cfg: MailConfig, password: str, session: Any, *, clock: Any = None, level: str = "ai-medium",
        log_reminders: bool = True, tries: int = 3, wait: float = 5.0, send: bool = True) -> Round:
    """One round; a server that fails is named in the round's report, never raised past it."""
    from . import lateness

    r = Round()
    try:
        r.fetch = mail_fetch.fetch(home, cfg, password, session)
    except MailError as err:
        r.fetch_error = str(err) + (f" ({err.hint})" if err.hint else "")
    r.load = mail.load_fetched(session, r.fetch)
    if session.me.role == "host":
        r.told = lateness.tell_late(session, r.load.late)
        if r.fetch_error:
            r.ladder_held = lateness.house_rules(session) is not None
        else:
            r.late = lateness.apply(session, clock or lateness.now(), level, log_reminders=log_reminders)
    if send:
        try:
            r.send = mail_send.send_all(home, cfg, password, session, tries=tries, wait=wait)
        except MailError as err:
            r.send_error = str(err) + (f" ({err.hint})" if err.hint else "")
    return r
