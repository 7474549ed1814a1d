"""Diplomatic charts of section 15.0: minor countries, victory conditions,
natural alliances, political points, and the status modifiers of 13.7.2.

Every chart is typed data the rules look up, plus a registered printable
``Table``.  Numbers come from the manual (``000:LINE``); where the board
game's chart sheet (003) differs, the manual wins (seeds/README.md).
"""

from __future__ import annotations

from typing import Any

from dataclasses import dataclass

from eiapbem.core.errors import BadData
from eiapbem.core.powers import POWER_NAMES, POWERS
from eiapbem.rules.tables import Table, register

# ---------------------------------------------------------------------------
# Minor country chart (15.0, 000:2838-2908)
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class MinorCountry:
    """One row of the MINOR COUNTRY CHART.

    ``modifiers`` maps each power to its national modifier, or ``None`` where
    the chart prints NA.  ``influence`` and ``ally`` are the manipulation
    numbers ("Influence to/from", "Ally to/from"), ``None`` for NA.
    ``ally_if_not_sp_fr_au`` is the chart's footnote (Papacy, Romagna): the
    ally number for any power other than Spain, France or Austria.
    """

    id: str  # lower-case ASCII slug
    name: str  # display name (modern spelling)
    chart_name: str  # as the manual's chart prints it
    modifiers: dict[str, int | None]
    influence: int | None
    ally: int | None
    ally_if_not_sp_fr_au: int | None
    line: int  # line of the manual holding the row

    def modifier(self, power: str) -> int | None:
        return self.modifiers[power]

    def ally_number(self, power: str) -> int | None:
        """The "Ally to/from" number when ``power`` makes the attempt (footnote *, 000:2908)."""
        if self.ally_if_not_sp_fr_au is not None and power not in ("SP", "FR", "AU"):
            return self.ally_if_not_sp_fr_au
        return self.ally


NA = None

