"""The sequence of play (5.0, 000:302-304): which slots a month has, in order.

A game starts with the setup phase (5.1-5.3), one slot per power in the order
of 5.3 (000:332).  Then every month has, in order:

1. diplomacy (6.0) — simultaneous in PBEM (000:532): one slot that every power
   fills; the orders are resolved together when the last arrives and shown at
   the start of the reinforcement phase;
2. reinforcement (7.0, 000:900) — one slot per power, naval reinforcement
   (7.1) then army reinforcement (7.2-7.6) inside it, in the order
   SP GB PR AU TU RU FR (7.0 gives the same order for both);
3. naval (8.0-9.0) — GB RU TU AU PR FR SP (8.2, 000:1052);
4. land (10.0-11.0) — FR RU TU AU PR GB SP (10.1, 000:1296);
5. economic (12.0, 000:2028) — only in March, June, September and December;
   simultaneous (one slot every power fills; docs/decisions.md).

Great Britain may pick its position in the naval phase and France its
position in the land phase (7.5, 000:996-1000), chosen in their reinforcement
slots and read from ``GameState.move_order``.  A power may skip the
diplomacy, reinforcement or naval phase once or continuously (13.9,
000:2732-2734); the reinforcement skip does not apply in a month its
reinforcements are ready, and a declaration of war on the power cancels all
its skips (13.9.1, 000:2738).

Everything here is a pure function of a date and ``SequenceChoices`` (which
``choices_from_state`` extracts from a ``GameState``).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Annotated

from eiapbem.core.errors import BadData
from eiapbem.rules.model.base import FrozenMap, InvalidValue, Range, Record, SortedSet
from eiapbem.rules.model.common import ECONOMIC_MONTHS, POWERS, Date, Phase, PowerId, PowerSet
from eiapbem.rules.model.powers import SKIPPABLE_PHASES, SkipMode
from eiapbem.rules.model.sheet import OrderSheet
from eiapbem.rules.model.slot import COMMIT, ORDERS, SETUP_ORDER, TURN, Slot
from eiapbem.rules.model.decisions import LogEntry
from eiapbem.rules.model.state import GameState, MoveOrder
from eiapbem.rules.model.minors import MinorStatus
from eiapbem.rules.model.units import Corps, Fleet, LeaderStatus, LocationKind

#: Fixed orders of the sequential phases.
REINFORCEMENT_ORDER: tuple[str, ...] = ("SP", "GB", "PR", "AU", "TU", "RU", "FR")  # 7.0, 000:900
NAVAL_ORDER: tuple[str, ...] = ("GB", "RU", "TU", "AU", "PR", "FR", "SP")  # 8.2, 000:1052
LAND_ORDER: tuple[str, ...] = ("FR", "RU", "TU", "AU", "PR", "GB", "SP")  # 10.1, 000:1296

PHASE_ORDERS: dict[Phase, tuple[str, ...]] = {
    Phase.SETUP: SETUP_ORDER,
    Phase.REINFORCEMENT: REINFORCEMENT_ORDER,
    Phase.NAVAL: NAVAL_ORDER,
    Phase.LAND: LAND_ORDER,
}
#: Phases played as one slot that every power fills.
SIMULTANEOUS_PHASES: tuple[Phase, ...] = (Phase.DIPLOMACY, Phase.ECONOMIC)
#: The phases of a month, in order (5.0).
MONTH_PHASES: tuple[Phase, ...] = (Phase.DIPLOMACY, Phase.REINFORCEMENT, Phase.NAVAL, Phase.LAND, Phase.ECONOMIC)
#: 7.5: the power that may choose its position in a phase.
MOVABLE: dict[Phase, str] = {Phase.NAVAL: "GB", Phase.LAND: "FR"}

Position = Annotated[int, Range(1, 7)]
PhaseSet = Annotated[tuple[Phase, ...], SortedSet()]


@dataclass(frozen=True, slots=True)
class SequenceChoices(Record):
    """What, besides the date, shapes a month's slots."""

    #: 7.5: Great Britain's position in the naval phase (1 = first, the default).
    gb_naval_position: Position = 1
    #: 7.5: France's position in the land phase.
    fr_land_position: Position = 1
    #: 13.9: phases each power has set to skip.
    skips: FrozenMap[PowerId, PhaseSet] = FrozenMap()
    #: 13.9.1: powers with reinforcements ready this month (their reinforcement skip is void).
    reinforcements_ready: PowerSet = ()
    #: 13.9.1: powers on which war was declared this month (all their skips are void).
    war_declared_on: PowerSet = ()
    #: The diplomacy phase is sealed: a commit round comes before the orders (issue 16).
    #: The manual's sequence has one slot; a game's state asks for the commit round
    #: unless its option ``one_round_diplomacy`` is on (``choices_from_state``).
    sealed_diplomacy: bool = False
    #: Powers whose commitment to the diplomacy orders is in already, sealed ahead in their land file of the month
    #: before (``sealing.SealAhead``): they play no commit round (issue 33).
    committed: PowerSet = ()

    def _check(self) -> None:
        for p, phases in self.skips.items():
            for ph in phases:
                if ph not in SKIPPABLE_PHASES:
                    raise InvalidValue(f"the {ph} phase cannot be skipped (13.9)", path=f"skips.{p}")


