"""Who acts for a nation, who is at war or allied with whom, who has access: one definition each.

Every phase asks these questions through this module and nowhere else (issue
14 item 2; the rule each follows is written in ``docs/decisions.md``,
"One definition per rule question").  A *nation* is a major power (``FR``) or
a minor country or district slug (``bavaria``); ``None`` stands for "nobody"
and is never at war, allied or acting.

- ``power_of``: the major power that acts for a nation's forces and wars.  A
  power acts for itself; a joined secondary district follows its major
  district (13.6.3, 13.6.4); an allied minor (6.1.3, set up and moved by its
  ally), a conquered minor (13.3.1) and a free state (6.8) are acted for by
  their controller; a neutral or influenced minor by nobody (6.1.1, 6.1.2).
- ``unit_power``: who moves a unit now: the ally it is loaned to (7.6), else
  its nation's power; a depot is its power's.
- ``at_war``: two nations' powers are at war (6.2), or a power is at war with
  a neutral minor (or with the minor a joined district belongs to, 13.6.2).
- ``allied``: the same nation, or two powers in a formal alliance (6.5).
- ``has_access``: a power may operate in another power's territory: its own,
  or by an access grant that has not ended (13.4.1, 6.11); ``graces_ending`` and
  ``without_access``: the temporary grants whose grace ends now, and ending one.

Pure functions of the state, no I/O.
"""

from __future__ import annotations

from typing import Any

from eiapbem.rules.model import POWERS, AccessKind, Depot, GameState, MinorCountry, MinorStatus

#: Minor statuses whose forces a major power acts for (6.1.3, 13.3.1, 6.8).
ACTING_STATUSES = (MinorStatus.ALLIED, MinorStatus.CONQUERED, MinorStatus.FREE_STATE)


def minor_record(state: GameState, nation: str) -> MinorCountry | None:
    """A minor's effective record: a joined secondary district follows its major district (13.6.3)."""
    m = state.minors.get(nation)
    seen = 0
    while m is not None and m.part_of is not None and seen < 4:
        m = state.minors.get(m.part_of)
        seen += 1
    return m


def power_of(state: GameState, nation: str | None) -> str | None:
    """The major power that acts for ``nation`` (see the module text), or None."""
    if nation is None:
        return None
    if nation in POWERS:
        return nation
    m = minor_record(state, nation)
    if m is None or m.status not in ACTING_STATUSES:
        return None
    return m.controller


def unit_power(state: GameState, unit: Any) -> str | None:
    """Who moves ``unit`` now: the ally it is loaned to (7.6), else its nation's power; a depot is its power's."""
    if isinstance(unit, Depot):
        return unit.power
    loaned = getattr(unit, "loaned_to", None)
    return loaned or power_of(state, unit.nation)


def unit_side(state: GameState, unit: Any) -> str:
    """The nation a unit fights for: its acting power, else its own (neutral minor) nation."""
    return unit_power(state, unit) or unit.nation


def _at_war_with_minor(state: GameState, power: str, nation: str) -> bool:
    """``power`` has declared war on the neutral minor ``nation`` (or on the minor it is a district of, 13.6.2)."""
    wars = state.powers[power].minor_wars
    if nation in wars:
        return True
    m = state.minors.get(nation)
    return m is not None and m.part_of is not None and m.part_of in wars


def at_war(state: GameState, a: str | None, b: str | None) -> bool:
    """Whether nations ``a`` and ``b`` are at war (6.2; a neutral minor through ``minor_wars``, 6.15)."""
    if a is None or b is None:
        return False
    pa, pb = power_of(state, a), power_of(state, b)
    if pa is not None and pb is not None:
        return pa != pb and pb in state.powers[pa].wars
    if pa is not None:
        return _at_war_with_minor(state, pa, b)
    if pb is not None:
        return _at_war_with_minor(state, pb, a)
    return False


def allied(state: GameState, a: str | None, b: str | None) -> bool:
    """Whether ``a`` and ``b`` are the same nation or side, or their powers are formal allies (6.5)."""
    if a is None or b is None:
        return False
    if a == b:
        return True
    pa, pb = power_of(state, a), power_of(state, b)
    if pa is None or pb is None:
        return False
    return pa == pb or pb in state.powers[pa].alliances


def enemies(state: GameState, power: str) -> tuple[str, ...]:
    """The major powers ``power`` is at war with (6.2), by name."""
    return tuple(sorted(state.powers[power].wars))


def war_with(state: GameState, power: str, other: str | None) -> Any:
    """The record of the war between the major powers ``power`` and ``other`` (when, who declared), or None."""
    return state.powers[power].wars.get(other) if other is not None else None


def minor_enemies(state: GameState, power: str) -> tuple[str, ...]:
    """The neutral minors ``power`` has declared war on (6.15), by name (a district's own entry only)."""
    return tuple(sorted(state.powers[power].minor_wars))


def allies(state: GameState, power: str) -> tuple[str, ...]:
    """The major powers ``power`` is formally allied with (6.5), by name."""
    return tuple(sorted(state.powers[power].alliances))


def has_access(state: GameState, power: str, owner: str | None) -> bool:
    """``power`` may operate in ``owner``'s territory by right: its own, or an access grant from ``owner``
    (voluntary, enforced, or temporary until its last month) that has not ended (13.4.1, 000:2550)."""
    if owner is not None and owner == power:
        return True
    if owner is None or owner not in POWERS:
        return False
    acc = state.powers[owner].access.get(power)
    return acc is not None and (acc.until is None or state.date <= acc.until)


def graces_ending(state: GameState) -> list[tuple[str, str]]:
    """(host, guest) pairs whose temporary access (a grace after a peace or a cancelled grant) has its last month
    now or before, by host then guest (6.4 000:738, 13.4.1 000:2554)."""
    return [(host, guest) for host in POWERS for guest, acc in sorted(state.powers[host].access.items())
            if acc.kind is AccessKind.TEMPORARY and acc.until is not None and acc.until <= state.date]


def without_access(state: GameState, host: str, guest: str) -> GameState:
    """``state`` with ``host``'s access grant to ``guest`` gone (the end of a grace, 13.4.1)."""
    return state.with_power(host, access=state.powers[host].access.discard(guest))