# (slug, display name, chart spelling, Au Fr GB Pr Rs Sp Tu, influence, ally, line)
_MINOR_ROWS: tuple[tuple, ...] = (
    ("algeria", "Algeria", "Algeria", (1, 2, 1, 1, 1, 0, 3), 1, 3, 2842),
    ("ansbach", "Ansbach", "Ansbach", (1, 2, 0, 2, 0, 0, 0), 2, 3, 2843),
    ("baden", "Baden", "Baden", (1, 3, 0, 1, 0, 0, 0), 1, 2, 2844),
    ("bavaria", "Bavaria", "Bavaria", (1, 3, 0, 1, 0, 0, 0), 2, 4, 2845),
    ("berg", "Berg", "Berg", (1, 2, 0, 2, 0, 0, 0), 1, 2, 2846),
    ("breisgau", "Breisgau", "Breisgau", (1, 3, 0, 1, 0, 0, 0), 1, 2, 2847),
    ("chechnya", "Chechnya", "Chechnya", (0, 0, 0, 0, -2, 0, -1), 3, 5, 2848),
    ("circassia", "Circassia", "Circassia", (0, 0, 0, 0, 1, 0, 1), 2, 4, 2849),
    ("corfu", "Corfu", "Corfu", (1, 1, 2, 0, 1, 0, 1), 1, 2, 2850),
    ("corsica", "Corsica", "Corsica", (0, 3, 2, 0, 0, 1, 0), 1, 2, 2851),
    ("cyrenaica", "Cyrenaica", "Cyrenaica", (0, 0, 0, 0, 0, 0, 2), 1, 3, 2852),
    ("dalmatia", "Dalmatia", "Dalmatia", (3, 1, 0, 0, 1, -1, 0), 2, 3, 2853),
    ("denmark", "Denmark", "Denmark", (1, 3, -1, 2, 2, 1, 0), 2, 4, 2854),
    ("egypt", "Egypt", "Egypt", (1, 0, 2, 0, 0, 1, 3), 2, 4, 2855),
    ("finland", "Finland", "Finland", (1, 3, 3, 1, -2, 1, 0), 2, 4, 2856),
    ("flanders", "Flanders", "Flanders", (0, 4, 1, 2, 0, 0, 0), 2, 3, 2857),
    ("genoa", "Genoa", "Genoa", (1, 2, 0, 0, 0, 0, 0), 2, 3, 2858),
    ("georgia", "Georgia", "Georgia", (0, 0, 0, 0, 0, 0, -1), 2, 4, 2859),
    ("gibraltar", "Gibraltar", "Gibraltar", (1, 1, 4, 1, 1, 0, 0), 1, 2, 2860),
    ("gottingen", "Gottingen", "Gottingen", (1, 1, 0, 2, 0, 0, 0), 2, 3, 2861),
    ("hamburg", "Hamburg", "Hamburg", (0, 1, 1, 1, 0, 0, 0), 2, 3, 2862),
    ("hanover", "Hanover", "Hanover", (1, 1, 3, 2, 0, 0, 0), 2, 3, 2863),
    ("hesse", "Hesse", "Hesse", (1, 1, 0, 2, 0, 0, 0), 2, 3, 2864),
    ("holland", "Holland", "Holland", (0, 2, 1, 1, 0, 0, 0), 3, 5, 2865),
    ("holstein", "Holstein", "Holstein", (1, 3, 0, 2, 2, 1, 0), 2, 3, 2866),
    ("imertia", "Imertia", "Imertia", (0, 0, 0, 0, -1, 0, 2), 2, 5, 2867),
    ("julich", "Julich", "Julich", (1, 2, 0, 2, 0, 0, 0), 1, 2, 2868),
    ("lausitz", "Lausitz", "Lausitz", (1, 1, 0, 3, 0, 0, 0), 2, 3, 2869),
    ("liege", "Liege", "Liege", (1, 3, 1, 2, 0, 0, 0), 1, 2, 2870),
    ("lombardy", "Lombardy", "Lombardy", (1, 2, 0, 0, 0, 0, 0), 1, 3, 2871),
    ("luxembourg", "Luxembourg", "Luxemburg", (1, 3, 1, 2, 0, 0, 0), 2, 3, 2872),
    ("malta", "Malta", "Malta", (1, 1, 3, 1, 2, 2, -1), 1, 2, 2873),
    ("mecklenburg", "Mecklenburg", "Mecklenburg", (0, 0, 1, 3, 1, 0, 0), 1, 2, 2874),
    ("modena", "Modena", "Modena", (2, 2, 0, 0, 0, 1, 0), 1, 2, 2875),
    ("morocco", "Morocco", "Morroco", (0, 1, 0, 0, 0, -2, 3), 1, 3, 2876),
    ("munster", "Munster", "Munster", (1, 1, 1, 2, 0, 0, 0), 2, 3, 2877),
    ("naples", "Naples", "Naples", (1, 1, 1, 0, 0, 3, 0), 1, 2, 2878),
    ("nassau", "Nassau", "Nassau", (1, 2, 0, 2, 0, 0, 0), 1, 2, 2879),
    ("norway", "Norway", "Norway", (1, 3, 0, 2, 2, 1, 0), 2, 3, 2880),
    ("oldenburg", "Oldenburg", "Oldenburg", (1, 2, 1, 1, 1, 0, 0), 2, 3, 2881),
    ("palatinate", "Palatinate", "Palatinate", (3, 0, 1, 1, 0, 1, 0), 1, 2, 2882),
    ("palestine", "Palestine", "Palestine", (0, 0, 1, 0, 0, 0, 3), 1, 2, 2883),
    ("papacy", "Papacy", "Papacy", (3, 0, 1, 0, 0, 2, -1), 1, 2, 2884),
    ("parma", "Parma", "Parma", (1, 1, 0, 0, 0, 2, 0), 1, 2, 2885),
    ("persia", "Persia", "Persia", (NA, NA, NA, NA, NA, NA, NA), NA, NA, 2886),
    ("piedmont", "Piedmont", "Piedmont", (1, 3, 0, 0, 0, 0, 0), 1, 3, 2887),
    ("poland", "Poland", "Poland", (0, 3, 2, 0, 0, 1, 0), NA, NA, 2888),
    ("portugal", "Portugal", "Portugal", (0, 1, 3, 0, 0, 1, 0), 2, 3, 2889),
    ("rhodes", "Rhodes", "Rhodes", (0, 0, 2, 0, 1, 0, 2), 1, 2, 2890),
    ("romagna", "Romagna", "Romagna", (3, 0, 1, 0, 0, 2, -1), 1, 2, 2891),
    ("sardinia", "Sardinia", "Sardinia", (0, 2, 3, 0, 0, 1, 0), 2, 3, 2892),
    ("savoy", "Savoy", "Savoy", (1, 3, 0, 0, 0, 0, 0), 1, 2, 2893),
    ("saxony", "Saxony", "Saxony", (1, 1, 0, 3, 0, 0, 0), 2, 3, 2894),
    ("sicily", "Sicily", "Sicily", (1, 1, 2, 0, 0, 2, 0), 1, 2, 2895),
    ("swedish-pomerania", "Swedish Pomerania", "S.Pomerania", (1, 2, 1, 2, -1, 0, 0), 1, 2, 2896),
    ("swabia", "Swabia", "Swabia", (1, 2, 0, 1, 0, 0, 0), 2, 3, 2897),
    ("sweden", "Sweden", "Sweden", (1, 3, 3, 1, -1, 1, 0), 3, 6, 2898),
    ("switzerland", "Switzerland", "Switzerland", (1, 3, 0, 0, 0, 0, 0), 4, 7, 2899),
    ("syria", "Syria", "Syria", (0, 0, 1, 0, 0, 0, 3), 2, 4, 2900),
    ("thuringia", "Thuringia", "Thuringia", (1, 1, 0, 3, 0, 0, 0), 2, 3, 2901),
    ("tripolitania", "Tripolitania", "Tripolitania", (0, 0, 1, 0, 0, 0, 3), 1, 3, 2902),
    ("tunisia", "Tunisia", "Tunisia", (0, 0, 0, 0, 0, 0, 2), 1, 3, 2903),
    ("tuscany", "Tuscany", "Tuscany", (1, 3, 0, 0, 0, 1, 0), 1, 2, 2904),
    ("venetia", "Venetia", "Venetia", (3, 2, 1, 1, 1, 1, 0), 2, 3, 2905),
    ("wurttemberg", "Wurttemberg", "Wurttemburg", (1, 2, 0, 1, 0, 0, 0), 2, 3, 2906),
    ("wurzburg", "Wurzburg", "Wurzburg", (1, 1, 0, 3, 0, 0, 0), 2, 3, 2907),
)

