"""Checking and building the map (issue 14 item 4: split out of ``mapgraph``).

The map is data (``eiapbem/data/map/*.json``, loaded by ``eiapbem.data.mapdata``);
this module holds no file I/O.  It turns the parsed JSON of the map files into a
``mapgraph.Map`` and checks it:

- ``problems(raw)`` lists every problem found, one sentence each, naming the file
  and the entry (``eiapbem data check`` prints them all);
- ``validate(raw)`` raises ``BadData`` with the first problem (STYLE.md 12);
- ``build_map(raw)`` validates, then builds the ``Map``.

``raw`` maps a file name (``"areas_W.json"``, ``"seas.json"``) to that file's
parsed JSON object.  A file may hold any of the keys ``region``, ``areas``,
``crossings``, ``provinces`` and ``seas`` (docs/map.md gives the schema).
"""

from __future__ import annotations

from typing import Any, Mapping

from eiapbem.core.errors import BadData
from eiapbem.core.powers import POWERS
from eiapbem.rules.mapgraph import (
    Area,
    Border,
    CAPITAL_KINDS,
    CROSSING_OPTIONS,
    City,
    Crossing,
    MAX_BORDER_KM,
    MAX_SEA_KM,
    MIN_LAND_AREAS,
    MIN_SEA_AREAS,
    Map,
    NATIONAL_CAPITALS,
    NOT_WINTER_AREAS,
    NOT_WINTER_NATIONS,
    NOT_WINTER_PROVINCES,
    Port,
    Province,
    Sea,
    TERRAINS,
    _ro,
    distance_km,
)


_AREA_KEYS = {
    "id": str, "name": str, "nation": str, "province": str, "lon": int, "lat": int,
    "terrain": str, "forage": int, "winter": bool, "city": (dict, type(None)),
    "port": (dict, type(None)), "neighbours": list, "coast": list,
}
_CITY_KEYS = {"name": str, "supply": int, "siege": int, "capital": (str, type(None))}
_PORT_KEYS = {
    "gb_trade": int, "owner_trade": int, "harbour": int, "ice": bool, "shipbuilding": bool,
    "seas": list,
}
_BORDER_KEYS = {"to": str, "river": bool}
_SEA_KEYS = {"id": str, "name": str, "lon": int, "lat": int, "ice": bool, "neighbours": list}
_CROSSING_KEYS = {"id": str, "a": str, "b": str, "sea": str, "optional": (str, type(None))}
_PROVINCE_KEYS = {
    "id": str, "name": str, "nation": str, "tax": int, "manpower": int, "capital": str,
    "polish": bool, "guerrilla": int, "cossack": bool,
}
_FILE_KEYS = ("region", "areas", "crossings", "provinces", "seas")


def _is(value: Any, kind: Any) -> bool:
    kinds = kind if isinstance(kind, tuple) else (kind,)
    if isinstance(value, bool):
        return bool in kinds
    return isinstance(value, kinds)


def _kind_name(kind: Any) -> str:
    names = {str: "a string", int: "an integer", bool: "true or false", list: "a list",
             dict: "an object", type(None): "null"}
    kinds = kind if isinstance(kind, tuple) else (kind,)
    return " or ".join(names[k] for k in kinds)


def _slug_ok(s: str) -> bool:
    return bool(s) and all(c in "abcdefghijklmnopqrstuvwxyz0123456789-" for c in s) and s[0] != "-" and s[-1] != "-"


def _shape(obj: Any, keys: Mapping[str, Any], where: str, out: list[str]) -> bool:
    """Check an object's fields and JSON types; report problems, return False if it can't be used.

    An unknown field is reported but does not stop the entry being checked further; a missing
    or mistyped field does.
    """
    if not isinstance(obj, dict):
        out.append(f"{where} is not a JSON object; write it as {{...}} with the fields of docs/map.md")
        return False
    ok = True
    for k in sorted(set(keys) - set(obj)):
        out.append(f"{where} has no {k!r}; add it (docs/map.md lists every field)")
        ok = False
    for k in sorted(set(obj) - set(keys), key=str):
        out.append(f"{where} has an unknown field {k!r}; remove it or fix its spelling")
    for k, kind in keys.items():
        if k in obj and not _is(obj[k], kind):
            out.append(f"{where}: {k!r} is {obj[k]!r}, which is not {_kind_name(kind)}; fix its type")
            ok = False
    return ok


