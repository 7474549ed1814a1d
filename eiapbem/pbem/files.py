"""The file kinds as functions for the game loop (docs/file-format.md).

Each ``write_*`` returns the sealed bytes and the chain after them; each
``load_*``/``open_*`` parses, checks and opens a file from outside and returns
the new chain with the opened body, or raises a ``BadFile`` subclass leaving
everything as it was.  Bodies are opaque canonical values: the game loop
decides what a turn, a state or a battle step holds.

A file from outside is parsed once (``receive``, ``read_file``): the
``Received`` record holds its bytes, envelope and hash, and every later step
(the fork check, the chain, the audit, the host's sync check) takes it as it
is.  ``open_file`` is the one opening sequence of a game file: its game and
epoch, its author's signature against the roster, then its body sealed for
the reader.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Iterable, Mapping

from eiapbem.core.errors import BadEncoding

from . import crypto, envelope, folders, segments
from .chain import Battle, Chain, Step
from .dice import next_reveal
from .envelope import Envelope, Header, RosterEntry
from .headers import AdminHeader, BackupHeader, BattleHeader, GamestartHeader, TurnHeader
from .errors import AlreadyLoaded, BadFormat, BadHeader, NotForYou, Obsolete, WrongKind
from .keys import Identity

Rng = crypto.Rng


@dataclass(frozen=True)
class Received:
    """A file from outside, read and parsed once: its name, its bytes, its envelope and its file hash."""

    name: str
    data: bytes
    env: Envelope
    hash: bytes

    @property
    def header(self) -> Header:
        return self.env.header


def receive(data: "bytes | Received", name: str, *, max_size: int = envelope.MAX_FILE) -> Received:
    """Parse a file's bytes once (``envelope.parse``: every limit, the header); a ``Received`` is handed on as it is."""
    if isinstance(data, Received):
        return data
    env = envelope.parse(data, name, max_size=max_size)
    return Received(name, bytes(data), env, crypto.file_hash(env))


def read_file(path: Path, *, max_size: int = envelope.MAX_FILE) -> Received:
    """Read a file from outside (refused before reading if too big) and parse it once."""
    return receive(folders.read_limited(path, max_size), path.name, max_size=max_size)


def read_header(path: Path) -> Header:
    """The clear header of a file, reading only its first bytes (the file layer's checks of ``parse`` on them).

    For a look over many files (which ones a folder holds past its save) without reading each one whole; a
    file that matters is then read whole (``read_file``) and checked as any other."""
    try:
        with path.open("rb") as f:
            head = f.read(len(envelope.MAGIC) + 4)
            if len(head) < len(envelope.MAGIC) + 4 or not head.startswith(envelope.MAGIC):
                raise BadFormat(f"{path.name} is not an eiapbem file")
            hlen = int.from_bytes(head[len(envelope.MAGIC):], "big")
            if not 1 <= hlen <= envelope.MAX_HEADER:
                raise BadFormat(f"{path.name} declares a header of {hlen} bytes, outside 1 to {envelope.MAX_HEADER}")
            data = f.read(hlen)
    except OSError as err:
        raise BadFormat(f"{path.name} could not be read ({err.strerror})") from err
    if len(data) != hlen:
        raise BadFormat(f"{path.name} is truncated inside its header")
    return envelope.decode_header(data, path.name)


def open_file(rec: Received, chain: Chain, me: Iterable[Identity], *, verified: bool = False,
              any_epoch: bool = False) -> Any:
    """The opening of a game file: its game and epoch, its author's signature (unless ``verified``), its body.

    ``any_epoch`` opens a file of an epoch before the chain's too (the host compares a player's older
    file).  The body is the canonical value sealed for the first of ``me`` the file names; a ``BadFile``
    says what does not fit, and nothing is changed."""
    if not verified:
        chain.verify(rec.env, rec.name, any_epoch=any_epoch)
    return _open_for(rec.env, me, rec.name)


