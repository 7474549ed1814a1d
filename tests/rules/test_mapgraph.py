"""The map model and its validator (eiapbem.rules.mapgraph) on small synthetic maps.

Each check of docs/map.md is fed one broken map and must name the file and the entry.
"""

import pytest

from eiapbem.core.errors import BadData
from eiapbem.rules import mapcheck as mc
from eiapbem.rules import mapgraph as mg
from mapkit import SMALL, area, city, clone, find, port, province, small_map


def probs(raw):
    return mc.problems(raw, **SMALL)


def one(raw, *needles):
    """Exactly the problems mentioning every needle exist, and at least one does."""
    found = probs(raw)
    hits = [p for p in found if all(n in p for n in needles)]
    assert hits, f"no problem mentions {needles}; got {found}"
    return hits


def test_small_map_is_valid_and_builds():
    raw = small_map()
    assert probs(raw) == []
    m = mc.build_map(raw, **SMALL)
    assert m.counts() == {
        "land areas": 10, "sea areas": 3, "ports": 5, "cities": 8,
        "provinces": 5, "minor districts": 1, "crossings": 1,
    }


# --- one-way connections and river flags (10.4.1, 000:1384)


def test_one_way_land_border_is_named_in_the_file_that_lacks_it():
    raw = clone(small_map())
    find(raw, "areas", "orleans")["neighbours"] = []
    hits = one(raw, "areas_C.json", "'orleans'", "does not list its neighbour 'paris'")
    assert len(hits) == 1
    with pytest.raises(BadData, match="orleans"):
        mc.validate(raw, **SMALL)


def test_one_way_border_across_files():
    raw = clone(small_map())
    find(raw, "areas", "caen")["neighbours"].append({"to": "london", "river": False})
    # london is in areas_W.json: that file must be named, since it lacks the border.
    one(raw, "areas_W.json", "area 'london' does not list its neighbour 'caen'")


def test_river_flags_must_agree():
    raw = clone(small_map())
    find(raw, "areas", "rouen")["neighbours"][0]["river"] = False  # paris says true
    hits = one(raw, "river", "'paris'", "'rouen'")
    assert len(hits) == 1  # reported once, not from both sides


def test_one_way_sea_connection():
    raw = clone(small_map())
    find(raw, "seas", "irish-sea")["neighbours"] = []
    one(raw, "seas.json", "sea area 'irish-sea' does not list its neighbour 'english-channel'")


# --- reachability from the capital


def test_inland_area_cut_off_from_its_capital():
    raw = clone(small_map())
    find(raw, "areas", "orleans")["neighbours"] = []
    find(raw, "areas", "paris")["neighbours"].pop()  # remove paris->orleans too: symmetric, cut off
    found = probs(raw)
    assert found == [p for p in found if "'orleans' cannot be reached" in p]
    assert "'paris'" in found[0] and "areas_C.json" in found[0]


def test_coastal_area_cut_off_without_port_is_not_an_island():
    raw = clone(small_map())
    # Caen loses its border with Rouen and its crossing: coastal, but no port in its group.
    find(raw, "areas", "caen")["neighbours"] = []
    find(raw, "areas", "rouen")["neighbours"] = [{"to": "paris", "river": True}]
    raw["areas_W.json"]["crossings"] = []
    one(raw, "area 'caen' cannot be reached")


def test_island_with_a_port_is_accepted_and_minor_capital_counts():
    raw = small_map()
    # Dublin (no border, no crossing, a port) is an island; Antwerp reaches Brussels, its minor capital.
    assert probs(raw) == []
    raw = clone(raw)
    find(raw, "areas", "dublin")["port"] = None
    one(raw, "area 'dublin' cannot be reached", "'london'")


