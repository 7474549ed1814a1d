"""Minor countries (6.1, 6.6, 13.3, 13.6; the minor country chart 5.3.1, 000:346-424).

Every district is an entry of ``GameState.minors`` keyed by its slug.  A
secondary district still joined to its major district (Norway to Denmark,
Finland to Sweden, Sicily to Naples) has status ``secondary-district`` and
is listed in its major district's ``districts``; once separated it has a
status of its own and never rejoins (13.6.3, 000:2602).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from eiapbem.rules.model.base import InvalidValue, Record
from eiapbem.rules.model.common import NonNeg, PowerId, Slug, SlugSet
from eiapbem.rules.model.units import Factors, Ships


class MinorStatus(enum.StrEnum):
    """Diplomatic and control status of a minor country."""

    NEUTRAL = "neutral"  # 6.1.1
    INFLUENCED = "influenced"  # 6.1.2, by ``controller``
    ALLIED = "allied"  # 6.1.3, with ``controller``
    CONQUERED = "conquered"  # 13.3.1, controlled by ``controller``
    FREE_STATE = "free-state"  # 6.8, controlled by ``controller``, has forces of its own
    SECONDARY_DISTRICT = "secondary-district"  # 13.6, part of another minor


#: Statuses in which a power is named.
_WITH_POWER = (MinorStatus.INFLUENCED, MinorStatus.ALLIED, MinorStatus.CONQUERED, MinorStatus.FREE_STATE)


@dataclass(frozen=True, slots=True)
class MinorCountry(Record):
    """One minor country or district."""

    status: MinorStatus
    #: The influencing, allied or controlling major power.
    controller: PowerId | None = None
    #: Secondary districts joined to this (major) district (13.6.1).
    districts: SlugSet = ()
    #: The major district this secondary district belongs to while joined.
    part_of: Slug | None = None
    #: A component of a kingdom (12.8: ``confederation-of-the-rhine``, ``poland``, ``ottoman-empire``).
    kingdom: Slug | None = None
    #: A kingdom's own entry (12.8): the home provinces it is made of (Poland's
    #: "(P)" provinces, the Confederation's Magdeburg and Tyrol); its minor
    #: components carry ``kingdom`` instead.
    provinces: SlugSet = ()
    #: Forces kept while the minor is not a free state: what was left after its
    #: last war (5.3.1 note (a), 000:416) and its fleet (6.6.1, 13.3.1).
    stored_factors: Factors = Factors()
    stored_ships: Ships = Ships()
    #: The controller still has to set up its forces (7.3, 000:972).
    setup_due: bool = False
    #: A free state's own money and manpower (12.2.3, 12.5.5).
    treasury: NonNeg = 0
    manpower: NonNeg = 0

    def _check(self) -> None:
        if (self.status in _WITH_POWER) != (self.controller is not None):
            raise InvalidValue(f"a {self.status} minor {'needs' if self.status in _WITH_POWER else 'has no'} controlling power", path="controller")
        if (self.status is MinorStatus.SECONDARY_DISTRICT) != (self.part_of is not None):
            raise InvalidValue("a joined secondary district names its major district, and only it does", path="part_of")
        if self.part_of is not None and self.districts:
            raise InvalidValue("a secondary district has no districts of its own", path="districts")
