"""The by-email game set-up the end-to-end tests share: the host's folder, the clients' folders, files between them.

A game is created by the host and joined by each email client the way players do it: with the real ``eiapbem new``
and ``eiapbem join`` commands (``new_by_command``/``join_by_command``) or, where the test is not about them, with
the same functions in-process (``new_by_api``).  Every client gets the gamestart file and its key in its
``commin/`` (``hand_out``).  Keys are sealed with the weak test scrypt parameters (``FAST``).

The standard game (``STANDARD``: classic-1805, the host playing Russia in ``root/host``, the six other powers email
clients in ``root/<POWER>``, host functions and option changes allowed, a bid of 2 for France) is made once per
test session (the ``seven_folders_made`` fixture of ``conftest.py``) and copied for each test that asks for the
``seven_folders`` fixture.

``Folders`` moves the files: each file from its author's folder to every other folder's ``commin/``, loaded there,
and the state hash of every folder compared.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Mapping

from eiapbem.client import newgame, setups
from eiapbem.client.session import TEST_SCRYPT_ENV, Session
from eiapbem.rules.model import POWERS, Phase

GAME = "Austerlitz"
HOST_PW = "host-secret"
SCRYPT = "10,1,1"
FAST = {TEST_SCRYPT_ENV: SCRYPT}
#: The options and bids of the standard game (``eiapbem new`` arguments).
STANDARD = ("--option", "allow-pbem-host-functions", "--option", "allow-option-changes-during-game", "--bid", "FR=2")
_OTP = re.compile(r"  (\w\w): send .* one-time password separately: (\S+)")

#: ``run(*args, home=..., env=...) -> (exit code, stdout, stderr)``: the real command (``conftest.run_cli``).
Run = Callable[..., tuple[int, str, str]]


def pw(p: str) -> str:
    """A power's password in the tests' games."""
    return f"secret-{p}"


def command(cwd: Path, *args: str, home: Path, input: str | None = None, env: Mapping[str, str] | None = None):
    """Run the real ``eiapbem --home HOME ARGS`` in a fresh process from ``cwd``; (exit code, stdout, stderr)."""
    e = dict(os.environ)
    e.update(env or {})
    p = subprocess.run([sys.executable, "-m", "eiapbem", "--home", str(home), *args], capture_output=True, text=True,
                       input=input, env=e, cwd=str(cwd))
    return p.returncode, p.stdout, p.stderr


def seven_homes(root: Path, host: str = "RU") -> dict[str, Path]:
    """Each power's folder: the host's power in ``root/host``, every other power in ``root/<POWER>``."""
    return {p: root / ("host" if p == host else p) for p in POWERS}


def player_args(types: Mapping[str, str]) -> list[str]:
    """``--player`` arguments of ``eiapbem new``: name ``Player XX``, address ``xx@example.org``, the type given."""
    out: list[str] = []
    for p in POWERS:
        t = types[p]
        out += ["--player", f"{p}:Player {p}:{p.lower()}@example.org:{t}" if t in ("host", "client", "hotseat")
                else f"{p}:{t}"]
    return out


def new_by_command(run: Run, homes: Mapping[str, Path], *, host: str = "RU", game: str = GAME,
                   scenario: str = "classic-1805", extra: Iterable[str] = (),
                   types: Mapping[str, str] | None = None) -> dict[str, str]:
    """``eiapbem new`` in the host's folder (every other power an email client unless ``types`` says otherwise; the
    powers played there with their passwords); returns the one-time passwords it prints, by power."""
    types = types or {p: "host" if p == host else "client" for p in POWERS}
    host = next(p for p in POWERS if types[p] == "host")
    args = ["new", game, "--scenario", scenario, "--host-password", HOST_PW, *extra, *player_args(types)]
    for p in POWERS:  # the powers played in the host's folder have their passwords
        if types[p] in ("host", "hotseat"):
            args += ["--password", f"{p}={pw(p)}"]
    code, out, err = run(*args, home=homes[host], env=FAST)
    assert code == 0, err
    return one_time_passwords(out)


def one_time_passwords(out: str) -> dict[str, str]:
    """The one-time passwords ``eiapbem new`` prints (or says to send), by power."""
    return dict(_OTP.findall(out))


def hand_out(host_home: Path, home: Path, p: str, game: str = GAME) -> Path:
    """The gamestart file and ``p``'s key copied to ``home/commin/`` (as the host mails them); the gamestart's copy."""
    (home / "commin").mkdir(parents=True, exist_ok=True)
    gs = host_home / "commout" / f"{game}_gamestart.pbm"
    shutil.copy(gs, home / "commin" / gs.name)
    shutil.copy(host_home / "commout" / f"{game}_{p}.key", home / "commin" / f"{game}_{p}.key")
    return home / "commin" / gs.name


def join_by_command(run: Run, home: Path, p: str, otp: str, *extra: str, game: str = GAME) -> tuple[int, str, str]:
    """``eiapbem join`` of the gamestart in ``home/commin/`` as ``p`` (its key there too); the command's result."""
    return run("join", f"commin/{game}_gamestart.pbm", "--power", p, "--email", f"{p.lower()}@example.org",
               "--one-time-password", otp, "--password", pw(p), *extra, home=home, env={**FAST, "PWD": str(home)})


def make_by_command(run: Run, root: Path, *, game: str = GAME, extra: Iterable[str] = STANDARD) -> dict[str, Path]:
    """The seven folders of a game created and joined with the real commands; each power's folder."""
    homes = seven_homes(root)
    otp = new_by_command(run, homes, game=game, extra=extra)
    assert sorted(otp) == sorted(p for p in POWERS if p != "RU"), otp
    for p, one_time in otp.items():
        hand_out(homes["RU"], homes[p], p, game)
        code, out, err = join_by_command(run, homes[p], p, one_time, game=game)
        assert code == 0, (p, err)
    return homes