#: Minors whose ally number is starred: "if not Spain, France or Austria then 5" (000:2908).
_STARRED_ALLY = {"papacy": 5, "romagna": 5}


def _build_minors() -> dict[str, MinorCountry]:
    out: dict[str, MinorCountry] = {}
    for slug, name, chart_name, mods, influence, ally, line in _MINOR_ROWS:
        out[slug] = MinorCountry(
            id=slug,
            name=name,
            chart_name=chart_name,
            modifiers=dict(zip(POWERS, mods)),
            influence=influence,
            ally=ally,
            ally_if_not_sp_fr_au=_STARRED_ALLY.get(slug),
            line=line,
        )
    return out


#: slug -> MinorCountry, in the chart's order.
MINOR_COUNTRIES: dict[str, MinorCountry] = _build_minors()


def minor(slug: str) -> MinorCountry:
    """The chart row of the minor country ``slug`` (``BadData`` if there is none)."""
    try:
        return MINOR_COUNTRIES[slug]
    except KeyError:
        raise BadData(
            f"there is no minor country {slug!r} on the minor country chart",
            hint="minor countries are named by lower-case slugs such as 'bavaria' or 'swedish-pomerania'",
        ) from None


def _signed(v: int | None) -> str:
    return "NA" if v is None else (f"{v:+d}" if v else "0")