def _parse(data: "bytes | Received", name: str, kind: str | tuple[str, ...], max_size: int = envelope.MAX_FILE) -> Envelope:
    env = receive(data, name, max_size=max_size).env
    kinds = (kind,) if isinstance(kind, str) else kind
    if env.header.kind not in kinds:
        raise WrongKind(f"{name} is a {env.header.kind} file, not a {' or '.join(kinds)} file")
    return env


def game_recipients(roster: Mapping[str, RosterEntry]) -> list[crypto.ToKey]:
    """Every member of the game: the powers and the host (the arbitrator only reads bids)."""
    return [crypto.ToKey(r, roster[r].enc) for r in envelope.ROLES if r in roster and r != "arbitrator"]


def _open_for(env: Envelope, identities: Iterable[Identity], name: str, dat: bytes | None = None) -> Any:
    ids = list(identities)
    for ident in ids:
        if env.header.stanza_for(ident.role) is not None:
            fk = crypto.unwrap_key(env, ident.role, ident.decrypter, name)
            return crypto.open_body(env, fk, name, dat=dat)
    roles = ", ".join(i.role for i in ids)
    raise NotForYou(f"{name} is not sealed for {roles}; it is meant for {', '.join(s.role for s in env.header.to)}")


# --- gamestart -------------------------------------------------------------------


def create_gamestart(
    host: Identity, roster: Mapping[str, RosterEntry], game: str, gid: bytes, body: Any, rng: Rng = os.urandom
) -> tuple[crypto.Sealed, Chain]:
    """The gamestart file (``GameName_gamestart.pbm``, ``000:106``): fixes every public key."""
    if roster.get("host") != host.public():
        raise ValueError("the roster must hold the host's own public keys")
    sealed = crypto.seal(
        kind="gamestart",
        game=game,
        gid=gid,
        slot="gamestart",
        author="host",
        signer=host.signer,
        to=game_recipients(roster),
        body=body,
        roster=dict(roster),
        rng=rng,
    )
    return sealed, Chain.from_gamestart(sealed.header, sealed.hash)


def open_gamestart(data: bytes, me: Iterable[Identity], name: str = "the gamestart file") -> tuple[Chain, Any]:
    """Load a gamestart file (the only time it is used, ``000:130``)."""
    env = _parse(data, name, "gamestart")
    h = env.header
    assert isinstance(h, GamestartHeader)
    host = h.roster.get("host")
    if host is None:
        raise BadHeader(f"{name} names no host key")
    crypto.verify(env, host.sign, name)
    ids = list(me)
    for ident in ids:
        if h.roster.get(ident.role) != ident.public():
            raise NotForYou(f"{name} holds other keys for {ident.role} than yours; it is not your game or not your key file")
    body = _open_for(env, ids, name)
    return Chain.from_gamestart(h, crypto.file_hash(env)), body


# --- turn and admin files -------------------------------------------------------


@dataclass(frozen=True)
class Loaded:
    """A file accepted into the chain: the chain after it, its header, body, hash and dice seed."""

    chain: Chain
    header: Header
    body: Any
    hash: bytes
    seed: bytes | None


def write_turn(
    chain: Chain,
    author: Identity,
    step: Step,
    slot: str,
    body: Any,
    *,
    reloads: int = 0,
    rng: Rng = os.urandom,
) -> tuple[crypto.Sealed, Chain]:
    """A turn file for ``slot`` (its dice seed was ``dice.seed_for_next`` before the author acted)."""
    link, reveal = next_reveal(chain, author)
    sealed = crypto.seal(
        kind="turn",
        game=chain.game,
        gid=chain.gid,
        slot=slot,
        author=author.role,
        signer=author.signer,
        to=game_recipients(chain.roster),
        body=body,
        seq=chain.seq + 1,
        epoch=chain.epoch,
        prev=chain.head,
        reveal=reveal,
        link=link,
        reloads=reloads,
        rng=rng,
    )
    return sealed, chain.record_own(sealed.header, sealed.hash, step)


