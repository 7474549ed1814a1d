"""Hypothesis strategies that build random but valid game states, and one fixed sample state."""

from __future__ import annotations

from hypothesis import strategies as st

from eiapbem.rules import sequence
from eiapbem.rules.model.slot import first_slot
from eiapbem.rules.model import (
    POWERS,
    STATE_FORMAT,
    Access,
    AccessKind,
    BuildOrder,
    CityControl,
    Corps,
    CorpsType,
    Date,
    Depot,
    Factors,
    Fleet,
    FleetMission,
    FrozenMap,
    GameState,
    Garrison,
    Leader,
    LeaderStatus,
    Location,
    LocationKind,
    LogEntry,
    MinorCountry,
    MinorStatus,
    MoveOrder,
    Options,
    PeaceTerm,
    PendingDecision,
    Phase,
    PlayerKind,
    PowerState,
    Prisoners,
    Ships,
    SkipMode,
    StandingOrders,
    SurrenderSettings,
    War,
    garrison_id,
    prisoners_key,
)
from eiapbem.rules.combat.battle import BattleEvent, BattleSide, FieldBattle
from eiapbem.rules.model.powers import BUILD_ITEMS, PEACE_CONDITIONS, SHIP_ITEMS, SKIPPABLE_PHASES

SLUGS = ("bavaria", "swedish-pomerania", "wurttemberg", "saxony", "ulm", "vienna", "north-sea", "lille", "a1", "b-2")
NAMES = ("I", "II", "III", "guard", "1", "2", "north_sea")
FACTOR_FIELDS = (
    "infantry", "militia", "cavalry", "guard", "artillery",
    "feudal_infantry", "feudal_cavalry", "cossack", "freikorps", "guerrilla",
)

small = st.integers(min_value=0, max_value=200)
anyint = st.integers(min_value=-(2**40), max_value=2**40)
powers = st.sampled_from(POWERS)
slugs = st.sampled_from(SLUGS)
nations = st.one_of(powers, slugs)
dates = st.builds(Date, st.integers(1805, 1815), st.integers(1, 12))
params = st.one_of(st.none(), st.booleans(), anyint, st.text(max_size=10))
param_maps = st.dictionaries(st.text(min_size=1, max_size=6), params, max_size=3).map(FrozenMap)


def sets(elements, max_size=3):
    return st.lists(elements, max_size=max_size, unique=True).map(tuple)


factors = st.fixed_dictionaries({f: small for f in FACTOR_FIELDS}).map(lambda d: Factors(**d))
ships = st.builds(Ships, small, small, small)
options = st.builds(Options, **{f: st.booleans() for f in Options.__dataclass_fields__})


@st.composite
def build_orders(draw):
    item = draw(st.sampled_from(BUILD_ITEMS))
    port = draw(slugs) if item in SHIP_ITEMS else None
    return BuildOrder(nation=draw(nations), item=item, count=draw(st.integers(1, 50)), arrives=draw(dates), port=port)


@st.composite
def peace_terms(draw):
    return PeaceTerm(
        victor=draw(powers),
        code=draw(st.sampled_from(PEACE_CONDITIONS)),
        since=draw(dates),
        until=draw(st.none() | dates),
        remaining=draw(st.none() | st.integers(0, 4)),
        target=draw(st.sampled_from((None, "GB", "america"))),
    )


b_c_codes = st.sampled_from([c for c in PEACE_CONDITIONS if not c.startswith("A.")])
a_codes = st.sampled_from([c for c in PEACE_CONDITIONS if c.startswith("A.")])
surrender = st.builds(
    SurrenderSettings,
    give_conditional=st.booleans(),
    terms=st.lists(b_c_codes, max_size=3, unique=True).map(tuple),
    accept_informal=st.booleans(),
    allow_separate_peace=st.booleans(),
    if_conditional_offered=st.none() | a_codes,
)
power_sets = sets(powers)
slug_sets = sets(slugs)
standing_orders = st.builds(
    StandingOrders,
    call_allies=st.dictionaries(powers, power_sets, max_size=2).map(FrozenMap),
    answer_calls=st.dictionaries(powers, power_sets, max_size=2).map(FrozenMap),
    request_alliance=power_sets,
    accept_control=slug_sets,
    withdraw_dow=st.dictionaries(powers, slug_sets, max_size=2).map(FrozenMap),
    support_minor=st.dictionaries(powers, slug_sets, max_size=2).map(FrozenMap),
    surrender=st.dictionaries(powers, surrender, max_size=2).map(FrozenMap),
    demand_break=power_sets,
    irregulars_retreat=st.booleans(),
    insurrection_triggers=slug_sets,
)
access = st.one_of(
    st.builds(Access, st.just(AccessKind.VOLUNTARY), st.none()),
    st.builds(Access, st.just(AccessKind.ENFORCED), st.none()),
    st.builds(Access, st.just(AccessKind.TEMPORARY), dates),
)


