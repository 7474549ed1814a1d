"""``show`` records as text, with no rules loaded: what a fresh ``show units`` prints from the status record.

The records are those of ``client.show`` (``unit_record``, ``leader_record``) as Fog of War leaves them
(``client.fog``); this module imports only ``core``, so ``cli/answers.py`` can print a filtered ``show units``
from the records kept in the status record without loading the rules.
"""

from __future__ import annotations

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


__all__ = ["HIDDEN", "units_lines"]