def _listed(doc: dict[str, Any], key: str) -> list[Any]:
    """``doc[key]`` when it is a list (its absence or another type is reported elsewhere), else nothing."""
    found = doc.get(key)
    return found if isinstance(found, list) else []


def _entry(kind: str, obj: Any, index: int) -> str:
    if isinstance(obj, dict) and isinstance(obj.get("id"), str):
        return f"{kind} {obj['id']!r}"
    return f"{kind} number {index + 1}"


def problems(
    raw: Mapping[str, Any],
    *,
    min_land: int = MIN_LAND_AREAS,
    min_sea: int = MIN_SEA_AREAS,
) -> list[str]:
    """Every problem of the map files, one sentence each naming the file and the entry.

    ``raw`` maps a file name to that file's parsed JSON.  ``min_land``/``min_sea`` are the least
    numbers of land and sea areas (tests of small maps lower them).  An empty list means valid.
    """
    out: list[str] = []
    areas: dict[str, tuple[str, dict]] = {}  # id -> (file, entry), well-formed entries only
    seas: dict[str, tuple[str, dict]] = {}
    crossings: dict[str, tuple[str, dict]] = {}
    provinces: dict[str, tuple[str, dict]] = {}
    seen_place: dict[str, str] = {}  # land and sea ids share one namespace: "file: kind 'id'"
    # Entries too malformed to cross-check: their ids still resolve (no cascade of "not a land
    # area" for a neighbour that exists but lacks a field), and their provinces are not counted.
    broken: set[str] = set()
    broken_provinces: set[str] = set()
    seen_crossing: dict[str, str] = {}
    seen_province: dict[str, str] = {}
    n_land = n_sea = 0

    for fname in sorted(raw):
        doc = raw[fname]
        if not isinstance(doc, dict):
            out.append(f"{fname}: the file is not a JSON object; it must be {{\"areas\": [...], ...}} as docs/map.md shows")
            continue
        for k in sorted(set(doc) - set(_FILE_KEYS), key=str):
            out.append(f"{fname}: unknown top-level field {k!r}; the map files hold only {', '.join(_FILE_KEYS)}")
        if "region" in doc and not isinstance(doc["region"], str):
            out.append(f"{fname}: 'region' is {doc['region']!r}, not a string; write the region letter")
        for key in ("areas", "crossings", "provinces", "seas"):
            if key in doc and not isinstance(doc[key], list):
                out.append(f"{fname}: {key!r} is not a list; write it as [...]")
        for i, e in enumerate(_listed(doc, "areas")):
            n_land += 1
            where = f"{fname}: {_entry('area', e, i)}"
            if _check_area_shape(e, where, out) and _claim(
                e["id"], f"{fname}: area {e['id']!r}", seen_place, "land and sea area", out
            ):
                areas[e["id"]] = (fname, e)
            elif isinstance(e, dict):
                _note_broken(e, broken, broken_provinces)
        for i, e in enumerate(_listed(doc, "seas")):
            n_sea += 1
            where = f"{fname}: {_entry('sea area', e, i)}"
            if _check_sea_shape(e, where, out) and _claim(
                e["id"], f"{fname}: sea area {e['id']!r}", seen_place, "land and sea area", out
            ):
                seas[e["id"]] = (fname, e)
            elif isinstance(e, dict):
                _note_broken(e, broken, broken_provinces)
        for i, e in enumerate(_listed(doc, "crossings")):
            where = f"{fname}: {_entry('crossing', e, i)}"
            if isinstance(e, dict) and "optional" not in e:
                e = {**e, "optional": None}  # 'optional' may be left out when null
            if _shape(e, _CROSSING_KEYS, where, out) and _id_ok(e["id"], where, out):
                if e["optional"] is not None and e["optional"] not in CROSSING_OPTIONS:
                    out.append(f"{where}: 'optional' is {e['optional']!r}; use null or one of {', '.join(CROSSING_OPTIONS)} (4.1.1)")
                elif _claim(e["id"], f"{fname}: crossing {e['id']!r}", seen_crossing, "crossing", out):
                    crossings[e["id"]] = (fname, e)
        for i, e in enumerate(_listed(doc, "provinces")):
            where = f"{fname}: {_entry('province', e, i)}"
            if _shape(e, _PROVINCE_KEYS, where, out) and _id_ok(e["id"], where, out):
                if e["tax"] < 0 or e["manpower"] < 0:
                    out.append(f"{where}: tax and manpower must not be negative (12.2.1, 12.2.2); fix the values")
                elif e["guerrilla"] and (e["nation"] != "SP" or not 1 <= e["guerrilla"] <= 6):
                    out.append(f"{where}: only a Spanish province has a guerrilla value, from 1 to 6 (13.2.1); set 0 elsewhere")
                elif e["cossack"] and e["nation"] != "RU":
                    out.append(f"{where}: only a Russian province can be a Cossack province (13.2.2)")
                elif _nation_ok(e["nation"], where, out) and _claim(e["id"], f"{fname}: province {e['id']!r}", seen_province, "province or district", out):
                    provinces[e["id"]] = (fname, e)
            elif isinstance(e, dict) and isinstance(e.get("id"), str):
                broken_provinces.add(e["id"])

    _check_references(areas, seas, crossings, provinces, broken, broken_provinces, out)
    _check_symmetry(areas, seas, out)
    _check_ports_and_coasts(areas, seas, crossings, out)
    _check_provinces_and_capitals(areas, provinces, broken_provinces, out)
    _check_winter(areas, provinces, out)
    _check_distances(areas, seas, crossings, out)
    if not out:
        # Reachability needs a graph whose every id resolves; judge it only on an otherwise sound map.
        _check_reachability(areas, seas, crossings, provinces, out)

    if n_land < min_land:
        out.append(f"the map has {n_land} land areas, fewer than {min_land}; a region file is missing or incomplete (add its areas_*.json)")
    if n_sea < min_sea:
        out.append(f"the map has {n_sea} sea areas, fewer than {min_sea}; seas.json is missing or incomplete")
    return out


