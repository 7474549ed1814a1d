"""The computer against the computer, in memory: seeded all-computer campaigns and the levels' strength (issue 19 item 4).

``play`` runs a campaign through the rules core alone — the same calls every
client makes for a computer power (``ai.play_slot`` for a sequential slot,
``ai.orders`` then ``engine.resolve_slot`` for a simultaneous one) — with each
slot's dice drawn from ``SHA-256(seed / slot key)``.  No file is written: the
file layer (sealing, chains, delivery, loading in eight folders) is checked
by ``eiapbem campaign`` and its tests, not here; a campaign in memory gives
the same states as by files only in the rules, not in the dice (a game by
files draws its dice from the files' chain).

The levels' strength is measured on such campaigns by ``campaign_ladder`` (``eiapbem bench ai-strength``),
and what a campaign had is read by ``campaign_measures.Chronicle``.
"""

from __future__ import annotations

import hashlib
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable

from eiapbem import ai
from eiapbem.core.dice import Dice
from eiapbem.core.errors import IllegalAction
from eiapbem.rules import engine
from eiapbem.rules.diplomacy.common import name
from eiapbem.rules.model import POWERS, GameState, LogEntry, Phase, PlayerKind
from eiapbem.rules.tables.diplomacy import NATURAL_ALLIANCE

from .campaign_measures import Chronicle

#: Event kinds counted by ``play`` (what a campaign "had").
COUNTED = ("battle.start", "naval.combat", "siege.result", "diplomacy.war")


def start_state(scenario: str, kinds: dict[str, PlayerKind], seed: bytes) -> GameState:
    """The scenario's first state with the given computer levels (and their 4.2.3 start bonuses)."""
    from eiapbem.data import world
    from eiapbem.rules.economy.victory import with_ai_start_bonuses
    from eiapbem.rules.scenario import initial_state

    st = initial_state(world.load_scenario(scenario), world.load_raw(), players=dict(kinds))
    return with_ai_start_bonuses(st, Dice(hashlib.sha256(seed + b"/gamestart").digest()))


@dataclass
class Played:
    state: GameState
    slots: int = 0
    #: Event kind (prefix, ``COUNTED``) -> how many; and the declarations of war (6.2) made.
    counts: Counter = field(default_factory=Counter)
    declarations: int = 0
    #: Peaces made (a surrender or an informal peace, 6.4.1-6.4.2).
    peaces: int = 0
    #: The slowest computer slot (seconds, the wall clock: a figure, not a result).
    slowest: tuple[float, str] = (0.0, "")
    hashes: list[str] = field(default_factory=list)
    #: Per power: political points won (+) or lost (-) in each phase ("land", "economic"...: the political status
    #: display's marker before and after each slot), and counts of what it did ("wars declared", "surrenders").
    points: dict[str, Counter] = field(default_factory=lambda: {p: Counter() for p in POWERS})
    did: dict[str, Counter] = field(default_factory=lambda: {p: Counter() for p in POWERS})
    #: Every log line of the slots played (kept when a chronicle reads the campaign).
    journal: list[LogEntry] = field(default_factory=list)


#: The political points of the diplomacy phase by what earned them (``rules.diplomacy.common.points``' sentences).
_DIPLOMACY_POINTS = (("declare war on each other", "declarations of war"), ("declares war", "declarations of war"),
                     ("declared war", "declarations of war"), ("surrenders", "surrenders"),
                     ("accepts the", "surrenders accepted"), ("royal marriage", "royal marriages"),
                     ("alliance", "alliances"), ("refuse", "alliances"), ("selected to run", "minors"),
                     ("control of", "minors"), ("conquers", "minors"))


def _count(p: Played, events: Iterable[LogEntry], before: GameState | None = None) -> None:
    for e in events:
        if e.kind in COUNTED:
            p.counts[e.kind] += 1
        who = e.params.get("power") if e.params else None
        if e.kind == "diplomacy.points" and "declare" in e.text and "war on" in e.text:
            p.declarations += 1
            if who in p.did:
                p.did[who]["wars declared"] += 1
        if e.kind == "diplomacy.peace" and (" surrenders " in e.text or "make an informal peace" in e.text):
            p.peaces += 1
            if who in p.did and " surrenders " in e.text:
                p.did[who]["surrenders"] += 1
        if e.kind == "diplomacy.points" and who in p.did and "forced declarations of war over" in e.text:
            p.did[who]["forced wars over one minor (6.6.3)"] += 1
        if e.kind == "diplomacy.points" and who in p.did:
            bucket = next((b for k, b in _DIPLOMACY_POINTS if k in e.text), "other")
            p.did[who][f"political points for {bucket}"] += int(e.params.get("points", 0))
        if e.kind in ("land.conquest", "diplomacy.auto-conquest") and who in p.did and "conquer" in e.text:
            p.did[who]["minors conquered"] += 1
        if e.kind == "diplomacy.war" and who in p.did and e.params.get("target") not in (None, *POWERS):
            p.did[who]["wars on minors declared"] += 1
        if e.kind == "diplomacy.points" and who in p.did and " declares war on " in e.text:
            for q in POWERS:
                if q != who and f" declares war on {name(q)} (" in e.text and \
                        (NATURAL_ALLIANCE[who][q] >= 1 or NATURAL_ALLIANCE[q][who] >= 1):
                    # the exception: the friend was at war with one of the declarer's allies
                    ally_hit = before is not None and any(a in before.powers[q].wars for a in before.powers[who].alliances)
                    p.did[who]["wars on natural friends declared" + (" (at war with an ally)" if ally_hit else "")] += 1
        if e.kind == "siege.result" and e.params.get("outcome") == "captured":
            for q in POWERS:
                if f" taken by {q}" in e.text:
                    p.did[q]["cities taken by siege"] += 1


