"""A scenario's edits of world data played (14.3, 000:2794): ratings, maxima, movement, alliance stances.

The rules read a leader's ratings and a counter's maxima and movement from the
world data (``leaders.json``, ``counters.json``), the same for every game.  A
scenario made with ``eiapbem scenario`` may change them for its units; those
changes go into the first state as ``GameState.world_edits`` (the canonical
encoding of ``edits_of``, so every client replays the same game and the state
hash covers them), and ``engine`` hands the rules a context whose world data
carries them (``for_state``) at every entry point.  Without edits nothing
changes.  The natural alliance stances (14.3 item 10) ride along as
``natural_alliances`` (``tables.diplomacy.natural_alliance_modifier``).  Home
provinces are read by the one rule that reads a counter's home province: a
Turkish feudal corps' (13.2.3; the first one given).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from typing import Any

from eiapbem.core import canonical


def edits_of(scenario: Mapping[str, Any]) -> bytes:
    """The unit edits of a scenario file that change world data, canonically encoded (b"" if none)."""
    leaders: dict[str, dict] = {}
    counters: dict[str, dict] = {}
    for u in scenario.get("units", []) or []:
        uid, owner = u.get("id"), u.get("owner")
        if not isinstance(uid, str) or not isinstance(owner, str):
            continue
        if u.get("type") == "leader":
            if u.get("ratings"):
                name = uid.split(":")[-1]
                leaders[f"{owner}:{name}"] = {k: int(v) for k, v in sorted(u["ratings"].items())}
            continue
        row: dict[str, Any] = {}
        if u.get("max"):
            row["max"] = {k: int(v) for k, v in sorted(u["max"].items())}
        if "movement" in u:
            row["movement"] = int(u["movement"])
        if u.get("home"):
            row["home"] = [str(p) for p in u["home"]]
        if row:
            counters[uid] = row
    stances: dict[str, dict[str, int]] = {}
    for row in (scenario.get("relations") or {}).get("stances", []) or []:
        # 14.3 item 10: [a, b, n] is a's natural alliance stance toward b, the chart's cell (a attempting, b accepting)
        if isinstance(row, list) and len(row) == 3:
            stances.setdefault(str(row[0]), {})[str(row[1])] = int(row[2])
    if not leaders and not counters and not stances:
        return b""
    return canonical.encode({"counters": counters, "leaders": leaders, "stances": stances})


#: Overlaid worlds by (id of the base world, edits); the base world is loaded once per process.
_CACHE: dict[tuple[int, bytes], tuple[Mapping[str, Any], Mapping[str, Any]]] = {}
#: The key an overlaid world carries, so that it is not overlaid twice.
MARK = "world_edits"


def _overlay(base: Mapping[str, Any], edits: bytes) -> dict:
    doc = canonical.decode(edits)
    world = dict(base)
    leaders = copy.deepcopy(world.get("leaders.json", {}))
    for rec in leaders.get("leaders", []):
        change = doc["leaders"].get(f"{rec.get('power')}:{rec.get('id')}")
        if change:
            rec.update(change)
    counters = copy.deepcopy(world.get("counters.json", {}))
    for group in ("powers", "minors"):
        for block in counters.get(group, {}).values():
            for c in list(block.get("corps", [])) + list(block.get("fleets", [])):
                change = doc["counters"].get(c.get("id"))
                if change:
                    c.update(change)
                    if change.get("home") and "province" in c:  # a feudal corps' home province (13.2.3)
                        c["province"] = change["home"][0]
    world["leaders.json"], world["counters.json"], world[MARK] = leaders, counters, edits
    if doc.get("stances"):
        world["natural_alliances"] = doc["stances"]
    return world


def for_state(state: Any, ctx: Any) -> Any:
    """``ctx`` with the state's unit edits in its world data (``ctx`` itself when there are none)."""
    edits = getattr(state, "world_edits", b"")
    if not edits or ctx.world.get(MARK) == edits:
        return ctx
    key = (id(ctx.world), edits)
    hit = _CACHE.get(key)
    if hit is not None and hit[0] is ctx.world:
        world = hit[1]
    else:
        if len(_CACHE) > 8:
            _CACHE.clear()
        world = _overlay(ctx.world, edits)
        _CACHE[key] = (ctx.world, world)
    return type(ctx)(map=ctx.map, world=world, dice=ctx.dice)


__all__ = ["MARK", "edits_of", "for_state"]