def validate(raw: Mapping[str, Any], *, min_land: int = MIN_LAND_AREAS, min_sea: int = MIN_SEA_AREAS) -> None:
    """Raise ``BadData`` with the first problem of the map files; return None when they are valid."""
    found = problems(raw, min_land=min_land, min_sea=min_sea)
    if found:
        more = f" ({len(found) - 1} more problems)" if len(found) > 1 else ""
        raise BadData(
            f"map data: {found[0]}{more}",
            hint="run 'eiapbem data check' to list every problem of the map files",
        )


def build_map(raw: Mapping[str, Any], *, min_land: int = MIN_LAND_AREAS, min_sea: int = MIN_SEA_AREAS) -> Map:
    """Validate the parsed map files, then build the read-only ``Map``."""
    validate(raw, min_land=min_land, min_sea=min_sea)
    areas: dict[str, Area] = {}
    seas: dict[str, Sea] = {}
    crossings: dict[str, Crossing] = {}
    provinces: dict[str, Province] = {}
    for fname in sorted(raw):
        doc = raw[fname]
        for e in doc.get("areas", ()):
            city = e["city"]
            port = e["port"]
            areas[e["id"]] = Area(
                id=e["id"], name=e["name"], nation=e["nation"], province=e["province"],
                lon=e["lon"], lat=e["lat"], terrain=e["terrain"], forage=e["forage"],
                winter=e["winter"],
                city=None if city is None else City(city["name"], city["supply"], city["siege"], city["capital"]),
                port=None if port is None else Port(
                    port["gb_trade"], port["owner_trade"], port["harbour"], port["ice"],
                    port["shipbuilding"], tuple(sorted(port["seas"])),
                ),
                neighbours=tuple(sorted((Border(b["to"], b["river"]) for b in e["neighbours"]), key=lambda b: b.to)),
                coast=tuple(sorted(e["coast"])),
            )
        for e in doc.get("seas", ()):
            seas[e["id"]] = Sea(e["id"], e["name"], e["lon"], e["lat"], e["ice"], tuple(sorted(e["neighbours"])))
        for e in doc.get("crossings", ()):
            crossings[e["id"]] = Crossing(e["id"], e["a"], e["b"], e["sea"], e.get("optional"))
        for e in doc.get("provinces", ()):
            provinces[e["id"]] = Province(
                e["id"], e["name"], e["nation"], e["tax"], e["manpower"], e["capital"], e["polish"],
                e["guerrilla"], e["cossack"],
            )
    return Map(
        areas=_ro(dict(sorted(areas.items()))),
        seas=_ro(dict(sorted(seas.items()))),
        crossings=_ro(dict(sorted(crossings.items()))),
        provinces=_ro(dict(sorted(provinces.items()))),
    )


