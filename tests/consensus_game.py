"""The consensus tripwire's game (issue 29 item 3): a seeded two-month game with every computer level.

Every client of a game must compute the same state from the same files: what
``rules.turn.play_turn`` and the computer players (``eiapbem.ai``) produce is
a contract, versioned by ``RULES_VERSION`` (``eiapbem/rules/turn.py``) and each
computer level's number (``eiapbem/ai/levels.py`` ``VERSIONS``), which every
gamestart records.  A change that makes the same game give other states while
those numbers stay the same forks every game in progress.

This module plays the classic-1805 campaign from the setup through two months,
every power at the computer and every level among them, with dice fixed by
slot, and records for each slot what the computer did (its actions, or each
power's orders) and the state hash after it.  ``tests/golden/consensus.json``
holds that record with the versions it was made under; ``tests/rules/test_consensus.py``
plays the game again and compares.

After a change that alters what a file or a computer level produces, bump the
number the test names and write the record again with one command::

    .venv/bin/python tests/consensus_game.py --write
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

GOLDEN = Path(__file__).resolve().parent / "golden" / "consensus.json"
MONTHS = 2
SCENARIO = "classic-1805"
#: Every computer level plays: the powers' levels in the game.
LEVELS = {"AU": "ai-easy", "FR": "ai-hard", "GB": "ai-medium", "PR": "ai-easy", "RU": "ai-medium", "SP": "ai-hard",
          "TU": "ai-easy"}
REGENERATE = ".venv/bin/python tests/consensus_game.py --write"


def _dice(key: str) -> Any:
    from eiapbem.core.dice import Dice

    return Dice(hashlib.sha256(b"eiapbem/consensus-tripwire/" + key.encode()).digest())


def _acts(actions: Any) -> str:
    """A slot's actions as hex canonical msgpack (the record keeps them to tell a rules change from the computer's)."""
    from eiapbem.core import canonical
    from eiapbem.rules import engine

    return canonical.encode([engine.action_to_obj(a) for a in actions]).hex()


def start() -> Any:
    from eiapbem.data import world
    from eiapbem.rules.model import POWERS, PlayerKind
    from eiapbem.rules.scenario import initial_state

    return initial_state(world.load_scenario(SCENARIO), world.load_raw(),
                         players={p: PlayerKind(LEVELS[p]) for p in POWERS})


def step(st: Any) -> tuple[Any, dict]:
    """One slot played by the computer; the state after and the slot's record."""
    from eiapbem import ai
    from eiapbem.client import setups
    from eiapbem.data.context import rules_context
    from eiapbem.rules import engine

    key = st.slot.key(st.date)
    ctx = rules_context(_dice(key))
    row: dict = {"slot": key}
    if st.slot.simultaneous:
        orders = {p: list(ai.orders(st, p, ctx)) for p in st.slot.actors}
        st = engine.resolve_slot(st, orders, ctx).state
        row["orders"] = {p: _acts(a) for p, a in sorted(orders.items())}
    else:
        power = st.slot.power
        setup = setups.default_actions(SCENARIO, power) if st.slot.phase.value == "setup" else []
        try:
            turn = ai.play_slot(st, power, ctx, setup=setup)
            st, acts = turn.state, turn.actions
        except ai.AiStuck:
            st, acts = engine.end_slot(st, power, ctx).state, ()
        row["power"] = power
        row["actions"] = _acts(acts)
    row["state"] = st.state_hash().hex()
    return st, row


def replay(st: Any, row: dict) -> str:
    """The state hash the recorded actions (or orders) give from ``st`` under today's rules, the computer not asked
    to choose: what a client replaying a file computes."""
    from eiapbem import ai
    from eiapbem.core import canonical
    from eiapbem.data.context import rules_context
    from eiapbem.rules import engine

    ctx = rules_context(_dice(row["slot"]))

    def acts(hexed: str) -> list:
        return [engine.action_from_obj(o) for o in canonical.decode(bytes.fromhex(hexed))]

    if "orders" in row:
        return engine.resolve_slot(st, {p: acts(h) for p, h in row["orders"].items()}, ctx).state.state_hash().hex()
    power = row["power"]
    played = ai.apply_actions(st, power, acts(row["actions"]), ctx)
    return engine.end_slot(played.state, power, ctx).state.state_hash().hex()


