"""The map of 1805 as typed, frozen, read-only values, and its graph.

The map is data (``eiapbem/data/map/*.json``, loaded by ``eiapbem.data.mapdata``);
this module holds no file I/O.  ``eiapbem.rules.mapcheck`` checks the parsed map
files and builds the ``Map`` (``problems``, ``validate``, ``build_map``).

The graph functions (reachability, cheapest land paths by movement cost) are
what supply (10.5), retreat (11.2.10) and movement (10.4) build on.  Every result is
ordered by id, never by set or hash order.
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from math import isqrt
from types import MappingProxyType
from typing import Callable, Mapping


from eiapbem.core.powers import POWERS  # noqa: E402

#: 10.4, 11.2.7: the terrain kinds of a land area.
TERRAINS = ("clear", "forest", "mountain", "marsh", "desert")

#: 10.4.1 (000:1380-1382): clear, forest and desert cost 1 movement point to enter; marsh and mountain 2.
TERRAIN_COST = MappingProxyType({"clear": 1, "forest": 1, "desert": 1, "marsh": 2, "mountain": 2})

#: 10.4.1 (000:1386): a crossing arrow always costs 1 extra movement point.
CROSSING_COST = 1

#: The national capitals (12.2.1, 000:2098: both Moscow and St. Petersburg for Russia).
NATIONAL_CAPITALS = MappingProxyType(
    {
        "AU": ("vienna",),
        "FR": ("paris",),
        "GB": ("london",),
        "PR": ("berlin",),
        "RU": ("moscow", "st-petersburg"),
        "SP": ("madrid",),
        "TU": ("constantinople",),
    }
)

#: 13.1.1 (000:2362): every area is in the winter zone except those of these minor countries and
#: islands.  Cyprus and Crete are Turkish provinces and Majorca a Spanish area, so they are named
#: by province and by area.
NOT_WINTER_NATIONS = (
    "algeria",
    "corfu",
    "cyrenaica",
    "egypt",
    "malta",
    "morocco",
    "palestine",
    "rhodes",
    "tripolitania",
    "tunisia",
)
NOT_WINTER_PROVINCES = ("crete", "cyprus")
NOT_WINTER_AREAS = ("majorca",)

#: Options a crossing may depend on (4.1.1, 000:50: "Use Lille Sea Crossing").
CROSSING_OPTIONS = ("lille",)

#: The Dardanelles crossing arrow ignores the winter restriction (4.1.1, 000:28; 13.1.3, 000:2370).
#: The map names it by this id (the Bosporus, also over the Sea of Marmara, is not exempt).
DARDANELLES = "dardanelles"

CAPITAL_KINDS = ("national", "province", "minor")

#: Plausibility limits on positions (docs/map.md explains them).  The longest border in the
#: reference positions is Benghazi-Alexandria across the Libyan desert (about 940 km); in Europe
#: neighbours lie 100-500 km apart.  A misspelt or misplaced id almost always points more than
#: 1000 km away.  Sea areas are large (the North Atlantic's centre is 1500 km from Cape
#: Finisterre's), so a sea touching a land area or another sea may be up to 2000 km away.
MAX_BORDER_KM = 1000
MAX_SEA_KM = 2000

#: The real map must have at least this many land and sea areas (the reference list has 274 and 26).
MIN_LAND_AREAS = 200
MIN_SEA_AREAS = 20

# cos(d degrees) x 10000 for d = 0..90, rounded: positions are integers, so distances are too.
_COS = (
    10000, 9998, 9994, 9986, 9976, 9962, 9945, 9925, 9903, 9877, 9848, 9816, 9781, 9744, 9703,
    9659, 9613, 9563, 9511, 9455, 9397, 9336, 9272, 9205, 9135, 9063, 8988, 8910, 8829, 8746,
    8660, 8572, 8480, 8387, 8290, 8192, 8090, 7986, 7880, 7771, 7660, 7547, 7431, 7314, 7193,
    7071, 6947, 6820, 6691, 6561, 6428, 6293, 6157, 6018, 5878, 5736, 5592, 5446, 5299, 5150,
    5000, 4848, 4695, 4540, 4384, 4226, 4067, 3907, 3746, 3584, 3420, 3256, 3090, 2924, 2756,
    2588, 2419, 2250, 2079, 1908, 1736, 1564, 1392, 1219, 1045, 872, 698, 523, 349, 175, 0,
)


def distance_km(lon1: int, lat1: int, lon2: int, lat2: int) -> int:
    """Approximate distance in whole km between two positions in hundredths of a degree.

    Equirectangular: the longitude difference is scaled by the cosine of the mean latitude
    (whole degrees); one degree of arc is 111.195 km.  Good to a few per cent over the
    distances between neighbouring areas, which is all the plausibility checks need.
    """
    mean_deg = min(abs(lat1 + lat2) // 200, 90)
    x = (lon1 - lon2) * _COS[mean_deg]  # hundredths of a degree x 10000
    y = (lat1 - lat2) * 10000
    return isqrt(x * x + y * y) * 111195 // 10**9


# --------------------------------------------------------------------------- values


@dataclass(frozen=True)
class City:
    """A city in a land area (10.4.3: garrison capacity is 5 x supply)."""

    name: str
    supply: int
    siege: int
    capital: str | None  # "national", "province", "minor" or None

    @property
    def garrison_capacity(self) -> int:
        # 10.4.3: a city holds up to five garrison factors per supply value.
        return 5 * self.supply


@dataclass(frozen=True)
class Port:
    """The port of a land area's city (12.2.1 trade, 13.5.3 harbour, 8.4.2 blockade box)."""

    gb_trade: int
    owner_trade: int
    harbour: int
    ice: bool
    shipbuilding: bool
    seas: tuple[str, ...]  # the sea areas its blockade box touches


