"""``eiapbem view`` in a real browser: Debian's Chromium (``/usr/bin/chromium``, installed by ``.ci/run``) driven by
Playwright, which never downloads a browser of its own.

A two-month hot-seat game is opened as France: the counters are those of ``show units --json``, an area's info box
that of ``show area --json``; a corps clicked
highlights the areas of ``show reach --json`` (4.1.2 Show Possible Moves); war is declared with the diplomacy form,
factors are transferred with the reinforcement form, the phases are ended with
the page's button, the corps is moved by clicking the map, attacks, and the battle's question is answered with
its buttons (the host's logged edit puts the enemy next to it first, so the battle is a field battle), and the
battle's report is the one 'battle report' prints.  The same orders given with the CLI in a copy of the folder make a turn file with the same state
hash.  A busy month (many stacks in the Low Countries and the Rhineland, placed by the host's logged edits) is
photographed, and no two counters overlap there.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

import viewkit
from clikit import cli as run_cli
from eiapbem.rules import admin as radmin
from eiapbem.rules.model import Factors, Location, LocationKind

pytestmark = pytest.mark.slow

CHROMIUM = "/usr/bin/chromium"
#: Chromium as root in a closed network (the machine has no other).
ARGS = ["--no-sandbox", "--headless", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """The two-month game: at February 1805's diplomacy phase, with the monthly saves of January and February; every
    reinforcement slot is played (the full pace), so France has one to give an order in."""
    return viewkit.make_game(tmp_path_factory.mktemp("browsergame") / "home", months=2, full_pace=True)


@pytest.fixture(scope="module")
def browser(tmp_path_factory):
    if not Path(CHROMIUM).exists():
        pytest.skip("Debian's chromium is not installed (.ci/run installs it)")
    sync_api = pytest.importorskip("playwright.sync_api")
    profile = tmp_path_factory.mktemp("chromium-profile")
    with sync_api.sync_playwright() as p:
        # A fresh profile of its own (--user-data-dir): nothing of another run is read.
        b = p.chromium.launch_persistent_context(str(profile), executable_path=CHROMIUM, args=ARGS,
                                                 viewport={"width": 1500, "height": 950})
        yield b
        b.close()


@pytest.fixture
def homes(made, tmp_path, monkeypatch):
    """The game twice: ``A`` played through the page, ``B`` through the CLI."""
    monkeypatch.setenv("EIAPBEM_TEST_SCRYPT", viewkit.WEAK)
    out = {}
    for k in ("A", "B"):
        out[k] = tmp_path / k
        shutil.copytree(made, out[k])
    return out


def _cli(home, *args, power="FR"):
    r = run_cli(home, *args, "--power", power, "--password", viewkit.pw(power))
    assert r.exit_code == 0, (args, r.output, r.exception)
    return r.output


def _open(browser, url):
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.set_default_timeout(30000)
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']", timeout=60000)
    return page, errors


def _counters(page):
    return page.evaluate("""() => Array.from(document.querySelectorAll('#counters g.counter')).map((g) => ({
        place: g.dataset.place, nation: g.dataset.nation, strength: g.dataset.strength, units: g.dataset.units.split(' '),
        box: (({x, y, width, height}) => ({x, y, width, height}))(g.querySelector('rect.body').getBoundingClientRect())}))""")


def _wait_slot(page, slot):
    page.wait_for_function(f"() => EV.docs.status && EV.docs.status.slot === {json.dumps(slot)}", timeout=60000)


def _say(page):
    return page.inner_text("#message")


def _clear(page):
    """Forget the page's last message, so a wait sees the next one."""
    page.evaluate("() => EV.say('')")


def _end_phase(page):
    _clear(page)
    page.click("#tabs button[data-tab='status']")
    page.click("#end-phase-btn")
    page.wait_for_selector("#dialog:not([hidden])")
    shown = page.inner_text("#dialog-body")
    page.click("#dialog-ok")
    _wait_message(page, "ended its slot")
    return shown


def _wait_message(page, text):
    """Wait for the page's message to say ``text``; a refusal shown instead fails with its sentence."""
    try:
        page.wait_for_function(f"() => {{ const t = document.getElementById('message').textContent;"
                               f" return t.includes({json.dumps(text)}) || t.includes('eiapbem: error'); }}",
                               timeout=90000)
    except Exception as err:  # the page said something else, or nothing: say what
        raise AssertionError(f"waited for {text!r}; the page says {page.inner_text('#message')!r}") from err
    said = page.inner_text("#message")
    assert text in said, said


