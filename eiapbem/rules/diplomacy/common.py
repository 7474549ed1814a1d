"""What the diplomacy rules share: the resolution's running result, political points, territory."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from eiapbem.core.powers import POWER_NAMES
from eiapbem.rules import engine, relations
from eiapbem.rules.politics import adjust_status
from eiapbem.rules.tables.diplomacy import minor
from eiapbem.rules.model import GameState, LogEntry, MinorStatus
from eiapbem.rules.model.base import FrozenMap
from eiapbem.rules.engine import RulesContext


#: 13.4.1 "Temporary Access": the grace after access is cancelled or peace is made, in months.
GRACE_MONTHS = 3


def record_order(state: GameState, power: str, order: Any, ctx: RulesContext) -> engine.Outcome:
    """The ``apply`` of an order carried out only when the phase resolves: it is written on the order sheet."""
    return engine.Outcome(engine.record_order(state, power, order))


def name(nation: str) -> str:
    """A power's or a minor country's name for a sentence (the minor country chart's spelling)."""
    if nation in POWER_NAMES:
        return POWER_NAMES[nation]
    try:
        return minor(nation).name
    except Exception:  # a slug the chart does not know: shown as written
        return nation


@dataclass
class Result:
    """The diplomacy phase being resolved: the state so far and the log lines, in order."""

    state: GameState
    ctx: RulesContext
    slot: str
    events: list[LogEntry] = field(default_factory=list)
    #: Pairs of powers that made peace in this phase (6.4 "Separate Peace and Allies").
    peaces: list[tuple[str, str]] = field(default_factory=list)
    #: Every power's orders being carried out, the sealing's commitment and reveal left out.
    sheet: dict[str, list[Any]] = field(default_factory=dict)
    #: The wars declared in this phase, for the calls to allies (6.3.2).
    new_wars: list[tuple[str, str]] = field(default_factory=list)
    #: The powers bound to sue at this phase's peace step: those bound when it began (a marker pushed off the display
    #: by this phase's own declarations or broken alliances sues at the next one, 13.7.1).
    forced: frozenset[str] = frozenset()

    def say(self, power: str, kind: str, text: str, **params: Any) -> None:
        entry = LogEntry(slot=self.slot, author="game", kind=kind, text=text,
                         params=FrozenMap(sorted({"power": power, **params}.items())))
        self.state = self.state.with_log(entry)
        self.events.append(entry)


def points(r: Result, power: str, n: int, text: str) -> None:
    """Move ``power``'s political status marker by ``n`` and log it (13.7.1; the political point chart)."""
    bound = r.state.powers[power].must_sue_for_peace
    r.state = adjust_status(r.state, r.ctx, power, n)
    r.say(power, "diplomacy.points", f"{text}: {n:+d} political point{'s' if abs(n) != 1 else ''}", points=n)
    if not bound and r.state.powers[power].must_sue_for_peace and relations.enemies(r.state, power):
        r.say(power, "diplomacy.points", f"{name(power)}'s political status marker is pushed off the display: it must "
              "sue every enemy for peace at the next diplomacy phase (13.7.1)")


def allied_minors_join(r: Result, ally: str, enemies: tuple[str, ...] | list[str], *, now_allied: str | None = None) -> None:
    """6.1.3 (000:546): ``ally``'s allied minors, acted for by it (``relations.power_of``), go to war with
    ``enemies`` and are set up by it in the next reinforcement phase (``setup_due``), logged.  ``now_allied``: only
    that minor, which has just become ``ally``'s allied minor while ``ally`` is at war with ``enemies``."""
    if not enemies:
        return
    foes = ", ".join(name(e) for e in sorted(enemies))
    for slug, m in sorted(r.state.minors.items()):
        if now_allied is not None and slug != now_allied:
            continue
        if m.status is MinorStatus.ALLIED and m.controller == ally and m.part_of is None and not m.setup_due:
            r.state = r.state.with_minor(slug, m.replace(setup_due=True))
            r.say(ally, "diplomacy.war", f"{name(slug)}, allied to {name(ally)}, "
                  + ("is now at war" if now_allied else "goes to war") + f" with {foes}; {name(ally)} sets up its forces in "
                  "the reinforcement phase (6.1.3)", minor=slug)


def enforced_until(state: GameState, power: str, target: str) -> Any:
    """The month until which ``power`` may not declare war on ``target`` (6.4 enforced peace), or None."""
    until = state.powers[power].enforced_peace.get(target)
    if until is None or state.date >= until:
        return None
    return until


def districts(state: GameState, slug: str) -> int:
    """A minor country's districts: itself and its joined secondary districts (13.6, 000:2594)."""
    m = state.minors.get(slug)
    return 1 + (len(m.districts) if m is not None else 0)


def territory(state: GameState, ctx: RulesContext, nation: str) -> tuple[str, ...]:
    """Land areas of a nation: a power's home nation and the minors it controls, or a minor and its joined districts."""
    areas = list(ctx.map.areas_of_nation(nation))
    for slug, m in state.minors.items():
        if m.part_of == nation or (m.controller == nation and m.status in (MinorStatus.CONQUERED, MinorStatus.FREE_STATE)):
            areas.extend(ctx.map.areas_of_nation(slug))
    return tuple(sorted(set(areas)))


def set_mutual(state: GameState, field_name: str, a: str, b: str, value: Any) -> GameState:
    """Set (or, with ``None``, remove) a mutual relation on both powers at once (alliances broken, royal marriages)."""
    powers = state.powers
    for x, y in ((a, b), (b, a)):
        m = getattr(powers[x], field_name)
        m = m.discard(y) if value is None else m.set(y, value)
        powers = powers.set(x, powers[x].replace(**{field_name: m}))
    return state.replace(powers=powers)
