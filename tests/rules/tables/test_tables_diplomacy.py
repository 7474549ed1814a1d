"""Diplomatic charts against the manual (000 = seeds/000_…txt)."""

import re

import pytest

from eiapbem.core.errors import BadData
from eiapbem.rules.tables import diplomacy as d


def test_minor_chart_cells():
    m = d.MINOR_COUNTRIES
    # 000:2842 Algeria +1 +2 +1 +1 +1 0 +3 | 1 3
    assert m["algeria"].modifiers == {"AU": 1, "FR": 2, "GB": 1, "PR": 1, "RU": 1, "SP": 0, "TU": 3}
    assert (m["algeria"].influence, m["algeria"].ally) == (1, 3)
    # 000:2848 Chechnya: Rs -2, Tu -1; 3 5
    assert m["chechnya"].modifier("RU") == -2 and m["chechnya"].modifier("TU") == -1
    assert (m["chechnya"].influence, m["chechnya"].ally) == (3, 5)
    # 000:2854 Denmark GB -1 (the chart sheet differs; the manual wins)
    assert m["denmark"].modifier("GB") == -1
    # 000:2889 Portugal GB +3, Sp +1; 2 3 (the values the 6.1.4 examples use)
    assert m["portugal"].modifier("GB") == 3 and m["portugal"].modifier("SP") == 1
    assert (m["portugal"].influence, m["portugal"].ally) == (2, 3)
    # 000:2899 Switzerland 4 7; 000:2898 Sweden 3 6
    assert (m["switzerland"].influence, m["switzerland"].ally) == (4, 7)
    assert (m["sweden"].influence, m["sweden"].ally) == (3, 6)
    # 000:2873 Malta Tu -1, Rs +2
    assert m["malta"].modifier("TU") == -1 and m["malta"].modifier("RU") == 2


def test_chart_has_every_row_once_with_slug_ids():
    # 000:2842-2907: 66 rows
    assert len(d.MINOR_COUNTRIES) == 66
    assert [m.line for m in d.MINOR_COUNTRIES.values()] == list(range(2842, 2908))
    for slug in d.MINOR_COUNTRIES:
        assert re.fullmatch(r"[a-z]+(-[a-z]+)*", slug)


@pytest.mark.parametrize(
    "slug,chart_name,line",
    [
        ("morocco", "Morroco", 2876),
        ("wurttemberg", "Wurttemburg", 2906),
        ("luxembourg", "Luxemburg", 2872),
        ("swedish-pomerania", "S.Pomerania", 2896),
    ],
)
def test_manual_spellings_kept_as_chart_names(slug, chart_name, line):
    m = d.minor(slug)
    assert m.chart_name == chart_name and m.line == line


def test_persia_all_na_poland_manipulation_na():
    # 000:2886 Persia NA everywhere; 000:2888 Poland NA manipulation numbers only
    persia = d.minor("persia")
    assert set(persia.modifiers.values()) == {None}
    assert persia.influence is None and persia.ally is None
    poland = d.minor("poland")
    assert poland.modifier("FR") == 3 and poland.influence is None and poland.ally is None


def test_papacy_romagna_footnote():
    # 000:2884, 000:2891 "2*"; 000:2908 "* if not Spain, France or Austria then 5"
    for slug in ("papacy", "romagna"):
        m = d.minor(slug)
        assert [m.ally_number(p) for p in ("SP", "FR", "AU")] == [2, 2, 2]
        assert [m.ally_number(p) for p in ("GB", "PR", "RU", "TU")] == [5, 5, 5, 5]
    assert d.minor("parma").ally_number("GB") == 2  # no star on 000:2885


def test_unknown_minor_is_bad_data():
    with pytest.raises(BadData, match="'atlantis'"):
        d.minor("atlantis")


def test_status_modifiers():
    # 13.7.2, 000:2622-2626
    assert [d.status_modifier(z) for z in ("fiasco", "instability", "neutral", "dominant")] == [-2, -1, 0, 1]


