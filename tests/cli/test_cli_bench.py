"""``eiapbem bench files`` prints figures for every file kind (a benchmark, not a timed test)."""

import re

import pytest

pytestmark = pytest.mark.slow


def test_bench_files_prints_sizes_and_times(run_cli):
    code, out, err = run_cli("bench", "files", "--state-kib", "8", "--logn", "10", "--repeat", "1")
    assert code == 0, err
    for what in ("gamestart", "turn", "save", "backup", "battle", "identity", "password KDF (scrypt logn=10"):
        assert what in out
    rows = [line.split() for line in out.splitlines()[1:7]]
    assert all(int(r[-4]) > 0 for r in rows)  # a size in bytes on every row


def test_bench_refuses_a_kdf_above_the_reader_limit(run_cli):
    code, out, err = run_cli("bench", "files", "--logn", "19")
    assert code == 2 and "eiapbem: error:" in err and "Traceback" not in err


def test_bench_game_prints_each_figure(run_cli):
    """``eiapbem bench game``: figures of the rules and the game loop, each a positive number with its unit."""
    code, out, err = run_cli("bench", "game", "--repeat", "1")
    assert code == 0, err
    for what in ("setup of France: 50 actions applied", "economic phase resolved", "AI (ai-hard) plays one slot",
                 "AI (ai-hard) gives its economic orders", "state encode",
                 "state decode (full validation", "state hash", "state size after setup",
                 "end-phase of a setup slot", "load and replay of one setup turn file",
                 "load and verify one turn file, median of 14", "load and verify one turn file: its CPU time"):
        line = next(ln for ln in out.splitlines() if ln.startswith(what))
        assert float(line.split()[-2]) > 0, line


def test_bench_cli_prints_each_figure_against_the_bare_start(run_cli):
    """``eiapbem bench cli``: --help, X --help, status and the password's cost, each with its ratio to a bare start."""
    code, out, err = run_cli("bench", "cli", "--repeat", "1", "--command", "tables")
    assert code == 0, err
    for what in ('bare start: python -c "import click, cryptography, msgpack"', "eiapbem --help",
                 "eiapbem X --help, the slowest X (tables)", "eiapbem status without the password's cost",
                 "the same with no status record", "the first status in a new folder", "status inside a sitting",
                 "eiapbem log --json", "eiapbem show area Paris", "eiapbem map --json",
                 "eiapbem show units --kind corps", "eiapbem economy summary --only FR", "eiapbem show reach corps:RU:I",
                 "eiapbem show reach fleet:RU:1", "eiapbem log -n 200, the record keeping 50 lines",
                 "after a change: the read-only answers made", "the password's cost: one scrypt"):
        line = next(ln for ln in out.splitlines() if ln.startswith(what))
        ms = float(re.search(r"([0-9.]+) ms  \(", line).group(1))
        assert ms > 0 and "x the bare start)" in line
        if what.startswith(("eiapbem log", "eiapbem show", "eiapbem map", "eiapbem economy", "the first", "after")):
            assert float(re.search(r"CPU +([0-9.]+) ms \(", line).group(1)) > 0, line
