"""``eiapbem bench cli``: how fast the command line answers (issue 15 item 4).

Each figure is the best of N runs of a fresh process (``sys.executable -m eiapbem``),
against the bare start of an interpreter that imports the runtime
dependencies (``python -c "import click, cryptography, msgpack"``):

- ``eiapbem --help`` and the slowest ``eiapbem X --help`` over every top-level X;
- ``eiapbem status`` on a hot-seat game with a weak key hash (so the figure
  is the command without the password's cost), played in this process to its
  first land phase: with its status record current
  (``client/statusfile.py``, the usual case) and with none (the game opened);
  and the same status inside a sitting (``eiapbem shell``: the key already
  open, the modules loaded);
- the first ``eiapbem status`` in a new folder (the host's, just after
  ``eiapbem new``);
- every read-only command a player runs on that game (``READ_ONLY``): its
  status record current (with its answers and records, ``cli/answers.py``: filters, ``show reach`` and the game's
  picture ``map --svg --save`` included), each a fresh process; the host's ``admin status`` and ``admin saves``
  (``ADMIN``), from the host's record; the charts and ``files inspect`` of a turn file (``NO_GAME``) and ``map
  --svg`` (drawn, and the bare map's picture kept), which open no game; ``log -n`` past the lines the record keeps
  (read from the journal's segments);
- what a command that changed the game pays at its end, in this process: the game opened with its status and
  log, and the read-only answers and records made (``answers.precompute``), of which the game's picture and the
  reaches of every corps and fleet;
- the password's cost itself: one strong scrypt, as a key file uses.

Each figure of a fresh process also has its median wall clock and its CPU time (user + system, the least of
the N runs): on a loaded machine the wall clock of a short process varies with the other work far more than its
CPU time does.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, Callable

from eiapbem.pbem.bench import best_of


#: The read-only commands a player runs, timed on the bench game (after ``--home DIR``; each with ``--power RU
#: --password pw``): the status record's (status, log) and its answers' and records' (``cli/answers.py``), every
#: argument form: filters of ``show units``, ``economy summary --only`` and ``--seed`` (another seed's projection),
#: ``show reach`` of a corps and of a fleet (the game is in a land phase: every reach is kept in every phase).
READ_ONLY: tuple[tuple[str, ...], ...] = (
    ("status", "--json"), ("log",), ("log", "--json"), ("log", "-n", "500"),
    ("show", "power"), ("show", "power", "FR"), ("show", "power", "FR", "--json"), ("show", "area", "Paris"),
    ("show", "area", "Paris", "--json"), ("show", "area", "north-sea"), ("show", "units"), ("show", "units", "FR"),
    ("show", "units", "RU", "--json"), ("show", "units", "--kind", "corps"), ("show", "units", "--kind", "leader", "--json"),
    ("show", "units", "FR", "--area", "Paris"), ("show", "units", "--kind", "corps", "--area", "kiev", "--json"),
    ("show", "unit", "corps:RU:I"), ("show", "unit", "corps:RU:I", "--json"),
    ("show", "reach", "corps:RU:I"), ("show", "reach", "corps:RU:I", "--forced-march", "--json"),
    ("show", "reach", "fleet:RU:1"),
    ("show", "pool"), ("show", "pool", "FR", "--json"), ("show", "history"), ("show", "history", "--json"),
    ("map", "--json"), ("economy", "summary"), ("economy", "summary", "--json"), ("economy", "summary", "--only", "FR"),
    ("economy", "summary", "--only", "FR", "--json"), ("economy", "summary", "--seed", "another"),
    ("battle", "report"), ("battle", "report", "--json"),
    ("log", "-n", "1500"), ("map", "--svg", "{home}/bench-game.svg", "--save", "save/Bench.sav"),
)
#: Read-only commands that open no game (after ``--home DIR``): the charts, and the clear header of a turn file.
NO_GAME: tuple[tuple[str, ...], ...] = (("tables", "list"), ("tables", "show", "combat-resolution"),
                                        ("files", "inspect", "{turn file}"))
#: The host's read-only admin commands (after ``--home DIR``; each with the host's ``--password``), answered from the
#: host's status record (``cli/admin_cmd.py``), which the first of them writes.
ADMIN: tuple[tuple[str, ...], ...] = (("admin", "status"), ("admin", "status", "--json"), ("admin", "saves"))


@dataclass(frozen=True)
class Figure:
    what: str
    #: The best wall clock of the runs.
    seconds: float
    #: CPU seconds of the fresh process (the least of the runs); 0 where the figure is not one.
    cpu: float = 0.0
    #: The median wall clock of the runs; 0 where the figure is not one.
    median: float = 0.0


#: CPU seconds of each fresh process run since ``_timed`` cleared it.
_CPU: list[float] = []


def _children_cpu() -> float:
    try:
        import resource
    except ImportError:  # not on this system: the CPU column says 0
        return 0.0
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def _timed(what: str, fn: Callable[[], object], repeat: int) -> Figure:
    """The figure of ``fn`` (which runs one fresh process): best and median wall clock, least CPU."""
    _CPU.clear()
    walls = []
    for _ in range(repeat):
        t = time.perf_counter()
        fn()
        walls.append(time.perf_counter() - t)
    return Figure(what, min(walls), min(_CPU, default=0.0), statistics.median(walls))


def bytecode_cached() -> bool:
    """Whether a fresh process finds eiapbem's compiled bytecode (else each one compiles every module it imports)."""
    import importlib.util

    import eiapbem.rules.engine as probe

    try:
        return Path(importlib.util.cache_from_source(probe.__file__)).is_file()
    except (NotImplementedError, ValueError):
        return False


