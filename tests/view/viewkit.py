"""Games and a running view for the tests of ``eiapbem view`` (``tests/test_view.py``, ``tests/test_view_browser.py``).

``make_game(home, months)`` makes a hot-seat game of the seven powers (Russia hosts; every password ``pw-<POWER>``)
with France and Austria at war (a GAP selection's pre-existing war, 4.2.10), PBEM quick combat and option changes, set up with the
shipped setups and played (every slot ended, nothing else done) to the diplomacy phase of its ``months``-th month,
so the folder holds that many monthly saves.  ``running(home, power)`` serves the view of one power on a free port
of 127.0.0.1 in a thread, as ``eiapbem view`` does, for the length of a ``with``.
"""

from __future__ import annotations

import contextlib
import os
import threading
from pathlib import Path
from typing import Iterator

from eiapbem.client import newgame, setups
from eiapbem.client.session import TEST_SCRYPT_ENV, Session
from eiapbem.rules.model import POWERS, Phase

GAME = "Ulm"
WEAK = "10,1,1"


def pw(p: str) -> str:
    return f"pw-{p}"


def make_game(home: Path, months: int = 1, full_pace: bool = False) -> Path:
    """``full_pace``: every reinforcement slot played (no 13.9 skip set at the start: ``eiapbem new --option full-pace``)."""
    os.environ[TEST_SCRYPT_ENV] = WEAK
    players = [newgame.Player(p, f"Player {p}", f"{p.lower()}@example.org", "host" if p == "RU" else "hotseat")
               for p in POWERS]
    newgame.new_game(home, GAME, "classic-1805", players, bids={},
                     options=newgame.options_from_flags(["pbem-quick-combat", "allow-pbem-host-functions",
                                                                "allow-option-changes-during-game"]
                                                               + (["full-pace"] if full_pace else [])),
                     passwords={p: pw(p) for p in POWERS}, host_password="pw-host", wars=[("FR", "AU")])
    play_until(home, lambda st: st.slot.phase is Phase.DIPLOMACY and st.date.index - st.start.index >= months - 1)
    return home


def play_until(home: Path, done, *, skip: tuple[str, ...] = ()) -> None:
    """End every slot (the shipped setups placed first) until ``done(state)``; the powers in ``skip`` are left
    alone (the test plays them)."""
    idle = 0
    while True:
        ru = Session.open(home, GAME, "RU", pw("RU"))
        st = ru.state
        if st.slot is None or done(st):
            return
        waited = [p for p, _ in ru.awaited()]
        due = [p for p in waited if p not in skip]
        if waited and not due:
            return  # only the skipped powers' files are due
        if not due:  # nobody due: a slot being settled by the other program (a view) at this moment
            idle += 1
            assert idle < 50, f"nobody is due in {st.slot.key(st.date)}"
            import time

            time.sleep(0.1)
            continue
        for p in due:
            s = Session.open(home, GAME, p, pw(p))
            if st.slot.phase is Phase.SETUP:
                setups.load_setup(s, "default")
            s.end_phase()


@contextlib.contextmanager
def running(home: Path, power: str, game: str = GAME, password: str | None = None) -> Iterator[object]:
    """The view of ``power``'s game in ``home``, served on 127.0.0.1 (its ``url`` holds the token)."""
    from eiapbem.client import session
    from eiapbem.view import app, server

    os.environ[TEST_SCRYPT_ENV] = WEAK
    v = app.View(home, game, session.open_identity(home, game, power, password or pw(power)))
    v.session()
    srv = server.make_server(v, 0)
    t = threading.Thread(target=srv.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
    t.start()
    try:
        yield srv
    finally:
        srv.shutdown()
        srv.server_close()
        t.join(5)
