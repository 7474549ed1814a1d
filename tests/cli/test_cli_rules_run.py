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
