"""Forces on and off the map: factors, ships, corps, fleets, depots, garrisons,
leaders and prisoners.

Every unit has a stable id that is also its key in ``GameState.units``
(``corps:FR:III``, ``fleet:GB:1``, ``depot:FR:3``,
``garrison:AU:city:vienna``); leaders live in ``GameState.leaders``
(``leader:FR:napoleon``).  Where a unit is, is a ``Location``: a kind and the
id of an area, sea area, port, fleet or nothing (the counter pool).  No map
geometry here; ratings, capacities and counter mixes are data elsewhere.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Annotated

from eiapbem.rules.model.base import FrozenMap, InvalidValue, Pattern, Record
from eiapbem.rules.model.common import (
    NAME_RE,
    NATION_RE,
    Date,
    FactorType,
    Morale,
    NationId,
    NonNeg,
    PowerId,
    ShipType,
)

CORPS_ID_RE = rf"corps:{NATION_RE}:{NAME_RE}"
FLEET_ID_RE = rf"fleet:{NATION_RE}:{NAME_RE}"
DEPOT_ID_RE = rf"depot:(?:AU|FR|GB|PR|RU|SP|TU):{NAME_RE}"
LEADER_ID_RE = rf"leader:{NATION_RE}:{NAME_RE}"
#: Any id a location may point at (an area, sea area, port or city slug, or a fleet id).
SITE_RE = rf"(?:[a-z0-9]+(?:-[a-z0-9]+)*|{FLEET_ID_RE})"

CorpsId = Annotated[str, Pattern(CORPS_ID_RE, "corps id like corps:FR:III")]
FleetId = Annotated[str, Pattern(FLEET_ID_RE, "fleet id like fleet:GB:1")]
LeaderId = Annotated[str, Pattern(LEADER_ID_RE, "leader id like leader:FR:napoleon")]
UnitId = Annotated[str, Pattern(r"(?:corps|fleet|depot|garrison):[A-Za-z0-9:_-]+", "unit id like corps:FR:III")]
SiteId = Annotated[str, Pattern(SITE_RE, "area, sea area, port or fleet id")]


class LocationKind(enum.StrEnum):
    """Where a unit can be (5.2, 8.4, 10.3, 10.4.3)."""

    POOL = "pool"  # off the map, in the counter pool (12.5.4); no site
    AREA = "area"  # a land area, outside its city; site = area slug
    CITY = "city"  # inside the city of an area (10.4.3); site = area slug
    SEA = "sea"  # a sea area (8.4.1); site = sea area slug
    PORT = "port"  # in port (8.4.2); site = port (area) slug
    BLOCKADE = "blockade"  # the blockade box of a port (8.8); site = port slug
    ABOARD = "aboard"  # carried by a fleet (8.6, 10.3.4); site = fleet id


@dataclass(frozen=True, slots=True)
class Location(Record):
    """A place on (or off) the map, named by ids only."""

    kind: LocationKind
    site: Annotated[str, Pattern(rf"(?:{SITE_RE})?", "area, sea area, port or fleet id")] = ""

    def _check(self) -> None:
        if (self.kind is LocationKind.POOL) != (self.site == ""):
            raise InvalidValue("the counter pool has no site; every other location needs one", path="site")
        if self.kind is LocationKind.ABOARD and not self.site.startswith("fleet:"):
            raise InvalidValue(f"aboard needs a fleet id, not {self.site!r}", path="site")
        if self.kind is not LocationKind.ABOARD and self.site.startswith("fleet:"):
            raise InvalidValue(f"a {self.kind} location cannot be a fleet", path="site")

    def __str__(self) -> str:
        return f"{self.kind}:{self.site}" if self.site else str(self.kind)


POOL = Location(LocationKind.POOL)


#: The field of ``Factors`` holding each factor type.
_FACTOR_FIELD = {k: k.value.replace("-", "_") for k in FactorType}
#: The fields of ``Factors``, in ``FactorType`` order (its arithmetic).
_FACTOR_FIELDS = tuple(_FACTOR_FIELD.values())


@dataclass(frozen=True, slots=True)
class Factors(Record):
    """Army factors by type (7.2.2, 13.2).  Insurrection corps hold militia
    and cavalry (13.2.4, 000:2494), so there is no separate insurrection type."""

    infantry: NonNeg = 0
    militia: NonNeg = 0
    cavalry: NonNeg = 0
    guard: NonNeg = 0
    artillery: NonNeg = 0
    feudal_infantry: NonNeg = 0
    feudal_cavalry: NonNeg = 0
    cossack: NonNeg = 0
    freikorps: NonNeg = 0
    guerrilla: NonNeg = 0

    def get(self, kind: FactorType) -> int:
        return getattr(self, _FACTOR_FIELD[kind])

    def with_(self, kind: FactorType, n: int) -> Factors:
        return self.replace(**{_FACTOR_FIELD[kind]: n})

    @property
    def total(self) -> int:
        # every type of FactorType, as ``sum(self.get(k) for k in FactorType)``, written out: the rules ask
        # it hundreds of thousands of times a month (a test checks the two agree)
        return (self.infantry + self.militia + self.cavalry + self.guard + self.artillery + self.feudal_infantry
                + self.feudal_cavalry + self.cossack + self.freikorps + self.guerrilla)

    def __add__(self, other: Factors) -> Factors:
        return Factors(**{f: getattr(self, f) + getattr(other, f) for f in _FACTOR_FIELDS})

    def __sub__(self, other: Factors) -> Factors:
        """What is left after taking ``other`` (refused as an invalid value if any type would go negative)."""
        return Factors(**{f: getattr(self, f) - getattr(other, f) for f in _FACTOR_FIELDS})

    def describe(self) -> str:
        """``3 infantry, 1 cavalry`` (only the types present), or ``nothing``."""
        return ", ".join(f"{self.get(k)} {k.value}" for k in FactorType if self.get(k)) or "nothing"


@dataclass(frozen=True, slots=True)
class Ships(Record):
    """Ships by type (8.1, 000:1018-1048)."""

    heavy: NonNeg = 0
    light: NonNeg = 0
    transport: NonNeg = 0

    def get(self, kind: ShipType) -> int:
        return getattr(self, kind.value)

    @property
    def total(self) -> int:
        return self.heavy + self.light + self.transport

    def __add__(self, other: Ships) -> Ships:
        return Ships(self.heavy + other.heavy, self.light + other.light, self.transport + other.transport)

    def __sub__(self, other: Ships) -> Ships:
        """What is left after taking ``other`` (refused as an invalid value if any type would go negative)."""
        return Ships(self.heavy - other.heavy, self.light - other.light, self.transport - other.transport)

    def describe(self) -> str:
        """``5 heavy, 2 light`` (only the types present), or ``nothing``."""
        return ", ".join(f"{self.get(k)} {k.value}" for k in ShipType if self.get(k)) or "nothing"


class CorpsType(enum.StrEnum):
    """Counter types with rules of their own (13.2)."""

    REGULAR = "regular"
    FEUDAL = "feudal"  # 13.2.3
    INSURRECTION = "insurrection"  # 13.2.4
    TYROL = "tyrol"  # 13.2.5
    COSSACK = "cossack"  # 13.2.2
    FREIKORPS = "freikorps"  # 13.2.2
    GUERRILLA = "guerrilla"  # 13.2.1


def _owner_of(unit_id: str) -> str:
    return unit_id.split(":")[1]


@dataclass(frozen=True, slots=True)
class Corps(Record):
    """A corps counter (or cossack, freikorps or guerrilla counter, 13.2).

    ``nation`` is the owner (a major power or a minor free state); the id's
    second part must name it.  ``morale`` overrides the national morale of a
    factor type where a scenario sets corps morale (14.3 item 6, 000:2768);
    empty means the national values from data.
    """

    KIND = "corps"

    id: CorpsId
    nation: NationId
    corps_type: CorpsType
    location: Location
    factors: Factors = Factors()
    morale: FrozenMap[FactorType, Morale] = FrozenMap()
    #: The ally this corps is loaned to for the month (7.6, 000:1002).
    loaned_to: PowerId | None = None
    #: Besieging the city of its area (10.4.3 "Besieging City").
    besieging: bool = False
    #: A counter bought in the pool must be placed by this month (12.5.4, 000:2238).
    placeable_until: Date | None = None

    def _check(self) -> None:
        if _owner_of(self.id) != self.nation:
            raise InvalidValue(f"corps {self.id} does not belong to {self.nation}", path="nation")
        if self.location.kind not in (LocationKind.POOL, LocationKind.AREA, LocationKind.CITY, LocationKind.ABOARD):
            raise InvalidValue(f"a corps cannot be at a {self.location.kind} location", path="location")


class FleetMission(enum.StrEnum):
    """Optional piracy missions of light fleets (8.9, 000:1180)."""

    NONE = "none"
    PIRACY = "piracy"
    ANTI_PIRACY = "anti-piracy"


@dataclass(frozen=True, slots=True)
class Fleet(Record):
    """A fleet counter with its ships (8.1); transports form one fleet per power (8.1.3)."""

    KIND = "fleet"

    id: FleetId
    nation: NationId
    location: Location
    ships: Ships = Ships()
    loaned_to: PowerId | None = None
    mission: FleetMission = FleetMission.NONE
    #: The power a piracy mission targets (8.9).
    piracy_target: PowerId | None = None
    #: Months in a row on piracy this quarter (+1 after all three, 12.2.1, 000:2136).
    piracy_months: NonNeg = 0
    placeable_until: Date | None = None

    def _check(self) -> None:
        if _owner_of(self.id) != self.nation:
            raise InvalidValue(f"fleet {self.id} does not belong to {self.nation}", path="nation")
        if self.location.kind not in (LocationKind.POOL, LocationKind.SEA, LocationKind.PORT, LocationKind.BLOCKADE):
            raise InvalidValue(f"a fleet cannot be at a {self.location.kind} location", path="location")
        if (self.mission is FleetMission.PIRACY) != (self.piracy_target is not None):
            raise InvalidValue("a piracy mission needs a target and only piracy has one", path="piracy_target")


@dataclass(frozen=True, slots=True)
class Depot(Record):
    """A supply depot (10.3): in an area, in a besieged port city (10.3.2) or on a fleet (10.3.4)."""

    KIND = "depot"

    id: Annotated[str, Pattern(DEPOT_ID_RE, "depot id like depot:FR:1")]
    power: PowerId
    location: Location

    def _check(self) -> None:
        if _owner_of(self.id) != self.power:
            raise InvalidValue(f"depot {self.id} does not belong to {self.power}", path="power")
        if self.location.kind not in (LocationKind.POOL, LocationKind.AREA, LocationKind.CITY, LocationKind.ABOARD):
            raise InvalidValue(f"a depot cannot be at a {self.location.kind} location", path="location")


def garrison_id(nation: str, location: Location) -> str:
    """The id of ``nation``'s garrison at ``location`` (one per nation and place)."""
    return f"garrison:{nation}:{location.kind}:{location.site}"


