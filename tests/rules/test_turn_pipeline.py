"""The turn pipeline (issue 14 items 1 and 5): one turn function, a hashed state without history, the journal."""

from __future__ import annotations

import ast
from dataclasses import fields
from pathlib import Path


from eiapbem import ai
from eiapbem.client import setups
from eiapbem.client.turns import first_part, state_parts
from eiapbem.core.dice import Dice
from eiapbem.data.context import rules_context
from eiapbem.rules import sequence, turn
from eiapbem.rules.model import FrozenMap, GameState, LandMove, LogEntry
from paths import PACKAGE

ROOT = PACKAGE


def test_the_log_is_outside_the_hashed_state(start):
    entry = LogEntry(slot="1805-01/setup/turn/RU", author="game", kind="x", text="something happened")
    logged = start.with_log(entry)
    assert logged.log == (entry,)
    assert logged.state_hash() == start.state_hash() and logged == start  # not hashed, not compared
    assert "log" not in logged.to_obj()
    assert GameState.decode(logged.encode()).log == ()  # not encoded: the client's journal keeps it
    assert logged.with_power("FR", treasury=1).log == (entry,)  # the log follows the value through updates


def test_play_turn_is_the_one_function_for_writer_and_reader(start):
    acts = setups.default_actions("classic-1805", "RU")
    a = turn.play_turn(start, "RU", acts, Dice(b"seed"), rules_context, ai)
    b = turn.play_turn(start, "RU", acts, Dice(b"seed"), rules_context, ai)
    assert a.state.state_hash() == b.state.state_hash() and a.events == b.events
    assert a.state.slot.power == "TU"  # the slot was ended
    assert [e.kind for e in a.events][-1] == "setup.done" and len(a.events) == len(a.state.log)


def test_the_rules_core_imports_no_computer_player():
    for path in (ROOT / "rules" / "turn.py",):
        tree = ast.parse(path.read_text())
        names = [n.module for n in ast.walk(tree) if isinstance(n, ast.ImportFrom)] + \
                [a.name for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names]
        assert not any(str(m).startswith("eiapbem.ai") for m in names), names


def test_the_automatic_answers_are_rules_not_client_code():
    from eiapbem.client import battles

    assert battles.exchange_needed is turn.exchange_needed and battles.automatic is turn.automatic
    src = (ROOT / "client" / "battles.py").read_text()
    assert "def exchange_needed" not in src and "def automatic" not in src


def test_versions_name_the_first_difference():
    mine = turn.versions(ai)
    assert turn.version_mismatch(mine, ai) is None
    assert "rules version 0" in turn.version_mismatch(dict(mine, rules=0), ai)
    other = mine["ai-easy"] + 1
    assert f"computer level ai-easy version {other}" in turn.version_mismatch(dict(mine, **{"ai-easy": other}), ai)
    assert "records no rules version" in turn.version_mismatch(None, ai)


def test_the_sequence_empties_the_slots_scratch(start):
    """Issue 14 item 5: the slot's scratch is one record (``model.scratch``) the sequence resets, whatever the slot."""
    from eiapbem.rules.model import NavalMove, SlotScratch

    st = start.with_scratch(movement_over=True, new_depots=("depot:FR:1",),
                            land_moves=FrozenMap({"corps:FR:I": LandMove(start="paris")}),
                            naval_moves=FrozenMap({"fleet:GB:1": NavalMove(start="port:portsmouth")}))
    assert st.movement_over and st.new_depots == ("depot:FR:1",) and set(st.naval_moves) == {"fleet:GB:1"}
    nxt = sequence.advance(st)
    assert nxt.scratch == SlotScratch() and nxt.movement_over is False and nxt.new_depots == ()
    assert len(nxt.land_moves) == 0 and len(nxt.naval_moves) == 0
    assert not {"land_moves", "movement_over", "new_depots", "naval_moves"} & {f.name for f in fields(GameState)}


def test_the_parts_name_where_two_states_differ(start):
    other = start.with_power("RU", treasury=start.powers["RU"].treasury + 1)
    assert first_part(other, state_parts(start)) == "powers.RU"
    assert first_part(start.replace(victors=("FR",)), state_parts(start)) == "victors"
    assert sum(len(k) + 8 for k in state_parts(start)) < 1024  # the parts cost a turn file well under a KiB


def test_an_ai_slot_and_a_resolution_move_the_game_on_without_a_file(start):
    from eiapbem.rules.model import PlayerKind

    st = start.with_power("RU", controller=PlayerKind.AI_EASY)
    ctx = rules_context(Dice(b"x"))
    out, used = turn.advance(st, {}, ai, ai_ctx=lambda key: ctx, resolve_ctx=lambda: ctx,
                             setup_for=lambda s, p: setups.default_actions("classic-1805", p))
    assert out.slot.power == "TU" and not used  # the computer played Russia's setup; Turkey is a human
    assert any(e.kind == "setup.done" and e.author == "RU" for e in out.log)


def _module_imports(path: Path, package: str) -> set[str]:
    """The eiapbem modules a file imports at module level (not inside functions or ``if TYPE_CHECKING``)."""
    tree = ast.parse(path.read_text())
    out = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
                mod = f"{base}.{node.module}" if node.module else base
                out.update(f"{mod}.{a.name}" if not node.module else mod for a in node.names)
            elif node.module and node.module.startswith("eiapbem"):
                out.add(node.module)
                out.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.startswith("eiapbem"))
    return out


def test_the_client_layer_has_no_import_circle_and_no_module_over_800_lines():
    client = ROOT / "client"
    mods = {f"eiapbem.client.{p.stem}": p for p in client.glob("*.py") if p.stem != "__init__"}
    graph = {m: {i for i in _module_imports(p, "eiapbem.client") if i in mods} for m, p in mods.items()}

    def reach(start: str) -> set[str]:
        seen, todo = set(), list(graph[start])
        while todo:
            m = todo.pop()
            if m not in seen:
                seen.add(m)
                todo.extend(graph[m])
        return seen

    circles = sorted(m for m in graph if m in reach(m))
    assert circles == [], circles
    assert "eiapbem.client.turns" in reach("eiapbem.client.session")  # the walk sees the imports
    assert "eiapbem.client.setups" not in reach("eiapbem.client.session")
    assert max(len(p.read_text().splitlines()) for p in mods.values()) <= 800
    assert "eiapbem.rules" not in {i.rsplit(".", 1)[0] for i in _module_imports(ROOT / "pbem" / "bodies.py", "eiapbem.pbem")}
