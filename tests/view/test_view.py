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


def _get_json(srv, name):
    code, _, body = _get(srv.url + "api/" + name)
    return code, json.loads(body)


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


def test_the_shipped_setup_is_loaded_as_the_cli_loads_it(tmp_path, monkeypatch):
    """The page's "Load the shipped setup" is ``eiapbem setup load default``: the same actions taken (5.2.2)."""
    import clikit

    monkeypatch.setenv("EIAPBEM_TEST_SCRYPT", viewkit.WEAK)
    a = clikit.new_game(tmp_path / "a")
    b = tmp_path / "b"
    shutil.copytree(a, b)
    first = _cli_json_as(a, "status", "--json", power="RU", pw="pw-RU")["turn_of"]
    with viewkit.running(a, first, game=clikit.GAME, password=f"pw-{first}") as srv:
        code, out = _post(srv.url + "api/do/setup", {"which": "elsewhere.setup"})
        assert code == 400 and "shipped setup only" in out["error"]
        code, out = _post(srv.url + "api/do/setup", {"which": "default"})
        assert code == 200 and "setup actions applied" in out["events"][0], out
        n = int(out["events"][0].split(": ")[1].split()[0])
        code, again = _post(srv.url + "api/do/setup", {})
        assert code == 400 and "already placed forces" in again["error"]
    r = run_cli(b, "setup", "load", "default", "--power", first, "--password", f"pw-{first}")
    assert r.exit_code == 0 and f"{first}: {n} setup actions applied" in r.output, r.output
    from eiapbem.client.session import Session

    taken = [[repr(x) for x in Session.open(h, clikit.GAME, first, f"pw-{first}").taken()] for h in (a, b)]
    assert taken[0] == taken[1] and len(taken[0]) == n > 10


def _cli_json_as(home, *args, power, pw):
    r = run_cli(home, *args, "--power", power, "--password", pw)
    assert r.exit_code == 0, r.output
    return json.loads(r.output)


def test_what_fog_of_war_and_sealed_orders_hide_stays_hidden(home):
    """4.1.1 Fog of War: the page's documents give an enemy's counters without their strength (the map's counter
    shows "?"); another power's orders of the simultaneous diplomacy phase change nothing the page reads."""
    from eiapbem.client.session import Session
    from eiapbem.host import admin
    from eiapbem.rules import admin as radmin

    admin.edit(Session.open(home, viewkit.GAME, "host", "pw-host"), [radmin.ChangeOption("fog_of_war", True)])
    with viewkit.running(home, "FR") as srv:
        def raw(name, **q):
            code, _, body = _get(srv.url + "api/" + name + ("?" + "&".join(f"{k}={v}" for k, v in q.items()) if q else ""))
            assert code == 200, body
            return body

        m = json.loads(raw("map"))
        assert m["fog_of_war"] is True
        au = [u for u in m["units"] if u["id"].startswith(("corps:AU:", "fleet:AU:"))]
        fr = [u for u in m["units"] if u["id"].startswith(("corps:FR:", "fleet:FR:"))]
        assert au and fr
        assert all(u["strength"] is None and u["hidden"] and "factors" not in u and "ships" not in u for u in au), au[:3]
        assert all(isinstance(u["strength"], int) and u["strength"] > 0 for u in fr)
        assert json.loads(raw("units", power="AU"))["units"] and b'"factors"' not in raw("units", power="AU")
        au_power = next(p for p in json.loads(raw("powers"))["powers"] if p["power"] == "AU")
        assert au_power["on_map"]["factors"] is None and au_power["hidden"] is True
        # Austria's sealed order (given at this computer, hot seat): Austria's own status counts it; what France's
        # page reads is what it was before.
        names = ("status", "log", "map", "orders", "battles", "powers", "economy")
        before = {n: raw(n) for n in names}
        v = srv.view.version()
        r = run_cli(home, "diplomacy", "declare-war", "--target", "PR", "--power", "AU", "--password", viewkit.pw("AU"))
        assert r.exit_code == 0, r.output
        assert srv.view.changes(v, wait=5, step=0.05)["version"] != v  # the page reloads ...
        assert _cli_json_as(home, "status", "--json", power="AU", pw=viewkit.pw("AU"))["actions_taken"] == 1
        assert {n: raw(n) for n in names} == before  # ... and sees nothing of it


