"""What a turn file produces: the one consensus function of the game (4.1.1, 4.2.7; issue 14 item 1).

Every client computes the state after a turn file with ``play_turn``: the
writer when it ends its phase, every reader when it loads the file, the
attacker while a battle's files are exchanged.  Nothing else decides what a
file means, so a change here is a change of the rules version
(``RULES_VERSION``, written in the gamestart and checked at ``join`` and when
a save is opened).

Who answers a question that is not the acting power's (4.1.1 "PBEM Quick
Combat", 000:48; 4.2.7, 000:168-176) is a rule, kept here:

- a battle question for a human defender of a human's slot with more than
  one of its corps engaged and quick combat off: battle files
  (``exchange_needed``), answered by the defender at its computer;
- any other battle or siege question of a human in someone else's slot: its
  standing orders (``rules.combat.standing``), at every client alike
  (``automatic``);
- a question for a computer power: its level's answer (the ``computer``
  argument, ``eiapbem.ai`` in practice: the rules never import the AI).

Dice (docs/file-format.md 7.2, 7.4): ``BattleDice`` gives every
``battle/<id>/...`` roll of a battle that has exchanged files from the seed of
its latest exchange, every other roll from the slot's own dice.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, Mapping, Protocol, Sequence

from eiapbem.core.dice import Dice, DiceError
from eiapbem.core.errors import BadEncoding, IllegalAction, RulesBug
from eiapbem.rules import engine
from eiapbem.rules.engine import AnswerDecision, RulesContext
from eiapbem.rules.model import GameState, PlayerKind

#: The version of what a turn file produces: bump it whenever the same file could give another state
#: (a rule, the automatic answers, the order of resolution).  Each computer level has its own
#: (``eiapbem.ai.levels.VERSIONS``); all of them are written in the gamestart (``versions``).
RULES_VERSION = 16  # 2: the diplomacy phase (issue 16): sealed commit round, its rules and orders;
#: 3: a joined secondary district (Norway, Finland, Sicily) is conquered alone by holding its capital, and leaves
#: its major district when that becomes a free state (13.6.3)
#: 4: a city taken and left behind returns to its area's holder (13.5.1-13.5.2); lone Cossacks and Freikorps
#: withdraw by standing order (13.2.2); battle standing orders and whole loss allocations (11.2.1, 11.2.9)
#: 5: a beaten force retreats toward a national capital whose *city* its power holds (11.2.10, 000:1842)
#: 6: the rules' last mile: repatriation after the grace of temporary access (6.4, 13.4.1), ties broken by forced
#: and mutual declarations charged to each power (6.6.3), and the choices the manual gives to the player or program
#: 7: a human's slot with nothing to decide ends by itself at every client (``engine.pass_slot``); next month's
#: diplomacy orders may be sealed ahead in a land or economic file (``sealing.SealAhead``, ``RevealAhead``); a
#: battle answered by standing orders for the rest of it (``rules.combat.plans``)
#: 8: a province ceded at a peace is the victor's at once (its areas, its capital's garrison sent home, 12.7, 6.4);
#: a peace ends the sieges between its sides (11.4)
#: 9: 13.9's skip settings may be given in the simultaneous phases, set when they resolve; reinforcements ready
#: cancel a continuous reinforcement setting for that month only (13.9.1); a new game starts every human power's
#: reinforcement phase skipped while nothing is due unless the host chose the full pace (``Options.full_pace``)
#: 10: no attack owed (8.4.4) in a port whose holder the stack is not at war with, where none may be made (8.10)
#: 11: the computer taking a player's power over drops his skip settings, a human taking it back gets the new game's pace;
#: an assault or garrison attack where both sides break with survivors is won by neither (11.4, 000:1858)
#: 12: a war the game starts with (``War.before_game``) is no declaration of its first month: it cancels no skip
#: setting (13.9.1); Austria's trigger provinces are refused in the reveal round, like any new diplomacy order (6.0)
#: 13: insurrection corps stay in Austria's home provinces (13.2.4); an allied minor entering a war by any way is set up
#: (6.1.3); no depot or garrison in an allied minor's city (6.1.1); a besieger joining a battle leaves its siege; a
#: bought counter waiting to be placed keeps the reinforcement phase (12.5.4, 13.9.1)
#: 14: corps emptied in a siege combat leave the map, besiegers all eliminated take no city and lose their leaders (11.5,
#: 13.8.2); only allies at war with the other side, and forces rated above 0, may reinforce a battle (11.2.11); the
#: forage report names the area stopped in on a tie (10.5.1)
#: 15: a bought counter unplaced after its months is bought no more and the log says so (12.5.4); the month of the
#: last informal peace between two powers is kept (``PowerState.informal_peace``, 6.4.1); a sortie that costs a garrison
#: its last factor gives the city to the besiegers (11.4.1)
#: 16: a marker pushed off the political status display sues at the next diplomacy phase, not in the one that pushed
#: it, and has to accept only a conditional surrender (``PowerState.sue_off_display``, 13.7.1); a siege report's city
#: taken with every defender eliminated says no defender survives


class Computer(Protocol):
    """What the rules need of the computer players (``eiapbem.ai`` is one): passed in, never imported."""

    @property
    def AiStuck(self) -> type[Exception]: ...  # noqa: N802 (read-only: a module's exception class)

    @property
    def VERSIONS(self) -> Mapping[str, int]: ...  # noqa: N802 (read-only: a module's constant)

    def settle(self, state: GameState, ctx: RulesContext) -> engine.Outcome: ...

    def play_slot(self, state: GameState, power: str, ctx: RulesContext, *, setup: Sequence = ()) -> Any: ...

    def orders(self, state: GameState, power: str, ctx: RulesContext) -> tuple: ...


def versions(computer: Computer) -> dict[str, int]:
    """The rules version and each computer level's, as the gamestart records them."""
    out = {"rules": RULES_VERSION}
    out.update({k: int(v) for k, v in sorted(computer.VERSIONS.items())})
    return out


