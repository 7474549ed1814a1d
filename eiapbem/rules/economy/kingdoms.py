"""12.8 New political combinations: the Confederation of the Rhine, Poland and the
Ottoman Empire (000:2274-2338).  Step I.

A kingdom is an entry of ``GameState.minors`` under its own slug with status
``free-state`` and its controller; its minor components carry ``kingdom`` and
become free states of the same controller; its home-province components are
listed in its ``provinces``.  Its money and manpower are the doubled values of
all its parts, pooled (``common.fund_of``).
"""

from __future__ import annotations


from eiapbem.core.errors import IllegalAction
from eiapbem.rules.cession import POLAND, POLAND_CAPITAL
from eiapbem.rules.control import minor_holder, province_holder
from eiapbem.rules.economy.common import Work, kingdom_of_province
from eiapbem.rules.model import POWERS, GameState, MinorCountry, MinorStatus
from eiapbem.rules.model.base import FrozenMap
from eiapbem.rules.tables.diplomacy import POLITICAL_POINTS
from eiapbem.rules.engine import RulesContext
from eiapbem.rules.tables.forces import OTTOMAN_EMPIRE

STEP = "12.8 kingdoms"

RHINE = "confederation-of-the-rhine"
OTTOMAN = OTTOMAN_EMPIRE
KINGDOMS = (RHINE, POLAND, OTTOMAN)

#: 12.8.1 (000:2282): the 22 possible components (Magdeburg and Tyrol are provinces).
RHINE_COMPONENTS = (
    "ansbach", "baden", "bavaria", "berg", "breisgau", "gottingen", "hamburg", "hanover", "hesse", "julich",
    "lausitz", "magdeburg", "mecklenburg", "munster", "nassau", "oldenburg", "saxony", "swabia", "thuringia",
    "tyrol", "wurttemberg", "wurzburg",
)
RHINE_NEEDED = 15
RHINE_CREATORS = ("AU", "FR", "PR")
#: 12.8.3 (000:2316): the eight minors; six are needed.
OTTOMAN_COMPONENTS = ("algeria", "cyrenaica", "egypt", "morocco", "palestine", "syria", "tripolitania", "tunisia")
OTTOMAN_NEEDED = 6
OTTOMAN_CREATORS = ("FR", "GB", "SP", "TU")
POINTS = {  # 000:3232-3233
    RHINE: POLITICAL_POINTS["create-confederation-or-ottoman"].fixed,
    POLAND: POLITICAL_POINTS["create-poland"].fixed,
    OTTOMAN: POLITICAL_POINTS["create-confederation-or-ottoman"].fixed,
}


def controls(state: GameState, ctx: RulesContext, power: str, part: str) -> bool:
    """``power`` controls a component: a minor it conquered or runs as a free state (``control.minor_holder``),
    or a province it holds (home or ceded, ``control.province_holder``) outside any kingdom."""
    if part in state.minors:
        return state.minors[part].kingdom is None and minor_holder(state, part) == power
    if part in ctx.map.provinces:
        return province_holder(state, ctx, part) == power and kingdom_of_province(state, part) is None
    return False


def components(state: GameState, ctx: RulesContext, power: str, kingdom: str) -> tuple[str, ...]:
    """The components ``power`` controls now (all of them join when the kingdom is created)."""
    pool: tuple[str, ...]
    if kingdom == RHINE:
        pool = RHINE_COMPONENTS
    elif kingdom == OTTOMAN:
        pool = OTTOMAN_COMPONENTS
    else:
        pool = tuple(p.id for p in ctx.map.provinces.values() if p.polish)
    return tuple(c for c in pool if controls(state, ctx, power, c))


