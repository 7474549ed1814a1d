"""``eiapbem campaign``: seven computer players play a scenario by real files (issue 18, first version).

Each power plays in its own folder as an email client (4.2.2) and the host in
a folder of its own; no power is an AI power in the state, so every slot is
played by a file: the computer (``eiapbem.ai``) chooses the actions of the
power due, in that power's folder, through the same session calls a human's
client makes (``act_many``, ``end_phase``); every file that appears in a
folder's ``commout/`` is copied into every other folder's ``commin/`` and
loaded there with ``load_all`` (full verification, no shortcut).

``--seed``: the keys and the game id are drawn from a seeded SHA-256 stream
(``SeededRng``), so the dice and every state hash repeat; the encryption
nonces of the files stay random (they change file bytes, never a state).
Real games keep ``os.urandom`` (``newgame.new_game``'s default).
"""

from __future__ import annotations

import hashlib
import inspect
import os
import sys
import shutil
import time
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator

from eiapbem import ai
from eiapbem.core.errors import IllegalAction
from eiapbem.data.context import rules_context
from eiapbem.pbem.email import Person
from eiapbem.rules.model import POWERS, GameState, Phase, PlayerKind

from . import duel, newgame, setups
from . import orders as sealed_orders
from .session import Session, open_identity
from .store import TEST_SCRYPT_ENV

GAME = "Campaign"
HOST = "host"
LEVELS = ("easy", "medium", "hard")


class SeededRng:
    """A deterministic byte source for the campaign only: SHA-256 in counter mode over the seed."""

    def __init__(self, seed: int) -> None:
        self.key = hashlib.sha256(b"eiapbem/v1/campaign\x00" + str(seed).encode()).digest()
        self.n = 0

    def __call__(self, size: int) -> bytes:
        out = b""
        while len(out) < size:
            out += hashlib.sha256(self.key + self.n.to_bytes(8, "big")).digest()
            self.n += 1
        return out[:size]


@contextmanager
def seeded(rng: SeededRng) -> Iterator[None]:
    """Inside: every random byte eiapbem asks for comes from ``rng`` (the campaign only; restored after).

    The file layer takes its randomness as ``rng=os.urandom`` defaults (bound when
    the module was loaded) and, for the orders' and battles' commitment nonces, by
    calling ``os.urandom``; both are pointed at ``rng`` for the campaign's run, so
    the keys, nonces, file hashes, chain heads and with them every dice roll repeat.
    """
    real = os.urandom
    swapped: list[tuple[object, str, object]] = []
    for name, mod in list(sys.modules.items()):
        if not name.startswith("eiapbem.") or mod is None:
            continue
        for obj in list(vars(mod).values()):
            fns = [obj] if inspect.isfunction(obj) else (
                [f for f in vars(obj).values() if inspect.isfunction(f)] if inspect.isclass(obj) else [])
            for fn in fns:
                if fn.__module__ != name:
                    continue
                if fn.__defaults__ and any(d is real for d in fn.__defaults__):
                    swapped.append((fn, "__defaults__", fn.__defaults__))
                    fn.__defaults__ = tuple(rng if d is real else d for d in fn.__defaults__)
                if fn.__kwdefaults__ and any(d is real for d in fn.__kwdefaults__.values()):
                    swapped.append((fn, "__kwdefaults__", fn.__kwdefaults__))
                    fn.__kwdefaults__ = {k: rng if d is real else d for k, d in fn.__kwdefaults__.items()}
    os.urandom = rng
    try:
        yield
    finally:
        os.urandom = real
        for fn, attr, old in reversed(swapped):
            setattr(fn, attr, old)


@dataclass
class Figures:
    """What ``bench campaign`` prints: seconds per month, files and bytes per folder."""

    months: list[tuple[str, float, int]] = field(default_factory=list)  # (date, seconds, files exchanged)
    files: int = 0
    file_bytes: int = 0
    load_seconds: float = 0.0
    ai_seconds: float = 0.0
    slots: int = 0
    folder_bytes: dict[str, int] = field(default_factory=dict)
    hashes_checked: int = 0