@st.composite
def power_states(draw, me: str):
    others = [p for p in POWERS if p != me]
    other = st.sampled_from(others)
    builds = draw(st.lists(build_orders(), max_size=3))
    terms = draw(st.lists(peace_terms(), max_size=2))
    return PowerState(
        controller=draw(st.sampled_from(list(PlayerKind))),
        treasury=draw(small),
        manpower=draw(small),
        political_status=draw(st.integers(-5, 30)),
        victory_points=draw(anyint),
        vp_bid=draw(small),
        minor_wars=FrozenMap(draw(st.dictionaries(slugs, dates, max_size=2))),
        war_with_america=draw(st.booleans()) if me == "GB" else False,
        enforced_peace=FrozenMap(draw(st.dictionaries(other, dates, max_size=2))),
        access=FrozenMap(draw(st.dictionaries(other, access, max_size=2))),
        trade=draw(power_sets),
        loans=FrozenMap(draw(st.dictionaries(nations, st.integers(1, 30), max_size=2))),
        builds=FrozenMap({b.key: b for b in builds}),
        returned_factors=draw(factors),
        peace_terms=FrozenMap({t.key: t for t in terms}),
        standing_orders=draw(standing_orders),
        manipulation=draw(st.integers(-5, 5)),
        skips=FrozenMap(draw(st.dictionaries(st.sampled_from(SKIPPABLE_PHASES), st.sampled_from(list(SkipMode)), max_size=2))),
        must_sue_for_peace=draw(st.booleans()),
        sue_off_display=draw(st.booleans()),
        failed_ai_requests=draw(st.integers(0, 5)),
    )


PAIRS = [(a, b) for i, a in enumerate(POWERS) for b in POWERS[i + 1:]]


