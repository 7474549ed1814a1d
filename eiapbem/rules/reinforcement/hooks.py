"""The reinforcement phase's hooks (7.0, 7.2.2, 7.3): what a power must still do, and what
happens when it ends its slot.

- obligations: army factors due this month that could still be placed somewhere
  must be placed (7.2.2, 000:930: "may not be delayed");
- finish: army factors still due are lost (000:930) and logged; ships due wait
  for a later month (7.1.2, 000:912); the set-up duty of the power's minors
  ends (7.3).
"""

from __future__ import annotations

from typing import Any

from eiapbem.core.errors import IllegalAction
from eiapbem.rules import control, engine, supply
from eiapbem.rules.model import Corps, Depot, Factors, GameState, Location, LocationKind
from eiapbem.rules.model.powers import SHIP_ITEMS
from eiapbem.rules.reinforcement.army import check_corps_takes, check_garrison_takes
from eiapbem.rules.reinforcement.common import due_factors, purchased
from eiapbem.rules.reinforcement.minors import finish_minor_setup
from eiapbem.rules.forces import ARMY_ITEMS, GARRISON_ITEMS, counter_entry
from eiapbem.rules.engine import RulesContext


#: The counters (the counter mix's ``kind``) meant for each factor type: the hint offers them first, so line
#: infantry is not sent to a Guard or cavalry corps, which holds only a few, while a line corps has room (7.2.2).
MEANT_FOR = {"infantry": "infantry", "militia": "infantry", "cavalry": "cavalry", "guard": "guard",
             "artillery": "artillery"}


def _one(kind) -> Factors:
    return Factors().with_(kind, 1)


def where_one_fits(state: GameState, ctx: RulesContext, power: str, nation: str, kind, due: int = 1) -> tuple[str, str, int] | None:
    """A place where one factor of ``kind`` due to ``nation`` could go now, the command that puts factors there
    (``{n}`` stands for the count) and how many of the ``due`` it takes (a corps holds only so many, 7.2.2), or
    ``None``."""
    m = ctx.map
    one = _one(kind)

    def most(check: Any) -> int:
        """The largest count up to ``due`` that ``check`` accepts (one is accepted already)."""
        for k in range(due, 1, -1):
            try:
                check(Factors().with_(kind, k))
                return k
            except IllegalAction:
                pass
        return 1

    def into_corps(among: list[Corps]) -> tuple[str, str, int] | None:
        for c in among:
            if c.location.kind in (LocationKind.AREA, LocationKind.CITY) and c.loaned_to is None:
                try:
                    check_corps_takes(state, ctx, power, c, one)
                    return c.id, f"eiapbem reinforce add-factors --corps {c.id} {flag}", \
                        most(lambda f, c=c: check_corps_takes(state, ctx, power, c, f))
                except IllegalAction:
                    pass
        return None

    flag = f"--{kind.value} {{n}}"
    of = "" if nation == power else f" --nation {nation}"
    corps = [u for u in state.units.values() if isinstance(u, Corps) and u.nation == nation]
    # A corps whose counter is meant for the kind first; one that holds a few besides (a Guard's line infantry, in
    # the counter mix) only when no garrison or bought counter takes them either
    suits = MEANT_FOR.get(kind.value)
    meant = [c for c in corps if counter_entry(ctx.world, c.id).get("kind", suits) == suits]
    if (fits := into_corps(meant)) is not None:
        return fits
    # The national capital first, then the larger cities (a garrison holds 5 factors a supply point, 10.4.3): the
    # hint named Amiens, the first by name, for new French infantry where a player looks to Paris.
    cities = {a: town for a in m.areas if (town := m.area(a).city) is not None and supply.is_home_area(state, m, a, nation)}
    homes = sorted(cities, key=lambda a: (cities[a].capital != "national", -cities[a].supply, a))
    if kind in GARRISON_ITEMS:
        places = [Location(LocationKind.CITY, a) for a in homes]
        if nation == power:
            places += sorted(
                {u.location for u in state.units.values() if isinstance(u, Depot) and u.power == power and u.location.kind is LocationKind.AREA},
                key=str,
            )
        for where in places:
            try:
                check_garrison_takes(state, ctx, power, nation, where, one)
                at = "city" if where.kind is LocationKind.CITY else "depot"
                return (f"the garrison at {where}",
                        f"eiapbem reinforce add-garrison --area {where.site} --at {at}{of} {flag}",
                        most(lambda f, where=where: check_garrison_takes(state, ctx, power, nation, where, f)))
            except IllegalAction:
                pass
    for c in corps:
        if purchased(state, c):
            for a in homes:
                if control.city_power(state, m, a) == power and not control.is_besieged(state, m, a):
                    try:
                        check_corps_takes(state, ctx, power, c, one, at=Location(LocationKind.CITY, a))
                        city = Location(LocationKind.CITY, a)
                        return f"{c.id} placed in {a}", f"eiapbem reinforce place-corps --corps {c.id} --area {a} {flag}", \
                            most(lambda f, c=c, city=city: check_corps_takes(state, ctx, power, c, f, at=city))
                    except IllegalAction:
                        pass
    return into_corps([c for c in corps if c not in meant])


def obligations(state: GameState, power: str, ctx: RulesContext) -> list[str]:
    out: list[str] = []
    for nation in (power,) + state.free_states(power):
        due = due_factors(state, nation)
        for kind in ARMY_ITEMS:
            n = due.get(kind)
            if n and (fits := where_one_fits(state, ctx, power, nation, kind, n)) is not None:
                spot, command, k = fits
                room = f"room for all at {spot}" if k == n else f"room for {k} at {spot}, the rest elsewhere"
                out.append(
                    f"place the {n} {kind.value} due to {nation} this month ({room}): "
                    f"'{command.format(n=k)}'; reinforcements may not be delayed (7.2.2, 000:930)"
                )
    return out


def finish(state: GameState, power: str, ctx: RulesContext) -> engine.Outcome:
    out = engine.Outcome(state)
    for nation in (power,) + state.free_states(power):
        lost = due_factors(out.state, nation)
        if lost.total == 0:
            continue
        ps = out.state.powers[power]
        builds = ps.builds
        for key, o in ps.builds.items():
            if o.nation == nation and o.item not in SHIP_ITEMS and o.arrives <= out.state.date:
                builds = builds.remove(key)
        changes: dict[str, Any] = {"builds": builds}
        if nation == power:
            changes["returned_factors"] = Factors()
        s = out.state.with_power(power, **changes)
        out = out.then(engine.log(s, power, "reinforcement.lost",
                                  f"{lost.describe()} due to {nation} could not be placed and are lost (7.2.2)",
                                  nation=nation, factors=lost.total))
    return engine.Outcome(finish_minor_setup(out.state, power), out.events)


__all__ = ["finish", "obligations", "where_one_fits"]
