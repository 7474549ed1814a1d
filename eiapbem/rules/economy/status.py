"""12.6 Political status adjustment (000:2252-2254; 13.7, 000:2608-2628) and the
civil disorder check of 12.2.2 (000:2164-2166).  Steps F and G.
"""

from __future__ import annotations

from eiapbem.rules import relations
from eiapbem.rules.economy.common import Work, status_box
from eiapbem.rules.model import POWERS

STEP = "12.6 political status"


def adjust(w: Work) -> None:
    """Step F: every power gains or loses the modifier of the box its marker is in."""
    for p in POWERS:
        box = status_box(w.ctx, w.state.powers[p].political_status)
        if box["adjustment"]:
            w.political(p, box["adjustment"], STEP, "status adjustment", detail=f"{box['zone']} box {box['position']}")


def civil_disorder(w: Work) -> None:
    """Step G: a power that collected no home nation manpower must sue for peace (12.2.2)."""
    for p in POWERS:
        if w.home_manpower.get(p, 0) == 0 and relations.enemies(w.state, p):
            w.state = w.state.with_power(p, must_sue_for_peace=True, sue_off_display=False)
            w.note(p, "12.2.2 civil disorder", "civil disorder",
                   "no home nation manpower: must sue for peace with every enemy at the next peace step")
