"""The first state of a game, built from a scenario (5.3.1, 5.3.2; 000:334-528).

A pure function of the scenario's data, the world data and the host's choices
(options, who plays which power, GAP bids and pre-existing wars).  The
scenario's army factors and ships go to each power's ``unplaced_factors`` /
``unplaced_ships`` (all must be placed in the setup phase, 5.1); every corps,
fleet and depot counter starts in the counter pool; leaders named available by
the scenario are available, the others not yet in the game.  Minor countries
get the status, controller and forces of the scenario's set-up table; a free
state's forces wait for its controller to set them up (7.3), other minors keep
their listed forces for when war comes (5.3.1 note (a), 000:416).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from eiapbem.core.errors import BadData
from eiapbem.rules.model import (
    POOL,
    POWERS,
    Corps,
    CorpsType,
    Date,
    Depot,
    Factors,
    Fleet,
    GameState,
    Leader,
    LeaderStatus,
    MinorCountry,
    MinorStatus,
    Options,
    PlayerKind,
    Ships,
    War,
)
from eiapbem.rules.model.base import FrozenMap

_STATUS = {
    "neutral": MinorStatus.NEUTRAL,
    "influenced": MinorStatus.INFLUENCED,
    "ally": MinorStatus.ALLIED,
    "conquered": MinorStatus.CONQUERED,
    "free-state": MinorStatus.FREE_STATE,
    "district": MinorStatus.SECONDARY_DISTRICT,
}
_CORPS_TYPE = {
    "feudal": CorpsType.FEUDAL,
    "insurrection": CorpsType.INSURRECTION,
    "tyrol": CorpsType.TYROL,
    "cossack": CorpsType.COSSACK,
    "freikorps": CorpsType.FREIKORPS,
    "guerrilla": CorpsType.GUERRILLA,
}


def _date(d: Mapping[str, int]) -> Date:
    return Date(d["year"], d["month"])


def _factors(d: Mapping[str, int]) -> Factors:
    return Factors(**{k: v for k, v in d.items() if k in Factors.__dataclass_fields__ and v})


def _ships(d: Mapping[str, int]) -> Ships:
    return Ships(**{k: v for k, v in d.items() if k in Ships.__dataclass_fields__ and v})


def _leaders(scenario: Mapping[str, Any], world: Mapping[str, Any]) -> dict[str, Leader]:
    out: dict[str, Leader] = {}
    for lead in world["leaders.json"]["leaders"]:
        power = lead["power"]
        rule = scenario["powers"][power]["leaders"]
        if "only" in rule:
            available = lead["id"] in rule["only"]
        else:
            available = lead["id"] not in rule["all_except"]
        lid = f"leader:{power}:{lead['id']}"
        out[lid] = Leader(id=lid, power=power, status=LeaderStatus.AVAILABLE if available else LeaderStatus.UNAVAILABLE)
    return out


def _counters(owner: str, block: Mapping[str, Any]) -> list[Any]:
    units: list[Any] = []
    for c in block.get("corps", []):
        kind = _CORPS_TYPE.get(c["kind"], CorpsType.REGULAR)
        # Feudal (13.2.3) and insurrection (13.2.4) corps start at full strength, off the map
        # (5.3.1, 000:342-344); every other counter starts empty.
        full = _factors(c["max"]) if kind in (CorpsType.FEUDAL, CorpsType.INSURRECTION) else Factors()
        units.append(Corps(id=c["id"], nation=owner, corps_type=kind, location=POOL, factors=full))
    for f in block.get("fleets", []):
        units.append(Fleet(id=f["id"], nation=owner, location=POOL))
    return units


def _minors(scenario: Mapping[str, Any], world: Mapping[str, Any]) -> dict[str, MinorCountry]:
    table = {m["id"]: m for m in world["minors.json"]["minors"]}
    rows = scenario["minors"]
    joined: dict[str, list[str]] = {}
    for mid, row in rows.items():
        if row["status"] == "district":
            joined.setdefault(row["country"], []).append(mid)
    out: dict[str, MinorCountry] = {}
    for mid, row in sorted(rows.items()):
        if mid not in table:
            raise BadData(f"scenario {scenario['id']}: minor {mid!r} is not in minors.json")
        status = _STATUS[row["status"]]
        forces = row.get("forces", {})
        out[mid] = MinorCountry(
            status=status,
            controller=row.get("controller"),
            districts=tuple(sorted(joined.get(mid, ()))),
            part_of=row.get("country") if status is MinorStatus.SECONDARY_DISTRICT else None,
            stored_factors=_factors(forces),
            stored_ships=_ships(forces),
            setup_due=status is MinorStatus.FREE_STATE,
        )
    return out


def initial_state(
    scenario: Mapping[str, Any],
    world: Mapping[str, Any],
    *,
    options: Options = Options(),
    players: Mapping[str, PlayerKind] | None = None,
    vp_bids: Mapping[str, int] | None = None,
    wars: Iterable[tuple[str, str]] = (),
) -> GameState:
    """The game at the start of the setup phase of ``scenario``.

    ``wars`` are the pre-existing wars of a GAP selection, ``(aggressor, target)``
    (4.2.10); the "Great Britain and France start at war" option adds one.
    """
    players = dict(players or {})
    vp_bids = dict(vp_bids or {})
    start = _date(scenario["start"])
    units: dict[str, Any] = {}
    for owner, block in world["counters.json"]["powers"].items():
        for u in _counters(owner, block):
            units[u.id] = u
    for owner, block in world["counters.json"]["minors"].items():
        for u in _counters(owner, block):
            units[u.id] = u
    powers = {}
    for p in POWERS:
        row = scenario["powers"][p]
        for i in range(1, row["depots"] + 1):
            d = Depot(id=f"depot:{p}:{i}", power=p, location=POOL)
            units[d.id] = d
        powers[p] = (
            GameState.new(scenario["id"], start, _date(scenario["end"])).powers[p].replace(
                controller=players.get(p, PlayerKind.HUMAN),
                treasury=row["money"],
                manpower=row.get("manpower", 0),
                political_status=row["status"],
                vp_bid=vp_bids.get(p, 0),
                unplaced_factors=_factors(row["factors"]),
                unplaced_ships=_ships(row["ships"]),
            )
        )
    state = GameState.new(
        scenario["id"],
        start,
        _date(scenario["end"]),
        options=options,
        powers=FrozenMap(powers),
        minors=FrozenMap(_minors(scenario, world)),
        units=FrozenMap(sorted(units.items())),
        leaders=FrozenMap(sorted(_leaders(scenario, world).items())),
    )
    pairs = {tuple(w) for w in wars} | {tuple(w) for w in scenario.get("relations", {}).get("wars", [])}
    if options.gb_and_fr_start_at_war and ("GB", "FR") not in pairs and ("FR", "GB") not in pairs:
        pairs.add(("FR", "GB"))
    for aggressor, target in sorted(pairs):
        if aggressor not in POWERS or target not in POWERS or aggressor == target:
            raise BadData(f"a pre-existing war {aggressor}->{target} is not between two major powers")
        existing = state.powers[aggressor].wars.get(target)
        declared = tuple(sorted(set((existing.declared_by if existing else ()) + (aggressor,))))
        # Dated to the first month, as the computer players count a war's months from it; declared before the game,
        # so it cancels no skip setting of its target (13.9.1, 000:2738; docs/decisions.md 13.9).
        state = state.with_war(aggressor, target, start, declared, before_game=True)
    # The items a scenario file made with the editor adds (14.3, 14.4).
    from eiapbem.rules import scenario_edits

    return scenario_edits.apply(state, scenario, options)


__all__ = ["initial_state", "War"]
