"""``eiapbem files inspect``: damaged, empty, huge and random files end in one sentence, never a traceback."""

import os
import shutil

import pytest

from paths import ROOT

pytestmark = pytest.mark.slow
VEC = ROOT / "tests" / "vectors"


def test_inspect_shows_the_clear_header_and_checks_the_signature(run_cli):
    code, out, err = run_cli("files", "inspect", str(VEC / "turn_gb.pbm"), "--gamestart", str(VEC / "gamestart.pbm"))
    assert code == 0, err
    assert "slot        1805-05/naval/GB" in out and "author      GB" in out
    assert "signature   good (GB's key" in out


def _make(tmp_path, name, data=None, size=None):
    p = tmp_path / name
    if size is not None:
        with p.open("wb") as f:
            f.truncate(size)  # sparse: a huge file without writing it
    else:
        p.write_bytes(data)
    return p


@pytest.mark.parametrize(
    "name, data, size, sentence",
    [
        ("empty.pbm", b"", None, "empty.pbm is empty"),
        ("cut.pbm", (VEC / "turn_gb.pbm").read_bytes()[:100], None, "cut.pbm is truncated"),
        ("random.pbm", os.urandom(5000), None, "random.pbm is not an eiapbem file"),
        ("huge.pbm", None, 40 * 1024 * 1024, "huge.pbm is 41943040 bytes, over the limit"),
    ],
)
def test_bad_files_are_refused_in_one_sentence(run_cli, tmp_path, name, data, size, sentence):
    p = _make(tmp_path, name, data, size)
    code, out, err = run_cli("files", "inspect", str(p))
    assert code == 1
    assert err.startswith(f"eiapbem: error: {sentence}")
    assert "Traceback" not in err


def test_forged_file_is_refused_with_the_gamestart(run_cli, tmp_path):
    p = tmp_path / "x.pbm"
    shutil.copy(VEC / "turn_gb_sig_flip.pbm", p)
    code, out, err = run_cli("files", "inspect", str(p), "--gamestart", str(VEC / "gamestart.pbm"))
    assert code == 1 and "is not signed by GB's key" in err and "Traceback" not in err