def _place_of(rec, by_id):
    if rec["where"] == "aboard":
        return _place_of(by_id[rec["site"]], by_id)
    return ("box:" + rec["site"]) if rec["where"] == "blockade" else rec["site"]


def _taken(home):
    """France's orders taken so far in the slot, as its save keeps them."""
    from eiapbem.client.session import Session

    return [type(a).__name__ + repr(a) for a in Session.open(home, viewkit.GAME, "FR", viewkit.pw("FR")).taken()]


def _fr_slots(home, page, before_end=None):
    """Play on to France's land slot: the other powers end their slots, France ends its own with the page
    (``before_end(state)`` first, when given)."""
    from eiapbem.client.session import Session
    from eiapbem.rules.model import Phase

    while True:
        viewkit.play_until(home, lambda st: st.slot.phase is Phase.LAND and st.slot.power == "FR", skip=("FR",))
        ru = Session.open(home, viewkit.GAME, "RU", viewkit.pw("RU"))
        st = ru.state
        if st.slot.phase is Phase.LAND and st.slot.power == "FR":
            return st
        assert "FR" in [p for p, _ in ru.awaited()], st.slot.key(st.date)
        _wait_slot(page, st.slot.key(st.date))  # the page reloaded by itself
        if before_end is not None:
            before_end(st)
        _end_phase(page)


def _host_edit(home: Path, acts: list) -> None:
    from eiapbem.client.session import Session
    from eiapbem.host import admin

    admin.edit(Session.open(home, viewkit.GAME, "host", "pw-host"), acts)


def _turn_body(path: Path, home: Path):
    from eiapbem.client import session
    from eiapbem.pbem import envelope, files

    ident = session.open_identity(home, viewkit.GAME, "RU", viewkit.pw("RU"))
    return files._open_for(envelope.parse(path.read_bytes(), path.name), [ident], path.name)