# -- the individual checks (each appends sentences to ``out``)


def _id_ok(value: str, where: str, out: list[str]) -> bool:
    if not _slug_ok(value):
        out.append(f"{where}: id {value!r} is not a lower-case ASCII slug; use letters, digits and '-' only")
        return False
    return True


def _nation_ok(nation: str, where: str, out: list[str]) -> bool:
    if nation in POWERS or _slug_ok(nation):
        return True
    out.append(f"{where}: nation {nation!r} is neither a power code ({' '.join(POWERS)}) nor a minor country's slug; fix it")
    return False


def _claim(ident: str, here: str, seen: dict[str, str], what: str, out: list[str]) -> bool:
    if ident in seen:
        out.append(f"{here} repeats the id of {seen[ident]}; every {what} id must be unique, rename or remove one")
        return False
    seen[ident] = here
    return True


def _check_area_shape(e: Any, where: str, out: list[str]) -> bool:
    """Report an area's problems of form and value; return False if it cannot be cross-checked."""
    if not _shape(e, _AREA_KEYS, where, out):
        return False
    usable = _id_ok(e["id"], where, out)
    _nation_ok(e["nation"], where, out)
    if e["terrain"] not in TERRAINS:
        out.append(f"{where}: terrain {e['terrain']!r} is unknown; use one of {', '.join(TERRAINS)} (10.4.1)")
    if e["forage"] < 0:
        out.append(f"{where}: forage value {e['forage']} is negative; use 0 or more (10.5.1)")
    if not (-18000 <= e["lon"] <= 18000 and -9000 <= e["lat"] <= 9000):
        out.append(f"{where}: position {e['lon']},{e['lat']} is not a longitude/latitude in hundredths of a degree; fix it")
        usable = False
    city = e["city"]
    if city is not None:
        if not _shape(city, _CITY_KEYS, f"{where}: city", out):
            usable = False
        else:
            if city["supply"] < 1 or city["siege"] < 0:
                out.append(f"{where}: city supply must be 1 or more and siege 0 or more (10.4.3); fix the values")
            if city["capital"] is not None and city["capital"] not in CAPITAL_KINDS:
                out.append(f"{where}: city capital {city['capital']!r} is unknown; use null or one of {', '.join(CAPITAL_KINDS)}")
                usable = False
    port = e["port"]
    if port is not None:
        if not _shape(port, _PORT_KEYS, f"{where}: port", out):
            usable = False
        else:
            if min(port["gb_trade"], port["owner_trade"], port["harbour"]) < 0:
                out.append(f"{where}: port trade and harbour values must not be negative; fix them")
            if not all(isinstance(s, str) for s in port["seas"]):
                out.append(f"{where}: port seas must be a list of sea area ids")
                usable = False
    for j, b in enumerate(e["neighbours"]):
        if not _shape(b, _BORDER_KEYS, f"{where}: neighbour number {j + 1}", out):
            usable = False
    if not all(isinstance(s, str) for s in e["coast"]):
        out.append(f"{where}: coast must be a list of sea area ids")
        usable = False
    return usable


def _check_sea_shape(e: Any, where: str, out: list[str]) -> bool:
    if not _shape(e, _SEA_KEYS, where, out):
        return False
    usable = _id_ok(e["id"], where, out)
    if not (-18000 <= e["lon"] <= 18000 and -9000 <= e["lat"] <= 9000):
        out.append(f"{where}: position {e['lon']},{e['lat']} is not a longitude/latitude in hundredths of a degree; fix it")
        usable = False
    if not all(isinstance(s, str) for s in e["neighbours"]):
        out.append(f"{where}: neighbours must be a list of sea area ids")
        usable = False
    return usable


def _note_broken(e: dict, broken: set[str], broken_provinces: set[str]) -> None:
    if isinstance(e.get("id"), str):
        broken.add(e["id"])
    if isinstance(e.get("province"), str):
        broken_provinces.add(e["province"])