@dataclass(frozen=True)
class Border:
    """One side's record of a land border."""

    to: str
    river: bool


@dataclass(frozen=True)
class Area:
    id: str
    name: str
    nation: str  # a power code, or a minor country's slug
    province: str  # home province, or the minor's district
    lon: int  # hundredths of a degree
    lat: int
    terrain: str
    forage: int
    winter: bool
    city: City | None
    port: Port | None
    neighbours: tuple[Border, ...]  # sorted by id
    coast: tuple[str, ...]  # sea areas touched, sorted

    @property
    def is_minor(self) -> bool:
        return self.nation not in POWERS

    @property
    def move_cost(self) -> int:
        """10.4.1: movement points to enter this area (without river, crossing or winter extras)."""
        return TERRAIN_COST[self.terrain]


@dataclass(frozen=True)
class Sea:
    id: str
    name: str
    lon: int
    lat: int
    ice: bool  # north of the ice line (8.4.1)
    neighbours: tuple[str, ...]  # sorted


@dataclass(frozen=True)
class Crossing:
    """A crossing arrow (10.4.1) between two land areas over a sea area."""

    id: str
    a: str
    b: str
    sea: str
    optional: str | None  # the game option that enables it ("lille"), or None

    def other_end(self, area: str) -> str:
        if area == self.a:
            return self.b
        if area == self.b:
            return self.a
        raise KeyError(f"crossing {self.id!r} does not touch area {area!r}")

    @property
    def winter_exempt(self) -> bool:
        # 4.1.1 (000:28): the Dardanelles crossing arrow is not restricted in winter.
        return self.id == DARDANELLES


@dataclass(frozen=True)
class Province:
    """A home province of a power, or a minor country's district (12.2.1, 13.6)."""

    id: str
    name: str
    nation: str
    tax: int
    manpower: int
    capital: str  # area id
    polish: bool  # a "(P)" province of 12.8.2
    guerrilla: int = 0  # Spanish provinces: the guerrilla value printed on the map (13.2.1)
    cossack: bool = False  # Russian "(C)" Cossack provinces (13.2.2)

    @property
    def is_minor(self) -> bool:
        return self.nation not in POWERS


def _ro(d: dict) -> Mapping:
    return MappingProxyType(d)


