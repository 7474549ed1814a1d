"""The import graph of the package: no circle, nothing upward (issue 14 item 6, DESIGN.md 7).

Layers, lowest first: ``core``; ``rules``; ``ai``, ``pbem``, ``gap``,
``present`` and ``data`` (peers: they may read each other, except that the
computer players call only the rules); ``client`` and ``rulecases`` (the
rules-case harness, used by ``eiapbem rules test``); ``host``; ``cli`` and ``view`` (peers at the top, DESIGN.md
8: the view is a client of the client; only the ``view`` command's and the benchmark's modules of the CLI start it).
Every import counts, also one inside a function.
"""

from __future__ import annotations

import ast
from pathlib import Path
from paths import PACKAGE


RANK = {
    "core": 0, "__init__": 0,
    "rules": 1,
    "ai": 2, "pbem": 2, "gap": 2, "present": 2, "data": 2,
    "client": 3, "rulecases": 3,
    "host": 4,
    "cli": 5, "view": 5, "__main__": 6,
}
#: What the computer players may import (they are called by client and host, and call only the rules).
AI_MAY_IMPORT = {"ai", "rules", "core", "__init__"}

#: Known exceptions, each owned by an open issue; remove the entry with the circle.
KNOWN_CIRCLES: set[tuple[str, ...]] = set()
# (issue 15: the session/setups circle went with the session split, and the circle
# cli.actions_cmd - cli.game_cmd - client.demo with the lazy CLI, engineer `cli`.)
KNOWN_UPWARD: set[tuple[str, str]] = set()
# (issue 15, engineer `cli`: client.demo no longer imports cli.game_cmd; the status text is client/status.py.)


def _modules() -> dict[str, Path]:
    out = {}
    for f in sorted(PACKAGE.rglob("*.py")):
        parts = f.relative_to(PACKAGE.parent).with_suffix("").parts
        name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
        out[name] = f
    return out


def _edges(mods: dict[str, Path]) -> dict[str, set[str]]:
    edges: dict[str, set[str]] = {m: set() for m in mods}
    for m, f in mods.items():
        base = m if f.name == "__init__.py" else m.rsplit(".", 1)[0]
        for node in ast.walk(ast.parse(f.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    parts = base.split(".")
                    parts = parts[: len(parts) - node.level + 1]
                    mod = ".".join(parts + ([node.module] if node.module else []))
                else:
                    mod = node.module or ""
                targets = [mod] + [f"{mod}.{a.name}" for a in node.names]
            for t in targets:
                if t in mods and t != m:
                    edges[m].add(t)
    return edges


def _layer(module: str) -> str:
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def _circles(edges: dict[str, set[str]]) -> list[tuple[str, ...]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on: set[str] = set()
    stack: list[str] = []
    out: list[tuple[str, ...]] = []
    counter = 0
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            for w in it:
                if w not in index:
                    index[w] = low[w] = counter
                    counter += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(edges[w]))))
                    break
                if w in on:
                    low[v] = min(low[v], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[v])
                if low[v] == index[v]:
                    comp = []
                    while True:
                        w = stack.pop()
                        on.discard(w)
                        comp.append(w)
                        if w == v:
                            break
                    if len(comp) > 1:
                        out.append(tuple(sorted(comp)))
    return sorted(out)


MODS = _modules()
EDGES = _edges(MODS)


def test_every_layer_is_known():
    assert sorted({_layer(m) for m in MODS} - set(RANK)) == []


def test_no_import_circle():
    circles = set(_circles(EDGES))
    assert sorted(circles - KNOWN_CIRCLES) == [], "import circles (modules that import each other)"


def test_nothing_imports_upward():
    upward = sorted(
        (m, t) for m, ts in EDGES.items() for t in ts
        if RANK[_layer(t)] > RANK[_layer(m)] and (m, t) not in KNOWN_UPWARD
    )
    assert upward == [], "a lower layer imports a higher one (cli > host > client > pbem|gap|present|ai|data > rules > core)"


