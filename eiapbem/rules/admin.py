"""The host's admin menu as state edits (4.2.8, 000:178-264).

Each edit is a ``Record`` with a ``KIND`` (``"admin.add-money"``) registered
with the engine like a player's action, ``(ActClass, verify, apply,
candidates)`` in ``ACTIONS``, but as an act of the host (``engine.HOST``) in no
phase: no power can put it in a turn file (``engine.action_from_obj`` knows
none).  Only the host's signed admin files carry them (``eiapbem/host/admin.py``),
and every client replays them through ``engine.apply_host_act``.  Each returns
the new state and its public log line, whose author is ``host`` (the manual:
"the game log will report what changes are made so that all players are made
aware", 000:246-250).

As the manual says, unit moves and placements are not checked against the
rules (000:256, 000:258): any unit may be put in any place the state model can
hold.  What the state model itself forbids (a fleet in a land area, money below
zero) is refused with a sentence, since such a state could not be saved.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Annotated, Any

from eiapbem.core.errors import IllegalAction
from eiapbem.rules import engine
from eiapbem.rules.engine import HostContext, Outcome
from eiapbem.rules.forces import the_unit
from eiapbem.rules.model import (
    POOL,
    Depot,
    Factors,
    Fleet,
    Garrison,
    GameState,
    Location,
    LocationKind,
    MinorStatus,
    Options,
    PlayerKind,
    Record,
    Ships,
)
from eiapbem.rules.model.base import OneOf
from eiapbem.rules.model.common import NationId, PowerId, Slug
from eiapbem.rules.model.units import UnitId, garrison_id

#: The computer player the layer above passes in (``eiapbem.ai.play_slot``): ``computer(state, power,
#: ctx, setup=actions)`` returns the turn it played (``.state``, ``.actions``, ``.events``).
Computer = Callable[..., Any]

SETTINGS = ("neutral", "ally", "war")
AI_LEVELS = ("ai-easy", "ai-medium", "ai-hard")
OPTION_NAMES = tuple(Options.__dataclass_fields__)


@dataclass(frozen=True, slots=True)
class AddPoliticalPoints(Record):
    """Add political points to a major power (manual: Add pp to selected nation, 000:240)."""

    KIND = "admin.add-pp"
    COMMAND = "add-pp"
    power: PowerId
    amount: int


@dataclass(frozen=True, slots=True)
class AddMoney(Record):
    """Add money to a major power (manual: Add money to selected player, 000:242)."""

    KIND = "admin.add-money"
    COMMAND = "add-money"
    power: PowerId
    amount: int


@dataclass(frozen=True, slots=True)
class AddManpower(Record):
    """Add manpower to a major power (manual: Add manpower to selected player, 000:244)."""

    KIND = "admin.add-manpower"
    COMMAND = "add-manpower"
    power: PowerId
    amount: int


@dataclass(frozen=True, slots=True)
class SetDiplomacy(Record):
    """Set the diplomacy between a major power and any nation: neutral, ally or war (000:246)."""

    KIND = "admin.diplomacy"
    COMMAND = "diplomacy"
    power: PowerId
    nation: NationId
    setting: Annotated[str, OneOf(SETTINGS)]


@dataclass(frozen=True, slots=True)
class RemoveUnit(Record):
    """Move a unit off the map to its counter pool; a garrison is deleted (000:252-254)."""

    KIND = "admin.remove-unit"
    COMMAND = "remove-unit"
    unit: UnitId


@dataclass(frozen=True, slots=True)
class PlaceUnit(Record):
    """Place a unit from the map or the counter pool at any place, unchecked (000:252, 000:258)."""

    KIND = "admin.place-unit"
    COMMAND = "place-unit"
    unit: UnitId
    location: Location


@dataclass(frozen=True, slots=True)
class EditUnit(Record):
    """Set a unit's factors (corps, garrison) or ships (fleet) (000:262)."""

    KIND = "admin.edit-unit"
    COMMAND = "edit-unit"
    unit: UnitId
    factors: Factors | None = None
    ships: Ships | None = None