def test_a_month_played_through_the_page_is_the_month_the_cli_plays(browser, homes):
    a, b = homes["A"], homes["B"]
    with viewkit.running(a, "FR") as srv:
        page, errors = _open(browser, srv.url)

        # The counters are the stacks of 'show units --json': every unit on the map in one counter at its place,
        # each counter's strength the sum of its units'.
        counters = _counters(page)
        where = {u: c for c in counters for u in c["units"]}
        seen = 0
        for p in ("AU", "FR", "GB", "PR", "RU", "SP", "TU"):
            recs = [r for r in json.loads(_cli(a, "show", "units", p, "--json"))["units"] if r["kind"] != "leader"]
            by_id = {r["id"]: r for r in recs}
            for r in recs:
                c = where[r["id"]]
                assert c["place"] == _place_of(r, by_id) and c["nation"] == r["nation"], (r, c)
                seen += 1
            for c in {id(where[r["id"]]): where[r["id"]] for r in recs}.values():
                assert int(c["strength"]) == sum(by_id[u]["strength"] for u in c["units"]), c
        assert seen > 60

        # Hovering an area shows its info box: 'show area --json' as the page writes it.
        page.dispatch_event("path[data-area='strasbourg']", "mouseenter", {"clientX": 400, "clientY": 400})
        page.wait_for_selector("#infobox:not([hidden])")
        info = page.inner_text("#infobox")
        area = json.loads(_cli(a, "show", "area", "strasbourg", "--json"))
        assert f"{area['name']} (strasbourg)" in info and f"terrain {area['terrain']}, forage {area['forage']}" in info
        assert area["units"] and all(u["id"] in info for u in area["units"])
        page.dispatch_event("path[data-area='strasbourg']", "mouseleave")

        # Declare war with the diplomacy form; end the phase (the confirmation lists what is still to do).
        page.click("#tabs button[data-tab='orders']")
        page.click("details[data-order='diplomacy.declare-war'] summary")
        page.fill("#f-diplomacy\\.declare-war-target", "PR")
        _clear(page)
        page.click("button[data-submit='diplomacy.declare-war']")
        _wait_message(page, "accepted")
        _cli(b, "diplomacy", "declare-war", "--target", "PR")
        assert _taken(a) == _taken(b)  # the page's order is the CLI's
        confirm = _end_phase(page)
        assert "Nothing is left to do" in confirm or "Still to do" in confirm

        # The others play; the page reloads by itself; France ends its slots with the page's button up to its land slot.
        # In its reinforcement slot it transfers a factor to Strasbourg's garrison with the order's form, and the
        # CLI does the same in a copy of the folder: the same order is taken.
        reinforced = []

        def reinforce(st):
            from eiapbem.rules.model import Phase

            if st.slot.phase is not Phase.REINFORCEMENT:
                return
            c = b.parent / "C"
            shutil.copytree(a, c)
            page.click("#tabs button[data-tab='orders']")
            page.click("details[data-order='reinforcement.transfer-factors'] summary")
            page.fill("#f-reinforcement\\.transfer-factors-source", "corps:FR:V")
            page.fill("#f-reinforcement\\.transfer-factors-target", "garrison:FR:city:strasbourg")
            page.fill("#f-reinforcement\\.transfer-factors-infantry", "1")
            _clear(page)
            page.click("button[data-submit='reinforcement.transfer-factors']")
            page.wait_for_function("() => document.getElementById('message').textContent.trim() !== ''", timeout=60000)
            assert "error" not in _say(page), _say(page)
            _cli(c, "reinforce", "transfer-factors", "--source", "corps:FR:V", "--target", "garrison:FR:city:strasbourg",
                 "--infantry", "1")
            assert _taken(a) == _taken(c) and len(_taken(a)) == 1
            reinforced.append(_say(page))

        st = _fr_slots(a, page, reinforce)
        assert reinforced, "France had no reinforcement slot"
        _wait_slot(page, st.slot.key(st.date))
        assert "PR" in st.powers["FR"].wars
        # The host (a logged edit, 4.2.8) puts an Austrian corps of 10 factors in Freiburg, next to Strasbourg, so
        # the battle is a field battle whatever the dice of the march (the page shows it by itself).
        _host_edit(a, [radmin.PlaceUnit("corps:AU:II", Location(LocationKind.AREA, "freiburg")),
                       radmin.EditUnit("corps:AU:II", factors=Factors(infantry=8, cavalry=2))])
        page.wait_for_selector("#counters g.counter[data-place='freiburg'][data-nation='AU']", timeout=60000)
        # The CLI plays the land slot in a copy of the folder as it is now (the dice of a file hang on the hash of
        # the file before it, so the two folders must part here).
        shutil.rmtree(b)
        shutil.copytree(a, b)

        # Click the French counter at Strasbourg: its corps' reach is highlighted, as 'show reach --json' gives it.
        page.click("#counters g.counter[data-place='strasbourg'][data-nation='FR']")
        if not page.query_selector("body[data-selected='corps:FR:V']"):
            page.click("#stackbox li[data-unit='corps:FR:V']")
        page.wait_for_selector("body[data-selected='corps:FR:V']")
        page.wait_for_selector("#reach [data-reach]")
        shown = page.evaluate("() => Array.from(document.querySelectorAll('#reach [data-reach]')).map((e) => [e.dataset.reach, Number(e.dataset.cost)])")
        reach = json.loads(_cli(a, "show", "reach", "corps:FR:V", "--json"))
        assert sorted(map(tuple, shown)) == sorted((r["area"], r["cost"]) for r in reach["areas"])

        # Move it by clicking the highlighted Freiburg, then Move.
        page.dispatch_event("path[data-area='freiburg']", "click")
        page.wait_for_selector("#movebox:not([hidden])")
        assert "path freiburg" in page.inner_text("#movebox")
        _clear(page)
        page.click("#move-go")
        _wait_message(page, "moves to freiburg")
        page.wait_for_selector("body:not([data-selected])")  # the page has read the game again after the move
        _cli(b, "land", "move", "--unit", "corps:FR:V", "--path", "freiburg")

        # Attack: a click on Freiburg offers the orders that take a place; the attack form has it filled in.
        page.dispatch_event("path[data-area='freiburg']", "click")
        form = page.locator("#orders-here details[data-order='land.attack']")
        form.wait_for(state="attached")
        assert form.locator("input").input_value() == "freiburg"
        _clear(page)
        form.locator("button[data-submit='land.attack']").dispatch_event("click")
        _wait_message(page, "Field combat in freiburg")
        _cli(b, "land", "attack", "--area", "freiburg", "--yes")

        # The battle's questions: answered with their buttons, the chits explained as 'answer --help' does.
        answers = []
        for _ in range(20):
            page.click("#tabs button[data-tab='status']")
            q = page.query_selector(".question")
            if q is None:
                break
            decision = q.get_attribute("data-question")
            text = q.inner_text()
            buttons = q.query_selector_all("button[data-choice]")
            choices = [x.get_attribute("data-choice") for x in buttons]
            pick = "escalated-assault" if "escalated-assault" in choices else choices[0]
            if "escalated-assault" in choices:
                assert "bloody, weak against defend" in text and "cautious, good against defend" in text
            answers.append((decision, pick))
            page.locator(f".question[data-question='{decision}'] button[data-choice='{pick}']").click()
            page.wait_for_function(f"() => !document.querySelector(\".question[data-question='{decision}']\")", timeout=60000)
        assert answers, "the battle asked France nothing"
        for decision, pick in answers:
            _cli(b, "answer", decision, pick)

        # The battle in the Battles panel: its report, round by round, as 'battle report ID' prints it.
        fought = [x["id"] for x in json.loads(_cli(a, "battle", "report", "--json")) if x["what"] == "land"]
        assert fought
        page.click("#tabs button[data-tab='battles']")
        page.click(f"#panel-battles a[data-battle='{fought[-1]}']")
        shown = page.locator(f"pre.battle-text[data-battle='{fought[-1]}']")
        shown.wait_for()
        assert shown.text_content().strip() == _cli(a, "battle", "report", fought[-1]).strip()
        # The defender may withdraw before combat (11.2.10, a strategic rating roll): then the report says so instead.
        text = shown.text_content()
        assert ("Round" in text or "round" in text) or ("withdrew" in text and "no combat" in text)

        confirm = _end_phase(page)
        assert "Still to do" in confirm or "Nothing is left" in confirm
        _cli(b, "end-phase", "--yes")

        # A request without the token is refused, from the page's own browser too.
        r = page.request.get(f"http://127.0.0.1:{srv.port}/api/status")
        assert r.status == 403
        assert errors == []
        page.close()

    # The turn files the page and the CLI wrote: the same actions, the same state after.
    name = f"{viewkit.GAME}_1805-02_land_turn_FR.pbm"
    fa, fb = _turn_body(a / "commout" / name, a), _turn_body(b / "commout" / name, b)
    assert fa["after"] == fb["after"] and fa["actions"] == fb["actions"] and fa["dice"] == fb["dice"]
    sa = json.loads(_cli(a, "status", "--json"))["state_hash"]
    assert sa == json.loads(_cli(b, "status", "--json"))["state_hash"]


