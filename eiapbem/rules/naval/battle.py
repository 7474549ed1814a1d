"""Naval battles (9.0-9.5) as a state machine driven by pending decisions.

``start_naval_battle`` sets up one combat between the fleets of one or more
powers on each side (9.1: the attacker is the phasing side) and runs it until
a player must choose something; each answer (``engine.AnswerDecision``,
handled by the ``"naval"`` decisions of its ``RULES``) runs it on to the next
question or to the end.  The steps, in order:

1. forced retreat of a stack of light ships only (9.2.1.2), or capture of
   transports with no warships at all beside them (8.1.3);
2. ``naval.evasion``: the defender's evasion order, only outside
   interceptions and port combats (9.2.1.1); then the evasion roll;
3. ``naval.pursuit``: one question per attacking fleet, at sea and not in an
   interception (9.2.2.1);
4. the combat itself (``naval.combat.resolve``): wind gauge, harbour defences,
   fire, victory and political points (9.2-9.3); losses split between a side's
   fleets, ``naval.heavy-losses`` letting its power place the heavy ones
   (9.2.2.1, ``naval.losses``); transports with no warship left captured (8.1.3);
5. ``naval.retreat``: the sea area of a loser with no port open (9.4.1: the
   nearest port is the program's, ``retreat_options``' first);
6. ``naval.enter-port``: the victor of a blockade box combat may enter the
   port when it may use it (9.4.3);
7. the end: moves made, empty fleets removed, Nelson captured if his stack
   is gone (9.5), the report logged.

Every roll is a labelled die ``naval/<battle id>/...`` from ``ctx.dice``; the
battle's record (``GameState.naval_battles``) holds everything between two
decisions, so a battle stopped after any decision and resumed from the
encoded state ends the same way.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from eiapbem.core.errors import IllegalAction
from eiapbem.rules import engine
from eiapbem.rules.forces import decision_subject
from eiapbem.rules.control import is_blockaded, port_holder
from eiapbem.rules.engine import Outcome, RulesContext
from eiapbem.rules.forces import the_fleet
from eiapbem.rules.mapgraph import Map, Port
from eiapbem.rules.model import POWERS, FrozenMap, GameState, PendingDecision
from eiapbem.rules.model.combat import NavalBattle
from eiapbem.rules.model.common import POWER_NAMES
from eiapbem.rules.model.units import (
    POOL,
    Corps,
    Depot,
    Factors,
    Garrison,
    Leader,
    LeaderStatus,
    Location,
    LocationKind,
    Prisoners,
    Ships,
    prisoners_key,
)
from eiapbem.rules.naval import combat, losses
from eiapbem.rules.naval.combat import NavalStack
from eiapbem.rules.naval.losses import split_losses
from eiapbem.rules.relations import allied, at_war, has_access, power_of
from eiapbem.rules.tables import naval as chart

SIDES = ("attacker", "defender")
NELSON = "leader:GB:nelson"
#: 13.1 (000:2358): January, February and December are winter months; no fleet
#: enters or leaves a sea area north of the ice line then (8.4.1, 000:1064).
WINTER_MONTHS = (1, 2, 12)


def other(side: str) -> str:
    return "defender" if side == "attacker" else "attacker"


# ------------------------------------------------------------------ who is who


def side_powers(state: GameState, fleets: Sequence[str]) -> tuple[str, ...]:
    found = {power_of(state, the_fleet(state, f).nation) for f in fleets}
    return tuple(p for p in POWERS if p in found)


def lead_power(state: GameState, battle: NavalBattle, side: str) -> str:
    """The power that answers for a side: the phasing power for the attacker, else the
    power with most warships at the start (ties in the order of the powers)."""
    fleets = battle.attackers if side == "attacker" else battle.defenders
    powers = side_powers(state, fleets)
    if side == "attacker" and battle.power in powers:
        return battle.power
    ships = {p: 0 for p in powers}
    for f in fleets:
        p = power_of(state, the_fleet(state, f).nation)
        if p is not None:
            ships[p] += battle.start[f].heavy + battle.start[f].light
    return max(powers, key=lambda p: (ships[p], -POWERS.index(p)))


def _nelson_fleet(state: GameState) -> str | None:
    leader = state.leaders.get(NELSON)
    if leader is None or leader.status is not LeaderStatus.ON_MAP:
        return None
    return leader.attached_to


def _side_of(battle: NavalBattle, fid: str | None) -> str | None:
    if fid in battle.attackers:
        return "attacker"
    if fid in battle.defenders:
        return "defender"
    return None


def _fleets(battle: NavalBattle, side: str) -> tuple[str, ...]:
    return battle.attackers if side == "attacker" else battle.defenders


def stack_of(state: GameState, battle: NavalBattle, side: str) -> NavalStack:
    """A side as the combat arithmetic sees it, from its fleets' ships now (transports left out, 8.1.3)."""
    heavy = light = fleets = 0
    british = au_pr = False
    for fid in _fleets(battle, side):
        f = the_fleet(state, fid)
        heavy += f.ships.heavy
        light += f.ships.light
        if f.ships.heavy + f.ships.light > 0:
            fleets += 1  # 9.3.2 counts the fleets used in the combat
            british = british or f.nation == "GB"
            au_pr = au_pr or f.nation in ("AU", "PR")
    nelson = _side_of(battle, _nelson_fleet(state)) == side
    return NavalStack(heavy=heavy, light=light, fleets=fleets, british=british, austrian_or_prussian=au_pr, nelson=nelson)


