"""The tests are laid out like the package (``docs/architecture.md``, "Tests")."""

from collections import Counter

from paths import PACKAGE, TESTS, folders

#: Folders of ``tests/`` that are not a package of ``eiapbem``: the games played through several folders.
NOT_A_PACKAGE = {"e2e"}


def test_every_test_folder_is_a_package_of_the_code():
    for folder in folders():
        if folder == TESTS:
            continue
        part = folder.relative_to(TESTS)
        if part.parts[0] in NOT_A_PACKAGE:
            assert len(part.parts) == 1, part
            continue
        mirrored = (PACKAGE / part).is_dir() or (PACKAGE / part).with_suffix(".py").is_file()  # rules/setup.py
        assert mirrored, f"tests/{part.as_posix()} has no eiapbem/{part.as_posix()} to mirror"


def test_a_test_module_name_is_used_once():
    # Every test folder is on sys.path (paths.importable): two modules of one name would shadow each other.
    names = Counter(p.name for p in TESTS.rglob("test_*.py"))
    assert [n for n, k in names.items() if k > 1] == []


def test_every_test_folder_is_collected():
    # The folders are found from the files, so a test module in a new folder is importable by name at once.
    assert {f.relative_to(TESTS).as_posix() for f in folders()} >= {
        ".", "rules", "rules/land", "rules/combat", "rules/naval", "pbem", "client", "e2e"}
