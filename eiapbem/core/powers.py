"""The seven major powers: stable ids, names and the manual's chart order."""

from __future__ import annotations

#: Stable ids, in canonical (alphabetical) order, which is also the column order of the
#: manual's charts (Au Fr GB Pr Rs Sp Tu, 000:2841).  The one definition every layer imports.
POWERS: tuple[str, ...] = ("AU", "FR", "GB", "PR", "RU", "SP", "TU")

POWER_NAMES: dict[str, str] = {
    "AU": "Austria",
    "FR": "France",
    "GB": "Great Britain",
    "PR": "Prussia",
    "RU": "Russia",
    "SP": "Spain",
    "TU": "Turkey",
}


def check_power(power: object, what: str = "power") -> str:
    """Return ``power`` if it is one of the seven ids, else raise ``BadData``."""
    from eiapbem.core.errors import BadData

    if power not in POWER_NAMES:
        raise BadData(
            f"{what} {power!r} is not a major power; use one of {' '.join(POWERS)}",
        )
    return str(power)


#: The kinds of counters a power has on the map, in the order ``eiapbem show units`` lists them.
UNIT_KINDS = ("corps", "fleet", "garrison", "depot", "leader")
