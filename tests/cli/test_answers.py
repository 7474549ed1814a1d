"""Read-only commands answer from the status record (cli/answers.py, issue 32 item 3).

Not timed (``eiapbem bench cli`` measures): these hold that an answer kept in the record is what the command
prints when it opens the game, that a fresh process answering from the record loads neither the rules nor the
session, and that a record that is not the folder's now answers nothing.
"""

import json
import os
import subprocess
import sys

import pytest

from clikit import GAME, WEAK, cli, new_game
from eiapbem.cli import answers
from eiapbem.client import statusfile
from eiapbem.client.session import TEST_SCRYPT_ENV

HEAVY = ("eiapbem.rules", "eiapbem.ai", "eiapbem.client.session", "eiapbem.client.store", "eiapbem.client.documents",
         "eiapbem.pbem.keys", "eiapbem.pbem.headers", "eiapbem.data", "eiapbem.present", "eiapbem.cli.actions_cmd")

_PROBE = """
import contextlib, io, json, sys
from eiapbem.cli import main
out, err = io.StringIO(), io.StringIO()
with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
    try:
        main.main(sys.argv[1:])
    except SystemExit as e:
        code = e.code
print(json.dumps([code, out.getvalue(), err.getvalue(), sorted(sys.modules)]))
"""

RU = ("--power", "RU", "--password", "pw-RU")


def _fresh(home, *args):
    env = dict(os.environ, **{TEST_SCRYPT_ENV: WEAK})
    p = subprocess.run([sys.executable, "-c", _PROBE, "--home", str(home), *args], capture_output=True, text=True,
                       env=env)
    code, out, err, mods = json.loads(p.stdout)
    return code, out, err, sorted(m for m in mods if m.startswith(HEAVY))


@pytest.fixture(scope="module")
def game(tmp_path_factory):
    """Russia set up and its phase ended (units on the map, log lines), its record made by a status."""
    home = new_game(tmp_path_factory.mktemp("answers"))
    assert cli(home, "setup", "load", "default", *RU).exit_code == 0
    assert cli(home, "end-phase", *RU).exit_code == 0
    statusfile.record_path(home, GAME, "RU").unlink(missing_ok=True)
    assert cli(home, "status", *RU).exit_code == 0
    return home


def _slow(home, line, monkeypatch):
    """The command opening the game (the record not looked at)."""
    with monkeypatch.context() as m:
        m.setattr(statusfile, "current", lambda *a: None)
        return cli(home, *line, *RU)


def _lines(home):
    from eiapbem.client.session import Session, open_identity

    os.environ.setdefault(TEST_SCRYPT_ENV, WEAK)
    return answers.command_lines(Session.open_with(home, GAME, open_identity(home, GAME, "RU", "pw-RU")))


def test_every_kept_answer_is_what_the_command_prints_when_it_opens_the_game(game, monkeypatch):
    from eiapbem.client.session import Session

    lines = _lines(game)
    # Each kind of line (every form but one area and one unit in ten, for time), text and --json.
    sample = [ln for n, ln in enumerate(lines) if ln[:2] not in (["show", "area"], ["show", "unit"]) or n % 10 == 0]
    assert len(sample) > 80 and {tuple(ln[:2]) for ln in sample} >= {
        ("show", "area"), ("show", "unit"), ("show", "power"), ("show", "pool"), ("show", "history"),
        ("battle", "report"), ("map", "--json")}  # show units, economy summary: from their records (below)
    for line in sample:
        slow = _slow(game, line, monkeypatch)
        assert slow.exit_code == 0, (line, slow.output, slow.stderr)
        with monkeypatch.context() as m:  # answered from the record: the game is not opened
            m.setattr(Session, "open_with", classmethod(lambda *a, **k: pytest.fail(f"opened for {line}")))
            fast = cli(game, *line, *RU)
        assert (fast.exit_code, fast.stdout, fast.stderr) == (0, slow.stdout, slow.stderr), line


