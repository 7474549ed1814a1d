"""The scenario editor's items (14.3, 14.4) checked by the validator and honoured by the first state."""

import pytest

from eiapbem.data import mapdata
from eiapbem.data import scenario_edit as ed
from eiapbem.data import scenario_file as sf
from eiapbem.rules.model import Options
from eiapbem.rules.model.common import FactorType
from eiapbem.rules.model.powers import AccessKind
from eiapbem.rules.model.units import LeaderStatus, LocationKind
from eiapbem.rules.scenario import initial_state
from eiapbem.rules.scenario_edits import chart_level


@pytest.fixture(scope="module")
def game_map():
    return mapdata.load_map()


@pytest.fixture
def base():
    return ed.new_from("classic-1805", "test-scenario", "Test")


def _problems(sc, game_map):
    return sf.problems(sc, name="t.json", game_map=game_map)


def test_a_new_scenario_is_valid_and_keeps_its_origin(base, game_map):
    # 14.2 (000:2750): a new scenario made from a shipped one keeps its origin.
    assert _problems(base, game_map) == []
    assert base["based_on"] == "classic-1805" and "manual" not in base
    # Equal data, equal hash; any change changes it (14.6).
    assert sf.digest(base) == sf.digest(ed.new_from("classic-1805", "test-scenario", "Test"))
    assert sf.digest(ed.set_power(base, "FR", vp=1)) != sf.digest(base)


def test_major_power_items_are_played(base, raw):
    sc = ed.set_start(base, 1809, 4)
    sc = ed.set_power(sc, "FR", vp=55, without_em=chart_level(1809, "FR") + 20, with_em=chart_level(1809, "FR") + 30,
                      status=22, manpower=7, money=99, infantry=140, heavy=30, morale={"infantry": 450})
    sc = ed.set_conquered(sc, "PR", "silesia", "AU")
    st = initial_state(sc, raw)
    fr = st.powers["FR"]
    assert (st.start.year, st.start.month) == (1809, 4)
    assert (fr.victory_points, fr.political_status, fr.manpower, fr.treasury) == (55, 22, 7, 99)
    assert fr.unplaced_factors.infantry == 140 and fr.unplaced_ships.heavy == 30
    assert fr.vp_bid == 20  # 14.3 item 2 without economic manipulation: 20 over the chart's level
    assert initial_state(sc, raw, options=Options(economic_manipulation=True)).powers["FR"].vp_bid == 30
    corps = [u for u in st.units.values() if getattr(u, "nation", None) == "FR" and hasattr(u, "morale")]
    assert corps and all(u.morale[FactorType.INFANTRY] == 450 for u in corps)
    assert st.ceded_provinces["silesia"] == "AU"


def test_relations_between_powers_are_played(base, raw):
    sc = ed.set_relation(base, "alliances", "FR", "AU")
    sc = ed.set_relation(sc, "wars", "RU", "TU")
    sc = ed.set_relation(sc, "alliance_restrictions", "GB", "SP", 6)
    sc = ed.set_relation(sc, "enforced_peace", "PR", "FR", 9)
    sc = ed.set_relation(sc, "access", "SP", "FR", "temporary")
    sc = ed.set_relation(sc, "stances", "GB", "FR", -5)
    st = initial_state(sc, raw)
    start = st.start
    assert "AU" in st.powers["FR"].alliances and "FR" in st.powers["AU"].alliances
    assert "TU" in st.powers["RU"].wars
    assert st.powers["GB"].alliances_broken["SP"] == start.plus(6 - 12)  # 6.5.1's 12 months end 6 after the start
    assert st.powers["FR"].enforced_peace["PR"] == start.plus(9)  # FR may not declare war on PR for 9 months
    acc = st.powers["SP"].access["FR"]
    assert acc.kind is AccessKind.TEMPORARY and acc.until == start.plus(2)


def test_minor_items_are_played(base, raw):
    sc = ed.set_minor(base, "bavaria", status="ally", controller="FR", forces={"infantry": 10}, morale=350)
    sc = ed.set_minor(sc, "portugal", war_with="FR")
    st = initial_state(sc, raw)
    assert st.minors["bavaria"].controller == "FR" and st.minors["bavaria"].stored_factors.infantry == 10
    assert "portugal" in st.powers["FR"].minor_wars
    bav = [u for u in st.units.values() if getattr(u, "nation", None) == "bavaria" and hasattr(u, "morale")]
    assert bav and all(u.morale[FactorType.INFANTRY] == 350 for u in bav)


def test_units_garrisons_and_provinces_placed_for_the_start(base, raw, game_map):
    # 14.4 (000:2804), 14.4.1 (000:2808-2813), 14.4.2 (000:2816): units, garrisons and provinces for the start.
    sc = ed.create_unit(base, "corps:FR:young-guard", "FR", "infantry")
    sc = ed.edit_unit(sc, "corps:FR:young-guard", factors={"infantry": 4}, max={"infantry": 10}, place="map", area="paris")
    sc = ed.edit_unit(sc, "napoleon", owner="FR", kind="leader", place="map", **{"with": "corps:FR:young-guard"})
    sc = ed.delete_unit(sc, "corps:FR:1", "FR", "infantry") if "corps:FR:1" in sf._counter_ids(raw) else sc
    sc = ed.set_garrison(sc, "FR", "paris", {"infantry": 3})
    sc = ed.set_province(sc, "madrid", "FR")
    assert _problems(sc, game_map) == []
    st = initial_state(sc, raw)
    c = st.units["corps:FR:young-guard"]
    assert c.location.kind is LocationKind.AREA and c.location.site == "paris" and c.factors.infantry == 4
    assert st.leaders["leader:FR:napoleon"].status is LeaderStatus.ON_MAP
    assert any(u.id.startswith("garrison:FR:city:paris") for u in st.units.values())
    assert st.area_control["madrid"] == "FR"