def test_victory_condition_cancels_and_exclusions():
    # 000:2916 A.1 cancels B.1 and B.7; 000:2920 A.5 cancels B.6
    assert d.PEACE_CONDITIONS["A.1"].cancels == ("B.1", "B.7")
    assert d.blocked_by("B.7", ["A.1"]) == "A.1 cancels B.7"
    assert d.blocked_by("B.6", ["A.5"]) is not None
    assert d.blocked_by("B.6", ["A.4"]) is None
    # 000:2924 B.1 not if C.1 chosen (any form); 000:2937 C.1.a not if B.1 chosen
    assert d.blocked_by("B.1", ["C.1.b"]) is not None
    assert d.blocked_by("C.1.a", ["B.1"]) is not None
    # 000:2939 C.1.b has no exclusion, but C.1 is one choice: no second form
    assert d.blocked_by("C.1.b", ["B.1"]) is None
    assert d.blocked_by("C.1.c", ["C.1.a"]) is not None
    # 000:2941 C.1.c not if B.7; 000:2929/2949 B.5 <-> C.7
    assert d.blocked_by("C.1.c", ["B.7"]) is not None
    assert d.blocked_by("B.5", ["C.7"]) is not None and d.blocked_by("C.7", ["B.5"]) is not None
    # 000:2943-2945 B.2<->C.2, B.3<->C.3, B.6<->C.4
    assert d.blocked_by("C.2", ["B.2"]) and d.blocked_by("C.3", ["B.3"]) and d.blocked_by("C.4", ["B.6"])
    # 000:2928 B.4 and 000:2946-2947 C.5, C.6 exclude nothing
    assert d.blocked_by("B.4", ["B.1", "C.2", "C.5"]) is None
    # 000:2912 no repeats
    assert d.blocked_by("B.4", ["B.4"]) is not None


def test_half_trade_only_against_britain():
    # 000:2949 "(May only be applied against Great Britain.)"
    assert d.blocked_by("C.7", [], loser="FR") is not None
    assert d.blocked_by("C.7", [], loser="GB") is None


def test_peace_choice_counts():
    # 6.4, 000:664: conditional two from B, unconditional three from B and/or C; 000:686 loser one from A
    assert d.PEACE_CHOICES["conditional"] == (2, ("B",))
    assert d.PEACE_CHOICES["unconditional"] == (3, ("B", "C"))
    assert d.PEACE_CHOICES["conditional-loser"] == (1, ("A",))


def test_natural_alliance_cells():
    # 000:3175 France row: -1 -- -10 -3 -2 0 +1
    assert [d.NATURAL_ALLIANCE["FR"].get(p) for p in ("AU", "GB", "PR", "RU", "SP", "TU")] == [-1, -10, -3, -2, 0, 1]
    # 000:3176 GB->AU +3; 000:3178 RU->PR +3; 000:3180 TU->RU -3
    assert d.natural_alliance_modifier("GB", "AU") == 3
    assert d.natural_alliance_modifier("RU", "PR") == 3
    assert d.natural_alliance_modifier("TU", "RU") == -3
    with pytest.raises(BadData):
        d.natural_alliance_modifier("FR", "FR")


def test_political_point_chart():
    pp = d.POLITICAL_POINTS
    assert pp["declare-war-major"].points == -3  # 000:3203
    assert pp["surrender-unconditional"].points == -8  # 000:3209
    assert pp["accept-unconditional"].points == 5  # 000:3210
    assert pp["peace-with-america"].points == -5  # 000:3214
    # 000:3215-3216: +/-1 per fleet, max 3
    assert pp["naval-victor"].award(2) == 2 and pp["naval-victor"].award(5) == 3
    assert pp["naval-loser"].award(4) == -3
    # 000:3219: +1/2 per corps, rounding up, max +3
    assert [pp["field-victor"].award(n) for n in (1, 2, 3, 5, 7)] == [1, 1, 2, 3, 3]
    assert pp["field-loser"].award(3) == -2
    # 000:3234: leader return = strategic + tactical; Nelson 10
    assert d.return_leader_cost(4, 5) == -9 and d.return_leader_cost(0, 0, nelson=True) == -10
    with pytest.raises(BadData):
        pp["status-adjustment"].award(1)


def test_check_peace_terms():
    # 6.4 000:664 counts and lists; 000:2924 B.1 vs C.1; 000:2916 A.1 cancels B.1
    d.check_peace_terms("conditional", ["B.2", "B.4"])
    d.check_peace_terms("unconditional", ["C.1.b", "B.3", "C.5"], loser="AU")
    with pytest.raises(BadData, match="takes 2"):
        d.check_peace_terms("conditional", ["B.2"])
    with pytest.raises(BadData, match="not on list B"):
        d.check_peace_terms("conditional", ["B.2", "C.2"])
    with pytest.raises(BadData, match="C.1"):
        d.check_peace_terms("unconditional", ["C.1.a", "B.1", "C.5"])
    with pytest.raises(BadData, match="A.1 cancels B.1"):
        d.check_peace_terms("conditional", ["B.1", "B.4"], earlier=("A.1",))