def test_the_view_and_the_cli_are_peers():
    """``cli | view -> host -> client``: the view imports nothing of the CLI; the CLI reaches the view only from
    the modules of the ``eiapbem view`` command and of its benchmark (``eiapbem bench view``)."""
    view_to_cli = sorted((m, t) for m, ts in EDGES.items() if _layer(m) == "view" for t in ts if _layer(t) == "cli")
    cli_to_view = sorted({m for m, ts in EDGES.items() if _layer(m) == "cli" for t in ts if _layer(t) == "view"})
    assert view_to_cli == []
    assert cli_to_view == ["eiapbem.cli.bench_cmd", "eiapbem.cli.view_cmd"]


def test_the_rules_core_imports_only_itself_and_core():
    bad = sorted((m, t) for m, ts in EDGES.items() if _layer(m) == "rules" for t in ts if _layer(t) not in ("rules", "core", "__init__"))
    assert bad == []


def test_the_computer_players_call_only_the_rules():
    bad = sorted((m, t) for m, ts in EDGES.items() if _layer(m) == "ai" for t in ts if _layer(t) not in AI_MAY_IMPORT)
    assert bad == []


def test_the_case_harness_is_not_in_the_rules_package():
    assert not any(m.startswith("eiapbem.rules.") and m.rsplit(".", 1)[-1] in ("cases", "scene", "case_game") for m in MODS)
    assert not any("@procedure" in f.read_text(encoding="utf-8") for m, f in MODS.items() if _layer(m) == "rules")


def test_known_exceptions_still_exist():
    """A known exception that is gone must leave the lists, so it cannot come back unnoticed."""
    circles = set(_circles(EDGES))
    assert sorted(KNOWN_CIRCLES - circles) == []
    assert sorted(e for e in KNOWN_UPWARD if e[1] not in EDGES[e[0]]) == []


def test_the_checker_finds_a_circle_and_an_upward_import():
    edges = {"eiapbem.rules.a": {"eiapbem.rules.b"}, "eiapbem.rules.b": {"eiapbem.rules.a", "eiapbem.cli.x"}, "eiapbem.cli.x": set()}
    assert _circles(edges) == [("eiapbem.rules.a", "eiapbem.rules.b")]
    assert RANK[_layer("eiapbem.cli.x")] > RANK[_layer("eiapbem.rules.b")]


#: The phases' own packages, with the battles' (combat) and the naval phase's; shared rules live beside them
#: (relations, control, supply, forces, placement).
PHASES = ("eiapbem.rules.setup", "eiapbem.rules.reinforcement", "eiapbem.rules.land", "eiapbem.rules.economy",
          "eiapbem.rules.diplomacy", "eiapbem.rules.naval", "eiapbem.rules.combat")
#: The only imports between phase packages, one way each (issue 30 item 4): the land phase starts battles, the
#: naval phase lands corps and lays depots by the land rules.  The other way round goes through the hook points
#: of ``rules/engine.py`` (``land.slot-end``, ``battle.after``, ``standing.naval``).
PHASE_IMPORTS = {("eiapbem.rules.land", "eiapbem.rules.combat"), ("eiapbem.rules.naval", "eiapbem.rules.land")}


def _phase(module: str) -> str | None:
    return next((p for p in PHASES if module == p or module.startswith(p + ".")), None)


def test_phases_never_import_each_other():
    """Issue 14 item 4: a rule two phases need lives in a phase-neutral module (``eiapbem/rules/forces.py``...)."""
    sideways = sorted(
        (m, t) for m, ts in EDGES.items() for t in ts
        if _phase(m) is not None and _phase(t) is not None and _phase(m) != _phase(t)
        and (_phase(m), _phase(t)) not in PHASE_IMPORTS
    )
    assert sideways == []


