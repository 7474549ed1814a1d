"""A real seven-folder game played in-process, for the audit, fork, fuzz and fault tests (issue 20).

``play(root)`` creates a game with the host playing Russia in ``root/host`` and
six clients in ``root/<POWER>``, plays the setup, then ``slots`` more slots
(one host admin file among them when ``admin`` is true), copying every file
from its author's ``commout/`` to every other ``commin/`` and loading it there.
Keys are sealed with the weak test scrypt parameters.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

from eiapbem.client import setups
from eiapbem.client.session import TEST_SCRYPT_ENV, Session, open_identity
from eiapbem.host import admin as hadmin
from eiapbem.pbem import crypto, envelope, keys
from eiapbem.rules.model import POWERS
from eiapbem.rules.sequence import SETUP_ORDER
from sevenfolders import HOST_PW, new_by_api, pw

GAME = "Audit"
FAST = "10,1,1"


def home_of(root: Path, p: str) -> Path:
    return root / ("host" if p in ("RU", "host") else p)


def identity(root: Path, p: str) -> keys.Identity:
    return open_identity(home_of(root, p), GAME, p, HOST_PW if p == "host" else pw(p))


def deliver(root: Path, author: str, path: Path) -> None:
    for q in POWERS:
        if home_of(root, q) != home_of(root, author):
            shutil.copy(path, home_of(root, q) / "commin" / path.name)


def load_everyone(root: Path, ids: dict) -> None:
    for q in POWERS:
        s = Session.open_with(home_of(root, q), GAME, ids[q])
        rep = s.load_all()
        assert not rep.refused, (q, rep.refused)
    h = Session.open_with(home_of(root, "host"), GAME, ids["host"])
    rep = h.load_all()
    assert not rep.refused, ("host", rep.refused)


def hashes(root: Path, ids: dict) -> dict[str, bytes]:
    return {p: Session.open_with(home_of(root, p), GAME, ids[p]).state.state_hash() for p in POWERS}


def new(root: Path) -> dict[str, keys.Identity]:
    """A fresh game in ``root``: the host's folder and six joined clients; returns every identity."""
    os.environ[TEST_SCRYPT_ENV] = FAST
    new_by_api({p: home_of(root, p) for p in POWERS}, {p: "host" if p == "RU" else "client" for p in POWERS}, game=GAME,
               flags=["allow-pbem-host-functions", "full-pace"])  # every reinforcement slot a file of its own
    return {p: identity(root, p) for p in POWERS + ("host",)}


def play_slot(root: Path, ids: dict) -> list[Path]:
    st = Session.open_with(home_of(root, "RU"), GAME, ids["RU"]).state
    paths = []
    for p in st.slot.actors:
        s = Session.open_with(home_of(root, p), GAME, ids[p])
        if st.slot.phase.value == "setup":
            setups.load_setup(s, "default")
        paths.append((p, s.end_phase()))
    for p, path in paths:
        deliver(root, p, path)
    load_everyone(root, ids)
    return [path for _, path in paths]


def host_skip(root: Path, ids: dict) -> Path:
    h = Session.open_with(home_of(root, "host"), GAME, ids["host"])
    path = hadmin.skip(h)
    deliver(root, "host", path)
    load_everyone(root, ids)
    return path


def play(root: Path, slots: int = 4, admin: bool = True) -> dict[str, keys.Identity]:
    """The setup (7 slots), then ``slots`` more; when ``admin``, the host skips the first player's slot after the
    first of them (the diplomacy phase's rounds are played by every power at once and cannot be skipped)."""
    ids = new(root)
    for _ in SETUP_ORDER:
        play_slot(root, ids)
    skipped = not admin
    for i in range(slots):
        slot = Session.open_with(home_of(root, "RU"), GAME, ids["RU"]).state.slot
        if not skipped and i >= 1 and not slot.simultaneous:
            host_skip(root, ids)
            skipped = True
        else:
            play_slot(root, ids)
    assert len(set(hashes(root, ids).values())) == 1
    return ids


def reseal(data: bytes, author: keys.Identity, reader: keys.Identity, roster: dict, body_fn) -> bytes:
    """The same file with its body changed by ``body_fn`` and validly signed again by its author.

    This is what a member with a patched client can send: every header field
    (chain link, dice reveal, reloads) is kept, only the body differs.
    """
    env = envelope.parse(data)
    h = env.header
    fk = crypto.unwrap_key(env, reader.role, reader.decrypter)
    body = body_fn(crypto.open_body(env, fk))
    fields = {n: getattr(h, n) for n in ("reveal", "link", "reloads", "roster", "commit", "nonce")
              if getattr(h, n, None) is not None}
    to = [crypto.ToKey(s.role, roster[s.role].enc) for s in h.to]
    return crypto.seal(kind=h.kind, game=h.game, gid=h.gid, slot=h.slot, author=h.author, signer=author.signer,
                       to=to, body=body, seq=h.seq, epoch=h.epoch, prev=h.prev, **fields).data


def play_to_own_file(root: Path, ids: dict, power: str = "FR") -> None:
    """Play the setup slot by slot until ``power`` has set up and its file is loaded everywhere."""
    while True:
        st = Session.open_with(home_of(root, "RU"), GAME, ids["RU"]).state
        play_slot(root, ids)
        if st.slot.power == power:
            return


def rewind_points(home: Path) -> list[Path]:
    """A folder's rewind copies of its save (``rewind/``), oldest first."""
    return sorted((home / "rewind").glob(f"{GAME}_at_*.sav"), key=lambda p: (p.stat().st_mtime_ns, p.name))


def put_back(home: Path, point: Path) -> None:
    """What a player does by hand: a copy of the save from ``rewind/`` put over the save."""
    save = home / "save" / f"{GAME}.sav"
    shutil.copy(point, save)
    shutil.copy(point.with_name(point.name + ".dat"), save.with_name(save.name + ".dat"))
    save.with_name(save.name + ".dat.old").unlink(missing_ok=True)


def game_behind(root: Path) -> dict:
    """The setup played to France's own file in ``root``; ``root/FR-behind`` a copy of France's folder with its
    save put back to the copy from before that file (a player's mistake ``eiapbem rebuild`` repairs)."""
    ids = new(root)
    play_to_own_file(root, ids, "FR")
    behind = root / "FR-behind"
    shutil.copytree(home_of(root, "FR"), behind)
    put_back(behind, rewind_points(behind)[-1])
    return ids
