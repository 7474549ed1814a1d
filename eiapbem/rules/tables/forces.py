"""Charts about the forces themselves: national morale values (15.0,
000:3183-3196 with 000:428, 2336, 2394, 2412), movement allowances and costs
(10.4.1-10.4.2 000:1360-1388, 13.2 000:2424, 8.4 000:1060-1068) and intrinsic
ratings (13.8.5, 000:2656-2680).

Morale values are integers in hundredths (4.5 -> 450).
"""

from __future__ import annotations

from dataclasses import dataclass

from eiapbem.core.errors import BadData
from eiapbem.core.powers import POWER_NAMES, POWERS, check_power
from eiapbem.rules.tables import Table, register
from eiapbem.rules.tables.diplomacy import minor

# ---------------------------------------------------------------------------
# National morale values (000:3183-3196)
# ---------------------------------------------------------------------------

#: Army factor types the morale chart distinguishes.
FACTOR_TYPES = (
    "infantry",  # regular infantry
    "cavalry",  # regular cavalry
    "artillery",
    "guard",  # guard infantry
    "militia",  # militia infantry
    "cossack",
    "freikorps",
    "guerilla",
    "feudal-infantry",  # Turkish feudal corps
    "feudal-cavalry",
)


@dataclass(frozen=True)
class MoraleRow:
    id: str
    applies_to: str
    value: int  # hundredths
    line: int


MORALE_CHART: tuple[MoraleRow, ...] = (
    MoraleRow("irregular", "Cossack, Freikorps, guerilla", 100, 3187),
    MoraleRow("turkish-feudal", "Turkish feudal cavalry and infantry", 200, 3188),
    MoraleRow("sp-tu-cavalry", "Spanish and Turkish regular cavalry", 300, 3189),
    MoraleRow("other-cavalry", "All other major power cavalry", 400, 3190),
    MoraleRow("militia", "All militia infantry", 200, 3191),
    MoraleRow("guard", "All guard infantry", 500, 3192),
    MoraleRow("gb-infantry", "British regular infantry", 450, 3193),
    MoraleRow("fr-infantry-artillery", "French regular infantry and artillery", 400, 3194),
    MoraleRow("other-infantry-artillery", "All other regular infantry and artillery", 300, 3195),
)
_MORALE = {r.id: r.value for r in MORALE_CHART}

#: The Ottoman Empire's slug as a kingdom (12.8.3; ``economy.kingdoms``).
OTTOMAN_EMPIRE = "ottoman-empire"
#: Ottoman Empire component minors (12.8.3): (infantry, cavalry) morale.
OTTOMAN_MORALE = (100, 200)  # 000:428 footnote (c)
OTTOMAN_MORALE_TURKISH = (200, 300)  # Turkey controls the Ottoman Empire, 000:428, 000:2336


def morale_value(power: str, factor: str) -> int:
    """Morale value, in hundredths, of one army factor of a major power (000:3187-3195)."""
    check_power(power)
    if factor not in FACTOR_TYPES:
        raise BadData(f"army factor type {factor!r} is unknown; use one of {', '.join(FACTOR_TYPES)}")
    if factor in ("cossack", "freikorps", "guerilla"):
        return _MORALE["irregular"]
    if factor in ("feudal-infantry", "feudal-cavalry"):
        if power != "TU":
            raise BadData(f"only Turkey has feudal factors, not {POWER_NAMES[power]}")
        return _MORALE["turkish-feudal"]
    if factor == "cavalry":
        return _MORALE["sp-tu-cavalry"] if power in ("SP", "TU") else _MORALE["other-cavalry"]
    if factor == "militia":
        return _MORALE["militia"]
    if factor == "guard":
        return _MORALE["guard"]
    if factor == "infantry" and power == "GB":
        return _MORALE["gb-infantry"]
    if power == "FR":
        return _MORALE["fr-infantry-artillery"]
    return _MORALE["other-infantry-artillery"]


def ottoman_morale(factor: str, *, turkish_controlled: bool) -> int:
    """Morale of an Ottoman Empire corps factor ("infantry" or "cavalry")."""
    inf, cav = OTTOMAN_MORALE_TURKISH if turkish_controlled else OTTOMAN_MORALE
    if factor == "infantry":
        return inf
    if factor == "cavalry":
        return cav
    raise BadData(f"Ottoman Empire corps have infantry and cavalry factors only, not {factor!r}")


def _tenths(v: int) -> str:
    return f"{v // 100}.{(v % 100) // 10}" if v % 10 == 0 else f"{v // 100}.{v % 100:02d}"


