"""Putting a counter on the map: the one placement setup and reinforcement share (issue 14 item 4).

Setup (5.2, 000:312), reinforcement (7.1.1, 7.2.1, 7.3, 7.4) and a minor's set-up
all place counters; what they share is written once here, each refusal in one
sentence:

- ``check_placement``: the counter taken from the pool (``pool_counter``: there is
  one, it is ``power``'s own or one of its free states', it is in the pool and,
  after the setup, bought and still placeable, 12.5.4), room for one more counter
  where it goes (30 a section, 10.4.2-10.4.3) and, when it arrives with factors or
  ships, its counter's capacity (``forces.check_holds``);
- ``place``: the counter at its place with what it holds;
- ``check_leader`` / ``attach_leader``: a leader goes with a corps (Nelson: a fleet,
  ``is_naval_leader``) on the map that his power controls (7.4, 13.8);
- ``add_to_garrison``: factors into the garrison of a place (the room is
  ``forces.check_garrison_room``).

Where a counter may be placed is each phase's own rule (5.2 any home or controlled
area; 7.2.1 an unbesieged home city or with a corps; 7.3 within the minor's
borders): the phase works out the place and this module does the rest.
"""

from __future__ import annotations

from typing import Any

from eiapbem.core.errors import IllegalAction
from eiapbem.rules import relations
from eiapbem.rules.forces import check_holds, check_room, own_nation, the_leader
from eiapbem.rules.model import (
    Corps,
    Depot,
    Factors,
    Fleet,
    GameState,
    Garrison,
    Leader,
    LeaderStatus,
    Location,
    LocationKind,
    Ships,
    garrison_id,
)
from eiapbem.rules.engine import RulesContext

_NOUN = {Corps: "corps counter", Fleet: "fleet counter", Depot: "depot counter"}


def _nation(unit: Any) -> str:
    return getattr(unit, "nation", None) or getattr(unit, "power")


def pool_counter(state: GameState, power: str, unit_id: str, kind: type[Any], *, bought: bool = False,
                 nation: str | None = None) -> Any:
    """The counter ``unit_id`` of ``kind`` that ``power`` takes from the pool, or one sentence why not.

    ``bought``: after the setup a counter comes on only when bought in an economic phase and while
    still placeable (12.5.4, 000:2238).  ``nation``: the counter must be that minor's, a minor the caller has
    found ``power`` runs (7.3); otherwise it must be ``power``'s own or one of its free states'.
    """
    noun = _NOUN.get(kind, "counter")
    unit: Any = state.units.get(unit_id)
    if not isinstance(unit, kind):
        raise IllegalAction(f"there is no {noun} {unit_id!r}", hint="'eiapbem show pool' lists your counters")
    owner = _nation(unit)
    if nation is not None and owner != nation:
        raise IllegalAction(f"{unit_id} is not a counter of {nation}")
    if nation is None and not own_nation(state, power, owner):
        raise IllegalAction(f"{unit_id} is {owner}'s; {power} places only its own counters and those of its "
                            f"minor free states (5.2, 000:312; 7.2, 000:930-936)")
    if unit.location.kind is not LocationKind.POOL:
        raise IllegalAction(f"{unit_id} is already on the map at {unit.location}")
    if bought and (unit.placeable_until is None or state.date > unit.placeable_until):
        raise IllegalAction(f"{unit_id} has not been bought: a counter must be purchased in an economic phase before "
                            f"it is placed (12.5.4, 000:2238)")
    return unit


def check_placement(state: GameState, ctx: RulesContext, power: str, unit_id: str, kind: type[Any], where: Location, *,
                    more: Factors | Ships | None = None, bought: bool = False, nation: str | None = None) -> Any:
    """Raise unless ``power`` may put the pool counter ``unit_id`` at ``where`` holding ``more``; return it.

    ``where`` is already allowed by the phase's own rule of where counters go.
    """
    unit = pool_counter(state, power, unit_id, kind, bought=bought, nation=nation)
    if not isinstance(unit, Fleet):
        check_room(state, where)
    if more is not None and more.total:
        check_holds(ctx, unit, more)
    return unit


