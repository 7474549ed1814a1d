"""Small land-combat situations on the packaged map for battle tests."""

from __future__ import annotations

from eiapbem.data.context import rules_context
from eiapbem.rules import engine
from eiapbem.core.dice import Dice
from eiapbem.rules.model import (
    Corps,
    CorpsType,
    Date,
    Factors,
    GameState,
    Leader,
    LeaderStatus,
    Location,
    LocationKind,
    Options,
    Phase,
    Slot,
)

_CTX_CACHE: dict = {}


def ctx(seed: bytes = b"battle-tests", forced: dict | None = None) -> engine.RulesContext:
    base = _CTX_CACHE.get("base")
    if base is None:
        base = _CTX_CACHE["base"] = rules_context(Dice(b"x"))
    return engine.RulesContext(map=base.map, world=base.world, dice=Dice(seed, forced or {}))


def land_state(**options) -> GameState:
    s = GameState.new("classic-1805", Date(1805, 1), Date(1815, 12))
    s = s.replace(date=Date(1805, 9), slot=Slot(phase=Phase.LAND, step="turn", power="FR", actors=("FR",)),
                  options=Options(**options))
    s = s.with_war("FR", "AU", Date(1805, 9), ("FR",))
    return s


def corps(state: GameState, cid: str, area: str, **factors) -> GameState:
    nation = cid.split(":")[1]
    ctype = CorpsType(factors.pop("corps_type", "regular"))
    return state.with_unit(Corps(id=cid, nation=nation, corps_type=ctype, location=Location(LocationKind.AREA, area),
                                 factors=Factors(**factors)))


def leader(state: GameState, lid: str, corps_id: str) -> GameState:
    return state.with_leader(Leader(id=lid, power=lid.split(":")[1], status=LeaderStatus.ON_MAP, attached_to=corps_id))


def pending_of(state: GameState, bid: str):
    return [d for d in state.pending.values() if d.context.get("battle") == bid]


def answer(state: GameState, decision, choice: str, c: engine.RulesContext) -> GameState:
    return engine.apply_action(state, decision.power, engine.AnswerDecision(decision=decision.id, choice=choice), c).state


def answer_every(state: GameState, c: engine.RulesContext, choose=lambda d: d.options[0], suspend: bool = False,
                 seed: bytes = b"battle-tests") -> tuple[GameState, list[str]]:
    """Answer every pending decision, the first pending first (``choose(decision) -> choice``); return the state
    and the decisions asked.  With ``suspend`` the state goes through its encoding and a fresh context of the
    same dice (``seed``) before each answer, as on another machine."""
    asked = []
    while state.pending:
        d = next(iter(state.pending.values()))
        asked.append(d.id)
        if suspend:
            state = GameState.decode(state.encode())
            c = rules_context(Dice(seed))
        state = engine.apply_action(state, d.power, engine.AnswerDecision(decision=d.id, choice=choose(d)), c).state
    return state, asked


def play(state: GameState, bid: str, c: engine.RulesContext, chooser=None, *, roundtrip: bool = False, limit: int = 2000):
    """Answer every question of battle ``bid`` (``chooser(decision) -> choice``, default the first option)."""
    n = 0
    while pending_of(state, bid):
        d = sorted(pending_of(state, bid), key=lambda d: d.id)[0]
        choice = chooser(state, d) if chooser else d.options[0]
        state = answer(state, d, choice, c)
        if roundtrip:
            state = GameState.decode(state.encode())
        n += 1
        assert n < limit
    return state
