"""The world data (minors, leaders, counters, displays, scenarios) and its checker."""

import json
import shutil

import pytest

from eiapbem.data import world
from eiapbem.core.errors import BadData


def test_shipped_world_is_valid():
    counts = world.check_world()
    assert counts["minor countries"] == 65
    assert counts["scenarios"] == 2
    assert counts["leaders"] >= 50


def test_scenario_totals_equal_the_manual():
    # 5.3.1 (000:350): France 135 infantry, 5 guard, 17 cavalry, 49 heavy ships, 8 depots, $45.
    fr = world.load_scenario("classic-1805")["powers"]["FR"]
    assert (fr["factors"]["infantry"], fr["factors"]["guard"], fr["factors"]["cavalry"]) == (135, 5, 17)
    assert (fr["ships"]["heavy"], fr["depots"], fr["money"]) == (49, 8, 45)
    # 5.3.2 (000:452): Great Britain 20 infantry, 4 cavalry, 76 heavy, 57 light, 5 transports.
    gb = world.load_scenario("alternate-1805")["powers"]["GB"]
    assert (gb["factors"]["infantry"], gb["ships"]["heavy"], gb["ships"]["light"], gb["ships"]["transport"]) == (20, 76, 57, 5)
    # 5.3.1 (000:346): Prussia starts with 9 manpower.
    assert world.load_scenario("classic-1805")["powers"]["PR"]["manpower"] == 9


def test_minor_statuses_follow_the_setup_tables():
    classic = world.load_scenario("classic-1805")["minors"]
    assert classic["holland"] == {"status": "free-state", "controller": "FR", "forces": {"infantry": 5, "cavalry": 1, "heavy": 15, "light": 0}}  # 000:381
    assert classic["norway"]["status"] == "district" and classic["norway"]["country"] == "denmark"  # 000:396
    alt = world.load_scenario("alternate-1805")["minors"]
    assert alt["persia"]["forces"]["cavalry"] == 20  # 000:502
    assert alt["naples"]["controller"] == "SP" and alt["naples"]["status"] == "ally"  # 000:494


def test_unknown_scenario_is_one_sentence():
    with pytest.raises(BadData, match="no scenario called 'nope'"):
        world.load_scenario("nope")


@pytest.fixture
def broken(tmp_path):
    dst = tmp_path / "world"
    shutil.copytree(world.DATA_DIR, dst)

    def edit(name, fn):
        p = dst / name
        doc = json.loads(p.read_text())
        fn(doc)
        p.write_text(json.dumps(doc))
        return dst

    return edit


def _fr(doc):
    doc["powers"]["FR"]["factors"]["infantry"] = 134


def _leader(doc):
    doc["powers"]["FR"]["leaders"]["all_except"].append("nobody")


def _napoleon(doc):
    next(x for x in doc["leaders"] if x["id"] == "napoleon")["tactical"] = 4


def _vp(doc):
    doc["political_status"]["boxes"][23]["victory_points"] = 7


def _minor(doc):
    doc["minors"]["holland"]["status"] = "friendly"


def _district(doc):
    next(x for x in doc["minors"] if x["id"] == "norway")["country"] = "atlantis"


def _counter(doc):
    del doc["minors"]["saxony"]


@pytest.mark.parametrize(
    "name, fn, words",
    [
        ("scenarios/classic-1805.json", _fr, "scenarios/classic-1805.json: power FR: infantry is 134 but the manual's text gives 135"),
        ("scenarios/classic-1805.json", _leader, "leader 'nobody' is not in leaders.json"),
        ("leaders.json", _napoleon, "leader 'napoleon' must have tactical 5"),
        ("displays.json", _vp, "political status 23 must give 6 victory points"),
        ("scenarios/alternate-1805.json", _minor, "minor 'holland' has unknown status 'friendly'"),
        ("minors.json", _district, "minor 'norway' belongs to unknown country 'atlantis'"),
        ("counters.json", _counter, "minor 'saxony' can field a corps"),
    ],
)
def test_broken_world_is_refused_naming_file_and_entry(broken, name, fn, words):
    path = broken(name, fn)
    with pytest.raises(BadData) as err:
        world.check_world(path)
    assert words in str(err.value)


def test_a_float_is_refused(tmp_path):
    dst = tmp_path / "world"
    shutil.copytree(world.DATA_DIR, dst)
    p = dst / "leaders.json"
    p.write_text(p.read_text().replace('"strategic": 5', '"strategic": 5.5', 1))
    with pytest.raises(BadData, match="leaders.json: not valid JSON of integers"):
        world.check_world(dst)


def test_world_names_resolve_on_the_map():
    from eiapbem.data.mapdata import load_map

    raw = world.load_raw()
    assert world.map_problems(raw, load_map()) == []
    raw["minors.json"]["minors"].append(dict(raw["minors.json"]["minors"][0], id="atlantis"))
    assert world.map_problems(raw, load_map()) == ["minors.json: minor 'atlantis' has no district on the map; add its areas or fix the id"]


# Every province and minor country the manual names is on the map (issue 3): 5.3.1 (000:352) names Great
# Britain's; 12.8.2 (000:2302-2324) the Polish provinces; 13.2.3 (000:2464) the feudal ones; 13.2.5 Tyrol.
MANUAL_PROVINCES = [
    "england", "ireland", "scotland", "wales", "magdeburg", "tyrol", "masovia", "danzig", "east-galicia",
    "west-galicia", "lithuania", "podolia", "polesia", "posen", "volhynia", "west-prussia", "white-russia",
    "crimea", "transylvania", "silesia", "bohemia", "moravia", "hungary",
]


@pytest.mark.parametrize("province", MANUAL_PROVINCES)
def test_every_province_the_manual_names_is_on_the_map(province):
    from eiapbem.data.mapdata import load_map

    assert province in load_map().provinces


def test_every_minor_of_the_setup_tables_and_chart_is_a_district():
    from eiapbem.data.mapdata import load_map
    from eiapbem.rules.tables.diplomacy import MINOR_COUNTRIES as MINORS

    districts = {p.id for p in load_map().provinces.values() if p.is_minor}
    chart = {m for m in MINORS if m != "poland"}  # Poland is created by 12.8.2, not a starting minor
    assert chart <= districts, sorted(chart - districts)
    for sid in world.scenario_ids():
        assert set(world.load_scenario(sid)["minors"]) <= districts


# Every leader the manual names (5.3.1 000:340-352, 5.3.2, 13.8, the biographies from 000:3267) is in the data.
MANUAL_LEADERS = {
    "FR": ["napoleon", "davout", "murat", "ney", "soult", "massena", "eugene", "jerome", "bernadotte"],
    "GB": ["nelson", "wellington", "moore", "beresford"],
    "RU": ["alexander", "kutusov", "barclay", "bagration", "bennigsen", "wittgenstein", "tormassov"],
    "AU": ["schwarzenberg"],
    "PR": ["brunswick", "hohenlohe"],
    "SP": ["blake", "castanos"],
    "TU": ["yusuf-ziya"],
}


def test_every_leader_the_manual_names_is_in_the_data():
    leaders = {(x["power"], x["id"]) for x in world.load_raw()["leaders.json"]["leaders"]}
    missing = [(p, lid) for p, ids in MANUAL_LEADERS.items() for lid in ids if (p, lid) not in leaders]
    assert not missing
