"""The fixtures every level of ``tests/`` shares; a folder's own ``conftest.py`` holds what only its tests share."""

import shutil

import pytest
from hypothesis import settings

import paths

paths.importable()

# No property test is timed: on a loaded machine one example can take longer than Hypothesis's default deadline,
# and a test that fails for the load says nothing of the code (speed is measured by `eiapbem bench`).
settings.register_profile("untimed", deadline=None)
settings.load_profile("untimed")


@pytest.fixture
def fast_keys(monkeypatch):
    """Key files made with small scrypt parameters (``sevenfolders.SCRYPT``), for tests that make many."""
    import sevenfolders
    from eiapbem.client.session import TEST_SCRYPT_ENV

    monkeypatch.setenv(TEST_SCRYPT_ENV, sevenfolders.SCRYPT)


@pytest.fixture(scope="session")
def raw():
    """The packaged world data (``data.world.load_raw``), read once."""
    from eiapbem.data import world

    return world.load_raw()


@pytest.fixture(scope="session")
def start(raw):
    """The classic 1805 scenario's opening state (a value: no test can change it for another)."""
    from eiapbem.data import world
    from eiapbem.rules.scenario import initial_state

    return initial_state(world.load_scenario("classic-1805"), raw)


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