def write_admin(
    chain: Chain,
    host: Identity,
    body: Any,
    *,
    roster: Mapping[str, RosterEntry] | None = None,
    rng: Rng = os.urandom,
) -> tuple[crypto.Sealed, Chain]:
    """A host-signed admin file (4.2.8); ``roster`` replaces the keys of the roles it names."""
    link, reveal = next_reveal(chain, host)
    fields: dict[str, Any] = {"reveal": reveal, "link": link}
    if roster:
        fields["roster"] = dict(roster)
    after_keys = dict(chain.roster)
    after_keys.update(roster or {})
    sealed = crypto.seal(
        kind="admin",
        game=chain.game,
        gid=chain.gid,
        slot=f"admin/{chain.seq + 1}",
        author="host",
        signer=host.signer,
        to=game_recipients(after_keys),
        body=body,
        seq=chain.seq + 1,
        epoch=chain.epoch,
        prev=chain.head,
        rng=rng,
        **fields,
    )
    return sealed, chain.record_own(sealed.header, sealed.hash, None)


def load_file(
    chain: Chain, data: "bytes | Received", me: Iterable[Identity], step: Step | None, name: str, *,
    own: Iterable[str] = (), own_ok: bool = False,
) -> Loaded:
    """Load a turn or admin file from ``commin/``; refuse it (nothing changed) if it does not fit.

    ``own`` names further roles played from this folder (hot-seat, 4.2.1): their
    files are refused as the client's own like those of ``me``, unless ``own_ok`` (an audit
    replays a folder's own files too).
    """
    ids = list(me)
    rec = receive(data, name)
    env = _parse(rec, name, ("turn", "admin"))
    new_chain = chain.accept(env, name, me=[] if own_ok else [i.role for i in ids] + list(own), step=step)
    body = open_file(rec, chain, ids, verified=True)
    h = env.header
    assert isinstance(h, (TurnHeader, AdminHeader))
    return Loaded(new_chain, h, body, rec.hash, crypto.dice_seed(h.reveal, h.prev, h.kind))


# --- upgrade files ------------------------------------------------------------------


def write_upgrade(chain: Chain, host: Identity, body: Any, *, versions: Mapping[str, int], release: str,
                  state_hash: bytes, rng: Rng = os.urandom) -> tuple[crypto.Sealed, Chain]:
    """The host's upgrade file: a new epoch under ``versions`` (docs/file-format.md 6), sealed to every member."""
    sealed = crypto.seal(
        kind="upgrade",
        game=chain.game,
        gid=chain.gid,
        slot=f"upgrade/{chain.epoch + 1}",
        author="host",
        signer=host.signer,
        to=game_recipients(chain.roster),
        body=body,
        seq=chain.seq + 1,
        epoch=chain.epoch + 1,
        prev=chain.head,
        versions=dict(versions),
        release=release,
        state=state_hash,
        roster=dict(chain.roster),
        dicepos=dict(chain.dicepos),
        rng=rng,
    )
    return sealed, Chain.from_upgrade(sealed.header, sealed.hash, chain.known)


def load_upgrade(chain: Chain, data: "bytes | Received", me: Iterable[Identity], name: str) -> tuple[Chain, Any]:
    """Check and open the host's upgrade file; the chain after it (a new epoch) and its body."""
    rec = receive(data, name)
    new_chain = chain.accept_upgrade(rec.env, name)
    return new_chain, open_file(rec, chain, me, verified=True)


# --- battle files -----------------------------------------------------------------


def write_battle(
    chain: Chain,
    battle: Battle,
    author: Identity,
    slot: str,
    body: Any,
    *,
    commit: bytes | None = None,
    nonce: bytes | None = None,
    reloads: int = 0,
    rng: Rng = os.urandom,
) -> tuple[crypto.Sealed, Battle]:
    fields: dict[str, Any] = {"reloads": reloads}
    if commit is not None:
        fields["commit"] = commit
    if nonce is not None:
        fields["nonce"] = nonce
    sealed = crypto.seal(
        kind="battle",
        game=chain.game,
        gid=chain.gid,
        slot=slot,
        author=author.role,
        signer=author.signer,
        to=[crypto.ToKey(r, chain.roster[r].enc) for r in battle.sides],
        body=body,
        seq=battle.seq + 1,
        epoch=chain.epoch,
        prev=battle.head,
        rng=rng,
        **fields,
    )
    return sealed, battle.record_own(sealed.header, sealed.hash)


