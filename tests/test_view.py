"""``eiapbem view`` without a browser: the token and the address, the documents the page reads (the CLI's
``--json`` forms, one source), orders through the client's operations with the CLI's refusals, the page's wait for
a change, the history of monthly saves and ``map --json``/``map --svg --save`` of a monthly save."""

from __future__ import annotations

import json
import shutil
import urllib.error
import urllib.request
from pathlib import Path

import pytest

import viewkit
from clikit import cli as run_cli


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """A hot-seat game at its first diplomacy phase (January 1805), with its monthly save."""
    return viewkit.make_game(tmp_path_factory.mktemp("viewgame") / "home", months=1)


@pytest.fixture
def home(made, tmp_path, monkeypatch):
    monkeypatch.setenv("EIAPBEM_TEST_SCRYPT", viewkit.WEAK)
    h = tmp_path / "home"
    shutil.copytree(made, h)
    return h


def _get(url, headers=None):
    req = urllib.request.Request(url, headers=headers or {})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, dict(r.headers), r.read()
    except urllib.error.HTTPError as err:
        return err.code, dict(err.headers), err.read()


def _post(url, body, ctype="application/json", headers=None):
    data = body if isinstance(body, bytes) else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, headers={"Content-Type": ctype, **(headers or {})}, method="POST")
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as err:
        return err.code, json.loads(err.read())


def _cli_json(home, *args):
    r = run_cli(home, *args, "--power", "FR", "--password", viewkit.pw("FR"))
    assert r.exit_code == 0, r.output
    return json.loads(r.output)


def _error(r) -> str:
    """What a refused in-process command says (its exception's sentence, or what it printed)."""
    return (r.stderr or "") + (str(r.exception) if r.exception is not None else "")


def test_every_request_without_the_token_is_refused(home):
    with viewkit.running(home, "FR") as srv:
        base = f"http://127.0.0.1:{srv.port}"
        for path in ("/", "/api/status", "/static/view.js", "/map.svg", f"/{srv.token[:-1]}{'y' if srv.token.endswith('x') else 'x'}/api/status",
                     f"/api/{srv.token}/status", f"/{srv.token.upper()}/api/status"):
            code, _, body = _get(base + path)
            assert code == 403, path
            assert b"needs the token" in body and b"corps" not in body
        assert _post(base + "/api/do/end-phase", {})[0] == 403
        # The right token under another name for the host (a page rebinding its own name to 127.0.0.1): refused.
        code, _, _ = _get(srv.url + "api/status", headers={"Host": f"evil.example:{srv.port}"})
        assert code == 403
        code, headers, body = _get(srv.url)
        assert code == 200 and b"<title>eiapbem view</title>" in body
        assert "default-src 'none'" in headers["Content-Security-Policy"] and headers["Referrer-Policy"] == "no-referrer"
        assert headers["Cache-Control"] == "no-store"
        # An order from another origin, or not as JSON, or too big: refused before it is read.
        assert _post(srv.url + "api/do/restart", {}, headers={"Origin": "http://evil.example"})[0] == 403
        assert _post(srv.url + "api/do/restart", b"{}", ctype="text/plain")[0] == 415
        assert _post(srv.url + "api/do/restart", b"{" + b" " * 70000 + b"}")[0] == 413
        assert _post(srv.url + "api/do/restart", b"not json")[0] == 400


def test_the_documents_are_the_clis_json_forms(home):
    with viewkit.running(home, "FR") as srv:
        def doc(name, **q):
            code, _, body = _get(srv.url + "api/" + name + ("?" + "&".join(f"{k}={v}" for k, v in q.items()) if q else ""))
            assert code == 200, body
            return json.loads(body)

        for p in ("FR", "AU", "GB"):
            assert doc("units", power=p) == _cli_json(home, "show", "units", p, "--json")
        status = doc("status")
        assert status == _cli_json(home, "status", "--json")
        assert doc("map") == _cli_json(home, "map", "--json")
        assert doc("area", id="strasbourg") == _cli_json(home, "show", "area", "strasbourg", "--json")
        assert doc("area", id="north-sea")["kind"] == "sea"
        assert doc("reach", unit="corps:FR:V") == _cli_json(home, "show", "reach", "corps:FR:V", "--json")
        assert doc("log") == _cli_json(home, "log", "-n", "100000", "--json")
        assert doc("economy") == _cli_json(home, "economy", "summary", "--json")
        assert doc("powers")["powers"][1] == _cli_json(home, "show", "power", "FR", "--json")
        assert doc("history") == _cli_json(home, "show", "history", "--json")
        assert [b["id"] for b in doc("battles")["battles"]] == [b["id"] for b in _cli_json(home, "battle", "report", "--json")]
        orders = doc("orders")
        assert orders["phase"] == "diplomacy" and "declare-war" in [o["command"] for o in orders["orders"]]
        assert "withdrawal" in orders["chits"] and "Battle chits (11.2.1)" in orders["answer_help"]
        help_words = " ".join(orders["answer_help"].split())  # the chits explained in answer --help's own words
        assert all(words in help_words for words in orders["chits"].values())
        # A refusal is the sentence the CLI prints.
        code, _, body = _get(srv.url + "api/unit?id=corps:XX:I")
        r = run_cli(home, "show", "unit", "corps:XX:I", "--power", "FR", "--password", viewkit.pw("FR"))
        assert code == 400 and json.loads(body)["error"] in _error(r)