@register("minor-countries")
def _minor_table() -> Table:
    rows = []
    for m in MINOR_COUNTRIES.values():
        ally = "NA" if m.ally is None else str(m.ally)
        if m.ally_if_not_sp_fr_au is not None:
            ally += "*"
        rows.append(
            (m.id, m.chart_name)
            + tuple(_signed(m.modifiers[p]) for p in POWERS)
            + ("NA" if m.influence is None else str(m.influence), ally)
        )
    return Table(
        name="minor-countries",
        title="Minor Country Chart",
        section="15.0, 6.1.4, 6.6.4",
        source="000:2838-2908",
        columns=("id", "minor") + POWERS + ("influence to/from", "ally to/from"),
        rows=tuple(rows),
        notes=(
            "* if the attempting power is not Spain, France or Austria the ally number is 5 (000:2908).",
            "Columns AU..TU are national modifiers; the last two are manipulation numbers (6.1.4).",
        ),
    )


# ---------------------------------------------------------------------------
# Political status modifiers (13.7.2, 000:2618-2626; also 6.1.4 000:580, 6.6.4 000:824)
# ---------------------------------------------------------------------------

#: Zone of the political status display -> status modifier.
STATUS_MODIFIERS: dict[str, int] = {
    "fiasco": -2,
    "instability": -1,
    "neutral": 0,
    "dominant": 1,
}


def status_modifier(zone: str) -> int:
    try:
        return STATUS_MODIFIERS[zone]
    except KeyError:
        raise BadData(
            f"political status zone {zone!r} is unknown; use one of {', '.join(STATUS_MODIFIERS)}"
        ) from None


@register("status-modifiers")
def _status_table() -> Table:
    return Table(
        name="status-modifiers",
        title="Political Status Modifiers",
        section="13.7.2",
        source="000:2618-2626",
        columns=("zone", "modifier"),
        rows=tuple((z, _signed(v)) for z, v in STATUS_MODIFIERS.items()),
        notes=("Used for minor manipulation (6.1.4), minor control (6.6.4) and AI alliances (6.5).",),
    )


# ---------------------------------------------------------------------------
# Victory conditions chart (15.0, 000:2910-2949; 6.4 000:664, 000:686)
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class PeaceCondition:
    """One choice of the VICTORY CONDITIONS CHART.

    ``cancels``: the list-B choices this list-A choice removes (000:2916-2920).
    ``excluded_by``: choices that, if already chosen, forbid this one
    ("may not be made if ... is already chosen").  ``C.1`` in an exclusion
    means any of C.1.a, C.1.b, C.1.c (C.1 is one choice with three forms).
    ``only_against``: the only power the choice may be applied to (C.7).
    """

    id: str  # the manual's label, e.g. "B.3", "C.1.a"
    list: str  # "A", "B" or "C"
    title: str
    cancels: tuple[str, ...]
    excluded_by: tuple[str, ...]
    only_against: str | None
    line: int


def _pc(id, lst, title, line, cancels=(), excluded_by=(), only_against=None) -> PeaceCondition:
    return PeaceCondition(id, lst, title, tuple(cancels), tuple(excluded_by), only_against, line)


PEACE_CONDITIONS: dict[str, PeaceCondition] = {
    c.id: c
    for c in (
        _pc("A.1", "A", "Remove no forces", 2916, cancels=("B.1", "B.7")),
        _pc("A.2", "A", "Pay no reparations", 2917, cancels=("B.3",)),
        _pc("A.3", "A", "No special truces", 2918, cancels=("B.2",)),
        _pc("A.4", "A", "No trade embargoes", 2919, cancels=("B.5",)),
        _pc("A.5", "A", "Cede no land", 2920, cancels=("B.6",)),
        _pc("B.1", "B", "Remove 3 corps", 2924, excluded_by=("C.1",)),
        _pc("B.2", "B", "Enforced peace 24 months", 2925, excluded_by=("C.2",)),
        _pc("B.3", "B", "Reparations 1/2 of home nation tax", 2927, excluded_by=("C.3",)),
        _pc("B.4", "B", "Royal marriage", 2928),
        _pc("B.5", "B", "No trading with Great Britain or America", 2929, excluded_by=("C.7",)),
        _pc("B.6", "B", "Cede 1 province or minor country", 2930, excluded_by=("C.4",)),
        _pc("B.7", "B", "Remove 1 fleet", 2931, excluded_by=("C.1",)),
        _pc("C.1.a", "C", "Remove 3 corps", 2937, excluded_by=("B.1",)),
        _pc("C.1.b", "C", "Remove home nation garrisons", 2939),
        _pc("C.1.c", "C", "Remove 2 fleets", 2941, excluded_by=("B.7",)),
        _pc("C.2", "C", "Enforced peace 36 months", 2943, excluded_by=("B.2",)),
        _pc("C.3", "C", "Reparations all of home nation tax", 2944, excluded_by=("B.3",)),
        _pc("C.4", "C", "Cede 3 provinces or minor countries", 2945, excluded_by=("B.6",)),
        _pc("C.5", "C", "Enforced access", 2946),
        _pc("C.6", "C", "Remove one leader", 2947),
        _pc("C.7", "C", "Half trade for four economic phases", 2949, excluded_by=("B.5",), only_against="GB"),
    )
}

