"""Where the project's parts are, for a test in any folder of ``tests/`` and for the tools that use the kits.

The tests are laid out like the package (``tests/rules/<phase>/``, ``tests/pbem/``, ``tests/client/``, ...,
``tests/e2e/``), and a test module's name is unique across the folders, so every folder is put on ``sys.path``
(``importable``) and a kit or another test module is imported by its name from wherever it lives.
"""

from __future__ import annotations

import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
PACKAGE = ROOT / "eiapbem"
CASES = TESTS / "cases"
VECTORS = TESTS / "vectors"
DATA = TESTS / "data"
#: The manual and its companions, when they are at hand beside the project.
SEEDS = ROOT.parent / "shared" / "seeds"


def folders() -> list[Path]:
    """``tests/`` and every folder below it that holds a test module, in a fixed order."""
    return [TESTS, *sorted({p.parent for p in TESTS.rglob("test_*.py")} - {TESTS})]


def importable() -> None:
    """Put every test folder on ``sys.path`` (once), so modules are imported by name as in one flat folder."""
    for folder in folders():
        if str(folder) not in sys.path:
            sys.path.append(str(folder))
