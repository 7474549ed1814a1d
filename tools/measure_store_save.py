"""The cost of one ``Store.save`` in a game folder, as a load makes it (issue 18 item 3).

Copies FOLDER (a game folder, e.g. one power's folder of ``eiapbem campaign --out``) to a temporary
folder, never writing into FOLDER, opens its save as ROLE with PASSWORD, and times N saves (encode,
seal, write, fsync), each after a stand-in for a loaded file: one more known hash and one more slot
in the chain, new objects as ``Chain.accept`` makes them.  Prints the best CPU and wall-clock time
and the size of the ``.sav.dat`` and of the segments.  A measurement tool, not a test:

    python tools/measure_store_save.py FOLDER ROLE PASSWORD [N] [--any-version]

``--any-version`` opens a folder made by another version of the computer players (the save format is
what is measured; no rule is played).  Campaign folders' passwords are ``campaign-<role>-<seed>``.
"""

from __future__ import annotations

import hashlib
import shutil
import sys
import tempfile
import time
from dataclasses import replace
from pathlib import Path

from eiapbem.client import session as session_mod
from eiapbem.client.session import Session, find_game, open_identity


def main(folder: str, role: str, password: str, n: int, any_version: bool) -> None:
    if any_version:
        session_mod.check_versions = lambda *a, **k: None  # type: ignore[assignment]
    with tempfile.TemporaryDirectory() as tmp:
        home = Path(tmp) / "folder"
        shutil.copytree(folder, home)
        game = find_game(home, None)
        s = Session.open_with(home, game, open_identity(home, game, role, password))
        s.save()  # the first save of a process (and of an older, inline save: its segments cut)
        cpu, wall = [], []
        for i in range(n):
            ch = s.contents.chain
            h = hashlib.sha256(b"stand-in %d" % i).digest()
            s.contents = replace(s.contents, chain=replace(ch, known=ch.known | {h}, slots={**ch.slots, f"bench/{i}": h}))
            t, c = time.perf_counter(), time.process_time()
            s.save()
            cpu.append(time.process_time() - c)
            wall.append(time.perf_counter() - t)
        save = home / "save"
        dat = (save / f"{game}.sav.dat").stat().st_size
        segs = list((save / f"{game}.segments").glob("*.seg")) if (save / f"{game}.segments").is_dir() else []
        print(f"{folder}: Store.save best of {n}: {min(cpu) * 1000:.2f} ms CPU, {min(wall) * 1000:.2f} ms wall "
              f"(median wall {sorted(wall)[n // 2] * 1000:.2f} ms); journal {len(s.data.journal)} lines, "
              f"{len(s.contents.chain.known)} known files; .sav.dat {dat // 1024} KiB; "
              f"{len(segs)} segments, {sum(p.stat().st_size for p in segs) // 1024} KiB")


if __name__ == "__main__":
    args = [a for a in sys.argv[1:] if a != "--any-version"]
    main(args[0], args[1], args[2], int(args[3]) if len(args) > 3 else 25, "--any-version" in sys.argv)
