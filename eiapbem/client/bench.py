"""Timings of a real game for ``eiapbem bench game`` (a benchmark that prints figures, not a test).

Everything runs in a temporary folder on a classic-1805 game with the default
setups (5.2.2): a host folder (Russia and four hot-seat powers) and two client
folders (France, Great Britain), as players use them.  The key files are sealed
with weak scrypt parameters so the password hash (measured by ``eiapbem bench
files``) does not hide the figures of the game itself.

"Load and verify one turn file" times ``Session.load_all`` (what ``eiapbem
load`` does once the session is open) with exactly that file in ``commin/``:
every check (signature, chain, dice, the replay of its actions, the state hash
compared) and the one durable save.  The fourteen setup turn files (20-50
actions each, the heaviest turn files of a game) are loaded by the two folders
that did not write them; the game is played ``--repeat`` times and the best
median shown, beside its CPU time and the machine's load average.
"""

from __future__ import annotations

import os
import shutil
import statistics
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable

from eiapbem.data import world
from eiapbem.pbem.bench import best_of as _best
from eiapbem.data.context import rules_context
from eiapbem.rules import engine
from eiapbem.core.dice import Dice
from eiapbem.rules.model import POWERS, GameState, Phase, Slot
from eiapbem.rules.model.slot import ORDERS
from eiapbem.rules.scenario import initial_state
from eiapbem.rules.sequence import SETUP_ORDER

from . import newgame, setups
from .session import TEST_SCRYPT_ENV, Session

GAME = "Bench"


@dataclass(frozen=True)
class Figure:
    what: str
    value: float
    unit: str


def set_up_state() -> tuple[GameState, int]:
    """The classic-1805 state after every default setup, and the number of setup actions of France."""
    ctx = rules_context(Dice(b"bench"))
    st = initial_state(world.load_scenario("classic-1805"), world.load_raw())
    n_fr = 0
    for p in SETUP_ORDER:
        acts = setups.default_actions("classic-1805", p)
        n_fr = len(acts) if p == "FR" else n_fr
        st = engine.end_slot(engine.apply_actions(st, p, acts, ctx).state, p, ctx).state
    return st, n_fr


def rules_figures(repeat: int) -> list[Figure]:
    ctx = rules_context(Dice(b"bench"))
    st = initial_state(world.load_scenario("classic-1805"), world.load_raw())
    for p in SETUP_ORDER[: SETUP_ORDER.index("FR")]:
        st = engine.end_slot(engine.apply_actions(st, p, setups.default_actions("classic-1805", p), ctx).state, p, ctx).state
    fr = setups.default_actions("classic-1805", "FR")
    t = _best(lambda: engine.apply_actions(st, "FR", fr, ctx), repeat)
    out = [Figure(f"setup of France: {len(fr)} actions applied", len(fr) / t, "actions/s"),
           Figure("setup of France: whole replay", t * 1000, "ms")]
    full, _ = set_up_state()
    econ = full.replace(date=full.date.plus(2), slot=Slot(Phase.ECONOMIC, ORDERS, None, POWERS))
    t = _best(lambda: engine.resolve_slot(econ, {p: [] for p in POWERS}, ctx), repeat)
    out.append(Figure("economic phase resolved (seven powers, no orders)", t * 1000, "ms"))
    from eiapbem import ai
    from eiapbem.rules.model import PlayerKind

    hard = st.with_power("FR", controller=PlayerKind.AI_HARD)
    t = _best(lambda: ai.play_slot(hard, "FR", ctx, setup=fr), repeat)
    out.append(Figure("AI (ai-hard) plays one slot: France's setup", t * 1000, "ms"))
    econ_ai = econ.with_power("FR", controller=PlayerKind.AI_HARD)
    t = _best(lambda: ai.orders(econ_ai, "FR", ctx), repeat)
    out.append(Figure("AI (ai-hard) gives its economic orders", t * 1000, "ms"))
    land = full.replace(slot=Slot(Phase.LAND, "turn", "FR", ("FR",)))
    listed = engine.legal_actions(land, "FR", ctx)
    t = _best(lambda: engine.legal_actions(land, "FR", ctx), repeat)
    out.append(Figure(f"legal actions of France's land slot after the setup ({len(listed)} listed)", t * 1000, "ms"))
    t = _best(lambda: engine.has_choice(land, "FR", ctx), repeat)
    out.append(Figure("has France a choice in that slot (stops at the first legal action)", t * 1000, "ms"))
    naval = full.replace(slot=Slot(Phase.NAVAL, "turn", "PR", ("PR",)))
    t = _best(lambda: engine.has_choice(naval, "PR", ctx), repeat)
    out.append(Figure("has Prussia a choice in its naval slot (none: no fleet)", t * 1000, "ms"))
    from eiapbem.rules.model.state import forget

    data = full.encode()
    # forget(): the first encode or decode of a state in a process, without the memos (docs/decisions.md
    # "File pipeline speed"); then a state one change away from a remembered one, as in play.
    def unseen(fn: Callable[[], Any]) -> Callable[[], Any]:
        def run() -> Any:
            forget()
            return fn()
        return run

    out.append(Figure("state encode (a state not seen before)", _best(unseen(full.encode), repeat) * 1000, "ms"))
    out.append(Figure("state decode (full validation, bytes not seen before)",
                      _best(unseen(lambda: GameState.decode(data)), repeat) * 1000, "ms"))
    out.append(Figure("state hash (encode + SHA-256, a state not seen before)",
                      _best(unseen(full.state_hash), repeat) * 1000, "ms"))
    full.encode()
    treasury = full.powers["FR"].treasury
    out.append(Figure("state hash after one change (one power's treasury)",
                      _best(lambda: full.with_power("FR", treasury=treasury + 1).state_hash(), repeat) * 1000, "ms"))
    out.append(Figure("state size after setup", len(data) / 1024, "KiB"))
    return out


