"""Third Party Combat System (4.1.1, 000:36): a field combat's result imported from outside.

With the option on, a field combat between two human powers (``field.start_field_battle``)
stops at the stage ``external`` instead of asking for commanders and chits: the two
players fight it with their own combat system and agree on one result, which the
attacking power enters in its land slot as ``battle.external-result`` (normally through
``eiapbem battle import FILE``): the winner, each unit's losses and both sides'
signatures.  The rules check the result against the battle (units, factors, the
two signing powers); the signatures themselves are checked by every client against
the game's roster (``eiapbem.client.external``), since the rules hold no keys.  The
program then does what follows a combat: the loser retreats (or surrenders), leaders
are captured, emptied corps leave the map (11.2.13-11.5).

Trivial combats (11.3) and combats with a side played by the computer are resolved by
the program as without the option.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Annotated, Any

from eiapbem.core.errors import IllegalAction
from eiapbem.rules import engine
from eiapbem.rules.model import Corps, Factors, FactorType, GameState, Garrison, Phase, PlayerKind, Record
from eiapbem.rules.model.base import OneOf
from eiapbem.rules.engine import RulesContext

STAGE = "external"
_LOSS = re.compile(r"(?P<unit>[A-Za-z0-9:_-]+)=(?P<kind>[a-z-]+):(?P<n>[0-9]{1,3})\Z")
_SIG = re.compile(r"(?P<power>[A-Z]{2}):(?P<sig>[0-9a-f]{128})\Z")


@dataclass(frozen=True, slots=True)
class ExternalResult(Record):
    """Enter the result of a field combat fought with a third party combat system, signed by both sides (4.1.1)."""

    KIND = "battle.external-result"
    COMMAND = "external-result"
    BUTTON = "Third Party Combat System"

    battle: str
    winner: Annotated[str, OneOf(("attacker", "defender", "none"))]
    #: Factors lost, one entry per unit and factor type: ``corps:AU:I=infantry:3``.
    losses: tuple[str, ...] = ()
    #: ``POWER:<Ed25519 signature, hex>`` of each side's power (``client.external.message``).
    signatures: tuple[str, ...] = ()


def applies(state: GameState, attacker_power: str | None, defender_power: str | None) -> bool:
    """The option is on and both sides are human major powers."""
    if not state.options.third_party_combat_system:
        return False
    for p in (attacker_power, defender_power):
        if p is None or p not in state.powers or state.powers[p].controller is not PlayerKind.HUMAN:
            return False
    return True


def signers(battle: Any) -> tuple[str, ...]:
    return tuple(sorted({battle.attacker.power, battle.defender.power}))


def parse_losses(losses: tuple[str, ...]) -> dict[str, Factors]:
    out: dict[str, dict[str, int]] = {}
    for text in losses:
        m = _LOSS.match(text)
        if m is None or m["kind"] not in {k.value for k in FactorType}:
            raise IllegalAction(f"{text!r} is not a loss like corps:AU:I=infantry:3")
        row = out.setdefault(m["unit"], {})
        key = m["kind"].replace("-", "_")
        row[key] = row.get(key, 0) + int(m["n"])
    return {u: Factors(**row) for u, row in out.items()}


def parse_signatures(signatures: tuple[str, ...]) -> dict[str, bytes]:
    out = {}
    for text in signatures:
        m = _SIG.match(text)
        if m is None:
            raise IllegalAction(f"{text[:20]!r}… is not a signature like FR:<128 hex digits>")
        out[m["power"]] = bytes.fromhex(m["sig"])
    return out


def pending(state: GameState, power: str) -> list[str]:
    """Battles of ``power``'s slot waiting for their imported result (an obligation of the slot)."""
    return sorted(bid for bid, b in state.battles.items() if b.stage == STAGE and b.attacker.power == power)


def _verify(state: GameState, power: str, a: ExternalResult, ctx: RulesContext) -> None:
    if not state.options.third_party_combat_system:
        raise IllegalAction("this game does not use the Third Party Combat System option (4.1.1)")
    b = state.battles.get(a.battle)
    if b is None:
        raise IllegalAction(f"there is no battle {a.battle!r}", hint="'eiapbem battle report' lists them")
    if b.stage != STAGE:
        raise IllegalAction(f"{a.battle} is not waiting for an external result")
    if b.attacker.power != power:
        raise IllegalAction(f"the attacker ({b.attacker.power}) enters the result of {a.battle}")
    units = set(b.attacker.units) | set(b.defender.units)
    for uid, lost in parse_losses(a.losses).items():
        if uid not in units:
            raise IllegalAction(f"{uid} did not fight in {a.battle}")
        unit = state.units[uid]
        if not isinstance(unit, (Corps, Garrison)):  # pragma: no cover - a battle's units are corps and garrisons
            raise IllegalAction(f"{uid} has no army factors")
        have = unit.factors
        for k in FactorType:
            if lost.get(k) > have.get(k):
                raise IllegalAction(f"{uid} has {have.get(k)} {k} factors, fewer than the {lost.get(k)} lost")
    signed = parse_signatures(a.signatures)
    if sorted(signed) != list(signers(b)):
        raise IllegalAction(f"the result of {a.battle} must be signed by {' and '.join(signers(b))}, "
                            f"not {' and '.join(sorted(signed)) or 'nobody'}")


def _apply(state: GameState, power: str, a: ExternalResult, ctx: RulesContext) -> engine.Outcome:
    from eiapbem.rules.combat import field_machine
    from eiapbem.rules.combat.battle import event

    b = state.battles[a.battle]
    lost_total = 0
    for uid, lost in sorted(parse_losses(a.losses).items()):
        u = state.units[uid]
        assert isinstance(u, (Corps, Garrison))  # checked by _verify
        f = u.factors
        for k in FactorType:
            if lost.get(k):
                f = f.with_(k, f.get(k) - lost.get(k))
                lost_total += lost.get(k)
        state = state.with_unit(u.replace(factors=f))
    if a.winner in ("attacker", "defender"):
        loser = b.defender if a.winner == "attacker" else b.attacker
        b = b.with_side(loser.replace(retreat=True))
        result = f"{a.winner} wins in {b.area} (third party combat system, signed by {' and '.join(signers(b))})"
    else:
        result = f"{b.area}: no winner (third party combat system, signed by {' and '.join(signers(b))})"
    b = b.replace(winner=a.winner, result=result, stage="retreat")
    b = event(b, "battle.external", f"{result}: {lost_total} factors lost", losses=" ".join(a.losses))
    state = state.replace(battles=state.battles.set(b.id, b))
    return field_machine.run(state, b.id, ctx)


def _candidates(state: GameState, power: str, ctx: RulesContext) -> tuple[ExternalResult, ...]:
    """None: the result and both sides' signatures come from outside the game (``pending`` names the battles)."""
    return ()


#: The imported result, an action of the attacker's land slot (registered by ``eiapbem/rules/phases.py``).
RULES = engine.PhaseRules("third party combat system", phases=(Phase.LAND,),
                          actions=((ExternalResult, _verify, _apply, _candidates),))

__all__ = ["ExternalResult", "RULES", "STAGE", "applies", "parse_losses", "parse_signatures", "pending", "signers"]
