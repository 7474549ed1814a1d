"""Enemy control of a port (8.7; 000:1152-1158): the fleets in it get out before the next naval phase.

``evacuate`` runs at the end of every land slot (the land phase is where ports change hands;
``eiapbem.rules.land.finish``).  For each port held by a power at war with the power of fleets
lying in it:

- with enemy fleets in the port's blockade box, the port evacuation battle is fought at once,
  without any player's input (``start_naval_battle(evacuation=True)``: the blockaders hold the
  wind gauge, no harbour defence fires, fleets that do not win are scuttled and a naval leader
  with them is captured, 8.7);
- with none, the fleets sail out to the nearest unblockaded friendly port (the retreat of 9.4.1;
  the first in the map's order when several are equally near: the program decides, as 8.7
  says it resolves the evacuation without user input).
"""

from __future__ import annotations


from eiapbem.rules import engine, relations
from eiapbem.rules.model import Fleet, GameState, Location, LocationKind
from eiapbem.rules.naval.battle import retreat_options, start_naval_battle
from eiapbem.rules.naval.common import controller, hostile, in_battle, port_nation, powers_in_order
from eiapbem.rules.engine import RulesContext


def _stranded(state: GameState, ctx: RulesContext) -> dict[tuple[str, str], list[str]]:
    out: dict[tuple[str, str], list[str]] = {}
    for u in sorted(state.units.values(), key=lambda u: u.id):
        if not isinstance(u, Fleet) or u.location.kind is not LocationKind.PORT or in_battle(state, u.id):
            continue
        q = controller(state, u)
        if q is not None and relations.at_war(state, q, port_nation(state, ctx, u.location.site)):
            out.setdefault((u.location.site, q), []).append(u.id)
    return out


def evacuate(state: GameState, ctx: RulesContext) -> engine.Outcome:
    out = engine.Outcome(state)
    stranded = _stranded(state, ctx)
    for port, q in sorted(stranded, key=lambda k: (k[0], powers_in_order({k[1]}))):
        fleets = [f for f in stranded[(port, q)] if f in out.state.units]
        if not fleets:
            continue
        box = Location(LocationKind.BLOCKADE, port)
        blockaders = sorted(u.id for u in out.state.units.values() if isinstance(u, Fleet) and u.location == box
                            and u.ships.total > 0 and hostile(out.state, q, u))
        if blockaders:
            out = out.then(engine.log(out.state, q, "naval.evacuate", f"{q}: {', '.join(fleets)} must fight their way out of "
                                      f"{port}, now held by the enemy (8.7)", port=port))
            out = out.then(start_naval_battle(out.state, box, {"attacker": fleets, "defender": blockaders}, ctx,
                                              evacuation=True, power=q))
            continue
        options = retreat_options(out.state, ctx, q, box)
        if not options:
            continue
        kind, _, site = options[0].partition(":")
        to = Location(LocationKind(kind), site)
        state = out.state
        for fid in fleets:
            state = state.with_unit(state.units[fid].replace(location=to))
        out = out.then(engine.log(state, q, "naval.evacuate", f"{q}: {', '.join(fleets)} leave {port}, now held by the "
                                  f"enemy, for {site} (8.7)", port=port, to=str(to)))
    return out


def lost_shipyards(state: GameState, ctx: RulesContext) -> engine.Outcome:
    """13.5.6 (000:2580-2582): ships being built in a port city an enemy now holds are destroyed.

    Checked with the evacuation, at the end of every land slot.  Ships are build orders until
    placed, so both the ships being built and those completed but not yet placed are lost."""
    from eiapbem.rules.model.powers import SHIP_ITEMS

    out = engine.Outcome(state)
    for power in state.powers:  # the fixed order of the seven
        ps = out.state.powers[power]
        lost = [k for k, o in sorted(ps.builds.items()) if o.item in SHIP_ITEMS and o.port is not None
                and relations.at_war(out.state, power, port_nation(out.state, ctx, o.port))]
        if not lost:
            continue
        builds = ps.builds
        for k in lost:
            builds = builds.remove(k)
        state = out.state.replace(powers=out.state.powers.set(power, ps.replace(builds=builds)))
        text = "; ".join(f"{ps.builds[k].count} {ps.builds[k].item} at {ps.builds[k].port}" for k in lost)
        out = out.then(engine.log(state, power, "naval.shipyard-lost", f"{power}: ships being built in enemy-held ports "
                                  f"are destroyed (13.5.6): {text}"))
    return out
