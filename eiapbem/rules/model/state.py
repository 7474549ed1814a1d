"""``GameState``: the whole game as one frozen value (DESIGN.md §3).

It serialises to canonical msgpack (``encode``); ``decode`` reads it back
strictly, naming the first bad field; ``state_hash`` is the SHA-256 of the
encoding, the number every client compares (DESIGN.md §5, item 4).
"""

from __future__ import annotations

import hashlib
import operator
import struct
from dataclasses import dataclass
from typing import Annotated, Any

from eiapbem.core.errors import BadEncoding
from eiapbem.core import canonical
from eiapbem.core.record import field_specs, reading_older
from eiapbem.core.spec import MapSpec, Spec
from eiapbem.rules.model.base import FrozenMap, InvalidValue, Range, Record, SortedSet, first_difference, transient
from eiapbem.rules.model.combat import NavalBattle, Siege
from eiapbem.rules.model.common import ECONOMIC_MONTHS, POWERS, Date, NationId, Phase, PowerId, Slug
from eiapbem.rules.model.battles import BattleId, FieldBattle
from eiapbem.rules.model.decisions import DecisionId, LogEntry, PendingDecision
from eiapbem.rules.model.land import LandMove, NavalMove
from eiapbem.rules.model.minors import MinorCountry, MinorStatus
from eiapbem.rules.model.options import Options
from eiapbem.rules.model.powers import PowerState, War
from eiapbem.rules.model.scratch import SlotScratch
from eiapbem.rules.model.sheet import OrderSheet
from eiapbem.rules.model.slot import Slot, first_slot
from eiapbem.rules.model.units import (
    Corps,
    Depot,
    Fleet,
    Garrison,
    Leader,
    LeaderId,
    LocationKind,
    Prisoners,
    Unit,
    UnitId,
    prisoners_key,
)

#: Version of the state's plain form; bump it when a field changes meaning (2: the game log left the state;
#: 3: the economic orders moved onto the order sheet, ``PowerState.manipulation``, the slot's scratch one record).
STATE_FORMAT = 3

Position = Annotated[int, Range(1, 7)]


@dataclass(frozen=True, slots=True)
class MoveOrder(Record):
    """Positions chosen under 7.5 (000:996-1000) for this month.

    Great Britain may move at any position of the naval phase and France at
    any position of the land phase; the other powers keep their order (8.2,
    10.1).  1 is the default: both move first.
    """

    gb_naval_position: Position = 1
    fr_land_position: Position = 1


@dataclass(frozen=True, slots=True)
class CityControl(Record):
    """Who holds a city, and since which month.

    The month matters: a minor country is conquered by one month's
    unbesieged occupation of its capital (13.3.1, 000:2520).
    """

    nation: NationId
    since: Date


def _default_powers() -> FrozenMap[str, PowerState]:
    return FrozenMap((p, PowerState()) for p in POWERS)


