"""The map as an SVG picture: political shading, borders, cities, ports, seas and units.

Presentation only (floats are fine here; nothing here feeds back into the rules).
Each land area is drawn as a Voronoi cell around its position, clipped to a disc
so that coasts stay near the land; cells are coloured by the power that controls
the area (4.1.2 "Political Shading"), neutral minors in grey and controlled
minors in a light tint of their controller's colour.

``render_svg(map, controllers=..., units=...)`` is the one entry point: the
scenario and save code feed it ``area id -> controller`` and ``area id -> unit
labels``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

from eiapbem.present import coast
from eiapbem.rules.mapgraph import POWERS, Area, Map

#: Colours of the powers (fill, then a darker ink for text and outlines).
POWER_COLOURS = {
    "AU": ("#f3e7a9", "#8a7a20"),  # Habsburg yellow-white
    "FR": ("#7f9fe0", "#1f3f90"),  # French blue
    "GB": ("#e58a84", "#8c1c16"),  # British red
    "PR": ("#9da3b8", "#2e3450"),  # Prussian grey-blue
    "RU": ("#93c98b", "#2c6a24"),  # Russian green
    "SP": ("#f0c25c", "#8a5a00"),  # Spanish gold
    "TU": ("#cfa27a", "#6e4320"),  # Ottoman brown
}
from eiapbem.core.powers import POWER_NAMES  # noqa: E402
NEUTRAL = ("#dedbd2", "#6b675c")
SEA_FILL = "#cfe3ef"
LAND_FILL = "#f1ecdc"  # land beyond the playing areas
SEA_INK = "#2a5d8f"
RIVER = "#2f7fd0"

#: Where a sea's label reads better than at the sea area's position (lon, lat in degrees).
LABEL_AT = {
    "north-atlantic": (-11.0, 57.5),
    "gulf-of-finland": (26.3, 59.75),
    "straits-of-gibraltar": (-8.3, 35.4),
    "cape-st-vincent": (-11.6, 36.9),
    "sea-of-marmara": (27.9, 40.55),
    "balearic-sea": (4.0, 38.7),
    "black-sea-west": (31.6, 43.0),
    "black-sea-east": (36.5, 43.1),
    "kattegat": (11.6, 56.9),
    "western-baltic": (14.0, 55.0),
}
#: Small seas get a smaller label.
SMALL_LABEL = ("gulf-of-finland", "sea-of-marmara", "kattegat", "skagerrak")

#: Pixels per degree of latitude; longitude is scaled by cos(46 deg) (equirectangular).
SCALE = 26.0
STD_LAT = 46.0
#: A land cell reaches at most this far (km) from its area's position (the sea is drawn over it).
MAX_CELL_KM = 300.0
KM_PER_DEG = 111.195


@dataclass(frozen=True)
class _Frame:
    lon0: float
    lat1: float
    width: float
    height: float

    def xy(self, lon_h: int, lat_h: int) -> tuple[float, float]:
        """Hundredths of a degree to pixels."""
        k = math.cos(math.radians(STD_LAT))
        return ((lon_h / 100 - self.lon0) * k * SCALE, (self.lat1 - lat_h / 100) * SCALE)


def _frame(m: Map) -> _Frame:
    pts = [(a.lon, a.lat) for a in m.areas.values()] + [(s.lon, s.lat) for s in m.seas.values()]
    lons = [p[0] / 100 for p in pts] or [0.0]
    lats = [p[1] / 100 for p in pts] or [0.0]
    lon0, lon1 = min(lons) - 2.5, max(lons) + 2.5
    lat0, lat1 = min(lats) - 2.5, max(lats) + 2.0
    k = math.cos(math.radians(STD_LAT))
    return _Frame(lon0, lat1, (lon1 - lon0) * k * SCALE, (lat1 - lat0) * SCALE)


# --------------------------------------------------------------------------- cells

Point = tuple[float, float]


def _clip(poly: list[Point], tags: list[str | None], a: Point, b: Point, tag: str) -> tuple[list[Point], list[str | None]]:
    """Keep the part of ``poly`` nearer ``a`` than ``b``; edge i runs from poly[i] to poly[i+1]."""
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    nx, ny = b[0] - a[0], b[1] - a[1]

    def side(p: Point) -> float:
        return (p[0] - mx) * nx + (p[1] - my) * ny  # <= 0: inside

    out: list[Point] = []
    out_tags: list[str | None] = []
    n = len(poly)
    for i in range(n):
        p, q = poly[i], poly[(i + 1) % n]
        sp, sq = side(p), side(q)
        if sp <= 0:
            out.append(p)
            out_tags.append(tags[i] if sq <= 0 else tags[i])
        if (sp <= 0) != (sq <= 0):
            t = sp / (sp - sq)
            x = (p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1]))
            out.append(x)
            # Leaving the half-plane: the next edge runs along the clip line.
            out_tags.append(tags[i] if sp > 0 else tag)
    return out, out_tags


def _cells(m: Map, fr: _Frame) -> dict[str, tuple[list[Point], list[str | None]]]:
    """A Voronoi cell per land area, clipped to a disc; edges tagged with the area across."""
    ids = list(m.areas)
    pos = {i: fr.xy(m.areas[i].lon, m.areas[i].lat) for i in ids}
    rmax = MAX_CELL_KM / KM_PER_DEG * SCALE
    cells = {}
    for i in ids:
        cx, cy = pos[i]
        r = rmax  # the bisectors shape the cell; the disc only bounds it where land runs out
        # Only an area nearer than twice the cell's reach can cut it (a point of the cell is nearer its own area).
        near = [(d, j) for d, j in ((math.dist(pos[i], pos[j]), j) for j in ids if j != i) if d <= 2 * r]
        others = sorted(near, key=lambda t: t[0])
        poly = [
            (cx + r * math.cos(2 * math.pi * k / 28), cy + r * math.sin(2 * math.pi * k / 28))
            for k in range(28)
        ]
        tags: list[str | None] = [None] * len(poly)
        reach = r  # the farthest corner of the cell so far from its area: no area beyond twice that cuts it
        for d, j in others:
            if d > 2 * reach * (1 + 1e-9):
                break
            poly, tags = _clip(poly, tags, pos[i], pos[j], j)
            if len(poly) < 3:
                break
            reach = max(math.dist(pos[i], q) for q in poly)
        cells[i] = (poly, tags)
    return cells


# --------------------------------------------------------------------------- drawing


def escape(text: str) -> str:
    """``text`` as XML character data (``xml.sax.saxutils.escape``'s three entities; that module imports the web
    client, ~20 ms of a fresh ``map --svg``)."""
    return text.replace("&", "&amp;").replace(">", "&gt;").replace("<", "&lt;")


def _fmt(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def _path(poly: Sequence[Point]) -> str:
    return "M" + " L".join(f"{_fmt(x)},{_fmt(y)}" for x, y in poly) + " Z"


def _star(cx: float, cy: float, r: float) -> str:
    pts = []
    for k in range(10):
        rr = r if k % 2 == 0 else r * 0.45
        ang = -math.pi / 2 + k * math.pi / 5
        pts.append((cx + rr * math.cos(ang), cy + rr * math.sin(ang)))
    return _path(pts)


def _colours(area: Area, controller: str | None) -> tuple[str, str]:
    if controller in POWER_COLOURS:
        fill, ink = POWER_COLOURS[controller]
        if area.is_minor:
            # A controlled minor: its controller's tint, lighter than the home nation.
            return _mix(fill, "#ffffff", 0.45), ink
        return fill, ink
    return NEUTRAL


def _mix(c1: str, c2: str, t: float) -> str:
    a = [int(c1[i : i + 2], 16) for i in (1, 3, 5)]
    b = [int(c2[i : i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(x + (y - x) * t):02x}" for x, y in zip(a, b))


def default_controllers(m: Map) -> dict[str, str | None]:
    """Home-nation areas to their power; minors uncontrolled (neutral)."""
    return {a.id: (a.nation if a.nation in POWERS else None) for a in m.areas.values()}


def scenario_controllers(m: Map, minor_controllers: Mapping[str, str | None]) -> dict[str, str | None]:
    """Area controllers from a scenario's minor controllers (``minor slug -> power or None``)."""
    out = default_controllers(m)
    for a in m.areas.values():
        if a.is_minor:
            out[a.id] = minor_controllers.get(a.nation)
    return out


