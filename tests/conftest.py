import shutil
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SEEDS = ROOT.parent / "shared" / "seeds"


@pytest.fixture
def run_cli(tmp_path):
    """Run the real ``eiapbem`` command in a fresh process; return (code, stdout, stderr)."""
    from sevenfolders import command

    def run(*args, home=None, input=None, env=None):
        return command(tmp_path, *args, home=home or tmp_path, input=input, env=env)

    return run


@pytest.fixture(scope="session")
def seven_folders_made(tmp_path_factory):
    """The standard seven-folder game (``tests/sevenfolders.py``), created and joined with the real commands once."""
    import sevenfolders

    root = tmp_path_factory.mktemp("sevenfolders")

    def run(*args, home, env=None):
        return sevenfolders.command(root, *args, home=home, env=env)

    sevenfolders.make_by_command(run, root)
    return root


@pytest.fixture
def seven_folders(seven_folders_made, tmp_path, monkeypatch):
    """A copy of the standard seven-folder game of its own for one test (``sevenfolders.Folders``)."""
    import sevenfolders
    from eiapbem.client.session import TEST_SCRYPT_ENV

    monkeypatch.setenv(TEST_SCRYPT_ENV, sevenfolders.SCRYPT)
    root = tmp_path / "game"
    shutil.copytree(seven_folders_made, root)
    return sevenfolders.Folders(sevenfolders.seven_homes(root))