@dataclass(frozen=True, slots=True)
class PlanEntry:
    """A slot of the month and whether a skip setting passes it by."""

    slot: Slot
    skipped: bool


def is_economic_month(date: Date) -> bool:
    """12.0: the economic phase ends March, June, September and December (000:2028)."""
    return date.month in ECONOMIC_MONTHS


def months(start: Date, end: Date) -> Iterator[Date]:
    """Every month from ``start`` to ``end`` inclusive."""
    d = start
    while d <= end:
        yield d
        d = d.next()


def phase_order(phase: Phase, choices: SequenceChoices = SequenceChoices()) -> tuple[str, ...]:
    """The order of a sequential phase this month, with 7.5's chosen position applied.

    The chosen power leaves the default order and is put back at its
    position (1-7); the others keep their relative order (8.2, 10.1).
    """
    base = PHASE_ORDERS[Phase(phase)]
    mover = MOVABLE.get(Phase(phase))
    if mover is None:
        return base
    pos = choices.gb_naval_position if mover == "GB" else choices.fr_land_position
    rest = [p for p in base if p != mover]
    rest.insert(pos - 1, mover)
    return tuple(rest)


def skips_phase(power: str, phase: Phase, choices: SequenceChoices) -> bool:
    """Whether ``power``'s skip setting passes ``phase`` by this month (13.9, 13.9.1)."""
    if phase not in choices.skips.get(power, ()):
        return False
    if power in choices.war_declared_on:  # 13.9.1: any declaration of war cancels all skips
        return False
    if phase is Phase.REINFORCEMENT and power in choices.reinforcements_ready:
        return False  # 13.9.1: reinforcements ready cancel the reinforcement skip
    return True


def setup_slots() -> tuple[Slot, ...]:
    """The setup phase before the first month: one slot per power, 5.3's order."""
    return tuple(Slot(Phase.SETUP, TURN, p, (p,)) for p in SETUP_ORDER)


def month_plan(date: Date, choices: SequenceChoices = SequenceChoices()) -> tuple[PlanEntry, ...]:
    """Every slot of the month in order, each marked skipped or not.

    The simultaneous diplomacy slot is never skipped as a whole: a power that
    skips it is left out of its ``actors`` (possibly all of them; the phase's
    automatic steps still happen).
    """
    entries: list[PlanEntry] = []
    for phase in MONTH_PHASES:
        if phase is Phase.ECONOMIC and not is_economic_month(date):
            continue
        if phase in SIMULTANEOUS_PHASES:
            actors = tuple(p for p in POWERS if not skips_phase(p, phase, choices))
            if phase is Phase.DIPLOMACY and choices.sealed_diplomacy:
                committing = tuple(p for p in actors if p not in choices.committed)
                entries.append(PlanEntry(Slot(phase, COMMIT, None, committing), False))
            entries.append(PlanEntry(Slot(phase, ORDERS, None, actors), False))
            continue
        for p in phase_order(phase, choices):
            entries.append(PlanEntry(Slot(phase, TURN, p, (p,)), skips_phase(p, phase, choices)))
    return tuple(entries)


def month_slots(date: Date, choices: SequenceChoices | GameState = SequenceChoices()) -> tuple[Slot, ...]:
    """The slots to play in month ``date``, in order (skipped ones left out)."""
    if isinstance(choices, GameState):
        choices = choices_from_state(choices)
    return tuple(e.slot for e in month_plan(date, choices) if not e.skipped)


def _next_month_choices(choices: SequenceChoices) -> SequenceChoices:
    # A new month: 7.5's positions and this month's facts do not carry over;
    # the skip settings do, and so do the commitments sealed ahead for its diplomacy phase.
    return SequenceChoices(skips=choices.skips, sealed_diplomacy=choices.sealed_diplomacy, committed=choices.committed)