#: What each choice does, in a player's words ({victor} and {loser} are the powers' names; 15.0, 000:2910-2949).
PEACE_EFFECTS: dict[str, str] = {
    "A.1": "the victor may not demand B.1 or B.7: {loser} removes no corps or fleet",
    "A.2": "the victor may not demand B.3: {loser} pays no reparations",
    "A.3": "the victor may not demand B.2: the usual 18 months of enforced peace only",
    "A.4": "the victor may not demand B.5: no trade embargo on {loser}",
    "A.5": "the victor may not demand B.6: {loser} cedes no land",
    "B.1": "{loser} removes three of its corps",
    "B.2": "{loser} may not declare war on {victor} for 24 months",
    "B.3": "{loser} pays {victor} half its original home nation tax at the next economic phase",
    "B.4": "{victor} gains 2 political points; whichever of the two later declares war on the other loses "
           "1 political point more than usual",
    "B.5": "{loser} may not trade with Great Britain (or, if it is Great Britain, with America); if it does, "
           "{victor} may declare war on it even within the enforced peace",
    "B.6": "{loser} cedes one province or minor country of {victor}'s choice (next to {victor}'s territory "
           "or holding its corps; never the capital's)",
    "B.7": "{loser} removes one fleet",
    "C.1.a": "{loser} removes three corps from the map",
    "C.1.b": "{loser} removes every garrison factor of its home nation",
    "C.1.c": "{loser} removes two fleets of {victor}'s choice",
    "C.2": "{loser} may not declare war on {victor} for 36 months",
    "C.3": "{loser} pays {victor} all its original home nation tax at the next economic phase",
    "C.4": "{loser} cedes three provinces or minor countries of {victor}'s choice (next to {victor}'s territory "
           "or holding its corps; never the capital's)",
    "C.5": "{victor} may garrison every city {loser} controls except capitals and passes through its "
           "territory freely, until they are at war again",
    "C.6": "{loser} removes one leader of {victor}'s choice",
    "C.7": "Great Britain gives {victor} half its trade income for the next four economic phases, unless they "
           "go to war again",
}


def peace_term_title(cid: str) -> str:
    """"B.3" -> "B.3 Reparations 1/2 of home nation tax" (an id not on the chart as it is)."""
    cond = PEACE_CONDITIONS.get(cid)
    return cid if cond is None else f"{cid} {cond.title}"


def peace_term_effect(cid: str, victor: str, loser: str) -> str:
    """What the choice ``cid`` does, with the powers' names filled in ("" for an id not on the chart)."""
    return PEACE_EFFECTS.get(cid, "").format(victor=victor, loser=loser)


#: How many choices each kind of peace takes and from which lists (6.4, 000:664, 000:686).
PEACE_CHOICES: dict[str, tuple[int, tuple[str, ...]]] = {
    "conditional": (2, ("B",)),  # victor: two from list B
    "unconditional": (3, ("B", "C")),  # victor: three from lists B and/or C
    "conditional-loser": (1, ("A",)),  # loser: one from list A
}


def _family(cid: str) -> str:
    """"C.1.a" -> "C.1" (the three forms of C.1 are one choice); others unchanged."""
    return cid[:3] if cid.startswith("C.1.") else cid


def peace_condition(cid: str) -> PeaceCondition:
    try:
        return PEACE_CONDITIONS[cid]
    except KeyError:
        raise BadData(
            f"peace condition {cid!r} is not on the victory conditions chart; use ids such as 'B.3' or 'C.1.a'"
        ) from None


