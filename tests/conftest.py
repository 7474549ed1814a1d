import os
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT.parent / "shared" / "seeds"


@pytest.fixture
def run_cli(tmp_path):
    """Run the real ``eiapbem`` command in a fresh process; return (code, stdout, stderr)."""
    import subprocess

    def run(*args, home=None, input=None, env=None):
        cmd = [sys.executable, "-m", "eiapbem", "--home", str(home or tmp_path), *args]
        e = dict(os.environ)
        e.update(env or {})
        p = subprocess.run(cmd, capture_output=True, text=True, input=input, env=e, cwd=str(tmp_path))
        return p.returncode, p.stdout, p.stderr

    return run
