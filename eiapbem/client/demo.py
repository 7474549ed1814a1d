"""``eiapbem demo``: a hot-seat game (4.2.1) in a temporary folder, played for one month.

It uses only what a player uses: a new game with all seven powers at one
computer, each power's default setup (5.2.2), then every slot of the first
month ended in turn, each writing its sealed, chained turn file; the status
is printed at the end.  The keys are sealed with the normal (strong)
password hashing, so it takes some seconds.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Callable

from eiapbem.rules.model import POWERS
from eiapbem.rules.sequence import SETUP_ORDER

from . import newgame, setups
from .session import Session, open_identity
from .status import status_lines

GAME = "Demo"


def run_demo(folder: Path | None, say: Callable[[str], None]) -> Path:
    home = Path(folder) if folder else Path(tempfile.mkdtemp(prefix="eiapbem-demo-"))
    home.mkdir(parents=True, exist_ok=True)
    say(f"A hot-seat game of the classic 1805 campaign in {home}")
    players = [newgame.Player(p, f"Player {p}", f"{p.lower()}@example.org", "host" if p == "RU" else "hotseat") for p in POWERS]
    pw = {p: f"demo-{p}" for p in POWERS}
    newgame.new_game(home, GAME, "classic-1805", players, bids={}, options=newgame.options_from_flags([]),
                     passwords=pw, host_password="demo-host")
    ids = {p: open_identity(home, GAME, p, pw[p]) for p in POWERS}
    sessions = {}
    for p in SETUP_ORDER:
        sessions[p] = s = Session.open_with(home, GAME, ids[p])
        n = setups.load_setup(s, "default")
        path = s.end_phase()
        say(f"  setup {p}: default setup, {n} actions -> commout/{path.name}")
    first = sessions["GB"].state.date
    while True:
        s0 = Session.open_with(home, GAME, ids["RU"])
        st = s0.state
        if st.slot is None or st.date != first:
            break
        for p in st.slot.actors:
            s = Session.open_with(home, GAME, ids[p])
            path = s.end_phase()
            say(f"  {st.slot.phase} {p}: end-phase -> commout/{path.name}")
    say("")
    for line in status_lines(Session.open_with(home, GAME, ids["SP"])):
        say(line)
    say("")
    say("The game goes on from here.  Try, for instance:")
    say(f"  eiapbem --home {home} status --power SP --password demo-SP")
    say(f"  eiapbem --home {home} show area madrid --power SP --password demo-SP")
    say(f"  eiapbem --home {home} end-phase --power AU --password demo-AU")
    say("Each power's password is demo-<POWER>; the host's is demo-host.")
    return home
