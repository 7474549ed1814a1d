"""Which setup a computer power loads in the setup phase (5.2.2, 14.5; 000:2820-2828).

14.5 names a scenario's AI setups ``AI<Xx><scenario>_<#>.set`` (``Xx`` the first
two letters of the nation, ``#`` from 0 up): the computer scans them for its
nation and scenario and loads one.  The caller (``client.autoplay``) reads the
files and gives them here as ``Alternatives`` in number order; the computer
picks one with a die of its own slot (``ai/setup``), so every client replays
the same choice and no player knows it before the slot is played.  Given a
plain list of actions (no AI setup exists), that list is the setup.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

#: The die of the choice (one per setup slot of the power).
LABEL = "ai/setup"


@dataclass(frozen=True)
class Alternatives:
    """A power's AI setups ``AI…_0.set``, ``AI…_1.set``, … (14.5): each a list of setup actions."""

    options: tuple[tuple[Any, ...], ...]
    names: tuple[str, ...] = ()


def choose(setup: Sequence[Any] | Alternatives, ctx: Any) -> Sequence[Any]:
    """The actions the computer loads: one of the AI setups by a die, or the setup given."""
    if not isinstance(setup, Alternatives):
        return setup
    if not setup.options:
        return ()
    if len(setup.options) == 1:
        return setup.options[0]
    return setup.options[ctx.dice.roll(LABEL, len(setup.options)) - 1]


__all__ = ["Alternatives", "LABEL", "choose"]
