"""The political status display (13.7): where a power's marker stands and how it moves.

Phase-neutral (issue 14 item 4): the economic phase adjusts the marker, the diplomacy phase moves it by
the political points of its events (6.2.1, 6.4.2, 6.5...).  The display itself (zones, boxes, victory
points) is world data (``displays.json``).
"""

from __future__ import annotations


from eiapbem.rules.model import GameState
from eiapbem.rules.engine import RulesContext


def _display(ctx: RulesContext) -> dict:
    return ctx.world["displays.json"]["political_status"]


def status_box(ctx: RulesContext, position: int) -> dict:
    boxes = _display(ctx)["boxes"]
    return boxes[max(0, min(position, len(boxes) - 1))]


def status_range(ctx: RulesContext) -> tuple[int, int]:
    boxes = _display(ctx)["boxes"]
    return boxes[0]["position"], boxes[-1]["position"]


def adjust_status(state: GameState, ctx: RulesContext, power: str, points: int) -> GameState:
    """Move ``power``'s marker by ``points`` (13.7.1): never off either end; forced off
    the lower end, the power must sue for peace at the next diplomacy phase."""
    if points == 0:
        return state
    lo, hi = status_range(ctx)
    ps = state.powers[power]
    new = ps.political_status + points
    off = new < lo
    sue = ps.must_sue_for_peace or off
    only_off = ps.sue_off_display if ps.must_sue_for_peace else off  # civil disorder's suit, owed already, stands
    return state.with_power(power, political_status=max(lo, min(hi, new)), must_sue_for_peace=sue,
                            sue_off_display=only_off)
