"""``eiapbem bench view``: how fast the view starts and answers a click (issue 34), as printed figures.

On a hot-seat classic-1805 game in a temporary folder (weak key hash, so no figure holds the password's cost),
played with the shipped setups to France's first land slot with France and Austria at war:

- ``eiapbem status`` in a fresh process, and ``eiapbem view --no-browser`` in a fresh process until its first
  answer (the page's ``api/status``): the view should start in at most twice the time of ``status``;
- a click that moves a corps: the page's ``api/do/order`` of a ``land move`` answered (aim: 200 ms on two cores),
  and the same with the documents the page reads again after it (status, map, orders, months).

Each figure is the best of N runs; the move is taken back (``restart``) between runs, untimed.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from eiapbem.pbem.bench import best_of

GAME = "Bench"
WEAK = "10,1,1"
MOVE = {"kind": "land.move", "values": {"unit": "corps:FR:V", "path": "freiburg,swabia,innsbruck"}}


@dataclass(frozen=True)
class Figure:
    what: str
    seconds: float


def _game(home: Path) -> None:
    from eiapbem.client import newgame, setups
    from eiapbem.client.session import Session
    from eiapbem.core.powers import POWERS
    from eiapbem.rules.model import Phase

    players = [newgame.Player(p, f"Player {p}", f"{p.lower()}@example.org", "host" if p == "RU" else "hotseat")
               for p in POWERS]
    newgame.new_game(home, GAME, "classic-1805", players, bids={}, options=newgame.options_from_flags(["pbem-quick-combat"]),
                     passwords={p: "pw" for p in POWERS}, host_password="pw-host", wars=[("FR", "AU")])
    while True:
        ru = Session.open(home, GAME, "RU", "pw")
        slot = ru.state.slot
        assert slot is not None, "the bench game ended before France's land slot"
        if slot.phase is Phase.LAND and slot.power == "FR":
            return
        for p, _ in ru.awaited():
            s = Session.open(home, GAME, p, "pw")
            if slot.phase is Phase.SETUP:
                setups.load_setup(s, "default")
            s.end_phase()


def _post(url: str, body: dict) -> dict:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"},
                                 method="POST")
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.loads(r.read())


def _get(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=60) as r:
        return json.loads(r.read())


def _view_start(home: Path, env: dict) -> float:
    """A fresh ``eiapbem view --no-browser`` process until it answers the page's first request."""
    t0 = time.perf_counter()
    p = subprocess.Popen([sys.executable, "-m", "eiapbem", "--home", str(home), "view", "--no-browser", "--power", "FR",
                          "--password", "pw"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
    try:
        assert p.stdout is not None
        line = p.stdout.readline()
        url = line.split(" at ", 1)[1].strip()
        _get(url + "api/status")
        return time.perf_counter() - t0
    finally:
        p.terminate()
        p.wait(10)


def run(repeat: int = 5) -> list[Figure]:
    from eiapbem.client import session
    from eiapbem.view import app, server

    env = dict(os.environ)
    env[session.TEST_SCRYPT_ENV] = WEAK
    old = os.environ.get(session.TEST_SCRYPT_ENV)
    os.environ[session.TEST_SCRYPT_ENV] = WEAK
    try:
        with tempfile.TemporaryDirectory(prefix="eiapbem-bench-view-") as tmp:
            home = Path(tmp)
            _game(home)
            args = [sys.executable, "-m", "eiapbem", "--home", str(home), "status", "--power", "FR", "--password", "pw"]
            t_status = best_of(lambda: subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                                      check=True, env=env), repeat)
            t_view = min(_view_start(home, env) for _ in range(repeat))
            v = app.View(home, GAME, session.open_identity(home, GAME, "FR", "pw"))
            srv = server.make_server(v, 0)
            import threading

            th = threading.Thread(target=srv.serve_forever, kwargs={"poll_interval": 0.1}, daemon=True)
            th.start()
            try:
                _get(srv.url + "api/status")  # the view's first answers (the map's geometry) are not the click's
                _get(srv.url + "api/map")
                moves, reloads = [], []
                for _ in range(repeat):
                    t0 = time.perf_counter()
                    out = _post(srv.url + "api/do/order", MOVE)
                    t1 = time.perf_counter()
                    for name in ("status", "map", "orders", "months"):
                        _get(srv.url + "api/" + name)
                    t2 = time.perf_counter()
                    assert any("moves to innsbruck" in e for e in out["events"]), out
                    moves.append(t1 - t0)
                    reloads.append(t2 - t0)
                    _post(srv.url + "api/do/restart", {})
            finally:
                srv.shutdown()
                srv.server_close()
    finally:
        if old is None:
            os.environ.pop(session.TEST_SCRYPT_ENV, None)
        else:
            os.environ[session.TEST_SCRYPT_ENV] = old
    return [Figure("eiapbem status (a fresh process, without the password's cost)", t_status),
            Figure("eiapbem view --no-browser until its first answer (a fresh process)", t_view),
            Figure("a click that moves a corps: the order answered", min(moves)),
            Figure("the same and the page's documents read again (status, map, orders, months)", min(reloads))]
