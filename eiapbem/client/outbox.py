"""The outbox: files going out to the other players, and their email drafts (4.2.5, 000:162).

A file being sent is first kept in the save (``GameData.outbox``), then written
to ``commout/`` with an ``.eml`` draft, then cleared from the save: a crash in
between loses nothing, and ``flush_outbox`` (run when the save is opened)
writes it again.
"""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from eiapbem.pbem import folders
from eiapbem.rules.model import POWERS

from . import inbox
from .store import Store

if TYPE_CHECKING:  # the email modules (~0.1 s to import) are loaded only when a draft is written (issue 15: status)
    from eiapbem.pbem.email import Person


class Outbox(Store):
    """Drafts and sending."""

    def send(self, name: str, data: bytes, what: str) -> Path:
        """Put a file kept in the save's outbox into commout/ with its draft, then clear the outbox."""
        path = self.folders.commout / name
        self.folders.put(self.folders.commout, name, data)
        inbox.keep_sent(self.folders, name, data)  # for 'eiapbem audit' (issue 20)
        self._draft(path, what)
        self.data = replace(self.data, outbox={})  # written: a player may now clear commout/ freely
        self.save()
        return path

    def flush_outbox(self) -> Path | None:
        """Write the last turn file again if the save has it but commout/ does not (a crash in between)."""
        box = self.data.outbox
        if not box:
            return None
        path = self.folders.commout / box["name"]
        if not path.is_file():
            return self.send(box["name"], box["data"], box["what"])
        if not path.with_name(path.name + ".eml").exists():
            self._draft(path, box["what"])  # a crash between the file and its draft (issue 20)
        self.data = replace(self.data, outbox={})
        self.save()
        return path

    def _draft(self, path: Path, what: str) -> Path | None:
        """An email draft to every player not at this computer (4.2.5, 000:162)."""
        from eiapbem.pbem.email import Person, subject_for, write_draft

        meta = self.data.meta
        me = Person(meta["host"]["name"], meta["host"]["email"]) if self.power == "host" else self.person(self.power)
        to = [self.person(p) for p in POWERS if p not in self.local and meta["players"][p]["type"] in ("client", "host")]
        if "host" not in self.local:
            host_power = next((p for p in POWERS if meta["players"][p]["type"] == "host"), None)
            if host_power is None and Person(meta["host"]["name"], meta["host"]["email"]) not in to:
                to.append(Person(meta["host"]["name"], meta["host"]["email"]))
        if not to:
            return None
        extra = []
        gs = self.folders.commout / folders.gamestart_name(self.game)
        if "host" in self.local and self.state.slot is not None and what.endswith("/setup/turn/RU") and gs.is_file():
            extra.append(gs)  # 4.2.2 step 4 (000:104): the host's Russian setup goes out with the gamestart
        return write_draft(path, me, to, subject_for(self.game, what), extra)

    def person(self, power: str) -> Person:
        from eiapbem.pbem.email import Person

        row = self.data.meta["players"][power]
        return Person(row["name"], row["email"])