@dataclass(frozen=True, slots=True)
class CreateGarrison(Record):
    """Create an empty garrison of any nation in the city of an area (000:236-238)."""

    KIND = "admin.create-garrison"
    COMMAND = "create-garrison"
    nation: NationId
    area: Slug


@dataclass(frozen=True, slots=True)
class ChangeOption(Record):
    """Turn a game option of 4.1.1 on or off (000:34: only with Allow Option Changes During Game)."""

    KIND = "admin.option"
    COMMAND = "option"
    option: Annotated[str, OneOf(OPTION_NAMES)]
    value: bool


@dataclass(frozen=True, slots=True)
class SkipSlot(Record):
    """The current player's slot passes with no actions (manual: Skip current player, 000:232)."""

    KIND = "admin.skip"
    COMMAND = "skip"
    power: PowerId


@dataclass(frozen=True, slots=True)
class AiPlay(Record):
    """The computer plays the current player's turn (manual: Quick play turn with AI, 000:202).

    Replayed by every client from the admin file's dice (docs/file-format.md 7.3): the
    AI's actions are not in the file, they are what ``eiapbem.ai`` makes of the state.
    """

    KIND = "admin.ai-play"
    COMMAND = "ai-play"
    power: PowerId
    level: Annotated[str, OneOf(AI_LEVELS)] = "ai-medium"


@dataclass(frozen=True, slots=True)
class ReplaceByAi(Record):
    """A player replaced by the computer at an AI level (000:206); every client plays the power from now on."""

    KIND = "admin.replace-by-ai"
    COMMAND = "replace"
    power: PowerId
    old_name: str
    level: Annotated[str, OneOf(AI_LEVELS)]
    when: str


@dataclass(frozen=True, slots=True)
class ReplacePlayer(Record):
    """A human player replaced by another (000:204-206); the keys change in the file's roster."""

    KIND = "admin.replace-player"
    COMMAND = "replace"
    power: PowerId
    old_name: str
    new_name: str
    when: str


@dataclass(frozen=True, slots=True)
class ReplaceHost(Record):
    """The host hands the host role and key to someone else (000:208)."""

    KIND = "admin.replace-host"
    COMMAND = "replace-host"
    old_name: str
    new_name: str
    when: str
    #: The power the new host plays, if any.
    power: PowerId | None = None


@dataclass(frozen=True, slots=True)
class Backups(Record):
    """A set of backups was made (000:214-220); the line stands in the backups' state."""

    KIND = "admin.backups"
    COMMAND = "backup"
    epoch: int
    source: str
    when: str


@dataclass(frozen=True, slots=True)
class Upgrade(Record):
    """The game moves to a newer eiapbem: its rules and computer versions (4.2.8 host functions; issue 29).

    Carried by the host's upgrade file, which starts a new epoch (``client/upgrade.py``); the line tells every
    player which release the game plays from now on.  The versions are written as ``rules 6, ai-easy 9, ...``."""

    KIND = "admin.upgrade"
    COMMAND = "upgrade"
    INTERNAL = True  # written by 'eiapbem admin upgrade' into its own file, never an edit of an admin file
    release: str
    versions: str
    before: str
    when: str


@dataclass(frozen=True, slots=True)
class HouseRules(Record):
    """The playgroup's lateness ladder (a house rule, not the manual's; host functions 4.2.8, 000:178).

    Hours after which the awaited player is reminded, everyone is reminded, the computer
    plays the slot (as ``AiPlay``, 000:202); and after how many such slots the seat is
    offered to a replacement (000:204).  0 turns a step off.  Only logged: the host's
    unattended ``mail sync`` reads the numbers back from the game log (``host/lateness.py``).
    """

    KIND = "admin.house-rules"
    COMMAND = "house-rules"
    remind_hours: int
    remind_all_hours: int
    ai_play_hours: int
    offer_after: int


@dataclass(frozen=True, slots=True)
class LateNotice(Record):
    """One step of the lateness ladder, announced in the public log (4.2.8: edits are reported, 000:246-250)."""

    KIND = "admin.late-notice"
    COMMAND = "late-notice"
    #: Written by the host's lateness ladder (``host/lateness.py``), not a command of the admin menu.
    INTERNAL = True
    power: PowerId
    step: Annotated[str, OneOf(("reminder", "reminder-all", "ai-play", "seat-offered"))]
    slot: str
    hours: int
    missed: int = 0


