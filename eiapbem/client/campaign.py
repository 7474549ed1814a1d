"""``eiapbem campaign``: seven computer players play a scenario by real files (issue 18).

Each power plays in its own folder as an email client (4.2.2) and the host in
a folder of its own; no power is an AI power in the state, so every slot is
played by a file: the computer (``eiapbem.ai``) chooses the actions of the
power due, in that power's folder, through the same session calls a human's
client makes (``act_many``, ``end_phase``); every turn file written to a
folder's ``commout/`` is copied into every other folder's ``commin/`` and
loaded there with ``load_all`` (full verification, no shortcut).  Loaded
files are then cleared from ``commin/`` and sent ones from ``commout/``, as a
player may do (each folder keeps its copies in ``commin/done/`` and
``commout/sent/``); so a load looks at the new files only.

Speed without skipping a check (issue 18 item 2):

- each folder's session stays open for the whole run (``Folders``): its key
  file is unlocked once (one scrypt per folder per process) and its save is
  decoded once, not reopened for every slot;
- the folders are split between two processes (``jobs=2``): the main one and
  a worker forked from it, each with its own open sessions; a file is loaded
  in the four folders of one process while the other loads it in its own.

``--seed``: every random byte the file layer draws (keys, game id, file keys
and nonces, commitment and battle nonces, saves) comes from the ``rng`` each
folder's session is given (``SeededRng``, one stream per folder, so the split
between processes changes nothing), and the computer players are
deterministic: the same seed gives the same files' dice and the same state
hashes.  Real games keep ``os.urandom`` (every ``rng`` parameter's default).
"""

from __future__ import annotations

import hashlib
import multiprocessing
import shutil
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from eiapbem import ai
from eiapbem.core.errors import EiaError, IllegalAction
from eiapbem.data.context import rules_context
from eiapbem.pbem.email import Person
from eiapbem.rules.model import POWERS, GameState, Phase, PlayerKind

from . import campaign_battles, duel, campaign_report, newgame, setups
from . import orders as sealed_orders
from .session import Session, open_identity
from .store import TEST_SCRYPT_ENV

GAME = "Campaign"
HOST = "host"
ROLES = (HOST,) + POWERS
LEVELS = ("easy", "medium", "hard")


class SeededRng:
    """A deterministic byte source for the campaign only: SHA-256 in counter mode over (seed, folder)."""

    def __init__(self, seed: int, label: str = "") -> None:
        self.key = hashlib.sha256(b"eiapbem/v1/campaign\x00" + str(seed).encode() + b"\x00" + label.encode()).digest()
        self.n = 0

    def __call__(self, size: int) -> bytes:
        out = b""
        while len(out) < size:
            out += hashlib.sha256(self.key + self.n.to_bytes(8, "big")).digest()
            self.n += 1
        return out[:size]


@dataclass
class Figures:
    """What ``bench campaign`` prints: seconds per month, files, loading, thinking, folder sizes."""

    months: list[tuple[str, float, int]] = field(default_factory=list)  # (date, seconds, files exchanged)
    #: CPU seconds per month, both processes together (steadier than wall-clock time on a busy machine).
    month_cpu: list[float] = field(default_factory=list)
    files: int = 0
    file_bytes: int = 0
    #: Wall-clock seconds of the delivery rounds (every other folder loading the new files; both processes).
    load_seconds: float = 0.0
    #: Wall-clock seconds of the powers' own slots (thinking, actions, end-phase).
    play_seconds: float = 0.0
    ai_seconds: float = 0.0
    slots: int = 0
    folder_bytes: dict[str, int] = field(default_factory=dict)
    hashes_checked: int = 0
    #: Battle files carried between two folders (questions and replies, 4.2.7).
    battle_files: int = 0


# ----------------------------------------------------------------- the folders of one process


