"""Naval combats between two human players by battle files (``rules/turn.py``, ``client/battles.py``;
docs/decisions.md "Naval phase").

The manual exchanges battle files for land combat (4.2.7, 000:170); the project sends naval
combats the same way so that a human non-phasing side answers its own questions (evasion,
9.2.1.1; where its heavy ship losses fall, 9.2.2.1; the sea area it retreats to when no port
is open, 9.4.1; entering a port after winning in its blockade box, 9.4.3) instead of having them answered by its standing orders.  The exchange is
the land battles' (question file, reply file, close file, the two nonces seeding every
``naval/<battle id>/...`` roll after the exchange); this module only says which naval questions
travel and reads the naval battle ids (``1805-10.english-channel.1``).

No file travels for the port evacuation battle (8.7: resolved without any input), under PBEM
Quick Combat (4.1.1), or when the computer plays either side: then the non-phasing side's
standing orders answer (``rules.combat.standing.naval_answer``).
"""

from __future__ import annotations

from typing import Any

from eiapbem.core.errors import BadEncoding
from eiapbem.rules.model import GameState


def _battle(state: GameState, decision: Any) -> Any:
    return state.naval_battles.get(decision.context.get("battle"))


def exchange_needed(state: GameState, decision: Any) -> bool:
    """A human non-phasing power's question in a naval combat of a human's slot (the caller checked the powers)."""
    b = _battle(state, decision)
    return b is not None and b.step != "done" and not b.evacuation and not state.options.pbem_quick_combat


def automatic(state: GameState, decision: Any) -> bool:
    """A naval question of another power that its standing orders answer in the acting power's slot."""
    b = _battle(state, decision)
    return b is not None and b.step != "done" and not exchange_needed(state, decision)


def _parts(bid: str) -> tuple[str, str, int]:
    parts = bid.split(".")
    if len(parts) != 3 or not parts[2].isdigit():
        raise BadEncoding(f"{bid!r} is not a battle id")
    return parts[0], parts[1], int(parts[2])


def index_of(bid: str) -> int:
    return _parts(bid)[2]


def area_of(bid: str) -> str:
    """The sea area or port of a naval battle id ``1805-10.english-channel.1``."""
    return _parts(bid)[1]


def area(state: GameState, bid: str) -> str:
    return state.naval_battles[bid].location.site


def finished(state: GameState, bid: str) -> bool:
    return state.naval_battles[bid].step == "done"


def result(state: GameState, bid: str) -> str:
    b = state.naval_battles[bid]
    return b.report[-1] if b.report else b.outcome
