"""A scenario as one plain file (14.0-14.6, 000:2740-2834): read, hash, check.

A scenario file has the schema of the shipped ones (``world/scenarios/*.json``)
plus the items 14.3 lets a playgroup edit, all optional (docs/file-format.md
"Scenario files").  ``problems`` runs the same validator as ``eiapbem data
check`` (``world.problems``) and then checks the edited items against the world
data and the map, one sentence per problem.  ``digest`` is the file's identity
for sharing (14.6): the gamestart carries it and every client compares it with
its own copy on joining.
"""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path
from typing import Any

from eiapbem.core.errors import BadData
from eiapbem.core.powers import POWERS

from . import world

#: Unit types a scenario may create (14.3 "Creating and Deleting Units", 000:2794).
UNIT_TYPES = ("infantry", "cavalry", "heavy", "light", "transport", "depot", "leader")
#: Unit attributes (14.3 "Units", 000:2790); "tyrol" is the Tyrolean revolt corps of 13.2.5.
ATTRIBUTES = ("normal", "feudal", "cossack", "freikorps", "insurrection", "tyrol")
#: Where a unit starts (14.3 "Units": on the map, out of game, in ready, in reserve).
PLACES = ("map", "out", "ready", "reserve")
ACCESS = ("none", "voluntary", "forced", "temporary")
RATINGS = ("tactical", "strategic", "tactical_max")
_FACTOR_KEYS = ("infantry", "guard", "cavalry", "cossack", "militia", "freikorps")
_SHIP_KEYS = ("heavy", "light", "transport")


def read(path: str | Path) -> dict[str, Any]:
    """The scenario file as data; ``BadData`` in one sentence when it cannot be read."""
    p = Path(path)
    try:
        text = p.read_text(encoding="utf-8")
    except OSError as err:
        raise BadData(f"{p}: cannot read the scenario file ({err.strerror}); check the path") from err
    try:
        data = json.loads(text, parse_float=world._no_float)
    except (ValueError, UnicodeDecodeError) as err:
        raise BadData(f"{p}: not a scenario file of JSON with whole numbers ({err})") from err
    if not isinstance(data, dict):
        raise BadData(f"{p}: a scenario file holds one JSON object")
    return data


def text_of(sc: dict[str, Any]) -> str:
    """The scenario as the file's text (sorted keys, so equal scenarios give equal files)."""
    return json.dumps(sc, indent=1, sort_keys=True, ensure_ascii=False) + "\n"


def write(path: str | Path, sc: dict[str, Any]) -> None:
    p = Path(path)
    tmp = p.with_name(p.name + ".tmp")
    try:
        tmp.write_text(text_of(sc), encoding="utf-8")
        tmp.replace(p)
    except OSError as err:
        raise BadData(f"{p}: cannot write the scenario file ({err.strerror}); choose another place") from err