def load_battle(chain: Chain, battle: Battle, data: "bytes | Received", me: Iterable[Identity],
                name: str) -> tuple[Battle, BattleHeader, Any]:
    ids = list(me)
    env = _parse(data, name, "battle")
    new_battle = battle.accept(chain, env, name, me=[i.role for i in ids])
    h = env.header
    assert isinstance(h, BattleHeader)  # its kind, checked above
    return new_battle, h, _open_for(env, ids, name)


# --- saves and backups -------------------------------------------------------------


@dataclass(frozen=True)
class SaveContents:
    """What a player's save holds: the chain record, the game's state and slot start counts."""

    chain: Chain
    game: Any
    starts: Mapping[str, int]
    #: Which of the growing parts are in segment files already (``pbem/segments.py``): a memo of the
    #: save this was read from or last written as, checked before use, never part of the value.
    archive: segments.Archive | None = field(default=None, compare=False, repr=False)

    def to_obj(self) -> dict[str, Any]:
        return {"chain": self.chain.to_obj(), "game": self.game, "starts": dict(self.starts)}

    @classmethod
    def from_obj(cls, o: Any, name: str) -> "SaveContents":
        if not isinstance(o, dict) or set(o) != {"chain", "game", "starts"}:
            raise BadEncoding(f"{name} does not hold a save in the expected form")
        starts = o["starts"]
        if not isinstance(starts, dict) or not all(isinstance(v, int) and v >= 0 for v in starts.values()):
            raise BadEncoding(f"{name} holds slot start counts in an unknown form")
        return cls(Chain.from_obj(o["chain"]), o["game"], dict(starts))

    def start(self, slot: str) -> tuple["SaveContents", int]:
        """Count one more start of ``slot``; return the new contents and the reloads so far (4.2.7)."""
        starts = dict(self.starts)
        starts[slot] = starts.get(slot, 0) + 1
        return replace(self, starts=starts), starts[slot] - 1


def write_save(
    contents: SaveContents, me: Identity, rng: Rng = os.urandom, also: Mapping[str, RosterEntry] | None = None,
    body: Any = None,
) -> crypto.Sealed:
    """``save/GameName.sav`` + ``.sav.dat``: signed by the player, sealed to the player's own key.

    ``also`` seals it to the other roles played from the same folder too (a
    hot-seat folder, 4.2.1: each power opens the one save with its own password).
    ``body`` is the body to seal when it is not ``contents.to_obj()`` (a body naming
    segments, ``client/store.py``); ``contents`` still gives the header.
    """
    ch = contents.chain
    to = [crypto.ToKey(me.role, me.public().enc)]
    to += [crypto.ToKey(r, e.enc) for r, e in sorted((also or {}).items()) if r != me.role]
    return crypto.seal(
        kind="save",
        game=ch.game,
        gid=ch.gid,
        slot="save",
        author=me.role,
        signer=me.signer,
        to=to,
        body=contents.to_obj() if body is None else body,
        seq=ch.seq,
        epoch=ch.epoch,
        prev=ch.head,
        rng=rng,
    )


def open_save(
    sav: bytes, dat: bytes, me: Identity, name: str = "the save", authors: Mapping[str, RosterEntry] | None = None,
    parts: segments.Segments | None = None,
) -> SaveContents:
    """Open a save; ``authors`` are the public keys of the roles of this folder that may have written it.

    ``parts`` is the folder's segment files (``pbem/segments.py``): a save naming
    segments is read back whole from them (the signed save names each one's hash).
    """
    env = _parse(sav, name, "save", max_size=envelope.MAX_SAV)
    keys_ok = dict(authors or {})
    keys_ok[me.role] = me.public()
    if env.header.author not in keys_ok:
        raise NotForYou(f"{name} is {env.header.author}'s save, not {me.role}'s")
    crypto.verify(env, keys_ok[env.header.author].sign, name)
    fk = crypto.unwrap_key(env, me.role, me.decrypter, name)
    body, archive = segments.join(crypto.open_body(env, fk, name, dat=dat), parts, name)
    contents = replace(SaveContents.from_obj(body, name), archive=archive)
    if contents.chain.gid != env.header.gid or contents.chain.head != env.header.prev:
        raise BadHeader(f"{name} has a header that does not match the chain inside it")
    return contents