class Campaign:
    """Eight folders (host + seven powers) under ``out``; ``step`` plays the slot in play by files."""

    def __init__(self, out: Path, seed: int, scenario: str, level: str, say: Callable[[str], None]) -> None:
        if level not in LEVELS:
            raise IllegalAction(f"the level is one of {', '.join(LEVELS)}, not {level!r}")
        self.out = Path(out)
        self.seed = seed
        self.kind = PlayerKind(f"ai-{level}")
        self.say = say
        self.figures = Figures()
        self.homes = {r: self.out / r for r in (HOST,) + POWERS}
        self.pw = {r: f"campaign-{r}-{seed}" for r in self.homes}
        self.delivered: set[tuple[str, str]] = set()
        self.ids: dict = {}
        #: (area, label) per counter for the yearly maps; the command line passes its own (``cli/data_cmd.py``).
        self.unit_labels: Callable[[GameState], list] | None = None
        self.rng = SeededRng(seed)
        # the modules that write files are loaded before the defaults are pointed at the seed
        import eiapbem.client.exchange, eiapbem.pbem.files, eiapbem.pbem.savegame  # noqa: F401,E401
        with seeded(self.rng):
            self._new(scenario)

    def _new(self, scenario: str) -> None:
        if self.out.exists() and any(self.out.iterdir()):
            raise IllegalAction(f"{self.out} is not empty; give --out a new or empty folder")
        host = self.homes[HOST]
        players = [newgame.Player(p, f"Computer {p}", f"{p.lower()}@campaign.invalid", "client") for p in POWERS]
        created = newgame.new_game(host, GAME, scenario, players, bids={}, options=newgame.options_from_flags([]),
                                   passwords={}, host_password=self.pw[HOST],
                                   host=Person("Campaign host", "host@campaign.invalid"), rng=self.rng)
        gs = created.gamestart
        for p in POWERS:
            home = self.homes[p]
            (home / "commin").mkdir(parents=True)
            key = host / "commout" / f"{GAME}_{p}.key"
            shutil.copy(gs, home / "commin" / gs.name)
            shutil.copy(key, home / "commin" / key.name)
            newgame.join(home, home / "commin" / gs.name, p, created.one_time[p], self.pw[p],
                         f"{p.lower()}@campaign.invalid", home / "commin" / key.name)
        for r in self.homes:  # the gamestart and key files are not turn files to pass on
            for f in (self.homes[r] / "commout").glob("*"):
                self.delivered.add((r, f.name))

    def session(self, role: str) -> Session:
        """The folder's session, opened from its save each time; the password's scrypt is paid once per folder."""
        if role not in self.ids:
            self.ids[role] = open_identity(self.homes[role], GAME, role, self.pw[role])
        return Session.open_with(self.homes[role], GAME, self.ids[role])

    def state(self) -> GameState:
        return self.session(HOST).state

    # -------------------------------------------------------------- playing

    def _play(self, p: str) -> None:
        """The computer chooses ``p``'s actions in ``p``'s own folder; the session takes them and writes the file."""
        s = self.session(p)
        st = s.state
        t0 = time.perf_counter()
        if sealed_orders._sealed_round(st) == "reveal":
            pass  # the reveal round opens the orders sealed in the commit round; nothing new is given
        elif st.slot.phase is Phase.SETUP:
            setups.load_setup(s, "default")
        else:
            view = s.current()
            lent = view.with_power(p, controller=self.kind)
            ctx = rules_context(s.slot_dice())
            if sealed_orders._sealed_round(st) == "commit":  # the orders the computer chooses, sealed now
                acts = list(duel.to_commit(lent, p, ctx))
            else:
                acts = list(ai.orders(lent, p, ctx) if st.slot.simultaneous else ai.plan(lent, p, ctx).actions)
            if acts:
                s.act_many(acts)
        self.figures.ai_seconds += time.perf_counter() - t0
        s.end_phase()

    def _deliver(self) -> int:
        """Copy every new file of every folder's commout/ to the other folders' commin/ and load it there."""
        moved = 0
        while True:
            new = []
            for r, home in self.homes.items():
                for f in sorted((home / "commout").glob(f"{GAME}_*.pbm")):
                    if (r, f.name) not in self.delivered:
                        self.delivered.add((r, f.name))
                        new.append((r, f))
            if not new:
                return moved
            for r, f in new:
                self.figures.files += 1
                self.figures.file_bytes += f.stat().st_size
                for o, home in self.homes.items():
                    if o != r:
                        shutil.copy(f, home / "commin" / f.name)
            t0 = time.perf_counter()
            for o in self.homes:
                rep = self.session(o).load_all()
                if rep.refused:
                    raise IllegalAction(f"the {o} folder refused {rep.refused[0][0]}: {rep.refused[0][1]}")
            self.figures.load_seconds += time.perf_counter() - t0
            moved += len(new)

    def check_hashes(self) -> str:
        hashes = {r: self.session(r).state.state_hash().hex() for r in self.homes}
        if len(set(hashes.values())) != 1:
            raise IllegalAction("the folders' states differ: " + ", ".join(f"{r} {h[:12]}" for r, h in hashes.items()))
        self.figures.hashes_checked += 1
        return hashes[HOST]

    def step(self) -> int:
        """Play the slot in play: every due power's file, delivered and loaded everywhere."""
        st = self.state()
        due = list(st.slot.actors)
        for p in due:
            s = self.session(p)
            if s.state.slot is None or p not in s.state.slot.actors:
                continue
            self._play(p)
            if not st.slot.simultaneous:
                self._deliver()
        moved = self._deliver()
        self.figures.slots += 1
        return moved

    def run(self, months: int, *, check_every_slot: bool = True, maps: bool = True) -> GameState:
        with seeded(self.rng):
            return self._run(months, check_every_slot, maps)

    def _run(self, months: int, check_every_slot: bool, maps: bool) -> GameState:
        st = self.state()
        start = st.date.index
        month_key, t_month, files_before = str(st.date), time.perf_counter(), self.figures.files
        while st.slot is not None and st.date.index - start < months:
            self.step()
            if check_every_slot:
                self.check_hashes()
            st = self.state()
            if st.slot is not None:
                self.say(f"  {st.date} {st.slot.phase.value:<14} {time.perf_counter() - t_month:7.1f} s so far this month")
            if st.slot is None or str(st.date) != month_key:
                secs = time.perf_counter() - t_month
                self.figures.months.append((month_key, secs, self.figures.files - files_before))
                self.say(f"month {month_key} done in {secs:.1f} s ({self.figures.files - files_before} files)")
                if maps and (st.slot is None or st.date.index % 12 == start % 12 or st.date.index - start >= months):
                    self.write_map(st)
                month_key, t_month, files_before = str(st.date), time.perf_counter(), self.figures.files
        for r, home in self.homes.items():
            self.figures.folder_bytes[r] = sum(f.stat().st_size for f in home.rglob("*") if f.is_file())
        return st

    def write_map(self, st: GameState) -> Path:
        from eiapbem.data import mapdata
        from eiapbem.present import svgmap

        m = mapdata.load_map(None)
        controllers = svgmap.scenario_controllers(m, {k: v.controller for k, v in st.minors.items()})
        text = svgmap.render_svg(m, controllers=controllers, units=svgmap.units_by_area(self.unit_labels(st)) if self.unit_labels else None,
                                 title=f"{GAME}, {st.date.name}")
        path = self.out / f"map-{st.date}.svg"
        path.write_text(text, encoding="utf-8")
        self.say(f"wrote {path}")
        return path