def digest(sc: dict[str, Any]) -> str:
    """SHA-256 of the scenario's canonical JSON: two copies agree iff every item agrees (14.6)."""
    blob = json.dumps(sc, sort_keys=True, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    return hashlib.sha256(blob).hexdigest()


def is_file_ref(ref: str) -> bool:
    return ref.endswith(".json") or "/" in ref or "\\" in ref


def resolve(ref: str, *, game_map: Any | None = None) -> dict[str, Any]:
    """A shipped scenario by id, or a scenario file by path, checked (``BadData`` listing the problems)."""
    if not is_file_ref(ref):
        return world.load_scenario(ref)
    sc = read(ref)
    found = problems(sc, name=Path(ref).name, game_map=game_map)
    if found:
        raise BadData(f"{ref}: the scenario has {len(found)} problem(s): " + " ".join(found[:10]),
                      hint=f"'eiapbem data check --scenario {ref}' lists them all")
    return sc


def _int(v: Any, lo: int | None = None, hi: int | None = None) -> bool:
    return world._is_int(v) and (lo is None or v >= lo) and (hi is None or v <= hi)


def _counter_ids(raw: dict[str, Any]) -> dict[str, str]:
    """Every counter id of the world data -> its owner."""
    out = {}
    for group in ("powers", "minors"):
        for owner, block in raw["counters.json"].get(group, {}).items():
            for u in block.get("corps", []) + block.get("fleets", []):
                out[u["id"]] = owner
    return out


def problems(sc: dict[str, Any], *, name: str = "scenario", game_map: Any | None = None) -> list[str]:
    """Every problem of one scenario: the shipped data's validator, then the 14.3 items."""
    raw = {k: v for k, v in world.load_raw().items() if not k.startswith("scenarios/")}
    label = f"scenarios/{name if name.endswith('.json') else name + '.json'}"
    raw[label] = sc
    shape = shape_problems(sc, label)
    if shape:
        return shape
    try:
        out = world.problems(raw)
        out += edit_problems(sc, raw, label, game_map)
    except (AttributeError, KeyError, TypeError, ValueError) as err:
        out = [f"{label}: an entry does not have the form of a scenario's ({type(err).__name__}: {err}); "
               "compare it with a file made by 'eiapbem scenario new'"]
    return out


_SHAPE = {"powers": dict, "minors": dict, "start": dict, "end": dict, "relations": dict, "units": list,
          "garrisons": list, "provinces": dict}


def shape_problems(sc: Any, label: str) -> list[str]:
    """The file's outline: the blocks are of the right kind (objects and lists), before any item is read."""
    out = []
    for key, kind in _SHAPE.items():
        if key in sc and not isinstance(sc[key], kind):
            out.append(f"{label}: '{key}' must be {'an object' if kind is dict else 'a list'}")
    for block in ("powers", "minors"):
        for k, v in (sc.get(block) or {}).items() if isinstance(sc.get(block), dict) else ():
            if not isinstance(v, dict):
                out.append(f"{label}: {block}.{k} must be an object")
            elif block == "powers":
                for sub in ("factors", "ships", "leaders", "victory", "morale", "conquered"):
                    if sub in v and not isinstance(v[sub], dict):
                        out.append(f"{label}: powers.{k}.{sub} must be an object")
            elif "forces" in v and not isinstance(v["forces"], dict):
                out.append(f"{label}: minors.{k}.forces must be an object")
    for key in ("units", "garrisons"):
        if isinstance(sc.get(key), list) and not all(isinstance(x, dict) for x in sc[key]):
            out.append(f"{label}: every entry of '{key}' must be an object")
    if isinstance(sc.get("relations"), dict) and not all(isinstance(v, list) for v in sc["relations"].values()):
        out.append(f"{label}: every block of 'relations' must be a list")
    return out


def edit_problems(sc: dict[str, Any], raw: dict[str, Any], name: str, game_map: Any | None) -> list[str]:
    """Checks of the items the editor adds (14.3, 14.4); names resolve against the world data and the map."""
    out: list[str] = []
    minors = {m["id"] for m in raw["minors.json"]["minors"]}
    nations = set(POWERS) | minors
    if not (isinstance(sc.get("id"), str) and re.fullmatch(r"[a-z0-9]+(?:-[a-z0-9]+)*", sc["id"]) and len(sc["id"]) <= 40):
        out.append(f"{name}: the scenario's id {sc.get('id')!r} must be lower-case letters and digits joined by '-', "
                   "at most 40 characters (it names the setups, 14.5)")
    for key in ("start", "end"):
        d = sc.get(key, {})
        if not (isinstance(d, dict) and _int(d.get("year"), 1792, 1830) and _int(d.get("month"), 1, 12)):
            out.append(f"{name}: '{key}' must be a year 1792-1830 and a month 1-12")
    s, e = sc.get("start", {}), sc.get("end", {})
    if all(_int(x.get(k)) for x in (s, e) for k in ("year", "month")) and (e["year"], e["month"]) < (s["year"], s["month"]):
        out.append(f"{name}: the game ends ({e['year']}-{e['month']:02d}) before it starts ({s['year']}-{s['month']:02d})")
    for p, pw in sorted(sc.get("powers", {}).items()):
        where = f"{name}: power {p}"
        if not isinstance(pw, dict):
            continue
        if "vp" in pw and not _int(pw["vp"], 0):
            out.append(f"{where}: starting victory points {pw['vp']!r} is not a whole number >= 0")
        vic = pw.get("victory")
        if vic is not None:
            if not (isinstance(vic, dict) and set(vic) <= {"with_em", "without_em"} and all(_int(v, 1) for v in vic.values())):
                out.append(f"{where}: 'victory' gives 'with_em' and 'without_em' thresholds as whole numbers >= 1")
        for k, v in sorted(pw.get("morale", {}).items()):
            if k not in ("infantry", "guard", "cavalry", "cossack", "militia") or not _int(v, 100, 1000):
                out.append(f"{where}: corps morale {k}={v!r} must name a factor type and a morale 1.00-10.00 "
                           "(stored in hundredths, 100-1000)")
        for prov, holder in sorted(pw.get("conquered", {}).items()):
            if holder not in POWERS or holder == p:
                out.append(f"{where}: conquered province {prov!r} must be held by another major power, not {holder!r}")
            if game_map is not None:
                pr = game_map.provinces.get(prov)
                if pr is None or pr.nation != p:
                    out.append(f"{where}: {prov!r} is not a home province of {p} on the map")
    rel = sc.get("relations", {})
    if not isinstance(rel, dict):
        out.append(f"{name}: 'relations' must be an object")
        rel = {}
    pairs = {"wars": 2, "alliances": 2, "alliance_restrictions": 3, "enforced_peace": 3, "stances": 3, "access": 3}
    for key, n in pairs.items():
        for row in rel.get(key, []):
            if not (isinstance(row, list) and len(row) == n and row[0] in POWERS and row[1] in POWERS and row[0] != row[1]):
                out.append(f"{name}: relations.{key} entry {row!r} must name two different major powers" + (" and a value" if n == 3 else ""))
                continue
            if key in ("alliance_restrictions", "enforced_peace") and not _int(row[2], 1, 240):
                out.append(f"{name}: relations.{key} {row[0]}-{row[1]} needs a number of months 1-240, not {row[2]!r}")
            if key == "stances" and not _int(row[2], -10, 10):
                out.append(f"{name}: the stance of {row[0]} toward {row[1]} must be a whole number -10 to 10, not {row[2]!r}")
            if key == "access" and row[2] not in ACCESS:
                out.append(f"{name}: access of {row[0]} to {row[1]} must be one of {', '.join(ACCESS)}, not {row[2]!r}")
    wars = {frozenset(r[:2]) for r in rel.get("wars", []) if isinstance(r, list) and len(r) == 2}
    for row in rel.get("alliances", []):
        if isinstance(row, list) and frozenset(row[:2]) in wars:
            out.append(f"{name}: {row[0]} and {row[1]} cannot be both allied and at war")
    for mid, m in sorted(sc.get("minors", {}).items()):
        if not isinstance(m, dict):
            continue
        if "morale" in m and not _int(m["morale"], 100, 1000):
            out.append(f"{name}: minor {mid!r} has corps morale {m['morale']!r}, not 1.00-10.00 (hundredths, 100-1000)")
        for p in m.get("at_war_with", []):
            if p not in POWERS:
                out.append(f"{name}: minor {mid!r} is at war with {p!r}, which is not a major power")
            elif m.get("controller") == p:
                out.append(f"{name}: minor {mid!r} cannot be at war with its own controller {p}")
    counters = _counter_ids(raw)
    leaders = {lead["id"] for lead in raw["leaders.json"]["leaders"]}
    seen: set[str] = set()
    for u in sc.get("units", []):
        out += _unit_problems(name, u, counters, leaders, nations, seen, game_map)
    for g in sc.get("garrisons", []):
        where = f"{name}: garrison {g.get('nation')}@{g.get('city')}"
        if g.get("nation") not in nations:
            out.append(f"{where}: {g.get('nation')!r} is not a nation")
        fac = g.get("factors", {})
        if not fac or any(k not in _FACTOR_KEYS or not _int(v, 1) for k, v in fac.items()):
            out.append(f"{where}: factors must be factor types with whole numbers >= 1")
        if game_map is not None:
            a = game_map.areas.get(g.get("city"))
            if a is None or a.city is None:
                out.append(f"{where}: {g.get('city')!r} is not an area with a city on the map")
            elif sum(fac.values()) > 5 * a.city.supply if all(_int(v) for v in fac.values()) else False:
                out.append(f"{where}: {sum(fac.values())} factors exceed the city's capacity of {5 * a.city.supply} (10.4.3)")
    for area, holder in sorted(sc.get("provinces", {}).items()):
        if holder not in nations:
            out.append(f"{name}: area {area!r} is given to {holder!r}, which is not a nation")
        if game_map is not None and area not in game_map.areas:
            out.append(f"{name}: area {area!r} is not on the map")
    return out


def _unit_problems(name: str, u: Any, counters: dict, leaders: set, nations: set, seen: set, game_map: Any) -> list[str]:
    out: list[str] = []
    if not isinstance(u, dict) or not isinstance(u.get("id"), str):
        return [f"{name}: a unit entry needs an 'id'"]
    uid = u["id"]
    where = f"{name}: unit {uid!r}"
    if uid in seen:
        out.append(f"{where} appears twice")
    seen.add(uid)
    owner = u.get("owner")
    if owner not in nations:
        out.append(f"{where}: owner {owner!r} is not a major power or minor country")
    kind = u.get("type")
    if kind not in UNIT_TYPES:
        out.append(f"{where}: type {kind!r} is not one of {', '.join(UNIT_TYPES)}")
    if u.get("new"):
        if uid in counters or uid in leaders:
            out.append(f"{where}: a new unit needs an id no counter or leader of the world data has")
    elif kind == "leader":
        if uid not in leaders:
            out.append(f"{where}: there is no such leader in leaders.json")
    elif uid not in counters and not uid.startswith("depot:"):
        out.append(f"{where}: there is no such counter in counters.json (create one with --create TYPE)")
    elif uid in counters and counters[uid] != owner:
        out.append(f"{where}: the counter belongs to {counters[uid]}, not {owner}")
    if kind in ("infantry", "cavalry") and not uid.startswith(f"corps:{owner}:"):
        out.append(f"{where}: a corps id is corps:{owner}:NAME")
    if kind in ("heavy", "light", "transport") and not uid.startswith(f"fleet:{owner}:"):
        out.append(f"{where}: a fleet id is fleet:{owner}:NAME")
    if u.get("attribute", "normal") not in ATTRIBUTES:
        out.append(f"{where}: attribute {u.get('attribute')!r} is not one of {', '.join(ATTRIBUTES)}")
    fac, cap = u.get("factors", {}), u.get("max", {})
    for label, block in (("factors", fac), ("maximum factors", cap)):
        if any(k not in _FACTOR_KEYS + _SHIP_KEYS or not _int(v, 0) for k, v in block.items()):
            out.append(f"{where}: {label} must be factor or ship types with whole numbers >= 0")
    for k, v in fac.items():
        if k in cap and _int(v) and _int(cap[k]) and v > cap[k]:
            out.append(f"{where}: {v} {k} exceed its maximum of {cap[k]}")
    for k, v in u.get("ratings", {}).items():
        if k not in RATINGS or not _int(v, 0, 6):
            out.append(f"{where}: rating {k}={v!r} must be tactical, strategic or tactical_max, 0-6")
    r = u.get("ratings", {})
    if _int(r.get("tactical")) and _int(r.get("tactical_max")) and r["tactical"] > r["tactical_max"]:
        out.append(f"{where}: tactical rating {r['tactical']} exceeds its tactical maximum {r['tactical_max']}")
    if "movement" in u and not _int(u["movement"], 0, 12):
        out.append(f"{where}: movement {u['movement']!r} is not a whole number 0-12")
    home = u.get("home", [])
    if game_map is not None:
        for prov in home:
            if prov not in game_map.provinces:
                out.append(f"{where}: home province {prov!r} is not on the map")
    place = u.get("place", "ready")
    if place not in PLACES:
        out.append(f"{where}: place {place!r} is not one of {', '.join(PLACES)}")
    if place == "map":
        area = u.get("area")
        if kind == "leader" and not isinstance(u.get("with"), str):
            out.append(f"{where}: a leader placed on the map names the corps it is 'with'")
        elif kind != "leader" and not isinstance(area, str):
            out.append(f"{where}: a unit placed on the map names its 'area'")
        elif game_map is not None and kind != "leader":
            if kind in ("heavy", "light", "transport"):
                a = game_map.areas.get(area)
                if u.get("at") not in ("sea", "port"):
                    out.append(f"{where}: a fleet on the map is 'at' a sea or a port")
                if area not in game_map.seas and (a is None or a.port is None):
                    out.append(f"{where}: {area!r} is neither a sea area nor a port on the map")
            elif area not in game_map.areas:
                out.append(f"{where}: {area!r} is not a land area on the map")
            elif game_map.areas[area].nation in POWERS and game_map.areas[area].nation != owner and owner in POWERS:
                out.append(f"{where}: a unit placed at the start stands in its own or a minor's territory, "
                           f"not in {game_map.areas[area].nation}'s {area!r} (14.4.1)")
        if kind in ("infantry", "cavalry", "heavy", "light", "transport") and not any(
                _int(v, 1) for v in fac.values()):
            out.append(f"{where}: a unit placed on the map needs factors")
    elif "area" in u:
        out.append(f"{where}: only a unit placed on the map has an 'area'")
    return out


__all__ = ["ACCESS", "ATTRIBUTES", "PLACES", "UNIT_TYPES", "digest", "is_file_ref", "problems", "read", "resolve",
           "text_of", "write"]