def test_orders_go_through_the_clients_operations_with_the_clis_refusals(home):
    with viewkit.running(home, "FR") as srv:
        code, out = _post(srv.url + "api/do/order", {"kind": "land.move", "values": {"unit": "corps:FR:V", "path": "freiburg"}})
        r = run_cli(home, "land", "move", "--unit", "corps:FR:V", "--path", "freiburg", "--power", "FR",
                    "--password", viewkit.pw("FR"))
        assert code == 400 and r.exit_code != 0
        assert out["error"] == str(r.exception)  # the same sentence
        code, out = _post(srv.url + "api/do/order", {"kind": "diplomacy.declare-war", "values": {"target": "nowhere"}})
        assert code == 400 and out["error"]
        code, out = _post(srv.url + "api/do/order", {"kind": "diplomacy.commit", "values": {"digest": "00"}})
        assert code == 400 and "not an order" in out["error"]
        code, out = _post(srv.url + "api/do/order", {"kind": "diplomacy.declare-war", "values": {"target": "PR"}})
        assert code == 200, out
        assert "accepted" in out["events"][0]
        assert _cli_json(home, "status", "--json")["actions_taken"] == 1  # kept in the save, as by the CLI
        code, out = _post(srv.url + "api/do/restart", {})
        assert code == 200 and "took back 1 action(s)" in out["events"][0]
        assert _post(srv.url + "api/do/nothing", {})[0] == 400


def test_the_page_waits_for_a_change_made_elsewhere(home):
    with viewkit.running(home, "FR") as srv:
        v = srv.view
        before = v.version()
        assert v.changes(before, wait=0.3, step=0.1) == {"version": before}  # nothing changed: the wait ends
        r = run_cli(home, "diplomacy", "declare-war", "--target", "PR", "--power", "FR", "--password", viewkit.pw("FR"))
        assert r.exit_code == 0, r.output
        after = v.changes(before, wait=5, step=0.05)["version"]
        assert after != before
        code, _, body = _get(srv.url + "api/status")
        assert json.loads(body)["actions_taken"] == 1  # the session was opened again: the CLI's order is seen
        # An order from the page now is taken on top of the CLI's, never over it.
        code, out = _post(srv.url + "api/do/order", {"kind": "diplomacy.declare-war", "values": {"target": "RU"}})
        assert code == 200, out
        assert _cli_json(home, "status", "--json")["actions_taken"] == 2


def test_a_month_of_the_history_is_read_only(home):
    with viewkit.running(home, "FR") as srv:
        code, _, body = _get(srv.url + "api/months")
        assert json.loads(body)["months"] == ["1805-01"]
        code, _, body = _get(srv.url + "api/status?month=1805-01")
        assert code == 200 and json.loads(body)["date"] == "1805-01"
        code, _, body = _get(srv.url + "api/status?month=1799-01")
        assert code == 400 and b"no monthly save" in body
        month = srv.view.month("1805-01")
        with pytest.raises(Exception, match="not played"):
            month.end_phase()


def test_map_takes_a_monthly_save(home, tmp_path):
    out = tmp_path / "jan.svg"
    sav = Path("save") / f"{viewkit.GAME}_monthly_1805-01.sav"
    r = run_cli(home, "map", "--svg", str(out), "--save", str(sav), "--power", "FR", "--password", viewkit.pw("FR"))
    assert r.exit_code == 0, r.output + r.stderr
    assert "units" in r.output and out.read_text().startswith("<svg")
    assert f"{viewkit.GAME}, January 1805" in out.read_text()
    doc = _cli_json(home, "map", "--json", "--save", str(sav))
    assert doc["date"] == "1805-01" and doc["areas"]["paris"]["power"] == "FR"
    r = run_cli(home, "map", "--power", "FR", "--password", viewkit.pw("FR"))
    assert r.exit_code != 0 and "give --svg FILE" in _error(r)


def test_the_view_command_refuses_in_one_sentence(home):
    r = run_cli(home, "view", "--power", "XX", "--password", "x", "--no-browser")
    assert r.exit_code != 0 and "XX is not played from this folder" in _error(r)
    r = run_cli(home, "view", "--power", "FR", "--password", "wrong", "--no-browser")
    assert r.exit_code != 0 and "password" in _error(r)
