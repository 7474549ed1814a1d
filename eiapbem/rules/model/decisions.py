"""Pending decisions and the public game log.

A pending decision is a question the rules ask someone in the middle of a
phase (a defender's chit, 11.2.1; continue or withdraw, 11.2.13; an
interception, 8.5): who must answer, what kind of question, which answers are
allowed, and the facts the question is about.  The CLI prompts it, the AI or a
standing order answers it, a battle file carries it (DESIGN.md §3).

The game log is what every player sees (4.2.8: host edits "will be reported
in the game log", 000:232): one entry per event, in order.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated

from eiapbem.rules.model.base import FrozenMap, InvalidValue, Pattern, Record
from eiapbem.rules.model.common import SLUG_RE, Param, PowerId

#: Slot key pattern (see ``Slot.key``), or ``setup`` style keys of the same shape.
SLOT_KEY_RE = r"\d{4}-\d{2}/[a-z]+/[a-z]+/(?:AU|FR|GB|PR|RU|SP|TU|all)"
SlotKey = Annotated[str, Pattern(SLOT_KEY_RE, "slot key like 1805-03/naval/turn/GB")]
Kind = Annotated[str, Pattern(rf"{SLUG_RE}(?:\.{SLUG_RE})*", "kind like battle.chit")]
Author = Annotated[str, Pattern(r"AU|FR|GB|PR|RU|SP|TU|host|game", "author (a power, host or game)")]
DecisionId = Annotated[str, Pattern(r"[A-Za-z0-9:/._-]+", "decision id")]


@dataclass(frozen=True, slots=True)
class PendingDecision(Record):
    """A question waiting for an answer."""

    id: DecisionId
    #: The power that must answer.
    power: PowerId
    #: What is asked, e.g. ``battle.chit`` or ``naval.intercept``.
    kind: Kind
    #: The allowed answers, in the order to offer them.
    options: tuple[str, ...]
    #: The slot in which it was asked.
    slot: SlotKey
    #: What the question is about (the battle's area, the units…).
    context: FrozenMap[str, Param] = FrozenMap()

    def _check(self) -> None:
        if not self.options:
            raise InvalidValue("a decision offers at least one answer", path="options")
        if len(set(self.options)) != len(self.options):
            raise InvalidValue("a decision offers each answer once", path="options")


@dataclass(frozen=True, slots=True)
class LogEntry(Record):
    """One line of the public game log."""

    slot: SlotKey
    #: Who caused it: a power, the host (admin acts, 4.2.8) or the game itself.
    author: Author
    kind: Kind
    #: The sentence shown to players.
    text: str
    #: The facts behind the sentence, for programs (amounts, unit ids…).
    params: FrozenMap[str, Param] = FrozenMap()