class Folders:
    """Some of the campaign's folders, their sessions kept open in this process for the whole run."""

    def __init__(self, homes: dict[str, Path], pw: dict[str, str], rngs: dict[str, SeededRng],
                 kinds: dict[str, PlayerKind]) -> None:
        self.homes = homes
        self.pw = pw
        self.rngs = rngs
        #: The computer's level lent to each power (``Campaign``'s ``level``, or ``levels`` per power).
        self.kinds = kinds
        self.open: dict[str, Session] = {}
        #: The acting power's slot stopped by a battle file out (``campaign_battles``).
        self.acting: dict[str, campaign_battles.Acting] = {}

    def session(self, role: str) -> Session:
        """The folder's session: unlocked (scrypt) and decoded the first time only."""
        s = self.open.get(role)
        if s is None:
            ident = open_identity(self.homes[role], GAME, role, self.pw[role])
            s = self.open[role] = Session.open_with(self.homes[role], GAME, ident, rng=self.rngs[role])
        return s

    def play(self, powers: list[str]) -> tuple[list[str], float, list[tuple[str, str]]]:
        """Each power's slot in its own folder: the computer's actions, then "End Current Phase" (the file).

        A sequential slot stopped by a battle question for another power ends
        nothing yet: the battle files to send (name, defender) are returned,
        and ``resume`` goes on once the reply is in.
        """
        written: list[str] = []
        thinking = 0.0
        for p in powers:
            s = self.session(p)
            st = s.state
            if st.slot is None or p not in st.slot.actors:
                continue
            t0 = time.perf_counter()
            if sealed_orders._sealed_round(st) == "reveal":
                pass  # the reveal round opens the orders sealed in the commit round; nothing new is given
            elif st.slot.phase is Phase.SETUP:
                setups.load_setup(s, "default")
            else:
                view = s.current()
                lent = view.with_power(p, controller=self.kinds[p])
                ctx = rules_context(s.slot_dice())
                if sealed_orders._sealed_round(st) == "commit":  # the orders the computer chooses, sealed now:
                    # from the reactions this folder keeps and sends again itself, so only changes are given
                    kept = sealed_orders.as_kept(s.data.meta, view, p)
                    acts = list(duel.to_commit(kept.with_power(p, controller=self.kinds[p]), p, ctx))
                elif st.slot.simultaneous:
                    acts = list(ai.orders(lent, p, ctx))
                else:
                    acting, out = campaign_battles.start(s, p, self.kinds[p], list(ai.plan(lent, p, ctx).actions))
                    if out:
                        assert acting is not None
                        self.acting[p] = acting
                        return written, thinking + time.perf_counter() - t0, out
                    acts = []
                if acts:
                    s.act_many(acts)
            thinking += time.perf_counter() - t0
            written.append(str(s.end_phase()))
        return written, thinking, []

    def defend(self, roles: list[str], name: str) -> str | None:
        """The defender's folder loads the battle file ``battles/name`` and answers it: the reply's name, if due."""
        (r,) = roles
        return campaign_battles.defend(self.session(r), r, self.kinds[r], name)

    def resume(self, roles: list[str], name: str) -> tuple[list[str], float, list[tuple[str, str]]]:
        """The acting folder loads the defender's reply ``battles/name`` and goes on (as ``play``)."""
        (p,) = roles
        s = self.session(p)
        t0 = time.perf_counter()
        s.load_battle(s.folders.battles / name)
        out = self.acting[p].go_on()
        if out:
            return [], time.perf_counter() - t0, out
        del self.acting[p]
        thinking = time.perf_counter() - t0
        return [str(s.end_phase())], thinking, []

    def load(self, roles: list[str], check: bool) -> dict[str, str]:
        """``load_all`` in each folder; then the loaded files are cleared from its ``commin/`` (kept in done/)."""
        hashes = {}
        for r in roles:
            s = self.session(r)
            rep = s.load_all()
            if rep.refused:
                name, why = rep.refused[0]
                raise IllegalAction(f"the {r} folder refused {name}: {why}")
            for name, _slot in rep.loaded:
                (s.folders.commin / name).unlink(missing_ok=True)
            if check:
                hashes[r] = s.state.state_hash().hex()
        return hashes

    def hashes(self, roles: list[str]) -> dict[str, str]:
        return {r: self.session(r).state.state_hash().hex() for r in roles}

    def counters(self) -> dict[str, int]:
        return {r: self.rngs[r].n for r in self.homes}

    def cpu(self) -> float:
        return time.process_time()