def new_by_api(homes: Mapping[str, Path], types: Mapping[str, str], *, game: str = GAME, flags: Iterable[str] = (),
               wars: Iterable[tuple[str, str]] = (), passwords: Mapping[str, str] | None = None,
               **kw) -> newgame.Created:
    """The same game made in-process: created in the host's folder (the power typed ``host``), then every ``client``
    handed its files and joined in its own folder.  ``passwords`` default to the host's power's."""
    host = next(p for p, t in types.items() if t == "host")
    players = [newgame.Player(p, f"Player {p}", f"{p.lower()}@example.org", types[p]) for p in POWERS]
    created = newgame.new_game(homes[host], game, "classic-1805", players, bids={},
                               options=newgame.options_from_flags(list(flags)), wars=list(wars),
                               passwords=dict(passwords or {host: pw(host)}), host_password=HOST_PW, **kw)
    for p, t in types.items():
        if t == "client":
            gs = hand_out(homes[host], homes[p], p, game)
            newgame.join(homes[p], gs, p, created.one_time[p], pw(p), f"{p.lower()}@example.org",
                         homes[p] / "commin" / f"{game}_{p}.key")
    return created


def setup_moved(s: Session, moves: Mapping[str, str]) -> None:
    """``s``'s power loads the default setup (5.2.2) with the corps of ``moves`` placed in the area given instead."""
    acts = [type(a)(**{**{k: getattr(a, k) for k in a.__dataclass_fields__}, "area": moves[a.corps]})
            if a.KIND == "setup.place-corps" and a.corps in moves else a
            for a in setups.default_actions("classic-1805", s.power)]
    s.act_many(acts)


@dataclass
class Folders:
    """The folders of one game (a folder may hold several powers: the host's, hot-seat ones) and how files travel."""

    homes: dict[str, Path]
    game: str = GAME
    password: Callable[[str], str] = field(default=pw)

    def open(self, p: str) -> Session:
        """``p``'s session, its key unlocked with its password."""
        return Session.open(self.homes[p], self.game, p, self.password(p))

    def sessions(self, powers: Iterable[str] | None = None) -> dict[str, Session]:
        """One open session a power (a player keeps the program open between slots)."""
        return {p: self.open(p) for p in (POWERS if powers is None else powers)}

    def deliver(self, author: str, path: Path, to: Iterable[str] | None = None) -> None:
        """``path`` copied to the ``commin/`` of every folder but its author's (or those of ``to``)."""
        mine = self.homes[author]
        for home in dict.fromkeys(self.homes[q] for q in (self.homes if to is None else to)):
            if home != mine:
                (home / "commin").mkdir(exist_ok=True)
                shutil.copy(path, home / "commin" / path.name)

    @staticmethod
    def load_everyone(sessions: Mapping[str, Session], skip: Iterable[str] = ()) -> None:
        """Every session loads what waits in its ``commin/``; nothing is refused."""
        for q, s in sessions.items():
            if q not in skip:
                rep = s.load_all()
                assert not rep.refused, (q, rep.refused)

    def hashes(self, sessions: Mapping[str, Session]) -> dict[str, bytes]:
        """The state hash in each folder's save on disk (opened again with the key already unlocked)."""
        return {p: Session.open_with(s.home, self.game, s.me).state.state_hash() for p, s in sessions.items()}

    def saved_hashes(self, powers: Iterable[str] | None = None) -> dict[str, bytes]:
        """The state hash in each folder's save, opened with the password."""
        return {p: self.open(p).state.state_hash() for p in (POWERS if powers is None else powers)}

    def play_slot(self, sessions: Mapping[str, Session]) -> dict[str, Path]:
        """Every power due ends the slot in play (no orders); the files travel and are loaded everywhere."""
        st = next(iter(sessions.values())).state
        paths = {p: sessions[p].end_phase() for p in st.slot.actors}
        for p, path in paths.items():
            self.deliver(p, path)
        self.load_everyone(sessions)
        return paths

    def play_until(self, sessions: Mapping[str, Session], stop: Callable[[Any], bool], orders: dict,
                   moves: Mapping[str, Mapping[str, str]] | None = None,
                   after: Callable[[Any], None] | None = None) -> Any:
        """Play slots until ``stop(state)``: in the setup each power loads the default setup (its corps of ``moves``
        placed where given), in a later slot it takes the actions ``orders[(month, phase, step, power)]`` (removed
        once given; ``after(action)`` is called after each) and ends the slot; every file travels and is loaded
        everywhere, and every folder must then hold the same state.  Returns the state where it stopped."""
        moves = moves or {}
        for _ in range(400):
            st = next(iter(sessions.values())).state
            if stop(st):
                return st
            slot = st.slot
            paths = {}
            for p in (slot.actors if slot.simultaneous else (slot.power,)):
                s = sessions[p]
                if slot.phase is Phase.SETUP:
                    setup_moved(s, moves[p]) if p in moves else setups.load_setup(s, "default")
                for a in orders.pop((str(st.date), slot.phase, slot.step, p), ()):
                    s.act(a)
                    if after is not None:
                        after(a)
                paths[p] = s.end_phase()
            for author, path in paths.items():
                self.deliver(author, path)
            self.load_everyone(sessions)
            hashes = {p: s.state.state_hash() for p, s in sessions.items()}
            assert len(set(hashes.values())) == 1, hashes
        raise AssertionError("the game did not get there")