# ------------------------------------------------------------------ ports


def may_use_port(state: GameState, ctx: RulesContext, power: str, port: str) -> bool:
    """A friendly port: controlled by the power, or by an ally granting it access (9.4.1)."""
    owner = power_of(state, port_holder(state, ctx, port))
    if owner is None:
        return False
    if owner == power:
        return True
    return allied(state, power, owner) and has_access(state, power, owner)


def _port(m: Map, site: str) -> Port:
    """The port of area ``site`` (a blockade box or a port location names a port area)."""
    port = m.area(site).port
    if port is None:
        raise IllegalAction(f"{site} has no port")
    return port


def has_garrison(state: GameState, ctx: RulesContext, port: str) -> bool:
    """A garrison of the port's controller in the city (13.5.3)."""
    controller = port_holder(state, ctx, port)
    g = state.units.get(f"garrison:{controller}:city:{port}")
    return isinstance(g, Garrison) and g.factors.total > 0


def harbour_defence(state: GameState, ctx: RulesContext, port: str, attackers: Sequence[str]) -> int:
    """Harbour defence value firing at the attackers: only with a garrison of the controlling
    power, at war with an attacking power (9.2.3, 13.5.3)."""
    area = ctx.map.area(port)
    if area.port is None or not has_garrison(state, ctx, port):
        return 0
    owner = power_of(state, port_holder(state, ctx, port))
    if not any(at_war(state, owner, p) for p in attackers):
        return 0
    return area.port.harbour


def _winter(state: GameState) -> bool:
    return state.date.month in WINTER_MONTHS


def _sea_open(state: GameState, ctx: RulesContext, sea: str) -> bool:
    return not (_winter(state) and ctx.map.sea(sea).ice)


def retreat_options(
    state: GameState, ctx: RulesContext, power: str, where: Location, *, garrisoned: bool = False
) -> tuple[str, ...]:
    """Where a losing power's fleets may retreat from a sea area or blockade box (9.4.1, 9.4.3).

    The nearest unblockaded friendly ports, counted in movement points over
    open sea areas (8.4); with ``garrisoned`` (evasion, 9.2.1.1) the nearest
    such ports with a garrison first.  Equally near ports come in the order the
    program takes them (9.4.1: its choice): a port with a garrison of its holder
    first (its harbour defences shelter the fleet, 9.2.3), then the higher
    harbour defence value, then id.  With no such port, the open sea areas
    next to the battle, by id: of several, the power chooses (9.4.1).
    """
    m = ctx.map
    if where.kind is LocationKind.SEA:
        frontier = {where.site: 0}
    else:  # a blockade box touches its port's sea areas, one point away (8.4.2)
        frontier = {s: 1 for s in _port(m, where.site).seas}
    dist = dict(frontier)
    queue = sorted(frontier, key=lambda s: (frontier[s], s))
    while queue:
        s = queue.pop(0)
        if not _sea_open(state, ctx, s) and s not in frontier:
            continue
        for n in m.sea_neighbours(s):
            if n not in dist and _sea_open(state, ctx, n):
                dist[n] = dist[s] + 1
                queue.append(n)
    ports: dict[str, int] = {}
    for s, d in dist.items():
        for p in m.ports_on(s):
            if p == where.site and where.kind is LocationKind.BLOCKADE:
                continue  # 9.4.3: its own port only for a stack that came out of it
            if _winter(state) and _port(m, p).ice:
                continue
            if may_use_port(state, ctx, power, p) and not is_blockaded(state, ctx, p, power):
                ports[p] = min(ports.get(p, d + 1), d + 1)
    if garrisoned:
        with_garrison = {p: d for p, d in ports.items() if has_garrison(state, ctx, p)}
        if with_garrison:
            ports = with_garrison
    if ports:
        best = min(ports.values())
        near = sorted((p for p in ports if ports[p] == best),
                      key=lambda p: (not has_garrison(state, ctx, p), -_port(m, p).harbour, p))
        return tuple(f"port:{p}" for p in near)
    if where.kind is LocationKind.SEA:
        seas = m.sea_neighbours(where.site)
    else:
        seas = _port(m, where.site).seas
    return tuple(f"sea:{s}" for s in sorted(seas) if _sea_open(state, ctx, s))