_LATE_TEXT = {
    "reminder": "reminded {power} that {slot} has waited {hours} h for its file",
    "reminder-all": "reminded every player that {slot} has waited {hours} h for {power}'s file",
    "ai-play": "{slot} has waited {hours} h for {power}: the computer plays the slot ({missed} slot(s) missed)",
    "seat-offered": "{power} has missed {missed} slot(s): the seat is offered to a replacement player",
}


# ----------------------------------------------------------------- verify and apply, one unit per act


def _log(state: GameState, act: Record, text: str, *, slot_key: str | None = None, **params: Any) -> Outcome:
    return engine.log(state, engine.HOST, act.KIND, f"Host: {text}", slot_key=slot_key, **params)


#: The power's field, and its name in a sentence, each "add" act changes.
_ADDED = {"admin.add-pp": ("political_status", "political points"), "admin.add-money": ("treasury", "money"),
          "admin.add-manpower": ("manpower", "manpower")}


def _verify_add(state: GameState, host: str, act: AddPoliticalPoints | AddMoney | AddManpower, ctx: HostContext) -> None:
    field, what = _ADDED[act.KIND]
    old = getattr(state.powers[act.power], field)
    if field != "political_status" and old + act.amount < 0:
        raise IllegalAction(f"{act.power} has {old} {what}; taking {-act.amount} would leave less than nothing",
                            hint=f"take at most {old}")


def _apply_add(state: GameState, host: str, act: AddPoliticalPoints | AddMoney | AddManpower, ctx: HostContext) -> Outcome:
    field, what = _ADDED[act.KIND]
    old = getattr(state.powers[act.power], field)
    new = old + act.amount
    out = state.with_power(act.power, **{field: new})
    return _log(out, act, f"added {act.amount} {what} to {act.power} ({old} -> {new})", power=act.power, amount=act.amount)


def _verify_diplomacy(state: GameState, host: str, act: SetDiplomacy, ctx: HostContext) -> None:
    if act.nation == act.power:
        raise IllegalAction(f"{act.power} cannot have diplomacy with itself; choose another nation")
    if act.nation not in state.powers and act.nation not in state.minors:
        raise IllegalAction(f"{act.nation!r} is neither a major power nor a minor country of this game",
                            hint="minor countries are named by slug, e.g. bavaria")


def _apply_diplomacy(state: GameState, host: str, act: SetDiplomacy, ctx: HostContext) -> Outcome:
    p, n, setting = act.power, act.nation, act.setting
    if n in state.powers:
        s = state
        if n in s.powers[p].wars:
            s = s.without_war(p, n)
        if n in s.powers[p].alliances:
            s = s.without_alliance(p, n)
        if setting == "war":
            s = s.with_war(p, n, s.date, (p,))
        elif setting == "ally":
            s = s.with_alliance(p, n, s.date)
    else:
        ps = state.powers[p]
        s = state.with_power(p, minor_wars=ps.minor_wars.remove(n) if n in ps.minor_wars else ps.minor_wars)
        m = s.minors[n]
        if setting == "war":
            s = s.with_power(p, minor_wars=s.powers[p].minor_wars.set(n, s.date))
            if m.controller == p and m.status in (MinorStatus.INFLUENCED, MinorStatus.ALLIED):
                s = s.with_minor(n, m.replace(status=MinorStatus.NEUTRAL, controller=None))
        elif setting == "ally":
            s = s.with_minor(n, m.replace(status=MinorStatus.ALLIED, controller=p))
        elif m.controller == p and m.status in (MinorStatus.INFLUENCED, MinorStatus.ALLIED):
            s = s.with_minor(n, m.replace(status=MinorStatus.NEUTRAL, controller=None))
    return _log(s, act, f"set the diplomacy of {p} with {n} to {setting}", power=p, nation=n, setting=setting)