def blocked_by(cid: str, chosen: tuple[str, ...] | list[str], loser: str | None = None) -> str | None:
    """Why ``cid`` may not be chosen after ``chosen`` (ids of earlier choices and the
    loser's list-A pick), or ``None`` if it may.

    Rules: no choice is repeated (000:2912, also any two forms of C.1); a list-A
    choice cancels its list-B choices (000:2916-2920); "may not be made if"
    exclusions (000:2924-2949); C.7 only against Great Britain (000:2949).
    """
    cond = peace_condition(cid)
    fams = {_family(c) for c in chosen}
    if _family(cid) in fams:
        return f"{cid} has already been chosen"
    for c in chosen:
        if cid in peace_condition(c).cancels:
            return f"{c} cancels {cid}"
    for ex in cond.excluded_by:
        if ex in fams or ex in chosen:
            return f"{cid} may not be made if {ex} is already chosen"
    if cond.only_against is not None and loser is not None and loser != cond.only_against:
        return f"{cid} may only be applied against {POWER_NAMES[cond.only_against]}"
    return None


def check_peace_terms(kind: str, choices: list[str] | tuple[str, ...], *, loser: str | None = None,
                      earlier: tuple[str, ...] = ()) -> None:
    """Raise ``BadData`` unless ``choices`` are a legal set of terms of ``kind``
    ("conditional", "unconditional" or "conditional-loser"), made in order after
    ``earlier`` choices (other joint victors' picks and the loser's list-A pick)."""
    if kind not in PEACE_CHOICES:
        raise BadData(f"peace kind {kind!r} is unknown; use one of {', '.join(PEACE_CHOICES)}")
    count, lists = PEACE_CHOICES[kind]
    if len(choices) != count:
        raise BadData(f"a {kind} peace takes {count} choice(s), not {len(choices)} (6.4)")
    chosen = list(earlier)
    for cid in choices:
        if peace_condition(cid).list not in lists:
            raise BadData(f"{cid} is not on list {' or '.join(lists)}, which a {kind} peace uses (6.4)")
        why = blocked_by(cid, chosen, loser)
        if why is not None:
            raise BadData(f"peace terms {', '.join(choices)}: {why}")
        chosen.append(cid)


@register("victory-conditions")
def _victory_conditions_table() -> Table:
    rows = tuple(
        (
            c.id,
            c.list,
            c.title,
            ", ".join(c.cancels) or None,
            ", ".join(c.excluded_by) or None,
            c.only_against,
        )
        for c in PEACE_CONDITIONS.values()
    )
    return Table(
        name="victory-conditions",
        title="Victory Conditions Chart",
        section="15.0, 6.4",
        source="000:2910-2949",
        columns=("id", "list", "condition", "cancels", "not if already chosen", "only against"),
        rows=rows,
        notes=(
            "List A: loser's one choice in a conditional peace. List B: victor's two choices in a "
            "conditional peace. Lists B and/or C: victor's three choices in an unconditional peace (6.4).",
            "Joint victors choose alternately, in order of political status at the surrender; no choice is repeated.",
            "C.1 is one choice made in one of three forms (C.1.a, C.1.b, C.1.c).",
        ),
    )


# ---------------------------------------------------------------------------
# Natural alliance table (15.0, 000:3169-3181; 6.5 000:762)
# ---------------------------------------------------------------------------

# attempting power -> accepting power -> modifier (000:3174-3180)
_NA_ROWS = {
    "AU": (None, 0, 3, -1, 1, 0, -2),
    "FR": (-1, None, -10, -3, -2, 0, 1),
    "GB": (3, -10, None, 2, -1, 1, 0),
    "PR": (-1, -2, 2, None, 3, 0, 0),
    "RU": (1, -1, -1, 3, None, 0, -3),
    "SP": (0, 0, 1, 0, 0, None, -1),
    "TU": (-2, 1, 0, 0, -3, -1, None),
}

NATURAL_ALLIANCE: dict[str, dict[str, int]] = {
    a: {b: v for b, v in zip(POWERS, row) if v is not None} for a, row in _NA_ROWS.items()
}