@dataclass(frozen=True, eq=False)
class Map:
    """The whole map: read-only, shared by every game, never copied into the game state."""

    areas: Mapping[str, Area]  # sorted by id
    seas: Mapping[str, Sea]
    crossings: Mapping[str, Crossing]
    provinces: Mapping[str, Province]

    def __post_init__(self) -> None:
        coastal: dict[str, list[str]] = {s: [] for s in self.seas}
        by_province: dict[str, list[str]] = {p: [] for p in self.provinces}
        by_nation: dict[str, list[str]] = {}
        crossing_ends: dict[str, list[Crossing]] = {a: [] for a in self.areas}
        ports: dict[str, list[str]] = {s: [] for s in self.seas}
        for a in self.areas.values():
            for s in a.coast:
                coastal[s].append(a.id)
            for s in dict.fromkeys(a.port.seas if a.port is not None else ()):
                ports.setdefault(s, []).append(a.id)
            by_province[a.province].append(a.id)
            by_nation.setdefault(a.nation, []).append(a.id)
        for c in self.crossings.values():
            crossing_ends[c.a].append(c)
            crossing_ends[c.b].append(c)
        object.__setattr__(self, "_coastal", _ro({k: tuple(v) for k, v in coastal.items()}))
        object.__setattr__(self, "_ports_on", _ro({k: tuple(v) for k, v in ports.items()}))
        object.__setattr__(self, "_by_province", _ro({k: tuple(v) for k, v in by_province.items()}))
        object.__setattr__(
            self, "_by_nation", _ro({k: tuple(v) for k, v in sorted(by_nation.items())})
        )
        object.__setattr__(
            self, "_crossings_at", _ro({k: tuple(v) for k, v in crossing_ends.items()})
        )

    # -- lookups
    def area(self, area_id: str) -> Area:
        try:
            return self.areas[area_id]
        except KeyError:
            raise KeyError(f"there is no land area {area_id!r} on the map") from None

    def sea(self, sea_id: str) -> Sea:
        try:
            return self.seas[sea_id]
        except KeyError:
            raise KeyError(f"there is no sea area {sea_id!r} on the map") from None

    def province(self, province_id: str) -> Province:
        try:
            return self.provinces[province_id]
        except KeyError:
            raise KeyError(f"there is no province or district {province_id!r} on the map") from None

    def is_area(self, area_id: str) -> bool:
        return area_id in self.areas

    def is_sea(self, sea_id: str) -> bool:
        return sea_id in self.seas

    def land_neighbours(self, area_id: str) -> tuple[str, ...]:
        """Areas across a land border (not across a crossing arrow), by id."""
        return tuple(b.to for b in self.area(area_id).neighbours)

    def border(self, a: str, b: str) -> Border | None:
        for bd in self.area(a).neighbours:
            if bd.to == b:
                return bd
        return None

    def is_river(self, a: str, b: str) -> bool:
        bd = self.border(a, b)
        return bd is not None and bd.river

    def crossings_at(self, area_id: str) -> tuple[Crossing, ...]:
        self.area(area_id)
        return self._crossings_at[area_id]  # type: ignore[attr-defined]

    def coastal_areas(self, sea_id: str) -> tuple[str, ...]:
        """Land areas touching the sea area, by id."""
        self.sea(sea_id)
        return self._coastal[sea_id]  # type: ignore[attr-defined]

    def ports_on(self, sea_id: str) -> tuple[str, ...]:
        """Port areas whose blockade box touches the sea area (8.4.2), by id."""
        self.sea(sea_id)
        return self._ports_on[sea_id]  # type: ignore[attr-defined]

    def sea_neighbours(self, sea_id: str) -> tuple[str, ...]:
        return self.sea(sea_id).neighbours

    def areas_of_province(self, province_id: str) -> tuple[str, ...]:
        self.province(province_id)
        return self._by_province[province_id]  # type: ignore[attr-defined]

    def areas_of_nation(self, nation: str) -> tuple[str, ...]:
        """Areas of a power's home nation or of a minor country (its districts), by id."""
        return self._by_nation.get(nation, ())  # type: ignore[attr-defined]

    def nations(self) -> tuple[str, ...]:
        """Every nation on the map: the powers and the minors (district slugs), by id."""
        return tuple(self._by_nation)  # type: ignore[attr-defined]

    def provinces_of(self, nation: str) -> tuple[str, ...]:
        return tuple(p.id for p in self.provinces.values() if p.nation == nation)

    def capital_of(self, province_id: str) -> str:
        return self.province(province_id).capital

    def national_capitals(self, power: str) -> tuple[str, ...]:
        return NATIONAL_CAPITALS[power]

    def ports(self) -> tuple[str, ...]:
        return tuple(a.id for a in self.areas.values() if a.port is not None)

    def cities(self) -> tuple[str, ...]:
        return tuple(a.id for a in self.areas.values() if a.city is not None)

    def counts(self) -> dict[str, int]:
        return {
            "land areas": len(self.areas),
            "sea areas": len(self.seas),
            "ports": len(self.ports()),
            "cities": len(self.cities()),
            "provinces": sum(1 for p in self.provinces.values() if not p.is_minor),
            "minor districts": sum(1 for p in self.provinces.values() if p.is_minor),
            "crossings": len(self.crossings),
        }


# --------------------------------------------------------------------------- graph


def _steps(
    m: Map,
    here: str,
    crossings: bool | Callable[[Crossing], bool],
) -> list[tuple[str, bool]]:
    """(next area, via a crossing?) from ``here``, ordered by id then land before crossing."""
    out = [(b.to, False) for b in m.area(here).neighbours]
    if crossings:
        for c in m.crossings_at(here):
            if crossings is True or crossings(c):
                out.append((c.other_end(here), True))
    return sorted(out)


