"""``eiapbem rules run``: one case's result, a battle's readable report or JSON (issue 7 item 6)."""

import json

from paths import ROOT

CASES = ROOT / "tests" / "cases"


def test_rules_run_prints_the_naval_battle_report(run_cli):
    code, out, err = run_cli("rules", "run", str(CASES / "naval" / "9.4.4-battle-aftermath.toml"))
    assert code == 0, err
    # 9.2.4 (000:1246): France fires first, 6 British ships lost, then 8 French
    assert "Wind gauge to the defender (fires first)." in out
    assert "the attacker loses 6 ships" in out and "the defender loses 8 ships" in out
    assert "Political points: FR -3, GB +4." in out  # 9.4.4 (000:1286)


def test_rules_run_json_of_a_siege(run_cli):
    code, out, err = run_cli("rules", "run", "--json", str(CASES / "siege" / "11.4.1-assault-combat.toml"))
    assert code == 0, err
    result = json.loads(out)
    assert result["outcome"] == "captured" and result["political_status"] == {"AU": 1}  # 000:1994


def test_rules_run_refuses_a_folder(run_cli):
    code, out, err = run_cli("rules", "run", str(CASES))
    assert code != 0
    assert err.startswith("eiapbem: error:") and "give one case file" in err and "Traceback" not in err


def test_rules_run_says_no_wind_gauge_when_the_rolls_are_equal(run_cli, tmp_path):
    # 9.2.1 (000:1216): equal wind gauge numbers give no wind gauge and simultaneous fire; the line once read
    # "Wind gauge to the neither side".  The 9.4.4 battle with France's roll raised to Britain's 2 + 1 + 1 = 4.
    text = (CASES / "naval" / "9.4.4-battle-aftermath.toml").read_text()
    wind = '"naval/1805-10.bay-of-biscay.1/wind/defender" = '
    assert wind + "5" in text
    case = tmp_path / "equal-wind.toml"
    case.write_text(text.replace(wind + "5", wind + "4"))
    code, out, err = run_cli("rules", "run", str(case))
    assert "Traceback" not in err
    assert "Wind gauge: attacker 4, defender 4" in out
    assert "No wind gauge: the rolls are equal and fire is simultaneous (9.2.1)." in out
    assert "neither side" not in out and "fires first" not in out