def natural_alliance_modifier(attempting: str, accepting: str, world: Any = None) -> int:
    """The chart's modifier, or an edited scenario's stance of ``attempting`` toward ``accepting`` (14.3 item 10,
    carried in the world data by ``rules.world_edits`` as ``natural_alliances``)."""
    if attempting == accepting:
        raise BadData(f"a power cannot ally with itself ({attempting})")
    edited = ((world or {}).get("natural_alliances") or {}).get(attempting, {}).get(accepting)
    return int(edited) if edited is not None else NATURAL_ALLIANCE[attempting][accepting]


@register("natural-alliance")
def _natural_alliance_table() -> Table:
    rows = tuple(
        (a,) + tuple("--" if b == a else _signed(NATURAL_ALLIANCE[a][b]) for b in POWERS) for a in POWERS
    )
    return Table(
        name="natural-alliance",
        title="Natural Alliance Table",
        section="15.0, 6.5",
        source="000:3169-3181",
        columns=("attempting \\ accepting",) + POWERS,
        rows=rows,
        notes=(
            "Against the AI: attempting 1-10 + status modifier (13.7.2) + this modifier; "
            "an alliance forms if that is at least the accepting power's unmodified 1-20 (6.5).",
        ),
    )


# ---------------------------------------------------------------------------
# Political point chart (15.0, 000:3198-3235)
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class PoliticalPoints:
    """One line of the POLITICAL POINT CHART.

    The award is ``points`` for every ``divisor`` counted items (``per``),
    rounded up, limited to ``cap`` in size; ``points is None`` when the
    amount is computed by another rule (``variable`` says which).
    """

    id: str
    points: int | None
    per: str  # "event", "district", "fleet", "corps", "minor", "city", ...
    summary: str
    line: int
    divisor: int = 1
    cap: int | None = None
    variable: str | None = None

    @property
    def fixed(self) -> int:
        """The points of a line whose award is a fixed number (``BadData`` for one computed by another rule)."""
        if self.points is None:
            raise BadData(f"political points for {self.id!r} are computed by {self.variable}, not fixed")
        return self.points

    def award(self, count: int = 1) -> int:
        """The points for ``count`` items: ceil(count * points / divisor), within the cap."""
        if self.points is None:
            raise BadData(f"political points for {self.id!r} are computed by {self.variable}, not by a count")
        if count < 0:
            raise BadData(f"a count of {count} items for {self.id!r} is negative")
        num = count * abs(self.points)
        size = -(-num // self.divisor)  # rounding up (000:3219-3220)
        if self.cap is not None:
            size = min(size, self.cap)
        return size if self.points > 0 else -size


def _pp(id, points, per, summary, line, **kw) -> PoliticalPoints:
    return PoliticalPoints(id=id, points=points, per=per, summary=summary, line=line, **kw)


POLITICAL_POINTS: dict[str, PoliticalPoints] = {
    p.id: p
    for p in (
        _pp("break-major-alliance", -2, "event", "breaking an alliance with another major power", 3200),
        _pp("break-minor-alliance", -1, "event", "breaking an alliance with an allied minor (war or downgrade)", 3201),
        _pp("downgrade-conquered-minor", -2, "event", "downgrading a conquered minor to neutral", 3202),
        _pp("declare-war-major", -3, "event", "declaring war on another major power", 3203),
        _pp("declare-war-neutral-minor", -1, "district",
            "declaring war on a neutral minor, per district (none if no power will run it)", 3204),
        _pp("royal-marriage", 2, "event", "royal marriage (B.4) chosen by a formal peace victor", 3205),
        _pp("royal-marriage-war", -1, "event", "extra for declaring war while a royal marriage is in effect", 3206),
        _pp("surrender-conditional", -5, "event", "surrendering conditionally (to any number of powers at once)", 3207),
        _pp("accept-conditional", 3, "event", "accepting the conditional surrender of one major power", 3208),
        _pp("surrender-unconditional", -8, "event",
            "surrendering unconditionally (at least one unconditional, any number at once)", 3209),
        _pp("accept-unconditional", 5, "event", "accepting the unconditional surrender of one major power", 3210),
        _pp("form-alliance", 1, "event", "each of the two allies forming an alliance", 3211),
        _pp("selected-to-control-minor", 1, "district", "being selected to control a neutral minor, per district", 3212),
        _pp("minor-transferred", 1, "event",
            "control of a minor transferred from a power in the fiasco or instability zone", 3213),
        _pp("peace-with-america", -5, "event", "Great Britain settles peace with America", 3214),
        _pp("naval-victor", 1, "fleet", "naval victor, per enemy fleet on the losing side", 3215, cap=3),
        _pp("naval-loser", -1, "fleet", "naval loser, per own fleet on the losing side", 3216, cap=3),
        _pp("naval-victor-nelson", 1, "event", "extra for a naval victor commanded by Nelson", 3217),
        _pp("naval-loser-nelson", -1, "event", "extra for a naval loser commanded by Nelson", 3218),
        _pp("field-victor", 1, "corps",
            "field/limited field victor, +1/2 per enemy losing corps (20+ factors count 2), rounded up",
            3219, divisor=2, cap=3),
        _pp("field-loser", -1, "corps",
            "field/limited field loser, -1/2 per own losing corps (20+ factors count 2), rounded up",
            3220, divisor=2, cap=3),
        _pp("field-victor-napoleon", 1, "event", "extra for a field victor commanded by Napoleon", 3221),
        _pp("field-loser-napoleon", -2, "event", "extra for a field loser commanded by Napoleon", 3222),
        _pp("siege-assault-winner", 1, "event", "winning a siege assault against corps or a fortress", 3223),
        _pp("conquer-minor", 1, "district", "conquering a minor country, per district", 3224),
        _pp("minor-conquered", -1, "district", "a controlled minor conquered by another power, per district", 3225),
        _pp("paris-london-occupied", -3, "city", "Paris or London enemy occupied and unbesieged in an economic phase", 3226),
        _pp("berlin-vienna-constantinople-occupied", -2, "city",
            "Berlin, Vienna or Constantinople enemy occupied and unbesieged in an economic phase", 3227),
        _pp("madrid-moscow-stpetersburg-occupied", -1, "city",
            "Madrid, Moscow or St. Petersburg enemy occupied and unbesieged, each", 3228),
        _pp("bankrupt", -3, "event", "going bankrupt in the money and manpower expenditure step", 3229),
        _pp("status-adjustment", None, "event", "political status adjustment in the economic phase", 3230,
            variable="13.7 (the status modifier of the display box)"),
        _pp("cede", -1, "minor", "per minor country or ceded province ceded in a ceding step", 3231),
        _pp("create-poland", 1, "event", "creating or conquering Poland", 3232),
        _pp("create-confederation-or-ottoman", 2, "event",
            "creating the Confederation of the Rhine or the Ottoman Empire", 3233),
        _pp("return-leader", None, "leader", "returning a removed leader", 3234,
            variable="13.8.3 (strategic + tactical rating; Nelson 10)"),
        _pp("ai-nuisance", -1, "event", "nuisance penalty for repeated failed requests to an AI ally", 3235),
    )
}

#: Political points to return a removed Nelson, who has no ratings (000:3234).
NELSON_RETURN_COST = 10


def return_leader_cost(strategic: int, tactical: int, *, nelson: bool = False) -> int:
    """Political points lost to return a removed leader (000:3234, 13.8.3)."""
    return -NELSON_RETURN_COST if nelson else -(strategic + tactical)


@register("political-points")
def _political_points_table() -> Table:
    def amount(p: PoliticalPoints) -> str:
        if p.points is None:
            return "-/+?" if p.id == "status-adjustment" else "-?"
        s = f"{p.points:+d}" if p.divisor == 1 else f"{p.points:+d}/{p.divisor}"
        return s

    rows = tuple(
        (p.id, amount(p), p.per, None if p.cap is None else str(p.cap), p.summary) for p in POLITICAL_POINTS.values()
    )
    return Table(
        name="political-points",
        title="Political Point Chart",
        section="15.0",
        source="000:3198-3235",
        columns=("id", "points", "per", "max", "for"),
        rows=rows,
        notes=("Fractional awards are rounded up before the maximum is applied (000:3219-3220).",),
    )
