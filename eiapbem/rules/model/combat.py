"""Naval battles (9.0-9.5) and sieges (11.4) in progress or fought, kept in the state.

A battle or a siege is a small state machine (``eiapbem.rules.naval.battle``,
``eiapbem.rules.combat.sieges``): its record says which step it has reached,
what was decided and rolled so far, and what came out.  Between two pending
decisions everything it needs is here, so it can be stopped, serialised with
the game (``GameState.encode``) and resumed elsewhere with the same outcome.
A finished record stays as the battle report's source (its ``report`` lines
and its fields are the readable and the JSON-able forms).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from eiapbem.rules.model.base import FrozenMap, OneOf, Pattern, Range, Record, SortedSet
from eiapbem.rules.model.common import NationId, NonNeg, PowerId, Slug
from eiapbem.rules.model.units import FleetId, Location, Ships, UnitId

BattleId = Annotated[str, Pattern(r"[a-z0-9]+(?:[-.][a-z0-9]+)*", "battle id like 1805-10.cape-st-vincent.1")]
Side = Annotated[str, OneOf(("attacker", "defender"))]
FleetSet = Annotated[tuple[FleetId, ...], SortedSet()]

NAVAL_STEPS = ("evasion", "evade", "pursuit", "resolve", "losses-attacker", "losses-defender", "retreat", "enter-port", "done")
EVASION_ORDERS = ("no-evade", "evade-stronger", "evade-all")


@dataclass(frozen=True, slots=True)
class NavalBattle(Record):
    """One naval combat (9.0): who fights where, the step reached, and the results."""

    id: BattleId
    #: The phasing power (9.1: the attacker is the phasing side).
    power: PowerId
    #: The sea area, port or blockade box fought in.
    location: Location
    interception: bool
    #: A side with the wind gauge without a roll: blockaders against fleets leaving
    #: or entering their port (9.2.1); port attackers always have it.
    wind_gauge_to: Side | None
    #: In a blockade box: the side whose stack came out of the port (9.4.3).
    from_port: Side | None
    attackers: FleetSet
    defenders: FleetSet
    #: Ships of every fleet as the combat began.
    start: FrozenMap[FleetId, Ships]
    step: Annotated[str, OneOf(NAVAL_STEPS)] = "evasion"
    evasion: Annotated[str, OneOf(EVASION_ORDERS)] = "no-evade"
    #: Attacking fleets asked about pursuit so far, and those that pursue (9.2.2.1).
    pursuit_asked: FleetSet = ()
    pursuers: FleetSet = ()
    #: "", "fought", "forced-retreat" (9.2.1.2), "evaded" (9.2.1.1) or "captured"
    #: (transports with no warship beside them, 8.1.3).
    outcome: Annotated[str, OneOf(("", "fought", "forced-retreat", "evaded", "captured"))] = ""
    wind_gauge: Side | None = None
    wind: FrozenMap[Side, int] = FrozenMap()
    fire: FrozenMap[Side, int] = FrozenMap()
    percent: FrozenMap[Side, int] = FrozenMap()
    harbour_defence: NonNeg = 0
    harbour_losses: NonNeg = 0
    losses: FrozenMap[Side, NonNeg] = FrozenMap()
    #: Ships each fleet lost (heavy and light; captured transports too).
    fleet_losses: FrozenMap[FleetId, Ships] = FrozenMap()
    victor: Side | None = None
    #: Sides whose survivors retreat (9.4).
    retreating: Annotated[tuple[Side, ...], SortedSet()] = ()
    political_points: FrozenMap[PowerId, int] = FrozenMap()
    #: Where each fleet went after the combat (retreat, pursuit, entering port).
    moves: FrozenMap[FleetId, Location] = FrozenMap()
    #: Counters captured (transports' passengers, 8.1.3) or removed empty (9.5).
    captured: Annotated[tuple[UnitId, ...], SortedSet()] = ()
    removed: FleetSet = ()
    nelson_captured_by: PowerId | None = None
    #: The readable report, one line per event.
    report: tuple[str, ...] = ()
    #: A port evacuation battle (8.7): the attackers leave an enemy-held port past
    #: the blockaders, without any player's input; if they do not win they are scuttled.
    evacuation: bool = False
    #: Fleets scuttled after losing an evacuation battle (8.7).
    scuttled: FleetSet = ()


SIEGE_STEPS = ("sortie", "surrender", "casualties", "retreat", "done")
SIEGE_KINDS = ("assault", "garrison-attack")


@dataclass(frozen=True, slots=True)
class SiegeRound(Record):
    """One round of an assault or garrison attack combat (11.4.1, 11.4.2)."""

    number: Annotated[int, Range(1, 3)]
    #: Die and table of each side ("besieger", "defender").
    dice: FrozenMap[str, int]
    tables: FrozenMap[str, str]
    #: Factors lost by each side and morale loss (hundredths) it suffered.
    losses: FrozenMap[str, NonNeg]
    morale_loss: FrozenMap[str, NonNeg]


@dataclass(frozen=True, slots=True)
class Siege(Record):
    """An assault attempt and what follows it, or a garrison attack (11.4)."""

    id: BattleId
    kind: Annotated[str, OneOf(SIEGE_KINDS)]
    #: The besieged city, by its area.
    city: Slug
    besieger: PowerId
    #: The nation (power or minor) holding the city.
    defender: NationId
    #: Besieging corps and the defending garrisons and corps inside the city.
    besiegers: Annotated[tuple[UnitId, ...], SortedSet()]
    defenders: Annotated[tuple[UnitId, ...], SortedSet()]
    siege_value: NonNeg = 0
    step: Annotated[str, OneOf(SIEGE_STEPS)] = "done"
    die: NonNeg = 0
    random_number: int = 0
    #: "sortie?", "nr" or "breach" (11.4.1); empty for a garrison attack.
    result: str = ""
    answer: str = ""
    #: Final morale levels of each side ("besieger", "defender"), hundredths.
    morale: FrozenMap[str, NonNeg] = FrozenMap()
    rounds: tuple[SiegeRound, ...] = ()
    #: Casualties still to take in the current round: side -> factors.
    owed: FrozenMap[str, NonNeg] = FrozenMap()
    #: "", "captured", "surrendered", "resumed", "besieger-retreats", "nothing".
    outcome: str = ""
    political_points: FrozenMap[PowerId, int] = FrozenMap()
    report: tuple[str, ...] = ()
