"""6.6.4 Selecting the major power that runs an attacked neutral minor (000:816-828)."""

from __future__ import annotations

from typing import Any

from eiapbem.core.errors import BadData
from eiapbem.core.dice import Dice
from eiapbem.core.powers import check_power
from eiapbem.rules.tables.diplomacy import minor, status_modifier

AT_WAR_BONUS = 2  # already at war with a power that declared war on the minor (000:828)
_MAX_TIE_ROUNDS = 64


def select_controller(
    minor_id: str,
    candidates: dict[str, dict],
    dice: Dice,
    *,
    label: str | None = None,
) -> tuple[str, dict[str, int]]:
    """The power chosen to run ``minor_id`` and every candidate's modified number.

    ``candidates``: power -> {"zone": status zone, "at_war": bool (at war with
    one of the aggressors)}.  Each rolls 1-12 + national modifier + status
    modifier (+2 at war); ties among the highest are broken by further
    unmodified 1-12 rolls (``<label>/tie<n>/<power>``).
    """
    m = minor(minor_id)
    if not candidates:
        raise BadData(f"no power is willing to run {m.name}; pass at least one candidate")
    label = label or f"diplomacy/minor-control/{minor_id}"
    totals: dict[str, int] = {}
    for power in sorted(candidates):
        check_power(power, "candidate")
        info = candidates[power]
        nat = m.modifier(power)
        if nat is None:
            raise BadData(f"{m.name} has no national modifier for {power} (NA, 000:{m.line})")
        totals[power] = (
            dice.d12(f"{label}/{power}")
            + nat
            + status_modifier(info["zone"])
            + (AT_WAR_BONUS if info.get("at_war") else 0)
        )
    best = max(totals.values())
    tied = sorted(p for p, v in totals.items() if v == best)
    rnd = 0
    while len(tied) > 1:
        rnd += 1
        if rnd > _MAX_TIE_ROUNDS:
            raise BadData(f"the tie for {m.name} did not break in {_MAX_TIE_ROUNDS} rounds of forced dice")
        rolls = {p: dice.d12(f"{label}/tie{rnd}/{p}") for p in tied}
        top = max(rolls.values())
        tied = sorted(p for p, v in rolls.items() if v == top)
    return tied[0], totals


# ----------------------------------------------------------------- the phase's control step (6.1.2, 6.1.3, 6.6)


def runner_pool(state: Any, aggressors: list[str], willing: list[str]) -> list[str]:
    """Who may be chosen to run an attacked minor, of the ``willing`` powers (6.6, 000:774): those allied with no
    aggressor; when there are none, the aggressors' willing allies."""
    free = [p for p in willing if not any(a in state.powers[p].alliances for a in aggressors)]
    return free or list(willing)