def _loc(text: str) -> Location:
    kind, _, site = text.partition(":")
    return Location(LocationKind(kind), site)


# ------------------------------------------------------------------ starting


def _new_id(state: GameState, site: str) -> str:
    prefix = f"{state.date}.{site}."
    n = 1 + sum(1 for k in state.naval_battles if k.startswith(prefix))
    return f"{prefix}{n}"


def start_naval_battle(
    state: GameState,
    where: Location,
    sides: Mapping[str, Sequence[str]],
    ctx: RulesContext,
    *,
    interception: bool = False,
    wind_gauge_to: str | None = None,
    from_port: str | None = None,
    power: str | None = None,
    evacuation: bool = False,
) -> Outcome:
    """Begin a naval combat at ``where`` between ``sides["attacker"]`` and ``sides["defender"]`` (fleet ids).

    ``power`` is the phasing power (default: the slot's power); ``interception``:
    the combat follows an interception (8.5.4); ``wind_gauge_to``: blockaders
    fighting fleets leaving or entering their port hold the wind gauge
    (9.2.1); ``from_port``: in a blockade box, the side that came out of the
    port (9.4.3).  ``evacuation``: the port evacuation battle of 8.7 at the
    blockade box ``where``: the attackers are the fleets in the enemy-held
    port, the defenders the blockaders; it is an automatic blockade box
    interception, blockaders holding the wind gauge, with no questions asked.
    Returns the state with the battle run up to its first question, or to
    its end.
    """
    if state.slot is None:
        raise IllegalAction("the game is over; no naval combat can be fought")
    if where.kind not in (LocationKind.SEA, LocationKind.PORT, LocationKind.BLOCKADE):
        raise IllegalAction(f"a naval combat is fought in a sea area, port or blockade box, not at {where}")
    if where.kind is LocationKind.SEA:
        if not ctx.map.is_sea(where.site):
            raise IllegalAction(f"there is no sea area {where.site!r} on the map")
    elif not ctx.map.is_area(where.site) or ctx.map.area(where.site).port is None:
        raise IllegalAction(f"there is no port {where.site!r} on the map")
    for key in sides:
        if key not in SIDES:
            raise IllegalAction(f"a naval combat has an attacker and a defender side, not {key!r}")
    att = tuple(sorted(sides.get("attacker", ())))
    dfn = tuple(sorted(sides.get("defender", ())))
    for name, fleets in (("attacker", att), ("defender", dfn)):
        if not fleets:
            raise IllegalAction(f"the {name} side of a naval combat needs at least one fleet")
        for fid in fleets:
            f = the_fleet(state, fid)
            place = Location(LocationKind.PORT, where.site) if evacuation and name == "attacker" else where
            if f.location != place:
                raise IllegalAction(f"fleet {fid} is at {f.location}, not at {place} where the combat is fought")
            if power_of(state, f.nation) is None:
                raise IllegalAction(f"fleet {fid} belongs to {f.nation}, which no major power controls")
    both = sorted(set(att) & set(dfn))
    if both:
        raise IllegalAction(f"fleet {both[0]} cannot fight on both sides")
    for other_battle in state.naval_battles.values():
        busy = sorted(set(other_battle.attackers + other_battle.defenders) & set(att + dfn))
        if other_battle.step != "done" and busy:
            raise IllegalAction(f"fleet {busy[0]} is still fighting naval combat {other_battle.id}; finish that one first")
    if wind_gauge_to not in (None, *SIDES) or from_port not in (None, *SIDES):
        raise IllegalAction("wind_gauge_to and from_port name a side: 'attacker' or 'defender'")
    if interception and where.kind is LocationKind.PORT:
        raise IllegalAction("an interception is fought in a sea area or blockade box, never in a port (8.5.4)")
    if from_port is not None and where.kind is not LocationKind.BLOCKADE:
        raise IllegalAction("only a blockade box combat has a side that came out of the port (9.4.3)")
    a_powers, d_powers = side_powers(state, att), side_powers(state, dfn)
    for a in a_powers:
        for d in d_powers:
            if not at_war(state, a, d):
                raise IllegalAction(f"{POWER_NAMES[a]} and {POWER_NAMES[d]} are not at war, so their fleets cannot fight (8.10)")
    if evacuation:
        if where.kind is not LocationKind.BLOCKADE:
            raise IllegalAction("a port evacuation battle is fought in the port's blockade box (8.7)")
        holder = power_of(state, port_holder(state, ctx, where.site))
        if not any(at_war(state, a, holder) for a in a_powers):
            raise IllegalAction(f"{where.site} is not held by an enemy of the fleets in it, so they need not fight their way out (8.7)")
        interception, wind_gauge_to, from_port = True, "defender", None
        power = power or a_powers[0]
    phasing = power or state.slot.power or a_powers[0]
    if phasing not in a_powers:
        raise IllegalAction(f"the attacker is the phasing side (9.1), but {phasing} has no fleet among the attackers")
    if where.kind is LocationKind.PORT:
        if not at_war(state, phasing, port_holder(state, ctx, where.site)):
            raise IllegalAction(f"{POWER_NAMES[phasing]} may attack fleets in {where.site} only at war with the port's owner (8.10)")
    start = FrozenMap((f, the_fleet(state, f).ships) for f in att + dfn)
    bid = _new_id(state, where.site)
    battle = NavalBattle(
        id=bid,
        power=phasing,
        location=where,
        interception=interception,
        wind_gauge_to=wind_gauge_to,
        from_port=from_port,
        attackers=att,
        defenders=dfn,
        start=start,
        evacuation=evacuation,
    )
    battle = _note(battle, _describe_start(state, battle))
    state = state.replace(naval_battles=state.naval_battles.set(bid, battle))
    return _run(state, bid, ctx)