def _proc(args: list[str], env: dict | None = None, cwd: Path | None = None) -> None:
    before = _children_cpu()
    subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True, env=env, cwd=cwd)
    _CPU.append(_children_cpu() - before)


def run(repeat: int = 10, commands: tuple[str, ...] | None = None) -> list[Figure]:
    from eiapbem.cli.main import index

    py = sys.executable
    out = [_timed('bare start: python -c "import click, cryptography, msgpack"',
                  lambda: _proc([py, "-c", "import click, cryptography, msgpack"]), repeat)]
    out.append(_timed("eiapbem --help", lambda: _proc([py, "-m", "eiapbem", "--help"]), repeat))
    idx = index()
    names = commands if commands is not None else tuple(sorted(idx["commands"])) if idx else ("status",)
    slowest = max((best_of(partial(_proc, [py, "-m", "eiapbem", n, "--help"]), repeat), n) for n in names)
    out.append(Figure(f"eiapbem X --help, the slowest X ({slowest[1]})", slowest[0]))
    out.extend(_status(repeat))
    from eiapbem.pbem import crypto

    out.append(Figure(f"the password's cost: one scrypt (logn={crypto.STRONG_LOGN})",
                      best_of(lambda: crypto.scrypt_key("benchmark password", bytes(16), crypto.STRONG_LOGN,
                                                        crypto.STRONG_R, crypto.STRONG_P), 1)))
    return out