def place(state: GameState, unit: Any, where: Location, *, factors: Factors | None = None,
          ships: Ships | None = None) -> GameState:
    """``state`` with ``unit`` at ``where``, holding ``factors`` or ``ships`` when given (no rule checked)."""
    changes: dict[str, Any] = {"location": where}
    if not isinstance(unit, Depot):
        changes["placeable_until"] = None
    if factors is not None:
        changes["factors"] = factors
    if ships is not None:
        changes["ships"] = ships
    return state.with_unit(unit.replace(**changes))


def add_to_garrison(state: GameState, nation: str, where: Location, factors: Factors) -> tuple[GameState, str]:
    """``state`` with ``factors`` added to ``nation``'s garrison at ``where`` (made if there is none); its id."""
    gid = garrison_id(nation, where)
    old = state.units.get(gid)
    have = old.factors if isinstance(old, Garrison) else Factors()
    return state.with_unit(Garrison(id=gid, nation=nation, location=where, factors=have + factors)), gid


# ----------------------------------------------------------------- leaders


def is_naval_leader(ctx: RulesContext, leader: Leader) -> bool:
    """The leaders data marks Nelson, the one naval leader, who goes with fleets (13.8, 000:2632)."""
    short = leader.id.split(":")[-1]
    return any(row["id"] == short and row.get("power", leader.power) == leader.power and row.get("naval")
               for row in ctx.world.get("leaders.json", {}).get("leaders", []))


def check_leader(state: GameState, ctx: RulesContext, power: str, leader_id: str, unit_id: str) -> tuple[Leader, Corps | Fleet]:
    """Raise unless ``power`` may put its leader ``leader_id`` with ``unit_id``: a corps on the map (Nelson: a
    British fleet) that ``power`` controls (7.4, 000:984; 13.8, 000:2632).  When he may come on is the phase's rule."""
    lead = the_leader(state, leader_id)
    mine = lead.power == power and lead.loaned_to is None
    borrowed = lead.loaned_to == power and lead.status is LeaderStatus.ON_MAP
    if not (mine or borrowed):
        raise IllegalAction(f"{lead.id} is not {power}'s to assign" + (f"; he is loaned to {lead.loaned_to} (7.6)" if lead.loaned_to else ""))
    unit = state.units.get(unit_id)
    if is_naval_leader(ctx, lead):
        if not isinstance(unit, Fleet) or unit.location.kind is LocationKind.POOL:
            raise IllegalAction(f"{lead.id} is an admiral and goes only with a fleet on the map (13.8, 000:2632); {unit_id!r} is not one")
        if relations.power_of(state, unit.nation) != "GB":
            raise IllegalAction(f"{lead.id} goes only with a British or British-controlled fleet (13.8, 000:2632)")
    elif not isinstance(unit, Corps) or unit.location.kind not in (LocationKind.AREA, LocationKind.CITY):
        raise IllegalAction(f"{lead.id} commands on land and goes only with a corps on the map (7.4, 000:984); {unit_id!r} is not one")
    if relations.unit_power(state, unit) != power:
        raise IllegalAction(f"{unit.id} is not controlled by {power}; a leader joins only his power's units (7.4, 000:984)")
    if lead.attached_to == unit.id:
        raise IllegalAction(f"{lead.id} is already with {unit.id}")
    return lead, unit


def attach_leader(state: GameState, leader: Leader, unit_id: str) -> GameState:
    """``state`` with ``leader`` on the map with ``unit_id`` (no rule checked)."""
    return state.with_leader(leader.replace(status=LeaderStatus.ON_MAP, attached_to=unit_id, returns=None))


__all__ = ["add_to_garrison", "attach_leader", "check_leader", "check_placement", "is_naval_leader", "place", "pool_counter"]