def test_a_form_half_filled_outlives_the_page_reading_the_game_again(browser, homes):
    """The page reads the game again whenever it changes on disk; the Orders panel is then drawn again, and the form
    the player had open stays open with what was typed in it. After the player's own order the forms start afresh."""
    with viewkit.running(homes["A"], "FR") as srv:
        page, errors = _open(browser, srv.url)
        page.click("#tabs button[data-tab='orders']")
        page.click("details[data-order='diplomacy.declare-war']:not([data-next-month]) summary")
        page.fill("#f-diplomacy\\.declare-war-target", "PR")
        page.evaluate("() => EV.refresh()")
        form = page.locator("details[data-order='diplomacy.declare-war']:not([data-next-month])")
        assert form.get_attribute("open") is not None
        assert page.input_value("#f-diplomacy\\.declare-war-target") == "PR"
        page.evaluate("() => { EV.acted = true; return EV.refresh(); }")  # what EV.run does after an order is taken
        assert form.get_attribute("open") is None
        assert page.input_value("#f-diplomacy\\.declare-war-target") == ""
        assert not errors, errors


def test_next_months_diplomacy_is_given_and_sealed_through_the_page(browser, homes):
    """The CLI's ``diplomacy declare-war --next-month`` and ``end-phase --seal-diplomacy`` by clicks: in France's land
    slot the Orders panel offers next month's diplomacy orders, and End phase with the seal box commits France."""
    from eiapbem.client.session import Session
    from eiapbem.rules.model import Phase

    a = homes["A"]
    viewkit.play_until(a, lambda st: st.slot.phase is Phase.LAND and st.slot.power == "FR")
    with viewkit.running(a, "FR") as srv:
        page, errors = _open(browser, srv.url)
        page.click("#tabs button[data-tab='orders']")
        page.wait_for_selector("#next-month")
        page.click("details[data-next-month='1'][data-order='diplomacy.declare-war'] summary")
        page.fill("#f-next-diplomacy\\.declare-war-target", "PR")
        _clear(page)
        page.click("button[data-submit='next-month:diplomacy.declare-war']")
        _wait_message(page, "given for March 1805's diplomacy phase (1 order for it so far)")
        page.click("#tabs button[data-tab='status']")
        page.check("#seal-diplomacy")
        _clear(page)
        page.click("#end-phase-btn")
        page.wait_for_selector("#dialog:not([hidden])")
        page.click("#dialog-ok")
        _wait_message(page, "sealed its diplomacy orders for next month")
        assert errors == []
        page.close()
    s = Session.open(a, viewkit.GAME, "FR", viewkit.pw("FR"))
    assert "FR" in s.state.order_sheet.commitments and s.meta.sealed["FR"].ahead
    assert "diplomacy.declare-war" in repr(s.meta.sealed["FR"].actions)