@pytest.mark.parametrize("edit, words", [
    (lambda sc: ed.set_relation(ed.set_relation(sc, "wars", "FR", "AU"), "alliances", "FR", "AU"), "both allied and at war"),
    (lambda sc: ed.set_power(sc, "FR", status=999), "political status 999"),
    (lambda sc: ed.set_power(sc, "FR", money=-3), "money is -3"),
    (lambda sc: ed.set_conquered(sc, "FR", "silesia", "AU"), "not a home province of FR"),
    (lambda sc: ed.set_minor(sc, "bavaria", status="ally", controller=None), "controller None is not a major power"),
    (lambda sc: ed.set_minor(sc, "bavaria", morale=20), "corps morale 20"),
    (lambda sc: ed.set_start(sc, 1820, 1), "ends (1815-12) before it starts"),
    (lambda sc: ed.edit_unit(sc, "corps:FR:x", owner="FR", kind="infantry"), "no such counter"),
    (lambda sc: ed.edit_unit(ed.create_unit(sc, "corps:FR:x", "FR", "infantry"), "corps:FR:x", factors={"infantry": 9},
                             max={"infantry": 5}), "exceed its maximum"),
    (lambda sc: ed.edit_unit(ed.create_unit(sc, "corps:FR:x", "FR", "infantry"), "corps:FR:x", factors={"infantry": 2},
                             place="map", area="vienna"), "14.4.1"),
    (lambda sc: ed.set_garrison(sc, "FR", "nowhere", {"infantry": 1}), "not an area with a city"),
    (lambda sc: ed.set_relation(sc, "access", "FR", "GB", "sometimes"), "access of FR to GB"),
])
def test_each_bad_edit_gets_one_sentence(base, game_map, edit, words):
    found = _problems(edit(base), game_map)
    assert len(found) == 1 and words in found[0], found


def test_a_lower_victory_threshold_is_refused_in_one_sentence(base, raw):
    from eiapbem.core.errors import BadData

    sc = ed.set_power(base, "FR", without_em=chart_level(1805, "FR") - 1)
    with pytest.raises(BadData, match="below the chart"):
        initial_state(sc, raw)


def test_the_cli_refuses_a_bad_edit_and_leaves_the_file(run_cli, tmp_path):
    code, out, err = run_cli("scenario", "new", "s.json", "--from", "classic-1805")
    assert code == 0 and "the scenario is valid" in out, err
    before = (tmp_path / "s.json").read_bytes()
    code, out, err = run_cli("scenario", "power", "s.json", "FR", "--status", "999")
    assert code == 1 and "political status 999" in err and "not changed" in err and "Traceback" not in err
    assert (tmp_path / "s.json").read_bytes() == before
    code, out, err = run_cli("scenario", "new", "s.json")
    assert code == 1 and "already exists" in err
    # 14.4.2: an area placed under France is drawn French on the map of the scenario.
    code, out, err = run_cli("map", "--svg", "s0.svg", "--scenario", "s.json")
    assert code == 0, err
    code, out, err = run_cli("scenario", "province", "s.json", "madrid", "FR")
    assert code == 0, err
    code, out, err = run_cli("map", "--svg", "s.svg", "--scenario", "s.json")
    assert code == 0 and (tmp_path / "s.svg").read_text().startswith("<"), err
    assert (tmp_path / "s.svg").read_text() != (tmp_path / "s0.svg").read_text()
    code, out, err = run_cli("data", "check", "--scenario", "s.json")
    assert code == 0 and "valid; hash" in out, err
    (tmp_path / "bad.json").write_text('{"id": "bad", "powers": []}')
    code, out, err = run_cli("data", "check", "--scenario", "bad.json")
    assert code == 1 and "'powers' must be an object" in out and "Traceback" not in err


@pytest.mark.parametrize("damage, words", [
    (lambda sc: sc.__setitem__("minors", []), "'minors' must be an object"),
    (lambda sc: sc["powers"].__setitem__("FR", 3), "powers.FR must be an object"),
    (lambda sc: sc["powers"]["FR"].__setitem__("factors", [1]), "powers.FR.factors must be an object"),
    (lambda sc: sc.__setitem__("units", [3]), "every entry of 'units' must be an object"),
    (lambda sc: sc["powers"]["FR"]["leaders"].__setitem__("all_except", 3), "does not have the form of a scenario's"),
])
def test_a_damaged_file_gets_a_sentence_not_a_traceback(base, game_map, damage, words):
    damage(base)
    found = _problems(base, game_map)
    assert found and words in found[0], found
