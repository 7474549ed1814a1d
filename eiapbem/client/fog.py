"""Fog of War (4.1.1, 000:52): less battle information for those who did not fight.

With the option on, what a folder shows its players (``viewers``: the powers
played there; the host sees what its own power sees) changes so:

- the game log (``eiapbem log``, the last lines of ``eiapbem status``): the start
  and end of a land battle and a siege's result fought by none of the viewers'
  powers read "a battle is fought in AREA" / "the battle in AREA is over" / "the
  siege of AREA is decided": forces, dice, losses and the winner are not shown;
- ``eiapbem battle report`` of such a battle is refused in one sentence;
- ``eiapbem show area`` and ``show unit`` give the size (factors, ships) of the
  corps, garrisons and fleets of powers that are neither the viewers' nor allied
  to them as "strength hidden".

The same holds for every ``--json`` document (``show area|unit|units|power``,
``log``, ``status``): ``filter_record`` blanks a hidden unit's ``strength``,
``factors`` and ``ships`` (``"strength": null, "hidden": true``), ``power_record``
hides another power's totals on the map, and the log's ``params`` of a hidden
battle line are dropped with its text shortened as above.

This is presentation only: every client holds the whole state to replay the
game, so a patched client can read all of it (docs/SECURITY.md).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from eiapbem.core.errors import IllegalAction
from eiapbem.rules import relations
from eiapbem.rules.model import POWERS, GameState, LogEntry

from .showtext import HIDDEN  # noqa: F401  (re-exported)
from .showtext import fogged_battle, log_json


def viewers(s: Any) -> set[str]:
    """The powers whose eyes a session's display uses: the acting power, or the host folder's own powers."""
    if s.power in POWERS:
        return {s.power}
    return {r for r in s.local if r in POWERS}


def on(state: GameState) -> bool:
    return state.options.fog_of_war


def _controllers(state: GameState, unit_ids: Iterable[str]) -> set[str]:
    out = set()
    for uid in unit_ids:
        u = state.units.get(uid)
        if u is not None:
            p = relations.unit_power(state, u)
            if p is not None:
                out.add(p)
        else:  # a unit gone from the map: its id names its nation
            parts = uid.split(":")
            if len(parts) > 1:
                out.add(relations.power_of(state, parts[1]) or parts[1])
    return out


def battle_powers(state: GameState, battle_id: str) -> set[str] | None:
    """The powers that fought a land battle or siege, or None for an unknown id."""
    b = state.battles.get(battle_id)
    if b is not None:
        out = {s.power for s in (b.attacker, b.defender) if s.power}
        return out | _controllers(state, b.attacker.units + b.defender.units)
    s = state.sieges.get(battle_id)
    if s is not None:
        out = {s.besieger, relations.power_of(state, s.defender) or s.defender}
        return out | _controllers(state, s.besiegers + s.defenders)
    nb = state.naval_battles.get(battle_id)
    if nb is not None:
        return {nb.power} | _controllers(state, nb.attackers + nb.defenders)
    return None


def _area_of(state: GameState, battle_id: str) -> str:
    b = state.battles.get(battle_id)
    if b is not None:
        return b.area
    s = state.sieges.get(battle_id)
    return s.city if s is not None else battle_id


def _seen(state: GameState, battle_id: str, viewers: Iterable[str]) -> tuple[bool, str]:
    """Whether the viewers' powers fought a battle, and where it was fought (its id when the state has it no more)."""
    fought = battle_powers(state, battle_id)
    return fought is not None and bool(fought & set(viewers)), _area_of(state, battle_id)


def battle_table(state: GameState, viewers: Iterable[str]) -> dict[str, list] | None:
    """What ``showtext.log_json`` needs of the state to show any log line to the viewers: None when the game does not
    use Fog of War, else ``[seen, place]`` of each battle, siege and naval combat the state has."""
    if not on(state):
        return None
    vs = set(viewers)
    return {b: list(_seen(state, b, vs)) for b in sorted({*state.battles, *state.sieges, *state.naval_battles})}


def log_text(state: GameState, e: LogEntry, viewers: Iterable[str]) -> str:
    """The text of one log line as the viewers may see it."""
    return log_record(state, e, viewers)["text"]


def check_report(state: GameState, battle_id: str, viewers: Iterable[str]) -> None:
    """Refuse a battle report to those who did not fight it, under Fog of War."""
    if not on(state):
        return
    fought = battle_powers(state, battle_id)
    if fought is not None and not fought & set(viewers):
        raise IllegalAction(f"{battle_id} was fought by {', '.join(sorted(fought))}; with Fog of War (4.1.1) only "
                            "they see its report")


def friendly(state: GameState, viewers: Iterable[str]) -> set[str]:
    """The viewers' powers and their allies."""
    out = {v for v in viewers if v in POWERS}
    for v in list(out):
        out |= set(relations.allies(state, v))
    return out


def hides_strength(state: GameState, unit: Any, viewers: Iterable[str]) -> bool:
    """Whether ``show`` hides this unit's factors or ships from the viewers."""
    if not on(state):
        return False
    return relations.unit_power(state, unit) not in friendly(state, viewers)


def filter_record(state: GameState, rec: dict, viewers: Iterable[str]) -> dict:
    """A ``show`` unit record (``client.show.unit_record``) as the viewers may see it under Fog of War."""
    if not on(state) or rec.get("kind") not in ("corps", "garrison", "fleet"):
        return rec
    u = state.units.get(rec["id"])
    if u is None or not hides_strength(state, u, viewers):
        return rec
    out = {k: v for k, v in rec.items() if k not in ("factors", "ships")}
    out["strength"] = None
    out["hidden"] = True
    return out


def filter_records(state: GameState, recs: Iterable[dict], viewers: Iterable[str]) -> list[dict]:
    vs = set(viewers)
    return [filter_record(state, r, vs) for r in recs]


def power_record(state: GameState, rec: dict, viewers: Iterable[str]) -> dict:
    """``show power --json`` of a power neither the viewers' nor allied: its forces' sizes hidden."""
    if not on(state) or rec["power"] in friendly(state, viewers):
        return rec
    return {**rec, "on_map": {**rec["on_map"], "factors": None, "ships": None}, "to_place": None, "hidden": True}


def log_record(state: GameState, e: LogEntry, viewers: Iterable[str]) -> dict:
    """One ``eiapbem log --json`` line as the viewers may see it (a hidden battle line keeps no params)."""
    bid = fogged_battle(e.kind, e.params) if on(state) else None
    line = {"slot": e.slot, "author": e.author, "kind": e.kind, "text": e.text, "params": e.params}
    return log_json(line, None if bid is None else {bid: list(_seen(state, bid, viewers))})


__all__ = ["HIDDEN", "battle_table", "filter_record", "filter_records", "log_record", "power_record", "viewers", "battle_powers", "check_report", "friendly", "hides_strength", "log_text", "on"]
