"""Secret simultaneous orders in the client: commit, then reveal (issue 16 item 3).

The rules of the two rounds are in ``eiapbem.rules.diplomacy.sealing``; this
module is what a player's folder does with them:

- **commit round** (``diplomacy/commit``): at "End Current Phase" the orders
  the player gave are checked against the common starting state, a fresh
  random nonce is drawn, and the turn file carries only
  ``CommitOrders(digest)``.  The orders and the nonce stay in this folder's
  save (``SaveMeta.sealed``, sealed to this folder's roles like the
  rest of the save) until the reveal;
- **reveal round** (``diplomacy/orders``): "End Current Phase" writes
  ``RevealOrders(nonce)`` followed by exactly the sealed orders; orders can
  no longer change (a new order is refused in one sentence);
- **loading** another power's reveal: refused in one sentence when it does
  not hash to the commitment that power sent (``check_file``).

A game with the option ``one_round_diplomacy`` has no commit round; orders go
out in the clear in one file, as in the economic phase.

**The diplomatic reactions** (DIPLOMATIC REACTIONS SCREEN and surrender
settings, ``rules.diplomacy.orders.REACTION_FIELDS``) are not kept in the
shared state between months: the rules clear them once the month is
resolved.  This folder keeps its powers' settings in its save
(``SaveMeta.reactions``) and puts them, as the orders that set them,
in front of the player's own orders of every diplomacy phase — inside the
commitment, so they are revealed with everyone's declarations only after
every commitment is in, and used at that month's resolution.  The first time
(no copy kept yet) they are read from the state.
"""

from __future__ import annotations

import os
from typing import Any, Callable

from eiapbem.core import canonical
from eiapbem.core.errors import IllegalAction
from eiapbem.core.frozenmap import FrozenMap
from eiapbem.pbem.bodies import SaveMeta, SealedOrders
from eiapbem.pbem.errors import BadFile
from eiapbem.rules import engine
from eiapbem.rules.diplomacy import orders as dip_orders
from eiapbem.rules.diplomacy import sealing
from eiapbem.rules.model import GameState, Phase
from eiapbem.rules.model.slot import COMMIT, ORDERS


def _with_reactions(meta: SaveMeta, state: GameState, power: str, acts: list, ctx: Any = None) -> tuple[list, SaveMeta]:
    """``acts`` with ``power``'s kept reactions in front, and the save meta keeping the reactions they leave.
    ``ctx``: the kept reactions are taken as they may stand now (``kept_reaction``: a cession term that would
    cede nothing is dropped, not sent to be refused month after month)."""
    kept = meta.reactions.get(power)
    if kept is None:
        front = dip_orders.reaction_actions(state.powers[power].standing_orders)
    else:
        front = [engine.action_from_obj(o, "this folder's diplomatic reactions") for o in kept]
    if ctx is not None:
        front = [dip_orders.kept_reaction(state, power, a, ctx) for a in front]
    full = front + list(acts)
    after = dip_orders.reactions_after(state, power, full)
    keep = tuple(engine.action_to_obj(a) for a in dip_orders.reaction_actions(after))
    return full, meta.replace(reactions=meta.reactions.set(power, keep))


def as_kept(meta: SaveMeta, state: GameState, power: str) -> GameState:
    """``state`` with ``power``'s diplomatic reactions as this folder keeps them, in a diplomacy phase.

    What a player's reactions stand at: the folder sends them again by itself (``file_actions``), and the
    player gives only what changes.  A computer choosing a folder's orders from this state gives only the
    reactions that change, not every one again each month (``eiapbem campaign`` chooses from it).
    """
    kept = meta.reactions.get(power)
    if kept is None or state.slot is None or state.slot.phase is not Phase.DIPLOMACY:
        return state
    acts = [engine.action_from_obj(o, "this folder's diplomatic reactions") for o in kept]
    return state.with_power(power, standing_orders=dip_orders.reactions_after(state, power, acts))


def _sealed_round(state: GameState) -> str | None:
    slot = state.slot
    if slot is None or slot.phase is not Phase.DIPLOMACY:
        return None
    if slot.step == COMMIT:
        return "commit"
    if slot.step == ORDERS and state.order_sheet.commitments:
        return "reveal"
    return None


def refuse_in_reveal(state: GameState, power: str) -> None:
    """An order given in the reveal round by a power that sealed its orders (``engine.sealed_already``, which the
    rules' own settings refuse by) is refused at once (6.0): the round opens what was sealed, and ``file_actions``
    would refuse the file at the end of the phase."""
    if engine.sealed_already(state, power):
        raise IllegalAction(f"{power}'s diplomacy orders of {state.date.name} were sealed in the commit round; the reveal "
                            "round takes no new orders (6.0)",
                            hint="'eiapbem end-phase' reveals the sealed orders; an order for next month is given with "
                                 "--next-month")