def _describe_start(state: GameState, b: NavalBattle) -> str:
    def side(fleets: Sequence[str]) -> str:
        return ", ".join(
            f"{f} ({b.start[f].heavy} heavy, {b.start[f].light} light, {b.start[f].transport} transports)" for f in fleets
        )

    how = "port evacuation" if b.evacuation else "interception" if b.interception else "initiation"
    return f"Naval combat {b.id} at {b.location} by {how}: attacker {side(b.attackers)}; defender {side(b.defenders)}."


def _note(b: NavalBattle, line: str) -> NavalBattle:
    return b.replace(report=b.report + (line,))


# ------------------------------------------------------------------ the machine


def _ask(
    state: GameState, b: NavalBattle, ctx: RulesContext, key: str, who: str, kind: str, options: Sequence[str], **context: Any
) -> Outcome:
    did = f"naval:{b.id}:{key}"
    assert state.slot is not None  # questions are asked only in a game in play
    d = PendingDecision(
        id=did,
        power=who,
        kind=kind,
        options=tuple(options),
        slot=state.slot.key(state.date),
        context=FrozenMap(sorted({"battle": b.id, **context}.items())),
    )
    state = state.replace(pending=state.pending.set(did, d))
    if b.evacuation:  # 8.7: resolved without user input: the first option, never entering the port
        return _apply(state, who, d, "stay" if kind == "naval.enter-port" else options[0], ctx)
    return Outcome(state)


def _put(state: GameState, b: NavalBattle) -> GameState:
    return state.replace(naval_battles=state.naval_battles.set(b.id, b))


def _waiting(state: GameState, bid: str) -> bool:
    return any(d.id.startswith(f"naval:{bid}:") for d in state.pending.values())


def _run(state: GameState, bid: str, ctx: RulesContext) -> Outcome:
    """Run the battle on until it needs an answer or is over."""
    out = Outcome(state)
    while not _waiting(out.state, bid):
        b = out.state.naval_battles[bid]
        step = _STEPS.get(b.step)
        if step is None:
            break
        out = out.then(step(out.state, b, ctx))
    return out


def _step_evasion(state: GameState, b: NavalBattle, ctx: RulesContext) -> Outcome:
    stacks = {s: stack_of(state, b, s) for s in SIDES}
    # 8.1.3: transports with no warship of their side at all are taken without a fight.
    for side in SIDES:
        if stacks[side].ships == 0 and stacks[other(side)].ships > 0:
            if b.evacuation and side == "attacker":
                state, b = _scuttle(state, b, ctx)
                return Outcome(_put(state, b.replace(outcome="captured", step="retreat")))
            state, b = _capture_transports(state, b, side)
            b = _note(b, f"The {side} has no warships: nothing to fight; its transports are captured (8.1.3).")
            return Outcome(_put(state, b.replace(outcome="captured", step="retreat")))
    # 9.2.1.2: light ships only against heavy ships retreat as if beaten, without political points.
    for side in SIDES:
        if stacks[side].heavy == 0 and stacks[other(side)].heavy > 0:
            b = _note(b, f"The {side} has light ships only against heavy ships and must retreat (9.2.1.2).")
            retreating: tuple[str, ...] = (side,)
            if b.evacuation and side == "attacker":  # beaten as it were: scuttled (8.7)
                state, b = _scuttle(state, b, ctx)
                retreating = ()
            elif b.evacuation:
                retreating = SIDES  # 8.7: the blockaders lose; both retreat
            return Outcome(_put(state, b.replace(outcome="forced-retreat", retreating=retreating, step="retreat")))
    if b.interception or b.location.kind is not LocationKind.SEA:
        return Outcome(_put(state, b.replace(step="pursuit")))  # 9.2.1.1: no evasion here
    who = lead_power(state, b, "defender")
    return _ask(state, b, ctx, "evasion", who, "naval.evasion", ("no-evade", "evade-stronger", "evade-all"))


