"""Standing orders for land combat, given in the power's own slots before the combats (11.2.1, 13.2.1, 13.2.2,
13.2.4).

- ``land.battle-orders`` (11.2.1 "Standing Orders Option", 000:1648-1650): the defensive chit a
  corps uses when nobody is asked for it: a human defender with one corps engaged (no battle files,
  4.2.7, 000:170), the defender under PBEM Quick Combat (4.1.1, 000:48), a human's corps in a
  computer's slot, a controlled minor's corps alone.  ``random`` takes the order back: the program
  then draws a random chit (the manual's default).  Outflank is accepted, but a side that cannot
  outflank gets a random chit instead (000:1652); the chit is read by ``combat.field._auto_chit``.
- ``land.irregular-orders`` (13.2.2, 000:2430): lone Cossacks and Freikorps of the power try to
  withdraw when attacked (``combat.withdraw``); without ``--withdraw`` the order is taken back.
- ``land.anti-guerrilla-orders`` (13.2.1, 000:2392): the power "may mount" an anti-guerrilla operation at
  each guerrilla check; it is mounted unless declined with ``--decline`` (the standing default).
- ``land.insurrection-orders`` (13.2.4, 000:2476-2480): Austria's insurrection corps rise at once when an
  enemy enters Austria, unless Austria holds them with ``--hold``.

Both stay in the state (``PowerState.standing_orders``) until changed.  Like the naval "Review/Set
Orders" they may be given in the power's reinforcement, naval and land slots; the public log says
only that orders were set, not which (the state itself is every player's: docs/SECURITY.md).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Annotated

from eiapbem.core.errors import IllegalAction
from eiapbem.rules import engine, relations
from eiapbem.rules.model import Corps, CorpsType, GameState, Phase, Record
from eiapbem.rules.model.base import OneOf
from eiapbem.rules.model.units import UnitId
from eiapbem.rules.tables.land import DEFENDER_CHITS
from eiapbem.rules.engine import RulesContext

#: The answer that takes a corps' chit order back: a random chit, the program's default (000:1648).
RANDOM = "random"


@dataclass(frozen=True, slots=True)
class BattleOrders(Record):
    """Set the defensive chit a corps uses when you are not asked (11.2.1 standing orders)."""

    KIND = "land.battle-orders"
    COMMAND = "battle-orders"
    #: A standing order, open in every slot of the power (``engine.is_setting``).
    SETTING = True
    BUTTON = "Selected Unit Info: the corps designation (Standing Orders)"

    #: Your corps, e.g. corps:AU:I ('eiapbem show units --kind corps').
    corps: UnitId
    #: The defensive chit it takes when it defends and nobody is asked (a lone corps, PBEM quick combat); 'random' takes the order back.
    chit: Annotated[str, OneOf(DEFENDER_CHITS + (RANDOM,))]


@dataclass(frozen=True, slots=True)
class IrregularOrders(Record):
    """Order lone Cossacks and Freikorps to withdraw when attacked, or take the order back (13.2.2)."""

    KIND = "land.irregular-orders"
    COMMAND = "irregular-orders"
    #: A standing order, open in every slot of the power (``engine.is_setting``).
    SETTING = True
    BUTTON = ""  # the manual names no button, only "if standing orders were given" (000:2430)

    #: Try to withdraw before any combat (1-4 on a die, 13.2.2); without it the order is taken back.
    withdraw: bool = False


@dataclass(frozen=True, slots=True)
class AntiGuerrillaOrders(Record):
    """Decline the anti-guerrilla operations in Spain, or mount them again (13.2.1)."""

    KIND = "land.anti-guerrilla-orders"
    COMMAND = "anti-guerrilla-orders"
    #: A standing order, open in every slot of the power (``engine.is_setting``).
    SETTING = True
    BUTTON = ""  # the manual names no button: the operation "may" be mounted at the guerrilla check (000:2392)

    #: Mount no anti-guerrilla operation at the end of your land phases; without it they are mounted (the default).
    decline: bool = False


@dataclass(frozen=True, slots=True)
class InsurrectionOrders(Record):
    """Austria holds its insurrection corps off the map when the enemy enters, or lets them rise again (13.2.4)."""

    KIND = "land.insurrection-orders"
    COMMAND = "insurrection-orders"
    #: A standing order, open in every slot of the power (``engine.is_setting``).
    SETTING = True
    BUTTON = ""  # the manual names no button: the corps "need not be placed at the first opportunity" (000:2480)

    #: Keep the insurrection corps off the map when an enemy enters Austria; without it they rise at once (the default).
    hold: bool = False


def verify_battle_orders(state: GameState, power: str, action: BattleOrders, ctx: RulesContext) -> None:
    unit = state.units.get(action.corps)
    if not isinstance(unit, Corps):
        raise IllegalAction(f"there is no corps {action.corps!r}", hint="corps ids look like corps:AU:I; "
                            "'eiapbem show units --kind corps' lists them")
    if relations.unit_power(state, unit) != power:
        raise IllegalAction(f"{action.corps} is not {power}'s corps, so {power} cannot give it standing orders (11.2.1)")
    if unit.corps_type in (CorpsType.COSSACK, CorpsType.FREIKORPS, CorpsType.GUERRILLA):
        raise IllegalAction(f"{action.corps} is a {unit.corps_type.value} counter: it fights only trivial combats, "
                            f"where no chit is chosen (11.3, 000:1936); 'eiapbem land irregular-orders --withdraw' "
                            f"makes lone Cossacks and Freikorps withdraw (13.2.2)")


def apply_battle_orders(state: GameState, power: str, action: BattleOrders, ctx: RulesContext) -> engine.Outcome:
    so = state.powers[power].standing_orders
    chits = so.battle_chits
    if action.chit == RANDOM:
        chits = chits.remove(action.corps) if action.corps in chits else chits
    else:
        chits = chits.set(action.corps, action.chit)
    state = state.with_power(power, standing_orders=so.replace(battle_chits=chits))
    return engine.log(state, power, "land.battle-orders", f"{power} sets standing orders for {action.corps}",
                      unit=action.corps)  # the chit stays out of the public log


def verify_irregular_orders(state: GameState, power: str, action: IrregularOrders, ctx: RulesContext) -> None:
    return None  # any power may hold the order; it matters only for its Cossacks and Freikorps


def apply_irregular_orders(state: GameState, power: str, action: IrregularOrders, ctx: RulesContext) -> engine.Outcome:
    so = state.powers[power].standing_orders
    state = state.with_power(power, standing_orders=so.replace(irregulars_retreat=action.withdraw))
    return engine.log(state, power, "land.irregular-orders", f"{power} sets standing orders for its Cossacks and Freikorps")


def verify_anti_guerrilla_orders(state: GameState, power: str, action: AntiGuerrillaOrders, ctx: RulesContext) -> None:
    if power == "SP":
        raise IllegalAction("Spain mounts no anti-guerrilla operations: they are for the powers at war with it (13.2.1)")


def apply_anti_guerrilla_orders(state: GameState, power: str, action: AntiGuerrillaOrders, ctx: RulesContext) -> engine.Outcome:
    so = state.powers[power].standing_orders
    state = state.with_power(power, standing_orders=so.replace(decline_anti_guerrilla=action.decline))
    return engine.log(state, power, "land.anti-guerrilla-orders", f"{power} sets standing orders for anti-guerrilla "
                      f"operations")


def verify_insurrection_orders(state: GameState, power: str, action: InsurrectionOrders, ctx: RulesContext) -> None:
    if power != "AU":
        raise IllegalAction("only Austria has insurrection corps (13.2.4)")


def apply_insurrection_orders(state: GameState, power: str, action: InsurrectionOrders, ctx: RulesContext) -> engine.Outcome:
    so = state.powers[power].standing_orders
    state = state.with_power(power, standing_orders=so.replace(hold_insurrection=action.hold))
    return engine.log(state, power, "land.insurrection-orders", f"{power} sets standing orders for its insurrection corps")


def chit_order(state: GameState, power: str, corps: str) -> str:
    """The chit ``corps`` of ``power`` takes when nobody is asked: its order, or ``random``."""
    return state.powers[power].standing_orders.battle_chits.get(corps, RANDOM)


def summary(state: GameState, power: str) -> str:
    """``power``'s standing orders for land combat in one sentence (``show power``, ``status``)."""
    so = state.powers[power].standing_orders
    chits = ", ".join(f"{c} {chit}" for c, chit in sorted(so.battle_chits.items())) or "none (a random chit, 000:1648)"
    lone = "withdraw when attacked (1-4)" if so.irregulars_retreat else "stand and fight"
    anti = "declined" if so.decline_anti_guerrilla else "mounted"
    return (f"chits of corps defending unasked (11.2.1): {chits}; lone Cossacks and Freikorps (13.2.2): {lone}; "
            f"anti-guerrilla operations (13.2.1): {anti}")