@dataclass(frozen=True, slots=True)
class GameState(Record):
    """Everything about one game at one moment."""

    format: Annotated[int, Range(STATE_FORMAT, STATE_FORMAT)]
    #: The scenario the game was started from (5.3), a slug of the data.
    scenario: Slug
    #: First and last month of the game (the 1805 campaign runs to 1815, 003:78).
    start: Date
    end: Date
    date: Date
    #: The slot being played now; ``None`` once the last month is over.
    slot: Slot | None
    options: Options
    move_order: MoveOrder
    powers: FrozenMap[PowerId, PowerState]
    minors: FrozenMap[Slug, MinorCountry]
    #: Who controls each land area, where it differs from the map's home owner.
    area_control: FrozenMap[Slug, NationId]
    #: Who controls each city (by the slug of its area), where it differs (13.5).
    city_control: FrozenMap[Slug, CityControl]
    #: Home provinces ceded to another power: province -> holder (12.7, 13.3.2).
    ceded_provinces: FrozenMap[Slug, PowerId]
    units: FrozenMap[UnitId, Unit]
    leaders: FrozenMap[LeaderId, Leader]
    #: Keyed by ``captor:nation``.
    prisoners: FrozenMap[str, Prisoners]
    pending: FrozenMap[DecisionId, PendingDecision]
    #: The public log lines made since this value was read or since the client layer took them into the
    #: game's journal (``eiapbem/client/journal.py``): not part of the state's value, so not hashed, encoded
    #: or compared.  Phases add to it with ``with_log``; the journal keeps the whole game's log beside the
    #: state (docs/decisions.md "Turn pipeline").
    log: tuple[LogEntry, ...] = transient()
    #: Land combats of this land phase, running or finished, by id
    #: (``battle:1805-09:ulm:0``; 11.2, 11.3; ``eiapbem.rules.combat.field``).
    #: A running battle moves on only through its pending decisions.
    battles: FrozenMap[BattleId, FieldBattle] = FrozenMap()
    #: Naval combats of the game, by battle id, in progress or fought (9.0;
    #: ``eiapbem.rules.naval.battle``); a finished one is its battle report.
    naval_battles: FrozenMap[str, NavalBattle] = FrozenMap()
    #: Siege assaults and garrison attacks, by id, in progress or fought (11.4;
    #: ``eiapbem.rules.combat.sieges``).
    sieges: FrozenMap[str, Siege] = FrozenMap()
    #: Campaign winners found at a victory points tally (12.1.3); the game ends with them.
    victors: Annotated[tuple[PowerId, ...], SortedSet()] = ()
    #: The slot's scratch (movement records of the slot in play, ``model.scratch``): one record
    #: ``rules.sequence.advance`` resets whenever a slot ends.  Read its fields as ``state.land_moves``,
    #: ``state.movement_over``, ``state.new_depots``, ``state.naval_moves``; change them with ``with_scratch``.
    scratch: SlotScratch = SlotScratch()
    #: Sealed and open orders of the simultaneous slot in play (6.0; ``model.sheet``),
    #: cleared by the sequence.
    order_sheet: OrderSheet = OrderSheet()
    #: One of Austria's secret insurrection trigger provinces (13.2.4, 000:2484; kept in Austria's
    #: ``standing_orders.insurrection_triggers``) fired: the insurrection corps may be placed
    #: (``rules.land.revolts``).
    insurrection_activated: bool = False
    #: An edited scenario's unit ratings, maxima and movement (14.3 "Units"), canonically encoded
    #: (``rules.world_edits``): the rules read world data through them.  Empty for shipped scenarios.
    world_edits: bytes = b""

    @classmethod
    def new(cls, scenario: str, start: Date, end: Date, **fields: Any) -> GameState:
        """An empty game in the setup phase's first slot; ``fields`` override any default."""
        values: dict[str, Any] = dict(
            format=STATE_FORMAT,
            scenario=scenario,
            start=start,
            end=end,
            date=start,
            slot=first_slot(),
            options=Options(),
            move_order=MoveOrder(),
            powers=_default_powers(),
            minors=FrozenMap(),
            area_control=FrozenMap(),
            city_control=FrozenMap(),
            ceded_provinces=FrozenMap(),
            units=FrozenMap(),
            leaders=FrozenMap(),
            prisoners=FrozenMap(),
            pending=FrozenMap(),
            log=(),
        )
        values.update(fields)
        return cls(**values)

    # ------------------------------------------------------------ invariants

    def _check(self) -> None:
        self._check_groups(_GROUPS)

    def _check_replaced(self, changes: Any) -> None:
        """``_check`` of a copy made by ``replace``: the groups of the fields changed (issue 18).

        The source passed every group with the very same objects in the other fields (a state exists
        only once checked), so only a group reading a changed field can fail; they run in ``_check``'s
        order, so the first failure named is the one a whole ``_check`` names."""
        names = tuple(changes)
        groups = _GROUPS_FOR.get(names)
        if groups is None:
            groups = _GROUPS_FOR[names] = tuple(g for g in _GROUPS if not g[1].isdisjoint(names))
        self._check_groups(groups)

    def _check_groups(self, groups: Any) -> None:
        # Each group of invariants is a function of a few immutable fields: when the very same objects
        # passed before in this process, the group is not checked again (issue 18: a state derived by
        # ``replace`` pays for what it changed).
        # A key is the ids of the parts, and the memo holds the parts: while a key is remembered no other
        # object can have those ids, so a key found means these very objects.
        for name, _, get in groups:
            parts = get(self)
            key = (name, *map(id, parts))
            if key not in _CHECKED:
                getattr(self, name)()
                _remember(_CHECKED, key, parts, 4096)
                for part in parts:
                    if type(part) is FrozenMap:
                        part._passed = True  # a map derived from it starts its run of changes here

    def _check_frame(self) -> None:
        if tuple(self.powers) != POWERS:
            raise InvalidValue(f"the powers are exactly {' '.join(POWERS)}", path="powers")
        if not self.start <= self.end:
            raise InvalidValue(f"the game ends ({self.end}) before it starts ({self.start})", path="end")
        if not self.start <= self.date <= self.end:
            raise InvalidValue(f"month {self.date} is outside the game ({self.start} to {self.end})", path="date")
        if self.slot is not None:
            if self.slot.phase is Phase.SETUP and self.date != self.start:
                raise InvalidValue(f"the setup phase comes before the first month ({self.start})", path="slot")
            if self.slot.phase is Phase.ECONOMIC and self.date.month not in ECONOMIC_MONTHS:
                raise InvalidValue(f"{self.date.name} has no economic phase (12.0)", path="slot")

    def _check_relations(self) -> None:
        powers = self.powers
        base = powers._base if type(powers) is FrozenMap else None
        if base is not None and _checked("relations", base) and self._relations_hold(powers._changed):
            return
        # Built whole, or a change looks wrong: the whole check, which names the first wrong relation.
        for p, ps in self.powers.items():
            if p != "GB" and ps.war_with_america:
                raise InvalidValue("only Great Britain can be at war with America", path=f"powers.{p}.war_with_america")
            for name in _RELATIONS:
                if p in getattr(ps, name):
                    raise InvalidValue(f"{p} cannot have a relation with itself", path=f"powers.{p}.{name}.{p}")
            for name in _MUTUAL:
                mine = getattr(ps, name)
                for q, value in mine.items():
                    theirs = getattr(self.powers[q], name)
                    if theirs.get(p) != value:
                        raise InvalidValue(f"{p} and {q} disagree; this relation is mutual", path=f"powers.{p}.{name}.{q}")
            for q, war in ps.wars.items():
                if not set(war.declared_by) <= {p, q} or not war.declared_by:
                    raise InvalidValue(f"the war was declared by {p} or {q}", path=f"powers.{p}.wars.{q}.declared_by")
                if q in ps.alliances:
                    raise InvalidValue(f"{p} is both at war and allied with {q}", path=f"powers.{p}.alliances.{q}")

    def _relations_hold(self, changed: tuple) -> bool:
        """The relations of ``_check_relations`` that involve a power in ``changed`` hold (issue 18).

        Derived from powers that passed the whole check, only a relation of a changed power or with one
        can have become wrong: the changed powers' own rules, and both sides of every pair with one of
        them.  False sends the caller to the whole check (for its message); True is the whole check's
        verdict."""
        powers = self.powers
        for p in changed:
            ps = powers.get(p)
            if ps is None:
                return False
            if p != "GB" and ps.war_with_america:
                return False
            for name in _RELATIONS:
                if p in getattr(ps, name):
                    return False
            for q, war in ps.wars.items():
                if not set(war.declared_by) <= {p, q} or not war.declared_by or q in ps.alliances:
                    return False
            for name in _MUTUAL:
                mine = getattr(ps, name)
                for q, value in mine.items():
                    other = powers.get(q)
                    if other is None or getattr(other, name).get(p) != value:
                        return False
                for q, other in powers.items():  # the other side of each pair: what q says of p
                    theirs = getattr(other, name)
                    if p in theirs and mine.get(q) != theirs[p]:
                        return False
        return True

    def _check_minors(self) -> None:
        for slug, m in self.minors.items():
            for d in m.districts:
                other = self.minors.get(d)
                if other is None or other.part_of != slug:
                    raise InvalidValue(f"district {d} is not a joined secondary district of {slug}", path=f"minors.{slug}.districts")
            if m.part_of is not None:
                major = self.minors.get(m.part_of)
                if major is None or slug not in major.districts:
                    raise InvalidValue(f"{m.part_of} does not list {slug} as its district", path=f"minors.{slug}.part_of")
            if m.status is MinorStatus.SECONDARY_DISTRICT and m.part_of is None:
                raise InvalidValue("a secondary district belongs to a major district", path=f"minors.{slug}.part_of")

    def _check_units(self) -> None:
        units = self.units
        base = units._base if type(units) is FrozenMap else None
        if base is None or not _checked("units", base):
            for key, unit in units.items():
                self._check_unit(key, unit)
            return
        # Derived from a map that passed (issue 18): its changed entries, and the units a lost fleet carried,
        # in the map's order (the first entry wrong is the one a whole check names).
        keys = {k for k in units._changed if k in units}
        gone = {k for k in units._changed if isinstance(base.get(k), Fleet) and not isinstance(units.get(k), Fleet)}
        if gone:
            keys.update(k for k, u in units.items() if u.location.kind is LocationKind.ABOARD and u.location.site in gone)
        for key in sorted(keys):  # str order is the UTF-8 byte order of the keys
            self._check_unit(key, units[key])

    def _check_unit(self, key: str, unit: Unit) -> None:
        if key != unit.id:
            raise InvalidValue(f"the unit is filed under {key} but its id is {unit.id}", path=f"units.{key}.id")
        if unit.location.kind is LocationKind.ABOARD:
            carrier = self.units.get(unit.location.site)
            if not isinstance(carrier, Fleet):
                raise InvalidValue(f"no fleet {unit.location.site} to be aboard", path=f"units.{key}.location")

    def _check_leaders(self) -> None:
        leaders, units = self.leaders, self.units
        lb = leaders._base if type(leaders) is FrozenMap else None
        ub = units._base if type(units) is FrozenMap else None
        # A pair (leaders, units) that passed, each this map or the one it was derived from (issue 18).
        for old_leaders, old_units in ((lb, units), (leaders, ub), (lb, ub)):
            if old_leaders is not None and old_units is not None and _checked("leaders", old_leaders, old_units):
                break
        else:
            for key, leader in leaders.items():
                self._check_leader(key, leader)
            return
        keys = {k for k in (leaders._changed if old_leaders is not leaders else ()) if k in leaders}
        gone = {k for k in (units._changed if old_units is not units else ())
                if isinstance(old_units.get(k), (Corps, Fleet)) and not isinstance(units.get(k), (Corps, Fleet))}
        if gone:
            keys.update(k for k, leader in leaders.items() if leader.attached_to in gone)
        for key in sorted(keys):
            self._check_leader(key, leaders[key])

    def _check_leader(self, key: str, leader: Leader) -> None:
        if key != leader.id:
            raise InvalidValue(f"the leader is filed under {key} but its id is {leader.id}", path=f"leaders.{key}.id")
        if leader.attached_to is not None and not isinstance(self.units.get(leader.attached_to), (Corps, Fleet)):
            raise InvalidValue(f"no corps or fleet {leader.attached_to}", path=f"leaders.{key}.attached_to")

    def _check_records(self) -> None:
        for key, pr in self.prisoners.items():
            if key != prisoners_key(pr.captor, pr.nation):
                raise InvalidValue(f"prisoners must be filed under {prisoners_key(pr.captor, pr.nation)}", path=f"prisoners.{key}")
        for key, battle in self.battles.items():
            if key != battle.id:
                raise InvalidValue(f"the battle is filed under {key} but its id is {battle.id}", path=f"battles.{key}.id")
        for key, dec in self.pending.items():
            if key != dec.id:
                raise InvalidValue(f"the decision is filed under {key} but its id is {dec.id}", path=f"pending.{key}.id")
        for name in ("naval_battles", "sieges"):
            for key, rec in getattr(self, name).items():
                if key != rec.id:
                    raise InvalidValue(f"the record is filed under {key} but its id is {rec.id}", path=f"{name}.{key}.id")

    # ------------------------------------------------------- encoding, hash

    def encode(self) -> bytes:
        """The canonical msgpack bytes of the state (kept for the last states encoded, by identity)."""
        hit = _ENCODED.get(id(self))
        if hit is not None and hit[0] is self:
            return hit[1]
        data = b"".join(b for _, key, value in self.encoded_fields() for b in (key, value))
        data = _map_header(len(field_specs(GameState))) + data
        _remember(_ENCODED, id(self), (self, data))
        return data

    def encoded_entries(self, name: str) -> list[tuple[str, bytes]]:
        """(key, canonical bytes of the value) of every entry of the map field ``name``, in canonical order."""
        spec = field_specs(GameState)[name]
        assert isinstance(spec, MapSpec)
        return [(k, _encoded_value(v, spec.value)) for k, v in getattr(self, name).items()]

    def encoded_fields(self) -> list[tuple[str, bytes, bytes]]:
        """(name, encoded name, encoded value) of every field in canonical key order.

        The state's encoding is these pieces after a map header, byte for byte
        ``canonical.encode(self.to_obj())`` (a test checks it).  The encoding of
        each field value, and of each entry of a map field, is remembered by
        identity, so a state derived from another re-encodes only what changed
        (issue 18 item 2).
        """
        specs = field_specs(GameState)
        return [(name, _packed_key(name), _encoded_field(getattr(self, name), specs[name]))
                for name in sorted(specs)]

    @classmethod
    def decode_older(cls, data: bytes) -> GameState:
        """Read a state an older release wrote, for the game's move to this release (``client/upgrade.py``).

        As strict as ``decode``, except that a field the state gained since is taken at its declared
        default (``record.reading_older``): what the older rules did.  The state is then this release's
        own value (``decode`` of its encoding), so its hash is the one every member's new release computes."""
        try:
            return cls.decode(data)
        except BadEncoding:
            pass
        obj = canonical.decode(bytes(data))
        if isinstance(obj, dict) and obj.get("format") != STATE_FORMAT and "format" in obj:
            return cls.decode(data)  # another format: refused as decode refuses it
        with reading_older():
            state = cls.from_obj(obj)
        return cls.decode(state.encode())

    @classmethod
    def decode(cls, data: bytes) -> GameState:
        """Read a state strictly; ``BadEncoding`` names the first bad field.

        The same bytes are validated once per process (issue 18): a state is
        immutable, so the state decoded from equal bytes is handed out again.
        """
        key = bytes(data)
        hit = _DECODED.get(key)
        if hit is not None:
            return hit
        obj, pieces, entries = canonical.decode_map(key)
        if isinstance(obj, dict) and obj.get("format") != STATE_FORMAT and "format" in obj:
            raise BadEncoding(
                f"state format {obj.get('format')!r} is not {STATE_FORMAT}, the one this eiapbem reads",
                hint="use the eiapbem version that wrote the file, or ask the host for a backup",
            )
        state = cls.from_obj(obj)
        _remember(_DECODED, key, state)
        _seed(state, key, pieces, entries)
        return state

    def state_hash(self) -> bytes:
        """SHA-256 of ``encode()``: equal states, equal hashes, on every machine (kept beside the bytes)."""
        hit = _HASHED.get(id(self))
        if hit is not None and hit[0] is self:
            return hit[1]
        digest = hashlib.sha256(self.encode()).digest()
        _remember(_HASHED, id(self), (self, digest))
        return digest

    def first_difference(self, other: GameState) -> str | None:
        """Where this state and ``other`` first differ (``powers.FR.treasury``), or ``None``."""
        return first_difference(self.to_obj(), other.to_obj())

    # --------------------------------------------------- replace-style updates

    def with_power(self, power: str, **changes: Any) -> GameState:
        """A copy with some fields of one power changed."""
        return self.replace(powers=self.powers.set(power, self.powers[power].replace(**changes)))

    def with_unit(self, unit: Corps | Fleet | Depot | Garrison) -> GameState:
        """A copy with ``unit`` added or replaced (by its id)."""
        return self.replace(units=self.units.set(unit.id, unit))

    def without_unit(self, unit_id: str) -> GameState:
        return self.replace(units=self.units.remove(unit_id))

    def with_leader(self, leader: Leader) -> GameState:
        return self.replace(leaders=self.leaders.set(leader.id, leader))

    def free_states(self, power: str) -> tuple[str, ...]:
        """The minor free states ``power`` controls (6.8), by slug, in the minors' order."""
        return tuple(slug for slug, m in self.minors.items() if m.status is MinorStatus.FREE_STATE and m.controller == power)

    def with_minor(self, slug: str, minor: MinorCountry) -> GameState:
        return self.replace(minors=self.minors.set(slug, minor))

    # -- the slot's scratch (``model.scratch``): read under each field's name, changed with ``with_scratch``

    @property
    def land_moves(self) -> FrozenMap[str, LandMove]:
        return self.scratch.land_moves

    @property
    def movement_over(self) -> bool:
        return self.scratch.movement_over

    @property
    def new_depots(self) -> tuple[str, ...]:
        return self.scratch.new_depots

    @property
    def naval_moves(self) -> FrozenMap[str, NavalMove]:
        return self.scratch.naval_moves

    def with_scratch(self, **changes: Any) -> GameState:
        """A copy with some fields of the slot's scratch changed."""
        return self.replace(scratch=self.scratch.replace(**changes))

    def without_scratch(self) -> GameState:
        """A copy with the slot's scratch back to empty (``rules.sequence.advance``, when a slot ends)."""
        return self if self.scratch == SlotScratch() else self.replace(scratch=SlotScratch())

    def with_log(self, entry: LogEntry) -> GameState:
        """A copy with one more entry at the end of the public log (outside the hashed state: see ``log``)."""
        return self.replace(log=self.log + (entry,))

    def with_war(self, a: str, b: str, since: Date, declared_by: tuple[str, ...], *,
                 before_game: bool = False) -> GameState:
        """A copy where ``a`` and ``b`` are at war (both sides' records; no rules applied)."""
        war = War(since=since, declared_by=declared_by, before_game=before_game)
        powers = self.powers.set(a, self.powers[a].replace(wars=self.powers[a].wars.set(b, war)))
        powers = powers.set(b, powers[b].replace(wars=powers[b].wars.set(a, war)))
        return self.replace(powers=powers)

    def without_war(self, a: str, b: str) -> GameState:
        powers = self.powers.set(a, self.powers[a].replace(wars=self.powers[a].wars.remove(b)))
        powers = powers.set(b, powers[b].replace(wars=powers[b].wars.remove(a)))
        return self.replace(powers=powers)

    def with_alliance(self, a: str, b: str, since: Date) -> GameState:
        """A copy where ``a`` and ``b`` are allied (both sides; no rules applied)."""
        powers = self.powers.set(a, self.powers[a].replace(alliances=self.powers[a].alliances.set(b, since)))
        powers = powers.set(b, powers[b].replace(alliances=powers[b].alliances.set(a, since)))
        return self.replace(powers=powers)

    def without_alliance(self, a: str, b: str) -> GameState:
        powers = self.powers.set(a, self.powers[a].replace(alliances=self.powers[a].alliances.remove(b)))
        powers = powers.set(b, powers[b].replace(alliances=powers[b].alliances.remove(a)))
        return self.replace(powers=powers)