def _status(repeat: int) -> list[Figure]:
    from eiapbem.cli import mapcache
    from eiapbem.client import session, statusfile
    from eiapbem.client.status import status_record

    env = dict(os.environ)
    env[session.TEST_SCRYPT_ENV] = "10,1,1"
    old = os.environ.get(session.TEST_SCRYPT_ENV)
    os.environ[session.TEST_SCRYPT_ENV] = "10,1,1"
    try:
        with tempfile.TemporaryDirectory(prefix="eiapbem-bench-cli-") as tmp:
            home = Path(tmp)
            _land_game(home)
            args = [sys.executable, "-m", "eiapbem", "--home", str(home), "status", "--power", "RU", "--password", "pw"]
            record = statusfile.record_path(home, "Bench", "RU")

            def opening() -> None:
                record.unlink(missing_ok=True)
                _proc(args, env=env)

            t_open = _timed("the same with no status record (it opens the game, then writes the record)", opening, repeat)
            t_proc = _timed("eiapbem status without the password's cost (a fresh process, its status record current)",
                            lambda: _proc(args, env=env), repeat)
            turn = min((home / "commout").glob("*.pbm"))

            def line(cmd: tuple[str, ...]) -> list[str]:
                return [a.replace("{home}", str(home)).replace("{turn file}", str(turn)) for a in cmd]

            reads = [_timed(f"eiapbem {' '.join(cmd)}", partial(_proc, args[:5] + line(cmd) + args[6:], env=env), repeat)
                     for cmd in READ_ONLY]
            reads += [_timed(f"eiapbem {' '.join(cmd)}", partial(_proc, args[:5] + line(cmd), env=env), repeat)
                      for cmd in NO_GAME]
            host = args[:5]
            _proc(host + list(ADMIN[-1]) + ["--password", "pw-host"], env=env)  # the host's record written
            reads += [_timed(f"eiapbem {' '.join(cmd)} (the host's)", partial(_proc, host + list(cmd) + ["--password", "pw-host"],
                                                                            env=env), repeat) for cmd in ADMIN]
            svg = str(home / "bench-map.svg")

            def drawn() -> None:
                shutil.rmtree(home / mapcache.CACHE_DIR, ignore_errors=True)
                _proc(host + ["map", "--svg", svg], env=env)

            reads.append(_timed("eiapbem map --svg FILE (the map drawn, no game opened)", drawn, repeat))
            reads.append(_timed("eiapbem map --svg FILE (the bare map's picture kept from an earlier run)",
                                partial(_proc, host + ["map", "--svg", svg], env=env), repeat))
            reads += _log_past_kept(home, args, env, repeat)
            ident = session.open_identity(home, "Bench", "RU", "pw")
            t_sit = best_of(lambda: status_record(session.Session.open_with(home, "Bench", ident)), repeat)
            reads += _record_cost(home, ident, repeat)
    finally:
        if old is None:
            os.environ.pop(session.TEST_SCRYPT_ENV, None)
        else:
            os.environ[session.TEST_SCRYPT_ENV] = old
    return [t_proc, t_open, _first_status(env, repeat),
            Figure("status inside a sitting (eiapbem shell: key open, modules loaded)", t_sit), *reads]


def _log_past_kept(home: Path, args: list[str], env: dict, repeat: int) -> list[Figure]:
    """``log -n 200`` past the lines the record keeps, which a long game's ``log -n`` past the 1,000 lines kept is
    (the bench game's journal is about 200 lines): the record made keeping 50, so the 150 before them are read from
    the journal's segments (``statusfile.older_log``); then the record made again as an order makes it."""
    from eiapbem.cli import answers
    from eiapbem.cli.main import cli
    from eiapbem.client import session, statusfile

    me, file_key, stanza = session.open_identity_keyed(home, "Bench", "RU", "pw")
    kept = statusfile.LOG_KEPT
    statusfile.LOG_KEPT = 50
    try:
        statusfile.make(home, "Bench", me, statusfile.record_key(stanza, file_key), lambda s: answers.precompute(s, cli))
    finally:
        statusfile.LOG_KEPT = kept
    out = [_timed("eiapbem log -n 200, the record keeping 50 lines (150 read from the journal's segments)",
                  partial(_proc, args[:5] + ["log", "-n", "200"] + args[6:], env=env), repeat)]
    statusfile.record_path(home, "Bench", "RU").unlink()
    _proc(args, env=env)
    return out