def version_mismatch(recorded: Any, computer: Computer) -> str | None:
    """A sentence naming the first version that differs from this eiapbem's, or ``None``."""
    mine = versions(computer)
    if not isinstance(recorded, dict):
        return f"the game records no rules version (this eiapbem plays rules version {RULES_VERSION})"
    for key in sorted(set(mine) | set(recorded)):
        if recorded.get(key) != mine.get(key):
            what = "rules" if key == "rules" else f"computer level {key}"
            return (f"the game was started with {what} version {recorded.get(key, 'none')}, "
                    f"but this eiapbem plays version {mine.get(key, 'none')}")
    return None


def is_computer(state: GameState, power: str) -> bool:
    """A power played by the computer (4.2.1, 000:76): its controller is an AI level."""
    return state.powers[power].controller is not PlayerKind.HUMAN


# ----------------------------------------------------------------- who answers (4.1.1, 4.2.7)


def exchange_needed(state: GameState, decision: Any) -> bool:
    """A battle question for a power other than the slot's, answered through battle files (4.2.7, ``000:170``).

    Field or trivial combat with more than one corps of the defender engaged,
    and the option PBEM Quick Combat off (4.1.1, ``000:48``).
    """
    from eiapbem.rules.combat.battle import is_corps

    slot = state.slot
    if slot is None or slot.power is None or slot.simultaneous or decision.power == slot.power:
        return False
    if not decision.kind.startswith(("battle.", "naval.")) or is_computer(state, decision.power) \
            or is_computer(state, slot.power):
        return False  # the computer answers at every client; in its own slot, nobody could carry files
    if decision.kind.startswith("naval."):  # the other side's naval questions travel too (rules/naval/files.py)
        from eiapbem.rules.naval import files as naval_files

        return naval_files.exchange_needed(state, decision)
    battle = state.battles.get(decision.context.get("battle"))
    if battle is None or battle.finished or state.options.pbem_quick_combat:
        return False
    return sum(1 for u in battle.defender.units if is_corps(state, u)) > 1


def automatic(state: GameState, decision: Any) -> bool:
    """A human's battle or siege question in another power's slot that its standing orders answer (4.1.1, 4.2.7)."""
    slot = state.slot
    if slot is None or slot.simultaneous or decision.power == slot.power:
        return False
    if is_computer(state, decision.power):
        return False  # answered by its level (the computer), not by standing orders
    if decision.kind.startswith("siege."):
        return decision.context.get("siege") in state.sieges  # no battle files for sieges (000:170)
    if decision.kind.startswith("naval."):  # standing orders where no file travels (rules/naval/files.py)
        from eiapbem.rules.naval import files as naval_files

        return naval_files.automatic(state, decision)
    if not decision.kind.startswith("battle."):
        return False
    battle = state.battles.get(decision.context.get("battle"))
    return battle is not None and not battle.finished and not exchange_needed(state, decision)


#: A battle's plans as a replay keeps them: battle id -> power -> its ``BattlePlan`` (``rules.combat.plans``).
Plans = Mapping[str, Mapping[str, Any]]