def _step_evade(state: GameState, b: NavalBattle, ctx: RulesContext) -> Outcome:
    """Roll for evasion under the defender's order (9.2.1.1); "stronger" means more warships."""
    att, dfn = stack_of(state, b, "attacker"), stack_of(state, b, "defender")
    tries = b.evasion == "evade-all" or (b.evasion == "evade-stronger" and att.ships > dfn.ships)
    if not tries:
        return Outcome(_put(state, b.replace(step="pursuit")))
    roll = ctx.dice.d6(f"naval/{b.id}/evade")
    if roll <= chart.EVADE_MAX:
        b = _note(b, f"The defender evades ({b.evasion}, roll {roll}, needed {chart.EVADE_MAX} or less).")
        return Outcome(_put(state, b.replace(outcome="evaded", retreating=("defender",), step="retreat")))
    b = _note(b, f"The defender fails to evade ({b.evasion}, roll {roll}).")
    return Outcome(_put(state, b.replace(step="pursuit")))


def _pursuit_eligible(state: GameState, b: NavalBattle) -> tuple[str, ...]:
    """9.2.2.1: attacking fleets at sea, not after an interception."""
    if b.interception or b.location.kind is not LocationKind.SEA:
        return ()
    return tuple(f for f in b.attackers if the_fleet(state, f).ships.total > 0)


def _step_pursuit(state: GameState, b: NavalBattle, ctx: RulesContext) -> Outcome:
    for fid in _pursuit_eligible(state, b):
        if fid not in b.pursuit_asked:
            who = power_of(state, the_fleet(state, fid).nation)
            assert who is not None  # a fleet of the victor's side: a power's
            return _ask(state, b, ctx, f"pursuit:{fid}", who, "naval.pursuit", ("pursue", "stay"), fleet=fid)
    return Outcome(_put(state, b.replace(step="resolve")))


def _step_resolve(state: GameState, b: NavalBattle, ctx: RulesContext) -> Outcome:
    stacks = {s: stack_of(state, b, s) for s in SIDES}
    port = b.location.kind is LocationKind.PORT
    hd = harbour_defence(state, ctx, b.location.site, side_powers(state, b.attackers)) if port else 0
    r = combat.resolve(
        stacks["attacker"],
        stacks["defender"],
        ctx.dice,
        label=f"naval/{b.id}",
        interception=b.interception,
        port=port,
        harbour_defence=hd,
        wind_gauge_to=None if port else b.wind_gauge_to,
    )
    fleet_losses: dict[str, Ships] = {}
    for side in SIDES:
        fleets = _fleets(b, side)
        heavy = split_losses([(f, the_fleet(state, f).ships.heavy) for f in fleets], r.heavy_losses[side])
        light = split_losses([(f, the_fleet(state, f).ships.light) for f in fleets], r.light_losses[side])
        for f in fleets:
            unit = the_fleet(state, f)
            fleet_losses[f] = Ships(heavy=heavy[f], light=light[f])
            state = state.with_unit(
                unit.replace(ships=unit.ships.replace(heavy=unit.ships.heavy - heavy[f], light=unit.ships.light - light[f]))
            )
    lines = []
    if r.wind:
        lines.append(f"Wind gauge: attacker {r.wind['attacker']}, defender {r.wind['defender']} (d6, +1 British, +1 Nelson, at most 6).")
    lines.append(f"Wind gauge to the {r.wind_gauge} (fires first)." if r.wind_gauge
                 else "No wind gauge: the rolls are equal and fire is simultaneous (9.2.1).")
    if r.harbour_losses or hd:
        lines.append(f"Harbour defences of {hd} fire first: the attacker loses {r.harbour_losses} ships.")
    # Ships each side fires with (9.2.1: the wind gauge fires first, the other replies with its survivors).
    by_fire = {"attacker": r.losses["attacker"] - r.harbour_losses, "defender": r.losses["defender"]}
    firing = {"attacker": stacks["attacker"].ships - r.harbour_losses, "defender": stacks["defender"].ships}
    if r.wind_gauge is not None:
        second = other(r.wind_gauge)
        firing[second] -= by_fire[second]
    for side in ([r.wind_gauge, other(r.wind_gauge)] if r.wind_gauge else list(SIDES)):
        lines.append(
            f"The {side} fires with {r.fire[side]}: {r.percent[side]}% of {firing[side]} ships; "
            f"the {other(side)} loses {by_fire[other(side)]} ships."
        )
    pp: dict[str, int] = {}
    if r.victor is not None and r.political_points:
        for side in SIDES:
            for p in side_powers(state, _fleets(b, side)):
                pp[p] = r.political_points[side]
        for p, n in pp.items():
            state = state.with_power(p, political_status=state.powers[p].political_status + n)
    b = b.replace(
        outcome="fought",
        wind_gauge=r.wind_gauge,
        wind=FrozenMap(r.wind),
        fire=FrozenMap(r.fire),
        percent=FrozenMap(r.percent),
        harbour_defence=hd,
        harbour_losses=r.harbour_losses,
        losses=FrozenMap(r.losses),
        fleet_losses=FrozenMap(fleet_losses),
        victor=r.victor,
        retreating=tuple(sorted(r.retreats)),
        political_points=FrozenMap(pp),
    )
    for line in lines:
        b = _note(b, line)
    b = _note(
        b,
        (f"The {r.victor} wins (9.3.1)." if r.victor else "A draw (9.3.1).")
        + (" Political points: " + ", ".join(f"{p} {n:+d}" for p, n in sorted(pp.items())) + "." if pp else ""),
    )
    if b.evacuation:
        if b.victor != "attacker":  # 8.7: a blockaded fleet that does not win is scuttled
            state, b = _scuttle(state, b, ctx)
            b = b.replace(retreating=tuple(x for x in b.retreating if x != "attacker"))
        else:  # 8.7: the blockaders lose: both sides retreat
            b = b.replace(retreating=SIDES)
    # 8.1.3: transports whose warships are all gone are captured with their passengers.
    for side in SIDES:
        s = stack_of(state, b, side)
        if s.ships == 0 and not (b.evacuation and side == "attacker"):
            state, b = _capture_transports(state, b, side)
    return Outcome(_put(state, b.replace(step="losses-attacker")))