def test_crossing_connects_for_reachability():
    raw = clone(small_map())
    # Cut Rouen from Paris: Normandy then hangs on Britain by the crossing only.  That group is
    # coastal with ports but holds London, a national capital, so it is no island: an error.
    find(raw, "areas", "rouen")["neighbours"] = [{"to": "caen", "river": False}]
    find(raw, "areas", "paris")["neighbours"] = [{"to": "lille", "river": False}, {"to": "orleans", "river": False}]
    found = probs(raw)
    assert any("'rouen' cannot be reached" in p and "'paris'" in p for p in found)
    # A crossing arrow from Lille to Rouen joins them to Paris again (10.4.1, 000:1386).
    raw["areas_C.json"]["crossings"].append(
        {"id": "lille-rouen", "a": "lille", "b": "rouen", "sea": "english-channel", "optional": None}
    )
    assert probs(raw) == []


# --- ports


def test_port_without_city():
    raw = clone(small_map())
    find(raw, "areas", "portsmouth")["city"] = None
    one(raw, "areas_W.json", "area 'portsmouth' has a port but no city")


def test_port_without_sea():
    raw = clone(small_map())
    find(raw, "areas", "antwerp")["port"]["seas"] = []
    one(raw, "area 'antwerp'", "touches no sea area")


def test_port_sea_not_on_the_coast():
    raw = clone(small_map())
    find(raw, "areas", "antwerp")["port"]["seas"] = ["north-sea", "english-channel"]
    one(raw, "area 'antwerp'", "port sea 'english-channel' is not in the area's coast")


# --- provinces, districts and capitals (12.2.1, 13.5, 13.6)


def test_province_with_two_capitals():
    raw = clone(small_map())
    find(raw, "areas", "caen")["city"] = city("Caen", capital="province")
    one(raw, "province 'normandy' has 2 capital cities")


def test_minor_district_without_capital():
    raw = clone(small_map())
    find(raw, "areas", "brussels")["city"]["capital"] = None
    hits = one(raw, "province 'flanders' has 0 capital cities")
    assert "district" in hits[0]


def test_province_capital_must_be_in_the_province():
    raw = clone(small_map())
    find(raw, "provinces", "picardy")["capital"] = "paris"
    one(raw, "province 'picardy': capital 'paris' is not one of the province's areas")


def test_national_capital_missing():
    # 12.2.1 (000:2098): Paris is France's national capital; without it France has none.
    raw = clone(small_map())
    find(raw, "areas", "paris")["city"]["capital"] = "province"
    one(raw, "area 'paris' is a national capital")
    raw = clone(small_map())
    east = raw["areas_C.json"]
    east["areas"] = [a for a in east["areas"] if a["id"] != "paris"]
    for a in east["areas"]:
        a["neighbours"] = [n for n in a["neighbours"] if n["to"] != "paris"]
    one(raw, "national capital 'paris' of FR is missing")


def test_national_capital_only_for_the_listed_cities():
    raw = clone(small_map())
    find(raw, "areas", "rouen")["city"]["capital"] = "national"
    one(raw, "area 'rouen'", "\"national\" is only for")


def test_minor_capital_kind_only_in_minors():
    raw = clone(small_map())
    find(raw, "areas", "brussels")["city"]["capital"] = "province"
    one(raw, "area 'brussels'", "use \"minor\"")


def test_area_and_province_nation_must_agree():
    raw = clone(small_map())
    find(raw, "areas", "antwerp")["nation"] = "holland"
    one(raw, "area 'antwerp' has nation 'holland'")


# --- ids that resolve to nothing


@pytest.mark.parametrize(
    "kind, id, field, value, needle",
    [
        ("areas", "paris", "neighbours", [{"to": "pariss", "river": False}], "neighbour 'pariss' is not a land area"),
        ("areas", "caen", "coast", ["english-chanel"], "coast 'english-chanel' is not a sea area"),
        ("areas", "caen", "province", "normandie", "province 'normandie' is not a province"),
        ("provinces", "normandy", "capital", "ruen", "capital 'ruen' is not a land area"),
        ("crossings", "channel-crossing", "b", "kaen", "end b 'kaen' is not a land area"),
        ("crossings", "channel-crossing", "sea", "la-manche", "sea 'la-manche' is not a sea area"),
        ("seas", "north-sea", "neighbours", ["english-channel", "skagerrak"], "neighbour 'skagerrak' is not a sea area"),
    ],
)
def test_unresolved_ids(kind, id, field, value, needle):
    raw = clone(small_map())
    find(raw, kind, id)[field] = value
    one(raw, needle)


