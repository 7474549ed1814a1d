"""The bare map's picture kept from an earlier ``eiapbem map --svg FILE``, so that drawing it again is a file copy.

The bare map (no ``--save``, no ``--scenario``) depends only on the map files drawn and on the drawing code, so
its picture is kept under a key made of both: this eiapbem's version, the bytes of the map files (the packaged
map or ``--path``'s folder) and the source of the modules that draw it.  It is kept in the folder's
``.eiapbem-cache/`` (outside the folders a status record watches, so keeping it makes no record stale), as one
file per key whose first line carries the key, the digest of the picture and the counts the command prints.
A picture whose key or digest does not match, or that cannot be read, is drawn again; a folder that cannot be
written is drawn every time.  docs/decisions.md ("The bare map's picture is kept") gives the reasons.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from pathlib import Path

import eiapbem

#: The folder (in the command's home) that keeps pictures; no status record watches it.
CACHE_DIR = ".eiapbem-cache"
_MAGIC = "eiapbem-map-1"
#: The modules whose code draws the bare map (their source is part of the key).
_DRAWING = ("present/svgmap.py", "present/coast.py", "rules/mapgraph.py", "data/mapdata.py", "cli/data_cmd.py")


def key(path: Path | None) -> str | None:
    """The picture's key for the map files of ``path`` (default: the packaged map); None when a file cannot be read
    (the command then draws, and says what is wrong)."""
    pkg = Path(eiapbem.__file__).parent
    folder = pkg / "data" / "map" if path is None else Path(path)
    h = hashlib.sha256(f"{_MAGIC}\n{eiapbem.__version__}\n".encode())
    try:
        names = sorted(n for n in os.listdir(folder) if n == "seas.json" or (n.startswith("areas_") and n.endswith(".json")))
        for n in names:
            h.update(f"map/{n}\n".encode())
            h.update(hashlib.sha256((folder / n).read_bytes()).digest())
        for m in _DRAWING:
            h.update(f"code/{m}\n".encode())
            h.update(hashlib.sha256((pkg / m).read_bytes()).digest())
    except OSError:
        return None
    return h.hexdigest()


def _file(home: Path, k: str) -> Path:
    return Path(home) / CACHE_DIR / f"map-{k[:32]}.svg"


def read(home: Path, k: str) -> tuple[str, int, int] | None:
    """The kept picture of key ``k`` and its land and sea areas' counts, or None when none matches."""
    try:
        data = _file(home, k).read_bytes()
    except OSError:
        return None
    head, sep, body = data.partition(b"\n")
    fields = head.decode("ascii", "replace").split(" ")
    if not sep or len(fields) != 5 or fields[0] != _MAGIC or fields[1] != k:
        return None
    if hashlib.sha256(body).hexdigest() != fields[2] or not (fields[3].isdigit() and fields[4].isdigit()):
        return None
    try:
        return body.decode("utf-8"), int(fields[3]), int(fields[4])
    except UnicodeDecodeError:
        return None


def write(home: Path, k: str, text: str, areas: int, seas: int) -> None:
    """Keep the picture of key ``k`` (written whole, then renamed); nothing is kept where the folder cannot be written."""
    body = text.encode("utf-8")
    f = _file(home, k)
    tmp = f.with_name(f"{f.name}.{os.getpid()}.tmp")
    try:
        f.parent.mkdir(exist_ok=True)
        tmp.write_bytes(f"{_MAGIC} {k} {hashlib.sha256(body).hexdigest()} {areas} {seas}\n".encode("ascii") + body)
        os.replace(tmp, f)
    except OSError:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)


#: The bare map's picture drawn in this process, by key: a process that keeps it in several folders draws it once.
_DRAWN: dict[str, tuple[str, int, int]] = {}


def bare(home: Path, path: Path | None) -> tuple[str, int, int]:
    """The bare map's picture of the map files of ``path`` (default: the packaged map) and its land and sea areas'
    counts: the one kept in ``home`` when it matches, else drawn (``data.mapdata``'s errors raised as they are) and
    kept there."""
    k = key(path)
    found = read(home, k) if k is not None else None
    if found is not None:
        return found
    drawn = _DRAWN.get(k) if k is not None else None
    if drawn is None:
        from eiapbem.data import mapdata
        from eiapbem.present import svgmap

        m = mapdata.load_map(path)
        drawn = svgmap.render_svg(m, controllers=None, units=None, title="Europe in 1805"), len(m.areas), len(m.seas)
        if k is not None:
            _DRAWN[k] = drawn
    if k is not None:
        write(home, k, *drawn)
    return drawn


def ensure(home: Path) -> None:
    """Keep the packaged bare map's picture in ``home`` when none matches, so that a first ``map --svg`` in a game
    folder is a copy: called when a status record is made (``cli/answers.py``), it draws at most once a folder and
    version (a missing picture costs the drawing, about 0.1 s; a kept one a look at its first line)."""
    k = key(None)
    if k is not None and read_head(home, k):
        return
    bare(home, None)


def read_head(home: Path, k: str) -> bool:
    """Whether a picture of key ``k`` is kept (its first line alone read: ``read`` checks the whole)."""
    try:
        with _file(home, k).open("rb") as f:
            fields = f.readline().decode("ascii", "replace").split(" ")
    except OSError:
        return False
    return len(fields) == 5 and fields[0] == _MAGIC and fields[1] == k