@dataclass(frozen=True, slots=True)
class Garrison(Record):
    """Factors of one nation garrisoning a city (10.4.3) or a depot (its area; 7.2.4)."""

    KIND = "garrison"

    id: UnitId
    nation: NationId
    location: Location
    factors: Factors = Factors()

    def _check(self) -> None:
        if self.location.kind not in (LocationKind.CITY, LocationKind.AREA):
            raise InvalidValue("a garrison is in a city or at a depot in an area", path="location")
        if self.id != garrison_id(self.nation, self.location):
            raise InvalidValue(f"garrison id must be {garrison_id(self.nation, self.location)}", path="id")


Unit = Corps | Fleet | Depot | Garrison


class LeaderStatus(enum.StrEnum):
    """Where a leader stands (7.4, 13.8; 000:982-994, 000:2630-2654)."""

    UNAVAILABLE = "unavailable"  # not yet in the game (5.3.1 lists who starts)
    AVAILABLE = "available"  # may be placed at a reinforcement phase
    ON_MAP = "on-map"  # with a corps (fleet for Nelson), ``attached_to``
    CAPTURED = "captured"  # held by ``captured_by`` (13.8.2)
    REMOVED = "removed"  # removed by peace condition C.6 (13.8.3)
    INACTIVE = "inactive"  # wounded (13.8.4) or left unassigned (13.8); back at ``returns``
    DEAD = "dead"  # killed (13.8.4)


