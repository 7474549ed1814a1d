"""The CLI frame: --help everywhere, errors as one sentence on stderr with a non-zero exit."""

import pytest

pytestmark = pytest.mark.slow


def test_help_lists_the_groups(run_cli):
    code, out, err = run_cli("--help")
    assert code == 0
    assert "tables" in out and "rules" in out


def test_unknown_chart_is_one_sentence_no_traceback(run_cli):
    code, out, err = run_cli("tables", "show", "no-such-chart")
    assert code != 0
    assert err.startswith("eiapbem: error: there is no chart called 'no-such-chart'")
    assert "Traceback" not in err


def test_bad_option_exits_2_with_hint(run_cli):
    code, out, err = run_cli("tables", "show", "--bogus")
    assert code == 2
    assert "eiapbem: error:" in err and "Traceback" not in err


def test_missing_case_path_is_refused(run_cli, tmp_path):
    code, out, err = run_cli("rules", "test", str(tmp_path / "nowhere"))
    assert code == 1
    assert "no such case file or folder" in err