def check_creation(state: GameState, ctx: RulesContext, power: str, kingdom: str) -> tuple[str, ...]:
    """The components of the kingdom ``power`` may create now; ``IllegalAction`` says why not."""
    if kingdom not in KINGDOMS:
        raise IllegalAction(f"{kingdom!r} is not a kingdom; use one of {', '.join(KINGDOMS)} (12.8)")
    if kingdom in state.minors:
        who = state.minors[kingdom].controller
        raise IllegalAction(f"{kingdom} already exists under {who}'s flag (12.8)")
    parts = components(state, ctx, power, kingdom)
    if kingdom == RHINE:
        if power not in RHINE_CREATORS:
            raise IllegalAction("only Austria, France and Prussia may create the Confederation of the Rhine (12.8.1)")
        if len(parts) < RHINE_NEEDED:
            raise IllegalAction(f"{power} controls {len(parts)} of the {RHINE_NEEDED} components the Confederation needs (12.8.1)")
    elif kingdom == OTTOMAN:
        if power not in OTTOMAN_CREATORS:
            raise IllegalAction("only France, Great Britain, Spain or Turkey may create the Ottoman Empire (12.8.3)")
        if len(parts) < OTTOMAN_NEEDED:
            raise IllegalAction(f"{power} controls {len(parts)} of the {OTTOMAN_NEEDED} minors the Ottoman Empire needs (12.8.3)")
    else:
        if POLAND_CAPITAL not in parts or len(parts) < 2:
            raise IllegalAction("Poland needs Masovia and at least one other Polish province (12.8.2)")
    return parts


def create(state: GameState, ctx: RulesContext, power: str, kingdom: str) -> GameState:
    parts = check_creation(state, ctx, power, kingdom)
    provinces = tuple(sorted(p for p in parts if p not in state.minors))
    for slug in parts:
        if slug in state.minors:
            m = state.minors[slug]
            state = state.with_minor(slug, m.replace(kingdom=kingdom, status=MinorStatus.FREE_STATE))
    # 12.8.1/12.8.3: purchases made for a component free state are lost.
    ps = state.powers[power]
    builds = FrozenMap((k, b) for k, b in ps.builds.items() if b.nation not in parts)
    state = state.with_power(power, builds=builds)
    entry = MinorCountry(status=MinorStatus.FREE_STATE, controller=power, provinces=provinces)
    return state.replace(minors=FrozenMap(sorted(state.minors.set(kingdom, entry).items())))


def dissolve(state: GameState, kingdom: str) -> GameState:
    """The kingdom ends: its parts become separate again (12.8.1, 12.8.3)."""
    for slug, m in state.minors.items():
        if m.kingdom == kingdom:
            state = state.with_minor(slug, m.replace(kingdom=None))
    return state.replace(minors=state.minors.remove(kingdom))


def lasts(state: GameState, ctx: RulesContext, kingdom: str) -> bool:
    """The Confederation and the Empire last while their controller holds a component minor
    with corps (000:2290, 000:2330); Poland while its capital province is its own."""
    k = state.minors[kingdom]
    if kingdom == POLAND:
        return POLAND_CAPITAL in k.provinces and province_holder(state, ctx, POLAND_CAPITAL) == k.controller
    with_corps = {c["id"].split(":")[1] for block in [ctx.world["counters.json"]["minors"]] for v in block.values()
                  for c in v.get("corps", [])}
    return any(m.kingdom == kingdom and m.controller == k.controller and slug in with_corps
               for slug, m in state.minors.items())


def combine(w: Work) -> None:
    for kingdom in KINGDOMS:
        if kingdom in w.state.minors and not lasts(w.state, w.ctx, kingdom):
            owner = w.state.minors[kingdom].controller or "GB"
            w.state = dissolve(w.state, kingdom)
            w.note(owner, STEP, f"{kingdom} ends", "no component minor with corps is left to its controller")
    for p in POWERS:
        for kingdom in w.orders(p).kingdoms:
            try:
                w.state = create(w.state, w.ctx, p, kingdom)
            except IllegalAction as err:
                w.note(p, STEP, f"create {kingdom}", f"not created: {err}")
                continue
            w.political(p, POINTS[kingdom], STEP, f"{kingdom} created")