def test_a_fresh_show_answers_from_the_record_without_the_rules(game, monkeypatch):
    for line in (("show", "area", "St Petersburg"), ("show", "power", "FR", "--json"), ("map", "--json"),
                 ("economy", "summary"), ("battle", "report"), ("show", "units")):
        code, out, err, heavy = _fresh(game, *line, *RU)
        slow = _slow(game, line, monkeypatch)
        assert (code, out, err) == (0, slow.stdout, slow.stderr) and heavy == [], line


def test_a_filtered_show_units_answers_without_the_rules(game, monkeypatch):
    line = ("show", "units", "--kind", "corps", "--area", "Kiev")
    code, out, err, heavy = _fresh(game, *line, *RU)
    slow = _slow(game, line, monkeypatch)
    assert (code, out, err) == (0, slow.stdout, slow.stderr) and "corps:RU:I " in out and heavy == []


def test_a_stale_record_never_answers_a_show(tmp_path):
    home = new_game(tmp_path)
    assert cli(home, "status", *RU).exit_code == 0
    old = statusfile.record_path(home, GAME, "RU").read_bytes()
    before = cli(home, "show", "units", *RU).output
    assert cli(home, "setup", "load", "default", *RU).exit_code == 0
    statusfile.record_path(home, GAME, "RU").write_bytes(old)  # the record of before the setup, put back
    code, out, _, heavy = _fresh(home, "show", "units", *RU)
    assert code == 0 and out != before and "corps:RU:" in out and "eiapbem.client.session" in heavy
    statusfile.record_path(home, GAME, "RU").write_bytes(old)  # (the command wrote the current one)
    code, out, _, heavy = _fresh(home, "show", "units", "--kind", "corps", "--area", "Kiev", *RU)
    assert code == 0 and "corps:RU:I " in out and "eiapbem.client.session" in heavy
    statusfile.record_path(home, GAME, "RU").write_bytes(old)
    code, out, _, heavy = _fresh(home, "economy", "summary", "--only", "FR", "--json", *RU)
    assert code == 0 and json.loads(out)["funds"][0]["power"] == "FR" and "eiapbem.client.session" in heavy


def test_records_the_answer_cannot_read_open_the_game():
    """Records of another shape (a record made by another version) give no answer: the command runs."""
    units = answers.KEPT["show units"]
    form = {"which": None, "kind": "corps", "area_id": None, "as_json": False}
    for data in ({}, {"me": "RU"}, {"me": "RU", "powers": {"RU": {"all": [{"id": "corps:RU:I"}]}}},
                 {"me": "RU", "powers": {"RU": {"all": 5}}}):
        assert answers._derived(units, {"data": {"show units": data}}, form) is None
    assert answers._derived(units, {"data": {}}, form) is None
    good = {"me": "RU", "powers": {"RU": {"all": [], "leaders": []}}}
    assert answers._derived(units, {"data": {"show units": good}}, form) == ["Russia: no such forces on the map\n", ""]


def test_a_command_that_opens_no_game_asks_no_password(game):
    """``map --svg`` and ``economy summary --scenario`` never look at the record, so no password is asked."""
    code, out, _, _ = _fresh(game, "economy", "summary", "--scenario", "classic-1805", "--only", "FR")
    assert code == 0 and "FR" in out


def test_a_sitting_answers_by_opening_the_game(game, monkeypatch):
    """Inside ``eiapbem shell`` the key is open and the modules loaded: commands run as they are."""
    from eiapbem.cli import main
    from eiapbem.cli.common import Context
    from eiapbem.client.session import open_identity

    monkeypatch.setenv(TEST_SCRYPT_ENV, WEAK)
    obj = Context(game)
    obj.identity = (GAME, "RU", open_identity(game, GAME, "RU", "pw-RU"))
    looked = []
    monkeypatch.setattr(statusfile, "current", lambda *a: looked.append(a))
    assert main.run(["show", "power", "RU"], obj=obj) == 0
    assert looked == []


