"""Sealing and opening envelopes (docs/file-format.md sections 4, 5).

Only the ``cryptography`` package: Ed25519 signatures, X25519 + HKDF-SHA-256 key
wrapping, ChaCha20-Poly1305 for the body, scrypt for passwords.  Randomness is
injected as ``rng(n) -> bytes`` so test vectors are reproducible; real use
passes ``os.urandom`` (the default).
"""

from __future__ import annotations

import hashlib
import hmac
import os
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from cryptography.exceptions import InvalidSignature, InvalidTag
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey, Ed25519PublicKey
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey, X25519PublicKey
from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305
from cryptography.hazmat.primitives.kdf.hkdf import HKDF

from eiapbem.core.errors import BadEncoding
from eiapbem.core import canonical

from . import envelope as env_mod
from . import kdf
from . import headers
from .envelope import Envelope, Header, RosterEntry, Stanza
from .envelope import file_hash as file_hash, fingerprint as fingerprint  # the file's identity (envelope.py)
from .errors import BadEncryption, BadFormat, BadHeader, BadSignature, NotForYou, WrongPassword

Rng = Callable[[int], bytes]
ZERO_NONCE = kdf.ZERO_NONCE
MAX_PLAINTEXT = 32 * 1024 * 1024
MAX_BODY_CONTAINER = 1_000_000
#: scrypt work factors: strong for real use, the reader's upper limits in envelope.
STRONG_LOGN, STRONG_R, STRONG_P = 17, 8, 1


def label(kind: str) -> bytes:
    """The domain-separation label of a kind, e.g. ``eiapbem/v1/turn``."""
    return b"eiapbem/v1/" + kind.encode("ascii")


def signed_message(kind: str, prefix: bytes) -> bytes:
    return label(kind) + b"\x00" + prefix


def hkdf(ikm: bytes, salt: bytes, info: bytes) -> bytes:
    return HKDF(algorithm=hashes.SHA256(), length=32, salt=salt, info=info).derive(ikm)


class KeystreamRng:
    """Deterministic randomness for test vectors and benchmarks: SHA-256 in counter mode.

    Never used for real files; the generator of test vectors injects it so the
    committed vectors can be rebuilt byte for byte.
    """

    def __init__(self, seed: bytes) -> None:
        self._seed = hashlib.sha256(b"eiapbem/v1/test-rng\x00" + seed).digest()
        self._counter = 0
        self._buf = b""

    def __call__(self, n: int) -> bytes:
        while len(self._buf) < n:
            self._buf += hashlib.sha256(self._seed + self._counter.to_bytes(8, "big")).digest()
            self._counter += 1
        out, self._buf = self._buf[:n], self._buf[n:]
        return out


# --- recipients ---------------------------------------------------------------


@dataclass(frozen=True)
class ToKey:
    """Seal for ``role`` with its X25519 public key."""

    role: str
    enc: bytes


@dataclass(frozen=True)
class ToPassword:
    """Seal under a password (identity files only)."""

    role: str
    password: str
    logn: int = STRONG_LOGN
    r: int = STRONG_R
    p: int = STRONG_P


def _aead_seal(key: bytes, plaintext: bytes, aad: bytes) -> bytes:
    return ChaCha20Poly1305(key).encrypt(ZERO_NONCE, plaintext, aad)


def scrypt_key(password: str, salt: bytes, logn: int, r: int, p: int) -> bytes:
    if not isinstance(password, str) or not password:
        raise WrongPassword("an empty password cannot open or seal a file; give the player's password")
    if not kdf.in_bounds(logn, r, p):
        raise BadHeader(
            f"scrypt parameters logn={logn} r={r} p={p} are outside what a reader accepts "
            f"(logn {env_mod.SCRYPT_LOGN[0]}-{env_mod.SCRYPT_LOGN[1]}, r {env_mod.SCRYPT_R[0]}-{env_mod.SCRYPT_R[1]}, "
            f"p {env_mod.SCRYPT_P[0]}-{env_mod.SCRYPT_P[1]})"
        )
    try:
        return kdf.derive(password, salt, logn, r, p)
    except MemoryError as err:
        raise BadEncryption(
            f"this computer has not enough memory for the password's key derivation (logn={logn}, r={r})"
        ) from err