def auto_answer(state: GameState, ctx: RulesContext, computer: Computer, plans: Plans | None = None) -> GameState:
    """Answer every automatic question with its standing order, and every computer's question with its level's.

    ``plans``: the battles whose defender answered with standing orders for the whole battle (issue 33): every
    question of theirs is answered by its side's plan, or its standing orders (``rules.combat.plans.answer``)."""
    from eiapbem.rules.combat import plans as battle_plans, standing

    plans = plans or {}
    for _ in range(100000):
        due = sorted((d for d in state.pending.values()
                      if d.context.get("battle") in plans or automatic(state, d)), key=lambda d: d.id)
        if not due:
            if not any(is_computer(state, d.power) for d in state.pending.values()):
                return state
            state = computer.settle(state, ctx).state  # the computer's answers, then look again
            continue
        d = due[0]
        planned = plans.get(str(d.context.get("battle")))
        choice = battle_plans.answer(state, d, planned.get(d.power), ctx) if planned is not None \
            else standing.answer(state, d, ctx)
        state = engine.apply_action(state, d.power, AnswerDecision(d.id, choice), ctx).state
    raise RulesBug("automatic battle answers do not end")  # pragma: no cover - a rules bug


# ----------------------------------------------------------------- dice of a slot with battle files


#: The kind of a battle's standing orders for the rest of it (``rules.combat.plans.BattlePlan``).
PLAN = "battle.plan"


def battle_id_of_label(label: str) -> str | None:
    """The battle id of a ``battle/<id>/...`` or naval ``naval/<id>/...`` dice label."""
    if not label.startswith(("battle/", "naval/")):
        return None
    parts = label.split("/")
    return parts[1] if len(parts) > 2 else None


class BattleDice(Dice):
    """The rules' dice in a slot: battle labels of exchanged battles from their seed, the rest from the slot's.

    ``to_obj`` and ``record`` are the slot dice's (what the turn file records
    and every client re-derives from the slot seed); battle rolls are derived
    again by every client from the nonces of the battle files.
    """

    def __init__(self, slot: Dice) -> None:  # noqa: D107 - no seed of its own
        self.slot = slot
        self._battle: dict[str, Dice] = {}
        self._rolled: dict[str, tuple[int, int]] = {}

    def use(self, battle: str, seed: bytes) -> None:
        """From now on, ``battle``'s labels come from ``seed`` (the seed of its latest exchange)."""
        self._battle[battle] = Dice(seed)

    @property
    def record(self) -> dict[str, tuple[int, int]]:
        return self.slot.record

    def to_obj(self) -> dict[str, list[int]]:
        return self.slot.to_obj()

    def roll(self, label: str, sides: int) -> int:
        if label in self._rolled:
            s, v = self._rolled[label]
            if s != sides:
                raise DiceError(f"label {label!r} was rolled as a d{s}, now asked as a d{sides}")
            return v
        bid = battle_id_of_label(label)
        source = self._battle.get(bid) if bid is not None else None
        value = (source or self.slot).roll(label, sides)
        self._rolled[label] = (sides, value)
        return value


# ----------------------------------------------------------------- the turn


@dataclass(frozen=True)
class Exchange:
    """One question and reply: ``ask`` own actions were taken when the question arose, ``at`` when the reply is applied."""

    battle: str
    by: str
    ask: int
    at: int
    answers: tuple
    seed: bytes


@dataclass(frozen=True)
class Played:
    state: GameState
    #: For each exchange, the state hash at its question (what the defender was shown).
    asked: tuple[bytes, ...]
    events: tuple = ()


def play(state: GameState, power: str, actions: Sequence[Any], exchanges: Sequence[Exchange], ctx: RulesContext,
         computer: Computer) -> Played:
    """A sequential slot from its start, not ended: own actions and exchanges in order, automatic answers after each.

    ``ctx.dice`` must be a ``BattleDice`` when there are exchanges; they switch its battle seeds.
    """
    dice = ctx.dice
    n_log = len(state.log)
    state = auto_answer(state, ctx, computer)
    asked: list[bytes] = []
    k = 0
    # Battle plans (issue 33): each side's, and the battles answered by plans from the defender's planned reply on.
    given: dict[str, dict[str, Any]] = {}
    plans: dict[str, dict[str, Any]] = {}

    def mark(own: int) -> None:
        if k < len(exchanges) and len(asked) == k and exchanges[k].ask == own:
            asked.append(state.state_hash())

    def keep(by: str, a: Any) -> None:
        if getattr(a, "KIND", "") == PLAN:
            given.setdefault(a.battle, {})[by] = a
            if a.battle in plans:
                plans[a.battle] = dict(given[a.battle])

    for i in range(len(actions) + 1):
        while k < len(exchanges) and exchanges[k].at == i:
            mark(i)
            ex = exchanges[k]
            assert isinstance(dice, BattleDice)
            dice.use(ex.battle, ex.seed)
            for a in ex.answers:
                state = engine.apply_action(state, ex.by, a, ctx).state
                keep(ex.by, a)
                if getattr(a, "KIND", "") == PLAN:
                    plans[ex.battle] = dict(given[ex.battle])  # from here the battle needs no more files
                state = auto_answer(state, ctx, computer, plans)
            k += 1
        mark(i)
        if i < len(actions):
            state = engine.apply_action(state, power, actions[i], ctx).state
            keep(power, actions[i])
            state = auto_answer(state, ctx, computer, plans)
    if k != len(exchanges):
        raise BadEncoding("the battle exchanges of the slot are not in the order of its actions")
    return Played(state, tuple(asked), tuple(state.log[n_log:]))