def file_actions(meta: SaveMeta, state: GameState, power: str, acts: list, ctx: Any,
                 rng: Callable[[int], bytes] = os.urandom) -> tuple[list, SaveMeta]:
    """The actions ``power``'s turn file carries for the simultaneous slot in play, and the new save meta.

    Commit round: the orders are checked, then replaced by their commitment.
    Reveal round: the orders sealed in the commit round, opened.  Otherwise: ``acts`` unchanged.
    """
    which = _sealed_round(state)
    if which == "commit":
        if any(isinstance(a, sealing.SEALS) for a in acts):
            raise IllegalAction("commitments and reveals are written by the program, not given as orders")
        # orders given for this month and not sealed ahead (the last file was sent first) go in now
        acts, meta = _with_reactions(_without_ahead(meta, power), state, power, ahead_orders(meta, power) + list(acts),
                                     ctx)
        nonce = rng(sealing.NONCE_BYTES)
        commit = sealing.CommitOrders(sealing.digest(power, sealing.phase_key(state), nonce, acts))
        engine.check_orders(state, power, list(acts) + [commit], ctx)  # the real orders, checked now
        kept = SealedOrders(sealing.phase_key(state), nonce, tuple(engine.action_to_obj(a) for a in acts))
        return [commit], meta.replace(sealed=meta.sealed.set(power, kept))
    if which == "reveal" and power in state.order_sheet.commitments:
        found = meta.sealed.get(power)
        if found is None or found.phase != sealing.phase_key(state):
            raise IllegalAction(f"{power}'s sealed orders of {state.date} are not in this folder's save: only the folder "
                                "that sent the commitment can reveal them",
                                hint="ask the host for a backup, or play on from the folder that sent the commitment")
        if acts:
            raise IllegalAction(f"{power}'s diplomacy orders were sealed {'ahead' if found.ahead else 'in the commit round'} "
                                "and cannot change now; 'eiapbem restart' drops the new ones, then 'eiapbem end-phase' "
                                "reveals the sealed orders")
        if found.ahead:  # sealed in last month's last file: the rules drop what no longer holds
            return [sealing.RevealAhead(found.nonce, tuple(canonical.encode(o) for o in found.actions))], meta
        opened = [engine.action_from_obj(o, "the sealed orders") for o in found.actions]
        return [sealing.RevealOrders(found.nonce)] + opened, meta
    if which is None and state.slot is not None and state.slot.phase is Phase.DIPLOMACY and state.slot.step == ORDERS:
        return _with_reactions(meta, state, power, acts, ctx)  # one-round diplomacy: the same orders, in the clear
    return list(acts), meta


def spent(meta: SaveMeta, state: GameState) -> SaveMeta:
    """The save meta once a diplomacy phase is over: sealed orders of past phases dropped (those sealed ahead for a
    later month's phase kept)."""
    if not meta.sealed:
        return meta
    now = sealing.phase_key(state) if state.slot is not None and state.slot.phase is Phase.DIPLOMACY else None

    def keep(v: SealedOrders) -> bool:
        return v.phase == now or (state.slot is not None and v.phase > sealing.phase_key(state))

    if all(keep(v) for v in meta.sealed.values()):
        return meta
    return meta.replace(sealed=FrozenMap((p, v) for p, v in meta.sealed.items() if keep(v)))


def check_file(state: GameState, author: str, acts: list, name: str) -> None:
    """Refuse another power's reveal that does not match the commitment it sent (one sentence)."""
    if _sealed_round(state) != "reveal" or author not in state.order_sheet.commitments:
        return
    want = state.order_sheet.commitments[author]
    if len(acts) == 1 and isinstance(acts[0], sealing.RevealAhead):
        try:
            sealing.verify_reveal_ahead(state, author, acts[0], None)
            return
        except IllegalAction:
            pass  # refused below, in the same words
    if not acts or not isinstance(acts[0], sealing.RevealOrders) or \
            sealing.digest(author, sealing.phase_key(state), acts[0].nonce, list(acts[1:])) != want:
        raise BadFile(f"{name}: the diplomacy orders {author} reveals do not match the commitment it sent "
                      "earlier this month; the file is refused",
                      hint=f"ask {author} to send the reveal made from its own folder, or the host for a backup")


# ----------------------------------------------------------------- next month's orders sealed ahead (issue 33 item 2)


def ahead_orders(meta: SaveMeta, power: str) -> list:
    """The diplomacy orders ``power`` gave for next month so far (``--next-month``), not sealed yet."""
    return [engine.action_from_obj(o, "this folder's orders for next month") for o in meta.ahead.get(power, ())]