@register("national-morale")
def _morale_table() -> Table:
    return Table(
        name="national-morale",
        title="National Morale Values Chart",
        section="15.0, 11.2.5",
        source="000:3183-3196",
        columns=("id", "army factor", "morale value"),
        rows=tuple((r.id, r.applies_to, _tenths(r.value)) for r in MORALE_CHART),
        notes=(
            "Values are kept in hundredths (4.5 -> 450). The final morale value is -0.5 per additional day of combat.",
            "Ottoman Empire corps: 1.0 infantry, 2.0 cavalry; 2.0 and 3.0 when Turkey controls the empire (000:428, 000:2336).",
            "Other minor countries' morale is given per scenario in the set-up tables (5.3).",
        ),
    )


# ---------------------------------------------------------------------------
# Movement allowances (10.4.1 000:1362-1374; 13.2 000:2424, 2400; 8.4 000:1060)
# ---------------------------------------------------------------------------

#: Corps kinds by counter symbol.  "light-infantry" is the Austrian light infantry corps.
CORPS_KINDS = (
    "infantry",
    "cavalry",
    "artillery",
    "guard",
    "light-infantry",
    "feudal",
    "insurrection",
    "cossack",
    "freikorps",
    "guerilla",
)

MA_FAST = 5  # cavalry symbol (with Austrian light infantry), Freikorps, Cossacks
MA_FRENCH = 4  # every French corps, artillery included
MA_OTHER = 3
MA_GUERILLA_AREAS = 1  # Spanish guerrillas: one adjacent area, whatever the terrain (000:1364, 000:2400)
MA_FLEET = 7  # per fleet (000:1060)
FORCED_MARCH_BONUS = 1
NO_FORCED_MARCH = ("cavalry", "light-infantry", "cossack", "freikorps", "guerilla")

#: Minors whose infantry corps move 4 as French-controlled Free States (000:1368).
FRENCH_FREE_STATE_FAST = (
    "denmark", "holland", "lombardy", "naples", "piedmont", "poland", "portugal", "sweden", "switzerland", "venetia",
)
#: ... or as components of a French-controlled Confederation of the Rhine (000:1370).
FRENCH_CONFEDERATION_FAST = ("baden", "bavaria", "hanover", "hesse", "saxony", "wurttemberg")


def movement_allowance(
    owner: str,
    kind: str,
    *,
    french_free_state: bool = False,
    french_confederation: bool = False,
) -> int:
    """Movement points of a corps (10.4.1).  ``owner`` is a power id or a minor
    slug; the two flags say whether that minor is now a French-controlled Free
    State / a component of a French-controlled Confederation of the Rhine.
    Guerrillas move one area whatever the terrain: their allowance is in areas."""
    if kind not in CORPS_KINDS:
        raise BadData(f"corps kind {kind!r} is unknown; use one of {', '.join(CORPS_KINDS)}")
    if kind == "guerilla":
        return MA_GUERILLA_AREAS
    if kind in ("cavalry", "light-infantry", "cossack", "freikorps"):
        return MA_FAST
    if owner == "FR":
        return MA_FRENCH
    if kind == "infantry" and (
        (french_free_state and owner in FRENCH_FREE_STATE_FAST)
        or (french_confederation and owner in FRENCH_CONFEDERATION_FAST)
    ):
        return MA_FRENCH
    return MA_OTHER


def may_force_march(kind: str, *, disembarking: bool = False) -> bool:
    """Forced march adds one movement point, but not for these kinds nor when disembarking (000:1374)."""
    return kind not in NO_FORCED_MARCH and not disembarking


#: Land movement costs (10.4.1 "Land Movement Costs", 000:1378-1388).
COST_CLEAR = 1  # clear, forest or desert
COST_ROUGH = 2  # an area containing marsh or mountain
ROUGH_TERRAIN = ("marsh", "mountain")
TERRAIN_FEATURES = ("clear", "forest", "desert", "marsh", "mountain")
COST_RIVER_INTO_ENEMY = 1  # only into an area holding an unbesieged enemy corps
COST_CROSSING_ARROW = 1


def entry_cost(terrain: tuple[str, ...], *, river_into_enemy: bool = False, crossing_arrow: bool = False) -> int:
    """Movement points to enter an area; costs are cumulative (000:1388)."""
    for t in terrain:
        if t not in TERRAIN_FEATURES:
            raise BadData(f"terrain {t!r} is unknown; use {', '.join(TERRAIN_FEATURES)}")
    base = COST_ROUGH if any(t in ROUGH_TERRAIN for t in terrain) else COST_CLEAR
    return base + (COST_RIVER_INTO_ENEMY if river_into_enemy else 0) + (COST_CROSSING_ARROW if crossing_arrow else 0)