def _verify_remove(state: GameState, host: str, act: RemoveUnit, ctx: HostContext) -> None:
    the_unit(state, act.unit)


def _apply_remove(state: GameState, host: str, act: RemoveUnit, ctx: HostContext) -> Outcome:
    u = the_unit(state, act.unit)
    if isinstance(u, Garrison):
        s = state.without_unit(u.id)  # garrison factors are deleted with it (000:254)
        return _log(s, act, f"removed {u.id} from play", unit=u.id)
    s = state.with_unit(u.replace(location=POOL))
    return _log(s, act, f"moved {u.id} off the map (from {u.location}) to the counter pool", unit=u.id)


def _verify_place(state: GameState, host: str, act: PlaceUnit, ctx: HostContext) -> None:
    u = the_unit(state, act.unit)
    loc = act.location
    if isinstance(u, Garrison) and loc.kind not in (LocationKind.CITY, LocationKind.AREA):
        raise IllegalAction(f"a garrison stands in a city or an area, not at {loc}")
    if isinstance(u, Fleet) and loc.kind not in (LocationKind.SEA, LocationKind.PORT, LocationKind.BLOCKADE):
        raise IllegalAction(f"a fleet is placed at sea, in a port or a blockade box, not at {loc}",
                            hint="use sea:AREA, port:AREA or blockade:AREA")


def _apply_place(state: GameState, host: str, act: PlaceUnit, ctx: HostContext) -> Outcome:
    u = the_unit(state, act.unit)
    loc = act.location
    if isinstance(u, Garrison):
        new_id = garrison_id(u.nation, loc)
        s = state.without_unit(u.id)
        there = s.units.get(new_id)
        factors = u.factors + there.factors if isinstance(there, Garrison) else u.factors
        s = s.with_unit(Garrison(new_id, u.nation, loc, factors))
        return _log(s, act, f"moved {u.id} to {loc}", unit=u.id, location=str(loc))
    s = state.with_unit(u.replace(location=loc))
    return _log(s, act, f"placed {u.id} at {loc} (from {u.location})", unit=u.id, location=str(loc))


def _verify_edit(state: GameState, host: str, act: EditUnit, ctx: HostContext) -> None:
    u = the_unit(state, act.unit)
    if isinstance(u, Fleet):
        if act.ships is None or act.factors is not None:
            raise IllegalAction(f"{u.id} is a fleet: edit its ships (heavy, light, transport)")
    elif isinstance(u, Depot):
        raise IllegalAction(f"{u.id} is a depot and has no factors to edit")
    elif act.factors is None or act.ships is not None:
        raise IllegalAction(f"{u.id} has land factors: edit its factors (infantry, cavalry, ...)")


def _apply_edit(state: GameState, host: str, act: EditUnit, ctx: HostContext) -> Outcome:
    u = the_unit(state, act.unit)
    if isinstance(u, Fleet):
        s = state.with_unit(u.replace(ships=act.ships))
        return _log(s, act, f"set the ships of {u.id} to {_count(act.ships)}", unit=u.id)
    s = state.with_unit(u.replace(factors=act.factors))
    return _log(s, act, f"set the factors of {u.id} to {_count(act.factors)}", unit=u.id)


def _count(rec: Record | None) -> str:
    parts = [f"{v} {k.replace('_', ' ')}" for k, v in rec.to_obj().items() if v] if rec is not None else []
    return ", ".join(parts) or "none"


def _verify_garrison(state: GameState, host: str, act: CreateGarrison, ctx: HostContext) -> None:
    if act.nation not in state.powers and act.nation not in state.minors:
        raise IllegalAction(f"{act.nation!r} is neither a major power nor a minor country of this game")
    gid = garrison_id(act.nation, Location(LocationKind.CITY, act.area))
    if gid in state.units:
        raise IllegalAction(f"{act.nation} already has a garrison in {act.area}; edit it with edit-unit {gid}")


def _apply_garrison(state: GameState, host: str, act: CreateGarrison, ctx: HostContext) -> Outcome:
    loc = Location(LocationKind.CITY, act.area)
    gid = garrison_id(act.nation, loc)
    s = state.with_unit(Garrison(gid, act.nation, loc))
    return _log(s, act, f"created a {act.nation} garrison in {act.area} ({gid})", unit=gid)