def _x25519_wrap_key(shared: bytes, epk: bytes, pub: bytes, role: str) -> bytes:
    if shared == bytes(32):
        raise BadEncryption("a key stanza gives an all-zero shared secret")
    return hkdf(shared, epk + pub, b"eiapbem/v1/x25519/" + role.encode("ascii"))


def _make_stanza(to: ToKey | ToPassword, fk: bytes, rng: Rng) -> Stanza:
    if isinstance(to, ToKey):
        e = X25519PrivateKey.from_private_bytes(rng(32))
        epk = e.public_key().public_bytes_raw()
        shared = e.exchange(X25519PublicKey.from_public_bytes(to.enc))
        wrap = _x25519_wrap_key(shared, epk, to.enc, to.role)
        return headers.X25519Stanza(to.role, epk, _aead_seal(wrap, fk, b""))
    salt = rng(16)
    wrap = scrypt_key(to.password, salt, to.logn, to.r, to.p)
    return headers.ScryptStanza(to.role, salt, to.logn, to.r, to.p, _aead_seal(wrap, fk, b""))


# --- sealing --------------------------------------------------------------------


@dataclass(frozen=True)
class Sealed:
    """A sealed file: its bytes, the detached ``.sav.dat`` bytes (save, backup) and its hash."""

    data: bytes
    dat: bytes | None
    hash: bytes
    header: Header


def seal(
    *,
    kind: str,
    game: str,
    gid: bytes,
    slot: str,
    author: str,
    signer: Ed25519PrivateKey,
    to: Sequence[ToKey | ToPassword],
    body: Any,
    seq: int = 0,
    epoch: int = 0,
    prev: bytes = b"",
    rng: Rng = os.urandom,
    **fields: Any,
) -> Sealed:
    """Seal ``body`` (a canonical value) into a file of ``kind`` signed by ``signer``."""
    plaintext = canonical.encode(body)
    if len(plaintext) > MAX_PLAINTEXT:
        raise BadFormat(f"the {kind} body is {len(plaintext)} bytes, over the limit of {MAX_PLAINTEXT}")
    fk = rng(32)
    stanzas = tuple(_make_stanza(t, fk, rng) for t in to)
    ct = _aead_seal(hkdf(fk, b"", b"eiapbem/v1/payload/" + kind.encode("ascii")), plaintext, label(kind) + b"\x00")
    detached = kind in env_mod.DETACHED
    if detached:
        fields["dat"] = headers.DatRef(len(ct), hashlib.sha256(ct).digest())
    header = headers.make(kind, game=game, gid=gid, slot=slot, author=author, seq=seq, epoch=epoch, prev=prev,
                          to=stanzas, **fields)
    hb = header.encode()
    # Validate what we write exactly as a reader would (one code path for the schema).
    env_mod.decode_header(hb, f"the {kind} file being written")
    body_bytes = b"" if detached else ct
    prefix = env_mod.prefix_of(hb, body_bytes)
    sig = signer.sign(signed_message(kind, prefix))
    data = prefix + sig
    return Sealed(data, ct if detached else None, hashlib.sha256(prefix).digest(), header)


# --- opening --------------------------------------------------------------------


def verify(envelope: Envelope, sign_pub: bytes, name: str = "the file") -> None:
    """Check the signature with the author's Ed25519 key; raise ``BadSignature``."""
    try:
        Ed25519PublicKey.from_public_bytes(sign_pub).verify(
            envelope.signature, signed_message(envelope.header.kind, envelope.prefix)
        )
    except (InvalidSignature, ValueError) as err:
        raise BadSignature(
            f"{name} is not signed by {envelope.header.author}'s key: it was altered or forged",
            hint="ask its author to send the file again; if it repeats, tell the host",
        ) from err