def control_attacked_minors(r, declared: dict[str, list[str]]) -> None:
    """Who runs each neutral minor declared on this month, and the aggressors' political points (6.2.1, 6.6).

    ``declared``: minor -> the powers that declared war on it.  An influenced or allied minor goes to the
    power holding its relations, unless that power is an aggressor or an ally of one (6.1.2, 6.1.3).  Else
    the powers that accept control of it ("Accept control of", ``StandingOrders.accept_control``), not
    aggressors, roll (``select_controller``); allies of an aggressor only if no one else is willing.  The
    chosen power gains +1 per district and sets the minor's forces up at the next reinforcement phase
    (6.6.5).  The aggressors lose -1 per district unless no power runs the minor (6.2.1).
    """
    from eiapbem.rules.diplomacy.common import districts, points
    from eiapbem.rules.diplomacy.common import name
    from eiapbem.rules.politics import status_box
    from eiapbem.rules.model import POWERS, MinorStatus

    for slug in sorted(declared):
        aggressors = declared[slug]
        st = r.state
        m = st.minors[slug]
        n = districts(st, slug)
        holder = m.controller if m.status in (MinorStatus.INFLUENCED, MinorStatus.ALLIED) else None
        chosen = None
        if holder is not None and holder not in aggressors and not any(a in st.powers[holder].alliances for a in aggressors):
            chosen = holder
            how = f"its relations with {name(holder)} (6.1.2)"
        else:
            pool = runner_pool(st, aggressors, [p for p in POWERS if p not in aggressors and slug in
                                                st.powers[p].standing_orders.accept_control and minor(slug).modifier(p) is not None])
            if pool:
                cands = {p: {"zone": status_box(r.ctx, st.powers[p].political_status)["zone"],
                             "at_war": any(a in st.powers[p].wars for a in aggressors)} for p in pool}
                chosen, totals = select_controller(slug, cands, r.ctx.dice)
                how = "the 1-12 rolls (" + ", ".join(f"{name(p)} {v}" for p, v in sorted(totals.items())) + ") (6.6.4)"
        if chosen is None:
            r.say(aggressors[0], "diplomacy.control",
                  f"no major power will run {name(slug)}: the declarations of war on it cost no political points (6.6)")
            auto_conquest(r, slug, aggressors)
            continue
        for a in aggressors:
            points(r, a, -n, f"{name(a)} declares war on {name(slug)}, {n} district{'s' if n != 1 else ''} (6.2.1)")
        m = r.state.minors[slug]
        r.state = r.state.with_minor(slug, m.replace(status=MinorStatus.FREE_STATE, controller=chosen, setup_due=True))
        r.say(chosen, "diplomacy.control", f"{name(chosen)} runs {name(slug)} against {', '.join(name(a) for a in aggressors)} "
              f"by {how}; its forces are set up in the reinforcement phase (6.6.5)", minor=slug)
        points(r, chosen, n, f"{name(chosen)} is selected to run {name(slug)} (6.6.5)")
        support_minor(r, chosen, slug, aggressors)


#: 13.3.1 (000:2530): political points per district of a conquered minor.
CONQUEST_POINTS = 1


def auto_conqueror(r, slug: str, aggressors: list[str]) -> str:
    """6.6.2 (000:810): among several aggressors of a minor no one runs, the highest political status plus money
    available auto-conquers it; equal totals roll unmodified 1-10s (``diplomacy/auto-conquest/<minor>/<n>/<power>``)
    until one is highest."""
    from eiapbem.rules.diplomacy.common import name

    if len(aggressors) == 1:
        return aggressors[0]
    totals = {a: r.state.powers[a].political_status + r.state.powers[a].treasury for a in aggressors}
    best = max(totals.values())
    tied = sorted((a for a in aggressors if totals[a] == best), key=aggressors.index)
    rnd = 0
    while len(tied) > 1:
        rnd += 1
        if rnd > _MAX_TIE_ROUNDS:
            raise BadData(f"the tie for {name(slug)} did not break in {_MAX_TIE_ROUNDS} rounds of forced dice")
        rolls = {a: r.ctx.dice.d10(f"diplomacy/auto-conquest/{slug}/{rnd}/{a}") for a in tied}
        top = max(rolls.values())
        tied = [a for a in tied if rolls[a] == top]
    r.say(tied[0], "diplomacy.auto-conquest", f"{name(slug)} goes to the highest political status plus money: "
          + ", ".join(f"{name(a)} {totals[a]}" for a in aggressors) + " (6.6.2)", minor=slug)
    return tied[0]


def auto_conquest(r, slug: str, aggressors: list[str]) -> None:
    """6.6, 6.6.2 (000:774, 810): a minor no power will run is not set up and is auto-conquered by its aggressor
    (of several, ``auto_conqueror``): at once, a conquered minor of that power, +1 political point per district
    as any conquest (13.3.1, 000:2530); every aggressor's war on it ends (docs/decisions.md)."""
    from eiapbem.rules.diplomacy.common import districts, points
    from eiapbem.rules.diplomacy.common import name
    from eiapbem.rules.forces import remove_minor_forces
    from eiapbem.rules.model import MinorStatus

    winner = auto_conqueror(r, slug, aggressors)
    m = r.state.minors[slug]
    nations = (slug,) + tuple(m.districts)
    st = remove_minor_forces(r.state, nations)  # nothing is set up (6.6); a stray counter leaves the map
    m = st.minors[slug]
    st = st.with_minor(slug, m.replace(status=MinorStatus.CONQUERED, controller=winner, setup_due=False))
    for a in aggressors:
        st = st.with_power(a, minor_wars=st.powers[a].minor_wars.discard(slug))
    r.state = st
    n = districts(st, slug)
    r.say(winner, "diplomacy.auto-conquest", f"{name(winner)} auto-conquers {name(slug)}, which no one defends (6.6)",
          minor=slug)
    points(r, winner, CONQUEST_POINTS * n, f"{name(winner)} conquers {name(slug)}, {n} district{'s' if n != 1 else ''} "
           f"(13.3.1)")