#: The busy month: corps from the counter pools placed in the Low Countries and the Rhineland by the host.
BUSY_AREAS = ("amsterdam", "antwerp", "brussels", "liege", "julich", "berg", "luxembourg", "metz", "nassau",
              "palatinate", "darmstadt", "karlsruhe", "strasbourg", "lille", "ghent", "groningen", "munster")


def _make_busy(home: Path) -> int:
    from eiapbem.client.session import Session
    from eiapbem.host import admin
    from eiapbem.rules import admin as radmin
    from eiapbem.rules.model import POOL, Corps, Factors, Fleet, Location, LocationKind, Ships

    s = Session.open(home, viewkit.GAME, "host", "pw-host")
    st = s.state
    pool = sorted(uid for uid, u in st.units.items() if u.location == POOL and isinstance(u, Corps))
    fleets = sorted(uid for uid, u in st.units.items() if u.location == POOL and isinstance(u, Fleet))
    acts: list = []
    for n, uid in enumerate(pool[:60]):
        area = BUSY_AREAS[n % len(BUSY_AREAS)]
        acts.append(radmin.PlaceUnit(uid, Location(LocationKind.AREA, area)))
        acts.append(radmin.EditUnit(uid, factors=Factors(infantry=2 + n % 9, cavalry=n % 3)))
    for n, uid in enumerate(fleets[:6]):
        place = Location(LocationKind.SEA, "north-sea") if n % 2 else Location(LocationKind.BLOCKADE, "amsterdam")
        acts.append(radmin.PlaceUnit(uid, place))
        acts.append(radmin.EditUnit(uid, ships=Ships(heavy=3 + n, light=1)))
    admin.edit(s, acts)
    return len(acts) // 2


