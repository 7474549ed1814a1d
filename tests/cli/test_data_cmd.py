"""``eiapbem data check`` and ``eiapbem map --svg``, run as the real command."""

import json
import xml.etree.ElementTree as ET

import pytest

from mapkit import big_map, clone, find, write

pytestmark = pytest.mark.slow

SVG = "{http://www.w3.org/2000/svg}"


def test_check_a_valid_map_prints_counts(run_cli, tmp_path):
    folder = write(big_map(), tmp_path / "map")
    code, out, err = run_cli("data", "check", "--path", str(folder))
    assert code == 0, err
    assert f"map data ({folder}): valid" in out
    assert "land areas       200" in out and "sea areas        20" in out
    assert "provinces        10" in out and "crossings        0" in out
    assert "world data: valid" in out and "counters FR" in out


def test_check_lists_every_problem_and_fails(run_cli, tmp_path):
    raw = clone(big_map())
    find(raw, "areas", "a-3-3")["terrain"] = "swamp"
    find(raw, "areas", "a-5-5")["neighbours"].pop()
    find(raw, "seas", "sea-2")["neighbours"] = ["sea-1"]
    folder = write(raw, tmp_path / "map")
    code, out, err = run_cli("data", "check", "--path", str(folder))
    assert code == 1
    assert "3 problems" in out
    assert "areas_W.json: area 'a-3-3': terrain 'swamp' is unknown" in out
    assert "areas_W.json: area 'a-5-5' does not list its neighbour 'a-5-6'" in out
    assert "seas.json: sea area 'sea-3' does not list its neighbour 'sea-2'" not in out  # sea-3 lists sea-2
    assert "seas.json: sea area 'sea-2' does not list its neighbour 'sea-3'" in out
    assert err.startswith("eiapbem: error: the map data has problems") and "Traceback" not in err


def test_check_json(run_cli, tmp_path):
    folder = write(big_map(), tmp_path / "map")
    code, out, err = run_cli("data", "check", "--json", "--path", str(folder))
    doc = json.loads(out)
    assert doc["map"]["valid"] is True and doc["map"]["counts"]["land areas"] == 200
    assert doc["world"]["present"] is True
    raw = clone(big_map())
    find(raw, "areas", "a-1-1")["forage"] = -2
    write(raw, folder)
    code, out, err = run_cli("data", "check", "--json", "--path", str(folder))
    doc = json.loads(out)
    assert code == 1 and doc["map"]["valid"] is False
    assert doc["map"]["problems"] == ["areas_W.json: area 'a-1-1': forage value -2 is negative; use 0 or more (10.5.1)"]


def test_check_bad_json_is_a_problem_not_a_traceback(run_cli, tmp_path):
    folder = write(big_map(), tmp_path / "map")
    (folder / "areas_W.json").write_text('{"areas": [1.5]}')
    code, out, err = run_cli("data", "check", "--path", str(folder))
    assert code == 1 and "areas_W.json: the number 1.5 is not an integer" in out
    assert "Traceback" not in err


def test_check_packaged_map(run_cli):
    # The packaged map is valid once the three region files are merged; before that it has
    # only seas.json and the check must say what is missing.
    code, out, err = run_cli("data", "check")
    assert "map data (packaged)" in out
    if code != 0:
        assert "fewer than 200" in out or "problem" in out


def test_map_svg_is_a_picture(run_cli, tmp_path):
    folder = write(big_map(), tmp_path / "map")
    svg = tmp_path / "europe.svg"
    code, out, err = run_cli("map", "--svg", str(svg), "--path", str(folder))
    assert code == 0, err
    assert out.startswith(f"wrote {svg}")
    root = ET.parse(svg).getroot()
    assert root.tag == f"{SVG}svg"
    land = root.find(f"{SVG}g[@id='land']")
    assert len(land.findall(f"{SVG}path")) == 200  # one cell per land area
    assert root.find(f"{SVG}g[@id='legend']") is not None
    assert root.find(f"{SVG}g[@id='units']") is None  # no units given: political map only


def test_map_scenario(run_cli, tmp_path):
    svg = tmp_path / "s.svg"
    code, out, err = run_cli("map", "--svg", str(svg), "--scenario", "classic-1805",
                             "--path", str(write(big_map(), tmp_path / "map")))
    assert code == 0, err


def test_map_refuses_an_unwritable_file_and_a_bad_map(run_cli, tmp_path):
    folder = write(big_map(), tmp_path / "map")
    code, out, err = run_cli("map", "--svg", str(tmp_path / "no" / "such" / "x.svg"), "--path", str(folder))
    assert code == 1 and "cannot write the picture" in err
    raw = clone(big_map())
    find(raw, "areas", "paris")["city"]["capital"] = None
    write(raw, folder)
    code, out, err = run_cli("map", "--svg", str(tmp_path / "x.svg"), "--path", str(folder))
    assert code == 1 and err.startswith("eiapbem: error: map data: ")
    assert "eiapbem: hint: run 'eiapbem data check'" in err
