"""The rules engine: the one way a player's choice changes the game (DESIGN.md §3).

Every choice is a typed **action**: a frozen ``Record`` with a ``KIND``
(``"setup.place-corps"``), registered here with the phases it belongs to and
three functions of the phase's module, one unit ``(ActionClass, verify, apply, candidates)``:

- ``verify(state, power, action, ctx)`` raises ``IllegalAction`` with one
  sentence a player can act on (it never changes anything);
- ``apply(state, power, action, ctx)`` returns the new state and the events
  (log entries); it is only called after ``verify`` passed;
- ``candidates(state, power, ctx)`` lists concrete actions of the class to
  offer; ``legal_actions`` keeps those ``verify`` accepts (python-chess's legal
  moves; ``has_choice``, ``possible_kinds``).

The host's admin acts (4.2.8) are units of the same shape authored by ``HOST``
in no phase (``PhaseRules.host_acts``, ``apply_host_act``); no turn file carries one.

``verify_action`` / ``can_act`` / ``apply_action`` wrap them with the checks
every action shares (the game is not over, the power acts in this slot, the
action belongs to this phase, no decision is waiting for someone else).
``apply_actions`` replays a turn file's list of actions; replay gives the same
state as live play because both run the same code with the same dice.

A phase declares all of this in one value, ``PhaseRules`` (its actions, the
decisions it answers, its hooks and its gaps), as ``RULES`` in its module, and
``eiapbem/rules/phases.py`` lists every ``RULES``: the one registry, loaded the
first time the engine is used (``docs/adding-an-action.md`` is the checklist).
Nothing registers itself at import time: ``register_rules`` is the only way in,
and only ``_load`` (for the registry) and tests call it.

The **phase hooks**:

- ``obligations(state, power, ctx)``: sentences naming what the power must
  still do before ending its slot (5.1: every factor and ship placed);
- ``finish(state, power, ctx)``: what the rules do when the power ends its
  slot (lost reinforcements, 7.2.2);
- ``resolve(state, orders, ctx)``: for a simultaneous slot (diplomacy,
  economic), the rules that turn every power's orders into one new state.

``end_slot`` ends a sequential slot; ``resolve_slot`` ends a simultaneous one
once every actor's orders are in (``check_orders`` validates one power's orders
against the common starting state before its file is written).  Phases with no
registered actions or hooks are "not implemented yet": they accept only the end
of the slot, and ``phase_implemented`` says so for ``eiapbem status``.

The engine has no I/O, clock or randomness of its own: the map and the world
data arrive in ``RulesContext``, the dice are the labelled dice of the file
being played.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from eiapbem.core import canonical
from eiapbem.core.errors import BadEncoding, EiaError, IllegalAction, quoted
from eiapbem.rules import sequence
from eiapbem.rules.context import RulesContext
from eiapbem.rules.model import POWERS, GameState, LogEntry, Phase, Record
from eiapbem.rules.model.base import FrozenMap
from eiapbem.rules.model.slot import ORDERS


@dataclass(frozen=True)
class Outcome:
    """A new state and what happened, in order (the events are also in ``state.log``)."""

    state: GameState
    events: tuple[LogEntry, ...] = ()

    def then(self, other: "Outcome") -> "Outcome":
        return Outcome(other.state, self.events + other.events)


Verify = Callable[[GameState, str, Any, RulesContext], None]
Apply = Callable[[GameState, str, Any, RulesContext], Outcome]
#: The candidate actions of one class for a power in a state (``legal_actions``): a bounded iterable of concrete
#: actions, which the engine checks with the class's ``verify``; it need not check them itself.
Candidates = Callable[[GameState, str, RulesContext], Iterable[Any]]
Obligations = Callable[[GameState, str, RulesContext], Sequence[str]]
Finish = Callable[[GameState, str, RulesContext], Outcome]
Resolve = Callable[[GameState, Mapping[str, Sequence[Any]], RulesContext], Outcome]
DecisionVerify = Callable[[GameState, str, Any, str, RulesContext], None]
DecisionApply = Callable[[GameState, str, Any, str, RulesContext], Outcome]


@dataclass(frozen=True)
class ActionSpec:
    cls: type[Any]
    phases: tuple[Phase, ...]
    verify: Verify
    apply: Apply
    summary: str
    candidates: Candidates


#: One action class with its rules, registered as a unit: ``(ActionClass, verify, apply, candidates)``.
ActionRules = tuple[type[Any], Verify, Apply, Candidates]


#: The author of the admin acts (4.2.8): the host, in no phase and in no power's slot.
HOST = "host"


@dataclass(frozen=True)
class HostContext:
    """What the host's admin acts may consult: the admin file's rules context (its dice; none where no act needs
    them), the computer player (``ai.play_slot``, for the host's "quick play turn with AI": passed in by the layer
    above, since the rules import no AI) and the default setup of a power (``setup_for``)."""

    rules: RulesContext | None = None
    computer: Callable[..., Any] | None = None
    setup_for: Callable[[str], Sequence[Any]] | None = None


HostVerify = Callable[[GameState, str, Any, HostContext], None]
HostApply = Callable[[GameState, str, Any, HostContext], Outcome]
HostCandidates = Callable[[GameState, str, HostContext], Iterable[Any]]
#: One admin act with its rules, registered as a unit like an action: ``(ActClass, verify, apply, candidates)``.
HostActRules = tuple[type[Any], HostVerify, HostApply, HostCandidates]


@dataclass(frozen=True)
class HostActSpec:
    cls: type[Any]
    verify: HostVerify
    apply: HostApply
    candidates: HostCandidates
    summary: str


@dataclass(frozen=True)
class PhaseHooks:
    obligations: Obligations | None = None
    finish: Finish | None = None
    resolve: Resolve | None = None


_ACTIONS: dict[str, ActionSpec] = {}
_PHASES: dict[Phase, PhaseHooks] = {}

#: The one registry of the rules: the module whose ``RULES`` holds every ``PhaseRules`` (by name, so the
#: engine does not import the phases that import it).
REGISTRY = "eiapbem.rules.phases"

@dataclass(frozen=True)
class PhaseRules:
    """What a phase (or one part of the rules, like field battles) adds to the engine, in one value.

    ``actions`` are ``(ActionClass, verify, apply, candidates)`` units belonging to ``phases``
    (``candidates`` lists the class's concrete actions for ``legal_actions``);
    ``decisions`` are ``(kind_prefix, verify, apply)`` answers to pending decisions (any
    phase); ``obligations``, ``finish`` and ``resolve`` are the phase hooks (then
    ``phases`` names exactly one phase); ``gaps`` says which rules of the phase are not
    built yet.  A module declares ``RULES = PhaseRules(...)`` and ``eiapbem/rules/phases.py``
    lists it; ``docs/adding-an-action.md`` is the checklist.
    """

    name: str
    phases: tuple[Phase, ...] = ()
    actions: tuple[ActionRules, ...] = ()
    decisions: tuple[tuple[str, DecisionVerify, DecisionApply], ...] = ()
    obligations: Obligations | None = None
    finish: Finish | None = None
    resolve: Resolve | None = None
    gaps: str = ""
    #: Effects this part adds at a named point of another part, ``(point, rank, function)`` (issue 30 item 4):
    #: the part that owns the point runs them in rank order (``hooks``), so it need not import the packages
    #: adding them.  The points: ``HOOK_POINTS``.
    hooks: tuple[tuple[str, int, Callable[..., Any]], ...] = ()
    #: Decision kinds whose answer may also be composed of several choices (a whole loss allocation,
    #: 11.2.9): the engine leaves the check of such an answer to the decision's ``verify``.
    composite: tuple[str, ...] = ()
    #: The host's admin acts (4.2.8), ``(ActClass, verify, apply, candidates)`` units like ``actions`` but authored
    #: by the host (``HOST``) in no phase, carried only by the host's admin files (``apply_host_act``).
    host_acts: tuple[HostActRules, ...] = ()

    @property
    def action_classes(self) -> tuple[type[Any], ...]:
        return tuple(unit[0] for unit in self.actions)


def register_rules(rules: PhaseRules) -> None:
    """Register one phase description (``_load`` does it for every entry of the registry; tests add their own)."""
    hooks = rules.obligations or rules.finish or rules.resolve or rules.gaps
    if hooks and len(rules.phases) != 1:
        raise ValueError(f"{rules.name}: phase hooks and gaps belong to exactly one phase, not {rules.phases}")
    if rules.actions and not rules.phases:
        raise ValueError(f"{rules.name}: actions need the phases they belong to")
    for unit in rules.actions:
        if len(unit) != 4:
            raise ValueError(f"{rules.name}: an action is registered as (ActionClass, verify, apply, candidates), not {unit!r}")
        _register_action(*unit, phases=rules.phases)
    for prefix, dverify, dapply in rules.decisions:
        _register_decision(prefix, dverify, dapply)
    _COMPOSITE.update(rules.composite)
    for act in rules.host_acts:
        if len(act) != 4:
            raise ValueError(f"{rules.name}: an admin act is registered as (ActClass, verify, apply, candidates), not {act!r}")
        _register_host_act(*act)
    for point, rank, fn in rules.hooks:
        if point not in HOOK_POINTS:
            raise ValueError(f"{rules.name}: no hook point {point!r}; the points are {', '.join(HOOK_POINTS)}")
        _HOOKS.setdefault(point, []).append((rank, rules.name, fn))
        _HOOKS[point].sort(key=lambda h: (h[0], h[1]))
    if rules.obligations or rules.finish or rules.resolve:
        _register_phase(rules.phases[0], PhaseHooks(rules.obligations, rules.finish, rules.resolve))
    if rules.gaps:
        _GAPS[rules.phases[0]] = rules.gaps


def _register_action(cls: type[Any], verify: Verify, apply: Apply, candidates: Candidates, *,
                     phases: Iterable[Phase]) -> None:
    """Register the action class ``cls`` (a ``Record`` with a ``KIND``)."""
    kind = getattr(cls, "KIND", "")
    if not kind:
        raise ValueError(f"{cls.__name__} has no KIND")
    if kind in _ACTIONS:
        raise ValueError(f"action kind {kind!r} registered twice")
    summary = (cls.__doc__ or kind).strip().splitlines()[0]
    _ACTIONS[kind] = ActionSpec(cls, tuple(phases), verify, apply, summary, candidates)


def _register_phase(phase: Phase, hooks: PhaseHooks) -> None:
    if phase in _PHASES:
        raise ValueError(f"hooks for the {phase} phase registered twice")
    _PHASES[phase] = hooks


_HOST_ACTS: dict[str, HostActSpec] = {}


def _register_host_act(cls: type[Any], verify: HostVerify, apply: HostApply, candidates: HostCandidates) -> None:
    kind = getattr(cls, "KIND", "")
    if not kind.startswith("admin."):
        raise ValueError(f"{cls.__name__}: an admin act's KIND begins with 'admin.', not {kind!r}")
    if kind in _HOST_ACTS or kind in _ACTIONS:
        raise ValueError(f"action kind {kind!r} registered twice")
    _HOST_ACTS[kind] = HostActSpec(cls, verify, apply, candidates, (cls.__doc__ or kind).strip().splitlines()[0])


#: The named points where one part of the rules runs effects another part adds (``PhaseRules.hooks``), and the
#: signature each point calls.
HOOK_POINTS = {
    "land.slot-end": "(state, power, ctx) -> Outcome: after a land slot's own end effects (10.7), in rank order",
    "battle.after": "(state, battle, ctx) -> (state, battle): after a field battle's own aftermath (11.2.11)",
    "standing.naval": "(state, decision) -> str: the standing-order answer to a naval.* question (9.2.1.1)",
}
_HOOKS: dict[str, list[tuple[int, str, Callable[..., Any]]]] = {}


def hooks(point: str) -> tuple[Callable[..., Any], ...]:
    """The functions registered at ``point`` (``HOOK_POINTS``), by rank then by the registering part's name."""
    _load()
    return tuple(fn for _, _, fn in _HOOKS.get(point, ()))


#: Which rules of a phase that has actions are not built yet (shown by ``eiapbem status``).
_GAPS: dict[Phase, str] = {}


def phase_gaps(phase: Phase) -> str:
    """The rules of ``phase`` not built yet, one sentence, or "" when the phase is complete or not begun."""
    _load()
    return _GAPS.get(phase, "")


_LOADED: list[str] = []


def _load() -> None:
    """Register the registry's phase descriptions, once."""
    import importlib

    if not _LOADED:
        _LOADED.append(REGISTRY)
        for rules in importlib.import_module(REGISTRY).RULES:
            register_rules(rules)


def action_kinds(phase: Phase | None = None) -> dict[str, ActionSpec]:
    """Registered actions (of one phase), by kind."""
    _load()
    return {k: s for k, s in sorted(_ACTIONS.items()) if phase is None or phase in s.phases}


def phase_implemented(phase: Phase) -> bool:
    """True when the rules of ``phase`` are built (it has actions or hooks)."""
    _load()
    # Answering a pending decision is possible in every phase; it does not make a phase's rules.
    # Nor does a setting a power may change in any of its slots (13.9 phase skipping: ``ANY_PHASE``).
    return phase in _PHASES or any(phase in s.phases for k, s in _ACTIONS.items()
                                   if k != "decision.answer" and not getattr(s.cls, "ANY_PHASE", False))


# ----------------------------------------------------------------- encoding


def action_to_obj(action: Record) -> dict:
    obj = action.to_obj()
    obj["kind"] = action.KIND
    return obj


def _decoded(specs: Mapping[str, ActionSpec | HostActSpec], obj: Any, path: str, what: str, unknown: str) -> Record:
    """The record of kind ``obj["kind"]`` among ``specs``; ``BadEncoding`` names what is wrong."""
    _load()
    if not isinstance(obj, dict) or not isinstance(obj.get("kind"), str):
        raise BadEncoding(f"{path}: {what} is a map with a 'kind'")
    spec = specs.get(obj["kind"])
    if spec is None:
        raise BadEncoding(f"{path}: {unknown} {quoted(obj['kind'])}")
    found: Record = spec.cls.from_obj({k: v for k, v in obj.items() if k != "kind"}, path)
    return found


def action_from_obj(obj: Any, path: str = "action") -> Record:
    """Decode an action from a file; ``BadEncoding`` names what is wrong."""
    return _decoded(_ACTIONS, obj, path, "an action", "unknown action kind")


# ----------------------------------------------------------------- acting


def _spec(action: Any) -> ActionSpec:
    _load()
    spec = _ACTIONS.get(getattr(action, "KIND", ""))
    if spec is None or not isinstance(action, spec.cls):
        raise IllegalAction(f"{type(action).__name__} is not an action of this game")
    return spec


def verify_actor(state: GameState, power: str) -> None:
    """Raise ``IllegalAction`` unless ``power`` acts in the current slot (or must answer a decision)."""
    if power not in POWERS:
        raise IllegalAction(f"{power!r} is not a major power")
    slot = state.slot
    if slot is None:
        raise IllegalAction("the game is over; nothing more can be done")
    if power not in slot.actors and not any(d.power == power for d in state.pending.values()):
        who = slot.power or ", ".join(slot.actors)
        raise IllegalAction(
            f"it is not {power}'s turn: {slot.key(state.date)} belongs to {who}",
            hint="'eiapbem status' shows whose turn it is",
        )


def _with_edits(state: GameState, ctx: RulesContext) -> RulesContext:
    """The context with an edited scenario's unit data (14.3; ``rules.world_edits``), else ``ctx``."""
    if not state.world_edits:
        return ctx
    from eiapbem.rules.world_edits import for_state

    return for_state(state, ctx)  # type: ignore[no-any-return]


def verify_action(state: GameState, power: str, action: Any, ctx: RulesContext) -> None:
    """Raise ``IllegalAction`` if ``power`` may not take ``action`` now."""
    ctx = _with_edits(state, ctx)
    spec = _spec(action)
    verify_actor(state, power)
    assert state.slot is not None
    if state.slot.phase not in spec.phases:
        allowed = ", ".join(str(p) for p in spec.phases)
        raise IllegalAction(f"{spec.cls.KIND} is an action of the {allowed} phase, not of the {state.slot.phase} phase")
    waiting = [d for d in state.pending.values() if d.power != power]
    # Answers go on while another's question waits: a decision's answer, a battle's standing orders (``ANSWER``).
    if waiting and not isinstance(action, AnswerDecision) and not getattr(spec.cls, "ANSWER", False):
        d = waiting[0]
        raise IllegalAction(f"the game waits for {d.power} to answer {d.kind} first")
    spec.verify(state, power, action, ctx)


def can_act(state: GameState, power: str, action: Any, ctx: RulesContext) -> bool:
    try:
        verify_action(state, power, action, ctx)
    except IllegalAction:
        return False
    return True


def apply_action(state: GameState, power: str, action: Any, ctx: RulesContext) -> Outcome:
    """Verify, then apply; on refusal the state is untouched (it is immutable)."""
    ctx = _with_edits(state, ctx)
    verify_action(state, power, action, ctx)
    return _spec(action).apply(state, power, action, ctx)


def apply_actions(state: GameState, power: str, actions: Iterable[Any], ctx: RulesContext) -> Outcome:
    """Apply a list of actions in order (a turn file's replay)."""
    out = Outcome(state)
    for action in actions:
        out = out.then(apply_action(out.state, power, action, ctx))
    return out


# ----------------------------------------------------------------- what a power may do now


def is_setting(cls: type[Any]) -> bool:
    """An option of every slot of the power rather than a choice of the slot's own rules.

    Standing orders (``SETTING``: battle chits, naval orders, phase skipping) and the options of any phase
    (``ANY_PHASE``: releasing a prisoner) are open in every slot the power plays; ``has_choice`` leaves them out.
    """
    return bool(getattr(cls, "SETTING", False) or getattr(cls, "ANY_PHASE", False))


def _legal(state: GameState, power: str, ctx: RulesContext, settings: bool,
           kinds: Collection[str] | None = None, one_each: bool = False) -> Iterable[Any]:
    _load()
    slot = state.slot
    if slot is None or power not in POWERS:
        return
    ctx = _with_edits(state, ctx)
    seen: set[Any] = set()

    def fresh(action: Any) -> bool:
        if action in seen:
            return False
        seen.add(action)
        return can_act(state, power, action, ctx)

    # Only answers while a question waits for another power, or in a slot the power does not play (``verify_action``).
    only_answers = power not in slot.actors or any(d.power != power for d in state.pending.values())
    for spec in _ACTIONS.values():
        if (slot.phase not in spec.phases or (not settings and is_setting(spec.cls))
                or (only_answers and spec.cls is not AnswerDecision) or (kinds is not None and spec.cls.KIND not in kinds)):
            continue
        for action in spec.candidates(state, power, ctx):
            if fresh(action):
                yield action
                if one_each:
                    break


def legal_actions(state: GameState, power: str, ctx: RulesContext, *, settings: bool = True,
                  kinds: Collection[str] | None = None) -> tuple[Any, ...]:
    """Every concrete action ``power`` may take now, each accepted by ``verify_action`` (python-chess's legal moves).

    The answers to the power's pending decisions come first (each offered option); then, unless a question
    waits for another power, the actions of the slot's phase that each class's ``candidates`` lists, in the
    registry's order and without repeats.  Each class lists a bounded set: a unit's moves to every place it can
    reach (by the cheapest path), every target of a declaration or an attack, and amounts (factors, ships, money)
    at their least and at their most; so the list is empty exactly when no action of the phase is legal.
    ``settings=False`` leaves out the options of every slot (``is_setting``); ``kinds`` keeps only actions of those
    kinds (``"land.move"``: the moves the map offers to click, 4.1.2).  Protocol records that end-phase
    writes itself (a sealed diplomacy commitment and its reveal) and results signed outside the game are never
    listed.  For a simultaneous phase pass the power's own orders so far on the sheet (the client's state).
    """
    return tuple(_legal(state, power, ctx, settings, kinds))


def possible_kinds(state: GameState, power: str, ctx: RulesContext) -> tuple[str, ...]:
    """The kinds of action ``power`` may take now (settings left out), each found by its first legal action."""
    return tuple(a.KIND for a in _legal(state, power, ctx, False, one_each=True))


def has_choice(state: GameState, power: str, ctx: RulesContext) -> bool:
    """``power`` has something to decide now besides ending its slot: a question to answer or a legal action of
    the slot's rules (settings left out, ``is_setting``).  Stops at the first one found.

    A slot without a choice may still hold an obligation the player meets outside the list: a sealed
    diplomacy reveal that end-phase writes, or a battle result signed outside the game (``unmet_obligations``)."""
    return next(iter(_legal(state, power, ctx, False)), None) is not None


# ----------------------------------------------------------------- a slot with nothing to decide (issue 33)

#: What "nothing to decide" means in each phase's words (the test is the rules' own list, ``has_choice``).
_NOTHING = {
    Phase.REINFORCEMENT: "nothing due to place and nothing to transfer, retire, assign or lend",
    Phase.NAVAL: "no fleet that can move, load, unload or attack",
    Phase.LAND: "no corps, depot or leader with anything to do",
}


def nothing_to_decide(state: GameState, power: str, ctx: RulesContext) -> str | None:
    """Why ``power``'s sequential slot in play ends by itself, or ``None`` when it needs the power's file.

    It does when the rules give the power no choice but ending it: the slot is the power's own, no question waits
    for anyone, the rules list no action for it (``has_choice``: standing orders and the options of every slot left
    out, they wait for the power's next slot with a choice), nothing is left it must do (``unmet_obligations``), and
    ending it is accepted.  A pure function of the state and the map, so every client finds the same slots."""
    slot = state.slot
    if slot is None or slot.simultaneous or slot.power != power or state.pending:
        return None
    ctx = _with_edits(state, ctx)
    if has_choice(state, power, ctx) or unmet_obligations(state, power, ctx):
        return None
    return _NOTHING.get(slot.phase, f"nothing to decide in the {slot.phase} phase")


def pass_slot(state: GameState, power: str, ctx: RulesContext) -> Outcome | None:
    """End ``power``'s slot without its file when it has nothing to decide (``nothing_to_decide``), with a public log
    line saying so; ``None`` when the slot needs the power's file.  ``ctx.dice`` are the slot's passing dice
    (docs/file-format.md 7.3): ending a slot may roll (a phase's end effects)."""
    why = nothing_to_decide(state, power, ctx)
    if why is None:
        return None
    assert state.slot is not None
    out = log(state, "game", sequence.PASSED, f"{power}'s {state.slot.phase} slot ends by itself: {why}", power=power,
              phase=str(state.slot.phase), reason="no-choice")
    try:
        return out.then(end_slot(out.state, power, ctx))
    except IllegalAction:
        return None  # the end itself refused (a phase's finish): the power's file decides


# ----------------------------------------------------------------- the host's admin acts (4.2.8)


def host_acts() -> dict[str, HostActSpec]:
    """The registered admin acts, by kind."""
    _load()
    return dict(sorted(_HOST_ACTS.items()))


def host_act_from_obj(obj: Any, path: str = "admin act") -> Record:
    """Decode an admin act from a host's file; ``BadEncoding`` names what is wrong (no player's action is one)."""
    return _decoded(_HOST_ACTS, obj, path, "an admin act", "unknown admin act")


def _host_spec(act: Any) -> HostActSpec:
    _load()
    spec = _HOST_ACTS.get(getattr(act, "KIND", ""))
    if spec is None or not isinstance(act, spec.cls):
        raise IllegalAction(f"{type(act).__name__} is not an admin act of this game")
    return spec


def verify_host_act(state: GameState, act: Any, ctx: HostContext) -> None:
    """Raise ``IllegalAction`` if the host may not make ``act`` now (it changes nothing)."""
    spec = _host_spec(act)
    if state.slot is None:
        raise IllegalAction("the game is over; the admin menu changes nothing any more")
    spec.verify(state, HOST, act, ctx)


def apply_host_act(state: GameState, act: Any, ctx: HostContext) -> Outcome:
    """Verify, then apply one admin act; the host is its author and its log line says so (000:246-250).

    A state the model cannot hold (money below zero, a fleet in a land area) is refused in one sentence."""
    try:
        verify_host_act(state, act, ctx)
        return _host_spec(act).apply(state, HOST, act, ctx)
    except IllegalAction:
        raise
    except EiaError as err:
        raise IllegalAction(f"the edit {act.KIND} would leave a state the game cannot hold: {err}") from err


def legal_host_acts(state: GameState, ctx: HostContext) -> tuple[Any, ...]:
    """The admin acts the host may make now that each act's ``candidates`` lists (acts of any amount, place or
    name are not listed), each accepted by ``verify_host_act``."""
    out: list[Any] = []
    for spec in host_acts().values():
        for act in spec.candidates(state, HOST, ctx):
            try:
                verify_host_act(state, act, ctx)
            except IllegalAction:
                continue
            if act not in out:
                out.append(act)
    return tuple(out)


# ----------------------------------------------------------------- the order sheet


def record_order(state: GameState, power: str, action: Record) -> GameState:
    """``state`` with ``action`` written at the end of ``power``'s orders on the order sheet.

    The ``apply`` of a simultaneous phase's order (economic, 12.0): the order takes effect only when the
    phase's ``resolve`` reads the sheet; the sequence clears the sheet when play moves on.
    """
    return state.replace(order_sheet=state.order_sheet.add(power, canonical.encode(action_to_obj(action))))


@lru_cache(maxsize=4096)
def _sheet_order(data: bytes) -> Record:
    # Orders are immutable values: one decoded copy serves every later look at the same bytes.
    return action_from_obj(canonical.decode(data), "order sheet")


def given_orders(state: GameState, power: str) -> tuple[Record, ...]:
    """The orders ``power`` has written on the order sheet in the slot in play, in order."""
    return tuple(_sheet_order(d) for d in state.order_sheet.of(power))


def sealed_already(state: GameState, power: str) -> bool:
    """The reveal round of a power whose diplomacy orders are sealed (6.0): before its reveal is on the sheet no
    order may be added (at the reveal, the sealed orders, settings among them, are played after it)."""
    slot = state.slot
    return (slot is not None and slot.phase is Phase.DIPLOMACY and slot.step == ORDERS
            and power in state.order_sheet.commitments and not given_orders(state, power))


# ----------------------------------------------------------------- ending a slot


def unmet_obligations(state: GameState, power: str, ctx: RulesContext) -> tuple[str, ...]:
    """Sentences naming what ``power`` must still do before ending its slot."""
    _load()  # the phase hooks are registered by the rule modules
    ctx = _with_edits(state, ctx)
    verify_actor(state, power)
    assert state.slot is not None
    # Every open question blocks the end of the slot, whoever must answer it: a battle
    # started in this slot must be fought out before the slot passes.
    found = [
        f"answer the pending decision {d.kind} ({d.id}): 'eiapbem answer {d.id} CHOICE'" if d.power == power else f"wait for {d.power} to answer {d.kind} ({d.id})"
        for d in state.pending.values()
    ]
    hooks = _PHASES.get(state.slot.phase)
    if hooks and hooks.obligations:
        found.extend(hooks.obligations(state, power, ctx))
    return tuple(found)


def _advance(state: GameState) -> GameState:
    from eiapbem.rules.sequence import advance

    return advance(state)


def end_slot(state: GameState, power: str, ctx: RulesContext) -> Outcome:
    """End ``power``'s sequential slot ("End Current Phase") and move to the next slot."""
    _load()
    ctx = _with_edits(state, ctx)
    verify_actor(state, power)
    assert state.slot is not None
    if state.slot.simultaneous:
        raise IllegalAction(
            f"{state.slot.key(state.date)} is played by all powers at once; it ends when every power's orders are in"
        )
    unmet = unmet_obligations(state, power, ctx)
    if unmet:
        raise IllegalAction(f"{power} cannot end the phase yet: {unmet[0]}", hint="; ".join(unmet[1:]) or None)
    out = Outcome(state)
    hooks = _PHASES.get(state.slot.phase)
    if hooks and hooks.finish:
        out = out.then(hooks.finish(out.state, power, ctx))
    return Outcome(_advance(out.state), out.events)


def check_orders(state: GameState, power: str, orders: Sequence[Any], ctx: RulesContext) -> Outcome:
    """Validate one power's orders for a simultaneous slot against the common start.

    Each order is applied in turn to a scratch state (so later orders see the
    effect of earlier ones); the returned outcome is that scratch, never the
    game's state: the real state changes only in ``resolve_slot``.
    """
    _load()
    verify_actor(state, power)
    assert state.slot is not None
    if not state.slot.simultaneous:
        raise IllegalAction(f"{state.slot.key(state.date)} is {state.slot.power}'s own turn, not a phase of orders")
    out = apply_actions(state, power, orders, ctx)
    unmet = unmet_obligations(out.state, power, ctx)
    if unmet:
        raise IllegalAction(f"{power}'s orders are not complete: {unmet[0]}")
    return out


def resolve_slot(state: GameState, orders: Mapping[str, Sequence[Any]], ctx: RulesContext) -> Outcome:
    """Resolve a simultaneous slot once every actor's orders are in, then advance.

    Without a phase ``resolve`` hook, the orders are applied power by power in
    the fixed order of the seven powers (each validated as it is applied).
    """
    _load()
    ctx = _with_edits(state, ctx)
    slot = state.slot
    if slot is None or not slot.simultaneous:
        raise IllegalAction("there is no simultaneous phase to resolve now")
    missing = [p for p in slot.actors if p not in orders]
    extra = [p for p in orders if p not in slot.actors]
    if missing or extra:
        raise IllegalAction(
            f"{slot.key(state.date)} needs the orders of {', '.join(slot.actors)}"
            + (f"; missing {', '.join(missing)}" if missing else "")
            + (f"; {', '.join(extra)} do not act in it" if extra else "")
        )
    hooks = _PHASES.get(slot.phase)
    if hooks and hooks.resolve:
        out = hooks.resolve(state, orders, ctx)
    else:
        out = Outcome(state)
        for p in POWERS:
            if p in orders:
                out = out.then(apply_actions(out.state, p, orders[p], ctx))
    if hooks and hooks.finish:
        for p in slot.actors:
            out = out.then(hooks.finish(out.state, p, ctx))
    return Outcome(_advance(out.state), out.events)


# ----------------------------------------------------------------- pending decisions

_DECISIONS: dict[str, tuple[DecisionVerify, DecisionApply]] = {}
#: Decision kinds that accept composed answers (``PhaseRules.composite``).
_COMPOSITE: set[str] = set()


def _register_decision(kind_prefix: str, verify: DecisionVerify, apply: DecisionApply) -> None:
    """Handle answers to pending decisions whose kind is ``kind_prefix`` or starts with ``kind_prefix.``.

    ``verify(state, power, decision, choice, ctx)`` may refuse a choice beyond the
    offered options; ``apply`` removes the decision from ``state.pending`` and goes
    on with the rules (the next round of a battle, the next question…).
    """
    if kind_prefix in _DECISIONS:
        raise ValueError(f"decisions {kind_prefix!r} registered twice")
    _DECISIONS[kind_prefix] = (verify, apply)


def _decision_handler(kind: str) -> tuple[DecisionVerify, DecisionApply] | None:
    parts = kind.split(".")
    for n in range(len(parts), 0, -1):
        h = _DECISIONS.get(".".join(parts[:n]))
        if h:
            return h
    return None


@dataclass(frozen=True, slots=True)
class AnswerDecision(Record):
    """Answer a pending decision (a chit, withdraw or fight on, a sortie…)."""

    KIND = "decision.answer"
    decision: str
    choice: str


def _verify_answer(state: GameState, power: str, action: AnswerDecision, ctx: RulesContext) -> None:
    d = state.pending.get(action.decision)
    if d is None:
        raise IllegalAction(f"there is no pending decision {quoted(action.decision)}", hint="'eiapbem status' lists the questions waiting")
    if d.power != power:
        raise IllegalAction(f"decision {action.decision} is for {d.power} to answer, not {power}")
    if action.choice not in d.options and d.kind not in _COMPOSITE:
        raise IllegalAction(f"{quoted(action.choice)} is not an answer to {d.kind}; choose one of {', '.join(d.options)}")
    handler = _decision_handler(d.kind)
    if handler is None:
        raise IllegalAction(f"no rules answer decisions of kind {d.kind}")
    handler[0](state, power, d, action.choice, ctx)


def _apply_answer(state: GameState, power: str, action: AnswerDecision, ctx: RulesContext) -> Outcome:
    d = state.pending[action.decision]
    handler = _decision_handler(d.kind)
    assert handler is not None
    return handler[1](state, power, d, action.choice, ctx)


def _answers(state: GameState, power: str, ctx: RulesContext) -> Iterable[AnswerDecision]:
    """Each option offered by each of ``power``'s pending questions (a composed answer, 11.2.9, is not listed)."""
    for d in sorted(state.pending.values(), key=lambda d: d.id):
        if d.power == power:
            yield from (AnswerDecision(d.id, option) for option in d.options)


# ----------------------------------------------------------------- helpers for rule modules


def log(state: GameState, author: str, kind: str, text: str, *, slot_key: str | None = None, **params: Any) -> Outcome:
    """Append one public log line for the current slot (or the slot ``slot_key``: one already played); return the
    outcome."""
    assert state.slot is not None
    entry = LogEntry(
        slot=slot_key or state.slot.key(state.date), author=author, kind=kind, text=text,
        params=FrozenMap(sorted(params.items()))
    )
    return Outcome(state.with_log(entry), (entry,))


#: The engine's own action, answering a pending decision in any phase (listed first in ``eiapbem/rules/phases.py``).
RULES = PhaseRules("decisions", phases=tuple(Phase), actions=((AnswerDecision, _verify_answer, _apply_answer, _answers),))
