"""The battle record every land combat shares (11.2, 11.3) and the facts it reads.

The records (``FieldBattle``, ``BattleSide``, ``BattleEvent``) are defined in
``eiapbem.rules.model.battles`` (the state model holds them) and re-exported
here.  A battle lives in ``GameState.battles`` under an id like
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

from typing import Any

from eiapbem.rules import relations
from eiapbem.rules.model.base import FrozenMap
from eiapbem.rules.model.battles import (  # noqa: F401  (re-exported: the shared battle record)
    BATTLE_ID_RE,
    FIELD,
    TRIVIAL,
    BattleEvent,
    BattleId,
    BattleSide,
    FieldBattle,
)
from eiapbem.rules.model.common import POWERS, FactorType
from eiapbem.rules.model.units import Corps, CorpsType, Factors, Garrison, LeaderStatus
from eiapbem.rules.tables import forces, land

#: Cavalry for every purpose of combat: superiority, the breaking round's loss, pursuit (11.2.9, 000:1780, 000:1792).
CAVALRY_TYPES = (FactorType.CAVALRY, FactorType.FEUDAL_CAVALRY, FactorType.COSSACK, FactorType.FREIKORPS)

#: Intrinsic (strategic, tactical) ratings of the major powers and Sweden (13.8.5, 000:2660-2680).
INTRINSIC_RATINGS: dict[str, tuple[int, int]] = {
    "FR": (2, 2), "GB": (2, 2), "RU": (1, 2), "AU": (1, 1), "PR": (1, 1), "TU": (1, 1), "SP": (1, 1), "sweden": (2, 1),
}
OTHER_MINOR_INTRINSIC = (1, 1)
SENIORITY = ("A", "B", "C", "D")


ROLES = (land.ATTACKER, land.DEFENDER)


def other(role: str) -> str:
    return land.DEFENDER if role == land.ATTACKER else land.ATTACKER


def event(battle: FieldBattle, kind: str, text: str, **params: Any) -> FieldBattle:
    """``battle`` with one more event of its report, dated by its day and round."""
    ev = BattleEvent(day=battle.day, round=battle.round, kind=kind, text=text, params=FrozenMap(params))
    return battle.replace(events=battle.events + (ev,))


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


def power_of_unit_id(state: Any, unit_id: str) -> str | None:
    """The power that commands the unit ``unit_id`` (``relations.unit_power``: 7.6 loans, 6.1 minor controllers)."""
    return relations.unit_power(state, state.units[unit_id])


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
    """A factor's morale value in hundredths (NATIONAL MORALE VALUES CHART, 000:3183-3196; a minor's own from the
    minor country chart, the Ottoman Empire's parts 12.8.3), in field combat and sieges alike."""
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
        kingdom = state.minors[nation].kingdom if nation in state.minors else None
        if kingdom == forces.OTTOMAN_EMPIRE and kind in (FactorType.INFANTRY, FactorType.CAVALRY):
            # 12.8.3 (000:2336), minor chart note (c) (000:428): a part of the Empire, better under Turkey.
            return forces.ottoman_morale(kind.value, turkish_controlled=relations.power_of(state, nation) == "TU")
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


def side_powers(state: Any, side: BattleSide) -> tuple[str, ...]:
    """The major powers of a side: its answering power and the controllers of its units."""
    ps = {p for p in (power_of_unit_id(state, u) for u in side.units) if p is not None}
    if side.power is not None:
        ps.add(side.power)
    return tuple(sorted(ps))
