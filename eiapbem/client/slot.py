"""The slot in play as this folder's power sees it: its dice, its actions so far, its replay (4.2.7).

The save holds the state at the start of the slot in play and the actions each
local power has taken so far in it.  The state during the slot is always the
start state with the actions replayed under the slot's dice, which are fixed
before the player acts (``pbem.dice``), together with the battle exchanges done
so far (the defenders' replies, ``client/battles.py``): ``rules.turn.play``.
``Turns`` (acting, ending the slot) and ``BattleExchange`` (the battle files) are
both given this one ``SlotPlay``.
"""

from __future__ import annotations

from typing import Any, Iterable

from eiapbem import ai
from eiapbem.core import canonical
from eiapbem.core.dice import Dice
from eiapbem.data.context import rules_context
from eiapbem.pbem import dice as pdice
from eiapbem.rules import engine, turn
from eiapbem.rules.model import GameState

from . import battles
from .store import Store


def file_slot(state: GameState, power: str) -> str:
    """The slot a power's file names: the game's slot key, or one per power in a simultaneous slot."""
    slot = state.slot
    assert slot is not None
    if slot.simultaneous:
        return f"{state.date}/{slot.phase}/{slot.step}/{power}"
    return slot.key(state.date)


def actions_of(objs: Iterable[Any], where: str) -> list:
    """Action objects of the save or of a file, each decoded strictly by the rules."""
    return [engine.action_from_obj(o, f"{where}[{i}]") for i, o in enumerate(objs)]


class SlotPlay:
    """The slot in play for the save's power: dice, actions taken, the replay so far (kept while nothing changed)."""

    def __init__(self, store: Store) -> None:
        self.store = store
        #: Replays of the slot so far by (actions, exchanges), for one start state and chain.
        self._played: dict = {}

    def dice(self) -> Dice:
        """This power's dice for its file of the slot in play (fixed before it acts, 4.2.7)."""
        return pdice.dice_for_next(self.store.contents.chain, self.store.me)

    def taken(self, power: str | None = None) -> list:
        """The actions ``power`` (default: the save's power) has taken so far in the slot."""
        st = self.store
        return actions_of(st.data.taken.get(power or st.power, []), "the saved actions")

    def plays(self) -> bool:
        """Is the slot in play a sequential slot of the save's power?"""
        slot = self.store.state.slot
        return slot is not None and not slot.simultaneous and slot.power == self.store.power

    def reloads(self) -> int:
        st = self.store
        return max(st.contents.starts.get(file_slot(st.state, st.power), 1) - 1, 0)

    def exchanges(self) -> list[battles.Exchange]:
        """The battle exchanges done so far in the slot, from the acting power's own battle records."""
        return battles.exchanges_so_far(self.store.data.battles)

    def play(self, actions: list) -> turn.Played:
        """The slot replayed so far (``rules.turn.play``, not ended); kept while the start state, actions and exchanges are the same."""
        st = self.store
        book = st.data.battles
        key = canonical.encode([[engine.action_to_obj(a) for a in actions], [list(x) for x in book.plan],
                                {b: [len(f.files), f.secret] for b, f in book.fights.items()}])
        cache = self._played
        if cache.get("state") is not st.data.state or cache.get("chain") is not st.contents.chain:
            cache.clear()
            cache.update(state=st.data.state, chain=st.contents.chain)
        if key not in cache:
            ctx = rules_context(battles.BattleDice(self.dice()))
            cache[key] = turn.play(st.state, st.power, actions, self.exchanges(), ctx, ai)
        return cache[key]
