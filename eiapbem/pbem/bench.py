"""Timings of the file layer for ``eiapbem bench files`` (a benchmark that prints, not a test)."""

from __future__ import annotations

import os
import time
from dataclasses import dataclass
from typing import Any, Callable

from eiapbem.core.powers import POWERS

from . import crypto, envelope, files, keys
from .chain import Battle, Step


@dataclass(frozen=True)
class Row:
    what: str
    size: int
    seal_ms: float
    open_ms: float
    verify_ms: float


def synthetic_state(kib: int) -> dict[str, Any]:
    """A state-like canonical value of about ``kib`` KiB: units with factors, powers with numbers."""
    units: list[Any] = []
    i = 0
    while len(units) * 64 < kib * 1024:
        units.append({"id": f"corps:FR:{i}", "area": f"area-{i % 300}", "factors": [i % 7, i % 11, i % 5], "morale": 400})
        i += 1
    return {"powers": {p: {"money": 30, "manpower": 12} for p in POWERS}, "units": units}


def best_of(fn: Callable[[], object], repeat: int, clock: Callable[[], float] = time.perf_counter) -> float:
    """The shortest of ``repeat`` runs of ``fn``, in seconds of ``clock`` (wall clock unless told; the one timer of
    every benchmark)."""
    best = float("inf")
    for _ in range(repeat):
        t = clock()
        fn()
        best = min(best, clock() - t)
    return best


def _best(fn: Callable[[], object], repeat: int) -> float:
    return best_of(fn, repeat) * 1000


def run(state_kib: int = 256, logn: int = crypto.STRONG_LOGN, repeat: int = 3) -> tuple[list[Row], float]:
    """Seal, open and verify each kind once per repeat (best time), and time one password KDF."""
    ids = {r: keys.Identity.generate(r, dice_n=64) for r in POWERS + ("host",)}
    roster = {r: i.public() for r, i in ids.items()}
    state = synthetic_state(state_kib)
    rows: list[Row] = []

    gs_holder: list[Any] = []
    seal_ms = _best(lambda: gs_holder.append(files.create_gamestart(ids["host"], roster, "Bench", os.urandom(16), state)), repeat)
    gs, host_chain = gs_holder[-1]
    envelope.parse(gs.data)
    rows.append(Row("gamestart (full state)", len(gs.data), seal_ms,
                    _best(lambda: files.open_gamestart(gs.data, [ids["FR"]]), repeat),
                    _best(lambda: crypto.verify(envelope.parse(gs.data), roster["host"].sign), repeat)))
    fr_chain, _ = files.open_gamestart(gs.data, [ids["FR"]])

    step = Step.one("1805-05/naval/GB", "GB")
    turn_body = {"actions": [["move", f"fleet:GB:{i}", "north-sea"] for i in range(40)], "state_after": bytes(32)}
    t_holder: list[Any] = []
    seal_ms = _best(lambda: t_holder.append(files.write_turn(host_chain, ids["GB"], step, "1805-05/naval/GB", turn_body)), repeat)
    t, _ = t_holder[-1]
    rows.append(Row("turn (40 actions)", len(t.data), seal_ms,
                    _best(lambda: files.load_file(fr_chain, t.data, [ids["FR"]], step, "t"), repeat),
                    _best(lambda: crypto.verify(envelope.parse(t.data), roster["GB"].sign), repeat)))

    contents = files.SaveContents(fr_chain, state, {})
    s_holder: list[Any] = []
    seal_ms = _best(lambda: s_holder.append(files.write_save(contents, ids["FR"])), repeat)
    s = s_holder[-1]
    rows.append(Row("save .sav + .sav.dat", len(s.data) + len(s.dat), seal_ms,
                    _best(lambda: files.open_save(s.data, s.dat, ids["FR"]), repeat),
                    _best(lambda: crypto.verify(envelope.parse(s.data, max_size=envelope.MAX_SAV), roster["FR"].sign), repeat)))

    b_holder: list[Any] = []
    seal_ms = _best(lambda: b_holder.append(files.write_backups(host_chain, ids["host"], bytes(32), {"FR": state})), repeat)
    b = b_holder[-1]["FR"]
    rows.append(Row("backup for one power", len(b.data) + len(b.dat), seal_ms,
                    _best(lambda: files.open_backup(b.data, b.dat, ids["FR"], fr_chain), repeat),
                    _best(lambda: crypto.verify(envelope.parse(b.data, max_size=envelope.MAX_SAV), roster["host"].sign), repeat)))

    battle = Battle.begin(host_chain, "lille0", "FR", "AU")
    bt_holder: list[Any] = []
    seal_ms = _best(lambda: bt_holder.append(files.write_battle(host_chain, battle, ids["FR"], "b", {"chit": 3}, commit=bytes(32))), repeat)
    bt, _ = bt_holder[-1]
    au_battle = Battle.begin(fr_chain, "lille0", "FR", "AU")
    rows.append(Row("battle step", len(bt.data), seal_ms,
                    _best(lambda: files.load_battle(fr_chain, au_battle, bt.data, [ids["AU"]], "b"), repeat),
                    _best(lambda: crypto.verify(envelope.parse(bt.data), roster["FR"].sign), repeat)))

    k_holder: list[Any] = []
    kdf_ms = _best(lambda: k_holder.append(keys.seal_identity(ids["FR"], "benchmark password", "Bench", logn=logn)), 1)
    k = k_holder[-1]
    rows.append(Row(f"identity (scrypt logn={logn})", len(k), kdf_ms,
                    _best(lambda: keys.open_identity(k, "benchmark password"), 1),
                    _best(lambda: crypto.verify(envelope.parse(k), roster["FR"].sign), repeat)))
    kdf_only = _best(lambda: crypto.scrypt_key("benchmark password", bytes(16), logn, crypto.STRONG_R, crypto.STRONG_P), 1)
    return rows, kdf_only
