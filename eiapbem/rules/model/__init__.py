"""The game state model: typed, frozen values for everything the manual names.

One module per concern:

- ``base``: the typed value machinery (``Record``, ``FrozenMap``, constraints,
  strict ``to_obj``/``from_obj``, ``first_difference``);
- ``common``: ids, the calendar (``Date``), phases, factor and ship types;
- ``options``: game options (4.1.1);
- ``powers``: a major power's state (treasury, status, relations, builds,
  standing orders, economic choices, skip settings);
- ``minors``: minor countries and districts (6.1, 6.6, 13.3, 13.6);
- ``units``: corps, fleets, depots, garrisons, leaders, prisoners;
- ``slot``: the slots of the turn sequence (computed by ``rules.sequence``);
- ``decisions``: pending decisions and the public game log;
- ``land``: the phasing power's movement this land slot (10.4, 10.5.1);
- ``battles``: land combats in progress or finished (11.2, 11.3; rules in ``rules.combat.field``);
- ``state``: ``GameState`` with its encoding and hash.
"""

from eiapbem.rules.model.base import FrozenMap, InvalidValue, Record, first_difference
from eiapbem.rules.model.common import (
    POWER_NAMES,
    POWERS,
    Date,
    FactorType,
    Phase,
    ShipType,
)
from eiapbem.rules.model.decisions import LogEntry, PendingDecision
from eiapbem.rules.model.minors import MinorCountry, MinorStatus
from eiapbem.rules.model.options import Options
from eiapbem.rules.model.powers import (
    Access,
    AccessKind,
    BuildOrder,
    Purchase,
    PeaceTerm,
    PlayerKind,
    PowerState,
    SkipMode,
    StandingOrders,
    SurrenderSettings,
    War,
)
from eiapbem.rules.model.land import LandMove, NavalMove
from eiapbem.rules.model.combat import NavalBattle, Siege, SiegeRound
from eiapbem.rules.model.scratch import SlotScratch
from eiapbem.rules.model.sheet import OrderSheet
from eiapbem.rules.model.slot import ALL, ORDERS, TURN, Slot
from eiapbem.rules.model.state import STATE_FORMAT, CityControl, GameState, MoveOrder
from eiapbem.rules.model.units import (
    POOL,
    Corps,
    CorpsType,
    Depot,
    Factors,
    Fleet,
    FleetMission,
    Garrison,
    Leader,
    LeaderStatus,
    Location,
    LocationKind,
    Prisoners,
    Ships,
    garrison_id,
    prisoners_key,
)

__all__ = [
    "ALL", "ORDERS", "POOL", "POWERS", "POWER_NAMES", "STATE_FORMAT", "TURN",
    "Access", "AccessKind", "BuildOrder", "Purchase", "CityControl", "Corps", "CorpsType", "Date", "Depot",
    "FactorType", "Factors", "Fleet", "FleetMission", "FrozenMap",
    "GameState", "Garrison", "InvalidValue", "LandMove", "Leader", "LeaderStatus", "Location",
    "LocationKind", "LogEntry", "MinorCountry", "MinorStatus", "MoveOrder", "NavalBattle", "NavalMove", "Options",
    "OrderSheet",
    "PeaceTerm", "PendingDecision", "Phase", "PlayerKind", "PowerState", "Prisoners",
    "Record", "ShipType", "Ships", "Siege", "SiegeRound", "SkipMode", "Slot", "SlotScratch", "StandingOrders",
    "SurrenderSettings", "War", "first_difference", "garrison_id", "prisoners_key",
]
