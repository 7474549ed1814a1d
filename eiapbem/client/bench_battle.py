"""A battle by battle files between two folders, measured for ``eiapbem bench files`` (a benchmark, not a test).

France plays its land slot in the host folder; Austria is an email client in a
second folder and Prussia a third that only loads France's turn file.  The
battle (two corps a side at Ulm, two Austrian leaders of equal seniority, so
Austria chooses its commander) is started on a state the three folders share,
as the battle-file tests do (the land phase's attack action is measured by
``bench game``); every step after that goes through the sessions and real
battle files, copied between the folders as email would, each side taking the
first choice it is offered.  Key files use weak scrypt parameters, so the
password hash does not hide the figures.
"""

from __future__ import annotations

import os
import shutil
import tempfile
import time
from dataclasses import dataclass, replace
from pathlib import Path

from eiapbem.core.dice import Dice
from eiapbem.core.errors import RulesBug
from eiapbem.data.context import rules_context
from eiapbem.rules.combat.field import start_field_battle
from eiapbem.rules.engine import AnswerDecision
from eiapbem.rules.model import (Corps, Date, Factors, GameState, Leader, LeaderStatus, Location, LocationKind, Phase,
                                 Slot)
from eiapbem.rules.model.units import CorpsType

from . import newgame
from .session import TEST_SCRYPT_ENV, Session

GAME = "Ulm"
BID = "battle:1805-09:ulm:0"


@dataclass(frozen=True)
class BattleRow:
    what: str
    size: int
    #: end-phase for the turn file (a battle file is written inside an answer or a load, not timed apart)
    write_ms: float | None
    #: ``load`` in the receiving folder, the session's opening included
    load_ms: float


def _battle_state(state: GameState) -> GameState:
    s = state.replace(date=Date(1805, 9), slot=Slot(phase=Phase.LAND, step="turn", power="FR", actors=("FR",)))
    s = s.with_war("FR", "AU", Date(1805, 9), ("FR",))
    for cid, inf, cav in (("corps:FR:I", 12, 2), ("corps:FR:II", 10, 0), ("corps:AU:I", 12, 2), ("corps:AU:II", 10, 0)):
        s = s.with_unit(Corps(id=cid, nation=cid.split(":")[1], corps_type=CorpsType.REGULAR,
                              location=Location(LocationKind.AREA, "ulm"), factors=Factors(infantry=inf, cavalry=cav)))
    for lid, cid in (("leader:AU:charles", "corps:AU:I"), ("leader:AU:ferdinand", "corps:AU:II")):
        s = s.with_leader(Leader(id=lid, power="AU", status=LeaderStatus.ON_MAP, attached_to=cid))
    s = start_field_battle(s, "ulm", ["corps:FR:I", "corps:FR:II"], ["corps:AU:I", "corps:AU:II"],
                           rules_context(Dice(b"bench: the slot before"))).state
    return GameState.decode(s.encode())


def _own(s: Session, power: str) -> list:
    return sorted((d for d in s.current().pending.values() if d.power == power), key=lambda d: d.id)


def run() -> list[BattleRow]:
    """Fight the battle once: the battle files by kind (the largest, the quickest load in the other folder), and
    France's turn file carrying them all (its end-phase, and its load in a third folder)."""
    old = os.environ.get(TEST_SCRYPT_ENV)
    os.environ[TEST_SCRYPT_ENV] = "10,1,1"
    try:
        with tempfile.TemporaryDirectory(prefix="eiapbem-bench-battle-") as tmp:
            return _fight(Path(tmp))
    finally:
        if old is None:
            os.environ.pop(TEST_SCRYPT_ENV, None)
        else:
            os.environ[TEST_SCRYPT_ENV] = old


def _fight(root: Path) -> list[BattleRow]:
    homes = {"FR": root / "host", "AU": root / "au", "PR": root / "pr"}
    clients = ("AU", "PR")
    players = [newgame.Player(p, f"Player {p}", f"{p.lower()}@example.org",
                              "host" if p == "FR" else "client" if p in clients else "hotseat")
               for p in ("AU", "FR", "GB", "PR", "RU", "SP", "TU")]
    created = newgame.new_game(homes["FR"], GAME, "classic-1805", players, bids={}, options=newgame.options_from_flags([]),
                               passwords={p.power: f"pw-{p.power}" for p in players if p.power not in clients},
                               host_password="pw-host")
    out = homes["FR"] / "commout"
    for p in clients:
        newgame.join(homes[p], out / f"{GAME}_gamestart.pbm", p, created.one_time[p], f"pw-{p}", f"{p.lower()}@example.org",
                     out / f"{GAME}_{p}.key")

    def open_(p: str) -> Session:
        return Session.open(homes[p], GAME, p, f"pw-{p}")

    start = _battle_state(open_("FR").state)
    for p in homes:
        s = open_(p)
        s.data = replace(s.data, state=start)
        s.save()
    sizes: dict[str, list[int]] = {"question": [], "reply": [], "close": []}
    load: dict[str, list[float]] = {k: [] for k in sizes}

    def send(dst: str, path: Path, kind: str) -> None:
        """Copy a battle file as email would and time its load in the other folder (session opening included)."""
        target = homes[dst] / "battles" / path.name
        target.parent.mkdir(exist_ok=True)
        shutil.copy(path, target)
        sizes[kind].append(path.stat().st_size)
        t = time.perf_counter()
        open_(dst).load_path(target)
        load[kind].append(time.perf_counter() - t)

    fr = open_("FR")  # its session writes the first question as it opens
    for _ in range(400):
        f = fr.fights()[BID]
        if f.closed:
            break
        mine = _own(fr, "FR")
        if mine:
            fr.act(AnswerDecision(mine[0].id, mine[0].options[0]))
            continue
        send("AU", homes["FR"] / "battles" / f.name, "question")
        au = open_("AU")
        au.last_battle_file = None
        while au.last_battle_file is None:
            q = _own(au, "AU")[0]
            au.act(AnswerDecision(q.id, q.options[0]))
        send("FR", au.last_battle_file, "reply")
        fr = open_("FR")
    else:
        raise RulesBug("the benchmark's battle by battle files does not end")
    send("AU", homes["FR"] / "battles" / fr.fights()[BID].name, "close")
    t = time.perf_counter()
    turn = open_("FR").end_phase()
    t_end = time.perf_counter() - t
    (homes["PR"] / "commin").mkdir(exist_ok=True)
    shutil.copy(turn, homes["PR"] / "commin" / turn.name)
    t = time.perf_counter()
    rep = open_("PR").load_all()
    t_load = time.perf_counter() - t
    if rep.refused or not rep.loaded:
        raise RulesBug(f"the turn file carrying the benchmark's battle was not loaded: {rep.refused}")
    rows = [BattleRow(f"battle {kind} file (the largest of {len(sizes[kind])})", max(sizes[kind]), None,
                      min(load[kind]) * 1000) for kind in ("question", "reply", "close")]
    n = sum(len(v) for v in sizes.values())
    rows.append(BattleRow(f"France's turn file carrying the {n} battle files", turn.stat().st_size, t_end * 1000,
                          t_load * 1000))
    return rows
