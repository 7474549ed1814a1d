"""The campaign's battles by files (issue 18/19): what two human clients do, each side in its own folder.

The acting power's folder takes the computer's actions one after the other
when a battle stops the plan (a question for another power, 4.2.7); its own
battle questions are answered by the computer at the campaign's level.  A
battle file the acting folder's session writes for another power
(``exchange.BattleExchange``) is copied to that power's ``battles/``, loaded
there with ``load_battle`` (full checks), the questions it asks are answered
by the computer (``ai.answer``) through ``Session.act`` (``answer_battle``
writes the reply), and the reply is copied back and loaded in the acting
folder, until the battle is over; then the acting power goes on.  Nothing of
the file layer is skipped; the answers depend only on the state shown, so a
seeded campaign repeats.
"""

from __future__ import annotations

from typing import Any

from eiapbem import ai
from eiapbem.core.errors import IllegalAction
from eiapbem.data.context import rules_context
from eiapbem.rules.model import PlayerKind

from .session import Session

#: A slot's battles never need this many exchanges; a bound so a rules loop stops the run with a sentence.
MAX_STEPS = 400


def out_files(s: Session) -> list[tuple[str, str]]:
    """(file name in ``battles/``, defender) of every battle file the acting folder must send now."""
    return [(f.name, f.defender) for f in s.fights().values() if f.out]


def answer_own(s: Session, power: str, kind: PlayerKind) -> int:
    """Answer, one by one, the questions the state shown to ``power`` asks it (the computer at ``kind``)."""
    n = 0
    for _ in range(MAX_STEPS):
        st = s.current()
        mine = [d for _k, d in sorted(st.pending.items()) if d.power == power]
        if not mine or (s.plays_slot() and out_files(s)):
            return n
        lent = st.with_power(power, controller=kind)
        s.act(ai.answer(lent, mine[0], rules_context(s.slot_dice())))
        n += 1
    raise IllegalAction(f"{power}'s computer answered {MAX_STEPS} battle questions in a row; the rules loop")


class Acting:
    """The acting power's slot when its plan is stopped by battles: the actions left, taken one by one."""

    def __init__(self, s: Session, power: str, kind: PlayerKind, actions: list[Any]) -> None:
        self.s = s
        self.power = power
        self.kind = kind
        self.left = list(actions)
        self.dropped = 0

    def go_on(self) -> list[tuple[str, str]]:
        """Take actions until a battle file must go out (returned) or the plan is done (``[]``)."""
        s = self.s
        while True:
            answer_own(s, self.power, self.kind)
            out = out_files(s)
            if out:
                return out
            if not self.left:
                return []
            a = self.left.pop(0)
            try:
                s.act(a)
            except IllegalAction:
                self.dropped += 1  # the battle went otherwise than the computer's look ahead: this step no longer fits


def start(s: Session, power: str, kind: PlayerKind, actions: list[Any]) -> tuple[Acting | None, list[tuple[str, str]]]:
    """Take the plan at once when nothing stops it (one save); else step by step (``Acting``)."""
    kept = False
    try:
        if actions:
            s.act_many(actions)
        kept = True
    except IllegalAction:
        pass  # a battle question waits in the middle of the plan: nothing was kept, go one by one
    if kept and not out_files(s) and not [d for d in s.current().pending.values() if d.power == power]:
        return None, []
    acting = Acting(s, power, kind, [] if kept else actions)
    return acting, acting.go_on()


def defend(s: Session, power: str, kind: PlayerKind, name: str) -> str | None:
    """Load the battle file ``battles/name`` in the defender's folder and answer it; the reply's name, if one is due."""
    s.last_battle_file = None
    s.load_battle(s.folders.battles / name)
    for _ in range(MAX_STEPS):
        view = s.current()
        asked = [d for _k, d in sorted(view.pending.items()) if d.power == power and s.answer_entry(d.id)]
        if not asked:
            break
        lent = view.with_power(power, controller=kind)
        s.act(ai.answer(lent, asked[0], rules_context(s.slot_dice())))
        if s.last_battle_file is not None:
            return s.last_battle_file.name
    else:
        raise IllegalAction(f"{power}'s computer answered {MAX_STEPS} battle questions in a row; the rules loop")
    return None