@st.composite
def game_states(draw):
    start = draw(st.builds(Date, st.just(1805), st.integers(1, 12)))
    end = draw(st.builds(Date, st.integers(1806, 1815), st.integers(1, 12)))
    date = Date.from_index(draw(st.integers(start.index, end.index)))
    ps = {p: draw(power_states(p)) for p in POWERS}

    # Mutual relations, written on both sides.
    rel = {p: {"wars": {}, "alliances": {}, "royal_marriages": {}, "alliances_broken": {}, "informal_peace": {}}
           for p in POWERS}
    for a, b in PAIRS:
        kind = draw(st.sampled_from(("none", "war", "alliance")))
        if kind == "war":
            w = War(since=draw(dates), declared_by=draw(st.sampled_from(((a,), (b,), (a, b)))))
            rel[a]["wars"][b] = rel[b]["wars"][a] = w
        elif kind == "alliance":
            rel[a]["alliances"][b] = rel[b]["alliances"][a] = draw(dates)
        if draw(st.booleans()):
            rel[a]["royal_marriages"][b] = rel[b]["royal_marriages"][a] = draw(dates)
        if draw(st.booleans()):
            rel[a]["alliances_broken"][b] = rel[b]["alliances_broken"][a] = draw(dates)
        if draw(st.booleans()):
            rel[a]["informal_peace"][b] = rel[b]["informal_peace"][a] = draw(dates)
    powers_map = FrozenMap({p: ps[p].replace(**{k: FrozenMap(v) for k, v in rel[p].items()}) for p in POWERS})

    # Minors: maybe one joined major/secondary pair, others single.
    minors = {}
    for slug in draw(st.lists(slugs, max_size=5, unique=True)):
        status = draw(st.sampled_from([s for s in MinorStatus if s is not MinorStatus.SECONDARY_DISTRICT]))
        ctrl = None if status is MinorStatus.NEUTRAL else draw(powers)
        minors[slug] = MinorCountry(
            status=status,
            controller=ctrl,
            kingdom=draw(st.none() | st.just("confederation-of-the-rhine")),
            provinces=draw(sets(st.sampled_from(("masovia", "posen", "tyrol")))),
            stored_factors=draw(factors),
            stored_ships=draw(ships),
            setup_due=draw(st.booleans()),
            treasury=draw(small),
            manpower=draw(small),
        )
    if draw(st.booleans()):
        minors["denmark"] = MinorCountry(status=MinorStatus.NEUTRAL, districts=("norway",))
        minors["norway"] = MinorCountry(status=MinorStatus.SECONDARY_DISTRICT, part_of="denmark")

    # Units: fleets first, so corps and depots may be aboard them.
    units = {}
    for nation, name in draw(st.lists(st.tuples(nations, st.sampled_from(NAMES)), max_size=4, unique=True)):
        mission = draw(st.sampled_from(list(FleetMission)))
        f = Fleet(
            id=f"fleet:{nation}:{name}",
            nation=nation,
            location=draw(st.builds(Location, st.sampled_from((LocationKind.SEA, LocationKind.PORT, LocationKind.BLOCKADE)), slugs)),
            ships=draw(ships),
            loaned_to=draw(st.none() | powers),
            mission=mission,
            piracy_target=draw(powers) if mission is FleetMission.PIRACY else None,
            piracy_months=draw(st.integers(0, 3)),
            placeable_until=draw(st.none() | dates),
        )
        units[f.id] = f
    fleet_ids = [k for k in units]
    land_locs = st.builds(Location, st.sampled_from((LocationKind.AREA, LocationKind.CITY)), slugs) | st.just(Location(LocationKind.POOL))
    if fleet_ids:
        land_locs = land_locs | st.builds(Location, st.just(LocationKind.ABOARD), st.sampled_from(fleet_ids))
    for nation, name in draw(st.lists(st.tuples(nations, st.sampled_from(NAMES)), max_size=6, unique=True)):
        c = Corps(
            id=f"corps:{nation}:{name}",
            nation=nation,
            corps_type=draw(st.sampled_from(list(CorpsType))),
            location=draw(land_locs),
            factors=draw(factors),
            morale=FrozenMap(draw(st.dictionaries(st.sampled_from(["infantry", "cavalry", "guard"]), st.integers(0, 1000), max_size=2))),
            loaned_to=draw(st.none() | powers),
            besieging=draw(st.booleans()),
            placeable_until=draw(st.none() | dates),
        )
        units[c.id] = c
    for power, n in draw(st.lists(st.tuples(powers, st.integers(1, 9)), max_size=3, unique=True)):
        d = Depot(id=f"depot:{power}:{n}", power=power, location=draw(land_locs))
        units[d.id] = d
    for nation, kind, site in draw(st.lists(st.tuples(nations, st.sampled_from((LocationKind.CITY, LocationKind.AREA)), slugs), max_size=3, unique=True)):
        loc = Location(kind, site)
        g = Garrison(id=garrison_id(nation, loc), nation=nation, location=loc, factors=draw(factors))
        units[g.id] = g

    leaders = {}
    attachable = [k for k, u in units.items() if isinstance(u, (Corps, Fleet))]
    for power, name in draw(st.lists(st.tuples(powers, st.sampled_from(("napoleon", "charles", "nelson", "kutuzov"))), max_size=4, unique=True)):
        statuses = [s for s in LeaderStatus if s is not LeaderStatus.ON_MAP or attachable]
        status = draw(st.sampled_from(statuses))
        leaders[f"leader:{power}:{name}"] = Leader(
            id=f"leader:{power}:{name}",
            power=power,
            status=status,
            attached_to=draw(st.sampled_from(attachable)) if status is LeaderStatus.ON_MAP else None,
            captured_by=draw(powers) if status is LeaderStatus.CAPTURED else None,
            returns=draw(dates) if status in (LeaderStatus.INACTIVE, LeaderStatus.REMOVED) else None,
            loaned_to=draw(st.none() | powers),
        )

    prisoners = {}
    for captor, nation in draw(st.lists(st.tuples(powers, nations), max_size=3, unique=True)):
        prisoners[prisoners_key(captor, nation)] = Prisoners(captor, nation, draw(factors))

    setup = sequence.setup_slots() if date == start else ()
    slot = draw(st.sampled_from(sequence.month_slots(date) + setup) | st.none())
    slot_key = (slot or first_slot()).key(date)
    pending = {}
    for i in range(draw(st.integers(0, 2))):
        pid = f"battle/{draw(slugs)}/{i}"
        pending[pid] = PendingDecision(
            id=pid,
            power=draw(powers),
            kind=draw(st.sampled_from(("battle.chit", "naval.intercept", "siege.sortie"))),
            options=tuple(draw(st.lists(st.text(min_size=1, max_size=5), min_size=1, max_size=4, unique=True))),
            slot=slot_key,
            context=draw(param_maps),
        )
    battles = {}
    corps_ids = [k for k, u in units.items() if isinstance(u, Corps)]
    if len(corps_ids) >= 2 and draw(st.booleans()):
        bid = f"battle:{date}:{draw(slugs)}:{draw(st.integers(0, 3))}"
        half = len(corps_ids) // 2

        def side(role, ids):
            return BattleSide(
                role=role, power=draw(st.none() | powers), units=tuple(ids),
                outflanking=tuple(draw(st.lists(st.sampled_from(ids), max_size=1))), arrived=draw(st.booleans()),
                chit=draw(st.sampled_from(("", "outflank", "defend"))), base_morale=draw(st.integers(0, 500)),
                final_morale=draw(st.integers(-100, 500)), morale_loss=draw(st.integers(0, 600)),
                pending_loss=draw(st.integers(0, 5)), loss_mode=draw(st.sampled_from(("", "combat", "pursuit"))),
            )

        battles[bid] = FieldBattle(
            id=bid, kind=draw(st.sampled_from(("field", "trivial"))), area=draw(slugs), terrain="clear",
            river_crossing=draw(st.booleans()), attacker=side("attacker", corps_ids[:half]),
            defender=side("defender", corps_ids[half:]), day=draw(st.integers(1, 3)), round=draw(st.integers(0, 3)),
            stage=draw(st.sampled_from(("chits", "combat-losses", "done"))),
            events=tuple(draw(st.lists(st.builds(BattleEvent, day=st.integers(0, 3), round=st.integers(0, 3),
                                                 kind=st.just("battle.round"), text=st.text(max_size=20),
                                                 params=param_maps), max_size=2))),
        )
    log = tuple(
        draw(
            st.lists(
                st.builds(
                    LogEntry,
                    slot=st.just(slot_key),
                    author=st.sampled_from(POWERS + ("host", "game")),
                    kind=st.sampled_from(("war.declared", "host.money", "battle")),
                    text=st.text(max_size=30),
                    params=param_maps,
                ),
                max_size=3,
            )
        )
    )
    return GameState(
        format=STATE_FORMAT,
        scenario=draw(st.sampled_from(("classic-1805", "alternate-1805"))),
        start=start,
        end=end,
        date=date,
        slot=slot,
        options=draw(options),
        move_order=MoveOrder(draw(st.integers(1, 7)), draw(st.integers(1, 7))),
        powers=powers_map,
        minors=FrozenMap(minors),
        area_control=FrozenMap(draw(st.dictionaries(slugs, nations, max_size=4))),
        city_control=FrozenMap(draw(st.dictionaries(slugs, st.builds(CityControl, nations, dates), max_size=4))),
        ceded_provinces=FrozenMap(draw(st.dictionaries(slugs, powers, max_size=2))),
        units=FrozenMap(units),
        leaders=FrozenMap(leaders),
        prisoners=FrozenMap(prisoners),
        pending=FrozenMap(pending),
        log=log,
        victors=draw(sets(powers)),
        battles=FrozenMap(battles),
    )


