"""The battle record every land combat shares (11.2, 11.3) and the facts it reads.

A battle lives in ``GameState.battles`` under an id like
``battle:1805-09:ulm:0`` and moves on only through pending decisions
(``engine.AnswerDecision``), so it can be stopped after any answer, encoded
with the state and resumed elsewhere with the same outcome.  Everything it
did is in ``FieldBattle.events``: the battle report (``report.py``) is a
rendering of them.

The helpers here read a force from the state: its factors, who answers for
it, morale values (NATIONAL MORALE VALUES CHART, 000:3183-3196), leaders'
ratings from the world data and intrinsic ratings (13.8.5, 000:2658-2680).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any

from eiapbem.rules.model.base import FrozenMap, OneOf, Pattern, Range, Record, SortedSet
from eiapbem.rules.model.common import POWERS, FactorType, NonNeg, Param, PowerId, Slug
from eiapbem.rules.model.decisions import Kind
from eiapbem.rules.model.units import Corps, CorpsType, Factors, Garrison, LeaderId, LeaderStatus, UnitId
from eiapbem.rules.tables import land

BATTLE_ID_RE = r"battle:\d{4}-\d{2}:[a-z0-9]+(?:-[a-z0-9]+)*:\d+"
BattleId = Annotated[str, Pattern(BATTLE_ID_RE, "battle id like battle:1805-09:ulm:0")]
Role = Annotated[str, OneOf(land.SIDES)]
UnitSet = Annotated[tuple[UnitId, ...], SortedSet()]
SlugSet = Annotated[tuple[Slug, ...], SortedSet()]

FIELD = "field"
TRIVIAL = "trivial"

#: Cavalry for every purpose of combat: superiority, the breaking round's loss, pursuit (11.2.9, 000:1780, 000:1792).
CAVALRY_TYPES = (FactorType.CAVALRY, FactorType.FEUDAL_CAVALRY, FactorType.COSSACK, FactorType.FREIKORPS)

#: Intrinsic (strategic, tactical) ratings of the major powers and Sweden (13.8.5, 000:2660-2680).
INTRINSIC_RATINGS: dict[str, tuple[int, int]] = {
    "FR": (2, 2), "GB": (2, 2), "RU": (1, 2), "AU": (1, 1), "PR": (1, 1), "TU": (1, 1), "SP": (1, 1), "sweden": (2, 1),
}
OTHER_MINOR_INTRINSIC = (1, 1)
SENIORITY = ("A", "B", "C", "D")


@dataclass(frozen=True, slots=True)
class BattleEvent(Record):
    """One thing that happened in a battle, with the numbers behind it (the report's lines)."""

    day: NonNeg
    round: NonNeg
    kind: Kind
    text: str
    params: FrozenMap[str, Param] = FrozenMap()


@dataclass(frozen=True, slots=True)
class BattleSide(Record):
    """One side of a battle: its force, its choices and what it has suffered."""

    role: Role
    #: The major power that answers the side's decisions; None: a neutral minor's force (answered automatically).
    power: PowerId | None
    #: Corps and depot garrisons in the force, in the order they joined (reinforcements last).
    units: tuple[UnitId, ...]
    #: The day's outflanking force (11.2.2); empty when the side does not outflank.
    outflanking: UnitSet = ()
    arrived: bool = False
    chit: str = ""
    commander: LeaderId | None = None
    #: The commander has been settled for the battle (13.8.6); a tie may need the owner's choice.
    commander_chosen: bool = False
    #: Hundredths (11.2.5): base morale fixed on day 1, final morale of the current day, accumulated loss.
    base_morale: NonNeg = 0
    final_morale: int = 0
    morale_loss: NonNeg = 0
    #: Day on which the guard was committed (0: not yet; once per day, 11.2.8) and this round's shift.
    guard_day: NonNeg = 0
    guard_shift: Annotated[int, Range(0, 2)] = 0
    guard_nation: str = ""
    #: Factors still to be taken as losses now; for pursuit, in sixths of a cavalry factor (000:1838).
    pending_loss: NonNeg = 0
    loss_mode: Annotated[str, OneOf(("", "bombard", "combat", "pursuit"))] = ""
    cavalry_due: bool = False
    factors_lost: NonNeg = 0
    #: Corps that took part in a round, and those that began or joined with more than 20 factors (000:1818).
    corps_used: UnitSet = ()
    big_corps: UnitSet = ()
    #: Cavalry factors fighting at the beginning of this round (cavalry superiority, 000:1780).
    round_cavalry: NonNeg = 0
    #: Adjacent areas already tried for reinforcement after this round (11.2.11).
    reinforce_tried: SlugSet = ()
    end_choice: Annotated[str, OneOf(("", "fight", "withdraw"))] = ""
    #: The committed guard was all lost: the side breaks without fighting this round (000:1746).
    guard_broke: bool = False
    broken: bool = False
    #: The side must leave the area after the battle (11.2.10, 11.2.13).
    retreat: bool = False


@dataclass(frozen=True, slots=True)
class FieldBattle(Record):
    """A field (11.2) or trivial (11.3) combat in progress or finished."""

    id: BattleId
    kind: Annotated[str, OneOf((FIELD, TRIVIAL))]
    area: Slug
    terrain: Slug
    #: Every attacking force crossed a river or crossing arrow or disembarked (000:1714).
    river_crossing: bool
    attacker: BattleSide
    defender: BattleSide
    day: Annotated[int, Range(1, None)] = 1
    round: Annotated[int, Range(0, 3)] = 0
    rounds_fought: NonNeg = 0
    stage: Slug = "chits"
    #: Counter of decisions asked, so every decision id is new.
    asked: NonNeg = 0
    #: "" while running; then attacker, defender, none.
    winner: Annotated[str, OneOf(("", "attacker", "defender", "none"))] = ""
    result: str = ""
    events: tuple[BattleEvent, ...] = ()

    def side(self, role: str) -> BattleSide:
        return self.attacker if role == land.ATTACKER else self.defender

    def with_side(self, side: BattleSide) -> FieldBattle:
        return self.replace(**{side.role: side})

    @property
    def finished(self) -> bool:
        return self.stage == "done"


def other(role: str) -> str:
    return land.DEFENDER if role == land.ATTACKER else land.ATTACKER


# ----------------------------------------------------------------- reading forces


def unit_factors(state: Any, unit_id: str) -> Factors:
    unit = state.units.get(unit_id)
    if isinstance(unit, (Corps, Garrison)):
        return unit.factors
    return Factors()


def force_factors(state: Any, unit_ids: tuple[str, ...]) -> Factors:
    total = Factors()
    for u in unit_ids:
        total = total + unit_factors(state, u)
    return total


def cavalry(f: Factors) -> int:
    return sum(f.get(t) for t in CAVALRY_TYPES)


def controlling_power(state: Any, nation: str, loaned_to: str | None = None) -> str | None:
    """The major power that commands a nation's units (7.6 loans; 6.1 minor controllers)."""
    if loaned_to is not None:
        return loaned_to
    if nation in POWERS:
        return nation
    minor = state.minors.get(nation)
    return None if minor is None else minor.controller


def unit_power(state: Any, unit_id: str) -> str | None:
    unit = state.units[unit_id]
    return controlling_power(state, unit.nation, getattr(unit, "loaned_to", None))


def is_corps(state: Any, unit_id: str) -> bool:
    return isinstance(state.units.get(unit_id), Corps)


def is_irregular(state: Any, unit_id: str) -> bool:
    unit = state.units.get(unit_id)
    return isinstance(unit, Corps) and unit.corps_type in (CorpsType.COSSACK, CorpsType.FREIKORPS, CorpsType.GUERRILLA)


def is_artillery_corps(state: Any, unit_id: str) -> bool:
    f = unit_factors(state, unit_id)
    return f.total > 0 and f.artillery == f.total


def leaders_with(state: Any, unit_ids: tuple[str, ...]) -> tuple[str, ...]:
    """Leaders on the map stacked with these units, in the units' order then by id."""
    out = []
    for u in unit_ids:
        out.extend(sorted(lid for lid, l in state.leaders.items() if l.status is LeaderStatus.ON_MAP and l.attached_to == u))
    return tuple(out)


def leader_data(world: Any, leader_id: str) -> dict:
    """Ratings of a leader from the world data (``leaders.json``); all zero if unknown."""
    _, power, name = leader_id.split(":")
    for rec in (world or {}).get("leaders.json", {}).get("leaders", ()):
        if rec.get("id") == name and rec.get("power") == power:
            return rec
    return {"id": name, "power": power, "strategic": 0, "tactical": 0, "tactical_max": 1, "seniority": "D", "cavalry": False}


def intrinsic_ratings(state: Any, unit_ids: tuple[str, ...]) -> tuple[int, int]:
    """(strategic, tactical) of the best corps present, or 0/0 without corps (13.8.5, 000:2658)."""
    best_s = best_t = None
    for u in unit_ids:
        unit = state.units.get(u)
        if not isinstance(unit, Corps) or unit.corps_type in (CorpsType.COSSACK, CorpsType.GUERRILLA):
            continue
        s, t = INTRINSIC_RATINGS.get(unit.nation, OTHER_MINOR_INTRINSIC)
        best_s = s if best_s is None else max(best_s, s)
        best_t = t if best_t is None else max(best_t, t)
    return (best_s or 0, best_t or 0)


def morale_value(state: Any, world: Any, unit_id: str, kind: FactorType) -> int:
    """A factor's morale value in hundredths (NATIONAL MORALE VALUES CHART, 000:3183-3196)."""
    unit = state.units[unit_id]
    if isinstance(unit, Corps) and kind in unit.morale:
        return unit.morale[kind]
    nation = unit.nation
    if kind in (FactorType.COSSACK, FactorType.FREIKORPS, FactorType.GUERRILLA):
        return 100
    if kind in (FactorType.FEUDAL_INFANTRY, FactorType.FEUDAL_CAVALRY):
        return 200
    if kind is FactorType.MILITIA:
        return 200
    if kind is FactorType.GUARD:
        return 500
    if nation not in POWERS:
        minor = _minor_morale(world, nation)
        if kind is FactorType.CAVALRY:
            return minor.get("cavalry", 300)
        return minor.get("infantry", 300)
    if kind is FactorType.CAVALRY:
        return 300 if nation in ("SP", "TU") else 400
    if kind is FactorType.INFANTRY and nation == "GB":
        return 450
    return 400 if nation == "FR" else 300


def _minor_morale(world: Any, nation: str) -> dict:
    for m in (world or {}).get("minors.json", {}).get("minors", ()):
        if m.get("id") == nation:
            return m.get("morale") or {}
    return {}
