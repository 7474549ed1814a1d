"""The lateness ladder reads the game log in time linear in what is new (issue 22's ladder, host/lateness.py).

``house_rules`` and ``missed`` give the same answers as reading the whole log
(``Session.journal()``, every line decoded), but decode only the lines of the
three kinds the ladder reads, and only those added since this process last read
the same journal (``mail sync --every``, ``admin status``).  Another journal (a
backup, a rewind) is read again from its start.
"""

from dataclasses import replace

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as hs

import clikit
from eiapbem.client.session import TEST_SCRYPT_ENV, Session
from eiapbem.host import lateness
from eiapbem.rules import admin as radmin
from eiapbem.rules.model import POWERS, LogEntry

SLOT = "1805-01/setup/turn/RU"


def _oracle(s):
    """The ladder's reading of every line of ``s.journal()``, as it was done before (each line decoded): the rules
    in force, and (missed, offered) of each power."""
    journal = s.journal()
    rules = None
    for e in reversed(journal):
        if e.kind == radmin.HouseRules.KIND:
            p = dict(e.params)
            rules = lateness.HouseRules(int(p["remind"]), int(p["remind_all"]), int(p["ai_play"]), int(p["offer_after"]))
            break
    missed = {}
    for power in POWERS:
        n, offered = 0, False
        for e in journal:
            p = dict(e.params)
            if e.kind == radmin.ReplacePlayer.KIND and p.get("power") == power:
                n, offered = 0, False
            elif e.kind == radmin.LateNotice.KIND and p.get("power") == power:
                if p.get("step") == "ai-play":
                    n = max(n, int(p.get("missed", 0)))
                elif p.get("step") == "seat-offered":
                    offered = True
        missed[power] = (n, offered)
    return rules, missed


def _line(kind, **params):
    return {"slot": SLOT, "author": "host" if kind.startswith("admin.") else "FR", "kind": kind, "text": kind,
            "params": params}


def _rules(a, b, c, d):
    return _line(radmin.HouseRules.KIND, remind=a, remind_all=b, ai_play=c, offer_after=d)


def _late(power, step, missed=0):
    return _line(radmin.LateNotice.KIND, power=power, step=step, slot=SLOT, hours=5, missed=missed)


def _filler(i):
    return _line("land.move", unit=f"corps:FR:{i}")


@pytest.fixture(scope="module")
def host(tmp_path_factory):
    mp = pytest.MonkeyPatch()
    mp.setenv(TEST_SCRYPT_ENV, clikit.WEAK)
    home = clikit.new_game(tmp_path_factory.mktemp("ladder"))
    s = Session.open(home, clikit.GAME, "host", "pw-host")
    mp.undo()
    return s


@pytest.fixture
def decoded(monkeypatch):
    """How many log lines the ladder decodes."""
    seen = []

    class Counting:
        @staticmethod
        def from_obj(o, where):
            seen.append(o)
            return LogEntry.from_obj(o, where)

    monkeypatch.setattr(lateness, "LogEntry", Counting)
    return seen


def _with(s, lines, unsaved=()):
    s.data = replace(s.data, journal=tuple(lines),
                     state=s.state.replace(log=tuple(LogEntry.from_obj(o, "test") for o in unsaved)))
    return s


def _same_as_oracle(s):
    assert (lateness.house_rules(s), {p: lateness.missed(s, p) for p in POWERS}) == _oracle(s)


def test_only_the_ladders_lines_are_decoded_and_only_once(host, decoded):
    relevant = [_rules(24, 48, 72, 2), _late("GB", "reminder"), _late("GB", "ai-play", 1), _late("GB", "ai-play", 2),
                _late("GB", "seat-offered", 2), _late("AU", "ai-play", 1),
                _line(radmin.ReplacePlayer.KIND, power="GB", name="New", email="new@example.org"), _rules(1, 2, 3, 0)]
    lines = []
    for i, r in enumerate(relevant):
        lines += [_filler(i * 1000 + j) for j in range(100)] + [r]
    s = _with(host, lines)
    _same_as_oracle(s)
    assert lateness.house_rules(s) == lateness.HouseRules(1, 2, 3, 0)
    assert lateness.missed(s, "GB") == (0, False) and lateness.missed(s, "AU") == (1, False)
    decoded.clear()
    # Asked again (each late power, then the status): nothing new, nothing decoded.
    for p in POWERS:
        lateness.missed(s, p)
    lateness.house_rules(s)
    assert decoded == []
    # Lines added: only the new lines of the ladder's kinds are decoded.
    more = [_filler(10**6 + j) for j in range(200)] + [_late("GB", "ai-play", 1)] + [_filler(2 * 10**6 + j) for j in range(9)]
    s = _with(s, s.data.journal + tuple(more))
    decoded.clear()
    _same_as_oracle(s)
    assert lateness.missed(s, "GB") == (1, False)
    assert len(decoded) == 1


def test_another_journal_is_read_from_its_start(host, decoded):
    lines = [_rules(24, 48, 72, 2)] + [_filler(j) for j in range(50)] + [_late("TU", "ai-play", 3)]
    s = _with(host, lines)
    _same_as_oracle(s)
    # A backup or a rewind: a journal of other line objects, as long as the first, another line at its end.
    other = [dict(o) for o in lines[:-1]] + [_late("TU", "seat-offered", 3)]
    s = _with(host, other)
    _same_as_oracle(s)
    assert lateness.missed(s, "TU") == (0, True)
    # A shorter one.
    s = _with(host, other[:10])
    _same_as_oracle(s)
    assert lateness.missed(s, "TU") == (0, False)


def test_the_lines_not_yet_saved_count_and_are_not_remembered(host):
    s = _with(host, [_rules(24, 48, 72, 2)], unsaved=[_rules(5, 6, 7, 1), _late("SP", "ai-play", 1)])
    _same_as_oracle(s)
    assert lateness.house_rules(s) == lateness.HouseRules(5, 6, 7, 1)
    s = _with(s, s.data.journal)  # the state's lines dropped, the saved journal the same
    _same_as_oracle(s)
    assert lateness.house_rules(s) == lateness.HouseRules(24, 48, 72, 2) and lateness.missed(s, "SP") == (0, False)


_LINES = hs.one_of(
    hs.builds(_rules, hs.integers(0, 9), hs.integers(0, 9), hs.integers(0, 9), hs.integers(0, 3)),
    hs.builds(_late, hs.sampled_from(POWERS), hs.sampled_from(["reminder", "reminder-all", "ai-play", "seat-offered"]),
              hs.integers(0, 4)),
    hs.builds(lambda p: _line(radmin.ReplacePlayer.KIND, power=p, name="N", email="n@example.org"), hs.sampled_from(POWERS)),
    hs.builds(_filler, hs.integers(0, 99)),
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(first=hs.lists(_LINES, max_size=12), then=hs.lists(_LINES, max_size=12), cut=hs.integers(0, 30))
def test_any_journal_grown_or_cut_reads_as_the_whole_log(host, first, then, cut):
    s = _with(host, first)
    _same_as_oracle(s)
    s = _with(s, s.data.journal + tuple(then))
    _same_as_oracle(s)
    s = _with(s, s.data.journal[:cut])
    _same_as_oracle(s)