def next_slot(
    date: Date,
    slot: Slot,
    choices: SequenceChoices,
    *,
    end: Date,
) -> tuple[Date, Slot] | None:
    """The slot after ``slot`` of month ``date``, and its month; ``None`` after the last month ``end``.

    The month is planned again from ``choices``, so what became known during
    the month (a declaration of war, 7.5's choice) shapes the slots still to
    come.  The setup phase leads into the first month (``date``).
    """
    if slot.phase is Phase.SETUP:
        order = [s.power for s in setup_slots()]
        if slot.power not in order:
            raise BadData(f"setup slot of {slot.power!r} is not in the setup order")
        i = order.index(slot.power)
        if i + 1 < len(order):
            return date, setup_slots()[i + 1]
        return date, month_slots(date, choices)[0]
    plan = month_plan(date, choices)
    for i, entry in enumerate(plan):
        if entry.slot.same_place(slot):
            for later in plan[i + 1:]:
                if not later.skipped:
                    return date, later.slot
            break
    else:
        raise BadData(f"slot {slot.key(date)} is not a slot of {date.name}", hint="the game state is damaged; ask the host for a backup")
    if date >= end:
        return None
    nxt = date.next()
    return nxt, month_slots(nxt, _next_month_choices(choices))[0]


def passed_skips(date: Date, slot: Slot, choices: SequenceChoices) -> tuple[tuple[str, Phase], ...]:
    """The (power, phase) skip settings used when play moves on from ``slot``.

    A ``once`` setting (13.9, "skip just one phase") is cleared by the game
    loop for each pair returned: the powers left out of a diplomacy slot, and
    the skipped slots between ``slot`` and the next slot played this month.
    """
    used: list[tuple[str, Phase]] = []
    if slot.phase is Phase.DIPLOMACY and slot.step == ORDERS:  # the powers the setting left out of the slot (one set
        # among this phase's orders counts from next month's)
        used.extend((p, Phase.DIPLOMACY) for p in POWERS if p not in slot.actors and skips_phase(p, Phase.DIPLOMACY, choices))
    if slot.phase is Phase.SETUP:
        return tuple(used)
    plan = month_plan(date, choices)
    idx = next((i for i, e in enumerate(plan) if e.slot.same_place(slot)), None)
    if idx is None:
        raise BadData(f"slot {slot.key(date)} is not a slot of {date.name}")
    for e in plan[idx + 1:]:
        if not e.skipped:
            break
        used.append((e.slot.power, e.slot.phase))  # type: ignore[arg-type]
    return tuple(used)


def reinforcements_ready(state: GameState, power: str) -> bool:
    """13.9.1's "reinforcements are ready to be placed" for ``power`` this month.

    Ready: a build order (its own or a free state's) due by this month, returned
    factors waiting, a controlled minor whose forces are to be set up (7.3),
    a corps or fleet counter bought in an economic phase and still to be placed
    (12.5.4, 000:2238; 7.2.1: placed with factors due or moved from a corps),
    or a leader whose time away ends by this month.
    """
    ps = state.powers[power]
    if any(o.arrives <= state.date for o in ps.builds.values()):
        return True
    if ps.returned_factors.total > 0:
        return True
    if any(m.setup_due and m.controller == power for m in state.minors.values()):
        return True
    if power in _bought_waiting(state):
        return True
    return any(
        lead.power == power and lead.status is LeaderStatus.INACTIVE and lead.returns is not None and lead.returns <= state.date
        for lead in state.leaders.values()
    )


def _bought_waiting(state: GameState) -> set[str]:
    """The powers with a counter of their own or of a free state they run bought in an economic phase, in the pool
    and placeable this month (12.5.4, 000:2238: within the next quarter)."""
    out: set[str] = set()
    for u in state.units.values():
        if not isinstance(u, (Corps, Fleet)) or u.placeable_until is None or state.date > u.placeable_until \
                or u.location.kind is not LocationKind.POOL:
            continue
        if u.nation in POWERS:
            out.add(u.nation)
        elif (m := state.minors.get(u.nation)) is not None and m.status is MinorStatus.FREE_STATE and m.controller:
            out.add(m.controller)
    return out