def stage_ahead(meta: SaveMeta, state: GameState, power: str, action: Any) -> SaveMeta:
    """The save meta with ``action`` added to ``power``'s diplomacy orders for next month.

    They are sealed in the power's last file of this month (``seal_ahead``); the rules check them when they are
    revealed, a month later, and drop those that no longer hold then (``sealing.apply_reveal_ahead``).
    """
    spec = engine.action_kinds().get(getattr(action, "KIND", ""))
    if spec is None or Phase.DIPLOMACY not in spec.phases or isinstance(action, sealing.SEALS):
        raise IllegalAction(f"{getattr(action, 'KIND', action)!r} is not an order of the diplomacy phase")
    if state.options.one_round_diplomacy:
        raise IllegalAction("this game's diplomacy phase is one round of open orders (option one-round-diplomacy): "
                            "give the orders in that phase")
    slot = state.slot
    if slot is None or state.date >= state.end:
        raise IllegalAction("there is no next month's diplomacy phase in this game")
    if slot.phase is Phase.DIPLOMACY:
        raise IllegalAction("the diplomacy phase is in play: give the order without --next-month")
    if _last_file_sent(state, power):
        raise IllegalAction(f"{power}'s last file of {state.date.name} is sent: orders for next month are sealed in it, "
                            "so give this one in next month's diplomacy phase")
    if power in state.order_sheet.commitments:
        raise IllegalAction(f"{power}'s diplomacy orders for {state.date.next().name} are sealed already")
    return meta.replace(ahead=meta.ahead.set(power, tuple(meta.ahead.get(power, ())) + (engine.action_to_obj(action),)))


def check_seal_slot(state: GameState, power: str) -> None:
    """Refuse a request to seal next month's diplomacy orders (``end-phase --seal-diplomacy``, the page's End phase
    with the seal) outside the power's last file of the month: its land file, or its economic orders."""
    slot = state.slot
    if slot is None or not ((slot.phase is Phase.LAND and slot.power == power) or slot.phase is Phase.ECONOMIC):
        raise IllegalAction("sealing next month's diplomacy orders belongs to your last file of the month, your land "
                            f"file or your economic orders; the slot in play is {slot.key(state.date) if slot else 'none'}")


def _last_file_sent(state: GameState, power: str) -> bool:
    """No slot of ``power`` that can seal next month's orders is left this month (its land slot, the economic
    phase); an economic file already sent is not seen here: the commit round then takes the orders instead."""
    from eiapbem.rules.sequence import month_slots

    slot = state.slot
    assert slot is not None
    rest = month_slots(state.date, state)
    here = next((i for i, x in enumerate(rest) if x.same_place(slot)), None)
    return here is None or not any((x.phase is Phase.LAND and x.power == power) or x.phase is Phase.ECONOMIC
                                   for x in rest[here:])


def seal_ahead(meta: SaveMeta, state: GameState, power: str, *, want: bool = False,
               rng: Callable[[int], bytes] = os.urandom) -> tuple[list, SaveMeta]:
    """What ``power``'s last file of the month adds to seal next month's diplomacy orders, and the save meta after.

    Nothing when the power gave no order for next month and ``want`` is False (the two rounds stay the default).
    Otherwise the orders given with ``--next-month`` (none, with ``want``: the power has nothing to order), with
    the diplomatic reactions this folder keeps in front, are sealed: a fresh nonce, the digest in the file
    (``sealing.SealAhead``), the orders and the nonce in this folder's save until the reveal.  The file is the
    power's land file, or its economic orders.
    """
    staged = meta.ahead.get(power)
    slot = state.slot
    last = slot is not None and ((slot.phase is Phase.LAND and slot.power == power) or slot.phase is Phase.ECONOMIC)
    if (not staged and not want) or not last or state.options.one_round_diplomacy or state.date >= state.end \
            or power in state.order_sheet.commitments:
        return [], meta
    acts, meta = _with_reactions(meta, state, power, ahead_orders(meta, power))
    nonce = rng(sealing.NONCE_BYTES)
    key = sealing.ahead_key(state)
    seal = sealing.SealAhead(sealing.digest(power, key, nonce, acts))
    kept = SealedOrders(key, nonce, tuple(engine.action_to_obj(a) for a in acts), ahead=True)
    return [seal], _without_ahead(meta, power).replace(sealed=meta.sealed.set(power, kept))


def _without_ahead(meta: SaveMeta, power: str) -> SaveMeta:
    return meta.replace(ahead=meta.ahead.remove(power)) if power in meta.ahead else meta