def sample_meta(**parts):
    """A save's record of who plays what (``pbem.bodies.SaveMeta``), with ``parts`` (sealed orders, reactions ...)."""
    from eiapbem.pbem import bodies

    players = {p: {"name": p, "email": f"{p.lower()}@example.org", "type": "hotseat"} for p in POWERS}
    return bodies.SaveMeta.from_obj({"scenario": "classic-1805", "players": players,
                                     "host": {"name": "Host", "email": "host@example.org"}, "versions": {},
                                     "head": None, "reloads": {}, "based_on": "", "sealed": {},
                                     "reactions": {}, "ahead": {}, "release": ""}).replace(**parts)


def sample_state() -> GameState:
    """A fixed state touching most parts of the model (also built in subprocesses)."""
    s = GameState.new("classic-1805", Date(1805, 1), Date(1815, 12), options=Options(economic_manipulation=True))
    s = s.with_power("FR", treasury=45, manpower=12, political_status=20, victory_points=3)
    s = s.with_power("RU", treasury=37, skips=FrozenMap({Phase.NAVAL: SkipMode.CONTINUOUS}))
    s = s.with_war("FR", "GB", Date(1805, 1), ("FR",)).with_alliance("AU", "RU", Date(1805, 1))
    fleet = Fleet(id="fleet:GB:1", nation="GB", location=Location(LocationKind.SEA, "north-sea"), ships=Ships(heavy=20, light=3))
    corps = Corps(
        id="corps:FR:III",
        nation="FR",
        corps_type=CorpsType.REGULAR,
        location=Location(LocationKind.AREA, "ulm"),
        factors=Factors(infantry=12, cavalry=2, guard=1),
    )
    s = s.with_unit(fleet).with_unit(corps)
    s = s.replace(city_control=FrozenMap({"vienna": CityControl("FR", Date(1805, 1))}))
    s = s.with_leader(Leader(id="leader:FR:napoleon", power="FR", status=LeaderStatus.ON_MAP, attached_to="corps:FR:III"))
    s = s.with_minor("bavaria", MinorCountry(status=MinorStatus.INFLUENCED, controller="FR"))
    s = s.replace(
        minors=s.minors.set("denmark", MinorCountry(status=MinorStatus.NEUTRAL, districts=("norway",), stored_ships=Ships(heavy=19))).set(
            "norway", MinorCountry(status=MinorStatus.SECONDARY_DISTRICT, part_of="denmark")
        )
    )
    s = s.with_log(LogEntry(slot="1805-01/setup/turn/RU", author="host", kind="host.money", text="Host gave France $5.", params=FrozenMap({"amount": 5})))
    return s
