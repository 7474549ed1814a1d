"""The edits of the scenario editor (14.2-14.4, 000:2748-2818) on a scenario's data.

Each function takes the scenario (a dict in the schema of ``scenario_file``)
and returns a new one; nothing is checked here: the caller runs
``scenario_file.problems`` on the result and writes the file only when it has
none, so a bad edit leaves the file as it was.  ``IllegalAction`` is raised only
for a request that cannot be expressed at all (an unknown unit to change).
"""

from __future__ import annotations

import copy
from typing import Any

from eiapbem.core.errors import IllegalAction

from . import world

#: Items of the shipped files that describe the manual's text; an edited scenario drops them.
_MANUAL_ONLY = ("manual", "section", "source", "deviations")
FORCES = ("infantry", "guard", "cavalry", "cossack")
SHIPS = ("heavy", "light", "transport")
RELATIONS = ("wars", "alliances", "alliance_restrictions", "enforced_peace", "stances", "access")


def new_from(base: str, new_id: str, name: str | None = None, description: str | None = None) -> dict[str, Any]:
    """14.2: a new scenario, a copy of the shipped scenario ``base`` under a new id."""
    sc = copy.deepcopy(world.load_scenario(base))
    for k in _MANUAL_ONLY:
        sc.pop(k, None)
    sc["id"] = new_id
    sc["name"] = name or new_id
    sc["description"] = description or f"Made with 'eiapbem scenario new' from {base}."
    sc["based_on"] = base
    return sc


def _copy(sc: dict[str, Any]) -> dict[str, Any]:
    return copy.deepcopy(sc)


def set_start(sc: dict[str, Any], year: int | None, month: int | None, end_year: int | None = None,
              end_month: int | None = None) -> dict[str, Any]:
    """14.3 "Start Year and month"; the last month may be moved too."""
    out = _copy(sc)
    if year is not None:
        out["start"]["year"] = year
    if month is not None:
        out["start"]["month"] = month
    if end_year is not None:
        out["end"]["year"] = end_year
    if end_month is not None:
        out["end"]["month"] = end_month
    return out


def set_power(sc: dict[str, Any], power: str, **items: Any) -> dict[str, Any]:
    """14.3 major power items 1-6: vp, victory thresholds, status, manpower, money, factors, ships, depots, morale.

    ``items`` keys: ``vp``, ``with_em``, ``without_em``, ``status``, ``manpower``, ``money``,
    ``depots``, any of ``FORCES`` or ``SHIPS``, ``morale`` (factor type -> hundredths).
    """
    out = _copy(sc)
    pw = out["powers"].get(power)
    if pw is None:
        raise IllegalAction(f"{power!r} is not a major power of this scenario; use one of {' '.join(sorted(out['powers']))}")
    for k, v in items.items():
        if v is None:
            continue
        if k in ("with_em", "without_em"):
            pw.setdefault("victory", {})[k] = v
        elif k in FORCES:
            pw.setdefault("factors", {})[k] = v
        elif k in SHIPS:
            pw.setdefault("ships", {})[k] = v
        elif k == "morale":
            pw.setdefault("morale", {}).update(v)
        elif k in ("vp", "status", "manpower", "money", "depots"):
            pw[k] = v
        else:
            raise IllegalAction(f"{k!r} is not an item of a major power the editor changes")
    return out


def set_conquered(sc: dict[str, Any], power: str, province: str, holder: str | None) -> dict[str, Any]:
    """14.3 item 7: ``power``'s home ``province`` starts held by ``holder`` (``None``: by its owner again)."""
    out = _copy(sc)
    conq = out["powers"][power].setdefault("conquered", {})
    if holder is None:
        conq.pop(province, None)
    else:
        conq[province] = holder
    if not conq:
        del out["powers"][power]["conquered"]
    return out


def set_relation(sc: dict[str, Any], kind: str, a: str, b: str, value: Any = True) -> dict[str, Any]:
    """14.3 items 8-11 and the starting wars and alliances: ``value`` ``None`` removes the entry.

    ``wars`` and ``alliances`` take ``True``; ``alliance_restrictions`` and
    ``enforced_peace`` months; ``stances`` a number; ``access`` a kind.  Wars,
    alliances and restrictions are mutual: an entry for (a, b) replaces one for (b, a).
    """
    if kind not in RELATIONS:
        raise IllegalAction(f"{kind!r} is not a relation; use one of {', '.join(RELATIONS)}")
    out = _copy(sc)
    rel = out.setdefault("relations", {})
    mutual = kind in ("wars", "alliances", "alliance_restrictions")
    rows = [r for r in rel.get(kind, []) if not (r[:2] == [a, b] or (mutual and r[:2] == [b, a]))]
    if value is not None:
        rows.append([a, b] if value is True else [a, b, value])
    rel[kind] = sorted(rows, key=lambda r: [str(x) for x in r])
    if not rel[kind]:
        del rel[kind]
    return out