def unwrap_key(envelope: Envelope, role: str, enc_secret: X25519PrivateKey, name: str = "the file") -> bytes:
    """The file key from ``role``'s x25519 stanza."""
    st = envelope.header.stanza_for(role)
    if not isinstance(st, headers.X25519Stanza):
        raise NotForYou(f"{name} is not sealed for {role}; it is meant for {', '.join(s.role for s in envelope.header.to)}")
    pub = enc_secret.public_key().public_bytes_raw()
    try:
        shared = enc_secret.exchange(X25519PublicKey.from_public_bytes(st.epk))
    except ValueError as err:
        raise BadEncryption(f"{name} has a broken key stanza for {role}") from err
    wrap = _x25519_wrap_key(shared, st.epk, pub, role)
    try:
        return ChaCha20Poly1305(wrap).decrypt(ZERO_NONCE, st.key, b"")
    except InvalidTag as err:
        raise BadEncryption(f"{name} has a key stanza for {role} that does not open with {role}'s key") from err


def unwrap_password(envelope: Envelope, password: str, name: str = "the file") -> bytes:
    """The file key from the scrypt stanza of an identity file."""
    st = envelope.header.to[0]
    if not isinstance(st, headers.ScryptStanza):
        raise NotForYou(f"{name} is not sealed under a password")
    wrap = scrypt_key(password, st.salt, st.logn, st.r, st.p)
    try:
        return kdf.unwrap(wrap, st.key)
    except InvalidTag as err:
        raise WrongPassword(f"the password does not open {name}", hint="check the password and try again") from err


def open_body(envelope: Envelope, fk: bytes, name: str = "the file", *, dat: bytes | None = None) -> Any:
    """Decrypt and strictly decode the body (``dat``: the detached ciphertext of a save)."""
    kind = envelope.header.kind
    if kind in env_mod.DETACHED:
        if dat is None:
            raise BadFormat(f"{name} needs its .sav.dat file beside it")
        ref = envelope.header.dat  # type: ignore[attr-defined]
        if len(dat) != ref.len or hashlib.sha256(dat).digest() != ref.sha256:
            raise BadEncryption(f"the .sav.dat beside {name} is not the one it was saved with")
        ct = dat
    else:
        ct = envelope.body
    try:
        pt = ChaCha20Poly1305(hkdf(fk, b"", b"eiapbem/v1/payload/" + kind.encode("ascii"))).decrypt(
            ZERO_NONCE, ct, label(kind) + b"\x00"
        )
    except InvalidTag as err:
        raise BadEncryption(f"the body of {name} does not decrypt: it was damaged or altered") from err
    try:
        return canonical.decode(pt, max_bytes=MAX_PLAINTEXT, max_container=MAX_BODY_CONTAINER)
    except BadEncoding as err:
        raise BadEncoding(f"the body of {name} is not canonical msgpack ({err})") from err


def verify_with_roster(envelope: Envelope, roster: dict[str, RosterEntry], name: str = "the file") -> None:
    entry = roster.get(envelope.header.author)
    if entry is None:
        raise BadSignature(f"{name} is signed by {envelope.header.author}, who has no key in this game")
    verify(envelope, entry.sign, name)


# --- dice ------------------------------------------------------------------------


def chain_step(x: bytes) -> bytes:
    """H of the dice hash chain (docs/file-format.md 7.1)."""
    return hashlib.sha256(b"eiapbem/v1/dice-chain\x00" + x).digest()


def dice_seed(reveal: bytes, prev: bytes, kind: str) -> bytes:
    """The dice seed of a file: HMAC(revealed link, label || prev)."""
    return hmac.new(reveal, b"eiapbem/v1/dice-seed/" + kind.encode("ascii") + b"\x00" + prev, hashlib.sha256).digest()


def nonce_commit(nonce: bytes) -> bytes:
    return hashlib.sha256(b"eiapbem/v1/battle-nonce\x00" + nonce).digest()


def battle_seed(first: bytes, second: bytes, base: bytes) -> bytes:
    return hmac.new(first + second, b"eiapbem/v1/battle-seed\x00" + base, hashlib.sha256).digest()


def join_hash(hashes: Sequence[bytes]) -> bytes:
    return hashlib.sha256(b"eiapbem/v1/join\x00" + len(hashes).to_bytes(4, "big") + b"".join(hashes)).digest()


def epoch_base(gid: bytes, epoch: int, state: bytes) -> bytes:
    return hashlib.sha256(b"eiapbem/v1/epoch\x00" + gid + epoch.to_bytes(4, "big") + state).digest()