def _same(home, line, monkeypatch):
    """The line answered from the record (the game not opened) prints what it prints when it opens the game."""
    from eiapbem.client.session import Session

    slow = _slow(home, line, monkeypatch)
    with monkeypatch.context() as m:
        m.setattr(Session, "open_with", classmethod(lambda *a, **k: pytest.fail(f"opened for {line}")))
        fast = cli(home, *line, *RU)
    assert (fast.exit_code, fast.stdout, fast.stderr) == (slow.exit_code, slow.stdout, slow.stderr), line
    return fast


#: ``show units`` forms: every kind and a few areas (with forces, without, a sea, not on the map), of the acting
#: power, of another (as typed), text and JSON.
FILTERED = [("show", "units", *who, *kind, *area, *js)
            for who, kind, area in (((), (), ()), (("FR",), (), ()), (("gb",), (), ()),
                                    ((), ("--kind", "corps"), ()), ((), ("--kind", "leader"), ()),
                                    (("FR",), ("--kind", "leader"), ()), ((), ("--kind", "fleet"), ()),
                                    ((), ("--kind", "depot"), ()), ((), ("--kind", "garrison"), ()),
                                    ((), (), ("--area", "Kiev")), ((), ("--kind", "corps"), ("--area", "moscow")),
                                    ((), ("--kind", "leader"), ("--area", "Kiev")), ((), (), ("--area", "north-sea")),
                                    (("FR",), (), ("--area", "paris")), ((), (), ("--area", "nowhere")))
            for js in ((), ("--json",))]


def test_every_filter_of_show_units_answers_from_the_record(game, monkeypatch):
    """``show units`` with any power, kind and area is a selection of the records kept (4.1.1 Fog of War applied
    as when the game is opened): the same text and JSON, the game not opened."""
    found = [_same(game, line, monkeypatch) for line in FILTERED]
    assert any("corps:RU:" in r.stdout and "  leader " not in r.stdout for r in found)  # a filter that keeps some
    assert any("none of its forces in north-sea" in r.stdout for r in found)  # and one that keeps none


def test_economy_summary_of_any_power_answers_from_the_record(game, monkeypatch):
    from eiapbem.core.powers import POWERS

    assert "RU" in _same(game, ("economy", "summary"), monkeypatch).stdout  # the acting power's by default
    _same(game, ("economy", "summary", "--json"), monkeypatch)
    for p in POWERS:
        assert p in _same(game, ("economy", "summary", "--only", p), monkeypatch).stdout
        _same(game, ("economy", "summary", "--only", p, "--json"), monkeypatch)


def test_economy_summary_on_any_seed_answers_from_the_record(game, monkeypatch):
    """The projection on another seed's dice (``client.documents.economy_outcomes``), in a fresh process too."""
    for line in (("economy", "summary", "--seed", "other"), ("economy", "summary", "--seed", "7", "--only", "GB", "--json")):
        _same(game, line, monkeypatch)
    code, out, _, heavy = _fresh(game, "economy", "summary", "--seed", "other", *RU)
    assert code == 0 and "'other'" in out and heavy == []


def test_a_form_the_records_do_not_hold_opens_the_game(game):
    """A seed no dice take, another power's unit's reach: the command runs (and says what is wrong)."""
    code, _, err, heavy = _fresh(game, "economy", "summary", "--seed", "", *RU)
    assert code == 1 and "non-empty seed" in err and "eiapbem.client.session" in heavy
    code, out, _, heavy = _fresh(game, "show", "reach", "corps:AU:I", *RU)
    assert code == 1 and "eiapbem.client.session" in heavy


@pytest.fixture(scope="module")
def land(tmp_path_factory):
    """Russia's land slot: its forces set up, the state moved to a land phase, its record made by a status."""
    from eiapbem.rules.model import Phase

    return _slot_of_russia(tmp_path_factory.mktemp("reach"), Phase.LAND)