def support_minor(r, controller: str, slug: str, aggressors: list[str]) -> None:
    """6.6.6: the power now running ``slug`` declares war on the aggressors it named in "Minor to Support"
    (``StandingOrders.support_minor``: aggressor -> minors), if it may; no calls to allies."""
    from eiapbem.core.errors import IllegalAction
    from eiapbem.rules.diplomacy.common import name
    from eiapbem.rules.diplomacy.war import check_major, declare_major

    for a in aggressors:
        if slug not in r.state.powers[controller].standing_orders.support_minor.get(a, ()):
            continue
        try:
            check_major(r.state, r.ctx, controller, a)
        except IllegalAction as err:
            r.say(controller, "diplomacy.support", f"{name(controller)} cannot support {name(slug)} against {name(a)}: {err}")
            continue
        declare_major(r, controller, a, why=f"supporting {name(slug)}")
        r.say(controller, "diplomacy.support", f"{name(controller)} declares war on {name(a)} in support of {name(slug)} (6.6.6)")


def unstable_control(r) -> None:
    """6.6.1: a power in the instability zone loses its conquered minors without an unbesieged corps of its own in
    them; in the fiasco zone all its controlled minors, free states too.  A minor holding an enemy corps or
    garrison goes to that enemy instead (conquered, +1 political point); otherwise it becomes neutral."""
    from eiapbem.rules.diplomacy.common import points, territory
    from eiapbem.rules.diplomacy.common import name
    from eiapbem.rules.politics import status_box
    from eiapbem.rules.forces import remove_minor_forces
    from eiapbem.rules.relations import power_of
    from eiapbem.rules.repatriation import send_garrison_home
    from eiapbem.rules.model import POWERS, Corps, Garrison, LocationKind, MinorStatus

    for p in POWERS:
        zone = status_box(r.ctx, r.state.powers[p].political_status)["zone"]
        if zone not in ("instability", "fiasco"):
            continue
        for slug, m in sorted(r.state.minors.items()):
            if m.controller != p or m.status not in (MinorStatus.CONQUERED, MinorStatus.FREE_STATE):
                continue
            areas = set(territory(r.state, r.ctx, slug))
            inside = [u for u in r.state.units.values() if isinstance(u, (Corps, Garrison))
                      and u.location.kind in (LocationKind.AREA, LocationKind.CITY) and u.location.site in areas]
            if zone == "instability":
                if m.status is not MinorStatus.CONQUERED:
                    continue
                if any(isinstance(u, Corps) and power_of(r.state, u.nation) == p and u.location.kind is LocationKind.AREA
                       for u in inside):
                    continue
            enemies = sorted({q for u in inside
                              if (q := power_of(r.state, u.nation)) is not None and q in r.state.powers[p].wars})
            # A free state's forces are removed when it changes hands, its fleet's strength stored (6.6.1, 000:794).
            st = remove_minor_forces(r.state, (slug,) + tuple(m.districts))
            m = st.minors[slug]  # with its fleet's ships stored
            if enemies:
                to = enemies[0]
                r.state = st.with_minor(slug, m.replace(status=MinorStatus.CONQUERED, controller=to, setup_due=False))
                r.say(p, "diplomacy.control", f"{name(p)} is in the {zone} zone: {name(slug)} passes to {name(to)}, "
                      f"whose forces are in it (6.6.1)")
                points(r, to, 1, f"control of {name(slug)} passes to {name(to)} (6.6.1)")
            else:
                r.state = st.with_minor(slug, m.replace(status=MinorStatus.NEUTRAL, controller=None, setup_due=False))
                r.say(p, "diplomacy.control", f"{name(p)} is in the {zone} zone: {name(slug)} becomes neutral (6.6.1)")
            # 6.6.1 (000:794): the former controller's own garrison factors leave at once, by the repatriation rules.
            for uid, u in sorted(r.state.units.items()):
                if isinstance(u, Garrison) and u.nation == p and u.location.kind in (LocationKind.AREA, LocationKind.CITY) \
                        and u.location.site in areas:
                    r.state, text = send_garrison_home(r.state, r.ctx.map, u, p, avoid=None)
                    r.say(p, "diplomacy.repatriation", f"{text}: {name(slug)} is no longer {name(p)}'s (6.6.1)")


