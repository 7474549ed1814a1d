"""A small synthetic map that passes every check of ``eiapbem.rules.mapcheck.problems``.

Tests build it, break one thing, and look for the problem.  Positions are real
(hundredths of a degree) so the distance checks see realistic numbers.
"""

from __future__ import annotations

import copy
import json
from pathlib import Path

# Small maps: the real map's minimum sizes do not apply.
SMALL = {"min_land": 1, "min_sea": 1}


def area(id, nation, province, lon, lat, *, terrain="clear", forage=3, winter=True, city=None,
         port=None, neighbours=(), coast=()):
    return {
        "id": id, "name": id.replace("-", " ").title(), "nation": nation, "province": province,
        "lon": lon, "lat": lat, "terrain": terrain, "forage": forage, "winter": winter,
        "city": city, "port": port,
        "neighbours": [{"to": t, "river": r} for t, r in neighbours],
        "coast": list(coast),
    }


def city(name, supply=2, siege=1, capital=None):
    return {"name": name, "supply": supply, "siege": siege, "capital": capital}


def port(*seas, ice=False):
    return {"gb_trade": 1, "owner_trade": 2, "harbour": 2, "ice": ice, "shipbuilding": False,
            "seas": list(seas)}


def province(id, nation, capital, tax=3, manpower=1):
    return {"id": id, "name": id.title(), "nation": nation, "tax": tax, "manpower": manpower,
            "capital": capital, "polish": False, "guerrilla": 0, "cossack": False}


def sea(id, lon, lat, *neighbours, ice=False):
    return {"id": id, "name": id.replace("-", " ").title(), "lon": lon, "lat": lat, "ice": ice,
            "neighbours": list(neighbours)}


def small_map() -> dict:
    """Two files of areas (west: Britain and Ireland; east: France and Flanders) and seas.json."""
    west = {
        "region": "W",
        "areas": [
            area("london", "GB", "england", -10, 5151, city=city("London", 4, 2, "national"),
                 port=port("english-channel", "north-sea"), neighbours=[("portsmouth", False)],
                 coast=["english-channel", "north-sea"]),
            area("portsmouth", "GB", "england", -109, 5080, city=city("Portsmouth"),
                 port=port("english-channel"), neighbours=[("london", False)],
                 coast=["english-channel"]),
            area("dublin", "GB", "ireland", -626, 5335, city=city("Dublin", capital="province"),
                 port=port("irish-sea"), coast=["irish-sea"]),
        ],
        "crossings": [
            {"id": "channel-crossing", "a": "portsmouth", "b": "caen", "sea": "english-channel",
             "optional": None},
        ],
        "provinces": [province("england", "GB", "london"), province("ireland", "GB", "dublin")],
    }
    east = {
        "region": "C",
        "areas": [
            area("paris", "FR", "ile-de-france", 235, 4886, city=city("Paris", 5, 2, "national"),
                 neighbours=[("rouen", True), ("lille", False), ("orleans", False)]),
            area("orleans", "FR", "ile-de-france", 191, 4790, terrain="forest",
                 neighbours=[("paris", False)]),
            area("rouen", "FR", "normandy", 110, 4944, city=city("Rouen", capital="province"),
                 port=port("english-channel"), neighbours=[("paris", True), ("caen", False)],
                 coast=["english-channel"]),
            area("caen", "FR", "normandy", -36, 4918, terrain="marsh", forage=1,
                 neighbours=[("rouen", False)], coast=["english-channel"]),
            area("lille", "FR", "picardy", 306, 5063, city=city("Lille", capital="province"),
                 neighbours=[("paris", False), ("brussels", False)],
                 coast=["english-channel", "north-sea"]),
            area("brussels", "flanders", "flanders", 435, 5085, city=city("Brussels", capital="minor"),
                 neighbours=[("lille", False), ("antwerp", True)]),
            area("antwerp", "flanders", "flanders", 440, 5122, city=city("Antwerp"),
                 port=port("north-sea"), neighbours=[("brussels", True)], coast=["north-sea"]),
        ],
        "crossings": [],
        "provinces": [
            province("ile-de-france", "FR", "paris"),
            province("normandy", "FR", "rouen"),
            province("picardy", "FR", "lille"),
            province("flanders", "flanders", "brussels"),
        ],
    }
    seas = {
        "seas": [
            sea("english-channel", -200, 5000, "north-sea", "irish-sea"),
            sea("north-sea", 300, 5500, "english-channel"),
            sea("irish-sea", -480, 5380, "english-channel"),
        ]
    }
    return {"areas_W.json": west, "areas_C.json": east, "seas.json": seas}


def find(raw: dict, kind: str, id: str) -> dict:
    """The entry ``id`` of list ``kind`` (areas, seas, crossings, provinces) in any file."""
    for doc in raw.values():
        for e in doc.get(kind, ()):
            if e["id"] == id:
                return e
    raise KeyError(id)


def write(raw: dict, folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, doc in raw.items():
        (folder / name).write_text(json.dumps(doc, indent=1), encoding="utf-8")
    return folder


def clone(raw: dict) -> dict:
    return copy.deepcopy(raw)


def big_map(rows: int = 10, cols: int = 20, nseas: int = 20) -> dict:
    """A grid of rows x cols French areas (one province per row) and a chain of seas.

    Big enough for the real map's minimum sizes (200 land, 20 sea areas).  The first area is
    Paris, France's national capital (12.2.1); each row's first area is its province's capital.
    """
    areas, provinces = [], []
    seas = [f"sea-{i}" for i in range(nseas)]
    for r in range(rows):
        pid = f"prov-{r}"
        for c in range(cols):
            aid = "paris" if (r, c) == (0, 0) else f"a-{r}-{c}"
            nb = []
            for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
                rr, cc = r + dr, c + dc
                if 0 <= rr < rows and 0 <= cc < cols:
                    nb.append(("paris" if (rr, cc) == (0, 0) else f"a-{rr}-{cc}", dc != 0 and r == 1))
            cap = None
            if c == 0:
                cap = "national" if r == 0 else "province"
            coast = [seas[c % nseas]] if r == 0 else []
            areas.append(area(aid, "FR", pid, 100 * c, 4500 + 50 * r,
                              terrain=("clear", "forest", "mountain", "marsh")[(r + c) % 4],
                              city=city(aid.title(), capital=cap) if c % 3 == 0 else None,
                              port=port(*coast) if coast and c % 3 == 0 else None,
                              neighbours=nb, coast=coast))
        provinces.append(province(pid, "FR", "paris" if r == 0 else f"a-{r}-0"))
    sea_list = [
        sea(s, 100 * i, 4400, *[seas[j] for j in (i - 1, i + 1) if 0 <= j < nseas])
        for i, s in enumerate(seas)
    ]
    return {"areas_W.json": {"region": "W", "areas": areas, "crossings": [], "provinces": provinces},
            "seas.json": {"seas": sea_list}}
