"""Every registered chart prints, as text and as JSON without floats (the real command)."""

import json

import pytest

from eiapbem.rules.tables import all_tables
from paths import CASES

pytestmark = pytest.mark.slow

OURS = {
    "minor-countries", "victory-conditions", "natural-alliance", "political-points", "status-modifiers",
    "purchase-cost", "spanish-gold", "victory-levels", "naval-combat", "naval-wind-interception",
    "naval-transport", "national-morale", "movement", "intrinsic-ratings",
}


def _no_float(x):
    if isinstance(x, float):
        return False
    if isinstance(x, dict):
        return all(_no_float(v) for v in x.values())
    if isinstance(x, list):
        return all(_no_float(v) for v in x)
    return True


def test_show_all_prints_every_table(run_cli):
    names = set(all_tables())
    assert OURS <= names
    code, out, err = run_cli("tables", "show", "--all")
    assert code == 0, err
    for fn in all_tables().values():
        assert fn().title in out
    assert "Morroco" in out and "* if the attempting power is not Spain" in out  # 000:2876, 000:2908


def test_show_all_json_is_valid_and_has_no_float(run_cli):
    code, out, err = run_cli("tables", "show", "--all", "--json")
    assert code == 0, err
    objs = json.loads(out)
    assert {o["name"] for o in objs} == set(all_tables())
    assert _no_float(objs)
    gold = next(o for o in objs if o["name"] == "spanish-gold")
    assert gold["rows"][0][1:] == [5, 10, 15, 20, 20, 25, 25, 30, 35, 40, 40]  # 000:2975


def test_rules_cases_pass_via_cli(run_cli, tmp_path):

    cases = CASES
    code, out, err = run_cli("rules", "test", str(cases))
    assert code == 0, out + err
    assert " 0 failed" in out