def game_figures(repeat: int) -> list[Figure]:
    """End-phase and load times through the sessions of three real folders (the game played ``repeat`` times, best kept)."""
    old = os.environ.get(TEST_SCRYPT_ENV)
    os.environ[TEST_SCRYPT_ENV] = "10,1,1"
    try:
        runs = []
        for _ in range(max(1, repeat)):
            with tempfile.TemporaryDirectory(prefix="eiapbem-bench-") as tmp:
                runs.append(_game_times(Path(tmp)))
    finally:
        if old is None:
            os.environ.pop(TEST_SCRYPT_ENV, None)
        else:
            os.environ[TEST_SCRYPT_ENV] = old
    ends = min(sum(r.ends) / len(r.ends) for r in runs)
    mean = min(sum(r.loads) / len(r.loads) for r in runs)
    median = min(statistics.median(r.loads) for r in runs)
    cpu = min(statistics.median(r.cpu) for r in runs)
    n = len(runs[0].loads)
    best = f"best of {len(runs)} games" if len(runs) > 1 else "one game"
    return [Figure("end-phase of a setup slot (replay, seal, save)", ends * 1000, "ms"),
            Figure("load and replay of one setup turn file (mean)", mean * 1000, "ms"),
            Figure(f"load and verify one turn file, median of {n}, {best} ('eiapbem load', all checks, one save)",
                   median * 1000, "ms"),
            Figure("load and verify one turn file: its CPU time (the rest waits for the disk or the CPU)",
                   cpu * 1000, "ms"),
            Figure("load average (1 min) at the end (a busy machine makes every time longer)",
                   os.getloadavg()[0] if hasattr(os, "getloadavg") else 0.0, "")]


@dataclass
class _Times:
    ends: list[float]
    loads: list[float]
    cpu: list[float]


def _game_times(tmp: Path) -> _Times:
    """A classic-1805 setup by three folders: each turn file copied into the other folders' ``commin/`` and loaded.

    Each load is timed alone: the session is open (its password and save opening are
    not timed) and ``commin/`` holds only the file loaded, as when a player clears it
    (the loaded files stay in ``commin/done/``).
    """
    host, homes = tmp / "host", {}
    clients = ("FR", "GB")
    players = [newgame.Player(p, f"Player {p}", f"{p.lower()}@example.org",
                              "client" if p in clients else ("host" if p == "RU" else "hotseat")) for p in POWERS]
    pw = {p: f"pw-{p}" for p in POWERS}
    made = newgame.new_game(host, GAME, "classic-1805", players, bids={}, options=newgame.options_from_flags([]),
                            passwords={p: pw[p] for p in POWERS if p not in clients}, host_password="pw-host")
    for p in clients:
        homes[p] = tmp / p
        homes[p].mkdir()
        newgame.join(homes[p], made.gamestart, p, made.one_time[p], pw[p], f"{p.lower()}@example.org",
                     key_file=host / "commout" / f"{GAME}_{p}.key")
    for p in POWERS:
        homes.setdefault(p, host)
    out = _Times([], [], [])
    for p in SETUP_ORDER:
        s = Session.open(homes[p], GAME, p, pw[p])
        setups.load_setup(s, "default")
        t = time.perf_counter()
        path = s.end_phase()
        out.ends.append(time.perf_counter() - t)
        for q, h in (("RU", host),) + tuple((c, homes[c]) for c in clients):
            if h == homes[p]:
                continue
            shutil.copy(path, h / "commin" / path.name)
            r = Session.open(h, GAME, q, pw[q])
            t, c = time.perf_counter(), time.process_time()
            rep = r.load_all()
            out.loads.append(time.perf_counter() - t)
            out.cpu.append(time.process_time() - c)
            assert [n for n, _ in rep.loaded] == [path.name] and not rep.refused, rep.refused
            (h / "commin" / path.name).unlink()  # loaded: kept in commin/done/
    return out


def run(repeat: int = 3) -> list[Figure]:
    return rules_figures(repeat) + game_figures(repeat)


__all__ = ["Figure", "game_figures", "rules_figures", "run", "set_up_state"]
