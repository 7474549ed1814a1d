"""Proportional naval losses between the fleets of a side, and the player's heavy-ship losses (9.2.2.1 "Proportional
Naval Losses", 000:1236-1238).

The program shares a side's losses between its fleets as nearly in proportion to their ships as it can
(``split_losses``: each fleet's share rounded down, the rest one each to the largest remainders, ties by fleet id),
light ships rounded down.  "If maximum light ship losses are taken, the program will prompt the player for heavy ship
loss(es)": which fleets lose the heavy ships is the player's.  So after the fire, a side whose heavy losses could fall
on two or more of its fleets is asked ``naval.heavy-losses`` (the side's answering power, ``battle.lead_power``):
an answer names each fleet's heavy ships lost, ``fleet:FR:1=2,fleet:FR:2=1``; the proportional split is the first
option and the standing answer, so a power that is not asked (the non-phasing side, the computer) loses its heavy
ships as before.  The other options offered take the losses from one fleet first.  The totals, the victor and the
political points do not change: only where the heavy ships are lost.
"""

from __future__ import annotations

from collections.abc import Sequence

from eiapbem.core.errors import IllegalAction
from eiapbem.rules.forces import the_fleet
from eiapbem.rules.model import FrozenMap, GameState, Ships
from eiapbem.rules.model.combat import NavalBattle

KIND = "naval.heavy-losses"


def split_losses(counts: Sequence[tuple[str, int]], lost: int) -> dict[str, int]:
    """Share ``lost`` ships of one type between fleets in proportion to what each has.

    Each fleet loses its share rounded down; the ships left over go one each
    to the largest remainders, ties by fleet id (docs/decisions.md).
    """
    total = sum(n for _, n in counts)
    lost = min(lost, total)
    if total == 0:
        return {f: 0 for f, _ in counts}
    share = {f: lost * n // total for f, n in counts}
    rest = lost - sum(share.values())
    order = sorted(counts, key=lambda fn: (-(lost * fn[1] % total), fn[0]))
    for f, n in order:
        if rest == 0:
            break
        if share[f] < n:
            share[f] += 1
            rest -= 1
    return share


def text(alloc: dict[str, int]) -> str:
    """An allocation as an answer: ``fleet:FR:1=2,fleet:FR:2=1`` (fleets by id, every fleet named)."""
    return ",".join(f"{f}={n}" for f, n in sorted(alloc.items()))


def _room(b: NavalBattle, fleets: Sequence[str]) -> dict[str, int]:
    """Each fleet's heavy ships as the combat began: the most it can lose."""
    return {f: b.start[f].heavy for f in fleets if b.start[f].heavy > 0}


def _lost_heavy(b: NavalBattle, fleets: Sequence[str]) -> dict[str, int]:
    return {f: b.fleet_losses.get(f, Ships()).heavy for f in fleets if b.start[f].heavy > 0}


def choices(b: NavalBattle, fleets: Sequence[str]) -> tuple[str, ...]:
    """The allocations offered for a side's heavy losses, the program's proportional split first; () when there is no
    choice (no heavy loss, one fleet with heavy ships, or every heavy ship lost)."""
    room = _room(b, fleets)
    lost = sum(_lost_heavy(b, fleets).values())
    if lost == 0 or len(room) < 2 or lost >= sum(room.values()):
        return ()
    out = [text(_lost_heavy(b, fleets))]
    for first in sorted(room):
        alloc, left = {}, lost
        for f in [first] + sorted(x for x in room if x != first):
            alloc[f] = min(room[f], left)
            left -= alloc[f]
        if text(alloc) not in out:
            out.append(text(alloc))
    return tuple(out)


def parse(b: NavalBattle, fleets: Sequence[str], answer: str) -> dict[str, int]:
    """The allocation an answer names, refused in one sentence unless it names every fleet with heavy ships once, no
    more than a fleet had, adding up to the side's heavy losses (9.2.2.1)."""
    room = _room(b, fleets)
    lost = sum(_lost_heavy(b, fleets).values())
    alloc: dict[str, int] = {}
    for part in answer.split(","):
        fid, sep, n = part.strip().partition("=")
        if not sep or fid not in room or not n.strip().isdigit() or fid in alloc:
            raise IllegalAction(f"{answer!r} is not an allocation of the heavy ship losses: write FLEET=N for each of "
                                f"{', '.join(sorted(room))}, e.g. {choices(b, fleets)[0]} (9.2.2.1)")
        alloc[fid] = int(n)
        if alloc[fid] > room[fid]:
            raise IllegalAction(f"{fid} had {room[fid]} heavy ships in the combat; it cannot lose {alloc[fid]} (9.2.2.1)")
    if set(alloc) != set(room) or sum(alloc.values()) != lost:
        raise IllegalAction(f"the side loses {lost} heavy ships: name each of {', '.join(sorted(room))} once, the "
                            f"numbers adding up to {lost} (9.2.2.1)")
    return alloc


def reallocate(state: GameState, b: NavalBattle, fleets: Sequence[str], alloc: dict[str, int]
               ) -> tuple[GameState, NavalBattle]:
    """Move the side's heavy losses to ``alloc``: each fleet's heavy ships are its start less its new loss."""
    losses = dict(b.fleet_losses)
    for fid, n in sorted(alloc.items()):
        f = the_fleet(state, fid)
        before = losses.get(fid, Ships())
        state = state.with_unit(f.replace(ships=f.ships.replace(heavy=f.ships.heavy + before.heavy - n)))
        losses[fid] = before.replace(heavy=n)
    return state, b.replace(fleet_losses=FrozenMap(losses))


__all__ = ["KIND", "choices", "parse", "reallocate", "split_losses", "text"]
