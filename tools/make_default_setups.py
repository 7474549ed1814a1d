"""Write the shipped default setups (eiapbem/data/setups/<scenario>/<POWER>.json).

Each file is the list of setup actions one power takes in its setup slot (5.2.2,
000:328).  They are made here *through the rules engine*: every action is
verified and applied in the setup order (5.3), so a file is legal by
construction; ``tests/rules/setup/test_setup.py`` loads each one again and ends the phase.

Run: .venv/bin/python tools/make_default_setups.py
"""

from __future__ import annotations

import json
from pathlib import Path

from eiapbem.data import world
from eiapbem.data.context import rules_context
from eiapbem.rules import engine, setup
from eiapbem.core.dice import Dice
from eiapbem.rules.reinforcement.common import counter_max
from eiapbem.rules.model import POOL, Corps, CorpsType, Factors, FactorType, Fleet, LeaderStatus, Ships, ShipType
from eiapbem.rules.scenario import initial_state
from eiapbem.rules.sequence import SETUP_ORDER

OUT = Path(__file__).resolve().parent.parent / "eiapbem" / "data" / "setups"
TYPE_ORDER = [FactorType.GUARD, FactorType.ARTILLERY, FactorType.COSSACK, FactorType.CAVALRY, FactorType.INFANTRY, FactorType.MILITIA]


def _fkey(k):
    return k.value.replace("-", "_")


def land_order(state, power, nation, ctx):
    m = ctx.map
    areas = [a for a in m.areas_of_nation(nation) if setup.may_set_up_in(state, power, m.areas[a])]
    caps = [a for a in (m.national_capitals(nation) if nation in state.powers else ()) if a in areas]
    prov = sorted({m.provinces[m.areas[a].province].capital for a in areas} - set(caps))
    prov = [a for a in prov if a in areas]
    rest = [a for a in areas if a not in caps and a not in prov]
    return caps + prov + rest


def plan_forces(state, power, nation, ctx, areas):
    """Actions putting ``nation``'s unplaced factors and ships on the map (``power`` sets them up)."""
    acts = []
    factors, ships = setup._unplaced(state, nation)
    remaining = {k: factors.get(k) for k in FactorType}
    corps = [u for u in state.units.values() if isinstance(u, Corps) and u.nation == nation and u.location == POOL
             and u.corps_type in (CorpsType.REGULAR, CorpsType.COSSACK)]
    load = {c.id: {k: 0 for k in FactorType} for c in corps}
    for k in TYPE_ORDER:
        cands = sorted(corps, key=lambda c: (-counter_max(ctx.world, c.id).get(k.value, 0), c.id))
        for c in cands:
            cap = counter_max(ctx.world, c.id).get(k.value, 0)
            take = min(remaining[k], cap - load[c.id][k])
            if take > 0:
                load[c.id][k] += take
                remaining[k] -= take
    used = [c.id for c in corps if any(load[c.id].values())]
    for i, cid in enumerate(used):
        acts.append(setup.PlaceCorps(cid, areas[i % len(areas)]))
        acts.append(setup.AddFactors(cid, Factors(**{_fkey(k): v for k, v in load[cid].items() if v})))
    if any(remaining.values()):
        for a in areas:
            city = ctx.map.areas[a].city
            if city is None:
                continue
            room = city.garrison_capacity
            take = {}
            for k in FactorType:
                n = min(remaining[k], room)
                if n:
                    take[_fkey(k)] = n
                    remaining[k] -= n
                    room -= n
            if take:
                acts.append(setup.AddGarrison(a, Factors(**take), None if nation == power else nation))
            if not any(remaining.values()):
                break
    left = {k: ships.get(k) for k in ShipType}
    fleets = sorted((u for u in state.units.values() if isinstance(u, Fleet) and u.nation == nation and u.location == POOL), key=lambda f: f.id)
    ports = [a for a in areas if ctx.map.areas[a].port is not None and not ctx.map.areas[a].port.ice]
    ports += [a for a in areas if ctx.map.areas[a].port is not None and a not in ports]
    fi = 0
    while any(left.values()):
        f = fleets[fi]
        cap = counter_max(ctx.world, f.id)
        take = {k.value: min(left[k], cap.get(k.value, 0)) for k in ShipType}
        acts.append(setup.PlaceFleet(f.id, port=ports[fi % len(ports)]))
        acts.append(setup.AddShips(f.id, Ships(**{k: v for k, v in take.items() if v})))
        for k in ShipType:
            left[k] -= take[k.value]
        fi += 1
    return acts, used


def plan(state, power, ctx):
    acts, used = plan_forces(state, power, power, ctx, land_order(state, power, power, ctx))
    for m in state.free_states(power):
        more, _ = plan_forces(state, power, m, ctx, land_order(state, power, m, ctx))
        acts += more
    leaders = sorted(l.id for l in state.leaders.values() if l.power == power and l.status is LeaderStatus.AVAILABLE)
    fleets = [a.fleet for a in acts if isinstance(a, setup.PlaceFleet) and a.fleet.split(":")[1] == power]
    land = [lid for lid in leaders if not setup.is_naval_leader(ctx, lid)]
    naval = [lid for lid in leaders if setup.is_naval_leader(ctx, lid)]
    for lid, cid in zip(land, used):
        acts.append(setup.AssignLeader(lid, cid))
    for lid, fid in zip(naval, fleets):
        acts.append(setup.AssignLeader(lid, fid))
    depots = sorted(u.id for u in state.units.values() if getattr(u, "power", None) == power and u.location == POOL and u.id.startswith("depot:"))
    if depots:
        acts.append(setup.PlaceDepot(depots[0], land_order(state, power, power, ctx)[0]))
    return acts


def main() -> None:
    raw = world.load_raw()
    ctx = rules_context(Dice(b"default-setups"))
    for scen in world.scenario_ids():
        state = initial_state(world.load_scenario(scen), raw)
        (OUT / scen).mkdir(parents=True, exist_ok=True)
        for power in SETUP_ORDER:
            acts = plan(state, power, ctx)
            state = engine.apply_actions(state, power, acts, ctx).state
            state = engine.end_slot(state, power, ctx).state
            doc = {
                "_source": "eiapbem's default setup: generated by tools/make_default_setups.py through the rules engine (5.2.2).",
                "scenario": scen,
                "power": power,
                "actions": [engine.action_to_obj(a) for a in acts],
            }
            (OUT / scen / f"{power}.json").write_text(json.dumps(doc, indent=1, sort_keys=True) + "\n")
            print(scen, power, len(acts), "actions")


if __name__ == "__main__":
    main()
