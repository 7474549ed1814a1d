"""``show`` records as text, and the log's records, with no rules loaded: what a fresh ``show units`` and ``log``
print from the status record.

The records are those of ``client.show`` (``unit_record``, ``leader_record``) as Fog of War leaves them
(``client.fog``); this module imports only ``core``, so ``cli/answers.py`` can print a filtered ``show units``
from the records kept in the status record without loading the rules, and ``client/statusfile.py`` can make the
log's older lines from the journal's segments.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from eiapbem.core.powers import POWER_NAMES

#: What a unit's strength reads as when Fog of War hides it (4.1.1).
HIDDEN = "strength hidden (fog of war)"


def units_lines(recs: list[dict], p: str, area: str | None = None) -> list[str]:
    """``eiapbem show units P`` as text: the records of ``client.show.units`` (filtered as asked)."""
    if not recs:
        if area is not None:  # a newcomer asking what stands somewhere, not only their own forces
            return [f"{POWER_NAMES[p]}: none of its forces in {area}; 'eiapbem show area {area}' lists every power's "
                    f"units there, 'eiapbem show units POWER --area {area}' another power's"]
        return [f"{POWER_NAMES[p]}: no such forces on the map"]
    out = [f"Forces of {POWER_NAMES[p]} ({len(recs)})"]
    for r in recs:
        where = f"{r['where']}:{r['site']}" if r.get("site") else (r.get("where") or "-")
        if r["kind"] == "leader":
            out.append(f"  leader    {r['id']:<28} {where:<28} {r['status']}" + (f", with {r['with']}" if r["with"] else ""))
            continue
        what = r.get("factors") or r.get("ships") or {}
        detail = ", ".join(f"{v} {k.replace('_', ' ')}" for k, v in what.items())
        if r.get("hidden"):  # 4.1.1 Fog of War
            out.append(f"  {r['kind']:<9} {r['id']:<28} {where:<28} {HIDDEN}"
                       + (f"; leaders {', '.join(r['leaders'])}" if r["leaders"] else ""))
            continue
        out.append(f"  {r['kind']:<9} {r['id']:<28} {where:<28} strength {r['strength']}"
                   + (f" ({detail})" if detail else "") + (f"; leaders {', '.join(r['leaders'])}" if r["leaders"] else ""))
    return out


#: The log lines 4.1.1 Fog of War shortens for those who did not fight: what each reads as, by where it was fought.
FOGGED = {"battle.start": "a battle is fought in {}", "battle.end": "the battle in {} is over",
          "siege.result": "the siege of {} is decided"}


def fogged_battle(kind: str, params: Mapping[str, Any]) -> str | None:
    """The id (as text) of the battle or siege a log line of ``kind`` tells of, when Fog of War may shorten it."""
    if kind not in FOGGED:
        return None
    return str(params.get("battle") or params.get("siege"))


def log_json(line: Mapping[str, Any], fog: Mapping[str, Sequence[Any]] | None) -> dict:
    """``eiapbem log --json``'s record of a journal line (the fields of ``LogEntry.to_obj``), 4.1.1 Fog of War applied
    from ``fog``: None when the game does not use it, else ``[seen, place]`` of a battle by id (``fog.battle_table``:
    the viewers' powers fought it, where it was fought); a battle not in it was fought by none of them and its id
    stands for its place.  A shortened line keeps of its params only the battle's id."""
    text, params = line["text"], dict(line["params"])
    bid = fogged_battle(line["kind"], params) if fog is not None else None
    if fog is not None and bid is not None:
        seen, place = fog.get(bid, (False, bid))
        if not seen:
            text = FOGGED[line["kind"]].format(place)
    if text != line["text"]:
        params = {k: v for k, v in params.items() if k in ("battle", "siege")}
    return {"slot": line["slot"], "author": line["author"], "kind": str(line["kind"]), "text": text, "params": params}


__all__ = ["FOGGED", "HIDDEN", "fogged_battle", "log_json", "units_lines"]
