"""A game state for a rules case, built from the case's ``input`` table.

Whole-battle cases (naval battles, sieges) play the rules through the engine,
so they need a ``GameState``: a month, the phasing power, wars and alliances,
fleets, corps, garrisons and Nelson.  ``scene_state`` builds the smallest
state holding exactly what the case names, and ``answer_all`` answers its
pending decisions from the case's ``answers`` table (keyed by the part of the
decision id after the battle id).  Errors are ``BadData`` naming the key.
"""

from __future__ import annotations

from typing import Any

from eiapbem.core.errors import BadData, IllegalAction
from eiapbem.rules import engine
from eiapbem.rulecases.inputs import need
from eiapbem.rules.model import GameState, Slot
from eiapbem.rules.model.common import Date, Phase
from eiapbem.rules.model.units import (
    Corps,
    CorpsType,
    Factors,
    Fleet,
    Garrison,
    Leader,
    LeaderStatus,
    Location,
    LocationKind,
    Ships,
    garrison_id,
)

_FACTOR_KEYS = ("infantry", "militia", "cavalry", "guard", "artillery")


def location(text: str, key: str) -> Location:
    kind, _, site = text.partition(":")
    try:
        return Location(LocationKind(kind), site)
    except (ValueError, BadData) as err:
        raise BadData(f"the case input {key!r} must be a place like sea:bay-of-biscay or city:lille, not {text!r}") from err


def _factors(raw: dict) -> Factors:
    return Factors(**{k: need(raw, k, int, 0) for k in _FACTOR_KEYS})


def scene_state(inp: dict, *, phase: Phase) -> GameState:
    date = Date.parse(need(inp, "date", str))
    phasing = need(inp, "phasing", str)
    state = GameState.new(
        "classic-1805", date, Date(1815, 12), slot=Slot(phase=phase, step="turn", power=phasing, actors=(phasing,))
    )
    for key in ("wars", "alliances"):
        for pair in need(inp, key, list, []):
            if not (isinstance(pair, list) and len(pair) == 2 and all(p in state.powers for p in pair)):
                raise BadData(f"each entry of the case input {key!r} is a pair of powers like [\"GB\", \"FR\"], not {pair!r}")
            if key == "wars":
                state = state.with_war(pair[0], pair[1], date, (pair[0],))
            else:
                state = state.with_alliance(pair[0], pair[1], date)
    for raw in need(inp, "fleets", list, []):
        fid = need(raw, "id", str)
        state = state.with_unit(
            Fleet(
                id=fid,
                nation=fid.split(":")[1],
                location=location(need(raw, "location", str), "fleets.location"),
                ships=Ships(need(raw, "heavy", int, 0), need(raw, "light", int, 0), need(raw, "transport", int, 0)),
            )
        )
    for raw in need(inp, "corps", list, []):
        cid = need(raw, "id", str)
        state = state.with_unit(
            Corps(
                id=cid,
                nation=cid.split(":")[1],
                corps_type=CorpsType.REGULAR,
                location=location(need(raw, "location", str), "corps.location"),
                factors=_factors(raw),
                besieging=need(raw, "besieging", bool, False),
            )
        )
    for raw in need(inp, "garrisons", list, []):
        nation = need(raw, "nation", str)
        loc = Location(LocationKind.CITY, need(raw, "city", str))
        state = state.with_unit(Garrison(id=garrison_id(nation, loc), nation=nation, location=loc, factors=_factors(raw)))
    nelson = need(inp, "nelson", str, None)
    if nelson is not None:
        state = state.with_leader(Leader(id="leader:GB:nelson", power="GB", status=LeaderStatus.ON_MAP, attached_to=nelson))
    return state


def answer_all(state: GameState, prefix: str, answers: dict, ctx: Any, asked: list[str]) -> GameState:
    """Answer every pending decision whose id starts with ``prefix``, from ``answers``; list the keys in ``asked``.

    A question the case does not answer, or answers in a way the rules refuse,
    stops the play there: the result then shows ``step`` short of "done" and
    ``waiting_for`` names the question and its options, so a case expecting
    the end fails and says why.
    """
    while True:
        mine = [d for d in state.pending.values() if d.id.startswith(prefix)]
        if not mine:
            return state
        d = mine[0]
        key = d.id[len(prefix):]
        if key not in answers:
            return state
        asked.append(key)
        try:
            state = engine.apply_action(state, d.power, engine.AnswerDecision(decision=d.id, choice=answers[key]), ctx).state
        except IllegalAction:  # an answer the rules refuse (a loss allocation that no longer adds up): play stops
            return state


def powers_changed(before: GameState, after: GameState) -> dict[str, int]:
    return {
        p: after.powers[p].political_status - before.powers[p].political_status
        for p in after.powers
        if after.powers[p].political_status != before.powers[p].political_status
    }



def factors_of(state: GameState, uid: str) -> int:
    """The factors of a corps or garrison of the scene."""
    u = state.units[uid]
    if not isinstance(u, (Corps, Garrison)):
        raise BadData(f"{uid} is a {u.KIND}, not a corps or a garrison")
    return u.factors.total


def ships_of(state: GameState, uid: str) -> int:
    """The ships of a fleet of the scene."""
    u = state.units[uid]
    if not isinstance(u, Fleet):
        raise BadData(f"{uid} is a {u.KIND}, not a fleet")
    return u.ships.heavy + u.ships.light


def waiting_for(state: GameState, prefix: str) -> str:
    """The first unanswered question of a case, with its options, or "nothing"."""
    for d in state.pending.values():
        if d.id.startswith(prefix):
            return f"{d.id[len(prefix):]} ({', '.join(d.options)})"
    return "nothing"
