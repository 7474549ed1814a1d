"""Turn-file and state sizes of demo-like hot-seat play (README performance table; issue 14 item 5).

Plays a classic-1805 hot-seat game as ``eiapbem demo`` does (the default setups, then every slot ended
without orders) for MONTHS months in a temporary folder, with weak key hashing, and prints the median
and largest turn file, the encoded state and the save at the end.  A measurement tool, not a test:

    python tools/measure_turn_files.py [MONTHS]
"""

from __future__ import annotations

import os
import statistics
import sys
import tempfile
from pathlib import Path


def main(months: int) -> None:
    os.environ.setdefault("EIAPBEM_TEST_SCRYPT", "10,1,1")
    from eiapbem.client import newgame, setups
    from eiapbem.core import canonical
    from eiapbem.client.session import Session, open_identity
    from eiapbem.rules.model import POWERS
    from eiapbem.rules.sequence import SETUP_ORDER

    with tempfile.TemporaryDirectory(prefix="eiapbem-measure-") as tmp:
        home = Path(tmp)
        players = [newgame.Player(p, f"Player {p}", f"{p.lower()}@example.org", "host" if p == "RU" else "hotseat")
                   for p in POWERS]
        pw = {p: f"demo-{p}" for p in POWERS}
        newgame.new_game(home, "Demo", "classic-1805", players, bids={}, options=newgame.options_from_flags([]),
                         passwords=pw, host_password="demo-host")
        ids = {p: open_identity(home, "Demo", p, pw[p]) for p in POWERS}
        sizes = []
        for p in SETUP_ORDER:
            s = Session.open_with(home, "Demo", ids[p])
            setups.load_setup(s, "default")
            sizes.append(s.end_phase().stat().st_size)
        first = Session.open_with(home, "Demo", ids["RU"]).state.date
        state_after = {}
        while True:
            st = Session.open_with(home, "Demo", ids["RU"]).state
            if st.slot is None or st.date == first.plus(months):
                break
            if st.date not in state_after:
                state_after[st.date] = len(st.encode())
            for p in st.slot.actors:
                sizes.append(Session.open_with(home, "Demo", ids[p]).end_phase().stat().st_size)
        last = Session.open_with(home, "Demo", ids["RU"])
        st = last.state
        parts = {k: len(canonical.encode(v)) for k, v in last.contents.to_obj().items()}
        game = last.contents.game
        parts.update({f"game.{k}": len(canonical.encode(v)) for k, v in game.items()} if isinstance(game, dict) else {})
        print("save parts (KiB): " + ", ".join(f"{k} {n / 1024:.1f}" for k, n in sorted(parts.items())))
        save = sum(f.stat().st_size for f in (home / "save").iterdir() if f.name.startswith("Demo.sav"))
        print(f"turn files: {len(sizes)}, median {statistics.median(sizes) / 1024:.1f} KiB, "
              f"largest {max(sizes) / 1024:.1f} KiB")
        for d, n in sorted(state_after.items(), key=lambda kv: str(kv[0])):
            print(f"state at the start of {d}: {n / 1024:.1f} KiB")
        print(f"state after {months} months ({st.date}): {len(st.encode()) / 1024:.1f} KiB; "
              f"units {len(st.units)}; save {save / 1024:.1f} KiB")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 12)