def write_backups(
    chain: Chain,
    host: Identity,
    state_hash: bytes,
    bodies: Mapping[str, Any],
    rng: Rng = os.urandom,
) -> dict[str, crypto.Sealed]:
    """One backup per member (``GameName_backup_forplayer_Austria.sav``, ``000:222-224``), a new epoch."""
    out = {}
    for power, body in bodies.items():
        out[power] = crypto.seal(
            kind="backup",
            game=chain.game,
            gid=chain.gid,
            slot=f"backup/{chain.epoch + 1}",
            author="host",
            signer=host.signer,
            to=[crypto.ToKey(power, chain.roster[power].enc)],
            body=body,
            seq=chain.seq,
            epoch=chain.epoch + 1,
            prev=chain.head,
            roster=dict(chain.roster),
            dicepos=dict(chain.dicepos),
            state=state_hash,
            power=power,
            rng=rng,
        )
    return out


def open_backup(
    sav: bytes, dat: bytes, me: Identity, chain: Chain | None, name: str = "the backup"
) -> tuple[Chain, Any]:
    """Load a host backup: the chain restarts in the backup's epoch; older files become obsolete.

    A player who has no chain yet (a replacement player, ``000:208``) trusts the
    host key the backup names, as a new player trusts the gamestart file.
    """
    env = _parse(sav, name, "backup", max_size=envelope.MAX_SAV)
    h = env.header
    assert isinstance(h, BackupHeader)
    if chain is not None:
        chain.check_game(h, name)
        fh = crypto.file_hash(env)
        if fh in chain.known:
            raise AlreadyLoaded(f"{name} was already loaded; nothing changed")
        if h.epoch <= chain.epoch:
            raise Obsolete(f"{name} is a backup of epoch {h.epoch} but you are already in epoch {chain.epoch}")
        crypto.verify_with_roster(env, dict(chain.roster), name)
    else:
        if "host" not in h.roster:
            raise BadHeader(f"{name} names no host key")
        crypto.verify(env, h.roster["host"].sign, name)
    if h.power != me.role:
        raise NotForYou(f"{name} is the backup for {h.power}, not for {me.role}")
    if h.roster.get(me.role) != me.public():
        raise NotForYou(f"{name} holds other keys for {me.role} than yours")
    fk = crypto.unwrap_key(env, me.role, me.decrypter, name)
    body = crypto.open_body(env, fk, name, dat=dat)
    known = chain.known if chain is not None else ()
    return Chain.from_backup(h, crypto.file_hash(env), known), body


# --- setup files -------------------------------------------------------------------


def write_setup(chain: Chain, me: Identity, body: Any, rng: Rng = os.urandom) -> crypto.Sealed:
    """A saved force setup (5.2.2, 14.5), sealed to its own player in this game."""
    return crypto.seal(
        kind="setup",
        game=chain.game,
        gid=chain.gid,
        slot="setup",
        author=me.role,
        signer=me.signer,
        to=[crypto.ToKey(me.role, me.public().enc)],
        body=body,
        rng=rng,
    )


def open_setup(data: bytes, me: Identity, name: str = "the setup file") -> Any:
    env = _parse(data, name, "setup")
    if env.header.author != me.role:
        raise NotForYou(f"{name} is {env.header.author}'s setup, not {me.role}'s")
    crypto.verify(env, me.public().sign, name)
    fk = crypto.unwrap_key(env, me.role, me.decrypter, name)
    return crypto.open_body(env, fk, name)