def test_every_form_of_the_page_is_a_cli_command_with_the_same_fields():
    """One source for the orders (item 4): each phase's forms (``client/actionforms.catalogue``) are the commands
    'eiapbem GROUP COMMAND' (a setting of every phase, top level) with one option per field (a factors or ships
    field: one per type) and the same required fields."""
    import click

    from eiapbem.cli import main
    from eiapbem.cli.actions_cmd import GROUPS
    from eiapbem.client import actionforms
    from eiapbem.rules.model import Phase

    ctx = click.Context(main.cli)
    seen = ahead = 0
    for phase in Phase:
        group = main.cli.get_command(ctx, GROUPS[phase])
        for o in actionforms.catalogue(phase):
            where = main.cli if o["any_phase"] else group
            cmd = where.get_command(ctx, o["command"])
            assert cmd is not None, (phase, o["command"])
            # --next-month (a diplomacy order given for next month, sealed in the land file): the page's forms for next
            # month are the orders whose command takes it (``_orders``'s "next_month"), sent with ``next_month``
            assert o["next_month"] == any(p.name == "next_month" for p in cmd.params), (phase, o["command"])
            ahead += o["next_month"] and not o["any_phase"]  # a setting of every slot (13.9 skip) is counted once below
            # --even-if-short (a purchase the projection cannot pay) and --yes (a land attack's supply, said before)
            # answer the command's own question: the page gives the order and shows what the command would say
            opts = {p.name.removeprefix("f_"): p for p in cmd.params
                    if p.name not in ("game", "power", "password", "next_month", "even_if_short", "yes")}
            fields: dict[str, bool] = {}
            for f in o["fields"]:
                if f["kind"] in ("factors", "ships"):
                    fields.update({f"{f['name']}_{part}": False for part in f["parts"]})
                else:
                    fields[f["name"]] = f["required"]
            assert set(opts) == set(fields), (phase, o["command"])
            assert {n for n, r in fields.items() if r} == {n for n, p in opts.items() if p.required}, (phase, o["command"])
            seen += 1
    assert seen > 100
    dip = actionforms.catalogue(Phase.DIPLOMACY)
    # every diplomacy order, none of another phase; the 13.9 skip (any slot, a diplomacy order too) among them
    assert ahead + sum(o["any_phase"] and o["next_month"] for o in dip) == len(dip) > 15
    assert any(o["command"] == "skip" and o["next_month"] for o in dip)


def test_next_months_diplomacy_orders_are_given_and_sealed_as_by_the_cli(made, tmp_path, monkeypatch):
    """The CLI's ``diplomacy ... --next-month`` and ``end-phase --seal-diplomacy`` in the page: refused alike where
    they do not belong; in France's land slot the order waits in the save as the CLI's does, and End phase with the
    seal commits France to it (next month's diplomacy phase is then one round for France, 6.0)."""
    from eiapbem.client.session import Session
    from eiapbem.rules.model import Phase

    monkeypatch.setenv("EIAPBEM_TEST_SCRYPT", viewkit.WEAK)
    page, cli = tmp_path / "page", tmp_path / "cli"
    shutil.copytree(made, page)
    with viewkit.running(page, "FR") as srv:  # January's diplomacy phase: there is no "next month" yet to seal for
        code, out = _post(srv.url + "api/do/order", {"kind": "diplomacy.declare-war", "values": {"target": "PR"},
                                                      "next_month": True})
        r = run_cli(page, "diplomacy", "declare-war", "--target", "PR", "--next-month", "--power", "FR",
                    "--password", viewkit.pw("FR"))
        assert code == 400 and r.exit_code != 0 and out["error"] == str(r.exception), (out, r.output)
        code, out = _post(srv.url + "api/do/end-phase", {"seal_diplomacy": True})
        r = run_cli(page, "end-phase", "--seal-diplomacy", "--power", "FR", "--password", viewkit.pw("FR"))
        assert code == 400 and r.exit_code != 0 and out["error"] == str(r.exception), (out, r.output)
    viewkit.play_until(page, lambda st: st.slot.phase is Phase.LAND and st.slot.power == "FR")
    shutil.copytree(page, cli)
    with viewkit.running(page, "FR") as srv:
        code, doc = _get_json(srv, "orders")
        assert [o["kind"] for o in doc["next_month"]] == [o["kind"] for o in doc["next_month"] if o["next_month"]]
        assert "diplomacy.declare-war" in [o["kind"] for o in doc["next_month"]] and doc["next_month_given"] == 0
        code, out = _post(srv.url + "api/do/order", {"kind": "land.move", "values": {"unit": "corps:FR:V", "path": "x"},
                                                      "next_month": True})
        assert code == 400 and "not a diplomacy order" in out["error"]
        code, out = _post(srv.url + "api/do/order", {"kind": "diplomacy.declare-war", "values": {"target": "PR"},
                                                      "next_month": "yes"})
        assert code == 400 and "next_month is true or false" in out["error"]
        code, out = _post(srv.url + "api/do/order", {"kind": "diplomacy.declare-war", "values": {"target": "PR"},
                                                      "next_month": True})
        assert code == 200 and "given for February 1805's diplomacy phase (1 order for it so far)" in out["events"][0], out
        assert _get_json(srv, "orders")[1]["next_month_given"] == 1
        code, out = _post(srv.url + "api/do/end-phase", {"seal_diplomacy": True})
        assert code == 200 and "sealed its diplomacy orders for next month" in out["events"][1], out
    r = run_cli(cli, "diplomacy", "declare-war", "--target", "PR", "--next-month", "--power", "FR",
                "--password", viewkit.pw("FR"))
    assert r.exit_code == 0, r.output
    r = run_cli(cli, "end-phase", "--seal-diplomacy", "--yes", "--power", "FR", "--password", viewkit.pw("FR"))
    assert r.exit_code == 0, r.output  # --yes: the land slot's end forages a corps a depot could supply (10.3, 10.5)
    a, b = (Session.open(h, viewkit.GAME, "FR", viewkit.pw("FR")) for h in (page, cli))
    assert "FR" in a.state.order_sheet.commitments and "FR" in b.state.order_sheet.commitments
    # The same orders sealed (each with its own secret nonce, so the digests differ), the same slot in play next.
    assert a.meta.sealed["FR"].actions == b.meta.sealed["FR"].actions and a.meta.sealed["FR"].ahead
    assert a.state.slot == b.state.slot and not a.meta.ahead.get("FR")