def play(months: int = MONTHS) -> dict:
    """The game and its record: the versions, the levels, and each slot's actions and state hash."""
    from eiapbem import ai
    from eiapbem.rules import turn

    st = start()
    rows = [{"slot": "start", "state": st.state_hash().hex()}]
    first = None
    while st.slot is not None:
        if first is None and st.slot.phase.value != "setup":
            first = st.date
        if first is not None and st.date.index - first.index >= months:
            break
        st, row = step(st)
        rows.append(row)
    return {"versions": turn.versions(ai), "scenario": SCENARIO, "months": months, "levels": LEVELS, "slots": rows}


def verdict(golden: dict, now: dict) -> str | None:
    """None when ``now`` is the golden game; else one message saying what changed and which number to bump."""
    if golden["versions"] != now["versions"] or golden.get("levels") != now["levels"]:
        return (f"the consensus record was made under versions {golden['versions']}, but this code plays "
                f"{now['versions']}: write the record again with '{REGENERATE}' (after bumping a version, that is "
                "the one more step)")
    for i, (g, n) in enumerate(zip(golden["slots"], now["slots"])):
        if g == n:
            continue
        where = f"slot {g['slot']} (the {i}th of the seeded {golden['months']}-month game)"
        if g["slot"] != n["slot"]:
            return _bump(f"the game reaches {n['slot']} where it reached {g['slot']} ({i}th slot)", rules=True, levels=[])
        levels = _changed_levels(g, n)
        if not levels:
            return _bump(f"the same actions give another state at {where}", rules=True, levels=[])
        st = _state_before(now, i)
        rules_same = st is not None and replay(st, g) == g["state"]
        return _bump(f"the computer chose other actions at {where}"
                     + ("; the recorded actions still give the recorded state, so the rules did not change" if rules_same
                        else "; the recorded actions no longer give the recorded state either"),
                     rules=not rules_same, levels=levels)
    if len(golden["slots"]) != len(now["slots"]):
        return _bump(f"the game has {len(now['slots'])} slots where it had {len(golden['slots'])}", rules=True, levels=[])
    return None


def replays_differ(rec: dict) -> str | None:
    """The first slot whose recorded actions do not give its recorded state when replayed, or None."""
    st = start()
    for row in rec["slots"][1:]:
        if replay(st, row) != row["state"]:
            return row["slot"]
        st, _ = step(st)
    return None


def _changed_levels(g: dict, n: dict) -> list[str]:
    if "orders" in g and "orders" in n:
        return sorted({LEVELS[p] for p in set(g["orders"]) | set(n["orders"]) if g["orders"].get(p) != n["orders"].get(p)})
    if g.get("actions") != n.get("actions"):
        return [LEVELS[g["power"]]] if "power" in g else []
    return []


def _state_before(now: dict, i: int) -> Any:
    """The state before the ``i``-th slot, played again (the slots before it agree with the record)."""
    st = start()
    for _ in range(i - 1):
        st, _ = step(st)
    return st


def _bump(what: str, *, rules: bool, levels: list[str]) -> str:
    from eiapbem import ai
    from eiapbem.rules import turn

    nums = []
    if rules:
        nums.append(f"RULES_VERSION in eiapbem/rules/turn.py (now {turn.RULES_VERSION})")
    nums += [f"VERSIONS[{lv!r}] in eiapbem/ai/levels.py (now {ai.VERSIONS[lv]})" for lv in levels]
    return (f"what the game produces changed while its versions stayed the same: {what}. Every game in progress "
            f"would fork. Bump {' and '.join(nums)}, then write the record again with '{REGENERATE}'.")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--write", action="store_true", help=f"write {GOLDEN.relative_to(GOLDEN.parent.parent.parent)}")
    a = ap.parse_args()
    now = play()
    if a.write:
        bad = replays_differ(now)
        if bad:  # the record must tell the rules from the computer: its actions must replay to its states
            sys.exit(f"the actions recorded at {bad} do not replay to the state recorded there; nothing written")
        GOLDEN.parent.mkdir(parents=True, exist_ok=True)
        GOLDEN.write_text(json.dumps(now, indent=1, sort_keys=True) + "\n", encoding="utf-8")
        print(f"wrote {GOLDEN} ({len(now['slots'])} slots, versions {now['versions']})")
        return
    golden = json.loads(GOLDEN.read_text(encoding="utf-8"))
    v = verdict(golden, now)
    print(v or f"the game is the recorded one ({len(now['slots'])} slots, versions {now['versions']})")
    sys.exit(1 if v else 0)


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    main()
