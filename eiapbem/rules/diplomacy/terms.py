"""Peace terms that take units or land (VICTORY CONDITIONS CHART, 000:2924-2947; 6.4.2, 6.4.3).

The victor names its choices on the VICTORY CONDITIONS SCREEN
(``surrender-terms --remove ID --cede SLUG``, in order of preference); the
first that qualify are taken:

- B.1 / C.1.a "Remove 3 corps", B.7 "Remove 1 fleet", C.1.c "Remove 2
  fleets": the corps or fleets the victor names; naming fewer than the term's
  number removes only that many (6.4, 000:680: "select less corps to give an
  opponent a light loss"); naming none leaves the choice to the program: the
  loser's largest on the map (most factors or ships, then id), as does a named
  unit no longer on the map.  A removed counter goes back to the pool with its
  factors or ships lost; leaders with it become available for placement;
- C.1.b "Remove Garrisons": every garrison of the loser in its home nation;
- C.6 "Remove One Leader": the named leader, else the loser's first leader
  on the map (by id); it is ``removed`` (13.8.3: bought back with political
  points in an economic phase);
- B.6 "Cede 1 Province or Minor Country", C.4 "Cede 3": only what the victor
  names (nothing is ceded by default), each a home province of the loser or
  a minor it controls, adjacent to the victor's territory or holding one of
  its corps, never the loser's capital city, and never more than three home
  provinces lost in all (6.4.3).  A ceded free state becomes conquered and
  its forces are removed (6.4 "Status of Ceded Minor Free States").
"""

from __future__ import annotations

from typing import Any

from eiapbem.core.errors import IllegalAction
from eiapbem.rules import cession, peace_capitals
from eiapbem.rules.diplomacy.common import Result, territory
from eiapbem.rules.forces import remove_minor_forces
from eiapbem.rules.diplomacy.common import name
from eiapbem.rules.relations import power_of
from eiapbem.rules.model import POOL, Corps, Fleet, Garrison, GameState, LeaderStatus, LocationKind, MinorStatus
from eiapbem.rules.model.units import Factors, Ships
from eiapbem.rules.engine import RulesContext

#: How many units each removal term takes.
REMOVALS = {"B.1": ("corps", 3), "C.1.a": ("corps", 3), "B.7": ("fleet", 1), "C.1.c": ("fleet", 2)}
CESSIONS = {"B.6": 1, "C.4": 3}
#: 6.4.3: the most home provinces a power ever loses.
MAX_PROVINCES_LOST = 3
TAKING = tuple(REMOVALS) + tuple(CESSIONS) + ("C.1.b", "C.6")


def _on_map(u: Any) -> bool:
    return u.location.kind is not LocationKind.POOL


def _size(u: Any) -> int:
    return u.factors.total if isinstance(u, Corps) else u.ships.total


def _free_leaders(st: GameState, unit_id: str) -> GameState:
    for lid, lead in st.leaders.items():
        if lead.attached_to == unit_id:
            st = st.with_leader(lead.replace(status=LeaderStatus.AVAILABLE, attached_to=None))
    return st


def _remove_units(r: Result, victor: str, loser: str, kind: str, count: int, prefs: tuple[str, ...]) -> list[str]:
    cls = Corps if kind == "corps" else Fleet
    st = r.state
    mine = [u for u in st.units.values() if isinstance(u, cls) and u.nation == loser and _on_map(u)]
    by_id = {u.id: u for u in mine}
    named = [i for i in prefs if i.startswith(f"{kind}:")]
    # 6.4 (000:680): the victor selects them, and "can select less corps to give an opponent a light loss": naming
    # fewer than the term's number takes only that many; naming none leaves the choice to the program (its largest).
    count = min(count, len(named)) if named else count
    chosen = [by_id[i] for i in named if i in by_id][:count]
    rest = sorted((u for u in mine if u not in chosen), key=lambda u: (-_size(u), u.id))
    chosen += rest[:count - len(chosen)]
    for u in chosen:
        empty = {"factors": Factors()} if cls is Corps else {"ships": Ships()}
        st = _free_leaders(st, u.id).with_unit(u.replace(location=POOL, loaned_to=None, **empty,
                                                         **({"besieging": False} if cls is Corps else {})))
    r.state = st
    return [u.id for u in chosen]


def _victor_areas(st: GameState, ctx: RulesContext, victor: str) -> set[str]:
    return set(territory(st, ctx, victor)) | {a for p, holder in st.ceded_provinces.items() if holder == victor
                                             for a in ctx.map.areas_of_province(p)}


def cession_refused(st: GameState, ctx: RulesContext, victor: str, loser: str, slug: str) -> str:
    """Why ``slug`` may not be ceded by ``loser`` to ``victor`` ("" if it may) (B.6, C.4, 6.4.3)."""
    m = ctx.map
    if slug in st.minors:
        mn = st.minors[slug]
        if mn.controller != loser or mn.status not in (MinorStatus.CONQUERED, MinorStatus.FREE_STATE):
            return f"{name(slug)} is not a minor country {name(loser)} controls"
        areas = set(m.areas_of_nation(slug))
    else:
        try:
            prov = m.province(slug)
        except KeyError:
            return f"{slug!r} is neither a province nor a minor country"
        if prov.nation != loser or slug in st.ceded_provinces:
            return f"{slug} is not a home province {name(loser)} holds"
        lost = sum(1 for p in st.ceded_provinces if m.province(p).nation == loser)
        if lost >= MAX_PROVINCES_LOST:
            return f"{name(loser)} has already lost {lost} home provinces, the most it ever may (6.4.3)"
        areas = set(m.areas_of_province(slug))
        if areas & set(m.national_capitals(loser)):
            return f"{slug} holds a capital city of {name(loser)}"
    ours = _victor_areas(st, ctx, victor)
    near = any(b.to in ours for a in areas for b in m.area(a).neighbours)
    held = any(isinstance(u, Corps) and power_of(st, u.nation) == victor and u.location.kind is not LocationKind.POOL
               and u.location.site in areas for u in st.units.values())
    if not (near or held):
        return f"{slug} is neither next to {name(victor)}'s territory nor holds one of its corps"
    return ""


