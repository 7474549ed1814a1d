"""Atomic writes: a crash at any moment leaves either the old file or the new one.

``write_atomic`` writes a temporary file in the same folder, flushes and
fsyncs it, renames it over the target and fsyncs the folder.  A save is two
files (``.sav`` names the hash of its ``.sav.dat``); ``write_save_pair`` keeps
the previous ``.sav.dat`` as ``.sav.dat.old`` until the new ``.sav`` is in
place (by renaming it: the bytes the current ``.sav`` names are never
rewritten), and ``read_save_pair`` falls back to it, so every moment of a
crash leaves a consistent save.

``durable=False`` (copies kept for convenience only: the rewind points, the
copies in ``commin/done`` and ``commout/sent``) writes and renames the same way
but without the fsyncs: a process killed at any moment still leaves the old
file or the whole new one; only a crash of the machine itself may leave such a
copy missing or cut short, which every reader of those copies checks anyway
(issue 18: each fsync costs 1-10 ms on a busy disk).

A temporary file is named ``.<target>.<pid>.<random>.tmp`` (a hard link being
made ``.<target>.<pid>.link.tmp``): a writer killed before its rename leaves
one behind, and ``clean_stale`` removes those whose process is gone when the
folder is next opened (issue 29).
"""

from __future__ import annotations

import hashlib
import os
import re
import tempfile
import time
from pathlib import Path
from typing import NamedTuple

from eiapbem.core.errors import BadFile

from . import envelope
from .errors import BadEncryption, BadFormat, WrongKind