def test_unresolved_port_sea():
    raw = clone(small_map())
    find(raw, "areas", "antwerp")["port"]["seas"] = ["noord-zee"]
    one(raw, "area 'antwerp': port sea 'noord-zee' is not a sea area")


# --- duplicates


def test_duplicate_area_id_across_files():
    raw = clone(small_map())
    raw["areas_W.json"]["areas"].append(clone(find(raw, "areas", "caen")))
    one(raw, "area 'caen' repeats the id of areas_C.json: area 'caen'")


def test_land_and_sea_ids_share_one_namespace():
    raw = clone(small_map())
    s = clone(find(raw, "seas", "irish-sea"))
    s["id"] = "dublin"
    s["neighbours"] = []
    raw["seas.json"]["seas"].append(s)
    one(raw, "sea area 'dublin' repeats the id of areas_W.json: area 'dublin'")


def test_duplicate_province_and_crossing_ids():
    raw = clone(small_map())
    raw["areas_W.json"]["provinces"].append(province("normandy", "FR", "rouen"))
    raw["areas_C.json"]["crossings"].append(
        {"id": "channel-crossing", "a": "lille", "b": "london", "sea": "english-channel", "optional": None}
    )
    one(raw, "province 'normandy' repeats the id")
    one(raw, "crossing 'channel-crossing' repeats the id")


# --- terrain and forage (10.4.1, 10.5.1)


def test_area_without_terrain_or_forage():
    raw = clone(small_map())
    del find(raw, "areas", "orleans")["terrain"]
    del find(raw, "areas", "caen")["forage"]
    one(raw, "area 'orleans' has no 'terrain'")
    one(raw, "area 'caen' has no 'forage'")


def test_unknown_terrain_and_negative_forage():
    raw = clone(small_map())
    find(raw, "areas", "orleans")["terrain"] = "swamp"
    find(raw, "areas", "caen")["forage"] = -1
    one(raw, "area 'orleans': terrain 'swamp' is unknown")
    one(raw, "area 'caen': forage value -1 is negative")


def test_wrong_types_and_unknown_fields():
    raw = clone(small_map())
    find(raw, "areas", "orleans")["forage"] = True  # a bool is not an integer
    find(raw, "areas", "caen")["colour"] = "blue"
    one(raw, "'forage' is True, which is not an integer")
    one(raw, "area 'caen' has an unknown field 'colour'")


# --- positions


def test_distance_km_is_integer_and_close_to_great_circle():
    # London-Paris is about 344 km; one degree of latitude 111 km.
    d = mg.distance_km(-10, 5151, 235, 4886)
    assert isinstance(d, int) and 335 <= d <= 350
    assert mg.distance_km(0, 4500, 0, 4600) == 111


def test_neighbours_implausibly_far_apart():
    raw = clone(small_map())
    a = find(raw, "areas", "orleans")
    a["lon"], a["lat"] = 2898, 4101  # Constantinople's position
    hits = one(raw, "neighbour 'paris' is", "more than 1000 km")
    assert hits[0].startswith("areas_C.json: area 'orleans'")


def test_coast_sea_implausibly_far():
    raw = clone(small_map())
    s = find(raw, "seas", "irish-sea")
    s["lon"], s["lat"] = 3600, 4300  # the eastern Black Sea
    one(raw, "area 'dublin': coast 'irish-sea' is", "more than 2000 km")


# --- winter zone (13.1.1, 000:2362)


def test_winter_flag_follows_13_1_1():
    raw = clone(small_map())
    find(raw, "areas", "caen")["winter"] = False
    one(raw, "area 'caen' has winter false", "set winter true")
    raw = clone(small_map())
    raw["areas_C.json"]["areas"].append(
        area("tunis", "tunisia", "tunisia", 1018, 3681, city=city("Tunis", capital="minor"),
             port=port("north-sea"), coast=["north-sea"], winter=True)
    )
    raw["areas_C.json"]["provinces"].append(province("tunisia", "tunisia", "tunis"))
    found = probs(raw)
    assert any("'tunis' has winter true" in p for p in found)


