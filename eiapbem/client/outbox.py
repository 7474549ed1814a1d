"""The outbox: files going out to the other players, and their email drafts (4.2.5, 000:162).

A file being sent is first kept in the save (``GameData.outbox``, a ``pbem.bodies.Outbox``), then written
to ``commout/`` with an ``.eml`` draft, then cleared from the save: a crash in
between loses nothing, and ``Outbox.flush`` (run when the save is opened)
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


class Outbox:
    """Drafts and sending, for the save it is given."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def send(self, name: str, data: bytes, what: str) -> Path:
        """Put a file kept in the save's outbox into commout/ with its draft, then clear the outbox."""
        st = self.store
        path = st.folders.commout / name
        st.folders.put(st.folders.commout, name, data)
        inbox.keep_sent(st.folders, name, data)  # for 'eiapbem audit' (issue 20)
        self._draft(path, what)
        st.data = replace(st.data, outbox=None)  # written: a player may now clear commout/ freely
        st.save()
        return path

    def flush(self) -> Path | None:
        """Write the last turn file again if the save has it but commout/ does not (a crash in between)."""
        st = self.store
        box = st.data.outbox
        if box is None:
            return None
        path = st.folders.commout / box.name
        if not path.is_file():
            return self.send(box.name, box.data, box.what)
        if not path.with_name(path.name + ".eml").exists():
            self._draft(path, box.what)  # a crash between the file and its draft (issue 20)
        st.data = replace(st.data, outbox=None)
        st.save()
        return path

    def _draft(self, path: Path, what: str) -> Path | None:
        """An email draft to every player not at this computer (4.2.5, 000:162)."""
        from eiapbem.pbem.email import Person, subject_for, write_draft

        st = self.store
        meta = st.data.meta
        host = Person(meta.host.name, meta.host.email)
        me = host if st.power == "host" else self.person(st.power)
        to = [self.person(p) for p in POWERS if p not in st.local and meta.players[p].type in ("client", "host")]
        if "host" not in st.local:
            host_power = next((p for p in POWERS if meta.players[p].type == "host"), None)
            if host_power is None and host not in to:
                to.append(host)
        if not to:
            return None
        extra = []
        gs = st.folders.commout / folders.gamestart_name(st.game)
        if "host" in st.local and st.state.slot is not None and what.endswith("/setup/turn/RU") and gs.is_file():
            extra.append(gs)  # 4.2.2 step 4 (000:104): the host's Russian setup goes out with the gamestart
        return write_draft(path, me, to, subject_for(st.game, what), extra)

    def person(self, power: str) -> Person:
        from eiapbem.pbem.email import Person

        row = self.store.data.meta.players[power]
        return Person(row.name, row.email)