def _battle_orders_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[BattleOrders]:
    for uid, u in sorted(state.units.items()):
        if isinstance(u, Corps) and relations.unit_power(state, u) == power:
            yield from (BattleOrders(uid, chit) for chit in DEFENDER_CHITS + (RANDOM,))


def _irregular_orders_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[IrregularOrders]:
    yield from (IrregularOrders(False), IrregularOrders(True))


def _anti_guerrilla_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[AntiGuerrillaOrders]:
    if power != "SP":
        yield from (AntiGuerrillaOrders(False), AntiGuerrillaOrders(True))


def _insurrection_candidates(state: GameState, power: str, ctx: RulesContext) -> Iterator[InsurrectionOrders]:
    if power == "AU":
        yield from (InsurrectionOrders(False), InsurrectionOrders(True))


ACTIONS = ((BattleOrders, verify_battle_orders, apply_battle_orders, _battle_orders_candidates),
           (IrregularOrders, verify_irregular_orders, apply_irregular_orders, _irregular_orders_candidates),
           (AntiGuerrillaOrders, verify_anti_guerrilla_orders, apply_anti_guerrilla_orders, _anti_guerrilla_candidates),
           (InsurrectionOrders, verify_insurrection_orders, apply_insurrection_orders, _insurrection_candidates))

#: Standing orders for land combat may be given in the power's reinforcement, naval and land slots.
RULES = engine.PhaseRules("battle-orders", phases=(Phase.REINFORCEMENT, Phase.NAVAL, Phase.LAND), actions=ACTIONS)