def test_a_busy_month_is_readable(browser, homes):
    a = homes["A"]
    placed = _make_busy(a)
    assert placed >= 40
    shots = Path(os.environ.get("EIAPBEM_VIEW_SHOTS") or (a.parent / "shots"))
    shots.mkdir(parents=True, exist_ok=True)
    with viewkit.running(a, "FR") as srv:
        page, errors = _open(browser, srv.url)
        counters = _counters(page)
        busy = [c for c in counters if c["place"] in BUSY_AREAS]
        assert len(busy) >= 40
        crowded = max(sum(1 for c in busy if c["place"] == area) for area in BUSY_AREAS)
        assert crowded >= 4
        for name, (x, y, k) in {"low-countries": (340, 405, 3.0), "rhineland": (385, 440, 3.0),
                                "region": (360, 420, 1.6)}.items():
            page.evaluate(f"() => EV.map.focus({x}, {y}, {k})")
            page.wait_for_timeout(300)
            page.screenshot(path=str(shots / f"busy-{name}.png"))
            boxes = [c["box"] for c in _counters(page) if c["place"] in BUSY_AREAS]
            for i, p in enumerate(boxes):  # every counter readable: none covers another
                for q in boxes[i + 1:]:
                    assert (p["x"] + p["width"] <= q["x"] + 0.5 or q["x"] + q["width"] <= p["x"] + 0.5
                            or p["y"] + p["height"] <= q["y"] + 0.5 or q["y"] + q["height"] <= p["y"] + 0.5), (name, p, q)
        # The log, filtered by power and phase: the lines of 'log --json' of the host's acts in this diplomacy phase
        # (the placements), newest first.
        page.click("#tabs button[data-tab='log']")
        page.select_option("#log-power", "host")
        page.select_option("#log-phase", "diplomacy")
        lines = json.loads(_cli(a, "log", "-n", "100000", "--json"))
        want = [e["text"] for e in lines if e["author"] == "host" and e["slot"].split("/")[1] == "diplomacy"]
        shown = page.eval_on_selector_all("#log-lines .logline", "(ls) => ls.map((l) => l.lastChild.textContent)")
        assert len(want) >= 2 * placed and shown == want[::-1]
        page.select_option("#log-power", "AU")
        page.select_option("#log-phase", "")
        # A power's lines: those it wrote and those of its slots (the game's own lines there, a slot passed by itself).
        shown = page.eval_on_selector_all("#log-lines .logline", "(ls) => ls.map((l) => [l.dataset.author, "
                                          "l.firstChild.textContent])")
        want = [e for e in lines if e["author"] == "AU" or e["slot"].split("/")[-1] == "AU"]
        assert shown and len(shown) == len(want)
        assert all(a == "AU" or slot.strip().rstrip("]").endswith("/AU") for a, slot in shown), shown
        page.click("#tabs button[data-tab='status']")
        # The history slider: January's monthly save, read only, without the host's placements; then now again.
        page.evaluate("() => EV.map.fit()")
        page.evaluate("() => { const h = document.getElementById('history'); h.value = '0';"
                      " h.dispatchEvent(new Event('input')); }")
        page.wait_for_function("() => EV.docs.status && EV.docs.status.date === '1805-01'", timeout=60000)
        assert page.inner_text("#live") == "history (read only)"
        assert "read only" in page.inner_text("#panel-status")
        assert len([c for c in _counters(page) if c["place"] in BUSY_AREAS]) < len(busy)
        page.screenshot(path=str(shots / "history-1805-01.png"))
        page.evaluate("() => { const h = document.getElementById('history'); h.value = h.max;"
                      " h.dispatchEvent(new Event('input')); }")
        page.wait_for_function("() => EV.docs.status && EV.docs.status.date === '1805-02'", timeout=60000)
        assert page.inner_text("#live") == "live"
        # A stack opens into its units on a click.
        page.click(f"#counters g.counter[data-place='{BUSY_AREAS[0]}']")
        page.wait_for_selector("#stackbox:not([hidden]) li[data-unit]")
        assert errors == []
        page.close()


#: The by-email game: France's new player in the page (a client of the game), Austria's by email with the CLI (the
#: host), the other five powers the computer in both folders.
PBEM_GAME = "Pressburg"


def _pbem_cli(home: Path, *args: str) -> str:
    from sevenfolders import pw

    r = run_cli(home, *args, "--game", PBEM_GAME, "--power", "AU", "--password", pw("AU"))
    assert r.exit_code == 0, (args, r.output, r.stderr, r.exception)
    return r.output


def _mail(src: Path, dst: Path, sent: set[str]) -> list[str]:
    """Every file ``src`` has written to send (its ``commout/*.pbm``) and not sent yet, copied into ``dst/commin``:
    what email does."""
    new = []
    for f in sorted((src / "commout").glob("*.pbm")):
        if f.name not in sent:
            sent.add(f.name)
            (dst / "commin").mkdir(exist_ok=True)
            shutil.copy(f, dst / "commin" / f.name)
            new.append(f.name)
    return new