def _step_heavy_losses(state: GameState, b: NavalBattle, ctx: RulesContext) -> Outcome:
    """9.2.2.1 (000:1238): the side's answering power allocates its heavy ship losses between its fleets, the
    program's proportional split the first option (``naval.losses``)."""
    side = "attacker" if b.step == "losses-attacker" else "defender"
    b = b.replace(step="losses-defender" if side == "attacker" else "retreat")
    options = losses.choices(b, _fleets(b, side))
    if not options:
        return Outcome(_put(state, b))
    return _ask(_put(state, b), b, ctx, f"heavy-losses:{side}", lead_power(state, b, side), losses.KIND, options, side=side)


def _scuttle(state: GameState, b: NavalBattle, ctx: RulesContext) -> tuple[GameState, NavalBattle]:
    """8.7 (000:1166): the blockaded fleets are scuttled, a naval leader with them captured by
    the port's holder; corps and depots aboard are lost with them."""
    holder = power_of(state, port_holder(state, ctx, b.location.site))
    fleet_losses = dict(b.fleet_losses)
    for fid in b.attackers:
        f = the_fleet(state, fid)
        prev = fleet_losses.get(fid, Ships())
        fleet_losses[fid] = Ships(prev.heavy + f.ships.heavy, prev.light + f.ships.light, prev.transport + f.ships.transport)
        state = state.with_unit(f.replace(ships=Ships(), location=POOL))
        for uid in sorted(state.units):
            u = state.units[uid]
            if u.location == Location(LocationKind.ABOARD, fid):
                if isinstance(u, Corps):
                    state = state.with_unit(u.replace(location=POOL, factors=Factors(), besieging=False))
                elif isinstance(u, Depot):
                    state = state.with_unit(u.replace(location=POOL))
        for lid in sorted(state.leaders):
            leader = state.leaders[lid]
            if leader.attached_to == fid and holder is not None:
                state = state.with_leader(_captured(leader, holder))
                b = _note(b, f"{lid} is captured by {holder} with the scuttled fleet (8.7).")
    b = _note(b, "The blockaded fleets did not win and are scuttled (8.7): " + ", ".join(b.attackers) + ".")
    return state, b.replace(fleet_losses=FrozenMap(fleet_losses), scuttled=b.attackers)


def _capture_transports(state: GameState, b: NavalBattle, side: str) -> tuple[GameState, NavalBattle]:
    captor = lead_power(state, b, other(side))
    captured: list[str] = []
    fleet_losses = dict(b.fleet_losses)
    for fid in _fleets(b, side):
        f = the_fleet(state, fid)
        if f.ships.transport == 0:
            continue
        prev = fleet_losses.get(fid, Ships())
        fleet_losses[fid] = prev.replace(transport=prev.transport + f.ships.transport)
        state = state.with_unit(f.replace(ships=f.ships.replace(transport=0)))
        for uid in sorted(state.units):
            u = state.units[uid]
            if u.location != Location(LocationKind.ABOARD, fid):
                continue
            captured.append(uid)
            if isinstance(u, Corps):
                state = _take_prisoners(state, captor, u.nation, u.factors)
                state = state.with_unit(u.replace(location=POOL, factors=Factors(), besieging=False))
                for lid in sorted(state.leaders):
                    leader = state.leaders[lid]
                    if leader.attached_to == uid:
                        state = state.with_leader(_captured(leader, captor))
            elif isinstance(u, Depot):
                state = state.with_unit(u.replace(location=POOL))
        b = _note(b, f"{fid}'s {f.ships.transport} transports are captured by {captor} (8.1.3).")
    b = b.replace(captured=tuple(sorted(set(b.captured) | set(captured))), fleet_losses=FrozenMap(fleet_losses))
    return state, b