def _verify_option(state: GameState, host: str, act: ChangeOption, ctx: HostContext) -> None:
    if not state.options.allow_option_changes_during_game:
        raise IllegalAction("options cannot be changed in this game: the option 'Allow Option Changes During Game' is off (4.1.1, 000:34)")


def _apply_option(state: GameState, host: str, act: ChangeOption, ctx: HostContext) -> Outcome:
    s = state.replace(options=state.options.replace(**{act.option: act.value}))
    name = act.option.replace("_", "-")
    return _log(s, act, f"turned the option {name} {'on' if act.value else 'off'}", option=name, value=act.value)


def _verify_skip(state: GameState, host: str, act: SkipSlot, ctx: HostContext) -> None:
    slot = state.slot
    assert slot is not None  # the engine refuses every act once the game is over
    if slot.simultaneous:
        raise IllegalAction(f"{slot.key(state.date)} is played by every power at once; only a player's own turn can be skipped",
                            hint="the host can play the missing orders' effects with edits instead")
    if slot.power != act.power:
        raise IllegalAction(f"the current player is {slot.power}, not {act.power}; only the player next to move can be skipped (000:232)")


def _apply_skip(state: GameState, host: str, act: SkipSlot, ctx: HostContext) -> Outcome:
    from eiapbem.rules.sequence import advance

    assert state.slot is not None
    out = _log(state, act, f"skipped {act.power}'s turn {state.slot.key(state.date)}: it passes with no actions", power=act.power)
    return Outcome(advance(out.state), out.events)


def _verify_ai_play(state: GameState, host: str, act: AiPlay, ctx: HostContext) -> None:
    slot = state.slot
    assert slot is not None  # the engine refuses every act once the game is over
    if ctx.rules is None:
        raise IllegalAction("the computer plays a turn only with the dice of the host's admin file")
    if ctx.computer is None:
        raise IllegalAction("the computer plays a turn only where a computer player is given to the rules",
                            hint="the client and the host pass eiapbem.ai.play_slot; pass it as computer=")
    if slot.simultaneous:
        raise IllegalAction(f"{slot.key(state.date)} is played by every power at once; the computer plays only a player's own turn",
                            hint="orders of a simultaneous phase come from each player; the host can skip nothing there either")
    if slot.power != act.power:
        raise IllegalAction(f"the current player is {slot.power}, not {act.power}; the computer plays only the turn of the player next to move (000:202)")


def _apply_ai_play(state: GameState, host: str, act: AiPlay, ctx: HostContext) -> Outcome:
    assert state.slot is not None and ctx.computer is not None
    slot = state.slot
    lent = state.with_power(act.power, controller=PlayerKind(act.level))
    setup = ctx.setup_for(act.power) if ctx.setup_for is not None else ()  # the computer's setup as given (ai.setup.choose)
    turn = ctx.computer(lent, act.power, ctx.rules, setup=setup)
    back = turn.state.with_power(act.power, controller=state.powers[act.power].controller)
    played = slot.key(state.date)  # the line belongs to the slot played, not to the one the turn moved on to
    out = _log(back, act, f"the computer ({act.level}) played {act.power}'s turn {played} "
                          f"with {len(turn.actions)} action(s)", slot_key=played, power=act.power, level=act.level)
    return Outcome(out.state, turn.events + out.events)


def _apply_replace_by_ai(state: GameState, host: str, act: ReplaceByAi, ctx: HostContext) -> Outcome:
    # The player's phase skip settings (13.9) spared rounds of mail; the computer plays every phase as a computer
    # power of a new game does, and starts with none (docs/decisions.md 13.9).
    dropped = bool(state.powers[act.power].skips)
    s = state.with_power(act.power, controller=PlayerKind(act.level), skips=type(state.powers[act.power].skips)())
    return _log(s, act, f"replaced {act.power}'s player {act.old_name} by the computer ({act.level}, {act.when})"
                + ("; the player's phase skip settings end with him (13.9)" if dropped else ""),
                power=act.power, old=act.old_name, level=act.level, when=act.when)


