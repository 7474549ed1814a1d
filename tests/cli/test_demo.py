"""``eiapbem demo`` (the README's first command) plays a month and prints the status from client/status.py."""

import pytest

from eiapbem.client.demo import run_demo
from eiapbem.client.session import TEST_SCRYPT_ENV

pytestmark = pytest.mark.slow


def test_the_demo_plays_a_month_and_its_suggestions_run(tmp_path, monkeypatch):
    monkeypatch.setenv(TEST_SCRYPT_ENV, "10,1,1")
    said: list[str] = []
    home = run_demo(tmp_path / "demo", said.append)
    assert any(line.startswith("Game Demo (classic-1805); this folder plays AU, FR, GB, PR, RU, SP, TU") for line in said)
    assert any(line.startswith("Date: February 1805") for line in said)
    from clikit import cli

    for line in said:
        if line.strip().startswith(f"eiapbem --home {home} "):
            words = line.split()[3:]
            r = cli(home, *words)
            assert r.exit_code == 0, (line, r.output, r.exception)
