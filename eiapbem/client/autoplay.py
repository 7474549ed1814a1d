"""Automatic play of the computer's slots, at every client alike (4.2.1, 4.2.3).

AI powers (``PowerState.controller`` ai-easy/medium/hard) write no files:
every client plays their slots itself, deterministically, through
``rules.turn.advance`` with ``eiapbem.ai`` passed in as the computer, whenever
the state or chain moved (end-phase, a loaded turn or admin file, a new game,
join, backup).  A sequential AI slot is played with ``pbem.dice.ai_dice`` as
soon as the slot before it ends; a simultaneous slot resolves when every human
actor's orders are in, the AI's orders made from its starting state.
Decisions addressed to an AI power in a human's slot are answered during the
replay (``rules.turn.play_turn``) with the file's dice.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace
from importlib import resources
from typing import Any

from eiapbem import ai
from eiapbem.core.dice import Dice
from eiapbem.core.errors import BadData
from eiapbem.data.context import rules_context
from eiapbem.ai.setup import Alternatives
from eiapbem.pbem import dice as pdice
from eiapbem.pbem import folders
from eiapbem.rules import engine, turn
from eiapbem.rules.model import GameState, Phase

from . import orders as sealed_orders
from .store import Store


def resolve_dice(head: bytes) -> Dice:
    """Dice for resolving a simultaneous slot: from the chain head that joins all its files."""
    return Dice(hashlib.sha256(b"eiapbem/v1/resolve\x00" + head).digest())


def default_actions(scenario: str, power: str, based_on: str | None = None) -> list:
    """The shipped default setup of a power (5.2.2, 14.5; ``eiapbem/data/setups/<scenario>/<POWER>.json``).

    A scenario made with the editor uses the one of the shipped scenario it was made from
    (``based_on``); the rules refuse it where the edits left it unplaceable (14.5)."""
    doc = None
    for name in (scenario, based_on):
        if not name:
            continue
        ref = resources.files("eiapbem.data") / "setups" / name / f"{power}.json"
        try:
            doc = json.loads(ref.read_text())
            break
        except FileNotFoundError:
            continue
    if doc is None:
        raise BadData(f"there is no default setup for {power} in scenario {scenario}",
                      hint="set up by hand and save it with 'eiapbem setup save NAME' (14.5)")
    return [engine.action_from_obj(o, f"default setup {scenario}/{power}") for o in doc["actions"]]


def ai_setups(scenario: str, power: str, based_on: str | None = None, root: Any = None) -> Alternatives | None:
    """A scenario's AI setups of a power (14.5, 000:2822-2828): ``AI<Xx><scenario>_<#>.set`` from 0 up.

    They are shared data (``eiapbem/data/setups/<scenario>/``, plain JSON ``{"actions": [...]}`` like the
    default setups), never a player's own files, so that every client replays the same computer setup;
    a scenario made with the editor uses those of the shipped scenario it was made from (``based_on``).
    None when the scenario has none (the computer then loads the default setup)."""
    base = root if root is not None else resources.files("eiapbem.data") / "setups"
    for name in (scenario, based_on):
        if not name:
            continue
        options, names = [], []
        for i in range(100):
            fn = "AI" + folders.setup_name(power, name, str(i))
            try:
                doc = json.loads((base / name / fn).read_text())
            except (FileNotFoundError, NotADirectoryError):
                break
            except ValueError as err:
                raise BadData(f"the AI setup {fn} is not JSON ({err})") from err
            if not isinstance(doc, dict) or not isinstance(doc.get("actions"), list):
                raise BadData(f"the AI setup {fn} holds no list of actions")
            options.append(tuple(engine.action_from_obj(o, f"AI setup {fn}") for o in doc["actions"]))
            names.append(fn)
        if options:
            return Alternatives(tuple(options), tuple(names))
    return None


class AutoPlay:
    """The computer's slots and the resolution of simultaneous slots, without a file, for the save it is given."""

    def __init__(self, store: Store, computer: Any = ai) -> None:
        self.store = store
        #: The computer players every client plays the AI powers with (``rules.turn.Computer``): ``eiapbem.ai``;
        #: ``eiapbem campaign`` gives its folders one that stops at the month it has reached (``campaign.Paced``).
        self.computer = computer

    def settle(self) -> None:
        """THE place where the game moves on without a file (``rules.turn.advance``).

        If the computer cannot end a slot (``ai.AiStuck``), the game waits at it
        and the host's admin menu must move it on (skip).
        """
        st = self.store
        chain = st.contents.chain
        if st.state.slot is None or chain.step is not None:
            return
        orders = {p: [engine.action_from_obj(o, f"the orders of {p}[{i}]") for i, o in enumerate(a)]
                  for p, a in sorted(st.data.orders.items())}
        state, used = turn.advance(
            st.state, orders, self.computer,
            ai_ctx=lambda key: rules_context(pdice.ai_dice(chain, key)),
            resolve_ctx=lambda: rules_context(resolve_dice(chain.head)),
            setup_for=self._setup_for)
        if state is not st.state or used:
            st.data = replace(st.data, state=state, orders={} if used else st.data.orders,
                              meta=sealed_orders.spent(st.data.meta, state))

    def _setup_for(self, state: GameState, power: str) -> list:
        slot = state.slot
        if slot is None or slot.phase is not Phase.SETUP:
            return []
        return self.ai_setup(power)

    def ai_setup(self, power: str) -> Any:
        """What an AI power loads in the setup phase: one of the scenario's AI setups (14.5, chosen by the
        computer's die, ``ai.setup``), else the shipped default setup (5.2.2; the computer uses it there only)."""
        meta = self.store.data.meta
        scenario, based_on = meta.scenario, meta.based_on or None
        return ai_setups(scenario, power, based_on) or default_actions(scenario, power, based_on)
