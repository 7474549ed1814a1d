"""The pace of a game by email: rounds of mail per game month (issue 33 item 5).

A **round** is a point where a file must travel before anyone can go on.  It is
counted from the files of the game's chain, in chain order (what ``eiapbem
audit`` replays and what ``eiapbem campaign`` delivers):

- a simultaneous step (the diplomacy phase's commit or orders round, the
  economic phase) is one round, however many files it has;
- a sequential slot's turn file is one round, except that the next files of the
  same author, with no other file between them (the slots between were the
  computer's, or passed without a file, or skipped), go with it: the author plays
  on without waiting, and mails them together;
- each battle-file exchange of a slot adds two rounds (the question travels to
  the defender, the reply back); the attacker's close file waits for nothing;
- the host's admin files are rounds like any other author's.

Slots no file plays (the computer's, slots with nothing to decide, 13.9 skips)
cost no round.  The setup phase is counted apart from the months.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Iterable

from eiapbem.core.errors import EiaError
from eiapbem.pbem import crypto
from eiapbem.pbem.envelope import Envelope


@dataclass(frozen=True)
class Step:
    """One step of the chain: its files' slots and authors, whether simultaneous, and the battle exchanges it carries."""

    month: str
    authors: tuple[str, ...]
    simultaneous: bool
    exchanges: int = 0


@dataclass
class Pace:
    """Rounds of mail per game month (and of the setup phase), in the order the months came."""

    months: dict[str, int] = field(default_factory=dict)
    #: Files per month (turn and admin files; battle files are in ``battle_files``).
    files: dict[str, int] = field(default_factory=dict)
    battle_files: dict[str, int] = field(default_factory=dict)
    setup: int = 0

    def lines(self) -> list[str]:
        """One line per month: rounds, files."""
        out = []
        if self.setup:
            out.append(f"  setup: {self.setup} round{'s' if self.setup != 1 else ''} of mail")
        for m, n in self.months.items():
            b = self.battle_files.get(m, 0)
            out.append(f"  {m}: {n} round{'s' if n != 1 else ''} of mail ({self.files.get(m, 0)} turn and admin files"
                       + (f", {b} battle files" if b else "") + ")")
        return out

    def to_obj(self) -> dict:
        return {"setup": self.setup, "months": [{"month": m, "rounds": n, "files": self.files.get(m, 0),
                                                 "battle_files": self.battle_files.get(m, 0)} for m, n in self.months.items()]}


def month_of(slot: str) -> str:
    """``1805-03`` of a slot key ``1805-03/naval/turn/GB``; ``setup`` for the setup phase; ``admin`` otherwise."""
    parts = slot.split("/")
    if len(parts) >= 2 and parts[1] == "setup":
        return "setup"
    if len(parts) >= 2 and len(parts[0]) == 7 and parts[0][4] == "-":
        return parts[0]
    return ""


def count(steps: Iterable[Step]) -> Pace:
    """The rounds of mail of ``steps`` (in chain order), by month."""
    out = Pace()
    last: str | None = None  # the author of the run of sequential files in progress
    month = ""
    for st in steps:
        m = st.month or month  # an admin file counts in the month in play
        month = m
        out.files[m] = out.files.get(m, 0) + len(st.authors)
        if st.exchanges:
            out.battle_files[m] = out.battle_files.get(m, 0) + 2 * st.exchanges + 1
        solo = not st.simultaneous and len(st.authors) == 1
        rounds = 2 * st.exchanges
        if not (solo and st.authors[0] == last):
            rounds += 1
        last = st.authors[0] if solo else None
        if m == "setup":
            out.setup += rounds
        else:
            out.months[m] = out.months.get(m, 0) + rounds
    return out


def ordinary(p: Pace, economic: bool = False) -> list[tuple[str, int]]:
    """The months with (``economic``) or without an economic phase (March, June, September, December: 12.0)."""
    return [(m, n) for m, n in p.months.items() if (int(m[5:7]) % 3 == 0) == economic]


def step_of(env: Envelope, me: Any, name: str) -> tuple[tuple[int, int], Step]:
    """A turn or admin file as a step of the chain: its place (epoch, seq), month, author and battle exchanges (read
    from its body with ``me``'s key: the battle files it carries)."""
    h = env.header
    parts = h.slot.split("/")
    simultaneous = h.kind == "turn" and len(parts) == 4 and parts[2] != "turn"
    exchanges = 0
    if h.kind == "turn" and not simultaneous:
        try:
            body = crypto.open_body(env, crypto.unwrap_key(env, me.role, me.decrypter, name), name)
            exchanges = sum((len(f) - 1) // 2 for f in body.get("battles", {}).values())
        except (EiaError, AttributeError, TypeError):
            exchanges = 0  # not readable with this key: only the count of its battle files is lost
    return (h.epoch, h.seq), Step(month_of(h.slot), (h.author,), simultaneous, exchanges)


def join(steps: Iterable[tuple[tuple[int, int], Step]]) -> list[Step]:
    """The files of one simultaneous step (the same epoch and place in the chain) as one step, in chain order."""
    out: list[Step] = []
    at: tuple[int, int] | None = None
    for where, st in sorted(steps, key=lambda x: x[0]):
        if st.simultaneous and out and where == at and out[-1].simultaneous:
            out[-1] = Step(out[-1].month, out[-1].authors + st.authors, True)
        else:
            out.append(st)
        at = where
    return out


def of_session(s: Any) -> Pace:
    """The rounds of mail of the game a session's folder holds: every turn and admin file its chain accepted, from
    the places a folder keeps them (``client/inbox.py``), with ``s.me``'s key to count their battle files."""
    from eiapbem.pbem import files

    from .inbox import places

    known = s.contents.chain.known
    seen: dict[bytes, tuple[tuple[int, int], Step]] = {}
    for place in places(s.folders):
        if not place.is_dir():
            continue
        for p in sorted(place.iterdir()):
            if not p.is_file() or not p.name.endswith(".pbm"):
                continue
            try:
                rec = files.read_file(p)  # parsed once (docs/architecture.md)
            except EiaError:
                continue
            h = rec.header
            if h.game != s.game or h.kind not in ("turn", "admin"):
                continue
            if rec.hash in known and rec.hash not in seen:
                seen[rec.hash] = step_of(rec.env, s.me, p.name)
    return count(join(seen.values()))

