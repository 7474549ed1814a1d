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
from eiapbem.rules.context import RulesContext


def edits_of(scenario: Mapping[str, Any]) -> bytes:
    """The unit edits of a scenario file that change world data, canonically encoded (b"" if none)."""
    leaders: dict[str, dict] = {}
    counters: dict[str, dict] = {}
    created: list[dict] = []
    for u in scenario.get("units", []) or []:
        uid, owner = u.get("id"), u.get("owner")
        if not isinstance(uid, str) or not isinstance(owner, str):
            continue
        if u.get("new") and u.get("type") != "depot" and u.get("place") != "out":
            created.append(_created_row(u))  # 14.3 "Creating and Deleting Units": a counter of its own
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
    if not leaders and not counters and not stances and not created:
        return b""
    doc: dict[str, Any] = {"counters": counters, "leaders": leaders, "stances": stances}
    if created:  # only then, so that the bytes of a file without created units stay what they were
        doc["created"] = created
    return canonical.encode(doc)


#: A created leader's ratings when the editor gave none (the weakest of the chart; docs/decisions.md).
_LEADER_DEFAULTS = {"strategic": 1, "tactical": 1, "tactical_max": 1}


def _created_row(u: Mapping[str, Any]) -> dict[str, Any]:
    """The counter mix (or leader chart) entry of a unit created in the editor.

    A corps or fleet holds at most its ``max`` (the factors or ships it was given when no maximum was set);
    a leader has the ratings it was given (1 for each one not given, its tactical maximum its tactical rating)
    and the lowest seniority.
    """
    uid, owner, kind = str(u["id"]), str(u["owner"]), str(u.get("type"))
    if kind == "leader":
        ratings = {k: int(v) for k, v in sorted((u.get("ratings") or {}).items())}
        row: dict[str, Any] = {**_LEADER_DEFAULTS, **ratings}
        if "tactical_max" not in ratings:  # its best tactical rating is the one it was given
            row["tactical_max"] = row["tactical"]
        return {"group": "leader", "owner": owner, "row": {"id": uid.split(":")[-1], "name": uid.split(":")[-1],
                                                           "power": owner, **row, "seniority": "D",
                                                           "cavalry": False, "naval": False}}
    cap = u.get("max") or u.get("factors") or {}
    row = {"id": uid, "name": uid.split(":")[-1], "max": {k: int(v) for k, v in sorted(cap.items())}}
    if kind in ("heavy", "light", "transport"):
        return {"group": "fleets", "owner": owner, "row": row}
    attribute = u.get("attribute", "normal")
    row["kind"] = kind if attribute in ("normal", None) else attribute
    if "movement" in u:
        row["movement"] = int(u["movement"])
    if u.get("home"):
        row["home"] = [str(p) for p in u["home"]]
        row["province"] = str(u["home"][0])
    return {"group": "corps", "owner": owner, "row": row}


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
    for item in doc.get("created", []):  # units created in the editor: entries of their own (14.3)
        row = dict(item["row"])
        if item["group"] == "leader":
            leaders.setdefault("leaders", []).append(row)
            continue
        group = "powers" if item["owner"] in counters.get("powers", {}) else "minors"
        block = counters.setdefault(group, {}).setdefault(item["owner"], {})
        rows = block.setdefault(item["group"], [])
        if all(c.get("id") != row["id"] for c in rows):
            rows.append(row)
    world["leaders.json"], world["counters.json"], world[MARK] = leaders, counters, edits
    if doc.get("stances"):
        world["natural_alliances"] = doc["stances"]
    return world


def for_state(state: Any, ctx: RulesContext) -> Any:
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