def set_minor(sc: dict[str, Any], minor: str, *, status: str | None = None, controller: str | None = None,
              forces: dict[str, int] | None = None, morale: int | None = None, war_with: str | None = None,
              peace_with: str | None = None) -> dict[str, Any]:
    """14.3 minor nations items 1-3: status toward a power (with its controller), factors, morale."""
    out = _copy(sc)
    m = out["minors"].get(minor)
    if m is None:
        raise IllegalAction(f"{minor!r} is not a minor country of this scenario; 'eiapbem scenario show FILE' lists them")
    if status is not None:
        m["status"] = status
        m["controller"] = None if status == "neutral" else controller
    elif controller is not None:
        m["controller"] = controller
    if forces:
        m.setdefault("forces", {}).update(forces)
    if morale is not None:
        m["morale"] = morale
    wars = set(m.get("at_war_with", []))
    if war_with:
        wars.add(war_with)
    if peace_with:
        wars.discard(peace_with)
    if wars:
        m["at_war_with"] = sorted(wars)
    else:
        m.pop("at_war_with", None)
    return out


def _find(out: dict[str, Any], uid: str) -> dict[str, Any] | None:
    for u in out.get("units", []):
        if u["id"] == uid:
            return u
    return None


def create_unit(sc: dict[str, Any], uid: str, owner: str, kind: str) -> dict[str, Any]:
    """14.3 "Creating and Deleting Units": a new unit, in the ready pool until placed."""
    out = _copy(sc)
    if _find(out, uid) is not None:
        raise IllegalAction(f"the scenario already has a unit {uid!r}; choose another id")
    out.setdefault("units", []).append({"id": uid, "owner": owner, "type": kind, "new": True, "place": "ready"})
    return out


def delete_unit(sc: dict[str, Any], uid: str, owner: str | None = None, kind: str | None = None) -> dict[str, Any]:
    """Delete a unit: a created one is gone; a counter of the world data is placed out of the game."""
    out = _copy(sc)
    u = _find(out, uid)
    if u is not None and u.get("new"):
        out["units"] = [x for x in out["units"] if x["id"] != uid]
        return out
    if u is None:
        if owner is None or kind is None:
            raise IllegalAction(f"the scenario has no entry for {uid!r}; give its --owner and --type to take it out of the game")
        u = {"id": uid, "owner": owner, "type": kind}
        out.setdefault("units", []).append(u)
    u["place"] = "out"
    u.pop("area", None)
    return out


def edit_unit(sc: dict[str, Any], uid: str, *, owner: str | None = None, kind: str | None = None,
              **items: Any) -> dict[str, Any]:
    """14.3 "Units": rename, type, factors, maximum factors, ratings, movement, attribute, home provinces, place.

    ``items`` keys: ``rename`` (a created unit's new id; a counter's display name),
    ``new_type``, ``factors``, ``max``, ``ratings``, ``movement``, ``attribute``,
    ``home`` (a list), ``place`` with ``area``/``at``/``with``.
    """
    out = _copy(sc)
    u = _find(out, uid)
    if u is None:
        if owner is None or kind is None:
            raise IllegalAction(f"the scenario has no entry for {uid!r} yet; give its --owner and --type the first time")
        u = {"id": uid, "owner": owner, "type": kind, "place": "ready"}
        out.setdefault("units", []).append(u)
    for k, v in items.items():
        if v is None:
            continue
        if k == "rename":
            if u.get("new"):
                if _find(out, v) is not None:
                    raise IllegalAction(f"the scenario already has a unit {v!r}; choose another id")
                u["id"] = v
            else:
                u["name"] = v
        elif k == "new_type":
            u["type"] = v
        elif k in ("factors", "max", "ratings"):
            u.setdefault(k, {}).update(v)
        elif k == "place":
            u["place"] = v
            for extra in ("area", "at", "with"):
                u.pop(extra, None)
        elif k in ("area", "at", "with", "movement", "attribute", "home"):
            u[k] = v
        else:
            raise IllegalAction(f"{k!r} is not an item of a unit the editor changes")
    return out


def set_garrison(sc: dict[str, Any], nation: str, city: str, factors: dict[str, int] | None) -> dict[str, Any]:
    """14.4.2: a garrison frozen in a city for the start (``None`` removes it)."""
    out = _copy(sc)
    rows = [g for g in out.get("garrisons", []) if not (g["nation"] == nation and g["city"] == city)]
    if factors:
        rows.append({"nation": nation, "city": city, "factors": factors})
    out["garrisons"] = sorted(rows, key=lambda g: (g["city"], g["nation"]))
    if not out["garrisons"]:
        del out["garrisons"]
    return out


def set_province(sc: dict[str, Any], area: str, nation: str | None) -> dict[str, Any]:
    """14.4.2: an area controlled by ``nation`` at the start (``None``: by its home owner)."""
    out = _copy(sc)
    prov = out.setdefault("provinces", {})
    if nation is None:
        prov.pop(area, None)
    else:
        prov[area] = nation
    if not prov:
        del out["provinces"]
    return out


__all__ = ["create_unit", "delete_unit", "edit_unit", "new_from", "set_conquered", "set_garrison", "set_minor",
           "set_power", "set_province", "set_relation", "set_start"]