def render_svg(
    m: Map,
    *,
    controllers: Mapping[str, str | None] | None = None,
    units: Mapping[str, Sequence[str]] | None = None,
    title: str | None = None,
) -> str:
    """The map as an SVG document.

    ``controllers``: area id -> the power controlling it (None: neutral); areas not given keep
    their home nation's power.  ``units``: area or sea area id -> unit labels drawn there (corps,
    fleets, depots, leaders); without it only the political map is drawn.
    """
    fr = _frame(m)
    ctl = default_controllers(m)
    if controllers:
        ctl.update({k: v for k, v in controllers.items() if k in ctl})
    cells = _cells(m, fr)
    pos = {i: fr.xy(a.lon, a.lat) for i, a in m.areas.items()}
    W, H = fr.width, fr.height
    o: list[str] = []
    o.append(
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_fmt(W)} {_fmt(H)}" '
        f'width="{_fmt(W)}" height="{_fmt(H)}" font-family="DejaVu Sans, Verdana, sans-serif">'
    )
    o.append(f"<title>{escape(title or 'Europe 1805')}</title>")
    o.append(
        "<defs>"
        '<pattern id="waves" width="18" height="8" patternUnits="userSpaceOnUse">'
        '<path d="M0,4 q4.5,-3 9,0 t9,0" fill="none" stroke="#b7d2e3" stroke-width="0.8"/></pattern>'
        '<symbol id="anchor" viewBox="-6 -7 12 14">'
        '<circle cx="0" cy="-5" r="1.6" fill="none" stroke="#1d3557" stroke-width="1.1"/>'
        '<path d="M0,-3.4 V5.5 M-3,-1.5 H3 M-5,2 Q-4.5,6 0,6 Q4.5,6 5,2" fill="none" '
        'stroke="#1d3557" stroke-width="1.3" stroke-linecap="round"/></symbol>'
        "</defs>"
    )
    o.append(f'<rect width="{_fmt(W)}" height="{_fmt(H)}" fill="{LAND_FILL}"/>')

    # Land cells.
    o.append('<g id="land" stroke-linejoin="round">')
    for i, (poly, _) in cells.items():
        a = m.areas[i]
        fill, _ink = _colours(a, ctl.get(i))
        o.append(
            f'<path d="{_path(poly)}" fill="{fill}" stroke="#fbfaf5" stroke-width="0.6" data-area="{escape(i)}">'
            f"<title>{escape(a.name)} ({escape(a.nation)}, {escape(a.province)}; {a.terrain}, forage {a.forage})</title></path>"
        )
    o.append("</g>")

    # The boundaries between provinces and between nations, from the cell edges.
    prov, nation = [], []
    for i, (poly, tags) in cells.items():
        a = m.areas[i]
        n = len(poly)
        for k in range(n):
            t = tags[k]
            if t is not None and t in m.areas and i < t:
                seg = (poly[k], poly[(k + 1) % n])
                b = m.areas[t]
                if b.nation != a.nation:
                    nation.append(seg)
                elif b.province != a.province:
                    prov.append(seg)
    for segs, style in (
        (prov, 'stroke="#8d877a" stroke-width="0.7" stroke-dasharray="2.5,2"'),
        (nation, 'stroke="#4a4438" stroke-width="1.6"'),
    ):
        if segs:
            d = " ".join(f"M{_fmt(p[0])},{_fmt(p[1])} L{_fmt(q[0])},{_fmt(q[1])}" for p, q in segs)
            o.append(f'<path d="{d}" fill="none" {style} stroke-linecap="round"/>')

    # The seas over everything drawn so far: the coastline (presentation only, eiapbem.present.coast).
    d = " ".join(
        _path([fr.xy(round(lon * 100), round(lat * 100)) for lon, lat in ring]) for ring in coast.RINGS
    )
    o.append(
        f'<path id="sea" d="{d}" fill="{SEA_FILL}" fill-rule="evenodd" stroke="{SEA_INK}" '
        f'stroke-width="0.9" stroke-opacity="0.75" stroke-linejoin="round"/>'
        f'<path d="{d}" fill="url(#waves)" fill-rule="evenodd" stroke="none"/>'
    )

    # Sea labels.
    o.append(f'<g id="seas" fill="{SEA_INK}" font-style="italic" font-size="12" text-anchor="middle" opacity="0.9">')
    for s in m.seas.values():
        lon, lat = LABEL_AT.get(s.id, (s.lon / 100, s.lat / 100))
        x, y = fr.xy(round(lon * 100), round(lat * 100))
        size = 9 if s.id in SMALL_LABEL else 12
        words = s.name.split()
        if len(s.name) > 14 and s.id not in SMALL_LABEL:
            half = (len(words) + 1) // 2
            lines = [" ".join(words[:half]), " ".join(words[half:])]
        else:
            lines = [s.name]
        x = min(max(x, 0.32 * size * len(max(lines, key=len)) + 4), fr.width - 0.32 * size * len(max(lines, key=len)) - 4)
        for n, line in enumerate(lines):
            o.append(
                f'<text x="{_fmt(x)}" y="{_fmt(y + n * (size + 1))}" font-size="{size}" letter-spacing="1" '
                f'stroke="{SEA_FILL}" stroke-width="2.5" paint-order="stroke">{escape(line)}</text>'
            )
        if s.ice:
            o.append(f'<text x="{_fmt(x)}" y="{_fmt(y + len(lines) * (size + 1))}" font-size="8">(ice in winter)</text>')
    o.append("</g>")

    # Borders as lines between neighbour centres: rivers blue, crossings dashed.
    o.append('<g id="borders" fill="none" stroke-linecap="round">')
    plain: list[tuple[Point, Point]] = []
    river: list[tuple[Point, Point]] = []
    for i, a in m.areas.items():
        for border in a.neighbours:
            if i < border.to:
                (river if border.river else plain).append((pos[i], pos[border.to]))
    for segs, style in ((plain, 'stroke="#6b6457" stroke-width="0.5" stroke-opacity="0.55"'),
                        (river, f'stroke="{RIVER}" stroke-width="1.4" stroke-opacity="0.85"')):
        if segs:
            d = " ".join(f"M{_fmt(p[0])},{_fmt(p[1])} L{_fmt(q[0])},{_fmt(q[1])}" for p, q in segs)
            o.append(f'<path d="{d}" {style}/>')
    for c in m.crossings.values():
        (x1, y1), (x2, y2) = pos[c.a], pos[c.b]
        o.append(
            f'<path d="M{_fmt(x1)},{_fmt(y1)} L{_fmt(x2)},{_fmt(y2)}" stroke="#1d3557" stroke-width="1.6" '
            f'stroke-dasharray="4,3"><title>crossing arrow over {escape(m.seas[c.sea].name)}'
            f'{" (optional)" if c.optional else ""}</title></path>'
        )
    o.append("</g>")

    # Cities, capitals, ports and names.
    o.append('<g id="places" font-size="7.5" text-anchor="middle">')
    for i, a in m.areas.items():
        x, y = pos[i]
        _, ink = _colours(a, ctl.get(i))
        if a.city is not None and a.city.capital == "national":
            o.append(f'<path d="{_star(x, y, 7)}" fill="#c8102e" stroke="#ffffff" stroke-width="0.8"/>')
        elif a.city is not None and a.city.capital is not None:
            o.append(f'<path d="{_star(x, y, 4.5)}" fill="#222222" stroke="#ffffff" stroke-width="0.5"/>')
        elif a.city is not None:
            o.append(f'<circle cx="{_fmt(x)}" cy="{_fmt(y)}" r="2.2" fill="#222222" stroke="#ffffff" stroke-width="0.5"/>')
        else:
            o.append(f'<circle cx="{_fmt(x)}" cy="{_fmt(y)}" r="1.2" fill="#6b675c"/>')
        if a.port is not None:
            o.append(f'<use href="#anchor" x="{_fmt(x + 3)}" y="{_fmt(y - 13)}" width="8" height="10"/>')
        bold = ' font-weight="bold" font-size="9"' if a.city is not None and a.city.capital == "national" else ""
        o.append(
            f'<text x="{_fmt(x)}" y="{_fmt(y + 10)}" fill="{ink}"{bold} stroke="#ffffff" stroke-width="2" '
            f'stroke-opacity="0.6" paint-order="stroke">{escape(a.name)}</text>'
        )
    o.append("</g>")

    if units:
        o.append('<g id="units" font-size="7.5">')
        for i in sorted(units):
            if i in m.seas:  # fleets at sea: under the sea area's name (8.4.1)
                s = m.seas[i]
                lon, lat = LABEL_AT.get(s.id, (s.lon / 100, s.lat / 100))
                x, y = fr.xy(round(lon * 100), round(lat * 100))
                y += 6
            elif i in pos and units[i]:
                x, y = pos[i]
            else:
                continue
            for n, label in enumerate(units[i]):
                w = 5.2 * len(label) + 6
                yy = y + 13 + n * 11
                o.append(
                    f'<rect x="{_fmt(x - w / 2)}" y="{_fmt(yy)}" width="{_fmt(w)}" height="10" rx="2" '
                    f'fill="#fffdf4" stroke="#333333" stroke-width="0.6"/>'
                    f'<text x="{_fmt(x)}" y="{_fmt(yy + 7.5)}" text-anchor="middle">{escape(label)}</text>'
                )
        o.append("</g>")

    o.append(_legend(m, ctl, H))
    o.append(
        f'<text x="14" y="30" font-size="22" font-weight="bold" fill="#1d3557">'
        f"{escape(title or 'Europe in 1805')}</text>"
        f'<text x="14" y="48" font-size="10" fill="#1d3557">Empires in Arms — the project\'s own map '
        f"({len(m.areas)} land areas, {len(m.seas)} sea areas)</text>"
    )
    o.append("</svg>")
    return "\n".join(o) + "\n"


