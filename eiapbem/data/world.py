"""The 1805 world as data: minor countries, leaders, counter mix, displays, scenarios.

The files live in ``eiapbem/data/world/`` (JSON, integers only) and are the
project's own approximation wherever the manual gives no number (docs/map.md).
``problems`` checks them against each other and against the numbers the manual
does give; ``check_world`` raises ``BadData`` naming the file and the entry.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path
from typing import Any

from eiapbem.core.errors import BadData

from eiapbem.core.powers import POWERS  # noqa: E402
DATA_DIR = Path(__file__).resolve().parent / "world"
STATUSES = ("neutral", "influenced", "ally", "conquered", "free-state", "district")
SENIORITY = ("A", "B", "C", "D")
FILES = ("minors.json", "leaders.json", "counters.json", "displays.json")


def _read(path: Path) -> Any:
    try:
        return json.loads(path.read_text(encoding="utf-8"), parse_float=_no_float)
    except OSError as err:
        raise BadData(f"{path}: cannot read the data file ({err.strerror})") from err
    except (ValueError, UnicodeDecodeError) as err:
        raise BadData(f"{path}: not valid JSON of integers ({err})") from err


def _no_float(text: str) -> Any:
    raise ValueError(f"number {text} is not an integer")


def load_raw(path: str | Path | None = None) -> dict[str, Any]:
    """Every world file as parsed JSON, keyed by file name (scenarios as ``scenarios/<id>.json``)."""
    base = Path(path) if path is not None else DATA_DIR
    raw = {name: _read(base / name) for name in FILES}
    scen_dir = base / "scenarios"
    scen_files = sorted(scen_dir.glob("*.json")) if scen_dir.is_dir() else []
    if not scen_files:
        raise BadData(f"{scen_dir}: no scenario files")
    for f in scen_files:
        raw[f"scenarios/{f.name}"] = _read(f)
    return raw


def _is_int(v: Any) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def problems(raw: dict[str, Any]) -> list[str]:
    """Every inconsistency found, each naming the file and the entry."""
    out: list[str] = []
    minors = {m["id"]: m for m in raw["minors.json"].get("minors", [])}
    if len(minors) != len(raw["minors.json"].get("minors", [])):
        out.append("minors.json: duplicate minor ids")
    for mid, m in minors.items():
        if m.get("country") not in minors:
            out.append(f"minors.json: minor {mid!r} belongs to unknown country {m.get('country')!r}")
        elif minors[m["country"]].get("country") != m["country"]:
            out.append(f"minors.json: minor {mid!r} names {m['country']!r} as its country, which is itself a district")

    leaders = {}
    for n, lead in enumerate(raw["leaders.json"].get("leaders", [])):
        lid = lead.get("id", f"#{n}")
        where = f"leaders.json: leader {lid!r}"
        if lid in leaders:
            out.append(f"{where} appears twice")
        leaders[lid] = lead
        if lead.get("power") not in POWERS:
            out.append(f"{where} has unknown power {lead.get('power')!r}")
        if lead.get("seniority") not in SENIORITY:
            out.append(f"{where} has seniority {lead.get('seniority')!r}, not one of A-D")
        if lead.get("naval"):
            if any(lead.get(k) is not None for k in ("strategic", "tactical", "tactical_max")):
                out.append(f"{where} is a naval leader and must have no ratings (13.8)")
        else:
            for k in ("strategic", "tactical", "tactical_max"):
                if not (_is_int(lead.get(k)) and 0 <= lead[k] <= 6):
                    out.append(f"{where} has {k} {lead.get(k)!r}, not a whole number 0-6")
    nap = leaders.get("napoleon")
    if nap is None or (nap.get("tactical"), nap.get("tactical_max")) != (5, 6):
        out.append("leaders.json: leader 'napoleon' must have tactical 5 and tactical maximum 6 (13.8.7, 000:2722)")
    if "nelson" not in leaders or not leaders["nelson"].get("naval"):
        out.append("leaders.json: leader 'nelson' must exist as the naval leader (13.8)")

    counters = raw["counters.json"]
    ids: set[str] = set()
    for owner, block in list(counters.get("powers", {}).items()) + list(counters.get("minors", {}).items()):
        if owner not in POWERS and owner not in minors:
            out.append(f"counters.json: unknown owner {owner!r}")
        for unit in block.get("corps", []) + block.get("fleets", []):
            uid = unit.get("id")
            if uid in ids:
                out.append(f"counters.json: counter {uid!r} appears twice")
            ids.add(uid)
            caps = unit.get("max", {})
            if not caps or not all(_is_int(v) and v > 0 for v in caps.values() if v) or not any(caps.values()):
                out.append(f"counters.json: counter {uid!r} has no positive maximum factors")
    for p in POWERS:
        if p not in counters.get("powers", {}):
            out.append(f"counters.json: power {p} has no counter mix")
    for mid, m in minors.items():
        has = mid in counters.get("minors", {})
        if m.get("corps") and not has:
            out.append(f"counters.json: minor {mid!r} can field a corps (minors.json) but has no corps counter")
        if has and not m.get("corps"):
            out.append(f"counters.json: minor {mid!r} has counters but minors.json says it fields no corps")

    disp = raw["displays.json"].get("political_status", {})
    boxes = disp.get("boxes", [])
    if [b.get("position") for b in boxes] != list(range(len(boxes))):
        out.append("displays.json: political status boxes must be numbered 0, 1, 2 … without gaps")
    by_pos = {b.get("position"): b for b in boxes}
    if by_pos.get(23, {}).get("victory_points") != 6:
        out.append("displays.json: political status 23 must give 6 victory points (12.1, 000:2044)")
    for b in boxes:
        if b.get("economic_loss") is not None and b.get("zone") not in ("fiasco", "instability"):
            out.append(f"displays.json: box {b.get('position')} has an economic loss number outside the instability and fiasco zones (12.2.1)")
    for name in sorted(k for k in raw if k.startswith("scenarios/")):
        out.extend(_scenario_problems(name, raw[name], minors, leaders, counters, len(boxes)))
    return out


_FACTORS = ("infantry", "guard", "cavalry", "cossack")
_SHIPS = ("heavy", "light", "transport")


def _scenario_problems(name: str, sc: dict, minors: dict, leaders: dict, counters: dict, nboxes: int) -> list[str]:
    out: list[str] = []
    powers = sc.get("powers", {})
    manual = sc.get("manual", {})
    for p in POWERS:
        where = f"{name}: power {p}"
        pw = powers.get(p)
        if pw is None:
            out.append(f"{where} is missing")
            continue
        facts = {k: pw.get("factors", {}).get(k, 0) for k in _FACTORS}
        facts.update({k: pw.get("ships", {}).get(k, 0) for k in _SHIPS})
        facts.update(depots=pw.get("depots"), money=pw.get("money"), manpower=pw.get("manpower", 0))
        for k, v in facts.items():
            if not (_is_int(v) and v >= 0):
                out.append(f"{where}: {k} is {v!r}, not a whole number >= 0")
        for k, v in manual.get(p, {}).items():
            if facts.get(k) != v:
                out.append(f"{where}: {k} is {facts.get(k)!r} but the manual's text gives {v}")
        if p not in manual and "based_on" not in sc:
            # A scenario made with the editor (14.2) has no manual text to agree with.
            out.append(f"{where}: the manual's totals are missing from the 'manual' block")
        lead = pw.get("leaders", {})
        named = lead.get("only", lead.get("all_except"))
        if named is None:
            out.append(f"{where}: leaders must say 'only' or 'all_except'")
        else:
            for lid in named:
                if lid not in leaders:
                    out.append(f"{where}: leader {lid!r} is not in leaders.json")
                elif leaders[lid].get("power") != p:
                    out.append(f"{where}: leader {lid!r} belongs to {leaders[lid].get('power')}")
        st = pw.get("status")
        if not (_is_int(st) and 0 <= st < nboxes):
            out.append(f"{where}: political status {st!r} is not a box of the display")
    sminors = sc.get("minors", {})
    for mid in minors:
        if mid not in sminors:
            out.append(f"{name}: minor {mid!r} has no starting status")
    for mid, m in sminors.items():
        where = f"{name}: minor {mid!r}"
        if mid not in minors:
            out.append(f"{where} is not in minors.json")
            continue
        status = m.get("status")
        if status not in STATUSES:
            out.append(f"{where} has unknown status {status!r}")
        if status == "district":
            if minors[mid]["country"] == mid or m.get("country") != minors[mid]["country"]:
                out.append(f"{where} is a secondary district but minors.json makes it part of {minors[mid]['country']!r}")
        elif status == "neutral":
            if m.get("controller") is not None:
                out.append(f"{where} is neutral but names a controller")
        elif m.get("controller") not in POWERS:
            out.append(f"{where} is {status} but its controller {m.get('controller')!r} is not a major power")
        forces = m.get("forces", {})
        if any(not (_is_int(v) and v >= 0) for v in forces.values()):
            out.append(f"{where} has forces that are not whole numbers >= 0")
        if (forces.get("heavy", 0) or forces.get("light", 0)) and not minors[mid].get("fleet"):
            out.append(f"{where} starts with ships but minors.json gives it no fleet")
        for k, v in manual.get(mid, {}).items():
            if forces.get(k) != v:
                out.append(f"{where}: {k} is {forces.get(k)!r} but the manual's text gives {v}")
        caps = counters.get("minors", {}).get(mid)
        if caps and minors[mid].get("corps"):
            cap = caps["corps"][0]["max"]
            for k in ("infantry", "cavalry"):
                if forces.get(k, 0) > cap.get(k, 0) and status != "neutral":
                    out.append(f"{where}: {forces[k]} {k} exceed its corps counter's maximum {cap.get(k, 0)}")
    return out


def check_world(path: str | Path | None = None) -> dict[str, int]:
    """Validate the world data; return counts, or raise ``BadData`` listing the problems."""
    raw = load_raw(path)
    found = problems(raw)
    if found:
        raise BadData(f"world data has {len(found)} problem(s): " + "; ".join(found[:20]))
    counters = raw["counters.json"]
    return {
        "minor countries": len(raw["minors.json"]["minors"]),
        "leaders": len(raw["leaders.json"]["leaders"]),
        "corps counters": sum(len(b["corps"]) for b in counters["powers"].values())
        + sum(len(b["corps"]) for b in counters["minors"].values()),
        "fleet counters": sum(len(b["fleets"]) for b in counters["powers"].values())
        + sum(len(b["fleets"]) for b in counters["minors"].values()),
        "scenarios": sum(1 for k in raw if k.startswith("scenarios/")),
    }


def counter_counts(path: str | Path | None = None) -> dict[str, dict[str, int]]:
    """Corps and fleet counters per power (for ``eiapbem data check``)."""
    counters = load_raw(path)["counters.json"]
    return {p: {"corps": len(b["corps"]), "fleets": len(b["fleets"])} for p, b in sorted(counters["powers"].items())}


@lru_cache(maxsize=None)
def scenario_ids() -> tuple[str, ...]:
    return tuple(sorted(p.stem for p in (DATA_DIR / "scenarios").glob("*.json")))


def load_scenario(scenario_id: str) -> dict:
    """The scenario's raw data; raises ``BadData`` for an unknown id."""
    if scenario_id not in scenario_ids():
        raise BadData(
            f"there is no scenario called {scenario_id!r}",
            hint=f"the scenarios are: {', '.join(scenario_ids())}",
        )
    return _read(DATA_DIR / "scenarios" / f"{scenario_id}.json")


def map_problems(raw: dict[str, Any], game_map: Any) -> list[str]:
    """Names in the world data that do not resolve on the map (an ``eiapbem.rules.mapgraph.Map``)."""
    out: list[str] = []
    districts = {p.id for p in game_map.provinces.values() if p.is_minor}
    minors = {m["id"] for m in raw["minors.json"]["minors"]}
    for mid in sorted(minors - districts):
        out.append(f"minors.json: minor {mid!r} has no district on the map; add its areas or fix the id")
    for did in sorted(districts - minors):
        out.append(f"the map's minor district {did!r} is not in minors.json; add it or fix the id")
    for owner, block in sorted(raw["counters.json"]["powers"].items()):
        for c in block.get("corps", []):
            prov = c.get("province")
            if prov is not None and prov not in game_map.provinces:
                out.append(f"counters.json: counter {c['id']!r} names province {prov!r}, which is not on the map")
    return out
