"""12.4 Economic manipulation: occupied capitals (12.4.1, 000:2180-2182), returning
removed leaders (12.4.2, 13.8.3; 000:2184-2186, 2644-2650) and the optional
economic manipulation display (12.4.3, 000:2188-2196).  Step D.
"""

from __future__ import annotations


from eiapbem.core.errors import IllegalAction
from eiapbem.rules.economy.common import Work, national_capitals_occupied, status_box
from eiapbem.rules.model import POWERS, GameState, LeaderStatus
from eiapbem.rules.tables.diplomacy import POLITICAL_POINTS, return_leader_cost
from eiapbem.rules.engine import RulesContext

STEP = "12.4 manipulation"

#: 12.4.1 (000:2182): political points lost per occupied national capital.
_PP = POLITICAL_POINTS
CAPITAL_LOSS = {
    "london": _PP["paris-london-occupied"].fixed, "paris": _PP["paris-london-occupied"].fixed,
    "berlin": _PP["berlin-vienna-constantinople-occupied"].fixed,
    "constantinople": _PP["berlin-vienna-constantinople-occupied"].fixed,
    "vienna": _PP["berlin-vienna-constantinople-occupied"].fixed,
    "madrid": _PP["madrid-moscow-stpetersburg-occupied"].fixed,
    "moscow": _PP["madrid-moscow-stpetersburg-occupied"].fixed,
    "st-petersburg": _PP["madrid-moscow-stpetersburg-occupied"].fixed,
}


def squares(ctx: RulesContext) -> tuple[int, ...]:
    return tuple(sq["square"] for sq in ctx.world["displays.json"]["economic_manipulation"]["squares"])


def check_setting(state: GameState, ctx: RulesContext, square: int) -> None:
    if not state.options.economic_manipulation:
        raise IllegalAction("economic manipulation is an optional rule this game does not use (12.4.3)")
    if square not in squares(ctx):
        raise IllegalAction(f"square {square} is not on the economic manipulation display; use one of {', '.join(map(str, squares(ctx)))}")


def leader_ratings(ctx: RulesContext, leader_id: str) -> tuple[int, int, bool]:
    """(strategic, tactical, is Nelson) of a leader from the world data."""
    short = leader_id.split(":")[2]
    for lead in ctx.world["leaders.json"]["leaders"]:
        if lead["id"] == short and leader_id.split(":")[1] == lead["power"]:
            return lead.get("strategic", 0) or 0, lead.get("tactical", 0) or 0, short == "nelson"
    return 0, 0, short == "nelson"


def manipulate(w: Work) -> None:
    """Step D for every power."""
    for p in POWERS:
        occupied = national_capitals_occupied(w.state, w.ctx, p)
        manip, chosen = w.state.powers[p].manipulation, w.orders(p).next_manipulation
        for cap in occupied:
            w.political(p, CAPITAL_LOSS.get(cap, -1), STEP, f"capital {w.ctx.map.area(cap).name} occupied")
        _return_leaders(w, p)
        if not w.state.options.economic_manipulation:
            continue
        if occupied:
            if manip:
                w.note(p, STEP, "economic manipulation", "reset to 0: the capital is occupied (12.4.1)")
            w.state = w.state.with_power(p, manipulation=0)
            continue
        square = manip
        if square:
            from eiapbem.rules.economy.collection import manipulation_square

            w.political(p, manipulation_square(w.ctx, square)["political"], STEP, "economic manipulation",
                        detail=f"square {square}")
        new = chosen if chosen is not None else square
        if new != square:
            w.note(p, STEP, "economic manipulation set", f"square {square} -> {new} for the next phase")
        w.state = w.state.with_power(p, manipulation=new)


def _return_leaders(w: Work, p: str) -> None:
    """13.8.3: in the fiasco zone removed leaders return free; otherwise the chosen ones for points."""
    fiasco = status_box(w.ctx, w.state.powers[p].political_status)["zone"] == "fiasco"
    chosen = set(w.orders(p).return_leaders)
    nxt = w.date.next()
    for lid, leader in sorted(w.state.leaders.items()):
        if leader.power != p or leader.status is not LeaderStatus.REMOVED:
            continue
        if fiasco:
            w.state = w.state.with_leader(leader.replace(status=LeaderStatus.INACTIVE, returns=nxt))
            w.note(p, STEP, f"leader {lid} may return", "the power is in the fiasco zone (13.8.3)")
        elif lid in chosen:
            s, t, nelson = leader_ratings(w.ctx, lid)
            w.state = w.state.with_leader(leader.replace(status=LeaderStatus.INACTIVE, returns=nxt))
            w.political(p, return_leader_cost(s, t, nelson=nelson), STEP, f"leader {lid} bought back",
                        detail="13.8.3")