# Per-process memo of the state pipeline (issue 18, docs/decisions.md "File pipeline speed"):
# the bytes of the last states encoded (by identity: a state is immutable; the entry holds the
# state, so its id cannot be reused while remembered) and the states decoded from the last bytes.
_KEEP = 48
_ENCODED: dict[int, tuple[GameState, bytes]] = {}
_DECODED: dict[bytes, GameState] = {}
_HASHED: dict[int, tuple[GameState, bytes]] = {}


def forget() -> None:
    """Drop every memo of this module (a benchmark timing the first encode or decode of a state)."""
    for memo in (_ENCODED, _DECODED, _HASHED, _PARTS, _CHECKED):
        memo.clear()


def _remember(memo: dict, key: Any, value: Any, keep: int = _KEEP) -> None:
    if len(memo) >= keep:
        memo.clear()  # a new generation (dropping the oldest one by one costs a scan over dict holes)
    memo[key] = value


#: Encodings of field values and map entries, by identity (every value of a state is immutable:
#: records, tuples, ``FrozenMap``); each entry holds its value, so its id cannot be reused meanwhile.
_PARTS_KEEP = 50_000
_PARTS: dict[int, tuple[Any, bytes]] = {}
#: The groups of invariants of ``GameState._check`` in order, each with the fields it reads.
def _group(name: str, *fields: str) -> tuple[str, frozenset, Any]:
    get = operator.attrgetter(*fields)
    return name, frozenset(fields), (get if len(fields) > 1 else lambda s: (get(s),))