# --- sizes


def test_the_real_map_needs_200_land_and_20_sea_areas():
    found = mc.problems(small_map())
    assert any("10 land areas, fewer than 200" in p for p in found)
    assert any("3 sea areas, fewer than 20" in p for p in found)


def test_not_a_json_object():
    found = mc.problems({"areas_X.json": [1, 2]}, **SMALL)
    assert any(p.startswith("areas_X.json: the file is not a JSON object") for p in found)


def test_validate_raises_the_first_problem_with_a_count():
    raw = clone(small_map())
    find(raw, "areas", "orleans")["terrain"] = "swamp"
    find(raw, "areas", "caen")["forage"] = -1
    with pytest.raises(BadData) as err:
        mc.validate(raw, **SMALL)
    assert "map data: areas_C.json" in str(err.value) and "(1 more problems)" in str(err.value)
    assert "eiapbem data check" in err.value.hint


# --- the Map


def test_map_is_read_only_and_sorted():
    m = mc.build_map(small_map(), **SMALL)
    with pytest.raises(TypeError):
        m.areas["x"] = None  # type: ignore[index]
    with pytest.raises(AttributeError):
        m.areas["paris"].terrain = "marsh"  # type: ignore[misc]
    assert list(m.areas) == sorted(m.areas)
    assert m.land_neighbours("paris") == ("lille", "orleans", "rouen")
    assert m.is_river("paris", "rouen") and not m.is_river("paris", "lille")
    assert m.border("paris", "london") is None
    assert m.coastal_areas("english-channel") == ("caen", "lille", "london", "portsmouth", "rouen")
    assert m.ports_on("north-sea") == ("antwerp", "london")
    assert m.sea_neighbours("english-channel") == ("irish-sea", "north-sea")
    assert m.areas_of_province("normandy") == ("caen", "rouen")
    assert m.areas_of_nation("flanders") == ("antwerp", "brussels")
    assert m.capital_of("flanders") == "brussels"
    assert m.national_capitals("RU") == ("moscow", "st-petersburg")  # 12.2.1, 000:2098
    assert m.area("paris").city.garrison_capacity == 25  # 10.4.3: 5 x supply 5
    assert [c.id for c in m.crossings_at("caen")] == ["channel-crossing"]
    with pytest.raises(KeyError):
        m.area("atlantis")


# --- paths (10.4.1, 000:1380-1390)


def test_movement_costs_terrain_crossing_and_winter():
    m = mc.build_map(small_map(), **SMALL)
    # Portsmouth -> Caen: crossing arrow +1, marsh 2 (000:1382, 000:1386).
    assert mg.enter_cost(m, "caen", via_crossing=True) == 3
    assert mg.enter_cost(m, "orleans", via_crossing=False) == 1  # forest costs 1
    # Winter Land Movement option (000:28): +1 in the winter zone.
    assert mg.enter_cost(m, "caen", via_crossing=True, winter=True) == 4
    costs = mg.movement_costs(m, "london")
    assert costs["caen"] == 4 and costs["paris"] == 6 and "dublin" not in costs
    assert list(costs) == sorted(costs)
    assert mg.movement_costs(m, "london", max_cost=4) == {"caen": 4, "london": 0, "portsmouth": 1}


def test_shortest_path_and_options():
    m = mc.build_map(small_map(), **SMALL)
    path, cost = mg.shortest_land_path(m, "london", "antwerp")
    assert path == ("london", "portsmouth", "caen", "rouen", "paris", "lille", "brussels", "antwerp")
    assert cost == 9
    assert mg.shortest_land_path(m, "london", "paris", crossings=False) is None
    # An enemy fleet in the Channel closes the crossing (000:1386).
    assert mg.shortest_land_path(m, "london", "paris", crossings=lambda c: c.sea != "english-channel") is None
    # A river into an enemy-held area costs +1 (000:1384): extra_cost adds it.
    river = lambda a, b, via: 1 if m.is_river(a, b) else 0
    assert mg.shortest_land_path(m, "caen", "paris", extra_cost=river) == (("caen", "rouen", "paris"), 3)
    assert mg.shortest_land_path(m, "caen", "paris", can_enter=lambda a: a != "rouen") is None
    assert mg.shortest_land_path(m, "paris", "paris") == (("paris",), 0)