def play_turn(state: GameState, power: str, actions: Sequence[Any], dice: Dice, ctx_for: Callable[[Dice], RulesContext],
              computer: Computer, *, exchanges: Sequence[Exchange] = ()) -> Played:
    """THE state a turn file produces (writer and every reader alike).

    A sequential slot: ``play`` under ``BattleDice(dice)``, then the end of the
    slot (``engine.end_slot``).  A simultaneous slot: the power's orders checked
    (``engine.check_orders``); the slot resolves once every actor's are in
    (``advance``).  Raises the rules' ``IllegalAction`` or a ``DiceError``.
    """
    slot = state.slot
    if slot is None:
        raise IllegalAction("the game is over; nothing more can be done")
    n_log = len(state.log)
    if slot.simultaneous:
        if exchanges:
            raise BadEncoding("a phase of orders has no battle exchanges")
        after = engine.check_orders(state, power, list(actions), ctx_for(dice)).state
        return Played(after, (), tuple(after.log[n_log:]))
    ctx = ctx_for(BattleDice(dice))
    played = play(state, power, actions, exchanges, ctx, computer)
    after = engine.end_slot(played.state, power, ctx).state
    return Played(after, played.asked, tuple(after.log[n_log:]))


def advance(state: GameState, orders: Mapping[str, Sequence[Any]], computer: Computer,
            ai_ctx: Callable[[str], RulesContext], resolve_ctx: Callable[[], RulesContext],
            setup_for: Callable[[GameState, str], Sequence[Any]],
            pass_ctx: Callable[[str], RulesContext] | None = None) -> tuple[GameState, bool]:
    """Move the game on without a file, as far as it goes: computer slots, complete simultaneous slots and the
    slots of humans with nothing to decide.

    ``orders`` are the human actors' orders in for the simultaneous slot in play;
    ``ai_ctx(slot_key)`` gives a computer's dice for a slot (fixed by the chain),
    ``resolve_ctx()`` the dice that resolve a simultaneous slot, ``setup_for(state,
    power)`` the actions a computer loads in a setup slot, ``pass_ctx(slot_key)`` the dice
    of a human's slot that ends by itself (``engine.pass_slot``: the rules leave it
    nothing to decide; every client passes it alike, so no file is written for it).
    Returns the state and whether the orders were used (a simultaneous slot resolved).
    A computer that cannot end its slot leaves the game waiting at it (the
    host's ``admin skip`` moves it on).
    """
    used = False
    waiting: Mapping[str, Sequence[Any]] = orders
    for _ in range(100000):
        slot = state.slot
        if slot is None:
            break
        if slot.simultaneous:
            humans = [p for p in slot.actors if not is_computer(state, p)]
            if any(p not in waiting for p in humans):
                break
            todo = {p: list(a) for p, a in sorted(waiting.items())}
            try:
                for p in slot.actors:
                    if is_computer(state, p):
                        todo[p] = list(computer.orders(state, p, ai_ctx(f"{state.date}/{slot.phase}/{slot.step}/{p}")))
            except computer.AiStuck:
                break  # as for a sequential slot: the game waits here
            state = engine.resolve_slot(state, todo, resolve_ctx()).state
            used, waiting = True, {}
            continue
        if slot.power is None:
            break
        if not is_computer(state, slot.power):
            passed = None if pass_ctx is None else engine.pass_slot(state, slot.power, pass_ctx(slot.key(state.date)))
            if passed is None:
                break
            state = passed.state
            continue
        try:
            state = computer.play_slot(state, slot.power, ai_ctx(slot.key(state.date)), setup=setup_for(state, slot.power)).state
        except computer.AiStuck:
            break
    return state, used


__all__ = ["RULES_VERSION", "BattleDice", "Computer", "Exchange", "Played", "advance", "auto_answer", "automatic",
           "battle_id_of_label", "exchange_needed", "is_computer", "play", "play_turn", "version_mismatch", "versions"]
