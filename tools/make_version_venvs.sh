#!/bin/sh
# Make one virtualenv per Python 3.11-3.13 interpreter the machine has (pyenv or PATH), with eiapbem's
# runtime dependencies, for the cross-version determinism test (tests/e2e/test_cross_version.py, issue 20 item 7).
# The venvs go to .venv-versions/<version>/ in the worktree; the test finds them there.
set -e
here=$(cd "$(dirname "$0")/.." && pwd)
for py in "$HOME"/.pyenv/versions/3.1[123]*/bin/python3 $(command -v python3.11 python3.12 python3.13 2>/dev/null); do
    [ -x "$py" ] || continue
    v=$("$py" -c 'import sys; print("%d.%d.%d" % sys.version_info[:3])')
    dest="$here/.venv-versions/$v"
    [ -x "$dest/bin/python" ] && continue
    "$py" -m venv "$dest"
    "$dest/bin/python" -m pip install -q "click>=8.1" "cryptography>=42" "msgpack>=1.0.7"
    echo "made $dest"
done
