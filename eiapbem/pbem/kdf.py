"""The password's key derivation (scrypt) and the file key it unwraps, as a key file's scrypt stanza holds it.

Light on purpose (``cryptography``'s scrypt and ChaCha20-Poly1305 only): a fresh ``eiapbem status`` unlocks
its status record with these alone (``client/statusfile.py``); ``pbem.crypto`` builds on them for every
file sealed under a password.  The two primitives are loaded when first used: a command that only reads a
file's clear header (``pbem.headers`` takes the bounds below) loads no cipher.
"""

from __future__ import annotations

#: What a reader accepts for scrypt's cost parameters (a header outside them is refused unread).
SCRYPT_LOGN = (10, 18)
SCRYPT_R = (1, 8)
SCRYPT_P = (1, 4)
SALT_PREFIX = b"eiapbem/v1/scrypt"
ZERO_NONCE = bytes(12)


def in_bounds(logn: int, r: int, p: int) -> bool:
    return all(lo <= v <= hi for v, (lo, hi) in zip((logn, r, p), (SCRYPT_LOGN, SCRYPT_R, SCRYPT_P)))


def derive(password: str, salt: bytes, logn: int, r: int, p: int) -> bytes:
    """The 32-byte key that wraps a file key under ``password`` (``MemoryError`` when the machine lacks it)."""
    from cryptography.hazmat.primitives.kdf.scrypt import Scrypt

    return Scrypt(salt=SALT_PREFIX + salt, length=32, n=2**logn, r=r, p=p).derive(password.encode("utf-8"))


def unwrap(wrap: bytes, wrapped: bytes) -> bytes:
    """The file key a stanza wraps (``cryptography.exceptions.InvalidTag``: not this password's)."""
    from cryptography.hazmat.primitives.ciphers.aead import ChaCha20Poly1305

    return ChaCha20Poly1305(wrap).decrypt(ZERO_NONCE, wrapped, b"")