def _ready_powers(state: GameState) -> tuple[str, ...]:
    """The powers for which ``reinforcements_ready`` holds, in ``POWERS`` order, from one pass over the
    minors and one over the leaders (issue 18: asked at every slot's end; the same answers)."""
    ready = {p for p in POWERS if any(o.arrives <= state.date for o in state.powers[p].builds.values())
             or state.powers[p].returned_factors.total > 0}
    ready.update(m.controller for m in state.minors.values() if m.setup_due and m.controller is not None)
    ready.update(_bought_waiting(state))
    ready.update(lead.power for lead in state.leaders.values()
                 if lead.status is LeaderStatus.INACTIVE and lead.returns is not None and lead.returns <= state.date)
    return tuple(p for p in POWERS if p in ready)


def choices_from_state(state: GameState) -> SequenceChoices:
    """The sequence choices a state holds for its current month."""
    declared_on = sorted(
        {q for p, ps in state.powers.items() for q, war in ps.wars.items()
         if war.since == state.date and p in war.declared_by and not war.before_game}
    )
    return SequenceChoices(
        gb_naval_position=state.move_order.gb_naval_position,
        fr_land_position=state.move_order.fr_land_position,
        skips=FrozenMap((p, tuple(ps.skips)) for p, ps in state.powers.items() if ps.skips),
        reinforcements_ready=_ready_powers(state),
        war_declared_on=tuple(declared_on),
        sealed_diplomacy=not state.options.one_round_diplomacy,
        committed=tuple(sorted(state.order_sheet.commitments)),
    )


def next_slot_of(state: GameState) -> tuple[Date, Slot] | None:
    """The slot (and month) that follows the state's current slot; ``None`` when the game is over."""
    if state.slot is None:
        return None
    return next_slot(state.date, state.slot, choices_from_state(state), end=state.end)


def is_last_land_slot(state: GameState) -> bool:
    """The state's slot is the month's last land slot (or the game's last slot): the end of the land phase, when
    conquests (10.7, 000:1600) and the end of a grace of temporary access (6.4, 13.4.1) are settled."""
    nxt = next_slot_of(state)
    return nxt is None or nxt[0] != state.date or nxt[1].phase is not Phase.LAND


def advance(state: GameState) -> GameState:
    """The state moved on to its next slot (a bookkeeping step, no rules applied).

    Sets the date and slot; empties the slot's scratch (``GameState.scratch``, one record); clears each ``once`` skip setting the move used
    (13.9, 000:2734); and, when a new month begins, puts 7.5's positions back
    to the default (a choice is "for the next" naval or land phase only,
    000:998) and ends every loan of 7.6 (``end_loans``).  After the last slot of the last month, or once a
    victory points tally has found the winners (12.1.3, ``GameState.victors``), the slot becomes ``None``.
    """
    slot = state.slot
    if slot is None:
        return state
    left = slot  # the slot play leaves
    state = state.without_scratch()  # the slot's scratch ends with the slot (model.scratch)
    assert state.slot is not None
    choices = choices_from_state(state)
    used = passed_skips(state.date, slot, choices)
    powers = state.powers
    for power, phase in used:
        ps = powers[power]
        state = state.with_log(skipped_line(state, power, phase, ps.skips.get(phase)))
        if ps.skips.get(phase) is SkipMode.ONCE:
            powers = powers.set(power, ps.replace(skips=ps.skips.remove(phase)))
    # 13.9.1: the settings the month's events cancel.
    state = nullify_skips(state.replace(powers=powers), choices.war_declared_on, choices.reinforcements_ready)
    powers = state.powers
    nxt = next_slot(state.date, slot, choices, end=state.end)
    if nxt is None or state.victors:  # 12.1.3: a campaign victory ends the game
        return state.replace(powers=powers, slot=None, order_sheet=OrderSheet())
    date, slot = nxt
    # The order sheet (model.sheet): orders are spent once play moves on; the
    # commitments of a sealed phase last into its reveal round only, and those
    # sealed ahead for the next diplomacy phase until it comes.
    sheet = state.order_sheet
    if slot.phase is not left.phase or date != state.date:
        sheet = OrderSheet() if left.phase is Phase.DIPLOMACY else OrderSheet(commitments=sheet.commitments)
    elif sheet.orders:
        sheet = sheet.replace(orders=type(sheet.orders)())
    if date == state.date:
        return state.replace(powers=powers, date=date, slot=slot, order_sheet=sheet)
    for power, ps in powers.items():  # 6.16: a granted attack or defence is for this month's land phase only
        if ps.military_requests:
            powers = powers.set(power, ps.replace(military_requests=type(ps.military_requests)()))
    state = lapse_counters(state.replace(powers=powers), date)
    return end_loans(state).replace(date=date, slot=slot, move_order=MoveOrder(), order_sheet=sheet)