_GROUPS = (_group("_check_frame", "powers", "start", "end", "date", "slot"), _group("_check_relations", "powers"),
           _group("_check_minors", "minors"), _group("_check_units", "units"), _group("_check_leaders", "leaders", "units"),
           _group("_check_records", "prisoners", "battles", "pending", "naval_battles", "sieges"))
#: The groups ``_check_replaced`` runs, by the names of the fields a ``replace`` changed.
_GROUPS_FOR: dict[tuple[str, ...], tuple] = {}
#: The relations ``_check_relations`` reads: none of a power with itself; the first five are mutual.
_RELATIONS = ("wars", "alliances", "royal_marriages", "alliances_broken", "informal_peace", "enforced_peace", "access")
_MUTUAL = _RELATIONS[:5]
#: The field objects whose invariants passed (``GameState._check``), by their ids.
_CHECKED: dict[tuple, tuple] = {}
_KEYS: dict[str, bytes] = {}


def _checked(group: str, *parts: Any) -> bool:
    """Did these very objects pass the invariants ``_check_<group>`` (``GameState._check``) in this process?"""
    return (f"_check_{group}", *map(id, parts)) in _CHECKED  # the memo holds the parts: ids are theirs


def _seed(state: GameState, data: bytes, pieces: dict[str, bytes], entries: dict[str, dict[str, bytes]]) -> None:
    """Remember the bytes a decoded state was read from as its encoding, field by field and entry by entry.

    The bytes are canonical (checked by ``canonical.decode_map``) and each piece is the encoding of the
    value built from it (``to_obj`` of ``from_obj`` gives the plain value back: a test checks it on
    generated states), so the first hash of a decoded state, and of every state derived from it, does
    not encode its unchanged parts again (issue 18: ~3 ms for a classic-1805 state)."""
    specs = field_specs(GameState)
    if set(pieces) != set(specs):
        return
    for name in specs:
        value = getattr(state, name)
        inner = entries.get(name)
        if inner is not None and type(value) is FrozenMap and len(inner) == len(value):
            for k, v in value.items():
                b = inner.get(k)
                if b is None:
                    return
                _remember(_PARTS, id(v), (v, b), _PARTS_KEEP)
        _remember(_PARTS, id(value), (value, pieces[name]), _PARTS_KEEP)
    _remember(_ENCODED, id(state), (state, data))