#: Naval movement costs (8.4.1-8.4.2, 000:1064-1068).
NAVAL_COSTS = {
    "sea-area": 1,  # entering a sea area
    "blockade-box-from-sea": 1,  # sea area <-> blockade box
    "port-from-sea": 1,  # sea area touching the blockade box <-> port (through the box)
    "port-blockade-box": 0,  # port <-> its own blockade box
}


@register("movement")
def _movement_table() -> Table:
    rows = (
        ("corps with a cavalry symbol (incl. Austrian light infantry)", MA_FAST, "no forced march"),
        ("Austrian and Prussian Freikorps, Russian Cossacks", MA_FAST, "no forced march"),
        ("French corps (incl. artillery)", MA_FRENCH, "forced march +1"),
        ("minor infantry corps of a French Free State (a)", MA_FRENCH, "forced march +1"),
        ("minor infantry corps in a French Confederation of the Rhine (b)", MA_FRENCH, "forced march +1"),
        ("all other corps", MA_OTHER, "forced march +1"),
        ("Spanish guerrillas", "1 area", "any terrain; no forced march"),
        ("fleet", MA_FLEET, "naval phase"),
        ("enter clear, forest or desert area", COST_CLEAR, "cost"),
        ("enter marsh or mountain area", COST_ROUGH, "cost"),
        ("across a river into an unbesieged enemy corps", f"+{COST_RIVER_INTO_ENEMY}", "cost"),
        ("using a sea crossing arrow", f"+{COST_CROSSING_ARROW}", "cost"),
        ("enter a sea area or blockade box, or a port from a sea area", 1, "naval cost"),
        ("between a port and its blockade box", 0, "naval cost"),
    )
    return Table(
        name="movement",
        title="Movement Allowances and Costs",
        section="10.4.1, 8.4",
        source="000:1060-1068, 000:1362-1388, 000:2424",
        columns=("unit or move", "points", "note"),
        rows=rows,
        notes=(
            "(a) " + ", ".join(FRENCH_FREE_STATE_FAST) + " (000:1368).",
            "(b) " + ", ".join(FRENCH_CONFEDERATION_FAST) + " (000:1370).",
            "Disembarking corps may not force march (000:1374). Costs are cumulative (000:1388).",
        ),
    )


# ---------------------------------------------------------------------------
# Intrinsic ratings (13.8.5, 000:2656-2680)
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Ratings:
    strategic: int
    tactical: int


INTRINSIC_MAJOR: dict[str, Ratings] = {
    "FR": Ratings(2, 2),
    "GB": Ratings(2, 2),
    "RU": Ratings(1, 2),
    "AU": Ratings(1, 1),
    "PR": Ratings(1, 1),
    "TU": Ratings(1, 1),
    "SP": Ratings(1, 1),
}
INTRINSIC_MINOR_SPECIAL: dict[str, Ratings] = {"sweden": Ratings(2, 1)}
INTRINSIC_MINOR_DEFAULT = Ratings(1, 1)
#: Garrisons, Cossacks and guerrillas with no corps present (000:2658).
INTRINSIC_NO_CORPS = Ratings(0, 0)


def intrinsic_ratings(owner: str) -> Ratings:
    """Intrinsic ratings of a corps of ``owner`` (a power id or a minor slug).  Fleets have none."""
    if owner in INTRINSIC_MAJOR:
        return INTRINSIC_MAJOR[owner]
    minor(owner)  # BadData for an unknown minor
    return INTRINSIC_MINOR_SPECIAL.get(owner, INTRINSIC_MINOR_DEFAULT)


@register("intrinsic-ratings")
def _intrinsic_table() -> Table:
    rows = [(POWER_NAMES[p], INTRINSIC_MAJOR[p].strategic, INTRINSIC_MAJOR[p].tactical) for p in POWERS]
    for slug, r in INTRINSIC_MINOR_SPECIAL.items():
        rows.append((minor(slug).name, r.strategic, r.tactical))
    rows.append(("other minor countries", INTRINSIC_MINOR_DEFAULT.strategic, INTRINSIC_MINOR_DEFAULT.tactical))
    rows.append(("garrisons, Cossacks, guerrillas without a corps", 0, 0))
    return Table(
        name="intrinsic-ratings",
        title="Intrinsic Ratings",
        section="13.8.5",
        source="000:2656-2680",
        columns=("corps of", "strategic", "tactical"),
        rows=tuple(rows),
        notes=("Used when no leader is present: the best intrinsic ratings of the corps present. Fleets have none.",),
    )