def _check_references(areas, seas, crossings, provinces, broken, broken_provinces, out: list[str]) -> None:
    for aid, (f, e) in areas.items():
        where = f"{f}: area {aid!r}"
        tos = [b["to"] for b in e["neighbours"]]
        for t in tos:
            if t not in areas:
                if t not in broken:
                    out.append(f"{where}: neighbour {t!r} is not a land area of the map; fix the id (see docs/map.md)")
            elif t == aid:
                out.append(f"{where} lists itself as a neighbour; remove that entry")
        for t in sorted({t for t in tos if tos.count(t) > 1}):
            out.append(f"{where} lists neighbour {t!r} more than once; keep one entry")
        for s in e["coast"]:
            if s not in seas and s not in broken:
                out.append(f"{where}: coast {s!r} is not a sea area of the map; fix the id (seas.json lists them)")
        if len(set(e["coast"])) != len(e["coast"]):
            out.append(f"{where} lists a coast sea more than once; keep one entry")
        if e["port"] is not None:
            for s in e["port"]["seas"]:
                if s not in seas and s not in broken:
                    out.append(f"{where}: port sea {s!r} is not a sea area of the map; fix the id (seas.json lists them)")
        if e["province"] not in provinces and e["province"] not in broken_provinces:
            out.append(f"{where}: province {e['province']!r} is not a province or district of the map; add it to 'provinces' or fix the id")
    for sid, (f, e) in seas.items():
        where = f"{f}: sea area {sid!r}"
        for t in e["neighbours"]:
            if t not in seas:
                if t not in broken:
                    out.append(f"{where}: neighbour {t!r} is not a sea area of the map; fix the id")
            elif t == sid:
                out.append(f"{where} lists itself as a neighbour; remove that entry")
        if len(set(e["neighbours"])) != len(e["neighbours"]):
            out.append(f"{where} lists a neighbour more than once; keep one entry")
    pairs: dict[tuple[str, str], str] = {}
    for cid, (f, e) in crossings.items():
        where = f"{f}: crossing {cid!r}"
        for end in ("a", "b"):
            if e[end] not in areas and e[end] not in broken:
                out.append(f"{where}: end {end} {e[end]!r} is not a land area of the map; fix the id")
        if e["a"] == e["b"]:
            out.append(f"{where} joins {e['a']!r} to itself; give two different areas")
        if e["sea"] not in seas and e["sea"] not in broken:
            out.append(f"{where}: sea {e['sea']!r} is not a sea area of the map; fix the id")
        key = tuple(sorted((e["a"], e["b"])))
        if key in pairs:
            out.append(f"{where} joins the same areas as crossing {pairs[key]!r}; declare each crossing once")
        pairs[key] = cid
    for pid, (f, e) in provinces.items():
        if e["capital"] not in areas and e["capital"] not in broken:
            out.append(f"{f}: province {pid!r}: capital {e['capital']!r} is not a land area of the map; fix the id")


def _check_symmetry(areas, seas, out: list[str]) -> None:
    for aid, (f, e) in areas.items():
        for b in e["neighbours"]:
            t = b["to"]
            if t not in areas or t == aid:
                continue
            tf, te = areas[t]
            back = [x for x in te["neighbours"] if x["to"] == aid]
            if not back:
                out.append(
                    f"{tf}: area {t!r} does not list its neighbour {aid!r} ({f} lists the border from {aid!r}); "
                    f"borders are two-way, add {{\"to\": \"{aid}\", \"river\": {str(b['river']).lower()}}} to {t!r}"
                )
            elif back[0]["river"] != b["river"] and aid < t:
                out.append(
                    f"{f}: area {aid!r}: the border with {t!r} has river {str(b['river']).lower()} here but "
                    f"{str(back[0]['river']).lower()} in {tf}; give both sides the same river flag (10.4.1)"
                )
    for sid, (f, e) in seas.items():
        for t in e["neighbours"]:
            if t in seas and t != sid and sid not in seas[t][1]["neighbours"]:
                out.append(f"{seas[t][0]}: sea area {t!r} does not list its neighbour {sid!r}; sea connections are two-way, add it")


