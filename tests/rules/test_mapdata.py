"""Loading the map files (eiapbem.data.mapdata) and the packaged seas.json."""

import json
from importlib import resources

import pytest

from eiapbem.data import mapdata
from eiapbem.core.errors import BadData
from eiapbem.rules import mapcheck as mc
from eiapbem.rules import mapgraph as mg
from mapkit import SMALL, big_map, small_map, write

REGIONS = ("areas_W.json", "areas_C.json", "areas_S.json")


def packaged(name):
    return resources.files("eiapbem.data.map").joinpath(name)


def test_packaged_seas_are_the_26_of_the_reference_list_symmetric():
    seas = json.loads(packaged("seas.json").read_text())["seas"]
    ids = [s["id"] for s in seas]
    assert len(ids) == 26 == len(set(ids))
    assert mc.problems({"seas.json": {"seas": seas}}, min_land=0) == []
    by = {s["id"]: s for s in seas}
    for s in seas:
        for n in s["neighbours"]:
            assert s["id"] in by[n]["neighbours"]
    # 8.4.1: the ice line lies across the northern Baltic.
    assert by["gulf-of-bothnia"]["ice"] and not by["tyrrhenian-sea"]["ice"]
    # Every sea can be reached from every other by sea.
    seen, todo = {"north-atlantic"}, ["north-atlantic"]
    while todo:
        for n in by[todo.pop()]["neighbours"]:
            if n not in seen:
                seen.add(n)
                todo.append(n)
    assert seen == set(by)


def test_load_a_folder_and_cache(tmp_path):
    folder = write(small_map(), tmp_path / "m")
    raw = mapdata.read_raw(folder)
    assert sorted(raw) == ["areas_C.json", "areas_W.json", "seas.json"]
    assert mc.problems(raw, **SMALL) == []


def test_load_map_validates_with_the_real_minimum(tmp_path):
    folder = write(small_map(), tmp_path / "m")
    with pytest.raises(BadData, match="fewer than 200"):
        mapdata.load_map(folder)


def test_floats_and_duplicate_keys_are_refused(tmp_path):
    folder = write(small_map(), tmp_path / "m")
    (folder / "seas.json").write_text('{"seas": [{"id": "x", "lon": 1.5}]}')
    with pytest.raises(BadData, match=r"seas.json: the number 1.5 is not an integer"):
        mapdata.read_raw(folder)
    (folder / "seas.json").write_text('{"seas": [], "seas": []}')
    with pytest.raises(BadData, match="appears twice"):
        mapdata.read_raw(folder)
    (folder / "seas.json").write_text('{"seas": [')
    with pytest.raises(BadData, match="seas.json: not valid JSON at line 1"):
        mapdata.read_raw(folder)


def test_missing_folder_or_seas_file(tmp_path):
    with pytest.raises(BadData, match="no map folder"):
        mapdata.read_raw(tmp_path / "nowhere")
    (tmp_path / "m").mkdir()
    with pytest.raises(BadData, match="seas.json is missing"):
        mapdata.read_raw(tmp_path / "m")


def test_load_map_is_cached_and_read_only(tmp_path):
    folder = write(big_map(), tmp_path / "m")
    m = mapdata.load_map(folder)
    assert mapdata.load_map(str(folder)) is m  # read once per process, shared
    assert m.counts()["land areas"] == 200 and m.counts()["sea areas"] == 20
    with pytest.raises(TypeError):
        m.provinces["x"] = None  # type: ignore[index]


@pytest.mark.skipif(
    not all(packaged(n).is_file() for n in REGIONS),
    reason="the region files areas_W/C/S.json are authored on other branches; the integrator merges them",
)
def test_the_real_map_loads_and_is_valid():
    assert mapdata.map_problems() == []
    m = mapdata.load_map()
    c = m.counts()
    assert c["land areas"] >= 200 and c["sea areas"] >= 20
    assert mapdata.load_map() is m
    # 12.2.1: every national capital, Russia's two.
    for caps in mg.NATIONAL_CAPITALS.values():
        for cap in caps:
            assert m.area(cap).city.capital == "national"