#: The log kind of a slot left out by its power's own setting (13.9) or ended by itself for want of a choice
#: (``engine.pass_slot``): ``eiapbem status`` lists the month's passed slots from these lines.
PASSED = "slot.passed"


def skipped_line(state: GameState, power: str, phase: Phase, mode: SkipMode | None) -> LogEntry:
    """The public log line of ``power``'s ``phase`` slot left out this month by its skip setting (13.9, 000:2734)."""
    slot = Slot(phase, ORDERS if phase is Phase.DIPLOMACY else TURN, power if phase is not Phase.DIPLOMACY else None,
                (power,))
    how = "this once" if mode is SkipMode.ONCE else "until it switches the setting off"
    what = "gives no diplomacy orders" if phase is Phase.DIPLOMACY else f"plays no {phase} slot"
    return LogEntry(slot=slot.key(state.date), author="game", kind=PASSED,
                    text=f"{power} {what} this month: it chose to skip the {phase} phase {how} (13.9)",
                    params=FrozenMap(sorted({"power": power, "phase": str(phase),
                                             "reason": f"skip-{mode.value if mode else 'once'}"}.items())))


def nullify_skips(state: GameState, war_declared_on: tuple[str, ...], reinforcements_ready: tuple[str, ...]) -> GameState:
    """13.9.1 (000:2738): cancel the settings the month's events void.

    A declaration of war on a power removes all its settings (a log line says so).  Reinforcements ready cancel the reinforcement
    setting for that month's phase (``skips_phase``): a setting to skip it once is spent by it, a continuous one
    ("until you disable the skip setting", 13.9) holds for the months after (docs/decisions.md 13.9)."""
    powers = state.powers
    for p in war_declared_on:
        if powers[p].skips:
            gone = ", ".join(f"{phase} {mode.value}" for phase, mode in sorted(powers[p].skips.items()))
            powers = powers.set(p, powers[p].replace(skips=type(powers[p].skips)()))
            if state.slot is not None:  # said, or the player wonders why the phase is played again
                state = state.with_log(LogEntry(
                    slot=state.slot.key(state.date), author="game", kind="skip.cancelled",
                    text=f"{p}'s phase skip settings ({gone}) are cancelled: war was declared on it (13.9.1); "
                         f"'eiapbem skip' sets them again", params=FrozenMap({"power": p})))
    for p in reinforcements_ready:  # the month's reinforcement phase is played: a setting for it once is spent
        if powers[p].skips.get(Phase.REINFORCEMENT) is SkipMode.ONCE:
            powers = powers.set(p, powers[p].replace(skips=powers[p].skips.remove(Phase.REINFORCEMENT)))
    return state if powers is state.powers else state.replace(powers=powers)


def end_loans(state: GameState) -> GameState:
    """Every loaned corps, fleet and leader back to its owner: a loan lasts the rest of the month (7.6, 000:1002)."""
    units = state.units
    for uid, u in state.units.items():
        if getattr(u, "loaned_to", None) is not None:
            units = units.set(uid, u.replace(loaned_to=None))
    leaders = state.leaders
    for lid, lead in state.leaders.items():
        if lead.loaned_to is not None:
            leaders = leaders.set(lid, lead.replace(loaned_to=None))
    if units is state.units and leaders is state.leaders:
        return state
    return state.replace(units=units, leaders=leaders)


#: The log kind of a bought counter that goes back to the counter pool unplaced (12.5.4).
COUNTER_LAPSED = "reinforcement.counter-lapsed"


def lapse_counters(state: GameState, date: Date) -> GameState:
    """At the end of a month, the counters bought in an economic phase whose months to be placed are over (12.5.4,
    000:2238): still in the pool, each is bought no more (it must be bought again to be placed), said in the public
    log under the month's last slot."""
    slot = state.slot
    assert slot is not None
    for uid, u in state.units.items():
        if not isinstance(u, (Corps, Fleet)) or u.placeable_until is None or u.placeable_until >= date:
            continue
        until = u.placeable_until
        state = state.with_unit(u.replace(placeable_until=None))
        if u.location.kind is LocationKind.POOL:
            state = state.with_log(LogEntry(
                slot=slot.key(state.date), author="game", kind=COUNTER_LAPSED,
                text=f"{uid} of {u.nation}, bought in an economic phase, was not placed by {until}: it goes back to "
                     "the counter pool and must be bought again (12.5.4)",
                params=FrozenMap(sorted({"unit": uid, "nation": u.nation, "until": str(until)}.items()))))
    return state