def _take_prisoners(state: GameState, captor: str, nation: str, factors: Factors) -> GameState:
    key = prisoners_key(captor, nation)
    held = state.prisoners.get(key) or Prisoners(captor=captor, nation=nation)
    return state.replace(prisoners=state.prisoners.set(key, held.replace(factors=held.factors + factors)))


def _captured(leader: Leader, captor: str) -> Leader:
    return leader.replace(status=LeaderStatus.CAPTURED, captured_by=captor, attached_to=None, returns=None)


def _step_retreat(state: GameState, b: NavalBattle, ctx: RulesContext) -> Outcome:
    moves = dict(b.moves)
    here = b.location
    if here.kind is LocationKind.PORT:  # 9.4.2: port attackers, win or lose, go to the blockade box
        for f in b.attackers:
            if the_fleet(state, f).ships.total > 0:
                moves.setdefault(f, Location(LocationKind.BLOCKADE, here.site))
    for side in b.retreating:
        fleets = [f for f in _fleets(b, side) if the_fleet(state, f).ships.total > 0]
        if here.kind is LocationKind.PORT:
            continue  # the port's defenders stay (9.4.2)
        for p in side_powers(state, fleets):
            mine = [f for f in fleets if power_of(state, the_fleet(state, f).nation) == p]
            if all(f in moves for f in mine):
                continue
            if here.kind is LocationKind.BLOCKADE and b.from_port == side:
                options: tuple[str, ...] = (f"port:{here.site}",)  # 9.4.3: back into the port it came from
            else:
                options = retreat_options(state, ctx, p, here, garrisoned=b.outcome == "evaded")
            if len(options) > 1 and options[0].startswith("port:"):
                # 9.4.1 (000:1274): "the program will retreat the naval combat loser to the nearest" port: of
                # several as near it takes the first of ``retreat_options``; only a sea area is the loser's choice.
                b = _note(b, f"{p} retreats to the nearest friendly port; of {', '.join(options)}, equally near, "
                             f"the program takes {options[0]} (9.4.1).")
                options = options[:1]
            if len(options) > 1:
                b = b.replace(moves=FrozenMap(moves))
                return _ask(_put(state, b), b, ctx, f"retreat:{p}", p, "naval.retreat", options, power=p)
            if options:
                for f in mine:
                    moves[f] = _loc(options[0])
    # 9.2.2.1: pursuers follow the beaten defender to its port and take post in the blockade box.
    if b.pursuers and "defender" in b.retreating and b.outcome == "fought":
        lead = lead_power(state, b, "defender")
        target = next(
            (moves[f] for f in b.defenders if f in moves and power_of(state, the_fleet(state, f).nation) == lead), None
        )
        if target is not None and target.kind is LocationKind.PORT:
            for f in b.pursuers:
                if the_fleet(state, f).ships.total > 0:
                    moves[f] = Location(LocationKind.BLOCKADE, target.site)
    b = b.replace(moves=FrozenMap(moves), step="enter-port")
    return Outcome(_put(state, b))


def _step_enter_port(state: GameState, b: NavalBattle, ctx: RulesContext) -> Outcome:
    """9.4.3: the victor of a blockade box combat may move into the port if it may use it."""
    if b.location.kind is LocationKind.BLOCKADE and b.victor is not None and b.outcome == "fought":
        fleets = [f for f in _fleets(b, b.victor) if the_fleet(state, f).ships.total > 0 and f not in b.moves]
        powers = side_powers(state, fleets)
        if fleets and all(may_use_port(state, ctx, p, b.location.site) for p in powers):
            who = lead_power(state, b, b.victor)
            return _ask(state, b, ctx, "enter-port", who, "naval.enter-port", ("enter", "stay"), port=b.location.site)
    return _finish(state, b, ctx)


