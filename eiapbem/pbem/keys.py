"""Identities: each role's signing key, encryption key and dice hash chain.

Every power, the host and the arbitrator has an ``Identity``.  Its public half
(a ``RosterEntry``) is fixed in the gamestart file and changed only by a
host-signed admin or backup file.  The secret half is kept at rest in an
identity file (``GameName_FR.key``) sealed under the player's password with
scrypt (4.1.1 "PBEM-Hotseat Passwords", ``000:38``; docs/file-format.md 5).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Any

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey

from eiapbem.core.errors import BadEncoding

from . import crypto, envelope
from .envelope import ROLES, RosterEntry
from .headers import IdentityHeader
from .errors import BadHeader, WrongKind

#: Links in a dice chain: enough for one file per slot for a long campaign (each
#: role writes well under 2,000 files over ten years of monthly turns).
DEFAULT_DICE_N = 8192
MAX_KEY_FILE = 64 * 1024


#: Every ``_EVERY``-th link of a chain is kept once computed (issue 18: a link in
#: at most ``_EVERY`` hash steps instead of up to ``dice_n``); per process only,
#: in memory, beside the secret it comes from.
_EVERY = 64
_MARKS: dict[tuple[bytes, int], list[bytes]] = {}
_PUBLIC: dict[tuple[Any, ...], RosterEntry] = {}


def _checkpoints(secret: bytes, n: int) -> list[bytes]:
    """``marks[j]`` = H^(j * _EVERY)(secret) for every j with j * _EVERY <= n (computed once per process)."""
    marks = _MARKS.get((secret, n))
    if marks is None:
        marks = [secret]
        x = secret
        for k in range(1, n + 1):
            x = crypto.chain_step(x)
            if k % _EVERY == 0:
                marks.append(x)
        _MARKS[(secret, n)] = marks
    return marks


#: The key objects of the secrets in memory (beside the secrets themselves, as the identities are).
_SIGNERS: dict[bytes, Ed25519PrivateKey] = {}
_DECRYPTERS: dict[bytes, X25519PrivateKey] = {}


@dataclass(frozen=True)
class Identity:
    """A role's secret keys and dice-chain secret."""

    role: str
    sign_secret: bytes
    enc_secret: bytes
    dice_secret: bytes
    dice_n: int

    def __post_init__(self) -> None:
        if self.role not in ROLES:
            raise ValueError(f"unknown role {self.role!r}")
        if not 1 <= self.dice_n <= envelope.MAX_LINK:
            raise ValueError("dice chain length out of range")

    @classmethod
    def generate(cls, role: str, rng: crypto.Rng = os.urandom, dice_n: int = DEFAULT_DICE_N) -> "Identity":
        return cls(role, rng(32), rng(32), rng(32), dice_n)

    @property
    def signer(self) -> Ed25519PrivateKey:
        key = _SIGNERS.get(self.sign_secret)
        if key is None:  # made once per process: every file and save is signed (issue 18)
            if len(_SIGNERS) >= 64:
                _SIGNERS.clear()
            key = _SIGNERS[self.sign_secret] = Ed25519PrivateKey.from_private_bytes(self.sign_secret)
        return key

    @property
    def decrypter(self) -> X25519PrivateKey:
        key = _DECRYPTERS.get(self.enc_secret)
        if key is None:
            if len(_DECRYPTERS) >= 64:
                _DECRYPTERS.clear()
            key = _DECRYPTERS[self.enc_secret] = X25519PrivateKey.from_private_bytes(self.enc_secret)
        return key

    def link(self, i: int) -> bytes:
        """Dice link ``i`` (``L_0`` is the public commitment): H^(n-i)(secret)."""
        if not 0 <= i <= self.dice_n:
            raise ValueError(f"{self.role}'s dice chain has links 0 to {self.dice_n}, not {i}")
        steps = self.dice_n - i
        marks = _checkpoints(self.dice_secret, self.dice_n)
        x = marks[steps // _EVERY]
        for _ in range(steps % _EVERY):
            x = crypto.chain_step(x)
        return x

    def public(self) -> RosterEntry:
        key = (self.role, self.sign_secret, self.enc_secret, self.dice_secret, self.dice_n)
        entry = _PUBLIC.get(key)
        if entry is None:
            entry = RosterEntry(
                self.signer.public_key().public_bytes_raw(),
                self.decrypter.public_key().public_bytes_raw(),
                self.link(0),
                self.dice_n,
            )
            _PUBLIC[key] = entry
        return entry

    def to_obj(self) -> dict[str, Any]:
        return {"role": self.role, "sign": self.sign_secret, "enc": self.enc_secret, "dice": self.dice_secret, "n": self.dice_n}


def seal_identity(
    identity: Identity,
    password: str,
    game: str,
    *,
    logn: int = crypto.STRONG_LOGN,
    r: int = crypto.STRONG_R,
    p: int = crypto.STRONG_P,
    rng: crypto.Rng = os.urandom,
) -> bytes:
    """The identity file: the secret keys under ``password``, self-signed."""
    return crypto.seal(
        kind="identity",
        game=game,
        gid=bytes(16),
        slot="identity",
        author=identity.role,
        signer=identity.signer,
        to=[crypto.ToPassword(identity.role, password, logn, r, p)],
        body=identity.to_obj(),
        roster={identity.role: identity.public()},
        rng=rng,
    ).data


def open_identity(data: bytes, password: str, name: str = "the key file") -> Identity:
    """Open an identity file with the player's password; check it is self-consistent."""
    return open_identity_keyed(data, password, name)[0]


def open_identity_keyed(data: bytes, password: str, name: str = "the key file") -> tuple[Identity, bytes, Any]:
    """``open_identity``, with the file key the password unlocked and the scrypt stanza (clear) that wraps it:
    what seals the folder's status record to the same password (``client/statusfile.py``)."""
    env = envelope.parse(data, name, max_size=MAX_KEY_FILE)
    h = env.header
    if not isinstance(h, IdentityHeader):
        raise WrongKind(f"{name} is a {h.kind} file, not a key file")
    crypto.verify(env, h.roster[h.author].sign, name)
    fk = crypto.unwrap_password(env, password, name)
    obj = crypto.open_body(env, fk, name)
    try:
        ident = Identity(obj["role"], obj["sign"], obj["enc"], obj["dice"], obj["n"])
        ok = set(obj) == {"role", "sign", "enc", "dice", "n"} and ident.public() == h.roster[h.author]
    except (TypeError, KeyError, ValueError) as err:
        raise BadEncoding(f"{name} holds keys in an unknown form") from err
    if not ok or ident.role != h.author:
        raise BadHeader(f"the keys inside {name} do not match its public keys; it was altered")
    return ident, fk, h.to[0]


def public_of(data: bytes, name: str = "the key file") -> RosterEntry:
    """The public keys an identity file names in its clear header (self-signed; no password needed)."""
    env = envelope.parse(data, name, max_size=MAX_KEY_FILE)
    h = env.header
    if not isinstance(h, IdentityHeader):
        raise WrongKind(f"{name} is a {h.kind} file, not a key file")
    crypto.verify(env, h.roster[h.author].sign, name)
    return h.roster[h.author]
