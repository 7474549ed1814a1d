"""--json on every command that prints state (issue 15 item 6): each prints one JSON document of docs/json.md's form."""

import json

import pytest

from clikit import cli, new_game
from paths import ROOT

RU = ("--power", "RU", "--password", "pw-RU")


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    home = new_game(tmp_path_factory.mktemp("json"))
    r = cli(home, "setup", "load", "default", *RU)
    assert r.exit_code == 0, r.output
    return home


def _json(home, *args):
    r = cli(home, *args, "--json")
    assert r.exit_code == 0, (args, r.output, r.exception)
    return json.loads(r.stdout)


def test_status_json_says_what_the_text_says(game):
    rec = _json(game, "status", *RU)
    assert rec["game"] == "Cli" and rec["phase"] == "setup" and rec["turn_of"] == "RU" and rec["date"] == "1805-01"
    assert rec["actions_taken"] == 34 and rec["to_do"] == [] and rec["waiting"][0] == {"power": "RU", "here": True,
                                                                                         "from": "at this computer"}
    text = cli(game, "status", *RU).stdout
    assert f"state {rec['state_hash'][:16]}" in text and "RU: 34 actions taken in this slot so far" in text


def test_show_json_records(game):
    area = _json(game, "show", "area", "kiev", *RU)
    assert area["id"] == "kiev" and area["nation"] == "RU" and any(u["id"] == "corps:RU:I" for u in area["units"])
    unit = _json(game, "show", "unit", "corps:RU:I", *RU)
    assert unit == {**unit, "kind": "corps", "site": "kiev", "strength": 15, "factors": {"infantry": 15}}
    power = _json(game, "show", "power", "RU", *RU)
    assert power["power"] == "RU" and power["on_map"]["corps"] > 0 and power["to_place"] == {"factors": {}, "ships": {}}
    pool = _json(game, "show", "pool", "RU", *RU)
    assert pool["power"] == "RU" and isinstance(pool["counters"]["RU"]["corps"], list) and pool["on_order"] == []


def test_show_units_filters_by_kind_and_area(game):
    every = _json(game, "show", "units", *RU)["units"]
    kinds = {u["kind"] for u in every}
    assert {"corps", "fleet", "leader"} <= kinds and all(u["nation"] == "RU" for u in every)
    fleets = _json(game, "show", "units", "--kind", "fleet", *RU)["units"]
    assert fleets and all(u["kind"] == "fleet" and u["strength"] == sum(u["ships"].values()) for u in fleets)
    kiev = _json(game, "show", "units", "--area", "kiev", *RU)["units"]
    assert {u["id"] for u in kiev} == {"corps:RU:I", "leader:RU:kutusov"}
    text = cli(game, "show", "units", "--kind", "corps", *RU).stdout
    assert "corps:RU:I" in text and "area:kiev" in text and "strength 15" in text and "fleet:" not in text


def test_show_reach_asks_the_movement_rules(game):
    from eiapbem.client.reach import corps_reach  # noqa: F401 - the module the command uses

    rec = _json(game, "show", "reach", "corps:RU:I", *RU)
    assert rec["kind"] == "corps" and rec["at"] == "kiev" and rec["allowance"] == 3 and rec["phase"] == "setup"
    by_area = {a["area"]: a for a in rec["areas"]}
    # 10.4.1: next-door clear areas cost 1; nothing beyond the corps' three movement points.
    assert by_area["zhitomir"]["cost"] == 1 and by_area["zhitomir"]["path"] == ["zhitomir"]
    assert all(1 <= a["cost"] <= 3 for a in rec["areas"]) and "kiev" not in by_area
    assert all(len(a["path"]) <= a["cost"] for a in rec["areas"])
    fleet = _json(game, "show", "reach", "fleet:RU:1", *RU)  # 8.4: seven points, out of the port through its box
    assert fleet["kind"] == "fleet" and fleet["at"] == "odessa" and fleet["allowance"] == 7
    by_place = {a["area"]: a for a in fleet["areas"]}
    assert by_place["black-sea-west"] == {"area": "black-sea-west", "cost": 1, "path": ["box:odessa", "black-sea-west"],
                                          "halts": None}
    assert all(a["path"][0] == "box:odessa" and a["cost"] <= 7 for a in fleet["areas"])


def test_log_admin_files_rules_tables_economy_json(game):
    assert _json(game, "log", *RU) == []
    adm = _json(game, "admin", "status", "--password", "pw-host")
    assert adm["host_functions"] is True and adm["waiting"][0]["power"] == "RU"
    head = _json(game, "files", "inspect", str(game / "commout" / "Cli_gamestart.pbm"))
    assert head["kind"] == "gamestart" and head["author"] == "host"
    cases = _json(game, "rules", "test", str(ROOT / "tests" / "cases"))
    assert cases["failed"] == 0 and cases["passed"] == len(cases["cases"]) > 0
    assert any(t["name"] for t in _json(game, "tables", "list"))
    eco = _json(game, "economy", "summary", "--scenario", "classic-1805")
    assert eco["scenario"] == "classic-1805" and eco["funds"]


def test_the_schema_names_every_json_command():
    doc = (ROOT / "docs" / "json.md").read_text()
    for cmd in ("eiapbem status", "eiapbem log", "eiapbem show area", "eiapbem show unit", "eiapbem show power",
                "eiapbem show pool", "eiapbem show units", "eiapbem show reach", "eiapbem admin status",
                "eiapbem economy summary", "eiapbem files inspect", "eiapbem tables", "eiapbem rules test",
                "eiapbem rules run", "eiapbem battle report", "eiapbem data check"):
        assert f"`{cmd}" in doc, cmd


def test_rules_test_counts_a_raising_case_as_one_failure_and_goes_on(tmp_path, monkeypatch, capsys):
    import shutil

    from eiapbem.cli import rules_cmd

    cases = sorted((ROOT / "tests" / "cases").rglob("*.toml"))[:2]
    for i, c in enumerate(cases):
        shutil.copy(c, tmp_path / f"{i}-{c.name}")
    real = rules_cmd.run_case
    first = cases[0].read_text()

    def run_case(case, ctx):
        if case.path.endswith(f"0-{cases[0].name}"):
            raise ZeroDivisionError("a bug in a rule")
        return real(case, ctx)

    monkeypatch.setattr(rules_cmd, "run_case", run_case)
    r = cli(tmp_path, "rules", "test", str(tmp_path))
    assert first and "the case raised ZeroDivisionError: a bug in a rule" in r.stdout
    assert "rules cases: 1 passed, 1 failed" in r.stdout
    from eiapbem.cli import main

    assert main.run(["rules", "test", str(tmp_path)]) == 1  # the exit status of 'eiapbem rules test'
    assert main.run(["rules", "test", str(tmp_path / f"1-{cases[1].name}")]) == 0