def power_table(st: GameState) -> list[str]:
    """A line per power: what the state holds (VP, money, manpower, wars, battles, provinces)."""
    from eiapbem.rules import relations

    won = {p: 0 for p in POWERS}
    lost = {p: 0 for p in POWERS}
    for b in list(st.battles.values()) + list(st.naval_battles.values()):
        side = getattr(b, "winner", "")
        att, dfn = getattr(b, "attacker", None), getattr(b, "defender", None)
        for who, res in ((att, "attacker"), (dfn, "defender")):
            if who in won and side in ("attacker", "defender"):
                (won if side == res else lost)[who] += 1
    lines = [f"{'power':<6}{'VP':>6}{'money':>7}{'manpower':>9}  {'battles W/L':>11}  wars"]
    for p in POWERS:
        ps = st.powers[p]
        wars = " ".join(q for q in POWERS if q != p and relations.at_war(st, p, q)) or "-"
        lines.append(f"{p:<6}{ps.victory_points:>6}{ps.treasury:>7}{ps.manpower:>9}  {won[p]:>5}/{lost[p]:<5}  {wars}")
    return lines


def fast_keys_for_bench() -> None:
    """Weak password hashing for a measured campaign only (the scrypt cost is the host's, not the pipeline's)."""
    os.environ.setdefault(TEST_SCRYPT_ENV, "10,1,1")