def _slot_of_russia(home, phase):
    from dataclasses import replace

    from eiapbem.client.session import Session
    from eiapbem.rules.model import Date, Slot

    home = new_game(home)
    assert cli(home, "setup", "load", "default", *RU).exit_code == 0
    assert cli(home, "end-phase", *RU).exit_code == 0
    os.environ.setdefault(TEST_SCRYPT_ENV, WEAK)
    s = Session.open(home, GAME, "RU", "pw-RU")
    s.data = replace(s.data, state=s.state.replace(date=Date(1805, 9),
                                                   slot=Slot(phase=phase, step="turn", power="RU", actors=("RU",))))
    s.save()
    assert cli(home, "status", *RU).exit_code == 0
    return home


def test_show_reach_of_each_corps_answers_from_the_record_in_a_land_phase(land, monkeypatch):
    corps = ("corps:RU:I", "corps:RU:Cav-I", "corps:RU:Guard", "corps:RU:Cossack-1")
    for unit in corps:
        for extra in ((), ("--forced-march",), ("--json",), ("--forced-march", "--json")):
            _same(land, ("show", "reach", unit, *extra), monkeypatch)
    code, out, _, heavy = _fresh(land, "show", "reach", "corps:RU:I", *RU)
    assert code == 0 and "move with: eiapbem land move --unit corps:RU:I" in out and heavy == []
    # A cavalry corps may not forced march: refused as when the game is opened, which it is not.
    code, _, err, heavy = _fresh(land, "show", "reach", "corps:RU:Cav-I", "--forced-march", *RU)
    assert code == 1 and "may not forced march" in err and heavy == []
    statusfile.record_path(land, GAME, "RU").rename(land / "kept")
    try:
        assert _fresh(land, "show", "reach", "corps:RU:Cav-I", "--forced-march", *RU)[:3] == (code, "", err)
    finally:
        statusfile.record_path(land, GAME, "RU").unlink(missing_ok=True)
        (land / "kept").rename(statusfile.record_path(land, GAME, "RU"))


def test_show_reach_of_a_fleet_answers_from_the_record_in_a_naval_phase(tmp_path, monkeypatch):
    from eiapbem.client.session import Session, open_identity
    from eiapbem.rules.model import Fleet, Phase

    home = _slot_of_russia(tmp_path, Phase.NAVAL)
    st = Session.open_with(home, GAME, open_identity(home, GAME, "RU", "pw-RU")).state
    fleets = sorted(u for u, v in st.units.items() if isinstance(v, Fleet) and v.nation == "RU" and v.location.site)
    assert fleets
    for extra in ((), ("--forced-march",), ("--json",)):  # a fleet's reach is the same with --forced-march
        assert fleets[0] in _same(home, ("show", "reach", fleets[0], *extra), monkeypatch).stdout
    code, out, _, heavy = _fresh(home, "show", "reach", "corps:RU:I", *RU)  # a corps in a naval phase: kept too
    assert (code, heavy) == (0, []) and out == _slow(home, ("show", "reach", "corps:RU:I"), monkeypatch).stdout
    assert "(it is the naval phase" in out