def _check_ports_and_coasts(areas, seas, crossings, out: list[str]) -> None:
    for aid, (f, e) in areas.items():
        where = f"{f}: area {aid!r}"
        port = e["port"]
        if port is None:
            continue
        if e["city"] is None:
            out.append(f"{where} has a port but no city; a port is a city (13.5.3), add the city or remove the port")
        if not port["seas"]:
            out.append(f"{where}: the port touches no sea area; list its blockade box's seas in port.seas (8.4.2)")
        for s in port["seas"]:
            if s in seas and s not in e["coast"]:
                out.append(f"{where}: port sea {s!r} is not in the area's coast; add it to 'coast' or remove it from port.seas")
    for cid, (f, e) in crossings.items():
        sea = e["sea"]
        if sea not in seas:
            continue
        for end in ("a", "b"):
            if e[end] in areas and sea not in areas[e[end]][1]["coast"]:
                out.append(
                    f"{f}: crossing {cid!r}: end {e[end]!r} does not touch its sea {sea!r}; "
                    f"add {sea!r} to the coast of {e[end]!r} or fix the crossing's sea"
                )
        a, b = e["a"], e["b"]
        if a in areas and any(x["to"] == b for x in areas[a][1]["neighbours"]):
            out.append(f"{f}: crossing {cid!r} joins {a!r} and {b!r}, which already share a land border; remove one of the two")


def _check_provinces_and_capitals(areas, provinces, broken_provinces, out: list[str]) -> None:
    members: dict[str, list[str]] = {p: [] for p in provinces}
    for aid, (f, e) in areas.items():
        if e["province"] in provinces:
            members[e["province"]].append(aid)
            pf, pe = provinces[e["province"]]
            if pe["nation"] != e["nation"]:
                out.append(
                    f"{f}: area {aid!r} has nation {e['nation']!r} but its province {e['province']!r} "
                    f"belongs to {pe['nation']!r} ({pf}); make them agree"
                )
    for pid, (f, e) in provinces.items():
        where = f"{f}: province {pid!r}"
        if pid in broken_provinces:
            continue  # one of its areas is malformed; judged once that is fixed
        if not members[pid]:
            out.append(f"{where} has no land areas; give it areas or remove it")
            continue
        caps = [a for a in members[pid] if areas[a][1]["city"] is not None and areas[a][1]["city"]["capital"] is not None]
        if len(caps) != 1:
            kind = "district" if e["nation"] not in POWERS else "province"
            out.append(
                f"{where} has {len(caps)} capital cities ({', '.join(caps) or 'none'}); "
                f"a {kind} has exactly one, mark one city's 'capital' and no other"
            )
        if e["capital"] in areas:
            if e["capital"] not in members[pid]:
                out.append(f"{where}: capital {e['capital']!r} is not one of the province's areas; fix the id")
            elif e["capital"] not in caps:
                out.append(f"{where}: capital {e['capital']!r} has no capital city; set its city's 'capital'")
    # Capital kinds: national only for the capitals of 12.2.1, minor only in minors.
    for aid, (f, e) in areas.items():
        city = e["city"]
        if city is None or city["capital"] is None:
            continue
        where = f"{f}: area {aid!r}"
        kind = city["capital"]
        national = e["nation"] in POWERS and aid in NATIONAL_CAPITALS[e["nation"]]
        if national and kind != "national":
            out.append(f"{where} is a national capital (12.2.1); set its city's capital to \"national\"")
        elif kind == "national" and not national:
            out.append(f"{where}: capital \"national\" is only for {_national_list()}; use \"province\" or \"minor\"")
        elif kind == "minor" and e["nation"] in POWERS:
            out.append(f"{where}: capital \"minor\" is for minor countries, but the area belongs to {e['nation']}; use \"province\"")
        elif kind == "province" and e["nation"] not in POWERS:
            out.append(f"{where}: capital \"province\" is for home provinces, but the area belongs to the minor {e['nation']!r}; use \"minor\"")
    # 12.2.1: every power with areas on the map has its national capital(s).
    present = sorted({e["nation"] for f, e in areas.values() if e["nation"] in POWERS})
    for power in present:
        for listed in (NATIONAL_CAPITALS[power],):
            for c in listed:
                if c not in areas:
                    out.append(f"the national capital {c!r} of {power} is missing from the map (12.2.1); add the area")
                elif areas[c][1]["nation"] != power:
                    out.append(f"{areas[c][0]}: area {c!r} is {power}'s national capital but has nation {areas[c][1]['nation']!r}; fix it")


def _national_list() -> str:
    return ", ".join(c for caps in NATIONAL_CAPITALS.values() for c in caps)


def _winter_zone(e: dict) -> bool:
    # 13.1.1 (000:2362).
    return not (
        e["nation"] in NOT_WINTER_NATIONS
        or e["province"] in NOT_WINTER_PROVINCES
        or e["id"] in NOT_WINTER_AREAS
    )