def reachable(
    m: Map,
    start: str,
    *,
    crossings: bool | Callable[[Crossing], bool] = True,
    can_enter: Callable[[str], bool] | None = None,
) -> tuple[str, ...]:
    """Every land area reachable from ``start`` over land borders (and crossing arrows), by id.

    ``crossings`` is True (all), False (none) or a predicate choosing which crossing arrows may
    be used (an enemy fleet in the sea, 10.4.1 000:1386; the Lille option, 4.1.1).
    ``can_enter(area)`` may forbid areas (``start`` is always included).
    """
    m.area(start)
    seen = {start}
    todo = [start]
    while todo:
        here = todo.pop()
        for nxt, _ in _steps(m, here, crossings):
            if nxt not in seen and (can_enter is None or can_enter(nxt)):
                seen.add(nxt)
                todo.append(nxt)
    return tuple(sorted(seen))


def enter_cost(m: Map, to: str, *, via_crossing: bool, winter: bool = False) -> int:
    """10.4.1 movement points to enter ``to``: terrain, +1 over a crossing arrow.

    ``winter``: the Winter Land Movement option in a winter month (4.1.1, 000:28): +1 in an
    area of the winter zone.  The river cost (+1 only into an area holding an unbesieged enemy
    corps, 000:1384) depends on the state and is added by the caller through ``extra_cost``.
    """
    a = m.area(to)
    cost = a.move_cost + (CROSSING_COST if via_crossing else 0)
    if winter and a.winter:
        cost += 1
    return cost


def movement_costs(
    m: Map,
    start: str,
    *,
    max_cost: int | None = None,
    crossings: bool | Callable[[Crossing], bool] = True,
    can_enter: Callable[[str], bool] | None = None,
    extra_cost: Callable[[str, str, bool], int] | None = None,
    winter: bool = False,
) -> dict[str, int]:
    """The least movement cost from ``start`` to every area reachable within ``max_cost``.

    Costs follow ``enter_cost``; ``extra_cost(from, to, via_crossing)`` adds what depends on the
    state (rivers into an enemy-held area).  The result is a dict ordered by id.
    """
    best = _dijkstra(m, start, None, max_cost, crossings, can_enter, extra_cost, winter)
    return {k: best[k][0] for k in sorted(best)}


def shortest_land_path(
    m: Map,
    start: str,
    goal: str,
    *,
    max_cost: int | None = None,
    crossings: bool | Callable[[Crossing], bool] = True,
    can_enter: Callable[[str], bool] | None = None,
    extra_cost: Callable[[str, str, bool], int] | None = None,
    winter: bool = False,
) -> tuple[tuple[str, ...], int] | None:
    """The cheapest path ``(start, …, goal)`` and its cost, or None when there is none.

    Among equally cheap paths the one whose sequence of ids sorts first is returned, so the
    answer never depends on hash order.
    """
    m.area(goal)
    best = _dijkstra(m, start, goal, max_cost, crossings, can_enter, extra_cost, winter)
    if goal not in best:
        return None
    cost, path = best[goal]
    return path, cost


def _dijkstra(
    m: Map,
    start: str,
    goal: str | None,
    max_cost: int | None,
    crossings: bool | Callable[[Crossing], bool],
    can_enter: Callable[[str], bool] | None,
    extra_cost: Callable[[str, str, bool], int] | None,
    winter: bool,
) -> dict[str, tuple[int, tuple[str, ...]]]:
    m.area(start)
    done: dict[str, tuple[int, tuple[str, ...]]] = {}
    heap: list[tuple[int, tuple[str, ...]]] = [(0, (start,))]
    while heap:
        cost, path = heapq.heappop(heap)
        here = path[-1]
        if here in done:
            continue
        done[here] = (cost, path)
        if here == goal:
            break
        for nxt, via in _steps(m, here, crossings):
            if nxt in done or (can_enter is not None and not can_enter(nxt)):
                continue
            c = cost + enter_cost(m, nxt, via_crossing=via, winter=winter)
            if extra_cost is not None:
                c += extra_cost(here, nxt, via)
            if max_cost is None or c <= max_cost:
                heapq.heappush(heap, (c, path + (nxt,)))
    return done


def land_components(m: Map, *, crossings: bool = True) -> tuple[tuple[str, ...], ...]:
    """The connected groups of land areas (over borders and, if asked, crossings), by first id."""
    seen: set[str] = set()
    out = []
    for a in m.areas:
        if a not in seen:
            comp = reachable(m, a, crossings=crossings)
            seen.update(comp)
            out.append(comp)
    return tuple(out)
