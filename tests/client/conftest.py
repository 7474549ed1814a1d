"""Fixtures shared by the client's tests."""

import shutil

import pytest


@pytest.fixture(scope="session")
def ru_sent(tmp_path_factory):
    """A seven-folder game (``auditkit``) where RU, the host's folder, has set up and sent its file; the file
    waits in TU's commin/, not loaded.  Returns (root, identities, the file).  Copy a folder before changing it."""
    import auditkit
    from auditkit import GAME, home_of
    from eiapbem.client import setups
    from eiapbem.client.session import Session

    root = tmp_path_factory.mktemp("ru-sent")
    ids = auditkit.new(root)
    ru = Session.open_with(home_of(root, "RU"), GAME, ids["RU"])
    setups.load_setup(ru, "default")
    path = ru.end_phase()
    shutil.copy(path, home_of(root, "TU") / "commin" / path.name)
    return root, ids, path


@pytest.fixture(scope="module")
def played(tmp_path_factory):
    """The setup played to France's own file, and a copy of France's folder (``FR-behind``) with its save put back
    to before that file (``auditkit.game_behind``).  Returns (root, identities).  Copy a folder before changing it."""
    import auditkit

    root = tmp_path_factory.mktemp("played")
    return root, auditkit.game_behind(root)
