"""A save's cost with a long journal: the plain encoding against the incremental one (issue 18 item 3).

Opens the host's save of a finished ``eiapbem bench campaign --out DIR --seed SEED`` folder, makes its
journal FACTOR times as long (its own lines repeated) and prints, best of 5 (CPU), the encoding of a save
body that adds 30 new lines, plainly and as ``GameData.to_obj`` does it, the whole sealed save, and the
open (strict decode + ``GameData.from_obj``).  A measurement tool, not a test:

    python tools/measure_save_cost.py DIR SEED [FACTOR]
"""

from __future__ import annotations

import sys
import time
from dataclasses import replace
from pathlib import Path

from eiapbem.client import campaign
from eiapbem.client.session import Session
from eiapbem.client.store import GameData
from eiapbem.core import canonical
from eiapbem.pbem import files
from eiapbem.rules.model import LogEntry


def best(f, n: int = 5) -> float:
    times = []
    for _ in range(n):
        t = time.process_time()
        f()
        times.append(time.process_time() - t)
    return min(times) * 1000


def main(home: str, seed: int, factor: int) -> None:
    s = Session.open(Path(home) / "host", campaign.GAME, "host", f"campaign-host-{seed}")
    j = s.data.journal
    long = tuple(dict(o) for _ in range(factor) for o in j)
    print(f"journal: {len(j)} lines, {len(canonical.encode(list(j))) // 1024} KiB; "
          f"x{factor}: {len(long)} lines, {len(canonical.encode(list(long))) // 1024} KiB")
    new = tuple(LogEntry.from_obj(o, "a line") for o in j[-30:])
    chain = s.contents.chain
    data = replace(s.data, journal=long)

    def plain() -> bytes:
        lines = list(data.journal + tuple(e.to_obj() for e in new))
        return canonical.encode({"chain": chain.to_obj(), "game": dict(data.to_obj(), journal=lines), "starts": {}})

    def incremental() -> bytes:
        d = GameData(data.state.replace(log=new), data.meta, journal=data.journal, journal_enc=data.journal_enc)
        return canonical.encode({"chain": chain.to_obj(), "game": d.absorbed().to_obj(), "starts": {}})

    data.to_obj()  # the first save of a process encodes the whole journal once
    assert plain() == incremental()
    print(f"save body encoded: plain {best(plain):.1f} ms, incremental {best(incremental):.1f} ms")
    print(f"sealed save (encode, encrypt, sign), {len(j)} lines: {best(lambda: files.write_save(s.contents, s.me)):.1f} ms")
    contents = replace(s.contents, game=data.to_obj())
    print(f"sealed save, {len(long)} lines: {best(lambda: files.write_save(contents, s.me)):.1f} ms")
    body = plain()
    print(f"open: canonical.decode {best(lambda: canonical.decode(body)):.1f} ms, with GameData.from_obj "
          f"{best(lambda: GameData.from_obj(canonical.decode(body)['game'], 'the save')):.1f} ms")


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) > 3 else 7)
