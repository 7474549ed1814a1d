"""A seeded game played by the computer for every power, printing a hash per slot (issue 20 item 7).

Run as ``python tests/seeded_game.py --months N``; ``tests/e2e/test_cross_version.py``
runs it under every Python 3.11-3.13 the machine has and several
``PYTHONHASHSEED`` values and compares the lines.  The rules part is the
classic-1805 campaign with every power at the computer (ai-hard), dice from
fixed seeds by slot; the file part seals a gamestart and a turn file with a
seeded randomness source (``crypto.KeystreamRng``) so their hashes must be
equal too.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))


def rules_lines(months: int) -> list[str]:
    from eiapbem import ai
    from eiapbem.client import setups
    from eiapbem.core.dice import Dice
    from eiapbem.data import world
    from eiapbem.data.context import rules_context
    from eiapbem.rules import engine
    from eiapbem.rules.model import POWERS, PlayerKind
    from eiapbem.rules.scenario import initial_state

    st = initial_state(world.load_scenario("classic-1805"), world.load_raw(),
                       players={p: PlayerKind("ai-hard") for p in POWERS})
    out = [f"start {st.state_hash().hex()}"]
    first = None
    while st.slot is not None:
        key = st.slot.key(st.date)
        if first is None and st.slot.phase.value != "setup":
            first = st.date
        if first is not None and st.date.index - first.index >= months:
            break
        ctx = rules_context(Dice(hashlib.sha256(b"seeded-game/" + key.encode()).digest()))
        if st.slot.simultaneous:
            orders = {p: list(ai.orders(st, p, ctx)) for p in st.slot.actors}
            st = engine.resolve_slot(st, orders, ctx).state
        else:
            setup = setups.default_actions("classic-1805", st.slot.power) if st.slot.phase.value == "setup" else []
            try:
                st = ai.play_slot(st, st.slot.power, ctx, setup=setup).state
            except ai.AiStuck:
                st = engine.end_slot(st, st.slot.power, ctx).state
        out.append(f"{key} {st.state_hash().hex()}")
    return out


def file_lines() -> list[str]:
    from pbem_game import Game

    g = Game(b"cross-version")
    t = g.turn("FR", "1805-03/naval/turn/FR", {"actions": [], "n": 1805})
    return [f"gamestart {hashlib.sha256(g.gamestart.data).hexdigest()}", f"turn {hashlib.sha256(t.data).hexdigest()}"]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--months", type=int, default=1)
    a = ap.parse_args()
    print(json.dumps({"python": sys.version.split()[0], "lines": file_lines() + rules_lines(a.months)}))


if __name__ == "__main__":
    main()
