"""12.7 Ceding minor countries and provinces to allies (000:2256-2272).  Step H.

The conditions and the transfer are phase-neutral (``rules/cession.py``); this step carries out each power's
cession order, then the land its computer ally granted in the diplomacy phase (6.16 "Request Land").
"""

from __future__ import annotations

from eiapbem.core.errors import IllegalAction
from eiapbem.rules.cession import check_cession, territory_areas, transfer
from eiapbem.rules.economy.common import Work
from eiapbem.rules.model import POWERS
from eiapbem.rules.tables.diplomacy import POLITICAL_POINTS

STEP = "12.7 ceding"
CEDE_COST = POLITICAL_POINTS["cede"].fixed  # -1: 000:2268, 000:3231


def cede(w: Work) -> None:
    for p in POWERS:
        econ = w.orders(p)
        if econ.cede_territory is None:
            continue
        territory, to = econ.cede_territory, econ.cede_to
        assert to is not None
        if not _cede(w, p, territory, to, f"cede {territory}", "not ceded: {}", f"{territory} ceded to {to}"):
            continue
        if territory == "poland":
            w.political(p, -POLITICAL_POINTS["create-poland"].fixed, STEP, "loss of Poland", detail="12.8.2")
    for p in POWERS:
        granted = w.state.powers[p].land_grants
        if granted:
            w.state = w.state.with_power(p, land_grants=type(granted)())
        for territory, to in granted.items():
            _grant(w, p, territory, to)


def _grant(w: Work, p: str, territory: str, to: str) -> None:
    """6.16 "Request Land": the land a computer power granted ``to`` in the diplomacy phase passes now, as a cession
    (12.7's conditions, checked again now, and its -1) beside the power's own cession order of the phase."""
    _cede(w, p, territory, to, f"grant {territory} to {to}", "not given: {} (6.16)",
          f"{territory} given to {to} as requested (6.16)")


def _cede(w: Work, p: str, territory: str, to: str, what: str, refused: str, done: str) -> bool:
    """One cession of 12.7 if its conditions hold now (its -1 political point, logged as ``done``); else the
    refusal noted (``refused`` formatted with the reason). True if ceded."""
    try:
        check_cession(w.state, w.ctx, p, territory, to)
    except IllegalAction as err:
        w.note(p, STEP, what, refused.format(err))
        return False
    w.state = transfer(w.state, w.ctx, territory, p, to)
    w.political(p, CEDE_COST, STEP, done)
    return True


__all__ = ["CEDE_COST", "STEP", "cede", "check_cession", "territory_areas", "transfer"]
