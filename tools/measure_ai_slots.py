"""How long the computer thinks per slot (issue 19 item 5: one computer slot at most 2 s on 2 cores).

Plays classic-1805 in memory with all seven powers at the computer (the levels mixed as in
``tests/ai/test_ai_never_blocks.py``) and the wars of that test set at the first month, for MONTHS
months.  Every sequential slot (``ai.play_slot``: the computer's actions and the end of the slot)
and every power's orders of a simultaneous slot (``ai.orders``) are timed best of REPEAT runs from
the same state (the play is deterministic, so each run does the same work).  Prints the slowest
slots and the median.  A measurement tool, not a test; the machine's load shows in the figures:

    python tools/measure_ai_slots.py [MONTHS] [REPEAT]
"""

from __future__ import annotations

import hashlib
import statistics
import sys
import time

KINDS = {"FR": "ai-hard", "AU": "ai-medium", "RU": "ai-easy", "PR": "ai-hard", "GB": "ai-medium", "SP": "ai-easy",
         "TU": "ai-medium"}
WARS = (("FR", "AU"), ("FR", "RU"), ("FR", "PR"), ("GB", "FR"), ("GB", "SP"), ("TU", "RU"))


def _best(fn, repeat: int) -> tuple[float, object]:
    best, out = None, None
    for _ in range(repeat):
        t = time.perf_counter()
        out = fn()
        dt = time.perf_counter() - t
        best = dt if best is None or dt < best else best
    assert best is not None
    return best, out


def main(months: int, repeat: int) -> None:
    from eiapbem import ai
    from eiapbem.client import setups
    from eiapbem.core.dice import Dice
    from eiapbem.data import world
    from eiapbem.data.context import rules_context
    from eiapbem.rules import engine
    from eiapbem.rules.model import POWERS, PlayerKind
    from eiapbem.rules.scenario import initial_state

    st = initial_state(world.load_scenario("classic-1805"), world.load_raw(),
                       players={p: PlayerKind(KINDS[p]) for p in POWERS})
    first = None
    times: list[tuple[float, str]] = []
    while st.slot is not None:
        key = st.slot.key(st.date)
        if first is None and st.slot.phase.value != "setup":
            first = st.date
            for a, b in WARS:
                st = st.with_war(a, b, st.date, (a,))
        if first is not None and st.date.index - first.index >= months:
            break
        ctx = rules_context(Dice(hashlib.sha256(b"measure-ai/" + key.encode()).digest()))
        if st.slot.simultaneous:
            orders = {}
            for p in st.slot.actors:
                dt, orders[p] = _best(lambda p=p: ai.orders(st, p, ctx), repeat)
                times.append((dt, f"{key} {p}"))
            st = engine.resolve_slot(st, {p: list(o) for p, o in orders.items()}, ctx).state
        else:
            power = st.slot.power
            setup = setups.default_actions("classic-1805", power) if st.slot.phase.value == "setup" else ()
            dt, turn = _best(lambda: ai.play_slot(st, power, ctx, setup=setup), repeat)
            times.append((dt, f"{key} ({KINDS[power]})"))
            st = turn.state
    times.sort(reverse=True)
    print(f"{len(times)} computer slots over {months} months, best of {repeat} each")
    print(f"median {statistics.median(t for t, _ in times) * 1000:.0f} ms")
    for dt, what in times[:8]:
        print(f"{dt * 1000:7.0f} ms  {what}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 12, int(sys.argv[2]) if len(sys.argv) > 2 else 3)