def _finish(state: GameState, b: NavalBattle, ctx: RulesContext) -> Outcome:
    """Make the moves, remove empty fleets (9.5), capture Nelson, log the result."""
    for fid, loc in b.moves.items():
        state = state.with_unit(the_fleet(state, fid).replace(location=loc))
        b = _note(b, f"{fid} moves to {loc}.")
    removed = []
    for fid in b.attackers + b.defenders:
        f = the_fleet(state, fid)
        if f.ships.total == 0 and f.location != POOL:
            state = state.with_unit(f.replace(location=POOL))
            removed.append(fid)
            b = _note(b, f"{fid} has no ships left and is removed from the map (9.5).")
    nelson_by = None
    nf = _nelson_fleet(state)
    side = _side_of(b, nf)
    if side is not None and nf in removed:
        survivors = [f for f in _fleets(b, side) if the_fleet(state, f).location != POOL]
        survivors.sort(key=lambda f: (the_fleet(state, f).nation != "GB", f))
        leader = state.leaders[NELSON]
        if survivors:  # his own fleet is gone but the stack is not: he stays with it
            state = state.with_leader(leader.replace(attached_to=survivors[0]))
        else:
            nelson_by = lead_power(state, b, other(side))
            state = state.with_leader(_captured(leader, nelson_by))
            b = _note(b, f"Nelson's stack is gone: Nelson is a prisoner of {nelson_by} (9.5).")
    b = b.replace(step="done", removed=tuple(sorted(removed)), nelson_captured_by=nelson_by)
    state = _put(state, b)
    heads = ("The attacker wins", "The defender wins", "A draw") if b.outcome == "fought" else ("The ",)
    text = next((line for line in b.report[1:] if line.startswith(heads)), b.report[-1])
    return engine.log(
        state,
        "game",
        "naval.combat",
        f"Naval combat {b.id} at {b.location}: {text}",
        battle=b.id,
        victor=b.victor or "",
        outcome=b.outcome,
    )


_STEPS = {
    "evasion": _step_evasion,
    "evade": _step_evade,
    "pursuit": _step_pursuit,
    "resolve": _step_resolve,
    "losses-attacker": _step_heavy_losses,
    "losses-defender": _step_heavy_losses,
    "retreat": _step_retreat,
    "enter-port": _step_enter_port,
}


# ------------------------------------------------------------------ answers


def _decision_battle(state: GameState, decision: PendingDecision) -> NavalBattle:
    return decision_subject(state.naval_battles, decision, "battle", "naval combat", lambda b: b.step == "done")


def _verify(state: GameState, power: str, decision: PendingDecision, choice: str, ctx: RulesContext) -> None:
    b = _decision_battle(state, decision)
    if decision.kind == losses.KIND:  # a composed answer: each fleet's heavy ships lost (9.2.2.1)
        losses.parse(b, _fleets(b, str(decision.context["side"])), choice)


def _apply(state: GameState, power: str, decision: PendingDecision, choice: str, ctx: RulesContext) -> Outcome:
    b = _decision_battle(state, decision)
    state = state.replace(pending=state.pending.remove(decision.id))
    kind = decision.kind
    if kind == "naval.evasion":
        b = _note(b.replace(evasion=choice, step="evade"), f"{power} orders the defender: {choice}.")
    elif kind == "naval.pursuit":
        fid = str(decision.context["fleet"])
        b = b.replace(
            pursuit_asked=tuple(sorted(set(b.pursuit_asked) | {fid})),
            pursuers=tuple(sorted(set(b.pursuers) | ({fid} if choice == "pursue" else set()))),
        )
        b = _note(b, f"{fid} will {'pursue' if choice == 'pursue' else 'not pursue'}.")
    elif kind == losses.KIND:
        side = str(decision.context["side"])
        alloc = losses.parse(b, _fleets(b, side), choice)
        state, b = losses.reallocate(state, b, _fleets(b, side), alloc)
        b = _note(b, f"{power} allocates the {side}'s heavy ship losses: {losses.text(alloc)} (9.2.2.1).")
    elif kind == "naval.retreat":
        p = str(decision.context["power"])
        moves = dict(b.moves)
        for side in b.retreating:
            for f in _fleets(b, side):
                unit = the_fleet(state, f)
                if unit.ships.total > 0 and power_of(state, unit.nation) == p:
                    moves[f] = _loc(choice)
        b = _note(b.replace(moves=FrozenMap(moves)), f"{p} retreats to {choice}.")
    elif kind == "naval.enter-port":
        if choice == "enter":
            moves = dict(b.moves)
            assert b.victor is not None  # only a victor is asked to enter the port
            for f in _fleets(b, b.victor):
                if the_fleet(state, f).ships.total > 0:
                    moves.setdefault(f, Location(LocationKind.PORT, b.location.site))
            b = b.replace(moves=FrozenMap(moves))
        b = _note(b, f"The victor {'enters' if choice == 'enter' else 'does not enter'} {b.location.site} (9.4.3).")
        state = _put(state, b.replace(step="done"))
        return _finish(state, b, ctx)
    else:
        raise IllegalAction(f"no naval rule answers decisions of kind {kind}")
    return _run(_put(state, b), b.id, ctx)


#: Naval combats' questions, answered in any phase (registered by ``eiapbem/rules/phases.py``).
RULES = engine.PhaseRules("naval combats", decisions=(("naval", _verify, _apply),), composite=(losses.KIND,))


def report_text(battle: NavalBattle) -> str:
    """The battle as a player reads it: one line per event."""
    return "\n".join(battle.report)


def report_record(battle: NavalBattle) -> dict:
    """The battle as plain JSON-able data (strings, integers, lists, maps)."""
    return battle.to_obj()
