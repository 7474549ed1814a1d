"""Atomic writes: a crash at any moment leaves either the old file or the new one.

``write_atomic`` writes a temporary file in the same folder, flushes and
fsyncs it, renames it over the target and fsyncs the folder.  A save is two
files (``.sav`` names the hash of its ``.sav.dat``); ``write_save_pair`` keeps
the previous ``.sav.dat`` as ``.sav.dat.old`` until the new ``.sav`` is in
place, and ``read_save_pair`` falls back to it, so every moment of a crash
leaves a consistent save.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from pathlib import Path

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


def _write_temp(path: Path, data: bytes) -> Path:
    fd, tmp = tempfile.mkstemp(prefix="." + path.name + ".", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
    return Path(tmp)


def write_atomic(path: Path | str, data: bytes) -> None:
    """Replace ``path`` by ``data`` so that no reader ever sees a partial file."""
    path = Path(path)
    tmp = _write_temp(path, data)
    try:
        os.replace(tmp, path)
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    _fsync_dir(path.parent)


def write_save_pair(sav_path: Path | str, sav: bytes, dat: bytes) -> None:
    """Write ``X.sav`` and ``X.sav.dat`` so that a crash leaves the old pair or the new pair."""
    sav_path = Path(sav_path)
    dat_path = sav_path.with_name(sav_path.name + ".dat")
    old_path = sav_path.with_name(sav_path.name + ".dat.old")
    tmp_dat = _write_temp(dat_path, dat)
    tmp_sav = _write_temp(sav_path, sav)
    try:
        try:
            current = _read_pair(sav_path)[2]
        except BadFile:
            current = None
        if current == dat_path:
            # Keep the .dat the current .sav names under .old before replacing .dat: renamed, not
            # copied (a copy rewrote the whole save a second time at every save, a cost growing with
            # the journal).  Until the new .dat is in place the current .sav finds its bytes as .old.
            # When the current one already is the .old (after an earlier crash) it stays where it is.
            os.replace(dat_path, old_path)
            _fsync_dir(sav_path.parent)
        os.replace(tmp_dat, dat_path)
        _fsync_dir(sav_path.parent)
        os.replace(tmp_sav, sav_path)
        _fsync_dir(sav_path.parent)
    finally:
        tmp_dat.unlink(missing_ok=True)
        tmp_sav.unlink(missing_ok=True)


def read_save_pair(sav_path: Path | str, max_dat: int = envelope.MAX_FILE) -> tuple[bytes, bytes]:
    """The ``.sav`` bytes and the ``.sav.dat`` bytes it names (the current one or the kept old one)."""
    sav, dat, _path = _read_pair(Path(sav_path), max_dat)
    return sav, dat


def _read_pair(sav_path: Path, max_dat: int = envelope.MAX_FILE) -> tuple[bytes, bytes, Path]:
    """``read_save_pair`` and the path the ``.sav.dat`` bytes came from."""
    name = sav_path.name
    try:
        if sav_path.stat().st_size > envelope.MAX_SAV:
            raise BadFormat(f"{name} is over the limit of {envelope.MAX_SAV} bytes; it is not an eiapbem save")
        sav = sav_path.read_bytes()
    except FileNotFoundError as err:
        raise BadFormat(f"there is no save {name} in {sav_path.parent}", hint="check the game name") from err
    except OSError as err:
        raise BadFormat(f"{name} could not be read ({err.strerror})") from err
    env = envelope.parse(sav, name, max_size=envelope.MAX_SAV)
    if env.header.dat is None:
        raise WrongKind(f"{name} is a {env.header.kind} file, not a save")
    length, sha = env.header.dat
    candidates = [sav_path.with_name(name + ".dat"), sav_path.with_name(name + ".dat.old")]
    for p in candidates:
        try:
            if p.stat().st_size != length or length > max_dat:
                continue
            dat = p.read_bytes()
        except OSError:
            continue
        if hashlib.sha256(dat).digest() == sha:
            return sav, dat, p
    raise BadEncryption(
        f"the .sav.dat beside {name} is missing or is not the one it was saved with",
        hint="put the .sav and its .sav.dat from the same save together in save/",
    )