def test_show_reach_outside_a_land_or_naval_phase_answers_from_the_record(tmp_path, monkeypatch):
    """Every reach of the acting power's corps and fleets is kept in every phase: in a diplomacy phase the first
    ask answers from the record, as the command prints when it opens the game."""
    from dataclasses import replace

    from eiapbem.client.session import Session
    from eiapbem.rules.model import Fleet, Phase

    home = _slot_of_russia(tmp_path, Phase.DIPLOMACY)
    record = statusfile.record_path(home, GAME, "RU")
    code, first, _, heavy = _fresh(home, "show", "reach", "corps:RU:I", *RU)
    assert (code, heavy) == (0, []) and "(it is the diplomacy phase" in first
    assert first == _slow(home, ("show", "reach", "corps:RU:I"), monkeypatch).stdout
    st = Session.open(home, GAME, "RU", "pw-RU").state
    fleet = sorted(u for u, v in st.units.items() if isinstance(v, Fleet) and v.nation == "RU" and v.location.site)[0]
    for unit, extra in (("corps:RU:I", ("--forced-march", "--json")), ("corps:RU:Cav-I", ()), (fleet, ("--json",)),
                        (fleet, ())):
        code, out, err, heavy = _fresh(home, "show", "reach", unit, *extra, *RU)
        slow = _slow(home, ("show", "reach", unit, *extra), monkeypatch)
        assert (code, out, err, heavy) == (slow.exit_code, slow.stdout, slow.stderr, []), (unit, extra)
    # A cavalry corps may not forced march: refused as when the game is opened, which it is not.
    code, _, err, heavy = _fresh(home, "show", "reach", "corps:RU:Cav-I", "--forced-march", *RU)
    assert code == 1 and "may not forced march" in err and heavy == []
    # Another power's corps (France's, not set up) is not kept: the game is opened; the record, current, stays.
    kept = record.read_bytes()
    code, _, err, heavy = _fresh(home, "show", "reach", "corps:FR:I", *RU)
    assert code == 1 and "not on the map" in err and "eiapbem.client.session" in heavy and record.read_bytes() == kept
    # The state changed and the record of before put back: not the folder's, so the game is opened.
    s = Session.open(home, GAME, "RU", "pw-RU")
    s.data = replace(s.data, state=s.state.replace(slot=replace(s.state.slot, phase=Phase.ECONOMIC)))
    s.save()
    record.write_bytes(kept)
    code, out, _, heavy = _fresh(home, "show", "reach", "corps:RU:I", *RU)
    assert code == 0 and "(it is the economic phase" in out and "eiapbem.client.session" in heavy


def _picture(home, monkeypatch, tmp_path, extra=()):
    """``map --svg FILE --save save/GAME.sav``: drawn from the record (the game not opened), then drawn by opening the
    game: the same words, the same picture."""
    line = ("map", "--svg", str(tmp_path / "fast.svg"), "--save", f"save/{GAME}.sav", *extra)
    fast = _same(home, line, monkeypatch)
    kept = (tmp_path / "fast.svg").read_bytes()
    slow = _slow(home, ("map", "--svg", str(tmp_path / "slow.svg"), "--save", f"save/{GAME}.sav", *extra), monkeypatch)
    assert slow.stdout == fast.stdout.replace("fast.svg", "slow.svg") and (tmp_path / "slow.svg").read_bytes() == kept
    return fast.stdout, kept


@pytest.mark.parametrize("phase", ["game", "land"])
def test_the_game_s_picture_is_kept_in_the_record(phase, request, monkeypatch, tmp_path):
    """The game's picture (units and control) is drawn when the record is made: a fresh ``map --svg --save`` of the
    folder's save copies it, loading neither the rules nor the drawing, and it is the picture the command draws."""
    home = request.getfixturevalue(phase)
    out, kept = _picture(home, monkeypatch, tmp_path)
    assert " units)" in out and f"<title>{GAME}, ".encode() in kept
    code, fresh, _, heavy = _fresh(home, "map", "--svg", str(tmp_path / "fresh.svg"), "--save", f"save/{GAME}.sav", *RU)
    assert (code, fresh, heavy) == (0, out.replace("fast.svg", "fresh.svg"), [])
    assert (tmp_path / "fresh.svg").read_bytes() == kept


def test_a_picture_the_record_does_not_hold_is_drawn(game, monkeypatch, tmp_path):
    """Another map's files (--path), a monthly save, another folder's save: drawn as before, the record not used."""
    import shutil
    from pathlib import Path

    import eiapbem

    folder = tmp_path / "map"
    shutil.copytree(Path(eiapbem.__file__).parent / "data" / "map", folder, ignore=shutil.ignore_patterns("__*"))
    code, out, _, heavy = _fresh(game, "map", "--svg", str(tmp_path / "p.svg"), "--save", f"save/{GAME}.sav",
                                 "--path", str(folder), *RU)
    assert code == 0 and " units)" in out and "eiapbem.client.session" in heavy
    other = tmp_path / "other"
    shutil.copytree(game, other)
    code, out, _, heavy = _fresh(game, "map", "--svg", str(tmp_path / "o.svg"), "--save",
                                 str(other / "save" / f"{GAME}.sav"), *RU)
    assert code == 0 and " units)" in out and "eiapbem.client.session" in heavy


