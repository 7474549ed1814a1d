"""Battle records: a land combat in progress or finished (11.2, 11.3).

The records only; the rules that move a battle on are in
``eiapbem.rules.combat.field`` (see its docstring).  A battle lives in
``GameState.battles`` under an id like ``battle:1805-09:ulm:0``; everything it
did is in ``FieldBattle.events``, which the battle report renders.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from eiapbem.rules.model.base import FrozenMap, OneOf, Pattern, Range, Record, SortedSet
from eiapbem.rules.model.common import NonNeg, Param, PowerId, Slug
from eiapbem.rules.model.decisions import Kind
from eiapbem.rules.model.units import LeaderId, UnitId

ATTACKER = "attacker"
DEFENDER = "defender"
FIELD = "field"
TRIVIAL = "trivial"

BATTLE_ID_RE = r"battle:\d{4}-\d{2}:[a-z0-9]+(?:-[a-z0-9]+)*:\d+"
BattleId = Annotated[str, Pattern(BATTLE_ID_RE, "battle id like battle:1805-09:ulm:0")]
Role = Annotated[str, OneOf((ATTACKER, DEFENDER))]
UnitSet = Annotated[tuple[UnitId, ...], SortedSet()]
SlugSet = Annotated[tuple[Slug, ...], SortedSet()]


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
        return self.attacker if role == ATTACKER else self.defender

    def with_side(self, side: BattleSide) -> FieldBattle:
        return self.replace(**{side.role: side})

    @property
    def finished(self) -> bool:
        return self.stage == "done"
