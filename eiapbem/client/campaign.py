"""``eiapbem campaign``: seven computer players play a scenario in game folders, as in a real game (issues 18, 28).

**Computer players.**  Every power is a computer player in the state
(``PlayerKind`` ai-easy/medium/hard, with its 4.2.3 start bonus, seen as a
computer by the others), except the powers named ``by_files``.  A computer
player's slots send no file: every client plays them itself from the state and
the slot's dice (``AutoPlay.settle``, docs/decisions.md "Computer players").
The game lives in eight folders: the host's (who plays no power) and one per
power.  A computer power's folder is that of a player who let the computer play
his power from the start and follows the game (its key file is made all the
same, ``newgame.new_game(follow=...)``); every folder plays every computer slot
itself, and the campaign compares the eight state hashes after every file and
at the end of every month: that is what "by files, with state hashes equal in
every folder" means when computer slots send no file.

**Powers by files** (``by_files``): an email client (4.2.2) whose choices the
computer makes, in that power's folder, through the session calls a human's
client makes (``act_many``, ``end_phase``), at the level lent to it; every turn
file written to a folder's ``commout/`` is copied into every other folder's
``commin/`` and loaded there with ``load_all`` (full verification), and a
battle between two powers by files goes by battle files between their folders
(``campaign_battles``).  Loaded files are cleared from ``commin/`` and sent ones
from ``commout/``, as a player may do (kept in ``commin/done/`` and
``commout/sent/``).

**Pace.**  A game of computer players alone would be played to its end by the
first client that opened it.  Each folder's session is given a computer that
stops before the month the campaign has not reached yet (``Paced``: the game
waits there, as when the computer cannot end a slot); the campaign moves that
month on, month by month, in every folder alike.

Speed without skipping a check (issue 18 item 2): each folder's session stays
open for the whole run (``Folders``: one scrypt per folder per process, the
save decoded once); the folders are split between two processes (``jobs=2``).

``--seed``: every random byte the file layer draws comes from the ``rng`` each
folder's session is given (``SeededRng``, one stream per folder), and the
computer players are deterministic: the same seed gives the same files, dice
and state hashes.  Real games keep ``os.urandom``.

What the campaign had (wars, battles of armies, capitals, peaces, corps moved,
losses, the political map, the slowest computer slot) is read by a
``campaign_measures.Chronicle`` from the host folder's states (before every
computer slot, after every file) and its journal.
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
from .campaign_measures import Chronicle, Figures as Measures
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


class Paused(ai.AiStuck):
    """The campaign has not reached this month yet: the folder's game waits at the slot."""