def several_aggressors(r, declared: dict[str, list[str]]) -> dict[str, list[str]]:
    """6.6.2-6.6.3: several powers declared war on one minor this month.

    An aggressor backs down if its "Withdraw DoW against Minor" standing order names the minor for one of the
    other aggressors (``withdraw_dow``: other aggressor -> minors); two aggressors bound by an enforced peace
    with each other both back down; one that cannot declare war on another remaining aggressor for any other
    reason backs down.  Backing down still costs the declaration (-1 per district).  Those who remain declare
    war on each other (one -3 each in all, alliances and royal marriages between them broken, no calls).
    Returns the aggressors that remain, minor by minor."""
    from eiapbem.core.errors import IllegalAction
    from eiapbem.rules.diplomacy.common import districts, enforced_until, points
    from eiapbem.rules.diplomacy.common import name
    from eiapbem.rules.diplomacy.war import _break_ties, _open_war, check_major

    out: dict[str, list[str]] = {}
    for slug in sorted(declared):
        aggressors = list(declared[slug])
        if len(aggressors) < 2:
            out[slug] = aggressors
            continue
        st = r.state
        back = {a for a in aggressors for b in aggressors
                if a != b and slug in st.powers[a].standing_orders.withdraw_dow.get(b, ())}
        back |= {x for a in aggressors for b in aggressors if a != b and enforced_until(st, a, b) is not None
                 and enforced_until(st, b, a) is not None for x in (a, b)}
        for a in aggressors:
            for b in aggressors:
                if a == b or a in back or b in back or b in st.powers[a].wars:
                    continue
                try:
                    check_major(st, r.ctx, a, b)
                except IllegalAction:
                    back.add(a)
        n = districts(st, slug)
        for a in sorted(back, key=aggressors.index):
            ps = r.state.powers[a]
            r.state = r.state.with_power(a, minor_wars=ps.minor_wars.discard(slug))
            r.say(a, "diplomacy.back-down", f"{name(a)} backs down from its war on {name(slug)} (6.6.2)")
            points(r, a, -n, f"{name(a)} declared war on {name(slug)}, {n} district{'s' if n != 1 else ''} (6.2.1, 6.6.2)")
        remain = [a for a in aggressors if a not in back]
        for a in remain:
            new = False
            for b in remain:
                if a < b and b not in r.state.powers[a].wars:
                    _break_ties(r, a, b, f"the forced declarations over {name(slug)}", both=True)
                    _open_war(r, a, b, (a, b))
                    r.say(a, "diplomacy.war", f"{name(a)} and {name(b)} both attack {name(slug)}: they are at war with "
                          f"each other (6.6.3)")
                    new = True
                elif a > b and b in r.state.powers[a].wars and r.state.powers[a].wars[b].since == r.state.date:
                    new = True
            if new:
                points(r, a, -3, f"{name(a)}'s forced declarations of war over {name(slug)} (6.6.3)")
        if not remain:
            r.say(aggressors[0], "diplomacy.back-down", f"every aggressor backed down: {name(slug)} stays neutral (6.6.2)")
        else:
            out[slug] = remain
    return out