def _check_winter(areas, provinces, out: list[str]) -> None:
    for aid, (f, e) in areas.items():
        want = _winter_zone(e)
        if e["winter"] != want:
            out.append(
                f"{f}: area {aid!r} has winter {str(e['winter']).lower()}, but 13.1.1 puts it "
                f"{'inside' if want else 'outside'} the winter zone; set winter {str(want).lower()}"
            )


def _check_distances(areas, seas, crossings, out: list[str]) -> None:
    def pos(table, i):
        e = table[i][1]
        return e["lon"], e["lat"]

    for aid, (f, e) in areas.items():
        for b in e["neighbours"]:
            t = b["to"]
            if t in areas and aid < t:
                km = distance_km(*pos(areas, aid), *pos(areas, t))
                if km > MAX_BORDER_KM:
                    out.append(
                        f"{f}: area {aid!r}: neighbour {t!r} is {km} km away, more than {MAX_BORDER_KM} km; "
                        f"check the id and both positions"
                    )
        for s in e["coast"]:
            if s in seas:
                km = distance_km(*pos(areas, aid), *pos(seas, s))
                if km > MAX_SEA_KM:
                    out.append(f"{f}: area {aid!r}: coast {s!r} is {km} km away, more than {MAX_SEA_KM} km; check the id")
    for cid, (f, e) in crossings.items():
        if e["a"] in areas and e["b"] in areas:
            km = distance_km(*pos(areas, e["a"]), *pos(areas, e["b"]))
            if km > MAX_BORDER_KM:
                out.append(f"{f}: crossing {cid!r} spans {km} km, more than {MAX_BORDER_KM} km; check its ends")
    for sid, (f, e) in seas.items():
        for t in e["neighbours"]:
            if t in seas and sid < t:
                km = distance_km(*pos(seas, sid), *pos(seas, t))
                if km > MAX_SEA_KM:
                    out.append(f"{f}: sea area {sid!r}: neighbour {t!r} is {km} km away, more than {MAX_SEA_KM} km; check the id")


def _check_reachability(areas, seas, crossings, provinces, out: list[str]) -> None:
    """Every land area must be reachable from its nation's capital by land or crossing arrows.

    A group of areas cut off from the capital (over land and crossings) is accepted only as an
    island: every area in it touches the sea, one of them is a port (so it can be reached by
    sea), and it holds no national or minor capital (Crete, Cyprus, Majorca).  An inland area
    without borders, or a coast joined by mistake to another nation's heartland, is an error.
    """
    adj: dict[str, list[str]] = {a: [] for a in areas}
    for aid, (f, e) in areas.items():
        for b in e["neighbours"]:
            adj[aid].append(b["to"])
    for cid, (f, e) in crossings.items():
        adj[e["a"]].append(e["b"])
        adj[e["b"]].append(e["a"])

    def component(start: str) -> set[str]:
        seen = {start}
        todo = [start]
        while todo:
            for n in adj[todo.pop()]:
                if n not in seen:
                    seen.add(n)
                    todo.append(n)
        return seen

    capitals: dict[str, list[str]] = {}
    for power, caps in NATIONAL_CAPITALS.items():
        capitals[power] = list(caps)
    for pid, (f, e) in provinces.items():
        if e["nation"] not in POWERS:
            capitals.setdefault(e["nation"], []).append(e["capital"])
    all_capitals = {c for caps in capitals.values() for c in caps}
    comp_of: dict[str, frozenset[str]] = {}
    for aid in sorted(areas):
        if aid not in comp_of:
            c = frozenset(component(aid))
            for x in c:
                comp_of[x] = c
    for aid in sorted(areas):
        f, e = areas[aid]
        reached = [c for c in capitals.get(e["nation"], []) if c in areas]
        if not reached or any(aid in comp_of[c] for c in reached):
            continue
        comp = comp_of[aid]
        island = (
            all(areas[x][1]["coast"] for x in comp)
            and any(areas[x][1]["port"] is not None for x in comp)
            and not any(x in all_capitals for x in comp)
        )
        if not island:
            out.append(
                f"{f}: area {aid!r} cannot be reached by land or crossing arrow from "
                f"{' or '.join(repr(c) for c in reached)}, the capital of {e['nation']}, and is not an island with a port "
                f"and no capital; "
                f"add the missing border or crossing"
            )