def counted(state: GameState, events: Iterable[LogEntry]) -> Played:
    """``events`` counted as ``play`` counts a slot's: a campaign by files reads them from a folder's journal."""
    out = Played(state)
    _count(out, events)
    return out


def play(state: GameState, scenario: str, seed: bytes, months: int, *, hashes: bool = False,
         clock: Callable[[], float] | None = None, chronicle: Chronicle | None = None,
         computer: Any = ai) -> Played:
    """Play every slot with the computer from ``state`` until ``months`` months after the setup (or the end).

    ``chronicle`` is given every state, the simultaneous slots' orders and each slot's CPU seconds
    (``client/campaign_measures.py``); ``computer`` plays the slots (``eiapbem.ai``, or a variant of it
    for a measure, ``campaign_ladder.NeverDeclares``)."""
    from eiapbem.client import autoplay
    from eiapbem.data.context import rules_context

    out = Played(state)
    first = None
    st = state
    if chronicle is not None:
        chronicle.observe(st)
    while st.slot is not None:
        slot = st.slot
        if first is None and slot.phase is not Phase.SETUP:
            first = st.date
        if first is not None and st.date.index - first.index >= months:
            break
        key = slot.key(st.date)
        before = {p: st.powers[p].political_status for p in POWERS}
        before_state = st
        ctx = rules_context(Dice(hashlib.sha256(seed + b"/" + key.encode()).digest()))
        t0 = clock() if clock else 0.0
        if slot.simultaneous:
            orders = {}
            for p in slot.actors:
                c0 = time.process_time()
                orders[p] = list(computer.orders(st, p, ctx))
                if chronicle is not None:
                    chronicle.timed(time.process_time() - c0, f"{key}/{p}")
                    chronicle.orders(st, p, orders[p])
            res = engine.resolve_slot(st, orders, ctx)
            st, events = res.state, res.events
        else:
            power = str(slot.power)
            # the setup a computer loads in a game (``AutoPlay.ai_setup``): one of the scenario's AI setups, chosen
            # by its die (14.5), else the shipped default
            setup = (autoplay.ai_setups(scenario, power) or autoplay.default_actions(scenario, power)
                     if slot.phase is Phase.SETUP else [])
            c0 = time.process_time()
            try:
                turn = computer.play_slot(st, power, ctx, setup=setup)
                st, events = turn.state, turn.events
            except ai.AiStuck as err:
                raise IllegalAction(f"the computer could not end {key}: {err}") from err
            if chronicle is not None:
                chronicle.timed(time.process_time() - c0, key)
        if chronicle is not None:
            chronicle.observe(st)
        if clock:
            dt = clock() - t0
            if dt > out.slowest[0]:
                out.slowest = (dt, key)
        _count(out, events, before_state)
        if chronicle is not None:
            out.journal.extend(events)
        for p in POWERS:
            moved = st.powers[p].political_status - before[p]
            if moved:
                out.points[p][slot.phase.value] += moved
        out.slots += 1
        if hashes:
            out.hashes.append(f"{key} {st.state_hash().hex()}")
    out.state = st
    return out


def to_commit(state: GameState, power: str, ctx) -> tuple:
    """The orders a human's folder that lets the computer choose for it (``eiapbem campaign``) seals in the
    diplomacy commit round: those the computer would give from the same state in the orders round.  (A power
    played by the computer itself commits nothing: every client computes its orders at the reveal.)"""
    from eiapbem.rules.model.slot import COMMIT, ORDERS

    slot = state.slot
    if slot is None or slot.phase is not Phase.DIPLOMACY or slot.step != COMMIT:
        raise IllegalAction("there is no diplomacy commit round in play")
    return ai.orders(state.replace(slot=slot.replace(step=ORDERS)), power, ctx)


__all__ = ["COUNTED", "Played", "counted", "play", "start_state", "to_commit"]