def _land_game(home: Path) -> None:
    """The bench game: seven hot-seat powers (RU hosts, every password "pw"), each set up by default, played to the
    first land phase (France's slot), in this process."""
    from eiapbem.client import newgame, setups
    from eiapbem.client.session import Session, open_identity
    from eiapbem.core.powers import POWERS
    from eiapbem.rules.model import Phase
    from eiapbem.rules.sequence import SETUP_ORDER

    players = [newgame.Player(p, f"Player {p}", f"{p.lower()}@example.org", "host" if p == "RU" else "hotseat")
               for p in POWERS]
    newgame.new_game(home, "Bench", "classic-1805", players, bids={}, options=newgame.options_from_flags([]),
                     passwords={p: "pw" for p in POWERS}, host_password="pw-host")
    ids = {p: open_identity(home, "Bench", p, "pw") for p in POWERS}
    for p in SETUP_ORDER:
        s = Session.open_with(home, "Bench", ids[p])
        setups.load_setup(s, "default")
        s.end_phase()
    for _ in range(40):
        st = Session.open_with(home, "Bench", ids["RU"]).state
        if st.slot is None or st.slot.phase is Phase.LAND:
            return
        for p in st.slot.actors:
            Session.open_with(home, "Bench", ids[p]).end_phase()
    from eiapbem.core.errors import RulesBug

    raise RulesBug("the bench game did not reach a land phase in 40 slots")


def _record_cost(home: Path, ident: Any, repeat: int) -> list[Figure]:
    """What a command that changes the game pays after it, in this process (CPU, the least of the runs): the record
    made again (``statusfile.make``: the game opened, the status and log, the answers and records), and of that the
    read-only commands' answers and records alone (``cli.answers.precompute``)."""
    from eiapbem.cli import answers
    from eiapbem.cli.main import cli
    from eiapbem.client import session, statusfile

    def cpu(fn: Callable[[], object]) -> float:
        return best_of(fn, repeat, time.process_time)

    whole = cpu(lambda: statusfile.make(home, "Bench", ident, None, None))
    made: dict = {}

    def answer() -> None:
        s = session.Session.open_with(home, "Bench", ident)
        s.current()
        t = time.process_time()
        made.update(answers.precompute(s, cli))
        made["cpu"] = min(made.get("cpu", float("inf")), time.process_time() - t)

    for _ in range(repeat):
        answer()
    n, m = len(made["answers"]), ", ".join(sorted(made["data"]))
    from eiapbem.cli import data_cmd, show_cmd

    s = answers._Steady(session.Session.open_with(home, "Bench", ident))
    s.current()
    picture = cpu(lambda: data_cmd.game_picture(s))
    reaches = cpu(lambda: show_cmd._reach_kept(s))
    return [Figure("after a change: the game opened, its status and log made (CPU, in-process)", whole, whole),
            Figure(f"after a change: the read-only answers made ({n} lines; records of {m}) (CPU, in-process)",
                   made["cpu"], made["cpu"]),
            Figure("  of which the game's picture (map --svg --save) (CPU, in-process)", picture, picture),
            Figure("  of which the reaches of every corps and fleet of Russia (CPU, in-process)", reaches, reaches)]


def _first_status(env: dict, repeat: int) -> Figure:
    """The host's first ``status`` in a folder ``eiapbem new`` has just made (a new folder each run)."""
    from eiapbem.core.powers import POWERS

    best, cpu = float("inf"), float("inf")
    with tempfile.TemporaryDirectory(prefix="eiapbem-bench-new-") as tmp:
        for i in range(repeat):
            home = Path(tmp) / str(i)
            players = [f"--player={p}:ai-easy" for p in POWERS if p != "FR"]
            _proc([sys.executable, "-m", "eiapbem", "--home", str(home), "new", "Bench", "--scenario", "classic-1805",
                   "--player=FR:Player FR:fr@example.org:host", *players, "--host-password", "pw"], env=env)
            one = _timed("", partial(_proc, [sys.executable, "-m", "eiapbem", "--home", str(home), "status",
                                             "--password", "pw"], env=env), 1)
            best, cpu = min(best, one.seconds), min(cpu, one.cpu)
    return Figure("the first status in a new folder (just after 'eiapbem new')", best, cpu)