@dataclass(frozen=True, slots=True)
class Leader(Record):
    """A leader counter's changing facts; ratings are read-only data elsewhere."""

    id: LeaderId
    power: NationId
    status: LeaderStatus
    #: The corps (or fleet, for Nelson) it is stacked with when on the map.
    attached_to: UnitId | None = None
    captured_by: PowerId | None = None
    #: First month it may come back (inactive: wounded or unassigned; removed:
    #: at least a year, 000:994).
    returns: Date | None = None
    loaned_to: PowerId | None = None

    def _check(self) -> None:
        if _owner_of(self.id) != self.power:
            raise InvalidValue(f"leader {self.id} does not belong to {self.power}", path="power")
        if (self.status is LeaderStatus.ON_MAP) != (self.attached_to is not None):
            raise InvalidValue("a leader on the map is attached to a unit, and only then", path="attached_to")
        if (self.status is LeaderStatus.CAPTURED) != (self.captured_by is not None):
            raise InvalidValue("only a captured leader has a captor", path="captured_by")
        if self.returns is not None and self.status not in (LeaderStatus.INACTIVE, LeaderStatus.REMOVED):
            raise InvalidValue("only an inactive or removed leader has a return date", path="returns")


@dataclass(frozen=True, slots=True)
class Prisoners(Record):
    """Surrendered factors of ``nation`` held by ``captor`` until peace (6.4, 000:688)."""

    captor: PowerId
    nation: NationId
    factors: Factors = Factors()


def prisoners_key(captor: str, nation: str) -> str:
    return f"{captor}:{nation}"