def cession_candidates(st: GameState, ctx: RulesContext, victor: str, loser: str) -> list[str]:
    """The home provinces and minor countries ``loser`` could cede to ``victor`` as things stand (B.6, C.4)."""
    slugs = list(ctx.map.provinces_of(loser)) + [slug for slug, mn in sorted(st.minors.items()) if mn.controller == loser]
    return [slug for slug in slugs if not cession_refused(st, ctx, victor, loser, slug)]


def verify_cessions(st: GameState, ctx: RulesContext, victor: str, loser: str, term: tuple[str, ...],
                    cede: tuple[str, ...]) -> None:
    """A cession term (B.6, C.4) among ``victor``'s terms for ``loser`` cedes only what is named with it, so one whose
    names all fail (or that names none) would give the victor nothing at the peace: refused when given, with what
    could be named instead (6.4.3)."""
    taking = [cid for cid in term if cid in CESSIONS]
    if not taking or any(not cession_refused(st, ctx, victor, loser, slug) for slug in cede):
        return
    open_ = cession_candidates(st, ctx, victor, loser)
    named = (cession_refused(st, ctx, victor, loser, cede[0]) if len(cede) == 1 else
             f"none of {', '.join(cede)} may be ceded" if cede else "no province or minor country is named with --cede")
    fix = (f"name one of {', '.join(open_[:6])} with --cede, or choose another term" if open_ else
           f"{name(loser)} has nothing it could cede to {name(victor)} as things stand, so choose another term")
    raise IllegalAction(f"term {taking[0]} would cede nothing to {name(victor)}: {named}; {fix} (B.6, C.4, 6.4.3)")


def _cede(r: Result, victor: str, loser: str, count: int, prefs: tuple[str, ...]) -> list[str]:
    done: list[str] = []
    for slug in prefs:
        if len(done) >= count:
            break
        why = cession_refused(r.state, r.ctx, victor, loser, slug)
        if why:
            r.say(loser, "diplomacy.term", f"{name(slug)} is not ceded to {name(victor)}: {why} (B.6, C.4)")
            continue
        st = r.state
        if slug in st.minors:
            mn = st.minors[slug]
            st = remove_minor_forces(st, (slug,) + tuple(mn.districts))  # 6.4: a ceded free state's forces removed
            mn = st.minors[slug]
            st = st.with_minor(slug, mn.replace(status=MinorStatus.CONQUERED, controller=victor, setup_due=False))
        else:
            # 12.7 (000:2258): ceded at the moment peace is made: its areas are the victor's (``cession.transfer``);
            # the loser's forces leave its capital city and sieges of its cities end, as at the peace (6.4).
            st = cession.transfer(st, r.ctx, slug, loser, victor)
            st, lines = peace_capitals.withdraw_from_capitals(st, r.ctx, victor, loser)
            st, ended = peace_capitals.end_sieges(st, r.ctx, victor, loser)
            for who, text in lines + ended:
                r.state = st
                r.say(who, "diplomacy.cession", f"{text}: {name(slug)} is ceded to {name(victor)} (12.7)")
                st = r.state
        r.state = st
        done.append(slug)
    return done


def take(r: Result, victor: str, loser: str, cid: str, remove: tuple[str, ...], cede: tuple[str, ...]) -> str:
    """Carry out one taking term; return what was taken, for the log."""
    st = r.state
    if cid in REMOVALS:
        kind, count = REMOVALS[cid]
        ids = _remove_units(r, victor, loser, kind, count, remove)
        return f"removed {', '.join(ids) or 'nothing (none on the map)'}"
    if cid == "C.1.b":
        home = set(r.ctx.map.areas_of_nation(loser))
        gone = [uid for uid, u in st.units.items() if isinstance(u, Garrison) and u.nation == loser
                and u.location.site in home]
        for uid in gone:
            st = st.without_unit(uid)
        r.state = st
        return f"removed {len(gone)} home garrison{'s' if len(gone) != 1 else ''}"
    if cid == "C.6":
        cands = [lid for lid in remove if lid in st.leaders and st.leaders[lid].power == loser
                 and st.leaders[lid].status in (LeaderStatus.ON_MAP, LeaderStatus.AVAILABLE, LeaderStatus.INACTIVE)]
        if not cands:
            cands = sorted(lid for lid, lead in st.leaders.items() if lead.power == loser and lead.status is LeaderStatus.ON_MAP)
        if not cands:
            return "no leader to remove"
        lead = st.leaders[cands[0]]
        r.state = st.with_leader(lead.replace(status=LeaderStatus.REMOVED, attached_to=None))
        return f"removed {lead.id}"
    if cid in CESSIONS:
        done = _cede(r, victor, loser, CESSIONS[cid], cede)
        return f"ceded {', '.join(done)}" if done else "nothing ceded (the victor named nothing that qualifies)"
    return ""