def _serve(conn: Any, folders: Folders) -> None:
    """The worker process: run the main process's requests on its own folders until told to stop."""
    while True:
        cmd, args = conn.recv()
        if cmd == "stop":
            conn.send(("ok", folders.counters()))
            return
        try:
            conn.send(("ok", getattr(folders, cmd)(*args)))
        except EiaError as err:
            conn.send(("error", str(err)))
        except Exception as err:  # noqa: BLE001 - reported to the main process, which stops the run
            conn.send(("error", f"{type(err).__name__}: {err}"))


class Worker:
    """A process forked from the main one, holding some folders' sessions; one request at a time."""

    def __init__(self, folders: Folders) -> None:
        ctx = multiprocessing.get_context("fork")
        self.conn, child = ctx.Pipe()
        self.proc = ctx.Process(target=_serve, args=(child, folders), daemon=True)
        self.proc.start()
        child.close()
        self.busy = False

    def ask(self, cmd: str, *args: Any) -> None:
        self.conn.send((cmd, args))
        self.busy = True

    def answer(self) -> Any:
        try:
            status, value = self.conn.recv()
        except EOFError as err:
            raise IllegalAction("the campaign's worker process stopped unexpectedly") from err
        self.busy = False
        if status != "ok":
            raise IllegalAction(value)
        return value

    def stop(self) -> dict[str, int]:
        try:
            if self.busy:
                try:
                    self.answer()  # a request still running when the main process stopped (its error is already said)
                except IllegalAction:
                    pass
            self.conn.send(("stop", ()))
            return self.answer()
        finally:
            self.proc.join(timeout=30)
            if self.proc.is_alive():
                self.proc.kill()


# ----------------------------------------------------------------- the campaign