def test_a_record_made_keeps_the_bare_map_s_picture(game, monkeypatch, tmp_path):
    """A game folder whose record was made has the bare map's picture kept: the first ``map --svg`` copies it."""
    from eiapbem.cli import mapcache

    assert mapcache.read_head(game, mapcache.key(None))
    code, out, _, heavy = _fresh(game, "map", "--svg", str(tmp_path / "bare.svg"))
    assert code == 0 and "wrote" in out and heavy == []
    assert (tmp_path / "bare.svg").read_text(encoding="utf-8") == mapcache.bare(tmp_path, None)[0]


@pytest.fixture(scope="module")
def everyone(tmp_path_factory):
    """The seven powers set up by default and played to the first land phase (``bench cli``'s game)."""
    from eiapbem.cli import clibench

    home = tmp_path_factory.mktemp("everyone")
    with pytest.MonkeyPatch.context() as m:
        m.setenv(TEST_SCRYPT_ENV, WEAK)
        clibench._land_game(home)
    return home


@pytest.mark.parametrize("where", ["everyone", "land"])
def test_a_corps_reach_without_forced_march_is_its_reach_with_one_cut_to_its_points(where, request):
    """``show_cmd.plain_reach`` (what the record keeps) is the rules' own search without forced march, for every
    corps of every power on the map, in the first land phase of a game and in Russia's land slot of September."""
    from eiapbem.cli.answers import plain
    from eiapbem.cli.show_cmd import plain_reach
    from eiapbem.client import documents
    from eiapbem.client.session import Session, open_identity
    from eiapbem.core.errors import EiaError
    from eiapbem.core.powers import POWERS
    from eiapbem.rules.model import Corps

    home = request.getfixturevalue(where)
    game = "Bench" if where == "everyone" else GAME
    told = searched = 0
    for p in POWERS:
        os.environ.setdefault(TEST_SCRYPT_ENV, WEAK)
        s = answers._Steady(Session.open_with(home, game, open_identity(home, game, p, "pw" if game == "Bench" else f"pw-{p}")))
        st = s.current()
        for uid, u in sorted(st.units.items()):
            if not (isinstance(u, Corps) and u.nation == p and u.location.site):
                continue
            try:
                forced = plain(documents.reach(s, uid, True))
            except EiaError as err:
                forced = {"refused": [str(err), err.hint]}
            try:
                direct = plain(documents.reach(s, uid, False))
            except EiaError:
                direct = None
            derived = plain_reach(s, uid, forced)
            if derived is None:
                searched += 1
            else:
                told += 1
                assert derived == direct, uid
    assert told >= 5 and searched >= 1  # most are told from the forced march's; a cavalry corps is searched


def test_files_inspect_reads_a_clear_header_without_the_ciphers(game):
    """``files inspect`` without --gamestart loads no cipher and none of the signature's code (``bench cli`` times it):
    what it prints is the header, as with the signature checked."""
    turn = min(f for f in (game / "commout").glob("*.pbm") if "gamestart" not in f.name)
    env = dict(os.environ, **{TEST_SCRYPT_ENV: WEAK})
    p = subprocess.run([sys.executable, "-c", _PROBE, "--home", str(game), "files", "inspect", str(turn)],
                       capture_output=True, text=True, env=env)
    code, out, _, mods = json.loads(p.stdout)
    assert code in (0, None) and f"file        {turn.name}" in out and "not checked" in out
    assert not [m for m in mods if m.startswith(("eiapbem.pbem.crypto", "eiapbem.pbem.chain",
                                                 "cryptography.hazmat.primitives.ciphers"))]
    checked = cli(game, "files", "inspect", str(turn), "--gamestart", str(game / "commout" / f"{GAME}_gamestart.pbm"))
    assert checked.exit_code == 0 and "signature   good" in checked.stdout, checked.output
    assert checked.stdout.split("signature")[0] == out.split("signature")[0]