def _fsync_dir(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return  # some platforms cannot open a folder; the rename is still atomic
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _write_temp(path: Path, data: bytes, durable: bool = True) -> Path:
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.{os.getpid()}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            if durable:
                f.flush()
                os.fsync(f.fileno())
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return Path(tmp)


def write_atomic(path: Path | str, data: bytes, *, durable: bool = True) -> None:
    """Replace ``path`` by ``data`` so that no reader ever sees a partial file (on disk for good unless ``durable`` is False)."""
    path = Path(path)
    tmp = _write_temp(path, data, durable)
    try:
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    if durable:
        _fsync_dir(path.parent)


def write_save_pair(sav_path: Path | str, sav: bytes, dat: bytes, *, durable: bool = True) -> None:
    """Write ``X.sav`` and ``X.sav.dat`` so that a crash leaves the old pair or the new pair.

    The ``.sav.dat`` the current ``.sav`` names is renamed to ``.sav.dat.old``
    (unless it already is the ``.old`` one, after an earlier crash), then the new
    ``.dat`` and the new ``.sav`` are renamed into place, each rename on disk
    before the next (the folder fsynced): at every moment the ``.sav`` on disk
    finds the ``.dat`` it names under one of the two names.
    """
    sav_path = Path(sav_path)
    dat_path = sav_path.with_name(sav_path.name + ".dat")
    old_path = sav_path.with_name(sav_path.name + ".dat.old")
    tmp_dat = _write_temp(dat_path, dat, durable)
    tmp_sav = _write_temp(sav_path, sav, durable)
    try:
        try:
            current: Path | None = _current_dat(sav_path)
        except BadFile:
            current = None
        if current == dat_path:
            # Keep the .dat the current .sav names under .old before replacing .dat (a rename: its
            # bytes, on disk since they were saved, are not written again).
            os.replace(dat_path, old_path)
            if durable:
                _fsync_dir(sav_path.parent)
        os.replace(tmp_dat, dat_path)
        if durable:
            _fsync_dir(sav_path.parent)
        os.replace(tmp_sav, sav_path)
        if durable:
            _fsync_dir(sav_path.parent)
    finally:
        tmp_dat.unlink(missing_ok=True)
        tmp_sav.unlink(missing_ok=True)


def read_save_pair(sav_path: Path | str, max_dat: int = envelope.MAX_FILE) -> tuple[bytes, bytes]:
    """The ``.sav`` bytes and the ``.sav.dat`` bytes it names (the current one or the kept old one)."""
    pair = read_save_files(sav_path, max_dat)
    return pair.sav, pair.dat


class SaveFiles(NamedTuple):
    """A save pair as read: its bytes, and the two files they were read from with their ids (device, inode)."""

    sav: bytes
    dat: bytes
    sav_file: tuple[Path, tuple[int, int]]
    dat_file: tuple[Path, tuple[int, int]]


def read_save_files(sav_path: Path | str, max_dat: int = envelope.MAX_FILE) -> SaveFiles:
    """``read_save_pair`` with the files the bytes came from (``.sav.dat`` or ``.sav.dat.old``)."""
    sav_path = Path(sav_path)
    name = sav_path.name
    try:
        if sav_path.stat().st_size > envelope.MAX_SAV:
            raise BadFormat(f"{name} is over the limit of {envelope.MAX_SAV} bytes; it is not an eiapbem save")
        sav, sav_id = _read(sav_path)
    except FileNotFoundError as err:
        raise BadFormat(f"there is no save {name} in {sav_path.parent}", hint="check the game name") from err
    except OSError as err:
        raise BadFormat(f"{name} could not be read ({err.strerror})") from err
    env = envelope.parse(sav, name, max_size=envelope.MAX_SAV)
    ref = getattr(env.header, "dat", None)
    if ref is None:
        raise WrongKind(f"{name} is a {env.header.kind} file, not a save")
    length, sha = ref.len, ref.sha256
    candidates = [sav_path.with_name(name + ".dat"), sav_path.with_name(name + ".dat.old")]
    for p in candidates:
        try:
            if p.stat().st_size != length or length > max_dat:
                continue
            dat, dat_id = _read(p)
        except OSError:
            continue
        if hashlib.sha256(dat).digest() == sha:
            return SaveFiles(sav, dat, (sav_path, sav_id), (p, dat_id))
    raise BadEncryption(
        f"the .sav.dat beside {name} is missing or is not the one it was saved with",
        hint="put the .sav and its .sav.dat from the same save together in save/",
    )


_TMP = re.compile(r"\..+\.(\d+)\.[^.]+\.tmp\Z")
#: A temporary file whose writer cannot be told (a name without a process id) is stale after this long.
STALE_SECONDS = 600


def _alive(pid: int) -> bool:
    if os.name != "posix":
        return True  # no safe way to ask elsewhere: the age rule decides
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True  # another user's process, or no right to ask: assume it is writing
    return True


def clean_stale(folder: Path, *, now: float | None = None) -> list[Path]:
    """Remove the temporary files a killed writer left in ``folder``; return them.

    A temporary file of a process still running is left alone (it is being written); one whose name
    carries no process id only once it is older than ``STALE_SECONDS``.  Never raises."""
    out: list[Path] = []
    try:
        entries = list(Path(folder).iterdir())
    except OSError:
        return out
    now = time.time() if now is None else now
    for p in entries:
        name = p.name
        if not (name.startswith(".") and name.endswith(".tmp")):
            continue
        m = _TMP.match(name)
        try:
            if m is not None and int(m.group(1)) != os.getpid():
                stale = not _alive(int(m.group(1)))
            else:
                stale = m is None and now - p.stat().st_mtime > STALE_SECONDS
            if stale and p.is_file():
                p.unlink()
                out.append(p)
        except (OSError, ValueError):
            continue
    return out


def _read(path: Path) -> tuple[bytes, tuple[int, int]]:
    with open(path, "rb") as f:
        st = os.fstat(f.fileno())
        return f.read(), (st.st_dev, st.st_ino)


def _current_dat(sav_path: Path) -> Path:
    """Which file holds the ``.sav.dat`` the ``.sav`` names: ``X.sav.dat`` or ``X.sav.dat.old``."""
    return read_save_files(sav_path).dat_file[0]


def keep_save_pair(target: Path | str, pair: SaveFiles) -> None:
    """A copy of a save pair read by ``read_save_files`` as ``target`` (+ ``.dat``), not durable.

    The files are hard-linked when they are still the ones read (a save file is
    never changed in place: every write renames a new file over it), so no byte
    is written; else, or where the file system has no hard links, the bytes are
    written (``write_save_pair(..., durable=False)``).
    """
    target = Path(target)
    made: list[Path] = []
    try:
        for (src, ident), dst in ((pair.dat_file, target.with_name(target.name + ".dat")), (pair.sav_file, target)):
            tmp = dst.with_name(f".{dst.name}.{os.getpid()}.link.tmp")
            tmp.unlink(missing_ok=True)
            os.link(src, tmp)
            made.append(tmp)
            st = os.stat(tmp)
            if (st.st_dev, st.st_ino) != ident:
                raise FileExistsError("the save was replaced since it was read")
        os.replace(made[0], target.with_name(target.name + ".dat"))
        os.replace(made[1], target)
    except OSError:
        for tmp in made:
            tmp.unlink(missing_ok=True)
        write_save_pair(target, pair.sav, pair.dat, durable=False)