def test_a_new_player_plays_a_month_in_the_page_against_an_email_opponent_at_the_cli(browser, tmp_path, monkeypatch):
    """France's player knows only the page: the shipped setup, the Load files and End phase buttons, a march by
    clicks, the battle questions' buttons.  Austria's player (the host) plays with the CLI.  Their files travel
    between the two folders as email would; at the end of the month both folders hold the same state."""
    from sevenfolders import SCRYPT, new_by_api, pw

    from eiapbem.client.session import TEST_SCRYPT_ENV, Session
    from eiapbem.pbem.email import Person

    monkeypatch.setenv(TEST_SCRYPT_ENV, SCRYPT)
    fr, au = tmp_path / "fr", tmp_path / "au"
    types = {"AU": "host", "FR": "client", "GB": "ai-medium", "PR": "ai-medium", "RU": "ai-medium", "SP": "ai-medium",
             "TU": "ai-medium"}
    new_by_api({"AU": au, "FR": fr}, types, game=PBEM_GAME, host=Person("Host", "au@example.org"))
    sent_fr: set[str] = set()
    sent_au: set[str] = set()
    marched = False
    with viewkit.running(fr, "FR", game=PBEM_GAME, password=pw("FR")) as srv:
        page, errors = _open(browser, srv.url)
        page.click("#tabs button[data-tab='status']")
        for _ in range(80):
            au_st = json.loads(_pbem_cli(au, "status", "--json"))
            if au_st["date"] == "1805-02" and au_st["phase"] == "diplomacy":
                break
            page.click("#tabs button[data-tab='status']")
            st = page.evaluate("() => EV.docs.status")
            mine = [w["power"] for w in st["waiting"] if w["here"]]
            questions = page.query_selector_all(".question")
            if questions:  # a battle asks France: the first choice of each question, by its button
                q = questions[0]
                decision = q.get_attribute("data-question")
                _clear(page)
                q.query_selector("button[data-choice]").click()
                page.wait_for_function(f"() => !document.querySelector(\".question[data-question='{decision}']\")",
                                       timeout=60000)
            elif "FR" in mine:
                if st["phase"] == "setup":
                    _clear(page)
                    page.click("#setup-default-btn")
                    _wait_message(page, "setup actions applied")
                if st["phase"] == "land" and not marched:  # a march by clicks: a French corps to its dearest reach
                    c = next(c for c in _counters(page) if c["nation"] == "FR" and any(u.startswith("corps:FR:") for u in c["units"]))
                    corps = next(u for u in c["units"] if u.startswith("corps:FR:"))
                    page.click(f"#counters g.counter[data-place='{c['place']}'][data-nation='FR']")
                    page.click(f"#stackbox li[data-unit='{corps}']")
                    page.wait_for_selector(f"body[data-selected='{corps}']")
                    page.wait_for_selector("#reach [data-reach]")
                    far = page.evaluate("() => Array.from(document.querySelectorAll('#reach [data-reach]'))"
                                        ".map((e) => [e.dataset.reach, Number(e.dataset.cost)]).sort((a, b) => b[1] - a[1])[0][0]")
                    page.dispatch_event(f"path[data-area='{far}']", "click")
                    page.wait_for_selector("#movebox:not([hidden])")
                    _clear(page)
                    page.click("#move-go")
                    _wait_message(page, f"moves to {far}")
                    page.wait_for_selector("body:not([data-selected])")
                    marched = True
                _end_phase(page)
            elif "AU" in [w["power"] for w in au_st["waiting"] if w["here"]] or au_st["pending"]:
                for d in au_st["pending"]:
                    if d["power"] == "AU":
                        _pbem_cli(au, "answer", d["id"], d["options"][0])
                if "AU" in [w["power"] for w in au_st["waiting"] if w["here"]] and not au_st["pending"]:
                    if au_st["phase"] == "setup":
                        _pbem_cli(au, "setup", "load", "default")
                    _pbem_cli(au, "end-phase", "--yes")
            # The mail: each folder's new files to the other, loaded there (France with the page's button).
            if _mail(au, fr, sent_au):
                _clear(page)
                page.click("#load-btn")
                _wait_message(page, "loaded")
            if _mail(fr, au, sent_fr):
                _pbem_cli(au, "load")
        else:
            raise AssertionError(f"the month did not end: {au_st['slot']}")
        assert marched
        assert errors == []
        page_hash = page.evaluate("() => EV.docs.status.state_hash")
        page.close()
    saved = {p: Session.open(h, PBEM_GAME, p, pw(p)).state for p, h in (("FR", fr), ("AU", au))}
    assert saved["FR"].state_hash() == saved["AU"].state_hash()
    assert page_hash == au_st["state_hash"] == saved["AU"].state_hash().hex()
    assert any(f.endswith("_land_turn_FR.pbm") for f in sent_fr)