def _map_header(n: int) -> bytes:
    if n < 16:
        return bytes([0x80 | n])
    if n < 0x10000:
        return b"\xde" + struct.pack(">H", n)
    return b"\xdf" + struct.pack(">I", n)


def _packed_key(key: str) -> bytes:
    b = _KEYS.get(key)
    if b is None:
        b = _KEYS[key] = canonical.encode(key)
    return b


def _encoded_value(value: Any, spec: Spec) -> bytes:
    hit = _PARTS.get(id(value))
    if hit is not None and hit[0] is value:
        return hit[1]
    data = canonical.encode(spec.to_obj(value))
    _remember(_PARTS, id(value), (value, data), _PARTS_KEEP)
    return data


def _encoded_field(value: Any, spec: Spec) -> bytes:
    """A field's canonical bytes; a map field is put together from its entries' (remembered) bytes."""
    if isinstance(spec, MapSpec) and type(value) is FrozenMap:
        hit = _PARTS.get(id(value))  # the same map in another state (a state derived by ``replace``)
        if hit is not None and hit[0] is value:
            return hit[1]
        # FrozenMap iterates in UTF-8 byte order of its keys: the canonical order.  The two memos are read
        # here without a call per entry (issue 18: a units map is put together at every hash).  A key that
        # is not exactly a str (an enum member) sends the map to the plain encoding.
        parts = [_map_header(len(value))]
        keys, memo, inner = _KEYS, _PARTS, spec.value
        for k, v in value.items():
            if type(k) is not str:
                break
            kb = keys.get(k)
            parts.append(kb if kb is not None else _packed_key(k))
            hit = memo.get(id(v))
            parts.append(hit[1] if hit is not None and hit[0] is v else _encoded_value(v, inner))
        else:
            data = b"".join(parts)
            _remember(_PARTS, id(value), (value, data), _PARTS_KEEP)
            return data
    return _encoded_value(value, spec)