def _apply_replace_player(state: GameState, host: str, act: ReplacePlayer, ctx: HostContext) -> Outcome:
    # A human takes over (also from the computer, 000:206): the power is played by a human.
    s = state.with_power(act.power, controller=PlayerKind.HUMAN)
    if state.powers[act.power].controller is not PlayerKind.HUMAN and not state.options.full_pace:
        # From the computer: the human pace of a new game, the reinforcement phase skipped while nothing is due
        # (13.9; ``skips.pace_defaults``), for this power only.
        from eiapbem.rules.model import Phase
        from eiapbem.rules.model.powers import SkipMode

        s = s.with_power(act.power, skips=s.powers[act.power].skips.set(Phase.REINFORCEMENT, SkipMode.CONTINUOUS))
    return _log(s, act, f"replaced {act.power}'s player {act.old_name} by {act.new_name} ({act.when})",
                power=act.power, old=act.old_name, new=act.new_name, when=act.when)


def _apply_replace_host(state: GameState, host: str, act: ReplaceHost, ctx: HostContext) -> Outcome:
    plays = f", who plays {act.power}" if act.power else ""
    return _log(state, act, f"handed the host role from {act.old_name} to {act.new_name}{plays} ({act.when})",
                old=act.old_name, new=act.new_name, when=act.when)


def _verify_house_rules(state: GameState, host: str, act: HouseRules, ctx: HostContext) -> None:
    if min(act.remind_hours, act.remind_all_hours, act.ai_play_hours, act.offer_after) < 0:
        raise IllegalAction("the lateness ladder takes hours and counts of 0 or more (0 turns a step off)")


def _apply_house_rules(state: GameState, host: str, act: HouseRules, ctx: HostContext) -> Outcome:
    return _log(state, act, f"house rules for late players: reminder after {act.remind_hours} h, to all after "
                f"{act.remind_all_hours} h, the computer plays the slot after {act.ai_play_hours} h, seat offered "
                f"after {act.offer_after} missed slot(s) (0 = off)", remind=act.remind_hours,
                remind_all=act.remind_all_hours, ai_play=act.ai_play_hours, offer_after=act.offer_after)


def _apply_late_notice(state: GameState, host: str, act: LateNotice, ctx: HostContext) -> Outcome:
    text = _LATE_TEXT[act.step].format(power=act.power, slot=act.slot, hours=act.hours, missed=act.missed)
    return _log(state, act, text, power=act.power, step=act.step, slot=act.slot, hours=act.hours, missed=act.missed)


def _apply_backups(state: GameState, host: str, act: Backups, ctx: HostContext) -> Outcome:
    return _log(state, act, f"made backup set {act.epoch} from {act.source} ({act.when}); files made before it are obsolete",
                epoch=act.epoch, source=act.source, when=act.when)


def _apply_upgrade(state: GameState, host: str, act: Upgrade, ctx: HostContext) -> Outcome:
    where = state.slot.key(state.date) if state.slot is not None else "its end"
    return _log(state, act, f"moved the game to eiapbem {act.release} ({act.versions}; it played {act.before}) "
                f"at {where} ({act.when}); files made before it are obsolete",
                release=act.release, versions=act.versions, before=act.before, when=act.when)


def _no_check(state: GameState, host: str, act: Any, ctx: HostContext) -> None:
    """An act that records what the host did outside the rules (a replacement, backups): nothing to refuse."""


# ----------------------------------------------------------------- candidates (engine.legal_host_acts)


def _none(state: GameState, host: str, ctx: HostContext) -> tuple[()]:
    """Acts of any amount, place or name: not listed."""
    return ()


def _skip_candidates(state: GameState, host: str, ctx: HostContext) -> Iterator[SkipSlot]:
    if state.slot is not None and state.slot.power is not None:
        yield SkipSlot(state.slot.power)


def _ai_play_candidates(state: GameState, host: str, ctx: HostContext) -> Iterator[AiPlay]:
    if state.slot is not None and state.slot.power is not None:
        yield from (AiPlay(state.slot.power, level) for level in AI_LEVELS)


