"""Captured leaders go home (13.8.2, 000:2640-2644).

A captured leader is returned as an effect of peace (``return_at_peace``, for
the diplomacy phase's peace step to call with the two powers making peace), or
earlier at its captor's option (``leader.release``), the captor gaining 2
political points for the early release.  Either way the leader comes back to
its owner's next reinforcement phase: it is stored inactive, returning next
month (7.4's way of holding a leader off the map).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from eiapbem.core.errors import IllegalAction
from eiapbem.rules import engine
from eiapbem.rules.model import GameState, LeaderStatus, Phase, Record

#: 13.8.2 (000:2642): political points for releasing a captured leader before peace.
EARLY_RELEASE_POINTS = 2


def _freed(state: GameState, lid: str) -> GameState:
    lead = state.leaders[lid]
    return state.with_leader(lead.replace(status=LeaderStatus.INACTIVE, captured_by=None, attached_to=None,
                                          returns=state.date.next()))


def return_at_peace(state: GameState, a: str, b: str) -> tuple[GameState, tuple[str, ...]]:
    """Every leader of ``a`` held by ``b`` and of ``b`` held by ``a`` goes home (13.8.2: an effect of peace).

    Returns the new state and the ids returned, sorted.  The diplomacy phase's peace step calls this
    for the two powers making peace; it writes no log line of its own so the caller words the peace.
    """
    ids = tuple(sorted(lid for lid, lead in state.leaders.items()
                       if lead.status is LeaderStatus.CAPTURED
                       and {lead.power, lead.captured_by} == {a, b}))
    for lid in ids:
        state = _freed(state, lid)
    return state, ids


@dataclass(frozen=True, slots=True)
class ReleaseLeader(Record):
    """Release a captured enemy leader before peace, for +2 political points (13.8.2)."""

    KIND = "leader.release"
    COMMAND = "release-leader"
    #: An option of the captor in any of its own slots, not one phase's rules.
    ANY_PHASE = True

    leader: str


def _verify(state: GameState, power: str, action: ReleaseLeader, ctx: engine.RulesContext) -> None:
    lead = state.leaders.get(action.leader)
    if lead is None:
        raise IllegalAction(f"there is no leader {action.leader!r}", hint="leader ids look like leader:FR:davout")
    if lead.status is not LeaderStatus.CAPTURED or lead.captured_by != power:
        raise IllegalAction(f"{action.leader} is not a prisoner of {power}; only the captor releases a leader (13.8.2)")


def _apply(state: GameState, power: str, action: ReleaseLeader, ctx: engine.RulesContext) -> engine.Outcome:
    owner = state.leaders[action.leader].power
    state = _freed(state, action.leader)
    state = state.with_power(power, political_status=state.powers[power].political_status + EARLY_RELEASE_POINTS)
    return engine.log(state, power, "leader.release",
                      f"{power} releases {action.leader} to {owner} before peace: +{EARLY_RELEASE_POINTS} political points "
                      f"(13.8.2)", leader=action.leader, points=EARLY_RELEASE_POINTS)


def _candidates(state: GameState, power: str, ctx: engine.RulesContext) -> Iterator[ReleaseLeader]:
    yield from (ReleaseLeader(lid) for lid, lead in sorted(state.leaders.items())
                if lead.status is LeaderStatus.CAPTURED and lead.captured_by == power)


#: The early release of a leader, in the captor's own slots (registered by ``eiapbem/rules/phases.py``).
RULES = engine.PhaseRules("captured leaders", phases=(Phase.SETUP, Phase.REINFORCEMENT, Phase.NAVAL, Phase.LAND),
                          actions=((ReleaseLeader, _verify, _apply, _candidates),))

__all__ = ["EARLY_RELEASE_POINTS", "RULES", "ReleaseLeader", "return_at_peace"]