class Campaign:
    """Eight folders (host + seven powers) under ``out``; ``run`` plays months by files."""

    def __init__(self, out: Path, seed: int, scenario: str, level: str, say: Callable[[str], None],
                 *, jobs: int = 2, levels: dict[str, str] | None = None) -> None:
        """``level`` for every power, unless ``levels`` gives some powers (or all) a level of their own."""
        chosen = {p: level for p in POWERS} | dict(levels or {})
        for p, lv in sorted(chosen.items()):
            if p not in POWERS:
                raise IllegalAction(f"{p!r} is not a major power ({', '.join(POWERS)})")
            if lv not in LEVELS:
                raise IllegalAction(f"the level is one of {', '.join(LEVELS)}, not {lv!r}")
        if jobs not in (1, 2):
            raise IllegalAction(f"--jobs is 1 or 2 (processes), not {jobs}")
        self.out = Path(out)
        self.seed = seed
        self.jobs = jobs
        self.kinds = {p: PlayerKind(f"ai-{lv}") for p, lv in chosen.items()}
        self.say = say
        self.figures = Figures()
        self.homes = {r: self.out / r for r in ROLES}
        self.pw = {r: f"campaign-{r}-{seed}" for r in self.homes}
        self.rngs = {r: SeededRng(seed, r) for r in self.homes}
        #: (area, label) per counter for the yearly maps; the command line passes its own (``cli/data_cmd.py``).
        self.unit_labels: Callable[[GameState], list] | None = None
        self.folders = Folders(self.homes, self.pw, self.rngs, self.kinds)
        self._worker: Worker | None = None
        self._new(scenario)

    def _new(self, scenario: str) -> None:
        if self.out.exists() and any(self.out.iterdir()):
            raise IllegalAction(f"{self.out} is not empty; give --out a new or empty folder")
        host = self.homes[HOST]
        players = [newgame.Player(p, f"Computer {p}", f"{p.lower()}@campaign.invalid", "client") for p in POWERS]
        created = newgame.new_game(host, GAME, scenario, players, bids={}, options=newgame.options_from_flags([]),
                                   passwords={}, host_password=self.pw[HOST],
                                   host=Person("Campaign host", "host@campaign.invalid"), rng=self.rngs[HOST])
        gs = created.gamestart
        for p in POWERS:
            home = self.homes[p]
            (home / "commin").mkdir(parents=True)
            key = host / "commout" / f"{GAME}_{p}.key"
            shutil.copy(gs, home / "commin" / gs.name)
            shutil.copy(key, home / "commin" / key.name)
            newgame.join(home, home / "commin" / gs.name, p, created.one_time[p], self.pw[p],
                         f"{p.lower()}@campaign.invalid", home / "commin" / key.name, rng=self.rngs[p])

    # -------------------------------------------------------------- sessions and hashes

    def session(self, role: str) -> Session:
        """A folder's open session (in this process; outside ``run``)."""
        return self.folders.session(role)

    def state(self) -> GameState:
        return self.session(HOST).state

    def check_hashes(self) -> str:
        """Every folder's state hash, equal, else ``IllegalAction`` naming them (outside ``run``)."""
        return self._agree(self.folders.hashes(list(ROLES)))

    def _agree(self, hashes: dict[str, str]) -> str:
        if len(set(hashes.values())) != 1:
            raise IllegalAction("the folders' states differ: " + ", ".join(f"{r} {h[:12]}" for r, h in sorted(hashes.items())))
        self.figures.hashes_checked += 1
        return hashes[HOST]

    # -------------------------------------------------------------- playing, split between processes

    def _split(self) -> tuple[list[str], list[str]]:
        """(this process's roles, the worker's): the host and three powers here, four powers there."""
        if self.jobs == 1:
            return list(ROLES), []
        return [HOST, "FR", "GB", "RU"], ["AU", "PR", "SP", "TU"]

    def _both(self, cmd: str, here: list, there: list, *args: Any) -> tuple[Any, Any]:
        """Run ``cmd`` on this process's folders and the worker's at the same time."""
        if there and self._worker is not None:
            self._worker.ask(cmd, there, *args)
        mine = getattr(self.folders, cmd)(here, *args) if here else None
        theirs = self._worker.answer() if there and self._worker is not None else None
        return mine, theirs

    def _deliver(self, written: list[str], check: bool) -> dict[str, str]:
        """Copy each new turn file into every other folder's ``commin/`` (then clear it from ``commout/``) and load it there."""
        for path in map(Path, written):
            author = path.parent.parent.name
            self.figures.files += 1
            self.figures.file_bytes += path.stat().st_size
            for r, home in self.homes.items():
                if r != author:
                    shutil.copy(path, home / "commin" / path.name)
            path.unlink()  # sent: the author's folder keeps it in commout/sent/
            path.with_name(path.name + ".eml").unlink(missing_ok=True)
        mine, other = self._split()
        t0 = time.perf_counter()
        a, b = self._both("load", mine, other, check)
        self.figures.load_seconds += time.perf_counter() - t0
        return {**(a or {}), **(b or {})}

    def _one(self, cmd: str, role: str, *args: Any) -> Any:
        """Run ``cmd`` on one folder, in the process that holds it."""
        mine, _other = self._split()
        a, b = self._both(cmd, [role] if role in mine else [], [] if role in mine else [role], *args)
        return a if role in mine else b

    def _battles(self, p: str, files: list[str], out: list[tuple[str, str]]) -> list[str]:
        """Carry the battle files of ``p``'s slot between two folders until the battle is over (4.2.7)."""
        for _ in range(campaign_battles.MAX_STEPS):
            if not out:
                return files
            name, defender = out[0]
            (self.homes[defender] / "battles").mkdir(exist_ok=True)
            shutil.copy(self.homes[p] / "battles" / name, self.homes[defender] / "battles" / name)
            reply = self._one("defend", defender, name)
            if reply is None:
                raise IllegalAction(f"{defender}'s folder loaded {name} but has no reply to give; the battle is stuck")
            shutil.copy(self.homes[defender] / "battles" / reply, self.homes[p] / "battles" / reply)
            self.figures.battle_files += 2
            self.say(f"      battle file {name}: {p} asked {defender}, {defender}'s reply came back")
            files, thinking, out = self._one("resume", p, reply)
            self.figures.ai_seconds += thinking
        raise IllegalAction(f"{p}'s slot exchanged {campaign_battles.MAX_STEPS} battle files without an end")

    def step(self, check: bool) -> None:
        """Play the slot in play: every due power's file, delivered and loaded in every other folder."""
        st = self.state()
        assert st.slot is not None
        due = list(st.slot.actors)
        mine, other = self._split()
        t0 = time.perf_counter()
        if st.slot.simultaneous:  # every due power writes its file from the same start, then all are delivered
            a, b = self._both("play", [p for p in due if p in mine], [p for p in due if p in other])
            if (a and a[2]) or (b and b[2]):
                raise IllegalAction("a battle file in a simultaneous slot: the campaign does not carry it")
            written = (a[0] if a else []) + (b[0] if b else [])
            self.figures.ai_seconds += (a[1] if a else 0.0) + (b[1] if b else 0.0)
            self.figures.play_seconds += time.perf_counter() - t0
            hashes = self._deliver(written, check)
        else:
            hashes = {}
            for p in due:
                t1 = time.perf_counter()
                a, b = self._both("play", [p] if p in mine else [], [p] if p in other else [])
                files, thinking, out = a or b
                self.figures.ai_seconds += thinking
                files = self._battles(p, files, out)
                self.figures.play_seconds += time.perf_counter() - t1
                hashes = self._deliver(files, check)
        if check:
            # the authors' own folders took their files when writing them; every folder's hash counts
            rest = [r for r in ROLES if r not in hashes]
            a, b = self._both("hashes", [r for r in rest if r in mine], [r for r in rest if r in other])
            self._agree({**hashes, **(a or {}), **(b or {})})
        self.figures.slots += 1

    def run(self, months: int, *, check_every_slot: bool = True, maps: bool = True) -> GameState:
        """Play ``months`` months (or to the game's end); the hashes of all folders compared after every slot."""
        mine, other = self._split()
        if other:
            for r in other:  # the worker opens these folders itself; this process must not hold them meanwhile
                self.folders.open.pop(r, None)
            self._worker = Worker(Folders({r: self.homes[r] for r in other}, self.pw,
                                          {r: self.rngs[r] for r in other}, self.kinds))
        try:
            st = self._run(months, check_every_slot, maps)
        finally:
            if self._worker is not None:
                counters = self._worker.stop()  # the folders' byte streams go on from where the worker left them
                for r, n in counters.items():
                    self.rngs[r].n = n
                self._worker = None
        for r, home in self.homes.items():
            self.figures.folder_bytes[r] = sum(f.stat().st_size for f in home.rglob("*") if f.is_file())
        return st

    def cpu(self) -> float:
        """CPU seconds used so far by this process and the worker."""
        if self._worker is None:
            return time.process_time()
        self._worker.ask("cpu")
        return time.process_time() + self._worker.answer()

    def _run(self, months: int, check: bool, maps: bool) -> GameState:
        st = self.state()
        start = st.date.index
        month_key, t_month, files_before = str(st.date), time.perf_counter(), self.figures.files
        cpu_month = self.cpu()
        while st.slot is not None and st.date.index - start < months:
            phase = st.slot.phase.value
            self.step(check)
            st = self.state()
            if st.slot is None or str(st.date) != month_key:
                secs = time.perf_counter() - t_month
                n = self.figures.files - files_before
                self.figures.months.append((month_key, secs, n))
                cpu = self.cpu()
                self.figures.month_cpu.append(cpu - cpu_month)
                done = st.date.index - start
                self.say(f"[{done:>3}/{months}] month {month_key} done in {secs:6.1f} s ({cpu - cpu_month:6.1f} s CPU, "
                         f"{n} files); now {st.date if st.slot else 'game over'}")
                if maps and (st.slot is None or st.date.index % 12 == start % 12 or done >= months):
                    self.say(f"wrote {self.write_map(st)}")
                month_key, t_month, files_before, cpu_month = str(st.date), time.perf_counter(), self.figures.files, cpu
            else:
                self.say(f"      {st.date} {phase:<14} done; {st.slot.phase.value} next "
                         f"({time.perf_counter() - t_month:6.1f} s into the month)")
        return st

    def write_map(self, st: GameState) -> Path:
        return campaign_report.write_map(self.out, GAME, st, self.unit_labels)


def power_table(st: GameState) -> list[str]:
    return campaign_report.power_table(st)


def fast_keys_for_bench() -> None:
    """Weak password hashing for a measured campaign only (the scrypt cost is the host's, not the pipeline's)."""
    import os

    os.environ.setdefault(TEST_SCRYPT_ENV, "10,1,1")