def _option_candidates(state: GameState, host: str, ctx: HostContext) -> Iterator[ChangeOption]:
    for name in OPTION_NAMES:
        yield ChangeOption(name, not getattr(state.options, name))


#: Every admin act with its rules, one unit per act (registered by ``eiapbem/rules/phases.py``).
ACTIONS: tuple[engine.HostActRules, ...] = (
    (AddPoliticalPoints, _verify_add, _apply_add, _none),
    (AddMoney, _verify_add, _apply_add, _none),
    (AddManpower, _verify_add, _apply_add, _none),
    (SetDiplomacy, _verify_diplomacy, _apply_diplomacy, _none),
    (RemoveUnit, _verify_remove, _apply_remove, _none),
    (PlaceUnit, _verify_place, _apply_place, _none),
    (EditUnit, _verify_edit, _apply_edit, _none),
    (CreateGarrison, _verify_garrison, _apply_garrison, _none),
    (ChangeOption, _verify_option, _apply_option, _option_candidates),
    (SkipSlot, _verify_skip, _apply_skip, _skip_candidates),
    (AiPlay, _verify_ai_play, _apply_ai_play, _ai_play_candidates),
    (ReplaceByAi, _no_check, _apply_replace_by_ai, _none),
    (ReplacePlayer, _no_check, _apply_replace_player, _none),
    (ReplaceHost, _no_check, _apply_replace_host, _none),
    (Backups, _no_check, _apply_backups, _none),
    (HouseRules, _verify_house_rules, _apply_house_rules, _none),
    (LateNotice, _no_check, _apply_late_notice, _none),
    (Upgrade, _no_check, _apply_upgrade, _none),
)
#: The admin menu as a part of the engine: its acts, authored by the host in any phase.
RULES = engine.PhaseRules("admin", host_acts=ACTIONS)

#: Each admin act's class, by kind.
ADMIN_ACTS: dict[str, type[Any]] = {unit[0].KIND: unit[0] for unit in ACTIONS}


def admin_to_obj(act: Record) -> dict[str, Any]:
    return engine.action_to_obj(act)


def admin_from_obj(obj: Any, path: str = "admin act") -> Record:
    """Decode an admin act from a host's file; ``BadEncoding`` names what is wrong."""
    return engine.host_act_from_obj(obj, path)


def apply_admin(state: GameState, act: Record, ctx: engine.RulesContext | None = None, *, setup: Any = None,
                computer: Computer | None = None) -> Outcome:
    """Apply one admin act through the engine (``engine.apply_host_act``); ``IllegalAction`` if refused.

    ``ctx`` (the admin file's dice), ``setup`` (the default setup of the power in play, in the setup phase) and
    ``computer`` (``eiapbem.ai.play_slot``, passed in by the layer above) are needed only by ``AiPlay``.
    """
    given = tuple(setup) if setup is not None else ()
    return engine.apply_host_act(state, act, HostContext(ctx, computer, lambda power: given))


def apply_all(state: GameState, acts: list[Record], ctx: engine.RulesContext | None = None,
              setup_for: Callable[[str], Sequence[Any]] | None = None, computer: Computer | None = None) -> Outcome:
    """Apply admin acts in order; ``setup_for(power)`` gives the default setup an ``AiPlay`` loads."""
    hctx = HostContext(ctx, computer, setup_for)
    out = Outcome(state)
    for a in acts:
        out = out.then(engine.apply_host_act(out.state, a, hctx))
    return out


__all__ = [
    "ACTIONS", "ADMIN_ACTS", "AI_LEVELS", "AddManpower", "AddMoney", "AddPoliticalPoints", "AiPlay", "Backups", "ReplaceByAi",
    "ChangeOption", "CreateGarrison", "EditUnit", "HouseRules", "LateNotice", "PlaceUnit", "RULES", "RemoveUnit", "ReplaceHost",
    "ReplacePlayer", "SetDiplomacy", "SkipSlot", "Upgrade", "admin_from_obj", "admin_to_obj", "apply_admin", "apply_all",
]