def _legend(m: Map, ctl: Mapping[str, str | None], H: float) -> str:
    x0, y0 = 14.0, H - 238.0
    o = [
        f'<g id="legend" font-size="10"><rect x="{_fmt(x0)}" y="{_fmt(y0)}" width="250" height="226" rx="6" '
        f'fill="#fffdf4" fill-opacity="0.93" stroke="#6b675c" stroke-width="0.8"/>',
        f'<text x="{_fmt(x0 + 10)}" y="{_fmt(y0 + 17)}" font-weight="bold" font-size="11">Legend</text>',
    ]
    y = y0 + 30
    for n, p in enumerate(POWERS):
        xx = x0 + 10 + (n % 2) * 120
        yy = y + (n // 2) * 15
        fill, ink = POWER_COLOURS[p]
        o.append(f'<rect x="{_fmt(xx)}" y="{_fmt(yy)}" width="14" height="10" fill="{fill}" stroke="{ink}" stroke-width="0.6"/>')
        o.append(f'<text x="{_fmt(xx + 19)}" y="{_fmt(yy + 9)}">{POWER_NAMES[p]}</text>')
    yy = y + 4 * 15
    o.append(f'<rect x="{_fmt(x0 + 130)}" y="{_fmt(y + 45)}" width="14" height="10" fill="{NEUTRAL[0]}" stroke="{NEUTRAL[1]}" stroke-width="0.6"/>')
    o.append(f'<text x="{_fmt(x0 + 149)}" y="{_fmt(y + 54)}">neutral minor</text>')
    o.append(f'<rect x="{_fmt(x0 + 10)}" y="{_fmt(yy)}" width="14" height="10" fill="{_mix(POWER_COLOURS["FR"][0], "#ffffff", 0.45)}" stroke="#1f3f90" stroke-width="0.6"/>')
    o.append(f'<text x="{_fmt(x0 + 29)}" y="{_fmt(yy + 9)}">minor controlled by a power (its tint)</text>')
    rows = [
        (f'<path d="{_star(x0 + 17, yy + 25, 7)}" fill="#c8102e" stroke="#fff" stroke-width="0.8"/>', "national capital"),
        (f'<path d="{_star(x0 + 17, yy + 41, 4.5)}" fill="#222"/>', "province or minor capital"),
        (f'<circle cx="{_fmt(x0 + 17)}" cy="{_fmt(yy + 57)}" r="2.2" fill="#222"/>', "city"),
        (f'<use href="#anchor" x="{_fmt(x0 + 13)}" y="{_fmt(yy + 67)}" width="8" height="10"/>', "port"),
        (f'<path d="M{_fmt(x0 + 8)},{_fmt(yy + 89)} h18" stroke="{RIVER}" stroke-width="1.8"/>', "border across a river"),
        (f'<path d="M{_fmt(x0 + 8)},{_fmt(yy + 105)} h18" stroke="#1d3557" stroke-width="1.6" stroke-dasharray="4,3"/>', "crossing arrow"),
        (f'<path d="M{_fmt(x0 + 8)},{_fmt(yy + 121)} h18" stroke="#4a4438" stroke-width="1.6"/>'
         f'<path d="M{_fmt(x0 + 130)},{_fmt(yy + 121)} h18" stroke="#8d877a" stroke-width="0.8" stroke-dasharray="2.5,2"/>'
         f'<text x="{_fmt(x0 + 153)}" y="{_fmt(yy + 124)}">province</text>', "nation"),
    ]
    for k, (sym, label) in enumerate(rows):
        o.append(sym)
        o.append(f'<text x="{_fmt(x0 + 32)}" y="{_fmt(yy + 28 + 16 * k)}">{label}</text>')
    o.append("</g>")
    return "".join(o)


def units_by_area(entries: Iterable[tuple[str, str]]) -> dict[str, list[str]]:
    """Group ``(area id, label)`` pairs into the ``units`` mapping of ``render_svg``, by area id."""
    out: dict[str, list[str]] = {}
    for area_id, label in entries:
        out.setdefault(area_id, []).append(label)
    return {k: out[k] for k in sorted(out)}


def sea_position(m: Map, fr: "_Frame", sea_id: str) -> tuple[float, float]:
    """Where a sea area's name (and the fleets at sea there) is drawn."""
    s = m.seas[sea_id]
    lon, lat = LABEL_AT.get(s.id, (s.lon / 100, s.lat / 100))
    return fr.xy(round(lon * 100), round(lat * 100))


def geometry(m: Map) -> dict:
    """Where ``render_svg`` draws each place, for a page that draws counters over the picture (``eiapbem view``).

    ``areas``: land area id -> ``{"x", "y", "name", "minor", "city", "capital", "port", "neighbours"}``;
    ``seas``: sea area id -> ``{"x", "y", "name", "neighbours", "ports"}``; ``boxes``: port id -> the point of its
    blockade box, between the port and its first sea; ``colours``: power -> [fill, ink], and the neutral pair.
    """
    fr = _frame(m)
    areas: dict[str, dict] = {}
    for i, a in m.areas.items():
        x, y = fr.xy(a.lon, a.lat)
        areas[i] = {"x": round(x, 1), "y": round(y, 1), "name": a.name, "minor": a.is_minor,
                    "city": a.city is not None, "capital": a.city.capital if a.city is not None else None,
                    "port": a.port is not None, "neighbours": sorted(m.land_neighbours(i))}
    seas: dict[str, dict] = {}
    for i, sea in m.seas.items():
        x, y = sea_position(m, fr, i)
        seas[i] = {"x": round(x, 1), "y": round(y, 1), "name": sea.name, "neighbours": sorted(m.sea_neighbours(i)),
                   "ports": sorted(m.ports_on(i))}
    boxes = {}
    for i, a in m.areas.items():
        if a.port is not None and a.port.seas:
            ax, ay = float(areas[i]["x"]), float(areas[i]["y"])
            sx, sy = float(seas[a.port.seas[0]]["x"]), float(seas[a.port.seas[0]]["y"])
            d = math.hypot(sx - ax, sy - ay) or 1.0
            k = min(18.0, d / 2) / d
            boxes[i] = {"x": round(ax + (sx - ax) * k, 1), "y": round(ay + (sy - ay) * k, 1)}
    return {"width": round(fr.width, 1), "height": round(fr.height, 1), "areas": areas, "seas": seas, "boxes": boxes,
            "colours": {p: list(c) for p, c in POWER_COLOURS.items()}, "neutral": list(NEUTRAL)}