def _package_edges(edges: dict[str, set[str]]) -> dict[str, set[str]]:
    out: dict[str, set[str]] = {p: set() for p in PHASES}
    for m, ts in edges.items():
        for t in ts:
            pm, pt = _phase(m), _phase(t)
            if pm is not None and pt is not None and pm != pt:
                out[pm].add(pt)
    return out


def test_no_circle_between_phase_packages_not_even_through_a_function_level_import():
    """Issue 30 item 4: ``EDGES`` holds every import, at any depth of the module (``ast.walk``), so an import
    inside a function that closes a circle between two phase packages is one too."""
    assert _circles(_package_edges(EDGES)) == []
    assert sorted((a, b) for a, bs in _package_edges(EDGES).items() for b in bs) == sorted(PHASE_IMPORTS)
    src = "def f():\n    from eiapbem.rules.land.guerrillas import after_battle\n"
    mod = {"eiapbem.rules.combat.x": PACKAGE / "rules" / "combat" / "x.py"}
    seen: set[str] = set()
    for node in ast.walk(ast.parse(src)):
        if isinstance(node, ast.ImportFrom):
            seen.add(node.module or "")
    edges = {"eiapbem.rules.combat.x": {m for m in seen if m in MODS}, **{m: EDGES[m] for m in MODS if m not in mod}}
    assert _circles(_package_edges(edges)) == [("eiapbem.rules.combat", "eiapbem.rules.land")]


#: Issue 30 item 1: the raw fields of control, war and access.  Every other module asks ``rules/control.py``
#: (holders, cessions) or ``rules/relations.py`` (wars, alliances, access) instead of reading them inline.
RAW_FIELDS = ("area_control", "city_control", "ceded_provinces", "wars", "minor_wars", "alliances", "access")
#: The owners, the record itself, and the steps that change control, war or access (they read what they write).
RAW_READERS = {
    "eiapbem.rules.control", "eiapbem.rules.relations", "eiapbem.rules.model.state",
    "eiapbem.rules.cession", "eiapbem.rules.peace_capitals", "eiapbem.rules.hostile_garrisons",
    "eiapbem.rules.land.conquest", "eiapbem.rules.land.occupation", "eiapbem.rules.land.supplyphase",
    "eiapbem.rules.combat.sieges", "eiapbem.rules.scenario", "eiapbem.rules.scenario_edits", "eiapbem.rules.admin",
    "eiapbem.rules.diplomacy.alliances", "eiapbem.rules.diplomacy.minor_control", "eiapbem.rules.diplomacy.minor_orders",
    "eiapbem.rules.diplomacy.orders", "eiapbem.rules.diplomacy.peace", "eiapbem.rules.diplomacy.terms",
    "eiapbem.rules.diplomacy.war",
}
#: Still reading a raw field; each entry goes when its reads are folded into the owners.  ``client.duel`` and
#: ``client.newgame`` count other records' ``wars`` (a duel's tally, a selection's opening wars) as well.
RAW_READERS_TO_FOLD = {
    "eiapbem.rules.naval.attack", "eiapbem.rules.naval.movement", "eiapbem.rules.sequence",
    "eiapbem.client.duel", "eiapbem.client.newgame",
}


def _raw_reads(path: Path) -> list[str]:
    return sorted({n.attr for n in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
                   if isinstance(n, ast.Attribute) and n.attr in RAW_FIELDS})


def test_only_the_owners_read_the_raw_control_war_and_access_fields():
    """Issue 30 item 1: an inline ``state.area_control.get(...)`` is seen as well as a second ``def area_holder``."""
    readers = {m for m, f in MODS.items() if m.startswith(("eiapbem.rules", "eiapbem.client")) and _raw_reads(f)}
    assert sorted(readers - RAW_READERS - RAW_READERS_TO_FOLD) == []
    assert sorted((RAW_READERS | RAW_READERS_TO_FOLD) - readers - {"eiapbem.rules.model.state"}) == []  # kept current