def test_equal_cost_paths_break_ties_by_id():
    raw = clone(small_map())
    # A diamond: Paris -> Brussels through Lille or through Orleans, both cost 2.
    find(raw, "areas", "orleans")["neighbours"].insert(0, {"to": "brussels", "river": False})
    find(raw, "areas", "brussels")["neighbours"].insert(0, {"to": "orleans", "river": False})
    m = mc.build_map(raw, **SMALL)
    assert mg.shortest_land_path(m, "paris", "brussels") == (("paris", "lille", "brussels"), 2)
    assert mg.shortest_land_path(m, "brussels", "paris") == (("brussels", "lille", "paris"), 2)


def test_reachable_and_components():
    m = mc.build_map(small_map(), **SMALL)
    assert "caen" in mg.reachable(m, "london")
    assert mg.reachable(m, "london", crossings=False) == ("london", "portsmouth")
    assert mg.reachable(m, "dublin") == ("dublin",)
    assert mg.reachable(m, "paris", can_enter=lambda a: a != "lille") == ("caen", "london", "orleans", "paris", "portsmouth", "rouen")
    assert mg.land_components(m, crossings=False)[0][0] == "antwerp"
    assert len(mg.land_components(m)) == 2


def test_crossing_flags():
    c = mg.Crossing("dardanelles", "constantinople", "brusa", "sea-of-marmara", None)
    assert c.winter_exempt and c.other_end("brusa") == "constantinople"  # 4.1.1, 000:28
    assert not mg.Crossing("bosporus", "constantinople", "brusa", "sea-of-marmara", None).winter_exempt
    assert not mg.Crossing("x", "a", "b", "english-channel", "lille").winter_exempt


def test_a_malformed_area_does_not_cascade():
    raw = clone(small_map())
    del find(raw, "areas", "rouen")["terrain"]  # Paris and Caen name Rouen; Normandy's capital
    assert probs(raw) == ["areas_C.json: area 'rouen' has no 'terrain'; add it (docs/map.md lists every field)"]


def test_crossing_optional_may_be_omitted_but_not_unknown():
    raw = clone(small_map())
    del raw["areas_W.json"]["crossings"][0]["optional"]
    assert probs(raw) == []
    assert mc.build_map(raw, **SMALL).crossings["channel-crossing"].optional is None
    raw["areas_W.json"]["crossings"][0]["optional"] = "calais"
    one(raw, "crossing 'channel-crossing': 'optional' is 'calais'")


def test_crossing_sea_must_touch_both_ends_and_not_duplicate_a_border():
    raw = clone(small_map())
    raw["areas_W.json"]["crossings"][0]["sea"] = "north-sea"
    one(raw, "crossing 'channel-crossing': end 'portsmouth' does not touch its sea 'north-sea'")
    raw = clone(small_map())
    raw["areas_C.json"]["crossings"].append(
        {"id": "seine", "a": "rouen", "b": "caen", "sea": "english-channel", "optional": None}
    )
    one(raw, "crossing 'seine' joins 'rouen' and 'caen', which already share a land border")


def test_guerrilla_values_and_cossack_provinces_belong_to_spain_and_russia():
    # 13.2.1: guerrilla values are printed for Spanish provinces; 13.2.2: "(C)" provinces are Russian.
    from eiapbem.data.mapdata import load_map, read_raw

    m = load_map()
    assert m.province("galicia").guerrilla == 4 and m.province("england").guerrilla == 0
    assert m.province("don").cossack and not m.province("silesia").cossack
    raw = read_raw()
    prov = next(p for d in raw.values() if isinstance(d, dict) for p in d.get("provinces", ()) if p["id"] == "england")
    prov["guerrilla"] = 2
    assert any("only a Spanish province has a guerrilla value" in p for p in mc.problems(raw))