class Paced:
    """``eiapbem.ai`` for one folder's session (``AutoPlay.computer``), stopping before month ``until``.

    In the host's folder it also tells a ``Chronicle`` every state a computer slot starts from, the orders the
    computer players give, and each computer slot's CPU seconds."""

    AiStuck = ai.AiStuck
    VERSIONS = ai.VERSIONS

    def __init__(self, until: int, chronicle: Chronicle | None = None) -> None:
        self.until = until
        self.chronicle = chronicle

    def _start(self, state: GameState) -> None:
        if state.date.index >= self.until:
            raise Paused(f"the campaign has not reached {state.date} yet")
        if self.chronicle is not None:
            self.chronicle.observe(state)

    def settle(self, state: GameState, ctx: Any) -> Any:
        return ai.settle(state, ctx)

    def play_slot(self, state: GameState, power: str, ctx: Any, *, setup: Any = ()) -> Any:
        self._start(state)
        t0 = time.process_time()
        turn = ai.play_slot(state, power, ctx, setup=setup)
        if self.chronicle is not None and state.slot is not None:
            self.chronicle.timed(time.process_time() - t0, state.slot.key(state.date))
        return turn

    def orders(self, state: GameState, power: str, ctx: Any) -> tuple:
        self._start(state)
        t0 = time.process_time()
        given = ai.orders(state, power, ctx)
        if self.chronicle is not None and state.slot is not None:
            self.chronicle.timed(time.process_time() - t0, f"{state.slot.key(state.date)}/{power}")
            self.chronicle.orders(state, power, given)
        return given


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
    #: Wall-clock seconds of the powers' own slots by files (thinking, actions, end-phase) and of the folders
    #: playing the computer players' slots (``computer_seconds``, both processes).
    play_seconds: float = 0.0
    computer_seconds: float = 0.0
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
                 kinds: dict[str, PlayerKind], until: int, chronicle: Chronicle | None = None,
                 placed: dict[str, dict[str, str]] | None = None) -> None:
        self.homes = homes
        self.pw = pw
        self.rngs = rngs
        #: The computer's level lent to each power by files (the computer players' is in the state).
        self.kinds = kinds
        self.open: dict[str, Session] = {}
        #: Each folder's paced computer (``Paced``); the host's tells ``chronicle`` what it plays.
        self.paced: dict[str, Paced] = {}
        self.until = until
        self.chronicle = chronicle
        #: The acting power's slot stopped by a battle file out (``campaign_battles``).
        self.acting: dict[str, campaign_battles.Acting] = {}
        #: Per power by files: corps its setup places elsewhere than the default setup does (corps -> area).
        self.placed = dict(placed or {})

    def computer(self, role: str) -> Paced:
        c = self.paced.get(role)
        if c is None:
            c = self.paced[role] = Paced(self.until, self.chronicle if role == HOST else None)
        return c

    def session(self, role: str) -> Session:
        """The folder's session: unlocked (scrypt) and decoded the first time only."""
        s = self.open.get(role)
        if s is None:
            ident = open_identity(self.homes[role], GAME, role, self.pw[role])
            s = self.open[role] = Session.open_with(self.homes[role], GAME, ident, rng=self.rngs[role],
                                                    computer=self.computer(role))
        return s

    def advance(self, roles: list[str], until: int) -> dict[str, str]:
        """Move the pause on to month ``until`` and let each folder play the computer slots up to it (or up to
        the next slot of a power by files); each folder's state hash."""
        self.until = until
        for c in self.paced.values():
            c.until = until
        out = {}
        for r in roles:
            s = self.session(r)
            s.settle()
            out[r] = s.state.state_hash().hex()
        return out

    def play(self, powers: list[str], chosen: dict[str, list] | None = None
             ) -> tuple[list[str], float, list[tuple[str, str]], list[tuple[str, list]]]:
        """Each power's slot in its own folder: the computer's actions, then "End Current Phase" (the file).

        A sequential slot stopped by a battle question for another power ends
        nothing yet: the battle files to send (name, defender) are returned,
        and ``resume`` goes on once the reply is in.  The orders given in a
        simultaneous slot are returned too (power, actions), for the chronicle.
        ``chosen``: a power's actions given instead of its computer's (a test's position).
        """
        written: list[str] = []
        given: list[tuple[str, list]] = []
        thinking = 0.0
        for p in powers:
            s = self.session(p)
            st = s.state
            if st.slot is None or p not in st.slot.actors:
                continue
            t0 = time.process_time()
            if sealed_orders._sealed_round(st) == "reveal":
                pass  # the reveal round opens the orders sealed in the commit round; nothing new is given
            elif st.slot.phase is Phase.SETUP:
                moves = self.placed.get(p, {})
                s.act_many([type(a)(**{**{k: getattr(a, k) for k in a.__dataclass_fields__}, "area": moves[a.corps]})
                            if a.KIND == "setup.place-corps" and a.corps in moves else a
                            for a in setups.default_actions(s.meta.scenario, p, s.meta.based_on or None)])
            else:
                view = s.current()
                lent = view.with_power(p, controller=self.kinds[p])
                ctx = rules_context(s.slot_dice())
                if sealed_orders._sealed_round(st) == "commit":  # the orders the computer chooses, sealed now:
                    # from the reactions this folder keeps and sends again itself, so only changes are given
                    kept = sealed_orders.as_kept(s.meta, view, p)
                    acts = list(chosen[p]) if chosen and p in chosen else \
                        list(duel.to_commit(kept.with_power(p, controller=self.kinds[p]), p, ctx))
                elif st.slot.simultaneous:
                    acts = list(chosen[p]) if chosen and p in chosen else list(ai.orders(lent, p, ctx))
                else:
                    plan = list(chosen[p]) if chosen and p in chosen else list(ai.plan(lent, p, ctx).actions)
                    acting, out = campaign_battles.start(s, p, self.kinds[p], plan)
                    if out:
                        assert acting is not None
                        self.acting[p] = acting
                        return written, thinking + time.process_time() - t0, out, given
                    acts = []
                if acts:
                    s.act_many(acts)
                if st.slot.simultaneous:
                    given.append((p, acts))
            thinking += time.process_time() - t0
            written.append(str(s.end_phase()))
        return written, thinking, [], given

    def defend(self, roles: list[str], name: str) -> str | None:
        """The defender's folder loads the battle file ``battles/name`` and answers it: the reply's name, if due."""
        (r,) = roles
        return campaign_battles.defend(self.session(r), r, self.kinds[r], name)

    def resume(self, roles: list[str], name: str) -> tuple[list[str], float, list[tuple[str, str]]]:
        """The acting folder loads the defender's reply ``battles/name`` and goes on (as ``play``)."""
        (p,) = roles
        s = self.session(p)
        t0 = time.process_time()
        s.load_battle(s.folders.battles / name)
        out = self.acting[p].go_on()
        if out:
            return [], time.process_time() - t0, out
        del self.acting[p]
        thinking = time.process_time() - t0
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
    """Eight folders (host + seven powers) under ``out``; ``run`` plays months."""

    def __init__(self, out: Path, seed: int, scenario: str, level: str, say: Callable[[str], None],
                 *, jobs: int = 2, levels: dict[str, str] | None = None, by_files: tuple[str, ...] = (),
                 wars: tuple[tuple[str, str], ...] = (), placed: dict[str, dict[str, str]] | None = None) -> None:
        """``level`` for every power, unless ``levels`` gives some powers (or all) a level of their own; the
        powers ``by_files`` are email clients whose choices the computer makes at their level, the others are
        computer players.  ``wars``: wars the game starts with (aggressor, defender), as a GAP selection's
        (4.2.10); ``placed``: per power by files, corps its setup places elsewhere than the default setup."""
        chosen = {p: level for p in POWERS} | dict(levels or {})
        for p, lv in sorted(chosen.items()):
            if p not in POWERS:
                raise IllegalAction(f"{p!r} is not a major power ({', '.join(POWERS)})")
            if lv not in LEVELS:
                raise IllegalAction(f"the level is one of {', '.join(LEVELS)}, not {lv!r}")
        for p in by_files:
            if p not in POWERS:
                raise IllegalAction(f"{p!r} is not a major power ({', '.join(POWERS)}); --by-files names powers")
        if jobs not in (1, 2):
            raise IllegalAction(f"--jobs is 1 or 2 (processes), not {jobs}")
        self.out = Path(out)
        self.seed = seed
        self.jobs = jobs
        self.by_files = tuple(p for p in POWERS if p in by_files)
        self.kinds = {p: PlayerKind(f"ai-{lv}") for p, lv in chosen.items()}
        self.say = say
        self.figures = Figures()
        self.homes = {r: self.out / r for r in ROLES}
        self.pw = {r: f"campaign-{r}-{seed}" for r in self.homes}
        self.rngs = {r: SeededRng(seed, r) for r in self.homes}
        #: (area, label) per counter for the yearly maps; the command line passes its own (``cli/data_cmd.py``).
        self.unit_labels: Callable[[GameState], list] | None = None
        #: What the campaign had, read from the host folder's states and journal (``measures``).
        self.chronicle = Chronicle()
        self._worker: Worker | None = None
        self.opening_wars = tuple(wars)
        self.placed = dict(placed or {})
        self.folders = Folders(self.homes, self.pw, self.rngs, self.kinds, self._new(scenario), self.chronicle,
                               self.placed)
        self.start = self.state().date.index
        self.chronicle.observe(self.state())

    def _new(self, scenario: str) -> int:
        """The host's game and every power's folder joined to it; the pause they wait at."""
        if self.out.exists() and any(self.out.iterdir()):
            raise IllegalAction(f"{self.out} is not empty; give --out a new or empty folder")
        start = 0  # every folder's game waits at its first computer slot until the campaign runs
        host = self.homes[HOST]
        players = [newgame.Player(p, f"Computer {p}", f"{p.lower()}@campaign.invalid",
                                  "client" if p in self.by_files else str(self.kinds[p])) for p in POWERS]
        created = newgame.new_game(host, GAME, scenario, players, bids={}, options=newgame.options_from_flags([]),
                                   passwords={}, host_password=self.pw[HOST],
                                   host=Person("Campaign host", "host@campaign.invalid"), rng=self.rngs[HOST],
                                   wars=[(a, t) for a, t in self.opening_wars],
                                   follow=tuple(p for p in POWERS if p not in self.by_files),
                                   computer=Paced(start))
        gs = created.gamestart
        for p in POWERS:
            home = self.homes[p]
            (home / "commin").mkdir(parents=True)
            key = host / "commout" / f"{GAME}_{p}.key"
            shutil.copy(gs, home / "commin" / gs.name)
            shutil.copy(key, home / "commin" / key.name)
            newgame.join(home, home / "commin" / gs.name, p, created.one_time[p], self.pw[p],
                         f"{p.lower()}@campaign.invalid", home / "commin" / key.name, rng=self.rngs[p],
                         computer=Paced(start))
        return start

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

    def measures(self) -> Measures:
        """What the campaign had so far (``campaign_measures``), from the host's states and journal."""
        st = self.state()
        self.chronicle.observe(st)
        return self.chronicle.figures(self.session(HOST).journal(), len(self.figures.months))

    # -------------------------------------------------------------- playing, split between processes

    def _halves(self) -> tuple[list[str], list[str]]:
        """(this process's roles, the worker's) while ``run`` goes on: the host and three powers here, four there."""
        if self.jobs == 1:
            return list(ROLES), []
        return [HOST, "FR", "GB", "RU"], ["AU", "PR", "SP", "TU"]

    def _split(self) -> tuple[list[str], list[str]]:
        """(this process's roles, the worker's) now: every folder here when no worker runs."""
        return self._halves() if self._worker is not None else (list(ROLES), [])

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

    def step(self, check: bool, chosen: dict[str, list] | None = None) -> None:
        """Play the slot in play of the powers by files: each due power's file, delivered and loaded in every
        other folder (which then plays the computer slots that follow, up to the pause).  ``chosen``: a power's
        actions instead of its computer's."""
        st = self.state()
        assert st.slot is not None
        due = [p for p in st.slot.actors if p in self.by_files]
        mine, other = self._split()
        t0 = time.perf_counter()
        if st.slot.simultaneous:  # every due power writes its file from the same start, then all are delivered
            a, b = self._both("play", [p for p in due if p in mine], [p for p in due if p in other], chosen)
            if (a and a[2]) or (b and b[2]):
                raise IllegalAction("a battle file in a simultaneous slot: the campaign does not carry it")
            written = (a[0] if a else []) + (b[0] if b else [])
            thinking = (a[1] if a else 0.0) + (b[1] if b else 0.0)
            self.figures.ai_seconds += thinking
            for p, acts in (a[3] if a else []) + (b[3] if b else []):
                self.chronicle.orders(st, p, acts)
            self.figures.play_seconds += time.perf_counter() - t0
            hashes = self._deliver(written, check)
        else:
            hashes = {}
            for p in due:
                t1 = time.process_time()
                a, b = self._both("play", [p] if p in mine else [], [p] if p in other else [], chosen)
                files, thinking, out, _given = a or b
                self.figures.ai_seconds += thinking
                self.chronicle.timed(thinking, st.slot.key(st.date))
                files = self._battles(p, files, out)
                self.figures.play_seconds += time.process_time() - t1
                hashes = self._deliver(files, check)
        if check:
            # the authors' own folders took their files when writing them; every folder's hash counts
            rest = [r for r in ROLES if r not in hashes]
            a, b = self._both("hashes", [r for r in rest if r in mine], [r for r in rest if r in other])
            self._agree({**hashes, **(a or {}), **(b or {})})
        self.chronicle.observe(self.state())
        self.figures.slots += 1

    def _advance(self, until: int) -> None:
        """Every folder plays the computer slots up to month ``until`` or the next slot by files; hashes compared."""
        mine, other = self._split()
        t0 = time.perf_counter()
        a, b = self._both("advance", mine, other, until)
        self.figures.computer_seconds += time.perf_counter() - t0
        self._agree({**(a or {}), **(b or {})})
        self.chronicle.observe(self.state())

    def run(self, months: int, *, check_every_slot: bool = True, maps: bool = True,
            stop: Callable[[GameState], bool] | None = None) -> GameState:
        """Play ``months`` months (or to the game's end); the hashes of all folders compared after every file
        (``check_every_slot``) and at the end of every month.  ``stop``: end earlier, before the first slot by
        files whose state makes it true (the slot is left to the caller's ``step``)."""
        mine, other = self._halves()
        if other:
            for r in other:  # the worker opens these folders itself; this process must not hold them meanwhile
                self.folders.open.pop(r, None)
                self.folders.paced.pop(r, None)
            self._worker = Worker(Folders({r: self.homes[r] for r in other}, self.pw,
                                          {r: self.rngs[r] for r in other}, self.kinds, self.folders.until,
                                          placed=self.placed))
        try:
            st = self._run(months, check_every_slot, maps, stop)
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

    def _run(self, months: int, check: bool, maps: bool, stop: Callable[[GameState], bool] | None) -> GameState:
        st = self.state()
        first = st.date.index
        for i in range(months):
            if st.slot is None:
                break
            month_key, t_month, files_before, cpu_month = str(st.date), time.perf_counter(), self.figures.files, self.cpu()
            until = st.date.index + 1
            self._advance(until)
            st = self.state()
            while st.slot is not None and st.date.index < until:
                if not any(p in self.by_files for p in st.slot.actors):
                    raise IllegalAction(f"the folders' computer players stopped at {st.slot.key(st.date)} "
                                        "(the computer cannot end this slot; the host would skip it)")
                if stop is not None and stop(st):
                    return st
                phase = st.slot.phase.value
                self.step(check)
                st = self.state()
                self.say(f"      {st.date} {phase:<14} done; {st.slot.phase.value if st.slot else 'game over'} next "
                         f"({time.perf_counter() - t_month:6.1f} s into the month)")
            secs = time.perf_counter() - t_month
            n = self.figures.files - files_before
            self.figures.months.append((month_key, secs, n))
            cpu = self.cpu()
            self.figures.month_cpu.append(cpu - cpu_month)
            done = st.date.index - self.start if st.slot else len(self.figures.months)
            self.say(f"[{done:>3}/{first - self.start + months}] month {month_key} done in {secs:6.1f} s "
                     f"({cpu - cpu_month:6.1f} s CPU, {n} files); now {st.date if st.slot else 'game over'}")
            if maps and (st.slot is None or (st.date.index - self.start) % 12 == 0 or i == months - 1):
                self.say(f"wrote {self.write_map(st)}")
        return st

    def write_map(self, st: GameState) -> Path:
        return campaign_report.write_map(self.out, GAME, st, self.unit_labels)


def power_table(st: GameState) -> list[str]:
    return campaign_report.power_table(st)


def fast_keys_for_bench() -> None:
    """Weak password hashing for a measured campaign only (the scrypt cost is the host's, not the pipeline's)."""
    import os

    os.environ.setdefault(TEST_SCRYPT_ENV, "10,1,1")