def test_a_purchase_the_page_cannot_pay_is_refused_as_by_the_cli_unless_even_if_short(tmp_path):
    # 12.5: the page took a purchase that could not be paid with only a warning ("taken but will NOT be carried
    # out"); the CLI refuses it, nothing taken, unless --even-if-short (an ally's loan, 12.3). The page does alike.
    from dataclasses import replace

    from clikit import new_game

    from eiapbem.client.session import Session, open_identity
    from eiapbem.rules.model import POWERS, Date, Phase, Slot
    from eiapbem.rules.model.slot import ORDERS
    from eiapbem.core.errors import EiaError
    from eiapbem.view.app import View

    home = new_game(tmp_path)
    s = Session.open(home, "Cli", "FR", "pw-FR")
    s.data = replace(s.data, state=s.state.replace(date=Date(1805, 12), slot=Slot(Phase.ECONOMIC, ORDERS, None, POWERS)))
    s.save()
    view = View(home, "Cli", open_identity(home, "Cli", "FR", "pw-FR"))
    forms = {o["kind"]: o for o in view.read("orders", {})["orders"]}
    assert forms["economic.buy-army"]["purchase"] and [k for k, o in forms.items() if not o["purchase"]]
    out = view.act("order", {"kind": "economic.buy-army", "values": {"item": "infantry", "count": 1}})
    assert "accepted (1 order(s) so far" in out["events"][0], out
    big = {"kind": "economic.buy-army", "values": {"item": "guard", "count": 400}}
    with pytest.raises(EiaError, match=r"FR cannot pay buy-army: it needs \$.*nothing was taken") as err:
        view.act("order", big)
    assert "tick 'even if short' if an ally's loan this phase will pay it (12.3)" in err.value.hint
    assert len(Session.open(home, "Cli", "FR", "pw-FR").taken()) == 1
    out = view.act("order", {**big, "even_if_short": True})
    assert "is taken but will NOT be carried out as things stand" in out["events"][0], out
    assert len(Session.open(home, "Cli", "FR", "pw-FR").taken()) == 2

    # A purchase short of manpower, not money, is refused as the CLI refuses it: "too little manpower", never "cannot
    # pay" (which sent the player to his treasury), with the count that fits; a loan brings no manpower (12.3).
    s = Session.open(home, "Cli", "FR", "pw-FR")
    s.data = replace(s.data, state=s.state.with_power("FR", treasury=400, manpower=5))
    s.save()
    s.restart()
    view = View(home, "Cli", open_identity(home, "Cli", "FR", "pw-FR"))
    with pytest.raises(EiaError) as err:
        view.act("order", {"kind": "economic.buy-army", "values": {"item": "infantry", "count": 14}})
    assert str(err.value).startswith("FR has too little manpower for buy-army: it needs $42 and 28 manpower, FR has $")
    assert "cannot pay" not in str(err.value) and "the Economy panel" in str(err.value), err.value
    assert err.value.hint.startswith("buy-army with a count of ") and "a loan brings money, not manpower" in err.value.hint
    assert not Session.open(home, "Cli", "FR", "pw-FR").taken()
